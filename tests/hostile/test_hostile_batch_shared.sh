#!/bin/sh
# test_hostile_batch_shared.sh: batches that share an output tree, as
# the SCALE-OUT recipe of xliffmt-batch(1) runs them, and signals sent to
# a batch's pid alone, as kill, systemd and container runtimes send them.
# Two batches at once, the engine dying on one document: that document
# stays listed whatever the other batch does (it finishes after, or
# starts while the first is on it), and the last pass translates it
# again. SIGTERM or SIGINT to the batch: passed on to the workers, the
# document under way not written, exit 143 or 130, nothing left running.
# SIGKILL: the workers die with it and write nothing after. An output
# tree inside the input tree, its own or another batch's, is never read
# as input. The list an earlier version kept is still read.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-batch-shared
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
# wait_for FILE: up to 10 s until FILE exists.
wait_for() {
  n=0
  while [ ! -e "$1" ] && [ "$n" -lt 200 ]; do
    sleep 0.05
    n=$((n + 1))
  done
}
# files DIR: the files and directories under DIR, hidden ones too.
files() { (cd "$1" 2>/dev/null && find . -mindepth 1 | sort | tr '\n' ' '); }
# running: the processes whose command line names $tmp (the batches,
# their workers, the engines), the pattern's first letter in brackets
# so that pgrep does not find itself.
running() { pgrep -f "[${tmp%"${tmp#?}"}]${tmp#?}/" | tr '\n' ' '; }

mkdir "$tmp/in"
for d in 1 2 3 4; do doc "$d" 300 >"$tmp/in/doc$d.xlf"; done

# 1. Two batches, one share each. The engine dies on doc1's text until
# healed; the other batch, on doc3, goes on only once the first has
# ended, and then ends itself.
cat >"$tmp/engine1.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in
  *Doc1*) [ -e "$tmp/healed" ] || exit 3 ;;
  *Doc3*) : >"$tmp/on3"
    n=0
    while [ ! -e "$tmp/a.done" ] && [ "\$n" -lt 400 ]; do
      sleep 0.05; n=\$((n + 1))
    done ;;
  esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/engine1.sh"
eng1="--mt cmd:$tmp/engine1.sh --probes off -q"
# shellcheck disable=SC2086
"$x" batch "$tmp/in/doc3.xlf" "$tmp/in/doc4.xlf" -o "$tmp/out1" $eng1 \
  2>"$tmp/b.err" &
b=$!
wait_for "$tmp/on3"
# shellcheck disable=SC2086
within "share A, its engine dying on doc1" 3 60 500 \
  "$x" batch "$tmp/in/doc1.xlf" "$tmp/in/doc2.xlf" -o "$tmp/out1" $eng1
: >"$tmp/a.done"
wait "$b"
check "share B, ended after A: exit 0" test $? -eq 0
check "doc1 written with no target ($(targets "$tmp/out1/doc1.xlf"))" \
  test "$(targets "$tmp/out1/doc1.xlf")" -eq 0
check "doc1, and it alone, listed ($(files "$tmp/out1/.xliffmt-incomplete.d"))" \
  test "$(files "$tmp/out1/.xliffmt-incomplete.d")" = "./doc1.xlf "
: >"$tmp/healed"
# shellcheck disable=SC2086
within "the last pass" 0 60 500 "$x" batch "$tmp/in" -o "$tmp/out1" \
  --mt "cmd:$tmp/engine1.sh" --probes off
check "last pass: doc1 translated again ($(summary))" grep -q -F \
  'batch: 4 documents, 1 translated, 3 up to date, 0 with untranslated segments, 0 failed, 0 interrupted, 0 not started; 300 segments sent' \
  "$tmp/err"
for d in 1 2 3 4; do
  check "last pass: doc$d has 300 targets ($(targets "$tmp/out1/doc$d.xlf"))" \
    test "$(targets "$tmp/out1/doc$d.xlf")" -eq 300
done
check "last pass: nothing listed ($(files "$tmp/out1/.xliffmt-incomplete.d"))" \
  test -z "$(files "$tmp/out1/.xliffmt-incomplete.d")"
rm -f "$tmp/healed"

# 2. A batch that starts while another is on a document: the first
# batch's engine holds doc1 until the second has ended, then dies.
cat >"$tmp/engine2.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in
  *Doc1*) [ -e "$tmp/healed" ] || {
    : >"$tmp/on1"
    n=0
    while [ ! -e "$tmp/b2.done" ] && [ "\$n" -lt 400 ]; do
      sleep 0.05; n=\$((n + 1))
    done
    exit 3; } ;;
  esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/engine2.sh"
