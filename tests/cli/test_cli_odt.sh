#!/bin/sh
# test_cli_odt.sh: xliffmt on OpenDocument texts (.odt, .ott).
# A document made by odt_odt.py (spans that differ only by revision ids or
# language, bold spans, a link, text:s, a tab, a line break, a bookmark, a
# footnote, a table, a list, a frame's text box, an annotation, empty
# paragraphs, a header in styles.xml; a picture's alternative text and
# meta.xml's title, subject, description and keyword) and Okapi's
# TestDocument01.odt, TestDocument06.odt and bookmark-reference.odt: --mt identity gives every entry byte for byte;
# --mt pseudo gives a package whose other entries are the original's
# (mimetype first and stored), whose content.xml Translate Toolkit's
# odf2xliff reads back with every paragraph translated and the codes
# counted, and whose default paragraph style says the target language.
# The automatic styles that translated text alone is in say the target
# language (content.xml's exact bytes; a Japanese target: the -asian
# attributes), those untranslated text is in too keep theirs.
# Refused, exit 1 with the exact message and no output: no content.xml,
# content.xml not well-formed or with a doctype, spans 40 deep, an
# OpenDocument that is not a text, no -s.
# From standard input as from the file; check, report and batch take it.
# Env: XLIFFMT, XMT_TEST_DATA. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_data office/TestDocument01.odt office/TestDocument06.odt \
  office/bookmark-reference.odt
require_commands "python3 not found (it writes and reads the test documents)" python3
# Translate Toolkit (Debian translate-toolkit, scripts/install-deps.sh)
# reads our output as a real tool does.
require_commands "odf2xliff not found (Debian translate-toolkit)" odf2xliff
cli_setup odt
x=$XLIFFMT
py="python3 $(cd "$(dirname "$0")" && pwd)/odt_odt.py"
office=$XMT_TEST_DATA/office
cd "$tmp" || exit 99

# entry ODT NAME OUT: the entry NAME of ODT, as stored.
entry() {
  python3 -c 'import sys, zipfile
sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
    "$1" "$2" >"$3"
}
# all_same A B: every entry of A byte for byte in B, in the same order.
all_same() {
  python3 -c 'import sys, zipfile
a, b = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2])
ea = [(i.filename, a.read(i)) for i in a.infolist()]
sys.exit(ea != [(i.filename, b.read(i)) for i in b.infolist()])' "$1" "$2"
}
# units ODT OUT: its units as odf2xliff reads them (odt_odt.py units).
units() {
  rm -f "$2.xlf"
  odf2xliff "$1" "$2.xlf" >/dev/null 2>&1
  $py units "$2.xlf" >"$2"
}
# same_xml FILE: FILE is out.xml, the pseudo translation of in.odt's
# content.xml (which holds it: not both empty).
same_xml() {
  grep -q -F '[óf Sóúp spáñs ~~~~]' "$1" && cmp -s out.xml "$1"
}
# refused DESC MESSAGE ARGS...: exit 1, MESSAGE on stderr, no out.odt.
refused() {
  desc=$1 msg=$2
  shift 2
  rm -f out.odt
  exits_with 1 "$desc" "$x" translate "$@" -o out.odt || return
  expect_text "$desc: message" "$tmp/err" "$msg"
  check "$desc: no output" test ! -e out.odt
}

$py make in.odt || exit 99
expect_exit 0 "pseudo translation" "$x" translate -q -s en -t es --mt pseudo \
  in.odt -o out.odt
check "entries other than content.xml and styles.xml byte for byte" \
  $py same in.odt out.odt
units in.odt src.txt
units out.odt got.txt
# odf2xliff finds on the source: 2 codes in the heading (spans of
# revision ids and a language), 4 in the second paragraph (bold twice,
# the link, italic); we merge what shows alike and drop what shows
# nothing. The note citation is not ours to translate; the annotation is.
# The header (styles.xml) comes last, as odf2xliff reads it.
expect_text "odf2xliff on the source" src.txt \
  "Soup of spans | g=2 x=0
