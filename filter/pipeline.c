/* pipeline.c -- the translate pipeline: read, batch, translate, re-tag,
 * write, in document order and bounded memory. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "filter_private.h"
#include "xliffmt.h"

/* Defaults: segments per backend call, and segments per window. A window
 * is what the pipeline holds at once: its units, their translations, and
 * the corpus the built-in aligner trains on. */
#define DEFAULT_BATCH 64
#define DEFAULT_WINDOW 4096
/* The table of translations kept across windows is dropped past this. */
#define MEMO_MAX_BYTES (8u << 20)

/* Queued output: skeleton bytes or a unit, kept in order while the units
 * before them wait for their translations. */
struct item {
  xmt_xliff_unit *unit; /* NULL: bytes */
  char *key;            /* its key (xmt_unit_keys) when not its id */
  size_t bytes, len;    /* in w->skeleton */
  size_t failed;        /* segments of the unit not translated */
};

/* One segment of the window that wants a translation. */
struct job {
  size_t item, seg;
  size_t lead, core_len;       /* the core of its plain text */
  size_t result;               /* NO_RESULT: nothing to translate, copied */
  size_t first_probe, nprobes; /* its probes in w->probes */
};
#define NO_RESULT SIZE_MAX

/* One distinct request of the window, answered by the backend or by the
 * translations of earlier windows. */
struct result {
  size_t request, request_len; /* MT input, in w->arena */
  uint64_t request_hash;       /* its xmt_memo_hash */
  size_t plain, plain_len;     /* the core's plain text, in w->arena */
  size_t answer, answer_len;   /* plain answer (tags removed), in ->plain */
  size_t first_job;            /* for messages */
  int cached;
  int needs_links;       /* some job projects onto this answer */
  xmt_alignment *links;  /* the aligner's, or NULL */
  int backend_links_bad; /* the engine's alignment did not check out */
  int probe;             /* asked only by probes */
  int asked_by_probe;    /* a probe asked first (its cache key says so) */
  int claimed;           /* a segment asked it after a probe did */
  int unchanged;         /* the answer is the plain text it translates */
};

struct run;

/* One backend state and its batch: the engine as one thread uses it. */
struct lane {
  struct run *run;
  void *state; /* the backend's */
  struct xmt_mt_request *requests;
  xmt_mt_response **response_ptrs;
  struct xmt_buf ids; /* of the requests of a batch */
  size_t cap;
  pthread_t thread;
};

/* A segment the placing stage left without a translation, told to the
 * caller once the stage is done (callbacks come from the caller's
 * thread only). */
struct failure_note {
  size_t id, message; /* in window->notes */
  unsigned long line;
};

/* A window: what the pipeline holds at once, its units and skeleton
 * bytes, their requests and answers. The main thread reads and translates
 * one window while a worker thread aligns, places and writes the one
 * before, so that the engine, the parser and the aligner work at once. */
struct window {
  struct item *items;
  size_t nitems, items_cap;
  size_t queued_segments;
  struct job *jobs;
  size_t njobs, jobs_cap;
  struct result *results;
  struct xmt_mt_response *responses; /* one per result */
  size_t nresults, results_cap;
  struct xmt_buf skeleton;    /* the window's skeleton bytes */
  struct xmt_buf arena;       /* requests and plain cores of the window */
  struct xmt_buf plain;       /* plain answers */
  struct xmt_buf probe_plain; /* those of results only probes asked */
  int probes_answered;        /* under run->probes_lock */
  int probes_failed;          /* the run failed asking them */
  struct xmt_probe *probes;   /* of the window's jobs */
  size_t *probe_results;      /* the result of each; NO_RESULT: literal */
  size_t nprobes, probes_cap;
  /* What placing counted, failed and left untranslated: the run's own
   * once the main thread takes the window back. */
  struct xmt_filter_stats stats;
  struct xmt_error_store err;
  int failed;
  struct failure_note *notes_at;
  size_t nnotes, notes_cap;
  struct xmt_buf notes;
  /* The run stopped asking the engine while asking this window's
   * requests: the segments the engine failed are not told one by one. */
  int engine_stopped;
  /* A document of one window aligned before with the same cache: its
   * links, by result, from the cache (memo_hit) or for it (memo_fresh). */
  int memo_wanted, memo_hit, memo_fresh;
  char memo_key[33];
  struct xmt_buf memo;
};

/* Scratch space of one stage: each thread has its own. */
struct stage_tools {
  struct xmt_placer placer;
  xmt_segment *scratch;
  xmt_tokens *stok, *ttok;
};

struct run {
  xmt_filter *filter;
  xmt_xliff_writer *writer;
  xmt_xliff_reader *reader;
  const char *in_path;
  struct xmt_xliff_target_options options;
  char *source_language; /* of the current <file> */
  char *target_language;
  struct window windows[2];
  struct window *fill;    /* the one the reader fills */
  struct window *placing; /* handed to the worker, NULL: none */
  struct window *asking;  /* whose requests go to the engine */
  int asking_probes;      /* its probes' (1) or its segments' (0) */
  /* The engine answers a window's probes while the worker aligns it:
   * placing waits for them. */
  pthread_mutex_t probes_lock;
  pthread_cond_t probes_cond;
  pthread_t worker;
  int worker_started; /* else the window was placed in the main thread */
  /* The engine: lanes[0] holds the state opened for the run; with
   * --engine-jobs, the others are opened when a window first needs them. */
  struct lane *lanes;
  size_t nlanes, lanes_cap;
  const struct xmt_backend_config *config;
  size_t *pending; /* results to send this window */
  size_t pending_cap;
  size_t batch, npending, nbatches;
  size_t lanes_running;       /* this window's */
  int lanes_stop;             /* set by a lane that failed */
  pthread_mutex_t lanes_lock; /* stats, progress, errors, engine failures */
  /* Batches in a row the engine itself failed (no segment translated,
   * xmt_mt_response_set_engine_error): at XMT_ENGINE_FAILURES the run
   * stops asking it, and engine_stop says why. Per run: a kept engine
   * carries no count from one document to the next. */
  unsigned engine_failures;
  int engine_stopped;
  char engine_stop[640];
  struct xmt_buf request;
  /* The window's distinct requests: result numbers by request hash, open
   * addressing (NO_RESULT: free). The keys are the requests in the arena,
   * not copied again. */
  size_t *index;
  size_t index_cap;
  struct xmt_memo run_memo; /* request -> translation, whole run */
  int probing;              /* probes are sent */
  struct stage_tools tt;    /* the main thread's: requests and answers */
  struct stage_tools pt;    /* the placing stage's */
  int failed;               /* the filter's own error is set */
  /* The word aligner, kept from window to window so that each window's
   * training starts from what the earlier ones taught. Only the placing
   * stage uses it. */
  xmt_aligner *aligner;
  size_t aligner_pairs; /* trained on in this run */
  /* Offline workflow: extract writes the requests, not the document;
   * both extract and merge keep identical segments apart (by id). */
  struct xmt_output *extract;
  enum xmt_segments_format extract_format;
  int no_dedupe;
  struct xmt_error_store cache_err;
  /* The translation memory cache and the engine part of its keys. */
  struct xmt_cache *cache;
  struct xmt_buf cache_engine;
  struct xmt_unit_keys unit_keys;
  unsigned long files;   /* <file> elements begun */
  int reading_done;      /* the window being drained is the last */
  size_t windows_handed; /* to the placing stage */
};

/* --- The run ---------------------------------------------------------------
 */

static int run_fail(struct run *run, xmt_status st, unsigned long line,
                    const char *unit_id, const char *message) {
  xmt_error_set(&run->filter->err, st, run->in_path, line, 0, unit_id, "%s",
                message);
  run->failed = 1;
  return 1;
}

static int run_nomem(struct run *run) {
  return run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
}

/* A failure of the placing stage: the window's, made the run's when the
 * main thread takes the window back. message NULL: st's own. */
static int place_fail(const struct run *run, struct window *w, xmt_status st,
                      unsigned long line, const char *unit_id,
                      const char *message) {
  xmt_error_set(&w->err, st, run->in_path, line, 0, unit_id, "%s",
                message != NULL ? message : xmt_strerror(st));
  w->failed = 1;
  return 1;
}

static struct item *push_item(struct run *run) {
  struct window *w = run->fill;
  struct item *items =
      xmt_grow_array(w->items, &w->items_cap, w->nitems + 1, sizeof *items);
  if (items == NULL)
    return NULL;
  w->items = items;
  struct item *it = &w->items[w->nitems++];
  memset(it, 0, sizeof *it);
  return it;
}

/* 1 when the unit asks for a translation: translatable, not translated
 * yet (or overwriting), and with some source content. */
static int wants_translation(const xmt_filter *f, const xmt_xliff_unit *u) {
  if (u == NULL || !xmt_xliff_unit_translatable(u) ||
      (xmt_xliff_unit_has_target(u) && !(f->flags & XMT_FILTER_OVERWRITE)))
    return 0;
  for (size_t s = 0; s < xmt_xliff_unit_segment_count(u); s++) {
    const xmt_segment *seg = xmt_xliff_unit_source(u, s);
    size_t len;
    xmt_segment_text(seg, &len);
    if (len > 0 || xmt_segment_tag_count(seg) > 0)
      return 1;
  }
  return 0;
}

static const xmt_segment *job_source(const struct window *w,
                                     const struct job *j) {
  return xmt_xliff_unit_source(w->items[j->item].unit, j->seg);
}

/* Appends as much of s as fits, keeping the NUL. */
/* Appends the segment id of a job, "KEY#MID" (or KEY for a unit read as
 * one segment), and a NUL. */
static xmt_status job_id(const struct window *w, const struct job *j,
                         struct xmt_buf *out) {
  const struct item *it = &w->items[j->item];
  const char *mid = xmt_xliff_unit_segment_mid(it->unit, j->seg);
  const char *key = it->key != NULL ? it->key : xmt_xliff_unit_id(it->unit);
  xmt_status st = xmt_buf_append_str(out, key);
  if (st == XMT_OK && mid != NULL &&
      (st = xmt_buf_append_byte(out, '#')) == XMT_OK)
    st = xmt_buf_append_str(out, mid);
  return st == XMT_OK ? xmt_buf_append(out, "", 1) : st;
}

static xmt_status grow_jobs(struct run *run) {
  struct window *w = run->fill;
  struct job *jobs =
      xmt_grow_array(w->jobs, &w->jobs_cap, w->njobs + 1, sizeof *jobs);
  if (jobs == NULL)
    return XMT_ERR_NOMEM;
  w->jobs = jobs;
  return XMT_OK;
}

static xmt_status grow_results(struct run *run) {
  struct window *w = run->fill;
  if (w->nresults < w->results_cap)
    return XMT_OK;
  size_t cap = w->results_cap ? 2 * w->results_cap : 256;
  struct result *res = realloc(w->results, cap * sizeof *res);
  if (res == NULL)
    return XMT_ERR_NOMEM;
  w->results = res;
  struct xmt_mt_response *resp = realloc(w->responses, cap * sizeof *resp);
  if (resp == NULL)
    return XMT_ERR_NOMEM;
  memset(resp + w->results_cap, 0, (cap - w->results_cap) * sizeof *resp);
  w->responses = resp;
  w->results_cap = cap;
  return XMT_OK;
}

