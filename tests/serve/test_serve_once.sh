#!/bin/sh
# test_serve_once.sh: identical requests at once are sent to the engine
# once. A command backend that writes each line it gets to a file and
# gives it back a second later stands in for the engine: 8 identical APy
# requests at once make one engine call and get 8 identical answers; 6
# identical DeepL requests of two texts, one with tags, make one call for
# each text and each of its probes, and get 6 identical answers;
# different texts at once are each sent; an identical request after the
# answer is sent again (nothing is kept); and when the engine fails,
# every request waiting for the same answer gets the same error.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-once
. "$(dirname "$0")/lib.sh"

cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  # The check line that ends each batch (xliffmt-translate(1)) is no call.
  if [ "\$line" = "2 4 6 8 0 1 3 5 7 9" ]; then
    printf '%s\n' "\$line"
    continue
  fi
  printf '%s\n' "\$line" >>"$tmp/calls"
  sleep 1
  case \$line in
  *boom*) exit 1 ;;
  esac
  printf '%s\n' "\$line"
done
EOD
chmod +x "$tmp/engine.sh"
: >"$tmp/calls"

serve_start once --mt "cmd:$tmp/engine.sh" -s en -t es --threads 2 || exit 1
u=$url

# at_once N NAME CURL-ARGS...: N requests at once; bodies in
# $tmp/NAME.1 ... $tmp/NAME.N, statuses in $tmp/NAME.status.
at_once() {
  n=$1 name=$2
  shift 2
  i=1
  ps=
  : >"$tmp/$name.status"
  while [ $i -le "$n" ]; do
    curl -s -o "$tmp/$name.$i" -w '%{http_code}\n' "$@" \
      >>"$tmp/$name.status" &
    ps="$ps $!"
    i=$((i + 1))
  done
  wait $ps
}
# all_equal NAME N WANT: the N bodies are each WANT.
all_equal() {
  i=1
  while [ $i -le "$2" ]; do
    [ "$(cat "$tmp/$1.$i")" = "$3" ] || {
      echo "    $1.$i: $(cat "$tmp/$1.$i")"
      return 1
    }
    i=$((i + 1))
  done
}
calls() { wc -l <"$tmp/calls" | tr -d ' '; }

at_once 8 apy "$u/translate?langpair=eng|spa&q=The+red+car."
check "8 identical APy requests at once: one engine call" [ "$(calls)" = 1 ]
check "8 identical APy requests at once: 8 answers 200" \
  [ "$(sort -u "$tmp/apy.status")" = 200 ] && [ "$(wc -l <"$tmp/apy.status")" -eq 8 ]
check "8 identical APy requests at once: the same answer" all_equal apy 8 \
  '{"responseData": {"translatedText": "The red car."}, "responseDetails": null, "responseStatus": 200}'

: >"$tmp/calls"
at_once 6 deepl "$u/v2/translate" -d target_lang=ES -d tag_handling=xml \
  -d 'text=First text.' --data-urlencode 'text=A <b>bold</b> one.'
check "6 identical DeepL requests of two texts at once: one call for each text and each probe" \
  [ "$(LC_ALL=C sort "$tmp/calls" | tr '\n' '|')" = 'A bold|A bold one.|First text.|bold|' ]
check "6 identical DeepL requests at once: the same answer" all_equal deepl 6 \
  '{"translations":[{"detected_source_language":"EN","text":"First text."},{"detected_source_language":"EN","text":"A <b>bold</b> one."}]}'

: >"$tmp/calls"
curl -s -o "$tmp/one" "$u/translate?langpair=eng|spa&q=One." &
p1=$!
curl -s -o "$tmp/two" "$u/translate?langpair=eng|spa&q=Two." &
p2=$!
wait $p1 $p2
check "two different texts at once: two engine calls" \
  [ "$(LC_ALL=C sort "$tmp/calls" | tr '\n' '|')" = 'One.|Two.|' ]
expect "the same text again, after the answer: sent again" 200 \
  '{"responseData": {"translatedText": "One."}, "responseDetails": null, "responseStatus": 200}' \
  "$u/translate?langpair=eng|spa&q=One."
check "... one more engine call" [ "$(calls)" = 3 ]

: >"$tmp/calls"
at_once 5 boom "$u/translate?langpair=eng|spa&q=boom"
check "the engine failing: one engine call" [ "$(calls)" = 1 ]
check "the engine failing: each of the 5 waiting gets 503" \
  [ "$(sort -u "$tmp/boom.status")" = 503 ] && [ "$(wc -l <"$tmp/boom.status")" -eq 5 ]
check "the engine failing: the same error for each" \
  [ "$(cat "$tmp"/boom.[1-5] | sort -u | wc -l)" -eq 1 ]
expect "still serving" 200 \
  '{"responseData": {"translatedText": "After."}, "responseDetails": null, "responseStatus": 200}' \
  "$u/translate?langpair=eng|spa&q=After."

serve_stop
check "exit 0" [ "$rc" -eq 0 ]
finish
