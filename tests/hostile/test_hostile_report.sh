#!/bin/sh
# test_hostile_report.sh: "xliffmt report" costs time in proportion to
# the document, not its square: 24,000 units in four files (some of two
# segments), one unit of 20,000 codes on each side, 20,000 units each
# with a problem and a state of its own. The review page, the TMX export
# and the findings each within its time and memory, the page HTML with
# one row per segment numbered on through the files, the codes a target
# lost or added marked; a 6 MB document, and 40,000 problems, in 150 MB
# of address space, and a stylesheet of the user's refused over its
# limit; and a document nested deeper than the report reads refused at
# once.
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

# --- 6 MB in two files, under 150 MB of address space: the shipped
# stylesheets and the findings are written a chunk of units at a time
# (the document read whole took some 50 times its size). A stylesheet of
# the user's reads it whole: refused over --max-whole-size, at once.
{
  echo "$head"
  awk 'BEGIN {
    for (f = 1; f <= 2; f++) {
      printf "<file original=\"f%d\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n", f
      for (i = 1; i <= 10000; i++) {
        printf "<trans-unit id=\"u%d\"><source>Press <g id=\"1\">Save</g> to keep unit %d of the document<x id=\"2\"/> before you close the window.</source>", i, i
        printf "<target state=\"translated\">Pulse <g id=\"1\">Guardar</g> para conservar la unidad %d del documento<x id=\"2\"/> antes de cerrar la ventana.</target></trans-unit>\n", i
      }
      printf "</body></file>\n"
    }
  }'
  echo '</xliff>'
} >"$tmp/six.xlf"
within "6 MB: review page in 150 MB" 0 60 150 \
  "$x" report "$tmp/six.xlf" -o "$tmp/six.html"
if [ "$status" -eq 0 ]; then
  xpath_is "6 MB: one row per segment" "$tmp/six.html" \
    "count(//tr[@data-unit])" 20000 --html
  xpath_is "6 MB: rows numbered on in the second file" "$tmp/six.html" \
    "//tbody[2]/tr[@data-unit][1]/@id" s10001 --html
  xpath_is "6 MB: the last row" "$tmp/six.html" \
    "(//tr[@data-unit])[last()]/td[@class='n']" 20000 --html
  xpath_is "6 MB: the summary counts every row" "$tmp/six.html" \
    "//nav[@class='filters']/label[@for='show-all']/b" 20000 --html
  check "6 MB: the page ends once" sh -c \
    "[ \$(grep -c '</html>' '$tmp/six.html') = 1 ]"
fi
within "6 MB: TMX in 150 MB" 0 60 150 \
  "$x" report "$tmp/six.xlf" -x tmx -o "$tmp/six.tmx"
[ "$status" -eq 0 ] &&
  xpath_is "6 MB: one tu per segment" "$tmp/six.tmx" "count(/tmx/body/tu)" \
    20000
within "6 MB: findings in 150 MB" 0 60 150 \
  "$x" report "$tmp/six.xlf" --findings -o "$tmp/six.findings.xml"
[ "$status" -eq 0 ] &&
  xpath_is "6 MB: the findings of every segment" "$tmp/six.findings.xml" \
    "count(/*/*[local-name()='file']/*/*[local-name()='segment'])" 20000
cat >"$tmp/mine.xsl" <<'EOD'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:f="urn:xliffmt:findings:1">
<xsl:output method="text"/>
<xsl:param name="findings" select="/.."/>
<xsl:template match="/"><xsl:value-of select="count($findings//f:segment)"/></xsl:template>
</xsl:stylesheet>
EOD
size=$(wc -c <"$tmp/six.xlf" | tr -d ' ')
within "6 MB, a stylesheet of your own over 1M: refused" 1 10 150 \
  "$x" report "$tmp/six.xlf" -x "$tmp/mine.xsl" --max-whole-size 1M \
  -o "$tmp/mine.out"
want="xliffmt: $tmp/six.xlf: the document is $size bytes, over the 1048576 a stylesheet of your own reads whole; --max-whole-size raises the limit (the shipped stylesheets stream, with none)"
if [ "$(cat "$tmp/err")" = "$want" ]; then
  pass "6 MB, a stylesheet of your own: told the size, limit and option"
else
  fail "6 MB, a stylesheet of your own: said '$(cat "$tmp/err")'"
fi
check "6 MB, a stylesheet of your own: no output" test ! -e "$tmp/mine.out"
within "6 MB, a stylesheet of your own under --max-whole-size 7M" 0 60 3000 \
  "$x" report "$tmp/six.xlf" -x "$tmp/mine.xsl" --max-whole-size 7M \
  -o "$tmp/mine.out"
check "6 MB, a stylesheet of your own: its result" \
  test "$(cat "$tmp/mine.out" 2>/dev/null)" = 20000
rm -f "$tmp"/six.* "$tmp"/mine.*

# --- 40,000 units, each with a warning of the check: its problems are
# written in chunks too, in 150 MB of address space.
{
  echo "$head"
  echo '<file original="w" source-language="en" target-language="es" datatype="plaintext"><body>'
  awk 'BEGIN {
    for (i = 1; i <= 40000; i++)
      printf "<trans-unit id=\"u%d\"><source>Press <x id=\"1\"/> now %d.</source><target state=\"translated\">Pulse ahora %d.</target></trans-unit>\n", i, i, i
  }'
  echo '</body></file></xliff>'
} >"$tmp/warnings.xlf"
within "40,000 problems: review page in 150 MB" 0 60 150 \
  "$x" report "$tmp/warnings.xlf" -o "$tmp/warnings.html"
if [ "$status" -eq 0 ]; then
  xpath_is "40,000 problems: each listed once" "$tmp/warnings.html" \
    "count(//details[@class='problems']/ul/li)" 40000 --html
  xpath_is "40,000 problems: the last one's unit" "$tmp/warnings.html" \
    "//details[@class='problems']/ul/li[40000]/code" u40000 --html
fi
within "40,000 problems: findings in 150 MB" 0 60 150 \
  "$x" report "$tmp/warnings.xlf" --findings -o "$tmp/warnings.findings.xml"
[ "$status" -eq 0 ] &&
  xpath_is "40,000 problems: in the findings" "$tmp/warnings.findings.xml" \
    "count(/*/*[local-name()='problems']/*)" 40000
rm -f "$tmp"/warnings.*

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
