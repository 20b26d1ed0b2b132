#!/bin/sh
# test_hostile_round18.sh: exit 0 means the output is right.
#   - translate of an HTML page with a textarea holding text (the form's
#     prefilled content, shown as the page is: a page translated is
#     expected to show it in the target language, as its placeholder is):
#     its text a unit of its own, its spaces and lines kept (it was left
#     in the source language, exit 0); translate="no" keeps it.
#   - translate of an HTML page with an svg in running text (an icon in a
#     sentence) whose title is the tooltip a reader sees and desc what a
#     screen reader says: each a unit of its own, the svg still one code
#     of its sentence (they were left in the source language, exit 0).
#   - translate of a Word document with a chart whose title is several
#     runs (a:r, one word bold): one unit, the runs codes as a Word
#     paragraph's are (each run was a unit of its own, a sentence cut in
#     pieces), and the runs' and the paragraph end's lang (a:rPr,
#     a:endParaRPr) set to the target language, as w:lang is in Word's
#     runs (it was left "en-US": a spelling check of the source's
#     language); a chart and a SmartArt diagram that only a header's
#     relationships name: translated (they were left in the source
#     language, exit 0).
#   - translate of an OpenDocument text with a placeholder's tooltip
#     (text:placeholder's text:description, shown over the prompt, the
#     placeholder empty or not) and form controls' labels and tooltips
#     (form:label, form:title of a form:button...): each a unit of its
#     own (they were left in the source language, exit 0). Held and
#     tested as they are: a frame's text box, its svg:title and svg:desc,
#     a footnote's text translated; an annotation's kept (since round
#     22 an annotation is translated, as a Word comment is:
#     test_hostile_round22.sh).
#   - translate of an OpenDocument text with a chart embedded (Object
#     1/content.xml: chart:title, chart:subtitle, an axis title and the
#     text cells of its own table, which are its legend and category
#     labels): each paragraph a unit (they were left in the source
#     language, exit 0); a number cell kept.
#   - translate of a Word document with a form field whose help text
#     (F1) and status bar text (w:ffData's w:helpText, w:statusText) are
#     text: each a unit, the field still a pair around its result (they
#     were left in the source language, exit 0) (since round 22 its
#     default, w:default, takes the result's translation:
#     test_hostile_round22.sh); a drop-down form
#     field's entries (w:listEntry: the one chosen is what the document
#     shows), each a unit; a content control's drop-down choices in a
#     paragraph (w:listItem's w:displayText: what it shows once chosen),
#     each a unit, the control's properties written with them. Held
#     and tested as
#     they are: footnotes, comments, a header's text box, a content
#     control showing its placeholder text, w:fldSimple results.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3 unzip
cli_setup hostile-round18
x=$XLIFFMT
. "$(dirname "$0")/office_lib.sh"

# --- A textarea's content; the title of an svg in running text.
cat >"$tmp/form.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Write: <textarea name="m" rows="3">
Dear team,
  the &amp; report is late.
</textarea> then send.</p><textarea>Notes go here</textarea><textarea translate="no">Kept text</textarea><textarea> </textarea><p>Click <svg width="8" height="8"><title>Save the file</title><desc>A floppy disk</desc><path d="M0 0"/></svg> to save.</p><p>An <svg translate="no"><title>Kept icon</title></svg> here.</p><p>A <svg><g><title translate="no">Kept too</title></g></svg> star.</p></body></html>
EOD
within "HTML, textarea and svg title" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/form.html" -o "$tmp/form.es.html"
expect_text "HTML, textarea and svg title: translated" "$tmp/form.es.html" \
  '<!DOCTYPE html><html lang="es"><body><p>[<textarea name="m" rows="3">
[téám, Déár ~~~]
  [&amp; thé ís répórt láté. ~~~~~~~]
</textarea>théñ Wríté: séñd. ~~~~~~]</p><textarea>[gó Ñótés héré ~~~~]</textarea><textarea translate="no">Kept text</textarea><textarea> </textarea><p>[<svg width="8" height="8"><title>[thé Sávé fílé ~~~~]</title><desc>[flóppý Á dísk ~~~~]</desc><path d="M0 0"/></svg>tó Çlíçk sávé. ~~~~~]</p><p>[<svg translate="no"><title>Kept icon</title></svg>héré. Áñ ~~~]</p><p>[<svg><g><title translate="no">Kept too</title></g></svg>stár. Á ~~~]</p></body></html>'
within "HTML, textarea and svg title: extract" 0 20 300 "$x" extract -q \
  -s en "$tmp/form.html" -o "$tmp/form.xlf"
