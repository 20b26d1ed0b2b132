# office_lib.sh: the Word, OpenDocument and LibreOffice helpers of the
# hostile tests that build their documents from XML (rounds 12, 15, 18,
# 22, 25).
# Sourced after lib.sh and cli_setup; uses $x (xliffmt) and $tmp.

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# word OUT BODY [PART XML]...: a Word document whose w:body holds BODY,
# with each PART (comments, footnotes...) as word/PART.xml of XML, named
# in the content types and the document's relationships.
word() {
  "$py" - "$@" <<'EOD' || exit 99
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
NS = ('xmlns:w="%s" xmlns:r="%s" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
      'wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
      'xmlns:v="urn:schemas-microsoft-com:vml" '
      'xmlns:o="urn:schemas-microsoft-com:office:office"' % (W, O))
parts = list(zip(sys.argv[3::2], sys.argv[4::2]))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Override PartName="/word/document.xml" '
               'ContentType="%sdocument.main+xml"/>' % (P, CT)
               + "".join('<Override PartName="/word/%s.xml" '
                         'ContentType="%s%s+xml"/>' % (n, CT, n)
                         for n, _ in parts) + "</Types>")
    z.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="word/document.xml"'
               '/></Relationships>' % (P, O))
    if parts:
        z.writestr("word/_rels/document.xml.rels",
                   '<Relationships xmlns="%srelationships">' % P
                   + "".join('<Relationship Id="rIdP%d" Type="%s/%s" '
                             'Target="%s.xml"/>' % (i, O, n, n)
                             for i, (n, _) in enumerate(parts))
                   + "</Relationships>")
    z.writestr("word/document.xml",
               '<w:document %s><w:body>%s</w:body></w:document>'
               % (NS, sys.argv[2]))
    for n, xml in parts:
        z.writestr("word/%s.xml" % n, xml)
EOD
}
# body DOCX: its word/document.xml from w:body on.
body() {
  "$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
print(s[s.index("<w:body>"):])' "$1"
}
# opens DOCX: the zip sound, python3-docx loads it (when it is there).
opens() {
  unzip -tq "$1" >/dev/null 2>&1 || { fail "$1: unzip -t"; return; }
  if "$py" -c 'import docx' 2>/dev/null; then
    "$py" -c 'import sys, docx; docx.Document(sys.argv[1])' "$1" \
      >/dev/null 2>&1 || fail "$1: python3-docx does not load it"
  fi
}
# odt OUT TEXT: an OpenDocument text whose office:text holds TEXT.
odt() {
  "$py" - "$1" "$2" <<'EOD' || exit 99
import sys, zipfile
O = "urn:oasis:names:tc:opendocument:xmlns:"
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr(zipfile.ZipInfo("mimetype"),
               "application/vnd.oasis.opendocument.text", zipfile.ZIP_STORED)
    z.writestr("content.xml",
               '<office:document-content xmlns:office="%soffice:1.0" '
               'xmlns:text="%stext:1.0" xmlns:draw="%sdrawing:1.0" '
               'xmlns:svg="%ssvg-compatible:1.0" office:version="1.3">'
               "<office:body><office:text>%s</office:text></office:body>"
               "</office:document-content>" % (O, O, O, O, sys.argv[2]))
    z.writestr("META-INF/manifest.xml",
               '<manifest:manifest xmlns:manifest="%smanifest:1.0" '
               'manifest:version="1.3"><manifest:file-entry '
               'manifest:full-path="/" manifest:media-type="application/'
               'vnd.oasis.opendocument.text"/><manifest:file-entry '
               'manifest:full-path="content.xml" manifest:media-type='
               '"text/xml"/></manifest:manifest>' % O)
EOD
}
# content ODT: its content.xml's office:text.
content() {
  "$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("content.xml").decode()
print(s[s.index("<office:text>"):s.index("</office:text>")])' "$1"
}
# merged IN XLF OUT: XLF's units given the target "ES " and their
# source's text, merged into IN as OUT.
merged() {
  "$py" - "$2" "$2.t" <<'EOD' || exit 99
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('source-language="en"', 'source-language="en" target-language="es"')
s = re.sub(r"<source>(.*?)</source>",
           lambda m: m.group(0) + "<target>ES " + m.group(1) + "</target>", s,
           flags=re.S)
open(sys.argv[2], "w", encoding="utf-8").write(s)
EOD
  "$x" merge -q "$1" "$2.t" -o "$3" 2>/dev/null || fail "merge $1"
}

# shown DOC: the text LibreOffice shows of DOC (converted to text) in
# $tmp/shown; 1 when soffice is not there.
shown() {
  command -v soffice >/dev/null 2>&1 || return 1
  rm -rf "$tmp/txt"
  timeout -s KILL 120 soffice "-env:UserInstallation=file://$tmp/lo" \
    --headless --convert-to txt --outdir "$tmp/txt" "$1" >/dev/null 2>&1
  f=${1##*/}
  sed '1s/^\xef\xbb\xbf//; s/\r$//' "$tmp/txt/${f%.*}.txt" \
    >"$tmp/shown" 2>/dev/null
  return 0
}
