/* aligner_gibbs.c -- word alignment by collapsed Gibbs sampling (the eflomal
 * class, Ostling & Tiedemann 2016): IBM1, then HMM jumps, then fertility.
 *
 * One direction: each predicted token f_j has a link a_j, 0 for NULL or the
 * 1-based position of a conditioning word. The lexical distributions
 * p(f | e) (NULL's row among them), the jump distribution and the per-word
 * fertility distributions have Dirichlet priors and are integrated out, so
 * a sweep resamples each a_j from the counts of all the other links. A
 * NULL link has the fixed prior probability null_prob; the NULL word's
 * row has the pseudo-count null_alpha per entry, lowered so that they
 * add up to at most null_mass (a large vocabulary would otherwise make
 * the row flat, a NULL word that cannot learn its articles and
 * prepositions, which rare words then take). Jumps go between
 * the positions of successive non-NULL links, from position 0 (the start)
 * to n + 1 (the end), normalised over the positions of the sentence.
 * Fertility multiplies a word's weight by p(phi + 1) / p(phi) of its type.
 * Chains start from diagonal links.
 *
 * Several samplers (independent chains, each with its own generator seeded
 * from seed + index) run on threads; each adds its sampling distributions
 * of the last sweeps into one array of fixed-point marginals per cell, so
 * the sums are the same whatever the threads. Links are the argmax of the
 * marginals, the table p(f | e) their expected counts plus the priors.
 *
 * Layout: the table entry of every (token, candidate) cell of the corpus
 * is looked up once (cells), and each sampler's lexical counts are a flat
 * array indexed by table entry. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aligner_private.h"
#include "gibbs_private.h"

/* Jumps further than this share the last bucket. */
#define JUMP_MAX 1023
#define JUMP_BUCKETS (2 * JUMP_MAX + 1)
/* Fertilities 0 .. FERT_MAX - 1 have their own bucket; more share the
 * last, and growing a fertility beyond it costs FERT_TAIL. */
#define FERT_MAX 8
#define FERT_TAIL 1e-3
/* Cells below which the samplers run one after the other on the calling
 * thread: a short text (a server's request) trains in milliseconds, and
 * threads sharing its marginals cost more than they save (a tenth of a
 * server's time on tagged requests). The links are the same. */
#define THREADED_CELLS (1u << 15)
/* Pairs between two looks at the abort flag and the clock. */
#define BLOCK 64
/* The share of the last stage's sweeps whose marginals are averaged. */
#define ACCUMULATE_FRACTION 0.25

enum { STAGE_IBM1 = 0, STAGE_HMM = 1, STAGE_FERT = 2 };

void xmt_gibbs_options_init(struct xmt_gibbs_options *o) {
  memset(o, 0, sizeof *o);
  o->samplers = 3;
  o->iterations[STAGE_IBM1] = 12;
  o->iterations[STAGE_HMM] = 12;
  o->iterations[STAGE_FERT] = 36;
  o->threads = 0;
  o->seed = 0x5eed;
  o->lex_alpha = 0.0001;
  o->null_alpha = 10.0;
  o->null_mass = 300;
  o->null_prob = 0.1;
  o->jump_alpha = 0.5;
  o->fert_alpha = 0.5;
  o->prior_scale = 1.0;
}

/* --- Random numbers: xorshift64*, seeded through splitmix64 -------------- */

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15u;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
  return x ^ (x >> 31);
}

static uint64_t rng_next(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1Du;
}

