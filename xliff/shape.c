/* shape.c -- what the output's shape needs: one whole target from a unit
 * segmented for MT only, and attributes set on copied start tags. */
#include "config.h"

#include <stdlib.h>

#include "xliff_private.h"

/* Appends src's text and tags to dst. */
static xmt_status append_segment(xmt_segment *dst, const xmt_segment *src) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(src, &len);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(src, i, &t);
    if (st == XMT_OK && t.offset > at)
      st = xmt_segment_append_text(dst, text + at, t.offset - at);
    at = t.offset > at ? t.offset : at;
    if (st == XMT_OK)
      st = xmt_segment_append_tag(dst, t.kind, t.id, t.name, t.markup,
                                  t.markup_len);
  }
  if (st == XMT_OK && len > at)
    st = xmt_segment_append_text(dst, text + at, len - at);
  return st;
}

/* 1 when the source has a tag of this kind with exactly this markup: a
 * code of the document, not one the segmenter made of a cut pair. */
static int in_source(const xmt_segment *src, const struct xmt_tag *t) {
  for (size_t i = 0; i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag s;
    if (xmt_segment_tag(src, i, &s) == XMT_OK && s.kind == t->kind &&
        s.markup_len == t->markup_len &&
        memcmp(s.markup, t->markup, s.markup_len) == 0)
      return 1;
  }
  return 0;
}

/* The source's OPEN (want_open) or CLOSE tag with this id, or SIZE_MAX. */
static size_t source_end(const xmt_segment *src, const char *id,
                         int want_open) {
  for (size_t i = 0; i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag s;
    if (xmt_segment_tag(src, i, &s) == XMT_OK && s.id != NULL &&
        strcmp(s.id, id) == 0 &&
        s.kind == (want_open ? XMT_TAG_OPEN : XMT_TAG_CLOSE))
      return i;
  }
  return SIZE_MAX;
}

/* Copies joined into out with the segmenter's isolated codes turned back
 * into the pair ends of the source they were cut from. */
static xmt_status restore_pairs(xmt_segment *out, const xmt_segment *joined,
                                const xmt_segment *src) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(joined, &len);
  xmt_status st = XMT_OK;
  xmt_segment_clear(out);
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(joined); i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(joined, i, &t);
    if (st == XMT_OK && t.offset > at)
      st = xmt_segment_append_text(out, text + at, t.offset - at);
    at = t.offset > at ? t.offset : at;
    if (st != XMT_OK)
      break;
    size_t k = SIZE_MAX;
    if ((t.kind == XMT_TAG_ISOLATED_OPEN || t.kind == XMT_TAG_ISOLATED_CLOSE) &&
        t.id != NULL && !in_source(src, &t))
      k = source_end(src, t.id, t.kind == XMT_TAG_ISOLATED_OPEN);
    if (k != SIZE_MAX)
      st = xmt_segment_tag(src, k, &t);
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, t.kind, t.id, t.name, t.markup,
                                  t.markup_len);
  }
  if (st == XMT_OK && len > at)
    st = xmt_segment_append_text(out, text + at, len - at);
  return st;
}

xmt_status xmt_unit_joined_target(const xmt_xliff_unit *u, xmt_segment *out) {
  xmt_segment *joined = xmt_segment_new();
  if (joined == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i <= u->nsegs; i++) {
    if (u->gaps != NULL && i < u->ngaps)
      st = append_segment(joined, u->gaps[i]);
    if (st == XMT_OK && i < u->nsegs)
      st =
          append_segment(joined, u->segs[i].target != NULL ? u->segs[i].target
                                                           : u->segs[i].source);
  }
  const xmt_segment *src = u->whole_source;
  if (st == XMT_OK && src != NULL) {
    st = restore_pairs(out, joined, src);
    /* The translation moved a cut end across another pair: the isolated
     * codes stay, which say the same. */
    if (st == XMT_OK && xmt_segment_check(out, NULL) != XMT_OK)
      st = xmt_segment_copy(out, joined);
  } else if (st == XMT_OK) {
    st = xmt_segment_copy(out, joined);
  }
  xmt_segment_free(joined);
  return st;
}

/* --- Attributes of start tags -------------------------------------------- */

int xmt_tag_find_attribute(const char *tag, size_t len, const char *name,
                           size_t *value_start, size_t *value_end) {
  size_t n = strlen(name), i = 1;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '>' && tag[i] != '/')
    i++; /* the element name */
  while (i < len) {
    while (i < len && xmt_is_xml_space(tag[i]))
      i++;
    size_t start = i;
    while (i < len && tag[i] != '=' && !xmt_is_xml_space(tag[i]) &&
           tag[i] != '>' && tag[i] != '/')
      i++;
    if (i == start)
      return 0;
    int match = i - start == n && memcmp(tag + start, name, n) == 0;
    while (i < len && tag[i] != '"' && tag[i] != '\'')
      i++;
    if (i == len)
      return 0;
    char quote = tag[i++];
    size_t vs = i;
    while (i < len && tag[i] != quote)
      i++;
    if (match) {
      *value_start = vs;
      *value_end = i;
      return 1;
    }
    i++;
  }
  return 0;
}

xmt_status xmt_tag_set_attributes(struct xmt_buf *out, const char *tag,
                                  size_t len, const char *const *names,
                                  const char *const *values, size_t n) {
  struct xmt_buf a = {0}, b = {0};
  xmt_status st = xmt_buf_append(&a, tag, len);
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    size_t vs, ve;
    xmt_buf_reset(&b);
    if (xmt_tag_find_attribute(a.data, a.len, names[k], &vs, &ve)) {
      st = xmt_buf_append(&b, a.data, vs);
      if (st == XMT_OK)
        st = xmt_xml_escape_attr(&b, values[k]);
      if (st == XMT_OK)
        st = xmt_buf_append(&b, a.data + ve, a.len - ve);
    } else {
      /* After the last attribute: before "/>" or ">" and the spaces
       * before them. */
      size_t end = a.len - (a.len >= 2 && a.data[a.len - 2] == '/' ? 2 : 1);
      while (end > 1 && xmt_is_xml_space(a.data[end - 1]))
        end--;
      st = xmt_buf_append(&b, a.data, end);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(&b, ' ');
      if (st == XMT_OK)
        st = xmt_buf_append_str(&b, names[k]);
      if (st == XMT_OK)
        st = xmt_buf_append_str(&b, "=\"");
      if (st == XMT_OK)
        st = xmt_xml_escape_attr(&b, values[k]);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(&b, '"');
      if (st == XMT_OK)
        st = xmt_buf_append(&b, a.data + end, a.len - end);
    }
    struct xmt_buf t = a;
    a = b;
    b = t;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, a.data, a.len);
  xmt_buf_free(&a);
  xmt_buf_free(&b);
  return st;
}
