#!/bin/sh
# test_cli_word.sh: xliffmt translate on Word documents (.docx).
# A document made by word_docx.py (run soup, bold, a hyperlink, a tab, a
# field, bookmarks, a table, empty paragraphs) and Okapi's UTF8.docx and
# reordered-zip.docx: --mt pseudo gives a package whose entries other
# than word/document.xml are byte for byte the original's, whose
# document.xml is well-formed, holds the pseudo translation of each
# paragraph with the codes kept, the runs merged and the language set;
# --mt identity gives document.xml byte for byte. Refused, exit 1 with
# the exact message and no output: a zip that is not Word, a broken zip,
# a text named .docx, a document.xml with a doctype or not
# well-formed, no -s. From standard input, the same as from the file.
# WordprocessingML found by its namespace: under another prefix, by
# default; a namespace whose URI only starts with it is not Word's.
# Env: XLIFFMT, XMT_TEST_DATA, XMLLINT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/UTF8.docx office/reordered-zip.docx
require_commands "python3 not found (it writes and reads the test documents)" python3
cli_setup word
x=$XLIFFMT
py="python3 $(cd "$(dirname "$0")" && pwd)/word_docx.py"
office=$XMT_TEST_DATA/office
cd "$tmp" || exit 99

# part DOCX OUT: its word/document.xml, as stored.
part() {
  python3 -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("word/document.xml"))' "$1" >"$2"
}
lint=${XMLLINT:-xmllint}
[ "$lint" != no ] || lint=xmllint
well_formed() {
  if command -v "$lint" >/dev/null 2>&1; then
    "$lint" --noout "$1"
  else
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1"
  fi
}
# refused DESC MESSAGE ARGS...: exit 1, MESSAGE on stderr, no out.docx.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f out.docx
  exits_with 1 "$desc" "$x" translate "$@" -o out.docx || return
  expect_text "$desc: message" "$tmp/err" "$msg"
  check "$desc: no output" test ! -e out.docx
}

$py make in.docx || exit 99
expect_exit 0 "pseudo translation" "$x" translate -q -s en -t es --mt pseudo \
  in.docx -o out.docx
check "entries other than word/document.xml copied byte for byte" \
  $py same in.docx out.docx
part out.docx out.xml
check "document.xml well-formed" well_formed out.xml
$py paras out.docx >paras.txt
expect_text "paragraphs translated, codes kept, runs merged" paras.txt \
  "[wídé Hélló wórld ~~~~~]
[Sávé Préss áñd ñów wáít. ~~~~~~~~]
[thé Séé fór síté móré. ~~~~~~~]
[Válúé Ñámé~~~]
[1 Págé ~~]
   
[hí Sáý ~~]
[á Íñ &amp; çéll móré ~~~~~]
bold 1
hyperlink 1
tab 1
bookmark 2
fldChar 3
instrText 1
lang es 15"
# the first paragraph's three runs (rsids, proofing marks, a language)
# one run; the bold stretch a run of its own with its properties
check "run soup merged into one run" grep -q -F \
  '<w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[wídé Hélló wórld ~~~~~]</w:t></w:r></w:p>' out.xml
check "bold stretch in a run of its properties" grep -q -F \
  '<w:r><w:rPr><w:b/><w:lang w:val="es"/></w:rPr><w:t>Sávé</w:t></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> Préss' out.xml
check "w:lang's w:val replaced, its other attributes kept" grep -q -F \
  '<w:rPr><w:i/><w:lang w:val="es" w:eastAsia="ja-JP"/></w:rPr><w:t>hí</w:t>' out.xml
check "whitespace-only paragraph left alone" grep -q -F \
  '<w:p><w:r><w:t xml:space="preserve">   </w:t></w:r></w:p><w:p/>' out.xml

expect_exit 0 "identity translation" "$x" translate -q -s en -t es \
  --mt identity in.docx -o id.docx
part in.docx in.xml
part id.docx id.xml
check "identity: document.xml byte for byte" cmp -s in.xml id.xml
check "identity: other entries byte for byte" $py same in.docx id.docx

for doc in UTF8 reordered-zip; do
  expect_exit 0 "$doc.docx pseudo" "$x" translate -q -s en -t es --mt pseudo \
    "$office/$doc.docx" -o "$doc.docx"
  check "$doc.docx: other entries byte for byte" $py same "$office/$doc.docx" \
    "$doc.docx"
  $py paras "$doc.docx" >paras.txt
  sed -n 1p paras.txt >first.txt
  case $doc in
  UTF8) want='[“tést”. ~~~]' ;;
  *) want='[ís Thís tést. á ~~~~~]' ;;
  esac
  expect_text "$doc.docx: translated" first.txt "$want"
  expect_exit 0 "$doc.docx identity" "$x" translate -q -s en -t es \
    --mt identity "$office/$doc.docx" -o "$doc.id.docx"
  part "$office/$doc.docx" a.xml
  part "$doc.id.docx" b.xml
  check "$doc.docx identity: document.xml byte for byte" cmp -s a.xml b.xml