/* Uniform in [0, 1). */
static double rng_uniform(uint64_t *s) {
  return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* --- State ------------------------------------------------------------- */

/* struct shared: gibbs_private.h. */

struct sampler {
  const struct shared *sh;
  unsigned index;
  uint64_t rng;
  uint32_t *link;  /* of each predicted token, by its index in ids[fs] */
  uint32_t *lex;   /* count of each table entry */
  uint32_t *count; /* links of each conditioning word (row) */
  double *inv;     /* 1 / (count + row mass) of each row */
  uint32_t *fert;  /* words of each type by fertility bucket */
  double jump[JUMP_BUCKETS]; /* counts + jump_alpha */
  /* One pair's scratch. */
  double *w;       /* max_n + 1 */
  double *g;       /* word_factor of each position, max_n + 1 */
  uint32_t *phi;   /* fertilities, max_n + 1 */
  uint32_t *nxt;   /* nearest linked position to the right, max_m */
  uint32_t *rs;    /* row_starts of the pair, max_n + 1 */
  uint32_t *ahead; /* of the next pair, to prefetch its first token */
};

/* --- Counts --------------------------------------------------------------- */

static void sampler_free(struct sampler *s) {
  free(s->link);
  xmt_mapped_free(s->lex);
  free(s->count);
  free(s->inv);
  free(s->fert);
  free(s->w);
  free(s->g);
  free(s->phi);
  free(s->nxt);
  free(s->rs);
  free(s->ahead);
  memset(s, 0, sizeof *s);
}

static xmt_status sampler_alloc(struct sampler *s, const struct shared *sh,
                                unsigned index) {
  const struct xmt_aligner *a = sh->a;
  memset(s, 0, sizeof *s);
  s->sh = sh;
  s->index = index;
  s->rng = splitmix64(sh->o->seed + index) | 1; /* never 0 */
  s->link =
      calloc((size_t)(a->nids[sh->fs] ? a->nids[sh->fs] : 1), sizeof *s->link);
  s->lex =
      xmt_mapped_calloc((size_t)(sh->t->nnz ? sh->t->nnz : 1), sizeof *s->lex);
  s->count = calloc(sh->ne, sizeof *s->count);
  s->inv = malloc(sh->ne * sizeof *s->inv);
  s->w = malloc(((size_t)sh->max_n + 1) * sizeof *s->w);
  s->g = malloc(((size_t)sh->max_n + 1) * sizeof *s->g);
  s->phi = malloc(((size_t)sh->max_n + 1) * sizeof *s->phi);
  s->nxt = malloc(((size_t)sh->max_m + 1) * sizeof *s->nxt);
  s->rs = malloc(((size_t)sh->max_n + 1) * sizeof *s->rs);
  s->ahead = malloc(((size_t)sh->max_n + 1) * sizeof *s->ahead);
  if (s->link && s->lex && s->count && s->inv && s->w && s->g && s->phi &&
      s->nxt && s->rs && s->ahead)
    return XMT_OK;
  sampler_free(s);
  return XMT_ERR_NOMEM;
}

static void set_inv(struct sampler *s, uint32_t e) {
  s->inv[e] = 1.0 / ((double)s->count[e] + s->sh->row_mass[e]);
}

/* Links on the diagonal, and their lexical counts. Where the words say
 * nothing (words that always come together) the sampler keeps links that
 * need no unusual jump; from random links it would settle on whatever
 * permutation came first, as leaving it takes several unlikely steps. */
static void init_links(struct sampler *s) {
  const struct shared *sh = s->sh;
  const struct xmt_aligner *a = sh->a;
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
    if (n == 0 || m == 0)
      continue;
    uint32_t *link = s->link + a->start[sh->fs][p];
    const uint32_t *e = a->ids[sh->es] + a->start[sh->es][p];
    uint64_t first = sh->cell_start[p];
    if (sh->narrow)
      row_starts(sh, p, n, s->rs);
    for (size_t j = 0; j < m; j++) {
      uint32_t i = (uint32_t)(((double)j + 0.5) * (double)n / (double)m);
      link[j] = i + 1;
      s->lex[cell_entry(sh, s->rs, first + j * (n + 1) + i + 1, i + 1)]++;
      s->count[e[i]]++;
    }
  }
  for (uint32_t e = 0; e < sh->ne; e++)
    set_inv(s, e);
}

static size_t jump_bucket(int64_t d) {
  if (d < -JUMP_MAX)
    d = -JUMP_MAX;
  if (d > JUMP_MAX)
    d = JUMP_MAX;
  return (size_t)(d + JUMP_MAX);
}

