#!/bin/sh
# test_hostile_oddities.sh: what real XLIFF holds in translatable text
# and parsers treat each their own way, translated with nothing lost.
#   - a comment or processing instruction in mid-sentence, in XLIFF 1.2
#     (<source>, between the <mrk>s of a seg-source) and in XLIFF 2: kept
#     in place in the target (identity: target = source), with an engine
#     that reverses words each unit's target is its own words, the
#     comment kept; a target of a comment only is filled, as an empty
#     one;
#   - an element that an internal entity's text holds, used in a
#     <source> (<!ENTITY t "<g id='9'>Big</g> Co">): refused, named at
#     the reference's line and column, exit 1 and no output (it was
#     written as "&t;Big&t; Co", the entity's text twice);
#   - check: such a comment or PI is no inline code, neither counted
#     nor asked of a target (XLIFF 1.2 and 2, text and JSON);
#   - U+0085 (NEL) in a source: kept in the target, no warning (it was
#     removed as the engine's control character);
#   - already right, kept so: CDATA, an entity of text only, &#xD; under
#     xml:space="preserve", a document in ISO-8859-1.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-oddities
x=$XLIFFMT
require_commands "the reversing engine is an awk script" awk

# An engine that reverses the words of each line.
cat >"$tmp/rev.sh" <<'EOF'
#!/bin/sh
exec awk '{ s = ""; for (i = NF; i >= 1; i--) s = s (s == "" ? "" : " ") $i
  print s; fflush() }'
EOF
chmod +x "$tmp/rev.sh"

# targets FILE: each target's content, a line each.
targets() {
  LC_ALL=C sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p' "$1"
}
# targets_are DESC FILE WANT: the targets of FILE are the lines of WANT.
targets_are() {
  targets "$2" >"$tmp/got"
  expect_text "$1" "$tmp/got" "$3"
}
# x12 FILE PROLOG UNITS / x2 FILE PROLOG UNITS: a document of UNITS.
x12() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n%s' "$2"
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n%s\n' "$3"
    printf '</body></file></xliff>\n'
  } >"$1"
}
x2() {
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n%s' "$2"
    printf '<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">\n'
    printf '<file id="f1">\n%s\n</file></xliff>\n' "$3"
  } >"$1"
}
run_tr() {
  within "$1" 0 20 300 "$x" translate "$2" -o "$3" -s en -t es -q --mt "$4"
}

# Comments and processing instructions.
x12 "$tmp/c12.xlf" '' '<trans-unit id="u1"><source>Hello <!-- c --> world.</source></trans-unit>
<trans-unit id="u2"><source>Hello <?pi x?> world.</source></trans-unit>
<trans-unit id="u3"><source>One <g id="1">two <!--c2--> three</g> four.</source></trans-unit>
<trans-unit id="u4"><source>Last unit here.</source></trans-unit>'
want_id='Hello <!-- c --> world.
Hello <?pi x?> world.
One <g id="1">two <!--c2--> three</g> four.
Last unit here.'
want_rev='<!-- c -->world. Hello
<?pi x?>world. Hello
four. <g id="1"><!--c2-->three two</g> One
here. unit Last'
run_tr "XLIFF 1.2 comments, identity" "$tmp/c12.xlf" "$tmp/c12.id.xlf" identity
targets_are "XLIFF 1.2: comments and PIs kept in place" "$tmp/c12.id.xlf" "$want_id"
run_tr "XLIFF 1.2 comments, reversed" "$tmp/c12.xlf" "$tmp/c12.rev.xlf" "cmd:$tmp/rev.sh"
targets_are "XLIFF 1.2 reversed: each unit its own words, comments kept" \
  "$tmp/c12.rev.xlf" "$want_rev"

x12 "$tmp/seg.xlf" '' '<trans-unit id="u1"><source>First one. <!-- mid --> Second one.</source></trans-unit>'
within "a comment between sentences, --seg-source" 0 20 300 "$x" translate \
  "$tmp/seg.xlf" -o "$tmp/seg.out.xlf" -s en -t es -q --mt "cmd:$tmp/rev.sh" --seg-source
targets_are "a comment between the segments kept between them" "$tmp/seg.out.xlf" \
  '<mrk mid="0" mtype="seg">one. First</mrk> <!-- mid --> <mrk mid="1" mtype="seg">one. Second</mrk>'

x2 "$tmp/c2.xlf" '' '<unit id="u1"><segment><source>Hello <!-- c --> world.</source></segment></unit>
<unit id="u2"><segment><source>Hello <?pi x?> world.</source></segment></unit>
<unit id="u3"><segment><source>One <pc id="1">two <!--c2--> three</pc> four.</source></segment></unit>
<unit id="u4"><segment><source>Last unit here.</source></segment></unit>'
run_tr "XLIFF 2 comments, identity" "$tmp/c2.xlf" "$tmp/c2.id.xlf" identity
targets_are "XLIFF 2: comments and PIs kept in place" "$tmp/c2.id.xlf" \
  "$(printf '%s\n' "$want_id" | sed 's/<g id="1">/<pc id="1">/; s/<\/g>/<\/pc>/')"
