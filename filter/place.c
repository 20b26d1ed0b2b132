/* place.c -- turns a machine translation into a target segment: by copy,
 * as plain text, by projection over word alignments, or by decoding the
 * mask and raw tag modes. Every path leaves each source tag in the target
 * exactly once; a mask or raw answer beyond repair is reported so that the
 * caller projects instead. Projection is helped by word breaks (a code
 * between two words goes to MT as a space) and by engine probes (the
 * translations of tagged spans, found in the segment's, anchor the tags
 * by editing the alignment). */
#include "config.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <strings.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include "filter_private.h"

#define MASK_PREFIX "XMT"
#define MASK_SUFFIX 'X'

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

xmt_status xmt_mask_encode(const xmt_segment *src, size_t lead, size_t core_len,
                           struct xmt_buf *out) {
  const char *text = xmt_segment_text(src, NULL);
  size_t pos = lead, end = lead + core_len;
  xmt_buf_reset(out);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, i, &tag);
    if (!in_core(tag.offset, lead, core_len))
      continue;
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

static xmt_status note_found(struct xmt_placer *p, size_t tag, size_t off) {
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
  return note_found(p, tag, off);
}

static int already_found(const struct xmt_placer *p, size_t tag) {
  return p->taken[tag];
}

/* --- Codes by identity
 * -------------------------------------------------------- Tags sorted by kind,
 * markup and id, to find a tag's like in another segment by binary search: a
 * walk of the other segment for each tag took quadratic time in a segment of
 * many codes. */

struct xmt_code_ref {
  enum xmt_tag_kind kind;
  const char *markup, *id; /* markup NULL: compared by kind and id only */
  size_t markup_len, index;
};

static int ref_cmp(const struct xmt_code_ref *a, const struct xmt_code_ref *b) {
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->markup_len != b->markup_len)
    return a->markup_len < b->markup_len ? -1 : 1;
  int c = a->markup_len > 0 ? memcmp(a->markup, b->markup, a->markup_len) : 0;
  return c != 0 ? c : strcmp(a->id, b->id);
}

