/* inline_pairs.c -- the inline builder's pairs and keys: bx/ex and
 * bpt/ept found together become pairs, and pairs that share a key are
 * told apart. Both run in O(n log n) for n codes, as a segment may hold
 * a hundred thousand, nested or side by side: codes are sorted by name
 * and key (struct xmt_tag_ref) and found by binary search, where looking
 * through every other code for each took quadratic time. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "xliff_private.h"

struct xmt_tag_ref {
  const char *name, *key; /* in ib->pool, which must not move meanwhile */
  size_t index;
};

static int ref_cmp(const void *x, const void *y) {
  const struct xmt_tag_ref *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  if (c == 0)
    c = strcmp(a->key, b->key);
  if (c == 0)
    c = a->index < b->index ? -1 : a->index > b->index;
  return c;
}

/* The first of refs[0..n) with that name and key, or n. */
static size_t ref_find(const struct xmt_tag_ref *refs, size_t n,
                       const char *name, const char *key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(refs[mid].name, name);
    if (c == 0)
      c = strcmp(refs[mid].key, key);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && strcmp(refs[lo].name, name) == 0 &&
                 strcmp(refs[lo].key, key) == 0
             ? lo
             : n;
}

/* The tags of the given kind as refs, sorted; their number in *n. */
static xmt_status sorted_refs(struct xmt_inline_builder *ib,
                              enum xmt_tag_kind kind, int by_name, size_t *n) {
  *n = 0;
  for (size_t i = 0; i < ib->ntags; i++)
    *n += ib->tags[i].kind == kind;
  struct xmt_tag_ref *refs =
      xmt_grow_array(ib->refs, &ib->refs_cap, *n, sizeof *refs);
  if (refs == NULL)
    return XMT_ERR_NOMEM;
  ib->refs = refs;
  size_t k = 0;
  for (size_t i = 0; i < ib->ntags; i++)
    if (ib->tags[i].kind == kind) {
      refs[k].name = by_name ? xmt_pending_name(ib, &ib->tags[i]) : "";
      refs[k].key = ib->pool.data + ib->tags[i].key;
      refs[k++].index = i;
    }
  qsort(refs, *n, sizeof *refs, ref_cmp);
  return XMT_OK;
}

/* Work space of n size_t values. */
static size_t *work(struct xmt_inline_builder *ib, size_t n) {
  size_t *w = xmt_grow_array(ib->work, &ib->work_cap, n, sizeof *w);
  if (w != NULL)
    ib->work = w;
  return w;
}

/* ends is a Fenwick tree over the tags, counting the ends of the pairs
 * made so far. */
static void ends_add(size_t *ends, size_t n, size_t i) {
  for (size_t k = i + 1; k <= n; k += k & (~k + 1))
    ends[k]++;
}

/* How many ends lie before tag i. */
static size_t ends_before(const size_t *ends, size_t i) {
  size_t sum = 0;
  for (size_t k = i; k > 0; k -= k & (~k + 1))
    sum += ends[k];
  return sum;
}

/* inside[i]: the index of the innermost g/mrk pair around tag i, or
 * SIZE_MAX. Those pairs come from nested elements. */
static void innermost_pairs(const struct xmt_inline_builder *ib,
                            size_t *inside) {
  size_t cur = SIZE_MAX;
  for (size_t i = 0; i < ib->ntags; i++) {
    const struct xmt_pending_tag *t = &ib->tags[i];
    if (t->kind == XMT_TAG_CLOSE)
      cur = inside[t->partner];
    inside[i] = cur;
    if (t->kind == XMT_TAG_OPEN)
      cur = i;
  }
}

/* Each bx (bpt) pairs with the first unpaired ex (ept) after it that has
 * its key, when the codes between them are balanced, so that the segment
 * stays well nested; tried in order, so that a pair made earlier counts
 * for those tried later. The codes between i and j are balanced when
 * the same g/mrk pairs are around both and no pair made earlier ends
 * between them (it began before i: it would cross). */
