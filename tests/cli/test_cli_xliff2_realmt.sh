#!/bin/sh
# test_cli_xliff2_realmt.sh -- the HTML pages of tests/realmt as XLIFF 2
# (realmt_xliff2.pl: one <unit> per block, <pc> for each paired inline
# element, <ph/> for each empty one, the element's number as the code's
# id) through Apertium eng-spa, against the same pages through the HTML
# path: every unit's target, its codes mapped back to the elements, is the
# HTML translation of that unit, text and tag places, exactly. Each XLIFF
# 2 document and its translation validate against the core and module schemas.
# Skipped (77) without perl or apertium with eng-spa.
# Env: XLIFFMT, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
pages=$here/../realmt/pages
conv=$here/realmt_xliff2.pl
if ! command -v perl >/dev/null 2>&1; then
  echo "SKIP: perl not found"
  exit 77
fi
modes=/usr/share/apertium/modes
if [ ! -r "$modes/eng-spa.mode" ] || ! command -v apertium >/dev/null; then
  echo "# apertium with eng-spa not installed: skipped"
  exit 77
fi
cli_setup xliff2_realmt
x=$XLIFFMT
xliff2_schema "$tmp/xliff2.xsd"
xsd=$tmp/xliff2.xsd

valid() {
  [ "$have_lint" -eq 1 ] || return 0
  if "$lint" --noout --nonet --schema "$xsd" "$2" >"$tmp/lint" 2>&1; then
    pass "$1: valid XLIFF 2.0"
  else
    fail "$1: not valid XLIFF 2.0"
    sed -n '1,5s/^/    /p' "$tmp/lint"
  fi
}

# The pages, their units and their elements (tests/realmt/README).
expected="about:20:18 faq:17:21 help:17:20 news:15:22 product:20:20
recipe:23:18 regulation:20:17 travel:18:24"
total=0 agree=0
for e in $expected; do
  p=${e%%:*}
  rest=${e#*:}
  nu=${rest%%:*} ne=${rest#*:}
  perl "$conv" instrument "$pages/$p.html" >"$tmp/$p.html" &&
    perl "$conv" xliff2 "$tmp/$p.html" >"$tmp/$p.xlf" || {
    fail "$p: conversion"
    continue
  }
  n=$(grep -c '<unit ' "$tmp/$p.xlf")
  check "$p: $nu units ($n)" [ "$n" -eq "$nu" ]
  n=$(grep -o '<p[ch] id="[0-9]*"' "$tmp/$p.xlf" | sort -u | wc -l)
  check "$p: $ne elements as codes ($n)" [ "$n" -eq "$ne" ]
  valid "$p: XLIFF 2" "$tmp/$p.xlf"
  expect_exit 0 "$p: HTML through apertium" "$x" translate "$tmp/$p.html" \
    -s en -t es --mt apertium:eng-spa -o "$tmp/$p.es.html" -q || continue
  expect_exit 0 "$p: XLIFF 2 through apertium" "$x" translate "$tmp/$p.xlf" \
    -s en -t es --mt apertium:eng-spa -o "$tmp/$p.es.xlf" -q || continue
  valid "$p: translated XLIFF 2" "$tmp/$p.es.xlf"
  perl "$conv" units "$tmp/$p.es.html" >"$tmp/$p.h"
  perl "$conv" units "$tmp/$p.es.xlf" >"$tmp/$p.x"
  n=$(wc -l <"$tmp/$p.x")
  check "$p: a target for each of the $nu units ($n)" [ "$n" -eq "$nu" ]
  # Unit by unit: the same words with the same elements around them.
  same=$(paste -d '\n' "$tmp/$p.h" "$tmp/$p.x" |
    awk 'NR % 2 { h = $0; next } h == $0 { n++ } END { print n + 0 }')
  total=$((total + nu)) agree=$((agree + same))
  if [ "$same" -eq "$nu" ]; then
    pass "$p: all $nu units placed as the HTML path placed them"
  else
    fail "$p: $same of $nu units placed as the HTML path placed them"
    diff "$tmp/$p.h" "$tmp/$p.x" | sed -n '1,10s/^/    /p'
  fi
done
echo "# $agree of $total units agree"
check "150 units in all, all agree ($agree of $total)" \
  [ "$total" -eq 150 -a "$agree" -eq 150 ]
finish
