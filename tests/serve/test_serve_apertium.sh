#!/bin/sh
# test_serve_apertium.sh: the same requests to Debian's apertium-apy and
# to `xliffmt serve --mt apertium`, side by side, on the installed pairs:
# the same status codes and JSON shapes everywhere, the same bytes for
# text (markUnknown=no, as OmegaT, Okapi and Weblate send: xliffmt's
# Apertium backend never marks unknown words) and for the errors; for
# tags and HTML, xliffmt's answer with each tag on the right word. Then
# the DeepL and LibreTranslate APIs with Apertium behind.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (apertium-apy, the Apertium
# eng-spa pair, python3 or curl not installed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-apertium
. "$(dirname "$0")/lib.sh"

modes=/usr/share/apertium/modes
for need in apertium-apy python3 apertium-wblank-mode; do
  if ! command -v $need >/dev/null; then
    echo "SKIP: $need not installed (apt-get install apertium-apy apertium-eng-spa)"
    exit 77
  fi
done
if [ ! -r "$modes/eng-spa.mode" ]; then
  echo "SKIP: the Apertium eng-spa pair is not installed (apt-get install apertium-eng-spa)"
  exit 77
fi

# apertium-apy on a free loopback port.
apy_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
apertium-apy -p "$apy_port" "$modes" >"$tmp/apy.log" 2>&1 &
servers="$servers $!"
apy=http://127.0.0.1:$apy_port
n=0
until curl -s -o /dev/null "$apy/listPairs"; do
  n=$((n + 1))
  if [ $n -gt 150 ]; then
    echo "# apertium-apy did not start:"
    sed 's/^/#   /' "$tmp/apy.log"
    exit 1
  fi
  sleep 0.1
done

serve_start apertium --mt apertium --threads 1 || exit 1
x=$url

# both PATH CURL-ARGS...: asks both; apy_status, apy_body, status, body.
both() {
  path=$1
  shift
  ask "$apy$path" "$@"
  apy_status=$status apy_body=$body
  ask "$x$path" "$@"
}
# same DESC PATH CURL-ARGS...: the same status and the same bytes.
same() {
  desc=$1
  shift
  both "$@"
  if [ "$status" = "$apy_status" ] && [ "$body" = "$apy_body" ]; then
    pass "$desc: $status, as apertium-apy"
  else
    fail "$desc"
    echo "    apertium-apy: $apy_status $apy_body"
    echo "    xliffmt:      $status $body"
  fi
}
# shape JSON: the keys and value types, recursively, of a JSON text.
shape() {
  python3 -c '
import json, sys
def shape(v):
    if isinstance(v, dict):
        return {k: shape(x) for k, x in sorted(v.items())}
    if isinstance(v, list):
        return [shape(v[0])] if v else []
    return type(v).__name__
print(json.dumps(shape(json.loads(sys.argv[1]))))' "$1"
}
# like DESC WANT PATH CURL-ARGS...: the same status and JSON shape as
# apertium-apy, and xliffmt's body is WANT.
like() {
  desc=$1 want=$2
  shift 2
  both "$@"
  if [ "$status" = "$apy_status" ] &&
    [ "$(shape "$body")" = "$(shape "$apy_body")" ] && [ "$body" = "$want" ]; then
    pass "$desc: $status, shaped as apertium-apy's"
  else
    fail "$desc"
    echo "    apertium-apy: $apy_status $apy_body"
    echo "    xliffmt:      $status $body"
    echo "    expected:     $want"
  fi
}
ok='"responseDetails": null, "responseStatus": 200}'

# --- Text: the same bytes ----------------------------------------------------
same "GET, one sentence" "/translate?langpair=eng|spa&q=Hello+world.&markUnknown=no"
same "POST, white space around" /translate -d markUnknown=no \
  -d 'langpair=eng|spa' --data-urlencode 'q=  Hi there  '
same "lines and the space between kept" /translate -d markUnknown=no \
  -d 'langpair=eng|spa' -d format=txt --data-urlencode 'q=Hello world.

  The red car.  
'
same "a tab, a new line" /translate -d markUnknown=no -d 'langpair=eng|spa' \
  -d format=txt --data-urlencode "q=$(printf '\tTab first.\nSecond line.')"
same "a sentence over two lines" /translate -d markUnknown=no \
  -d 'langpair=eng|spa' --data-urlencode 'q=Line one
Line two'
same "ISO 639-1 pair" "/translate?langpair=en|es&q=The+cat+sleeps.&markUnknown=no"
same "a pair with a variant" /translate -d markUnknown=no \
  -d 'langpair=spa|eng_US' --data-urlencode 'q=Hola mundo.'
