/* format.c -- the file functions of the library: each asks detect.c for
 * the document's format; XLIFF goes straight to the pipeline, other formats
 * (the table below) go through XLIFF in temporary files. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter_private.h"

/* The format of in_path: NULL for XLIFF, the pipeline's own, else the
 * vtable that translates it through XLIFF. */
static xmt_status pick(xmt_filter *f, const char *in_path,
                       const struct xmt_format **fmt) {
  enum xmt_doc_format format;
  *fmt = NULL;
  memset(&f->stats, 0, sizeof f->stats);
  xmt_status st = xmt_filter_detect_format(f, in_path, &format);
  if (st == XMT_OK && format == XMT_FORMAT_HTML)
    *fmt = &xmt_format_html;
  return st;
}

/* extract and merge of segments are XLIFF's: a page goes to XLIFF first
 * (xmt_html_extract_file). */
static xmt_status xliff_only(xmt_filter *f, const char *in_path,
                             const char *what) {
  const struct xmt_format *fmt;
  xmt_status st = pick(f, in_path, &fmt);
  if (st == XMT_OK && fmt != NULL)
    st = xmt_error_set(&f->err, XMT_ERR_USAGE, in_path, 0, 0, NULL,
                       "an HTML page has no segments to %s: extract it to "
                       "XLIFF first",
                       what);
  return st;
}

xmt_status xmt_filter_translate_file(xmt_filter *f, const char *in_path,
                                     const char *out_path) {
  const struct xmt_format *fmt;
  xmt_status st = pick(f, in_path, &fmt);
  if (st != XMT_OK)
    return st;
  if (fmt != NULL)
    return xmt_format_translate(f, fmt, in_path, out_path);
  return xmt_pipeline_run(f, in_path, out_path, XMT_PIPELINE_TRANSLATE);
}

xmt_status xmt_filter_translate_html_file(xmt_filter *f, const char *in_path,
                                          const char *out_path) {
  xmt_error_clear(&f->err);
  return xmt_format_translate(f, &xmt_format_html, in_path, out_path);
}

xmt_status xmt_filter_extract_file(xmt_filter *f, const char *in_path,
                                   const char *out_path,
                                   enum xmt_segments_format format) {
  xmt_error_clear(&f->err);
  if (format != XMT_SEGMENTS_TSV && format != XMT_SEGMENTS_JSONL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "unknown segments format %d", (int)format);
  xmt_status st = xliff_only(f, in_path, "extract");
  if (st != XMT_OK)
    return st;
  return xmt_pipeline_run(f, in_path, out_path,
                          format == XMT_SEGMENTS_JSONL
                              ? XMT_PIPELINE_EXTRACT_JSONL
                              : XMT_PIPELINE_EXTRACT_TSV);
}

xmt_status xmt_filter_merge_file(xmt_filter *f, const char *in_path,
                                 const char *translations,
                                 const char *alignments,
                                 const char *source_tokens,
                                 const char *target_tokens,
                                 const char *out_path) {
  xmt_error_clear(&f->err);
  if (translations == NULL ||
      (source_tokens == NULL) != (target_tokens == NULL))
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "merge needs translations, and source and target "
                         "tokens together");
  xmt_status st = xliff_only(f, in_path, "merge");
  if (st != XMT_OK)
    return st;
  xmt_offline *o = xmt_offline_load(translations, alignments, source_tokens,
                                    target_tokens, &f->err);
  if (o == NULL)
    return f->err.pub.status;
  const struct xmt_backend *backend = f->backend;
  void *user = f->backend_user;
  char *spec = f->backend_spec;
  f->backend = &xmt_backend_offline;
  f->backend_user = o;
  f->backend_spec = NULL;
  st = xmt_pipeline_run(f, in_path, out_path, XMT_PIPELINE_MERGE);
  f->backend = backend;
  f->backend_user = user;
  f->backend_spec = spec;
  xmt_offline_free(o);
  return st;
}

/* --- Through XLIFF ----------------------------------------------------------
 */

