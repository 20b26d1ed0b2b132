#!/usr/bin/env python3
"""odt_odt.py -- for test_cli_odt.sh, with python3's zipfile alone.

  odt_odt.py make OUT.odt [KIND]  a small OpenDocument text: spans that
                               differ only by revision ids or language,
                               bold, a link, text:s, a tab, a line break,
                               a bookmark, a footnote, a table, a list, a
                               frame's text box, an annotation, an empty
                               paragraph; a header in styles.xml. KIND: broken (content.xml cut
                               short), doctype (a doctype in it), deep
                               (spans 40 deep), nocontent (no content.xml),
                               template (.ott's mimetype), alt (a picture
                               with a title and a description, and a
                               title, subject, description and keyword in
                               meta.xml), lang (automatic styles that say
                               a language: with text-properties, without,
                               empty, used by deleted text too)
  odt_odt.py notodt OUT        a zip whose mimetype is not a text's
  odt_odt.py units IN.xlf      each trans-unit's source of an XLIFF that
                               odf2xliff wrote: its text, then its codes
                               counted ("| g=N x=N")
  odt_odt.py same A B          the entries of A other than content.xml,
                               styles.xml and meta.xml byte for byte in B, in the same
                               order, B's mimetype first and stored
  odt_odt.py styles IN.odt     the fo:language and fo:country of the
                               default paragraph style of styles.xml
"""
import re
import sys
import zipfile

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
      'xmlns:xlink="http://www.w3.org/1999/xlink" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
      'xmlns:officeooo="http://openoffice.org/2009/office" '
      'office:version="1.2"')
AUTO = (
    '<office:automatic-styles>'
    '<style:style style:name="T1" style:family="text"><style:text-properties '
    'officeooo:rsid="0001"/></style:style>'
    '<style:style style:name="T2" style:family="text"><style:text-properties '
    'officeooo:rsid="0002" fo:language="en" fo:country="GB"/></style:style>'
    '<style:style style:name="T3" style:family="text"><style:text-properties '
    'fo:font-weight="bold" officeooo:rsid="0003"/></style:style>'
    '<style:style style:name="T4" style:family="text"><style:text-properties '
    'fo:font-weight="bold" officeooo:rsid="0004"/></style:style>'
    '<style:style style:name="T5" style:family="text"><style:text-properties '
    'fo:font-style="italic"/></style:style>'
    '</office:automatic-styles>')
BODY = (
    '<text:h text:style-name="Heading_20_1" text:outline-level="1">Soup '
    '<text:span text:style-name="T1">of </text:span><text:span '
    'text:style-name="T2">spans</text:span></text:h>'
    '<text:p text:style-name="P1">Press <text:span text:style-name="T3">Save'
    '</text:span><text:span text:style-name="T4"> now</text:span> and '
    '<text:a xlink:type="simple" xlink:href="http://example.com/">see the '
    '<text:span text:style-name="T5">site</text:span></text:a>.</text:p>'
    '<text:p>Two<text:s text:c="2"/>spaces,<text:tab/>a tab,<text:line-break/>'
    'a break<text:bookmark text:name="b1"/> &amp; a mark.</text:p>'
    '<text:p>Noted<text:note text:id="ftn1" text:note-class="footnote">'
    '<text:note-citation>1</text:note-citation><text:note-body>'
    '<text:p>The note text.</text:p></text:note-body></text:note> here.'
    '</text:p>'
    '<table:table table:name="T"><table:table-column/><table:table-row>'
    '<table:table-cell><text:p>A cell</text:p></table:table-cell>'
    '</table:table-row></table:table>'
    '<text:list><text:list-item><text:p>An item</text:p></text:list-item>'
    '</text:list>'
    '<text:p>See<draw:frame draw:name="F1" svg:width="2cm"><draw:text-box>'
    '<text:p>Boxed words</text:p></draw:text-box></draw:frame> the box.</text:p>'
    '<text:p>Said<office:annotation><dc:creator>Ann</dc:creator><text:p>'
    'A comment here</text:p></office:annotation> twice.</text:p>'
    '<text:p/><text:p>   </text:p>')
STYLES = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles '
          + NS + '>' + AUTO + '<office:styles><style:default-style style:family='
          '"paragraph"><style:text-properties fo:font-size="12pt" '
          'fo:language="en" fo:country="US"/></style:default-style>'
          '</office:styles><office:master-styles><style:master-page '
          'style:name="Standard"><style:header><text:p>Page <text:span '
          'text:style-name="T1">head</text:span></text:p></style:header>'
          '</style:master-page></office:master-styles>'
          '</office:document-styles>')
MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"'
            ' manifest:version="1.2"><manifest:file-entry manifest:full-path="/"'
            ' manifest:media-type="application/vnd.oasis.opendocument.text"/>'
            '</manifest:manifest>')
META = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta '
        + NS + '><office:meta/></office:document-meta>')
META_ALT = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta '
            + NS + ' xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0">'
            '<office:meta><meta:generator>Hand</meta:generator><dc:title>Annual '
            'report</dc:title><dc:subject>Sales</dc:subject><dc:description>'
            'Figures of the year.</dc:description><meta:keyword>sales'
            '</meta:keyword><dc:language>en-US</dc:language></office:meta>'
            '</office:document-meta>')
