#!/bin/sh
# test_hostile_keys_memory.sh: the run's unit keys (every id, kept to
# tell each unit's key from all others exactly) take memory that grows
# with the document, and so must be small. 300,000 units whose ids share
# a 200-byte prefix (a path, as some tools write them; 77 MB) are
# translated and extracted in 120 MB of address space: the ids,
# front-coded, take about 5 MB and the run under 90 MB, where kept whole
# they took 60 MB (in a doubling buffer of 67 MB) and the run about
# 150 MB. Each id is still its own key, and an id seen again is renamed.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-keys-memory
x=$XLIFFMT
n=300000
prefix=$(printf '%0200d' 0 | tr 0 p)

# The units, then a second <file> with the first id again.
awk -v p="$prefix" -v n="$n" 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  print "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
  for (i = 0; i < n; i++)
    printf "<trans-unit id=\"%s%d\"><source>a</source></trans-unit>\n", p, i
  print "</body></file>"
  print "<file original=\"b\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
  printf "<trans-unit id=\"%s0\"><source>b</source></trans-unit>\n", p
  print "</body></file></xliff>"
}' >"$tmp/in.xlf"

within "translate: 300,000 ids of one long prefix in 120 MB" 0 60 120 \
  "$x" translate "$tmp/in.xlf" -o "$tmp/out.xlf" --mt identity --no-segment -q
got=$(grep -c '<target xml:lang="es"[^>]*>a</target>' "$tmp/out.xlf" 2>/dev/null)
if [ "$got" = "$n" ]; then
  pass "every unit translated"
else
  fail "units translated: ${got:-none}, expected $n"
fi

within "extract: 300,000 ids of one long prefix in 120 MB" 0 60 120 \
  "$x" extract "$tmp/in.xlf" -o "$tmp/out.tsv" --no-segment -q
# The header, then a line per unit.
got=$(wc -l <"$tmp/out.tsv" 2>/dev/null)
if [ "${got:-0}" -eq $((n + 2)) ]; then
  pass "every unit extracted"
else
  fail "lines extracted: ${got:-none}, expected $((n + 2))"
fi
# The first id, the last, and the first again in file 2, renamed.
{ sed -n 2p "$tmp/out.tsv"; tail -n 2 "$tmp/out.tsv"; } >"$tmp/got" 2>/dev/null
printf '%s0\ta\n%s%d\ta\n%s0@2\tb\n' "$prefix" "$prefix" $((n - 1)) \
  "$prefix" >"$tmp/expected"
if cmp -s "$tmp/expected" "$tmp/got"; then
  pass "each id its own key, the one seen again renamed"
else
  fail "keys"
  diff "$tmp/expected" "$tmp/got" | cut -c1-80 | sed -n '1,10s/^/    /p'
fi

finish
