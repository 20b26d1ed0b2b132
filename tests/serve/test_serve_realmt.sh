#!/bin/sh
# test_serve_realmt.sh: the real-MT pages of make bench-projection
# (tests/realmt/pages/*.html) through xliffmt serve's DeepL API with
# tag_handling=html and Apertium eng-spa behind, against `xliffmt
# translate` of the same page with the same engine. Each page sent whole
# as one text comes back as translate writes it: every paragraph (block
# element) the same bytes, and the whole page too. Each page's
# paragraphs sent as the texts of one request come back with the same
# words as translate's paragraphs and the same tags; how many have each
# tag exactly where translate put it is shown (the aligner learns from
# the text it is given, and a paragraph alone is less than a page).
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no Apertium eng-spa,
# python3 or curl).
set -u

. "$(dirname "$0")/../cli/lib.sh"
cli_setup serve-realmt
. "$(dirname "$0")/lib.sh"

pages=$(cd "$(dirname "$0")/../realmt/pages" && pwd)
if ! command -v apertium >/dev/null || ! command -v python3 >/dev/null ||
  [ ! -r /usr/share/apertium/modes/eng-spa.mode ]; then
  echo "SKIP: Apertium eng-spa or python3 not installed (apt-get install apertium apertium-eng-spa python3)"
  exit 77
fi

serve_start realmt --mt apertium:eng-spa --threads 1 || exit 1

# compare.py PORT PAGE REFERENCE: sends PAGE whole, then its paragraphs,
# and prints one line per finding.
cat >"$tmp/compare.py" <<'EOD'
import json, re, sys, urllib.parse, urllib.request
port, page, ref = sys.argv[1:4]
block = re.compile(r"<(h[1-6]|p|li|td|th|dt|dd|figcaption|caption)\b[^>]*>"
                   r"(.*?)</\1>", re.S)
tag = re.compile(r"<[^>]*>")
def blocks(s):
    return [m.group(2) for m in block.finditer(s)]
def deepl(texts):
    body = urllib.parse.urlencode(
        [("target_lang", "ES"), ("source_lang", "EN"),
         ("tag_handling", "html")] + [("text", t) for t in texts]).encode()
    with urllib.request.urlopen("http://127.0.0.1:%s/v2/translate" % port,
                                body, timeout=120) as r:
        return [t["text"] for t in json.load(r)["translations"]]
source = open(page, encoding="utf-8").read()
want = open(ref, encoding="utf-8").read()
got = deepl([source])[0]
same = sum(g == w for g, w in zip(blocks(got), blocks(want)))
print("page: %d of %d paragraphs the same%s" % (
    same, len(blocks(want)), ", the whole page the same" if got == want
    else ", the page differs"))
got = deepl(blocks(source))
words = sum(tag.sub("", g) == tag.sub("", w)
            for g, w in zip(got, blocks(want)))
tags = sum(sorted(tag.findall(g)) == sorted(tag.findall(w))
           for g, w in zip(got, blocks(want)))
exact = sum(g == w for g, w in zip(got, blocks(want)))
print("paragraphs: %d of %d with the same words, %d with the same tags, "
      "%d exactly" % (words, len(blocks(want)), tags, exact))
EOD

for page in "$pages"/*.html; do
  name=${page##*/}
  "$XLIFFMT" translate "$page" -o "$tmp/$name" -s en -t es \
    --mt apertium:eng-spa -q || { fail "$name: xliffmt translate"; continue; }
  n=$(python3 -c '
import re, sys
print(len(re.findall(r"<(h[1-6]|p|li|td|th|dt|dd|figcaption|caption)\b[^>]*>(.*?)</\1>", open(sys.argv[1], encoding="utf-8").read(), re.S)))' "$tmp/$name")
  python3 "$tmp/compare.py" "$port" "$page" "$tmp/$name" >"$tmp/got" 2>&1
  first=$(sed -n 1p "$tmp/got")
  second=$(sed -n 2p "$tmp/got")
  if [ "$first" = "page: $n of $n paragraphs the same, the whole page the same" ]; then
    pass "$name whole: $n paragraphs as translate writes them"
  else
    fail "$name whole: $(cat "$tmp/got")"
  fi
  case $second in
  "paragraphs: $n of $n with the same words, $n with the same tags, "*)
    pass "$name by paragraph: the same words and tags ($second)" ;;
  *) fail "$name by paragraph: $(cat "$tmp/got")" ;;
  esac
done

serve_stop
check "exit 0" [ "$rc" -eq 0 ]
finish
