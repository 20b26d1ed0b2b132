#!/bin/sh
# test_cli_align.sh: "xliffmt align" with fast_align's input and output:
# Pharaoh links per line, both directions and symmetrized, a saved model
# aligning again without training, --tokenize, and every kind of bad input
# with its FILE:LINE message and exit 1.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup align

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

x=$XLIFFMT
w=$tmp/w
mkdir "$w"

# --- Adjectives after nouns (French order): the one-word pairs pin the
# words down, the two-word pairs cross. fast_align's format: spaced words.
cat >"$w/adj" <<'EOF'
red house ||| maison rouge
house ||| maison
red ||| rouge
big house ||| grande maison
red car ||| voiture rouge
car ||| voiture
big car ||| grande voiture
big ||| grande
old car ||| voiture vieille
old ||| vieille
EOF
# forward links come in target order, as fast_align prints them
cat >"$tmp/want" <<'EOF'
1-0 0-1
0-0
0-0
0-0 1-1
1-0 0-1
0-0
0-0 1-1
0-0
1-0 0-1
0-0
EOF
expect_exit 0 "forward -d -o -v" "$x" align -i "$w/adj" -d -o -v
same "forward: links" "$tmp/out" "$tmp/want"
sort_links() { for l in $1; do echo "$l"; done | sort | tr '\n' ' ' | sed 's/ $//'; }
sed 's/^1-0 0-1$/0-1 1-0/' "$tmp/want" >"$tmp/want.sorted"
expect_exit 0 "reverse -r" "$x" align -i "$w/adj" -d -o -v -r
same "reverse: links" "$tmp/out" "$tmp/want.sorted"
for h in intersect union grow-diag grow-diag-final grow-diag-final-and; do
  expect_exit 0 "--symmetrize $h" "$x" align -i "$w/adj" -d -o -v \
    --symmetrize "$h"
  same "--symmetrize $h: links" "$tmp/out" "$tmp/want.sorted"
done
expect_exit 0 "standard input" sh -c "\"$x\" align -i - -d -o -v <\"$w/adj\""
same "standard input: links" "$tmp/out" "$tmp/want"
expect_exit 0 "threads 1" "$x" align -i "$w/adj" -d -o -v --threads 1
same "threads 1: links" "$tmp/out" "$tmp/want"

# --- Save the model; align again with it, without training.
expect_exit 0 "--save-model" "$x" align -i "$w/adj" -d -o -v \
  --symmetrize intersect --save-model "$w/adj.model"
same "--save-model: links" "$tmp/out" "$tmp/want.sorted"
if [ -s "$w/adj.model" ] && [ "$(ls "$w" | grep -c tmp)" -eq 0 ]; then
  pass "--save-model: model written, no temporary file left"
else
  fail "--save-model: files $(ls "$w")"
fi
expect_exit 0 "--model" "$x" align -i "$w/adj" --model "$w/adj.model" \
  --symmetrize intersect
same "--model: same links" "$tmp/out" "$tmp/want.sorted"
printf '%s\n' 'old house ||| maison vieille' 'big unknown ||| grande inconnue' \
  >"$w/new"
expect_exit 0 "--model: new sentences" "$x" align -i "$w/new" \
  --model "$w/adj.model" --symmetrize grow-diag-final-and
printf '%s\n' '0-1 1-0' '0-0 1-1' >"$tmp/want.new"
same "--model: known words cross, unknown ones follow the diagonal" \
  "$tmp/out" "$tmp/want.new"

# --- --tokenize: xliffmt's word tokens; the links index them.
printf '%s\n' 'cats, dogs. ||| cats, dogs.' 'dogs ||| dogs' 'cats ||| cats' \
  >"$w/punct"
expect_exit 0 "spaced words" "$x" align -i "$w/punct" -d -o -v \
  --symmetrize intersect
printf '%s\n' '0-0 1-1' '0-0' '0-0' >"$tmp/want.p"
same "spaced words: 2 words" "$tmp/out" "$tmp/want.p"
expect_exit 0 "--tokenize" "$x" align -i "$w/punct" -d -o -v --tokenize \
  --symmetrize intersect
