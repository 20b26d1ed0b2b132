/* shape.c -- what the output's shape needs: one whole target from a unit
 * segmented for MT only, and attributes set on copied start tags. */
#include "config.h"

#include <stdlib.h>

#include "xliff_private.h"

/* Appends src's text and tags to dst. */
static int appends_as_is(const xmt_segment *seg);

/* Appends src, whose appends_as_is is as_is. */
static xmt_status append_known(xmt_segment *dst, const xmt_segment *src,
                               int as_is) {
  /* Tag by tag, each string copied apart, took most of a join. */
  if (as_is)
    return xmt_segment_append_whole(dst, src);
  size_t len, at = 0;
  const char *text = xmt_segment_text(src, &len);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(src); i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(src, i, &t);
    if (st == XMT_OK)
      st = xmt_segment_append_to_tag(dst, text, &at, &t);
  }
  if (st == XMT_OK && len > at)
    st = xmt_segment_append_text(dst, text + at, len - at);
  return st;
}

static xmt_status append_segment(xmt_segment *dst, const xmt_segment *src) {
  return append_known(dst, src, appends_as_is(src));
}

/* The source's tags sorted twice, by kind and markup and by kind and id,
 * to look up each isolated code of the joined target by binary search: a
 * walk of the source for each took quadratic time in a unit of many
 * codes. Built at the first isolated code. */
struct src_ref {
  enum xmt_tag_kind kind;
  const char *s; /* markup or id, in the source segment */
  size_t len;
  size_t index;
};

struct src_index {
  struct src_ref *by_markup, *by_id;
  size_t n;
};

static int ref_cmp(const struct src_ref *a, const struct src_ref *b) {
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = n > 0 ? memcmp(a->s, b->s, n) : 0;
  if (c == 0 && a->len != b->len)
    c = a->len < b->len ? -1 : 1;
  return c;
}

static int ref_order(const void *x, const void *y) {
  const struct src_ref *a = x, *b = y;
  int c = ref_cmp(a, b);
  return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

static xmt_status index_source(struct src_index *ix, const xmt_segment *src) {
  size_t n = xmt_segment_tag_count(src);
  ix->by_markup = malloc((n + 1) * sizeof *ix->by_markup);
  ix->by_id = malloc((n + 1) * sizeof *ix->by_id);
  if (ix->by_markup == NULL || ix->by_id == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag s;
    xmt_segment_tag(src, i, &s);
    struct src_ref m = {s.kind, s.markup, s.markup_len, i};
    struct src_ref d = {s.kind, s.id != NULL ? s.id : "", 0, i};
    d.len = strlen(d.s);
    ix->by_markup[i] = m;
    ix->by_id[i] = d;
  }
  qsort(ix->by_markup, n, sizeof *ix->by_markup, ref_order);
  qsort(ix->by_id, n, sizeof *ix->by_id, ref_order);
  ix->n = n;
  return XMT_OK;
}

/* The first of refs equal to key in kind and string, or NULL. */
static const struct src_ref *ref_find(const struct src_ref *refs, size_t n,
                                      const struct src_ref *key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ref_cmp(&refs[mid], key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ref_cmp(&refs[lo], key) == 0 ? &refs[lo] : NULL;
}

/* The source's pair end for isolated code t of the joined target, or
 * SIZE_MAX: none when the source has t itself (same kind and markup), a
 * code of the document, not one the segmenter made of a cut pair; else
 * its first OPEN (for an isolated open) or CLOSE with t's id. */
static size_t source_end(const struct src_index *ix, const struct xmt_tag *t) {
  struct src_ref m = {t->kind, t->markup, t->markup_len, 0};
  if (ref_find(ix->by_markup, ix->n, &m) != NULL)
    return SIZE_MAX;
  struct src_ref d = {t->kind == XMT_TAG_ISOLATED_OPEN ? XMT_TAG_OPEN
                                                       : XMT_TAG_CLOSE,
                      t->id, strlen(t->id), 0};
  const struct src_ref *r = ref_find(ix->by_id, ix->n, &d);
  return r != NULL ? r->index : SIZE_MAX;
}

/* Copies joined into out with the segmenter's isolated codes turned back
 * into the pair ends of the source they were cut from. */
static xmt_status restore_pairs(xmt_segment *out, const xmt_segment *joined,
                                const xmt_segment *src) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(joined, &len);
  xmt_status st = XMT_OK;
  struct src_index ix = {NULL, NULL, 0};
  int indexed = 0;
  xmt_segment_clear(out);
  for (size_t i = 0; st == XMT_OK && i < xmt_segment_tag_count(joined); i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(joined, i, &t);
    if (st != XMT_OK)
      break;
    size_t k = SIZE_MAX;
    if ((t.kind == XMT_TAG_ISOLATED_OPEN || t.kind == XMT_TAG_ISOLATED_CLOSE) &&
        t.id != NULL) {
      if (!indexed && (st = index_source(&ix, src)) != XMT_OK)
        break;
      indexed = 1;
      k = source_end(&ix, &t);
    }
    size_t offset = t.offset;
    if (k != SIZE_MAX && (st = xmt_segment_tag(src, k, &t)) != XMT_OK)
      break;
    t.offset = offset; /* the source's pair end, where joined has t */
    st = xmt_segment_append_to_tag(out, text, &at, &t);
  }
  if (st == XMT_OK && len > at)
    st = xmt_segment_append_text(out, text + at, len - at);
  free(ix.by_markup);
  free(ix.by_id);
  return st;
}

static const xmt_segment *piece_target(const xmt_xliff_unit *u, size_t i) {
  return u->segs[i].target != NULL ? u->segs[i].target : u->segs[i].source;
}

static int isolated_kind(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_ISOLATED_OPEN || kind == XMT_TAG_ISOLATED_CLOSE;
}

/* Whether appending seg chunk by chunk gives seg as it is: its codes in
 * order within its text, and each stretch of text between them valid
 * UTF-8 (the append refuses any other). */
static int appends_as_is(const xmt_segment *seg) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(seg, &len);
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) != XMT_OK || t.offset < at ||
        t.offset > len ||
        xmt_utf8_valid_prefix(text + at, t.offset - at) != t.offset - at)
      return 0;
    at = t.offset;
  }
  return xmt_utf8_valid_prefix(text + at, len - at) == len - at;
}

