#!/bin/sh
# test_hostile_html_memory.sh: a page is translated in memory bounded by
# its pieces in flight, not by its units. 120,000 blocks (paragraphs with
# inline codes, links with a title, list items: a 10 MB page) translated
# with identity: the page's units, codes and targets all held until the
# end took 208 MB of resident memory (more than 250 MB of address
# space); the page written a piece at a time, as the targets of each
# piece come, 59 MB.
# The limit is on address space: one malloc arena (MALLOC_ARENA_MAX=1;
# glibc reserves 64 MB of it a thread otherwise) keeps it near the
# resident size.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-html-memory
x=$XLIFFMT

blocks=120000
awk -v blocks="$blocks" 'BEGIN {
  print "<!DOCTYPE html>"
  print "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Many blocks</title></head>"
  print "<body><div id=\"main\">"
  for (b = 1; b <= blocks; b++) {
    if (b % 3 == 0)
      printf "<ul><li>Item %d of the <i>list</i> &amp; more</li></ul>\n", b
    else
      printf "<p>Block %d has <b>bold</b> text and <a href=\"/p/%d\" title=\"page %d\">a link</a>.</p>\n", b, b, b
  }
  print "</div></body></html>"
}' >"$tmp/page.html"
sed 's/<html lang="en">/<html lang="fr">/' "$tmp/page.html" >"$tmp/want.html"

within "120,000 blocks: translated in bounded memory" 0 120 150 \
  env MALLOC_ARENA_MAX=1 "$x" translate "$tmp/page.html" \
  -o "$tmp/out.html" -s en -t fr --mt identity --quiet
check "120,000 blocks: the page written byte for byte, its lang rewritten" \
  cmp -s "$tmp/out.html" "$tmp/want.html"
finish
