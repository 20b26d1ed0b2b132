#!/bin/sh
# test_hostile_round11.sh: exit 0 means the output is right, for XLIFF
# as the tools that make it write it.
#   - XLIFF 1.2 <mrk mtype="protected"> (Trados's and memoQ's locked
#     text, Okapi's translate="no"), in a <source> and inside a
#     seg-source's segment: its text is kept as it is in the target,
#     the element one code (its text went to the engine and came back
#     translated, and the pseudo engine moved other words into it,
#     exit 0).
#   - XLIFF 2 <sm translate="no"/> whose <em/> is in the next segment, or
#     whose range holds one end of an <sc/>/<ec/> pair: it cannot be one
#     code kept whole, so its unit is left as it is, with a warning
#     naming the unit (its text was translated, exit 0, no word).
#   - XLIFF 1.2 <trans-unit maxwidth="N" size-unit="char"> (a string of a
#     user interface) whose translation is longer: its segments fail,
#     naming the unit, its target not written, exit 3 (the longer
#     target was written, exit 0); one that fits, or a maxwidth in
#     pixels, which cannot be measured, is translated. XLIFF 2 the same:
#     a <unit slr:sizeRestriction="[min,]max"> of one segment, under its
#     <file>'s <slr:profiles generalProfile="xliff:codepoints">.
#   - a Trados target that lacks the <mrk mtype="seg"> of some segments
#     (only the first, or the first and the last, as Trados leaves one
#     partly translated): each added mrk comes with the white space the
#     seg-source has beside it (the sentences were glued together,
#     "Uno.TWO.THREE.", exit 0). Trados's own form, with sdl:seg-defs.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round11
x=$XLIFFMT

# An engine that writes each line in upper case.
cat >"$tmp/up.sh" <<'EOF'
#!/bin/sh
exec awk '{ print toupper($0); fflush() }'
EOF
chmod +x "$tmp/up.sh"

# x12 FILE UNITS: an XLIFF 1.2 document of UNITS (one line).
x12() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n%s\n' "$2"
    printf '</body></file></xliff>\n'
  } >"$1"
}
# target_is DESC FILE WANT: the first <target> of FILE, start tag aside,
# is WANT.
target_is() {
  got=$(LC_ALL=C sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p' "$2" |
    head -n 1)
  if [ "$got" = "$3" ]; then
    pass "$1"
  else
    fail "$1: target '$got', expected '$3'"
  fi
}

# --- <mrk mtype="protected">: text not to be translated.
x12 "$tmp/prot.xlf" '<trans-unit id="u1"><source>An <mrk mtype="protected">Acme Widget</mrk> for you.</source></trans-unit>'
within "protected mrk, upper case" 0 20 300 "$x" translate "$tmp/prot.xlf" \
  -o "$tmp/prot.up.xlf" -q --mt "cmd:$tmp/up.sh"
target_is "protected mrk, upper case: its text kept" "$tmp/prot.up.xlf" \
  'AN <mrk mtype="protected">Acme Widget</mrk> FOR YOU.'
within "protected mrk, pseudo" 0 20 300 "$x" translate "$tmp/prot.xlf" \
  -o "$tmp/prot.ps.xlf" -q --mt pseudo
check "protected mrk, pseudo: its text alone in it" sh -c \
  "grep -o '<target.*</target>' '$tmp/prot.ps.xlf' |
    grep -q -F '<mrk mtype=\"protected\">Acme Widget</mrk>'"
x12 "$tmp/seg.xlf" '<trans-unit id="u1"><source>Press the Start Button now.</source><seg-source><mrk mtype="seg" mid="1">Press the <mrk mtype="protected" mid="p1">Start Button</mrk> now.</mrk></seg-source><target><mrk mtype="seg" mid="1"/></target></trans-unit>'
within "protected mrk in a segment" 0 20 300 "$x" translate "$tmp/seg.xlf" \
  -o "$tmp/seg.up.xlf" -q --mt "cmd:$tmp/up.sh"
target_is "protected mrk in a segment: its text kept" "$tmp/seg.up.xlf" \
  '<mrk mtype="seg" mid="1">PRESS THE <mrk mtype="protected" mid="p1">Start Button</mrk> NOW.</mrk>'
