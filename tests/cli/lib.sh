# lib.sh -- shared by the CLI tests: sourced, not run. Provides the checks
# and the "N passed, M failed" summary; each script calls cli_setup first.

if [ -z "${XLIFFMT:-}" ] || [ ! -x "$XLIFFMT" ]; then
  echo "XLIFFMT is not set to an executable" >&2
  exit 99
fi

passed=0
failed=0

# peak_kb CMD...: runs CMD (stdout and stderr in $tmp/out and $tmp/err),
# sampling its peak resident memory (VmHWM) as it runs; sets $status and
# $peak (KB).
peak_kb() {
  "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  peak=0
  while kill -0 "$pid" 2>/dev/null; do
    hwm=$(sed -n 's/^VmHWM:[^0-9]*\([0-9]*\).*/\1/p' "/proc/$pid/status" \
      2>/dev/null)
    [ -n "$hwm" ] && [ "$hwm" -gt "$peak" ] && peak=$hwm
    sleep 0.05
  done
  wait "$pid"
  status=$?
}

# The test data (tests/data/README.md): XMT_TEST_DATA, which make check
# sets, or else this repository's tests/data.
XMT_TEST_DATA=${XMT_TEST_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
data_missing=
data_skip() {
  echo "SKIP: test data $1 not found (set XMT_TEST_DATA or --with-test-data)"
  exit 77
}
# require_data PATH...: skips the whole test (exit 77) unless every PATH
# (relative to the test data) exists, naming the first that does not.
require_data() {
  for data_path in "$@"; do
    [ -e "$XMT_TEST_DATA/$data_path" ] || data_skip "$XMT_TEST_DATA/$data_path"
  done
}
# have_data PATH: true when PATH exists in the test data. Otherwise false,
# and finish reports a skip instead of a pass: a test whose data is missing
# is skipped, not failed, while its other checks still count.
have_data() {
  [ -e "$XMT_TEST_DATA/$1" ] && return 0
  echo "# test data $XMT_TEST_DATA/$1 not found: checks skipped"
  [ -n "$data_missing" ] || data_missing=$XMT_TEST_DATA/$1
  return 1
}

# cli_setup NAME: a scratch folder in $tmp, removed on exit.
cli_setup() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/xmt-$1.XXXXXX") || exit 99
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 1' HUP INT TERM
}

