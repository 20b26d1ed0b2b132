/* aligner_grow.c -- models that grow: after each training the model keeps
 * the link counts of every corpus it was trained on, so a model saved,
 * loaded and trained again on the next document aligns with what all the
 * earlier ones taught; and a model stays with its language pair. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>

#include "priors_private.h"

/* The links of pair k in direction d into pos: for each predicted word, 1
 * + the position of its conditioning word, 0 for NULL. */
static xmt_status pair_positions(struct xmt_aligner *a, int d, size_t k,
                                 uint32_t *pos, xmt_alignment *tmp) {
  int es = d == XMT_FWD ? XMT_SRC : XMT_TGT, fs = 1 - es;
  size_t n = (size_t)(a->start[es][k + 1] - a->start[es][k]);
  size_t m = (size_t)(a->start[fs][k + 1] - a->start[fs][k]);
  if (a->pair_links[d] != NULL) {
    memcpy(pos, a->pair_links[d] + a->start[fs][k], m * sizeof *pos);
    return XMT_OK;
  }
  memset(pos, 0, m * sizeof *pos);
  xmt_alignment_clear(tmp);
  xmt_status st =
      xmt_aligner_viterbi(a, d, &a->scratch, a->ids[es] + a->start[es][k], n,
                          a->ids[fs] + a->start[fs][k], m, tmp);
  size_t nl = xmt_alignment_count(tmp);
  const struct xmt_link *l = xmt_alignment_links(tmp);
  for (size_t x = 0; x < nl && st == XMT_OK; x++) {
    size_t i = d == XMT_FWD ? l[x].source : l[x].target;
    size_t j = d == XMT_FWD ? l[x].target : l[x].source;
    pos[j] = (uint32_t)i + 1;
  }
  return st;
}

/* t->count: the links of every pair in direction d. */
static xmt_status count_links(struct xmt_aligner *a, int d,
                              struct xmt_ttable *t) {
  int es = d == XMT_FWD ? XMT_SRC : XMT_TGT, fs = 1 - es;
  size_t maxlen = 1;
  for (size_t k = 0; k < a->pairs; k++) {
    size_t n = (size_t)(a->start[es][k + 1] - a->start[es][k]);
    size_t m = (size_t)(a->start[fs][k + 1] - a->start[fs][k]);
    maxlen = n > maxlen ? n : maxlen;
    maxlen = m > maxlen ? m : maxlen;
  }
  t->count = calloc((size_t)(t->nnz ? t->nnz : 1), sizeof *t->count);
  uint32_t *pos = malloc(maxlen * sizeof *pos);
  xmt_alignment *tmp = xmt_alignment_new();
  xmt_status st = t->count != NULL && pos != NULL && tmp != NULL
                      ? xmt_scratch_reserve(&a->scratch, maxlen, maxlen)
                      : XMT_ERR_NOMEM;
  for (size_t k = 0; k < a->pairs && st == XMT_OK; k++) {
    size_t n = (size_t)(a->start[es][k + 1] - a->start[es][k]);
    size_t m = (size_t)(a->start[fs][k + 1] - a->start[fs][k]);
    if (n == 0 || m == 0)
      continue;
    st = pair_positions(a, d, k, pos, tmp);
    const uint32_t *e = a->ids[es] + a->start[es][k];
    const uint32_t *f = a->ids[fs] + a->start[fs][k];
    for (size_t j = 0; j < m && st == XMT_OK; j++) {
      uint32_t w = pos[j] == 0 || pos[j] > n ? XMT_NULL_WORD : e[pos[j] - 1];
      uint64_t at = xmt_ttable_find(t, w, f[j]);
      if (at != XMT_NO_ENTRY)
        t->count[at] += 1;
    }
  }
  free(pos);
  xmt_alignment_free(tmp);
  return st;
}

/* The union of the new table t and the old one: counts added, the new
 * probability where t has the entry, the old one elsewhere, each row
 * renormalized. */
/* The entries of the union of t and old, counted. */
static uint64_t union_size(const struct xmt_ttable *t,
                           const struct xmt_ttable *old, uint32_t rows) {
  uint64_t n = 0;
  for (uint32_t e = 0; e < rows; e++) {
    uint64_t a = e < t->rows ? t->row_start[e] : 0;
    uint64_t ae = e < t->rows ? t->row_start[e + 1] : 0;
    uint64_t b = e < old->rows ? old->row_start[e] : 0;
    uint64_t be = e < old->rows ? old->row_start[e + 1] : 0;
    while (a < ae && b < be) {
      uint32_t x = t->col[a], y = old->col[b];
      a += x <= y;
      b += y <= x;
      n++;
    }
    n += (ae - a) + (be - b);
  }
  return n;
}