TEXT = 'application/vnd.oasis.opendocument.text'
# automatic styles that say a language (P1, T1), say none (P2, an empty
# P3), and that deleted text (a tracked change's), not translated, uses
# too (T2, P4)
LANG_AUTO = (
    '<office:automatic-styles>'
    '<style:style style:name="P1" style:family="paragraph"><style:text-properties '
    'fo:language="en" fo:country="US" style:language-asian="zh" '
    'style:country-asian="CN" style:language-complex="hi" '
    'style:country-complex="IN"/></style:style>'
    '<style:style style:name="P2" style:family="paragraph">'
    '<style:paragraph-properties fo:text-align="center"/></style:style>'
    '<style:style style:name="P3" style:family="paragraph" '
    'style:parent-style-name="Standard"/>'
    '<style:style style:name="P4" style:family="paragraph"><style:text-properties '
    "fo:language='en' fo:country='US'/></style:style>"
    '<style:style style:name="T1" style:family="text"><style:text-properties '
    'fo:font-weight="bold" fo:language="en" fo:country="US" '
    'style:rfc-language-tag="en-US"/></style:style>'
    '<style:style style:name="T2" style:family="text"><style:text-properties '
    'fo:font-style="italic" fo:language="en" fo:country="US"/></style:style>'
    '</office:automatic-styles>')
LANG_BODY = (
    '<text:tracked-changes><text:changed-region text:id="ct1"><text:deletion>'
    '<office:change-info><dc:creator>Ann</dc:creator><dc:date>2024-01-01T00:00'
    ':00</dc:date></office:change-info><text:p text:style-name="P4">A '
    '<text:span text:style-name="T2">note</text:span></text:p></text:deletion>'
    '</text:changed-region></text:tracked-changes>'
    '<text:p text:style-name="P1">Colour <text:span text:style-name="T1">'
    'bold</text:span> and <text:span text:style-name="T2">slanted</text:span>'
    '</text:p><text:p text:style-name="P2">Centred text</text:p>'
    '<text:p text:style-name="P3">Plain text<text:change '
    'text:change-id="ct1"/></text:p>'
    '<text:p text:style-name="P4">Kept style</text:p>')
LANG_STYLES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ' + NS +
    '><office:styles/><office:automatic-styles><style:style style:name="MP1" '
    'style:family="paragraph"><style:text-properties fo:language="en" '
    'fo:country="US"/></style:style></office:automatic-styles>'
    '<office:master-styles><style:master-page style:name="Standard">'
    '<style:header><text:p text:style-name="MP1">Page head</text:p>'
    '</style:header></style:master-page></office:master-styles>'
    '</office:document-styles>')


def content(kind):
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content '
           + NS + '>' + AUTO + '<office:body><office:text>' + BODY +
           '</office:text></office:body></office:document-content>')
    if kind == 'lang':
        xml = xml.replace(AUTO, LANG_AUTO).replace(BODY, LANG_BODY)
    if kind == 'doctype':  # entities could expand without end
        xml = xml.replace('\n', '\n<!DOCTYPE x [<!ENTITY a "aa">]>\n', 1)
    elif kind == 'alt':  # a picture's alternative text
        xml = xml.replace('<text:p/>', '<text:p>A logo<draw:frame draw:name="L">'
                          '<draw:image xlink:href="Pictures/logo.png"/>'
                          '<svg:title>Company logo</svg:title><svg:desc>A blue '
                          'circle &amp; a star.</svg:desc></draw:frame> here.'
                          '</text:p>', 1)
    elif kind == 'deep':  # spans in spans, 40 deep
        xml = xml.replace('<text:p>Two', '<text:p>' + 40 * '<text:span>' +
                          'deep' + 40 * '</text:span>' + 'Two', 1)
    return xml[:900] if kind == 'broken' else xml


def make(out, kind=''):
    mime = TEXT + ('-template' if kind == 'template' else '')
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo('mimetype'), mime,
                   compress_type=zipfile.ZIP_STORED)
        if kind != 'nocontent':
            z.writestr('content.xml', content(kind))
        z.writestr('styles.xml', LANG_STYLES if kind == 'lang' else STYLES)
        z.writestr('meta.xml', META_ALT if kind == 'alt' else META)
        z.writestr('META-INF/manifest.xml', MANIFEST)


def notodt(out):
    with zipfile.ZipFile(out, 'w') as z:
        z.writestr(zipfile.ZipInfo('mimetype'),
                   'application/vnd.oasis.opendocument.spreadsheet')
        z.writestr('content.xml', content(''))


def units(path):
    xml = open(path, encoding='utf-8').read()
    for src in re.findall(r'<source[^>]*>(.*?)</source>', xml, re.S):
        g = len(re.findall(r'<g\b', src))
        x = len(re.findall(r'<(?:x|ph|bx|ex|it|bpt)\b', src))
        text = re.sub(r'<[^>]*>', '', src)
        print('%s | g=%d x=%d' % (text, g, x))


def same(a, b):
    za, zb = zipfile.ZipFile(a), zipfile.ZipFile(b)
    names = [i.filename for i in za.infolist()]
    if names != [i.filename for i in zb.infolist()]:
        sys.exit('entries differ: %s' % [i.filename for i in zb.infolist()])
    first = zb.infolist()[0]
    if first.filename != 'mimetype' or first.compress_type != 0:
        sys.exit('mimetype not first and stored')
    for n in names:
        if n not in ('content.xml', 'styles.xml', 'meta.xml') and za.read(n) != zb.read(n):
            sys.exit('%s differs' % n)


def styles(path):
    xml = zipfile.ZipFile(path).read('styles.xml').decode('utf-8')
    xml = re.search(r'<style:default-style.*?</style:default-style>', xml).group(0)
    print(' '.join(re.findall(r'fo:(?:language|country)="[^"]*"', xml)))


def main():
    cmd = sys.argv[1]
    if cmd == 'make':
        make(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else '')
    elif cmd == 'notodt':
        notodt(sys.argv[2])
    elif cmd == 'units':
        units(sys.argv[2])
    elif cmd == 'same':
        same(sys.argv[2], sys.argv[3])
    elif cmd == 'styles':
        styles(sys.argv[2])
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main()
