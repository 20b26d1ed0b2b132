#!/bin/sh
# check-house.sh [--layers] [--sizes] [--fields [--pending=S,...]]
#   [--report]: the rules of the source tree that reading cannot keep.
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
#   --fields  the walls between the pipeline's rooms: for each struct of
#             filter/pipeline/*.h and filter/filter_private.h, the
#             filter/pipeline/*.c files that use its fields, printed per
#             struct with its most widely used fields; no struct's fields
#             used in more than max_field_files files.
#   --pending=S,...  structs still to be walled off: over the limit they
#             are printed "(at most 3, pending)" and do not fail; within
#             it, they fail until taken off the list (so that it only
#             shrinks).
#   --report  print what breaks the rules but exit 0 (for a tree on its
#             way there).
# With no rule named, --layers and --sizes. Run from anywhere; reads the
# sources only.
set -u
# XMT_HOUSE_ROOT: the tree to check (its tests give it one of their own).
cd "${XMT_HOUSE_ROOT:-$(dirname "$0")/..}" || exit 2

# The most lines a function may have, and a library source file.
max_function=100
max_file=900
# The most pipeline files that may use the fields of one struct, the
# headers whose structs are measured and the files that may use them.
max_field_files=3
field_headers='filter/pipeline/*.h filter/filter_private.h'
field_sources='filter/pipeline/*.c'

layers=0 sizes=0 fields=0 report=0 pending=
for a in "$@"; do
  case $a in
  --pending=*) pending=$(echo "${a#--pending=}" | tr ',' ' ') ;;
  --layers) layers=1 ;;
  --sizes) sizes=1 ;;
  --fields) fields=1 ;;
  --report) report=1 ;;
  *)
    echo "usage: $0 [--layers] [--sizes] [--fields [--pending=S,...]] [--report]" >&2
    exit 2
    ;;
  esac
done
[ $layers -eq 0 ] && [ $sizes -eq 0 ] && [ $fields -eq 0 ] && layers=1 sizes=1

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

