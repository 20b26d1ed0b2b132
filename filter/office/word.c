/* word.c -- the Word format (OOXML WordprocessingML: .docx .docm .dotx
 * .dotm): one entry of the format table. A package is told by its first
 * bytes as a zip and opened as Word only when its content types say so;
 * the units are the paragraphs of the main part and of the headers,
 * footers, notes and comments it names (word_parts.c, word_read.c), their
 * ids "part:n" ("document:3", "footnotes:1"); each part with a target is
 * written back (word_write.c), every other entry copied raw by the zip
 * layer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "word_private.h"

static const char *const word_extensions[] = {".docx", ".docm", ".dotx",
                                              ".dotm", NULL};

/* A zip's first local header. The head cannot tell Word from another
 * zip (the central directory is at the end): open() refuses a zip that
 * is not Word, by its content. */
static int bid(const struct xmt_head *head) {
  return head->len >= 4 && memcmp(head->bytes, "PK\3\4", 4) == 0 ? XMT_BID_LOOKS
                                                                 : XMT_BID_NO;
}

static void close_doc(void *d) {
  struct word_doc *doc = d;
  if (doc == NULL)
    return;
  xmt_word_parts_free(doc);
  xmt_package_free(doc->pkg);
  free(doc);
}

/* The package at path (or its len bytes, when bytes is not NULL), its
 * kind Word, its main part read and parsed. */
static xmt_status load(xmt_filter *f, const char *path, const char *bytes,
                       size_t len, struct word_doc *doc) {
  xmt_status st =
      bytes != NULL
          ? xmt_package_open_mem(&doc->pkg, path, bytes, len, NULL, &f->err)
          : xmt_package_open(&doc->pkg, path, NULL, &f->err);
  enum xmt_package_kind kind = XMT_PACKAGE_OTHER;
  if (st == XMT_OK)
    st = xmt_package_kind(doc->pkg, &kind, &doc->main, &f->err);
  if (st == XMT_OK && kind != XMT_PACKAGE_WORD)
    return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path),
                        "a zip but not a Word document: no WordprocessingML "
                        "main part in [Content_Types].xml");
  if (st == XMT_OK && doc->main == NULL)
    return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path),
                        "the Word document has no main part");
  return st == XMT_OK ? xmt_word_load_parts(doc, path, &f->err) : st;
}

/* The zip layer reads a package from its file (libzip seeks it). */
/* The document at path, or in the len bytes at bytes. */
static xmt_status load_doc(xmt_filter *f, const char *path, const char *bytes,
                           size_t len, void **out) {
  struct word_doc *doc = calloc(1, sizeof *doc);
  if (doc == NULL)
    return xmt_error_nomem(&f->err);
  xmt_status st = load(f, path, bytes, len, doc);
  if (st != XMT_OK) {
    close_doc(doc);
    return st;
  }
  *out = doc;
  return XMT_OK;
}

static xmt_status parse_doc(xmt_filter *f, const char *name, const char *bytes,
                            size_t len, void **out) {
  *out = NULL;
  return load_doc(f, name, bytes != NULL ? bytes : "", len, out);
}

static xmt_status open_doc(xmt_filter *f, const char *path, void **out,
                           size_t *bytes) {
  *out = NULL;
  *bytes = 0;
  if (strcmp(path, "-") == 0)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                        "a Word document is read from a file or from "
                        "memory, not from standard input");
  xmt_status st = load_doc(f, path, NULL, 0, out);
  const struct word_doc *doc = *out;
  for (size_t k = 0; st == XMT_OK && doc != NULL && k < doc->nparts; k++)
    *bytes += doc->parts[k].data.len;
  return st;
}

/* The unit of paragraph p, id id, to the sink; line: its line in the
 * XLIFF the stream stands for. */
static xmt_status put_unit(xmt_filter *f, struct xmt_inline_builder *ib,
                           const struct xmt_unit_sink *sink, const char *id,
                           const struct word_para *p, unsigned long *line) {
  const struct xmt_unit_fields in = {.id = id,
                                     .source_language = f->source_language,
                                     .target_language = f->target_language,
                                     .line = *line,
                                     .column = 1,
                                     .translatable = 1,
                                     .preserve_space = 1};
  xmt_xliff_unit *unit;
  xmt_status st = xmt_xliff_unit_build(ib, &in, p->source, NULL, &unit);
  *line += xmt_units_out_lines("x-docx", p->source, NULL);
  return st == XMT_OK ? sink->unit(sink->user, unit) : st;
}

