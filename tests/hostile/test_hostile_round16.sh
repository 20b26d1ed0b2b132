#!/bin/sh
# test_hostile_round16.sh: exit 0 means the output is right.
#   - merge of a page whose XLIFF a CAT tool segmented (a <seg-source>
#     of two <mrk mtype="seg">s) and translated in part: a <target> of
#     the first segment's mrk only. The unit has no whole target: its
#     source text kept, named, exit 3 (the page was written with the
#     second sentence gone, exit 0); with both mrks, in any order,
#     written. Translate keeps the translated segment and fills the
#     other where it stands (the unit was left as it was, the second
#     sentence in no target, exit 0).
#   - merge of an XLIFF document with JSON lines whose "text" (the source
#     as extract wrote it, beside the "translation") is not the text of
#     the segment of that id (lines of the document before two units'
#     texts were swapped): refused, naming the line and the segment,
#     exit 1, no output (each translation was written under the other
#     text, exit 0); the lines of the document as it is merged.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round16
x=$XLIFFMT

# --- A target of the mrks of some segments only.
printf '<!DOCTYPE html>\n<html lang="en"><body>\n<p>One here. Two there.</p>\n</body></html>\n' >"$tmp/s.html"
"$x" extract "$tmp/s.html" -t es -o "$tmp/s.xlf" -q || exit 99
# segs NAME TARGET: s.xlf with a seg-source of two mrks and TARGET.
segs() {
  sed -e "s|<source>One here. Two there.</source>|&<seg-source><mrk mtype=\"seg\" mid=\"1\">One here.</mrk> <mrk mtype=\"seg\" mid=\"2\">Two there.</mrk></seg-source><target>$2</target>|" \
    "$tmp/s.xlf" >"$tmp/$1.xlf"
}
segs part '<mrk mtype="seg" mid="1">Uno aqui.</mrk>'
within "HTML merge, a target of one segment of two" 3 20 300 "$x" merge \
  "$tmp/s.html" "$tmp/part.xlf" -o "$tmp/part.html" -q
said "HTML merge, a target of one segment of two" \
  "xliffmt: $tmp/part.xlf:5: unit 1: no target: the source text is kept
xliffmt: $tmp/part.xlf: 1 of 1 units have no target; their source text is kept"
check "HTML merge, a target of one segment of two: the source kept" grep -q \
  '^<p>One here. Two there.</p>$' "$tmp/part.html"
segs swapped '<mrk mtype="seg" mid="2">Dos alli.</mrk> <mrk mtype="seg" mid="1">Uno aqui.</mrk>'
within "HTML merge, both segments swapped" 0 20 300 "$x" merge \
  "$tmp/s.html" "$tmp/swapped.xlf" -o "$tmp/swapped.html" -q
check "HTML merge, both segments swapped: written" grep -q \
  '^<p>Dos alli. Uno aqui.</p>$' "$tmp/swapped.html"
within "translate, a target of one segment of two" 0 20 300 "$x" translate \
  "$tmp/part.xlf" --mt identity -o "$tmp/part.t.xlf" -q
check "translate, a target of one segment of two: the other filled" grep -q \
  '<target state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mtype="seg" mid="1">Uno aqui.</mrk> <mrk mtype="seg" mid="2">Two there.</mrk></target>' \
  "$tmp/part.t.xlf"

# --- JSON lines of the document before it changed.
doc "$tmp/two.xlf" 'Hello world.' 'Good bye.'
doc "$tmp/swapped.xlf" 'Good bye.' 'Hello world.'
printf '%s\n' '{"id":"u1#0","text":"Hello world.","translation":"Hola mundo."}' \
  '{"id":"u2#0","text":"Good bye.","translation":"Adiós."}' >"$tmp/tr.jsonl"
within "XLIFF merge, the texts of other segments" 1 20 300 "$x" merge \
  "$tmp/swapped.xlf" --translations "$tmp/tr.jsonl" -o "$tmp/m.xlf" -q
said "XLIFF merge, the texts of other segments" \
  "xliffmt: $tmp/swapped.xlf:4: segment u1#0 not translated: line 1 of the file translates another text
