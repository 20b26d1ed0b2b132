/* priors_strings.c -- prior links from the strings themselves: identical
 * words and cognates. Apart from priors.c because no dictionary is read:
 * the links come from comparing the two vocabularies' forms. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "priors_build.h"

/* Cognates: a group of words sharing a folded prefix is compared pair by
 * pair when it has at most this many pairs; larger groups are split by a
 * longer prefix, so the work stays linear in the vocabulary size. */
#define COG_GROUP_PAIRS 2048
#define COG_MAX_PREFIX 8

/* --- Identical words ------------------------------------------------------ */

xmt_status xmt_priors_add_identical(struct xmt_lex_match *m) {
  const struct side *s = &m->side[XMT_SRC], *t = &m->side[XMT_TGT];
  for (uint32_t k = 1; k < s->forms.count; k++) {
    size_t len;
    const char *w = xmt_vocab_word(&s->forms, k, &len);
    uint32_t tk = xmt_vocab_find(&t->forms, w, len);
    if (tk == XMT_UNKNOWN_WORD || !xmt_priors_has_class(w, len, 0))
      continue;
    xmt_status st = xmt_priors_link_chains(m, k, tk, m->o->identical_weight,
                                           KIND_IDENTICAL);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* --- Cognates --------------------------------------------------------------
 * Words of at least COG_MIN_LEN letters, folded; sorted, so that words with
 * a common prefix are neighbours; compared within groups of a common prefix
 * (longer prefixes for larger groups); for each source word, the target
 * words of the best similarity at or above the threshold. */

struct cand {
  const uint32_t *cp; /* folded code points */
  size_t at;          /* cp's offset in the pool while it grows */
  uint32_t len;
  uint32_t key; /* form key */
};

struct cands {
  struct cand *c;
  size_t n;
  uint32_t *pool;
  size_t pool_len, pool_cap;
};

static void cands_free(struct cands *c) {
  free(c->c);
  free(c->pool);
}

static int cand_cmp(const void *pa, const void *pb) {
  const struct cand *a = pa, *b = pb;
  uint32_t n = a->len < b->len ? a->len : b->len;
  for (uint32_t i = 0; i < n; i++)
    if (a->cp[i] != b->cp[i])
      return a->cp[i] < b->cp[i] ? -1 : 1;
  return a->len < b->len ? -1 : a->len > b->len;
}

/* Order of a and b by their first p code points (a prefix of the sort). */
static int prefix_cmp(const struct cand *a, const struct cand *b, uint32_t p) {
  uint32_t la = a->len < p ? a->len : p, lb = b->len < p ? b->len : p;
  uint32_t n = la < lb ? la : lb;
  for (uint32_t i = 0; i < n; i++)
    if (a->cp[i] != b->cp[i])
      return a->cp[i] < b->cp[i] ? -1 : 1;
  return la < lb ? -1 : la > lb;
}

static xmt_status cands_build(struct cands *c, const struct side *s,
                              struct text *t) {
  uint32_t nk = s->forms.count;
  c->c = malloc((size_t)nk * sizeof *c->c);
  if (c->c == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t k = 1; k < nk; k++) {
    size_t len, n;
    const char *w = xmt_vocab_word(&s->forms, k, &len);
    if (len < COG_MIN_LEN || !xmt_priors_has_class(w, len, 1))
      continue;
    if (c->pool_cap - c->pool_len < COG_MAX_LEN) {
      uint32_t *p = xmt_grow_array(c->pool, &c->pool_cap,
                                   c->pool_len + COG_MAX_LEN, sizeof *p);
      if (p == NULL)
        return XMT_ERR_NOMEM;
      c->pool = p;
    }
    xmt_status st = xmt_priors_text_fold(t, w, len, c->pool + c->pool_len, &n);
    if (st != XMT_OK)
      return st;
    if (n < COG_MIN_LEN)
      continue;
    c->c[c->n++] = (struct cand){NULL, c->pool_len, (uint32_t)n, k};
    c->pool_len += n;
  }
  /* the pool has stopped moving: offsets become pointers */
  for (size_t i = 0; i < c->n; i++)
    c->c[i].cp = c->pool + c->c[i].at;
  return XMT_OK;
}

/* Edit distance of a and b when at most k, else k + 1 (Ukkonen's band). */
static uint32_t edit_distance(const struct cand *a, const struct cand *b,
                              uint32_t k) {
  uint32_t rows[2][COG_MAX_LEN + 2], *prev = rows[0], *cur = rows[1];
  uint32_t inf = k + 1, la = a->len, lb = b->len;
  if (la > COG_MAX_LEN || lb > COG_MAX_LEN || (la > lb ? la - lb : lb - la) > k)
    return inf;
  /* the band writes every cell the next row reads; the rest is set all the
   * same, for the static analyzer */
  for (uint32_t j = 0; j < COG_MAX_LEN + 2; j++) {
    prev[j] = j <= k ? j : inf;
    cur[j] = inf;
  }
  for (uint32_t i = 1; i <= la; i++) {
    uint32_t lo = i > k ? i - k : 1, hi = i + k < lb ? i + k : lb;
    cur[lo - 1] = lo == 1 && i <= k ? i : inf;
    uint32_t best = cur[lo - 1];
    for (uint32_t j = lo; j <= hi; j++) {
      uint32_t c = prev[j - 1] + (a->cp[i - 1] != b->cp[j - 1]);
      if (prev[j] + 1 < c)
        c = prev[j] + 1;
      if (cur[j - 1] + 1 < c)
        c = cur[j - 1] + 1;
      cur[j] = c < inf ? c : inf;
      if (cur[j] < best)
        best = cur[j];
    }
    if (hi < lb)
      cur[hi + 1] = inf;
    if (best >= inf)
      return inf;
    uint32_t *tmp = prev;
    prev = cur;
    cur = tmp;
  }
  return prev[lb];
}

/* Similarity of a and b (1 - distance / longer length) when at least thr,
 * else 0. */
static double similarity(const struct cand *a, const struct cand *b,
                         double thr) {
  uint32_t longer = a->len > b->len ? a->len : b->len;
  uint32_t diff = a->len > b->len ? a->len - b->len : b->len - a->len;
  uint32_t k = (uint32_t)((1 - thr) * longer + 1e-9);
  if (diff > k)
    return 0;
  uint32_t d = edit_distance(a, b, k);
  return d > k ? 0 : 1 - (double)d / longer;
}

struct cognates {
  struct xmt_lex_match *m;
  uint32_t *best; /* target candidates of the best similarity */
  size_t nbest;
};

/* Links source candidate a to its best targets among b[0..nb). */
static xmt_status best_cognates(struct cognates *g, const struct cand *a,
                                const struct cand *b, size_t nb) {
  struct xmt_lex_match *m = g->m;
  double best = 0;
  g->nbest = 0;
  for (size_t j = 0; j < nb; j++) {
    double sim = similarity(a, &b[j], m->o->cognate_threshold);
    if (sim <= 0 || sim < best)
      continue;
    if (sim > best)
      g->nbest = 0;
    best = sim;
    g->best[g->nbest++] = (uint32_t)j;
  }
  const struct xmt_vocab *sf = &m->side[XMT_SRC].forms;
  const struct xmt_vocab *tf = &m->side[XMT_TGT].forms;
  size_t la, lb;
  const char *wa = xmt_vocab_word(sf, a->key, &la);
  for (size_t i = 0; i < g->nbest; i++) {
    const struct cand *c = &b[g->best[i]];
    const char *wb = xmt_vocab_word(tf, c->key, &lb);
    if (la == lb && memcmp(wa, wb, la) == 0)
      continue; /* identical: not a cognate, but the best there is */
    xmt_status st = xmt_priors_link_chains(
        m, a->key, c->key, m->o->cognate_weight * best, KIND_COGNATE);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* Compares the words of a and b that share their first p code points:
 * groups small enough pair by pair, larger ones by a longer prefix. */
static xmt_status cognate_groups(struct cognates *g, const struct cand *a,
                                 size_t na, const struct cand *b, size_t nb,
                                 uint32_t p) {
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    int c = prefix_cmp(&a[i], &b[j], p);
    if (c != 0) {
      c < 0 ? i++ : j++;
      continue;
    }
    size_t ie = i + 1, je = j + 1;
    while (ie < na && prefix_cmp(&a[i], &a[ie], p) == 0)
      ie++;
    while (je < nb && prefix_cmp(&b[j], &b[je], p) == 0)
      je++;
    xmt_status st = XMT_OK;
    if ((ie - i) * (je - j) > COG_GROUP_PAIRS && p < COG_MAX_PREFIX)
      st = cognate_groups(g, a + i, ie - i, b + j, je - j, p + 1);
    else
      for (size_t k = i; k < ie && st == XMT_OK; k++)
        st = best_cognates(g, &a[k], b + j, je - j);
    if (st != XMT_OK)
      return st;
    i = ie;
    j = je;
  }
  return XMT_OK;
}

xmt_status xmt_priors_add_cognates(struct xmt_lex_match *m) {
  struct cands c[2];
  memset(c, 0, sizeof c);
  struct cognates g = {m, NULL, 0};
  xmt_status st = XMT_OK;
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++) {
    st = cands_build(&c[sd], &m->side[sd], &m->text);
    if (st == XMT_OK)
      qsort(c[sd].c, c[sd].n, sizeof *c[sd].c, cand_cmp);
  }
  if (st == XMT_OK &&
      (g.best = malloc((c[1].n ? c[1].n : 1) * sizeof *g.best)) == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = cognate_groups(&g, c[0].c, c[0].n, c[1].c, c[1].n, 1);
  free(g.best);
  cands_free(&c[0]);
  cands_free(&c[1]);
  return st;
}
