#!/bin/sh
# test_hostile_round15.sh: exit 0 means the output is right.
#   - translate of a Word document with ruby (w:ruby: a base, w:rubyBase,
#     and its reading above it, w:rt, as Japanese furigana are written):
#     the base's text translated with its sentence, the ruby a pair of
#     codes around it whose open keeps the reading (the whole ruby was
#     an isolated code, its base left in the source language, exit 0;
#     a paragraph of ruby alone was no unit at all). The same for an
#     OpenDocument text's text:ruby (text:ruby-base, text:ruby-text).
#     The reading stays a code, not a unit: it says how the source's
#     word is read, has no sense apart from it, and an engine given it
#     alone makes up a word; kept over the translated base, a reviewer
#     sees it and removes it or writes the target's own.
#   - translate of a Word document with a picture whose second copy of
#     its alternative text (pic:cNvPr's descr and title, which Word
#     keeps in step with wp:docPr's and LibreOffice reads) and a legacy
#     VML picture (w:pict: v:shape's alt, v:imagedata's o:title): each
#     value a unit, as wp:docPr's are (they were left in the source
#     language, exit 0); extract lists them, merge puts them back.
#   - translate of an OpenDocument text with a placeholder
#     (text:placeholder: the prompt the document shows, "<Your name>"):
#     its text translated with its sentence, the placeholder a pair
#     around it (it was an isolated code, its text left in the source
#     language, exit 0). (Since round 18 its text:description, the
#     tooltip, is a unit too: test_hostile_round18.sh.)
#   - translate of an HTML page with an inline svg outside running text:
#     its text (text, tspan in it), title and desc translated, each a
#     unit, its other elements and a text saying translate="no" kept
#     (the svg was skipped whole: a chart's labels and the title a screen
#     reader says were left in the source language, exit 0). An svg in
#     running text stays one code of its sentence, untranslated.
#   - translate of an HTML page with an iframe whose srcdoc holds a page
#     (text in an attribute, shown in the frame): refused, naming it,
#     no output (it was left in the source language, exit 0); with
#     translate="no" on the iframe, or a srcdoc with no text, kept.
#     Translating it as a page of its own is the better answer (done
#     since round 21: test_hostile_round21.sh).
#   - translate of an HTML page with attributes of elements whose content
#     is not translated: a textarea's placeholder and title, an iframe's
#     title, an svg's aria-label in running text: translated as an
#     input's are (they were left in the source language, exit 0). (Since
#     round 18 a textarea's content and the title of an svg in running
#     text are units too: test_hostile_round18.sh.)
#   - translate of a Word document with a chart (word/charts/chart1.xml:
#     a:t of its title, c:v of its string caches and of a series' name)
#     and a SmartArt diagram (word/diagrams/data1.xml's a:t and the copy
#     Word draws from, drawing1.xml): each text a unit, alike in both
#     SmartArt parts (they were left in the source language, exit 0);
#     a number cache kept. (Since round 18 a DrawingML paragraph is one
#     unit, its runs' lang set: test_hostile_round18.sh.)
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3 unzip
cli_setup hostile-round15
x=$XLIFFMT
. "$(dirname "$0")/office_lib.sh"

# --- Ruby in Word.
rt='<w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>kan ji</w:t></w:r></w:rt>'
word "$tmp/ruby.docx" "<w:p><w:r><w:t xml:space=\"preserve\">Read the </w:t></w:r><w:r><w:ruby>$rt<w:rubyBase><w:r><w:t>strange word</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:t xml:space=\"preserve\"> aloud.</w:t></w:r></w:p><w:p><w:r><w:ruby>$rt<w:rubyBase><w:r><w:t>Alone here</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p>"
within "Word, ruby" 0 20 300 "$x" translate -q --mt pseudo -s en -t es \
  "$tmp/ruby.docx" -o "$tmp/ruby.es.docx"