grep -v '^<?xml\|^<xliff\|^<file\|^<body\|^</' "$tmp/form.xlf" >"$tmp/got"
expect_text "HTML, textarea and svg title: extract" "$tmp/got" \
  '<trans-unit id="1" restype="x-html-textarea" xml:space="preserve">
<source>Dear team,
  the &amp; report is late.</source>
<trans-unit id="2" restype="x-html-p">
<source>Write: <x id="1" ctype="x-html-textarea"/> then send.</source>
<trans-unit id="3" restype="x-html-textarea" xml:space="preserve">
<source>Notes go here</source>
<trans-unit id="4" restype="x-html-title">
<source>Save the file</source>
<trans-unit id="5" restype="x-html-desc">
<source>A floppy disk</source>
<trans-unit id="6" restype="x-html-p">
<source>Click <x id="1" ctype="x-html-svg"/> to save.</source>
<trans-unit id="7" restype="x-html-p">
<source>An <x id="1" ctype="x-html-svg"/> here.</source>
<trans-unit id="8" restype="x-html-p">
<source>A <x id="1" ctype="x-html-svg"/> star.</source>'
merged "$tmp/form.html" "$tmp/form.xlf" "$tmp/form.m.html"
expect_text "HTML, textarea and svg title: merged" "$tmp/form.m.html" \
  '<!DOCTYPE html><html lang="es"><body><p>ES Write: <textarea name="m" rows="3">
ES Dear team,
  the &amp; report is late.
</textarea> then send.</p><textarea>ES Notes go here</textarea><textarea translate="no">Kept text</textarea><textarea> </textarea><p>ES Click <svg width="8" height="8"><title>ES Save the file</title><desc>ES A floppy disk</desc><path d="M0 0"/></svg> to save.</p><p>ES An <svg translate="no"><title>Kept icon</title></svg> here.</p><p>ES A <svg><g><title translate="no">Kept too</title></g></svg> star.</p></body></html>'

# --- Word charts: a title of several runs one unit, the language set;
# charts and diagrams a header names.
"$py" - "$tmp/chart.docx" <<'EOD' || exit 99
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
D = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
CT = "application/vnd.openxmlformats-officedocument."
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Default Extension="xml" ContentType='
               '"application/xml"/><Override PartName="/word/document.xml" '
               'ContentType="%swordprocessingml.document.main+xml"/>'
               '<Override PartName="/word/header1.xml" ContentType="%swordprocessingml.header+xml"/>'
               '<Override PartName="/word/charts/chart1.xml" ContentType='
               '"%sdrawingml.chart+xml"/><Override PartName="/word/charts/chart2.xml" ContentType='
               '"%sdrawingml.chart+xml"/><Override PartName="/word/diagrams/'
               'data2.xml" ContentType="%sdrawingml.diagramData+xml"/>'
               "</Types>" % (P, CT, CT, CT, CT, CT))
    z.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="word/document.xml"'
               '/></Relationships>' % (P, O))
    z.writestr("word/_rels/document.xml.rels",
               '<Relationships xmlns="%srelationships">'
               '<Relationship Id="rId5" Type="%s/chart" Target="charts/chart1.xml"/>'
               '<Relationship Id="rId6" Type="%s/header" Target="header1.xml"/>'
               '</Relationships>' % (P, O, O))
    z.writestr("word/_rels/header1.xml.rels",
               '<Relationships xmlns="%srelationships">'
               '<Relationship Id="rId1" Type="%s/chart" Target="charts/chart2.xml"/>'
               '<Relationship Id="rId2" Type="%s/diagramData" Target="diagrams/data2.xml"/>'
               '</Relationships>' % (P, O, O))
    z.writestr("word/document.xml",
               '<w:document xmlns:w="%s"><w:body><w:p><w:r><w:t>See the '
               "chart.</w:t></w:r></w:p></w:body></w:document>" % W)
    z.writestr("word/header1.xml",
               '<w:hdr xmlns:w="%s"><w:p><w:r><w:t>Head text.</w:t></w:r></w:p></w:hdr>' % W)
    z.writestr("word/charts/chart1.xml",
               '<c:chartSpace xmlns:c="%s" xmlns:a="%s"><c:chart><c:title>'
               '<c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr sz="1400"/></a:pPr>'
               '<a:r><a:rPr lang="en-US" sz="1400" dirty="0"/><a:t>Sales </a:t></a:r>'
               '<a:r><a:rPr lang="en-US" sz="1400" b="1"/><a:t>by</a:t></a:r>'
               '<a:r><a:rPr lang="en-US" sz="1400" dirty="0" err="1"/><a:t> year and region</a:t></a:r>'
               '<a:endParaRPr lang="en-US" sz="1400"/></a:p>'
               '<a:p><a:r><a:rPr lang="en-GB"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t>Second line</a:t></a:r><a:br><a:rPr lang="en-GB"/></a:br><a:r><a:t>third</a:t></a:r></a:p>'
               '</c:rich></c:tx></c:title><c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr></c:chart></c:chartSpace>' % (C, A))
    z.writestr("word/charts/chart2.xml",
               '<c:chartSpace xmlns:c="%s" xmlns:a="%s"><c:chart><c:title>'
               '<c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Header chart</a:t></a:r></a:p>'
               '</c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:v>East</c:v></c:tx></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>' % (C, A))
    z.writestr("word/diagrams/data2.xml",
               '<dgm:dataModel xmlns:dgm="%s" xmlns:a="%s"><dgm:ptLst>'
               '<dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:t>Footer step</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst>'
               "</dgm:dataModel>" % (D, A))
