#!/usr/bin/perl
# realmt.pl -- the reading and scoring half of tests/bench/realmt.sh.
#
#   realmt.pl prepare PAGE DIR      instrumented copy (DIR/in.html|in.xlf),
#                                   untagged units (DIR/units.txt) and, for
#                                   XLIFF, the units as an HTML page for
#                                   apertium -f html (DIR/in-ap.html)
#   realmt.pl list PAGE             units and inline elements, for writing gold
#   realmt.pl skeleton PAGE REF     a gold file to fill in (REF: one reference
#                                   translation per unit, as units.txt)
#   realmt.pl score WORK PAGES GOLD METHOD...   the table (VERBOSE=1|2)
#
# See tests/realmt/README for the gold format and the scoring rules.
use strict;
use warnings;
use utf8;
use Encode qw(decode encode);
use Unicode::Normalize qw(NFD);

binmode STDOUT, ':encoding(UTF-8)';
binmode STDERR, ':encoding(UTF-8)';

# --- Reading files ----------------------------------------------------------

sub slurp {
  my ($f) = @_;
  open my $fh, '<:raw', $f or die "realmt.pl: $f: $!\n";
  local $/;
  my $c = <$fh>;
  close $fh;
  return decode('UTF-8', $c);
}

sub spew {
  my ($f, $text) = @_;
  open my $fh, '>:raw', $f or die "realmt.pl: $f: $!\n";
  print $fh encode('UTF-8', $text);
  close $fh or die "realmt.pl: $f: $!\n";
}

my %ENT = (
  amp => '&', lt => '<', gt => '>', quot => '"', apos => "'",
  nbsp => "\x{a0}", copy => "\x{a9}", euro => "\x{20ac}", hellip => "\x{2026}",
  ndash => "\x{2013}", mdash => "\x{2014}", lsquo => "\x{2018}",
  rsquo => "\x{2019}", ldquo => "\x{201c}", rdquo => "\x{201d}",
  laquo => "\x{ab}", raquo => "\x{bb}", iexcl => "\x{a1}", iquest => "\x{bf}",
  aacute => "\x{e1}", eacute => "\x{e9}", iacute => "\x{ed}",
  oacute => "\x{f3}", uacute => "\x{fa}", ntilde => "\x{f1}",
  Aacute => "\x{c1}", Eacute => "\x{c9}", Iacute => "\x{cd}",
  Oacute => "\x{d3}", Uacute => "\x{da}", Ntilde => "\x{d1}",
  uuml => "\x{fc}", deg => "\x{b0}", middot => "\x{b7}",
);

