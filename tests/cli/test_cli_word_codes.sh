#!/bin/sh
# test_cli_word_codes.sh: the fewest codes a Word paragraph can have, its
# formatting kept. On the document `word_docx.py codes` makes: a field
# (begin, instruction, separate, result, end) is one pair around its
# result, and fldSimple one pair even when its run is styled; a field
# with no result and an empty bookmark (_GoBack) one isolated code; codes
# at a paragraph's edges that hold no text (a bookmark, a tab, a link or
# a field around the whole paragraph) are not in the unit; a link whose
# one run is styled one pair. Identity translation gives every entry
# byte for byte; a translation writes every code's bytes back, the edge
# codes around the text; extract, translate and merge give translate's
# bytes. The base properties (text written as it is, not in a code) are
# those that leave the fewest codes, not those of most of the text:
# "Click <b>See Me and My Ancestors</b>." is one code around the bold
# words, and italic text around a link whose one run is plain leaves the
# link its one code. Runs whose properties differ only in the id of
# their tracked change (w:rPrChange) are one run; w:lang goes before the
# change, as the schema orders them. Revision ids stay unique in the
# package: properties with a tracked change written on several runs take
# new ids after the first, above every w:id of every part.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes the test documents)" python3
cli_setup word_codes
x=$XLIFFMT
here=$(cd "$(dirname "$0")" && pwd)
py="python3 $here/word_docx.py"
cd "$tmp" || exit 99
$py codes codes.docx || exit 99

expect_exit 0 "extract" "$x" extract -s en -t fr codes.docx -o codes.xlf
expect_text "extract: message" "$tmp/err" \
  "xliffmt: codes.docx: 9 units, 8 inline codes extracted"
grep '<source>' codes.xlf >sources.txt
expect_text "extract: the sources, their codes" sources.txt \
  '<source>Total: <g id="1" ctype="x-w-fldChar">3</g> pages</source>
<source>Date <g id="1" ctype="x-w-fldSimple">today</g> here</source>
<source>Before<x id="1" ctype="x-w-fldChar"/>after</source>
<source>Go<x id="1" ctype="x-w-bookmarkStart"/>back</source>
<source>Start<x id="1" ctype="lb"/>End</source>
<source>Whole link</source>
<source>See <g id="1" ctype="link">the site</g> now.</source>
<source>Introduction</source>
<source><g id="1" ctype="link"><g id="2" ctype="x-w-r">Bold</g> link</g> and more</source>'

# Identity: every entry byte for byte.
expect_exit 0 "identity" "$x" translate -q -s en -t fr --mt identity \
  codes.docx -o id.docx
unzip -p codes.docx word/document.xml >a.xml
unzip -p id.docx word/document.xml >b.xml
check "identity: document.xml byte for byte" cmp -s a.xml b.xml
check "identity: other entries byte for byte" $py same codes.docx id.docx

# Translated: each code's bytes back where its tag is; the edge codes
# around the text.
expect_exit 0 "pseudo" "$x" translate -q -s en -t fr --mt pseudo codes.docx \
  -o ps.docx
unzip -p ps.docx word/document.xml >ps.xml
F='<w:r><w:fldChar w:fldCharType="%s"/></w:r>'
I='<w:r><w:instrText xml:space="preserve"> %s </w:instrText></w:r>'
L='<w:rPr><w:lang w:val="fr"/></w:rPr>'
# has DESC BYTES: BYTES are in the translated document.xml.
has() { check "pseudo: $1" grep -q -F -e "$2" ps.xml; }
has "the field's begin..separate whole" \
  "$(printf "$F$I$F" begin NUMPAGES separate)<w:r>$L<w:t>3</w:t></w:r>$(printf "$F" end)"
has "a field with no result whole" \
  "$(printf "$F$I$F" begin 'RD "x.docx"' end)"
