#!/bin/sh
# test_hostile_round3.sh: engines that speak a little differently are
# understood, and an answer that says it failed is no translation.
#   - a line engine whose output opens with a UTF-8 byte order mark (as
#     .NET programs and Python's utf-8-sig write it), all at once or a
#     byte at a time, before its first answer or before a banner: every
#     segment translated, no BOM in any target, exit 0 (the BOM made the
#     first answer to the check line differ from the next, and the run
#     waited twice the timeout, then failed every segment);
#   - a LibreTranslate service that answers 200 with an "error" member
#     beside its translatedText: that segment fails, naming the error,
#     exit 3; the others are translated;
#   - an engine that colours its answers for a terminal: the escape
#     sequences removed whole, not only their ESC, with a warning.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round3
x=$XLIFFMT

doc "$tmp/abc.xlf" "Alpha one." "Beta two." "Gamma three."
# target_of FILE ID: the text of unit ID's target.
target_of() {
  sed -n "s|.*<trans-unit id=\"$2\">.*<target[^>]*>\\([^<]*\\)</target>.*|\\1|p" "$1"
}
# all_upper DESC FILE: each unit's target is its source in upper case.
all_upper() {
  got="$(target_of "$2" u1)|$(target_of "$2" u2)|$(target_of "$2" u3)"
  want="ALPHA ONE.|BETA TWO.|GAMMA THREE."
  if [ "$got" = "$want" ]; then
    pass "$1: each unit its own answer, no BOM"
  else
    fail "$1: targets '$got', expected '$want'"
  fi
}

# --- A BOM opening the engine's output.
# bom_engine NAME BEFORE: an engine that writes BEFORE (printf format) at
# its start or before its first answer, then each line in upper case.
bom_engine() {
  printf '%s\n' "$2" >"$tmp/$1.sh"
  chmod +x "$tmp/$1.sh"
}
bom_engine bom_first 'first=1; while IFS= read -r l; do if [ $first = 1 ]; then printf "\357\273\277"; first=0; fi; printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_bytes 'first=1; while IFS= read -r l; do if [ $first = 1 ]; then printf "\357"; sleep 0.2; printf "\273"; sleep 0.2; printf "\277"; first=0; fi; printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_start 'printf "\357\273\277"; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
bom_engine bom_banner 'printf "\357\273\277Model loaded.\n"; while IFS= read -r l; do printf "%s\n" "$l" | tr a-z A-Z; done'
for e in bom_first bom_bytes bom_start bom_banner; do
  within "$e" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/$e.xlf" -q \
    --mt "cmd:$tmp/$e.sh" --timeout 5
  all_upper "$e" "$tmp/$e.xlf"
done

# --- An engine that colours its answers for a terminal (ESC [ ... m, a
# window title ESC ] ... BEL, the C1 CSI): the sequences go whole, with
# the warning; only their ESC went, and "[32m" reached the target.
bom_engine colours 'while IFS= read -r l; do printf "\033]0;mt\007\033[1;32m%s\033[0m\302\2332K\n" "$l" | tr a-z A-Z; done'
within "colours" 0 20 300 "$x" translate "$tmp/abc.xlf" -o "$tmp/colours.xlf" \
  --mt "cmd:$tmp/colours.sh" --timeout 5
all_upper "colours" "$tmp/colours.xlf"
check "colours: the warning" grep -q -F \
  "segment u1#0: the engine's answer had 4 control characters; removed" \
  "$tmp/err"

# --- A LibreTranslate service answering 200 with an error.
if ! command -v python3 >/dev/null; then
  echo "# python3 not installed: the HTTP checks skipped"
  finish
fi
cat >"$tmp/svc.py" <<'EOD'
import json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a):
        pass
    def do_POST(self):
        q = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["q"]
        a = {"translatedText": q.upper()}
        if q.startswith("Beta"):
            a["error"] = "model not loaded"
        elif q.startswith("Gamma"):
            a["error"] = {"code": 503, "message": "overloaded"}
        elif q.startswith("Delta"):
            a["error"] = None
        elif q.startswith("Epsilon"):
            a["error"] = ""
        d = json.dumps(a).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(d)))
        self.end_headers()
        self.wfile.write(d)
s = ThreadingHTTPServer(("127.0.0.1", 0), H)
print("PORT", s.server_address[1], flush=True)
threading.Thread(target=s.serve_forever, daemon=True).start()
sys.stdin.read()
EOD
mkfifo "$tmp/svc.in"
python3 "$tmp/svc.py" <"$tmp/svc.in" >"$tmp/svc.port" &
svc=$!
exec 3>"$tmp/svc.in"
trap 'exec 3>&-; kill $svc 2>/dev/null; rm -rf "$tmp"' EXIT
port=
for _ in $(seq 50); do
  port=$(sed -n 's/^PORT //p' "$tmp/svc.port")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { fail "the HTTP service did not start"; finish; }
doc "$tmp/err.xlf" "Alpha one." "Beta two." "Gamma three." "Delta four." \
  "Epsilon five."
url=http://127.0.0.1:$port
within "LibreTranslate 200 with an error" 3 20 300 "$x" translate \
  "$tmp/err.xlf" -o "$tmp/err.out.xlf" -q --mt "http:$url" \
  --mt-option api=libretranslate --timeout 5
expect_text "LibreTranslate 200 with an error: named" "$tmp/err" \
  "xliffmt: $tmp/err.xlf:5: segment u2#0 not translated: $url/translate: the answer says error: model not loaded
xliffmt: $tmp/err.xlf:6: segment u3#0 not translated: $url/translate: the answer says error: overloaded
xliffmt: $tmp/err.xlf: 2 segments not translated"
got="$(target_of "$tmp/err.out.xlf" u1)|$(target_of "$tmp/err.out.xlf" u2)|$(target_of "$tmp/err.out.xlf" u3)|$(target_of "$tmp/err.out.xlf" u4)|$(target_of "$tmp/err.out.xlf" u5)"
want="ALPHA ONE.|||DELTA FOUR.|EPSILON FIVE."
if [ "$got" = "$want" ]; then
  pass "LibreTranslate 200 with an error: no target from it"
else
  fail "LibreTranslate 200 with an error: targets '$got', expected '$want'"
fi

finish
