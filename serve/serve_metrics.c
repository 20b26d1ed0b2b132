/* serve_metrics.c -- xliffmt serve: what it counts, GET /metrics in the
 * Prometheus text format, GET /health, and the access log (one line per
 * request). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"

/* Upper bounds of the latency histogram's buckets, in seconds. */
static const double bounds[SERVE_BUCKETS] = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

static FILE *open_log(const char *path) {
  if (strcmp(path, "-") == 0)
    return stdout;
  FILE *fp = fopen(path, "a");
  if (fp == NULL)
    xmt_cli_say("xliffmt: %s: cannot open: %s\n", path, strerror(errno));
  return fp;
}

int serve_metrics_init(struct serve_metrics *m, const char *log_path) {
  memset(m, 0, sizeof *m);
  pthread_mutex_init(&m->lock, NULL);
  m->log_path = log_path;
  return log_path == NULL || (m->log = open_log(log_path)) != NULL;
}

void serve_metrics_free(struct serve_metrics *m) {
  if (m->log != NULL && m->log != stdout)
    fclose(m->log);
  free(m->counts);
  pthread_mutex_destroy(&m->lock);
}

int serve_metrics_reopen(struct serve_metrics *m) {
  if (m->log_path == NULL || strcmp(m->log_path, "-") == 0)
    return 1;
  FILE *fp = open_log(m->log_path);
  if (fp == NULL)
    return 0;
  pthread_mutex_lock(&m->lock);
  FILE *old = m->log;
  m->log = fp;
  pthread_mutex_unlock(&m->lock);
  if (old != NULL)
    fclose(old);
  return 1;
}

/* A method or path as the log shows it: bytes outside printable ASCII, spaces
 * and '%' as %XX, so that a line stays one line of fields. */
static void log_path(FILE *fp, const char *path) {
  for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++)
    if (*p <= ' ' || *p >= 0x7F || *p == '%' || *p == '"')
      fprintf(fp, "%%%02X", *p);
    else
      fputc(*p, fp);
}

static void write_log(struct serve_metrics *m, const struct serve_request *rq,
                      double seconds) {
  char when[32], *line = NULL;
  size_t size = 0;
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  FILE *mem = open_memstream(&line, &size);
  if (mem == NULL)
    return;
  fprintf(mem, "%s %s ", when, rq->client);
  log_path(mem, rq->method); /* the client's bytes, as the path's */
  fputc(' ', mem);
  log_path(mem, rq->path);
  fprintf(mem, " %u %zu %.1f %zu\n", rq->reply.status, rq->reply.len,
          seconds * 1000, rq->segments);
  if (fclose(mem) == 0) {
    /* One write per line: lines of requests at once never mix. */
    fwrite(line, 1, size, m->log);
    fflush(m->log);
  }
  free(line);
}

void serve_metrics_request(struct serve_metrics *m,
                           const struct serve_request *rq) {
  double seconds = serve_elapsed(&rq->start);
  const char *path = rq->route != NULL ? rq->route->path : "other";
  pthread_mutex_lock(&m->lock);
  size_t i = 0;
  while (i < m->ncounts && (m->counts[i].status != rq->reply.status ||
                            strcmp(m->counts[i].path, path) != 0))
    i++;
  if (i == m->ncounts) {
    struct serve_count *c =
        xmt_grow_array(m->counts, &m->cap, m->ncounts + 1, sizeof *c);
    if (c != NULL) {
      m->counts = c;
      c[i] = (struct serve_count){path, rq->reply.status, 0};
      m->ncounts++;
    }
  }
  if (i < m->ncounts)
    m->counts[i].n++;
  size_t b = 0;
  while (b < SERVE_BUCKETS && seconds > bounds[b])
    b++;
  m->latency[b]++;
  m->latency_count++;
  m->latency_sum += seconds;
  if (m->log != NULL)
    write_log(m, rq, seconds);
  pthread_mutex_unlock(&m->lock);
}

void serve_metrics_run(struct serve_metrics *m,
                       const struct xmt_filter_stats *stats,
                       size_t characters) {
  pthread_mutex_lock(&m->lock);
  m->segments += stats->segments;
  m->cache_hits += stats->cache_hits;
  m->engine_seconds += stats->engine_seconds;
  m->characters += characters;
  pthread_mutex_unlock(&m->lock);
}

/* 1 when job failed at the engine: not the request's fault, not the
 * server stopping, not memory. */
static int engine_failed(const struct serve_job *job) {
  return job->status != XMT_OK && !job->bad_input && job->refused == 0 &&
         job->status != XMT_ERR_ABORTED && job->status != XMT_ERR_NOMEM;
}

