#!/bin/sh
# office_codes.sh -- `make bench-office-codes`: inline codes per segment
# of xliffmt's Word extraction against LibreOffice + Translate Toolkit on
# the same files.
#
# For each .docx of the folders given (default: tests/data/office, plus
# OKAPI_OPENXML when set):
#   xliffmt: xliffmt extract F.docx -s en -o F.xlf
#   peer:    soffice --headless --convert-to odt F.docx; odf2xliff F.odt F.tt.xlf
# then counts the inline codes in each translatable trans-unit's <source>:
# a <g> counts 1, as do <x/>, <ph>, <it>; a <bpt>/<ept> or <bx/>/<ex/>
# pair counts 1 (an end without its start in the unit counts 1 too).
# Prints, per file, units, codes and codes per unit for both, then the
# totals over the files both tools read, their ratio, and the files on
# which xliffmt has more codes per unit than the peer. A file that either
# tool cannot read is listed with the reason and left out of the totals.
#
# Usage: office_codes.sh [DIR...]
# Env: XLIFFMT (required), OKAPI_OPENXML (a folder of more .docx),
#      LIMIT (only the first N files by name, the folders merged and files
#      found twice measured once),
#      BENCH_DIR (keep the work files there), SOFFICE_TIMEOUT (seconds for
#      one file's conversion, default 120).
# Exit: 0 when xliffmt has at most the peer's codes per unit on every file,
#       1 otherwise, 77 when LibreOffice or Translate Toolkit cannot be had.
set -eu

# shellcheck source=tests/bench/lib.sh
. "$(dirname "$0")/lib.sh"
: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
per_file=${SOFFICE_TIMEOUT:-120}

bench_need bench-office-codes "command -v soffice" libreoffice-writer-nogui
bench_need bench-office-codes "command -v odf2xliff" translate-toolkit
bench_need bench-office-codes "command -v python3" python3

bench_scratch office-codes
# A kept BENCH_DIR is refilled: files of an earlier run would be counted.
rm -rf "$dir/in" "$dir/odt" "$dir/out"
mkdir -p "$dir/in" "$dir/odt" "$dir/out"

