#!/bin/sh
# test_cli_project.sh: "xliffmt project" on small hand-made inputs: tags
# placed as the alignment says (monotone, reversed, over token files),
# proportional spots without links, output written whole or not at all,
# and errors named FILE:LINE.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup project

# same DESC FILE EXPECTED-FILE: the files are equal.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1: output differs (got, then expected):"
    sed 's/^/    got:  /' "$2"
    sed 's/^/    want: /' "$3"
  fi
}
# err_is DESC LINE: stderr is exactly LINE.
err_is() {
  if [ "$(cat "$tmp/err")" = "$2" ]; then
    pass "$1"
  else
    fail "$1: stderr is '$(cat "$tmp/err")', want '$2'"
  fi
}
# no_output DESC: nothing on stdout and no file but the inputs in $tmp/w.
no_output() {
  if [ -s "$tmp/out" ]; then
    fail "$1: output on stdout: $(head -2 "$tmp/out")"
  elif [ "$(ls "$tmp/w" | grep -c -v '^in\.')" -ne 0 ]; then
    fail "$1: files left: $(ls "$tmp/w" | grep -v '^in\.')"
  else
    pass "$1: no output, no file left"
  fi
}

x=$XLIFFMT
w=$tmp/w
mkdir "$w"

# --- Monotone alignment. Source tokens: The cat sat on the mat . (0..6);
# target: Le chat était assis sur le tapis . (0..7), "sat" -> "était
# assis". The g pair over 0..1 goes to 0..1; the x before "the" (4) goes
# before "le" (5). Line 2: "big" (1) -> "grand" (2), after "chien".
cat >"$w/in.src" <<'EOF'
<g id="1">The cat</g> sat on <x id="2"/>the mat.
A <g id="1">big</g> dog.
EOF
cat >"$w/in.tgt" <<'EOF'
Le chat était assis sur le tapis.
Un chien grand.
EOF
cat >"$w/in.aln" <<'EOF'
0-0 1-1 2-2 2-3 3-4 4-5 5-6 6-7
0-0 1-2 2-1 3-3
EOF
cat >"$tmp/want" <<'EOF'
<g id="1">Le chat</g> était assis sur <x id="2"/>le tapis.
Un chien <g id="1">grand</g>.
EOF
expect_exit 0 "monotone: to stdout" "$x" project --source "$w/in.src" \
  --target "$w/in.tgt" --alignment "$w/in.aln"
same "monotone: tags placed" "$tmp/out" "$tmp/want"
expect_exit 0 "monotone: -o" "$x" project -s "$w/in.src" -t "$w/in.tgt" \
  -a "$w/in.aln" -o "$w/out.txt"
same "monotone: -o file" "$w/out.txt" "$tmp/want"
if [ ! -s "$tmp/out" ] && [ "$(ls "$w" | grep -c tmp)" -eq 0 ]; then
  pass "monotone: -o: nothing on stdout, no temporary file left"
else
  fail "monotone: -o: stdout '$(cat "$tmp/out")', files $(ls "$w")"
fi
rm -f "$w/out.txt"
expect_exit 0 "monotone: --rule score" "$x" project -s "$w/in.src" \
  -t "$w/in.tgt" -a "$w/in.aln" --rule score
same "monotone: --rule score agrees" "$tmp/out" "$tmp/want"

# --- Reversed alignment: the pairs swap places.
printf '%s\n' '<g id="1">one</g> two <g id="2">three</g>' >"$w/in.src2"
printf '%s\n' 'drei zwei eins' >"$w/in.tgt2"
printf '%s\n' '2-0 1-1 0-2' >"$w/in.aln2"
printf '%s\n' '<g id="2">drei</g> zwei <g id="1">eins</g>' >"$tmp/want"
expect_exit 0 "reversed" "$x" project -s "$w/in.src2" -t "$w/in.tgt2" \
  -a "$w/in.aln2"
same "reversed: pairs swap" "$tmp/out" "$tmp/want"

