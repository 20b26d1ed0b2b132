#!/bin/sh
# check-house.sh [--layers] [--sizes] [--report]: the rules of the source
# tree that reading cannot keep.
#   --layers  base -> projector -> xliff -> filter -> cli: no source
#             includes a header of a folder above its own; with
#             XMT_BUILD set to a build directory, no object calls a
#             function (or uses data) defined in a folder above its own.
#             And projector/ is the pure model: no source there calls a
#             function that opens a file or directory, starts a process
#             or reads the environment (fopen, open, opendir, popen,
#             posix_spawn, fork, exec*, system, getenv, dlopen, base's
#             xmt_spawn and xmt_atomic_file_open); with XMT_BUILD, no
#             projector object has one of them undefined either. The
#             library starts programs only through base/spawn.c: no
#             other source of base, projector, xliff or filter calls
#             posix_spawn, fork, exec*, popen or system.
#   --sizes   no library source file (base, projector, xliff, filter) over
#             900 lines, no function anywhere over 100 lines (from its
#             name to its closing brace, as Universal Ctags finds it).
#   --report  print what breaks the rules but exit 0 (for a tree on its
#             way there).
# With no rule named, both. Run from anywhere; reads the sources only.
set -u
# XMT_HOUSE_ROOT: the tree to check (its tests give it one of their own).
cd "${XMT_HOUSE_ROOT:-$(dirname "$0")/..}" || exit 2

# The most lines a function may have, and a library source file.
max_function=100
max_file=900

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
  # The projector reads no file and starts no process: the dictionaries
  # and the model file are opened above it (filter/lexicon/).
  impure='fopen|freopen|open|openat|popen|opendir|fdopendir|posix_spawnp?'
  impure="$impure|fork|vfork|execl[ep]?|execv[ep]?|execvpe|fexecve|system"
  impure="$impure|getenv|secure_getenv|dlopen|xmt_spawn|xmt_spawn_find"
  impure="$impure|xmt_atomic_file_open"
  for f in $(echo "$sources" | grep '^projector/'); do
    # comments out (a line of a block comment starts with "*"), then calls
    sed -e 's|/\*.*\*/||g' -e 's|//.*||' \
      -e 's|^[[:space:]]*\(/\*\|\*\).*||' "$f" |
      grep -nE "(^|[^A-Za-z0-9_>.])($impure)[[:space:]]*\(" |
      while IFS= read -r hit; do
        echo "layers: $f:${hit%%:*}: projector/ opens a file, starts a" \
          "process or reads the environment: ${hit#*:}" |
          sed 's/[[:space:]][[:space:]]*/ /g'
      done | grep . && bad=1
  done
  # One process spawner (base/spawn.c) for the whole library.
  spawners='posix_spawnp?|fork|vfork|execl[ep]?|execv[ep]?|execvpe|fexecve'
  spawners="$spawners|popen|system"
  for f in $(echo "$sources" | grep -v '^cli/' | grep -vx 'base/spawn.c'); do
    sed -e 's|/\*.*\*/||g' -e 's|//.*||' \
      -e 's|^[[:space:]]*\(/\*\|\*\).*||' "$f" |
      grep -nE "(^|[^A-Za-z0-9_>.])($spawners)[[:space:]]*\(" |
      while IFS= read -r hit; do
        echo "layers: $f:${hit%%:*}: a process started outside base/spawn.c:" \
          "${hit#*:}" | sed 's/[[:space:]][[:space:]]*/ /g'
      done | grep . && bad=1
  done
  if [ -n "${XMT_BUILD:-}" ]; then
    # The objects of projector's library as last linked (objects of
    # sources since moved away may linger in the build tree).
    if [ ! -f "$XMT_BUILD/projector/.libs/libxmt_projector.a" ]; then
      echo "layers: $XMT_BUILD/projector/.libs/libxmt_projector.a not built"
      bad=1
    fi
    calls=$(cd "$XMT_BUILD" && nm -A -u projector/.libs/libxmt_projector.a |
      awk -v re="^(($impure)|__open(64)?_2|__openat(64)?_2|open64|openat64|fopen64|freopen64|_Fork)(@.*)?\$" '
        { n = split($1, p, ":"); o = p[n - 1] }
        o ~ /^libxmt_projector_la-/ && $NF ~ re { sub(/@.*/, "", $NF)
          printf "layers: projector/%s uses %s: projector/ opens no file and starts no process\n", o, $NF }')
    if [ -n "$calls" ]; then
      echo "$calls"
      bad=1
    fi
  fi
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
      if [ "$n" -gt $max_file ]; then
        echo "sizes: $f has $n lines (at most $max_file)"
        bad=1
      fi
      ;;
    esac
  done
  # Functions as a C parser sees them (Universal Ctags: each function's
  # first and last line), so that a signature wrapped over lines, a body
  # opened by a lone "{" or a macro in the declarator is measured too.
  # A function's lines run from its name to its closing brace.
  if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "sizes: needs Universal Ctags (universal-ctags, scripts/install-deps.sh)"
    exit 2
  fi
  # shellcheck disable=SC2046
  out=$(ctags -x --_xformat='%F|%n|%{end}|%N' --kinds-C=f --fields=+ne \
    --languages=C --language-force=C -o - $(echo "$sources" | grep '\.c$') |
    awk -F'|' -v max="$max_function" '
      $3 !~ /^[0-9]+$/ { printf "sizes: %s:%d: %s: no end found\n", $1, $2, $4; next }
      $3 - $2 + 1 > max {
        printf "sizes: %s:%d: %s has %d lines (at most %d)\n",
          $1, $2, $4, $3 - $2 + 1, max }' | sort -t: -k2,2 -k3,3n)
  if [ -n "$out" ]; then
    echo "$out"
    bad=1
  fi
fi

[ $report -eq 1 ] && exit 0
exit $bad