sub unent {
  my ($s) = @_;
  $s =~ s{&(#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]*));}{
    defined $2 ? chr(hex $2) : defined $3 ? chr($3)
      : exists $ENT{$4} ? $ENT{$4} : "&$4;"
  }ge;
  return $s;
}

# --- Units ------------------------------------------------------------------
# A unit: { id, text, els => [element...] }.  An element: { key, tag,
# start, end (character offsets in text), void (a placeholder: no content
# of its own), count (start tags seen), closed, nested (well nested) }.
# Text is whitespace-collapsed: runs of white space are one space, none at
# the ends.

sub new_unit { return { id => $_[0], text => '', els => [], bykey => {} } }

sub add_text {
  my ($u, $s) = @_;
  $s =~ s/[ \t\r\n\f\x{a0}]+/ /g;
  $s =~ s/^ // if $u->{text} eq '' || $u->{text} =~ / \z/;
  $u->{text} .= $s;
}

sub add_el {
  my ($u, $el) = @_;
  $el->{start} = length $u->{text};
  $el->{count} = 1;
  $el->{nested} = 1;
  if (my $old = $u->{bykey}{$el->{key}}) {
    $old->{count}++;    # a repeated code: the first one is scored
    return $old;
  }
  push @{$u->{els}}, $el;
  $u->{bykey}{$el->{key}} = $el;
  return $el;
}

sub finish_unit {
  my ($u) = @_;
  $u->{text} =~ s/ \z//;
  my $n = length $u->{text};
  for my $el (@{$u->{els}}) {
    $el->{start} = $n if $el->{start} > $n;
    $el->{end} = $n if defined $el->{end} && $el->{end} > $n;
  }
}

# --- HTML ---------------------------------------------------------------------

my %INLINE = map { $_ => 1 } qw(a abbr b bdi bdo cite code data del dfn em
  font i ins kbd mark q s samp small span strike strong sub sup time tt u var);
my %VOID = map { $_ => 1 } qw(br img wbr input);

# Reads a page: (units, the page with data-k="N" on every inline element
# that has none). Elements are numbered in document order from 1.
sub html_units {
  my ($src) = @_;
  my (@units, $cur, @stack, $out);
  my $k = 0;
  my $flush = sub {
    if ($cur) {
      $_->{closed} = 0 for @stack;    # unclosed at the end of the unit
      finish_unit($cur);
      push @units, $cur if $cur->{text} =~ /\S/ || @{$cur->{els}};
    }
    $cur = undef;
    @stack = ();
  };
  $out = '';
  while ($src =~ m{\G(<!--.*?-->|<![^>]*>|<\?.*?\?>
                      |<(script|style|textarea)\b[^>]*>.*?</\2\s*>
                      |</?[A-Za-z][^>]*>|[^<]+|<)}gcsx) {
    my $t = $1;
    if ($t =~ /\A<(\/?)([A-Za-z][A-Za-z0-9-]*)(.*?)>\z/s) {
      my ($close, $name, $attrs) = ($1, lc $2, $3);
      if ($name =~ /\A(script|style|textarea)\z/) {
        $flush->();
      } elsif ($INLINE{$name} || $VOID{$name}) {
        $cur ||= new_unit(scalar(@units) + 1);
        if ($close) {
          if (!$VOID{$name}) {
            my $i = $#stack;
            $i-- while $i >= 0 && $stack[$i]{tag} ne $name;
            if ($i >= 0) {
              if ($i != $#stack) {    # crosses the elements opened inside
                $_->{nested} = 0 for @stack[$i .. $#stack];
              }
              $stack[$i]{end} = length $cur->{text};
              $stack[$i]{closed} = 1;
              splice @stack, $i, 1;
            }
          }
        } else {
          my $key;
          if ($attrs =~ /\bdata-k="(\d+)"/) {
            $key = $1;
          } else {
            $key = ++$k;
            $t =~ s/\A(<[A-Za-z][A-Za-z0-9-]*)/$1 data-k="$key"/;
          }
          my $el = add_el($cur, { key => $key, tag => $name,
                                  void => $VOID{$name} ? 1 : 0 });
          if ($el->{count} == 1) {
            if ($VOID{$name}) {
              $el->{end} = $el->{start};
              $el->{closed} = 1;
            } else {
              $el->{closed} = 0;
              push @stack, $el;
            }
          }
          add_text($cur, ' ') if $name eq 'br';    # a line break is a blank
        }
      } else {
        $flush->();
      }
    } elsif ($t =~ /\A<[!?]/) {
      # comment, doctype, processing instruction
    } else {
      if ($t =~ /\S/ || $cur) {
        $cur ||= new_unit(scalar(@units) + 1);
        add_text($cur, unent($t));
      }
    }
    $out .= $t;
  }
  $flush->();
  # Pairs with no content are scored as placeholders.
  for my $u (@units) {
    for my $el (@{$u->{els}}) {
      $el->{void} = 1 if !$el->{void} && defined $el->{end}
        && substr($u->{text}, $el->{start}, $el->{end} - $el->{start}) !~ /\S/;
    }
  }
  return (\@units, $out);
}

# --- XLIFF ------------------------------------------------------------------

sub xattr {
  my ($attrs, $name) = @_;
  return $attrs =~ /\b\Q$name\E\s*=\s*"([^"]*)"/ ? $1
       : $attrs =~ /\b\Q$name\E\s*=\s*'([^']*)'/ ? $1 : undef;
}

