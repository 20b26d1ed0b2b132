#!/bin/sh
# test_hostile_x2_check_memory.sh: check's XLIFF 2 rules keep the ids of
# a <file>'s groups and units (an id is unique in its <file>, and a
# subFlows may name any unit of it), so a document of one <file> holds
# them all at once. 120,000 units in one <file>, whose ids share a
# 200-byte prefix (30 MB), are checked in 120 MB of address space: the
# ids, front-coded with their places (filter/unit_keys.c), take a few MB,
# where kept whole in a hash table, twice each, check needed over 150 MB.
# The last unit repeats the first one's id: the error names the first's
# line and column exactly. A unit whose id a group had first is still a
# unit a subFlows may name.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-x2-check-memory
x=$XLIFFMT
n=120000
prefix=$(printf '%0200d' 0 | tr 0 p)

awk -v p="$prefix" -v n="$n" 'BEGIN {
  print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
  print "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"en\" trgLang=\"es\">"
  print "<file id=\"f1\">"
  for (i = 0; i < n; i++)
    printf "<unit id=\"%s%d\"><segment><source>a</source></segment></unit>\n", p, i
  printf "  <unit id=\"%s0\"><segment><source>b</source></segment></unit>\n", p
  print "</file></xliff>"
}' >"$tmp/in.xlf"

within "check: 120,000 units of one <file> in 120 MB" 1 60 120 \
  "$x" check "$tmp/in.xlf" -q
printf 'xliffmt: %s:%d:3: error: <unit> id "%.64s" is used more than once in its <file> (first at line 4, column 1) (XLIFF 2.0 §4.3.1.21)\n' \
  "$tmp/in.xlf" $((n + 4)) "$prefix" >"$tmp/expected"
if cmp -s "$tmp/expected" "$tmp/err"; then
  pass "the repeated id told once, with the first one's place"
else
  fail "check's messages"
  diff "$tmp/expected" "$tmp/err" | cut -c1-160 | sed -n '1,10s/^/    /p'
fi

# A group "x", then a unit "x" (an error), then units named by subFlows:
# "x" is a unit of the <file>, "y" none.
cat >"$tmp/flows.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">
<file id="f1">
<group id="x"/>
<unit id="x"><segment><source>a</source></segment></unit>
<unit id="z"><segment><source>a <ph id="1" subFlows="x"/> <ph id="2" subFlows="y"/></source></segment></unit>
</file></xliff>
EOD
within "check: subFlows after an id used twice" 1 20 100 \
  "$x" check "$tmp/flows.xlf" -q
{
  printf 'xliffmt: %s:5:1: error: <unit> id "x" is used more than once in its <file> (first at line 4, column 1) (XLIFF 2.0 §4.3.1.21)\n' "$tmp/flows.xlf"
  printf 'xliffmt: %s:6:59: error: subFlows names "y", no <unit> of its <file> (XLIFF 2.0 §4.3.1.32)\n' "$tmp/flows.xlf"
} >"$tmp/expected"
if cmp -s "$tmp/expected" "$tmp/err"; then
  pass "subFlows finds the unit whose id a group had first"
else
  fail "check's messages on subFlows"
  diff "$tmp/expected" "$tmp/err" | cut -c1-160 | sed -n '1,10s/^/    /p'
fi

finish
