#!/bin/sh
# test_cli_whitespace.sh: where white space is not significant (XLIFF 2 and
# XLIFF 1.2 without xml:space="preserve" in scope, HTML outside <pre>), a
# line break and the white space around it are one space to segmentation
# and to the engine: a message wrapped over lines, as Angular's extractor
# writes it, is one sentence, one request. Where white space is preserved
# (xml:space="preserve", <pre>) a line break still ends a segment. The
# source is written as it was read. Exact outputs and exact engine inputs;
# Apertium eng-spa on a wrapped message.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (all else passed, but no
# apertium with eng-spa for its checks).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup whitespace
x=$XLIFFMT

# An engine that logs each line it is sent to $tmp/sent.log (not the check
# line that ends each batch) and answers "ES <line>".
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ "\$line" = "2 4 6 8 0 1 3 5 7 9" ] || printf '%s\n' "\$line" >>"$tmp/sent.log"
  printf 'ES %s\n' "\$line"
done
EOD
chmod +x "$tmp/engine.sh"

# same DESC GOT WANT: the files are equal.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1: differs (got, then expected):"
    sed 's/^/    got:  /' "$2"
    sed 's/^/    want: /' "$3"
  fi
}

# xliff12 / xliff2 [FILE_ATTRS]: the units on standard input in an XLIFF
# 1.2 file, or in an XLIFF 2 one whose <file> has FILE_ATTRS too; en to es.
xliff12() {
  printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">' \
    '<file original="a" source-language="en" target-language="es" datatype="plaintext">' \
    '<body>'
  cat
  echo '</body></file></xliff>'
}
xliff2() {
  printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' \
    '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">' \
    "  <file id=\"ngi18n\"${1:+ $1} original=\"ng.template\">"
  cat
  printf '  </file>\n</xliff>\n'
}

# run DESC IN OPTIONS...: translates IN with the engine into $tmp/out.
run() {
  desc=$1 in=$2
  shift 2
  rm -f "$tmp/sent.log"
  : >"$tmp/sent.log"
  expect_exit 0 "$desc: translate" "$x" translate "$in" -o "$tmp/out" -q \
    --probes off --mt "cmd:$tmp/engine.sh" -s en -t es "$@"
}

# translated DESC SENT IN OPTIONS...: run, then the engine was sent
# $tmp/want.sent ("DESC: SENT") and the output is $tmp/want.
translated() {
  t_desc=$1 t_sent=$2
  shift 2
  if run "$t_desc" "$@"; then
    same "$t_desc: $t_sent" "$tmp/sent.log" "$tmp/want.sent"
    same "$t_desc: output" "$tmp/out" "$tmp/want"
  fi
}

# --- XLIFF 2: the default is xml:space="default" -----------------------------
xliff2 >"$tmp/wrapped.xlf" <<'EOF'
    <unit id="fox">
      <segment>
        <source>The quick brown
      fox jumps over the lazy dog.</source>
      </segment>
    </unit>
    <unit id="two">
      <segment>
        <source>Fill in   the form.
        Then send it	
  to us.</source>
      </segment>
    </unit>
EOF
printf 'The quick brown fox jumps over the lazy dog.\nFill in   the form.\nThen send it to us.\n' >"$tmp/want.sent"
xliff2 >"$tmp/want" <<'EOF'
    <unit id="fox">
      <segment state="translated" subState="xliffmt:mt">
        <source>The quick brown
      fox jumps over the lazy dog.</source>
        <target>ES The quick brown fox jumps over the lazy dog.</target>
      </segment>
    </unit>
    <unit id="two">
      <segment state="translated" subState="xliffmt:mt">
        <source>Fill in   the form.
        Then send it	
  to us.</source>
        <target>ES Fill in   the form.
        ES Then send it to us.</target>
      </segment>
    </unit>
EOF
translated "XLIFF 2, wrapped" "one request a sentence, single spaces" \
  "$tmp/wrapped.xlf"

