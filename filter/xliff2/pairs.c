/* pairs.c -- the end of an XLIFF 2 unit: its <sc>/<ec> and <sm>/<em>
 * paired (a pair in one segment is a pair on the unit stream, one that
 * spans segments is two isolated codes), the codes of each source and
 * target numbered as the unit stream names them, and each segment given
 * its unit-stream id. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_private.h"

static int is_start(const struct x2_code *x) {
  return (x->elem == X2_SC || x->elem == X2_SM) && x->kind == XMT_TAG_OPEN;
}

static int is_end(const struct x2_code *x) {
  return (x->elem == X2_EC || x->elem == X2_EM) && x->kind == XMT_TAG_CLOSE;
}

/* The memo key of a start code: its kind of element and its id. */
static xmt_status ref_key(struct reader *r, const struct x2_code *x) {
  xmt_buf_reset(&r->scratch);
  xmt_status st = xmt_buf_append_byte(
      &r->scratch, x->elem == X2_SC || x->elem == X2_EC ? 's' : 'm');
  return st == XMT_OK ? xmt_buf_append_str(&r->scratch, x2_str(r->doc, x->id))
                      : st;
}

/* The partner of a start in an <ignorable>, in r->refs. */
#define FAR_START (X2_NONE - 1)

/* A <segment> (or an <ignorable>'s code) of the unit in the order its
 * sources (targets) are read: sources by place, targets by order. */
struct step {
  unsigned key, part;
  size_t at; /* a segment's index, or far[at - nsegs] */
};

static int by_key(const void *a, const void *b) {
  const struct step *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->part != y->part)
    return x->part < y->part ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

/* An sc, ec, sm or em of an <ignorable>: a start is known; an end ends
 * the code it names, which is then isolated (its partner copied as it
 * is, in no segment). */
static void pair_far(struct reader *r, const struct x2_far *f) {
  struct x2_doc *doc = r->doc;
  xmt_buf_reset(&r->scratch);
  xmt_status st = xmt_buf_append_byte(
      &r->scratch, f->elem == X2_SC || f->elem == X2_EC ? 's' : 'm');
  if (st == XMT_OK)
    st = xmt_buf_append_str(&r->scratch, x2_str(doc, f->id));
  size_t start = 0;
  int found = st == XMT_OK && xmt_memo_get(&r->refs, r->scratch.data,
                                           r->scratch.len, NULL, NULL, &start);
  if (st == XMT_OK && (f->elem == X2_SC || f->elem == X2_SM) && !found)
    st = xmt_memo_put(&r->refs, r->scratch.data, r->scratch.len, NULL, 0,
                      FAR_START);
  if (st != XMT_OK) {
    xmt_x2_nomem(r);
    return;
  }
  if ((f->elem == X2_EC || f->elem == X2_EM) && found && start != FAR_START &&
      doc->codes[start].partner == X2_NONE && !doc->codes[start].far) {
    doc->codes[start].far = 1;
    doc->codes[start].kind = XMT_TAG_ISOLATED_OPEN;
  }
}

/* A code of a segment's source or target (c), its start or end. An end
 * without its start is an error in a source; in a target it is isolated,
 * as a CAT tool may leave it. */
static void pair_code(struct reader *r, const struct x2_content *c, size_t k,
                      int targets) {
  struct x2_doc *doc = r->doc;
  struct x2_code *x = &doc->codes[k];
  if (ref_key(r, x) != XMT_OK) {
    xmt_x2_nomem(r);
    return;
  }
  size_t start = 0;
  int found = xmt_memo_get(&r->refs, r->scratch.data, r->scratch.len, NULL,
                           NULL, &start);
  if (is_start(x)) {
    if (!found && xmt_memo_put(&r->refs, r->scratch.data, r->scratch.len, NULL,
                               0, k) != XMT_OK)
      xmt_x2_nomem(r);
    return;
  }
  if (found && start == FAR_START) { /* its start is in an <ignorable> */
    x->far = 1;
    x->kind = XMT_TAG_ISOLATED_CLOSE;
    return;
  }
  if (!found || doc->codes[start].partner != X2_NONE || doc->codes[start].far) {
    if (!targets)
      xmt_x2_fail(r, XMT_ERR_INLINE, x->start,
                  "<%s startRef=\"%.64s\"> has no <%s> before it in its "
                  "unit",
                  x->elem == X2_EC ? "ec" : "em", x2_str(doc, x->id),
                  x->elem == X2_EC ? "sc" : "sm");
    x->kind = XMT_TAG_ISOLATED_CLOSE;
    return;
  }
  int here = start >= c->first_code && start < c->first_code + c->ncodes;
  x->partner = start;
  doc->codes[start].partner = k;
  x->kind = here ? XMT_TAG_CLOSE : XMT_TAG_ISOLATED_CLOSE;
  doc->codes[start].kind = here ? XMT_TAG_OPEN : XMT_TAG_ISOLATED_OPEN;
}

