/* project.c -- puts the tags of a source segment into its machine
 * translation: detag-and-project with min-max span rules (Hanneman & Dinu
 * 2020, section 4.1) or span scoring (Zenkel et al. 2021).
 *
 * How it works. Every tag is first located among the source tokens: in the
 * gap before token g (g tokens lie before it) or inside token t. A pair
 * covers the source tokens its text overlaps. Tags are then projected in
 * source order, so a pair is placed before anything inside it: a pair
 * becomes a span of target tokens, any other tag (and a pair that covers no
 * token) a point between target tokens. Each placed item goes into a target
 * tree: the projection of its source parent, or a pair inside it whose span
 * contains it. A pair that would cross an earlier one is shrunk to the part
 * outside it. Walking the tree, children sorted by byte offset, emits the
 * tags well nested by construction; a final check guards the invariant.
 *
 * The target tree is in project_tree.c.
 *
 * Target points are 2*B + side, B a token boundary 0..k (B tokens lie
 * before it): side LEFT is right after token B-1, before the spaces; side
 * RIGHT right before token B, after them. Byte offsets grow with points:
 * a pair over tokens lo..hi opens at 2*lo+1 and closes at 2*hi+2. Points
 * 0 and 2*k+1 are the very start and end of the text. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "project_private.h"

#define LEFT 0
#define RIGHT 1

/* Scratch memory on the stack: enough for segments of about 60 tokens
 * (and links) and 16 tags, so typical segments allocate nothing. */
#define LOCAL_SCRATCH 8192

/* Links of one source token longer than this are sorted with qsort. */
#define INSERTION_SORT_MAX 16

/* --- Validation and the alignment index -------------------------------- */

/* Tokens must be ordered ranges of the text; target tokens must also
 * start and end on character boundaries, since tags go there. */
static int tokens_ok(const struct xmt_token *t, size_t n, const char *text,
                     size_t len, int boundaries) {
  size_t prev = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i].start < prev || t[i].end < t[i].start || t[i].end > len)
      return 0;
    if (boundaries && (!xmt_utf8_at_boundary(text, len, t[i].start) ||
                       !xmt_utf8_at_boundary(text, len, t[i].end)))
      return 0;
    prev = t[i].end;
  }
  return 1;
}

static int size_cmp(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  return (a > b) - (a < b);
}

