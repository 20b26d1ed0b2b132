/* tm.c -- translation memory: answers a window need not ask the engine
 * (the run's table of earlier windows' translations, then the cache), and
 * the engine's answers remembered in both. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pipeline_private.h"

/* The key of a request in the translation memory cache. */
void xmt_tm_key(struct run *run, int probe, struct xmt_cache_key *key) {
  const char *source = xmt_run_source_language(run);
  const char *target = xmt_run_target_language(run);
  key->engine = xmt_run_tm(run)->cache_engine.data;
  key->source_language = source != NULL ? source : "";
  key->target_language = target != NULL ? target : "";
  key->markup = xmt_run_tag_mode(run) == XMT_TAGS_RAW && !probe;
}

/* A cache that fails is reported once and no longer used: the
 * translation goes on without it. A wait the run's interruption ended is
 * no failure of the cache's. */
void xmt_tm_trouble(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  if (xmt_run_warns(run) && !xmt_filter_interrupted(xmt_run_filter(run))) {
    char msg[800];
    snprintf(msg, sizeof msg,
             "the cache %.300s failed: %.400s; going on without it",
             xmt_cache_name(tm->cache), xmt_cache_error(tm->cache));
    xmt_run_warn(run, NULL, 0, msg);
  }
  xmt_cache_close(tm->cache);
  tm->cache = NULL;
  *tm->settings.kept = NULL;
}

/* The answers the window need not ask the engine: translations of
 * earlier windows, then the cache. After the window's requests are all
 * known, so that the table's slots can be fetched a few results ahead:
 * it outgrows the cache, and a lookup waited for memory. */
xmt_status xmt_tm_look_up(struct run *run) {
  struct window *w = xmt_run_fill(run);
  struct xmt_filter_stats *stats = xmt_run_stats(run);
  struct tm_state *tm = xmt_run_tm(run);
  if (!xmt_run_dedupes(run))
    return XMT_OK;
  size_t nresults = xmt_window_nresults(w);
  for (size_t r = 0; r < nresults; r++) {
    if (r + 8 < nresults)
      xmt_memo_prefetch(&tm->run_memo,
                        xmt_result_hash(xmt_window_result(w, r + 8)));
    struct result *res = xmt_window_result(w, r);
    size_t req_len, cached_len;
    const char *req = xmt_result_request(w, res, &req_len), *cached;
    if (xmt_memo_get_hashed(&tm->run_memo, xmt_result_hash(res), req, req_len,
                            &cached, &cached_len, NULL)) {
      xmt_result_set_cached(res);
      if (!xmt_result_probe(res))
        stats->deduplicated_segments++;
      xmt_status st = xmt_mt_response_set_text(xmt_window_response(w, r),
                                               cached, cached_len);
      if (st != XMT_OK)
        return st;
    } else if (tm->cache != NULL) {
      struct xmt_cache_key key;
      xmt_tm_key(run, xmt_result_probe_key(res), &key);
      int hit = xmt_cache_get(tm->cache, &key, req, req_len,
                              xmt_window_response(w, r));
      if (hit == -2)
        return XMT_ERR_NOMEM;
      if (hit < 0)
        xmt_tm_trouble(run);
      if (hit == 1) {
        xmt_result_set_cached(res);
        stats->cache_hits++;
        if (xmt_result_claimed(res))
          stats->deduplicated_segments++;
      }
    }
  }
  return XMT_OK;
}

/* Opens the filter's cache for a run; the engine part of its keys is the
 * backend, its spec and its options, which decide its answers. */
xmt_status xmt_tm_open(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  const struct tm_settings *s = &tm->settings;
  struct xmt_buf *e = &tm->cache_engine;
  xmt_status st = xmt_engines_describe(run, e);
  for (size_t i = 0; st == XMT_OK && i < s->noptions; i++) {
    st = xmt_buf_append_byte(e, '\n');
    if (st == XMT_OK)
      st = xmt_buf_append_str(e, s->options[i]);
  }
  if (st == XMT_ERR_IO) /* getcwd: the folder was removed */
    return xmt_error_set(s->err, st,
                         "cache: the working directory, which keys the "
                         "answers of a relative engine command: %s",
                         strerror(errno));
  if (st != XMT_OK)
    return xmt_error_set(s->err, st, "%s", xmt_strerror(st));
  if (*s->kept != NULL) { /* an earlier run's */
    tm->cache = *s->kept;
    return XMT_OK;
  }
  char warning[1400];
  st = xmt_cache_open(&tm->cache, s->uri, s->max_entries, s->interrupted,
                      s->err, warning, sizeof warning);
  if (st == XMT_OK && warning[0] != '\0')
    xmt_run_warn(run, NULL, 0, warning);
  *s->kept = tm->cache;
  return st;
}

xmt_status xmt_tm_keep(struct run *run, const struct result *res,
                       const char *tr, size_t trlen,
                       const struct xmt_mt_response *resp) {
  const struct window *w = xmt_run_asking(run, NULL);
  struct tm_state *tm = xmt_run_tm(run);
  if (xmt_result_cached(res) || !xmt_run_dedupes(run))
    return XMT_OK;
  size_t req_len;
  const char *req = xmt_result_request(w, res, &req_len);
  if (xmt_memo_put_hashed(&tm->run_memo, xmt_result_hash(res), req, req_len, tr,
                          trlen, 0) != XMT_OK)
    return XMT_ERR_NOMEM;
  if (tm->cache != NULL) {
    struct xmt_cache_key key;
    xmt_tm_key(run, xmt_result_probe(res), &key);
    if (xmt_cache_put(tm->cache, &key, req, req_len, tr, trlen, resp) != XMT_OK)
      xmt_tm_trouble(run);
  }
  return XMT_OK;
}

struct xmt_cache *xmt_tm_cache(struct run *run) {
  return xmt_run_tm(run)->cache;
}

xmt_status xmt_tm_commit(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  return tm->cache == NULL ? XMT_OK
                           : xmt_cache_commit(tm->cache, &tm->cache_err);
}

void xmt_tm_trim(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  if (xmt_memo_bytes(&tm->run_memo) > MEMO_MAX_BYTES)
    xmt_memo_clear(&tm->run_memo);
}

void xmt_tm_forget(struct run *run) {
  xmt_memo_clear(&xmt_run_tm(run)->run_memo);
}

void xmt_tm_prefetch(struct run *run, uint64_t hash) {
  xmt_memo_prefetch(&xmt_run_tm(run)->run_memo, hash);
}

/* A run that failed: the answers it did not commit go with the cache, as
 * on closing. */
void xmt_tm_drop(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  if (tm->cache == NULL)
    return;
  xmt_cache_close(tm->cache);
  tm->cache = NULL;
  *tm->settings.kept = NULL;
}

void xmt_tm_free(struct run *run) {
  struct tm_state *tm = xmt_run_tm(run);
  xmt_memo_free(&tm->run_memo);
  xmt_buf_free(&tm->cache_engine);
  xmt_error_clear(&tm->cache_err);
}
