#!/bin/sh
# projection.sh -- the tag-projection yardstick on the markup-tags dev sets
# (Hanneman & Dinu 2020; see tests/data/markup-tags/README).
#
# For en->de, en->fr and en->hu and both dev sets (dev-eurlex, 1888 lines;
# dev-glossary, 286 lines): the tags are stripped from the target side, the
# English tags are projected onto the detagged target with `xliffmt
# project`, and `xliffmt evaluate` compares the result with the target's
# own (gold) tags. Prints exact placement, interior-tag exact placement,
# well-formed lines and tags kept, then the projection speed. Two more
# columns score the lone codes apart: "lone" is the exact placement of the
# bx and ex whose partner is on another line (240 EUR-Lex lines have one:
# Tikal's paragraphs inside a formatted run), "x" that of the x
# placeholders, the kind of code they are placed like.
#
# Two baselines, both without alignments:
# - "proportional": each tag goes to its own proportional token position,
#   round(p * k / m) (p: \w+|[^\w\s] tokens before it in the source, m and
#   k: token counts of source and target), written by a small perl program
#   below. This is the proportional baseline of doc/benchmarks.md (it
#   reproduces its glossary figures exactly and its eurlex interior
#   figures within a tag or two).
# - "no links": `xliffmt project` with every alignment line empty. With no
#   links the projector falls back to proportional positions over its own
#   tokens, each boundary rounded to nearest (a pair a..b goes to
#   round(a*k/m) .. round((b+1)*k/m) - 1), then attaches tags to words.
# Then the built-in aligner, `xliffmt project --aligner self`: trained on
# the detagged text of both dev sets of the pair (the set being projected
# plus the other one through --train-source/--train-target, 2174 lines),
# for each symmetrization in ALIGNER_SYMS and each projection rule. Its
# README column is the published fast_align + min-max figure to beat, as
# in doc/benchmarks.md
# (trained on 3913 lines: these dev sets plus test sets not shipped here).
# The data folder has no other parallel text to add.
#
# Halves: every figure is printed twice, for the "tune" and the "report"
# half of each set (tests/data/markup-tags/SPLIT: alternate 30-line
# documents, the documents of the doc30 mode). Choices are made and judged
# on "tune"; "report" is the figure to publish. The aligner still trains on
# all the text (it uses no gold tag); only the scoring is split.
#
# eflomal: with EFLOMAL set (see eflomal.sh), each cell of the aligner
# rows (whole and docN) also gets "eflomal minmax": eflomal as
# eflomal-align runs it, trained on the same text, its two directions
# combined with grow-diag-final-and, the tags projected with the min-max
# rule (`xliffmt project --alignment` over eflomal's \w+|[^\w\s] tokens),
# the mean of EFLOMAL_RUNS runs (default 3; eflomal seeds itself at
# random).
#
# Speed: `xliffmt project` wall time (empty alignments) over the 1888+286
# en->de lines, repeated until one run lasts more than a second.
#
# Env: XLIFFMT (required), XMT_TEST_DATA (default tests/data),
#      EFLOMAL (the eflomal binary, its source tree or its Python
#      package; unset: no eflomal rows), EFLOMAL_RUNS (default 3),
#      BENCH_THREADS (eflomal's threads, default 2), PROJECTION_LANGS
#      (default "de fr hu"), ALIGNER_CONFIGS (default "ibm2/none
#      ibm2/auto bayes/none bayes/auto"), PROJECTION_MODES (default
#      "whole documents"), DOC_LINES (default 30: the documents of
#      SPLIT; another size cuts across the halves), ALIGNER_SYMS (default
#      grow-diag-final-and), ALIGNER_RULES (default minmax),
#      DICTD_DIR (a folder of FreeDict files, freedict-eng-deu.index and
#      so on, for "auto" when the dict-freedict packages are not
#      installed), BENCH_DIR (default a fresh temporary directory,
#      removed on exit).
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
data=${XMT_TEST_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}/markup-tags
if [ ! -f "$data/dev-eurlex.en" ]; then
  echo "projection.sh: $data/dev-eurlex.en not found; set XMT_TEST_DATA" >&2
  exit 1
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/split.sh"
split_check "$data/SPLIT" eurlex "$(wc -l <"$data/dev-eurlex.en")"
split_check "$data/SPLIT" glossary "$(wc -l <"$data/dev-glossary.en")"
. "$here/eflomal.sh"
if eflomal_find; then
  efl_runs=${EFLOMAL_RUNS:-3}