/* A new empty temporary file; path receives its name. */
static xmt_status temp_file(xmt_filter *f, char *path, size_t cap) {
  const char *dir = getenv("TMPDIR");
  snprintf(path, cap, "%s/xliffmt-XXXXXX",
           dir != NULL && dir[0] != '\0' ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) {
    path[0] = '\0';
    return xmt_error_set(&f->err, XMT_ERR_WRITE, NULL, 0, 0, NULL,
                         "cannot create a temporary file: %s", strerror(errno));
  }
  close(fd);
  return XMT_OK;
}

/* Errors about the intermediate XLIFF are about the document for the
 * user. */
static void blame_document(xmt_filter *f, const char *tmp1, const char *tmp2,
                           const char *path) {
  const struct xmt_error *e = &f->err.pub;
  if (e->file == NULL ||
      (strcmp(e->file, tmp1) != 0 && strcmp(e->file, tmp2) != 0))
    return;
  char msg[512], unit[64];
  snprintf(msg, sizeof msg, "%s",
           e->message != NULL ? e->message : xmt_strerror(e->status));
  snprintf(unit, sizeof unit, "%s", e->unit_id != NULL ? e->unit_id : "");
  xmt_error_set(&f->err, e->status, path, 0, 0, unit[0] ? unit : NULL, "%s",
                msg);
}

xmt_status xmt_format_as_xliff(xmt_filter *f, const char *in_path, char *tmp,
                               size_t cap) {
  enum xmt_doc_format format;
  tmp[0] = '\0';
  xmt_status st = xmt_filter_detect_format(f, in_path, &format);
  if (st != XMT_OK || format != XMT_FORMAT_HTML)
    return st;
  st = temp_file(f, tmp, cap);
  if (st == XMT_OK)
    st = xmt_html_extract_file(f, in_path, tmp, NULL);
  return st;
}

void xmt_format_blame(xmt_filter *f, const char *tmp, const char *path) {
  if (tmp[0] != '\0')
    blame_document(f, tmp, tmp, path);
}

/* Merges the translated XLIFF into the document, keeping the pipeline's
 * report of a partial run. */
static xmt_status merge(xmt_filter *f, const struct xmt_format *fmt, void *doc,
                        const char *xliff_path, const char *out_path,
                        xmt_status translated) {
  if (translated != XMT_OK && translated != XMT_ERR_PARTIAL)
    return translated;
  struct xmt_error_store keep = {0};
  if (translated == XMT_ERR_PARTIAL)
    xmt_error_copy(&keep, &f->err.pub);
  xmt_status st = fmt->merge(f, doc, xliff_path, out_path);
  if (st == XMT_OK && translated == XMT_ERR_PARTIAL) {
    xmt_error_copy(&f->err, &keep.pub);
    st = translated;
  }
  xmt_error_clear(&keep);
  return st;
}

xmt_status xmt_format_translate(xmt_filter *f, const struct xmt_format *fmt,
                                const char *in_path, const char *out_path) {
  memset(&f->stats, 0, sizeof f->stats);
  if (in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "no input file");
  if (f->target_language == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, in_path, 0, 0, NULL, "%s",
                         "no target language: give one with -t");
  void *doc = NULL;
  size_t bytes = 0;
  xmt_status st = fmt->open(f, in_path, &doc, &bytes);
  if (st != XMT_OK)
    return st;
  char tmp1[4096] = "", tmp2[4096] = "";
  st = temp_file(f, tmp1, sizeof tmp1);
  if (st == XMT_OK)
    st = temp_file(f, tmp2, sizeof tmp2);
  if (st == XMT_OK)
    st = fmt->write_xliff(f, doc, in_path, tmp1);
  if (st == XMT_OK) {
    /* The pipeline writes targets; alt-trans proposals would not merge. */
    unsigned flags = f->flags;
    f->flags &= ~XMT_FILTER_ALT_TRANS;
    st = xmt_pipeline_run(f, tmp1, tmp2, XMT_PIPELINE_TRANSLATE);
    f->flags = flags;
    f->stats.bytes_in = bytes;
    blame_document(f, tmp1, tmp2, in_path);
    st = merge(f, fmt, doc, tmp2, out_path, st);
  }
  blame_document(f, tmp1, tmp2, in_path);
  fmt->close(doc);
  if (tmp1[0] != '\0')
    unlink(tmp1);
  if (tmp2[0] != '\0')
    unlink(tmp2);
  return st;
}