Press Save now and see the site. | g=4 x=0
Twospaces,a tab,a break &amp; a mark. | g=3 x=1
Noted here. | g=0 x=1
1 | g=0 x=0
The note text. | g=0 x=0
A cell | g=0 x=0
An item | g=0 x=0
See the box. | g=0 x=1
Boxed words | g=0 x=0
Said twice. | g=0 x=1
A comment here | g=0 x=0
Page head | g=1 x=0"
expect_text "odf2xliff reads every paragraph translated, fewer codes" got.txt \
  "[óf Sóúp spáñs ~~~~] | g=0 x=0
[Sávé Préss áñd ñów thé séé síté. ~~~~~~~~~~] | g=3 x=0
[spáçés,á Twóbréák táb,á á &amp; márk. ~~~~~~~~~~~] | g=3 x=1
[héré. Ñótéd ~~~~] | g=0 x=1
1 | g=0 x=0
[ñóté Thé téxt. ~~~~~] | g=0 x=0
[çéll Á ~~] | g=0 x=0
[ítém Áñ ~~~] | g=0 x=0
[thé Séé bóx. ~~~~] | g=0 x=1
[wórds Bóxéd ~~~~] | g=0 x=0
[twíçé. Sáíd ~~~~] | g=0 x=1
[çómméñt Á héré ~~~~~] | g=0 x=0
[héád Págé ~~~] | g=0 x=0"
entry out.odt content.xml out.xml
check "the two bold spans one, written with the first's style" grep -q -F \
  '<text:p text:style-name="P1">[<text:span text:style-name="T3">Sávé Préss áñd ñów</text:span> <text:a xlink:type="simple" xlink:href="http://example.com/">thé séé <text:span text:style-name="T5">síté.</text:span></text:a> ~~~~~~~~~~]</text:p>' \
  out.xml
check "spans of revision ids and a language: no span" grep -q -F \
  '<text:h text:style-name="Heading_20_1" text:outline-level="1">[óf Sóúp spáñs ~~~~]</text:h>' \
  out.xml
check "the annotation translated, empty paragraphs left alone" grep -q -F \
  '<office:annotation><dc:creator>Ann</dc:creator><text:p>[çómméñt Á héré ~~~~~]</text:p></office:annotation> ~~~~]</text:p><text:p/><text:p>   </text:p>' \
  out.xml
$py styles out.odt >lang.txt
expect_text "the default paragraph style in the target language" lang.txt \
  'fo:language="es" fo:country="none"'
expect_exit 0 "a region" "$x" translate -q -s en -t es-MX --mt pseudo \
  in.odt -o mx.odt
$py styles mx.odt >lang.txt
expect_text "a region: the country" lang.txt \
  'fo:language="es" fo:country="MX"'

expect_exit 0 "identity translation" "$x" translate -q -s en -t es \
  --mt identity in.odt -o id.odt
check "identity: every entry byte for byte" all_same in.odt id.odt

for doc in TestDocument01 TestDocument06 bookmark-reference; do
  expect_exit 0 "$doc identity" "$x" translate -q -s en -t es \
    --mt identity "$office/$doc.odt" -o "$doc.id.odt"
  entry "$office/$doc.odt" content.xml a.xml
  entry "$doc.id.odt" content.xml b.xml
  check "$doc identity: content.xml byte for byte" cmp -s a.xml b.xml
  check "$doc identity: every entry byte for byte" all_same "$office/$doc.odt" \
    "$doc.id.odt"
  expect_exit 0 "$doc pseudo" "$x" translate -q -s en -t es --mt pseudo \
    "$office/$doc.odt" -o "$doc.odt"
  check "$doc pseudo: other entries byte for byte" $py same \
    "$office/$doc.odt" "$doc.odt"
  units "$doc.odt" got.txt
  grep -c '^\[' got.txt >count.txt
  case $doc in
  TestDocument01) n=46 ;;
  TestDocument06) n=4 ;;
  *) n=2 ;;
  esac
  expect_text "$doc pseudo: odf2xliff reads $n paragraphs translated" \
    count.txt "$n"
