#!/bin/sh
# test_cli_okapi_roundtrip.sh: "nothing else in the document changes".
# For every Okapi XLIFF file, every good enc-*.xlf fixture and the sample,
# translate with the identity backend, strip what xliffmt adds, and compare
# with the input byte for byte:
#   --no-segment <target ... state-qualifier="mt-suggestion">...</target>
#                and a target-language="xx" added to a <file> lacking it
#   default      the same: units are segmented for MT, yet each gets one
#                whole target equal to its source, g pairs cut by a
#                sentence boundary made whole again
#   --overwrite  every <target>, and the approved of each trans-unit
#                (an approved unit given a new target is approved="no"),
#                from both input and output
#   --alt-trans  <alt-trans origin="xliffmt">...</alt-trans>
# each together with the whitespace run right before it. UTF-16 files are
# converted to UTF-8 with iconv first.
# Env: XLIFFMT, XMT_TEST_DATA, XMT_FIXTURES, XMT_SAMPLES.
# Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data okapi/xliff
okapi=$XMT_TEST_DATA/okapi/xliff
if ! command -v perl >/dev/null 2>&1; then
  echo "SKIP: perl not found"
  exit 77
fi

cli_setup roundtrip


# strip.pl MODE [INPUT] < FILE > STRIPPED
#   MODE mt: targets marked mt-suggestion; all: every target; alt: xliffmt's
#   alt-trans. With INPUT, also drops target-language from the output's
#   n-th <file> tag when INPUT's n-th <file> tag has none.
cat >"$tmp/strip.pl" <<'EOF'
use strict;
use warnings;
my ($mode, $in) = @ARGV;
local $/;
binmode STDIN;
binmode STDOUT;
my $s = <STDIN>;
# A start tag, then either "/>" or ">" content "</target>".
my $rest = qr{[^>]*?(?:/>|(?<!/)>.*?</target>)}s;
if ($mode eq 'mt') {
  $s =~ s{[ \t\r\n]*<target\b[^>]*?\sstate-qualifier="mt-suggestion"$rest}{}g;
} elsif ($mode eq 'all') {
  $s =~ s{[ \t\r\n]*<target\b$rest}{}g;
  $s =~ s{(<trans-unit\b[^>]*?)\sapproved="[^"]*"}{$1}g;
} elsif ($mode eq 'alt') {
  $s =~ s{[ \t\r\n]*<alt-trans\s+origin="xliffmt"[^>]*>.*?</alt-trans>}{}gs;
} else {
  die "strip.pl: unknown mode $mode\n";
}
if (defined $in) {
  open my $fh, '<:raw', $in or die "$in: $!\n";
  my $orig = <$fh>;
  my @had = map { /\starget-language\s*=/ ? 1 : 0 } ($orig =~ /<file\b[^>]*>/g);
  my $i = 0;
  $s =~ s{(<file\b[^>]*>)}{
    my $t = $1;
    $t =~ s/\s+target-language="[^"]*"// unless $had[$i++] // 1;
    $t
  }ge;
}
print $s;
EOF

# same_text.pl < FILE: names each trans-unit whose <target> is missing or
# differs from its <source>, character references written alike (&#233;
# and &#xE9;): the identity backend gives the source back.
cat >"$tmp/same_text.pl" <<'EOF'
use strict;
use warnings;
local $/;
binmode STDIN;
my $s = <STDIN>;
sub norm {
  my $t = shift;
  $t =~ s/&#(x?)([0-9A-Fa-f]+);/sprintf "&#x%X;", $1 ? hex $2 : $2/ge;
  return $t;
}
my $n = 0;
while ($s =~ m{(<trans-unit\b[^>]*\sid="([^"]*)".*?</trans-unit>)}gs) {
  my ($tu, $id) = ($1, $2);
  my ($src) = $tu =~ m{<source\b[^>]*>(.*?)</source>}s;
  my ($tgt) = $tu =~ m{<target\b[^>]*>(.*?)</target>}s;
  $n++;
  if (!defined $tgt) {
    print "unit $id: no target\n";
  } elsif (norm($src) ne norm($tgt)) {
    print "unit $id: target differs from source\n";
  }
}
print "no trans-unit found\n" if $n == 0;
EOF

x=$XLIFFMT

# to_utf8 FILE DEST: copies FILE, converting UTF-16 (by its BOM) to UTF-8.
to_utf8() {
  case $(od -An -tx1 -N2 "$1" | tr -d ' \n') in
  fffe | feff) iconv -f UTF-16 -t UTF-8 "$1" >"$2" ;;
  *) cp "$1" "$2" ;;
  esac
}