run_tr "XLIFF 2 comments, reversed" "$tmp/c2.xlf" "$tmp/c2.rev.xlf" "cmd:$tmp/rev.sh"
targets_are "XLIFF 2 reversed: each unit its own words, comments kept" \
  "$tmp/c2.rev.xlf" \
  "$(printf '%s\n' "$want_rev" | sed 's/<g id="1">/<pc id="1">/; s/<\/g>/<\/pc>/')"

# A target of a comment only is no translation: filled.
x12 "$tmp/t12.xlf" '' '<trans-unit id="u1"><source>One two.</source><target><!-- todo --></target></trans-unit>'
run_tr "XLIFF 1.2: a target of a comment only" "$tmp/t12.xlf" "$tmp/t12.out.xlf" "cmd:$tmp/rev.sh"
targets_are "XLIFF 1.2: a target of a comment only filled" "$tmp/t12.out.xlf" 'two. One'
x2 "$tmp/t2.xlf" '' '<unit id="u1"><segment><source>One two.</source><target><!-- todo --></target></segment></unit>'
run_tr "XLIFF 2: a target of a comment only" "$tmp/t2.xlf" "$tmp/t2.out.xlf" "cmd:$tmp/rev.sh"
targets_are "XLIFF 2: a target of a comment only filled" "$tmp/t2.out.xlf" 'two. One'

# check: a comment or PI is no inline code, neither counted nor asked of
# a target; a code a target lacks is still told.
x12 "$tmp/k12.xlf" '' '<trans-unit id="u1"><source>Hello <!-- c --> world.</source><target>Hola mundo.</target></trans-unit>
<trans-unit id="u2"><source>Hello <?pi x?> <x id="1"/>world.</source><target>Hola <x id="1"/><?pi y?><!-- new --> mundo.</target></trans-unit>
<trans-unit id="u3"><source>One <g id="1">two <!--c2--> three</g> four.</source><target>Uno <g id="1">dos tres</g> cuatro.</target></trans-unit>
<trans-unit id="u4"><source>A <x id="2"/>b <!-- z -->c.</source><target>A b <!-- z -->c.</target></trans-unit>'
x2 "$tmp/k2.xlf" '' '<unit id="u1"><segment><source>Hello <!-- c --> world.</source><target>Hola mundo.</target></segment></unit>
<unit id="u2"><segment><source>Hello <?pi x?> <ph id="1"/>world.</source><target>Hola <ph id="1"/><?pi y?><!-- new --> mundo.</target></segment></unit>
<unit id="u3"><segment><source>One <pc id="1">two <!--c2--> three</pc> four.</source><target>Uno <pc id="1">dos tres</pc> cuatro.</target></segment></unit>
<unit id="u4"><segment><source>A <ph id="2"/>b <!-- z -->c.</source><target>A b <!-- z -->c.</target></segment></unit>'
for v in 12 2; do
  within "check XLIFF $v comments" 0 20 300 "$x" check "$tmp/k$v.xlf"
  grep -v '^  \(files\|units\|segments\|words\) ' "$tmp/out" >"$tmp/got"
  cp "$tmp/err" "$tmp/k$v.err"
  within "check --json XLIFF $v comments" 0 20 300 "$x" check --json "$tmp/k$v.xlf"
  sed 's/.*"codes":{\([^}]*\)}.*"problems":\(.*\)}$/\1\n\2/' "$tmp/out" >>"$tmp/got"
  cat "$tmp/k$v.err" >>"$tmp/got"
  cp "$tmp/got" "$tmp/k$v.got"
done
expect_text "check XLIFF 1.2: comments and PIs no codes" "$tmp/k12.got" \
"$tmp/k12.xlf: XLIFF 1.2, UTF-8
  inline codes       g=1 x=2 bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0
  problems           0 errors, 1 warnings
