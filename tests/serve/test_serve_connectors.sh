#!/bin/sh
# test_serve_connectors.sh: what a connector's setup and a monitor need.
# /health is degraded (503, with the reason) while the engine is down, a
# log line and counters tell its failure and its recovery.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-connectors
. "$(dirname "$0")/lib.sh"

# --- An engine that dies, and comes back -----------------------------------
# It gives each line back (the check line of digits too) until $tmp/dead
# exists, then exits at the next line; the server reopens it after a
# failure, and it works again once $tmp/dead is gone.
cat >"$tmp/eng.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ -e "$tmp/dead" ] && exit 1
  printf '%s\n' "\$line"
done
EOD
chmod +x "$tmp/eng.sh"

serve_start dies --mt "cmd:$tmp/eng.sh" -s en -t es --threads 1 || exit 1
u=$url
mt="cmd:$tmp/eng.sh"
healthy='{"status":"ok","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
down='{"status":"degraded","reason":"engine '"$mt"': engine '"'$tmp/eng.sh'"' exited with status 1","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
apy_ok='{"responseData": {"translatedText": "hello"}, "responseDetails": null, "responseStatus": 200}'
apy_503='{"status": "error", "code": 503, "message": "Service Unavailable", "explanation": "1 segment not translated"}'
# metrics: the engine counters of /metrics, one line
metrics() {
  curl -s "$u/metrics" | sed -n 's/^xliffmt_serve_\(engine_failures_total\|engine_restarts_total\|engines_down\) //p' |
    tr '\n' ' '
}
# engine_lines: the lines of the server's stderr about its engine
engine_lines() {
  grep -c "^xliffmt serve: engine " "$tmp/dies.err"
}

expect "health before any translation" 200 "$healthy" "$u/health"
expect "a translation" 200 "$apy_ok" "$u/translate?langpair=en|es&q=hello"
: >"$tmp/dead"
expect "the engine dies: 503" 503 "$apy_503" \
  "$u/translate?langpair=en|es&q=hello"
expect "health while the engine is down: degraded, with the reason" 503 \
  "$down" "$u/health"
expect "the engine dies again: 503" 503 "$apy_503" \
  "$u/translate?langpair=en|es&q=hello"
if [ "$(metrics)" = "2 2 1 " ]; then
  pass "metrics: 2 failures, 2 restarts, 1 engine down"
else
  fail "metrics: 2 failures, 2 restarts, 1 engine down (got $(metrics))"
fi
if [ "$(engine_lines)" = 1 ] &&
  grep -qxF "xliffmt serve: engine $mt: engine '$tmp/eng.sh' exited with status 1" \
    "$tmp/dies.err"; then
  pass "one line on stderr for the failure"
else
  fail "one line on stderr for the failure"
  sed 's/^/#   /' "$tmp/dies.err"
fi
rm -f "$tmp/dead"
expect "the engine restarted translates" 200 "$apy_ok" \
  "$u/translate?langpair=en|es&q=hello"
expect "health after the recovery" 200 "$healthy" "$u/health"
if [ "$(metrics)" = "2 2 0 " ]; then
  pass "metrics after the recovery: no engine down"
else
  fail "metrics after the recovery: no engine down (got $(metrics))"
fi
if [ "$(engine_lines)" = 2 ] &&
  tail -n 1 "$tmp/dies.err" | grep -qxF "xliffmt serve: engine $mt: recovered"; then
  pass "one line on stderr for the recovery"
else
  fail "one line on stderr for the recovery"
  sed 's/^/#   /' "$tmp/dies.err"
fi
serve_stop

finish
