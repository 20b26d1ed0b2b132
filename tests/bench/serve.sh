#!/bin/sh
# serve.sh -- make bench-serve: a loopback load test of `xliffmt serve
# --mt apertium:eng-spa` side by side with Debian's apertium-apy on the
# same engine and machine. 16 clients on keep-alive connections send
# 2,000 APy /translate requests (one sentence to a paragraph of the
# English dev sets, a third with inline tags) to each server, then
# 2,000 other requests of plain text. Both servers run two Apertium
# pipelines (--threads 2, apertium-apy -i 2). xliffmt is then sent the
# tagged texts of the first run alone. Reports errors, p50 and p99
# latency and requests/s of each, the ratios of xliffmt's requests/s,
# plain and tagged, to apertium-apy's on plain text, and xliffmt's
# resident memory after the first and the last thousand requests of the
# mixed run.
# Env: XLIFFMT, XMT_TEST_DATA, BENCH_REQUESTS (default 2000),
# BENCH_CLIENTS (default 16).
# Exit status: 0 when xliffmt had no error, its memory stayed flat (grew
# less than 10 %) and its throughput, on plain text and on tagged text,
# is at least 0.8 of apertium-apy's on plain text; 1 otherwise or when
# it cannot run.
set -u

. "$(dirname "$0")/lib.sh"
bench_setup bench-serve
here=$(cd "$(dirname "$0")" && pwd)
load=$here/serve_load.py
requests=${BENCH_REQUESTS:-2000}
clients=${BENCH_CLIENTS:-16}
modes=/usr/share/apertium/modes
for need in apertium-apy python3 curl; do
  command -v $need >/dev/null 2>&1 ||
    { echo "bench-serve: $need not found: apt-get install apertium-apy curl" >&2; exit 1; }
done

pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$dir"' EXIT

python3 "$load" --make "$src" "${src%/*}/dev-glossary.en" --texts "$dir/all.tsv" --requests "$requests" ||
  exit 1
head -n "$requests" "$dir/all.tsv" >"$dir/mixed.tsv"
tail -n "$requests" "$dir/all.tsv" >"$dir/plain.tsv"

# apertium-apy on a free loopback port, two pipelines for the pair.
apy_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
apertium-apy -p "$apy_port" -i 2 "$modes" >"$dir/apy.log" 2>&1 &
pids="$pids $!"
# xliffmt serve on a port of its choosing (shown on its standard error).
: >"$dir/xliffmt.err"
"$XLIFFMT" serve --listen 127.0.0.1:0 --mt apertium:eng-spa --threads 2 \
  >"$dir/xliffmt.out" 2>"$dir/xliffmt.err" &
xpid=$!
pids="$pids $xpid"

n=0
x_port=
while [ $n -lt 300 ]; do
  [ -n "$x_port" ] || x_port=$(sed -n \
    's|.*listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$dir/xliffmt.err")
  if [ -n "$x_port" ] &&
    curl -s -o /dev/null "http://127.0.0.1:$apy_port/listPairs"; then
    break
  fi
  n=$((n + 1))
  sleep 0.1
done
if [ -z "$x_port" ] || [ $n -ge 300 ]; then
  echo "bench-serve: the servers did not start:" >&2
  cat "$dir/apy.log" "$dir/xliffmt.err" >&2
  exit 1
fi

# Warm-up: both pipelines of each server started, outside the figures.
printf 'plain\tThe warm-up sentence is not measured.\n' >"$dir/warm.tsv"
for port in "$apy_port" "$x_port"; do
  python3 "$load" --port "$port" --texts "$dir/warm.tsv" --requests 8 \
    --clients 4 >/dev/null || exit 1
done

# run NAME PORT FILE [--pid PID]: one load run; its figures in $dir/NAME.
run() {
  r_name=$1 r_port=$2 r_file=$3
  shift 3
  python3 "$load" --port "$r_port" --texts "$r_file" --requests "$requests" \
    --clients "$clients" --errors "$dir/$r_name.errors" "$@" >"$dir/$r_name" ||
    { echo "bench-serve: the load client failed" >&2; exit 1; }
}
# get NAME FIELD: one figure of a run.
get() { tr ' ' '\n' <"$dir/$1" | sed -n "s/^$2=//p"; }

run apy-mixed "$apy_port" "$dir/mixed.tsv"
run xmt-mixed "$x_port" "$dir/mixed.tsv" --pid "$xpid"
run apy-plain "$apy_port" "$dir/plain.tsv"
run xmt-plain "$x_port" "$dir/plain.tsv"
# The tagged texts alone, each sent once.
tagged=$(grep -c '^tags' "$dir/mixed.tsv")
run xmt-tags "$x_port" "$dir/mixed.tsv" --only tags --requests "$tagged"

echo "bench-serve: $requests requests, $clients clients, eng-spa, $(nproc) cores"
printf '%-30s %7s %9s %9s %9s\n' server errors p50/ms p99/ms requests/s
for r in apy-mixed xmt-mixed apy-plain xmt-plain xmt-tags; do
  case $r in
  apy-mixed) label="apertium-apy, 1/3 tagged" ;;
  xmt-mixed) label="xliffmt serve, 1/3 tagged" ;;
  apy-plain) label="apertium-apy, plain" ;;
  xmt-plain) label="xliffmt serve, plain" ;;
  xmt-tags) label="xliffmt serve, tagged ($tagged)" ;;
  esac
  printf '%-30s %7s %9s %9s %9s\n' "$label" "$(get $r errors)" \
    "$(get $r p50_ms)" "$(get $r p99_ms)" "$(get $r rps)"
  if [ -s "$dir/$r.errors" ]; then
    sed 's/^/    error: /' "$dir/$r.errors"
  fi
done
ratio=$(awk -v x="$(get xmt-plain rps)" -v a="$(get apy-plain rps)" \
  'BEGIN { printf "%.2f", x / a }')
tags_ratio=$(awk -v x="$(get xmt-tags rps)" -v a="$(get apy-plain rps)" \
  'BEGIN { printf "%.2f", x / a }')
half=$(get xmt-mixed rss_half_kib)
end=$(get xmt-mixed rss_end_kib)
echo "plain-text throughput, xliffmt / apertium-apy: $ratio (target >= 0.8)"
echo "tagged throughput, xliffmt / apertium-apy plain: $tags_ratio (target >= 0.8)"
echo "xliffmt RSS after the first $((requests / 2)) requests: $((half / 1024)) MiB" \
  "($half KiB); after the last: $((end / 1024)) MiB ($end KiB)"

fail=0
if [ "$(get xmt-mixed errors)" != 0 ] || [ "$(get xmt-plain errors)" != 0 ] ||
  [ "$(get xmt-tags errors)" != 0 ]; then
  echo "bench-serve: FAIL: xliffmt answered with errors"
  fail=1
fi
if [ "$end" -gt $((half + half / 10)) ]; then
  echo "bench-serve: FAIL: xliffmt's memory grew by more than 10 %"
  fail=1
fi
if awk -v r="$ratio" 'BEGIN { exit !(r < 0.8) }'; then
  echo "bench-serve: FAIL: plain-text throughput below 0.8 of apertium-apy's"
  fail=1
fi
if awk -v r="$tags_ratio" 'BEGIN { exit !(r < 0.8) }'; then
  echo "bench-serve: FAIL: tagged throughput below 0.8 of apertium-apy's plain"
  fail=1
fi
exit $fail
