#!/bin/sh
# test_hostile_round13.sh: exit 0 means the output is right.
#   - translate of a Word document with a picture whose alternative text
#     (wp:docPr's descr and title: Word's "Alt Text", which screen
#     readers say) and a hyperlink whose tooltip (w:tooltip) are text:
#     each value a unit, written back escaped for an attribute (they were
#     left in the source language, exit 0); extract lists them and merge
#     puts their targets back.
#   - translate of a Word document with core properties
#     (docProps/core.xml): dc:title, dc:subject and dc:description
#     translated, as an OpenDocument's meta.xml title is (they were left
#     in the source language: the title bar and a PDF's title showed the
#     source's, exit 0); dc:creator kept.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3 unzip
cli_setup hostile-round13
x=$XLIFFMT
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# word OUT BODY [CORE]: a Word document whose w:body holds BODY, with
# core properties holding CORE when it is given.
word() {
  "$py" - "$1" "$2" "${3:-}" <<'EOD' || exit 99
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
core = sys.argv[3]
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Override PartName="/word/document.xml" '
               'ContentType="application/vnd.openxmlformats-officedocument.'
               'wordprocessingml.document.main+xml"/>%s</Types>'
               % (P, '<Override PartName="/docProps/core.xml" ContentType='
                  '"application/vnd.openxmlformats-package.core-properties'
                  '+xml"/>' if core else ""))
    z.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="word/document.xml"'
               '/>%s</Relationships>'
               % (P, O, '<Relationship Id="rId2" Type="%srelationships/metadata/core-'
                  'properties" Target="docProps/core.xml"/>' % P
                  if core else ""))
    z.writestr("word/document.xml",
               '<w:document xmlns:w="%s" xmlns:wp="%s" xmlns:a="%s" '
               'xmlns:r="%s"><w:body>%s</w:body></w:document>'
               % (W, WP, A, O, sys.argv[2]))
    if core:
        z.writestr("docProps/core.xml",
                   '<cp:coreProperties xmlns:cp="%smetadata/core-properties" '
                   'xmlns:dc="http://purl.org/dc/elements/1.1/">%s'
                   "</cp:coreProperties>" % (P, core))
EOD
}
# entry DOCX NAME: the entry NAME of DOCX.
entry() {
  "$py" -c 'import sys, zipfile
print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())' "$1" "$2"
}
# opens DOCX: the zip sound, python3-docx loads it (when it is there).
opens() {
  unzip -tq "$1" >/dev/null 2>&1 || { fail "$1: unzip -t"; return; }
  if "$py" -c 'import docx' 2>/dev/null; then
    "$py" -c 'import sys, docx; docx.Document(sys.argv[1])' "$1" \
      >/dev/null 2>&1 || fail "$1: python3-docx does not load it"
  fi
}

