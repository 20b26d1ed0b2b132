/* place.c -- turns a machine translation into a target segment: by copy,
 * as plain text, by projection over word alignments, or by decoding the
 * mask and raw tag modes. Every path leaves each source tag in the target
 * exactly once; a mask or raw answer beyond repair is reported so that the
 * caller projects instead. Projection is helped by word breaks
 * (place_breaks.c) and by engine probes (pipeline/probe_plan.c,
 * pipeline/probe_anchor.c). The placer works on one segment and knows no
 * run, which is why it stays here, beside check.c and the fuzz targets that
 * use it, while the rooms of a run are in pipeline/. */
#include "config.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <unicode/uchar.h>

#include "filter_private.h"

#define MASK_PREFIX "XMT"
#define MASK_SUFFIX 'X'

xmt_alignment *xmt_placer_links(struct xmt_placer *p) { return p->links; }

const char *xmt_placer_text(const struct xmt_placer *p, size_t *len) {
  *len = p->text.len;
  return p->text.data;
}

xmt_status xmt_placer_init(struct xmt_placer *p) {
  memset(p, 0, sizeof *p);
  p->stok = xmt_tokens_new();
  p->ttok = xmt_tokens_new();
  p->links = xmt_alignment_new();
  p->seg = xmt_segment_new();
  p->spaced = xmt_segment_new();
  p->spare = xmt_segment_new();
  p->anchored = xmt_alignment_new();
  if (p->stok == NULL || p->ttok == NULL || p->links == NULL ||
      p->seg == NULL || p->spaced == NULL || p->spare == NULL ||
      p->anchored == NULL) {
    xmt_placer_free(p);
    return XMT_ERR_NOMEM;
  }
  return XMT_OK;
}

void xmt_placer_free(struct xmt_placer *p) {
  xmt_tokens_free(p->stok);
  xmt_tokens_free(p->ttok);
  xmt_alignment_free(p->links);
  xmt_segment_free(p->seg);
  xmt_buf_free(&p->text);
  free(p->found);
  xmt_segment_free(p->spaced);
  xmt_segment_free(p->spare);
  free(p->breaks);
  free(p->marks);
  free(p->pairs);
  free(p->refs);
  free(p->map);
  free(p->taken);
  free(p->noted);
  free(p->probes);
  free(p->tw.w);
  xmt_buf_free(&p->tw.keys);
  free(p->pw.w);
  xmt_buf_free(&p->pw.keys);
  free(p->work);
  free(p->anchors);
  xmt_alignment_free(p->anchored);
  if (p->stemmer != NULL)
    sb_stemmer_delete(p->stemmer);
  memset(p, 0, sizeof *p);
}

void xmt_core_bounds(const char *text, size_t len, size_t *lead,
                     size_t *core_len) {
  size_t a = 0, b = len;
  while (a < b && xmt_is_xml_space(text[a]))
    a++;
  while (b > a && xmt_is_xml_space(text[b - 1]))
    b--;
  *lead = a;
  *core_len = b - a;
}

int xmt_needs_mt(const char *text, size_t len) {
  size_t i = 0;
  while (i < len) {
    uint32_t cp;
    size_t n = xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
    if (n == 0)
      return 1; /* let the engine see what we cannot classify */
    if (u_isalpha((UChar32)cp))
      return 1;
    i += n;
  }
  return 0;
}

/* --- Projection ------------------------------------------------------------
 */

/* dst = src shifted by delta bytes (dst cleared first). */
static xmt_status shift_tokens(xmt_tokens *dst, const xmt_tokens *src,
                               size_t delta) {
  xmt_status st = xmt_tokenize(dst, "", 0, XMT_TOKENIZE_WHITESPACE);
  const struct xmt_token *t = xmt_tokens_array(src);
  for (size_t i = 0; st == XMT_OK && i < xmt_tokens_count(src); i++)
    st = xmt_tokens_append(dst, t[i].start + delta, t[i].end + delta);
  return st;
}

