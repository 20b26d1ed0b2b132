/* xliff2.c -- the XLIFF 2.0-2.2 format of the pipeline: a document's
 * segments handed to the unit reader as XLIFF 1.2 trans-units, their
 * targets taken back, and the document written with them. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xliff2_private.h"

static int bid(const char *head, size_t len, const char *path) {
  return xmt_format_sniff(head, len, path) == XMT_FORMAT_XLIFF2;
}

/* The languages of the document against the run's. */
static xmt_status check_languages(xmt_filter *f, const struct x2_doc *doc) {
  unsigned long line, column;
  xmt_x2_locate(doc, doc->root_start, &line, &column);
  const struct xmt_where at = {
      .file = doc->path, .line = line, .column = column};
  if (f->source_language != NULL && doc->src_lang != NULL &&
      strcasecmp(f->source_language, doc->src_lang) != 0)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, &at,
                        "<xliff> has srcLang=\"%.64s\" but the run is from "
                        "'%.64s'",
                        doc->src_lang, f->source_language);
  if (f->target_language != NULL && doc->trg_lang != NULL &&
      strcasecmp(f->target_language, doc->trg_lang) != 0)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, &at,
                        "<xliff> has trgLang=\"%.64s\" but the run is into "
                        "'%.64s'",
                        doc->trg_lang, f->target_language);
  if (f->source_language == NULL && doc->src_lang == NULL)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, &at, "%s",
                        "<xliff> has no srcLang: give the source language "
                        "with -s");
  return XMT_OK;
}

static void close_doc(void *doc) {
  if (doc == NULL)
    return;
  xmt_x2_free(doc);
  free(doc);
}

/* A document of data (taken over), named path. */
static xmt_status new_doc(xmt_filter *f, const char *path, struct xmt_buf *data,
                          void **out) {
  struct x2_doc *doc = calloc(1, sizeof *doc);
  *out = NULL;
  if (doc == NULL) {
    xmt_buf_free(data);
    return xmt_error_nomem(&f->err);
  }
  xmt_status st = xmt_x2_read(doc, data, path, 0, &f->err);
  xmt_buf_free(data);
  if (st == XMT_OK)
    st = check_languages(f, doc);
  if (st == XMT_OK &&
      ((doc->targets = calloc(doc->nsegs + 1, sizeof *doc->targets)) == NULL ||
       (doc->splits = calloc(doc->nsegs + 1, sizeof *doc->splits)) == NULL))
    st = xmt_error_nomem(&f->err);
  if (st != XMT_OK) {
    close_doc(doc);
    return st;
  }
  *out = doc;
  return XMT_OK;
}

static xmt_status open_doc(xmt_filter *f, const char *path, void **doc,
                           size_t *bytes) {
  *doc = NULL;
  *bytes = 0;
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  struct xmt_buf data = {0};
  char chunk[65536];
  size_t got;
  xmt_status st = XMT_OK;
  while (st == XMT_OK && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
    st = xmt_buf_append(&data, chunk, got);
  int bad = ferror(fp), e = errno;
  if (fp != stdin)
    fclose(fp);
  if (st == XMT_OK && bad)
    st = xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                      strerror(e));
  else if (st != XMT_OK)
    st = xmt_error_nomem(&f->err);
  if (st != XMT_OK) {
    xmt_buf_free(&data);
    return st;
  }
  *bytes = data.len;
  return new_doc(f, path, &data, doc);
}

static xmt_status parse_doc(xmt_filter *f, const char *name, const char *bytes,
                            size_t len, void **doc) {
  struct xmt_buf data = {0};
  if (len > 0 && xmt_buf_append(&data, bytes, len) != XMT_OK)
    return xmt_error_nomem(&f->err);
  return new_doc(f, name, &data, doc);
}

static xmt_status doc_units(xmt_filter *f, void *doc, const char *path,
                            xmt_write_fn sink, void *user) {
  const struct x2_doc *d = doc;
  (void)path;
  return xmt_x2_units(
      d, f->source_language != NULL ? f->source_language : d->src_lang,
      f->target_language != NULL ? f->target_language : d->trg_lang,
      (f->flags & XMT_FILTER_OVERWRITE) != 0, sink, user);
}

/* On the run's worker thread: only the segment's own target is touched. */
static xmt_status take_target(xmt_filter *f, void *doc,
                              const xmt_xliff_unit *unit,
                              const xmt_segment *target) {
  struct x2_doc *d = doc;
  const char *id =
      xmt_xliff_unit_id(unit) != NULL ? xmt_xliff_unit_id(unit) : "";
  size_t i = 0;
  if (!xmt_memo_get(&d->keys, id, strlen(id), NULL, NULL, &i) || i >= d->nsegs)
    return xmt_error_at(&f->err, XMT_ERR_INTERNAL,
                        &(const struct xmt_where){.unit_id = id},
                        "a segment the document does not have");
  if (target == NULL)
    return XMT_OK;
  if (d->targets[i] == NULL && (d->targets[i] = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = xmt_segment_copy(d->targets[i], target);
  /* --seg-source: the sentences become segments (not as matches) */
  if (st == XMT_OK && (f->flags & XMT_FILTER_SEG_SOURCE) != 0 &&
      (f->flags & XMT_FILTER_ALT_TRANS) == 0)
    st = xmt_x2_take_split(d, i, unit);
  return st;
}

static void warn(void *user, const char *unit_id, unsigned long line,
                 const char *message) {
  xmt_filter *f = user;
  if (f->on_warning != NULL)
    f->on_warning(f->callback_user, unit_id, line, message);
}

static xmt_status write_doc(xmt_filter *f, void *doc,
                            const char *target_language, xmt_write_fn sink,
                            void *user) {
  struct x2_doc *d = doc;
  d->matches = (f->flags & XMT_FILTER_ALT_TRANS) != 0;
  return xmt_x2_write(d,
                      target_language != NULL ? target_language : d->trg_lang,
                      sink, user, &f->err, warn, f);
}

const char *xmt_xliff2_target_language(const void *doc) {
  return ((const struct x2_doc *)doc)->trg_lang;
}

void xmt_xliff2_describe(const void *doc, const char **version,
                         const char **encoding) {
  static const char *const versions[] = {"2.0", "2.1", "2.2"};
  const struct x2_doc *d = doc;
  for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
    if (d->version != NULL && strcmp(d->version, versions[i]) == 0)
      *version = versions[i];
  *encoding = xmt_encoding_name(d->encoding);
}

xmt_status xmt_xliff2_check(const void *doc, xmt_rule_fn fn, void *user,
                            struct xmt_error_store *err) {
  const struct x2_doc *d = doc;
  xmt_status st = xmt_x2_check_rules(d, fn, user);
  if (st == XMT_ERR_NOMEM)
    return xmt_error_nomem(err);
  if (st != XMT_OK)
    return xmt_error_at(err, st, XMT_IN(d->path), "%s",
                        st == XMT_ERR_ABORTED ? "the check was stopped"
                                              : "the document cannot be "
                                                "read again");
  return XMT_OK;
}

const struct xmt_format xmt_format_xliff2 = {"xliff2",  bid,       open_doc,
                                             parse_doc, doc_units, take_target,
                                             write_doc, close_doc};
