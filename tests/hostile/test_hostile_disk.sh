#!/bin/sh
# test_hostile_disk.sh: full disks and read-only folders (small tmpfs
# mounts). An output, a --report, a --cache and an --update-model model
# that cannot be written (the disk fills part-way, is full, or is
# read-only): exit non-zero with one message naming the file and the
# system's reason, the file as it was byte for byte, no temporary file
# beside it. A batch writes the documents that fit, reports the others,
# and the next run translates those again (not "up to date"). A new
# cache the full disk cannot hold leaves no file (nor -wal, -shm or
# temporary file) behind, is made once there is room, and two runs that
# make the same new cache at once both use it; a cache path that is a
# symbolic link to a file not made yet gets it where it points. Also -o
# /dev/full, an output whose folder is missing and one that is a folder.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip (no tmpfs can be mounted).
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-disk
x=$XLIFFMT
full=$tmp/full
ro=$tmp/ro
small_disks_setup
if ! small_disk "$full" || ! small_disk "$ro"; then
  echo "SKIP: no tmpfs can be mounted here (needs root)"
  exit 77
fi

# only DESC DIR NAME...: DIR holds exactly the files NAME... (no
# temporary file).
only() {
  what=$1 dir=$2
  shift 2
  got=$(cd "$dir" && ls -A | tr '\n' ' ')
  want=$(printf '%s ' "$@")
  if [ "$got" = "$want" ]; then
    pass "$what: nothing else in the folder"
  else
    fail "$what: the folder holds '$got', expected '$want'"
  fi
}
enospc="cannot write: No space left on device"

doc "$tmp/small.xlf" "The cat sleeps." "The dog barks."
# 600 units: some 190 KB of output, more than the disk holds.
set --
i=0
while [ $i -lt 600 ]; do
  set -- "$@" "Sentence $i is about the cat."
  i=$((i + 1))
done
doc "$tmp/big.xlf" "$@"
cat >"$tmp/engine.sh" <<'EOD'
#!/bin/sh
while IFS= read -r l; do printf 'ES %s\n' "$l"; done
EOD
chmod +x "$tmp/engine.sh"
engine=cmd:$tmp/engine.sh

# --- translate -o: the disk fills part-way.
within "translate small" 0 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$full/out.xlf" --mt "$engine" -q
cp "$full/out.xlf" "$tmp/out.prev"
within "translate big -o FULL/out.xlf" 2 20 1000 "$x" translate \
  "$tmp/big.xlf" -o "$full/out.xlf" --mt "$engine" -q
said "translate big -o FULL/out.xlf" "xliffmt: $full/out.xlf: $enospc"
unchanged "translate big -o FULL/out.xlf" "$full/out.xlf" "$tmp/out.prev"
only "translate big -o FULL/out.xlf" "$full" out.xlf
within "-o /dev/full" 2 20 1000 "$x" translate "$tmp/small.xlf" \
  -o /dev/full --mt "$engine" -q
said "-o /dev/full" "xliffmt: /dev/full: $enospc"

# --- batch: the documents that fit are written, the others retried.
mkdir "$tmp/in"
for d in a b c; do cp "$tmp/small.xlf" "$tmp/in/$d.xlf"; done
within "batch, all fit" 0 20 1000 "$x" batch "$tmp/in" -o "$full/o" \
  --mt "$engine" -q
cp "$full/o/b.xlf" "$tmp/b.prev"
# b grows too big, its output still newer than its input
cp "$tmp/big.xlf" "$tmp/in/b.xlf"
touch -r "$tmp/small.xlf" "$tmp/in/b.xlf"
touch "$full/o/b.xlf"
within "batch --force, b does not fit" 1 20 1000 "$x" batch "$tmp/in" \
  -o "$full/o" --mt "$engine" --force
check "batch --force: a and c done, b failed" test "$(grep '^xliffmt: batch [0-9]' "$tmp/err")" = \
  "xliffmt: batch 1/3: a.xlf: done, 2 segments
xliffmt: batch 2/3: b.xlf: failed, 600 segments
xliffmt: batch 3/3: c.xlf: done, 2 segments"
check "batch --force: names b's output" \
  grep -qxF "xliffmt: $full/o/b.xlf: $enospc" "$tmp/err"
unchanged "batch --force: b's output" "$full/o/b.xlf" "$tmp/b.prev"
only "batch --force" "$full/o" .xliffmt-incomplete.d .xliffmt-settings a.xlf \
  b.xlf c.xlf
within "batch again" 1 20 1000 "$x" batch "$tmp/in" -o "$full/o" \
  --mt "$engine"
check "batch again: b tried again, not up to date" \
  test "$(grep '^xliffmt: batch [0-9]' "$tmp/err")" = \
  "xliffmt: batch 1/3: a.xlf: up to date, 0 segments
