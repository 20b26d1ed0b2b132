/* unit.c -- segmenting an XLIFF trans-unit: the rules split the
 * plain text of its source, then every inline code finds its side of each
 * boundary, and pairs cut by one become isolated codes. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "segmenter_private.h"

/* Preferences of a code lying in the whitespace (or at the edges) of a
 * boundary: join the segment before (A), stay outside (G), join the one
 * after (B); NEED_* when the other end of its pair is in that segment. */
enum pref { P_G, P_A, P_B, P_NEED_A, P_NEED_B };

struct code {
  struct xmt_tag tag;
  size_t partner; /* the other end of an OPEN/CLOSE pair, or SIZE_MAX */
  long inside;    /* segment strictly around it, or -1 */
  long region;    /* boundary region it lies in, or -1 */
  enum pref pref;
  /* Its place: odd 2k+1 is segment k, even 2r is the gap before segment r
   * (2n: after the last). Places never decrease in document order. */
  size_t place;
  int cut; /* the pair is split: written as isolated codes */
};

struct work {
  xmt_segmenter *s;
  const xmt_segment *src; /* the unit's whole source */
  const char *text;       /* its text */
  size_t len;
  struct code *codes;
  size_t ncodes;
  struct xmt_span *spans; /* the segments, a copy */
  size_t n;
  const struct srx_doc *doc;
};

/* Region r lies between segment r-1 and segment r: [lo(r), hi(r)]. */
static size_t lo(const struct work *w, size_t r) {
  return r == 0 ? 0 : w->spans[r - 1].end;
}
static size_t hi(const struct work *w, size_t r) {
  return r == w->n ? w->len : w->spans[r].start;
}

/* Pairs that may be cut into isolated codes; a boundary inside any other
 * pair (a term <mrk>, say) is dropped instead. */
static int cuttable(const struct xmt_tag *t) {
  return strcmp(t->name, "g") == 0 || strcmp(t->name, "bx") == 0 ||
         strcmp(t->name, "ex") == 0 || strcmp(t->name, "bpt") == 0 ||
         strcmp(t->name, "ept") == 0;
}

static void locate(struct work *w) {
  size_t k = 0;
  for (size_t i = 0; i < w->ncodes; i++) {
    struct code *c = &w->codes[i];
    size_t off = c->tag.offset;
    while (k < w->n && off > w->spans[k].end)
      k++;
    /* Now off <= end of segment k (or k == n). */
    if (k < w->n && off > w->spans[k].start && off < w->spans[k].end) {
      c->inside = (long)k;
      c->region = -1;
    } else {
      c->inside = -1;
      c->region = (long)(k < w->n && off == w->spans[k].end ? k + 1 : k);
    }
  }
}

/* Drops each boundary a pair that cannot be cut would straddle. */
static void merge_uncuttable(struct work *w) {
  for (size_t i = 0; i < w->ncodes; i++) {
    const struct code *o = &w->codes[i];
    if (o->tag.kind != XMT_TAG_OPEN || o->partner == SIZE_MAX ||
        cuttable(&o->tag))
      continue;
    size_t a = o->tag.offset, b = w->codes[o->partner].tag.offset;
    size_t out = 1;
    for (size_t r = 1; r < w->n; r++) {
      if (a < hi(w, r) && b > lo(w, r))
        w->spans[out - 1].end = w->spans[r].end; /* merge r into out-1 */
      else
        w->spans[out++] = w->spans[r];
    }
    if (w->n > 0)
      w->n = out;
  }
}

/* 1 when text [a, b) is white space only. */
static int blank_between(const struct work *w, size_t a, size_t b) {
  for (size_t i = a; i < b; i++)
    if (!xmt_is_xml_space(w->text[i]))
      return 0;
  return 1;
}

/* Placeholders before the first sentence or after the last, with only
 * white space around them, belong to it: "{n} minutes ago" is a sentence
 * the engine reorders ("Hace {n} minutos"), where a code outside stays at
 * the edge. Other codes there stay outside, as before. */
