/* aligner_bound.c -- the model an aligner carries from one training to
 * the next, kept to a bounded size: a run trains on each window of a
 * document seeded with what the earlier windows taught, and without a
 * bound the tables would hold every word of the document and every pair
 * of words that ever met (a document of ever-new numbers grows them
 * without end). When the model outgrows the limits it keeps the words of
 * the model it was loaded with and the most linked other words, and the
 * entries with the most links. The Bayesian model is seeded with link
 * counts alone and IBM2 with counts where the table has them, so entries
 * without a link, the first to go, teach the next training nothing. */
#include "config.h"

#include <stdlib.h>

#include "priors_private.h"

/* A word's links in both directions' tables: row e of the direction it
 * conditions, column f of the other. */
static double *word_scores(const struct xmt_aligner *a, int side) {
  uint32_t n = a->vocab[side].count;
  double *score = calloc(n ? n : 1, sizeof *score);
  if (score == NULL)
    return NULL;
  for (int d = 0; d < 2; d++) {
    const struct xmt_ttable *t = &a->dir[d].t;
    int es = d == XMT_FWD ? XMT_SRC : XMT_TGT;
    for (uint32_t e = 0; e < t->rows; e++)
      for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++) {
        double c = t->count != NULL ? t->count[k] : t->prob[k];
        if (es == side && e < n)
          score[e] += c;
        else if (es != side && t->col[k] < n)
          score[t->col[k]] += c;
      }
  }
  return score;
}

struct ranked {
  double score;
  uint32_t id;
};

/* Most linked first; the earlier word first among equals. */
static int by_score(const void *x, const void *y) {
  const struct ranked *p = x, *q = y;
  if (p->score != q->score)
    return p->score > q->score ? -1 : 1;
  return p->id < q->id ? -1 : p->id > q->id;
}

/* map[id]: the id word id keeps, or XMT_UNKNOWN_WORD when it goes. NULL,
 * the loaded model's words and the max_words most linked others stay, in
 * their order (so a table's rows stay sorted). *kept: the new count. */
static xmt_status keep_words(const struct xmt_aligner *a, int side,
                             size_t max_words, uint32_t *map, uint32_t *kept) {
  uint32_t n = a->vocab[side].count, fixed = a->model_words[side];
  fixed = fixed > 0 ? fixed : 1; /* NULL */
  double *score = word_scores(a, side);
  struct ranked *r = malloc((n > fixed ? n - fixed : 1) * sizeof *r);
  if (score == NULL || r == NULL) {
    free(score);
    free(r);
    return XMT_ERR_NOMEM;
  }
  for (uint32_t id = fixed; id < n; id++)
    r[id - fixed] = (struct ranked){score[id], id};
  size_t others = n > fixed ? n - fixed : 0;
  if (others > max_words)
    qsort(r, others, sizeof *r, by_score);
  for (uint32_t id = 0; id < n; id++)
    map[id] = id < fixed ? 0 : XMT_UNKNOWN_WORD;
  for (size_t k = 0; k < others && k < max_words; k++)
    map[r[k].id] = 0;
  uint32_t next = 0;
  for (uint32_t id = 0; id < n; id++)
    if (map[id] != XMT_UNKNOWN_WORD)
      map[id] = next++;
  *kept = next;
  free(score);
  free(r);
  return XMT_OK;
}

/* The vocabulary of the words map keeps. */
static xmt_status remap_vocab(struct xmt_vocab *v, const uint32_t *map) {
  struct xmt_vocab nv;
  xmt_status st = xmt_vocab_init(&nv);
  for (uint32_t id = 1; id < v->count && st == XMT_OK; id++) {
    if (map[id] == XMT_UNKNOWN_WORD)
      continue;
    size_t len;
    const char *w = xmt_vocab_word(v, id, &len);
    uint32_t got;
    st = xmt_vocab_intern(&nv, w, len, &got);
  }
  if (st != XMT_OK) {
    xmt_vocab_free(&nv);
    return st;
  }
  xmt_vocab_free(v);
  *v = nv;
  return XMT_OK;
}

static int by_count_desc(const void *x, const void *y) {
  double p = *(const double *)x, q = *(const double *)y;
  return p > q ? -1 : p < q;
}

/* The links an entry needs to stay when more than max entries of t have
 * both words kept: the max-th highest count. Entries of the loaded
 * model's words stay whatever their count (*always set). */
static xmt_status count_floor(const struct xmt_ttable *t, const uint32_t *em,
                              const uint32_t *fm, const uint32_t *fixed,
                              size_t max, double *floor, size_t *at_floor,
                              uint64_t *entries) {
  *floor = -1;
  *at_floor = SIZE_MAX;
  size_t n = 0, loaded = 0;
  for (uint32_t e = 0; e < t->rows; e++)
    for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++)
      if (em[e] != XMT_UNKNOWN_WORD && fm[t->col[k]] != XMT_UNKNOWN_WORD) {
        if (e < fixed[0] && t->col[k] < fixed[1])
          loaded++;
        else
          n++;
      }
  *entries = loaded + n;
  if (n <= max || t->count == NULL)
    return XMT_OK;
  *entries = loaded + max;
  double *c = malloc(n * sizeof *c);
  if (c == NULL)
    return XMT_ERR_NOMEM;
  n = 0;
  for (uint32_t e = 0; e < t->rows; e++)
    for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++)
      if (em[e] != XMT_UNKNOWN_WORD && fm[t->col[k]] != XMT_UNKNOWN_WORD &&
          !(e < fixed[0] && t->col[k] < fixed[1]))
        c[n++] = t->count[k];
  qsort(c, n, sizeof *c, by_count_desc);
  /* above the floor all stay; of those at it, as many as there is room */
  *floor = max > 0 ? c[max - 1] : c[0] + 1;
  size_t above = 0;
  while (above < n && c[above] > *floor)
    above++;
  *at_floor = max - above;
  free(c);
  return XMT_OK;
}

