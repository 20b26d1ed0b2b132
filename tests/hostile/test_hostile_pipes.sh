#!/bin/sh
# test_hostile_pipes.sh: a closed pipe is a failure told, not a silent
# death by SIGPIPE. Standard output into a pipe nobody reads: translate
# (default and -o -), extract, check and report exit 2 with one message
# naming standard output, and translate's --report is still written
# ("failed"). Standard error into such a pipe loses only the messages:
# translate and batch write their outputs and reports, exit 0, and batch
# leaves no document listed as incomplete. A pipe given by name as the
# document is refused (exit 1, no output), not read with its first bytes
# lost; on standard input it is translated.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-pipes
x=$XLIFFMT

doc "$tmp/d.xlf" "The cat sleeps." "The dog barks."
printf '<html lang="en"><body><p>The cat <b>sleeps</b>.</p></body></html>\n' \
  >"$tmp/p.html"
closed="xliffmt: standard output: cannot write: Broken pipe"

# closed FD CMD...: runs CMD with FD (1 or 2) on a pipe whose reading end
# is closed before CMD starts (a FIFO opened read-write, then write-only,
# the read-write end closed), the other stream in $tmp/out or $tmp/err,
# within 20 s; sets $status.
closed() {
  which=$1
  shift
  rm -f "$tmp/fifo"
  mkfifo "$tmp/fifo" || exit 99
  exec 4<>"$tmp/fifo" 5>"$tmp/fifo"
  exec 4<&-
  if [ "$which" = 1 ]; then
    timeout -s KILL 20 "$@" >&5 2>"$tmp/err"
  else
    timeout -s KILL 20 "$@" >"$tmp/out" 2>&5
  fi
  status=$?
  exec 5>&-
}
# told DESC: exit 2 and the one message.
told() {
  check "$1: exit 2, not killed by SIGPIPE (got $status)" test "$status" -eq 2
  check "$1: says standard output cannot be written" \
    test "$(cat "$tmp/err")" = "$closed"
}

# --- Standard output closed.
closed 1 "$x" translate "$tmp/d.xlf" --mt pseudo -q --report "$tmp/r.json"
told "translate into a closed pipe"
check "translate into a closed pipe: the report says failed" \
  grep -q '^{"input":"[^"]*d.xlf","backend":"pseudo","status":"failed",' \
  "$tmp/r.json"
closed 1 "$x" translate "$tmp/d.xlf" -o - --mt identity -q
told "translate -o - into a closed pipe"
closed 1 "$x" extract "$tmp/p.html" -t es -q
told "extract into a closed pipe"
closed 1 "$x" check "$tmp/d.xlf" --json
told "check --json into a closed pipe"
closed 1 "$x" report "$tmp/d.xlf" -q
told "report into a closed pipe"

# --- A pipe given by name (a FIFO, a shell's <(...)) would be read twice,
# for its format and then for its document, the first bytes lost: it is
# refused, saying to give it on standard input, where it is read once.
rm -f "$tmp/in.fifo"
mkfifo "$tmp/in.fifo" || exit 99
cat "$tmp/d.xlf" >"$tmp/in.fifo" 2>/dev/null &
feeder=$!
timeout -s KILL 20 "$x" translate "$tmp/in.fifo" --mt identity -q \
  -o "$tmp/f.xlf" 2>"$tmp/err"
status=$?
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
check "a named pipe as input: exit 1 (got $status)" test "$status" -eq 1
check "a named pipe as input: says to give it on standard input" \
  test "$(cat "$tmp/err")" = "xliffmt: $tmp/in.fifo: a pipe or a device \
cannot be read twice: give the document on standard input (-)"
check "a named pipe as input: no output" test ! -e "$tmp/f.xlf"
"$x" translate "$tmp/d.xlf" --mt identity -q -o "$tmp/want-id.xlf" || exit 99
cat "$tmp/d.xlf" | "$x" translate - --mt identity -q -o "$tmp/g.xlf"
check "a pipe on standard input: exit 0 (got $?)" test "$?" -eq 0
check "a pipe on standard input: the document's translation" \
  cmp -s "$tmp/g.xlf" "$tmp/want-id.xlf"

# --- Standard error closed: the files are written all the same.
"$x" translate "$tmp/d.xlf" -o "$tmp/want.xlf" --mt pseudo -q || exit 99
closed 2 "$x" translate "$tmp/d.xlf" -o "$tmp/got.xlf" --mt pseudo \
  --report "$tmp/r2.json"
check "translate, stderr closed: exit 0 (got $status)" test "$status" -eq 0
check "translate, stderr closed: the output" cmp -s "$tmp/got.xlf" \
  "$tmp/want.xlf"
check "translate, stderr closed: the report says ok" \
  grep -q '"status":"ok",' "$tmp/r2.json"
mkdir "$tmp/in"
cp "$tmp/d.xlf" "$tmp/in/a.xlf"
cp "$tmp/d.xlf" "$tmp/in/b.xlf"
closed 2 "$x" batch "$tmp/in" -o "$tmp/tree" --mt pseudo \
  --report "$tmp/r3.json"
check "batch, stderr closed: exit 0 (got $status)" test "$status" -eq 0
check "batch, stderr closed: a.xlf" cmp -s "$tmp/tree/a.xlf" "$tmp/want.xlf"
check "batch, stderr closed: b.xlf" cmp -s "$tmp/tree/b.xlf" "$tmp/want.xlf"
check "batch, stderr closed: the report counts 2 translated" \
  grep -q '"totals":{"documents":2,"translated_documents":2,' "$tmp/r3.json"
check "batch, stderr closed: nothing listed as incomplete" \
  test -z "$(find "$tmp/tree/.xliffmt-incomplete.d" -type f)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