# --- Text is decoded from the source markup and escaped in the output.
printf '%s\n' 'Fish &amp; <g id="1">chips</g> &lt;3' >"$w/in.src3"
printf '%s\n' 'Poisson & frites <3' >"$w/in.tgt3"
printf '%s\n' '0-0 1-1 2-2 3-3 4-4' >"$w/in.aln3"
printf '%s\n' 'Poisson &amp; <g id="1">frites</g> &lt;3' >"$tmp/want"
expect_exit 0 "escapes" "$x" project -s "$w/in.src3" -t "$w/in.tgt3" \
  -a "$w/in.aln3"
same "escapes: & and < written as entities" "$tmp/out" "$tmp/want"

# --- Empty alignment lines: tags go to proportional token positions,
# rounded to nearest (source 7 tokens, target 8: the pair's boundaries 0
# and 2 -> 0 and round(2.29) = 2, the x at 4 -> round(4.57) = 5).
printf '\n\n' >"$w/in.empty"
cat >"$tmp/want" <<'EOF'
<g id="1">Le chat</g> était assis sur <x id="2"/>le tapis.
Un <g id="1">chien</g> grand.
EOF
expect_exit 0 "empty alignments" "$x" project -s "$w/in.src" -t "$w/in.tgt" \
  -a "$w/in.empty"
same "empty alignments: proportional" "$tmp/out" "$tmp/want"

# --- Token files: the alignment indexes Moses tokens (escaped), BPE or
# SentencePiece pieces, mapped back onto the raw text. Source tokens Don
# 't stop . ; the pair over "Don't" spans all of "N'arrête pas"; the x
# glued to "stop" and "." stays before the target's ".".
printf '%s\n' "<g id=\"1\">Don't</g> stop<x id=\"2\"/>." >"$w/in.src4"
printf '%s\n' "N'arrête pas." >"$w/in.tgt4"
printf '%s\n' "<g id=\"1\">N'arrête pas</g><x id=\"2\"/>." >"$tmp/want"
printf '%s\n' "Don &apos;t stop ." >"$w/in.stok"
printf '%s\n' "N&apos; arrête pas ." >"$w/in.ttok"
printf '%s\n' '0-0 0-2 1-0 1-2 2-1 3-3' >"$w/in.aln4"
expect_exit 0 "moses tokens" "$x" project -s "$w/in.src4" -t "$w/in.tgt4" \
  -a "$w/in.aln4" --source-tokens "$w/in.stok" --target-tokens "$w/in.ttok"
same "moses tokens: tags placed" "$tmp/out" "$tmp/want"
printf '%s\n' "Don@@ 't stop ." >"$w/in.sbpe"
printf '%s\n' "N@@ '@@ arr@@ ête pas ." >"$w/in.tbpe"
printf '%s\n' '0-0 0-1 0-4 1-4 2-2 2-3 3-5' >"$w/in.aln4b"
expect_exit 0 "bpe tokens" "$x" project -s "$w/in.src4" -t "$w/in.tgt4" \
  -a "$w/in.aln4b" --source-tokens "$w/in.sbpe" --target-tokens "$w/in.tbpe" \
  --token-style bpe
same "bpe tokens: tags placed" "$tmp/out" "$tmp/want"
printf '%s\n' "▁Don ' t ▁stop ." >"$w/in.sspm"
printf '%s\n' "▁N ' ar rête ▁pas ." >"$w/in.tspm"
printf '%s\n' '0-0 0-1 0-4 1-4 2-4 3-2 3-3 4-5' >"$w/in.aln4s"
expect_exit 0 "sentencepiece tokens" "$x" project -s "$w/in.src4" \
  -t "$w/in.tgt4" -a "$w/in.aln4s" --source-tokens "$w/in.sspm" \
  --target-tokens "$w/in.tspm" --token-style sentencepiece
same "sentencepiece tokens: tags placed" "$tmp/out" "$tmp/want"

# --- Generic markup: the tags are HTML elements, written back as such.
printf '%s\n' 'A <b>big</b> dog<br/>.' >"$w/in.src5"
printf '%s\n' 'Un grand chien.' >"$w/in.tgt5"
printf '%s\n' '0-0 1-1 2-2 3-3' >"$w/in.aln5"
printf '%s\n' 'Un <b>grand</b> chien<br/>.' >"$tmp/want"
expect_exit 0 "generic" "$x" project -s "$w/in.src5" -t "$w/in.tgt5" \
  -a "$w/in.aln5" --generic
