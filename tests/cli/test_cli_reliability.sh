#!/bin/sh
# test_cli_reliability.sh -- never a malformed or lossy output: an engine
# answering control characters, external and undeclared entities in
# translatable text, SIGKILL in the middle of a run, and the system's
# reason when the output cannot be written.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup reliability
x=$XLIFFMT

cat >"$tmp/doc.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>Hello world.</source></trans-unit>
<trans-unit id="2"><source>Good night.</source></trans-unit>
</body></file></xliff>
EOF

# An engine that puts U+0001, U+000B and U+0085 (a C1 control) into its
# first answer only (the check line of digits passes through, uncounted).
cat >"$tmp/controls.sh" <<'EOF'
#!/bin/sh
n=0
while IFS= read -r line; do
  case $line in *[!0-9\ ]*) ;; *) printf '%s\n' "$line"; continue ;; esac
  n=$((n + 1))
  if [ $n -eq 1 ]; then printf 'Ho\001la \013mundo\302\205.\n'
  else printf '%s\n' "$line"; fi
done
EOF
chmod +x "$tmp/controls.sh"
if expect_exit 0 "an engine answering control characters" "$x" translate \
  "$tmp/doc.xlf" -o "$tmp/c.xlf" --mt "cmd:$tmp/controls.sh" -q \
  --report "$tmp/c.json"; then
  check "the output is well-formed" xmllint --noout "$tmp/c.xlf"
  check "the characters are removed, the text kept" grep -q \
    'mt-suggestion">Hola mundo\.</target>' "$tmp/c.xlf"
  check "the other segment untouched" grep -q \
    'mt-suggestion">Good night\.</target>' "$tmp/c.xlf"
  check "a warning names the segment" grep -q \
    "doc.xlf:5: warning: segment 1#0: the engine's answer had 3 control characters; removed" \
    "$tmp/err"
  check "the report counts it" grep -q '"sanitized_segments":1,' "$tmp/c.json"
  check "the report lists it" grep -q \
    '"warnings":\[{"segment":"1#0","line":5,"message":"the engine' \
    "$tmp/c.json"
fi

# An external entity: its text cannot be read, so the run stops.
cat >"$tmp/ext.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xliff [
<!ENTITY prod SYSTEM "product-name.txt">
<!ENTITY co "ACME">
]>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>Install &co; tools.</source><note>See &prod;.</note></trans-unit>
<trans-unit id="2"><source>Install &prod; on every computer.</source></trans-unit>
</body></file></xliff>
EOF
if expect_exit 1 "an external entity in a source" "$x" translate \
  "$tmp/ext.xlf" -o "$tmp/ext.out.xlf" --mt identity -q; then
  check "the message names the entity, file, line and column" grep -q \
    'ext.xlf:10:36: entity &prod; in translatable text is external (SYSTEM "product-name.txt")' \
    "$tmp/err"
  check "the message names the unit" grep -q '(unit 2)' "$tmp/err"
  check "no output file" test ! -e "$tmp/ext.out.xlf"
fi
# --keep-entities: the reference kept as written, as an inline code.
if expect_exit 0 "--keep-entities" "$x" translate "$tmp/ext.xlf" \
  -o "$tmp/keep.xlf" --mt pseudo -q --keep-entities; then
  check "the reference rides in the translation" grep -q -F \
    '<source>Install &prod; on every computer.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">[&prod;óñ Íñstáll çómpútér. évérý ~~~~~~~~~]</target>' \
    "$tmp/keep.xlf"
  check "the output is well-formed (references declared)" xmllint --noout \
    "$tmp/keep.xlf"
fi
expect_exit 1 "--keep-entities with --tags raw" "$x" translate "$tmp/ext.xlf" \
  -o "$tmp/keep-raw.xlf" --mt pseudo -q --keep-entities --tags raw &&
  check "says why" grep -q 'kept entity references need the project or mask tag mode' \
    "$tmp/err"

# Outside translatable text it passes through as written.
sed '/trans-unit id="2"/d' "$tmp/ext.xlf" >"$tmp/ext-note.xlf"
if expect_exit 0 "an external entity in a note" "$x" translate \
  "$tmp/ext-note.xlf" -o "$tmp/note.xlf" --mt identity -q; then
  check "the note keeps its reference" grep -q '<note>See &prod;.</note>' \
    "$tmp/note.xlf"
  check "an internal entity is translated as its text" grep -q \
    'mt-suggestion">Install ACME tools.</target>' \
    "$tmp/note.xlf"
