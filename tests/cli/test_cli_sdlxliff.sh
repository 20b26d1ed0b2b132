#!/bin/sh
# test_cli_sdlxliff.sh: Trados SDLXLIFF targets that Trados filled with
# copies of their segments' codes (tests/fixtures/sdl-prefilled.sdlxliff).
# A segment with no text of its own, not confirmed and not locked, is
# translated: identity output is compared byte for byte with
# sdl-prefilled.identity.sdlxliff; identity and pseudo output both mark
# every filled segment origin="mt", hold each code of the seg-source once
# in the target (a copy Trados put outside a segment's mrk is not written
# a second time, one between segments in the seg-source too stays), keep
# locked, confirmed and translated segments byte for byte, and change
# nothing outside targets and sdl:seg-defs.
# Env: XLIFFMT, XMT_FIXTURES.
# Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup sdlxliff

x=$XLIFFMT
fx=${XMT_FIXTURES:-}
in=$fx/sdl-prefilled.sdlxliff
expected=$fx/sdl-prefilled.identity.sdlxliff
SOURCE_DATE_EPOCH=1795000000
export SOURCE_DATE_EPOCH

# The segments filled, and those left as they are.
filled="1 2 3 4 5 6 12 13 16"
kept="7 8 9 10 11 14 15"

# same DESC A B: files A and B are equal; shows the difference, a unit a
# line, when not (Trados writes a document on one line).
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    awk '{ gsub(/<group>/, "\n<group>"); print }' "$2" >"$tmp/a"
    awk '{ gsub(/<group>/, "\n<group>"); print }' "$3" >"$tmp/b"
    diff "$tmp/a" "$tmp/b" | sed -n '1,8s/^/    /p'
  fi
}

# parts FILE: the document cut at each "<", one line per piece:
#   outside PIECE       a piece outside <target> and <sdl:seg-defs>
#   code N src|tgt KEY  a code (element#id) of unit N's seg-source or target
#   mrk MID BYTES       a target's <mrk mtype="seg"> element
#   seg ID BYTES        an <sdl:seg> element
parts() {
  tr '<' '\n' <"$1" | awk '
    function attr(s, name, i, rest) {
      i = index(s, " " name "=\"")
      if (i == 0)
        return ""
      rest = substr(s, i + length(name) + 3)
      return substr(rest, 1, index(rest, "\"") - 1)
    }
    /^trans-unit[ >]/ { unit++ }
    /^seg-source[ >]/ { part = "src" }
    /^target[ >]/ { part = "tgt"; hidden = 1 }
    /^sdl:seg-defs[ >]/ { hidden = 1 }
    !hidden { print "outside <" $0 }
    /^\/seg-source>/ { part = "" }
    /^\/(target|sdl:seg-defs)>/ {
      part = ""
      hidden = 0
      print "outside " substr($0, index($0, ">") + 1)
    }
    part != "" && /^(x|g|bx|ex|ph|bpt|ept|it)[ \/>]/ {
      name = $0
      sub(/[ \/>].*/, "", name)
      print "code " unit " " part " " name "#" attr($0, "id")
    }
    part == "tgt" && /^mrk mtype="seg"/ { mid = attr($0, "mid"); buf = "" }
    mid != "" { buf = buf "<" $0 }
    mid != "" && (/^\/mrk>/ || /^mrk [^>]*\/>/) {
      print "mrk " mid " " buf
      mid = ""
    }
    /^sdl:seg / { seg = attr($0, "id"); sbuf = "" }
    seg != "" { sbuf = sbuf "<" $0 }
    seg != "" && (/^\/sdl:seg>/ || /^sdl:seg [^>]*\/>/) {
      print "seg " seg " " sbuf
      seg = ""
    }'
}

# invariants DESC OUT: what every translation of the fixture keeps.
invariants() {
  what=$1 out=$2
  parts "$in" >"$tmp/in.parts"
  parts "$out" >"$tmp/out.parts"
  grep '^outside ' "$tmp/in.parts" >"$tmp/in.outside"
  grep '^outside ' "$tmp/out.parts" >"$tmp/out.outside"
  check "$what: nothing changed outside targets and sdl:seg-defs" \
    cmp -s "$tmp/in.outside" "$tmp/out.outside"
  mt=$(grep '^seg ' "$tmp/out.parts" | grep 'origin="mt"' | cut -d' ' -f2 |
    tr '\n' ' ')
  check "$what: the filled segments, and no other, are origin=\"mt\"" \
    test "$mt" = "$filled "
  bad=
  for id in $filled; do
    grep "^seg $id " "$tmp/out.parts" |
      grep -q 'conf="Draft" .*origin-system="xliffmt"' || bad="$bad $id"
  done
  check "$what: each filled sdl:seg is conf=\"Draft\", origin-system=\"xliffmt\"" \
    test -z "$bad"
  bad=
  for id in $kept; do
    for kind in mrk seg; do
      a=$(grep "^$kind $id " "$tmp/in.parts")
      b=$(grep "^$kind $id " "$tmp/out.parts")
      [ -n "$a" ] && [ "$a" = "$b" ] || bad="$bad $kind-$id"
    done
  done
  check "$what: locked, confirmed and translated segments untouched" \
    test -z "$bad"
  grep '^code [0-9]* src ' "$tmp/out.parts" | sed 's/ src / /' | sort \
    >"$tmp/src.codes"
  grep '^code [0-9]* tgt ' "$tmp/out.parts" | sed 's/ tgt / /' | sort \
    >"$tmp/tgt.codes"
  check "$what: no code twice in a target" \
    test -z "$(uniq -d "$tmp/tgt.codes")"
  check "$what: each target holds the codes of its seg-source" \
    cmp -s "$tmp/src.codes" "$tmp/tgt.codes"
  check "$what: 14 codes in the targets" \
    test "$(wc -l <"$tmp/tgt.codes")" -eq 14
}

