#!/bin/sh
# test_serve_pairs.sh: several pairs and engines from one server. Each
# --mt PAIR=BACKEND is an engine of its own; two engines that put their
# pair before each line they are sent show, by the answers' exact bytes,
# that each request goes to its pair's engine in every API (APy's
# langpair, DeepL's source_lang and target_lang, LibreTranslate's source
# and target); every API's languages list both pairs; a pair not served
# gets the message that names those served; Weblate's check of en to de
# passes; /health lists the engines and is degraded, naming the engine,
# while one is down, the other pair still served. Bad sets of --mt are
# refused before the server starts; --mt apertium serves the installed
# pairs beside another engine, each with its own --mt-option. The tags
# of a whole request are bounded (413 in DeepL's and LibreTranslate's
# shapes; APy takes one text, bounded by the per-text limit). With the
# Apertium eng-spa and eng-cat pairs installed, both in one server.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-pairs
. "$(dirname "$0")/lib.sh"

# eng.sh TAG: each line back after "TAG: ", until $tmp/dead-TAG exists;
# then it exits at the next line.
cat >"$tmp/eng.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ -e "$tmp/dead-\$1" ] && exit 1
  printf '%s: %s\n' "\$1" "\$line"
done
EOD
chmod +x "$tmp/eng.sh"
es="en-es=cmd:$tmp/eng.sh es"
json='Content-Type: application/json'
de="en-de=cmd:$tmp/eng.sh de"

# --- The tags of a whole request -----------------------------------------------
# One engine (-s and -t) for these.
serve_start tags --mt "cmd:$tmp/eng.sh es" -s en -t es --threads 1 || exit 1
u=$url
# tags N: a text of N tags ("w <b>x</b> w <b>x</b>...").
tags() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n / 2; i++) printf "%sw <b>x</b>", i ? " " : "" }'
}
t=$(tags 4096)
printf '{"text":["%s","%s","%s","%s"],"source_lang":"EN","target_lang":"ES","tag_handling":"xml"}' \
  "$t" "$t" "$t" "$t" >"$tmp/deepl-at"
printf '{"text":["%s","%s","%s","%s","<b>x</b>"],"source_lang":"EN","target_lang":"ES","tag_handling":"xml"}' \
  "$t" "$t" "$t" "$t" >"$tmp/deepl-over"
printf '{"q":["%s","%s","%s","%s","<b>x</b>"],"source":"en","target":"es","format":"html"}' \
  "$t" "$t" "$t" "$t" >"$tmp/libre-over"
