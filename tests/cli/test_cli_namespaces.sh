#!/bin/sh
# test_cli_namespaces.sh -- XML namespaces as the readers resolve them
# (xliff/xml_names.c, expat run without its own namespace processing):
# XLIFF 1.2 and 2 elements under any prefix, another default namespace
# inside a unit, memoQ's attributes under the prefix a document chooses,
# module attributes kept; and what XML namespaces forbid (an unbound
# prefix, a prefix undeclared, a reserved prefix bound, one attribute
# twice under two prefixes, a name of two colons) refused with expat's
# own words, file, line and column.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup namespaces
x=$XLIFFMT
opts="-s en -t fr --mt pseudo"
head='<?xml version="1.0" encoding="UTF-8"?>'

# u12 FILE ROOT-ATTRIBUTES UNITS: an XLIFF 1.2 document.
u12() {
  printf '%s\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"%s><file original="f" source-language="en" target-language="fr" datatype="plaintext"><body>\n%s\n</body></file></xliff>\n' \
    "$head" "$2" "$3" >"$tmp/$1"
}

# Accepted.
printf '%s\n<x:xliff version="1.2" xmlns:x="urn:oasis:names:tc:xliff:document:1.2"><x:file original="f" source-language="en" target-language="fr" datatype="plaintext"><x:body>\n<x:trans-unit id="1"><x:source>Hello <x:g id="1">world</x:g>.</x:source></x:trans-unit>\n</x:body></x:file></x:xliff>\n' \
  "$head" >"$tmp/prefixed.xlf"
if expect_exit 0 "XLIFF 1.2 under a prefix" "$x" translate "$tmp/prefixed.xlf" \
  -o "$tmp/prefixed.out" $opts; then
  check "its target written under the prefix, its code too" grep -qF \
    '<x:target xml:lang="fr" state="needs-review-translation" state-qualifier="mt-suggestion">[<x:g id="1">wórld.</x:g> Hélló ~~~~]</x:target>' \
    "$tmp/prefixed.out"
fi

u12 other.xlf "" '<trans-unit id="1"><source>Hello <mrk xmlns="urn:other" mtype="x">big</mrk> world.</source></trans-unit>'
if expect_exit 0 "another default namespace in a source" "$x" translate \
  "$tmp/other.xlf" -o "$tmp/other.out" $opts; then
  check "its element kept whole, as a code" grep -qF \
    '[<mrk xmlns="urn:other" mtype="x">big</mrk>wórld. Hélló ~~~~]</target>' \
    "$tmp/other.out"
fi

u12 memoq.xlf ' xmlns:m="MQXliff"' '<trans-unit id="1" m:status="ManuallyConfirmed" m:locked="locked"><source>Hello world.</source><target>Bonjour.</target></trans-unit><trans-unit id="2"><source>Two.</source></trans-unit>'
if expect_exit 0 "memoQ's namespace under another prefix" "$x" translate \
  "$tmp/memoq.xlf" -o "$tmp/memoq.out" $opts; then
  check "its locked unit left as it was" grep -qF \
    '<target>Bonjour.</target></trans-unit>' "$tmp/memoq.out"
  check "the other translated" grep -q '^xliffmt: .*: 2 units, 1 translated, 1 left as they were;' \
    "$tmp/err"
fi

u12 xmldecl.xlf ' xmlns:xml="http://www.w3.org/XML/1998/namespace"' '<trans-unit id="1"><source xml:space="preserve">Hello   world.</source></trans-unit>'
expect_exit 0 "the xml prefix declared as it is bound" "$x" translate \
  "$tmp/xmldecl.xlf" -o "$tmp/xmldecl.out" $opts

printf '%s\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:fs="urn:oasis:names:tc:xliff:fs:2.0" xmlns:mtc="urn:oasis:names:tc:xliff:matches:2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="u1" fs:fs="p"><mtc:matches/><segment><source>Hello <pc id="1" fs:fs="b">world</pc>.</source></segment></unit><unit id="u2"><segment><source xml:space="preserve">Two  spaces.</source></segment></unit></file></xliff>\n' \
  "$head" >"$tmp/modules.xlf"
if expect_exit 0 "XLIFF 2 with modules" "$x" translate "$tmp/modules.xlf" \
  -o "$tmp/modules.out" $opts; then
  check "module attributes kept on the unit and the code" grep -qF \
    '<unit id="u1" fs:fs="p"><mtc:matches/><segment state="translated" subState="xliffmt:mt"><source>Hello <pc id="1" fs:fs="b">world</pc>.</source><target>[<pc id="1" fs:fs="b">wórld.</pc> Hélló ~~~~]</target>' \
    "$tmp/modules.out"
  check "xml:space of a source kept on its target" grep -qF \
    '<target xml:space="preserve">[spáçés. Twó ~~~~]</target>' "$tmp/modules.out"
fi

printf '%s\n<z:xliff version="2.0" xmlns:z="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr"><z:file id="f"><z:unit id="u1"><z:segment><z:source>Hello <z:pc id="1">world</z:pc>.</z:source></z:segment></z:unit></z:file></z:xliff>\n' \
  "$head" >"$tmp/x2prefixed.xlf"
if expect_exit 0 "XLIFF 2 under a prefix" "$x" translate "$tmp/x2prefixed.xlf" \
  -o "$tmp/x2prefixed.out" $opts; then
  check "its target written under the prefix" grep -qF \
    '<z:target>[<z:pc id="1">wórld.</z:pc> Hélló ~~~~]</z:target>' \
    "$tmp/x2prefixed.out"
fi