opens "$tmp/ruby.es.docx"
body "$tmp/ruby.es.docx" >"$tmp/got"
expect_text "Word, ruby: the base translated, the reading kept" "$tmp/got" \
  '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve">[thé Réád </w:t></w:r><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>kan ji</w:t></w:r></w:rt><w:rubyBase><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>wórd stráñgé</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> álóúd. ~~~~~~~~~]</w:t></w:r></w:p><w:p><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>kan ji</w:t></w:r></w:rt><w:rubyBase><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[héré Álóñé ~~~]</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p></w:body></w:document>'
within "Word, ruby: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ruby.docx" -o "$tmp/ruby.xlf"
grep '<source' "$tmp/ruby.xlf" >"$tmp/got"
expect_text "Word, ruby: extract" "$tmp/got" '<source>Read the <g id="1" ctype="x-w-ruby">strange word</g> aloud.</source>
<source>Alone here</source>'
merged "$tmp/ruby.docx" "$tmp/ruby.xlf" "$tmp/ruby.m.docx"
opens "$tmp/ruby.m.docx"
body "$tmp/ruby.m.docx" >"$tmp/got"
if shown "$tmp/ruby.es.docx"; then
  expect_text "Word, ruby: LibreOffice shows the translation" "$tmp/shown" \
    '[thé Réád wórd stráñgé álóúd. ~~~~~~~~~]
[héré Álóñé ~~~]'
fi
expect_text "Word, ruby: merged" "$tmp/got" '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve">ES Read the </w:t></w:r><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>kan ji</w:t></w:r></w:rt><w:rubyBase><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>strange word</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> aloud.</w:t></w:r></w:p><w:p><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:rPr><w:sz w:val="10"/></w:rPr><w:t>kan ji</w:t></w:r></w:rt><w:rubyBase><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>ES Alone here</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p></w:body></w:document>'

# --- Ruby in an OpenDocument text.
odt "$tmp/ruby.odt" '<text:p>Read the <text:ruby text:style-name="Ru1"><text:ruby-base>strange word</text:ruby-base><text:ruby-text>kan ji</text:ruby-text></text:ruby> aloud.</text:p><text:p><text:ruby> <text:ruby-base>Alone here</text:ruby-base> <text:ruby-text>kan ji</text:ruby-text></text:ruby></text:p>'
within "ODT, ruby" 0 20 300 "$x" translate -q --mt pseudo -s en -t es \
  "$tmp/ruby.odt" -o "$tmp/ruby.es.odt"
unzip -tq "$tmp/ruby.es.odt" >/dev/null 2>&1 || fail "ODT, ruby: unzip -t"
content "$tmp/ruby.es.odt" >"$tmp/got"
expect_text "ODT, ruby: the base translated, the reading kept" "$tmp/got" \
  '<office:text><text:p>[thé Réád <text:ruby text:style-name="Ru1"><text:ruby-base>wórd stráñgé</text:ruby-base><text:ruby-text>kan ji</text:ruby-text></text:ruby> álóúd. ~~~~~~~~~]</text:p><text:p><text:ruby> <text:ruby-base>[héré Álóñé ~~~]</text:ruby-base> <text:ruby-text>kan ji</text:ruby-text></text:ruby></text:p>'
within "ODT, ruby: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ruby.odt" -o "$tmp/ruby.o.xlf"
grep '<source' "$tmp/ruby.o.xlf" >"$tmp/got"
expect_text "ODT, ruby: extract" "$tmp/got" '<source>Read the <g id="1" ctype="x-odt-ruby">strange word</g> aloud.</source>
<source><g id="1" ctype="x-odt-ruby">Alone here</g></source>'
merged "$tmp/ruby.odt" "$tmp/ruby.o.xlf" "$tmp/ruby.m.odt"
content "$tmp/ruby.m.odt" >"$tmp/got"
if shown "$tmp/ruby.es.odt"; then
  expect_text "ODT, ruby: LibreOffice shows the translation" "$tmp/shown" \
    '[thé Réád wórd stráñgé álóúd. ~~~~~~~~~]