printf '%s\n' '0-0 1-1 2-2 3-3' '0-0' '0-0' >"$tmp/want.p"
same "--tokenize: 4 tokens" "$tmp/out" "$tmp/want.p"
printf '%s\n' 'Red House ||| MAISON ROUGE' >"$w/caps"
expect_exit 0 "--lowercase" "$x" align -i "$w/caps" --model "$w/adj.model"
printf '%s\n' '0-0 1-1' >"$tmp/want.c"
same "without --lowercase in the model: unknown words, diagonal" "$tmp/out" \
  "$tmp/want.c"
tr 'a-z' 'A-Z' <"$w/adj" >"$w/adj.caps"
expect_exit 0 "--lowercase: train" "$x" align -i "$w/adj.caps" -d -o -v \
  --lowercase --save-model "$w/lower.model"
expect_exit 0 "--lowercase: the model lowercases" "$x" align -i "$w/caps" \
  --model "$w/lower.model" --symmetrize intersect
printf '%s\n' '0-1 1-0' >"$tmp/want.c"
same "--lowercase: Red House / MAISON ROUGE cross" "$tmp/out" "$tmp/want.c"

# --- A side without words aligns to nothing: an empty line, as fast_align
# writes, in training, with --tokenize, and with a saved model.
printf '%s\n' 'red house ||| maison rouge' ' ||| maison' 'red |||' \
  'house ||| maison' '. ||| ...' >"$w/holes"
printf '%s\n' '0-0 1-1' '' '' '0-0' '0-0' >"$tmp/want.h"
expect_exit 0 "empty sides: train" "$x" align -i "$w/holes" -d -o -v \
  --symmetrize intersect
same "empty sides: empty lines" "$tmp/out" "$tmp/want.h"
printf '%s\n' '0-0 1-1' '' '' '0-0' '0-2' >"$tmp/want.h"
expect_exit 0 "empty sides: --tokenize" "$x" align -i "$w/holes" -d -o -v \
  --symmetrize intersect --tokenize
same "empty sides: --tokenize" "$tmp/out" \
  "$tmp/want.h"
expect_exit 0 "empty sides: saved model" "$x" align -i "$w/holes" \
  --model "$w/adj.model"
if [ "$(sed -n 2p "$tmp/out")$(sed -n 3p "$tmp/out")" = "" ] &&
  [ "$(wc -l <"$tmp/out")" -eq 5 ]; then
  pass "empty sides: saved model gives empty lines"
else
  fail "empty sides: saved model: $(cat "$tmp/out")"
fi

# --- Bad input: FILE:LINE: message, exit 1, nothing on stdout.
bad() { # DESC LINE-CONTENT MESSAGE
  printf 'a b ||| A B\n%s\n' "$2" >"$w/bad"
  if exits_with 1 "$1" "$x" align -i "$w/bad" -d -o -v; then
    err_is "$1: message" "xliffmt: $w/bad:2: $3"
    if [ -s "$tmp/out" ]; then fail "$1: output on stdout"; fi
  fi
}
bad "missing |||" "a b A B" 'no " ||| " between source and target'
bad "glued |||" "a b|||A B" 'no " ||| " between source and target'
bad "empty line" "" 'empty line: expected "SOURCE ||| TARGET"'
printf 'a b ||| A B\na \303 ||| A\n' >"$w/bad"
if exits_with 1 "invalid UTF-8" "$x" align -i "$w/bad" -d -o -v; then
  err_is "invalid UTF-8: message" \
    "xliffmt: $w/bad:2:3: byte 0xC3 is not UTF-8 (line-oriented inputs are UTF-8)"
fi
: >"$w/empty"
expect_exit 1 "empty file" "$x" align -i "$w/empty"
err_is "empty file: message" "xliffmt: $w/empty: no sentence pairs"

