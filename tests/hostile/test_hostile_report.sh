#!/bin/sh
# test_hostile_report.sh: "xliffmt report" costs time in proportion to
# the document, not its square: 24,000 units in four files (some of two
# segments), one unit of 20,000 codes on each side, 20,000 units each
# with a problem and a state of its own. The review page, the TMX export
# and the findings each within its time and memory, the page HTML with
# one row per segment numbered on through the files, the codes a target
# lost or added marked; and a document nested deeper than the report
# reads refused at once.
# Env: XLIFFMT, XMLLINT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
xmllint=${XMLLINT:-xmllint}
if ! command -v "$xmllint" >/dev/null 2>&1; then
  echo "SKIP: xmllint not found (Debian package libxml2-utils)"
  exit 77
fi
cli_setup hostile-report
x=$XLIFFMT

# xpath_is DESC FILE EXPR WANT [--html]: string(EXPR) over FILE is WANT.
xpath_is() {
  mode=
  [ "${5:-}" = --html ] && mode=--html
  # shellcheck disable=SC2086
  got=$("$xmllint" $mode --huge --nowarning --xpath "string($3)" "$2" 2>/dev/null)
  if [ "$got" = "$4" ]; then
    pass "$1"
  else
    fail "$1: $3 = '$got', expected '$4'"
  fi
}

head='<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'

# --- 4 files of 6,000 units, translated, every third unit of two
# segments: 32,000 rows.
{
  echo "$head"
  awk 'BEGIN {
    for (f = 1; f <= 4; f++) {
      printf "<file original=\"f%d\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n", f
      for (i = 1; i <= 6000; i++) {
        if (i % 3 == 0) {
          printf "<trans-unit id=\"u%d\"><source>One <g id=\"1\">two</g>. Three <x id=\"2\"/>four.</source>", i
          printf "<seg-source><mrk mtype=\"seg\" mid=\"0\">One <g id=\"1\">two</g>.</mrk> <mrk mtype=\"seg\" mid=\"1\">Three <x id=\"2\"/>four.</mrk></seg-source>"
          printf "<target state=\"translated\"><mrk mtype=\"seg\" mid=\"0\">Uno <g id=\"1\">dos</g>.</mrk> <mrk mtype=\"seg\" mid=\"1\">Tres <x id=\"2\"/>cuatro.</mrk></target></trans-unit>\n"
        } else {
          printf "<trans-unit id=\"u%d\"><source>Press <g id=\"1\">Save</g> for unit %d<x id=\"2\"/>.</source>", i, i
          printf "<target state=\"translated\">Pulse <g id=\"1\">Guardar</g> para %d<x id=\"2\"/>.</target></trans-unit>\n", i
        }
      }
      printf "</body></file>\n"
    }
  }'
  echo '</xliff>'
} >"$tmp/big.xlf"
rows=32000
within "24,000 units: review page" 0 30 3000 \
  "$x" report "$tmp/big.xlf" -o "$tmp/big.html"
if [ "$status" -eq 0 ]; then
  check "24,000 units: the page is HTML, whole" sh -c \
    "'$xmllint' --html --huge --noout '$tmp/big.html' 2>/dev/null &&
     tail -c 8 '$tmp/big.html' | grep -q '</html>'"
  xpath_is "24,000 units: one row per segment" "$tmp/big.html" \
    "count(//tr[@data-unit])" $rows --html
  xpath_is "24,000 units: rows numbered through the files" "$tmp/big.html" \
    "//tbody[3]/tr[@data-unit][1]/td[@class='n']" 16001 --html
  xpath_is "24,000 units: the last row" "$tmp/big.html" \
    "(//tr[@data-unit])[last()]/@id" "s$rows" --html
  xpath_is "24,000 units: no code lost or added" "$tmp/big.html" \
    "count(//span[contains(@class,'lost') or contains(@class,'extra')])" 0 \
    --html
fi
within "24,000 units: TMX" 0 30 3000 \
  "$x" report "$tmp/big.xlf" -x tmx -o "$tmp/big.tmx"
[ "$status" -eq 0 ] &&
  xpath_is "24,000 units: one tu per segment" "$tmp/big.tmx" \
    "count(//tu)" $rows
