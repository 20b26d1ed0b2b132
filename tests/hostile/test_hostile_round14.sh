#!/bin/sh
# test_hostile_round14.sh: exit 0 means the output is right, for XLIFF
# text that could be left untranslated or put under the wrong unit.
#   - XLIFF 1.2 <sub> inside a code (an image's alt text in a <ph>, a
#     link's title in a <bpt>): its text is translatable, and xliffmt
#     does not send it to MT, so its unit fails, naming the unit, no
#     target written, exit 3 (the target was written with the sub's text
#     in the source language, exit 0). A sub of white space only, or one
#     in an existing target (replaced), takes nothing from the unit.
#     (Since round 21 the sub's text is translated, a segment of its own:
#     test_hostile_round21.sh.)
#   - a Trados target <mrk mtype="seg"> whose mid no segment of the
#     seg-source takes (the XLIFF 1.2 schema's key reference refuses it,
#     and Trados pairs a segment with its sdl:seg by it): an error naming
#     the unit, the mid and the mrk's place, no output, exit 1 (it was
#     kept as it was without a word, exit 0). So for a mid two target
#     mrks share.
#   - XLIFF 2 slr:sizeRestriction (profile xliff:codepoints) on a <unit>
#     of several segments limits their translations together, and on a
#     <group> those of all its units: over it, each of them fails, told,
#     no target, exit 3 (a unit of several segments was not checked, a
#     group's limit not read, exit 0). So where the unit or the group
#     spans the end of a window of segments (256 with identity), which
#     is not cut there.
#   - an XLIFF 1.2 target filled mrk by mrk (some segments keep their
#     translation) gets the state of a machine translation, or of a
#     failed segment's unit (needs-translation, its state-qualifier
#     removed) (it kept state="translated" and its state-qualifier over
#     machine translation and source text, exit 0 and 3).
#   - a Trados segment that held a translation memory's match, translated
#     again (--overwrite): its sdl:seg says machine translation, without
#     the match's percent, text-match and struct-match (it said
#     origin="mt" percent="100" text-match="SourceAndTarget": Trados's
#     context match, which a reviewer passes over, exit 0).
#   - an XLIFF 1.2 target that copies its source in state
#     "needs-translation" or "new" (a CAT tool's or Okapi's copy of the
#     source) is translated as an empty one is (it was kept, the unit
#     left in the source language, exit 0); one with text of its own in
#     that state is kept.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round14
x=$XLIFFMT

upper_engine

# --- <sub>: translatable text inside a code.
x12 "$tmp/sub.xlf" '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u2"><source>Plain text.</source></trans-unit>
<trans-unit id="u3"><source>Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</source><seg-source><mrk mtype="seg" mid="1">Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</mrk></seg-source></trans-unit>
<trans-unit id="u4"><source>See <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u5"><source>See it.</source><target>Ver <ph id="1">&lt;img alt="<sub>coche</sub>"/&gt;</ph>.</target></trans-unit>'
within "sub" 0 20 300 "$x" translate "$tmp/sub.xlf" -o "$tmp/sub.out.xlf" \
  --overwrite --mt "cmd:$tmp/up.sh"
check "sub: u1 translated, its sub too" grep -q -F \
  '>SEE <ph id="1">&lt;img alt="<sub>A RED CAR</sub>"/&gt;</ph> HERE.</target>' \
  "$tmp/sub.out.xlf"
check "sub: u3 translated, its sub too" grep -q -F \
  '<mrk mtype="seg" mid="1">READ <bpt id="1">&lt;a title="<sub>THE <g id="2">FULL</g> TEXT</sub>"&gt;</bpt>THIS<ept id="1">&lt;/a&gt;</ept>.</mrk></target>' \
  "$tmp/sub.out.xlf"
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
x12 "$tmp/mid2.xlf" "<trans-unit id=\"u1\"><source>One. Two.</source></trans-unit>
<trans-unit id=\"u2\" $sdl_ns><source>One. Two.</source><seg-source><mrk mtype=\"seg\" mid=\"1\">One.</mrk> <mrk mtype=\"seg\" mid=\"2\">Two.</mrk></seg-source><target><mrk mtype=\"seg\" mid=\"1\">Uno.</mrk> <mrk mtype=\"seg\" mid=\"1\">Dos.</mrk></target><sdl:seg-defs><sdl:seg id=\"1\"/><sdl:seg id=\"2\"/></sdl:seg-defs></trans-unit>"
within "target mrks of one mid" 1 20 300 "$x" translate "$tmp/mid2.xlf" \
  -o "$tmp/mid2.out.xlf" --mt "cmd:$tmp/up.sh"
said "target mrks of one mid" \
  "xliffmt: $tmp/mid2.xlf:5:237: unit \"u2\": the <target> has a <mrk mtype=\"seg\" mid=\"1\"> that no segment of <seg-source> takes (none has its mid, or another mrk of the target has it)"
check "target mrks of one mid: no output" test ! -e "$tmp/mid2.out.xlf"

