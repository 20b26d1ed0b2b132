#!/bin/sh
# test_formats.sh: a format is one entry of the table, asked for what it
# does; no code compares a format by identity or names one above the
# formats, the command and the server never compare a format's value,
# and each extension is written once, in its entry's list
# (scripts/check-formats.sh). This tree passes; copies given a
# comparison, a name or a second extension list are refused, each named.
# Env: XLIFFMT. Exit 0 pass, 1 fail.
. "$(dirname "$0")/../cli/lib.sh"
cli_setup formats
top=$(cd "$(dirname "$0")/../.." && pwd)

expect_exit 0 "this tree asks each format's entry" \
  sh "$top/scripts/check-formats.sh" "$top"
check "no message" test ! -s "$tmp/out"

# copy: a fresh copy of filter/ and cli/ with the script
copy() {
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree/scripts"
  cp "$top/scripts/check-formats.sh" "$tmp/tree/scripts/"
  cp -R "$top/filter" "$top/cli" "$tmp/tree/"
}

# The file functions told XLIFF 2 by its address.
copy
cat >>"$tmp/tree/filter/format/format.c" <<'C'
static int x2(const struct xmt_format *format) {
  return format == &xmt_format_xliff2;
}
C
n=$(grep -c '' "$tmp/tree/filter/format/format.c")
expect_exit 1 "a format compared by identity is refused" \
  sh "$tmp/tree/scripts/check-formats.sh" "$tmp/tree"
check "named twice: compared, and named above the formats" test \
  "$(cat "$tmp/out")" = "formats: filter/format/format.c:$((n - 1)): a format compared by identity, not asked of its entry: return format == &xmt_format_xliff2;
formats: filter/format/format.c:$((n - 1)): a format named above the formats: return format == &xmt_format_xliff2;"

# The pipeline handed a format by name.
copy
cat >>"$tmp/tree/filter/pipeline/run.c" <<'C'
static const void *page = &xmt_format_html;
C
n=$(grep -c '' "$tmp/tree/filter/pipeline/run.c")
expect_exit 1 "a format named in the pipeline is refused" \
  sh "$tmp/tree/scripts/check-formats.sh" "$tmp/tree"
check "it is named, alone" test "$(cat "$tmp/out")" = \
  "formats: filter/pipeline/run.c:$n: a format named above the formats: static const void *page = &xmt_format_html;"

# The command told a page by its value, not by what the table says of it.
copy
cat >>"$tmp/tree/cli/extract.c" <<'C'
static int page(enum xmt_doc_format format) { return format == XMT_FORMAT_HTML; }
C
n=$(grep -c '' "$tmp/tree/cli/extract.c")
expect_exit 1 "a format compared by its value in the command is refused" \
  sh "$tmp/tree/scripts/check-formats.sh" "$tmp/tree"
check "it is named, alone" test "$(cat "$tmp/out")" = \
  "formats: cli/extract.c:$n: a format compared by its value, not asked of the table: static int page(enum xmt_doc_format format) { return format == XMT_FORMAT_HTML; }"

# A second list of a page's extensions.
copy
cat >>"$tmp/tree/filter/html/html.c" <<'C'
static const char *const more[] = {".htm", NULL};
C
n=$(grep -c '' "$tmp/tree/filter/html/html.c")
l=$(grep -nF '".htm",' "$top/filter/html/html.c" | head -1 | cut -d: -f1)
expect_exit 1 "an extension written twice is refused" \
  sh "$tmp/tree/scripts/check-formats.sh" "$tmp/tree"
check "both places named" test "$(cat "$tmp/out")" = \
  "formats: filter/html/html.c:$l: the extension .htm written 2 times: static const char *const html_extensions[] = {\".html\", \".htm\", \".xhtml\", NULL};
formats: filter/html/html.c:$n: the extension .htm written 2 times: static const char *const more[] = {\".htm\", NULL};"
finish
