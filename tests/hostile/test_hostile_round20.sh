#!/bin/sh
# test_hostile_round20.sh: exit 0 means the output is right, and nothing
# the user gave is destroyed.
#   - an SQLite file holding a table xliffmt_cache of other columns, or a
#     cache of a newer cache format (PRAGMA user_version), given to
#     --cache: refused with a message saying so, exit 1, the file's bytes
#     as they were (it was switched to WAL mode, then failed with SQLite's
#     "no such column: used"); a new cache is written of format 1.
# Env: XLIFFMT. Exit 0 pass, 1 fail, 77 skip.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-round20
x=$XLIFFMT
doc "$tmp/two.xlf" 'Hello world.' 'Good bye.'

# --- A cache of another schema, or of a newer format.
if command -v sqlite3 >/dev/null 2>&1; then
  sqlite3 "$tmp/other.db" 'CREATE TABLE xliffmt_cache (key TEXT, value TEXT);
INSERT INTO xliffmt_cache VALUES ('"'a'"', '"'b'"');' || exit 99
  cp "$tmp/other.db" "$tmp/other.copy"
  within "translate, --cache a table xliffmt_cache of other columns" 1 20 \
    300 "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/other.db" -o "$tmp/o.xlf" -q
  said "translate, --cache a table xliffmt_cache of other columns" \
    "xliffmt: $tmp/other.db: cache: not an xliffmt cache: its table xliffmt_cache has other columns than a cache's (it is another program's, or of another xliffmt version; it is left as it is; give --cache another path)"
  unchanged "translate, --cache a table xliffmt_cache of other columns" \
    "$tmp/other.db" "$tmp/other.copy"
  check "translate, --cache a table xliffmt_cache of other columns: no output" \
    test ! -e "$tmp/o.xlf"
  within "translate, --cache a new file" 0 20 300 "$x" translate \
    "$tmp/two.xlf" --mt identity -t es --cache "sqlite:$tmp/new.db" \
    -o "$tmp/n.xlf" -q
  check "translate, --cache a new file: of cache format 1" \
    test "$(sqlite3 "$tmp/new.db" 'PRAGMA user_version')" = 1
  sqlite3 "$tmp/new.db" 'PRAGMA user_version = 2' || exit 99
  cp "$tmp/new.db" "$tmp/new.copy"
  within "translate, --cache a cache of a newer format" 1 20 300 \
    "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/new.db" -o "$tmp/o.xlf" -q
  said "translate, --cache a cache of a newer format" \
    "xliffmt: $tmp/new.db: cache: not a cache this version can use: it is of cache format 2, written by a newer xliffmt (this one knows format 1; it is left as it is; give --cache another path)"
  unchanged "translate, --cache a cache of a newer format" \
    "$tmp/new.db" "$tmp/new.copy"
  # A cache of format 0 (before the format was written): used.
  sqlite3 "$tmp/new.db" 'PRAGMA user_version = 0' || exit 99
  within "translate, --cache a cache of format 0" 0 20 300 \
    "$x" translate "$tmp/two.xlf" --mt identity -t es \
    --cache "sqlite:$tmp/new.db" -o "$tmp/o.xlf" -q
  check "translate, --cache a cache of format 0: written the same" \
    cmp -s "$tmp/n.xlf" "$tmp/o.xlf"
else
  echo "SKIP: a cache of another schema (no sqlite3 program)"
fi

finish