xmt_status xmt_ib_pair_isolated(struct xmt_inline_builder *ib) {
  size_t n = ib->ntags, nclose;
  int opens = 0;
  for (size_t i = 0; i < n && !opens; i++)
    opens = ib->tags[i].kind == XMT_TAG_ISOLATED_OPEN;
  if (!opens)
    return XMT_OK;
  xmt_status st = sorted_refs(ib, XMT_TAG_ISOLATED_CLOSE, 1, &nclose);
  if (st != XMT_OK || nclose == 0)
    return st;
  size_t *w = work(ib, nclose + 2 * n + 1);
  if (w == NULL)
    return XMT_ERR_NOMEM;
  /* cursor[g]: the next candidate of the group of refs that starts at g */
  size_t *cursor = w, *inside = w + nclose, *ends = w + nclose + n;
  for (size_t g = 0; g < nclose; g++)
    cursor[g] = g;
  memset(ends, 0, (n + 1) * sizeof *ends);
  innermost_pairs(ib, inside);
  const struct xmt_tag_ref *refs = ib->refs;
  for (size_t i = 0; i < n; i++) {
    struct xmt_pending_tag *o = &ib->tags[i];
    if (o->kind != XMT_TAG_ISOLATED_OPEN)
      continue;
    const char *name = xmt_pending_name(ib, o);
    const char *want = strcmp(name, "bx") == 0    ? "ex"
                       : strcmp(name, "bpt") == 0 ? "ept"
                                                  : NULL;
    const char *key = ib->pool.data + o->key;
    size_t g = want != NULL ? ref_find(refs, nclose, want, key) : nclose;
    if (g == nclose)
      continue;
    size_t c = cursor[g];
    while (c < nclose &&
           (refs[c].index < i || ib->tags[refs[c].index].partner != SIZE_MAX) &&
           strcmp(refs[c].name, want) == 0 && strcmp(refs[c].key, key) == 0)
      c++;
    cursor[g] = c;
    if (c == nclose || strcmp(refs[c].name, want) != 0 ||
        strcmp(refs[c].key, key) != 0)
      continue;
    size_t j = refs[c].index;
    if (inside[i] == inside[j] &&
        ends_before(ends, j) == ends_before(ends, i + 1)) {
      o->kind = XMT_TAG_OPEN;
      ib->tags[j].kind = XMT_TAG_CLOSE;
      o->partner = j;
      ib->tags[j].partner = i;
      ends_add(ends, n, j);
    }
  }
  return XMT_OK;
}

/* Whether "key#n" is the key of a pair (refs: all of them, sorted). */
static int suffix_taken(struct xmt_inline_builder *ib, size_t nrefs,
                        const char *key, unsigned n, xmt_status *st) {
  char suffix[24];
  snprintf(suffix, sizeof suffix, "#%u", n);
  xmt_buf_reset(&ib->candidate);
  *st = xmt_buf_append_str(&ib->candidate, key);
  if (*st == XMT_OK)
    *st = xmt_buf_append_str(&ib->candidate, suffix);
  return *st == XMT_OK &&
         ref_find(ib->refs, nrefs, "", ib->candidate.data) < nrefs;
}

/* A pair key already used by an earlier pair gets a "#n" suffix on both
 * ends, so pairs stay distinguishable; the markup keeps the real ids. n
 * counts on through the segment, skipping the suffixes that would make
 * the key of another pair. (Only a key's first pair keeps it, and a key
 * made so can never equal another, so the keys the pairs came with are
 * all there is to look at.) */
/* Keys compared pair by pair, for a segment of few pairs: most segments
 * have no key twice, and then nothing is sorted. */
#define FEW_PAIRS 16

static int keys_distinct(const struct xmt_inline_builder *ib) {
  size_t open[FEW_PAIRS], n = 0;
  for (size_t i = 0; i < ib->ntags; i++) {
    if (ib->tags[i].kind != XMT_TAG_OPEN)
      continue;
    if (n == FEW_PAIRS)
      return 0; /* many: the sort decides */
    const char *key = ib->pool.data + ib->tags[i].key;
    for (size_t k = 0; k < n; k++)
      if (strcmp(ib->pool.data + ib->tags[open[k]].key, key) == 0)
        return 0;
    open[n++] = i;
  }
  return 1;
}

xmt_status xmt_ib_unique_keys(struct xmt_inline_builder *ib) {
  if (keys_distinct(ib))
    return XMT_OK;
  size_t nrefs;
  xmt_status st = sorted_refs(ib, XMT_TAG_OPEN, 0, &nrefs);
  if (st != XMT_OK || nrefs < 2)
    return st;
  size_t *suffix = work(ib, ib->ntags); /* 0: the key stays */
  if (suffix == NULL)
    return XMT_ERR_NOMEM;
  memset(suffix, 0, ib->ntags * sizeof *suffix);
  for (size_t k = 1; k < nrefs; k++)
    if (strcmp(ib->refs[k].key, ib->refs[k - 1].key) == 0)
      suffix[ib->refs[k].index] = 1;
  unsigned n = 0;
  for (size_t i = 0; i < ib->ntags && st == XMT_OK; i++)
    if (suffix[i] != 0) {
      const char *key = ib->pool.data + ib->tags[i].key;
      while (suffix_taken(ib, nrefs, key, ++n, &st))
        ;
      suffix[i] = n;
    }
  /* The pool moves from here on. */
  for (size_t i = 0; i < ib->ntags && st == XMT_OK; i++) {
    if (suffix[i] == 0)
      continue;
    struct xmt_pending_tag *t = &ib->tags[i];
    char tail[24];
    snprintf(tail, sizeof tail, "#%zu", suffix[i]);
    size_t key = ib->pool.len;
    size_t old_len = strlen(ib->pool.data + t->key);
    st = xmt_buf_grow(&ib->pool, old_len + sizeof tail);
    if (st == XMT_OK)
      st = xmt_buf_append(&ib->pool, ib->pool.data + t->key, old_len);
    if (st == XMT_OK)
      st = xmt_buf_append(&ib->pool, tail, strlen(tail) + 1);
    if (st != XMT_OK)
      break;
    t->key = key;
    t->key_len = old_len + strlen(tail);
    if (t->partner != SIZE_MAX) {
      ib->tags[t->partner].key = key;
      ib->tags[t->partner].key_len = t->key_len;
    }
  }
  return st;
}