xmt_status xmt_place_project(struct xmt_placer *p, xmt_segment *out,
                             const xmt_segment *src, size_t lead,
                             size_t core_len, const char *tr, size_t trlen,
                             const xmt_tokens *core_tokens,
                             const xmt_tokens *tr_tokens,
                             const xmt_alignment *links,
                             enum xmt_projection_rule rule) {
  size_t len;
  const char *text = xmt_segment_text(src, &len);
  xmt_buf_reset(&p->text);
  xmt_status st = xmt_buf_append(&p->text, text, lead);
  if (st == XMT_OK)
    st = xmt_buf_append(&p->text, tr, trlen);
  if (st == XMT_OK)
    st =
        xmt_buf_append(&p->text, text + lead + core_len, len - lead - core_len);
  if (st != XMT_OK)
    return st;
  size_t tlen = p->text.len;
  const char *ttext = tlen > 0 ? p->text.data : "";
  if (core_tokens != NULL)
    st = shift_tokens(p->stok, core_tokens, lead);
  else
    st = xmt_tokenize(p->stok, text, len, XMT_TOKENIZE_DEFAULT);
  if (st == XMT_OK)
    st = tr_tokens != NULL
             ? shift_tokens(p->ttok, tr_tokens, lead)
             : xmt_tokenize(p->ttok, ttext, tlen, XMT_TOKENIZE_DEFAULT);
  if (st != XMT_OK)
    return st;
  return xmt_project(out, src, p->stok, ttext, tlen, p->ttok, links, rule);
}

/* --- Mask and raw modes -----------------------------------------------------
 * Both send the core of the segment with its tags in it; the answer yields
 * the tags it kept, in its order, at offsets of its plain text. */

static int in_core(size_t off, size_t lead, size_t core_len) {
  return off >= lead && off <= lead + core_len;
}

/* The first tag of src from *i on that stands in the core, in tag, *i at
 * its index; 0 when there is none. */
static int next_core_tag(const xmt_segment *src, size_t lead, size_t core_len,
                         size_t *i, struct xmt_tag *tag) {
  for (; *i < xmt_segment_tag_count(src); ++*i) {
    xmt_segment_tag(src, *i, tag);
    if (in_core(tag->offset, lead, core_len))
      return 1;
  }
  return 0;
}

xmt_status xmt_mask_encode(const xmt_segment *src, size_t lead, size_t core_len,
                           struct xmt_buf *out) {
  const char *text = xmt_segment_text(src, NULL);
  size_t pos = lead, end = lead + core_len;
  xmt_buf_reset(out);
  xmt_status st = XMT_OK;
  struct xmt_tag tag;
  for (size_t i = 0;
       st == XMT_OK && next_core_tag(src, lead, core_len, &i, &tag); i++) {
    st = xmt_buf_append(out, text + pos, tag.offset - pos);
    pos = tag.offset;
    char token[32];
    int n = snprintf(token, sizeof token, "%s%s%zu%c",
                     out->len > 0 && out->data[out->len - 1] != ' ' ? " " : "",
                     MASK_PREFIX, i, MASK_SUFFIX);
    if (st == XMT_OK)
      st = xmt_buf_append(out, token, (size_t)n);
    if (st == XMT_OK && pos < end && !xmt_is_xml_space(text[pos]))
      st = xmt_buf_append_byte(out, ' ');
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, text + pos, end - pos);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '\0');
  if (st == XMT_OK)
    out->len--;
  return st;
}

xmt_status xmt_placer_note_found(struct xmt_placer *p, size_t tag, size_t off) {
  struct xmt_found *f =
      xmt_grow_array(p->found, &p->found_cap, p->nfound + 1, sizeof *f);
  if (f == NULL)
    return XMT_ERR_NOMEM;
  p->found = f;
  p->found[p->nfound].tag = tag;
  p->found[p->nfound].offset = off;
  p->nfound++;
  return XMT_OK;
}

/* Starts a list of found tags of src: none taken. */
static xmt_status found_reset(struct xmt_placer *p, const xmt_segment *src) {
  size_t n = xmt_segment_tag_count(src);
  unsigned char *t = xmt_grow_array(p->taken, &p->taken_cap, n, 1);
  if (t == NULL)
    return XMT_ERR_NOMEM;
  p->taken = t;
  memset(t, 0, n);
  p->nfound = 0;
  return XMT_OK;
}

/* Notes source tag tag found at off, taken from then on. */
static xmt_status take(struct xmt_placer *p, size_t tag, size_t off) {
  p->taken[tag] = 1;
  return xmt_placer_note_found(p, tag, off);
}

static int already_found(const struct xmt_placer *p, size_t tag) {
  return p->taken[tag];
}

/* --- Codes by identity (struct xmt_code_ref in filter_private.h) ---------
 */

