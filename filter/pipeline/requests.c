/* requests.c -- a window's jobs (its segments that want a translation)
 * and their MT requests, by tag mode; identical requests of a window share
 * one result through an open-addressing index over the window's arena. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline_private.h"

/* 1 when the unit asks for a translation: translatable, not translated
 * yet (or overwriting), and with some source content. */
static int wants_translation(const struct run *run, const xmt_xliff_unit *u) {
  if (u == NULL || !xmt_xliff_unit_translatable(u) ||
      (xmt_xliff_unit_has_target(u) && !xmt_run_options(run)->overwrite))
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

static xmt_status grow_jobs(struct run *run) {
  struct window *w = xmt_run_fill(run);
  struct job *jobs =
      xmt_grow_array(w->jobs, &w->jobs_cap, w->njobs + 1, sizeof *jobs);
  if (jobs == NULL)
    return XMT_ERR_NOMEM;
  w->jobs = jobs;
  return XMT_OK;
}

static xmt_status grow_results(struct run *run) {
  struct window *w = xmt_run_fill(run);
  size_t n = w->nresults + 1;
  struct result *res =
      xmt_grow_array(w->results, &w->results_cap, n, sizeof *res);
  if (res == NULL)
    return XMT_ERR_NOMEM;
  w->results = res;
  size_t had = w->responses_cap;
  struct xmt_mt_response *resp =
      xmt_grow_array(w->responses, &w->responses_cap, n, sizeof *resp);
  if (resp == NULL)
    return XMT_ERR_NOMEM;
  /* window_free frees every response up to the capacity */
  memset(resp + had, 0, (w->responses_cap - had) * sizeof *resp);
  w->responses = resp;
  return XMT_OK;
}

/* Projection: the core with a space for each code that stands for a word
 * break (see xmt_break_segment), into the run's request (struct asks). */
static xmt_status spaced_request(struct run *run, const xmt_segment *src,
                                 size_t lead, size_t core_len) {
  return xmt_break_text(xmt_tools_placer(xmt_run_tools(run)), src, lead,
                        core_len, &xmt_run_asks(run)->request);
}

/* The MT input of a job's core, by tag mode, into the run's request. In
 * projection it is also the plain text the answer is aligned with. */
static xmt_status build_request(struct run *run, const xmt_segment *src,
                                size_t lead, size_t core_len) {
  const char *text = xmt_segment_text(src, NULL);
  struct xmt_buf *request = &xmt_run_asks(run)->request;
  switch (xmt_run_tag_mode(run)) {
  case XMT_TAGS_MASK:
    if (xmt_segment_tag_count(src) > 0)
      return xmt_mask_encode(src, lead, core_len, request);
    break;
  case XMT_TAGS_RAW:
    return xmt_raw_encode(xmt_tools_placer(xmt_run_tools(run)), src, lead,
                          core_len, request);
  case XMT_TAGS_PROJECT:
    if (xmt_segment_tag_count(src) > 0)
      return spaced_request(run, src, lead, core_len);
    break;
  }
  xmt_buf_reset(request);
  return xmt_buf_append(request, text + lead, core_len);
}

/* A request looked up in the window's index. */
struct asked {
  const struct window *w;
  uint64_t hash;
  const char *req;
  size_t req_len;
};

static int same_request(const void *user, uint64_t r) {
  const struct asked *a = user;
  const struct result *res = &a->w->results[r];
  return res->request_hash == a->hash && res->request_len == a->req_len &&
         memcmp(a->w->arena.data + res->request, a->req, a->req_len) == 0;
}

/* The slot of the window's request req (hash: its xmt_memo_hash): the one
 * naming the result that asked it first, or the empty slot where it
 * goes. */
static uint64_t *index_slot(struct run *run, uint64_t hash, const char *req,
                            size_t req_len) {
  struct asked a = {xmt_run_fill(run), hash, req, req_len};
  return xmt_slots_find(&xmt_run_asks(run)->index, hash, same_request, &a);
}

/* Room in the index for one more result, at most 3/4 full. */
static xmt_status grow_index(struct run *run) {
  const struct window *w = xmt_run_fill(run);
  struct xmt_slots *index = &xmt_run_asks(run)->index;
  if ((w->nresults + 1) * 4 <= index->n * 3)
    return XMT_OK;
  if (w->nresults >= XMT_SLOT_VALUE_MAX)
    return XMT_ERR_NOMEM;
  xmt_status st = xmt_slots_resize(index, index->n ? 2 * index->n : 1024);
  for (size_t r = 0; st == XMT_OK && r < w->nresults; r++)
    xmt_slots_put(index, w->results[r].request_hash, r);
  return st;
}

xmt_status xmt_requests_add(struct run *run, const char *req, size_t req_len,
                            const char *plain, size_t plain_len, int probe,
                            size_t *out) {
  struct xmt_filter_stats *stats = xmt_run_stats(run);
  struct window *w = xmt_run_fill(run);
  size_t r;
  uint64_t *slot = NULL;
  uint64_t hash = xmt_run_dedupes(run) ? xmt_memo_hash(req, req_len) : 0;
  if (xmt_run_dedupes(run)) {
    if (grow_index(run) != XMT_OK)
      return XMT_ERR_NOMEM;
    slot = index_slot(run, hash, req, req_len);
  }
  if (slot != NULL && *slot != 0) {
    r = (size_t)xmt_slots_value(*slot);
    struct result *res = &w->results[r];
    /* A segment asking what a probe asked first makes it its own (and is
     * counted as deduplicated when xmt_tm_look_up finds the answer). */
    if (!probe && !res->probe)
      stats->deduplicated_segments++;
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
    xmt_slots_set(slot, hash, r);
  res->asked_by_probe = probe;
  xmt_mt_response_reset(&w->responses[r]);
  w->nresults++;
  *out = r;
  return XMT_OK;
}

size_t xmt_job_result(const struct job *j) { return j->result; }

void xmt_job_core(const struct job *j, size_t *lead, size_t *core_len) {
  *lead = j->lead;
  *core_len = j->core_len;
}

size_t xmt_window_nresults(const struct window *w) { return w->nresults; }

struct result *xmt_window_result(const struct window *w, size_t r) {
  return &w->results[r];
}

size_t xmt_window_result_index(const struct window *w, const struct result *r) {
  return (size_t)(r - w->results);
}

struct xmt_mt_response *xmt_window_response(const struct window *w, size_t r) {
  return &w->responses[r];
}

size_t xmt_window_njobs(const struct window *w) { return w->njobs; }

const struct job *xmt_window_job(const struct window *w, size_t k) {
  return &w->jobs[k];
}

struct xmt_buf *xmt_window_answers(struct window *w, int probe) {
  return probe ? &w->probe_plain : &w->plain;
}

const char *xmt_window_answer_at(const struct window *w, int probe, size_t at) {
  return (probe ? w->probe_plain.data : w->plain.data) + at;
}

xmt_status xmt_window_grow_probes(struct window *w, size_t n) {
  struct xmt_probe *pr =
      xmt_grow_array(w->probes, &w->probes_cap, w->nprobes + n, sizeof *pr);
  if (pr == NULL)
    return XMT_ERR_NOMEM;
  w->probes = pr;
  size_t *res = xmt_grow_array(w->probe_results, &w->probe_results_cap,
                               w->nprobes + n, sizeof *res);
  if (res == NULL)
    return XMT_ERR_NOMEM;
  w->probe_results = res;
  return XMT_OK;
}

size_t xmt_window_nprobes(const struct window *w) { return w->nprobes; }

size_t *xmt_window_add_probe(struct window *w, const struct xmt_probe *q) {
  w->probes[w->nprobes] = *q;
  return &w->probe_results[w->nprobes++];
}

struct xmt_probe *xmt_window_probes(const struct window *w, size_t first) {
  return w->probes + first;
}

size_t xmt_window_probe_result(const struct window *w, size_t k) {
  return w->probe_results[k];
}

const char *xmt_result_request(const struct window *w, const struct result *r,
                               size_t *len) {
  *len = r->request_len;
  return w->arena.data + r->request;
}

const char *xmt_result_plain(const struct window *w, const struct result *r,
                             size_t *len) {
  *len = r->plain_len;
  return w->arena.data + r->plain;
}

uint64_t xmt_result_hash(const struct result *r) { return r->request_hash; }

int xmt_result_probe(const struct result *r) { return r->probe; }

int xmt_result_probe_key(const struct result *r) { return r->asked_by_probe; }

int xmt_result_claimed(const struct result *r) { return r->claimed; }

const struct job *xmt_result_job(const struct window *w,
                                 const struct result *r) {
  return &w->jobs[r->first_job];
}

int xmt_result_cached(const struct result *r) { return r->cached; }

void xmt_result_set_cached(struct result *r) { r->cached = 1; }

/* Adds a job for segment seg of item, with its result and its probes. */
static xmt_status add_job(struct run *run, size_t item, size_t seg) {
  struct window *w = xmt_run_fill(run);
  struct xmt_filter_stats *stats = xmt_run_stats(run);
  const xmt_segment *src = xmt_unit_mt_source(xmt_window_unit(w, item), seg);
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
  j->standin = NO_RESULT;
  if (!xmt_needs_mt(text + j->lead, j->core_len)) {
    stats->copied_segments++;
    return XMT_OK;
  }
  stats->source_characters += xmt_utf8_count(text + j->lead, j->core_len);
  xmt_status st = build_request(run, src, j->lead, j->core_len);
  if (st != XMT_OK)
    return st;
  struct xmt_buf *request = &xmt_run_asks(run)->request;
  const char *req = request->len > 0 ? request->data : "";
  size_t req_len = request->len;
  /* In projection the request is the text aligned with the answer. */
  int project = xmt_run_tag_mode(run) == XMT_TAGS_PROJECT;
  st = xmt_requests_add(run, req, req_len, project ? req : text + j->lead,
                        project ? req_len : j->core_len, 0, &j->result);
  int probing = xmt_run_probing(run);
  if (st == XMT_OK && probing && xmt_segment_tag_count(src) > 0)
    st = xmt_probes_add(run, src, j->lead, j->core_len, &j->first_probe,
                        &j->nprobes);
  /* A short message's placeholders as numbers, for an engine that places
   * codes itself: a probe too (place_standin.c). */
  if (st == XMT_OK && probing && xmt_engines_markup(run) &&
      xmt_standin_request(src, j->lead, j->core_len, request, &st))
    st = xmt_requests_add(run, request->data, request->len, request->data,
                          request->len, 1, &j->standin);
  return st;
}

/* Without sentences the segmenter only cuts ICU messages, each of which
 * begins with '{': a source without one it would leave as it is. */
static int wants_segmenter(const xmt_xliff_unit *u, int icu_only) {
  if (!icu_only || u->whole_source == NULL)
    return 1;
  size_t len;
  const char *text = xmt_segment_text(u->whole_source, &len);
  return len > 0 && memchr(text, '{', len) != NULL;
}

int xmt_window_translate(struct run *run) {
  int resegment, icu_only;
  xmt_segmenter *segmenter = xmt_run_segmenter(run, &resegment, &icu_only);
  struct window *w = xmt_run_fill(run);
  int rc = xmt_run_failed(run);
  w->njobs = 0;
  w->nresults = 0;
  w->nprobes = 0;
  xmt_buf_reset(&w->arena);
  xmt_slots_clear(&xmt_run_asks(run)->index);
  for (size_t i = 0; rc == 0 && i < w->nitems; i++) {
    xmt_xliff_unit *u = xmt_window_unit(w, i);
    if (!wants_translation(run, u))
      continue;
    if (segmenter != NULL && wants_segmenter(u, icu_only)) {
      xmt_status st = xmt_segmenter_segment_unit(segmenter, u, resegment);
      if (st != XMT_OK) {
        const struct xmt_error *e = xmt_segmenter_error(segmenter);
        rc = xmt_run_fail(run, st, xmt_xliff_unit_line(u), xmt_xliff_unit_id(u),
                          e->message != NULL ? e->message : xmt_strerror(st));
        break;
      }
    }
    /* Line breaks where white space is not significant reach MT as spaces. */
    if (xmt_unit_flow(u) != XMT_OK) {
      rc = xmt_run_nomem(run);
      break;
    }
    for (size_t s = 0; rc == 0 && s < xmt_xliff_unit_segment_count(u); s++)
      if (xmt_xliff_unit_segment_wanted(u, s,
                                        xmt_run_options(run)->overwrite) &&
          add_job(run, i, s) != XMT_OK)
        rc = xmt_run_nomem(run);
    /* Its sub-flows after its segments (unit_sub.c). */
    size_t nsegs = xmt_xliff_unit_segment_count(u);
    for (size_t k = 0; rc == 0 && k < xmt_unit_sub_count(u); k++)
      if (add_job(run, i, nsegs + k) != XMT_OK)
        rc = xmt_run_nomem(run);
  }
  if (rc == 0 && xmt_run_marks_segments(run) &&
      xmt_segments_mark_window(run, w) != XMT_OK)
    rc = xmt_run_nomem(run);
  if (rc != 0 || xmt_run_extract(run) != NULL)
    return rc;
  if (xmt_tm_look_up(run) != XMT_OK)
    rc = xmt_run_nomem(run);
  return rc != 0 ? rc : xmt_lanes_ask(run, w, 0);
}

void xmt_requests_free(struct run *run) {
  struct asks *a = xmt_run_asks(run);
  xmt_buf_free(&a->request);
  xmt_slots_free(&a->index);
}
