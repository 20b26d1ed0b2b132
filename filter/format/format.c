/* format.c -- the file functions of the library: each asks detect.c for
 * the document's format, an entry of its table, and runs the pipeline on
 * it with that entry's operations (filter_private.h); what differs from
 * one format to another is asked of the entry, never of its name. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

xmt_status xmt_format_of(xmt_filter *f, const char *in_path,
                         const struct xmt_format **format) {
  enum xmt_doc_format found = XMT_FORMAT_XLIFF;
  xmt_status st = xmt_filter_detect_format(f, in_path, &found);
  *format = xmt_format_entry(found);
  return st;
}

void xmt_format_blame(xmt_filter *f, const struct xmt_format *format,
                      const char *in_path) {
  const struct xmt_error *e = &f->err.pub;
  int placed = f->err_placed;
  f->err_placed = 0;
  if (placed || format == NULL || format->read == NULL || e->status == XMT_OK ||
      e->file == NULL || strcmp(e->file, in_path) != 0 ||
      (e->line == 0 && e->column == 0))
    return;
  char msg[512], unit[64];
  snprintf(msg, sizeof msg, "%s",
           e->message != NULL ? e->message : xmt_strerror(e->status));
  snprintf(unit, sizeof unit, "%s", e->unit_id != NULL ? e->unit_id : "");
  xmt_error_at(&f->err, e->status, XMT_IN_UNIT(in_path, unit[0] ? unit : NULL),
               "%s", msg);
}

xmt_status xmt_format_open(xmt_filter *f, const struct xmt_format *format,
                           const char *path, void **doc, size_t *bytes) {
  if (strcmp(path, "-") != 0 || !f->stdin_head.held)
    return format->open(f, path, doc, bytes);
  /* Standard input, whose first bytes detect.c holds: read whole, as
   * format->open reads a file, and parsed. */
  *doc = NULL;
  *bytes = 0;
  struct xmt_buf data = {0};
  xmt_status st = xmt_input_read_whole(f, path, &data, &f->err);
  if (st == XMT_ERR_NOMEM)
    st = xmt_error_nomem(&f->err);
  if (st == XMT_OK) {
    *bytes = data.len;
    st = format->parse(f, path, data.data, data.len, doc);
  }
  xmt_buf_free(&data);
  return st;
}

int xmt_format_has_units(enum xmt_doc_format id) {
  const struct xmt_format *format = xmt_format_entry(id);
  /* XLIFF 2 is read as units too, but has segments of its own */
  return format != NULL && !format->segments_io && format->read != NULL &&
         format->take != NULL && format->write != NULL;
}

/* --- The unit stream of a document -----------------------------------------
 */

/* A document opened with one of its format's ways to open (open_whole,
 * open_for_text), when it has it; else as a run opens it (standard input
 * detect.c holds a head of is read whole by xmt_format_open already). */
typedef xmt_status (*open_fn)(xmt_filter *f, const char *path, void **doc,
                              size_t *bytes);
static xmt_status open_with(xmt_filter *f, const struct xmt_format *format,
                            open_fn how, const char *path, void **doc,
                            size_t *bytes) {
  if (how != NULL && (strcmp(path, "-") != 0 || !f->stdin_head.held))
    return how(f, path, doc, bytes);
  return xmt_format_open(f, format, path, doc, bytes);
}

/* The XLIFF 1.2 of the units of doc, to sink, written by units_out.c. */
static xmt_status units_text(xmt_filter *f, const struct xmt_format *format,
                             void *doc, const char *path, xmt_write_fn sink,
                             void *user, struct xmt_doc_facts *facts) {
  struct xmt_units_out out;
  xmt_units_out_init(&out, sink, user);
  const struct xmt_unit_sink to_text = xmt_units_out_sink_of(&out);
  xmt_status st = format->read(f, doc, path, &to_text);
  xmt_status end = xmt_units_out_end(&out);
  if (facts != NULL) {
    memset(facts, 0, sizeof *facts);
    if (format->describe != NULL)
      format->describe(doc, facts);
  }
  return st != XMT_OK ? st : end;
}

