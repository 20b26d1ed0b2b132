#!/bin/sh
# test_cli_xliff2_check.sh -- xliffmt check on the rules of XLIFF 2 that
# its schema cannot state: ids unique in their scope, <sc>/<ec> and
# <sm>/<em> that find each other in their unit, dataRefs that name a
# <data> of the unit. Each rule broken is an error naming the file, the
# line and column of the element, and its unit (the exact messages are
# compared); check then exits 1. Translated fixtures break none. Units
# are counted as the document has them, not one per segment.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/inline.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
cli_setup xliff2_check
x=$XLIFFMT
cd "$tmp" || exit 99

cat >bad.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <originalData>
    <data id="d1">&lt;b&gt;</data>
    <data id="d2">&lt;/b&gt;</data>
   </originalData>
   <segment id="s1">
    <source>A <pc id="1" dataRefStart="d1" dataRefEnd="d9">bold</pc> <ph id="2" dataRef="d3"/> word.</source>
    <target>Un <sc id="1" dataRef="d1"/>mot<ph id="2" dataRef="d2"/>.</target>
   </segment>
   <ignorable id="s1">
    <source> </source>
   </ignorable>
  </unit>
  <group id="u1">
   <unit id="u2">
    <segment id="a">
     <source>One <ph id="1"/> two <ph id="1"/> <sc id="5" isolated="yes"/>three.</source>
     <target>Un <ec startRef="7"/> deux.</target>
    </segment>
   </unit>
  </group>
  <unit id="u2">
   <segment>
    <source>Same id.</source>
   </segment>
  </unit>
 </file>
 <file id="f1">
  <unit id="u1">
   <segment>
    <source>Another file: its ids are its own.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
cat >want <<'EOD'
xliffmt: bad.xlf:13:4: error: <ignorable> id "s1" is used more than once in <unit> (first at line 9, column 4) (XLIFF 2.0 §4.3.1.21) (unit u1)
xliffmt: bad.xlf:10:15: error: dataRefEnd="d9" names no <data> in the <originalData> of its <unit> (XLIFF 2.0 §4.3.1.10) (unit u1)
xliffmt: bad.xlf:10:70: error: dataRef="d3" names no <data> in the <originalData> of its <unit> (XLIFF 2.0 §4.3.1.9) (unit u1)
xliffmt: bad.xlf:11:16: error: <sc id="1"> has no <ec startRef="1"> in the targets of its <unit> (and is not isolated="yes") (XLIFF 2.0 §4.2.3.4) (unit u1)
xliffmt: bad.xlf:17:3: error: <group> id "u1" is used more than once in its <file> (first at line 4, column 3) (XLIFF 2.0 §4.3.1.21)
xliffmt: bad.xlf:20:35: error: <ph> id "1" is used more than once in <unit> (first at line 20, column 18) (XLIFF 2.0 §4.3.1.21) (unit u2)
xliffmt: bad.xlf:21:17: error: <ec startRef="7"> has no <sc id="7"> in the targets of its <unit> (XLIFF 2.0 §4.2.3.5) (unit u2)
xliffmt: bad.xlf:25:3: error: <unit> id "u2" is used more than once in its <file> (first at line 18, column 4) (XLIFF 2.0 §4.3.1.21)
xliffmt: bad.xlf:31:2: error: <file> id "f1" is used more than once in <xliff> (first at line 3, column 2) (XLIFF 2.0 §4.3.1.21)
EOD
expect_exit 1 "check: rules broken" "$x" check bad.xlf -q
grep ': error: ' err >got
check "check: each rule broken, where" cmp want got || diff want got | head
expect_exit 1 "check --json" "$x" check bad.xlf --json
check "check --json: 9 errors" grep -q '"errors":9,' out
check "check --json: line and column" grep -q -F \
  '{"severity":"error","line":20,"column":35,"unit":"u2","message":"<ph> id \"1\" is used more than once' \
  out

# A source's <sc> without its <ec>: the document cannot be read.
sed 's|<sc id="5" isolated="yes"/>|<sc id="5"/>|' bad.xlf >open.xlf
expect_exit 1 "check: an <sc> left open in a source" "$x" check open.xlf -q
check "check: an <sc> left open: where" grep -q -F \
  'xliffmt: open.xlf:20:48: <sc id="5"> has no <ec> in its unit (unit u2)' err

# A name a message cuts short ends between characters: "€" is 3 bytes, 64
# bytes of 40 of them end with a '?' for the part of one, in a rule
# broken and in the reader's error alike.
e=$(printf '\342\202\254\342\202\254\342\202\254\342\202\254\342\202\254\342\202\254\342\202\254\342\202\254')
e40=$e$e$e$e$e
printf '%s\n' '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"><file id="f"><unit id="u"><segment><source>A<ph id="'"$e40"'"/><ph id="'"$e40"'"/></source></segment></unit></file></xliff>' >cut.xlf
sed 's|<ph id="[^"]*"/><ph|<ec startRef="'"$e40"'"/><ph|' cut.xlf >cut2.xlf
e21=$e$e$(printf '\342\202\254\342\202\254\342\202\254\342\202\254\342\202\254')
expect_exit 1 "check: an id cut short" "$x" check cut.xlf -q
check "check: an id cut short ends with ?" grep -q -F \
  "error: <ph> id \"$e21?\" is used more than once" err
expect_exit 1 "check: an id cut short, the reader's error" "$x" check cut2.xlf -q
check "check: the reader's error ends with ?" grep -q -F \
  "<ec startRef=\"$e21?\"> has no <sc> before it" err

# Counts: reseg.xlf has 8 units (u7 of two segments; one reviewed, not
# to be translated; one with a target) and 9 segments.
expect_exit 0 "check reseg.xlf" "$x" check "$fx/reseg.xlf"
sed -n 's/^  *\(units\|segments\)  *//p' out >got
printf '%s\n' '8 (7 translatable, 1 with target)' 9 >want
check "check: units of several segments counted once" cmp want got ||
  diff want got | head
expect_exit 0 "check --json reseg.xlf" "$x" check "$fx/reseg.xlf" --json
check "check --json: units counted once" grep -q -F \
  '"units":8,"translatable_units":7,"units_with_target":1,"segments":9,' out

# Rules kept: the fixtures, and what translate writes of them.
for f in "$fx"/*.xlf; do
  b=${f##*/}
  expect_exit 0 "check $b: no error" "$x" check "$f" -q
  t=$(sed -n 's/.*trgLang="\([^"]*\)".*/\1/p' "$f" | head -n 1)
  expect_exit 0 "pseudo $b" "$x" translate "$f" -t "${t:-fr}" --mt pseudo \
    -o "pseudo-$b" -q &&
    expect_exit 0 "check pseudo $b: no error" "$x" check "pseudo-$b" -q
done
finish
