#!/bin/sh
# test_cli_xliff2_reseg_codes.sh: --seg-source on XLIFF 2 segments whose
# kept (a translator's) target holds inline codes
# (tests/fixtures/xliff2/reseg_codes.xlf). Source and target are cut as
# a translated source is: u1, a <ph/> in a sentence (and a code whose id
# is the one a new segment would get: the segment takes the next); u2, a
# <pc> a boundary cuts in both, written <sc>/<ec> with dataRefStart and
# dataRefEnd as dataRef; u3, an <sc>/<ec> pair across a boundary and an
# <mrk> cut into <sm>/<em>; u4, an <ec> and a <ph/> between sentences,
# kept in the <ignorable>, whose <target> is the target's (the <ec>: one
# end of a pair; the <ph/>: other white space). When the codes do not
# fall in the same sentences (u5: a <ph/> in the first sentence of the
# source, the last of the target; u6: a <pc> around the first sentence of
# the source whose end the target has in the second; u7: a target code of
# another id) the segment is written whole, with a warning. The output
# is compared byte for byte with tests/fixtures/xliff2/expected/
# reseg_codes.kept.xlf, validates against the XLIFF 2.0 schemas (xmllint,
# when there), and check exits 0 on it.
# Env: XLIFFMT, XMT_FIXTURES, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail,
# 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/reseg_codes.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
cli_setup xliff2_reseg_codes
x=$XLIFFMT
cd "$tmp" || exit 99

xliff2_schema modules.xsd

cp "$fx/reseg_codes.xlf" codes.xlf || exit 99
expect_exit 0 "check codes.xlf" "$x" check -q codes.xlf
expect_exit 0 "seg-source" "$x" translate codes.xlf -o codes.out.xlf \
  --mt identity --seg-source -q
if cmp -s "$fx/expected/reseg_codes.kept.xlf" codes.out.xlf; then
  pass "seg-source: kept targets with codes cut with their sources"
else
  fail "seg-source: kept targets with codes cut with their sources"
  diff "$fx/expected/reseg_codes.kept.xlf" codes.out.xlf |
    sed -n '1,40s/^/    /p'
fi
expect_text "seg-source: the segments written whole told" "$tmp/err" \
  "xliffmt: codes.xlf:30: warning: segment u5: <segment> not resegmented: the inline codes of its target, kept, do not fall in the sentences (and the white space between them) where its source's do; written whole
xliffmt: codes.xlf:36: warning: segment u6: <segment> not resegmented: the inline codes of its target, kept, do not fall in the sentences (and the white space between them) where its source's do; written whole
xliffmt: codes.xlf:42: warning: segment u7: <segment> not resegmented: the inline codes of its target, kept, do not fall in the sentences (and the white space between them) where its source's do; written whole"
xliff2_valid "seg-source" codes.out.xlf

# Two codes of the unit's source that share an id (invalid, XLIFF 2.0
# §4.3.1.21): the kept target is written whole, and the warning says so.
cat >dup.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment>
    <source>One <ph id="1"/>dog. Two <ph id="1"/>cats.</source>
    <target>Un <ph id="1"/>chien. Deux <ph id="1"/>chats.</target>
   </segment>
  </unit>
 </file>
</xliff>
EOD
expect_exit 0 "shared ids" "$x" translate dup.xlf -o dup.out.xlf \
  --mt identity --seg-source -q
check "shared ids: written whole" cmp -s dup.xlf dup.out.xlf
expect_text "shared ids: told" "$tmp/err" \
  "xliffmt: dup.xlf:5: warning: segment u1: <segment> not resegmented: the id \"1\" (line 6, column 38) is used by two codes of its unit's sources (XLIFF 2.0 §4.3.1.21), whose pairs, cut, could not be told apart; written whole"

# Without --seg-source nothing is cut: the document is written as it is.
expect_exit 0 "no seg-source" "$x" translate codes.xlf -o plain.out.xlf \
  --mt identity -q
check "no seg-source: the document unchanged" cmp -s codes.xlf plain.out.xlf

finish