fi
# With an external DTD, expat lets undeclared entities through: still an
# error in translatable text.
cat >"$tmp/undecl.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xliff SYSTEM "xliff.dtd">
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>Call &phone; now.</source></trans-unit>
</body></file></xliff>
EOF
if expect_exit 1 "an undeclared entity under an external DTD" "$x" \
  translate "$tmp/undecl.xlf" -o "$tmp/undecl.out.xlf" --mt identity -q; then
  check "the message says it is not declared" grep -q \
    'undecl.xlf:6:33: entity &phone; in translatable text is not declared in the document' \
    "$tmp/err"
  check "no output file" test ! -e "$tmp/undecl.out.xlf"
fi

# SIGKILL while the engine works: the output was never named, so nothing
# is left beside it.
mkdir "$tmp/kill"
cp "$tmp/doc.xlf" "$tmp/kill/doc.xlf"
printf '#!/bin/sh\nexec sleep 30\n' >"$tmp/slow.sh"
chmod +x "$tmp/slow.sh"
"$x" translate "$tmp/kill/doc.xlf" -o "$tmp/kill/out.xlf" \
  --mt "cmd:$tmp/slow.sh" -q 2>/dev/null &
pid=$!
# wait until the run is under way (the engine started)
i=0
while [ $i -lt 50 ] && ! pgrep -P "$pid" >/dev/null 2>&1; do
  sleep 0.1
  i=$((i + 1))
done
sleep 0.2
engine=$(pgrep -P "$pid")
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ -n "$engine" ] && pkill -9 -g "$engine" 2>/dev/null
check "SIGKILL leaves no file beside the output" test \
  "$(ls -A "$tmp/kill")" = doc.xlf

# The system's reason when the output cannot be written.
if [ -w /dev/full ]; then
  exits_with 2 "standard output on a full device" sh -c \
    "'$x' translate '$tmp/doc.xlf' -o - --mt identity -q >/dev/full" &&
    check "says why: standard output: cannot write: No space left on device" \
      grep -q 'standard output: cannot write: No space left on device' \
      "$tmp/err"
fi
if exits_with 2 "an output in a missing directory" "$x" translate \
  "$tmp/doc.xlf" -o "$tmp/no/such/dir/out.xlf" --mt identity -q; then
  check "says why: no such directory" grep -q \
    'out.xlf: cannot create output: No such file or directory' "$tmp/err"
fi

# A device or a pipe as the output is written to, never replaced by a
# file renamed over it (as root, /dev/null would become a plain file).
"$x" translate "$tmp/doc.xlf" -o "$tmp/plain.xlf" --mt identity -q || exit 99
printf 'Hello <g id="1">world</g>.\n' >"$tmp/p.src"
printf 'Hola mundo.\n' >"$tmp/p.tgt"
printf '0-0 1-1 2-2\n' >"$tmp/p.aln"
for cmd in translate project; do
  if [ $cmd = translate ]; then
    set -- translate "$tmp/doc.xlf" --mt identity -q -o
  else
    set -- project -s "$tmp/p.src" -t "$tmp/p.tgt" -a "$tmp/p.aln" -o
  fi
  if expect_exit 0 "$cmd -o /dev/null" "$x" "$@" /dev/null; then
    check "$cmd: /dev/null is still a character device" test -c /dev/null
  fi
  rm -f "$tmp/fifo" "$tmp/from-fifo"
  mkfifo "$tmp/fifo" || exit 99
  cat "$tmp/fifo" >"$tmp/from-fifo" &
  reader=$!
  if expect_exit 0 "$cmd into a FIFO" "$x" "$@" "$tmp/fifo"; then
    wait $reader
    check "$cmd: the FIFO is still a FIFO" test -p "$tmp/fifo"
    if [ $cmd = translate ]; then
      check "translate: the FIFO got the whole document" \
        cmp -s "$tmp/from-fifo" "$tmp/plain.xlf"
    else
      check "project: the FIFO got the tagged line" grep -qx \
        'Hola <g id="1">mundo</g>\.' "$tmp/from-fifo"
    fi
  else
    kill $reader 2>/dev/null
  fi
  mkdir -p "$tmp/outdir"
  if exits_with 2 "$cmd into a directory" "$x" "$@" "$tmp/outdir"; then
    check "$cmd: says it is a directory" grep -q \
      'outdir: cannot create output: Is a directory' "$tmp/err"
  fi
done

finish
