/* run.c -- the translate pipeline's run: read, batch, translate, re-tag,
 * write, in document order and bounded memory. Sets the run up from the
 * filter, reads the document through units.c, and tears everything down;
 * the other rooms (pipeline_private.h) do the work. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pipeline_private.h"

int xmt_run_fail(struct run *run, xmt_status st, unsigned long line,
                 const char *unit_id, const char *message) {
  xmt_error_at(&run->filter->err, st, XMT_AT_UNIT(run->in_path, line, unit_id),
               "%s", message);
  run->failed = 1;
  return 1;
}

int xmt_run_fail_with(struct run *run, const struct xmt_error *e) {
  xmt_error_copy(&run->filter->err, e);
  run->failed = 1;
  return 1;
}

int xmt_run_nomem(struct run *run) {
  return xmt_run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
}

int xmt_run_dedupes(const struct run *run) {
  return run->mode == XMT_PIPELINE_TRANSLATE;
}

xmt_filter *xmt_run_filter(const struct run *run) { return run->filter; }

enum xmt_pipeline_mode xmt_run_mode(const struct run *run) { return run->mode; }

enum xmt_tag_mode xmt_run_tag_mode(const struct run *run) {
  return run->tag_mode;
}

enum xmt_projection_rule xmt_run_rule(const struct run *run) {
  return run->rule;
}

struct xmt_filter_stats *xmt_run_stats(const struct run *run) {
  return run->stats;
}

struct window *xmt_run_fill(const struct run *run) {
  return run->fill;
}

struct window *xmt_run_asking(const struct run *run, int *probes) {
  if (probes != NULL)
    *probes = run->asking_probes;
  return run->asking;
}

void xmt_run_set_asking(struct run *run, struct window *w, int probes) {
  run->asking = w;
  run->asking_probes = probes;
}

struct stage_tools *xmt_run_tools(const struct run *run) {
  return run->tt;
}

struct stage_tools *xmt_run_place_tools(const struct run *run) {
  return run->pt;
}

int *xmt_run_placed_unit(struct run *run) {
  return &run->placed_unit_translated;
}

const char *xmt_run_source_language(const struct run *run) {
  return run->source_language;
}

const char *xmt_run_target_language(const struct run *run) {
  return run->target_language;
}

const struct xmt_xliff_target_options *xmt_run_options(const struct run *run) {
  return &run->options;
}

struct xmt_output *xmt_run_extract(const struct run *run) {
  return run->extract;
}

struct segments_out *xmt_run_segments(struct run *run) {
  return &run->segments;
}

int xmt_run_marks_segments(const struct run *run) {
  return run->extract != NULL || run->engine.backend == &xmt_backend_offline;
}

int xmt_run_probing(const struct run *run) { return run->probing; }

int xmt_run_failed(const struct run *run) { return run->failed; }

const char *xmt_run_in_path(const struct run *run) { return run->in_path; }

int xmt_run_warns(const struct run *run) {
  return run->filter->on_warning != NULL;
}

void xmt_run_warn(const struct run *run, const char *id, unsigned long line,
                  const char *message) {
  const xmt_filter *f = run->filter;
  if (f->on_warning != NULL)
    f->on_warning(f->callback_user, id, line, message);
}

int xmt_run_tells_failures(const struct run *run) {
  return run->filter->on_failure != NULL;
}

void xmt_run_tell_failure(const struct run *run, const char *id,
                          unsigned long line, const char *message) {
  const xmt_filter *f = run->filter;
  if (f->on_failure != NULL)
    f->on_failure(f->callback_user, id, line, message);
}

xmt_segmenter *xmt_run_segmenter(const struct run *run, int *resegment,
                                 int *icu_only) {
  *resegment = run->resegment;
  *icu_only = run->icu_only;
  return run->segmenter;
}

size_t xmt_run_max_answer(const struct run *run) {
  const xmt_filter *f = run->filter;
  return f->max_answer != 0 ? f->max_answer : XMT_DEFAULT_MAX_ANSWER;
}

int xmt_run_one_window(const struct run *run) {
  return run->reading_done && run->windows_handed == 0;
}

struct engine *xmt_run_engine(struct run *run) {
  return &run->engine;
}

struct tm_state *xmt_run_tm(struct run *run) {
  return &run->tm;
}

struct asks *xmt_run_asks(struct run *run) {
  return &run->asks;
}

struct align_state *xmt_run_align(struct run *run) {
  return &run->align;
}

pthread_mutex_t *xmt_run_probes_lock(struct run *run) {
  return &run->probes_lock;
}

pthread_cond_t *xmt_run_probes_cond(struct run *run) {
  return &run->probes_cond;
}

xmt_status xmt_run_put_unit(struct run *run, const xmt_xliff_unit *unit,
                            const struct xmt_xliff_target_options *options,
                            xmt_segment *scratch) {
  if (run->format == NULL)
    return xmt_xliff_writer_unit(run->writer, unit, options);
  const xmt_segment *target = NULL;
  xmt_status st = xmt_xliff_unit_target(unit, options, scratch, &target);
  if (st == XMT_OK)
    st = run->format->take(run->filter, run->doc, unit, target);
  return st;
}

xmt_status xmt_run_put_skeleton(struct run *run, const char *bytes,
                                size_t len) {
  return xmt_xliff_writer_skeleton(run->writer, bytes, len);
}

static void run_free(struct run *run) {
  for (size_t k = 0; k < RTHREAD_WINDOWS; k++)
    xmt_window_free(&run->windows[k]);
  struct engine *e = &run->engine;
  for (size_t k = 0; k < e->lanes_cap; k++) {
    free(e->lanes[k].requests);
    free(e->lanes[k].response_ptrs);
    xmt_buf_free(&e->lanes[k].ids);
  }
  free(e->lanes);
  free(e->pending);
  xmt_requests_free(run);
  xmt_tm_free(run);
  xmt_unit_keys_free(&run->unit_keys);
  xmt_tools_free(run->tt);
  xmt_tools_free(run->pt);
  free(run->source_language);
  free(run->target_language);
  xmt_segments_mark_free(run);
  xmt_xliff_reader_free(run->reader);
  xmt_xliff_writer_free(run->writer);
  xmt_align_free(run);
}

/* Each stage's settings, copied from the filter: the stages read these,
 * never the filter's fields. */