[héré Álóñé ~~~]'
fi
expect_text "ODT, ruby: merged" "$tmp/got" '<office:text><text:p>ES Read the <text:ruby text:style-name="Ru1"><text:ruby-base>strange word</text:ruby-base><text:ruby-text>kan ji</text:ruby-text></text:ruby> aloud.</text:p><text:p>ES <text:ruby> <text:ruby-base>Alone here</text:ruby-base> <text:ruby-text>kan ji</text:ruby-text></text:ruby></text:p>'

# --- A picture's second alternative text; VML pictures.
pic='<w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="A red boat" title="Boat photo"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="boat.png" descr="A red boat" title="Boat photo"/><pic:cNvPicPr/></pic:nvPicPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>'
vml='<w:r><w:pict><v:shape id="s1" style="width:10pt;height:10pt" alt="A green &amp; white flag"><v:imagedata r:id="rId7" o:title="Flag picture"/></v:shape></w:pict></w:r>'
word "$tmp/alt.docx" "<w:p><w:r><w:t>See the boat.</w:t></w:r>$pic</w:p><w:p>$vml<w:r><w:t>See the flag.</w:t></w:r></w:p>"
within "Word, pic:cNvPr and VML alternative text" 0 20 300 "$x" translate \
  -q --mt pseudo -s en -t es "$tmp/alt.docx" -o "$tmp/alt.es.docx"
opens "$tmp/alt.es.docx"
body "$tmp/alt.es.docx" >"$tmp/got"
expect_text "Word, pic:cNvPr and VML alternative text: translated" "$tmp/got" \
  '<w:body><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[thé Séé bóát. ~~~~]</w:t></w:r><w:r><w:drawing><wp:inline><wp:extent cx="10" cy="10"/><wp:docPr id="1" name="Picture 1" descr="[réd Á bóát ~~~]" title="[phótó Bóát ~~~]"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="boat.png" descr="[réd Á bóát ~~~]" title="[phótó Bóát ~~~]"/><pic:cNvPicPr/></pic:nvPicPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:pict><v:shape id="s1" style="width:10pt;height:10pt" alt="[grééñ Á whíté &amp; flág ~~~~~~]"><v:imagedata r:id="rId7" o:title="[píçtúré Flág ~~~~]"/></v:shape></w:pict></w:r><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[thé Séé flág. ~~~~]</w:t></w:r></w:p></w:body></w:document>'
within "Word, pic:cNvPr and VML alternative text: extract" 0 20 300 "$x" \
  extract -q -s en "$tmp/alt.docx" -o "$tmp/alt.xlf"
grep '<source' "$tmp/alt.xlf" >"$tmp/got"
expect_text "Word, pic:cNvPr and VML alternative text: extract" "$tmp/got" '<source>Boat photo</source>
<source>A red boat</source>
<source>Boat photo</source>
<source>A red boat</source>
<source>See the boat.</source>
<source>A green &amp; white flag</source>
<source>Flag picture</source>
<source>See the flag.</source>'
merged "$tmp/alt.docx" "$tmp/alt.xlf" "$tmp/alt.m.docx"
opens "$tmp/alt.m.docx"
body "$tmp/alt.m.docx" |
  grep -o 'descr="[^"]*"\|title="[^"]*"\|alt="[^"]*"' >"$tmp/got"
expect_text "Word, pic:cNvPr and VML alternative text: merged" "$tmp/got" 'descr="ES A red boat"
title="ES Boat photo"
descr="ES A red boat"
title="ES Boat photo"
alt="ES A green &amp; white flag"
title="ES Flag picture"'

# --- A placeholder in an OpenDocument text.
odt "$tmp/ph.odt" '<text:p>Dear <text:placeholder text:placeholder-type="text" text:description="The name">&lt;Your name&gt;</text:placeholder>, welcome.</text:p>'
within "ODT, a placeholder" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/ph.odt" -o "$tmp/ph.es.odt"
unzip -tq "$tmp/ph.es.odt" >/dev/null 2>&1 || fail "ODT, placeholder: unzip -t"
content "$tmp/ph.es.odt" >"$tmp/got"
expect_text "ODT, a placeholder: its prompt translated" "$tmp/got" '<office:text><text:p>[<text:placeholder text:placeholder-type="text" text:description="[ñámé Thé ~~~]">&lt;Ýóúr Déár wélçómé. ñámé&gt;,</text:placeholder> ~~~~~~~~]</text:p>'
if shown "$tmp/ph.es.odt"; then
  expect_text "ODT, a placeholder: LibreOffice shows the translation" \
    "$tmp/shown" '[<Ýóúr Déár wélçómé. ñámé>,> ~~~~~~~~]'
