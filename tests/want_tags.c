/* want_tags.c -- a segment's tags checked against a table. */
#include "config.h"

#include "want_tags.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"

const char *xmt_tag_kind_label(enum xmt_tag_kind kind) {
  switch (kind) {
  case XMT_TAG_OPEN:
    return "open";
  case XMT_TAG_CLOSE:
    return "close";
  case XMT_TAG_PLACEHOLDER:
    return "placeholder";
  case XMT_TAG_ISOLATED_OPEN:
    return "isolated-open";
  case XMT_TAG_ISOLATED_CLOSE:
    return "isolated-close";
  }
  return "?";
}

/* Every tag of seg, on standard error: what a count that differs hides. */
static void tell_tags(const xmt_segment *seg, const char *text, size_t n) {
  fprintf(stderr, "\n«%s»: %zu tags, want %zu:\n", text,
          xmt_segment_tag_count(seg), n);
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) == XMT_OK)
      fprintf(stderr, "  %s@%zu id=%s name=%s «%.*s»\n",
              xmt_tag_kind_label(t.kind), t.offset, t.id, t.name,
              (int)t.markup_len, t.markup);
  }
}

void xmt_assert_tags(const xmt_segment *seg, const char *text,
                     const struct xmt_want_tag *want, size_t n) {
  size_t len = 0;
  const char *got = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(got, len, text, strlen(text));
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), n);
  if (xmt_segment_tag_count(seg) != n) {
    tell_tags(seg, text, n);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag t;
    CU_ASSERT_EQUAL_FATAL(xmt_segment_tag(seg, i, &t), XMT_OK);
    int id_differs = want[i].id != NULL && strcmp(t.id, want[i].id) != 0;
    if (t.kind != want[i].kind || t.offset != want[i].offset || id_differs ||
        strcmp(t.name, want[i].name) != 0)
      fprintf(stderr, "\n«%s» tag %zu: %s@%zu id=%s name=%s\n", text, i,
              xmt_tag_kind_label(t.kind), t.offset, t.id, t.name);
    CU_ASSERT_EQUAL(t.kind, want[i].kind);
    CU_ASSERT_EQUAL(t.offset, want[i].offset);
    if (want[i].id != NULL)
      CU_ASSERT_STRING_EQUAL(t.id, want[i].id);
    CU_ASSERT_STRING_EQUAL(t.name, want[i].name);
    XMT_ASSERT_BYTES_EQUAL(t.markup, t.markup_len, want[i].markup,
                           strlen(want[i].markup));
  }
}
