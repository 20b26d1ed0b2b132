/* unit_build.c -- units made from what a format already holds, not read
 * from XLIFF text: a format's reader hands the pipeline these, as the
 * XLIFF reader hands it the trans-units it parses. A unit built from a
 * segment is the unit the reader would make of that segment written as a
 * <trans-unit>: its codes go through the same inline builder (bx/ex made
 * pairs where that keeps the segment well nested, keys made unique), its
 * text loses what XML cannot carry. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "reader_private.h"

/* The text of seg from byte from to byte to, to the builder, less what an
 * XML document cannot carry (the writer of XLIFF drops it). */
static xmt_status put_text(struct xmt_inline_builder *ib, const char *text,
                           size_t from, size_t to) {
  xmt_status st = XMT_OK;
  size_t at = from;
  for (size_t i = from; st == XMT_OK && i < to;) {
    /* a byte at a time only where something may be forbidden: text
     * from XML never has it */
    if ((i = xmt_xml_allowed_run(text, to, i)) == to)
      break;
    size_t bad = xmt_xml_forbidden_at(text, to, i);
    if (bad == 0) {
      i++;
      continue;
    }
    st = xmt_ib_text(ib, text + at, i - at);
    i += bad;
    at = i;
  }
  return st == XMT_OK && to > at ? xmt_ib_text(ib, text + at, to - at) : st;
}

xmt_status xmt_ib_put_text(struct xmt_inline_builder *ib, const char *text,
                           size_t len) {
  return put_text(ib, text, 0, len);
}

xmt_status xmt_ib_put_tag(struct xmt_inline_builder *ib, enum xmt_tag_kind kind,
                          const char *key, const char *name, const char *markup,
                          size_t len) {
  if (name == NULL)
    name = "x";
  int pair = strcmp(name, "g") == 0 || strcmp(name, "mrk") == 0;
  if (pair && kind == XMT_TAG_OPEN)
    return xmt_ib_open(ib, name, key, markup, len);
  if (pair && kind == XMT_TAG_CLOSE)
    return xmt_ib_close(ib, markup, len);
  const char *pos = kind == XMT_TAG_ISOLATED_CLOSE ? "close" : "open";
  return xmt_ib_code(ib, xmt_code_kind(name, pos), name, key, markup, len);
}

/* One code of seg to the builder, as the reader hands it the element. */
static xmt_status put_code(struct xmt_inline_builder *ib,
                           const struct xmt_tag *t) {
  return xmt_ib_put_tag(ib, t->kind, t->id, t->name, t->markup, t->markup_len);
}

/* Fills ib with seg, as xmt_unit_fill does. */
static xmt_status fill_segment(void *user, int target,
                               struct xmt_inline_builder *ib) {
  const xmt_segment *const *sides = user;
  const xmt_segment *seg = sides[target != 0];
  size_t len, at = 0;
  const char *text = xmt_segment_text(seg, &len);
  size_t n = xmt_segment_tag_count(seg);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(seg, i, &t);
    size_t off = st == XMT_OK && t.offset > at ? t.offset : at;
    if (st == XMT_OK)
      st = put_text(ib, text, at, off);
    at = off;
    if (st == XMT_OK)
      st = put_code(ib, &t);
  }
  return st == XMT_OK ? put_text(ib, text, at, len) : st;
}

/* Side target of the unit fill makes, in out. */
static xmt_status build_side(struct xmt_inline_builder *ib, xmt_unit_fill fill,
                             void *user, int target, xmt_segment *out) {
  xmt_ib_reset(ib);
  xmt_status st = fill(user, target, ib);
  if (st == XMT_OK && ib->nopen != 0)
    st = XMT_ERR_INLINE; /* a g the segment never closes */
  return st == XMT_OK ? xmt_ib_finish(ib, out) : st;
}

/* Side target of the unit fill makes, in a segment of its exact size
 * (one allocation, as the reader makes its units' segments). */
static xmt_status build_side_new(struct xmt_inline_builder *ib,
                                 xmt_unit_fill fill, void *user, int target,
                                 xmt_segment **out) {
  xmt_ib_reset(ib);
  xmt_status st = fill(user, target, ib);
  if (st == XMT_OK && ib->nopen != 0)
    st = XMT_ERR_INLINE; /* a g the segment never closes */
  return st == XMT_OK ? xmt_ib_finish_new(ib, out) : st;
}

xmt_status xmt_unit_build_segment(struct xmt_inline_builder *ib,
                                  const xmt_segment *seg, xmt_segment *out) {
  const xmt_segment *sides[2] = {seg, seg};
  return build_side(ib, fill_segment, sides, 0, out);
}

/* The unit's strings, in one allocation with it, as the reader lays
 * them out: the prefix (""), then each field given. */
static xmt_xliff_unit *new_unit(const struct xmt_unit_fields *in) {
  const char *values[] = {in->id, in->resname, in->restype, in->source_language,
                          in->target_language};
  size_t total = 1, lens[sizeof values / sizeof *values];
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    lens[i] = values[i] != NULL ? strlen(values[i]) + 1 : 0;
    total += lens[i];
  }
  xmt_xliff_unit *u = xmt_unit_new(total);
  if (u == NULL)
    return NULL;
  char **fields[] = {&u->id, &u->resname, &u->restype, &u->source_language,
                     &u->target_language};
  char *p = u->prefix = u->strings;
  *p++ = '\0';
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    if (values[i] == NULL)
      continue;
    memcpy(p, values[i], lens[i]);
    *fields[i] = p;
    p += lens[i];
  }
  return u;
}

