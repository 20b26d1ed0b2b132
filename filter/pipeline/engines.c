/* engines.c -- the backend states of a run: configured, the first one
 * opened, kept for the next run (XMT_FILTER_KEEP_ENGINES) or closed.
 * The other lanes' states are opened in lanes.c when a window needs them. */
#include "config.h"

#include <stdlib.h>

#include "pipeline_private.h"

/* The configuration the filter's states are opened with (spec: the
 * backend's; own: the filter's backend, whose options apply). Kept in the
 * filter: kept states may hold on to it. */
static void set_engine_config(xmt_filter *f, const char *spec, int own) {
  static const char *const no_options[] = {NULL};
  const struct xmt_backend_config config = {
      spec,
      own && f->backend_options != NULL
          ? (const char *const *)f->backend_options
          : no_options,
      f->source_language,
      f->target_language,
      f->timeout_ms,
      f->max_answer != 0 ? f->max_answer : XMT_DEFAULT_MAX_ANSWER,
      &f->interrupted};
  f->engine_config = config;
}

void xmt_engines_configure(struct run *run) {
  xmt_filter *f = xmt_run_filter(run);
  const struct engine *e = xmt_run_engine(run);
  set_engine_config(f, e->backend_spec, e->backend == f->backend);
  if ((f->flags & XMT_FILTER_KEEP_ENGINES) == 0)
    xmt_filter_close_engines(f);
}

/* A backend's failure to open, as the run words it. */
static xmt_status open_failed(xmt_filter *f, const struct xmt_backend *b,
                              const char *errbuf) {
  /* "out of memory" is how a backend says it could not allocate. */
  return xmt_error_set(&f->err,
                       strcmp(errbuf, "out of memory") == 0 ? XMT_ERR_NOMEM
                                                            : XMT_ERR_BACKEND,
                       "cannot start MT backend '%s': %s", b->name,
                       errbuf[0] ? errbuf : "failed");
}

xmt_status xmt_filter_start_engines(xmt_filter *f) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if ((f->flags & XMT_FILTER_KEEP_ENGINES) == 0)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "engines started ahead need XMT_FILTER_KEEP_ENGINES");
  xmt_status st = xmt_filter_prepare_segmenter(f);
  const struct xmt_backend *b = f->backend;
  if (st != XMT_OK || f->nengines > 0 || b->open == NULL)
    return st;
  void **engines = malloc(sizeof *engines);
  if (engines == NULL)
    return xmt_error_nomem(&f->err);
  char errbuf[256] = "";
  set_engine_config(f, f->backend_spec, 1);
  if (b->open(f->backend_user, &f->engine_config, &engines[0], errbuf,
              sizeof errbuf) != 0) {
    free(engines);
    return open_failed(f, b, errbuf);
  }
  f->engines = engines;
  f->nengines = 1;
  return XMT_OK;
}

/* The states an earlier run kept become the run's first lanes. */
void xmt_engines_take(xmt_filter *f, struct run *run) {
  struct engine *e = xmt_run_engine(run);
  for (size_t k = 0; k < f->nengines; k++)
    e->lanes[k].state = f->engines[k];
  e->nlanes = f->nengines;
  free(f->engines);
  f->engines = NULL;
  f->nengines = 0;
}

xmt_status xmt_engines_open_first(struct run *run) {
  const struct engine *e = xmt_run_engine(run);
  char errbuf[256] = "";
  const struct xmt_backend *b = e->backend;
  if (xmt_run_extract(run) != NULL || e->nlanes > 0 || b->open == NULL ||
      b->open(e->backend_user, e->config, &e->lanes[0].state, errbuf,
              sizeof errbuf) == 0)
    return XMT_OK;
  return open_failed(xmt_run_filter(run), b, errbuf);
}

/* The run's states go back to the filter for the next run. Without
 * memory to hold them, they are closed: the next run opens its own. */
void xmt_engines_keep(xmt_filter *f, struct run *run) {
  struct engine *e = xmt_run_engine(run);
  if (e->backend != f->backend)
    return; /* the merge's answers are its own */
  void **states = malloc((e->nlanes ? e->nlanes : 1) * sizeof *states);
  if (states == NULL)
    return;
  for (size_t k = 0; k < e->nlanes; k++)
    states[k] = e->lanes[k].state;
  f->engines = states;
  f->nengines = e->nlanes;
  e->nlanes = 0;
}

void xmt_engines_close(struct run *run) {
  const struct engine *e = xmt_run_engine(run);
  const struct xmt_backend *b = e->backend;
  for (size_t k = 0; k < e->nlanes && b->close != NULL; k++)
    b->close(e->lanes[k].state);
}

/* The engine part of the cache's keys: the backend and its spec. */
xmt_status xmt_engines_describe(struct run *run, struct xmt_buf *out) {
  const struct engine *e = xmt_run_engine(run);
  xmt_status st = xmt_buf_append_str(out, e->backend->name);
  if (st == XMT_OK && e->backend_spec != NULL) {
    st = xmt_buf_append_byte(out, ':');
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, e->backend_spec);
  }
  return st;
}

int xmt_engines_markup(struct run *run) {
  return xmt_run_engine(run)->backend->translate_markup != NULL;
}
