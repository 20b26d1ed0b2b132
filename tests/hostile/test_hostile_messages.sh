#!/bin/sh
# test_hostile_messages.sh: messages that are safe and true. Control
# characters from outside (an engine's stderr) reach the terminal as
# \xHH, never as commands; a file name that is not UTF-8 and an id of
# 320 bytes go into --report whole and the JSON stays valid; a command
# whose standard output cannot be written exits 2.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
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

finish
