#!/bin/sh
# test_cli_cache_pg.sh -- the translation memory cache in PostgreSQL
# (--cache postgresql:CONNINFO), on a private server listening only on a
# Unix socket in the scratch folder: a rerun sends nothing and writes the
# same bytes; the scale-out recipe (two batches at once on the halves of a
# set, one cache) leaves a cache from which a pass over the whole set
# sends nothing; bad connection strings fail before anything is written,
# without showing a password; a cache lost during a run is not fatal.
set -u
. "$(dirname "$0")/lib.sh"
cli_setup cache_pg
x=$XLIFFMT

. "$(dirname "$0")/pg.sh"
stop_server() {
  pg_stop
  rm -rf "$tmp"
}
trap stop_server EXIT
pg_start "-c max_connections=40" tm small scale other newer

cache_fixtures
run() { cache_run "$@"; }

if expect_exit 0 "a first run fills the cache" run "$tmp/1.xlf" \
  "$tmp/1.json" --cache "postgresql:$conn dbname=tm"; then
  check "the engine got each sentence and probe once" \
    test "$(wc -l <"$tmp/sent.log")" -eq 5
  check "report: no hits" grep -q '"segments_sent":3,.*"cache_hits":0,' \
    "$tmp/1.json"
  check "the cache holds the 3 answers and the 2 probes'" \
    test "$(psql tm "SELECT count(*) FROM xliffmt_cache WHERE engine <> 'xliffmt-aligner'")" -eq 5
fi
: >"$tmp/sent.log"
if expect_exit 0 "a rerun" run "$tmp/2.xlf" "$tmp/2.json" \
  --cache "postgresql:$conn dbname=tm"; then
  check "nothing sent to the engine" test ! -s "$tmp/sent.log"
  check "report: every request a hit" grep -q \
    '"segments_sent":0,.*"mt_calls":0,.*"probe_requests":0,.*"cache_hits":5,' \
    "$tmp/2.json"
  check "the same bytes" cmp -s "$tmp/1.xlf" "$tmp/2.xlf"
fi
: >"$tmp/sent.log"
if expect_exit 0 "postgresql: alone, from the PG* environment" env \
  PGHOST="$pg" PGUSER=xliffmt PGDATABASE=tm \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/3.xlf" --mt "cmd:$tmp/engine.sh" \
  -q --cache postgresql:; then
  check "nothing sent" test ! -s "$tmp/sent.log"
  check "the same bytes" cmp -s "$tmp/1.xlf" "$tmp/3.xlf"
fi
if expect_exit 0 "a URI" run "$tmp/4.xlf" "$tmp/4.json" \
  --cache "postgresql://xliffmt@/tm?host=$pg"; then
  check "nothing sent" test ! -s "$tmp/sent.log"
fi
: >"$tmp/sent.log"
if expect_exit 0 "another engine option" run "$tmp/5.xlf" "$tmp/5.json" \
  --cache "postgresql:$conn dbname=tm" --mt-option flush=line; then
  check "sent again" test "$(wc -l <"$tmp/sent.log")" -eq 5
fi
if expect_exit 0 "--cache-max 2" run "$tmp/6.xlf" "$tmp/6.json" \
  --cache "postgresql:$conn dbname=small" --cache-max 2; then
  check "2 entries kept" \
    test "$(psql small 'SELECT count(*) FROM xliffmt_cache')" -eq 2
fi

# The scale-out recipe: the documents split in two shares, a batch per
# share started at once (as on two workers), one cache for both, created
# by whichever comes first.
mkdir "$tmp/set"
i=0
while [ $i -lt 20 ]; do
  cat >"$tmp/set/d$i.xlf" <<EOD
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="d$i" source-language="en" target-language="es" datatype="plaintext">
<body>
<trans-unit id="1"><source>Document $i is about <g id="1">cars</g>. The red car.</source></trans-unit>
<trans-unit id="2"><source>Press <g id="1">Save</g> now.</source></trans-unit>
<trans-unit id="3"><source>Item $((i % 7)) of the list. The blue car.</source></trans-unit>
</body></file></xliff>
EOD
  i=$((i + 1))
