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

# The Bayesian model's window holds, for every (token, candidate) cell
# of its pairs, the cell's table entry and its marginals: 600 pairs of
# 130 words took 65 MB more than IBM2's training of the same pairs, 46 MB
# with the entries held as 16-bit places in their rows (and the window's
# arrays mapped on their own, given back when freed). Peak resident sets
# (VmHWM), sampled while the command runs: a lower bound of the true
# peak. Sanitizers hold freed memory back: not measured.
if [ -n "${XMT_SANITIZED:-}" ] || [ ! -r /proc/self/status ]; then
  echo "# Bayesian model's memory not measured (sanitizer build, or no /proc)"
  finish
  exit 0
fi
awk 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
  print "<file original=\"w.txt\" source-language=\"en\" target-language=\"fr\" datatype=\"plaintext\"><body>"
  x = 12345
  for (u = 1; u <= 600; u++) {
    s = "Item"
    for (k = 1; k < 130; k++) {
      x = (x * 1103515245 + 12345) % 2147483648
      s = s " w" int(x / 65536) % 400
    }
    printf "<trans-unit id=\"u%d\"><source>%s <x id=\"1\"/>end.</source></trans-unit>\n", u, s
  }
  print "</body></file></xliff>"
}' >"$tmp/long.xlf"
# peak_of MODEL: translates long.xlf (no padding: pairs of 130 words are
# not cut into pieces); sets $status and $peak (KB).
peak_of() {
  peak_kb "$x" translate "$tmp/long.xlf" -o "$tmp/long-$1.xlf" --mt pseudo \
    --mt-option alignment=no --mt-option expand=0 --model "$1" --quiet
}
peak_of ibm2
ibm2=$peak
check "600 pairs of 130 words, IBM2: exit 0 (exit $status)" test "$status" -eq 0
peak_of bayes
check "600 pairs of 130 words, Bayesian model: exit 0 (exit $status)" \
  test "$status" -eq 0
check "600 pairs of 130 words: the Bayesian model's peak $((peak / 1024)) MB is under IBM2's $((ibm2 / 1024)) MB + 56 MB" \
  test "$peak" -lt $((ibm2 + 56 * 1024))
check "600 pairs of 130 words, Bayesian model: every unit has its target" \
  test "$(grep -c '<target' "$tmp/long-bayes.xlf" 2>/dev/null)" = 600
finish
