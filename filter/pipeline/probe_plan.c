/* probe_plan.c -- engine probes, planned: words of a segment sent to
 * the engine on their own (the content of a tagged pair, the words beside
 * a placeholder), each a request of the window (requests.c) whose
 * translation, found in the segment's, anchors a tag (probe_anchor.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline_private.h"

/* Words on one side of a placeholder, at most this many. */
#define PHRASE_WORDS 3
/* Words of a tagged span past which it gets no probe: a long span
 * translated alone is rarely found word for word in the segment's
 * translation, and the aligner places its ends as well (the real-MT
 * yardstick is the same with and without such probes), while each costs
 * the engine a sentence, twice with its context. */
#define SPAN_WORDS 8
/* Codes of a segment past which it gets no probes. */
#define PROBE_TAGS_MAX 256

static struct xmt_probe *new_probe(struct xmt_placer *p,
                                   enum xmt_probe_kind kind, size_t tag,
                                   size_t parent) {
  struct xmt_probe *v =
      xmt_grow_array(p->probes, &p->probes_cap, p->nprobes + 1, sizeof *v);
  if (v == NULL)
    return NULL;
  p->probes = v;
  struct xmt_probe *q = &v[p->nprobes++];
  memset(q, 0, sizeof *q);
  q->kind = kind;
  q->tag = tag;
  q->parent = parent;
  return q;
}

/* The CLOSE of the OPEN i of a well-nested segment, or SIZE_MAX. */
static size_t close_of(const xmt_segment *seg, size_t i) {
  size_t depth = 0;
  for (size_t j = i + 1; j < xmt_segment_tag_count(seg); j++) {
    struct xmt_tag tag;
    xmt_segment_tag(seg, j, &tag);
    if (tag.kind == XMT_TAG_OPEN)
      depth++;
    else if (tag.kind == XMT_TAG_CLOSE && depth-- == 0)
      return j;
  }
  return SIZE_MAX;
}

/* 1 when seg has a tag at a byte in (from, to) other than at skip. */
static int tag_within(const xmt_segment *seg, size_t from, size_t to,
                      size_t skip) {
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag tag;
    xmt_segment_tag(seg, i, &tag);
    if (tag.offset > from && tag.offset < to && tag.offset != skip)
      return 1;
  }
  return 0;
}

/* Narrows [*s, *e) of the core to the content worth probing: 0 when it is
 * empty, cuts a word, is longer than SPAN_WORDS words or leaves no word
 * of the core outside it. */
static int span_worth(const char *core, size_t core_len, size_t *s, size_t *e) {
  while (*s < *e && xmt_is_xml_space(core[*s]))
    (*s)++;
  while (*e > *s && xmt_is_xml_space(core[*e - 1]))
    (*e)--;
  if (*s >= *e || xmt_between_words(core, core_len, *s) ||
      xmt_between_words(core, core_len, *e))
    return 0;
  if (xmt_count_words(core + *s, *e - *s) > SPAN_WORDS)
    return 0;
  return xmt_has_word(core, *s) || xmt_has_word(core + *e, core_len - *e);
}

/* The probe of span [s, e) of the core with the word before it (the
 * subject of a verb, the verb of an adjective: "I open" is "abro" where
 * "open" alone is "abierto"), if that word is next to it. */
static xmt_status plan_context(struct xmt_placer *p, const xmt_segment *seg,
                               size_t lead, size_t i, size_t parent, size_t s,
                               size_t e) {
  const struct xmt_token *t = xmt_tokens_array(p->stok);
  size_t g = 0, m = xmt_tokens_count(p->stok);
  while (g < m && t[g].end <= s)
    g++;
  const char *core = xmt_segment_text(seg, NULL) + lead;
  if (g == 0 ||
      !xmt_has_word(core + t[g - 1].start, t[g - 1].end - t[g - 1].start) ||
      tag_within(seg, lead + t[g - 1].start, lead + s, lead + s))
    return XMT_OK;
  struct xmt_probe *q = new_probe(p, XMT_PROBE_CONTEXT, i, parent);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  q->start = t[g - 1].start;
  q->end = e;
  return XMT_OK;
}

