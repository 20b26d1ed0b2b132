#!/bin/sh
# test_serve_round17.sh: one client must not stall the server for the
# others. A client that fills the queue with slow requests (ten at once,
# an engine of 1 s a line, room for eight) leaves no other client
# without room: a request from another address takes the place of the
# first client's newest one waiting (503, as a full queue answers), and
# is run as soon as a worker is free, not after all of the first
# client's. Sixty requests whose clients leave while they wait are not
# run: the next client's is answered at once. Uploads beyond the room
# for documents are refused at their headers, not read into memory. The
# documents of two addresses are translated in turns.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../hostile/lib.sh"
cli_setup serve-round17
. "$(dirname "$0")/lib.sh"

# An engine of 1 s a line.
cat >"$tmp/slow.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  sleep 1
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/slow.sh"

# wait_for FIELD N: /health says FIELD is N (within 10 s).
wait_for() {
  n=0
  while [ $n -lt 100 ]; do
    curl -s --max-time 5 "$url/health" | grep -q "\"$1\":$2[,}]" && return 0
    sleep 0.1
    n=$((n + 1))
  done
  return 1
}
# want DESC GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"
    echo "    expected: $3"
    echo "    got:      $2"
  fi
}
full='{"message":"too many requests waiting; try again"}'

# --- One address fills the queue: another still gets its turn ---------------
serve_start fair --mt "cmd:$tmp/slow.sh" -s en -t es --threads 2 --queue 6 \
  --access-log "$tmp/access.log" || exit 1
apids=
for k in 1 2 3 4 5 6 7 8 9 10; do
  curl -s -o "$tmp/a$k.out" -w '%{http_code}' --max-time 60 \
    "$url/v2/translate" -d "text=Slow $k" -d target_lang=ES >"$tmp/a$k.status" &
  apids="$apids $!"
done
wait_for queued 6 || fail "the first client's requests queued"
within "another address: answered in time" 0 30 256 \
  curl -s --interface 127.0.0.2 --max-time 40 -o "$tmp/b.body" \
  -w '%{http_code}' "$url/v2/translate" -d text=Hello -d target_lang=ES
want "another address: not refused, translated" \
  "$(cat "$tmp/out") $(cat "$tmp/b.body")" \
  '200 {"translations":[{"detected_source_language":"EN","text":"ES Hello"}]}'
wait $apids
ok=0 refused=0
for k in 1 2 3 4 5 6 7 8 9 10; do
  case "$(cat "$tmp/a$k.status") $(cat "$tmp/a$k.out")" in
  "200 {\"translations\":[{\"detected_source_language\":\"EN\",\"text\":\"ES Slow $k\"}]}") ok=$((ok + 1)) ;;
  "503 $full") refused=$((refused + 1)) ;;
  esac
done
want "the first client: seven answered, three refused" "$ok $refused" "7 3"
# Run when a worker is first free, not after the six waiting before it:
# among the first four answered.
order=$(grep 'POST /v2/translate 200 ' "$tmp/access.log" | cut -d' ' -f2 | grep -n '^127\.0\.0\.2$')
case $order in
[1-4]:*) pass "another address: run before the first client's waiting ($order)" ;;
*) fail "another address: run before the first client's waiting ($order)"
  sed 's/^/    /' "$tmp/access.log"
  ;;
esac
ask --max-time 5 "$url/metrics"
want "/metrics: the requests counted" \
  "$(grep '^xliffmt_serve_requests_total{path="/v2/translate"' "$tmp/body")" \
  'xliffmt_serve_requests_total{path="/v2/translate",status="503"} 3
xliffmt_serve_requests_total{path="/v2/translate",status="200"} 8'
expect "after it: /health idle" 200 \
  '{"status":"ok","backend":"cmd:'"$tmp"'/slow.sh","workers":2,"busy":0,"queued":0}' \
  --max-time 5 "$url/health"
serve_stop
want "exit 0" "$rc" 0

# --- Sixty requests whose clients leave while they wait -----------------------
# Each was run (its engine asked, then interrupted when the sweep saw its
# client gone) before the next client's: 15 s with one worker. An engine
# slow on those texts only.
cat >"$tmp/left.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  case $line in Left*) sleep 1 ;; esac
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/left.sh"
if command -v python3 >/dev/null; then
  serve_start left --mt "cmd:$tmp/left.sh" -s en -t es --threads 1 || exit 1
  python3 - "$port" 60 <<'EOD'
import socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
for i in range(n):
    body = ("text=Left+%d.&target_lang=ES" % i).encode()
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"POST /v2/translate HTTP/1.1\r\nHost: x\r\nContent-Type: "
              b"application/x-www-form-urlencoded\r\nContent-Length: %d"
              b"\r\n\r\n%s" % (len(body), body))
    socks.append(s)
time.sleep(0.3)
for s in socks:
    s.close()
