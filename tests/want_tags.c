/* want_tags.c -- a segment's tags checked against a table. */
#include "config.h"

#include "want_tags.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"

void xmt_assert_tags(const xmt_segment *seg, const char *text,
                     const struct xmt_want_tag *want, size_t n) {
  size_t len = 0;
  const char *got = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(got, len, text, strlen(text));
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), n);
  for (size_t i = 0; i < n && i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    CU_ASSERT_EQUAL_FATAL(xmt_segment_tag(seg, i, &t), XMT_OK);
    if (t.kind != want[i].kind || t.offset != want[i].offset ||
        strcmp(t.id, want[i].id) != 0 || strcmp(t.name, want[i].name) != 0)
      fprintf(stderr, "\n«%s» tag %zu: kind %d @%zu id=%s name=%s\n", text, i,
              (int)t.kind, t.offset, t.id, t.name);
    CU_ASSERT_EQUAL(t.kind, want[i].kind);
    CU_ASSERT_EQUAL(t.offset, want[i].offset);
    CU_ASSERT_STRING_EQUAL(t.id, want[i].id);
    CU_ASSERT_STRING_EQUAL(t.name, want[i].name);
    XMT_ASSERT_BYTES_EQUAL(t.markup, t.markup_len, want[i].markup,
                           strlen(want[i].markup));
  }
}
