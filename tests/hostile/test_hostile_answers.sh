#!/bin/sh
# test_hostile_answers.sh: engine answers are checked, never trusted, and
# a dead engine stops the run. Real engines that misbehave (awk and sh
# one-liners, the fake HTTP service on loopback), each run under a time
# and memory limit:
#   - an engine that drops a line never moves a translation to another
#     unit: each target is its own source in upper case, the dropped
#     segment is named and gets no target (exit 3), at once (the check
#     line's answer comes a line early);
#   - one that answers an extra line: nothing taken; a banner first: set
#     aside, every segment translated;
# The engines pass the check line (digits) through, as real ones do.
#   - empty answers (cmd, HTTP translatedText ""): failed, no empty target;
#   - a 200 MB answer line, a 1 MB answer to three words: that segment
#     fails in bounded memory, the others are translated;
#   - a dead engine, a closed port, with 3,000 segments: one message,
#     within seconds (--keep-going: every segment tried and named);
#   - an HTTP service that never answers: --timeout 2 ends a batch in
#     about 2 s, retries included.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-answers
x=$XLIFFMT

# many FILE N: N units "Sentence number K here."
many() {
  awk -v n="$2" 'BEGIN {
    print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
    print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
    print "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
    for (i = 1; i <= n; i++)
      printf "<trans-unit id=\"u%d\"><source>Sentence number %d here.</source></trans-unit>\n", i, i
    print "</body></file></xliff>" }' >"$1"
}
targets() { grep -c '<target' "$1" 2>/dev/null || true; }
lines() { wc -l <"$tmp/err" | tr -d ' '; }

# own_or_none NAME FILE: every unit of FILE has, as its target, its own
# source in upper case, or no target and its segment named on stderr.
# Prints how many were translated and how many failed.
own_or_none() {
  bad=$(sed -n 's/.*<trans-unit id="\([^"]*\)"><source>\([^<]*\)<\/source>\(.*\)<\/trans-unit>.*/\1	\2	\3/p' "$2" |
    while IFS='	' read -r id src rest; do
      want=$(printf '%s' "$src" | tr a-z A-Z)
      case $rest in
      "") grep -q "segment $id#0 not translated" "$tmp/err" ||
        echo "$id: no target, not named" ;;
      *">$want</target>") ;;
      *) echo "$id: $rest" ;;
      esac
    done)
  if [ -z "$bad" ]; then pass "$1: each target its own source's"; else
    fail "$1: $bad"
  fi
}
# target_is FILE ID TEXT
target_is() {
  grep -q "<trans-unit id=\"$2\">.*<target[^>]*>$3</target>" "$1"
}
# no_target FILE ID
no_target() {
  grep "<trans-unit id=\"$2\">" "$1" | grep -qv '<target'
}

doc "$tmp/abc.xlf" "Alpha one." "Bravo two." "Charlie three."

# --- Wrong counts: never one line off -----------------------------------------

within "an engine that drops Bravo's line" 3 20 300 "$x" translate \
  "$tmp/abc.xlf" -o "$tmp/drop.xlf" -q \
  --mt "cmd:awk '/^Bravo/ { next } { print toupper(\$0); fflush() }'" \
  --timeout 10
check "drop: u1 is ALPHA ONE." target_is "$tmp/drop.xlf" u1 "ALPHA ONE."
check "drop: u2 has no target (not CHARLIE THREE.)" no_target "$tmp/drop.xlf" u2
check "drop: u3 is CHARLIE THREE." target_is "$tmp/drop.xlf" u3 "CHARLIE THREE."
check "drop: u2 named, at once (${elapsed_ms} ms)" grep -q -F \
  "abc.xlf:5: segment u2#0 not translated: engine 'awk '/^Bravo/ { next } { print toupper(\$0); fflush() }'' answered fewer lines than the 1 segment sent (its answer to the check line came after 0)" \
  "$tmp/err"
