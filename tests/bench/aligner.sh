#!/bin/sh
# aligner.sh -- `make bench-aligner`: training speed and memory of the
# built-in aligner on a synthetic corpus generated at run time.
#
# Runs `xliffmt align -d -o -v --symmetrize grow-diag-final-and` (5
# iterations, both directions: xliffmt always trains both) with --threads 1
# and 2 on BENCH_PAIRS sentence pairs and prints, for each, the wall time
# (reading, training, aligning, writing), the sentence pairs per second per
# iteration and direction (pairs x 5 x 2 / wall time; the last iteration of
# each direction is the alignment pass, as in fast_align) and the peak RSS
# from GNU time. It also checks that 1 and 2 threads print the same
# alignments. fast_align is not packaged for Debian, so there is no
# side-by-side run; compare with its published speed.
#
# Then both models on one smaller corpus (BENCH_COMPARE_PAIRS): IBM2 and
# the Bayesian model (--model bayes), 1 and 2 threads, wall time and the
# ratio of the two models' times; the Bayesian model must also give the
# same alignments for any thread count.
#
# With EFLOMAL (the eflomal binary, its source tree or its Python package;
# see eflomal.sh): the CPU time (user + system, GNU time) of the Bayesian
# model against eflomal on one corpus of BENCH_EFLOMAL_PAIRS generated
# pairs (default 12000, gen_align's seed 1, so the same corpus each
# time): `xliffmt align --model bayes -d -o -v --symmetrize
# grow-diag-final-and` (reading, training both directions, aligning,
# symmetrizing, writing) against the eflomal binary as eflomal-align runs
# it (model 3, 3 samplers, NULL prior 0.2, its sweep counts for the
# corpus size; both directions in one run), on its numbered input files
# written beforehand: eflomal's time is its binary alone, without the
# numbering and the symmetrization (eflomal.sh's perl helpers, printed
# apart as "eflomal helpers"). Both on BENCH_EFLOMAL_THREADS threads
# (default 1), BENCH_EFLOMAL_RUNS runs each in turn (default 3), the
# median of each printed, and the ratio of the medians.
#
# Env: XLIFFMT, GEN_ALIGN (required), BENCH_PAIRS (default 200000),
#      BENCH_COMPARE_PAIRS (default 20000), EFLOMAL, BENCH_EFLOMAL_PAIRS,
#      BENCH_EFLOMAL_THREADS, BENCH_EFLOMAL_RUNS (see above),
#      BENCH_ONLY (eflomal: only the comparison with eflomal),
#      BENCH_DIR (default a fresh temporary directory, removed on exit).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
: "${GEN_ALIGN:?set GEN_ALIGN to the gen_align binary}"
pairs=${BENCH_PAIRS:-200000}
if [ ! -x /usr/bin/time ]; then
  echo "aligner.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
bench_scratch bench-aligner

# --- CPU time of the Bayesian model against eflomal's
# shellcheck disable=SC2154 # eflomal: set by eflomal_find
efl_time() {
  . "$(dirname "$0")/eflomal.sh"
  eflomal_find || return 0
  eflomal_setup "$dir"
  epairs=${BENCH_EFLOMAL_PAIRS:-12000}
  ethreads=${BENCH_EFLOMAL_THREADS:-1}
  eruns=${BENCH_EFLOMAL_RUNS:-3}
  "$GEN_ALIGN" "$epairs" >"$dir/ecorpus"
  perl -CSD "$dir/numbers.pl" "$dir/src.num" "$dir/tgt.num" <"$dir/ecorpus"
  # shellcheck disable=SC2046
  set -- $(eflomal_sweeps "$epairs")
  echo "CPU time against eflomal: $epairs generated pairs," \
    "$(wc -w <"$dir/ecorpus" | tr -d ' ') words; $ethreads thread(s);" \
    "eflomal sweeps $1/$2/$3, 3 samplers; median of $eruns runs"
  : >"$dir/cpu.bayes"
  : >"$dir/cpu.eflomal"
  : >"$dir/cpu.helpers"
  k=0
  while [ "$k" -lt "$eruns" ]; do
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$XLIFFMT" align \
      -i "$dir/ecorpus" -d -o -v --threads "$ethreads" --model bayes \
      --symmetrize grow-diag-final-and >"$dir/out.ebayes"
    awk '{ print $2 + $3, $1, $4 }' "$dir/time" >>"$dir/cpu.bayes"
    OMP_NUM_THREADS=$ethreads /usr/bin/time -f '%e %U %S %M' \
      -o "$dir/time" "$eflomal" -q -m 3 -s "$dir/src.num" \
      -t "$dir/tgt.num" -f "$dir/fwd" -r "$dir/rev" -n 3 -N 0.2 -1 "$1" \
      -2 "$2" -3 "$3"
    awk '{ print $2 + $3, $1, $4 }' "$dir/time" >>"$dir/cpu.eflomal"
    # shellcheck disable=SC2016 # expanded by the inner shell
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" sh -c '
      perl -CSD "$1/numbers.pl" "$1/src.num" "$1/tgt.num" <"$1/ecorpus"
      perl "$1/gdfa.pl" "$1/ecorpus" "$1/fwd" "$1/rev" >"$1/out.eflomal"' \
      sh "$dir"
    awk '{ print $2 + $3, $1, $4 }' "$dir/time" >>"$dir/cpu.helpers"
    k=$((k + 1))
  done
  # median FILE: "cpu wall rss" of the run of median CPU time
  median() { sort -n "$1" | awk '{ r[NR] = $0 } END { print r[int((NR + 1) / 2)] }'; }
  printf '%-22s %9s %9s %9s\n' run 'cpu s' 'wall s' 'RSS MB'
  for r in bayes eflomal helpers; do
    median "$dir/cpu.$r" | awk -v n="$r" '{ if (n == "helpers")
        n = "eflomal helpers"
      printf "%-22s %9.2f %9.2f %9.0f\n", n, $1, $2, $3 / 1024 }'
  done
  awk -v b="$(median "$dir/cpu.bayes" | cut -d ' ' -f 1)" \
    -v e="$(median "$dir/cpu.eflomal" | cut -d ' ' -f 1)" 'BEGIN {
    printf "bayes / eflomal CPU time: %.2f\n", (e > 0 ? b / e : 0) }'
  echo "(eflomal helpers: its numbered files and grow-diag-final-and," \
    "in perl; not in eflomal's row nor in the ratio)"
}
if [ "${BENCH_ONLY:-}" = eflomal ]; then
  efl_time
  exit 0
