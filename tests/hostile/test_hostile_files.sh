#!/bin/sh
# test_hostile_files.sh: data lost through easy mistakes. --report naming
# the input, the output or the translations file is refused before any
# work, and the file is left as it was; an output replaced keeps its mode
# (a private 0600 file stays private).
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-files
x=$XLIFFMT

cat >"$tmp/in.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="1"><source>The cat sleeps.</source></trans-unit>
</body></file></xliff>
EOD
cp "$tmp/in.xlf" "$tmp/orig.xlf"
printf '1#0\tEl gato duerme.\n' >"$tmp/tr.tsv"
cp "$tmp/tr.tsv" "$tmp/tr.orig"

within "translate --report IN" 1 10 500 \
  "$x" translate "$tmp/in.xlf" -o "$tmp/out.xlf" --mt identity \
  --report "$tmp/in.xlf"
check "translate --report IN: named" grep -q -F -e \
  "in.xlf: --report names the input: it would be overwritten" "$tmp/err"
check "translate --report IN: the input unchanged" \
  cmp -s "$tmp/in.xlf" "$tmp/orig.xlf"
check "translate --report IN: no output" test ! -e "$tmp/out.xlf"
# The same file by another name, before it exists.
within "translate --report OUT" 1 10 500 \
  "$x" translate "$tmp/in.xlf" -o "$tmp/out.xlf" --mt identity \
  --report "$tmp/./out.xlf"
check "translate --report OUT: named" grep -q -F -e \
  "--report names the output" "$tmp/err"
check "translate --report OUT: no file" test ! -e "$tmp/out.xlf"
within "merge --report TRANSLATIONS" 1 10 500 \
  "$x" merge "$tmp/in.xlf" --translations "$tmp/tr.tsv" -o "$tmp/out.xlf" \
  --report "$tmp/tr.tsv"
check "merge --report TRANSLATIONS: named" grep -q -F -e \
  "--report names the translations" "$tmp/err"
check "merge --report TRANSLATIONS: unchanged" cmp -s "$tmp/tr.tsv" "$tmp/tr.orig"

# Modes: a new output as usual (0666 less the umask), a replaced one as it
# was.
umask 022
within "translate" 0 10 500 \
  "$x" translate "$tmp/in.xlf" -o "$tmp/out.xlf" --mt identity -q
check "a new output: 644 ($(stat -c %a "$tmp/out.xlf"))" \
  test "$(stat -c %a "$tmp/out.xlf")" = 644
chmod 600 "$tmp/out.xlf"
within "translate over it" 0 10 500 \
  "$x" translate "$tmp/in.xlf" -o "$tmp/out.xlf" --mt pseudo -q
check "a replaced output keeps 600 ($(stat -c %a "$tmp/out.xlf"))" \
  test "$(stat -c %a "$tmp/out.xlf")" = 600
check "and it was replaced" grep -q 'Thé' "$tmp/out.xlf"
chmod 640 "$tmp/out.xlf"
within "merge over it" 0 10 500 \
  "$x" merge "$tmp/in.xlf" --translations "$tmp/tr.tsv" -o "$tmp/out.xlf" -q
check "merge: a replaced output keeps 640 ($(stat -c %a "$tmp/out.xlf"))" \
  test "$(stat -c %a "$tmp/out.xlf")" = 640

finish
