/* write_split.c -- a segment written as one <segment> per sentence
 * (resegment.c found them): the first keeps the segment's start tag, the
 * others get an id new in the unit; the white space between sentences
 * becomes an <ignorable>; each sentence's <source> is the source's bytes
 * but for a <pc> or <mrk> a boundary cuts, written as <sc>/<ec>
 * (<sm>/<em>); each gets its own <target>. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "write_private.h"

/* A <segment> start tag with a new id (*next counts the candidates). */
static void put_new_segment(struct writer *w, const struct x2_segment *s,
                            size_t prefix, size_t *next, int kept) {
  const struct x2_doc *doc = w->doc;
  const char *base = s->id != X2_NONE ? x2_str(doc, s->id) : "s";
  /* at most 100 bytes of it, never part of a character */
  size_t keep = strlen(base);
  if (keep > 100)
    keep = xmt_utf8_floor(base, 0, 100);
  char id[160];
  /* the ids given to the sentences of another segment of the unit are
   * taken too */
  if (w->given_unit != s->unit_tag_end) {
    xmt_memo_clear(&w->given);
    w->given_unit = s->unit_tag_end;
  }
  do
    snprintf(id, sizeof id, "%.*s-%zu", (int)keep, base, ++*next);
  while (xmt_x2w_id_taken(doc, s, id) ||
         xmt_memo_get(&w->given, id, strlen(id), NULL, NULL, NULL));
  if (w->st == XMT_OK &&
      xmt_memo_put(&w->given, id, strlen(id), NULL, 0, 0) != XMT_OK)
    w->st = XMT_ERR_NOMEM;
  xmt_x2w_put(w, "<", 1);
  xmt_x2w_put(w, doc->data.data + s->start + 1, prefix);
  xmt_x2w_put_str(w, "segment id=\"");
  xmt_buf_reset(&w->text);
  if (w->st == XMT_OK)
    w->st = xmt_xml_escape_attr(&w->text, id);
  xmt_x2w_put(w, w->text.data, w->text.len);
  if (!kept) {
    xmt_x2w_put_str(w, "\" state=\"translated\" subState=\"xliffmt:mt\">");
    return;
  }
  /* a sentence of a target kept: the segment's state, as it was */
  xmt_x2w_put(w, "\"", 1);
  static const char *const names[] = {"state", "subState"};
  const char *tag = doc->data.data + s->start;
  for (size_t a = 0; a < 2; a++) {
    size_t vs, ve;
    if (!xmt_tag_find_attribute(tag, s->tag_end - s->start, names[a], &vs, &ve))
      continue;
    xmt_x2w_put(w, " ", 1);
    xmt_x2w_put_str(w, names[a]);
    xmt_x2w_put(w, "=", 1);
    xmt_x2w_put(w, tag + vs - 1, ve - vs + 2);
  }
  xmt_x2w_put(w, ">", 1);
}

/* The source's bytes from `at` to `end` with its codes from k, n of them:
 * a pc or mrk end whose partner is not among them written as sc/ec
 * (sm/em), not isolated, as the spec wants of a pair whose ends are in
 * one unit. */
static void put_bytes(struct writer *w, size_t at, size_t end, size_t k,
                      size_t n) {
  const struct x2_code *codes = w->doc->codes;
  for (size_t i = k; i < k + n; i++) {
    const struct x2_code *x = &codes[i];
    size_t partner = x->partner;
    int out = partner != X2_NONE && (partner < k || partner >= k + n);
    struct placed code = {
        x->offset, i,
        (unsigned char)(out && (x->elem == X2_PC || x->elem == X2_MRK) &&
                        x->kind != XMT_TAG_PLACEHOLDER)};
    xmt_x2w_put(w, w->doc->data.data + at, x->start - at);
    xmt_x2w_put_code(w, &code);
    at = x->end;
  }
  xmt_x2w_put(w, w->doc->data.data + at, end - at);
}

