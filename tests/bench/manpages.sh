#!/bin/sh
# manpages.sh -- the tag-projection yardstick on Debian's translated
# manual pages: groff's font changes are the tags.
#
# manpages_sets.py pairs the paragraphs of each translated page with
# those of its English page (manpages-l10n translates with po4a, which
# keeps the English structure) and writes the lines whose fonts agree as
# XLIFF inline <g> pairs, split into "tune" and "report" by page; beside
# each "full" set a "hard" one: the same lines without the tag pairs whose
# content is the same on both sides, case and the punctuation at either
# end aside (mostly command and option names, which any aligner places),
# the lines left tagless dropped. For each language of MANPAGES_LANGS:
# the target tags are stripped, the English tags of the full set
# projected with `xliffmt project --aligner self` (grow-diag-final-and,
# min-max, the languages given), and `xliffmt evaluate --lines` scores
# each line of each set: the hard set on the same run, its lines' tags
# as projected there (manpages_sets.py --hard-of: the same pairs removed
# from hypothesis and reference), so one model, trained on the full
# set's detagged text, aligns both. Printed per set and half: lines,
# reference tags, and the share placed exactly with a 95 % bootstrap
# interval (1,000 resamples of lines, seed 1; manpages_score.py).
#
# eflomal: with EFLOMAL set (see eflomal.sh), one more row per half:
# eflomal as eflomal-align runs it on the full set's text, its directions
# combined with grow-diag-final-and, the tags projected with min-max
# over its \w+|[^\w\s] tokens, the hard set scored on the same run. Then
# per set and half the paired difference "self - eflomal": xliffmt's
# share minus eflomal's, with a 95 % interval over the same resamples
# for both (the per-line scores, kept in BENCH_DIR/scores, paired by
# line). MANPAGES_VS="OPTIONS" adds the rows "self vs", xliffmt with
# those options too, and their paired difference "self vs - self"
# against the rows "self minmax": a change that wins beyond the interval.
#
# Env: XLIFFMT (required), MANPAGES_LANGS (default "de fr hu fi nl pl ru
#      ja zh"), MANPAGES_MAX (lines per language, default 4000, taken from
#      the pages in turn), MANPAGES_ARGS (more `xliffmt project` options,
#      e.g. "--model ibm2"), MANPAGES_VS (more options still, for the
#      rows "self vs"), MAN_ROOT (default /usr/share/man; set: no
#      package is installed), EFLOMAL, BENCH_THREADS (eflomal's, default
#      2), BENCH_DIR (default a fresh temporary directory, removed on
#      exit).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
langs=${MANPAGES_LANGS:-de fr hu fi nl pl ru ja zh}
max=${MANPAGES_MAX:-4000}
root=${MAN_ROOT:-/usr/share/man}
py=/usr/bin/python3
[ -x "$py" ] || py=python3

installed() {
  echo "dpkg-query -W -f='\${Status}' $1 2>/dev/null | grep -q 'ok installed'"
}
bench_need manpages "command -v $py" python3
if [ -z "${MAN_ROOT:-}" ]; then
  for p in manpages manpages-dev; do
    bench_need manpages "$(installed $p)" $p
  done
  for l in $langs; do
    bench_need manpages "$(installed "manpages-$l")" "manpages-$l"
  done
fi

. "$here/eflomal.sh"
eflomal_find || echo "manpages.sh: no eflomal rows: set EFLOMAL to the" \
  "eflomal binary (make -C src in eflomal's source tree) to compare"
bench_scratch manpages
[ -z "$eflomal" ] || eflomal_setup "$dir"

# shellcheck disable=SC2086
"$py" "$here/manpages_sets.py" --root "$root" --max "$max" "$dir" $langs

# detag IN OUT: the plain text of each line (the sets escape & and < only)
detag() {
  sed 's/<[^>]*>//g; s/&lt;/</g; s/&amp;/\&/g' "$1" >"$2"
}

# tokens IN OUT: the \w+|[^\w\s] tokens of each line of IN, spaces between
tokens() {
  perl -CSD -ne 'print join(" ", /\w+|[^\w\s]/g), "\n"' "$1" >"$2"
}

