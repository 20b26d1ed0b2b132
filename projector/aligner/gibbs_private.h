/* gibbs_private.h -- what the Gibbs sampler (aligner_gibbs.c) shares with
 * the building of its fixed tables (aligner_gibbs_cells.c). Not
 * installed. */
#ifndef XMT_GIBBS_PRIVATE_H
#define XMT_GIBBS_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "gibbs_private.h is internal to libxliffmt"
#endif

#include <stdint.h>
#include <time.h>

#include "aligner_private.h"

#define MAX_THREADS 256

/* What every sampler reads, and the marginals they all add to. */
struct shared {
  const struct xmt_aligner *a;
  const struct xmt_gibbs_options *o;
  const struct xmt_ttable *t;
  int es, fs;
  uint32_t ne; /* conditioning vocabulary, NULL included */
  size_t pairs;
  uint64_t *cell_start; /* pairs + 1: the first cell of each pair */
  /* The table entry of cell (j, i), NULL first: its place in its row
   * when no row has more than NARROW_ROW entries (half the bytes of
   * the largest array a window holds), else the entry itself. */
  uint16_t *narrow;
  uint32_t *cells;
  uint32_t *acc;         /* marginals of each cell, fixed point */
  float *base;           /* Dirichlet + prior pseudo-count of each entry,
                            or NULL: lex_alpha (null_alpha in row 0) */
  double *row_mass;      /* pseudo-counts of each row, absent words too */
  double null_alpha;     /* the pseudo-count of each entry of the NULL
                            row: o->null_alpha within o->null_mass */
  uint32_t *twin;        /* of each conditioning token: the next position
                            (1-based, circular) of its word in its pair */
  int prefetch;          /* the tables outgrow the caches: prefetch */
  uint32_t max_n, max_m; /* longest sides */
  unsigned total_sweeps, accumulate_from;
  double acc_scale; /* a probability's units in acc */
  int atomic;       /* samplers run at the same time */
  /* Between threads, atomically. */
  unsigned next_sampler, finished, sweeps_done;
  int abort, failed;
  xmt_progress_fn progress;
  void *user;
  struct timespec last;
};

static inline size_t pair_len(const struct xmt_aligner *a, int side, size_t p) {
  return (size_t)(a->start[side][p + 1] - a->start[side][p]);
}

/* Rows of at most this many entries have narrow cells (struct shared). */
#define NARROW_ROW 65536u

/* The first entry of the row of each position of pair p (0: NULL; n
 * conditioning words) into rs; only narrow cells need them. */
static inline void row_starts(const struct shared *sh, size_t p, size_t n,
                              uint32_t *rs) {
  const struct xmt_aligner *a = sh->a;
  const uint32_t *e = a->ids[sh->es] + a->start[sh->es][p];
  rs[0] = (uint32_t)sh->t->row_start[XMT_NULL_WORD];
  for (size_t i = 0; i < n; i++)
    rs[i + 1] = (uint32_t)sh->t->row_start[e[i]];
}

/* The table entry of cell k, of position i of a pair whose row starts
 * are rs. */
static inline uint32_t cell_entry(const struct shared *sh, const uint32_t *rs,
                                  uint64_t k, uint32_t i) {
  return sh->narrow ? rs[i] + sh->narrow[k] : sh->cells[k];
}

/* The Dirichlet pseudo-count of an entry of row e. */
static inline double row_alpha(const struct shared *sh, uint32_t e) {
  return e == XMT_NULL_WORD ? sh->null_alpha : sh->o->lex_alpha;
}

/* The training threads the options ask for (0: the online cores). */
unsigned xmt_gibbs_thread_count(const struct xmt_gibbs_options *o);
/* Sizes and fills cells, cell_start, acc and twin; sets max_n, max_m and
 * prefetch. */
xmt_status xmt_gibbs_build_cells(struct shared *sh);
/* row_mass of every row and, with priors, base of every entry. */
xmt_status xmt_gibbs_build_priors(struct shared *sh,
                                  const struct xmt_prior_table *prior);

#endif /* XMT_GIBBS_PRIVATE_H */