/* Sorts v[0..n) and drops repeats; returns the new length. */
static size_t sort_unique(size_t *v, size_t n) {
  if (n > INSERTION_SORT_MAX) {
    qsort(v, n, sizeof *v, size_cmp);
  } else {
    for (size_t i = 1; i < n; i++) {
      size_t x = v[i], j = i;
      while (j > 0 && v[j - 1] > x) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
  }
  size_t out = 0;
  for (size_t i = 0; i < n; i++)
    if (out == 0 || v[out - 1] != v[i])
      v[out++] = v[i];
  return out;
}

/* Groups the links by source token (duplicates dropped) and finds each
 * token's nearest aligned neighbours. */
static void index_links(struct proj *p, const struct xmt_link *links,
                        size_t nlinks) {
  struct stok *s = p->stok;
  for (size_t i = 0; i < p->m; i++)
    s[i].n = 0;
  for (size_t l = 0; l < nlinks; l++)
    s[links[l].source].n++;
  size_t at = 0;
  for (size_t i = 0; i < p->m; i++) {
    s[i].first = at;
    at += s[i].n;
    s[i].n = 0;
  }
  for (size_t l = 0; l < nlinks; l++) {
    struct stok *x = &s[links[l].source];
    p->targets[x->first + x->n++] = links[l].target;
  }
  size_t prev = NONE;
  for (size_t i = 0; i < p->m; i++) {
    s[i].n = sort_unique(p->targets + s[i].first, s[i].n);
    s[i].amin = s[i].n ? p->targets[s[i].first] : NONE;
    s[i].amax = s[i].n ? p->targets[s[i].first + s[i].n - 1] : NONE;
    if (s[i].n)
      prev = i;
    s[i].prev = prev;
  }
  size_t next = NONE;
  for (size_t i = p->m; i-- > 0;) {
    if (s[i].n)
      next = i;
    s[i].next = next;
  }
}

/* Range queries over the source tokens: the least amin and the greatest
 * amax of tokens a..b in O(log m), from segment trees over the m tokens
 * (leaves at m..2m-1), so that no pair or placeholder walks over all the
 * tokens it covers: nested pairs each cover nearly all of a segment, and
 * a placeholder looks at its parent's tokens on either side. */
static void index_ranges(struct proj *p) {
  size_t m = p->m;
  for (size_t i = 0; i < m; i++) {
    p->rmin[m + i] = p->stok[i].amin;
    p->rmax[m + i] = p->stok[i].n ? p->stok[i].amax + 1 : 0;
  }
  for (size_t i = m; i-- > 1;) {
    size_t a = p->rmin[2 * i], b = p->rmin[2 * i + 1];
    p->rmin[i] = a < b ? a : b;
    a = p->rmax[2 * i], b = p->rmax[2 * i + 1];
    p->rmax[i] = a > b ? a : b;
  }
}

/* The aligned target tokens of source tokens a..b (a <= b < m): *lo the
 * least, NONE when none is aligned, *hi the greatest. */
static void aligned_range(const struct proj *p, size_t a, size_t b, size_t *lo,
                          size_t *hi) {
  size_t l = NONE, h = 0;
  for (size_t x = a + p->m, y = b + p->m + 1; x < y; x /= 2, y /= 2) {
    if (x & 1) {
      l = p->rmin[x] < l ? p->rmin[x] : l;
      h = p->rmax[x] > h ? p->rmax[x] : h;
      x++;
    }
    if (y & 1) {
      y--;
      l = p->rmin[y] < l ? p->rmin[y] : l;
      h = p->rmax[y] > h ? p->rmax[y] : h;
    }
  }
  *lo = l;
  *hi = h > 0 ? h - 1 : 0;
}

int xmt_proj_linked(const struct proj *p, size_t s, size_t t) {
  const size_t *v = p->targets + p->stok[s].first;
  size_t lo = 0, hi = p->stok[s].n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid] < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < p->stok[s].n && v[lo] == t;
}

/* --- Points ------------------------------------------------------------ */

size_t xmt_proj_byte_of(const struct proj *p, size_t pt) {
  size_t b = pt >> 1;
  if ((pt & 1) == RIGHT)
    return b < p->k ? p->tt[b].start : p->tlen;
  return b > 0 ? p->tt[b - 1].end : 0;
}

/* x * num / den, rounded down or up. */
static size_t scale(size_t x, size_t num, size_t den, int up) {
  if (den == 0)
    return 0;
  if (num != 0 && x > SIZE_MAX / num)
    return (size_t)((double)x / (double)den * (double)num);
  size_t q = x * num;
  return q / den + (up && q % den != 0);
}

/* x * num / den, rounded to nearest: the proportional position, as the
 * trivial baseline places tags. */
static size_t scale_round(size_t x, size_t num, size_t den) {
  if (den == 0)
    return 0;
  if (num != 0 && x > SIZE_MAX / num)
    return (size_t)((double)x / (double)den * (double)num + 0.5);
  return (x * num + den / 2) / den;
}

/* The nearest aligned source token left of a or right of b, within the
 * parent's source tokens pa..pb; the closer wins, a tie goes left. */
static size_t nearest(const struct proj *p, size_t a, size_t b, size_t pa,
                      size_t pb) {
  size_t jl = NONE, jr = NONE;
  if (pa > pb)
    return NONE;
  if (a > pa) {
    size_t j = p->stok[a - 1].prev;
    if (j != NONE && j >= pa)
      jl = j;
  }
  if (b < pb) {
    size_t j = p->stok[b + 1].next;
    if (j != NONE && j <= pb)
      jr = j;
  }
  if (jl == NONE || jr == NONE)
    return jl == NONE ? jr : jl;
  return a - jl <= jr - b ? jl : jr;
}

/* The point right before the projection of source token a. */
static size_t before_tok(const struct proj *p, size_t a, size_t pa, size_t pb) {
  if (p->stok[a].n)
    return 2 * p->stok[a].amin + RIGHT;
  size_t j = nearest(p, a, a, pa, pb);
  if (j != NONE)
    return j < a ? 2 * (p->stok[j].amax + 1) + RIGHT
                 : 2 * p->stok[j].amin + RIGHT;
  return 2 * scale_round(a, p->k, p->m) + RIGHT;
}

