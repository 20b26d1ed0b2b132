#!/bin/sh
# test_cli_dialects.sh: XLIFF as tools write it. Each fixture is translated
# with the identity backend and compared byte for byte with its expected
# output (FIXTURE.identity.EXT): Trados SDLXLIFF (empty mrk segments filled,
# locked and translated ones kept, sdl:seg marked origin="mt"), memoQ
# MQXLIFF (mq:status, timestamp from SOURCE_DATE_EPOCH), XLIFF 1.0 and 1.1
# (version and namespace kept, no seg-source), a prefixed namespace
# (TYPO3). Translating an expected output again changes nothing.
# Env: XLIFFMT, XMT_FIXTURES, XMLLINT, XMT_TEST_DATA.
# Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup dialects

x=$XLIFFMT
fx=${XMT_FIXTURES:-}
SOURCE_DATE_EPOCH=1795000000
export SOURCE_DATE_EPOCH

# same DESC A B: files A and B are equal; shows the difference when not.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$3" | sed -n '1,8s/^/    /p'
  fi
}

# gives DESC IN EXPECTED [OPTION...]: identity translation of fixture IN
# is fixture EXPECTED.
gives() {
  desc=$1 in=$2 expected=$3
  shift 3
  rm -f "$tmp/o"
  if exits_with 0 "$desc" "$x" translate "$fx/$in" -o "$tmp/o" --mt identity \
    -q "$@"; then
    same "$desc" "$fx/$expected" "$tmp/o"
  fi
}

sdl=sdl-library.sdlxliff
sdl_out=sdl-library.identity.sdlxliff
gives "SDLXLIFF: empty segments filled, sdl:seg marked" $sdl $sdl_out
gives "SDLXLIFF: --resegment keeps Trados's segments" $sdl $sdl_out --resegment
gives "SDLXLIFF translated: left as it is" $sdl_out $sdl_out
# The fixture's differences from its source, exactly.
diff "$fx/$sdl" "$fx/$sdl_out" >/dev/null
check "SDLXLIFF: the expected output differs from the input" test $? -eq 1

rm -f "$tmp/o"
if exits_with 0 "SDLXLIFF --overwrite" "$x" translate "$fx/$sdl" -o "$tmp/o" \
  --mt identity -q --overwrite; then
  check "SDLXLIFF --overwrite: translated segment replaced" \
    grep -q -F '<mrk mtype="seg" mid="3">Good morning.</mrk>' "$tmp/o"
  check "SDLXLIFF --overwrite: its sdl:seg marked, no match percent, its history kept" \
    grep -q -F '<sdl:seg id="3" conf="Draft" origin="mt" origin-system="xliffmt"><sdl:prev-origin origin="source" percent="0"/>' "$tmp/o"
  check "SDLXLIFF --overwrite: locked segment still empty" \
    grep -q -F '<mrk mtype="seg" mid="5"/><x id="pt3"/>' "$tmp/o"
  check "SDLXLIFF --overwrite: locked sdl:seg untouched" \
    grep -q -F '<sdl:seg id="5" locked="true"/>' "$tmp/o"
fi

# A segment the engine fails on stays empty and unmarked, as untranslated;
# the other segments of its unit are filled.
cat >"$tmp/fails-on-very.sh" <<'EOF'
#!/bin/sh
while IFS= read -r l; do
  case $l in *very*) printf '\377\n' ;; *) printf 'ES: %s\n' "$l" ;; esac
done
EOF
chmod +x "$tmp/fails-on-very.sh"
if exits_with 3 "SDLXLIFF: a failed segment" "$x" translate "$fx/$sdl" \
  -o "$tmp/f" --mt "cmd:$tmp/fails-on-very.sh" -q; then
  check "SDLXLIFF: the failed segment stays empty, its sdl:seg unmarked" \
    grep -q -F '<mrk mtype="seg" mid="1">ES: The <g id="pt1">new library</g> opens on Monday.</mrk> <mrk mtype="seg" mid="2"/></target><sdl:seg-defs><sdl:seg id="1" conf="Draft" origin="mt" origin-system="xliffmt"/><sdl:seg id="2"/></sdl:seg-defs>' \
    "$tmp/f"
fi

