#!/bin/sh
# test_cli_backends.sh: xliffmt translate of the sample through the
# built-in backends: apertium:eng-spa, cmd: with Apertium's null-flush
# pipeline, http: with an apertium-apy server started here, plugin: with
# the sample plug-in, pseudo; and faults injected with the fake engine
# (exit 3, the output written and valid, each failed segment named).
# Each output must have a target in every translatable unit, every inline
# code of a source once in its target, and validate against the XLIFF 1.2
# schema. The Apertium cases are skipped when Apertium is not installed.
# Env: XLIFFMT, XMT_SAMPLES, XMT_FIXTURES, XMT_TEST_DATA, XMLLINT.
# Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup backends

x=$XLIFFMT
sample=${XMT_SAMPLES:-}/sample.xlf
fake=${XMT_FIXTURES:-}/fake-engine.sh
# Modules are built in the build tree, beside the xliffmt program.
plugin=$(cd "$(dirname "$XLIFFMT")" && pwd)/samples/plugin/.libs/upper_backend.so
xsd=$XMT_TEST_DATA/xliff-schema/xliff-core-1.2-transitional.xsd
modes=/usr/share/apertium/modes
units_translatable="tu1 tu3 tu4 tu5 tu6 tu7 tu8" # tu2 is translate="no"

have_xmllint=1
case ${XMLLINT:-no} in '' | no) have_xmllint=0 ;; esac
have_schema=0
if [ "$have_xmllint" -eq 1 ] &&
  have_data xliff-schema/xliff-core-1.2-transitional.xsd; then
  have_schema=1
fi
have_apertium=0
if [ -r "$modes/eng-spa.mode" ] && command -v apertium-wblank-mode >/dev/null; then
  have_apertium=1
else
  echo "# apertium with eng-spa not installed: apertium, cmd and http cases skipped"
fi

# xp FILE XPATH: the number an XPath count() gives.
xp() { "$XMLLINT" --xpath "$2" "$1" 2>/dev/null; }
tu() { echo "//*[local-name()='trans-unit'][@id='$1']"; }

# targets NAME FILE UNITS...: each unit listed has a <target>.
targets() {
  name=$1 f=$2
  shift 2
  missing=
  for u in "$@"; do
    if [ "$have_xmllint" -eq 1 ]; then
      n=$(xp "$f" "count($(tu "$u")/*[local-name()='target'])")
    else
      n=$(sed -n "/<trans-unit id=\"$u\"/,/<\/trans-unit>/p" "$f" | grep -c '<target')
    fi
    [ "$n" = 1 ] || missing="$missing $u"
  done
  if [ -z "$missing" ]; then pass "$name: a target in each of $*"; else
    fail "$name: no target in$missing"
  fi
}

