#!/bin/sh
# test_hostile_terminal.sh: what a document, a file name or an engine
# says reaches the terminal as text, never as a command. A file name with
# ESC ] (sets the title), BEL, ESC [2J (clears the screen) and a carriage
# return (writes over the line), a unit id with a carriage return, an
# engine command and an engine's stderr with ESC and CR, a file name that
# is not UTF-8: each shown as \xHH in the summary, the batch lines, the
# error and warning messages and check's text; no raw control byte is
# written (the newline that ends a line aside).
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-terminal
x=$XLIFFMT
esc=$(printf '\033')
cr=$(printf '\r')

# raw_free DESC FILE: FILE holds no ESC, CR, BEL or C1 CSI (U+009B).
raw_free() {
  if LC_ALL=C grep -q "[$esc$cr$(printf '\007')]" "$2" ||
    LC_ALL=C grep -q "$(printf '\302\233')" "$2"; then
    fail "$1: a raw control character: $(od -c "$2" | head -5 | tr '\n' '|')"
  else
    pass "$1: no raw control character"
  fi
}

# has_line DESC FILE LINE: FILE holds LINE exactly, as a whole line.
has_line() {
  if grep -q -x -F -e "$3" "$2"; then
    pass "$1"
  else
    fail "$1: no line «$3» in: $(cat -v "$2" | head -5 | tr '\n' '|')"
  fi
}

doc() { # ID: a document of one unit with id ID (XML escaped)
  cat <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="$1"><source>The cat sleeps.</source></trans-unit>
</body></file></xliff>
EOD
}

# A file name that sets the title, clears the screen and goes back to
# the start of the line.
mkdir "$tmp/in"
name=$(printf 'a\033]0;T\007\033[2J\rb.xlf')
shown='a\x1B]0;T\x07\x1B[2J\x0Db.xlf'
doc u1 >"$tmp/in/$name"
within "a file name with ESC and CR: translate" 0 20 400 \
  "$x" translate "$tmp/in/$name" -o "$tmp/out.xlf" -s en -t es --mt pseudo
raw_free "translate's summary" "$tmp/err"
if grep -q -F "xliffmt: $tmp/in/$shown: 1 units, 1 translated, 0 left as they were; " \
  "$tmp/err"; then
  pass "translate's summary shows the name escaped"
else
  fail "translate's summary: $(cat -v "$tmp/err")"
fi
within "a file name with ESC and CR: check" 0 20 400 "$x" check "$tmp/in/$name"
raw_free "check's text" "$tmp/out"
has_line "check's first line shows the name escaped" "$tmp/out" \
  "$tmp/in/$shown: XLIFF 1.2, UTF-8"
within "a file name with ESC and CR: batch" 0 20 400 \
  "$x" batch "$tmp/in" -o "$tmp/bout" -s en -t es --mt pseudo
raw_free "batch's lines" "$tmp/err"
has_line "batch's line shows the name escaped" "$tmp/err" \
  "xliffmt: batch 1/1: $shown: done, 1 segment"
rm -rf "$tmp/in" "$tmp/bout"

# A file name that is not UTF-8 (Latin-1): its byte shown as \xE9.
doc u1 >"$tmp/$(printf 'caf\351.xlf')"
within "a Latin-1 file name: check" 0 20 400 \
  "$x" check "$tmp/$(printf 'caf\351.xlf')"
has_line "check shows the byte that is not UTF-8" "$tmp/out" \
  "$tmp/caf\\xE9.xlf: XLIFF 1.2, UTF-8"

# A unit id with a carriage return (a character reference), used twice.
cat >"$tmp/ids.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>
<trans-unit id="u&#13;X"><source>The cat.</source></trans-unit><trans-unit id="u&#13;X"><source>The dog.</source></trans-unit>
</body></file></xliff>
EOD
within "an id with CR: check" 1 20 400 "$x" check "$tmp/ids.xlf"
raw_free "check's problem" "$tmp/err"
has_line "check's problem shows the id escaped" "$tmp/err" \
  "xliffmt: $tmp/ids.xlf:3:64: error: trans-unit id \"u\\x0DX\" is used more than once in <file> (first at line 3) (unit u\\x0DX)"

# An engine whose command holds ESC, and whose stderr holds ESC and CR.
eng="$tmp/eng${esc}x.sh"
printf '#!/bin/sh\nprintf "bad\\r\\033[2Jthing\\n" >&2\nexit 3\n' >"$eng"
chmod +x "$eng"
doc 'u&#13;X' >"$tmp/doc.xlf"
within "an engine with ESC and CR" 3 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/o.xlf" -s en -t es --mt "cmd:$eng"
raw_free "the engine's failure" "$tmp/err"
has_line "the engine's command, its stderr and the id escaped" "$tmp/err" \
  "xliffmt: $tmp/doc.xlf:3: segment u\\x0DX#0 not translated: engine '$tmp/eng\\x1Bx.sh' exited with status 3: bad\\x0D\\x1B[2Jthing"

finish