EOD
within "Word, charts" 0 20 300 "$x" translate -q --mt pseudo -s en -t es \
  "$tmp/chart.docx" -o "$tmp/chart.es.docx"
opens "$tmp/chart.es.docx"
"$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in ("word/charts/chart1.xml", "word/charts/chart2.xml",
          "word/diagrams/data2.xml"):
    print(z.read(n).decode())' "$tmp/chart.es.docx" >"$tmp/got"
expect_text "Word, charts: runs one sentence, lang set, a header's charts" \
  "$tmp/got" '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr sz="1400"/></a:pPr><a:r><a:rPr lang="es" sz="1400" dirty="0"/><a:t>[</a:t></a:r><a:r><a:rPr lang="es" sz="1400" b="1"/><a:t>bý</a:t></a:r><a:r><a:rPr lang="es" sz="1400" dirty="0"/><a:t> Sálés áñd ýéár régíóñ ~~~~~~~~]</a:t></a:r><a:endParaRPr lang="es" sz="1400"/></a:p><a:p><a:r><a:rPr lang="es"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t>[líñé Séçóñd</a:t></a:r><a:br><a:rPr lang="en-GB"/></a:br><a:r><a:rPr lang="es"/><a:t>thírd</a:t></a:r><a:r><a:rPr lang="es"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t> ~~~~~~]</a:t></a:r></a:p></c:rich></c:tx></c:title><c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr></c:chart></c:chartSpace>
<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>[çhárt Héádér ~~~~]</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:v>[Éást ~~]</c:v></c:tx></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>
<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst><dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>[stép Fóótér ~~~~]</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>'
within "Word, charts: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/chart.docx" -o "$tmp/chart.xlf"
grep '<source' "$tmp/chart.xlf" >"$tmp/got"
expect_text "Word, charts: extract" "$tmp/got" '<source>See the chart.</source>
<source>Head text.</source>
<source>Sales <g id="1" ctype="x-w-r">by</g> year and region</source>
<source>Second line<x id="1" ctype="lb"/><g id="2" ctype="x-w-r">third</g></source>
<source>Header chart</source>
<source>East</source>
<source>Footer step</source>'
merged "$tmp/chart.docx" "$tmp/chart.xlf" "$tmp/chart.m.docx"
opens "$tmp/chart.m.docx"
"$py" -c 'import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).read("word/charts/chart1.xml").decode())' \
  "$tmp/chart.m.docx" >"$tmp/got"
expect_text "Word, charts: merged" "$tmp/got" '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr sz="1400"/></a:pPr><a:r><a:rPr lang="es" sz="1400" dirty="0"/><a:t>ES Sales </a:t></a:r><a:r><a:rPr lang="es" sz="1400" b="1"/><a:t>by</a:t></a:r><a:r><a:rPr lang="es" sz="1400" dirty="0"/><a:t> year and region</a:t></a:r><a:endParaRPr lang="es" sz="1400"/></a:p><a:p><a:r><a:rPr lang="es"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t>ES Second line</a:t></a:r><a:br><a:rPr lang="en-GB"/></a:br><a:r><a:rPr lang="es"/><a:t>third</a:t></a:r></a:p></c:rich></c:tx></c:title><c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr></c:chart></c:chartSpace>'

