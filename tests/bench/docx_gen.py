#!/usr/bin/python3
"""docx_gen.py PAGES OUT.docx [IMAGE_MB] -- a Word report of PAGES pages
(a page break after each), made
with python3-docx (Debian python3-docx), for make bench-docx
(tests/bench/docx.sh) and test_cli_office_open.sh.

Each page: a heading, then paragraphs whose runs are plain, bold, italic,
underlined and bold italic, one with a hyperlink; every third page a
table of four rows by three columns. python3-docx writes no footnotes,
so there are none. The text is made from a fixed word list with a fixed
seed: the same PAGES gives the same document. IMAGE_MB: a picture of
that many megabytes of noise (a PNG that does not compress) on the first
page, an entry that is copied, not rewritten.
"""
import io
import random
import struct
import sys
import zlib

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

WORDS = ("the report shows that our city library opened new rooms for "
         "children and readers on every floor while the budget kept its "
         "level through the year and the staff wrote plans for books "
         "music films and study groups in the spring").split()
PARAS_PER_PAGE = 5


def sentence(rnd, n):
    words = [rnd.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def hyperlink(doc, par, url, text):
    """A w:hyperlink to url around a run of text (python3-docx has none)."""
    rid = doc.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rid)
    run = OxmlElement("w:r")
    props = OxmlElement("w:rPr")
    style = OxmlElement("w:rStyle")
    style.set(qn("w:val"), "Hyperlink")
    props.append(style)
    run.append(props)
    t = OxmlElement("w:t")
    t.text = text
    run.append(t)
    link.append(run)
    par._p.append(link)


def paragraph(doc, rnd, page, k):
    par = doc.add_paragraph()
    par.add_run(sentence(rnd, 12) + " ")
    par.add_run(sentence(rnd, 3)).bold = True
    par.add_run(" " + sentence(rnd, 10) + " ")
    par.add_run(sentence(rnd, 2)).italic = True
    par.add_run(" " + sentence(rnd, 8) + " ")
    par.add_run(sentence(rnd, 2)).underline = True
    both = par.add_run(" " + sentence(rnd, 2))
    both.bold = both.italic = True
    par.add_run(" " + sentence(rnd, 14))
    if k == 1:
        par.add_run(" See ")
        hyperlink(doc, par, "https://example.org/page/%d" % page,
                  "the page online")
        par.add_run(" for more.")


def noise_png(megabytes, rnd):
    """A grey PNG of random pixels, about megabytes large."""
    width = 1024
    height = max(1, megabytes * 1024)
    rows = b"".join(b"\0" + rnd.randbytes(width) for _ in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data)))

    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0,
                                       0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


def table(doc, rnd):
    t = doc.add_table(rows=4, cols=3)
    for row in t.rows:
        for cell in row.cells:
            cell.text = sentence(rnd, 4)


def main(argv):
    if len(argv) not in (3, 4) or not all(a.isdigit() for a in
                                          argv[1:2] + argv[3:]):
        print(__doc__, file=sys.stderr)
        return 2
    pages = int(argv[1])
    rnd = random.Random(42)
    doc = docx.Document()
    doc.add_heading("Annual report of the city library", level=0)
    if len(argv) == 4 and int(argv[3]) > 0:
        png = noise_png(int(argv[3]), random.Random(7))
        doc.add_picture(io.BytesIO(png), width=docx.shared.Cm(10))
    for page in range(1, pages + 1):
        doc.add_heading("Part %d: %s" % (page, sentence(rnd, 4)), level=1)
        for k in range(PARAS_PER_PAGE):
            paragraph(doc, rnd, page, k)
        if page % 3 == 0:
            table(doc, rnd)
        if page < pages:
            doc.add_page_break()
    doc.save(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
