#!/bin/sh
# test_serve_round10.sh: xliffmt serve stopping with work begun. SIGTERM
# while a document of DeepL's document API is translated: the server
# drains -- new work gets 503, the document's status is still answered
# until it is done, its download is the translation, and only then does
# the server exit 0. Work it cannot finish within --drain-timeout (a
# document never downloaded, a translation under way) is cut: the
# request gets 503, a poll gets 503, never a silent 404, and the exit
# status is 3. JSON bodies that say two things -- a key twice, a list of
# texts with null, a list or an object among them -- get 400 naming it,
# never a translation answered under another text's index. A transfer
# coding other than chunked gets 501 at once, not silence until the
# connection times out. Two files in one document upload get 400, and
# so does a text with a character XML cannot carry (a C0 control but
# tab, newline and carriage return; U+FFFE, U+FFFF). A client that hangs
# up before its answer is logged and counted 499, not as the 503 of the
# run its leaving stopped. A request target in absolute form
# (http://HOST/PATH) is answered as its path.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-round10
. "$(dirname "$0")/lib.sh"

fx=$(cd "$(dirname "$0")/../fixtures/serve-document" && pwd)
mkdir "$tmp/docs"
stopping='{"message":"the server is stopping"}'

# An engine of 0.3 s a line.
cat >"$tmp/slow.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  sleep 0.3
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/slow.sh"

# upload FILE: POST /v2/document, EN to ES; its id and key in $id, $key.
upload() {
  ask "$url/v2/document" -F "file=@$1" -F source_lang=EN -F target_lang=ES
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
}
# state: the status of $id now, in $status and $body.
state() { ask --max-time 5 "$url/v2/document/$id" -d "document_key=$key"; }
# until_not STATUS-WORD: asks the status of $id until it is no longer
# STATUS-WORD (at most 20 s).
until_not() {
  n=0
  while [ $n -lt 200 ]; do
    state
    case $body in *"\"status\":\"$1\""*) ;; *) return 0 ;; esac
    sleep 0.1
    n=$((n + 1))
  done
}
# stopped SECONDS: waits that long at most for the server to exit; its
# status in rc (124 and killed when it did not).
stopped() {
  n=0
  while kill -0 "$pid" 2>/dev/null && [ $n -lt $(($1 * 10)) ]; do
    sleep 0.1
    n=$((n + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    rc=124
  else
    wait "$pid"
    rc=$?
  fi
}
# want DESC GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"
    echo "    expected: $3"
    echo "    got:      $2"
  fi
}

# --- SIGTERM with a document under way: drained ---------------------------------
serve_start drain --mt "cmd:$tmp/slow.sh" -s en-US -t es-ES --threads 1 \
  --document-dir "$tmp/docs" || exit 1
upload "$fx/notes.xlf"
until_not queued
want "the document is translating" "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"translating\"}"
kill -TERM "$pid"
sleep 0.3
state
want "SIGTERM: the document's status still answered" "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"translating\"}"
expect "SIGTERM: a new upload gets 503" 503 "$stopping" --max-time 5 \
  "$url/v2/document" -F "file=@$fx/notes.xlf" -F target_lang=ES
expect "SIGTERM: a new translation gets 503" 503 "$stopping" --max-time 5 \
  "$url/v2/translate" -d text=Hello -d target_lang=ES
until_not translating
want "SIGTERM: the document is done" "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":37}"
ask --max-time 5 "$url/v2/document/$id/result" -d "document_key=$key"
check "SIGTERM: the document downloaded ($status)" \
  grep -q '<target>ES The <pc id="1">blue</pc> car is fast.</target>' \
  "$tmp/body"
stopped 10
want "SIGTERM: drained, exit 0" "$rc" 0
check "SIGTERM: its folder removed" [ -z "$(ls "$tmp/docs")" ]

# --- A document never downloaded: cut at --drain-timeout, exit 3 -------------------
serve_start deadline --mt "cmd:$tmp/slow.sh" -s en-US -t es-ES --threads 1 \
  --document-dir "$tmp/docs" --drain-timeout 10 || exit 1
upload "$fx/notes.xlf"
until_not queued
kill -TERM "$pid"
until_not translating
want "deadline: the document done while draining" "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":37}"
# Not downloaded: polled until the answer is no longer 200.
n=0
while [ "$status" = 200 ] && [ $n -lt 200 ]; do
  sleep 0.1
  state
  n=$((n + 1))
done
want "deadline passed: a poll gets 503, not 404" "$status $body" \
  "503 $stopping"
stopped 10
want "deadline passed: exit 3" "$rc" 3
want "deadline passed: said on stderr" \
  "$(grep -c '^xliffmt serve: --drain-timeout 10 passed: interrupting the requests under way; 1 document not downloaded deleted$' "$tmp/deadline.err")" 1

# --- A translation under way at the deadline: 503, exit 3 ---------------------------
serve_start cut --mt "cmd:$tmp/slow.sh" -s en-US -t es-ES --threads 1 \
  --drain-timeout 1 || exit 1
printf 'text=One.\n' >"$tmp/long"
i=0
while [ $i -lt 20 ]; do
  printf '&text=Sentence%s.' $i >>"$tmp/long"
  i=$((i + 1))
done
curl -s -o "$tmp/cut.body" -w '%{http_code}' --max-time 30 \
  "$url/v2/translate" -d target_lang=ES --data-binary "@$tmp/long" \
  >"$tmp/cut.status" &
client=$!
sleep 1
kill -TERM "$pid"
stopped 10
wait "$client"
want "cut: the request under way gets 503" \
  "$(cat "$tmp/cut.status") $(cat "$tmp/cut.body")" \
  '503 {"message":"interrupted"}'
want "cut: exit 3" "$rc" 3

