#!/bin/sh
# test_hostile_x2_its_ids_memory.sh: an xml:id of the ITS module of
# XLIFF 2.1 (on an <its:locQualityIssues> or <its:provenanceRecords>) is
# an xs:ID, unique in the whole document, so check keeps every one it
# has read. 120,000 units, each with its own <its:locQualityIssues>
# whose xml:id has a 200-byte prefix (24 MB of ids in an 84 MB document),
# are checked in 100 MB of address space: the ids, front-coded with
# their places (filter/unit_keys.c), take a few MB. A unit of a second
# <file> repeats the first unit's xml:id: the one error names the first's
# line and column exactly.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-x2-its-ids-memory
x=$XLIFFMT
n=120000
prefix=$(printf '%0200d' 0 | tr 0 q)

awk -v p="$prefix" -v n="$n" 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"fr\" xmlns:its=\"http://www.w3.org/2005/11/its\">"
  print "<file id=\"f1\">"
  for (i = 0; i < n; i++)
    printf "<unit id=\"u%d\"><its:locQualityIssues xml:id=\"%s%d\"><its:locQualityIssue locQualityIssueType=\"grammar\"/></its:locQualityIssues><segment><source><mrk id=\"m1\" type=\"its:generic\">a</mrk></source><target><mrk id=\"m1\" type=\"its:generic\" its:locQualityIssuesRef=\"#%s%d\">b</mrk></target></segment></unit>\n", i, p, i, p, i
  print "</file>"
  print "<file id=\"f2\">"
  printf "<unit id=\"u0\"><its:locQualityIssues xml:id=\"%s0\"><its:locQualityIssue locQualityIssueType=\"grammar\"/></its:locQualityIssues><segment><source>a</source></segment></unit>\n", p
  print "</file></xliff>"
}' >"$tmp/in.xlf"

within "check: 120,000 ITS xml:ids in 100 MB" 1 60 100 \
  "$x" check "$tmp/in.xlf" -q
printf 'xliffmt: %s:%d:15: error: <its:locQualityIssues> xml:id "%.64s" is used more than once (first at line 4, column 15, by an <its:locQualityIssues>) (XLIFF 2.1 §5.9) (unit u0)\n' \
  "$tmp/in.xlf" $((n + 6)) "$prefix" >"$tmp/expected"
if cmp -s "$tmp/expected" "$tmp/err"; then
  pass "the repeated xml:id told once, with the first one's place"
else
  fail "check's messages"
  diff "$tmp/expected" "$tmp/err" | cut -c1-160 | sed -n '1,10s/^/    /p'
fi

finish
