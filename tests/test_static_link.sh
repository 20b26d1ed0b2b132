#!/bin/sh
# test_static_link.sh -- the sample program (samples/translate.c) builds
# against the installed headers and libxliffmt.a alone with
#   pkg-config --static --cflags --libs xliffmt
# and translates as the xliffmt command does: the headers installed are
# all a program needs, and xliffmt.pc names every library the static
# library needs. The library, its headers and xliffmt.pc are installed
# under a temporary DESTDIR; the shared library is removed from there.
set -u
pkg_config=${PKG_CONFIG:-pkg-config}
if ! command -v "$pkg_config" >/dev/null 2>&1; then
  echo "SKIP: pkg-config not found"
  exit 77
fi
b=${XMT_BUILDDIR:-.}
samples=${XMT_SAMPLES:?}
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xmt-static.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}

# Install as a user would, but only the library's parts; the make that
# runs this test is not this make's parent.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! ${MAKE:-make} -C "$b" DESTDIR="$tmp/root" install-libLTLIBRARIES \
  install-includeHEADERS install-nodist_includeHEADERS \
  install-pkgconfigDATA >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  fail "make install into a DESTDIR"
fi
pc=$(find "$tmp/root" -name xliffmt.pc | head -n 1)
[ -n "$pc" ] || fail "xliffmt.pc not installed"
# The installed file names the configured folders: move them under the
# DESTDIR.
mkdir "$tmp/pc"
sed -e "s|^prefix=/|prefix=$tmp/root/|" \
  -e "s|^exec_prefix=/|exec_prefix=$tmp/root/|" \
  -e "s|^libdir=/|libdir=$tmp/root/|" \
  -e "s|^includedir=/|includedir=$tmp/root/|" "$pc" >"$tmp/pc/xliffmt.pc"
PKG_CONFIG_PATH="$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
libdir=$("$pkg_config" --variable=libdir xliffmt) || fail "pkg-config xliffmt"
if [ ! -f "$libdir/libxliffmt.a" ]; then
  echo "SKIP: no static library (configured with --disable-static)"
  exit 77
fi
rm -f "$libdir"/libxliffmt.so* "$libdir"/libxliffmt.la
cflags=$("$pkg_config" --static --cflags xliffmt) || fail "pkg-config --cflags"
libs=$("$pkg_config" --static --libs xliffmt) || fail "pkg-config --libs"
echo "pkg-config --static --cflags --libs xliffmt: $cflags $libs"

# The libraries xliffmt.pc names, and those of the packages it requires,
# must all be there. The packages' own private libraries need not: the
# program links with their shared libraries, and some distributions'
# .pc files name static libraries they do not ship (Debian's libpq.pc
# has -lpgcommon -lpgport); such a library is left out, with a note.
own=$(sed -n -e 's/^Libs:// p' -e 's/^Libs\.private:// p' "$tmp/pc/xliffmt.pc")
for m in $("$pkg_config" --print-requires-private xliffmt |
  awk '{ print $1 }'); do
  own="$own $("$pkg_config" --libs "$m")" || fail "pkg-config --libs $m"
done
ldirs=
for w in $libs; do
  case $w in -L*) ldirs="$ldirs $w" ;; esac
done
echo 'int main(void) { return 0; }' >"$tmp/probe.c"
kept=
for w in $libs; do
  case " $own " in
  *" $w "*) ;;
  *)
    case $w in
    -l*)
      # shellcheck disable=SC2086
      if ! $cc -o "$tmp/probe" "$tmp/probe.c" $ldirs "$w" \
        >/dev/null 2>&1; then
        echo "note: $w left out: the linker does not find it"
        continue
      fi
      ;;
    esac
    ;;
  esac
  kept="$kept $w"
done

# shellcheck disable=SC2086
$cc ${XMT_SANITIZED:-} -Wall -Wextra -Werror $cflags -o "$tmp/translate" \
  "$samples/translate.c" $kept ${XMT_SANITIZED:-} ||
  fail "samples/translate.c does not build with pkg-config --static"
if command -v readelf >/dev/null 2>&1 &&
  readelf -d "$tmp/translate" | grep -q 'NEEDED.*libxliffmt'; then
  fail "the program needs the shared library"
fi

# It translates as the xliffmt command does with the same settings.
"$tmp/translate" "$samples/sample.xlf" "$tmp/out.xlf" es pseudo \
  2>"$tmp/err" || {
  cat "$tmp/err"
  fail "the program does not run"
}
cat "$tmp/err"
if [ -n "${XLIFFMT:-}" ]; then
  "$XLIFFMT" translate "$samples/sample.xlf" -t es --mt pseudo \
    --no-segment --overwrite -q -o "$tmp/cli.xlf" ||
    fail "xliffmt translate"
  cmp "$tmp/out.xlf" "$tmp/cli.xlf" ||
    fail "the program's translation differs from xliffmt's"
fi
echo "PASS: samples/translate.c built with libxliffmt.a and run"
