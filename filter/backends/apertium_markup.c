/* apertium_markup.c -- XLIFF inline markup through an Apertium pipeline,
 * carried the way Apertium's own document formatters (transfuse) carry
 * inline HTML.
 *
 * The words of each span go in a word-bound blank, "[[x3]]red car[[/]]",
 * which transfer moves with every word it makes of them, so the span
 * comes back on the words that translate its own. One blank covers all
 * the words of a span that no other tag cuts: a blank between two words
 * keeps them from forming a multiword ("in accordance with"). A span that
 * begins or ends inside a word covers the whole word: a blank inside a
 * word would split it. Placeholders, isolated codes and spans without a
 * letter or digit become superblanks ("[p4]"), which keep their place
 * between the words around them.
 *
 * The answer comes back as XLIFF inline markup: each span wraps the first
 * to the last character that carries its label, crossing spans are cut
 * back to nest, and the source's own tag markup is written again. A tag
 * whose words the engine dropped is left out; the filter puts it back
 * and counts a repair. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>

#include "backends_private.h"

/* Letters and digits make words, as in the filter's word breaks. */
static int word_char(const char *s, size_t len, size_t at) {
  uint32_t cp;
  if (at >= len ||
      xmt_utf8_decode((const unsigned char *)s + at, len - at, &cp) == 0)
    return 0;
  return u_isalnum((UChar32)cp);
}

/* 1 when byte at is between two word characters. */
static int inside_word(const char *s, size_t len, size_t at) {
  return at > 0 && at < len && word_char(s, len, xmt_utf8_prev(s, 0, at)) &&
         word_char(s, len, at);
}

static int has_word_char(const char *s, size_t len, size_t from, size_t to) {
  for (size_t i = from; i < to; i = xmt_utf8_next(s, len, i))
    if (word_char(s, len, i))
      return 1;
  return 0;
}

/* One tag of the request: a span (an OPEN and its CLOSE), or a mark that
 * keeps its place (placeholders, isolated codes, spans without words). */
struct item {
  size_t open, close; /* tag indexes; close == SIZE_MAX: a lone tag */
  size_t from, to;    /* byte range in the plain text */
  int blank;          /* carried by word-bound blanks */
};

struct parsed {
  xmt_segment *seg;
  const char *text;
  size_t len;
  struct item *items;
  size_t nitems;
};

static void parsed_free(struct parsed *p) {
  xmt_segment_free(p->seg);
  free(p->items);
}

static int lone_tag_at(const struct parsed *p, size_t at) {
  for (size_t k = 0; k < p->nitems; k++)
    if (p->items[k].close == SIZE_MAX && p->items[k].from == at)
      return 1;
  return 0;
}

/* Parses request markup into its text and items. XMT_ERR_INLINE when the
 * request is not inline markup. */
