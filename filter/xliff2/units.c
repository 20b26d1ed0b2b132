/* units.c -- the segments of an XLIFF 2 document handed to the run as
 * unit values: one <file> per <file>, one unit per <segment>, its codes
 * marked up as XLIFF 1.2 would: x (ph, cp, a code kept whole), g (pc,
 * mrk), bx/ex (sc/ec, sm/em in one segment) or it (their ends apart),
 * numbered as pairs.c numbered them. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xliff2_private.h"

/* v in decimal at p (room for 10 digits); returns the end. snprintf's
 * format parsing was a fifth of turning a segment into a unit. */
static char *put_u(char *p, unsigned v) {
  char tmp[10];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

static char *put_s(char *p, const char *s) {
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

/* <NAME id="ID"/>, with rid="RID" and pos="POS" when given. */
static char *put_empty(char *p, const char *name, unsigned id,
                       const unsigned *rid, const char *pos) {
  p = put_s(put_s(p, "<"), name);
  p = put_s(put_u(put_s(p, " id=\""), id), "\"");
  if (rid != NULL)
    p = put_s(put_u(put_s(p, " rid=\""), *rid), "\"");
  if (pos != NULL)
    p = put_s(put_s(put_s(p, " pos=\""), pos), "\"");
  return put_s(p, "/>");
}

/* The markup of code x at tag (room for 96 bytes); returns its end. */
static char *render_tag(const struct x2_code *x, char *tag) {
  char *end;
  int pair = x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
             x->elem == X2_EM;
  switch ((enum xmt_tag_kind)x->kind) {
  case XMT_TAG_OPEN:
    if (pair)
      end = put_empty(tag, "bx", x->number, &x->number, NULL);
    else
      end = put_s(put_u(put_s(tag, "<g id=\""), x->number), "\">");
    break;
  case XMT_TAG_CLOSE:
    if (pair)
      end = put_empty(tag, "ex", x->own, &x->number, NULL);
    else
      end = put_s(tag, "</g>");
    break;
  case XMT_TAG_PLACEHOLDER:
    end = put_empty(tag, "x", x->number, NULL, NULL);
    break;
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    end = put_empty(tag, "it", x->number, NULL,
                    x->kind == XMT_TAG_ISOLATED_OPEN ? "open" : "close");
    break;
  default: /* not a kind: no tag */
    end = tag;
    break;
  }
  return end;
}

static xmt_status render_code(const struct x2_code *x, struct xmt_buf *out) {
  char tag[96];
  const char *end = render_tag(x, tag);
  return xmt_buf_append(out, tag, (size_t)(end - tag));
}

/* The name and key the unit stream gives code x (as its markup says). */
static const char *code_name(const struct x2_code *x) {
  int pair = x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
             x->elem == X2_EM;
  switch ((enum xmt_tag_kind)x->kind) {
  case XMT_TAG_OPEN:
    return pair ? "bx" : "g";
  case XMT_TAG_CLOSE:
    return pair ? "ex" : "g";
  case XMT_TAG_PLACEHOLDER:
    /* a comment or processing instruction (kept whole, no id): "?", as
     * the XLIFF 1.2 reader names it, so check does not take it for an
     * element */
    return x->elem == X2_WHOLE && x->id == X2_NONE ? "?" : "x";
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    break;
  }
  return "it";
}

/* Where a content's text and codes go: a segment, or a unit's builder. */
struct content_sink {
  xmt_status (*text)(void *to, const char *text, size_t len);
  xmt_status (*tag)(void *to, enum xmt_tag_kind kind, const char *key,
                    const char *name, const char *markup, size_t len);
  void *to;
};

/* Content c's text and codes to sink, in document order. expat's
 * character data is cut only between its pieces: valid UTF-8. */
static xmt_status walk_content(const struct x2_doc *doc,
                               const struct x2_content *c,
                               struct xmt_buf *markup,
                               const struct content_sink *sink) {
  const char *text = doc->texts.data != NULL ? doc->texts.data + c->text : "";
  size_t at = 0;
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[c->first_code + k];
    if (x->offset > at)
      st = sink->text(sink->to, text + at, x->offset - at);
    at = x->offset > at ? x->offset : at;
    xmt_buf_reset(markup);
    if (st == XMT_OK)
      st = render_code(x, markup);
    char key[16];
    *put_u(key, x->number) = '\0';
    if (st == XMT_OK)
      st = sink->tag(sink->to, (enum xmt_tag_kind)x->kind, key, code_name(x),
                     markup->data != NULL ? markup->data : "", markup->len);
  }
  if (st == XMT_OK && c->text_len > at)
    st = sink->text(sink->to, text + at, c->text_len - at);
  return st;
}

static xmt_status segment_text(void *to, const char *text, size_t len) {
  return xmt_segment_append_valid_text(to, text, len);
}

static xmt_status segment_tag(void *to, enum xmt_tag_kind kind, const char *key,
                              const char *name, const char *markup,
                              size_t len) {
  return xmt_segment_append_tag(to, kind, key, name, markup, len);
}

xmt_status xmt_x2_content_segment(const struct x2_doc *doc,
                                  const struct x2_content *c,
                                  struct xmt_buf *markup, xmt_segment *out) {
  xmt_segment_clear(out);
  const struct content_sink sink = {segment_text, segment_tag, out};
  return walk_content(doc, c, markup, &sink);
}

/* Code x to ib, as xmt_ib_put_tag hands it the tag code_name names: the
 * kind and name known here, not found again by comparing names. */
static xmt_status builder_tag(struct xmt_inline_builder *ib,
                              const struct x2_code *x) {
  char tag[96], key[16];
  size_t len = (size_t)(render_tag(x, tag) - tag);
  *put_u(key, x->number) = '\0';
  int pair = x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
             x->elem == X2_EM;
  switch ((enum xmt_tag_kind)x->kind) {
  case XMT_TAG_OPEN:
    return pair ? xmt_ib_code(ib, XMT_TAG_ISOLATED_OPEN, "bx", key, tag, len)
                : xmt_ib_open(ib, "g", key, tag, len);
  case XMT_TAG_CLOSE:
    return pair ? xmt_ib_code(ib, XMT_TAG_ISOLATED_CLOSE, "ex", key, tag, len)
                : xmt_ib_close(ib, tag, len);
  case XMT_TAG_PLACEHOLDER:
    return xmt_ib_code(ib, XMT_TAG_PLACEHOLDER, code_name(x), key, tag, len);
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    return xmt_ib_code(ib, (enum xmt_tag_kind)x->kind, "it", key, tag, len);
  }
  return xmt_ib_code(ib, XMT_TAG_ISOLATED_OPEN, "it", key, tag, len);
}

/* Content c's text and codes to ib, as xmt_unit_build_segment hands it
 * those of xmt_x2_content_segment's segment: the unit is built straight
 * from the document, not from a segment made and walked first. The text
 * is expat's: nothing in it that XML cannot carry. */
static xmt_status fill_content(const struct x2_doc *doc,
                               const struct x2_content *c,
                               struct xmt_inline_builder *ib) {
  const char *text = doc->texts.data != NULL ? doc->texts.data + c->text : "";
  size_t at = 0;
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[c->first_code + k];
    if (x->offset > at) {
      st = xmt_ib_text(ib, text + at, x->offset - at);
      at = x->offset;
    }
    if (st == XMT_OK)
      st = builder_tag(ib, x);
  }
  if (st == XMT_OK && c->text_len > at)
    st = xmt_ib_text(ib, text + at, c->text_len - at);
  return st;
}