# codes NAME FILE UNITS...: every inline code of each unit's source (or
# seg-source) is in its target once, with its id.
codes() {
  name=$1 f=$2
  shift 2
  if [ "$have_xmllint" -eq 0 ]; then
    echo "# $name: no xmllint, inline codes not counted"
    return
  fi
  bad=
  for u in "$@"; do
    src="$(tu "$u")/*[local-name()='source']"
    [ "$(xp "$f" "count($(tu "$u")/*[local-name()='seg-source'])")" = 1 ] &&
      src="$(tu "$u")/*[local-name()='seg-source']"
    tgt="$(tu "$u")/*[local-name()='target']"
    for e in g x bx ex bpt ept ph it; do
      for id in 1 2; do
        sel="//*[local-name()='$e'][@id='$id']"
        s=$(xp "$f" "count($src$sel)")
        t=$(xp "$f" "count($tgt$sel)")
        [ "$s" = "$t" ] || bad="$bad $u:$e#$id($s/$t)"
      done
    done
  done
  if [ -z "$bad" ]; then pass "$name: every inline code once in its target"; else
    fail "$name: inline codes differ (source/target):$bad"
  fi
}

# valid NAME FILE: validates against the XLIFF 1.2 schema.
valid() {
  if [ "$have_schema" -eq 0 ]; then
    echo "# $1: no xmllint or schema, not validated"
    return
  fi
  if "$XMLLINT" --noout --nonet --schema "$xsd" "$2" >"$tmp/lint" 2>&1; then
    pass "$1: output validates"
  else
    fail "$1: output does not validate"
    sed -n '1,5s/^/    /p' "$tmp/lint"
  fi
}

# target_has NAME FILE UNIT TEXT: the unit's target contains TEXT.
target_has() {
  t=$(sed -n "/<trans-unit id=\"$3\"/,/<\/trans-unit>/p" "$2" |
    sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p')
  case $t in
  *"$4"*) pass "$1: $3 target has '$4'" ;;
  *) fail "$1: $3 target lacks '$4': $t" ;;
  esac
}

# whole NAME OUT ARGS...: a run that must succeed, with all the checks.
whole() {
  name=$1 out=$2
  shift 2
  rm -f "$out"
  if exits_with 0 "$name: translate" "$x" translate "$sample" -o "$out" \
    -s en -t es -q "$@"; then
    pass "$name: translate (exit 0)"
    targets "$name" "$out" $units_translatable
    codes "$name" "$out" $units_translatable
    valid "$name" "$out"
  fi
}

# --- Apertium, three ways -----------------------------------------------------

if [ "$have_apertium" -eq 1 ]; then
  t0=$(date +%s)
  whole apertium "$tmp/apertium.xlf" --mt apertium:eng-spa
  target_has apertium "$tmp/apertium.xlf" tu3 "Tratado"
  target_has apertium "$tmp/apertium.xlf" tu8 "Bruselas"

  # The same engine through cmd: the pair's mode file run in null-flush
  # mode, between two "sed -z" that escape and unescape what Apertium's
  # stream format reserves, one NUL-terminated batch at a time. (Debian's
  # "apertium -z" cannot serve here: its txt deformatter drops the NUL
  # bytes, and a stage of the script holds each record back until the
  # next one comes.)
  esc='s/[][\\^$@/<>{}]/\\&/g'
  unesc='s/\\\(.\)/\1/g'
  pipeline="set -- -n ''; sed -u -z '$esc' | { eval \"\$(apertium-wblank-mode -z $modes/eng-spa.mode)\"; } | sed -u -z '$unesc'"
  whole cmd "$tmp/cmd.xlf" --mt "cmd:$pipeline" --mt-option flush=null
  target_has cmd "$tmp/cmd.xlf" tu3 "Tratado"

  # And through http: an apertium-apy server on a free loopback port.
  if command -v apertium-apy >/dev/null && command -v python3 >/dev/null; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    apertium-apy -p "$port" "$modes" >"$tmp/apy.log" 2>&1 &
    apy=$!
    trap 'kill $apy 2>/dev/null; rm -rf "$tmp"' EXIT
    ready=0
    i=0
    while [ $i -lt 100 ]; do
      if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/listPairs', timeout=1)" 2>/dev/null; then
        ready=1
        break
      fi
      sleep 0.2
      i=$((i + 1))
    done
    if [ $ready -eq 1 ]; then
      whole http "$tmp/http.xlf" --mt "http:http://127.0.0.1:$port"
      target_has http "$tmp/http.xlf" tu3 "Tratado"
    else
      fail "apertium-apy did not start on port $port"
      sed -n '1,5s/^/    /p' "$tmp/apy.log"
    fi
    kill $apy 2>/dev/null
    wait $apy 2>/dev/null
  else
    echo "# apertium-apy or python3 missing: http case skipped"
  fi
  echo "# apertium cases: $(($(date +%s) - t0)) s"
fi

# --- Plug-in and pseudo --------------------------------------------------------

if [ -f "$plugin" ]; then
  whole plugin "$tmp/plugin.xlf" --mt "plugin:$plugin"
  target_has plugin "$tmp/plugin.xlf" tu8 "DONE AT BRUSSELS, 20 NOVEMBER 2026."
else
  fail "the sample plug-in is not built: $plugin"
fi
expect_exit 1 "plugin: missing library" "$x" translate "$sample" -t es \
  --mt plugin:"$tmp/none.so"
grep -q "cannot load plug-in" "$tmp/err" && pass "plugin: missing library named" ||
  fail "plugin: missing library message: $(cat "$tmp/err")"

whole pseudo "$tmp/pseudo.xlf" --mt pseudo
target_has pseudo "$tmp/pseudo.xlf" tu8 "[át Dóñé"

# --- Faults: the fake engine ---------------------------------------------------

# fault NAME OUT ARGS...: a run that must end partial (exit 3) with an
# output file that validates.
fault() {
  name=$1 out=$2
  shift 2
  rm -f "$out"
  if exits_with 3 "$name: translate" "$x" translate "$sample" -o "$out" \
    -s en -t es "$@"; then
    pass "$name: partial (exit 3)"
    if [ -f "$out" ]; then pass "$name: output written"; else
      fail "$name: no output file"
    fi
    valid "$name" "$out"
  fi
}

# named NAME SEGMENTS...: stderr names each failed segment.
named() {
  name=$1
  shift
  missing=
  for s in "$@"; do grep -q "$s" "$tmp/err" || missing="$missing $s"; done
  if [ -z "$missing" ]; then pass "$name: failed segments named: $*"; else
    fail "$name: not named on stderr:$missing"
    sed -n '1,8s/^/    stderr: /p' "$tmp/err"
  fi
}

# The engine dies at tu6 (the whole sample is one batch): the batch is
# sent again a segment at a time, on a new engine after each crash, so
# only tu6 fails.
fault crash "$tmp/crash.xlf" --mt "cmd:exec sh '$fake' fail-on Commission"
named crash tu6
grep -q 'segment tu6#0 not translated: .*killed by signal 9' "$tmp/err" &&
  pass "crash: reason given" || fail "crash: no reason on stderr"
check "crash: one failed segment" test "$(grep -c 'not translated:' "$tmp/err")" -eq 1
[ -f "$tmp/crash.xlf" ] &&
  targets crash "$tmp/crash.xlf" tu1 tu3 tu4 tu5 tu7 tu8
# max-failures=1: after one segment failed alone, the rest of the batch is
# not sent.
fault max-failures "$tmp/crash1.xlf" \
  --mt "cmd:exec sh '$fake' fail-on Commission" --mt-option max-failures=1
named max-failures tu6 'tu7#0' 'tu7#1' tu8
grep -q "segment tu8#0 not translated: not sent: engine .* failed 1 segment in a row sent alone" "$tmp/err" &&
  pass "max-failures: the rest not sent" || fail "max-failures: $(cat "$tmp/err")"
[ -f "$tmp/crash1.xlf" ] && targets max-failures "$tmp/crash1.xlf" tu1 tu3 tu4 tu5

# A hanging engine: bounded by --timeout (the batch, then three segments
# alone, the rest not sent), every segment named.
t0=$(date +%s)
fault hang "$tmp/hang.xlf" --mt "cmd:sh '$fake' hang" --timeout 1
t=$(($(date +%s) - t0))
[ "$t" -le 10 ] && pass "hang: done in $t s" || fail "hang: took $t s"
named hang tu1 tu3 tu4 tu5 tu6 'tu7#0' 'tu7#1' tu8
grep -q 'timed out after 1.0 s' "$tmp/err" && pass "hang: reason given" ||
  fail "hang: no timeout reason on stderr"

# Garbage: only the segment answered with invalid UTF-8 fails.
fault garbage "$tmp/garbage.xlf" --mt "cmd:sh '$fake' garbage"
named garbage tu3
grep -q 'not valid UTF-8' "$tmp/err" && pass "garbage: reason given" ||
  fail "garbage: no reason on stderr"

expect_exit 1 "cmd: unknown option" "$x" translate "$sample" -t es \
  --mt cmd:cat --mt-option speed=11
grep -q "unknown option 'speed=11' for the cmd backend" "$tmp/err" &&
  pass "cmd: unknown option named" || fail "cmd: $(cat "$tmp/err")"

finish
