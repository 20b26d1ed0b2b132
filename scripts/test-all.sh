#!/bin/sh
# test-all.sh -- installs what is missing, then builds and runs every test:
# warnings as errors, again under AddressSanitizer and
# UndefinedBehaviorSanitizer, then make lint (clang-format, cppcheck,
# clang-tidy, the layers of the tree), then make distcheck, then a short
# run of the fuzz targets. Builds go to _build/.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
jobs=$(nproc)

# Out-of-tree builds need a source tree that was not configured in place.
[ -f Makefile ] && make distclean >/dev/null
autoreconf -fi
top=$(pwd)

build() { # name, configure arguments...
  name=$1
  shift
  rm -rf "_build/$name"
  mkdir -p "_build/$name"
  (cd "_build/$name" && "$top/configure" --quiet --enable-werror "$@" &&
    make -j"$jobs" >/dev/null &&
    { make -j"$jobs" check || { cat test-suite.log; exit 1; }; })
}

echo "== make check (warnings are errors)"
build default
echo "== make check under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  build sanitize --enable-sanitizers
echo "== make lint"
# Its findings on failure (clang-tidy writes them on standard output).
(cd _build/default &&
  { make lint >lint.log 2>&1 ||
    { grep -v 'warnings* generated' lint.log; exit 1; }; })
echo "== make distcheck"
(cd _build/default && make -j"$jobs" distcheck >/dev/null)
echo "== fuzzing"
# The libFuzzer targets, each for 10 s over its seed corpus.
(cd _build/default && make -j"$jobs" fuzz >/dev/null && make fuzz-run FUZZ_SECONDS=10)
echo "all tests passed"
