#!/bin/sh
# test_hostile_round22.sh: exit 0 means the output is right.
#   - translate of a Word document with a chart whose data is a workbook
#     embedded in the package (word/embeddings/*.xlsx, which the chart's
#     relationships and c:externalData name): the cells the chart's
#     string references name (c:strRef's c:f, a point's place in its
#     range) given the translations of the caches, in the shared strings
#     (a rich one written as one t) or the cell's inline string (they were
#     left in the source language, exit 0, and Word brought the source
#     text back into the chart when its data was edited); a string no
#     cache names kept. A cell whose text is not the cache's (out of
#     date) is kept, and the run says on stderr that the workbook is not
#     translated, naming the chart and the workbook.
#   - translate of a Word document with legacy text form fields whose
#     default (w:textInput's w:default: what the field shows again once
#     reset) is their result's text, alone in its paragraph or in a
#     sentence: the default takes the result's translation, byte for byte
#     (it was left in the source language, exit 0), and is no unit of its
#     own; a default that is another text than the result a unit of its
#     own; a check box's default (a number) kept.
#   - translate of a Word document with content controls' drop-downs
#     (w:listItem's w:displayText) around paragraphs and around table
#     cells, and one bound to data (w:dataBinding) in a paragraph: each
#     choice a unit, as a drop-down's in a paragraph is (they were left
#     in the source language, exit 0; the bound one's were units that
#     extract listed but translate and merge did not write).
#   - translate of an OpenDocument text with an annotation (a comment,
#     office:annotation): its paragraphs translated, its author and date
#     kept, as a Word document's comments (word/comments.xml) are, which
#     this checks too (it was left in the source language, exit 0, while
#     Word's were translated: one rule for both, Okapi's filters' default).
#   - translate of a Word document whose footnote continuation notice
#     (w:footnote w:type="continuationNotice": the text printed under a
#     note that goes on to the next page) has text: a unit (it was read
#     as a separator, no unit, left in the source language, exit 0); the
#     separators (a line, no text) kept, the notes' ids unchanged.
#   - translate of an OpenDocument text with index marks: an entry with
#     no text of its own (text:alphabetical-index-mark's, text:toc-mark's
#     text:string-value) and an entry's keys (text:key1, text:key2), which
#     an update of the index (LibreOffice's Update All) writes into it
#     again: each a unit (they were left in the source language, exit 0,
#     and the translated index went back to them on an update). The index
#     bodies and their title templates held.
#   - translate of an OpenDocument text whose footnotes' continuation
#     notices (styles.xml's text:notes-configuration:
#     text:note-continuation-notice-forward and -backward, printed where
#     a note goes on to the next page and where it comes from) have text:
#     each a unit, before the master pages' headers (they were left in
#     the source language, exit 0). The headers and footers of the first
#     and left pages held.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3 unzip
cli_setup hostile-round22
x=$XLIFFMT
. "$(dirname "$0")/office_lib.sh"