\"g\":1,\"x\":2,\"bx\":0,\"ex\":0,\"bpt\":0,\"ept\":0,\"ph\":0,\"it\":0,\"mrk\":0,\"other\":0
[{\"severity\":\"warning\",\"line\":7,\"column\":0,\"unit\":\"u4\",\"message\":\"<target> lacks the inline code <x id=\\\"2\\\"> of <source>\"}]
xliffmt: $tmp/k12.xlf:7: warning: <target> lacks the inline code <x id=\"2\"> of <source> (unit u4)"
expect_text "check XLIFF 2: comments and PIs no codes" "$tmp/k2.got" \
"$tmp/k2.xlf: XLIFF 2.0, UTF-8
  inline codes       g=1 x=2 bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0
  problems           0 errors, 1 warnings
\"g\":1,\"x\":2,\"bx\":0,\"ex\":0,\"bpt\":0,\"ept\":0,\"ph\":0,\"it\":0,\"mrk\":0,\"other\":0
[{\"severity\":\"warning\",\"line\":7,\"column\":15,\"unit\":\"u4\",\"message\":\"<target> of segment 1 lacks the inline code <ph id=\\\"2\\\"> of its <source>\"}]
xliffmt: $tmp/k2.xlf:7:15: warning: <target> of segment 1 lacks the inline code <ph id=\"2\"> of its <source> (unit u4)"

# An entity whose text holds an element.
dtd='<!DOCTYPE xliff [<!ENTITY co "ACME"><!ENTITY t "<g id='"'9'"'>Big</g> Co">]>
'
x12 "$tmp/ent12.xlf" "$dtd" '<trans-unit id="u1"><source>Welcome to &co; now.</source></trans-unit>
<trans-unit id="u2"><source>See &t; now.</source></trans-unit>'
within "XLIFF 1.2: an element from an entity refused" 1 20 300 "$x" translate \
  "$tmp/ent12.xlf" -o "$tmp/ent12.out.xlf" -s en -t es -q --mt identity
expect_text "XLIFF 1.2: the entity's element named at its reference" "$tmp/err" \
  "xliffmt: $tmp/ent12.xlf:6:33: element <g> from an entity's text in a trans-unit: xliffmt cannot write it back; write it out in the document (unit u2)"
check "XLIFF 1.2: no output" test ! -e "$tmp/ent12.out.xlf"
x2 "$tmp/ent2.xlf" "$(printf '%s\n' "$dtd" | sed 's/<g /<pc /; s/<\/g>/<\/pc>/')
" '<unit id="u1"><segment><source>Welcome to &co; now.</source></segment></unit>
<unit id="u2"><segment><source>See &t; now.</source></segment></unit>'
within "XLIFF 2: an element from an entity refused" 1 20 300 "$x" translate \
  "$tmp/ent2.xlf" -o "$tmp/ent2.out.xlf" -s en -t es -q --mt identity
expect_text "XLIFF 2: the entity's element named at its reference" "$tmp/err" \
  "xliffmt: $tmp/ent2.xlf:6:36: element <pc> from an entity's text in a unit: xliffmt cannot write it back; write it out in the document (unit u2)"
check "XLIFF 2: no output" test ! -e "$tmp/ent2.out.xlf"

# NEL, and what was right already.
nel=$(printf '\302\205')
x12 "$tmp/nel.xlf" '<!DOCTYPE xliff [<!ENTITY co "ACME">]>
' '<trans-unit id="u1"><source>Next&#x85;line.</source></trans-unit>
<trans-unit id="u2"><source>Hi <![CDATA[<b> & co]]> there.</source></trans-unit>
<trans-unit id="u3"><source>Welcome to &co; now.</source></trans-unit>
<trans-unit id="u4" xml:space="preserve"><source>One&#xD;&#xA;two.</source></trans-unit>'
within "XLIFF 1.2 NEL, identity" 0 20 300 "$x" translate "$tmp/nel.xlf" \
  -o "$tmp/nel.id.xlf" -s en -t es --mt identity
targets_are "XLIFF 1.2: NEL kept, CDATA and a text entity as their text, CR kept" \
  "$tmp/nel.id.xlf" "Next${nel}line.
Hi &lt;b> &amp; co there.
Welcome to ACME now."
check "XLIFF 1.2: the preserved CR written as a reference" \
  grep -q '>One&#13;$' "$tmp/nel.id.xlf"
check "no warning of a removed control character" \
  sh -c "! grep -q 'control character' '$tmp/err'"
x2 "$tmp/nel2.xlf" '' '<unit id="u1"><segment><source>Next&#x85;line.</source></segment></unit>'
within "XLIFF 2 NEL, reversed" 0 20 300 "$x" translate "$tmp/nel2.xlf" \
  -o "$tmp/nel2.out.xlf" -s en -t es --mt "cmd:$tmp/rev.sh"
targets_are "XLIFF 2: NEL kept" "$tmp/nel2.out.xlf" "Next${nel}line."
check "XLIFF 2: no warning of a removed control character" \
  sh -c "! grep -q 'control character' '$tmp/err'"

# ISO-8859-1 with a comment: written back in ISO-8859-1.
printf '<?xml version="1.0" encoding="ISO-8859-1"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" source-language="en" target-language="es" datatype="plaintext"><body>\n<trans-unit id="u1"><source>Caf\351 <!-- c --> ol\351.</source></trans-unit>\n</body></file></xliff>\n' \
  >"$tmp/l1.xlf"
run_tr "ISO-8859-1, identity" "$tmp/l1.xlf" "$tmp/l1.out.xlf" identity
targets_are "ISO-8859-1: the target in its bytes, the comment kept" "$tmp/l1.out.xlf" \
  "$(printf 'Caf\351 <!-- c --> ol\351.')"

finish