has "the empty bookmark whole" \
  '<w:bookmarkStart w:id="1" w:name="_GoBack"/><w:bookmarkEnd w:id="1"/>'
has "the codes before the text first" \
  "<w:p><w:bookmarkStart w:id=\"2\" w:name=\"a\"/><w:r><w:tab/></w:r><w:r>$L"
has "the code after the text last" '</w:r><w:bookmarkEnd w:id="2"/></w:p>'
has "the link around the paragraph" \
  "<w:p><w:hyperlink r:id=\"rId9\"><w:r>$L<w:t>"
has "the styled link's run" \
  '<w:hyperlink r:id="rId9"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/><w:lang w:val="fr"/></w:rPr><w:t>'
has "the styled field result" \
  '<w:fldSimple w:instr=" DATE "><w:r><w:rPr><w:i/><w:lang w:val="fr"/></w:rPr><w:t>'
has "the field around the paragraph" \
  "<w:p>$(printf "$F$I$F" begin 'REF intro \h' separate)<w:r>$L<w:t>"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \
  ps.xml
check "pseudo: well-formed" test $? -eq 0

# extract -> translate -> merge is translate, byte for byte.
expect_exit 0 "round: translate the XLIFF" "$x" translate -q codes.xlf \
  --mt pseudo -o codes.fr.xlf
expect_exit 0 "round: merge" "$x" merge -q codes.docx codes.fr.xlf -o m.docx
check "round: merge gives translate's bytes" cmp -s m.docx ps.docx

# The base properties: those of the most stretches of text outside a
# pair, so the fewest codes; the formatting of each stretch kept.
python3 - codes.docx base.docx <<'EOF' || exit 99
import re, sys, zipfile
B = ('<w:p><w:r><w:t xml:space="preserve">Click </w:t></w:r><w:r><w:rPr><w:b/></w:rPr>'
     '<w:t>See Me and My Ancestors</w:t></w:r><w:r><w:t>.</w:t></w:r></w:p>'
     '<w:p><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Read </w:t></w:r>'
     '<w:hyperlink r:id="rId9"><w:r><w:t>the long manual of the program</w:t></w:r>'
     '</w:hyperlink><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve"> today.</w:t>'
     '</w:r></w:p>'
     '<w:p><w:r><w:t xml:space="preserve">Now </w:t></w:r>' + ''.join(
         '<w:r><w:rPr><w:b/><w:rPrChange w:id="%d" w:author="A" '
         'w:date="2019-01-07T22:16:00Z"><w:rPr/></w:rPrChange></w:rPr>'
         '<w:t xml:space="preserve">%s</w:t></w:r>' % (i, t)
         for i, t in ((1, 'tracked '), (2, 'bold words'))) + '</w:p>')
zi = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as zo:
    for info in zi.infolist():
        data = zi.read(info)
        if info.filename == 'word/document.xml':
            data = re.sub(rb'<w:body>.*</w:body>',
                          b'<w:body>' + B.encode() + b'</w:body>', data,
                          flags=re.S)
        zo.writestr(info, data)
EOF
expect_exit 0 "base: extract" "$x" extract -s en -t fr base.docx -o base.xlf
expect_text "base: message" "$tmp/err" \
  "xliffmt: base.docx: 3 units, 3 inline codes extracted"
grep '<source>' base.xlf >sources.txt
expect_text "base: the sources, one code each" sources.txt \
  '<source>Click <g id="1" ctype="x-w-r">See Me and My Ancestors</g>.</source>
<source>Read <g id="1" ctype="link">the long manual of the program</g> today.</source>
<source><g id="1" ctype="x-w-r">Now </g>tracked bold words</source>'
expect_exit 0 "base: identity" "$x" translate -q -s en -t fr --mt identity \
  base.docx -o base.id.docx
unzip -p base.docx word/document.xml >a.xml
unzip -p base.id.docx word/document.xml >b.xml
check "base: identity, document.xml byte for byte" cmp -s a.xml b.xml
check "base: identity, other entries byte for byte" \
  $py same base.docx base.id.docx