# --- ODT: a placeholder's tooltip, form controls' labels; frames, notes
# held, an annotation translated.
# odtx OUT TEXT [CHART]: an OpenDocument text whose office:text holds
# TEXT (form, chart namespaces too), with an embedded chart "Object 1"
# whose title is CHART.
odtx() {
  "$py" - "$@" <<'EOD' || exit 99
import sys, zipfile
O = "urn:oasis:names:tc:opendocument:xmlns:"
NS = ('xmlns:office="%soffice:1.0" xmlns:text="%stext:1.0" xmlns:draw="%sdrawing:1.0" '
      'xmlns:svg="%ssvg-compatible:1.0" xmlns:form="%sform:1.0" xmlns:chart="%schart:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/"' % ((O,)*6))
body = sys.argv[2]
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
    z.writestr("content.xml", '<office:document-content %s office:version="1.3"><office:body><office:text>%s</office:text></office:body></office:document-content>' % (NS, body))
    files = '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    if len(sys.argv) > 3:
        z.writestr("Object 1/content.xml", '<office:document-content %s office:version="1.3"><office:body><office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>%s</text:p></chart:title><chart:plot-area/></chart:chart></office:chart></office:body></office:document-content>' % (NS, sys.argv[3]))
        files += '<manifest:file-entry manifest:full-path="Object 1/" manifest:media-type="application/vnd.oasis.opendocument.chart"/><manifest:file-entry manifest:full-path="Object 1/content.xml" manifest:media-type="text/xml"/>'
    z.writestr("META-INF/manifest.xml", '<manifest:manifest xmlns:manifest="%smanifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>%s</manifest:manifest>' % (O, files))
EOD
}
odtx "$tmp/ctl.odt" '<office:forms><form:form form:name="F"><form:button form:name="B1" form:label="Press &amp; go" form:title="Sends it"/><form:checkbox form:name="C1" form:label=" "/></form:form></office:forms><text:p>Dear <text:placeholder text:placeholder-type="text" text:description="Type the name here">&lt;Your name&gt;</text:placeholder>, welcome.</text:p><text:p><text:placeholder text:placeholder-type="text" text:description="Only a tip"/> alone</text:p><text:p>See <draw:frame draw:name="F1" text:anchor-type="as-char"><draw:text-box><text:p>Boxed text here.</text:p></draw:text-box><svg:title>Frame title</svg:title><svg:desc>Frame description</svg:desc></draw:frame> now.</text:p><text:p>Noted<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>The footnote text.</text:p></text:note-body></text:note> here.</text:p><text:p>Commented<office:annotation><dc:creator>Ann</dc:creator><text:p>A comment to the author.</text:p></office:annotation> text.</text:p>'
within "ODT, tooltips and labels" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/ctl.odt" -o "$tmp/ctl.es.odt"
unzip -tq "$tmp/ctl.es.odt" >/dev/null 2>&1 || fail "ODT, tooltips: unzip -t"
content "$tmp/ctl.es.odt" >"$tmp/got"
expect_text "ODT, tooltips and labels: translated" "$tmp/got" \
  '<office:text><office:forms><form:form form:name="F"><form:button form:name="B1" form:label="[&amp; Préss gó ~~~]" form:title="[ít Séñds ~~~]"/><form:checkbox form:name="C1" form:label=" "/></form:form></office:forms><text:p>[<text:placeholder text:placeholder-type="text" text:description="[thé Týpé héré ñámé ~~~~~~]">&lt;Ýóúr Déár wélçómé. ñámé&gt;,</text:placeholder> ~~~~~~~~]</text:p><text:p><text:placeholder text:placeholder-type="text" text:description="[á Óñlý típ ~~~]"/> [álóñé ~~]</text:p><text:p>[<draw:frame draw:name="F1" text:anchor-type="as-char"><draw:text-box><text:p>[téxt Bóxéd héré. ~~~~~]</text:p></draw:text-box><svg:title>[títlé Frámé ~~~~]</svg:title><svg:desc>[désçríptíóñ Frámé ~~~~~~]</svg:desc></draw:frame>ñów. Séé ~~~]</text:p><text:p>[héré. Ñótéd<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>[fóótñóté Thé téxt. ~~~~~~]</text:p></text:note-body></text:note> ~~~~]</text:p><text:p>[téxt. Çómméñtéd<office:annotation><dc:creator>Ann</dc:creator><text:p>[çómméñt Á thé tó áúthór. ~~~~~~~~]</text:p></office:annotation> ~~~~~]</text:p>'
if shown "$tmp/ctl.es.odt"; then
  expect_text "ODT, tooltips and labels: LibreOffice shows the translation" \
    "$tmp/shown" '[<Ýóúr Déár wélçómé. ñámé>,> ~~~~~~~~]
