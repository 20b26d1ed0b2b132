#!/bin/sh
# test_exports.sh -- the shared and the static library define global
# symbols whose names start with xmt_ or XMT_ only, so that a program or
# another library linked with libxliffmt never meets one of its internal
# names; and neither defines the plug-in entry point
# (XMT_BACKEND_PLUGIN_SYMBOL), which belongs to plug-ins.
set -u
b=${XMT_BUILDDIR:-.}
nm_cmd=${NM:-nm}
if ! command -v "${nm_cmd%% *}" >/dev/null 2>&1; then
  echo "SKIP: nm not found"
  exit 77
fi
entry=xmt_backend_plugin
failed=0
checked=0

# defined LIB OPTION: the names of the global symbols LIB defines, once
# each (-D: the dynamic table of a shared library, what it exports; -g:
# the globals of each object of an archive).
defined() {
  $nm_cmd "$2" --defined-only "$1" | awk 'NF >= 3 { print $NF }' | sort -u
}

for lib in "$b/.libs/libxliffmt.so" "$b/.libs/libxliffmt.a"; do
  case $lib in
  *.so) opt=-D ;;
  *) opt=-g ;;
  esac
  if [ ! -f "$lib" ]; then
    echo "note: $lib not built (--disable-shared or --disable-static)"
    continue
  fi
  checked=$((checked + 1))
  names=$(defined "$lib" "$opt") || {
    echo "FAIL: $nm_cmd $opt cannot read $lib"
    failed=$((failed + 1))
    continue
  }
  # Not the library's own: the symbols the linker adds to a shared library
  # on some systems, and AddressSanitizer's marks of xmt_ globals
  # (--enable-sanitizers).
  other=$(printf '%s\n' "$names" | grep -v -e '^xmt_' -e '^XMT_' -e '^$' |
    grep -v -x -e _init -e _fini -e _edata -e _end -e __bss_start |
    grep -v -e '^__odr_asan\.xmt_')
  if [ -n "$other" ]; then
    echo "FAIL: $lib defines global symbols without the xmt_ prefix:"
    printf '  %s\n' $other
    failed=$((failed + 1))
  fi
  if printf '%s\n' "$names" | grep -q -x "$entry"; then
    echo "FAIL: $lib defines $entry, the plug-in entry point"
    failed=$((failed + 1))
  fi
  # Not an empty list read by mistake: the public API is there.
  if ! printf '%s\n' "$names" | grep -q -x xmt_filter_new; then
    echo "FAIL: $lib does not define xmt_filter_new"
    failed=$((failed + 1))
  fi
  echo "$lib: $(printf '%s\n' "$names" | grep -c .) global symbols"
done
if [ "$checked" -eq 0 ]; then
  echo "FAIL: neither $b/.libs/libxliffmt.so nor $b/.libs/libxliffmt.a"
  exit 1
fi
[ "$failed" -eq 0 ]