expect_exit 0 "base: pseudo" "$x" translate -q -s en -t fr --mt pseudo \
  base.docx -o base.ps.docx
unzip -p base.ps.docx word/document.xml | sed -n -e 's|.*<w:body>||' \
  -e 's|</w:body>.*||p' >body.xml
echo >>body.xml # the part has no line end
# The pseudo engine moves the words; each code keeps its run's
# properties (bold; the link's plain run), the base text the base ones.
B='<w:rPr><w:b/><w:lang w:val="fr"/></w:rPr>'
I='<w:rPr><w:i/><w:lang w:val="fr"/></w:rPr>'
S='<w:t xml:space="preserve">'
# The tracked change of the bold runs: w:lang before it, as the schema
# orders them.
# The change's id is the first run's where it is first written; the
# second run written with it gets the first id above every w:id of the
# document (2), as revision ids are unique in a document.
C='<w:rPr><w:b/><w:lang w:val="fr"/><w:rPrChange w:id="%s" w:author="A" w:date="2019-01-07T22:16:00Z"><w:rPr/></w:rPrChange></w:rPr>'
C1=$(printf "$C" 1) C3=$(printf "$C" 3)
expect_text "base: pseudo, each run its properties" body.xml \
  "<w:p><w:r>$L<w:t>[</w:t></w:r><w:r>$B<w:t>Séé Çlíçk áñd Mé Áñçéstórs. Mý</w:t></w:r><w:r>$L$S ~~~~~~~~~]</w:t></w:r></w:p><w:p><w:r>$I<w:t>[</w:t></w:r><w:hyperlink r:id=\"rId9\"><w:r>$L<w:t>thé Réád máñúál lóñg thé óf tódáý. prógrám</w:t></w:r></w:hyperlink><w:r>$I$S ~~~~~~~~~~~~~]</w:t></w:r></w:p><w:p><w:r>$C1$S[tráçkéd </w:t></w:r><w:r>$L<w:t>Ñów</w:t></w:r><w:r>$C3$S wórds bóld ~~~~~~~]</w:t></w:r></w:p>"
expect_exit 0 "base: translate the XLIFF" "$x" translate -q base.xlf \
  --mt pseudo -o base.fr.xlf
expect_exit 0 "base: merge" "$x" merge -q base.docx base.fr.xlf -o base.m.docx
check "base: merge gives translate's bytes" cmp -s base.m.docx base.ps.docx

# Revision ids: a tracked change's markup the target writes more than
# once (the base properties of text on both sides of a code, or in an
# inserted run) keeps its id the first time and takes a new one each
# other time, above every w:id of every part (the header's 21), in the
# order the parts are written; an inserted run's w:ins is written once.
$py parts revs0.docx || exit 99
python3 - revs0.docx revs.docx <<'EOF' || exit 99
import re, sys, zipfile
CH = ('<w:rPrChange w:id="%d" w:author="A" w:date="2020-01-01T00:00:00Z">'
      '<w:rPr/></w:rPrChange>')
def run(props, ident, text):
    return ('<w:r><w:rPr>%s%s</w:rPr><w:t xml:space="preserve">%s</w:t></w:r>'
            % (props, CH % ident if ident else '', text))
BODY = ('<w:p>' + run('<w:i/>', 1, 'Some ') + '<w:ins w:id="2" w:author="A" '
        'w:date="2020-01-01T00:00:00Z">' + run('<w:i/>', 3, 'inserted ') +
        '</w:ins>' + run('<w:b/>', 0, 'bold') + run('<w:i/>', 4, ' text here')
        + '</w:p>')
HDR = ('<w:p>' + run('<w:b/>', 20, 'Annual ') + run('<w:i/>', 0, 'report') +
       run('<w:b/>', 21, ' for now') + '</w:p>')