/* 1 when the target the reader reads translates something: a code, or
 * text other than XML white space. */
static int has_content(const xmt_segment *target) {
  size_t len;
  const char *text = xmt_segment_text(target, &len);
  for (size_t i = 0; i < len; i++)
    if (!xmt_is_xml_space(text[i]))
      return 1;
  return xmt_segment_tag_count(target) > 0;
}

xmt_status xmt_xliff_unit_build(struct xmt_inline_builder *ib,
                                const struct xmt_unit_fields *in,
                                const xmt_segment *source,
                                const xmt_segment *target,
                                xmt_xliff_unit **out) {
  const xmt_segment *sides[2] = {source, target};
  return xmt_xliff_unit_fill(ib, in, fill_segment, sides, target != NULL, out);
}

/* A unit of the fields in, with no segment yet. */
static xmt_xliff_unit *unit_of(const struct xmt_unit_fields *in) {
  xmt_xliff_unit *u = new_unit(in);
  if (u == NULL)
    return NULL;
  u->version = XMT_XLIFF_12;
  u->line = in->line;
  u->column = in->column;
  u->translatable = in->translatable;
  u->preserve_space = in->preserve_space;
  u->presegmented = in->presegmented;
  u->continues = in->continues;
  u->max_chars = in->max_chars;
  u->max_slr = in->max_slr;
  u->group_max = in->group_max;
  u->group_scope = in->group_scope;
  return u;
}

xmt_status xmt_xliff_unit_copy(const struct xmt_unit_fields *in,
                               const xmt_segment *source,
                               xmt_xliff_unit **out) {
  *out = NULL;
  xmt_xliff_unit *u = unit_of(in);
  if (u == NULL)
    return XMT_ERR_NOMEM;
  size_t index;
  xmt_status st = XMT_ERR_NOMEM;
  if ((u->whole_source = xmt_segment_new()) != NULL)
    st = xmt_segment_copy(u->whole_source, source);
  if (st == XMT_OK)
    st = xmt_unit_add_segment(u, NULL, u->whole_source, &index);
  if (st != XMT_OK) {
    xmt_xliff_unit_free(u);
    return st;
  }
  xmt_unit_resolve(u);
  *out = u;
  return XMT_OK;
}

/* Side target made by make, or else built of what fill feeds ib. */
static xmt_status make_side(struct xmt_inline_builder *ib, xmt_unit_make make,
                            xmt_unit_fill fill, void *user, int target,
                            xmt_segment **out) {
  *out = NULL;
  xmt_status st = make != NULL ? make(user, target, out) : XMT_OK;
  if (st != XMT_OK || *out != NULL)
    return st;
  return build_side_new(ib, fill, user, target, out);
}

xmt_status xmt_xliff_unit_fill(struct xmt_inline_builder *ib,
                               const struct xmt_unit_fields *in,
                               xmt_unit_fill fill, void *user, int has_target,
                               xmt_xliff_unit **out) {
  return xmt_xliff_unit_make(ib, in, NULL, fill, user, has_target, out);
}

xmt_status xmt_xliff_unit_make(struct xmt_inline_builder *ib,
                               const struct xmt_unit_fields *in,
                               xmt_unit_make make, xmt_unit_fill fill,
                               void *user, int has_target,
                               xmt_xliff_unit **out) {
  *out = NULL;
  xmt_xliff_unit *u = unit_of(in);
  if (u == NULL)
    return XMT_ERR_NOMEM;
  size_t index;
  xmt_status st = make_side(ib, make, fill, user, 0, &u->whole_source);
  /* the whole source is the one segment, as the reader shares it */
  if (st == XMT_OK)
    st = xmt_unit_add_segment(u, NULL, u->whole_source, &index);
  if (st == XMT_OK && has_target) {
    st = make_side(ib, make, fill, user, 1, &u->existing);
    u->has_target = st == XMT_OK && has_content(u->existing);
  }
  if (st == XMT_OK)
    xmt_unit_resolve(u); /* no seg-source: no mid twice */
  if (st != XMT_OK) {
    xmt_xliff_unit_free(u);
    return st;
  }
  *out = u;
  return XMT_OK;
}

xmt_status xmt_xliff_reader_hand_file(xmt_xliff_reader *r,
                                      const struct xmt_xliff_file_info *info) {
  if (r->status != XMT_OK)
    return r->status;
  r->version = XMT_XLIFF_12; /* what the units are, whatever the document */
  xmt_reader_set_string(r, &r->source_language, info->source_language);
  xmt_reader_set_string(r, &r->target_language, info->target_language);
  if (r->status == XMT_OK && r->cb.file != NULL &&
      r->cb.file(r->user, info, "", 0) != 0)
    xmt_reader_fail(r, XMT_ERR_ABORTED, info->line, 1, "%s",
                    "stopped by the file callback");
  return r->status;
}

xmt_status xmt_xliff_reader_hand_unit(xmt_xliff_reader *r,
                                      xmt_xliff_unit *unit) {
  if (r->status != XMT_OK || r->cb.unit == NULL) {
    xmt_xliff_unit_free(unit);
    return r->status;
  }
  unsigned long line = unit->line, column = unit->column; /* handed over */
  if (r->cb.unit(r->user, unit) != 0)
    xmt_reader_fail(r, XMT_ERR_ABORTED, line, column, "%s",
                    "stopped by the unit callback");
  return r->status;
}