int xmt_code_ref_cmp(const struct xmt_code_ref *a,
                     const struct xmt_code_ref *b) {
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->markup_len != b->markup_len)
    return a->markup_len < b->markup_len ? -1 : 1;
  int c = a->markup_len > 0 ? memcmp(a->markup, b->markup, a->markup_len) : 0;
  return c != 0 ? c : strcmp(a->id, b->id);
}

static int ref_order(const void *x, const void *y) {
  const struct xmt_code_ref *a = x, *b = y;
  int c = xmt_code_ref_cmp(a, b);
  return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

size_t xmt_code_refs(struct xmt_placer *p, size_t at, const xmt_segment *seg,
                     int with_markup, int core, size_t lead, size_t core_len) {
  struct xmt_code_ref *r = p->refs + at;
  size_t n = 0;
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    xmt_segment_tag(seg, i, &t);
    if (core && !in_core(t.offset, lead, core_len))
      continue;
    r[n].kind = t.kind;
    r[n].markup = with_markup ? t.markup : NULL;
    r[n].markup_len = with_markup ? t.markup_len : 0;
    r[n].id = t.id != NULL ? t.id : "";
    r[n++].index = i;
  }
  qsort(r, n, sizeof *r, ref_order);
  return n;
}

xmt_status xmt_code_refs_room(struct xmt_placer *p, size_t n) {
  struct xmt_code_ref *r = xmt_grow_array(p->refs, &p->refs_cap, n, sizeof *r);
  if (r == NULL)
    return XMT_ERR_NOMEM;
  p->refs = r;
  return XMT_OK;
}