# --- A chart whose data is an embedded workbook.
# chart OUT STALE: a Word document with a chart whose series name (B1, a
# shared string), categories (A2, a shared string; A3, an inline string)
# and title are translated; STALE: the workbook's A3 says another text
# than the chart's cache.
chart() {
  "$py" - "$1" "$2" <<'EOD' || exit 99
import io, sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
CT = "application/vnd.openxmlformats-officedocument."
a3 = "Old quarter" if sys.argv[2] == "1" else "Second quarter"
book = io.BytesIO()
with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as x:
    x.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Override PartName="/xl/workbook.xml" '
               'ContentType="%sspreadsheetml.sheet.main+xml"/></Types>'
               % (P, CT))
    x.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="xl/workbook.xml"'
               '/></Relationships>' % (P, O))
    x.writestr("xl/workbook.xml",
               '<workbook xmlns="%s" xmlns:r="%s"><sheets><sheet name="Sheet1" '
               'sheetId="1" r:id="rId1"/></sheets></workbook>' % (S, O))
    x.writestr("xl/_rels/workbook.xml.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/worksheet" Target="worksheets/sheet1.xml"/>'
               '<Relationship Id="rId2" Type="%s/sharedStrings" '
               'Target="sharedStrings.xml"/></Relationships>' % (P, O, O))
    x.writestr("xl/sharedStrings.xml",
               '<sst xmlns="%s" count="3" uniqueCount="3"><si><t>North '
               'region</t></si><si><r><rPr><b/></rPr><t>First</t></r><r><t '
               'xml:space="preserve"> quarter</t></r></si><si><t>Kept &amp; '
               "here</t></si></sst>" % S)
    x.writestr("xl/worksheets/sheet1.xml",
               '<worksheet xmlns="%s"><sheetData><row r="1"><c r="A1" t="s">'
               '<v>2</v></c><c r="B1" t="s"><v>0</v></c></row><row r="2"><c '
               'r="A2" t="s"><v>1</v></c><c r="B2"><v>4.3</v></c></row><row '
               'r="3"><c r="A3" t="inlineStr"><is><t>%s</t></is></c><c r="B3">'
               "<v>5</v></c></row></sheetData></worksheet>" % (S, a3))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Default Extension="xlsx" ContentType='
               '"%sspreadsheetml.sheet"/><Override PartName="/word/document'
               '.xml" ContentType="%swordprocessingml.document.main+xml"/>'
               '<Override PartName="/word/charts/chart1.xml" ContentType='
               '"%sdrawingml.chart+xml"/></Types>' % (P, CT, CT, CT))
    z.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="word/document.xml"'
               '/></Relationships>' % (P, O))
    z.writestr("word/_rels/document.xml.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId5" Type="%s/chart" Target="charts/chart1.xml"/>'
               "</Relationships>" % (P, O))
    z.writestr("word/charts/_rels/chart1.xml.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/package" Target="../embeddings/'
               'Microsoft_Excel_Worksheet.xlsx"/></Relationships>' % (P, O))
    z.writestr("word/embeddings/Microsoft_Excel_Worksheet.xlsx",
               book.getvalue())
    z.writestr("word/document.xml",
               '<w:document xmlns:w="%s"><w:body><w:p><w:r><w:t>See the '
               "chart.</w:t></w:r></w:p></w:body></w:document>" % W)
    z.writestr("word/charts/chart1.xml",
               '<c:chartSpace xmlns:c="%s" xmlns:a="%s" xmlns:r="%s">'
               "<c:chart><c:plotArea><c:barChart><c:ser><c:tx><c:strRef>"
               '<c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/>'
               '<c:pt idx="0"><c:v>North region</c:v></c:pt></c:strCache>'
               "</c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$3"
               '</c:f><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>'
               'First quarter</c:v></c:pt><c:pt idx="1"><c:v>Second quarter'
               "</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef>"
               "<c:f>Sheet1!$B$2:$B$3</c:f><c:numCache><c:ptCount val=\"2\"/>"
               '<c:pt idx="0"><c:v>4.3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v>'
               "</c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart>"
               '</c:plotArea></c:chart><c:externalData r:id="rId1">'
               '<c:autoUpdate val="0"/></c:externalData></c:chartSpace>'
               % (C, A, O))
EOD
}
# book DOCX: the embedded workbook's shared strings and sheet.
book() {
  "$py" -c 'import io, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
b = zipfile.ZipFile(io.BytesIO(z.read("word/embeddings/"
                                      "Microsoft_Excel_Worksheet.xlsx")))
print(b.testzip())
print(b.read("xl/sharedStrings.xml").decode())
print(b.read("xl/worksheets/sheet1.xml").decode())' "$1"
}
chart "$tmp/chart.docx" 0
within "Word, a chart's workbook" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/chart.docx" -o "$tmp/chart.es.docx"
said "Word, a chart's workbook: no warning" ""
opens "$tmp/chart.es.docx"
"$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("word/charts/chart1.xml").decode()
print(s[s.index("<c:ser>"):s.index("<c:val>")])' "$tmp/chart.es.docx" \
  >"$tmp/got"
