#!/bin/sh
# test_cli_check.sh: "xliffmt check" counts and problems, JSON and text.
# Expected numbers were counted by hand in the files (see
# tests/fixtures/README for check-problems.xlf).
# Env: XLIFFMT, XMT_TEST_DATA, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data okapi/xliff/docxtest.docx.xlf
docx=$XMT_TEST_DATA/okapi/xliff/docxtest.docx.xlf
problems=${XMT_FIXTURES:-}/check-problems.xlf
if [ ! -f "$problems" ]; then
  echo "SKIP: need $problems"
  exit 77
fi

cli_setup check

# json_has DESC FIXED-STRING: $tmp/out (the JSON) contains the string.
json_has() {
  if grep -q -F -e "$2" "$tmp/out"; then
    pass "$1"
  else
    fail "$1: no '$2' in $(head -c 600 "$tmp/out")"
  fi
}
# json_is NAME KEY VALUE: the JSON has "KEY":VALUE followed by , or }.
json_is() {
  if grep -q -E -e "\"$2\":$3[,}]" "$tmp/out"; then
    pass "$1: $2 = $3"
  else
    got=$(grep -o -E -e "\"$2\":[^,}]*" "$tmp/out" | head -1)
    fail "$1: $2 = $3 expected, got '${got:-nothing}'"
  fi
}

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
# json_parses NAME: $tmp/out is one valid JSON document.
json_parses() {
  if [ "$have_python" = no ]; then
    echo "# $1: python3 not found, JSON parse not checked"
  elif python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out" \
    2>"$tmp/perr"; then
    pass "$1: JSON parses"
  else
    fail "$1: JSON does not parse: $(tail -1 "$tmp/perr")"
  fi
}

x=$XLIFFMT

# --- docxtest.docx.xlf: 6 <file>, 20 single-segment units, all with
# targets; sources hold 10 <g> and 5 <x/>; no problems.
n=docxtest
expect_exit 0 "$n: check --json" "$x" check --json "$docx"
json_parses $n
json_has "$n: file" "\"file\":\"$docx\""
json_has "$n: encoding" '"encoding":"UTF-8"'
json_is $n files 6
json_is $n units 20
json_is $n translatable_units 20
json_is $n units_with_target 20
json_is $n segments 20
json_is $n words 132
json_has "$n: codes" \
  '"codes":{"g":10,"x":5,"bx":0,"ex":0,"bpt":0,"ept":0,"ph":0,"it":0,"mrk":0,"other":0}'
json_is $n errors 0
json_is $n warnings 0
json_has "$n: no problems" '"problems":[]'

expect_exit 0 "$n: check (text)" "$x" check "$docx"
if grep -q -E '^ *units +20 \(20 translatable, 20 with target\)$' "$tmp/out"; then
  pass "$n: text units line"
else
  fail "$n: text units line: $(grep units "$tmp/out")"
fi
if grep -q -E '^ *problems +0 errors, 0 warnings$' "$tmp/out"; then
  pass "$n: text problems line"
else
  fail "$n: text problems line: $(grep problems "$tmp/out")"
fi

# --- check-problems.xlf: 5 units (ids 1, 1, seg, lack, empty), one with a
# target; "seg" has 2 <mrk mtype="seg">, the rest 1 segment each: 6;
# words 7 + 2 + 4 + 3 + 0 = 16; source codes g=2 x=1.
n=check-problems
expect_exit 1 "$n: check --json" "$x" check --json "$problems"
json_parses $n
json_is $n files 1
json_is $n units 5
json_is $n translatable_units 5
json_is $n units_with_target 1
json_is $n segments 6
json_is $n words 16
json_has "$n: codes" \
  '"codes":{"g":2,"x":1,"bx":0,"ex":0,"bpt":0,"ept":0,"ph":0,"it":0,"mrk":0,"other":0}'
json_is $n errors 1
json_is $n warnings 3
# The second id="1" is the error, at its own start tag (line 8, column 1),
# naming the first.
json_has "$n: duplicate id error at line 8, column 1" \
  '"severity":"error","line":8,"column":1,"unit":"1","message":"trans-unit id \"1\" is used more than once in <file> (first at line 5)"'
json_has "$n: seg-source warning at line 11" \
  '"severity":"warning","line":11,"column":0,"unit":"seg","message":"the text of <seg-source> differs from <source>"'
json_has "$n: missing code warning at line 15" \
  '"severity":"warning","line":15,"column":0,"unit":"lack","message":"<target> lacks the inline code <x id=\"1\"> of <source>"'
json_has "$n: empty source warning at line 19" \
  '"severity":"warning","line":19,"column":0,"unit":"empty","message":"empty <source>"'

expect_exit 1 "$n: check (text)" "$x" check "$problems"
if grep -q -E '^ *units +5 \(5 translatable, 1 with target\)$' "$tmp/out"; then
  pass "$n: text units line"
else
  fail "$n: text units line: $(grep units "$tmp/out")"
fi
if grep -q -E '^ *problems +1 errors, 3 warnings$' "$tmp/out"; then
  pass "$n: text problems line"
else
  fail "$n: text problems line: $(grep problems "$tmp/out")"
fi
if [ "$(grep -c -e ': warning: ' -e ': error: ' "$tmp/err")" -eq 4 ]; then
  pass "$n: 4 problems on stderr"
else
  fail "$n: 4 problems on stderr expected, got: $(cat "$tmp/err")"
fi

finish
