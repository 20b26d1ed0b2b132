#!/bin/sh
# test_cli_office_xliff.sh: extract and merge of Word (.docx) and
# OpenDocument (.odt) documents. On the documents word_docx.py and
# odt_odt.py make and on Okapi's files in tests/data/office: extract
# writes XLIFF 1.2 (datatype x-docx / x-odt, original the name, the
# format's ids, codes as <g>/<x> with ctype); extract, translate --mt
# pseudo of that XLIFF, and merge give the very bytes translate --mt
# pseudo of the document gives. A unit without a target keeps its source
# and is reported (exit 3); an XLIFF with an id the document does not
# have, from another document, with an id twice, or with a target code
# its source does not have (or of another kind) is refused (exit 1, the
# unit named, no output); a code dropped drops its formatting; HTML's
# options and -s are refused for a
# Word document. Translate Toolkit's pocount and xliff2po read the XLIFF.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/TestDocument01.odt office/TestDocument06.odt \
  office/bookmark-reference.odt office/Addcomments.docx \
  office/OutOfTheTextBox.docx office/TextBoxes.docx office/UTF8.docx \
  office/reordered-zip.docx
require_commands "python3 not found (it writes the test documents)" python3
# Translate Toolkit (Debian translate-toolkit, scripts/install-deps.sh)
# reads the XLIFF as a CAT tool's pipeline does.
require_commands "pocount or xliff2po not found (Debian translate-toolkit)" \
  pocount xliff2po
cli_setup office_xliff
x=$XLIFFMT
here=$(cd "$(dirname "$0")" && pwd)
office=$XMT_TEST_DATA/office
cd "$tmp" || exit 99

# all_same A B: the same entries, in the same order, byte for byte.
all_same() {
  python3 -c 'import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
ea = [(i.filename, a.read(i)) for i in a.infolist()]
sys.exit(ea != [(i.filename, b.read(i)) for i in b.infolist()])' "$1" "$2"
}
# round DOC NAME: extract, translate the XLIFF, merge; against translate.
round() {
  doc=$1 name=$2 ext=${2##*.}
  if ! "$x" extract -q -s en -t es "$doc" -o "$name.xlf" 2>"$tmp/err" ||
    ! "$x" translate -q "$name.xlf" --mt pseudo -o "$name.es.xlf" \
      2>>"$tmp/err" ||
    ! "$x" merge -q "$doc" "$name.es.xlf" -o "$name.m.$ext" 2>>"$tmp/err" ||
    ! "$x" translate -q -s en -t es --mt pseudo "$doc" -o "$name.t.$ext" \
      2>>"$tmp/err"; then
    fail "$name: a step failed"
    sed -n '1,5s/^/    /p' "$tmp/err"
    return
  fi
  check "$name: merge gives translate's bytes" cmp -s "$name.m.$ext" \
    "$name.t.$ext"
  check "$name: every entry alike" all_same "$name.m.$ext" "$name.t.$ext"
  check "$name: translated" test "$(grep -c '<target' "$name.es.xlf")" -gt 0
}

python3 "$here/word_docx.py" make in.docx || exit 99
python3 "$here/word_docx.py" parts parts.docx || exit 99
python3 "$here/word_docx.py" codes codes.docx || exit 99
python3 "$here/odt_odt.py" make in.odt || exit 99

# The XLIFF of a Word document, whole.
expect_exit 0 "extract Word" "$x" extract -s en -t es in.docx -o in.xlf
expect_text "extract Word: message" "$tmp/err" \
  "xliffmt: in.docx: 7 units, 5 inline codes extracted"
cat >want.xlf <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="in.docx" source-language="en" target-language="es" datatype="x-docx">
<body>
<trans-unit id="document:1" xml:space="preserve">
<source>Hello wide world</source>
</trans-unit>
<trans-unit id="document:2" xml:space="preserve">
<source>Press <g id="1" ctype="x-w-r">Save</g> now and wait.</source>
</trans-unit>
<trans-unit id="document:3" xml:space="preserve">
<source>See <g id="1" ctype="link">the site</g> for more.</source>
</trans-unit>
<trans-unit id="document:4" xml:space="preserve">
<source>Name<x id="1" ctype="x-w-tab"/>Value</source>
</trans-unit>
<trans-unit id="document:5" xml:space="preserve">
<source>Page <g id="1" ctype="x-w-fldChar">1</g></source>
</trans-unit>
<trans-unit id="document:6" xml:space="preserve">
<source>Say <g id="1" ctype="x-w-r">hi</g></source>
</trans-unit>
<trans-unit id="document:7" xml:space="preserve">
<source>In a cell &amp; more</source>
</trans-unit>
</body>
</file>
</xliff>
EOF
check "extract Word: the XLIFF" cmp -s want.xlf in.xlf
expect_exit 0 "extract ODT" "$x" extract -q -s en in.odt -o odt.xlf
check "extract ODT: datatype, original, ids" grep -q -x -F \
  '<file original="in.odt" source-language="en" datatype="x-odt">' odt.xlf
check "extract ODT: the format's ids" grep -q -F \
  '<trans-unit id="1"' odt.xlf
expect_exit 0 "extract from standard input" sh -c \
  "\"$x\" extract -q -s en -t es - <in.docx >stdin.xlf"
check "standard input: original -, the same units" cmp -s stdin.xlf \
  "$(sed 's/original="in.docx"/original="-"/' in.xlf >want2.xlf &&
    echo want2.xlf)"

