/* projector_private.h -- what projector/ shares with the library above it
 * (segment internals, XML whitespace). Not installed. Includes base/'s
 * private header, so buffers, growth, UTF-8 and error records come with it. */
#ifndef XMT_PROJECTOR_PRIVATE_H
#define XMT_PROJECTOR_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "projector_private.h is internal to libxliffmt"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base_private.h"
#include "xmt_projector.h"

/* XML whitespace: space, tab, CR, LF. */
static inline int xmt_is_xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Appends text known to be valid UTF-8 (it came from the XML parser). */
xmt_status xmt_segment_append_valid_text(xmt_segment *seg, const char *text,
                                         size_t len);
/* Appends text[*at, tag->offset) (nothing when the tag stands at or
 * before *at) and then tag, *at moved on to the tag: how a walk over the
 * tags of a segment copies them, with the text between, into another. */
xmt_status xmt_segment_append_to_tag(xmt_segment *seg, const char *text,
                                     size_t *at, const struct xmt_tag *tag);
/* Appends src, text and tags, with three copies: src's tags land at its
 * offsets past dst's text. src's stretches between tags must be valid
 * UTF-8 on their own (see xmt_segment_append_to_tag for the rest). */
xmt_status xmt_segment_append_whole(xmt_segment *dst, const xmt_segment *src);
/* Makes room for more text, tag strings and tags, so that appending them
 * allocates at most once per buffer. */
xmt_status xmt_segment_reserve(xmt_segment *seg, size_t text_len,
                               size_t pool_len, size_t ntags);
/* A new segment with room for text_len bytes of text, pool_len of tag
 * strings (their NULs counted) and ntags tags, in its own allocation;
 * NULL when out of memory. */
xmt_segment *xmt_segment_new_sized(size_t text_len, size_t pool_len,
                                   size_t ntags);
/* Adds a tag at text offset `offset` (not before the last tag's, not
 * past the text) whose id and name lengths are known (their NULs not
 * counted): a builder that has its text whole appends it first, then its
 * tags, each copied once. */
xmt_status xmt_segment_put_tag(xmt_segment *seg, size_t offset,
                               enum xmt_tag_kind kind, const char *id,
                               size_t id_len, const char *name, size_t name_len,
                               const char *markup, size_t markup_len);
/* partner[i] (room for every tag of seg): for an OPEN, its CLOSE; for a
 * CLOSE, its OPEN; else, and for an end without a partner, SIZE_MAX. A
 * CLOSE ends the nearest OPEN before it left open, whatever their ids.
 * Linear in the tags, however deep they nest. */
void xmt_segment_pairs(const xmt_segment *seg, size_t *partner);

/* Splits tokens at the byte offsets cuts[0..n), in order, that fall
 * strictly inside a token; the others are ignored. */
xmt_status xmt_tokens_split(xmt_tokens *tokens, const size_t *cuts, size_t n);

#endif /* XMT_PROJECTOR_PRIVATE_H */
