/* symmetrize.c -- combining the two directions' alignments: intersection,
 * union and the grow-diag family of Koehn et al. (2005), with the visiting
 * order of fast_align's atools so that results match it link for link;
 * and intersect-first, grow-diag-final-and without the links apart from
 * the intersection's of the words that it links. */
#include "config.h"

#include <stdlib.h>

#include "aligner_private.h"

static const char *const names[] = {
    "forward",   "reverse",         "intersect",           "union",
    "grow-diag", "grow-diag-final", "grow-diag-final-and", "intersect-first"};

xmt_status xmt_symmetrization_parse(const char *name,
                                    enum xmt_symmetrization *sym) {
  if (name == NULL || sym == NULL)
    return XMT_ERR_USAGE;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(name, names[i]) == 0) {
      *sym = (enum xmt_symmetrization)i;
      return XMT_OK;
    }
  return XMT_ERR_USAGE;
}

const char *xmt_symmetrization_name(enum xmt_symmetrization sym) {
  return (unsigned)sym < sizeof names / sizeof *names ? names[sym] : "?";
}

/* Cell flags of the n x m grid. */
enum { FWD = 1, REV = 2, RES = 4 };
#define BOTH (FWD | REV)

struct grid {
  unsigned char *cell; /* i * m + j */
  size_t n, m;
  unsigned char *src_aligned, *tgt_aligned;
};

static void align(struct grid *g, size_t i, size_t j) {
  g->cell[i * g->m + j] |= RES;
  g->src_aligned[i] = g->tgt_aligned[j] = 1;
}

static int neighbour_aligned(const struct grid *g, size_t i, size_t j) {
  static const int di[] = {1, -1, 0, 0, 1, -1, 1, -1};
  static const int dj[] = {0, 0, 1, -1, 1, 1, -1, -1};
  for (int k = 0; k < 8; k++) {
    if ((di[k] < 0 && i == 0) || (dj[k] < 0 && j == 0))
      continue;
    size_t x = i + (size_t)(ptrdiff_t)di[k], y = j + (size_t)(ptrdiff_t)dj[k];
    if (x < g->n && y < g->m && (g->cell[x * g->m + y] & RES))
      return 1;
  }
  return 0;
}

static int one_unaligned(const struct grid *g, size_t i, size_t j) {
  return !(g->src_aligned[i] && g->tgt_aligned[j]);
}

/* grow-diag: union links next to a link, for a word not yet aligned on
 * one side, swept in (source, target) order until a sweep adds nothing. */
static void grow_diag(struct grid *g) {
  int added;
  do {
    added = 0;
    for (size_t i = 0; i < g->n; i++)
      for (size_t j = 0; j < g->m; j++) {
        unsigned char c = g->cell[i * g->m + j];
        if ((c & (FWD | REV)) && !(c & RES) && one_unaligned(g, i, j) &&
            neighbour_aligned(g, i, j)) {
          align(g, i, j);
          added = 1;
        }
      }
  } while (added);
}

/* final / final-and: one sweep over the links of one direction. */
static void final(struct grid *g, unsigned char dir, int and) {
  for (size_t i = 0; i < g->n; i++)
    for (size_t j = 0; j < g->m; j++) {
      unsigned char c = g->cell[i * g->m + j];
      if (!(c & dir) || (c & RES))
        continue;
      if (and? !g->src_aligned[i] && !g->tgt_aligned[j]
             : one_unaligned(g, i, j))
        align(g, i, j);
    }
}

/* One word's line of the grid (len cells, step apart from cell): marks
 * with ok each of its result links when the word has no intersection link,
 * else those in a run of result links without a gap that holds one. */
static void mark_runs(unsigned char *cell, size_t len, size_t step,
                      unsigned char ok) {
  int sure = 0;
  for (size_t k = 0; k < len; k++)
    sure |= (cell[k * step] & BOTH) == BOTH;
  for (size_t a = 0; a < len;) {
    if (!(cell[a * step] & RES)) {
      a++;
      continue;
    }
    size_t b = a;
    int has = 0;
    for (; b < len && (cell[b * step] & RES); b++)
      has |= (cell[b * step] & BOTH) == BOTH;
    for (; a < b; a++)
      if (has || !sure)
        cell[a * step] |= ok;
  }
}

