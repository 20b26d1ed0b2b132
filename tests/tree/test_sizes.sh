#!/bin/sh
# test_sizes.sh: scripts/check-house.sh --sizes sees every function, as a
# C parser does: on a tree of its own, a function of 101 lines whose
# signature wraps over lines and one whose body opens with a lone "{" are
# each reported, with file, line (of the name) and name, and one of 100
# lines is not; then this tree keeps the limits.
# Needs Universal Ctags (scripts/install-deps.sh). Exit 0 pass, 1 fail.
set -u
. "$(dirname "$0")/../cli/lib.sh"
cli_setup sizes
house=$(cd "$(dirname "$0")/../.." && pwd)/scripts/check-house.sh
require_ctags

# body N: N statement lines.
body() {
  i=0
  while [ $i -lt "$1" ]; do
    echo "  n++;"
    i=$((i + 1))
  done
}

mkdir -p "$tmp/tree/base" "$tmp/tree/cli"
{
  echo "static int"
  echo "wrapped(int n,"
  echo "        int m) {"
  body 97
  echo "  return n + m;"
  echo "}"
  echo
  echo "int lone(int n)"
  echo "{"
  body 98
  echo "}"
  echo
  echo "int fits(int n) {"
  body 98
  echo "}"
} >"$tmp/tree/base/long.c"
{
  echo "int"
  echo "in_cli(int n,"
  echo "       int m) {"
  body 98
  echo "  return n + m;"
  echo "}"
} >"$tmp/tree/cli/long.c"

XMT_HOUSE_ROOT=$tmp/tree sh "$house" --sizes >"$tmp/out" 2>&1
rc=$?
cat >"$tmp/want" <<'EOF'
sizes: base/long.c:2: wrapped has 101 lines (at most 100)
sizes: base/long.c:104: lone has 101 lines (at most 100)
sizes: cli/long.c:2: in_cli has 102 lines (at most 100)
EOF
if [ $rc -eq 1 ] && cmp -s "$tmp/want" "$tmp/out"; then
  pass "wrapped signatures and lone braces are measured"
else
  fail "wrapped signatures and lone braces are measured (exit $rc):"
  diff "$tmp/want" "$tmp/out"
fi

if sh "$house" --sizes >"$tmp/out" 2>&1; then
  pass "the tree keeps the size limits"
else
  fail "the tree keeps the size limits:"
  cat "$tmp/out"
fi
finish
