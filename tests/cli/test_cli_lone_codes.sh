#!/bin/sh
# test_cli_lone_codes.sh: <bx/> and <ex/> whose partner is in another unit
# or segment, as Okapi writes a formatted run over two paragraphs. The
# hand-made tests/fixtures/lone-codes.xlf goes through translate, check,
# extract and merge with exact results; then twelve EUR-Lex-like
# documents made from the markup-tags dev set (every line with a lone
# code, and more) are checked, translated by batch and translate with
# Apertium, and extracted, translated by Apertium and merged: every unit
# gets a target with each of its codes exactly once, and the output is
# valid XLIFF 1.2.
# Env: XLIFFMT, XMT_FIXTURES, XMT_TEST_DATA, XMLLINT.
# Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup lone-codes
x=$XLIFFMT
fx=$XMT_FIXTURES/lone-codes.xlf
xsd=$XMT_TEST_DATA/xliff-schema/xliff-core-1.2-transitional.xsd

# valid FILE: validates against the XLIFF 1.2 transitional schema when
# xmllint and the schema are there.
valid() {
  case ${XMLLINT:-no} in no | :) return 0 ;; esac
  [ -f "$xsd" ] || return 0
  "$XMLLINT" --noout --nonet --schema "$xsd" "$1" >"$tmp/lint" 2>&1
}

# json_num FILE KEY: the number after "KEY": in FILE.
json_num() { sed -n "s/.*\"$2\":\\([0-9]*\\).*/\\1/p" "$1"; }

# complete NAME FILE: every unit of FILE has a target holding each code of
# its source exactly once (check warns of a code lacking or added), and
# FILE is valid.
complete() {
  "$x" check --json "$2" >"$tmp/check.json" 2>/dev/null
  units=$(json_num "$tmp/check.json" units)
  with=$(json_num "$tmp/check.json" units_with_target)
  warnings=$(json_num "$tmp/check.json" warnings)
  errors=$(json_num "$tmp/check.json" errors)
  if [ -n "$units" ] && [ "$units" = "$with" ] && [ "$warnings" = 0 ] &&
    [ "$errors" = 0 ]; then
    pass "$1: $with/$units units with a target, every code once"
  else
    fail "$1: units=$units with target=$with warnings=$warnings errors=$errors"
    sed -n 's/.*"problems":\[\(.\{0,300\}\).*/    \1/p' "$tmp/check.json"
  fi
  check "$1: valid XLIFF 1.2" valid "$2"
}

# --- The fixture -------------------------------------------------------------

expect_exit 0 "fixture: check" "$x" check --json "$fx"
# bx 1; ex 1; ex 1 + bx 2; bx 6 in its mrk; ex 6 and the it. Unit 4's
# bx/ex and unit 5's rid pair are pairs.
check "fixture: 7 isolated codes" grep -q '"isolated_codes":7,' "$tmp/out"
check "fixture: no problem" grep -q '"errors":0,"warnings":0,' "$tmp/out"

# Identity: each target is its source, codes where they were; everything
# else byte for byte.
expect_exit 0 "fixture: translate --mt identity" "$x" translate "$fx" \
  -o "$tmp/id.xlf" --mt identity -q
sed 's|<source>\(.*\)</source></trans-unit>|<source>\1</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">\1</target></trans-unit>|' \
  "$fx" >"$tmp/want-id.xlf"
# Unit 6 has a seg-source: its target mirrors it.
sed -i 's|</mrk></seg-source></trans-unit>|</mrk></seg-source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mtype="seg" mid="1">Second sentence starts.</mrk> <mrk mtype="seg" mid="2"><bx id="6"/>Bold from here on.</mrk></target></trans-unit>|' \
  "$tmp/want-id.xlf"
check "fixture: identity output exact" cmp -s "$tmp/id.xlf" "$tmp/want-id.xlf"
complete "fixture: identity" "$tmp/id.xlf"

expect_exit 0 "fixture: translate --mt pseudo" "$x" translate "$fx" \
  -o "$tmp/pseudo.xlf" --mt pseudo -q
complete "fixture: pseudo" "$tmp/pseudo.xlf"
# A lone code at a segment's edge stays at the edge.
check "fixture: pseudo: bx 1 first" grep -q -F \
  'state-qualifier="mt-suggestion"><bx id="1"/>[' "$tmp/pseudo.xlf"
