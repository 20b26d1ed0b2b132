#!/bin/sh
# test_serve_api.sh: xliffmt serve with the identity and pseudo backends
# (exact, deterministic answers) answers every endpoint of the three APIs
# with the JSON and status codes of apertium-apy, DeepL and
# LibreTranslate: translations of plain text, OmegaT's and DeepL's XML
# tags, HTML fragments; lists of pairs and languages; their errors;
# /health, /metrics and the access log.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-api
. "$(dirname "$0")/lib.sh"

ok='"responseDetails": null, "responseStatus": 200}'
bad() { # bad STATUS REASON EXPLANATION: APy's error object
  printf '{"status": "error", "code": %s, "message": "%s", "explanation": "%s"}' \
    "$1" "$2" "$3"
}
form='application/x-www-form-urlencoded'
json='Content-Type: application/json'

serve_start identity --mt identity -s en -t es --threads 1 \
  --access-log "$tmp/access.log" || exit 1
u=$url

# --- Apertium APy ----------------------------------------------------------
expect "APy listPairs" 200 \
  '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}], '"$ok" \
  "$u/listPairs"
expect "APy listPairs with the two-letter codes" 200 \
  '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}, {"sourceLanguage": "en", "targetLanguage": "es"}], '"$ok" \
  "$u/listPairs?include_deprecated_codes=1"
expect "APy list of analysers: none" 200 '{}' "$u/list?q=analysers"
expect "APy list of something else" 400 \
  "$(bad 400 'Bad Request' 'Expecting q argument to be one of analysers, generators, spellers, disambiguators, or pairs')" \
  "$u/listPairs?q=bogus"
expect "APy listLanguageNames" 200 '{"eng": "English", "spa": "Spanish"}' \
  "$u/listLanguageNames"
expect "APy listLanguageNames of languages asked" 200 \
  '{"eng": "English", "fra": "French"}' \
  "$u/listLanguageNames?languages=eng%20fra%20xx"
expect "APy GET, white space around dropped as APy does" 200 \
  '{"responseData": {"translatedText": "Hello world.\n\n  Bye."}, '"$ok" \
  "$u/translate?langpair=eng|spa&q=%20%20Hello+world.%0A%0A%20%20Bye.%20%0A"
expect "APy POST form, ISO 639-1 pair" 200 \
  '{"responseData": {"translatedText": "The red car"}, '"$ok" \
  "$u/translate" --data-urlencode 'q=The red car' -d 'langpair=en|es' \
  -d markUnknown=no
expect "APy OmegaT tags, '</' written as Python writes it" 200 \
  '{"responseData": {"translatedText": "The <g0>red<\/g0> car<x1/>."}, '"$ok" \
  "$u/translate" --data-urlencode 'q=The <g0>red</g0> car<x1/>.' \
  -d 'langpair=eng|spa'
expect "APy format=html" 200 \
  '{"responseData": {"translatedText": "<p>Tom &amp; <b>Jerry<\/b><\/p>"}, '"$ok" \
  "$u/translate" --data-urlencode 'q=<p>Tom &amp; <b>Jerry</b></p>' \
  -d 'langpair=eng|spa' -d format=html
expect "APy markup that is not XML, no format: a page, as in APy" 200 \
  '{"responseData": {"translatedText": "Tom <br> Jerry"}, '"$ok" \
  "$u/translate" --data-urlencode 'q=Tom <br> Jerry' -d 'langpair=eng|spa'
expect "APy format=txt with markup that is not XML" 400 \
  "$(bad 400 'Bad Request' 'malformed XML markup in the text (column 13)')" \
  "$u/translate" --data-urlencode 'q=Tom <b>Jerry' -d 'langpair=eng|spa' \
  -d format=txt
expect "APy without langpair" 400 \
  "$(bad 400 'Bad Request' 'Missing argument langpair')" "$u/translate?q=x"
expect "APy without q" 400 "$(bad 400 'Bad Request' 'Missing argument q')" \
  "$u/translate?langpair=eng|spa"
