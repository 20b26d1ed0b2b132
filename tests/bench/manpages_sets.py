#!/usr/bin/python3
"""manpages_sets.py -- tagged parallel segments from translated man pages.

Usage: manpages_sets.py [--root DIR] [--max N] OUT LANG...
       manpages_sets.py --hard-of SRC TGT HYP

Pairs each translated page ROOT/LANG/manN/NAME.N.gz (ROOT: /usr/share/man;
LANG "zh" is the first of zh_CN, zh_TW present) with the English
ROOT/manN/NAME.N.gz, cuts both into paragraphs as po4a does (the
manpages-l10n translations are written by po4a, which keeps the English
page's requests and merges the font macro lines .B .I .BR ... into the
paragraph's text), pairs the paragraphs of the sections whose requests are
the same on both sides, and writes the pairs whose groff font changes agree
as XLIFF 1.2 inline content: every run of a non-roman font is a
<g id="N">...</g>, numbered in order, the target's run N carrying the id of
the source's run N (kept only when both have the same fonts in the same
order). Per language: OUT/manpages.en-LANG.{en,LANG,split,pages}; the
split (tune or report) is by page, crc32 of its name. Beside it the hard
variant, OUT/manpages-hard.en-LANG.*: the same lines without the tag
pairs whose content is the same on both sides, case and the punctuation
at either end aside (a command or an option name, which any aligner
places), ids renumbered, the lines left
with no tag dropped; its .lines holds each line's number in the full set. --max N keeps at
most N lines, taken from the pages in turn (each page's first line, then
each page's second, ...; the last round from pages spread evenly). Counts go to standard error.

--hard-of writes to standard output the hard variant of HYP, a
projection of the full set SRC (its target TGT): the lines and the tag
pairs that the hard set keeps, ids renumbered as there, so that a full
set's run is scored on the hard set without a second one.
"""

import gzip
import os
import re
import sys
import unicodedata
import zlib

FONT_MACROS = {"B": "B", "I": "I", "BR": "BR", "RB": "RB", "IR": "IR",
               "RI": "RI", "BI": "BI", "IB": "IB", "SB": "B"}
TAG_MACROS = {"TP", "TQ"}  # the next line is a paragraph of its own
NOFILL_ON = {"nf", "EX"}
NOFILL_OFF = {"fi", "EE"}
SECTION = {"SH", "SS"}
SAME = {"LP": "PP", "P": "PP"}

CHARS = {
    "aq": "'", "dq": '"', "em": "\u2014", "en": "\u2013", "hy": "-",
    "lq": "\u201c", "rq": "\u201d", "oq": "\u2018", "cq": "\u2019",
    "bu": "\u2022", "co": "\u00a9", "rg": "\u00ae", "tm": "\u2122",
    "mu": "\u00d7", "de": "\u00b0", "+-": "\u00b1", "<=": "\u2264",
    ">=": "\u2265", "!=": "\u2260", "->": "\u2192", "<-": "\u2190",
    "ha": "^", "ti": "~", "ga": "`", "ul": "_", "sl": "/", "rs": "\\",
    "bv": "|", "ba": "|", "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039",
    "fc": "\u203a", "dg": "\u2020", "sc": "\u00a7", "ps": "\u00b6",
    "Do": "$", "at": "@", "sh": "#", "pc": "\u00b7",
    "R": "\u00ae", "Tm": "\u2122", "ss": "\u00df", "-": "-", "tmu": "\u00d7",
    "lh": "\u261c", "rh": "\u261e", "eu": "\u20ac", "Eu": "\u20ac",
    "%": "", "aa": "\u00b4", ":a": "\u00e4", ":o": "\u00f6",
    "oe": "\u0153", "OE": "\u0152", "ae": "\u00e6", "AE": "\u00c6",
    "sd": "\u2033", "fm": "\u2032", "*p": "\u03c0",
    # strings that pod2man defines
    "Aq": "'", "C`": '"', "C'": '"', 'L"': "\u201c", 'R"': "\u201d",
    "--": "--", "PI": "\u03c0",
}
ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", ":": "\u0308",
           ",": "\u0327", "~": "\u0303", "o": "\u030a", "v": "\u030c"}