fi
within "ODT, a placeholder: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ph.odt" -o "$tmp/ph.xlf"
grep '<source' "$tmp/ph.xlf" >"$tmp/got"
expect_text "ODT, a placeholder: extract" "$tmp/got" '<source>Dear <g id="1" ctype="x-odt-placeholder">&lt;Your name></g>, welcome.</source>
<source>The name</source>'
merged "$tmp/ph.odt" "$tmp/ph.xlf" "$tmp/ph.m.odt"
content "$tmp/ph.m.odt" >"$tmp/got"
expect_text "ODT, a placeholder: merged" "$tmp/got" '<office:text><text:p>ES Dear <text:placeholder text:placeholder-type="text" text:description="ES The name">&lt;Your name&gt;</text:placeholder>, welcome.</text:p>'

# --- Inline SVG.
cat >"$tmp/svg.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Before the chart.</p><svg viewBox="0 0 100 50" role="img" aria-label="Sales chart"><title>Sales by year</title><desc>Bars for each year</desc><g><rect width="10" height="10"/><text x="5" y="20">Total <tspan font-weight="bold">sales</tspan> grew</text><text x="5" y="40" translate="no">ACME</text><text x="5" y="45"/></g></svg><p>After <svg width="8" height="8"><title>An icon</title></svg> it.</p></body></html>
EOD
within "HTML, inline svg" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/svg.html" -o "$tmp/svg.es.html"
expect_text "HTML, inline svg: its text translated" "$tmp/svg.es.html" '<!DOCTYPE html><html lang="es"><body><p>[thé Béfóré çhárt. ~~~~~~]</p><svg viewBox="0 0 100 50" role="img" aria-label="[çhárt Sálés ~~~~]"><title>[bý Sálés ýéár ~~~~]</title><desc>[fór Bárs ýéár éáçh ~~~~~~]</desc><g><rect width="10" height="10"/><text x="5" y="20">[<tspan font-weight="bold">sálés</tspan> Tótál gréw ~~~~~]</text><text x="5" y="40" translate="no">ACME</text><text x="5" y="45"/></g></svg><p>[<svg width="8" height="8"><title>[íçóñ Áñ ~~~]</title></svg>ít. Áftér ~~~]</p></body></html>'
within "HTML, inline svg: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/svg.html" -o "$tmp/svg.xlf"
grep '<source' "$tmp/svg.xlf" >"$tmp/got"
expect_text "HTML, inline svg: extract" "$tmp/got" '<source>Before the chart.</source>
<source>Sales chart</source>
<source>Sales by year</source>
<source>Bars for each year</source>
<source>Total <g id="1" ctype="x-html-tspan">sales</g> grew</source>
<source>An icon</source>
<source>After <x id="1" ctype="x-html-svg"/> it.</source>'
merged "$tmp/svg.html" "$tmp/svg.xlf" "$tmp/svg.m.html"
expect_text "HTML, inline svg: merged" "$tmp/svg.m.html" '<!DOCTYPE html><html lang="es"><body><p>ES Before the chart.</p><svg viewBox="0 0 100 50" role="img" aria-label="ES Sales chart"><title>ES Sales by year</title><desc>ES Bars for each year</desc><g><rect width="10" height="10"/><text x="5" y="20">ES Total <tspan font-weight="bold">sales</tspan> grew</text><text x="5" y="40" translate="no">ACME</text><text x="5" y="45"/></g></svg><p>ES After <svg width="8" height="8"><title>ES An icon</title></svg> it.</p></body></html>'

