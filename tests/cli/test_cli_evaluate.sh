#!/bin/sh
# test_cli_evaluate.sh: "xliffmt evaluate" counts on hand-made line pairs,
# errors (unparseable reference, line counts), and the EUR-Lex dev set
# against itself. Expected numbers are counted by hand in the comments.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup evaluate

# has FILE DESC FIXED-STRING: FILE holds a line equal to the string.
has() {
  if grep -q -x -F -e "$3" "$1"; then
    pass "$2"
  else
    fail "$2: no line '$3' in:"
    sed 's/^/    /' "$1" | head -20
  fi
}
# json_is DESC KEY VALUE: $tmp/out has "KEY":VALUE followed by , or }.
json_is() {
  if grep -q -E -e "\"$2\":$3[,}]" "$tmp/out"; then
    pass "$1: $2 = $3"
  else
    got=$(grep -o -E -e "\"$2\":[^,}]*" "$tmp/out" | head -1)
    fail "$1: $2 = $3 expected, got '${got:-nothing}'"
  fi
}

x=$XLIFFMT

# --- Hand-made lines. The reference of lines 1, 2 and 4 has 7 tokens
# "The cat sat on the mat ."; the g pair spans tokens 0..2 and the x sits
# at 4: both interior (the pair by its end).
#  1 perfect:                 2 tags exact, all-exact line, content F1 1
#  2 pair end one token late: x exact, g not; content {The cat sat} vs
#                             {The cat}: F1 0.8
#  3 no tags on either side:  counts in lines only
#  4 hypothesis does not parse (g unclosed): 2 mutilated
#  5 an x added:              1 added
#  6 other text, x after the first token on both sides: exact
# lines 6, lines with tags 4, tags 7, interior 7, exact 4 (57.1 %),
# interior exact 4, all-exact lines 2 of 4, well-formed 5 of 6, structure
# match 4 of 6, kept 7 - 2 mutilated = 5 (71.4 %), flagrant 3, content F1
# (1 + 0.8) / 2 = 90.0 %.
ref1='<g id="1">The cat</g> sat on <x id="2"/>the mat.'
cat >"$tmp/ref.txt" <<EOF
$ref1
$ref1
No tags here.
$ref1
Tag added.
The <x id="1"/>house.
EOF
cat >"$tmp/hyp.txt" <<EOF
$ref1
<g id="1">The cat sat</g> on <x id="2"/>the mat.
No tags here.
<g id="1">The cat sat on <x id="2"/>the mat.
<x id="9"/>Tag added.
Das <x id="1"/>Haus.
EOF

n=hand
expect_exit 0 "$n: evaluate (text)" "$x" evaluate --hypothesis "$tmp/hyp.txt" \
  --reference "$tmp/ref.txt"
has "$tmp/out" "$n: lines" 'lines                          6'
has "$tmp/out" "$n: lines with tags" 'lines with tags                4'
has "$tmp/out" "$n: tags" 'tags                           7'
has "$tmp/out" "$n: exact" 'exact                     57.1 %  (4/7)'
has "$tmp/out" "$n: interior tags" 'interior tags                  7'
has "$tmp/out" "$n: interior exact" 'interior exact            57.1 %  (4/7)'
has "$tmp/out" "$n: all-exact lines" 'all-exact lines           50.0 %  (2/4)'
has "$tmp/out" "$n: well-formed" 'well-formed lines         83.3 %  (5/6)'
has "$tmp/out" "$n: structure" 'structure match lines     66.7 %  (4/6)'
has "$tmp/out" "$n: kept" 'tags kept                 71.4 %  (5/7)'
has "$tmp/out" "$n: flagrant" 'flagrant                       3'
has "$tmp/out" "$n: dropped" '  dropped                      0'
has "$tmp/out" "$n: added" '  added                        1'
has "$tmp/out" "$n: changed id" '  changed id                   0'
has "$tmp/out" "$n: mutilated" '  mutilated                    2'
has "$tmp/out" "$n: badly nested" '  badly nested                 0'
has "$tmp/out" "$n: content F1" 'content F1                90.0 %  (2 pairs)'
has "$tmp/err" "$n: one text warning" \
  "xliffmt: $tmp/hyp.txt: warning: the plain text of 1 lines differs from $tmp/ref.txt (first at line 6); their tags are compared by token positions"