/* 1 when a code from k, n of them, is one end of a pair (sc, ec, sm, em,
 * or a pc or mrk end): an <ignorable> holding it gets a copy of its source
 * as target, so that the targets of the unit pair as its sources do. */
static int pairing(const struct x2_doc *doc, size_t k, size_t n) {
  for (size_t i = k; i < k + n; i++) {
    unsigned char e = doc->codes[i].elem;
    if (e != X2_PH && e != X2_CP && e != X2_WHOLE)
      return 1;
  }
  return 0;
}

/* An <ignorable> of the source's bytes [from, to) and its codes from k, n
 * of them, laid out as the segment is. */
static void put_ignorable(struct writer *w, const struct x2_segment *s,
                          size_t prefix, size_t from, size_t to, size_t k,
                          size_t n) {
  const char *d = w->doc->data.data;
  size_t ws = s->close;
  while (ws > s->source.end && xmt_is_xml_space(d[ws - 1]))
    ws--;
  xmt_x2w_put(w, "<", 1);
  xmt_x2w_put(w, d + s->start + 1, prefix);
  xmt_x2w_put_str(w, "ignorable>");
  xmt_x2w_put(w, d + s->tag_end, s->source.inner_start - s->tag_end);
  put_bytes(w, from, to, k, n);
  xmt_x2w_put(w, d + s->source.inner_end, s->source.end - s->source.inner_end);
  if (pairing(w->doc, k, n)) {
    const char *tag = d + s->source.start;
    size_t len = s->source.inner_start - s->source.start, vs, ve;
    size_t sp = xmt_x2w_prefix_len(tag, len, "source");
    xmt_x2w_put(w, d + s->ws_start, s->ws_end - s->ws_start);
    xmt_x2w_put(w, "<", 1);
    xmt_x2w_put(w, tag + 1, sp);
    xmt_x2w_put_str(w, "target");
    if (xmt_tag_find_attribute(tag, len, "xml:space", &vs, &ve)) {
      xmt_x2w_put(w, " xml:space=", 11);
      xmt_x2w_put(w, tag + vs - 1, ve - vs + 2);
    }
    xmt_x2w_put(w, ">", 1);
    put_bytes(w, from, to, k, n);
    xmt_x2w_put(w, "</", 2);
    xmt_x2w_put(w, tag + 1, sp);
    xmt_x2w_put_str(w, "target>");
  }
  xmt_x2w_put(w, d + ws, s->close - ws);
  xmt_x2w_put(w, "</", 2);
  xmt_x2w_put(w, d + s->start + 1, prefix);
  xmt_x2w_put_str(w, "ignorable>");
}

/* Part p as a <segment>: its start tag written, the rest after it. */
static void put_part(struct writer *w, const struct x2_segment *s,
                     const struct x2_part *p) {
  struct x2_content src = s->source;
  src.first_code = p->first_code;
  src.ncodes = p->ncodes;
  w->at = s->tag_end;
  xmt_x2w_copy_to(w, s->source.inner_start);
  put_bytes(w, p->raw_start, p->raw_end, p->first_code, p->ncodes);
  w->at = s->source.inner_end;
  xmt_x2w_copy_to(w, s->source.end);
  xmt_x2w_target(w, s, &src, p->target);
  xmt_x2w_copy_to(w, s->end);
}

/* A stretch of a segment split with its target kept: its bytes and codes
 * in the source and in the target. */
struct stretch {
  size_t from, to, k, n;
  size_t t_from, t_to, t_k, t_n;
};

/* A target of the bytes [from, to) of the segment's target with its
 * codes from k, n of them (a pc or mrk a boundary cuts written as sc/ec
 * or sm/em, as in the source), laid out as its target is (its start and
 * end tags, the white space before it); its order, when it has one, set
 * to `place`. */