/* Whether an entry of count links stays: above the floor, or at it
 * while there is room (*room counts it down). */
static int stays(double count, double floor, size_t *room) {
  if (count != floor)
    return count > floor;
  if (*room == 0)
    return 0;
  --*room;
  return 1;
}

/* Table t with the rows em keeps and the columns fm keeps, renumbered,
 * at most max entries besides the loaded model's, rows renormalized. */
static xmt_status remap_table(struct xmt_ttable *t, const uint32_t *em,
                              const uint32_t *fm, uint32_t rows,
                              const uint32_t *fixed, size_t max) {
  double floor;
  size_t at_floor;
  uint64_t cap;
  xmt_status st = count_floor(t, em, fm, fixed, max, &floor, &at_floor, &cap);
  if (st != XMT_OK)
    return st;
  struct xmt_ttable out;
  memset(&out, 0, sizeof out);
  out.rows = rows;
  cap = cap ? cap : 1;
  out.row_start = calloc((size_t)rows + 1, sizeof *out.row_start);
  out.col = malloc((size_t)cap * sizeof *out.col);
  out.prob = malloc((size_t)cap * sizeof *out.prob);
  if (t->count != NULL)
    out.count = malloc((size_t)cap * sizeof *out.count);
  if (out.row_start == NULL || out.col == NULL || out.prob == NULL ||
      (t->count != NULL && out.count == NULL)) {
    xmt_ttable_free(&out);
    return XMT_ERR_NOMEM;
  }
  uint64_t o = 0;
  for (uint32_t e = 0; e < t->rows; e++) {
    if (em[e] == XMT_UNKNOWN_WORD)
      continue;
    uint64_t first = o;
    double sum = 0;
    for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++) {
      uint32_t f = t->col[k];
      if (fm[f] == XMT_UNKNOWN_WORD)
        continue;
      if (!(e < fixed[0] && f < fixed[1]) && t->count != NULL &&
          !stays(t->count[k], floor, &at_floor))
        continue;
      out.col[o] = fm[f];
      out.prob[o] = t->prob[k];
      if (out.count != NULL)
        out.count[o] = t->count[k];
      sum += out.prob[o++];
    }
    for (uint64_t k = first; k < o && sum > 0; k++)
      out.prob[k] /= sum;
    out.row_start[em[e] + 1] = o;
  }
  /* rows dropped leave no gap; rows kept with no entry are empty */
  for (uint32_t e = 1; e <= rows; e++)
    if (out.row_start[e] < out.row_start[e - 1])
      out.row_start[e] = out.row_start[e - 1];
  out.nnz = o;
  xmt_ttable_free(t);
  *t = out;
  return XMT_OK;
}

/* The prior links between words kept, renumbered (the order stays). */
static void remap_prior(struct xmt_prior_table *p, const uint32_t *sm,
                        const uint32_t *tm) {
  size_t o = 0;
  for (size_t k = 0; k < p->count; k++) {
    if (sm[p->src[k]] == XMT_UNKNOWN_WORD || tm[p->tgt[k]] == XMT_UNKNOWN_WORD)
      continue;
    p->src[o] = sm[p->src[k]];
    p->tgt[o] = tm[p->tgt[k]];
    p->w[o++] = p->w[k];
  }
  p->count = o;
}

/* Whether the model is over the limits. */
static int over(const struct xmt_aligner *a, size_t max_words,
                size_t max_entries) {
  for (int s = 0; s < 2; s++) {
    uint32_t fixed = a->model_words[s] > 0 ? a->model_words[s] : 1;
    if (a->vocab[s].count - fixed > max_words || a->dir[s].t.nnz > max_entries)
      return 1;
  }
  return 0;
}

xmt_status xmt_aligner_bound_model(xmt_aligner *a, size_t max_words,
                                   size_t max_entries) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  if (a->pairs > 0)
    return xmt_error_set(&a->err, XMT_ERR_USAGE,
                         "the model is bounded without pairs added");
  if (!a->trained || !over(a, max_words, max_entries))
    return XMT_OK;
  uint32_t *map[2] = {NULL, NULL}, kept[2] = {0, 0};
  xmt_status st = XMT_OK;
  for (int s = 0; s < 2 && st == XMT_OK; s++) {
    map[s] = calloc((size_t)a->vocab[s].count, sizeof *map[s]);
    st = map[s] != NULL ? keep_words(a, s, max_words, map[s], &kept[s])
                        : XMT_ERR_NOMEM;
  }
  for (int d = 0; d < 2 && st == XMT_OK; d++) {
    int es = d == XMT_FWD ? XMT_SRC : XMT_TGT, fs = 1 - es;
    uint32_t fixed[2] = {a->model_words[es], a->model_words[fs]};
    st = remap_table(&a->dir[d].t, map[es], map[fs], kept[es], fixed,
                     max_entries);
  }
  /* A table cut down and a vocabulary not would disagree: the
   * vocabularies change last, and nothing after them can fail but the
   * copy, which leaves the model unusable rather than wrong. */
  for (int s = 0; s < 2 && st == XMT_OK; s++)
    st = remap_vocab(&a->vocab[s], map[s]);
  if (st == XMT_OK)
    remap_prior(&a->prior, map[XMT_SRC], map[XMT_TGT]);
  else
    a->trained = 0;
  free(map[0]);
  free(map[1]);
  return st != XMT_OK ? xmt_error_set(&a->err, st, "cannot bound the model: %s",
                                      xmt_strerror(st))
                      : XMT_OK;
}
