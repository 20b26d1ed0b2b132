/* office_doc.c -- what the Word and OpenDocument formats do alike: a
 * package opened from a file or from memory and checked to be of the
 * format's kind, a part parsed with expat with its errors named by
 * entry, line and column, the package written back to the run's sink,
 * and a target walked, text and codes, for the format to write. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "office_doc.h"

/* What expat is given at a time (xmt_office_xml_parse). */
#define XMT_OFFICE_XML_PIECE 65536

void xmt_office_close(const struct xmt_office_format *fmt, void *d) {
  struct xmt_office_doc *doc = d;
  if (doc == NULL)
    return;
  fmt->unload(doc);
  xmt_package_free(doc->pkg);
  free(doc);
}

/* The package at path (or its len bytes, when bytes is not NULL), of
 * the format's kind, its parts loaded. */
static xmt_status load(xmt_filter *f, const struct xmt_office_format *fmt,
                       const char *path, const char *bytes, size_t len,
                       struct xmt_office_doc *doc) {
  xmt_status st =
      bytes != NULL
          ? xmt_package_open_mem(&doc->pkg, path, bytes, len, NULL, &f->err)
          : xmt_package_open(&doc->pkg, path, NULL, &f->err);
  enum xmt_package_kind kind = XMT_PACKAGE_OTHER;
  if (st == XMT_OK)
    st = xmt_package_kind(doc->pkg, &kind, &doc->main, &f->err);
  if (st == XMT_OK && kind != fmt->kind)
    return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path), "%s",
                        fmt->not_kind);
  if (st == XMT_OK && doc->main == NULL)
    return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path), "%s",
                        fmt->no_main);
  /* Every entry read through once, so that a damaged one (bad CRC or
   * data) is refused by every command, and never copied raw into an
   * output: here, or (a format that parses its parts as it hands on
   * units) by the format, those parts when it reads them. */
  if (st == XMT_OK && fmt->load_verifies)
    return fmt->load(f, path, doc);
  long m = st == XMT_OK ? xmt_package_find(doc->pkg, doc->main) : -1;
  if (m >= 0) /* the format reads it next: inflated once */
    xmt_package_keep(doc->pkg, (size_t)m);
  for (size_t i = 0; st == XMT_OK && i < xmt_package_count(doc->pkg); i++)
    st = xmt_package_verify(doc->pkg, i, &f->err);
  return st == XMT_OK ? fmt->load(f, path, doc) : st;
}

static xmt_status load_doc(xmt_filter *f, const struct xmt_office_format *fmt,
                           const char *path, const char *bytes, size_t len,
                           void **out) {
  struct xmt_office_doc *doc = calloc(1, fmt->size);
  if (doc == NULL)
    return xmt_error_nomem(&f->err);
  xmt_status st = load(f, fmt, path, bytes, len, doc);
  if (st != XMT_OK) {
    xmt_office_close(fmt, doc);
    return st;
  }
  *out = doc;
  return XMT_OK;
}

xmt_status xmt_office_parse(xmt_filter *f, const struct xmt_office_format *fmt,
                            const char *name, const char *bytes, size_t len,
                            void **out) {
  *out = NULL;
  return load_doc(f, fmt, name, bytes != NULL ? bytes : "", len, out);
}

/* The zip layer reads a package from its file (libzip seeks it), never
 * from a pipe. */
xmt_status xmt_office_open(xmt_filter *f, const struct xmt_office_format *fmt,
                           const char *path, void **out, size_t *bytes) {
  *out = NULL;
  *bytes = 0;
  if (strcmp(path, "-") == 0)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path), "%s",
                        fmt->not_stdin);
  xmt_status st = load_doc(f, fmt, path, NULL, 0, out);
  if (st == XMT_OK && *out != NULL)
    *bytes = fmt->bytes(*out);
  return st;
}

int xmt_office_blank(const char *text, size_t len) {
  for (size_t k = 0; k < len; k++)
    if (strchr(" \t\r\n", text[k]) == NULL)
      return 0;
  return 1;
}

xmt_status xmt_office_take(xmt_filter *f, xmt_segment **slot,
                           const xmt_segment *source,
                           const xmt_segment *target) {
  xmt_segment_free(*slot);
  *slot = NULL;
  if (target == NULL || xmt_target_is_source(target, source))
    return XMT_OK;
  *slot = xmt_segment_new();
  if (*slot == NULL || xmt_segment_copy(*slot, target) != XMT_OK)
    return xmt_error_nomem(&f->err);
  return XMT_OK;
}

xmt_status xmt_office_write(xmt_filter *f, const struct xmt_office_doc *doc,
                            const struct xmt_package_part *parts, size_t n,
                            xmt_write_fn sink, void *user) {
  return xmt_package_write_out(doc->pkg, parts, n, sink, user, &f->err);
}

void xmt_office_stop(struct xmt_office_xml *x, xmt_status st) {
  if (x->st == XMT_OK)
    x->st = st;
  XML_StopParser(x->xp, XML_FALSE);
}