ask -H "$json" --data-binary "@$tmp/deepl-at" "$u/v2/translate"
if [ "$status" = 200 ] && [ "$(grep -o '"text":"es: w <b>x</b> w' "$tmp/body" | wc -l)" = 4 ]; then
  pass "DeepL: 4 texts of 4096 tags, 16384 in all: translated"
else
  fail "DeepL: 4 texts of 4096 tags, 16384 in all: translated (got $status $(head -c 200 "$tmp/body"))"
fi
expect "DeepL: 16386 tags in all: 413" 413 \
  '{"message":"the texts have more than 16384 tags in all (text 5 passes it)"}' \
  -H "$json" --data-binary "@$tmp/deepl-over" "$u/v2/translate"
expect "LibreTranslate (html): 16386 tags in all: 413" 413 \
  '{"error":"the texts have more than 16384 tags in all (text 5 passes it)"}' \
  -H "$json" --data-binary "@$tmp/libre-over" "$u/translate"
expect "LibreTranslate form (html, q five times): 16386 tags in all: 413" 413 \
  '{"error":"the texts have more than 16384 tags in all (text 5 passes it)"}' \
  --data-urlencode "q=$t" --data-urlencode "q=$t" --data-urlencode "q=$t" \
  --data-urlencode "q=$t" --data-urlencode 'q=<b>x</b>' -d source=en \
  -d target=es -d format=html "$u/translate"
serve_stop

if ! serve_start pairs --mt "$es" --mt "$de" --threads 1; then
  fail "a server of two engines starts"
  finish
fi
u=$url
if grep -qxF "xliffmt serve: listening on $u (--mt $es, --mt $de, 1 worker each)" \
  "$tmp/pairs.err"; then
  pass "the start line names both engines"
else
  fail "the start line names both engines"
  sed 's/^/#   /' "$tmp/pairs.err"
fi

# --- The languages, in each API -------------------------------------------
expect "APy listPairs: both pairs" 200 \
  '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}, {"sourceLanguage": "eng", "targetLanguage": "deu"}], "responseDetails": null, "responseStatus": 200}' \
  "$u/listPairs"
expect "DeepL /v2/languages without a type: the sources" 200 \
  '[{"language":"EN","name":"English"}]' "$u/v2/languages"
expect "DeepL /v2/languages?type=source" 200 \
  '[{"language":"EN","name":"English"}]' "$u/v2/languages?type=source"
expect "DeepL /v2/languages?type=target: both targets" 200 \
  '[{"language":"ES","name":"Spanish","supports_formality":false},{"language":"DE","name":"German","supports_formality":false}]' \
  "$u/v2/languages?type=target"
expect "LibreTranslate /languages: both targets" 200 \
  '[{"code":"en","name":"English","targets":["de","es"]},{"code":"es","name":"Spanish","targets":[]},{"code":"de","name":"German","targets":[]}]' \
  "$u/languages"

# --- Each request to its pair's engine ---------------------------------------
apy() {
  printf '{"responseData": {"translatedText": "%s"}, "responseDetails": null, "responseStatus": 200}' "$1"
}
for round in 1 2; do # the second after the other pair's request
  expect "APy eng|spa (round $round)" 200 "$(apy 'es: The red car.')" \
    "$u/translate?langpair=eng%7Cspa&q=The+red+car."
  expect "APy en|de (round $round)" 200 "$(apy 'de: The red car.')" \
    "$u/translate?langpair=en%7Cde&q=The+red+car."
done
expect "DeepL EN to DE" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"de: The red car."}]}' \
  -d 'text=The red car.' -d source_lang=EN -d target_lang=DE "$u/v2/translate"
expect "DeepL EN to ES, two texts" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"es: One."},{"detected_source_language":"EN","text":"es: Two."}]}' \
  -d 'text=One.' -d 'text=Two.' -d source_lang=EN -d target_lang=ES \
  "$u/v2/translate"
expect "LibreTranslate en to es" 200 '{"translatedText":"es: The red car."}' \
  -d 'q=The red car.' -d source=en -d target=es "$u/translate"
expect "LibreTranslate en to de, JSON" 200 \
  '{"translatedText":["de: One.","de: Two."]}' -H 'Content-Type: application/json' \
  -d '{"q":["One.","Two."],"source":"en","target":"de"}' "$u/translate"

# --- A document to its pair's engine (DeepL's document API) -----------------
cat >"$tmp/doc.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="doc" source-language="en" datatype="plaintext">
<body>
<trans-unit id="1"><source>The red car.</source></trans-unit>
</body>
</file>
</xliff>
EOD
for lang in DE ES; do
  ask "$u/v2/document" -F "file=@$tmp/doc.xlf" -F source_lang=EN \
    -F "target_lang=$lang"
  id=$(printf '%s' "$body" | sed -n 's/.*"document_id":"\([0-9A-F]*\)".*/\1/p')
  key=$(printf '%s' "$body" | sed -n 's/.*"document_key":"\([0-9A-F]*\)".*/\1/p')
  n=0
  while [ "$n" -lt 100 ]; do
    ask "$u/v2/document/$id" -d "document_key=$key"
    case $body in *'"done"'* | *'"error"'*) break ;; esac
    sleep 0.1
    n=$((n + 1))
  done
  ask "$u/v2/document/$id/result" -d "document_key=$key"
  tag=$(printf '%s' "$lang" | tr 'A-Z' 'a-z')
  if [ "$status" = 200 ] && grep -qF ">$tag: The red car.</target>" \
    "$tmp/body"; then
    pass "a document EN to $lang: translated by the $lang engine"
  else
    fail "a document EN to $lang: translated by the $lang engine"
    echo "    got: $status $(cat "$tmp/body")"
  fi
