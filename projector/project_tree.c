/* project_tree.c -- the target tree of the projector: where each placed
 * tag goes among those placed before it (see project.c).
 *
 * A node's children are its spans, disjoint (a span inside another is
 * its child, one that would cross another is shrunk), and its points.
 * A segment may hold a hundred thousand codes side by side, so the
 * children are kept in treaps (search trees balanced by pseudo-random
 * priorities): the span that holds a point, the spans a new one could
 * cross and the children that fall inside it are found in logarithmic
 * time, where a walk over the children for each tag took quadratic time.
 * The outcome is that of the walk, which met the children newest first:
 * seq tells which that was where two spans could act on a new one. */
#include "config.h"

#include <stdlib.h>

#include "project_private.h"

/* splitmix64 of the item index: the same tree for the same tags. */
static uint64_t priority(size_t i) {
  uint64_t z = (uint64_t)i + UINT64_C(0x9E3779B97F4A7C15);
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static size_t key_of(const struct proj *p, size_t x, int points) {
  return points ? p->it[x].pt : p->it[x].lo;
}

/* Splits treap t into the items before (key, i) and the others; items
 * are ordered by key, then index. */
static void split(struct proj *p, size_t t, int points, size_t key, size_t i,
                  size_t *before, size_t *after) {
  if (t == NONE) {
    *before = *after = NONE;
    return;
  }
  size_t k = key_of(p, t, points);
  if (k < key || (k == key && t < i)) {
    split(p, p->it[t].right, points, key, i, &p->it[t].right, after);
    *before = t;
  } else {
    split(p, p->it[t].left, points, key, i, before, &p->it[t].left);
    *after = t;
  }
}

/* Joins two treaps, every item of a before every item of b. */
static size_t merge(struct proj *p, size_t a, size_t b) {
  if (a == NONE)
    return b;
  if (b == NONE)
    return a;
  if (priority(a) > priority(b)) {
    p->it[a].right = merge(p, p->it[a].right, b);
    return a;
  }
  p->it[b].left = merge(p, a, p->it[b].left);
  return b;
}

/* Attaches item c to node, as the newest child. */
static void attach(struct proj *p, size_t node, size_t c, int points) {
  size_t *root = points ? &p->it[node].points : &p->it[node].spans;
  size_t before, after;
  p->it[c].left = p->it[c].right = NONE;
  split(p, *root, points, key_of(p, c, points), c, &before, &after);
  *root = merge(p, merge(p, before, c), after);
  p->it[c].tparent = node;
  p->it[c].seq = ++p->clock;
}

/* The child span of node over target token t, or NONE. */
static size_t span_over(const struct proj *p, size_t node, size_t t) {
  size_t best = NONE;
  for (size_t x = p->it[node].spans; x != NONE;) {
    if (p->it[x].lo <= t) {
      best = x;
      x = p->it[x].right;
    } else {
      x = p->it[x].left;
    }
  }
  return best != NONE && p->it[best].hi >= t ? best : NONE;
}

/* The child span of node with point pt strictly inside, or NONE: the
 * last one to open before pt, as the spans are disjoint. */
static size_t span_around(const struct proj *p, size_t node, size_t pt) {
  size_t best = NONE;
  for (size_t x = p->it[node].spans; x != NONE;) {
    if (2 * p->it[x].lo + 1 < pt) {
      best = x;
      x = p->it[x].right;
    } else {
      x = p->it[x].left;
    }
  }
  return best != NONE && xmt_point_inside(&p->it[best], pt) ? best : NONE;
}

void xmt_tree_insert_point(struct proj *p, size_t c, size_t node) {
  size_t x;
  while ((x = span_around(p, node, p->it[c].pt)) != NONE)
    node = x;
  attach(p, node, c, 1);
}

enum relation { APART, NEST, CROSS_LEFT, CROSS_RIGHT };

/* What child span x of a node does to a new span c there. */
static enum relation relation(const struct item *c, const struct item *x) {
  if (x->lo <= c->lo && c->hi <= x->hi)
    return NEST; /* inside x, or equal to it */
  if (c->lo < x->lo && x->lo <= c->hi && c->hi < x->hi)
    return CROSS_LEFT;
  if (x->lo < c->lo && c->lo <= x->hi && x->hi < c->hi)
    return CROSS_RIGHT;
  return APART;
}

/* The items of treap t into p->tmp from *n on, now children of c. */
static void collect(struct proj *p, size_t t, size_t c, size_t *n) {
  while (t != NONE) {
    collect(p, p->it[t].left, c, n);
    p->it[t].tparent = c;
    p->tmp[(*n)++] = t;
    t = p->it[t].right;
  }
}

static int newer(const struct proj *p, size_t x, size_t y) {
  return p->it[x].seq > p->it[y].seq;
}

/* The children of node inside the new span c move under it: the spans
 * that open within it (none crosses it any more) and the points strictly
 * inside. The walk met them newest first and made each the newest child
 * of c in turn: their order is reversed. */
static void adopt(struct proj *p, size_t c, size_t node) {
  struct item *ci = &p->it[c], *ni = &p->it[node];
  size_t before, inside, after, n = 0;
  /* A left sibling on the same word stays beside c (ordered by index). */
  split(p, ni->spans, 0, ci->lo, ci->shares != NONE ? c : 0, &before, &inside);
  split(p, inside, 0, ci->hi + 1, 0, &inside, &after);
  ni->spans = merge(p, before, after);
  ci->spans = inside;
  split(p, ni->points, 1, 2 * ci->lo + 2, 0, &before, &inside);
  split(p, inside, 1, 2 * ci->hi + 2, 0, &inside, &after);
  ni->points = merge(p, before, after);
  ci->points = inside;
  collect(p, ci->points, c, &n);
  n = 0;
  collect(p, ci->spans, c, &n);
  xmt_proj_sort(p, p->tmp, n, newer);
  for (size_t i = 0; i < n; i++)
    p->it[p->tmp[i]].seq = ++p->clock;
}

void xmt_tree_insert_span(struct proj *p, size_t c, size_t node) {
  struct item *ci = &p->it[c];
  for (;;) {
    /* Only the spans over c's ends can hold or cross it; the newer acts
     * first. Each step goes down a level or shrinks c. */
    size_t x = span_over(p, node, ci->lo), y = span_over(p, node, ci->hi);
    if (x == NONE || (y != NONE && newer(p, y, x))) {
      size_t swap = x;
      x = y;
      y = swap;
    }
    enum relation r = x != NONE ? relation(ci, &p->it[x]) : APART;
    if (r == APART && y != NONE && y != x) {
      x = y;
      r = relation(ci, &p->it[x]);
    }
    if (r == NEST && x == ci->shares && p->it[x].lo == ci->lo &&
        p->it[x].hi == ci->hi)
      break; /* beside its left sibling on the word they share */
    if (r == NEST)
      node = x;
    else if (r == CROSS_LEFT)
      ci->hi = p->it[x].lo - 1;
    else if (r == CROSS_RIGHT)
      ci->lo = p->it[x].hi + 1;
    else
      break;
  }
  adopt(p, c, node);
  attach(p, node, c, 0);
}

void xmt_tree_link_children(struct proj *p) {
  for (size_t i = 0; i < p->n; i++) {
    struct item *t = &p->it[i];
    if (t->kind == XMT_TAG_CLOSE)
      continue;
    t->next = p->it[t->tparent].child;
    p->it[t->tparent].child = i;
  }
}

/* Bottom-up merge sort: stable, n log n, with the projector at hand. */
void xmt_proj_sort(struct proj *p, size_t *v, size_t n,
                   int (*before)(const struct proj *, size_t, size_t)) {
  size_t *from = v, *to = p->tmp2;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n;
      size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi)
        to[o++] = before(p, from[j], from[i]) ? from[j++] : from[i++];
      while (i < mid)
        to[o++] = from[i++];
      while (j < hi)
        to[o++] = from[j++];
    }
    size_t *swap = from;
    from = to;
    to = swap;
  }
  if (from != v)
    memcpy(v, from, n * sizeof *v);
}
