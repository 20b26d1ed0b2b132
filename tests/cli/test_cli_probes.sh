#!/bin/sh
# test_cli_probes.sh -- engine probes and word breaks with a real engine
# (Apertium eng-spa): exact placement of inline elements in a small page,
# the --report counters, --probes off, raw mode through Apertium's own
# inline markup handling, and the translation text, which neither probes
# nor tags change. Skipped (77) without apertium-eng-spa.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup probes
x=$XLIFFMT

modes=/usr/share/apertium/modes
if [ ! -r "$modes/eng-spa.mode" ] ||
  ! command -v apertium-wblank-mode >/dev/null; then
  echo "# apertium with eng-spa not installed: skipped"
  exit 77
fi

cat >"$tmp/page.html" <<'EOF'
<p>The <em>red</em> car is in the garage.</p>
<p>Click the <strong>green</strong> button.</p>
<p>Total <b>budget</b> for the year.</p>
<p>Visit our <b>online</b> shop.</p>
<p>In summer we open the farm to <a href="/v.html">school groups</a> and families.</p>
<p>Click the <a href="/p.html">forgotten password</a> link on the login page.</p>
<p>Green Valley Farm<br>Long Road 12</p>
<p>Write to <a href="mailto:help@example.org">help@example.org</a> today.</p>
EOF
# What a reader sees: the same page without its inline elements, a line
# break being a break between words.
sed -e 's/<br>/ /g' -e 's#</*\(em\|strong\|b\|a\)\( [^>]*\)*>##g' \
  "$tmp/page.html" >"$tmp/plain.html"
# A superscript glued to a word is a word break too.
printf '<p>Regulation<sup>1</sup> applies.</p>\n' >"$tmp/sup.html"

# Where a probe's translation is found, it places the element.
cat >"$tmp/want.html" <<'EOF'
<p>El coche <em>rojo</em> es en el garaje.</p>
<p>Clic el botón <strong>verde</strong>.</p>
<p><b>Presupuesto</b> total para el año.</p>
<p>Visita nuestra tienda <b>on-line</b>.</p>
<p>En verano abrimos la parque a familias y <a href="/v.html">grupos escolares</a>.</p>
<p>Clic el enlace de <a href="/p.html">contraseña olvidado</a> en el login página.</p>
<p>Parque de Valle verde<br>Carretera Larga 12</p>
<p>Escribe a <a href="mailto:help@example.org">help@example.org</a> hoy.</p>
EOF
if expect_exit 0 "translate with probes" "$x" translate "$tmp/page.html" \
  -o "$tmp/auto.html" -s en -t es --mt apertium:eng-spa -q \
  --report "$tmp/auto.json"; then
  check "elements on the words the probes found" cmp -s "$tmp/auto.html" \
    "$tmp/want.html"
  cmp -s "$tmp/auto.html" "$tmp/want.html" ||
    diff "$tmp/want.html" "$tmp/auto.html" | sed 's/^/    /'
  # the 7 spans ("red", "green", ..., "help@example.org"), each also with
  # the word before it ("The red"...), and "Green Valley Farm" and "Farm"
  # before the line break; each element anchored
  check "report counts the probes" grep -q \
    '"probe_requests":16,"probe_anchored_tags":8,' "$tmp/auto.json"
  check "probes go in a batch after the segments'" grep -q \
    '"segments_sent":8,.*"mt_calls":2,' "$tmp/auto.json"
fi

if expect_exit 0 "translate without probes" "$x" translate \
  "$tmp/page.html" -o "$tmp/off.html" -s en -t es --mt apertium:eng-spa \
  -q --probes off --report "$tmp/off.json"; then
  check "report: no probes" grep -q \
    '"probe_requests":0,"probe_anchored_tags":0,' "$tmp/off.json"
  check "every element kept" test \
    "$(grep -o '<[a-z]*[ >]' "$tmp/off.html" | sort | tr -d '\n')" = \
    "$(grep -o '<[a-z]*[ >]' "$tmp/page.html" | sort | tr -d '\n')"
  # Probes never change the translation, tags neither: all three texts
  # are the same.
  sed 's/<br>/ /g; s/<[^>]*>//g; s/  */ /g' "$tmp/auto.html" >"$tmp/auto.txt"
  sed 's/<br>/ /g; s/<[^>]*>//g; s/  */ /g' "$tmp/off.html" >"$tmp/off.txt"
  check "the same text with and without probes" cmp -s "$tmp/auto.txt" \
    "$tmp/off.txt"
fi
if expect_exit 0 "translate the page without its elements" "$x" translate \
  "$tmp/plain.html" -o "$tmp/plain.es.html" -s en -t es \
  --mt apertium:eng-spa -q; then
  sed 's/<br>/ /g; s/<[^>]*>//g; s/  */ /g' "$tmp/plain.es.html" >"$tmp/plain.txt"
  check "the same text as the page without its elements" cmp -s \
    "$tmp/auto.txt" "$tmp/plain.txt"
  cmp -s "$tmp/auto.txt" "$tmp/plain.txt" ||
    diff "$tmp/plain.txt" "$tmp/auto.txt" | sed 's/^/    /'
fi

# Raw mode: the engine places the elements itself (Apertium's word-bound
# blanks); here it agrees with projection, loses no word and changes no
# word of the text.
if expect_exit 0 "translate in raw mode" "$x" translate "$tmp/page.html" \
  -o "$tmp/raw.html" -s en -t es --mt apertium:eng-spa -q --tags raw \
  --report "$tmp/raw.json"; then
  check "raw: elements where the engine put them" cmp -s "$tmp/raw.html" \
    "$tmp/want.html"
  cmp -s "$tmp/raw.html" "$tmp/want.html" ||
    diff "$tmp/want.html" "$tmp/raw.html" | sed 's/^/    /'
  check "raw: none projected or repaired" grep -q \
    '"projected_segments":0,"repaired_segments":0,' "$tmp/raw.json"
fi

if expect_exit 0 "a superscript glued to a word" "$x" translate \
  "$tmp/sup.html" -o "$tmp/sup.es.html" -s en -t es --mt apertium:eng-spa \
  -q --report "$tmp/sup.json"; then
  check "the engine saw two words, the page keeps them glued" test \
    "$(cat "$tmp/sup.es.html")" = '<p>Control<sup>1</sup> aplica.</p>'
  # a number is its own translation: anchored without a request
  check "report: the number anchored, not sent" grep -q \
    '"probe_requests":0,"probe_anchored_tags":1,' "$tmp/sup.json"
fi

# identity answers keep every tag where it was: nothing to probe.
if expect_exit 0 "identity" "$x" translate "$tmp/page.html" -o "$tmp/id.html" \
  -s en -t es --mt identity -q --report "$tmp/id.json"; then
  check "identity: no probes" grep -q '"probe_requests":0,' "$tmp/id.json"
  check "identity: the page as it was" cmp -s "$tmp/page.html" "$tmp/id.html"
fi

expect_exit 1 "--probes takes auto or off" "$x" translate "$tmp/page.html" \
  --mt identity -s en -t es --probes sometimes &&
  check "the message says so" grep -q 'auto or off' "$tmp/err"
check "--help lists --probes" sh -c "'$x' translate --help | grep -q -- --probes"

finish
