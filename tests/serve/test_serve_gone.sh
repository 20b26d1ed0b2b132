#!/bin/sh
# test_serve_gone.sh: a client that closes its connection while its
# translation runs does not hold the worker for the rest of it. With one
# worker and an engine of 0.25 s a line, a client sends 24 texts (6 s of
# engine) and hangs up after half a second: the run is stopped, the next
# client's one text is answered right within 3 s, and /metrics counts
# one run cancelled. A client that waits for the same texts behind one
# that leaves (on a server of two workers) keeps the run going, and gets
# its answer.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no python3, no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-gone
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || {
  echo "SKIP: python3 not installed"
  exit 77
}

cat >"$tmp/slow.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  sleep 0.25
  printf 'ES %s\n' "$line"
done
EOD
chmod +x "$tmp/slow.sh"

# hang_up URL SECONDS N: posts N texts to LibreTranslate's /translate and
# closes the connection after SECONDS without reading the answer.
hang_up() {
  python3 - "$@" <<'EOD'
import json, socket, sys, time, urllib.parse
url, wait, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
u = urllib.parse.urlsplit(url)
body = json.dumps({"q": ["Sentence number %d." % i for i in range(n)],
                   "source": "en", "target": "es"}).encode()
s = socket.create_connection((u.hostname, u.port))
s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nContent-Type: "
          b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
time.sleep(wait)
s.close()
EOD
}

serve_start gone --mt "cmd:$tmp/slow.sh" -s en -t es --threads 1 || exit 1
u=$url
hang_up "$u" 0.5 24
t0=$(date +%s%N)
expect "the next client answered" 200 '{"translatedText":"ES Next."}' \
  "$u/translate" -d 'q=Next.&source=en&target=es'
ms=$((($(date +%s%N) - t0) / 1000000))
check "within 3 s of the first client's leaving, not after its 6 s ($ms ms)" \
  test "$ms" -lt 3000
ask "$u/metrics"
check "one run cancelled" grep -q '^xliffmt_serve_runs_cancelled_total 1$' \
  "$tmp/body"

# The same texts asked twice: the second request waits for the first's
# answer (another worker takes it and finds the first in flight), and
# the first client's leaving does not stop it.
serve_stop
serve_start follow --mt "cmd:$tmp/slow.sh" -s en -t es --threads 2 || exit 1
u=$url
hang_up "$u" 1.5 8 &
leaver=$!
n=0
until curl -s "$u/health" | grep -q '"busy":1[,}]'; do
  n=$((n + 1))
  [ $n -lt 100 ] || break
  sleep 0.05
done
python3 - "$u" >"$tmp/follower" <<'EOD'
import json, sys, urllib.request
body = json.dumps({"q": ["Sentence number %d." % i for i in range(8)],
                   "source": "en", "target": "es"}).encode()
rq = urllib.request.Request(sys.argv[1] + "/translate", body,
                            {"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(rq, timeout=30))["translatedText"][7])
EOD
wait $leaver
check "a client waiting for the same answer gets it" \
  test "$(cat "$tmp/follower")" = "ES Sentence number 7."
ask "$u/metrics"
check "that run not cancelled" grep -q \
  '^xliffmt_serve_runs_cancelled_total 0$' "$tmp/body"

serve_stop
check "the server stops cleanly" test "$rc" -eq 0
finish
