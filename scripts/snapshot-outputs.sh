#!/bin/sh
# snapshot-outputs.sh XLIFFMT OUTDIR: runs every command on the test
# fixtures, the Okapi files and the markup-tags dev sets and keeps what
# each writes (output file, standard error without timings, exit status)
# under OUTDIR. Two snapshots of two builds compared with "diff -r" show
# whether a change that should not change behaviour changed any output.
# Usage: sh scripts/snapshot-outputs.sh _build/x/xliffmt /tmp/before
set -u
x=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xmt-snapshot.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: stdout to NAME.out, stderr (timings masked) to NAME.err,
# the exit status to NAME.rc.
run() {
  name=$1
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  echo $? >"$out/$name.rc"
  # Paths masked, so that two checkouts compare.
  sed -e "s|$tmp|TMP|g" -e "s|$top|TOP|g" "$tmp/out" >"$out/$name.out"
  sed -e 's/[0-9][0-9.]* s\b/N s/g' -e "s|$tmp|TMP|g" -e "s|$top|TOP|g" \
    "$tmp/err" >"$out/$name.err"
}

for f in "$top"/tests/fixtures/*.xlf "$top"/tests/fixtures/*.sdlxliff \
  "$top"/tests/fixtures/*.mqxliff "$top"/tests/data/okapi/xliff/*; do
  b=$(basename "$f")
  run "$b.pseudo" "$x" translate "$f" -s en -t es --mt pseudo -o -
  run "$b.mask" "$x" translate "$f" -s en -t es --mt pseudo --tags mask -o -
  run "$b.identity" "$x" translate "$f" -s en -t es --mt identity \
    --seg-source -o -
  run "$b.extract" "$x" extract "$f" -o -
  run "$b.check" "$x" check --json "$f"
  run "$b.findings" "$x" report --findings "$f" -o -
done
for f in "$top"/tests/data/okapi/html/*.html; do
  b=$(basename "$f")
  run "$b.pseudo" "$x" translate "$f" -s en -t fr --mt pseudo -o -
  run "$b.extract" "$x" extract "$f" -s en -t fr -o -
  run "$b.report" "$x" report "$f" -s en -t fr -o -
done
run srx.segment "$x" segment -s en "$top/tests/data/markup-tags/dev-eurlex.en"

# Tag projection over the built-in aligner on the glossary dev set.
mt=$top/tests/data/markup-tags
for l in de fr; do
  sed -e 's/<[^>]*>//g' "$mt/dev-glossary.$l" >"$tmp/plain.$l"
  run "project.glossary.$l" "$x" project -s "$mt/dev-glossary.en" \
    -t "$tmp/plain.$l" --aligner self
done
echo "snapshot: $(ls "$out" | wc -l) files in $out"
