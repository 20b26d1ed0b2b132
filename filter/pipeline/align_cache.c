/* align_cache.c -- the alignment cache: a document of one window aligned
 * before with the same cache, answers and aligner settings gets the links
 * the aligner gave it then. Training is deterministic, so they are the
 * links it would give again, and a rerun over a cached batch does not
 * train. The links are a cache entry of their own (engine
 * ALIGN_CACHE_ENGINE), its request a hash of the settings and of every
 * training pair, in order; its answer a line "result TAB Pharaoh links"
 * for each result aligned. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "pipeline_private.h"
#include "xliffmt.h"

/* The engine name of the entries: no backend has it. */
#define ALIGN_CACHE_ENGINE "xliffmt-aligner"
/* Raised whenever the aligner's defaults change the links it gives (2:
 * the NULL word's pseudo-counts bounded), so that links cached by a
 * build of the same version before the change are not taken for its. */
#define ALIGN_CACHE_REVISION 2

/* Only a run of one window with a cache, trained on that window alone. */
static int applies(struct run *run) {
  const struct align_settings *s = &xmt_run_align(run)->settings;
  return xmt_tm_cache(run) != NULL && xmt_run_extract(run) == NULL &&
         xmt_run_one_window(run) && s->mode == XMT_ALIGNER_SELF &&
         !xmt_model_to_load(s) && !s->update_model;
}

static void hash_part(XXH3_state_t *h, const char *s, size_t n) {
  uint64_t len = n;
  XXH3_128bits_update(h, &len, sizeof len);
  XXH3_128bits_update(h, s, n);
}

/* ac->key: the settings and training pairs of the window. */
static int key_of(struct run *run, struct window *w) {
  struct align_cache_use *ac = xmt_window_align_cache(w);
  const struct align_settings *s = &xmt_run_align(run)->settings;
  XXH3_state_t *h = XXH3_createState();
  if (h == NULL || XXH3_128bits_reset(h) != XXH_OK) {
    XXH3_freeState(h);
    return 0;
  }
  char head[160];
  snprintf(head, sizeof head, "%s r%d %d %d %d", xmt_version(),
           ALIGN_CACHE_REVISION, (int)s->kind, (int)s->symmetrization,
           (int)xmt_run_tag_mode(run));
  hash_part(h, head, strlen(head));
  const char *langs[] = {xmt_run_source_language(run),
                         xmt_run_target_language(run)};
  for (int i = 0; i < 2; i++)
    hash_part(h, langs[i] != NULL ? langs[i] : "",
              langs[i] ? strlen(langs[i]) : 0);
  for (size_t k = 0; k < s->ndicts; k++)
    hash_part(h, s->dicts[k], strlen(s->dicts[k]));
  for (size_t r = 0; r < xmt_window_nresults(w); r++) {
    const struct result *res = xmt_window_result(w, r);
    const struct xmt_mt_response *resp = xmt_window_response(w, r);
    if (xmt_result_probe(res) || !xmt_mt_response_answered(resp))
      continue;
    uint64_t at = r;
    XXH3_128bits_update(h, &at, sizeof at);
    size_t len;
    const char *text = xmt_result_plain(w, res, &len);
    hash_part(h, text, len);
    text = xmt_answer_of(w, res, &len);
    hash_part(h, text, len);
  }
  XXH128_hash_t d = XXH3_128bits_digest(h);
  XXH3_freeState(h);
  snprintf(ac->key, sizeof ac->key, "%016llx%016llx",
           (unsigned long long)d.high64, (unsigned long long)d.low64);
  return 1;
}

static void entry_key(struct run *run, struct xmt_cache_key *key) {
  xmt_tm_key(run, 0, key);
  key->engine = ALIGN_CACHE_ENGINE;
  key->markup = 0;
}