expect_text "Word, a chart's workbook: the caches translated" "$tmp/got" '<c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>[régíóñ Ñórth ~~~~]</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2:$A$3</c:f><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>[qúártér Fírst ~~~~]</c:v></c:pt><c:pt idx="1"><c:v>[qúártér Séçóñd ~~~~~]</c:v></c:pt></c:strCache></c:strRef></c:cat>'
book "$tmp/chart.es.docx" >"$tmp/got"
expect_text "Word, a chart's workbook: its cells translated as the caches" \
  "$tmp/got" 'None
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3"><si><t xml:space="preserve">[régíóñ Ñórth ~~~~]</t></si><si><t xml:space="preserve">[qúártér Fírst ~~~~]</t></si><si><t>Kept &amp; here</t></si></sst>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>4.3</v></c></row><row r="3"><c r="A3" t="inlineStr"><is><t xml:space="preserve">[qúártér Séçóñd ~~~~~]</t></is></c><c r="B3"><v>5</v></c></row></sheetData></worksheet>'
within "Word, a chart's workbook: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/chart.docx" -o "$tmp/chart.xlf"
merged "$tmp/chart.docx" "$tmp/chart.xlf" "$tmp/chart.m.docx"
opens "$tmp/chart.m.docx"
book "$tmp/chart.m.docx" | grep -o '<t[^>]*>[^<]*</t>' >"$tmp/got"
expect_text "Word, a chart's workbook: merged" "$tmp/got" \
  '<t xml:space="preserve">ES North region</t>
<t xml:space="preserve">ES First quarter</t>
<t>Kept &amp; here</t>
<t xml:space="preserve">ES Second quarter</t>'
# a cell whose text is not the cache's (the cache out of date): kept, and
# the run says the workbook is not translated in full
chart "$tmp/stale.docx" 1
within "Word, a chart's workbook out of date" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/stale.docx" -o "$tmp/stale.es.docx"
said "Word, a chart's workbook out of date" "xliffmt: warning: $tmp/stale.docx: word/charts/chart1.xml: the chart's data, the workbook word/embeddings/Microsoft_Excel_Worksheet.xlsx, is not translated: Word shows its text again when the chart's data is edited"
book "$tmp/stale.es.docx" | grep -o '<t[^>]*>[^<]*</t>' >"$tmp/got"
expect_text "Word, a chart's workbook out of date: the others translated" \
  "$tmp/got" '<t xml:space="preserve">[régíóñ Ñórth ~~~~]</t>
<t xml:space="preserve">[qúártér Fírst ~~~~]</t>
<t>Kept &amp; here</t>
<t>Old quarter</t>'

# --- A text form field's default.
ff() { # ff NAME DEFAULT RESULT: a text form field
  printf '<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="%s"/><w:enabled/><w:textInput><w:default w:val="%s"/><w:maxLength w:val="40"/></w:textInput></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>%s</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' "$1" "$2" "$3"
}
box='<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Check1"/><w:checkBox><w:sizeAuto/><w:default w:val="0"/></w:checkBox></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
word "$tmp/ff.docx" "<w:p>$(ff Text1 'Your city' 'Your city')</w:p><w:p><w:r><w:t xml:space=\"preserve\">Name: </w:t></w:r>$(ff Text2 'Your full name' 'Your full name')</w:p><w:p>$box<w:r><w:t xml:space=\"preserve\"> Agreed</w:t></w:r></w:p><w:p>$(ff Text3 'Type here' 'John Smith')</w:p>"
within "Word, a text field's default" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/ff.docx" -o "$tmp/ff.es.docx"
opens "$tmp/ff.es.docx"
body "$tmp/ff.es.docx" | grep -o '<w:default [^>]*>\|<w:t>[^<]*<' >"$tmp/got"
expect_text "Word, a text field's default: translated" "$tmp/got" \
  '<w:default w:val="[çítý Ýóúr ~~~]"/>