done

# --- A pair not served ---------------------------------------------------------
expect "APy en|fr: not installed" 400 \
  '{"status": "error", "code": 400, "message": "Bad Request", "explanation": "That pair is not installed"}' \
  "$u/translate?langpair=en%7Cfr&q=x"
expect "DeepL EN to FR: the pairs served" 400 \
  "{\"message\":\"Value for 'target_lang' not supported; this server translates EN to ES, EN to DE.\"}" \
  -d 'text=x' -d source_lang=EN -d target_lang=FR "$u/v2/translate"
expect "DeepL ES to DE: the pairs served" 400 \
  "{\"message\":\"Value for 'source_lang' not supported; this server translates EN to ES, EN to DE.\"}" \
  -d 'text=x' -d source_lang=ES -d target_lang=DE "$u/v2/translate"
expect "LibreTranslate en to fr: the pairs served" 400 \
  '{"error":"fr is not supported (this server translates en to es, en to de)"}' \
  -d 'q=x' -d source=en -d target=fr "$u/translate"

# Weblate's checks of a DeepL and a LibreTranslate service: en to de.
expect "Weblate DeepL check (en to de) passes" 200 \
  '{"translations":[{"detected_source_language":"EN","text":"de: test"}]}' \
  -H "$json" \
  -d '{"text":["test"],"source_lang":"en","target_lang":"de","formality":"default","tag_handling":"xml","ignore_tags":["x"]}' \
  "$u/v2/translate"
expect "Weblate LibreTranslate check (en to de) passes" 200 \
  '{"translatedText":["de: test"]}' -H "$json" \
  -d '{"q":["test"],"source":"en","target":"de"}' "$u/translate"

