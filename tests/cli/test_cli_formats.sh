#!/bin/sh
# test_cli_formats.sh: the format table decides what a document is, by its
# content first: an HTML page named page.xlf is HTML for translate,
# extract, check and report, with no temporary file; an XLIFF document
# named doc.html is XLIFF;
# standard input is read ahead (also in pieces) and then read whole;
# options are abbreviated as getopt allows.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup formats
x=$XLIFFMT

# same DESC FILE: $tmp/out equals FILE byte for byte.
same() {
  if cmp -s "$tmp/out" "$2"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$tmp/out" | sed -n '1,8s/^/    /p'
  fi
}

printf '<!DOCTYPE html>\n<html lang="en"><body><p>Hello <b>world</b>.</p></body></html>\n' \
  >"$tmp/page.xlf"
cat >"$tmp/doc.html" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="fr" datatype="plaintext">
<body>
<trans-unit id="1"><source>Hello <g id="1">world</g>.</source></trans-unit>
</body></file></xliff>
EOF

# The page's XLIFF, named after its input.
xliff_of() {
  cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="$1" source-language="en" datatype="html">
<body>
<trans-unit id="1" restype="x-html-p">
<source>Hello <g id="1" ctype="bold">world</g>.</source>
</trans-unit>
</body>
</file>
</xliff>
EOF
}
xliff_of "$tmp/page.xlf" >"$tmp/want-extract"
xliff_of - >"$tmp/want-extract-stdin"
printf '<!DOCTYPE html>\n<html lang="fr"><body><p>[<b>wórld.</b> Hélló ~~~~]</p></body></html>\n' \
  >"$tmp/want-page"
cat >"$tmp/want-check" <<EOF
$tmp/page.xlf: HTML page, as XLIFF 1.2, UTF-8
  files              1
  units              1 (1 translatable, 0 with target)
  segments           1
  words              2
  inline codes       g=1 x=0 bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0
  problems           0 errors, 0 warnings
EOF
printf '1#0\tHello world.\n' >"$tmp/want-segments"

# An HTML page named page.xlf is HTML everywhere.
expect_exit 0 "page.xlf: translate" "$x" translate "$tmp/page.xlf" -t fr \
  --mt pseudo -q && same "page.xlf: translate writes the page" "$tmp/want-page"
expect_exit 0 "page.xlf: extract" "$x" extract "$tmp/page.xlf" -q &&
  same "page.xlf: extract writes XLIFF" "$tmp/want-extract"
expect_exit 0 "page.xlf: check" "$x" check "$tmp/page.xlf" &&
  same "page.xlf: check reports the page" "$tmp/want-check"
expect_exit 0 "page.xlf: report --findings" "$x" report --findings \
  "$tmp/page.xlf" -t fr -o "$tmp/findings.xml" &&
  check "page.xlf: report has the page's segment" grep -q \
    '<source>Hello <x:g id="1" ctype="bold">world</x:g>.</source>' \
    "$tmp/findings.xml"
expect_exit 1 "page.xlf: merge takes its XLIFF, not segments" "$x" merge \
  "$tmp/page.xlf" --translations "$tmp/want-segments" -o "$tmp/m.html" &&
  check "page.xlf: merge says why" grep -q \
    "^xliffmt: --translations does not apply to an HTML page$" "$tmp/err"

# A page goes through the run in memory: no temporary file, so a
# TMPDIR that cannot be written does not matter.
expect_exit 0 "no TMPDIR: translate a page" env TMPDIR="$tmp/none" "$x" \
  translate "$tmp/page.xlf" -t fr --mt pseudo -q &&
  same "no TMPDIR: translate writes the page" "$tmp/want-page"
expect_exit 0 "no TMPDIR: check a page" env TMPDIR="$tmp/none" "$x" check \
  "$tmp/page.xlf" && same "no TMPDIR: check reports the page" "$tmp/want-check"
expect_exit 0 "no TMPDIR: report a page" env TMPDIR="$tmp/none" "$x" report \
  --findings "$tmp/page.xlf" -t fr -o "$tmp/findings2.xml" &&
  check "no TMPDIR: the same findings" cmp -s "$tmp/findings.xml" \
    "$tmp/findings2.xml"

# An XLIFF document named doc.html is XLIFF.
expect_exit 0 "doc.html: extract segments" "$x" extract "$tmp/doc.html" -q &&
  sed -i 1d "$tmp/out" && # the header
  same "doc.html: extract writes its segments" "$tmp/want-segments"
expect_exit 0 "doc.html: translate" "$x" translate "$tmp/doc.html" \
  --mt identity -q -o "$tmp/doc.out" &&
  check "doc.html: translated as XLIFF" grep -q \
    '<target xml:lang="fr" state="needs-review-translation" state-qualifier="mt-suggestion">Hello <g id="1">world</g>.</target>' \
    "$tmp/doc.out"

# Standard input is looked at, then read from its start: redirected, piped,
# and piped in pieces (the first bytes arrive alone).
expect_exit 0 "stdin HTML: extract" sh -c "\"$x\" extract - -q <\"$tmp/page.xlf\"" &&
  same "stdin HTML: extract writes XLIFF" "$tmp/want-extract-stdin"
expect_exit 0 "piped HTML in pieces: extract" sh -c \
  "{ head -c 9 \"$tmp/page.xlf\"; sleep 1; tail -c +10 \"$tmp/page.xlf\"; } | \"$x\" extract - -q" &&
  same "piped HTML in pieces: extract writes XLIFF" "$tmp/want-extract-stdin"
