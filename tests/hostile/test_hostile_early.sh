#!/bin/sh
# test_hostile_early.sh: every file a command writes is checked before
# the work starts. A -o, --report, --update-model model, --cache or
# batch output folder that cannot be written (its folder missing, a file
# in the place of a folder, a folder in the place of the file, a folder
# that may not be written, a read-only file system) or that names the
# input or the output: the exact message, the exit status, the engine
# never started (a cmd: engine that leaves a file when it starts), no
# output written. A folder without write permission is written by root
# (modes do not stop it) and refused to others. A batch document that
# does not fit on the disk fails it with exit 1, the others written.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
set -u

. "$(dirname "$0")/lib.sh"
cli_setup hostile-early
x=$XLIFFMT
ro=$tmp/ro
full=$tmp/full
small_disks_setup

started=$tmp/started
cat >"$tmp/engine.sh" <<EOD
#!/bin/sh
: >"$started"
while IFS= read -r l; do printf 'ES %s\n' "\$l"; done
EOD
chmod +x "$tmp/engine.sh"
engine=cmd:$tmp/engine.sh
doc "$tmp/a.xlf" 'The <g id="1">red</g> car is in the garage.' "The dog barks."
mkdir "$tmp/in" "$tmp/o" "$tmp/d"
cp "$tmp/a.xlf" "$tmp/in/a.xlf"
cp "$tmp/a.xlf" "$tmp/in/b.xlf"
: >"$tmp/afile"
enoent="No such file or directory"

# refused DESC STATUS MESSAGE CMD...: CMD exits with STATUS, stderr is
# exactly MESSAGE, the engine was never started and $tmp/o, where every
# run writes its -o, stays empty.
refused() {
  what=$1 want=$2 msg=$3
  shift 3
  rm -f "$started"
  within "$what" "$want" 20 1000 "$@"
  said "$what" "$msg"
  check "$what: the engine never started" test ! -e "$started"
  check "$what: no output" test -z "$(ls -A "$tmp/o")"
}
out=$tmp/o/out.xlf

# --- translate: the report, the model, the cache, the output.
refused "--report MISSING/r.json" 2 \
  "xliffmt: $tmp/no/r.json: cannot create output: $enoent" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/no/r.json"
refused "--report FOLDER" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/d"
refused "--report FILE/r.json" 2 \
  "xliffmt: $tmp/afile/r.json: cannot create output: Not a directory" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/afile/r.json"
refused "--report the input" 1 \
  "xliffmt: $tmp/a.xlf: --report names the input: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/a.xlf"
refused "--report the output" 1 \
  "xliffmt: $out: --report names the output: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$out"
refused "--update-model MISSING/m" 2 \
  "xliffmt: $tmp/no/m: cannot create output: $enoent" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --align-model "$tmp/no/m" --update-model
refused "--update-model FOLDER" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --align-model "$tmp/d" --update-model
refused "--update-model the input" 1 \
  "xliffmt: $tmp/a.xlf: --align-model names the input: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --align-model "$tmp/a.xlf" --update-model
refused "--cache sqlite:MISSING/c.db" 1 \
  "xliffmt: $tmp/no/c.db: cache: cannot open: $enoent" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --cache "sqlite:$tmp/no/c.db"
refused "--cache sqlite:FOLDER" 1 \
  "xliffmt: $tmp/d: cache: cannot open: Is a directory" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --cache "sqlite:$tmp/d"
refused "-o MISSING/out.xlf" 2 \
  "xliffmt: $tmp/no/out.xlf: cannot create output: $enoent" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$tmp/no/out.xlf"
refused "-o the input" 1 \
  "xliffmt: $tmp/a.xlf: -o names the input: it would be overwritten" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$tmp/a.xlf"
check "the input as it was" cmp -s "$tmp/a.xlf" "$tmp/in/a.xlf"
# all of them bad: the output first, then the report, then the model
refused "-o, --report and the model all bad" 2 \
  "xliffmt: $tmp/no/out.xlf: cannot create output: $enoent" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$tmp/no/out.xlf" --report "$tmp/d" --align-model "$tmp/no/m" \
  --update-model
refused "--report and the model bad" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/d" --align-model "$tmp/no/m" --update-model

# --- a folder without write permission: root writes it, others not
mkdir "$tmp/locked"
chmod 555 "$tmp/locked"
if [ "$(id -u)" -eq 0 ]; then
  rm -f "$started"
  within "--report LOCKED/r.json as root" 0 20 1000 "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$tmp/1.xlf" \
    --report "$tmp/locked/r.json"
  check "--report LOCKED/r.json as root: written" test -s "$tmp/locked/r.json"
  check "--report LOCKED/r.json as root: the engine ran" test -e "$started"
  rm -f "$tmp/locked/r.json" "$tmp/1.xlf"
else
  refused "--report LOCKED/r.json" 2 \
    "xliffmt: $tmp/locked/r.json: cannot create output: Permission denied" \
    "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$tmp/locked/r.json"
fi
check "LOCKED: nothing left in it" test -z "$(ls -A "$tmp/locked")"

# --- extract, merge and report -o
refused "extract -o MISSING/x.xlf" 2 \
  "xliffmt: $tmp/no/x.xlf: cannot create output: $enoent" \
  "$x" extract "$tmp/a.xlf" -o "$tmp/no/x.xlf" -q