# --- A client gone before its answer: 499, not a 5xx -------------------------------
serve_start gone --mt "cmd:$tmp/slow.sh" -s en-US -t es-ES --threads 1 \
  --access-log "$tmp/access.log" || exit 1
curl -s -o /dev/null --max-time 0.5 "$url/v2/translate" -d text=a -d text=b \
  -d text=c -d text=d -d target_lang=ES
expect "after a client gone: a request answered" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"ES z"}]}' \
  --max-time 5 "$url/v2/translate" -d text=z -d target_lang=ES
want "a client gone: logged 499" \
  "$(sed -n 1p "$tmp/access.log" | cut -d' ' -f3-5)" "POST /v2/translate 499"
ask "$url/metrics"
want "a client gone: counted 499, no 503" \
  "$(grep '^xliffmt_serve_requests_total{path="/v2/translate"' "$tmp/body")" \
  'xliffmt_serve_requests_total{path="/v2/translate",status="499"} 1
xliffmt_serve_requests_total{path="/v2/translate",status="200"} 1'
serve_stop
want "exit 0" "$rc" 0

# --- JSON bodies that say two things: 400, never a translation shifted -------------
serve_start json --mt pseudo -s en -t es || exit 1
json='Content-Type: application/json'
expect "a key twice (DeepL): 400" 400 \
  '{"message":"the JSON body gives the key \"text\" twice"}' \
  "$url/v2/translate" -H "$json" \
  -d '{"text":["one"],"text":["two"],"target_lang":"ES"}'
expect "a key twice (LibreTranslate): 400" 400 \
  '{"error":"the JSON body gives the key \"q\" twice"}' \
  "$url/translate" -H "$json" -d '{"q":"one","q":"two","source":"en","target":"es"}'
expect "null among the texts (DeepL): 400" 400 \
  '{"message":"item 2 of \"text\" is not a string"}' \
  "$url/v2/translate" -H "$json" \
  -d '{"text":["one",null,"three"],"target_lang":"ES"}'
expect "a list among the texts (DeepL): 400" 400 \
  '{"message":"item 1 of \"text\" is not a string"}' \
  "$url/v2/translate" -H "$json" -d '{"text":[["one"],"two"],"target_lang":"ES"}'
expect "an object among the texts (LibreTranslate): 400" 400 \
  '{"error":"item 3 of \"q\" is not a string"}' \
  "$url/translate" -H "$json" \
  -d '{"q":["one","two",{"a":1}],"source":"en","target":"es"}'
expect "after them: a normal request answered" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"[óñé ~]"},{"detected_source_language":"EN","text":"[thréé ~~]"}]}' \
  --max-time 5 "$url/v2/translate" -H "$json" \
  -d '{"text":["one","three"],"target_lang":"ES"}'
# A transfer coding the server cannot read: its body would be waited for
# until the connection times out, and the client told nothing.
if command -v python3 >/dev/null; then
  form='Content-Type: application/x-www-form-urlencoded'
  for te in gzip 'gzip, chunked'; do
    got=$(printf 'POST /v2/translate HTTP/1.1\r\nHost: x\r\n%s\r\nTransfer-Encoding: %s\r\n\r\ntext=a&target_lang=ES' "$form" "$te" |
      clients raw "$port")
    want "Transfer-Encoding $te: 501 at once" "$got" \
      "501 {\"message\":\"Transfer-Encoding $te is not supported (chunked is)\"}"
  done
  # The absolute form of a request's target, which a server must take
  # (RFC 9112), as a proxy in front sends it.
  got=$(printf 'GET http://127.0.0.1:%s/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' "$port" |
    clients raw "$port")
  want "GET http://HOST/health: answered" "$got" \
    '200 {"status":"ok","backend":"pseudo","workers":2,"busy":0,"queued":0}'
else
  echo "# python3 missing: transfer codings are not tried"
fi
# Two files in one upload: one of them would be translated, the other
# dropped unsaid.
printf '<p>One.</p>' >"$tmp/one.html"
printf '<p>Two.</p>' >"$tmp/two.html"
expect "two files in one upload: 400" 400 \
  '{"message":"Parameter '"'file'"' given 2 times: one document per upload."}' \
  "$url/v2/document" -F "file=@$tmp/one.html" -F "file=@$tmp/two.html" \
  -F target_lang=ES
# A text with a control character: the engine's answer would lose it
# (no XML can carry it), joining "one" and "two" unsaid; in HTML it came
# back as U+FFFD.
expect "a control character in plain text (DeepL): 400" 400 \
  '{"message":"text 1 has a character XML cannot carry (byte 4: U+000B)"}' \
  "$url/v2/translate" -H "$json" -d '{"text":["one\u000btwo"],"target_lang":"ES"}'
expect "a control character in plain text (LibreTranslate): 400" 400 \
  '{"error":"text 2 has a character XML cannot carry (byte 2: U+001B)"}' \
  "$url/translate" -H "$json" \
  -d '{"q":["one","a\u001bb"],"source":"en","target":"es"}'
expect "U+FFFE in plain text (APy): 400" 400 \
  '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "text 1 has a character XML cannot carry (byte 2: U+FFFE)"}' \
  "$url/translate?langpair=en|es&q=a%EF%BF%BEb"
expect "a control character in HTML: 400" 400 \
  '{"message":"text 1 has a character XML cannot carry (byte 4: U+0001)"}' \
  "$url/v2/translate" -H "$json" \
  -d '{"text":["one\u0001 <b>two</b>"],"target_lang":"ES","tag_handling":"html"}'
expect "after them: /health answered" 200 \
  '{"status":"ok","backend":"pseudo","workers":2,"busy":0,"queued":0}' \
  --max-time 5 "$url/health"
serve_stop
want "exit 0" "$rc" 0

finish
