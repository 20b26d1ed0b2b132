#!/bin/sh
# test_hostile_cache_wait.sh: a PostgreSQL cache never makes a run wait
# without end. On a private server (a Unix socket in the scratch folder):
# a table another session keeps locked, at the start or during the run,
# is waited for 3 s (lock_timeout, unless the connection's options set
# their own), then the run goes on without the cache, with one warning
# naming it; a server that stops answering, before or after connecting,
# or a TCP listener that never answers, ends the wait (connect_timeout;
# statement_timeout and a grace); SIGINT and SIGTERM end any of these
# waits within a second with status 130 or 143 and no output.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-cache-wait
x=$XLIFFMT

. "$(dirname "$0")/../cli/pg.sh"
stopped= # processes of the server stopped by a case, for the cleanup
listener=
cleanup() {
  [ -z "$stopped" ] || kill -CONT $stopped 2>/dev/null
  [ -z "$listener" ] || kill "$listener" 2>/dev/null
  pg_stop
  rm -rf "$tmp"
}
trap cleanup EXIT
pg_start "" tm run gone
# How messages name a cache: libpq's options in its order, no password.
label() { # DBNAME [CONNECT_TIMEOUT [OPTIONS]]
  echo "postgresql:user=xliffmt${2:+ connect_timeout=$2} dbname=$1 host=$pg${3:+ options='$3'}"
}

cache_fixtures
# A document none of the other runs have put in the cache.
sed 's/The red car/The green car/; s/The blue car/The old car/' \
  "$tmp/doc.xlf" >"$tmp/doc2.xlf"

# signal_during NAME SIGNAL DELAY WANT ARGS...: runs xliffmt ARGS (whose
# -o is $tmp/sig.xlf), sends SIGNAL after DELAY seconds and checks it
# ends within a second with status WANT and no output.
signal_during() {
  name=$1 sig=$2 delay=$3 want=$4
  shift 4
  rm -f "$tmp/sig.xlf"
  "$x" "$@" 2>"$tmp/sig.err" &
  pid=$!
  sleep "$delay"
  kill "-$sig" "$pid"
  t0=$(date +%s%N)
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
  check "$name: ended $ms ms after SIG$sig with status $got" \
    test "$got" -eq "$want"
  check "$name: no output" test ! -e "$tmp/sig.xlf"
}

# hold_lock DB: a session that keeps DB's cache table locked (ACCESS
# EXCLUSIVE, as a migration or a VACUUM FULL would) until release_lock.
hold_lock() {
  PGAPPNAME=locker "$pgbin/psql" -X -q -h "$pg" -U xliffmt -d "$1" -c \
    "BEGIN; LOCK TABLE xliffmt_cache IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(300)" \
    >/dev/null 2>&1 &
  locker=$!
  n=0
  until [ "$(psql "$1" "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'locker' AND l.granted AND l.mode = 'AccessExclusiveLock' AND l.relation = 'xliffmt_cache'::regclass")" = 1 ]; do
    n=$((n + 1))
    [ "$n" -lt 300 ] || {
      fail "the lock was never granted"
      return 1
    }
    sleep 0.1
  done
}
release_lock() {
  psql postgres "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null
  wait "$locker" 2>/dev/null
}

within "a first run fills the cache" 0 30 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/1.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm"

# The table locked before the run: 3 s, then the run goes on without the
# cache and asks the engine.
hold_lock tm
: >"$tmp/sent.log"
within "a cache table another session keeps locked" 0 15 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/2.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm"
check "one warning that names the cache" test "$(cat "$tmp/err")" = \
  "xliffmt: warning: cache $(label tm) stayed locked by another session for 3 s (lock_timeout): going on without it"
check "waited the 3 s, not less ($elapsed_ms ms)" test "$elapsed_ms" -ge 2900
check "the engine asked instead" test "$(wc -l <"$tmp/sent.log")" -eq 5
check "the same translation" cmp -s "$tmp/1.xlf" "$tmp/2.xlf"

# The connection's own lock_timeout wins over xliffmt's.
within "its own lock_timeout (1 s)" 0 15 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/3.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm options='-c lock_timeout=1s'"
check "is the one waited for ($elapsed_ms ms)" test "$elapsed_ms" -lt 2900
check "and named" test "$(cat "$tmp/err")" = \
  "xliffmt: warning: cache $(label tm "" "-c lock_timeout=1s") stayed locked by another session for 1 s (lock_timeout): going on without it"

# A long lock_timeout of the user's: a signal still ends the wait.
signal_during "waiting 60 s for the lock" INT 1 130 translate \
  "$tmp/doc.xlf" -o "$tmp/sig.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm options='-c lock_timeout=60s'"
signal_during "waiting 60 s for the lock" TERM 1 143 translate \
  "$tmp/doc.xlf" -o "$tmp/sig.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm options='-c lock_timeout=60s'"
release_lock

