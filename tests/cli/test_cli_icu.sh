#!/bin/sh
# test_cli_icu.sh: ICU MessageFormat messages (Angular's plurals and
# selects) in XLIFF 2 and XLIFF 1.2: what the engine is sent (extract
# prints it: only the case bodies and the text around a message), the
# exact targets (pseudo engine: the syntax kept byte for byte, codes in
# their bodies), with and without segmentation, --no-icu, --seg-source,
# and texts taken as plain text (braces that do not pair up, another
# argument type, a code in the syntax, a pair across two bodies, a pair
# around the message). Every output passes `xliffmt check`.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup icu
x=$XLIFFMT

# same DESC FILE EXPECTED: the file is exactly EXPECTED (a string).
same() {
  if [ "$(cat "$2")" = "$3" ]; then
    pass "$1"
  else
    fail "$1: got, then expected:"
    sed 's/^/    got:  /' "$2"
    printf '%s\n' "$3" | sed 's/^/    want: /'
  fi
}
# targets FILE: the targets of an output, one a line, attributes left out.
targets() {
  grep -o '<target[^>]*>.*</target>' "$1" | sed -e 's/<target[^>]*>//' -e 's|</target>$||'
}
checked() {
  expect_exit 0 "check $1" "$x" check "$2"
  grep -q ' 0 errors, 0 warnings' "$tmp/out" || fail "check $1: $(cat "$tmp/out")"
}
# sent DESC WHAT OPTIONS...: extract of icu2.xlf with OPTIONS ("DESC");
# what the engine is sent is standard input exactly ("WHAT").
sent() {
  s_desc=$1 s_what=$2
  shift 2
  expect_exit 0 "$s_desc" "$x" extract "$tmp/icu2.xlf" -o "$tmp/sent" -q "$@"
  sed -i 1d "$tmp/sent" # the header aside
  same "$s_what" "$tmp/sent" "$(cat)"
}
# pseudo NAME IN OUT [OPTION]: IN translated by the pseudo engine into OUT
# ("translate NAME[ OPTION]").
pseudo() {
  expect_exit 0 "translate $1${4:+ $4}" "$x" translate "$2" -o "$3" \
    --mt pseudo -q ${4:+"$4"}
}
# translated NAME IN OUT: pseudo; OUT's targets are standard input exactly
# ("NAME targets"), and OUT passes check ("NAME output").
translated() {
  pseudo "$1" "$2" "$3"
  targets "$3" >"$tmp/got"
  same "$1 targets" "$tmp/got" "$(cat)"
  checked "$1 output" "$3"
}