void serve_metrics_engine(struct serve_worker *w, const struct serve_job *job) {
  struct serve_server *sv = w->server;
  struct serve_metrics *m = &sv->metrics;
  const char *mt = w->engine->mt;
  int failed = engine_failed(job), restarted = 0;
  char why[256] = "";
  if (failed) {
    /* The run that failed closed the engine: reopened now, so that the
     * next request does not wait for it, and one that cannot start is
     * known at once. */
    restarted = xmt_filter_start_engines(w->filter) == XMT_OK;
    const char *open_err = xmt_filter_error(w->filter)->message;
    snprintf(why, sizeof why, "engine %.80s: %.150s", mt,
             !restarted && open_err != NULL ? open_err
             : w->failure[0] != '\0'        ? w->failure
                                            : job->message);
  }
  serve_metrics_outcome(m, mt, &w->state, failed, restarted, why);
}

void serve_metrics_outcome(struct serve_metrics *m, const char *mt,
                           struct serve_down *state, int failed, int restarted,
                           const char *why) {
  pthread_mutex_lock(&m->lock);
  int was = state->down;
  m->engine_failures += (unsigned long long)failed;
  m->engine_restarts += (unsigned long long)restarted;
  if (failed)
    snprintf(state->reason, sizeof state->reason, "%s", why);
  state->down = failed;
  m->engines_down = m->engines_down + (size_t)failed - (size_t)was;
  pthread_mutex_unlock(&m->lock);
  if (failed && !was)
    xmt_cli_say("xliffmt serve: %s\n", why);
  else if (!failed && was)
    xmt_cli_say("xliffmt serve: engine %s: recovered\n", mt);
}

static void metric(FILE *fp, const char *name, const char *type,
                   const char *help) {
  fprintf(fp, "# HELP xliffmt_serve_%s %s\n# TYPE xliffmt_serve_%s %s\n", name,
          help, name, type);
}

static void write_metrics(FILE *fp, struct serve_server *sv) {
  struct serve_metrics *m = &sv->metrics;
  metric(fp, "requests_total", "counter",
         "Requests answered, by path and status.");
  for (size_t i = 0; i < m->ncounts; i++)
    fprintf(fp,
            "xliffmt_serve_requests_total{path=\"%s\",status=\"%u\"} %llu\n",
            m->counts[i].path, m->counts[i].status, m->counts[i].n);
  metric(fp, "request_duration_seconds", "histogram",
         "Time from a request's arrival to its answer.");
  unsigned long long sum = 0;
  for (size_t b = 0; b <= SERVE_BUCKETS; b++) {
    sum += m->latency[b];
    if (b < SERVE_BUCKETS)
      fprintf(fp,
              "xliffmt_serve_request_duration_seconds_bucket{le=\"%g\"} %llu\n",
              bounds[b], sum);
    else
      fprintf(fp,
              "xliffmt_serve_request_duration_seconds_bucket{le=\"+Inf\"} "
              "%llu\n",
              sum);
  }
  fprintf(fp, "xliffmt_serve_request_duration_seconds_sum %.6f\n",
          m->latency_sum);
  fprintf(fp, "xliffmt_serve_request_duration_seconds_count %llu\n",
          m->latency_count);
  metric(fp, "segments_total", "counter", "Segments sent to the engine.");
  fprintf(fp, "xliffmt_serve_segments_total %llu\n", m->segments);
  metric(fp, "characters_total", "counter", "Characters of text translated.");
  fprintf(fp, "xliffmt_serve_characters_total %llu\n", m->characters);
  metric(fp, "cache_hits_total", "counter",
         "Requests the translation memory cache answered.");
  fprintf(fp, "xliffmt_serve_cache_hits_total %llu\n", m->cache_hits);
  metric(fp, "engine_seconds_total", "counter",
         "Wall time with requests at the engine.");
  fprintf(fp, "xliffmt_serve_engine_seconds_total %.6f\n", m->engine_seconds);
  metric(fp, "engine_failures_total", "counter",
         "Translations that failed at the engine.");
  fprintf(fp, "xliffmt_serve_engine_failures_total %llu\n", m->engine_failures);
  metric(fp, "engine_restarts_total", "counter",
         "Engines reopened after a failure.");
  fprintf(fp, "xliffmt_serve_engine_restarts_total %llu\n", m->engine_restarts);
  metric(fp, "engines_down", "gauge",
         "Workers (and document threads, at each engine) whose last "
         "translation failed at the engine.");
  fprintf(fp, "xliffmt_serve_engines_down %zu\n", m->engines_down);
}