void xmt_engine_settings(xmt_filter *f, struct engine_settings *s) {
  const struct engine_settings es = {
      f->backend,
      f->backend_user,
      f->backend_spec,
      (const char *const *)f->backend_options,
      f->source_language,
      f->target_language,
      f->timeout_ms,
      f->max_answer != 0 ? f->max_answer : XMT_DEFAULT_MAX_ANSWER,
      &f->interrupted,
      f->batch_size ? f->batch_size : DEFAULT_BATCH,
      f->engine_jobs > 1 ? f->engine_jobs : 1,
      (f->flags & XMT_FILTER_KEEP_GOING) != 0,
      f->progress,
      f->callback_user,
      (f->flags & XMT_FILTER_KEEP_ENGINES) != 0,
      &f->engines,
      &f->nengines,
      &f->engine_config,
      &f->err};
  *s = es;
}

static void stage_settings(struct run *run, xmt_filter *f) {
  xmt_engine_settings(f, &run->engine.settings);
  const struct tm_settings ts = {f->cache_uri,
                                 f->cache_max,
                                 (const char *const *)f->backend_options,
                                 f->nbackend_options,
                                 &f->cache,
                                 &f->interrupted,
                                 &f->err};
  run->tm.settings = ts;
  const struct align_settings as = {f->aligner_mode,
                                    f->align_model,
                                    f->align_kind,
                                    (const char *const *)f->dicts,
                                    f->ndicts,
                                    f->symmetrization,
                                    (f->flags & XMT_FILTER_UPDATE_MODEL) != 0,
                                    (f->flags & XMT_FILTER_KEEP_DICTIONARIES) !=
                                        0,
                                    &f->lexicon,
                                    &f->err};
  run->align.settings = as;
}