check "drop: no timeout waited (${elapsed_ms} ms)" test "$elapsed_ms" -lt 5000
check "drop: two lines on stderr ($(lines))" test "$(lines)" -eq 2
check "drop: 1 segment not translated" grep -q -F \
  'abc.xlf: 1 segment not translated' "$tmp/err"

# Ten segments in one batch, every second one dropped; no answer lands
# on another unit.
many "$tmp/ten.xlf" 10
within "an engine that drops every second line, ten segments" 3 30 300 "$x" \
  translate "$tmp/ten.xlf" -o "$tmp/ten.out.xlf" -q \
  --mt "cmd:awk '/number [0-9]*[02468] here/ { next } { print toupper(\$0); fflush() }'" \
  --timeout 10
own_or_none "drop, ten segments" "$tmp/ten.out.xlf"
check "drop, ten segments: five translated ($(targets "$tmp/ten.out.xlf"))" \
  test "$(targets "$tmp/ten.out.xlf")" -eq 5

within "an engine that answers an extra line" 3 20 300 "$x" translate \
  "$tmp/abc.xlf" -o "$tmp/extra.xlf" -q \
  --mt "cmd:awk '/^[0-9 ]*\$/ { print; fflush(); next } { print toupper(\$0); print \"EXTRA\"; fflush() }'"
check "extra: no target ($(targets "$tmp/extra.xlf"))" \
  test "$(targets "$tmp/extra.xlf")" -eq 0
check "extra: each segment named" test "$(grep -c \
  "answered more than one line for one segment" "$tmp/err")" -eq 3

within "an engine with a banner" 0 20 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/banner.xlf" -q \
  --mt "cmd:echo READY; while IFS= read -r l; do printf '%s\\n' \"\$l\" | tr a-z A-Z; done"
own_or_none "banner" "$tmp/banner.xlf"
check "banner: all three translated ($(targets "$tmp/banner.xlf"))" \
  test "$(targets "$tmp/banner.xlf")" -eq 3
check "banner: READY is no translation" sh -c "! grep -q READY '$tmp/banner.xlf'"

# --- Empty answers ------------------------------------------------------------

within "empty answers" 3 20 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/empty.xlf" -q --report "$tmp/empty.json" \
  --mt "cmd:awk '/^[0-9 ]*\$/ { print; fflush(); next } { print \"\"; fflush() }'"
check "empty: no target, not even an empty one ($(targets "$tmp/empty.xlf"))" \
  test "$(targets "$tmp/empty.xlf")" -eq 0
check "empty: each segment named" test "$(grep -c \
  "not translated: the answer is empty" "$tmp/err")" -eq 3
check "empty: the report counts 3 failed" grep -q '"failed_segments":3,' \
  "$tmp/empty.json"
within "blank answers" 3 20 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/blank.xlf" -q \
  --mt "cmd:awk '/^[0-9 ]*\$/ { print; fflush(); next } { print \"  \"; fflush() }'"
check "blank: no target" test "$(targets "$tmp/blank.xlf")" -eq 0

# --- Answers too long -----------------------------------------------------------

cat >"$tmp/big.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  case $line in
  Bravo*) head -c 209715200 /dev/zero | tr '\0' x; echo ;;
  *) printf '%s\n' "$line" | tr a-z A-Z ;;
  esac
done
EOD
chmod +x "$tmp/big.sh"
within "a 200 MB answer line" 3 30 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/big.xlf" -q --mt "cmd:$tmp/big.sh"
check "200 MB: u1 translated" target_is "$tmp/big.xlf" u1 "ALPHA ONE."
check "200 MB: u2 failed" no_target "$tmp/big.xlf" u2
check "200 MB: u3 translated" target_is "$tmp/big.xlf" u3 "CHARLIE THREE."
check "200 MB: says why" grep -q -F \
  "segment u2#0 not translated: engine '$tmp/big.sh' answered more than 1184 bytes for a request of 10 bytes (more than 16 times as long: not a translation)" \
  "$tmp/err"
