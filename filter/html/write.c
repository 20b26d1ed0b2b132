/* write.c -- writes a parsed page back with its units translated; hands
 * its units out as values, and as an XLIFF 1.2 document (written by the
 * one writer of units as text, format/units_out.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "html_private.h"

/* Output is handed to the sink in blocks of about this size. */
#define BLOCK 65536

struct writer {
  const struct html_doc *doc;
  xmt_html_target_fn target;
  void *target_user;
  /* Scratch segments for the lookup, one per depth of holes being
   * filled: an attribute's target is looked up inside its unit's. */
  xmt_segment **scratch;
  size_t depth, scratch_cap;
  const char *lang;
  xmt_write_fn sink;
  void *user;
  struct xmt_buf out;
  struct xmt_buf text; /* scratch: escaped UTF-8 */
  size_t *index;       /* scratch: code by id and side, for one unit */
  size_t index_cap;
  struct xmt_error_store *err;
  xmt_status st;
};

static void flush_out(struct writer *w) {
  if (w->st == XMT_OK && w->out.len > 0 &&
      w->sink(w->user, w->out.data, w->out.len) != 0)
    w->st = XMT_ERR_WRITE;
  xmt_buf_reset(&w->out);
}

/* Page bytes, unchanged (re-encoded when the page was UTF-16). */
static void put_raw(struct writer *w, size_t start, size_t end) {
  if (w->st != XMT_OK || end <= start)
    return;
  const char *s = w->doc->data + start;
  if (w->doc->charset.utf16)
    w->st = xmt_encode(w->doc->charset.out, s, end - start, 1, &w->out);
  else
    w->st = xmt_buf_append(&w->out, s, end - start);
  if (w->out.len >= BLOCK)
    flush_out(w);
}

/* New UTF-8 text, escaped and encoded; characters the encoding lacks
 * become numeric character references. */
static void put_text(struct writer *w, const char *s, size_t len, char quote) {
  if (w->st != XMT_OK || len == 0)
    return;
  xmt_buf_reset(&w->text);
  w->st = xmt_html_escape(&w->text, s, len, quote);
  if (w->st == XMT_OK)
    w->st =
        xmt_encode(w->doc->charset.out, w->text.data, w->text.len, 1, &w->out);
  if (w->out.len >= BLOCK)
    flush_out(w);
}

static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
}

/* 1 when the target says the same as the source: same text, same codes at
 * the same places. */
static int same_content(const xmt_segment *target, const xmt_segment *source) {
  size_t tl, sl;
  const char *t = xmt_segment_text(target, &tl);
  const char *s = xmt_segment_text(source, &sl);
  size_t n = xmt_segment_tag_count(target);
  if (tl != sl || memcmp(t, s, tl) != 0 || n != xmt_segment_tag_count(source))
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

/* Indexes the codes of u by id and side: w->index[2 * id + side]. */
static int index_codes(struct writer *w, const struct html_unit *u) {
  size_t n = 2 * ((size_t)u->max_id + 1);
  if (n > w->index_cap) {
    size_t *grown = xmt_grow_array(w->index, &w->index_cap, n, sizeof *grown);
    if (grown == NULL) {
      w->st = XMT_ERR_NOMEM;
      return 0;
    }
    w->index = grown;
  }
  for (size_t i = 0; i < n; i++)
    w->index[i] = (size_t)-1;
  for (size_t i = 0; i < u->ncodes; i++) {
    const struct html_code *c = &w->doc->codes[u->first_code + i];
    w->index[2 * c->id + (size_t)side_of(c->kind)] = i;
  }
  return 1;
}

/* The code of unit u a target tag stands for, or NULL. */
static const struct html_code *find_code(const struct writer *w,
                                         const struct html_unit *u,
                                         const struct xmt_tag *tag) {
  char *end;
  if (tag->id == NULL || tag->id[0] < '0' || tag->id[0] > '9')
    return NULL;
  unsigned long id = strtoul(tag->id, &end, 10);
  if (*end != '\0' || id > u->max_id)
    return NULL;
  size_t i = w->index[2 * id + (size_t)side_of(tag->kind)];
  return i != (size_t)-1 ? &w->doc->codes[u->first_code + i] : NULL;
}

static void emit_range(struct writer *w, size_t start, size_t end, size_t from);

/* Text between codes: the page's own spacing next to a code comes back
 * where the translation has a single space. */
static void put_piece(struct writer *w, const struct html_unit *u,
                      const char *s, size_t len, const struct html_code *prev,
                      const struct html_code *next) {
  const size_t *lead = prev != NULL && prev->ws_after[1] > 0 && !u->preserve
                           ? prev->ws_after
                           : NULL;
  const size_t *trail = next != NULL && next->ws_before[1] > 0 && !u->preserve
                            ? next->ws_before
                            : NULL;
  if (len == 1 && s[0] == ' ' && (lead != NULL || trail != NULL)) {
    const size_t *ws = trail != NULL ? trail : lead; /* as before a tag */
    put_raw(w, ws[0], ws[1]);
    return;
  }
  if (lead != NULL && len > 0 && s[0] == ' ') {
    put_raw(w, lead[0], lead[1]);
    s++;
    len--;
  }
  int tail = trail != NULL && len > 0 && s[len - 1] == ' ';
  put_text(w, s, len - (size_t)tail, 0);
  if (tail)
    put_raw(w, trail[0], trail[1]);
}

static void render_target(struct writer *w, const struct html_unit *u,
                          const xmt_segment *target) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(target, &len);
  const struct html_code *prev = NULL;
  size_t n = xmt_segment_tag_count(target);
  if (!index_codes(w, u))
    return;
  for (size_t i = 0; i < n && w->st == XMT_OK; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(target, i, &tag);
    const struct html_code *code = find_code(w, u, &tag);
    if (code == NULL) {
      w->st = xmt_error_set(w->err, XMT_ERR_INLINE,
                            "unit %u: the target has a code (id \"%s\") "
                            "its source does not have",
                            u->id, tag.id != NULL ? tag.id : "");
      return;
    }
    size_t off = tag.offset > at ? tag.offset : at;
    put_piece(w, u, text + at, off - at, prev, code);
    emit_range(w, code->start, code->end, 0);
    prev = code;
    at = off;
  }
  put_piece(w, u, text + at, len - at, prev, NULL);
}