/* Projection: the core with a space for each code that stands for a word
 * break (see xmt_break_segment), into run->request. */
static xmt_status spaced_request(struct run *run, const xmt_segment *src,
                                 size_t lead, size_t core_len) {
  return xmt_break_text(&run->tt.placer, src, lead, core_len, &run->request);
}

/* The MT input of a job's core, by tag mode, into run->request. In
 * projection it is also the plain text the answer is aligned with. */
static xmt_status build_request(struct run *run, const xmt_segment *src,
                                size_t lead, size_t core_len) {
  const char *text = xmt_segment_text(src, NULL);
  switch (run->filter->tag_mode) {
  case XMT_TAGS_MASK:
    if (xmt_segment_tag_count(src) > 0)
      return xmt_mask_encode(src, lead, core_len, &run->request);
    break;
  case XMT_TAGS_RAW:
    return xmt_raw_encode(&run->tt.placer, src, lead, core_len, &run->request);
  case XMT_TAGS_PROJECT:
    if (xmt_segment_tag_count(src) > 0)
      return spaced_request(run, src, lead, core_len);
    break;
  }
  xmt_buf_reset(&run->request);
  return xmt_buf_append(&run->request, text + lead, core_len);
}

/* The result answering request req, whose answer is aligned with plain:
 * one of the window's, or a new one (probe: asked only by a probe). */
/* The key of a request in the translation memory cache. */
static void cache_key(const struct run *run, int probe,
                      struct xmt_cache_key *key) {
  key->engine = run->cache_engine.data;
  key->source_language =
      run->source_language != NULL ? run->source_language : "";
  key->target_language =
      run->options.target_language != NULL ? run->options.target_language : "";
  key->markup = run->filter->tag_mode == XMT_TAGS_RAW && !probe;
}

/* A cache that fails is reported once and no longer used: the
 * translation goes on without it. */
static void cache_trouble(struct run *run) {
  xmt_filter *f = run->filter;
  if (f->on_warning != NULL) {
    char msg[400];
    snprintf(msg, sizeof msg, "the cache failed (%.300s); going on without it",
             xmt_cache_error(run->cache));
    f->on_warning(f->callback_user, NULL, 0, msg);
  }
  xmt_cache_close(run->cache);
  run->cache = NULL;
  f->cache = NULL;
}

/* The slot of the window's request req (hash: its xmt_memo_hash): the
 * result that asked it first, or the free slot where it goes. */
static size_t *index_slot(const struct run *run, uint64_t hash, const char *req,
                          size_t req_len) {
  const struct window *w = run->fill;
  size_t mask = run->index_cap - 1;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    size_t r = run->index[i];
    if (r == NO_RESULT)
      return &run->index[i];
    const struct result *res = &w->results[r];
    if (res->request_hash == hash && res->request_len == req_len &&
        memcmp(w->arena.data + res->request, req, req_len) == 0)
      return &run->index[i];
  }
}

/* Room in the index for one more result, at most 3/4 full. */
static xmt_status grow_index(struct run *run) {
  struct window *w = run->fill;
  if ((w->nresults + 1) * 4 <= run->index_cap * 3)
    return XMT_OK;
  size_t cap = run->index_cap ? 2 * run->index_cap : 1024;
  size_t *index = malloc(cap * sizeof *index);
  if (index == NULL)
    return XMT_ERR_NOMEM;
  memset(index, 0xFF, cap * sizeof *index); /* NO_RESULT */
  for (size_t r = 0; r < w->nresults; r++) {
    size_t i = (size_t)w->results[r].request_hash & (cap - 1);
    while (index[i] != NO_RESULT)
      i = (i + 1) & (cap - 1);
    index[i] = r;
  }
  free(run->index);
  run->index = index;
  run->index_cap = cap;
  return XMT_OK;
}

static xmt_status add_result(struct run *run, const char *req, size_t req_len,
                             const char *plain, size_t plain_len, int probe,
                             size_t *out) {
  xmt_filter *f = run->filter;
  struct window *w = run->fill;
  size_t r, *slot = NULL;
  uint64_t hash = run->no_dedupe ? 0 : xmt_memo_hash(req, req_len);
  if (!run->no_dedupe) {
    if (grow_index(run) != XMT_OK)
      return XMT_ERR_NOMEM;
    slot = index_slot(run, hash, req, req_len);
  }
  if (slot != NULL && *slot != NO_RESULT) {
    r = *slot;
    struct result *res = &w->results[r];
    /* A segment asking what a probe asked first makes it its own (and is
     * counted as deduplicated when look_up_answers finds the answer). */
    if (!probe && !res->probe)
      f->stats.deduplicated_segments++;
    if (!probe && res->probe) {
      res->probe = 0;
      res->claimed = 1;
      res->first_job = w->njobs - 1;
    }
    *out = r;
    return XMT_OK;
  }
  if (grow_results(run) != XMT_OK)
    return XMT_ERR_NOMEM;
  r = w->nresults;
  struct result *res = &w->results[r];
  memset(res, 0, sizeof *res);
  res->first_job = w->njobs - 1;
  res->probe = probe;
  res->request = w->arena.len;
  res->request_len = req_len;
  res->request_hash = hash;
  /* Both NUL-terminated: requests go to the backend from the arena. A
   * plain text that is the request (projection) is not stored twice. */
  int same = plain == req && plain_len == req_len;
  res->plain = same ? res->request : res->request + req_len + 1;
  res->plain_len = plain_len;
  if (xmt_buf_append(&w->arena, req, req_len) != XMT_OK ||
      xmt_buf_append_byte(&w->arena, '\0') != XMT_OK ||
      (!same && (xmt_buf_append(&w->arena, plain, plain_len) != XMT_OK ||
                 xmt_buf_append_byte(&w->arena, '\0') != XMT_OK)))
    return XMT_ERR_NOMEM;
  if (slot != NULL)
    *slot = r;
  res->asked_by_probe = probe;
  xmt_mt_response_reset(&w->responses[r]);
  w->nresults++;
  *out = r;
  return XMT_OK;
}

/* The answers the window need not ask the engine: translations of
 * earlier windows, then the cache. After the window's requests are all
 * known, so that the table's slots can be fetched a few results ahead:
 * it outgrows the cache, and a lookup waited for memory. */
static xmt_status look_up_answers(struct run *run) {
  struct window *w = run->fill;
  xmt_filter *f = run->filter;
  if (run->no_dedupe)
    return XMT_OK;
  for (size_t r = 0; r < w->nresults; r++) {
    if (r + 8 < w->nresults)
      xmt_memo_prefetch(&run->run_memo, w->results[r + 8].request_hash);
    struct result *res = &w->results[r];
    const char *req = w->arena.data + res->request, *cached;
    size_t cached_len;
    if (xmt_memo_get_hashed(&run->run_memo, res->request_hash, req,
                            res->request_len, &cached, &cached_len, NULL)) {
      res->cached = 1;
      if (!res->probe)
        f->stats.deduplicated_segments++;
      xmt_status st =
          xmt_mt_response_set_text(&w->responses[r], cached, cached_len);
      if (st != XMT_OK)
        return st;
    } else if (run->cache != NULL) {
      struct xmt_cache_key key;
      cache_key(run, res->asked_by_probe, &key);
      int hit = xmt_cache_get(run->cache, &key, req, res->request_len,
                              &w->responses[r]);
      if (hit == -2)
        return XMT_ERR_NOMEM;
      if (hit < 0)
        cache_trouble(run);
      if (hit == 1) {
        res->cached = 1;
        f->stats.cache_hits++;
        if (res->claimed)
          f->stats.deduplicated_segments++;
      }
    }
  }
  return XMT_OK;
}

static xmt_status grow_probes(struct run *run, size_t n) {
  struct window *w = run->fill;
  if (w->nprobes + n <= w->probes_cap)
    return XMT_OK;
  size_t cap = w->probes_cap ? 2 * w->probes_cap : 256;
  while (cap < w->nprobes + n)
    cap *= 2;
  struct xmt_probe *pr = realloc(w->probes, cap * sizeof *pr);
  if (pr != NULL)
    w->probes = pr;
  size_t *res = realloc(w->probe_results, cap * sizeof *res);
  if (res != NULL)
    w->probe_results = res;
  if (pr == NULL || res == NULL)
    return XMT_ERR_NOMEM;
  w->probes_cap = cap;
  return XMT_OK;
}

/* The probes of the last job added: planned on its spaced core, each
 * asked for as a request of its own unless it is literal. */
static xmt_status add_probes(struct run *run, const xmt_segment *src) {
  struct window *w = run->fill;
  struct xmt_placer *p = &run->tt.placer;
  struct job *j = &w->jobs[w->njobs - 1];
  size_t core_len;
  xmt_status st =
      xmt_break_segment(p, src, j->lead, j->core_len, p->spaced, &core_len);
  if (st == XMT_OK)
    st = xmt_probe_plan(p, p->spaced, j->lead, core_len);
  if (st == XMT_OK)
    st = grow_probes(run, p->nprobes);
  const char *core = xmt_segment_text(p->spaced, NULL) + j->lead;
  j->first_probe = w->nprobes;
  for (size_t k = 0; st == XMT_OK && k < p->nprobes; k++) {
    const struct xmt_probe *q = &p->probes[k];
    size_t *r = &w->probe_results[w->nprobes];
    w->probes[w->nprobes++] = *q;
    *r = NO_RESULT;
    if (!q->literal)
      st = add_result(run, core + q->start, q->end - q->start, core + q->start,
                      q->end - q->start, 1, r);
  }
  j->nprobes = w->nprobes - j->first_probe;
  return st;
}

/* Adds a job for segment seg of item, with its result and its probes. */
static xmt_status add_job(struct run *run, size_t item, size_t seg) {
  struct window *w = run->fill;
  xmt_filter *f = run->filter;
  const xmt_segment *src = xmt_xliff_unit_source(w->items[item].unit, seg);
  size_t len;
  const char *text = xmt_segment_text(src, &len);
  if (grow_jobs(run) != XMT_OK)
    return XMT_ERR_NOMEM;
  struct job *j = &w->jobs[w->njobs++];
  j->item = item;
  j->seg = seg;
  xmt_core_bounds(text, len, &j->lead, &j->core_len);
  j->result = NO_RESULT;
  j->first_probe = j->nprobes = 0;
  if (!xmt_needs_mt(text + j->lead, j->core_len)) {
    f->stats.copied_segments++;
    return XMT_OK;
  }
  xmt_status st = build_request(run, src, j->lead, j->core_len);
  if (st != XMT_OK)
    return st;
  const char *req = run->request.len > 0 ? run->request.data : "";
  size_t req_len = run->request.len;
  /* In projection the request is the text aligned with the answer. */
  int project = f->tag_mode == XMT_TAGS_PROJECT;
  st = add_result(run, req, req_len, project ? req : text + j->lead,
                  project ? req_len : j->core_len, 0, &j->result);
  if (st == XMT_OK && run->probing && xmt_segment_tag_count(src) > 0)
    st = add_probes(run, src);
  return st;
}

