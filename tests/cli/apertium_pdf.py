#!/usr/bin/python3
"""apertium_pdf.py -- for test_cli_office_apertium_pdf.sh.

  apertium_pdf.py make OUT.docx   a report of three pages made with
                                  python3-docx: a title, headings, bold,
                                  italic and bold phrases, two links, a
                                  table, a footnote (python3-docx writes
                                  none: the part is added by hand)
  apertium_pdf.py spans FILE      the formatted spans of a .docx (read
                                  with python3-docx) or an .odt, one a
                                  line: "KIND<TAB>TEXT", KIND bold,
                                  italic or link, in document order;
                                  runs side by side with the same
                                  formatting make one span
  apertium_pdf.py bold FILE.docx  the bold phrases of the source, one a
                                  line (the text Apertium is given alone)
"""
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"

# Each paragraph: a list of (text, kind), kind "" (plain), "b" (bold),
# "i" (italic) or "a URL" (a link). Plain English Apertium knows well.
PAGES = [
    ("Annual report of the city library", [
        [("The city library opened ", ""), ("three new reading rooms", "b"),
         (" this year, and more children visited it every week.", "")],
        [("Our staff organised ", ""), ("free English classes", "b"),
         (" for adults, and the ", ""), ("music collection", "i"),
         (" grew by a third.", "")],
        [("The full programme is on ", ""),
         ("the library website", "a https://example.org/library"),
         (". Visitors can also write to the director.", "")],
    ]),
    ("Budget and staff", [
        [("The budget stayed at the same level as last year. ", ""),
         ("Public money", "b"), (" paid for most of the new books.", "")],
        [("The table below shows the number of visitors in each "
          "season.", "")],
    ]),
    ("Plans for next year", [
        [("Next year we want to open ", ""), ("a small cinema", "b"),
         (" and a garden for readers.", "")],
        [("The council will decide in the spring. Read ", ""),
         ("the council decision", "a https://example.org/council"),
         (" when it is published.", "")],
    ]),
]
TABLE = [("Season", "Visitors"), ("Spring", "12000"), ("Summer", "9000"),
         ("Autumn", "15000"), ("Winter", "11000")]
FOOTNOTE = "The figures come from the counters at the main door."


def make(out):
    import docx
    from docx.enum.text import WD_BREAK
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    doc = docx.Document()
    doc.add_heading("The city library in numbers", 0)
    for page, (heading, paras) in enumerate(PAGES):
        doc.add_heading(heading, 1)
        for para in paras:
            p = doc.add_paragraph()
            for text, kind in para:
                if kind.startswith("a "):
                    rid = p.part.relate_to(kind[2:], RT.HYPERLINK,
                                           is_external=True)
                    link = OxmlElement("w:hyperlink")
                    link.set(qn("r:id"), rid)
                    run = p.add_run(text)
                    run.font.underline = True
                    link.append(run._r)
                    p._p.append(link)
                    continue
                run = p.add_run(text)
                run.bold = kind == "b" or None
                run.italic = kind == "i" or None
        if page == 1:
            table = doc.add_table(rows=len(TABLE), cols=2)
            table.style = "Table Grid"
            for r, row in enumerate(TABLE):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
            p = doc.add_paragraph("Autumn was the busiest season.")
            ref = OxmlElement("w:r")
            fref = OxmlElement("w:footnoteReference")
            fref.set(qn("w:id"), "1")
            props = OxmlElement("w:rPr")
            va = OxmlElement("w:vertAlign")
            va.set(qn("w:val"), "superscript")
            props.append(va)
            ref.append(props)
            ref.append(fref)
            p._p.append(ref)
        if page < len(PAGES) - 1:
            doc.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    notes = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
             '<w:footnotes xmlns:w="%s">'
             '<w:footnote w:type="separator" w:id="-1"><w:p><w:r>'
             '<w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:type="continuationSeparator" w:id="0"><w:p>'
             '<w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="1"><w:p><w:r><w:rPr><w:vertAlign '
             'w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r>'
             '<w:t xml:space="preserve"> %s</w:t></w:r></w:p></w:footnote>'
             '</w:footnotes>' % (W, FOOTNOTE)).encode("utf-8")
    part = Part(PackURI("/word/footnotes.xml"),
                "application/vnd.openxmlformats-officedocument."
                "wordprocessingml.footnotes+xml", notes, doc.part.package)
    doc.part.relate_to(part, RT.FOOTNOTES)
    doc.save(out)


