#!/bin/sh
# test_fields.sh: scripts/check-house.sh --fields counts, for each struct
# of filter/pipeline/*.h and filter/filter_private.h, the
# filter/pipeline/*.c files that use its fields. On a tree of its own: a
# field of the same name in two structs counts for the struct of the
# variable it follows (declared as a parameter, a local, a second
# declarator or through a typedef, in that function), chains through a
# member's type and array subscripts, not a comment or a string, and not
# a name that another function declares with another struct; a struct
# used in four files is over the limit (exit 1), or reported (--report,
# exit 0); one named by --pending is printed as pending and does not fail,
# but fails once within the limit. Then this tree passes the check as
# make lint runs it (Makefile.am's FIELDS_PENDING), with the structs
# walled off so far (job, item, lane, result, window) within the limit.
# Needs Universal Ctags (scripts/install-deps.sh). Exit 0 pass, 1 fail.
set -u
. "$(dirname "$0")/../cli/lib.sh"
cli_setup fields
house=$(cd "$(dirname "$0")/../.." && pwd)/scripts/check-house.sh
require_ctags

p=$tmp/tree/filter/pipeline
mkdir -p "$p"
cat >"$p/p.h" <<'C'
struct win {
  int n;
  int failed;
};
struct run {
  int failed;
  struct win *fill;
  struct win wins[2];
  int unused;
};
typedef struct run run_t;
C
cat >"$tmp/tree/filter/filter_private.h" <<'C'
struct other {
  int failed;
};
C
cat >"$p/a.c" <<'C'
/* run->unused in a comment is no use,
 * nor is run->fill->n */
static int f(struct run *run, struct other *o) {
  const char *s = "run->unused";
  return run->failed + o->failed + s[0];
}
C
cat >"$p/b.c" <<'C'
int g(struct win *w) { return w->failed; }
int h(const run_t *r) {
  return r->fill->n + r->wins[r->failed].n;
}
C
cat >"$p/c.c" <<'C'
int k(void *arg) {
  struct run *run = arg, *other = arg;
  return other->fill != 0;
}
int m(struct other *run) { return run->failed; }
C
cat >"$p/d.c" <<'C'
static int cast(void *arg) { return ((struct run *)arg)->unused; }
static int y(struct run *r2) {
  return r2->wins[0].failed;
}
static int z(struct win *p, int n) { return p[n].n; }
C

cat >"$tmp/want" <<'W'
fields: struct run: used in 4 files (at most 3), 3 fields; widest: failed (2 files), fill (2 files), wins (2 files); most in one file: filter/pipeline/b.c (3 fields)
fields: struct other: used in 2 files, 1 field; widest: failed (2 files); most in one file: filter/pipeline/a.c (1 field)
fields: struct win: used in 2 files, 2 fields; widest: failed (2 files), n (2 files); most in one file: filter/pipeline/b.c (2 fields)
W
# counted DESC STATUS ARGS...: check-house.sh ARGS on the tree exits with
# STATUS and prints exactly $tmp/want.
counted() {
  c_desc=$1 c_want=$2
  shift 2
  XMT_HOUSE_ROOT=$tmp/tree sh "$house" "$@" >"$tmp/out" 2>&1
  rc=$?
  if [ $rc -eq "$c_want" ] && cmp -s "$tmp/want" "$tmp/out"; then
    pass "$c_desc"
  else
    fail "$c_desc (exit $rc):"
    diff "$tmp/want" "$tmp/out"
  fi
}
counted "the files using each struct's fields are counted" 1 --fields
counted "--report prints the same and exits 0" 0 --fields --report

# A struct still to be walled off: printed, not failing; the others still
# count.
sed 's/(at most 3)/(at most 3, pending)/' "$tmp/want" >"$tmp/want.all"
cp "$tmp/want.all" "$tmp/want"
counted "a pending struct over the limit does not fail" 0 --fields \
  --pending=run
cp "$tmp/want.all" "$tmp/want"
echo "fields: struct other is within the limit: no longer pending (take it off --pending)" >>"$tmp/want"
counted "a pending struct within the limit fails" 1 --fields \
  --pending=other,run
sed -e 's/(at most 3, pending)/(at most 3)/' "$tmp/want.all" >"$tmp/want"
echo "fields: struct win is within the limit: no longer pending (take it off --pending)" >>"$tmp/want"
counted "a struct over the limit fails beside a pending one" 1 --fields \
  --pending=win

# Three files are within the limit: d.c's uses of struct run go (a use
# through a cast is not seen).
sed -i -e '/cast/d' -e 's/r2->wins\[0\]/((struct win *)r2)/' "$p/d.c"
cat >"$tmp/want" <<'W'
fields: struct run: used in 3 files, 3 fields; widest: failed (2 files), fill (2 files), wins (1 file); most in one file: filter/pipeline/b.c (3 fields)
fields: struct other: used in 2 files, 1 field; widest: failed (2 files); most in one file: filter/pipeline/a.c (1 field)
fields: struct win: used in 2 files, 2 fields; widest: n (2 files), failed (1 file); most in one file: filter/pipeline/b.c (2 fields)
W
counted "three files are within the limit" 0 --fields

# This tree as make lint checks it: its pending structs from Makefile.am.
top=$(cd "$(dirname "$0")/../.." && pwd)
pending=$(sed -n 's/^FIELDS_PENDING = //p' "$top/Makefile.am")
lint=$(sed -n 's/^[[:space:]].*check-house.sh \(--fields.*\)$/\1/p' \
  "$top/Makefile.am")
sh "$house" --fields --pending="$pending" >"$tmp/out" 2>&1
rc=$?
# The structs walled off so far stay within the limit.
walled=yes
for s in job item lane result window; do
  grep -q "^fields: struct $s: used in [0-3] files*, " "$tmp/out" || walled=no
done
if [ "$lint" = '--fields --pending=$(FIELDS_PENDING)' ] && [ $rc -eq 0 ] &&
  [ $walled = yes ]; then
  pass "this tree passes make lint's field check (pending: $pending)"
else
  fail "this tree passes make lint's field check (exit $rc, lint: $lint):"
  cat "$tmp/out"
fi
finish
