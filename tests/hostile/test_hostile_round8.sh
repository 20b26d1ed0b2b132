#!/bin/sh
# test_hostile_round8.sh: exit 0 means the output is right.
#   - merge of an HTML page whose XLIFF names no target language and no
#     -t: refused as Word and OpenDocument merge refuse it, exit 1, no
#     output (the page was written translated under its lang="en",
#     exit 0); a target language that is no language tag (the XLIFF's
#     "e s", -t es_ES) refused alike (the lang="en" was kept).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round8
x=$XLIFFMT

# --- An HTML page merged with no target language.
cat >"$tmp/p.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello <b>world</b>.</p><p>Second one.</p></body></html>
EOD
"$x" extract "$tmp/p.html" -o "$tmp/p.xlf" -q || exit 99
"$x" translate "$tmp/p.xlf" -o "$tmp/p.es.xlf" -t es --mt pseudo -q || exit 99
sed 's/ target-language="es"//' "$tmp/p.es.xlf" >"$tmp/p.none.xlf"
sed 's/ target-language="es"/ target-language="e s"/' "$tmp/p.es.xlf" \
  >"$tmp/p.bad.xlf"
# refused DESC MESSAGE ARGS...: merge ARGS -o OUT is refused, exit 1,
# with MESSAGE, no OUT.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f "$tmp/out.html"
  within "$desc" 1 20 300 "$x" merge "$@" -o "$tmp/out.html" -q
  said "$desc" "$msg"
  check "$desc: no output" test ! -e "$tmp/out.html"
}
refused "HTML merge, no target language" \
  "xliffmt: $tmp/p.none.xlf: no target language: the XLIFF names none; give one with -t" \
  "$tmp/p.html" "$tmp/p.none.xlf"
refused "HTML merge, the XLIFF's target language no tag" \
  "xliffmt: $tmp/p.bad.xlf: target language 'e s' is not a language tag; give one with -t" \
  "$tmp/p.html" "$tmp/p.bad.xlf"
refused "HTML merge, -t no tag" \
  "xliffmt: invalid language tag 'es_ES' for <html lang>" \
  "$tmp/p.html" "$tmp/p.es.xlf" -t es_ES
within "HTML merge, -t" 0 20 300 "$x" merge "$tmp/p.html" "$tmp/p.none.xlf" \
  -t es -o "$tmp/out.html" -q
check "HTML merge, -t: lang=\"es\"" grep -q '^<!DOCTYPE html><html lang="es">' \
  "$tmp/out.html"

finish
