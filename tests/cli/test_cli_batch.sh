#!/bin/sh
# test_cli_batch.sh -- xliffmt batch: the mirrored tree, the same bytes as
# translate, a bad document among good ones, up-to-date outputs skipped
# (a stopped batch goes on where it stopped), --force, --jobs, the report.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup batch
x=$XLIFFMT

doc() { # ID TEXT
  cat <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="$1" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>$2</source></trans-unit>
<trans-unit id="2"><source>Press <g id="1">Save</g> now.</source></trans-unit>
</body></file></xliff>
EOD
}
in=$tmp/in
mkdir -p "$in/sub/deeper" "$in/.hidden"
doc a 'The red car.' >"$in/a.xlf"
doc b 'The green car.' >"$in/b.xliff"
doc c 'The blue car.' >"$in/sub/c.xlf"
doc d 'The old car.' >"$in/sub/deeper/d.sdlxliff"
printf '<html lang="en"><body><p>A <b>new</b> page.</p></body></html>\n' \
  >"$in/sub/page.html"
doc h 'Hidden.' >"$in/.hidden/h.xlf"
echo 'not a document' >"$in/notes.txt"
printf '<xliff version="1.2"\n' >"$in/sub/broken.xlf"

opts="--mt pseudo -s en -t es"
# shellcheck disable=SC2086
if exits_with 1 "a tree with a broken document" "$x" batch "$in" \
  -o "$tmp/tree" $opts -q --report "$tmp/r1.json"; then
  pass "a tree with a broken document (exit 1)"
  check "the tree mirrored, documents only, hidden ones left out" test \
    "$(cd "$tmp/tree" && find . -type f | sort | tr '\n' ' ')" = \
    "./a.xlf ./b.xliff ./sub/c.xlf ./sub/deeper/d.sdlxliff ./sub/page.html "
  check "the broken document is named" grep -q 'broken.xlf:1:1: unclosed token' "$tmp/err"
  ok=1
  for f in a.xlf b.xliff sub/c.xlf sub/deeper/d.sdlxliff sub/page.html; do
    # shellcheck disable=SC2086
    "$x" translate "$in/$f" -o "$tmp/one" $opts -q 2>/dev/null &&
      cmp -s "$tmp/one" "$tmp/tree/$f" || ok=0
  done
  check "each output the bytes translate writes" test $ok -eq 1
  check "report: totals" grep -q \
    '"totals":{"documents":6,"translated_documents":5,"up_to_date_documents":0,"partial_documents":0,"failed_documents":1,"units":9,' \
    "$tmp/r1.json"
  check "report: the broken document with its exit status" grep -q \
    '{"output":"[^"]*/tree/sub/broken.xlf","exit_status":1,"input":"[^"]*/in/sub/broken.xlf",' \
    "$tmp/r1.json"
  check "report: each document as translate reports it" grep -q \
    '{"output":"[^"]*/tree/a.xlf","exit_status":0,"input":"[^"]*/in/a.xlf","backend":"pseudo","status":"ok","units":2,' \
    "$tmp/r1.json"
fi

# Again: everything up to date, nothing sent.
# shellcheck disable=SC2086
if exits_with 1 "the same batch again" "$x" batch "$in" -o "$tmp/tree" \
  $opts -q --report "$tmp/r2.json"; then
  check "up-to-date documents skipped, nothing sent" grep -q \
    '"translated_documents":0,"up_to_date_documents":5,.*"segments_sent":0,' \
    "$tmp/r2.json"
fi
rm "$in/sub/broken.xlf"
sleep 0.01
doc c 'The yellow car.' >"$in/sub/c.xlf"
# shellcheck disable=SC2086
if expect_exit 0 "after one input changed" "$x" batch "$in" -o "$tmp/tree" \
  $opts -q --report "$tmp/r3.json"; then
  check "only the changed document translated" grep -q \
    '"documents":5,"translated_documents":1,"up_to_date_documents":4,' \
    "$tmp/r3.json"
  check "its output is new" grep -q 'ell\|yellow\|Th' "$tmp/tree/sub/c.xlf"
fi
# shellcheck disable=SC2086
if expect_exit 0 "--force" "$x" batch "$in" -o "$tmp/tree" $opts -q \
  --force --report "$tmp/r4.json"; then
  check "--force translates all" grep -q \
    '"documents":5,"translated_documents":5,"up_to_date_documents":0,' \
    "$tmp/r4.json"
fi
# shellcheck disable=SC2086
if expect_exit 0 "--jobs 3" "$x" batch "$in" -o "$tmp/tree3" $opts -q -j 3; then
  check "--jobs 3 writes the same tree, byte for byte" diff -r "$tmp/tree" \
    "$tmp/tree3"
fi
# Plain progress lines when stderr is not a terminal.
# shellcheck disable=SC2086
if expect_exit 0 "progress off a terminal" "$x" batch "$in/a.xlf" \
  "$in/sub/c.xlf" -o "$tmp/tree4" $opts; then
  check "one line per document" grep -q \
    '^xliffmt: batch 2/2: c.xlf: done, 2 segments$' "$tmp/err"
  check "a summary" grep -q '^xliffmt: batch: 2 documents, 2 translated,' \
    "$tmp/err"
  check "files given by name: under their names" test -f "$tmp/tree4/a.xlf"
fi

# shellcheck disable=SC2086
expect_exit 1 "two inputs for one output" "$x" batch "$in/a.xlf" \
  "$in/sub/../a.xlf" -o "$tmp/tree5" $opts -q &&
  check "the message names both" grep -q 'would both be written to' "$tmp/err"
check "nothing written then" test ! -e "$tmp/tree5/a.xlf"
# shellcheck disable=SC2086
expect_exit 1 "no -o" "$x" batch "$in" $opts &&
  check "says so" grep -q 'missing -o OUTDIR' "$tmp/err"
# shellcheck disable=SC2086
expect_exit 1 "--jobs 0" "$x" batch "$in" -o "$tmp/o" $opts -j 0 &&
  check "says so" grep -q -- '--jobs takes a number from 1 to 256' "$tmp/err"
# shellcheck disable=SC2086
expect_exit 1 "--update-model with --jobs 2" "$x" batch "$in" -o "$tmp/o" \
  $opts -j 2 --align-model "$tmp/m" --update-model &&
  check "says why" grep -q -- '--update-model needs --jobs 1' "$tmp/err"
# shellcheck disable=SC2086
expect_exit 1 "a missing input" "$x" batch "$tmp/nope" -o "$tmp/o" $opts &&
  check "names it" grep -q 'nope: No such file or directory' "$tmp/err"
check "--help" sh -c "'$x' batch --help | grep -q -- --jobs"

finish