if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
  pass "$n: stderr has the warning only"
else
  fail "$n: stderr: $(cat "$tmp/err")"
fi

expect_exit 0 "$n: evaluate --json" "$x" evaluate --json \
  --hypothesis "$tmp/hyp.txt" --reference "$tmp/ref.txt"
for kv in lines:6 lines_with_tags:4 tags:7 dropped:0 added:1 changed_id:0 \
  mutilated:2 badly_nested:0 flagrant:3 kept:5 well_formed_lines:5 \
  structure_match_lines:4 exact:4 interior:7 interior_exact:4 \
  all_exact_lines:2 content_pairs:2 content_f1_sum:1.800000 \
  text_mismatch_lines:1 exact_pct:57.1 kept_pct:71.4 content_f1:0.900000; do
  json_is $n "${kv%%:*}" "${kv#*:}"
done
if command -v python3 >/dev/null 2>&1; then
  if python3 -c 'import json,sys; json.load(sys.stdin)' <"$tmp/out"; then
    pass "$n: JSON parses"
  else
    fail "$n: JSON does not parse"
  fi
fi

# --lines: each line's reference tags and exact ones, instead of the
# totals; they sum to the totals above (7 tags, 4 exact). Line 2: the g
# is late, the x exact; line 4 does not parse: 2 tags, none exact.
expect_exit 0 "$n: evaluate --lines" "$x" evaluate --lines \
  --hypothesis "$tmp/hyp.txt" --reference "$tmp/ref.txt"
printf '1\t2\t2\n2\t2\t1\n3\t0\t0\n4\t2\t0\n5\t0\t0\n6\t1\t1\n' \
  >"$tmp/lines.want"
if cmp -s "$tmp/out" "$tmp/lines.want"; then
  pass "$n: --lines rows"
else
  fail "$n: --lines rows: $(tr '\t\n' ' |' <"$tmp/out")"
fi
has "$tmp/err" "$n: --lines keeps the text warning" \
  "xliffmt: $tmp/hyp.txt: warning: the plain text of 1 lines differs from $tmp/ref.txt (first at line 6); their tags are compared by token positions"
expect_exit 1 "$n: --lines with --json" "$x" evaluate --lines --json \
  --hypothesis "$tmp/hyp.txt" --reference "$tmp/ref.txt"
has "$tmp/err" "$n: --lines with --json: message" \
  "xliffmt: --json and --lines exclude each other"

# The reference against itself: all exact, nothing flagrant, no warning.
expect_exit 0 "ref vs ref" "$x" evaluate --hypothesis "$tmp/ref.txt" \
  --reference "$tmp/ref.txt"
has "$tmp/out" "ref vs ref: exact" 'exact                    100.0 %  (7/7)'
has "$tmp/out" "ref vs ref: flagrant" 'flagrant                       0'
if [ ! -s "$tmp/err" ]; then pass "ref vs ref: quiet"; else
  fail "ref vs ref: stderr: $(cat "$tmp/err")"
fi

# --- Generic markup: the b pairs get keys b#1 and b#2 in order, the br
# br#1; text "A big red dog barks." (6 tokens, &nbsp; and &#160; alike).
# The hypothesis's first pair ends one token late: 2 of 3 exact; content
# F1 2/3 (big red against big) + 1.
printf '%s\n' 'A <b>big</b> red <b>dog</b>&nbsp;barks.<br/>' >"$tmp/gref.txt"
printf '%s\n' 'A <b>big red</b> <b>dog</b>&#160;barks.<br/>' >"$tmp/ghyp.txt"
expect_exit 0 "generic: evaluate --generic" "$x" evaluate --generic --json \
  --hypothesis "$tmp/ghyp.txt" --reference "$tmp/gref.txt"