static xmt_status merge_tables(const struct xmt_ttable *t,
                               const struct xmt_ttable *old,
                               struct xmt_ttable *out) {
  memset(out, 0, sizeof *out);
  out->rows = t->rows > old->rows ? t->rows : old->rows;
  /* the union's own size: a window's words are mostly the model's */
  uint64_t cap = union_size(t, old, out->rows);
  out->row_start = calloc((size_t)out->rows + 1, sizeof *out->row_start);
  out->col = malloc((size_t)(cap ? cap : 1) * sizeof *out->col);
  out->prob = malloc((size_t)(cap ? cap : 1) * sizeof *out->prob);
  out->count = malloc((size_t)(cap ? cap : 1) * sizeof *out->count);
  if (out->row_start == NULL || out->col == NULL || out->prob == NULL ||
      out->count == NULL) {
    xmt_ttable_free(out);
    return XMT_ERR_NOMEM;
  }
  uint64_t o = 0;
  for (uint32_t e = 0; e < out->rows; e++) {
    uint64_t a = e < t->rows ? t->row_start[e] : 0;
    uint64_t ae = e < t->rows ? t->row_start[e + 1] : 0;
    uint64_t b = e < old->rows ? old->row_start[e] : 0;
    uint64_t be = e < old->rows ? old->row_start[e + 1] : 0;
    uint64_t first = o;
    double sum = 0;
    while (a < ae || b < be) {
      int take_a = b >= be || (a < ae && t->col[a] <= old->col[b]);
      int take_b = a >= ae || (b < be && old->col[b] <= t->col[a]);
      out->col[o] = take_a ? t->col[a] : old->col[b];
      out->prob[o] = take_a ? t->prob[a] : old->prob[b];
      out->count[o] = (take_a && t->count != NULL ? t->count[a] : 0) +
                      (take_b && old->count != NULL ? old->count[b] : 0);
      sum += out->prob[o++];
      a += take_a;
      b += take_b;
    }
    for (uint64_t k = first; k < o && sum > 0; k++)
      out->prob[k] /= sum;
    out->row_start[e + 1] = o;
  }
  out->nnz = o;
  return XMT_OK;
}

xmt_status xmt_aligner_grow(struct xmt_aligner *a, struct xmt_ttable *old) {
  xmt_status st = XMT_OK;
  for (int d = 0; d < 2 && st == XMT_OK; d++) {
    struct xmt_ttable *t = &a->dir[d].t;
    st = count_links(a, d, t);
    if (st == XMT_OK && old != NULL && old[d].rows > 0) {
      struct xmt_ttable merged;
      st = merge_tables(t, &old[d], &merged);
      if (st == XMT_OK) {
        xmt_ttable_free(t);
        *t = merged;
      }
    }
  }
  if (old != NULL) {
    xmt_ttable_free(&old[0]);
    xmt_ttable_free(&old[1]);
  }
  if (st == XMT_OK)
    a->documents++;
  return st;
}

/* --- Seeding the Bayesian model -------------------------------------------
 * Its prior is a link table; the loaded model's counts (or, for a model
 * without counts, its probabilities) join the dictionary links, half from
 * each direction. */

static int cmp_link(const void *x, const void *y) {
  const uint64_t *p = x, *q = y;
  return *p < *q ? -1 : *p > *q;
}

