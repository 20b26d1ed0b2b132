#!/usr/bin/env python3
"""html_gen.py -- writes a realistic HTML page of about MB megabytes to
standard output, the same bytes for the same size: nested divs,
paragraphs with inline b, i, a and span, lists, tables, title and alt
attributes, entities, comments, a script and a style block. Used by
html.sh (`make bench-html`).

Usage: html_gen.py MB
"""
import random
import sys

WORDS = ("the of and to in is that for it as was with be by on not he "
         "this are or his from at which but have an they you were her "
         "all she there would their we him been has when who will more "
         "no if out so said what up its about into than them can only "
         "other new some could time these two may then do first any my "
         "now such like our over man me even most made after also did "
         "many before must through back years where much your way well "
         "down should because each just those people how too little "
         "state good very make world still own see men work long get "
         "here between both life being under never day same another "
         "know while last might us great old year off come since against "
         "go came right used take three").split()


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def sentence(rng):
    s = words(rng, rng.randint(6, 16))
    return s[0].upper() + s[1:] + rng.choice([".", ".", ".", "?", "!"])


def inline_text(rng):
    """A sentence or two with inline elements and entities."""
    out = []
    for _ in range(rng.randint(1, 3)):
        parts = sentence(rng).split(" ")
        k = rng.randint(0, len(parts) - 1)
        form = rng.randint(0, 7)
        if form == 0:
            parts[k] = "<b>" + parts[k] + "</b>"
        elif form == 1:
            parts[k] = "<i>" + parts[k] + "</i>"
        elif form == 2:
            parts[k] = ('<a href="/page/%d.html" title="%s">%s</a>'
                        % (rng.randint(1, 9999), words(rng, 3), parts[k]))
        elif form == 3:
            parts[k] = '<span class="note">' + parts[k] + "</span>"
        elif form == 4:
            parts[k] = parts[k] + " &amp; " + rng.choice(WORDS)
        elif form == 5:
            parts[k] = "&ldquo;" + parts[k] + "&rdquo;"
        elif form == 6:
            parts[k] = parts[k] + "&nbsp;&mdash;"
        else:
            parts[k] = "<b><i>" + parts[k] + "</i></b>"
        out.append(" ".join(parts))
    return "\n  ".join(out)


def section(rng, n, depth):
    ind = "  " * depth
    lines = ['%s<div class="section" id="s%d">' % (ind, n)]
    lines.append("%s<h2>%s</h2>" % (ind, sentence(rng)))
    lines.append("%s<!-- section %d: %s -->" % (ind, n, words(rng, 4)))
    for _ in range(rng.randint(2, 5)):
        lines.append("%s<p>%s</p>" % (ind, inline_text(rng)))
    kind = rng.randint(0, 3)
    if kind == 0:
        lines.append("%s<ul>" % ind)
        for _ in range(rng.randint(2, 6)):
            lines.append("%s  <li>%s</li>" % (ind, inline_text(rng)))
        lines.append("%s</ul>" % ind)
    elif kind == 1:
        lines.append('%s<table class="data">' % ind)
        lines.append("%s  <tr><th>%s</th><th>%s</th></tr>"
                     % (ind, words(rng, 2), words(rng, 2)))
        for _ in range(rng.randint(2, 5)):
            lines.append("%s  <tr><td>%s</td><td>%d&nbsp;%%</td></tr>"
                         % (ind, words(rng, rng.randint(2, 6)),
                            rng.randint(0, 100)))
        lines.append("%s</table>" % ind)
    elif kind == 2:
        lines.append('%s<p><img src="/img/%d.png" alt="%s"> %s</p>'
                     % (ind, rng.randint(1, 999), words(rng, 4),
                        sentence(rng)))
    else:
        lines.append('%s<div class="inner">' % ind)
        lines.append("%s  <p>%s</p>" % (ind, inline_text(rng)))
        lines.append("%s</div>" % ind)
    lines.append("%s</div>" % ind)
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: html_gen.py MB")
    target = int(float(sys.argv[1]) * 1024 * 1024)
    rng = random.Random(43)
    out = sys.stdout
    head = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n'
            '<meta charset="utf-8">\n<title>A generated page</title>\n'
            "<style>\nbody { font: 14px/1.4 serif; }\n"
            ".note { color: #555; } p > b { font-weight: 600; }\n</style>\n"
            "<script>\nvar sections = document.querySelectorAll"
            "('.section');\nif (sections.length < 2 && 1 > 0) "
            "{ console.log('<p>not a paragraph<\\/p>'); }\n</script>\n"
            '</head>\n<body>\n<div id="main">\n')
    out.write(head)
    size = len(head)
    n = 0
    while size < target:
        n += 1
        block = section(rng, n, 1 + n % 3)
        out.write(block)
        size += len(block)
    out.write('</div>\n<p class="footer">The end &copy; 2026.</p>\n'
              "</body>\n</html>\n")


main()