/* XLIFF 1.2 in_path to reader, by the reader itself. */
static xmt_status read_xliff(xmt_filter *f, const char *in_path,
                             xmt_xliff_reader *reader,
                             struct xmt_error_store *err, size_t *bytes_in) {
  FILE *in = xmt_input_open(in_path, err);
  if (in == NULL)
    return err->pub.status;
  size_t head_len;
  const char *head = xmt_stdin_take(f, in_path, &head_len);
  xmt_status st =
      xmt_read_all(reader, head, head_len, in, in_path, err, bytes_in);
  if (in != stdin)
    fclose(in);
  return st;
}

xmt_status xmt_format_read_units(xmt_filter *f, const char *in_path,
                                 xmt_xliff_reader *reader,
                                 struct xmt_error_store *err, size_t *bytes_in,
                                 struct xmt_doc_facts *facts,
                                 xmt_rule_fn on_rule, void *rule_user) {
  const struct xmt_format *format;
  memset(facts, 0, sizeof *facts);
  xmt_status st = xmt_format_of(f, in_path, &format);
  if (st != XMT_OK)
    return st;
  if (format->read == NULL)
    return read_xliff(f, in_path, reader, err, bytes_in);
  void *doc = NULL;
  int rules = format->check != NULL && on_rule != NULL;
  facts->own_rules = rules;
  if (rules && format->check_file != NULL && strcmp(in_path, "-") != 0) {
    /* The rules read the file on their own; its units are then read as a
     * stream, as a translation reads them. */
    st = format->check_file(f, in_path, on_rule, rule_user, err);
    rules = 0;
    if (st == XMT_OK)
      st = xmt_format_open(f, format, in_path, &doc, bytes_in);
  } else {
    /* standard input is read once: held whole for the rules */
    st = open_with(f, format, format->open_whole, in_path, &doc, bytes_in);
  }
  if (st != XMT_OK)
    return st;
  if (rules)
    st = format->check(doc, on_rule, rule_user, err);
  if (st == XMT_OK)
    st = xmt_pipeline_feed(f, format, doc, in_path, reader, err);
  if (format->describe != NULL)
    format->describe(doc, facts);
  format->close(doc);
  return st;
}

/* The XLIFF a format's units() writes, in memory; grown is what the
 * last growth of out gave, to tell its failure from the format's. */
struct held {
  struct xmt_buf *out;
  xmt_status grown;
};

static int append_xliff(void *user, const char *bytes, size_t len) {
  struct held *h = user;
  h->grown = xmt_buf_append(h->out, bytes, len);
  return h->grown != XMT_OK;
}

xmt_status xmt_format_units_xliff(xmt_filter *f, const char *in_path,
                                  struct xmt_buf *out,
                                  struct xmt_doc_facts *facts) {
  const struct xmt_format *format;
  xmt_buf_reset(out);
  xmt_status st = xmt_format_of(f, in_path, &format);
  if (st != XMT_OK || format->read == NULL)
    return st;
  void *doc = NULL;
  size_t bytes = 0;
  /* read whole: a malformed document fails here, before any unit */
  st = open_with(f, format, format->open_whole, in_path, &doc, &bytes);
  if (st != XMT_OK)
    return st;
  struct held held = {out, XMT_OK};
  st = units_text(f, format, doc, in_path, append_xliff, &held, facts);
  /* Only a failure to grow out is out of memory: the format's own (a page
   * without a source language) is in f->err already, and stays. */
  if (held.grown != XMT_OK)
    st = xmt_error_nomem(&f->err);
  else if (st != XMT_OK && f->err.pub.status != st)
    st = xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  format->close(doc);
  return st;
}

/* The XLIFF a format's units() writes, to a file. */
struct spooled {
  FILE *out;
  int failed;
};

static int write_xliff(void *user, const char *bytes, size_t len) {
  struct spooled *sp = user;
  sp->failed = len > 0 && fwrite(bytes, 1, len, sp->out) != len;
  return sp->failed;
}

xmt_status xmt_format_units_file(xmt_filter *f, const char *in_path, FILE *out,
                                 struct xmt_doc_facts *facts) {
  const struct xmt_format *format;
  xmt_status st = xmt_format_of(f, in_path, &format);
  if (st != XMT_OK || format->read == NULL)
    return st;
  void *doc = NULL;
  size_t bytes = 0;
  /* as a translation reads it: a malformed document fails where it is */
  st = open_with(f, format, format->open_for_text, in_path, &doc, &bytes);
  if (st != XMT_OK)
    return st;
  struct spooled sp = {out, 0};
  st = units_text(f, format, doc, in_path, write_xliff, &sp, facts);
  if (!sp.failed && fflush(out) != 0)
    sp.failed = 1;
  if (sp.failed)
    st = xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(in_path),
                      "cannot write the units of the document to a "
                      "temporary file: %s",
                      strerror(errno));
  else if (st != XMT_OK && f->err.pub.status != st)
    st = xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  format->close(doc);
  return st;
}

