#!/bin/sh
# test_hostile_engine_framing.sh: a line engine's answers are matched to
# segments by something the engine cannot shift (a check line after each
# batch, the banner set aside before the first request), and a blank
# answer is no translation. Fake engines written here as sh and awk
# scripts, each run under a time and memory limit:
#   - a slow engine (0.5 s a line) that prints "Model loaded." first:
#     every unit gets its own translation, exit 0, the cache holds only
#     right answers;
#   - the same engine splitting one answer over two lines: that segment
#     fails, named, exit 3; no other unit gets a shifted answer, nothing
#     wrong is cached;
#   - an engine with a banner that changes every line (the check line
#     too): its answer to the check line is learned;
#   - a hung engine: two timeouts in the run, not two per batch;
#   - a flush=null engine with a banner (python3): set aside;
#   - answers of only U+00A0, U+200B, U+3000, U+2028 (cmd and HTTP): each
#     segment fails as empty, exit 3; a source of only such characters is
#     never sent.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-engine-framing
x=$XLIFFMT

# target_of FILE ID: the unit's target text, or "(none)".
target_of() {
  t=$(grep "<trans-unit id=\"$2\">" "$1" | sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p')
  printf '%s' "${t:-(none)}"
}
# targets_are DESC FILE ID=TEXT...: each unit's exact target.
targets_are() {
  desc=$1 f=$2
  shift 2
  bad=
  for kv in "$@"; do
    id=${kv%%=*} want=${kv#*=}
    got=$(target_of "$f" "$id")
    [ "$got" = "$want" ] || bad="$bad $id='$got' (want '$want')"
  done
  if [ -z "$bad" ]; then pass "$desc"; else fail "$desc:$bad"; fi
}
# summary_is DESC TEXT: the last line of stderr, its time left out.
summary_is() {
  got=$(tail -n 1 "$tmp/err" | sed 's/; [0-9.]* s$//')
  if [ "$got" = "$2" ]; then pass "$1"; else
    fail "$1: got '$got', want '$2'"
  fi
}
# from_cache ENGINE DB OUT: translates again with the same engine command
# (the cache's key), now failing everything, so OUT's targets are the
# cache's answers and nothing else.
from_cache() {
  printf '#!/bin/sh\nexit 1\n' >"$1"
  bounded 30 300 "$x" translate "$tmp/abc.xlf" -o "$3" -q \
    --mt "cmd:$1" --cache "sqlite:$2"
}

doc "$tmp/abc.xlf" "Alpha one." "Bravo two." "Charlie three."

# --- A slow engine with a banner ----------------------------------------------

cat >"$tmp/banner.sh" <<'EOF'
#!/bin/sh
echo "Model loaded."
while IFS= read -r l; do
  sleep 0.5
  printf '%s\n' "$l" | tr a-z A-Z
done
EOF
chmod +x "$tmp/banner.sh"
within "slow engine with a banner" 0 30 300 "$x" translate "$tmp/abc.xlf" \
  -o "$tmp/banner.xlf" --mt "cmd:$tmp/banner.sh" --cache "sqlite:$tmp/banner.db"
targets_are "banner: each unit its own translation" "$tmp/banner.xlf" \
  "u1=ALPHA ONE." "u2=BRAVO TWO." "u3=CHARLIE THREE."
summary_is "banner: the summary" \
  "xliffmt: $tmp/abc.xlf: 3 units, 3 translated, 0 left as they were; 3 segments sent to cmd in 1 calls, 0 copied, 0 deduplicated, 0 failed"
check "banner: within 6 s (${elapsed_ms} ms)" test "$elapsed_ms" -lt $((6000 * time_factor))
from_cache "$tmp/banner.sh" "$tmp/banner.db" "$tmp/banner.again.xlf"
targets_are "banner: the cache holds the right answers only" \
  "$tmp/banner.again.xlf" "u1=ALPHA ONE." "u2=BRAVO TWO." "u3=CHARLIE THREE."

# --- A slow engine that splits an answer over two lines ---------------------------

cat >"$tmp/split.sh" <<'EOF'
#!/bin/sh
echo "Model loaded."
while IFS= read -r l; do
  sleep 0.5
  case $l in
  Bravo*) printf 'BRAVO\nTWO.\n' ;;
  *) printf '%s\n' "$l" | tr a-z A-Z ;;
  esac
