#!/bin/sh
# test_serve_long.sh: long requests never hold every worker. Two DeepL
# requests of 800 KB of text each (thousands of different sentences,
# each one a long hold on a worker) run at once on a server of two
# workers; meanwhile short requests on other connections are answered
# right, the slowest within 2 s, as long texts never take an engine's
# last free worker. Bodies of 100 MB announced by Content-Length are
# refused with 413 in DeepL's shape before they are read, on the text
# and the document endpoints, and the server's peak memory stays small.
# Long requests take half the queue at most: of four sent to a server
# with room for four, two are refused (503), and a short one is answered.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no python3, no curl, or the
# Apertium eng-spa pair not installed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-long
. "$(dirname "$0")/lib.sh"

need_clients_and_eng_spa

serve_start long --mt apertium:eng-spa --threads 2 || exit 1
u=$url
apy='{"responseData": {"translatedText": "El coche rojo."}, "responseDetails": null, "responseStatus": 200}'
tab=$(printf '\t')
cat >"$tmp/want" <<END
/translate?langpair=eng|spa&q=The+red+car.$tab-$tab$apy
/v2/translate${tab}text=The+blue+house.&source_lang=EN&target_lang=ES$tab{"translations":[{"detected_source_language":"EN","text":"La casa azul."}]}
/translate${tab}q=The+big+dog.&source=en&target=es$tab{"translatedText":"El perro grande."}
END
while IFS="$tab" read -r path body answer; do
  if [ "$body" = - ]; then ask "$u$path"; else ask "$u$path" -d "$body"; fi
done <"$tmp/want"

# --- Two long requests at once ---------------------------------------------------
# long SEED: 800 KB of different sentences, as a DeepL form (under the
# 1 MiB body limit): on a fast machine 200 KB took 3 s, less than the
# short requests' 5 s of load.
long() {
  python3 -c '
import random, sys, urllib.parse
w = "red big small old new house car dog cat road tree man woman city river book".split()
r = random.Random(int(sys.argv[1]))
out, n = [], 0
while n < 800 * 1024:
    s = "The %s %s sees the %s %s near the %s %s. " % tuple(r.choice(w) for _ in range(6))
    out.append(s)
    n += len(s)
print("source_lang=EN&target_lang=ES&text=" + urllib.parse.quote_plus("".join(out)))' "$1"
}
long 1 >"$tmp/long1"
long 2 >"$tmp/long2"
for k in 1 2; do
  curl -s -o "$tmp/long$k.out" -w '%{http_code}' --max-time 120 "$u/v2/translate" \
    --data-binary "@$tmp/long$k" >"$tmp/long$k.status" &
  eval "long${k}_pid=\$!"
done
sleep 1
clients load "$port" 4 2 "$tmp/want" >"$tmp/load" 2>"$tmp/load.err"
got=$(cat "$tmp/load")
p99_max=2
[ -z "${XMT_SANITIZED:-}" ] || p99_max=10
p99=${got##*p99 }
p99=${p99%% *}
still=0
kill -0 "$long1_pid" 2>/dev/null && kill -0 "$long2_pid" 2>/dev/null && still=1
case $got in
"answered "*" 0 wrong, p99 "*)
  if [ "$still" = 1 ] &&
    awk -v p="$p99" -v m="$p99_max" 'BEGIN { exit !(p < m) }'; then
    pass "two long requests running: every short one answered right ($got)"
  else
    fail "two long requests running: short ones ($got; both long ones still running: $still)"
  fi ;;
*)
  fail "two long requests running: short ones ($got)"
  sed 's/^/  /' "$tmp/load.err" ;;
esac
# The long ones are not waited for: their clients go, the server stops.
kill "$long1_pid" "$long2_pid" 2>/dev/null
wait "$long1_pid" "$long2_pid" 2>/dev/null

# --- 100 MB announced: 413 before the body is read -----------------------------
# raw413 PATH TYPE: the status and body of the answer to headers that
# announce 100 MB, and 1 MB of it sent.
raw413() { clients announce "$port" "$1" "$2"; }
got=$(raw413 /v2/translate application/x-www-form-urlencoded)
check "100 MB to /v2/translate: 413 ($got)" \
  [ "$got" = '413 {"message":"request body larger than 1048576 bytes"}' ]
got=$(raw413 /translate application/json)
check "100 MB to /translate: 413 ($got)" \
  [ "$got" = '413 {"error":"request body larger than 1048576 bytes"}' ]
got=$(raw413 /v2/document 'multipart/form-data; boundary=x')
check "100 MB to /v2/document: 413 ($got)" \
  [ "$got" = '413 {"message":"Document too large: at most 10485760 bytes."}' ]
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
hwm_max=200
[ -z "${XMT_SANITIZED:-}" ] || hwm_max=800
check "the server's peak memory under $hwm_max MiB (${hwm} kB)" \
  [ "${hwm:-999999}" -lt $((hwm_max * 1024)) ]
# The long translations are cut short: a second SIGTERM interrupts
# (exit 3), unless their runs, their clients gone, had ended (exit 0).
kill -TERM "$pid"
sleep 0.5
serve_stop
case $rc in 0 | 3) pass "stopped ($rc)" ;; *) fail "stopped ($rc)" ;; esac

# --- Long requests take half the queue at most ----------------------------------
# Two workers and --queue 2: room for 4 requests, 2 of them long. Of four
# long requests at once two are refused; a short one still finds room.
serve_start half --mt apertium:eng-spa --threads 2 --queue 2 || exit 1
u=$url
ask "$u/translate?langpair=eng|spa&q=The+red+car."
long 3 >"$tmp/long3"
long 4 >"$tmp/long4"
lpids=
for k in 1 2 3 4; do
  curl -s -o "$tmp/long$k.out" -w '%{http_code}' --max-time 60 "$u/v2/translate" \
    --data-binary "@$tmp/long$k" >"$tmp/long$k.status" &
  lpids="$lpids $!"
done
sleep 2
expect "four long requests sent: a short one answered" 200 "$apy" \
  --max-time 5 "$u/translate?langpair=eng|spa&q=The+red+car."
refused=0
for k in 1 2 3 4; do
  if [ "$(cat "$tmp/long$k.status")" = 503 ] &&
    [ "$(cat "$tmp/long$k.out")" = '{"message":"too many requests waiting; try again"}' ]; then
    refused=$((refused + 1))
  fi
done
check "four long requests sent: two refused with 503 ($refused)" [ "$refused" -eq 2 ]
kill $lpids 2>/dev/null
wait $lpids 2>/dev/null
kill -TERM "$pid"
sleep 0.5
serve_stop
case $rc in 0 | 3) pass "stopped ($rc)" ;; *) fail "stopped ($rc)" ;; esac
finish