static int ref_order(const void *x, const void *y) {
  const struct xmt_code_ref *a = x, *b = y;
  int c = ref_cmp(a, b);
  return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* The tags of seg (only those of the core lead..lead+core_len when core)
 * as refs at p->refs + at, sorted; returns how many. */
static size_t code_refs(struct xmt_placer *p, size_t at, const xmt_segment *seg,
                        int with_markup, int core, size_t lead,
                        size_t core_len) {
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

static xmt_status refs_room(struct xmt_placer *p, size_t n) {
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
    st = xmt_segment_append_text(out, text + pos, tag.offset - pos);
    pos = tag.offset;
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, text + pos, lead - pos);
  /* Core: the translation with the tags found, in the answer's order. */
  size_t tpos = 0;
  for (size_t k = 0; st == XMT_OK && k < p->nfound; k++) {
    size_t off = p->found[k].offset;
    if (off < tpos)
      off = tpos;
    st = xmt_segment_append_text(out, p->text.data + tpos, off - tpos);
    tpos = off;
    xmt_segment_tag(src, p->found[k].tag, &tag);
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
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
    if (tag.offset <= end)
      continue;
    st = xmt_segment_append_text(out, text + pos, tag.offset - pos);
    pos = tag.offset;
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
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
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, i, &tag);
    if (!in_core(tag.offset, lead, core_len))
      continue;
    st = xmt_segment_append_text(dst, text + pos, tag.offset - pos);
    pos = tag.offset;
    if (st == XMT_OK)
      st = xmt_segment_append_tag(dst, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
  }
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
    if (ref_cmp(&p->refs[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ref_cmp(&p->refs[lo], &key) == 0 ? p->refs[lo].index
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

xmt_status xmt_raw_decode(struct xmt_placer *p, xmt_segment *out,
                          const xmt_segment *src, size_t lead, size_t core_len,
                          const char *tr, size_t trlen, size_t *repairs) {
  unsigned long column;
  xmt_status st = found_reset(p, src);
  if (st != XMT_OK)
    return st;
  if (xmt_xliff_inline_parse(p->seg, tr, trlen, &column) != XMT_OK) {
    /* Beyond repair: the caller projects onto the stripped text. */
    st = strip_markup(&p->text, tr, trlen);
    return st != XMT_OK ? st : XMT_ERR_INLINE;
  }
  size_t plen;
  const char *plain = xmt_segment_text(p->seg, &plen);
  xmt_buf_reset(&p->text);
  st = xmt_buf_append(&p->text, plain, plen + 1);
  if (st == XMT_OK)
    st = refs_room(p, xmt_segment_tag_count(src));
  if (st != XMT_OK)
    return st;
  p->text.len--;
  size_t nrefs = code_refs(p, 0, src, 0, 1, lead, core_len);
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(p->seg); i++) {
    struct xmt_tag tag;
    xmt_segment_tag(p->seg, i, &tag);
    size_t k = match_tag(p, nrefs, &tag);
    if (k == SIZE_MAX || already_found(p, k))
      (*repairs)++;
    else
      st = take(p, k, tag.offset);
  }
  if (st != XMT_OK)
    return st;
  return assemble(p, out, src, lead, core_len, repairs);
}

/* --- Shared helpers ---------------------------------------------------------
 */

/* Letters, digits and combining marks make words. */
static int word_cp(uint32_t cp) {
  int8_t t = u_charType((UChar32)cp);
  return u_isalnum((UChar32)cp) || t == U_NON_SPACING_MARK ||
         t == U_COMBINING_SPACING_MARK;
}

/* 1 when the characters on both sides of byte o of text are word
 * characters: o is inside a word. */
static int between_words(const char *text, size_t len, size_t o) {
  if (o == 0 || o >= len)
    return 0;
  size_t b = o - 1;
  while (b > 0 && ((unsigned char)text[b] & 0xC0) == 0x80)
    b--;
  uint32_t before, after;
  if (xmt_utf8_decode((const unsigned char *)text + b, o - b, &before) == 0 ||
      xmt_utf8_decode((const unsigned char *)text + o, len - o, &after) == 0)
    return 0;
  return word_cp(before) && word_cp(after);
}

/* 1 when text has a letter or a digit. */
static int has_word(const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t n = xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
    if (n == 0)
      return 0;
    if (u_isalnum((UChar32)cp))
      return 1;
    i += n;
  }
  return 0;
}

static int is_point(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_PLACEHOLDER || kind == XMT_TAG_ISOLATED_OPEN ||
         kind == XMT_TAG_ISOLATED_CLOSE;
}

/* --- Word breaks ------------------------------------------------------------
 * "line<br/>next" and "Regulation<sup>1</sup>" are two words to a reader,
 * one to an engine that never sees the tag; the engine gets a space
 * there, and the target loses it again next to the tag. */

/* 1 when a start tag's ctype names a superscript or subscript (HTML sup
 * and sub, as the HTML filter and Okapi write them). */
static int sup_or_sub(const struct xmt_tag *t) {
  static const char *const ctypes[] = {
      "x-html-sup", "x-html-sub", "x-sup", "x-sub", "superscript", "subscript"};
  if (t->name != NULL &&
      (strcmp(t->name, "sup") == 0 || strcmp(t->name, "sub") == 0))
    return 1;
  const char *m = t->markup;
  size_t n = t->markup_len;
  for (size_t i = 1; i + 7 < n; i++) {
    if (memcmp(m + i, "ctype=", 6) != 0 || !xmt_is_xml_space(m[i - 1]) ||
        (m[i + 6] != '"' && m[i + 6] != '\''))
      continue;
    const char *v = m + i + 7;
    const char *e = memchr(v, m[i + 6], n - i - 7);
    size_t vlen = e != NULL ? (size_t)(e - v) : 0;
    for (size_t k = 0; k < sizeof ctypes / sizeof *ctypes; k++)
      if (strlen(ctypes[k]) == vlen && strncasecmp(v, ctypes[k], vlen) == 0)
        return 1;
    return 0;
  }
  return 0;
}

/* p->marks[i] = 1 for the tags of src that stand for a word break: the
 * codes that are not pairs, and both ends of a sup or sub pair. */
static xmt_status mark_breaks(struct xmt_placer *p, const xmt_segment *src) {
  size_t n = xmt_segment_tag_count(src);
  unsigned char *marks = xmt_grow_array(p->marks, &p->marks_cap, n, 1);
  if (marks == NULL)
    return XMT_ERR_NOMEM;
  p->marks = marks;
  size_t *pairs = xmt_grow_array(p->pairs, &p->pairs_cap, n, sizeof *pairs);
  if (pairs == NULL)
    return XMT_ERR_NOMEM;
  p->pairs = pairs;
  /* A CLOSE as its OPEN, the nearest one before it left unclosed: found
   * in one pass, where a search back from each CLOSE took quadratic time
   * in the depth of nesting. */
  xmt_segment_pairs(src, pairs);
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, i, &tag);
    marks[i] =
        is_point(tag.kind) || (tag.kind == XMT_TAG_OPEN && sup_or_sub(&tag));
    if (tag.kind == XMT_TAG_CLOSE && pairs[i] != SIZE_MAX)
      marks[i] = marks[pairs[i]];
  }
  return XMT_OK;
}

/* Tags that belong to the word before them go before the space. */
static int glued_left(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_PLACEHOLDER || kind == XMT_TAG_CLOSE ||
         kind == XMT_TAG_ISOLATED_CLOSE;
}

static xmt_status note_break(struct xmt_placer *p, size_t tag,
                             int space_after) {
  struct xmt_break *b =
      xmt_grow_array(p->breaks, &p->breaks_cap, p->nbreaks + 1, sizeof *b);
  if (b == NULL)
    return XMT_ERR_NOMEM;
  p->breaks = b;
  b[p->nbreaks].tag = tag;
  b[p->nbreaks].space_after = space_after;
  p->nbreaks++;
  return XMT_OK;
}

static xmt_status append_src_tag(xmt_segment *out, const xmt_segment *src,
                                 size_t i) {
  struct xmt_tag tag;
  xmt_segment_tag(src, i, &tag);
  return xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                tag.markup_len);
}

/* Appends the tags i..j-1 of src, all at byte o, with the break space
 * after the tags glued to the word before. */