# extract lists only the segments that want a translation.
printf '%s\t%s\n' \
  'a1d6e3b2-4c7f-4e0a-9b1d-2f3c4d5e6f70#1' 'The new library opens on Monday.' \
  'a1d6e3b2-4c7f-4e0a-9b1d-2f3c4d5e6f70#2' 'It is very big.' \
  'b2e7f4c3-5d80-4f1b-8c2e-3a4b5c6d7e81#4' 'You can read many books.' \
  'c3f805d4-6e91-402c-9d3f-4b5c6d7e8f92#6' 'All rights reserved.' \
  >"$tmp/want.tsv"
if exits_with 0 "SDLXLIFF extract" "$x" extract "$fx/$sdl" -q; then
  sed -i 1d "$tmp/out" && # the header
  same "SDLXLIFF extract: open segments only" "$tmp/want.tsv" "$tmp/out"
fi
# merge of the extracted text gives what identity translation gives.
rm -f "$tmp/o"
if exits_with 0 "SDLXLIFF merge" "$x" merge "$fx/$sdl" --translations \
  "$tmp/want.tsv" -o "$tmp/o" -q; then
  same "SDLXLIFF extract then merge: the identity output" "$fx/$sdl_out" \
    "$tmp/o"
fi
if exits_with 0 "SDLXLIFF check" "$x" check "$fx/$sdl"; then
  check "SDLXLIFF check: 1 unit with target" \
    grep -q -F 'units              5 (4 translatable, 1 with target)' "$tmp/out"
fi

gives "MQXLIFF: status, timestamp, target start tag kept" mq-library.mqxliff \
  mq-library.identity.mqxliff
gives "MQXLIFF translated: left as it is" mq-library.identity.mqxliff \
  mq-library.identity.mqxliff

gives "XLIFF 1.0 kept" xliff10.xlf xliff10.identity.xlf
gives "XLIFF 1.0: no seg-source even with --seg-source" xliff10.xlf \
  xliff10.identity.xlf --seg-source
gives "XLIFF 1.1 of odf2xliff, --approved" xliff11-odf2xliff.xlf \
  xliff11-odf2xliff.identity.xlf -t es --approved
gives "XLIFF 1.1 with --seg-source: the same" xliff11-odf2xliff.xlf \
  xliff11-odf2xliff.identity.xlf -t es --approved --seg-source
if exits_with 0 "check XLIFF 1.1" "$x" check "$fx/xliff11-odf2xliff.xlf"; then
  check "check names XLIFF 1.1" grep -q 'xliff11-odf2xliff.xlf: XLIFF 1.1, UTF-8' \
    "$tmp/out"
fi

pre=typo3-prefixed.xlf
gives "prefixed namespace" $pre typo3-prefixed.identity.xlf
rm -f "$tmp/o"
if exits_with 0 "prefixed --seg-source" "$x" translate "$fx/$pre" -o "$tmp/o" \
  --mt identity -q --seg-source; then
  check "prefixed --seg-source: seg-source, mrk and target prefixed" \
    test "$(grep -c '<xlf:seg-source><xlf:mrk mid="0" mtype="seg">' "$tmp/o")" -eq 2
  check "prefixed --seg-source: no unprefixed element" \
    test "$(grep -c '<target\|<seg-source\|<mrk' "$tmp/o")" -eq 0
fi

xsd=${XMT_TEST_DATA:-}/xliff-schema/xliff-core-1.2-transitional.xsd
case ${XMLLINT:-no} in
'' | no) echo "note: xmllint not available, schema checks skipped" ;;
*)
  valid() { "$XMLLINT" --noout --nonet --schema "$xsd" "$1" 2>/dev/null; }
  if [ -f "$xsd" ]; then
    for opt in "" --seg-source --alt-trans; do
      rm -f "$tmp/o"
      # $opt is empty or one word: left unquoted on purpose.
      # shellcheck disable=SC2086
      if exits_with 0 "prefixed $opt" "$x" translate "$fx/$pre" -o "$tmp/o" \
        --mt pseudo -q $opt; then
        check "prefixed ${opt:-default}: output validates" valid "$tmp/o"
      fi
    done
  fi
  ;;
esac

finish