/* The point right after the projection of source token a. */
static size_t after_tok(const struct proj *p, size_t a, size_t pa, size_t pb) {
  if (p->stok[a].n)
    return 2 * (p->stok[a].amax + 1) + LEFT;
  size_t j = nearest(p, a, a, pa, pb);
  if (j != NONE)
    return j < a ? 2 * (p->stok[j].amax + 1) + LEFT
                 : 2 * p->stok[j].amin + LEFT;
  return 2 * scale_round(a + 1, p->k, p->m) + LEFT;
}

/* Whether a token has a letter (any non-ASCII byte counts as one). */
static int has_letter(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      return 1;
  }
  return 0;
}

/* The target gap q (before target token q; k: the end) that best keeps
 * the translation of source tokens pa..g-1 before it and that of g..pb
 * after it, so that a placeholder between two phrases stays between them
 * when the translation reorders words inside one ("parity <x/>April
 * 2019" -> "paritás <x/>2019. április"). Only a clean cut: NONE unless
 * both sides have links and some gap keeps every link on its side (the
 * most links left-to-left plus right-to-right, as the span-score rule
 * measures pairs, is then all of them); where the translation reorders
 * across the placeholder, the next word's place is better. Those gaps
 * lie after the last target of the left side and up to the first of the
 * right side; the one nearest want. */
static size_t separating_gap(struct proj *p, size_t g, size_t pa, size_t pb,
                             size_t want) {
  if (p->m == 0)
    return NONE;
  if (pb >= p->m)
    pb = p->m - 1;
  if (g <= pa || g > pb)
    return NONE;
  size_t left_lo, left_hi, right_lo, right_hi;
  aligned_range(p, pa, g - 1, &left_lo, &left_hi);
  aligned_range(p, g, pb, &right_lo, &right_hi);
  if (left_lo == NONE || right_lo == NONE || left_hi + 1 > right_lo)
    return NONE;
  return want <= left_hi ? left_hi + 1 : want > right_lo ? right_lo : want;
}

/* The point of a tag that is not a pair, or of the OPEN of a pair that
 * covers no token (then kind is XMT_TAG_PLACEHOLDER), inside a parent
 * covering source tokens pa..pb. */
static size_t point_of(struct proj *p, const struct item *t,
                       enum xmt_tag_kind kind, size_t pa, size_t pb) {
  size_t g = t->tok;
  if (t->inside) {
    size_t rel = t->off - p->st[g].start, len = p->st[g].end - p->st[g].start;
    int after = kind == XMT_TAG_ISOLATED_CLOSE ||
                (kind != XMT_TAG_ISOLATED_OPEN && 2 * rel > len);
    return after ? after_tok(p, g, pa, pb) : before_tok(p, g, pa, pb);
  }
  if (g == 0)
    return 0; /* before the first token: the very start */
  if (g == p->m)
    return 2 * p->k + RIGHT; /* after the last token: the very end */
  if (g > pb || kind == XMT_TAG_ISOLATED_CLOSE)
    return after_tok(p, g - 1, pa, pb);
  size_t anchor = xmt_space_anchor(p, t, pb);
  if (anchor != NONE)
    return anchor;
  /* A placeholder glued to the word before it and not to the one after
   * ("word<x/> next") stays with that word. */
  if (kind != XMT_TAG_ISOLATED_OPEN && t->off == p->st[g - 1].end &&
      t->off < p->st[g].start)
    return after_tok(p, g - 1, pa, pb);
  /* Glued to both, after a number or punctuation ("2.1.<x/>Scope",
   * "(11)<x/>The"): the tab or field after a numbering, which stays with
   * the numbering, copied as it is, rather than follow a word that the
   * translation may move. */
  if (kind == XMT_TAG_PLACEHOLDER && t->off == p->st[g - 1].end &&
      t->off == p->st[g].start && p->stok[g - 1].n &&
      !has_letter(p->src + p->st[g - 1].start,
                  p->st[g - 1].end - p->st[g - 1].start))
    return after_tok(p, g - 1, pa, pb);
  size_t pt = before_tok(p, g, pa, pb);
  if (kind == XMT_TAG_PLACEHOLDER && g > pa && g <= pb) {
    size_t q = separating_gap(p, g, pa, pb, pt >> 1);
    if (q != NONE)
      return 2 * q + RIGHT;
  }
  return pt;
}