struct fill {
  const struct x2_doc *doc;
  const struct x2_segment *s;
  struct xmt_buf *work;
};

static xmt_status fill_side(void *user, int target,
                            struct xmt_inline_builder *ib) {
  const struct fill *f = user;
  return fill_content(f->doc, target ? &f->s->target : &f->s->source, ib);
}

/* Code x as the builder makes it: its name, and its kind in *kind (bx
 * and ex, which it pairs, their ends; a pair's ends as the unit stream
 * names them). NULL for what is not a kind. */
static const char *straight_name(const struct x2_code *x,
                                 enum xmt_tag_kind *kind) {
  int pair = x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
             x->elem == X2_EM;
  *kind = (enum xmt_tag_kind)x->kind;
  switch (*kind) {
  case XMT_TAG_OPEN:
    return pair ? "bx" : "g";
  case XMT_TAG_CLOSE:
    return pair ? "ex" : "g";
  case XMT_TAG_PLACEHOLDER:
    return code_name(x);
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    return "it";
  }
  return NULL;
}

/* Pairs in a content made straight at most: the builder then compares
 * their keys pair by pair (keys_distinct), and most have a few. */
#define STRAIGHT_PAIRS 16

/* A code's record: its key's length, its markup's, its kind, its name
 * (one of straight_name's, 1 or 2 bytes), then its key and markup. */
