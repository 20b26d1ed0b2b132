#!/bin/sh
# test_serve_limits.sh: xliffmt serve under the requests a server must
# refuse or survive: a body over --max-body (413, announced or chunked),
# no key or a wrong one with --auth-key-file (403, in each API's shape),
# a full queue (503 with Retry-After), markup that is not well-formed, text
# that is not UTF-8, deep nesting (400, and the server goes on), a client
# that sends half a request (closed after --connection-timeout), bodies
# that drip in (closed once they have taken --connection-timeout) and 300
# idle connections (closed after it) while other clients are answered, and
# SIGTERM during a slow translation (the request is answered, no new
# connection is taken, exit 0).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-limits
. "$(dirname "$0")/lib.sh"

json='Content-Type: application/json'

# --- Keys and the body limit -------------------------------------------------
printf '# keys of the test\nk1\n\nsecret two  \n' >"$tmp/keys"
serve_start keys --mt identity -s en -t es --max-body 64K \
  --auth-key-file "$tmp/keys" || exit 1
u=$url
head -c 70000 /dev/zero | tr '\0' a >"$tmp/big"
expect "body over --max-body: 413 (DeepL)" 413 \
  '{"message":"request body larger than 65536 bytes"}' \
  "$u/v2/translate" -H 'Authorization: DeepL-Auth-Key k1' \
  --data-binary "@$tmp/big"
expect "chunked body over --max-body: 413 (APy)" 413 \
  '{"status": "error", "code": 413, "message": "Request Entity Too Large", "explanation": "request body larger than 65536 bytes"}' \
  "$u/translate" -H 'Transfer-Encoding: chunked' --data-binary "@$tmp/big"
expect "no key: 403 (DeepL)" 403 \
  '{"message":"Authorization failed. Please supply a valid auth_key."}' \
  "$u/v2/translate" -d text=x -d target_lang=ES
expect "wrong key: 403 (DeepL)" 403 \
  '{"message":"Authorization failed. Please supply a valid auth_key."}' \
  "$u/v2/translate" -H 'Authorization: DeepL-Auth-Key k2' -d text=x \
  -d target_lang=ES
expect "key that a key begins with: 403" 403 \
  '{"message":"Authorization failed. Please supply a valid auth_key."}' \
  "$u/v2/translate" -d auth_key=k -d text=x -d target_lang=ES
expect "right key in the header" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"x"}]}' \
  "$u/v2/translate" -H 'Authorization: DeepL-Auth-Key k1' -d text=x \
  -d target_lang=ES
expect "right key as auth_key (spaces after it in the file dropped)" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"x"}]}' \
  "$u/v2/translate" --data-urlencode 'auth_key=secret two' -d text=x \
  -d target_lang=ES
expect "wrong key: 403 (APy)" 403 \
  '{"status": "error", "code": 403, "message": "Forbidden", "explanation": "Authorization failed. Please supply a valid auth_key."}' \
  "$u/translate?langpair=eng|spa&q=x&key=nope"
expect "right key (APy)" 200 \
  '{"responseData": {"translatedText": "x"}, "responseDetails": null, "responseStatus": 200}' \
  "$u/translate?langpair=eng|spa&q=x&key=k1"
expect "wrong key: 403 (LibreTranslate)" 403 '{"error":"Invalid API key"}' \
  "$u/translate" -H "$json" -d '{"q":"x","source":"en","target":"es"}'
expect "listPairs needs no key, as in APy" 200 \
  '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}], "responseDetails": null, "responseStatus": 200}' \
  "$u/listPairs"

# --- Bad text ----------------------------------------------------------------
q="$u/translate?langpair=eng|spa&key=k1&format=txt"
expect "text that is not UTF-8: 400" 400 \
  '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "text 1 is not valid UTF-8 (byte 2: 0xFF)"}' \
  "$q&q=a%FFb"
expect "text with a NUL: 400" 400 '{"message":"text 1 has a NUL byte (byte 2)"}' \
  "$u/v2/translate" -d auth_key=k1 -d 'text=a%00b' -d target_lang=ES
expect "markup crossed: 400" 400 \
  '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "malformed XML markup in the text (column 8)"}' \
  "$q" --data-urlencode 'q=<a><b>x</a></b>'
deep=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "<b>"; printf "x"; for (i = 0; i < 300; i++) printf "</b>" }')
ask "$u/v2/translate" -d auth_key=k1 -d tag_handling=xml -d target_lang=ES \
  --data-urlencode "text=$deep"
check "300 nested elements: answered ($status)" \
  [ "$status" = 200 ] || [ "$status" = 400 ]
expect "bad JSON: 400" 400 '{"message":"the body is not a JSON object"}' \
  "$u/v2/translate" -H "$json" -H 'Authorization: DeepL-Auth-Key k1' \
  -d '{"text":'
