# packages_lib.sh: sourced by the hostile tests of Word and OpenDocument
# packages, after lib.sh, in $tmp. Defines refused and every_command, and
# makes good-docx.xlf and good-odt.xlf, the XLIFF that merge is given.

# refused DESC FILE MESSAGE OUT CMD...: exit 1, MESSAGE the whole of
# stderr, OUT not written.
refused() {
  what=$1 file=$2 msg=$3 out=$4
  shift 4
  rm -f "$out"
  within "$what" 1 30 800 "$@"
  check "$what: the message" test "$(cat "$tmp/err")" = "xliffmt: $file: $msg"
  check "$what: nothing written" test ! -e "$out"
}

# every_command FILE MESSAGE EXT: each command refuses FILE.
every_command() {
  f=$1 msg=$2 ext=$3
  refused "$f: translate" "$f" "$msg" "out.$ext" \
    "$x" translate "$f" -o "out.$ext" -s en -t es --mt pseudo
  refused "$f: check" "$f" "$msg" none "$x" check "$f" -s en
  refused "$f: extract" "$f" "$msg" out.xlf \
    "$x" extract "$f" -s en -o out.xlf
  refused "$f: report" "$f" "$msg" report.json \
    "$x" report "$f" -s en -t es -o report.json
  refused "$f: merge" "$f" "$msg" "merged.$ext" \
    "$x" merge "$f" "good-$ext.xlf" -o "merged.$ext"
}

# The XLIFF that merge is given: a sound document's, translated.
cp "$XMT_TEST_DATA/office/UTF8.docx" good.docx
cp "$XMT_TEST_DATA/office/TestDocument06.odt" good.odt
for ext in docx odt; do
  expect_exit 0 "good.$ext: extract" "$x" extract "good.$ext" -s en \
    -o "good-$ext.x.xlf"
  expect_exit 0 "good.$ext: translate its XLIFF" "$x" translate \
    "good-$ext.x.xlf" -t es --mt pseudo -q -o "good-$ext.xlf"
done