/* 1 when the unit's sources (targets: 1) or ignorables have a start or
 * end to pair: most units have none, and are spared the sort and the
 * memo. */
static int has_ends(const struct reader *r, int targets) {
  const struct x2_doc *doc = r->doc;
  for (size_t i = 0; i < r->nfar; i++)
    if (r->far[i].side == (targets ? 2 : 1))
      return 1;
  for (size_t i = r->unit_first; i < doc->nsegs; i++) {
    const struct x2_content *c =
        targets ? &doc->segs[i].target : &doc->segs[i].source;
    for (size_t k = c->first_code; k < c->first_code + c->ncodes; k++)
      if (is_start(&doc->codes[k]) || is_end(&doc->codes[k]))
        return 1;
  }
  return 0;
}

/* Pairs the start and end codes of the unit's sources (targets: 1), with
 * those of its ignorables, content by content in the order they are read:
 * the document's for sources, the targets' order attributes for targets. */
static void pair_codes(struct reader *r, int targets) {
  struct x2_doc *doc = r->doc;
  if (!has_ends(r, targets))
    return;
  if (r->refs.count > 0)
    xmt_memo_clear(&r->refs);
  size_t nsegs = doc->nsegs - r->unit_first, n = 0;
  /* most units have a few segments, in the order they are read */
  struct step few[16];
  struct step *steps = nsegs + r->nfar + 1 <= sizeof few / sizeof *few
                           ? few
                           : malloc((nsegs + r->nfar + 1) * sizeof *steps);
  if (steps == NULL) {
    xmt_x2_nomem(r);
    return;
  }
  for (size_t i = 0; i < nsegs; i++) {
    const struct x2_segment *s = &doc->segs[r->unit_first + i];
    steps[n++] = (struct step){targets ? s->order : s->part, s->part, i};
  }
  for (size_t i = 0; i < r->nfar; i++)
    if (r->far[i].side == (targets ? 2 : 1))
      steps[n++] = (struct step){targets ? r->far[i].order : r->far[i].part,
                                 r->far[i].part, nsegs + i};
  size_t sorted = 1;
  while (sorted < n && by_key(&steps[sorted - 1], &steps[sorted]) < 0)
    sorted++;
  if (sorted < n)
    qsort(steps, n, sizeof *steps, by_key);
  for (size_t j = 0; r->st == XMT_OK && j < n; j++) {
    if (steps[j].at >= nsegs) {
      pair_far(r, &r->far[steps[j].at - nsegs]);
      continue;
    }
    const struct x2_segment *s = &doc->segs[r->unit_first + steps[j].at];
    const struct x2_content *c = targets ? &s->target : &s->source;
    for (size_t k = c->first_code;
         r->st == XMT_OK && k < c->first_code + c->ncodes; k++)
      if (is_start(&doc->codes[k]) || is_end(&doc->codes[k]))
        pair_code(r, c, k, targets);
  }
  if (steps != few)
    free(steps);
  /* Starts left open. */
  for (size_t i = r->unit_first; r->st == XMT_OK && i < doc->nsegs; i++) {
    const struct x2_content *c =
        targets ? &doc->segs[i].target : &doc->segs[i].source;
    for (size_t k = c->first_code; k < c->first_code + c->ncodes; k++) {
      struct x2_code *x = &doc->codes[k];
      if (!is_start(x) || x->partner != X2_NONE || x->far)
        continue;
      if (!targets)
        xmt_x2_fail(r, XMT_ERR_INLINE, x->start,
                    "<%s id=\"%.64s\"> has no <%s> in its unit",
                    x->elem == X2_SC ? "sc" : "sm", x2_str(doc, x->id),
                    x->elem == X2_SC ? "ec" : "em");
      x->kind = XMT_TAG_ISOLATED_OPEN;
    }
  }
}

static int closing(const struct x2_code *x) {
  return x->kind == XMT_TAG_CLOSE || x->kind == XMT_TAG_ISOLATED_CLOSE;
}

/* Numbers the codes of a source from 1: the two ends of a pair share a
 * number; the end of an sc/ec or sm/em pair has a number of its own too
 * (the id of its ex). */
static void number_source(struct x2_doc *doc, const struct x2_content *c) {
  unsigned next = 1;
  for (size_t k = c->first_code; k < c->first_code + c->ncodes; k++) {
    struct x2_code *x = &doc->codes[k];
    if (x->kind == XMT_TAG_CLOSE && x->partner != X2_NONE) {
      x->number = doc->codes[x->partner].number;
      if (x->elem == X2_EC || x->elem == X2_EM)
        x->own = next++;
    } else {
      x->number = next++;
    }
  }
}

