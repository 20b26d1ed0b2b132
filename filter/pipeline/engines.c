/* engines.c -- the backend states of a run: configured, the first one
 * opened, kept for the next run (XMT_FILTER_KEEP_ENGINES) or closed.
 * The other lanes' states are opened in lanes.c when a window needs them. */
#include "config.h"

#include <stdlib.h>

#include "pipeline_private.h"

void xmt_engines_configure(struct run *run) {
  xmt_filter *f = run->filter;
  /* In the filter, not here: kept states may hold on to it. */
  static const char *const no_options[] = {NULL};
  const int own = run->backend == f->backend;
  const struct xmt_backend_config config = {
      run->backend_spec,
      own && f->backend_options != NULL
          ? (const char *const *)f->backend_options
          : no_options,
      f->source_language,
      f->target_language,
      f->timeout_ms,
      f->max_answer != 0 ? f->max_answer : XMT_DEFAULT_MAX_ANSWER,
      &f->interrupted};
  f->engine_config = config;
  if ((f->flags & XMT_FILTER_KEEP_ENGINES) == 0)
    xmt_filter_close_engines(f);
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
  /* "out of memory" is how a backend says it could not allocate. */
  return xmt_error_set(&f->err,
                       strcmp(errbuf, "out of memory") == 0 ? XMT_ERR_NOMEM
                                                            : XMT_ERR_BACKEND,
                       "cannot start MT backend '%s': %s", b->name,
                       errbuf[0] ? errbuf : "failed");
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
