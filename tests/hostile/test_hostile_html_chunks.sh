#!/bin/sh
# test_hostile_html_chunks.sh: a page is read in chunks, its bytes
# dropped once written: memory is bounded by the pieces in flight, not by
# the page. 40,000 blocks, each followed by a 1 KB comment (a 44 MB page
# that lexes fast), translated with identity under 80 MB of address
# space: the page read whole took 59 MB resident and more than 120 MB of
# address space; read 64 KB at a time, 16 MB resident and less than 60.
# The limit is on address space: one malloc arena (MALLOC_ARENA_MAX=1;
# glibc reserves 64 MB of it a thread otherwise) keeps it near the
# resident size. Then a bad byte far into a UTF-8 page read so: the same
# error as when the page was read whole, placed in the page.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-html-chunks
x=$XLIFFMT

page() { # BLOCKS LANG
  awk -v blocks="$1" -v lang="$2" 'BEGIN {
    c = "<!-- "
    for (k = 0; k < 20; k++)
      c = c "a comment line that no one translates, kept as it is "
    c = c "-->"
    print "<!DOCTYPE html>"
    printf "<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>Many blocks</title></head>\n", lang
    print "<body><div id=\"main\">"
    for (b = 1; b <= blocks; b++)
      printf "<p>Block %d has <b>bold</b> text.</p>%s\n", b, c
    print "</div></body></html>"
  }'
}
page 40000 en >"$tmp/page.html"
page 40000 fr >"$tmp/want.html"

within "a 44 MB page: translated in bounded memory" 0 120 80 \
  env MALLOC_ARENA_MAX=1 "$x" translate "$tmp/page.html" \
  -o "$tmp/out.html" -s en -t fr --mt identity --quiet
check "a 44 MB page: written byte for byte, its lang rewritten" \
  cmp -s "$tmp/out.html" "$tmp/want.html"

# 300 blocks (330 KB), then two bytes of Latin-1 in the last block's text
{ page 300 en; printf '<p>Caf\351 cr\350me</p>\n'; } >"$tmp/bad.html"
within "a bad byte 330 KB into a UTF-8 page" 1 60 80 \
  "$x" translate "$tmp/bad.html" -o "$tmp/bad-out.html" -s en -t fr \
  --mt identity --quiet
said "a bad byte 330 KB into a UTF-8 page" "xliffmt: $tmp/bad.html:305:7: byte 0xE9 is not UTF-8, the page's encoding (2 such bytes; --encoding-errors=replace reads them as U+FFFD)"
check "a bad byte 330 KB into a UTF-8 page: no page written" \
  test ! -e "$tmp/bad-out.html"
finish