def on(props, name):
    """True when the w:rPr props turn w:NAME on."""
    if props is None:
        return False
    el = props.find("{%s}%s" % (W, name))
    return el is not None and el.get("{%s}val" % W) not in ("0", "false")


def docx_runs(path):
    """(text, kinds) of each run of each paragraph, a None between
    paragraphs; the document (opened by python3-docx) then footnotes."""
    import docx
    body = docx.Document(path).element.body
    trees = [body]
    with zipfile.ZipFile(path) as z:
        if "word/footnotes.xml" in z.namelist():
            trees.append(ET.fromstring(z.read("word/footnotes.xml")))
    for tree in trees:
        for p in tree.iter("{%s}p" % W):
            for link_or_run in p:
                tag = link_or_run.tag.rsplit("}", 1)[-1]
                runs = [link_or_run] if tag == "r" else list(
                    link_or_run.iter("{%s}r" % W))
                for r in runs:
                    text = "".join(t.text or "" for t in r.iter(
                        "{%s}t" % W))
                    props = r.find("{%s}rPr" % W)
                    kinds = set()
                    if on(props, "b"):
                        kinds.add("bold")
                    if on(props, "i"):
                        kinds.add("italic")
                    if tag == "hyperlink":
                        kinds.add("link")
                    yield text, kinds
            yield None


def odt_runs(path):
    """The same for an .odt's content.xml: bold and italic from the
    styles (automatic ones and their parents), links from text:a."""
    with zipfile.ZipFile(path) as z:
        content = ET.fromstring(z.read("content.xml"))
        styles = ET.fromstring(z.read("styles.xml"))
    props = {}
    parent = {}
    for tree in (styles, content):
        for st in tree.iter("{%s}style" % STYLE):
            name = st.get("{%s}name" % STYLE)
            parent[name] = st.get("{%s}parent-style-name" % STYLE)
            tp = st.find("{%s}text-properties" % STYLE)
            kinds = {}
            if tp is not None:
                w = tp.get("{%s}font-weight" % FO)
                if w is not None:
                    kinds["bold"] = w == "bold"
                s = tp.get("{%s}font-style" % FO)
                if s is not None:
                    kinds["italic"] = s == "italic"
            props[name] = kinds

    def style_kinds(name):
        kinds = {}
        while name is not None and name in props:
            for k, v in props[name].items():
                kinds.setdefault(k, v)
            name = parent.get(name)
        return {k for k, v in kinds.items() if v}

    def walk(el, kinds):
        if el.text:
            yield el.text, kinds
        for child in el:
            tag = child.tag.rsplit("}", 1)[-1]
            inner = kinds
            if tag == "span":
                inner = kinds | style_kinds(child.get("{%s}style-name" %
                                                      TEXT))
            elif tag == "a":
                inner = kinds | {"link"}
            elif tag == "s":
                yield " " * int(child.get("{%s}c" % TEXT, "1")), kinds
            elif tag == "note-citation":
                inner = None
            if inner is not None and tag not in ("s", "p", "h"):
                yield from walk(child, inner)
            if child.tail:
                yield child.tail, kinds

    body = content.find("{%s}body" % OFFICE)
    for p in body.iter():
        if p.tag not in ("{%s}p" % TEXT, "{%s}h" % TEXT):
            continue
        # A paragraph's own style (a heading's bold) is not a span.
        yield from walk(p, set())
        yield None


def spans(path):
    """KIND, TEXT of each span: side by side runs of a kind joined."""
    runs = odt_runs(path) if path.endswith(".odt") else docx_runs(path)
    out = []
    open_ = {}
    for run in list(runs) + [None]:
        kinds = set() if run is None else run[1]
        text = "" if run is None else run[0]
        if run is not None and text.strip() == "" and open_:
            # Spaces between two runs of a span do not end it.
            for k in open_:
                open_[k] += text
            continue
        for k in [k for k in open_ if k not in kinds]:
            out.append((k, open_.pop(k)))
        for k in sorted(kinds):
            open_[k] = open_.get(k, "") + text
    return [(k, re.sub(r"\s+", " ", t).strip()) for k, t in out
            if t.strip()]


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "make":
        make(path)
    elif cmd == "spans":
        for kind, text in spans(path):
            print("%s\t%s" % (kind, text))
    elif cmd == "bold":
        for kind, text in spans(path):
            if kind == "bold":
                print(text)
    else:
        sys.exit("apertium_pdf.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
