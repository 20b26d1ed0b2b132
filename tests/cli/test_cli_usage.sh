#!/bin/sh
# test_cli_usage.sh: command line parsing, help, version and exit codes.
# Env: XLIFFMT (binary), XMT_SAMPLES (samples dir). Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
sample=${XMT_SAMPLES:-}/sample.xlf
if [ ! -f "$sample" ]; then
  echo "SKIP: no sample.xlf in XMT_SAMPLES='${XMT_SAMPLES:-}'"
  exit 77
fi

cli_setup usage

# shellcheck disable=SC2317 # called through check
has() { grep -q -e "$1" "$2"; }

x=$XLIFFMT

expect_exit 0 "--help" "$x" --help
check "--help mentions translate" has 'translate' "$tmp/out"
check "--help mentions check" has 'check' "$tmp/out"

expect_exit 0 "--version" "$x" --version
check "--version prints 'xliffmt 0.1.0'" \
  test "$(cat "$tmp/out")" = "xliffmt 0.1.0"

expect_exit 1 "no arguments" "$x"
check "no arguments: usage on stderr" has 'Usage' "$tmp/err"
expect_exit 1 "unknown command" "$x" frobnicate
check "unknown command named on stderr" has 'frobnicate' "$tmp/err"

expect_exit 0 "translate --help" "$x" translate --help
check "translate --help mentions --mt" has '--mt' "$tmp/out"
expect_exit 0 "check --help" "$x" check --help
check "check --help mentions --json" has '--json' "$tmp/out"

out=$tmp/o.xlf
expect_exit 1 "translate without --mt" "$x" translate "$sample" -o "$out"
check "translate without --mt: says --mt" has '--mt' "$tmp/err"
check "translate without --mt: no output file" test ! -e "$out"
expect_exit 1 "unknown backend" "$x" translate "$sample" -o "$out" --mt nosuch
check "unknown backend named on stderr" has 'nosuch' "$tmp/err"
check "unknown backend: no output file" test ! -e "$out"

expect_exit 1 "bad --state value" \
  "$x" translate "$sample" -o "$out" --mt identity --state bogus
check "bad --state named on stderr" has 'bogus' "$tmp/err"
expect_exit 0 "--state x-custom accepted" \
  "$x" translate "$sample" -o "$out" --mt identity --state x-custom -q
check "--state x-custom written" has 'state="x-custom"' "$out"
rm -f "$out"

expect_exit 1 "two input files" \
  "$x" translate "$sample" "$sample" -o "$out" --mt identity
check "two input files: no output file" test ! -e "$out"

expect_exit 0 "--quiet good run" \
  "$x" translate "$sample" -o "$out" --mt identity --quiet
check "--quiet: nothing on stderr" test ! -s "$tmp/err"
check "--quiet: nothing on stdout with -o" test ! -s "$tmp/out"
rm -f "$out"

expect_exit 0 "good run without --quiet" \
  "$x" translate "$sample" -o "$out" --mt identity
check "summary: exactly one line on stderr" \
  test "$(wc -l <"$tmp/err" | tr -d ' ')" = 1
check "summary names the input and counts units" \
  has "sample.xlf: 8 units, 7 translated" "$tmp/err"

finish
