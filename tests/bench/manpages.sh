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
# the lines left tagless dropped. For
# each language of MANPAGES_LANGS and each set: the target tags are
# stripped, the English tags projected with `xliffmt project --aligner
# self` (grow-diag-final-and, min-max, the languages given), and `xliffmt
# evaluate --lines` scores each line. Both sets are aligned with a model
# trained on the full set's detagged text: the hard set's own lines plus,
# through --train-source/--train-target, the full set's other lines.
# Printed per set and half: lines, reference tags, and the share placed
# exactly with a 95 % bootstrap interval (1,000 resamples of lines, seed 1).
#
# eflomal: with EFLOMAL set (see eflomal.sh), one more row per half:
# eflomal as eflomal-align runs it on the full set's text, its directions
# combined with grow-diag-final-and, the tags projected with min-max
# over its \w+|[^\w\s] tokens (one run for both sets: eflomal seeds
# itself at random; the hard set takes its lines' links).
#
# Env: XLIFFMT (required), MANPAGES_LANGS (default "de fr hu fi nl ru ja
#      zh"), MANPAGES_MAX (lines per language, default 4000, taken from
#      the pages in turn), MANPAGES_ARGS (more `xliffmt project` options,
#      e.g. "--model ibm2"), MAN_ROOT (default /usr/share/man; set: no
#      package is installed), EFLOMAL, BENCH_THREADS (eflomal's, default
#      2), BENCH_DIR (default a fresh temporary directory, removed on
#      exit).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
langs=${MANPAGES_LANGS:-de fr hu fi nl ru ja zh}
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

# pick LINES IN OUT: the lines of IN whose numbers LINES lists (in order);
# with -v, the others.
pick() {
  v=1
  [ "$1" = -v ] && { v=0; shift; }
  awk -v v=$v 'NR == FNR { want[$1] = 1; next } (FNR in want) == v' \
    "$1" "$2" >"$3"
}

# rows LANG METHOD SET HYP: evaluates HYP against the gold target of SET
# (full or hard) and prints a row per half.
rows() {
  gold=$dir/manpages.en-$1
  [ "$3" = full ] || gold=$dir/manpages-$3.en-$1
  "$XLIFFMT" evaluate --lines --hypothesis "$4" --reference "$gold.$1" \
    >"$dir/lines" 2>"$dir/eval.err" || { cat "$dir/eval.err" >&2; exit 1; }
  if [ -s "$dir/eval.err" ]; then
    echo "manpages.sh: $1 $2 $3: the text changed: $(cat "$dir/eval.err")" >&2
    exit 1
  fi
  paste "$gold.split" "$dir/lines" | "$py" -c '
import random, sys
lang, method, set_ = sys.argv[1:4]
halves = {"tune": [], "report": []}
for row in sys.stdin:
    half, _, tags, exact = row.split("\t")
    halves[half].append((int(tags), int(exact)))
for half in ("tune", "report"):
    rows = halves[half]
    n, tags = len(rows), sum(t for t, _ in rows)
    if tags == 0:
        print("%-4s %-16s %-4s %-6s %6d %6d %6s" % (lang, method,
              set_, half, n, 0, "-"))
        continue
    rng, shares = random.Random(1), []
    for _ in range(1000):
        t = e = 0
        for _ in range(n):
            a, b = rows[rng.randrange(n)]
            t, e = t + a, e + b
        shares.append(100.0 * e / t if t else 0.0)
    shares.sort()
    print("%-4s %-16s %-4s %-6s %6d %6d %6.1f  [%.1f, %.1f]" % (lang,
          method, set_, half, n, tags,
          100.0 * sum(e for _, e in rows) / tags, shares[24], shares[974]))
' "$1" "$2" "$3"
}

printf '%-4s %-16s %-4s %-6s %6s %6s %6s  %s\n' lang method set half lines \
  tags exact '95 % interval'
for lang in $langs; do
  base=$dir/manpages.en-$lang
  if [ ! -s "$base.en" ]; then
    echo "manpages.sh: en-$lang: no lines" >&2
    continue
  fi
  hard=$dir/manpages-hard.en-$lang
  detag "$base.en" "$dir/src.plain"
  detag "$base.$lang" "$dir/tgt"
  detag "$hard.$lang" "$dir/hard.tgt"
  # the full set's lines that the hard set lacks: its training complement
  pick -v "$hard.lines" "$dir/src.plain" "$dir/rest.en"
  pick -v "$hard.lines" "$dir/tgt" "$dir/rest.tgt"
  # shellcheck disable=SC2086
  "$XLIFFMT" project --source "$base.en" --target "$dir/tgt" \
    --aligner self --symmetrize grow-diag-final-and --rule minmax \
    --source-lang en --target-lang "$lang" ${MANPAGES_ARGS:-} -o "$dir/hyp"
  rows "$lang" "self minmax" full "$dir/hyp"
  if [ -s "$hard.en" ]; then
    # shellcheck disable=SC2086
    "$XLIFFMT" project --source "$hard.en" --target "$dir/hard.tgt" \
      --aligner self --symmetrize grow-diag-final-and --rule minmax \
      --source-lang en --target-lang "$lang" ${MANPAGES_ARGS:-} \
      --train-source "$dir/rest.en" --train-target "$dir/rest.tgt" \
      -o "$dir/hyp"
    rows "$lang" "self minmax" hard "$dir/hyp"
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
      --target-tokens "$dir/efl.tgt" --rule minmax -o "$dir/hyp"
    rows "$lang" "eflomal minmax" full "$dir/hyp"
    if [ -s "$hard.en" ]; then
      for f in efl.links efl.en efl.tgt; do
        pick "$hard.lines" "$dir/$f" "$dir/hard.$f"
      done
      "$XLIFFMT" project --source "$hard.en" --target "$dir/hard.tgt" \
        --alignment "$dir/hard.efl.links" \
        --source-tokens "$dir/hard.efl.en" \
        --target-tokens "$dir/hard.efl.tgt" --rule minmax -o "$dir/hyp"
      rows "$lang" "eflomal minmax" hard "$dir/hyp"
    fi
  fi
done
