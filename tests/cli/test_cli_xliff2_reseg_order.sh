#!/bin/sh
# test_cli_xliff2_reseg_order.sh: --seg-source on units that it used to
# translate whole.
# - A unit whose targets have an order attribute (XLIFF 2.0 §4.3.1.27),
#   each at its own place (tests/fixtures/xliff2/ordered.xlf, u1): its
#   segments are cut, and every order is renumbered to the place its
#   <segment> or <ignorable> moved to; a self-closing <target order="1"/>
#   is written open with its sentence. A unit whose targets are moved
#   (u2) is not translated, and the warning says so. A kept target whose
#   order is its own place is cut too, each target cut from it given the
#   place its element is written at.
# - Codes that share an id: a target's code shares its source code's id
#   (§4.3.1.21), in a segment kept, a copy of the source in state initial
#   (filled) and one overwritten: cut as any unit. Two codes of the
#   sources that share one (invalid: check reports it) could not be told
#   apart once cut: translated whole, with a warning naming the unit.
# Each output is compared byte for byte, validates against the XLIFF 2.0
# schemas with the modules' (xmllint, when there) and check finds no
# error in it; so does the pseudo engine's output.
# Env: XLIFFMT, XMT_FIXTURES, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail,
# 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/ordered.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
cli_setup xliff2_reseg_order
x=$XLIFFMT
cd "$tmp" || exit 99

xliff2_schema modules.xsd

# told DESC TEXT: what the last command said on stderr is TEXT, the
# summary's time taken out.
told() {
  sed 's/; [0-9.]* s$//' err >said
  expect_text "$1" said "$2"
}

# same DESC WANT GOT: GOT is WANT byte for byte.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$3" | sed -n '1,40s/^/    /p'
  fi
}

cp "$fx/ordered.xlf" ordered.xlf || exit 99
expect_exit 0 "check ordered.xlf" "$x" check -q ordered.xlf
expect_exit 0 "ordered" "$x" translate ordered.xlf -o ordered.out.xlf \
  --mt identity --seg-source &&
  same "ordered: cut, the orders renumbered" \
    "$fx/expected/ordered.seg.xlf" ordered.out.xlf
told "ordered: the unit whose targets are moved is told" \
  "xliffmt: ordered.xlf:25: warning: segment u2: <unit> not translated: its targets have an order of their own (order), and a new target in the place of its <segment> would break it
xliffmt: ordered.xlf: 2 units, 1 translated, 1 left as they were; 4 segments sent to identity in 1 calls, 0 copied, 0 deduplicated, 0 failed"
xliff2_valid "ordered" ordered.out.xlf
expect_exit 0 "ordered, pseudo" "$x" translate ordered.xlf \
  -o ordered.pseudo.xlf --mt pseudo --seg-source -q
xliff2_valid "ordered, pseudo" ordered.pseudo.xlf

# u1: a segment kept (state translated) whose target's <pc> shares its
# source's id, and a segment cut; u2: a target in state initial that
# copies its source, filled and cut; u3: a translated target, kept and
# cut with its source, its <pc> as <sc>/<ec> (overwritten below).
cat >shared.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1" state="translated">
    <source>A <pc id="1">b</pc>. C.</source>
    <target>X <pc id="1">y</pc>. Z.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2">
    <source>D <pc id="2">e. F</pc> g.</source>
   </segment>
  </unit>
  <unit id="u2">
   <segment>
    <source>See <pc id="1">the manual. It is</pc> short.</source>
    <target>See <pc id="1">the manual. It is</pc> short.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment state="translated">
    <source>Ask <pc id="1">us. We</pc> answer.</source>
    <target>Demandez-<pc id="1">nous. Nous</pc> répondons.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check shared.xlf" "$x" check -q shared.xlf
cat >want.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1" state="translated">
    <source>A <pc id="1">b</pc>. C.</source>
    <target>X <pc id="1">y</pc>. Z.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2" state="translated" subState="xliffmt:mt">
    <source>D <sc id="2"/>e.</source>
    <target>D <sc id="2"/>e.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s2-2" state="translated" subState="xliffmt:mt">
    <source>F<ec startRef="2"/> g.</source>
    <target>F<ec startRef="2"/> g.</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment state="translated" subState="xliffmt:mt">
    <source>See <sc id="1"/>the manual.</source>
    <target>See <sc id="1"/>the manual.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>It is<ec startRef="1"/> short.</source>
    <target>It is<ec startRef="1"/> short.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment state="translated">
    <source>Ask <sc id="1"/>us.</source>
    <target>Demandez-<sc id="1"/>nous.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated">
    <source>We<ec startRef="1"/> answer.</source>
    <target>Nous<ec startRef="1"/> répondons.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "shared" "$x" translate shared.xlf -o shared.out.xlf \
  --mt identity --seg-source -q &&
  same "shared: target codes sharing their source's ids, cut" want.xlf \
    shared.out.xlf
xliff2_valid "shared" shared.out.xlf
expect_exit 0 "shared, overwrite" "$x" translate shared.xlf \
  -o shared.over.xlf --mt identity --seg-source --overwrite -q
cat >want.xlf <<'EOD'
  <unit id="u3">
   <segment state="translated" subState="xliffmt:mt">
    <source>Ask <sc id="1"/>us.</source>
    <target>Ask <sc id="1"/>us.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated" subState="xliffmt:mt">
    <source>We<ec startRef="1"/> answer.</source>
    <target>We<ec startRef="1"/> answer.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
