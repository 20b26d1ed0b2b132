# lib.sh -- shared by the benchmarks that translate the English EUR-Lex
# dev set with Apertium: sourced, not run.

# bench_setup NAME: checks XLIFFMT, the dev set and Apertium eng-spa; sets
# src (the English EUR-Lex dev set) and dir (a scratch folder removed on
# exit). Messages begin with NAME.
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
  dir=$(mktemp -d "${TMPDIR:-/tmp}/xliffmt-$1.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
  trap 'exit 130' INT TERM
}
