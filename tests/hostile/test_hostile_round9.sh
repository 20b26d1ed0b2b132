#!/bin/sh
# test_hostile_round9.sh: exit 0 means the output is right.
#   - merge of an XLIFF document with a translations file whose id or
#     text holds a NUL (a raw byte in TSV, \u0000 in JSON lines, a raw
#     byte in an --alignments file): refused, naming the file and line,
#     exit 1, no output (the entries were kept as C strings: the
#     translation "Hola\0 mundo." was written as "Hola", and the id
#     "u1#0\0x", which no segment has, gave its translation to u1#0,
#     exit 0).
#   - merge with a JSON line that gives "translation" before "text"
#     (the source, as extract wrote it): the translation is the target
#     (the text was written as the target, exit 0); a line that gives
#     "id" (or another member) twice is refused, naming file and line,
#     exit 1, no output (the last "id" took the translation, exit 0 or
#     3 with the wrong unit's text in the output).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round9
x=$XLIFFMT

doc "$tmp/d.xlf" "Hello world." "Second one."
# refused DESC MESSAGE CMD...: CMD -o OUT is refused, exit 1, with
# MESSAGE, no OUT.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f "$tmp/out.xlf"
  within "$desc" 1 20 300 "$@" -o "$tmp/out.xlf" -q
  said "$desc" "$msg"
  check "$desc: no output" test ! -e "$tmp/out.xlf"
}

# --- A NUL in a translations file.
printf 'u1#0\tHola\000 mundo.\nu2#0\tSegundo.\n' >"$tmp/text.tsv"
printf 'u1#0\000x\tHola.\nu2#0\tSegundo.\n' >"$tmp/id.tsv"
printf '{"id":"u1#0","text":"Hola\\u0000 mundo."}\n{"id":"u2#0","text":"Segundo."}\n' \
  >"$tmp/text.jsonl"
printf '{"id":"u1#0\\u0000x","text":"Hola."}\n{"id":"u2#0","text":"Segundo."}\n' \
  >"$tmp/id.jsonl"
refused "merge, a NUL in a TSV translation" \
  "xliffmt: $tmp/text.tsv:1: a NUL byte at byte 10" \
  "$x" merge "$tmp/d.xlf" --translations "$tmp/text.tsv"
refused "merge, a NUL in a TSV id" \
  "xliffmt: $tmp/id.tsv:1: a NUL byte at byte 5" \
  "$x" merge "$tmp/d.xlf" --translations "$tmp/id.tsv"
for f in text id; do
  refused "merge, \\u0000 in a JSON line's $f" \
    "xliffmt: $tmp/$f.jsonl:1: a string holding \\u0000 (NUL)" \
    "$x" merge "$tmp/d.xlf" --translations "$tmp/$f.jsonl"
done
printf 'u1#0\tHola mundo.\nu2#0\tSegundo.\n' >"$tmp/ok.tsv"
printf '0-0 1-1\n0-0\000 1-1\n' >"$tmp/nul.aln"
refused "merge, a NUL in an alignments file" \
  "xliffmt: $tmp/nul.aln:2: a NUL byte at byte 4" \
  "$x" merge "$tmp/d.xlf" --translations "$tmp/ok.tsv" \
  --alignments "$tmp/nul.aln"
within "merge, no NUL" 0 20 300 "$x" merge "$tmp/d.xlf" --translations \
  "$tmp/ok.tsv" -o "$tmp/out.xlf" -q
check "merge, no NUL: the translations" grep -q \
  '>Hola mundo.</target>.*$' "$tmp/out.xlf"

# --- A JSON line with "text" and "translation", or a member twice.
printf '%s\n' '{"id":"u1#0","translation":"Hola.","text":"Hello world."}' \
  '{"id":"u2#0","text":"Second one.","translation":"Segundo."}' \
  >"$tmp/both.jsonl"
within "merge, \"translation\" and \"text\"" 0 20 300 "$x" merge "$tmp/d.xlf" \
  --translations "$tmp/both.jsonl" -o "$tmp/out.xlf" -q
check "merge, \"translation\" and \"text\": the translations" grep -q \
  '>Hola.</target>.*$' "$tmp/out.xlf"
check "merge, \"translation\" and \"text\": the second" grep -q \
  '>Segundo.</target>.*$' "$tmp/out.xlf"
for m in id text translation; do
  printf '{"id":"u1#0","%s":"u2#0","text":"Hola.","translation":"Uno."}\n' \
    "$m" >"$tmp/twice.jsonl"
  printf '{"id":"u2#0","text":"Segundo."}\n' >>"$tmp/twice.jsonl"
  refused "merge, \"$m\" twice in a JSON line" \
    "xliffmt: $tmp/twice.jsonl:1: \"$m\" given twice" \
    "$x" merge "$tmp/d.xlf" --translations "$tmp/twice.jsonl"
done

finish
