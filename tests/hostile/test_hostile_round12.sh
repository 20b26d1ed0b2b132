#!/bin/sh
# test_hostile_round12.sh: exit 0 means the output is right.
#   - translate of a Word document with a field nested in another's
#     instruction (IF { MERGEFIELD Gender } = "M" "Dear Sir" "Dear
#     Madam", as mail merges write it): the outer field's instruction,
#     the inner field's result in it included, kept as it was, the outer
#     result translated (the inner result was translated as text and the
#     outer field's begin, separate and end codes placed apart, words of
#     the sentence written into the IF's instruction or its end before
#     the inner field, exit 0). The same with a w:fldSimple in the
#     instruction: the IF one pair around its result (its begin and end
#     were two isolated codes, which an engine's word order can swap).
#   - translate of a Word document with a content control bound to a
#     document property (w:dataBinding, a cover page's title), at block
#     or run level: the binding left out of the control whose text is
#     translated (LibreOffice and Word show the bound property, which is
#     the source's, in place of the control's translated text: "The
#     annual report" shown after translation, exit 0).
#   - translate of an OpenDocument text with a table of contents: the
#     title its update writes (text:index-title-template) translated as
#     the index body's title is (it was left as it was: updating the
#     index in LibreOffice put the source's title back, exit 0).
#   - translate of an OpenDocument text with text in a text:meta (text
#     with metadata, as a span is): translated, the text:meta a pair
#     around it (it was an isolated code, its words left in the source
#     language among the translated ones, exit 0).
#   - translate of an HTML page with references that browsers read
#     without their ';' ("caf&eacute bar", "&copy2024", "I &lt3 it", a
#     title="a &copy b") or in capitals (&AMP;): read as browsers read
#     them, "&copy=2" in a URL and "&copyx" in an attribute left as text
#     (they were text, so the page showed "caf&eacute", "&copy2024",
#     "&lt3" and "&AMP;" where it had shown "café", "©2024", "<3" and
#     "&", exit 0).
#   - translate of an HTML page with WAI-ARIA's other text attributes
#     (aria-description, aria-placeholder, aria-roledescription,
#     aria-valuetext), which screen readers say as they say aria-label:
#     translated as aria-label is (they were left in the source
#     language, exit 0).
#   - translate of an HTML page with translate="yes" (or translate="")
#     on a block inside translate="no" (a page whose body says "no", its
#     text islands saying "yes"): the block translated, as HTML's
#     translation mode is an element's own; "no" below it, an svg around
#     it, the text of the "no" parent between blocks kept (it was all
#     left untranslated, exit 0).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3
cli_setup hostile-round12
x=$XLIFFMT
. "$(dirname "$0")/office_lib.sh"

# fields DOCX: each paragraph of DOCX a line: its fldChar (b, s, e),
# instrText ({...}) and text ("...") in order.
fields() {
  "$py" - "$1" <<'EOD'
import re, sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
for p in re.findall(r"<w:p>.*?</w:p>", s):
    out = []
    for m in re.finditer(r'<w:fldChar w:fldCharType="(\w)\w*"/>|'
                         r"<w:instrText[^>]*>([^<]*)<|<w:t[^>]*>([^<]*)<", p):
        if m.group(1):
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append("{" + m.group(2) + "}")
        else:
            out.append('"' + m.group(3) + '"')
    print(" ".join(out))
EOD
}

# --- A field in another field's instruction.
r() { printf '<w:r>%s</w:r>' "$@"; }
fc() { r "<w:fldChar w:fldCharType=\"$1\"/>"; }
word "$tmp/if.docx" "<w:p>$(fc begin)$(r '<w:instrText xml:space="preserve"> IF </w:instrText>')$(fc begin)$(r '<w:instrText> MERGEFIELD Gender </w:instrText>')$(fc separate)$(r '<w:t>«Gender»</w:t>')$(fc end)$(r '<w:instrText xml:space="preserve"> = "M" "Dear Sir" "Dear Madam" </w:instrText>')$(fc separate)$(r '<w:t>Dear Madam</w:t>')$(fc end)$(r '<w:t>, welcome.</w:t>')</w:p>"
within "Word, a field in an instruction" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/if.docx" -o "$tmp/if.es.docx"
fields "$tmp/if.es.docx" >"$tmp/got"
expect_text "Word, a field in an instruction: the instruction kept" \
  "$tmp/got" \
  '"[" b { IF } b { MERGEFIELD Gender } s "«Gender»" e { = "M" "Dear Sir" "Dear Madam" } s "Mádám, Déár" e " wélçómé. ~~~~~~]"'