eng2="--mt cmd:$tmp/engine2.sh --probes off -q"
# shellcheck disable=SC2086
"$x" batch "$tmp/in/doc1.xlf" -o "$tmp/out2" $eng2 2>"$tmp/a2.err" &
a=$!
wait_for "$tmp/on1"
# shellcheck disable=SC2086
within "a batch started while another is on doc1" 0 60 500 \
  "$x" batch "$tmp/in/doc2.xlf" "$tmp/in/doc3.xlf" "$tmp/in/doc4.xlf" \
  -o "$tmp/out2" $eng2
: >"$tmp/b2.done"
wait "$a"
check "the first batch: exit 3" test $? -eq 3
check "doc1 listed ($(files "$tmp/out2/.xliffmt-incomplete.d"))" \
  test "$(files "$tmp/out2/.xliffmt-incomplete.d")" = "./doc1.xlf "
: >"$tmp/healed"
# shellcheck disable=SC2086
within "its last pass" 0 60 500 "$x" batch "$tmp/in" -o "$tmp/out2" \
  --mt "cmd:$tmp/engine2.sh" --probes off
check "last pass: doc1 translated again ($(summary))" grep -q -F \
  'batch: 4 documents, 1 translated, 3 up to date, 0 with untranslated segments, 0 failed, 0 interrupted, 0 not started; 300 segments sent' \
  "$tmp/err"
check "last pass: doc1 has 300 targets ($(targets "$tmp/out2/doc1.xlf"))" \
  test "$(targets "$tmp/out2/doc1.xlf")" -eq 300
rm -f "$tmp/healed"

# 3. A signal to the batch's pid alone while its engine holds doc2: doc1
# done, doc2 interrupted and not written, doc3 not started.
mkdir "$tmp/sig"
for d in 1 2 3; do doc "$d" 3 >"$tmp/sig/doc$d.xlf"; done
cat >"$tmp/stall.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  case \$line in
  *Doc2*) : >"$tmp/stalled"; sleep "\$(cat "$tmp/stall.time")" ;;
  esac
  printf '%s\n' "\$line" | tr a-z A-Z
