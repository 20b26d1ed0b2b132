#!/bin/sh
# test_hostile_round21.sh: exit 0 means the output is right, and nothing
# is left in the source language while counted as translated.
#   - translate of an XLIFF 1.2 unit whose code (ph, bpt...) holds a <sub>
#     with text (an image's alt text, a link's title): the sub's content
#     is a segment of its own (its id KEY#subN), sent to the engine,
#     counted, and its translation written inside the same <sub> of the
#     target's copy of the code, its <g> kept (the unit was refused, exit
#     3: round 14). Two subs of one code, a sub in a bpt under a
#     seg-source; a sub of white space only is left as it is. The
#     sub-flow's failure is the unit's: no target, the unit named, exit
#     3. The output passes check (the XLIFF 1.2 schema). A sub with text
#     inside the code of another sub's content is not translated: its
#     unit is refused, as before.
#   - extract lists each sub-flow as a line of its own (KEY#subN; it was
#     left out with its unit, exit 3: round 20), and merge takes its
#     translation from that line: the round trip writes the bytes
#     translate writes; without the line, the unit fails, exit 3.
#   - translate of an HTML page with an iframe whose srcdoc holds a page:
#     that page read as a page (its blocks, inline elements and
#     attributes units of the document, its lang the target's), written
#     back translated and escaped as the attribute's value (&quot;,
#     &amp;, &lt;, &gt; in double quotes, " kept in single quotes, an
#     unquoted value quoted); the page otherwise byte for byte (it was
#     refused, exit 1: round 15). A srcdoc empty, of white space, or
#     under translate="no" is kept; identity keeps the page's bytes;
#     extract + merge write what translate writes. A srcdoc inside a
#     srcdoc is refused, named, no output.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round21
x=$XLIFFMT

upper_engine

# --- <sub>: translatable text inside a code.
x12 "$tmp/sub.xlf" '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u2"><source>Plain text.</source></trans-unit>
<trans-unit id="u3"><source>Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</source><seg-source><mrk mtype="seg" mid="1">Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</mrk></seg-source></trans-unit>
<trans-unit id="u4"><source>See <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> here.</source></trans-unit>
<trans-unit id="u5"><source>Look <ph id="1">&lt;img alt="<sub>Blue &amp; green</sub>" title="<sub>A sky</sub>"/&gt;</ph> now.</source></trans-unit>'
within "sub" 0 20 300 "$x" translate "$tmp/sub.xlf" -o "$tmp/sub.out.xlf" \
  --mt "cmd:$tmp/up.sh"
check "sub: counted, each sub-flow a segment (one twice: u1's and u4's)" \
  grep -q -x -F "xliffmt: $tmp/sub.xlf: 5 units, 5 translated, 0 left as they were; 8 segments sent to cmd in 2 calls, 0 copied, 1 deduplicated, 0 failed; $(sed -n 's/.*failed; //p' "$tmp/err")" \
  "$tmp/err"
check "sub: one sub translated" grep -q -x -F \
  '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">SEE <ph id="1">&lt;img alt="<sub>A RED CAR</sub>"/&gt;</ph> HERE.</target></trans-unit>' \
  "$tmp/sub.out.xlf"
check "sub: the others translated" grep -q -x -F \
  '<trans-unit id="u2"><source>Plain text.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">PLAIN TEXT.</target></trans-unit>' \
  "$tmp/sub.out.xlf"
check "sub in a bpt, a <g> in it, under a seg-source" grep -q -x -F \
  '<trans-unit id="u3"><source>Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</source><seg-source><mrk mtype="seg" mid="1">Read <bpt id="1">&lt;a title="<sub>The <g id="2">full</g> text</sub>"&gt;</bpt>this<ept id="1">&lt;/a&gt;</ept>.</mrk></seg-source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion"><mrk mtype="seg" mid="1">READ <bpt id="1">&lt;a title="<sub>THE <g id="2">FULL</g> TEXT</sub>"&gt;</bpt>THIS<ept id="1">&lt;/a&gt;</ept>.</mrk></target></trans-unit>' \
  "$tmp/sub.out.xlf"