# --- Content controls bound to a document property.
bind='<w:dataBinding w:prefixMappings="xmlns:ns0='"'http://purl.org/dc/elements/1.1/'"'" w:xpath="/ns0:title[1]" w:storeItemID="{6C3C8BC8-F283-45AE-878A-BAB7291924A1}"/>'
word "$tmp/bound.docx" "<w:sdt><w:sdtPr><w:alias w:val=\"Title\"/>$bind<w:text/></w:sdtPr><w:sdtContent><w:p>$(r '<w:t>The annual report</w:t>')</w:p></w:sdtContent></w:sdt><w:p>$(r '<w:t xml:space="preserve">By </w:t>')<w:sdt><w:sdtPr>$bind</w:sdtPr><w:sdtContent>$(r '<w:t>the team</w:t>')</w:sdtContent></w:sdt>$(r '<w:t>.</w:t>')</w:p>"
within "Word, bound content controls" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/bound.docx" -o "$tmp/bound.es.docx"
"$py" -c 'import sys, zipfile
s = zipfile.ZipFile(sys.argv[1]).read("word/document.xml").decode()
print(s[s.index("<w:body>"):])' "$tmp/bound.es.docx" >"$tmp/got"
expect_text "Word, bound content controls: no binding, the translation" \
  "$tmp/got" \
  '<w:body><w:sdt><w:sdtPr><w:alias w:val="Title"/><w:text/></w:sdtPr><w:sdtContent><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[áññúál Thé répórt ~~~~~~]</w:t></w:r></w:p></w:sdtContent></w:sdt><w:p><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>[</w:t></w:r><w:sdt><w:sdtPr></w:sdtPr><w:sdtContent><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t>thé Bý téám.</w:t></w:r></w:sdtContent></w:sdt><w:r><w:rPr><w:lang w:val="es"/></w:rPr><w:t xml:space="preserve"> ~~~~]</w:t></w:r></w:p></w:body></w:document>'
word "$tmp/if2.docx" "<w:p>$(r '<w:t xml:space="preserve">Hello </w:t>')$(fc begin)$(r '<w:instrText xml:space="preserve"> IF </w:instrText>')<w:fldSimple w:instr=\" MERGEFIELD Gender \">$(r '<w:t>«Gender»</w:t>')</w:fldSimple>$(r '<w:instrText xml:space="preserve"> = "M" "Dear Sir" "Dear Madam" </w:instrText>')$(fc separate)$(r '<w:t>Dear Madam</w:t>')$(fc end)$(r '<w:t>, welcome.</w:t>')</w:p>"
within "Word, a w:fldSimple in an instruction" 0 20 300 "$x" extract -q \
  -s en "$tmp/if2.docx" -o "$tmp/if2.xlf"
grep '<source' "$tmp/if2.xlf" >"$tmp/got"
expect_text "Word, a w:fldSimple in an instruction: one pair" "$tmp/got" \
  '<source>Hello <g id="1" ctype="x-w-fldChar">Dear Madam</g>, welcome.</source>'


# --- An index's title template.
odt "$tmp/toc.odt" '<text:table-of-content text:name="T1"><text:table-of-content-source text:outline-level="1"><text:index-title-template>Contents</text:index-title-template></text:table-of-content-source><text:index-body><text:index-title text:name="T1_Head"><text:p>Contents</text:p></text:index-title><text:p>Chapter one<text:tab/>1</text:p></text:index-body></text:table-of-content><text:h text:outline-level="1">Chapter one</text:h>'
within "ODT, an index's title template" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/toc.odt" -o "$tmp/toc.es.odt"
content "$tmp/toc.es.odt" >"$tmp/got"
expect_text "ODT, an index's title template: translated" "$tmp/got" \
  '<office:text><text:table-of-content text:name="T1"><text:table-of-content-source text:outline-level="1"><text:index-title-template>[Çóñtéñts ~~~]</text:index-title-template></text:table-of-content-source><text:index-body><text:index-title text:name="T1_Head"><text:p>[Çóñtéñts ~~~]</text:p></text:index-title><text:p>[óñé Çháptér<text:tab/>1 ~~~~]</text:p></text:index-body></text:table-of-content><text:h text:outline-level="1">[óñé Çháptér ~~~~]</text:h>'

