#!/usr/bin/perl
# realmt_xliff2.pl -- the HTML pages of tests/realmt as XLIFF 2, and the
# units of either written one a line, for test_cli_xliff2_realmt.sh.
#
#   realmt_xliff2.pl instrument PAGE    the page with data-k="N" on its Nth
#                                       inline element (document order)
#   realmt_xliff2.pl xliff2 PAGE        the page's units as an XLIFF 2.0
#                                       document: one <unit id="uN"> with
#                                       one <segment> each; a paired inline
#                                       element is <pc id="N">, an empty
#                                       one (br img wbr input) <ph id="N"/>
#   realmt_xliff2.pl units FILE         one line per unit (an .xlf: each
#                                       unit's <target>): the text with
#                                       white space collapsed and each
#                                       element as {N} {/N} or {N/}
#
# A unit is as tests/realmt/README says: the text of a block, ended by any
# tag that is not an inline element. Elements are numbered by their data-k
# attribute when they have one, else in document order from 1.
use strict;
use warnings;
use Encode qw(decode encode);

binmode STDOUT, ':raw';

my %INLINE = map { $_ => 1 } qw(a abbr b bdi bdo cite code data del dfn em
  font i ins kbd mark q s samp small span strike strong sub sup time tt u var);
my %VOID = map { $_ => 1 } qw(br img wbr input);
my %ENT = (amp => '&', lt => '<', gt => '>', quot => '"', apos => "'",
  nbsp => "\x{a0}", copy => "\x{a9}", euro => "\x{20ac}");

sub slurp {
  my ($f) = @_;
  open my $fh, '<:raw', $f or die "realmt_xliff2.pl: $f: $!\n";
  local $/;
  my $c = <$fh>;
  close $fh;
  return decode('UTF-8', $c);
}

