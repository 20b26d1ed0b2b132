#!/bin/sh
# test_cli_xliff2_reseg.sh: pairs split by --seg-source and by matches.
# A segment with one end of a pair (<sc>/<ec>, <sm>/<em>, a <pc> or <mrk>
# end) in the white space between two of its sentences is cut as any
# other: the end is kept in the <ignorable> of that white space, which
# gets a copy of its source as <target> so that the unit's targets pair
# as its sources do; a <pc> (<mrk>) whose ends fall apart is <sc>/<ec>
# (<sm>/<em>) with dataRefStart and dataRefEnd as dataRef, never
# isolated="yes" (its partner is in the unit); the pair's other end may
# be in a sentence, in the same or another <ignorable>, or in another
# segment. A segment whose target is kept is cut where its source and
# target pair sentence by sentence, else written whole with a warning.
# With --alt-trans a match holds one segment: an <sc> or <ec>
# whose partner is in another segment is isolated="yes", an <sm> or <em>
# (which has no isolated form) is left out, its text kept. Each output is
# compared byte for byte, validates against the XLIFF 2.0 schemas
# (xmllint, when there) and check finds no error in it; so do the outputs
# of the pseudo engine, which moves words and codes.
# Env: XLIFFMT, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup xliff2_reseg
x=$XLIFFMT
cd "$tmp" || exit 99

xliff2_schema modules.xsd

# same DESC WANT GOT: GOT is WANT byte for byte.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$3" | sed -n '1,40s/^/    /p'
  fi
}

# u1: an <ec> between two sentences, its <sc> in the first; u2: a <pc>
# whose start and end are each between two sentences (with dataRefs), a
# <pc> whose end is; u3: the same of an <sm>/<em> and an <mrk>, the
# segment's empty <target> repeated; u4 (white space preserved): a whole
# pair between two sentences, an <sc> between two with its <ec> in the
# last; u5: an <ec> between the sentences of the second segment, its <sc>
# in the first.
cat >pairs.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s">
    <source>One <sc id="1"/>two. <ec startRef="1"/>Three.</source>
   </segment>
  </unit>
  <unit id="u2">
   <originalData><data id="d1">&lt;b></data><data id="d2">&lt;/b></data></originalData>
   <segment>
    <source>One. <pc id="1" dataRefStart="d1" dataRefEnd="d2"> Two. </pc> Three <pc id="2">four. </pc>Five.</source>
   </segment>
  </unit>
  <unit id="u3">
   <segment>
    <source>One <sm id="m1" type="term"/>two. <em startRef="m1"/>Three <mrk id="m2" type="term">four. </mrk>Five.</source>
    <target xml:lang="fr"></target>
   </segment>
  </unit>
  <unit id="u4">
   <segment>
    <source xml:space="preserve">One two.<sc id="1"/> <ec startRef="1"/>Three. <sc id="2"/> Four.<ec startRef="2"/></source>
   </segment>
  </unit>
  <unit id="u5">
   <segment id="a">
    <source>One <sc id="1"/>two.</source>
   </segment>
   <segment id="b">
    <source>Four. <ec startRef="1"/> Five.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check pairs.xlf" "$x" check -q pairs.xlf
