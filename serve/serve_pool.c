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

static void ring_push(struct serve_server *sv, struct serve_ring *r,
                      struct serve_request *rq) {
  r->v[(r->head + r->len) % sv->qcap] = rq;
  r->len++;
  sv->qlen++;
}

/* The i-th request of r, taken out of it. */
static struct serve_request *ring_take(struct serve_server *sv,
                                       struct serve_ring *r, size_t i) {
  struct serve_request *rq = r->v[(r->head + i) % sv->qcap];
  for (; i > 0; i--) /* the ones before it move up */
    r->v[(r->head + i) % sv->qcap] = r->v[(r->head + i - 1) % sv->qcap];
  r->head = (r->head + 1) % sv->qcap;
  r->len--;
  sv->qlen--;
  return rq;
}

static struct serve_request *ring_pop(struct serve_server *sv,
                                      struct serve_ring *r) {
  return ring_take(sv, r, 0);
}

/* 1 when a worker of e may run job now: a long job never takes the last
 * free worker of its engine, which stays for the short ones. */
static int may_run(const struct serve_engine *e, const struct serve_job *job) {
  return !job->long_job || e->nworkers < 2 || e->long_running + 1 < e->nworkers;
}

/* The requests of rq's address at workers. */
static size_t running_of(const struct serve_request *rq) {
  return rq->owner != NULL ? rq->owner->running : 0;
}

/* The index in w's engine's ring of the job it runs next, or its length
 * when it may run none: of the jobs it may run, the oldest of the
 * address with the fewest at workers, so that one client's many
 * requests do not make another's wait for all of them. */
static size_t runnable(struct serve_worker *w) {
  const struct serve_server *sv = w->server;
  const struct serve_ring *own = &w->engine->waiting;
  if (sv->quit)
    return 0;
  size_t best = own->len;
  for (size_t i = 0; i < own->len; i++) {
    const struct serve_request *rq = own->v[(own->head + i) % sv->qcap];
    if (!may_run(w->engine, rq->job))
      continue;
    if (best == own->len ||
        running_of(rq) < running_of(own->v[(own->head + best) % sv->qcap]))
      best = i;
    if (running_of(rq) == 0)
      break;
  }
  return best;
}

/* The next request for w: one not handled yet (handling is quick, and
 * the job then waits in its engine's ring), else the job of its engine's
 * that runnable picks; NULL when told to end and nothing waits. Called
 * and returns with the server's lock held. */
static struct serve_request *next_request(struct serve_worker *w) {
  struct serve_server *sv = w->server;
  struct serve_ring *own = &w->engine->waiting;
  for (;;) {
    if (sv->intake.len > 0)
      return ring_pop(sv, &sv->intake);
    size_t i = runnable(w);
    if (i < own->len)
      return ring_take(sv, own, i);
    if (sv->quit)
      return NULL;
    pthread_cond_wait(&sv->work, &sv->lock);
  }
}

/* A job whose texts are longer than SERVE_LONG_BYTES in all. */
static int is_long(const struct serve_job *job) {
  size_t n = 0;
  for (size_t i = 0; i < job->ntexts && n <= SERVE_LONG_BYTES; i++)
    n += job->texts[i].in_len;
  return n > SERVE_LONG_BYTES;
}

