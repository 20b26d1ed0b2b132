#!/bin/sh
# test_cli_html.sh: xliffmt extract and merge on HTML pages.
# For every Okapi HTML file: extract writes XLIFF valid against the XLIFF
# 1.2 transitional schema; merge with every target copied from its source
# gives the page back byte for byte; merge without targets gives it back
# too, reports each unit and exits 3. Bad input: a missing page, a bad
# XLIFF (FILE:LINE:COLUMN), the XLIFF of another page: exit 1, no output.
# Then a real page through Apertium (eng-spa), when that backend is there.
# Env: XLIFFMT, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data okapi/html
html=$XMT_TEST_DATA/okapi/html
if ! command -v perl >/dev/null 2>&1; then
  echo "SKIP: perl not found"
  exit 77
fi
xsd=$XMT_TEST_DATA/xliff-schema/xliff-core-1.2-transitional.xsd
case ${XMLLINT:-no} in
'' | no) ;;
*) have_data xliff-schema/xliff-core-1.2-transitional.xsd ;;
esac

cli_setup html

x=$XLIFFMT

# same DESC A B: byte-for-byte equal, else the first differences.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$3" | sed -n '1,8s/^/    /p'
  fi
}
stderr_has() {
  if grep -q -E -e "$2" "$tmp/err"; then
    pass "$1"
  else
    fail "$1: stderr does not match /$2/"
    sed -n '1,5s/^/    stderr: /p' "$tmp/err"
  fi
}
valid() {
  case ${XMLLINT:-no} in
  '' | no) return 0 ;;
  esac
  [ -f "$xsd" ] || return 0
  if "$XMLLINT" --noout --nonet --schema "$xsd" "$1" >"$tmp/lint" 2>&1; then
    pass "$2"
  else
    fail "$2"
    sed -n '1,5s/^/    /p' "$tmp/lint"
  fi
}

# Copies each <source> into a <target> after it.
cat >"$tmp/copy.pl" <<'EOF'
local $/;
binmode STDIN;
binmode STDOUT;
my $s = <STDIN>;
$s =~ s{(<source\b[^>]*>(.*?)</source>)}{$1<target xml:lang="xx">$2</target>}gs;
print $s;
EOF

