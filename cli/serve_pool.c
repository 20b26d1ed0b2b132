/* serve_pool.c -- xliffmt serve: the workers and the bounded queue of
 * requests waiting for them. A filter runs one translation at a time, so
 * each worker has one, configured as `xliffmt translate` configures its
 * own, that keeps its engine processes and dictionaries from one request
 * to the next. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "serve.h"

enum taken { ANSWERED, FOLLOWING, RUN };

/* A request not handled yet: answered by its handler, or its job
 * waiting for an identical one in flight, or in flight for this worker
 * to run. Called and returns with the server's lock held. */
static enum taken take_job(struct serve_server *sv, struct serve_request *rq) {
  pthread_mutex_unlock(&sv->lock);
  int queue = serve_http_handle(rq) == SERVE_QUEUE;
  if (queue)
    serve_inflight_key(rq->job); /* without one, it is sent on its own */
  pthread_mutex_lock(&sv->lock);
  if (!queue)
    return ANSWERED;
  struct serve_request *leader = serve_inflight_find(sv, rq->job);
  if (leader != NULL) {
    serve_inflight_follow(sv, leader, rq);
    return FOLLOWING;
  }
  serve_inflight_add(sv, rq);
  return RUN;
}

static void *work(void *arg) {
  struct serve_worker *w = arg;
  struct serve_server *sv = w->server;
  pthread_mutex_lock(&sv->lock);
  for (;;) {
    while (sv->qlen == 0 && !sv->quit)
      pthread_cond_wait(&sv->work, &sv->lock);
    if (sv->qlen == 0)
      break; /* told to end, and nothing waits */
    struct serve_request *rq = sv->queue[sv->qhead];
    sv->qhead = (sv->qhead + 1) % sv->qcap;
    sv->qlen--;
    sv->running++;
    enum taken t = rq->job == NULL ? take_job(sv, rq) : RUN;
    if (t != RUN) {
      sv->running--;
      pthread_mutex_unlock(&sv->lock);
      if (t == ANSWERED)
        serve_http_resume(rq); /* a follower is resumed by its leader */
      pthread_mutex_lock(&sv->lock);
      continue;
    }
    pthread_mutex_unlock(&sv->lock);
    w->failure[0] = '\0';
    serve_text_translate(w, rq->job);
    serve_metrics_engine(w, rq->job);
    pthread_mutex_lock(&sv->lock);
    sv->running--;
    struct serve_request *followers = serve_inflight_remove(sv, rq);
    pthread_mutex_unlock(&sv->lock);
    serve_inflight_answer(rq->job, followers);
    /* rq belongs to the HTTP thread again from here on. */
    serve_http_resume(rq);
    pthread_mutex_lock(&sv->lock);
  }
  pthread_mutex_unlock(&sv->lock);
  return NULL;
}

/* The first reason a run gives for a segment it could not translate:
 * the engine's own (its exit, its timeout), which /health shows. */
static void on_failure(void *user, const char *segment_id, unsigned long line,
                       const char *message) {
  (void)segment_id;
  (void)line;
  struct serve_worker *w = user;
  if (w->failure[0] == '\0' && message != NULL)
    snprintf(w->failure, sizeof w->failure, "%s", message);
}

/* A filter set up as translate's, keeping its engines between runs, its
 * first engine started: the first request does not wait for it, and an
 * engine that cannot start stops the server before it listens. */
static xmt_filter *worker_filter(struct serve_server *sv,
                                 struct serve_worker *w) {
  const struct serve_settings *s = sv->set;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return NULL;
  }
  xmt_status st = xmt_cli_configure(f, &s->cli, sv->backend, sv->spec);
  if (st == XMT_OK)
    st = xmt_filter_set_flags(f, s->cli.flags | XMT_FILTER_KEEP_ENGINES |
                                     XMT_FILTER_KEEP_DICTIONARIES);
  if (st == XMT_OK)
    st = xmt_filter_set_callbacks(f, NULL, on_failure, w);
  if (st == XMT_OK)
    st = xmt_filter_start_engines(f);
  if (st != XMT_OK) {
    xmt_cli_report(xmt_filter_error(f));
    xmt_filter_free(f);
    return NULL;
  }
  return f;
}

