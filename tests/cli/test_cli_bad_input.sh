#!/bin/sh
# test_cli_bad_input.sh: every bad-*.xlf fixture is refused with exit 1,
# FILE:LINE:COLUMN: on stderr (positions from tests/fixtures/README), and
# leaves no output or temporary file behind; missing input, a target
# language other than the file's, and an unwritable output are refused.
# Env: XLIFFMT, XMT_FIXTURES. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}
if [ ! -f "$fx/enc-utf8.xlf" ]; then
  echo "SKIP: no fixtures in XMT_FIXTURES='$fx'"
  exit 77
fi

cli_setup bad

# stderr_has DESC FIXED-STRING: $tmp/err contains the string.
stderr_has() {
  if grep -q -F -e "$2" "$tmp/err"; then
    pass "$1"
  else
    fail "$1: stderr lacks '$2'"
    sed -n '1,5s/^/    stderr: /p' "$tmp/err"
  fi
}
# stderr_matches DESC ERE: $tmp/err matches the extended regex.
stderr_matches() {
  if grep -q -E -e "$2" "$tmp/err"; then
    pass "$1"
  else
    fail "$1: stderr does not match /$2/"
    sed -n '1,5s/^/    stderr: /p' "$tmp/err"
  fi
}
# shellcheck disable=SC2317 # called through check
empty_dir() { test -z "$(ls -A "$1")"; }

x=$XLIFFMT

# name line column regex-of-a-meaningful-word (see tests/fixtures/README)
cat >"$tmp/table" <<'EOF'
bad-malformed.xlf 9 43 mismatched
bad-not-xliff.xlf 2 1 tmx.*not.*XLIFF|not an XLIFF
bad-xliff30.xlf 2 1 version 3\.0|not supported
bad-unknown-encoding.xlf 1 31 EBCDIC-FOO
bad-invalid-charref.xlf 9 33 invalid character
bad-unpaired-ept.xlf 9 33 unpaired <ept
bad-invalid-utf8.xlf 9 30 UTF-8
bad-truncated.xlf 9 27 no element found|unexpected end|truncated|unclosed
bad-utf16-odd.xlf 13 9 UTF-16
EOF

# Every bad-*.xlf must be in the table, so a new fixture is not forgotten.
for f in "$fx"/bad-*.xlf; do
  name=${f##*/}
  check "$name is listed in this test" grep -q "^$name " "$tmp/table"
done

while read -r name line col word; do
  f=$fx/$name
  if [ ! -f "$f" ]; then
    fail "$name: fixture missing"
    continue
  fi
  dir=$tmp/run-$name
  mkdir "$dir"
  out=$dir/out.xlf
  expect_exit 1 "translate $name" "$x" translate "$f" -o "$out" --mt identity
  stderr_has "translate $name: position $line:$col" "$f:$line:$col:"
  stderr_matches "translate $name: message" "$word"
  check "translate $name: OUT not created" test ! -e "$out"
  leftover=$(ls -A "$dir")
  if [ -z "$leftover" ]; then
    pass "translate $name: nothing left in the output directory"
  else
    fail "translate $name: left behind: $leftover"
  fi
  expect_exit 1 "check $name" "$x" check "$f"
  stderr_has "check $name: position $line:$col" "$f:$line:$col:"
done <"$tmp/table"

good=$fx/enc-utf8.xlf
dir=$tmp/run-misc
mkdir "$dir"

# "written whole or not at all": a failed run leaves an existing OUT as it was.
echo "previous contents" >"$dir/out.xlf"
cp "$dir/out.xlf" "$tmp/previous"
expect_exit 1 "translate bad-truncated.xlf over an existing OUT" \
  "$x" translate "$fx/bad-truncated.xlf" -o "$dir/out.xlf" --mt identity
check "existing OUT unchanged after a failed run" \
  cmp -s "$dir/out.xlf" "$tmp/previous"
check "existing OUT: no other file left" \
  test "$(ls -A "$dir")" = "out.xlf"
rm -f "$dir/out.xlf"

missing=$tmp/no-such-file.xlf
expect_exit 1 "missing input file" \
  "$x" translate "$missing" -o "$dir/out.xlf" --mt identity
stderr_has "missing input file named" "$missing"
check "missing input file: nothing written" empty_dir "$dir"

expect_exit 1 "-t fr on a file into es" \
  "$x" translate "$good" -t fr -o "$dir/out.xlf" --mt identity
stderr_matches "-t fr: names the requested language" '[^a-z]fr([^a-z]|$)'
stderr_matches "-t fr: names the file's language" '[^a-z]es([^a-z]|$)'
check "-t fr: nothing written" empty_dir "$dir"

expect_exit 0 "-t es on a file into es" \
  "$x" translate "$good" -t es -o "$dir/out.xlf" --mt identity -q
rm -f "$dir/out.xlf"

expect_exit 2 "output into a missing directory" \
  "$x" translate "$good" -o "$tmp/no-such-dir/out.xlf" --mt identity
stderr_has "missing directory: output path named" "$tmp/no-such-dir/out.xlf"
check "missing directory: not created" test ! -e "$tmp/no-such-dir"

finish