#define HEAD (3 + sizeof(const char *))

/* Each code's key and markup of content c, as fill_content hands them
 * to the builder, in work (written in place) as records; the room the
 * segment's strings take in *pool. 0 when the builder would do other than
 * keep every g pair and make a pair of every bx and ex: when they do not
 * nest (each end that of the innermost start, with its key), a key is two
 * pairs' or the pairs are many (it tells keys apart), a code is past
 * the text. Nested, a bx's first ex after it with its key is its own,
 * inside the same g pairs, and no pair made before it ends between
 * them: the builder pairs them. */
static int straight_codes(const struct x2_doc *doc, const struct x2_content *c,
                          struct xmt_buf *work, size_t *pool) {
  unsigned open[STRAIGHT_PAIRS], opened[STRAIGHT_PAIRS];
  unsigned char open_bx[STRAIGHT_PAIRS];
  size_t nopen = 0, nopened = 0;
  enum { MOST = HEAD + 10 + 96 }; /* a code's record at most */
  xmt_buf_reset(work);
  *pool = 0;
  if (c->ncodes > SIZE_MAX / MOST - 1 ||
      xmt_buf_grow(work, c->ncodes * MOST) != XMT_OK)
    return 0; /* the builder fails alike */
  char *rec = work->data;
  for (size_t k = 0; k < c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[c->first_code + k];
    enum xmt_tag_kind kind;
    const char *name = straight_name(x, &kind);
    if (name == NULL || x->offset > c->text_len)
      return 0;
    unsigned key = x->number;
    int bx = name[0] == 'b' || name[0] == 'e';
    if (kind == XMT_TAG_OPEN) {
      if (nopened == STRAIGHT_PAIRS)
        return 0;
      for (size_t i = 0; i < nopened; i++)
        if (opened[i] == key)
          return 0;
      opened[nopened++] = open[nopen] = key;
      open_bx[nopen++] = (unsigned char)bx;
    } else if (kind == XMT_TAG_CLOSE) {
      if (nopen == 0 || open_bx[nopen - 1] != bx ||
          (bx && open[nopen - 1] != key))
        return 0;
      key = open[--nopen]; /* the builder's: its start's */
    }
    char *p = rec + HEAD, *key_end = put_u(p, key);
    char *end = render_tag(x, key_end);
    rec[0] = (char)(key_end - p);
    rec[1] = (char)(end - key_end);
    rec[2] = (char)kind;
    memcpy(rec + 3, &name, sizeof name);
    *pool += (size_t)(end - p) + (name[1] == '\0' ? 1 : 2) + 3;
    rec = end;
  }
  work->len = (size_t)(rec - work->data);
  return nopen == 0;
}

/* Content c made into a segment as fill_content and the builder make
 * it, without the builder, when straight_codes says it changes nothing:
 * the text whole, then each code at its offset. */
