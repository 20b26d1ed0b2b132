/* unit_feed.c -- what every format that is not XLIFF does alike: hand
 * its units to the run's sink (one <file>, then each unit built from its
 * source segment at its place in the original), and find the
 * unit a target is for from the id it was handed out with ("7", or
 * "part:7" for a format whose units are in parts), and tell a
 * target that says what its source says (the format then keeps its own
 * bytes). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

xmt_status xmt_unit_feed_file(const struct xmt_unit_feed *feed,
                              const struct xmt_unit_sink *sink) {
  const struct xmt_xliff_file_info info = {
      feed->original, feed->source_language, feed->target_language,
      feed->datatype, XMT_UNITS_OUT_FILE_LINE};
  return sink->file(sink->user, &info);
}

/* The most pairs as_built() looks at; a segment with more is built. */
#define AS_BUILT_OPENS 32

/* 1 when the inline builder would make seg of seg as it is (its copy is
 * the unit's source, not seg walked and built again): text XML can
 * carry, pairs of g well nested (each close the innermost open's, with
 * its id; the builder pairs by nesting), the open ids unique (it would
 * suffix them), the other codes x placeholders. */
static int as_built(const xmt_segment *seg) {
  size_t len, n = xmt_segment_tag_count(seg), nopen = 0, depth = 0;
  const char *text = xmt_segment_text(seg, &len);
  const char *ids[AS_BUILT_OPENS];
  size_t stack[AS_BUILT_OPENS];
  if (seg == NULL || xmt_xml_allowed_run(text, len, 0) != len)
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) != XMT_OK)
      return 0;
    if (strcmp(t.name, "x") == 0 && t.kind == XMT_TAG_PLACEHOLDER)
      continue;
    if (strcmp(t.name, "g") != 0)
      return 0;
    if (t.kind == XMT_TAG_OPEN) {
      if (nopen == AS_BUILT_OPENS)
        return 0;
      for (size_t k = 0; k < nopen; k++)
        if (strcmp(ids[k], t.id) == 0)
          return 0;
      stack[depth++] = nopen;
      ids[nopen++] = t.id;
    } else if (t.kind != XMT_TAG_CLOSE || depth == 0 ||
               strcmp(ids[stack[--depth]], t.id) != 0) {
      return 0;
    }
  }
  return depth == 0;
}

/* "n", or "part:n" (the part cut at 255 bytes), at id (300 bytes). */
static void unit_id(char *id, const char *part, unsigned long n) {
  size_t len = 0;
  if (part != NULL) {
    while (len < 255 && part[len] != '\0')
      len++;
    memcpy(id, part, len);
    id[len++] = ':';
  }
  char digits[24];
  size_t nd = 0;
  do
    digits[nd++] = (char)('0' + n % 10);
  while ((n /= 10) > 0);
  while (nd > 0)
    id[len++] = digits[--nd];
  id[len] = '\0';
}

xmt_status xmt_unit_feed_one(const struct xmt_unit_feed *feed,
                             struct xmt_inline_builder *ib,
                             const struct xmt_feed_unit *u,
                             const struct xmt_unit_sink *sink) {
  char id[300];
  unit_id(id, u->part, u->id);
  const struct xmt_unit_fields in = {.id = id,
                                     .resname = u->resname,
                                     .restype = u->restype,
                                     .source_language = feed->source_language,
                                     .target_language = feed->target_language,
                                     .line = u->line,
                                     .column = u->column,
                                     .translatable = 1,
                                     .preserve_space = u->preserve_space};
  xmt_xliff_unit *unit;
  xmt_status st = as_built(u->source)
                      ? xmt_xliff_unit_copy(&in, u->source, &unit)
                      : xmt_xliff_unit_build(ib, &in, u->source, NULL, &unit);
  return st == XMT_OK ? sink->unit(sink->user, unit) : st;
}

xmt_status xmt_unit_feed(const struct xmt_unit_feed *feed, void *doc,
                         xmt_unit_at_fn at, const struct xmt_unit_sink *sink) {
  xmt_status st = xmt_unit_feed_file(feed, sink);
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  for (size_t i = 0; i < feed->nunits && st == XMT_OK; i++) {
    struct xmt_feed_unit u = {0};
    at(doc, i, &u);
    st = xmt_unit_feed_one(feed, &ib, &u, sink);
  }
  xmt_ib_free(&ib);
  return st;
}

xmt_status xmt_unit_index(const xmt_xliff_unit *unit, size_t n,
                          const char *what, size_t *index,
                          struct xmt_error_store *err) {
  const struct xmt_unit_part whole = {NULL, n};
  size_t part;
  return xmt_unit_index_in(unit, &whole, 1, what, &part, index, err);
}

/* The part of parts an id's name (len bytes at name; NULL: none) is. */
static long part_named(const struct xmt_unit_part *parts, size_t nparts,
                       const char *name, size_t len) {
  for (size_t k = 0; k < nparts; k++) {
    const char *p = parts[k].name;
    if (name == NULL
            ? p == NULL
            : p != NULL && strlen(p) == len && memcmp(p, name, len) == 0)
      return (long)k;
  }
  return -1;
}

xmt_status xmt_unit_index_in(const xmt_xliff_unit *unit,
                             const struct xmt_unit_part *parts, size_t nparts,
                             const char *what, size_t *part, size_t *index,
                             struct xmt_error_store *err) {
  const char *id =
      xmt_xliff_unit_id(unit) != NULL ? xmt_xliff_unit_id(unit) : "";
  const char *colon = strrchr(id, ':');
  const char *num = colon != NULL ? colon + 1 : id;
  long k = part_named(parts, nparts, colon != NULL ? id : NULL,
                      colon != NULL ? (size_t)(colon - id) : 0);
  char *end;
  unsigned long n = strtoul(num, &end, 10);
  /* the ids are the ones the feed wrote: decimal, from 1, nothing else */
  if (k < 0 || num[0] < '1' || num[0] > '9' || *end != '\0' ||
      n > parts[k].count)
    return xmt_error_at(err, XMT_ERR_INTERNAL,
                        &(const struct xmt_where){.unit_id = id},
                        "a unit the %s does not have", what);
  *part = (size_t)k;
  *index = (size_t)(n - 1);
  return XMT_OK;
}

static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
}

int xmt_target_is_source(const xmt_segment *target, const xmt_segment *source) {
  size_t tl, sl, n = xmt_segment_tag_count(source);
  const char *t = xmt_segment_text(target, &tl);
  const char *s = xmt_segment_text(source, &sl);
  if (tl != sl || memcmp(t, s, sl) != 0 || xmt_segment_tag_count(target) != n)
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag a, b;
    if (xmt_segment_tag(target, i, &a) != XMT_OK ||
        xmt_segment_tag(source, i, &b) != XMT_OK || a.offset != b.offset ||
        side_of(a.kind) != side_of(b.kind) || a.id == NULL || b.id == NULL ||
        strcmp(a.id, b.id) != 0)
      return 0;
  }
  return 1;
}