cat >want.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s" state="translated" subState="xliffmt:mt">
    <source>One <sc id="1"/>two.</source>
    <target>One <sc id="1"/>two.</target>
   </segment>
   <ignorable>
    <source> <ec startRef="1"/></source>
    <target> <ec startRef="1"/></target>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>Three.</source>
    <target>Three.</target>
   </segment>
  </unit>
  <unit id="u2">
   <originalData><data id="d1">&lt;b></data><data id="d2">&lt;/b></data></originalData>
   <segment state="translated" subState="xliffmt:mt">
    <source>One.</source>
    <target>One.</target>
   </segment>
   <ignorable>
    <source> <sc id="1" dataRef="d1"/> </source>
    <target> <sc id="1" dataRef="d1"/> </target>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>Two.</source>
    <target>Two.</target>
   </segment>
   <ignorable>
    <source> <ec startRef="1" dataRef="d2"/> </source>
    <target> <ec startRef="1" dataRef="d2"/> </target>
   </ignorable>
   <segment id="s-3" state="translated" subState="xliffmt:mt">
    <source>Three <sc id="2"/>four.</source>
    <target>Three <sc id="2"/>four.</target>
   </segment>
   <ignorable>
    <source> <ec startRef="2"/></source>
    <target> <ec startRef="2"/></target>
   </ignorable>
   <segment id="s-4" state="translated" subState="xliffmt:mt">
    <source>Five.</source>
    <target>Five.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment state="translated" subState="xliffmt:mt">
    <source>One <sm id="m1" type="term"/>two.</source>
    <target xml:lang="fr">One <sm id="m1" type="term"/>two.</target>
   </segment>
   <ignorable>
    <source> <em startRef="m1"/></source>
    <target> <em startRef="m1"/></target>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>Three <sm id="m2" type="term"/>four.</source>
    <target xml:lang="fr">Three <sm id="m2" type="term"/>four.</target>
   </segment>
   <ignorable>
    <source> <em startRef="m2"/></source>
    <target> <em startRef="m2"/></target>
   </ignorable>
   <segment id="s-3" state="translated" subState="xliffmt:mt">
    <source>Five.</source>
    <target xml:lang="fr">Five.</target>
   </segment>
  </unit>
  <unit id="u4">
   <segment state="translated" subState="xliffmt:mt">
    <source xml:space="preserve">One two.</source>
    <target xml:space="preserve">One two.</target>
   </segment>
   <ignorable>
    <source xml:space="preserve"><sc id="1"/> <ec startRef="1"/></source>
    <target xml:space="preserve"><sc id="1"/> <ec startRef="1"/></target>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source xml:space="preserve">Three.</source>
    <target xml:space="preserve">Three.</target>
   </segment>
   <ignorable>
    <source xml:space="preserve"> <sc id="2"/> </source>
    <target xml:space="preserve"> <sc id="2"/> </target>
   </ignorable>
   <segment id="s-3" state="translated" subState="xliffmt:mt">
    <source xml:space="preserve">Four.<ec startRef="2"/></source>
    <target xml:space="preserve">Four.<ec startRef="2"/></target>
   </segment>
  </unit>
  <unit id="u5">
   <segment id="a" state="translated" subState="xliffmt:mt">
    <source>One <sc id="1"/>two.</source>
    <target>One <sc id="1"/>two.</target>
   </segment>
   <segment id="b" state="translated" subState="xliffmt:mt">
    <source>Four.</source>
    <target>Four.</target>
   </segment>
   <ignorable>
    <source> <ec startRef="1"/> </source>
    <target> <ec startRef="1"/> </target>
   </ignorable>
   <segment id="b-2" state="translated" subState="xliffmt:mt">
    <source>Five.</source>
    <target>Five.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "seg-source" "$x" translate pairs.xlf -o seg.xlf --mt identity \
  --seg-source -q &&
  same "seg-source: each pair's end between sentences in an <ignorable>" \
    want.xlf seg.xlf
xliff2_valid "seg-source" seg.xlf
expect_exit 0 "seg-source, pseudo" "$x" translate pairs.xlf -o pseudo.xlf \
  --mt pseudo --seg-source -q
xliff2_valid "seg-source, pseudo" pseudo.xlf

# A segment whose target is kept (a translator's): its source and its
# target are cut into sentences, and paired when they are as many (u1:
# each <segment> keeps the state and subState; u3: white space that
# differs in the target is the target of its <ignorable>; u5: entities
# kept as written); when they are not (u2), the segment is written whole
# with a warning, never a sentence with another's translation. u4 has
# codes, in the same sentences of source and target: cut too
# (test_cli_xliff2_reseg_codes.sh has more). u6: no target, translated
# and cut as before.
cat >kept.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s" state="translated" subState="my:done">
    <source>One dog. Two cats.</source>
    <target>Un chien. Deux chats.</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment>
    <source>One dog. Two cats.</source>
    <target>Un chien et deux chats.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment>
    <source> One dog. Two cats.  </source>
    <target>Un chien.  Deux chats.</target>
   </segment>
  </unit>
  <unit id="u4">
   <segment>
    <source>One <ph id="1"/>dog. Two cats.</source>
    <target>Un <ph id="1"/>chien. Deux chats.</target>
   </segment>
  </unit>
  <unit id="u5">
   <segment>
    <source>Tom &amp; Jerry. Two &lt;cats&gt;.</source>
    <target>Tom &amp; Jerry. Deux &lt;chats&gt;.</target>
   </segment>
  </unit>
  <unit id="u6">
   <segment>
    <source>Three birds. Four fish.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check kept.xlf" "$x" check -q kept.xlf