same "generic: HTML tags placed" "$tmp/out" "$tmp/want"

# --- Errors: exit 1, FILE:LINE message, no output and no file left.
printf '%s\n' '0-0 1-1 2-2 2-3 3-4 4-5 5-6 6-7' '0-0 9-1 2-1' >"$w/in.badaln"
expect_exit 1 "index out of range" "$x" project -s "$w/in.src" \
  -t "$w/in.tgt" -a "$w/in.badaln" -o "$w/out.txt"
err_is "index out of range: message" \
  "xliffmt: $w/in.badaln:2: alignment pair 2 \"9-1\" is out of range: the source has 4 tokens, the target 4"
no_output "index out of range"

printf '%s\n' '0-0' '0-0 1:1' >"$w/in.badaln"
expect_exit 1 "malformed pair" "$x" project -s "$w/in.src" -t "$w/in.tgt" \
  -a "$w/in.badaln" -o "$w/out.txt"
err_is "malformed pair: message" \
  "xliffmt: $w/in.badaln:2: alignment pair 2 \"1:1\" is not of the form i-j"
no_output "malformed pair"

printf '%s\n' '0-0 1-1 2-2 2-3 3-4 4-5 5-6 6-7' >"$w/in.short"
expect_exit 1 "short alignment file" "$x" project -s "$w/in.src" \
  -t "$w/in.tgt" -a "$w/in.short" -o "$w/out.txt"
err_is "short alignment file: message" \
  "xliffmt: $w/in.short:1: the file ends after 1 lines, but $w/in.src has more"
no_output "short alignment file"
expect_exit 1 "short target file" "$x" project -s "$w/in.src" \
  -t "$w/in.short" -a "$w/in.aln"
err_is "short target file: message" \
  "xliffmt: $w/in.short:1: the file ends after 1 lines, but $w/in.src has more"
no_output "short target file (stdout)"

printf '%s\n' 'fine' 'a <g id="1">broken' >"$w/in.badsrc"
printf '%s\n' '' '' >"$w/in.empty2"
expect_exit 1 "unparseable source" "$x" project -s "$w/in.badsrc" \
  -t "$w/in.tgt" -a "$w/in.empty2" -o "$w/out.txt"
err_is "unparseable source: message" \
  "xliffmt: $w/in.badsrc:2:19: cannot parse the tagged segment: malformed XML"
no_output "unparseable source"

printf '%s\n' "Dont stop ." >"$w/in.badtok"
expect_exit 1 "unmappable tokens" "$x" project -s "$w/in.src4" \
  -t "$w/in.tgt4" -a "$w/in.aln4" --source-tokens "$w/in.badtok" \
  --target-tokens "$w/in.ttok" -o "$w/out.txt"
err_is "unmappable tokens: message" \
  "xliffmt: $w/in.badtok:1: token 1 \"Dont\" does not match the source text"
no_output "unmappable tokens"

# --- The built-in aligner: --aligner self.
# Adjectives after nouns in the target: the aligner learns it from the
# lines themselves plus the extra plain text, and the tags follow.
printf '%s\n' '<g id="1">red</g> house' 'a <g id="1">big</g> car' \
  '<g id="1">old</g> car' >"$w/in.asrc"
printf '%s\n' 'maison rouge' 'une grande voiture' 'voiture vieille' \
  >"$w/in.atgt"
printf '%s\n' house red car 'red car' big 'big house' old 'old house' \
  'a house' a >"$w/in.trs"
printf '%s\n' maison rouge voiture 'voiture rouge' grande 'grande maison' \
  vieille 'maison vieille' 'une maison' une >"$w/in.trt"
printf '%s\n' 'maison <g id="1">rouge</g>' 'une <g id="1">grande</g> voiture' \
  'voiture <g id="1">vieille</g>' >"$tmp/want"
expect_exit 0 "--aligner self" "$x" project -s "$w/in.asrc" -t "$w/in.atgt" \
  --aligner self --train-source "$w/in.trs" --train-target "$w/in.trt"