done

# Headers, footers, notes, comments, a text box (its mc:Choice and
# mc:Fallback translated alike, one unit), tracked changes, hidden text,
# a content control and a smart tag.
$py parts parts.docx || exit 99
expect_exit 0 "parts: check" sh -c "\"$x\" check -s en parts.docx >check.txt"
check "parts: 10 units (the Fallback's box is its Choice's)" grep -q -x \
  '  units              10 (10 translatable, 0 with target)' check.txt
expect_exit 0 "parts: pseudo translation" "$x" translate -q -s en -t es \
  --mt pseudo parts.docx -o parts.out.docx
check "parts: entries not rewritten byte for byte (styles.xml not read)" \
  $py same parts.docx parts.out.docx word/header1.xml word/footer1.xml \
  word/footnotes.xml word/endnotes.xml word/comments.xml
for p in document header1 footer1 footnotes endnotes comments; do
  $py texts parts.out.docx word/$p.xml
done >texts.txt
expect_text "parts: every part translated" texts.txt \
  "[ñóté Séé héré. ~~~~~]
[héré Shápé ~~~~]
[téxt Bóxéd ~~~]
[téxt Bóxéd ~~~]
[ñéw Óld téxt ~~~~]secret
[óñé Píçk íñ ítém Párís ~~~~~~~]
[répórt Áññúál ~~~~]
[1 Págé ~~]
 [ñóté. Á ~~~]
 [éñd. Áñ ~~~]
[thís Çhéçk ~~~]"
for p in document header1 footer1 footnotes endnotes comments; do
  python3 -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
    parts.out.docx word/$p.xml >$p.xml
  check "parts: $p.xml well-formed" well_formed $p.xml
done
check "parts: separators left alone" grep -q -F \
  '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>' \
  footnotes.xml
check "parts: the note's mark kept in a run of its own" grep -q -F \
  '<w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> [ñóté. Á ~~~]</w:t></w:r></w:p>' \
  footnotes.xml
check "parts: deleted text kept, inserted text translated in its w:ins" \
  grep -q -F '<w:del w:id="5" w:author="A"><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins w:id="6" w:author="A"><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>ñéw</w:t></w:r></w:ins>' \
  document.xml
check "parts: hidden text left alone" grep -q -F \
  '<w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r></w:p>' document.xml
check "parts: content control and smart tag kept around their text" \
  grep -q -F '<w:sdt><w:sdtPr><w:alias w:val="Choice"/></w:sdtPr><w:sdtContent><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>óñé Píçk íñ ítém</w:t></w:r></w:sdtContent></w:sdt><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> </w:t></w:r><w:smartTag w:uri="urn:x" w:element="place"><w:smartTagPr><w:attr w:name="n" w:val="v"/></w:smartTagPr><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>Párís</w:t></w:r></w:smartTag>' \
  document.xml
$py parts vanish.docx vanish || exit 99
expect_exit 0 "w:vanish on and off" "$x" translate -q -s en -t es \
  --mt pseudo vanish.docx -o vanish.out.docx
$py texts vanish.out.docx word/document.xml | sed -n '5,$p' >texts.txt
expect_text "w:vanish off translated, on left alone" texts.txt \
  "[ñéw Óld téxtshówñ ~~~~~~]
[óñé Píçk íñ ítém Párís ~~~~~~~]
gone[képt ~~]"
expect_exit 0 "parts: identity" "$x" translate -q -s en -t es --mt identity \
  parts.docx -o parts.id.docx
check "parts identity: every entry byte for byte" $py same parts.docx \
  parts.id.docx
part parts.docx a.xml
part parts.id.docx b.xml
check "parts identity: document.xml byte for byte" cmp -s a.xml b.xml