static xmt_status parse_request(struct parsed *p, const char *markup,
                                size_t len) {
  unsigned long column;
  memset(p, 0, sizeof *p);
  if ((p->seg = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  if (xmt_xliff_inline_parse(p->seg, markup, len, &column) != XMT_OK)
    return XMT_ERR_INLINE;
  p->text = xmt_segment_text(p->seg, &p->len);
  size_t ntags = xmt_segment_tag_count(p->seg);
  p->items = calloc(ntags ? ntags : 1, sizeof *p->items);
  if (p->items == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < ntags; i++) {
    struct xmt_tag t, c;
    xmt_segment_tag(p->seg, i, &t);
    if (t.kind == XMT_TAG_CLOSE)
      continue;
    struct item *it = &p->items[p->nitems++];
    it->open = i;
    it->close = SIZE_MAX;
    it->from = it->to = t.offset;
    for (size_t j = i + 1; t.kind == XMT_TAG_OPEN && j < ntags; j++) {
      xmt_segment_tag(p->seg, j, &c);
      if (c.kind == XMT_TAG_CLOSE && c.id != NULL && t.id != NULL &&
          strcmp(c.id, t.id) == 0) {
        it->close = j;
        it->to = c.offset;
        break;
      }
    }
  }
  /* Formatting inside a word covers the whole word; a lone tag between
   * two letters stands for a break (as the filter's word breaks). */
  for (size_t k = 0; k < p->nitems; k++) {
    struct item *it = &p->items[k];
    if (it->close == SIZE_MAX)
      continue;
    size_t from = it->from, to = it->to;
    while (inside_word(p->text, p->len, from) && !lone_tag_at(p, from))
      from = xmt_utf8_prev(p->text, 0, from);
    while (inside_word(p->text, p->len, to) && !lone_tag_at(p, to))
      to = xmt_utf8_next(p->text, p->len, to);
    if (has_word_char(p->text, p->len, from, to)) {
      it->blank = 1;
      it->from = from;
      it->to = to;
    }
  }
  return XMT_OK;
}

/* --- Requests -------------------------------------------------------------
 */

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The superblank of a mark: p (placeholder), o and c (the ends of a span
 * without words) and the tag's index. */
static xmt_status put_mark(struct xmt_buf *out, char kind, size_t tag) {
  char mark[32];
  int n = snprintf(mark, sizeof mark, "[%c%zu]", kind, tag);
  return xmt_buf_append(out, mark, (size_t)n);
}

/* The marks of the tags at byte at, in the source's order. */
static xmt_status put_marks(struct xmt_buf *out, const struct parsed *p,
                            size_t at) {
  size_t ntags = xmt_segment_tag_count(p->seg);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < ntags; i++) {
    struct xmt_tag t;
    xmt_segment_tag(p->seg, i, &t);
    if (t.offset != at)
      continue;
    for (size_t k = 0; k < p->nitems; k++) {
      const struct item *it = &p->items[k];
      if (it->blank)
        continue;
      if (it->open == i)
        st = put_mark(out, it->close == SIZE_MAX ? 'p' : 'o', i);
      else if (it->close == i)
        st = put_mark(out, 'c', i);
    }
  }
  return st;
}

/* Text the blanks of labels cover: its own blanks stay outside; a blank
 * run other than one space ends the word-bound blank and is passed as a
 * superblank. */
static xmt_status put_covered(struct xmt_buf *out, const char *s, size_t n,
                              const char *labels, size_t labels_len) {
  xmt_status st = XMT_OK;
  size_t i = 0;
  while (st == XMT_OK && i < n) {
    size_t b = i;
    while (b < n && is_blank(s[b]))
      b++;
    if (b > i)
      st = xmt_apertium_escape(out, s + i, b - i);
    size_t e = b;
    while (e < n && (!is_blank(s[e]) ||
                     (s[e] == ' ' && e + 1 < n && !is_blank(s[e + 1]))))
      e++;
    if (st == XMT_OK && e > b) {
      st = xmt_buf_append(out, "[[", 2);
      if (st == XMT_OK)
        st = xmt_buf_append(out, labels, labels_len);
      if (st == XMT_OK)
        st = xmt_buf_append(out, "]]", 2);
      if (st == XMT_OK)
        st = xmt_apertium_escape(out, s + b, e - b);
      if (st == XMT_OK)
        st = xmt_buf_append(out, "[[/]]", 5);
    }
    i = e;
  }
  return st;
}

xmt_status xmt_apertium_encode_markup(struct xmt_buf *out, const char *markup,
                                      size_t len) {
  struct parsed p;
  xmt_status st = parse_request(&p, markup, len);
  if (st == XMT_ERR_INLINE) {
    /* Not markup after all: the text as it is. */
    parsed_free(&p);
    st = xmt_apertium_escape(out, markup, len);
    return st == XMT_OK ? xmt_apertium_end(out) : st;
  }
  size_t *cuts = NULL;
  struct xmt_buf labels = {0};
  if (st == XMT_OK &&
      (cuts = malloc((2 * p.nitems + 2) * sizeof *cuts)) == NULL)
    st = XMT_ERR_NOMEM;
  size_t ncuts = 0;
  if (st == XMT_OK) {
    cuts[ncuts++] = 0;
    cuts[ncuts++] = p.len;
    for (size_t k = 0; k < p.nitems; k++) {
      cuts[ncuts++] = p.items[k].from;
      cuts[ncuts++] = p.items[k].to;
    }
    qsort(cuts, ncuts, sizeof *cuts, cmp_size);
    size_t u = 0;
    for (size_t c = 0; c < ncuts; c++)
      if (u == 0 || cuts[c] != cuts[u - 1])
        cuts[u++] = cuts[c];
    ncuts = u;
  }
  for (size_t c = 0; st == XMT_OK && c < ncuts; c++) {
    size_t from = cuts[c];
    st = put_marks(out, &p, from);
    if (st != XMT_OK || c + 1 == ncuts)
      continue;
    size_t to = cuts[c + 1];
    xmt_buf_reset(&labels);
    for (size_t k = 0; st == XMT_OK && k < p.nitems; k++) {
      const struct item *it = &p.items[k];
      if (!it->blank || it->from > from || it->to < to)
        continue;
      char label[32];
      int n = snprintf(label, sizeof label, "%sx%zu", labels.len ? ";" : "",
                       it->open);
      st = xmt_buf_append(&labels, label, (size_t)n);
    }
    if (st == XMT_OK)
      st = labels.len == 0 ? xmt_apertium_escape(out, p.text + from, to - from)
                           : put_covered(out, p.text + from, to - from,
                                         labels.data, labels.len);
  }
  if (st == XMT_OK)
    st = xmt_apertium_end(out);
  free(cuts);
  xmt_buf_free(&labels);
  parsed_free(&p);
  return st;
}

/* --- Answers --------------------------------------------------------------
 */

struct place {
  size_t from, to; /* to == SIZE_MAX: not found */
};

/* Labels "x3; x7" of a word-bound blank into tag indexes marked in on
 * (one byte per tag). */
static void read_labels(const char *s, size_t n, unsigned char *on,
                        size_t ntags) {
  memset(on, 0, ntags);
  for (size_t i = 0; i < n; i++) {
    if (s[i] != 'x' || (i > 0 && s[i - 1] != ';' && !is_blank(s[i - 1])))
      continue;
    size_t v = 0, j = i + 1;
    for (; j < n && s[j] >= '0' && s[j] <= '9' && v < ntags; j++)
      v = v * 10 + (size_t)(s[j] - '0');
    if (j > i + 1 && v < ntags)
      on[v] = 1;
  }
}

/* A mark superblank "[p4]": its kind and tag, or 0. */
static char read_mark(const char *s, size_t n, size_t ntags, size_t *tag) {
  if (n < 2 || (s[0] != 'p' && s[0] != 'o' && s[0] != 'c'))
    return 0;
  size_t v = 0;
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > '9' || v >= ntags)
      return 0;
    v = v * 10 + (size_t)(s[i] - '0');
  }
  *tag = v;
  return v < ntags ? s[0] : 0;
}