/* An attribute value; an unquoted one gets quotes when it needs them. */
static void render_value(struct writer *w, char quote, const char *s,
                         size_t len) {
  int needs = quote == 0 && len == 0;
  for (size_t i = 0; i < len && quote == 0 && !needs; i++)
    needs = html_is_space(s[i]) || s[i] == '"' || s[i] == '\'' || s[i] == '=' ||
            s[i] == '<' || s[i] == '>' || s[i] == '`';
  if (needs) {
    put_text(w, "\"", 1, 0);
    put_text(w, s, len, '"');
    put_text(w, "\"", 1, 0);
  } else {
    put_text(w, s, len, quote);
  }
}

static void emit_hole(struct writer *w, size_t index) {
  const struct html_hole *h = &w->doc->holes[index];
  const struct html_unit *u =
      h->kind != HOLE_LANG ? &w->doc->units[h->unit] : NULL;
  const xmt_segment *t = NULL;
  xmt_status st = XMT_OK; /* the lookup's */
  if (w->st != XMT_OK)
    return;
  if (u != NULL && w->target != NULL) {
    size_t had = w->scratch_cap;
    xmt_segment **scratch = xmt_grow_array(w->scratch, &w->scratch_cap,
                                           w->depth + 1, sizeof *scratch);
    if (scratch == NULL) {
      w->st = XMT_ERR_NOMEM;
      return;
    }
    for (size_t i = had; i < w->scratch_cap; i++)
      scratch[i] = NULL;
    w->scratch = scratch;
    if (scratch[w->depth] == NULL &&
        (scratch[w->depth] = xmt_segment_new()) == NULL) {
      w->st = XMT_ERR_NOMEM;
      return;
    }
    t = w->target(w->target_user, h->unit, scratch[w->depth], &st);
    if (st != XMT_OK) {
      w->st = st;
      return;
    }
  }
  w->depth++;
  if (h->kind == HOLE_LANG) {
    if (w->lang != NULL)
      render_value(w, h->quote, w->lang, strlen(w->lang));
    else
      put_raw(w, h->start, h->end);
  } else if (t == NULL || same_content(t, u->source)) {
    if (h->kind == HOLE_TEXT) /* the holes inside it, not itself */
      emit_range(w, h->start, h->end, index + 1);
    else
      put_raw(w, h->start, h->end);
  } else if (h->kind == HOLE_ATTR) {
    size_t len;
    const char *text = xmt_segment_text(t, &len);
    render_value(w, h->quote, text, len);
  } else {
    render_target(w, u, t);
  }
  w->depth--;
}

/* Index of the first hole starting at or after at. */
static size_t first_hole(const struct html_doc *doc, size_t at) {
  return xmt_lower_bound(doc->holes, doc->nholes, sizeof *doc->holes,
                         offsetof(struct html_hole, start), at);
}