expect "APy pair not served" 400 \
  "$(bad 400 'Bad Request' 'That pair is not installed')" \
  "$u/translate?langpair=eng|fra&q=x"
expect "APy bad pair" 400 \
  "$(bad 400 'Bad Request' 'That pair is invalid, use e.g. eng|spa')" \
  "$u/translate?langpair=engspa&q=x"
expect "unknown path" 404 \
  '<html><title>404: Not Found</title><body>404: Not Found</body></html>' \
  "$u/nothere"
expect "DELETE" 405 \
  "$(bad 405 'Method Not Allowed' 'method not allowed')" -X DELETE \
  "$u/translate"
ask -X OPTIONS "$u/translate"
check "OPTIONS: 204 with CORS headers" \
  [ "$status" = 204 ] && [ "$(header Access-Control-Allow-Origin)" = '*' ]

# --- DeepL -----------------------------------------------------------------
expect "DeepL form, repeated text" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"Hello"},{"detected_source_language":"EN","text":"World"}]}' \
  "$u/v2/translate" -d text=Hello -d text=World -d target_lang=ES
expect "DeepL JSON, xml, ignore_tags" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"<p>Hi <b>x</b></p>"}]}' \
  "$u/v2/translate" -H "$json" \
  -d '{"text":["<p>Hi <b>x</b></p>"],"target_lang":"es","tag_handling":"xml","ignore_tags":["b"],"formality":"less"}'
expect "DeepL xml, a text without tags untouched" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"a > b"}]}' \
  "$u/v2/translate" -d 'text=a > b' -d target_lang=ES -d tag_handling=xml
expect "DeepL /v1, billed characters, unknown parameter ignored" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"x","billed_characters":1},{"detected_source_language":"EN","text":"¡Olé!","billed_characters":5}]}' \
  "$u/v1/translate" -d text=x -d 'text=¡Olé!' -d target_lang=ES \
  -d show_billed_characters=1 -d whatever=1
expect "DeepL html" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"<p>a &amp; <i>b</i></p>"}]}' \
  "$u/v2/translate" --data-urlencode 'text=<p>a &amp; <i>b</i></p>' \
  -d target_lang=ES -d tag_handling=html
expect "DeepL malformed xml" 400 \
  '{"message":"Tag handling parsing failed, please check input."}' \
  "$u/v2/translate" -H "$json" \
  -d '{"text":"<a>x</b>","target_lang":"ES","tag_handling":"xml"}'
expect "DeepL target not served" 400 \
  "{\"message\":\"Value for 'target_lang' not supported; this server translates EN to ES.\"}" \
  "$u/v2/translate" -d text=x -d target_lang=FR
expect "DeepL source not served" 400 \
  "{\"message\":\"Value for 'source_lang' not supported; this server translates EN to ES.\"}" \
  "$u/v2/translate" -d text=x -d target_lang=ES -d source_lang=DE
expect "DeepL bad tag_handling" 400 \
  "{\"message\":\"Value for 'tag_handling' not supported.\"}" \
  "$u/v2/translate" -d text=x -d target_lang=ES -d tag_handling=foo
expect "DeepL bad split_sentences" 400 \
  "{\"message\":\"Value for 'split_sentences' not supported.\"}" \
  "$u/v2/translate" -d text=x -d target_lang=ES -d split_sentences=2
expect "DeepL without target_lang" 400 \
  "{\"message\":\"Parameter 'target_lang' not specified.\"}" \
  "$u/v2/translate" -d text=x
expect "DeepL without text" 400 \
  "{\"message\":\"Parameter 'text' not specified.\"}" \
  "$u/v2/translate" -d target_lang=ES
expect "DeepL JSON that is not an object" 400 \
  '{"message":"the body is not a JSON object"}' \
  "$u/v2/translate" -H "$json" -d '[1]'
expect "DeepL multipart body cut short" 400 \
  '{"message":"the body is not multipart/form-data"}' \
  "$u/v2/translate" -H 'Content-Type: multipart/form-data; boundary=x' -d x
