/* engines.c -- the backend states of a run: configured, the first one
 * opened, kept for the next run (XMT_FILTER_KEEP_ENGINES) or closed.
 * The other lanes' states are opened in lanes.c when a window needs them. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline_private.h"

/* The configuration the filter's states are opened with (spec: the
 * backend's; own: the filter's backend, whose options apply). Kept in the
 * filter (s->config): kept states may hold on to it. */
static void set_engine_config(const struct engine_settings *s, const char *spec,
                              int own) {
  static const char *const no_options[] = {NULL};
  const struct xmt_backend_config config = {
      spec,
      own && s->options != NULL ? s->options : no_options,
      s->source_language,
      s->target_language,
      s->timeout_ms,
      s->max_answer,
      s->interrupted};
  *s->config = config;
}

void xmt_engines_configure(struct run *run) {
  const struct engine *e = xmt_run_engine(run);
  const struct engine_settings *s = &e->settings;
  set_engine_config(s, e->backend_spec, e->backend == s->backend);
  if (!s->keep)
    xmt_filter_close_engines(xmt_run_filter(run));
}

/* A backend's failure to open, as the run words it. */
static xmt_status open_failed(struct xmt_error_store *err,
                              const struct xmt_backend *b, const char *errbuf) {
  /* "out of memory" is how a backend says it could not allocate. */
  return xmt_error_set(err,
                       strcmp(errbuf, "out of memory") == 0 ? XMT_ERR_NOMEM
                                                            : XMT_ERR_BACKEND,
                       "cannot start MT backend '%s': %s", b->name,
                       errbuf[0] ? errbuf : "failed");
}

xmt_status xmt_filter_start_engines(xmt_filter *f) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  struct engine_settings s;
  xmt_engine_settings(f, &s);
  xmt_error_clear(s.err);
  if (!s.keep)
    return xmt_error_set(s.err, XMT_ERR_USAGE,
                         "engines started ahead need XMT_FILTER_KEEP_ENGINES");
  xmt_status st = xmt_filter_prepare_segmenter(f);
  const struct xmt_backend *b = s.backend;
  if (st != XMT_OK || *s.nkept > 0 || b->open == NULL)
    return st;
  void **engines = malloc(sizeof *engines);
  if (engines == NULL)
    return xmt_error_nomem(s.err);
  char errbuf[256] = "";
  set_engine_config(&s, s.spec, 1);
  if (b->open(s.backend_user, s.config, &engines[0], errbuf, sizeof errbuf) !=
      0) {
    free(engines);
    return open_failed(s.err, b, errbuf);
  }
  *s.kept = engines;
  *s.nkept = 1;
  return XMT_OK;
}

void xmt_engines_take(struct run *run) {
  struct engine *e = xmt_run_engine(run);
  const struct engine_settings *s = &e->settings;
  void **kept = *s->kept;
  for (size_t k = 0; k < *s->nkept; k++)
    e->lanes[k].state = kept[k];
  e->nlanes = *s->nkept;
  free(kept);
  *s->kept = NULL;
  *s->nkept = 0;
}

xmt_status xmt_engines_open_first(struct run *run) {
  const struct engine *e = xmt_run_engine(run);
  char errbuf[256] = "";
  const struct xmt_backend *b = e->backend;
  if (xmt_run_extract(run) != NULL || e->nlanes > 0 || b->open == NULL ||
      b->open(e->backend_user, e->config, &e->lanes[0].state, errbuf,
              sizeof errbuf) == 0)
    return XMT_OK;
  return open_failed(e->settings.err, b, errbuf);
}

/* The run's states go back to the filter for the next run. Without
 * memory to hold them, they are closed: the next run opens its own. */
void xmt_engines_keep(struct run *run) {
  struct engine *e = xmt_run_engine(run);
  const struct engine_settings *s = &e->settings;
  if (e->backend != s->backend)
    return; /* the merge's answers are its own */
  void **states = malloc((e->nlanes ? e->nlanes : 1) * sizeof *states);
  if (states == NULL)
    return;
  for (size_t k = 0; k < e->nlanes; k++)
    states[k] = e->lanes[k].state;
  *s->kept = states;
  *s->nkept = e->nlanes;
  e->nlanes = 0;
}

void xmt_engines_close(struct run *run) {
  const struct engine *e = xmt_run_engine(run);
  const struct xmt_backend *b = e->backend;
  for (size_t k = 0; k < e->nlanes && b->close != NULL; k++)
    b->close(e->lanes[k].state);
}

/* 1 when spec, a command or a library's path, may name a file by a
 * relative path ("./mt.sh", "python3 mt.py", "lib/x.so"): the same spec
 * run elsewhere is another engine. */
static int names_relative(const struct xmt_backend *b, const char *spec) {
  return spec != NULL && spec[0] != '/' &&
         (strcmp(b->name, "cmd") == 0 || strcmp(b->name, "plugin") == 0);
}

/* The engine part of the cache's keys: the backend and its spec, and the
 * working directory where the spec may name a file relative to it (two
 * projects' "cmd:./mt.sh" sharing a cache are two engines). */
xmt_status xmt_engines_describe(struct run *run, struct xmt_buf *out) {
  const struct engine *e = xmt_run_engine(run);
  xmt_status st = xmt_buf_append_str(out, e->backend->name);
  if (st == XMT_OK && e->backend_spec != NULL) {
    st = xmt_buf_append_byte(out, ':');
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, e->backend_spec);
  }
  if (st == XMT_OK && names_relative(e->backend, e->backend_spec)) {
    char *cwd = getcwd(NULL, 0);
    if (cwd == NULL)
      return errno == ENOMEM ? XMT_ERR_NOMEM : XMT_ERR_IO;
    st = xmt_buf_append_str(out, "\nin ");
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, cwd);
    free(cwd);
  }
  return st;
}

int xmt_engines_markup(struct run *run) {
  return xmt_run_engine(run)->backend->translate_markup != NULL;
}