static int same_id(const struct x2_doc *doc, size_t a, size_t b) {
  return a == b || (a != X2_NONE && b != X2_NONE &&
                    strcmp(x2_str(doc, a), x2_str(doc, b)) == 0);
}

/* Numbers the codes of a target as the source codes they correspond to
 * (the same element, end and id); a code the source does not have gets a
 * number the source does not use. */
static void number_target(struct reader *r, const struct x2_content *s,
                          const struct x2_content *t) {
  struct x2_doc *doc = r->doc;
  xmt_buf_reset(&r->scratch);
  if (xmt_buf_grow(&r->scratch, s->ncodes + 1) != XMT_OK) {
    xmt_x2_nomem(r);
    return;
  }
  char *taken = r->scratch.data;
  memset(taken, 0, s->ncodes + 1);
  unsigned next = (unsigned)s->ncodes + 1;
  for (size_t k = t->first_code; k < t->first_code + t->ncodes; k++) {
    struct x2_code *x = &doc->codes[k];
    if (x->kind == XMT_TAG_CLOSE && x->partner != X2_NONE &&
        (x->elem == X2_PC || x->elem == X2_MRK)) {
      x->number = doc->codes[x->partner].number;
      continue;
    }
    size_t j = 0;
    for (; j < s->ncodes; j++) {
      const struct x2_code *y = &doc->codes[s->first_code + j];
      if (!taken[j] && y->elem == x->elem && closing(y) == closing(x) &&
          same_id(doc, y->id, x->id))
        break;
    }
    if (j < s->ncodes) {
      taken[j] = 1;
      x->number = doc->codes[s->first_code + j].number;
      x->own = doc->codes[s->first_code + j].own;
    } else {
      x->number = next++;
    }
    if (x->kind == XMT_TAG_CLOSE && x->own == 0 &&
        (x->elem == X2_EC || x->elem == X2_EM))
      x->own = next++;
  }
}

/* v in decimal, ending at end (NUL-terminated there); returns its start.
 * snprintf's format parsing cost more than the rest of naming. */
static const char *decimal(char *end, size_t v) {
  *end = '\0';
  do {
    *--end = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  return end;
}

/* The unit-stream id of segment i (the j-th of n in its unit): the unit's
 * id, with the segment's id (or number) when the unit has more than one,
 * made unique in the document (but with raw_keys). */
static void name_segment(struct reader *r, size_t i, size_t j, size_t n) {
  struct x2_doc *doc = r->doc;
  struct x2_segment *s = &doc->segs[i];
  char num[32];
  xmt_buf_reset(&r->scratch);
  xmt_status st = xmt_buf_append_str(&r->scratch, x2_str(doc, s->unit));
  if (st == XMT_OK && n > 1) {
    st = xmt_buf_append_byte(&r->scratch, '/');
    if (st == XMT_OK)
      st = xmt_buf_append_str(&r->scratch, s->id != X2_NONE
                                               ? x2_str(doc, s->id)
                                               : decimal(num + 31, j + 1));
  }
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&r->scratch, '\0');
  const char *key = r->scratch.data;
  if (st == XMT_OK && !r->raw_keys)
    st = xmt_unit_keys_take(&r->keys, r->scratch.data, s->file + 1, &key);
  if (st == XMT_OK) {
    s->key = xmt_x2_keep(r, key);
    /* a stream finds a unit's few segments by their keys */
    if (s->key != X2_NONE && r->on_unit == NULL)
      st = xmt_memo_put(&doc->keys, x2_str(doc, s->key), strlen(key), NULL, 0,
                        i);
  }
  if (st != XMT_OK)
    xmt_x2_nomem(r);
}

void xmt_x2_close_unit(struct reader *r, size_t at) {
  struct x2_doc *doc = r->doc;
  pair_codes(r, 0);
  pair_codes(r, 1);
  size_t n = doc->nsegs - r->unit_first;
  for (size_t i = r->unit_first; r->st == XMT_OK && i < doc->nsegs; i++) {
    struct x2_segment *s = &doc->segs[i];
    number_source(doc, &s->source);
    number_target(r, &s->source, &s->target);
    name_segment(r, i, i - r->unit_first, n);
    /* a segment cut into several moves the places of those after it:
     * the orders that name them are renumbered (write.c), which keeps
     * each target where it was only when none was moved from its own
     * place (a moved one leaves the unit untranslated anyway) */
    s->alone = n == 1 || !r->reordered;
    s->several = n > 1;
    s->reordered = (unsigned char)r->reordered;
    s->unit_end = at;
    /* text the range holds is in a pair's text, or another segment's,
     * which the run translates: the unit is left as it is */
    if (r->nomt_apart && s->translate) {
      s->translate = 0;
      s->nomt_apart = 1;
    }
  }
}
