#!/bin/sh
# test_cli_cjk.sh: Chinese and Japanese written without spaces, from the
# command line: the translation is cut into words (ICU's dictionary), not
# kept whole or cut into characters, so that an alignment over words puts
# the tags on the right words; the aligner's priors link the digits such
# words write in full-width forms to the English ones; translate places a
# tag on a Chinese word of an engine's unsegmented output.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"

cli_setup cjk
x=$XLIFFMT
w=$tmp/w
mkdir "$w"

# out_is DESC EXPECTED: stdout is exactly EXPECTED (lines).
out_is() {
  if [ "$(cat "$tmp/out")" = "$2" ]; then
    pass "$1"
  else
    fail "$1: got '$(cat "$tmp/out")', want '$2'"
  fi
}

# --- Words. The source's tokens: The(0) European(1) Commission(2)
# adopted(3) the(4) proposal(5) on(6) 5(7) May(8) 2024(9) .(10). The
# translations' tokens, by ICU's dictionary: 欧盟(0) 委员(1) 会(2) 于(3)
# 2024(4) 年(5) 5(6) 月(7) 5(8) 日(9) 通过(10) 了(11) 该(12) 提案(13)
# 。(14); 欧州(0) 委員(1) 会(2) は(3) 2024(4) 年(5) 5(6) 月(7) 5(8) 日(9)
# に(10) 提案(11) を(12) 採択(13) した(14) 。(15). The alignments are
# written over those words: over characters or a whole line they would
# put the tags elsewhere.
printf '%s\n' 'The <g id="1">European Commission</g> adopted the <g id="2">proposal</g> on 5 May 2024.' \
  'The <g id="1">European Commission</g> adopted the <g id="2">proposal</g> on 5 May 2024.' \
  >"$w/en"
printf '%s\n' '欧盟委员会于2024年5月5日通过了该提案。' \
  '欧州委員会は2024年5月5日に提案を採択した。' >"$w/zh-ja"
printf '%s\n' '1-0 2-1 2-2 3-10 5-13 6-3 7-8 8-6 8-7 9-4 10-14' \
  '1-0 2-1 2-2 3-13 3-14 5-11 6-10 7-8 8-6 8-7 9-4 10-15' >"$w/aln"
expect_exit 0 "words of unsegmented text" "$x" project -s "$w/en" \
  -t "$w/zh-ja" -a "$w/aln"
out_is "words of unsegmented text: tags on the words" \
  '<g id="1">欧盟委员会</g>于2024年5月5日通过了该<g id="2">提案</g>。
<g id="1">欧州委員会</g>は2024年5月5日に<g id="2">提案</g>を採択した。'

# --- Full-width digits. One line is too little to learn anything from;
# the priors say that ５ is 5 and ２０２４ is 2024.
printf '%s\n' 'Article <g id="1">5</g> applies from <g id="2">2024</g>.' >"$w/art"
printf '%s\n' '第５条は２０２４年から適用される。' >"$w/art.ja"
printf '%s\n' '第５条自２０２４年起适用。' >"$w/art.zh"
expect_exit 0 "full-width digits, Japanese" "$x" project -s "$w/art" \
  -t "$w/art.ja" --aligner self --source-lang en --target-lang ja
out_is "full-width digits, Japanese: on the digits" \
  '第<g id="1">５</g>条は<g id="2">２０２４</g>年から適用される。'
expect_exit 0 "full-width digits, Chinese" "$x" project -s "$w/art" \
  -t "$w/art.zh" --aligner self --source-lang en --target-lang zh
out_is "full-width digits, Chinese: on the digits" \
  '第<g id="1">５</g>条自<g id="2">２０２４</g>年起适用。'

# --- translate: an engine's unsegmented Chinese, the element on the word
# the engine gives for its content (a probe), matched at word boundaries.
cat >"$w/engine.sh" <<'EOD'
#!/bin/sh
while IFS= read -r line; do
  case $line in
  Save) echo '保存' ;;
  'Please click Save to keep the file.') echo '请点击保存以保留文件。' ;;
  *) echo "$line" ;;
  esac
done
EOD
chmod +x "$w/engine.sh"
cat >"$w/doc.xlf" <<'EOD'
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="doc" source-language="en" target-language="zh" datatype="plaintext">
<body>
<trans-unit id="1"><source>Please click <g id="1">Save</g> to keep the file.</source></trans-unit>
</body>
</file>
</xliff>
EOD
expect_exit 0 "translate into Chinese" "$x" translate "$w/doc.xlf" \
  -o "$w/doc.zh.xlf" --mt "cmd:$w/engine.sh" -q
check "translate into Chinese: the element on 保存" grep -q \
  '>请点击<g id="1">保存</g>以保留文件。</target>' "$w/doc.zh.xlf"

finish