# The maximum answer size, lower than that.
within "--max-answer-size 12" 3 30 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/max.xlf" -q --mt "cmd:$tmp/big.sh" --max-answer-size 12
check "--max-answer-size: u1 (10 bytes) translated" target_is "$tmp/max.xlf" u1 "ALPHA ONE."
check "--max-answer-size: u3 (14 bytes) failed" grep -q -F \
  "segment u3#0 not translated: engine '$tmp/big.sh' answered more than 12 bytes, the maximum answer size" \
  "$tmp/err"
within "--max-answer-size 1x" 1 10 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/max.xlf" -q --mt identity --max-answer-size 1x
check "--max-answer-size 1x: says what it takes" grep -q -F \
  -- '--max-answer-size takes a number of bytes' "$tmp/err"

# A megabyte for three words: the segment fails; the run goes on.
doc "$tmp/tag.xlf" 'Red <g id="1">car</g> here.' "Blue sky."
within "a megabyte answering three words" 3 30 500 "$x" translate \
  "$tmp/tag.xlf" -o "$tmp/mega.xlf" -q \
  --mt "cmd:awk '/Blue|^[0-9 ]*\$/ { print toupper(\$0); fflush(); next } { s = \"\"; for (i = 0; i < 200000; i++) s = s \"word \"; print s; fflush() }'"
check "megabyte: u1 failed" no_target "$tmp/mega.xlf" u1
check "megabyte: u2 translated" target_is "$tmp/mega.xlf" u2 "BLUE SKY."
check "megabyte: u1 named" grep -q "segment u1#0 not translated: .*more than 16 times as long" "$tmp/err"

# --- Dead engines -------------------------------------------------------------

many "$tmp/3000.xlf" 3000
within "a dead engine, 3,000 segments" 3 20 300 "$x" translate \
  "$tmp/3000.xlf" -o "$tmp/dead.xlf" -q --mt "cmd:no-such-engine-xmt --fast"
check "dead: one message ($(lines) lines)" test "$(lines)" -eq 1
check "dead: it names the engine and the reason" grep -q -F \
  "3000.xlf: 3000 segments not translated: the MT engine failed 3 batches in a row, the last with: engine 'no-such-engine-xmt --fast' exited with status 127: " \
  "$tmp/err"
check "dead: the output is written, without targets" \
  test "$(targets "$tmp/dead.xlf")" -eq 0
check "dead: within 10 s (${elapsed_ms} ms)" test "$elapsed_ms" -lt $((10000 * time_factor))

within "a dead engine, --keep-going" 3 60 300 "$x" translate \
  "$tmp/3000.xlf" -o "$tmp/dead2.xlf" -q --mt "cmd:no-such-engine-xmt" \
  --keep-going
check "--keep-going: every segment named ($(grep -c 'not translated: ' "$tmp/err"))" \
  test "$(grep -c 'segment u[0-9]*#0 not translated: ' "$tmp/err")" -eq 3000
check "--keep-going: then the count" grep -q -F \
  '3000.xlf: 3000 segments not translated' "$tmp/err"

# A hung engine: 2 timeouts in the run (the first batch, then the
# engine started again), never one per segment nor two per batch.
many "$tmp/200.xlf" 200
within "a hung engine, 200 segments, --timeout 1" 3 30 300 "$x" translate \
  "$tmp/200.xlf" -o "$tmp/hung.xlf" -q --mt "cmd:sleep 1000" --timeout 1
check "hung: one message ($(lines) lines)" test "$(lines)" -eq 1
check "hung: it says the engine timed out" grep -q -F \
  "200.xlf: 200 segments not translated: the MT engine failed 3 batches in a row, the last with: not sent: engine 'sleep 1000' timed out after 1.0 s, and had timed out before it was restarted: it hangs" \
  "$tmp/err"
check "hung: 2 timeouts, within 4 s (${elapsed_ms} ms)" \
  test "$elapsed_ms" -lt $((4000 * time_factor))