<w:t>[çítý Ýóúr ~~~]<
<w:t>[<
<w:default w:val="Ýóúr Ñámé: ñámé fúll"/>
<w:t>Ýóúr Ñámé: ñámé fúll<
<w:default w:val="0"/>
<w:default w:val="[héré Týpé ~~~]"/>
<w:t>[Smíth Jóhñ ~~~]<'
within "Word, a text field's default: extract" 0 20 300 "$x" extract -q \
  -s en "$tmp/ff.docx" -o "$tmp/ff.xlf"
grep '<source' "$tmp/ff.xlf" >"$tmp/got"
expect_text "Word, a text field's default: extract" "$tmp/got" '<source>Your city</source>
<source>Name: <g id="1" ctype="x-w-fldChar">Your full name</g></source>
<source> Agreed</source>
<source>Type here</source>
<source>John Smith</source>'
# merged: the second field's result is in a pair, which the target of
# its sentence leaves as it was ("ES Name: <g>Your full name</g>")
merged "$tmp/ff.docx" "$tmp/ff.xlf" "$tmp/ff.m.docx"
opens "$tmp/ff.m.docx"
body "$tmp/ff.m.docx" | grep -o '<w:default [^>]*>' >"$tmp/got"
expect_text "Word, a text field's default: merged" "$tmp/got" \
  '<w:default w:val="ES Your city"/>
<w:default w:val="Your full name"/>
<w:default w:val="0"/>
<w:default w:val="ES Type here"/>'

# --- Drop-downs of block-level and data-bound content controls.
dd='<w:sdtPr><w:alias w:val="Pick"/><w:dropDownList><w:listItem w:displayText="Red colour" w:value="R"/><w:listItem w:displayText="Blue colour" w:value="B"/></w:dropDownList></w:sdtPr>'
bound='<w:sdtPr><w:dataBinding w:xpath="/root/size" w:storeItemID="{1}"/><w:comboBox><w:listItem w:displayText="Small size" w:value="S"/></w:comboBox></w:sdtPr>'
word "$tmp/dd.docx" "<w:sdt>$dd<w:sdtContent><w:p><w:r><w:t>Red colour</w:t></w:r></w:p></w:sdtContent></w:sdt><w:p><w:r><w:t>Size:</w:t></w:r><w:sdt>$bound<w:sdtContent><w:r><w:t>Small size</w:t></w:r></w:sdtContent></w:sdt></w:p><w:tbl><w:tr><w:sdt>$dd<w:sdtContent><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:sdtContent></w:sdt></w:tr></w:tbl>"
within "Word, drop-downs around paragraphs, bound" 0 20 300 "$x" translate \
  -q --mt pseudo -s en -t es "$tmp/dd.docx" -o "$tmp/dd.es.docx"
opens "$tmp/dd.es.docx"
body "$tmp/dd.es.docx" >"$tmp/got"
expect_text "Word, drop-downs around paragraphs, bound: translated" "$tmp/got" \
  '<w:body><w:sdt><w:sdtPr><w:alias w:val="Pick"/><w:dropDownList><w:listItem w:displayText="[çólóúr Réd ~~~]" w:value="R"/><w:listItem w:displayText="[çólóúr Blúé ~~~~]" w:value="B"/></w:dropDownList></w:sdtPr><w:sdtContent><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[çólóúr Réd ~~~]</w:t></w:r></w:p></w:sdtContent></w:sdt><w:p><w:sdt><w:sdtPr><w:comboBox><w:listItem w:displayText="[sízé Smáll ~~~]" w:value="S"/></w:comboBox></w:sdtPr><w:sdtContent><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[sízé Sízé:Smáll ~~~~~]</w:t></w:r></w:sdtContent></w:sdt></w:p><w:tbl><w:tr><w:sdt><w:sdtPr><w:alias w:val="Pick"/><w:dropDownList><w:listItem w:displayText="[çólóúr Réd ~~~]" w:value="R"/><w:listItem w:displayText="[çólóúr Blúé ~~~~]" w:value="B"/></w:dropDownList></w:sdtPr><w:sdtContent><w:tc><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[Çéll ~~]</w:t></w:r></w:p></w:tc></w:sdtContent></w:sdt></w:tr></w:tbl></w:body></w:document>'
within "Word, drop-downs around paragraphs, bound: extract" 0 20 300 "$x" \
  extract -q -s en "$tmp/dd.docx" -o "$tmp/dd.xlf"
grep '<source' "$tmp/dd.xlf" >"$tmp/got"
expect_text "Word, drop-downs around paragraphs, bound: extract" "$tmp/got" \
  '<source>Red colour</source>
<source>Blue colour</source>
<source>Red colour</source>
<source>Small size</source>
<source>Size:<g id="1" ctype="x-w-sdt">Small size</g></source>
<source>Red colour</source>
<source>Blue colour</source>
<source>Cell</source>'
merged "$tmp/dd.docx" "$tmp/dd.xlf" "$tmp/dd.m.docx"
opens "$tmp/dd.m.docx"
body "$tmp/dd.m.docx" | grep -o 'displayText="[^"]*"' >"$tmp/got"
expect_text "Word, drop-downs around paragraphs, bound: merged" "$tmp/got" \
  'displayText="ES Red colour"
displayText="ES Blue colour"
displayText="ES Small size"
displayText="ES Red colour"
displayText="ES Blue colour"'

# --- Comments: an OpenDocument text's annotation, a Word comment.
dc='xmlns:dc="http://purl.org/dc/elements/1.1/"'
odt "$tmp/an.odt" "<text:p>Commented<office:annotation><dc:creator $dc>Ann</dc:creator><dc:date $dc>2024-01-01T00:00:00</dc:date><text:p>Check this figure.</text:p><text:p>Second line.</text:p></office:annotation> text.</text:p>"
within "ODT, an annotation" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/an.odt" -o "$tmp/an.es.odt"
content "$tmp/an.es.odt" >"$tmp/got"
expect_text "ODT, an annotation: translated" "$tmp/got" "<office:text><text:p>[téxt. Çómméñtéd<office:annotation><dc:creator $dc>Ann</dc:creator><dc:date $dc>2024-01-01T00:00:00</dc:date><text:p>[thís Çhéçk fígúré. ~~~~~~]</text:p><text:p>[líñé. Séçóñd ~~~~]</text:p></office:annotation> ~~~~~]</text:p>"
within "ODT, an annotation: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/an.odt" -o "$tmp/an.xlf"
grep '<source' "$tmp/an.xlf" >"$tmp/got"
expect_text "ODT, an annotation: extract" "$tmp/got" '<source>Commented<x id="1" ctype="x-odt-annotation"/> text.</source>
<source>Check this figure.</source>
<source>Second line.</source>'
merged "$tmp/an.odt" "$tmp/an.xlf" "$tmp/an.m.odt"
content "$tmp/an.m.odt" >"$tmp/got"
expect_text "ODT, an annotation: merged" "$tmp/got" "<office:text><text:p>ES Commented<office:annotation><dc:creator $dc>Ann</dc:creator><dc:date $dc>2024-01-01T00:00:00</dc:date><text:p>ES Check this figure.</text:p><text:p>ES Second line.</text:p></office:annotation> text.</text:p>"
word "$tmp/cm.docx" '<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Commented text.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>' \
  comments '<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="0" w:author="Ann" w:date="2024-01-01T00:00:00Z" w:initials="A"><w:p><w:r><w:t>Check this figure.</w:t></w:r></w:p></w:comment></w:comments>'
within "Word, a comment" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/cm.docx" -o "$tmp/cm.es.docx"
opens "$tmp/cm.es.docx"
"$py" -c 'import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).read("word/comments.xml").decode())' \
  "$tmp/cm.es.docx" >"$tmp/got"
expect_text "Word, a comment: translated" "$tmp/got" '<w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:comment w:id="0" w:author="Ann" w:date="2024-01-01T00:00:00Z" w:initials="A"><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[thís Çhéçk fígúré. ~~~~~~]</w:t></w:r></w:p></w:comment></w:comments>'

# --- A footnote continuation notice.
word "$tmp/fn.docx" '<w:p><w:r><w:t>Body.</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>' \
  footnotes '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote><w:footnote w:type="continuationNotice" w:id="1"><w:p><w:r><w:t>Continued on the next page</w:t></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> The note.</w:t></w:r></w:p></w:footnote></w:footnotes>'
within "Word, a continuation notice" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/fn.docx" -o "$tmp/fn.es.docx"
opens "$tmp/fn.es.docx"
"$py" -c 'import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).read("word/footnotes.xml").decode())' \
  "$tmp/fn.es.docx" >"$tmp/got"
expect_text "Word, a continuation notice: translated" "$tmp/got" '<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote><w:footnote w:type="continuationNotice" w:id="1"><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[óñ Çóñtíñúéd ñéxt thé págé ~~~~~~~~]</w:t></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> [ñóté. Thé ~~~]</w:t></w:r></w:p></w:footnote></w:footnotes>'
within "Word, a continuation notice: extract" 0 20 300 "$x" extract -q \
  -s en "$tmp/fn.docx" -o "$tmp/fn.xlf"
grep -o '<trans-unit id="[^"]*"\|<source>.*</source>' "$tmp/fn.xlf" >"$tmp/got"
expect_text "Word, a continuation notice: extract" "$tmp/got" '<trans-unit id="document:1"
<source>Body.</source>
<trans-unit id="footnotes:1"
<source>Continued on the next page</source>
<trans-unit id="footnotes:2"
<source> The note.</source>'

# --- Index marks in an OpenDocument text.
odt "$tmp/ix.odt" '<text:alphabetical-index text:name="I1"><text:alphabetical-index-source><text:index-title-template>Index</text:index-title-template></text:alphabetical-index-source><text:index-body><text:index-title><text:p>Index</text:p></text:index-title><text:p>fruit</text:p><text:p>apple, 1</text:p></text:index-body></text:alphabetical-index><text:p>An <text:alphabetical-index-mark text:string-value="apple" text:key1="fruit"/>apple here, <text:toc-mark text:string-value="Summary" text:outline-level="1"/>and <text:alphabetical-index-mark-start text:id="m1" text:key1="fruit"/>pears<text:alphabetical-index-mark-end text:id="m1"/>.</text:p>'
within "ODT, index marks" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/ix.odt" -o "$tmp/ix.es.odt"
content "$tmp/ix.es.odt" >"$tmp/got"
expect_text "ODT, index marks: translated" "$tmp/got" '<office:text><text:alphabetical-index text:name="I1"><text:alphabetical-index-source><text:index-title-template>[Íñdéx ~~]</text:index-title-template></text:alphabetical-index-source><text:index-body><text:index-title><text:p>[Íñdéx ~~]</text:p></text:index-title><text:p>[frúít ~~]</text:p><text:p>[1 ápplé, ~~~]</text:p></text:index-body></text:alphabetical-index><text:p>[<text:alphabetical-index-mark text:string-value="[ápplé ~~]" text:key1="[frúít ~~]"/>ápplé Áñ <text:toc-mark text:string-value="[Súmmárý ~~~]" text:outline-level="1"/>áñd héré, <text:alphabetical-index-mark-start text:id="m1" text:key1="[frúít ~~]"/>péárs.<text:alphabetical-index-mark-end text:id="m1"/> ~~~~~~~~]</text:p>'
within "ODT, index marks: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ix.odt" -o "$tmp/ix.xlf"
grep '<source' "$tmp/ix.xlf" >"$tmp/got"
expect_text "ODT, index marks: extract" "$tmp/got" '<source>Index</source>
<source>Index</source>
<source>fruit</source>
<source>apple, 1</source>
<source>An <x id="1" ctype="x-odt-alphabetical-index-mark"/>apple here, <x id="2" ctype="x-odt-toc-mark"/>and <x id="3" ctype="x-odt-alphabetical-index-mark-start"/>pears<x id="4" ctype="x-odt-alphabetical-index-mark-end"/>.</source>
<source>apple</source>
<source>fruit</source>
<source>Summary</source>
<source>fruit</source>'
merged "$tmp/ix.odt" "$tmp/ix.xlf" "$tmp/ix.m.odt"
content "$tmp/ix.m.odt" | grep -o '<text:[a-z-]*mark[a-z-]* [^>]*>' >"$tmp/got"
expect_text "ODT, index marks: merged" "$tmp/got" '<text:alphabetical-index-mark text:string-value="ES apple" text:key1="ES fruit"/>
<text:toc-mark text:string-value="ES Summary" text:outline-level="1"/>
<text:alphabetical-index-mark-start text:id="m1" text:key1="ES fruit"/>
<text:alphabetical-index-mark-end text:id="m1"/>'

# --- Footnote continuation notices in an OpenDocument text.
"$py" - "$tmp/nc.odt" <<'EOD' || exit 99
import sys, zipfile
O = "urn:oasis:names:tc:opendocument:xmlns:"
NS = ('xmlns:office="%soffice:1.0" xmlns:style="%sstyle:1.0" '
      'xmlns:text="%stext:1.0"' % (O, O, O))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"),
               "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
    z.writestr("content.xml",
               '<office:document-content %s office:version="1.3"><office:body>'
               "<office:text><text:p>Body.</text:p></office:text></office:body>"
               "</office:document-content>" % NS)
    z.writestr("styles.xml",
               '<office:document-styles %s office:version="1.3"><office:styles>'
               '<text:notes-configuration text:note-class="footnote" '
               'text:footnotes-position="page"><text:note-continuation-notice-'
               "forward>Continued on the next page</text:note-continuation-"
               "notice-forward><text:note-continuation-notice-backward>"
               "Continued from the last page</text:note-continuation-notice-"
               "backward></text:notes-configuration></office:styles>"
               '<office:master-styles><style:master-page style:name="Standard">'
               "<style:header><text:p>Head</text:p></style:header>"
               "<style:header-left><text:p>Left head</text:p></style:header-left>"
               "<style:footer-first><text:p>First foot</text:p>"
               "</style:footer-first></style:master-page></office:master-styles>"
               "</office:document-styles>" % NS)
    z.writestr("META-INF/manifest.xml",
               '<manifest:manifest xmlns:manifest="%smanifest:1.0" '
               'manifest:version="1.3"><manifest:file-entry '
               'manifest:full-path="/" manifest:media-type="application/'
               'vnd.oasis.opendocument.text"/></manifest:manifest>' % O)
EOD
within "ODT, continuation notices" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/nc.odt" -o "$tmp/nc.es.odt"
"$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("styles.xml").decode()
print(s[s.index("<office:styles>"):])' "$tmp/nc.es.odt" >"$tmp/got"
expect_text "ODT, continuation notices: translated" "$tmp/got" '<office:styles><text:notes-configuration text:note-class="footnote" text:footnotes-position="page"><text:note-continuation-notice-forward>[óñ Çóñtíñúéd ñéxt thé págé ~~~~~~~~]</text:note-continuation-notice-forward><text:note-continuation-notice-backward>[fróm Çóñtíñúéd lást thé págé ~~~~~~~~~]</text:note-continuation-notice-backward></text:notes-configuration></office:styles><office:master-styles><style:master-page style:name="Standard"><style:header><text:p>[Héád ~~]</text:p></style:header><style:header-left><text:p>[héád Léft ~~~]</text:p></style:header-left><style:footer-first><text:p>[fóót Fírst ~~~]</text:p></style:footer-first></style:master-page></office:master-styles></office:document-styles>'
within "ODT, continuation notices: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/nc.odt" -o "$tmp/nc.xlf"
grep '<source' "$tmp/nc.xlf" >"$tmp/got"
expect_text "ODT, continuation notices: extract" "$tmp/got" '<source>Body.</source>
<source>Continued on the next page</source>
<source>Continued from the last page</source>
<source>Head</source>
<source>Left head</source>
<source>First foot</source>'

finish