# score LANG METHOD SET HYP: evaluates HYP against the gold target of SET
# (full or hard), keeps the per-line scores in $scores/LANG.SET.METHOD
# (spaces as -; "half tags exact", a line per line of the set: what
# paired pairs) and
# prints a row per half.
score() {
  gold=$dir/manpages.en-$1
  [ "$3" = full ] || gold=$dir/manpages-$3.en-$1
  "$XLIFFMT" evaluate --lines --hypothesis "$4" --reference "$gold.$1" \
    >"$dir/lines" 2>"$dir/eval.err" || { cat "$dir/eval.err" >&2; exit 1; }
  if [ -s "$dir/eval.err" ]; then
    echo "manpages.sh: $1 $2 $3: the text changed: $(cat "$dir/eval.err")" >&2
    exit 1
  fi
  if [ "$(wc -l <"$dir/lines")" -ne "$(wc -l <"$gold.split")" ]; then
    echo "manpages.sh: $1 $2 $3: $(wc -l <"$dir/lines") lines scored," \
      "$(wc -l <"$gold.split") in the set" >&2
    exit 1
  fi
  f=$scores/$1.$3.$(echo "$2" | tr ' ' -)
  cut -f 2,3 "$dir/lines" | paste "$gold.split" - >"$f"
  "$py" "$here/manpages_score.py" rows "$1" "$2" "$3" "$f"
}

# both LANG METHOD HYP: scores HYP, a projection of the full set, on the
# full set and on the hard one (its hard lines and tags: one projection,
# one training, for both).
both() {
  score "$1" "$2" full "$3"
  [ -s "$dir/manpages-hard.en-$1.en" ] || return 0
  "$py" "$here/manpages_sets.py" --hard-of "$dir/manpages.en-$1.en" \
    "$dir/manpages.en-$1.$1" "$3" >"$3.hard"
  score "$1" "$2" hard "$3.hard"
}

# paired LANG NAME A B: the paired differences A minus B, per set and half
paired() {
  a=$(echo "$3" | tr ' ' -) b=$(echo "$4" | tr ' ' -)
  for set in full hard; do
    [ -s "$scores/$1.$set.$a" ] || continue
    "$py" "$here/manpages_score.py" diff "$1" "$2" "$set" \
      "$scores/$1.$set.$a" "$scores/$1.$set.$b"
  done
}

# project_self LANG OUT OPTIONS...: the full set projected with xliffmt's aligner
project_self() {
  l=$1 out=$2
  shift 2
  "$XLIFFMT" project --source "$dir/manpages.en-$l.en" --target "$dir/tgt" \
    --aligner self --symmetrize grow-diag-final-and --rule minmax \
    --source-lang en --target-lang "$l" "$@" -o "$out"
}

scores=$dir/scores
mkdir -p "$scores"
printf '%-4s %-16s %-4s %-6s %6s %6s %6s  %s\n' lang method set half lines \
  tags exact '95 % interval'
for lang in $langs; do
  base=$dir/manpages.en-$lang
  if [ ! -s "$base.en" ]; then
    echo "manpages.sh: en-$lang: no lines" >&2
    continue
  fi
  detag "$base.en" "$dir/src.plain"
  detag "$base.$lang" "$dir/tgt"
  # shellcheck disable=SC2086
  project_self "$lang" "$dir/hyp.self" ${MANPAGES_ARGS:-}
  both "$lang" "self minmax" "$dir/hyp.self"
  if [ -n "${MANPAGES_VS:-}" ]; then
    # shellcheck disable=SC2086
    project_self "$lang" "$dir/hyp.vs" ${MANPAGES_ARGS:-} $MANPAGES_VS
    both "$lang" "self vs" "$dir/hyp.vs"
  fi
  if [ -n "$eflomal" ]; then
    tokens "$dir/src.plain" "$dir/efl.en"
    tokens "$dir/tgt" "$dir/efl.tgt"
    paste -d '\t' "$dir/efl.en" "$dir/efl.tgt" |
      awk -F '\t' '{ print $1 " ||| " $2 }' >"$dir/efl.corpus"
    eflomal_align "$dir" "${BENCH_THREADS:-2}" "$dir/efl.corpus" \
      >"$dir/efl.links"
    "$XLIFFMT" project --source "$base.en" --target "$dir/tgt" \
      --alignment "$dir/efl.links" --source-tokens "$dir/efl.en" \
      --target-tokens "$dir/efl.tgt" --rule minmax -o "$dir/hyp.eflomal"
    both "$lang" "eflomal minmax" "$dir/hyp.eflomal"
    paired "$lang" "self - eflomal" "self minmax" "eflomal minmax"
  fi
  [ -z "${MANPAGES_VS:-}" ] ||
    paired "$lang" "self vs - self" "self vs" "self minmax"
done
