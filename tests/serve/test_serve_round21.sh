#!/bin/sh
# test_serve_round21.sh: no request stalls the server, no answer lies.
# Text requests' bodies (up to --max-body each) were read in full before
# the queue's room was looked at: forty connections sending 1 MB each
# made the server hold 40 MB for requests it would refuse. They are now
# refused at their headers (503, Retry-After) when the queue, with the
# bodies being read, has no room.
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
      1000000 <<'EOD'
import http.client, select, socket, sys, time
port, pid, n, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def vm(field):
    return int([l.split()[1] for l in open("/proc/%s/status" % pid)
                if l.startswith(field + ":")][0])
base = vm("VmRSS")
socks, answers = [], {}
chunk = b"text=" + b"a" * 65531
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"POST /v2/translate HTTP/1.1\r\nHost: x\r\nContent-Type: "
              b"application/x-www-form-urlencoded\r\nContent-Length: %d"
              b"\r\n\r\n" % size)
    sent = 0
    try:  # all but the last byte, unless an answer comes first
        while sent < size - 1 and not select.select([s], [], [], 0)[0]:
            k = min(len(chunk), size - 1 - sent)
            s.sendall(chunk[:k])
            sent += k
    except OSError:
        pass
    socks.append(s)
time.sleep(1)
for s in socks:
    got = b""
    if select.select([s], [], [], 0)[0]:
        try:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                got += d
        except OSError:
            pass
    status = got.split(b" ")[1].decode() if got.startswith(b"HTTP/") else "none"
    if status == "503" and b"\r\nRetry-After: 1\r\n" not in got:
        status = "503-without-retry-after"
    answers[status] = answers.get(status, 0) + 1
grown = vm("VmHWM") - base
# the room held by one address's bodies: another address still has its turn
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                               source_address=("127.0.0.2", 0))
c.request("POST", "/v2/translate", b"text=Hi&target_lang=ES",
          {"Content-Type": "application/x-www-form-urlencoded"})
r = c.getresponse()
other = "%d:%s" % (r.status, r.read().decode())
print(" ".join("%s:%d" % kv for kv in sorted(answers.items())))
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
  serve_stop
  want "exit 0" "$rc" 0
else
  echo "# python3 missing: bodies held back are not tried"
fi

finish
