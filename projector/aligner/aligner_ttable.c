/* aligner_ttable.c -- the sparse translation tables of EM training and
 * the per-call scratch: the co-occurring word pairs of the corpus gathered
 * as keys, radix-sorted, deduplicated and merged into one sorted row per
 * conditioning word (aligner_private.h). Apart from aligner_train.c
 * because building the tables' shape is done once per corpus, with no
 * probabilities; the training loop only fills them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "aligner_private.h"

/* --- Arrays of a window's training ----------------------------------------
 * Mapped each on its own: through malloc they settled in its heap, as
 * freeing a mapped block raises the size below which malloc takes from
 * the heap, and there the holes that the next window's arrays did not
 * fit stayed resident (a run's peak grew by a third over the windows). A
 * header before the array holds the mapping's length, 0 when it is from
 * calloc: small arrays, and under AddressSanitizer, which watches only
 * what malloc gives. */

#define MAPPED_HEAD 64 /* a cache line: the array stays aligned */
#define MAPPED_MIN ((size_t)1 << 20)

void *xmt_mapped_calloc(size_t n, size_t size) {
  if (size != 0 && n > (SIZE_MAX - MAPPED_HEAD) / size)
    return NULL;
  size_t len = MAPPED_HEAD + n * size;
  char *m = NULL;
#ifndef __SANITIZE_ADDRESS__
  if (len >= MAPPED_MIN) {
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return NULL;
    m = p; /* zeroed, as calloc's */
    *(size_t *)m = len;
    return m + MAPPED_HEAD;
  }
#endif
  if ((m = calloc(1, len)) == NULL)
    return NULL;
  return m + MAPPED_HEAD; /* the header's length is 0 */
}

void xmt_mapped_free(void *p) {
  if (p == NULL)
    return;
  char *m = (char *)p - MAPPED_HEAD;
  size_t len = *(size_t *)m;
  if (len != 0)
    munmap(m, len);
  else
    free(m);
}

/* --- Scratch ----------------------------------------------------------- */

xmt_status xmt_scratch_reserve(struct xmt_align_scratch *s, size_t n,
                               size_t m) {
  if (n >= SIZE_MAX / 16 || (m != 0 && n + 1 > SIZE_MAX / 16 / m))
    return XMT_ERR_NOMEM;
  if (s->cap_probs < n + 1) {
    double *p = malloc((n + 1) * sizeof *p); /* contents need not survive */
    if (p == NULL)
      return XMT_ERR_NOMEM;
    free(s->probs);
    s->probs = p;
    s->cap_probs = n + 1;
  }
  if (s->cap_cells < (n + 1) * m) {
    uint64_t *c = malloc((n + 1) * m * sizeof *c);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    free(s->cells);
    s->cells = c;
    s->cap_cells = (n + 1) * m;
  }
  if (s->cap_order < m) {
    uint32_t *o = malloc(m * sizeof *o);
    if (o == NULL)
      return XMT_ERR_NOMEM;
    free(s->order);
    s->order = o;
    s->cap_order = m;
  }
  return XMT_OK;
}

void xmt_scratch_free(struct xmt_align_scratch *s) {
  free(s->cells);
  free(s->order);
  free(s->probs);
  memset(s, 0, sizeof *s);
}

void xmt_ttable_free(struct xmt_ttable *t) {
  /* clang-analyzer 14 loses track of xmt_ttable_build's memset on the error
   * path of xmt_aligner_train and reports a double free here */
  // NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
  free(t->row_start);
  free(t->col);
  free(t->prob);
  free(t->count);
  memset(t, 0, sizeof *t);
}

/* --- Building the tables ---------------------------------------------------
 * Keys e * nf + f of every co-occurring pair (and NULL with every f),
 * gathered in chunks, radix-sorted, deduplicated and merged. */

struct keyset {
  uint64_t *keys; /* sorted, unique */
  uint64_t n;
  uint64_t *chunk, *tmp;
  uint64_t nchunk, chunk_cap;
  unsigned passes; /* 16-bit radix passes covering the largest key */
};

