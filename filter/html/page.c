/* page.c -- the HTML reader: finds the translatable units of a page
 * (text of block elements with their inline elements as codes, translatable
 * attributes) as a browser would structure the page, and records the byte
 * ranges the writer replaces. Everything else is never touched.
 *
 * This file holds the builder's helpers, the build loop and loading; the
 * tree walk is in page_walk.c, the text units in page_units.c, the state
 * they share in page_private.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "page_private.h"

/* The value of attribute name of tok, decoded into b->text; 0 if absent. */
int xmt_page_attr_value(struct builder *b, const struct html_token *tok,
                        const char *name) {
  for (size_t i = 0; i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    if (a->duplicate || !page_name_is(b->page, a->name, a->name_end, name))
      continue;
    xmt_buf_reset(&b->text);
    if (xmt_html_decode(&b->doc->charset, page_at(b->page, a->value),
                        a->value_end - a->value, 1, &b->text) != XMT_OK ||
        xmt_buf_append(&b->text, "", 0) != XMT_OK)
      return fail(b, XMT_ERR_NOMEM);
    return 1;
  }
  return 0;
}

/* 1 when the space-separated list s holds word. */
int xmt_page_has_word(const char *s, const char *word) {
  size_t n = strlen(word);
  while (*s != '\0') {
    while (html_is_space(*s))
      s++;
    size_t k = 0;
    while (s[k] != '\0' && !html_is_space(s[k]))
      k++;
    if (k == n && strncmp(s, word, n) == 0)
      return 1;
    s += k;
  }
  return 0;
}

/* Collapses whitespace runs of buf to single spaces; trim also drops them
 * at both ends. */
void xmt_page_normalize(struct xmt_buf *buf, int trim) {
  size_t w = 0;
  int space = 0;
  for (size_t r = 0; r < buf->len; r++) {
    if (html_is_space(buf->data[r])) {
      space = 1;
      continue;
    }
    if (space && (w > 0 || !trim))
      buf->data[w++] = ' ';
    space = 0;
    buf->data[w++] = buf->data[r];
  }
  if (space && !trim)
    buf->data[w++] = ' ';
  buf->len = w;
  if (buf->data != NULL)
    buf->data[w] = '\0';
}

/* 1 when text has something besides spaces and no-break spaces. */
int xmt_page_has_content(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (html_is_space(s[i]))
      continue;
    if ((unsigned char)s[i] == 0xC2 && i + 1 < len &&
        (unsigned char)s[i + 1] == 0xA0) {
      i++;
      continue;
    }
    return 1;
  }
  return 0;
}

void xmt_page_add_hole(struct builder *b, enum html_hole_kind kind,
                       size_t start, size_t end, size_t unit, char quote) {
  struct html_doc *d = b->doc;
  if (d->nholes == d->holes_cap) {
    struct html_hole *h = grow(d->holes, &d->holes_cap, sizeof *h);
    if (h == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return;
    }
    d->holes = h;
  }
  struct html_hole *h = &d->holes[d->nholes++];
  h->start = start;
  h->end = end;
  h->kind = kind;
  h->unit = unit;
  h->quote = quote;
  h->frame = NULL;
}

/* A new unit, numbered after the last, its source source (the unit's from
 * then on) or a new empty one when NULL; NULL when out of memory (source
 * still the caller's). */
struct html_unit *xmt_page_new_unit(struct builder *b, size_t start, size_t end,
                                    const char *restype, const char *resname,
                                    xmt_segment *source) {
  struct html_doc *d = b->doc;
  if (d->nunits == d->units_cap) {
    struct html_unit *u = grow(d->units, &d->units_cap, sizeof *u);
    if (u == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return NULL;
    }
    d->units = u;
  }
  struct html_unit *u = &d->units[d->nunits];
  memset(u, 0, sizeof *u);
  u->id = (unsigned)(d->unit_base + d->nunits) + 1;
  u->start = start;
  u->end = end;
  copy_cut(u->restype, sizeof u->restype, restype);
  u->source = source != NULL ? source : xmt_segment_new();
  if (u->source == NULL ||
      (resname != NULL && (u->resname = xmt_strdup(resname)) == NULL)) {
    if (source == NULL)
      xmt_segment_free(u->source);
    fail(b, XMT_ERR_NOMEM);
    return NULL;
  }
  d->nunits++;
  return u;
}

