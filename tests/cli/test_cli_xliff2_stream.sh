#!/bin/sh
# test_cli_xliff2_stream.sh -- check and report read an XLIFF 2 document
# as a stream: check's rules a unit at a time, with the ids of a <file>'s
# groups and units and of the <file>s kept across units (the same findings
# at the same lines and columns, in the same order, as the document read
# whole gave), report's units spooled to a temporary file (repeated unit
# ids told as a document read whole tells them); and neither holds the
# document: on a generated document of 40 MB (files of 2,500 units), the
# peak resident memory of each stays under 30 MB (read whole, the
# document alone took its size).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup xliff2_stream
x=$XLIFFMT
cd "$tmp" || exit 99

# Ids across units, groups and files; codes and dataRefs in a unit; the
# <sc> without its <ec> stops the reading after the rules.
cat >cross.xlf <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">
<file id="f1">
<unit id="u1">
<segment><source>Ελλάδα one.</source></segment>
</unit>
<unit id="u2">
<originalData><data id="d1">&lt;b&gt;</data></originalData>
<segment><source>Two <ph id="1" dataRef="d2"/> <sc id="2"/>x.</source></segment>
</unit>
<group id="g1">
<unit id="u1">
<segment><source>Ελλάδα <ph id="1"/>   <ph id="1"/> again.</source></segment>
</unit>
</group>
<unit id="g1">
<segment><source>Ελλάδα three.</source><target>Trois <ph id="9"/>.</target></segment>
</unit>
</file>
<file id="f2">
<unit id="u1">
<segment><source>Same id, another file.</source></segment>
</unit>
</file>
<file id="f1">
<unit id="u9">
<segment><source>Last.</source></segment>
</unit>
</file>
</xliff>
EOD
exits_with 1 "check cross.xlf" "$x" check cross.xlf &&
  pass "check cross.xlf (exit 1)"
cat >want <<'EOD'
xliffmt: cross.xlf:9:22: error: dataRef="d2" names no <data> in the <originalData> of its <unit> (XLIFF 2.0 §4.3.1.9) (unit u2)
xliffmt: cross.xlf:9:48: error: <sc id="2"> has no <ec startRef="2"> in the sources of its <unit> (and is not isolated="yes") (XLIFF 2.0 §4.2.3.4) (unit u2)
xliffmt: cross.xlf:12:1: error: <unit> id "u1" is used more than once in its <file> (first at line 4, column 1) (XLIFF 2.0 §4.3.1.21)
xliffmt: cross.xlf:13:40: error: <ph> id "1" is used more than once in <unit> (first at line 13, column 25) (XLIFF 2.0 §4.3.1.21) (unit u1)
xliffmt: cross.xlf:16:1: error: <unit> id "g1" is used more than once in its <file> (first at line 11, column 1) (XLIFF 2.0 §4.3.1.21)
xliffmt: cross.xlf:17:1: warning: <target> of segment 1 has an inline code <ph id="9"> not in its <source> (unit g1)
xliffmt: cross.xlf:25:1: error: <file> id "f1" is used more than once in <xliff> (first at line 3, column 1) (XLIFF 2.0 §4.3.1.21)
xliffmt: cross.xlf:9:48: <sc id="2"> has no <ec> in its unit (unit u2)
EOD
check "check cross.xlf: the rules' findings in document order, then the reader's error" \
  cmp want err || diff want err

# Report: a repeated unit id is told with "@N", as when the document was
# read whole (the report reads what the stream hands out).
sed 's|<sc id="2"/>x.|<sc id="2"/>x.<ec startRef="2"/>|' cross.xlf >ids.xlf
expect_exit 0 "report --findings ids.xlf" "$x" report ids.xlf --findings \
  -o ids.findings.xml
grep -o '<unit id="[^"]*"' ids.findings.xml >got
cat >want <<'EOD'
<unit id="u1"
<unit id="u2"
<unit id="u1@1"
<unit id="g1"
<unit id="u1@2"
<unit id="u9"
EOD
check "report ids.xlf: repeated unit ids made unique per file" \
  cmp want got || diff want got

# A document that fails in a unit begun in the 64 KiB read before: the
# 700 units read whole before that read ends are handed out and counted
# as the document's, though the stream cuts its parts 4 KiB at a time.
awk 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" srcLang=\"en\" trgLang=\"fr\">"
  print "<file id=\"f1\">"
  for (i = 1; i <= 700; i++)
    printf "<unit id=\"u%d\"><segment><source>Sentence %d.</source></segment></unit>\n", i, i
  printf "<unit id=\"big\"><segment><source>"
  for (i = 1; i <= 4000; i++)
    printf "word "
  print "</sourc></segment></unit>"
  print "</file>"
  print "</xliff>"
}' >straddle.xlf
exits_with 1 "check --json straddle.xlf" timeout 60 "$x" check --json \
  straddle.xlf && pass "check --json straddle.xlf (exit 1)"
tr ',' '\n' <"$tmp/out" | grep -E '^"(units|segments|words)"' >got
cat >want <<'EOD'
"units":700
"segments":700
"words":1400
EOD
check "check --json straddle.xlf: the units read before the failing read" \
  cmp want got || diff want got

# Memory: the peak resident set (VmHWM) of a command, sampled while it
# runs; a lower bound of the true peak, so a sample over the limit is a
# failure for sure. Sanitizers hold freed memory back: not measured.
if [ -n "${XMT_SANITIZED:-}" ] || [ ! -r /proc/self/status ]; then
  echo "# memory not measured (sanitizer build, or no /proc)"
  finish
  exit 0
fi
awk 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" srcLang=\"en\" trgLang=\"fr\">"
  t = "the document goes on, with words enough to make a long sentence of it"
  for (i = 1; i <= 100000; i++) {
    if (i % 2500 == 1)
      printf "<file id=\"f%d\">\n", i
    printf "<unit id=\"u%d\"><segment><source>Sentence %d of %s, <ph id=\"1\"/> a code and <pc id=\"2\">a pair</pc> of them; %s, %s, %s.</source></segment></unit>\n", i, i, t, t, t, t
    if (i % 2500 == 0)
      print "</file>"
  }
  print "</xliff>"
}' >big.xlf
mb=$(($(wc -c <big.xlf) / 1048576))
peak_kb "$x" check big.xlf -q
check "check big.xlf ($mb MB): exit 0 (exit $status)" test "$status" -eq 0
check "check big.xlf ($mb MB): peak $((peak / 1024)) MB < 30 MB" \
  test "$peak" -lt $((30 * 1024))
peak_kb "$x" report big.xlf -o big.html -q
check "report big.xlf ($mb MB): exit 0 (exit $status)" test "$status" -eq 0
check "report big.xlf ($mb MB): peak $((peak / 1024)) MB < 30 MB" \
  test "$peak" -lt $((30 * 1024))
check "report big.xlf: every unit reported" \
  test "$(grep -o 'Sentence [0-9]* of the document' big.html | wc -l)" -eq 100000
finish
