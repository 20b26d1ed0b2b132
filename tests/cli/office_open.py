#!/usr/bin/python3
"""office_open.py -- helper of test_cli_office_open.sh: what real readers
see in a Word or OpenDocument file.

  office_open.py same IN OUT      every zip entry of OUT byte for byte IN's,
                                  in the same order (prints the first that
                                  differs; exit 1)
  office_open.py pandoc FILE.json counts in pandoc's JSON AST, one a line:
                                  para, table, link, strong, emph,
                                  underline (Para, Header and Plain are
                                  paragraphs)
  office_open.py texts FILE.json  the text of each paragraph that has
                                  letters, one a line
  office_open.py translated SRC.json OUT.json
                                  the paragraphs with letters of SRC and
                                  of OUT as many, and each of OUT's
                                  pseudo-translated: its text, the
                                  pseudo segments ("[...~]") taken out,
                                  has no letter left (prints those that
                                  do; exit 1)
  office_open.py lo FILE.html     counts in LibreOffice's HTML export:
                                  para (p, h1-h6), table, link (a href;
                                  one link split by a span, one)
"""
import html.parser
import json
import re
import sys
import zipfile

BLOCKS = ("Para", "Header", "Plain")


def same(a, b):
    za, zb = zipfile.ZipFile(a), zipfile.ZipFile(b)
    na, nb = za.namelist(), zb.namelist()
    if na != nb:
        print("entries differ: %s / %s" % (na, nb))
        return 1
    for name in na:
        if za.read(name) != zb.read(name):
            print("entry differs: %s" % name)
            return 1
    return 0


def walk(node, visit):
    if isinstance(node, dict):
        visit(node)
        for v in node.values():
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


def pandoc_counts(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    n = {"para": 0, "table": 0, "link": 0, "strong": 0, "emph": 0,
         "underline": 0}
    names = {"Table": "table", "Link": "link", "Strong": "strong",
             "Emph": "emph", "Underline": "underline"}

    def visit(node):
        t = node.get("t")
        if t in BLOCKS:
            n["para"] += 1
        elif t in names:
            n[names[t]] += 1

    walk(doc["blocks"], visit)
    for k in ("para", "table", "link", "strong", "emph", "underline"):
        print("%s %d" % (k, n[k]))
    return 0


def inline_text(node, out):
    if isinstance(node, dict):
        t = node.get("t")
        if t == "Str":
            out.append(node["c"])
        elif t in ("Space", "SoftBreak", "LineBreak"):
            out.append(" ")
        elif t in ("Note",):
            return  # a note's paragraphs are paragraphs of their own
        else:
            inline_text(node.get("c"), out)
    elif isinstance(node, list):
        for v in node:
            inline_text(v, out)


def para_texts(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    found = []

    def visit(node):
        if node.get("t") in BLOCKS:
            c = node["c"]
            if node["t"] == "Header":
                c = c[2]
            out = []
            inline_text(c, out)
            s = " ".join("".join(out).split())
            if any(ch.isalpha() for ch in s):
                found.append(s)

    walk(doc["blocks"], visit)
    return found


def texts(path):
    for s in para_texts(path):
        print(s)
    return 0


# pseudo's padding is '~'; in a run set in the Symbol font pandoc reads
# it as U+223C
PSEUDO = re.compile("\\[.*?[~\u223c]+\\]")


def translated(src, out):
    a, b = para_texts(src), para_texts(out)
    if len(a) != len(b):
        print("%d paragraphs with text in the source, %d in the target"
              % (len(a), len(b)))
        return 1
    bad = 0
    for s, t in zip(a, b):
        rest = PSEUDO.sub("", t)
        if any(ch.isalpha() for ch in rest):
            print("not translated: %r (source %r)" % (t, s))
            bad = 1
    return bad


class Counter(html.parser.HTMLParser):
    """LibreOffice's HTML export closes a link where a span of other
    formatting starts and opens it again inside: an a to the same href
    right after the last one closed, no text between, is the same link."""

    def __init__(self):
        super().__init__()
        self.n = {"para": 0, "table": 0, "link": 0}
        self.href = None  # of the a open
        self.last_href = None  # of the a last closed, while no text follows

    def handle_starttag(self, tag, attrs):
        if tag in ("p", "h1", "h2", "h3", "h4", "h5", "h6"):
            self.n["para"] += 1
            self.last_href = None
        elif tag == "table":
            self.n["table"] += 1
        elif tag == "a" and dict(attrs).get("href"):
            self.href = dict(attrs)["href"]
            if self.href != self.last_href:
                self.n["link"] += 1

    def handle_endtag(self, tag):
        if tag == "a":
            self.last_href, self.href = self.href, None

    def handle_data(self, data):
        if data.strip():
            self.last_href = None


def lo_counts(path):
    c = Counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        c.feed(f.read())
    for k in ("para", "table", "link"):
        print("%s %d" % (k, c.n[k]))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "same":
        return same(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "pandoc":
        return pandoc_counts(argv[2])
    if len(argv) == 3 and argv[1] == "texts":
        return texts(argv[2])
    if len(argv) == 4 and argv[1] == "translated":
        return translated(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "lo":
        return lo_counts(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
