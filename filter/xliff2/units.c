/* units.c -- the segments of an XLIFF 2 document handed to the unit
 * reader as XLIFF 1.2: one <file> per <file>, one trans-unit per
 * <segment>, its codes as x (ph, cp, a code kept whole), g (pc, mrk), bx/ex
 * (sc/ec, sm/em in one segment) or it (their ends apart), numbered as
 * pairs.c numbered them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "xliff2_private.h"

static xmt_status render_code(const struct x2_code *x, struct xmt_buf *out) {
  char tag[96];
  int pair = x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
             x->elem == X2_EM;
  switch ((enum xmt_tag_kind)x->kind) {
  case XMT_TAG_OPEN:
    if (pair)
      snprintf(tag, sizeof tag, "<bx id=\"%u\" rid=\"%u\"/>", x->number,
               x->number);
    else
      snprintf(tag, sizeof tag, "<g id=\"%u\">", x->number);
    break;
  case XMT_TAG_CLOSE:
    if (pair)
      snprintf(tag, sizeof tag, "<ex id=\"%u\" rid=\"%u\"/>", x->own,
               x->number);
    else
      snprintf(tag, sizeof tag, "</g>");
    break;
  case XMT_TAG_PLACEHOLDER:
    snprintf(tag, sizeof tag, "<x id=\"%u\"/>", x->number);
    break;
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    snprintf(tag, sizeof tag, "<it id=\"%u\" pos=\"%s\"/>", x->number,
             x->kind == XMT_TAG_ISOLATED_OPEN ? "open" : "close");
    break;
  }
  return xmt_buf_append_str(out, tag);
}

xmt_status xmt_x2_render(const struct x2_doc *doc, const struct x2_content *c,
                         struct xmt_buf *out) {
  const char *text = doc->texts.data != NULL ? doc->texts.data + c->text : "";
  size_t at = 0;
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[c->first_code + k];
    if (x->offset > at)
      st = xmt_xml_escape_text(out, text + at, x->offset - at);
    at = x->offset > at ? x->offset : at;
    if (st == XMT_OK)
      st = render_code(x, out);
  }
  if (st == XMT_OK && c->text_len > at)
    st = xmt_xml_escape_text(out, text + at, c->text_len - at);
  return st;
}

/* One trans-unit; a segment locked by its state (reviewed, final) is not
 * to be translated unless targets are overwritten; one of a unit whose
 * targets have an order of their own is never (a new target in its
 * segment's place would break, or collide with, the order composed), nor
 * one the writer would leave as it is (left): translating it would be
 * work thrown away, and counted as done. */
static xmt_status put_segment(const struct x2_doc *doc,
                              const struct x2_segment *s, int overwrite,
                              int left, struct xmt_buf *out) {
  int locked = (s->state >= X2_REVIEWED && !overwrite) || s->reordered || left;
  xmt_status st = xmt_buf_append_str(out, "<trans-unit id=\"");
  if (st == XMT_OK)
    st = xmt_xml_escape_attr(out, x2_str(doc, s->key));
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "\"");
  if (st == XMT_OK && (!s->translate || locked))
    st = xmt_buf_append_str(out, " translate=\"no\"");
  if (st == XMT_OK && s->preserve)
    st = xmt_buf_append_str(out, " xml:space=\"preserve\"");
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "><source>");
  if (st == XMT_OK)
    st = xmt_x2_render(doc, &s->source, out);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "</source>");
  /* a copy of the source in state initial is no translation */
  if (st == XMT_OK && s->target.end != 0 && !(s->copied && !locked)) {
    st = xmt_buf_append_str(out, "<target>");
    if (st == XMT_OK)
      st = xmt_x2_render(doc, &s->target, out);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "</target>");
  }
  return st == XMT_OK ? xmt_buf_append_str(out, "</trans-unit>\n") : st;
}

/* Lines: the trans-unit of a segment starts on the line of the <segment>
 * when it can, so that what the run says of a unit (a failure, a report's
 * line) names the document's line. */
static unsigned long count_lines(const char *s, size_t from, size_t to) {
  unsigned long n = 0;
  const char *p = s + from, *end = s + to, *nl;
  while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    n++;
    p = nl + 1;
  }
  return n;
}

