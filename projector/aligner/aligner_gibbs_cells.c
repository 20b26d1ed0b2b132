/* aligner_gibbs_cells.c -- the Gibbs sampler's fixed tables, built once
 * per training before any sweep (aligner_gibbs.c): the table entry of
 * every (token, candidate) cell of the corpus, the twins of each
 * conditioning token, and the Dirichlet pseudo-counts of the priors. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aligner_private.h"
#include "gibbs_private.h"

/* Table entries from which the counts are read ahead (prefetched): below,
 * they stay in the caches and the prefetching costs a tenth of a sweep. */
#define PREFETCH_ENTRIES (1u << 18)

/* --- Cells: the table entry of every (token, candidate) of the corpus --- */

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* First index in [lo, end) whose column is >= x: galloping from lo, as
 * the words are visited in ascending order. */
static uint64_t gallop(const struct xmt_ttable *t, uint64_t lo, uint64_t end,
                       uint32_t x) {
  uint64_t step = 1, hi = lo;
  while (hi < end && t->col[hi] < x) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > end)
    hi = end;
  return xmt_ttable_lower_bound(t, lo, hi, x);
}

/* The cells of pair p; keys is scratch of m entries. 0, or -1 when the
 * table lacks an entry (it was not built for this corpus). */
static int pair_cells(const struct shared *sh, size_t p, uint64_t *keys) {
  const struct xmt_aligner *a = sh->a;
  const struct xmt_ttable *t = sh->t;
  size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
  const uint32_t *e = a->ids[sh->es] + a->start[sh->es][p];
  const uint32_t *f = a->ids[sh->fs] + a->start[sh->fs][p];
  uint64_t first = sh->cell_start[p];
  for (size_t j = 0; j < m; j++)
    keys[j] = (uint64_t)f[j] << 32 | j;
  qsort(keys, m, sizeof *keys, cmp_u64);
  for (size_t i = 0; i <= n; i++) {
    uint32_t row = i == 0 ? XMT_NULL_WORD : e[i - 1];
    if (row >= t->rows)
      return -1;
    uint64_t lo = t->row_start[row], end = t->row_start[row + 1];
    for (size_t k = 0; k < m; k++) {
      uint32_t x = (uint32_t)(keys[k] >> 32);
      lo = gallop(t, lo, end, x);
      if (lo == end || t->col[lo] != x)
        return -1;
      uint64_t c = first + (keys[k] & 0xFFFFFFFFu) * (n + 1) + i;
      if (sh->narrow)
        sh->narrow[c] = (uint16_t)(lo - t->row_start[row]);
      else
        sh->cells[c] = (uint32_t)lo;
    }
  }
  return 0;
}

unsigned xmt_gibbs_thread_count(const struct xmt_gibbs_options *o) {
  long n = o->threads;
  if (n == 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1)
    n = 1;
  return n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

/* A share of the pairs whose cells one thread fills. */
struct cells_part {
  const struct shared *sh;
  size_t lo, hi;
  xmt_status st;
};

static void *fill_part(void *arg) {
  struct cells_part *part = arg;
  const struct shared *sh = part->sh;
  const struct xmt_aligner *a = sh->a;
  uint64_t *keys = malloc((sh->max_m ? sh->max_m : 1) * sizeof *keys);
  part->st = keys != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t p = part->lo; p < part->hi && part->st == XMT_OK; p++)
    if (pair_len(a, sh->es, p) && pair_len(a, sh->fs, p) &&
        pair_cells(sh, p, keys) != 0)
      part->st = XMT_ERR_INTERNAL;
  free(keys);
  return NULL;
}

/* Fills cells on the threads, each a contiguous share of the pairs. */
static xmt_status fill_cells(const struct shared *sh) {
  struct cells_part part[MAX_THREADS];
  pthread_t tid[MAX_THREADS];
  unsigned n = xmt_gibbs_thread_count(sh->o), started = 1;
  for (unsigned k = 0; k < n; k++) {
    part[k].sh = sh;
    part[k].lo = (size_t)((uint64_t)sh->pairs * k / n);
    part[k].hi = (size_t)((uint64_t)sh->pairs * (k + 1) / n);
    part[k].st = XMT_OK;
  }
  for (; started < n; started++)
    if (pthread_create(&tid[started], NULL, fill_part, &part[started]) != 0)
      break;
  for (unsigned k = started; k < n; k++) /* threads that did not start */
    fill_part(&part[k]);
  fill_part(&part[0]);
  for (unsigned k = 1; k < started; k++)
    pthread_join(tid[k], NULL);
  for (unsigned k = 0; k < n; k++)
    if (part[k].st != XMT_OK)
      return part[k].st;
  return XMT_OK;
}

/* Links each conditioning token to the next position of its word in its
 * pair (itself when it is the only one), so that a count that changes
 * refreshes the positions of its word without a look at the others. */
