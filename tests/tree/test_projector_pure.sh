#!/bin/sh
# test_projector_pure.sh: projector/ is the pure model -- it opens no
# file or directory, starts no process and reads no environment variable
# (the dictionary readers and the model file live in filter/lexicon/);
# and the library starts programs only through base/spawn.c.
# scripts/check-house.sh --layers holds both on the sources and the first,
# with XMT_BUILD, on the objects; this test runs it on this tree, and on
# copies given such calls, which it must name.
# Env: XLIFFMT, XMT_BUILDDIR. Exit 0 pass, 1 fail.
. "$(dirname "$0")/../cli/lib.sh"
cli_setup pure
top=$(cd "$(dirname "$0")/../.." && pwd)

# This tree: nothing of the kind, in the sources or in the objects.
expect_exit 0 "this tree's projector/ reads no file" \
  env XMT_BUILD="${XMT_BUILDDIR:?}" sh "$top/scripts/check-house.sh" --layers
check "no message" test ! -s "$tmp/out"

# A copy whose projector/ reads the environment, and opens a file in a
# function that a comment names ("fopen(" in a comment is no call, nor is
# a member called open).
mkdir -p "$tmp/tree/scripts"
cp "$top/scripts/check-house.sh" "$tmp/tree/scripts/"
cp -R "$top/base" "$top/projector" "$tmp/tree/"
cat >>"$tmp/tree/projector/words.c" <<'C'
/* not a call: fopen(path) */
static const char *home(void) { return getenv("HOME"); }
static int member(struct io *io) { return io->open(0); }
static void *model(const char *p) {
  return fopen(p, "rb");
}
C
expect_exit 1 "a projector/ that reads a file is refused" \
  sh "$tmp/tree/scripts/check-house.sh" --layers
n=$(grep -c '' "$tmp/out")
check "two lines, one a call" test "$n" -eq 2
l1=$(($(grep -c '' "$top/projector/words.c") + 2))
check "the getenv call named" grep -qxF \
  "layers: projector/words.c:$l1: projector/ opens a file, starts a process or reads the environment: static const char *home(void) { return getenv(\"HOME\"); }" \
  "$tmp/out"
check "the fopen call named" grep -qxF \
  "layers: projector/words.c:$((l1 + 3)): projector/ opens a file, starts a process or reads the environment: return fopen(p, \"rb\");" \
  "$tmp/out"

# A copy whose filter/ starts a process of its own.
rm -rf "$tmp/tree"
mkdir -p "$tmp/tree/scripts"
cp "$top/scripts/check-house.sh" "$tmp/tree/scripts/"
cp -R "$top/base" "$top/projector" "$top/filter" "$tmp/tree/"
cat >>"$tmp/tree/filter/names.c" <<'C'
static int shell(void) { return fork(); }
C
expect_exit 1 "a second process spawner is refused" \
  sh "$tmp/tree/scripts/check-house.sh" --layers
l2=$(grep -c '' "$tmp/tree/filter/names.c")
check "it is named, alone" test "$(cat "$tmp/out")" = \
  "layers: filter/names.c:$l2: a process started outside base/spawn.c: static int shell(void) { return fork(); }"
finish
