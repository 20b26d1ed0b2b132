/* xliff2.c -- the XLIFF 2.0-2.2 format of the pipeline: a document's
 * segments handed to the unit reader as XLIFF 1.2 trans-units as each
 * unit ends, their targets taken back, and the document written as they
 * come (stream.c). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stream_private.h"

/* The first element decides: <xliff> of version 2 (detect.c reads it). */
static int bid(const struct xmt_head *head) {
  return head->root == XMT_ROOT_XLIFF2 ? XMT_BID_ELEMENT : XMT_BID_NO;
}

/* The document handle: the stream, and the warnings of the writer, told
 * on the main thread when the document is written. */
struct handle {
  struct x2_stream *s;
  xmt_filter *f;
  /* --seg-source: cuts the source and target of a segment whose target
   * is kept (loaded at the first such segment) */
  xmt_segmenter *kept_seg;
  int kept_failed;
  struct xmt_buf warnings; /* line, unit id, message: NUL-terminated */
  xmt_status warn_st;
};

/* The languages of the document against the run's. */
static xmt_status check_languages(xmt_filter *f, const struct x2_stream *s) {
  const struct x2_doc *doc = &s->live;
  const struct xmt_where at = {
      .file = doc->path, .line = s->root_line, .column = s->root_column};
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
  struct handle *h = doc;
  if (h == NULL)
    return;
  xmt_x2_stream_free(h->s);
  xmt_segmenter_free(h->kept_seg);
  xmt_buf_free(&h->warnings);
  free(h);
}

/* A handle of the stream opened (st), its languages checked. */
static xmt_status new_doc(xmt_filter *f, struct x2_stream *s, xmt_status st,
                          void **out) {
  struct handle *h = calloc(1, sizeof *h);
  if (h == NULL) {
    xmt_x2_stream_free(s);
    return xmt_error_nomem(&f->err);
  }
  h->s = s;
  h->f = f;
  if (st == XMT_OK)
    st = check_languages(f, s);
  if (st != XMT_OK) {
    close_doc(h);
    *out = NULL;
    return st;
  }
  *out = h;
  return XMT_OK;
}

/* The document at path, read as it is translated. */
static xmt_status open_doc(xmt_filter *f, const char *path, void **doc,
                           size_t *bytes) {
  *doc = NULL;
  *bytes = 0; /* known once read: bytes_read */
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  struct x2_stream *s = NULL;
  xmt_status st = xmt_x2_stream_open(&s, fp, path, 0, &f->err);
  return new_doc(f, s, st, doc);
}

static xmt_status open_unique(xmt_filter *f, const char *path, void **doc,
                              size_t *bytes) {
  *doc = NULL;
  *bytes = 0;
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  struct x2_stream *s = NULL;
  xmt_status st = xmt_x2_stream_open_unique(&s, fp, path, 0, &f->err);
  return new_doc(f, s, st, doc);
}

/* The document at path held whole, as check's rules want it. */
static xmt_status open_whole(xmt_filter *f, const char *path, void **doc,
                             size_t *bytes) {
  *doc = NULL;
  *bytes = 0;
  struct xmt_buf data = {0};
  xmt_status st = xmt_input_read_whole(f, path, &data, &f->err);
  if (st != XMT_OK) {
    xmt_buf_free(&data);
    return st == XMT_ERR_NOMEM ? xmt_error_nomem(&f->err) : st;
  }
  *bytes = data.len;
  struct x2_stream *s = NULL;
  st = xmt_x2_stream_memory(&s, &data, path, 0, &f->err);
  return new_doc(f, s, st, doc);
}

static xmt_status parse_doc(xmt_filter *f, const char *name, const char *bytes,
                            size_t len, void **doc) {
  struct xmt_buf data = {0};
  *doc = NULL;
  if (len > 0 && xmt_buf_append(&data, bytes, len) != XMT_OK)
    return xmt_error_nomem(&f->err);
  struct x2_stream *s = NULL;
  xmt_status st = xmt_x2_stream_memory(&s, &data, name, 0, &f->err);
  return new_doc(f, s, st, doc);
}

static size_t bytes_read(const void *doc) {
  return ((const struct handle *)doc)->s->bytes_in;
}

static int read_failed(const void *doc) {
  return ((const struct handle *)doc)->s->read_failed;
}

