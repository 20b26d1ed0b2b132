# eflomal.sh -- running eflomal (Östling & Tiedemann 2016,
# https://github.com/robertostling/eflomal) beside xliffmt's aligner, as
# its eflomal-align front end runs it: sourced by eflomal_compare.sh and
# projection.sh, not run.
#
# EFLOMAL names the eflomal binary, or a folder holding it: eflomal's
# source tree (src/eflomal once `make -C src` has built it) or its
# installed Python package (bin/eflomal). No Python is needed: the
# helpers write eflomal's numbered input files themselves.

# eflomal_find: sets eflomal to the binary EFLOMAL names; returns 1 when
# EFLOMAL is unset (nothing to compare with) and fails when it names no
# binary.
eflomal_find() {
  eflomal=
  [ -n "${EFLOMAL:-}" ] || return 1
  for f in "$EFLOMAL" "$EFLOMAL/eflomal" "$EFLOMAL/src/eflomal" \
    "$EFLOMAL/bin/eflomal"; do
    if [ -f "$f" ] && [ -x "$f" ]; then
      eflomal=$f
      return 0
    fi
  done
  echo "no eflomal binary at $EFLOMAL" >&2
  exit 1
}

# eflomal_sweeps N: eflomal-align's sweep counts for a corpus of N pairs,
# "IBM1 HMM fertility": (max(2, I), I, K), K = max(2, round(5000 /
# sqrt(N))), I = max(1, K / 4)
eflomal_sweeps() {
  awk -v n="$1" 'BEGIN { k = int(5000 / sqrt(n) + 0.5); if (k < 2) k = 2
    i = int(k / 4); if (i < 1) i = 1; printf "%d %d %d", i < 2 ? 2 : i, i, k }'
}

# eflomal_setup DIR: writes the helpers below into DIR.
eflomal_setup() {
  # numbers.pl SRC TGT <CORPUS: eflomal's input, one file a side: a line
  # "sentences vocabulary", then each sentence as "length id id ...", word
  # ids from 0 in order of first appearance, lowercased; "0" for an empty
  # side or one of 1024 words or more (eflomal leaves it unaligned).
  cat >"$1/numbers.pl" <<'EOF'
use strict;
use warnings;
my (@ids, @lines);
while (defined(my $l = <STDIN>)) {
  chomp $l;
  my @side = split / \|\|\| /, $l, 2;
  for my $k (0, 1) {
    my @w = split ' ', lc($side[$k] // '');
    my $h = $ids[$k] ||= {};
    push @{ $lines[$k] }, @w && @w < 1024
      ? join(' ', scalar @w,
        map { exists $h->{$_} ? $h->{$_} : ($h->{$_} = scalar keys %$h) } @w)
      : '0';
  }
}
for my $k (0, 1) {
  open my $out, '>', $ARGV[$k] or die "$ARGV[$k]: $!\n";
  printf $out "%d %d\n", scalar @{ $lines[$k] || [] },
    scalar keys %{ $ids[$k] || {} };
  print $out "$_\n" for @{ $lines[$k] || [] };
  close $out or die "$ARGV[$k]: $!\n";
}
EOF
  # gdfa.pl CORPUS FORWARD REVERSE: grow-diag-final-and of two files of
  # Pharaoh links (both "source-target"), visited as fast_align's atools
  # (and xliffmt's --symmetrize) visit them: the intersection; then, until
  # nothing changes, sweeps in (source, target) order adding a link of
  # either direction next to (8 neighbours) a chosen link when its source
  # or its target word is still unaligned; then the forward links, then the
  # reverse ones, whose two words are both unaligned.
  cat >"$1/gdfa.pl" <<'EOF'
use strict;
use warnings;
my @nb = ([1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, 1], [1, -1],
  [-1, -1]);
open my $c, '<', $ARGV[0] or die "$ARGV[0]: $!\n";
open my $f, '<', $ARGV[1] or die "$ARGV[1]: $!\n";
open my $r, '<', $ARGV[2] or die "$ARGV[2]: $!\n";
while (defined(my $pair = <$c>)) {
  my ($s, $t) = split / \|\|\| /, $pair, 2;
  my @s = split ' ', $s;
  my @t = split ' ', $t // '';
  my ($n, $m) = (scalar @s, scalar @t);
  my (%dir, %res, @sa, @ta);
  for ([$f, 1], [$r, 2]) {
    my ($fh, $bit) = @$_;
    my $l = <$fh>;
    die "gdfa.pl: fewer lines of links than pairs\n" unless defined $l;
    for (split ' ', $l) {
      my ($i, $j) = /^(\d+)-(\d+)$/ or die "gdfa.pl: bad link $_\n";
      $dir{"$i-$j"} |= $bit;
    }
  }
  my $add = sub { $res{"$_[0]-$_[1]"} = 1; $sa[$_[0]] = $ta[$_[1]] = 1 };
  for my $i (0 .. $n - 1) {
    for my $j (0 .. $m - 1) {
      $add->($i, $j) if ($dir{"$i-$j"} // 0) == 3;
    }
  }
  for (my $more = 1; $more;) {
    $more = 0;
    for my $i (0 .. $n - 1) {
      for my $j (0 .. $m - 1) {
        next if !$dir{"$i-$j"} || $res{"$i-$j"} || ($sa[$i] && $ta[$j]);
        for (@nb) {
          my ($x, $y) = ($i + $_->[0], $j + $_->[1]);
          next if $x < 0 || $y < 0 || $x >= $n || $y >= $m;
          if ($res{"$x-$y"}) { $add->($i, $j); $more = 1; last }
        }
      }
    }
  }
  for my $bit (1, 2) {
    for my $i (0 .. $n - 1) {
      for my $j (0 .. $m - 1) {
        $add->($i, $j) if (($dir{"$i-$j"} // 0) & $bit) && !$res{"$i-$j"}
          && !$sa[$i] && !$ta[$j];
      }
    }
  }
  print join(' ', map { my $i = $_; grep { $res{$_} } map { "$i-$_" }
    0 .. $m - 1 } 0 .. $n - 1), "\n";
}
EOF

  # once.sh DIR EFLOMAL THREADS CORPUS ARGS...: one eflomal run: numbered
  # files, eflomal (ARGS), grow-diag-final-and on standard output
  cat >"$1/once.sh" <<'EOF'
set -eu
dir=$1 eflomal=$2 threads=$3 corpus=$4
shift 4
perl -CSD "$dir/numbers.pl" "$dir/src.num" "$dir/tgt.num" <"$corpus"
OMP_NUM_THREADS=$threads "$eflomal" -q -m 3 -s "$dir/src.num" \
  -t "$dir/tgt.num" -f "$dir/fwd" -r "$dir/rev" "$@"
perl "$dir/gdfa.pl" "$corpus" "$dir/fwd" "$dir/rev"
EOF
}

# eflomal_align DIR THREADS CORPUS: one eflomal run with eflomal-align's
# defaults (model 3, 3 samplers, NULL prior 0.2, the sweeps of
# eflomal_sweeps), grow-diag-final-and on standard output; DIR holds the
# helpers of eflomal_setup.
eflomal_align() {
  # shellcheck disable=SC2046
  set -- "$1" "$2" "$3" $(eflomal_sweeps "$(wc -l <"$3" | tr -d ' ')")
  sh "$1/once.sh" "$1" "$eflomal" "$2" "$3" -n 3 -N 0.2 -1 "$4" -2 "$5" \
    -3 "$6"
}