static void reach_edge_placeholders(struct work *w) {
  size_t i = 0, j = w->ncodes;
  if (w->n == 0 || w->ncodes == 0)
    return;
  while (i < w->ncodes && w->codes[i].tag.offset < w->spans[0].start &&
         w->codes[i].tag.kind == XMT_TAG_PLACEHOLDER)
    i++;
  if (i > 0 &&
      (i == w->ncodes || w->codes[i].tag.offset >= w->spans[0].start) &&
      blank_between(w, w->codes[0].tag.offset, w->spans[0].start))
    w->spans[0].start = w->codes[0].tag.offset;
  struct xmt_span *last = &w->spans[w->n - 1];
  while (j > 0 && w->codes[j - 1].tag.offset > last->end &&
         w->codes[j - 1].tag.kind == XMT_TAG_PLACEHOLDER)
    j--;
  if (j < w->ncodes && (j == 0 || w->codes[j - 1].tag.offset <= last->end) &&
      blank_between(w, last->end, w->codes[w->ncodes - 1].tag.offset))
    last->end = w->codes[w->ncodes - 1].tag.offset;
}

/* An end of a pair that lies between segments joins the segment it
 * touches; it must, when the pair is then whole in it. A pair is never
 * left around mrk elements: the XLIFF 1.2 schema wants the mrks of a
 * seg-source and of a target as their children. */
static enum pref pair_pref(const struct work *w, const struct code *c) {
  const struct code *p = &w->codes[c->partner];
  size_t r = (size_t)c->region;
  if (c->tag.kind == XMT_TAG_OPEN) {
    if (r == w->n || c->tag.offset != hi(w, r))
      return P_G;
    if (p->region >= 0) /* around segment r and no more: whole in it */
      return (size_t)p->region == r + 1 && p->tag.offset == lo(w, r + 1)
                 ? P_NEED_B
                 : P_B;
    return (size_t)p->inside == r ? P_NEED_B : P_B;
  }
  if (r == 0 || c->tag.offset != lo(w, r))
    return P_G;
  if (p->region >= 0)
    return (size_t)p->region + 1 == r && p->tag.offset == hi(w, r - 1)
               ? P_NEED_A
               : P_A;
  return (size_t)p->inside + 1 == r ? P_NEED_A : P_A;
}

/* A code without partner goes where it touches text: with the sentence it
 * starts or ends; touching both, as formathandle says. */
static enum pref lone_pref(const struct work *w, const struct code *c) {
  size_t r = (size_t)c->region;
  int can_a = r > 0 && c->tag.offset == lo(w, r);
  int can_b = r < w->n && c->tag.offset == hi(w, r);
  int include = c->tag.kind == XMT_TAG_ISOLATED_OPEN ? w->doc->include_start
                : c->tag.kind == XMT_TAG_ISOLATED_CLOSE
                    ? w->doc->include_end
                    : w->doc->include_isolated;
  if (can_a && (include || !can_b))
    return P_A;
  return can_b ? P_B : P_G;
}

/* Places the codes of region r, indexes [first, end): a prefix joins the
 * segment before, a suffix the one after, the rest stays outside. */
static void place_region(struct work *w, size_t r, size_t first, size_t end) {
  size_t a_end = first, b_start = end;
  for (size_t i = first; i < end; i++)
    if (w->codes[i].pref == P_NEED_A)
      a_end = i + 1;
  while (a_end < end && r > 0 && w->codes[a_end].tag.offset == lo(w, r) &&
         (w->codes[a_end].pref == P_A || w->codes[a_end].pref == P_NEED_A))
    a_end++;
  for (size_t i = end; i > a_end; i--)
    if (w->codes[i - 1].pref == P_NEED_B)
      b_start = i - 1;
  while (b_start > a_end && r < w->n &&
         w->codes[b_start - 1].tag.offset == hi(w, r) &&
         (w->codes[b_start - 1].pref == P_B ||
          w->codes[b_start - 1].pref == P_NEED_B))
    b_start--;
  for (size_t i = first; i < end; i++)
    w->codes[i].place = i < a_end ? 2 * r - 1 : i < b_start ? 2 * r : 2 * r + 1;
}