static xmt_status make_content(const struct x2_doc *doc,
                               const struct x2_content *c, struct xmt_buf *work,
                               xmt_segment **out) {
  size_t pool;
  if (!straight_codes(doc, c, work, &pool))
    return XMT_OK;
  xmt_segment *seg = xmt_segment_new_sized(c->text_len, pool, c->ncodes);
  if (seg == NULL)
    return XMT_ERR_NOMEM;
  const char *text = doc->texts.data != NULL ? doc->texts.data + c->text : "";
  xmt_status st = XMT_OK;
  if (c->text_len > 0)
    st = xmt_segment_append_valid_text(seg, text, c->text_len);
  const char *rec = work->data;
  size_t at = 0;
  for (size_t k = 0; st == XMT_OK && k < c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[c->first_code + k];
    const char *name;
    memcpy(&name, rec + 3, sizeof name);
    size_t key_len = (unsigned char)rec[0], len = (unsigned char)rec[1];
    at = x->offset > at ? x->offset : at;
    st = xmt_segment_put_tag(seg, at, (enum xmt_tag_kind)rec[2], rec + HEAD,
                             key_len, name, name[1] == '\0' ? 1 : 2,
                             rec + HEAD + key_len, len);
    rec += HEAD + key_len + len;
  }
  if (st != XMT_OK) {
    xmt_segment_free(seg);
    return st;
  }
  *out = seg;
  return XMT_OK;
}

static xmt_status make_side(void *user, int target, xmt_segment **out) {
  const struct fill *f = user;
  return make_content(f->doc, target ? &f->s->target : &f->s->source, f->work,
                      out);
}

/* The line breaks of seg's text: an XLIFF 2 unit's lines in the XLIFF
 * of the units are one (units_out.c writes it on one line) and these. */
static unsigned long text_breaks(const xmt_segment *seg) {
  size_t len;
  const char *text = xmt_segment_text(seg, &len), *p = text, *end = text + len;
  unsigned long n = 0;
  while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    n++;
    p++;
  }
  return n;
}

/* The unit of a segment; one locked by its state (reviewed, final) is
 * not to be translated unless targets are overwritten; one of a unit whose
 * targets have an order of their own is never (a new target in its
 * segment's place would break, or collide with, the order composed), nor
 * one the writer would leave as it is (left): translating it would be
 * work thrown away, and counted as done. A copy of the source in state
 * initial is no translation: the unit has no target then. */
static xmt_status build_unit(struct x2_units *u, const struct x2_doc *doc,
                             const struct x2_segment *s, int left,
                             xmt_xliff_unit **unit) {
  int overwrite = (u->mode & X2_UNITS_OVERWRITE) != 0;
  int locked = (s->state >= X2_REVIEWED && !overwrite) || s->reordered || left;
  /* a target of comments only is none: it is filled */
  int target = s->target.end != 0 && (s->has_target || locked) &&
               !(s->copied && !locked);
  const struct xmt_unit_fields in = {
      .id = x2_str(doc, s->key),
      .source_language = u->source_language,
      .target_language = u->target_language,
      .column = 1,
      .translatable = s->translate && !locked,
      .preserve_space = s->preserve,
      .presegmented = s->several && (u->mode & X2_UNITS_SEGMENTS_KEPT),
      .continues = s > doc->segs && s[-1].unit_tag_end == s->unit_tag_end,
      .max_chars = s->max_chars,
      .group_max = s->group_max,
      .group_scope = s->group_scope,
      .max_slr = 1};
  /* the line the XLIFF of the units has it on (units_out.c) */
  struct xmt_unit_fields at = in;
  at.line = u->out_line > u->doc_line ? u->out_line : u->doc_line;
  struct fill f = {doc, s, &u->markup};
  xmt_status st =
      xmt_xliff_unit_make(&u->ib, &at, make_side, fill_side, &f, target, unit);
  /* the unit's segments have the markup and line breaks of the content:
   * as xmt_units_out_lines counts them, less a look at each code's markup
   * (render_tag writes none) */
  if (st == XMT_OK)
    u->out_line =
        at.line + 1 + text_breaks((*unit)->whole_source) +
        ((*unit)->existing != NULL ? text_breaks((*unit)->existing) : 0);
  return st;
}