# Translate Toolkit reads it: 7 units of 23 words; each source as text.
pocount --csv in.xlf >count.txt 2>/dev/null
check "pocount: 7 units, 23 words" grep -q -F ', 7, 23,' count.txt
xliff2po in.xlf in.po >/dev/null 2>&1
grep '^msgid "[^"]' in.po >msgids.txt
expect_text "xliff2po: the units as text" msgids.txt 'msgid "Hello wide world"
msgid "Press Save now and wait."
msgid "See the site for more."
msgid "NameValue"
msgid "Page 1"
msgid "Say hi"
msgid "In a cell & more"'

# extract -> translate -> merge is translate, byte for byte.
round in.docx in.docx
round parts.docx parts.docx
round codes.docx codes.docx
round in.odt in.odt
for f in Addcomments.docx OutOfTheTextBox.docx TextBoxes.docx UTF8.docx \
  reordered-zip.docx TestDocument01.odt TestDocument06.odt \
  bookmark-reference.odt; do
  round "$office/$f" "$f"
done

# A unit without a target keeps its source and is reported: exit 3.
python3 - <<'EOF' || exit 99
import re
s = open('in.docx.es.xlf', encoding='utf-8').read()
i = s.index('id="document:2"')
j = s.index('</trans-unit>', i)
u = re.sub(r'<target[^>]*>.*?</target>', '', s[i:j], flags=re.S)
open('miss.xlf', 'w', encoding='utf-8').write(s[:i] + u + s[j:])
k = s.index('<trans-unit id="document:7"')
e = s.index('</trans-unit>\n', k) + len('</trans-unit>\n')
open('gone.xlf', 'w', encoding='utf-8').write(s[:k] + s[e:])
open('bogus.xlf', 'w', encoding='utf-8').write(
    s.replace('id="document:7"', 'id="document:9"'))
open('twice.xlf', 'w', encoding='utf-8').write(
    s.replace('id="document:7"', 'id="document:6"'))
t = s[i:j]
g = t[t.index('<target'):]
g = g[g.index('<g id="1"'):]
g = g[:g.index('</g>') + 4]
inner = g[g.index('>') + 1:-4]
open('foreign.xlf', 'w', encoding='utf-8').write(
    s.replace(g, g + '<x id="99"/>', 1))
open('kind.xlf', 'w', encoding='utf-8').write(
    s.replace(g, '<x id="1" ctype="x-w-r"/>' + inner, 1))
open('lost.xlf', 'w', encoding='utf-8').write(s.replace(g, inner, 1))
c = '<g id="1" ctype="link">líñk <g id="2" ctype="x-w-r">Bóld</g></g> móré'
d = open('codes.docx.es.xlf', encoding='utf-8').read()
assert c in d
open('cross.xlf', 'w', encoding='utf-8').write(d.replace(
    c, '<g id="1" ctype="link">líñk <bx id="2" ctype="x-w-r"/>Bóld</g> '
    'móré<ex id="2"/>', 1))
open('split.xlf', 'w', encoding='utf-8').write(s.replace(
    g, '<bx id="1" ctype="x-w-r"/>' + inner + '<ex id="1"/>', 1))
EOF
expect_exit 3 "merge, a target missing" "$x" merge in.docx miss.xlf \
  -o miss.docx
expect_text "merge, a target missing: messages" "$tmp/err" \
  "xliffmt: miss.xlf:9: unit document:2: no target: the source text is kept
xliffmt: miss.xlf: 1 of 7 units have no target; their source text is kept
xliffmt: in.docx: 7 units, 6 translated, 1 kept in the source language"
python3 -c 'import sys, zipfile
d = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
sys.exit(not ("Press " in d and ">Save<" in d and "[wídé" in d))' miss.docx
check "merge, a target missing: its source kept, the others translated" \
  test $? -eq 0