/* --- Spans ------------------------------------------------------------- */

/* Zenkel et al.: the target span maximising links inside-to-inside plus
 * outside-to-outside, i.e. the maximum-sum run of w[t] = links from inside
 * minus links from outside; ties go to the shortest, then the leftmost. */
static void score_span(struct proj *p, size_t a, size_t b, size_t plo,
                       size_t phi, size_t *lo, size_t *hi) {
  long long *w = p->w;
  for (size_t t = plo; t <= phi; t++)
    w[t] = 0;
  for (size_t s = 0; s < p->m; s++) {
    const size_t *v = p->targets + p->stok[s].first;
    for (size_t l = 0; l < p->stok[s].n; l++)
      if (v[l] >= plo && v[l] <= phi)
        w[v[l]] += s >= a && s <= b ? 1 : -1;
  }
  long long sum = 0, min_sum = 0, best = 0;
  size_t min_at = plo, best_len = NONE;
  for (size_t j = plo; j <= phi; j++) {
    sum += w[j];
    long long score = sum - min_sum;
    size_t len = j - min_at + 1;
    if (best_len == NONE || score > best || (score == best && len < best_len)) {
      best = score;
      best_len = len;
      *lo = min_at;
      *hi = j;
    }
    if (sum <= min_sum) { /* "<=": a later start makes a shorter span */
      min_sum = sum;
      min_at = j + 1;
    }
  }
}

/* 1 when target token t is an elided article or pronoun (French l', d',
 * s', qu', Italian dell'): the tokenizer cuts these off the word they
 * lean on, so they end with the apostrophe. */
static int elided(const struct proj *p, size_t t) {
  size_t start = p->tt[t].start, end = p->tt[t].end;
  const char *s = p->tgt;
  if (end - start >= 2 && s[end - 1] == '\'')
    return 1;
  return end - start >= 4 && memcmp(s + end - 3, "\xE2\x80\x99", 3) == 0;
}

/* 1 when every source token of a..b linked to target token t is also
 * linked to t + 1, the word t leans on: the aligner took the two for one
 * word. Not so for "the" -> "l'" alone, or "don't" -> "n'... pas". */
static int leans_on_next(const struct proj *p, size_t a, size_t b, size_t t) {
  for (size_t s = a; s <= b; s++)
    if (xmt_proj_linked(p, s, t) && !xmt_proj_linked(p, s, t + 1))
      return 0;
  return 1;
}

/* Target tokens of a pair over source tokens a..b inside a parent over
 * source tokens pa..pb and target tokens plo..phi; edges: the pair opens
 * and closes between source tokens, not inside one ("CO<g>2</g>"). */
static void span_of(struct proj *p, size_t a, size_t b, size_t pa, size_t pb,
                    size_t plo, size_t phi, int edges, size_t *lo, size_t *hi) {
  /* A pair over every source token of its parent (of the segment, at the
   * top) covers every target token of its parent: words the alignment
   * leaves out at the edges (a full stop, an article) stay inside. */
  if (a <= pa && b >= pb) {
    *lo = plo;
    *hi = phi;
    return;
  }
  size_t l, h;
  aligned_range(p, a, b, &l, &h);
  if (l != NONE && p->rule == XMT_RULE_SCORE) {
    score_span(p, a, b, plo, phi, lo, hi);
    return;
  }
  if (l == NONE) {
    /* Nothing aligned: borrow the nearest aligned neighbour's nearest
     * target token, else scale the position. */
    size_t j = nearest(p, a, b, pa, pb);
    if (j != NONE) {
      l = h = j < a ? p->stok[j].amax : p->stok[j].amin;
    } else {
      l = scale_round(a, p->k, p->m);
      h = scale_round(b + 1, p->k, p->m);
      h = h > l ? h - 1 : l;
      if (p->k > 0 && l >= p->k)
        l = h = p->k - 1;
    }
  }
  /* A child stays inside its parent; one wholly outside it takes the
   * parent's nearest token. */
  if (h < plo) {
    l = h = plo;
  } else if (l > phi) {
    l = h = phi;
  } else {
    l = l < plo ? plo : l;
    h = h > phi ? phi : h;
  }
  /* Translators open a tag after an elided article or pronoun
   * ("s'<g>applique</g>" for "<g>applies</g>", "l'<g>indicateur</g>"): the
   * aligner links it with the word it leans on, but it stays out. */
  while (l < h && elided(p, l) && leans_on_next(p, a, b, l))
    l++;
  if (edges)
    xmt_proj_word_edges(p, a, b, plo, phi, &l, &h);
  *lo = l;
  *hi = h;
}

