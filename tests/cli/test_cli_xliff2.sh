#!/bin/sh
# test_cli_xliff2.sh: XLIFF 2.0-2.2 documents through the xliffmt command.
# Identity translation of every fixture in tests/fixtures/xliff2 is the
# input byte for byte once the targets and the state, subState and trgLang
# attributes are taken out of both (perl); with --alt-trans it is the
# input once the matches it wrote (one per segment translated) and the
# segment ids they named are taken out; every output (identity, pseudo,
# alt-trans, merge, batch) validates against the OASIS XLIFF 2.0 core
# schema, alone and with the module schemas (xmllint), and check finds no
# error in what --alt-trans writes; with --seg-source every output
# validates, check finds no error in it, and only the units split differ
# from the output without it; check, extract, merge,
# report and batch take XLIFF 2; a failing engine leaves the document as
# it was; languages are checked.
# Env: XLIFFMT, XMT_FIXTURES, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail,
# 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
fx=${XMT_FIXTURES:-}/xliff2
if [ ! -f "$fx/simple.xlf" ]; then
  echo "SKIP: no fixtures in '$fx'"
  exit 77
fi
cli_setup xliff2
x=$XLIFFMT

xliff2_schema "$tmp/modules.xsd"
have_perl=1
command -v perl >/dev/null 2>&1 || have_perl=0

# valid DESC FILE: FILE validates against the XLIFF 2.0 core schema, and
# against it with the module schemas.
valid() {
  [ "$have_lint" -eq 1 ] || return 0
  for schema in "$xsd" "$tmp/modules.xsd"; do
    what="XLIFF 2.0 core"
    [ "$schema" = "$xsd" ] || what="XLIFF 2.0 core and modules"
    if "$lint" --noout --nonet --schema "$schema" "$2" >"$tmp/lint" 2>&1; then
      pass "$1: valid $what"
    else
      fail "$1: not valid $what"
      sed -n '1,5s/^/    /p' "$tmp/lint"
    fi
  done
}

# bare FILE: FILE in UTF-8 without its targets and without state,
# subState and trgLang attributes.
bare() {
  case $1 in
  *utf16*) iconv -f UTF-16 -t UTF-8 "$1" ;;
  *) cat "$1" ;;
  esac | perl -0777 -pe \
    's{\s*<((?:[\w.-]+:)?)target\b[^>]*?(?:/>|>.*?</\1target>)}{}gs;
     s{ (?:state|subState|trgLang)="[^"]*"}{}g'
}

# target_language FILE: the trgLang of FILE, or fr when it has none.
target_language() {
  t=$(sed -n 's/.*trgLang="\([^"]*\)".*/\1/p' "$1" | head -n 1)
  echo "${t:-fr}"
}