# The table locked during the run (by the engine, when asked its first
# sentence): the answers' commit waits 3 s, then the run goes on.
cat >"$tmp/lock.sh" <<EOD
#!/bin/sh
IFS= read -r line
PGAPPNAME=locker "$pgbin/psql" -X -q -h "$pg" -U xliffmt -d run -c \\
  "BEGIN; LOCK TABLE xliffmt_cache IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(300)" \\
  >/dev/null 2>&1 </dev/null &
until [ "\$("$pgbin/psql" -X -q -A -t -h "$pg" -U xliffmt -d run -c "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'locker' AND l.granted AND l.relation = 'xliffmt_cache'::regclass")" = 1 ]; do
  sleep 0.1
done
printf 'ES %s\\n' "\$line"
exec "$tmp/engine.sh"
EOD
chmod +x "$tmp/lock.sh"
within "a fresh cache" 0 30 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/4.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=run"
within "the table locked during the run" 0 30 400 \
  "$x" translate "$tmp/doc2.xlf" -o "$tmp/5.xlf" --mt "cmd:$tmp/lock.sh" -q \
  --cache "postgresql:$conn dbname=run"
check "one warning that names the cache" test "$(cat "$tmp/err")" = \
  "xliffmt: warning: the cache $(label run) failed: locked by another session for 3 s (lock_timeout); going on without it"
check "translated anyway" grep -q 'ES The green car' "$tmp/5.xlf"
psql postgres "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null

# A server that stops answering once connected (its process stopped, as
# a host that hangs or a network cut): the wait ends after the session's
# statement_timeout (1 s here) and a grace of 5 s.
cat >"$tmp/stop.sh" <<EOD
#!/bin/sh
IFS= read -r line
pid=\$("$pgbin/psql" -X -q -A -t -h "$pg" -U xliffmt -d postgres -c \\
  "SELECT pid FROM pg_stat_activity WHERE application_name = 'xliffmt' AND datname = 'gone'")
echo "\$pid" >"$tmp/backend.pid"
kill -STOP \$pid
printf 'ES %s\\n' "\$line"
exec "$tmp/engine.sh"
EOD
chmod +x "$tmp/stop.sh"
within "a server that stops answering during the run" 0 30 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/6.xlf" --mt "cmd:$tmp/stop.sh" -q \
  --cache "postgresql:$conn dbname=gone options='-c statement_timeout=1s'"
[ -s "$tmp/backend.pid" ] && stopped=$(cat "$tmp/backend.pid")
check "one warning that names the cache" test "$(cat "$tmp/err")" = \
  "xliffmt: warning: the cache $(label gone "" "-c statement_timeout=1s") failed: no answer from the server in 6 s (its statement_timeout, 1 s, and 5 s more); going on without it"
check "translated anyway" cmp -s "$tmp/1.xlf" "$tmp/6.xlf"
[ -z "$stopped" ] || kill -CONT $stopped
stopped=

# A server that accepts connections and never answers (its postmaster
# stopped: the socket still accepts): connect_timeout, the string's if it
# gives one.
postmaster=$(head -n 1 "$pg/data/postmaster.pid")
kill -STOP "$postmaster"
stopped=$postmaster
within "a server that never answers (connect_timeout=2)" 1 15 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/7.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm connect_timeout=2"
check "says so" test "$(cat "$tmp/err")" = \
  "xliffmt: $(label tm 2): cache: cannot connect: no answer from the server in 2 s (connect_timeout)"
check "after the 2 s ($elapsed_ms ms)" test "$elapsed_ms" -ge 1900
check "no output then" test ! -e "$tmp/7.xlf"
signal_during "waiting for a server that never answers" TERM 1 143 \
  translate "$tmp/doc.xlf" -o "$tmp/sig.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm"
signal_during "waiting for a server that never answers" INT 1 130 \
  translate "$tmp/doc.xlf" -o "$tmp/sig.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=tm"
kill -CONT "$postmaster"
stopped=

# A TCP listener that accepts and never answers: xliffmt's own
# connect_timeout, 10 s.
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept())
' >"$tmp/port" &
  listener=$!
  n=0
  while [ ! -s "$tmp/port" ] && [ "$n" -lt 300 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  port=$(cat "$tmp/port")
  within "a TCP host that never answers" 1 20 400 \
    "$x" translate "$tmp/doc.xlf" -o "$tmp/8.xlf" \
    --mt "cmd:$tmp/engine.sh" -q \
    --cache "postgresql://xliffmt@127.0.0.1:$port/tm"
  check "says so" test "$(cat "$tmp/err")" = \
    "xliffmt: postgresql:user=xliffmt dbname=tm host=127.0.0.1 port=$port: cache: cannot connect: no answer from the server in 10 s (connect_timeout)"
  check "after the 10 s ($elapsed_ms ms)" test "$elapsed_ms" -ge 9900
  signal_during "waiting for the TCP host" TERM 1 143 translate \
    "$tmp/doc.xlf" -o "$tmp/sig.xlf" --mt "cmd:$tmp/engine.sh" -q \
    --cache "postgresql://xliffmt@127.0.0.1:$port/tm"
  kill "$listener"
  listener=
else
  echo "SKIP: a TCP host that never answers (no python3 to be one)"
fi

finish
