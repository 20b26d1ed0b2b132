#!/bin/sh
# test_hostile_round20.sh: exit 0 means the output is right, and nothing
# the user gave is destroyed.
#   - an SQLite file holding a table xliffmt_cache of other columns, or a
#     cache of a newer cache format (PRAGMA user_version), given to
#     --cache: refused with a message saying so, exit 1, the file's bytes
#     as they were (it was switched to WAL mode, then failed with SQLite's
#     "no such column: used"); a new cache is written of format 1.
#   - a named pipe no program writes into, given as report's -x, as
#     --align-model or --aligner model:, as a line file of project, align,
#     evaluate or segment, as serve's --tls-cert, or left as batch's list
#     of incomplete documents: given up after 10 s, said so, exit 1 (each
#     waited without end; serve even past SIGTERM).
#   - extract of an XLIFF 1.2 document whose unit has a <sub> with text
#     inside a code: its segments listed with the sub's text (they were
#     listed without it, exit 0). (In round 20 they were left out, each
#     named, exit 3; since round 21 the sub's text is a line of its own,
#     as translate and merge translate it: test_hostile_round21.sh.) A
#     <sub> of white space is no matter.
#   - translate of an XLIFF 1.0 or 1.1 document: its targets, new or
#     filled in place, get a state and no state-qualifier, which only
#     XLIFF 1.2 defines (they got state-qualifier="mt-suggestion").
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round20
x=$XLIFFMT
doc "$tmp/two.xlf" 'Hello world.' 'Good bye.'

# --- A cache of another schema, or of a newer format.
if command -v sqlite3 >/dev/null 2>&1; then
  sqlite3 "$tmp/other.db" 'CREATE TABLE xliffmt_cache (key TEXT, value TEXT);
INSERT INTO xliffmt_cache VALUES ('"'a'"', '"'b'"');' || exit 99
  cp "$tmp/other.db" "$tmp/other.copy"
  within "translate, --cache a table xliffmt_cache of other columns" 1 20 \
    300 "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/other.db" -o "$tmp/o.xlf" -q
  said "translate, --cache a table xliffmt_cache of other columns" \
    "xliffmt: $tmp/other.db: cache: not an xliffmt cache: its table xliffmt_cache has other columns than a cache's (it is another program's, or of another xliffmt version; it is left as it is; give --cache another path)"
  unchanged "translate, --cache a table xliffmt_cache of other columns" \
    "$tmp/other.db" "$tmp/other.copy"
  check "translate, --cache a table xliffmt_cache of other columns: no output" \
    test ! -e "$tmp/o.xlf"
  within "translate, --cache a new file" 0 20 300 "$x" translate \
    "$tmp/two.xlf" --mt identity -t es --cache "sqlite:$tmp/new.db" \
    -o "$tmp/n.xlf" -q
  check "translate, --cache a new file: of cache format 1" \
    test "$(sqlite3 "$tmp/new.db" 'PRAGMA user_version')" = 1
  sqlite3 "$tmp/new.db" 'PRAGMA user_version = 2' || exit 99
  cp "$tmp/new.db" "$tmp/new.copy"
  within "translate, --cache a cache of a newer format" 1 20 300 \
    "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/new.db" -o "$tmp/o.xlf" -q
  said "translate, --cache a cache of a newer format" \
    "xliffmt: $tmp/new.db: cache: not a cache this version can use: it is of cache format 2, written by a newer xliffmt (this one knows format 1; it is left as it is; give --cache another path)"
  unchanged "translate, --cache a cache of a newer format" \
    "$tmp/new.db" "$tmp/new.copy"
  # A cache of format 0 (before the format was written): used.
  sqlite3 "$tmp/new.db" 'PRAGMA user_version = 0' || exit 99
  within "translate, --cache a cache of format 0" 0 20 300 \
    "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/new.db" -o "$tmp/o.xlf" -q
  check "translate, --cache a cache of format 0: written the same" \
    cmp -s "$tmp/n.xlf" "$tmp/o.xlf"
else
  echo "SKIP: a cache of another schema (no sqlite3 program)"
fi

# --- A named pipe nobody writes into, where files are read whole or by
# lines. The cases run at once, each under its own time limit.
mkfifo "$tmp/fifo" || exit 99
printf 'a b\n' >"$tmp/s.txt"
printf '0-0\n' >"$tmp/a.txt"
mkdir "$tmp/bo"
mkfifo "$tmp/bo/.xliffmt-incomplete" || exit 99
limit=$((25 * time_factor * $(load_factor)))
# piped NAME CMD...: CMD in the background, killed after $limit s.
piped() {
  name=$1
  shift
  (
    timeout -s KILL "$limit" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
  ) &
}
piped report "$x" report "$tmp/two.xlf" -x "$tmp/fifo" -o "$tmp/r.html" -q
piped seed "$x" translate "$tmp/two.xlf" --mt identity -t es \
  --align-model "$tmp/fifo" -o "$tmp/p1.xlf" -q