/* Whether seg has an isolated code (or a code that cannot be read), and
 * else in *as_is whether appends_as_is holds: both in one walk of its
 * codes, which had taken a walk each. */
static int isolated_or_as_is(const xmt_segment *seg, int *as_is) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(seg, &len);
  *as_is = 1;
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) != XMT_OK || isolated_kind(t.kind))
      return 1;
    if (*as_is &&
        (t.offset < at || t.offset > len ||
         xmt_utf8_valid_prefix(text + at, t.offset - at) != t.offset - at))
      *as_is = 0;
    else if (*as_is)
      at = t.offset;
  }
  if (*as_is && xmt_utf8_valid_prefix(text + at, len - at) != len - at)
    *as_is = 0;
  return 0;
}

/* Appends piece to out unless it has an isolated code (then returns 0);
 * the first piece with text or codes is copied whole: appending its
 * codes one by one took a third of the join. */
static int join_piece(xmt_segment *out, const xmt_segment *piece, int *empty,
                      xmt_status *st) {
  int as_is;
  if (isolated_or_as_is(piece, &as_is))
    return 0;
  size_t len;
  xmt_segment_text(piece, &len);
  if (len == 0 && xmt_segment_tag_count(piece) == 0)
    return 1;
  int first = *empty;
  *empty = 0;
  *st = first && as_is ? xmt_segment_copy(out, piece)
                       : append_known(out, piece, as_is);
  return 1;
}

/* The pieces appended straight into out when none has an isolated code:
 * restore_pairs would copy the join as it is, and a join that fails
 * xmt_segment_check is kept all the same. Returns 0 when it cannot (out
 * is then cleared or overwritten by the caller's join). */
static int joined_directly(const xmt_xliff_unit *u, xmt_segment *out,
                           xmt_status *st) {
  xmt_segment_clear(out);
  *st = XMT_OK;
  int empty = 1;
  for (size_t i = 0; *st == XMT_OK && i <= u->nsegs; i++) {
    if (u->gaps != NULL && i < u->ngaps &&
        !join_piece(out, xmt_unit_target_gap(u, i), &empty, st))
      return 0;
    if (*st == XMT_OK && i < u->nsegs &&
        !join_piece(out, piece_target(u, i), &empty, st))
      return 0;
  }
  return 1;
}