done
# what odf2xliff reads of TestDocument01 that is not ours: the note
# citations, fields (title, subject...) (its annotation, its header and
# footer, in styles.xml, and meta.xml's title, subject, description and
# keywords are translated)
units TestDocument01.odt got.txt
grep -v '^\[' got.txt >other.txt
expect_text "TestDocument01: what is left as it was" other.txt \
  "1 | g=0 x=0
N | g=0 x=0
Subject text | g=0 x=0
Title of the Document | g=0 x=0
Title of the Document | g=0 x=0
Comments | g=0 x=0
Subject text | g=0 x=0
Keyword text | g=0 x=0"
grep -F 'wíth Párágráph' got.txt | sed -n 1p >first.txt
expect_text "TestDocument01: bold, italic, both: 4 codes as in the source" \
  first.txt \
  "[wíth Párágráph ítálíçs, bóld, bóth. áñd ~~~~~~~~~~~~] | g=4 x=0"

$py make tpl.ott template || exit 99
expect_exit 0 "a template (.ott)" "$x" translate -q -s en -t es --mt pseudo \
  tpl.ott -o tpl.out.ott
units tpl.out.ott got.txt
sed -n 1p got.txt >first.txt
expect_text "a template: translated" first.txt "[óf Sóúp spáñs ~~~~] | g=0 x=0"

# a picture's alternative text (svg:title, svg:desc) and meta.xml's
# title, subject, description and keywords are units
$py make alt.odt alt || exit 99
expect_exit 0 "alternative text and meta.xml: pseudo" "$x" translate -q -s en \
  -t es --mt pseudo alt.odt -o alt.out.odt
entry alt.out.odt content.xml alt.xml
grep -o '<svg:title>.*</svg:desc>' alt.xml >alt.txt
expect_text "a picture's title and description translated" alt.txt \
  '<svg:title>[lógó Çómpáñý ~~~~]</svg:title><svg:desc>[blúé Á &amp; çírçlé stár. á ~~~~~~~]</svg:desc>'
entry alt.out.odt meta.xml meta.xml
grep -o '<office:meta>.*</office:meta>' meta.xml >meta.txt
expect_text "meta.xml's title, subject, description and keyword translated" \
  meta.txt \
  '<office:meta><meta:generator>Hand</meta:generator><dc:title>[répórt Áññúál ~~~~]</dc:title><dc:subject>[Sálés ~~]</dc:subject><dc:description>[óf Fígúrés ýéár. thé ~~~~~~]</dc:description><meta:keyword>[sálés ~~]</meta:keyword><dc:language>en-US</dc:language></office:meta>'
expect_exit 0 "alternative text and meta.xml: identity" "$x" translate -q \
  -s en -t es --mt identity alt.odt -o alt.id.odt
check "alternative text and meta.xml: identity, every entry byte for byte" \
  all_same alt.odt alt.id.odt

# automatic styles: those translated text alone is in say the target
# language (P1 its fo:language and fo:country, T1 its RFC tag too; P2 a
# style:text-properties after its paragraph properties, the empty P3 one
# of its own; the header's MP1 in styles.xml); the -asian and -complex
# ones stay, the target's script being Western. T2 and P4, which
# deleted text (a tracked change's, not translated) is in too, stay as
# they were. A
# Japanese target: the -asian ones, the Western ones left. Identity:
# every entry byte for byte.
$py make lang.odt lang || exit 99
expect_exit 0 "automatic styles: pseudo" "$x" translate -q -s en -t es-ES \
  --mt pseudo lang.odt -o lang.out.odt
