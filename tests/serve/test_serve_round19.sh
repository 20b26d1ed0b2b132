#!/bin/sh
# test_serve_round19.sh: one document must not stall the others. A
# document whose engine never answers held the one document thread with
# no limit: every other address's document waited behind it. Documents
# are now translated by --document-threads threads, and one translating
# longer than --document-timeout is stopped: its status is DeepL's
# "error" with the reason, never a 404.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../hostile/lib.sh"
cli_setup serve-round19
. "$(dirname "$0")/lib.sh"

# want DESC GOT EXPECTED
want() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"
    echo "    expected: $3"
    echo "    got:      $2"
  fi
}

# An engine that never answers a line beginning with "Long" (a minute),
# and answers the others at once.
cat >"$tmp/stall.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  case $line in Long*) sleep 60 ;; esac
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/stall.sh"
printf '<p>Long one.</p>' >"$tmp/long.html"
printf '<p>Short one.</p>' >"$tmp/short.html"

# upload FILE ARGS...: POST /v2/document of FILE, EN to ES; its id and
# key in $id and $key.
upload() {
  f=$1
  shift
  ask --max-time 10 "$@" "$url/v2/document" -F "file=@$f" \
    -F source_lang=EN -F target_lang=ES
  id=$(printf '%s' "$body" | sed -n 's/^{"document_id":"\([0-9A-F]*\)",.*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)"}$/\1/p')
}
# poll.sh URL ID KEY ARGS...: polls the status every 0.1 s until it is
# neither queued nor translating, then prints the answer.
cat >"$tmp/poll.sh" <<'EOD'
#!/bin/sh
u=$1 i=$2 k=$3
shift 3
while :; do
  a=$(curl -s --max-time 5 -w ' %{http_code}' "$@" "$u/v2/document/$i" \
    -d "document_key=$k")
  case $a in
  *'"status":"queued"'* | *'"status":"translating"'*) sleep 0.1 ;;
  *) printf '%s\n' "$a" | tr -d '\n'; exit 0 ;;
  esac
done
EOD
chmod +x "$tmp/poll.sh"
stopped='Document translation took longer than the server allows (3 seconds): stopped.'

# --- A stalled document and another address's short one ---------------------
# Before: the short one waited for the stalled one's minute (and any
# number of stalled documents after it).
serve_start two --mt "cmd:$tmp/stall.sh" -s en -t es \
  --document-timeout 3 --document-dir "$tmp" || exit 1
upload "$tmp/long.html"
lid=$id lkey=$key
sleep 0.3
upload "$tmp/short.html" --interface 127.0.0.2
within "another address's short document: done at once" 0 2 64 \
  "$tmp/poll.sh" "$url" "$id" "$key" --interface 127.0.0.2
want "another address's short document: its status" "$(cat "$tmp/out")" \
  "{\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":10} 200"
expect "another address's short document: downloaded" 200 \
  '<p>ES Short one.</p>' --max-time 5 --interface 127.0.0.2 \
  "$url/v2/document/$id/result" -d "document_key=$key"
within "the stalled document: ended at its limit" 0 8 64 \
  "$tmp/poll.sh" "$url" "$lid" "$lkey"
want "the stalled document: DeepL's error, with the reason" \
  "$(cat "$tmp/out")" \
  "{\"document_id\":\"$lid\",\"status\":\"error\",\"error_message\":\"$stopped\",\"message\":\"$stopped\"} 200"
expect "the stalled document: its download says why" 503 \
  "{\"message\":\"Document translation failed: $stopped\"}" \
  --max-time 5 "$url/v2/document/$lid/result" -d "document_key=$lkey"
expect "the stalled document: still an error, not a 404" 200 \
  "{\"document_id\":\"$lid\",\"status\":\"error\",\"error_message\":\"$stopped\",\"message\":\"$stopped\"}" \
  --max-time 5 "$url/v2/document/$lid" -d "document_key=$lkey"
# The engine stopped with it is replaced: the next document translates.
upload "$tmp/short.html"
within "after it: a document done" 0 5 64 "$tmp/poll.sh" "$url" "$id" "$key"
want "after it: its status" "$(cat "$tmp/out")" \
  "{\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":10} 200"
expect "after it: downloaded" 200 '<p>ES Short one.</p>' --max-time 5 \
  "$url/v2/document/$id/result" -d "document_key=$key"
serve_stop
want "exit 0" "$rc" 0

# --- One thread: the short one waits no longer than the limit ---------------
serve_start one --mt "cmd:$tmp/stall.sh" -s en -t es --document-threads 1 \
  --document-timeout 3 --document-dir "$tmp" --drain-timeout 1 || exit 1
upload "$tmp/long.html"
lid=$id lkey=$key
sleep 0.3
upload "$tmp/short.html" --interface 127.0.0.2
within "one thread: the short document done after the limit" 0 8 64 \
  "$tmp/poll.sh" "$url" "$id" "$key" --interface 127.0.0.2
want "one thread: the short document's status" "$(cat "$tmp/out")" \
  "{\"document_id\":\"$id\",\"status\":\"done\",\"billed_characters\":10} 200"
within "one thread: the stalled document ended" 0 5 64 \
  "$tmp/poll.sh" "$url" "$lid" "$lkey"
want "one thread: the stalled document's error" "$(cat "$tmp/out")" \
  "{\"document_id\":\"$lid\",\"status\":\"error\",\"error_message\":\"$stopped\",\"message\":\"$stopped\"} 200"
expect "one thread: downloaded" 200 '<p>ES Short one.</p>' --max-time 5 \
  --interface 127.0.0.2 "$url/v2/document/$id/result" -d "document_key=$key"
serve_stop
want "exit 0" "$rc" 0

# --- The options' bounds ------------------------------------------------------
for bad in "--document-timeout 0" "--document-threads 0" \
  "--document-threads 65" "--document-timeout x"; do
  # shellcheck disable=SC2086
  "$XLIFFMT" serve --listen 127.0.0.1:0 --mt pseudo $bad >/dev/null 2>&1
  want "serve $bad: exit 1" "$?" 1
done

finish
