#!/bin/sh
# test_cli_tt_roundtrip.sh: a Translate Toolkit round trip of an
# OpenDocument text (tests/fixtures/library.odt, made by make-odt.py):
# odf2xliff (XLIFF 1.1), xliffmt translate --approved with Apertium
# eng-spa, xliff2odf. The document must come back in Spanish with every
# bold, italic and link span in place, the XLIFF still 1.1; without
# --approved, xliff2odf takes no target (the document stays English).
# Env: XLIFFMT, XMT_FIXTURES. Needs translate-toolkit (odf2xliff,
# xliff2odf), Apertium with apertium-eng-spa, and python3.
# Exit 0 pass, 1 fail, 77 skip (odf2xliff or xliff2odf cannot run).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup ttround

odt=${XMT_FIXTURES:-}/library.odt
cp "$odt" "$tmp/library.odt" || exit 99
if ! odf2xliff "$tmp/library.odt" "$tmp/library.xlf" >"$tmp/log" 2>&1 ||
  ! command -v xliff2odf >/dev/null 2>&1; then
  echo "SKIP: odf2xliff/xliff2odf of translate-toolkit cannot run"
  sed -n '1,3s/^/    /p' "$tmp/log"
  exit 77
fi
if ! command -v apertium >/dev/null 2>&1 ||
  ! apertium -l 2>/dev/null | grep -q '^ *eng-spa *$'; then
  fail "Apertium eng-spa is needed (scripts/install-deps.sh installs it)"
  finish
fi

x=$XLIFFMT
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# content FILE.odt: the text body of content.xml, one paragraph a line.
content() {
  "$py" - "$1" <<'PY'
import re, sys, zipfile
xml = zipfile.ZipFile(sys.argv[1]).read("content.xml").decode("utf-8")
body = xml[xml.index("<office:text>"):]
print(re.sub(r"(</text:(?:p|h)>)", r"\1\n", body))
PY
}

# spans FILE.odt: each text:span and text:a, "NAME STYLE|HREF: TEXT".
spans() {
  "$py" - "$1" <<'PY'
import re, sys, zipfile
xml = zipfile.ZipFile(sys.argv[1]).read("content.xml").decode("utf-8")
for m in re.finditer(r'<text:(span|a)\b([^>]*)>(.*?)</text:\1>', xml):
    key = re.search(r'(?:style-name|href)="([^"]*)"', m.group(2)).group(1)
    print("%s %s: %s" % (m.group(1), key, m.group(3)))
PY
}

grep -q 'urn:oasis:names:tc:xliff:document:1.1' "$tmp/library.xlf"
check "odf2xliff writes XLIFF 1.1" test $? -eq 0

if expect_exit 0 "translate --approved with Apertium" "$x" translate \
  "$tmp/library.xlf" -o "$tmp/library.es.xlf" -t es --mt apertium:eng-spa \
  --approved -q; then
  head -2 "$tmp/library.xlf" >"$tmp/head.in"
  head -2 "$tmp/library.es.xlf" >"$tmp/head.out"
  check "still XLIFF 1.1, same namespace" cmp -s "$tmp/head.in" "$tmp/head.out"
  check "every unit approved (5)" \
    test "$(grep -c 'approved="yes"' "$tmp/library.es.xlf")" -eq 5
  check "no seg-source in XLIFF 1.1" \
    test "$(grep -c '<seg-source\|<mrk' "$tmp/library.es.xlf")" -eq 0
fi

if expect_exit 0 "xliff2odf" xliff2odf -t "$tmp/library.odt" \
  "$tmp/library.es.xlf" "$tmp/library.es.odt"; then
  content "$tmp/library.es.odt" >"$tmp/es.txt"
  spans "$tmp/library.odt" >"$tmp/spans.en"
  spans "$tmp/library.es.odt" >"$tmp/spans.es"
  for w in 'La biblioteca' lunes libros ciudad casa; do
    check "Spanish: '$w'" grep -q "$w" "$tmp/es.txt"
  done
  for w in 'The library' Monday books city house; do
    check "no English left: '$w'" test "$(grep -c "$w" "$tmp/es.txt")" -eq 0
  done
  # The same spans, in the same order, each with text, none in English.
  cut -d: -f1 "$tmp/spans.en" >"$tmp/kinds.en"
  cut -d: -f1 "$tmp/spans.es" >"$tmp/kinds.es"
  check "every span kept (5: 2 bold, 2 italic, 1 link)" \
    cmp -s "$tmp/kinds.en" "$tmp/kinds.es"
  check "5 spans" test "$(wc -l <"$tmp/spans.es")" -eq 5
  check "no span empty" test "$(grep -c ': *$' "$tmp/spans.es")" -eq 0
  check "no span left in English" \
    test "$(grep -c -F -x -f "$tmp/spans.en" "$tmp/spans.es")" -eq 0
  sed 's/^/    /' "$tmp/spans.es"
fi

# Without --approved Translate Toolkit takes the targets for fuzzy ones.
rm -f "$tmp/plain.odt"
if exits_with 0 "translate without --approved" "$x" translate \
  "$tmp/library.xlf" -o "$tmp/plain.xlf" -t es --mt apertium:eng-spa -q &&
  exits_with 0 "xliff2odf (not approved)" xliff2odf -t "$tmp/library.odt" \
    "$tmp/plain.xlf" "$tmp/plain.odt"; then
  content "$tmp/plain.odt" >"$tmp/plain.txt"
  check "not approved: xliff2odf keeps the English" \
    grep -q 'The library' "$tmp/plain.txt"
fi

finish