done
ls "$tmp"/set/*.xlf >"$tmp/all.txt"
split -n r/2 "$tmp/all.txt" "$tmp/share."
cat >"$tmp/worker.sh" <<EOD
#!/bin/sh
# One worker's share: the documents listed in \$1.
exec xargs -a "\$1" "$x" batch -o "$tmp/tree1" --mt "cmd:$tmp/engine.sh" \\
  -q -j 2 --cache "postgresql:$conn dbname=scale" --report "\$1.json"
EOD
chmod +x "$tmp/worker.sh"
: >"$tmp/sent.log"
if command -v parallel >/dev/null 2>&1; then
  how="GNU parallel"
  PARALLEL_HOME=$tmp/parallel-home parallel --will-cite -j 2 \
    "$tmp/worker.sh" ::: "$tmp/share.aa" "$tmp/share.ab" >"$tmp/out" \
    2>"$tmp/err"
  status=$?
else
  how="background jobs"
  "$tmp/worker.sh" "$tmp/share.aa" 2>"$tmp/err.aa" &
  a=$!
  "$tmp/worker.sh" "$tmp/share.ab" 2>"$tmp/err.ab" &
  b=$!
  wait $a
  status=$?
  wait $b || status=$?
fi
check "two batches at once on the halves ($how)" test "$status" -eq 0
check "every document written" \
  test "$(find "$tmp/tree1" -name '*.xlf' | wc -l)" -eq 20
check "no entry lost" \
  test "$(psql scale "SELECT count(*) FROM xliffmt_cache WHERE engine <> 'xliffmt-aligner'")" -eq \
  "$(sort -u "$tmp/sent.log" | wc -l)"
: >"$tmp/sent.log"
if expect_exit 0 "then one batch over the whole set" "$x" batch "$tmp/set" \
  -o "$tmp/tree2" --mt "cmd:$tmp/engine.sh" -q -j 2 \
  --cache "postgresql:$conn dbname=scale" --report "$tmp/all.json"; then
  check "nothing sent to the engine" test ! -s "$tmp/sent.log"
  check "report: nothing sent, all from the cache" grep -q \
    '"totals":{.*"segments_sent":0,.*"cache_hits":[1-9]' "$tmp/all.json"
  check "the same bytes" diff -r "$tmp/tree1" "$tmp/tree2"
fi

# Bad connection strings: exit 1 before anything is sent or written, and
# the password never shown.
: >"$tmp/sent.log"
if expect_exit 1 "a database that does not exist" run "$tmp/7.xlf" \
  "$tmp/7.json" --cache "postgresql:$conn dbname=nosuch password=s3cr3t"; then
  check "says which and why" grep -q \
    "postgresql:.*dbname=nosuch.*: cache: cannot connect: .*database \"nosuch\" does not exist" \
    "$tmp/err"
  check "not the password" sh -c "! grep -q s3cr3t '$tmp/err'"
fi
check "no output then" test ! -e "$tmp/7.xlf"
check "nothing sent then" test ! -s "$tmp/sent.log"
for uri in "postgresql://xliffmt:s3cr3t@/nosuch?host=$pg" \
  "postgresql:postgres://xliffmt:s3cr3t@/nosuch?host=$pg"; do
  expect_exit 1 "a URI with a password (${uri%%//*})" run "$tmp/7.xlf" \
    "$tmp/7.json" --cache "$uri" &&
    check "not the password" sh -c "! grep -q s3cr3t '$tmp/err'"
done
if expect_exit 1 "a string libpq cannot read" run "$tmp/7.xlf" \
  "$tmp/7.json" --cache "postgresql:password=s3cr3t oops"; then
  check "says so" grep -q 'cannot connect: not a connection string' \
    "$tmp/err"
  check "not the password" sh -c "! grep -q s3cr3t '$tmp/err'"
fi
expect_exit 1 "no server there" run "$tmp/7.xlf" "$tmp/7.json" \
  --cache "postgresql:host=$tmp/nowhere" &&
  check "libpq's message" grep -q 'cannot connect: connection to server on socket.*nowhere' "$tmp/err"
check "no output then" test ! -e "$tmp/7.xlf"
if expect_exit 1 "a batch with a bad cache" "$x" batch "$tmp/set" \
  -o "$tmp/tree3" --mt "cmd:$tmp/engine.sh" -q \
  --cache "postgresql:$conn dbname=nosuch"; then
  check "writes nothing" test -z "$(find "$tmp/tree3" -name '*.xlf' 2>/dev/null)"
  check "sends nothing" test ! -s "$tmp/sent.log"
fi

# The cache's format is in its table's comment; a table of another schema
# or of a newer format is refused before anything is written to it.
check "a new cache says its format" test \
  "$(psql tm "SELECT obj_description('xliffmt_cache'::regclass, 'pg_class')")" = \
  "xliffmt cache format 1"
psql other "CREATE TABLE xliffmt_cache (id INTEGER, note TEXT); INSERT INTO xliffmt_cache VALUES (1, 'mine')"
if expect_exit 1 "a table xliffmt_cache of another schema" run "$tmp/9.xlf" \
  "$tmp/9.json" --cache "postgresql:$conn dbname=other"; then
  check "says so" grep -q \
    "postgresql:.*dbname=other.*: cache: cannot use: table xliffmt_cache is not an xliffmt cache: its columns or its key are not the cache's (it is left as it is; give --cache another database)" \
    "$tmp/err"
  check "the table as it was" test \
    "$(psql other "SELECT count(*) FROM pg_indexes WHERE tablename = 'xliffmt_cache'")/$(psql other 'SELECT note FROM xliffmt_cache')" = "0/mine"
fi
check "no output then" test ! -e "$tmp/9.xlf"
psql newer "CREATE TABLE xliffmt_cache (engine TEXT NOT NULL, source_language TEXT NOT NULL, target_language TEXT NOT NULL, markup INTEGER NOT NULL, request TEXT NOT NULL, answer TEXT NOT NULL, alignment TEXT, source_tokens TEXT, target_tokens TEXT, used BIGINT NOT NULL); CREATE UNIQUE INDEX xliffmt_cache_key ON xliffmt_cache (md5(engine), source_language, target_language, markup, md5(request)); COMMENT ON TABLE xliffmt_cache IS 'xliffmt cache format 2'"
: >"$tmp/sent.log"
if expect_exit 1 "a cache of a newer format" run "$tmp/9.xlf" "$tmp/9.json" \
  --cache "postgresql:$conn dbname=newer"; then
  check "says so" grep -q \
    "cache: cannot use: table xliffmt_cache is of cache format 2, written by a newer xliffmt (this one knows format 1; it is left as it is" \
    "$tmp/err"
  check "nothing written to it" test "$(psql newer 'SELECT count(*) FROM xliffmt_cache')" -eq 0
  check "nothing sent" test ! -s "$tmp/sent.log"
fi
psql newer "COMMENT ON TABLE xliffmt_cache IS NULL"
expect_exit 0 "a cache of a version before the format was written" run \
  "$tmp/10.xlf" "$tmp/10.json" --cache "postgresql:$conn dbname=newer" &&
  check "used" test "$(psql newer "SELECT count(*) FROM xliffmt_cache WHERE engine <> 'xliffmt-aligner'")" -eq 5

# A cache lost during the run is reported once; the run goes on without.
# (an engine that cuts it when asked its first sentence)
cat >"$tmp/cut.sh" <<EOD
#!/bin/sh
IFS= read -r line
"$pgbin/psql" -X -q -h "$pg" -U xliffmt -d tm -c \\
  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'xliffmt'" >/dev/null
printf 'ES %s\\n' "\$line"
exec "$tmp/engine.sh"
EOD
chmod +x "$tmp/cut.sh"
if expect_exit 0 "the connection cut during the run" "$x" translate \
  "$tmp/doc.xlf" -o "$tmp/8.xlf" --mt "cmd:$tmp/cut.sh" \
  --cache "postgresql:$conn dbname=tm"; then
  check "reported once" test \
    "$(grep -c 'warning: the cache postgresql:.* failed: .*terminating connection.*; going on without it' "$tmp/err")" -eq 1
  check "translated anyway" test -s "$tmp/8.xlf"
fi

finish