static xmt_status spaced_tags(struct xmt_placer *p, xmt_segment *out,
                              const xmt_segment *src, size_t i, size_t j) {
  size_t k = i;
  xmt_status st = XMT_OK;
  for (; st == XMT_OK && k < j; k++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, k, &tag);
    if (!glued_left(tag.kind))
      break;
    st = append_src_tag(out, src, k);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, " ", 1);
  if (st == XMT_OK)
    st = k > i ? note_break(p, k - 1, 1) : note_break(p, k, 0);
  for (; st == XMT_OK && k < j; k++)
    st = append_src_tag(out, src, k);
  return st;
}

/* The tags i.. of src at the offset of tag i: sets *offset and *brk (any
 * of them marked for a break) and returns the index after the last. */
static size_t tag_group(const struct xmt_placer *p, const xmt_segment *src,
                        size_t i, size_t n, size_t *offset, int *brk) {
  struct xmt_tag tag;
  xmt_segment_tag(src, i, &tag);
  size_t j = i;
  *offset = tag.offset;
  *brk = 0;
  for (; j < n; j++) {
    xmt_segment_tag(src, j, &tag);
    if (tag.offset != *offset)
      break;
    *brk |= p->marks[j];
  }
  return j;
}

xmt_status xmt_break_segment(struct xmt_placer *p, const xmt_segment *src,
                             size_t lead, size_t core_len, xmt_segment *out,
                             size_t *out_core_len) {
  size_t len, n = xmt_segment_tag_count(src);
  const char *text = xmt_segment_text(src, &len);
  p->nbreaks = 0;
  *out_core_len = core_len;
  xmt_segment_clear(out);
  xmt_status st = mark_breaks(p, src);
  size_t pos = 0;
  for (size_t i = 0; st == XMT_OK && i < n;) {
    size_t o;
    int brk;
    size_t j = tag_group(p, src, i, n, &o, &brk);
    st = xmt_segment_append_text(out, text + pos, o - pos);
    pos = o;
    if (st == XMT_OK && brk && o > lead && o < lead + core_len &&
        between_words(text, len, o)) {
      st = spaced_tags(p, out, src, i, j);
      (*out_core_len)++;
    } else {
      for (size_t k = i; st == XMT_OK && k < j; k++)
        st = append_src_tag(out, src, k);
    }
    i = j;
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, text + pos, len - pos);
  return st;
}

xmt_status xmt_break_text(struct xmt_placer *p, const xmt_segment *src,
                          size_t lead, size_t core_len, struct xmt_buf *out) {
  size_t len, n = xmt_segment_tag_count(src);
  const char *text = xmt_segment_text(src, &len);
  xmt_buf_reset(out);
  xmt_status st = mark_breaks(p, src);
  size_t pos = lead;
  for (size_t i = 0; st == XMT_OK && i < n;) {
    size_t o;
    int brk;
    i = tag_group(p, src, i, n, &o, &brk);
    /* The same test as xmt_break_segment's. */
    if (brk && o > lead && o < lead + core_len && between_words(text, len, o)) {
      st = xmt_buf_append(out, text + pos, o - pos);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(out, ' ');
      pos = o;
    }
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, text + pos, lead + core_len - pos);
  return st;
}

/* p->map[i]: the index in seg of tag i of src, the same code (kind,
 * markup and id) counting repeats, or SIZE_MAX. */
static xmt_status map_tags(struct xmt_placer *p, const xmt_segment *seg,
                           const xmt_segment *src) {
  size_t n = xmt_segment_tag_count(src), m = xmt_segment_tag_count(seg);
  size_t *map = xmt_grow_array(p->map, &p->map_cap, n, sizeof *map);
  if (map == NULL)
    return XMT_ERR_NOMEM;
  p->map = map;
  xmt_status st = refs_room(p, n + m);
  if (st != XMT_OK)
    return st;
  for (size_t i = 0; i < n; i++)
    map[i] = SIZE_MAX;
  size_t ns = code_refs(p, 0, src, 1, 0, 0, 0);
  size_t nt = code_refs(p, ns, seg, 1, 0, 0, 0);
  const struct xmt_code_ref *a = p->refs, *b = p->refs + ns;
  /* The runs of one code in both pair up in order. */
  for (size_t i = 0, j = 0; i < ns && j < nt;) {
    int c = ref_cmp(&a[i], &b[j]);
    if (c < 0)
      i++;
    else if (c > 0)
      j++;
    else
      map[a[i++].index] = b[j++].index;
  }
  return XMT_OK;
}

/* 1 when byte off is already noted for removal. */
static int noted(const struct xmt_placer *p, size_t off) {
  return p->noted[off];
}

/* The space next to a break's tag in seg, or SIZE_MAX. */
static size_t break_space(const struct xmt_placer *p, const xmt_segment *seg,
                          const struct xmt_break *b) {
  size_t k = p->map[b->tag], len;
  const char *text = xmt_segment_text(seg, &len);
  if (k == SIZE_MAX)
    return SIZE_MAX;
  struct xmt_tag tag;
  xmt_segment_tag(seg, k, &tag);
  size_t o = tag.offset;
  size_t after = o < len && text[o] == ' ' && !noted(p, o) ? o : SIZE_MAX;
  size_t before =
      o > 0 && text[o - 1] == ' ' && !noted(p, o - 1) ? o - 1 : SIZE_MAX;
  if (b->space_after)
    return after != SIZE_MAX ? after : before;
  return before != SIZE_MAX ? before : after;
}