int xmt_office_is(const char *name, const char *ns, const char *local) {
  /* lengths first: most names asked about are of the namespace, and the
   * local name tells them apart sooner than the long URI */
  size_t n = strlen(ns), nl = strlen(local);
  return strlen(name) == n + 1 + nl && name[n] == '|' &&
         memcmp(name + n + 1, local, nl) == 0 && memcmp(name, ns, n) == 0;
}

static void XMLCALL on_doctype(void *user, const XML_Char *name,
                               const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal_subset) {
  struct xmt_office_xml *x = user;
  (void)name, (void)sysid, (void)pubid, (void)has_internal_subset;
  x->why = x->doctype;
  xmt_office_stop(x, XMT_ERR_FORMAT);
}

/* The error of a parse that stopped with st or ended with xs. */
static xmt_status report(const struct xmt_office_xml *x, enum XML_Status xs,
                         const struct xmt_office_entry *where,
                         struct xmt_error_store *err) {
  if (x->pass && x->st != XMT_OK)
    return x->st;
  const char *why = x->why;
  if (x->st == XMT_OK && xs != XML_STATUS_OK)
    why = XML_ErrorString(XML_GetErrorCode(x->xp));
  else if (x->st != XMT_ERR_FORMAT)
    return x->st != XMT_OK ? xmt_error_nomem(err) : XMT_OK;
  /* only now: expat counts lines from where it last did, here the whole
   * part once more when the parse went well */
  unsigned long line = XML_GetCurrentLineNumber(x->xp);
  unsigned long col = XML_GetCurrentColumnNumber(x->xp) + 1;
  const char *wf = x->st == XMT_OK ? "not well-formed XML: " : "";
  /* the line and column are the entry's, not the package file's */
  if (where->quoted)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(where->path),
                        "entry '%s', line %lu, column %lu: %s%s", where->entry,
                        line, col, wf, why);
  return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(where->path),
                      "%s, line %lu, column %lu: %s%s", where->entry, line, col,
                      wf, why);
}

xmt_status xmt_office_xml_parse(struct xmt_office_xml *x, const char *data,
                                size_t len, const struct xmt_office_entry *at,
                                struct xmt_error_store *err) {
  x->xp = XML_ParserCreateNS("UTF-8", '|');
  if (x->xp == NULL)
    return xmt_error_nomem(err);
  XML_SetUserData(x->xp, x);
  XML_SetElementHandler(x->xp, x->start, x->end);
  XML_SetCharacterDataHandler(x->xp, x->text);
  XML_SetStartDoctypeDeclHandler(x->xp, on_doctype);
  /* In pieces: expat copies what it is given into a buffer of its own,
   * which given the whole part is a second copy of it, every page
   * touched. A token longer than a piece (a comment of megabytes) is
   * scanned again with each piece: the pieces double while one is
   * pending, so that the scans add up to twice the token, not its
   * square. The byte indexes the handlers take are the stream's. */
  enum XML_Status xs = XML_STATUS_OK;
  size_t done = 0, piece = XMT_OFFICE_XML_PIECE;
  do {
    size_t n = len - done < piece ? len - done : piece;
    xs = XML_Parse(x->xp, data + done, (int)n, done + n == len);
    done += n;
    XML_Index token = XML_GetCurrentByteIndex(x->xp); /* one pending */
    if ((token < 0 || done - (size_t)token >= piece) && piece < INT_MAX / 2)
      piece *= 2;
  } while (xs == XML_STATUS_OK && done < len);
  xmt_status st = report(x, xs, at, err);
  XML_ParserFree(x->xp);
  x->xp = NULL;
  return st;
}

/* The code a target tag stands for (its index), or SIZE_MAX. */
static size_t code_of(const struct xmt_office_target *w,
                      const struct xmt_tag *t) {
  char *end;
  if (t->id == NULL || t->id[0] < '1' || t->id[0] > '9')
    return SIZE_MAX;
  unsigned long n = strtoul(t->id, &end, 10);
  return *end == '\0' && n <= w->ncodes ? (size_t)(n - 1) : SIZE_MAX;
}

xmt_status xmt_office_put_target(const struct xmt_office_target *w,
                                 const xmt_segment *target) {
  size_t open[64];
  size_t nopen = 0, len, at = 0, n = xmt_segment_tag_count(target);
  const char *text = xmt_segment_text(target, &len);
  xmt_status st = XMT_OK;
  for (size_t i = 0; i <= n && st == XMT_OK; i++) {
    struct xmt_tag t = {.offset = len};
    if (i < n)
      st = xmt_segment_tag(target, i, &t);
    if (st == XMT_OK && t.offset > at)
      st = w->put_stretch(w->user, open, nopen, text + at, t.offset - at);
    at = t.offset > at ? t.offset : at;
    size_t c = i < n ? code_of(w, &t) : SIZE_MAX;
    int close = t.kind == XMT_TAG_CLOSE || t.kind == XMT_TAG_ISOLATED_CLOSE;
    if (i == n || st != XMT_OK)
      continue;
    if (close && nopen > 0)
      c = open[--nopen];
    if (c == SIZE_MAX)
      continue;
    if (!close && w->paired_code(w->user, c) && nopen < 64)
      open[nopen++] = c;
    st = w->put_code(w->user, c, close);
  }
  return st;
}
