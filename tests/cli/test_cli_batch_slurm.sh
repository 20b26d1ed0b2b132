#!/bin/sh
# test_cli_batch_slurm.sh -- the SCALE-OUT recipe of xliffmt-batch(1) on a
# real cluster manager: Slurm (slurmctld and two slurmd, nodes n1 and n2,
# on this machine, with a munged of their own) runs samples/slurm/shares.sh
# as a job array of 4 tasks against one PostgreSQL cache; node n1 dies in
# the middle (its slurmd and the processes of its task killed), Slurm
# requeues the task on n2, and the collection is still complete, each
# document whole; samples/slurm/final.sh then finds nothing left to do.
# Every daemon is started here on free ports and stopped at the end;
# skipped (77) where Slurm, munge or PostgreSQL cannot be had.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup batch-slurm
. "$(dirname "$0")/pg.sh"
. "$(dirname "$0")/slurm.sh"
samples=$(cd "$(dirname "$0")/../../samples/slurm" && pwd)

# The man page shows the job script this test runs, line for line (its
# comments aside).
man=$(dirname "$0")/../../doc/xliffmt-batch.1
python3 - "$man" "$samples/shares.sh" <<'EOD' >"$tmp/man-diff"
import sys
man = open(sys.argv[1]).read()
block = man[man.index("With Slurm"):]
block = block[block.index(".EX\n") + 4:block.index(".EE\n")]
shown = [l.replace("\\-", "-").replace("\\e", "\\") for l in block.splitlines()]
script = [l for l in open(sys.argv[2]).read().splitlines()
          if not l.startswith("#") or l.startswith("#!") or l.startswith("#SBATCH")]
if shown != script:
    print("\n".join(shown))
    print("---")
    print("\n".join(script))
EOD
check "xliffmt-batch(1) shows samples/slurm/shares.sh" test ! -s "$tmp/man-diff"
[ ! -s "$tmp/man-diff" ] || sed 's/^/    /' "$tmp/man-diff"

stop_all() {
  slurm_stop
  pg_stop
  rm -rf "$tmp"
}
trap stop_all EXIT
slurm_start
pass "a cluster of two nodes is up"
t0=$(date +%s)
since() { echo "# $(($(date +%s) - t0)) s: $1"; }

pg_start "" tm

# 40 documents of 4 units; an engine of 0.1 s a line, so that n1 dies in
# the middle of its task; it logs what it is sent, as the cache is
# judged by it.
mkdir -p "$tmp/docs/a" "$tmp/docs/b"
i=0
while [ $i -lt 40 ]; do
  d=$tmp/docs/a
  [ $((i % 2)) -eq 0 ] || d=$tmp/docs/b
  {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n'
    printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
    printf '<file original="d%s" source-language="en" target-language="es" datatype="plaintext"><body>\n' $i
    for u in 1 2 3 4; do
      printf '<trans-unit id="%s"><source>Document %s, sentence %s, <g id="1">bold</g>.</source></trans-unit>\n' $u $i $u
    done
    printf '</body></file></xliff>\n'
  } >"$d/d$i.xlf"
  i=$((i + 1))
done
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
while IFS= read -r line; do
  [ "\$line" = "2 4 6 8 0 1 3 5 7 9" ] || { printf '%s\n' "\$line" >>"$tmp/sent.log"; sleep 0.1; }
  printf 'ES %s\n' "\$line"
done
EOD
chmod +x "$tmp/engine.sh"
export DOCS="$tmp/docs" OUT="$tmp/docs.es" CACHE="postgresql:$conn dbname=tm"
export MT="cmd:$tmp/engine.sh" XLIFFMT
job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 -D "$tmp" \
  -o "$tmp/task-%a.log" "$samples/shares.sh") || {
  fail "sbatch shares.sh"
  finish
}
job=${job%%;*}

# n1 dies once its task has written a document or two.
i=0
until [ "$(find "$OUT" -name '*.xlf' 2>/dev/null | wc -l)" -ge 2 ]; do
  i=$((i + 1))
  [ $i -lt 240 ] || break
  sleep 0.25
done
since "two documents written"
on_n1=$(squeue -h -j "$job" -t running -o '%A %N' | awk '$2 == "n1" { print $1 }')
check "a task runs on n1 when it dies" test -n "$on_n1"
slurm_kill_n1 "$on_n1" "batch $tmp/docs -o"
since "n1 killed"
left_by_n1=$(find "$tmp/docs.es/.xliffmt-incomplete.d" -type f 2>/dev/null | wc -l)

# Slurm sees n1 down and requeues its task, which slurm_wait_array lets
# start at once on n2.
slurm_wait_array "$job" "$on_n1" 180
check "the task of n1 was requeued (held back by Slurm, released)" \
  test $released -eq 1
since "the array ended"
check "the array ended (requeued task included)" test -z "$(squeue -h -j "$job")"
check "n1 is down" test "$(sinfo -h -n n1 -o '%t')" = 'down*'
check "the task of n1 ran again" grep -q 'Restarts=1' \
  "$(scontrol show job "$on_n1" >"$tmp/job.txt"; echo "$tmp/job.txt")"
check "n1 left a document half done when it died" test "$left_by_n1" -ge 1
written=$(find "$OUT" -name '*.xlf' | wc -l)
check "every document written ($written)" test "$written" -eq 40
if [ "$written" -ne 40 ]; then
  # what each task said and how Slurm saw it end, for the failure
  for f in "$tmp"/task-*.log; do
    echo "# $f:"
    sed 's/^/#   /' "$f" | tail -n 20
  done
  scontrol show job "$job" 2>&1 | grep -E 'JobId|JobState|ExitCode|NodeList=|Restarts' |
    sed 's/^/# /'
  for f in "$OUT".share-*.json; do
    echo "# $f: $(grep -o '"totals":{[^}]*}' "$f")"
  done
fi
whole=0
for f in $(find "$OUT" -name '*.xlf'); do
  [ "$(grep -c '<target' "$f")" -eq 4 ] && whole=$((whole + 1))
done
check "every document whole: 4 targets each" test $whole -eq 40
check "no document left incomplete" test \
  "$(find "$OUT/.xliffmt-incomplete.d" -type f | wc -l)" -eq 0
sent=$(wc -l <"$tmp/sent.log")
check "each sentence sent about once (160, with what n1 sent before it died)" \
  test "$sent" -ge 160 -a "$sent" -le 168

# The last pass: nothing left.
final=$(sbatch --parsable --cpus-per-task=1 -D "$tmp" -o "$tmp/final.log" \
  "$samples/final.sh") && final=${final%%;*}
slurm_wait_job "$final" 120
since "the last pass ended"
check "the last pass: every document up to date, nothing sent" grep -q \
  '"totals":{"documents":40,"translated_documents":0,"up_to_date_documents":40,' \
  "$OUT.final.json"
check "the last pass sent nothing to the engine" test \
  "$(wc -l <"$tmp/sent.log")" -eq "$sent"
finish
