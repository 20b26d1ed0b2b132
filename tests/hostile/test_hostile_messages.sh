#!/bin/sh
# test_hostile_messages.sh: messages that are safe and true. Control
# characters from outside (an engine's stderr) reach the terminal as
# \xHH, never as commands; a file name that is not UTF-8 and an id of
# 320 bytes go into --report whole and the JSON stays valid; a command
# whose standard output cannot be written exits 2. An HTML page that says
# UTF-8 and holds Latin-1 bytes, and a line-oriented input that is not
# UTF-8, are errors at their first such byte; a read-only cache is called
# so; an output directory that cannot be written exits 2, as documented.
# A failed segment of an HTML page is named at the page's line; one of a
# Word package at none.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-messages
x=$XLIFFMT

long=$(printf 'part/%.0s' $(seq 1 64))
cat >"$tmp/doc.xlf" <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="${long}x"><source>The cat sleeps.</source></trans-unit>
</body></file></xliff>
EOD
# An engine that says something nasty on stderr and dies.
printf '#!/bin/sh\nprintf "\\033[31mred\\033]0;title\\007 \\302\\233 gone\\n" >&2\nexit 3\n' \
  >"$tmp/nasty.sh"
chmod +x "$tmp/nasty.sh"
within "an engine's escapes" 3 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/out.xlf" --mt "cmd:$tmp/nasty.sh"
check "no escape character reaches the terminal" \
  sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$tmp/err'"
check "no C1 control either" \
  sh -c "! LC_ALL=C grep -q \"\$(printf '\\302\\233')\" '$tmp/err'"
check "shown as \\xHH" grep -q -F '\x1B[31mred\x1B]0;title\x07 \x9B gone' \
  "$tmp/err"

# A file name in Latin-1 and a long id in the JSON report.
name=$(printf 'caf\351.xlf')
cp "$tmp/doc.xlf" "$tmp/$name"
printf '#!/bin/sh\nexit 3\n' >"$tmp/dead.sh"
chmod +x "$tmp/dead.sh"
within "a report with a Latin-1 name" 3 20 400 \
  "$x" translate "$tmp/$name" -o "$tmp/out2.xlf" --mt "cmd:$tmp/dead.sh" \
  --report "$tmp/r.json"
if command -v python3 >/dev/null 2>&1; then
  check "the report is valid JSON with the id whole" python3 -c "
import json, sys
r = json.load(open(sys.argv[1], encoding='utf-8'))
assert r['input'].endswith('caf\ufffd.xlf'), r['input']
ids = [f['segment'] for f in r['failures']]
assert ids == [sys.argv[2] + 'x#0'], ids
" "$tmp/r.json" "$long"
fi

# Standard output that cannot be written.
if [ -w /dev/full ]; then
  within "check > /dev/full" 2 20 400 sh -c "'$x' check '$tmp/doc.xlf' >/dev/full"
  check "says so" grep -q "standard output: cannot write" "$tmp/err"
  within "extract > /dev/full" 2 20 400 \
    sh -c "'$x' extract '$tmp/doc.xlf' >/dev/full"
fi
within "check with standard output closed" 2 20 400 \
  sh -c "'$x' check '$tmp/doc.xlf' >&-"

# Options out of range name their limits.
within "--timeout 0" 1 10 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/o.xlf" --mt identity --timeout 0
check "--timeout names its limits" grep -q -F \
  "more than 0 and at most 86400" "$tmp/err"
within "--batch-size 0" 1 10 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/o.xlf" --mt identity --batch-size 0
check "--batch-size names its limits" grep -q -F "from 1 to 1000000" "$tmp/err"

# A page that says UTF-8 and holds Latin-1 bytes: refused at the first,
# nothing written; with --encoding-errors=replace, translated with U+FFFD
# and a warning that counts them.
printf '<html><head><meta charset="utf-8"></head><body><p>Caf\351 <b>bold</b> text.</p>\n<p>Second \351t\351.</p></body></html>\n' \
  >"$tmp/latin1.html"
within "a UTF-8 page with Latin-1 bytes" 1 20 400 \
  "$x" translate "$tmp/latin1.html" -s en -t es -o "$tmp/latin1.es.html" \
  --mt pseudo
check "named at its line and column" grep -q -F \
  "latin1.html:1:54: byte 0xE9 is not UTF-8, the page's encoding (3 such bytes; --encoding-errors=replace reads them as U+FFFD)" \
  "$tmp/err"
check "no output" test ! -e "$tmp/latin1.es.html"
within "extract of it" 1 20 400 \
  "$x" extract "$tmp/latin1.html" -s en -o "$tmp/latin1.xlf"
check "extract names it too" grep -q -F "latin1.html:1:54: byte 0xE9" \
  "$tmp/err"
