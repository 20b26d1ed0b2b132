/* place_standin.c -- stand-ins: the placeholders of a short message sent
 * to the engine as numbers ("{n} minutes ago" as "37 minutes ago"), which
 * the engine moves with the words they go with ("Hace 37 minutos"), where
 * a superblank or a removed code stays in place ("<ph/> Hace minutos").
 * A message of a few words gives the aligner almost nothing to learn from,
 * and its placeholders are the words of the message that the engine does
 * not see; a number is a word it sees and copies.
 *
 * The stand-in answer only places codes: the text is the plain answer's.
 * It places them only when it is the plain answer with the numbers in it
 * (the same characters but for spaces), each number once; else the
 * projection stands. Each code gets the spacing its number had. */
#include "config.h"

#include <string.h>

#include "filter_private.h"

/* Words of a message past which its codes are left to the projection,
 * and the most placeholders it may have: software messages ("You have
 * {count} new messages", "{a} of {b} files uploaded") are shorter. */
#define STANDIN_WORDS 12
#define STANDIN_MAX 4

/* Numbers the engine copies and agrees with as a plural, in the order
 * placeholders take them; one the message has already is skipped. */
static const char *const numbers[] = {"37", "48", "59", "62",
                                      "73", "84", "26", "91"};

static int space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int ascii_digit(char c) { return c >= '0' && c <= '9'; }

static int word_byte(char c) {
  return ascii_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (unsigned char)c >= 0x80;
}

/* 1 when number s stands in text as a number of its own. */
static int has_number(const char *text, size_t len, const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i + n <= len; i++)
    if (memcmp(text + i, s, n) == 0 && (i == 0 || !ascii_digit(text[i - 1])) &&
        (i + n == len || !ascii_digit(text[i + n])))
      return 1;
  return 0;
}

/* The numbers of src's placeholders into num[], and how many there are;
 * 0 when the message gets no stand-ins: longer than a few words, a code
 * other than a placeholder, too many codes. A code in the white space
 * around the core counts: "{n} minutes ago" may come as " minutes ago"
 * after a code. */
static size_t plan(const xmt_segment *src, size_t lead, size_t core_len,
                   const char **num) {
  size_t n = xmt_segment_tag_count(src);
  const char *core = xmt_segment_text(src, NULL) + lead;
  if (n == 0 || n > STANDIN_MAX ||
      xmt_count_words(core, core_len) > STANDIN_WORDS)
    return 0;
  size_t len;
  const char *text = xmt_segment_text(src, &len);
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, i, &tag);
    /* Glued to a word ("Park<br>Road"), a code is a break, not a word. */
    if (tag.kind != XMT_TAG_PLACEHOLDER ||
        (tag.offset > 0 && word_byte(text[tag.offset - 1])) ||
        (tag.offset < len && word_byte(text[tag.offset])))
      return 0;
  }
  size_t k = 0;
  for (size_t c = 0; k < n && c < sizeof numbers / sizeof *numbers; c++)
    if (!has_number(core, core_len, numbers[c]))
      num[k++] = numbers[c];
  return k == n ? n : 0;
}

int xmt_standin_request(const xmt_segment *src, size_t lead, size_t core_len,
                        struct xmt_buf *out, xmt_status *st) {
  const char *num[STANDIN_MAX];
  size_t n = plan(src, lead, core_len, num);
  *st = XMT_OK;
  if (n == 0)
    return 0;
  size_t end;
  const char *text = xmt_segment_text(src, &end);
  size_t pos = 0;
  xmt_buf_reset(out);
  for (size_t i = 0; *st == XMT_OK && i <= n; i++) {
    struct xmt_tag tag;
    size_t at = end;
    if (i < n) {
      xmt_segment_tag(src, i, &tag);
      at = tag.offset;
    }
    *st = xmt_buf_append(out, text + pos, at - pos);
    pos = at;
    if (*st != XMT_OK || i == n)
      break;
    /* Two codes side by side are two numbers. */
    if (out->len > 0 && ascii_digit(out->data[out->len - 1]))
      *st = xmt_buf_append_byte(out, ' ');
    if (*st == XMT_OK)
      *st = xmt_buf_append(out, num[i], strlen(num[i]));
  }
  /* The engine is asked a core: no white space around it. */
  size_t a = 0, b = out->len;
  while (a < b && space(out->data[a]))
    a++;
  while (b > a && space(out->data[b - 1]))
    b--;
  if (*st == XMT_OK && a > 0)
    memmove(out->data, out->data + a, b - a);
  out->len = b - a;
  return *st == XMT_OK;
}

/* Where one stand-in was found in the answer: after `before` non-space
 * bytes of it (numbers left out), with a space before and after it. */
struct found_number {
  size_t before;
  int left, right;
};