# Okapi's documents with a text box, one outside it, and comments.
for doc in TextBoxes OutOfTheTextBox Addcomments; do
  have_data office/$doc.docx || continue
  expect_exit 0 "$doc.docx identity" "$x" translate -q -s en -t es \
    --mt identity "$office/$doc.docx" -o "$doc.id.docx"
  check "$doc.docx identity: entries byte for byte" $py same \
    "$office/$doc.docx" "$doc.id.docx"
  part "$office/$doc.docx" a.xml
  part "$doc.id.docx" b.xml
  check "$doc.docx identity: document.xml byte for byte" cmp -s a.xml b.xml
  expect_exit 0 "$doc.docx pseudo" "$x" translate -q -s en -t es --mt pseudo \
    "$office/$doc.docx" -o "$doc.docx"
done
if have_data office/OutOfTheTextBox.docx; then
  $py texts OutOfTheTextBox.docx word/document.xml >texts.txt
  expect_text "OutOfTheTextBox.docx: the text box translated" texts.txt \
    "[óútsídé Téxt bóx. thé ~~~~~~~]
[íñsídé Téxt bóx. thé ~~~~~~]"
fi
if have_data office/Addcomments.docx; then
  $py texts Addcomments.docx word/comments.xml >texts.txt
  expect_text "Addcomments.docx: the comment translated" texts.txt \
    "[çómméñt Ñíçé ~~~~]"
fi
if have_data office/Addcomments.docx; then
  # the report reads the units as XLIFF: codes in XLIFF's markup, the
  # Word markup kept in them
  if exits_with 0 "report --findings of a Word document" "$x" report \
    "$office/Addcomments.docx" -s en --findings; then
    check "report: tracked changes and comment marks as XLIFF codes" grep -qF \
      'track <x:x id="1" ctype="x-w-del"/><x:g id="2" ctype="x-w-ins">changes  </x:g>or add <x:x id="3" ctype="x-w-commentRangeStart"/>comments' \
      "$tmp/out"
    check "report: both units, the body's and the comment's" grep -qF \
      '<summary files="1" units="2" translatable-units="2"' "$tmp/out"
  fi
fi
if have_data office/TextBoxes.docx; then
  $py texts TextBoxes.docx word/document.xml | sed -n 4p >texts.txt
  expect_text "TextBoxes.docx: the text box translated" texts.txt \
    "[héré Thís á ís bóx. téxt ~~~~~~~~]  "
fi

# the prefix the document uses is the one written
$py make prefix.docx prefix || exit 99
expect_exit 0 "another prefix" "$x" translate -q -s en -t es --mt pseudo \
  prefix.docx -o prefix.out.docx
part prefix.out.docx prefix.xml
check "another prefix: well-formed" well_formed prefix.xml
check "another prefix: written with it" grep -q -F \
  '<wx:r><wx:rPr><wx:lang wx:val="es"/></wx:rPr><wx:t>[Válúé Ñámé</wx:t></wx:r><wx:r><wx:tab/></wx:r>' \
  prefix.xml

# W's namespace is told by its URI, not the prefix: a paragraph of it
# by default is read, one of a URI that only starts with W's left alone
$py make lookalike.docx lookalike || exit 99
expect_exit 0 "default namespace, look-alike" "$x" translate -q -s en -t es \
  --mt pseudo lookalike.docx -o lookalike.out.docx
part lookalike.out.docx lookalike.xml
check "default namespace: translated, a look-alike kept" grep -q -F \
  '<p xmlns="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><r><rPr><lang val="es"/></rPr><t>[ñáméspáçé Défáúlt ~~~~~~]</t></r></p><v:p xmlns:v="http://schemas.openxmlformats.org/wordprocessingml/2006/main2"><v:r><v:t>Not Word</v:t></v:r></v:p>' \
  lookalike.xml

# the content decides, not the name
cp in.docx page.html
expect_exit 0 "a .docx named .html is Word" "$x" translate -q -s en -t es \
  --mt pseudo page.html -o page.out
$py paras page.out | sed -n 1p >first.txt
expect_text "a .docx named .html: translated" first.txt \
  "[wídé Hélló wórld ~~~~~]"

$py notword other.docx || exit 99
refused "a zip that is not Word" \
  "xliffmt: other.docx: a zip but not a Word document: no WordprocessingML main part in [Content_Types].xml" \
  -s en -t es --mt pseudo other.docx
head -c 300 in.docx >cut.docx
refused "a broken zip" "xliffmt: cut.docx: a truncated or damaged zip package" \
  -s en -t es --mt pseudo cut.docx
printf 'plain text\n' >text.docx
refused "a text named .docx" "xliffmt: text.docx: not a zip package" \
  -s en -t es --mt pseudo text.docx
if have_data office/TestDocument06.odt; then
  # its first entry, mimetype, tells OpenDocument from Word
  expect_exit 0 "OpenDocument is not taken for Word" "$x" translate -q \
    -s en -t es --mt pseudo "$office/TestDocument06.odt" -o odt.odt