EOD
  within "after they left: a request answered in time" 0 20 256 \
    curl -s --max-time 30 -o "$tmp/b.body" -w '%{http_code}' \
    "$url/v2/translate" -d text=Hello -d target_lang=ES
  want "after they left: translated" "$(cat "$tmp/out") $(cat "$tmp/b.body")" \
    '200 {"translations":[{"detected_source_language":"EN","text":"ES Hello"}]}'
  check "after they left: not run first ($elapsed_ms ms)" [ "$elapsed_ms" -lt 3000 ]
  ask --max-time 5 "$url/metrics"
  want "/metrics: sixty gone, one answered, sixty runs cancelled" \
    "$(grep '^xliffmt_serve_requests_total{path="/v2/translate"\|^xliffmt_serve_runs_cancelled_total' "$tmp/body")" \
    'xliffmt_serve_requests_total{path="/v2/translate",status="499"} 60
xliffmt_serve_requests_total{path="/v2/translate",status="200"} 1
xliffmt_serve_runs_cancelled_total 60'
  serve_stop
  want "exit 0" "$rc" 0
else
  echo "# python3 missing: clients that leave are not tried"
fi

# --- Thirty uploads at once, their bodies held back -------------------------
# Each body (4 MB of the 10 MB a document may have) was read into memory
# whatever the room: 512 connections could make the server hold 5 GB.
# With room for four documents, the others are refused at their headers.
if command -v python3 >/dev/null; then
  serve_start uploads --mt pseudo -s en -t es --max-documents 4 \
    --document-dir "$tmp" || exit 1
  within "thirty uploads held back" 0 60 256 python3 \
    "$(dirname "$0")/hostile_clients.py" held "$port" 30 \
    4000000 /v2/document "multipart/form-data; boundary=B"
  want "thirty uploads: four read, the others 429 at once" "$(cat "$tmp/out")" \
    "429:26 none:4"
  if [ -z "${XMT_SANITIZED:-}" ]; then
    hwm=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$pid/status")
    check "thirty uploads: the server's memory bounded (${hwm} kB)" \
      [ "${hwm:-80000}" -lt 80000 ]
  fi
  printf '<p>One.</p>' >"$tmp/one.html"
  n=0
  while [ $n -lt 50 ]; do # the held uploads' connections seen closed
    ask --max-time 5 "$url/v2/document" -F "file=@$tmp/one.html" \
      -F target_lang=ES
    [ "$status" = 429 ] || break
    sleep 0.1
    n=$((n + 1))
  done
  check "after them: an upload taken ($status)" [ "$status" = 200 ]
  # Downloaded, so that the stop has nothing to wait for.
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
  n=0
  while [ $n -lt 100 ]; do
    ask --max-time 5 "$url/v2/document/$id/result" -d "document_key=$key"
    [ "$status" = 503 ] || break
    sleep 0.1
    n=$((n + 1))
  done
  check "after them: the document downloaded ($status)" [ "$status" = 200 ]
  serve_stop
  want "exit 0" "$rc" 0
else
  echo "# python3 missing: uploads held back are not tried"
fi

# --- Documents: one address's three, then another's one ----------------------
# The document thread took them in the order of their upload: the other
# address's one waited for all three. Now the addresses take turns.
fx=$(cd "$(dirname "$0")/../fixtures/serve-document" && pwd)
cat >"$tmp/slowdoc.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  sleep 0.5
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/slowdoc.sh"
# upload ARGS...: POST /v2/document of notes.xlf, EN to ES; its id and
# key in $id and $key.
upload() {
  ask --max-time 10 "$@" "$url/v2/document" -F "file=@$fx/notes.xlf" \
    -F source_lang=EN -F target_lang=ES
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
}
# state ID KEY ARGS...: the status word of document ID.
state() {
  sid=$1 skey=$2
  shift 2
  ask --max-time 5 "$@" "$url/v2/document/$sid" -d "document_key=$skey"
  printf '%s' "$body" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p'
}
# One document thread: the order is the turns' alone.
serve_start docs --mt "cmd:$tmp/slowdoc.sh" -s en-US -t es-ES \
  --document-threads 1 --document-dir "$tmp" --drain-timeout 1 || exit 1
for k in 1 2 3; do
  upload
  eval "id$k=\$id key$k=\$key"
done
upload --interface 127.0.0.2
n=0
while [ $n -lt 300 ] && [ "$(state "$id" "$key" --interface 127.0.0.2)" != done ]; do
  sleep 0.1
  n=$((n + 1))
done
want "another address's document done" "$(state "$id" "$key" --interface 127.0.0.2)" done
want "meanwhile the first address's last one still waits" \
  "$(state "$id3" "$key3")" queued
kill -TERM "$pid"
stopped=0
wait "$pid" || stopped=$?
want "stopped with the documents left: exit 3" "$stopped" 3

finish
