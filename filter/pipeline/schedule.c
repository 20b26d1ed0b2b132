/* schedule.c -- who places a window, and when: the main thread drains
 * the window the reader filled (requests, answers) and hands it to a
 * worker thread that aligns, places and writes it while the reader fills
 * the other window; the engine answers the window's probes meanwhile.
 * A window with nothing to align is placed on the main thread. */
#include "config.h"

#include "pipeline_private.h"

/* Whether the window has results only probes asked for. */
static int probes_to_ask(const struct window *w) {
  for (size_t r = 0; r < xmt_window_nresults(w); r++)
    if (xmt_result_probe(xmt_window_result(w, r)))
      return 1;
  return 0;
}

static void *place_thread(void *arg) {
  struct run *run = arg;
  xmt_window_place(run, run->placing);
  return NULL;
}

/* Takes back the window the worker placed: its counts and failures
 * become the run's, the segments it could not translate are told. */
int xmt_placing_finish(struct run *run) {
  struct window *w = run->placing;
  if (w == NULL)
    return run->failed;
  if (run->worker_started)
    pthread_join(run->worker, NULL);
  run->placing = NULL;
  run->worker_started = 0;
  /* Freed by the thread that allocated them: glibc's free of another
   * thread's chunks takes that thread's arena lock, and the two threads
   * then wait on each other. The reader's thread empties the window it
   * gets back. */
  if (!run->threaded)
    xmt_window_reset(w);
  int rc = xmt_window_report(run, w);
  if (run->threaded)
    xmt_rthread_give(&run->rt, w);
  return rc;
}

/* Whether placing w may train or run the aligner: a job with inline codes
 * whose answer is not its text. Otherwise placing is copying, which the
 * main thread does sooner than another core could take the window's
 * bytes over (on two cores that share no cache, the 100 MB identity
 * pass took 1.23 s with a worker and 0.92 s without). */
static int aligner_work(struct run *run, const struct window *w) {
  if (!xmt_aligner_on(run))
    return 0;
  for (size_t k = 0; k < xmt_window_njobs(w); k++) {
    const struct job *j = xmt_window_job(w, k);
    size_t r = xmt_job_result(j);
    if (r != NO_RESULT && !xmt_answer_unchanged(xmt_window_result(w, r)) &&
        xmt_segment_tag_count(xmt_job_source(w, j)) > 0)
      return 1;
  }
  return 0;
}

/* Translates the window the reader filled and hands it to the worker,
 * once the worker is done with the one before; the reader goes on with
 * the other window. */
int xmt_window_drain(struct run *run) {
  struct window *w = run->fill;
  if (xmt_window_keys(run, w) != 0)
    return 1;
  if (run->extract != NULL) {
    int rc = xmt_window_translate(run);
    return rc != 0 ? rc : xmt_extract_window(run, w);
  }
  int rc = xmt_window_translate(run);
  if (xmt_placing_finish(run) != 0 || rc != 0)
    return 1;
  if (xmt_window_nitems(w) == 0)
    return 0;
  /* The worker aligns the window while the engine answers its probes,
   * which only placing needs. */
  xmt_align_cache_look_up(run, w);
  int ask = probes_to_ask(w);
  xmt_window_expect_probes(w, ask);
  run->placing = w;
  run->windows_handed++;
  /* The reader's thread has windows of its own to fill. */
  if (!run->threaded)
    run->fill = run->reading =
        w == &run->windows[0] ? &run->windows[1] : &run->windows[0];
  run->worker_started =
      (ask || aligner_work(run, w)) &&
      pthread_create(&run->worker, NULL, place_thread, run) == 0;
  if (ask)
    rc = xmt_lanes_ask(run, w, 1);
  xmt_window_probes_answered(run, w, rc != 0);
  if (!run->worker_started) /* no thread: placed here, as well */
    xmt_window_place(run, w);
  return rc;
}