expect_exit 1 "missing file" "$x" align -i "$w/nope"
err_is "missing file: message" \
  "xliffmt: $w/nope: cannot open: No such file or directory"
expect_exit 1 "missing model" "$x" align -i "$w/adj" --model "$w/nope"
err_is "missing model: message" \
  "xliffmt: $w/nope: cannot open: No such file or directory"
printf 'not a model at all\n' >"$w/text.model"
expect_exit 1 "not a model" "$x" align -i "$w/adj" --model "$w/text.model"
err_is "not a model: message" \
  "xliffmt: $w/text.model: cannot load the aligner model: not an xliffmt aligner model"
# format version 3: byte 9 of the file
{ head -c 8 "$w/adj.model"; printf '\003'; tail -c +10 "$w/adj.model"; } \
  >"$w/v3.model"
expect_exit 1 "model of another version" "$x" align -i "$w/adj" \
  --model "$w/v3.model"
err_is "model of another version: message" \
  "xliffmt: $w/v3.model: aligner model format version 3; this xliffmt reads versions 1 to 2"
head -c 200 "$w/adj.model" >"$w/short.model"
expect_exit 1 "truncated model" "$x" align -i "$w/adj" --model "$w/short.model"
err_is "truncated model: message" \
  "xliffmt: $w/short.model: cannot load the aligner model: truncated"
{ cat "$w/adj.model"; printf 'x'; } >"$w/long.model"
expect_exit 1 "trailing data" "$x" align -i "$w/adj" --model "$w/long.model"
err_is "trailing data: message" \
  "xliffmt: $w/long.model: cannot load the aligner model: trailing data after the model"
printf '%s\n' 'red ||| rouge' 'red rouge' >"$w/bad"
expect_exit 1 "--model with a bad line" "$x" align -i "$w/bad" \
  --model "$w/adj.model"
err_is "--model with a bad line: message" \
  "xliffmt: $w/bad:2: no \" ||| \" between source and target"

# --- Usage errors.
usage_err() { # DESC MESSAGE ARGS...
  d=$1 m=$2
  shift 2
  if exits_with 1 "$d" "$x" align "$@"; then
    err_is "$d: message" "$(printf 'xliffmt: %s\nTry '"'"'xliffmt align --help'"'"'.' "$m")"
  fi
}
usage_err "no -i" "missing -i FILE" -d
usage_err "bad -I" "-I: 'x' is not a number in [1, 1000]" -i "$w/adj" -I x
usage_err "bad -p" "-p: '1' is not a number in [0, 0.999999]" -i "$w/adj" -p 1
usage_err "bad --null-prior" \
  "--null-prior: '0' is not a number in [1e-06, 0.999999]" -i "$w/adj" \
  --null-prior 0
usage_err "bad --null-alpha" "--null-alpha: '-1' is not a number in [1e-09, 1e+06]" \
  -i "$w/adj" --null-alpha -1
usage_err "bad --null-mass" "--null-mass: 'x' is not a number in [0, 1e+12]" \
  -i "$w/adj" --null-mass x
usage_err "bad --symmetrize" \
  "--symmetrize is one of intersect, union, grow-diag, grow-diag-final, grow-diag-final-and, intersect-first" \
  -i "$w/adj" --symmetrize gdfa
usage_err "--model and --save-model" \
  "--model aligns without training: it excludes --save-model" -i "$w/adj" \
  --model "$w/adj.model" --save-model "$w/x"
usage_err "-r and --symmetrize" "-r and --symmetrize exclude each other" \
  -i "$w/adj" -r --symmetrize union
expect_exit 0 "--help" "$x" align --help
if grep -q -e '--symmetrize' "$tmp/out"; then pass "--help: usage"; else
  fail "--help: $(head -3 "$tmp/out")"
fi
expect_exit 2 "unwritable --save-model" "$x" align -i "$w/adj" \
  --save-model "$w/no/such/dir/m"
err_is "unwritable --save-model: message" \
  "xliffmt: $w/no/such/dir/m: cannot create output: No such file or directory"

finish