xmt_status xmt_unit_joined_target(const xmt_xliff_unit *u, xmt_segment *out) {
  xmt_status direct;
  if (joined_directly(u, out, &direct))
    return direct;
  xmt_segment *joined = xmt_segment_new();
  if (joined == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i <= u->nsegs; i++) {
    if (u->gaps != NULL && i < u->ngaps)
      st = append_segment(joined, xmt_unit_target_gap(u, i));
    if (st == XMT_OK && i < u->nsegs)
      st =
          append_segment(joined, u->segs[i].target != NULL ? u->segs[i].target
                                                           : u->segs[i].source);
  }
  const xmt_segment *src = u->whole_source;
  if (st == XMT_OK && src != NULL) {
    st = restore_pairs(out, joined, src);
    /* The translation moved a cut end across another pair: the isolated
     * codes stay, which say the same. */
    if (st == XMT_OK && xmt_segment_check(out, NULL) != XMT_OK)
      st = xmt_segment_copy(out, joined);
  } else if (st == XMT_OK) {
    st = xmt_segment_copy(out, joined);
  }
  xmt_segment_free(joined);
  return st;
}

/* Whether a piece of the whole target is written alike on its own and
 * in the join: no isolated code (restore_pairs may make it a pair end
 * again), valid UTF-8 (the join refuses any other), and, after the first
 * piece, no '>' in its first two bytes (a "]]" before it in the join has
 * it escaped). */
static int renders_alone(const xmt_segment *seg, int first) {
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  if (!first && ((len > 0 && text[0] == '>') || (len > 1 && text[1] == '>')))
    return 0;
  if (xmt_utf8_valid_prefix(text, len) != len)
    return 0;
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) != XMT_OK ||
        t.kind == XMT_TAG_ISOLATED_OPEN || t.kind == XMT_TAG_ISOLATED_CLOSE)
      return 0;
  }
  return 1;
}