cat >want-kept.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s" state="translated" subState="my:done">
    <source>One dog.</source>
    <target>Un chien.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated" subState="my:done">
    <source>Two cats.</source>
    <target>Deux chats.</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment>
    <source>One dog. Two cats.</source>
    <target>Un chien et deux chats.</target>
   </segment>
  </unit>
  <unit id="u3">
   <ignorable>
    <source> </source>
    <target></target>
   </ignorable>
   <segment>
    <source>One dog.</source>
    <target>Un chien.</target>
   </segment>
   <ignorable>
    <source> </source>
    <target>  </target>
   </ignorable>
   <segment id="s-2">
    <source>Two cats.</source>
    <target>Deux chats.</target>
   </segment>
   <ignorable>
    <source>  </source>
    <target></target>
   </ignorable>
  </unit>
  <unit id="u4">
   <segment>
    <source>One <ph id="1"/>dog.</source>
    <target>Un <ph id="1"/>chien.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2">
    <source>Two cats.</source>
    <target>Deux chats.</target>
   </segment>
  </unit>
  <unit id="u5">
   <segment>
    <source>Tom &amp; Jerry.</source>
    <target>Tom &amp; Jerry.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2">
    <source>Two &lt;cats&gt;.</source>
    <target>Deux &lt;chats&gt;.</target>
   </segment>
  </unit>
  <unit id="u6">
   <segment state="translated" subState="xliffmt:mt">
    <source>Three birds.</source>
    <target>Three birds.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>Four fish.</source>
    <target>Four fish.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "seg-source, targets kept" "$x" translate kept.xlf \
  -o kept-out.xlf --mt identity --seg-source -q &&
  same "seg-source, targets kept: paired sentence by sentence" \
    want-kept.xlf kept-out.xlf
expect_text "seg-source, targets kept: the segments written whole told" \
  "$tmp/err" \
  "xliffmt: kept.xlf:11: warning: segment u2: <segment> not resegmented: its source has 2 sentences and its target, kept, 1; written whole, so that no sentence gets another's translation"
xliff2_valid "seg-source, targets kept" kept-out.xlf

# A unit whose <sm>/<em> and <sc>/<ec> pairs each have an end in each of
# its two segments, and a unit whose pair is in its one segment.
cat >marks.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1">
    <source>One <sm id="m1" type="term"/>two <sc id="1"/>three.</source>
   </segment>
   <segment id="s2">
    <source>Four<em startRef="m1"/> five<ec startRef="1"/>.</source>
   </segment>
  </unit>
  <unit id="u2">
   <segment>
    <source>Six <sm id="m1" type="term"/>seven<em startRef="m1"/>.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
cat >want.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <mtc:matches xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0">
    <mtc:match ref="#s1" origin="xliffmt" type="mt"><source>One two <sc id="1" isolated="yes"/>three.</source><target>One two <sc id="1" isolated="yes"/>three.</target></mtc:match>
    <mtc:match ref="#s2" origin="xliffmt" type="mt"><source>Four five<ec id="1" isolated="yes"/>.</source><target>Four five<ec id="1" isolated="yes"/>.</target></mtc:match>
   </mtc:matches>
   <segment id="s1">
    <source>One <sm id="m1" type="term"/>two <sc id="1"/>three.</source>
   </segment>
   <segment id="s2">
    <source>Four<em startRef="m1"/> five<ec startRef="1"/>.</source>
   </segment>
  </unit>
  <unit id="u2">
   <mtc:matches xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0">
    <mtc:match ref="#mt1" origin="xliffmt" type="mt"><source>Six <sm id="m1" type="term"/>seven<em startRef="m1"/>.</source><target>Six <sm id="m1" type="term"/>seven<em startRef="m1"/>.</target></mtc:match>
   </mtc:matches>
   <segment id="mt1">
    <source>Six <sm id="m1" type="term"/>seven<em startRef="m1"/>.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "alt-trans" "$x" translate marks.xlf -o alt.xlf --mt identity \
  --alt-trans -q &&
  same "alt-trans: a marker whose partner is in another segment left out" \
    want.xlf alt.xlf
xliff2_valid "alt-trans" alt.xlf
expect_exit 0 "alt-trans, pseudo" "$x" translate marks.xlf -o alt-pseudo.xlf \
  --mt pseudo --alt-trans -q
xliff2_valid "alt-trans, pseudo" alt-pseudo.xlf
check "alt-trans, pseudo: no <sm> or <em> in the first unit's matches" \
  test "$(sed -n '/<mtc:match ref="#s[12]"/p' alt-pseudo.xlf |
    grep -c '<[se]m ')" = 0

finish
