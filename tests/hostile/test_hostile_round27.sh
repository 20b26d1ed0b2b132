#!/bin/sh
# test_hostile_round27.sh: exit 0 means the output is right: a
# translation never lands under another document's unit.
#   - merge --translations of a TSV extract wrote of another document
#     (ids u1, u2 in both), of the document before it changed, or for
#     another target language (-t fr), or JSON lines for another target
#     language: refused, exit 1, naming the file's header line (each
#     merged another document's text under the unit, exit 0). extract
#     writes that header first: "#xliffmt-segments" and the document's
#     name, languages, segment count and digest (TSV), an object
#     {"xliffmt":"segments",...} (JSON lines). A file without it
#     (hand-made, older) merges as before, to the same bytes.
#   - translate -o /dev/full --report R: the output not written, R says
#     "status":"failed" with "translated_units":0 and every unit
#     "skipped" (it said 2 translated units of a document that does not
#     exist). So for batch's totals: a document of 1,500 units into a
#     64 KB disk, failed, counts none translated (it counted those
#     translated before the disk was full).
#   - report --findings of a document of 8 words, one of them in a
#     translate="no" unit: the summary says translatable-words="7" (it
#     said words="7", the segments' words adding up to 8).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round27
small_disks_setup
x=$XLIFFMT

doc "$tmp/a.xlf" "Hello world." "Good night."
doc "$tmp/b.xlf" "The cat sleeps." "Good night."
doc "$tmp/a2.xlf" "Hello there." "Good night."
sed 's/ target-language="es"//' "$tmp/a.xlf" >"$tmp/n.xlf"

# --- extract's header, and the translations made of the lines.
within "extract a.xlf to TSV" 0 30 500 "$x" extract "$tmp/a.xlf" \
  -o "$tmp/a.tsv" -q
check "extract a.xlf to TSV: the header first" grep -qx \
  "#xliffmt-segments document=a.xlf source=en target=es segments=2 digest=[0-9a-f]\{16\}" \
  "$tmp/a.tsv"
check "extract a.xlf to TSV: then the lines" test "$(sed 1d "$tmp/a.tsv")" \
  = "u1#0	Hello world.
u2#0	Good night."
# The second field of each line translated, the header's too (empty).
awk -F '\t' '{ print $1 "\tES " $2 }' "$tmp/a.tsv" >"$tmp/a.es.tsv"
within "extract a.xlf to JSON lines" 0 30 500 "$x" extract "$tmp/a.xlf" \
  --format jsonl -o "$tmp/a.jsonl" -q
check "extract a.xlf to JSON lines: the header first" grep -qx \
  '{"xliffmt":"segments","document":"a.xlf","source":"en","target":"es","segments":"2","digest":"[0-9a-f]\{16\}"}' \
  "$tmp/a.jsonl"

# --- The translations merged where they belong, with and without header.
within "merge a.xlf, its own TSV" 0 30 500 "$x" merge "$tmp/a.xlf" \
  --translations "$tmp/a.es.tsv" -o "$tmp/a.es.xlf" -q
check "merge a.xlf, its own TSV: translated" grep -qF '>ES Hello world.</target>' \
  "$tmp/a.es.xlf"
sed 1d "$tmp/a.es.tsv" >"$tmp/bare.tsv"
within "merge a.xlf, a TSV without header" 0 30 500 "$x" merge "$tmp/a.xlf" \
  --translations "$tmp/bare.tsv" -o "$tmp/bare.es.xlf" -q
unchanged "merge a.xlf, a TSV without header" "$tmp/bare.es.xlf" \
  "$tmp/a.es.xlf"

# refused DESC DOC FILE MESSAGE [OPTION...]: merge of DOC with FILE
# refused, exit 1, MESSAGE said, no output.
refused() {
  r_desc=$1 r_doc=$2 r_file=$3 r_msg=$4
  shift 4
  within "merge, $r_desc" 1 30 500 "$x" merge "$tmp/$r_doc" \
    --translations "$tmp/$r_file" -o "$tmp/refused.xlf" -q "$@"
  said "merge, $r_desc" "xliffmt: $tmp/$r_file:1: $r_msg"
  check "merge, $r_desc: no output" test ! -e "$tmp/refused.xlf"
}
refused "another document's TSV" b.xlf a.es.tsv \
  "the translations were extracted from a.xlf (2 segments), not from the segments of $tmp/b.xlf (2): another document, or the document changed since"
refused "a TSV of the document before it changed" a2.xlf a.es.tsv \
  "the translations were extracted from a.xlf (2 segments), not from the segments of $tmp/a2.xlf (2): another document, or the document changed since"
# A document that says no target language: extract -t es, merge -t fr.
"$x" extract "$tmp/n.xlf" -t es -o "$tmp/n.tsv" -q
"$x" extract "$tmp/n.xlf" -t es --format jsonl -o "$tmp/n.jsonl" -q
refused "a TSV for Spanish, merged into French" n.xlf n.tsv \
  "the translations are into es, $tmp/n.xlf is merged into fr" -t fr
refused "JSON lines for Spanish, merged into French" n.xlf n.jsonl \
  "the translations are into es, $tmp/n.xlf is merged into fr" -t fr
within "merge n.xlf -t es, its TSV" 0 30 500 "$x" merge "$tmp/n.xlf" \
  --translations "$tmp/n.tsv" -t es -o "$tmp/n.es.xlf" -q

# --- A report of a document not written.
within "translate -o /dev/full --report" 2 30 500 "$x" translate \
  "$tmp/a.xlf" --mt pseudo -o /dev/full --report "$tmp/full.json" -q
check "translate -o /dev/full --report: failed, no unit translated" grep -qF \
  '"status":"failed","units":2,"translated_units":0,"skipped_units":2,' \
  "$tmp/full.json"

mkdir "$tmp/bi"
{
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
  printf '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n'
  i=0
  while [ $i -lt 1500 ]; do
    printf '<trans-unit id="u%d"><source>Hello world number %d.</source></trans-unit>\n' $i $i
    i=$((i + 1))
  done
  printf '</body></file></xliff>\n'
} >"$tmp/bi/a.xlf"
if small_disk "$tmp/bo"; then
  within "batch into a full disk --report" 1 60 500 "$x" batch "$tmp/bi" \
    -o "$tmp/bo" --mt pseudo --report "$tmp/batch.json" -q
  check "batch into a full disk: no unit translated in the totals" grep -qF \
    '"failed_documents":1,"interrupted_documents":0,"not_started_documents":0,"units":1500,"translated_units":0,"skipped_units":1500,' \
    "$tmp/batch.json"
else
  echo "SKIP: batch into a full disk (no tmpfs can be mounted)"
fi

# --- The words the findings count.
x12 "$tmp/w.xlf" '<trans-unit id="u1"><source>One two three four five six seven.</source></trans-unit>
<trans-unit id="u2" translate="no"><source>Eight.</source></trans-unit>'
within "report --findings, a translate=\"no\" unit" 0 30 500 "$x" report \
  "$tmp/w.xlf" --findings -o "$tmp/w.findings.xml"
check "report --findings: the translatable words counted, and said so" \
  grep -qF 'translatable-words="7" words="7"' "$tmp/w.findings.xml"
check "report --findings: each segment's words" test \
  "$(grep -o ' words="[0-9]*"' "$tmp/w.findings.xml" | tr '\n' ' ')" \
  = ' words="7"  words="7"  words="1" '

finish