static xmt_status grow_lane(struct lane *lane, size_t n) {
  if (n <= lane->cap)
    return XMT_OK;
  struct xmt_mt_request *req = realloc(lane->requests, n * sizeof *req);
  if (req != NULL)
    lane->requests = req;
  xmt_mt_response **ptrs = realloc(lane->response_ptrs, n * sizeof *ptrs);
  if (ptrs != NULL)
    lane->response_ptrs = ptrs;
  if (req == NULL || ptrs == NULL)
    return XMT_ERR_NOMEM;
  lane->cap = n;
  return XMT_OK;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) +
         (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int report_progress(struct run *run) {
  xmt_filter *f = run->filter;
  if (xmt_filter_interrupted(f) ||
      (f->progress != NULL && f->progress(f->callback_user, &f->stats) != 0))
    return run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  return 0;
}

/* The aligner's training asks now and then whether to go on. */
static int training_goes_on(void *user, unsigned iteration, unsigned iterations,
                            size_t pairs_done, size_t pairs) {
  (void)iteration, (void)iterations, (void)pairs_done, (void)pairs;
  return xmt_filter_interrupted(user);
}

/* Opens the backend's states up to n lanes (lanes[0] is the run's). */
static int open_lanes(struct run *run, size_t n) {
  xmt_filter *f = run->filter;
  for (; run->nlanes < n; run->nlanes++) {
    struct lane *lane = &run->lanes[run->nlanes];
    char errbuf[256] = "";
    if (f->backend->open != NULL &&
        f->backend->open(f->backend_user, run->config, &lane->state, errbuf,
                         sizeof errbuf) != 0) {
      char msg[400];
      snprintf(
          msg, sizeof msg, "cannot start MT backend '%s' (engine job %zu): %s",
          f->backend->name, run->nlanes + 1, errbuf[0] ? errbuf : "failed");
      return strcmp(errbuf, "out of memory") == 0
                 ? run_nomem(run)
                 : run_fail(run, XMT_ERR_BACKEND, 0, NULL, msg);
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
  run->asking->engine_stopped = 1;
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
    const struct result *res = &w->results[run->pending[i]];
    st = job_id(w, &w->jobs[res->first_job], &lane->ids);
    if (st == XMT_OK && res->probe) {
      lane->ids.len--; /* its NUL */
      st = xmt_buf_append(&lane->ids, "/probe", sizeof "/probe");
      probes++;
    }
  }
  const char *id = lane->ids.data;
  for (size_t i = from; i < to && st == XMT_OK; i++) {
    size_t r = run->pending[i];
    const struct result *res = &w->results[r];
    struct xmt_mt_request *q = &lane->requests[i - from];
    q->segment_id = id;
    id += strlen(id) + 1;
    q->text = w->arena.data + res->request;
    q->len = res->request_len;
    q->source_language = run->source_language;
    q->target_language = run->options.target_language;
    lane->response_ptrs[i - from] = &w->responses[r];
  }
  int stopped = __atomic_load_n(&run->engine_stopped, __ATOMIC_ACQUIRE);
  if (st == XMT_OK && stopped)
    st = fail_unsent(lane, m);
  /* Raw requests are markup: to the engine's own formatter if it has
   * one. */
  int rc = st != XMT_OK || stopped ? 0
           : f->tag_mode == XMT_TAGS_RAW && f->backend->translate_markup
               ? f->backend->translate_markup(lane->state, lane->requests,
                                              lane->response_ptrs, m)
               : f->backend->translate(lane->state, lane->requests,
                                       lane->response_ptrs, m);
  int nomem = st != XMT_OK;
  for (size_t i = 0; i < m && st == XMT_OK; i++)
    nomem |= lane->response_ptrs[i]->nomem;
  if (locked)
    pthread_mutex_lock(&run->lanes_lock);
  f->stats.mt_calls += !stopped;
  int failed = run->failed;
  if (!failed && nomem)
    failed = run_nomem(run);
  else if (!failed && rc != 0 && xmt_filter_interrupted(f))
    failed = run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  else if (!failed && rc != 0)
    failed = run_fail(run, XMT_ERR_BACKEND, 0, NULL,
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
  xmt_filter *f = run->filter;
  run->batch = f->batch_size ? f->batch_size : DEFAULT_BATCH;
  if (run->pending_cap < w->nresults) {
    size_t *p = realloc(run->pending, w->nresults * sizeof *p);
    if (p == NULL)
      return run_nomem(run);
    run->pending = p;
    run->pending_cap = w->nresults;
  }
  run->npending = 0;
  for (size_t r = 0; r < w->nresults; r++)
    if (!w->results[r].cached && w->results[r].probe == run->asking_probes)
      run->pending[run->npending++] = r;
  run->nbatches = (run->npending + run->batch - 1) / run->batch;
  run->lanes_stop = 0;
  if (run->engine_stopped)
    w->engine_stopped = 1;
  size_t lanes = f->engine_jobs > 1 ? f->engine_jobs : 1;
  if (lanes > run->nbatches)
    lanes = run->nbatches > 0 ? run->nbatches : 1;
  if (open_lanes(run, lanes) != 0)
    return 1;
  for (size_t k = 0; k < lanes; k++) {
    run->lanes[k].run = run;
    if (grow_lane(&run->lanes[k], run->batch) != XMT_OK)
      return run_nomem(run);
  }
  run->lanes_running = lanes;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (lanes == 1) {
    run_batches(&run->lanes[0], 0, 0);
    f->stats.engine_seconds += seconds_since(&t0);
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
  f->stats.engine_seconds += seconds_since(&t0);
  return run->failed;
}

/* 1 when s has two spaces in a row. Eight bytes at a time: every answer
 * is looked at, and memmem took long for this two-byte needle. */
static int has_double_space(const char *s, size_t len) {
  const uint64_t ones = UINT64_C(0x0101010101010101);
  const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, sizeof w);
    uint64_t v = w ^ (ones * ' ');
    uint64_t spaces = ~(((v & low7) + low7) | v | low7); /* exactly */
    if ((spaces & (spaces >> 8)) != 0 ||
        (s[i + 7] == ' ' && i + 8 < len && s[i + 8] == ' '))
      return 1;
  }
  for (; i + 1 < len; i++)
    if (s[i] == ' ' && s[i + 1] == ' ')
      return 1;
  return 0;
}

/* Engines leave double spaces where they drop a word ("La Comisión
 * adoptará" for "shall adopt"): runs of spaces the request did not have
 * become one, and the answer loses leading and trailing spaces. */
static void tidy_spaces(struct xmt_buf *text, const char *request,
                        size_t request_len) {
  if (text->len == 0 ||
      (text->data[0] != ' ' && text->data[text->len - 1] != ' ' &&
       !has_double_space(text->data, text->len)))
    return; /* nothing to tidy: most answers */
  if (has_double_space(request, request_len))
    return;
  size_t w = 0;
  for (size_t r = 0; r < text->len; r++) {
    char c = text->data[r];
    if (c == ' ' && (w == 0 || text->data[w - 1] == ' '))
      continue;
    text->data[w++] = c;
  }
  while (w > 0 && text->data[w - 1] == ' ')
    w--;
  text->len = w;
}

/* Characters an engine must not give (controls XML cannot carry or that
 * mean nothing in text) are removed before anything else sees the
 * answer; the segment is counted and reported. */
static void sanitize_answer(struct run *run, const struct result *res,
                            struct xmt_buf *text) {
  const struct window *w = run->asking;
  xmt_filter *f = run->filter;
  size_t len = text->len;
  size_t removed = len > 0 ? xmt_text_strip_controls(text->data, &len) : 0;
  if (removed == 0)
    return;
  text->len = len;
  text->data[len] = '\0';
  if (res->probe)
    return;
  f->stats.sanitized_segments++;
  const struct job *j = &w->jobs[res->first_job];
  struct xmt_buf id = {0};
  if (f->on_warning != NULL && job_id(w, j, &id) == XMT_OK) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "the engine's answer had %zu control character%s; "
             "removed",
             removed, removed == 1 ? "" : "s");
    f->on_warning(f->callback_user, id.data,
                  xmt_xliff_unit_line(w->items[j->item].unit), msg);
  }
  xmt_buf_free(&id);
}

/* Fails the segment of an answer that is no translation; its text goes
 * (and its memory, when large). */
static xmt_status refuse_answer(struct xmt_mt_response *resp,
                                const char *message) {
  if (resp->text.cap > ((size_t)1 << 20))
    xmt_buf_free(&resp->text);
  xmt_buf_reset(&resp->text);
  resp->has_text = 0;
  return xmt_mt_response_set_error(resp, message);
}

/* Answers are checked, never trusted, whatever the backend: one longer
 * than xmt_answer_limit allows is refused before anything else looks at
 * it (the aligner would spend its memory on it). 1 refused, 0 kept, -1
 * out of memory. */
static int refuse_long_answer(const struct run *run, const struct result *res,
                              struct xmt_mt_response *resp) {
  size_t most = run->filter->max_answer != 0 ? run->filter->max_answer
                                             : XMT_DEFAULT_MAX_ANSWER;
  size_t limit = xmt_answer_limit(most, res->request_len);
  if (resp->text.len <= limit)
    return 0;
  char msg[200];
  if (limit == most)
    snprintf(msg, sizeof msg,
             "the answer has %zu bytes, more than %zu, the maximum answer "
             "size",
             resp->text.len, most);
  else
    snprintf(msg, sizeof msg,
             "the answer has %zu bytes for a request of %zu bytes: more "
             "than %d times as long, not a translation",
             resp->text.len, res->request_len, XMT_ANSWER_GROWTH);
  return refuse_answer(resp, msg) == XMT_OK ? 1 : -1;
}

/* An answer of nothing but blanks, where the request had text (requests
 * without a letter are never sent), is a failed segment, not an empty
 * target. 1 refused, 0 kept, -1 out of memory. */
static int refuse_empty_answer(struct xmt_mt_response *resp) {
  for (size_t i = 0; i < resp->text.len; i++)
    if (!xmt_is_xml_space(resp->text.data[i]))
      return 0;
  return refuse_answer(resp, "the answer is empty") == XMT_OK ? 1 : -1;
}

/* Keeps the plain answer of a result, and whether it is the plain text
 * it translates (asked more than once per job). */
static xmt_status store_answer(struct run *run, struct result *res,
                               const char *text, size_t len) {
  struct window *w = run->asking;
  struct xmt_buf *to = res->probe ? &w->probe_plain : &w->plain;
  res->answer = to->len;
  res->answer_len = len;
  res->unchanged =
      len == res->plain_len &&
      (len == 0 || memcmp(text, w->arena.data + res->plain, len) == 0);
  return xmt_buf_append(to, text, len);
}

/* The plain answer of each result (tags removed in mask and raw modes),
 * and the run's table of translations. */
