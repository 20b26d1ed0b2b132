#!/bin/sh
# batch.sh -- `make bench-batch`: xliffmt batch over many documents with
# a real engine. The English side of the EUR-Lex tagged dev set is cut
# into documents of DOC_LINES lines (one unit per line), and the set is
# translated with Apertium eng-spa by `batch --jobs 1`, `--jobs 2` and
# `--jobs 1 --fresh-engine` (an engine started for each document, as
# before jobs kept theirs) in turn, RUNS times, fresh trees, no cache;
# then once more with jobs 2 and a translation memory cache, twice, to
# show what a rerun costs. Prints the median seconds of each, the ratios
# jobs 2 / jobs 1 and kept engine / fresh engine, and how many documents
# differ between jobs 1 and 2 (Apertium carries a little context from
# one segment to the next, so a document's words can depend on what its
# engine translated before). Then jobs 1 and 2 with an engine that waits
# 5 ms a segment without using the CPU (a server, a GPU).
#
# Env: XLIFFMT (required), XMT_TEST_DATA (default tests/data),
#      DOC_LINES (default 100), RUNS (default 3).
set -eu

. "$(dirname "$0")/lib.sh"
bench_setup bench-batch
lines=${DOC_LINES:-100}
runs=${RUNS:-3}

# Documents: lines whose bx/ex pairs span other lines are left out.
mkdir "$dir/docs"
grep -v -e '<bx' -e '<ex' "$src" | split -a 3 -l "$lines" - "$dir/chunk."
n=0
for c in "$dir"/chunk.*; do
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
    echo "<file original=\"${c##*.}\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>"
    awk '{ printf "<trans-unit id=\"%d\"><source>%s</source></trans-unit>\n", NR, $0 }' "$c"
    echo '</body></file></xliff>'
  } >"$dir/docs/${c##*.}.xlf"
  rm "$c"
  n=$((n + 1))
done

secs() { # CMD...: wall seconds
  s0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  s1=$(date +%s.%N)
  awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.3f\n", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$dir/j1" && : >"$dir/j2" && : >"$dir/f1"
i=0
while [ "$i" -lt "$runs" ]; do
  rm -rf "$dir/t1" "$dir/t2" "$dir/tf"
  secs "$XLIFFMT" batch "$dir/docs" -o "$dir/t1" --mt apertium:eng-spa -q \
    -j 1 >>"$dir/j1"
  secs "$XLIFFMT" batch "$dir/docs" -o "$dir/t2" --mt apertium:eng-spa -q \
    -j 2 >>"$dir/j2"
  secs "$XLIFFMT" batch "$dir/docs" -o "$dir/tf" --mt apertium:eng-spa -q \
    -j 1 --fresh-engine >>"$dir/f1"
  i=$((i + 1))
done
for t in t1 t2 tf; do
  [ "$(ls "$dir/$t" | wc -l)" -eq "$n" ] ||
    { echo "batch.sh: $t: not every document written" >&2; exit 1; }
done
differ=$(diff -rq "$dir/t1" "$dir/t2" | wc -l | tr -d ' ')
rm -rf "$dir/t3" "$dir/t4"
c1=$(secs "$XLIFFMT" batch "$dir/docs" -o "$dir/t3" --mt apertium:eng-spa -q \
  -j 2 --cache "sqlite:$dir/tm.db")
c2=$(secs "$XLIFFMT" batch "$dir/docs" -o "$dir/t4" --mt apertium:eng-spa -q \
  -j 2 --cache "sqlite:$dir/tm.db" --report "$dir/rerun.json")
m1=$(median <"$dir/j1")
m2=$(median <"$dir/j2")
mf=$(median <"$dir/f1")
echo "input: $n documents of up to $lines lines; $(nproc) cores; median of $runs runs"
printf '%-44s %8s\n' run seconds
printf '%-44s %8.2f\n' "batch --jobs 1" "$m1" "batch --jobs 2" "$m2" \
  "batch --jobs 1 --fresh-engine" "$mf" \
  "batch --jobs 2 --cache (empty cache)" "$c1" \
  "batch --jobs 2 --cache (rerun)" "$c2"
awk -v a="$m2" -v b="$m1" 'BEGIN { printf "jobs 2 / jobs 1: %.2f\n", a / b }'
awk -v a="$m1" -v b="$mf" 'BEGIN { printf "jobs 1, engine kept / fresh engine: %.2f\n", a / b }'
echo "documents that differ between jobs 1 and jobs 2: $differ of $n"
echo "rerun: $(sed -n 's/.*"segments_sent":\([0-9]*\).*"cache_hits":\([0-9]*\).*"cached_alignments":\([0-9]*\).*/\1 segments sent, \2 cache hits, \3 alignments from the cache/p' "$dir/rerun.json" | tail -1)"

# An engine that waits 5 ms a segment without using the CPU, as a server
# or a GPU does: what jobs gain when the engine is not the machine's own
# CPU (Apertium above uses both cores on its own).
cat >"$dir/wait.sh" <<'EOS'
#!/bin/sh
while IFS= read -r line; do sleep 0.005; printf '%s\n' "$line"; done
EOS
chmod +x "$dir/wait.sh"
rm -rf "$dir/w1" "$dir/w2"
w1=$(secs "$XLIFFMT" batch "$dir/docs" -o "$dir/w1" --mt "cmd:$dir/wait.sh" \
  -q -j 1 --probes off)
w2=$(secs "$XLIFFMT" batch "$dir/docs" -o "$dir/w2" --mt "cmd:$dir/wait.sh" \
  -q -j 2 --probes off)
diff -r "$dir/w1" "$dir/w2" >/dev/null ||
  { echo "batch.sh: the waiting engine: jobs 1 and 2 wrote different trees" >&2; exit 1; }
printf '%-44s %8.2f\n' "waiting engine (5 ms a segment), jobs 1" "$w1" \
  "waiting engine (5 ms a segment), jobs 2" "$w2"
awk -v a="$w2" -v b="$w1" 'BEGIN { printf "waiting engine: jobs 2 / jobs 1: %.2f\n", a / b }'