done
EOF
chmod +x "$tmp/split.sh"
within "slow engine splitting an answer" 3 30 300 "$x" translate \
  "$tmp/abc.xlf" -o "$tmp/split.xlf" --mt "cmd:$tmp/split.sh" \
  --cache "sqlite:$tmp/split.db"
targets_are "split: no answer shifted" "$tmp/split.xlf" "u1=ALPHA ONE." \
  "u2=(none)" "u3=CHARLIE THREE."
check "split: u2 named" grep -q -x -F \
  "xliffmt: $tmp/abc.xlf:5: segment u2#0 not translated: engine '$tmp/split.sh' answered more than one line for one segment" \
  "$tmp/err"
summary_is "split: the summary" \
  "xliffmt: $tmp/abc.xlf: 3 units, 2 translated, 1 left as they were; 3 segments sent to cmd in 1 calls, 0 copied, 0 deduplicated, 1 failed"
from_cache "$tmp/split.sh" "$tmp/split.db" "$tmp/split.again.xlf"
targets_are "split: nothing wrong cached" "$tmp/split.again.xlf" \
  "u1=ALPHA ONE." "u2=(none)" "u3=CHARLIE THREE."

# --- A banner of changing lines, a check line answered changed -----------------

within "engine rewriting every line, with a banner" 0 30 300 "$x" translate \
  "$tmp/abc.xlf" -o "$tmp/rewrite.xlf" -q \
  --mt "cmd:awk 'NR == 1 { print \"Loading 1\"; print \"Loading 2\" } { print \">> \" toupper(\$0); fflush() }'"
targets_are "rewrite: each unit its own translation" "$tmp/rewrite.xlf" \
  "u1=>> ALPHA ONE." "u2=>> BRAVO TWO." "u3=>> CHARLIE THREE."

# --- A hung engine: one timeout, then one for its restart, per run ------------------

awk 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  print "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
  for (i = 1; i <= 200; i++)
    printf "<trans-unit id=\"u%d\"><source>Sentence number %d here.</source></trans-unit>\n", i, i
  print "</body></file></xliff>" }' >"$tmp/200.xlf"
within "a hung engine, 200 segments in batches of 10" 3 30 300 "$x" translate \
  "$tmp/200.xlf" -o "$tmp/hung.xlf" -q --mt "cmd:sleep 1000" --timeout 1 \
  --batch-size 10
check "hung: two timeouts in all, within 3.5 s (${elapsed_ms} ms)" \
  test "$elapsed_ms" -lt $((3500 * time_factor))
check "hung: it says so" grep -q -x -F \
  "xliffmt: $tmp/200.xlf: 200 segments not translated: the MT engine failed 3 batches in a row, the last with: not sent: engine 'sleep 1000' timed out after 1.0 s, and had timed out before it was restarted: it hangs; the run stopped asking it" \
  "$tmp/err"

# --- Blank answers --------------------------------------------------------------

# Units 1-4 are answered with U+00A0, U+200B, U+3000, U+2028; unit 5 in
# upper case; unit 6 is only U+00A0 and U+200B, never sent (copied, as
# any source without a letter).
doc "$tmp/blank.xlf" "Alpha one." "Bravo two." "Charlie three." \
  "Delta four." "Echo five." "&#xA0;&#x200B;&#xA0;"
