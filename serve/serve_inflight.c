/* serve_inflight.c -- xliffmt serve: identical requests at once are sent
 * once. A request queued or at a worker is in flight; one that comes
 * while an identical one (the same languages, texts, markup and options)
 * is in flight does not go to the queue but waits, its connection
 * suspended, for that one's answer, which it then gets as its own (in
 * its own API's shape), errors included. Waiting with a suspended
 * connection rather than in a worker keeps the workers for other
 * requests, and catches every identical request that comes while the
 * first is in flight, however many. The table is the server's list of
 * requests in flight, under the server's lock. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* Appends a length and its bytes at *k; counts them when key is NULL. */
static void put(char *key, size_t *k, const void *bytes, size_t len) {
  if (key != NULL) {
    memcpy(key + *k, &len, sizeof len);
    if (len > 0)
      memcpy(key + *k + sizeof len, bytes, len);
  }
  *k += sizeof len + len;
}

static void put_str(char *key, size_t *k, const char *s) {
  put(key, k, s, strlen(s));
}

static void put_list(char *key, size_t *k, char **list, size_t n) {
  put(key, k, &n, sizeof n);
  for (size_t i = 0; i < n; i++)
    put_str(key, k, list[i]);
}

/* What the translation of a job depends on, in *key (NULL: *len only). */
static void write_key(const struct serve_job *job, char *key, size_t *len) {
  const struct serve_text_options *o = &job->opt;
  int flags[3] = {o->split_lines, o->no_sentences, o->trim};
  size_t k = 0;
  put_str(key, &k, job->pair.src);
  put_str(key, &k, job->pair.tgt);
  put(key, &k, flags, sizeof flags);
  put_list(key, &k, o->ignore, o->nignore);
  put_list(key, &k, o->splitting, o->nsplitting);
  put(key, &k, &job->ntexts, sizeof job->ntexts);
  for (size_t i = 0; i < job->ntexts; i++) {
    int markup = (int)job->texts[i].markup;
    put(key, &k, &markup, sizeof markup);
    put(key, &k, job->texts[i].in, job->texts[i].in_len);
  }
  *len = k;
}

int serve_inflight_key(struct serve_job *job) {
  size_t len;
  write_key(job, NULL, &len);
  if ((job->key = malloc(len)) == NULL)
    return 0;
  write_key(job, job->key, &job->key_len);
  job->hash = xmt_fnv1a(XMT_FNV1A_BASIS, job->key, len);
  return 1;
}

struct serve_request *serve_inflight_find(struct serve_server *sv,
                                          const struct serve_job *job) {
  if (job->key == NULL)
    return NULL;
  for (struct serve_request *r = sv->inflight; r != NULL;
       r = r->next_inflight) {
    const struct serve_job *j = r->job;
    if (j->hash == job->hash && j->key_len == job->key_len &&
        memcmp(j->key, job->key, job->key_len) == 0)
      return r;
  }
  return NULL;
}

void serve_inflight_add(struct serve_server *sv, struct serve_request *rq) {
  rq->next_inflight = sv->inflight;
  sv->inflight = rq;
}

void serve_inflight_follow(struct serve_server *sv,
                           struct serve_request *leader,
                           struct serve_request *rq) {
  rq->next_follower = leader->followers;
  leader->followers = rq;
  sv->following++;
}

struct serve_request *serve_inflight_remove(struct serve_server *sv,
                                            struct serve_request *rq) {
  for (struct serve_request **p = &sv->inflight; *p != NULL;
       p = &(*p)->next_inflight)
    if (*p == rq) {
      *p = rq->next_inflight;
      break;
    }
  rq->next_inflight = NULL;
  struct serve_request *f = rq->followers;
  rq->followers = NULL;
  for (struct serve_request *r = f; r != NULL; r = r->next_follower)
    sv->following--;
  return f;
}

/* The leader's result as job's: its status and message, a copy of each
 * translation. */
static void copy_result(struct serve_job *job, const struct serve_job *from) {
  job->status = from->status;
  job->bad_input = from->bad_input;
  job->segments = from->segments;
  memcpy(job->message, from->message, sizeof job->message);
  for (size_t i = 0; job->status == XMT_OK && i < job->ntexts; i++) {
    const struct serve_text *t = &from->texts[i];
    char *out = xmt_memdup(t->out, t->out_len);
    if (out == NULL) {
      job->status = XMT_ERR_NOMEM;
      snprintf(job->message, sizeof job->message, "out of memory");
      break;
    }
    job->texts[i].out = out;
    job->texts[i].out_len = t->out_len;
  }
}

void serve_inflight_answer(const struct serve_job *from,
                           struct serve_request *followers) {
  while (followers != NULL) {
    struct serve_request *rq = followers;
    followers = rq->next_follower;
    rq->next_follower = NULL;
    copy_result(rq->job, from);
    rq->job->answer(rq->job);
    serve_http_resume(rq);
  }
}