/* Appends text[from, to) to out without the bytes noted in p->found. */
static xmt_status append_kept(const struct xmt_placer *p, xmt_segment *out,
                              const char *text, size_t from, size_t to) {
  xmt_status st = XMT_OK;
  size_t at = from;
  for (size_t i = from; st == XMT_OK && i < to; i++) {
    if (!noted(p, i))
      continue;
    st = xmt_segment_append_text(out, text + at, i - at);
    at = i + 1;
  }
  return st == XMT_OK ? xmt_segment_append_text(out, text + at, to - at) : st;
}

xmt_status xmt_break_unspace(struct xmt_placer *p, const xmt_segment *src,
                             xmt_segment *seg) {
  if (p->nbreaks == 0)
    return XMT_OK;
  p->nfound = 0;
  size_t len = 0;
  (void)xmt_segment_text(seg, &len);
  unsigned char *marks = xmt_grow_array(p->noted, &p->noted_cap, len + 1, 1);
  if (marks == NULL)
    return XMT_ERR_NOMEM;
  p->noted = marks;
  memset(marks, 0, len + 1);
  xmt_status st = map_tags(p, seg, src);
  for (size_t i = 0; st == XMT_OK && i < p->nbreaks; i++) {
    size_t off = break_space(p, seg, &p->breaks[i]);
    if (off != SIZE_MAX) {
      marks[off] = 1;
      st = note_found(p, p->breaks[i].tag, off);
    }
  }
  if (st != XMT_OK || p->nfound == 0)
    return st;
  size_t pos = 0;
  const char *text = xmt_segment_text(seg, &len);
  xmt_segment_clear(p->spare);
  for (size_t k = 0; st == XMT_OK && k < xmt_segment_tag_count(seg); k++) {
    struct xmt_tag tag;
    xmt_segment_tag(seg, k, &tag);
    st = append_kept(p, p->spare, text, pos, tag.offset);
    pos = tag.offset;
    if (st == XMT_OK)
      st = append_src_tag(p->spare, seg, k);
  }
  if (st == XMT_OK)
    st = append_kept(p, p->spare, text, pos, len);
  return st == XMT_OK ? xmt_segment_copy(seg, p->spare) : st;
}

/* --- Probes: planning -------------------------------------------------------
 */

/* Words on one side of a placeholder, at most this many. */
#define PHRASE_WORDS 3
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
 * empty, cuts a word, or leaves no word of the core outside it. */