<> [álóñé ~~]
[ñów. Séé ~~~]
[héré. Ñótéd1 ~~~~]
[téxt. Çómméñtéd ~~~~~]'
fi
within "ODT, tooltips and labels: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ctl.odt" -o "$tmp/ctl.xlf"
grep '<source' "$tmp/ctl.xlf" >"$tmp/got"
expect_text "ODT, tooltips and labels: extract" "$tmp/got" '<source>Press &amp; go</source>
<source>Sends it</source>
<source>Dear <g id="1" ctype="x-odt-placeholder">&lt;Your name></g>, welcome.</source>
<source>Type the name here</source>
<source><x id="1" ctype="x-odt-placeholder"/> alone</source>
<source>Only a tip</source>
<source>See <x id="1" ctype="x-odt-frame"/> now.</source>
<source>Boxed text here.</source>
<source>Frame title</source>
<source>Frame description</source>
<source>Noted<x id="1" ctype="x-odt-note"/> here.</source>
<source>The footnote text.</source>
<source>Commented<x id="1" ctype="x-odt-annotation"/> text.</source>
<source>A comment to the author.</source>'
merged "$tmp/ctl.odt" "$tmp/ctl.xlf" "$tmp/ctl.m.odt"
content "$tmp/ctl.m.odt" >"$tmp/got"
expect_text "ODT, tooltips and labels: merged" "$tmp/got" '<office:text><office:forms><form:form form:name="F"><form:button form:name="B1" form:label="ES Press &amp; go" form:title="ES Sends it"/><form:checkbox form:name="C1" form:label=" "/></form:form></office:forms><text:p>ES Dear <text:placeholder text:placeholder-type="text" text:description="ES Type the name here">&lt;Your name&gt;</text:placeholder>, welcome.</text:p><text:p>ES <text:placeholder text:placeholder-type="text" text:description="ES Only a tip"/> alone</text:p><text:p>ES See <draw:frame draw:name="F1" text:anchor-type="as-char"><draw:text-box><text:p>ES Boxed text here.</text:p></draw:text-box><svg:title>ES Frame title</svg:title><svg:desc>ES Frame description</svg:desc></draw:frame> now.</text:p><text:p>ES Noted<text:note text:id="n1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>ES The footnote text.</text:p></text:note-body></text:note> here.</text:p><text:p>ES Commented<office:annotation><dc:creator>Ann</dc:creator><text:p>ES A comment to the author.</text:p></office:annotation> text.</text:p>'

# --- ODT: a chart embedded ("Object 1/content.xml").
"$py" - "$tmp/chart.odt" <<'EOD' || exit 99
import sys, zipfile
O = "urn:oasis:names:tc:opendocument:xmlns:"
NS = ('xmlns:office="%soffice:1.0" xmlns:text="%stext:1.0" xmlns:draw="%sdrawing:1.0" '
      'xmlns:table="%stable:1.0" xmlns:chart="%schart:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink"' % ((O,)*5))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
    z.writestr("content.xml", '<office:document-content %s office:version="1.3"><office:body><office:text><text:p>See the chart: <draw:frame draw:name="C1"><draw:object xlink:href="./Object 1" xlink:type="simple"/></draw:frame></text:p></office:text></office:body></office:document-content>' % NS)
    z.writestr("Object 1/content.xml", '<office:document-content %s office:version="1.3"><office:body><office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>Sales by year</text:p></chart:title><chart:subtitle><text:p>All regions</text:p></chart:subtitle><chart:plot-area><chart:axis chart:dimension="y"><chart:title><text:p>Units sold</text:p></chart:title></chart:axis></chart:plot-area><table:table table:name="local-table"><table:table-header-rows><table:table-row><table:table-cell/><table:table-cell office:value-type="string"><text:p>North region</text:p></table:table-cell></table:table-row></table:table-header-rows><table:table-rows><table:table-row><table:table-cell office:value-type="string"><text:p>First quarter</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="4.3"><text:p>4.3</text:p></table:table-cell></table:table-row></table:table-rows></table:table></chart:chart></office:chart></office:body></office:document-content>' % NS)
    z.writestr("Object 1/styles.xml", '<office:document-styles %s office:version="1.3"/>' % NS)
    z.writestr("META-INF/manifest.xml", '<manifest:manifest xmlns:manifest="%smanifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Object 1/" manifest:media-type="application/vnd.oasis.opendocument.chart"/><manifest:file-entry manifest:full-path="Object 1/content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Object 1/styles.xml" manifest:media-type="text/xml"/></manifest:manifest>' % O)
