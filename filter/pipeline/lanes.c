/* lanes.c -- the engine's lanes: a window's pending requests sent in
 * batches, on one backend state or, with --engine-jobs, on several at
 * once; stats, progress and errors counted, an engine that keeps failing
 * no longer asked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipeline_private.h"

static xmt_status grow_lane(struct lane *lane, size_t n) {
  struct xmt_mt_request *req =
      xmt_grow_array(lane->requests, &lane->cap, n, sizeof *req);
  if (req == NULL)
    return XMT_ERR_NOMEM;
  lane->requests = req;
  xmt_mt_response **ptrs =
      xmt_grow_array(lane->response_ptrs, &lane->ptrs_cap, n, sizeof *ptrs);
  if (ptrs == NULL)
    return XMT_ERR_NOMEM;
  lane->response_ptrs = ptrs;
  return XMT_OK;
}

static int report_progress(struct run *run) {
  const struct engine_settings *s = &xmt_run_engine(run)->settings;
  if (xmt_filter_interrupted(xmt_run_filter(run)) ||
      (s->progress != NULL &&
       s->progress(s->progress_user, xmt_run_stats(run)) != 0))
    return xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  return 0;
}

/* Opens the backend's states up to n lanes (lanes[0] is the run's). */
static int open_lanes(struct run *run, size_t n) {
  struct engine *e = xmt_run_engine(run);
  for (; e->nlanes < n; e->nlanes++) {
    struct lane *lane = &e->lanes[e->nlanes];
    char errbuf[256] = "";
    if (e->backend->open != NULL &&
        e->backend->open(e->backend_user, e->config, &lane->state, errbuf,
                         sizeof errbuf) != 0) {
      char msg[400];
      snprintf(msg, sizeof msg,
               "cannot start MT backend '%s' (engine job %zu): %s",
               e->backend->name, e->nlanes + 1, errbuf[0] ? errbuf : "failed");
      return strcmp(errbuf, "out of memory") == 0
                 ? xmt_run_nomem(run)
                 : xmt_run_fail(run, XMT_ERR_BACKEND, 0, NULL, msg);
    }
  }
  return 0;
}

/* Counts a batch the engine itself failed: no segment translated, one
 * failed by xmt_mt_response_set_engine_error. At XMT_ENGINE_FAILURES in
 * a row the run stops asking it (unless XMT_FILTER_KEEP_GOING): a dead
 * engine, or one that cannot start, costs a few batches, not one failure
 * per segment. Under the run's lock when lanes run at once. */
static void count_engine_failure(struct run *run, struct lane *lane, size_t m) {
  struct engine *e = xmt_run_engine(run);
  const char *why = NULL;
  for (size_t i = 0; i < m; i++) {
    const struct xmt_mt_response *r = lane->response_ptrs[i];
    if (r->error == NULL && r->has_text) {
      why = NULL;
      break;
    }
    if (why == NULL && r->engine_failed)
      why = r->error;
  }
  if (why == NULL) {
    e->engine_failures = 0;
    return;
  }
  if (++e->engine_failures < XMT_ENGINE_FAILURES || e->settings.keep_going ||
      e->engine_stopped)
    return;
  snprintf(e->engine_stop, sizeof e->engine_stop,
           "the MT engine failed %u batches in a row, the last with: %.500s; "
           "the run stopped asking it",
           e->engine_failures, why);
  xmt_window_engine_stopped(xmt_run_asking(run, NULL));
  __atomic_store_n(&e->engine_stopped, 1, __ATOMIC_RELEASE);
}

/* The segments of a batch sent after the run stopped asking the engine
 * fail unsent. */
static xmt_status fail_unsent(struct lane *lane, size_t m) {
  for (size_t i = 0; i < m; i++)
    if (xmt_mt_response_set_engine_error(
            lane->response_ptrs[i],
            "not sent: the run stopped asking the MT engine") != XMT_OK)
      return XMT_ERR_NOMEM;
  return XMT_OK;
}

/* Sends batch k of the pending results on a lane. Stats, progress and
 * errors are the run's, under its lock when lanes run at once. */