refused "merge --report FOLDER" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" merge "$tmp/a.xlf" --translations "$tmp/afile" -o "$out" \
  --report "$tmp/d" -q
refused "report -o FOLDER" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" report "$tmp/a.xlf" -o "$tmp/d"

# --- batch: its report, its model, its outputs folder.
refused "batch --report MISSING/r.json" 2 \
  "xliffmt: $tmp/no/r.json: cannot create output: $enoent" \
  "$x" batch "$tmp/in" -o "$tmp/o/b" --mt "$engine" -q \
  --report "$tmp/no/r.json"
refused "batch --report FOLDER" 2 \
  "xliffmt: $tmp/d: cannot create output: Is a directory" \
  "$x" batch "$tmp/in" -o "$tmp/o/b" --mt "$engine" -q --report "$tmp/d"
refused "batch --update-model MISSING/m" 2 \
  "xliffmt: $tmp/no/m: cannot create output: $enoent" \
  "$x" batch "$tmp/in" -o "$tmp/o/b" --mt "$engine" -q \
  --align-model "$tmp/no/m" --update-model
refused "batch -o FILE/b" 2 \
  "xliffmt: $tmp/afile/b: cannot create the directory: Not a directory" \
  "$x" batch "$tmp/in" -o "$tmp/afile/b" --mt "$engine" -q
refused "batch -o FILE" 2 \
  "xliffmt: $tmp/afile: cannot create the directory: Not a directory" \
  "$x" batch "$tmp/in" -o "$tmp/afile" --mt "$engine" -q
refused "batch --report the input" 1 \
  "xliffmt: $tmp/in/a.xlf: --report names the input: it would be overwritten" \
  "$x" batch "$tmp/in" -o "$tmp/o/b" --mt "$engine" -q \
  --report "$tmp/in/a.xlf"
check "afile as it was" test ! -s "$tmp/afile"

# --- a read-only file system (skipped where mount is not permitted)
if small_disk "$ro"; then
  mkdir "$ro/b"
  "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$tmp/2.xlf" --align-model "$ro/m" --update-model 2>"$tmp/err" ||
    fail "a model on the tmpfs: $(cat "$tmp/err")"
  cp "$ro/m" "$tmp/m.prev"
  if mount -o remount,ro "$ro" 2>/dev/null; then
    erofs="Read-only file system"
    refused "--report RO/r.json" 2 \
      "xliffmt: $ro/r.json: cannot create output: $erofs" \
      "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --report "$ro/r.json"
    refused "--update-model RO/m" 2 \
      "xliffmt: $ro/m: cannot create output: $erofs" \
      "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --align-model "$ro/m" --update-model
    check "--update-model RO/m: the model as it was" \
      cmp -s "$ro/m" "$tmp/m.prev"
    refused "--cache sqlite:RO/c.db" 1 \
      "xliffmt: $ro/c.db: cache: cannot open: $erofs" \
      "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$out" --cache "sqlite:$ro/c.db"
    refused "-o RO/out.xlf" 2 \
      "xliffmt: $ro/out.xlf: cannot create output: $erofs" \
      "$x" translate "$tmp/a.xlf" --mt "$engine" -q -o "$ro/out.xlf"
    refused "batch -o RO/b (there)" 2 \
      "xliffmt: $ro/b/a.xlf: cannot create output: $erofs" \
      "$x" batch "$tmp/in" -o "$ro/b" --mt "$engine" -q
    refused "batch -o RO/new (to make)" 2 \
      "xliffmt: $ro/new: cannot create the directory: $erofs" \
      "$x" batch "$tmp/in" -o "$ro/new" --mt "$engine" -q
    refused "batch --report RO/r.json" 2 \
      "xliffmt: $ro/r.json: cannot create output: $erofs" \
      "$x" batch "$tmp/in" -o "$tmp/o/b" --mt "$engine" -q \
      --report "$ro/r.json"
    check "RO: as it was" test "$(cd "$ro" && ls -A | tr '\n' ' ')" = "b m "
    check "RO/b: empty" test -z "$(ls -A "$ro/b")"
  else
    echo "# SKIP: the tmpfs cannot be made read-only here"
  fi
  umount "$ro"
else
  echo "# SKIP: no tmpfs can be mounted here (needs root): read-only checks"
fi

# --- a batch document that does not fit on the disk: that document
# fails, exit 1 (xliffmt-batch(1)), the others are written.
if small_disk "$full"; then
  set --
  i=0
  while [ $i -lt 600 ]; do
    set -- "$@" "Sentence $i is about the cat."
    i=$((i + 1))
  done
  mkdir "$tmp/in2"
  doc "$tmp/in2/big.xlf" "$@"
  cp "$tmp/a.xlf" "$tmp/in2/small.xlf"
  within "batch, a document too big for the disk" 1 20 1000 \
    "$x" batch "$tmp/in2" -o "$full/b" --mt "$engine" -q
  check "names the full disk" grep -qxF \
    "xliffmt: $full/b/big.xlf: cannot write: No space left on device" \
    "$tmp/err"
  check "the other document written" test -s "$full/b/small.xlf"
  check "the big one not" test ! -e "$full/b/big.xlf"
  umount "$full"
else
  echo "# SKIP: no tmpfs can be mounted here (needs root): full disk"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
