#!/bin/sh
# slurm.sh -- `make bench-slurm`: the SCALE-OUT recipe of xliffmt-batch(1)
# at the size of a collection. 1,000 EUR-Lex-like documents
# (bench_eurlex_docs) are translated twice: by one `xliffmt batch -j 2` on
# this machine, and by samples/slurm/shares.sh as a Slurm job array of 4
# tasks on a cluster of two nodes (tests/cli/slurm.sh) with one PostgreSQL
# cache, node n1 killed once its task has written some documents, its
# task requeued on n2; then samples/slurm/final.sh. Checks that every
# document is written and has the bytes of the one-machine run, and that
# the last pass translates no document and sends nothing to the engine;
# prints the three wall times.
#
# The engine must answer a sentence the same whatever it translated
# before, or no two runs that order the documents differently can agree:
# the default is xliffmt's pseudo engine. Apertium is not such an engine
# (its tagger keeps state from one segment to the next: the same sentence
# can come out differently after another); with SLURM_MT=apertium:eng-spa
# the differing documents are counted, and the run fails.
#
# Env: XLIFFMT (required), XMT_TEST_DATA (default tests/data), DOCS
#      (default 1000), SLURM_MT (default pseudo), KILL_AFTER (documents
#      written before n1 dies, default 100), BENCH_DIR (default a fresh
#      temporary directory, removed on exit).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
data=${XMT_TEST_DATA:-$(cd "$here/.." && pwd)/data}
src=$data/markup-tags/dev-eurlex.en
[ -f "$src" ] || {
  echo "slurm.sh: $src not found" >&2
  exit 1
}
docs=${DOCS:-1000}
mt=${SLURM_MT:-pseudo}
kill_after=${KILL_AFTER:-100}
bench_scratch bench-slurm
tmp=$dir
. "$here/../cli/pg.sh"
. "$here/../cli/slurm.sh"
cleanup() {
  slurm_stop
  pg_stop || :
  [ -n "${BENCH_DIR:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT
fail=0

# now: seconds since the epoch, to the millisecond
now() { date +%s.%N | cut -c1-14; }
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

bench_eurlex_docs "$docs" "$dir/docs"
echo "$docs EUR-Lex-like documents, --mt $mt; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

t0=$(now)
"$XLIFFMT" batch "$dir/docs" -o "$dir/one" -s en -t es --mt "$mt" -j 2 -q \
  --report "$dir/one.json"
one_secs=$(took "$t0")

pg_start "" tm
slurm_start
export DOCS="$dir/docs" OUT="$dir/array" CACHE="postgresql:$conn dbname=tm"
export MT="$mt" XLIFFMT
t0=$(now)
job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 -D "$dir" \
  -o "$dir/task-%a.log" "$here/../../samples/slurm/shares.sh")
job=${job%%;*}

# n1 dies once the array has written KILL_AFTER documents, in the middle
# of its task.
i=0
until [ "$(find "$OUT" -name '*.xlf' 2>/dev/null | wc -l)" -ge "$kill_after" ]; do
  i=$((i + 1))
  [ $i -lt 2400 ] || break
  sleep 0.25
done
on_n1=$(squeue -h -j "$job" -t running -o '%A %N' | awk '$2 == "n1" { print $1 }')
verdict "$([ -n "$on_n1" ] && echo 1 || echo 0)" "a task runs on n1 when it dies"
slurm_kill_n1 "$on_n1" "batch $dir/docs -o"
left_by_n1=$(find "$OUT/.xliffmt-incomplete.d" -type f 2>/dev/null | wc -l)
slurm_wait_array "$job" "$on_n1" 3600
array_secs=$(took "$t0")
verdict "$released" "the task of n1 requeued and run again on n2"
verdict "$([ -z "$(squeue -h -j "$job")" ] && echo 1 || echo 0)" \
  "the array ended"

t0=$(now)
final=$(sbatch --parsable --cpus-per-task=1 -D "$dir" -o "$dir/final.log" \
  "$here/../../samples/slurm/final.sh")
final=${final%%;*}
slurm_wait_job "$final" 3600
final_secs=$(took "$t0")

written=$(find "$OUT" -name '*.xlf' | wc -l | tr -d ' ')
verdict "$([ "$written" -eq "$docs" ] && echo 1 || echo 0)" \
  "every document written ($written of $docs; n1 had left $left_by_n1 half done)"
differ=$(diff -rq -x '.xliffmt-*' "$dir/one" "$OUT" | wc -l | tr -d ' ')
verdict "$([ "$differ" -eq 0 ] && echo 1 || echo 0)" \
  "the bytes of the one-machine run ($differ documents differ)"
[ "$differ" -eq 0 ] || diff -rq -x '.xliffmt-*' "$dir/one" "$OUT" | head -n 5
totals=$(sed 's/.*"totals"://' "$OUT.final.json" 2>/dev/null || true)
count() { echo "$totals" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
verdict "$([ "$(count translated_documents)" = 0 ] &&
  [ "$(count up_to_date_documents)" = "$docs" ] && echo 1 || echo 0)" \
  "the last pass: every document up to date"
verdict "$([ "$(count segments_sent)" = 0 ] && echo 1 || echo 0)" \
  "the last pass sent nothing to the engine"
sent=0
for f in "$OUT".share-*.json; do
  s=$(sed -n 's/.*"totals":.*"segments_sent":\([0-9]*\).*/\1/p' "$f")
  sent=$((sent + ${s:-0}))
done
echo "one machine, batch -j 2: $one_secs s"
echo "job array of 4 tasks on 2 nodes, n1 killed, its task requeued: $array_secs s ($sent segments sent by the tasks that finished)"
echo "last pass: $final_secs s"
exit $fail