static int ascii_upper(char c) {
  return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* Reads a mask token at s: its tag index and length, or 0. */
static size_t mask_token(const char *s, size_t n, size_t *index) {
  size_t k = sizeof MASK_PREFIX - 1;
  if (n <= k + 1)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (ascii_upper(s[i]) != MASK_PREFIX[i])
      return 0;
  size_t v = 0, i = k;
  while (i < n && s[i] >= '0' && s[i] <= '9' && i - k < 9)
    v = v * 10 + (size_t)(s[i++] - '0');
  if (i == k || i >= n || ascii_upper(s[i]) != MASK_SUFFIX)
    return 0;
  *index = v;
  return i + 1;
}

/* The plain translation (tokens removed) in p->text and the tags found in
 * p->found. A space next to a token goes with it where the source has
 * none next to the tag: the encoder put it there. */
static xmt_status mask_scan(struct xmt_placer *p, const xmt_segment *src,
                            size_t lead, size_t core_len, const char *tr,
                            size_t trlen, size_t *repairs) {
  xmt_buf_reset(&p->text);
  size_t ntags = xmt_segment_tag_count(src);
  const char *text = xmt_segment_text(src, NULL);
  size_t i = 0;
  xmt_status st = found_reset(p, src);
  while (st == XMT_OK && i < trlen) {
    size_t index, n = mask_token(tr + i, trlen - i, &index);
    if (n == 0 || (i > 0 && ascii_upper(tr[i - 1]) >= 'A' &&
                   ascii_upper(tr[i - 1]) <= 'Z')) {
      st = xmt_buf_append_byte(&p->text, tr[i++]);
      continue;
    }
    struct xmt_tag tag;
    int known = index < ntags && xmt_segment_tag(src, index, &tag) == XMT_OK &&
                in_core(tag.offset, lead, core_len);
    int before = p->text.len > 0 && p->text.data[p->text.len - 1] == ' ';
    int after = i + n < trlen && tr[i + n] == ' ';
    size_t skip = 0;
    if (known && !already_found(p, index)) {
      /* Undo the spaces the encoder added: those the source lacks. */
      int space_before =
          tag.offset > lead && xmt_is_xml_space(text[tag.offset - 1]);
      int space_after =
          tag.offset < lead + core_len && xmt_is_xml_space(text[tag.offset]);
      if (before && !space_before) {
        /* Tags found after that space now come right after the text. */
        p->text.len--;
        for (size_t k = p->nfound; k-- > 0 && p->found[k].offset > p->text.len;)
          p->found[k].offset = p->text.len;
      }
      if (after && !space_after)
        skip = 1;
    } else if (before && (after || i + n == trlen)) {
      skip = after; /* a spurious token leaves one space, or none at the end */
      if (!after)
        p->text.len--;
    }
    if (!known || already_found(p, index))
      (*repairs)++;
    else
      st = take(p, index, p->text.len);
    i += n + skip;
  }
  if (st == XMT_OK && p->text.len > 0 && p->text.data[p->text.len - 1] == ' ')
    for (size_t k = 0; k < p->nfound; k++)
      if (p->found[k].offset == p->text.len)
        p->found[k].offset--;
  if (st == XMT_OK && p->text.len > 0 && p->text.data[p->text.len - 1] == ' ' &&
      (trlen == 0 || tr[trlen - 1] != ' '))
    p->text.len--;
  /* Spaces taken back after a tag was found can leave it past the end. */
  for (size_t k = 0; st == XMT_OK && k < p->nfound; k++)
    if (p->found[k].offset > p->text.len)
      p->found[k].offset = p->text.len;
  return st;
}

/* Builds out: prefix of src, the translation in p->text with the tags of
 * p->found, the core tags not found appended in source order, suffix. */
static xmt_status assemble(struct xmt_placer *p, xmt_segment *out,
                           const xmt_segment *src, size_t lead, size_t core_len,
                           size_t *repairs) {
  size_t len;
  const char *text = xmt_segment_text(src, &len);
  size_t ntags = xmt_segment_tag_count(src);
  size_t end = lead + core_len;
  xmt_segment_clear(out);
  xmt_status st = XMT_OK;
  size_t t = 0, pos = 0;
  struct xmt_tag tag;
  /* Prefix: source text and tags before the core. */
  for (; st == XMT_OK && t < ntags; t++) {
    xmt_segment_tag(src, t, &tag);
    if (tag.offset >= lead)
      break;
    st = xmt_segment_append_to_tag(out, text, &pos, &tag);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, text + pos, lead - pos);
  /* Core: the translation with the tags found, in the answer's order. */
  size_t tpos = 0;
  for (size_t k = 0; st == XMT_OK && k < p->nfound; k++) {
    xmt_segment_tag(src, p->found[k].tag, &tag);
    tag.offset = p->found[k].offset; /* in the translation */
    st = xmt_segment_append_to_tag(out, p->text.data, &tpos, &tag);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(
        out, p->text.data != NULL ? p->text.data + tpos : "",
        p->text.len - tpos);
  for (size_t k = t; st == XMT_OK && k < ntags; k++) {
    xmt_segment_tag(src, k, &tag);
    if (tag.offset > end)
      break;
    if (already_found(p, k))
      continue;
    (*repairs)++;
    st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                tag.markup_len);
  }
  /* Suffix. */
  pos = end;
  for (size_t k = t; st == XMT_OK && k < ntags; k++) {
    xmt_segment_tag(src, k, &tag);
    if (tag.offset > end)
      st = xmt_segment_append_to_tag(out, text, &pos, &tag);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, text + pos, len - pos);
  if (st == XMT_OK && xmt_segment_check(out, NULL) != XMT_OK)
    st = XMT_ERR_INLINE;
  return st;
}

xmt_status xmt_mask_decode(struct xmt_placer *p, xmt_segment *out,
                           const xmt_segment *src, size_t lead, size_t core_len,
                           const char *tr, size_t trlen, size_t *repairs) {
  xmt_status st = mask_scan(p, src, lead, core_len, tr, trlen, repairs);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&p->text, '\0');
  if (st != XMT_OK)
    return st;
  p->text.len--;
  return assemble(p, out, src, lead, core_len, repairs);
}

/* The core of src as a segment of its own. */
static xmt_status core_segment(xmt_segment *dst, const xmt_segment *src,
                               size_t lead, size_t core_len) {
  const char *text = xmt_segment_text(src, NULL);
  size_t pos = lead;
  xmt_segment_clear(dst);
  xmt_status st = XMT_OK;
  struct xmt_tag tag;
  for (size_t i = 0;
       st == XMT_OK && next_core_tag(src, lead, core_len, &i, &tag); i++)
    st = xmt_segment_append_to_tag(dst, text, &pos, &tag);
  if (st == XMT_OK)
    st = xmt_segment_append_text(dst, text + pos, lead + core_len - pos);
  return st;
}

xmt_status xmt_raw_encode(struct xmt_placer *p, const xmt_segment *src,
                          size_t lead, size_t core_len, struct xmt_buf *out) {
  xmt_status st = core_segment(p->seg, src, lead, core_len);
  if (st != XMT_OK)
    return st;
  size_t n;
  char *markup = xmt_xliff_inline_render(p->seg, &n);
  if (markup == NULL)
    return XMT_ERR_NOMEM;
  xmt_buf_reset(out);
  st = xmt_buf_append(out, markup, n + 1);
  free(markup);
  if (st == XMT_OK)
    out->len--;
  return st;
}