EOD
# object ODT: the office:chart of its "Object 1/content.xml".
object() {
  "$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("Object 1/content.xml").decode()
print(s[s.index("<office:chart>"):s.index("</office:chart>")])' "$1"
}
within "ODT, an embedded chart" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/chart.odt" -o "$tmp/chart.es.odt"
unzip -tq "$tmp/chart.es.odt" >/dev/null 2>&1 || fail "ODT, chart: unzip -t"
object "$tmp/chart.es.odt" >"$tmp/got"
expect_text "ODT, an embedded chart: its titles and labels translated" \
  "$tmp/got" '<office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>[bý Sálés ýéár ~~~~]</text:p></chart:title><chart:subtitle><text:p>[régíóñs Áll ~~~~]</text:p></chart:subtitle><chart:plot-area><chart:axis chart:dimension="y"><chart:title><text:p>[sóld Úñíts ~~~]</text:p></chart:title></chart:axis></chart:plot-area><table:table table:name="local-table"><table:table-header-rows><table:table-row><table:table-cell/><table:table-cell office:value-type="string"><text:p>[régíóñ Ñórth ~~~~]</text:p></table:table-cell></table:table-row></table:table-header-rows><table:table-rows><table:table-row><table:table-cell office:value-type="string"><text:p>[qúártér Fírst ~~~~]</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="4.3"><text:p>4.3</text:p></table:table-cell></table:table-row></table:table-rows></table:table></chart:chart>'
if command -v soffice >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1
then
  rm -rf "$tmp/pdf"
  timeout -s KILL 120 soffice "-env:UserInstallation=file://$tmp/lo" \
    --headless --convert-to pdf --outdir "$tmp/pdf" "$tmp/chart.es.odt" \
    >/dev/null 2>&1
  pdftotext "$tmp/pdf/chart.es.pdf" - 2>/dev/null | tr -d "\f" | grep . \
    >"$tmp/got"
  expect_text "ODT, an embedded chart: LibreOffice draws it translated" \
    "$tmp/got" '[bý Sálés ýéár ~~~~]
[sóld Úñíts ~~~]
[régíóñs Áll ~~~~]
[thé Séé çhárt: ~~~~~]'
fi
within "ODT, an embedded chart: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/chart.odt" -o "$tmp/chart.o.xlf"
grep '<source' "$tmp/chart.o.xlf" >"$tmp/got"
expect_text "ODT, an embedded chart: extract" "$tmp/got" '<source>See the chart: <x id="1" ctype="x-odt-frame"/></source>
<source>Sales by year</source>
<source>All regions</source>
<source>Units sold</source>
<source>North region</source>
<source>First quarter</source>'
merged "$tmp/chart.odt" "$tmp/chart.o.xlf" "$tmp/chart.m.odt"
object "$tmp/chart.m.odt" >"$tmp/got"
expect_text "ODT, an embedded chart: merged" "$tmp/got" '<office:chart><chart:chart chart:class="chart:bar"><chart:title><text:p>ES Sales by year</text:p></chart:title><chart:subtitle><text:p>ES All regions</text:p></chart:subtitle><chart:plot-area><chart:axis chart:dimension="y"><chart:title><text:p>ES Units sold</text:p></chart:title></chart:axis></chart:plot-area><table:table table:name="local-table"><table:table-header-rows><table:table-row><table:table-cell/><table:table-cell office:value-type="string"><text:p>ES North region</text:p></table:table-cell></table:table-row></table:table-header-rows><table:table-rows><table:table-row><table:table-cell office:value-type="string"><text:p>ES First quarter</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="4.3"><text:p>4.3</text:p></table:table-cell></table:table-row></table:table-rows></table:table></chart:chart>'

# --- Word: a form field's help and status text; notes, comments, a
# header's text box, a content control's placeholder, simple fields held.
# wparts OUT BODY HEADER COMMENTS FOOTNOTES: a Word document with a
# header, comments and footnotes holding those.
wparts() {
  "$py" - "$@" <<'EOD' || exit 99
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
NS = 'xmlns:w="%s" xmlns:r="%s" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:v="urn:schemas-microsoft-com:vml"' % (W, O)
doc = sys.argv[2]; hdr = sys.argv[3]; com = sys.argv[4]; fn = sys.argv[5]
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
               '<Override PartName="/word/document.xml" ContentType="%sdocument.main+xml"/>'
               '<Override PartName="/word/header1.xml" ContentType="%sheader+xml"/>'
               '<Override PartName="/word/comments.xml" ContentType="%scomments+xml"/>'
               '<Override PartName="/word/footnotes.xml" ContentType="%sfootnotes+xml"/></Types>' % (P, CT, CT, CT, CT))
    z.writestr("_rels/.rels", '<Relationships xmlns="%srelationships"><Relationship Id="rId1" Type="%s/officeDocument" Target="word/document.xml"/></Relationships>' % (P, O))
    z.writestr("word/_rels/document.xml.rels", '<Relationships xmlns="%srelationships"><Relationship Id="rId6" Type="%s/header" Target="header1.xml"/><Relationship Id="rId7" Type="%s/comments" Target="comments.xml"/><Relationship Id="rId8" Type="%s/footnotes" Target="footnotes.xml"/></Relationships>' % (P, O, O, O))
    z.writestr("word/document.xml", '<w:document %s><w:body>%s<w:sectPr><w:headerReference w:type="default" r:id="rId6"/></w:sectPr></w:body></w:document>' % (NS, doc))
    z.writestr("word/header1.xml", '<w:hdr %s>%s</w:hdr>' % (NS, hdr))
    z.writestr("word/comments.xml", '<w:comments %s>%s</w:comments>' % (NS, com))
    z.writestr("word/footnotes.xml", '<w:footnotes %s>%s</w:footnotes>' % (NS, fn))