static int hole_cmp(const void *a, const void *b) {
  const struct html_hole *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end) /* the outer one first */
    return x->end > y->end ? -1 : 1;
  return 0;
}

void xmt_page_builder_free(struct builder *b) {
  xmt_page_pop_to(b, 0, b->doc->len);
  free(b->stack);
  free(b->items);
  free(b->open);
  free(b->crossed);
  free(b->resname);
  free(b->meta_lang);
  xmt_buf_free(&b->text);
  xmt_buf_free(&b->markup);
}

void xmt_page_builder_init(struct builder *b, struct html_doc *doc,
                           struct html_lexer *lx) {
  memset(b, 0, sizeof *b);
  b->doc = doc;
  b->page = html_doc_view(doc);
  b->ph_item = NONE;
  xmt_html_lexer_init(lx);
  /* A byte order mark stays, but is no text. */
  if (doc->len >= 3 && memcmp(doc->bytes, "\xEF\xBB\xBF", 3) == 0)
    lx->pos = 3;
}

void xmt_page_builder_end(struct builder *b) {
  if (b->ph_item != NONE) { /* skipped up to the end of the page */
    b->items[b->ph_item].end = b->doc->len;
    b->ph_item = NONE;
  }
  xmt_page_flush_run(b);
  if (b->doc->lang == NULL && b->meta_lang != NULL) {
    b->doc->lang = b->meta_lang;
    b->meta_lang = NULL;
  }
}

void xmt_page_sort_holes(struct html_hole *holes, size_t n) {
  if (n > 1)
    qsort(holes, n, sizeof *holes, hole_cmp);
}

static xmt_status build(struct html_doc *doc, const char **why) {
  struct builder b;
  struct html_lexer lx;
  struct html_token tok;
  xmt_page_builder_init(&b, doc, &lx);
  int r = 0;
  while (b.st == XMT_OK &&
         (r = xmt_html_lex(&lx, html_doc_view(doc), 1, &tok)) > 0)
    xmt_page_on_token(&b, &tok);
  if (r < 0)
    fail(&b, XMT_ERR_NOMEM);
  xmt_html_lexer_free(&lx);
  xmt_page_builder_end(&b);
  xmt_page_builder_free(&b);
  if (b.st == XMT_OK)
    xmt_page_sort_holes(doc->holes, doc->nholes);
  *why = b.why;
  return b.st;
}

/* --- Loading ----------------------------------------------------------------
 */

void xmt_html_free_frames(struct html_hole *holes, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (holes[i].frame != NULL) {
      xmt_html_doc_free(holes[i].frame);
      free(holes[i].frame);
      holes[i].frame = NULL;
    }
}

void xmt_html_doc_free(struct html_doc *doc) {
  if (doc == NULL)
    return;
  for (size_t i = 0; i < doc->nunits; i++) {
    xmt_segment_free(doc->units[i].source);
    free(doc->units[i].resname);
  }
  free(doc->units);
  free(doc->codes);
  xmt_html_free_frames(doc->holes, doc->nholes);
  free(doc->holes);
  free(doc->lang);
  free(doc->bytes);
  if (doc->rest != NULL)
    fclose(doc->rest);
  memset(doc, 0, sizeof *doc);
}

/* Line and column (in characters) of byte offset at. */
static void position(const char *data, size_t at, int utf8, unsigned long *line,
                     unsigned long *column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < at; i++) {
    if (data[i] == '\n') {
      ++*line;
      *column = 1;
    } else if (!utf8 || !xmt_utf8_is_cont(data[i])) {
      ++*column;
    }
  }
}

/* Bytes that are not UTF-8 in data, each counted as decoding reads it (one
 * U+FFFD per byte); *first is the offset of the first. */
static size_t invalid_utf8(const char *data, size_t len, size_t *first) {
  size_t n = 0;
  size_t i = xmt_utf8_valid_prefix(data, len);
  *first = i;
  while (i < len) {
    n++;
    i++;
    i += xmt_utf8_valid_prefix(data + i, len - i);
  }
  return n;
}

xmt_status xmt_html_not_utf8(struct xmt_error_store *err, const char *name,
                             unsigned char byte, size_t n, unsigned long line,
                             unsigned long column) {
  return xmt_error_at(err, XMT_ERR_ENCODING, XMT_AT(name, line, column),
                      "byte 0x%02X is not UTF-8, the page's encoding (%zu such "
                      "byte%s; --encoding-errors=replace reads them as U+FFFD)",
                      (unsigned)byte, n, n == 1 ? "" : "s");
}