/* The run's options from the filter and the document. */
static void run_init(struct run *run, xmt_filter *f,
                     const struct xmt_pipeline_doc *d,
                     enum xmt_pipeline_mode mode) {
  memset(run, 0, sizeof *run);
  run->filter = f;
  run->mode = mode;
  run->tag_mode = f->tag_mode;
  run->rule = f->rule;
  run->stats = &f->stats;
  run->given_source = f->source_language;
  run->given_target = f->target_language;
  run->window = f->window ? f->window : DEFAULT_WINDOW;
  /* Identity's answers are its requests, whatever the window: in small
   * windows the reader's thread reads on while this one writes. */
  if (d->backend == NULL && f->backend == &xmt_backend_identity &&
      run->window > IDENTITY_WINDOW)
    run->window = IDENTITY_WINDOW;
  run->in_path = d->in_path;
  /* XLIFF 1.2's entry has no read operation: the run's own reader and
   * writer read and write it */
  run->format = d->format != NULL && d->format->read != NULL ? d->format : NULL;
  run->doc = d->doc;
  run->input = d->input;
  run->input_len = d->input_len;
  struct engine *e = &run->engine;
  e->backend = d->backend != NULL ? d->backend : f->backend;
  e->backend_user = d->backend != NULL ? d->backend_user : f->backend_user;
  e->backend_spec = d->backend != NULL ? NULL : f->backend_spec;
  stage_settings(run, f);
  run->options.state = f->state;
  run->options.state_qualifier = f->state_qualifier;
  run->options.overwrite = (f->flags & XMT_FILTER_OVERWRITE) != 0;
  /* Proposals in alt-trans are XLIFF's: another format takes targets. */
  run->options.alt_trans =
      (f->flags & XMT_FILTER_ALT_TRANS) != 0 && run->format == NULL;
  run->options.approved = (f->flags & XMT_FILTER_APPROVED) != 0;
  run->options.seg_source = (f->flags & XMT_FILTER_SEG_SOURCE) != 0;
  /* Probes need the engine: not for the offline workflow; and not for
   * identity, whose answers keep every tag where it was. */
  run->probing =
      f->probes == XMT_PROBES_AUTO && f->tag_mode == XMT_TAGS_PROJECT &&
      mode == XMT_PIPELINE_TRANSLATE && e->backend != &xmt_backend_identity;
}

static int extracting(enum xmt_pipeline_mode mode) {
  return mode == XMT_PIPELINE_EXTRACT_TSV || mode == XMT_PIPELINE_EXTRACT_JSONL;
}

/* What is checked before the input is opened. */
static xmt_status run_check(struct run *run) {
  xmt_filter *f = run->filter;
  xmt_status st = xmt_filter_prepare_segmenter(f);
  if (st == XMT_OK && !extracting(run->mode))
    st = xmt_check_align_model(&run->align.settings);
  if (st != XMT_OK)
    return st;
  run->segmenter = f->segmenter; /* loaded now */
  run->resegment = f->resegment; /* set as the segmenter is prepared */
  run->icu_only = f->segmentation == XMT_SEGMENT_NONE;
  /* A kept reference is a code no engine markup can carry. */
  if ((f->flags & XMT_FILTER_KEEP_ENTITIES) != 0 && f->tag_mode == XMT_TAGS_RAW)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "kept entity references need the project or mask "
                         "tag mode, not raw");
  return XMT_OK;
}

/* The reader, the writer, the lanes (with the states an earlier run
 * kept) and the first backend state. The locks are made whatever
 * fails: run_close destroys them. */
static xmt_status run_open(struct run *run, struct xmt_output *out) {
  xmt_filter *f = run->filter;
  if (run->format == NULL)
    run->writer = xmt_xliff_writer_new(xmt_output_write, out);
  run->reader = xmt_xliff_reader_new(&xmt_units_callbacks, run);
  if (run->reader != NULL)
    xmt_xliff_reader_keep_entities(run->reader,
                                   (f->flags & XMT_FILTER_KEEP_ENTITIES) != 0);
  run->fill = run->reading = &run->windows[0];
  if (extracting(run->mode))
    run->extract = out;
  struct engine *e = &run->engine;
  e->config = &f->engine_config;
  e->lanes_cap = f->engine_jobs > 1 ? f->engine_jobs : 1;
  if (e->lanes_cap < f->nengines)
    e->lanes_cap = f->nengines;
  e->lanes = calloc(e->lanes_cap, sizeof *e->lanes);
  if (e->lanes == NULL)
    e->lanes_cap = 0;
  else if (run->extract == NULL && e->backend == f->backend)
    xmt_engines_take(run);
  pthread_mutex_init(&e->lanes_lock, NULL);
  pthread_mutex_init(&run->probes_lock, NULL);
  pthread_cond_init(&run->probes_cond, NULL);
  if (e->lanes == NULL || (run->writer == NULL && run->format == NULL) ||
      run->reader == NULL || (run->tt = xmt_tools_new()) == NULL ||
      (run->pt = xmt_tools_new()) == NULL ||
      xmt_xliff_reader_set_filename(run->reader, run->in_path) != XMT_OK)
    return xmt_error_nomem(&f->err);
  return xmt_engines_open_first(run);
}

/* The document's units to the reader: an XLIFF file's bytes, or the
 * units a format hands out. */