static int span_worth(const char *core, size_t core_len, size_t *s, size_t *e) {
  while (*s < *e && xmt_is_xml_space(core[*s]))
    (*s)++;
  while (*e > *s && xmt_is_xml_space(core[*e - 1]))
    (*e)--;
  if (*s >= *e || between_words(core, core_len, *s) ||
      between_words(core, core_len, *e))
    return 0;
  return has_word(core, *s) || has_word(core + *e, core_len - *e);
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
      !has_word(core + t[g - 1].start, t[g - 1].end - t[g - 1].start) ||
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
  if (!has_word(core + t[near].start, t[near].end - t[near].start) ||
      tag_within(seg, lead + (before ? t[near].start : rel),
                 lead + (before ? rel : t[near].end), lead + rel))
    return 0;
  for (size_t n = 1; n < PHRASE_WORDS; n++) {
    size_t k = before ? far - 1 : far + 1;
    if ((before && far == 0) || (!before && k >= m) ||
        !has_word(core + t[k].start, t[k].end - t[k].start) ||
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

/* --- Probes: finding their translations -------------------------------------
 * Words are compared exactly, then case-folded without diacritics, then by
 * Snowball stem or a long shared prefix of the folded forms. */

/* Longest word keyed, in UTF-16 units; longer ones match exactly only. */
#define WORD_MAX 64

enum level { LEVEL_EXACT, LEVEL_FOLD, LEVEL_STEM };

/* The target language's stemmer, made when the language changes. */
static void stemmer_for(struct xmt_placer *p, const char *lang) {
  char code[sizeof p->stem_lang];
  size_t n = 0;
  for (; lang != NULL && lang[n] != '\0' && lang[n] != '-' && lang[n] != '_' &&
         n + 1 < sizeof code;
       n++)
    code[n] = (char)(lang[n] >= 'A' && lang[n] <= 'Z' ? lang[n] + 32 : lang[n]);
  code[n] = '\0';
  if (strcmp(code, p->stem_lang) == 0)
    return;
  if (p->stemmer != NULL)
    sb_stemmer_delete(p->stemmer);
  p->stemmer = n > 0 ? sb_stemmer_new(code, "UTF_8") : NULL;
  memcpy(p->stem_lang, code, n + 1);
}

/* Appends u without its combining marks (after canonical decomposition)
 * to keys as UTF-8; *at and *len locate it. */
static xmt_status strip_marks(const UChar *u, int32_t n, struct xmt_buf *keys,
                              size_t *at, size_t *len) {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&e);
  UChar d[4 * WORD_MAX], o[4 * WORD_MAX];
  int32_t dn =
      U_SUCCESS(e) ? unorm2_normalize(nfd, u, n, d, 4 * WORD_MAX, &e) : 0;
  const UChar *src = U_SUCCESS(e) ? d : u;
  int32_t sn = U_SUCCESS(e) ? dn : n, on = 0;
  for (int32_t i = 0; i < sn;) {
    UChar32 c;
    U16_NEXT(src, i, sn, c);
    if (u_getCombiningClass(c) == 0 && u_charType(c) != U_NON_SPACING_MARK)
      U16_APPEND_UNSAFE(o, on, c);
  }
  char b[12 * WORD_MAX];
  int32_t bn = 0;
  e = U_ZERO_ERROR;
  u_strToUTF8(b, (int32_t)sizeof b, &bn, o, on, &e);
  *at = keys->len;
  *len = U_SUCCESS(e) ? (size_t)bn : 0;
  return xmt_buf_append(keys, b, *len);
}

/* The fold and stem keys of word w of s[0, n). */
static xmt_status word_keys(struct xmt_placer *p, struct xmt_probe_words *ws,
                            const char *s, size_t n, struct xmt_probe_word *w) {
  UChar u[WORD_MAX], low[WORD_MAX];
  int32_t un = 0, ln = 0;
  UErrorCode e = U_ZERO_ERROR;
  if (n < WORD_MAX)
    u_strFromUTF8(u, WORD_MAX, &un, s, (int32_t)n, &e);
  if (n < WORD_MAX && U_SUCCESS(e))
    ln = u_strFoldCase(low, WORD_MAX, u, un, U_FOLD_CASE_DEFAULT, &e);
  if (n >= WORD_MAX || U_FAILURE(e)) {
    w->fold = w->stem = ws->keys.len;
    w->fold_len = w->stem_len = n;
    return xmt_buf_append(&ws->keys, s, n);
  }
  xmt_status st = strip_marks(low, ln, &ws->keys, &w->fold, &w->fold_len);
  w->stem = w->fold;
  w->stem_len = w->fold_len;
  if (st != XMT_OK || p->stemmer == NULL || !w->word)
    return st;
  char lower[4 * WORD_MAX];
  int32_t lbytes = 0;
  u_strToUTF8(lower, (int32_t)sizeof lower, &lbytes, low, ln, &e);
  const sb_symbol *r =
      U_SUCCESS(e)
          ? sb_stemmer_stem(p->stemmer, (const sb_symbol *)lower, lbytes)
          : NULL;
  if (r == NULL)
    return XMT_OK;
  int32_t rn = 0;
  u_strFromUTF8(u, WORD_MAX, &rn, (const char *)r,
                sb_stemmer_length(p->stemmer), &e);
  return U_SUCCESS(e) ? strip_marks(u, rn, &ws->keys, &w->stem, &w->stem_len)
                      : XMT_OK;
}

/* The words of text with their keys into ws. */
static xmt_status words_of(struct xmt_placer *p, struct xmt_probe_words *ws,
                           const char *text, size_t len) {
  ws->n = 0;
  xmt_buf_reset(&ws->keys);
  xmt_status st = xmt_tokenize(p->stok, text, len, XMT_TOKENIZE_DEFAULT);
  size_t m = xmt_tokens_count(p->stok);
  const struct xmt_token *t = xmt_tokens_array(p->stok);
  if (st != XMT_OK)
    return st;
  struct xmt_probe_word *w = xmt_grow_array(ws->w, &ws->cap, m, sizeof *w);
  if (w == NULL)
    return XMT_ERR_NOMEM;
  ws->w = w;
  for (size_t i = 0; st == XMT_OK && i < m; i++) {
    struct xmt_probe_word *x = &w[ws->n++];
    x->start = t[i].start;
    x->end = t[i].end;
    x->word = has_word(text + x->start, x->end - x->start);
    st = word_keys(p, ws, text + x->start, x->end - x->start, x);
  }
  return st;
}

static int key_eq(const struct xmt_probe_words *a, size_t ao, size_t an,
                  const struct xmt_probe_words *b, size_t bo, size_t bn) {
  return an == bn &&
         (an == 0 || memcmp(a->keys.data + ao, b->keys.data + bo, an) == 0);
}

/* Forms sharing a beginning of 4 bytes and 60 % of the longer one
 * ("pequeño"/"pequeñas" when the stemmer does not join them). */
static int prefix_eq(const struct xmt_probe_words *a,
                     const struct xmt_probe_word *x,
                     const struct xmt_probe_words *b,
                     const struct xmt_probe_word *y) {
  const char *s = a->keys.data + x->fold, *t = b->keys.data + y->fold;
  size_t k = 0, n = x->fold_len > y->fold_len ? x->fold_len : y->fold_len;
  while (k < x->fold_len && k < y->fold_len && s[k] == t[k])
    k++;
  return k >= 4 && 10 * k >= 6 * n;
}

/* 1 when target word x (of tr) and probe word y (of ans) match at level. */
static int word_eq(const struct xmt_placer *p, const char *tr,
                   const struct xmt_probe_word *x, const char *ans,
                   const struct xmt_probe_word *y, enum level level) {
  if (level == LEVEL_EXACT)
    return x->end - x->start == y->end - y->start &&
           memcmp(tr + x->start, ans + y->start, x->end - x->start) == 0;
  if (key_eq(&p->tw, x->fold, x->fold_len, &p->pw, y->fold, y->fold_len))
    return 1;
  if (level == LEVEL_FOLD || !x->word || !y->word)
    return 0;
  return (y->stem_len > 0 &&
          key_eq(&p->tw, x->stem, x->stem_len, &p->pw, y->stem, y->stem_len)) ||
         prefix_eq(&p->tw, x, &p->pw, y);
}

/* Candidates: byte ranges of tr where the probe's words pw[a, b) occur,
 * inside [lo, hi), at the first level with any (at most max). */
static size_t occurrences(const struct xmt_placer *p, const char *tr,
                          const char *ans, size_t a, size_t b, size_t lo,
                          size_t hi, size_t (*cand)[2], size_t max) {
  const struct xmt_probe_word *tw = p->tw.w, *pw = p->pw.w;
  size_t m = b - a, n = 0;
  for (int level = LEVEL_EXACT; level <= LEVEL_STEM && n == 0; level++) {
    for (size_t i = 0; i + m <= p->tw.n && n < max; i++) {
      if (tw[i].start < lo || tw[i + m - 1].end > hi)
        continue;
      size_t j = 0;
      while (j < m &&
             word_eq(p, tr, &tw[i + j], ans, &pw[a + j], (enum level)level))
        j++;
      if (j == m) {
        cand[n][0] = tw[i].start;
        cand[n][1] = tw[i + m - 1].end;
        n++;
      }
    }
  }
  return n;
}

/* --- Probes: anchoring -----------------------------------------------------
 * The alignment is edited, not the projector: once the probed source
 * tokens a..b link only into the matched target tokens c..d, and nothing
 * else links there, min-max projection (and span scoring) puts the tag on
 * the match. Anchored matches nest or are disjoint, so later edits keep
 * earlier anchors where they are. */

/* Candidates kept per probe. */
#define MAX_CANDIDATES 16

/* The probes being anchored and what they are anchored in. */
struct probe_ctx {
  const struct xmt_probe *probes;
  size_t nprobes;
  const char *tr;
  size_t trlen;
  const xmt_tokens *ctok, *ttok;
};

struct xmt_anchor {
  size_t probe;
  size_t a, b;     /* the probed source tokens */
  size_t c, d;     /* target tokens of the match */
  size_t from, to; /* its bytes in the translation */
};

static xmt_status work_add(struct xmt_placer *p, size_t s, size_t t) {
  struct xmt_link *w =
      xmt_grow_array(p->work, &p->work_cap, p->nwork + 1, sizeof *w);
  if (w == NULL)
    return XMT_ERR_NOMEM;
  p->work = w;
  w[p->nwork].source = s;
  w[p->nwork].target = t;
  p->nwork++;
  return XMT_OK;
}

/* The links to edit: a copy of links, or without them each of the m
 * source tokens on its proportional share of the k target tokens. */
static xmt_status work_load(struct xmt_placer *p, const xmt_alignment *links,
                            size_t m, size_t k) {
  p->nwork = 0;
  xmt_status st = XMT_OK;
  if (links != NULL) {
    const struct xmt_link *l = xmt_alignment_links(links);
    for (size_t i = 0; st == XMT_OK && i < xmt_alignment_count(links); i++)
      if (l[i].source < m && l[i].target < k)
        st = work_add(p, l[i].source, l[i].target);
    return st;
  }
  for (size_t s = 0; st == XMT_OK && k > 0 && s < m; s++) {
    size_t lo = s * k / m, hi = ((s + 1) * k + m - 1) / m;
    for (size_t t = lo; st == XMT_OK && t < hi && t < k; t++)
      st = work_add(p, s, t);
  }
  return st;
}

/* Where the links put source tokens a..b: *lo..*hi (0 when unlinked). */
static int work_span(const struct xmt_placer *p, size_t a, size_t b, size_t *lo,
                     size_t *hi) {
  int any = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    if (l->source < a || l->source > b)
      continue;
    if (!any || l->target < *lo)
      *lo = l->target;
    if (!any || l->target > *hi)
      *hi = l->target;
    any = 1;
  }
  return any;
}

static size_t links_into(const struct xmt_placer *p, size_t a, size_t b,
                         size_t c, size_t d) {
  size_t n = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    n += l->source >= a && l->source <= b && l->target >= c && l->target <= d;
  }
  return n;
}