static void put_kept_target(struct writer *w, const struct x2_segment *s,
                            const struct stretch *b, unsigned place) {
  static const char *const names[] = {"order"};
  const char *d = w->doc->data.data;
  const struct x2_content *t = &s->target;
  char value[16];
  snprintf(value, sizeof value, "%u", place);
  const char *const values[] = {value};
  xmt_x2w_put(w, d + s->source.end, t->start - s->source.end);
  if (place > 0)
    xmt_x2w_put_tag(w, t->start, t->inner_start, names, values, 1);
  else
    xmt_x2w_put(w, d + t->start, t->inner_start - t->start);
  put_bytes(w, b->t_from, b->t_to, b->t_k, b->t_n);
  xmt_x2w_put(w, d + t->inner_end, t->end - t->inner_end);
}

/* The white space and codes before a sentence (or after the last): an
 * <ignorable> whose target is the target's when it differs, or when it
 * holds one end of a pair (the unit's targets then pair as its sources
 * do; the target's codes are the source's, pair_coded in resegment.c). */
static void put_kept_gap(struct writer *w, const struct x2_segment *s,
                         size_t prefix, const struct stretch *g,
                         unsigned place) {
  const char *d = w->doc->data.data;
  size_t len = g->to - g->from;
  xmt_x2w_put(w, "<", 1);
  xmt_x2w_put(w, d + s->start + 1, prefix);
  xmt_x2w_put_str(w, "ignorable>");
  xmt_x2w_put(w, d + s->tag_end, s->source.inner_start - s->tag_end);
  put_bytes(w, g->from, g->to, g->k, g->n);
  xmt_x2w_put(w, d + s->source.inner_end, s->source.end - s->source.inner_end);
  if (len != g->t_to - g->t_from || memcmp(d + g->from, d + g->t_from, len) ||
      pairing(w->doc, g->k, g->n))
    put_kept_target(w, s, g, place);
  size_t ws = s->close;
  while (ws > s->target.end && xmt_is_xml_space(d[ws - 1]))
    ws--;
  xmt_x2w_put(w, d + ws, s->close - ws);
  xmt_x2w_put(w, "</", 2);
  xmt_x2w_put(w, d + s->start + 1, prefix);
  xmt_x2w_put_str(w, "ignorable>");
}

/* A segment whose target is kept, cut where its source and target pair
 * sentence by sentence: each <segment> the sentence of each, in their
 * state; the white space between in <ignorable>s. A target's order (its
 * own place: the unit is not reordered) is set on each target cut from
 * it to the place of that target's element. The spec lets an order equal
 * to the place be left out, but the writer keeps it, renumbered, on each
 * sentence of a target it replaces: kept here too, the targets of a cut
 * look alike whoever translated them. */
static void split_kept(struct writer *w, const struct x2_segment *s,
                       const struct x2_split *split, size_t prefix,
                       size_t sep) {
  const char *d = w->doc->data.data;
  const struct x2_content *c = &s->source, *t = &s->target;
  size_t next = 1;
  unsigned place =
      w->ord_unit == s->unit_end && xmt_x2_order_at(w->doc, t->start) != NULL
          ? xmt_x2w_place(w, s->part)
          : 0;
  for (size_t p = 0; p <= split->nparts; p++) {
    const struct x2_part *part = p < split->nparts ? &split->parts[p] : NULL;
    const struct x2_part *before = p > 0 ? &split->parts[p - 1] : NULL;
    struct stretch g = {before != NULL ? before->raw_end : c->inner_start,
                        part != NULL ? part->raw_start : c->inner_end,
                        before != NULL ? before->first_code + before->ncodes
                                       : c->first_code,
                        0,
                        before != NULL ? before->t_end : t->inner_start,
                        part != NULL ? part->t_start : t->inner_end,
                        before != NULL ? before->t_first_code + before->t_ncodes
                                       : t->first_code,
                        0};
    g.n = (part != NULL ? part->first_code : c->first_code + c->ncodes) - g.k;
    g.t_n =
        (part != NULL ? part->t_first_code : t->first_code + t->ncodes) - g.t_k;
    if (g.to > g.from) {
      if (p > 0)
        xmt_x2w_put(w, d + sep, s->start - sep);
      put_kept_gap(w, s, prefix, &g, place);
      place += place > 0;
    }
    if (part == NULL)
      break;
    if (p > 0 || g.to > g.from)
      xmt_x2w_put(w, d + sep, s->start - sep);
    if (p == 0)
      xmt_x2w_put(w, d + s->start, s->tag_end - s->start);
    else
      put_new_segment(w, s, prefix, &next, 1);
    xmt_x2w_put(w, d + s->tag_end, s->source.inner_start - s->tag_end);
    put_bytes(w, part->raw_start, part->raw_end, part->first_code,
              part->ncodes);
    xmt_x2w_put(w, d + s->source.inner_end,
                s->source.end - s->source.inner_end);
    struct stretch b = {0,
                        0,
                        0,
                        0,
                        part->t_start,
                        part->t_end,
                        part->t_first_code,
                        part->t_ncodes};
    put_kept_target(w, s, &b, place);
    place += place > 0;
    xmt_x2w_put(w, d + s->target.end, s->end - s->target.end);
  }
  w->at = s->end;
}