/* Finds the n numbers in the answer, each once; 1 when the answer without
 * them is the target's text but for spaces. order[] gets the placeholders
 * in the answer's order. */
static int find_numbers(const char *ans, size_t alen, const char *tgt,
                        size_t tlen, const char **num, size_t n,
                        struct found_number *at, size_t *order) {
  unsigned seen = 0;
  size_t nfound = 0, count = 0, t = 0;
  for (size_t i = 0; i < alen;) {
    if (space(ans[i])) {
      i++;
      continue;
    }
    size_t k = n;
    if (ascii_digit(ans[i]) && (i == 0 || !ascii_digit(ans[i - 1])))
      for (k = 0; k < n; k++) {
        size_t len = strlen(num[k]);
        if (alen - i >= len && memcmp(ans + i, num[k], len) == 0 &&
            (i + len == alen || !ascii_digit(ans[i + len])))
          break;
      }
    if (k < n) {
      if (seen & (1u << k))
        return 0; /* twice */
      seen |= 1u << k;
      order[nfound++] = k;
      at[k].before = count;
      at[k].left = i > 0 && space(ans[i - 1]);
      i += strlen(num[k]);
      at[k].right = i < alen && space(ans[i]);
      continue;
    }
    while (t < tlen && space(tgt[t]))
      t++;
    if (t == tlen || tgt[t] != ans[i])
      return 0;
    t++, i++, count++;
  }
  while (t < tlen && space(tgt[t]))
    t++;
  return t == tlen && seen == (1u << n) - 1;
}

/* The index of the tag of target that is src's tag i (the same kind, id
 * and markup), or SIZE_MAX when there is none or more than one. */
static size_t like_of(const xmt_segment *target, const xmt_segment *src,
                      size_t i) {
  struct xmt_tag a, b;
  xmt_segment_tag(src, i, &a);
  size_t found = SIZE_MAX;
  for (size_t k = 0; k < xmt_segment_tag_count(target); k++) {
    xmt_segment_tag(target, k, &b);
    if (b.kind == a.kind && b.markup_len == a.markup_len &&
        (a.markup_len == 0 || memcmp(a.markup, b.markup, a.markup_len) == 0) &&
        strcmp(a.id != NULL ? a.id : "", b.id != NULL ? b.id : "") == 0) {
      if (found != SIZE_MAX)
        return SIZE_MAX;
      found = k;
    }
  }
  return found;
}

/* The target made again: its text in text, its codes (target's tags)
 * in the order they go, at offsets of text. */
struct rebuilt {
  struct xmt_buf *text;
  size_t tag[STANDIN_MAX], off[STANDIN_MAX], n;
};

static xmt_status put_text(struct rebuilt *b, const char *s, size_t n) {
  return n > 0 ? xmt_buf_append(b->text, s, n) : XMT_OK;
}

static void put_tag(struct rebuilt *b, size_t tag) {
  b->tag[b->n] = tag;
  b->off[b->n++] = b->text->len;
}

/* A gap of the target's text: its white space run [q, q2) between its
 * non-space bytes c and c + 1, of n in all; at the text's ends the run is
 * the source's own white space, of which keep[0] bytes at the start, and
 * keep[1] at the end, were not beside a code. */
struct gap {
  size_t q, q2, c, n;
  const size_t *keep;
  const size_t *had; /* the gaps of the projected codes, nhad of them */
  size_t nhad;
};

/* The gap with the codes that stand in it (tags[0..m)), in the answer's
 * order, each with the spacing its number had: a space kept or added
 * before the first and after the last, a space between two. Without
 * codes, an end of the text loses the white space a code had beside it. */
static xmt_status put_gap(struct rebuilt *b, const char *text,
                          const struct gap *g, const size_t *tags,
                          const struct found_number *at, size_t m) {
  size_t run = g->q2 - g->q;
  size_t lead = g->keep[0] < run ? g->keep[0] : run;
  size_t trail = g->keep[1] < run ? g->keep[1] : run;
  if (m == 0 && (g->c == 0 || g->c == g->n))
    return g->c == 0 ? put_text(b, text + g->q, lead)
                     : put_text(b, text + g->q2 - trail, trail);
  if (m == 0) {
    /* A code that leaves takes the space the engine echoed for it
     * ("Posted  days ago": "Publicado  hace días"), not the last one. */
    size_t left_by = 0;
    for (size_t i = 0; i < g->nhad; i++)
      left_by += g->had[i] == g->c;
    size_t keep = run > left_by ? run - left_by : run > 0;
    return put_text(b, text + g->q, keep);
  }
  int left = g->c > 0 && at[0].left, right = g->c < g->n && at[m - 1].right;
  size_t before = g->c == 0       ? lead
                  : g->c == g->n  ? run - trail
                  : !left || !run ? 0
                  : right         ? 1
                                  : run;
  xmt_status st = put_text(b, text + g->q, before);
  if (st == XMT_OK && left && before == 0)
    st = put_text(b, " ", 1);
  for (size_t i = 0; st == XMT_OK && i < m; i++) {
    put_tag(b, tags[i]);
    if (i + 1 < m && at[i].right)
      st = put_text(b, " ", 1);
  }
  if (st == XMT_OK && before < run)
    st = put_text(b, text + g->q + before, run - before);
  else if (st == XMT_OK && right)
    st = put_text(b, " ", 1);
  return st;
}

