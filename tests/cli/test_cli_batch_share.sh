#!/bin/sh
# test_cli_batch_share.sh -- xliffmt batch --share K/N: N workers over one
# collection cover every document exactly once, whatever order each lists
# it in; the share of a document is FNV-1a of its relative path modulo N
# (the same on every machine: checked against a second implementation);
# a share finds what is already done up to date; bad K/N refused.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup batch-share
x=$XLIFFMT

doc() { # ID
  cat <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="$1" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>Document $1 has <g id="1">one</g> unit.</source></trans-unit>
</body></file></xliff>
EOD
}
in=$tmp/in
mkdir -p "$in/sub"
i=0
while [ $i -lt 30 ]; do
  doc "d$i" >"$in/d$i.xlf"
  doc "s$i" >"$in/sub/s$i.xlf"
  i=$((i + 1))
done
opts="--mt pseudo -s en -t es"

# The shares of a tree: each document once.
k=0
while [ $k -lt 4 ]; do
  # shellcheck disable=SC2086
  expect_exit 0 "share $k/4 of the tree" "$x" batch "$in" -o "$tmp/tree" \
    $opts --share "$k/4" --report "$tmp/r$k.json"
  sed -n 's/^xliffmt: batch: share .*/&/p' "$tmp/err" >>"$tmp/lines"
  grep -o '"output":"[^"]*"' "$tmp/r$k.json" | sed 's|.*/tree/||; s|"$||' \
    >"$tmp/share$k"
  k=$((k + 1))
done
check "every document written" test \
  "$(cd "$tmp/tree" && find . -name '*.xlf' | wc -l)" -eq 60
check "each document in exactly one share" test \
  "$(sort "$tmp"/share? | uniq -d | wc -l)-$(cat "$tmp"/share? | wc -l)" = 0-60
check "each share says its count of the 60 documents" test \
  "$(sed 's/.*, \([0-9]*\) of 60 documents$/\1/' "$tmp/lines" |
    awk '{ n += $1 } END { print n }')" -eq 60

# The same hash, written again: FNV-1a 64 of the relative path, modulo N.
python3 - "$tmp" <<'EOD' >"$tmp/expected"
import os, sys
def fnv(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h
tmp = sys.argv[1]
rels = sorted(['d%d.xlf' % i for i in range(30)] + ['sub/s%d.xlf' % i for i in range(30)])
for k in range(4):
    print(k, ' '.join(r for r in rels if fnv(r) % 4 == k))
EOD
for k in 0 1 2 3; do
  printf '%s %s\n' "$k" "$(sort "$tmp/share$k" | tr '\n' ' ' | sed 's/ $//')"
done >"$tmp/got"
check "the shares are FNV-1a of the relative path, modulo N" cmp -s \
  "$tmp/expected" "$tmp/got"

# Files given one by one, in two orders: the same share.
files=$(cd "$in" && ls d*.xlf)
fwd=$(for f in $files; do printf '%s/%s ' "$in" "$f"; done)
rev=$(for f in $files; do printf '%s/%s\n' "$in" "$f"; done | sort -r | tr '\n' ' ')
# shellcheck disable=SC2086
"$x" batch $fwd -o "$tmp/fwd" $opts --share 2/3 -q --report "$tmp/fwd.json"
# shellcheck disable=SC2086
"$x" batch $rev -o "$tmp/rev" $opts --share 2/3 -q --report "$tmp/rev.json"
check "listing order does not change a share" test \
  "$(cd "$tmp/fwd" && ls | tr '\n' ' ')" = "$(cd "$tmp/rev" && ls | tr '\n' ' ')"
check "a share of files is not empty" test -n "$(ls "$tmp/fwd")"

# A share run again finds its documents done.
# shellcheck disable=SC2086
if exits_with 0 "share 1/4 again" "$x" batch "$in" -o "$tmp/tree" $opts \
  --share 1/4; then
  n1=$(wc -l <"$tmp/share1")
  check "share 1/4 again: every document up to date" grep -q \
    "^xliffmt: batch: $n1 documents, 0 translated, $n1 up to date," "$tmp/err"
fi
# A share of none.
# shellcheck disable=SC2086
if exits_with 0 "a share with no document" "$x" batch "$in/d1.xlf" \
  -o "$tmp/none" $opts --share "$(python3 -c 'import sys
def fnv(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h
print((fnv("d1.xlf") + 1) % 2)')/2"; then
  check "a share with no document says so" grep -q \
    '^xliffmt: batch: share [01]/2, 0 of 1 documents$' "$tmp/err"
fi

for bad in 4/4 1/0 x/2 1/ /2 1/2/3 -1/2 1/+2 ' 1/2'; do
  # shellcheck disable=SC2086
  if exits_with 1 "--share '$bad' refused" "$x" batch "$in" -o "$tmp/bad" \
    $opts --share "$bad"; then
    check "--share '$bad' refused with the rule" grep -q \
      '^xliffmt: --share takes K/N, two numbers with K from 0 to N-1' "$tmp/err"
  fi
done
check "a refused share writes nothing" test ! -e "$tmp/bad"

# Shares that start at once on a new output tree both make its folders
# (the markers' too) and remove the empty ones: neither may take the
# other's new folder for an output it cannot write. A race: forty starts;
# before the fix, about one start in a hundred failed.
races=0
t=0
while [ $t -lt 40 ]; do
  rm -rf "$tmp/race"
  # shellcheck disable=SC2086
  "$x" batch "$in" -o "$tmp/race" $opts -q --share 0/2 2>"$tmp/race0" &
  p0=$!
  # shellcheck disable=SC2086
  "$x" batch "$in" -o "$tmp/race" $opts -q --share 1/2 2>"$tmp/race1" &
  p1=$!
  r0=0 r1=0
  wait $p0 || r0=$?
  wait $p1 || r1=$?
  if [ $r0 -ne 0 ] || [ $r1 -ne 0 ] ||
    [ "$(find "$tmp/race" -name '*.xlf' | wc -l)" -ne 60 ]; then
    races=$((races + 1))
    sed 's/^/    /' "$tmp/race0" "$tmp/race1" | head -n 4
  fi
  t=$((t + 1))
done
check "two shares starting at once on a new tree: 40 of 40 whole" \
  test $races -eq 0

finish