entry lang.out.odt content.xml lang.xml
echo >>lang.xml
ns='xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:officeooo="http://openoffice.org/2009/office" office:version="1.2"'
expect_text "automatic styles: content.xml" lang.xml \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<office:document-content $ns><office:automatic-styles><style:style style:name=\"P1\" style:family=\"paragraph\"><style:text-properties fo:language=\"es\" fo:country=\"ES\" style:language-asian=\"zh\" style:country-asian=\"CN\" style:language-complex=\"hi\" style:country-complex=\"IN\"/></style:style><style:style style:name=\"P2\" style:family=\"paragraph\"><style:paragraph-properties fo:text-align=\"center\"/><style:text-properties fo:language=\"es\" fo:country=\"ES\"/></style:style><style:style style:name=\"P3\" style:family=\"paragraph\" style:parent-style-name=\"Standard\"><style:text-properties fo:language=\"es\" fo:country=\"ES\"/></style:style><style:style style:name=\"P4\" style:family=\"paragraph\"><style:text-properties fo:language='en' fo:country='US'/></style:style><style:style style:name=\"T1\" style:family=\"text\"><style:text-properties fo:font-weight=\"bold\" fo:language=\"es\" fo:country=\"ES\" style:rfc-language-tag=\"es-ES\"/></style:style><style:style style:name=\"T2\" style:family=\"text\"><style:text-properties fo:font-style=\"italic\" fo:language=\"en\" fo:country=\"US\"/></style:style></office:automatic-styles><office:body><office:text><text:tracked-changes><text:changed-region text:id=\"ct1\"><text:deletion><office:change-info><dc:creator>Ann</dc:creator><dc:date>2024-01-01T00:00:00</dc:date></office:change-info><text:p text:style-name=\"P4\">A <text:span text:style-name=\"T2\">note</text:span></text:p></text:deletion></text:changed-region></text:tracked-changes><text:p text:style-name=\"P1\">[<text:span text:style-name=\"T1\">bóld</text:span> Çólóúr <text:span text:style-name=\"T2\">sláñtéd</text:span> áñd ~~~~~~~]</text:p><text:p text:style-name=\"P2\">[téxt Çéñtréd ~~~~]</text:p><text:p text:style-name=\"P3\">[téxt Pláíñ ~~~]<text:change text:change-id=\"ct1\"/></text:p><text:p text:style-name=\"P4\">[stýlé Képt ~~~]</text:p></office:text></office:body></office:document-content>"
entry lang.out.odt styles.xml lang-styles.xml
grep -o '<office:automatic-styles>.*</office:automatic-styles>' \
  lang-styles.xml >got.txt
expect_text "automatic styles: the header's, in styles.xml" got.txt \
  '<office:automatic-styles><style:style style:name="MP1" style:family="paragraph"><style:text-properties fo:language="es" fo:country="ES"/></style:style></office:automatic-styles>'
expect_exit 0 "automatic styles: a Japanese target" "$x" translate -q -s en \
  -t ja --mt pseudo lang.odt -o lang.ja.odt
entry lang.ja.odt content.xml lang.xml
grep -o '<office:automatic-styles>.*</office:automatic-styles>' lang.xml \
  >got.txt