[ $# -gt 0 ] || set -- "$top/tests/data/office" ${OKAPI_OPENXML:+"$OKAPI_OPENXML"}
# Copies named NNN-folder-name.docx: folders may share file names, and
# soffice names its output after the input.
n=0
for d in "$@"; do
  [ -d "$d" ] || { echo "bench-office-codes: $d: not a folder" >&2; exit 1; }
  tag=$(basename "$d")
  for f in "$d"/*.docx; do
    [ -f "$f" ] || continue
    echo "$(basename "$f")	$tag	$f"
  done
done | LC_ALL=C sort -t '	' -k1,1 -k2,2 >"$dir/list"
:>"$dir/sums"
while IFS='	' read -r name tag path; do
  [ -n "${LIMIT:-}" ] && [ "$n" -ge "$LIMIT" ] && break
  # The same file in two folders (tests/data/office holds copies of
  # Okapi's) is measured once.
  sum=$(cksum <"$path")
  grep -qxF "$sum" "$dir/sums" && continue
  echo "$sum" >>"$dir/sums"
  n=$((n + 1))
  cp "$path" "$dir/in/$(printf '%03d' "$n")-$tag-$name"
done <"$dir/list"
[ "$n" -gt 0 ] || { echo "bench-office-codes: no .docx found" >&2; exit 1; }

# A private LibreOffice profile: another soffice of the same user would
# otherwise take the conversion over (or lock the profile).
profile="-env:UserInstallation=file://$dir/lo-profile"
# One soffice for all files (starting it costs seconds), bounded; the files
# it did not convert then get one bounded soffice each.
timeout -k 10 $((per_file + 10 * n)) soffice "$profile" --headless \
  --convert-to odt --outdir "$dir/odt" "$dir"/in/*.docx \
  >"$dir/soffice.log" 2>&1 || true
for f in "$dir"/in/*.docx; do
  b=$(basename "$f" .docx)
  [ -s "$dir/odt/$b.odt" ] && continue
  timeout -k 10 "$per_file" soffice "$profile" --headless \
    --convert-to odt --outdir "$dir/odt" "$f" >>"$dir/soffice.log" 2>&1 || true
done

# Codes and translatable units of an XLIFF 1.x file: prints "UNITS CODES".
count() {
  python3 - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET

def local(tag):
    return tag.rsplit('}', 1)[-1] if isinstance(tag, str) else ''

units = codes = 0
for el in ET.parse(sys.argv[1]).iter():
    if local(el.tag) != 'trans-unit' or el.get('translate') == 'no':
        continue
    src = next((c for c in el if local(c.tag) == 'source'), None)
    if src is None:
        continue
    units += 1
    starts = {'bpt': set(), 'bx': set()}
    for c in src.iter():
        name = local(c.tag)
        if name in ('bpt', 'bx'):
            starts[name].add(c.get('rid') or c.get('id'))
    for c in src.iter():
        name = local(c.tag)
        if name in ('g', 'x', 'ph', 'it', 'bpt', 'bx'):
            codes += 1
        elif name == 'ept' and (c.get('rid') or c.get('id')) not in starts['bpt']:
            codes += 1
        elif name == 'ex' and (c.get('rid') or c.get('id')) not in starts['bx']:
            codes += 1
print(units, codes)
EOF
}

per() { awk -v c="$1" -v u="$2" 'BEGIN { if (u > 0) printf "%.2f", c / u; else printf "-" }'; }

fail=0
more=
skipped=
xu=0 xc=0 tu=0 tc=0 both=0
printf '| file | xliffmt units | xliffmt codes | codes/unit | peer units | peer codes | codes/unit |\n'
printf '|---|---|---|---|---|---|---|\n'
for f in "$dir"/in/*.docx; do
  b=$(basename "$f" .docx)
  name=${b#*-}
  name=${name#*-}
  x=
  t=
  if "$XLIFFMT" extract "$f" -s en -o "$dir/out/$b.xlf" -q \
    >"$dir/out/$b.err" 2>&1; then
    x=$(count "$dir/out/$b.xlf") || x=
  fi
  if [ -s "$dir/odt/$b.odt" ] &&
    odf2xliff "$dir/odt/$b.odt" "$dir/out/$b.tt.xlf" >/dev/null 2>&1; then
    t=$(count "$dir/out/$b.tt.xlf") || t=
  fi
  if [ -z "$x" ] || [ -z "$t" ]; then
    why=
    [ -n "$x" ] || why="xliffmt: $(head -n 1 "$dir/out/$b.err" |
      sed -e 's/^xliffmt: //' -e "s|$f|$name.docx|")"
    [ -n "$t" ] || why="${why:+$why; }peer: no odt or no XLIFF"
    printf '| %s | not compared: %s | | | | | |\n' "$name" "$why"
    skipped="$skipped $name"
    continue
  fi
  # shellcheck disable=SC2086 # "UNITS CODES UNITS CODES", split on purpose
  set -- $x $t
  both=$((both + 1))
  xu=$((xu + $1)) xc=$((xc + $2)) tu=$((tu + $3)) tc=$((tc + $4))
  flag=
  # More codes per unit, compared exactly: xc / xu > tc / tu.
  if [ "$(awk -v xu="$1" -v xc="$2" -v tu="$3" -v tc="$4" \
    'BEGIN { print (tu == 0 ? xc > 0 : xc * tu > tc * xu) ? 1 : 0 }')" = 1 ]; then
    flag=' **more**'
    more="$more $name"
  fi
  printf '| %s%s | %d | %d | %s | %d | %d | %s |\n' "$name" "$flag" \
    "$1" "$2" "$(per "$2" "$1")" "$3" "$4" "$(per "$4" "$3")"
done
printf '| **total (%d files)** | %d | %d | %s | %d | %d | %s |\n' "$both" \
  "$xu" "$xc" "$(per "$xc" "$xu")" "$tu" "$tc" "$(per "$tc" "$tu")"
echo
echo "files: $n, compared: $both"
echo "codes, xliffmt / peer: $(per "$xc" "$tc")"
echo "codes per unit, xliffmt / peer: $(awk -v a="$(per "$xc" "$xu")" \
  -v b="$(per "$tc" "$tu")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }')"
echo "not compared:${skipped:- none}"
echo "xliffmt has more codes per unit on:${more:- none}"
verdict "$([ -z "$more" ] && echo 1 || echo 0)" \
  "codes per unit at most the peer's on every compared file"
exit "$fail"