static void add_jump(struct sampler *s, int64_t d, double c) {
  s->jump[jump_bucket(d)] += c;
}

/* The jump counts of the current links: from the start (position 0) to
 * the first linked position, between linked positions, from the last to
 * the end (n + 1). NULL links do not jump. */
static void init_jumps(struct sampler *s) {
  const struct shared *sh = s->sh;
  const struct xmt_aligner *a = sh->a;
  for (size_t b = 0; b < JUMP_BUCKETS; b++)
    s->jump[b] = sh->o->jump_alpha;
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
    if (n == 0 || m == 0)
      continue;
    const uint32_t *link = s->link + a->start[sh->fs][p];
    int64_t prev = 0;
    for (size_t j = 0; j < m; j++)
      if (link[j] != 0) {
        add_jump(s, (int64_t)link[j] - prev, 1);
        prev = link[j];
      }
    add_jump(s, (int64_t)n + 1 - prev, 1);
  }
}

static size_t fert_index(uint32_t e, uint32_t phi) {
  return (size_t)e * FERT_MAX + (phi < FERT_MAX ? phi : FERT_MAX - 1);
}

/* Words of each type by fertility under the current links. */
static xmt_status init_fert(struct sampler *s) {
  const struct shared *sh = s->sh;
  const struct xmt_aligner *a = sh->a;
  if (s->fert == NULL &&
      (s->fert = malloc((size_t)sh->ne * FERT_MAX * sizeof *s->fert)) == NULL)
    return XMT_ERR_NOMEM;
  memset(s->fert, 0, (size_t)sh->ne * FERT_MAX * sizeof *s->fert);
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
    if (n == 0 || m == 0)
      continue;
    const uint32_t *link = s->link + a->start[sh->fs][p];
    const uint32_t *e = a->ids[sh->es] + a->start[sh->es][p];
    memset(s->phi, 0, (n + 1) * sizeof *s->phi);
    for (size_t j = 0; j < m; j++)
      s->phi[link[j]]++;
    for (size_t i = 1; i <= n; i++)
      s->fert[fert_index(e[i - 1], s->phi[i])]++;
  }
  return XMT_OK;
}

/* --- Sampling one token ------------------------------------------------------
 * A view of the pair being swept. */
struct pair_view {
  const uint32_t *e;    /* conditioning words */
  const uint32_t *twin; /* their twins (struct shared) */
  uint32_t n, m;        /* conditioning and predicted lengths */
  int stage;
  uint32_t j;          /* the token, 0-based */
  uint32_t prev, next; /* nearest linked positions left and right of j */
};

/* Moves word i's fertility by delta (+1 or -1) in the counts. */
static void move_fert(struct sampler *s, const struct pair_view *v, uint32_t i,
                      int delta) {
  uint32_t e = v->e[i - 1], phi = s->phi[i];
  uint32_t to = delta > 0 ? phi + 1 : phi - 1;
  s->fert[fert_index(e, phi)]--;
  s->fert[fert_index(e, to)]++;
  s->phi[i] = to;
}

/* The ratio p(fertility phi + 1) / p(phi) of word i, whose own count is
 * left out of its type's counts. */
static double fert_ratio(const struct sampler *s, const struct pair_view *v,
                         uint32_t i) {
  uint32_t e = v->e[i - 1], phi = s->phi[i];
  size_t now = fert_index(e, phi), up = fert_index(e, phi + 1);
  if (up == now)
    return FERT_TAIL;
  double alpha = s->sh->o->fert_alpha;
  return ((double)s->fert[up] + alpha) / ((double)s->fert[now] - 1 + alpha);
}

/* The factor of position i that only changes with the counts of its word:
 * 1 / (links + mass) of its row, times its fertility ratio. Cached in g,
 * as only the two words whose link a token leaves and takes change. */