# --- XLIFF 2 size limits on a unit of several segments, on a group.
# An engine that makes each line one character longer.
cat >"$tmp/longer.sh" <<'EOD'
#!/bin/sh
exec awk '{ print "X" toupper($0); fflush() }'
EOD
chmod +x "$tmp/longer.sh"
# x2 FILE UNITS: an XLIFF 2.0 document of UNITS under the profile.
x2() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" srcLang="en" trgLang="es">\n'
    printf '<file id="f1"><slr:profiles generalProfile="xliff:codepoints"/>\n%s\n</file></xliff>\n' "$2"
  } >"$1"
}
x2 "$tmp/slr.xlf" '<unit id="u1" slr:sizeRestriction="11"><segment><source>Save.</source></segment> <segment><source>Open.</source></segment></unit>
<unit id="u2" slr:sizeRestriction="12"><segment><source>Save.</source></segment> <segment><source>Open.</source></segment></unit>
<group id="g1" slr:sizeRestriction="9"><unit id="u3"><segment><source>Yes</source></segment></unit>
<unit id="u4"><segment><source>No</source></segment></unit></group>
<group id="g2" slr:sizeRestriction="6"><unit id="u5"><segment><source>Yes</source></segment></unit>
<unit id="u6"><segment><source>No</source></segment></unit></group>
<unit id="u7"><segment><source>Free</source></segment></unit>'
within "slr on a unit, a group" 3 20 300 "$x" translate "$tmp/slr.xlf" \
  -o "$tmp/slr.out.xlf" --mt "cmd:$tmp/longer.sh"
check "slr on a unit of two segments: too long together, no target" \
  grep -q -x -F \
  '<unit id="u1" slr:sizeRestriction="11"><segment><source>Save.</source></segment> <segment><source>Open.</source></segment></unit>' \
  "$tmp/slr.out.xlf"
check "slr on a unit of two segments: one that fits, translated" \
  grep -q -F \
  '<unit id="u2" slr:sizeRestriction="12"><segment state="translated" subState="xliffmt:mt"><source>Save.</source><target>XSAVE.</target></segment> <segment state="translated" subState="xliffmt:mt"><source>Open.</source><target>XOPEN.</target></segment></unit>' \
  "$tmp/slr.out.xlf"
check "slr on a group: too long together, no target" grep -q -x -F \
  '<unit id="u6"><segment><source>No</source></segment></unit></group>' \
  "$tmp/slr.out.xlf"
check "slr on a group: one that fits, translated" grep -q -F \
  '<target>XNO</target></segment></unit></group>' "$tmp/slr.out.xlf"
for s in 5:u1/1 6:u1/2; do
  check "slr on a unit of two segments: ${s#*:} told" grep -q -x -F \
    "xliffmt: $tmp/slr.xlf:${s%%:*}: segment ${s#*:} not translated: the translations of its <unit>'s segments are 12 characters together, more than the slr:sizeRestriction=\"11\" of the <unit>" \
    "$tmp/err"
done
for s in 11:u5 12:u6; do
  check "slr on a group: ${s#*:} told" grep -q -x -F \
    "xliffmt: $tmp/slr.xlf:${s%%:*}: segment ${s#*:}#0 not translated: the translations of the units of its <group> are 7 characters together, more than the slr:sizeRestriction=\"6\" of the <group>" \
    "$tmp/err"
done
check "slr: counted" grep -q -F '7 units, 4 translated, 3 left as they were' \
  "$tmp/err"

# Across the end of a window: 255 units, the unit of two segments (the
# 256th and 257th segments); 254 more, the group of three units (a window
# cut after the 256th segment would end after its first).
awk 'BEGIN {
  for (i = 1; i <= 255; i++)
    printf "<unit id=\"a%d\"><segment><source>Line %d.</source></segment></unit>\n", i, i
  print "<unit id=\"u1\" slr:sizeRestriction=\"9\"><segment><source>Save.</source></segment> <segment><source>Open.</source></segment></unit>"
  for (i = 1; i <= 254; i++)
    printf "<unit id=\"b%d\"><segment><source>Line %d.</source></segment></unit>\n", i, i
  print "<group id=\"g1\" slr:sizeRestriction=\"6\"><unit id=\"u2\"><segment><source>Yes</source></segment></unit>"
  print "<unit id=\"u3\"><segment><source>No</source></segment></unit>"
  printf "<unit id=\"u4\"><segment><source>Ok</source></segment></unit></group>"
}' >"$tmp/units.txt"
x2 "$tmp/win.xlf" "$(cat "$tmp/units.txt")"
within "slr across windows" 3 20 300 "$x" translate "$tmp/win.xlf" \
  -o "$tmp/win.out.xlf" --mt identity
check "slr across windows: the unit, no target" grep -q -x -F \
  '<unit id="u1" slr:sizeRestriction="9"><segment><source>Save.</source></segment> <segment><source>Open.</source></segment></unit>' \
  "$tmp/win.out.xlf"
check "slr across windows: the group, no target" grep -q -x -F \
  '<unit id="u4"><segment><source>Ok</source></segment></unit></group>' \
  "$tmp/win.out.xlf"