/* Projects tag i (a pair's OPEN or a tag that is not a pair). */
static void place(struct proj *p, size_t i) {
  struct item *t = &p->it[i];
  const struct item *par = &p->it[t->sparent];
  int root = t->sparent == p->n;
  /* The parent's source tokens pa..pb (none when pa > pb). */
  size_t pa = root ? 0 : par->a, pb = root ? p->m - 1 : par->b;
  if (p->m == 0) {
    pa = 1;
    pb = 0;
  }
  size_t rlo = root ? 0 : par->span ? 2 * par->lo + 1 : par->pt;
  size_t rhi = root ? 2 * p->k + 1 : par->span ? 2 * par->hi + 2 : par->pt;
  if (t->kind == XMT_TAG_OPEN && t->a <= t->b && p->k > 0 &&
      (root || par->span)) {
    size_t plo = root ? 0 : par->lo, phi = root ? p->k - 1 : par->hi;
    t->span = 1;
    int edges = !t->inside && !p->it[t->partner].inside;
    t->whole = t->a <= pa && t->b >= pb;
    if (t->whole || p->rule != XMT_RULE_MINMAX || !edges ||
        !xmt_proj_verbatim_span(p, t->a, t->b, plo, phi, &t->lo, &t->hi))
      span_of(p, t->a, t->b, pa, pb, plo, phi, edges, &t->lo, &t->hi);
    xmt_space_siblings(p, i);
    xmt_tree_insert_span(p, i, t->sparent);
    return;
  }
  enum xmt_tag_kind kind =
      t->kind == XMT_TAG_OPEN ? XMT_TAG_PLACEHOLDER : t->kind;
  size_t pt = point_of(p, t, kind, pa, pb);
  t->span = 0;
  t->pt = pt < rlo ? rlo : pt > rhi ? rhi : pt;
  xmt_tree_insert_point(p, i, t->sparent);
}

/* --- Byte offsets ------------------------------------------------------ */

/* The offset of tag t at point pt: the byte offset of the point, unless
 * the source word or gap around t reappears unchanged and aligned at pt;
 * then t keeps its place inside it (so an identical translation comes back
 * byte for byte). */
static size_t refine(const struct proj *p, const struct item *t, size_t pt,
                     int whole) {
  size_t base = xmt_proj_byte_of(p, pt), B = pt >> 1;
  if (t->inside) {
    size_t s = t->tok;
    if ((pt & 1) == RIGHT ? B >= p->k : B == 0)
      return base;
    size_t T = (pt & 1) == RIGHT ? B : B - 1;
    size_t n = p->st[s].end - p->st[s].start;
    if (!xmt_proj_linked(p, s, T) || p->tt[T].end - p->tt[T].start != n ||
        memcmp(p->src + p->st[s].start, p->tgt + p->tt[T].start, n) != 0)
      return base;
    return p->tt[T].start + (t->off - p->st[s].start);
  }
  size_t g = t->tok;
  /* the ends of a whole pair are at the ends of its parent, whatever the
   * links: only the text of the gap must reappear */
  if (!whole &&
      (!(g == 0 ? B == 0 : B > 0 && xmt_proj_linked(p, g - 1, B - 1)) ||
       !(g == p->m ? B == p->k : B < p->k && xmt_proj_linked(p, g, B))))
    return xmt_space_offset(p, t, pt);
  if (whole && (g == 0) != (B == 0))
    return base;
  if (whole && (g == p->m) != (B == p->k))
    return base;
  size_t sgs = g > 0 ? p->st[g - 1].end : 0;
  size_t sge = g < p->m ? p->st[g].start : p->slen;
  size_t tgs = B > 0 ? p->tt[B - 1].end : 0;
  size_t tge = B < p->k ? p->tt[B].start : p->tlen;
  if (sge - sgs != tge - tgs ||
      memcmp(p->src + sgs, p->tgt + tgs, sge - sgs) != 0)
    return xmt_space_offset(p, t, pt);
  return tgs + (t->off - sgs);
}

