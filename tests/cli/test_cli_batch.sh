#!/bin/sh
# test_cli_batch.sh -- xliffmt batch: the mirrored tree, the same bytes as
# translate, a bad document among good ones, up-to-date outputs skipped
# (a stopped batch goes on where it stopped), --force, --jobs, the report;
# one engine per job, --fresh-engine, a worker that dies, Ctrl-C.
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
    "./.xliffmt-settings ./a.xlf ./b.xliff ./sub/c.xlf ./sub/deeper/d.sdlxliff ./sub/page.html "
  check "the broken document is named" grep -q 'broken.xlf:1:1: unclosed token' "$tmp/err"
  ok=1
  for f in a.xlf b.xliff sub/c.xlf sub/deeper/d.sdlxliff sub/page.html; do
    # shellcheck disable=SC2086
    "$x" translate "$in/$f" -o "$tmp/one" $opts -q 2>/dev/null &&
      cmp -s "$tmp/one" "$tmp/tree/$f" || ok=0
  done
  check "each output the bytes translate writes" test $ok -eq 1
  check "report: totals" grep -q \
    '"totals":{"documents":6,"translated_documents":5,"up_to_date_documents":0,"partial_documents":0,"failed_documents":1,"interrupted_documents":0,"not_started_documents":0,"units":9,' \
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

# Each job's engine starts once and serves its documents in turn;
# --fresh-engine starts one for each document. The engine logs its
# process id at start and answers in upper case; given a segment with
# CRASH in it, it kills the worker that runs it (the nearest xliffmt
# above it), as a crash in the library would.
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
echo \$\$ >>"$tmp/starts"
while IFS= read -r line; do
  case \$line in
  *CRASH*)
    p=\$PPID
    while [ "\$(cat /proc/\$p/comm)" != xliffmt ]; do
      p=\$(awk '{ print \$4 }' /proc/\$p/stat)
    done
    kill -KILL \$p ;;
  esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/engine.sh"
eng="--mt cmd:$tmp/engine.sh -s en -t es --probes off"
mkdir "$tmp/many"
for i in 1 2 3 4 5; do doc "m$i" "Car number $i." >"$tmp/many/m$i.xlf"; done
: >"$tmp/starts"
# shellcheck disable=SC2086
if expect_exit 0 "--jobs 1, five documents" "$x" batch "$tmp/many" \
  -o "$tmp/kept" $eng -q; then
  check "one engine for the five" test "$(sort -u "$tmp/starts" | wc -l)" -eq 1
  check "the third translated" grep -q \
    '<target[^>]*>CAR NUMBER 3.</target>' "$tmp/kept/m3.xlf"
  ok=1
  for i in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    "$x" translate "$tmp/many/m$i.xlf" -o "$tmp/one" $eng -q 2>/dev/null &&
      cmp -s "$tmp/one" "$tmp/kept/m$i.xlf" || ok=0
  done
  check "each output the bytes translate writes" test $ok -eq 1
fi
: >"$tmp/starts"
# shellcheck disable=SC2086
expect_exit 0 "--fresh-engine" "$x" batch "$tmp/many" -o "$tmp/fresh" $eng \
  -q --fresh-engine &&
  check "an engine for each document" \
    test "$(sort -u "$tmp/starts" | wc -l)" -eq 5
check "--fresh-engine: the same tree" diff -r "$tmp/kept" "$tmp/fresh"
: >"$tmp/starts"
# shellcheck disable=SC2086
expect_exit 0 "--jobs 2" "$x" batch "$tmp/many" -o "$tmp/two" $eng -q -j 2 &&
  check "two engines" test "$(sort -u "$tmp/starts" | wc -l)" -eq 2
check "--jobs 2: the same tree" diff -r "$tmp/kept" "$tmp/two"
doc m3 'Car number 3 CRASH.' >"$tmp/many/m3.xlf"
: >"$tmp/starts"
# shellcheck disable=SC2086
if expect_exit 1 "a worker killed on the third document" "$x" batch \
  "$tmp/many" -o "$tmp/crash" $eng -q --report "$tmp/crash.json"; then
  check "the document is named" grep -q \
    'm3.xlf: the translation died (signal 9)' "$tmp/err"
  check "no output for it" test ! -e "$tmp/crash/m3.xlf"
  check "the others written, by a new worker after it" test \
    "$(cd "$tmp/crash" && ls | tr '\n' ' ')" = "m1.xlf m2.xlf m4.xlf m5.xlf "
  check "two engines started" test "$(sort -u "$tmp/starts" | wc -l)" -eq 2
  check "report: four translated, one failed" grep -q \
    '"documents":5,"translated_documents":4,"up_to_date_documents":0,"partial_documents":0,"failed_documents":1,' \
    "$tmp/crash.json"
fi
# (The pattern's first letter in brackets: pgrep must not find itself.)
check "no engine left behind" \
  sh -c "! pgrep -f '[${tmp%"${tmp#?}"}]${tmp#?}/engine.sh' >/dev/null"

# Ctrl-C (SIGINT to the process group, as a terminal sends it) while jobs
# translate: exit status 130, the documents done are whole, the others
# are not written, nothing is left running, and the same command again
# goes on where it stopped.
cat >"$tmp/slow.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do sleep 0.2; printf '%s\n' "\$line" | tr a-z A-Z; done
EOD
chmod +x "$tmp/slow.sh"
mkdir "$tmp/sig"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  doc "s$i" "Signal number $i." >"$tmp/sig/s$i.xlf"
done
slow="--mt cmd:$tmp/slow.sh -s en -t es --probes off"
# shellcheck disable=SC2086
setsid "$x" batch "$tmp/sig" -o "$tmp/sigout" $slow -q -j 2 2>"$tmp/sig.err" &
pid=$!
sleep 0.5
kill -INT "-$pid"
wait "$pid"
check "Ctrl-C: exit status 130" test $? -eq 130
n=$(ls "$tmp/sigout" 2>/dev/null | wc -l)
check "Ctrl-C: some documents not written ($n of 12 done)" test "$n" -lt 12
check "Ctrl-C: no message but that of a document interrupted" \
  sh -c "! grep -v ': interrupted\$' '$tmp/sig.err'"
ok=1
for f in "$tmp"/sigout/*.xlf; do
  [ -e "$f" ] || continue
  # shellcheck disable=SC2086
  "$x" translate "$tmp/sig/${f##*/}" -o "$tmp/one" $slow -q 2>/dev/null &&
    cmp -s "$tmp/one" "$f" || ok=0
done
check "Ctrl-C: the documents done are whole" test $ok -eq 1
check "Ctrl-C: no temporary file left" \
  test -z "$(find "$tmp/sigout" -name '*.tmp*' 2>/dev/null)"
check "Ctrl-C: nothing left running" \
  sh -c "! pgrep -f '[${tmp%"${tmp#?}"}]${tmp#?}/slow.sh' >/dev/null"
# shellcheck disable=SC2086
if expect_exit 0 "the same batch after Ctrl-C" "$x" batch "$tmp/sig" \
  -o "$tmp/sigout" $slow -q -j 2 --report "$tmp/sig.json"; then
  check "goes on where it stopped" grep -q \
    "\"documents\":12,\"translated_documents\":$((12 - n)),\"up_to_date_documents\":$n," \
    "$tmp/sig.json"
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