/* The first core tag of src matching tag (same kind and id) among the
 * n refs of src's core tags sorted by kind and id, or SIZE_MAX. */
static size_t match_tag(const struct xmt_placer *p, size_t n,
                        const struct xmt_tag *tag) {
  struct xmt_code_ref key = {tag->kind, NULL, tag->id, 0, 0};
  if (tag->id == NULL)
    return SIZE_MAX;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (xmt_code_ref_cmp(&p->refs[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && xmt_code_ref_cmp(&p->refs[lo], &key) == 0 ? p->refs[lo].index
                                                             : SIZE_MAX;
}

/* Removes markup from an answer that does not parse: tags dropped, the
 * five XML entities decoded. */
static xmt_status strip_markup(struct xmt_buf *out, const char *s, size_t n) {
  static const struct {
    const char *name;
    char c;
  } entities[] = {{"&lt;", '<'},
                  {"&gt;", '>'},
                  {"&amp;", '&'},
                  {"&quot;", '"'},
                  {"&apos;", '\''}};
  xmt_buf_reset(out);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < n;) {
    if (s[i] == '<') {
      const char *gt = memchr(s + i, '>', n - i);
      if (gt != NULL) {
        i = (size_t)(gt - s) + 1;
        continue;
      }
    }
    if (s[i] == '&') {
      size_t e = 0;
      for (; e < sizeof entities / sizeof *entities; e++) {
        size_t k = strlen(entities[e].name);
        if (n - i >= k && memcmp(s + i, entities[e].name, k) == 0) {
          st = xmt_buf_append_byte(out, entities[e].c);
          i += k;
          break;
        }
      }
      if (e < sizeof entities / sizeof *entities)
        continue;
    }
    st = xmt_buf_append_byte(out, s[i++]);
  }
  return st;
}

/* Whether a code's markup holds text outside its tags. */
static int holds_text(const char *markup, size_t len) {
  int in_tag = 0;
  for (size_t i = 0; i < len; i++) {
    if (markup[i] == '<')
      in_tag = 1;
    else if (markup[i] == '>')
      in_tag = 0;
    else if (!in_tag && markup[i] != ' ' && markup[i] != '\t' &&
             markup[i] != '\n' && markup[i] != '\r')
      return 1;
  }
  return 0;
}

/* The answer's text without its markup in p->text, to be projected. */
static xmt_status strip_or(struct xmt_placer *p, const char *tr, size_t trlen) {
  xmt_status st = strip_markup(&p->text, tr, trlen);
  return st != XMT_OK ? st : XMT_ERR_INLINE;
}

xmt_status xmt_raw_decode(struct xmt_placer *p, xmt_segment *out,
                          const xmt_segment *src, size_t lead, size_t core_len,
                          const char *tr, size_t trlen, size_t *repairs) {
  unsigned long column;
  xmt_status st = found_reset(p, src);
  if (st != XMT_OK)
    return st;
  if (xmt_xliff_inline_parse(p->seg, tr, trlen, &column) != XMT_OK) {
    /* Beyond repair: the caller projects onto the stripped text. */
    return strip_or(p, tr, trlen);
  }
  size_t plen;
  const char *plain = xmt_segment_text(p->seg, &plen);
  xmt_buf_reset(&p->text);
  st = xmt_buf_append(&p->text, plain, plen + 1);
  if (st == XMT_OK)
    st = xmt_code_refs_room(p, xmt_segment_tag_count(src));
  if (st != XMT_OK)
    return st;
  p->text.len--;
  size_t nrefs = xmt_code_refs(p, 0, src, 0, 1, lead, core_len);
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(p->seg); i++) {
    struct xmt_tag tag;
    xmt_segment_tag(p->seg, i, &tag);
    size_t k = match_tag(p, nrefs, &tag);
    /* An element the source never had, kept whole with its text (an
     * engine that wrote <G ID="1"> for <g id="1">): dropping it would
     * drop that text, so the stripped answer is projected instead. */
    if (k == SIZE_MAX && holds_text(tag.markup, tag.markup_len))
      return strip_or(p, tr, trlen);
    if (k == SIZE_MAX || already_found(p, k))
      (*repairs)++;
    else
      st = take(p, k, tag.offset);
  }
  if (st != XMT_OK)
    return st;
  return assemble(p, out, src, lead, core_len, repairs);
}