n=0
for f in "$html"/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  name=${f##*/}
  rm -f "$tmp/p.xlf" "$tmp/t.xlf" "$tmp/out.html"
  expect_exit 0 "$name: extract" "$x" extract "$f" -s en -o "$tmp/p.xlf" -q ||
    continue
  check "$name: one trans-unit at least" grep -q '<trans-unit ' "$tmp/p.xlf"
  valid "$tmp/p.xlf" "$name: extract validates against the XLIFF 1.2 schema"
  perl "$tmp/copy.pl" <"$tmp/p.xlf" >"$tmp/t.xlf"
  # Targets copied from the sources are in the page's own language: the
  # one its Content-Language says, else en.
  lang=$(sed -n 's/.*Content-Language" content="\([^"]*\)".*/\1/p' "$f")
  lang=${lang:-en}
  valid "$tmp/t.xlf" "$name: with targets, still valid"
  if expect_exit 0 "$name: merge" \
    "$x" merge "$f" "$tmp/t.xlf" -t "$lang" -o "$tmp/out.html" -q; then
    same "$name: merge of copied targets gives the page back" "$f" \
      "$tmp/out.html"
  fi
  units=$(grep -c '<trans-unit ' "$tmp/p.xlf")
  rm -f "$tmp/out.html"
  if expect_exit 3 "$name: merge without targets" \
    "$x" merge "$f" "$tmp/p.xlf" -t "$lang" -o "$tmp/out.html"; then
    same "$name: untranslated page written unchanged" "$f" "$tmp/out.html"
    reported=$(grep -c 'no target: the source text is kept' "$tmp/err")
    check "$name: each of $units units reported" test "$reported" = "$units"
    stderr_has "$name: summary" "$units units, 0 translated, $units kept"
  fi
done
check "Okapi HTML files found ($n)" test "$n" -ge 10

# A page with attributes, lang, a missing target and stdout output.
cat >"$tmp/page.html" <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head><title>My page</title></head>
<body>
<p>The car is <i>very</i> fast.</p>
<img src="a.png" alt="A dog">
</body>
</html>
EOF
expect_exit 0 "page: extract to stdout, languages from the page and -t" \
  "$x" extract "$tmp/page.html" -t es -q
cp "$tmp/out" "$tmp/page.xlf"
check "page: source-language from <html lang>" \
  grep -q 'source-language="en" target-language="es"' "$tmp/page.xlf"
check "page: restype of the alt unit" grep -q 'restype="x-html-alt"' \
  "$tmp/page.xlf"
perl -0pe 's{<source>My page</source>}{<source>My page</source><target>Mi p&#225;gina</target>}' \
  "$tmp/page.xlf" >"$tmp/page2.xlf"
rm -f "$tmp/page.out"
if expect_exit 3 "page: merge with one target" \
  "$x" merge "$tmp/page.html" "$tmp/page2.xlf" -o "$tmp/page.out"; then
  check "page: the target is in" grep -q '<title>Mi página</title>' \
    "$tmp/page.out"
  check "page: lang is the target language" grep -q '<html lang="es">' \
    "$tmp/page.out"
  stderr_has "page: missing targets named by unit and line" \
    'page2\.xlf:[0-9]+: unit 2: no target'
fi

# Bad input: exit 1, FILE[:LINE:COLUMN] on stderr, no output file.
rm -f "$tmp/o.xlf"
expect_exit 1 "missing page: extract" "$x" extract "$tmp/nope.html" -s en \
  -o "$tmp/o.xlf" && stderr_has "missing page named" 'nope\.html'
check "missing page: no output" test ! -e "$tmp/o.xlf"
rm -f "$tmp/o.html"
expect_exit 1 "missing page: merge" "$x" merge "$tmp/nope.html" \
  "$tmp/page.xlf" -o "$tmp/o.html"
check "missing page: no merge output" test ! -e "$tmp/o.html"
head -c 300 "$tmp/page.xlf" >"$tmp/bad.xlf"
expect_exit 1 "truncated XLIFF" "$x" merge "$tmp/page.html" "$tmp/bad.xlf" \
  -o "$tmp/o.html" && stderr_has "truncated XLIFF: FILE:LINE:COLUMN" \
  'bad\.xlf:[0-9]+:[0-9]+:'
check "truncated XLIFF: no output" test ! -e "$tmp/o.html"
echo '<p>Another page</p>' >"$tmp/other.html"
expect_exit 1 "XLIFF of another page" "$x" merge "$tmp/other.html" \
  "$tmp/page.xlf" -o "$tmp/o.html" &&
  stderr_has "another page: the unit and its line" \
    'page\.xlf:[0-9]+: .*(unit 1)'
check "another page: no output" test ! -e "$tmp/o.html"
check "no temporary files left" test -z "$(ls "$tmp" | grep tmp)"
expect_exit 1 "no language" "$x" extract "$tmp/other.html" -o "$tmp/o.xlf" &&
  stderr_has "no language: asks for -s" '-s'
check "no language: no output" test ! -e "$tmp/o.xlf"

# A real page through Apertium: inline elements kept, around their words.
if "$x" translate "$tmp/page2.xlf" --mt apertium:eng-spa -o "$tmp/ap.xlf" -q \
  2>"$tmp/err"; then
  if expect_exit 0 "apertium: merge" \
    "$x" merge "$tmp/page.html" "$tmp/ap.xlf" -o "$tmp/ap.html" -q; then
    check "apertium: <i> around 'muy'" grep -q '<i>muy</i>' "$tmp/ap.html"
    check "apertium: alt translated" grep -q 'alt="Un perro"' "$tmp/ap.html"
    check "apertium: the hand-made target kept" \
      grep -q '<title>Mi página</title>' "$tmp/ap.html"
    check "apertium: one <i> and one </i>" \
      test "$(grep -o '<i>' "$tmp/ap.html" | wc -l)" -eq 1 -a \
      "$(grep -o '</i>' "$tmp/ap.html" | wc -l)" -eq 1
  fi
elif grep -q -i 'unknown\|backend' "$tmp/err"; then
  echo "# apertium:eng-spa not available: that part skipped"
else
  fail "apertium: translate failed"
  sed -n '1,5s/^/    stderr: /p' "$tmp/err"
fi

finish
