#!/bin/sh
# test_cli_office_apertium_pdf.sh: a real report through Apertium eng-spa,
# two routes. The report (tests/cli/apertium_pdf.py make: three pages,
# a title, headings, bold, italic and linked phrases, a table, a
# footnote) is translated by `xliffmt translate --mt apertium:eng-spa`:
#  - LibreOffice renders the Spanish .docx to PDF; the PDF has the three
#    pages and holds, as pdftotext gives it, what `apertium -u eng-spa`
#    makes of each heading, of a table cell and of the footnote, and no
#    longer the English of the headings;
#  - python3-docx reads the output: its bold, italic and link spans are,
#    in order, the source's, each one exactly what Apertium makes of the
#    source's phrase alone (its first letter's case aside: alone, the
#    phrase starts a sentence), or holds it as whole words.
# The LibreOffice route on the same report: soffice --convert-to odt,
# odf2xliff, xliffmt translate --approved, xliff2odf; both routes' spans
# are printed to the log for comparison, the assertions are on xliffmt's
# direct route.
# Env: XLIFFMT. Needs LibreOffice Writer, python3-docx, Apertium
# apertium-eng-spa, poppler-utils (pdftotext, pdfinfo) and
# translate-toolkit (scripts/install-deps.sh installs them). Exit 0 pass,
# 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
why="needs soffice, apertium, pdftotext, odf2xliff, xliff2odf and python3-docx (scripts/install-deps.sh)"
require_commands "$why" soffice apertium pdftotext pdfinfo odf2xliff xliff2odf
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! "$py" -c 'import docx' 2>/dev/null ||
  ! apertium -l 2>/dev/null | grep -q '^ *eng-spa *$'; then
  echo "SKIP: $why"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
ap="$py $here/apertium_pdf.py"
cli_setup office-apertium-pdf
x=$XLIFFMT
cd "$tmp" || exit 99
$ap make report.docx || exit 99
# A private LibreOffice profile: another soffice of the same user would
# take the conversion over.
lo() {
  timeout -k 10 300 soffice "-env:UserInstallation=file://$tmp/lo" \
    --headless "$@" >>lo.log 2>&1
}
# es TEXT: what Apertium makes of TEXT alone, spaces collapsed.
es() { printf '%s\n' "$1" | apertium -u eng-spa | tr -s ' \n' '  ' |
  sed 's/ *$//'; }
# flat: stdin's text, spaces and line ends collapsed (pdftotext breaks
# lines where the page does).
flat() { tr -s ' \n\f' '   '; }

expect_exit 0 "translate with apertium:eng-spa" "$x" translate -s en -t es \
  --mt apertium:eng-spa report.docx -o report.es.docx
# The message, its time aside.
sed 's/; [0-9.]* s$/; T s/' "$tmp/err" >msg
expect_text "translate: message" msg \
  "xliffmt: report.docx: 24 units, 24 translated, 0 left as they were; 23 segments sent to apertium in 2 calls, 4 copied, 0 deduplicated, 0 failed; T s"

# The PDF LibreOffice renders.
lo --convert-to pdf report.es.docx
check "LibreOffice renders the Spanish report to PDF" test -s report.es.pdf
pdftotext report.es.pdf report.txt 2>/dev/null
flat <report.txt >report.flat
pages=$(pdfinfo report.es.pdf 2>/dev/null | sed -n 's/^Pages: *//p')
check "PDF: three pages (got ${pages:-none})" test "${pages:-0}" -eq 3
for text in "The city library in numbers" "Annual report of the city library" \
  "Budget and staff" "Plans for next year" "Season" "Visitors" \
  "The figures come from the counters at the main door."; do
  want=$(es "$text")
  check "PDF: \"$want\" (Apertium's \"$text\")" grep -q -F -e "$want" \
    report.flat
  check "PDF: no \"$text\"" test "$(grep -c -F -e "$text" report.flat)" -eq 0
done

# The spans of the output, read with python3-docx, against Apertium's
# translation of each source phrase.
$ap spans report.docx >src.spans || exit 99
$ap spans report.es.docx >es.spans
check "python3-docx reads the output" test $? -eq 0
echo "# source spans:"
sed 's/^/#   /' src.spans
echo "# xliffmt's direct route:"
sed 's/^/#   /' es.spans
check "direct: as many spans as the source ($(wc -l <src.spans))" \
  test "$(wc -l <src.spans)" -eq "$(wc -l <es.spans)"
# lower TEXT: TEXT, its first letter lowercase.
lower() { printf '%s' "$1" | sed 's/^./\L&/'; }
n=0
while IFS='	' read -r kind text; do
  n=$((n + 1))
  want=$(lower "$(es "$text")")
  got=$(sed -n "${n}p" es.spans)
  gkind=${got%%	*}
  gtext=$(lower "${got#*	}")
  case " $gtext " in
  *" $want "*) ok=1 ;;
  *) ok=0 ;;
  esac
  check "direct: $kind span $n \"$gtext\" is $kind and holds Apertium's \"$want\"" \
    test "$gkind" = "$kind" -a "$ok" -eq 1
done <src.spans

# The LibreOffice route, for comparison.
lo --convert-to odt report.docx
if odf2xliff report.odt lo.xlf >lo.log 2>&1 &&
  "$x" translate -q -s en -t es --mt apertium:eng-spa --approved lo.xlf \
    -o lo.es.xlf >>lo.log 2>&1 &&
  xliff2odf -i lo.es.xlf -t report.odt -o lo.es.odt >>lo.log 2>&1; then
  pass "LibreOffice route: odf2xliff, translate, xliff2odf"
  echo "# LibreOffice + odf2xliff + xliffmt + xliff2odf:"
  $ap spans lo.es.odt | sed 's/^/#   /'
else
  fail "LibreOffice route: odf2xliff, translate, xliff2odf"
  sed -n '1,5s/^/    /p' lo.log
fi

finish