/* The page bytes of [start, end) with the holes inside filled, looking at
 * holes from index from on. */
static void emit_range(struct writer *w, size_t start, size_t end,
                       size_t from) {
  const struct html_doc *doc = w->doc;
  size_t h = first_hole(doc, start);
  if (h < from)
    h = from;
  /* Holes are nested or apart: only one around the range starts with it. */
  while (h < doc->nholes && doc->holes[h].start == start &&
         doc->holes[h].end > end)
    h++;
  size_t at = start;
  while (w->st == XMT_OK && h < doc->nholes && doc->holes[h].start < end &&
         doc->holes[h].end <= end) {
    const struct html_hole *hole = &doc->holes[h];
    put_raw(w, at, hole->start);
    emit_hole(w, h);
    at = hole->end;
    while (h < doc->nholes && doc->holes[h].start < at)
      h++; /* holes inside this one were filled by it */
  }
  put_raw(w, at, end);
}

xmt_status xmt_html_doc_write_with(const struct html_doc *doc,
                                   xmt_html_target_fn target, void *target_user,
                                   const char *target_language,
                                   xmt_write_fn sink, void *user,
                                   struct xmt_error_store *err) {
  struct writer w = {.doc = doc,
                     .target = target,
                     .target_user = target_user,
                     .lang = target_language,
                     .sink = sink,
                     .user = user,
                     .err = err};
  emit_range(&w, 0, doc->len, 0);
  flush_out(&w);
  xmt_buf_free(&w.out);
  xmt_buf_free(&w.text);
  free(w.index);
  for (size_t i = 0; i < w.scratch_cap && w.scratch != NULL; i++)
    xmt_segment_free(w.scratch[i]);
  free(w.scratch);
  if (w.st != XMT_OK && err->pub.status != w.st)
    xmt_error_set(err, w.st, "%s", xmt_strerror(w.st));
  return w.st;
}

static const xmt_segment *from_array(void *user, size_t unit,
                                     xmt_segment *scratch, xmt_status *st) {
  (void)scratch, (void)st;
  return ((const xmt_segment *const *)user)[unit];
}

xmt_status xmt_html_doc_write(const struct html_doc *doc,
                              const xmt_segment *const *targets,
                              const char *target_language, xmt_write_fn sink,
                              void *user, struct xmt_error_store *err) {
  return xmt_html_doc_write_with(doc, targets != NULL ? from_array : NULL,
                                 (void *)targets, target_language, sink, user,
                                 err);
}

/* --- Units ----------------------------------------------------------------
 */

xmt_status xmt_html_doc_units(const struct html_doc *doc, const char *original,
                              const char *source_language,
                              const char *target_language,
                              const struct xmt_unit_sink *sink) {
  const struct xmt_xliff_file_info info = {original, source_language,
                                           target_language, "html",
                                           XMT_UNITS_OUT_FILE_LINE};
  xmt_status st = sink->file(sink->user, &info);
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  /* each at the line the XLIFF of the units shows it on, which check
   * and report name */
  unsigned long line = XMT_UNITS_OUT_UNIT_LINE;
  for (size_t i = 0; i < doc->nunits && st == XMT_OK; i++) {
    const struct html_unit *u = &doc->units[i];
    char id[24];
    snprintf(id, sizeof id, "%u", u->id);
    const struct xmt_unit_fields in = {.id = id,
                                       .resname = u->resname,
                                       .restype = u->restype,
                                       .source_language = source_language,
                                       .target_language = target_language,
                                       .line = line,
                                       .column = 1,
                                       .translatable = 1,
                                       .preserve_space = u->preserve != 0};
    xmt_xliff_unit *unit;
    st = xmt_xliff_unit_build(&ib, &in, u->source, NULL, &unit);
    line += xmt_units_out_lines("html", u->source, NULL);
    if (st == XMT_OK)
      st = sink->unit(sink->user, unit);
  }
  xmt_ib_free(&ib);
  return st;
}

xmt_status xmt_html_doc_write_xliff(const struct html_doc *doc,
                                    const char *original,
                                    const char *source_language,
                                    const char *target_language,
                                    xmt_write_fn sink, void *user) {
  struct xmt_units_out units;
  xmt_units_out_init(&units, sink, user);
  const struct xmt_unit_sink to_text = xmt_units_out_sink_of(&units);
  xmt_status st = xmt_html_doc_units(doc, original, source_language,
                                     target_language, &to_text);
  xmt_status end = xmt_units_out_end(&units);
  return st != XMT_OK ? st : end;
}
