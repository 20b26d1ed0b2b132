#!/usr/bin/env python3
"""word_docx.py -- for test_cli_word.sh, with python3's zipfile alone.

  word_docx.py make OUT.docx   a small Word document: run soup (runs split
                               by rsids, proofing marks, a language),
                               bold, a hyperlink, a tab, a field, a
                               bookmark, a table, an empty paragraph
  word_docx.py make OUT.docx doctype|broken|prefix|lookalike|relsdoctype|relsbroken
                               the same, its document.xml with a doctype,
                               cut short (not well-formed), its
                               WordprocessingML prefix wx: rather than w:,
                               or with a paragraph of that namespace by
                               default and one of a namespace whose URI
                               only starts with it;
                               or its word/_rels/document.xml.rels with a
                               doctype, or cut short
  word_docx.py parts OUT.docx  a document with a header, a footer, footnotes
                               (and their separators), endnotes, comments,
                               a text box in mc:AlternateContent (Choice
                               and Fallback), tracked changes, hidden
                               text, a content control and a smart tag
  word_docx.py parts OUT.docx vanish
                               the same, its hidden run shown
                               (w:vanish w:val="off"), and a paragraph
                               with a run hidden by w:val="on"
  word_docx.py codes OUT.docx  a document of codes: fields (complex, with
                               and without a result, simple), an empty
                               bookmark (_GoBack), codes at a paragraph's
                               edges, a link around a paragraph, a link
                               whose run has formatting
  word_docx.py notword OUT     a zip that is not Word
  word_docx.py paras IN.docx [PART]
                               each paragraph's text (its w:t joined), one
                               a line, then the counts of codes; of PART
                               (word/document.xml)
  word_docx.py texts IN.docx PART
                               each w:p of PART with text (in text boxes
                               too, each its own), one a line: its own
                               w:t joined
  word_docx.py same A B [PART...]
                               the entries of A other than
                               word/document.xml and the PARTs byte for
                               byte in B, the same names in the same order
"""
import re
import sys
import zipfile

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
BODY = (
    '<w:p w:rsidR="00A1"><w:pPr><w:pStyle w:val="Title"/></w:pPr>'
    '<w:r w:rsidR="00A1"><w:t>Hello </w:t></w:r><w:proofErr w:type="spellStart"/>'
    '<w:r w:rsidR="00B2"><w:rPr><w:lang w:val="en-GB"/></w:rPr><w:t>wide</w:t></w:r>'
    '<w:proofErr w:type="spellEnd"/><w:r w:rsidR="00C3"><w:t xml:space="preserve"> world</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Press </w:t></w:r>'
    '<w:r><w:rPr><w:b/></w:rPr><w:t>Save</w:t></w:r><w:r><w:t xml:space="preserve"> now and wait.</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="rId9">'
    '<w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>the site</w:t></w:r></w:hyperlink>'
    '<w:r><w:t xml:space="preserve"> for more.</w:t></w:r></w:p>'
    '<w:p><w:bookmarkStart w:id="0" w:name="top"/><w:r><w:t>Name</w:t></w:r><w:r><w:tab/></w:r>'
    '<w:r><w:t>Value</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
    '<w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
    '<w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">   </w:t></w:r></w:p><w:p/>'
    '<w:p><w:r><w:t xml:space="preserve">Say </w:t></w:r><w:r><w:rPr><w:i/>'
    '<w:lang w:val="en-US" w:eastAsia="ja-JP"/></w:rPr><w:t>hi</w:t></w:r></w:p>'
    '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>In a cell &amp; more</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'
    '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>')
PARTS = [
    ('[Content_Types].xml',
     '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
     '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
     '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
     '<Default Extension="xml" ContentType="application/xml"/>'
     '<Override PartName="/word/document.xml" ContentType="application/'
     'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    ('_rels/.rels',
     '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
     '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
     '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
     'relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    ('word/document.xml',
     '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
     '<w:document %s %s><w:body>%s</w:body></w:document>' % (W, R, BODY)),
    ('word/_rels/document.xml.rels',
     '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
     '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
     '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
     'relationships/hyperlink" Target="https://example.org/" TargetMode="External"/>'
     '</Relationships>'),
]