static xmt_status read_units(xmt_filter *f, void *d, const char *path,
                             const struct xmt_unit_sink *sink) {
  struct word_doc *doc = d;
  if (f->source_language == NULL)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                        "give the source language of a Word document with -s");
  const struct xmt_xliff_file_info info = {path, f->source_language,
                                           f->target_language, "x-docx",
                                           XMT_UNITS_OUT_FILE_LINE};
  xmt_status st = sink->file(sink->user, &info);
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  unsigned long line = XMT_UNITS_OUT_UNIT_LINE;
  for (size_t k = 0; k < doc->nparts && st == XMT_OK; k++) {
    const struct word_part *part = &doc->parts[k];
    for (size_t i = 0; i < part->npara && st == XMT_OK; i++) {
      const struct word_para *p = &part->paras[i];
      if (p->twin >= 0)
        continue; /* takes the target of the paragraph it repeats */
      char id[300];
      snprintf(id, sizeof id, "%.255s:%zu", part->unit_name, i + 1);
      st = put_unit(f, &ib, sink, id, p, &line);
    }
  }
  xmt_ib_free(&ib);
  return st;
}

static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
}

/* The paragraph a unit id ("part:n") names, or NULL. */
static struct word_para *para_of(struct word_doc *doc, const char *id) {
  const char *colon = strrchr(id, ':');
  if (colon == NULL)
    return NULL;
  char *end;
  unsigned long n = strtoul(colon + 1, &end, 10);
  for (size_t k = 0; k < doc->nparts; k++) {
    struct word_part *part = &doc->parts[k];
    size_t len = strlen(part->unit_name);
    if (len == (size_t)(colon - id) && memcmp(id, part->unit_name, len) == 0)
      return n == 0 || *end != '\0' || n > part->npara ||
                     part->paras[n - 1].twin >= 0
                 ? NULL
                 : &part->paras[n - 1];
  }
  return NULL;
}

/* 1 when target says what source says: the same text, the same codes
 * (by id and side) at the same places; the markup the unit stream gave
 * them is not compared, being the paragraph's own. */
static int same_content(const xmt_segment *target, const xmt_segment *source) {
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

static xmt_status take(xmt_filter *f, void *d, const xmt_xliff_unit *unit,
                       const xmt_segment *target) {
  struct word_doc *doc = d;
  const char *id =
      xmt_xliff_unit_id(unit) != NULL ? xmt_xliff_unit_id(unit) : "";
  struct word_para *p = para_of(doc, id);
  if (p == NULL)
    return xmt_error_at(&f->err, XMT_ERR_INTERNAL,
                        &(const struct xmt_where){.unit_id = id},
                        "a unit the document does not have");
  xmt_segment_free(p->target);
  p->target = NULL;
  /* A target that is its source keeps the paragraph's own bytes: the
   * merging of runs would change them. */
  if (target == NULL || same_content(target, p->source))
    return XMT_OK;
  p->target = xmt_segment_new();
  if (p->target == NULL || xmt_segment_copy(p->target, target) != XMT_OK)
    return xmt_error_nomem(&f->err);
  return XMT_OK;
}

/* 1 when a paragraph of part is written with a target. */
static int rewritten(const struct word_part *part) {
  for (size_t i = 0; i < part->npara; i++)
    if (xmt_word_target_of(part, &part->paras[i]) != NULL)
      return 1;
  return 0;
}

/* The parts with a target rewritten, every other entry copied raw. */
static xmt_status write_doc(xmt_filter *f, void *d, const char *target_language,
                            xmt_write_fn sink, void *user) {
  struct word_doc *doc = d;
  struct xmt_buf *parts = calloc(doc->nparts, sizeof *parts), zip = {0};
  struct xmt_package_part *repl = calloc(doc->nparts, sizeof *repl);
  size_t n = 0;
  xmt_status st = parts != NULL && repl != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t k = 0; k < doc->nparts && st == XMT_OK; k++) {
    if (!rewritten(&doc->parts[k]))
      continue;
    st = xmt_word_render(&doc->parts[k], target_language, &parts[n]);
    repl[n] = (struct xmt_package_part){doc->parts[k].name, parts[n].data,
                                        parts[n].len};
    n++;
  }
  if (st != XMT_OK)
    xmt_error_nomem(&f->err);
  if (st == XMT_OK)
    st = xmt_package_write_mem(doc->pkg, &zip, repl, n, &f->err);
  if (st == XMT_OK && sink(user, zip.data, zip.len) != 0)
    st = XMT_ERR_WRITE;
  for (size_t k = 0; parts != NULL && k < doc->nparts; k++)
    xmt_buf_free(&parts[k]);
  free(parts);
  free(repl);
  xmt_buf_free(&zip);
  return st;
}

const struct xmt_format xmt_format_word = {
    .info = {XMT_FORMAT_WORD, "docx", "Word (.docx, .docm, .dotx, .dotm)",
             word_extensions},
    .bid = bid,
    .open = open_doc,
    .parse = parse_doc,
    .read = read_units,
    .take = take,
    .write = write_doc,
    .close = close_doc};
