#!/bin/sh
# test_hostile_round14.sh: exit 0 means the output is right, for XLIFF
# text that could be left untranslated or put under the wrong unit.
#   - XLIFF 1.2 <sub> inside a code (an image's alt text in a <ph>, a
#     link's title in a <bpt>): its text is translatable, and xliffmt
#     does not send it to MT, so its unit fails, naming the unit, no
#     target written, exit 3 (the target was written with the sub's text
#     in the source language, exit 0). A sub of white space only, or one
#     in an existing target (replaced), takes nothing from the unit.
#   - a target <mrk mtype="seg"> whose mid no segment of the seg-source
#     takes (Trados's SDLXLIFF, or any XLIFF 1.2: the schema's key
#     reference refuses it): an error naming the unit, the mid and the
#     mrk's place, no output, exit 1 (it was kept as it was, or dropped,
#     without a word, exit 0). So for a mid two target mrks share.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round14
x=$XLIFFMT

# An engine that writes each line in upper case.
cat >"$tmp/up.sh" <<'EOD'
#!/bin/sh
exec awk '{ print toupper($0); fflush() }'
EOD
chmod +x "$tmp/up.sh"

# x12 FILE UNITS: an XLIFF 1.2 document of UNITS (one line).
x12() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="html"><body>\n%s\n' "$2"
    printf '</body></file></xliff>\n'
  } >"$1"
}

# --- <sub>: translatable text inside a code.
x12 "$tmp/sub.xlf" '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u2"><source>Plain text.</source></trans-unit>
<trans-unit id="u3"><source>Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</source><seg-source><mrk mtype="seg" mid="1">Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</mrk></seg-source></trans-unit>
<trans-unit id="u4"><source>See <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u5"><source>See it.</source><target>Ver <ph id="1">&lt;img alt="<sub>coche</sub>"/&gt;</ph>.</target></trans-unit>'
within "sub" 3 20 300 "$x" translate "$tmp/sub.xlf" -o "$tmp/sub.out.xlf" \
  --overwrite --mt "cmd:$tmp/up.sh"
for u in 1 3; do
  check "sub: u$u not translated" grep -q -x -F \
    "$(grep "<trans-unit id=\"u$u\">" "$tmp/sub.xlf")" "$tmp/sub.out.xlf"
done
for s in 4:u1#0 6:u3#1; do
  check "sub: ${s#*:} told" grep -q -x -F \
    "xliffmt: $tmp/sub.xlf:${s%%:*}: segment ${s#*:} not translated: a <sub> inside one of its codes holds translatable text, which xliffmt does not translate" \
    "$tmp/err"
done
check "sub: the others translated" grep -q -F \
  '>PLAIN TEXT.</target>' "$tmp/sub.out.xlf"
check "sub of white space: translated" grep -q -F \
  '>SEE <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> HERE.</target>' \
  "$tmp/sub.out.xlf"
check "sub in a target: translated" grep -q -F \
  '>SEE IT.</target>' "$tmp/sub.out.xlf"

# --- A target mrk of a mid the seg-source lacks.
sdl_ns='xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0"'
x12 "$tmp/mid.xlf" "<trans-unit id=\"u1\" $sdl_ns><source>One. Two.</source><seg-source><mrk mtype=\"seg\" mid=\"1\">One.</mrk> <mrk mtype=\"seg\" mid=\"2\">Two.</mrk></seg-source><target><mrk mtype=\"seg\" mid=\"1\"/> <mrk mtype=\"seg\" mid=\"2\"/> <mrk mtype=\"seg\" mid=\"9\">Extra.</mrk></target><sdl:seg-defs><sdl:seg id=\"1\"/><sdl:seg id=\"2\"/></sdl:seg-defs></trans-unit>"
within "stray target mrk, Trados" 1 20 300 "$x" translate "$tmp/mid.xlf" \
  -o "$tmp/mid.out.xlf" --mt "cmd:$tmp/up.sh"
said "stray target mrk, Trados" \
  "xliffmt: $tmp/mid.xlf:4:255: unit \"u1\": the <target> has a <mrk mtype=\"seg\" mid=\"9\"> that no segment of <seg-source> takes (none has its mid, or another mrk of the target has it)"
check "stray target mrk, Trados: no output" test ! -e "$tmp/mid.out.xlf"
x12 "$tmp/mid2.xlf" '<trans-unit id="u1"><source>One. Two.</source></trans-unit>
<trans-unit id="u2"><source>One. Two.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk></seg-source><target><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="1">Dos.</mrk></target></trans-unit>'
within "target mrks of one mid" 1 20 300 "$x" translate "$tmp/mid2.xlf" \
  -o "$tmp/mid2.out.xlf" --mt "cmd:$tmp/up.sh"
said "target mrks of one mid" \
  "xliffmt: $tmp/mid2.xlf:5:187: unit \"u2\": the <target> has a <mrk mtype=\"seg\" mid=\"1\"> that no segment of <seg-source> takes (none has its mid, or another mrk of the target has it)"
check "target mrks of one mid: no output" test ! -e "$tmp/mid2.out.xlf"

finish