zi = zipfile.ZipFile(sys.argv[1])
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as zo:
    for info in zi.infolist():
        data = zi.read(info)
        if info.filename == 'word/document.xml':
            data = re.sub(rb'<w:body>.*</w:body>',
                          b'<w:body>' + BODY.encode() + b'</w:body>', data,
                          flags=re.S)
        elif info.filename == 'word/header1.xml':
            data = re.sub(rb'<w:p>.*</w:p>', HDR.encode(), data, flags=re.S)
        zo.writestr(info, data)
EOF
# revids.py DOCX: the ids of the revision marks of each part that has
# some, in order, then those written more than once in the package.
cat >revids.py <<'EOF'
import re, sys, zipfile
REV = ('ins', 'del', 'moveFrom', 'moveTo', 'rPrChange', 'pPrChange',
       'sectPrChange', 'tblPrChange', 'tblPrExChange', 'trPrChange',
       'tcPrChange', 'tblGridChange', 'numberingChange', 'cellIns',
       'cellDel', 'cellMerge')
z = zipfile.ZipFile(sys.argv[1])
seen = {}
for n in z.namelist():
    if not n.endswith('.xml'):
        continue
    ids = re.findall(r'<w:(?:%s)\b[^>]*?\sw:id="(-?[0-9]+)"' % '|'.join(REV),
                     z.read(n).decode('utf-8'))
    if ids:
        print(n, ' '.join(ids))
    for i in ids:
        seen[i] = seen.get(i, 0) + 1
print('twice:', ' '.join(sorted((i for i in seen if seen[i] > 1), key=int))
      or 'none')
EOF
expect_exit 0 "revids: identity" "$x" translate -q -s en -t fr --mt identity \
  revs.docx -o revs.id.docx
unzip -p revs.docx word/document.xml >a.xml
unzip -p revs.id.docx word/document.xml >b.xml
check "revids: identity, document.xml byte for byte" cmp -s a.xml b.xml
check "revids: identity, other entries byte for byte" \
  $py same revs.docx revs.id.docx
expect_exit 0 "revids: pseudo" "$x" translate -q -s en -t fr --mt pseudo \
  revs.docx -o revs.ps.docx
python3 revids.py revs.ps.docx >ids.txt
expect_text "revids: each revision id once in the package" ids.txt \
  'word/document.xml 1 2 22 23 24
word/header1.xml 20 25
twice: none'
unzip -p revs.ps.docx word/document.xml | sed -n -e 's|.*<w:body>||' \
  -e 's|</w:body>.*||p' >body.xml
echo >>body.xml
C='<w:rPrChange w:id="%s" w:author="A" w:date="2020-01-01T00:00:00Z"><w:rPr/></w:rPrChange>'
P=' xml:space="preserve"'
R="<w:r><w:rPr><w:i/><w:lang w:val=\"fr\"/>$C</w:rPr><w:t%s>%s</w:t></w:r>"
expect_text "revids: pseudo, the runs with their ids" body.xml \
  "<w:p>$(printf "$R" 1 '' '[')<w:ins w:id=\"2\" w:author=\"A\" w:date=\"2020-01-01T00:00:00Z\">$(printf "$R" 22 '' 'íñsértéd')</w:ins>$(printf "$R" 23 "$P" ' Sómé téxt ')<w:r>$B<w:t>bóld</w:t></w:r>$(printf "$R" 24 "$P" ' héré ~~~~~~~~~]')</w:p>"
expect_exit 0 "revids: extract" "$x" extract -s en -t fr revs.docx -o revs.xlf
expect_exit 0 "revids: translate the XLIFF" "$x" translate -q revs.xlf \
  --mt pseudo -o revs.fr.xlf
expect_exit 0 "revids: merge" "$x" merge -q revs.docx revs.fr.xlf \
  -o revs.m.docx
check "revids: merge gives translate's bytes" cmp -s revs.m.docx revs.ps.docx

finish