def char(name):
    """The character of a groff special character name, or None."""
    if re.fullmatch(r"u[0-9A-F]{4,5}", name):
        return chr(int(name[1:], 16))
    if name in CHARS:
        return CHARS[name]
    if len(name) == 2 and name[0] in ACCENTS and name[1].isalpha():
        return unicodedata.normalize("NFC", name[1] + ACCENTS[name[0]])
    return None
FONTS = {"R": "R", "1": "R", "I": "I", "2": "I", "B": "B", "3": "B",
         "BI": "BI", "4": "BI", "CR": "R", "CW": "R", "CB": "B", "CI": "I",
         "CBI": "BI", "TR": "R", "TB": "B", "TI": "I", "TBI": "BI"}


class Unmapped(Exception):
    """An escape the conversion does not know."""


def args_of(rest):
    """The arguments of a request line, as groff splits them."""
    out, i, n = [], 0, len(rest)
    while i < n:
        while i < n and rest[i] in " \t":
            i += 1
        if i >= n:
            break
        if rest[i] == '"':
            i += 1
            a = []
            while i < n:
                if rest[i] == '"':
                    if i + 1 < n and rest[i + 1] == '"':
                        a.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                if rest[i] == "\\" and i + 1 < n:
                    a.append(rest[i:i + 2])
                    i += 2
                    continue
                a.append(rest[i])
                i += 1
            out.append("".join(a))
        else:
            j = i
            while j < n and rest[j] not in " \t":
                j += 2 if rest[j] == "\\" else 1
            out.append(rest[i:j])
            i = j
    return out


def font_macro(name, rest):
    """A font macro line as text with \\f escapes."""
    fonts = FONT_MACROS[name]
    args = args_of(rest)
    if len(fonts) == 1:
        return "\\f" + fonts + " ".join(args) + "\\fR"
    parts = []
    for k, a in enumerate(args):
        parts.append("\\f" + fonts[k % 2] + a)
    return "".join(parts) + "\\fR"


def request(line):
    """(name, rest) of a request line, else None."""
    if not line or line[0] not in ".'":
        return None
    m = re.match(r"[.'][ \t]*(\S*)[ \t]*(.*)$", line)
    return m.group(1), m.group(2)


def paragraphs(text):
    """[(heading, [requests], [paragraphs])]: the sections of a page."""
    sections = [("", [], [])]
    cur, pending, nofill = [], 0, False

    def flush():
        if cur:
            sections[-1][2].append(" ".join(cur))
            del cur[:]

    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        while line.endswith("\\") and not line.endswith("\\\\") \
                and i < len(lines):
            line = line[:-1] + lines[i].rstrip()
            i += 1
        if line.startswith((".\\\"", "'\\\"", '\\"')) or line in (".", "'"):
            continue
        req = request(line)
        if req is not None and req[0] not in FONT_MACROS:
            name = req[0]
            flush()
            if name in SECTION:
                sections.append((req[1], [], []))
                continue
            sections[-1][1].append(SAME.get(name, name))
            nofill = (nofill or name in NOFILL_ON) and name not in NOFILL_OFF
            if name in TAG_MACROS:
                pending = 1
            continue
        if nofill:
            continue  # code and tables: po4a does not keep them whole
        if req is not None:
            if not req[1].strip():
                return None  # a font macro on the next line: rare, skip
            line = font_macro(req[0], req[1])
        cur.append(line)
        if pending:
            pending = 0
            flush()
    flush()
    return sections


SIZE = re.compile(r"s(\[[^\]]*\]|\([+-]?\d\d|[+-]?\d)")