/* A page that says it is UTF-8 and is not would lose its accents to
 * U+FFFD without a word: bytes, the whole page, checked. */
static xmt_status check_utf8(struct html_doc *doc, const char *bytes,
                             size_t len, const char *name,
                             struct xmt_error_store *err) {
  doc->checked = 1;
  if (doc->charset.decode != XMT_ENC_UTF8 || doc->charset.utf16)
    return XMT_OK;
  size_t first;
  size_t n = invalid_utf8(bytes, len, &first);
  if (n == 0)
    return XMT_OK;
  unsigned long line, column;
  position(bytes, first, 1, &line, &column);
  if (!(doc->flags & XMT_FILTER_HTML_REPLACE_INVALID))
    return xmt_html_not_utf8(err, name, (unsigned char)bytes[first], n, line,
                             column);
  doc->invalid_bytes = n;
  doc->invalid_line = line;
  doc->invalid_column = column;
  return XMT_OK;
}

/* The page's encoding found and checked (only found when head: the first
 * bytes of a page read in chunks), its bytes kept (taken from own when not
 * NULL and no transcoding is needed). */
static xmt_status prepare(struct html_doc *doc, const char *bytes, size_t len,
                          unsigned flags, const char *name,
                          struct xmt_error_store *err, struct xmt_buf *own,
                          int head) {
  memset(doc, 0, sizeof *doc);
  doc->flags = flags;
  char msg[256];
  size_t at;
  xmt_status st =
      xmt_html_detect_charset(bytes, len, &doc->charset, msg, sizeof msg, &at);
  if (st != XMT_OK) {
    unsigned long line, column;
    position(bytes, at, 1, &line, &column);
    return xmt_error_at(err, st, XMT_AT(name, line, column), "%s", msg);
  }
  if (!head && (st = check_utf8(doc, bytes, len, name, err)) != XMT_OK)
    return st;
  /* No page holds a NUL byte outside UTF-16: a binary file (an image, a
   * zip) named .html would come back "translated". The first 64 KiB of a
   * page read in chunks are enough to tell. */
  const char *nul = doc->charset.utf16 ? NULL : memchr(bytes, '\0', len);
  if (nul != NULL) {
    unsigned long line, column;
    position(bytes, (size_t)(nul - bytes), doc->charset.decode == XMT_ENC_UTF8,
             &line, &column);
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT(name, line, column), "%s",
                        "a NUL byte: not an HTML page (a binary file?)");
  }
  struct xmt_buf data = {0};
  if (doc->charset.utf16) {
    struct xmt_decoder dec;
    xmt_decoder_init(&dec, doc->charset.out);
    st = xmt_decoder_run(&dec, bytes, len, 1, &data);
    if (st == XMT_ERR_ENCODING) {
      xmt_buf_free(&data);
      return xmt_error_at(err, st, XMT_AT(name, dec.line, dec.column + 1),
                          "invalid %s", xmt_encoding_name(doc->charset.out));
    }
  } else if (own != NULL) {
    data = *own;
    memset(own, 0, sizeof *own);
  } else {
    st = xmt_buf_append(&data, bytes, len);
  }
  if (st == XMT_OK && data.data == NULL)
    st = xmt_buf_grow(&data, 1);
  if (st != XMT_OK) {
    xmt_buf_free(&data);
    return xmt_error_nomem(err);
  }
  doc->bytes = data.data;
  doc->len = data.len;
  doc->cap = data.cap;
  return XMT_OK;
}

xmt_status xmt_html_doc_prepare(struct html_doc *doc, const char *bytes,
                                size_t len, unsigned flags, const char *name,
                                struct xmt_error_store *err) {
  return prepare(doc, bytes, len, flags, name, err, NULL, 0);
}

xmt_status xmt_html_doc_build(struct html_doc *doc, const char *name,
                              struct xmt_error_store *err) {
  const char *why = NULL;
  xmt_status st = build(doc, &why);
  if (st != XMT_OK) {
    xmt_html_doc_free(doc);
    return xmt_error_at(err, st, XMT_IN(name), "%s",
                        why != NULL ? why : xmt_strerror(st));
  }
  return XMT_OK;
}

