#!/bin/sh
# eflomal_compare.sh -- xliffmt's aligners side by side with eflomal
# (Östling & Tiedemann 2016, https://github.com/robertostling/eflomal),
# the aligner the Bayesian model (`--model bayes`, aligner_gibbs.c) is
# modelled on: alignment error rate on a hand-made gold set
# (tests/fixtures/align-gold: en-de, en-zh or en-ja, as PAIR says) and
# training time, on the same corpora.
#
# Corpora: the one of gibbs_aer.sh (the gold pairs plus, for en-de and
# when XMT_TEST_DATA has them, the detagged en-de markup-tags dev sets,
# split into \w+|[^\w\s] tokens; for en-zh and en-ja the unlabelled pairs
# of PAIR.extra), then the small-document setting: the gold pairs plus
# only the first N of those pairs for each N of BENCH_DEV_LINES, and the
# gold pairs alone. Both aligners see the corpus lowercased (eflomal's own
# preprocessing always lowercases).
#
# For each corpus it prints precision, recall and AER of the first lines
# (the gold pairs) against the gold links (sure "i-j", possible "ipj"), one row for
# each half of tests/fixtures/align-gold/SPLIT ("tune": choices are made
# there; "report": the figure to publish; both aligners still train on
# every pair), the AER of each direction alone (fwd: predicting the
# other language's words from the English ones; rev: the other way), the wall
# seconds and the CPU
# seconds (user + system, from GNU time) of:
#   ibm2, bayes            xliffmt align --model ibm2|bayes -d -o -v
#                          --lowercase --symmetrize grow-diag-final-and
#   ibm2+priors,           the same with --source-lang en --target-lang L
#                          (L: the gold set's other language)
#   bayes+priors           (identical words, cognates, dictionaries)
#   eflomal                the eflomal binary as its eflomal-align front end
#                          runs it: model 3, 3 samplers, NULL prior 0.2,
#                          sweeps per stage (IBM1, HMM, fertility) from
#                          the corpus size as eflomal-align computes them:
#                          (max(2, I), I, K), K = max(2, round(5000 /
#                          sqrt(pairs))), I = max(1, K / 4)
#   eflomal-n1             the same with 1 sampler (the binary's default)
#   eflomal-12/12/36       3 samplers and xliffmt's sweep counts (12 IBM1,
#                          12 HMM, 36 fertility): the same work as bayes
# eflomal's two directions are combined here with grow-diag-final-and
# (the visiting order of fast_align's atools, as xliffmt's
# --symmetrize does; the script checks that its own combination gives
# xliffmt's links for xliffmt's two directions). eflomal's times include
# writing its numbered input files and the symmetrization.
#
# eflomal seeds itself from /dev/urandom, so its rows are the mean of
# EFLOMAL_RUNS runs, with the lowest and highest AER; xliffmt's rows are
# one run (its sampler has a fixed seed).
#
# Build eflomal's C core with `make -C src` in its source tree; it needs
# no Python here, eflomal.sh writes the numbered files itself.
#
# Env: XLIFFMT (required), PAIR (default en-de), EFLOMAL (the eflomal
#      binary, its source tree or its installed Python package; unset:
#      nothing is run),
#      XMT_TEST_DATA (default tests/data), EFLOMAL_RUNS (default 3),
#      BENCH_DEV_LINES (default "1000 300"), BENCH_THREADS (threads of
#      both aligners, default 2).
# shellcheck disable=SC2154 # gold_pair, gold_lang, gold_n: set by gold.sh
set -eu
: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
if [ -z "${EFLOMAL:-}" ]; then
  echo "eflomal_compare.sh: skipped: set EFLOMAL to the eflomal binary" \
    "(make -C src in eflomal's source tree)"
  exit 0
fi
. "$(dirname "$0")/eflomal.sh"
eflomal_find
here=$(cd "$(dirname "$0")/../fixtures/align-gold" && pwd)
data=${XMT_TEST_DATA:-$here/../../data}/markup-tags
runs=${EFLOMAL_RUNS:-3}
threads=${BENCH_THREADS:-2}
dev_lines=${BENCH_DEV_LINES:-1000 300}
. "$(dirname "$0")/lib.sh"
bench_scratch eflomal

# --- The corpus, as gibbs_aer.sh builds it
# shellcheck disable=SC2034 # read by gold.sh
gold_dir=$here
. "$here/gold.sh"
gold_corpus "$dir" "$data" ||
  echo "eflomal_compare.sh: no unlabelled pairs for $gold_pair;" \
    "the $gold_n gold pairs alone"
eflomal_setup "$dir"

# timed OUT CMD...: runs CMD, its standard output to OUT; leaves "wall
# cpu" in $dir/time (cpu "-" without GNU time)
timed() {
  out=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%e %U %S' -o "$dir/time.raw" "$@" >"$out"
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$dir/time.raw" >"$dir/time"
  else
    start=$(date +%s.%N)
    "$@" >"$out"
    end=$(date +%s.%N)
    echo "$(echo "$end - $start" | bc) -" >"$dir/time"
  fi
}

row() { # NAME HALF P R AER RANGE FWD REV WALL CPU
  printf '%-18s %-6s %6s %6s %6s %13s %6s %6s %8s %8s\n' "$@"
}

