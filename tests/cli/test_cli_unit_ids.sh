#!/bin/sh
# test_cli_unit_ids.sh: segment ids as documents carry them. Two <file>
# elements that both number their units from "1" (as Okapi writes one
# <file> per input), ids of over 300 bytes, an id repeated inside one <file>
# and an id that looks like a qualified one: extract names every segment
# once, merge of that very output puts each translation in its own unit,
# and check tells a repeat inside one <file> (line and column), not one
# across files.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup unit-ids
x=$XLIFFMT

long=$(printf 'section/%.0s' $(seq 1 40))  # 320 bytes
cat >"$tmp/doc.xlf" <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a.html" source-language="en" target-language="es" datatype="html">
<body>
<trans-unit id="1"><source>The cat sleeps.</source></trans-unit>
<trans-unit id="${long}title"><source>A long id.</source></trans-unit>
<trans-unit id="${long}tail"><source>Another long id.</source></trans-unit>
  <trans-unit id="1"><source>The cat eats.</source></trans-unit>
</body>
</file>
<file original="b.html" source-language="en" target-language="es" datatype="html">
<body>
<trans-unit id="1"><source>The dog barks. It runs.</source></trans-unit>
<trans-unit id="1@2"><source>The dog sleeps.</source></trans-unit>
<trans-unit id="${long}title"><source>A long id again.</source></trans-unit>
</body>
</file>
</xliff>
EOD

# The first unit to use an id keeps it; a later one is qualified by its
# <file> number, then by a count.
cat >"$tmp/want.tsv" <<EOD
1#0	The cat sleeps.
${long}title#0	A long id.
${long}tail#0	Another long id.
1@1#0	The cat eats.
1@2#0	The dog barks.
1@2#1	It runs.
1@2@2#0	The dog sleeps.
${long}title@2#0	A long id again.
EOD

expect_exit 0 "extract" "$x" extract "$tmp/doc.xlf" -o "$tmp/seg.tsv" -q
sed -i 1d "$tmp/seg.tsv" # the header aside
check "extract: every segment named once, ids whole" cmp -s "$tmp/seg.tsv" "$tmp/want.tsv"
dups=$(cut -f1 "$tmp/seg.tsv" | sort | uniq -d | wc -l)
check "extract: no id twice" [ "$dups" -eq 0 ]

# Each translation is the source in brackets: a segment placed in another
# unit would show it.
sed 's/\t\(.*\)$/\t[\1]/' "$tmp/seg.tsv" >"$tmp/tr.tsv"
expect_exit 0 "merge" "$x" merge "$tmp/doc.xlf" --translations "$tmp/tr.tsv" \
  -o "$tmp/merged.xlf" -q
sed -n 's|.*<source>\(.*\)</source><target[^>]*>\(.*\)</target>.*|\1 = \2|p' \
  "$tmp/merged.xlf" >"$tmp/pairs"
cat >"$tmp/want.pairs" <<'EOD'
The cat sleeps. = [The cat sleeps.]
A long id. = [A long id.]
Another long id. = [Another long id.]
The cat eats. = [The cat eats.]
The dog barks. It runs. = [The dog barks.] [It runs.]
The dog sleeps. = [The dog sleeps.]
A long id again. = [A long id again.]
EOD
check "merge: every unit gets its own translation" cmp -s "$tmp/pairs" "$tmp/want.pairs"

expect_exit 0 "extract --format jsonl" "$x" extract "$tmp/doc.xlf" \
  --format jsonl -o "$tmp/seg.jsonl" -q
sed 's/"text":"\([^"]*\)"/"text":"[\1]"/' "$tmp/seg.jsonl" >"$tmp/tr.jsonl"
expect_exit 0 "merge jsonl" "$x" merge "$tmp/doc.xlf" \
  --translations "$tmp/tr.jsonl" -o "$tmp/merged2.xlf" -q
check "merge jsonl: the same document" cmp -s "$tmp/merged.xlf" "$tmp/merged2.xlf"

# A missing translation is named by its whole id.
grep -v "^${long}title@2#0" "$tmp/tr.tsv" >"$tmp/short.tsv"
expect_exit 3 "merge without one translation" "$x" merge "$tmp/doc.xlf" \
  --translations "$tmp/short.tsv" -o "$tmp/partial.xlf" -q
check "merge: the missing segment named whole" \
  grep -q -F "${long}title@2#0" "$tmp/err"

expect_exit 0 "translate --mt pseudo" "$x" translate "$tmp/doc.xlf" \
  -o "$tmp/pseudo.xlf" --mt pseudo -q
n=$(grep -c '<target' "$tmp/pseudo.xlf")
check "translate: 7 targets (got $n)" [ "$n" -eq 7 ]

# check: repeats across <file> elements are fine; inside one they are an
# error at the second unit's start tag.
expect_exit 1 "check" "$x" check --json "$tmp/doc.xlf"
check "check: one error" grep -q '"errors":1,' "$tmp/out"
check "check: the repeat inside <file> at 8:3" grep -q -F \
  '{"severity":"error","line":8,"column":3,"unit":"1","message":"trans-unit id \"1\" is used more than once in <file> (first at line 5)"}' \
  "$tmp/out"
sed '8d' "$tmp/doc.xlf" >"$tmp/clean.xlf"
expect_exit 0 "check: ids repeated only across <file>s" "$x" check "$tmp/clean.xlf"
check "check: 0 errors" grep -q -E '^ *problems +0 errors, 0 warnings$' "$tmp/out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