check "sub of white space: left as it is" grep -q -x -F \
  '<trans-unit id="u4"><source>See <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> here.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">SEE <ph id="1">&lt;img alt="<sub> </sub>"/&gt;</ph> HERE.</target></trans-unit>' \
  "$tmp/sub.out.xlf"
check "two subs in one code" grep -q -x -F \
  '<trans-unit id="u5"><source>Look <ph id="1">&lt;img alt="<sub>Blue &amp; green</sub>" title="<sub>A sky</sub>"/&gt;</ph> now.</source><target xml:lang="es" state="needs-review-translation" state-qualifier="mt-suggestion">LOOK <ph id="1">&lt;img alt="<sub>BLUE &amp; GREEN</sub>" title="<sub>A SKY</sub>"/&gt;</ph> NOW.</target></trans-unit>' \
  "$tmp/sub.out.xlf"
within "sub: check" 0 20 300 "$x" check "$tmp/sub.out.xlf" -q

# The sub-flows are cached as any segment.
within "sub: into the cache" 0 20 300 "$x" translate "$tmp/sub.xlf" \
  -o "$tmp/sub2.out.xlf" --mt "cmd:$tmp/up.sh" --cache "sqlite:$tmp/c.db" -q
within "sub: cached" 0 20 300 "$x" translate "$tmp/sub.xlf" \
  -o "$tmp/sub3.out.xlf" --mt "cmd:$tmp/up.sh" --cache "sqlite:$tmp/c.db"
check "sub: cached: none sent" grep -q -F \
  ': 5 units, 5 translated, 0 left as they were; 0 segments sent to cmd in 0 calls,' \
  "$tmp/err"
unchanged "sub: cached" "$tmp/sub3.out.xlf" "$tmp/sub.out.xlf"

# --- The engine fails on a sub-flow: the unit fails.
within "sub: failing engine" 3 20 300 "$x" translate "$tmp/sub.xlf" \
  -o "$tmp/fail.out.xlf" \
  --mt "cmd:awk '/^A red car/ { next } { print toupper(\$0); fflush() }'"
check "sub: failing engine: the unit named" grep -q -x -F \
  "xliffmt: $tmp/sub.xlf:4: segment u1#sub1 not translated: engine 'awk '/^A red car/ { next } { print toupper(\$0); fflush() }'' answered fewer lines than the 1 segment sent (its answer to the check line came after 0)" \
  "$tmp/err"
check "sub: failing engine: its segment named" grep -q -x -F \
  "xliffmt: $tmp/sub.xlf:4: segment u1#0 not translated: the text of a <sub> inside one of its codes was not translated" \
  "$tmp/err"
check "sub: failing engine: no target" grep -q -x -F \
  '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>' \
  "$tmp/fail.out.xlf"
check "sub: failing engine: the others translated" grep -q -F \
  '>PLAIN TEXT.</target>' "$tmp/fail.out.xlf"

# --- A sub with text inside another sub's code: not translated, refused.
x12 "$tmp/nest.xlf" '<trans-unit id="n1"><source>A <ph id="1">&lt;x t="<sub>Outer <ph id="2">&lt;y t="<sub>inner</sub>"&gt;</ph> end</sub>"&gt;</ph> b.</source></trans-unit>
<trans-unit id="n2"><source>A <ph id="1">&lt;x t="<sub>Outer <ph id="2">&lt;y t="<sub> </sub>"&gt;</ph> end</sub>"&gt;</ph> b.</source></trans-unit>'
within "sub in a sub" 3 20 300 "$x" translate "$tmp/nest.xlf" \
  -o "$tmp/nest.out.xlf" --mt "cmd:$tmp/up.sh"
check "sub in a sub: told" grep -q -x -F \
  "xliffmt: $tmp/nest.xlf:4: segment n1#0 not translated: a <sub> inside one of its codes holds translatable text where xliffmt does not translate it (inside another <sub>, or in a code between the segments of its <seg-source>)" \
  "$tmp/err"
check "sub in a sub: no target" grep -q -x -F \
  '<trans-unit id="n1"><source>A <ph id="1">&lt;x t="<sub>Outer <ph id="2">&lt;y t="<sub>inner</sub>"&gt;</ph> end</sub>"&gt;</ph> b.</source></trans-unit>' \
  "$tmp/nest.out.xlf"
