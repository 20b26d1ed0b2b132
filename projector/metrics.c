/* metrics.c -- tag-placement metrics: hypothesis tagged segments against
 * reference (gold) ones, as in Hanneman & Dinu 2020.
 *
 * Conventions (see also xmt_projector.h, "Tag metrics"):
 * - Tokens are \w+|[^\w\s] over the plain text, with Unicode \w = Alphabetic,
 *   Mark, Decimal_Number, Connector_Punctuation, U+200C, U+200D and \s =
 *   White_Space. A tag's position is the number of tokens that end at or
 *   before its byte offset: a tag inside a token does not count that token
 *   as before it.
 * - A "tag" is a unit: a placeholder or isolated tag, or an OPEN/CLOSE pair
 *   (counted once, positioned by both ends, keyed by its OPEN). Hypothesis
 *   units match reference units with the same kind of unit (pair or single),
 *   element name and id; the k-th of equal keys matches the k-th.
 * - Unmatched units of the same element name (and kind of unit) pair up in
 *   order as changed ids, which then count neither as dropped nor added.
 * - A reference pair whose hypothesis has its two ends as isolated tags
 *   (ex before bx: closed before open, or crossing) is matched but badly
 *   nested; so are all pairs of a hypothesis that fails xmt_segment_check.
 *   A badly nested pair is never exact.
 * - A pair is interior when either end's reference position is neither 0
 *   nor the token count of the line.
 * - A reference that fails xmt_segment_check is refused (XMT_ERR_INLINE)
 *   and nothing is counted. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <unicode/uchar.h>

#include "projector_private.h"

/* A tag or a pair of the line, as compared. */
struct unit {
  const char *name;       /* of the tag, or of a pair's OPEN; borrowed */
  const char *close_name; /* of a pair's CLOSE; NULL for a single tag */
  const char *id;
  enum xmt_tag_kind kind; /* of the single tag, or XMT_TAG_OPEN */
  int pair;
  int bad_nesting;          /* hypothesis pair badly nested */
  size_t start, end;        /* token positions; equal for a single tag */
  size_t open_at, close_at; /* byte offsets of the ends */
  size_t order;             /* index among the units of the line */
  size_t match;             /* index of the unit matched on the other side */
};

/* One side of a line pair: the segment's tokens and units. */
struct side {
  const xmt_segment *seg;
  const char *text;
  struct xmt_token *tokens;
  size_t ntokens, tokens_cap;
  struct unit *units;
  size_t nunits, units_cap;
  size_t *partner; /* per tag: the other end of its pair, or SIZE_MAX */
  size_t partner_cap;
};

/* A token's bytes, for bag-of-token comparisons. */
struct span {
  const char *p;
  size_t n;
};

struct xmt_evaluator {
  struct xmt_tag_metrics m;
  struct side hyp, ref;
  struct unit **keys_h, **keys_r; /* sorting scratch */
  size_t keys_h_cap, keys_r_cap;
  struct span *bag_h, *bag_r;
  size_t bag_h_cap, bag_r_cap;
};

/* --- Tokens ------------------------------------------------------------- */

static int is_word(uint32_t cp) {
  if (cp < 0x80)
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
           (cp >= '0' && cp <= '9') || cp == '_';
  if (cp == 0x200C || cp == 0x200D)
    return 1;
  if (u_hasBinaryProperty((UChar32)cp, UCHAR_ALPHABETIC))
    return 1;
  switch (u_charType((UChar32)cp)) {
  case U_NON_SPACING_MARK:
  case U_ENCLOSING_MARK:
  case U_COMBINING_SPACING_MARK:
  case U_DECIMAL_DIGIT_NUMBER:
  case U_CONNECTOR_PUNCTUATION:
    return 1;
  default:
    return 0;
  }
}

static int is_space(uint32_t cp) {
  if (cp < 0x80)
    return cp == ' ' || (cp >= 0x09 && cp <= 0x0D);
  return u_isUWhiteSpace((UChar32)cp) != 0;
}

