#!/bin/sh
# test_cli_xliff2_valid.sh -- valid XLIFF 2 documents are read, checked
# and translated: an <sm>/<sc> in an <ignorable> whose end is in a segment
# (and the reverse), the ignorable given a copy of its source as target
# when a new target holds the end (else the unit left as it is, told),
# targets composed in another order (order); a target whose own marker a
# Matches or Glossary entry names (ref="#t=m2") kept with --overwrite; a <pc>
# with a dataRef the schema does not allow is an error of check, and
# never written twice as an <sc>'s dataRef; check's warnings on a target's
# codes in the names and ids of the file; a target in state initial (or
# none) that copies its source (xliff-simple-merge's new message) is
# translated, a translated one never; --alt-trans writes an <sc>/<ec>
# whose partner is in another segment isolated="yes" in its match;
# --seg-source cuts each segment of a unit of several, unless its targets
# have an order. Exact outputs compared.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/pairs.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
cli_setup xliff2_valid
x=$XLIFFMT
cd "$tmp" || exit 99
cp "$fx/pairs.xlf" "$fx/merged.xlf" "$fx/refs.xlf" .

# Ignorables and order: check finds no error, translate writes each code.
expect_exit 0 "check pairs.xlf" "$x" check pairs.xlf -q
check "check pairs.xlf: no error" test "$(grep -c ': error' err)" -eq 0
expect_exit 0 "pseudo pairs.xlf" "$x" translate pairs.xlf --mt pseudo \
  -o pairs.out.xlf
sed -n '/<target>/p' pairs.out.xlf >got
cat >want <<'EOD'
    <target>[fírst Thé séñtéñçé. ~~~~~~]</target>
    <target> <sm id="m2" type="comment" value="a note"/></target>
    <target>[séçóñd Thé <em startRef="m2"/>séñtéñçé. ~~~~~~]</target>
    <target>La tercera frase.</target>
EOD
check "pseudo pairs.xlf: every code in place, the <sm> in the ignorable's target" \
  cmp want got || diff want got
check "pseudo pairs.xlf: the ignorable's target after its source" test \
  "$(sed -n '/^ *<ignorable>/,/<\/ignorable>/p' pairs.out.xlf)" = "$(
    printf '%s\n' '   <ignorable>' \
      '    <source> <sm id="m2" type="comment" value="a note"/></source>' \
      '    <target> <sm id="m2" type="comment" value="a note"/></target>' \
      '   </ignorable>'
  )"
check "pseudo pairs.xlf: the reordered unit as it was" cmp \
  "$(sed -n '/unit id="ord"/,/<\/unit>/p' pairs.xlf >a; echo a)" \
  "$(sed -n '/unit id="ord"/,/<\/unit>/p' pairs.out.xlf >b; echo b)"
expect_exit 0 "pseudo pairs.xlf --overwrite" "$x" translate pairs.xlf \
  --mt pseudo --overwrite -o pairs.ow.xlf -q
check "--overwrite: the reordered unit as it was" cmp a \
  "$(sed -n '/unit id="ord"/,/<\/unit>/p' pairs.ow.xlf >c; echo c)"
sed 's|<target>La tercera frase.</target>||' \
  pairs.xlf >hole.xlf
expect_exit 0 "a reordered unit with a segment to translate" "$x" translate \
  hole.xlf --mt pseudo -o hole.out.xlf
check "a reordered unit: the warning" grep -qxF 'xliffmt: hole.xlf:27: warning: segment ord: <unit> not translated: its targets have an order of their own (order), and a new target in the place of its <segment> would break it' err
# Every output passes check and the schema.
lint=${XMLLINT:-xmllint}
xsd=${XMT_TEST_DATA:-}/xliff-schema/2.0/xliff_core_2.0.xsd
schema_valid() { "$lint" --noout --nonet --schema "$xsd" "$1" 2>/dev/null; }
for f in pairs.out.xlf pairs.ow.xlf hole.out.xlf; do
  expect_exit 0 "check $f" "$x" check "$f" -q
  check "check $f: no error" test "$(grep -c ': error' err)" -eq 0
  if command -v "$lint" >/dev/null 2>&1 && [ -f "$xsd" ]; then
    check "$f: valid XLIFF 2.0 core" schema_valid "$f"
  fi