check "slr across windows: the others translated" grep -q -F \
  '<target>Line 255.</target>' "$tmp/win.out.xlf"
check "slr across windows: told" sh -c "
  grep -c ' not translated: the translations of ' '$tmp/err' | grep -q -x 5"
check "slr across windows: counted" grep -q -F \
  '513 units, 509 translated, 4 left as they were' "$tmp/err"

# --- The state of a target filled in place.
cat >"$tmp/bad.sh" <<'EOD'
#!/bin/sh
exec awk '{ if ($0 ~ /Bad/) print ""; else print toupper($0); fflush() }'
EOD
chmod +x "$tmp/bad.sh"
x12 "$tmp/state.xlf" '<trans-unit id="u1"><source>One. Two.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk></seg-source><target state="translated" state-qualifier="leveraged-tm"><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2"/></target></trans-unit>
<trans-unit id="u2"><source>One. Two. Bad.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk> <mrk mtype="seg" mid="3">Bad.</mrk></seg-source><target xml:lang="es" state = "translated" state-qualifier = '"'exact-match'"' ><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2"/> <mrk mtype="seg" mid="3"/></target></trans-unit>'
within "target filled in place" 3 20 300 "$x" translate "$tmp/state.xlf" \
  -o "$tmp/state.out.xlf" --mt "cmd:$tmp/bad.sh"
check "target filled in place: machine translation" grep -q -F \
  '<target state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2">TWO.</mrk></target>' \
  "$tmp/state.out.xlf"
check "target filled in place: a segment failed" grep -q -F \
  '<target xml:lang="es" state = "needs-translation" ><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2">TWO.</mrk> <mrk mtype="seg" mid="3">Bad.</mrk></target>' \
  "$tmp/state.out.xlf"

# --- A Trados match translated again.
x12 "$tmp/match.xlf" "<trans-unit id=\"u1\" $sdl_ns><source>One. Two.</source><seg-source><mrk mtype=\"seg\" mid=\"1\">One.</mrk> <mrk mtype=\"seg\" mid=\"2\">Two.</mrk></seg-source><target><mrk mtype=\"seg\" mid=\"1\">Uno.</mrk> <mrk mtype=\"seg\" mid=\"2\">Dos.</mrk></target><sdl:seg-defs><sdl:seg id=\"1\" conf=\"Translated\" origin=\"tm\" origin-system=\"Main TM\" percent=\"100\" text-match=\"SourceAndTarget\"/><sdl:seg id=\"2\" conf=\"Draft\" origin=\"interactive\" percent = '85' struct-match=\"true\"><sdl:prev-origin origin=\"tm\" percent=\"85\"/></sdl:seg></sdl:seg-defs></trans-unit>"
within "Trados match translated again" 0 20 300 "$x" translate \
  "$tmp/match.xlf" -o "$tmp/match.out.xlf" -q --overwrite --mt "cmd:$tmp/up.sh"
check "Trados match translated again: its sdl:segs" grep -q -F \
  '<target><mrk mtype="seg" mid="1">ONE.</mrk> <mrk mtype="seg" mid="2">TWO.</mrk></target><sdl:seg-defs><sdl:seg id="1" conf="Draft" origin="mt" origin-system="xliffmt"/><sdl:seg id="2" conf="Draft" origin="mt" origin-system="xliffmt"><sdl:prev-origin origin="tm" percent="85"/></sdl:seg></sdl:seg-defs>' \
  "$tmp/match.out.xlf"

# --- A copy of the source that says it needs translation.
x12 "$tmp/copy.xlf" '<trans-unit id="u1"><source>One <x id="1"/>here.</source><target state="needs-translation">One <x id="1"/>here.</target></trans-unit>
<trans-unit id="u2"><source>Two.</source><target xml:lang="es" state="new">Two.</target></trans-unit>
<trans-unit id="u3"><source>Three.</source><target state="needs-translation">Tres viejo.</target></trans-unit>
<trans-unit id="u4"><source>Four.</source><target state="translated">Four.</target></trans-unit>'
within "copy of the source" 0 20 300 "$x" translate "$tmp/copy.xlf" \
  -o "$tmp/copy.out.xlf" --mt "cmd:$tmp/up.sh"
check "copy of the source, needs-translation: translated" grep -q -x -F \
  '<trans-unit id="u1"><source>One <x id="1"/>here.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">ONE <x id="1"/>HERE.</target></trans-unit>' \
  "$tmp/copy.out.xlf"
check "copy of the source, new: translated" grep -q -x -F \
  '<trans-unit id="u2"><source>Two.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">TWO.</target></trans-unit>' \
  "$tmp/copy.out.xlf"
for u in 3 4; do
  check "copy of the source: u$u kept" grep -q -x -F \
    "$(grep "<trans-unit id=\"u$u\">" "$tmp/copy.xlf")" "$tmp/copy.out.xlf"
done
check "copy of the source: counted" grep -q -F \
  '4 units, 2 translated, 2 left as they were' "$tmp/err"

finish
