#!/bin/sh
# check-house.sh [--layers] [--sizes] [--report]: the rules of the source
# tree that reading cannot keep.
#   --layers  base -> projector -> xliff -> filter -> cli: no source
#             includes a header of a folder above its own; with
#             XMT_BUILD set to a build directory, no object calls a
#             function (or uses data) defined in a folder above its own.
#   --sizes   no library source file (base, projector, xliff, filter) over
#             900 lines, no function anywhere over 100 lines.
#   --report  print what breaks the rules but exit 0 (for a tree on its
#             way there).
# With no rule named, both. Run from anywhere; reads the sources only.
set -u
cd "$(dirname "$0")/.." || exit 2

layers=0 sizes=0 report=0
for a in "$@"; do
  case $a in
  --layers) layers=1 ;;
  --sizes) sizes=1 ;;
  --report) report=1 ;;
  *)
    echo "usage: $0 [--layers] [--sizes] [--report]" >&2
    exit 2
    ;;
  esac
done
[ $layers -eq 0 ] && [ $sizes -eq 0 ] && layers=1 sizes=1

# The rank of a folder's layer; cli, serve (the program) and samples sit
# on top.
rank() {
  case $1 in
  base | base/*) echo 0 ;;
  projector | projector/*) echo 1 ;;
  xliff | xliff/*) echo 2 ;;
  filter | filter/*) echo 3 ;;
  cli | cli/* | serve | serve/*) echo 4 ;;
  *) echo 9 ;;
  esac
}

sources=$(find base projector xliff filter cli serve -name '*.[ch]' \
  2>/dev/null | sort)
bad=0

if [ $layers -eq 1 ]; then
  # Where each header lives: headers are included by their bare name.
  for f in $sources; do
    dir=$(dirname "$f")
    own=$(rank "$dir")
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
      name=$(basename "$h")
      [ "$name" = config.h ] && continue
      home=
      if [ -f "$dir/$h" ]; then
        home=$(dirname "$dir/$h")
      else
        home=$(echo "$sources" | grep "/$name\$" | head -1)
        home=${home:+$(dirname "$home")}
      fi
      [ -n "$home" ] || continue # generated (xliffmt.h) or system
      if [ "$(rank "$home")" -gt "$own" ]; then
        echo "layers: $f includes $h, from $home, a layer above"
        bad=1
      fi
    done
  done
  if [ -n "${XMT_BUILD:-}" ]; then
    objs=$(cd "$XMT_BUILD" && find base projector xliff filter cli serve \
      -name '*.o' -not -path '*/.libs/*' 2>/dev/null | sort)
    calls=$(cd "$XMT_BUILD" && for o in $objs; do
      d=$(dirname "$o")
      nm -g --defined-only "$o" | awk -v d="$d" 'NF == 3 { print "D", $3, d }'
      nm -u "$o" | awk -v d="$d" -v o="$o" '{ print "U", $NF, d, o }'
    done | awk '
      function rank(p) {
        if (p ~ /^base/) return 0; if (p ~ /^projector/) return 1
        if (p ~ /^xliff/) return 2; if (p ~ /^filter/) return 3
        return 4 }
      $1 == "D" { home[$2] = $3; next }
      { use[n] = $2; from[n] = $3; obj[n] = $4; n++ }
      END { for (i = 0; i < n; i++) if (use[i] in home &&
              rank(home[use[i]]) > rank(from[i]))
              printf "layers: %s uses %s, defined in %s, a layer above\n",
                obj[i], use[i], home[use[i]] }')
    if [ -n "$calls" ]; then
      echo "$calls"
      bad=1
    fi
  fi
fi

if [ $sizes -eq 1 ]; then
  for f in $sources; do
    case $f in
    cli/* | serve/*) ;;
    *.c)
      n=$(wc -l <"$f")
      if [ "$n" -gt 900 ]; then
        echo "sizes: $f has $n lines (at most 900)"
        bad=1
      fi
      ;;
    esac
  done
  # A function opens with a line that is a declarator ending in "{" at
  # the margin (or a lone "{" after one) and closes at the next "}" at the
  # margin.
  out=$(awk '
    FNR == 1 { start = 0 }
    start == 0 && /^[A-Za-z_].*\)[[:space:]]*\{[[:space:]]*$/ &&
      !/^(struct|enum|union|typedef|static const|const)[^(]*=/ {
      start = FNR; name = $0; next }
    start == 0 && /^\{[[:space:]]*$/ && prev ~ /\)[[:space:]]*$/ {
      start = FNR; name = prev; next }
    start > 0 && /^\}/ {
      len = FNR - start + 1
      if (len > 100) {
        sub(/\(.*/, "", name)
        n = split(name, w, /[ *]+/)
        printf "sizes: %s:%d: %s has %d lines (at most 100)\n",
          FILENAME, start, w[n], len
      }
      start = 0
    }
    { prev = $0 }
  ' $(echo "$sources" | grep '\.c$'))
  if [ -n "$out" ]; then
    echo "$out"
    bad=1
  fi
fi

[ $report -eq 1 ] && exit 0
exit $bad