/* --- File functions ---------------------------------------------------------
 */

/* A document that never says its target language needs -t before it is
 * opened; one that may (own_target) says so once open. */
static xmt_status no_target(xmt_filter *f, const struct xmt_format *format,
                            const char *path) {
  if (f->target_language != NULL || format->own_target != NULL)
    return XMT_OK;
  return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                      "no target language: give one with -t");
}

static xmt_status need_target(xmt_filter *f, const struct xmt_format *format,
                              const void *doc, const char *path) {
  if (f->target_language != NULL || format->own_target == NULL)
    return XMT_OK;
  return format->own_target(f, doc, path);
}

/* The run of an open document d->doc of format, which it then closes.
 * bytes: what opening it read; the whole of it when in memory (whole),
 * else the format's count once run (bytes_read) is the size. */
static xmt_status run_open_doc(xmt_filter *f, struct xmt_pipeline_doc *d,
                               const struct xmt_format *format,
                               enum xmt_pipeline_mode mode, size_t bytes,
                               int whole) {
  xmt_status st = XMT_OK;
  if (mode != XMT_PIPELINE_EXTRACT_TSV && mode != XMT_PIPELINE_EXTRACT_JSONL)
    st = need_target(f, format, d->doc, d->in_path);
  if (st != XMT_OK && !whole) {
    format->close(d->doc);
    return st;
  }
  d->format = format;
  if (st == XMT_OK)
    st = xmt_pipeline_run(f, d, mode);
  if (!whole && format->bytes_read != NULL)
    bytes = format->bytes_read(d->doc);
  f->stats.bytes_in = bytes;
  int own = format->read_failed != NULL && format->read_failed(d->doc);
  format->close(d->doc);
  if (!own)
    xmt_format_blame(f, format, d->in_path);
  return st;
}

/* Runs the document in_path, of any format, to out_path. */
static xmt_status run_document(xmt_filter *f, struct xmt_pipeline_doc *d,
                               const struct xmt_format *format,
                               enum xmt_pipeline_mode mode) {
  d->format = format;
  if (format->read == NULL)
    return xmt_pipeline_run(f, d, mode);
  xmt_status st = no_target(f, format, d->in_path);
  size_t bytes = 0;
  if (st == XMT_OK)
    st = xmt_format_open(f, format, d->in_path, &d->doc, &bytes);
  if (st != XMT_OK)
    return st;
  return run_open_doc(f, d, format, mode, bytes, 0);
}

xmt_status xmt_filter_translate_file(xmt_filter *f, const char *in_path,
                                     const char *out_path) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  const struct xmt_format *format;
  memset(&f->stats, 0, sizeof f->stats);
  xmt_status st = xmt_format_of(f, in_path, &format);
  if (st != XMT_OK)
    return st;
  struct xmt_pipeline_doc d = {.in_path = in_path, .out_path = out_path};
  return run_document(f, &d, format, XMT_PIPELINE_TRANSLATE);
}

xmt_status xmt_filter_translate_html_file(xmt_filter *f, const char *in_path,
                                          const char *out_path) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  memset(&f->stats, 0, sizeof f->stats);
  if (in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  struct xmt_pipeline_doc d = {.in_path = in_path, .out_path = out_path};
  return run_document(f, &d, xmt_format_entry(XMT_FORMAT_HTML),
                      XMT_PIPELINE_TRANSLATE);
}

/* extract and merge of segments are for formats that take them
 * (segments_io: XLIFF 1.2 and 2): a document with units of its own (a
 * page, Word, OpenDocument) goes to XLIFF first (units_io.c). */
static xmt_status segments_io(xmt_filter *f, const char *in_path,
                              const char *what,
                              const struct xmt_format **format) {
  memset(&f->stats, 0, sizeof f->stats);
  xmt_status st = xmt_format_of(f, in_path, format);
  if (st == XMT_OK && !(*format)->segments_io)
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(in_path),
                      "a document in %s has no segments to %s: only XLIFF "
                      "documents do",
                      (*format)->info.description, what);
  return st;
}

