#!/bin/sh
# test_cli_schema.sh: a document valid against the XLIFF 1.2 transitional
# schema stays valid after identity translation (default: one whole target;
# --seg-source: Tikal's seg-source and mrk targets; --alt-trans).
# Inputs: every Okapi XLIFF file, every good fixture (enc-*.xlf), the sample.
# Env: XLIFFMT, XMT_TEST_DATA, XMT_FIXTURES, XMT_SAMPLES, XMLLINT.
# Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
case ${XMLLINT:-no} in
'' | no)
  echo "SKIP: xmllint not available (XMLLINT='${XMLLINT:-}')"
  exit 77
  ;;
esac
require_data xliff-schema/xliff-core-1.2-transitional.xsd okapi/xliff
xsd=$XMT_TEST_DATA/xliff-schema/xliff-core-1.2-transitional.xsd

cli_setup schema

valid() { "$XMLLINT" --noout --nonet --schema "$xsd" "$1" >"$tmp/lint" 2>&1; }

x=$XLIFFMT
nvalid=0
ninvalid=0

# one FILE: validates the outputs of a valid FILE.
one() {
  f=$1
  name=${f##*/}
  if ! valid "$f"; then
    ninvalid=$((ninvalid + 1))
    echo "# $name: input not valid, skipped"
    return
  fi
  nvalid=$((nvalid + 1))
  for mode in default --seg-source --alt-trans; do
    opt=
    [ "$mode" = default ] || opt=$mode
    rm -f "$tmp/o.xlf"
    # $opt is empty or one word: left unquoted on purpose.
    # shellcheck disable=SC2086
    if exits_with 0 "$name ($mode): translate" \
      "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q $opt; then
      if valid "$tmp/o.xlf"; then
        pass "$name ($mode): output validates"
      else
        fail "$name ($mode): output does not validate"
        sed -n '1,5s/^/    /p' "$tmp/lint"
      fi
    fi
  done
}

for f in "$XMT_TEST_DATA"/okapi/xliff/* "${XMT_FIXTURES:-}"/enc-*.xlf \
  "${XMT_SAMPLES:-}"/sample.xlf; do
  [ -f "$f" ] || continue
  one "$f"
done

echo "# $nvalid inputs valid, $ninvalid not valid"
if [ "$nvalid" -ge 3 ]; then
  pass "$nvalid valid inputs (at least 3)"
else
  fail "only $nvalid valid inputs (at least 3 expected)"
fi

finish