# --- An iframe's srcdoc.
cat >"$tmp/src.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Hello.</p><iframe title="Demo" srcdoc="&lt;p&gt;Inside the frame.&lt;/p&gt;"></iframe></body></html>
EOD
within "HTML, iframe srcdoc: translated (round 21)" 0 20 300 "$x" translate \
  -q --mt pseudo -s en -t es "$tmp/src.html" -o "$tmp/src.es.html"
expect_text "HTML, iframe srcdoc: its page translated" "$tmp/src.es.html" \
  '<!DOCTYPE html><html lang="es"><body><p>[Hélló. ~~]</p><iframe title="[Démó ~~]" srcdoc="&lt;p&gt;[thé Íñsídé frámé. ~~~~~~]&lt;/p&gt;"></iframe></body></html>'
cat >"$tmp/src2.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><iframe srcdoc="&lt;p&gt; &lt;/p&gt;"></iframe><div translate="no"><iframe title="Kept" srcdoc="&lt;p&gt;Kept.&lt;/p&gt;"></iframe></div><iframe title="Demo &amp; more" translate="no" srcdoc="Kept too"></iframe><p>Type: <textarea placeholder="Your text">x</textarea></p><textarea title="Notes here" placeholder="Write &amp; send">Body text</textarea><p>A <svg aria-label="Star icon"><title>Star</title></svg> here.</p><iframe title="A frame"></iframe></body></html>
EOD
within "HTML, attributes of untranslated elements" 0 20 300 "$x" translate \
  -q --mt pseudo -s en -t es "$tmp/src2.html" -o "$tmp/src2.es.html"
expect_text "HTML, attributes of untranslated elements: translated" \
  "$tmp/src2.es.html" '<!DOCTYPE html><html lang="es"><body><iframe srcdoc="&lt;p&gt; &lt;/p&gt;"></iframe><div translate="no"><iframe title="Kept" srcdoc="&lt;p&gt;Kept.&lt;/p&gt;"></iframe></div><iframe title="Demo &amp; more" translate="no" srcdoc="Kept too"></iframe><p>[Týpé: ~~] <textarea placeholder="[téxt Ýóúr ~~~]">[x ~]</textarea></p><textarea title="[héré Ñótés ~~~]" placeholder="[&amp; Wríté séñd ~~~~]">[téxt Bódý ~~~]</textarea><p>[<svg aria-label="[íçóñ Stár ~~~]"><title>[Stár ~~]</title></svg>héré. Á ~~~]</p><iframe title="[frámé Á ~~~]"></iframe></body></html>'