[ "$status" -eq 0 ] &&
  xpath_is "24,000 units: pairs numbered in their segment" "$tmp/big.tmx" \
    "count(//seg/bpt[@i='1']) = count(//seg/ept[@i='1'])" true
within "24,000 units: findings" 0 10 1000 \
  "$x" report "$tmp/big.xlf" --findings -o "$tmp/big.findings.xml"
rm -f "$tmp"/big.*

# --- One unit of 20,000 x and 20,000 g on each side; the target lost
# x 5 and has an x of its own.
n=20000
{
  echo "$head"
  echo '<file original="m" source-language="en" target-language="es" datatype="plaintext"><body>'
  awk -v n=$n 'BEGIN {
    printf "<trans-unit id=\"m\"><source>"
    for (i = 1; i <= n; i++) printf "w<x id=\"%d\"/><g id=\"g%d\">a</g> ", i, i
    printf "</source><target state=\"translated\">"
    for (i = 1; i <= n; i++)
      if (i != 5) printf "v<x id=\"%d\"/><g id=\"g%d\">b</g> ", i, i
    printf "<x id=\"%d\"/></target></trans-unit>\n", n + 1
  }'
  echo '</body></file></xliff>'
} >"$tmp/codes.xlf"
within "40,000 codes a side: review page" 0 30 3000 \
  "$x" report "$tmp/codes.xlf" -o "$tmp/codes.html"
if [ "$status" -eq 0 ]; then
  xpath_is "40,000 codes a side: every code a chip" "$tmp/codes.html" \
    "count(//span[contains(@class,'chip')])" $((6 * n - 2)) --html
  xpath_is "40,000 codes a side: the lost code" "$tmp/codes.html" \
    "//td[@class='src']/span[contains(@class,' lost')]" 5 --html
  xpath_is "40,000 codes a side: the added code" "$tmp/codes.html" \
    "//td[@class='tgt']/span[contains(@class,' extra')]" $((n + 1)) --html
  xpath_is "40,000 codes a side: flags" "$tmp/codes.html" \
    "//tr[@data-unit]/@data-flags" "tag-missing tag-added problem" --html
fi
within "40,000 codes a side: findings" 0 10 1000 \
  "$x" report "$tmp/codes.xlf" --findings -o "$tmp/codes.findings.xml"
rm -f "$tmp"/codes.*

# --- 20,000 units, each lacking a code in its target (a warning) and
# with a state of its own.
{
  echo "$head"
  echo '<file original="p" source-language="en" target-language="es" datatype="plaintext"><body>'
  awk 'BEGIN {
    for (i = 1; i <= 20000; i++)
      printf "<trans-unit id=\"u%d\"><source>Press <x id=\"1\"/> now %d.</source><target state=\"x-s%d\">Pulse ahora %d.</target></trans-unit>\n", i, i, i, i
  }'
  echo '</body></file></xliff>'
} >"$tmp/problems.xlf"
within "20,000 problems and states: review page" 0 30 3000 \
  "$x" report "$tmp/problems.xlf" -o "$tmp/problems.html"
if [ "$status" -eq 0 ]; then
  xpath_is "20,000 problems: one message in each row" "$tmp/problems.html" \
    "count(//tr[@data-unit]/td[@class='flags']/div[@class='msg warning'])" \
    20000 --html
  xpath_is "20,000 states: each counted" "$tmp/problems.html" \
    "count(//section[@class='summary']//li)" 20000 --html
fi
rm -f "$tmp"/problems.*

# --- Nested deeper than the report reads (libxml2's limit): refused at
# once, with no page.
{
  echo "$head"
  echo '<file original="d" source-language="en" target-language="es" datatype="plaintext"><body>'
  awk 'BEGIN {
    printf "<trans-unit id=\"d\"><source>"
    for (i = 1; i <= 100000; i++) printf "<g id=\"%d\">w ", i
    for (i = 1; i <= 100000; i++) printf "</g>"
    printf "</source></trans-unit>\n"
  }'
  echo '</body></file></xliff>'
} >"$tmp/deep.xlf"
within "100,000 nested codes: refused" 1 10 1000 \
  "$x" report "$tmp/deep.xlf" -o "$tmp/deep.html"
check "100,000 nested codes: told why" grep -q "Excessive depth" "$tmp/err"
check "100,000 nested codes: no page" test ! -e "$tmp/deep.html"

finish