static int collect_answers(struct run *run) {
  struct window *w = run->asking;
  xmt_filter *f = run->filter;
  xmt_buf_reset(run->asking_probes ? &w->probe_plain : &w->plain);
  if (xmt_memo_bytes(&run->run_memo) > MEMO_MAX_BYTES)
    xmt_memo_clear(&run->run_memo);
  for (size_t r = 0; r < w->nresults; r++) {
    struct result *res = &w->results[r];
    struct xmt_mt_response *resp = &w->responses[r];
    if (res->probe != run->asking_probes)
      continue;
    /* The table's slot for a result a few ahead, by the time it is put. */
    if (r + 8 < w->nresults && !run->no_dedupe)
      xmt_memo_prefetch(&run->run_memo, w->results[r + 8].request_hash);
    if (resp->error != NULL || !resp->has_text)
      continue;
    int refused = refuse_long_answer(run, res, resp);
    if (refused == 0 && !res->cached) {
      tidy_spaces(&resp->text, w->arena.data + res->request, res->request_len);
      sanitize_answer(run, res, &resp->text);
    }
    if (refused == 0)
      refused = refuse_empty_answer(resp);
    if (refused < 0)
      return run_nomem(run);
    if (refused)
      continue;
    const char *tr = resp->text.len > 0 ? resp->text.data : "";
    size_t trlen = resp->text.len;
    if (!res->cached && !run->no_dedupe &&
        xmt_memo_put_hashed(&run->run_memo, res->request_hash,
                            w->arena.data + res->request, res->request_len, tr,
                            trlen, 0) != XMT_OK)
      return run_nomem(run);
    if (!res->cached && run->cache != NULL && !run->no_dedupe) {
      struct xmt_cache_key key;
      cache_key(run, res->probe, &key);
      if (xmt_cache_put(run->cache, &key, w->arena.data + res->request,
                        res->request_len, tr, trlen, resp) != XMT_OK)
        cache_trouble(run);
    }
    const struct job *j = &w->jobs[res->first_job];
    /* Only mask and raw answers are decoded against their source: a
     * projection's is not looked up (its unit is far back in memory). */
    const xmt_segment *src =
        f->tag_mode != XMT_TAGS_PROJECT ? job_source(w, j) : NULL;
    size_t repairs = 0;
    xmt_status st = XMT_OK;
    if (f->tag_mode == XMT_TAGS_MASK && xmt_segment_tag_count(src) > 0)
      st = xmt_mask_decode(&run->tt.placer, run->tt.scratch, src, j->lead,
                           j->core_len, tr, trlen, &repairs);
    else if (f->tag_mode == XMT_TAGS_RAW)
      st = xmt_raw_decode(&run->tt.placer, run->tt.scratch, src, j->lead,
                          j->core_len, tr, trlen, &repairs);
    else { /* the answer is plain already */
      if (store_answer(run, res, tr, trlen) != XMT_OK)
        return run_nomem(run);
      continue;
    }
    if (st != XMT_OK && st != XMT_ERR_INLINE)
      return run_fail(run, st, 0, NULL, xmt_strerror(st));
    if (store_answer(run, res, run->tt.placer.text.data,
                     run->tt.placer.text.len) != XMT_OK)
      return run_nomem(run);
  }
  return 0;
}

static const char *answer_of(const struct window *w, const struct result *r) {
  const struct xmt_buf *from = r->probe ? &w->probe_plain : &w->plain;
  return r->answer_len > 0 ? from->data + r->answer : "";
}

/* 1 when a job's tags must be projected onto its answer. */
static int needs_projection(struct run *run, const struct window *w,
                            const struct job *j) {
  const struct result *res = &w->results[j->result];
  if (res->unchanged)
    return 0; /* unchanged text keeps its tags where they are */
  const xmt_segment *src = job_source(w, j);
  if (xmt_segment_tag_count(src) == 0)
    return 0;
  if (run->filter->tag_mode == XMT_TAGS_PROJECT)
    return 1;
  /* Mask and raw answers are decoded again when placed; only those beyond
   * repair are projected. */
  size_t repairs = 0;
  const struct xmt_mt_response *resp = &w->responses[j->result];
  const char *tr = resp->text.len > 0 ? resp->text.data : "";
  struct stage_tools *t = &run->pt;
  xmt_status st =
      run->filter->tag_mode == XMT_TAGS_MASK
          ? xmt_mask_decode(&t->placer, t->scratch, src, j->lead, j->core_len,
                            tr, resp->text.len, &repairs)
          : xmt_raw_decode(&t->placer, t->scratch, src, j->lead, j->core_len,
                           tr, resp->text.len, &repairs);
  return st == XMT_ERR_INLINE;
}

/* Checks an engine's alignment of a result; fills links (and tokens when
 * the engine named its own). 1 when usable. */