piped model "$x" translate "$tmp/two.xlf" --mt identity -t es \
  --aligner "model:$tmp/fifo" -o "$tmp/p2.xlf" -q
piped project "$x" project --source "$tmp/fifo" --target "$tmp/s.txt" \
  --alignment "$tmp/a.txt"
piped align "$x" align -i "$tmp/fifo"
piped evaluate "$x" evaluate --hypothesis "$tmp/s.txt" --reference "$tmp/fifo"
piped segment "$x" segment "$tmp/fifo"
piped batch "$x" batch "$tmp/two.xlf" -o "$tmp/bo" --mt identity -q
piped serve "$x" serve --mt identity --listen 127.0.0.1:0 \
  --tls-cert "$tmp/fifo" --tls-key "$tmp/fifo"
wait
pipe_said="a named pipe no program writes into (waited 10 s)"
for c in report:"$tmp/fifo: $pipe_said" \
  seed:"$tmp/fifo: word aligner model: $pipe_said" \
  model:"$tmp/fifo: word aligner model: $pipe_said" \
  project:"$tmp/fifo: $pipe_said" align:"$tmp/fifo: $pipe_said" \
  evaluate:"$tmp/fifo: $pipe_said" segment:"$tmp/fifo: $pipe_said" \
  batch:"$tmp/bo/.xliffmt-incomplete: $pipe_said" \
  serve:"$tmp/fifo: $pipe_said"; do
  name=${c%%:*}
  check "$name, a named pipe nobody writes into: exit 1" \
    test "$(cat "$tmp/$name.rc")" = 1
  check "$name, a named pipe nobody writes into: says so" \
    test "$(cat "$tmp/$name.err")" = "xliffmt: ${c#*:}"
done
check "translate --align-model, a named pipe: no output" \
  test ! -e "$tmp/p1.xlf" -a ! -e "$tmp/p2.xlf"
check "batch, a named pipe as its list: left as it is" \
  test -p "$tmp/bo/.xliffmt-incomplete"

# --- extract of a unit whose code holds a <sub> with text.
cat >"$tmp/sub.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="html"><body>
<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u2"><source>Plain text.</source></trans-unit>
<trans-unit id="u3"><source>Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</source><seg-source><mrk mtype="seg" mid="1">Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</mrk></seg-source></trans-unit>
<trans-unit id="u4"><source>See <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> here.</source></trans-unit>
</body></file></xliff>
EOD
for form in tsv jsonl; do
  within "extract --format $form, a <sub> with text in a code" 0 20 300 \
    "$x" extract "$tmp/sub.xlf" --format "$form" -o "$tmp/sub.$form" -q
done
check "extract --format tsv, a <sub> with text in a code: its lines" \
  test "$(sed 1d "$tmp/sub.tsv")" = "$(printf 'u1#0\tSee  here.\nu1#sub1\tA red car\nu2#0\tPlain text.\nu3#1\tRead this.\nu3#sub1\tThe full text\nu4#0\tSee  here.')"
check "extract --format jsonl, a <sub> with text in a code: its lines" \
  test "$(sed 1d "$tmp/sub.jsonl")" = '{"id":"u1#0","text":"See  here."}
{"id":"u1#sub1","text":"A red car"}
{"id":"u2#0","text":"Plain text."}
{"id":"u3#1","text":"Read this."}
{"id":"u3#sub1","text":"The full text"}
{"id":"u4#0","text":"See  here."}'

# --- XLIFF 1.0 and 1.1: no state-qualifier.
for v in 1.0 1.1 1.2; do
  ns=
  [ "$v" = 1.0 ] || ns=" xmlns=\"urn:oasis:names:tc:xliff:document:$v\""
  cat >"$tmp/v$v.xlf" <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="$v"$ns>
<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="u1"><source>Hello world.</source></trans-unit>
<trans-unit id="u3"><source>One. Two.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk></seg-source><target><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2"></mrk></target></trans-unit>
</body></file></xliff>
EOD
  within "translate, XLIFF $v" 0 20 300 "$x" translate "$tmp/v$v.xlf" \
    --mt identity -o "$tmp/v$v.out.xlf" -q
  q=
  [ "$v" = 1.2 ] && q=' state-qualifier="mt-suggestion"'
  check "translate, XLIFF $v: a new target's state" grep -q -x -F \
    "<trans-unit id=\"u1\"><source>Hello world.</source><target xml:lang=\"es\" state=\"needs-review-translation\"$q>Hello world.</target></trans-unit>" \
    "$tmp/v$v.out.xlf"
  check "translate, XLIFF $v: a target filled in place, its state" grep -q -F \
    "</seg-source><target state=\"needs-review-translation\"$q><mrk mtype=\"seg\" mid=\"1\">Uno.</mrk> <mrk mtype=\"seg\" mid=\"2\">Two.</mrk></target></trans-unit>" \
    "$tmp/v$v.out.xlf"
done

finish
