#!/bin/sh
# test_cli_engine_jobs.sh -- --engine-jobs N: a window's batches go to N
# engine processes at once, each its own; the output and the report are
# those of one process; a process that fails loses only its own batches,
# each named; bad values are refused.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup engine-jobs
x=$XLIFFMT

{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>'
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    echo "<trans-unit id=\"u$i\"><source>Sentence number $i is <g id=\"1\">here</g>.</source></trans-unit>"
  done
  echo '</body></file></xliff>'
} >"$tmp/doc.xlf"

# An engine that logs its process id once and answers in upper case.
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
echo \$\$ >>"$tmp/pids"
while IFS= read -r line; do printf '%s\n' "\$line" | tr a-z A-Z; done
EOD
chmod +x "$tmp/engine.sh"
run() { # OUT REPORT JOBS
  "$x" translate "$tmp/doc.xlf" -o "$1" --mt "cmd:$tmp/engine.sh" -q \
    --batch-size 2 --probes off --report "$2" --engine-jobs "$3"
}

: >"$tmp/pids"
expect_exit 0 "one engine process" run "$tmp/1.xlf" "$tmp/1.json" 1 &&
  check "one process started" test "$(sort -u "$tmp/pids" | wc -l)" -eq 1
: >"$tmp/pids"
if expect_exit 0 "--engine-jobs 3" run "$tmp/3.xlf" "$tmp/3.json" 3; then
  check "three processes started" test "$(sort -u "$tmp/pids" | wc -l)" -eq 3
  check "the same bytes as one process" cmp -s "$tmp/1.xlf" "$tmp/3.xlf"
  check "the tags kept" test "$(grep -c '<target[^>]*>SENTENCE NUMBER [0-9]* IS <g id="1">HERE</g>.</target>' "$tmp/3.xlf")" -eq 12
  check "report: 6 calls, 12 segments" grep -q '"segments_sent":12,.*"mt_calls":6,' "$tmp/3.json"
fi
# The report says how long the engine had requests: an engine that takes
# 50 ms a segment had them for at least 0.6 s of the run, not longer
# than the run.
cat >"$tmp/slow.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do sleep 0.05; printf '%s\n' "\$line"; done
EOD
chmod +x "$tmp/slow.sh"
if expect_exit 0 "an engine taking 50 ms a segment" "$x" translate \
  "$tmp/doc.xlf" -o "$tmp/slow.xlf" --mt "cmd:$tmp/slow.sh" -q --probes off \
  --report "$tmp/slow.json"; then
  engine=$(sed -n 's/.*"engine_seconds":\([0-9.]*\).*/\1/p' "$tmp/slow.json")
  wall=$(sed -n 's/.*"seconds":\([0-9.]*\),"engine_seconds".*/\1/p' "$tmp/slow.json")
  check "engine_seconds at least 0.6 ($engine)" \
    awk -v e="${engine:-0}" 'BEGIN { exit !(e >= 0.6) }'
  check "engine_seconds within the run ($engine of $wall)" \
    awk -v e="${engine:-0}" -v w="${wall:-0}" 'BEGIN { exit !(e > 0 && e <= w) }'
fi
# More processes than batches: no process without work is started.
: >"$tmp/pids"
expect_exit 0 "--engine-jobs 64 on 6 batches" run "$tmp/64.xlf" "$tmp/64.json" 64 &&
  check "six processes started" test "$(sort -u "$tmp/pids" | wc -l)" -eq 6

# The engine dies on one segment: its batch (units 3 and 4, the second
# process's first) fails and is sent again a segment at a time, so only
# that segment fails, named; the process is started again for the next,
# and the rest is translated.
cat >"$tmp/dies.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in *"number 3 "*) exit 1 ;; esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/dies.sh"
if expect_exit 3 "an engine process dies" "$x" translate "$tmp/doc.xlf" \
  -o "$tmp/half.xlf" --mt "cmd:$tmp/dies.sh" --batch-size 2 --probes off \
  --engine-jobs 2 --report "$tmp/half.json"; then
  check "the failed segment named" test "$(grep -o 'segment u[0-9]*#0 not translated' "$tmp/err" | tr '\n' ' ')" = \
    "segment u3#0 not translated "
  check "the others translated" test "$(grep -c '<target[^>]*>SENTENCE' "$tmp/half.xlf")" -eq 11
  check "report: 1 failed" grep -q '"translated_units":11,.*"failed_segments":1,' "$tmp/half.json"
fi

for bad in 0 65 two -1; do
  if exits_with 1 "--engine-jobs $bad" "$x" translate "$tmp/doc.xlf" \
    -o "$tmp/bad.xlf" --mt identity --engine-jobs "$bad"; then
    check "--engine-jobs $bad: message" grep -q -- '--engine-jobs takes a number from 1 to 64' "$tmp/err"
  fi
done
check "no output from a usage error" test ! -e "$tmp/bad.xlf"

# batch passes it on to each document.
mkdir "$tmp/in"
cp "$tmp/doc.xlf" "$tmp/in/a.xlf"
: >"$tmp/pids"
if expect_exit 0 "batch --engine-jobs 2" "$x" batch "$tmp/in" -o "$tmp/tree" \
  --mt "cmd:$tmp/engine.sh" -q --batch-size 2 --probes off --engine-jobs 2; then
  check "two processes started" test "$(sort -u "$tmp/pids" | wc -l)" -eq 2
  check "the same bytes as translate" cmp -s "$tmp/1.xlf" "$tmp/tree/a.xlf"
fi
finish
