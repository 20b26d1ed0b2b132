#!/bin/sh
# test_hostile_batch.sh: a batch must not leave documents untranslated and
# then call them done. An engine that dies on the first document's text
# only: the documents after it are translated whole (the engine's trouble
# is not carried over), the first is listed as incomplete, and a rerun
# retries exactly it. An output tree inside the input tree is not read
# back as input (reruns do not nest it deeper), and a link back up is not
# followed round. Ctrl-C: the summary tells translated, interrupted
# and not started documents apart, and a rerun finishes the rest.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-batch
x=$XLIFFMT

# doc N UNITS: a document of UNITS one-sentence units naming document N.
doc() {
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n<file original="d%s" source-language="en" target-language="es" datatype="plaintext"><body>\n' "$1"
  i=1
  while [ "$i" -le "$2" ]; do
    printf '<trans-unit id="%s"><source>Doc%s sentence %s here.</source></trans-unit>\n' "$i" "$1" "$i"
    i=$((i + 1))
  done
  printf '</body></file></xliff>\n'
}
targets() { grep -c '<target' "$1" 2>/dev/null || true; }
summary() { sed -n 's/^xliffmt: batch: //p' "$tmp/err"; }

mkdir "$tmp/in"
for d in 1 2 3; do doc "$d" 200 >"$tmp/in/doc$d.xlf"; done
# Dies on the first document's text until healed; uppercases the rest.
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in *Doc1*) [ -e "$tmp/healed" ] || exit 3 ;; esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/engine.sh"
eng="--mt cmd:$tmp/engine.sh --probes off"

# shellcheck disable=SC2086
within "an engine that dies on the first document" 3 60 500 \
  "$x" batch "$tmp/in" -o "$tmp/tree" $eng
check "summary: one document with untranslated segments ($(summary))" \
  grep -q -F 'batch: 3 documents, 2 translated, 0 up to date, 1 with untranslated segments, 0 failed, 0 interrupted, 0 not started;' \
  "$tmp/err"
check "doc1: no target ($(targets "$tmp/tree/doc1.xlf"))" \
  test "$(targets "$tmp/tree/doc1.xlf")" -eq 0
check "doc2: 200 targets ($(targets "$tmp/tree/doc2.xlf"))" \
  test "$(targets "$tmp/tree/doc2.xlf")" -eq 200
check "doc3: 200 targets ($(targets "$tmp/tree/doc3.xlf"))" \
  test "$(targets "$tmp/tree/doc3.xlf")" -eq 200
check "doc1 listed as incomplete" \
  test "$(cd "$tmp/tree/.xliffmt-incomplete.d" && find . -type f)" = "./doc1.xlf"

# The same command, the engine healed: doc1 again, the others up to date.
: >"$tmp/healed"
# shellcheck disable=SC2086
within "the rerun" 0 60 500 "$x" batch "$tmp/in" -o "$tmp/tree" $eng
check "rerun: doc1 retried, the others up to date ($(summary))" \
  grep -q -F 'batch: 3 documents, 1 translated, 2 up to date, 0 with untranslated segments, 0 failed, 0 interrupted, 0 not started; 200 segments sent' \
  "$tmp/err"
check "rerun: doc1 has 200 targets ($(targets "$tmp/tree/doc1.xlf"))" \
  test "$(targets "$tmp/tree/doc1.xlf")" -eq 200
check "rerun: nothing listed any more" \
  test -z "$(ls -A "$tmp/tree/.xliffmt-incomplete.d")"
# shellcheck disable=SC2086
within "a third run" 0 60 500 "$x" batch "$tmp/in" -o "$tmp/tree" $eng
check "third run: all up to date" grep -q -F \
  'batch: 3 documents, 0 translated, 3 up to date,' "$tmp/err"

# Ctrl-C while the second of four documents is translated (the engine
# waits on it): one translated, one interrupted, two not started.
mkdir "$tmp/sig"
for d in 1 2 3 4; do doc "$d" 3 >"$tmp/sig/doc$d.xlf"; done
cat >"$tmp/stall.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in
  *Doc2*) [ -e "$tmp/go" ] || { : >"$tmp/stalled"; sleep 30; } ;;
  esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/stall.sh"
stall="--mt cmd:$tmp/stall.sh --probes off"
# shellcheck disable=SC2086
setsid "$x" batch "$tmp/sig" -o "$tmp/sigout" $stall 2>"$tmp/err" &
pid=$!
n=0
while [ ! -e "$tmp/stalled" ] && [ "$n" -lt 200 ]; do
  sleep 0.05
  n=$((n + 1))
done
kill -INT "-$pid"
wait "$pid"
check "Ctrl-C: exit 130" test $? -eq 130
check "Ctrl-C: summary ($(summary))" grep -q -F \
  'batch: 4 documents, 1 translated, 0 up to date, 0 with untranslated segments, 0 failed, 1 interrupted, 2 not started;' \
  "$tmp/err"
check "Ctrl-C: only doc1 written" \
  test "$(cd "$tmp/sigout" && ls -A | tr '\n' ' ')" = ".xliffmt-incomplete.d .xliffmt-settings doc1.xlf "
: >"$tmp/go"
# shellcheck disable=SC2086
within "after Ctrl-C, the same batch" 0 60 500 \
  "$x" batch "$tmp/sig" -o "$tmp/sigout" $stall
check "after Ctrl-C: the three others translated ($(summary))" grep -q -F \
  'batch: 4 documents, 3 translated, 1 up to date,' "$tmp/err"

# The output tree inside the input tree, and a link back to the top.
mkdir -p "$tmp/nest/sub"
doc 1 2 >"$tmp/nest/a.xlf"
doc 2 2 >"$tmp/nest/sub/b.xlf"
ln -s .. "$tmp/nest/sub/up"
for run in 1 2 3; do
  within "output inside the input, run $run" 0 30 500 \
    "$x" batch "$tmp/nest" -o "$tmp/nest/out" --mt identity --probes off
done
check "the tree is as after one run" test "$(cd "$tmp/nest" &&
  find . -name '*.xlf' | sort | tr '\n' ' ')" = \
  "./a.xlf ./out/a.xlf ./out/sub/b.xlf ./sub/b.xlf "
check "the link back is named, not followed" grep -q -F \
  "sub/up: a link back to a directory above it: not followed" "$tmp/err"
within "the input directory as the output" 1 30 500 \
  "$x" batch "$tmp/nest" -o "$tmp/nest" --mt identity
check "refused" grep -q -F \
  "the output directory is an input directory: give -o another" "$tmp/err"

finish