same "--aligner self: tags follow the learnt word order" "$tmp/out" \
  "$tmp/want"
for h in grow-diag-final-and union; do
  expect_exit 0 "--aligner self --symmetrize $h" "$x" project \
    -s "$w/in.asrc" -t "$w/in.atgt" --aligner self --symmetrize "$h" \
    --train-source "$w/in.trs" --train-target "$w/in.trt" --rule score
  same "--aligner self --symmetrize $h --rule score" "$tmp/out" "$tmp/want"
done
# Without the extra text, three lines teach IBM2 nothing about word order:
# the diagonal wins and "red" -> "maison".
expect_exit 0 "--aligner self, lines alone" "$x" project -s "$w/in.asrc" \
  -t "$w/in.atgt" --aligner self --model ibm2 --no-priors
printf '%s\n' '<g id="1">maison</g> rouge' 'une <g id="1">grande</g> voiture' \
  '<g id="1">voiture</g> vieille' >"$tmp/want2"
same "--aligner self, lines alone: the diagonal" "$tmp/out" "$tmp/want2"
# The Bayesian model (the default) sees car/voiture twice, so "old" takes
# the other word; "red house" stays a guess.
expect_exit 0 "--aligner self, lines alone, bayes" "$x" project \
  -s "$w/in.asrc" -t "$w/in.atgt" --aligner self --no-priors
printf '%s\n' '<g id="1">maison</g> rouge' 'une <g id="1">grande</g> voiture' \
  'voiture <g id="1">vieille</g>' >"$tmp/want2"
same "--aligner self, lines alone, bayes: car is known" "$tmp/out" \
  "$tmp/want2"
# A model saved by "xliffmt align" seeds the training.
paste -d'|' "$w/in.trs" "$w/in.trt" | sed 's/|/ ||| /' >"$w/in.corpus"
expect_exit 0 "align --save-model" "$x" align -i "$w/in.corpus" -d -o -v \
  --save-model "$w/in.model"
expect_exit 0 "--aligner-model" "$x" project -s "$w/in.asrc" \
  -t "$w/in.atgt" --aligner self --aligner-model "$w/in.model" -o "$w/o.txt"
same "--aligner-model: tags follow the model's word order" "$w/o.txt" \
  "$tmp/want"
rm -f "$w/o.txt"
# A source with only tags, an empty target: nothing to train on.
printf '%s\n' '<x id="1"/>' 'a <g id="1">b</g>' >"$w/in.esrc"
printf '%s\n' 'A' '' >"$w/in.etgt"
expect_exit 0 "--aligner self: nothing to train on" "$x" project \
  -s "$w/in.esrc" -t "$w/in.etgt" --aligner self
printf '%s\n' '<x id="1"/>A' '<g id="1"></g>' >"$tmp/want3"
same "--aligner self: nothing to train on: proportional" "$tmp/out" \
  "$tmp/want3"

printf '%s\n' 'red' >"$w/in.short1"
expect_exit 1 "--train-target shorter" "$x" project -s "$w/in.asrc" \
  -t "$w/in.atgt" --aligner self --train-source "$w/in.trs" \
  --train-target "$w/in.short1" -o "$w/out.txt"
err_is "--train-target shorter: message" \
  "xliffmt: $w/in.short1:1: the file ends after 1 lines, but $w/in.trs has more"
no_output "--train-target shorter"
printf 'red\n\303 x\n' >"$w/in.badutf"
expect_exit 1 "--train-source invalid UTF-8" "$x" project -s "$w/in.asrc" \
  -t "$w/in.atgt" --aligner self --train-source "$w/in.badutf" \
  --train-target "$w/in.trt"
err_is "--train-source invalid UTF-8: message" \
  "xliffmt: $w/in.badutf:2:1: byte 0xC3 is not UTF-8 (line-oriented inputs are UTF-8)"
expect_exit 1 "--aligner-model missing" "$x" project -s "$w/in.asrc" \
  -t "$w/in.atgt" --aligner self --aligner-model "$w/nope"