check "sub in a sub of white space: translated" grep -q -F \
  '>A <ph id="1">&lt;x t="<sub>OUTER <ph id="2">&lt;y t="<sub> </sub>"&gt;</ph> END</sub>"&gt;</ph> B.</target>' \
  "$tmp/nest.out.xlf"

# --- A sub in a code that segmentation leaves between two sentences:
# translated in the target's copy of the code. One in a code between the
# segments of a <seg-source>, which the target copies as written: refused.
x12 "$tmp/gap.xlf" '<trans-unit id="g1"><source>The first one. <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> The second one.</source></trans-unit>
<trans-unit id="g2"><source>The first one. <ph id="1">&lt;img alt="<sub>A blue car</sub>"/&gt;</ph></source><seg-source><mrk mtype="seg" mid="1">The first one.</mrk> <ph id="1">&lt;img alt="<sub>A blue car</sub>"/&gt;</ph></seg-source></trans-unit>'
within "sub between sentences" 3 20 300 "$x" translate "$tmp/gap.xlf" \
  -o "$tmp/gap.out.xlf" --mt "cmd:$tmp/up.sh"
check "sub between sentences: translated" grep -q -F \
  '>THE FIRST ONE. <ph id="1">&lt;img alt="<sub>A RED CAR</sub>"/&gt;</ph> THE SECOND ONE.</target></trans-unit>' \
  "$tmp/gap.out.xlf"
check "sub between seg-source segments: told" grep -q -x -F \
  "xliffmt: $tmp/gap.xlf:5: segment g2#1 not translated: a <sub> inside one of its codes holds translatable text where xliffmt does not translate it (inside another <sub>, or in a code between the segments of its <seg-source>)" \
  "$tmp/err"
check "sub between seg-source segments: no target" sh -c \
  "grep -F 'id=\"g2\"' '$tmp/gap.out.xlf' | grep -v -q '<target'"

# --- extract and merge: the sub-flows are lines of their own; the round
# trip writes what translate writes.
within "sub: extract" 0 20 300 "$x" extract "$tmp/sub.xlf" -o "$tmp/sub.tsv" -q
check "sub: extract: a line for each sub-flow" test "$(sed 1d "$tmp/sub.tsv")" = \
  "$(printf 'u1#0\tSee  here.\nu1#sub1\tA red car\nu2#0\tPlain text.\nu3#1\tRead this.\nu3#sub1\tThe full text\nu4#0\tSee  here.\nu5#0\tLook  now.\nu5#sub1\tBlue & green\nu5#sub2\tA sky')"
awk -F '\t' '{ print $1 "\t" toupper($2) }' "$tmp/sub.tsv" >"$tmp/tr.tsv"
within "sub: merge" 0 20 300 "$x" merge "$tmp/sub.xlf" -o "$tmp/m.xlf" \
  --translations "$tmp/tr.tsv" -q
unchanged "sub: merge: as translate writes it" "$tmp/m.xlf" "$tmp/sub.out.xlf"
grep -v '^u1#sub1' "$tmp/tr.tsv" >"$tmp/tr2.tsv"
within "sub: merge without the sub's line" 3 20 300 "$x" merge \
  "$tmp/sub.xlf" -o "$tmp/m2.xlf" --translations "$tmp/tr2.tsv" -q
said "sub: merge without the sub's line" \
  "xliffmt: $tmp/sub.xlf:4: segment u1#sub1 not translated: no translation in the file
xliffmt: $tmp/sub.xlf:4: segment u1#0 not translated: the text of a <sub> inside one of its codes was not translated
xliffmt: $tmp/sub.xlf: 2 segments not translated"
check "sub: merge without the sub's line: no target" grep -q -x -F \
  '<trans-unit id="u1"><source>See <ph id="1">&lt;img alt="<sub>A red car</sub>"/&gt;</ph> here.</source></trans-unit>' \
  "$tmp/m2.xlf"

