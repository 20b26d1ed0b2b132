/* aligner_train.c -- EM training of the aligner, as fast_align does it
 * (Dyer, Chahuneau & Smith 2013): IBM Model 2 whose alignment distribution
 * is a diagonal prior with a learned tension, a NULL word with fixed
 * probability, and translation tables re-estimated by variational Bayes.
 *
 * Layout: the co-occurring word pairs of the corpus become a sparse table
 * (one sorted row per conditioning word; aligner_private.h); an E-step
 * walks the pairs in blocks spread over threads and adds expected counts
 * into one shared array, in fixed point so that additions commute and the
 * result is the same for any number of threads; the M-step turns counts
 * into probabilities row by row, also in parallel.
 *
 * The sparse tables themselves (their keys gathered, sorted and merged)
 * and the per-call scratch are built in aligner_ttable.c: this file is the
 * training loop, which fills them. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "priors_private.h"

/* Counts are integers in units of 2^-32 (a posterior rounds to that), the
 * per-pair diagonal feature sums in units of 2^-30. */
#define COUNT_ONE 4294967296.0
#define FEAT_ONE 1073741824.0
#define BLOCK 512 /* pairs a thread takes at a time */

/* --- The diagonal prior (fast_align's DiagonalAlignment) ------------------
 * j: 1-based position of the predicted word among m, i: of the conditioning
 * word among n. */

static double unnormalized(double j, double i, double m, double n, double t) {
  return exp(xmt_diag_feature(j, i, m, n) * t);
}

double xmt_diag_z(unsigned j, unsigned m, unsigned n, double t) {
  double split = (double)j * n / m;
  unsigned fl = (unsigned)split, ce = fl + 1;
  double ratio = exp(-t / n);
  /* Unsigned as in fast_align: xmt_diag_dlogz calls this with m and n
   * swapped, where fl may exceed n and num_top wraps around (the series
   * then sums to its limit). */
  unsigned num_top = n - fl;
  double top = 0, bottom = 0;
  if (num_top)
    top = unnormalized(j, ce, m, n, t) * (1.0 - pow(ratio, num_top)) /
          (1.0 - ratio);
  if (fl)
    bottom =
        unnormalized(j, fl, m, n, t) * (1.0 - pow(ratio, fl)) / (1.0 - ratio);
  return top + bottom;
}

/* Sum of (a1 + k d) g1 r^k for k = 0 .. n-1. */
static double arith_geom(double a1, double g1, double r, double d, unsigned n) {
  double g_np1 = g1 * pow(r, n), a_n = d * (n - 1) + a1, x1 = a1 * g1;
  double g2 = g1 * r, rm1 = r - 1;
  return (a_n * g_np1 - x1) / rm1 + d * (g_np1 - g2) / (rm1 * rm1);
}

/* d log Z / d tension: the model's expected feature at position j. As in
 * fast_align, Z comes from xmt_diag_z(j, n, m): m and n swapped. That is
 * what the published tensions and results were obtained with. */
double xmt_diag_dlogz(unsigned j, unsigned m, unsigned n, double t) {
  double z = xmt_diag_z(j, n, m, t);
  double split = (double)j * n / m;
  unsigned fl = (unsigned)split, ce = fl + 1;
  double ratio = exp(-t / n), d = -1.0 / n;
  unsigned num_top = n - fl;
  double pct = 0, pcb = 0;
  if (num_top)
    pct = arith_geom(xmt_diag_feature(j, ce, m, n),
                     unnormalized(j, ce, m, n, t), ratio, d, num_top);
  if (fl)
    pcb = arith_geom(xmt_diag_feature(j, fl, m, n),
                     unnormalized(j, fl, m, n, t), ratio, d, fl);
  return (pct + pcb) / z;
}

/* fast_align's digamma (asymptotic series after shifting x above 7). */
static double digamma(double x) {
  double r = 0;
  while (x < 7) {
    r -= 1 / x;
    x += 1;
  }
  x -= 0.5;
  double xx = 1.0 / x, xx2 = xx * xx, xx4 = xx2 * xx2;
  return r + log(x) + (1. / 24.) * xx2 - (7.0 / 960.0) * xx4 +
         (31.0 / 8064.0) * xx4 * xx2 - (127.0 / 30720.0) * xx4 * xx4;
}