cat >"$tmp/blank.sh" <<EOF
#!/bin/sh
while IFS= read -r l; do
  printf '%s\n' "\$l" >>"$tmp/blank.seen"
  case \$l in
  Alpha*) printf '\302\240\n' ;;
  Bravo*) printf '\342\200\213\n' ;;
  Charlie*) printf '\343\200\200\343\200\200\n' ;;
  Delta*) printf '\342\200\250 \n' ;;
  *) printf '%s\n' "\$l" | tr a-z A-Z ;;
  esac
done
EOF
chmod +x "$tmp/blank.sh"
within "blank answers (cmd)" 3 30 300 "$x" translate "$tmp/blank.xlf" \
  -o "$tmp/blank.out.xlf" --mt "cmd:$tmp/blank.sh" --cache "sqlite:$tmp/blank.db"
targets_are "blank: no blank target" "$tmp/blank.out.xlf" "u1=(none)" \
  "u2=(none)" "u3=(none)" "u4=(none)" "u5=ECHO FIVE." \
  "u6=$(printf '\302\240\342\200\213\302\240')"
for u in 1 2 3 4; do
  check "blank: u$u failed as empty" grep -q -x -F \
    "xliffmt: $tmp/blank.xlf:$((u + 3)): segment u$u#0 not translated: the answer is empty" \
    "$tmp/err"
done
summary_is "blank: the summary" \
  "xliffmt: $tmp/blank.xlf: 6 units, 2 translated, 4 left as they were; 5 segments sent to cmd in 1 calls, 1 copied, 0 deduplicated, 4 failed"
check "blank: the blank source is never sent" \
  test "$(grep -c -v -e '^2 4 6 8 0 1 3 5 7 9$' -e '^[A-E][a-z]* [a-z]*\.$' "$tmp/blank.seen")" -eq 0

# --- Blank answers over HTTP ------------------------------------------------------

fixture=${XMT_FIXTURES:-$(dirname "$0")/../fixtures}/fake-http-mt.py
if ! command -v python3 >/dev/null; then
  echo "# no python3: the HTTP cases are skipped"
  finish
fi
# A flush=null engine with a banner: its batches are framed by their NUL,
# the banner set aside before the first one.
cat >"$tmp/null.py" <<'EOD'
import sys
out = sys.stdout.buffer
out.write(b"Model loaded.\n")
out.flush()
buf = b""
while True:
    chunk = sys.stdin.buffer.read1(65536)
    if not chunk:
        break
    buf += chunk
    while b"\0" in buf:
        batch, buf = buf.split(b"\0", 1)
        out.write(batch.upper() + b"\0")
        out.flush()
EOD
within "flush=null engine with a banner" 0 30 300 "$x" translate \
  "$tmp/abc.xlf" -o "$tmp/null.xlf" -q --mt "cmd:python3 $tmp/null.py" \
  --mt-option flush=null
targets_are "flush=null banner: each unit its own translation" \
  "$tmp/null.xlf" "u1=ALPHA ONE." "u2=BRAVO TWO." "u3=CHARLIE THREE."

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
doc "$tmp/hblank.xlf" "blank A0 one" "blank 200B two" "blank 3000 three" \
  "blank 2028 four" "Fine five."
within "blank answers (HTTP)" 3 30 300 "$x" translate "$tmp/hblank.xlf" \
  -o "$tmp/hblank.out.xlf" -s en -t es --mt "http:http://127.0.0.1:$port"
targets_are "HTTP blank: no blank target" "$tmp/hblank.out.xlf" "u1=(none)" \
  "u2=(none)" "u3=(none)" "u4=(none)" "u5=FINE FIVE."
for u in 1 2 3 4; do
  check "HTTP blank: u$u failed as empty" grep -q -x -F \
    "xliffmt: $tmp/hblank.xlf:$((u + 3)): segment u$u#0 not translated: the answer is empty" \
    "$tmp/err"
done
summary_is "HTTP blank: the summary" \
  "xliffmt: $tmp/hblank.xlf: 5 units, 1 translated, 4 left as they were; 5 segments sent to http in 1 calls, 0 copied, 0 deduplicated, 4 failed"

finish