else
  echo "projection.sh: no eflomal rows: set EFLOMAL to the eflomal binary" \
    "(make -C src in eflomal's source tree) to compare"
fi
if ! command -v perl >/dev/null 2>&1; then
  echo "projection.sh: perl not found (it strips the gold tags and writes the baseline)" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
bench_scratch projection

# detag IN OUT: the plain text of each tagged line: tags removed, then the
# XML entities and character references decoded (&amp; last).
detag() {
  perl -CSD -pe 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g;
    s/&apos;/\x27/g; s/&#x([0-9a-fA-F]+);/chr(hex $1)/ge;
    s/&#([0-9]+);/chr($1)/ge; s/&amp;/&/g' "$1" >"$2"
}

# The proportional baseline: prop.pl SRC TGT writes TGT with the tags of
# SRC, all tags of one target position q together, in source order, right
# before target token q.
cat >"$dir/prop.pl" <<'EOF'
use strict;
use warnings;
binmode STDOUT, ':encoding(UTF-8)';
open my $s, '<:encoding(UTF-8)', $ARGV[0] or die "$ARGV[0]: $!\n";
open my $t, '<:encoding(UTF-8)', $ARGV[1] or die "$ARGV[1]: $!\n";
sub dec {
  my $x = shift;
  $x =~ s/&lt;/</g; $x =~ s/&gt;/>/g; $x =~ s/&quot;/"/g; $x =~ s/&apos;/'/g;
  $x =~ s/&#x([0-9a-fA-F]+);/chr(hex $1)/ge; $x =~ s/&#([0-9]+);/chr($1)/ge;
  $x =~ s/&amp;/&/g;
  return $x;
}
sub esc {
  my $x = shift;
  $x =~ s/&/&amp;/g; $x =~ s/</&lt;/g; $x =~ s/>/&gt;/g;
  return $x;
}
my $tok = qr/\w+|[^\w\s]/;
while (my $src = <$s>) {
  chomp $src;
  my $tgt = <$t>;
  die "$ARGV[1] is shorter than $ARGV[0]\n" unless defined $tgt;
  chomp $tgt;
  my ($m, @tags) = (0);
  for my $part (split /(<[^>]*>)/, $src) {
    if ($part =~ /^</) { push @tags, [$m, $part] }
    else { $m += () = dec($part) =~ /$tok/g }
  }
  my @starts;
  push @starts, $-[0] while $tgt =~ /$tok/g;
  my $k = @starts;
  my %at;
  for my $tag (@tags) {
    my $q = $tag->[0] == $m ? $k : int($tag->[0] * $k / $m + 0.5);
    push @{ $at{$q} }, $tag->[1];
  }
  my ($out, $from) = ('', 0);
  for my $q (sort { $a <=> $b } keys %at) {
    my $off = $q < $k ? $starts[$q] : length $tgt;
    $out .= esc(substr($tgt, $from, $off - $from)) . join('', @{ $at{$q} });
    $from = $off;
  }
  print $out, esc(substr($tgt, $from)), "\n";
}
EOF

# json FILE KEY: the number after "KEY": in FILE (one JSON object).
json() {
  sed -n "s/.*\"$2\":\\([^,}]*\\).*/\\1/p" "$1"
}

# The published proportional baseline (doc/benchmarks.md): glossary exact and
# eurlex interior exact.
readme_baseline() {
  case "$1-$2" in
  de-glossary) echo 20.5 ;; fr-glossary) echo 17.5 ;; hu-glossary) echo 15.7 ;;
  de-eurlex) echo 47.9 ;; fr-eurlex) echo 43.1 ;; hu-eurlex) echo 45.6 ;;
  esac
}

# The published fast_align + min-max figures (tests/data/markup-tags/README).
published() {
  case "$1-$2" in
  de-glossary) echo 76.2 ;; fr-glossary) echo 80.7 ;; hu-glossary) echo 68.4 ;;
  de-eurlex) echo 65.5 ;; fr-eurlex) echo 74.5 ;; hu-eurlex) echo 44.9 ;;
  esac
}

