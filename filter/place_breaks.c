/* place_breaks.c -- word breaks: a code standing between two words goes
 * to MT as a space, which the target loses again next to the code; and
 * the word tests the probes share (pipeline/probe_plan.c,
 * pipeline/probe_anchor.c) and the blank test of answers
 * (pipeline/answers.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>

#include "filter_private.h"

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
int xmt_between_words(const char *text, size_t len, size_t o) {
  if (o == 0 || o >= len)
    return 0;
  size_t b = xmt_utf8_floor(text, 0, o - 1);
  uint32_t before, after;
  if (xmt_utf8_decode((const unsigned char *)text + b, o - b, &before) == 0 ||
      xmt_utf8_decode((const unsigned char *)text + o, len - o, &after) == 0)
    return 0;
  return word_cp(before) && word_cp(after);
}

/* 1 when text has a letter or a digit. */
int xmt_has_word(const char *text, size_t len) {
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

/* Nothing a reader would see: white space of any kind (U+00A0, U+3000,
 * U+2028...), controls, format characters (U+200B, U+FEFF...) and
 * default-ignorable ones (fillers, variation selectors), or U+2800, the
 * blank braille pattern. */
static int invisible_cp(uint32_t cp) {
  int8_t t = u_charType((UChar32)cp);
  return u_isUWhiteSpace((UChar32)cp) || t == U_CONTROL_CHAR ||
         t == U_FORMAT_CHAR || t == U_SPACE_SEPARATOR ||
         t == U_LINE_SEPARATOR || t == U_PARAGRAPH_SEPARATOR ||
         u_hasBinaryProperty((UChar32)cp, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
         cp == 0x2800;
}

int xmt_has_visible(const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t n = xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
    if (n == 0 || !invisible_cp(cp))
      return 1; /* invalid UTF-8 is not blank: it fails elsewhere */
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
        xmt_between_words(text, len, o)) {
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
    if (brk && o > lead && o < lead + core_len &&
        xmt_between_words(text, len, o)) {
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
  xmt_status st = xmt_code_refs_room(p, n + m);
  if (st != XMT_OK)
    return st;
  for (size_t i = 0; i < n; i++)
    map[i] = SIZE_MAX;
  size_t ns = xmt_code_refs(p, 0, src, 1, 0, 0, 0);
  size_t nt = xmt_code_refs(p, ns, seg, 1, 0, 0, 0);
  const struct xmt_code_ref *a = p->refs, *b = p->refs + ns;
  /* The runs of one code in both pair up in order. */
  for (size_t i = 0, j = 0; i < ns && j < nt;) {
    int c = xmt_code_ref_cmp(&a[i], &b[j]);
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
      st = xmt_placer_note_found(p, p->breaks[i].tag, off);
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