def runs(par):
    """[(font, text)] of a paragraph, escapes turned into text."""
    out, font, prev, buf = [], "R", "R", []
    i, n = 0, len(par)

    def put(f):
        nonlocal font, prev
        if buf:
            out.append((font, "".join(buf)))
            del buf[:]
        prev, font = font, f

    while i < n:
        c = par[i]
        if c != "\\":
            buf.append(c)
            i += 1
            continue
        if i + 1 >= n:
            raise Unmapped("\\")
        e = par[i + 1]
        i += 2
        if e == "f":
            if par.startswith("[", i):
                j = par.index("]", i)
                name, i = par[i + 1:j], j + 1
            elif par.startswith("(", i):
                name, i = par[i + 1:i + 3], i + 3
            else:
                name, i = par[i:i + 1], i + 1
            if name in ("P", ""):
                put(prev)
            elif name in FONTS:
                put(FONTS[name])
            else:
                raise Unmapped("\\f" + name)
        elif e in "-":
            buf.append("-")
        elif e in "e\\":
            buf.append("\\")
        elif e in " ~0":
            buf.append(" ")
        elif e in "&,/|^%:)c":
            pass  # \c: the next line continues this one
        elif e in "mM" and par.startswith("[", i):
            i = par.index("]", i) + 1  # colours
        elif e == "'":
            buf.append("\u00b4")
        elif e == "`":
            buf.append("`")
        elif e == ".":
            buf.append(".")
        elif e == '"':
            break  # a comment to the line's end
        elif e in "(*[":
            if e == "*" and i < n and par[i] in "([":
                e, i = par[i], i + 1
            if e == "(":
                name, i = par[i:i + 2], i + 2
            elif e == "[":
                j = par.find("]", i)
                if j < 0:
                    raise Unmapped("\\[")
                name, i = par[i:j], j + 1
            else:
                name, i = par[i:i + 1], i + 1
            ch = char(name)
            if ch is None:
                raise Unmapped("\\(" + name)
            buf.append(ch)
        elif e == "s":
            m = SIZE.match(par, i - 1)
            if not m:
                raise Unmapped("\\s")
            i = m.end()
        else:
            raise Unmapped("\\" + e)
    put("R")
    return out


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")


def tagged(par):
    """(XLIFF inline text, plain text, [fonts of the tags])."""
    merged = []
    for f, t in runs(par):
        if f != "R" and not t.strip():
            f = "R"
        if merged and merged[-1][0] == f:
            merged[-1][1] += t
        else:
            merged.append([f, t])
    xml, plain, fonts = [], [], []
    for f, t in merged:
        t = re.sub(r"\s+", " ", t)
        if f == "R":
            xml.append(esc(t))
        else:
            core = t.strip()
            lead = t[:len(t) - len(t.lstrip())]
            trail = t[len(t.rstrip()):]
            fonts.append(f)
            xml.append('%s<g id="%d">%s</g>%s'
                       % (esc(lead), len(fonts), esc(core), esc(trail)))
        plain.append(t)
    x = re.sub(r" +", " ", "".join(xml)).strip()
    p = re.sub(r" +", " ", "".join(plain)).strip()
    return x, p, fonts


CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef"
WORD = re.compile("[%s]{1,2}|[^\\s%s]+" % (CJK, CJK))


def words(text):
    """Words of TEXT: runs between spaces; Chinese and Japanese, which
    write no spaces, by two characters (a typical word's length)."""
    return len(WORD.findall(text))


TAG = re.compile(r'<g id="(\d+)">|</g>|[^<]+')


def contents(xml):
    """{id: text of the tag pair, nested tags and white space stripped}."""
    out, open_ = {}, []
    for m in TAG.finditer(xml):
        if m.group(1) is not None:
            open_.append(m.group(1))
            out[m.group(1)] = ""
        elif m.group(0) == "</g>":
            open_.pop()
        else:
            for i in open_:
                out[i] += re.sub(r"\s+", "", m.group(0))
    return out