within "protected mrk: check" 0 20 300 "$x" check "$tmp/prot.up.xlf"

# --- XLIFF 2 <sm translate="no"/> ranges that cannot be one code.
# x2 FILE UNITS: an XLIFF 2.0 document of UNITS (one line).
x2() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">\n'
    printf '<file id="f1">\n%s\n</file></xliff>\n' "$2"
  } >"$1"
}
x2 "$tmp/sm.xlf" '<unit id="u1"><segment><source>Press <sm id="m1" translate="no"/>Start Now</source></segment><segment><source>Button<em startRef="m1"/> then wait.</source></segment></unit>
<unit id="u2"><segment><source>The <sm id="m1" translate="no"/>Acme <sc id="1"/>Box<em startRef="m1"/> is<ec startRef="1"/> here.</source></segment></unit>
<unit id="u3"><segment><source>The <sm id="m1" translate="no"/>Acme <pc id="1">Box</pc><em startRef="m1"/> is here.</source></segment></unit>'
cp "$tmp/sm.xlf" "$tmp/sm.before"
within "sm translate=no apart" 0 20 300 "$x" translate "$tmp/sm.xlf" \
  -o "$tmp/sm.up.xlf" --mt "cmd:$tmp/up.sh"
unchanged "sm translate=no apart: the input" "$tmp/sm.xlf" "$tmp/sm.before"
check "sm translate=no across segments: unit left as it is" grep -q -x -F \
  '<unit id="u1"><segment><source>Press <sm id="m1" translate="no"/>Start Now</source></segment><segment><source>Button<em startRef="m1"/> then wait.</source></segment></unit>' \
  "$tmp/sm.up.xlf"
check "sm translate=no around an sc: unit left as it is" grep -q -x -F \
  '<unit id="u2"><segment><source>The <sm id="m1" translate="no"/>Acme <sc id="1"/>Box<em startRef="m1"/> is<ec startRef="1"/> here.</source></segment></unit>' \
  "$tmp/sm.up.xlf"
check "sm translate=no around a pc: translated, its range kept" grep -q -F \
  '<target>THE <sm id="m1" translate="no"/>Acme <pc id="1">Box</pc><em startRef="m1"/> IS HERE.</target>' \
  "$tmp/sm.up.xlf"
for u in 1:4 2:5; do
  check "sm translate=no apart: the warning for u${u%%:*}" grep -q -x -F \
    "xliffmt: $tmp/sm.xlf:${u#*:}: warning: segment u${u%%:*}: <unit> not translated: an <sm translate=\"no\"> of it ends outside the element it is in, or holds one end of another pair, so its text could not be kept from the translation" \
    "$tmp/err"
done
check "sm translate=no apart: counted as left" grep -q -F \
  '3 units, 1 translated, 2 left as they were' "$tmp/err"

# --- XLIFF 1.2 maxwidth in characters.
x12 "$tmp/mw.xlf" '<trans-unit id="u1" maxwidth="9" size-unit="char"><source>Save file</source></trans-unit>
<trans-unit id="u2" maxwidth="12" size-unit="char"><source>Save. Open.</source></trans-unit>
<trans-unit id="u3" maxwidth="9" size-unit="char"><source>Save all</source></trans-unit>
<trans-unit id="u4" maxwidth="5" size-unit="pixel"><source>Save file</source></trans-unit>'
# An engine that makes each line one character longer.
cat >"$tmp/longer.sh" <<'EOF'
#!/bin/sh
exec awk '{ print "X" toupper($0); fflush() }'
EOF
chmod +x "$tmp/longer.sh"
within "maxwidth" 3 20 300 "$x" translate "$tmp/mw.xlf" -o "$tmp/mw.out.xlf" \
  --mt "cmd:$tmp/longer.sh"
check "maxwidth: one segment too long, no target" grep -q -x -F \
  '<trans-unit id="u1" maxwidth="9" size-unit="char"><source>Save file</source></trans-unit>' \
  "$tmp/mw.out.xlf"
check "maxwidth: two segments too long together, no target" grep -q -x -F \
  '<trans-unit id="u2" maxwidth="12" size-unit="char"><source>Save. Open.</source></trans-unit>' \
  "$tmp/mw.out.xlf"