static void place_all(struct work *w) {
  locate(w);
  for (size_t i = 0; i < w->ncodes; i++) {
    struct code *c = &w->codes[i];
    if (c->inside >= 0)
      c->place = 2 * (size_t)c->inside + 1;
    else if (c->partner != SIZE_MAX)
      c->pref = pair_pref(w, c);
    else
      c->pref = lone_pref(w, c);
  }
  for (size_t i = 0; i < w->ncodes;) {
    if (w->codes[i].region < 0) {
      i++;
      continue;
    }
    size_t j = i;
    while (j < w->ncodes && w->codes[j].region == w->codes[i].region)
      j++;
    place_region(w, (size_t)w->codes[i].region, i, j);
    i = j;
  }
  /* A pair stays whole inside one segment or one gap; else it is cut. */
  for (size_t i = 0; i < w->ncodes; i++) {
    struct code *c = &w->codes[i];
    if (c->partner != SIZE_MAX)
      c->cut = w->codes[c->partner].place != c->place;
  }
}

/* --- Isolated forms of cut pairs -------------------------------------------
 */

/* Length of the element name (prefix included) after '<' or "</". */
static size_t name_len(const char *m, size_t len, size_t from) {
  size_t i = from;
  while (i < len && m[i] != ' ' && m[i] != '\t' && m[i] != '\r' &&
         m[i] != '\n' && m[i] != '>' && m[i] != '/')
    i++;
  return i - from;
}

/* The prefix of a qualified element name, colon included ("" for none). */
static size_t prefix_len(const char *name, size_t n) {
  for (size_t i = n; i > 0; i--)
    if (name[i - 1] == ':')
      return i;
  return 0;
}

/* The raw id="..." attribute of a start tag, or NULL. */
static const char *raw_id(const char *m, size_t len, size_t *n) {
  size_t end = xmt_tag_end(m, len);
  for (size_t i = 1; i + 4 < end; i++) {
    if ((m[i - 1] == ' ' || m[i - 1] == '\t' || m[i - 1] == '\n' ||
         m[i - 1] == '\r') &&
        strncmp(m + i, "id", 2) == 0) {
      size_t j = i + 2;
      while (j < end && (m[j] == ' ' || m[j] == '\t'))
        j++;
      if (j >= end || m[j] != '=')
        continue;
      j++;
      while (j < end && (m[j] == ' ' || m[j] == '\t'))
        j++;
      if (j >= end || (m[j] != '"' && m[j] != '\''))
        continue;
      size_t k = j + 1;
      while (k < end && m[k] != m[j])
        k++;
      *n = k + 1 - j;
      return m + j;
    }
  }
  return NULL;
}

/* <g ...> becomes <bx .../> and </g> <ex id=".."/>, the id the g's. */
static xmt_status g_isolated(struct xmt_buf *out, const struct xmt_tag *t,
                             const struct xmt_tag *open) {
  const char *m = open->markup;
  size_t len = open->markup_len, nl = name_len(m, len, 1);
  size_t pl = prefix_len(m + 1, nl);
  xmt_status st = xmt_buf_append(out, "<", 1);
  if (st == XMT_OK)
    st = xmt_buf_append(out, m + 1, pl);
  if (t->kind == XMT_TAG_OPEN) {
    size_t end = xmt_tag_end(m, len);
    while (end > 1 + nl && (m[end - 1] == ' ' || m[end - 1] == '\n' ||
                            m[end - 1] == '\t' || m[end - 1] == '\r'))
      end--;
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "bx");
    if (st == XMT_OK)
      st = xmt_buf_append(out, m + 1 + nl, end - 1 - nl);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "/>");
    return st;
  }
  size_t idn = 0;
  const char *id = raw_id(m, len, &idn);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "ex");
  if (st == XMT_OK && id != NULL) {
    st = xmt_buf_append_str(out, " id=");
    if (st == XMT_OK)
      st = xmt_buf_append(out, id, idn);
  }
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "/>");
  return st;
}

