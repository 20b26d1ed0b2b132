#!/bin/sh
# test_cli_report.sh: "xliffmt report": the review page's rows and flags,
# escaping of hostile text, stylesheet errors, a user's stylesheet with
# parameters, the findings document, and the TMX export checked for the
# structure TMX 1.4 requires.
# Env: XLIFFMT, XMLLINT, XMT_FIXTURES, XMT_SAMPLES; XMT_TMX_DTD (optional):
# a TMX 1.4 DTD to validate the exports against as well.
# Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}
sample=${XMT_SAMPLES:-}/sample.xlf
xmllint=${XMLLINT:-xmllint}
if [ ! -f "$fx/report-flags.xlf" ] || [ ! -f "$sample" ]; then
  echo "SKIP: need $fx/report-flags.xlf and $sample"
  exit 77
fi
if ! command -v "$xmllint" >/dev/null 2>&1; then
  echo "SKIP: xmllint not found (Debian package libxml2-utils)"
  exit 77
fi

cli_setup report
x=$XLIFFMT

# xpath_is DESC FILE EXPR WANT [--html]: string(EXPR) over FILE is WANT.
xpath_is() {
  desc=$1 file=$2 expr=$3 want=$4
  mode=
  [ "${5:-}" = --html ] && mode=--html
  # shellcheck disable=SC2086
  got=$("$xmllint" $mode --nowarning --xpath "string($expr)" "$file" 2>/dev/null)
  if [ "$got" = "$want" ]; then
    pass "$desc"
  else
    fail "$desc: $expr = '$got', expected '$want'"
  fi
}
# no_file DESC PATH: a failed run left nothing.
no_file() {
  if [ -e "$2" ]; then fail "$1: $2 was written"; else pass "$1: no output"; fi
}
# first_err DESC WANT: the first line of stderr is WANT.
first_err() {
  got=$(head -1 "$tmp/err")
  if [ "$got" = "$2" ]; then pass "$1"; else fail "$1: stderr '$got', expected '$2'"; fi
}

# --- The review page of a translated document.
"$x" translate "$sample" -o "$tmp/sample.es.xlf" -s en -t es --mt pseudo \
  --aligner none -q || fail "translate with pseudo"
page=$tmp/sample.html
if expect_exit 0 "report of a translated sample" "$x" report \
  "$tmp/sample.es.xlf" -o "$page"; then
  xpath_is "one row per segment" "$page" "count(//tr[@data-unit])" 9 --html
  xpath_is "a segmented unit's second row" "$page" \
    "//tr[@data-unit][8]/@data-unit" tu7 --html
  xpath_is "MT targets to review" "$page" \
    "count(//tr[@data-flags='needs-review mt'])" 8 --html
  xpath_is "translate=no is locked" "$page" \
    "//tr[@data-unit='tu2']/@data-flags" locked --html
  xpath_is "summary: words" "$page" \
    "//section[@class='summary']/div[4]/b" 116 --html
  xpath_is "g pair as two chips of one colour" "$page" \
    "count(//tr[@data-unit='tu1']/td[@class='tgt']/span[@data-pair='p1'][contains(@class,'k1')])" \
    2 --html
  xpath_is "title" "$page" "//title" "Review of $tmp/sample.es.xlf" --html
fi
expect_exit 0 "report to standard output" "$x" report "$tmp/sample.es.xlf"
if cmp -s "$tmp/out" "$page"; then
  pass "standard output holds the same page"
else
  fail "standard output differs from -o"
fi