/* The target's text with the codes in their gaps, into b. */
static xmt_status rebuild(struct rebuilt *b, const xmt_segment *target,
                          const size_t *keep, const size_t *tags,
                          const struct found_number *at, const size_t *order,
                          size_t n) {
  size_t tlen, had[STANDIN_MAX];
  const char *tgt = xmt_segment_text(target, &tlen);
  struct gap g = {.keep = keep, .had = had, .nhad = n};
  for (size_t k = 0, i = 0; k < n; k++) {
    struct xmt_tag tag;
    xmt_segment_tag(target, k, &tag);
    for (; i < tag.offset; i++)
      g.n += !space(tgt[i]);
    had[k] = g.n;
  }
  g.n = 0;
  for (size_t i = 0; i < tlen; i++)
    g.n += !space(tgt[i]);
  xmt_buf_reset(b->text);
  b->n = 0;
  xmt_status st = XMT_OK;
  size_t next = 0;
  for (g.c = 0; st == XMT_OK && g.c <= g.n; g.c++) {
    g.q2 = g.q;
    while (g.q2 < tlen && space(tgt[g.q2]))
      g.q2++;
    size_t gtags[STANDIN_MAX];
    struct found_number gat[STANDIN_MAX];
    size_t m = 0;
    for (; next < n && at[order[next]].before == g.c; next++, m++) {
      gtags[m] = tags[order[next]];
      gat[m] = at[order[next]];
    }
    st = put_gap(b, tgt, &g, gtags, gat, m);
    if (st == XMT_OK && g.q2 < tlen)
      st = put_text(b, tgt + g.q2, 1);
    g.q = g.q2 + 1;
  }
  return st;
}

/* keep[0]: bytes of src's leading white space before its first code, if
 * that is in it; keep[1]: of its trailing white space after its last. */
static void edge_space(const xmt_segment *src, size_t lead, size_t core_len,
                       size_t *keep) {
  size_t len, n = xmt_segment_tag_count(src);
  xmt_segment_text(src, &len);
  struct xmt_tag first, last;
  xmt_segment_tag(src, 0, &first);
  xmt_segment_tag(src, n - 1, &last);
  keep[0] = first.offset < lead ? first.offset : lead;
  keep[1] =
      last.offset > lead + core_len ? len - last.offset : len - lead - core_len;
}

xmt_status xmt_standin_place(struct xmt_placer *p, xmt_segment *target,
                             const xmt_segment *src, size_t lead,
                             size_t core_len, const char *ans, size_t alen,
                             size_t *placed) {
  const char *num[STANDIN_MAX];
  size_t n = plan(src, lead, core_len, num);
  struct found_number at[STANDIN_MAX];
  size_t order[STANDIN_MAX], tags[STANDIN_MAX];
  *placed = 0;
  size_t tlen;
  const char *tgt = xmt_segment_text(target, &tlen);
  if (n == 0 || xmt_segment_tag_count(target) != n ||
      !find_numbers(ans, alen, tgt, tlen, num, n, at, order))
    return XMT_OK; /* the projection stands */
  for (size_t k = 0; k < n; k++)
    if ((tags[k] = like_of(target, src, k)) == SIZE_MAX)
      return XMT_OK;
  struct rebuilt b = {.text = &p->text};
  size_t keep[2];
  edge_space(src, lead, core_len, keep);
  xmt_status st = rebuild(&b, target, keep, tags, at, order, n);
  /* The new segment, then the target: its tags are borrowed from it. */
  xmt_segment *out = p->seg;
  xmt_segment_clear(out);
  size_t pos = 0;
  for (size_t i = 0; st == XMT_OK && i < b.n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(target, b.tag[i], &tag);
    st = xmt_segment_append_text(out, b.text->data + pos, b.off[i] - pos);
    pos = b.off[i];
    if (st == XMT_OK)
      st = xmt_segment_append_tag(out, tag.kind, tag.id, tag.name, tag.markup,
                                  tag.markup_len);
  }
  if (st == XMT_OK)
    st = xmt_segment_append_text(out, b.text->len > 0 ? b.text->data + pos : "",
                                 b.text->len - pos);
  if (st == XMT_OK && xmt_segment_check(out, NULL) == XMT_OK) {
    st = xmt_segment_copy(target, out);
    *placed = n;
  }
  return st;
}
