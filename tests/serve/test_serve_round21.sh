#!/bin/sh
# test_serve_round21.sh: no request stalls the server, no answer lies.
# Text requests' bodies (up to --max-body each) were read in full before
# the queue's room was looked at: forty connections sending 1 MB each
# made the server hold 40 MB for requests it would refuse. They are now
# refused at their headers (503, Retry-After) when the queue, with the
# bodies being read, has no room. /health said ok while a document
# thread's engine had failed, once another thread's document went
# through: each document thread now has its own state, as a worker has.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../hostile/lib.sh"
cli_setup serve-round21
. "$(dirname "$0")/lib.sh"

# want DESC GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"
    echo "    expected: $3"
    echo "    got:      $2"
  fi
}

# --- Forty text bodies of 1 MB at once, held back ---------------------------
# Room for three (one worker, --queue 2): the others are refused at their
# headers, their bodies never read into memory.
if command -v python3 >/dev/null; then
  serve_start bodies --mt pseudo -s en -t es --threads 1 --queue 2 || exit 1
  if echo 5 >"/proc/$pid/clear_refs" 2>/dev/null; then
    within "forty bodies held back" 0 60 256 python3 - "$port" "$pid" 40 \
      1000000 "$(dirname "$0")" <<'EOD'
import http.client, sys
port, pid, n, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
import hostile_clients
def vm(field):
    return int([l.split()[1] for l in open("/proc/%s/status" % pid)
                if l.startswith(field + ":")][0])
base = vm("VmRSS")
socks, got = hostile_clients.held_bodies(
    port, n, size, "/v2/translate", "application/x-www-form-urlencoded", 1,
    prefix=b"text=", fill=b"a")
statuses = []
for g in got:
    status = hostile_clients.status_of(g)
    if status == "503" and b"\r\nRetry-After: 1\r\n" not in g:
        status = "503-without-retry-after"
    statuses.append(status)
grown = vm("VmHWM") - base
# the room held by one address's bodies: another address still has its turn
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                               source_address=("127.0.0.2", 0))
c.request("POST", "/v2/translate", b"text=Hi&target_lang=ES",
          {"Content-Type": "application/x-www-form-urlencoded"})
r = c.getresponse()
other = "%d:%s" % (r.status, r.read().decode())
print(hostile_clients.counts(statuses))
print(grown)
print(other)
for s in socks:
    s.close()
EOD
    want "forty bodies: three read, the others 503 at their headers" \
      "$(sed -n 1p "$tmp/out")" "503:37 none:3"
    want "forty bodies: another address answered meanwhile" \
      "$(sed -n 3p "$tmp/out")" \
      '200:{"translations":[{"detected_source_language":"EN","text":"[Hí ~]"}]}'
    if [ -z "${XMT_SANITIZED:-}" ]; then
      grown=$(sed -n 2p "$tmp/out")
      check "forty bodies: the server's memory grew little (${grown:-?} kB)" \
        [ "${grown:-999999}" -lt 12000 ]
    fi
  else
    echo "# /proc/PID/clear_refs not writable: the bodies are not tried"
  fi
  # The bodies' connections closed: their room is the next requests'.
  n=0
  while [ $n -lt 50 ]; do
    ask --max-time 5 "$url/v2/translate" -d text=Hello -d target_lang=ES
    [ "$status" = 503 ] || break
    sleep 0.1
    n=$((n + 1))
  done
  want "after them: translated" "$status $body" \
    '200 {"translations":[{"detected_source_language":"EN","text":"[Hélló ~~]"}]}'
  # Three addresses hold back a body each, filling the room without
  # holding half of it: a fourth address still has its turn.
  within "three addresses' bodies held back" 0 30 256 python3 - "$port" <<'EOD'
import http.client, socket, sys
port = int(sys.argv[1])
socks = []
for a in ("127.0.0.1", "127.0.0.3", "127.0.0.4"):
    s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                 source_address=(a, 0))
    s.sendall(b"POST /v2/translate HTTP/1.1\r\nHost: x\r\nContent-Type: "
              b"application/x-www-form-urlencoded\r\nContent-Length: 1000"
              b"\r\n\r\ntext=")
    socks.append(s)
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                               source_address=("127.0.0.2", 0))
c.request("POST", "/v2/translate", b"text=Hi&target_lang=ES",
          {"Content-Type": "application/x-www-form-urlencoded"})
r = c.getresponse()
print("%d:%s" % (r.status, r.read().decode()))
for s in socks:
    s.close()
EOD
  want "three addresses' bodies held back: a fourth answered" \
    "$(cat "$tmp/out")" \
    '200:{"translations":[{"detected_source_language":"EN","text":"[Hí ~]"}]}'
  serve_stop
  want "exit 0" "$rc" 0
else
  echo "# python3 missing: bodies held back are not tried"
fi

