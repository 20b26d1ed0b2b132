#!/bin/sh
# test_cli_report_browser.sh: the review page opened in headless Chromium:
# the DOM it builds has the table rows, and its screenshot is a PNG of the
# size asked for, in many colours, with the table's header band drawn.
# Env: XLIFFMT, XMT_SAMPLES, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip
# (only when no Chromium can run here, or python3 is missing).
set -u

. "$(dirname "$0")/lib.sh"
sample=${XMT_SAMPLES:-}/sample.xlf
png_info=$(dirname "$0")/png_info.py
if [ ! -f "$sample" ]; then
  echo "SKIP: need $sample"
  exit 77
fi
browser=
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then
    browser=$b
    break
  fi
done
if [ -z "$browser" ]; then
  echo "SKIP: no chromium (Debian package chromium, see scripts/install-deps.sh)"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 not found"
  exit 77
fi

cli_setup report-browser
to=
command -v timeout >/dev/null 2>&1 && to="timeout 120"
# Root needs --no-sandbox; a profile of its own keeps runs apart.
run_browser() {
  # shellcheck disable=SC2086
  HOME=$tmp $to "$browser" --headless --no-sandbox --disable-gpu \
    --no-first-run --hide-scrollbars --user-data-dir="$tmp/profile" "$@" \
    2>>"$tmp/browser.log"
}
printf '<!DOCTYPE html><title>t</title><p>x</p>\n' >"$tmp/probe.html"
if ! run_browser --dump-dom "file://$tmp/probe.html" >"$tmp/probe.dom" ||
  ! grep -q '<p>x</p>' "$tmp/probe.dom"; then
  echo "SKIP: $browser cannot run here: $(tail -3 "$tmp/browser.log")"
  exit 77
fi

x=$XLIFFMT
"$x" translate "$sample" -o "$tmp/sample.es.xlf" -s en -t es --mt pseudo \
  --aligner none -q || fail "translate with pseudo"
page=$tmp/report.html
expect_exit 0 "report" "$x" report "$tmp/sample.es.xlf" -o "$page"

# The DOM after the page's script ran.
if run_browser --dump-dom "file://$page" >"$tmp/dom.html"; then
  rows=$(grep -o '<tr id="s[0-9]*" data-unit=' "$tmp/dom.html" | wc -l)
  if [ "$rows" -eq 9 ]; then
    pass "the browser's DOM has 9 segment rows"
  else
    fail "the browser's DOM has $rows segment rows, expected 9"
  fi
else
  fail "chromium --dump-dom failed: $(tail -3 "$tmp/browser.log")"
fi

shot=$tmp/report.png
run_browser --window-size=1200,800 --screenshot="$shot" "file://$page" \
  >/dev/null
if [ -s "$shot" ]; then
  pass "screenshot written"
else
  fail "no screenshot: $(tail -3 "$tmp/browser.log")"
  finish
fi
# The table header is drawn in #243b53 (36,59,83) across the table.
if info=$(python3 "$png_info" "$shot" 36,59,83); then
  set -- $info
  if [ "$1" -eq 1200 ] && [ "$2" -eq 800 ]; then
    pass "screenshot is 1200x800"
  else
    fail "screenshot is $1x$2, expected 1200x800"
  fi
  if [ "$3" -ge 50 ]; then
    pass "screenshot has $3 colours"
  else
    fail "screenshot has $3 colours: a flat page?"
  fi
  # At least a 1000-pixel-wide, 20-pixel-high band.
  if [ "$4" -ge 20000 ]; then
    pass "the table header is drawn ($4 pixels)"
  else
    fail "the table header colour covers $4 pixels"
  fi
else
  fail "the screenshot is not an 8-bit RGB(A) PNG"
fi

finish
