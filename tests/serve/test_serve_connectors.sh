#!/bin/sh
# test_serve_connectors.sh: what a connector's setup and a monitor need.
# /health is degraded (503, with the reason) while the engine is down, a
# log line and counters tell its failure and its recovery. LibreTranslate's
# /languages lists targets too, its errors are LibreTranslate's, multipart
# bodies are forms; OmegaT's LibreTranslate plug-in posts to the root.
# Weblate's checks of a service, as its machinery code sends them: DeepL
# and LibreTranslate translate "test" from en to de (saved only when the
# server has that pair; otherwise an error that says what it has),
# Weblate 4.x's DeepL reads /v2/languages without a type (the sources),
# APy translates with the first pair listed.
# OmegaT's and Okapi's Apertium connectors, their requests as they send
# them. All of it over HTTP, then over HTTPS (a certificate made here).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl; neither openssl
# nor certtool, once the HTTP pass has passed).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-connectors
. "$(dirname "$0")/lib.sh"

# --- An engine that dies, and comes back -----------------------------------
# It gives each line back (the check line of digits too) until $tmp/dead
# exists, then exits at the next line; the server reopens it after a
# failure, and it works again once $tmp/dead is gone.
cat >"$tmp/eng.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ -e "$tmp/dead" ] && exit 1
  printf '%s\n' "\$line"
done
EOD
chmod +x "$tmp/eng.sh"

echo "k3y" >"$tmp/keys"
counters='engine_failures_total\|engine_restarts_total\|engines_down'

# engine_dies: the engine fails twice, then recovers: /health, /metrics
# and the lines on stderr.
engine_dies() {
  serve_start dies --mt "cmd:$tmp/eng.sh" -s en -t es --threads 1 || exit 1
  u=$url
  mt="cmd:$tmp/eng.sh"
  healthy='{"status":"ok","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
  down='{"status":"degraded","reason":"engine '"$mt"': engine '"'$tmp/eng.sh'"' exited with status 1","backend":"'"$mt"'","workers":1,"busy":0,"queued":0}'
  apy_ok='{"responseData": {"translatedText": "hello"}, "responseDetails": null, "responseStatus": 200}'
  apy_503='{"status": "error", "code": 503, "message": "Service Unavailable", "explanation": "1 segment not translated"}'
  # metrics: the engine counters of /metrics, one line
  metrics() {
    xcurl -s "$u/metrics" | sed -n "s/^xliffmt_serve_\\($counters\\) //p" |
      tr '\n' ' '
  }
  # engine_lines: the lines of the server's stderr about its engine
  engine_lines() {
    grep -c "^xliffmt serve: engine " "$tmp/dies.err"
  }

  expect "health before any translation" 200 "$healthy" "$u/health"
  expect "a translation" 200 "$apy_ok" "$u/translate?langpair=en|es&q=hello"
  : >"$tmp/dead"
  expect "the engine dies: 503" 503 "$apy_503" \
    "$u/translate?langpair=en|es&q=hello"
  expect "health while the engine is down: degraded, with the reason" 503 \
    "$down" "$u/health"
  expect "the engine dies again: 503" 503 "$apy_503" \
    "$u/translate?langpair=en|es&q=hello"
  if [ "$(metrics)" = "2 2 1 " ]; then
    pass "metrics: 2 failures, 2 restarts, 1 engine down"
  else
    fail "metrics: 2 failures, 2 restarts, 1 engine down (got $(metrics))"
  fi
  if [ "$(engine_lines)" = 1 ] &&
    grep -qxF "xliffmt serve: engine $mt: engine '$tmp/eng.sh' exited with status 1" \
      "$tmp/dies.err"; then
    pass "one line on stderr for the failure"
  else
    fail "one line on stderr for the failure"
    sed 's/^/#   /' "$tmp/dies.err"
  fi
  rm -f "$tmp/dead"
  expect "the engine restarted translates" 200 "$apy_ok" \
    "$u/translate?langpair=en|es&q=hello"
  expect "health after the recovery" 200 "$healthy" "$u/health"
  if [ "$(metrics)" = "2 2 0 " ]; then
    pass "metrics after the recovery: no engine down"
  else
    fail "metrics after the recovery: no engine down (got $(metrics))"
  fi
  if [ "$(engine_lines)" = 2 ] &&
    tail -n 1 "$tmp/dies.err" | grep -qxF "xliffmt serve: engine $mt: recovered"; then
    pass "one line on stderr for the recovery"
  else
    fail "one line on stderr for the recovery"
    sed 's/^/#   /' "$tmp/dies.err"
  fi
  serve_stop
}