# scores SET HYP GOLD HALF: "lines exact interior-tags interior lone x
# w.-f. kept" (%, but the counts of lines and interior tags) of the lines
# of HALF of SET, HYP against GOLD.
scores() {
  split_pick "$data/SPLIT" "$1" "$4" "$2" >"$dir/hyp.half"
  split_pick "$data/SPLIT" "$1" "$4" "$3" >"$dir/gold.half"
  "$XLIFFMT" evaluate --json --hypothesis "$dir/hyp.half" \
    --reference "$dir/gold.half" >"$dir/eval.json"
  mismatch=$(json "$dir/eval.json" text_mismatch_lines)
  if [ "$mismatch" != 0 ]; then
    echo "projection.sh: $1 $4: the text of $mismatch lines changed" >&2
    exit 1
  fi
  for key in lines exact_pct interior interior_exact_pct isolated_exact_pct \
    placeholder_exact_pct well_formed_pct kept_pct; do
    json "$dir/eval.json" $key | sed 's/null/-/'
  done | tr '\n' ' '
}

# readme_col PAIR SET METHOD: the README column of a row
readme_col() {
  case $3 in
  proportional) readme_baseline "${1#en-}" "$2" ;;
  self* | doc*) published "${1#en-}" "$2" ;;
  esac
}

# line PAIR SET METHOD HALF SCORES... README: one row of the table
line() {
  printf '%-56s %-6s %5s %6s %5s %8s %6s %6s %6s %6s %7s\n' \
    "$1 $2 $3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" "${13}"
}

# row PAIR SET METHOD HYP GOLD: evaluates HYP and prints its rows, one a
# half.
row() {
  for half in tune report; do
    # shellcheck disable=SC2046
    line "$1" "$2" "$3" "$half" $(scores "$2" "$4" "$5" "$half") \
      "$(readme_col "$1" "$2" "$3")"
  done
}

