#!/bin/sh
# test_hostile_signals.sh: SIGINT and SIGTERM end a run within a second
# wherever it is: training the aligner on a 15,000-word unit, waiting for
# an engine that takes 30 s a line, or waiting for a cache another
# process keeps locked (which is waited for a few
# seconds at most, then the run goes on without it). No output is
# written, the exit status is 130 or 143, and no engine is left running.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-signals
x=$XLIFFMT

# A unit of 15,000 words without a full stop, and a code at its end.
awk 'BEGIN {
  split("alpha beta gamma delta house river green table stone light", w)
  srand(7)
  printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  printf "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  printf "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n"
  printf "<trans-unit id=\"1\"><source>"
  for (i = 0; i < 15000; i++) printf "%s ", w[int(rand() * 10) + 1]
  printf "<x id=\"1\"/>end</source></trans-unit>\n</body></file></xliff>\n"
}' >"$tmp/long.xlf"
cat >"$tmp/engine.sh" <<'EOD'
#!/bin/sh
exec sed -u 's/a/A/g'
EOD
chmod +x "$tmp/engine.sh"
eng="--mt cmd:$tmp/engine.sh"

# signal_after NAME SIGNAL DELAY WANT ARGS...: runs xliffmt ARGS, sends
# SIGNAL after DELAY seconds and checks it ends within a second with
# status WANT and no output.
signal_after() {
  name=$1 sig=$2 delay=$3 want=$4
  shift 4
  rm -f "$tmp/sig.xlf"
  "$x" "$@" -o "$tmp/sig.xlf" -q 2>"$tmp/err" &
  pid=$!
  sleep "$delay"
  t0=$(date +%s%N)
  kill "-$sig" "$pid"
  # a second, or five under sanitizers
  n=0
  while kill -0 "$pid" 2>/dev/null && [ "$n" -lt $((20 * time_factor)) ]; do
    sleep 0.05
    n=$((n + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    fail "$name: still running a second after SIG$sig"
    kill -KILL "$pid"
    wait "$pid"
    return
  fi
  wait "$pid"
  got=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  check "$name: ended $ms ms after SIG$sig with status $got" test "$got" -eq "$want"
  check "$name: no output" test ! -e "$tmp/sig.xlf"
  check "$name: no temporary file left" \
    test -z "$(find "$tmp" -name 'sig.xlf.tmp*')"
}

# The aligner trains for several seconds on the long unit.
signal_after "aligning" TERM 1 143 translate "$tmp/long.xlf" $eng
signal_after "aligning" INT 1 130 translate "$tmp/long.xlf" $eng
check "no engine left" \
  sh -c "! pgrep -f '[${tmp%"${tmp#?}"}]${tmp#?}/engine.sh' >/dev/null"

# An engine that takes 30 s a line: the run does not wait for it.
cat >"$tmp/hang.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do sleep 30; printf '%s\n' "$line"; done
EOD
chmod +x "$tmp/hang.sh"
signal_after "waiting for the engine" INT 1 130 translate "$tmp/long.xlf" \
  --mt "cmd:$tmp/hang.sh"
sleep 0.2
check "no hung engine left" \
  sh -c "! pgrep -f '[${tmp%"${tmp#?}"}]${tmp#?}/hang.sh' >/dev/null"

# Without a signal the long unit is translated, in bounded time and memory.
within "the long unit translated" 0 60 600 \
  "$x" translate "$tmp/long.xlf" -o "$tmp/long.es.xlf" $eng -q
check "its code kept" test "$(grep -o '<x id="1"/>' "$tmp/long.es.xlf" | wc -l)" -eq 2

# A cache another process keeps locked.
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "# sqlite3 not installed: the cache lock checks skipped"
  finish
fi
cat >"$tmp/short.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="1"><source>The cat sleeps.</source></trans-unit>
<trans-unit id="2"><source>A dog barks.</source></trans-unit>
</body></file></xliff>
EOD
for mode in wal delete; do
  rm -f "$tmp"/c.db*
  sqlite3 "$tmp/c.db" "PRAGMA journal_mode=$mode;" >/dev/null
  # the lock holder: an exclusive transaction kept for 30 s
  { printf 'BEGIN EXCLUSIVE;\nCREATE TABLE IF NOT EXISTS xliffmt_hold (x);\n'
    sleep 30; printf 'COMMIT;\n'; } | sqlite3 "$tmp/c.db" &
  holder=$!
  sleep 0.5
  within "$mode cache locked: the run goes on" 0 15 500 \
    "$x" translate "$tmp/short.xlf" -o "$tmp/locked.xlf" $eng \
    --cache "sqlite:$tmp/c.db"
  check "$mode cache locked: 2 targets" \
    test "$(grep -c '<target' "$tmp/locked.xlf")" -eq 2
  signal_after "$mode cache locked" TERM 0.3 143 translate "$tmp/short.xlf" \
    $eng --cache "sqlite:$tmp/c.db"
  pkill -P "$holder" sleep 2>/dev/null
  kill "$holder" 2>/dev/null
  wait "$holder" 2>/dev/null
done

finish