/* Splits the side's text into \w+|[^\w\s] tokens. */
static xmt_status tokenize(struct side *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s->text;
  size_t i = 0;
  int in_word = 0;
  s->ntokens = 0;
  while (i < len) {
    uint32_t cp;
    size_t k = xmt_utf8_decode(p + i, len - i, &cp);
    if (k == 0) { /* cannot happen in a segment; one byte, one symbol */
      k = 1;
      cp = 0xFFFD;
    }
    int word = is_word(cp);
    if (word && in_word) {
      s->tokens[s->ntokens - 1].end = i + k;
    } else if (!is_space(cp)) {
      struct xmt_token *tokens = xmt_grow_array(s->tokens, &s->tokens_cap,
                                                s->ntokens + 1, sizeof *tokens);
      if (tokens == NULL)
        return XMT_ERR_NOMEM;
      s->tokens = tokens;
      s->tokens[s->ntokens].start = i;
      s->tokens[s->ntokens++].end = i + k;
    }
    in_word = word;
    i += k;
  }
  return XMT_OK;
}

/* The number of tokens that end at or before byte offset at. */
static size_t position(const struct side *s, size_t at) {
  size_t lo = 0, hi = s->ntokens;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->tokens[mid].end <= at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* --- Units -------------------------------------------------------------- */

static void tag_at(const xmt_segment *seg, size_t i, struct xmt_tag *t) {
  (void)xmt_segment_tag(seg, i, t); /* i is in range */
}

/* Pairs every OPEN with a CLOSE of the same id. A well-nested segment
 * pairs by a stack; otherwise an OPEN takes the first free CLOSE of its id
 * after it, else before it (closed before open). */
static void pair_tags(struct side *s, size_t n, int nested) {
  for (size_t i = 0; i < n; i++)
    s->partner[i] = SIZE_MAX;
  struct xmt_tag a, b;
  if (nested) {
    /* xmt_segment_check passed: each CLOSE ends the innermost open pair,
     * found by walking back over closed pairs. */
    for (size_t i = 0; i < n; i++) {
      tag_at(s->seg, i, &a);
      if (a.kind != XMT_TAG_CLOSE)
        continue;
      size_t j = i;
      while (j-- > 0) {
        tag_at(s->seg, j, &b);
        if (b.kind == XMT_TAG_OPEN && s->partner[j] == SIZE_MAX)
          break;
        if (b.kind == XMT_TAG_CLOSE && s->partner[j] != SIZE_MAX)
          j = s->partner[j]; /* skip the closed pair */
      }
      if (j == SIZE_MAX)
        continue; /* a stray CLOSE; the check rules it out */
      s->partner[i] = j;
      s->partner[j] = i;
    }
    return;
  }
  for (int before = 0; before < 2; before++) {
    for (size_t i = 0; i < n; i++) {
      tag_at(s->seg, i, &a);
      if (a.kind != XMT_TAG_OPEN || s->partner[i] != SIZE_MAX)
        continue;
      size_t from = before ? 0 : i + 1, to = before ? i : n;
      for (size_t j = from; j < to; j++) {
        tag_at(s->seg, j, &b);
        if (b.kind == XMT_TAG_CLOSE && s->partner[j] == SIZE_MAX &&
            strcmp(a.id, b.id) == 0) {
          s->partner[i] = j;
          s->partner[j] = i;
          break;
        }
      }
    }
  }
}

/* Builds the side's tokens and units. nested is 0 when the segment failed
 * xmt_segment_check: its pairs are then badly nested. *pairs gets the
 * number of pairs. */
static xmt_status build_side(struct side *s, const xmt_segment *seg, int nested,
                             size_t *pairs) {
  size_t len, n = xmt_segment_tag_count(seg);
  s->seg = seg;
  s->text = xmt_segment_text(seg, &len);
  s->nunits = 0;
  *pairs = 0;
  xmt_status st = tokenize(s, len);
  if (st != XMT_OK)
    return st;
  size_t *partner =
      xmt_grow_array(s->partner, &s->partner_cap, n, sizeof *partner);
  if (partner == NULL)
    return XMT_ERR_NOMEM;
  s->partner = partner;
  struct unit *units =
      xmt_grow_array(s->units, &s->units_cap, n, sizeof *units);
  if (units == NULL)
    return XMT_ERR_NOMEM;
  s->units = units;
  pair_tags(s, n, nested);
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag t, c;
    tag_at(seg, i, &t);
    size_t other = s->partner[i];
    if (t.kind == XMT_TAG_CLOSE && other != SIZE_MAX)
      continue; /* part of its OPEN's unit */
    struct unit *u = &s->units[s->nunits];
    u->name = t.name;
    u->id = t.id;
    u->kind = t.kind;
    u->pair = other != SIZE_MAX;
    u->close_name = NULL;
    u->bad_nesting = u->pair && !nested;
    u->open_at = u->close_at = t.offset;
    u->start = u->end = position(s, t.offset);
    if (u->pair) {
      tag_at(seg, other, &c);
      u->close_name = c.name;
      u->close_at = c.offset;
      u->end = position(s, c.offset);
      ++*pairs;
    }
    u->order = s->nunits++;
    u->match = SIZE_MAX;
  }
  return XMT_OK;
}