done

# The ignorable's partner of a code whose segment keeps its target: a
# copy of it as target would have an <sm> without its <em> in the
# targets; the unit is left as it is, told, the next one translated.
cat >kept.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
 <file id="f1">
  <unit id="kept">
   <segment id="s1">
    <source><sc id="1"/>The first sentence.</source>
   </segment>
   <ignorable>
    <source xml:space="preserve"><ec startRef="1"/> <sm id="m"/></source>
   </ignorable>
   <segment id="s2" state="final">
    <source>The second<em startRef="m"/> sentence.</source>
    <target>La segunda frase.</target>
   </segment>
  </unit>
  <unit id="after">
   <segment>
    <source>Good night.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check kept.xlf" "$x" check kept.xlf -q
expect_exit 0 "kept.xlf" "$x" translate kept.xlf --mt pseudo -o kept.out.xlf
check "kept.xlf: the warning" grep -qxF 'xliffmt: kept.xlf:5: warning: segment kept: <unit> not translated: a code of its segments pairs with one in an <ignorable> without a <target>, and a copy of its source as target would not pair with the targets the unit keeps' err
# The unit left is neither sent to the engine nor counted as translated.
check "kept.xlf: the summary" grep -qE \
  '^xliffmt: kept.xlf: 2 units, 1 translated, 1 left as they were; 1 segments sent to pseudo in 1 calls, ' err
sed '/<unit id="after">/,$d' kept.xlf >a
sed '/<unit id="after">/,$d' kept.out.xlf >b
check "kept.xlf: the unit as it was" cmp a b
check "kept.xlf: the next unit translated" grep -qF \
  '<target>[ñíght. Góód ~~~~]</target>' kept.out.xlf
expect_exit 0 "check kept.out.xlf" "$x" check kept.out.xlf -q
# Without the final target, s2 is translated too: the ignorable gets a
# target with <ec> and <sm>, each paired in the targets.
sed 's| state="final"||; s|<target>La segunda frase.</target>||' kept.xlf \
  >both.xlf
expect_exit 0 "both.xlf" "$x" translate both.xlf --mt pseudo -o both.out.xlf \
  -q
check "both.xlf: the ignorable's target" grep -qxF \
  '    <target xml:space="preserve"><ec startRef="1"/> <sm id="m"/></target>' \
  both.out.xlf
expect_exit 0 "check both.out.xlf" "$x" check both.out.xlf -q

# --overwrite: a target whose marker (not in its source) a match names is
# kept, told; one whose named marker its source has too is replaced (the
# new target has it), and so is one named by nothing of its unit.
expect_exit 0 "refs.xlf --overwrite" "$x" translate refs.xlf --mt pseudo \
  --overwrite -o refs.out.xlf
check "refs.xlf --overwrite: as expected" cmp "$fx/expected/refs.overwrite.xlf" \
  refs.out.xlf || diff "$fx/expected/refs.overwrite.xlf" refs.out.xlf
check "refs.xlf --overwrite: the warning" grep -qxF 'xliffmt: refs.xlf:14: warning: segment u1: <target> not replaced: ref="#t=m2" (line 8) names its element id="m2", which its source does not have and a new target would not' err
check "refs.xlf --overwrite: the target kept is not counted as translated" \
  grep -qE '^xliffmt: refs.xlf: 3 units, 2 translated, 1 left as they were; 2 segments sent to pseudo in 2 calls, ' err
expect_exit 0 "check refs.out.xlf" "$x" check refs.out.xlf -q
if command -v "$lint" >/dev/null 2>&1 && [ -f "$xsd" ]; then
  check "refs.out.xlf: valid XLIFF 2.0 core" schema_valid refs.out.xlf
fi

# check: a target that lacks a code of its source, or has one it has not,
# is told in XLIFF 2's names (<ec startRef>, <ph id>) with the segment's
# id as written, or its place; a unit whose targets are composed with
# order is compared whole.
cat >codes.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
 <file id="f1">
  <unit id="u1">
   <segment id="s1">
    <source>A <pc id="1">b</pc> <ph id="2"/> <sc id="5" isolated="yes"/>c.</source>
    <target>A <pc id="1">b</pc> <ph id="3"/> c.</target>
   </segment>
   <segment>
    <source>x</source>
    <target>y <ph id="9"/></target>
   </segment>
   <segment>
    <source>x<ph id="10"/></source>
    <target/>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check codes.xlf" "$x" check codes.xlf -q