expect_exit 0 "stdin HTML: translate" sh -c \
  "cat \"$tmp/page.xlf\" | \"$x\" translate - -t fr --mt pseudo -q" &&
  same "stdin HTML: translate writes the page" "$tmp/want-page"
expect_exit 0 "stdin XLIFF: extract" sh -c \
  "cat \"$tmp/doc.html\" | \"$x\" extract - -q" &&
  sed -i 1d "$tmp/out" && # the header
  same "stdin XLIFF: extract writes its segments" "$tmp/want-segments"
expect_exit 0 "stdin XLIFF: translate" sh -c \
  "\"$x\" translate - --mt identity -q -o \"$tmp/doc2.out\" <\"$tmp/doc.html\"" &&
  check "stdin XLIFF: the same document as from the file" \
    cmp -s "$tmp/doc.out" "$tmp/doc2.out"
expect_exit 0 "stdin HTML: check" sh -c "\"$x\" check - <\"$tmp/page.xlf\"" &&
  check "stdin HTML: check names standard input" \
    grep -q '^-: HTML page, as XLIFF 1.2, UTF-8$' "$tmp/out"

# Standard input whose format takes more than one byte to tell, and that
# is longer than what is read to tell it: XLIFF 1.2, XLIFF 2 and HTML give
# on standard input, redirected and piped, what they give from the file
# (the file's name and the time taken aside), exit status included.
timing='s/; [0-9.]* s$/; N s/'
while read -r doc tgt; do
  name=$(basename "$doc")
  for cmd in "translate -s en -t $tgt --mt pseudo -o -" "extract -o -" \
    "check"; do
    # shellcheck disable=SC2086 # $cmd is the command and its options
    {
      "$x" $cmd "$doc"
      echo "exit $?"
    } 2>&1 | sed -e "s|$doc|-|g" -e "s|^\(#xliffmt-segments document=\)$name |\1- |" \
      -e "$timing" >"$tmp/want-stdin"
    check "$name: $cmd succeeds" grep -qx 'exit 0' "$tmp/want-stdin"
    # shellcheck disable=SC2086
    {
      "$x" $cmd - <"$doc"
      echo "exit $?"
    } 2>&1 | sed "$timing" >"$tmp/out"
    same "stdin $name: $cmd as from the file" "$tmp/want-stdin"
    # shellcheck disable=SC2086
    {
      cat "$doc" | "$x" $cmd -
      echo "exit $?"
    } 2>&1 | sed "$timing" >"$tmp/out"
    same "piped $name: $cmd as from the file" "$tmp/want-stdin"
  done
done <<EOF
$XMT_FIXTURES/report-flags.xlf es
$XMT_FIXTURES/xliff2/inline.xlf fr
$XMT_TEST_DATA/okapi/html/okapi_intro_test.html fr
EOF

# Abbreviated long options, as getopt_long takes them.
expect_exit 0 "--outp abbreviates --output" "$x" extract --outp \
  "$tmp/abbrev.xlf" "$tmp/page.xlf" -q &&
  check "--outp: the file is written" cmp -s "$tmp/abbrev.xlf" \
    "$tmp/want-extract"
expect_exit 0 "--outp on translate" "$x" translate --outp "$tmp/abbrev.out" \
  "$tmp/doc.html" --mt identity --qui &&
  check "--outp on translate: the file is written" cmp -s "$tmp/abbrev.out" \
    "$tmp/doc.out"

expect_exit 0 "--outp and --transl on merge" "$x" merge --outp \
  "$tmp/merged.xlf" --transl "$tmp/want-segments" "$tmp/doc.html" -q &&
  check "--outp on merge: the file is written" grep -q \
    '>Hello <g id="1">world</g>.</target>' "$tmp/merged.xlf"
expect_exit 1 "an ambiguous abbreviation" "$x" translate "$tmp/doc.html" \
  --mt identity --s en
expect_exit 1 "--skip-pre does not apply to segments" "$x" extract \
  --skip-pre "$tmp/doc.html"

# The backends --help lists are the registry's, and the man page's.
"$x" --list-backends >"$tmp/registry" 2>&1
check "--list-backends lists identity" grep -q "^identity" "$tmp/registry"
cut -d' ' -f1 "$tmp/registry" | sed 's/:.*//' >"$tmp/names"
"$x" translate --help | sed -n '/^MT backends/,/^$/s/^  \([a-z]*\).*/\1/p' \
  >"$tmp/help-names"
check "translate --help lists the registry's backends" \
  cmp -s "$tmp/names" "$tmp/help-names"
# translate and report name the office formats they take.
"$x" translate --help | tr '\n' ' ' >"$tmp/translate-help"
check "translate --help names Word and OpenDocument Text" \
  grep -q 'HTML, Word (.docx) or OpenDocument Text (.odt) document' \
  "$tmp/translate-help"
"$x" report --help | tr '\n' ' ' >"$tmp/report-help"
check "report --help names Word and OpenDocument Text" \
  grep -q 'HTML, Word or OpenDocument Text document' "$tmp/report-help"
man=$(dirname "$0")/../../doc/xliffmt-translate.1
while read -r name; do
  check "xliffmt-translate(1) describes --mt $name" \
    grep -q "^\.B[IR]* $name\b" "$man"
done <"$tmp/names"

finish