def same(a, b):
    """Whether two tag contents are the same: case aside, and the
    punctuation or other signs (not letters, digits or accents) at either
    end; the sets' &lt; and &amp; read as < and &."""
    def norm(s):
        s = s.replace("&lt;", "<").replace("&amp;", "&").casefold()
        word = [c.isalnum() or unicodedata.category(c)[0] == "M" for c in s]
        if True not in word:
            return ""
        return s[word.index(True):len(s) - word[::-1].index(True)]
    return norm(a) == norm(b)


def hard_ids(src, tgt):
    """The ids of the tag pairs of a line that the hard set keeps: those
    whose content differs on the two sides (see same()), in source
    order."""
    cs, ct = contents(src), contents(tgt)
    return [i for i in cs if i in ct and not same(cs[i], ct[i])]


def keep_only(xml, keep):
    """XML without the tag pairs whose ids KEEP lacks (text and nested
    tags kept), the others renumbered 1.. in KEEP's order."""
    new = {i: str(k + 1) for k, i in enumerate(keep)}
    out, stack = [], []
    for m in TAG.finditer(xml):
        if m.group(1) is not None:
            stack.append(new.get(m.group(1)))
            if stack[-1] is not None:
                out.append('<g id="%s">' % stack[-1])
        elif m.group(0) == "</g>":
            if stack.pop() is not None:
                out.append("</g>")
        else:
            out.append(m.group(0))
    return "".join(out)


def hard(src, tgt):
    """(src, tgt, tags) with the tag pairs whose content is the same on
    both sides (see same()) removed (text and nested tags kept), ids
    renumbered 1.. in source order; None when no tag is left."""
    keep = hard_ids(src, tgt)
    if not keep:
        return None
    return keep_only(src, keep), keep_only(tgt, keep), len(keep)


def hard_of(src_path, tgt_path, hyp_path):
    """Writes the hard variant of a hypothesis for a full set (SRC, TGT:
    its files): each line of HYP, the line's tags projected from SRC,
    without the pairs that the hard set drops (ids as there), the lines
    that the hard set drops left out. Returns an exit status."""
    sides = []
    for path in (src_path, tgt_path, hyp_path):
        with open(path, encoding="utf-8", newline="\n") as f:
            lines = f.read().split("\n")
        sides.append(lines[:-1] if lines[-1] == "" else lines)
    if not len(sides[0]) == len(sides[1]) == len(sides[2]):
        print("manpages_sets.py: %s, %s and %s: %d, %d and %d lines"
              % (src_path, tgt_path, hyp_path, len(sides[0]), len(sides[1]),
                 len(sides[2])), file=sys.stderr)
        return 1
    for s, t, h in zip(*sides):
        keep = hard_ids(s, t)
        if keep:
            sys.stdout.write(keep_only(h, keep) + "\n")
    return 0


def read(path):
    with gzip.open(path, "rb") as f:
        return f.read().decode("utf-8")


def pair_page(en_path, tr_path, c):
    """The kept (source, target) pairs of one page; counts into c."""
    try:
        en, tr = paragraphs(read(en_path)), paragraphs(read(tr_path))
    except (UnicodeDecodeError, OSError, EOFError):
        c["pages unreadable"] += 1
        return []
    # po4a appends a section on the translation (its translators, the
    # licence): one more at the end is allowed.
    if en is None or tr is None or len(tr) - len(en) not in (0, 1) \
            or len(en) < 2:
        c["pages skipped"] += 1
        return []
    c["pages paired"] += 1
    out = []
    for (_, er, ep), (_, tr_, tp) in zip(en[1:], tr[1:]):
        if er != tr_ or len(ep) != len(tp):
            c["sections skipped"] += 1
            continue
        c["sections paired"] += 1
        for e, t in zip(ep, tp):
            try:
                ex, eplain, ef = tagged(e)
                tx, tplain, tf = tagged(t)
            except (Unmapped, ValueError):
                c["lines with unmapped escapes"] += 1
                continue
            if not ef:
                continue
            if ef != tf:
                c["lines with other fonts"] += 1
                continue
            if eplain == tplain or not 3 <= words(eplain) <= 80 \
                    or not 3 <= words(tplain) <= 80:
                c["lines too short, long or untranslated"] += 1
                continue
            out.append((ex, tx, len(ef)))
    return out