sed -n '/<unit id="u3">/,$p' shared.over.xlf >got.xlf
same "shared, overwrite: the target replaced is cut" want.xlf got.xlf
xliff2_valid "shared, overwrite" shared.over.xlf
expect_exit 0 "shared, pseudo" "$x" translate shared.xlf \
  -o shared.pseudo.xlf --mt pseudo --seg-source --overwrite -q
xliff2_valid "shared, pseudo" shared.pseudo.xlf

# Kept targets (state translated) with an order. u1: order="1", its own
# place, cut with its source; each target cut from it (the <ignorable>'s,
# as its white space differs) gets its place, and the later targets'
# orders move by the two places the cut adds. u2: the same with a <pc> a
# boundary cuts (<sc>/<ec>). u3: a kept target without order cut, a later
# target's order renumbered. u4: targets moved from their places: the
# unit is left as it is, the kept target whole, and the warning says so.
cat >kept.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1" state="translated">
    <source>One. Two.</source>
    <target order="1">Un.  Deux.</target>
   </segment>
   <ignorable>
    <source> </source>
    <target order="2"> </target>
   </ignorable>
   <segment id="s2" state="translated">
    <source>Three.</source>
    <target order="3">Trois.</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment state="translated">
    <source>Ask <pc id="1">us. We</pc> answer.</source>
    <target order="1">Demandez-<pc id="1">nous. Nous</pc> répondons.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment id="s1" state="translated">
    <source>Five. Six.</source>
    <target>Cinq. Six.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2" state="translated">
    <source>Seven.</source>
    <target order="3">Sept.</target>
   </segment>
  </unit>
  <unit id="u4">
   <segment id="s1" state="translated">
    <source>Eight. Nine.</source>
    <target order="3">Huit. Neuf.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2" state="translated">
    <source>Ten.</source>
    <target order="1">Dix.</target>
   </segment>
   <segment id="s3">
    <source>Eleven. Twelve.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "check kept.xlf" "$x" check -q kept.xlf
cat >want.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1" state="translated">
    <source>One.</source>
    <target order="1">Un.</target>
   </segment>
   <ignorable>
    <source> </source>
    <target order="2">  </target>
   </ignorable>
   <segment id="s1-2" state="translated">
    <source>Two.</source>
    <target order="3">Deux.</target>
   </segment>
   <ignorable>
    <source> </source>
    <target order="4"> </target>
   </ignorable>
   <segment id="s2" state="translated">
    <source>Three.</source>
    <target order="5">Trois.</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment state="translated">
    <source>Ask <sc id="1"/>us.</source>
    <target order="1">Demandez-<sc id="1"/>nous.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s-2" state="translated">
    <source>We<ec startRef="1"/> answer.</source>
    <target order="3">Nous<ec startRef="1"/> répondons.</target>
   </segment>
  </unit>
  <unit id="u3">
   <segment id="s1" state="translated">
    <source>Five.</source>
    <target>Cinq.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s1-2" state="translated">
    <source>Six.</source>
    <target>Six.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2" state="translated">
    <source>Seven.</source>
    <target order="5">Sept.</target>
   </segment>
  </unit>
  <unit id="u4">
   <segment id="s1" state="translated">
    <source>Eight. Nine.</source>
    <target order="3">Huit. Neuf.</target>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2" state="translated">
    <source>Ten.</source>
    <target order="1">Dix.</target>
   </segment>
   <segment id="s3">
    <source>Eleven. Twelve.</source>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "kept" "$x" translate kept.xlf -o kept.out.xlf --mt identity \
  --seg-source &&
  same "kept: targets with order cut, the orders renumbered" want.xlf \
    kept.out.xlf
told "kept: the unit whose targets are moved is told" \
  "xliffmt: kept.xlf:45: warning: segment u4: <unit> not translated: its targets have an order of their own (order), and a new target in the place of its <segment> would break it
xliffmt: kept.xlf: 4 units, 0 translated, 4 left as they were; 0 segments sent to identity in 0 calls, 0 copied, 0 deduplicated, 0 failed"
xliff2_valid "kept" kept.out.xlf

# Two <pc>s of one id in a unit's source (check reports it): written
# whole, and the run says why.
cat >dup.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment>
    <source>See <pc id="1">the manual. It is</pc> short. Ask <pc id="1">us</pc>.</source>
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
   <segment state="translated" subState="xliffmt:mt">
    <source>See <pc id="1">the manual. It is</pc> short. Ask <pc id="1">us</pc>.</source>
    <target>See <pc id="1">the manual. It is</pc> short. Ask <pc id="1">us</pc>.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "dup" "$x" translate dup.xlf -o dup.out.xlf --mt identity \
  --seg-source &&
  same "dup: translated whole" want.xlf dup.out.xlf
told "dup: the warning names the unit and the id" \
  "xliffmt: dup.xlf:5: warning: segment u1: <segment> not resegmented: the id \"1\" (line 6, column 62) is used by two codes of its unit's sources (XLIFF 2.0 §4.3.1.21), whose pairs, cut, could not be told apart; translated whole
xliffmt: dup.xlf: 1 units, 1 translated, 0 left as they were; 3 segments sent to identity in 1 calls, 0 copied, 0 deduplicated, 0 failed"

finish