static double word_factor(const struct sampler *s, const struct pair_view *v,
                          uint32_t i) {
  if (i == 0)
    return s->inv[XMT_NULL_WORD];
  double g = s->inv[v->e[i - 1]];
  return v->stage == STAGE_FERT ? g * fert_ratio(s, v, i) : g;
}

/* The cached factors of the positions of the word at position i (NULL:
 * position 0), found through their twins. */
static void refresh(struct sampler *s, const struct pair_view *v, uint32_t i) {
  uint32_t k = i;
  do {
    s->g[k] = word_factor(s, v, k);
    k = k == 0 ? 0 : v->twin[k - 1];
  } while (k != i);
}

/* Adds (c = +1) or removes (c = -1) link i of a token whose cells start
 * at cell k. */
static void update(struct sampler *s, const struct pair_view *v, uint64_t k,
                   uint32_t i, int c) {
  uint32_t e = i == 0 ? XMT_NULL_WORD : v->e[i - 1];
  s->lex[cell_entry(s->sh, s->rs, k + i, i)] += (uint32_t)c;
  s->count[e] += (uint32_t)c;
  set_inv(s, e);
  if (v->stage >= STAGE_HMM) {
    if (i == 0) {
      add_jump(s, (int64_t)v->next - v->prev, c);
    } else {
      add_jump(s, (int64_t)i - v->prev, c);
      add_jump(s, (int64_t)v->next - i, c);
    }
  }
  if (v->stage >= STAGE_FERT && i != 0)
    move_fert(s, v, i, c);
  refresh(s, v, i);
}

/* w[i] = p(f | e_i) for NULL and each word, collapsed, of the token
 * whose cells start at cell k; returns the sum of w[1..n]. */
static double lex_weights(const struct sampler *s, const struct pair_view *v,
                          uint64_t k) {
  const struct shared *sh = s->sh;
  const float *base = sh->base;
  const uint32_t *lex = s->lex, *rs = s->rs;
  const double *g = s->g;
  double *w = s->w, alpha = sh->o->lex_alpha, sum = 0;
  uint32_t c0 = cell_entry(sh, rs, k, 0);
  w[0] = ((double)lex[c0] + (base ? base[c0] : sh->null_alpha)) * g[0];
  if (sh->narrow) { /* the same sums, the entries found from their rows */
    const uint16_t *narrow = sh->narrow + k;
    for (uint32_t i = 1; i <= v->n; i++) {
      uint32_t c = rs[i] + narrow[i];
      sum += w[i] = ((double)lex[c] + (base ? base[c] : alpha)) * g[i];
    }
    return sum;
  }
  const uint32_t *cells = sh->cells + k;
  for (uint32_t i = 1; i <= v->n; i++)
    sum += w[i] =
        ((double)lex[cells[i]] + (base ? base[cells[i]] : alpha)) * g[i];
  return sum;
}

static double jump_at(const double *jump, int64_t d) {
  return jump[jump_bucket(d)];
}

/* The weights of the stage into w; returns their sum. IBM1: each word
 * (1 - null_prob) / n, scaled by n / (1 - null_prob). Jumps: from position
 * p the next linked position is one of 1 .. n + 1 (n + 1: the end), with
 * probability c(d) / Z(p), Z(p) the sum of the counts c of the jumps that
 * stay in the sentence. Linking to i replaces the jump prev -> next by
 * prev -> i -> next: the word weighs c(i - prev) c(next - i) / Z(i), NULL
 * c(next - prev), both scaled by Z(prev). The window slides:
 * Z(i + 1) = Z(i) + c(-i) - c(n + 1 - i). */