# The input's targets hold its 14 codes too, four of them outside the mrk
# of a segment whose seg-source holds them inside.
parts "$in" >"$tmp/in.parts"
grep '^code [0-9]* tgt ' "$tmp/in.parts" | sed 's/ tgt / /' | sort \
  >"$tmp/tgt.codes"
check "the input's targets hold 14 codes" \
  test "$(wc -l <"$tmp/tgt.codes")" -eq 14

rm -f "$tmp/id"
if exits_with 0 "identity" "$x" translate "$in" -o "$tmp/id" --mt identity \
  -q; then
  same "identity: the expected output" "$expected" "$tmp/id"
  invariants "identity" "$tmp/id"
fi
rm -f "$tmp/o"
if exits_with 0 "identity --resegment" "$x" translate "$in" -o "$tmp/o" \
  --mt identity -q --resegment; then
  same "identity --resegment: Trados's segments kept" "$expected" "$tmp/o"
fi
rm -f "$tmp/o"
if exits_with 0 "identity of the output" "$x" translate "$expected" \
  -o "$tmp/o" --mt identity -q; then
  same "identity of the output: nothing left to translate" "$expected" \
    "$tmp/o"
fi
rm -f "$tmp/ps"
if exits_with 0 "pseudo" "$x" translate "$in" -o "$tmp/ps" --mt pseudo -q; then
  invariants "pseudo" "$tmp/ps"
  check "pseudo: mid 13 translated, its code once, pt3 between segments" \
    grep -q '<mrk mtype="seg" mid="13">\[[^<]*<x id="155"/></mrk><x id="pt3"/><mrk mtype="seg" mid="14"></mrk>' \
    "$tmp/ps"
fi

# extract lists the segments to translate; merge of that text gives the
# identity output.
printf '%s\t%s\n' \
  '0b7d1e52-6a3f-4c19-9e84-1f2a3b4c5d01#1' 'Press  to start the dryer.' \
  '1c8e2f63-7b40-4d2a-8f95-203b4c5d6e02#2' 'Click  twice to open the door.' \
  '2d9f3074-8c51-4e3b-9a06-314c5d6e7f03#3' 'Keep the dryer away from water.' \
  '3ea04185-9d62-4f4c-8b17-425d6e7f8004#4' 'Open the Settings  page.' \
  '3ea04185-9d62-4f4c-8b17-425d6e7f8004#5' 'Use the eco program.' \
  '4fb15296-ae73-405d-9c28-536e7f809105#6' 'The manual has ten pages.' \
  '83f596da-e2b7-4491-9a6c-97a2b3c4d509#12' 'Read the safety notes.' \
  '83f596da-e2b7-4491-9a6c-97a2b3c4d509#13' 'Turn it off.' \
  '83f596da-e2b7-4491-9a6c-97a2b3c4d509#16' 'Done.' >"$tmp/want.tsv"
if exits_with 0 "extract" "$x" extract "$in" -q; then
  sed -i 1d "$tmp/out" # the header aside
  same "extract: the segments to translate" "$tmp/want.tsv" "$tmp/out"
fi
rm -f "$tmp/o"
if exits_with 0 "merge" "$x" merge "$in" --translations "$tmp/want.tsv" \
  -o "$tmp/o" -q; then
  same "extract then merge: the identity output" "$expected" "$tmp/o"
fi

# A segment the engine fails on keeps what Trados wrote, its codes outside
# the mrk included, and its sdl:seg is not marked.
cat >"$tmp/fails-on-water.sh" <<'EOS'
#!/bin/sh
while IFS= read -r l; do
  case $l in *water*) printf '\377\n' ;; *) printf '%s\n' "$l" ;; esac
done
EOS
chmod +x "$tmp/fails-on-water.sh"
rm -f "$tmp/f"
if exits_with 3 "a failed segment" "$x" translate "$in" -o "$tmp/f" \
  --mt "cmd:$tmp/fails-on-water.sh" -q; then
  check "a failed segment: its target and sdl:seg as they were" \
    grep -q -F '<target><x id="150"/><mrk mtype="seg" mid="3"></mrk></target><sdl:seg-defs><sdl:seg id="3" origin="not-translated"><sdl:value' \
    "$tmp/f"
  check "a failed segment: the others filled" \
    test "$(grep -o 'origin="mt"' "$tmp/f" | wc -l)" -eq 8
fi

if exits_with 0 "check" "$x" check "$in"; then
  check "check: 3 units translated already" \
    grep -q -F 'units              9 (9 translatable, 3 with target)' \
    "$tmp/out"
fi

finish