static int backend_links(struct run *run, const struct window *w,
                         const struct result *res, xmt_alignment *links,
                         int *own_tokens) {
  const struct xmt_mt_response *resp = &w->responses[res - w->results];
  *own_tokens = 0;
  if (resp->alignment == NULL || run->filter->tag_mode != XMT_TAGS_PROJECT)
    return 0;
  const char *src = w->arena.data + res->plain;
  const char *tgt = answer_of(w, res);
  xmt_status st;
  if (resp->source_tokens != NULL) {
    st = xmt_tokens_map(run->pt.stok, src, res->plain_len, resp->source_tokens,
                        strlen(resp->source_tokens), XMT_TOKENS_MOSES, NULL);
    if (st == XMT_OK)
      st = xmt_tokens_map(run->pt.ttok, tgt, res->answer_len,
                          resp->target_tokens, strlen(resp->target_tokens),
                          XMT_TOKENS_MOSES, NULL);
    *own_tokens = 1;
  } else {
    st = xmt_tokenize(run->pt.stok, src, res->plain_len, XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_tokenize(run->pt.ttok, tgt, res->answer_len,
                        XMT_TOKENIZE_DEFAULT);
  }
  if (st == XMT_OK)
    st = xmt_alignment_parse(links, resp->alignment, strlen(resp->alignment),
                             xmt_tokens_count(run->pt.stok),
                             xmt_tokens_count(run->pt.ttok), NULL);
  return st == XMT_OK;
}

/* The languages of the run and the dictionaries asked for ("auto" when
 * none was). */
static xmt_status aligner_priors(xmt_filter *f, struct run *run,
                                 xmt_aligner *a) {
  xmt_status st =
      xmt_aligner_set_languages(a, run->source_language, run->target_language);
  if (st == XMT_OK && f->ndicts == 0)
    st = xmt_aligner_add_dictionary(a, "auto");
  for (size_t k = 0; k < f->ndicts && st == XMT_OK; k++)
    st = xmt_aligner_add_dictionary(a, f->dicts[k]);
  return st;
}

/* Word alignments for the results that need them: the built-in aligner,
 * self-trained on every answered pair of the window (seeded with a model
 * when one is given), or the model alone. */
/* The aligner model file, unless it is still to be made by
 * XMT_FILTER_UPDATE_MODEL. */
static int model_to_load(const xmt_filter *f) {
  return f->align_model != NULL && ((f->flags & XMT_FILTER_UPDATE_MODEL) == 0 ||
                                    access(f->align_model, F_OK) == 0);
}

/* The run's aligner: the model loaded, the languages and dictionaries
 * set. */
static xmt_status aligner_open(struct run *run) {
  xmt_filter *f = run->filter;
  struct xmt_aligner_options ao;
  xmt_aligner_options_init(&ao);
  ao.model = f->align_kind;
  if ((run->aligner = xmt_aligner_new(&ao)) == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  if ((f->flags & XMT_FILTER_KEEP_DICTIONARIES) != 0 && f->lexicon == NULL &&
      (f->lexicon = xmt_lexicon_new()) == NULL)
    st = XMT_ERR_NOMEM;
  xmt_aligner_set_lexicon(run->aligner, f->lexicon);
  if (st == XMT_OK && model_to_load(f))
    st = xmt_aligner_load(run->aligner, f->align_model);
  if (st == XMT_OK && f->aligner_mode == XMT_ALIGNER_SELF)
    st = aligner_priors(f, run, run->aligner);
  return st;
}

/* Whether res is projected over the aligner's links: the engine gave
 * none that check out. */
static int wants_aligner_links(struct run *run, const struct window *w,
                               const struct result *res) {
  int own;
  return res->needs_links &&
         (res->backend_links_bad ||
          !backend_links(run, w, res, run->pt.placer.links, &own));
}

/* --- Alignments kept in the cache -----------------------------------------
 * A document of one window aligned before with the same cache, answers
 * and aligner settings gets the links the aligner gave it then. Training
 * is deterministic, so they are the links it would give again, and a
 * rerun over a cached batch does not train. The links are a cache entry
 * of their own (engine MEMO_ENGINE), its request a hash of the settings
 * and of every training pair, in order; its answer a line "result TAB
 * Pharaoh links" for each result aligned. */
#define MEMO_ENGINE "xliffmt-aligner"

static int memo_applies(const struct run *run) {
  const xmt_filter *f = run->filter;
  return run->cache != NULL && run->extract == NULL && run->reading_done &&
         run->windows_handed == 0 && f->aligner_mode == XMT_ALIGNER_SELF &&
         !model_to_load(f) && (f->flags & XMT_FILTER_UPDATE_MODEL) == 0;
}

static void memo_hash(XXH3_state_t *h, const char *s, size_t n) {
  uint64_t len = n;
  XXH3_128bits_update(h, &len, sizeof len);
  XXH3_128bits_update(h, s, n);
}

/* w->memo_key: the settings and training pairs of the window. */
static int memo_key_of(const struct run *run, struct window *w) {
  const xmt_filter *f = run->filter;
  XXH3_state_t *h = XXH3_createState();
  if (h == NULL || XXH3_128bits_reset(h) != XXH_OK) {
    XXH3_freeState(h);
    return 0;
  }
  char head[160];
  snprintf(head, sizeof head, "%s %d %d %d", xmt_version(), (int)f->align_kind,
           (int)f->symmetrization, (int)f->tag_mode);
  memo_hash(h, head, strlen(head));
  const char *langs[] = {run->source_language, run->target_language};
  for (int i = 0; i < 2; i++)
    memo_hash(h, langs[i] != NULL ? langs[i] : "",
              langs[i] ? strlen(langs[i]) : 0);
  for (size_t k = 0; k < f->ndicts; k++)
    memo_hash(h, f->dicts[k], strlen(f->dicts[k]));
  for (size_t r = 0; r < w->nresults; r++) {
    const struct result *res = &w->results[r];
    const struct xmt_mt_response *resp = &w->responses[r];
    if (res->probe || resp->error != NULL || !resp->has_text)
      continue;
    uint64_t at = r;
    XXH3_128bits_update(h, &at, sizeof at);
    memo_hash(h, w->arena.data + res->plain, res->plain_len);
    memo_hash(h, answer_of(w, res), res->answer_len);
  }
  XXH128_hash_t d = XXH3_128bits_digest(h);
  XXH3_freeState(h);
  snprintf(w->memo_key, sizeof w->memo_key, "%016llx%016llx",
           (unsigned long long)d.high64, (unsigned long long)d.low64);
  return 1;
}

static void memo_cache_key(const struct run *run, struct xmt_cache_key *key) {
  cache_key(run, 0, key);
  key->engine = MEMO_ENGINE;
  key->markup = 0;
}

/* On the main thread, before the window goes to the placing stage. */
static void memo_look_up(struct run *run, struct window *w) {
  w->memo_wanted = w->memo_hit = w->memo_fresh = 0;
  xmt_buf_reset(&w->memo);
  if (!memo_applies(run) || !memo_key_of(run, w))
    return;
  w->memo_wanted = 1;
  struct xmt_cache_key key;
  memo_cache_key(run, &key);
  struct xmt_mt_response resp;
  memset(&resp, 0, sizeof resp);
  int hit =
      xmt_cache_get(run->cache, &key, w->memo_key, strlen(w->memo_key), &resp);
  if (hit == -1)
    cache_trouble(run);
  else if (hit == 1 && resp.text.len > 0 &&
           xmt_buf_append(&w->memo, resp.text.data, resp.text.len) == XMT_OK)
    w->memo_hit = 1;
  xmt_mt_response_free(&resp);
}

/* On the main thread, the window back: the links it computed go in. */
static void memo_store(struct run *run, struct window *w) {
  if (w->memo_fresh && run->cache != NULL) {
    struct xmt_cache_key key;
    memo_cache_key(run, &key);
    struct xmt_mt_response none;
    memset(&none, 0, sizeof none);
    if (xmt_cache_put(run->cache, &key, w->memo_key, strlen(w->memo_key),
                      w->memo.data, w->memo.len, &none) != XMT_OK ||
        xmt_cache_commit(run->cache, &run->cache_err) != XMT_OK)
      cache_trouble(run);
  }
  w->memo_wanted = w->memo_hit = w->memo_fresh = 0;
}

/* The links of the results that need the aligner's, from w->memo; 0 (and
 * none set) when it lacks one or one does not fit its tokens: then the
 * aligner trains as if there were none. */
static int memo_apply(struct run *run, struct window *w) {
  const char *p = w->memo.data, *end = p + w->memo.len;
  size_t applied = 0;
  xmt_status st = XMT_OK;
  for (size_t r = 0; r < w->nresults && st == XMT_OK; r++) {
    struct result *res = &w->results[r];
    if (!wants_aligner_links(run, w, res))
      continue;
    /* the line of result r: lines come in increasing order */
    const char *line = NULL, *eol = NULL;
    while (p < end) {
      char *after;
      unsigned long long at = strtoull(p, &after, 10);
      eol = memchr(p, '\n', (size_t)(end - p));
      if (eol == NULL)
        eol = end;
      const char *here = p;
      p = eol < end ? eol + 1 : end;
      if (after == here || *after != '\t' || at > r)
        break;
      if (at == r) {
        line = after + 1;
        break;
      }
    }
    if (line == NULL || (res->links = xmt_alignment_new()) == NULL) {
      st = XMT_ERR_USAGE;
      break;
    }
    st = xmt_tokenize(run->pt.stok, w->arena.data + res->plain, res->plain_len,
                      XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_tokenize(run->pt.ttok, answer_of(w, res), res->answer_len,
                        XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_alignment_parse(res->links, line, (size_t)(eol - line),
                               xmt_tokens_count(run->pt.stok),
                               xmt_tokens_count(run->pt.ttok), NULL);
    applied++;
  }
  if (st == XMT_OK) {
    w->stats.cached_alignments += applied;
    return 1;
  }
  for (size_t r = 0; r < w->nresults; r++) {
    xmt_alignment_free(w->results[r].links);
    w->results[r].links = NULL;
  }
  return 0;
}

/* The aligner's links of the window, as memo_apply reads them. */
static void memo_keep(struct window *w) {
  xmt_status st = XMT_OK;
  xmt_buf_reset(&w->memo);
  for (size_t r = 0; r < w->nresults && st == XMT_OK; r++) {
    const xmt_alignment *a = w->results[r].links;
    if (a == NULL)
      continue;
    char num[32];
    snprintf(num, sizeof num, "%zu\t", r);
    st = xmt_buf_append_str(&w->memo, num);
    const struct xmt_link *l = xmt_alignment_links(a);
    for (size_t k = 0; k < xmt_alignment_count(a) && st == XMT_OK; k++) {
      snprintf(num, sizeof num, "%s%zu-%zu", k ? " " : "", l[k].source,
               l[k].target);
      st = xmt_buf_append_str(&w->memo, num);
    }
    if (st == XMT_OK)
      st = xmt_buf_append_byte(&w->memo, '\n');
  }
  w->memo_fresh = st == XMT_OK;
}

static int align_results(struct run *run, struct window *w) {
  xmt_filter *f = run->filter;
  size_t wanted = 0;
  for (size_t r = 0; r < w->nresults; r++) {
    struct result *res = &w->results[r];
    if (!res->needs_links)
      continue;
    int own;
    xmt_alignment_clear(run->pt.placer.links);
    if (backend_links(run, w, res, run->pt.placer.links, &own))
      continue;
    if (w->responses[r].alignment != NULL)
      res->backend_links_bad = 1;
    wanted++;
  }
  if (wanted == 0 || f->aligner_mode == XMT_ALIGNER_NONE)
    return 0;
  if (w->memo_hit && memo_apply(run, w))
    return 0;
  xmt_status st = XMT_OK;
  if (run->aligner == NULL)
    st = aligner_open(run);
  else
    xmt_aligner_forget_pairs(run->aligner);
  xmt_aligner *a = run->aligner;
  /* the pair each result was added as, to align it from training */
  size_t *pair_of = calloc(w->nresults ? w->nresults : 1, sizeof *pair_of);
  if (pair_of == NULL)
    return place_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  int train = f->aligner_mode == XMT_ALIGNER_SELF;
  size_t added = 0;
  for (size_t r = 0; st == XMT_OK && r < w->nresults; r++)
    pair_of[r] = SIZE_MAX;
  for (size_t r = 0; st == XMT_OK && train && r < w->nresults; r++) {
    const struct result *res = &w->results[r];
    const struct xmt_mt_response *resp = &w->responses[r];
    /* Probes are not trained on: a word out of context would teach the
     * aligner translations the document does not use. (Their answers may
     * still be coming: not looked at.) */
    if (res->probe || resp->error != NULL || !resp->has_text)
      continue;
    const char *src = w->arena.data + res->plain;
    const char *tgt = answer_of(w, res);
    st = xmt_tokenize(run->pt.stok, src, res->plain_len, XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_tokenize(run->pt.ttok, tgt, res->answer_len,
                        XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK && xmt_tokens_count(run->pt.stok) > 0 &&
        xmt_tokens_count(run->pt.ttok) > 0) {
      pair_of[r] = xmt_aligner_pair_count(a);
      run->aligner_pairs++;
      added++;
      st = xmt_aligner_add(a, src, res->plain_len, run->pt.stok, tgt,
                           res->answer_len, run->pt.ttok);
    }
  }
  /* Answers without a word (an engine's "", "...") leave nothing to
   * train on: without a model they get proportional positions, not a
   * failed run. */
  if (st == XMT_OK && train && added > 0)
    st = xmt_aligner_train(a, training_goes_on, f);
  int has_model = model_to_load(f) || run->aligner_pairs > 0;
  for (size_t r = 0; st == XMT_OK && r < w->nresults; r++) {
    struct result *res = &w->results[r];
    if (!wants_aligner_links(run, w, res))
      continue;
    if (xmt_filter_interrupted(f)) {
      st = XMT_ERR_ABORTED;
      break;
    }
    const char *src = w->arena.data + res->plain;
    const char *tgt = answer_of(w, res);
    if ((res->links = xmt_alignment_new()) == NULL) {
      st = XMT_ERR_NOMEM;
      break;
    }
    st = xmt_tokenize(run->pt.stok, src, res->plain_len, XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_tokenize(run->pt.ttok, tgt, res->answer_len,
                        XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK && pair_of[r] != SIZE_MAX)
      st = xmt_aligner_align_pair(a, pair_of[r], f->symmetrization, res->links);
    else if (st == XMT_OK && has_model && xmt_tokens_count(run->pt.stok) > 0 &&
             xmt_tokens_count(run->pt.ttok) > 0)
      st = xmt_aligner_align(a, src, res->plain_len, run->pt.stok, tgt,
                             res->answer_len, run->pt.ttok, f->symmetrization,
                             res->links);
  }
  free(pair_of);
  if (st == XMT_OK && w->memo_wanted)
    memo_keep(w);
  if (st == XMT_ERR_ABORTED)
    return place_fail(run, w, st, 0, NULL, "interrupted");
  if (st != XMT_OK) {
    const struct xmt_error *e = a != NULL ? xmt_aligner_error(a) : NULL;
    xmt_error_set(&w->err, st, f->align_model, e != NULL ? e->line : 0, 0, NULL,
                  "word aligner: %s",
                  e != NULL && e->message != NULL ? e->message
                                                  : xmt_strerror(st));
    w->failed = 1;
  }
  return w->failed;
}

/* Records a segment that got no translation, to be told to the caller
 * when the window comes back. */
static int job_failed(struct run *run, struct window *w, const struct job *j,
                      const char *message) {
  w->stats.failed_segments++;
  w->items[j->item].failed++;
  if (run->filter->on_failure == NULL ||
      (w->engine_stopped && j->result != NO_RESULT &&
       w->responses[j->result].engine_failed))
    return 0; /* the run's message tells them at once */
  struct failure_note *n =
      xmt_grow_array(w->notes_at, &w->notes_cap, w->nnotes + 1, sizeof *n);
  if (n == NULL)
    return place_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  w->notes_at = n;
  n = &w->notes_at[w->nnotes];
  n->line = xmt_xliff_unit_line(w->items[j->item].unit);
  n->id = w->notes.len;
  if (job_id(w, j, &w->notes) != XMT_OK)
    return place_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  n->message = w->notes.len;
  if (xmt_buf_append(&w->notes, message, strlen(message) + 1) != XMT_OK)
    return place_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  w->nnotes++;
  return 0;
}

/* Edits the links of a job's answer (*links, tokens *ctok and *ttok, NULL
 * for the default tokenization) so that its probes found in the answer
 * anchor its tags; *links becomes the placer's copy. */
static xmt_status anchor_job(struct run *run, struct window *w,
                             const struct job *j, const struct result *res,
                             const xmt_tokens **ctok, const xmt_tokens **ttok,
                             const xmt_alignment **links) {
  const char *plain = w->arena.data + res->plain;
  const char *ans = answer_of(w, res);
  xmt_status st = XMT_OK;
  if (*ctok == NULL) {
    st =
        xmt_tokenize(run->pt.stok, plain, res->plain_len, XMT_TOKENIZE_DEFAULT);
    if (st == XMT_OK)
      st = xmt_tokenize(run->pt.ttok, ans, res->answer_len,
                        XMT_TOKENIZE_DEFAULT);
    *ctok = run->pt.stok;
    *ttok = run->pt.ttok;
  }
  struct xmt_probe *probes = w->probes + j->first_probe;
  for (size_t k = 0; k < j->nprobes; k++) {
    size_t r = w->probe_results[j->first_probe + k];
    probes[k].answer = NULL;
    if (r == NO_RESULT) {
      probes[k].answer = plain + probes[k].start;
      probes[k].answer_len = probes[k].end - probes[k].start;
    } else if (w->responses[r].error == NULL && w->responses[r].has_text) {
      probes[k].answer = answer_of(w, &w->results[r]);
      probes[k].answer_len = w->results[r].answer_len;
    }
  }
  size_t anchored = 0;
  if (st == XMT_OK)
    st = xmt_probe_anchor(&run->pt.placer, run->target_language, probes,
                          j->nprobes, *ctok, ans, res->answer_len, *ttok,
                          *links, run->pt.placer.anchored, &anchored);
  w->stats.probe_anchored_tags += anchored;
  if (anchored > 0) /* else the alignment decides, as without probes */
    *links = run->pt.placer.anchored;
  return st;
}

/* Projects a job's tags onto its answer, in run->pt.scratch: over the
 * spaced source in projection (the spaces taken out again), anchored
 * by its probes. */
static xmt_status project_job(struct run *run, struct window *w,
                              const struct job *j) {
  xmt_filter *f = run->filter;
  struct xmt_placer *p = &run->pt.placer;
  const xmt_segment *src = job_source(w, j);
  const struct result *res = &w->results[j->result];
  const xmt_segment *from = src;
  size_t core_len = j->core_len;
  xmt_status st = XMT_OK;
  p->nbreaks = 0;
  if (f->tag_mode == XMT_TAGS_PROJECT) {
    st = xmt_break_segment(p, src, j->lead, j->core_len, p->spaced, &core_len);
    from = p->spaced;
  }
  const xmt_tokens *ctok = NULL, *ttok = NULL;
  const xmt_alignment *links = res->links;
  int own = 0;
  if (res->needs_links && !res->backend_links_bad &&
      backend_links(run, w, res, run->pt.placer.links, &own)) {
    links = run->pt.placer.links;
    if (own) {
      ctok = run->pt.stok;
      ttok = run->pt.ttok;
    }
  }
  if (res->needs_links && xmt_segment_tag_count(src) > 0)
    w->stats.projected_segments++;
  if (st == XMT_OK && j->nprobes > 0)
    st = anchor_job(run, w, j, res, &ctok, &ttok, &links);
  if (st == XMT_OK)
    st = xmt_place_project(p, run->pt.scratch, from, j->lead, core_len,
                           answer_of(w, res), res->answer_len, ctok, ttok,
                           links, f->rule);
  if (st == XMT_OK)
    st = xmt_break_unspace(p, from, run->pt.scratch);
  return st;
}

/* Makes the target of one job: *target is its source when the answer
 * leaves that as it is (shared, not copied), else run->pt.scratch. */
static xmt_status place_job(struct run *run, struct window *w,
                            const struct job *j, const xmt_segment **target) {
  xmt_filter *f = run->filter;
  const xmt_segment *src = job_source(w, j);
  *target = src;
  if (j->result == NO_RESULT)
    return XMT_OK;
  *target = run->pt.scratch;
  const struct result *res = &w->results[j->result];
  const struct xmt_mt_response *resp = &w->responses[j->result];
  const char *tr = resp->text.len > 0 ? resp->text.data : "";
  size_t trlen = resp->text.len;
  size_t repairs = 0;
  xmt_status st = XMT_ERR_INLINE;
  if (f->tag_mode == XMT_TAGS_MASK && xmt_segment_tag_count(src) > 0)
    st = xmt_mask_decode(&run->pt.placer, run->pt.scratch, src, j->lead,
                         j->core_len, tr, trlen, &repairs);
  else if (f->tag_mode == XMT_TAGS_RAW)
    st = xmt_raw_decode(&run->pt.placer, run->pt.scratch, src, j->lead,
                        j->core_len, tr, trlen, &repairs);
  if (st == XMT_OK) {
    if (repairs > 0)
      w->stats.repaired_segments++;
    return st;
  }
  if (st != XMT_ERR_INLINE)
    return st;
  /* Project the plain answer; an unchanged one keeps the source. */
  if (res->unchanged) {
    *target = src;
    return XMT_OK;
  }
  return project_job(run, w, j);
}

/* Frees a window's units and empties it for the reader. */
static void window_reset(struct window *w) {
  for (size_t i = 0; i < w->nitems; i++) {
    xmt_xliff_unit_free(w->items[i].unit);
    free(w->items[i].key);
  }
  w->nitems = 0;
  w->queued_segments = 0;
  xmt_buf_reset(&w->skeleton);
}

/* Extract: the requests of the window, one line each. */
static int extract_window(struct run *run, struct window *w) {
  struct xmt_buf line = {0}, id = {0};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (j->result == NO_RESULT)
      continue;
    const struct result *res = &w->results[j->result];
    xmt_buf_reset(&id);
    if (job_id(w, j, &id) != XMT_OK ||
        xmt_offline_write(&line, run->extract_format, id.data,
                          w->arena.data + res->request,
                          res->request_len) != XMT_OK)
      rc = run_nomem(run);
    else if (xmt_output_write(run->extract, line.data, line.len) != 0)
      rc = run_fail(run, XMT_ERR_WRITE, 0, NULL, "cannot write the segments");
    else
      run->filter->stats.segments++;
  }
  xmt_buf_free(&line);
  xmt_buf_free(&id);
  window_reset(w);
  return rc;
}

static int ask_engine(struct run *run, struct window *w, int probes);

/* The main thread's part of a window: its segments, their requests, and
 * the answers of the memo, the cache and the engine (probes aside). */
static int translate_window(struct run *run) {
  xmt_filter *f = run->filter;
  struct window *w = run->fill;
  int rc = run->failed;
  w->njobs = 0;
  w->nresults = 0;
  w->nprobes = 0;
  xmt_buf_reset(&w->arena);
  if (run->index != NULL)
    memset(run->index, 0xFF, run->index_cap * sizeof *run->index);
  for (size_t i = 0; rc == 0 && i < w->nitems; i++) {
    xmt_xliff_unit *u = w->items[i].unit;
    if (!wants_translation(f, u))
      continue;
    if (f->segmenter != NULL) {
      xmt_status st = xmt_segmenter_segment_unit(f->segmenter, u, f->resegment);
      if (st != XMT_OK) {
        const struct xmt_error *e = xmt_segmenter_error(f->segmenter);
        rc = run_fail(run, st, xmt_xliff_unit_line(u), xmt_xliff_unit_id(u),
                      e->message != NULL ? e->message : xmt_strerror(st));
        break;
      }
    }
    for (size_t s = 0; rc == 0 && s < xmt_xliff_unit_segment_count(u); s++)
      if (xmt_xliff_unit_segment_wanted(u, s, run->options.overwrite) &&
          add_job(run, i, s) != XMT_OK)
        rc = run_nomem(run);
  }
  if (rc != 0 || run->extract != NULL)
    return rc;
  if (look_up_answers(run) != XMT_OK)
    rc = run_nomem(run);
  return rc != 0 ? rc : ask_engine(run, w, 0);
}

/* Sends the window's segments (probes 0) or its probes (1) to the
 * engine, and keeps the answers. */
static int ask_engine(struct run *run, struct window *w, int probes) {
  run->asking = w;
  run->asking_probes = probes;
  int rc = translate_results(run);
  if (rc == 0)
    rc = collect_answers(run);
  if (rc == 0 && run->cache != NULL &&
      xmt_cache_commit(run->cache, &run->cache_err) != XMT_OK)
    cache_trouble(run);
  return rc;
}

/* Whether the window has results only probes asked for. */
static int probes_to_ask(const struct window *w) {
  for (size_t r = 0; r < w->nresults; r++)
    if (w->results[r].probe)
      return 1;
  return 0;
}

static void set_probes_answered(struct run *run, struct window *w, int failed) {
  pthread_mutex_lock(&run->probes_lock);
  w->probes_answered = 1;
  w->probes_failed = failed;
  pthread_cond_broadcast(&run->probes_cond);
  pthread_mutex_unlock(&run->probes_lock);
}

/* The placing stage of a window, on the worker thread: word alignments,
 * tags placed in the answers, and the window written out. It touches
 * only the window, the aligner, the writer and run->pt. */
static void place_window(struct run *run, struct window *w) {
  int rc = 0;
  for (size_t k = 0; k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (j->result != NO_RESULT && w->responses[j->result].error == NULL &&
        w->responses[j->result].has_text && needs_projection(run, w, j))
      w->results[j->result].needs_links = 1;
  }
  rc = align_results(run, w);
  pthread_mutex_lock(&run->probes_lock);
  while (!w->probes_answered)
    pthread_cond_wait(&run->probes_cond, &run->probes_lock);
  if (w->probes_failed) /* the run failed: its error is the main thread's */
    rc = 1;
  pthread_mutex_unlock(&run->probes_lock);
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (xmt_filter_interrupted(run->filter)) {
      rc = place_fail(run, w, XMT_ERR_ABORTED, 0, NULL, "interrupted");
      break;
    }
    if (j->result != NO_RESULT) {
      const struct xmt_mt_response *resp = &w->responses[j->result];
      if (resp->error != NULL || !resp->has_text) {
        rc = job_failed(run, w, j,
                        resp->error != NULL
                            ? resp->error
                            : "the MT backend returned no translation");
        continue;
      }
    }
    const xmt_segment *target;
    xmt_status st = place_job(run, w, j, &target);
    if (st == XMT_OK)
      st = xmt_xliff_unit_set_target(w->items[j->item].unit, j->seg, target);
    if (st != XMT_OK) {
      struct xmt_buf id = {0};
      rc = place_fail(run, w, st, xmt_xliff_unit_line(w->items[j->item].unit),
                      job_id(w, j, &id) == XMT_OK ? id.data : NULL,
                      "cannot place the inline codes in the translation");
      xmt_buf_free(&id);
    }
  }
  /* Failed segments of a unit whose other segments were translated keep
   * their source text, and the target says it needs translation. In
   * SDLXLIFF each segment says whether it is translated: a failed one
   * stays empty and unmarked. */
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    xmt_xliff_unit *u = w->items[j->item].unit;
    size_t failed = w->items[j->item].failed;
    if (failed == 0 || failed == xmt_xliff_unit_segment_count(u) ||
        u->nsdlsegs > 0 || j->result == NO_RESULT ||
        (w->responses[j->result].error == NULL &&
         w->responses[j->result].has_text))
      continue;
    if (xmt_xliff_unit_set_target(u, j->seg, job_source(w, j)) != XMT_OK)
      rc = place_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  }
  for (size_t r = 0; r < w->nresults; r++) {
    xmt_alignment_free(w->results[r].links);
    w->results[r].links = NULL;
  }
  for (size_t i = 0; rc == 0 && i < w->nitems; i++) {
    struct item *it = &w->items[i];
    xmt_status st;
    if (it->unit != NULL) {
      struct xmt_xliff_target_options options = run->options;
      if (it->failed) {
        options.state = "needs-translation";
        options.state_qualifier = NULL;
        options.approved = 0;
      }
      if (xmt_xliff_unit_wants_target(it->unit, &options))
        w->stats.translated_units++;
      else
        w->stats.skipped_units++;
      st = xmt_xliff_writer_unit(run->writer, it->unit, &options);
    } else {
      st = xmt_xliff_writer_skeleton(run->writer, w->skeleton.data + it->bytes,
                                     it->len);
    }
    if (st == XMT_ERR_NOMEM)
      rc = place_fail(run, w, st, 0, NULL, NULL);
    else if (st != XMT_OK)
      rc =
          place_fail(run, w, XMT_ERR_WRITE, 0, NULL, "cannot write the output");
  }
}

static void *place_thread(void *arg) {
  struct run *run = arg;
  place_window(run, run->placing);
  return NULL;
}

/* Takes back the window the worker placed: its counts and failures
 * become the run's, the segments it could not translate are told. */
static int finish_placing(struct run *run) {
  struct window *w = run->placing;
  if (w == NULL)
    return run->failed;
  if (run->worker_started)
    pthread_join(run->worker, NULL);
  run->placing = NULL;
  run->worker_started = 0;
  /* Freed by the thread that allocated them: glibc's free of another
   * thread's chunks takes that thread's arena lock, and the two threads
   * then wait on each other. */
  window_reset(w);
  struct xmt_filter_stats *s = &run->filter->stats;
  s->translated_units += w->stats.translated_units;
  s->skipped_units += w->stats.skipped_units;
  s->failed_segments += w->stats.failed_segments;
  s->projected_segments += w->stats.projected_segments;
  s->repaired_segments += w->stats.repaired_segments;
  s->probe_anchored_tags += w->stats.probe_anchored_tags;
  s->cached_alignments += w->stats.cached_alignments;
  memset(&w->stats, 0, sizeof w->stats);
  if (!w->failed)
    memo_store(run, w);
  xmt_filter *f = run->filter;
  for (size_t k = 0; k < w->nnotes; k++)
    f->on_failure(f->callback_user, w->notes.data + w->notes_at[k].id,
                  w->notes_at[k].line, w->notes.data + w->notes_at[k].message);
  w->nnotes = 0;
  xmt_buf_reset(&w->notes);
  if (w->failed) {
    /* Earlier in the document than whatever the main thread met since. */
    xmt_error_copy(&f->err, &w->err.pub);
    xmt_error_clear(&w->err);
    w->failed = 0;
    run->failed = 1;
  }
  return run->failed;
}

/* Whether placing w may train or run the aligner: a job with inline codes
 * whose answer is not its text. Otherwise placing is copying, which the
 * main thread does sooner than another core could take the window's
 * bytes over (on two cores that share no cache, the 100 MB identity
 * pass took 1.23 s with a worker and 0.92 s without). */
static int aligner_work(const struct run *run, const struct window *w) {
  if (run->filter->aligner_mode == XMT_ALIGNER_NONE)
    return 0;
  for (size_t k = 0; k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (j->result != NO_RESULT && !w->results[j->result].unchanged &&
        xmt_segment_tag_count(job_source(w, j)) > 0)
      return 1;
  }
  return 0;
}

/* Translates the window the reader filled and hands it to the worker,
 * once the worker is done with the one before; the reader goes on with
 * the other window. */
static int drain(struct run *run) {
  struct window *w = run->fill;
  if (run->extract != NULL) {
    int rc = translate_window(run);
    return rc != 0 ? rc : extract_window(run, w);
  }
  int rc = translate_window(run);
  if (finish_placing(run) != 0 || rc != 0)
    return 1;
  if (w->nitems == 0)
    return 0;
  /* The worker aligns the window while the engine answers its probes,
   * which only placing needs. */
  memo_look_up(run, w);
  int ask = probes_to_ask(w);
  w->probes_answered = !ask;
  w->probes_failed = 0;
  run->placing = w;
  run->windows_handed++;
  run->fill = w == &run->windows[0] ? &run->windows[1] : &run->windows[0];
  run->worker_started =
      (ask || aligner_work(run, w)) &&
      pthread_create(&run->worker, NULL, place_thread, run) == 0;
  if (ask)
    rc = ask_engine(run, w, 1);
  set_probes_answered(run, w, rc != 0);
  if (!run->worker_started) /* no thread: placed here, as well */
    place_window(run, w);
  return rc;
}

/* A writer's failure: out of memory, or the output's (its reason is added
 * at the end of the run). */
static int write_failed(struct run *run, xmt_status st) {
  return st == XMT_ERR_NOMEM
             ? run_nomem(run)
             : run_fail(run, XMT_ERR_WRITE, 0, NULL, "cannot write the output");
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  struct window *w = run->fill;
  if (run->extract != NULL)
    return 0;
  /* Straight to the writer, unless units wait before them here or in
   * the worker's hands. */
  if (w->nitems == 0 && run->placing == NULL) {
    xmt_xliff_writer_set_encoding(run->writer,
                                  xmt_xliff_reader_encoding(run->reader));
    xmt_status st = xmt_xliff_writer_skeleton(run->writer, bytes, len);
    return st != XMT_OK ? write_failed(run, st) : 0;
  }
  struct item *it = push_item(run);
  if (it == NULL)
    return run_nomem(run);
  it->bytes = w->skeleton.len;
  it->len = len;
  if (xmt_buf_append(&w->skeleton, bytes, len) != XMT_OK)
    return run_nomem(run);
  return 0;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct run *run = user;
  xmt_filter *f = run->filter;
  run->files++;
  /* The worker writes with this file's languages and options: it is done
   * before they change. */
  if (drain(run) != 0 || finish_placing(run) != 0)
    return 1;
  char msg[256];
  if (f->source_language != NULL && info->source_language != NULL &&
      strcasecmp(f->source_language, info->source_language) != 0) {
    snprintf(msg, sizeof msg,
             "<file> has source-language=\"%.64s\" but the run is from '%.64s'",
             info->source_language, f->source_language);
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL, msg);
  }
  if (f->target_language != NULL && info->target_language != NULL &&
      strcasecmp(f->target_language, info->target_language) != 0) {
    snprintf(msg, sizeof msg,
             "<file> has target-language=\"%.64s\" but the run is into '%.64s'",
             info->target_language, f->target_language);
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL, msg);
  }
  const char *target =
      f->target_language != NULL ? f->target_language : info->target_language;
  if (target == NULL && run->extract != NULL)
    target = "und"; /* extract writes no target */
  if (target == NULL)
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL,
                    "<file> has no target-language: give one with -t");
  /* Copies: the reader's strings change before the last window drains. */
  free(run->source_language);
  free(run->target_language);
  run->source_language = xmt_strdup(
      f->source_language != NULL ? f->source_language : info->source_language);
  run->target_language = xmt_strdup(target);
  run->options.target_language = run->target_language;
  if (run->target_language == NULL)
    return run_nomem(run);
  if (f->segmenter != NULL && run->source_language != NULL &&
      xmt_segmenter_set_language(f->segmenter, run->source_language) !=
          XMT_OK) {
    const struct xmt_error *e = xmt_segmenter_error(f->segmenter);
    return run_fail(run, e->status != XMT_OK ? e->status : XMT_ERR_USAGE,
                    info->line, NULL,
                    e->message != NULL ? e->message : "segmentation rules");
  }
  xmt_status st = run->extract == NULL
                      ? xmt_xliff_writer_file_tag(run->writer, tag, len, target)
                      : XMT_OK;
  return st != XMT_OK ? write_failed(run, st) : 0;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  struct window *w = run->fill;
  if (xmt_filter_interrupted(run->filter)) {
    xmt_xliff_unit_free(unit);
    return run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  }
  struct item *it = push_item(run);
  if (it == NULL) {
    xmt_xliff_unit_free(unit);
    return run_nomem(run);
  }
  it->unit = unit;
  /* Keys are given to every unit, translated or not, so that a run
   * with other options names the same segment the same way. */
  const char *id = xmt_xliff_unit_id(unit) ? xmt_xliff_unit_id(unit) : "?";
  const char *key;
  if (xmt_unit_keys_take(&run->unit_keys, id, run->files, &key) != XMT_OK ||
      ((xmt_xliff_unit_id(unit) == NULL || strcmp(key, id) != 0) &&
       (it->key = xmt_strdup(key)) == NULL))
    return run_nomem(run);
  run->filter->stats.units++;
  w->queued_segments += xmt_xliff_unit_segment_count(unit);
  if (run->options.target_language == NULL)
    return run_fail(run, XMT_ERR_NOT_XLIFF, xmt_xliff_unit_line(unit),
                    xmt_xliff_unit_id(unit), "<trans-unit> outside <file>");
  size_t window = run->filter->window ? run->filter->window : DEFAULT_WINDOW;
  return w->queued_segments >= window ? drain(run) : 0;
}