static double weights(const struct sampler *s, const struct pair_view *v,
                      uint64_t k) {
  double np = s->sh->o->null_prob, *w = s->w, odds = np / (1 - np);
  double sum = lex_weights(s, v, k);
  if (v->stage == STAGE_IBM1) {
    w[0] *= odds * v->n;
    return sum + w[0];
  }
  const double *jump = s->jump;
  int64_t p = v->prev, q = v->next, n = v->n;
  w[0] *= odds * jump_at(jump, q - p);
  sum = w[0];
  double z = 0;
  if (n < JUMP_MAX) { /* the jumps stay in -n .. n + 1: no clamping */
    const double *c = jump + JUMP_MAX;
    for (int64_t d = 0; d <= n; d++)
      z += c[d];
    for (int64_t i = 1; i <= n; i++) {
      sum += w[i] *= c[i - p] * c[q - i] / z;
      z += c[-i] - c[n + 1 - i];
    }
    return sum;
  }
  for (int64_t d = 0; d <= n; d++)
    z += jump_at(jump, d);
  for (int64_t i = 1; i <= n; i++) {
    sum += w[i] *= jump_at(jump, i - p) * jump_at(jump, q - i) / z;
    z += jump_at(jump, -i) - jump_at(jump, n + 1 - i);
  }
  return sum;
}

static uint32_t draw(struct sampler *s, uint32_t n, double sum) {
  double u = rng_uniform(&s->rng) * sum;
  for (uint32_t i = 0; i < n; i++) {
    u -= s->w[i];
    if (u < 0)
      return i;
  }
  return n;
}

/* Adds the sampling distribution w / sum to the marginals at acc. */
static void accumulate(const struct sampler *s, uint32_t *acc, uint32_t n,
                       double sum) {
  double scale = s->sh->acc_scale / sum;
  if (s->sh->atomic) {
    for (uint32_t i = 0; i <= n; i++)
      __atomic_fetch_add(&acc[i], (uint32_t)(s->w[i] * scale),
                         __ATOMIC_RELAXED);
  } else {
    for (uint32_t i = 0; i <= n; i++)
      acc[i] += (uint32_t)(s->w[i] * scale);
  }
}

/* Nearest linked position right of each token (n + 1: none). */
static void next_links(struct sampler *s, const uint32_t *link, size_t m,
                       uint32_t n) {
  uint32_t next = n + 1;
  for (size_t j = m; j-- > 0;) {
    s->nxt[j] = next;
    if (link[j] != 0)
      next = link[j];
  }
}

/* Asks the cache, a token ahead, for the counts of the n + 1 cells from
 * cell k (row starts rs), read at random in tables larger than it.
 * Changes no result. */
static void prefetch_cells(const struct sampler *s, uint64_t k,
                           const uint32_t *rs, uint32_t n) {
  for (uint32_t i = 0; i <= n; i++) {
    uint32_t c = cell_entry(s->sh, rs, k + i, i);
    __builtin_prefetch(&s->lex[c], 1, 1);
    if (s->sh->base)
      __builtin_prefetch(&s->sh->base[c], 0, 1);
  }
}

static void sample_pair(struct sampler *s, size_t p, int stage, int acc) {
  const struct shared *sh = s->sh;
  const struct xmt_aligner *a = sh->a;
  size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
  if (n == 0 || m == 0)
    return;
  struct pair_view v = {a->ids[sh->es] + a->start[sh->es][p],
                        sh->twin + a->start[sh->es][p],
                        (uint32_t)n,
                        (uint32_t)m,
                        stage,
                        0,
                        0,
                        0};
  uint32_t *link = s->link + a->start[sh->fs][p];
  if (sh->narrow)
    row_starts(sh, p, n, s->rs);
  if (stage >= STAGE_HMM)
    next_links(s, link, m, v.n);
  if (stage >= STAGE_FERT) {
    memset(s->phi, 0, (n + 1) * sizeof *s->phi);
    for (size_t j = 0; j < m; j++)
      s->phi[link[j]]++;
  }
  for (uint32_t i = 0; i <= v.n; i++)
    s->g[i] = word_factor(s, &v, i);
  for (size_t j = 0; j < m; j++) {
    uint64_t k = sh->cell_start[p] + j * (n + 1);
    if (sh->prefetch && j + 1 < m)
      prefetch_cells(s, k + n + 1, s->rs, v.n);
    v.j = (uint32_t)j;
    v.next = stage >= STAGE_HMM ? s->nxt[j] : 0;
    update(s, &v, k, link[j], -1);
    double sum = weights(s, &v, k);
    if (acc)
      accumulate(s, sh->acc + k, v.n, sum);
    link[j] = draw(s, v.n, sum);
    update(s, &v, k, link[j], +1);
    if (link[j] != 0)
      v.prev = link[j];
  }
}