# Parses XLIFF inline content (also apertium's copy of it, where bpt/ept
# have lost their content) into a unit.
sub xliff_inline {
  my ($u, $content) = @_;
  my (@stack, %bpt);
  while ($content =~ m{\G(<(ph|bpt|ept|it)\b([^>]*?)>.*?</\2\s*>
                         |<[A-Za-z][^>]*>|</[A-Za-z][^>]*>|[^<]+|<)}gcsx) {
    my $t = $1;
    if ($t =~ /\A<(\/?)([A-Za-z][A-Za-z0-9:-]*)\b(.*?)(\/?)>/s) {
      my ($close, $name, $attrs, $empty) = ($1, $2, $3, $4);
      my $id = xattr($attrs, 'id');
      if ($name eq 'mrk' || $name eq 'sub') {
        next;
      } elsif ($name eq 'g') {
        if ($close) {
          my $el = pop @stack;
          if ($el) { $el->{end} = length $u->{text}; $el->{closed} = 1 }
        } else {
          my $el = add_el($u, { key => "g$id", tag => 'g', void => 0 });
          if ($el->{count} == 1) {
            if ($empty) { $el->{end} = $el->{start}; $el->{closed} = 1 }
            else { $el->{closed} = 0; push @stack, $el }
          } elsif (!$empty) {
            push @stack, { tag => 'g' };    # a duplicate: keep the nesting
          }
        }
      } elsif ($name eq 'bpt' && !$close) {
        my $el = add_el($u, { key => "bpt$id", tag => 'bpt', void => 0,
                              closed => 0 });
      } elsif ($name eq 'ept' && !$close) {
        my $el = $u->{bykey}{"bpt$id"};
        if ($el && !$el->{closed}) {
          $el->{end} = length $u->{text};
          $el->{closed} = 1;
        }
      } elsif (!$close && $name =~ /\A(x|bx|ex|ph|it)\z/) {
        my $el = add_el($u, { key => "$name$id", tag => $name, void => 1,
                              closed => 1 });
        $el->{end} = $el->{start} if $el->{count} == 1;
        add_text($u, " ") if (xattr($attrs, "ctype") // "") eq "lb";    # a line break is a blank
      }
    } else {
      add_text($u, unent($t));
    }
  }
  $_->{closed} = 0 for grep { defined $_->{key} } @stack;
  finish_unit($u);
  for my $el (@{$u->{els}}) {
    $el->{void} = 1 if !$el->{void} && defined $el->{end}
      && substr($u->{text}, $el->{start}, $el->{end} - $el->{start}) !~ /\S/;
  }
  return $u;
}

# The trans-units of an XLIFF document: id => source or target content
# (undef: no target), in document order.
sub xliff_contents {
  my ($src, $which) = @_;
  my @r;
  while ($src =~ m{<trans-unit\b([^>]*)>(.*?)</trans-unit>}gs) {
    my ($attrs, $body) = ($1, $2);
    next if (xattr($attrs, 'translate') // 'yes') eq 'no';
    my $id = xattr($attrs, 'id');
    my $content;
    if ($which eq 'source') {
      ($content) = $body =~ m{<source\b[^>]*>(.*?)</source>}s;
    } elsif ($body =~ m{<target\b[^>]*>(.*?)</target>}s) {
      $content = $1;
    }
    push @r, [$id, $content];
  }
  return @r;
}

sub xliff_units {
  my ($src, $which) = @_;
  my @units;
  for my $r (xliff_contents($src, $which)) {
    my $u = new_unit($r->[0]);
    $u->{missing} = !defined $r->[1];
    xliff_inline($u, $r->[1] // '');
    push @units, $u;
  }
  return \@units;
}

# A source pair cut into <bx/>..<ex/> by segmentation comes back as the
# pair of the same id.
sub join_cut_pairs {
  my ($src, $out) = @_;
  for my $el (@{$src->{els}}) {
    next unless $el->{key} =~ /\Ag(.+)\z/;
    my $id = $1;
    next if $out->{bykey}{$el->{key}};
    my ($bx, $ex) = ($out->{bykey}{"bx$id"}, $out->{bykey}{"ex$id"});
    next unless $bx && $ex && !$src->{bykey}{"bx$id"};
    my $g = { key => $el->{key}, tag => 'g', void => $el->{void},
              start => $bx->{start}, end => $ex->{end},
              count => ($bx->{count} > $ex->{count} ? $bx->{count} : $ex->{count}),
              closed => $bx->{start} <= $ex->{start} ? 1 : 0, nested => 1 };
    push @{$out->{els}}, $g;
    $out->{bykey}{$g->{key}} = $g;
  }
}

# The units of an XLIFF file as an HTML page for apertium -f html: one <p>
# per unit, the inline codes as they are (bpt/ept/ph/it without content).
sub xliff_as_html {
  my ($src) = @_;
  my $h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"></head>\n<body>\n";
  for my $r (xliff_contents($src, 'source')) {
    my $c = $r->[1];
    $c =~ s{<(bpt|ept|ph|it)\b([^>]*?)>.*?</\1\s*>}{<$1$2/>}gs;
    $c =~ s/[\r\n]+/ /g;
    $h .= "<p id=\"" . $r->[0] . "\">$c</p>\n";
  }
  return $h . "</body>\n</html>\n";
}

# apertium -f html's answer to xliff_as_html.
sub html_as_xliff_units {
  my ($src) = @_;
  my @units;
  while ($src =~ m{<p id="([^"]*)">(.*?)</p>}gs) {
    my ($id, $c) = ($1, $2);
    $c =~ s{<(bpt|ept|ph|it)\b([^>]*?)/>}{<$1$2></$1>}g;
    my $u = new_unit($id);
    xliff_inline($u, $c);
    push @units, $u;
  }
  return \@units;
}

sub is_xliff { return $_[0] =~ /\.(xlf|xliff)\z/ }

sub page_units {
  my ($file, $kind) = @_;    # kind: source | target | aphtml
  my $src = slurp($file);
  return xliff_units($src, 'source') if $kind eq 'source' && is_xliff($file);
  return (html_units($src))[0] unless is_xliff($file) || $kind eq 'aphtml';
  return html_as_xliff_units($src) if $kind eq 'aphtml';
  return xliff_units($src, 'target');
}

# --- Tokens -------------------------------------------------------------------
# A token is a run of letters (with their combining marks), a run of digits,
# or any other single non-space character.

sub tokens {
  my ($s) = @_;
  my @t;
  while ($s =~ /(\p{L}[\p{L}\p{M}]*|\p{N}+|\S)/g) {
    push @t, [lc $1, $-[1], $+[1]];
  }
  return @t;
}

sub is_word { return $_[0] =~ /\A[\p{L}\p{N}]/ }

sub strip_edges {
  my @t = @_;
  shift @t while @t && !is_word($t[0][0]);
  pop @t while @t && !is_word($t[-1][0]);
  return @t;
}

sub deaccent {
  my ($s) = @_;
  $s = NFD($s);
  $s =~ s/\p{M}//g;
  return $s;
}

sub words { return map { $_->[0] } grep { is_word($_->[0]) } tokens($_[0]) }

# --- Gold -----------------------------------------------------------------------

sub read_gold {
  my ($file) = @_;
  my %g = (U => {}, R => {}, E => [], order => []);
  my $n = 0;
  for my $line (split /\n/, slurp($file)) {
    $n++;
    next if $line =~ /\A\s*(#|\z)/;
    my @f = split /\t/, $line, -1;
    if ($f[0] eq 'U' || $f[0] eq 'R') {
      $g{$f[0]}{$f[1]} = $f[2];
      push @{$g{order}}, $f[1] if $f[0] eq 'U';
    } elsif ($f[0] eq 'E') {
      die "realmt.pl: $file:$n: an E line needs 7 fields\n" if @f < 7;
      push @{$g{E}}, { key => $f[1], unit => $f[2], tag => $f[3],
                       src => $f[4], gold => $f[5], note => $f[6],
                       line => $n };
    } else {
      die "realmt.pl: $file:$n: unknown line type '$f[0]'\n";
    }
  }
  return \%g;
}

# A gold field: alternatives separated by " | "; a wrap is words with an
# optional "#N" (the N-th occurrence in the unit); a place is "after=W"
# and/or "before=W" ("^": unit start, "$": unit end).
sub parse_gold {
  my ($s) = @_;
  my @alts;
  for my $a (split /\s*\|\s*/, $s) {
    if ($a =~ /(?:\A|\s)(?:after|before)=/) {
      my %p;
      $p{after} = lc $1 if $a =~ /\bafter=(\S+)/;
      $p{before} = lc $1 if $a =~ /\bbefore=(\S+)/;
      push @alts, { place => \%p };
    } else {
      my $occ;
      $occ = $1 if $a =~ s/#(\d+)\s*\z//;
      my @t = tokens($a);
      my @s = strip_edges(@t);
      @s = @t unless @s;    # only punctuation, as a footnote mark *
      push @alts, { words => [map { $_->[0] } @s],
                    occ => $occ };
    }
  }
  return \@alts;
}

# --- Scoring one element ------------------------------------------------------

# The start indexes in @$toks of every occurrence of @$seq.
sub occurrences {
  my ($toks, $seq) = @_;
  my @at;
  return @at unless @$seq;
  I: for my $i (0 .. @$toks - @$seq) {
    for my $j (0 .. $#$seq) {
      next I if $toks->[$i + $j][0] ne $seq->[$j];
    }
    push @at, $i;
  }
  return @at;
}

# What the element holds in unit $u: "w1 w2" for a pair, "W1 ^ W2" (the
# words either side) for a placeholder.
sub describe {
  my ($u, $el) = @_;
  if ($el->{void}) {
    my ($prev, $next) = neighbours($u, $el->{start});
    return ($prev // '^') . ' _ ' . ($next // '$');
  }
  return join ' ', map { $_->[0] }
    tokens(substr($u->{text}, $el->{start}, $el->{end} - $el->{start}));
}

sub neighbours {
  my ($u, $pos) = @_;
  my ($prev, $next);
  for my $t (tokens($u->{text})) {
    next unless is_word($t->[0]);
    $prev = $t->[0] if $t->[2] <= $pos;
    $next //= $t->[0] if $t->[1] >= $pos;
  }
  return ($prev, $next);
}

sub match_alt {
  my ($u, $el, $alt) = @_;
  if ($alt->{place}) {
    my ($prev, $next) = neighbours($u, $el->{start});
    my $p = $alt->{place};
    return 0 if defined $p->{after} && ($prev // '^') ne $p->{after};
    return 0 if defined $p->{before} && ($next // '$') ne $p->{before};
    return 1;
  }
  return 0 if $el->{void};
  my @all = tokens($u->{text});
  my @inside = grep { $_->[1] >= $el->{start} && $_->[2] <= $el->{end} } @all;
  my @in = strip_edges(@inside);
  @in = @inside unless @in;
  my $got = join ' ', map { $_->[0] } @in;
  return 0 if $got ne join ' ', @{$alt->{words}};
  return 1 unless $alt->{occ};
  my @at = occurrences(\@all, $alt->{words});
  return 1 if @at < 2;
  my $first = $in[0];
  for my $i (0 .. $#at) {
    return $i + 1 == $alt->{occ} if $all[$at[$i]] == $first;
  }
  return 0;
}

# The pseudo backend keeps each word (accented) and, with reorder=none,
# their order: a pair must hold exactly the words of its source content.
sub match_pseudo {
  my ($u, $el, $srcu, $srcel) = @_;
  my $w = sub {
    my ($uu, $e) = @_;
    join ' ', map { deaccent($_) }
      words(substr($uu->{text}, $e->{start}, $e->{end} - $e->{start}));
  };
  return $w->($u, $el) eq $w->($srcu, $srcel) ? 1 : 0;
}

# --- Commands -------------------------------------------------------------------

sub cmd_prepare {
  my ($page, $dir) = @_;
  my $src = slurp($page);
  my ($units, $inst);
  if (is_xliff($page)) {
    $units = xliff_units($src, 'source');
    spew("$dir/in.xlf", $src);
    spew("$dir/in-ap.html", xliff_as_html($src));
  } else {
    ($units, $inst) = html_units($src);
    spew("$dir/in.html", $inst);
  }
  spew("$dir/units.txt", join '', map { "$_->{text}\n" } @$units);
}

sub cmd_list {
  my ($page) = @_;
  my $units = page_units($page, 'source');
  my $i = 0;
  for my $u (@$units) {
    $i++;
    print "[$i] $u->{id}: $u->{text}\n";
    for my $el (@{$u->{els}}) {
      print "    $el->{key}\t$el->{tag}\t",
        $el->{void} ? "at " . describe($u, $el) : "'" .
        substr($u->{text}, $el->{start}, $el->{end} - $el->{start}) . "'", "\n";
    }
  }
}

sub unit_label { my ($u, $i) = @_; return $u->{id} =~ /\A\d+\z/ ? $i : $u->{id} }

sub cmd_skeleton {
  my ($page, $reffile) = @_;
  my $units = page_units($page, 'source');
  my @ref = split /\n/, slurp($reffile), -1;
  my $i = 0;
  print "# gold for $page: see tests/realmt/README\n";
  for my $u (@$units) {
    $i++;
    my $label = unit_label($u, $i);
    print "U\t$label\t$u->{text}\n";
    print "R\t$label\t", $ref[$i - 1] // '', "\n";
    for my $el (@{$u->{els}}) {
      my $content = $el->{void} ? '' :
        substr($u->{text}, $el->{start}, $el->{end} - $el->{start});
      print "E\t$el->{key}\t$label\t$el->{tag}\t$content\t\t\n";
    }
    print "\n";
  }
}

sub pct { my ($a, $b) = @_; return $b ? sprintf('%.1f', 100 * $a / $b) : '-' }

sub cmd_score {
  my ($work, $pagedir, $golddir, @methods) = @_;
  my $verbose = $ENV{VERBOSE} // 0;
  my @pages = sort grep { /\.(html|xlf|xliff)\z/ } map { s{.*/}{}r } glob("$pagedir/*");
  my (%tot, %notes, @detail, %bytype);
  my $stale = 0;
  for my $page (@pages) {
    my $name = $page;
    my $gfile = "$golddir/$name.tsv";
    die "realmt.pl: no gold for $page ($gfile)\n" unless -f $gfile;
    my $gold = read_gold($gfile);
    my $src = page_units("$pagedir/$page", 'source');
    my %srcu;
    my $i = 0;
    $srcu{unit_label($_, ++$i)} = $_ for @$src;
    my @labels = map { unit_label($src->[$_], $_ + 1) } 0 .. $#$src;
    # The gold must name every element of the page, and only those.
    my %seen;
    for my $e (@{$gold->{E}}) {
      my $u = $srcu{$e->{unit}};
      die "realmt.pl: $gfile:$e->{line}: no unit $e->{unit}\n" unless $u;
      my $el = $u->{bykey}{$e->{key}};
      die "realmt.pl: $gfile:$e->{line}: no element $e->{key} in unit $e->{unit}\n"
        unless $el;
      die "realmt.pl: $gfile:$e->{line}: no gold for $e->{key}\n"
        if $e->{gold} !~ /\S/;
      $e->{alts} = parse_gold($e->{gold});
      for my $a (@{$e->{alts}}) {
        die "realmt.pl: $gfile:$e->{line}: $e->{key} is a placeholder: give after=/before=\n"
          if $el->{void} && !$a->{place};
        die "realmt.pl: $gfile:$e->{line}: $e->{key} has content: give words\n"
          if !$el->{void} && $a->{place};
      }
      $seen{"$e->{unit}\t$e->{key}"} = 1;
    }
    for my $l (@labels) {
      for my $el (@{$srcu{$l}{els}}) {
        die "realmt.pl: $gfile: element $el->{key} of unit $l has no gold\n"
          unless $seen{"$l\t$el->{key}"};
      }
    }
    # The live reference against the one the gold was written on.
    my @ref = -f "$work/$name/ref.txt"
      ? split(/\n/, slurp("$work/$name/ref.txt"), -1) : ();
    my %ref;
    for my $j (0 .. $#labels) {
      my $l = $labels[$j];
      $ref{$l} = $ref[$j] // '';
      if (($gold->{R}{$l} // '') ne $ref{$l}) {
        $stale++;
        push @{$notes{'*'}}, "$name unit $l: apertium now gives \"$ref{$l}\", "
          . "the gold was written on \"" . ($gold->{R}{$l} // '') . "\"";
      }
      # Gold words must be in the reference.
      my $ru = new_unit($l);
      add_text($ru, $ref{$l});
      finish_unit($ru);
      for my $e (grep { $_->{unit} eq $l } @{$gold->{E}}) {
        for my $a (@{$e->{alts}}) {
          next if $a->{place};
          my @at = occurrences([tokens($ru->{text})], $a->{words});
          push @{$notes{'*'}}, "$name $e->{key}: gold '$e->{gold}' not in the reference"
            unless @at;
          push @{$notes{'*'}}, "$name $e->{key}: gold '$e->{gold}' occurs "
            . scalar(@at) . " times in the reference: say which with #N"
            if @at > 1 && !$a->{occ};
        }
      }
    }
    for my $m (@methods) {
      my $ext = is_xliff($page) ? 'xlf' : 'html';
      my $kind = 'target';
      $kind = 'aphtml' if $m eq 'apertium-html' && is_xliff($page);
      my $outf = "$work/$name/out.$m." . ($kind eq 'aphtml' ? 'html' : $ext);
      if (-f "$work/$name/out.$m.skip") {
        my $why = slurp("$work/$name/out.$m.skip");
        chomp $why;
        push @{$notes{$m}}, "$name: skipped: $why";
        $tot{$m}{skipped}++;
        next;
      }
      if (!-f $outf) {
        push @{$notes{$m}}, "$name: no output";
        $tot{$m}{skipped}++;
        next;
      }
      my $out = page_units($outf, $kind);
      my %outu;
      if ($kind eq 'target' && !is_xliff($page)) {
        push @{$notes{$m}}, "$name: " . scalar(@$out) . " units in the output, "
          . scalar(@$src) . " in the page" if @$out != @$src;
        $outu{$labels[$_]} = $out->[$_] for 0 .. $#labels;
      } else {
        $outu{$_->{id}} = $_ for @$out;
      }
      my $t = $tot{$m} //= {};
      my (%pg, %same);
      # Text: the unit's words against the reference's.
      for my $l (@labels) {
        my $o = $outu{$l};
        my ($a, $b);
        if ($m =~ /\Apseudo/) {
          $a = join ' ', sort map { deaccent($_) } words($srcu{$l}{text});
          $b = $o ? join ' ', sort map { deaccent($_) } words($o->{text}) : '';
        } else {
          $a = join ' ', words($ref{$l});
          $b = $o ? join ' ', words($o->{text}) : '';
        }
        $t->{units}++;
        $pg{units}++;
        if ($a eq $b) {
          $same{$l} = 1;
          $t->{same}++;
          $pg{same}++;
        } elsif ($verbose) {
          push @detail, [$m, $name, "  text  unit $l differs:\n"
            . "        ref: " . ($m =~ /\Apseudo/ ? $srcu{$l}{text} : $ref{$l}) . "\n"
            . "        got: " . ($o ? $o->{text} : '(missing)') . "\n"];
        }
      }
      for my $e (@{$gold->{E}}) {
        my $su = $srcu{$e->{unit}};
        my $sel = $su->{bykey}{$e->{key}};
        my $o = $outu{$e->{unit}};
        my $el = $o ? $o->{bykey}{$e->{key}} : undef;
        my $type = $sel->{void} ? 'placeholder' : 'pair';
        $t->{els}++;
        $pg{els}++;
        $bytype{$m}{$type}{els}++;
        my $kept = $el && $el->{count} == 1 && $el->{closed} && $el->{nested}
          && defined $el->{end} ? 1 : 0;
        my $exact = 0;
        my $why;
        if (!$el) {
          $why = 'lost';
        } elsif (!$kept) {
          $why = $el->{count} > 1 ? "repeated $el->{count} times"
               : !$el->{closed} ? 'unclosed' : 'not well nested';
        }
        if ($kept) {
          $t->{kept}++;
          $pg{kept}++;
          $bytype{$m}{$type}{kept}++;
          if ($m eq 'pseudo') {
            # words swapped in pairs: a span cannot hold just its words
            $exact = undef;
          } elsif ($m eq 'pseudo-inorder') {
            $exact = $sel->{void} ? undef : match_pseudo($o, $el, $su, $sel);
          } else {
            for my $a (@{$e->{alts}}) {
              $exact ||= match_alt($o, $el, $a);
            }
          }
        }
        if (defined $exact) {
          $t->{scored}++;
          $pg{scored}++;
          $bytype{$m}{$type}{scored}++;
          $t->{exact} += $exact;
          $pg{exact} += $exact;
          $t->{exact_same} += $exact && $same{$e->{unit}} ? 1 : 0;
          $bytype{$m}{$type}{exact} += $exact;
        }
        if ($verbose >= 2 || ($verbose && defined $exact && !$exact)
            || ($verbose && !$kept)) {
          my $mark = !$kept ? 'LOST' : !defined $exact ? 'n/a ' : $exact ? 'ok  ' : 'MISS';
          my $got = $el ? describe($o, $el) : '-';
          $got .= " ($why)" if $why;
          my $srcdesc = $sel->{void} ? describe($su, $sel) : "'$e->{src}'";
          push @detail, [$m, $name, sprintf("  %s %-8s %-6s %s\n        gold: %s\n        got:  %s\n",
            $mark, $e->{key}, "<$e->{tag}>", $srcdesc,
            $m =~ /\Apseudo/ ? '(the source words)' : $e->{gold}, $got)];
        }
      }
      push @detail, [$m, $name, sprintf("%s %s: %d elements, exact %s%%, kept %s%%, text %s%% (%d/%d units)\n",
        '=' x 2, $name, $pg{els}, pct($pg{exact} // 0, $pg{scored} // 0),
        pct($pg{kept} // 0, $pg{els}), pct($pg{same} // 0, $pg{units}),
        $pg{same} // 0, $pg{units}), 1];
    }
  }
  if ($verbose) {
    for my $m (@methods) {
      print "### $m\n";
      # page headers first, then their lines
      my %bypage;
      for my $d (grep { $_->[0] eq $m } @detail) {
        push @{$bypage{$d->[1]}{$d->[3] ? 'head' : 'lines'}}, $d->[2];
      }
      for my $p (sort keys %bypage) {
        print @{$bypage{$p}{head} // []}, @{$bypage{$p}{lines} // []};
      }
      print "\n";
    }
  }
  printf "%-16s %8s %7s %7s %7s %13s %12s\n", 'method', 'elements',
    'exact%', 'kept%', 'text%', '(units same)', 'exact+text%';
  for my $m (@methods) {
    my $t = $tot{$m} // {};
    if (!$t->{els}) {
      printf "%-16s %8s %7s %7s %7s %13s %12s\n", $m, '-', '-', '-', '-',
        'skipped', '-';
      next;
    }
    printf "%-16s %8d %7s %7s %7s %13s %12s%s\n", $m, $t->{els},
      pct($t->{exact} // 0, $t->{scored} // 0), pct($t->{kept} // 0, $t->{els}),
      pct($t->{same} // 0, $t->{units}), ($t->{same} // 0) . "/$t->{units}",
      $m =~ /\Apseudo/ ? '-' : pct($t->{exact_same} // 0, $t->{scored} // 0),
      $t->{skipped} ? "  ($t->{skipped} pages skipped)" : '';
  }
  print "\nby kind (exact% of pairs / of placeholders):\n";
  for my $m (@methods) {
    my $b = $bytype{$m} // next;
    my $p = $b->{pair} // {};
    my $h = $b->{placeholder} // {};
    printf "  %-16s pairs %s%% of %d, placeholders %s%% of %d\n", $m,
      pct($p->{exact} // 0, $p->{scored} // 0), $p->{els} // 0,
      pct($h->{exact} // 0, $h->{scored} // 0), $h->{els} // 0;
  }
  for my $m ('*', @methods) {
    next unless $notes{$m};
    print "\nnotes", ($m eq '*' ? '' : " ($m)"), ":\n";
    # the same message for several pages once
    my (@order, %pages);
    for my $n (@{$notes{$m}}) {
      my ($p, $msg) = $n =~ /\A(\S+): (.*)\z/s ? ($1, $2) : ('', $n);
      push @order, $msg unless $pages{$msg};
      push @{$pages{$msg}}, $p;
    }
    for my $msg (@order) {
      my @p = @{$pages{$msg}};
      print "  ", (@p > 1 ? scalar(@p) . " pages" : $p[0] ne '' ? $p[0] : ''),
        ($p[0] ne '' || @p > 1 ? ': ' : ''), "$msg\n";
    }
  }
  return 0;
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'prepare' && @ARGV == 2) { cmd_prepare(@ARGV) }
elsif ($cmd eq 'list' && @ARGV == 1) { cmd_list(@ARGV) }
elsif ($cmd eq 'skeleton' && @ARGV == 2) { cmd_skeleton(@ARGV) }
elsif ($cmd eq 'score' && @ARGV >= 4) { exit cmd_score(@ARGV) }
else {
  print STDERR "usage: realmt.pl prepare PAGE DIR | list PAGE | skeleton PAGE REF"
    . " | score WORK PAGES GOLD METHOD...\n";
  exit 2;
}