xliffmt: $tmp/swapped.xlf:5: segment u2#0 not translated: line 2 of the file translates another text
xliffmt: $tmp/tr.jsonl:1: segment 'u1#0' of $tmp/swapped.xlf has another text than the line's: was the file written from another document, or the document changed since?"
check "XLIFF merge, the texts of other segments: no output" \
  test ! -e "$tmp/m.xlf"
within "XLIFF merge, the texts of its segments" 0 20 300 "$x" merge \
  "$tmp/two.xlf" --translations "$tmp/tr.jsonl" -o "$tmp/m.xlf" -q
check "XLIFF merge, the texts of its segments: written" grep -q \
  '<source>Good bye.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Adiós.</target>' \
  "$tmp/m.xlf"

# --- A named pipe nobody writes into.
mkfifo "$tmp/fifo" || exit 99
for c in translate check extract; do
  set -- "$x" "$c" "$tmp/fifo"
  [ "$c" = translate ] && set -- "$@" --mt identity -t es -o "$tmp/f.xlf"
  within "$c of a named pipe" 1 5 300 "$@"
  said "$c of a named pipe" \
    "xliffmt: $tmp/fifo: a pipe or a device cannot be read twice: give the document on standard input (-)"
done
within "merge, --translations a named pipe nobody writes into" 1 25 300 \
  "$x" merge "$tmp/two.xlf" --translations "$tmp/fifo" -o "$tmp/m2.xlf" -q
said "merge, --translations a named pipe nobody writes into" \
  "xliffmt: $tmp/fifo: a named pipe no program writes into (waited 10 s)"
check "merge, --translations a named pipe nobody writes into: no output" \
  test ! -e "$tmp/m2.xlf"
(sleep 1 && cat "$tmp/tr.jsonl" >"$tmp/fifo") &
within "merge, --translations a named pipe written later" 0 25 300 \
  "$x" merge "$tmp/two.xlf" --translations "$tmp/fifo" -o "$tmp/m2.xlf" -q
wait
check "merge, --translations a named pipe written later: read" \
  cmp -s "$tmp/m.xlf" "$tmp/m2.xlf"

# --- A named pipe nobody reads from.
within "translate, -o a named pipe nobody reads from" 2 25 300 \
  "$x" translate "$tmp/two.xlf" --mt identity -t es -o "$tmp/fifo" -q
said "translate, -o a named pipe nobody reads from" \
  "xliffmt: $tmp/fifo: a named pipe no program reads from (waited 10 s)"
within "translate, --report a named pipe nobody reads from" 1 25 300 \
  "$x" translate "$tmp/two.xlf" --mt identity -t es -o "$tmp/r.xlf" \
  --report "$tmp/fifo" -q
said "translate, --report a named pipe nobody reads from" \
  "xliffmt: $tmp/fifo: a named pipe no program reads from (waited 10 s)"
within "extract, -o a named pipe nobody reads from" 2 25 300 \
  "$x" extract "$tmp/s.html" -t es -o "$tmp/fifo" -q
said "extract, -o a named pipe nobody reads from" \
  "xliffmt: $tmp/fifo: a named pipe no program reads from (waited 10 s)"
(sleep 1 && cat "$tmp/fifo" >"$tmp/read.xlf") &
within "translate, -o a named pipe read later" 0 25 300 \
  "$x" translate "$tmp/two.xlf" --mt identity -t es -o "$tmp/fifo" -q
wait
"$x" translate "$tmp/two.xlf" --mt identity -t es -o "$tmp/want.xlf" -q ||
  exit 99
check "translate, -o a named pipe read later: written" \
  cmp -s "$tmp/want.xlf" "$tmp/read.xlf"

# --- A cache that is a named pipe.
within "translate, --cache a named pipe" 1 5 300 "$x" translate \
  "$tmp/two.xlf" --mt identity -t es --cache "sqlite:$tmp/fifo" \
  -o "$tmp/c.xlf" -q
said "translate, --cache a named pipe" \
  "xliffmt: $tmp/fifo: cache: not an xliffmt cache: it is no regular file (it is left as it is; give --cache another path)"
check "translate, --cache a named pipe: left as it is" test -p "$tmp/fifo"

finish