/* The probe of the pair opened by tag i (CLOSE c), if worth one. */
static xmt_status plan_span(struct xmt_placer *p, const xmt_segment *seg,
                            size_t lead, size_t core_len, size_t i, size_t c,
                            size_t parent, size_t *probe) {
  struct xmt_tag open, close;
  xmt_segment_tag(seg, i, &open);
  xmt_segment_tag(seg, c, &close);
  const char *core = xmt_segment_text(seg, NULL) + lead;
  size_t s = open.offset > lead ? open.offset - lead : 0;
  size_t e = close.offset > lead ? close.offset - lead : 0;
  e = e > core_len ? core_len : e;
  *probe = SIZE_MAX;
  if (s >= e || !span_worth(core, core_len, &s, &e))
    return XMT_OK;
  struct xmt_probe *q = new_probe(p, XMT_PROBE_SPAN, i, parent);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  q->start = s;
  q->end = e;
  q->literal = !xmt_needs_mt(core + s, e - s);
  *probe = p->nprobes - 1;
  return q->literal ? XMT_OK : plan_context(p, seg, lead, i, parent, s, e);
}

/* The words of a placeholder's side: tokens first..last (inclusive) of
 * p->stok growing away from the placeholder at core byte rel, words only,
 * no other tag among them. 0 when the nearest token is not a word. */
static int side_words(struct xmt_placer *p, const xmt_segment *seg, size_t lead,
                      int before, size_t g, size_t rel, size_t *first,
                      size_t *last) {
  const struct xmt_token *t = xmt_tokens_array(p->stok);
  size_t m = xmt_tokens_count(p->stok);
  const char *core = xmt_segment_text(seg, NULL) + lead;
  if (before ? g == 0 : g >= m)
    return 0;
  size_t near = before ? g - 1 : g, far = near;
  if (!xmt_has_word(core + t[near].start, t[near].end - t[near].start) ||
      tag_within(seg, lead + (before ? t[near].start : rel),
                 lead + (before ? rel : t[near].end), lead + rel))
    return 0;
  for (size_t n = 1; n < PHRASE_WORDS; n++) {
    size_t k = before ? far - 1 : far + 1;
    if ((before && far == 0) || (!before && k >= m) ||
        !xmt_has_word(core + t[k].start, t[k].end - t[k].start) ||
        tag_within(seg, lead + (before ? t[k].start : rel),
                   lead + (before ? rel : t[k].end), lead + rel))
      break;
    far = k;
  }
  *first = before ? far : near;
  *last = before ? near : far;
  return 1;
}

/* The probes of placeholder i at core byte rel: its side's words, the
 * longest phrase first, then the one word next to it. */
static xmt_status plan_point(struct xmt_placer *p, const xmt_segment *seg,
                             size_t lead, size_t core_len, size_t i,
                             size_t parent) {
  struct xmt_tag tag;
  xmt_segment_tag(seg, i, &tag);
  const char *core = xmt_segment_text(seg, NULL) + lead;
  size_t rel = tag.offset - lead;
  const struct xmt_token *t = xmt_tokens_array(p->stok);
  size_t m = xmt_tokens_count(p->stok), g = 0;
  while (g < m && t[g].end <= rel)
    g++;
  if (g < m && t[g].start < rel)
    return XMT_OK; /* inside a word: the word decides */
  /* The side the projector reads: the word before for a closing code or
   * one glued to that word ("car<x/> is"), else the word after. */
  int before =
      tag.kind == XMT_TAG_ISOLATED_CLOSE ||
      (tag.kind == XMT_TAG_PLACEHOLDER && !xmt_is_xml_space(core[rel - 1]) &&
       rel < core_len && xmt_is_xml_space(core[rel]));
  size_t first, last;
  if (!side_words(p, seg, lead, before, g, rel, &first, &last))
    return XMT_OK;
  enum xmt_probe_kind kind = before ? XMT_PROBE_BEFORE : XMT_PROBE_AFTER;
  size_t n = last - first + 1;
  for (size_t k = 0; k < (n > 1 ? 2u : 1u); k++) {
    struct xmt_probe *q = new_probe(p, kind, i, parent);
    if (q == NULL)
      return XMT_ERR_NOMEM;
    /* the phrase, then the word next to the placeholder */
    size_t a = k == 0 ? first : before ? last : first;
    size_t b = k == 0 ? last : before ? last : first;
    q->start = t[a].start;
    q->end = t[b].end;
    q->literal = !xmt_needs_mt(core + q->start, q->end - q->start);
  }
  return XMT_OK;
}

