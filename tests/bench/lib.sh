# lib.sh -- shared by the benchmarks: sourced, not run.

# bench_scratch NAME: sets dir to BENCH_DIR (made if missing, kept) or to
# a fresh folder named after NAME, removed on exit and on interrupt: the
# inputs of a benchmark can be hundreds of megabytes.
bench_scratch() {
  if [ -n "${BENCH_DIR:-}" ]; then
    dir=$BENCH_DIR
    mkdir -p "$dir"
  else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/xliffmt-$1.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    trap 'exit 130' INT TERM
  fi
}

# bench_need NAME TEST PACKAGE: installs PACKAGE with apt-get when the
# shell command TEST fails; exits 77 (skipped) when that cannot be done.
# Messages begin with NAME.
bench_need() {
  sh -c "$2" >/dev/null 2>&1 && return 0
  echo "$1: installing $3 with apt-get" >&2
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  if ! { DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "$3" >/dev/null 2>&1; } ||
    ! sh -c "$2" >/dev/null 2>&1; then
    echo "$1: cannot install $3 (apt-get install $3): skipped" >&2
    exit 77
  fi
}

# verdict OK MESSAGE: prints a PASS/FAIL line; a FAIL sets fail=1, for the
# script's exit status.
verdict() {
  if [ "$1" = 1 ]; then
    echo "PASS $2"
  else
    echo "FAIL $2"
    fail=1
  fi
}

# fcmp A OP B: 1 if the float comparison holds, else 0 (sh has no floats).
fcmp() { awk -v a="$1" -v b="$3" "BEGIN { r = (a $2 b) ? 1 : 0; print r }"; }

# bench_wall CMD...: runs CMD and sets wall to its wall time in seconds,
# to a tenth of a millisecond (GNU time's %e counts hundredths: too
# coarse for a peer of 30 ms). The clock is read by date, the same few
# hundred microseconds of overhead on both sides of a comparison. CMD's
# status is returned.
bench_wall() {
  bench_t0=$(date +%s%N)
  "$@"
  bench_rc=$?
  bench_t1=$(date +%s%N)
  wall=$(awk -v a="$bench_t0" -v b="$bench_t1" \
    'BEGIN { printf "%.4f", (b - a) / 1e9 }')
  return "$bench_rc"
}

# bench_setup NAME: for the benchmarks that translate the English EUR-Lex
# dev set with Apertium: checks XLIFFMT, the dev set and Apertium eng-spa;
# sets src (the English EUR-Lex dev set) and dir (bench_scratch). Messages
# begin with NAME.
bench_setup() {
  : "${XLIFFMT:?set XLIFFMT to the xliffmt binary}"
  data=${XMT_TEST_DATA:-$(cd "$(dirname "$0")/.." && pwd)/data}
  src=$data/markup-tags/dev-eurlex.en
  [ -f "$src" ] || { echo "$1: $src not found" >&2; exit 1; }
  if ! command -v apertium >/dev/null 2>&1 ||
    [ ! -r /usr/share/apertium/modes/eng-spa.mode ]; then
    echo "$1: Apertium eng-spa not found: apt-get install apertium apertium-eng-spa" >&2
    exit 1
  fi
  bench_scratch "$1"
}

# bench_eurlex_docs N DIR: N EUR-Lex-like documents of 12 to 60 lines
# each, in subdirectories of 100 (as a collection is stored): a title,
# lines drawn from the dev set $src, the closing formula; the same
# documents on every run. Lines whose bx/ex pairs span lines are left
# out: a unit's source must pair its codes.
bench_eurlex_docs() {
  grep -v -e '<bx' -e '<ex' "$src" | awk -v n="$1" -v dir="$2" '
    { line[NR] = $0 }
    END {
      srand(20261125)
      for (d = 1; d <= n; d++) {
        sub_dir = sprintf("%s/%03d", dir, int((d - 1) / 100))
        if ((d - 1) % 100 == 0) system("mkdir -p " sub_dir)
        f = sprintf("%s/doc%05d.xlf", sub_dir, d)
        print "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" > f
        print "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">" > f
        printf "<file original=\"doc%05d\" source-language=\"en\" target-language=\"es\" datatype=\"plaintext\"><body>\n", d > f
        printf "<trans-unit id=\"t\"><source>Commission Regulation (EU) No %d/2026 of %d March 2026</source></trans-unit>\n", 100 + d, 1 + d % 28 > f
        k = 12 + int(rand() * 49)
        start = 1 + int(rand() * (NR - k))
        for (i = 0; i < k; i++)
          printf "<trans-unit id=\"%d\"><source>%s</source></trans-unit>\n", i + 1, line[start + i] > f
        print "<trans-unit id=\"end\"><source>This Regulation shall be binding in its entirety and directly applicable in all Member States.</source></trans-unit>" > f
        print "</body></file></xliff>" > f
        close(f)
      }
    }'
}
