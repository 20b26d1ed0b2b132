#!/bin/sh
# test_hostile_model_nothing.sh: --update-model on documents the aligner
# learns nothing from (every unit translate="no", every target kept, no
# unit at all). A missing --align-model file is made empty: of no
# document, no word, the run's languages (en-es), 188 bytes; a later run
# reads it (exit 0) and aligns as with no model at all, --aligner model:M
# as --aligner none, and an en-fr run refuses it. A model that exists is
# left byte for byte; a document that trains grows the empty model to one
# document. A model that says it is of no document but holds words is
# refused. Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "od not found (it reads the model's header)" od
cli_setup hostile-model-nothing
x=$XLIFFMT
cd "$tmp" || exit 99

# the engine: moves the adjectives after their nouns, so tags need links
cat >eng.sh <<'EOF'
#!/bin/sh
exec sed -u -e 's/red car/coche rojo/g' -e 's/green house/casa verde/g'
EOF
chmod +x eng.sh
mt="cmd:./eng.sh"

# xliff FILE TARGET-LANGUAGE UNIT...: a document of the units given whole
xliff() {
  f=$1 tl=$2
  shift 2
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n<file original="a" source-language="en" target-language="%s" datatype="plaintext"><body>\n' "$tl"
    printf '%s\n' "$@"
    printf '</body></file></xliff>\n'
  } >"$f"
}
xliff no.xlf es \
  '<trans-unit id="u1" translate="no"><source>the <g id="1">red</g> car</source></trans-unit>'
xliff kept.xlf es \
  '<trans-unit id="u1"><source>the <g id="1">red</g> car</source><target>el <g id="1">rojo</g> coche</target></trans-unit>'
xliff none.xlf es
xliff d.xlf es \
  '<trans-unit id="u1"><source>the <g id="1">red</g> car is old</source></trans-unit>' \
  '<trans-unit id="u2"><source>the <g id="2">green</g> house</source></trans-unit>' \
  '<trans-unit id="u3"><source>a <g id="3">red</g> car and a <g id="4">green</g> house</source></trans-unit>'
xliff fr.xlf fr \
  '<trans-unit id="u1"><source>the <g id="1">red</g> car</source></trans-unit>'

# documents F: the trainings a model counts (u64 at byte 56)
documents() { od -A n -t u8 -j 56 -N 8 "$1" | tr -d ' '; }
# languages F: the model's language tags (u32 length, bytes; at 64)
languages() { od -A n -c -j 68 -N 2 "$1" | tr -d ' '; od -A n -c -j 74 -N 2 "$1" | tr -d ' '; }
# empty_model DESC F: F is the empty en-es model
empty_model() {
  check "$1: the model exists" test -f "$2"
  check "$1: of no document" test "$(documents "$2")" = 0
  check "$1: 188 bytes" test "$(wc -c <"$2")" -eq 188
  check "$1: en-es" test "$(languages "$2" | tr -d '\n')" = enes
}

# --- nothing to align: the model is made empty, the output as without it
for d in no kept none; do
  rm -f "m.$d"
  within "$d: --update-model" 0 30 1000 \
    "$x" translate "$d.xlf" -o "$d.out" --mt "$mt" -q \
    --align-model "m.$d" --update-model
  empty_model "$d" "m.$d"
  "$x" translate "$d.xlf" -o "$d.plain" --mt "$mt" -q
  check "$d: the output is the one without a model" cmp -s "$d.out" "$d.plain"
  within "$d: --align-model reads the empty model" 0 30 1000 \
    "$x" translate "$d.xlf" -o "$d.again" --mt "$mt" -q --align-model "m.$d"
  check "$d: the same output" cmp -s "$d.again" "$d.out"
done
check "translate=\"no\": the unit as it was" cmp -s no.out no.xlf
check "target kept: the unit as it was" cmp -s kept.out kept.xlf

# --- the empty model aligns as no model does
"$x" translate d.xlf -o d.plain --mt "$mt" -q
within "a document seeded with the empty model" 0 30 1000 \
  "$x" translate d.xlf -o d.empty --mt "$mt" -q --align-model m.no
check "it aligns as without a model" cmp -s d.empty d.plain
check "and the tags follow the words" \
  grep -q '<target[^>]*>the coche <g id="1">rojo</g> is old</target>' d.empty
"$x" translate d.xlf -o d.none --mt "$mt" -q --aligner none
within "--aligner model:EMPTY" 0 30 1000 \
  "$x" translate d.xlf -o d.model --mt "$mt" -q --aligner model:m.no
check "it links nothing: as --aligner none" cmp -s d.model d.none
within "an en-fr run refuses the en-es model" 1 30 1000 \
  "$x" translate fr.xlf -o fr.out --mt "$mt" -q --align-model m.no
check "the message" test "$(cat "$tmp/err")" = \
  "xliffmt: m.no: word aligner: the aligner model is for en-es, not en-fr"
check "no output" test ! -e fr.out

# --- a model that exists is left as it was
cp m.no m.no.orig
within "an empty model, nothing to align" 0 30 1000 \
  "$x" translate no.xlf -o no.out2 --mt "$mt" -q --align-model m.no \
  --update-model
check "the empty model byte for byte" cmp -s m.no m.no.orig
within "the empty model grows by a document" 0 30 1000 \
  "$x" translate d.xlf -o d.grown --mt "$mt" -q --align-model m.no \
  --update-model
check "the grown model counts one document" test "$(documents m.no)" = 1
check "it aligned as without a model" cmp -s d.grown d.plain
cp m.no m.grown
for d in no kept none; do
  within "$d: a trained model, nothing to align" 0 30 1000 \
    "$x" translate "$d.xlf" -o "$d.out3" --mt "$mt" -q --align-model m.no \
    --update-model
  check "$d: the trained model byte for byte" cmp -s m.no m.grown
done

# --- batch makes the empty model too
mkdir in
cp no.xlf kept.xlf in/
within "batch: --update-model" 0 30 1000 \
  "$x" batch in -o tree --mt "$mt" -q --align-model m.batch --update-model
empty_model "batch" m.batch

# --- no document but words: not an empty model
cp m.grown m.bad
printf '\0\0\0\0\0\0\0\0' | dd of=m.bad bs=1 seek=56 conv=notrunc 2>/dev/null
within "a model of no document with words" 1 30 1000 \
  "$x" translate d.xlf -o d.bad --mt "$mt" -q --align-model m.bad
check "the message" test "$(cat "$tmp/err")" = \
  "xliffmt: m.bad: word aligner model: cannot load the aligner model: words in a model of no document"
check "no output" test ! -e d.bad

finish