/* --- One sentence pair ------------------------------------------------- */
struct model_view {
  const struct xmt_ttable *t;
  int uniform;
  int favor_diagonal;
  double p_null, tension;
};

/* The table entry of every cell of a sentence pair into s->cells: cell
 * (i, j) at j * (n + 1) + i, i = 0 for NULL. The predicted words are
 * visited in ascending id order, so each row is searched forward from the
 * last hit by galloping: a few probes near each other instead of a binary
 * search over the whole row per cell. */
static void lookup_cells(const struct xmt_ttable *t,
                         struct xmt_align_scratch *s, const uint32_t *e,
                         unsigned n, const uint32_t *f, unsigned m) {
  uint32_t *order = s->order;
  for (unsigned j = 0; j < m; j++) { /* insertion sort: m is small */
    unsigned k = j;
    while (k > 0 && f[order[k - 1]] > f[j]) {
      order[k] = order[k - 1];
      k--;
    }
    order[k] = j;
  }
  for (unsigned i = 0; i <= n; i++) {
    uint32_t w = i == 0 ? XMT_NULL_WORD : e[i - 1];
    uint64_t lo = w < t->rows ? t->row_start[w] : 0;
    uint64_t end = w < t->rows ? t->row_start[w + 1] : 0;
    for (unsigned k = 0; k < m; k++) {
      uint32_t x = f[order[k]];
      uint64_t step = 1, hi = lo;
      while (hi < end && t->col[hi] < x) { /* gallop */
        lo = hi + 1;
        hi += step;
        step *= 2;
      }
      if (hi > end)
        hi = end;
      while (lo < hi) { /* first col >= x in [lo, hi] */
        uint64_t mid = lo + (hi - lo) / 2;
        if (t->col[mid] < x)
          lo = mid + 1;
        else
          hi = mid;
      }
      s->cells[(size_t)order[k] * (n + 1) + i] =
          lo < end && t->col[lo] == x ? lo : XMT_NO_ENTRY;
    }
  }
}

/* The joint probability of f_j (0-based j of m) with each of NULL and
 * e_1..e_n into s->probs[0..n], from the table entries idx of its cells
 * (lookup_cells); returns their sum. uniform: every translation
 * probability is the same (the first iteration of training, as
 * fast_align). */
static double cell_probs(const struct model_view *v,
                         struct xmt_align_scratch *s, const uint64_t *idx,
                         unsigned n, unsigned j, unsigned m) {
  const struct xmt_ttable *t = v->t;
  double *probs = s->probs;
  for (unsigned i = 0; i <= n; i++)
    probs[i] = v->uniform || idx[i] == XMT_NO_ENTRY ? XMT_UNSEEN_PROB
                                                    : t->prob[idx[i]];
  double sum;
  if (!v->favor_diagonal) {
    double u = 1.0 / (n + 1);
    sum = 0;
    for (unsigned i = 0; i <= n; i++)
      sum += probs[i] *= u;
    return sum;
  }
  /* Prior of e_i: exp(-tension |i/n - (j+1)/m|) / Z, scaled to leave
   * p_null to NULL. Away from the diagonal each step multiplies it by
   * exp(-tension/n), so two exp() calls per word suffice. */
  unsigned jj = j + 1;
  double az = xmt_diag_z(jj, m, n, v->tension) / (1.0 - v->p_null);
  double split = (double)jj * n / m, ratio = exp(-v->tension / n);
  unsigned fl = (unsigned)split;
  sum = probs[0] *= v->p_null;
  if (fl + 1 <= n) {
    double u = unnormalized(jj, fl + 1, m, n, v->tension) / az;
    for (unsigned i = fl + 1; i <= n; i++, u *= ratio)
      sum += probs[i] *= u;
  }
  if (fl >= 1) {
    double u = unnormalized(jj, fl, m, n, v->tension) / az;
    for (unsigned i = fl; i >= 1; i--, u *= ratio)
      sum += probs[i] *= u;
  }
  return sum;
}