/* --- Running the samplers --------------------------------------------------
 */

static int aborted(struct shared *sh) {
  return __atomic_load_n(&sh->abort, __ATOMIC_RELAXED);
}

/* Reports progress (from the calling thread only), at most every 0.2 s
 * unless forced; a non-zero answer raises the abort flag. */
static void report(struct shared *sh, size_t pairs_done, int force) {
  if (sh->progress == NULL || aborted(sh) ||
      (!force && xmt_seconds_since(&sh->last) < 0.2))
    return;
  clock_gettime(CLOCK_MONOTONIC, &sh->last);
  uint64_t all = (uint64_t)sh->o->samplers * sh->total_sweeps;
  unsigned iterations = all < UINT32_MAX ? (unsigned)all : UINT32_MAX;
  unsigned it = __atomic_load_n(&sh->sweeps_done, __ATOMIC_RELAXED) + 1;
  if (it > iterations)
    it = iterations;
  if (sh->progress(sh->user, it, iterations, pairs_done, sh->pairs) != 0)
    __atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
}

/* One sweep over every pair, starting at a pair that depends on the
 * sampler so that samplers running at once add to distant marginals.
 * caller: the calling thread, which reports progress. */
static void sweep(struct sampler *s, struct shared *sh, int stage, int acc,
                  int caller) {
  size_t pairs = sh->pairs;
  size_t first = (size_t)((uint64_t)pairs * s->index / sh->o->samplers);
  for (size_t done = 0; done < pairs && !aborted(sh); done += BLOCK) {
    size_t end = done + BLOCK < pairs ? done + BLOCK : pairs;
    for (size_t k = done; k < end; k++) {
      size_t p = first + k < pairs ? first + k : first + k - pairs;
      size_t q = p + 1 < pairs ? p + 1 : 0, qn = pair_len(sh->a, sh->es, q);
      if (sh->prefetch && qn &&
          pair_len(sh->a, sh->fs, q)) { /* the next pair's first token */
        if (sh->narrow)
          row_starts(sh, q, qn, s->ahead);
        prefetch_cells(s, sh->cell_start[q], s->ahead, (uint32_t)qn);
      }
      sample_pair(s, p, stage, acc);
    }
    if (caller)
      report(sh, end, 0);
  }
  __atomic_fetch_add(&sh->sweeps_done, 1, __ATOMIC_RELAXED);
}

