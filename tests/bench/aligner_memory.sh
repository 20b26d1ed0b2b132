#!/bin/sh
# aligner_memory.sh -- `make bench-aligner-memory`: peak memory of
# translating generated documents with the self-trained aligner (an
# engine that gives no alignment: pseudo with alignment=no). The aligner
# trains on each window of 4096 segments, seeded with what the earlier
# windows taught; that carried model is bounded (filter/pipeline/
# aligner.c), so the peak is one window's training, whatever the size of
# the document and of its vocabulary.
#
# Documents: gen_xliff -n (ever-new numbers among the words: a vocabulary
# that grows with the document) at each size of BENCH_SIZES_MB, and
# gen_xliff -w 2000 (a fixed 2,000-word vocabulary) at the first size.
# Env: XLIFFMT, GEN_XLIFF (required), BENCH_SIZES_MB (default "100 1024"),
#      BENCH_MODEL (default bayes; ibm2 is several times faster),
#      BENCH_LIMIT_MB (default 200), BENCH_DIR (default a fresh
#      temporary directory, removed on exit).
# Fails when a peak RSS reaches BENCH_LIMIT_MB, or a translation fails.
# The default model trains at about 13 CPU seconds a MB of these
# documents: 1 GB takes hours on two cores.
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
: "${GEN_XLIFF:?set GEN_XLIFF to the gen_xliff binary}"
sizes=${BENCH_SIZES_MB:-100 1024}
model=${BENCH_MODEL:-bayes}
limit=${BENCH_LIMIT_MB:-200}

if [ ! -x /usr/bin/time ]; then
  echo "aligner_memory.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
bench_scratch bench-aligner-memory

# peak NAME FLAGS MB: generates the document, translates it and prints
# "SECONDS KB"; the input and output go at once.
peak() {
  in=$dir/in.xlf
  out=$dir/out.xlf
  # shellcheck disable=SC2086
  if ! "$GEN_XLIFF" $2 "$3" >"$in" 2>"$dir/gen.log"; then
    cat "$dir/gen.log" >&2
    exit 1
  fi
  if ! /usr/bin/time -f '%e %M' -o "$dir/time" "$XLIFFMT" translate "$in" \
    -o "$out" -s en -t fr --mt pseudo --mt-option alignment=no \
    --model "$model" --quiet; then
    echo "aligner_memory.sh: failed: $XLIFFMT translate $in ($1)" >&2
    exit 1
  fi
  rm -f "$in" "$out"
  cat "$dir/time"
}

fail=0
printf '%-24s %8s %10s %14s\n' document MB seconds 'peak RSS MB'
# run NAME FLAGS MB
run() {
  # shellcheck disable=SC2046
  set -- "$1" "$2" "$3" $(peak "$1" "$2" "$3")
  awk -v n="$1" -v mb="$3" -v s="$4" -v k="$5" 'BEGIN {
    printf "%-24s %8d %10.2f %14.1f\n", n, mb, s, k / 1024 }'
  mb=$(awk -v k="$5" 'BEGIN { printf "%.1f", k / 1024 }')
  verdict "$(fcmp "$mb" '<' "$limit")" \
    "$1, $3 MB, --model $model: peak RSS ${mb} MB (< ${limit} MB)"
}
first=
for mb in $sizes; do
  [ -n "$first" ] || first=$mb
  run 'ever-new numbers' -n "$mb"
done
run 'fixed 2,000 words' '-w 2000' "$first"
exit "$fail"