/* Opens the filter's cache for a run; the engine part of its keys is the
 * backend, its spec and its options, which decide its answers. */
static xmt_status open_cache(struct run *run) {
  xmt_filter *f = run->filter;
  struct xmt_buf *e = &run->cache_engine;
  xmt_status st = xmt_buf_append_str(e, f->backend->name);
  if (st == XMT_OK && f->backend_spec != NULL) {
    st = xmt_buf_append_byte(e, ':');
    if (st == XMT_OK)
      st = xmt_buf_append_str(e, f->backend_spec);
  }
  for (size_t i = 0; st == XMT_OK && i < f->nbackend_options; i++) {
    st = xmt_buf_append_byte(e, '\n');
    if (st == XMT_OK)
      st = xmt_buf_append_str(e, f->backend_options[i]);
  }
  if (st != XMT_OK)
    return xmt_error_set(&f->err, st, NULL, 0, 0, NULL, "%s", xmt_strerror(st));
  if (f->cache != NULL) { /* an earlier run's */
    run->cache = f->cache;
    return XMT_OK;
  }
  char warning[1400];
  st = xmt_cache_open(&run->cache, f->cache_uri, f->cache_max, &f->interrupted,
                      &f->err, warning, sizeof warning);
  if (st == XMT_OK && warning[0] != '\0' && f->on_warning != NULL)
    f->on_warning(f->callback_user, NULL, 0, warning);
  f->cache = run->cache;
  return st;
}