sub unent {
  my ($s) = @_;
  $s =~ s{&(#[xX]([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9]*));}{
    defined $2 ? chr(hex $2) : defined $3 ? chr($3)
      : exists $ENT{$4} ? $ENT{$4} : "&$4;"
  }ge;
  return $s;
}

sub xesc {
  my ($s) = @_;
  $s =~ s/&/&amp;/g;
  $s =~ s/</&lt;/g;
  $s =~ s/>/&gt;/g;
  return $s;
}

# Calls $emit->(kind, value) over a page: kind "text" (entities decoded),
# "open"/"void"/"close" (value: the element number), "end" (a unit ends).
sub walk_html {
  my ($src, $emit) = @_;
  my $k = 0;
  my @stack;
  while ($src =~ m{\G(<!--.*?-->|<![^>]*>|<\?.*?\?>
                      |<(script|style|textarea)\b[^>]*>.*?</\2\s*>
                      |</?[A-Za-z][^>]*>|[^<]+|<)}gcsx) {
    my $t = $1;
    if ($t =~ /\A<(\/?)([A-Za-z][A-Za-z0-9-]*)(.*?)>\z/s) {
      my ($close, $name, $attrs) = ($1, lc $2, $3);
      if (!$INLINE{$name} && !$VOID{$name}) {
        @stack = ();
        $emit->('end', $t);
      } elsif ($close) {
        next if $VOID{$name};
        my $i = $#stack;
        $i-- while $i >= 0 && $stack[$i][0] ne $name;
        next if $i < 0;
        $emit->('close', $stack[$i][1], $t);
        splice @stack, $i, 1;
      } else {
        my $n = $attrs =~ /\bdata-k="(\d+)"/ ? $1 : ++$k;
        push @stack, [$name, $n] unless $VOID{$name};
        $emit->($VOID{$name} ? 'void' : 'open', $n, $t);
      }
    } elsif ($t =~ /\A<[!?]/) {
      $emit->('other', $t);
    } else {
      $emit->('text', $t);
    }
  }
  $emit->('end', '');
}

sub instrument {
  my ($src) = @_;
  my $out = '';
  walk_html($src, sub {
    my ($kind, $v, $t) = @_;
    if ($kind eq 'open' || $kind eq 'void') {
      $t =~ s/\A(<[A-Za-z][A-Za-z0-9-]*)/$1 data-k="$v"/
        unless $t =~ /\bdata-k="/;
      $out .= $t;
    } else {
      $out .= defined $t ? $t : $v;
    }
  });
  return $out;
}

# The units of a page: [[markup, text]...]; markup as XLIFF 2 inline
# content or as {N} markers, text the unit's plain text.
sub html_units {
  my ($src, $as) = @_;
  my (@units, $cur, $text);
  walk_html($src, sub {
    my ($kind, $v) = @_;
    if ($kind eq 'end') {
      push @units, [$cur, $text] if defined $cur && ($text =~ /\S/ || $cur =~ /[{<]/);
      ($cur, $text) = (undef, undef);
      return;
    }
    return if $kind eq 'other';
    return if $kind eq 'text' && !defined $cur && $v !~ /\S/;
    $cur //= '';
    $text //= '';
    if ($kind eq 'text') {
      my $s = unent($v);
      # HTML white space is any run of blanks shown as one space, and
      # XLIFF would keep a line break, which a sentence break follows.
      $s =~ s/[ \t\r\n\f]+/ /g if $as eq 'xliff2';
      $text .= $s;
      $cur .= $as eq 'xliff2' ? xesc($s) : $s;
    } elsif ($as eq 'xliff2') {
      $cur .= $kind eq 'open' ? "<pc id=\"$v\">"
            : $kind eq 'close' ? '</pc>' : "<ph id=\"$v\"/>";
    } else {
      $cur .= $kind eq 'open' ? "{$v}" : $kind eq 'close' ? "{/$v}" : "{$v/}";
    }
  });
  return @units;
}

sub xliff2 {
  my ($src, $name) = @_;
  my $out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    . "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\""
    . " srcLang=\"en\" trgLang=\"es\">\n <file id=\"f1\" original=\"$name\">\n";
  my $n = 0;
  for my $u (html_units($src, 'xliff2')) {
    $n++;
    $out .= "  <unit id=\"u$n\">\n   <segment>\n"
      . "    <source>$u->[0]</source>\n   </segment>\n  </unit>\n";
  }
  return $out . " </file>\n</xliff>\n";
}

sub collapse {
  my ($s) = @_;
  $s =~ s/[ \t\r\n\f\x{a0}]+/ /g;
  $s =~ s/\A //;
  $s =~ s/ \z//;
  return $s;
}

# A unit's <target> with its codes as markers; pairs the run wrote as
# <sc>/<ec> are the same pair.
sub xliff2_units {
  my ($src) = @_;
  my @lines;
  while ($src =~ m{<unit\b[^>]*>(.*?)</unit>}gs) {
    my $body = $1;
    my $t = '';
    while ($body =~ m{<target\b[^>]*>(.*?)</target>}gs) { $t .= $1 }
    my (@open, $m);
    $m = '';
    for my $p (split /(<[^>]*>)/, $t) {
      if ($p =~ /\A<(pc|ph|sc)\b[^>]*\bid="([^"]*)"[^>]*?(\/?)>\z/) {
        my ($name, $id, $empty) = ($1, $2, $3);
        $m .= $name eq 'ph' ? "{$id/}" : $name eq 'sc' ? "{$id}"
            : $empty ? "{$id}{/$id}" : "{$id}";
        push @open, $id if $name eq 'pc' && !$empty;
      } elsif ($p =~ /\A<ec\b[^>]*\bstartRef="([^"]*)"/) {
        $m .= "{/$1}";
      } elsif ($p eq '</pc>') {
        $m .= '{/' . (pop(@open) // '?') . '}';
      } else {
        $m .= $p;
      }
    }
    push @lines, collapse(unent($m));
  }
  return @lines;
}

my ($cmd, $file) = @ARGV;
die "usage: realmt_xliff2.pl instrument|xliff2|units FILE\n"
  unless defined $file;
my $src = slurp($file);
my @out;
if ($cmd eq 'instrument') {
  @out = (instrument($src));
} elsif ($cmd eq 'xliff2') {
  (my $name = $file) =~ s{.*/}{};
  @out = (xliff2($src, $name));
} elsif ($cmd eq 'units' && $file =~ /\.xlf\z/) {
  @out = map { "$_\n" } xliff2_units($src);
} elsif ($cmd eq 'units') {
  @out = map { collapse($_->[0]) . "\n" } html_units($src, 'markers');
} else {
  die "realmt_xliff2.pl: unknown command $cmd\n";
}
print encode('UTF-8', join '', @out);
