# lib.sh -- shared by the CLI tests: sourced, not run. Provides the checks
# and the "N passed, M failed" summary; each script calls cli_setup first.

if [ -z "${XLIFFMT:-}" ] || [ ! -x "$XLIFFMT" ]; then
  echo "XLIFFMT is not set to an executable" >&2
  exit 99
fi

passed=0
failed=0

# cli_setup NAME: a scratch folder in $tmp, removed on exit.
cli_setup() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/xmt-$1.XXXXXX") || exit 99
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 1' HUP INT TERM
}

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() {
  failed=$((failed + 1))
  echo "FAIL - $1"
}
# check DESC CMD...: passes when CMD succeeds.
check() {
  desc=$1
  shift
  if "$@"; then pass "$desc"; else fail "$desc"; fi
}
# exits_with STATUS DESC CMD...: runs CMD with stdout in $tmp/out and
# stderr in $tmp/err; returns 0 when it exits with STATUS, else records a
# failure and returns 1.
exits_with() {
  want=$1 desc=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  [ "$got" -eq "$want" ] && return 0
  fail "$desc: expected exit $want, got $got"
  sed -n '1,5s/^/    stderr: /p' "$tmp/err"
  return 1
}
# expect_exit STATUS DESC CMD...: exits_with, counting a pass too.
expect_exit() {
  exits_with "$@" || return 1
  pass "$2 (exit $1)"
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && exit 0
  exit 1
}