xmt_status xmt_unit_render_joined_target(struct xmt_buf *out,
                                         const xmt_xliff_unit *u,
                                         xmt_segment **joined) {
  int alone = 1;
  for (size_t i = 0; alone && i <= u->nsegs; i++) {
    if (i < u->ngaps)
      alone = renders_alone(xmt_unit_target_gap(u, i), i == 0);
    if (alone && i < u->nsegs)
      alone = renders_alone(piece_target(u, i), i == 0 && u->ngaps == 0);
  }
  xmt_status st = XMT_OK;
  /* Written piece by piece: building the join took as long as the rest
   * of the unit's writing. */
  for (size_t i = 0; alone && st == XMT_OK && i <= u->nsegs; i++) {
    if (i < u->ngaps)
      st = xmt_inline_render_into(out, xmt_unit_target_gap(u, i));
    if (st == XMT_OK && i < u->nsegs)
      st = xmt_inline_render_into(out, piece_target(u, i));
  }
  if (alone)
    return st;
  if (*joined == NULL && (*joined = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  st = xmt_unit_joined_target(u, *joined);
  return st == XMT_OK ? xmt_inline_render_into(out, *joined) : st;
}

/* --- Attributes of start tags -------------------------------------------- */

size_t xmt_tag_end(const char *tag, size_t len) {
  char quote = 0;
  for (size_t i = 0; i < len; i++) {
    if (quote != 0) {
      if (tag[i] == quote)
        quote = 0;
    } else if (tag[i] == '"' || tag[i] == '\'')
      quote = tag[i];
    else if (tag[i] == '>')
      return i;
  }
  return len;
}

int xmt_tag_find_attribute(const char *tag, size_t len, const char *name,
                           size_t *value_start, size_t *value_end) {
  size_t n = strlen(name), i = 1;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '>' && tag[i] != '/')
    i++; /* the element name */
  while (i < len) {
    while (i < len && xmt_is_xml_space(tag[i]))
      i++;
    size_t start = i;
    while (i < len && tag[i] != '=' && !xmt_is_xml_space(tag[i]) &&
           tag[i] != '>' && tag[i] != '/')
      i++;
    if (i == start)
      return 0;
    int match = i - start == n && memcmp(tag + start, name, n) == 0;
    while (i < len && tag[i] != '"' && tag[i] != '\'')
      i++;
    if (i == len)
      return 0;
    char quote = tag[i++];
    size_t vs = i;
    while (i < len && tag[i] != quote)
      i++;
    if (match) {
      *value_start = vs;
      *value_end = i;
      return 1;
    }
    i++;
  }
  return 0;
}

xmt_status xmt_tag_set_state(struct xmt_buf *out, const char *tag, size_t len,
                             const struct xmt_xliff_target_options *o,
                             int qualified) {
  const char *names[] = {"state", "state-qualifier"};
  const char *values[] = {o->state, o->state_qualifier};
  return xmt_tag_set_attributes(out, tag, len, names, values,
                                qualified ? 2 : 1);
}

xmt_status xmt_tag_set_sdl_mt(struct xmt_buf *out, const char *tag,
                              size_t len) {
  /* a match's kinds and percent are no machine translation's; percent="0"
   * (no match) stays */
  static const char *const names[] = {"conf",          "origin",
                                      "origin-system", "struct-match",
                                      "text-match",    "percent"};
  static const char *const values[] = {"Draft", "mt", "xliffmt", 0, 0, 0};
  size_t vs, ve;
  int none = xmt_tag_find_attribute(tag, len, "percent", &vs, &ve) &&
             ve == vs + 1 && tag[vs] == '0';
  return xmt_tag_set_attributes(out, tag, len, names, values, none ? 5 : 6);
}

xmt_status xmt_tag_set_attributes(struct xmt_buf *out, const char *tag,
                                  size_t len, const char *const *names,
                                  const char *const *values, size_t n) {
  struct xmt_buf a = {0}, b = {0};
  xmt_status st = xmt_buf_append(&a, tag, len);
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    size_t vs, ve;
    xmt_buf_reset(&b);
    int found = xmt_tag_find_attribute(a.data, a.len, names[k], &vs, &ve);
    if (values[k] == NULL) {
      /* Removed: from the white space before its name to its quote. */
      size_t from = found ? vs - 1 : a.len; /* the opening quote */
      while (found && from > 0 && xmt_is_xml_space(a.data[from - 1]))
        from--;
      if (found && from > 0 && a.data[from - 1] == '=')
        from--;
      while (found && from > 0 && xmt_is_xml_space(a.data[from - 1]))
        from--;
      while (found && from > 0 && !xmt_is_xml_space(a.data[from - 1]))
        from--; /* the name */
      while (found && from > 1 && xmt_is_xml_space(a.data[from - 1]))
        from--;
      st = xmt_buf_append(&b, a.data, from);
      if (st == XMT_OK && found)
        st = xmt_buf_append(&b, a.data + ve + 1, a.len - ve - 1);
    } else if (found) {
      st = xmt_buf_append(&b, a.data, vs);
      if (st == XMT_OK)
        st = xmt_xml_escape_attr(&b, values[k]);
      if (st == XMT_OK)
        st = xmt_buf_append(&b, a.data + ve, a.len - ve);
    } else {
      /* After the last attribute: before "/>" or ">" and the spaces
       * before them. */
      size_t end = a.len - (a.len >= 2 && a.data[a.len - 2] == '/' ? 2 : 1);
      while (end > 1 && xmt_is_xml_space(a.data[end - 1]))
        end--;
      st = xmt_buf_append(&b, a.data, end);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(&b, ' ');
      if (st == XMT_OK)
        st = xmt_buf_append_str(&b, names[k]);
      if (st == XMT_OK)
        st = xmt_buf_append_str(&b, "=\"");
      if (st == XMT_OK)
        st = xmt_xml_escape_attr(&b, values[k]);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(&b, '"');
      if (st == XMT_OK)
        st = xmt_buf_append(&b, a.data + end, a.len - end);
    }
    struct xmt_buf t = a;
    a = b;
    b = t;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, a.data, a.len);
  xmt_buf_free(&a);
  xmt_buf_free(&b);
  return st;
}