# result_label: said before each result, so that a test run twice (over
# HTTP and HTTPS) tells its passes apart.
result_label=
pass() {
  passed=$((passed + 1))
  echo "ok - ${result_label:+$result_label: }$1"
}
fail() {
  failed=$((failed + 1))
  echo "FAIL - ${result_label:+$result_label: }$1"
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
# expect_text DESC FILE TEXT: FILE holds exactly TEXT.
expect_text() {
  printf '%s\n' "$3" >"$tmp/want"
  if cmp -s "$tmp/want" "$2"; then
    pass "$1"
  else
    fail "$1"
    diff "$tmp/want" "$2" | sed -n '1,12s/^/    /p'
  fi
}
# require_commands WHY CMD...: skips the test (77), saying WHY, unless
# every CMD is on PATH.
require_commands() {
  why=$1
  shift
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 && continue
    echo "SKIP: $why"
    exit 77
  done
}
# require_ctags: skips the test (77) without Universal Ctags, which
# scripts/check-house.sh reads the sources with.
require_ctags() {
  ctags --version 2>/dev/null | grep -q 'Universal Ctags' && return 0
  echo "SKIP: Universal Ctags not installed (scripts/install-deps.sh)"
  exit 77
}
# cache_fixtures: for the cache tests, $tmp/doc.xlf (three units, a
# repeated sentence, a tag) and $tmp/engine.sh, an engine that logs each
# line it is sent to $tmp/sent.log and answers "ES <line>".
cache_fixtures() {
  cat >"$tmp/doc.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>The red car. The blue car.</source></trans-unit>
<trans-unit id="2"><source>Press <g id="1">Save</g> now.</source></trans-unit>
<trans-unit id="3"><source>The red car.</source></trans-unit>
</body></file></xliff>
EOD
  # sent.log: the segments sent, not the check line that ends each batch.
  cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ "\$line" = "2 4 6 8 0 1 3 5 7 9" ] || printf '%s\n' "\$line" >>"$tmp/sent.log"
  printf 'ES %s\n' "\$line"
done
EOD
  chmod +x "$tmp/engine.sh"
}
# cache_run OUT REPORT ARGS...: translates $tmp/doc.xlf with that engine.
cache_run() {
  out=$1 report=$2
  shift 2
  "$XLIFFMT" translate "$tmp/doc.xlf" -o "$out" --mt "cmd:$tmp/engine.sh" \
    -q --report "$report" "$@"
}
# node_package PACKAGES CACHED [KEEP]: sets lib to a folder whose
# node_modules holds each of PACKAGES (space-separated): CACHED when it has
# them (an install kept between runs), else KEEP when it has them or they
# can be installed there (a folder kept for later runs), else a new
# install in the scratch folder; skips the test (77) without node, npm or
# the registry.
node_package() {
  if ! command -v node >/dev/null; then
    echo "SKIP: node not installed (apt-get install nodejs npm)"
    exit 77
  fi
  for lib in "$2" "${3:-}"; do
    [ -n "$lib" ] || continue
    node_have=1
    for node_p in $1; do
      [ -d "$lib/node_modules/$node_p" ] || node_have=0
    done
    [ "$node_have" -eq 1 ] && return 0
  done
  if ! command -v npm >/dev/null; then
    echo "SKIP: npm not installed (apt-get install npm)"
    exit 77
  fi
  lib=${3:-$tmp/node}
  mkdir -p "$lib"
  # shellcheck disable=SC2086
  if ! (cd "$lib" && timeout 300 npm install --no-audit --no-fund \
    --loglevel=error $1 >"$tmp/npm.log" 2>&1); then
    echo "SKIP: npm could not install $1 (no network?):"
    sed -n '1,5s/^/#   /p' "$tmp/npm.log"
    exit 77
  fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] || exit 1
  [ -z "$data_missing" ] || data_skip "$data_missing"
  exit 0
}

# xliff2_schema OUT: have_lint=1 and OUT the XLIFF 2.0 core schema with
# every module's imported (so that module content is validated rather
# than skipped as lax), when xmllint and the schemas are here; else
# have_lint=0. Sets lint (the xmllint to run) and xsd (the core schema).
xliff2_schema() {
  lint=${XMLLINT:-xmllint}
  xsd=$XMT_TEST_DATA/xliff-schema/2.0/xliff_core_2.0.xsd
  have_lint=1
  command -v "$lint" >/dev/null 2>&1 || have_lint=0
  [ "$have_lint" -eq 0 ] || have_data xliff-schema/2.0/xliff_core_2.0.xsd ||
    have_lint=0
  [ "$have_lint" -eq 1 ] || return 0
  {
    echo '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'
    echo "<xs:import namespace=\"urn:oasis:names:tc:xliff:document:2.0\"" \
      "schemaLocation=\"$xsd\"/>"
    for m in "${xsd%/*}"/modules/*.xsd; do
      ns=$(sed -n 's/.*targetNamespace="\([^"]*\)".*/\1/p' "$m" | head -n 1)
      echo "<xs:import namespace=\"$ns\" schemaLocation=\"$m\"/>"
    done
    echo '</xs:schema>'
  } >"$1"
}

# xliff2_valid DESC FILE: FILE validates against the schema that
# xliff2_schema wrote to modules.xsd in the current folder (when xmllint
# is there), and check finds no error in it.
xliff2_valid() {
  if [ "$have_lint" -eq 1 ]; then
    if "$lint" --noout --nonet --schema modules.xsd "$2" >lint.out 2>&1; then
      pass "$1: valid XLIFF 2.0 core and modules"
    else
      fail "$1: valid XLIFF 2.0 core and modules"
      sed -n '1,5s/^/    /p' lint.out
    fi
  fi
  expect_exit 0 "$1: check finds no error" "$XLIFFMT" check -q "$2"
}