EOD
}
wparts "$tmp/parts.docx" \
  '<w:p><w:r><w:t xml:space="preserve">Body with a note</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:commentRangeStart w:id="0"/><w:r><w:t xml:space="preserve"> and a comment.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p><w:sdt><w:sdtPr><w:placeholder><w:docPart w:val="DefaultPlaceholder_1"/></w:placeholder><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:p><w:r><w:rPr><w:rStyle w:val="PlaceholderText"/></w:rPr><w:t>Click here to enter text.</w:t></w:r></w:p></w:sdtContent></w:sdt><w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> of the </w:t></w:r><w:fldSimple w:instr=" TITLE "><w:r><w:t>Annual report</w:t></w:r></w:fldSimple></w:p><w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Text1"/><w:enabled/><w:helpText w:type="text" w:val="Type your full name"/><w:statusText w:type="text" w:val="Your name"/><w:textInput><w:default w:val="Name here"/></w:textInput></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Name here</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> is the field.</w:t></w:r></w:p>' \
  '<w:p><w:r><w:drawing><wp:anchor><wp:docPr id="3" name="Text Box 3"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>Header box text</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r><w:r><w:t>Header line</w:t></w:r></w:p>' \
  '<w:comment w:id="0" w:author="Ann"><w:p><w:r><w:t>Check this figure.</w:t></w:r></w:p></w:comment>' \
  '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> The note text.</w:t></w:r></w:p></w:footnote>'
# field DOCX: the paragraph of word/document.xml with the form field.
field() {
  "$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
i = s.index("FORMTEXT")
print(s[s.rindex("<w:p>", 0, i):s.index("</w:p>", i) + 6])' "$1"
}
within "Word, form field texts" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/parts.docx" -o "$tmp/parts.es.docx"
opens "$tmp/parts.es.docx"
field "$tmp/parts.es.docx" >"$tmp/got"
expect_text "Word, form field texts: help and status text translated" \
  "$tmp/got" '<w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[</w:t></w:r><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Text1"/><w:enabled/><w:helpText w:type="text" w:val="[ýóúr Týpé ñámé fúll ~~~~~~]"/><w:statusText w:type="text" w:val="[ñámé Ýóúr ~~~]"/><w:textInput><w:default w:val="héré Ñámé"/></w:textInput></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>héré Ñámé</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> thé ís fíéld. ~~~~~~~]</w:t></w:r></w:p>'
within "Word, form field texts: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/parts.docx" -o "$tmp/parts.xlf"
grep '<source' "$tmp/parts.xlf" >"$tmp/got"
expect_text "Word, notes, comments, boxes, fields: extract" "$tmp/got" '<source>Body with a note<x id="1" ctype="x-w-footnoteReference"/> and a comment.</source>
<source>Click here to enter text.</source>
<source>Page <g id="1" ctype="x-w-fldSimple">1</g> of the <g id="2" ctype="x-w-fldSimple">Annual report</g></source>
<source>Type your full name</source>
<source>Your name</source>
<source><g id="1" ctype="x-w-fldChar">Name here</g> is the field.</source>
<source>Header box text</source>
<source>Header line</source>
<source>Check this figure.</source>
<source> The note text.</source>'
merged "$tmp/parts.docx" "$tmp/parts.xlf" "$tmp/parts.m.docx"
opens "$tmp/parts.m.docx"
field "$tmp/parts.m.docx" >"$tmp/got"
expect_text "Word, form field texts: merged" "$tmp/got" '<w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve">ES </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Text1"/><w:enabled/><w:helpText w:type="text" w:val="ES Type your full name"/><w:statusText w:type="text" w:val="ES Your name"/><w:textInput><w:default w:val="Name here"/></w:textInput></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>Name here</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> is the field.</w:t></w:r></w:p>'

# --- Word: a drop-down form field, whose entry chosen the page shows.
wparts "$tmp/dd.docx" \
  '<w:p><w:r><w:t xml:space="preserve">Pick: </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Drop1"/><w:enabled/><w:ddList><w:listEntry w:val="Red apple"/><w:listEntry w:val="Green pear"/></w:ddList></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> is chosen.</w:t></w:r></w:p>' \
  '<w:p/>' '' ''