need_ctags() {
  if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "$1: needs Universal Ctags (universal-ctags, scripts/install-deps.sh)"
    exit 2
  fi
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
  need_ctags sizes
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

if [ $fields -eq 1 ]; then
  need_ctags fields
  # shellcheck disable=SC2086
  hdrs=$(ls $field_headers 2>/dev/null)
  # shellcheck disable=SC2086
  srcs=$(ls $field_sources 2>/dev/null)
  tags=$(mktemp) || exit 2
  # What a C parser (Universal Ctags) finds: the structs of the headers
  # and their members' types ("struct:window *"), the typedefs of every
  # header (xmt_filter names struct xmt_filter), and each function's
  # lines in the sources, which scope their variables.
  # shellcheck disable=SC2086,SC2046
  {
    ctags -x --_xformat='S|%N|%F|%n' --kinds-C=s --language-force=C -o - $hdrs
    ctags -x --_xformat='M|%s|%N|%t' --kinds-C=m --fields=+St \
      --language-force=C -o - $hdrs
    ctags -x --_xformat='T|%N|%t' --kinds-C=t --fields=+t \
      --language-force=C -o - $(echo "$sources" | grep '\.h$')
    ctags -x --_xformat='F|%F|%n|%{end}' --kinds-C=f --fields=+ne \
      --language-force=C -o - $srcs
  } >"$tags" 2>/dev/null
  # Which struct a use of a field belongs to, where two structs have a
  # field of that name (run->failed, w->failed): a use counts only when
  # it follows a variable declared (in that function, or at file scope)
  # with one of the structs or a typedef of it, through members whose
  # type is known: run->fill->jobs[i].item counts run.fill, window.jobs
  # and job.item. A name declared with two of the structs in one function
  # counts for each that has the field. Uses through a cast or a
  # function's result are not seen; comments and strings are left out.
  # shellcheck disable=SC2086
  out=$(awk -v tags="$tags" -v max="$max_field_files" -v q="'" \
    -v pending=" $pending " '
    function struct_of(t, w) {
      # "struct:window *", "typename:const struct xmt_backend *",
      # "typename:xmt_filter *": the struct named, if one of ours
      sub(/^typename:/, "", t)
      if (index(t, "(")) return "" # a function or a pointer to one
      gsub(/(^|[^A-Za-z0-9_])const[ \t]+/, " ", t)
      if (match(t, /struct[: \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
        w = substr(t, RSTART, RLENGTH)
        sub(/^struct[: \t]+/, "", w)
      } else if (match(t, /[A-Za-z_][A-Za-z0-9_]*/))
        w = tdef[substr(t, RSTART, RLENGTH)]
      else
        w = ""
      return (w in home) ? w : ""
    }
    function add_type(set, t) {
      return index(" " set " ", " " t " ") ? set : (set == "" ? t : set " " t)
    }
    # The end of the brackets that open at i of s (after the last if
    # they do not close on the line).
    function skip_brackets(s, i, d, c) {
      for (d = 0; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "[") d++
        else if (c == "]" && --d == 0) return i + 1
      }
      return i
    }
    function skip_space(s, i) {
      while (i <= length(s) && substr(s, i, 1) ~ /[ \t]/) i++
      return i
    }
    # Declares the variable at i of s (after the type), and those after
    # it separated by commas, as of type t.
    function declare(s, i, t, v, c, d) {
      for (;;) {
        i = skip_space(s, i)
        while (match(substr(s, i), /^(\*|const[ \t]|[ \t])+/))
          i += RLENGTH
        if (!match(substr(s, i), /^[A-Za-z_][A-Za-z0-9_]*[ \t]*([=;,)[]|$)/))
          return
        v = substr(s, i, RLENGTH)
        sub(/[ \t]*[=;,)[]?$/, "", v)
        var[fid, v] = add_type(var[fid, v], t)
        # the next declarator: after a comma outside brackets; a
        # parameter list ends at its ")"
        i += length(v)
        for (d = 0; i <= length(s); i++) {
          c = substr(s, i, 1)
          if (c ~ /[[({]/) d++
          else if (c ~ /[])}]/ && --d < 0) return
          else if (c == ";" && d == 0) return
          else if (c == "," && d == 0) break
        }
        if (i > length(s)) return
        i++
        # a parameter of another type
        if (match(substr(s, i), /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]+[A-Za-z_*]/))
          return
      }
    }
    BEGIN { FS = "|" }
    FILENAME == tags {
      if ($1 == "S") { home[$2] = $3 ":" $4 }
      else if ($1 == "M") { mtype[$2, $3] = $4; members[$2] = members[$2] " " $3 }
      else if ($1 == "T") tdef[$2] = $3
      else if ($1 == "F") { nf[$2]++; fstart[$2, nf[$2]] = $3; fend[$2, nf[$2]] = $4 }
      next
    }
    FNR == 1 {
      if (!typed) {
        typed = 1
        for (k in tdef) tdef[k] = struct_of("typename:" tdef[k])
        for (k in mtype) mtype[k] = struct_of(mtype[k])
      }
      incomment = 0
    }
    {
      s = $0
      # comments, strings and character constants out
      if (incomment) {
        if (!(e = index(s, "*/"))) next
        s = substr(s, e + 2)
        incomment = 0
      }
      gsub(/"([^"\\]|\\.)*"/, "\"\"", s)
      gsub(q "([^" q "\\\\]|\\\\.)*" q, "0", s)
      gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", s)
      sub(/\/\/.*/, "", s)
      if ((b = index(s, "/*"))) { s = substr(s, 1, b - 1); incomment = 1 }
      if (s ~ /^[ \t]*#/) next
      # the function the line is in (0: file scope)
      fid = 0
      for (k = 1; k <= nf[FILENAME]; k++)
        if (fstart[FILENAME, k] + 0 <= FNR && FNR <= fend[FILENAME, k] + 0)
          fid = k
      # declarations: "struct run *run", "xmt_filter *f", "struct window w[2]"
      for (i = 1; match(substr(s, i), /[A-Za-z_][A-Za-z0-9_]*/); ) {
        st = i + RSTART - 1
        w = substr(s, st, RLENGTH)
        i = st + RLENGTH
        if (st > 1 && substr(s, st - 1, 1) ~ /[A-Za-z0-9_.>]/) continue
        t = ""
        if (w == "struct" && match(substr(s, i), /^[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
          t = substr(s, i, RLENGTH)
          gsub(/[ \t]/, "", t)
          i += RLENGTH
          t = (t in home) ? t : ""
        } else if (w in tdef)
          t = tdef[w]
        if (t != "") declare(s, i, t)
      }
      # uses: a chain of fields after a variable of a known type
      for (i = 1; match(substr(s, i), /[A-Za-z_][A-Za-z0-9_]*/); ) {
        st = i + RSTART - 1
        v = substr(s, st, RLENGTH)
        i = st + RLENGTH
        if (st > 1 && substr(s, st - 1, 1) ~ /[A-Za-z0-9_.]/) continue
        if (st > 2 && substr(s, st - 2, 2) == "->") continue
        if (match(substr(s, 1, st - 1), /(->|\.)[ \t]+$/)) continue
        types = ((fid, v) in var) ? var[fid, v] : ((0, v) in var) ? var[0, v] : ""

        for (p = i; types != ""; ) {
          p = skip_space(s, p)
          while (substr(s, p, 1) == "[") p = skip_space(s, skip_brackets(s, p))
          if (substr(s, p, 2) == "->") p += 2
          else if (substr(s, p, 1) == "." && substr(s, p + 1, 1) != ".") p++
          else break
          p = skip_space(s, p)
          if (!match(substr(s, p), /^[A-Za-z_][A-Za-z0-9_]*/)) break
          m = substr(s, p, RLENGTH)
          p += RLENGTH
          n = split(types, tl, " ")
          types = ""
          for (k = 1; k <= n; k++)
            if ((tl[k], m) in mtype) {
              if (!((tl[k], m, FILENAME) in used)) {
                used[tl[k], m, FILENAME] = 1
                nuse[tl[k], m]++
                if (!((tl[k], FILENAME) in touch)) {
                  touch[tl[k], FILENAME] = 0
                  nfile[tl[k]]++
                }
                touch[tl[k], FILENAME]++
              }
              if (mtype[tl[k], m] != "") types = add_type(types, mtype[tl[k], m])
            }
        }
      }
    }
    END {
      for (t in nfile) {
        # the fields used in the most files, and the file using the most
        nm = split(members[t], ml, " ")
        total = 0
        for (k = 1; k <= nm; k++) {
          taken[k] = 0
          if ((t, ml[k]) in nuse && !seen[t, ml[k]]++) total++
        }
        wide = ""
        for (r = 1; r <= 3; r++) {
          best = 0
          for (k = 1; k <= nm; k++)
            if (!taken[k] && ((t, ml[k]) in nuse) && (best == 0 ||
                nuse[t, ml[k]] > nuse[t, ml[best]] ||
                (nuse[t, ml[k]] == nuse[t, ml[best]] && ml[k] < ml[best])))
              best = k
          if (best == 0) break
          for (k = 1; k <= nm; k++) if (ml[k] == ml[best]) taken[k] = 1
          wide = wide (r > 1 ? ", " : "") ml[best] " (" nuse[t, ml[best]] \
            (nuse[t, ml[best]] == 1 ? " file)" : " files)")
        }
        mostf = ""
        for (k in touch) {
          split(k, kp, SUBSEP)
          if (kp[1] == t && (mostf == "" || touch[k] > touch[t, mostf] ||
              (touch[k] == touch[t, mostf] && kp[2] < mostf)))
            mostf = kp[2]
        }
        late = index(pending, " " t " ") ? ", pending" : ""
        printf "%d|%s|fields: struct %s: used in %d %s%s, %d %s; widest: %s; most in one file: %s (%d %s)\n",
          nfile[t], t, t, nfile[t], (nfile[t] == 1 ? "file" : "files"),
          (nfile[t] > max ? " (at most " max late ")" : ""), total,
          (total == 1 ? "field" : "fields"), wide, mostf,
          touch[t, mostf], (touch[t, mostf] == 1 ? "field" : "fields")
        if (late != "" && nfile[t] <= max)
          printf "0|%s|fields: struct %s is within the limit: no longer pending (take it off --pending)\n", t, t
      }
      # a pending struct no file uses is within the limit too
      n = split(pending, pl, " ")
      for (k = 1; k <= n; k++)
        if (!(pl[k] in nfile))
          printf "0|%s|fields: struct %s is within the limit: no longer pending (take it off --pending)\n", pl[k], pl[k]
    }' "$tags" $srcs | sort -t'|' -k1,1nr -k2,2 | cut -d'|' -f3-)
  rm -f "$tags"
  if [ -n "$out" ]; then
    echo "$out"
    echo "$out" | grep -q -e '(at most [0-9]*)' -e 'no longer pending' && bad=1
  fi
fi

[ $report -eq 1 ] && exit 0
exit $bad