# row_mean PAIR SET METHOD GOLD HYP...: the rows of the mean of the HYPs'
# scores (the counts: the first one's; a column with no such tags stays
# "-").
row_mean() {
  r_pair=$1 r_set=$2 r_method=$3 r_gold=$4
  shift 4
  for half in tune report; do
    for h in "$@"; do
      scores "$r_set" "$h" "$r_gold" "$half"
      echo
    done >"$dir/means"
    # shellcheck disable=SC2046
    line "$r_pair" "$r_set" "$r_method" "$half" $(awk '
      { for (i = 1; i <= NF; i++) { if ($i == "-") dash[i] = 1; sum[i] += $i }
        if (NR == 1) { lines = $1; tags = $3; n = NF } }
      END { printf "%d %.1f %d", lines, sum[2] / NR, tags
        for (i = 4; i <= n; i++)
          if (dash[i]) printf " -"; else printf " %.1f", sum[i] / NR }
    ' "$dir/means") "$(readme_col "$r_pair" "$r_set" "$r_method")"
  done
}

# tokens IN OUT: the \w+|[^\w\s] tokens of each line of IN, spaces between
tokens() {
  perl -CSD -ne 'print join(" ", /\w+|[^\w\s]/g), "\n"' "$1" >"$2"
}

# pairs SRC TGT: the lines of two token files as "src ||| tgt"
pairs() {
  paste -d '\t' "$1" "$2" | awk -F '\t' '{ print $1 " ||| " $2 }'
}

# efl_links LANG SET MODE K: eflomal's links for the lines of SET, run K
# (whole: trained on both sets of the pair once a run, as the built-in
# aligner is; docN: on each N-line document alone), to $dir/efl.links
efl_links() {
  e_base=$dir/efl.$1
  if [ "$3" = whole ]; then
    if [ ! -f "$e_base.whole.$4" ]; then
      { pairs "$e_base.eurlex.en" "$e_base.eurlex.$1"
        pairs "$e_base.glossary.en" "$e_base.glossary.$1"
      } >"$dir/efl.corpus"
      eflomal_align "$dir" "$efl_threads" "$dir/efl.corpus" \
        >"$e_base.whole.$4"
    fi
    if [ "$2" = eurlex ]; then
      head -n "$(wc -l <"$e_base.eurlex.en")" "$e_base.whole.$4"
    else
      tail -n "$(wc -l <"$e_base.glossary.en")" "$e_base.whole.$4"
    fi >"$dir/efl.links"
  else
    pairs "$e_base.$2.en" "$e_base.$2.$1" >"$dir/efl.corpus"
    rm -f "$dir"/efl.chunk.*
    split -a 4 -l "$doc_lines" "$dir/efl.corpus" "$dir/efl.chunk."
    for c in "$dir"/efl.chunk.*; do
      eflomal_align "$dir" "$efl_threads" "$c"
    done >"$dir/efl.links"
  fi
}

# efl_rows LANG SET: the eflomal + min-max rows of a cell, one a mode
efl_rows() {
  e_lang=$1 e_set=$2 e_base=$dir/efl.$1
  for s in eurlex glossary; do
    for l in en "$e_lang"; do
      [ -f "$e_base.$s.$l" ] || {
        detag "$data/dev-$s.$l" "$dir/efl.plain"
        tokens "$dir/efl.plain" "$e_base.$s.$l"
      }
    done
  done
  detag "$data/dev-$e_set.$e_lang" "$dir/efl.tgt"
  for mode in $modes; do
    k=1
    set --
    while [ "$k" -le "$efl_runs" ]; do
      efl_links "$e_lang" "$e_set" "$mode" "$k"
      "$XLIFFMT" project --source "$data/dev-$e_set.en" \
        --target "$dir/efl.tgt" --alignment "$dir/efl.links" \
        --source-tokens "$e_base.$e_set.en" \
        --target-tokens "$e_base.$e_set.$e_lang" --rule minmax \
        -o "$dir/efl.hyp.$k"
      set -- "$@" "$dir/efl.hyp.$k"
      k=$((k + 1))
    done
    label=self
    [ "$mode" = whole ] || label=doc$doc_lines
    row_mean "en-$e_lang" "$e_set" \
      "$label eflomal grow-diag-final-and minmax" \
      "$data/dev-$e_set.$e_lang" "$@"
  done
}

line pair set method half lines exact 'int.' interior lone x 'w.-f.' kept \
  README
line '' '' '' '' '' '%' tags 'exact %' '%' '%' '%' '%' '%'
syms=${ALIGNER_SYMS:-grow-diag-final-and}
rules=${ALIGNER_RULES:-minmax}
configs=${ALIGNER_CONFIGS:-ibm2/none ibm2/auto bayes/none bayes/auto}
modes=${PROJECTION_MODES:-whole documents}
doc_lines=${DOC_LINES:-30}
efl_threads=${BENCH_THREADS:-2}
[ -z "$eflomal" ] || eflomal_setup "$dir"

# iso3 LANG: FreeDict's name of a language
iso3() {
  case $1 in de) echo deu ;; fr) echo fra ;; hu) echo hun ;; *) echo "$1" ;; esac
}

# aligner_args CONFIG LANG: the project options of a MODEL/PRIORS config;
# PRIORS none: no priors at all; auto: the installed dictionaries of the
# pair, identical words and cognates (with DICTD_DIR, the FreeDict files
# of the pair in that folder instead of the installed ones).
aligner_args() {
  model=${1%/*}
  case ${1#*/} in
  none) echo "--model $model --no-priors" ;;
  auto)
    if [ -n "${DICTD_DIR:-}" ]; then
      echo "--model $model --source-lang en --target-lang $2" \
        "--dictionary $DICTD_DIR/freedict-eng-$(iso3 "$2").index" \
        "--dictionary $DICTD_DIR/freedict-$(iso3 "$2")-eng.index"
    else
      echo "--model $model --source-lang en --target-lang $2 --dictionary auto"
    fi
    ;;
  *) echo "--model $model --source-lang en --target-lang $2 --dictionary ${1#*/}" ;;
  esac
}

# documents SRC TGT OUT ARGS...: OUT gets the projection of SRC onto TGT
# cut into documents of doc_lines lines, the aligner trained on each
# document alone (what one translated web page or Word file gives it).
documents() {
  d_src=$1 d_tgt=$2 d_out=$3
  shift 3
  rm -f "$dir"/chunk.src.* "$dir"/chunk.tgt.*
  split -a 4 -l "$doc_lines" "$d_src" "$dir/chunk.src."
  split -a 4 -l "$doc_lines" "$d_tgt" "$dir/chunk.tgt."
  : >"$d_out"
  for c in "$dir"/chunk.src.*; do
    "$XLIFFMT" project --source "$c" --target "$dir/chunk.tgt.${c##*.}" \
      --aligner self "$@" -o "$dir/chunk.out"
    cat "$dir/chunk.out" >>"$d_out"
  done
}