xmt_status xmt_html_doc_parse(struct html_doc *doc, const char *bytes,
                              size_t len, unsigned flags, const char *name,
                              struct xmt_error_store *err) {
  xmt_status st = xmt_html_doc_prepare(doc, bytes, len, flags, name, err);
  return st == XMT_OK ? xmt_html_doc_build(doc, name, err) : st;
}

xmt_status xmt_html_doc_read(struct html_doc *doc, xmt_filter *f,
                             const char *path, int build_it) {
  struct xmt_error_store *err = &f->err;
  memset(doc, 0, sizeof *doc);
  struct xmt_buf buf = {0};
  xmt_status st = xmt_input_read_whole(f, path, &buf, err);
  if (st == XMT_ERR_NOMEM)
    st = xmt_error_set(err, st, "%s", xmt_strerror(st));
  if (st == XMT_OK)
    st = prepare(doc, buf.data != NULL ? buf.data : "", buf.len, f->flags, path,
                 err, &buf, 0);
  xmt_buf_free(&buf);
  return st == XMT_OK && build_it ? xmt_html_doc_build(doc, path, err) : st;
}

xmt_status xmt_html_doc_load(struct html_doc *doc, xmt_filter *f,
                             const char *path) {
  return xmt_html_doc_read(doc, f, path, 1);
}

/* The first bytes of a page: as many as the encoding's detection reads. */
#define HEAD_BYTES 65536

static int utf16_bom(const char *data, size_t len) {
  const unsigned char *b = (const unsigned char *)data;
  return len >= 2 &&
         ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF));
}

xmt_status xmt_html_doc_open(struct html_doc *doc, xmt_filter *f,
                             const char *path, size_t *bytes) {
  memset(doc, 0, sizeof *doc);
  if (strcmp(path, "-") == 0) {
    xmt_status st = xmt_html_doc_read(doc, f, path, 0);
    *bytes = doc->len;
    return st;
  }
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  struct stat sb;
  int regular = fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode);
  struct xmt_buf buf = {0};
  xmt_status st = xmt_buf_grow(&buf, HEAD_BYTES + 1);
  buf.len = st == XMT_OK && regular ? fread(buf.data, 1, HEAD_BYTES, fp) : 0;
  /* Read whole: a page whose first bytes do not say its encoding (UTF-8
   * if every byte is), a UTF-16 one (transcoded whole) and one whose bad
   * bytes are replaced (counted before its warning). */
  int chunks = regular && buf.len == HEAD_BYTES &&
               !(f->flags & XMT_FILTER_HTML_REPLACE_INVALID) &&
               !utf16_bom(buf.data, buf.len) &&
               xmt_html_charset_declared(buf.data, buf.len);
  int open = 1;
  if (st == XMT_OK && !chunks) {
    st = xmt_buf_append_stream(&buf, fp, path, &f->err); /* closes fp */
    open = 0;
  } else if (st == XMT_OK && ferror(fp)) {
    st = xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                      strerror(errno));
  }
  if (st == XMT_ERR_NOMEM)
    st = xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  if (st == XMT_OK)
    st = prepare(doc, buf.data != NULL ? buf.data : "", buf.len, f->flags, path,
                 &f->err, &buf, chunks);
  xmt_buf_free(&buf);
  if (st == XMT_OK && chunks)
    doc->rest = fp;
  else if (open)
    fclose(fp);
  *bytes = st == XMT_OK && chunks ? (size_t)sb.st_size : doc->len;
  return st;
}

xmt_status xmt_html_doc_read_rest(struct html_doc *doc, const char *name,
                                  struct xmt_error_store *err) {
  if (doc->rest == NULL)
    return XMT_OK;
  struct xmt_buf buf = {doc->bytes, doc->len - doc->base, doc->cap};
  FILE *fp = doc->rest;
  doc->rest = NULL;
  xmt_status st = xmt_buf_append_stream(&buf, fp, name, err);
  doc->bytes = buf.data;
  doc->len = doc->base + buf.len;
  doc->cap = buf.cap;
  if (st == XMT_ERR_NOMEM)
    return xmt_error_nomem(err);
  if (st == XMT_OK && doc->base == 0 && !doc->checked)
    st = check_utf8(doc, doc->bytes, doc->len, name, err);
  return st;
}