FLD = '<w:r><w:fldChar w:fldCharType="%s"/></w:r>'
INSTR = '<w:r><w:instrText xml:space="preserve"> %s </w:instrText></w:r>'
CODES_BODY = (
    '<w:p><w:r><w:t xml:space="preserve">Total: </w:t></w:r>' + FLD % 'begin' +
    INSTR % 'NUMPAGES' + FLD % 'separate' + '<w:r><w:t>3</w:t></w:r>' + FLD % 'end' +
    '<w:r><w:t xml:space="preserve"> pages</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Date </w:t></w:r><w:fldSimple w:instr=" DATE ">'
    '<w:r><w:rPr><w:i/></w:rPr><w:t>today</w:t></w:r></w:fldSimple>'
    '<w:r><w:t xml:space="preserve"> here</w:t></w:r></w:p>'
    '<w:p><w:r><w:t>Before</w:t></w:r>' + FLD % 'begin' + INSTR % 'RD "x.docx"' + FLD % 'end' +
    '<w:r><w:t>after</w:t></w:r></w:p>'
    '<w:p><w:r><w:t>Go</w:t></w:r><w:bookmarkStart w:id="1" w:name="_GoBack"/>'
    '<w:bookmarkEnd w:id="1"/><w:r><w:t>back</w:t></w:r></w:p>'
    '<w:p><w:bookmarkStart w:id="2" w:name="a"/><w:r><w:tab/></w:r><w:r><w:t>Start</w:t></w:r>'
    '<w:r><w:br/></w:r><w:r><w:t>End</w:t></w:r><w:bookmarkEnd w:id="2"/></w:p>'
    '<w:p><w:hyperlink r:id="rId9"><w:r><w:t>Whole link</w:t></w:r></w:hyperlink></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="rId9">'
    '<w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>the site</w:t></w:r></w:hyperlink>'
    '<w:r><w:t xml:space="preserve"> now.</w:t></w:r></w:p>'
    '<w:p>' + FLD % 'begin' + INSTR % 'REF intro \\h' + FLD % 'separate' +
    '<w:r><w:t>Introduction</w:t></w:r>' + FLD % 'end' + '</w:p>'
    '<w:p><w:hyperlink r:id="rId9"><w:r><w:rPr><w:b/></w:rPr><w:t>Bold</w:t></w:r>'
    '<w:r><w:t xml:space="preserve"> link</w:t></w:r></w:hyperlink>'
    '<w:r><w:t xml:space="preserve"> and more</w:t></w:r></w:p>')

RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">%s'
        '</Relationships>')
REL = ('<Relationship Id="%s" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
       'relationships/%s" Target="%s"/>')
MC = ('xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
      'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:v="urn:schemas-microsoft-com:vml" mc:Ignorable="wps"')
BOX = '<w:txbxContent><w:p><w:r><w:t>Boxed text</w:t></w:r></w:p></w:txbxContent>'
PARTS_BODY = (
    '<w:p><w:r><w:t xml:space="preserve">See note</w:t></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/>'
    '</w:rPr><w:footnoteReference w:id="1"/></w:r><w:commentRangeStart w:id="0"/>'
    '<w:r><w:t xml:space="preserve"> here.</w:t></w:r><w:commentRangeEnd w:id="0"/>'
    '<w:r><w:commentReference w:id="0"/></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Shape </w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps">'
    '<w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>' + BOX +
    '</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>'
    '<mc:Fallback><w:pict><v:shape><v:textbox>' + BOX +
    '</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>'
    '<w:r><w:t xml:space="preserve"> here</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Old </w:t></w:r><w:del w:id="5" w:author="A"><w:r>'
    '<w:delText>gone</w:delText></w:r></w:del><w:ins w:id="6" w:author="A"><w:r><w:t>new</w:t></w:r>'
    '</w:ins><w:r><w:t xml:space="preserve"> text</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr>'
    '<w:t>secret</w:t></w:r></w:p>'
    '<w:p><w:r><w:t xml:space="preserve">Pick </w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="Choice"/>'
    '</w:sdtPr><w:sdtContent><w:r><w:t>one item</w:t></w:r></w:sdtContent></w:sdt>'
    '<w:r><w:t xml:space="preserve"> in </w:t></w:r><w:smartTag w:uri="urn:x" w:element="place">'
    '<w:smartTagPr><w:attr w:name="n" w:val="v"/></w:smartTagPr><w:r><w:t>Paris</w:t></w:r></w:smartTag></w:p>'
    '<w:sectPr><w:headerReference w:type="default" r:id="rId2"/>'
    '<w:footerReference w:type="default" r:id="rId3"/></w:sectPr>')