/* The answer's plain text into text, where each label's characters and
 * each mark went into at (indexed by tag). */
static xmt_status read_answer(struct xmt_buf *text, const char *a, size_t len,
                              size_t ntags, struct place *at,
                              unsigned char *on) {
  memset(on, 0, ntags);
  for (size_t i = 0; i < ntags; i++)
    at[i].from = SIZE_MAX, at[i].to = SIZE_MAX;
  xmt_status st = XMT_OK;
  size_t dot = xmt_apertium_end_dot(a, len);
  for (size_t i = 0; st == XMT_OK && i < len; i++) {
    if (i == dot)
      continue;
    if (a[i] == '[' && i + 1 < len && a[i + 1] == '[') {
      const char *end = memmem(a + i, len - i, "]]", 2);
      size_t stop = end != NULL ? (size_t)(end - a) : len;
      if (stop - i - 2 == 1 && a[i + 2] == '/')
        memset(on, 0, ntags);
      else
        read_labels(a + i + 2, stop - i - 2, on, ntags);
      i = stop + 1;
      continue;
    }
    if (a[i] == '[') {
      size_t stop = i + 1;
      while (stop < len && a[stop] != ']')
        stop += a[stop] == '\\' ? 2 : 1;
      size_t tag;
      char kind = read_mark(a + i + 1, stop - i - 1, ntags, &tag);
      if (kind == 'p' || kind == 'o')
        at[tag].from = text->len;
      else if (kind == 'c')
        at[tag].to = text->len;
      for (size_t k = i + 1; kind == 0 && st == XMT_OK && k < stop; k++) {
        if (a[k] == '\\' && k + 1 < stop)
          k++;
        st = xmt_buf_append_byte(text, a[k]);
      }
      i = stop;
      continue;
    }
    if (a[i] == '\0')
      continue;
    if (a[i] == '\\' && i + 1 < len)
      i++;
    size_t start = text->len;
    st = xmt_buf_append_byte(text, a[i]);
    if (is_blank(a[i]))
      continue;
    for (size_t t = 0; t < ntags; t++) {
      if (!on[t])
        continue;
      if (at[t].from == SIZE_MAX || start < at[t].from)
        at[t].from = start;
      if (at[t].to == SIZE_MAX || text->len > at[t].to)
        at[t].to = text->len;
    }
  }
  return st;
}

