#!/bin/sh
# test_hostile_cache_messages.sh: what goes wrong with an SQLite cache is
# called what it is, naming the file. A disk that fills during the run:
# "the disk is full" (not SQLite's "cannot rollback"), and the run goes
# on without the cache; on opening, the same words. A cache cut short:
# damaged and truncated, set aside (not "another program's database").
# A cache whose -wal and -shm files another user left: read-only, at
# once (not a failure in the middle of the run). An output folder that
# cannot be created exits 2, as xliffmt(1) and xliffmt-batch(1) say.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-cache-messages
x=$XLIFFMT
full=$tmp/full
cleanup() {
  mountpoint -q "$full" 2>/dev/null && umount "$full"
  rm -rf "$tmp"
}
trap cleanup EXIT

cache_fixtures
within "a cache filled" 0 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/1.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "sqlite:$tmp/tm.db"
# A document whose sentences are not in it.
sed 's/The red car/The green car/; s/The blue car/The old car/' \
  "$tmp/doc.xlf" >"$tmp/doc2.xlf"

# The disk fills during the run (the engine fills it when asked its
# first sentence): the answers cannot be stored.
mkdir "$full"
if mount -t tmpfs -o size=512k tmpfs "$full" 2>/dev/null; then
  cp "$tmp/tm.db" "$full/tm.db"
  cat >"$tmp/fill.sh" <<EOD
#!/bin/sh
IFS= read -r line
cat /dev/zero >"$full/fill" 2>/dev/null
printf 'ES %s\\n' "\$line"
exec "$tmp/engine.sh"
EOD
  chmod +x "$tmp/fill.sh"
  within "a disk that fills during the run" 0 20 400 \
    "$x" translate "$tmp/doc2.xlf" -o "$tmp/2.xlf" --mt "cmd:$tmp/fill.sh" -q \
    --cache "sqlite:$full/tm.db"
  check "says the disk is full, naming the cache" test "$(cat "$tmp/err")" = \
    "xliffmt: warning: the cache $full/tm.db failed: cannot write: the disk is full; going on without it"
  check "translated anyway" grep -q 'ES The green car' "$tmp/2.xlf"
  # The disk still full: a new cache cannot even be begun.
  within "a new cache on a full disk" 1 20 400 \
    "$x" translate "$tmp/doc2.xlf" -o "$tmp/3.xlf" --mt "cmd:$tmp/engine.sh" \
    -q --cache "sqlite:$full/new.db"
  check "says the disk is full" test "$(cat "$tmp/err")" = \
    "xliffmt: $full/new.db: cache: cannot write: the disk is full"
  check "no output" test ! -e "$tmp/3.xlf"
  umount "$full"
else
  echo "SKIP: a full disk (no tmpfs can be mounted here)"
fi

# A cache cut short, as by a copy stopped half-way.
size=$(wc -c <"$tmp/tm.db")
cp "$tmp/tm.db" "$tmp/cut.db"
truncate -s 4096 "$tmp/cut.db"
cp "$tmp/cut.db" "$tmp/cut.copy"
: >"$tmp/sent.log"
within "a truncated cache" 0 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/4.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "sqlite:$tmp/cut.db"
check "is called damaged and truncated" test \
  "$(sed 's/corrupt-[0-9]*/corrupt-TIME/g' "$tmp/err")" = \
  "xliffmt: warning: cache $tmp/cut.db is damaged (truncated: 4096 of $size bytes): set aside as $tmp/cut.db.corrupt-TIME, starting an empty one"
check "set aside whole" cmp -s "$tmp/cut.copy" "$tmp"/cut.db.corrupt-*
check "translated anyway" cmp -s "$tmp/1.xlf" "$tmp/4.xlf"
# Cut inside the header: whose it was cannot be told; left as it is.
cp "$tmp/tm.db" "$tmp/stub.db"
truncate -s 50 "$tmp/stub.db"
within "a cache cut inside its header" 1 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/5.xlf" --mt "cmd:$tmp/engine.sh" -q \
  --cache "sqlite:$tmp/stub.db"
check "is called truncated" test "$(cat "$tmp/err")" = \
  "xliffmt: $tmp/stub.db: cache: not an xliffmt cache: a damaged SQLite database (truncated: 50 bytes, less than SQLite's header) that holds no xliffmt cache as far as it can be read (it is left as it is; give --cache another path)"
check "left as it is" test "$(wc -c <"$tmp/stub.db")" -eq 50

# A cache whose -wal and -shm files root's run left (killed while the
# cache was open): another user may write the cache file, not them.
# The build must be one that user can run (not under a private folder).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
  setpriv --reuid=65534 --regid=65534 --clear-groups "$x" --version \
    >/dev/null 2>&1; then
  mkdir "$tmp/shared"
  cp "$tmp/tm.db" "$tmp/shared/tm.db"
  cat >"$tmp/wait.sh" <<EOD
#!/bin/sh
IFS= read -r line
: >"$tmp/asked"
sleep 30
EOD
  chmod +x "$tmp/wait.sh"
  "$x" translate "$tmp/doc2.xlf" -o "$tmp/6.xlf" --mt "cmd:$tmp/wait.sh" -q \
    --cache "sqlite:$tmp/shared/tm.db" 2>/dev/null &
  pid=$!
  n=0
  while [ ! -e "$tmp/asked" ] && [ "$n" -lt 200 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  pkill -f "[$(echo "$tmp" | cut -c1)]$(echo "$tmp" | cut -c2-)/wait.sh"
  chmod 711 "$tmp"
  chmod 777 "$tmp/shared"
  chmod 666 "$tmp/shared/tm.db"
  chmod a+r "$tmp/doc.xlf"
  chmod a+rx "$tmp/engine.sh"
  chmod a+w "$tmp/sent.log"
  check "left its -wal and -shm files" \
    test -e "$tmp/shared/tm.db-wal" -a -e "$tmp/shared/tm.db-shm"
  within "their cache as another user" 1 20 400 \
    setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$x" translate "$tmp/doc.xlf" -o - --mt "cmd:$tmp/engine.sh" -q \
    --cache "sqlite:$tmp/shared/tm.db"
  check "is called read-only at once" test "$(cat "$tmp/err")" = \
    "xliffmt: $tmp/shared/tm.db: cache: read-only: the cache is written as well as read, and SQLite keeps its -wal and -shm files beside it (give --cache a file in a directory xliffmt can write, or leave --cache out)"
else
  echo "SKIP: a cache another user's run left (not root, no setpriv, or a build another user cannot run)"
fi

# An output folder that cannot be created, or is a file: exit 2, output
# that cannot be written, as for translate's -o.
mkdir "$tmp/in"
cp "$tmp/doc.xlf" "$tmp/in/d.xlf"
: >"$tmp/afile"
within "batch -o under a file" 2 20 400 \
  "$x" batch "$tmp/in" -o "$tmp/afile/out" --mt identity -q
check "says so" test "$(cat "$tmp/err")" = \
  "xliffmt: $tmp/afile/out: cannot create the directory: Not a directory"
within "batch -o a file" 2 20 400 \
  "$x" batch "$tmp/in" -o "$tmp/afile" --mt identity -q
check "says so" test "$(cat "$tmp/err")" = \
  "xliffmt: $tmp/afile: cannot create the directory: Not a directory"
within "translate -o under a file" 2 20 400 \
  "$x" translate "$tmp/doc.xlf" -o "$tmp/afile/out.xlf" --mt identity -q

finish
