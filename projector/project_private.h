/* project_private.h -- the projector's working state, shared by project.c
 * (the rules, offsets and emission) and project_tree.c (the target tree).
 * Not installed. */
#ifndef XMT_PROJECT_PRIVATE_H
#define XMT_PROJECT_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "project_private.h is internal to libxliffmt"
#endif

#include "projector_private.h"

#define NONE SIZE_MAX

struct stok {
  size_t amin, amax; /* aligned target tokens; NONE when unaligned */
  size_t first, n;   /* its targets: p->targets[first..first+n), sorted */
  size_t prev, next; /* nearest aligned token at or before / after it */
};

/* One tag. The record of a pair's OPEN stands for the whole pair. */
struct item {
  enum xmt_tag_kind kind;
  size_t off;     /* source byte offset */
  size_t tok;     /* the token it is inside, or its gap (tokens before it) */
  int inside;     /* 1 when strictly inside token tok */
  size_t partner; /* OPEN <-> CLOSE */
  size_t sparent; /* OPEN of the innermost pair around it, or the root */
  size_t a, b;    /* a pair's source tokens; a > b when it covers none */
  int span;       /* 1: target tokens lo..hi; 0: the point pt */
  int whole;      /* a pair over all its parent's tokens, on both sides */
  size_t lo, hi, pt;
  /* The target tree while tags are placed: the children of a node in two
   * treaps, its spans by lo and its points by pt, linked through left and
   * right; seq orders the children as they were attached. */
  size_t tparent, spans, points, left, right, seq;
  size_t child, next; /* the children in emission order (emit) */
  size_t sb, eb;      /* target byte offsets of the OPEN and CLOSE (or tag) */
  size_t rsb, reb;    /* the same, refined inside unchanged words and gaps */
  int plain;          /* 1 when the refinement is given up */
  size_t shares;      /* the left sibling whose one target word it shares */
};

struct proj {
  const char *src, *tgt;
  size_t slen, tlen;
  const struct xmt_token *st, *tt;
  size_t m, k, n;
  enum xmt_projection_rule rule;
  struct stok *stok; /* m */
  size_t *targets;   /* one per link */
  size_t *rmin;      /* 2m: least amin over ranges of source tokens */
  size_t *rmax;      /* 2m: greatest amax + 1 (0: none aligned) */
  long long *w;      /* k: span-scoring weights */
  struct item *it;   /* n + 1; the root is it[n] */
  size_t *tmp;       /* n */
  size_t *tmp2;      /* n */
  size_t *order;     /* n: emitted tags */
  size_t *offs;      /* n: their offsets */
  size_t clock;      /* the last seq given */
};

/* 1 when point pt lies strictly inside the span of item x. */
static inline int xmt_point_inside(const struct item *x, size_t pt) {
  return x->span && 2 * x->lo + 1 < pt && pt < 2 * x->hi + 2;
}

/* The byte offset of target point pt. */
size_t xmt_proj_byte_of(const struct proj *p, size_t pt);
/* 1 when source token s is linked to target token t. */
int xmt_proj_linked(const struct proj *p, size_t s, size_t t);

/* project_words.c: the span *lo..*hi of a pair over source tokens a..b,
 * inside target tokens plo..phi, widened over the rest of a joined word
 * and narrowed off a trailing colon or comma. */
void xmt_proj_word_edges(const struct proj *p, size_t a, size_t b, size_t plo,
                         size_t phi, size_t *lo, size_t *hi);
/* 1 with *lo..*hi set when the words of source tokens a..b come once in
 * the source and once, the same, among target tokens plo..phi. */
int xmt_proj_verbatim_span(const struct proj *p, size_t a, size_t b, size_t plo,
                           size_t phi, size_t *lo, size_t *hi);

/* project_space.c: the point of isolated code t at a gap, inside a parent
 * over source tokens ..pb, that the engine's spacing or the final
 * punctuation anchors, or NONE. */
size_t xmt_space_anchor(const struct proj *p, const struct item *t, size_t pb);
/* The byte offset of isolated code t at point pt, with the spacing it had
 * in the source where the target's spaces allow. */
size_t xmt_space_offset(const struct proj *p, const struct item *t, size_t pt);
/* Keeps pair i, its span set, beside the sibling pair right before it in
 * the source instead of inside it: shares out that one's words, or marks
 * the word the two share. */
void xmt_space_siblings(struct proj *p, size_t i);
/* Cuts each word that two sibling pairs share between them (after the
 * byte offsets are set). */
void xmt_space_bytes(struct proj *p);

/* Puts item c, a point, under node or the deepest of its descendants
 * whose span holds the point. */
void xmt_tree_insert_point(struct proj *p, size_t c, size_t node);
/* Puts item c, a span, under node or the deepest descendant whose span
 * holds it, shrunk so as not to cross a span placed before; the children
 * of that node inside c move under c. */
void xmt_tree_insert_span(struct proj *p, size_t c, size_t node);
/* Links the children of every node into its child list (in no order). */
void xmt_tree_link_children(struct proj *p);
/* Sorts v[0..n) (at most p->n items; p->tmp2 is the work space), stable,
 * in n log n comparisons of before. */
void xmt_proj_sort(struct proj *p, size_t *v, size_t n,
                   int (*before)(const struct proj *, size_t, size_t));

#endif /* XMT_PROJECT_PRIVATE_H */
