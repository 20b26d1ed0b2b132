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