/* <bpt ...>code</bpt> becomes <it ... pos="open">code</it>, ept alike. */
static xmt_status bpt_isolated(struct xmt_buf *out, const struct xmt_tag *t) {
  const char *m = t->markup;
  size_t len = t->markup_len, nl = name_len(m, len, 1);
  size_t pl = prefix_len(m + 1, nl);
  size_t end = xmt_tag_end(m, len);
  if (end >= len)
    return xmt_buf_append(out, m, len);
  int empty = end > 0 && m[end - 1] == '/';
  size_t attrs_end = empty ? end - 1 : end;
  while (attrs_end > 1 + nl &&
         (m[attrs_end - 1] == ' ' || m[attrs_end - 1] == '\n' ||
          m[attrs_end - 1] == '\t' || m[attrs_end - 1] == '\r'))
    attrs_end--;
  const char *pos =
      t->kind == XMT_TAG_OPEN ? " pos=\"open\"" : " pos=\"close\"";
  xmt_status st = xmt_buf_append(out, m, 1 + pl);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "it");
  if (st == XMT_OK)
    st = xmt_buf_append(out, m + 1 + nl, attrs_end - 1 - nl);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, pos);
  if (empty)
    return st == XMT_OK ? xmt_buf_append_str(out, "/>") : st;
  /* The content, then the end tag renamed. */
  size_t close = len;
  while (close > end && m[close - 1] != '<')
    close--;
  if (close <= end + 1)
    close = len + 1;
  if (st == XMT_OK)
    st = xmt_buf_append(out, m + end, close - 1 - end);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "</");
  if (st == XMT_OK)
    st = xmt_buf_append(out, m + 1, pl);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "it>");
  return st;
}

/* Appends code c to seg, in its isolated form when its pair is cut. */
static xmt_status put_code(const struct work *w, const struct code *c,
                           xmt_segment *seg, struct xmt_buf *scratch) {
  const struct xmt_tag *t = &c->tag;
  if (!c->cut)
    return xmt_segment_append_tag(seg, t->kind, t->id, t->name, t->markup,
                                  t->markup_len);
  enum xmt_tag_kind kind =
      t->kind == XMT_TAG_OPEN ? XMT_TAG_ISOLATED_OPEN : XMT_TAG_ISOLATED_CLOSE;
  xmt_buf_reset(scratch);
  xmt_status st = XMT_OK;
  const char *name = t->name;
  if (strcmp(t->name, "g") == 0) {
    const struct code *open =
        t->kind == XMT_TAG_OPEN ? c : &w->codes[c->partner];
    st = g_isolated(scratch, t, &open->tag);
    name = t->kind == XMT_TAG_OPEN ? "bx" : "ex";
  } else if (strcmp(t->name, "bpt") == 0 || strcmp(t->name, "ept") == 0) {
    st = bpt_isolated(scratch, t);
    name = "it";
  } else
    st = xmt_buf_append(scratch, t->markup, t->markup_len);
  if (st != XMT_OK)
    return st;
  return xmt_segment_append_tag(seg, kind, t->id, name, scratch->data,
                                scratch->len);
}

/* The room the codes at place `place` from `next` on take in a segment's
 * pool (a cut code's isolated form may take more), and their count. */
static size_t pool_need(const struct work *w, size_t place, size_t next,
                        size_t *n) {
  size_t need = 0;
  for (*n = 0; next < w->ncodes && w->codes[next].place == place; next++) {
    const struct xmt_tag *t = &w->codes[next].tag;
    need += strlen(t->id) + strlen(t->name) + t->markup_len + 3;
    ++*n;
  }
  return need;
}

/* Fills seg with text [a, b) and the codes at place `place`, from *next on:
 * its room made at once; the text, cut at character boundaries of the
 * source's, is valid UTF-8. */
static xmt_status fill(const struct work *w, xmt_segment *seg, size_t a,
                       size_t b, size_t place, size_t *next,
                       struct xmt_buf *scratch) {
  size_t at = a, n = 0;
  size_t pool = pool_need(w, place, *next, &n);
  xmt_status st =
      b > a || n > 0 ? xmt_segment_reserve(seg, b - a, pool, n) : XMT_OK;
  while (st == XMT_OK && *next < w->ncodes && w->codes[*next].place == place) {
    const struct code *c = &w->codes[(*next)++];
    if (c->tag.offset > at)
      st = xmt_segment_append_valid_text(seg, w->text + at, c->tag.offset - at);
    at = c->tag.offset > at ? c->tag.offset : at;
    if (st == XMT_OK)
      st = put_code(w, c, seg, scratch);
  }
  if (st == XMT_OK && b > at)
    st = xmt_segment_append_valid_text(seg, w->text + at, b - at);
  return st;
}