/* On the main thread, before the window goes to the placing stage. */
void xmt_align_cache_look_up(struct run *run, struct window *w) {
  struct align_cache_use *ac = xmt_window_align_cache(w);
  ac->wanted = ac->hit = ac->fresh = 0;
  xmt_buf_reset(&ac->links);
  if (!applies(run) || !key_of(run, w))
    return;
  ac->wanted = 1;
  struct xmt_cache_key key;
  entry_key(run, &key);
  struct xmt_mt_response resp;
  memset(&resp, 0, sizeof resp);
  int hit =
      xmt_cache_get(xmt_tm_cache(run), &key, ac->key, strlen(ac->key), &resp);
  size_t len;
  const char *links = xmt_mt_response_text(&resp, &len);
  if (hit == -1)
    xmt_tm_trouble(run);
  else if (hit == 1 && len > 0 &&
           xmt_buf_append(&ac->links, links, len) == XMT_OK)
    ac->hit = 1;
  xmt_mt_response_free(&resp);
}

/* On the main thread, the window back: the links it computed go in. */
void xmt_align_cache_store(struct run *run, struct window *w) {
  struct align_cache_use *ac = xmt_window_align_cache(w);
  if (ac->fresh && xmt_tm_cache(run) != NULL) {
    struct xmt_cache_key key;
    entry_key(run, &key);
    struct xmt_mt_response none;
    memset(&none, 0, sizeof none);
    if (xmt_cache_put(xmt_tm_cache(run), &key, ac->key, strlen(ac->key),
                      ac->links.data, ac->links.len, &none) != XMT_OK ||
        xmt_tm_commit(run) != XMT_OK)
      xmt_tm_trouble(run);
  }
  ac->wanted = ac->hit = ac->fresh = 0;
}

/* The links of the results that need the aligner's, from
 * ac->links; 0 (and
 * none set) when it lacks one or one does not fit its tokens: then the
 * aligner trains as if there were none. */
int xmt_align_cache_apply(struct run *run, struct window *w) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  struct align_cache_use *ac = xmt_window_align_cache(w);
  const char *p = ac->links.data, *end = p + ac->links.len;
  size_t applied = 0;
  xmt_status st = XMT_OK;
  for (size_t r = 0; r < xmt_window_nresults(w) && st == XMT_OK; r++) {
    struct result *res = xmt_window_result(w, r);
    if (!xmt_wants_aligner_links(run, w, res))
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
    xmt_alignment *links = line != NULL ? xmt_result_new_links(res) : NULL;
    if (links == NULL) {
      st = XMT_ERR_USAGE;
      break;
    }
    size_t src_len, tgt_len;
    const char *src = xmt_result_plain(w, res, &src_len);
    const char *tgt = xmt_answer_of(w, res, &tgt_len);
    st = xmt_tools_tokenize(pt, src, src_len, tgt, tgt_len);
    if (st == XMT_OK)
      st = xmt_alignment_parse(links, line, (size_t)(eol - line),
                               xmt_tokens_count(xmt_tools_stok(pt)),
                               xmt_tokens_count(xmt_tools_ttok(pt)), NULL);
    applied++;
  }
  if (st == XMT_OK) {
    xmt_window_stats(w)->cached_alignments += applied;
    return 1;
  }
  xmt_window_drop_links(w);
  return 0;
}

/* The aligner's links of the window, as xmt_align_cache_apply reads them. */
void xmt_align_cache_keep(struct window *w) {
  struct align_cache_use *ac = xmt_window_align_cache(w);
  xmt_status st = XMT_OK;
  xmt_buf_reset(&ac->links);
  for (size_t r = 0; r < xmt_window_nresults(w) && st == XMT_OK; r++) {
    const xmt_alignment *a = xmt_result_links(xmt_window_result(w, r));
    if (a == NULL)
      continue;
    char num[32];
    snprintf(num, sizeof num, "%zu\t", r);
    st = xmt_buf_append_str(&ac->links, num);
    const struct xmt_link *l = xmt_alignment_links(a);
    for (size_t k = 0; k < xmt_alignment_count(a) && st == XMT_OK; k++) {
      snprintf(num, sizeof num, "%s%zu-%zu", k ? " " : "", l[k].source,
               l[k].target);
      st = xmt_buf_append_str(&ac->links, num);
    }
    if (st == XMT_OK)
      st = xmt_buf_append_byte(&ac->links, '\n');
  }
  ac->fresh = st == XMT_OK;
}