expect "DeepL body of another type" 415 \
  "{\"message\":\"the body must be $form, multipart/form-data or application/json\"}" \
  "$u/v2/translate" -H 'Content-Type: text/xml' -d x
expect "DeepL source languages" 200 '[{"language":"EN","name":"English"}]' \
  "$u/v2/languages?type=source"
expect "DeepL target languages" 200 \
  '[{"language":"ES","name":"Spanish","supports_formality":false}]' \
  "$u/v2/languages?type=target"
expect "DeepL bad language type" 400 \
  "{\"message\":\"Value for 'type' not supported.\"}" "$u/v2/languages?type=x"
expect "DeepL glossary pairs: none" 200 '{"supported_languages":[]}' \
  "$u/v2/glossary-language-pairs"
expect "DeepL glossaries: none" 200 '{"glossaries":[]}' "$u/v2/glossaries"
expect "DeepL unknown path" 404 '{"message":"Not found"}' "$u/v2/no-such-endpoint"
ask "$u/v2/usage"
check "DeepL usage" grep -q \
  '^{"character_count":[0-9]*,"character_limit":1000000000000}$' "$tmp/body"

# --- LibreTranslate --------------------------------------------------------
expect "LibreTranslate form" 200 '{"translatedText":"Hello there"}' \
  "$u/translate" -d 'q=Hello there' -d source=en -d target=es
expect "LibreTranslate JSON array, source auto" 200 \
  '{"detectedLanguage":[{"confidence":100.0,"language":"en"},{"confidence":100.0,"language":"en"}],"translatedText":["a","<b>b</b>"]}' \
  "$u/translate" -H "$json" \
  -d '{"q":["a","<b>b</b>"],"source":"auto","target":"es","api_key":""}'
expect "LibreTranslate html" 200 '{"translatedText":"<p>a &amp; b</p>"}' \
  "$u/translate" --data-urlencode 'q=<p>a &amp; b</p>' -d source=en \
  -d target=es -d format=html
expect "LibreTranslate empty q" 400 \
  '{"error":"Invalid request: missing q parameter"}' "$u/translate" \
  -H "$json" -d '{"q":"","source":"en","target":"es"}'
expect "LibreTranslate without source" 400 \
  '{"error":"Invalid request: missing source parameter"}' "$u/translate" \
  -d q=x -d target=es
expect "LibreTranslate without target" 400 \
  '{"error":"Invalid request: missing target parameter"}' "$u/translate" \
  -d q=x -d source=en
expect "LibreTranslate bad format" 400 '{"error":"pdf format is not supported"}' \
  "$u/translate" -d q=x -d source=en -d target=es -d format=pdf
expect "LibreTranslate source not served" 400 \
  '{"error":"de is not supported (this server translates en to es)"}' \
  "$u/translate" -d q=x -d source=de -d target=es
expect "LibreTranslate malformed markup" 400 \
  '{"error":"malformed XML markup in the text (column 12)"}' \
  "$u/translate" --data-urlencode 'q=Hi <b>there' -d source=en -d target=es
expect "LibreTranslate languages" 200 \
  '[{"code":"en","name":"English","targets":["es"]},{"code":"es","name":"Spanish","targets":[]}]' \
  "$u/languages"

# --- Operations --------------------------------------------------------------
expect "health" 200 \
  '{"status":"ok","backend":"identity","workers":1,"busy":0,"queued":0}' \
  "$u/health"
ask "$u/metrics"
check "metrics: requests by path and status" \
  grep -q '^xliffmt_serve_requests_total{path="/v2/translate",status="400"} [1-9]' \
  "$tmp/body"
check "metrics: latency histogram" \
  grep -q '^xliffmt_serve_request_duration_seconds_bucket{le="+Inf"} [1-9]' \
  "$tmp/body"
n=$(grep -c '^xliffmt_serve_\(segments_total\|engine_seconds_total\|queue_depth\) ' \
  "$tmp/body")
