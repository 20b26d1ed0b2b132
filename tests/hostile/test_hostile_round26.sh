#!/bin/sh
# test_hostile_round26.sh: exit 0 means the output is right, for XLIFF 2
# and HTML.
#   - translate of an HTML page with ruby (a base and its reading above
#     it, <rt>, as Japanese furigana are written, with <rp> parentheses
#     for browsers without ruby, <rtc>): the reading is a code of the
#     base's sentence, kept as it is, as Word's w:rt is (the reading was
#     text of the sentence: "漢kan字ji word." went to the engine, and its
#     answer was written over the reading, "<rt>KAN</rt>", and text of
#     the sentence moved into and out of the ruby, "<rp>U</rp></ruby>)",
#     exit 0). An <rt> whose end tag is left out ends where its ruby does.
#   - translate of an HTML page with a <noscript> inside a sentence
#     ("Click <noscript>here</noscript> to go.": noscript is phrasing
#     content, shown in the sentence when scripts are off): one unit, the
#     noscript a pair of codes in it, as a <span> (the sentence was cut in
#     three units, "Click", "here" and "to go.", each translated alone,
#     exit 0). A noscript outside running text is a block as it was.
#   - translate --overwrite of an XLIFF 2 unit whose targets have an
#     order of their own (order="2" on the first, "1" on the second): the
#     unit is left as it is, and now a warning names it, as when one of
#     its targets is empty (it was left without a word, exit 0, the
#     targets the run was asked to replace kept).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round26
x=$XLIFFMT

upper_engine

# page_is DESC FILE WANT: FILE's bytes are WANT (and a newline).
page_is() {
  got=$(cat "$2")
  if [ "$got" = "$3" ]; then
    pass "$1"
  else
    fail "$1: got '$got', expected '$3'"
  fi
}

# --- HTML ruby: the reading is a code.
cat >"$tmp/ruby.html" <<'EOD'
<html lang="ja"><body><p><ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> word.</p>
<p>A <ruby>東京<rp>(</rp><rt>toukyou</rt><rp>)</rp></ruby> b.</p>
<p>x <ruby>a<rt>b<rt>c</ruby> y <ruby>d<rtc>e</rtc></ruby></p></body></html>
EOD
within "ruby" 0 20 300 "$x" translate "$tmp/ruby.html" -o "$tmp/ruby-out.html" \
  --mt "cmd:$tmp/up.sh" -s ja -t en -q
page_is "ruby: the readings kept, the sentences translated" \
  "$tmp/ruby-out.html" '<html lang="en"><body><p><ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby> WORD.</p>
<p>A <ruby>東京<rp>(</rp><rt>toukyou</rt><rp>)</rp></ruby> B.</p>
<p>X <ruby>A<rt>b<rt>c</ruby> Y <ruby>D<rtc>e</rtc></ruby></p></body></html>'

within "ruby, extract" 0 20 300 "$x" extract "$tmp/ruby.html" \
  -o "$tmp/ruby.xlf" -s ja -t en -q
check "ruby, extract: the reading one code of the sentence" grep -q -F \
  '<source><g id="1" ctype="x-html-ruby">漢<x id="2" ctype="x-html-rt"/>字<x id="3" ctype="x-html-rt"/></g> word.</source>' \
  "$tmp/ruby.xlf"

# --- HTML <noscript> in a sentence.
cat >"$tmp/noscript.html" <<'EOD'
<html lang="en"><body><noscript>Scripts are off.</noscript>
<p>Click <noscript>here</noscript> to go.</p></body></html>
EOD
within "noscript, extract" 0 20 300 "$x" extract "$tmp/noscript.html" \
  -o "$tmp/noscript.xlf" -t es -q
check "noscript, extract: a block alone, a code in a sentence" [ \
  "$(grep '<source>' "$tmp/noscript.xlf")" = '<source>Scripts are off.</source>
<source>Click <g id="1" ctype="x-html-noscript">here</g> to go.</source>' ]
within "noscript" 0 20 300 "$x" translate "$tmp/noscript.html" \
  -o "$tmp/noscript-out.html" --mt "cmd:$tmp/up.sh" -t es -q
page_is "noscript: translated" "$tmp/noscript-out.html" \
  '<html lang="es"><body><noscript>SCRIPTS ARE OFF.</noscript>
<p>CLICK <noscript>HERE</noscript> TO GO.</p></body></html>'

# --- XLIFF 2 --overwrite of a unit whose targets are reordered.
cat >"$tmp/order.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">
<file id="f1">
<unit id="u1"><segment><source>A.</source><target order="2">X.</target></segment><segment><source>B.</source><target order="1">Y.</target></segment></unit>
</file>
</xliff>
EOD
within "order, --overwrite" 0 20 300 "$x" translate "$tmp/order.xlf" \
  -o "$tmp/order-out.xlf" --mt "cmd:$tmp/up.sh" --overwrite -q
said "order, --overwrite: the unit left" \
  "xliffmt: $tmp/order.xlf:4: warning: segment u1: <unit> not translated: its targets have an order of their own (order), and a new target in the place of its <segment> would break it"
unchanged "order, --overwrite" "$tmp/order-out.xlf" "$tmp/order.xlf"
within "order, kept" 0 20 300 "$x" translate "$tmp/order.xlf" \
  -o "$tmp/order-kept.xlf" --mt "cmd:$tmp/up.sh" -q
said "order, kept: nothing to say" ""

finish