xliffmt: batch 2/3: b.xlf: failed, 600 segments
xliffmt: batch 3/3: c.xlf: up to date, 0 segments"
unchanged "batch again: b's output" "$full/o/b.xlf" "$tmp/b.prev"
rm -rf "$full/o" "$full/out.xlf"

# --- The disk full: the report, the cache, the model (room for the
# cache's -shm file first).
mount -o remount,size=256k "$full" || exit 99
doc "$tmp/tag.xlf" 'The <g id="1">red</g> car is in the garage.'
within "a report, a cache, a model" 0 20 1000 "$x" translate \
  "$tmp/tag.xlf" -o "$tmp/1.xlf" --mt "$engine" -q \
  --report "$full/r.json" --cache "sqlite:$full/c.db" \
  --align-model "$full/m" --update-model
for f in r.json c.db m; do cp "$full/$f" "$tmp/$f.prev"; done
cat /dev/zero >"$full/fill" 2>/dev/null
doc "$tmp/tag2.xlf" 'The <g id="1">green</g> car is in the street.'
within "--report FULL/r.json" 1 20 1000 "$x" translate "$tmp/tag2.xlf" \
  -o "$tmp/2.xlf" --mt "$engine" -q --report "$full/r.json"
said "--report FULL/r.json" "xliffmt: $full/r.json: $enospc"
unchanged "--report FULL/r.json" "$full/r.json" "$tmp/r.json.prev"
within "--update-model FULL/m" 2 20 1000 "$x" translate "$tmp/tag2.xlf" \
  -o "$tmp/3.xlf" --mt "$engine" -q --align-model "$full/m" --update-model
said "--update-model FULL/m" "xliffmt: $full/m: $enospc"
unchanged "--update-model FULL/m" "$full/m" "$tmp/m.prev"
within "--cache sqlite:FULL/c.db" 1 20 1000 "$x" translate "$tmp/tag2.xlf" \
  -o "$tmp/4.xlf" --mt "$engine" -q --cache "sqlite:$full/c.db"
said "--cache sqlite:FULL/c.db" \
  "xliffmt: $full/c.db: cache: cannot write: the disk is full"
unchanged "--cache sqlite:FULL/c.db" "$full/c.db" "$tmp/c.db.prev"
check "--cache sqlite:FULL/c.db: no output" test ! -e "$tmp/4.xlf"
# A new cache on the full disk: not made, and nothing left behind that
# the next run would take for an empty cache.
within "--cache sqlite:FULL/new.db" 1 20 1000 "$x" translate "$tmp/tag2.xlf" \
  -o "$tmp/4.xlf" --mt "$engine" -q --cache "sqlite:$full/new.db"
said "--cache sqlite:FULL/new.db" \
  "xliffmt: $full/new.db: cache: cannot write: the disk is full"
check "--cache sqlite:FULL/new.db: no file of it left" \
  test -z "$(find "$full" -name 'new.db*')"
check "the full disk: no temporary file" \
  test -z "$(find "$full" -name '*.tmp*')"

# hits DESC FILE...: a run of each FILE with the cache $cache sends
# nothing to the engine: every segment is a hit.
hits() {
  what=$1
  shift
  for f in "$@"; do
    within "$what: $(basename "$f")" 0 20 1000 "$x" translate "$f" \
      -o "$tmp/hit.xlf" --mt "$engine" -q --cache "sqlite:$cache" \
      --report "$tmp/hit.json"
    check "$what: $(basename "$f"): all from the cache" grep -q \
      '"segments_sent":0,.*"mt_calls":0,.*"cache_hits":[1-9]' "$tmp/hit.json"
  done
}
# Room again: the cache is made and used.
rm "$full/fill"
within "--cache sqlite:FULL/new.db, room again" 0 20 1000 "$x" translate \
  "$tmp/tag2.xlf" -o "$tmp/4.xlf" --mt "$engine" -q \
  --cache "sqlite:$full/new.db"
cache=$full/new.db
hits "the cache made once there is room" "$tmp/tag2.xlf"
check "the cache made once there is room: no other file of it" \
  test "$(cd "$full" && echo new.db*)" = new.db

# Two runs that make the same new cache at once: both succeed, and the
# cache holds the answers of both (a few times over, for the race).
doc "$tmp/ra.xlf" "The red apple is sweet."
doc "$tmp/rb.xlf" "The blue pear is sour."
mkdir "$tmp/race"
n=1
while [ $n -le 4 ]; do
  "$x" translate "$tmp/ra.xlf" -o "$tmp/race/a.xlf" --mt "$engine" -q \
    --cache "sqlite:$tmp/race/c$n.db" 2>"$tmp/race/a.err" &
  pa=$!
  "$x" translate "$tmp/rb.xlf" -o "$tmp/race/b.xlf" --mt "$engine" -q \
    --cache "sqlite:$tmp/race/c$n.db" 2>"$tmp/race/b.err" &
  pb=$!
  wait $pa
  sa=$?
  wait $pb
  check "race $n: both runs succeed, silent" \
    test "$sa $?" = "0 0" -a ! -s "$tmp/race/a.err" -a ! -s "$tmp/race/b.err"
  cache=$tmp/race/c$n.db
  hits "race $n: one cache with both answers" "$tmp/ra.xlf" "$tmp/rb.xlf"
  n=$((n + 1))