# aer HYP HALF: "P R AER" of HYP's lines of that half of the gold pairs
aer() { gold_aer "$1" "$2"; }

# xmt CORPUS NAME ARGS...: one xliffmt training, its rows (one a half);
# then each direction alone (untimed) for the fwd and rev columns
xmt() {
  corpus=$1 name=$2
  shift 2
  timed "$dir/hyp" "$XLIFFMT" align -i "$corpus" -d -o -v \
    --lowercase --symmetrize grow-diag-final-and --threads "$threads" "$@"
  read -r wall cpu <"$dir/time"
  "$XLIFFMT" align -i "$corpus" -d -o -v --lowercase --threads "$threads" \
    "$@" >"$dir/fwd"
  "$XLIFFMT" align -i "$corpus" -d -o -v --lowercase --threads "$threads" \
    -r "$@" >"$dir/rev"
  for half in tune report; do
    # shellcheck disable=SC2046
    row "$name" "$half" $(aer "$dir/hyp" "$half") - \
      "$(aer "$dir/fwd" "$half" | cut -d ' ' -f 3)" \
      "$(aer "$dir/rev" "$half" | cut -d ' ' -f 3)" "$wall" "$cpu"
  done
}

# efl CORPUS NAME ARGS...: EFLOMAL_RUNS runs, the rows of their means
efl() {
  corpus=$1 name=$2
  shift 2
  : >"$dir/runs.tune"
  : >"$dir/runs.report"
  k=0
  while [ "$k" -lt "$runs" ]; do
    timed "$dir/hyp" sh "$dir/once.sh" "$dir" "$eflomal" "$threads" \
      "$corpus" "$@"
    for half in tune report; do
      echo "$(aer "$dir/hyp" "$half") $(cat "$dir/time")" \
        "$(aer "$dir/fwd" "$half" | cut -d ' ' -f 3)" \
        "$(aer "$dir/rev" "$half" | cut -d ' ' -f 3)" >>"$dir/runs.$half"
    done
    k=$((k + 1))
  done
  for half in tune report; do
    # shellcheck disable=SC2046
    row "$name" "$half" $(awk '{ p += $1; r += $2; a += $3; w += $4
        c += $5; f += $6; b += $7
        if (NR == 1 || $3 < lo) lo = $3; if (NR == 1 || $3 > hi) hi = $3 }
      END { printf "%.3f %.3f %.3f %.3f-%.3f %.3f %.3f %.2f %.2f", p / NR,
        r / NR, a / NR, lo, hi, f / NR, b / NR, w / NR, c / NR }' \
      "$dir/runs.$half")
  done
}

table() {
  corpus=$1
  pairs=$(wc -l <"$corpus" | tr -d ' ')
  # shellcheck disable=SC2046
  set -- $(eflomal_sweeps "$pairs")
  echo "training pairs: $pairs; eflomal: $runs runs each, sweeps $1/$2/$3"
  row setting half P R AER 'AER range' fwd rev 'wall s' 'cpu s'
  xmt "$corpus" ibm2 --model ibm2
  xmt "$corpus" bayes --model bayes
  xmt "$corpus" ibm2+priors --model ibm2 --source-lang en \
    --target-lang "$gold_lang"
  xmt "$corpus" bayes+priors --model bayes --source-lang en \
    --target-lang "$gold_lang"
  efl "$corpus" eflomal -n 3 -N 0.2 -1 "$1" -2 "$2" -3 "$3"
  efl "$corpus" eflomal-n1 -n 1 -N 0.2 -1 "$1" -2 "$2" -3 "$3"
  efl "$corpus" eflomal-12/12/36 -n 3 -N 0.2 -1 12 -2 12 -3 36
  echo
}

# The symmetrization above must be xliffmt's: check it on xliffmt's own
# two directions.
for d in fwd rev; do
  opt=
  [ "$d" = rev ] && opt=-r
  # shellcheck disable=SC2086
  "$XLIFFMT" align -i "$dir/corpus" -d -o -v --lowercase --threads \
    "$threads" $opt >"$dir/check.$d"
done
"$XLIFFMT" align -i "$dir/corpus" -d -o -v --lowercase --threads \
  "$threads" --symmetrize grow-diag-final-and >"$dir/check.sym"
perl "$dir/gdfa.pl" "$dir/corpus" "$dir/check.fwd" "$dir/check.rev" |
  cmp -s - "$dir/check.sym" || {
  echo "eflomal_compare.sh: gdfa.pl and xliffmt --symmetrize differ" >&2
  exit 1
}

echo "gold set: $gold_pair; eflomal: $eflomal; $threads threads"
echo
table "$dir/corpus"
total=$(wc -l <"$dir/corpus" | tr -d ' ')
if [ "$total" -gt "$gold_n" ]; then
  for n in $dev_lines; do
    if [ "$n" -lt $((total - gold_n)) ]; then
      echo "small-document setting: the $gold_n gold pairs + the first $n" \
        "other pairs"
      head -n $((gold_n + n)) "$dir/corpus" >"$dir/corpus.$n"
      table "$dir/corpus.$n"
    fi
  done
  echo "the $gold_n gold pairs alone"
  table "$dir/gold"
fi