# A closed port: a port that was free a moment ago.
if command -v python3 >/dev/null; then
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  within "a closed port, 3,000 segments" 3 30 300 "$x" translate \
    "$tmp/3000.xlf" -o "$tmp/closed.xlf" -q -s en -t es \
    --mt "http:http://127.0.0.1:$port"
  check "closed port: one message ($(lines) lines)" test "$(lines)" -eq 1
  check "closed port: it names the service and the reason" grep -q -F \
    "3000 segments not translated: the MT engine failed 3 batches in a row, the last with: http://127.0.0.1:$port/translate: Couldn't connect to server (after 3 retries)" \
    "$tmp/err"
  check "closed port: within 15 s (${elapsed_ms} ms)" test "$elapsed_ms" -lt $((15000 * time_factor))
else
  echo "# no python3: the closed port is not tried"
fi

# --- The fake HTTP service --------------------------------------------------------

fixture=${XMT_FIXTURES:-$(dirname "$0")/../fixtures}/fake-http-mt.py
if ! command -v python3 >/dev/null; then
  echo "# no python3: the HTTP cases are skipped"
  finish
fi
mkfifo "$tmp/srv.in"
python3 "$fixture" <"$tmp/srv.in" >"$tmp/srv.out" 2>"$tmp/srv.err" &
srv=$!
exec 9>"$tmp/srv.in"
trap 'exec 9>&-; kill $srv 2>/dev/null; rm -rf "$tmp"' EXIT
i=0
while [ $i -lt 100 ] && ! grep -q '^PORT ' "$tmp/srv.out"; do
  sleep 0.1
  i=$((i + 1))
done
port=$(sed -n 's/^PORT //p' "$tmp/srv.out")
if [ -z "$port" ]; then
  fail "the fake HTTP service did not start: $(cat "$tmp/srv.err")"
  finish
fi
url=http://127.0.0.1:$port

doc "$tmp/http.xlf" "Alpha one." "empty answer here" "never mind" \
  "huge 209715200 bytes"
within "HTTP: empty, never, huge" 3 20 300 "$x" translate "$tmp/http.xlf" \
  -o "$tmp/http.out.xlf" -q -s en -t es --mt "http:$url" --timeout 2
check "HTTP: u1 translated" target_is "$tmp/http.out.xlf" u1 "ALPHA ONE."
check "HTTP: empty translatedText fails" grep -q -F \
  "segment u2#0 not translated: the answer is empty" "$tmp/err"
check "HTTP: no empty target" no_target "$tmp/http.out.xlf" u2
check "HTTP: no answer within the batch's 2 s" grep -q -F \
  "segment u3#0 not translated: $url/translate: Timeout was reached (the batch's 2.0 s were up)" \
  "$tmp/err"
check "HTTP: a 200 MB answer cut short" grep -q -F \
  "segment u4#0 not translated: $url/translate: the answer is larger than 12160 bytes for a request of 20 bytes" \
  "$tmp/err"
check "HTTP: --timeout 2 is the batch's, retries included (${elapsed_ms} ms)" \
  test "$elapsed_ms" -ge 1900 -a "$elapsed_ms" -lt $((4500 * time_factor))

# A service that never answers anything: about 2 s a batch, and three
# batches stop the run.
awk 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  print "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
  for (i = 1; i <= 300; i++)
    printf "<trans-unit id=\"u%d\"><source>never %d</source></trans-unit>\n", i, i
  print "</body></file></xliff>" }' >"$tmp/never.xlf"
within "HTTP: a service that never answers, 300 segments" 3 30 300 "$x" \
  translate "$tmp/never.xlf" -o "$tmp/never.out.xlf" -q -s en -t es \
  --mt "http:$url" --timeout 2
check "never: one message ($(lines) lines)" test "$(lines)" -eq 1
check "never: three batches of 2 s, then stopped" grep -q -F \
  "300 segments not translated: the MT engine failed 3 batches in a row, the last with: $url/translate: Timeout was reached (the batch's 2.0 s were up); the run stopped asking it" \
  "$tmp/err"
check "never: about 6 s (${elapsed_ms} ms)" \
  test "$elapsed_ms" -ge 5700 -a "$elapsed_ms" -lt $((9000 * time_factor))

finish