/* intersect-first: a word that the intersection links keeps, beside those
 * links, only the links that run on from them without a gap ("timezone"
 * -> "часовой пояс"). A link apart from them is where one direction kept
 * the word order of the other language ("See Memory section" -> "Смотрите
 * раздел о памяти": Memory, sure of памяти, grown to раздел), and min-max
 * would stretch a tag over the words between. Words outside the
 * intersection keep what grow-diag-final-and gave them. */
static void keep_sure(struct grid *g) {
  enum { ROW_OK = 8, COL_OK = 16 };
  for (size_t i = 0; i < g->n; i++)
    mark_runs(g->cell + i * g->m, g->m, 1, ROW_OK);
  for (size_t j = 0; j < g->m; j++)
    mark_runs(g->cell + j, g->n, g->m, COL_OK);
  for (size_t k = 0; k < g->n * g->m; k++) {
    unsigned char *c = &g->cell[k];
    if ((*c & BOTH) != BOTH && (*c & (ROW_OK | COL_OK)) != (ROW_OK | COL_OK))
      *c &= (unsigned char)~RES;
  }
}

static xmt_status mark(struct grid *g, const xmt_alignment *al,
                       unsigned char flag) {
  size_t count = xmt_alignment_count(al);
  const struct xmt_link *l = xmt_alignment_links(al);
  for (size_t k = 0; k < count; k++) {
    if (l[k].source >= g->n || l[k].target >= g->m)
      return XMT_ERR_USAGE;
    g->cell[l[k].source * g->m + l[k].target] |= flag;
  }
  return XMT_OK;
}

xmt_status xmt_symmetrize(xmt_alignment *out, const xmt_alignment *forward,
                          const xmt_alignment *reverse, size_t source_tokens,
                          size_t target_tokens, enum xmt_symmetrization sym) {
  if (out == NULL || forward == NULL || reverse == NULL || out == forward ||
      out == reverse || (unsigned)sym > XMT_SYM_INTERSECT_FIRST)
    return XMT_ERR_USAGE;
  struct grid g = {NULL, source_tokens, target_tokens, NULL, NULL};
  if (source_tokens != 0 && target_tokens > SIZE_MAX / source_tokens)
    return XMT_ERR_NOMEM;
  size_t cells = source_tokens * target_tokens;
  g.cell = calloc(cells + source_tokens + target_tokens + 1, 1);
  if (g.cell == NULL)
    return XMT_ERR_NOMEM;
  g.src_aligned = g.cell + cells;
  g.tgt_aligned = g.src_aligned + source_tokens;
  xmt_status st = XMT_OK;
  if (sym != XMT_SYM_REVERSE)
    st = mark(&g, forward, FWD);
  if (st == XMT_OK && sym != XMT_SYM_FORWARD)
    st = mark(&g, reverse, REV);
  if (st != XMT_OK) {
    free(g.cell);
    return st;
  }
  for (size_t i = 0; i < g.n; i++)
    for (size_t j = 0; j < g.m; j++) {
      unsigned char c = g.cell[i * g.m + j];
      int in;
      switch (sym) {
      case XMT_SYM_FORWARD:
      case XMT_SYM_REVERSE:
      case XMT_SYM_UNION:
        in = c != 0;
        break;
      default: /* the intersection, which the grow-diag family grows */
        in = (c & (FWD | REV)) == (FWD | REV);
        break;
      }
      if (in)
        align(&g, i, j);
    }
  if (sym >= XMT_SYM_GROW_DIAG)
    grow_diag(&g);
  int and =
      sym == XMT_SYM_GROW_DIAG_FINAL_AND || sym == XMT_SYM_INTERSECT_FIRST;
  if (sym == XMT_SYM_GROW_DIAG_FINAL || and) {
    final(&g, FWD, and);
    final(&g, REV, and);
  }
  if (sym == XMT_SYM_INTERSECT_FIRST)
    keep_sure(&g);
  xmt_alignment_clear(out);
  for (size_t i = 0; i < g.n && st == XMT_OK; i++)
    for (size_t j = 0; j < g.m && st == XMT_OK; j++)
      if (g.cell[i * g.m + j] & RES)
        st = xmt_alignment_add(out, i, j);
  free(g.cell);
  if (st != XMT_OK)
    xmt_alignment_clear(out);
  return st;
}
