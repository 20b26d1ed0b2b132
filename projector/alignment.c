/* alignment.c -- word alignments as lists of token links, and the Pharaoh
 * text format ("0-0 1-2 2p3") that fast_align, Moses and MT engines use. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "projector_private.h"

struct xmt_alignment {
  struct xmt_link *links;
  size_t count;
  size_t cap;
};

/* Lines shorter than this are deduplicated by pairwise comparison, which
 * needs no memory; longer ones are sorted. */
#define DEDUP_QUADRATIC_MAX 64

xmt_alignment *xmt_alignment_new(void) {
  return calloc(1, sizeof(xmt_alignment));
}

void xmt_alignment_free(xmt_alignment *alignment) {
  if (alignment == NULL)
    return;
  free(alignment->links);
  free(alignment);
}

void xmt_alignment_clear(xmt_alignment *alignment) {
  if (alignment != NULL)
    alignment->count = 0;
}

static xmt_status links_reserve(xmt_alignment *al, size_t total) {
  if (total <= al->cap)
    return XMT_OK;
  struct xmt_link *links =
      xmt_grow_array(al->links, &al->cap, total, sizeof *links);
  if (links == NULL)
    return XMT_ERR_NOMEM;
  al->links = links;
  return XMT_OK;
}

xmt_status xmt_alignment_add(xmt_alignment *alignment, size_t source,
                             size_t target) {
  if (alignment == NULL)
    return XMT_ERR_USAGE;
  xmt_status st = links_reserve(alignment, alignment->count + 1);
  if (st != XMT_OK)
    return st;
  alignment->links[alignment->count].source = source;
  alignment->links[alignment->count].target = target;
  alignment->count++;
  return XMT_OK;
}

size_t xmt_alignment_count(const xmt_alignment *alignment) {
  return alignment != NULL ? alignment->count : 0;
}

const struct xmt_link *xmt_alignment_links(const xmt_alignment *alignment) {
  return alignment != NULL ? alignment->links : NULL;
}

static int is_sep(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reads a decimal index at *p; 0 when there is none or it overflows. */
static int read_index(const char **p, const char *end, size_t *value) {
  const char *s = *p;
  size_t v = 0;
  if (s == end || *s < '0' || *s > '9')
    return 0;
  while (s < end && *s >= '0' && *s <= '9') {
    size_t d = (size_t)(*s - '0');
    if (v > (SIZE_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
    s++;
  }
  *p = s;
  *value = v;
  return 1;
}

/* Reads one "i-j" or "ipj" pair ending at a separator or the end. */
static int read_pair(const char **p, const char *end, size_t *s, size_t *t) {
  if (!read_index(p, end, s) || *p == end || (**p != '-' && **p != 'p'))
    return 0;
  (*p)++;
  return read_index(p, end, t) && (*p == end || is_sep(**p));
}

static int link_cmp(const void *pa, const void *pb) {
  const struct xmt_link *a = pa, *b = pb;
  if (a->source != b->source)
    return (a->source > b->source) - (a->source < b->source);
  return (a->target > b->target) - (a->target < b->target);
}

static int link_eq(const struct xmt_link *a, const struct xmt_link *b) {
  return a->source == b->source && a->target == b->target;
}

/* Drops repeated links, keeping the first of each and the order of the
 * line. Sorted lines (fast_align writes them so) take one pass. */
static xmt_status dedup(xmt_alignment *al) {
  struct xmt_link *l = al->links;
  size_t n = al->count, out = 0;
  int sorted = 1;
  for (size_t i = 1; i < n && sorted; i++)
    sorted = link_cmp(&l[i - 1], &l[i]) <= 0;
  if (sorted) {
    for (size_t i = 0; i < n; i++)
      if (out == 0 || !link_eq(&l[out - 1], &l[i]))
        l[out++] = l[i];
  } else if (n <= DEDUP_QUADRATIC_MAX) {
    for (size_t i = 0; i < n; i++) {
      size_t j = 0;
      while (j < out && !link_eq(&l[j], &l[i]))
        j++;
      if (j == out)
        l[out++] = l[i];
    }
  } else {
    /* Sort a copy to find the duplicates, then keep the links of the line
     * that a binary search finds first in the copy, marking it used. */
    struct xmt_link *copy = malloc(n * sizeof *copy);
    unsigned char *used = calloc(n, 1);
    if (copy == NULL || used == NULL) {
      free(copy);
      free(used);
      return XMT_ERR_NOMEM;
    }
    memcpy(copy, l, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, link_cmp);
    size_t uniq = 0;
    for (size_t i = 0; i < n; i++)
      if (uniq == 0 || !link_eq(&copy[uniq - 1], &copy[i]))
        copy[uniq++] = copy[i];
    for (size_t i = 0; i < n; i++) {
      const struct xmt_link *hit =
          bsearch(&l[i], copy, uniq, sizeof *copy, link_cmp);
      size_t k = (size_t)(hit - copy);
      if (!used[k]) {
        used[k] = 1;
        l[out++] = l[i];
      }
    }
    free(copy);
    free(used);
  }
  al->count = out;
  return XMT_OK;
}

xmt_status xmt_alignment_parse(xmt_alignment *alignment, const char *line,
                               size_t len, size_t source_tokens,
                               size_t target_tokens, size_t *bad_pair) {
  if (alignment == NULL || (line == NULL && len > 0))
    return XMT_ERR_USAGE;
  xmt_alignment_clear(alignment);
  const char *p = line, *end = line + len;
  size_t pair = 0;
  xmt_status st = XMT_OK;
  while (p < end) {
    while (p < end && is_sep(*p))
      p++;
    if (p == end)
      break;
    size_t s, t;
    if (!read_pair(&p, end, &s, &t) || s >= source_tokens ||
        t >= target_tokens) {
      st = XMT_ERR_USAGE;
      break;
    }
    if ((st = xmt_alignment_add(alignment, s, t)) != XMT_OK)
      break;
    pair++;
  }
  if (st == XMT_OK)
    st = dedup(alignment);
  if (st != XMT_OK) {
    xmt_alignment_clear(alignment);
    if (st == XMT_ERR_USAGE && bad_pair != NULL)
      *bad_pair = pair;
  }
  return st;
}