cat >"$tmp/icu2.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="es">
<file id="f">
<unit id="ph"><segment><source>{<ph id="0" equiv="VAR_PLURAL"/>, plural, =0 {no items} =1 {one item} other {<ph id="1" equiv="INTERPOLATION"/> items}}</source></segment></unit>
<unit id="ord"><segment><source>{n, selectordinal, offset:1 one {#st place} two {#nd place} few {#rd place} other {#th place}}</source></segment></unit>
<unit id="nest"><segment><source>{VAR_PLURAL, plural, =0 {Nobody came} other {{VAR_SELECT, select, male {He came} other {They came}}}}</source></segment></unit>
<unit id="around"><segment><source>Files: {n, plural, one {one file} other {many files}} left.</source></segment></unit>
<unit id="two"><segment><source>{n, plural, one {The file was deleted. Undo it?} other {The files were deleted.}}</source></segment></unit>
<unit id="pc"><segment><source>{n, select, a {Click <pc id="1">here</pc> now} other {Go}}</source></segment></unit>
<unit id="open"><segment><source>{n, plural, =0 {none} other {some}</source></segment></unit>
<unit id="number"><segment><source>You have {n, number} new messages.</source></segment></unit>
<unit id="badcode"><segment><source>{n, plural, =0<ph id="1"/> {none} other {some}}</source></segment></unit>
<unit id="cross"><segment><source>{n, plural, =0 {no <sc id="1"/>items} other {some<ec startRef="1"/> items}}</source></segment></unit>
<unit id="codes"><segment><source>{n, plural, =1 {<ph id="1"/>} other {<ph id="2"/>}}</source></segment></unit>
</file>
</xliff>
EOD

# What the engine is sent: case bodies, sentence by sentence; a text that
# is not well-formed ICU whole, as before; a message without words, not.
# Those of ph, ord, nest and around are cut alike without segmentation.
bodies=$(
  cat <<'EOD'
ph#0	no items
ph#1	one item
ph#2	items
ord#0	#st place
ord#1	#nd place
ord#2	#rd place
ord#3	#th place
nest#0	Nobody came
nest#1	He came
nest#2	They came
around#0	Files:
around#1	one file
around#2	many files
around#3	left.
EOD
)
sent "extract XLIFF 2" "the engine sees the bodies and the text around" <<EOD
$bodies
two#0	The file was deleted.
two#1	Undo it?
two#2	The files were deleted.
pc#0	Click here now
pc#1	Go
open#0	{n, plural, =0 {none} other {some}
number#0	You have {n, number} new messages.
badcode#0	{n, plural, =0 {none} other {some}}
cross#0	{n, plural, =0 {no items} other {some items}}
EOD

sent "extract --no-segment" "without segmentation the bodies are still cut" \
  --no-segment <<EOD
$bodies
two#0	The file was deleted. Undo it?
two#1	The files were deleted.
pc#0	Click here now
pc#1	Go
open	{n, plural, =0 {none} other {some}
number	You have {n, number} new messages.
badcode	{n, plural, =0 {none} other {some}}
cross	{n, plural, =0 {no items} other {some items}}
EOD

sent "extract --no-icu --no-segment" "--no-icu sends each message whole" \
  --no-icu --no-segment <<'EOD'
ph	{, plural, =0 {no items} =1 {one item} other { items}}
ord	{n, selectordinal, offset:1 one {#st place} two {#nd place} few {#rd place} other {#th place}}
nest	{VAR_PLURAL, plural, =0 {Nobody came} other {{VAR_SELECT, select, male {He came} other {They came}}}}
around	Files: {n, plural, one {one file} other {many files}} left.
two	{n, plural, one {The file was deleted. Undo it?} other {The files were deleted.}}
pc	{n, select, a {Click here now} other {Go}}
open	{n, plural, =0 {none} other {some}
number	You have {n, number} new messages.
badcode	{n, plural, =0 {none} other {some}}
cross	{n, plural, =0 {no items} other {some items}}
codes	{n, plural, =1 {} other {}}
EOD

# The targets: syntax byte for byte, a translation in each body.
translated "XLIFF 2" "$tmp/icu2.xlf" "$tmp/es2.xlf" <<'EOD'
{<ph id="0" equiv="VAR_PLURAL"/>, plural, =0 {[ítéms ñó ~~~]} =1 {[ítém óñé ~~~]} other {<ph id="1" equiv="INTERPOLATION"/> [ítéms ~~]}}
{n, selectordinal, offset:1 one {[pláçé #st ~~~]} two {[pláçé #ñd ~~~]} few {[pláçé #rd ~~~]} other {[pláçé #th ~~~]}}
{VAR_PLURAL, plural, =0 {[çámé Ñóbódý ~~~~]} other {{VAR_SELECT, select, male {[çámé Hé ~~~]} other {[çámé Théý ~~~]}}}}
[Fílés: ~~] {n, plural, one {[fílé óñé ~~~]} other {[fílés máñý ~~~]}} [léft. ~~]
{n, plural, one {[fílé Thé délétéd. wás ~~~~~~~] [ít? Úñdó ~~~]} other {[fílés Thé délétéd. wéré ~~~~~~~]}}
{n, select, a {[<pc id="1">héré</pc> Çlíçk ñów ~~~~~]} other {[Gó ~]}}
[plúrál, {ñ, {ñóñé} =0 {sómé} óthér ~~~~~~~~~~~]
[hávé Ýóú ñúmbér} {ñ, mésságés. ñéw ~~~~~~~~~~~]
[plúrál, {ñ, {ñóñé} =0<ph id="1"/> {sómé}} óthér ~~~~~~~~~~~]
[plúrál, {ñ, {ñó =0 <sc id="1"/>óthér ítéms} ítéms}} {sómé<ec startRef="1"/> ~~~~~~~~~~~~~~]
EOD
pseudo "XLIFF 2" "$tmp/icu2.xlf" "$tmp/es2s.xlf" --seg-source
targets "$tmp/es2s.xlf" >"$tmp/got2"
check "XLIFF 2 --seg-source: each segment whole, as without it" \
  cmp -s "$tmp/got" "$tmp/got2"
checked "XLIFF 2 --seg-source output" "$tmp/es2s.xlf"

cat >"$tmp/icu12.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="ph"><source>{<x id="VAR_PLURAL" equiv-text="count"/>, plural, =0 {no items} other {<x id="INTERPOLATION" equiv-text="count"/> items}}</source></trans-unit>
<trans-unit id="g"><source>{VAR_SELECT, select, male {He is <g id="1">here</g>} other {They are <g id="2">here</g>}}</source></trans-unit>
<trans-unit id="wrap"><source><g id="1">{n, plural, =0 {none} other {some}}</g></source></trans-unit>
</body></file></xliff>
EOD
translated "XLIFF 1.2" "$tmp/icu12.xlf" "$tmp/es12.xlf" <<'EOD'
{<x id="VAR_PLURAL" equiv-text="count"/>, plural, =0 {[ítéms ñó ~~~]} other {<x id="INTERPOLATION" equiv-text="count"/> [ítéms ~~]}}
{VAR_SELECT, select, male {[ís Hé <g id="1">héré</g> ~~~]} other {[áré Théý <g id="2">héré</g> ~~~~]}}
<g id="1">[plúrál, {ñ, {ñóñé} =0 {sómé}} óthér ~~~~~~~~~~~]</g>
EOD
pseudo "XLIFF 1.2" "$tmp/icu12.xlf" "$tmp/es12s.xlf" --seg-source
grep -o '<seg-source>.*</seg-source>' "$tmp/es12s.xlf" >"$tmp/got"
same "XLIFF 1.2 --seg-source: the bodies are the mrks" "$tmp/got" "$(cat <<'EOD'
<seg-source>{<x id="VAR_PLURAL" equiv-text="count"/>, plural, =0 {<mrk mid="0" mtype="seg">no items</mrk>} other {<mrk mid="1" mtype="seg"><x id="INTERPOLATION" equiv-text="count"/> items</mrk>}}</seg-source>
<seg-source>{VAR_SELECT, select, male {<mrk mid="0" mtype="seg">He is <g id="1">here</g></mrk>} other {<mrk mid="1" mtype="seg">They are <g id="2">here</g></mrk>}}</seg-source>
<seg-source><mrk mid="0" mtype="seg"><g id="1">{n, plural, =0 {none} other {some}}</g></mrk></seg-source>
EOD
)"
checked "XLIFF 1.2 --seg-source output" "$tmp/es12s.xlf"
if [ -n "${XMLLINT:-}" ] && command -v "$XMLLINT" >/dev/null 2>&1; then
  check "XLIFF 1.2 --seg-source output is well-formed" \
    "$XMLLINT" --noout "$tmp/es12s.xlf"
fi

finish