static xmt_status build_twins(struct shared *sh) {
  const struct xmt_aligner *a = sh->a;
  uint64_t tokens = a->start[sh->es][sh->pairs];
  sh->twin = xmt_mapped_calloc((size_t)(tokens ? tokens : 1), sizeof *sh->twin);
  uint64_t *order = malloc(((size_t)sh->max_n + 1) * sizeof *order);
  if (sh->twin == NULL || order == NULL) {
    free(order);
    return XMT_ERR_NOMEM;
  }
  for (size_t p = 0; p < sh->pairs; p++) {
    const uint32_t *e = a->ids[sh->es] + a->start[sh->es][p];
    uint32_t *twin = sh->twin + a->start[sh->es][p];
    size_t n = pair_len(a, sh->es, p);
    /* The positions sorted by word, then by position: each word's
     * positions in a row, the last one's twin its first. */
    for (size_t i = 0; i < n; i++)
      order[i] = (uint64_t)e[i] << 32 | i;
    qsort(order, n, sizeof *order, cmp_u64);
    for (size_t k = 0, first = 0; k < n; k++) {
      uint32_t i = (uint32_t)order[k];
      if (k + 1 < n && order[k + 1] >> 32 == order[k] >> 32) {
        twin[i] = (uint32_t)order[k + 1] + 1;
      } else {
        twin[i] = (uint32_t)order[first] + 1;
        first = k + 1;
      }
    }
  }
  free(order);
  return XMT_OK;
}

/* Sizes the cell arrays (narrow or cells, and acc) and fills them. */
xmt_status xmt_gibbs_build_cells(struct shared *sh) {
  const struct xmt_aligner *a = sh->a;
  if (sh->t->nnz > UINT32_MAX)
    return XMT_ERR_NOMEM; /* entries would not fit the cells */
  sh->cell_start = malloc((sh->pairs + 1) * sizeof *sh->cell_start);
  if (sh->cell_start == NULL)
    return XMT_ERR_NOMEM;
  uint64_t total = 0;
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
    sh->cell_start[p] = total;
    if (n == 0 || m == 0)
      continue;
    if (n > sh->max_n)
      sh->max_n = (uint32_t)n;
    if (m > sh->max_m)
      sh->max_m = (uint32_t)m;
    total += (uint64_t)m * (n + 1);
  }
  sh->cell_start[sh->pairs] = total;
  if (total == 0 || total > SIZE_MAX / sizeof(uint32_t))
    return total == 0 ? XMT_ERR_USAGE : XMT_ERR_NOMEM;
  const struct xmt_ttable *t = sh->t;
  uint64_t longest = 0;
  for (uint32_t e = 0; e < t->rows; e++)
    if (t->row_start[e + 1] - t->row_start[e] > longest)
      longest = t->row_start[e + 1] - t->row_start[e];
  if (longest <= NARROW_ROW)
    sh->narrow = xmt_mapped_calloc((size_t)total, sizeof *sh->narrow);
  else
    sh->cells = xmt_mapped_calloc((size_t)total, sizeof *sh->cells);
  sh->acc = xmt_mapped_calloc((size_t)total, sizeof *sh->acc);
  if ((sh->narrow == NULL && sh->cells == NULL) || sh->acc == NULL ||
      build_twins(sh) != XMT_OK)
    return XMT_ERR_NOMEM;
  sh->prefetch = sh->t->nnz >= PREFETCH_ENTRIES;
  return fill_cells(sh);
}

/* --- Priors: Dirichlet pseudo-counts per entry and per row --------------- */

/* row_mass of every row and, when prior links fall on table entries, base
 * of every entry. A link whose pair never co-occurs still weighs in its
 * row's mass, as the Dirichlet covers the whole vocabulary. */
xmt_status xmt_gibbs_build_priors(struct shared *sh,
                                  const struct xmt_prior_table *prior) {
  const struct xmt_ttable *t = sh->t;
  double nf = (double)sh->a->vocab[sh->fs].count - 1; /* NULL aside */
  sh->row_mass = malloc((size_t)sh->ne * sizeof *sh->row_mass);
  if (sh->row_mass == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t e = 0; e < sh->ne; e++)
    sh->row_mass[e] = row_alpha(sh, e) * (nf > 1 ? nf : 1);
  if (prior == NULL || prior->count == 0 || sh->o->prior_scale <= 0)
    return XMT_OK;
  sh->base = xmt_mapped_calloc((size_t)(t->nnz ? t->nnz : 1), sizeof *sh->base);
  if (sh->base == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t e = 0; e < t->rows; e++)
    for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++)
      sh->base[k] = (float)row_alpha(sh, e);
  for (size_t k = 0; k < prior->count; k++) {
    uint32_t e = sh->es == XMT_SRC ? prior->src[k] : prior->tgt[k];
    uint32_t f = sh->es == XMT_SRC ? prior->tgt[k] : prior->src[k];
    double w = (double)prior->w[k] * sh->o->prior_scale;
    /* a link to NULL on the predicted side is the other direction's; one
     * from NULL makes f likely to come from NULL (priors_scripts.c) */
    if (f == XMT_NULL_WORD || e >= sh->ne || !(w > 0))
      continue;
    sh->row_mass[e] += w;
    uint64_t entry = xmt_ttable_find(t, e, f);
    if (entry != XMT_NO_ENTRY)
      sh->base[entry] += (float)w;
  }
  return XMT_OK;
}
