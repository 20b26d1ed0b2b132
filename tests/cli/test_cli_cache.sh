#!/bin/sh
# test_cli_cache.sh -- the translation memory cache (--cache sqlite:PATH):
# a rerun sends nothing and writes the same bytes, the engine's options are
# part of the key, --cache-max bounds it, a corrupt file is set aside and
# reported, concurrent batch jobs share it, a failing cache is not fatal;
# a rerun takes the document's word links from it instead of training.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup cache
x=$XLIFFMT

cache_fixtures
run() { cache_run "$@"; }
db=$tmp/tm.db

if expect_exit 0 "a first run fills the cache" run "$tmp/1.xlf" \
  "$tmp/1.json" --cache "sqlite:$db"; then
  check "the engine got each sentence and probe once" test "$(wc -l <"$tmp/sent.log")" -eq 5
  check "report: no hits" grep -q '"segments_sent":3,.*"cache_hits":0,' \
    "$tmp/1.json"
  check "the cache holds the 3 answers and the 2 probes'" test \
    "$(sqlite3 "$db" "SELECT count(*) FROM xliffmt_cache WHERE engine <> 'xliffmt-aligner'")" -eq 5
fi
: >"$tmp/sent.log"
if expect_exit 0 "a rerun" run "$tmp/2.xlf" "$tmp/2.json" --cache "sqlite:$db"; then
  check "nothing sent to the engine" test ! -s "$tmp/sent.log"
  check "report: every request a hit" grep -q \
    '"segments_sent":0,.*"mt_calls":0,.*"probe_requests":0,.*"cache_hits":5,' "$tmp/2.json"
  check "the same bytes" cmp -s "$tmp/1.xlf" "$tmp/2.xlf"
  check "the document's word links from the cache, the aligner not trained" \
    grep -q '"cached_alignments":1,' "$tmp/2.json"
fi
check "the first run kept them: one entry" test "$(sqlite3 "$db" \
  "SELECT count(*) FROM xliffmt_cache WHERE engine = 'xliffmt-aligner'")" -eq 1
check "not in the first run's report" grep -q '"cached_alignments":0,' \
  "$tmp/1.json"
# Other aligner settings: trained again, and kept as well.
if expect_exit 0 "another symmetrization" run "$tmp/2s.xlf" "$tmp/2s.json" \
  --cache "sqlite:$db" --symmetrize intersect; then
  check "trained" grep -q '"cached_alignments":0,' "$tmp/2s.json"
  check "kept: two entries" test "$(sqlite3 "$db" \
    "SELECT count(*) FROM xliffmt_cache WHERE engine = 'xliffmt-aligner'")" -eq 2
fi
# Links that do not fit the document (a damaged entry) are not used: the
# aligner trains, and the output is what training gives.
cp "$db" "$tmp/links.db"
sqlite3 "$tmp/links.db" "UPDATE xliffmt_cache SET answer = substr(answer, 1, instr(answer, char(9))) || '0-0 99-99' WHERE engine = 'xliffmt-aligner'"
if expect_exit 0 "damaged links" run "$tmp/2d.xlf" "$tmp/2d.json" \
  --cache "sqlite:$tmp/links.db"; then
  check "trained" grep -q '"cached_alignments":0,' "$tmp/2d.json"
  check "the same bytes as the first run" cmp -s "$tmp/1.xlf" "$tmp/2d.xlf"
fi
# Another option of the engine, another answer: not taken from the cache.
: >"$tmp/sent.log"
if expect_exit 0 "another engine option" run "$tmp/3.xlf" "$tmp/3.json" \
  --cache "sqlite:$db" --mt-option flush=line; then
  check "sent again" test "$(wc -l <"$tmp/sent.log")" -eq 5
fi
# Another target language: another key.
sed 's/target-language="es"/target-language="fr"/' "$tmp/doc.xlf" \
  >"$tmp/doc-fr.xlf"
: >"$tmp/sent.log"
if expect_exit 0 "another target language" "$x" translate "$tmp/doc-fr.xlf" \
  -o "$tmp/fr.xlf" --mt "cmd:$tmp/engine.sh" -q --cache "sqlite:$db"; then
  check "sent again" test "$(wc -l <"$tmp/sent.log")" -eq 5
fi

# --cache-max: the least recently used go at the end of a run.
if expect_exit 0 "--cache-max 2" run "$tmp/4.xlf" "$tmp/4.json" \
  --cache "sqlite:$tmp/small.db" --cache-max 2; then
  check "2 entries kept" test \
    "$(sqlite3 "$tmp/small.db" 'SELECT count(*) FROM xliffmt_cache')" -eq 2
fi

# A file that is not an xliffmt cache is refused and left as it is: not
# a database at all, or another program's.
printf 'this is not a database\n' >"$tmp/bad.db"
if expect_exit 1 "a file that is not a database" run "$tmp/5.xlf" \
  "$tmp/5.json" --cache "sqlite:$tmp/bad.db"; then
  check "the message says why" grep -q \
    "bad.db: cache: not an xliffmt cache: the file is not an SQLite database" \
    "$tmp/err"
  check "the file left as it is" test "$(cat "$tmp/bad.db")" = \
    "this is not a database"
  check "nothing set aside" sh -c "! ls '$tmp'/bad.db.* >/dev/null 2>&1"
  check "no output" test ! -e "$tmp/5.xlf"