/* Sampler index from initialisation to its last sweep. */
static xmt_status run_sampler(struct shared *sh, unsigned index, int caller) {
  struct sampler *s = malloc(sizeof *s);
  if (s == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = sampler_alloc(s, sh, index);
  if (st != XMT_OK) {
    free(s);
    return st;
  }
  init_links(s);
  unsigned at = 0;
  for (int stage = STAGE_IBM1; stage <= STAGE_FERT && st == XMT_OK; stage++) {
    if (sh->o->iterations[stage] == 0)
      continue;
    if (stage >= STAGE_HMM)
      init_jumps(s);
    if (stage == STAGE_FERT)
      st = init_fert(s);
    unsigned sweeps = sh->o->iterations[stage];
    for (unsigned it = 0; it < sweeps && st == XMT_OK; it++) {
      sweep(s, sh, stage, at++ >= sh->accumulate_from, caller);
      if (aborted(sh))
        st = XMT_ERR_ABORTED;
    }
  }
  sampler_free(s);
  free(s);
  return st;
}

/* Takes samplers until none is left; the first failure stops them all. */
static void run_samplers(struct shared *sh, int caller) {
  for (;;) {
    unsigned k = __atomic_fetch_add(&sh->next_sampler, 1, __ATOMIC_RELAXED);
    if (k >= sh->o->samplers)
      return;
    xmt_status st = run_sampler(sh, k, caller);
    if (st == XMT_ERR_NOMEM) {
      __atomic_store_n(&sh->failed, 1, __ATOMIC_RELAXED);
      __atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&sh->finished, 1, __ATOMIC_RELEASE);
  }
}

static void *thread_main(void *arg) {
  run_samplers(arg, 0);
  return NULL;
}

/* Runs every sampler, the calling thread among the workers; once out of
 * samplers it keeps reporting progress until the others are done. */
static void run_all(struct shared *sh) {
  pthread_t tid[MAX_THREADS];
  unsigned nthreads = xmt_gibbs_thread_count(sh->o), started = 1;
  if (nthreads > sh->o->samplers)
    nthreads = sh->o->samplers;
  if (sh->cell_start[sh->pairs] < THREADED_CELLS)
    nthreads = 1;
  sh->atomic = nthreads > 1;
  clock_gettime(CLOCK_MONOTONIC, &sh->last);
  for (; started < nthreads; started++)
    if (pthread_create(&tid[started], NULL, thread_main, sh) != 0)
      break;
  run_samplers(sh, 1);
  while (__atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE) < sh->o->samplers) {
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    report(sh, sh->pairs, 0);
  }
  for (unsigned t = 1; t < started; t++)
    pthread_join(tid[t], NULL);
}

/* --- Results ---------------------------------------------------------------
 */

/* Each predicted token's link: the argmax of its marginals, NULL first
 * among equals. */
static void argmax_links(const struct shared *sh, uint32_t *links) {
  const struct xmt_aligner *a = sh->a;
  memset(links, 0, (size_t)a->nids[sh->fs] * sizeof *links);
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(a, sh->es, p), m = pair_len(a, sh->fs, p);
    if (n == 0 || m == 0)
      continue;
    for (size_t j = 0; j < m; j++) {
      const uint32_t *acc = sh->acc + sh->cell_start[p] + j * (n + 1);
      uint32_t best = 0;
      for (uint32_t i = 1; i <= n; i++)
        if (acc[i] > acc[best])
          best = i;
      links[a->start[sh->fs][p] + j] = best;
    }
  }
}

/* p(f | e): expected counts from the marginals plus the pseudo-counts of
 * each entry, normalised over the row's entries. The table's prob is
 * allocated here: the samplers, gone by now, did not need it. */
static xmt_status estimate_table(const struct shared *sh,
                                 struct xmt_ttable *t) {
  double unit = sh->acc_scale * sh->o->samplers *
                (sh->total_sweeps - sh->accumulate_from);
  uint32_t *rs = malloc(((size_t)sh->max_n + 1) * sizeof *rs);
  free(t->prob);
  t->prob = calloc((size_t)(t->nnz ? t->nnz : 1), sizeof *t->prob);
  if (rs == NULL || t->prob == NULL) {
    free(rs);
    return XMT_ERR_NOMEM;
  }
  /* every cell in order, pair by pair, as the sums are in floating point */
  for (size_t p = 0; p < sh->pairs; p++) {
    size_t n = pair_len(sh->a, sh->es, p), m = pair_len(sh->a, sh->fs, p);
    if (n == 0 || m == 0)
      continue;
    if (sh->narrow)
      row_starts(sh, p, n, rs);
    uint64_t c = sh->cell_start[p];
    for (size_t j = 0; j < m; j++)
      for (uint32_t i = 0; i <= n; i++, c++)
        t->prob[cell_entry(sh, rs, c, i)] += (double)sh->acc[c];
  }
  free(rs);
  for (uint32_t e = 0; e < t->rows; e++) {
    uint64_t b = t->row_start[e], end = t->row_start[e + 1];
    double tot = 0;
    for (uint64_t k = b; k < end; k++) {
      double base = sh->base ? sh->base[k] : row_alpha(sh, e);
      tot += t->prob[k] = t->prob[k] / unit + base;
    }
    for (uint64_t k = b; k < end && tot > 0; k++)
      t->prob[k] /= tot;
  }
  return XMT_OK;
}