xmt_status xmt_probe_plan(struct xmt_placer *p, const xmt_segment *seg,
                          size_t lead, size_t core_len) {
  p->nprobes = 0;
  size_t n = xmt_segment_tag_count(seg);
  /* Planning and anchoring look at every word for every code: a segment
   * of thousands of codes (a table flattened into one unit) is placed by
   * the alignment alone. */
  if (n == 0 || n > PROBE_TAGS_MAX)
    return XMT_OK;
  const char *text = xmt_segment_text(seg, NULL);
  xmt_status st =
      xmt_tokenize(p->stok, text + lead, core_len, XMT_TOKENIZE_DEFAULT);
  /* The innermost probe of the pairs open at each tag; pairs nested
   * deeper than the stack count as the deepest one it holds. */
  size_t stack[64], depth = 0, deeper = 0;
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(seg, i, &tag);
    size_t parent = depth > 0 ? stack[depth - 1] : SIZE_MAX;
    if (tag.kind == XMT_TAG_CLOSE) {
      if (deeper > 0)
        deeper--;
      else if (depth > 0)
        depth--;
    } else if (tag.kind == XMT_TAG_OPEN) {
      size_t c = close_of(seg, i), probe = SIZE_MAX;
      if (c != SIZE_MAX && deeper == 0)
        st = plan_span(p, seg, lead, core_len, i, c, parent, &probe);
      if (depth < sizeof stack / sizeof *stack)
        stack[depth++] = probe != SIZE_MAX ? probe : parent;
      else
        deeper++;
    } else if (tag.offset > lead && tag.offset < lead + core_len) {
      st = plan_point(p, seg, lead, core_len, i, parent);
    }
  }
  return st;
}

/* The probes of a segment (its core at lead, core_len bytes): planned on
 * its spaced core, each asked for as a request of its own unless it is
 * literal; *first and *n say where they are in the window's probes. */
xmt_status xmt_probes_add(struct run *run, const xmt_segment *src, size_t lead,
                          size_t src_core_len, size_t *first, size_t *n) {
  struct window *w = xmt_run_fill(run);
  struct xmt_placer *p = xmt_tools_placer(xmt_run_tools(run));
  size_t core_len;
  xmt_status st =
      xmt_break_segment(p, src, lead, src_core_len, p->spaced, &core_len);
  if (st == XMT_OK)
    st = xmt_probe_plan(p, p->spaced, lead, core_len);
  if (st == XMT_OK)
    st = xmt_window_grow_probes(w, p->nprobes);
  const char *core = xmt_segment_text(p->spaced, NULL) + lead;
  *first = xmt_window_nprobes(w);
  for (size_t k = 0; st == XMT_OK && k < p->nprobes; k++) {
    const struct xmt_probe *q = &p->probes[k];
    size_t *r = xmt_window_add_probe(w, q);
    *r = NO_RESULT;
    if (!q->literal)
      st = xmt_requests_add(run, core + q->start, q->end - q->start,
                            core + q->start, q->end - q->start, 1, r);
  }
  *n = xmt_window_nprobes(w) - *first;
  return st;
}
