#!/bin/sh
# test_hostile_round24.sh: exit 0 means the output is right, and no text
# is dropped while the unit counts as translated.
#   - translate --tags raw with an engine that changes the tags it was
#     sent (upper case: <G ID="1">THIS BOOK</G>): the element it wrote is
#     none of the source's, and it holds text; dropping it dropped that
#     text ("READ  NOW.<g id="1"></g>", exit 0). Its text is kept and the
#     source's tags projected onto the stripped answer. An engine that
#     adds an empty element of its own still has it dropped, and one that
#     keeps the tags has them taken as they are.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round24
x=$XLIFFMT

# Engines: upper case; one that adds <x id="9"/> at the start.
upper_engine
cat >"$tmp/add.sh" <<'EOD'
#!/bin/sh
exec awk '{ print "<x id=\"9\"/>" $0; fflush() }'
EOD
chmod +x "$tmp/add.sh"

cat >"$tmp/raw.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="html"><body>
<trans-unit id="u1"><source>Read <g id="1">this book</g> now.</source></trans-unit>
</body></file></xliff>
EOD

within "raw, tags changed" 0 20 300 "$x" translate "$tmp/raw.xlf" \
  -o "$tmp/up.xlf" --mt "cmd:$tmp/up.sh" --tags raw -q
check "raw, tags changed: the element's text kept, the tag placed" grep -q -F \
  '<target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">READ <g id="1">THIS BOOK</g> NOW.</target>' \
  "$tmp/up.xlf"

within "raw, an empty element added" 0 20 300 "$x" translate "$tmp/raw.xlf" \
  -o "$tmp/add.xlf" --mt "cmd:$tmp/add.sh" --tags raw -q
check "raw, an empty element added: dropped, the tags kept" grep -q -F \
  '>Read <g id="1">this book</g> now.</target>' "$tmp/add.xlf"

finish