static void shared_free(struct shared *sh) {
  free(sh->cell_start);
  xmt_mapped_free(sh->narrow);
  xmt_mapped_free(sh->cells);
  xmt_mapped_free(sh->acc);
  xmt_mapped_free(sh->base);
  free(sh->row_mass);
  xmt_mapped_free(sh->twin);
}

/* Sweep counts; 0 when the options cannot be run. */
static unsigned plan_sweeps(struct shared *sh) {
  const struct xmt_gibbs_options *o = sh->o;
  unsigned total = 0, last = 0;
  for (int k = 0; k < 3; k++)
    if (o->iterations[k]) {
      if (o->iterations[k] > UINT32_MAX / 4 - total)
        return 0;
      total += o->iterations[k];
      last = o->iterations[k];
    }
  unsigned acc = (unsigned)ceil(last * ACCUMULATE_FRACTION);
  if (acc < 1)
    acc = 1;
  /* Each cell takes samplers x acc sums of up to acc_scale. */
  if (total == 0 || (double)o->samplers * acc > 65536.0)
    return 0;
  sh->total_sweeps = total;
  sh->accumulate_from = total - acc;
  sh->acc_scale = floor((double)UINT32_MAX / ((double)o->samplers * acc));
  return total;
}

xmt_status xmt_gibbs_align(const struct xmt_aligner *a, int d,
                           const struct xmt_prior_table *prior,
                           const struct xmt_gibbs_options *o, uint32_t *links,
                           struct xmt_ttable *t, xmt_progress_fn progress,
                           void *user) {
  if (a == NULL || o == NULL || links == NULL || t == NULL ||
      o->samplers == 0 || (d != XMT_FWD && d != XMT_REV) ||
      !(o->lex_alpha > 0) || !(o->null_alpha > 0) || !(o->null_mass >= 0) ||
      !(o->jump_alpha > 0) || !(o->fert_alpha > 0) || !(o->null_prob > 0) ||
      !(o->null_prob < 1))
    return XMT_ERR_USAGE;
  struct shared sh;
  memset(&sh, 0, sizeof sh);
  sh.a = a;
  sh.o = o;
  sh.t = t;
  sh.es = d == XMT_FWD ? XMT_SRC : XMT_TGT;
  sh.fs = 1 - sh.es;
  sh.ne = a->vocab[sh.es].count;
  sh.pairs = a->pairs;
  sh.progress = progress;
  sh.user = user;
  if (plan_sweeps(&sh) == 0 || t->rows != sh.ne)
    return XMT_ERR_USAGE;
  /* A bounded NULL row: in a large vocabulary the NULL word learns the
   * few words it produces, in a small one it stays as flat as null_alpha
   * makes it. */
  double nf = (double)a->vocab[sh.fs].count - 1; /* NULL aside */
  if (nf < 1)
    nf = 1;
  sh.null_alpha = o->null_alpha;
  if (o->null_mass > 0 && o->null_mass < o->null_alpha * nf)
    sh.null_alpha = o->null_mass / nf;
  xmt_status st = xmt_gibbs_build_cells(&sh);
  if (st == XMT_OK)
    st = xmt_gibbs_build_priors(&sh, prior);
  if (st == XMT_OK) {
    /* not read before estimate_table, which allocates it again: the
     * samplers' counts take its place meanwhile */
    free(t->prob);
    t->prob = NULL;
    run_all(&sh);
    st = sh.failed ? XMT_ERR_NOMEM : sh.abort ? XMT_ERR_ABORTED : XMT_OK;
  }
  if (st == XMT_OK) {
    argmax_links(&sh, links);
    st = estimate_table(&sh, t);
  }
  if (st == XMT_OK) {
    report(&sh, sh.pairs, 1);
    if (sh.abort)
      st = XMT_ERR_ABORTED;
  }
  shared_free(&sh);
  return st;
}
