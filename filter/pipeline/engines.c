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
  xmt_filter *f = run->filter;
  set_engine_config(f, run->backend_spec, run->backend == f->backend);
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
  for (size_t k = 0; k < f->nengines; k++)
    run->lanes[k].state = f->engines[k];
  run->nlanes = f->nengines;
  free(f->engines);
  f->engines = NULL;
  f->nengines = 0;
}

xmt_status xmt_engines_open_first(struct run *run) {
  xmt_filter *f = run->filter;
  char errbuf[256] = "";
  const struct xmt_backend *b = run->backend;
  if (run->extract != NULL || run->nlanes > 0 || b->open == NULL ||
      b->open(run->backend_user, run->config, &run->lanes[0].state, errbuf,
              sizeof errbuf) == 0)
    return XMT_OK;
  return open_failed(f, b, errbuf);
}

/* The run's states go back to the filter for the next run. Without
 * memory to hold them, they are closed: the next run opens its own. */
void xmt_engines_keep(xmt_filter *f, struct run *run) {
  if (run->backend != f->backend)
    return; /* the merge's answers are its own */
  void **e = malloc((run->nlanes ? run->nlanes : 1) * sizeof *e);
  if (e == NULL)
    return;
  for (size_t k = 0; k < run->nlanes; k++)
    e[k] = run->lanes[k].state;
  f->engines = e;
  f->nengines = run->nlanes;
  run->nlanes = 0;
}

void xmt_engines_close(struct run *run) {
  const struct xmt_backend *b = run->backend;
  for (size_t k = 0; k < run->nlanes && b->close != NULL; k++)
    b->close(run->lanes[k].state);
}