static xmt_status read_document(struct run *run, FILE *in,
                                struct xmt_error_store *err) {
  xmt_filter *f = run->filter;
  if (run->format == NULL && in == NULL) {
    f->stats.bytes_in = run->input_len;
    return xmt_xliff_reader_parse(run->reader, run->input, run->input_len, 1);
  }
  if (run->format == NULL) {
    size_t head_len;
    const char *head = xmt_stdin_take(f, run->in_path, &head_len);
    return xmt_read_all(run->reader, head, head_len, in, run->in_path, err,
                        &f->stats.bytes_in);
  }
  return xmt_pipeline_feed(f, run->format, run->doc, run->in_path, run->reader,
                           err);
}

struct reading {
  struct run *run;
  FILE *in;
  struct xmt_error_store *err;
};

static void *reader_thread(void *arg) {
  struct reading *r = arg;
  xmt_status st = read_document(r->run, r->in, r->err);
  xmt_rthread_finish(&r->run->rt, r->run->reading, st);
  return NULL;
}

/* Whether the reader gets a thread of its own, which fills a window while
 * this one translates, places and writes the one before: for an XLIFF
 * document written from its own bytes, and for a format whose read and
 * take may share its document. */
static int reader_threads(const struct run *run, FILE *in) {
  if (run->extract != NULL)
    return 0;
  /* A pipe or a terminal may never end: a main thread that fails must
   * not wait for the reader's read to return. */
  struct stat sb;
  if (in != NULL && (fstat(fileno(in), &sb) != 0 || !S_ISREG(sb.st_mode)))
    return 0;
  return run->format == NULL ? run->writer != NULL : run->format->read_apart;
}

/* The document read on the reader's thread while this one drains the
 * windows it fills, until the reader's last (run->fill); the reader's
 * status. Read here, as before, when no thread can be made. */
static xmt_status read_threaded(struct run *run, FILE *in,
                                struct xmt_error_store *err) {
  struct reading r = {run, in, err};
  run->threaded = run->reader_owns = 1;
  if (xmt_rthread_start(&run->rt, &run->windows[1], RTHREAD_WINDOWS - 1,
                        reader_thread, &r) != 0) {
    run->threaded = run->reader_owns = 0;
    return read_document(run, in, err);
  }
  int last = 0, finish = 0, rc = 0;
  while (rc == 0 && !last) {
    struct window *w = xmt_rthread_next(&run->rt, &last, &finish);
    run->fill = w;
    if (last)
      break;
    rc = xmt_window_drain(run);
    if (run->placing != w) /* not handed on: the reader's again */
      xmt_rthread_give(&run->rt, w);
    if (rc == 0 && finish)
      rc = xmt_placing_finish(run);
  }
  if (rc != 0)
    xmt_rthread_stop(&run->rt);
  xmt_rthread_join(&run->rt);
  run->threaded = 0; /* the rest is this thread's, as before */
  return rc != 0 ? XMT_ERR_ABORTED : xmt_rthread_status(&run->rt);
}

/* The document written: the XLIFF writer's last bytes, or a format's
 * document with the targets it took. */
static xmt_status write_document(struct run *run, struct xmt_output *out,
                                 const char *out_path) {
  xmt_filter *f = run->filter;
  xmt_status st = run->format == NULL
                      ? xmt_xliff_writer_flush(run->writer)
                      : run->format->write(f, run->doc, f->target_language,
                                           xmt_output_write, out);
  if (st == XMT_OK || (st == XMT_ERR_WRITE && out->write_errno != 0))
    return st; /* the reason is added on closing */
  if (run->format != NULL && f->err.pub.file != NULL)
    return st; /* the format named the unit */
  const char *what = st == XMT_ERR_NOMEM          ? xmt_strerror(st)
                     : st == XMT_ERR_WRITE        ? "cannot write the output"
                     : f->err.pub.message != NULL ? f->err.pub.message
                                                  : xmt_strerror(st);
  char msg[512];
  snprintf(msg, sizeof msg, "%s", what);
  return xmt_error_at(&f->err, st,
                      XMT_IN(st != XMT_ERR_WRITE && run->format != NULL
                                 ? run->in_path
                                 : out_path),
                      "%s", msg);
}

