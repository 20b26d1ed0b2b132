/* want_tags.h -- a segment's tags checked against a table of the tags
 * wanted, each field exactly, with the first that differs told. */
#ifndef XMT_TEST_WANT_TAGS_H
#define XMT_TEST_WANT_TAGS_H

#include <stddef.h>

#include "xmt_projector.h"

/* A tag as wanted; id NULL: any id. */
struct xmt_want_tag {
  enum xmt_tag_kind kind;
  size_t offset;
  const char *id, *name, *markup;
};

/* seg's text is text, and its tags are want[0..n); when their count
 * differs, every tag of seg is told. */
void xmt_assert_tags(const xmt_segment *seg, const char *text,
                     const struct xmt_want_tag *want, size_t n);

/* "open", "close", "placeholder", "isolated-open" or "isolated-close". */
const char *xmt_tag_kind_label(enum xmt_tag_kind kind);

#endif
