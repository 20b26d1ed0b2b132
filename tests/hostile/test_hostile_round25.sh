#!/bin/sh
# test_hostile_round25.sh: exit 0 means the output is right.
#   - translate of a Word document with index entries (XE fields: { XE
#     "Entry" } in w:instrText runs, a "Main:Sub" entry with \t "See
#     also" and \f switches, one split over two runs with \r, one in a
#     paragraph of no text) and a table of contents entry (a TC field
#     with \l): each entry's text (each level, the \t text) translated in
#     the instruction, the rest of it byte for byte (they were left in
#     the source language, exit 0, and an update of the index brought
#     the source text back into the translated document). A HYPERLINK
#     and a PAGE field's instructions kept as they are.
#   - extract + merge: the same bytes as translate; a translation with a
#     quote and a colon written as Word reads them (the quote doubled,
#     an XE level's colon \:); --mt identity: the part's bytes back.
#   - an entry with an escaped colon (one level), a reference (&amp;), a
#     bare word (quoted once translated), one in a text box's paragraph:
#     translated alike; one whose instruction holds another field (a REF)
#     kept whole.
#   - a picture's alternative text (wp:docPr's descr) in the last
#     paragraph, one of no text: translated (it was a unit extract
#     listed, which translate and merge never handed on: left in the
#     source language, exit 0).
#   - index and table of contents entries in w:fldSimple's w:instr (one
#     in the last paragraph, of no text): translated as in w:instrText,
#     escaped as an attribute's value; a DATE field's kept; extract +
#     merge: translate's bytes.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
require_commands "python3 not found (it writes and reads the documents)" \
  python3 unzip
cli_setup hostile-round25
x=$XLIFFMT
. "$(dirname "$0")/office_lib.sh"

B='<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
S='<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
E='<w:r><w:fldChar w:fldCharType="end"/></w:r>'
ins() { # ins TEXT: a run of instruction text
  printf '<w:r><w:instrText xml:space="preserve">%s</w:instrText></w:r>' "$1"
}
run() { printf '<w:r><w:t xml:space="preserve">%s</w:t></w:r>' "$1"; }
q='&quot;'
word "$tmp/ix.docx" "<w:p>$(run 'The apple tree grows.')$B$(ins " XE ${q}Apple tree$q ")$E</w:p><w:p>$(run 'Pears are sweet.')$B$(ins " XE ${q}Fruit:Pear$q \\t ${q}See also Apple$q \\f ${q}a$q ")$E</w:p><w:p>$(run 'Plums.')$B$(ins " XE ${q}Red ")$(ins "plum$q \\r Plums ")$E</w:p><w:p>$B$(ins " XE ${q}Say ${q}${q}Hi${q}${q}$q ")$E</w:p><w:p>$B$(ins " TC ${q}Chapter one$q \\l 2 ")$E$(run 'Some text.')</w:p><w:p>$B$(ins " HYPERLINK ${q}http://x.org/$q ")$S$(run 'A link')$E$(run ' on page ')$B$(ins ' PAGE ')$S$(run '2')$E</w:p>"
instr() { # instr DOCX: its w:instrText's text, one a line
  unzip -p "$1" word/document.xml | grep -o '<w:instrText[^>]*>[^<]*<' |
    sed 's/<[^>]*>//; s/<$//'
}

within "Word, index entries" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/ix.docx" -o "$tmp/ix.es.docx"
opens "$tmp/ix.es.docx"
instr "$tmp/ix.es.docx" >"$tmp/got"
expect_text "Word, index entries: translated" "$tmp/got" \
  ' XE &quot;[tréé Ápplé ~~~]&quot; 
 XE &quot;[Frúít ~~]:[Péár ~~]&quot; \t &quot;[álsó Séé Ápplé ~~~~~]&quot; \f &quot;a&quot; 
 XE &quot;[plúm Réd ~~~]