err_is "--aligner-model missing: message" \
  "xliffmt: $w/nope: cannot open: No such file or directory"
printf 'XMTALIGN\003\000\000\000' >"$w/in.v2"
expect_exit 1 "--aligner-model of another version" "$x" project \
  -s "$w/in.asrc" -t "$w/in.atgt" --aligner self --aligner-model "$w/in.v2"
err_is "--aligner-model of another version: message" \
  "xliffmt: $w/in.v2: aligner model format version 3; this xliffmt reads versions 1 to 2"

usage_err() { # DESC MESSAGE ARGS...
  d=$1 m=$2
  shift 2
  if exits_with 1 "$d" "$x" project "$@"; then
    err_is "$d: message" "$(printf 'xliffmt: %s\nTry '"'"'xliffmt project --help'"'"'.' "$m")"
  fi
}
usage_err "no --alignment" "missing --alignment ALN or --aligner self" \
  -s "$w/in.src" -t "$w/in.tgt"
usage_err "--alignment and --aligner" \
  "--alignment and --aligner exclude each other" -s "$w/in.src" \
  -t "$w/in.tgt" -a "$w/in.aln" --aligner self
usage_err "unknown aligner" "unknown aligner (known: self)" -s "$w/in.src" \
  -t "$w/in.tgt" --aligner fast_align
usage_err "--train-source alone" \
  "--train-source and --train-target go together" -s "$w/in.src" \
  -t "$w/in.tgt" --aligner self --train-source "$w/in.trs"
usage_err "--symmetrize without --aligner" \
  "--train-source, --train-target, --aligner-model, --symmetrize, --lowercase, --model, --dictionary, --null-prior, --null-alpha, --null-mass, --tag-cuts, --stems and the languages need --aligner self" \
  -s "$w/in.src" -t "$w/in.tgt" -a "$w/in.aln" --symmetrize union
usage_err "--null-alpha without --aligner" \
  "--train-source, --train-target, --aligner-model, --symmetrize, --lowercase, --model, --dictionary, --null-prior, --null-alpha, --null-mass, --tag-cuts, --stems and the languages need --aligner self" \
  -s "$w/in.src" -t "$w/in.tgt" -a "$w/in.aln" --null-alpha 0.01
usage_err "bad --null-prior" "--null-prior is a number in (0, 1)" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --null-prior 1
usage_err "bad --null-alpha" "--null-alpha is a number in (0, 1e6]" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --null-alpha x
usage_err "bad --null-mass" "--null-mass is a number in [0, 1e12]" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --null-mass -1
usage_err "bad --tag-cuts" "--tag-cuts is on or off" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --tag-cuts yes
usage_err "bad --stems" "--stems is none, source, target or both" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --stems yes
usage_err "--stems without --aligner" \
  "--train-source, --train-target, --aligner-model, --symmetrize, --lowercase, --model, --dictionary, --null-prior, --null-alpha, --null-mass, --tag-cuts, --stems and the languages need --aligner self" \
  -s "$w/in.src" -t "$w/in.tgt" -a "$w/in.aln" --stems target
usage_err "bad --symmetrize" \
  "--symmetrize is one of forward, reverse, intersect, union, grow-diag, grow-diag-final, grow-diag-final-and, intersect-first" \
  -s "$w/in.src" -t "$w/in.tgt" --aligner self --symmetrize gdfa

expect_exit 1 "--source-tokens alone" "$x" project -s "$w/in.src" \
  -t "$w/in.tgt" -a "$w/in.aln" --source-tokens "$w/in.stok"
expect_exit 1 "bad --rule" "$x" project -s "$w/in.src" -t "$w/in.tgt" \
  -a "$w/in.aln" --rule best
expect_exit 1 "missing input" "$x" project -s "$w/nope" -t "$w/in.tgt" \
  -a "$w/in.aln"
err_is "missing input: message" \
  "xliffmt: $w/nope: cannot open: No such file or directory"
expect_exit 0 "--help" "$x" project --help
if grep -q -e '--alignment ALN' "$tmp/out"; then pass "--help: usage"; else
  fail "--help: $(head -3 "$tmp/out")"
fi

finish