static void refine_all(struct proj *p) {
  for (size_t i = 0; i < p->n; i++) {
    struct item *t = &p->it[i];
    if (t->kind == XMT_TAG_CLOSE)
      continue;
    const struct item *close = t->kind == XMT_TAG_OPEN ? &p->it[t->partner] : t;
    int whole = t->span && t->whole;
    t->rsb = refine(p, t, t->span ? 2 * t->lo + 1 : t->pt, whole);
    t->reb = refine(p, close, t->span ? 2 * t->hi + 2 : t->pt, whole);
    t->plain = t->reb < t->rsb;
  }
}

/* Sets the offsets to emit: refined, or plain where given up. */
static void set_bytes(struct proj *p) {
  for (size_t i = 0; i < p->n; i++) {
    struct item *t = &p->it[i];
    if (t->kind == XMT_TAG_CLOSE)
      continue;
    t->sb = t->plain ? xmt_proj_byte_of(p, t->span ? 2 * t->lo + 1 : t->pt)
                     : t->rsb;
    t->eb = t->plain ? xmt_proj_byte_of(p, t->span ? 2 * t->hi + 2 : t->pt)
                     : t->reb;
  }
  p->it[p->n].sb = 0;
  p->it[p->n].eb = p->tlen;
  xmt_space_bytes(p);
}

/* --- Emission ---------------------------------------------------------- */

static int item_before(const struct proj *p, size_t i, size_t j) {
  const struct item *x = &p->it[i], *y = &p->it[j];
  if (x->sb != y->sb)
    return x->sb < y->sb;
  if (x->eb != y->eb)
    return x->eb < y->eb;
  return i < j;
}

/* Clamps the children of node into its byte range and sorts them. */
static void sort_children(struct proj *p, size_t node) {
  size_t lo = p->it[node].sb, hi = p->it[node].eb, c = 0;
  for (size_t x = p->it[node].child; x != NONE; x = p->it[x].next) {
    struct item *xi = &p->it[x];
    xi->sb = xi->sb < lo ? lo : xi->sb > hi ? hi : xi->sb;
    xi->eb = xi->eb < lo ? lo : xi->eb > hi ? hi : xi->eb;
    p->tmp[c++] = x;
  }
  xmt_proj_sort(p, p->tmp, c, item_before);
  size_t *link = &p->it[node].child;
  for (size_t j = 0; j < c; j++) {
    *link = p->tmp[j];
    link = &p->it[p->tmp[j]].next;
  }
  *link = NONE;
}

/* Walks the target tree into order/offs. The result is well nested by
 * construction; returns NONE when its offsets are in order too, else the
 * index of the first emitted tag out of order (n if tags are missing). */
static size_t emit(struct proj *p) {
  size_t e = 0, root = p->n;
  sort_children(p, root);
  size_t cur = p->it[root].child;
  while (cur != NONE) {
    struct item *c = &p->it[cur];
    p->order[e] = cur;
    p->offs[e++] = c->sb;
    if (c->kind == XMT_TAG_OPEN && c->child != NONE) {
      sort_children(p, cur);
      cur = c->child;
      continue;
    }
    for (;;) {
      c = &p->it[cur];
      if (c->kind == XMT_TAG_OPEN) {
        p->order[e] = c->partner;
        p->offs[e++] = c->eb;
      }
      if (c->next != NONE) {
        cur = c->next;
        break;
      }
      cur = c->tparent;
      if (cur == root) {
        cur = NONE;
        break;
      }
    }
  }
  if (e != p->n)
    return p->n;
  size_t prev = 0;
  for (size_t i = 0; i < e; i++) {
    size_t off = p->offs[i];
    if (off < prev || off > p->tlen ||
        !xmt_utf8_at_boundary(p->tgt, p->tlen, off))
      return i;
    prev = off;
  }
  return NONE;
}