same "an entity, no format (HTML in APy)" /translate -d markUnknown=no \
  -d 'langpair=eng|spa' --data-urlencode 'q=Tom &amp; Jerry'
same "a bare '&', no format (OmegaT's, Weblate's requests)" /translate \
  -d markUnknown=no -d 'langpair=eng|spa' \
  --data-urlencode 'q=Tom & Jerry see the big dog.'
same "a lone '<'" /translate -d markUnknown=no -d 'langpair=eng|spa' \
  --data-urlencode 'q=a < b'
same "empty q" "/translate?langpair=eng|spa&q="

# --- Errors: the same bytes ----------------------------------------------------
same "no q" "/translate?langpair=eng|spa"
same "no langpair" "/translate?q=Hello"
same "a pair not installed" "/translate?langpair=eng|fra&q=Hello"
same "a pair without '|'" "/translate?langpair=engspa&q=Hello"
same "a list of analysers" "/listPairs?q=analysers"
same "a list of something else" "/listPairs?q=bogus"

like "not UTF-8 on the markup path: 400" \
  '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "text 1 is not valid UTF-8 (byte 10: 0xFF)"}' \
  "/translate?langpair=eng|spa&q=Tom+%26+red%FF+car&markUnknown=no"

# --- Lists: the same pairs ---------------------------------------------------
both /listPairs
sorted() { python3 -c '
import json, sys
d = json.loads(sys.argv[1])
d["responseData"].sort(key=lambda p: (p["sourceLanguage"], p["targetLanguage"]))
print(json.dumps(d))' "$1"; }
check "listPairs: the same pairs" \
  [ "$status" = "$apy_status" ] && [ "$(sorted "$body")" = "$(sorted "$apy_body")" ]
both /listLanguageNames
check "listLanguageNames: an object, as apertium-apy's" \
  [ "$status" = "$apy_status" ] && [ "$(shape "$body" | cut -c1)" = '{' ] &&
  [ "$(shape "$apy_body" | cut -c1)" = '{' ]

# --- Tags: each on its word ----------------------------------------------------
like "OmegaT's tags" \
  '{"responseData": {"translatedText": "El coche <g0>rojo<\/g0><x1/>."}, '"$ok" \
  /translate -d markUnknown=no -d 'langpair=eng|spa' \
  --data-urlencode 'q=The <g0>red</g0> car<x1/>.'
like "HTML" \
  '{"responseData": {"translatedText": "<p>El coche <b>rojo<\/b>.<\/p>"}, '"$ok" \
  /translate -d markUnknown=no -d 'langpair=eng|spa' -d format=html \
  --data-urlencode 'q=<p>The <b>red</b> car.</p>'
like "HTML with a link" \
  '{"responseData": {"translatedText": "<p>Clic <a href=\"http://x.org/\">aquí<\/a> para ver la casa <i>nueva<\/i>.<\/p>"}, '"$ok" \
  /translate -d markUnknown=no -d 'langpair=eng|spa' -d format=html \
  --data-urlencode 'q=<p>Click <a href="http://x.org/">here</a> to see the <i>new</i> house.</p>'
like "Okapi's coded HTML" \
  "{\"responseData\": {\"translatedText\": \"Prensa el botón<br id='p2'/> <u id='1'>rojo<\\/u> ahora.\"}, $ok" \
  /translate -d markUnknown=no -d 'langpair=en|es' -d format=html \
  --data-urlencode "q=Press the <u id='1'>red</u> button<br id='p2'/> now."

# --- The other APIs, Apertium behind ----------------------------------------
expect "DeepL" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"El coche rojo."},{"detected_source_language":"EN","text":"El <b>coche</b> azul."}]}' \
  "$x/v2/translate" -d target_lang=ES -d source_lang=EN \
  -d 'text=The red car.' -d tag_handling=xml \
  --data-urlencode 'text=The blue <b>car</b>.'
expect "LibreTranslate" 200 '{"translatedText":"El coche rojo."}' \
  "$x/translate" -H 'Content-Type: application/json' \
  -d '{"q":"The red car.","source":"en","target":"es"}'
# The languages of the pairs installed: English and Spanish (eng-spa),
# and whatever else is installed besides (apertium-eng-cat...), each once.
ask "$x/v2/languages"
check "DeepL source languages: English and Spanish among them, each once" \
  python3 -c '
import json, sys
langs = json.loads(sys.argv[1])
codes = [l["language"] for l in langs]
sys.exit(not ({"language": "EN", "name": "English"} in langs and
              {"language": "ES", "name": "Spanish"} in langs and
              len(codes) == len(set(codes))))' "$body"
serve_stop
check "exit 0" [ "$rc" -eq 0 ]
finish
