/* priors_refine.c -- refining an alignment with the priors after the
 * models ran (xmt_priors_refine). Apart from priors.c because it works on
 * a finished alignment, not on building the prior table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "priors_build.h"

/* --- Refining alignments ------------------------------------------------ */

struct unaligned_pair {
  size_t i, j;
  float w;
  uint64_t off_diagonal; /* |(2i + 1) m - (2j + 1) n|: same scale for all */
};

static int unaligned_pair_cmp(const void *pa, const void *pb) {
  const struct unaligned_pair *a = pa, *b = pb;
  if (a->w != b->w)
    return a->w > b->w ? -1 : 1;
  if (a->off_diagonal != b->off_diagonal)
    return a->off_diagonal < b->off_diagonal ? -1 : 1;
  if (a->i != b->i)
    return a->i < b->i ? -1 : 1;
  return a->j < b->j ? -1 : a->j > b->j;
}

static int xmt_link_cmp(const void *pa, const void *pb) {
  const struct xmt_link *a = pa, *b = pb;
  if (a->source != b->source)
    return a->source < b->source ? -1 : 1;
  return a->target < b->target ? -1 : a->target > b->target;
}

static int next_to(size_t a, size_t b) { return a + 1 == b || b + 1 == a; }

/* Swaps the targets of two links between neighbouring words on both sides
 * when neither has a prior and a word-for-word prior (not a word of a
 * multiword translation) supports the swap. Returns whether any moved. */
static int swap_neighbours(struct xmt_link *l, size_t count,
                           const struct xmt_prior_table *t, const uint32_t *s,
                           const uint32_t *tw) {
  int moved = 0;
  for (size_t a = 0; a < count; a++)
    for (size_t b = 0; b < count; b++) {
      size_t i = l[a].source, j = l[a].target;
      size_t i2 = l[b].source, j2 = l[b].target;
      if (!next_to(i, i2) || !next_to(j, j2) ||
          xmt_prior_table_weight(t, s[i], tw[j]) > 0 ||
          xmt_prior_table_weight(t, s[i2], tw[j2]) > 0 ||
          !(xmt_prior_table_weight(t, s[i], tw[j2]) > t->phrase_max))
        continue;
      l[a].target = j2;
      l[b].target = j;
      moved = 1;
    }
  return moved;
}

/* Appends to l (room for n + m more) a link between words that l leaves
 * both unaligned and a prior links: heaviest prior first, then nearest the
 * diagonal, each word once. linked has n + m flags. Returns how many. */
static xmt_status link_unaligned(struct xmt_link *l, size_t *count,
                                 unsigned char *linked,
                                 const struct xmt_prior_table *t,
                                 const uint32_t *s, size_t n,
                                 const uint32_t *tw, size_t m) {
  unsigned char *src_linked = linked, *tgt_linked = linked + n;
  for (size_t k = 0; k < *count; k++) {
    src_linked[l[k].source] = 1;
    tgt_linked[l[k].target] = 1;
  }
  struct unaligned_pair *c = NULL;
  size_t nc = 0, cap = 0;
  for (size_t i = 0; i < n; i++) {
    if (src_linked[i])
      continue;
    for (size_t j = 0; j < m; j++) {
      float w;
      if (tgt_linked[j] || !((w = xmt_prior_table_weight(t, s[i], tw[j])) > 0))
        continue;
      struct unaligned_pair *g = xmt_grow_array(c, &cap, nc + 1, sizeof *g);
      if (g == NULL) {
        free(c);
        return XMT_ERR_NOMEM;
      }
      c = g;
      uint64_t a = (2 * (uint64_t)i + 1) * m, b = (2 * (uint64_t)j + 1) * n;
      c[nc++] = (struct unaligned_pair){i, j, w, a > b ? a - b : b - a};
    }
  }
  if (nc > 1)
    qsort(c, nc, sizeof *c, unaligned_pair_cmp);
  for (size_t k = 0; k < nc; k++) {
    if (src_linked[c[k].i] || tgt_linked[c[k].j])
      continue;
    src_linked[c[k].i] = tgt_linked[c[k].j] = 1;
    l[(*count)++] = (struct xmt_link){c[k].i, c[k].j};
  }
  free(c);
  return XMT_OK;
}

xmt_status xmt_priors_refine(xmt_alignment *out,
                             const struct xmt_prior_table *t, const uint32_t *s,
                             size_t n, const uint32_t *tw, size_t m) {
  if (t->count == 0 || n == 0 || m == 0)
    return XMT_OK;
  size_t count = xmt_alignment_count(out), before = count;
  /* each word gets at most one new link: n + m more at most */
  struct xmt_link *l = malloc((count + n + m) * sizeof *l);
  unsigned char *linked = calloc(n + m, 1);
  if (l == NULL || linked == NULL) {
    free(l);
    free(linked);
    return XMT_ERR_NOMEM;
  }
  if (count > 0)
    memcpy(l, xmt_alignment_links(out), count * sizeof *l);
  int moved = swap_neighbours(l, count, t, s, tw);
  xmt_status st = link_unaligned(l, &count, linked, t, s, n, tw, m);
  if (st == XMT_OK && (moved || count > before)) {
    /* back in (source, target) order, as symmetrizing left them */
    qsort(l, count, sizeof *l, xmt_link_cmp);
    xmt_alignment_clear(out);
    for (size_t k = 0; k < count && st == XMT_OK; k++)
      if (k == 0 || xmt_link_cmp(&l[k - 1], &l[k]) != 0)
        st = xmt_alignment_add(out, l[k].source, l[k].target);
  }
  free(l);
  free(linked);
  return st;
}