void xmt_x2w_split(struct writer *w, size_t i) {
  static const char *const names[] = {"state", "subState"};
  static const char *const values[] = {"translated", "xliffmt:mt"};
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s = &doc->segs[i];
  const struct x2_split *split = &doc->splits[i];
  const char *d = doc->data.data;
  size_t prefix =
      xmt_x2w_prefix_len(d + s->start, s->tag_end - s->start, "segment");
  size_t sep = s->start, next = 1, last = split->nparts - 1;
  while (sep > 0 && xmt_is_xml_space(d[sep - 1]))
    sep--;
  xmt_x2w_copy_to(w, s->start);
  if (split->kept) {
    split_kept(w, s, split, prefix, sep);
    return;
  }
  /* the place of each element written, for its target's order */
  unsigned place = w->ord_unit == s->unit_end ? xmt_x2w_place(w, s->part) : 0;
  size_t k = s->source.first_code;
  for (size_t p = 0; p <= last; p++) {
    const struct x2_part *part = &split->parts[p];
    size_t from = p > 0 ? split->parts[p - 1].raw_end : s->source.inner_start;
    if (part->raw_start > from) {
      put_ignorable(w, s, prefix, from, part->raw_start, k,
                    part->first_code - k);
      xmt_x2w_put(w, d + sep, s->start - sep);
      if (place > 0)
        place++;
    }
    if (p == 0)
      xmt_x2w_put_tag(w, s->start, s->tag_end, names, values, 2);
    else
      put_new_segment(w, s, prefix, &next, 0);
    w->part_place = place;
    put_part(w, s, part);
    w->part_place = 0;
    if (place > 0)
      place++;
    k = part->first_code + part->ncodes;
    if (p < last)
      xmt_x2w_put(w, d + sep, s->start - sep);
  }
  if (split->parts[last].raw_end < s->source.inner_end) {
    xmt_x2w_put(w, d + sep, s->start - sep);
    put_ignorable(w, s, prefix, split->parts[last].raw_end, s->source.inner_end,
                  k, s->source.first_code + s->source.ncodes - k);
  }
  w->at = s->end;
}

unsigned xmt_x2w_split_places(const struct x2_doc *doc, size_t i) {
  const struct x2_segment *s = &doc->segs[i];
  const struct x2_split *split = &doc->splits[i];
  size_t n = split->nparts;
  for (size_t p = 0; p < split->nparts; p++) {
    size_t from = p > 0 ? split->parts[p - 1].raw_end : s->source.inner_start;
    n += split->parts[p].raw_start > from;
  }
  n += split->parts[split->nparts - 1].raw_end < s->source.inner_end;
  return (unsigned)n;
}