for lang in ${PROJECTION_LANGS:-de fr hu}; do
  for set in eurlex glossary; do
    src=$data/dev-$set.en
    gold=$data/dev-$set.$lang
    detag "$gold" "$dir/tgt"
    perl "$dir/prop.pl" "$src" "$dir/tgt" >"$dir/hyp"
    row "en-$lang" "$set" proportional "$dir/hyp" "$gold"
    awk '{ print "" }' "$src" >"$dir/aln"
    "$XLIFFMT" project --source "$src" --target "$dir/tgt" \
      --alignment "$dir/aln" -o "$dir/hyp"
    row "en-$lang" "$set" "no links" "$dir/hyp" "$gold"
    other=glossary
    [ "$set" = glossary ] && other=eurlex
    detag "$data/dev-$other.en" "$dir/train.en"
    detag "$data/dev-$other.$lang" "$dir/train.$lang"
    for config in $configs; do
      # shellcheck disable=SC2046
      set -- $(aligner_args "$config" "$lang")
      for mode in $modes; do
        for sym in $syms; do
          for rule in $rules; do
            if [ "$mode" = whole ]; then
              "$XLIFFMT" project --source "$src" --target "$dir/tgt" \
                --aligner self --symmetrize "$sym" --rule "$rule" "$@" \
                --train-source "$dir/train.en" \
                --train-target "$dir/train.$lang" -o "$dir/hyp"
              row "en-$lang" "$set" "self $config $sym $rule" "$dir/hyp" "$gold"
            else
              documents "$src" "$dir/tgt" "$dir/hyp" --symmetrize "$sym" \
                --rule "$rule" "$@"
              row "en-$lang" "$set" "doc$doc_lines $config $sym $rule" \
                "$dir/hyp" "$gold"
            fi
          done
        done
      done
    done
    [ -z "$eflomal" ] || efl_rows "$lang" "$set"
  done
done
echo "README: for the baselines, the published proportional baseline; for"
echo "\"self\" (trained on both dev sets of the pair) and \"docN\" (trained"
echo "on each N-line document alone), the published fast_align + min-max"
echo "figure; of the cell the README reports (glossary: exact; eurlex:"
echo "interior exact), measured on the whole dev set, not split. Configs:"
echo "MODEL/PRIORS (none: no priors; auto: the installed dictionaries of the"
echo "pair, identical words and cognates). Halves: tests/data/markup-tags/SPLIT;"
echo "choices are made on \"tune\", \"report\" is the figure to publish."

# --- Speed ---------------------------------------------------------------
cat "$data/dev-eurlex.en" "$data/dev-glossary.en" >"$dir/src1"
detag "$data/dev-eurlex.de" "$dir/tgt.e"
detag "$data/dev-glossary.de" "$dir/tgt.g"
cat "$dir/tgt.e" "$dir/tgt.g" >"$dir/tgt1"
awk '{ print "" }' "$dir/src1" >"$dir/aln1"
now() { date +%s.%N; }
reps=1
while :; do
  : >"$dir/src" && : >"$dir/tgt" && : >"$dir/aln"
  i=0
  while [ $i -lt $reps ]; do
    cat "$dir/src1" >>"$dir/src"
    cat "$dir/tgt1" >>"$dir/tgt"
    cat "$dir/aln1" >>"$dir/aln"
    i=$((i + 1))
  done
  t0=$(now)
  "$XLIFFMT" project --source "$dir/src" --target "$dir/tgt" \
    --alignment "$dir/aln" -o "$dir/hyp"
  t1=$(now)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  if awk -v s="$secs" 'BEGIN { exit !(s > 1.0) }'; then
    break
  fi
  reps=$((reps * 2))
done
lines=$(wc -l <"$dir/src" | tr -d ' ')
awk -v n="$lines" -v s="$secs" 'BEGIN {
  printf "projection speed: %d segments in %.2f s: %.0f segments/s\n", n, s,
    n / s }'