expect_exit 3 "merge, a trans-unit missing" "$x" merge -q in.docx gone.xlf \
  -o gone.docx
expect_text "merge, a trans-unit missing: message" "$tmp/err" \
  "xliffmt: gone.xlf: unit document:7: no trans-unit in the XLIFF: the source text is kept
xliffmt: gone.xlf: 1 of 7 units have no target; their source text is kept"

# A pair a translation split into <bx/> and <ex/> is the pair.
expect_exit 0 "merge, a pair as bx/ex" "$x" merge -q in.docx split.xlf \
  -o split.docx
check "merge, a pair as bx/ex: as the <g>" cmp -s split.docx in.docx.m.docx

# ... also where it crosses another pair, as translate writes it.
expect_exit 0 "merge, crossing bx/ex" "$x" merge -q codes.docx cross.xlf \
  -o cross.docx
python3 -c 'import sys, zipfile, xml.dom.minidom
d = zipfile.ZipFile(sys.argv[1]).read("word/document.xml")
xml.dom.minidom.parseString(d)
sys.exit("<w:b/><w:lang w:val=\"es\"/></w:rPr><w:t>B\u00f3ld</w:t>" not in d.decode())' cross.docx
check "merge, crossing bx/ex: well-formed, the text there" test $? -eq 0

# A code dropped in the CAT tool drops its formatting.
expect_exit 0 "merge, a code dropped" "$x" merge -q in.docx lost.xlf \
  -o lost.docx
python3 -c 'import sys, zipfile
d = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
sys.exit(d.count("<w:b/>") != 0 or "S\u00e1v\u00e9 Pr\u00e9ss" not in d)' \
  lost.docx
check "merge, a code dropped: the text unbold" test $? -eq 0

# refused DESC MESSAGE ARGS...: exit 1, MESSAGE on stderr, no out.docx.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f out.docx out.odt
  exits_with 1 "$desc" "$x" "$@" || return
  expect_text "$desc: message" "$tmp/err" "$msg"
  check "$desc: no output" test ! -e out.docx -a ! -e out.odt
}
# the usage names the document's kind
exits_with 1 "merge of a Word document without its XLIFF" "$x" merge in.docx \
  -o out.docx &&
  check "merge without its XLIFF: the usage names a Word document" grep -qxF \
    "xliffmt: give the Word document and its XLIFF: merge DOC DOC.xlf" \
    "$tmp/err"
refused "merge, an id not the document's" \
  "xliffmt: bogus.xlf:29: <trans-unit> is not a unit of the document: was the XLIFF extracted from another document? (unit document:9)" \
  merge in.docx bogus.xlf -o out.docx
refused "merge, an id twice" \
  "xliffmt: twice.xlf:29: <trans-unit> appears twice (unit document:6)" \
  merge in.docx twice.xlf -o out.docx
refused "merge, the XLIFF of another Word document" \
  "xliffmt: parts.docx.es.xlf:5: <trans-unit> has a source that differs from the document's: was the XLIFF extracted from another document, or the document changed since? (unit document:1)" \
  merge in.docx parts.docx.es.xlf -o out.docx
refused "merge, the XLIFF of an OpenDocument" \
  "xliffmt: in.odt.es.xlf:5: <trans-unit> is not a unit of the document: was the XLIFF extracted from another document? (unit 1)" \
  merge in.docx in.odt.es.xlf -o out.docx
refused "merge, a code the source does not have" \
  "xliffmt: foreign.xlf:9: <target> has a code (id \"99\") its source does not have, or has it twice or of another kind (unit document:2)" \
  merge in.docx foreign.xlf -o out.docx
refused "merge, a code of another kind" \
  "xliffmt: kind.xlf:9: <target> has a code (id \"1\") its source does not have, or has it twice or of another kind (unit document:2)" \
  merge in.docx kind.xlf -o out.docx
refused "merge, no target language" \
  "xliffmt: odt.xlf: no target language: the XLIFF names none; give one with -t" \
  merge in.odt odt.xlf -o out.odt
refused "extract, an HTML option" \
  "xliffmt: --skip-pre does not apply to a document in Word (.docx, .docm, .dotx, .dotm)
Try 'xliffmt extract --help'." \
  extract --skip-pre -s en in.docx -o out.docx
refused "merge, -s" \
  "xliffmt: --source-lang does not apply to a document in OpenDocument Text (.odt, .ott)
Try 'xliffmt merge --help'." \
  merge -s en in.odt in.odt.es.xlf -o out.odt
refused "extract, no source language" \
  "xliffmt: in.docx: give the source language of a Word document with -s" \
  extract in.docx -o out.docx

finish
