#!/bin/sh
# xliff2_memory.sh -- `make bench-xliff2`: peak memory of translating a
# small and a large XLIFF 2 document (generated, the same content as
# XLIFF 1.2 alongside). A reader that streams holds the units in flight,
# not the document; what still grows with the document is the run's set
# of unit keys (filter/unit_keys.c: front-coded ids), for XLIFF 1.2 as for
# XLIFF 2.
#
# Env: XLIFFMT, GEN_XLIFF (required), BENCH_SMALL_MB (default 20),
#      BENCH_LARGE_MB (default 200), BENCH_MT (default identity),
#      BENCH_DIR (default a fresh temporary directory, removed on exit).
# Fails when XLIFF 2's peak RSS on the large document reaches 0.6 of
# the document's size (a document held whole takes several times its
# size), or when its growth per MB of document is over 2.5 times XLIFF
# 1.2's (XLIFF 2 makes about 1.4 times as many units of the same bytes).
# `check` and `report` are measured too: check's rules read an XLIFF 2
# document as a stream, a unit at a time, as its units are read (it took
# 214 MB for 200 MB when the rules read it whole), and report reads its
# units as a stream into a temporary file it reads again; each fails when
# its peak on the large XLIFF 2 document reaches half the document's size
# (100 MB for 200 MB). check is measured again on the large document
# written as one <file> (gen_xliff -1), where what the rules keep per
# <file> (its group and unit ids) is at its largest: it took 174 MB for
# 200 MB with the ids in a hash table, 87 MB with them front-coded and
# libxml2's validator keeping each unit of the <file> until its end
# (filter/schema/schema.c: reopen), 55 MB now; it fails at 0.35 of the
# size (70 MB for 200 MB).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
: "${GEN_XLIFF:?set GEN_XLIFF to the gen_xliff binary}"
small=${BENCH_SMALL_MB:-20}
large=${BENCH_LARGE_MB:-200}
mt=${BENCH_MT:-identity}

if [ ! -x /usr/bin/time ]; then
  echo "xliff2_memory.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
bench_scratch bench-x2

# peak FLAG MB: generates the document (XLIFF 2 with FLAG -2), translates,
# checks and reports it and prints "SECONDS KB" of each run; the input
# and output go at once.
peak() {
  in=$dir/in.xlf
  out=$dir/out.xlf
  # shellcheck disable=SC2086
  if ! "$GEN_XLIFF" $1 "$2" >"$in" 2>"$dir/gen.log"; then
    cat "$dir/gen.log" >&2
    exit 1
  fi
  if ! /usr/bin/time -f '%e %M' -o "$dir/time" "$XLIFFMT" translate "$in" \
    -o "$out" -s en -t fr --mt "$mt" --quiet; then
    echo "xliff2_memory.sh: failed: $XLIFFMT translate $in --mt $mt" >&2
    exit 1
  fi
  rm -f "$out"
  if ! /usr/bin/time -f '%e %M' -o "$dir/time-check" "$XLIFFMT" check "$in" \
    --quiet; then
    echo "xliff2_memory.sh: failed: $XLIFFMT check $in" >&2
    exit 1
  fi
  if ! /usr/bin/time -f '%e %M' -o "$dir/time-report" "$XLIFFMT" report \
    "$in" -o "$out" --quiet; then
    echo "xliff2_memory.sh: failed: $XLIFFMT report $in" >&2
    exit 1
  fi
  rm -f "$in" "$out"
  echo "$(cat "$dir/time") $(cat "$dir/time-check") $(cat "$dir/time-report")"
}

# check_one MB: check of an XLIFF 2 document of MB in one <file>; prints
# "SECONDS KB".
check_one() {
  in=$dir/in.xlf
  if ! "$GEN_XLIFF" -2 -1 "$1" >"$in" 2>"$dir/gen.log"; then
    cat "$dir/gen.log" >&2
    exit 1
  fi
  if ! /usr/bin/time -f '%e %M' -o "$dir/time-one" "$XLIFFMT" check "$in" \
    --quiet; then
    echo "xliff2_memory.sh: failed: $XLIFFMT check $in (one <file>)" >&2
    exit 1
  fi
  rm -f "$in"
  cat "$dir/time-one"
}