/* The item standing for emitted tag i. */
static struct item *owner(struct proj *p, size_t i) {
  struct item *t = &p->it[p->order[i]];
  return t->kind == XMT_TAG_CLOSE ? &p->it[t->partner] : t;
}

/* Emits with as many refined offsets as keep the tags in order: the two
 * tags found out of order give theirs up, then all do. 0 when even the
 * plain offsets fail, which the construction rules out. */
static int emit_in_order(struct proj *p) {
  int all_plain = 0;
  for (;;) {
    set_bytes(p);
    size_t bad = emit(p);
    if (bad == NONE)
      return 1;
    if (bad == p->n)
      return 0;
    struct item *x = owner(p, bad), *y = owner(p, bad > 0 ? bad - 1 : bad);
    if (x->plain && y->plain) {
      if (all_plain)
        return 0;
      all_plain = 1;
      for (size_t i = 0; i < p->n; i++)
        p->it[i].plain = 1;
    }
    x->plain = y->plain = 1;
  }
}

/* The safe placement: every tag at its proportional byte position, in
 * source order (so as well nested as the source). */
static void proportional(struct proj *p) {
  for (size_t i = 0; i < p->n; i++) {
    size_t off = p->slen ? scale(p->it[i].off, p->tlen, p->slen, 0) : 0;
    if (off > p->tlen)
      off = p->tlen;
    if (off < p->tlen)
      off = xmt_utf8_floor(p->tgt, 0, off);
    p->offs[i] = off;
  }
}

