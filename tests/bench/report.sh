#!/bin/sh
# report.sh -- `make bench-report`: time and peak memory of `xliffmt
# report` on a translated document of some 50 MB (gen_xliff's content,
# translated with the identity engine so that every unit has a target),
# through each shipped stylesheet (the review page, TMX) and for the
# findings themselves. They are written a chunk of units at a time, so
# the peak does not grow with the document (read whole, it took some 50
# times the document's size: 2.6 GB for the review page).
#
# Env: XLIFFMT, GEN_XLIFF (required), BENCH_SOURCE_MB (default 27: the
#      translated document is then about 51 MB), BENCH_MAX_MB (default
#      400), BENCH_MAX_S (default 30), BENCH_DIR (default a fresh
#      temporary directory, removed on exit).
# Fails when a run's peak RSS is over BENCH_MAX_MB, or its CPU time (user
# and system: a shared machine stretches the elapsed time, which is
# printed too) over BENCH_MAX_S seconds, or when it fails.
set -eu

: "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
: "${GEN_XLIFF:?set GEN_XLIFF to the gen_xliff binary}"
source_mb=${BENCH_SOURCE_MB:-27}
max_mb=${BENCH_MAX_MB:-400}
max_s=${BENCH_MAX_S:-30}

if [ ! -x /usr/bin/time ]; then
  echo "report.sh: /usr/bin/time not found; install GNU time: apt-get install time" >&2
  exit 1
fi
. "$(dirname "$0")/lib.sh"
bench_scratch bench-report

if ! "$GEN_XLIFF" "$source_mb" >"$dir/source.xlf" 2>"$dir/gen.log"; then
  cat "$dir/gen.log" >&2
  exit 1
fi
if ! "$XLIFFMT" translate "$dir/source.xlf" -o "$dir/in.xlf" -s en -t fr \
  --mt identity --quiet; then
  echo "report.sh: failed: $XLIFFMT translate $dir/source.xlf --mt identity" >&2
  exit 1
fi
rm -f "$dir/source.xlf"
in_mb=$(awk -v b="$(wc -c <"$dir/in.xlf")" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "document: ${in_mb} MB, translated"

fail=0
printf '%-10s %10s %12s %14s %14s\n' run seconds 'CPU seconds' 'peak RSS MB' 'output MB'
for run in report tmx findings; do
  case $run in
  findings) set -- --findings ;;
  *) set -- --stylesheet "$run" ;;
  esac
  if ! /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$XLIFFMT" report \
    "$dir/in.xlf" "$@" -o "$dir/out" --quiet; then
    echo "report.sh: failed: $XLIFFMT report $dir/in.xlf $*" >&2
    exit 1
  fi
  # shellcheck disable=SC2046
  set -- $(cat "$dir/time") "$(wc -c <"$dir/out")"
  rm -f "$dir/out"
  cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.2f", u + s }')
  mb=$(awk -v k="$4" 'BEGIN { printf "%.1f", k / 1024 }')
  awk -v r="$run" -v e="$1" -v c="$cpu" -v m="$mb" -v o="$5" 'BEGIN {
    printf "%-10s %10.2f %12.2f %14.1f %14.1f\n", r, e, c, m, o / 1048576 }'
  verdict "$(fcmp "$mb" '<=' "$max_mb")" \
    "$run: peak RSS ${mb} MB (<= ${max_mb} MB)"
  verdict "$(fcmp "$cpu" '<=' "$max_s")" \
    "$run: ${cpu} s of CPU (<= ${max_s} s)"
done
exit "$fail"