xmt_status xmt_aligner_seed_prior(const struct xmt_aligner *a,
                                  struct xmt_prior_table *out) {
  memset(out, 0, sizeof *out);
  size_t cap = a->prior.count;
  for (int d = 0; d < 2; d++)
    cap += (size_t)a->dir[d].t.nnz;
  /* (src << 32 | tgt) keys with their weights, sorted, then summed */
  uint64_t *keys = xmt_mapped_calloc(cap ? cap : 1, sizeof *keys);
  double *w = xmt_mapped_calloc(cap ? cap : 1, sizeof *w);
  uint64_t *pairs = xmt_mapped_calloc((cap ? cap : 1) * 2, sizeof *pairs);
  xmt_status st = keys && w && pairs ? XMT_OK : XMT_ERR_NOMEM;
  size_t n = 0;
  for (size_t k = 0; k < a->prior.count && st == XMT_OK; k++) {
    keys[n] = (uint64_t)a->prior.src[k] << 32 | a->prior.tgt[k];
    w[n++] = a->prior.w[k];
  }
  for (int d = 0; d < 2 && st == XMT_OK; d++) {
    const struct xmt_ttable *t = &a->dir[d].t;
    for (uint32_t e = 1; e < t->rows; e++)
      for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++) {
        double c = t->count != NULL ? t->count[k] : t->prob[k];
        if (!(c > 0))
          continue;
        uint32_t s = d == XMT_FWD ? e : t->col[k];
        uint32_t g = d == XMT_FWD ? t->col[k] : e;
        keys[n] = (uint64_t)s << 32 | g;
        w[n++] = a->opt.seed_weight * c / 2;
      }
  }
  if (st == XMT_OK) {
    /* sort (key, index) pairs so weights follow their keys */
    for (size_t k = 0; k < n; k++) {
      pairs[2 * k] = keys[k];
      pairs[2 * k + 1] = k;
    }
    qsort(pairs, n, 2 * sizeof *pairs, cmp_link);
    out->src = malloc((n ? n : 1) * sizeof *out->src);
    out->tgt = malloc((n ? n : 1) * sizeof *out->tgt);
    out->w = malloc((n ? n : 1) * sizeof *out->w);
    if (out->src == NULL || out->tgt == NULL || out->w == NULL)
      st = XMT_ERR_NOMEM;
  }
  for (size_t k = 0; k < n && st == XMT_OK; k++) {
    uint64_t key = pairs[2 * k];
    double weight = w[pairs[2 * k + 1]];
    if (out->count > 0 && ((uint64_t)out->src[out->count - 1] << 32 |
                           out->tgt[out->count - 1]) == key) {
      out->w[out->count - 1] += (float)weight;
      continue;
    }
    out->src[out->count] = (uint32_t)(key >> 32);
    out->tgt[out->count] = (uint32_t)key;
    out->w[out->count++] = (float)weight;
  }
  out->cap = n;
  xmt_mapped_free(keys);
  xmt_mapped_free(w);
  xmt_mapped_free(pairs);
  /* a pair of words is in both tables, so the links are about half the
   * keys: held at their number while the window trains */
  size_t keep = out->count ? out->count : 1;
  if (st == XMT_OK && keep < n) {
    uint32_t *src = realloc(out->src, keep * sizeof *src);
    out->src = src ? src : out->src;
    uint32_t *tgt = realloc(out->tgt, keep * sizeof *tgt);
    out->tgt = tgt ? tgt : out->tgt;
    float *fw = realloc(out->w, keep * sizeof *fw);
    out->w = fw ? fw : out->w;
    out->cap = keep; /* a shrinking that failed left more */
  }
  if (st != XMT_OK)
    xmt_prior_table_free(out);
  return st;
}

/* --- Language pairs ------------------------------------------------------- */

/* Whether two language tags have the same primary subtag ("en" and
 * "en-GB" do). */
static int same_language(const char *x, const char *y) {
  for (; *x && *x != '-' && *x != '_' && *y && *y != '-' && *y != '_'; x++, y++)
    if (tolower((unsigned char)*x) != tolower((unsigned char)*y))
      return 0;
  return (*x == '\0' || *x == '-' || *x == '_') &&
         (*y == '\0' || *y == '-' || *y == '_');
}

xmt_status xmt_aligner_check_languages(struct xmt_aligner *a,
                                       const char *path) {
  for (int s = 0; s < 2; s++)
    if (a->lang[s] != NULL && a->model_lang[s] != NULL &&
        !same_language(a->lang[s], a->model_lang[s]))
      return xmt_error_at(
          &a->err, XMT_ERR_USAGE, XMT_IN(path != NULL ? path : a->model_path),
          "the aligner model is for %s-%s, not %s-%s",
          a->model_lang[0] ? a->model_lang[0] : "?",
          a->model_lang[1] ? a->model_lang[1] : "?",
          a->lang[0] ? a->lang[0] : "?", a->lang[1] ? a->lang[1] : "?");
  return XMT_OK;
}