# --- A chart and a SmartArt diagram.
"$py" - "$tmp/chart.docx" <<'EOD' || exit 99
import sys, zipfile
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
P = "http://schemas.openxmlformats.org/package/2006/"
O = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
D = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
S = "http://schemas.microsoft.com/office/drawing/2008/diagram"
CT = "application/vnd.openxmlformats-officedocument."
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml",
               '<Types xmlns="%scontent-types"><Default Extension="rels" '
               'ContentType="application/vnd.openxmlformats-package.'
               'relationships+xml"/><Default Extension="xml" ContentType='
               '"application/xml"/><Override PartName="/word/document.xml" '
               'ContentType="%swordprocessingml.document.main+xml"/>'
               '<Override PartName="/word/charts/chart1.xml" ContentType='
               '"%sdrawingml.chart+xml"/><Override PartName="/word/diagrams/'
               'data1.xml" ContentType="%sdrawingml.diagramData+xml"/>'
               '<Override PartName="/word/diagrams/drawing1.xml" ContentType='
               '"application/vnd.ms-office.drawingml.diagramDrawing+xml"/>'
               "</Types>" % (P, CT, CT, CT))
    z.writestr("_rels/.rels",
               '<Relationships xmlns="%srelationships"><Relationship '
               'Id="rId1" Type="%s/officeDocument" Target="word/document.xml"'
               '/></Relationships>' % (P, O))
    z.writestr("word/_rels/document.xml.rels",
               '<Relationships xmlns="%srelationships">'
               '<Relationship Id="rId5" Type="%s/chart" '
               'Target="charts/chart1.xml"/>'
               '<Relationship Id="rId6" Type="%s/diagramData" '
               'Target="diagrams/data1.xml"/>'
               '<Relationship Id="rId7" Type="http://schemas.microsoft.com/'
               'office/2007/relationships/diagramDrawing" '
               'Target="diagrams/drawing1.xml"/></Relationships>' % (P, O, O))
    z.writestr("word/document.xml",
               '<w:document xmlns:w="%s"><w:body><w:p><w:r><w:t>See the '
               "chart.</w:t></w:r></w:p></w:body></w:document>" % W)
    z.writestr("word/charts/chart1.xml",
               '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               '<c:chartSpace xmlns:c="%s" xmlns:a="%s"><c:chart><c:title>'
               "<c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales by year</a:t>"
               "</a:r></a:p></c:rich></c:tx></c:title><c:plotArea>"
               "<c:barChart><c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f>"
               '<c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>North '
               "region</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat>"
               '<c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:pt idx="0">'
               "<c:v>First quarter</c:v></c:pt></c:strCache></c:strRef>"
               '</c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>4.3'
               "</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>"
               "<c:ser><c:tx><c:v>South region</c:v></c:tx></c:ser>"
               "</c:barChart></c:plotArea></c:chart></c:chartSpace>" % (C, A))
    z.writestr("word/diagrams/data1.xml",
               '<dgm:dataModel xmlns:dgm="%s" xmlns:a="%s"><dgm:ptLst>'
               '<dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:t>Plan '
               "the work</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst>"
               "</dgm:dataModel>" % (D, A))
    z.writestr("word/diagrams/drawing1.xml",
               '<dsp:drawing xmlns:dsp="%s" xmlns:a="%s"><dsp:spTree><dsp:sp>'
               "<dsp:txBody><a:bodyPr/><a:p><a:r><a:t>Plan the work</a:t>"
               "</a:r></a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>"
               % (S, A))
EOD
within "Word, a chart and a SmartArt" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/chart.docx" -o "$tmp/chart.es.docx"
opens "$tmp/chart.es.docx"
"$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in ("word/charts/chart1.xml", "word/diagrams/data1.xml",
          "word/diagrams/drawing1.xml"):
    s = z.read(n).decode()
    print(s[s.index("<", s.index("?>") + 2 if "?>" in s else 0):])' \
  "$tmp/chart.es.docx" >"$tmp/got"
expect_text "Word, a chart and a SmartArt: their text translated" "$tmp/got" \
  '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>[bý Sálés ýéár ~~~~]</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>[régíóñ Ñórth ~~~~]</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:pt idx="0"><c:v>[qúártér Fírst ~~~~]</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>4.3</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser><c:ser><c:tx><c:v>[régíóñ Sóúth ~~~~]</c:v></c:tx></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>
<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst><dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>[thé Pláñ wórk ~~~~]</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>
<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:sp><dsp:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>[thé Pláñ wórk ~~~~]</a:t></a:r></a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>'
within "Word, a chart and a SmartArt: extract" 0 20 300 "$x" extract -q \
  -s en "$tmp/chart.docx" -o "$tmp/chart.xlf"
grep '<source' "$tmp/chart.xlf" >"$tmp/got"
expect_text "Word, a chart and a SmartArt: extract" "$tmp/got" '<source>See the chart.</source>
<source>Sales by year</source>
<source>North region</source>
<source>First quarter</source>
<source>South region</source>
<source>Plan the work</source>
<source>Plan the work</source>'
merged "$tmp/chart.docx" "$tmp/chart.xlf" "$tmp/chart.m.docx"
opens "$tmp/chart.m.docx"
"$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(z.read("word/diagrams/drawing1.xml").decode())' "$tmp/chart.m.docx" \
  >"$tmp/got"
expect_text "Word, a chart and a SmartArt: merged" "$tmp/got" '<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree><dsp:sp><dsp:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="es"/><a:t>ES Plan the work</a:t></a:r></a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>'

finish
