#!/bin/sh
# pipeline.sh -- `make bench-pipeline`: the translate pipeline with a real
# engine. The English side of the EUR-Lex tagged dev set becomes one XLIFF
# document (one unit per line); it is translated with --mt identity and with
# --mt apertium:eng-spa, and the same segments go through Apertium alone
# (one process, one run: the engine's best case). Reports segments per
# second and the share of the Apertium run's wall time spent outside the
# engine, two ways: against Apertium alone on the same segments, and as
# the run's own report counts it (wall time with no request at the
# engine, which counts probes as the engine's). Then --engine-jobs: Apertium in two processes, and an engine
# that waits 5 ms a segment without using the CPU (as a server or a GPU
# does) in 1 and 4.
#
# Env: XLIFFMT (required), XMT_TEST_DATA (default tests/data).
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup bench-pipeline

# Lines whose bx/ex pairs span other lines are left out: a unit's source
# must pair its codes.
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo '<file original="eurlex" source-language="en" target-language="es" datatype="plaintext"><body>'
  grep -v -e '<bx' -e '<ex' "$src" | awk '{ printf "<trans-unit id=\"%d\"><source>%s</source></trans-unit>\n", NR, $0 }'
  echo '</body></file></xliff>'
} >"$dir/in.xlf"

# secs CMD...: wall seconds of CMD (stdout discarded).
secs() {
  s0=$(date +%s.%N)
  "$@" >/dev/null
  s1=$(date +%s.%N)
  awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f", b - a }'
}

"$XLIFFMT" extract "$dir/in.xlf" -o "$dir/seg.tsv" -q
segments=$(wc -l <"$dir/seg.tsv" | tr -d ' ')
cut -f2 "$dir/seg.tsv" | sed 's/\\t/ /g; s/\\n/ /g' >"$dir/seg.txt"

t_id=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/id.xlf" --mt identity -q)
t_ap=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/es.xlf" \
  --mt apertium:eng-spa -q --report "$dir/report.json")
t_none=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/es2.xlf" \
  --mt apertium:eng-spa -q --aligner none)
t_engine=$(secs sh -c "apertium -u eng-spa <'$dir/seg.txt'")
t_ap2=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/es3.xlf" \
  --mt apertium:eng-spa -q --engine-jobs 2)
cat >"$dir/wait.sh" <<'EOF'
#!/bin/sh
while IFS= read -r line; do sleep 0.005; printf '%s\n' "$line"; done
EOF
chmod +x "$dir/wait.sh"
t_w1=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/w1.xlf" \
  --mt "cmd:$dir/wait.sh" -q --probes off)
t_w4=$(secs "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/w4.xlf" \
  --mt "cmd:$dir/wait.sh" -q --probes off --engine-jobs 4)
cmp -s "$dir/w1.xlf" "$dir/w4.xlf" ||
  { echo "pipeline.sh: --engine-jobs 4 wrote other bytes" >&2; exit 1; }

sent=$(sed -n 's/.*"segments_sent":\([0-9]*\).*/\1/p' "$dir/report.json")
echo "input: $segments segments to translate ($sent sent after deduplication)"
printf '%-40s %8s %12s\n' run seconds segments/s
for row in "translate --mt identity:$t_id" \
  "translate --mt apertium:eng-spa:$t_ap" \
  "  the same, --aligner none:$t_none" \
  "  the same, --engine-jobs 2:$t_ap2" \
  "apertium alone (one run):$t_engine" \
  "waiting engine (5 ms a segment):$t_w1" \
  "  the same, --engine-jobs 4:$t_w4"; do
  name=${row%:*} t=${row##*:}
  awk -v n="$name" -v t="$t" -v s="$segments" \
    'BEGIN { printf "%-40s %8.2f %12.0f\n", n, t, s / (t < 0.001 ? 0.001 : t) }'
done
awk -v a="$t_ap" -v e="$t_engine" -v n="$t_none" 'BEGIN {
  printf "outside the engine: %.1f %% of the apertium run (%.1f %% without the aligner)\n",
    100 * (a - e) / a, 100 * (n - e) / n }'
in_run=$(sed -n 's/.*"seconds":\([0-9.]*\),"engine_seconds":\([0-9.]*\).*/\1 \2/p' "$dir/report.json")
echo "$in_run" | awk '{ printf "outside the engine, as the run counts it: %.1f %% (%.2f s of %.2f s with no request at the engine)\n",
  100 * ($1 - $2) / $1, $1 - $2, $1 }'
awk -v a="$t_w4" -v b="$t_w1" 'BEGIN {
  printf "waiting engine: --engine-jobs 4 / 1: %.2f\n", a / b }'

# The same wait, answers changed (upper case), so that the aligner trains
# and tags are projected: how much of the run is outside the engine when
# the engine is not this machine's CPU (a server, a GPU), with probes (the
# default: they go to the engine while the aligner trains) and without.
cat >"$dir/waitu.sh" <<'EOS'
#!/bin/sh
while IFS= read -r line; do sleep 0.005; printf '%s\n' "$line" | tr a-z A-Z; done
EOS
chmod +x "$dir/waitu.sh"
for probes in auto off; do
  "$XLIFFMT" translate "$dir/in.xlf" -o "$dir/wu.xlf" --mt "cmd:$dir/waitu.sh" \
    -q --probes "$probes" --report "$dir/wu.json"
  sed -n 's/.*"seconds":\([0-9.]*\),"engine_seconds":\([0-9.]*\).*/\1 \2/p' \
    "$dir/wu.json" | awk -v p="$probes" '{ printf "waiting engine that translates, --probes %s: %.2f s, outside the engine: %.1f %%\n",
      p, $1, 100 * ($1 - $2) / $1 }'
done