sed 's/<file id="ngi18n"/& xml:space="preserve"/' "$tmp/wrapped.xlf" \
  >"$tmp/kept.xlf"
printf 'The quick brown\nfox jumps over the lazy dog.\nFill in   the form.\nThen send it\nto us.\n' >"$tmp/want.sent"
xliff2 'xml:space="preserve"' >"$tmp/want" <<'EOF'
    <unit id="fox">
      <segment state="translated" subState="xliffmt:mt">
        <source>The quick brown
      fox jumps over the lazy dog.</source>
        <target>ES The quick brown
      ES fox jumps over the lazy dog.</target>
      </segment>
    </unit>
    <unit id="two">
      <segment state="translated" subState="xliffmt:mt">
        <source>Fill in   the form.
        Then send it	
  to us.</source>
        <target>ES Fill in   the form.
        ES Then send it	
  ES to us.</target>
      </segment>
    </unit>
EOF
translated "XLIFF 2, xml:space=preserve" "line breaks kept" "$tmp/kept.xlf"

# --- XLIFF 1.2 ----------------------------------------------------------------
xliff12 >"$tmp/wrapped12.xlf" <<'EOF'
<trans-unit id="1"><source>The quick brown
      fox jumps over the lazy dog.</source></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2" xml:space="default"><source>Press the
  red button.</source></trans-unit>
</group>
EOF
printf 'The quick brown fox jumps over the lazy dog.\nPress the red button.\n' >"$tmp/want.sent"
xliff12 >"$tmp/want" <<'EOF'
<trans-unit id="1"><source>The quick brown
      fox jumps over the lazy dog.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ES The quick brown fox jumps over the lazy dog.</target></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2" xml:space="default"><source>Press the
  red button.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ES Press the red button.</target></trans-unit>
</group>
EOF
translated "XLIFF 1.2, wrapped" "one request, single spaces" \
  "$tmp/wrapped12.xlf"

# Preserved by the unit, by an enclosing group, by the source itself.
xliff12 >"$tmp/kept12.xlf" <<'EOF'
<trans-unit id="1" xml:space="preserve"><source>The quick brown
      fox jumps over the lazy dog.</source></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2"><source>Press the
  red button.</source></trans-unit>
</group>
<trans-unit id="3"><source xml:space="preserve">Line one
line two</source></trans-unit>
EOF
printf 'The quick brown\nfox jumps over the lazy dog.\nPress the\nred button.\nLine one\nline two\n' >"$tmp/want.sent"
xliff12 >"$tmp/want" <<'EOF'
<trans-unit id="1" xml:space="preserve"><source>The quick brown
      fox jumps over the lazy dog.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ES The quick brown
      ES fox jumps over the lazy dog.</target></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2"><source>Press the
  red button.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ES Press the
  ES red button.</target></trans-unit>
</group>
<trans-unit id="3"><source xml:space="preserve">Line one
line two</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ES Line one
ES line two</target></trans-unit>
EOF
translated "XLIFF 1.2, xml:space=preserve" "line breaks kept" "$tmp/kept12.xlf"

# A code in a wrapped message keeps a space on each side.
xliff12 >"$tmp/code12.xlf" <<'EOF'
<trans-unit id="1"><source>Hello
    <x id="1"/>
    and welcome.</source></trans-unit>
EOF
if run "XLIFF 1.2, code in a wrapped message" "$tmp/code12.xlf" --tags raw; then
  printf 'Hello <x id="1"/> and welcome.\n' >"$tmp/want.sent"
  same "XLIFF 1.2, code in a wrapped message: request" \
    "$tmp/sent.log" "$tmp/want.sent"
  sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p' "$tmp/out" >"$tmp/got"
  printf 'ES Hello <x id="1"/> and welcome.\n' >"$tmp/want"
  same "XLIFF 1.2, code in a wrapped message: target" "$tmp/got" "$tmp/want"
fi