static void send_batch(struct lane *lane, size_t k, int locked) {
  struct run *run = lane->run;
  struct engine *e = xmt_run_engine(run);
  struct window *w = xmt_run_asking(run, NULL);
  xmt_filter *f = xmt_run_filter(run);
  size_t batch = e->settings.batch;
  size_t from = k * batch;
  size_t to = from + batch < e->npending ? from + batch : e->npending;
  size_t m = to - from, probes = 0;
  /* The ids first, one after the other: the buffer moves as it grows. */
  xmt_status st = XMT_OK;
  xmt_buf_reset(&lane->ids);
  for (size_t i = from; i < to && st == XMT_OK; i++) {
    const struct result *res = xmt_window_result(w, e->pending[i]);
    st = xmt_job_id(w, xmt_result_job(w, res), &lane->ids);
    if (st == XMT_OK && xmt_result_probe(res)) {
      lane->ids.len--; /* its NUL */
      st = xmt_buf_append(&lane->ids, "/probe", sizeof "/probe");
      probes++;
    }
  }
  const char *id = lane->ids.data;
  for (size_t i = from; i < to && st == XMT_OK; i++) {
    size_t r = e->pending[i];
    struct xmt_mt_request *q = &lane->requests[i - from];
    q->segment_id = id;
    id += strlen(id) + 1;
    q->text = xmt_result_request(w, xmt_window_result(w, r), &q->len);
    q->source_language = xmt_run_source_language(run);
    q->target_language = xmt_run_target_language(run);
    lane->response_ptrs[i - from] = xmt_window_response(w, r);
  }
  int stopped = __atomic_load_n(&e->engine_stopped, __ATOMIC_ACQUIRE);
  if (st == XMT_OK && stopped)
    st = fail_unsent(lane, m);
  /* Raw requests are markup: to the engine's own formatter if it has
   * one. */
  int rc =
      st != XMT_OK || stopped ? 0
      : xmt_run_tag_mode(run) == XMT_TAGS_RAW && e->backend->translate_markup
          ? e->backend->translate_markup(lane->state, lane->requests,
                                         lane->response_ptrs, m)
          : e->backend->translate(lane->state, lane->requests,
                                  lane->response_ptrs, m);
  int nomem = st != XMT_OK;
  for (size_t i = 0; i < m && st == XMT_OK; i++)
    nomem |= lane->response_ptrs[i]->nomem;
  if (locked)
    pthread_mutex_lock(&e->lanes_lock);
  struct xmt_filter_stats *stats = xmt_run_stats(run);
  stats->mt_calls += !stopped;
  int failed = xmt_run_failed(run);
  if (!failed && nomem)
    failed = xmt_run_nomem(run);
  else if (!failed && rc != 0 && xmt_filter_interrupted(f))
    failed = xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  else if (!failed && rc != 0)
    failed = xmt_run_fail(run, XMT_ERR_BACKEND, 0, NULL,
                          "the MT backend aborted the run");
  if (!failed && !stopped) {
    count_engine_failure(run, lane, m);
    stats->segments += m - probes;
    stats->probe_requests += probes;
  }
  if (!failed)
    failed = report_progress(run);
  if (failed)
    __atomic_store_n(&e->lanes_stop, 1, __ATOMIC_RELEASE);
  if (locked)
    pthread_mutex_unlock(&e->lanes_lock);
}

/* Lane i of n sends batches i, i + n, ... until one fails. Batches go to
 * lanes by number, not to the first lane free: an engine like Apertium
 * may answer a segment a little differently after other text, and the
 * same run must give the same bytes every time. */
static void run_batches(struct lane *lane, size_t first, int locked) {
  const struct engine *e = xmt_run_engine(lane->run);
  for (size_t k = first; k < e->nbatches; k += e->lanes_running) {
    if (__atomic_load_n(&e->lanes_stop, __ATOMIC_ACQUIRE))
      break;
    send_batch(lane, k, locked);
  }
}

static void *lane_thread(void *arg) {
  struct lane *lane = arg;
  run_batches(lane, (size_t)(lane - xmt_run_engine(lane->run)->lanes), 1);
  return NULL;
}

/* Sends the results not answered yet to the backend, a batch at a time,
 * on as many lanes as --engine-jobs gives and the batches fill. */
static int translate_results(struct run *run) {
  struct engine *e = xmt_run_engine(run);
  int probes;
  struct window *w = xmt_run_asking(run, &probes);
  size_t nresults = xmt_window_nresults(w);
  size_t batch = e->settings.batch;
  size_t *p = xmt_grow_array(e->pending, &e->pending_cap, nresults, sizeof *p);
  if (p == NULL)
    return xmt_run_nomem(run);
  e->pending = p;
  e->npending = 0;
  for (size_t r = 0; r < nresults; r++) {
    const struct result *res = xmt_window_result(w, r);
    if (!xmt_result_cached(res) && xmt_result_probe(res) == probes)
      e->pending[e->npending++] = r;
  }
  e->nbatches = (e->npending + batch - 1) / batch;
  e->lanes_stop = 0;
  if (e->engine_stopped)
    xmt_window_engine_stopped(w);
  size_t lanes = e->settings.jobs;
  if (lanes > e->nbatches)
    lanes = e->nbatches > 0 ? e->nbatches : 1;
  if (open_lanes(run, lanes) != 0)
    return 1;
  for (size_t k = 0; k < lanes; k++) {
    e->lanes[k].run = run;
    if (grow_lane(&e->lanes[k], batch) != XMT_OK)
      return xmt_run_nomem(run);
  }
  e->lanes_running = lanes;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (lanes == 1) {
    run_batches(&e->lanes[0], 0, 0);
    xmt_run_stats(run)->engine_seconds += xmt_seconds_since(&t0);
    return xmt_run_failed(run);
  }
  size_t started = 1;
  for (; started < lanes; started++)
    if (pthread_create(&e->lanes[started].thread, NULL, lane_thread,
                       &e->lanes[started]) != 0)
      break;
  /* The first lane takes its own batches and those of any lane without a
   * thread. */
  run_batches(&e->lanes[0], 0, 1);
  for (size_t k = started; k < lanes; k++)
    run_batches(&e->lanes[0], k, 1);
  for (size_t k = 1; k < started; k++)
    pthread_join(e->lanes[k].thread, NULL);
  xmt_run_stats(run)->engine_seconds += xmt_seconds_since(&t0);
  return xmt_run_failed(run);
}

int xmt_lanes_ask(struct run *run, struct window *w, int probes) {
  xmt_run_set_asking(run, w, probes);
  int rc = translate_results(run);
  if (rc == 0)
    rc = xmt_answers_collect(run);
  if (rc == 0 && xmt_tm_commit(run) != XMT_OK)
    xmt_tm_trouble(run);
  return rc;
}
