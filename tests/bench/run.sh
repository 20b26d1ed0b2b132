#!/bin/sh
# run.sh -- `make bench`: xliffmt speed and memory against xmllint --stream.
#
# Env: XLIFFMT, GEN_XLIFF (required), BENCH_MB (default 512),
#      BENCH_DIR (default a fresh temporary directory, removed on exit).
# Targets: peak RSS < 64 MB, time <= 2.0 x xmllint --stream (a lower bound
# for any tool that has to parse the whole file); XLIFF 2 at XLIFF 1.2's
# time per byte, measured on the XLIFF 2 twin of the same document (the
# same units, text and codes: gen_xliff -2 -u UNITS), whose markup is
# smaller, so that its time per unit is lower still.
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
: "${GEN_XLIFF:?set GEN_XLIFF to the gen_xliff binary}"
BENCH_MB=${BENCH_MB:-512}
MAX_RSS_MB=64
MAX_RATIO=2.0

# GNU time, not the shell keyword: only it reports peak RSS (%M).
if [ ! -x /usr/bin/time ]; then
  echo "run.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
if ! command -v xmllint >/dev/null 2>&1; then
  echo "run.sh: xmllint not found; install it: apt-get install libxml2-utils" >&2
  exit 1
fi

. "$(dirname "$0")/lib.sh"
bench_scratch bench
in=$dir/bench.xlf
out=$dir/bench.fr.xlf

# The generator knows how many units are translatable (no translate="no",
# no target yet); each of them must get exactly one <target> in the output.
if ! "$GEN_XLIFF" "$BENCH_MB" >"$in" 2>"$dir/gen.log"; then
  cat "$dir/gen.log" >&2
  exit 1
fi
expected=$(sed -n 's/.*translatable=\([0-9]*\).*/\1/p' "$dir/gen.log")
units=$(sed -n 's/.*units=\([0-9]*\).*/\1/p' "$dir/gen.log")
bytes=$(wc -c <"$in" | tr -d ' ')
echo "input: $in, $bytes bytes, $units units, $expected translatable"
in2=$dir/bench2.xlf
if ! "$GEN_XLIFF" -2 -u "$units" 1 >"$in2" 2>"$dir/gen2.log"; then
  cat "$dir/gen2.log" >&2
  exit 1
fi
# An XLIFF 2 segment is a unit of the run: translatable counts segments.
expected2=$(sed -n 's/.*translatable=\([0-9]*\).*/\1/p' "$dir/gen2.log")
bytes2=$(wc -c <"$in2" | tr -d ' ')
segs2=$(grep -o '<segment>' "$in2" | wc -l | tr -d ' ')
echo "XLIFF 2 twin: $in2, $bytes2 bytes, $units units, $segs2 segments, $expected2 translatable"

# measure CMD...: run CMD twice under GNU time and set secs and kb (peak RSS)
# from the faster run, so a cold page cache or a noisy neighbour costs less.
measure() {
  secs='' kb=''
  for run in 1 2; do
    if ! /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null; then
      echo "run.sh: failed (run $run): $*" >&2
      cat "$dir/time" >&2
      exit 1
    fi
    read -r s k <"$dir/time"
    if [ -z "$secs" ] || awk -v a="$s" -v b="$secs" 'BEGIN { exit !(a < b) }'; then
      secs=$s kb=$k
    fi
  done
}

measure xmllint --stream --noout "$in"
base_secs=$secs base_kb=$kb
measure "$XLIFFMT" translate "$in" -o "$out" -s en -t fr --mt identity --quiet \
  --no-segment
seg_out=$dir/bench.seg.xlf
seg_secs=$secs seg_kb=$kb
# The same with sentence segmentation (the command's default): the SRX
# rules run over every unit that has no seg-source yet.
measure "$XLIFFMT" translate "$in" -o "$seg_out" -s en -t fr --mt identity \
  --quiet
segd_secs=$secs segd_kb=$kb
out2=$dir/bench2.fr.xlf
measure "$XLIFFMT" translate "$in2" -o "$out2" -s en -t fr --mt identity \
  --quiet --no-segment
x2_secs=$secs x2_kb=$kb
seg_out2=$dir/bench2.seg.xlf
measure "$XLIFFMT" translate "$in2" -o "$seg_out2" -s en -t fr --mt identity \
  --quiet