printf '%-10s %6s %8s %12s %9s %12s %9s %12s\n' format MB seconds \
  'peak RSS MB' 'check s' 'check MB' 'report s' 'report MB'
for f in x2 x1; do
  flag=''
  [ "$f" = x2 ] && flag=-2
  for mb in "$small" "$large"; do
    set -- $(peak "$flag" "$mb")
    eval "${f}_${mb}_kb=\$2 ${f}_${mb}_check_kb=\$4 ${f}_${mb}_report_kb=\$6"
    awk -v f="$f" -v mb="$mb" -v s="$1" -v k="$2" -v cs="$3" -v ck="$4" \
      -v rs="$5" -v rk="$6" 'BEGIN {
      printf "%-10s %6d %8.2f %12.1f %9.2f %12.1f %9.2f %12.1f\n",
        f == "x2" ? "XLIFF 2" : "XLIFF 1.2", mb, s, k / 1024, cs, ck / 1024,
        rs, rk / 1024 }'
  done
done

set -- $(check_one "$large")
one_kb=$2
awk -v mb="$large" -v s="$1" -v k="$2" 'BEGIN {
  printf "%-10s %6d %8s %12s %9.2f %12.1f  (one <file>)\n", "XLIFF 2", mb,
    "-", "-", s, k / 1024 }'

eval "x2s=\$x2_${small}_kb x2l=\$x2_${large}_kb"
eval "x1s=\$x1_${small}_kb x1l=\$x1_${large}_kb"
r2=$(awk -v a="$x2l" -v b="$x2s" 'BEGIN { printf "%.2f", a / b }')
r1=$(awk -v a="$x1l" -v b="$x1s" 'BEGIN { printf "%.2f", a / b }')
echo "growth ${small} MB -> ${large} MB: XLIFF 2 ${r2}x, XLIFF 1.2 ${r1}x"
fail=0
held=$(awk -v k="$x2l" -v mb="$large" 'BEGIN { printf "%.2f", k / 1024 / mb }')
verdict "$(fcmp "$held" '<' 0.6)" \
  "XLIFF 2 peak RSS is ${held} of the ${large} MB document (< 0.6)"
g2=$(awk -v a="$x2l" -v b="$x2s" -v d="$((large - small))" 'BEGIN { printf "%.3f", (a - b) / 1024 / d }')
g1=$(awk -v a="$x1l" -v b="$x1s" -v d="$((large - small))" 'BEGIN { printf "%.3f", (a - b) / 1024 / d }')
ratio=$(awk -v a="$g2" -v b="$g1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : a > 0 ? 999 : 0) }')
verdict "$(fcmp "$ratio" '<=' 2.5)" \
  "XLIFF 2 grows ${g2} MB per MB of document, XLIFF 1.2 ${g1}: ${ratio}x (<= 2.5x)"
eval "x2c=\$x2_${large}_check_kb"
checked=$(awk -v k="$x2c" -v mb="$large" 'BEGIN { printf "%.2f", k / 1024 / mb }')
verdict "$(fcmp "$checked" '<' 0.5)" \
  "XLIFF 2 check peak RSS is ${checked} of the ${large} MB document (< 0.5)"
one=$(awk -v k="$one_kb" -v mb="$large" 'BEGIN { printf "%.2f", k / 1024 / mb }')
verdict "$(fcmp "$one" '<' 0.35)" \
  "XLIFF 2 check peak RSS on one <file> is ${one} of the ${large} MB document (< 0.35)"
eval "x2r=\$x2_${large}_report_kb"
reported=$(awk -v k="$x2r" -v mb="$large" 'BEGIN { printf "%.2f", k / 1024 / mb }')
verdict "$(fcmp "$reported" '<' 0.5)" \
  "XLIFF 2 report peak RSS is ${reported} of the ${large} MB document (< 0.5)"
exit "$fail"