expect_text "automatic styles: a Japanese target, the -asian attributes" \
  got.txt \
  "<office:automatic-styles><style:style style:name=\"P1\" style:family=\"paragraph\"><style:text-properties fo:language=\"en\" fo:country=\"US\" style:language-asian=\"ja\" style:country-asian=\"none\" style:language-complex=\"hi\" style:country-complex=\"IN\"/></style:style><style:style style:name=\"P2\" style:family=\"paragraph\"><style:paragraph-properties fo:text-align=\"center\"/><style:text-properties style:language-asian=\"ja\"/></style:style><style:style style:name=\"P3\" style:family=\"paragraph\" style:parent-style-name=\"Standard\"><style:text-properties style:language-asian=\"ja\"/></style:style><style:style style:name=\"P4\" style:family=\"paragraph\"><style:text-properties fo:language='en' fo:country='US'/></style:style><style:style style:name=\"T1\" style:family=\"text\"><style:text-properties fo:font-weight=\"bold\" fo:language=\"en\" fo:country=\"US\" style:rfc-language-tag=\"en-US\" style:language-asian=\"ja\"/></style:style><style:style style:name=\"T2\" style:family=\"text\"><style:text-properties fo:font-style=\"italic\" fo:language=\"en\" fo:country=\"US\"/></style:style></office:automatic-styles>"
expect_exit 0 "automatic styles: identity" "$x" translate -q -s en -t es-ES \
  --mt identity lang.odt -o lang.id.odt
check "automatic styles: identity, every entry byte for byte" \
  all_same lang.odt lang.id.odt

# the content decides, not the name
cp in.odt page.html
expect_exit 0 "an .odt named .html is OpenDocument" "$x" translate -q -s en \
  -t es --mt pseudo page.html -o page.out
entry page.out content.xml page.xml
check "an .odt named .html: translated as the .odt" same_xml page.xml

$py make nocontent.odt nocontent || exit 99
refused "no content.xml" \
  "xliffmt: nocontent.odt: the OpenDocument text has no entry 'content.xml'" \
  -s en -t es --mt pseudo nocontent.odt
$py make broken.odt broken || exit 99
refused "content.xml not well-formed" \
  "xliffmt: broken.odt: entry 'content.xml', line 2, column 820: not well-formed XML: unclosed token" \
  -s en -t es --mt pseudo broken.odt
$py make doctype.odt doctype || exit 99
refused "a doctype in content.xml" \
  "xliffmt: doctype.odt: entry 'content.xml', line 2, column 13: a doctype is not read in an OpenDocument part" \
  -s en -t es --mt pseudo doctype.odt
$py make deep.odt deep || exit 99
refused "spans 40 deep" \
  "xliffmt: deep.odt: entry 'content.xml', line 2, column 2152: spans nested over 32 deep are not read" \
  -s en -t es --mt pseudo deep.odt
$py notodt sheet.ods || exit 99
refused "an OpenDocument spreadsheet" \
  "xliffmt: sheet.ods: an OpenDocument file but not a text: its mimetype entry names another kind" \
  -s en -t es --mt pseudo sheet.ods
refused "no source language" \
  "xliffmt: in.odt: give the source language of an OpenDocument text with -s" \
  -t es --mt pseudo in.odt

expect_exit 0 "standard input" sh -c \
  "\"$x\" translate -q -s en -t es --mt pseudo - -o stdin.odt <in.odt"
entry stdin.odt content.xml stdin.xml
check "standard input: translated as the file is" same_xml stdin.xml

expect_exit 0 "check" sh -c "\"$x\" check -s en in.odt >check.txt"
grep -e 'OpenDocument' -e 'inline codes' -e '  units' check.txt >got.txt
expect_text "check: read as an OpenDocument text, its units and codes" \
  got.txt "in.odt: OpenDocument text, as XLIFF 1.2, UTF-8
  units              12 (12 translatable, 0 with target)
  inline codes       g=3 x=7 bx=0 ex=0 bpt=0 ept=0 ph=0 it=0 mrk=0 other=0"
expect_exit 0 "report" "$x" report -s en -t es in.odt -o report.html
check "report: a row of the text box's paragraph" grep -q -F 'Boxed words' \
  report.html
mkdir docs && cp in.odt docs/a.odt || exit 99
expect_exit 0 "batch" "$x" batch -q -s en -t es --mt pseudo docs -o outdir
entry outdir/a.odt content.xml batch.xml
check "batch: translated as translate does" same_xml batch.xml

finish