done
rm "$tmp/race/a.xlf" "$tmp/race/b.xlf" "$tmp/race/a.err" "$tmp/race/b.err"
only "the raced caches" "$tmp/race" c1.db c2.db c3.db c4.db

# A cache path that is a symbolic link to a file not made yet (a cache kept
# on another disk): made where the link points, as SQLite did, the link
# kept; one that points into a missing folder, or a loop, says why.
mkdir "$tmp/links" "$tmp/links/far"
ln -s "$tmp/links/far/abs.db" "$tmp/links/abs.db"
ln -s far/rel.db "$tmp/links/rel.db"
for name in abs rel; do
  within "--cache sqlite:$name link to a new file" 0 20 1000 "$x" translate \
    "$tmp/tag2.xlf" -o "$tmp/4.xlf" --mt "$engine" -q \
    --cache "sqlite:$tmp/links/$name.db"
  check "$name link: still a link, the cache made where it points" \
    test -L "$tmp/links/$name.db" -a -f "$tmp/links/far/$name.db"
  cache=$tmp/links/$name.db
  hits "$name link: the cache used" "$tmp/tag2.xlf"
done
only "the caches made through links" "$tmp/links/far" abs.db rel.db
ln -s "$tmp/links/none/x.db" "$tmp/links/lost.db"
within "--cache sqlite:link into a missing folder" 1 20 1000 "$x" translate \
  "$tmp/tag2.xlf" -o "$tmp/4.xlf" --mt "$engine" -q \
  --cache "sqlite:$tmp/links/lost.db"
said "link into a missing folder" \
  "xliffmt: $tmp/links/lost.db: cache: cannot open: No such file or directory"
ln -s loop2 "$tmp/links/loop1"
ln -s loop1 "$tmp/links/loop2"
within "--cache sqlite:a loop of links" 1 20 1000 "$x" translate \
  "$tmp/tag2.xlf" -o "$tmp/4.xlf" --mt "$engine" -q \
  --cache "sqlite:$tmp/links/loop1"
said "a loop of links" \
  "xliffmt: $tmp/links/loop1: cache: cannot open: Too many levels of symbolic links"

# --- A read-only file system.
within "translate into RO" 0 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$ro/out.xlf" --mt "$engine" -q
cp "$ro/out.xlf" "$tmp/ro.prev"
mount -o remount,ro "$ro" || exit 99
within "-o RO/out.xlf" 2 20 1000 "$x" translate "$tmp/big.xlf" \
  -o "$ro/out.xlf" --mt "$engine" -q
said "-o RO/out.xlf" \
  "xliffmt: $ro/out.xlf: cannot create output: Read-only file system"
unchanged "-o RO/out.xlf" "$ro/out.xlf" "$tmp/ro.prev"
# found before the run: exit 2, output that cannot be written
within "--report RO/r.json" 2 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$tmp/5.xlf" --mt "$engine" -q --report "$ro/r.json"
said "--report RO/r.json" \
  "xliffmt: $ro/r.json: cannot create output: Read-only file system"
within "--cache sqlite:RO/c.db" 1 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$tmp/6.xlf" --mt "$engine" -q --cache "sqlite:$ro/c.db"
said "--cache sqlite:RO/c.db" \
  "xliffmt: $ro/c.db: cache: cannot open: Read-only file system"
check "--cache sqlite:RO/c.db: no output" test ! -e "$tmp/6.xlf"
within "batch -o RO/o" 2 20 1000 "$x" batch "$tmp/in" -o "$ro/o" \
  --mt "$engine" -q
said "batch -o RO/o" \
  "xliffmt: $ro/o: cannot create the directory: Read-only file system"
only "the read-only disk" "$ro" out.xlf

# --- A folder that is missing, a folder for a file.
within "-o MISSING/out.xlf" 2 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$tmp/no/out.xlf" --mt "$engine" -q
said "-o MISSING/out.xlf" \
  "xliffmt: $tmp/no/out.xlf: cannot create output: No such file or directory"
within "-o FOLDER" 2 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$tmp/in" --mt "$engine" -q
said "-o FOLDER" "xliffmt: $tmp/in: cannot create output: Is a directory"
within "--cache sqlite:FOLDER" 1 20 1000 "$x" translate "$tmp/small.xlf" \
  -o "$tmp/7.xlf" --mt "$engine" -q --cache "sqlite:$tmp/in"
said "--cache sqlite:FOLDER" \
  "xliffmt: $tmp/in: cache: cannot open: Is a directory"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
