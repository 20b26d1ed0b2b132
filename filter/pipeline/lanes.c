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
  xmt_filter *f = run->filter;
  if (xmt_filter_interrupted(f) ||
      (f->progress != NULL && f->progress(f->callback_user, &f->stats) != 0))
    return xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  return 0;
}

/* Opens the backend's states up to n lanes (lanes[0] is the run's). */
static int open_lanes(struct run *run, size_t n) {
  for (; run->nlanes < n; run->nlanes++) {
    struct lane *lane = &run->lanes[run->nlanes];
    char errbuf[256] = "";
    if (run->backend->open != NULL &&
        run->backend->open(run->backend_user, run->config, &lane->state, errbuf,
                           sizeof errbuf) != 0) {
      char msg[400];
      snprintf(
          msg, sizeof msg, "cannot start MT backend '%s' (engine job %zu): %s",
          run->backend->name, run->nlanes + 1, errbuf[0] ? errbuf : "failed");
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
    run->engine_failures = 0;
    return;
  }
  if (++run->engine_failures < XMT_ENGINE_FAILURES ||
      (run->filter->flags & XMT_FILTER_KEEP_GOING) != 0 || run->engine_stopped)
    return;
  snprintf(run->engine_stop, sizeof run->engine_stop,
           "the MT engine failed %u batches in a row, the last with: %.500s; "
           "the run stopped asking it",
           run->engine_failures, why);
  xmt_window_engine_stopped(run->asking);
  __atomic_store_n(&run->engine_stopped, 1, __ATOMIC_RELEASE);
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
  struct window *w = run->asking;
  xmt_filter *f = run->filter;
  size_t from = k * run->batch;
  size_t to =
      from + run->batch < run->npending ? from + run->batch : run->npending;
  size_t m = to - from, probes = 0;
  /* The ids first, one after the other: the buffer moves as it grows. */
  xmt_status st = XMT_OK;
  xmt_buf_reset(&lane->ids);
  for (size_t i = from; i < to && st == XMT_OK; i++) {
    const struct result *res = xmt_window_result(w, run->pending[i]);
    st = xmt_job_id(w, xmt_result_job(w, res), &lane->ids);
    if (st == XMT_OK && xmt_result_probe(res)) {
      lane->ids.len--; /* its NUL */
      st = xmt_buf_append(&lane->ids, "/probe", sizeof "/probe");
      probes++;
    }
  }
  const char *id = lane->ids.data;
  for (size_t i = from; i < to && st == XMT_OK; i++) {
    size_t r = run->pending[i];
    struct xmt_mt_request *q = &lane->requests[i - from];
    q->segment_id = id;
    id += strlen(id) + 1;
    q->text = xmt_result_request(w, xmt_window_result(w, r), &q->len);
    q->source_language = run->source_language;
    q->target_language = run->options.target_language;
    lane->response_ptrs[i - from] = xmt_window_response(w, r);
  }
  int stopped = __atomic_load_n(&run->engine_stopped, __ATOMIC_ACQUIRE);
  if (st == XMT_OK && stopped)
    st = fail_unsent(lane, m);
  /* Raw requests are markup: to the engine's own formatter if it has
   * one. */
  int rc = st != XMT_OK || stopped ? 0
           : f->tag_mode == XMT_TAGS_RAW && run->backend->translate_markup
               ? run->backend->translate_markup(lane->state, lane->requests,
                                                lane->response_ptrs, m)
               : run->backend->translate(lane->state, lane->requests,
                                         lane->response_ptrs, m);
  int nomem = st != XMT_OK;
  for (size_t i = 0; i < m && st == XMT_OK; i++)
    nomem |= lane->response_ptrs[i]->nomem;
  if (locked)
    pthread_mutex_lock(&run->lanes_lock);
  f->stats.mt_calls += !stopped;
  int failed = run->failed;
  if (!failed && nomem)
    failed = xmt_run_nomem(run);
  else if (!failed && rc != 0 && xmt_filter_interrupted(f))
    failed = xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  else if (!failed && rc != 0)
    failed = xmt_run_fail(run, XMT_ERR_BACKEND, 0, NULL,
                          "the MT backend aborted the run");
  if (!failed && !stopped) {
    count_engine_failure(run, lane, m);
    f->stats.segments += m - probes;
    f->stats.probe_requests += probes;
  }
  if (!failed)
    failed = report_progress(run);
  if (failed)
    __atomic_store_n(&run->lanes_stop, 1, __ATOMIC_RELEASE);
  if (locked)
    pthread_mutex_unlock(&run->lanes_lock);
}

/* Lane i of n sends batches i, i + n, ... until one fails. Batches go to
 * lanes by number, not to the first lane free: an engine like Apertium
 * may answer a segment a little differently after other text, and the
 * same run must give the same bytes every time. */
static void run_batches(struct lane *lane, size_t first, int locked) {
  struct run *run = lane->run;
  for (size_t k = first; k < run->nbatches; k += run->lanes_running) {
    if (__atomic_load_n(&run->lanes_stop, __ATOMIC_ACQUIRE))
      break;
    send_batch(lane, k, locked);
  }
}

static void *lane_thread(void *arg) {
  struct lane *lane = arg;
  run_batches(lane, (size_t)(lane - lane->run->lanes), 1);
  return NULL;
}

/* Sends the results not answered yet to the backend, a batch at a time,
 * on as many lanes as --engine-jobs gives and the batches fill. */
static int translate_results(struct run *run) {
  struct window *w = run->asking;
  size_t nresults = xmt_window_nresults(w);
  xmt_filter *f = run->filter;
  run->batch = f->batch_size ? f->batch_size : DEFAULT_BATCH;
  size_t *p =
      xmt_grow_array(run->pending, &run->pending_cap, nresults, sizeof *p);
  if (p == NULL)
    return xmt_run_nomem(run);
  run->pending = p;
  run->npending = 0;
  for (size_t r = 0; r < nresults; r++) {
    const struct result *res = xmt_window_result(w, r);
    if (!xmt_result_cached(res) && xmt_result_probe(res) == run->asking_probes)
      run->pending[run->npending++] = r;
  }
  run->nbatches = (run->npending + run->batch - 1) / run->batch;
  run->lanes_stop = 0;
  if (run->engine_stopped)
    xmt_window_engine_stopped(w);
  size_t lanes = f->engine_jobs > 1 ? f->engine_jobs : 1;
  if (lanes > run->nbatches)
    lanes = run->nbatches > 0 ? run->nbatches : 1;
  if (open_lanes(run, lanes) != 0)
    return 1;
  for (size_t k = 0; k < lanes; k++) {
    run->lanes[k].run = run;
    if (grow_lane(&run->lanes[k], run->batch) != XMT_OK)
      return xmt_run_nomem(run);
  }
  run->lanes_running = lanes;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (lanes == 1) {
    run_batches(&run->lanes[0], 0, 0);
    f->stats.engine_seconds += xmt_seconds_since(&t0);
    return run->failed;
  }
  size_t started = 1;
  for (; started < lanes; started++)
    if (pthread_create(&run->lanes[started].thread, NULL, lane_thread,
                       &run->lanes[started]) != 0)
      break;
  /* The first lane takes its own batches and those of any lane without a
   * thread. */
  run_batches(&run->lanes[0], 0, 1);
  for (size_t k = started; k < lanes; k++)
    run_batches(&run->lanes[0], k, 1);
  for (size_t k = 1; k < started; k++)
    pthread_join(run->lanes[k].thread, NULL);
  f->stats.engine_seconds += xmt_seconds_since(&t0);
  return run->failed;
}

int xmt_lanes_ask(struct run *run, struct window *w, int probes) {
  run->asking = w;
  run->asking_probes = probes;
  int rc = translate_results(run);
  if (rc == 0)
    rc = xmt_answers_collect(run);
  if (rc == 0 && run->cache != NULL &&
      xmt_cache_commit(run->cache, &run->cache_err) != XMT_OK)
    xmt_tm_trouble(run);
  return rc;
}