done
EOD
chmod +x "$tmp/stall.sh"
stall="--mt cmd:$tmp/stall.sh --probes off"
echo 30 >"$tmp/stall.time"
# signal_batch SIG WANT: sends SIG to the batch's pid once doc2 is under
# way; the batch must end within 2 s with status WANT.
signal_batch() {
  rm -rf "$tmp/stalled" "$tmp/sigout"
  # shellcheck disable=SC2086
  "$x" batch "$tmp/sig" -o "$tmp/sigout" $stall 2>"$tmp/err" &
  pid=$!
  wait_for "$tmp/stalled"
  kill "-$1" "$pid"
  n=0
  while kill -0 "$pid" 2>/dev/null && [ "$n" -lt $((40 * time_factor)) ]; do
    sleep 0.05
    n=$((n + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    fail "SIG$1: the batch still running 2 s after it"
    kill -KILL "$pid"
  fi
  wait "$pid"
  got=$?
  check "SIG$1: exit $got" test "$got" -eq "$2"
  check "SIG$1: summary ($(summary))" grep -q -F \
    'batch: 3 documents, 1 translated, 0 up to date, 0 with untranslated segments, 0 failed, 1 interrupted, 1 not started;' \
    "$tmp/err"
  # (doc2's marker goes at the end with the others of documents that
  # have no output: such a document is translated anyway.)
  check "SIG$1: doc1 alone written ($(files "$tmp/sigout"))" \
    test "$(files "$tmp/sigout")" = \
    "./.xliffmt-incomplete.d ./.xliffmt-settings ./doc1.xlf "
  check "SIG$1: no worker nor engine left ($(running))" test -z "$(running)"
}
signal_batch TERM 143
signal_batch INT 130
# (The same engine, no longer stalling: another engine would translate
# doc1 again, its output being another engine's.)
echo 0 >"$tmp/stall.time"
# shellcheck disable=SC2086
within "after SIGINT, the same batch" 0 60 500 \
  "$x" batch "$tmp/sig" -o "$tmp/sigout" $stall
echo 30 >"$tmp/stall.time"
check "after SIGINT: the two others translated ($(summary))" grep -q -F \
  'batch: 3 documents, 2 translated, 1 up to date,' "$tmp/err"
# The same with --force over that whole tree: doc2's earlier output is
# left as it was, and listed.
cp "$tmp/sigout/doc2.xlf" "$tmp/doc2.before"
rm -f "$tmp/stalled"
# shellcheck disable=SC2086
"$x" batch "$tmp/sig" -o "$tmp/sigout" $stall --force 2>"$tmp/err" &
pid=$!
wait_for "$tmp/stalled"
kill -TERM "$pid"
wait "$pid"
got=$?
check "--force, SIGTERM: exit $got" test "$got" -eq 143
check "--force, SIGTERM: doc2 as it was" cmp -s "$tmp/doc2.before" \
  "$tmp/sigout/doc2.xlf"
check "--force, SIGTERM: doc2 listed ($(files "$tmp/sigout/.xliffmt-incomplete.d"))" \
  test "$(files "$tmp/sigout/.xliffmt-incomplete.d")" = "./doc2.xlf "

# 4. SIGKILL: the workers die with the batch. The engine answers doc2
# after 2 s: a worker left running would then write it, and doc3.
echo 2 >"$tmp/stall.time"
rm -rf "$tmp/stalled" "$tmp/sigout"
# shellcheck disable=SC2086
"$x" batch "$tmp/sig" -o "$tmp/sigout" $stall 2>"$tmp/err" &
pid=$!
wait_for "$tmp/stalled"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 1
check "SIGKILL: nothing left running a second after ($(running))" \
  test -z "$(running)"
sleep 2.5
check "SIGKILL: nothing written after ($(files "$tmp/sigout"))" \
  test "$(files "$tmp/sigout")" = \
  "./.xliffmt-incomplete.d ./.xliffmt-incomplete.d/doc2.xlf ./.xliffmt-settings ./doc1.xlf "

# 5. Output trees inside the input tree: the batch's own, and another
# batch's inside it; three runs of each give the tree of one.
mkdir -p "$tmp/nest/sub"
doc 1 2 >"$tmp/nest/a.xlf"
doc 2 2 >"$tmp/nest/sub/b.xlf"
for run in 1 2 3; do
  within "output inside the input, run $run" 0 30 500 \
    "$x" batch "$tmp/nest" -o "$tmp/nest/out" --mt identity --probes off
  check "run $run: no warning" test -z "$(grep -F warning "$tmp/err")"
  within "an output inside that output, run $run" 0 30 500 \
    "$x" batch "$tmp/nest" -o "$tmp/nest/out/es" --mt identity --probes off
done
check "the tree is as after one run ($(files "$tmp/nest"))" \
  test "$(files "$tmp/nest")" = "./a.xlf ./out ./out/.xliffmt-incomplete.d \
./out/.xliffmt-settings ./out/a.xlf ./out/es ./out/es/.xliffmt-incomplete.d \
./out/es/.xliffmt-settings ./out/es/a.xlf ./out/es/sub ./out/es/sub/b.xlf \
./out/sub ./out/sub/b.xlf ./sub ./sub/b.xlf "
check "the other output tree named" grep -q -F \
  "nest/out: the output tree of another batch: not read (name it to translate it)" \
  "$tmp/err"

# 6. The list an earlier version kept: read, then replaced by markers.
mkdir "$tmp/old"
for d in 1 2; do doc "$d" 2 >"$tmp/old/doc$d.xlf"; done
within "a tree to list" 0 30 500 \
  "$x" batch "$tmp/old" -o "$tmp/oldout" --mt identity --probes off
rm -rf "$tmp/oldout/.xliffmt-incomplete.d"
printf 'doc%%251.xlf\ndoc2.xlf\n' >"$tmp/oldout/.xliffmt-incomplete"
mv "$tmp/old/doc1.xlf" "$tmp/old/doc%1.xlf"
mv "$tmp/oldout/doc1.xlf" "$tmp/oldout/doc%1.xlf"
within "a batch over an earlier version's list" 0 30 500 \
  "$x" batch "$tmp/old" -o "$tmp/oldout" --mt identity --probes off
check "both listed documents translated again ($(summary))" grep -q -F \
  'batch: 2 documents, 2 translated, 0 up to date,' "$tmp/err"
check "the old list gone, nothing listed ($(files "$tmp/oldout"))" \
  test "$(files "$tmp/oldout")" = \
  "./.xliffmt-incomplete.d ./.xliffmt-settings ./doc%1.xlf ./doc2.xlf "

finish