# --- LibreTranslate ----------------------------------------------------------
libretranslate() {
  json='Content-Type: application/json'
  serve_start libre --mt identity -s en -t es --threads 1 --max-body 600 ||
    exit 1
  u=$url
  expect "LibreTranslate /languages: the target-only language too" 200 \
    '[{"code":"en","name":"English","targets":["es"]},{"code":"es","name":"Spanish","targets":[]}]' \
    "$u/languages"
  expect "LibreTranslate multipart body (curl -F)" 200 \
    '{"translatedText":"The red car."}' \
    -F 'q=The red car.' -F source=en -F target=es "$u/translate"
  expect "LibreTranslate multipart body, two lines and a format" 200 \
    '{"translatedText":"One.\nTwo."}' \
    -F 'q=One.
Two.' -F source=en -F target=es -F format=text "$u/translate"
  expect "LibreTranslate multipart body without a boundary" 400 \
    '{"error":"the body is not multipart/form-data"}' \
    -H 'Content-Type: multipart/form-data' --data-binary 'q=x' "$u/translate"
  expect "LibreTranslate malformed JSON" 400 '{"error":"Invalid JSON format"}' \
    -H "$json" -d '{"q":' "$u/translate"
  expect "LibreTranslate JSON over --max-body" 413 \
    '{"error":"request body larger than 600 bytes"}' \
    -H "$json" -d "{\"q\":\"$(printf '%0700d' 0)\",\"source\":\"en\",\"target\":\"es\"}" \
    "$u/translate"
  expect "LibreTranslate multipart over --max-body" 413 \
    '{"error":"request body larger than 600 bytes"}' \
    -F "q=$(printf '%0700d' 0)" -F source=en -F target=es "$u/translate"
  expect "LibreTranslate body of another type" 415 \
    '{"error":"the body must be application/x-www-form-urlencoded, multipart/form-data or application/json"}' \
    -H 'Content-Type: text/xml' -d '<q/>' "$u/translate?source=en&target=es"
  # OmegaT's LibreTranslate plug-in: a form posted to the URL as typed.
  expect "OmegaT's LibreTranslate plug-in: POST to the root" 200 \
    '{"translatedText":"The red car."}' \
    --data-urlencode 'q=The red car.' -d source=en -d target=es "$u/"
  expect "POST to the root, JSON" 200 '{"translatedText":"The red car."}' \
    -H "$json" -d '{"q":"The red car.","source":"en","target":"es"}' "$u"
  ask "$u/"
  if [ "$status" = 404 ]; then
    pass "GET of the root: still 404"
  else
    fail "GET of the root: still 404 (got $status)"
  fi
  serve_stop

  serve_start keyed --mt identity -s en -t es --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  u=$url
  expect "OmegaT's plug-in (no key) against a keyed server: 403" 403 \
    '{"error":"Invalid API key"}' \
    --data-urlencode 'q=The red car.' -d source=en -d target=es "$u/"
  expect "npm libretranslate's apiKey is a key" 200 \
    '{"translatedText":"The red car."}' \
    -H "$json" -d '{"q":"The red car.","source":"en","target":"es","apiKey":"k3y"}' \
    "$u/translate"
  serve_stop
}

