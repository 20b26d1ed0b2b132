#!/bin/sh
# batch_scale.sh -- `make bench-batch-scale`: a batch of many generated
# EUR-Lex-like documents, translated with Apertium eng-spa through a
# translation memory cache, at two sizes. Each document is a title, a
# share of recitals and articles drawn from the English side of the
# EUR-Lex tagged dev set (so documents repeat one another as real ones
# do), and a closing formula. Reports wall time, documents per second,
# cache hits and peak memory: of the batch process itself (sampled from
# /proc) and of any process of the run (GNU time), for both sizes. Memory
# is bounded when the larger batch peaks where the smaller one does.
#
# Env: XLIFFMT (required), XMT_TEST_DATA (default tests/data),
#      DOCS (default 1000), SMALL_DOCS (default 100), JOBS (default 2),
#      BATCH_OPTS (more options for batch, e.g. --fresh-engine).
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup bench-batch-scale
docs=${DOCS:-1000}
small=${SMALL_DOCS:-100}
jobs=${JOBS:-2}
[ -x /usr/bin/time ] || {
  echo "batch_scale.sh: GNU time not found: apt-get install time" >&2
  exit 1
}

# run N: translates N documents; sets secs, tree_kb, parent_kb, hits, sent.
run() {
  rm -rf "$dir/in" "$dir/out" "$dir/tm.db"*
  bench_eurlex_docs "$1" "$dir/in"
  s0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$dir/time" "$XLIFFMT" batch "$dir/in" \
    -o "$dir/out" --mt apertium:eng-spa -q -j "$jobs" \
    --cache "sqlite:$dir/tm.db" --report "$dir/report.json" ${BATCH_OPTS:-} &
  pid=$!
  parent_kb=0
  # The batch process is time's child; its VmHWM is its own peak.
  while kill -0 "$pid" 2>/dev/null; do
    b=$(pgrep -P "$pid" -x xliffmt 2>/dev/null | head -1 || true)
    if [ -n "$b" ] && [ -r "/proc/$b/status" ]; then
      hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$b/status" 2>/dev/null || true)
      [ -n "$hwm" ] && [ "$hwm" -gt "$parent_kb" ] && parent_kb=$hwm
    fi
    sleep 0.2
  done
  wait "$pid"
  s1=$(date +%s.%N)
  secs=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.1f", b - a }')
  tree_kb=$(cat "$dir/time")
  totals=$(sed 's/.*"totals"://' "$dir/report.json")
  hits=$(echo "$totals" | sed -n 's/.*"cache_hits":\([0-9]*\).*/\1/p')
  sent=$(echo "$totals" | sed -n 's/.*"segments_sent":\([0-9]*\).*/\1/p')
  done_docs=$(echo "$totals" | sed -n 's/.*"translated_documents":\([0-9]*\).*/\1/p')
  [ "$done_docs" = "$1" ] || {
    echo "batch_scale.sh: $done_docs of $1 documents translated" >&2
    exit 1
  }
  written=$(find "$dir/out" -name '*.xlf' | wc -l | tr -d ' ')
  [ "$written" = "$1" ] || {
    echo "batch_scale.sh: $written outputs for $1 documents" >&2
    exit 1
  }
}

echo "EUR-Lex-like documents, Apertium eng-spa, --jobs $jobs, sqlite cache; $(nproc) cores"
printf '%-10s %9s %8s %11s %11s %14s %14s\n' documents seconds docs/s \
  "sent" "cache hits" "batch peak MB" "any peak MB"
for n in "$small" "$docs"; do
  run "$n"
  awk -v n="$n" -v s="$secs" -v se="$sent" -v h="$hits" -v p="$parent_kb" \
    -v t="$tree_kb" 'BEGIN {
    printf "%-10d %9.1f %8.1f %11d %11d %14.1f %14.1f\n",
      n, s, n / s, se, h, p / 1024, t / 1024 }'
done