check "fixture: pseudo: ex 1 last" grep -q -F \
  ']<ex id="1"/></target>' "$tmp/pseudo.xlf"
check "fixture: pseudo: ex 1 and bx 2 first" grep -q -F \
  'state-qualifier="mt-suggestion"><ex id="1"/><bx id="2"/>[' \
  "$tmp/pseudo.xlf"

expect_exit 0 "fixture: extract" "$x" extract "$fx" -o "$tmp/seg.tsv" -q
expect_exit 0 "fixture: merge of the extracted text" "$x" merge "$fx" \
  --translations "$tmp/seg.tsv" -o "$tmp/merged.xlf" -q
check "fixture: merge = translate --mt identity" \
  cmp -s "$tmp/merged.xlf" "$tmp/id.xlf"

# --- Twelve EUR-Lex-like documents -------------------------------------------

if ! have_data markup-tags/dev-eurlex.en; then
  :
else
  mkdir "$tmp/docs"
  awk -v DOCS=12 -v EVERY=6 -v DIR="$tmp/docs" \
    -f "$(dirname "$0")/eurlex_docs.awk" \
    "$XMT_TEST_DATA/markup-tags/dev-eurlex.en"
  isolated=0
  bad=0
  for f in "$tmp"/docs/doc-*.xlf; do
    "$x" check --json "$f" >"$tmp/check.json" 2>"$tmp/err" || bad=1
    isolated=$((isolated + $(json_num "$tmp/check.json" isolated_codes)))
    grep -q '"errors":0,' "$tmp/check.json" || bad=1
  done
  check "eurlex: 12 documents check without errors" [ "$bad" -eq 0 ]
  # Every bx and ex of the dev set's English lines is lone on its line.
  want=$(grep -o '<[be]x ' "$XMT_TEST_DATA/markup-tags/dev-eurlex.en" | wc -l)
  check "eurlex: $isolated isolated codes, all $want of the set" \
    [ "$isolated" -eq "$want" ]

  if ! "$x" translate "$fx" -o "$tmp/ap.xlf" --mt apertium:eng-spa -q \
    2>"$tmp/err"; then
    echo "# apertium:eng-spa not available: the translations skipped"
    sed -n '1,3s/^/    stderr: /p' "$tmp/err"
  else
    complete "fixture: apertium" "$tmp/ap.xlf"
    expect_exit 0 "eurlex: batch with apertium" "$x" batch \
      "$tmp"/docs/doc-*.xlf -o "$tmp/es" --mt apertium:eng-spa
    for f in "$tmp"/es/doc-*.xlf; do
      complete "eurlex: batch: ${f##*/}" "$f"
    done
    n=$(ls "$tmp"/es/doc-*.xlf | wc -l)
    check "eurlex: batch wrote 12 documents ($n)" [ "$n" -eq 12 ]

    doc=$tmp/docs/doc-01.xlf
    expect_exit 0 "eurlex: translate with apertium" "$x" translate "$doc" \
      -o "$tmp/t01.xlf" --mt apertium:eng-spa -q
    check "eurlex: translate = batch" cmp -s "$tmp/t01.xlf" "$tmp/es/doc-01.xlf"

    # The offline way: extract, Apertium on the text alone, merge.
    expect_exit 0 "eurlex: extract" "$x" extract "$doc" -o "$tmp/e.tsv" -q
    cut -f1 "$tmp/e.tsv" >"$tmp/e.ids"
    cut -f2 "$tmp/e.tsv" | apertium -u eng-spa >"$tmp/e.es"
    paste "$tmp/e.ids" "$tmp/e.es" >"$tmp/e-es.tsv"
    lines=$(wc -l <"$tmp/e-es.tsv")
    check "eurlex: apertium answered every line ($lines)" \
      [ "$lines" -eq "$(wc -l <"$tmp/e.tsv")" ]
    expect_exit 0 "eurlex: merge" "$x" merge "$doc" \
      --translations "$tmp/e-es.tsv" -o "$tmp/m01.xlf" -q
    complete "eurlex: extract/merge" "$tmp/m01.xlf"
  fi
fi

finish