# Refused, with expat's words for them.
refused() { # NAME DESC MESSAGE
  if expect_exit 1 "$2 refused" "$x" translate "$tmp/$1.xlf" \
    -o "$tmp/$1.out" $opts; then
    expect_text "$2: the message" "$tmp/err" "xliffmt: $tmp/$1.xlf:$3"
    check "$2: no output" test ! -e "$tmp/$1.out"
  fi
}
u12 unbound-element.xlf "" '<trans-unit id="1"><source>Hello <foo:bar/> world.</source></trans-unit>'
refused unbound-element "an element of an unbound prefix" \
  "3:34: unbound prefix (unit 1)"
u12 unbound-attribute.xlf "" '<trans-unit id="1"><source foo:x="1">Hello world.</source></trans-unit>'
refused unbound-attribute "an attribute of an unbound prefix" \
  "3:20: unbound prefix (unit 1)"
u12 out-of-scope.xlf "" '<trans-unit id="1" xmlns:q="urn:q"><source>Hello <q:em/> world.</source></trans-unit><trans-unit id="2"><source>Two <q:em/>.</source></trans-unit>'
refused out-of-scope "a prefix out of its scope" "3:117: unbound prefix (unit 2)"
u12 twice.xlf ' xmlns:a="urn:u" xmlns:b="urn:u"' '<trans-unit id="1" a:x="1" b:x="2"><source>Hello world.</source></trans-unit>'
refused twice "one attribute under two prefixes" "3:1: duplicate attribute"
u12 undeclare.xlf ' xmlns:p="urn:u"' '<trans-unit id="1"><source xmlns:p="">Hello world.</source></trans-unit>'
refused undeclare "a prefix undeclared" \
  "3:20: must not undeclare prefix (unit 1)"
u12 xml-rebound.xlf ' xmlns:xml="urn:wrong"' '<trans-unit id="1"><source>Hello world.</source></trans-unit>'
refused xml-rebound "the xml prefix bound to another name" \
  "2:1: reserved prefix (xml) must not be undeclared or bound to another namespace name"
u12 xmlns-declared.xlf ' xmlns:xmlns="urn:u"' '<trans-unit id="1"><source>Hello world.</source></trans-unit>'
refused xmlns-declared "the xmlns prefix declared" \
  "2:1: reserved prefix (xmlns) must not be declared or undeclared"
u12 two-colons.xlf ' xmlns:a="urn:u"' '<trans-unit id="1"><source>Hello <a:b:c/> world.</source></trans-unit>'
refused two-colons "a name of two colons" \
  "3:34: not well-formed (invalid token) (unit 1)"
u12 separator.xlf ' xmlns:q="urn:a|b"' '<trans-unit id="1"><source>Hello world.</source></trans-unit>'
refused separator "a namespace name holding the separator of expanded names" \
  "2:1: syntax error"
u12 separator-deep.xlf "" '<trans-unit id="1"><source>Hello <mrk xmlns="urn:a|b" mtype="x">big</mrk>.</source></trans-unit>'
refused separator-deep "a default namespace holding the separator in a source" \
  "3:34: syntax error (unit 1)"
printf '%s\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr" xmlns:its="http://www.w3.org/2005/11/its|x"><file id="f"><unit id="u1"><segment><source>Hello.</source></segment></unit></file></xliff>\n' \
  "$head" >"$tmp/x2-separator.xlf"
refused x2-separator "XLIFF 2: a namespace name holding the separator" \
  "2:1: syntax error"
u12 pi-colon.xlf "" '<trans-unit id="1"><source>Hello <?a:b x?> world.</source></trans-unit>'
refused pi-colon "a processing instruction's target holding a colon" \
  "3:37: not well-formed (invalid token) (unit 1)"
# XLIFF 2: what expat's namespace mode refuses outside tags. A DTD is
# read in that mode; a processing instruction's target is checked.
x2doc() { # FILE PROLOG SOURCE
  printf '%s\n%s<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="u1"><segment><source>%s</source></segment></unit></file></xliff>\n' \
    "$head" "$2" "$3" >"$tmp/$1"
}
x2doc x2-pi.xlf '' 'Hello <?a:b x?> world.'
refused x2-pi "XLIFF 2: a processing instruction's target holding a colon" \
  "2:147: not well-formed (invalid token) (unit u1)"
x2doc x2-pi-prolog.xlf '<?a:b x?>' 'Hello.'
refused x2-pi-prolog "XLIFF 2: the same before the root" \
  "2:4: not well-formed (invalid token)"
x2doc x2-entity.xlf '<!DOCTYPE xliff [<!ENTITY a:b "x">]>' 'Hello.'
refused x2-entity "XLIFF 2: an entity named with a colon" "2:27: syntax error"
x2doc x2-entity-value.xlf '<!DOCTYPE xliff [<!ENTITY e "&a:b;">]>' 'Hello.'
refused x2-entity-value "XLIFF 2: a reference with a colon in an entity's value" \
  "2:32: not well-formed (invalid token)"
x2doc x2-dtd.xlf '<!DOCTYPE xliff [<!ENTITY e "big">]>' 'Hello &e; <pc id="1">world</pc>.'
if expect_exit 0 "XLIFF 2 with a DTD" "$x" translate "$tmp/x2-dtd.xlf" \
  -o "$tmp/x2-dtd.out" $opts; then
  check "its entity's text translated, its code kept" grep -qF \
    '<target>[bíg Hélló <pc id="1">wórld.</pc> ~~~~~]</target>' \
    "$tmp/x2-dtd.out"
fi
printf '%s\n<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr"><file id="f"><unit id="u1"><segment><source>Hello <bad:x/>.</source></segment></unit></file></xliff>\n' \
  "$head" >"$tmp/x2-unbound.xlf"
refused x2-unbound "XLIFF 2: an element of an unbound prefix" \
  "2:144: unbound prefix (unit u1)"

finish