# same DESC A B: A and B are byte-for-byte equal; shows the first
# difference when not.
same() {
  if cmp -s "$2" "$3"; then
    pass "$1"
  else
    fail "$1"
    diff "$2" "$3" | sed -n '1,8s/^/    /p'
  fi
}

# roundtrip FILE: the three modes on one input.
roundtrip() {
  f=$1
  name=${f##*/}
  in8=$tmp/in.utf8
  rm -f "$tmp/default.utf8"
  if ! to_utf8 "$f" "$in8"; then
    fail "$name: cannot convert the input to UTF-8"
    return
  fi

  rm -f "$tmp/o.xlf"
  if expect_exit 0 "$name: translate" \
    "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q --no-segment; then
    to_utf8 "$tmp/o.xlf" "$tmp/default.utf8"
    perl "$tmp/strip.pl" mt "$in8" <"$tmp/default.utf8" >"$tmp/s.xlf"
    same "$name: only mt targets added" "$in8" "$tmp/s.xlf"
  fi

  rm -f "$tmp/o.xlf"
  if expect_exit 0 "$name: translate (segmented for MT)" \
    "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q; then
    to_utf8 "$tmp/o.xlf" "$tmp/o.utf8"
    perl "$tmp/strip.pl" mt "$in8" <"$tmp/o.utf8" >"$tmp/s.xlf"
    same "$name: segmented for MT, only whole mt targets added" "$in8" \
      "$tmp/s.xlf"
    if cmp -s "$tmp/default.utf8" "$tmp/o.utf8"; then
      pass "$name: segmented for MT, same targets as unsegmented"
    else
      fail "$name: segmented for MT, same targets as unsegmented"
      diff "$tmp/default.utf8" "$tmp/o.utf8" | sed -n '1,8s/^/    /p'
    fi
  fi

  rm -f "$tmp/o.xlf"
  if expect_exit 0 "$name: translate --overwrite" \
    "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q --no-segment --overwrite; then
    to_utf8 "$tmp/o.xlf" "$tmp/o.utf8"
    perl "$tmp/strip.pl" all "$in8" <"$tmp/o.utf8" >"$tmp/s.xlf"
    perl "$tmp/strip.pl" all <"$in8" >"$tmp/i.xlf"
    same "$name: --overwrite changes only targets" "$tmp/i.xlf" "$tmp/s.xlf"
  fi

  rm -f "$tmp/o.xlf"
  if expect_exit 0 "$name: translate --alt-trans" \
    "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q --no-segment --alt-trans; then
    to_utf8 "$tmp/o.xlf" "$tmp/o.utf8"
    perl "$tmp/strip.pl" alt "$in8" <"$tmp/o.utf8" >"$tmp/s.xlf"
    same "$name: --alt-trans adds only alt-trans" "$in8" "$tmp/s.xlf"
  fi
}

n=0
for f in "$okapi"/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  name=${f##*/}
  if [ "$name" = invalid_xml_entity.xlf ]; then
    rm -f "$tmp/o.xlf"
    expect_exit 1 "$name: refused" \
      "$x" translate "$f" -o "$tmp/o.xlf" --mt identity -q
    if grep -q -F -e "$name:8:" "$tmp/err"; then
      pass "$name: error on line 8"
    else
      fail "$name: error on line 8"
      sed -n '1,5s/^/    stderr: /p' "$tmp/err"
    fi
    check "$name: no output" test ! -e "$tmp/o.xlf"
    continue
  fi
  roundtrip "$f"
done
check "Okapi files found ($n)" test "$n" -ge 10

if ! command -v iconv >/dev/null 2>&1; then
  echo "note: iconv not found, UTF-16 fixtures skipped"
fi
for f in "${XMT_FIXTURES:-}"/enc-*.xlf; do
  [ -f "$f" ] || continue
  case ${f##*/} in
  enc-utf16*) command -v iconv >/dev/null 2>&1 || continue ;;
  esac
  roundtrip "$f"
  # The fixtures have no targets: each unit must get its source back, with
  # the non-ASCII characters encoded as in the source.
  if [ -f "$tmp/default.utf8" ]; then
    perl "$tmp/same_text.pl" <"$tmp/default.utf8" >"$tmp/diffs"
    if [ ! -s "$tmp/diffs" ]; then
      pass "${f##*/}: every unit got its source as target"
    else
      fail "${f##*/}: every unit got its source as target"
      sed -n '1,5s/^/    /p' "$tmp/diffs"
    fi
  fi
done

sample=${XMT_SAMPLES:-}/sample.xlf
if [ -f "$sample" ]; then
  roundtrip "$sample"
else
  fail "sample.xlf not found in XMT_SAMPLES='${XMT_SAMPLES:-}'"
fi

finish
