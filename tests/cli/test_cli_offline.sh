#!/bin/sh
# test_cli_offline.sh: the offline workflow. For every Okapi XLIFF file and
# the sample, extract the segments (TSV and JSON lines), merge them back
# untouched, and compare with translate --mt identity: the documents must be
# equal byte for byte. Then the errors: a missing translation (exit 3, the
# segment named), a malformed translations file (exit 1, file:line, no
# output), and a partial translate report.
# Env: XLIFFMT, XMT_TEST_DATA, XMT_SAMPLES. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data okapi/xliff
okapi=$XMT_TEST_DATA/okapi/xliff
cli_setup offline
x=$XLIFFMT

for f in "$okapi"/*.xlf "$okapi"/*.xliff "$XMT_SAMPLES"/sample.xlf; do
  [ -f "$f" ] || continue
  name=${f##*/}
  case $name in invalid_xml_entity.xlf) continue ;; esac
  # -t only for documents that lack a target-language.
  tl=
  grep -q 'target-language=' "$f" || tl="-t xx"
  for fmt in tsv jsonl; do
    # $tl is empty or two words: left unquoted on purpose.
    # shellcheck disable=SC2086
    rm -f "$tmp/id.xlf" "$tmp/seg" "$tmp/merged.xlf"
    exits_with 0 "$name: translate" \
      "$x" translate "$f" -o "$tmp/id.xlf" --mt identity $tl -q || continue
    exits_with 0 "$name: extract $fmt" \
      "$x" extract "$f" -o "$tmp/seg" --format "$fmt" -q || continue
    exits_with 0 "$name: merge $fmt" \
      "$x" merge "$f" --translations "$tmp/seg" -o "$tmp/merged.xlf" $tl \
      -q || continue
    if cmp -s "$tmp/id.xlf" "$tmp/merged.xlf"; then
      pass "$name: extract + merge ($fmt) == translate --mt identity"
    else
      fail "$name: extract + merge ($fmt) differs from translate"
      diff "$tmp/id.xlf" "$tmp/merged.xlf" | sed -n '1,6s/^/    /p'
    fi
  done
done

# A translation missing: exit 3, the segment named, the output complete.
cat >"$tmp/two.xlf" <<'XLF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="t" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="a"><source>One <g id="1">bold</g> word.</source></trans-unit>
<trans-unit id="b"><source>Two.</source></trans-unit>
</body></file></xliff>
XLF
printf 'a\tUna palabra negrita.\n' >"$tmp/tr.tsv"
printf '0-0 1-2 2-1 3-3\n' >"$tmp/aln"
printf 'One bold word .\n' >"$tmp/stok"
printf 'Una palabra negrita .\n' >"$tmp/ttok"
if expect_exit 3 "merge with a translation missing" \
  "$x" merge "$tmp/two.xlf" --translations "$tmp/tr.tsv" \
  --alignments "$tmp/aln" --source-tokens "$tmp/stok" \
  --target-tokens "$tmp/ttok" --no-segment -o "$tmp/out.xlf" \
  --report "$tmp/report.json"; then
  check "merge: the missing segment is named" \
    grep -q -F "segment b not translated: no translation in the file" \
    "$tmp/err"
  check "merge: the tags follow the given alignment" grep -q -F \
    '<target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">Una palabra <g id="1">negrita</g>.</target>' \
    "$tmp/out.xlf"
  check "merge: unit b keeps no target" \
    sh -c "! grep -q 'Two.</source><target' '$tmp/out.xlf'"
  check "merge: the report says partial" grep -q -F \
    '"status":"partial"' "$tmp/report.json"
  check "merge: the report lists the segment" grep -q -F \
    '"failures":[{"segment":"b","line":5,"message":"no translation in the file"}]' \
    "$tmp/report.json"
fi

# A malformed translations file: exit 1, file and line, no output.
printf 'a\tfine\nb no tab here\n' >"$tmp/bad.tsv"
rm -f "$tmp/out.xlf"
if expect_exit 1 "merge with a malformed translations file" \
  "$x" merge "$tmp/two.xlf" --translations "$tmp/bad.tsv" -o "$tmp/out.xlf"; then
  check "merge: bad file named with its line" \
    grep -q -F "bad.tsv:2: expected ID<TAB>TRANSLATION" "$tmp/err"
  check "merge: no output written" test ! -e "$tmp/out.xlf"
fi
printf '0-0\n1-1\n' >"$tmp/aln2"
if expect_exit 1 "merge with more alignments than translations" \
  "$x" merge "$tmp/two.xlf" --translations "$tmp/tr.tsv" \
  --alignments "$tmp/aln2" -o "$tmp/out.xlf"; then
  check "merge: the alignments file named with its line" \
    grep -q -F "aln2:2: more lines than translations (1)" "$tmp/err"
fi
expect_exit 1 "merge without --translations" "$x" merge "$tmp/two.xlf"
expect_exit 1 "extract of a missing file" "$x" extract "$tmp/nope.xlf"

finish
