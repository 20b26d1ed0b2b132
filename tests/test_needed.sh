#!/bin/sh
# test_needed.sh -- libcurl, libpq, libmicrohttpd and GnuTLS are not
# linked: neither the shared library nor the xliffmt program needs them
# (readelf -d), and a run without an http engine, a PostgreSQL cache or
# serve does not load them (LD_DEBUG=files); they are loaded when first
# used (base/dynlib.c), which the http, PostgreSQL and serve tests
# exercise and tests/test_filter_dynlib checks when a load fails. serve
# with a libmicrohttpd that cannot be loaded says why, exit 1.
set -u
b=${XMT_BUILDDIR:-.}
samples=${XMT_SAMPLES:?}
xliffmt=${XLIFFMT:?}
if ! command -v readelf >/dev/null 2>&1; then
  echo "SKIP: readelf not found"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xmt-needed.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failed=0
lazy='lib\(curl\|pq\|microhttpd\|gnutls\)[-.]'

checked=0
for f in "$b/.libs/libxliffmt.so" "$b/.libs/xliffmt" "$b/xliffmt"; do
  [ -f "$f" ] || continue
  # The libtool wrapper script is no ELF file: its program is in .libs.
  readelf -h "$f" >/dev/null 2>&1 || continue
  checked=$((checked + 1))
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  [ -n "$needed" ] || {
    echo "FAIL: readelf -d $f lists no NEEDED entry"
    failed=$((failed + 1))
  }
  bad=$(printf '%s\n' "$needed" | grep -e "^$lazy")
  if [ -n "$bad" ]; then
    echo "FAIL: $f needs" $bad
    failed=$((failed + 1))
  else
    echo "ok - $f needs none of libcurl, libpq, libmicrohttpd, GnuTLS"
  fi
done
[ "$checked" -gt 0 ] || {
  echo "FAIL: neither $b/.libs/libxliffmt.so nor the program found"
  exit 1
}

# A translation with a built-in engine loads neither.
if ! LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" "$xliffmt" translate \
  "$samples/sample.xlf" -t es --mt pseudo --no-segment -q \
  -o "$tmp/out.xlf"; then
  echo "FAIL: xliffmt translate --mt pseudo"
  failed=$((failed + 1))
fi
[ -s "$tmp/out.xlf" ] || {
  echo "FAIL: no output"
  failed=$((failed + 1))
}
if ! cat "$tmp"/ld.* | grep -q 'file=libxliffmt'; then
  echo "FAIL: LD_DEBUG=files shows no library loaded: the check is void"
  failed=$((failed + 1))
fi
loaded=$(cat "$tmp"/ld.* | sed -n "s/.*file=\($lazy[^ ]*\).*/\1/p" | sort -u)
if [ -n "$loaded" ]; then
  echo "FAIL: a run with --mt pseudo loads" $loaded
  failed=$((failed + 1))
else
  echo "ok - a run with --mt pseudo loads none of them"
fi

# serve loads libmicrohttpd when it starts: one found in the loader's path
# that is no library (an empty file) stops it, named with the reason.
mhd=$(sed -n 's/^#define XMT_LIBMICROHTTPD_SONAME "\(.*\)"$/\1/p' \
  "$b/config.h")
if [ -z "$mhd" ]; then
  echo "FAIL: no XMT_LIBMICROHTTPD_SONAME in $b/config.h"
  failed=$((failed + 1))
else
  mkdir "$tmp/lib" && : >"$tmp/lib/$mhd"
  LD_LIBRARY_PATH="$tmp/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$xliffmt" serve --listen 127.0.0.1:0 --mt pseudo >"$tmp/serve.out" \
    2>"$tmp/serve.err"
  rc=$?
  printf 'xliffmt serve: cannot load %s: %s: file too short\n' "$mhd" \
    "$tmp/lib/$mhd" >"$tmp/serve.want"
  if [ "$rc" -ne 1 ] || [ -s "$tmp/serve.out" ] ||
    ! cmp -s "$tmp/serve.want" "$tmp/serve.err"; then
    echo "FAIL: serve without a loadable $mhd: exit $rc, stderr:"
    sed 's/^/#   /' "$tmp/serve.err"
    failed=$((failed + 1))
  else
    echo "ok - serve without a loadable $mhd says why, exit 1"
  fi
fi

[ "$failed" -eq 0 ] || exit 1
echo "PASS: libcurl, libpq, libmicrohttpd and GnuTLS loaded on first use only"