check "and writes nothing" test ! -e "$tmp/latin1.xlf"
within "--encoding-errors=replace" 0 20 400 \
  "$x" translate "$tmp/latin1.html" -s en -t es -o "$tmp/latin1.es.html" \
  --mt pseudo --encoding-errors=replace --report "$tmp/latin1.json"
check "a warning counts the bytes" grep -q -F \
  "warning: $tmp/latin1.html:1:54: 3 bytes are not UTF-8, read as U+FFFD" \
  "$tmp/err"
check "the translation has U+FFFD where they were" grep -q -F \
  "$(printf '[\357\277\275t\357\277\275. S')" \
  "$tmp/latin1.es.html"
check "the report keeps the warning" grep -q -F \
  '3 bytes are not UTF-8, read as U+FFFD' "$tmp/latin1.json"
within "--encoding-errors=maybe" 1 10 400 \
  "$x" translate "$tmp/latin1.html" -s en -t es -o "$tmp/o.html" \
  --mt identity --encoding-errors=maybe
check "names its values" grep -q -F "takes fail or replace" "$tmp/err"

# Line-oriented inputs: a Latin-1 byte is named, not "malformed XML".
printf 'The <g id="1">caf\351</g> is good.\n' >"$tmp/src.txt"
printf 'El caf\303\251 es bueno.\n' >"$tmp/tgt.txt"
printf '0-0 1-1 2-2 3-3\n' >"$tmp/aln.txt"
within "project with a Latin-1 source" 1 10 400 \
  "$x" project -s "$tmp/src.txt" -t "$tmp/tgt.txt" -a "$tmp/aln.txt"
check "names the byte at its column" grep -q -F \
  "src.txt:1:18: byte 0xE9 is not UTF-8 (line-oriented inputs are UTF-8)" \
  "$tmp/err"
check "not as malformed XML" sh -c "! grep -q 'malformed' '$tmp/err'"

# An output directory that does not exist: exit 2, as xliffmt(1) says of
# output that cannot be written.
within "-o in a missing directory" 2 10 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/no/such/dir/out.xlf" --mt identity
check "names it" grep -q -F "no/such/dir/out.xlf: cannot create output" \
  "$tmp/err"

# A cache xliffmt may only read: called read-only, left as it is. Root
# writes any file, so the run is made as nobody where it can be.
mkdir -p "$tmp/ro"
"$x" translate "$tmp/doc.xlf" -o "$tmp/c.xlf" --mt identity -q \
  --cache "sqlite:$tmp/ro/c.db"
chmod 444 "$tmp/ro/c.db"
chmod 555 "$tmp/ro"
chmod 711 "$tmp"
as_reader=
if [ ! -w "$tmp/ro/c.db" ]; then
  as_reader=" "
elif command -v setpriv >/dev/null 2>&1 &&
  setpriv --reuid=65534 --regid=65534 --clear-groups "$x" --version \
    >/dev/null 2>&1; then
  as_reader="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ -n "$as_reader" ]; then
  within "a read-only cache" 1 20 400 \
    $as_reader "$x" translate "$tmp/doc.xlf" -o - --mt identity \
    --cache "sqlite:$tmp/ro/c.db"
  check "called read-only" grep -q -F \
    "c.db: cache: read-only: the cache is written as well as read" "$tmp/err"
  check "not called damaged or foreign" \
    sh -c "! grep -q 'sound\\|another program' '$tmp/err'"
  check "left where it was" test -f "$tmp/ro/c.db"
else
  echo "SKIP: a read-only cache (no user here for whom the file is read-only)"
fi
chmod 755 "$tmp/ro"

# A failed segment of an HTML page is named at the page's line, not at
# the line of an XLIFF the user never sees; one of a Word package at no
# line (its id names the part).
printf '<html lang="en">\n<body>\n  <p>Hello <b>world</b>.</p>\n<p>Two <i>words</i> here.</p><img alt="A cat" src="c.png"></body></html>\n' \
  >"$tmp/lines.html"
within "a page whose engine dies" 3 20 400 \
  "$x" translate "$tmp/lines.html" -t es -o "$tmp/lines.es.html" \
  --mt "cmd:$tmp/dead.sh"
check "each block at its line in the page" sh -c \
  "grep -o '^xliffmt: [^ ]*: segment [^ ]*' '$tmp/err' |
     sed 's|$tmp/||' | tr '\n' '|' |
     grep -q -x -F 'xliffmt: lines.html:3: segment 1#0|xliffmt: lines.html:4: segment 2#0|xliffmt: lines.html:4: segment 3#0|'"
if have_data office/Addcomments.docx; then
  within "a Word document whose engine dies" 3 20 400 \
    "$x" translate "$XMT_TEST_DATA/office/Addcomments.docx" -s en -t es \
    -o "$tmp/c.docx" --mt "cmd:$tmp/dead.sh"
  check "its segments at no line" grep -q -F \
    "Addcomments.docx: segment document:1#0 not translated:" "$tmp/err"
fi

finish