check "metrics: segments, engine time, queue depth" [ "$n" -eq 3 ]
serve_stop
check "SIGTERM: exit 0" [ "$rc" -eq 0 ]
n=$(wc -l <"$tmp/access.log")
check "access log: one line per request ($n)" [ "$n" -gt 50 ]
check "access log: time, client, method, path, status, bytes, ms, segments" \
  grep -q '^....-..-..T..:..:..Z 127\.0\.0\.1 POST /v2/translate 200 [0-9]* [0-9.]* 2$' \
  "$tmp/access.log"

# --- Tags put back by projection (pseudo: words swapped, accented) ----------
serve_start pseudo --mt pseudo -s en -t es --threads 1 || exit 1
u=$url
expect "pseudo, APy: OmegaT's codes on their words" 200 \
  '{"responseData": {"translatedText": "[thé Préss búttóñ<x1/> <g0>réd<\/g0> ñów. ~~~~~~~~]"}, '"$ok" \
  "$u/translate" --data-urlencode 'q=Press the <g0>red</g0> button<x1/> now.' \
  -d 'langpair=eng|spa'
expect "pseudo, DeepL xml: an ignored element kept whole" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"[<code>make <b>check</b></code>áñd Rúñ <b>wáít.</b> ~~~~~]"}]}' \
  "$u/v2/translate" -d target_lang=ES -d tag_handling=xml -d ignore_tags=code \
  --data-urlencode 'text=Run <code>make <b>check</b></code> and <b>wait</b>.'
expect "pseudo, DeepL xml: a splitting tag cuts the text" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"<b>[líñé Fírst ~~~]<br/>[líñé séçóñd ~~~~]</b>"}]}' \
  "$u/v2/translate" -d target_lang=ES -d tag_handling=xml \
  -d splitting_tags=br --data-urlencode 'text=<b>First line<br/>second line</b>'
expect "pseudo, DeepL html" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"<p>[thé Ópéñ <a href=\"/x\">págé séttíñgs</a> sávé. &amp; ~~~~~~~~~]</p>"}]}' \
  "$u/v2/translate" -d target_lang=ES -d tag_handling=html \
  --data-urlencode 'text=<p>Open the <a href="/x">settings page</a> &amp; save.</p>'
expect "pseudo, DeepL html: ignored elements kept whole" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"<p>[<code>make all</code>ñów, Rúñ <KBD class=\"k\">Ctrl</KBD>. ~~~~]</p>"}]}' \
  "$u/v2/translate" -d target_lang=ES -d tag_handling=html \
  -d ignore_tags=code,kbd \
  --data-urlencode 'text=<p>Run <code>make all</code> now, <KBD class="k">Ctrl</KBD>.</p>'
expect "pseudo, DeepL: sentences and lines apart" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"[líñé. Óñé ~~~] [líñés Twó héré. ~~~~~]\n[héré. Thréé ~~~~]"}]}' \
  "$u/v2/translate" -d target_lang=ES \
  --data-urlencode "text=One line. Two lines here.
Three here."
expect "pseudo, DeepL split_sentences=0: one piece" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"[líñé. Óñé líñés Twó héré. ~~~~~~~~]"}]}' \
  "$u/v2/translate" -d target_lang=ES -d split_sentences=0 \
  --data-urlencode 'text=One line. Two lines here.'
expect "pseudo, LibreTranslate array" 200 \
  '{"translatedText":["[réd Thé çár. ~~~~]","[<b>Sávé</b> Préss ñów. ~~~~~]"]}' \
  "$u/translate" -H "$json" \
  -d '{"q":["The red car.","Press <b>Save</b> now."],"source":"en","target":"es"}'
serve_stop
check "SIGTERM: exit 0 (pseudo)" [ "$rc" -eq 0 ]

# The engines start before the server listens: one that cannot start
# stops it at once, with the backend's message, as translate says it.
expect_exit 1 "an engine that cannot start" \
  "$XLIFFMT" serve --listen 127.0.0.1:0 --mt 'apertium:not a pair'
check "an engine that cannot start: said, nothing listened" [ "$(cat "$tmp/err")" = \
  "xliffmt: cannot start MT backend 'apertium': apertium: 'not a pair' is not a pair name such as eng-spa" ]

finish