/* Links source tokens a..b to target tokens c..d: links between them
 * kept, their links elsewhere and other tokens' links into c..d dropped,
 * then each token left out linked to its proportional counterpart. */
static xmt_status work_anchor(struct xmt_placer *p, size_t a, size_t b,
                              size_t c, size_t d) {
  size_t w = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link l = p->work[i];
    if ((l.source >= a && l.source <= b) == (l.target >= c && l.target <= d))
      p->work[w++] = l;
  }
  p->nwork = w;
  size_t ns = b - a + 1, nt = d - c + 1;
  xmt_status st = XMT_OK;
  for (size_t t = c; st == XMT_OK && t <= d; t++) {
    size_t s = a + (t - c) * ns / nt;
    if (links_into(p, a, b, t, t) == 0)
      st = work_add(p, s, t);
  }
  for (size_t s = a; st == XMT_OK && s <= b; s++) {
    size_t t = c + (s - a) * nt / ns;
    if (links_into(p, s, s, c, d) == 0)
      st = work_add(p, s, t);
  }
  return st;
}

/* Tokens of tok overlapping bytes [from, to): *a..*b; 0 when none. */
static int tokens_over(const xmt_tokens *tok, size_t from, size_t to, size_t *a,
                       size_t *b) {
  const struct xmt_token *t = xmt_tokens_array(tok);
  size_t n = xmt_tokens_count(tok), i = 0;
  while (i < n && t[i].end <= from)
    i++;
  if (i == n || t[i].start >= to)
    return 0;
  *a = *b = i;
  while (*b + 1 < n && t[*b + 1].start < to)
    (*b)++;
  return 1;
}