expect "still serving" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"y"}]}' \
  "$u/v2/translate" -d auth_key=k1 -d text=y -d target_lang=ES
serve_stop
check "exit 0" [ "$rc" -eq 0 ]

expect_exit 1 "a key file that does not exist" "$XLIFFMT" serve --mt identity \
  --auth-key-file "$tmp/none" --listen 127.0.0.1:0
printf '# none\n\n' >"$tmp/nokeys"
expect_exit 1 "a key file without a key" "$XLIFFMT" serve --mt identity \
  --auth-key-file "$tmp/nokeys" --listen 127.0.0.1:0
expect_exit 1 "translate's --overwrite does not apply" "$XLIFFMT" serve \
  --mt identity --overwrite --listen 127.0.0.1:0

# --- Slow and idle clients ------------------------------------------------------
# Bodies that drip in a byte every 0.2 s are cut off once they have taken
# --connection-timeout, idle connections are closed after it, and the
# server answers other clients all the while.
if command -v python3 >/dev/null; then
  serve_start slow-clients --mt identity -s en -t es --connection-timeout 2 \
    --max-connections-per-address 400 ||
    exit 1
  u=$url
  slow() { python3 "$(dirname "$0")/slow_clients.py" "$@"; }
  got=$(slow drip "$port" 2 20 2>&1)
  case $got in
  "closed 20 in "[23]" s, every other request answered, the slowest in 1 s")
    pass "20 slow-drip bodies closed after --connection-timeout, others answered within 1 s ($got)" ;;
  *) fail "20 slow-drip bodies closed after --connection-timeout ($got)" ;;
  esac
  ask "$u/metrics"
  check "the cut-off bodies counted as 408" \
    grep -q 'xliffmt_serve_requests_total{path="/v2/translate",status="408"} 20$' \
    "$tmp/body"
  got=$(slow idle "$port" 2 300 2>&1)
  case $got in
  "answered 200 in 1 s, closed 300 in "[234]" s")
    pass "300 idle connections: another client answered within 1 s, each idle one closed after --connection-timeout ($got)" ;;
  *) fail "300 idle connections ($got)" ;;
  esac
  expect "still serving" 200 \
    '{"translations":[{"detected_source_language":"EN","text":"z"}]}' \
    "$u/v2/translate" -d text=z -d target_lang=ES
  serve_stop
  check "exit 0" [ "$rc" -eq 0 ]
else
  echo "# python3 missing: slow and idle clients are not tried"
fi

# --- A slow engine: a full queue, SIGTERM --------------------------------------
cat >"$tmp/slow.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  sleep 2
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/slow.sh"

# wait_for FIELD N: /health says FIELD is N (within 10 s).
wait_for() {
  n=0
  while [ $n -lt 100 ]; do
    curl -s "$u/health" | grep -q "\"$1\":$2[,}]" && return 0
    sleep 0.1
    n=$((n + 1))
  done
  return 1
}

serve_start slow --mt "cmd:$tmp/slow.sh" -s en -t es --threads 1 --queue 1 \
  --connection-timeout 2 || exit 1
u=$url
curl -s -o "$tmp/first" "$u/translate?langpair=eng|spa&q=first" &
first=$!
wait_for busy 1
curl -s -o "$tmp/second" "$u/translate?langpair=eng|spa&q=second" &
second=$!
wait_for queued 1
expect "full queue: 503" 503 \
  '{"status": "error", "code": 503, "message": "Service Unavailable", "explanation": "too many requests waiting; try again"}' \
  "$u/translate?langpair=eng|spa&q=third"
check "full queue: Retry-After" [ "$(header Retry-After)" = 1 ]
wait $first $second
check "the first request answered" \
  grep -q '"translatedText": "ES first"' "$tmp/first"
check "the queued request answered" \
  grep -q '"translatedText": "ES second"' "$tmp/second"

if command -v python3 >/dev/null; then
  # Half a request line, then silence: closed after the timeout.
  took=$(python3 -c '
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /health HTTP/1.1\r\n")
t = time.time()
s.settimeout(10)
print("closed" if s.recv(100) == b"" else "answered", round(time.time() - t))
' "$port" 2>&1)
  case $took in
  "closed "[1-4]) pass "half a request: closed after --connection-timeout" ;;
  *) fail "half a request: closed after --connection-timeout ($took)" ;;
  esac
else
  echo "# python3 missing: the connection timeout is not tried"
fi

curl -s -o "$tmp/during" "$u/v2/translate" -d text=during -d target_lang=ES &
during=$!
wait_for busy 1
kill -TERM "$pid"
sleep 0.5
ask "$u/health"
check "after SIGTERM no connection is taken" [ "$status" = 000 ]
wait $during
check "the request under way at SIGTERM is answered" \
  grep -q '"text":"ES during"' "$tmp/during"
wait "$pid"
rc=$?
check "SIGTERM during a translation: exit 0" [ "$rc" -eq 0 ]

finish
