/* write.c -- writes a parsed page back with its units translated (the
 * typed targets of target.c walked as they are); hands
 * its units out as values, and as an XLIFF 1.2 document (written by the
 * one writer of units as text, format/units_out.c). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_private.h"

/* Output is handed to the sink in blocks of about this size. */
#define BLOCK 65536

struct writer {
  const struct html_doc *doc;
  const struct html_target *const *targets; /* per unit; NULL: source */
  const char *lang;
  xmt_write_fn sink;
  void *user;
  struct xmt_buf out;
  struct xmt_buf text; /* scratch: escaped UTF-8 */
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
  const char *s = page_at(html_doc_view(w->doc), start);
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
                          const struct html_target *target) {
  size_t at = 0;
  const char *text = html_target_ctext(target);
  const struct html_code *prev = NULL;
  for (size_t k = 0; w->st == XMT_OK && k < target->ncodes; k++) {
    const struct html_target_code *c = &target->codes[k];
    if (c->code == SIZE_MAX) {
      w->st = xmt_error_set(w->err, XMT_ERR_INLINE,
                            "unit %u: the target has a code (id \"%s\") "
                            "its source does not have",
                            u->id, html_target_bad_id(target));
      return;
    }
    const struct html_code *code = &w->doc->codes[u->first_code + c->code];
    put_piece(w, u, text + at, c->offset - at, prev, code);
    emit_range(w, code->start, code->end, 0);
    prev = code;
    at = c->offset;
  }
  if (w->st == XMT_OK)
    put_piece(w, u, text + at, target->len - at, prev, NULL);
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

static int to_buf(void *user, const char *data, size_t len) {
  return xmt_buf_append(user, data, len) != XMT_OK;
}

/* An iframe's srcdoc: its page written with its units' targets, then
 * escaped as the value's quote needs (&amp;, &lt;, &gt;, &quot; or
 * &#39;; an unquoted value gets double quotes); its bytes as they were
 * when none of its units has a target. */
static void emit_frame(struct writer *w, const struct html_hole *h) {
  const struct html_doc *frame = h->frame;
  int any = 0;
  for (size_t k = 0; w->targets != NULL && k < frame->nunits; k++)
    any |= w->targets[h->unit + k] != NULL;
  if (!any) {
    put_raw(w, h->start, h->end);
    return;
  }
  struct xmt_buf page = {0};
  w->st = xmt_html_doc_write_targets(frame, w->targets + h->unit, w->lang,
                                     to_buf, &page, w->err);
  char quote = h->quote != 0 ? h->quote : '"';
  xmt_buf_reset(&w->text);
  if (w->st == XMT_OK && h->quote == 0)
    w->st = xmt_buf_append(&w->text, "\"", 1);
  for (size_t i = 0; w->st == XMT_OK && i < page.len; i++) {
    char c = page.data[i];
    const char *e = c == '&'     ? "&amp;"
                    : c == '<'   ? "&lt;"
                    : c == '>'   ? "&gt;"
                    : c == quote ? (quote == '"' ? "&quot;" : "&#39;")
                                 : NULL;
    w->st = e != NULL ? xmt_buf_append_str(&w->text, e)
                      : xmt_buf_append_byte(&w->text, c);
  }
  if (w->st == XMT_OK && h->quote == 0)
    w->st = xmt_buf_append(&w->text, "\"", 1);
  if (w->st == XMT_OK)
    w->st =
        xmt_encode(w->doc->charset.out, w->text.data, w->text.len, 1, &w->out);
  xmt_buf_free(&page);
  if (w->st == XMT_OK && w->out.len >= BLOCK)
    flush_out(w);
}

static void emit_hole(struct writer *w, size_t index) {
  const struct html_hole *h = &w->doc->holes[index];
  if (h->kind == HOLE_FRAME) {
    if (w->st == XMT_OK)
      emit_frame(w, h);
    return;
  }
  const struct html_unit *u =
      h->kind != HOLE_LANG ? &w->doc->units[h->unit] : NULL;
  const struct html_target *t =
      u != NULL && w->targets != NULL ? w->targets[h->unit] : NULL;
  if (w->st != XMT_OK)
    return;
  if (t != NULL && t->st == XMT_ERR_INLINE) {
    w->st = xmt_error_set(w->err, XMT_ERR_INLINE,
                          "unit %u: the target has a code (id \"%s\") "
                          "without its other end, before it or across "
                          "another pair: the page's element would be left "
                          "open or closed unopened",
                          u->id, html_target_bad_id(t));
    return;
  }
  if (t != NULL && t->st != XMT_OK) {
    w->st = t->st;
    return;
  }
  if (h->kind == HOLE_LANG) {
    if (w->lang != NULL)
      render_value(w, h->quote, w->lang, strlen(w->lang));
    else
      put_raw(w, h->start, h->end);
  } else if (t == NULL) {
    if (h->kind == HOLE_TEXT) /* the holes inside it, not itself */
      emit_range(w, h->start, h->end, index + 1);
    else
      put_raw(w, h->start, h->end);
  } else if (h->kind == HOLE_ATTR) {
    render_value(w, h->quote, html_target_ctext(t), t->len);
  } else {
    render_target(w, u, t);
  }
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

xmt_status xmt_html_doc_write_range(const struct html_doc *doc,
                                    const struct html_target *const *targets,
                                    const char *target_language, size_t start,
                                    size_t end, xmt_write_fn sink, void *user,
                                    struct xmt_error_store *err) {
  struct writer w = {.doc = doc,
                     .targets = targets,
                     .lang = target_language,
                     .sink = sink,
                     .user = user,
                     .err = err};
  /* Room for the range's bytes at once, not a chain of reallocs a piece. */
  size_t room = end > start ? end - start : 0;
  if (room > 0 && xmt_buf_grow(&w.out, room < BLOCK ? room : BLOCK) != XMT_OK)
    w.st = XMT_ERR_NOMEM;
  emit_range(&w, start, end, 0);
  flush_out(&w);
  xmt_buf_free(&w.out);
  xmt_buf_free(&w.text);
  if (w.st != XMT_OK && err->pub.status != w.st)
    xmt_error_set(err, w.st, "%s", xmt_strerror(w.st));
  return w.st;
}

xmt_status xmt_html_doc_write_targets(const struct html_doc *doc,
                                      const struct html_target *const *targets,
                                      const char *target_language,
                                      xmt_write_fn sink, void *user,
                                      struct xmt_error_store *err) {
  return xmt_html_doc_write_range(doc, targets, target_language, 0, doc->len,
                                  sink, user, err);
}

xmt_status xmt_html_doc_write(const struct html_doc *doc,
                              const xmt_segment *const *targets,
                              const char *target_language, xmt_write_fn sink,
                              void *user, struct xmt_error_store *err) {
  struct html_target **taken = NULL;
  struct html_taker pk = {0};
  xmt_status st = XMT_OK;
  if (targets != NULL && (taken = calloc(doc->nunits > 0 ? doc->nunits : 1,
                                         sizeof *taken)) == NULL)
    st = XMT_ERR_NOMEM;
  for (size_t i = 0; st == XMT_OK && targets != NULL && i < doc->nunits; i++)
    if (targets[i] != NULL)
      st = xmt_html_target_take(&pk, doc, i, targets[i], &taken[i]);
  xmt_html_taker_free(&pk);
  if (st == XMT_OK)
    st = xmt_html_doc_write_targets(doc,
                                    (const struct html_target *const *)taken,
                                    target_language, sink, user, err);
  else
    xmt_error_set(err, st, "%s", xmt_strerror(st));
  for (size_t i = 0; taken != NULL && i < doc->nunits; i++)
    free(taken[i]);
  free(taken);
  return st;
}

/* --- Units ----------------------------------------------------------------
 */

/* Where each unit starts, as a line and a column (in characters of
 * UTF-8, bytes of a page in another encoding). An attribute's unit comes
 * after its element's text but starts before it, so the units are placed
 * in the order of their starts: the page is counted once, however its
 * units are ordered (counting again from the top at each step back was
 * quadratic in the number of attributes). */
struct unit_place {
  unsigned long line, column;
};

struct page_units {
  const struct html_doc *doc;
  const struct unit_place *places;
};

struct unit_start {
  size_t start, index;
};

static int by_start(const void *a, const void *b) {
  const struct unit_start *x = a, *y = b;
  return (x->start > y->start) - (x->start < y->start);
}

static struct unit_place *place_units(const struct html_doc *doc) {
  size_t n = doc->nunits > 0 ? doc->nunits : 1;
  struct unit_place *places = calloc(n, sizeof *places);
  struct unit_start *order = malloc(n * sizeof *order);
  if (places == NULL || order == NULL) {
    free(places);
    free(order);
    return NULL;
  }
  for (size_t i = 0; i < doc->nunits; i++)
    order[i] = (struct unit_start){doc->units[i].start, i};
  qsort(order, doc->nunits, sizeof *order, by_start);
  int utf8 = doc->charset.decode == XMT_ENC_UTF8 || doc->charset.utf16;
  unsigned long line = 1, column = 1;
  size_t pos = 0;
  struct html_view page = html_doc_view(doc);
  for (size_t k = 0; k < doc->nunits; k++) {
    for (; pos < order[k].start && pos < doc->len; pos++) {
      char ch = page_byte(page, pos);
      if (ch == '\n') {
        line++;
        column = 1;
      } else if (!utf8 || !xmt_utf8_is_cont(ch)) {
        column++;
      }
    }
    places[order[k].index] = (struct unit_place){line, column};
  }
  free(order);
  return places;
}

/* The i-th unit of a page, for the feed, at its place in the page. */
static void unit_at(void *d, size_t i, struct xmt_feed_unit *out) {
  const struct page_units *p = d;
  const struct html_unit *u = &p->doc->units[i];
  *out = (struct xmt_feed_unit){.id = u->id,
                                .resname = u->resname,
                                .restype = u->restype,
                                .source = u->source,
                                .preserve_space = u->preserve != 0,
                                .line = p->places[i].line,
                                .column = p->places[i].column};
}

xmt_status xmt_html_doc_units(const struct html_doc *doc, const char *original,
                              const char *source_language,
                              const char *target_language,
                              const struct xmt_unit_sink *sink) {
  const struct xmt_unit_feed feed = {original, source_language, target_language,
                                     "html", doc->nunits};
  struct page_units p = {doc, place_units(doc)};
  if (p.places == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = xmt_unit_feed(&feed, &p, unit_at, sink);
  free((void *)p.places);
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