fi
sqlite3 "$tmp/other.db" 'CREATE TABLE people (name TEXT)'
if expect_exit 1 "another program's database" run "$tmp/6.xlf" "$tmp/6.json" \
  --cache "sqlite:$tmp/other.db"; then
  check "is not taken for a cache" grep -q \
    "other.db: cache: not an xliffmt cache: it is another program's database" \
    "$tmp/err"
  check "its table untouched" test \
    "$(sqlite3 "$tmp/other.db" .tables)" = people
fi

# A cache of ours found damaged is set aside under a name of its own,
# reported, and replaced: two in a row keep both.
cp "$db" "$tmp/dmg.db"
head -c 2000 /dev/zero | tr '\0' 'x' |
  dd of="$tmp/dmg.db" bs=1 seek=4096 conv=notrunc 2>/dev/null
cp "$tmp/dmg.db" "$tmp/dmg.copy"
for k in 1 2; do
  if expect_exit 0 "a damaged cache ($k)" run "$tmp/8.xlf" "$tmp/8.json" \
    --cache "sqlite:$tmp/dmg.db"; then
    check "a warning says so ($k)" grep -q \
      "warning: cache .*dmg.db is damaged: set aside as .*dmg.db.corrupt-" \
      "$tmp/err"
    check "translated anyway ($k)" cmp -s "$tmp/1.xlf" "$tmp/8.xlf"
  fi
  [ "$k" = 2 ] || { rm -f "$tmp"/dmg.db-*; cp "$tmp/dmg.copy" "$tmp/dmg.db"; }
done
check "both damaged files kept aside" \
  test "$(ls "$tmp"/dmg.db.corrupt-* | wc -l)" -eq 2
for f in "$tmp"/dmg.db.corrupt-*; do
  check "${f##*/} is the damaged file" cmp -s "$f" "$tmp/dmg.copy"
done

# Concurrent writers: a batch of documents on 3 jobs sharing one cache.
mkdir -p "$tmp/docs"
i=0
while [ $i -lt 12 ]; do
  sed "s/The red car/Car number $i/" "$tmp/doc.xlf" >"$tmp/docs/d$i.xlf"
  i=$((i + 1))
done
: >"$tmp/sent.log"
if expect_exit 0 "a batch on 3 jobs with one cache" "$x" batch "$tmp/docs" \
  -o "$tmp/tree1" --mt "cmd:$tmp/engine.sh" -q -j 3 --cache "sqlite:$tmp/b.db" \
  --report "$tmp/b1.json"; then
  check "no entry lost" test \
    "$(sqlite3 "$tmp/b.db" "SELECT count(*) FROM xliffmt_cache WHERE engine <> 'xliffmt-aligner'")" -eq \
    "$(sort -u "$tmp/sent.log" | wc -l)"
fi
: >"$tmp/sent.log"
if expect_exit 0 "the batch again, into another tree" "$x" batch "$tmp/docs" \
  -o "$tmp/tree2" --mt "cmd:$tmp/engine.sh" -q -j 3 --cache "sqlite:$tmp/b.db" \
  --report "$tmp/b2.json"; then
  check "nothing sent" test ! -s "$tmp/sent.log"
  check "the totals count the hits" grep -q '"segments_sent":0,.*"cache_hits":[1-9]' \
    "$tmp/b2.json"
  check "the same trees" diff -r "$tmp/tree1" "$tmp/tree2"
fi

# Jobs that open a new cache file at the same moment: one creates it and
# sets WAL mode while the others open it, which SQLite answers "locked"
# at once, without its busy timeout. Each must wait its turn, not fail
# nor set the file aside as corrupt. Short documents and a fast engine
# make the opens many; ten batches make the race likely to come up.
mkdir -p "$tmp/race"
i=0
while [ $i -lt 200 ]; do
  printf '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="r" source-language="en" target-language="es" datatype="plaintext"><body><trans-unit id="1"><source>Sentence %d here.</source></trans-unit></body></file></xliff>\n' \
    $i >"$tmp/race/r$i.xlf"
  i=$((i + 1))
done
ok=0 runs=0
while [ $runs -lt 10 ]; do
  rm -rf "$tmp/race.out" "$tmp/race.db" "$tmp/race.db"-* "$tmp"/race.db.corrupt-*
  "$x" batch "$tmp/race" -o "$tmp/race.out" --mt pseudo -q -j 2 \
    --cache "sqlite:$tmp/race.db" 2>>"$tmp/race.err" &&
    [ "$(sqlite3 "$tmp/race.db" 'SELECT count(*) FROM xliffmt_cache')" -eq 200 ] &&
    ! ls "$tmp"/race.db.corrupt-* >/dev/null 2>&1 && ok=$((ok + 1))
  runs=$((runs + 1))
done
check "ten batches of 2 jobs opening a new cache: every entry, no error ($ok of 10)" \
  test $ok -eq 10
check "no lock error" test ! -s "$tmp/race.err"

# A cache that cannot be opened is an error before anything is sent.
expect_exit 1 "a cache in a missing directory" run "$tmp/7.xlf" "$tmp/7.json" \
  --cache "sqlite:$tmp/no/such/dir/tm.db" &&
  check "says which and why" grep -q 'dir/tm.db: cache: cannot open: No such file or directory' "$tmp/err"
check "no output then" test ! -e "$tmp/7.xlf"
expect_exit 1 "an unknown cache" run "$tmp/8.xlf" "$tmp/8.json" \
  --cache "memcached:localhost" &&
  check "says what is known" grep -q -- '--cache takes sqlite:PATH' "$tmp/err"
expect_exit 1 "--cache-max 0" run "$tmp/8.xlf" "$tmp/8.json" \
  --cache "sqlite:$db" --cache-max 0 &&
  check "says so" grep -q -- '--cache-max takes a number' "$tmp/err"

finish