/* Lines: the unit of a segment is on the line of its <segment> when the
 * units before it leave room, so that what the run says of a unit (a
 * failure, a report's line) names the document's line; units_out.c
 * writes each on its line. */
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
 * afresh. A stream's part has counted them (s->line). */
static void doc_line(struct x2_units *u, const struct x2_doc *doc,
                     const struct x2_segment *s) {
  if (s->line != 0) {
    u->doc_line = s->line;
    return;
  }
  if (u->doc != doc) {
    u->doc = doc;
    u->doc_at = 0;
    u->doc_line = doc->lines_before + 1;
  }
  u->doc_line += count_lines(doc->data.data, u->doc_at, s->start);
  u->doc_at = s->start;
}

void xmt_x2_units_begin(struct x2_units *u, const char *source_language,
                        const char *target_language, unsigned mode,
                        const struct xmt_unit_sink *sink) {
  memset(u, 0, sizeof *u);
  u->sink = sink;
  u->source_language = source_language;
  u->target_language = target_language;
  u->mode = mode;
  u->plan_unit_end = X2_NONE;
  u->out_line = XMT_UNITS_OUT_FILE_LINE;
  xmt_ib_init(&u->ib);
}

xmt_status xmt_x2_units_files(struct x2_units *u, const struct x2_doc *names,
                              size_t nfiles) {
  for (; u->st == XMT_OK && u->files < nfiles; u->files++) {
    if (u->files > 0)
      u->out_line += XMT_UNITS_OUT_FILE_END_LINES;
    const struct xmt_xliff_file_info info = {
        names->names.data + names->files[u->files].name, u->source_language,
        u->target_language, X2_DATATYPE, u->out_line};
    u->out_line += XMT_UNITS_OUT_UNIT_LINE - XMT_UNITS_OUT_FILE_LINE;
    u->st = u->sink->file(u->sink->user, &info);
  }
  return u->st;
}

xmt_status xmt_x2_units_segment(struct x2_units *u, const struct x2_doc *doc,
                                const struct x2_segment *s) {
  if (u->st != XMT_OK)
    return u->st;
  doc_line(u, doc, s);
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
  xmt_xliff_unit *unit = NULL;
  u->st = build_unit(u, doc, s, left, &unit);
  /* Last: once its last segment is handed over, the part of doc may be
   * written and freed. */
  if (u->st == XMT_OK)
    u->st = u->sink->unit(u->sink->user, unit);
  return u->st;
}

xmt_status xmt_x2_units_end(struct x2_units *u, const struct x2_doc *names) {
  if (u->st == XMT_OK)
    xmt_x2_units_files(u, names, names->nfiles);
  xmt_ib_free(&u->ib);
  xmt_buf_free(&u->markup);
  return u->st;
}

xmt_status xmt_x2_units(const struct x2_doc *doc, const char *source_language,
                        const char *target_language, unsigned mode,
                        const struct xmt_unit_sink *sink) {
  struct x2_units u;
  xmt_x2_units_begin(&u, source_language, target_language, mode, sink);
  for (size_t seg = 0; u.st == XMT_OK && seg < doc->nsegs; seg++) {
    const struct x2_segment *s = &doc->segs[seg];
    if (xmt_x2_units_files(&u, doc, s->file + 1) == XMT_OK)
      xmt_x2_units_segment(&u, doc, s);
  }
  return xmt_x2_units_end(&u, doc);
}

xmt_status xmt_x2_render(const struct x2_doc *doc, const struct x2_content *c,
                         struct xmt_buf *out) {
  struct xmt_buf markup = {0};
  xmt_segment *seg = xmt_segment_new();
  xmt_status st = seg != NULL ? xmt_x2_content_segment(doc, c, &markup, seg)
                              : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = xmt_inline_render_into(out, seg);
  xmt_segment_free(seg);
  xmt_buf_free(&markup);
  return st;
}