# --- HTML: an iframe's srcdoc, a page in an attribute.
cat >"$tmp/f.html" <<'EOD'
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body><p>Hello.</p><iframe title="Demo" srcdoc="&lt;html lang=&quot;en&quot;&gt;&lt;p&gt;Inside the &lt;b&gt;frame&lt;/b&gt;, &amp;quot;quoted&amp;quot; &amp;amp; more.&lt;/p&gt;&lt;img alt=&quot;A cat&quot;&gt;&lt;/html&gt;"></iframe>
<iframe srcdoc='<p class="x">Tom &amp; "Jerry"</p>'></iframe><iframe srcdoc=Plain&#32;text></iframe>
<iframe srcdoc=""></iframe><iframe srcdoc="&lt;p&gt; &lt;/p&gt;"></iframe><iframe translate="no" srcdoc="&lt;p&gt;Kept.&lt;/p&gt;"></iframe></body></html>
EOD
cat >"$tmp/f.want.html" <<'EOD'
<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"></head><body><p>HELLO.</p><iframe title="DEMO" srcdoc="&lt;html lang=&quot;es&quot;&gt;&lt;p&gt;INSIDE THE &lt;b&gt;FRAME&lt;/b&gt;, &quot;QUOTED&quot; &amp;amp; MORE.&lt;/p&gt;&lt;img alt=&quot;A CAT&quot;&gt;&lt;/html&gt;"></iframe>
<iframe srcdoc='&lt;p class="x"&gt;TOM &amp;amp; "JERRY"&lt;/p&gt;'></iframe><iframe srcdoc="PLAIN TEXT"></iframe>
<iframe srcdoc=""></iframe><iframe srcdoc="&lt;p&gt; &lt;/p&gt;"></iframe><iframe translate="no" srcdoc="&lt;p&gt;Kept.&lt;/p&gt;"></iframe></body></html>
EOD
within "HTML, iframe srcdoc" 0 20 300 "$x" translate -q --mt "cmd:$tmp/up.sh" \
  -s en -t es "$tmp/f.html" -o "$tmp/f.es.html"
check "HTML, iframe srcdoc: its page translated, escaped as its value" \
  cmp "$tmp/f.want.html" "$tmp/f.es.html"
within "HTML, iframe srcdoc: identity" 0 20 300 "$x" translate -q \
  --mt identity -s en -t en "$tmp/f.html" -o "$tmp/f.id.html"
unchanged "HTML, iframe srcdoc: identity" "$tmp/f.id.html" "$tmp/f.html"
within "HTML, iframe srcdoc: extract" 0 20 300 "$x" extract -q -s en -t es \
  "$tmp/f.html" -o "$tmp/f.xlf"
check "HTML, iframe srcdoc: extract: its units" grep -q -x -F \
  '<source>Inside the <g id="1" ctype="bold">frame</g>, "quoted" &amp; more.</source>' \
  "$tmp/f.xlf"
within "HTML, iframe srcdoc: the XLIFF translated" 0 20 300 "$x" translate \
  -q --mt "cmd:$tmp/up.sh" "$tmp/f.xlf" -o "$tmp/f.es.xlf"
within "HTML, iframe srcdoc: merge" 0 20 300 "$x" merge -q "$tmp/f.html" \
  "$tmp/f.es.xlf" -o "$tmp/f.m.html"
unchanged "HTML, iframe srcdoc: merge as translate" "$tmp/f.m.html" \
  "$tmp/f.es.html"
printf '%s\n' '<!DOCTYPE html><html><body><iframe srcdoc="&lt;iframe srcdoc=&quot;&amp;lt;p&amp;gt;Deep&amp;lt;/p&amp;gt;&quot;&gt;&lt;/iframe&gt;&lt;p&gt;One&lt;/p&gt;"></iframe></body></html>' \
  >"$tmp/nest.html"
within "HTML, srcdoc in a srcdoc" 1 20 300 "$x" translate -q \
  --mt "cmd:$tmp/up.sh" -s en -t es "$tmp/nest.html" -o "$tmp/nest.es.html"
said "HTML, srcdoc in a srcdoc" \
  "xliffmt: $tmp/nest.html: an iframe's srcdoc inside another iframe's srcdoc is not translated: say translate=\"no\" on the inner iframe to keep it"
check "HTML, srcdoc in a srcdoc: no output" test ! -e "$tmp/nest.es.html"

finish