static xmt_status radix_sort(uint64_t *k, uint64_t *tmp, uint64_t n,
                             unsigned passes) {
  static const unsigned bits = 16;
  size_t *count = calloc((size_t)1 << bits, sizeof *count);
  if (count == NULL)
    return XMT_ERR_NOMEM;
  for (unsigned p = 0; p < passes; p++) {
    unsigned shift = p * bits;
    memset(count, 0, ((size_t)1 << bits) * sizeof *count);
    for (uint64_t i = 0; i < n; i++)
      count[(k[i] >> shift) & 0xFFFF]++;
    size_t sum = 0;
    for (size_t b = 0; b < ((size_t)1 << bits); b++) {
      size_t c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (uint64_t i = 0; i < n; i++)
      tmp[count[(k[i] >> shift) & 0xFFFF]++] = k[i];
    memcpy(k, tmp, (size_t)n * sizeof *k);
  }
  free(count);
  return XMT_OK;
}

static xmt_status flush_chunk(struct keyset *ks) {
  if (ks->nchunk == 0)
    return XMT_OK;
  if (radix_sort(ks->chunk, ks->tmp, ks->nchunk, ks->passes) != XMT_OK)
    return XMT_ERR_NOMEM;
  uint64_t u = 0;
  for (uint64_t i = 0; i < ks->nchunk; i++)
    if (u == 0 || ks->chunk[i] != ks->chunk[u - 1])
      ks->chunk[u++] = ks->chunk[i];
  uint64_t *merged = xmt_mapped_calloc((size_t)(ks->n + u), sizeof *merged);
  if (merged == NULL)
    return XMT_ERR_NOMEM;
  uint64_t a = 0, b = 0, o = 0;
  while (a < ks->n && b < u) {
    if (ks->keys[a] < ks->chunk[b])
      merged[o++] = ks->keys[a++];
    else if (ks->keys[a] > ks->chunk[b])
      merged[o++] = ks->chunk[b++];
    else
      merged[o++] = ks->keys[a++], b++;
  }
  while (a < ks->n)
    merged[o++] = ks->keys[a++];
  while (b < u)
    merged[o++] = ks->chunk[b++];
  xmt_mapped_free(ks->keys);
  ks->keys = merged;
  ks->n = o;
  ks->nchunk = 0;
  return XMT_OK;
}

static xmt_status add_key(struct keyset *ks, uint64_t key) {
  if (ks->nchunk == ks->chunk_cap) {
    xmt_status st = flush_chunk(ks);
    if (st != XMT_OK)
      return st;
  }
  ks->chunk[ks->nchunk++] = key;
  return XMT_OK;
}

xmt_status xmt_ttable_build(const struct xmt_aligner *a, int d,
                            struct xmt_ttable *t) {
  int es = d == XMT_FWD ? XMT_SRC : XMT_TGT, fs = 1 - es;
  uint64_t ne = a->vocab[es].count, nf = a->vocab[fs].count;
  struct keyset ks;
  memset(&ks, 0, sizeof ks);
  uint64_t maxkey = ne * nf;
  ks.passes = 1;
  while (ks.passes < 4 && (maxkey >> (16 * ks.passes)) != 0)
    ks.passes++;
  /* a chunk of 1M keys (16 MB with its sorting copy), no larger than the
   * keys there are: a window's training should not cost a fixed 64 MB */
  uint64_t total = 0;
  for (size_t k = 0; k < a->pairs; k++)
    total += (a->start[es][k + 1] - a->start[es][k] + 1) *
             (a->start[fs][k + 1] - a->start[fs][k]);
  ks.chunk_cap =
      total < ((uint64_t)1 << 20) ? (total ? total : 1) : (uint64_t)1 << 20;
  ks.chunk = xmt_mapped_calloc((size_t)ks.chunk_cap, sizeof *ks.chunk);
  ks.tmp = xmt_mapped_calloc((size_t)ks.chunk_cap, sizeof *ks.tmp);
  xmt_status st = ks.chunk != NULL && ks.tmp != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t k = 0; k < a->pairs && st == XMT_OK; k++) {
    const uint32_t *e = a->ids[es] + a->start[es][k];
    const uint32_t *f = a->ids[fs] + a->start[fs][k];
    uint64_t n = a->start[es][k + 1] - a->start[es][k];
    uint64_t m = a->start[fs][k + 1] - a->start[fs][k];
    if (n == 0 || m == 0)
      continue;
    for (uint64_t j = 0; j < m && st == XMT_OK; j++)
      st = add_key(&ks, f[j]); /* NULL's row */
    for (uint64_t i = 0; i < n && st == XMT_OK; i++)
      for (uint64_t j = 0; j < m && st == XMT_OK; j++)
        st = add_key(&ks, e[i] * nf + f[j]);
  }
  if (st == XMT_OK)
    st = flush_chunk(&ks);
  xmt_mapped_free(ks.chunk);
  xmt_mapped_free(ks.tmp);
  memset(t, 0, sizeof *t);
  if (st == XMT_OK) {
    t->rows = (uint32_t)ne;
    t->nnz = ks.n;
    t->row_start = calloc((size_t)ne + 1, sizeof *t->row_start);
    t->col = malloc((size_t)(ks.n ? ks.n : 1) * sizeof *t->col);
    t->prob = malloc((size_t)(ks.n ? ks.n : 1) * sizeof *t->prob);
    if (t->row_start == NULL || t->col == NULL || t->prob == NULL)
      st = XMT_ERR_NOMEM;
  }
  if (st == XMT_OK) {
    for (uint64_t k = 0; k < ks.n; k++) {
      t->row_start[ks.keys[k] / nf + 1]++;
      t->col[k] = (uint32_t)(ks.keys[k] % nf);
      t->prob[k] = XMT_UNSEEN_PROB;
    }
    for (uint64_t e = 0; e < ne; e++)
      t->row_start[e + 1] += t->row_start[e];
  } else {
    free(t->row_start);
    free(t->col);
    free(t->prob);
    memset(t, 0, sizeof *t);
  }
  xmt_mapped_free(ks.keys);
  return st;
}
