#!/bin/sh
# gibbs_aer.sh -- alignment error rate and training time of the Bayesian
# model (`xliffmt align --model bayes`, aligner_gibbs.c) against the IBM2
# model, on a hand-made gold set (tests/fixtures/align-gold: en-de, or
# en-zh or en-ja as PAIR says).
#
# Trains on the gold pairs plus, for en-de and when XMT_TEST_DATA has
# them, the detagged en-de markup-tags dev sets (as aer.sh does), for
# en-zh and en-ja their .extra pairs, lowercased, both directions,
# grow-diag-final-and; prints precision, recall, AER, wall seconds and
# training pairs per second for each model with 1 and 2 threads, without
# priors and with string and dictionary priors (--source-lang en
# --target-lang the set's other language: identical words, cognates and
# the installed dictionaries). It checks that 1 and 2 threads print the
# same links, and ends with the gold pairs alone.
#
# Every figure is printed for the two halves of the gold pairs
# (tests/fixtures/align-gold/SPLIT): "tune", on which choices are made,
# and "report", the one to publish. Training always sees every pair.
#
# Env: XLIFFMT (required), PAIR (default en-de), XMT_TEST_DATA (default
# tests/data).
# shellcheck disable=SC2154 # gold_pair, gold_lang, gold_n: set by gold.sh
set -eu
: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
here=$(cd "$(dirname "$0")/../fixtures/align-gold" && pwd)
data=${XMT_TEST_DATA:-$here/../../data}/markup-tags
. "$(dirname "$0")/lib.sh"
bench_scratch gibbs-aer
# shellcheck disable=SC2034 # read by gold.sh
gold_dir=$here
. "$here/gold.sh"
gold_corpus "$dir" "$data" || true

# aer HYP: precision, recall and AER of HYP's first gold_n lines, tune half
# then report half
aer() {
  # shellcheck disable=SC2046,SC2183
  printf '%6s %6s %6s  %6s %6s %6s' $(gold_aer "$1" tune) \
    $(gold_aer "$1" report)
}

# run CORPUS NAME THREADS ARGS...: one training, its line of the table
run() {
  corpus=$1 name=$2 threads=$3
  shift 3
  pairs=$(wc -l <"$corpus" | tr -d ' ')
  start=$(date +%s.%N)
  "$XLIFFMT" align -i "$corpus" -d -o -v --lowercase \
    --symmetrize grow-diag-final-and --threads "$threads" "$@" \
    >"$dir/$name.$threads"
  end=$(date +%s.%N)
  printf '%-24s %7s %s %8.2f %9.0f\n' "$name" "$threads" \
    "$(aer "$dir/$name.$threads")" "$(echo "$end - $start" | bc)" \
    "$(echo "$pairs / ($end - $start)" | bc)"
}

table() {
  corpus=$1
  echo "training pairs: $(wc -l <"$corpus" | tr -d ' ')"
  printf '%-24s %7s %20s  %20s %8s %9s\n' '' '' '------- tune -------' \
    '------ report ------' '' ''
  printf '%-24s %7s %6s %6s %6s  %6s %6s %6s %8s %9s\n' model threads \
    P R AER P R AER 'wall s' 'pairs/s'
  for threads in 1 2; do
    run "$corpus" ibm2 "$threads" --model ibm2
    run "$corpus" bayes "$threads" --model bayes
    run "$corpus" ibm2+priors "$threads" --model ibm2 --source-lang en \
      --target-lang "$gold_lang"
    run "$corpus" bayes+priors "$threads" --model bayes --source-lang en \
      --target-lang "$gold_lang"
  done
  for name in ibm2 bayes ibm2+priors bayes+priors; do
    cmp -s "$dir/$name.1" "$dir/$name.2" ||
      echo "$name: 1 and 2 threads differ" >&2
  done
}

table "$dir/corpus"
echo
table "$dir/gold"