x2segd_secs=$secs x2segd_kb=$kb
secs=$seg_secs kb=$seg_kb

fail=0

# The 0.01 s floor keeps tiny BENCH_MB runs from dividing by zero.
{
  printf 'xmllint %s %s %s\nxliffmt %s %s %s\nxliffmt+srx %s %s %s\n' \
    "$base_secs" "$base_kb" "$bytes" "$secs" "$kb" "$bytes" "$segd_secs" \
    "$segd_kb" "$bytes"
  printf 'xliff2 %s %s %s\nxliff2+srx %s %s %s\n' "$x2_secs" "$x2_kb" "$bytes2" \
    "$x2segd_secs" "$x2segd_kb" "$bytes2"
} | awk '
    BEGIN { printf "%-12s %8s %8s %12s\n", "tool", "seconds", "MB/s", "peak RSS MB" }
    { s = $2 < 0.01 ? 0.01 : $2
      printf "%-12s %8.2f %8.1f %12.1f\n", $1, $2, $4 / 1048576 / s, $3 / 1024 }'
ratio=$(awk -v a="$secs" -v b="$base_secs" \
  'BEGIN { printf "%.2f", (a < 0.01 ? 0.01 : a) / (b < 0.01 ? 0.01 : b) }')
rss_mb=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')
echo "ratio xliffmt/xmllint: $ratio"
verdict "$(fcmp "$rss_mb" '<' "$MAX_RSS_MB")" "peak RSS $rss_mb MB < $MAX_RSS_MB MB"
segd_mb=$(awk -v k="$segd_kb" 'BEGIN { printf "%.1f", k / 1024 }')
verdict "$(fcmp "$segd_mb" '<' "$MAX_RSS_MB")" \
  "peak RSS with segmentation $segd_mb MB < $MAX_RSS_MB MB"
verdict "$(fcmp "$ratio" '<=' "$MAX_RATIO")" "time ratio $ratio <= $MAX_RATIO"
# per_byte A_SECS A_BYTES B_SECS B_BYTES: A's time per byte over B's
per_byte() {
  awk -v a="$1" -v ab="$2" -v b="$3" -v bb="$4" 'BEGIN {
    a = a < 0.01 ? 0.01 : a; b = b < 0.01 ? 0.01 : b
    printf "%.2f", (a / ab) / (b / bb) }'
}
x2_ratio=$(per_byte "$x2_secs" "$bytes2" "$secs" "$bytes")
x2segd_ratio=$(per_byte "$x2segd_secs" "$bytes2" "$segd_secs" "$bytes")
echo "XLIFF 2/XLIFF 1.2 time per byte: $x2_ratio, with segmentation $x2segd_ratio"
echo "XLIFF 2/XLIFF 1.2 time, the same units: $(per_byte "$x2_secs" 1 "$secs" 1), with segmentation $(per_byte "$x2segd_secs" 1 "$segd_secs" 1)"
verdict "$(fcmp "$x2_ratio" '<=' 1.0)" "XLIFF 2 time per byte $x2_ratio <= 1.0 x XLIFF 1.2's"
verdict "$(fcmp "$x2segd_ratio" '<=' 1.0)" \
  "XLIFF 2 time per byte with segmentation $x2segd_ratio <= 1.0 x XLIFF 1.2's"
x2_mb=$(awk -v k="$x2segd_kb" 'BEGIN { printf "%.1f", k / 1024 }')
verdict "$(fcmp "$x2_mb" '<' "$MAX_RSS_MB")" \
  "XLIFF 2 peak RSS with segmentation $x2_mb MB < $MAX_RSS_MB MB"

if xmllint --stream --noout "$out"; then wf=1; else wf=0; fi
verdict "$wf" "output is well-formed XML"
# targets_are WHAT FILE EXPECTED: FILE has EXPECTED <target> elements
# (grep -o, not -c: several targets may share a line).
targets_are() {
  targets=$(grep -o '<target[ />]' "$2" | wc -l | tr -d ' ')
  [ "$targets" = "$3" ] && ok=1 || ok=0
  verdict "$ok" "$1$targets <target> elements, $3 expected"
}
targets_are "" "$out" "$expected"
targets_are "with segmentation: " "$seg_out" "$expected"
targets_are "XLIFF 2: " "$out2" "$expected2"
targets_are "XLIFF 2 with segmentation: " "$seg_out2" "$expected2"

exit "$fail"