/* --- Matching ------------------------------------------------------------ */

/* Key order: kind of unit, name, then (with_id) id. */
static int key_cmp(const struct unit *a, const struct unit *b, int with_id) {
  int c = (a->pair > b->pair) - (a->pair < b->pair);
  if (c == 0)
    c = strcmp(a->name, b->name);
  if (c == 0 && with_id)
    c = strcmp(a->id, b->id);
  return c;
}

/* Key order, then line order, of two struct unit pointers. */
static int unit_order(const void *pa, const void *pb, int with_id) {
  const struct unit *a = *(struct unit *const *)pa;
  const struct unit *b = *(struct unit *const *)pb;
  int c = key_cmp(a, b, with_id);
  return c != 0 ? c : (a->order > b->order) - (a->order < b->order);
}

static int by_key(const void *pa, const void *pb) {
  return unit_order(pa, pb, 1);
}

/* The same without the id: for changed ids. */
static int by_name(const void *pa, const void *pb) {
  return unit_order(pa, pb, 0);
}

/* Fills keys with the side's units not yet matched; returns their number. */
static size_t free_units(struct side *s, struct unit **keys) {
  size_t n = 0;
  for (size_t i = 0; i < s->nunits; i++)
    if (s->units[i].match == SIZE_MAX)
      keys[n++] = &s->units[i];
  return n;
}

/* Matches the free units of both sides that are equal under cmp, in
 * sorted order (a merge of the two sorted lists). Returns the number of
 * matches; with ids, cmp must ignore line order to find equal keys. */
static size_t merge_match(struct xmt_evaluator *ev, int with_id) {
  int (*cmp)(const void *, const void *) = with_id ? by_key : by_name;
  size_t nh = free_units(&ev->hyp, ev->keys_h);
  size_t nr = free_units(&ev->ref, ev->keys_r);
  qsort(ev->keys_h, nh, sizeof *ev->keys_h, cmp);
  qsort(ev->keys_r, nr, sizeof *ev->keys_r, cmp);
  size_t i = 0, j = 0, matched = 0;
  while (i < nh && j < nr) {
    struct unit *h = ev->keys_h[i], *r = ev->keys_r[j];
    int c = key_cmp(h, r, with_id);
    if (c < 0) {
      i++;
    } else if (c > 0) {
      j++;
    } else { /* equal keys: the k-th with the k-th */
      h->match = r->order;
      r->match = h->order;
      matched++;
      i++;
      j++;
    }
  }
  return matched;
}

/* A reference pair whose ends the hypothesis has as two isolated tags:
 * matched, as one badly nested pair. Returns the number found. */
static size_t match_split_pairs(struct xmt_evaluator *ev) {
  size_t found = 0;
  for (size_t j = 0; j < ev->ref.nunits; j++) {
    struct unit *r = &ev->ref.units[j];
    if (!r->pair || r->match != SIZE_MAX)
      continue;
    struct unit *o = NULL, *c = NULL;
    for (size_t i = 0; i < ev->hyp.nunits; i++) {
      struct unit *h = &ev->hyp.units[i];
      if (h->pair || h->match != SIZE_MAX || strcmp(h->id, r->id) != 0)
        continue;
      if (o == NULL && h->kind == XMT_TAG_ISOLATED_OPEN &&
          strcmp(h->name, r->name) == 0)
        o = h;
      else if (c == NULL && h->kind == XMT_TAG_ISOLATED_CLOSE &&
               strcmp(h->name, r->close_name) == 0)
        c = h;
    }
    if (o == NULL || c == NULL)
      continue;
    /* The OPEN's unit becomes the pair; the CLOSE's is used up. */
    o->pair = 1;
    o->bad_nesting = 1;
    o->close_name = c->name;
    o->close_at = c->close_at;
    o->end = c->end;
    o->match = r->order;
    c->match = r->order;
    r->match = o->order;
    found++;
  }
  return found;
}

/* --- Scores ------------------------------------------------------------- */

static int span_cmp(const void *pa, const void *pb) {
  const struct span *a = pa, *b = pb;
  size_t n = a->n < b->n ? a->n : b->n;
  int c = memcmp(a->p, b->p, n);
  if (c != 0)
    return c;
  return (a->n > b->n) - (a->n < b->n);
}

