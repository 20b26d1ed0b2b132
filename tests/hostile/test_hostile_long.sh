#!/bin/sh
# test_hostile_long.sh: one long segment costs time and memory in
# proportion to its length, not its square. A unit of 2,000 words without
# a full stop and 40 codes, and one of 20,000 words with 20,000 codes, are
# translated by an engine that only capitalises "a": each within its time
# and memory, every code kept, and in the first every code exactly where
# it was.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-long
x=$XLIFFMT

# unit WORDS EVERY: WORDS words, an <x/> after every EVERY-th.
unit() {
  awk -v n="$1" -v every="$2" 'BEGIN {
    split("alpha beta gamma delta house river green table stone light " \
          "water paper music world market", w)
    srand(11)
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    printf "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
    printf "<file original=\"a\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n"
    printf "<trans-unit id=\"1\"><source>"
    for (i = 1; i <= n; i++) {
      printf "%s%s", (i > 1 ? " " : ""), w[int(rand() * 15) + 1]
      if (i % every == 0) printf " <x id=\"%d\"/>", i
    }
    printf "</source></trans-unit>\n</body></file></xliff>\n"
  }'
}
cat >"$tmp/engine.sh" <<'EOD'
#!/bin/sh
exec sed -u 's/a/A/g'
EOD
chmod +x "$tmp/engine.sh"
eng="--mt cmd:$tmp/engine.sh"

unit 2000 50 >"$tmp/2k.xlf"
within "2,000 words, 40 codes" 0 30 400 \
  "$x" translate "$tmp/2k.xlf" -o "$tmp/2k.es.xlf" $eng -q
# The translation capitalises a; the codes must be where they were.
sed -n 's|.*<source>\(.*\)</source>.*|\1|p' "$tmp/2k.xlf" |
  sed 's/a/A/g' >"$tmp/want"
sed -n 's|.*<target[^>]*>\(.*\)</target>.*|\1|p' "$tmp/2k.es.xlf" >"$tmp/got"
check "2,000 words: every code exactly in place" \
  sh -c "test -s '$tmp/want' && cmp -s '$tmp/got' '$tmp/want'"

unit 20000 1 >"$tmp/20k.xlf"
within "20,000 words, 20,000 codes" 0 20 200 \
  "$x" translate "$tmp/20k.xlf" -o "$tmp/20k.es.xlf" $eng -q
n=$(sed -n 's|.*<target[^>]*>\(.*\)</target>.*|\1|p' "$tmp/20k.es.xlf" |
  grep -o '<x id="[0-9]*"/>' | sort -u | wc -l)
check "20,000 codes: each kept once ($n)" test "$n" -eq 20000
m=$(sed -n 's|.*<target[^>]*>\(.*\)</target>.*|\1|p' "$tmp/20k.es.xlf" |
  grep -o '<x id' | wc -l)
check "20,000 codes: none twice ($m)" test "$m" -eq 20000

finish
