#!/bin/sh
# test_serve_round17.sh: one client must not stall the server for the
# others. A client that fills the queue with slow requests (ten at once,
# an engine of 1 s a line, room for eight) leaves no other client
# without room: a request from another address takes the place of the
# first client's newest one waiting (503, as a full queue answers), and
# is run as soon as a worker is free, not after all of the first
# client's.
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

finish