/* The anchor of probe q, or NULL. */
static const struct xmt_anchor *anchor_of(const struct xmt_placer *p,
                                          size_t q) {
  for (size_t i = 0; i < p->nanchors; i++)
    if (p->anchors[i].probe == q)
      return &p->anchors[i];
  return NULL;
}

static int is_ancestor(const struct probe_ctx *x, size_t anc, size_t q) {
  for (size_t i = x->probes[q].parent; i != SIZE_MAX; i = x->probes[i].parent)
    if (i == anc)
      return 1;
  return 0;
}

/* 1 when target tokens c..d overlap a match that is not probe q's
 * ancestor's: anchors must nest. */
static int conflicts(const struct xmt_placer *p, const struct probe_ctx *x,
                     size_t q, size_t c, size_t d) {
  for (size_t i = 0; i < p->nanchors; i++) {
    const struct xmt_anchor *an = &p->anchors[i];
    if (c <= an->d && an->c <= d && !is_ancestor(x, an->probe, q))
      return 1;
  }
  return 0;
}

/* The innermost anchored ancestor's bytes of the translation. */
static void search_range(const struct xmt_placer *p, const struct probe_ctx *x,
                         size_t q, size_t *lo, size_t *hi) {
  *lo = 0;
  *hi = x->trlen;
  for (size_t i = x->probes[q].parent; i != SIZE_MAX; i = x->probes[i].parent) {
    const struct xmt_anchor *a = anchor_of(p, i);
    if (a != NULL) {
      *lo = a->from;
      *hi = a->to;
      return;
    }
  }
}

/* The candidate nearest where the links put source tokens a..b (more
 * links into it, then the leftmost, break ties); 0 when none is usable. */
static int choose(const struct xmt_placer *p, const struct probe_ctx *x,
                  size_t q, size_t a, size_t b, size_t (*cand)[2], size_t n,
                  struct xmt_anchor *best) {
  size_t m = xmt_tokens_count(x->ctok), k = xmt_tokens_count(x->ttok);
  size_t lo = a * k / (m ? m : 1), hi = (b + 1) * k / (m ? m : 1);
  hi = hi > lo ? hi - 1 : lo;
  work_span(p, a, b, &lo, &hi);
  size_t best_dist = SIZE_MAX, best_in = 0;
  for (size_t i = 0; i < n; i++) {
    size_t c, d;
    if (!tokens_over(x->ttok, cand[i][0], cand[i][1], &c, &d) ||
        conflicts(p, x, q, c, d))
      continue;
    size_t dist = (c > lo ? c - lo : lo - c) + (d > hi ? d - hi : hi - d);
    size_t in = links_into(p, a, b, c, d);
    if (dist < best_dist || (dist == best_dist && in > best_in)) {
      best_dist = dist;
      best_in = in;
      best->c = c;
      best->d = d;
      best->from = cand[i][0];
      best->to = cand[i][1];
    }
  }
  return best_dist != SIZE_MAX;
}

/* 1 when target token t is linked from a source token outside a..b and
 * from none inside. */
static int claimed_outside(const struct xmt_placer *p, size_t a, size_t b,
                           size_t t) {
  int out = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    if (l->target != t)
      continue;
    if (l->source >= a && l->source <= b)
      return 0;
    out = 1;
  }
  return out;
}

/* A placeholder's words translated alone may gain words the sentence
 * gives to its neighbours ("symbol means" -> "El símbolo significa"):
 * the match loses edge words that the links give to words outside. */
static void trim_match(const struct xmt_placer *p, const struct probe_ctx *x,
                       size_t a, size_t b, struct xmt_anchor *m) {
  const struct xmt_token *t = xmt_tokens_array(x->ttok);
  while (m->c < m->d && claimed_outside(p, a, b, m->c))
    m->c++;
  while (m->d > m->c && claimed_outside(p, a, b, m->d))
    m->d--;
  m->from = m->from > t[m->c].start ? m->from : t[m->c].start;
  m->to = m->to < t[m->d].end ? m->to : t[m->d].end;
}

/* Finds probe q's translation in the translation for the words of probe
 * own (q itself, or the span of a context probe): 1 with *best set. */
static xmt_status find_probe(struct xmt_placer *p, const struct probe_ctx *x,
                             size_t q, size_t own, size_t *a, size_t *b,
                             struct xmt_anchor *best, int *found) {
  const struct xmt_probe *pr = &x->probes[q];
  *found = 0;
  if (pr->answer == NULL ||
      !tokens_over(x->ctok, x->probes[own].start, x->probes[own].end, a, b))
    return XMT_OK;
  xmt_status st = words_of(p, &p->pw, pr->answer, pr->answer_len);
  size_t wa = 0, wb = p->pw.n;
  while (wa < wb && !p->pw.w[wa].word)
    wa++;
  while (wb > wa && !p->pw.w[wb - 1].word)
    wb--;
  if (st != XMT_OK || wa == wb)
    return st;
  size_t cand[MAX_CANDIDATES][2], lo, hi;
  search_range(p, x, own, &lo, &hi);
  size_t n =
      occurrences(p, x->tr, pr->answer, wa, wb, lo, hi, cand, MAX_CANDIDATES);
  *found = choose(p, x, own, *a, *b, cand, n, best);
  best->probe = own;
  best->a = *a;
  best->b = *b;
  if (*found && pr->kind != XMT_PROBE_SPAN)
    trim_match(p, x, *a, *b, best);
  return XMT_OK;
}

