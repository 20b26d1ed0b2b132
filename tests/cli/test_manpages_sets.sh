#!/bin/sh
# test_manpages_sets.sh: tests/bench/manpages_sets.py on a tiny tree of
# hand-written groff pages: English under man1, a made-up German
# translation under de/man1, as po4a writes it (font macro lines merged
# into the paragraph as \f escapes, a section appended). Exact output.
# Env: XLIFFMT (for lib.sh). Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || {
  echo "SKIP: python3 not found"
  exit 77
}
cli_setup manpages
script=$(cd "$(dirname "$0")/../bench" && pwd)/manpages_sets.py
mkdir -p "$tmp/man/man1" "$tmp/man/de/man1" "$tmp/sets"

# demo.1: NAME has no tags; SYNOPSIS a .B line (merged by po4a); in
# DESCRIPTION, \fB..\fR, \fI..\fP, \f[B]..\f[], \f(BI, escapes, & and <,
# fonts in another order (dropped), an unknown escape (dropped, counted),
# an untranslated .TP tag and a line with no tags; the Options section
# has two .TP on one side, one on the other: skipped.
cat >"$tmp/man/man1/demo.1" <<'END'
.\" A comment
.TH DEMO 1
.SH NAME
demo \- show a demo
.SH SYNOPSIS
.B demo
[\fIOPTION\fR]... \fIFILE\fR
.SH DESCRIPTION
.PP
The \fBdemo\fR command copies \fIfiles\fP to the \f[B]output\f[] folder.
.TP
.BR \-v ", " \-\-verbose
print every file name
.PP
Use \f(BIbold italic\fR words, \(aqquotes\(aq \(em and a\ <\ b & c\e.
.PP
Tags \fBwith\fR odd \fIfonts\fR here.
.PP
An \fBunknown\h'1m'escape\fR here again.
.PP
No tags on this line at all.
.SS Options
.TP
\fB\-a\fR
all of them
.TP
\fB\-b\fR
both of them
END
cat >"$tmp/man/de/man1/demo.1" <<'END'
.\" -*- coding: UTF-8 -*-
.TH DEMO 1
.SH BEZEICHNUNG
demo \- zeigt eine Vorführung
.SH ÜBERSICHT
\fBdemo\fP [\fIOPTION\fP] … \fIDATEI\fP
.SH BESCHREIBUNG
.PP
Der Befehl \fBdemo\fP kopiert \fIDateien\fP in den Ordner \fBAusgabe\fP.
.TP 
\fB\-v\fP, \fB\-\-verbose\fP
jeden Dateinamen ausgeben
.PP
Verwenden Sie \f(BIfett kursive\fP Wörter, \(aqZitate\(aq \(em und
a\ <\ b & c\e.
.PP
Markierungen \fImit\fP seltsamen \fBSchriften\fP hier.
.PP
Ein \fBunbekanntes\h'1m'Escape\fP hier wieder.
.PP
Hier gibt es gar keine Markierungen.
.SS Optionen
.TP 
\fB\-a\fP
alle
.SH ÜBERSETZUNG
Die Übersetzung schrieb \fBjemand\fP mit viel Mühe.
END
# extra.1: the other half of the split; a page only translated is not
# paired; odd.1 has a section less in the translation: skipped whole.
cat >"$tmp/man/man1/extra.1" <<'END'
.SH NAME
extra \- see \fBdemo\fR(1) for the details
END
cat >"$tmp/man/de/man1/extra.1" <<'END'
.SH BEZEICHNUNG
extra \- siehe \fBdemo\fP(1) für die Einzelheiten
END
printf '.SH NAME\nonly \\- \\fBde\\fR here\n' >"$tmp/man/de/man1/only.1"
printf '.SH A\nThe \\fBa\\fR one\n.SH B\nThe \\fBb\\fR one\n.SH C\nc\n' \
  >"$tmp/man/man1/odd.1"
printf '.SH A\nDas \\fBa\\fP eine\n' >"$tmp/man/de/man1/odd.1"
gzip -n "$tmp"/man/man1/*.1 "$tmp"/man/de/man1/*.1

expect_exit 0 "build" "$py" "$script" --root "$tmp/man" "$tmp/sets" de
b=$tmp/sets/manpages.en-de
cat >"$tmp/want.en" <<'END'
<g id="1">demo</g> [<g id="2">OPTION</g>]... <g id="3">FILE</g>
The <g id="1">demo</g> command copies <g id="2">files</g> to the <g id="3">output</g> folder.
Use <g id="1">bold italic</g> words, 'quotes' — and a &lt; b &amp; c\.
extra - see <g id="1">demo</g>(1) for the details
END
cat >"$tmp/want.de" <<'END'
<g id="1">demo</g> [<g id="2">OPTION</g>] … <g id="3">DATEI</g>
Der Befehl <g id="1">demo</g> kopiert <g id="2">Dateien</g> in den Ordner <g id="3">Ausgabe</g>.
Verwenden Sie <g id="1">fett kursive</g> Wörter, 'Zitate' — und a &lt; b &amp; c\.
extra - siehe <g id="1">demo</g>(1) für die Einzelheiten
END
printf '%s\n' man1/demo.1 man1/demo.1 man1/demo.1 man1/extra.1 \
  >"$tmp/want.pages"
# crc32("man1/demo.1") is odd, crc32("man1/extra.1") even.
printf '%s\n' report report report tune >"$tmp/want.split"
for ext in en de pages split; do
  if cmp -s "$b.$ext" "$tmp/want.$ext"; then
    pass "manpages.en-de.$ext"
  else
    fail "manpages.en-de.$ext differs:"
    diff "$tmp/want.$ext" "$b.$ext" | sed 's/^/    /'
  fi
done

# The hard variant: the pairs around the same text on both sides (demo,
# OPTION) go, their text stays; FILE/DATEI is left on the first line,
# renumbered; the extra.1 line, tagless then, is dropped.
h=$tmp/sets/manpages-hard.en-de
cat >"$tmp/hard.en" <<'END'
demo [OPTION]... <g id="1">FILE</g>
The demo command copies <g id="1">files</g> to the <g id="2">output</g> folder.
Use <g id="1">bold italic</g> words, 'quotes' — and a &lt; b &amp; c\.
END
cat >"$tmp/hard.de" <<'END'
demo [OPTION] … <g id="1">DATEI</g>
Der Befehl demo kopiert <g id="1">Dateien</g> in den Ordner <g id="2">Ausgabe</g>.
Verwenden Sie <g id="1">fett kursive</g> Wörter, 'Zitate' — und a &lt; b &amp; c\.
END
printf '%s\n' man1/demo.1 man1/demo.1 man1/demo.1 >"$tmp/hard.pages"
printf '%s\n' report report report >"$tmp/hard.split"
printf '%s\n' 1 2 3 >"$tmp/hard.lines"
for ext in en de pages split lines; do
  if cmp -s "$h.$ext" "$tmp/hard.$ext"; then
    pass "manpages-hard.en-de.$ext"
  else
    fail "manpages-hard.en-de.$ext differs:"
    diff "$tmp/hard.$ext" "$h.$ext" | sed 's/^/    /'
  fi
done
want_err="manpages_sets.py: en-de: pages paired 2, pages skipped 1, pages unreadable 0, sections paired 4, sections skipped 1, lines with unmapped escapes 1, lines with other fonts 1, lines too short, long or untranslated 1, lines kept 4, tags 8; hard: lines kept 3, tags 4"
if [ "$(cat "$tmp/err")" = "$want_err" ]; then
  pass "counts"
else
  fail "counts: $(cat "$tmp/err")"
fi

# --hard-of: a projection of the full set scored on the hard set: the
# hard set's lines and tag pairs of each hypothesis line, wherever they
# were put (here the third tag of the second line, moved), ids as there.
sed '2s|in den Ordner <g id="3">Ausgabe</g>|in den <g id="3">Ordner</g> Ausgabe|' \
  "$b.de" >"$tmp/hyp"
expect_exit 0 "--hard-of" "$py" "$script" --hard-of "$b.en" "$b.de" \
  "$tmp/hyp"
expect_text "--hard-of: the hard lines" "$tmp/out" 'demo [OPTION] … <g id="1">DATEI</g>
Der Befehl demo kopiert <g id="1">Dateien</g> in den <g id="2">Ordner</g> Ausgabe.
Verwenden Sie <g id="1">fett kursive</g> Wörter, '"'Zitate'"' — und a &lt; b &amp; c\.'
head -3 "$tmp/hyp" >"$tmp/short"
expect_exit 1 "--hard-of: a line short" "$py" "$script" --hard-of "$b.en" \
  "$b.de" "$tmp/short"
expect_text "--hard-of: the counts said" "$tmp/err" "manpages_sets.py: $b.en, $b.de and $tmp/short: 4, 4 and 3 lines"

# hard() beyond what groff gives: nested pairs (the outer one compared
# without its inner tags), white space ignored, ids in another order on
# the target side; case and the punctuation or other signs at either end
# ignored too (Options/options, NULL,/NULL, (ls)/"ls", <file>/FILE), but
# not inside (a.b/ab); a pair of signs only is the same as another.
got=$(cd "$(dirname "$script")" && "$py" -B -c '
from manpages_sets import hard
print(hard("<g id=\"1\">a <g id=\"2\">Run</g></g> x <g id=\"3\">b  c</g>",
           "<g id=\"3\">bc</g> y <g id=\"1\">b<g id=\"2\">run</g></g>"))
print(hard("<g id=\"1\">ls</g> x", "<g id=\"1\"> ls </g> y"))
print(hard("<g id=\"1\">Options</g> <g id=\"2\">NULL,</g> <g id=\"3\">(ls)</g> "
           "<g id=\"4\">&lt;file></g> <g id=\"5\">a.b</g> <g id=\"6\">file.</g>",
           "<g id=\"1\">options</g> <g id=\"2\">NULL</g> <g id=\"3\">\"ls\"</g> "
           "<g id=\"4\">FILE</g> <g id=\"5\">ab</g> <g id=\"6\">Datei</g>"))
print(hard("<g id=\"1\">|</g> x", "<g id=\"1\">--</g> y"))')
want="('<g id=\"1\">a Run</g> x b  c', 'bc y <g id=\"1\">brun</g>', 1)
None
('Options NULL, (ls) &lt;file> <g id=\"1\">a.b</g> <g id=\"2\">file.</g>', 'options NULL \"ls\" FILE <g id=\"1\">ab</g> <g id=\"2\">Datei</g>', 2)
None"
if [ "$got" = "$want" ]; then
  pass "hard(): nested, white space, case, punctuation at the ends"
else
  fail "hard(): $got"
fi

# --max 2: the first line of each page.
expect_exit 0 "--max 2" "$py" "$script" --root "$tmp/man" --max 2 \
  "$tmp/sets" de
printf '%s\n' man1/demo.1 man1/extra.1 >"$tmp/want.pages"
if cmp -s "$b.pages" "$tmp/want.pages" &&
  [ "$(head -1 "$b.en")" = "$(head -1 "$tmp/want.en")" ]; then
  pass "--max 2: a line a page"
else
  fail "--max 2: $(tr '\n' ' ' <"$b.pages")"
fi

# Chinese: "zh" is the first of zh_CN, zh_TW present (manpages-zh has
# both); its words are counted by two characters, so a short line of
# Chinese is long enough.
mkdir -p "$tmp/man/zh_CN/man1" "$tmp/man/zh_TW/man1"
printf '.SH NAME\nzh \\- show \\fBmany\\fR things on the \\fIscreen\\fR\n' \
  >"$tmp/man/man1/zh.1"
printf '.SH \344\270\255\n\\fB\345\276\210\345\244\232\\fP zh \\fI\345\261\217\345\271\225\\fP\n' \
  >"$tmp/man/zh_CN/man1/zh.1"
printf '.SH X\nzh \\fBTW\\fP\n' >"$tmp/man/zh_TW/man1/zh.1"
gzip -n "$tmp/man/man1/zh.1" "$tmp/man/zh_CN/man1/zh.1" \
  "$tmp/man/zh_TW/man1/zh.1"
expect_exit 0 "zh" "$py" "$script" --root "$tmp/man" "$tmp/sets" zh
z=$tmp/sets/manpages.en-zh
if [ "$(cat "$z.zh")" = '<g id="1">很多</g> zh <g id="2">屏幕</g>' ] &&
  [ "$(cat "$z.pages")" = man1/zh.1 ]; then
  pass "zh: the zh_CN page"
else
  fail "zh: $(cat "$z.zh" "$z.pages" | tr '\n' ' ')"
fi

finish
