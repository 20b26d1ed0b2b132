#!/bin/sh
# test_hostile_formats.sh: a document's first element decides its
# format, however long the prolog before it (comments, processing
# instructions holding '>', a doctype whose internal subset holds '>'
# and ']', a BOM, UTF-16): an XLIFF 1.2 document named .html whose first
# kilobytes are a comment is translated as XLIFF (targets added, sources
# kept), an XLIFF 2 one with a doctype subset or a long comment as XLIFF
# 2; standard input the same, however many bytes were read to tell; a
# prolog of more than 1 MB is refused with a message, no output; so is a
# binary file named .html (a NUL byte).
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-formats
x=$XLIFFMT

# comment BYTES: a comment of about BYTES bytes, with '>' and '--' free
# text that looks like markup ("<xliff>", "<html>").
comment() {
  awk -v n="$1" 'BEGIN {
    printf "<!-- "
    for (i = 0; i < n / 32; i++) printf "<html> <xliff> a > b ] c ?> x \n"
    printf " -->\n"
  }'
}

body12='<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="1"><source>Hello <g id="1">world</g>.</source></trans-unit>
<trans-unit id="2"><source>Good night.</source></trans-unit>
</body></file></xliff>'
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  comment 3000
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo "$body12"
} >"$tmp/doc.html"

# xliff12_done DESC OUT: OUT has both sources as they were and a target
# for each (translated as XLIFF, not as a page).
xliff12_done() {
  if [ "$(grep -c '<source>Hello <g id="1">world</g>.</source><target' "$2")" -eq 1 ] &&
    [ "$(grep -c '<source>Good night.</source><target' "$2")" -eq 1 ] &&
    [ "$(grep -o '<target' "$2" | wc -l)" -eq 2 ]; then
    pass "$1: translated as XLIFF (two targets, sources kept)"
  else
    fail "$1: not translated as XLIFF: $(tr '\n' '|' <"$2" | tail -c 300)"
  fi
}

within "XLIFF 1.2 named .html, 3 KB comment first" 0 10 400 \
  "$x" translate "$tmp/doc.html" -o "$tmp/out.html" -s en -t es --mt pseudo -q
xliff12_done "XLIFF 1.2 named .html" "$tmp/out.html"
within "check says XLIFF" 0 10 400 "$x" check "$tmp/doc.html"
check "check counts two units" grep -q "^  units *2 (2 translatable" "$tmp/out"

# The same through standard input: 3 KB, then 200 KB of prolog peeked
# and replayed before the rest of the stream.
within "XLIFF 1.2 on standard input, 3 KB comment" 0 10 400 \
  sh -c "\"\$1\" translate - -s en -t es --mt pseudo -q <\"\$2\"" \
  sh "$x" "$tmp/doc.html"
check "standard input: the same output as the file" \
  cmp -s "$tmp/out" "$tmp/out.html"
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  comment 200000
  echo '<?pi a > b ?>'
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo "$body12"
} >"$tmp/long.html"
within "XLIFF 1.2 on standard input, 200 KB comment and a PI" 0 10 400 \
  sh -c "cat \"\$2\" | \"\$1\" translate - -s en -t es --mt pseudo -q" \
  sh "$x" "$tmp/long.html"
xliff12_done "standard input, 200 KB prolog" "$tmp/out"
# the output is the input with two targets added: remove them to compare
sed 's|<target[^>]*>.*</target>||' "$tmp/out" >"$tmp/back"
check "standard input: output is the input plus targets" \
  cmp -s "$tmp/long.html" "$tmp/back"

# UTF-16 with a BOM, a comment of 3 KB, named .html.
{
  echo '<?xml version="1.0" encoding="UTF-16"?>'
  comment 3000
  echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
  echo "$body12"
} | sed 's/encoding="UTF-8"/encoding="UTF-16"/' |
  { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE; } >"$tmp/u16.html"