/* Reads the document through the windows, then writes it. */
static xmt_status run_read(struct run *run, FILE *in, struct xmt_output *out,
                           const char *out_path) {
  xmt_filter *f = run->filter;
  int opened = run->extract == NULL;
  xmt_status st = XMT_OK;
  if (run->engine.nlanes == 0)
    run->engine.nlanes = (size_t)opened;
  struct xmt_error_store read_err = {0};
  if (opened && f->cache_uri != NULL)
    st = xmt_tm_open(run); /* its error is the filter's */
  if (st == XMT_OK && opened && run->format != NULL &&
      run->format->stream != NULL)
    st = run->format->stream(f, run->doc, f->target_language, xmt_output_write,
                             out);
  if (st == XMT_OK) {
    st = reader_threads(run, in) ? read_threaded(run, in, &read_err)
                                 : read_document(run, in, &read_err);
    run->reading_done = 1;
    if (st == XMT_OK && xmt_window_drain(run) != 0)
      st = XMT_ERR_ABORTED;
    xmt_placing_finish(run);
    if (run->failed)
      st = f->err.pub.status;
    else if (read_err.pub.status != XMT_OK)
      st = xmt_error_copy(&f->err, &read_err.pub);
    else if (st != XMT_OK)
      st = xmt_error_copy(&f->err, xmt_xliff_reader_error(run->reader));
  }
  xmt_error_clear(&read_err);
  /* Before anything is committed: a merge whose file holds translations
   * for no segment writes nothing. */
  if (st == XMT_OK && run->engine.backend == &xmt_backend_offline)
    st = xmt_merge_check_mark(run, run->engine.backend_user);
  if (st == XMT_OK && run->engine.backend == &xmt_backend_offline)
    st = xmt_offline_check_asked(run->engine.backend_user, run->in_path,
                                 &f->err);
  if (st == XMT_OK && run->extract == NULL)
    st = write_document(run, out, out_path);
  else if (st == XMT_OK)
    st = xmt_extract_finish(run);
  return st;
}

/* Engines kept or closed, the output committed or removed, the model
 * saved, the run freed; the run's status. */
static xmt_status run_close(struct run *run, xmt_status st, FILE *in,
                            struct xmt_output *out, const char *out_path) {
  xmt_filter *f = run->filter;
  /* An interrupt that comes after the last unit still leaves no output:
   * whoever sent it (Ctrl-C, a batch passing SIGTERM on to its workers)
   * no longer wants one. */
  if (st == XMT_OK && xmt_filter_interrupted(f)) {
    xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
    st = XMT_ERR_ABORTED;
  }
  if (st == XMT_OK && (f->flags & XMT_FILTER_KEEP_ENGINES) != 0)
    xmt_engines_keep(run);
  xmt_engines_close(run);
  pthread_mutex_destroy(&run->engine.lanes_lock);
  pthread_mutex_destroy(&run->probes_lock);
  pthread_cond_destroy(&run->probes_cond);
  if (in != NULL && in != stdin)
    fclose(in);
  if (st == XMT_ERR_WRITE)
    st = xmt_output_reason(out, st, out_path, &f->err);
  if (st == XMT_OK)
    st = xmt_output_commit(out, &f->err);
  else
    xmt_output_abort(out);
  /* the model grows only by documents delivered */
  if (st == XMT_OK && run->extract == NULL)
    st = xmt_save_model(run);
  /* The filter keeps the cache for the next run, unless this one failed:
   * the answers it did not commit go, as on closing. */
  if (st != XMT_OK)
    xmt_tm_drop(run);
  run_free(run);
  if (st == XMT_OK && f->stats.failed_segments > 0)
    st = xmt_error_at(&f->err, XMT_ERR_PARTIAL, XMT_IN(run->in_path),
                      "%zu segment%s not %s%s%s", f->stats.failed_segments,
                      f->stats.failed_segments == 1 ? "" : "s",
                      extracting(run->mode) ? "extracted" : "translated",
                      run->engine.engine_stopped ? ": " : "",
                      run->engine.engine_stop);
  return st;
}

xmt_status xmt_pipeline_run(xmt_filter *f, const struct xmt_pipeline_doc *d,
                            enum xmt_pipeline_mode mode) {
  memset(&f->stats, 0, sizeof f->stats);
  __atomic_store_n(&f->interrupted, 0, __ATOMIC_RELAXED);
  if (d->in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  struct run run;
  run_init(&run, f, d, mode);
  xmt_status st = run_check(&run);
  if (st != XMT_OK)
    return st;
  struct xmt_output out;
  memset(&out, 0, sizeof out);
  FILE *in = NULL;
  if (run.format == NULL && d->input == NULL &&
      (in = xmt_input_open(d->in_path, &f->err)) == NULL)
    return f->err.pub.status;
  if (d->output != NULL)
    xmt_output_open_memory(&out, d->output);
  else
    st = xmt_output_open(&out, d->out_path, &f->err);
  if (st != XMT_OK) {
    if (in != NULL && in != stdin)
      fclose(in);
    return st;
  }
  xmt_engines_configure(&run);
  st = run_open(&run, &out);
  if (st == XMT_OK)
    st = run_read(&run, in, &out, d->out_path);
  return run_close(&run, st, in, &out, d->out_path);
}