xmt_status xmt_aligner_viterbi(const struct xmt_aligner *a, int d,
                               struct xmt_align_scratch *s, const uint32_t *e,
                               size_t n, const uint32_t *f, size_t m,
                               xmt_alignment *out) {
  if (n > UINT32_MAX / 2 || m > UINT32_MAX / 2)
    return XMT_ERR_USAGE;
  xmt_status st = xmt_scratch_reserve(s, n, m);
  if (st != XMT_OK)
    return st;
  struct model_view v = {&a->dir[d].t, 0, a->opt.favor_diagonal,
                         a->opt.prob_align_null, a->dir[d].tension};
  lookup_cells(v.t, s, e, (unsigned)n, f, (unsigned)m);
  for (unsigned j = 0; j < m; j++) {
    cell_probs(&v, s, s->cells + (size_t)j * (n + 1), (unsigned)n, j,
               (unsigned)m);
    /* NULL first, then the first of equal maxima, as fast_align. */
    unsigned best = 0;
    for (unsigned i = 1; i <= n; i++)
      if (s->probs[i] > s->probs[best])
        best = i;
    if (best == 0)
      continue;
    st = d == XMT_FWD ? xmt_alignment_add(out, best - 1, j)
                      : xmt_alignment_add(out, j, best - 1);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* --- Threads ---------------------------------------------------------------
 */

struct pass;
struct worker {
  struct pass *p;
  unsigned id;
  struct xmt_align_scratch s;
  int64_t feat;  /* sum of the posterior diagonal feature, fixed point */
  uint64_t done; /* pairs done by this worker */
  int failed;
};

struct pass {
  struct xmt_aligner *a;
  int d, es, fs;
  struct model_view v;
  uint64_t *counts;
  int atomic;
  unsigned nthreads;
  size_t next; /* next block, taken atomically */
  int abort;
  xmt_progress_fn progress;
  void *user;
  unsigned iteration, iterations;
  struct timespec last;
  /* M-step */
  const double *prior; /* pseudo-counts from a seed model, or NULL */
  void (*job)(struct worker *w);
  struct worker *workers;
};

static void add_count(struct pass *p, uint64_t k, uint64_t c) {
  if (p->atomic)
    __atomic_fetch_add(&p->counts[k], c, __ATOMIC_RELAXED);
  else
    p->counts[k] += c;
}

/* Expected counts of one pair into p->counts; the posterior diagonal
 * feature into w->feat. */
static void estep_pair(struct pass *p, struct worker *w, size_t k) {
  const struct xmt_aligner *a = p->a;
  const uint32_t *e = a->ids[p->es] + a->start[p->es][k];
  const uint32_t *f = a->ids[p->fs] + a->start[p->fs][k];
  unsigned n = (unsigned)(a->start[p->es][k + 1] - a->start[p->es][k]);
  unsigned m = (unsigned)(a->start[p->fs][k + 1] - a->start[p->fs][k]);
  if (n == 0 || m == 0)
    return;
  /* grows only for a pair longer than any before */
  if (xmt_scratch_reserve(&w->s, n, m) != XMT_OK) {
    w->failed = 1;
    __atomic_store_n(&p->abort, 1, __ATOMIC_RELAXED);
    return;
  }
  double feat = 0;
  lookup_cells(p->v.t, &w->s, e, n, f, m);
  for (unsigned j = 0; j < m; j++) {
    const uint64_t *idx = w->s.cells + (size_t)j * (n + 1);
    double sum = cell_probs(&p->v, &w->s, idx, n, j, m);
    const double *probs = w->s.probs;
    add_count(p, idx[0], (uint64_t)(probs[0] / sum * COUNT_ONE + 0.5));
    for (unsigned i = 1; i <= n; i++) {
      double post = probs[i] / sum;
      add_count(p, idx[i], (uint64_t)(post * COUNT_ONE + 0.5));
      /* fast_align's empirical feature takes j 0-based here (1-based in
       * the prior); kept, as the tension it learns depends on it. */
      feat += xmt_diag_feature(j, i, m, n) * post;
    }
  }
  w->feat += (int64_t)llround(feat * FEAT_ONE);
}

static void estep_job(struct worker *w) {
  struct pass *p = w->p;
  size_t pairs = p->a->pairs, nblocks = (pairs + BLOCK - 1) / BLOCK;
  for (;;) {
    if (__atomic_load_n(&p->abort, __ATOMIC_RELAXED))
      return;
    size_t b = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
    if (b >= nblocks)
      return;
    size_t end = (b + 1) * BLOCK < pairs ? (b + 1) * BLOCK : pairs;
    for (size_t k = b * BLOCK; k < end; k++)
      estep_pair(p, w, k);
    __atomic_fetch_add(&w->done, end - b * BLOCK, __ATOMIC_RELAXED);
    /* Progress is reported from the calling thread only. */
    if (w->id == 0 && p->progress != NULL &&
        xmt_seconds_since(&p->last) > 0.2) {
      size_t done = 0;
      for (unsigned t = 0; t < p->nthreads; t++)
        done += __atomic_load_n(&p->workers[t].done, __ATOMIC_RELAXED);
      clock_gettime(CLOCK_MONOTONIC, &p->last);
      if (p->progress(p->user, p->iteration, p->iterations, done, pairs) != 0)
        __atomic_store_n(&p->abort, 1, __ATOMIC_RELAXED);
    }
  }
}

/* Rows [lo, hi) of the table: probabilities from counts, counts zeroed. */
static void mstep_rows(struct pass *p, uint32_t lo, uint32_t hi) {
  struct xmt_ttable *t = &p->a->dir[p->d].t;
  int vb = p->a->opt.variational_bayes;
  double alpha = p->a->opt.alpha;
  for (uint32_t e = lo; e < hi; e++) {
    uint64_t b = t->row_start[e], end = t->row_start[e + 1];
    double tot = 0;
    for (uint64_t k = b; k < end; k++) {
      double c = (double)p->counts[k] / COUNT_ONE;
      if (p->prior != NULL)
        c += p->prior[k];
      t->prob[k] = c; /* the count, until normalized below */
      tot += vb ? c + alpha : c;
    }
    if (tot == 0)
      tot = 1;
    double dtot = vb ? digamma(tot) : 0;
    for (uint64_t k = b; k < end; k++) {
      t->prob[k] =
          vb ? exp(digamma(t->prob[k] + alpha) - dtot) : t->prob[k] / tot;
      p->counts[k] = 0;
    }
  }
}

static void mstep_job(struct worker *w) {
  struct pass *p = w->p;
  uint32_t rows = p->a->dir[p->d].t.rows;
  const uint32_t chunk = 4096;
  for (;;) {
    size_t b = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
    if ((uint64_t)b * chunk >= rows)
      return;
    uint32_t lo = (uint32_t)b * chunk;
    mstep_rows(p, lo, rows - lo > chunk ? lo + chunk : rows);
  }
}

static void *thread_main(void *arg) {
  struct worker *w = arg;
  w->p->job(w);
  return NULL;
}

/* Runs p->job on p->nthreads workers, the calling thread being worker 0. */
static xmt_status run_parallel(struct pass *p) {
  pthread_t tid[256];
  unsigned started = 1;
  p->next = 0;
  for (; started < p->nthreads; started++)
    if (pthread_create(&tid[started], NULL, thread_main,
                       &p->workers[started]) != 0)
      break;
  /* A thread that could not start leaves its share to the others. */
  p->job(&p->workers[0]);
  for (unsigned t = 1; t < started; t++)
    pthread_join(tid[t], NULL);
  return XMT_OK;
}

/* --- Training ------------------------------------------------------------ */

struct size_count {
  uint32_t m, n; /* predicted and conditioning lengths */
  uint64_t count;
};

static int cmp_size(const void *x, const void *y) {
  const struct size_count *a = x, *b = y;
  if (a->m != b->m)
    return a->m < b->m ? -1 : 1;
  return a->n < b->n ? -1 : a->n > b->n;
}

/* Distinct (m, n) length pairs of direction d with their counts; the
 * number of predicted tokens and the mean length ratio. */
static xmt_status length_stats(const struct xmt_aligner *a, int d,
                               struct size_count **out, size_t *nout,
                               double *toks, double *ratio) {
  int es = d == XMT_FWD ? XMT_SRC : XMT_TGT, fs = 1 - es;
  struct size_count *sc = malloc((a->pairs ? a->pairs : 1) * sizeof *sc);
  if (sc == NULL)
    return XMT_ERR_NOMEM;
  size_t k = 0;
  double tot = 0, ratios = 0;
  for (size_t p = 0; p < a->pairs; p++) {
    uint64_t n = a->start[es][p + 1] - a->start[es][p];
    uint64_t m = a->start[fs][p + 1] - a->start[fs][p];
    if (n == 0 || m == 0)
      continue;
    sc[k].m = (uint32_t)m;
    sc[k].n = (uint32_t)n;
    sc[k++].count = 1;
    tot += (double)m;
    ratios += (double)m / (double)n;
  }
  *toks = tot;
  *ratio = k ? ratios / (double)k : 1.0;
  qsort(sc, k, sizeof *sc, cmp_size);
  size_t u = 0;
  for (size_t i = 0; i < k; i++) {
    if (u > 0 && sc[u - 1].m == sc[i].m && sc[u - 1].n == sc[i].n)
      sc[u - 1].count++;
    else
      sc[u++] = sc[i];
  }
  *out = sc;
  *nout = u;
  return XMT_OK;
}

/* fast_align's tension update: 8 gradient steps matching the model's
 * expected diagonal feature to the posterior one. */
static double update_tension(double tension, double emp_feat,
                             const struct size_count *sc, size_t nsc,
                             double toks) {
  for (int step = 0; step < 8; step++) {
    double mod_feat = 0;
    for (size_t k = 0; k < nsc; k++)
      for (uint32_t j = 1; j <= sc[k].m; j++)
        mod_feat +=
            (double)sc[k].count * xmt_diag_dlogz(j, sc[k].m, sc[k].n, tension);
    mod_feat /= toks;
    tension += (emp_feat - mod_feat) * 20.0;
    if (tension <= 0.1)
      tension = 0.1;
    if (tension > 14)
      tension = 14;
  }
  return tension;
}

/* Seeding from the model the aligner had: its probabilities start the
 * first iteration (entries it lacks get a uniform share of their row) and
 * seed_weight times them are pseudo-counts at every M-step. */
static xmt_status apply_seed(struct xmt_ttable *t, const struct xmt_ttable *old,
                             double weight, double **prior) {
  *prior = malloc((size_t)(t->nnz ? t->nnz : 1) * sizeof **prior);
  if (*prior == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t e = 0; e < t->rows; e++) {
    uint64_t b = t->row_start[e], end = t->row_start[e + 1];
    for (uint64_t k = b; k < end; k++) {
      uint64_t o = xmt_ttable_find(old, e, t->col[k]);
      double p = o != XMT_NO_ENTRY ? old->prob[o] : 0;
      /* the links the model counted, else its probabilities */
      (*prior)[k] =
          weight *
          (old->count != NULL && o != XMT_NO_ENTRY ? old->count[o] : p);
      t->prob[k] = o != XMT_NO_ENTRY ? p : 1.0 / (double)(end - b);
    }
  }
  return XMT_OK;
}

/* The prior links as pseudo-counts of the entries of direction d's table,
 * added to *prior (allocated, zeroed, when NULL). */
static xmt_status add_prior_links(const struct xmt_ttable *t, int d,
                                  const struct xmt_prior_table *links,
                                  double **prior) {
  if (*prior == NULL &&
      (*prior = calloc((size_t)(t->nnz ? t->nnz : 1), sizeof **prior)) == NULL)
    return XMT_ERR_NOMEM;
  for (size_t k = 0; k < links->count; k++) {
    uint32_t e = d == XMT_FWD ? links->src[k] : links->tgt[k];
    uint32_t f = d == XMT_FWD ? links->tgt[k] : links->src[k];
    if (e == XMT_NULL_WORD || f == XMT_NULL_WORD)
      continue; /* links to NULL are the Bayesian model's: they measured
                   worse here */
    uint64_t at = xmt_ttable_find(t, e, f);
    if (at != XMT_NO_ENTRY)
      (*prior)[at] += links->w[k];
  }
  return XMT_OK;
}

static unsigned thread_count(const struct xmt_aligner *a) {
  long n = a->opt.threads;
  if (n == 0)
    n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1)
    n = 1;
  if (n > 256)
    n = 256;
  size_t blocks = (a->pairs + BLOCK - 1) / BLOCK;
  if ((size_t)n > blocks)
    n = blocks ? (long)blocks : 1;
  return (unsigned)n;
}

static xmt_status train_direction(struct xmt_aligner *a, int d,
                                  struct xmt_direction *out, uint64_t *counts,
                                  struct worker *workers, unsigned nthreads,
                                  xmt_progress_fn progress, void *user) {
  struct pass p;
  memset(&p, 0, sizeof p);
  p.a = a;
  p.d = d;
  p.es = d == XMT_FWD ? XMT_SRC : XMT_TGT;
  p.fs = 1 - p.es;
  p.counts = counts;
  p.nthreads = nthreads;
  p.atomic = nthreads > 1;
  p.progress = progress;
  p.user = user;
  p.workers = workers;
  for (unsigned t = 0; t < nthreads; t++)
    workers[t].p = &p;
  unsigned em = a->opt.iterations - 1;
  p.iterations = 2 * em;
  clock_gettime(CLOCK_MONOTONIC, &p.last);

  struct size_count *sc = NULL;
  size_t nsc = 0;
  double toks = 0;
  xmt_status st = length_stats(a, d, &sc, &nsc, &toks, &out->mean_len_ratio);
  if (st != XMT_OK)
    return st;
  double *prior = NULL;
  int seeded = a->trained;
  if (seeded)
    st = apply_seed(&out->t, &a->dir[d].t, a->opt.seed_weight, &prior);
  if (st == XMT_OK && a->prior.count > 0)
    st = add_prior_links(&out->t, d, &a->prior, &prior);
  p.prior = prior;
  p.v.t = &out->t;
  p.v.favor_diagonal = a->opt.favor_diagonal;
  p.v.p_null = a->opt.prob_align_null;
  out->tension = seeded ? a->dir[d].tension : a->opt.tension;
  /* The table being trained replaces the aligner's only at the end, so
   * the M-step works on a temporary direction. */
  struct xmt_direction saved = a->dir[d];
  a->dir[d] = *out;
  for (unsigned it = 0; it < em && st == XMT_OK; it++) {
    p.iteration = d * em + it + 1;
    p.v.uniform = it == 0 && !seeded;
    p.v.tension = a->dir[d].tension;
    for (unsigned t = 0; t < nthreads; t++)
      workers[t].feat = 0, workers[t].done = 0;
    p.job = estep_job;
    run_parallel(&p);
    for (unsigned t = 0; t < nthreads; t++)
      if (workers[t].failed)
        st = XMT_ERR_NOMEM;
    if (st == XMT_OK && p.abort)
      st = XMT_ERR_ABORTED;
    if (st != XMT_OK)
      break;
    int64_t feat = 0;
    for (unsigned t = 0; t < nthreads; t++)
      feat += workers[t].feat;
    double emp_feat = (double)feat / FEAT_ONE / toks;
    if (a->opt.favor_diagonal && a->opt.optimize_tension && it > 0)
      a->dir[d].tension =
          update_tension(a->dir[d].tension, emp_feat, sc, nsc, toks);
    p.job = mstep_job;
    run_parallel(&p);
    if (progress != NULL &&
        progress(user, p.iteration, p.iterations, a->pairs, a->pairs) != 0)
      st = XMT_ERR_ABORTED;
  }
  *out = a->dir[d];
  a->dir[d] = saved;
  free(prior);
  free(sc);
  return st;
}

/* Makes the trained directions (and sampled links) the aligner's model,
 * the link counts of the pairs added to those of the model it replaces. */
static xmt_status install(struct xmt_aligner *a, struct xmt_direction *dir,
                          uint32_t **links) {
  struct xmt_ttable old[2];
  int seeded = a->trained;
  for (int d = 0; d < 2; d++) {
    old[d] = a->dir[d].t;
    a->dir[d] = dir[d];
    free(a->pair_links[d]);
    a->pair_links[d] = links[d];
  }
  a->trained = 1;
  a->empty_model = 0;
  if (!seeded) {
    xmt_ttable_free(&old[0]);
    xmt_ttable_free(&old[1]);
  }
  xmt_status st = xmt_aligner_grow(a, seeded ? old : NULL);
  for (int s = 0; s < 2 && st == XMT_OK; s++)
    if (a->model_lang[s] == NULL && a->lang[s] != NULL &&
        (a->model_lang[s] = xmt_strdup(a->lang[s])) == NULL)
      st = XMT_ERR_NOMEM;
  if (st != XMT_OK)
    return xmt_error_set(&a->err, st, "cannot count the links: %s",
                         xmt_strerror(st));
  return XMT_OK;
}

/* The prior links of the vocabularies as they are now, and their
 * summary. */
static xmt_status build_priors(struct xmt_aligner *a) {
  xmt_prior_table_free(&a->prior);
  free(a->prior_summary);
  a->prior_summary = NULL;
  if (a->ndicts == 0 && !a->opt.string_priors)
    return XMT_OK;
  struct xmt_prior_options po;
  xmt_prior_options_init(&po);
  po.source_lang = a->lang[XMT_SRC];
  po.target_lang = a->lang[XMT_TGT];
  po.dictionaries = (const char *const *)a->dicts;
  po.ndictionaries = a->ndicts;
  po.read = a->read_dicts;
  po.threads = a->opt.threads;
  po.kept = a->lexicon;
  if (!a->opt.string_priors)
    po.identical_weight = po.cognate_weight = 0;
  struct xmt_prior_stats ps;
  memset(&ps, 0, sizeof ps);
  xmt_status st = xmt_priors_build(&a->prior, &a->vocab[XMT_SRC],
                                   &a->vocab[XMT_TGT], &po, &ps, &a->err);
  if (st != XMT_OK)
    return st;
  struct xmt_buf b = {NULL, 0, 0};
  char line[256];
  snprintf(line, sizeof line,
           "; links: %zu dictionary, %zu identical, %zu cognate",
           ps.dictionary_links, ps.identical_links, ps.cognate_links);
  st = xmt_buf_append_str(&b, "dictionaries: ");
  if (st == XMT_OK)
    st = xmt_buf_append_str(&b, ps.dictionaries_loaded ? ps.loaded : "none");
  if (st == XMT_OK)
    st = xmt_buf_append_str(&b, line);
  if (st != XMT_OK) {
    xmt_buf_free(&b);
    return xmt_error_set(&a->err, st, "out of memory");
  }
  a->prior_summary = b.data;
  return XMT_OK;
}

/* The Bayesian model: both directions sampled, their links kept for
 * xmt_aligner_align_pair and their tables for unseen text. */
static xmt_status train_bayes(struct xmt_aligner *a, xmt_progress_fn progress,
                              void *user) {
  struct xmt_gibbs_options go;
  xmt_gibbs_options_init(&go);
  go.threads = a->opt.threads;
  go.null_prob = a->opt.null_prior;
  go.null_alpha = a->opt.null_alpha;
  go.null_mass = a->opt.null_mass;
  struct xmt_direction dir[2];
  uint32_t *links[2] = {NULL, NULL};
  memset(dir, 0, sizeof dir);
  struct xmt_prior_table seeded, *prior = &a->prior;
  memset(&seeded, 0, sizeof seeded);
  xmt_status st = XMT_OK;
  if (a->trained) {
    st = xmt_aligner_seed_prior(a, &seeded);
    prior = &seeded;
  }
  for (int d = 0; d < 2 && st == XMT_OK; d++) {
    int fs = d == XMT_FWD ? XMT_TGT : XMT_SRC;
    struct size_count *sc = NULL;
    size_t nsc = 0;
    double toks = 0;
    st = length_stats(a, d, &sc, &nsc, &toks, &dir[d].mean_len_ratio);
    free(sc);
    dir[d].tension = a->opt.tension;
    if (st == XMT_OK)
      st = xmt_ttable_build(a, d, &dir[d].t);
    if (st == XMT_OK &&
        (links[d] = calloc((size_t)(a->nids[fs] ? a->nids[fs] : 1),
                           sizeof *links[d])) == NULL)
      st = XMT_ERR_NOMEM;
    if (st == XMT_OK)
      st = xmt_gibbs_align(a, d, prior->count ? prior : NULL, &go, links[d],
                           &dir[d].t, progress, user);
  }
  xmt_prior_table_free(&seeded);
  if (st != XMT_OK) {
    for (int d = 0; d < 2; d++) {
      xmt_ttable_free(&dir[d].t);
      free(links[d]);
    }
    if (st == XMT_ERR_ABORTED)
      return xmt_error_set(&a->err, st,
                           "training aborted by the progress callback");
    return xmt_error_set(&a->err, st, "cannot train: %s", xmt_strerror(st));
  }
  return install(a, dir, links);
}

xmt_status xmt_aligner_train(xmt_aligner *a, xmt_progress_fn progress,
                             void *user) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  size_t usable = 0;
  size_t maxlen = 0;
  for (size_t k = 0; k < a->pairs; k++) {
    uint64_t n = a->start[XMT_SRC][k + 1] - a->start[XMT_SRC][k];
    uint64_t m = a->start[XMT_TGT][k + 1] - a->start[XMT_TGT][k];
    if (n > 0 && m > 0)
      usable++;
    if (n > maxlen)
      maxlen = (size_t)n;
    if (m > maxlen)
      maxlen = (size_t)m;
  }
  if (usable == 0)
    return xmt_error_set(&a->err, XMT_ERR_USAGE,
                         "nothing to train on: no pair has words on both "
                         "sides");
  if (maxlen > UINT32_MAX / 2)
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "a sentence is too long");
  xmt_status pst = xmt_aligner_check_languages(a, NULL);
  if (pst == XMT_OK)
    pst = build_priors(a);
  if (pst != XMT_OK)
    return pst;
  if (a->opt.model == XMT_MODEL_BAYES)
    return train_bayes(a, progress, user);
  unsigned nthreads = thread_count(a);
  struct worker *workers = calloc(nthreads, sizeof *workers);
  struct xmt_direction dir[2];
  memset(dir, 0, sizeof dir);
  uint64_t *counts = NULL;
  xmt_status st = workers != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (unsigned t = 0; t < nthreads && st == XMT_OK; t++)
    workers[t].id = t;
  for (int d = 0; d < 2 && st == XMT_OK; d++) {
    st = xmt_ttable_build(a, d, &dir[d].t);
    if (st != XMT_OK)
      break;
    free(counts);
    counts = calloc((size_t)(dir[d].t.nnz ? dir[d].t.nnz : 1), sizeof *counts);
    if (counts == NULL) {
      st = XMT_ERR_NOMEM;
      break;
    }
    st = train_direction(a, d, &dir[d], counts, workers, nthreads, progress,
                         user);
  }
  free(counts);
  if (workers != NULL)
    for (unsigned t = 0; t < nthreads; t++)
      xmt_scratch_free(&workers[t].s);
  free(workers);
  if (st != XMT_OK) {
    xmt_ttable_free(&dir[0].t);
    xmt_ttable_free(&dir[1].t);
    if (st == XMT_ERR_ABORTED)
      return xmt_error_set(&a->err, st,
                           "training aborted by the progress callback");
    return xmt_error_set(&a->err, st, "cannot train: %s", xmt_strerror(st));
  }
  uint32_t *no_links[2] = {NULL, NULL};
  return install(a, dir, no_links);
}