/* Grows one of the segmenter's work arrays to n items (one at least). */
static void *room(void **p, size_t *cap, size_t n, size_t size) {
  void *v = xmt_grow_array(*p, cap, n, size);
  if (v != NULL)
    *p = v;
  return v;
}

/* Frees the segments of segs, and segs when own. */
static void free_all(xmt_segment **segs, size_t n, int own) {
  if (segs == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    xmt_segment_free(segs[i]);
  if (own)
    free(segs);
}

/* Whether the one segment is the whole source as it is: all its text,
 * all its codes, none cut, in order. It is then copied, not filled code
 * by code, as most units of one sentence are. */
static int whole_source(const struct work *w) {
  if (w->n != 1 || w->spans[0].start != 0 || w->spans[0].end != w->len)
    return 0;
  size_t at = 0;
  for (size_t i = 0; i < w->ncodes; i++) {
    const struct code *c = &w->codes[i];
    if (c->place != 1 || c->cut || c->tag.offset < at || c->tag.offset > w->len)
      return 0;
    at = c->tag.offset;
  }
  return 1;
}

/* Builds the segments and gaps and hands them to the unit. */
static xmt_status build(struct work *w, xmt_xliff_unit *unit) {
  /* The sources' array is the segmenter's: the unit copies it. */
  xmt_segment **sources =
      room(&w->s->unit_sources, &w->s->unit_sources_cap, w->n, sizeof *sources);
  xmt_segment **gaps = calloc(w->n + 1, sizeof *gaps);
  struct xmt_buf scratch = {0};
  if (sources != NULL)
    memset(sources, 0, w->n * sizeof *sources);
  xmt_status st = sources != NULL && gaps != NULL ? XMT_OK : XMT_ERR_NOMEM;
  size_t next = 0;
  for (size_t r = 0; st == XMT_OK && r <= w->n; r++) {
    if ((gaps[r] = xmt_segment_new()) == NULL) {
      st = XMT_ERR_NOMEM;
      break;
    }
    st = fill(w, gaps[r], lo(w, r), hi(w, r), 2 * r, &next, &scratch);
    if (st != XMT_OK || r == w->n)
      break;
    if ((sources[r] = xmt_segment_new()) == NULL) {
      st = XMT_ERR_NOMEM;
      break;
    }
    if (whole_source(w)) {
      st = xmt_segment_copy(sources[r], w->src);
      next = w->ncodes;
    } else
      st = fill(w, sources[r], w->spans[r].start, w->spans[r].end, 2 * r + 1,
                &next, &scratch);
  }
  if (st == XMT_OK && next != w->ncodes)
    st = XMT_ERR_INTERNAL;
  xmt_buf_free(&scratch);
  if (st == XMT_OK)
    st = xmt_unit_set_generated(unit, sources, gaps, w->n);
  if (st != XMT_OK) {
    free_all(sources, w->n, 0);
    free_all(gaps, w->n + 1, 1);
    return st;
  }
  return XMT_OK;
}

/* --- ICU messages ----------------------------------------------------------
 * Here, where a unit becomes segments, because the segments are what the
 * engine sees and the text between them is written back as it is: an ICU
 * message's syntax lies between segments, its case bodies are segments,
 * and the readers, the pipeline and the writers need not know ICU. */

/* The piece of the messages holding offset o (its ends included), or
 * SIZE_MAX: o lies in a message's syntax. */
static size_t piece_of(const struct icu_messages *m, size_t o) {
  size_t lo = xmt_lower_bound(m->pieces, m->npieces, sizeof *m->pieces,
                              offsetof(struct xmt_span, end), o);
  return lo < m->npieces && m->pieces[lo].start <= o ? lo : SIZE_MAX;
}

static int in_arg(const struct icu_messages *m, size_t o) {
  for (size_t i = 0; i < m->nargs; i++)
    if (m->args[i].start <= o && o <= m->args[i].end)
      return 1;
  return 0;
}

/* 1 when the codes fit the messages: one at least where a variable has
 * no name, none elsewhere in a message's syntax (nor a pair's end there),
 * and each pair whole in one piece. */
static int codes_fit(const struct work *w, const struct icu_messages *m) {
  for (size_t i = 0; i < m->nargs; i++) {
    size_t k = 0;
    while (k < w->ncodes && w->codes[k].tag.offset < m->args[i].start)
      k++;
    if (k == w->ncodes || w->codes[k].tag.offset > m->args[i].end)
      return 0;
  }
  for (size_t i = 0; i < w->ncodes; i++) {
    const struct code *c = &w->codes[i];
    size_t k = piece_of(m, c->tag.offset);
    int pair_end = c->tag.kind == XMT_TAG_OPEN || c->tag.kind == XMT_TAG_CLOSE;
    if (k == SIZE_MAX ? pair_end || !in_arg(m, c->tag.offset)
                      : c->partner != SIZE_MAX &&
                            piece_of(m, w->codes[c->partner].tag.offset) != k)
      return 0;
  }
  return 1;
}

static xmt_status add_span(struct work *w, size_t a, size_t b) {
  xmt_segmenter *s = w->s;
  struct xmt_span *v =
      xmt_grow_array(w->spans, &s->unit_spans_cap, w->n + 1, sizeof *v);
  if (v == NULL)
    return XMT_ERR_NOMEM;
  w->spans = s->unit_spans = v;
  v[w->n].start = a;
  v[w->n++].end = b;
  return XMT_OK;
}

/* The segments of a text holding ICU messages: the sentences of each
 * piece with text, the first from the piece's start and the last to its
 * end (its white space and codes stay in it: no pair is cut or merged
 * across a message's syntax), or the piece whole without sentences. */
static xmt_status icu_spans(struct work *w, const char *lang,
                            const size_t *isolated, size_t nisolated,
                            int flowed) {
  xmt_segmenter *s = w->s;
  const struct icu_messages *m = &s->messages;
  size_t from = 0;
  size_t *sub =
      xmt_grow_array(s->unit_sub, &s->unit_sub_cap, nisolated, sizeof *sub);
  xmt_status st = sub != NULL ? XMT_OK : XMT_ERR_NOMEM;
  if (sub != NULL)
    s->unit_sub = sub;
  w->spans = s->unit_spans;
  for (size_t i = 0; st == XMT_OK && i < m->npieces; i++) {
    size_t a = m->pieces[i].start, b = m->pieces[i].end, first = w->n;
    size_t at = a;
    while (at < b && xmt_is_xml_space(w->text[at]))
      at++;
    if (at == b)
      continue;
    if (s->flags & XMT_SEGMENTER_NO_SENTENCES) {
      st = add_span(w, a, b);
      continue;
    }
    size_t nsub = 0;
    while (from < nisolated && isolated[from] < a)
      from++;
    for (size_t k = from; k < nisolated && isolated[k] <= b; k++)
      sub[nsub++] = isolated[k] - a;
    st = xmt_srx_run(s, lang, w->text + a, b - a, sub, nsub, flowed);
    for (size_t k = 0; st == XMT_OK && k < s->nspans; k++)
      st = add_span(w, s->spans[k].start + a, s->spans[k].end + a);
    if (st == XMT_OK && w->n > first) {
      w->spans[first].start = a;
      w->spans[w->n - 1].end = b;
    }
  }
  return st;
}

/* Reads the codes of the source and pairs OPEN with CLOSE. */
static xmt_status read_codes(struct work *w, const xmt_segment *src,
                             size_t **isolated, size_t *nisolated) {
  xmt_segmenter *s = w->s;
  size_t n = xmt_segment_tag_count(src);
  w->codes = room(&s->unit_codes, &s->unit_codes_cap, n, sizeof *w->codes);
  size_t *stack =
      room((void **)&s->unit_stack, &s->unit_stack_cap, n, sizeof *stack);
  *isolated = room((void **)&s->unit_isolated, &s->unit_isolated_cap, n,
                   sizeof **isolated);
  if (w->codes == NULL || stack == NULL || *isolated == NULL)
    return XMT_ERR_NOMEM;
  memset(w->codes, 0, n * sizeof *w->codes);
  size_t depth = 0;
  *nisolated = 0;
  for (size_t i = 0; i < n; i++) {
    struct code *c = &w->codes[i];
    xmt_segment_tag(src, i, &c->tag);
    c->partner = SIZE_MAX;
    if (c->tag.kind == XMT_TAG_OPEN)
      stack[depth++] = i;
    else if (c->tag.kind == XMT_TAG_CLOSE) {
      if (depth > 0 &&
          strcmp(w->codes[stack[depth - 1]].tag.id, c->tag.id) == 0) {
        c->partner = stack[--depth];
        w->codes[c->partner].partner = i;
      }
    } else
      (*isolated)[(*nisolated)++] = c->tag.offset;
  }
  w->ncodes = n;
  return XMT_OK;
}

xmt_status xmt_segmenter_segment_unit(xmt_segmenter *s, xmt_xliff_unit *unit,
                                      int resegment) {
  if (s == NULL || unit == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  const xmt_segment *src = unit->whole_source;
  /* Trados's segments are named in sdl:seg-defs: they stay as they are. */
  if (!unit->translatable || src == NULL ||
      (unit->segmented && (!resegment || unit->nsdlsegs > 0)) ||
      (unit->presegmented && !resegment))
    return XMT_OK;
  struct work w;
  memset(&w, 0, sizeof w);
  w.s = s;
  w.doc = &s->doc;
  w.src = src;
  w.text = xmt_segment_text(src, &w.len);
  size_t *isolated = NULL, nisolated = 0;
  const char *lang = s->lang != NULL                 ? s->lang
                     : unit->source_language != NULL ? unit->source_language
                                                     : "und";
  xmt_status st = read_codes(&w, src, &isolated, &nisolated);
  int icu = 0;
  if (st == XMT_OK && !(s->flags & XMT_SEGMENTER_NO_ICU)) {
    int found = xmt_icu_messages_scan(&s->messages, w.text, w.len);
    if (found < 0)
      st = XMT_ERR_NOMEM;
    else if (found > 0 && codes_fit(&w, &s->messages)) {
      icu = 1;
      st = icu_spans(&w, lang, isolated, nisolated, !unit->preserve_space);
    }
  }
  if (st == XMT_OK && !icu && !(s->flags & XMT_SEGMENTER_NO_SENTENCES))
    st = xmt_srx_run(s, lang, w.text, w.len, isolated, nisolated,
                     !unit->preserve_space);
  if (st == XMT_OK && !icu && !(s->flags & XMT_SEGMENTER_NO_SENTENCES) &&
      s->nspans > 0) {
    w.n = s->nspans;
    w.spans =
        room((void **)&s->unit_spans, &s->unit_spans_cap, w.n, sizeof *w.spans);
    if (w.spans == NULL)
      st = XMT_ERR_NOMEM;
    else
      memcpy(w.spans, s->spans, w.n * sizeof *w.spans);
  }
  /* A message with no text to translate has no segment: its unit gets
   * no target, as a unit with no text. */
  if (st == XMT_OK && (icu || w.n > 0)) {
    if (!icu)
      reach_edge_placeholders(&w);
    merge_uncuttable(&w);
    place_all(&w);
    st = build(&w, unit);
  }
  if (st != XMT_OK) {
    /* Say which unit, keeping the message of the step that failed. */
    const char *why = s->err.pub.message != NULL ? s->err.pub.message
                      : st == XMT_ERR_NOMEM      ? "out of memory"
                                                 : xmt_strerror(st);
    char *msg = xmt_strdup(why);
    xmt_error_at(
        &s->err, st,
        &(const struct xmt_where){.line = unit->line, .unit_id = unit->id},
        "%s", msg != NULL ? msg : "out of memory");
    free(msg);
  }
  return st;
}
