#!/bin/sh
# realmt.sh -- real-MT yardstick for tag placement: the pages of
# tests/realmt/pages translated English->Spanish with Apertium eng-spa,
# by Apertium's own markup mode and by xliffmt's tag modes, scored
# element by element against tests/realmt/gold. See tests/realmt/README.
#
# Usage: tests/bench/realmt.sh [-v|-vv] [-k]
#   -v    per-page figures, every element not placed exactly, every unit
#         whose words differ from the reference (VERBOSE=1)
#   -vv   every element (VERBOSE=2)
#   -k    keep the work directory and print its path
# Env: XLIFFMT (the xliffmt binary; default: xliffmt on PATH, else the
#      xliffmt rows are skipped), APERTIUM (default apertium),
#      REALMT_PAIR (default eng-spa), REALMT_WORK (work directory; default
#      a fresh temporary one, removed at exit unless -k), VERBOSE.
# Exit status: 0 when scored (whatever the scores), 1 when the yardstick
# cannot run (no apertium or pair, no pages, no gold, bad gold), 2 usage.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$here/../realmt
pages=$root/pages
gold=$root/gold
scorer=$root/realmt.pl
APERTIUM=${APERTIUM:-apertium}
PAIR=${REALMT_PAIR:-eng-spa}
VERBOSE=${VERBOSE:-0}
keep=0

for arg in "$@"; do
  case $arg in
    -v) VERBOSE=1 ;;
    -vv) VERBOSE=2 ;;
    -k) keep=1 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "realmt.sh: unknown argument $arg (try -h)" >&2; exit 2 ;;
  esac
done
export VERBOSE

die() { echo "realmt.sh: $*" >&2; exit 1; }

command -v perl >/dev/null 2>&1 || die "perl not found"
command -v "$APERTIUM" >/dev/null 2>&1 ||
  die "$APERTIUM not found: apt-get install apertium apertium-eng-spa"
"$APERTIUM" -l 2>/dev/null | grep -qx "[[:space:]]*$PAIR" ||
  die "apertium pair $PAIR not installed: apt-get install apertium-eng-spa"
[ -f "$scorer" ] || die "missing $scorer"
set -- "$pages"/*.html "$pages"/*.xlf
[ -e "$1" ] || die "no pages in $pages"

XLIFFMT=${XLIFFMT:-$(command -v xliffmt 2>/dev/null || true)}
xnote=
if [ -z "$XLIFFMT" ]; then
  xnote="XLIFFMT not set and no xliffmt on PATH"
elif [ ! -x "$XLIFFMT" ]; then
  xnote="XLIFFMT=$XLIFFMT is not an executable"
fi

if [ -n "${REALMT_WORK:-}" ]; then
  work=$REALMT_WORK
  mkdir -p "$work" || die "cannot create $work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/realmt.XXXXXX") || die "mktemp failed"
  if [ "$keep" = 1 ]; then
    echo "realmt.sh: work directory $work" >&2
  else
    trap 'rm -rf "$work"' EXIT
  fi
  trap 'exit 130' INT TERM
fi

methods="apertium-html project project-noprobes mask raw pseudo pseudo-inorder"

# run_xliffmt NAME PAGE OUT METHOD ARGS...: one xliffmt row of one page;
# on failure (an unknown option, an error) the row is skipped with a note.
run_xliffmt() {
  rx_dir=$1 rx_page=$2 rx_out=$3 rx_m=$4
  shift 4
  if [ -n "$xnote" ]; then
    echo "$xnote" >"$rx_dir/out.$rx_m.skip"
    return
  fi
  "$XLIFFMT" translate "$rx_page" -o "$rx_out" -s en -t es "$@" -q \
    >"$rx_dir/log.$rx_m" 2>&1
  rx_rc=$?
  # 3: done, some segments not translated: scored as they are.
  if [ "$rx_rc" -ne 0 ] && [ "$rx_rc" -ne 3 ] || [ ! -s "$rx_out" ]; then
    rm -f "$rx_out"
    {
      printf 'xliffmt translate %s exited %s: ' "$*" "$rx_rc"
      grep -v '^ *$' "$rx_dir/log.$rx_m" | head -n 1
    } | tr '\n' ' ' >"$rx_dir/out.$rx_m.skip"
    echo >>"$rx_dir/out.$rx_m.skip"
  elif [ "$rx_rc" -eq 3 ]; then
    grep -c 'not translated' "$rx_dir/log.$rx_m" |
      sed 's/$/ segments not translated (exit 3)/' >"$rx_dir/note.$rx_m"
  fi
}

npages=0
for page in "$@"; do
  [ -f "$page" ] || continue
  npages=$((npages + 1))
  base=${page##*/}
  [ -f "$gold/$base.tsv" ] || die "no gold for $base ($gold/$base.tsv)"
  dir=$work/$base
  rm -rf "$dir"
  mkdir -p "$dir" || die "cannot create $dir"
  perl "$scorer" prepare "$page" "$dir" || die "cannot read $page"
  case $base in
    *.xlf) ext=xlf ;;
    *) ext=html ;;
  esac

  # The reference: each unit's untagged text on its own through
  # apertium (-u: no '*' on unknown words, as xliffmt's backend).
  : >"$dir/ref.txt"
  while IFS= read -r line; do
    t=$(printf '%s\n' "$line" | "$APERTIUM" -u "$PAIR") ||
      die "apertium failed on: $line"
    printf '%s\n' "$t" | tr '\n' ' ' | sed 's/  */ /g; s/^ //; s/ $//' >>"$dir/ref.txt"
    echo >>"$dir/ref.txt"
  done <"$dir/units.txt"

  # Apertium's own markup handling.
  if [ "$ext" = html ]; then
    "$APERTIUM" -u -f html "$PAIR" <"$dir/in.html" >"$dir/out.apertium-html.html" ||
      die "apertium -f html failed on $base"
  else
    # No XLIFF format in apertium: the units' <source> content as <p>s of
    # an HTML page, the codes left as tags for the html deformatter.
    "$APERTIUM" -u -f html "$PAIR" <"$dir/in-ap.html" >"$dir/out.apertium-html.html" ||
      die "apertium -f html failed on $base"
  fi

  in=$dir/in.$ext
  run_xliffmt "$dir" "$in" "$dir/out.project.$ext" project \
    --mt "apertium:$PAIR" --tags project
  run_xliffmt "$dir" "$in" "$dir/out.project-noprobes.$ext" \
    project-noprobes --mt "apertium:$PAIR" --tags project --probes off
  run_xliffmt "$dir" "$in" "$dir/out.mask.$ext" mask \
    --mt "apertium:$PAIR" --tags mask
  run_xliffmt "$dir" "$in" "$dir/out.raw.$ext" raw \
    --mt "apertium:$PAIR" --tags raw
  run_xliffmt "$dir" "$in" "$dir/out.pseudo.$ext" pseudo --mt pseudo
  run_xliffmt "$dir" "$in" "$dir/out.pseudo-inorder.$ext" pseudo-inorder \
    --mt pseudo --mt-option reorder=none
done

echo "realmt: $npages pages, apertium $PAIR, xliffmt: ${xnote:-$XLIFFMT}"
# shellcheck disable=SC2086
perl "$scorer" score "$work" "$pages" "$gold" $methods || die "scoring failed"
for f in "$work"/*/note.*; do
  [ -f "$f" ] || continue
  m=${f##*/note.}
  p=${f%/note.*}
  echo "  $m on ${p##*/}: $(cat "$f")"
done
exit 0