static void window_free(struct window *w) {
  window_reset(w);
  xmt_buf_free(&w->memo);
  free(w->items);
  xmt_buf_free(&w->skeleton);
  for (size_t i = 0; i < w->results_cap; i++)
    xmt_mt_response_free(&w->responses[i]);
  for (size_t i = 0; i < w->nresults; i++)
    xmt_alignment_free(w->results[i].links);
  free(w->results);
  free(w->responses);
  free(w->jobs);
  free(w->probes);
  free(w->probe_results);
  xmt_buf_free(&w->arena);
  xmt_buf_free(&w->plain);
  xmt_buf_free(&w->probe_plain);
  xmt_error_clear(&w->err);
  free(w->notes_at);
  xmt_buf_free(&w->notes);
}

static xmt_status tools_init(struct stage_tools *t) {
  t->scratch = xmt_segment_new();
  t->stok = xmt_tokens_new();
  t->ttok = xmt_tokens_new();
  if (t->scratch == NULL || t->stok == NULL || t->ttok == NULL)
    return XMT_ERR_NOMEM;
  return xmt_placer_init(&t->placer);
}

static void tools_free(struct stage_tools *t) {
  xmt_placer_free(&t->placer);
  xmt_tokens_free(t->stok);
  xmt_tokens_free(t->ttok);
  xmt_segment_free(t->scratch);
}