within "UTF-16 XLIFF 1.2 named .html" 0 10 400 "$x" check "$tmp/u16.html"
check "UTF-16: read as XLIFF (two units)" grep -q "^  units *2 (2 translatable" "$tmp/out"

# XLIFF 2: a doctype whose internal subset holds '>' and ']' in an
# entity value, a comment and a PI; then a 2 KB comment.
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo '<!DOCTYPE xliff ['
  echo '  <!ENTITY e "a > b ] c">'
  echo '  <!-- a comment with > and ] -->'
  echo '  <?pi x > y?>'
  echo ']>'
  comment 2000
  echo '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">'
  echo '<file id="f"><unit id="u1"><segment><source>Hello world.</source></segment></unit></file></xliff>'
} >"$tmp/x2.xlf"
within "XLIFF 2 with a doctype subset and a 2 KB comment" 0 10 400 \
  "$x" translate "$tmp/x2.xlf" -o "$tmp/x2.out.xlf" -s en -t es --mt pseudo -q
check "XLIFF 2: a target written" \
  grep -q '<source>Hello world.</source><target>' "$tmp/x2.out.xlf"
within "XLIFF 2 on standard input" 0 10 400 \
  sh -c "cat \"\$2\" | \"\$1\" translate - -s en -t es --mt pseudo -q" \
  sh "$x" "$tmp/x2.xlf"
check "XLIFF 2 on standard input: the same output" \
  cmp -s "$tmp/out" "$tmp/x2.out.xlf"

# An HTML page after a 3 KB comment, named .xlf, is still a page.
{
  comment 3000
  echo '<html><body><p>Hello world.</p></body></html>'
} >"$tmp/page.xlf"
within "HTML after a 3 KB comment, named .xlf" 0 10 400 \
  "$x" translate "$tmp/page.xlf" -o "$tmp/page.out" -s en -t es --mt pseudo -q
check "HTML: translated in place" grep -q '<p>\[wórld. Hélló ~~~~\]</p>' \
  "$tmp/page.out"

# More than 1 MB of prolog: refused, named, nothing written.
{
  echo '<?xml version="1.0"?>'
  comment 1100000
  echo '<xliff version="1.2"/>'
} >"$tmp/big.xlf"
msg="xliffmt: $tmp/big.xlf: no element in the first 1024 KB: a prolog (comments, processing instructions, doctype) longer than that is not read"
within "1 MB of prolog: refused" 1 10 400 \
  "$x" translate "$tmp/big.xlf" -o "$tmp/big.out" -s en -t es --mt pseudo
check "1 MB of prolog: the message" test "$(cat "$tmp/err")" = "$msg"
check "1 MB of prolog: no output" test ! -e "$tmp/big.out"
within "1 MB of prolog on standard input: refused" 1 10 400 \
  sh -c "\"\$1\" check - <\"\$2\"" sh "$x" "$tmp/big.xlf"
check "standard input: the message, once" test "$(cat "$tmp/err")" = \
  "xliffmt: -: no element in the first 1024 KB: a prolog (comments, processing instructions, doctype) longer than that is not read"

# A binary file named .html (an image): a NUL byte says it is no page.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000' >"$tmp/image.html"
within "an image named .html: refused" 1 10 400 \
  "$x" translate "$tmp/image.html" -o "$tmp/image.out" -s en -t es --mt pseudo
check "an image named .html: the message" test "$(cat "$tmp/err")" = \
  "xliffmt: $tmp/image.html:3:1: a NUL byte: not an HTML page (a binary file?)"
check "an image named .html: no output" test ! -e "$tmp/image.out"
printf '<html><body><p>Caf\000e.</p></body></html>\n' >"$tmp/nul.html"
within "a NUL byte in a page: refused" 1 10 400 \
  "$x" translate "$tmp/nul.html" -o "$tmp/nul.out" -s en -t es --mt pseudo
check "a NUL byte in a page: the message" test "$(cat "$tmp/err")" = \
  "xliffmt: $tmp/nul.html:1:19: a NUL byte: not an HTML page (a binary file?)"

finish
