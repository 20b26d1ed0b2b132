#!/bin/sh
# test_serve_document_engine.sh: an engine that fails while a document of
# DeepL's document API is translated shows as a worker's failure does:
# the document's status is error, /health is degraded (503) naming the
# engine while it is down, /metrics counts the failure and the engine's
# restart, and stderr has one line for the failure and one for the
# recovery; the thread's next document translated brings /health back
# to ok.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-document-engine
. "$(dirname "$0")/lib.sh"

fx=$(cd "$(dirname "$0")/../fixtures/serve-document" && pwd)
mkdir "$tmp/docs"

# The engine gives each line back until $tmp/dead exists, then exits at
# the next line; the server reopens it after a failure.
cat >"$tmp/eng.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ -e "$tmp/dead" ] && exit 1
  printf '%s\n' "\$line"
done
EOD
chmod +x "$tmp/eng.sh"
mt="cmd:$tmp/eng.sh"

# upload FILE: POST /v2/document, EN to ES; its id and key in $id, $key.
upload() {
  ask "$url/v2/document" -F "file=@$1" -F source_lang=EN -F target_lang=ES
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
}
# finished: the status of $id once it is no longer queued or translating
# (at most 60 s), in $status and $body.
finished() {
  n=0
  while [ $n -lt 600 ]; do
    ask "$url/v2/document/$id" -d "document_key=$key"
    case $body in
    *'"status":"queued"'* | *'"status":"translating"'*) ;;
    *) return 0 ;;
    esac
    sleep 0.1
    n=$((n + 1))
  done
}
# metrics: the engine counters of /metrics, one line
counters='engine_failures_total\|engine_restarts_total\|engines_down'
metrics() {
  xcurl -s "$url/metrics" | sed -n "s/^xliffmt_serve_\\($counters\\) //p" |
    tr '\n' ' '
}
# want DESC GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"
    echo "    expected: $3"
    echo "    got:      $2"
  fi
}

# One document thread: each has its own state at the engine, and the
# next document is that thread's.
serve_start docs --mt "$mt" -s en-US -t es-ES --threads 1 \
  --document-threads 1 --document-dir "$tmp/docs" --drain-timeout 1 || exit 1
healthy='{"status":"ok","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
down='{"status":"degraded","reason":"engine '"$mt"': engine '"'$tmp/eng.sh'"' exited with status 1","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'

expect "health before any document" 200 "$healthy" "$url/health"
: >"$tmp/dead"
upload "$fx/guide.xlf"
finished
want "the document: status error, the segments not translated" \
  "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"error\",\"error_message\":\"guide.xlf: 4 segments not translated\",\"message\":\"guide.xlf: 4 segments not translated\"}"
expect "health while the engine is down: degraded, naming it" 503 "$down" \
  "$url/health"
want "metrics: 1 failure, 1 restart, 1 engine down" "$(metrics)" "1 1 1 "
lines() { grep "^xliffmt serve: engine " "$tmp/docs.err"; }
want "one line on stderr for the failure" "$(lines)" \
  "xliffmt serve: engine $mt: engine '$tmp/eng.sh' exited with status 1"
rm -f "$tmp/dead"
# A worker's translation says nothing of the document thread's engine.
expect "a text translated meanwhile" 200 \
  '{"responseData": {"translatedText": "hello"}, "responseDetails": null, "responseStatus": 200}' \
  "$url/translate?langpair=en|es&q=hello"
expect "  health still degraded" 503 "$down" "$url/health"
upload "$fx/guide.xlf"
finished
want "the next document: done" "$status $body" \
  "200 {\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":84}"
expect "health after a document translated: ok" 200 "$healthy" "$url/health"
want "metrics after the recovery: no engine down" "$(metrics)" "1 1 0 "
want "one line on stderr for the recovery" "$(lines | tail -n 1)" \
  "xliffmt serve: engine $mt: recovered"
serve_stop
finish