/* Anchors the words of probe own where probe q is found; *done is 1
 * when it was. */
static xmt_status anchor_probe(struct xmt_placer *p, const struct probe_ctx *x,
                               size_t q, size_t own, int *done) {
  size_t a = 0, b = 0;
  struct xmt_anchor best;
  xmt_status st = find_probe(p, x, q, own, &a, &b, &best, done);
  if (st != XMT_OK || !*done)
    return st;
  struct xmt_anchor *v =
      xmt_grow_array(p->anchors, &p->anchors_cap, p->nanchors + 1, sizeof *v);
  if (v == NULL)
    return XMT_ERR_NOMEM;
  p->anchors = v;
  v[p->nanchors++] = best;
  st = work_anchor(p, a, b, best.c, best.d);
  /* A placeholder goes after the last token before it, or before the
   * first after it: that token must reach the end of the match. */
  if (st == XMT_OK && x->probes[q].kind == XMT_PROBE_BEFORE)
    st = work_add(p, b, best.d);
  else if (st == XMT_OK && x->probes[q].kind == XMT_PROBE_AFTER)
    st = work_add(p, a, best.c);
  return st;
}

/* 1 when the probed tokens s..s of anchor y lie in anchor x's (nested
 * inside it) and y is not x. */
static int inside_anchor(const struct probe_ctx *x, const struct xmt_anchor *in,
                         const struct xmt_anchor *y) {
  return y != in && is_ancestor(x, in->probe, y->probe);
}

/* The source token of anchor m that no anchor inside it holds, nearest
 * to its share of target token t; SIZE_MAX when there is none. */
static size_t own_token(const struct xmt_placer *p, const struct probe_ctx *x,
                        const struct xmt_anchor *m, size_t t) {
  size_t want = m->a + (t - m->c) * (m->b - m->a + 1) / (m->d - m->c + 1);
  size_t best = SIZE_MAX, best_dist = SIZE_MAX;
  for (size_t s = m->a; s <= m->b; s++) {
    size_t i = 0;
    for (; i < p->nanchors; i++) {
      const struct xmt_anchor *y = &p->anchors[i];
      if (inside_anchor(x, m, y) && s >= y->a && s <= y->b)
        break;
    }
    size_t dist = s > want ? s - want : want - s;
    if (i == p->nanchors && dist < best_dist) {
      best = s;
      best_dist = dist;
    }
  }
  return best;
}

/* Anchoring a pair inside another can take from the outer one the only
 * links to some of its target tokens: they get one from its own words. */
static xmt_status recover(struct xmt_placer *p, const struct probe_ctx *x) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < p->nanchors; i++) {
    const struct xmt_anchor m = p->anchors[i];
    for (size_t t = m.c; st == XMT_OK && t <= m.d; t++) {
      if (links_into(p, m.a, m.b, t, t) > 0)
        continue;
      size_t s = own_token(p, x, &m, t);
      if (s != SIZE_MAX)
        st = work_add(p, s, t);
    }
  }
  return st;
}

xmt_status xmt_probe_anchor(struct xmt_placer *p, const char *lang,
                            const struct xmt_probe *probes, size_t nprobes,
                            const xmt_tokens *ctok, const char *tr,
                            size_t trlen, const xmt_tokens *ttok,
                            const xmt_alignment *links, xmt_alignment *out,
                            size_t *anchored) {
  const struct probe_ctx x = {probes, nprobes, tr, trlen, ctok, ttok};
  p->nanchors = 0;
  stemmer_for(p, lang);
  xmt_status st =
      work_load(p, links, xmt_tokens_count(ctok), xmt_tokens_count(ttok));
  if (st == XMT_OK)
    st = words_of(p, &p->tw, tr, trlen);
  /* Pairs first, outer ones before those inside them; then the
   * placeholders, each by the first of its probes found. */
  for (size_t q = 0; st == XMT_OK && q < nprobes; q++) {
    int done = 0;
    /* a span's context probe follows it, tried when it was not found */
    if (probes[q].kind == XMT_PROBE_SPAN)
      st = anchor_probe(p, &x, q, q, &done);
    else if (probes[q].kind == XMT_PROBE_CONTEXT && anchor_of(p, q - 1) == NULL)
      st = anchor_probe(p, &x, q, q - 1, &done);
    *anchored += (size_t)done;
  }
  size_t placed = SIZE_MAX;
  for (size_t q = 0; st == XMT_OK && q < nprobes; q++) {
    int done = 0;
    if (probes[q].kind == XMT_PROBE_SPAN ||
        probes[q].kind == XMT_PROBE_CONTEXT || probes[q].tag == placed)
      continue;
    st = anchor_probe(p, &x, q, q, &done);
    if (done)
      placed = probes[q].tag;
    *anchored += (size_t)done;
  }
  if (st == XMT_OK)
    st = recover(p, &x);
  xmt_alignment_clear(out);
  for (size_t i = 0; st == XMT_OK && i < p->nwork; i++)
    st = xmt_alignment_add(out, p->work[i].source, p->work[i].target);
  return st;
}