check "maxwidth: one that fits, translated" grep -q -F \
  '>XSAVE ALL</target></trans-unit>' "$tmp/mw.out.xlf"
check "maxwidth in pixels: translated" grep -q -F \
  '>XSAVE FILE</target></trans-unit>' "$tmp/mw.out.xlf"
for s in 4:u1#0:10:9 5:u2#0:13:12 5:u2#1:13:12; do
  l=${s%%:*} s=${s#*:}
  id=${s%%:*} s=${s#*:}
  check "maxwidth: $id told" grep -q -x -F \
    "xliffmt: $tmp/mw.xlf:$l: segment $id not translated: the translation is ${s%%:*} characters, more than the maxwidth=\"${s#*:}\" (size-unit=\"char\") of its <trans-unit>" \
    "$tmp/err"
done

x2 "$tmp/slr.xlf" '<slr:profiles xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" generalProfile="xliff:codepoints"/>
<unit id="u1" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" slr:sizeRestriction="9"><segment><source>Save file</source></segment></unit>
<unit id="u2" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" slr:sizeRestriction="2,9"><segment><source>Save all</source></segment></unit>'
within "slr:sizeRestriction" 3 20 300 "$x" translate "$tmp/slr.xlf" \
  -o "$tmp/slr.out.xlf" --mt "cmd:$tmp/longer.sh"
check "slr:sizeRestriction: too long, no target" grep -q -x -F \
  '<unit id="u1" xmlns:slr="urn:oasis:names:tc:xliff:sizerestriction:2.0" slr:sizeRestriction="9"><segment><source>Save file</source></segment></unit>' \
  "$tmp/slr.out.xlf"
check "slr:sizeRestriction: one that fits, translated" grep -q -F \
  '<target>XSAVE ALL</target>' "$tmp/slr.out.xlf"
check "slr:sizeRestriction: told" grep -q -x -F \
  "xliffmt: $tmp/slr.xlf:5: segment u1#0 not translated: the translation is 10 characters, more than the slr:sizeRestriction=\"9\" of its <unit>" \
  "$tmp/err"
within "slr:sizeRestriction: check" 0 20 300 "$x" check "$tmp/slr.xlf"

# --- A Trados target lacking some segments' mrks.
x12 "$tmp/gap.xlf" '<trans-unit id="u1" xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0"><source>One. Two. Three.</source><seg-source><mrk mtype="seg" mid="1">One.</mrk> <mrk mtype="seg" mid="2">Two.</mrk>  <mrk mtype="seg" mid="3">Three.</mrk></seg-source><target><mrk mtype="seg" mid="1">Uno.</mrk></target><sdl:seg-defs><sdl:seg id="1" conf="Translated"/><sdl:seg id="2"/><sdl:seg id="3"/></sdl:seg-defs></trans-unit>
<trans-unit id="u2" xmlns:sdl="http://sdl.com/FileTypes/SdlXliff/1.0"><source>One. Two. Three.</source><seg-source><mrk mtype="seg" mid="4">One.</mrk> <mrk mtype="seg" mid="5">Two.</mrk> <mrk mtype="seg" mid="6">Three.</mrk></seg-source><target><mrk mtype="seg" mid="4">Uno.</mrk> <mrk mtype="seg" mid="6">Tres.</mrk></target><sdl:seg-defs><sdl:seg id="4" conf="Translated"/><sdl:seg id="5"/><sdl:seg id="6" conf="Translated"/></sdl:seg-defs></trans-unit>'
within "target lacking mrks" 0 20 300 "$x" translate "$tmp/gap.xlf" \
  -o "$tmp/gap.out.xlf" -q --mt "cmd:$tmp/up.sh"
check "target lacking the last mrks: the white space kept" grep -q -F \
  '<target><mrk mtype="seg" mid="1">Uno.</mrk> <mrk mtype="seg" mid="2">TWO.</mrk>  <mrk mtype="seg" mid="3">THREE.</mrk></target>' \
  "$tmp/gap.out.xlf"
check "target lacking a middle mrk: the white space kept" grep -q -F \
  '<target><mrk mtype="seg" mid="4">Uno.</mrk> <mrk mtype="seg" mid="5">TWO.</mrk> <mrk mtype="seg" mid="6">Tres.</mrk></target>' \
  "$tmp/gap.out.xlf"

finish
