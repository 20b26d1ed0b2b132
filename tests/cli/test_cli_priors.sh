#!/bin/sh
# test_cli_priors.sh: the aligner's priors and models that grow, from the
# command line: a TSV dictionary and the installed FreeDict eng-spa put
# tags on the right words of a two-line document where the word order
# alone misleads; bad dictionaries are reported with their file; a model
# saved with --update-model counts the documents it learnt from and keeps
# its language pair; translate --update-model with Apertium makes one.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup priors
x=$XLIFFMT
w=$tmp/w
mkdir "$w"
# no cache of Apertium's dictionaries outside the test's folder
XLIFFMT_CACHE_DIR=$tmp/cache
export XLIFFMT_CACHE_DIR

# out_is DESC EXPECTED: stdout is exactly EXPECTED (lines).
out_is() {
  if [ "$(cat "$tmp/out")" = "$2" ]; then
    pass "$1"
  else
    fail "$1: got '$(cat "$tmp/out")', want '$2'"
  fi
}
err_is() {
  if [ "$(cat "$tmp/err")" = "$2" ]; then
    pass "$1"
  else
    fail "$1: stderr is '$(cat "$tmp/err")', want '$2'"
  fi
}
# documents F: the number of trainings an aligner model file counts (u64
# at byte 56, format version 2).
documents() {
  od -A n -t u8 -j 56 -N 8 "$1" | tr -d ' '
}

# --- Adjectives after their nouns: one document of two lines is too
# little to learn that; a dictionary says it.
printf '%s\n' 'the <g id="1">red</g> house is old' \
  'the <g id="2">green</g> car' >"$w/fr.src"
printf '%s\n' 'la maison rouge est vieille' 'la voiture verte' >"$w/fr.tgt"
printf '%s\n' '# colours' 'red	rouge' 'green	verte	2' >"$w/colours.tsv"
expect_exit 0 "no priors" "$x" project -s "$w/fr.src" -t "$w/fr.tgt" \
  --aligner self --no-priors
out_is "no priors: by position" 'la <g id="1">maison</g> rouge est vieille
la <g id="2">voiture</g> verte'
expect_exit 0 "TSV dictionary" "$x" project -s "$w/fr.src" -t "$w/fr.tgt" \
  --aligner self --dictionary "$w/colours.tsv"
out_is "TSV dictionary: on the adjectives" 'la maison <g id="1">rouge</g> est vieille
la voiture <g id="2">verte</g>'

# FreeDict eng-spa (installed with the test dependencies), found by the
# languages alone, and named; stems reach roja and blanco.
printf '%s\n' 'the <g id="1">red</g> house' \
  'the <g id="2">white</g> dog is big' >"$w/es.src"
printf '%s\n' 'la casa roja' 'el perro blanco es grande' >"$w/es.tgt"
want_es='la casa <g id="1">roja</g>
el perro <g id="2">blanco</g> es grande'
if [ -r /usr/share/dictd/freedict-eng-spa.index ]; then
  expect_exit 0 "auto dictionaries" "$x" project -s "$w/es.src" \
    -t "$w/es.tgt" --aligner self --source-lang en --target-lang es
  out_is "auto dictionaries: on the adjectives" "$want_es"
  expect_exit 0 "FreeDict named" "$x" project -s "$w/es.src" \
    -t "$w/es.tgt" --aligner self --source-lang en --target-lang es \
    --dictionary /usr/share/dictd/freedict-eng-spa.index
  out_is "FreeDict named: on the adjectives" "$want_es"
else
  echo "skip - dict-freedict-eng-spa is not installed"
fi
expect_exit 0 "--dictionary none" "$x" project -s "$w/es.src" \
  -t "$w/es.tgt" --aligner self --source-lang en --target-lang es \
  --dictionary none
out_is "--dictionary none: by position" 'la <g id="1">casa</g> roja
el <g id="2">perro</g> blanco es grande'

# --- Bad dictionaries: the file named, exit 1, no output.
expect_exit 1 "missing dictionary" "$x" project -s "$w/fr.src" \
  -t "$w/fr.tgt" --aligner self --dictionary "$w/nope.tsv" -o "$w/o"
err_is "missing dictionary: message" \
  "xliffmt: $w/nope.tsv: dictionary not found"
printf '%s\n' 'red	rouge' 'green' >"$w/bad.tsv"
expect_exit 1 "bad TSV line" "$x" project -s "$w/fr.src" -t "$w/fr.tgt" \
  --aligner self --dictionary "$w/bad.tsv" -o "$w/o"
err_is "bad TSV line: message" \
  "xliffmt: $w/bad.tsv:2: expected source word, tab, target word [, tab, positive weight]"
check "no output after a bad dictionary" test ! -e "$w/o"
expect_exit 1 "--no-priors with --dictionary" "$x" project -s "$w/fr.src" \
  -t "$w/fr.tgt" --aligner self --no-priors --dictionary "$w/colours.tsv"

# --- Models that grow.
m=$w/en-fr.model
expect_exit 0 "--update-model creates the model" "$x" project \
  -s "$w/fr.src" -t "$w/fr.tgt" --aligner self --aligner-model "$m" \
  --update-model --source-lang en --target-lang fr \
  --dictionary "$w/colours.tsv"
check "a new model counts one document" test "$(documents "$m")" = 1
expect_exit 0 "--update-model again" "$x" project -s "$w/fr.src" \
  -t "$w/fr.tgt" --aligner self --aligner-model "$m" --update-model \
  --source-lang en --target-lang fr --no-priors
check "the model counts two documents" test "$(documents "$m")" = 2
out_is "what the first document taught holds without priors" \
  'la maison <g id="1">rouge</g> est vieille
la voiture <g id="2">verte</g>'
expect_exit 1 "a model of another language pair" "$x" project \
  -s "$w/fr.src" -t "$w/fr.tgt" --aligner self --aligner-model "$m" \
  --source-lang en --target-lang de
err_is "another language pair: message" \
  "xliffmt: $m: the aligner model is for en-fr, not en-de"
expect_exit 1 "--update-model without a model file" "$x" project \
  -s "$w/fr.src" -t "$w/fr.tgt" --aligner self --update-model

# translate with Apertium makes and grows a model for en-es.
modes=/usr/share/apertium/modes
if [ -r "$modes/eng-spa.mode" ]; then
  cat >"$w/doc.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="doc" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>The <g id="1">red</g> car is in the garage.</source></trans-unit>
</body>
</file>
</xliff>
EOF
  expect_exit 0 "translate --update-model" "$x" translate "$w/doc.xlf" \
    -o "$w/doc.es.xlf" --mt apertium:eng-spa --align-model "$w/en-es.model" \
    --update-model -q
  check "translate made the model" test "$(documents "$w/en-es.model")" = 1
  expect_exit 1 "translate: the model's pair is checked" "$x" translate \
    "$w/doc.xlf" -o "$w/doc.x.xlf" --mt apertium:eng-spa \
    --align-model "$m" -q
  check "translate: no output with the wrong model" test ! -e "$w/doc.x.xlf"
else
  echo "skip - Apertium eng-spa is not installed"
fi

finish