for f in "$fx"/*.xlf; do
  b=$(basename "$f" .xlf)
  t=$(target_language "$f")
  case $b in utf16) t=fr ;; esac
  out=$tmp/$b.identity.xlf
  expect_exit 0 "identity $b" "$x" translate "$f" -o "$out" --mt identity \
    -t "$t" -q || continue
  if [ "$have_perl" -eq 1 ]; then
    bare "$f" >"$tmp/in.bare"
    bare "$out" >"$tmp/out.bare"
    check "identity $b: the same bytes outside targets and states" \
      cmp "$tmp/in.bare" "$tmp/out.bare"
  fi
  valid "identity $b" "$out"
  pseudo=$tmp/$b.pseudo.xlf
  expect_exit 0 "pseudo $b" "$x" translate "$f" -o "$pseudo" --mt pseudo \
    -t "$t" -q && valid "pseudo $b" "$pseudo" &&
    expect_exit 0 "pseudo $b: check finds no error" "$x" check "$pseudo" -q
  # --alt-trans: matches of the Matches module instead of targets; once
  # they (and the segment ids they gave) are taken out, the input.
  alt=$tmp/$b.alt.xlf
  if expect_exit 0 "alt-trans $b" "$x" translate "$f" -o "$alt" --mt pseudo \
    -t "$t" --alt-trans -q; then
    valid "alt-trans $b" "$alt"
    expect_exit 0 "alt-trans $b: check finds no error" "$x" check "$alt" -q
    check "alt-trans $b: no target, no state written" \
      test "$(grep -c 'xliffmt:mt' "$alt")" -eq 0
    check "alt-trans $b: a match for each segment translated" test \
      "$(grep -o 'origin="xliffmt" type="mt"' "$alt" | wc -l)" -eq \
      "$(grep -o 'subState="xliffmt:mt"' "$pseudo" | wc -l)"
    if [ "$have_perl" -eq 1 ]; then
      bare "$f" >"$tmp/in.bare"
      case $b in utf16) iconv -f UTF-16 -t UTF-8 "$alt" ;; *) cat "$alt" ;; esac |
        perl -0777 -pe \
          's{\s*<mtc:match ref="#[^"]*" origin="xliffmt" type="mt">.*?</mtc:match>}{}gs;
           s{\s*<mtc:matches xmlns:mtc="[^"]*">\s*</mtc:matches>}{}gs;
           s{(<(?:\w+:)?segment\b[^>]*?) id="mt\d+"}{$1}g;
           s{ trgLang="[^"]*"}{}g' >"$tmp/alt.bare"
      bare "$tmp/alt.bare" >"$tmp/alt2.bare"
      check "alt-trans $b: the same bytes outside the matches" \
        cmp "$tmp/in.bare" "$tmp/alt2.bare"
    fi
  fi
  expect_exit 0 "check $b" "$x" check "$f" &&
    check "check $b: says XLIFF 2" grep -q "^$f: XLIFF 2\.[012], UTF-" \
      "$tmp/out"
done

# --seg-source: each fixture translated with it validates, check finds
# no error in it, and it is the output without it byte for byte but for
# the units it split (those with more <segment>s than before): reseg.xlf's
# u1, u2 and u6, segments.xlf's p2, boundaries.xlf's u1, u2 and u3 (a
# <ph> between its sentences, kept in the <ignorable>) and ordered.xlf's
# u1 (its targets' orders renumbered), and no other.
utf8() {
  case $1 in
  *utf16*) iconv -f UTF-16 -t UTF-8 "$1" ;;
  *) cat "$1" ;;
  esac
}
# units FILE: each unit's id and number of segments, a line each.
units() {
  utf8 "$1" | perl -0777 -ne \
    'while (m{<((?:[\w.-]+:)?)unit\b([^>]*)>(.*?)</\1unit>}gs) {
       my ($a, $c) = ($2, $3); my ($id) = $a =~ /\bid="([^"]*)"/;
       my $n = () = $c =~ /<(?:[\w.-]+:)?segment\b/g; print "$id $n\n" }'
}
# drop IDS FILE: FILE with the units named in IDS emptied.
drop() {
  utf8 "$2" | perl -0777 -pe \
    'BEGIN { %s = map { ($_, 1) } split / /, shift @ARGV }
     s{<((?:[\w.-]+:)?)unit\b([^>]*)>.*?</\1unit>}{
       my ($p, $a) = ($1, $2); my ($id) = $a =~ /\bid="([^"]*)"/;
       $s{$id} ? "<${p}unit$a/>" : $& }gse' "$1"
}
all_split=
for f in "$fx"/*.xlf; do
  b=$(basename "$f" .xlf)
  t=$(target_language "$f")
  case $b in utf16) t=fr ;; esac
  seg=$tmp/$b.seg.xlf
  expect_exit 0 "seg-source $b" "$x" translate "$f" -o "$seg" --mt identity \
    -t "$t" --seg-source -q || continue
  valid "seg-source $b" "$seg"
  expect_exit 0 "seg-source $b: check finds no error" "$x" check "$seg" -q
  [ "$have_perl" -eq 1 ] || continue
  units "$tmp/$b.identity.xlf" >"$tmp/units.before"
  units "$seg" >"$tmp/units.after"
  ids=$(paste -d ' ' "$tmp/units.before" "$tmp/units.after" |
    awk '$2 != $4 { printf "%s%s", sep, $1; sep = " " }')
  [ -z "$ids" ] || all_split="$all_split $b:$(echo "$ids" | tr ' ' ,)"
  drop "$ids" "$tmp/$b.identity.xlf" >"$tmp/before.kept"
  drop "$ids" "$seg" >"$tmp/after.kept"
  check "seg-source $b: the same bytes outside the units split" \
    cmp "$tmp/before.kept" "$tmp/after.kept"
done
if [ "$have_perl" -eq 1 ]; then
  check "seg-source: the units split" \
    test "$all_split" = \
    " boundaries:u1,u2,u3 ordered:u1 reseg:u1,u2,u6,u7 reseg_codes:u1,u2,u3,u4 segments:p2"
  check "seg-source: reseg.xlf as expected" \
    cmp "$tmp/reseg.seg.xlf" "$fx/expected/reseg.seg.xlf"
fi

# Nothing translated when the engine fails: the document as it was.
f=$fx/simple.xlf
expect_exit 3 "failing engine" "$x" translate "$f" -o "$tmp/failed.xlf" \
  --mt cmd:false
check "failing engine: the document unchanged" cmp "$f" "$tmp/failed.xlf"
check "failing engine: the segment's line" grep -q "simple.xlf:6: segment 1" \
  "$tmp/err"

# Standard input is peeked for its format.
expect_exit 0 "standard input" "$x" translate - -o "$tmp/stdin.xlf" \
  --mt identity -q <"$f"
check "standard input: translated as XLIFF 2" cmp "$tmp/stdin.xlf" \
  "$tmp/simple.identity.xlf"

# Languages: the document's against the run's.
expect_exit 1 "srcLang against -s" "$x" translate "$f" -o "$tmp/l.xlf" \
  --mt identity -s de
check "srcLang against -s: message" grep -q -F \
  "simple.xlf:2:1: <xliff> has srcLang=\"en\" but the run is from 'de'" \
  "$tmp/err"
expect_exit 1 "no trgLang, no -t" "$x" translate "$fx/angular.xlf" \
  -o "$tmp/l.xlf" --mt identity
check "no trgLang, no -t: message" grep -q -F \
  "<xliff> has no trgLang: give the target language with -t" "$tmp/err"
check "no output left" test ! -e "$tmp/l.xlf"
sed 's/trgLang="[^"]*"/trgLang=""/' "$f" >"$tmp/empty-trg.xlf"
expect_exit 1 "empty trgLang, no -t" "$x" translate "$tmp/empty-trg.xlf" \
  -o "$tmp/l.xlf" --mt identity
check "empty trgLang, no -t: message" grep -q -F \
  "empty-trg.xlf: <xliff> has an empty trgLang: give the target language with -t" \
  "$tmp/err"
check "empty trgLang: no output left" test ! -e "$tmp/l.xlf"

# Streaming: a document that breaks after thousands of units (read and
# translated before the break is met) leaves no output, and the message
# names the line and column of the break; an existing output is kept.
{
  printf '<?xml version="1.0"?>\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">\n<file id="f">\n'
  i=1
  while [ "$i" -le 20000 ]; do
    printf '<unit id="u%d"><segment><source>Unit <pc id="1">number</pc> %d.</source></segment></unit>\n' "$i" "$i"
    i=$((i + 1))
  done
  printf '<unit id="bad"><segment><source>x</sourc></segment></unit>\n</file>\n</xliff>\n'
} >"$tmp/broken.xlf"
expect_exit 1 "broken after 20000 units" "$x" translate "$tmp/broken.xlf" \
  -o "$tmp/broken.fr.xlf" --mt pseudo -q
check "broken after 20000 units: line and column" grep -q -F \
  "broken.xlf:20004:36: mismatched tag" "$tmp/err"
check "broken after 20000 units: no output" test ! -e "$tmp/broken.fr.xlf"
echo kept >"$tmp/kept.xlf"
expect_exit 1 "broken, output existing" "$x" translate "$tmp/broken.xlf" \
  -o "$tmp/kept.xlf" --mt identity -q
check "broken, output existing: kept as it was" grep -q -x kept \
  "$tmp/kept.xlf"
# The same document whole: translated unit by unit as with XLIFF 1.2.
sed '$d' "$tmp/broken.xlf" | sed '$d' | sed '$d' >"$tmp/many.xlf"
printf '</file>\n</xliff>\n' >>"$tmp/many.xlf"
expect_exit 0 "20000 units, identity" "$x" translate "$tmp/many.xlf" \
  -o "$tmp/many.fr.xlf" --mt identity -q
check "20000 units: 20000 targets" test \
  "$(grep -c '<target>Unit <pc id="1">number</pc> [0-9]*\.</target>' \
    "$tmp/many.fr.xlf")" = 20000

# An id that repeats in another <file>: read as a stream, the run's unit
# reader makes it unique, as a document read whole does.
"$x" extract "$fx/groups.xlf" 2>/dev/null | sed 1d | cut -f1 >"$tmp/groups.ids"
printf '%s\n' 'u2#0' 'u4#0' 'u1@3#0' >"$tmp/groups.want"
check "repeated id: extract names it u1@3" cmp "$tmp/groups.ids" \
  "$tmp/groups.want"

# extract and merge: segment ids are unit ids, with the segment's when a
# unit has several.
expect_exit 0 "extract" "$x" extract "$fx/segments.xlf" -o "$tmp/seg.tsv"
sed -i 1d "$tmp/seg.tsv" # the header aside
printf '%s\n' 'p1/1	First sentence.' 'p1/2	Second sentence.' \
  'p1/3	Third one.' 'p2#0	Indented   text' 'p2#1	kept as it is.' \
  'p3#0	Two  spaces here.' 'p3#1	And a second sentence.' >"$tmp/want.tsv"
check "extract: the segments" cmp "$tmp/seg.tsv" "$tmp/want.tsv"
# A segment of a unit of several is one segment to the run, as a
# <seg-source>'s <mrk> is: its sentences go to the engine together.
cat >"$tmp/several.xlf" <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
 <file id="f1">
  <unit id="u1">
   <segment id="s1"><source>One sentence. And another.</source></segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2"><source>Third.</source></segment>
  </unit>
  <unit id="u2">
   <segment><source>Alone here. Cut in two.</source></segment>
  </unit>
 </file>
</xliff>
EOF2
"$x" extract "$tmp/several.xlf" -o "$tmp/several.tsv" 2>/dev/null
sed -i 1d "$tmp/several.tsv" # the header aside
printf '%s\n' 'u1/s1	One sentence. And another.' 'u1/s2	Third.' \
  'u2#0	Alone here.' 'u2#1	Cut in two.' >"$tmp/several.want"
check "a unit of several segments: each segment whole" cmp "$tmp/several.tsv" \
  "$tmp/several.want"
"$x" extract "$tmp/several.xlf" -o "$tmp/several.re.tsv" --resegment 2>/dev/null
sed -i 1d "$tmp/several.re.tsv" # the header aside
printf '%s\n' 'u1/s1#0	One sentence.' 'u1/s1#1	And another.' \
  'u1/s2#0	Third.' 'u2#0	Alone here.' 'u2#1	Cut in two.' \
  >"$tmp/several.re.want"
check "--resegment: each segment cut into sentences" cmp "$tmp/several.re.tsv" \
  "$tmp/several.re.want"
"$x" translate "$tmp/several.xlf" -o "$tmp/several.seg.xlf" --mt identity \
  --seg-source -q
check "--seg-source: a segment of a unit of several still cut" test \
  "$(grep -c '<segment' "$tmp/several.seg.xlf")" = 5
# The summary counts the document's units, not its segments: a unit is
# translated when any of its segments is, also when a window ends between
# them (the identity engine's windows hold 256 segments).
for n in 0 255; do
  {
    sed -n 1,3p "$tmp/several.xlf"
    i=0
    while [ $i -lt $n ]; do
      i=$((i + 1))
      echo "  <unit id=\"a$i\"><segment><source>Line $i.</source></segment></unit>"
    done
    cat <<'EOF2'
  <unit id="u1">
   <segment id="s1" state="final"><source>Done.</source><target>Fait.</target></segment>
   <segment id="s2"><source>New here.</source></segment>
  </unit>
  <unit id="u2">
   <segment state="final"><source>Kept.</source><target>Garde.</target></segment>
   <segment state="final"><source>Kept too.</source><target>Garde aussi.</target></segment>
  </unit>
  <unit id="u3"><segment><source>Alone.</source></segment></unit>
 </file>
</xliff>
EOF2
  } >"$tmp/count$n.xlf"
  "$x" translate "$tmp/count$n.xlf" -o "$tmp/count.out.xlf" --mt identity \
    2>"$tmp/count.err"
  check "$n units before: the summary counts units" grep -qF \
    "xliffmt: $tmp/count$n.xlf: $((n + 3)) units, $((n + 2)) translated, 1 left as they were; $((n + 2)) segments sent" \
    "$tmp/count.err"
  "$x" extract "$tmp/count$n.xlf" -o "$tmp/count.tsv" 2>"$tmp/count.err"
  check "$n units before: extract counts units" grep -qxF \
    "xliffmt: $tmp/count$n.xlf: $((n + 3)) units, $((n + 2)) segments written" \
    "$tmp/count.err"
done
sed 's/	/	ES /' "$tmp/seg.tsv" >"$tmp/es.tsv"
expect_exit 0 "merge" "$x" merge "$fx/segments.xlf" --translations \
  "$tmp/es.tsv" -o "$tmp/merged.xlf" -q
check "merge: a target" grep -q -F \
  '<target xml:space="preserve">ES Two  spaces here. ES And a second sentence.</target>' \
  "$tmp/merged.xlf"
valid "merge" "$tmp/merged.xlf"

# report
expect_exit 0 "report" "$x" report "$fx/prefilled.xlf" -o "$tmp/report.html"
check "report: the targets" grep -q "Texte approuv" "$tmp/report.html"

# batch: a tree of XLIFF 2 documents (.xlf: the content decides)
mkdir "$tmp/in"
for b in groups inline okapi omegat prefilled segments; do
  cp "$fx/$b.xlf" "$tmp/in/"
done
expect_exit 0 "batch" "$x" batch "$tmp/in" -o "$tmp/batch" --mt pseudo -q
for b in groups inline okapi omegat prefilled segments; do
  if [ -f "$tmp/batch/$b.xlf" ]; then
    valid "batch $b" "$tmp/batch/$b.xlf"
  else
    fail "batch $b: no output"
  fi
done

finish