fi

"$GEN_ALIGN" "$pairs" >"$dir/corpus"
words=$(wc -w <"$dir/corpus" | tr -d ' ')
echo "corpus: $pairs sentence pairs, $words words (with the ||| separators)"
printf '%-22s %7s %9s %15s %9s\n' run threads 'wall s' 'pairs/s/iter' 'RSS MB'
# run NAME THREADS DIRECTIONS ARGS...
run() {
  name=$1 threads=$2 dirs=$3
  shift 3
  /usr/bin/time -f '%e %M' -o "$dir/time" "$XLIFFMT" align -i "$dir/corpus" \
    -d -o -v --threads "$threads" "$@" >"$dir/out.$name.$threads"
  read -r wall rss <"$dir/time"
  awk -v n="$name" -v t="$threads" -v w="$wall" -v r="$rss" -v p="$pairs" \
    -v d="$dirs" 'BEGIN { printf "%-22s %7d %9.2f %15.0f %9.0f\n", n, t, w,
      p * 5 * d / w, r / 1024 }'
}
for t in 1 2; do
  run grow-diag-final-and "$t" 2 --symmetrize grow-diag-final-and
done
for name in grow-diag-final-and; do
  if cmp -s "$dir/out.$name.1" "$dir/out.$name.2"; then
    echo "$name: 1 and 2 threads give the same alignments"
  else
    echo "aligner.sh: $name: 1 and 2 threads differ" >&2
    exit 1
  fi
done

# --- IBM2 against the Bayesian model on the same corpus
cpairs=${BENCH_COMPARE_PAIRS:-20000}
"$GEN_ALIGN" "$cpairs" >"$dir/corpus"
pairs=$cpairs
echo "models compared on $cpairs sentence pairs (grow-diag-final-and):"
printf '%-22s %7s %9s %15s %9s\n' run threads 'wall s' 'pairs/s' 'RSS MB'
# crun NAME THREADS ARGS...
crun() {
  name=$1 threads=$2
  shift 2
  /usr/bin/time -f '%e %M' -o "$dir/time" "$XLIFFMT" align -i "$dir/corpus" \
    -d -o -v --threads "$threads" --symmetrize grow-diag-final-and "$@" \
    >"$dir/out.$name.$threads"
  read -r wall rss <"$dir/time"
  echo "$wall" >"$dir/wall.$name.$threads"
  awk -v n="$name" -v t="$threads" -v w="$wall" -v r="$rss" -v p="$pairs" \
    'BEGIN { printf "%-22s %7d %9.2f %15.0f %9.0f\n", n, t, w, p / w,
      r / 1024 }'
}
for t in 1 2; do
  crun ibm2 "$t" --model ibm2
  crun bayes "$t" --model bayes
done
if cmp -s "$dir/out.bayes.1" "$dir/out.bayes.2"; then
  echo "bayes: 1 and 2 threads give the same alignments"
else
  echo "aligner.sh: bayes: 1 and 2 threads differ" >&2
  exit 1
fi
for t in 1 2; do
  awk -v t="$t" -v i="$(cat "$dir/wall.ibm2.$t")" \
    -v b="$(cat "$dir/wall.bayes.$t")" 'BEGIN {
    printf "bayes / ibm2 time, %d thread%s: %.2f\n", t, (t > 1 ? "s" : ""),
      i > 0 ? b / i : 0 }'
done
efl_time