NOTE = ('<w:%(k)s w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:%(k)s>'
        '<w:%(k)s w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/>'
        '</w:r></w:p></w:%(k)s><w:%(k)s w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="%(s)s"/></w:rPr>'
        '<w:%(k)sRef/></w:r><w:r><w:t xml:space="preserve"> %(t)s</w:t></w:r></w:p></w:%(k)s>')
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def parts_doc():
    ct = PARTS[0][1].replace('</Types>', ''.join(
        '<Override PartName="/word/%s.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.wordprocessingml.%s+xml"/>' % n
        for n in (('header1', 'header'), ('footer1', 'footer'),
                  ('footnotes', 'footnotes'), ('endnotes', 'endnotes'),
                  ('comments', 'comments'))) + '</Types>')
    rels = RELS % ''.join(REL % r for r in (
        ('rId2', 'header', 'header1.xml'), ('rId3', 'footer', '/word/footer1.xml'),
        ('rId4', 'footnotes', 'footnotes.xml'), ('rId5', 'endnotes', './endnotes.xml'),
        ('rId6', 'comments', 'comments.xml'), ('rId7', 'styles', 'styles.xml')))
    return [
        ('[Content_Types].xml', ct), PARTS[1],
        ('word/document.xml', HEAD + '<w:document %s %s %s><w:body>%s</w:body></w:document>'
         % (W, R, MC, PARTS_BODY)),
        ('word/_rels/document.xml.rels', rels),
        ('word/header1.xml', HEAD + '<w:hdr %s><w:p><w:r><w:t>Annual report</w:t></w:r></w:p></w:hdr>' % W),
        ('word/footer1.xml', HEAD + '<w:ftr %s><w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r>'
         '<w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p></w:ftr>' % W),
        ('word/footnotes.xml', HEAD + '<w:footnotes %s>%s</w:footnotes>'
         % (W, NOTE % {'k': 'footnote', 's': 'FootnoteReference', 't': 'A note.'})),
        ('word/endnotes.xml', HEAD + '<w:endnotes %s>%s</w:endnotes>'
         % (W, NOTE % {'k': 'endnote', 's': 'EndnoteReference', 't': 'An end.'})),
        ('word/comments.xml', HEAD + '<w:comments %s><w:comment w:id="0" w:author="A">'
         '<w:p><w:r><w:annotationRef/></w:r><w:r><w:t>Check this</w:t></w:r></w:p>'
         '</w:comment></w:comments>' % W),
        ('word/styles.xml', HEAD + '<w:styles %s><w:p><w:r><w:t>Not text</w:t></w:r></w:p></w:styles>' % W),
    ]


def write(path, parts):
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        for name, data in parts:
            info = zipfile.ZipInfo(name, (2020, 1, 2, 3, 4, 6))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def paras(path, part='word/document.xml'):
    doc = zipfile.ZipFile(path).read(part).decode('utf-8')
    for p in re.findall(r'<w:p[ >].*?</w:p>', doc, re.S):
        print(''.join(re.findall(r'<w:t(?: [^>]*)?>([^<]*)</w:t>', p)))
    for name, pat in (('bold', r'<w:b/>'), ('hyperlink', r'<w:hyperlink '),
                      ('tab', r'<w:tab/>'), ('bookmark', r'<w:bookmark'),
                      ('fldChar', r'<w:fldChar '), ('instrText', r'<w:instrText'),
                      ('lang es', r'<w:lang w:val="es"/>')):
        print('%s %d' % (name, len(re.findall(pat, doc))))