/* A span or a placeholder found in the answer, ready to write. */
struct out_item {
  size_t from, to;
  size_t open, close; /* close == SIZE_MAX: a lone tag */
};

static int cmp_out(const void *x, const void *y) {
  const struct out_item *a = x, *b = y;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  int alone_a = a->close == SIZE_MAX, alone_b = b->close == SIZE_MAX;
  if (alone_a != alone_b)
    return alone_b - alone_a; /* lone tags before the spans opening there */
  if (a->to != b->to)
    return a->to > b->to ? -1 : 1;
  return a->open < b->open ? -1 : a->open > b->open;
}

static xmt_status put_tag(struct xmt_buf *out, const xmt_segment *seg,
                          size_t i) {
  struct xmt_tag t;
  xmt_segment_tag(seg, i, &t);
  return xmt_buf_append(out, t.markup, t.markup_len);
}

/* Writes text[*at, to) escaped, and moves *at. */
static xmt_status put_text(struct xmt_buf *out, const struct xmt_buf *text,
                           size_t *at, size_t to) {
  if (to <= *at)
    return XMT_OK;
  xmt_status st = xmt_xml_escape_text(out, text->data + *at, to - *at);
  *at = to;
  return st;
}

/* The markup being written: the items open (indexes into items, the
 * innermost last) and the text written up to at. */
struct nesting {
  struct xmt_buf *out;
  const struct xmt_buf *text;
  const xmt_segment *seg;
  const struct out_item *items;
  size_t *stack, depth, at;
};

/* Closes the open items that end at or before from, innermost first, each
 * after its text. */
static xmt_status close_to(struct nesting *w, size_t from) {
  xmt_status st = XMT_OK;
  while (st == XMT_OK && w->depth > 0 &&
         w->items[w->stack[w->depth - 1]].to <= from) {
    const struct out_item *top = &w->items[w->stack[--w->depth]];
    st = put_text(w->out, w->text, &w->at, top->to);
    if (st == XMT_OK)
      st = put_tag(w->out, w->seg, top->close);
  }
  return st;
}