# --- /health: one document thread's failure, another's success -------------
# The document threads shared one state at each engine: a document that
# failed on one thread was forgotten when another thread's document went
# through, so that /health said ok (and stderr "recovered") while the
# thread whose engine failed had translated nothing since. Each thread
# now has its own state, as each worker has; a text translated by a
# worker says nothing of them either.
# The engine: 3 s then its exit on "Bad", 4 s on "Slow", else at once.
cat >"$tmp/eng.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  case $line in
  *Bad*) sleep 3; exit 1 ;;
  *Slow*) sleep 4 ;;
  esac
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/eng.sh"
mt="cmd:$tmp/eng.sh"
printf '<p>Bad one.</p>' >"$tmp/bad.html"
printf '<p>Slow one.</p>' >"$tmp/slow1.html"
printf '<p>Slow two.</p>' >"$tmp/slow2.html"
# upload FILE: POST /v2/document, EN to ES; its id and key in $id, $key.
upload() {
  ask --max-time 10 "$url/v2/document" -F "file=@$1" -F source_lang=EN \
    -F target_lang=ES
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
}
# poll.sh URL ID KEY: polls the status every 0.1 s until it is neither
# queued nor translating, then prints the answer.
cat >"$tmp/poll.sh" <<'EOD'
#!/bin/sh
while :; do
  a=$(curl -s --max-time 5 -w ' %{http_code}' "$1/v2/document/$2" \
    -d "document_key=$3")
  case $a in
  *'"status":"queued"'* | *'"status":"translating"'*) sleep 0.1 ;;
  *) printf '%s\n' "$a" | tr -d '\n'; exit 0 ;;
  esac
done
EOD
chmod +x "$tmp/poll.sh"
down_of() { # the engines_down gauge
  xcurl -s --max-time 5 "$url/metrics" |
    sed -n 's/^xliffmt_serve_engines_down //p'
}
serve_start health --mt "$mt" -s en -t es --threads 1 --document-threads 2 \
  --document-dir "$tmp" --drain-timeout 1 || exit 1
healthy='{"status":"ok","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
down='{"status":"degraded","reason":"engine '"$mt"': engine '"'$tmp/eng.sh'"' exited with status 1","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
# One thread: Bad (fails at 3 s), then Slow two (done at 7 s); the
# other: Slow one (done at 4 s).
upload "$tmp/bad.html"
bid=$id bkey=$key
upload "$tmp/slow1.html"
s1id=$id s1key=$key
upload "$tmp/slow2.html"
s2id=$id s2key=$key
within "the failing document: ended" 0 10 64 "$tmp/poll.sh" "$url" "$bid" \
  "$bkey"
case $(cat "$tmp/out") in
*'"status":"error"'*' 200') pass "the failing document: its status error" ;;
*) fail "the failing document: its status error ($(cat "$tmp/out"))" ;;
esac
expect "a text translated by the worker meanwhile" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"ES Hello"}]}' \
  --max-time 5 "$url/v2/translate" -d text=Hello -d target_lang=ES
expect "health with the document thread down, the worker up: degraded" 503 \
  "$down" --max-time 5 "$url/health"
within "the other thread's document: done" 0 10 64 "$tmp/poll.sh" "$url" \
  "$s1id" "$s1key"
want "the other thread's document: its status" "$(cat "$tmp/out")" \
  "{\"document_id\":\"$s1id\",\"status\":\"done\",\"billed_characters\":9} 200"
# Before: ok, as if the failed thread's engine had translated since.
expect "health after the other thread's success: still degraded" 503 \
  "$down" --max-time 5 "$url/health"
want "metrics: one document thread down" "$(down_of)" 1
ask --max-time 5 "$url/v2/document/$s2id" -d "document_key=$s2key"
want "the failed thread's next document: still translating" "$body" \
  "{\"document_id\":\"$s2id\",\"status\":\"translating\"}"
within "the failed thread's next document: done" 0 10 64 "$tmp/poll.sh" \
  "$url" "$s2id" "$s2key"
expect "health once that thread has translated: ok" 200 "$healthy" \
  --max-time 5 "$url/health"
want "metrics: none down" "$(down_of)" 0
lines() { grep "^xliffmt serve: engine " "$tmp/health.err"; }
want "stderr: the failure, then one recovery" "$(lines)" \
  "xliffmt serve: engine $mt: engine '$tmp/eng.sh' exited with status 1
xliffmt serve: engine $mt: recovered"
# Downloaded, so that the stop has nothing to wait for.
expect "the first translated: downloaded" 200 '<p>ES Slow one.</p>' \
  --max-time 5 "$url/v2/document/$s1id/result" -d "document_key=$s1key"
expect "the second translated: downloaded" 200 '<p>ES Slow two.</p>' \
  --max-time 5 "$url/v2/document/$s2id/result" -d "document_key=$s2key"
serve_stop
want "exit 0" "$rc" 0

finish