static void *work(void *arg) {
  struct serve_worker *w = arg;
  struct serve_server *sv = w->server;
  pthread_mutex_lock(&sv->lock);
  struct serve_request *rq;
  while ((rq = next_request(w)) != NULL) {
    sv->running++;
    int handled = rq->job == NULL;
    enum taken t = handled ? take_job(sv, rq) : RUN;
    struct serve_engine *e =
        t == RUN ? &sv->engines[rq->job->pair.engine] : w->engine;
    if (t == RUN)
      rq->job->long_job = is_long(rq->job);
    /* a job just made waits its turn among the others, as does a long
     * job when its engine has no worker to spare */
    if (t == RUN && (handled || !may_run(e, rq->job))) {
      sv->running--;
      ring_push(sv, &e->waiting, rq);
      pthread_cond_broadcast(&sv->work);
      continue;
    }
    if (t != RUN) {
      sv->running--;
      pthread_mutex_unlock(&sv->lock);
      if (t == ANSWERED)
        serve_http_resume(rq); /* a follower is resumed by its leader */
      pthread_mutex_lock(&sv->lock);
      continue;
    }
    /* Its client gone while it waited, and no other waiting for the
     * same answer: a run for no one would hold the worker. */
    if (rq->followers == NULL && serve_conn_gone(sv, rq->watch)) {
      sv->running--;
      sv->runs_cancelled++;
      serve_inflight_remove(sv, rq);
      pthread_mutex_unlock(&sv->lock);
      serve_error(rq, 503, "interrupted");
      serve_http_resume(rq);
      pthread_mutex_lock(&sv->lock);
      continue;
    }
    int long_job = rq->job->long_job;
    e->long_running += (size_t)long_job;
    if (rq->owner != NULL)
      rq->owner->running++;
    w->current = rq;
    pthread_mutex_unlock(&sv->lock);
    w->failure[0] = '\0';
    serve_conn_watch(sv, rq->watch, w);
    serve_text_translate(w, rq->job);
    serve_conn_watch(sv, rq->watch, NULL);
    serve_metrics_engine(w, rq->job);
    pthread_mutex_lock(&sv->lock);
    w->current = NULL;
    sv->running--;
    e->long_running -= (size_t)long_job;
    if (rq->owner != NULL)
      rq->owner->running--;
    if (long_job) /* the next long one may run */
      pthread_cond_broadcast(&sv->work);
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
  const struct serve_engine *e = w->engine;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return NULL;
  }
  xmt_status st = xmt_cli_configure(f, &e->cli, e->backend, e->spec);
  if (st == XMT_OK && e->pair.tgt[0] != '\0') /* its PAIR= */
    st = xmt_filter_set_languages(f, e->pair.src, e->pair.tgt);
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

/* --threads workers for each engine, and a ring of its jobs; 0 when out
 * of memory (reported). */
static int make_pool(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  sv->nworkers = s->threads * sv->nengines;
  sv->qcap = sv->nworkers + s->queue;
  sv->intake.v = calloc(sv->qcap, sizeof *sv->intake.v);
  sv->workers = calloc(sv->nworkers, sizeof *sv->workers);
  /* each admitted request holds a connection: never more addresses */
  sv->nclients = s->max_connections;
  sv->clients = calloc(sv->nclients, sizeof *sv->clients);
  int ok = sv->intake.v != NULL && sv->workers != NULL && sv->clients != NULL;
  for (size_t i = 0; ok && i < sv->nengines; i++) {
    struct serve_engine *e = &sv->engines[i];
    e->workers = sv->workers + i * s->threads;
    e->nworkers = s->threads;
    ok = (e->waiting.v = calloc(sv->qcap, sizeof *e->waiting.v)) != NULL;
    for (size_t k = 0; k < e->nworkers; k++) {
      e->workers[k].server = sv;
      e->workers[k].engine = e;
    }
  }
  if (!ok) {
    sv->nworkers = 0;
    xmt_cli_say("xliffmt: out of memory\n");
  }
  return ok;
}

int serve_pool_start(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  if (!make_pool(sv))
    return 0;
  for (size_t i = 0; i < sv->nworkers; i++) {
    struct serve_worker *w = &sv->workers[i];
    if ((w->filter = worker_filter(sv, w)) == NULL)
      return 0;
    if (w->engine->pair.tgt[0] != '\0')
      w->pair = w->engine->pair;
    else {
      snprintf(w->pair.src, sizeof w->pair.src, "%s",
               s->cli.src != NULL ? s->cli.src : "");
      snprintf(w->pair.tgt, sizeof w->pair.tgt, "%s",
               s->cli.tgt != NULL ? s->cli.tgt : "");
    }
    w->no_sentences = s->cli.segmentation == XMT_SEGMENT_NONE;
    if (pthread_create(&w->thread, NULL, work, w) != 0) {
      xmt_cli_say("xliffmt: cannot start a worker thread\n");
      return 0;
    }
    w->started = 1;
  }
  return 1;
}

/* The entry of address addr, a free one taken when it has none; NULL
 * when none is free. Under the lock. */
static struct serve_client *client_of(struct serve_server *sv,
                                      const char *addr) {
  struct serve_client *free_one = NULL;
  for (size_t i = 0; i < sv->nclients; i++) {
    struct serve_client *c = &sv->clients[i];
    int used = c->admitted > 0 || c->reading > 0;
    if (used && strcmp(c->addr, addr) == 0)
      return c;
    if (!used && free_one == NULL)
      free_one = c;
  }
  if (free_one != NULL)
    snprintf(free_one->addr, sizeof free_one->addr, "%s", addr);
  return free_one;
}

/* For a request of c, which holds less than half of the full room: the
 * newest request waiting (in a ring, followed by none) of an address
 * that holds more than half, taken out of its ring and of the requests
 * in flight; NULL when there is none. Under the lock. */
static struct serve_request *evict(struct serve_server *sv,
                                   const struct serve_client *c) {
  if (c == NULL || 2 * c->admitted >= sv->qcap)
    return NULL;
  for (size_t r = 0; r <= sv->nengines; r++) {
    struct serve_ring *ring =
        r == 0 ? &sv->intake : &sv->engines[r - 1].waiting;
    for (size_t i = ring->len; i-- > 0;) {
      struct serve_request *rq = ring->v[(ring->head + i) % sv->qcap];
      if (rq->owner != NULL && 2 * rq->owner->admitted > sv->qcap &&
          rq->followers == NULL) {
        ring_take(sv, ring, i);
        serve_inflight_remove(sv, rq);
        return rq;
      }
    }
  }
  return NULL;
}

/* 1 when an address holds more than half of the room, admitted or its
 * bodies being read: a full queue makes room at its cost (evict), and
 * bodies it holds back keep no other address out. Under the lock. */
static int hogged(const struct serve_server *sv) {
  for (size_t i = 0; i < sv->nclients; i++)
    if (2 * (sv->clients[i].admitted + sv->clients[i].reading) > sv->qcap)
      return 1;
  return 0;
}

int serve_pool_reserve(struct serve_server *sv, struct serve_request *rq) {
  pthread_mutex_lock(&sv->lock);
  struct serve_client *c = client_of(sv, rq->client);
  size_t queued = sv->qlen + sv->running + sv->following;
  size_t held = queued + sv->reading;
  size_t mine = c != NULL ? c->admitted + c->reading : 0;
  /* Full: an address with less than half still has room when another
   * has more (evict), and a new one when only bodies being read fill
   * it, so that bodies held back keep no other address out. */
  int room =
      held < sv->qcap || (held < 2 * sv->qcap && 2 * mine < sv->qcap &&
                          (hogged(sv) || (mine == 0 && queued < sv->qcap)));
  if (room) {
    sv->reading++;
    if (c != NULL)
      c->reading++;
    rq->reader = c;
    rq->reading = 1;
  }
  pthread_mutex_unlock(&sv->lock);
  return room;
}

void serve_pool_release(struct serve_server *sv, struct serve_request *rq) {
  if (!rq->reading)
    return;
  pthread_mutex_lock(&sv->lock);
  sv->reading--;
  if (rq->reader != NULL)
    rq->reader->reading--;
  pthread_mutex_unlock(&sv->lock);
  rq->reader = NULL;
  rq->reading = 0;
}

int serve_pool_admit(struct serve_server *sv, struct serve_request *rq) {
  /* Long bodies take half the room at most: the rest stays for short
   * requests, which long ones waiting for their turn never crowd out. */
  int long_body = rq->len > SERVE_LONG_BYTES;
  struct serve_request *evicted = NULL;
  pthread_mutex_lock(&sv->lock);
  struct serve_client *c = client_of(sv, rq->client);
  int room = !long_body || sv->long_admitted < (sv->qcap + 1) / 2;
  /* Full: one address's requests must not leave every other without
   * room until they are all done. */
  if (room && sv->qlen + sv->running + sv->following >= sv->qcap)
    room = (evicted = evict(sv, c)) != NULL;
  sv->long_admitted += (size_t)(room && long_body);
  if (room && c != NULL) {
    c->admitted++;
    rq->owner = c;
  }
  pthread_mutex_unlock(&sv->lock);
  if (evicted != NULL) { /* suspended, and no worker's any more */
    evicted->reply.retry_after = 1;
    serve_error(evicted, 503, "too many requests waiting; try again");
    serve_http_resume(evicted);
  }
  if (!room)
    return 0;
  rq->long_body = long_body;
  /* Suspended before a worker can see it: the worker resumes it. Only
   * this thread queues, so the room found is still there. */
  serve_mhd.suspend_connection(rq->conn);
  pthread_mutex_lock(&sv->lock);
  ring_push(sv, &sv->intake, rq);
  sv->suspended++;
  pthread_cond_signal(&sv->work);
  pthread_mutex_unlock(&sv->lock);
  return 1;
}

void serve_pool_interrupt(struct serve_server *sv) {
  pthread_mutex_lock(&sv->lock);
  size_t n = sv->qlen;
  struct serve_request **waiting = calloc(2 * n + 1, sizeof *waiting);
  /* The rings in order, emptied into waiting. */
  for (size_t r = 0, i = 0; waiting != NULL && r <= sv->nengines; r++) {
    struct serve_ring *ring =
        r == 0 ? &sv->intake : &sv->engines[r - 1].waiting;
    while (ring->len > 0)
      waiting[i++] = ring_pop(sv, ring);
  }
  for (size_t i = 0; waiting != NULL && i < n; i++) {
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
  free(sv->clients);
  sv->clients = NULL;
  free(sv->intake.v);
  for (size_t i = 0; i < sv->nengines; i++) {
    free(sv->engines[i].waiting.v);
    sv->engines[i].waiting.v = NULL;
  }
  sv->workers = NULL;
  sv->intake.v = NULL;
  sv->nworkers = 0;
}