static void run_free(struct run *run) {
  xmt_buf_free(&run->cache_engine);
  xmt_error_clear(&run->cache_err);
  window_free(&run->windows[0]);
  window_free(&run->windows[1]);
  for (size_t k = 0; k < run->lanes_cap; k++) {
    free(run->lanes[k].requests);
    free(run->lanes[k].response_ptrs);
    xmt_buf_free(&run->lanes[k].ids);
  }
  free(run->lanes);
  free(run->pending);
  xmt_buf_free(&run->request);
  free(run->index);
  xmt_memo_free(&run->run_memo);
  xmt_unit_keys_free(&run->unit_keys);
  tools_free(&run->tt);
  tools_free(&run->pt);
  free(run->source_language);
  free(run->target_language);
  xmt_xliff_reader_free(run->reader);
  xmt_xliff_writer_free(run->writer);
  xmt_aligner_free(run->aligner);
}

/* XMT_FILTER_UPDATE_MODEL: the grown model back to its file. */
static xmt_status save_model(struct run *run) {
  xmt_filter *f = run->filter;
  if ((f->flags & XMT_FILTER_UPDATE_MODEL) == 0 || run->aligner == NULL ||
      run->aligner_pairs == 0 || f->aligner_mode != XMT_ALIGNER_SELF)
    return XMT_OK;
  xmt_status st = xmt_aligner_save(run->aligner, f->align_model);
  if (st != XMT_OK)
    xmt_error_copy(&f->err, xmt_aligner_error(run->aligner));
  return st;
}

/* A bad aligner model is reported before any MT call. */
static xmt_status check_align_model(xmt_filter *f) {
  if ((f->flags & XMT_FILTER_UPDATE_MODEL) != 0 && f->align_model == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "updating the aligner model needs a model file");
  if (!model_to_load(f) || f->aligner_mode == XMT_ALIGNER_NONE)
    return XMT_OK;
  xmt_aligner *a = xmt_aligner_new(NULL);
  if (a == NULL)
    return xmt_error_set(&f->err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                         xmt_strerror(XMT_ERR_NOMEM));
  xmt_status st = xmt_aligner_load(a, f->align_model);
  if (st != XMT_OK) {
    const struct xmt_error *e = xmt_aligner_error(a);
    xmt_error_set(&f->err, st, f->align_model, e->line, 0, NULL,
                  "word aligner model: %s",
                  e->message != NULL ? e->message : xmt_strerror(st));
  }
  xmt_aligner_free(a);
  return st;
}

/* The states an earlier run kept become the run's first lanes. */
static void take_engines(xmt_filter *f, struct run *run) {
  for (size_t k = 0; k < f->nengines; k++)
    run->lanes[k].state = f->engines[k];
  run->nlanes = f->nengines;
  free(f->engines);
  f->engines = NULL;
  f->nengines = 0;
}

/* The run's states go back to the filter for the next run. Without
 * memory to hold them, they are closed: the next run opens its own. */
static void keep_engines(xmt_filter *f, struct run *run) {
  void **e = malloc((run->nlanes ? run->nlanes : 1) * sizeof *e);
  if (e == NULL)
    return;
  for (size_t k = 0; k < run->nlanes; k++)
    e[k] = run->lanes[k].state;
  f->engines = e;
  f->nengines = run->nlanes;
  run->nlanes = 0;
}

xmt_status xmt_pipeline_run(xmt_filter *f, const char *in_path,
                            const char *out_path, int extract_format,
                            int no_dedupe) {
  memset(&f->stats, 0, sizeof f->stats);
  __atomic_store_n(&f->interrupted, 0, __ATOMIC_RELAXED);
  if (in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "no input file");
  struct run run;
  memset(&run, 0, sizeof run);
  run.filter = f;
  run.in_path = in_path;
  run.options.state = f->state;
  run.options.state_qualifier = f->state_qualifier;
  run.options.overwrite = (f->flags & XMT_FILTER_OVERWRITE) != 0;
  run.options.alt_trans = (f->flags & XMT_FILTER_ALT_TRANS) != 0;
  run.options.approved = (f->flags & XMT_FILTER_APPROVED) != 0;
  run.options.seg_source = (f->flags & XMT_FILTER_SEG_SOURCE) != 0;
  run.no_dedupe = no_dedupe;
  /* Probes need the engine: not for the offline workflow; and not for
   * identity, whose answers keep every tag where it was. */
  run.probing = f->probes == XMT_PROBES_AUTO &&
                f->tag_mode == XMT_TAGS_PROJECT && extract_format < 0 &&
                !no_dedupe && f->backend != &xmt_backend_identity;
  xmt_status st = xmt_filter_prepare_segmenter(f);
  if (st == XMT_OK && extract_format < 0)
    st = check_align_model(f);
  if (st != XMT_OK)
    return st;
  /* A kept reference is a code no engine markup can carry. */
  if ((f->flags & XMT_FILTER_KEEP_ENTITIES) != 0 && f->tag_mode == XMT_TAGS_RAW)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "kept entity references need the project or mask "
                         "tag mode, not raw");
  struct xmt_output out;
  memset(&out, 0, sizeof out);
  FILE *in = xmt_input_open(in_path, &f->err);
  if (in == NULL)
    return f->err.pub.status;
  st = xmt_output_open(&out, out_path, &f->err);
  if (st != XMT_OK) {
    if (in != stdin)
      fclose(in);
    return st;
  }
  char errbuf[256] = "";
  /* In the filter, not here: kept states may hold on to it. */
  static const char *const no_options[] = {NULL};
  const struct xmt_backend_config config = {
      f->backend_spec,
      f->backend_options != NULL ? (const char *const *)f->backend_options
                                 : no_options,
      f->source_language,
      f->target_language,
      f->timeout_ms,
      f->max_answer != 0 ? f->max_answer : XMT_DEFAULT_MAX_ANSWER,
      &f->interrupted};
  f->engine_config = config;
  if ((f->flags & XMT_FILTER_KEEP_ENGINES) == 0)
    xmt_filter_close_engines(f);
  static const struct xmt_xliff_reader_callbacks callbacks = {on_skeleton,
                                                              on_file, on_unit};
  run.writer = xmt_xliff_writer_new(xmt_output_write, &out);
  run.reader = xmt_xliff_reader_new(&callbacks, &run);
  if (run.reader != NULL)
    xmt_xliff_reader_keep_entities(run.reader,
                                   (f->flags & XMT_FILTER_KEEP_ENTITIES) != 0);
  run.fill = &run.windows[0];
  if (extract_format >= 0) {
    run.extract = &out;
    run.extract_format = (enum xmt_segments_format)extract_format;
  }
  int opened = 0;
  run.config = &f->engine_config;
  run.lanes_cap = f->engine_jobs > 1 ? f->engine_jobs : 1;
  if (run.lanes_cap < f->nengines)
    run.lanes_cap = f->nengines;
  run.lanes = calloc(run.lanes_cap, sizeof *run.lanes);
  if (run.lanes == NULL)
    run.lanes_cap = 0;
  else if (extract_format < 0)
    take_engines(f, &run);
  pthread_mutex_init(&run.lanes_lock, NULL);
  pthread_mutex_init(&run.probes_lock, NULL);
  pthread_cond_init(&run.probes_cond, NULL);
  if (run.lanes == NULL || run.writer == NULL || run.reader == NULL ||
      tools_init(&run.tt) != XMT_OK || tools_init(&run.pt) != XMT_OK ||
      xmt_xliff_reader_set_filename(run.reader, in_path) != XMT_OK) {
    st = xmt_error_set(&f->err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                       xmt_strerror(XMT_ERR_NOMEM));
  } else if (run.extract == NULL && run.nlanes == 0 &&
             f->backend->open != NULL &&
             f->backend->open(f->backend_user, run.config, &run.lanes[0].state,
                              errbuf, sizeof errbuf) != 0) {
    /* "out of memory" is how a backend says it could not allocate. */
    st = xmt_error_set(&f->err,
                       strcmp(errbuf, "out of memory") == 0 ? XMT_ERR_NOMEM
                                                            : XMT_ERR_BACKEND,
                       NULL, 0, 0, NULL, "cannot start MT backend '%s': %s",
                       f->backend->name, errbuf[0] ? errbuf : "failed");
  } else {
    opened = run.extract == NULL;
    if (run.nlanes == 0)
      run.nlanes = opened;
    struct xmt_error_store read_err = {0};
    if (opened && f->cache_uri != NULL)
      st = open_cache(&run); /* its error is the filter's */
    if (st == XMT_OK) {
      st = xmt_read_all(run.reader, in, in_path, &read_err, &f->stats.bytes_in);
      run.reading_done = 1;
      if (st == XMT_OK && drain(&run) != 0)
        st = XMT_ERR_ABORTED;
      finish_placing(&run);
      if (run.failed)
        st = f->err.pub.status;
      else if (read_err.pub.status != XMT_OK)
        st = xmt_error_copy(&f->err, &read_err.pub);
      else if (st != XMT_OK)
        st = xmt_error_copy(&f->err, xmt_xliff_reader_error(run.reader));
    }
    xmt_error_clear(&read_err);
    if (st == XMT_OK && run.extract == NULL &&
        (st = xmt_xliff_writer_flush(run.writer)) != XMT_OK)
      st = xmt_error_set(&f->err, st, out_path, 0, 0, NULL, "%s",
                         st == XMT_ERR_NOMEM ? xmt_strerror(st)
                                             : "cannot write the output");
  }
  if (st == XMT_OK && (f->flags & XMT_FILTER_KEEP_ENGINES) != 0)
    keep_engines(f, &run);
  for (size_t k = 0; k < run.nlanes && f->backend->close != NULL; k++)
    f->backend->close(run.lanes[k].state);
  pthread_mutex_destroy(&run.lanes_lock);
  pthread_mutex_destroy(&run.probes_lock);
  pthread_cond_destroy(&run.probes_cond);
  if (in != stdin)
    fclose(in);
  if (st == XMT_ERR_WRITE)
    st = xmt_output_reason(&out, st, out_path, &f->err);
  if (st == XMT_OK)
    st = xmt_output_commit(&out, &f->err);
  else
    xmt_output_abort(&out);
  /* the model grows only by documents delivered */
  if (st == XMT_OK && run.extract == NULL)
    st = save_model(&run);
  /* The filter keeps the cache for the next run, unless this one failed:
   * the answers it did not commit go, as on closing. */
  if (st != XMT_OK && run.cache != NULL) {
    xmt_cache_close(run.cache);
    f->cache = NULL;
  }
  run_free(&run);
  if (st == XMT_OK && f->stats.failed_segments > 0)
    st = xmt_error_set(&f->err, XMT_ERR_PARTIAL, in_path, 0, 0, NULL,
                       "%zu segment%s not translated%s%s",
                       f->stats.failed_segments,
                       f->stats.failed_segments == 1 ? "" : "s",
                       run.engine_stopped ? ": " : "", run.engine_stop);
  return st;
}