# --- One unit per flag (tests/fixtures/README).
page=$tmp/flags.html
if expect_exit 0 "report of report-flags.xlf" "$x" report \
  "$fx/report-flags.xlf" -o "$page"; then
  for row in ok: untranslated:untranslated "missing:tag-missing problem" \
    "added:tag-added problem" order:tag-order "review:needs-review mt" \
    long:length identical:identical locked:locked failed:untranslated \
    codes:; do
    unit=${row%%:*} flags=${row#*:}
    xpath_is "flags of $unit" "$page" "//tr[@data-unit='$unit']/@data-flags" \
      "$flags" --html
  done
  xpath_is "seg-source: one row per mrk" "$page" \
    "count(//tr[@data-unit='seg'])" 2 --html
  xpath_is "the untranslated second segment" "$page" \
    "//tr[@data-unit='seg'][2]/@data-flags" untranslated --html
  xpath_is "the check's problem in its row" "$page" \
    "//tr[@data-unit='missing']//div[contains(@class,'msg')]" \
    "<target> lacks the inline code <x id=\"1\"> of <source>" --html
  xpath_is "the code missing from the target is marked" "$page" \
    "//tr[@data-unit='missing']/td[@class='src']/span/@class" \
    "chip single k1 lost" --html
  xpath_is "a filter per flag present" "$page" \
    "count(//nav[@class='filters']/label)" 11 --html
fi

# --- Hostile text stays text.
page=$tmp/hostile.html
if expect_exit 0 "report of report-hostile.xlf" "$x" report \
  "$fx/report-hostile.xlf" -o "$page"; then
  xpath_is "one script element, the page's own" "$page" "count(//script)" 1 \
    --html
  xpath_is "no img element" "$page" "count(//img)" 0 --html
  xpath_is "<script> in a segment is text" "$page" \
    "//tr[@data-unit][1]/td[@class='src']" \
    "Say <script>alert(2)</script> & </td></tr> loudly." --html
  xpath_is "a hostile unit id stays an attribute" "$page" \
    "//tr[@data-unit][1]/@data-unit" 'u"><script>alert(1)</script>' --html
  if grep -q -i -e '<script>alert' -e '<img' "$page"; then
    fail "raw markup from the document in the page"
  else
    pass "no raw markup from the document in the page"
  fi
fi

# --- Stylesheet errors: file and line, exit 1, no output.
out=$tmp/bad.html
if expect_exit 1 "a stylesheet that does not compile" "$x" report \
  "$fx/report-flags.xlf" --stylesheet "$fx/report-bad.xsl" -o "$out"; then
  first_err "compile error message" \
    "xliffmt: $fx/report-bad.xsl:5: xsl:value-of : could not compile select expression 'count((' (XPath error: Invalid expression)"
fi
no_file "compile error" "$out"
if expect_exit 1 "a stylesheet that fails at run time" "$x" report \
  "$fx/report-flags.xlf" --stylesheet "$fx/report-runtime.xsl" -o "$out"; then
  first_err "run-time error message" \
    "xliffmt: $fx/report-runtime.xsl:6: Variable 'nowhere' has not been declared. (XPath error: Undefined variable)"
fi
no_file "run-time error" "$out"
if expect_exit 1 "a stylesheet that is not XML" "$x" report \
  "$fx/report-flags.xlf" --stylesheet "$fx/bad-malformed.xlf" -o "$out"; then
  first_err "XML error message" \
    "xliffmt: $fx/bad-malformed.xlf:9:47: the stylesheet is not well-formed XML: Opening and ending tag mismatch: g line 9 and b"
fi
no_file "XML error" "$out"
if expect_exit 1 "no such stylesheet" "$x" report "$fx/report-flags.xlf" \
  --stylesheet "$tmp/none.xsl" -o "$out"; then
  first_err "missing stylesheet message" \
    "xliffmt: $tmp/none.xsl: cannot open the stylesheet: No such file or directory"
fi
no_file "missing stylesheet" "$out"
if expect_exit 1 "a malformed document" "$x" report "$fx/bad-malformed.xlf" \
  -o "$out"; then
  first_err "document error message" \
    "xliffmt: $fx/bad-malformed.xlf:9:43: mismatched tag (unit 2)"
fi
no_file "malformed document" "$out"
if expect_exit 1 "an input that does not exist" "$x" report \
  "$tmp/none.xlf" -o "$out"; then
  first_err "missing input message" \
    "xliffmt: $tmp/none.xlf: cannot open: No such file or directory"
fi
no_file "missing input" "$out"
expect_exit 1 "no input" "$x" report
expect_exit 1 "--param without =" "$x" report "$fx/report-flags.xlf" \
  --param who
expect_exit 1 "standard input" "$x" report - -o "$out"
expect_exit 0 "--help" "$x" report --help

# --- A user's own stylesheet: parameters, messages, both documents.
if expect_exit 0 "a user's stylesheet" "$x" report "$fx/report-flags.xlf" \
  --stylesheet "$fx/report-params.xsl" --param who=ana -o "$tmp/mine.txt"; then
  cat >"$tmp/want.txt" <<'WANT'
units in the input: 12
same findings: true
ana untranslated#: untranslated
ana missing#: tag-missing problem
ana added#: tag-added problem
ana order#: tag-order
ana review#: needs-review mt
ana long#: length
ana identical#: identical
ana locked#: locked
ana seg#2: untranslated
ana failed#: untranslated
WANT
  if cmp -s "$tmp/mine.txt" "$tmp/want.txt"; then
    pass "the user's report"
  else
    fail "the user's report: $(diff "$tmp/want.txt" "$tmp/mine.txt" | head -5)"
  fi
  first_err "xsl:message on stderr" \
    "xliffmt: $fx/report-params.xsl: reviewer: ana"
fi
expect_exit 0 "--quiet drops the messages" "$x" report -q \
  "$fx/report-flags.xlf" --stylesheet "$fx/report-params.xsl" -o "$tmp/q.txt"
if [ -s "$tmp/err" ]; then fail "--quiet: $(cat "$tmp/err")"; else pass "--quiet: stderr empty"; fi

# --- The findings document.
f=$tmp/findings.xml
if expect_exit 0 "--findings" "$x" report "$fx/report-flags.xlf" --findings \
  -o "$f"; then
  xpath_is "findings: segments" "$f" \
    "count(/*[local-name()='findings']/*[local-name()='file']/*/*[local-name()='segment'])" \
    13
  xpath_is "findings: namespace" "$f" "namespace-uri(/*)" \
    "urn:xliffmt:findings:1"
fi

# --- An HTML page, reported as the XLIFF extract writes of it.
printf '<!DOCTYPE html>\n<html lang="en"><head><title>Hi</title></head><body><p>Hello <b>bold</b> world.</p></body></html>\n' \
  >"$tmp/page.html"
if expect_exit 0 "report of an HTML page" "$x" report "$tmp/page.html" \
  -t es -o "$tmp/page.report.html"; then
  xpath_is "HTML page: rows" "$tmp/page.report.html" \
    "count(//tr[@data-flags='untranslated'])" 2 --html
fi

# --- TMX 1.4: well-formed and shaped as the standard requires.
tmx_ok() {
  name=$1 file=$2 tus=$3
  if ! "$xmllint" --noout "$file" 2>"$tmp/lint"; then
    fail "$name: not well-formed: $(head -1 "$tmp/lint")"
    return
  fi
  pass "$name: well-formed"
  xpath_is "$name: root" "$file" "name(/*)" tmx
  xpath_is "$name: version" "$file" "/tmx/@version" 1.4
  for a in creationtool creationtoolversion segtype o-tmf adminlang srclang \
    datatype; do
    xpath_is "$name: header @$a" "$file" \
      "count(/tmx/header[string-length(@$a) > 0])" 1
  done
  xpath_is "$name: header then body" "$file" \
    "count(/tmx/*[1][self::header]/following-sibling::*[1][self::body])" 1
  xpath_is "$name: segtype value" "$file" \
    "count(/tmx/header[@segtype='block' or @segtype='paragraph' or @segtype='sentence' or @segtype='phrase'])" 1
  xpath_is "$name: translation units" "$file" "count(/tmx/body/tu)" "$tus"
  xpath_is "$name: nothing but tu in body" "$file" \
    "count(/tmx/body/*[not(self::tu)])" 0
  xpath_is "$name: two tuv per tu" "$file" "count(//tu[count(tuv) != 2])" 0
  xpath_is "$name: tu children in order" "$file" \
    "count(//tu/*[not(self::tuv or self::prop or self::note)] | //tu/tuv/following-sibling::*[not(self::tuv)])" \
    0
  xpath_is "$name: tuv with xml:lang" "$file" \
    "count(//tuv[string-length(@xml:lang) = 0])" 0
  xpath_is "$name: one seg per tuv, last" "$file" \
    "count(//tuv[count(seg) != 1 or not(*[last()][self::seg])])" 0
  xpath_is "$name: only TMX codes in seg" "$file" \
    "count(//seg//*[not(self::bpt or self::ept or self::ph or self::it or self::hi or self::sub or self::ut)])" \
    0
  xpath_is "$name: bpt and ept paired by i" "$file" \
    "count(//seg/bpt[not(@i = ../ept/@i)] | //seg/ept[not(@i = ../bpt/@i)] | //seg/bpt[not(@i)] | //seg/ept[not(@i)])" \
    0
  xpath_is "$name: it has pos" "$file" \
    "count(//it[not(@pos = 'begin' or @pos = 'end')])" 0
  if [ -n "${XMT_TMX_DTD:-}" ] && [ -f "$XMT_TMX_DTD" ]; then
    if "$xmllint" --noout --dtdvalid "$XMT_TMX_DTD" "$file" 2>"$tmp/lint"; then
      pass "$name: valid against $XMT_TMX_DTD"
    else
      fail "$name: DTD: $(head -2 "$tmp/lint")"
    fi
  fi
}
if expect_exit 0 "TMX of the translated sample" "$x" report \
  "$tmp/sample.es.xlf" --stylesheet tmx -o "$tmp/sample.tmx"; then
  tmx_ok sample "$tmp/sample.tmx" 8
  xpath_is "sample: languages" "$tmp/sample.tmx" \
    "concat(//tu[1]/tuv[1]/@xml:lang, '-', //tu[1]/tuv[2]/@xml:lang)" en-es
  xpath_is "sample: g as bpt/ept" "$tmp/sample.tmx" \
    "count(//tu[@tuid='tu4']/tuv[1]/seg/bpt)" 2
fi
if expect_exit 0 "TMX of report-flags.xlf" "$x" report "$fx/report-flags.xlf" \
  --stylesheet tmx -o "$tmp/flags.tmx"; then
  tmx_ok flags "$tmp/flags.tmx" 9
  xpath_is "flags: ex without bx becomes it" "$tmp/flags.tmx" \
    "count(//tu[@tuid='codes']/tuv[1]/seg/it)" 1
fi

# --- Rows numbered on through the files; the codes a target lost or added
# marked alike on a side of a few codes (searched) and of many (a key).
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  awk 'BEGIN {
    for (f = 1; f <= 3; f++) {
      printf "<file original=\"f%d\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n", f
      if (f == 1)
        printf "<trans-unit id=\"s\"><source>A. B.</source><seg-source><mrk mtype=\"seg\" mid=\"0\">A.</mrk> <mrk mtype=\"seg\" mid=\"1\">B.</mrk></seg-source></trans-unit>\n"
      for (u = 1; u <= 2; u++) {
        n = u == 1 ? 5 : 70
        printf "<trans-unit id=\"f%du%d\"><source>", f, u
        for (i = 1; i <= n; i++) printf "w<x id=\"%d\"/>", i
        printf "</source><target>"
        for (i = 1; i <= n; i++) if (i != 3) printf "v<x id=\"%d\"/>", i
        printf "<x id=\"99\"/></target></trans-unit>\n"
      }
      printf "</body></file>\n"
    }
  }'
  echo '</xliff>'
} >"$tmp/files.xlf"
page=$tmp/files.html
if expect_exit 0 "report of three files" "$x" report "$tmp/files.xlf" \
  -o "$page"; then
  xpath_is "three files: rows" "$page" "count(//tr[@data-unit])" 8 --html
  xpath_is "three files: the second file's first row" "$page" \
    "//tbody[2]/tr[@data-unit][1]/@id" s5 --html
  xpath_is "three files: the third file's first row" "$page" \
    "//tbody[3]/tr[@data-unit][1]/td[@class='n']" 7 --html
  xpath_is "three files: the last row" "$page" \
    "(//tr[@data-unit])[last()]/@id" s8 --html
  for u in f1u1 f1u2; do
    xpath_is "$u: the lost code" "$page" \
      "//tr[@data-unit='$u']/td[@class='src']/span[contains(@class,' lost')]" \
      3 --html
    xpath_is "$u: the added code" "$page" \
      "//tr[@data-unit='$u']/td[@class='tgt']/span[contains(@class,' extra')]" \
      99 --html
    xpath_is "$u: no other" "$page" \
      "count(//tr[@data-unit='$u']//span[contains(@class,' lost') or contains(@class,' extra')])" \
      2 --html
  done
fi


# A page that does not say its language, without -s: the reason, as
# check gives it, not "out of memory" (the failure of the page's units
# was once taken for one), exit 1, and no page written.
printf '<!DOCTYPE html>\n<html><body><p>Hello world.</p></body></html>\n' \
  >"$tmp/nolang.html"
nolang_msg="xliffmt: $tmp/nolang.html: the page does not say its language (<html lang>): give the source language with -s"
if expect_exit 1 "report of a page without a language" "$x" report \
  "$tmp/nolang.html" -o "$tmp/nolang.review.html"; then
  first_err "report of a page without a language: the reason" "$nolang_msg"
  no_file "report of a page without a language" "$tmp/nolang.review.html"
fi
if expect_exit 1 "check of the same page" "$x" check "$tmp/nolang.html"; then
  first_err "check of the same page: the same reason" "$nolang_msg"
fi
expect_exit 0 "report of the page with -s" "$x" report "$tmp/nolang.html" \
  -s en -o "$tmp/nolang.review.html"

finish
