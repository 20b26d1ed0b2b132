#!/bin/sh
# test_cli_spacing.sh: isolated codes keep the spacing they had in the
# source, and two pairs side by side stay side by side, in every format:
# short Weblate- and Angular-style messages translated by Apertium eng-spa
# as XLIFF 1.2, XLIFF 2 and HTML, and by `xliffmt serve` through the DeepL
# API's XML tags and the APy's HTML, with exact targets.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no apertium with eng-spa;
# the server's checks are skipped without curl).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup spacing
x=$XLIFFMT

if ! command -v apertium >/dev/null 2>&1 ||
  ! apertium -l 2>/dev/null | grep -qx '[[:space:]]*eng-spa'; then
  echo "# apertium with eng-spa not installed: skipped"
  exit 77
fi

# targets FILE: the targets (XLIFF) or paragraphs (HTML) of FILE, a line each.
targets() {
  sed -n 's/.*<target[^>]*>\(.*\)<\/target>.*/\1/p; s/^<p>\(.*\)<\/p>$/\1/p' "$1"
}

# same DESC FILE: the targets of $tmp/out.* FILE are exactly $tmp/want.
same() {
  targets "$2" >"$tmp/got"
  if cmp -s "$tmp/got" "$tmp/want"; then
    pass "$1"
  else
    fail "$1: targets differ (got, then expected):"
    sed 's/^/    got:  /' "$tmp/got"
    sed 's/^/    want: /' "$tmp/want"
  fi
}

# run DESC IN OUT OPTIONS...: translates IN with Apertium into OUT.
run() {
  desc=$1 in=$2 out=$3
  shift 3
  expect_exit 0 "$desc: translate" "$x" translate "$in" -o "$out" -q \
    --mt apertium:eng-spa -s en -t es "$@"
}

# --- XLIFF 1.2 ---------------------------------------------------------------
cat >"$tmp/in.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="x" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>You have <x id="9"/> new messages.</source></trans-unit>
<trans-unit id="2"><source>Welcome to our online shop, <x id="1"/>!</source></trans-unit>
<trans-unit id="3"><source>You have <x id="2"/> items</source></trans-unit>
<trans-unit id="4"><source>The <g id="1">red</g><g id="2">blue</g> flag is old.</source></trans-unit>
</body></file></xliff>
EOF
cat >"$tmp/want" <<'EOF'
Tienes <x id="9"/> mensajes nuevos.
Bienvenido a nuestra tienda on-line, <x id="1"/>!
Tienes <x id="2"/> elementos
El <g id="1">red</g><g id="2">blue</g> la bandera es vieja.
EOF
for probes in auto off; do
  run "XLIFF 1.2, probes $probes" "$tmp/in.xlf" "$tmp/out.xlf" \
    --probes "$probes" &&
    same "XLIFF 1.2, probes $probes: spacing kept, pairs side by side" \
      "$tmp/out.xlf"
done

# --- XLIFF 2, as Angular's extractor writes it --------------------------------
cat >"$tmp/in2.xlf" <<'EOF'
<?xml version="1.0" encoding="UTF-8" ?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
  <file id="ngi18n" original="ng.template">
    <unit id="msgs">
      <segment>
        <source>You have <ph id="0"/> new messages.</source>
      </segment>
    </unit>
    <unit id="welcome">
      <segment>
        <source>Welcome to our online shop, <ph id="0" equiv="INTERPOLATION" disp="{{ userName }}"/>!</source>
      </segment>
    </unit>
    <unit id="items">
      <segment>
        <source>You have <ph id="0" equiv="INTERPOLATION" disp="{{ count }}"/> items</source>
      </segment>
    </unit>
    <unit id="flag">
      <segment>
        <source>The <pc id="1">red</pc><pc id="2">blue</pc> flag is old.</source>
      </segment>
    </unit>
  </file>
</xliff>
EOF
cat >"$tmp/want" <<'EOF'
Tienes <ph id="0"/> mensajes nuevos.
Bienvenido a nuestra tienda on-line, <ph id="0" equiv="INTERPOLATION" disp="{{ userName }}"/>!
Tienes <ph id="0" equiv="INTERPOLATION" disp="{{ count }}"/> elementos
El <pc id="1">red</pc><pc id="2">blue</pc> la bandera es vieja.
EOF
for probes in auto off; do
  run "XLIFF 2, probes $probes" "$tmp/in2.xlf" "$tmp/out2.xlf" \
    --probes "$probes" &&
    same "XLIFF 2, probes $probes: spacing kept, pairs side by side" \
      "$tmp/out2.xlf"
done

# --- HTML --------------------------------------------------------------------
cat >"$tmp/in.html" <<'EOF'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>T</title></head><body>
<p>You have <img src="x.png" alt=""> new messages.</p>
<p>Welcome to our online shop, <img src="u.png" alt="">!</p>
<p>You have <img src="n.png" alt=""> items</p>
<p>The <b>red</b><i>blue</i> flag is old.</p>
</body></html>
EOF
cat >"$tmp/want" <<'EOF'
Tienes <img src="x.png" alt=""> mensajes nuevos.
Bienvenido a nuestra tienda on-line, <img src="u.png" alt="">!
Tienes <img src="n.png" alt=""> elementos
El <b>red</b><i>blue</i> la bandera es vieja.
EOF
for probes in auto off; do
  run "HTML, probes $probes" "$tmp/in.html" "$tmp/out.html" \
    --probes "$probes" &&
    same "HTML, probes $probes: spacing kept, pairs side by side" \
      "$tmp/out.html"
done

# --- The server: DeepL's XML tags (Weblate), the APy's HTML -------------------
if command -v curl >/dev/null 2>&1; then
  . "$(dirname "$0")/../serve/lib.sh"
  if serve_start spacing --mt apertium:eng-spa --threads 1; then
    # deepl DESC TEXT WANT: /v2/translate with tag_handling=xml.
    deepl() {
      expect "serve, DeepL xml: $1" 200 \
        "{\"translations\":[{\"detected_source_language\":\"EN\",\"text\":\"$3\"}]}" \
        "$url/v2/translate" -d source_lang=EN -d target_lang=ES \
        -d tag_handling=xml --data-urlencode "text=$2"
    }
    deepl "placeholder between words" \
      'You have <x id="9"></x> new messages.' \
      'Tienes <x id=\"9\"></x> mensajes nuevos.'
    deepl "placeholder before the final mark" \
      'Welcome to our online shop, <x id="1"/>!' \
      'Bienvenido a nuestra tienda on-line, <x id=\"1\"/>!'
    deepl "pairs side by side" 'The <b>red</b><i>blue</i> flag is old.' \
      'El <b>red</b><i>blue</i> la bandera es vieja.'
    expect "serve, APy html: image between words" 200 \
      '{"responseData": {"translatedText": "Tienes <img src=\"a.png\"> mensajes nuevos."}, "responseDetails": null, "responseStatus": 200}' \
      "$url/translate" -d 'langpair=en|es' -d format=html \
      --data-urlencode 'q=You have <img src="a.png"> new messages.'
    serve_stop
  else
    fail "serve: the server starts"
  fi
else
  echo "# curl not installed: the server's checks skipped"
fi

finish