# --seg-source: one mrk for the wrapped sentence, the source's bytes in it.
xliff12 >"$tmp/want" <<'EOF'
<trans-unit id="1"><source>The quick brown
      fox jumps over the lazy dog.</source><seg-source><mrk mid="0" mtype="seg">The quick brown
      fox jumps over the lazy dog.</mrk></seg-source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mid="0" mtype="seg">ES The quick brown fox jumps over the lazy dog.</mrk></target></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2" xml:space="default"><source>Press the
  red button.</source><seg-source><mrk mid="0" mtype="seg">Press the
  red button.</mrk></seg-source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mid="0" mtype="seg">ES Press the red button.</mrk></target></trans-unit>
</group>
EOF
if run "XLIFF 1.2, --seg-source" "$tmp/wrapped12.xlf" --seg-source; then
  same "XLIFF 1.2, --seg-source: one mrk" "$tmp/out" "$tmp/want"
fi
xliff12 >"$tmp/want" <<'EOF'
<trans-unit id="1"><source>The quick brown
      fox jumps over the lazy dog.</source><seg-source><mrk mid="0" mtype="seg">The quick brown
      fox jumps over the lazy dog.</mrk></seg-source></trans-unit>
<group id="g" xml:space="preserve">
<trans-unit id="2" xml:space="default"><source>Press the
  red button.</source><seg-source><mrk mid="0" mtype="seg">Press the
  red button.</mrk></seg-source></trans-unit>
</group>
EOF
if expect_exit 0 "segment, wrapped XLIFF 1.2" "$x" segment "$tmp/wrapped12.xlf" \
  -o "$tmp/seg.xlf"; then
  same "segment, wrapped XLIFF 1.2: one mrk" "$tmp/seg.xlf" "$tmp/want"
fi

# --- HTML: <p> flows, <pre> keeps its lines -----------------------------------
cat >"$tmp/in.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><title>T</title></head><body>
<p>The quick brown
   fox jumps over the lazy dog.</p>
<pre>The quick brown
   fox jumps over the lazy dog.</pre>
<div style="white-space: pre-line">Press the
red button.</div>
</body></html>
EOF
printf 'T\nThe quick brown fox jumps over the lazy dog.\nThe quick brown\nfox jumps over the lazy dog.\nPress the\nred button.\n' >"$tmp/want.sent"
cat >"$tmp/want" <<'EOF'
<!DOCTYPE html>
<html lang="es"><head><title>ES T</title></head><body>
<p>ES The quick brown fox jumps over the lazy dog.</p>
<pre>ES The quick brown
   ES fox jumps over the lazy dog.</pre>
<div style="white-space: pre-line">ES Press the
ES red button.</div>
</body></html>
EOF
translated "HTML, <p> and <pre>" "requests" "$tmp/in.html"

# --- Apertium: one sentence, not "El rápido marrón" and "El zorro salta" ------
if command -v apertium >/dev/null 2>&1 &&
  apertium -l 2>/dev/null | grep -qx '[[:space:]]*eng-spa'; then
  xliff2 >"$tmp/ap.xlf" <<'EOF'
    <unit id="fox">
      <segment>
        <source>The quick brown
 fox jumps over the lazy dog.</source>
      </segment>
    </unit>
    <unit id="must">
      <segment>
        <source>Every field of this form
        must be filled in before you send it.</source>
      </segment>
    </unit>
EOF
  cat >"$tmp/want" <<'EOF'
El zorro marrón rápido salta el perro perezoso.
Cada campo de esta forma tiene que ser llenado en antes de que lo envías.
EOF
  if expect_exit 0 "Apertium, wrapped: translate" "$x" translate "$tmp/ap.xlf" \
    -o "$tmp/ap.out" -q --mt apertium:eng-spa; then
    sed -n 's/.*<target>\(.*\)<\/target>.*/\1/p' "$tmp/ap.out" >"$tmp/got"
    same "Apertium, wrapped: one sentence each" "$tmp/got" "$tmp/want"
  fi
  finish
fi
echo "# apertium with eng-spa not installed: its checks skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
exit 77
