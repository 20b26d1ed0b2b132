#!/bin/sh
# test_serve_round19.sh: one document must not stall the others. A
# document whose engine never answers held the one document thread with
# no limit: every other address's document waited behind it. Documents
# are now translated by --document-threads threads, and one translating
# longer than --document-timeout is stopped: its status is DeepL's
# "error" with the reason, never a 404. A download is sent from its
# file: twenty clients reading 10 MB slowly hold no copy of it in the
# server's memory. An address keeping every document leaves another
# address room: its finished ones beyond its share are deleted for it.
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

# --- Twenty slow readers of a 10 MB download ---------------------------------
# Each download was read whole into memory and copied into the answer,
# kept until the client had read it all: twenty clients that read
# slowly made the server hold 400 MB. It is now sent from the file.
if command -v python3 >/dev/null && [ -z "${XMT_SANITIZED:-}" ]; then
  python3 - "$tmp/big.html" <<'EOD'
import sys
with open(sys.argv[1], "w") as f:
    f.write("<html><body><p>Big one.</p><script>" + "var x = 1;\n" * 909000
            + "</script></body></html>")
EOD
  serve_start big --mt pseudo -s en -t es --document-dir "$tmp" || exit 1
  : >"$tmp/docs"
  k=0
  while [ $k -lt 20 ]; do
    upload "$tmp/big.html"
    [ -n "$id" ] || break
    echo "$id $key" >>"$tmp/docs"
    k=$((k + 1))
  done
  want "twenty documents of 10 MB taken" "$(wc -l <"$tmp/docs")" 20
  while read -r id key; do
    within "a document of 10 MB translated" 0 20 64 "$tmp/poll.sh" "$url" \
      "$id" "$key" >/dev/null
  done <"$tmp/docs"
  # The peak from here on (the translations' own left out), against
  # the memory they left.
  if echo 5 >"/proc/$pid/clear_refs" 2>/dev/null; then
    within "twenty slow readers" 0 60 256 python3 - "$port" "$pid" \
      "$tmp/docs" <<'EOD'
import socket, sys, time
port, pid, docs = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def vm(field):
    return int([l.split()[1] for l in open("/proc/%s/status" % pid)
                if l.startswith(field + ":")][0])
base = vm("VmRSS")  # the memory the uploads and translations left
socks, first = [], []
for line in open(docs):
    i, k = line.split()
    body = ("document_key=%s" % k).encode()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    s.sendall(b"POST /v2/document/%s/result HTTP/1.1\r\nHost: x\r\n"
              b"Content-Type: application/x-www-form-urlencoded\r\n"
              b"Content-Length: %d\r\n\r\n%s" % (i.encode(), len(body), body))
    first.append(s.recv(1024))  # the answer begun, then no more for a while
    socks.append(s)
time.sleep(3)
grown = vm("VmHWM") - base
got = first[0]  # one read to its end: the whole translation
s = socks[0]
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
while b"\r\n\r\n" not in got:
    got += s.recv(65536)
head, rest = got.split(b"\r\n\r\n", 1)
length = [int(l.split(b":")[1]) for l in head.split(b"\r\n")
          if l.lower().startswith(b"content-length:")][0]
n = len(rest)
while n < length:
    d = s.recv(1 << 20)
    if not d:
        break
    n += len(d)
print(grown, length, n)
for s in socks:
    s.close()
EOD
    set -- $(cat "$tmp/out")
    want "a slow reader: the whole translation sent" "$2 $3" "9999068 9999068"
    check "twenty slow readers: the server's memory grew little (${1:-?} kB)" \
      [ "${1:-999999}" -lt 20000 ]
  else
    echo "# /proc/PID/clear_refs not writable: the memory is not measured"
  fi
  serve_stop
  want "exit 0" "$rc" 0
fi

# --- One address keeps every document, another uploads -----------------------
# With room for four, one address's four uploads never collected left
# another address 429 for --document-expiry (an hour). Beyond its share
# (a quarter of the room by default) an address's finished documents are
# now deleted, the oldest first, when another's upload finds no room.
full='{"message":"Too many documents on the server (at most 4): download the translated ones or wait for them to expire."}'
notfound='{"message":"Document not found."}'
# keep4 ARGS...: four documents of this address, each translated; their
# ids and keys in $ids.
keep4() {
  ids=
  for k in 1 2 3 4; do
    upload "$tmp/short.html" "$@"
    within "a document kept" 0 5 64 "$tmp/poll.sh" "$url" "$id" "$key" "$@"
    ids="$ids $id:$key"
  done
}
# code CURL-ARGS...: the status code of an answer.
code() {
  xcurl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"
}
serve_start share --mt pseudo -s en -t es --max-documents 4 \
  --document-dir "$tmp" --drain-timeout 1 || exit 1
keep4
set -- $ids
expect "the same address's fifth: 429" 429 "$full" --max-time 5 \
  "$url/v2/document" -F "file=@$tmp/short.html" -F target_lang=ES
upload "$tmp/short.html" --interface 127.0.0.2
want "another address's upload: taken" "$status" 200
b1=$id:$key
st=
for d in "$@"; do
  st="$st $(code "$url/v2/document/${d%%:*}" -d "document_key=${d#*:}")"
done
want "the first address's oldest deleted for it, the others kept" "$st" \
  " 404 200 200 200"
upload "$tmp/short.html" --interface 127.0.0.2
want "another address's second: taken" "$status" 200
upload "$tmp/short.html" --interface 127.0.0.2
want "another address's third: taken" "$status" 200
st=
for d in "$@"; do
  st="$st $(code "$url/v2/document/${d%%:*}" -d "document_key=${d#*:}")"
done
want "the first address keeps its share: one" "$st" " 404 404 404 200"
expect "another address's fourth: 429 (the first within its share)" 429 \
  "$full" --max-time 5 --interface 127.0.0.2 "$url/v2/document" \
  -F "file=@$tmp/short.html" -F target_lang=ES
# Now the second address is beyond its share: the first's upload takes
# the room of its oldest.
upload "$tmp/short.html"
want "the first address again: taken" "$status" 200
want "the second address's oldest deleted for it" \
  "$(code --interface 127.0.0.2 "$url/v2/document/${b1%%:*}" \
    -d "document_key=${b1#*:}")" 404
serve_stop

# --max-documents-per-client 3: one deleted, then none.
serve_start share3 --mt pseudo -s en -t es --max-documents 4 \
  --max-documents-per-client 3 --document-dir "$tmp" --drain-timeout 1 ||
  exit 1
keep4
upload "$tmp/short.html" --interface 127.0.0.2
want "per client 3: another address's upload taken" "$status" 200
expect "per client 3: its second 429" 429 "$full" --max-time 5 \
  --interface 127.0.0.2 "$url/v2/document" -F "file=@$tmp/short.html" \
  -F target_lang=ES
serve_stop

# --- The options' bounds ------------------------------------------------------
for bad in "--document-timeout 0" "--document-threads 0" \
  "--document-threads 65" "--document-timeout x" \
  "--max-documents-per-client 0"; do
  # shellcheck disable=SC2086
  "$XLIFFMT" serve --listen 127.0.0.1:0 --mt pseudo $bad >/dev/null 2>&1
  want "serve $bad: exit 1" "$?" 1
done

finish