json_is generic tags 3
json_is generic exact 2
json_is generic content_f1_sum 1.666667
json_is generic text_mismatch_lines 0
# Without --generic, &nbsp; is not XLIFF: the reference does not parse.
expect_exit 1 "generic: needs --generic" "$x" evaluate \
  --hypothesis "$tmp/ghyp.txt" --reference "$tmp/gref.txt"
has "$tmp/err" "generic: needs --generic: message" \
  "xliffmt: $tmp/gref.txt:1:28: cannot parse the reference: malformed XML"

# --- Errors.
expect_exit 1 "missing file" "$x" evaluate --hypothesis "$tmp/hyp.txt" \
  --reference "$tmp/nope.txt"
has "$tmp/err" "missing file: message" \
  "xliffmt: $tmp/nope.txt: cannot open: No such file or directory"

printf '%s\n' 'fine' '<g id="1">broken' >"$tmp/badref.txt"
printf '%s\n' 'fine' 'broken' >"$tmp/badhyp.txt"
expect_exit 1 "unparseable reference" "$x" evaluate \
  --hypothesis "$tmp/badhyp.txt" --reference "$tmp/badref.txt"
has "$tmp/err" "unparseable reference: FILE:LINE:COLUMN" \
  "xliffmt: $tmp/badref.txt:2:17: cannot parse the reference: malformed XML"
if [ ! -s "$tmp/out" ]; then pass "unparseable reference: no report"; else
  fail "unparseable reference: output $(cat "$tmp/out")"
fi
# An unparseable hypothesis is mutilated, not an error.
expect_exit 0 "unparseable hypothesis" "$x" evaluate --json \
  --hypothesis "$tmp/badref.txt" --reference "$tmp/badhyp.txt"
json_is "unparseable hypothesis" well_formed_lines 1

head -n 4 "$tmp/ref.txt" >"$tmp/short.txt"
expect_exit 1 "shorter hypothesis" "$x" evaluate --hypothesis "$tmp/short.txt" \
  --reference "$tmp/ref.txt"
has "$tmp/err" "shorter hypothesis: message" \
  "xliffmt: $tmp/short.txt:4: the file ends after 4 lines, but $tmp/ref.txt has more"
expect_exit 1 "shorter reference" "$x" evaluate --hypothesis "$tmp/hyp.txt" \
  --reference "$tmp/short.txt"
has "$tmp/err" "shorter reference: message" \
  "xliffmt: $tmp/short.txt:4: the file ends after 4 lines, but $tmp/hyp.txt has more"
if [ ! -s "$tmp/out" ]; then pass "line counts: no report"; else
  fail "line counts: output $(cat "$tmp/out")"
fi

expect_exit 1 "no --reference" "$x" evaluate --hypothesis "$tmp/hyp.txt"
has "$tmp/err" "no --reference: message" "xliffmt: missing --reference REF"
expect_exit 1 "bad option" "$x" evaluate --bogus
expect_exit 0 "--help" "$x" evaluate --help
if grep -q -e '--hypothesis HYP' "$tmp/out"; then pass "--help: usage"; else
  fail "--help: $(head -3 "$tmp/out")"
fi

# --- The EUR-Lex dev set against itself.
dev=$XMT_TEST_DATA/markup-tags/dev-eurlex.de
if have_data markup-tags/dev-eurlex.de; then
  expect_exit 0 "dev-eurlex.de vs itself" "$x" evaluate --hypothesis "$dev" \
    --reference "$dev"
  has "$tmp/out" "dev-eurlex.de: 1888 lines" 'lines                       1888'
  if grep -q -E '^exact +100\.0 %  \(([0-9]+)/\1\)$' "$tmp/out"; then
    pass "dev-eurlex.de: 100 % exact"
  else
    fail "dev-eurlex.de: $(grep '^exact' "$tmp/out")"
  fi
  has "$tmp/out" "dev-eurlex.de: 0 flagrant" 'flagrant                       0'
  has "$tmp/out" "dev-eurlex.de: all well-formed" \
    'well-formed lines        100.0 %  (1888/1888)'
fi

finish