# --- A picture's alternative text, a link's tooltip.
pic='<w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="A red &amp; blue &quot;boat&quot;" title="Boat photo"/><a:graphic><a:graphicData uri="x"/></a:graphic></wp:inline></w:drawing></w:r>'
word "$tmp/alt.docx" "<w:p><w:r><w:t>Look at this picture.</w:t></w:r>$pic</w:p><w:p>$pic</w:p><w:p><w:hyperlink r:id=\"rId9\" w:tooltip=\"Opens the site\"><w:r><w:t>The site</w:t></w:r></w:hyperlink><w:r><w:t xml:space=\"preserve\"> is here.</w:t></w:r></w:p><w:p><w:del w:id=\"1\" w:author=\"A\">$(printf %s "$pic" | sed 's/Boat photo/Old photo/')</w:del><w:r><w:t>Kept.</w:t></w:r></w:p>"
within "Word, alternative text and tooltips" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/alt.docx" -o "$tmp/alt.es.docx"
opens "$tmp/alt.es.docx"
entry "$tmp/alt.es.docx" word/document.xml >"$tmp/got"
sed -i 's/^.*<w:body>/<w:body>/' "$tmp/got"
expect_text "Word, alternative text and tooltips: translated" "$tmp/got" \
  '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[át Lóók píçtúré. thís ~~~~~~~]</w:t></w:r><w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="[réd Á blúé &amp; &quot;bóát&quot; ~~~~~~]" title="[phótó Bóát ~~~]"/><a:graphic><a:graphicData uri="x"/></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="[réd Á blúé &amp; &quot;bóát&quot; ~~~~~~]" title="[phótó Bóát ~~~]"/><a:graphic><a:graphicData uri="x"/></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[</w:t></w:r><w:hyperlink r:id="rId9" w:tooltip="[thé Ópéñs síté ~~~~~]"><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>síté Thé</w:t></w:r></w:hyperlink><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> héré. ís ~~~~~~]</w:t></w:r></w:p><w:p><w:del w:id="1" w:author="A"><w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="A red &amp; blue &quot;boat&quot;" title="Old photo"/><a:graphic><a:graphicData uri="x"/></a:graphic></wp:inline></w:drawing></w:r></w:del><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[Képt. ~~]</w:t></w:r></w:p></w:body></w:document>'

# extract lists the values; merge puts a translator's targets back
within "Word, alternative text: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/alt.docx" -o "$tmp/alt.xlf"
grep -c '<source>Boat photo</source>' "$tmp/alt.xlf" >"$tmp/got"
expect_text "Word, alternative text: two units of the title" "$tmp/got" 2
"$py" - "$tmp/alt.xlf" "$tmp/alt.t.xlf" <<'EOD' || exit 99
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('source-language="en"', 'source-language="en" target-language="es"')
s = re.sub(r"<source>([^<]*)</source>",
           lambda m: m.group(0) + "<target>ES " + m.group(1) + "</target>", s)
open(sys.argv[2], "w", encoding="utf-8").write(s)
EOD
"$x" merge -q "$tmp/alt.docx" "$tmp/alt.t.xlf" -o "$tmp/alt.m.docx" \
  2>/dev/null
opens "$tmp/alt.m.docx"
entry "$tmp/alt.m.docx" word/document.xml |
  grep -o 'descr="[^"]*"\|title="[^"]*"\|tooltip="[^"]*"' >"$tmp/got"
expect_text "Word, alternative text: merged" "$tmp/got" \
  'descr="ES A red &amp; blue &quot;boat&quot;"
title="ES Boat photo"
descr="ES A red &amp; blue &quot;boat&quot;"
title="ES Boat photo"
tooltip="ES Opens the site"
descr="A red &amp; blue &quot;boat&quot;"
title="Old photo"'

# --- Core properties.
word "$tmp/core.docx" '<w:p><w:r><w:t>Body text.</w:t></w:r></w:p>' \
  '<dc:title>The annual report</dc:title><dc:subject>Money &amp; time</dc:subject><dc:creator>Ann Smith</dc:creator><dc:description>A long year</dc:description>'
within "Word, core properties" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/core.docx" -o "$tmp/core.es.docx"
opens "$tmp/core.es.docx"
entry "$tmp/core.es.docx" docProps/core.xml >"$tmp/got"
expect_text "Word, core properties: translated" "$tmp/got" \
  '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>[áññúál Thé répórt ~~~~~~]</dc:title><dc:subject>[&amp; Móñéý tímé ~~~~]</dc:subject><dc:creator>Ann Smith</dc:creator><dc:description>[lóñg Á ýéár ~~~~]</dc:description></cp:coreProperties>'
if "$py" -c 'import docx' 2>/dev/null; then
  "$py" -c 'import sys, docx
print(docx.Document(sys.argv[1]).core_properties.title)' \
    "$tmp/core.es.docx" >"$tmp/got"
  expect_text "Word, core properties: python3-docx reads the title" \
    "$tmp/got" '[áññúál Thé répórt ~~~~~~]'
fi

finish