static xmt_status build(xmt_segment *out, const xmt_segment *source,
                        const struct proj *p) {
  size_t pool = 0;
  struct xmt_tag tag;
  for (size_t i = 0; i < p->n; i++) {
    (void)xmt_segment_tag(source, i, &tag);
    pool += strlen(tag.id) + strlen(tag.name) + tag.markup_len + 3;
  }
  xmt_status st = xmt_segment_reserve(out, p->tlen, pool, p->n);
  size_t at = 0;
  for (size_t e = 0; e < p->n && st == XMT_OK; e++) {
    (void)xmt_segment_tag(source, p->order[e], &tag);
    st = xmt_segment_append_valid_text(out, p->tgt + at, p->offs[e] - at);
    at = p->offs[e];
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_valid_text(out, p->tgt + at, p->tlen - at);
  if (st != XMT_OK)
    xmt_segment_clear(out);
  return st;
}

/* --- Setup ------------------------------------------------------------- */

/* Carves the scratch arrays out of one block; returns its size in bytes
 * when mem is NULL. */
static size_t carve(struct proj *p, unsigned char *mem, size_t nlinks) {
  size_t at = 0;
#define CARVE(field, count)                                                    \
  do {                                                                         \
    at = (at + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);      \
    if (mem != NULL)                                                           \
      p->field = (void *)(mem + at);                                           \
    at += (count) * sizeof *p->field;                                          \
  } while (0)
  CARVE(stok, p->m);
  CARVE(targets, nlinks);
  CARVE(rmin, 2 * p->m);
  CARVE(rmax, 2 * p->m);
  CARVE(w, p->k);
  CARVE(it, p->n + 1);
  CARVE(tmp, p->n);
  CARVE(tmp2, p->n);
  CARVE(order, p->n);
  CARVE(offs, p->n);
#undef CARVE
  return at;
}

/* Locates every tag among the source tokens and builds the source tree. */
static void locate(struct proj *p, const xmt_segment *source) {
  struct xmt_tag tag;
  size_t tok = 0, depth = 0, *stack = p->tmp;
  for (size_t i = 0; i < p->n; i++) {
    struct item *t = &p->it[i];
    (void)xmt_segment_tag(source, i, &tag);
    t->kind = tag.kind;
    t->off = tag.offset;
    while (tok < p->m && p->st[tok].end <= t->off)
      tok++;
    t->tok = tok;
    t->inside = tok < p->m && p->st[tok].start < t->off;
    t->child = t->next = t->tparent = NONE;
    t->spans = t->points = t->left = t->right = NONE;
    t->span = t->whole = 0;
    t->shares = NONE;
    t->sparent = depth > 0 ? stack[depth - 1] : p->n;
    if (t->kind == XMT_TAG_OPEN) {
      stack[depth++] = i;
    } else if (t->kind == XMT_TAG_CLOSE && depth > 0) { /* source checked */
      struct item *o = &p->it[stack[--depth]];
      t->sparent = o->sparent;
      t->partner = stack[depth];
      o->partner = i;
      /* Tokens overlapping [open, close): from the first ending after the
       * OPEN to the last starting before the CLOSE. */
      size_t end = t->tok + (size_t)t->inside;
      o->a = o->tok;
      o->b = end > 0 ? end - 1 : 0;
      if (o->off == t->off || end <= o->a)
        o->a = 1, o->b = 0;
    }
  }
  struct item *root = &p->it[p->n];
  memset(root, 0, sizeof *root);
  root->kind = XMT_TAG_OPEN;
  root->child = root->next = root->tparent = root->shares = NONE;
  root->spans = root->points = root->left = root->right = NONE;
}

static xmt_status project(struct proj *p, xmt_segment *out,
                          const xmt_segment *source,
                          const struct xmt_link *links, size_t nlinks) {
  index_links(p, links, nlinks);
  index_ranges(p);
  locate(p, source);
  for (size_t i = 0; i < p->n; i++)
    if (p->it[i].kind != XMT_TAG_CLOSE)
      place(p, i);
  xmt_tree_link_children(p);
  refine_all(p);
  if (!emit_in_order(p)) {
    proportional(p);
    return xmt_segment_retag(out, source, p->tgt, p->tlen, p->offs);
  }
  return build(out, source, p);
}

xmt_status xmt_project(xmt_segment *out, const xmt_segment *source,
                       const xmt_tokens *source_tokens, const char *target_text,
                       size_t target_len, const xmt_tokens *target_tokens,
                       const xmt_alignment *alignment,
                       enum xmt_projection_rule rule) {
  if (out == NULL || source == NULL || out == source || source_tokens == NULL ||
      target_tokens == NULL || (target_text == NULL && target_len > 0) ||
      (rule != XMT_RULE_MINMAX && rule != XMT_RULE_SCORE))
    return XMT_ERR_USAGE;
  xmt_segment_clear(out);
  struct proj p;
  memset(&p, 0, sizeof p);
  p.src = xmt_segment_text(source, &p.slen);
  p.tgt = target_text != NULL ? target_text : "";
  p.tlen = target_len;
  p.st = xmt_tokens_array(source_tokens);
  p.tt = xmt_tokens_array(target_tokens);
  p.m = xmt_tokens_count(source_tokens);
  p.k = xmt_tokens_count(target_tokens);
  p.n = xmt_segment_tag_count(source);
  p.rule = rule;
  const struct xmt_link *links = xmt_alignment_links(alignment);
  size_t nlinks = xmt_alignment_count(alignment);
  if (!tokens_ok(p.st, p.m, p.src, p.slen, 0) ||
      !tokens_ok(p.tt, p.k, p.tgt, p.tlen, 1))
    return XMT_ERR_USAGE;
  for (size_t l = 0; l < nlinks; l++)
    if (links[l].source >= p.m || links[l].target >= p.k)
      return XMT_ERR_USAGE;
  if (xmt_utf8_valid_prefix(p.tgt, p.tlen) != p.tlen)
    return XMT_ERR_ENCODING;
  xmt_status st = xmt_segment_check(source, NULL);
  if (st != XMT_OK)
    return st;
  if (p.n == 0)
    return xmt_segment_append_valid_text(out, p.tgt, p.tlen);

  union {
    max_align_t align;
    unsigned char bytes[LOCAL_SCRATCH];
  } local;
  size_t need = carve(&p, NULL, nlinks);
  unsigned char *mem = need <= sizeof local ? local.bytes : malloc(need);
  if (mem == NULL)
    return XMT_ERR_NOMEM;
  carve(&p, mem, nlinks);
  st = project(&p, out, source, links, nlinks);
  if (mem != local.bytes)
    free(mem);
  return st;
}