within "Word, drop-down" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/dd.docx" -o "$tmp/dd.es.docx"
opens "$tmp/dd.es.docx"
body "$tmp/dd.es.docx" >"$tmp/got"
expect_text "Word, drop-down: its entries translated" "$tmp/got" \
  '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[</w:t></w:r><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Drop1"/><w:enabled/><w:ddList><w:listEntry w:val="[ápplé Réd ~~~]"/><w:listEntry w:val="[péár Grééñ ~~~]"/></w:ddList></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMDROPDOWN </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>ís Píçk: çhóséñ. ~~~~~~]</w:t></w:r></w:p><w:sectPr><w:headerReference w:type="default" r:id="rId6"/></w:sectPr></w:body></w:document>'
if command -v soffice >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1
then
  rm -rf "$tmp/pdf"
  timeout -s KILL 120 soffice "-env:UserInstallation=file://$tmp/lo" \
    --headless --convert-to pdf --outdir "$tmp/pdf" "$tmp/dd.es.docx" \
    >/dev/null 2>&1
  pdftotext "$tmp/pdf/dd.es.pdf" - 2>/dev/null | tr -d "\f" | grep . \
    >"$tmp/got"
  expect_text "Word, drop-down: LibreOffice shows the entry translated" \
    "$tmp/got" '[[ápplé Réd ~~~]ís Píçk: çhóséñ. ~~~~~~]'
fi
within "Word, drop-down: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/dd.docx" -o "$tmp/dd.xlf"
grep '<source' "$tmp/dd.xlf" >"$tmp/got"
expect_text "Word, drop-down: extract" "$tmp/got" '<source>Red apple</source>
<source>Green pear</source>
<source>Pick: <x id="1" ctype="x-w-fldChar"/> is chosen.</source>'
merged "$tmp/dd.docx" "$tmp/dd.xlf" "$tmp/dd.m.docx"
opens "$tmp/dd.m.docx"
body "$tmp/dd.m.docx" | grep -o '<w:ddList>.*</w:ddList>' >"$tmp/got"
expect_text "Word, drop-down: merged" "$tmp/got" \
  '<w:ddList><w:listEntry w:val="ES Red apple"/><w:listEntry w:val="ES Green pear"/></w:ddList>'

# --- Word: a content control's drop-down list (its choices' display
# text).
wparts "$tmp/sd.docx" \
  '<w:p><w:r><w:t xml:space="preserve">Color: </w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="Color"/><w:dropDownList><w:listItem w:displayText="Dark red" w:value="1"/><w:listItem w:displayText="Light blue" w:value="2"/></w:dropDownList></w:sdtPr><w:sdtContent><w:r><w:t>Dark red</w:t></w:r></w:sdtContent></w:sdt><w:r><w:t xml:space="preserve"> is set.</w:t></w:r></w:p>' \
  '<w:p/>' '' ''
within "Word, a content control's choices" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/sd.docx" -o "$tmp/sd.es.docx"
opens "$tmp/sd.es.docx"
body "$tmp/sd.es.docx" >"$tmp/got"
expect_text "Word, a content control's choices: translated" "$tmp/got" \
  '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[</w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="Color"/><w:dropDownList><w:listItem w:displayText="[réd Dárk ~~~]" w:value="1"/><w:listItem w:displayText="[blúé Líght ~~~]" w:value="2"/></w:dropDownList></w:sdtPr><w:sdtContent><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>Dárk Çólór: ís réd</w:t></w:r></w:sdtContent></w:sdt><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> sét. ~~~~~~~]</w:t></w:r></w:p><w:sectPr><w:headerReference w:type="default" r:id="rId6"/></w:sectPr></w:body></w:document>'
within "Word, a content control's choices: extract" 0 20 300 "$x" extract \
  -q -s en "$tmp/sd.docx" -o "$tmp/sd.xlf"
grep '<source' "$tmp/sd.xlf" >"$tmp/got"
expect_text "Word, a content control's choices: extract" "$tmp/got" \
  '<source>Dark red</source>
<source>Light blue</source>
<source>Color: <g id="1" ctype="x-w-sdt">Dark red</g> is set.</source>'
merged "$tmp/sd.docx" "$tmp/sd.xlf" "$tmp/sd.m.docx"
opens "$tmp/sd.m.docx"
body "$tmp/sd.m.docx" | grep -o '<w:dropDownList>.*</w:dropDownList>' \
  >"$tmp/got"
expect_text "Word, a content control's choices: merged" "$tmp/got" \
  '<w:dropDownList><w:listItem w:displayText="ES Dark red" w:value="1"/><w:listItem w:displayText="ES Light blue" w:value="2"/></w:dropDownList>'

finish