static xmt_status doc_units(xmt_filter *f, void *doc, const char *path,
                            const struct xmt_unit_sink *sink) {
  const struct x2_doc *d = &((struct handle *)doc)->s->live;
  (void)path;
  int split = (f->flags & XMT_FILTER_SEG_SOURCE) != 0 &&
              (f->flags & XMT_FILTER_ALT_TRANS) == 0;
  return xmt_x2_stream_units(
      ((struct handle *)doc)->s,
      f->source_language != NULL ? f->source_language : d->src_lang,
      f->target_language != NULL ? f->target_language : d->trg_lang,
      ((f->flags & XMT_FILTER_OVERWRITE) != 0 ? X2_UNITS_OVERWRITE : 0u) |
          ((f->flags & XMT_FILTER_ALT_TRANS) != 0 ? X2_UNITS_MATCHES : 0u) |
          (split ? 0u : X2_UNITS_SEGMENTS_KEPT),
      sink);
}

/* A segmenter of the run's rules of its own (the run's keeps its
 * language): NULL when the rules do not load (a target kept is then
 * written whole, as without --seg-source). */
static xmt_status kept_segmenter(struct handle *h) {
  if (h->kept_seg != NULL || h->kept_failed)
    return XMT_OK;
  xmt_segmenter *seg = xmt_segmenter_new();
  if (seg == NULL)
    return XMT_ERR_NOMEM;
  if ((h->f->srx_path != NULL &&
       xmt_segmenter_load_srx(seg, h->f->srx_path) != XMT_OK) ||
      xmt_segmenter_set_flags(seg, XMT_SEGMENTER_NO_ICU) != XMT_OK) {
    xmt_segmenter_free(seg);
    h->kept_failed = 1;
    return XMT_OK;
  }
  h->kept_seg = seg;
  return XMT_OK;
}

/* On the run's main or worker thread, beside the read on the reader's
 * (read_apart): the stream locks what it shares with it. */
static xmt_status take_target(xmt_filter *f, void *doc,
                              const xmt_xliff_unit *unit,
                              const xmt_segment *target) {
  struct handle *h = doc;
  const char *id =
      xmt_xliff_unit_id(unit) != NULL ? xmt_xliff_unit_id(unit) : "";
  /* --seg-source: the sentences become segments (not as matches) */
  int split = (f->flags & XMT_FILTER_SEG_SOURCE) != 0 &&
              (f->flags & XMT_FILTER_ALT_TRANS) == 0;
  struct x2_kept_cut kept = {0};
  if (split && target == NULL && f->segmentation != XMT_SEGMENT_NONE &&
      kept_segmenter(h) == XMT_ERR_NOMEM)
    return xmt_error_nomem(&f->err);
  if (h->kept_seg != NULL) {
    const struct x2_doc *d = &h->s->live;
    kept.seg = h->kept_seg;
    kept.source_language =
        f->source_language != NULL ? f->source_language : d->src_lang;
    kept.target_language =
        f->target_language != NULL ? f->target_language : d->trg_lang;
  }
  xmt_status st = xmt_x2_stream_take(h->s, id, unit, target, split,
                                     h->kept_seg != NULL ? &kept : NULL);
  if (st == XMT_ERR_INTERNAL)
    return xmt_error_at(&f->err, XMT_ERR_INTERNAL,
                        &(const struct xmt_where){.unit_id = id},
                        "a segment the document does not have");
  return st;
}

/* Kept for the main thread (the writer runs where targets are taken). */
static void keep_warning(void *user, const char *unit_id, unsigned long line,
                         const char *message) {
  struct handle *h = user;
  char num[32];
  snprintf(num, sizeof num, "%c%lu", unit_id != NULL ? 'u' : 'n', line);
  if (h->warn_st == XMT_OK)
    h->warn_st = xmt_buf_append(&h->warnings, num, strlen(num) + 1);
  if (h->warn_st == XMT_OK)
    h->warn_st = xmt_buf_append(&h->warnings, unit_id != NULL ? unit_id : "",
                                strlen(unit_id != NULL ? unit_id : "") + 1);
  if (h->warn_st == XMT_OK)
    h->warn_st = xmt_buf_append(&h->warnings, message, strlen(message) + 1);
}

static xmt_status stream_doc(xmt_filter *f, void *doc,
                             const char *target_language, xmt_write_fn sink,
                             void *user) {
  struct handle *h = doc;
  xmt_x2_stream_write_to(
      h->s, target_language != NULL ? target_language : h->s->live.trg_lang,
      (f->flags & XMT_FILTER_ALT_TRANS) != 0, keep_warning, h, sink, user);
  return XMT_OK;
}