# --- /health: each engine; degraded, naming it, while one is down -----------
engines() { # STATUS-OF-es STATUS-OF-de [REASON-OF-de]
  e1='{"backend":"'"$es"'","pairs":["en-es"],"status":"'$1'"}'
  e2='{"backend":"'"$de"'","pairs":["en-de"],"status":"'$2'"'
  [ $# -gt 2 ] && e2="$e2"',"reason":"'"$3"'"'
  printf '"engines":[%s,%s}],"workers":2,"busy":0,"queued":0}' "$e1" "$e2"
}
expect "health: both engines ok" 200 "{\"status\":\"ok\",$(engines ok ok)" \
  "$u/health"
: >"$tmp/dead-de"
expect "the en-de engine dies: 503" 503 \
  '{"status": "error", "code": 503, "message": "Service Unavailable", "explanation": "1 segment not translated"}' \
  "$u/translate?langpair=en%7Cde&q=hello"
why="engine $de: engine '$tmp/eng.sh de' exited with status 1"
expect "health: degraded, naming the en-de engine" 503 \
  "{\"status\":\"degraded\",\"reason\":\"$why\",$(engines ok down "$why")" \
  "$u/health"
expect "en-es still served while en-de is down" 200 "$(apy 'es: hello')" \
  "$u/translate?langpair=en%7Ces&q=hello"
if grep -qxF "xliffmt serve: $why" "$tmp/pairs.err"; then
  pass "stderr names the engine down"
else
  fail "stderr names the engine down"
  sed 's/^/#   /' "$tmp/pairs.err"
fi
rm -f "$tmp/dead-de"
expect "en-de back" 200 "$(apy 'de: hello')" \
  "$u/translate?langpair=en%7Cde&q=hello"
expect "health: ok again" 200 "{\"status\":\"ok\",$(engines ok ok)" \
  "$u/health"


# --- Sets of --mt refused before the server starts ---------------------------
refused() { # DESC MESSAGE ARGS...
  desc=$1 msg=$2
  shift 2
  exits_with 1 "$desc" "$XLIFFMT" serve --listen 127.0.0.1:0 "$@" || return
  if [ "$(cat "$tmp/err")" = "xliffmt: $msg
Try 'xliffmt serve --help'." ]; then
    pass "$desc"
  else
    fail "$desc"
    sed 's/^/#   /' "$tmp/err"
  fi
}
refused "an engine without a pair beside another" \
  "--mt identity serves no pair of its own: with several --mt, each names its pair (--mt en-es=identity)" \
  --mt identity --mt en-de=identity
refused "a pair served twice" \
  "en to es is served by both --mt en-es=identity and --mt eng-spa=pseudo" \
  --mt en-es=identity --mt eng-spa=pseudo
refused "-s and -t with several --mt" \
  "-s and -t name the pair of a single --mt; with several, each --mt names its own (--mt en-es=BACKEND)" \
  --mt en-es=identity --mt en-de=identity -s en -t es
refused "a PAIR= that is not a pair" \
  "--mt english=identity: PAIR=BACKEND takes a pair of language codes (e.g. --mt en-es=identity)" \
  --mt english=identity

# --- --mt apertium (the installed pairs) beside another engine --------------
# Mode files of a folder of its own: listed without an engine started.
mkdir -p "$tmp/apertium/modes"
: >"$tmp/apertium/modes/eng-spa.mode"
: >"$tmp/apertium/modes/spa-eng.mode"
: >"$tmp/apertium/modes/eng-cat.mode"
# datadir is the apertium engine's --mt-option; the cmd engine, which
# has no such option, would refuse it.
serve_start modes --mt apertium --mt-option "datadir=$tmp/apertium" \
  --mt "$de" --mt-option timeout=20 --threads 1 || exit 1
u=$url
expect "--mt apertium and an en-de engine: APy listPairs" 200 \
  '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "cat"}, {"sourceLanguage": "eng", "targetLanguage": "spa"}, {"sourceLanguage": "spa", "targetLanguage": "eng"}, {"sourceLanguage": "eng", "targetLanguage": "deu"}], "responseDetails": null, "responseStatus": 200}' \
  "$u/listPairs"
expect "--mt apertium and an en-de engine: en to de" 200 \
  '{"translatedText":"de: Hello."}' -d 'q=Hello.' -d source=en -d target=de \
  "$u/translate"
serve_stop

# --- Two real Apertium pairs in one server ------------------------------------
modes=/usr/share/apertium/modes
if command -v apertium >/dev/null && [ -r "$modes/eng-spa.mode" ] &&
  [ -r "$modes/eng-cat.mode" ]; then
  serve_start apertium --mt apertium:eng-spa --mt apertium:eng-cat \
    --threads 1 || exit 1
  u=$url
  expect "Apertium eng-spa and eng-cat: listPairs" 200 \
    '{"responseData": [{"sourceLanguage": "eng", "targetLanguage": "spa"}, {"sourceLanguage": "eng", "targetLanguage": "cat"}], "responseDetails": null, "responseStatus": 200}' \
    "$u/listPairs"
  expect "Apertium eng-spa" 200 "$(apy 'El coche rojo es viejo.')" \
    "$u/translate?langpair=eng%7Cspa&q=The+red+car+is+old."
  expect "Apertium eng-cat" 200 "$(apy 'El carro vermell és vell.')" \
    "$u/translate?langpair=eng%7Ccat&q=The+red+car+is+old."
  expect "Apertium eng-cat, DeepL with tags" 200 \
    '{"translations":[{"detected_source_language":"EN","text":"El carro <b>vermell</b> és vell."}]}' \
    -d 'text=The <b>red</b> car is old.' -d source_lang=EN -d target_lang=CA \
    -d tag_handling=xml "$u/v2/translate"
  serve_stop
else
  echo "# the Apertium eng-spa and eng-cat pairs are not installed" \
    "(apt-get install apertium-eng-spa apertium-eng-cat): checks skipped"
fi

finish