/* Collects the sorted bytes of the tokens lying wholly in [from, to). */
static xmt_status bag(const struct side *s, size_t from, size_t to,
                      struct span **spans, size_t *cap, size_t *n) {
  *n = 0;
  for (size_t k = position(s, from); k < s->ntokens; k++) {
    const struct xmt_token *t = &s->tokens[k];
    if (t->end > to)
      break;
    if (t->start < from)
      continue;
    struct span *grown = xmt_grow_array(*spans, cap, *n + 1, sizeof *grown);
    if (grown == NULL)
      return XMT_ERR_NOMEM;
    *spans = grown;
    (*spans)[*n].p = s->text + t->start;
    (*spans)[(*n)++].n = t->end - t->start;
  }
  if (*n > 1)
    qsort(*spans, *n, sizeof **spans, span_cmp);
  return XMT_OK;
}

/* Token-bag F1 of the contents of a matched pair: 2|H∩R| / (|H| + |R|),
 * 1 when both are empty. */
static xmt_status content_f1(struct xmt_evaluator *ev, const struct unit *h,
                             const struct unit *r, double *f1) {
  size_t nh = 0, nr = 0;
  xmt_status st = XMT_OK;
  if (h->close_at > h->open_at)
    st =
        bag(&ev->hyp, h->open_at, h->close_at, &ev->bag_h, &ev->bag_h_cap, &nh);
  if (st == XMT_OK)
    st =
        bag(&ev->ref, r->open_at, r->close_at, &ev->bag_r, &ev->bag_r_cap, &nr);
  if (st != XMT_OK)
    return st;
  if (nh + nr == 0) {
    *f1 = 1.0;
    return XMT_OK;
  }
  size_t i = 0, j = 0, common = 0;
  while (i < nh && j < nr) {
    int c = span_cmp(&ev->bag_h[i], &ev->bag_r[j]);
    if (c == 0)
      common++;
    i += c <= 0;
    j += c >= 0;
  }
  *f1 = 2.0 * (double)common / (double)(nh + nr);
  return XMT_OK;
}

/* 1 when both segments have the same tags (kind, name, id) in order. */
static int same_structure(const xmt_segment *a, const xmt_segment *b) {
  size_t n = xmt_segment_tag_count(a);
  if (n != xmt_segment_tag_count(b))
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag x, y;
    tag_at(a, i, &x);
    tag_at(b, i, &y);
    if (x.kind != y.kind || strcmp(x.name, y.name) != 0 ||
        strcmp(x.id, y.id) != 0)
      return 0;
  }
  return 1;
}

static int interior(const struct unit *r, size_t ntokens) {
  return (r->start != 0 && r->start != ntokens) ||
         (r->end != 0 && r->end != ntokens);
}

/* --- Public ------------------------------------------------------------- */

xmt_evaluator *xmt_evaluator_new(void) {
  return calloc(1, sizeof(xmt_evaluator));
}

static void side_free(struct side *s) {
  free(s->tokens);
  free(s->units);
  free(s->partner);
}

void xmt_evaluator_free(xmt_evaluator *ev) {
  if (ev == NULL)
    return;
  side_free(&ev->hyp);
  side_free(&ev->ref);
  free(ev->keys_h);
  free(ev->keys_r);
  free(ev->bag_h);
  free(ev->bag_r);
  free(ev);
}

const struct xmt_tag_metrics *xmt_evaluator_metrics(const xmt_evaluator *ev) {
  return ev != NULL ? &ev->m : NULL;
}

static enum xmt_tag_class class_of(const struct unit *r) {
  return r->pair                          ? XMT_TAG_CLASS_PAIR
         : r->kind == XMT_TAG_PLACEHOLDER ? XMT_TAG_CLASS_PLACEHOLDER
                                          : XMT_TAG_CLASS_ISOLATED;
}

/* Counts the reference units of a line and their interior ones into m,
 * overall and by class. */
static void count_reference(const xmt_evaluator *ev,
                            struct xmt_tag_metrics *m) {
  for (size_t j = 0; j < ev->ref.nunits; j++) {
    const struct unit *r = &ev->ref.units[j];
    size_t inner = (size_t)interior(r, ev->ref.ntokens);
    struct xmt_tag_class_metrics *c = &m->by_class[class_of(r)];
    c->tags++;
    c->interior += inner;
    m->interior += inner;
  }
}