&quot; \r Plums 
 XE &quot;[\"Hí\" Sáý ~~~]&quot; 
 TC &quot;[óñé Çháptér ~~~~]&quot; \l 2 
 HYPERLINK &quot;http://x.org/&quot; 
 PAGE '

within "Word, index entries: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/ix.docx" -o "$tmp/ix.xlf"
grep -o '<source>[^<]*</source>' "$tmp/ix.xlf" >"$tmp/got"
expect_text "Word, index entries: extract" "$tmp/got" '<source>Apple tree</source>
<source>The apple tree grows.</source>
<source>Fruit</source>
<source>Pear</source>
<source>See also Apple</source>
<source>Pears are sweet.</source>
<source>Red plum</source>
<source>Plums.</source>
<source>Say "Hi"</source>
<source>Chapter one</source>
<source>Some text.</source>'
within "Word, index entries: the extract translated" 0 20 300 "$x" translate \
  -q --mt pseudo -s en -t es "$tmp/ix.xlf" -o "$tmp/ix.t.xlf"
within "Word, index entries: merge" 0 20 300 "$x" merge -q "$tmp/ix.docx" \
  "$tmp/ix.t.xlf" -o "$tmp/ix.m.docx"
unzip -p "$tmp/ix.es.docx" word/document.xml >"$tmp/es.xml"
unzip -p "$tmp/ix.m.docx" word/document.xml >"$tmp/m.xml"
check "Word, index entries: merge writes what translate does" \
  cmp -s "$tmp/es.xml" "$tmp/m.xml"

# targets with a colon and quotes: "ES: " + the source
"$py" - "$tmp/ix.xlf" "$tmp/ix.c.xlf" <<'EOD' || exit 99
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('source-language="en"', 'source-language="en" target-language="es"')
s = re.sub(r"<source>(.*?)</source>",
           lambda m: m.group(0) + "<target>ES: &quot;" + m.group(1) + "</target>", s,
           flags=re.S)
open(sys.argv[2], "w", encoding="utf-8").write(s)
EOD
within "Word, index entries: merge, quotes and colons" 0 20 300 "$x" merge \
  -q "$tmp/ix.docx" "$tmp/ix.c.xlf" -o "$tmp/ix.c.docx"
instr "$tmp/ix.c.docx" >"$tmp/got"
expect_text "Word, index entries: quotes and colons as Word reads them" \
  "$tmp/got" ' XE &quot;ES\: \"Apple tree&quot; 
 XE &quot;ES\: \"Fruit:ES\: \"Pear&quot; \t &quot;ES: \"See also Apple&quot; \f &quot;a&quot; 
 XE &quot;ES\: \"Red plum
&quot; \r Plums 
 XE &quot;ES\: \"Say \"Hi\"&quot; 
 TC &quot;ES: \"Chapter one&quot; \l 2 
 HYPERLINK &quot;http://x.org/&quot; 
 PAGE '

within "Word, index entries: --mt identity" 0 20 300 "$x" translate -q \
  --mt identity -s en -t es "$tmp/ix.docx" -o "$tmp/ix.id.docx"
unzip -p "$tmp/ix.docx" word/document.xml >"$tmp/src.xml"
unzip -p "$tmp/ix.id.docx" word/document.xml >"$tmp/id.xml"
check "Word, index entries: --mt identity gives the part back" \
  cmp -s "$tmp/src.xml" "$tmp/id.xml"

word "$tmp/more.docx" "<w:p>$(run 'Time.')$B$(ins " XE ${q}Time\\: noon$q ")$E</w:p><w:p>$(run 'Cartoons.')$B$(ins " XE ${q}Tom &amp; Jerry$q ")$E</w:p><w:p>$(run 'Cats.')$B$(ins ' xe Cats \b ')$E</w:p><w:p>$(run 'A box.')<w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p>$(run 'Boxed text.')$B$(ins " XE ${q}Boxed$q ")$E</w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p><w:p>$(run 'Nested.')$B$(ins " XE ${q}A ")$B$(ins ' REF x ')$E$(ins "$q ")$E</w:p>"
within "Word, more index entries" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/more.docx" -o "$tmp/more.es.docx"
opens "$tmp/more.es.docx"
instr "$tmp/more.es.docx" >"$tmp/got"
expect_text "Word, more index entries: translated" "$tmp/got" \
  ' XE &quot;[ñóóñ Tímé\: ~~~]&quot; 
 XE &quot;[&amp; Tóm Jérrý ~~~~]&quot; 
 xe "[Çáts ~~]" \b 
 XE &quot;[Bóxéd ~~]&quot; 
 XE &quot;A 
 REF x 
&quot; '
within "Word, more index entries: --mt identity" 0 20 300 "$x" translate -q \
  --mt identity -s en -t es "$tmp/more.docx" -o "$tmp/more.id.docx"
unzip -p "$tmp/more.docx" word/document.xml >"$tmp/src.xml"
unzip -p "$tmp/more.id.docx" word/document.xml >"$tmp/id.xml"
check "Word, more index entries: --mt identity gives the part back" \
  cmp -s "$tmp/src.xml" "$tmp/id.xml"

word "$tmp/pic.docx" '<w:p><w:r><w:t>Hello.</w:t></w:r></w:p><w:p><w:r><w:drawing><wp:inline><wp:extent cx="1" cy="1"/><wp:docPr id="1" name="P" descr="A red apple"/></wp:inline></w:drawing></w:r></w:p>'
within "Word, alternative text last" 0 20 300 "$x" translate -q --mt pseudo \
  -s en -t es "$tmp/pic.docx" -o "$tmp/pic.es.docx"
unzip -p "$tmp/pic.es.docx" word/document.xml | grep -o 'descr="[^"]*"' \
  >"$tmp/got"
expect_text "Word, alternative text last: translated" "$tmp/got" \
  'descr="[réd Á ápplé ~~~~]"'

word "$tmp/simple.docx" "<w:p>$(run 'Apples.')<w:fldSimple w:instr=\" XE ${q}Apple &amp; pear:Red$q \\t ${q}See fruit$q \"/></w:p><w:p><w:fldSimple w:instr=\" TC ${q}Chapter$q \\l 1\"/>$(run 'Text.')</w:p><w:p>$(run 'Date ')<w:fldSimple w:instr=\" DATE \"><w:r><w:t>today</w:t></w:r></w:fldSimple></w:p><w:p><w:fldSimple w:instr=\" XE ${q}Lone$q \"/></w:p>"
within "Word, simple fields" 0 20 300 "$x" translate -q --mt pseudo -s en \
  -t es "$tmp/simple.docx" -o "$tmp/simple.es.docx"
opens "$tmp/simple.es.docx"
unzip -p "$tmp/simple.es.docx" word/document.xml |
  grep -o '<w:fldSimple [^>]*>' >"$tmp/got"
expect_text "Word, simple fields: translated" "$tmp/got" \
  '<w:fldSimple w:instr=" XE &quot;[&amp; Ápplé péár ~~~~]:[Réd ~]&quot; \t &quot;[frúít Séé ~~~]&quot; "/>
<w:fldSimple w:instr=" TC &quot;[Çháptér ~~~]&quot; \l 1"/>
<w:fldSimple w:instr=" DATE ">
<w:fldSimple w:instr=" XE &quot;[Lóñé ~~]&quot; "/>'
within "Word, simple fields: extract" 0 20 300 "$x" extract -q -s en \
  "$tmp/simple.docx" -o "$tmp/simple.xlf"
within "Word, simple fields: the extract translated" 0 20 300 "$x" \
  translate -q --mt pseudo -s en -t es "$tmp/simple.xlf" -o "$tmp/simple.t.xlf"
within "Word, simple fields: merge" 0 20 300 "$x" merge -q \
  "$tmp/simple.docx" "$tmp/simple.t.xlf" -o "$tmp/simple.m.docx"
unzip -p "$tmp/simple.es.docx" word/document.xml >"$tmp/es.xml"
unzip -p "$tmp/simple.m.docx" word/document.xml >"$tmp/m.xml"
check "Word, simple fields: merge writes what translate does" \
  cmp -s "$tmp/es.xml" "$tmp/m.xml"
within "Word, simple fields: --mt identity" 0 20 300 "$x" translate -q \
  --mt identity -s en -t es "$tmp/simple.docx" -o "$tmp/simple.id.docx"
unzip -p "$tmp/simple.docx" word/document.xml >"$tmp/src.xml"
unzip -p "$tmp/simple.id.docx" word/document.xml >"$tmp/id.xml"
check "Word, simple fields: --mt identity gives the part back" \
  cmp -s "$tmp/src.xml" "$tmp/id.xml"

finish