def lang_dir(root, lang):
    if os.path.isdir(os.path.join(root, lang)):
        return os.path.join(root, lang)
    for d in sorted(os.listdir(root)):
        if d.startswith(lang + "_"):
            return os.path.join(root, d)
    return None


def build(root, out_dir, lang, cap):
    c = dict.fromkeys(["pages paired", "pages skipped", "pages unreadable",
                       "sections paired", "sections skipped",
                       "lines with unmapped escapes", "lines with other fonts",
                       "lines too short, long or untranslated"], 0)
    ldir = lang_dir(root, lang)
    pages = []
    if ldir is not None:
        for sec in sorted(os.listdir(ldir)):
            if not re.fullmatch(r"man\w+", sec):
                continue
            for name in sorted(os.listdir(os.path.join(ldir, sec))):
                en = os.path.join(root, sec, name)
                if name.endswith(".gz") and os.path.isfile(en):
                    pages.append((sec + "/" + name[:-3],
                                  en, os.path.join(ldir, sec, name)))
    per_page = [(p, pair_page(en, tr, c)) for p, en, tr in pages]
    pick = [[True] * len(lines) for _, lines in per_page]
    if cap is not None:
        pick = [[False] * len(lines) for _, lines in per_page]
        k, left = 0, cap
        while left > 0:
            have = [j for j, (_, lines) in enumerate(per_page)
                    if k < len(lines)]
            if not have:
                break
            if len(have) > left:  # the last round: pages spread evenly
                have = [have[i * len(have) // left] for i in range(left)]
            for j in have:
                pick[j][k] = True
            left -= len(have)
            k += 1
    exts = (".en", "." + lang, ".split", ".pages")
    files = [open(os.path.join(out_dir, "manpages.en-" + lang + e), "w",
                  encoding="utf-8") for e in exts]
    hfiles = [open(os.path.join(out_dir, "manpages-hard.en-" + lang + e),
                   "w", encoding="utf-8") for e in exts + (".lines",)]
    kept = tags = hkept = htags = 0
    for j, (page, lines) in enumerate(per_page):
        half = "tune" if zlib.crc32(page.encode()) % 2 == 0 else "report"
        for k, (s, t, n) in enumerate(lines):
            if not pick[j][k]:
                continue
            for f, v in zip(files, (s, t, half, page)):
                f.write(v + "\n")
            kept, tags = kept + 1, tags + n
            h = hard(s, t)
            if h is not None:
                for f, v in zip(hfiles, (h[0], h[1], half, page, str(kept))):
                    f.write(v + "\n")
                hkept, htags = hkept + 1, htags + h[2]
    for f in files + hfiles:
        f.close()
    print("manpages_sets.py: en-%s: %s, lines kept %d, tags %d; hard: "
          "lines kept %d, tags %d"
          % (lang, ", ".join("%s %d" % kv for kv in c.items()), kept, tags,
             hkept, htags), file=sys.stderr)


def main(argv):
    if argv and argv[0] == "--hard-of" and len(argv) == 4:
        return hard_of(*argv[1:])
    root, cap = "/usr/share/man", None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--root" and len(argv) > 1:
            root, argv = argv[1], argv[2:]
        elif argv[0] == "--max" and len(argv) > 1:
            cap, argv = int(argv[1]), argv[2:]
        else:
            break
    if len(argv) < 2:
        print("usage: manpages_sets.py [--root DIR] [--max N] OUT LANG...\n"
              "       manpages_sets.py --hard-of SRC TGT HYP",
              file=sys.stderr)
        return 2
    for lang in argv[1:]:
        build(root, argv[0], lang, cap)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