fi
$py make doctype.docx doctype || exit 99
refused "a doctype in document.xml" \
  "xliffmt: doctype.docx: word/document.xml, line 2, column 22: a doctype is not read in a Word part" \
  -s en -t es --mt pseudo doctype.docx
$py make broken.docx broken || exit 99
refused "document.xml not well-formed" \
  "xliffmt: broken.docx: word/document.xml, line 2, column 1513: not well-formed XML: no element found" \
  -s en -t es --mt pseudo broken.docx
# the relationships that name the other parts: their errors as the
# parts', with the entry, line and column
$py make relsbroken.docx relsbroken || exit 99
refused "document.xml.rels not well-formed" \
  "xliffmt: relsbroken.docx: word/_rels/document.xml.rels, line 2, column 247: not well-formed XML: no element found" \
  -s en -t es --mt pseudo relsbroken.docx
$py make relsdoctype.docx relsdoctype || exit 99
refused "a doctype in document.xml.rels" \
  "xliffmt: relsdoctype.docx: word/_rels/document.xml.rels, line 2, column 24: a doctype is not read in a Word part" \
  -s en -t es --mt pseudo relsdoctype.docx
# Parts are parsed as their units are handed on, not at open: a fault
# late in a part, or in a later part, and a damaged part (its CRC) still
# fail with the message open gave, and leave no output; extract, to
# standard output, writes nothing.
$py parts parts.docx || exit 99
python3 - <<'PY' || exit 99
import struct, zipfile
z = zipfile.ZipFile('parts.docx')
def rewrite(out, edit, method=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(out, 'w', method) as o:
        for n in z.namelist():
            o.writestr(n, edit(n, z.read(n)))
rewrite('late.docx', lambda n, b: b.replace(
    b'</w:body>', b'<w:p><w:r><w:t>x</w:t></w:r></w:q></w:body>')
    if n == 'word/document.xml' else b)
rewrite('stored.docx', lambda n, b: b, zipfile.ZIP_STORED)
d = bytearray(open('stored.docx', 'rb').read())
i = d.find(b'PK\x03\x04')
while i >= 0:
    nl, el = struct.unpack('<HH', d[i + 26:i + 30])
    if d[i + 30:i + 30 + nl] == b'word/footer1.xml':
        d[i + 30 + nl + el + 60] ^= 1
    i = d.find(b'PK\x03\x04', i + 4)
open('crc.docx', 'wb').write(d)
PY
# expat names the column of the end tag's name, after "</"
late="xliffmt: late.docx: word/document.xml, line 2, column $(python3 -c '
import zipfile
d = zipfile.ZipFile("late.docx").read("word/document.xml").decode()
print(len(d.split("\n")[1].split("</w:q>")[0]) + 3)')"
refused "a fault late in document.xml" \
  "$late: not well-formed XML: mismatched tag" \
  -s en -t es --mt pseudo late.docx
refused "a damaged footer" \
  "xliffmt: crc.docx: entry 'word/footer1.xml' is damaged: CRC error" \
  -s en -t es --mt pseudo crc.docx
for d in late crc; do
  exits_with 1 "extract $d.docx" sh -c \
    "\"$x\" extract -s en -t es $d.docx >$d.xlf" &&
    check "extract $d.docx: nothing written" test ! -s $d.xlf
done
refused "no source language" \
  "xliffmt: in.docx: give the source language of a Word document with -s" \
  -t es --mt pseudo in.docx
rm -f out.docx
expect_exit 0 "standard input" sh -c \
  "\"$x\" translate -q -s en -t es --mt pseudo - -o stdin.docx <in.docx"
part stdin.docx stdin.xml
check "standard input: translated as the file is" cmp -s out.xml stdin.xml

# check says what it read the document as; extract writes its units as
# XLIFF (test_cli_office_xliff.sh), refusing what only XLIFF's segments
# take by the document's format.
expect_exit 0 "check" sh -c "\"$x\" check -s en in.docx >check.txt"
check "check: read as a Word document" grep -q -x -F \
  "in.docx: Word document, as XLIFF 1.2, UTF-8" check.txt
exits_with 1 "extract --format" "$x" extract --format jsonl -s en -t es \
  in.docx -o out.xlf &&
  expect_text "extract --format: message" "$tmp/err" \
    "xliffmt: --format does not apply to a document in Word (.docx, .docm, .dotx, .dotm)
Try 'xliffmt extract --help'."
check "extract --format: no output" test ! -e out.xlf

finish