# --- Text with metadata.
odt "$tmp/meta.odt" '<text:p>Some <text:meta xml:id="m1">meta words inside</text:meta> end text.</text:p>'
within "ODT, text:meta" 0 20 300 "$x" translate -q --mt pseudo -s en -t es \
  "$tmp/meta.odt" -o "$tmp/meta.es.odt"
content "$tmp/meta.es.odt" >"$tmp/got"
expect_text "ODT, text:meta: its text translated" "$tmp/got" \
  '<office:text><text:p>[<text:meta xml:id="m1">métá Sómé íñsídé wórds</text:meta> téxt. éñd ~~~~~~~~~~]</text:p>'

# --- References without ';'.
cat >"$tmp/ref.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><p>Caf&eacute bar &copy2024 &AMP; I &lt3 it.</p><p title="a &copy b, c &copyx">Tip.</p><p><a href="?a=1&copy=2">Go</a> now.</p></body></html>
EOD
within "HTML, references without ';'" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/ref.html" -o "$tmp/ref.es.html"
expect_text "HTML, references without ';': read as browsers do" \
  "$tmp/ref.es.html" \
  '<!DOCTYPE html><html lang="es"><body><p>[bár Çáfé &amp; ©2024 &lt;3 Í ít. ~~~~~~~~]</p><p title="[© á ç b, &amp;çópýx ~~~~~]">[Típ. ~~]</p><p>[ñów. <a href="?a=1&copy=2">Gó</a> ~~~]</p></body></html>'

# --- WAI-ARIA's text attributes.
cat >"$tmp/aria.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body><div role="slider" aria-valuetext="Medium level" aria-roledescription="volume knob" aria-description="Turns the sound up" aria-placeholder="Type here">Volume</div></body></html>
EOD
within "HTML, ARIA attributes" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/aria.html" -o "$tmp/aria.es.html"
expect_text "HTML, ARIA attributes: translated" "$tmp/aria.es.html" \
  '<!DOCTYPE html><html lang="es"><body><div role="slider" aria-valuetext="[lévél Médíúm ~~~~]" aria-roledescription="[kñób vólúmé ~~~~]" aria-description="[thé Túrñs úp sóúñd ~~~~~~]" aria-placeholder="[héré Týpé ~~~]">[Vólúmé ~~]</div></body></html>'

# --- translate="yes" inside translate="no".
cat >"$tmp/yes.html" <<'EOD'
<!DOCTYPE html><html lang="en"><body translate="no"><h1>Product Name</h1><div><p translate="yes">First <b>translated</b> one.</p> kept text <p translate>Second <span translate="no">Brand</span> one.</p>kept tail</div><section translate="yes"><p>Body <a href="/x" title="Link tip">link</a>.</p><div translate="no"><p>Back to no.</p></div><p>Yes again.</p></section><svg><foreignObject><p translate="yes">In svg.</p></foreignObject></svg><p>Last kept.</p></body></html>
EOD
within "HTML, translate=\"yes\" inside \"no\"" 0 20 300 "$x" translate -q \
  --mt pseudo -s en -t es "$tmp/yes.html" -o "$tmp/yes.es.html"
expect_text "HTML, translate=\"yes\" inside \"no\": translated" \
  "$tmp/yes.es.html" \
  '<!DOCTYPE html><html lang="es"><body translate="no"><h1>Product Name</h1><div><p translate="yes">[<b>tráñslátéd</b> Fírst óñé. ~~~~~~~]</p> kept text <p translate>[<span translate="no">Brand</span>óñé. Séçóñd ~~~~]</p>kept tail</div><section translate="yes"><p>[<a href="/x" title="[típ Líñk ~~~]">líñk.</a> Bódý ~~~]</p><div translate="no"><p>Back to no.</p></div><p>[ágáíñ. Ýés ~~~]</p></section><svg><foreignObject><p translate="yes">In svg.</p></foreignObject></svg><p>Last kept.</p></body></html>'

finish