cat >want <<'EOD'
xliffmt: codes.xlf:5:4: warning: <target> of <segment id="s1"> lacks the inline code <ph id="2"> of its <source> (unit u1)
xliffmt: codes.xlf:5:4: warning: <target> of <segment id="s1"> has an inline code <ph id="3"> not in its <source> (unit u1)
xliffmt: codes.xlf:9:4: warning: <target> of segment 2 has an inline code <ph id="9"> not in its <source> (unit u1)
EOD
check "check codes.xlf: the warnings" cmp want err || diff want err
sed 's|La primera frase.<em startRef="m1"/>|La primera frase.|' pairs.xlf \
  >order.xlf
expect_exit 1 "check order.xlf" "$x" check order.xlf -q
cat >want <<'EOD'
xliffmt: order.xlf:25:23: error: <sm id="m1"> has no <em startRef="m1"> in the targets of its <unit> (XLIFF 2.0 §4.2.3.7) (unit ord)
xliffmt: order.xlf:18:3: warning: the <target>s of the <unit> lack the inline code <em startRef="m1"> of its <source>s (unit ord)
EOD
check "check order.xlf: the unit's targets compared whole" cmp want err ||
  diff want err
expect_exit 0 "check pairs.xlf: no warning" "$x" check pairs.xlf -q
check "check pairs.xlf: nothing told" test ! -s err

# dataRef on a <pc>: the schema does not allow it.
cat >pcref.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
 <file id="f1">
  <unit id="u1">
   <originalData>
    <data id="d1">&lt;b></data>
    <data id="d2">&lt;/b></data>
   </originalData>
   <segment>
    <source>One sentence <pc id="1" dataRefStart="d1" dataRef="d2">here. Another</pc> one.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 1 "check: dataRef on a <pc>" "$x" check pcref.xlf -q
check "check: dataRef on a <pc>: the rule" grep -qxF \
  'xliffmt: pcref.xlf:10:26: error: <pc> has an attribute dataRef that the XLIFF 2 core schema does not allow on it (XLIFF 2.0 §4.2.3.3) (unit u1)' err
expect_exit 0 "--seg-source on a <pc> with a dataRef" "$x" translate \
  pcref.xlf --mt identity --seg-source -o pcref.out.xlf -q
cat >want <<'EOD'
    <source>One sentence <sc id="1" dataRef="d1"/>here.</source>
    <target>One sentence <sc id="1" dataRef="d1"/>here.</target>
    <source> </source>
    <source>Another<ec startRef="1"/> one.</source>
    <target>Another<ec startRef="1"/> one.</target>
EOD
grep -E '<(source|target)>' pcref.out.xlf >got
check "--seg-source: one dataRef each" cmp want got || diff want got

# Copies of the source in state initial are translated.
expect_exit 0 "merged.xlf" "$x" translate merged.xlf --mt pseudo \
  -o merged.out.xlf
sed -n '/<segment/p;/<target>/p' merged.out.xlf >got
cat >want <<'EOD'
   <segment state="translated" subState="xliffmt:mt">
    <target>[tó Wélçómé shóp, óúr <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>! ~~~~~~~]</target>
   <segment state="translated" subState="xliffmt:mt">
    <target>[mórñíñg. Góód ~~~~]</target>
   <segment state="translated">
    <target>Good night.</target>
   <segment state="initial">
    <target>Buenas tardes.</target>
EOD
check "merged.xlf: copies translated, translated ones not" cmp want got ||
  diff want got
check "merged.xlf: the summary says so" grep -qxF \
  'xliffmt: merged.xlf: 2 targets that copied their source filled (state initial)' err