/* The answer as markup: text with the items found, nested. */
static xmt_status write_markup(struct xmt_buf *out, const struct xmt_buf *text,
                               const xmt_segment *seg, struct out_item *items,
                               size_t n) {
  qsort(items, n, sizeof *items, cmp_out);
  struct nesting w = {out, text, seg, items, NULL, 0, 0};
  w.stack = malloc((n ? n : 1) * sizeof *w.stack);
  if (w.stack == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    struct out_item *it = &items[k];
    st = close_to(&w, it->from);
    if (st == XMT_OK)
      st = put_text(out, text, &w.at, it->from);
    if (st == XMT_OK)
      st = put_tag(out, seg, it->open);
    if (st != XMT_OK || it->close == SIZE_MAX)
      continue;
    if (w.depth > 0 && it->to > items[w.stack[w.depth - 1]].to)
      it->to = items[w.stack[w.depth - 1]].to; /* crossing: cut back */
    w.stack[w.depth++] = k;
  }
  if (st == XMT_OK)
    st = close_to(&w, SIZE_MAX);
  if (st == XMT_OK)
    st = put_text(out, text, &w.at, text->len);
  free(w.stack);
  return st;
}

xmt_status xmt_apertium_decode_markup(struct xmt_buf *out, const char *answer,
                                      size_t len,
                                      const struct xmt_mt_request *req) {
  struct parsed p;
  xmt_status st = parse_request(&p, req->text, req->len);
  if (st == XMT_ERR_INLINE) {
    parsed_free(&p);
    return xmt_apertium_decode(out, answer, len, req);
  }
  size_t ntags = st == XMT_OK ? xmt_segment_tag_count(p.seg) : 0;
  struct place *at = NULL;
  unsigned char *on = NULL;
  struct out_item *items = NULL;
  struct xmt_buf text = {0};
  if (st == XMT_OK &&
      ((at = malloc((ntags ? ntags : 1) * sizeof *at)) == NULL ||
       (on = malloc(ntags ? ntags : 1)) == NULL ||
       (items = malloc((p.nitems ? p.nitems : 1) * sizeof *items)) == NULL))
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = read_answer(&text, answer, len, ntags, at, on);
  /* The answer's own blanks at the ends give way to the request's. */
  size_t lead = 0, trail = 0, cut = 0;
  while (lead < p.len && is_blank(p.text[lead]))
    lead++;
  while (trail < p.len - lead && is_blank(p.text[p.len - 1 - trail]))
    trail++;
  while (cut < text.len && is_blank(text.data[cut]))
    cut++;
  size_t keep = text.len - cut;
  while (keep > 0 && is_blank(text.data[cut + keep - 1]))
    keep--;
  struct xmt_buf shaped = {0};
  if (st == XMT_OK)
    st = xmt_buf_append(&shaped, p.text, lead);
  if (st == XMT_OK && keep > 0)
    st = xmt_buf_append(&shaped, text.data + cut, keep);
  if (st == XMT_OK)
    st = xmt_buf_append(&shaped, p.text + p.len - trail, trail);
  size_t n = 0;
  for (size_t k = 0; st == XMT_OK && k < p.nitems; k++) {
    const struct item *it = &p.items[k];
    struct place pl = at[it->open];
    if (!it->blank && it->close != SIZE_MAX)
      pl.to = at[it->close].to;
    if (it->close == SIZE_MAX)
      pl.to = pl.from;
    if (pl.from == SIZE_MAX || pl.to == SIZE_MAX || pl.to < pl.from)
      continue; /* dropped with its words: the filter puts it back */
    /* Into the shaped text: trimmed at the ends, after the lead. */
    size_t from = pl.from > cut ? pl.from - cut : 0;
    size_t to = pl.to > cut ? pl.to - cut : 0;
    from = (from < keep ? from : keep) + lead;
    to = (to < keep ? to : keep) + lead;
    items[n++] = (struct out_item){from, to, it->open, it->close};
  }
  if (st == XMT_OK)
    st = write_markup(out, &shaped, p.seg, items, n);
  xmt_buf_free(&shaped);
  xmt_buf_free(&text);
  free(at);
  free(on);
  free(items);
  parsed_free(&p);
  return st;
}