/* Scores the matched units of a line into m. */
static xmt_status score_line(xmt_evaluator *ev, struct xmt_tag_metrics *m) {
  size_t exact = 0;
  for (size_t j = 0; j < ev->ref.nunits; j++) {
    const struct unit *r = &ev->ref.units[j];
    int inner = interior(r, ev->ref.ntokens);
    if (r->match == SIZE_MAX)
      continue;
    const struct unit *h = &ev->hyp.units[r->match];
    if (strcmp(h->id, r->id) != 0)
      continue; /* a changed id is never exact */
    if (r->pair) {
      double f1;
      xmt_status st = content_f1(ev, h, r, &f1);
      if (st != XMT_OK)
        return st;
      m->content_f1_sum += f1;
      m->content_pairs++;
    }
    if (!h->bad_nesting && h->start == r->start && h->end == r->end) {
      struct xmt_tag_class_metrics *c = &m->by_class[class_of(r)];
      exact++;
      c->exact++;
      m->interior_exact += (size_t)inner;
      c->interior_exact += (size_t)inner;
    }
  }
  m->exact += exact;
  if (ev->ref.nunits > 0 && exact == ev->ref.nunits && m->added == 0)
    m->all_exact_lines++;
  return XMT_OK;
}

xmt_status xmt_evaluator_add(xmt_evaluator *ev, const xmt_segment *hypothesis,
                             const xmt_segment *reference) {
  if (ev == NULL || reference == NULL)
    return XMT_ERR_USAGE;
  xmt_status st = xmt_segment_check(reference, NULL);
  if (st != XMT_OK)
    return st;
  size_t pairs;
  if ((st = build_side(&ev->ref, reference, 1, &pairs)) != XMT_OK)
    return st;
  /* Counted into line, then added: a failure leaves ev as it was. */
  struct xmt_tag_metrics line;
  memset(&line, 0, sizeof line);
  line.lines = 1;
  line.tags = ev->ref.nunits;
  line.lines_with_tags = ev->ref.nunits > 0;
  count_reference(ev, &line);
  if (hypothesis == NULL) {
    line.mutilated = ev->ref.nunits;
  } else {
    st = xmt_segment_check(hypothesis, NULL);
    if (st != XMT_OK && st != XMT_ERR_INLINE)
      return st;
    int nested = st == XMT_OK;
    if ((st = build_side(&ev->hyp, hypothesis, nested, &pairs)) != XMT_OK)
      return st;
    struct unit **keys = xmt_grow_array(ev->keys_h, &ev->keys_h_cap,
                                        ev->hyp.nunits, sizeof *keys);
    if (keys == NULL)
      return XMT_ERR_NOMEM;
    ev->keys_h = keys;
    keys = xmt_grow_array(ev->keys_r, &ev->keys_r_cap, ev->ref.nunits,
                          sizeof *keys);
    if (keys == NULL)
      return XMT_ERR_NOMEM;
    ev->keys_r = keys;
    line.well_formed_lines = 1;
    line.structure_match_lines = (size_t)same_structure(hypothesis, reference);
    line.badly_nested = nested ? 0 : pairs;
    size_t matched = merge_match(ev, 1);
    size_t split = match_split_pairs(ev);
    line.badly_nested += split;
    line.changed_id = merge_match(ev, 0);
    line.dropped = ev->ref.nunits - matched - split - line.changed_id;
    line.added = ev->hyp.nunits - matched - 2 * split - line.changed_id;
    if ((st = score_line(ev, &line)) != XMT_OK)
      return st;
  }
  struct xmt_tag_metrics *m = &ev->m;
  m->lines += line.lines;
  m->lines_with_tags += line.lines_with_tags;
  m->tags += line.tags;
  m->dropped += line.dropped;
  m->added += line.added;
  m->changed_id += line.changed_id;
  m->mutilated += line.mutilated;
  m->badly_nested += line.badly_nested;
  m->well_formed_lines += line.well_formed_lines;
  m->structure_match_lines += line.structure_match_lines;
  m->exact += line.exact;
  m->interior += line.interior;
  m->interior_exact += line.interior_exact;
  m->all_exact_lines += line.all_exact_lines;
  m->content_f1_sum += line.content_f1_sum;
  m->content_pairs += line.content_pairs;
  for (size_t k = 0; k < sizeof m->by_class / sizeof *m->by_class; k++) {
    m->by_class[k].tags += line.by_class[k].tags;
    m->by_class[k].exact += line.by_class[k].exact;
    m->by_class[k].interior += line.by_class[k].interior;
    m->by_class[k].interior_exact += line.by_class[k].interior_exact;
  }
  return XMT_OK;
}