# --- Weblate's checks of a service -------------------------------------------
weblate() {
  auth='Authorization: DeepL-Auth-Key k3y'
  deepl_check='{"text":["test"],"source_lang":"en","target_lang":"de","formality":"default","tag_handling":"xml","ignore_tags":["x"]}'
  libre_check='{"api_key":"k3y","q":["test"],"source":"en","target":"de"}'
  serve_start weblate_es --mt identity -s en -t es --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  u=$url
  expect "Weblate DeepL: the source languages" 200 \
    '[{"language":"EN","name":"English"}]' -H "$auth" "$u/v2/languages?type=source"
  expect "Weblate DeepL: the target languages" 200 \
    '[{"language":"ES","name":"Spanish","supports_formality":false}]' \
    -H "$auth" "$u/v2/languages?type=target"
  # Weblate 4.x posts auth_key without a type and looks both languages
  # of a pair up in the answer: DeepL's sources (deepl-node's
  # getSourceLanguages asks the same), so an en-es server has en-es only
  # for a Weblate that also finds ES there: one that serves es-en too.
  expect "Weblate 4.x DeepL: /v2/languages without a type: the sources" 200 \
    '[{"language":"EN","name":"English"}]' -d auth_key=k3y "$u/v2/languages"
  expect "Weblate DeepL check (en to de) on an en-es server: what it serves" 400 \
    "{\"message\":\"Value for 'target_lang' not supported; this server translates EN to ES.\"}" \
    -H "$auth" -H "$json" -d "$deepl_check" "$u/v2/translate"
  expect "Weblate LibreTranslate check (en to de) on an en-es server" 400 \
    '{"error":"de is not supported (this server translates en to es)"}' \
    -H "$json" -d "$libre_check" "$u/translate"
  serve_stop

  serve_start weblate_de --mt identity -s en -t de --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  u=$url
  expect "Weblate DeepL check on a server with en to de" 200 \
    '{"translations":[{"detected_source_language":"EN","text":"test"}]}' \
    -H "$auth" -H "$json" -d "$deepl_check" "$u/v2/translate"
  expect "Weblate LibreTranslate check on a server with en to de" 200 \
    '{"translatedText":["test"]}' -H "$json" -d "$libre_check" "$u/translate"
  serve_stop

  # Weblate's Apertium APy service sends no key and checks with the first
  # pair /listPairs gives: any server without keys passes.
  serve_start weblate_apy --mt identity -s en -t es --threads 1 || exit 1
  u=$url
  expect "Weblate APy: the pairs" 200 \
    '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}], "responseDetails": null, "responseStatus": 200}' \
    "$u/listPairs"
  expect "Weblate APy check: the first pair" 200 \
    '{"responseData": {"translatedText": "test"}, "responseDetails": null, "responseStatus": 200}' \
    "$u/translate?langpair=eng%7Cspa&q=test&markUnknown=no"
  serve_stop
}

# --- OmegaT's and Okapi's Apertium connectors -------------------------------
# As their code sends them, to a keyed server: OmegaT's ApertiumTranslate
# a GET of the URL typed (ending in /translate) with langpair, markUnknown,
# q and key; Okapi's ApertiumMTConnector a form posted with format=html and
# its codes as <u id>, <br id/>.
omegat_okapi() {
  ok_tail='"responseDetails": null, "responseStatus": 200}'
  serve_start apertium --mt pseudo -s en -t es --threads 1 \
    --auth-key-file "$tmp/keys" || exit 1
  u=$url
  expect "OmegaT's Apertium connector: its codes on their words" 200 \
    '{"responseData": {"translatedText": "[<g0>réd<\/g0> Thé çár.<x1/> ~~~~]"}, '"$ok_tail" \
    -G "$u/translate" -d 'langpair=en|es' -d markUnknown=no \
    --data-urlencode 'q=The <g0>red</g0> car<x1/>.' -d key=k3y
  expect "OmegaT's Apertium connector without its key: 403" 403 \
    '{"status": "error", "code": 403, "message": "Forbidden", "explanation": "Authorization failed. Please supply a valid auth_key."}' \
    -G "$u/translate" -d 'langpair=en|es' -d markUnknown=no -d q=car
  expect "Okapi's Apertium connector: coded HTML" 200 \
    "{\"responseData\": {\"translatedText\": \"[thé Préss búttóñ<br id='p2'/> <u id='1'>réd<\\/u> ñów. ~~~~~~~~]\"}, $ok_tail" \
    "$u/translate" -d 'langpair=en|es' -d format=html -d markUnknown=no \
    --data-urlencode "q=Press the <u id='1'>red</u> button<br id='p2'/> now." \
    -d key=k3y
  expect "a pair the server lacks: APy's message" 400 \
    '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "That pair is not installed"}' \
    "$u/translate" -d 'langpair=en|de' -d markUnknown=no -d 'q=The red car.' \
    -d key=k3y
  serve_stop
}

sequence() {
  engine_dies
  libretranslate
  omegat_okapi
  weblate
}
each_scheme sequence
finish