int serve_pool_start(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  sv->qcap = s->threads + s->queue;
  sv->queue = calloc(sv->qcap, sizeof *sv->queue);
  sv->workers = calloc(s->threads, sizeof *sv->workers);
  if (sv->queue == NULL || sv->workers == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return 0;
  }
  sv->nworkers = s->threads;
  for (size_t i = 0; i < sv->nworkers; i++) {
    struct serve_worker *w = &sv->workers[i];
    w->server = sv;
    if ((w->filter = worker_filter(sv, w)) == NULL)
      return 0;
    snprintf(w->pair.src, sizeof w->pair.src, "%s",
             s->cli.src != NULL ? s->cli.src : "");
    snprintf(w->pair.tgt, sizeof w->pair.tgt, "%s",
             s->cli.tgt != NULL ? s->cli.tgt : "");
    w->no_sentences = s->cli.segmentation == XMT_SEGMENT_NONE;
    if (pthread_create(&w->thread, NULL, work, w) != 0) {
      xmt_cli_say("xliffmt: cannot start a worker thread\n");
      return 0;
    }
    w->started = 1;
  }
  return 1;
}

int serve_pool_admit(struct serve_server *sv, struct serve_request *rq) {
  pthread_mutex_lock(&sv->lock);
  int room = sv->qlen + sv->running + sv->following < sv->qcap;
  pthread_mutex_unlock(&sv->lock);
  if (!room)
    return 0;
  /* Suspended before a worker can see it: the worker resumes it. Only
   * this thread queues, so the room found is still there. */
  MHD_suspend_connection(rq->conn);
  pthread_mutex_lock(&sv->lock);
  sv->queue[(sv->qhead + sv->qlen) % sv->qcap] = rq;
  sv->qlen++;
  pthread_cond_signal(&sv->work);
  pthread_mutex_unlock(&sv->lock);
  return 1;
}

void serve_pool_interrupt(struct serve_server *sv) {
  pthread_mutex_lock(&sv->lock);
  size_t n = sv->qlen;
  struct serve_request **waiting = calloc(2 * n + 1, sizeof *waiting);
  for (size_t i = 0; waiting != NULL && i < n; i++) {
    waiting[i] = sv->queue[(sv->qhead + i) % sv->qcap];
    waiting[n + i] = serve_inflight_remove(sv, waiting[i]);
    struct serve_job *job = waiting[i]->job;
    if (job == NULL) { /* not handled yet */
      serve_error(waiting[i], 503, "the server is stopping");
      continue;
    }
    job->status = XMT_ERR_ABORTED;
    snprintf(job->message, sizeof job->message, "the server is stopping");
    job->answer(job);
  }
  if (waiting != NULL)
    sv->qlen = 0;
  for (size_t i = 0; i < sv->nworkers; i++)
    xmt_filter_interrupt(sv->workers[i].filter);
  pthread_mutex_unlock(&sv->lock);
  for (size_t i = 0; waiting != NULL && i < n; i++) {
    if (waiting[i]->job != NULL)
      serve_inflight_answer(waiting[i]->job, waiting[n + i]);
    serve_http_resume(waiting[i]);
  }
  free(waiting);
}

void serve_pool_stop(struct serve_server *sv) {
  pthread_mutex_lock(&sv->lock);
  sv->quit = 1;
  pthread_cond_broadcast(&sv->work);
  pthread_mutex_unlock(&sv->lock);
  for (size_t i = 0; i < sv->nworkers; i++) {
    if (sv->workers[i].started)
      pthread_join(sv->workers[i].thread, NULL);
    xmt_filter_free(sv->workers[i].filter);
  }
  free(sv->workers);
  free(sv->queue);
  sv->workers = NULL;
  sv->queue = NULL;
  sv->nworkers = 0;
}
