#!/bin/sh
# test_hostile_schema_oom.sh: check's schema validation (filter/schema/)
# when memory runs out, and on a <file> of many units.
# - libxml2 2.9 goes on after an allocation of its validator fails; check
#   fed it further events, and it crashed (SIGSEGV) or called a valid
#   document invalid. Under a run of address-space limits from where the
#   program starts up to where the document passes, check ends with 0 and
#   its summary, or 2 with "xliffmt: out of memory" alone: never a signal,
#   never a message of libxml2's, never a document judged invalid.
# - a <file> or <group> of many units is reopened for the validator every
#   4,096 of them (it kept a copy of each unit until the <file> ended):
#   120,000 units of one <file> (ids of 200 bytes) pass in 10 MB more than
#   a small document needs (6 MB were enough), where they needed 16; a
#   <notes> after 10,000 units of a
#   <file> or of a <group> is told as before, at its place, once.
# The limit loop needs `ulimit -v`, which sanitizer builds cannot run
# under (XMT_SANITIZED): skipped there.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-schema-oom
x=$XLIFFMT

head20='<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="es">'

# units N PREFIX: N units, one a line
units() {
  awk -v n="$1" -v p="$2" 'BEGIN {
    for (i = 0; i < n; i++)
      printf "<unit id=\"%s%d\"><segment><source>a</source></segment></unit>\n", p, i
  }'
}

# A <notes> after 10,000 units of a <file>, then of a <group>: the content
# model allows none there, and says so at the <notes>.
{
  echo "$head20"
  echo '<file id="f1">'
  units 10000 u
  echo '<notes><note>late</note></notes>'
  units 10 v
  echo '</file><file id="f2"><group id="g">'
  units 10000 u
  echo '<notes><note>late</note></notes>'
  units 10 v
  echo '</group></file></xliff>'
} >"$tmp/late.xlf"
within "notes after 10,000 units" 1 30 200 "$x" check "$tmp/late.xlf" -q
expect_text "notes after 10,000 units: told at its place" "$tmp/err" \
    "xliffmt: $tmp/late.xlf:10004:1: error: Element '{urn:oasis:names:tc:xliff:document:2.0}notes': This element is not expected.
xliffmt: $tmp/late.xlf:20016:1: error: Element '{urn:oasis:names:tc:xliff:document:2.0}notes': This element is not expected."

# An attribute of the <file> that is not valid: told once, at the <file>,
# not again at each reopening.
{
  echo "$head20"
  echo '<file id="f1" translate="maybe">'
  units 10000 u
  echo '</file></xliff>'
} >"$tmp/attr.xlf"
within "a bad <file> attribute" 1 30 200 "$x" check "$tmp/attr.xlf" -q
expect_text "a bad <file> attribute: told once" "$tmp/err" \
    "xliffmt: $tmp/attr.xlf:3:1: error: Element '{urn:oasis:names:tc:xliff:document:2.0}file', attribute 'translate': [facet 'enumeration'] The value 'maybe' is not an element of the set {'yes', 'no'}."

if [ -n "${XMT_SANITIZED:-}" ]; then
  echo "# XMT_SANITIZED: the address-space limits skipped"
  finish
fi

# 120,000 units of one <file>, with ids of 200 bytes.
prefix=$(printf '%0200d' 0 | tr 0 p)
{
  echo "$head20"
  echo '<file id="f1">'
  units 120000 "$prefix"
  echo '</file></xliff>'
} >"$tmp/big.xlf"
printf '%s\n<file id="f1">\n<unit id="u"><segment><source>a</source></segment></unit>\n</file></xliff>\n' \
  "$head20" >"$tmp/small.xlf"

# base: the smallest limit (MB, in steps of 2) under which check passes a
# small document, which is about what the program and its libraries take.
base=40
while [ "$base" -lt 400 ]; do
  bounded 20 "$base" "$x" check "$tmp/small.xlf" -q
  [ "$status" -eq 0 ] && break
  base=$((base + 2))
done
if [ "$base" -ge 400 ]; then
  fail "check of a small document under 400 MB: exit $status"
  finish
fi

# The big document in base + 10 MB: the ids front-coded take a few MB, the
# validator nothing that grows with the <file>.
within "120,000 units of one <file> in ${base} + 10 MB" 0 60 $((base + 10)) \
  "$x" check "$tmp/big.xlf" -q

# The limits between: each ends in 0 or in a clean "out of memory".
bad=0
for extra in 1 2 3 4 5 8; do
  bounded 60 $((base + extra)) "$x" check "$tmp/big.xlf"
  if [ "$status" -ge 124 ]; then
    fail "check under ${base} + ${extra} MB: exit $status (a signal or a hang)"
    bad=1
  elif [ "$status" -eq 2 ]; then
    if [ -s "$tmp/out" ] ||
      [ "$(cat "$tmp/err")" != "xliffmt: out of memory" ]; then
      fail "check under ${base} + ${extra} MB: exit 2 and more than 'out of memory'"
      sed -n '1,5s/^/    stderr: /p' "$tmp/err"
      bad=1
    fi
  elif [ "$status" -ne 0 ] || [ -s "$tmp/err" ]; then
    fail "check under ${base} + ${extra} MB: exit $status"
    sed -n '1,5s/^/    stderr: /p' "$tmp/err"
    bad=1
  fi
done
[ "$bad" -eq 1 ] || pass "check under ${base} + 1..8 MB: 0, or 2 and 'out of memory' alone"

finish