# --alt-trans: a match holds one segment, so an <sc> or <ec> whose
# partner is in another segment is written isolated="yes" in it (an
# <ec>'s startRef as its id); a pair within the segment stays a pair.
cat >iso.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
<file id="f1">
<unit id="u1">
<segment id="s1"><source>First <sc id="1" type="fmt"/>bold words.</source></segment>
<ignorable><source> </source></ignorable>
<segment id="s2"><source>Still bold<ec startRef="1" isolated="no"/> then <sc id="2"/>not<ec startRef="2"/>.</source></segment>
<segment id="s3"><source>Alone <ec id="3" isolated="yes"/>here.</source></segment>
</unit>
</file>
</xliff>
EOD
expect_exit 0 "alt-trans iso.xlf" "$x" translate iso.xlf --mt pseudo \
  --alt-trans -o iso.alt.xlf -q
sed -n '/<mtc:match /p' iso.alt.xlf >got
cat >want <<'EOD'
 <mtc:match ref="#s1" origin="xliffmt" type="mt"><source>First <sc id="1" type="fmt" isolated="yes"/>bold words.</source><target>[<sc id="1" type="fmt" isolated="yes"/>bóld Fírst wórds. ~~~~~~]</target></mtc:match>
 <mtc:match ref="#s2" origin="xliffmt" type="mt"><source>Still bold<ec id="1" isolated="yes"/> then <sc id="2"/>not<ec startRef="2"/>.</source><target>[bóld Stíll<ec id="1" isolated="yes"/> <sc id="2"/>ñót.<ec startRef="2"/> théñ ~~~~~~]</target></mtc:match>
 <mtc:match ref="#s3" origin="xliffmt" type="mt"><source>Alone <ec id="3" isolated="yes"/>here.</source><target>[héré. Álóñé <ec id="3" isolated="yes"/>~~~~]</target></mtc:match>
EOD
check "alt-trans iso.xlf: codes whose partner is in another segment isolated in the matches" \
  cmp want got || diff want got
expect_exit 0 "check iso.alt.xlf (schema and rules)" "$x" check iso.alt.xlf -q
# --seg-source on a unit of several segments: each is cut on its own,
# the new ids unique in the unit (two segments without an id: s-2, s-3);
# a unit whose targets have an order is cut too, each order renumbered
# to the place its element moved to (b's second sentence is the 4th).
cat >multi.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
<file id="f1">
<unit id="u1">
<segment><source>One here. Two <pc id="1">there</pc>.</source></segment>
<ignorable><source> </source></ignorable>
<segment><source>Three now. Four <ph id="2"/> later.</source></segment>
</unit>
<unit id="u2">
<segment id="a"><source>Kept whole.</source></segment>
<segment id="b"><source>Five. Six.</source><target order="2"></target></segment>
</unit>
</file>
</xliff>
EOD
expect_exit 0 "seg-source multi.xlf" "$x" translate multi.xlf --mt pseudo \
  --seg-source -o multi.out.xlf -q
cat >want <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
<file id="f1">
<unit id="u1">
<segment state="translated" subState="xliffmt:mt"><source>One here.</source><target>[héré. Óñé ~~~]</target></segment>
<ignorable><source> </source></ignorable>
<segment id="s-2" state="translated" subState="xliffmt:mt"><source>Two <pc id="1">there</pc>.</source><target>[<pc id="1">théré.</pc> Twó ~~~]</target></segment>
<ignorable><source> </source></ignorable>
<segment state="translated" subState="xliffmt:mt"><source>Three now.</source><target>[ñów. Thréé ~~~]</target></segment>
<ignorable><source> </source></ignorable>
<segment id="s-3" state="translated" subState="xliffmt:mt"><source>Four <ph id="2"/> later.</source><target>[<ph id="2"/>látér. Fóúr ~~~~]</target></segment>
</unit>
<unit id="u2">
<segment id="a" state="translated" subState="xliffmt:mt"><source>Kept whole.</source><target>[whólé. Képt ~~~~]</target></segment>
<segment id="b" state="translated" subState="xliffmt:mt"><source>Five.</source><target order="2">[Fívé. ~~]</target></segment>
<ignorable><source> </source></ignorable>
<segment id="b-2" state="translated" subState="xliffmt:mt"><source>Six.</source><target order="4">[Síx. ~~]</target></segment>
</unit>
</file>
</xliff>
EOD
check "seg-source multi.xlf: each segment cut, ids unique; orders renumbered" \
  cmp want multi.out.xlf || diff want multi.out.xlf
expect_exit 0 "check multi.out.xlf (schema and rules)" "$x" check \
  multi.out.xlf -q
finish