/* doc_line counts the lines of doc up to doc_at; a new part starts
 * afresh. */
static xmt_status align_line(struct x2_units *u, const struct x2_doc *doc,
                             const struct x2_segment *s) {
  struct xmt_buf *out = &u->out.buf;
  size_t flushed = u->out.flushed;
  if (u->doc != doc) {
    u->doc = doc;
    u->doc_at = 0;
    u->doc_line = doc->lines_before + 1;
  }
  u->doc_line += count_lines(doc->data.data, u->doc_at, s->start);
  u->doc_at = s->start;
  u->out_line += count_lines(out->data, u->out_at - flushed, out->len);
  u->out_at = flushed + out->len;
  xmt_status st = XMT_OK;
  for (; st == XMT_OK && u->out_line < u->doc_line; u->out_line++, u->out_at++)
    st = xmt_buf_append_byte(out, '\n');
  return st;
}

void xmt_x2_units_begin(struct x2_units *u, const char *source_language,
                        const char *target_language, unsigned mode,
                        xmt_write_fn sink, void *user) {
  memset(u, 0, sizeof *u);
  xmt_units_out_init(&u->out, sink, user);
  u->source_language = source_language;
  u->target_language = target_language;
  u->mode = mode;
  u->plan_unit_end = X2_NONE;
  u->out_line = 1;
}

xmt_status xmt_x2_units_files(struct x2_units *u, const struct x2_doc *names,
                              size_t nfiles) {
  for (; u->out.st == XMT_OK && u->files < nfiles; u->files++) {
    if (u->files > 0)
      xmt_units_out_file_end(&u->out);
    xmt_units_out_file(&u->out, names->names.data + names->files[u->files].name,
                       u->source_language, u->target_language, "x-xliff2");
  }
  return u->out.st;
}

xmt_status xmt_x2_units_segment(struct x2_units *u, const struct x2_doc *doc,
                                const struct x2_segment *s) {
  if (u->out.st != XMT_OK)
    return u->out.st;
  xmt_status st = align_line(u, doc, s);
  /* what the writer leaves alone (not when targets are written as
   * matches: the writer then leaves every target as it is) */
  int left = 0;
  int overwrite = (u->mode & X2_UNITS_OVERWRITE) != 0;
  if (!(u->mode & X2_UNITS_MATCHES)) {
    size_t i = (size_t)(s - doc->segs);
    if (u->plan_doc != doc || u->plan_unit_end != s->unit_end) {
      u->plan_doc = doc;
      u->plan_unit_end = s->unit_end;
      u->plan = xmt_x2_unit_plan(doc, i, overwrite);
    }
    left = u->plan < 0 || xmt_x2_target_kept(doc, i, overwrite);
  }
  if (st == XMT_OK)
    st = put_segment(doc, s, overwrite, left, &u->out.buf);
  /* Counted now: a full block is handed over below. */
  u->out_line +=
      count_lines(u->out.buf.data, u->out_at - u->out.flushed, u->out.buf.len);
  u->out_at = u->out.flushed + u->out.buf.len;
  return xmt_units_out_unit_done(&u->out, st);
}

xmt_status xmt_x2_units_end(struct x2_units *u, const struct x2_doc *names) {
  xmt_x2_units_files(u, names, names->nfiles);
  if (u->files > 0)
    xmt_units_out_file_end(&u->out);
  return xmt_units_out_end(&u->out);
}

xmt_status xmt_x2_units(const struct x2_doc *doc, const char *source_language,
                        const char *target_language, unsigned mode,
                        xmt_write_fn sink, void *user) {
  struct x2_units u;
  xmt_x2_units_begin(&u, source_language, target_language, mode, sink, user);
  for (size_t seg = 0; u.out.st == XMT_OK && seg < doc->nsegs; seg++) {
    const struct x2_segment *s = &doc->segs[seg];
    if (xmt_x2_units_files(&u, doc, s->file + 1) == XMT_OK)
      xmt_x2_units_segment(&u, doc, s);
  }
  return xmt_x2_units_end(&u, doc);
}