def texts(path, part):
    import xml.etree.ElementTree as ET
    ns = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'

    def own(p):
        for c in p:
            if c.tag == ns + 'p':
                continue
            if c.tag == ns + 't':
                yield c.text or ''
            else:
                yield from own(c)
    root = ET.fromstring(zipfile.ZipFile(path).read(part))
    for p in root.iter(ns + 'p'):
        t = ''.join(own(p))
        if t.strip():
            print(t)


def same(a, b, skip=()):
    za, zb = zipfile.ZipFile(a), zipfile.ZipFile(b)
    if za.namelist() != zb.namelist():
        print('names differ: %s / %s' % (za.namelist(), zb.namelist()))
        return 1
    # the core properties hold the title, translated as the text is
    bad = [n for n in za.namelist()
           if n not in ('word/document.xml', 'docProps/core.xml')
           and n not in skip and za.read(n) != zb.read(n)]
    for n in bad:
        print('differs: ' + n)
    return 1 if bad else 0


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'make':
        parts = list(PARTS)
        how = sys.argv[3] if len(sys.argv) > 3 else ''
        name, doc = parts[2]
        if how == 'doctype':
            doc = doc.replace('?>\n', '?>\n<!DOCTYPE w:document [<!ENTITY e "x">]>\n')
        elif how == 'prefix':  # the same namespace under another prefix
            doc = doc.replace('w:', 'wx:').replace('xmlns:w=', 'xmlns:wx=')
        elif how == 'broken':
            doc = doc[:doc.index('<w:tbl>')]
        elif how == 'lookalike':  # a paragraph of W's namespace by default,
            # one of a namespace whose URI only starts with W's
            doc = doc.replace('<w:tbl>', '<p xmlns="http://schemas.openxmlformats'
                              '.org/wordprocessingml/2006/main"><r><t>Default '
                              'namespace</t></r></p><v:p xmlns:v="http://schemas'
                              '.openxmlformats.org/wordprocessingml/2006/main2">'
                              '<v:r><v:t>Not Word</v:t></v:r></v:p><w:tbl>', 1)
        parts[2] = (name, doc)
        name, rels = parts[3]
        if how == 'relsdoctype':
            rels = rels.replace('?>\n', '?>\n<!DOCTYPE Relationships>\n')
        elif how == 'relsbroken':
            rels = rels[:rels.index('</Relationships>')]
        parts[3] = (name, rels)
        write(sys.argv[2], parts)
    elif cmd == 'parts':
        parts = parts_doc()
        if sys.argv[3:] == ['vanish']:
            name, doc = parts[2]
            doc = doc.replace('<w:vanish/></w:rPr><w:t>secret',
                              '<w:vanish w:val="off"/></w:rPr><w:t>shown')
            doc = doc.replace('<w:sectPr>', '<w:p><w:r><w:rPr><w:vanish w:val="on"/>'
                              '</w:rPr><w:t>gone</w:t></w:r><w:r><w:t>kept</w:t></w:r></w:p><w:sectPr>')
            parts[2] = (name, doc)
        write(sys.argv[2], parts)
    elif cmd == 'codes':
        parts = list(PARTS)
        parts[2] = (parts[2][0], parts[2][1].replace(BODY, CODES_BODY))
        write(sys.argv[2], parts)
    elif cmd == 'notword':
        write(sys.argv[2], [('readme.txt', 'not a document\n'),
                            ('data/a.xml', '<a/>')])
    elif cmd == 'paras':
        paras(*sys.argv[2:4])
    elif cmd == 'texts':
        texts(sys.argv[2], sys.argv[3])
    elif cmd == 'same':
        sys.exit(same(sys.argv[2], sys.argv[3], sys.argv[4:]))