static xmt_status write_doc(xmt_filter *f, void *doc,
                            const char *target_language, xmt_write_fn sink,
                            void *user) {
  struct handle *h = doc;
  if (h->s->sink == NULL) /* not streamed: all is written now */
    return xmt_error_set(&f->err, XMT_ERR_INTERNAL, "%s",
                         "the document was not read to be written");
  (void)target_language;
  (void)sink;
  (void)user;
  xmt_status st = xmt_x2_stream_finish(h->s);
  if (st != XMT_OK && f->err.pub.status != st)
    xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  if (st == XMT_OK && h->warn_st != XMT_OK)
    st = xmt_error_nomem(&f->err);
  f->stats.filled_copies += h->s->filled_copies;
  for (size_t at = 0; st == XMT_OK && at < h->warnings.len;) {
    const char *line = h->warnings.data + at;
    const char *unit = line + strlen(line) + 1;
    const char *message = unit + strlen(unit) + 1;
    at = (size_t)(message - h->warnings.data) + strlen(message) + 1;
    if (f->on_warning != NULL)
      f->on_warning(f->callback_user, line[0] == 'u' ? unit : NULL,
                    strtoul(line + 1, NULL, 10), message);
  }
  return st;
}

/* A document to translate without -t must name its target language: an
 * empty trgLang names none (its targets would be in no language). */
static xmt_status own_target(xmt_filter *f, const void *doc, const char *path) {
  const char *trg = ((const struct handle *)doc)->s->live.trg_lang;
  if (trg != NULL && trg[0] != '\0')
    return XMT_OK;
  return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                      "<xliff> has %s trgLang: give the target language "
                      "with -t",
                      trg == NULL ? "no" : "an empty");
}

static void describe(const void *doc, struct xmt_doc_facts *facts) {
  static const char *const versions[] = {"2.0", "2.1", "2.2"};
  const struct x2_stream *s = ((const struct handle *)doc)->s;
  const struct x2_doc *d = &s->live;
  for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
    if (d->version != NULL && strcmp(d->version, versions[i]) == 0)
      facts->version = versions[i];
  facts->encoding = xmt_encoding_name(d->encoding);
  xmt_x2_stream_count(s, facts);
}

static xmt_status check_doc(const void *doc, xmt_rule_fn fn, void *user,
                            struct xmt_error_store *err) {
  const struct x2_stream *s = ((const struct handle *)doc)->s;
  const struct x2_doc *d = &s->whole;
  if (s->fp != NULL)
    return xmt_error_at(err, XMT_ERR_INTERNAL, XMT_IN(d->path), "%s",
                        "the document is not held whole");
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

static xmt_status check_file(xmt_filter *f, const char *path, xmt_rule_fn fn,
                             void *user, struct xmt_error_store *err) {
  (void)f;
  FILE *fp = xmt_input_open(path, err);
  if (fp == NULL)
    return err->pub.status;
  /* Read as a stream, a part (a unit) at a time: memory holds the ids of
   * the <file>s and of one <file>'s groups and units, not the document.
   * A document that cannot be read is the reader's to tell, with its
   * line and column, when its units are read: the rules leave it. */
  struct xmt_error_store reading = {0};
  struct x2_stream *s = NULL;
  struct x2_rules *rules = NULL;
  xmt_status opened = xmt_x2_stream_open(&s, fp, path, 0, &reading);
  xmt_status st =
      s == NULL ? XMT_ERR_NOMEM : xmt_x2_rules_new(&rules, fn, user);
  if (st == XMT_OK)
    st = xmt_x2_stream_rules(s, rules, opened);
  xmt_x2_rules_free(rules);
  xmt_x2_stream_free(s);
  xmt_error_clear(&reading);
  if (st == XMT_ERR_NOMEM)
    return xmt_error_nomem(err);
  if (st == XMT_ERR_ABORTED)
    return xmt_error_at(err, st, XMT_IN(path), "%s", "the check was stopped");
  return XMT_OK;
}

/* .xlf is XLIFF 1.2's too: the content tells XLIFF 2 (bid). */
static const char *const no_extensions[] = {NULL};

const struct xmt_format xmt_format_xliff2 = {
    .info = {XMT_FORMAT_XLIFF2, "xliff2", "XLIFF 2.0-2.2", no_extensions},
    .bid = bid,
    .segments_io = 1,
    .schema = 1,
    .open = open_doc,
    .parse = parse_doc,
    .read = doc_units,
    .take = take_target,
    .read_apart = 1,
    .write = write_doc,
    .close = close_doc,
    .stream = stream_doc,
    .open_whole = open_whole,
    .open_for_text = open_unique,
    .own_target = own_target,
    .bytes_read = bytes_read,
    .read_failed = read_failed,
    .check_file = check_file,
    .check = check_doc,
    .describe = describe};