enum serve_outcome serve_metrics_handle(struct serve_request *rq) {
  struct serve_server *sv = rq->server;
  char *text = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&text, &size);
  if (fp == NULL) {
    serve_error(rq, 500, "out of memory");
    return SERVE_ANSWER;
  }
  pthread_mutex_lock(&sv->metrics.lock);
  write_metrics(fp, sv);
  pthread_mutex_unlock(&sv->metrics.lock);
  pthread_mutex_lock(&sv->lock);
  size_t waiting = sv->qlen, running = sv->running;
  unsigned long long cancelled = sv->runs_cancelled;
  pthread_mutex_unlock(&sv->lock);
  metric(fp, "queue_depth", "gauge", "Requests waiting for a worker.");
  fprintf(fp, "xliffmt_serve_queue_depth %zu\n", waiting);
  metric(fp, "requests_in_flight", "gauge", "Requests at a worker.");
  fprintf(fp, "xliffmt_serve_requests_in_flight %zu\n", running);
  metric(fp, "workers", "gauge", "Workers, each with an engine.");
  fprintf(fp, "xliffmt_serve_workers %zu\n", sv->nworkers);
  metric(fp, "runs_cancelled_total", "counter",
         "Translations stopped because their client had gone.");
  fprintf(fp, "xliffmt_serve_runs_cancelled_total %llu\n", cancelled);
  if (fclose(fp) != 0 ||
      !serve_reply_text(&rq->reply, 200, "text/plain; version=0.0.4", text))
    serve_error(rq, 500, "out of memory");
  free(text);
  return SERVE_ANSWER;
}

/* Each engine: its --mt, its pairs, its workers, and whether it is down
 * (a worker's last translation failed at it, or a document thread's last
 * document at it) and why; under the metrics' lock. The first reason of
 * all in *reason. */
static json_t *engines(struct serve_server *sv, char *reason, size_t len) {
  json_t *list = json_array();
  for (size_t i = 0; i < sv->nengines; i++) {
    const struct serve_engine *e = &sv->engines[i];
    json_t *o = json_object(), *pairs = json_array();
    const char *why = NULL;
    for (size_t k = 0; why == NULL && k < e->nworkers; k++)
      if (e->workers[k].state.down)
        why = e->workers[k].state.reason;
    for (size_t k = 0; why == NULL && k < sv->set->document_threads; k++)
      if (e->docs[k].down)
        why = e->docs[k].reason;
    if (why != NULL && reason[0] == '\0')
      snprintf(reason, len, "%s", why);
    for (size_t k = 0; k < sv->pairs.n; k++)
      if (sv->pairs.v[k].engine == i) {
        char pair[2 * SERVE_LANG_MAX + 1];
        snprintf(pair, sizeof pair, "%s-%s", sv->pairs.v[k].src,
                 sv->pairs.v[k].tgt);
        json_array_append_new(pairs, json_string(pair));
      }
    json_object_set_new(o, "backend", json_string(e->mt));
    json_object_set_new(o, "pairs", pairs);
    json_object_set_new(o, "status", json_string(why != NULL ? "down" : "ok"));
    if (why != NULL) { /* cut inside a character: not UTF-8 */
      json_t *w = json_string(why);
      json_object_set_new(o, "reason",
                          w != NULL ? w : json_string("the engine failed"));
    }
    json_array_append_new(list, o);
  }
  return list;
}

enum serve_outcome serve_health_handle(struct serve_request *rq) {
  struct serve_server *sv = rq->server;
  pthread_mutex_lock(&sv->lock);
  size_t waiting = sv->qlen, running = sv->running;
  pthread_mutex_unlock(&sv->lock);
  /* Degraded (503, so that a load balancer or a monitor sees it) while
   * a worker's last translation failed at the engine; with several
   * engines, each is listed with its pairs, and the reason names the one
   * down. */
  char reason[256] = "";
  pthread_mutex_lock(&sv->metrics.lock);
  json_t *list = engines(sv, reason, sizeof reason);
  pthread_mutex_unlock(&sv->metrics.lock);
  json_t *o = json_object();
  json_object_set_new(o, "status",
                      json_string(reason[0] != '\0' ? "degraded" : "ok"));
  json_t *why = reason[0] != '\0' ? json_string(reason) : NULL;
  if (reason[0] != '\0') /* cut inside a character: not UTF-8 */
    json_object_set_new(o, "reason",
                        why != NULL ? why : json_string("the engine failed"));
  if (sv->nengines == 1) {
    json_object_set_new(o, "backend", json_string(sv->engines[0].mt));
    json_decref(list);
  } else
    json_object_set_new(o, "engines", list);
  json_object_set_new(o, "workers", json_integer((json_int_t)sv->nworkers));
  json_object_set_new(o, "busy", json_integer((json_int_t)running));
  json_object_set_new(o, "queued", json_integer((json_int_t)waiting));
  serve_reply_json(&rq->reply, reason[0] != '\0' ? 503 : 200, o, 0);
  return SERVE_ANSWER;
}