xmt_status xmt_filter_extract_segments_file(xmt_filter *f, const char *in_path,
                                            const char *out_path,
                                            enum xmt_segments_format format) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (format != XMT_SEGMENTS_TSV && format != XMT_SEGMENTS_JSONL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown segments format %d",
                         (int)format);
  const struct xmt_format *doc_format;
  xmt_status st = segments_io(f, in_path, "extract", &doc_format);
  if (st != XMT_OK)
    return st;
  struct xmt_pipeline_doc d = {.in_path = in_path, .out_path = out_path};
  return run_document(f, &d, doc_format,
                      format == XMT_SEGMENTS_JSONL ? XMT_PIPELINE_EXTRACT_JSONL
                                                   : XMT_PIPELINE_EXTRACT_TSV);
}

xmt_status xmt_filter_merge_segments_file(xmt_filter *f, const char *in_path,
                                          const char *translations,
                                          const char *alignments,
                                          const char *source_tokens,
                                          const char *target_tokens,
                                          const char *out_path) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (translations == NULL ||
      (source_tokens == NULL) != (target_tokens == NULL))
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "merge needs translations, and source and target "
                         "tokens together");
  const struct xmt_format *format;
  xmt_status st = segments_io(f, in_path, "merge", &format);
  if (st != XMT_OK)
    return st;
  xmt_offline *o = xmt_offline_load(translations, alignments, source_tokens,
                                    target_tokens, &f->err);
  if (o == NULL)
    return f->err.pub.status;
  /* The answers are the file's: the filter's backend is not asked. */
  struct xmt_pipeline_doc d = {.in_path = in_path,
                               .out_path = out_path,
                               .backend = &xmt_backend_offline,
                               .backend_user = o};
  st = run_document(f, &d, format, XMT_PIPELINE_MERGE);
  xmt_offline_free(o);
  return st;
}

/* The names of xliffmt 0.1, deprecated, kept one release: the same
 * functions under a second name (an alias must stand beside its body). */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
extern __typeof__(xmt_filter_extract_segments_file) xmt_filter_extract_file
    __attribute__((alias("xmt_filter_extract_segments_file")));
extern __typeof__(xmt_filter_merge_segments_file) xmt_filter_merge_file
    __attribute__((alias("xmt_filter_merge_segments_file")));
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* --- In memory --------------------------------------------------------------
 */

/* The output handed to the caller, NUL-terminated. */
static xmt_status hand_over(xmt_filter *f, struct xmt_buf *out, char **output,
                            size_t *output_len) {
  if (xmt_buf_append_byte(out, '\0') != XMT_OK)
    return xmt_error_nomem(&f->err);
  *output_len = out->len - 1;
  *output = out->data;
  memset(out, 0, sizeof *out);
  return XMT_OK;
}

xmt_status xmt_filter_translate_buffer(xmt_filter *f,
                                       enum xmt_doc_format format,
                                       const char *name, const char *input,
                                       size_t len, char **output,
                                       size_t *output_len) {
  if (f == NULL || output == NULL || output_len == NULL)
    return XMT_ERR_USAGE;
  *output = NULL;
  *output_len = 0;
  xmt_error_clear(&f->err);
  memset(&f->stats, 0, sizeof f->stats);
  if (input == NULL && len > 0)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input");
  const struct xmt_format *entry = xmt_format_entry(format);
  if (entry == NULL || (entry->read != NULL && entry->parse == NULL))
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown document format %d",
                         (int)format);
  struct xmt_buf out = {0};
  struct xmt_pipeline_doc d = {.in_path = name != NULL ? name : "-",
                               .input = input != NULL ? input : "",
                               .input_len = len,
                               .output = &out};
  xmt_status st;
  if (entry->read == NULL) {
    d.format = entry;
    st = xmt_pipeline_run(f, &d, XMT_PIPELINE_TRANSLATE);
  } else {
    st = no_target(f, entry, d.in_path);
    if (st == XMT_OK)
      st = entry->parse(f, d.in_path, d.input, len, &d.doc);
    if (st == XMT_OK)
      st = run_open_doc(f, &d, entry, XMT_PIPELINE_TRANSLATE, len, 1);
  }
  if (st == XMT_OK || st == XMT_ERR_PARTIAL) {
    xmt_status handed = hand_over(f, &out, output, output_len);
    if (handed != XMT_OK)
      st = handed;
  }
  xmt_buf_free(&out);
  return st;
}
