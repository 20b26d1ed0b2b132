/* resegment.c -- a segment split into sentences (XMT_FILTER_SEG_SOURCE):
 * the unit reader's segmenter cut its trans-unit already (what the
 * engine translates is a sentence); when the segment may be resegmented,
 * its sentences are kept here with their translations and with the bytes
 * of the source each one is, for write_split.c to write a <segment> per
 * sentence and an <ignorable> per stretch of white space between them. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "xliff2_private.h"

void xmt_x2_free_split(struct x2_split *split) {
  for (size_t p = 0; p < split->nparts; p++)
    xmt_segment_free(split->parts[p].target);
  free(split->parts);
  split->parts = NULL;
  split->nparts = 0;
  split->shared = 0;
  split->kept = split->coded = 0;
  split->unpaired = split->src_sentences = 0;
}

/* The number of bytes of text the reference at s (after '&', n bytes
 * before ';') stands for; 0 for one this reader cannot tell. */
static size_t reference_len(const char *s, size_t n) {
  static const char *const names[] = {"amp", "lt", "gt", "quot", "apos"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (n == strlen(names[i]) && memcmp(s, names[i], n) == 0)
      return 1;
  if (n < 2 || s[0] != '#')
    return 0;
  int hex = s[1] == 'x';
  unsigned long cp = 0;
  for (size_t i = hex ? 2 : 1; i < n; i++) {
    char c = s[i];
    unsigned d = c >= '0' && c <= '9'          ? (unsigned)(c - '0')
                 : hex && c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : hex && c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                               : 16;
    if (d >= (hex ? 16u : 10u) || cp > 0x10FFFF)
      return 0;
    cp = cp * (hex ? 16 : 10) + d;
  }
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* One step of the text at raw[at]: how many bytes of the document it
 * takes (*raw) and of text it gives (*text), as expat reads it; 0 when it
 * is markup this cannot step over. */
static int step(const char *raw, size_t at, size_t end, size_t *len,
                size_t *text) {
  const char *p = raw + at;
  size_t n = end - at;
  static const char cdata[] = "<![CDATA[";
  *text = 1;
  *len = 1;
  if (p[0] == '\r') {
    *len = n > 1 && p[1] == '\n' ? 2 : 1;
  } else if (p[0] == '&') {
    const char *semi = memchr(p, ';', n);
    *len = semi != NULL ? (size_t)(semi - p) + 1 : 0;
    *text = semi != NULL ? reference_len(p + 1, *len - 2) : 0;
  } else if (p[0] == '<') {
    /* A comment or processing instruction gives no text; a CDATA
     * section is stepped over whole (its text is not cut). */
    int comment = n >= 4 && memcmp(p, "<!--", 4) == 0;
    int cd = n >= 9 && memcmp(p, cdata, 9) == 0;
    const char *close = comment ? "-->" : cd ? "]]>" : "?>";
    if (!comment && !cd && (n < 2 || p[1] != '?'))
      return 0;
    /* the close is looked for after the opening ("<!--->" is not a
     * comment of its own) */
    size_t open = comment ? 4 : cd ? 9 : 2;
    const char *e = memmem(p + open, n - open, close, strlen(close));
    if (e == NULL)
      return 0;
    *len = (size_t)(e - p) + strlen(close);
    *text = 0;
    for (const char *c = p + 9; cd && c < e; c++)
      if (*c != '\r' || c + 1 >= e || c[1] != '\n')
        (*text)++;
  }
  return *len > 0 && (*text > 0 || p[0] == '<');
}

/* The byte of the document where text offset `want` of content c falls,
 * the codes before index m of the document's codes lying before it and
 * the others after it; 0 when it cannot be told (the cut would fall in
 * markup). */
static int raw_at(const struct x2_doc *doc, const struct x2_content *c,
                  size_t m, size_t want, size_t *out) {
  const struct x2_code *codes = doc->codes;
  size_t last = c->first_code + c->ncodes;
  size_t at = m > c->first_code ? codes[m - 1].end : c->inner_start;
  size_t end = m < last ? codes[m].start : c->inner_end;
  size_t got = m > c->first_code ? codes[m - 1].offset : 0;
  if (got > want || (m < last && codes[m].offset < want))
    return 0;
  while (got < want && at < end) {
    size_t len, text;
    if (!step(doc->data.data, at, end, &len, &text) || at + len > end)
      return 0;
    got += text;
    at += len;
  }
  *out = at;
  return got == want;
}

/* The sentences of unit as parts of content c (a segment's source, or a
 * kept target): each gap white space and codes (an <ignorable> holds them
 * as the source has them, a pair's end there pairing with its partner in
 * a sentence, another gap or another segment; write_split.c), the texts
 * those of c end to end. */
static int cut(const struct x2_doc *doc, const struct x2_content *c,
               const xmt_xliff_unit *unit, struct x2_part *parts, size_t n) {
  const char *text = doc->texts.data != NULL ? doc->texts.data + c->text : "";
  size_t t = 0, k = c->first_code;
  for (size_t r = 0; r <= n; r++) {
    const xmt_segment *gap = xmt_unit_gap(unit, r), *src;
    size_t len;
    const char *g = xmt_segment_text(gap, &len);
    size_t gap_codes = xmt_segment_tag_count(gap);
    if (k + gap_codes > c->first_code + c->ncodes || t + len > c->text_len ||
        memcmp(g, text + t, len) != 0)
      return 0;
    for (size_t i = 0; i < len; i++)
      if (!xmt_is_xml_space(g[i]))
        return 0;
    t += len;
    k += gap_codes;
    if (r == n)
      break;
    src = xmt_xliff_unit_source(unit, r);
    const char *a = xmt_segment_text(src, &len);
    if (t + len > c->text_len || memcmp(a, text + t, len) != 0)
      return 0;
    parts[r].text_start = t;
    parts[r].text_end = t += len;
    parts[r].first_code = k;
    parts[r].ncodes = xmt_segment_tag_count(src);
    k += parts[r].ncodes;
    if (k > c->first_code + c->ncodes ||
        !raw_at(doc, c, parts[r].first_code, parts[r].text_start,
                &parts[r].raw_start) ||
        !raw_at(doc, c, k, parts[r].text_end, &parts[r].raw_end))
      return 0;
  }
  return t == c->text_len && k == c->first_code + c->ncodes;
}

/* The index of a code that starts something and shares its id with one
 * before it in the sources of segment i's unit, X2_NONE when none (every
 * valid unit: XLIFF 2.0 §4.3.1.21 wants the ids of a unit's segments,
 * ignorables and source codes unique, a target's code sharing only its
 * source code's id, and targets are not looked at here); *nomem set when
 * out of memory. Cut into <sc>/<ec> or <sm>/<em>, such pairs could not
 * be told apart again, in one segment or across the unit's, so the
 * segment is written whole and the writer says why. */
static size_t id_shared(const struct x2_doc *doc, size_t i, int *nomem) {
  size_t unit = doc->segs[i].unit_tag_end, first = i, shared = X2_NONE;
  while (first > 0 && doc->segs[first - 1].unit_tag_end == unit)
    first--;
  struct xmt_memo seen = {0};
  for (size_t j = first; shared == X2_NONE && !*nomem && j < doc->nsegs &&
                         doc->segs[j].unit_tag_end == unit;
       j++) {
    const struct x2_content *c = &doc->segs[j].source;
    for (size_t k = c->first_code;
         shared == X2_NONE && !*nomem && k < c->first_code + c->ncodes; k++) {
      const struct x2_code *code = &doc->codes[k];
      if (code->id == X2_NONE || code->elem == X2_EC || code->elem == X2_EM ||
          code->kind == XMT_TAG_CLOSE)
        continue;
      const char *id = x2_str(doc, code->id);
      size_t len = strlen(id);
      if (xmt_memo_get(&seen, id, len, NULL, NULL, NULL))
        shared = k;
      else if (xmt_memo_put(&seen, id, len, NULL, 0, 0) != XMT_OK)
        *nomem = 1;
    }
  }
  xmt_memo_free(&seen);
  return shared;
}

xmt_status xmt_x2_take_split(struct x2_doc *doc, size_t i,
                             const xmt_xliff_unit *unit) {
  const struct x2_segment *s = &doc->segs[i];
  struct x2_split *split = &doc->splits[i];
  size_t n = xmt_xliff_unit_segment_count(unit);
  xmt_x2_free_split(split);
  if (!s->alone || !s->can_resegment || s->state >= X2_REVIEWED ||
      !s->translate || n < 2 || xmt_unit_gap(unit, 0) == NULL)
    return XMT_OK;
  int nomem = 0;
  size_t shared = id_shared(doc, i, &nomem);
  if (nomem)
    return XMT_ERR_NOMEM;
  if (shared != X2_NONE) {
    split->shared = shared + 1;
    return XMT_OK;
  }
  struct x2_part *parts = calloc(n, sizeof *parts);
  if (parts == NULL)
    return XMT_ERR_NOMEM;
  if (!cut(doc, &s->source, unit, parts, n)) {
    free(parts);
    return XMT_OK;
  }
  split->parts = parts;
  split->nparts = n;
  for (size_t p = 0; p < n; p++) {
    const xmt_segment *t = xmt_unit_segment_target(unit, p);
    if (t == NULL)
      t = xmt_xliff_unit_source(unit, p);
    if ((parts[p].target = xmt_segment_new()) == NULL ||
        xmt_segment_copy(parts[p].target, t) != XMT_OK) {
      xmt_x2_free_split(split);
      return XMT_ERR_NOMEM;
    }
  }
  return XMT_OK;
}

/* The sentences of text (len bytes) in lang as [start, end) pairs in
 * *out (2 * *n of them, malloc'd), white space trimmed off their edges;
 * a line break is a space where white space is not significant (as the
 * run segments). */
static xmt_status sentences(const struct x2_kept_cut *cut, const char *lang,
                            const char *text, size_t len, int preserve,
                            size_t **out, size_t *n) {
  *out = NULL;
  *n = 0;
  char *flat = malloc(len + 1);
  if (flat == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < len; i++)
    flat[i] = !preserve && (text[i] == '\n' || text[i] == '\r') ? ' ' : text[i];
  flat[len] = '\0';
  const struct xmt_span *spans = NULL;
  size_t nspans = 0;
  xmt_status st = xmt_segmenter_set_language(cut->seg, lang);
  if (st == XMT_OK)
    st = xmt_segmenter_split(cut->seg, flat, len, &spans, &nspans);
  free(flat);
  if (st != XMT_OK)
    return st == XMT_ERR_NOMEM ? st : XMT_OK; /* not cut: kept whole */
  if (nspans > 0 && (*out = calloc(2 * nspans, sizeof **out)) == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < nspans; i++) {
    size_t a = spans[i].start, b = spans[i].end;
    while (a < b && xmt_is_xml_space(text[a]))
      a++;
    while (b > a && xmt_is_xml_space(text[b - 1]))
      b--;
    if (a < b) {
      (*out)[2 * *n] = a;
      (*out)[2 * *n + 1] = b;
      ++*n;
    }
  }
  return XMT_OK;
}

/* Where text offsets a and b of content c (without codes) are in the
 * document: 0 when it cannot be told. */
static int raw_span(const struct x2_doc *doc, const struct x2_content *c,
                    size_t a, size_t b, size_t *ra, size_t *rb) {
  return raw_at(doc, c, c->first_code, a, ra) &&
         raw_at(doc, c, c->first_code, b, rb);
}

/* The parts of a source and a kept target cut into n sentences each
 * (src, trg: their text offsets): 0 when a boundary falls in markup or a
 * gap between sentences is in the target only (no <ignorable> to hold
 * it). */
static int pair_parts(const struct x2_doc *doc, const struct x2_segment *s,
                      const size_t *src, const size_t *trg, size_t n,
                      struct x2_part *parts) {
  const struct x2_content *c = &s->source, *t = &s->target;
  for (size_t p = 0; p < n; p++) {
    struct x2_part *x = &parts[p];
    x->text_start = src[2 * p];
    x->text_end = src[2 * p + 1];
    x->first_code = c->first_code;
    x->ncodes = 0;
    x->t_first_code = t->first_code;
    x->t_ncodes = 0;
    if (!raw_span(doc, c, src[2 * p], src[2 * p + 1], &x->raw_start,
                  &x->raw_end) ||
        !raw_span(doc, t, trg[2 * p], trg[2 * p + 1], &x->t_start, &x->t_end))
      return 0;
    size_t s_from = p > 0 ? parts[p - 1].raw_end : c->inner_start;
    size_t t_from = p > 0 ? parts[p - 1].t_end : t->inner_start;
    if (x->raw_start == s_from && x->t_start > t_from)
      return 0;
  }
  return !(parts[n - 1].raw_end == c->inner_end &&
           parts[n - 1].t_end < t->inner_end);
}

/* Content c of segment s cut into sentences in lang as the run cuts a
 * source (xmt_segmenter_segment_unit: its codes fall at the boundaries as
 * they do there, a pair a boundary cuts in two), in *parts (malloc'd;
 * NULL when they cannot be cut from the document's bytes), *n the number
 * of sentences. */
static xmt_status cut_coded(const struct x2_doc *doc,
                            const struct x2_segment *s,
                            const struct x2_content *c,
                            const struct x2_kept_cut *kc, const char *lang,
                            struct x2_part **parts, size_t *n) {
  *parts = NULL;
  *n = 0;
  struct xmt_inline_builder ib;
  struct xmt_buf markup = {0};
  xmt_xliff_unit *unit = NULL;
  xmt_segment *seg = xmt_segment_new();
  xmt_ib_init(&ib);
  const struct xmt_unit_fields in = {.id = x2_str(doc, s->key),
                                     .source_language = lang,
                                     .target_language = lang,
                                     .line = 1,
                                     .column = 1,
                                     .translatable = 1,
                                     .preserve_space = s->preserve};
  xmt_status st = seg != NULL ? xmt_x2_content_segment(doc, c, &markup, seg)
                              : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = xmt_xliff_unit_build(&ib, &in, seg, NULL, &unit);
  if (st == XMT_OK)
    st = xmt_segmenter_set_language(kc->seg, lang);
  if (st == XMT_OK)
    st = xmt_segmenter_segment_unit(kc->seg, unit, 1);
  if (st == XMT_OK)
    *n = xmt_xliff_unit_segment_count(unit);
  if (st == XMT_OK && *n > 1 && xmt_unit_gap(unit, 0) != NULL) {
    if ((*parts = calloc(*n, sizeof **parts)) == NULL)
      st = XMT_ERR_NOMEM;
    else if (!cut(doc, c, unit, *parts, *n)) {
      free(*parts);
      *parts = NULL;
    }
  }
  xmt_xliff_unit_free(unit);
  xmt_segment_free(seg);
  xmt_buf_free(&markup);
  xmt_ib_free(&ib);
  return st == XMT_ERR_NOMEM ? st : XMT_OK; /* not cut: kept whole */
}

/* The kind of element of a code, as a target may write it: a pc cut into
 * sc/ec is still the source's pc. */
static int family(const struct x2_code *x) {
  switch ((enum x2_elem)x->elem) {
  case X2_PC:
  case X2_SC:
  case X2_EC:
    return 1;
  case X2_MRK:
  case X2_SM:
  case X2_EM:
    return 2;
  default:
    return 3 + x->elem;
  }
}

static int end_of(const struct x2_code *x) {
  return x->kind == XMT_TAG_OPEN || x->kind == XMT_TAG_ISOLATED_OPEN     ? 0
         : x->kind == XMT_TAG_CLOSE || x->kind == XMT_TAG_ISOLATED_CLOSE ? 1
                                                                         : 2;
}

/* 1 when source codes [a, a + n) and target codes [b, b + m) are each
 * other's one to one, by element, end and id (XLIFF 2 wants a target's
 * codes to be its source's); -1 when out of memory. */
static int codes_match(const struct x2_doc *doc, size_t a, size_t n, size_t b,
                       size_t m) {
  if (n != m)
    return 0;
  if (n == 0)
    return 1;
  unsigned char *taken = calloc(m, 1);
  if (taken == NULL)
    return -1;
  int ok = 1;
  for (size_t i = a; ok && i < a + n; i++) {
    const struct x2_code *x = &doc->codes[i];
    const char *id = x2_str(doc, x->id);
    size_t j = 0;
    for (; j < m; j++) {
      const struct x2_code *y = &doc->codes[b + j];
      const char *yid = x2_str(doc, y->id);
      if (!taken[j] && family(y) == family(x) && end_of(y) == end_of(x) &&
          (id == NULL ? yid == NULL : yid != NULL && strcmp(id, yid) == 0))
        break;
    }
    ok = j < m;
    if (ok)
      taken[j] = 1;
  }
  free(taken);
  return ok;
}

/* 1 when the n sentences of source (parts) and target (tp) of segment s
 * pair: each sentence and each gap (before the first, between, after the
 * last) holds the same codes in both, and a gap of the target has one of
 * the source to be written in (an <ignorable>); the target's bytes and
 * codes then set in parts. -1 when out of memory. */
static int pair_coded(const struct x2_doc *doc, const struct x2_segment *s,
                      struct x2_part *parts, const struct x2_part *tp,
                      size_t n) {
  const struct x2_content *c = &s->source, *t = &s->target;
  for (size_t r = 0; r <= n; r++) {
    size_t k =
        r > 0 ? parts[r - 1].first_code + parts[r - 1].ncodes : c->first_code;
    size_t tk = r > 0 ? tp[r - 1].first_code + tp[r - 1].ncodes : t->first_code;
    size_t ke = r < n ? parts[r].first_code : c->first_code + c->ncodes;
    size_t tke = r < n ? tp[r].first_code : t->first_code + t->ncodes;
    size_t from = r > 0 ? parts[r - 1].raw_end : c->inner_start;
    size_t to = r < n ? parts[r].raw_start : c->inner_end;
    size_t t_from = r > 0 ? tp[r - 1].raw_end : t->inner_start;
    size_t t_to = r < n ? tp[r].raw_start : t->inner_end;
    int ok = to == from && t_to > t_from
                 ? 0
                 : codes_match(doc, k, ke - k, tk, tke - tk);
    if (ok == 1 && r < n)
      ok = codes_match(doc, parts[r].first_code, parts[r].ncodes,
                       tp[r].first_code, tp[r].ncodes);
    if (ok != 1)
      return ok;
  }
  for (size_t p = 0; p < n; p++) {
    parts[p].t_start = tp[p].raw_start;
    parts[p].t_end = tp[p].raw_end;
    parts[p].t_first_code = tp[p].first_code;
    parts[p].t_ncodes = tp[p].ncodes;
  }
  return 1;
}

/* take_kept of a segment with inline codes: its source and target cut as
 * the run cuts a source, paired when the sentences are as many and hold
 * the same codes. */
static xmt_status take_coded(struct x2_doc *doc, size_t i,
                             const struct x2_kept_cut *kc) {
  const struct x2_segment *s = &doc->segs[i];
  struct x2_split *split = &doc->splits[i];
  struct x2_part *parts = NULL, *tp = NULL;
  size_t ns = 0, nt = 0;
  xmt_status st =
      cut_coded(doc, s, &s->source, kc, kc->source_language, &parts, &ns);
  int nomem = 0;
  size_t shared = X2_NONE;
  if (st == XMT_OK && ns > 1)
    shared = id_shared(doc, i, &nomem);
  if (nomem)
    st = XMT_ERR_NOMEM;
  if (st != XMT_OK || ns < 2 || shared != X2_NONE) {
    if (shared != X2_NONE)
      split->shared = shared + 1;
    free(parts);
    return st;
  }
  st = cut_coded(doc, s, &s->target, kc, kc->target_language, &tp, &nt);
  int paired = 0;
  if (st == XMT_OK && nt != ns) {
    split->unpaired = nt + 1;
    split->src_sentences = ns;
  } else if (st == XMT_OK && parts != NULL && tp != NULL &&
             (paired = pair_coded(doc, s, parts, tp, ns)) < 0) {
    st = XMT_ERR_NOMEM;
  } else if (st == XMT_OK && paired == 1) {
    split->parts = parts;
    split->nparts = ns;
    split->kept = 1;
    parts = NULL;
  } else if (st == XMT_OK) {
    split->coded = 1;
  }
  free(parts);
  free(tp);
  return st;
}

const struct x2_order *xmt_x2_order_at(const struct x2_doc *doc, size_t at) {
  size_t i = xmt_lower_bound(doc->orders, doc->norders, sizeof *doc->orders,
                             offsetof(struct x2_order, start), at);
  return i < doc->norders && doc->orders[i].start == at ? &doc->orders[i]
                                                        : NULL;
}

xmt_status xmt_x2_take_kept(struct x2_doc *doc, size_t i,
                            const struct x2_kept_cut *cut) {
  const struct x2_segment *s = &doc->segs[i];
  struct x2_split *split = &doc->splits[i];
  xmt_x2_free_split(split);
  if (cut->seg == NULL || cut->source_language == NULL ||
      cut->target_language == NULL || !s->alone || !s->can_resegment ||
      s->state >= X2_REVIEWED || !s->translate || !s->has_target || s->copied ||
      s->reordered || s->target.self_closing)
    return XMT_OK;
  /* an order names the target's own place (its unit is not reordered),
   * which the writer renumbers on each sentence (write_split.c); one whose
   * value is not a place could not be renumbered: written whole */
  size_t vs, ve;
  if (xmt_tag_find_attribute(doc->data.data + s->target.start,
                             s->target.inner_start - s->target.start, "order",
                             &vs, &ve) &&
      xmt_x2_order_at(doc, s->target.start) == NULL)
    return XMT_OK;
  if (s->source.ncodes > 0 || s->target.ncodes > 0)
    return take_coded(doc, i, cut);
  const char *texts = doc->texts.data != NULL ? doc->texts.data : "";
  size_t *src = NULL, *trg = NULL, ns = 0, nt = 0;
  xmt_status st = sentences(cut, cut->source_language, texts + s->source.text,
                            s->source.text_len, s->preserve, &src, &ns);
  if (st == XMT_OK && ns > 1)
    st = sentences(cut, cut->target_language, texts + s->target.text,
                   s->target.text_len, s->preserve, &trg, &nt);
  struct x2_part *parts = NULL;
  if (st == XMT_OK && ns > 1 && nt == ns &&
      (parts = calloc(ns, sizeof *parts)) == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK && parts != NULL &&
      pair_parts(doc, s, src, trg, ns, parts)) {
    split->parts = parts;
    split->nparts = ns;
    split->kept = 1;
    parts = NULL;
  } else if (st == XMT_OK && ns > 1) {
    split->unpaired = nt + 1;
    split->src_sentences = ns;
  }
  free(parts);
  free(src);
  free(trg);
  return st;
}
