#!/bin/sh
# test_hostile_aligner_memory.sh: the self-trained aligner's memory does
# not grow with the document's vocabulary. 30,000 units of numbers never
# seen before (8 windows, 150,000 new words a side) translated by an
# engine that gives no alignment: the model carried from one window to
# the next keeps its most linked words and entries (the whole document's
# vocabulary and every pair of words that met took 270 MB and growing;
# now 100 MB).
# The limit is on address space: one malloc arena (MALLOC_ARENA_MAX=1;
# glibc reserves 64 MB of it a thread otherwise) keeps it near the
# resident size. IBM2, as the Bayesian model carries its model the same
# way and takes longer.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-aligner-memory
x=$XLIFFMT

units=30000
awk -v units="$units" 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  print "<file original=\"n.txt\" source-language=\"en\" target-language=\"fr\" datatype=\"plaintext\"><body>"
  n = 1000000
  for (u = 1; u <= units; u++) {
    s = "Item"
    for (k = 0; k < 5; k++) s = s " " n++
    printf "<trans-unit id=\"u%d\"><source>%s <x id=\"1\"/>end.</source></trans-unit>\n", u, s
  }
  print "</body></file></xliff>"
}' >"$tmp/numbers.xlf"

within "30,000 units of new numbers: translated in bounded memory" 0 180 280 \
  env MALLOC_ARENA_MAX=1 "$x" translate "$tmp/numbers.xlf" \
  -o "$tmp/out.xlf" --mt pseudo --mt-option alignment=no --model ibm2 --quiet
check "30,000 units of new numbers: every unit has its target" \
  test "$(grep -c '<target' "$tmp/out.xlf" 2>/dev/null)" = "$units"
# the code stays before the word it was before (the pseudo engine swaps
# words two by two, accents them and pads the answer)
check "30,000 units of new numbers: the last unit's code placed" \
  grep -qF '<target xml:lang="fr" state="needs-review-translation" state-qualifier="mt-suggestion">[1149995 Ítém 1149997 1149996 1149999 1149998 <x id="1"/>éñd. ~~~~~~~~~~~~~~~]</target></trans-unit>' "$tmp/out.xlf"

finish
