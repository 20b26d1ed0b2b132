/* write_codes.c -- the content of a translated XLIFF 2 target: the run's
 * text with, for each code it placed, the markup of the source code it
 * stands for. Every code of the source is written once: one the run did
 * not place (none should be lost, canDelete="no" or not) is put back at
 * the end, in source order, and said; a canReorder sequence keeps its
 * order; an end placed before its start is swapped with it; a <pc> or <mrk>
 * whose ends the run left apart, or not well nested, is written as <sc>/<ec>
 * (<sm>/<em>) with its attributes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "write_private.h"

static int closing(enum xmt_tag_kind k) {
  return k == XMT_TAG_CLOSE || k == XMT_TAG_ISOLATED_CLOSE;
}

static int is_span(const struct x2_code *x) {
  return (x->elem == X2_PC || x->elem == X2_MRK) &&
         x->kind != XMT_TAG_PLACEHOLDER;
}

/* 1 when code k is one of c's (a part of a split segment holds some of
 * its source's codes). */
static int inside(const struct x2_content *c, size_t k) {
  return k != X2_NONE && k >= c->first_code && k < c->first_code + c->ncodes;
}

static int fail(struct writer *w, xmt_status st) {
  if (w->st == XMT_OK)
    w->st = st;
  return 0;
}

/* Room for n codes of a segment in the writer's arrays, and for items
 * more items: add_item then stores without a test. */
static int make_room(struct writer *w, size_t n, size_t items) {
  if (w->items == NULL || w->items_cap < items + 1) {
    struct placed *grown =
        xmt_grow_array(w->items, &w->items_cap, items + 1, sizeof *grown);
    if (grown == NULL)
      return fail(w, XMT_ERR_NOMEM);
    w->items = grown;
  }
  size_t *index = w->index;
  if (index == NULL || w->index_cap < 2 * n + 4) {
    index = xmt_grow_array(w->index, &w->index_cap, 2 * n + 4, sizeof *index);
    if (index == NULL)
      return fail(w, XMT_ERR_NOMEM);
    w->index = index;
  }
  unsigned char *used = w->used;
  if (used == NULL || w->used_cap < n + 1) {
    used = xmt_grow_array(w->used, &w->used_cap, n + 1, 1);
    if (used == NULL)
      return fail(w, XMT_ERR_NOMEM);
    w->used = used;
  }
  memset(used, 0, n + 1);
  for (size_t i = 0; i < 2 * n + 4; i++)
    index[i] = X2_NONE;
  return 1;
}

/* Within the room make_room made: a segment's codes are counted first. */
static void add_item(struct writer *w, size_t offset, size_t code, int split) {
  struct placed *item = &w->items[w->nitems++];
  item->offset = offset;
  item->code = code;
  item->split = (unsigned char)split;
}

/* A code's number from its id, as units.c wrote it (decimal digits), or
 * 0: strtoul cost a tenth of writing a target. */
static size_t code_number(const char *id) {
  size_t n = 0;
  const char *p = id;
  for (; *p >= '0' && *p <= '9' && n <= SIZE_MAX / 10 - 1; p++)
    n = n * 10 + (size_t)(*p - '0');
  return p > id && *p == '\0' ? n : 0;
}

/* The run's codes as the source codes they stand for, in w->items; the
 * codes are numbered up to whole. A code placed twice is written once
 * (*dropped counts the others). */
static int lay_out(struct writer *w, const struct x2_content *src, size_t whole,
                   const xmt_segment *target, size_t *dropped) {
  const struct x2_code *codes = w->doc->codes;
  size_t ntags = xmt_segment_tag_count(target);
  /* each tag one item at most, and put_back one for each code left */
  if (!make_room(w, whole, ntags + src->ncodes))
    return 0;
  for (size_t k = src->first_code; k < src->first_code + src->ncodes; k++)
    if (codes[k].number <= whole + 1)
      w->index[2 * codes[k].number + (size_t)closing(codes[k].kind)] = k;
  w->nitems = 0;
  for (size_t i = 0; i < ntags; i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(target, i, &t) != XMT_OK)
      return fail(w, XMT_ERR_INTERNAL);
    size_t n = t.id != NULL ? code_number(t.id) : 0;
    size_t k = n > 0 && n <= whole + 1
                   ? w->index[2 * n + (size_t)closing(t.kind)]
                   : X2_NONE;
    if (k == X2_NONE)
      return fail(w, xmt_error_set(w->err, XMT_ERR_INTERNAL,
                                   "the target has a code (id \"%s\") its "
                                   "source does not have",
                                   t.id != NULL ? t.id : ""));
    if (w->used[k - src->first_code]++) {
      (*dropped)++;
      continue;
    }
    int split =
        (t.kind == XMT_TAG_ISOLATED_OPEN || t.kind == XMT_TAG_ISOLATED_CLOSE) &&
        is_span(&codes[k]);
    add_item(w, t.offset, k, split);
  }
  return 1;
}

/* The codes the run did not place, at the end in source order; their
 * number, and in what (the first few) which they are. */
static size_t put_back(struct writer *w, const struct x2_content *src,
                       size_t len, char *what, size_t size) {
  size_t n = 0, at = 0;
  what[0] = '\0';
  for (size_t j = 0; j < src->ncodes; j++) {
    if (w->used[j])
      continue;
    const struct x2_code *x = &w->doc->codes[src->first_code + j];
    add_item(w, len, src->first_code + j, 0);
    n++;
    size_t tag = x->end - x->start;
    if (at + tag + 8 < size) {
      at +=
          (size_t)snprintf(what + at, size - at, "%s%.*s%s", at > 0 ? " " : "",
                           (int)tag, w->doc->data.data + x->start,
                           x->can_delete ? "" : " (canDelete=\"no\")");
    }
  }
  return n;
}

/* Where each source code of the segment is among the items. */
static void positions(struct writer *w, const struct x2_content *src) {
  for (size_t i = 0; i < w->nitems; i++)
    w->index[w->items[i].code - src->first_code] = i;
}

/* The codes of a canReorder sequence (firstNo, then the codes with "no"
 * after it in the source) back in their source order, at the places the
 * run gave the sequence. */
static void keep_sequences(struct writer *w, const struct x2_content *src) {
  if (src->ncodes == 0)
    return; /* a document without codes has no array to point into */
  const struct x2_code *codes = w->doc->codes + src->first_code;
  for (size_t j = 0; j < src->ncodes; j++) {
    if (codes[j].reorder != X2_REORDER_FIRST_NO)
      continue;
    size_t end = j + 1;
    while (end < src->ncodes && codes[end].reorder == X2_REORDER_NO)
      end++;
    positions(w, src);
    /* Its places among the items, in order: insertion sort, as a sequence
     * is a few codes. */
    size_t *at = w->index + src->ncodes + 1;
    for (size_t k = j; k < end; k++) {
      size_t p = w->index[k], m = k - j;
      while (m > 0 && at[m - 1] > p) {
        at[m] = at[m - 1];
        m--;
      }
      at[m] = p;
    }
    /* w->used is free by now: each code's split, as it moves */
    for (size_t k = j; k < end; k++)
      w->used[k] = w->items[w->index[k]].split;
    for (size_t k = j; k < end; k++) {
      w->items[at[k - j]].code = src->first_code + k;
      w->items[at[k - j]].split = w->used[k];
    }
    j = end - 1;
  }
}

/* The ends of a pair in order, and a pc or mrk pair well nested among the
 * others, or split. */
static void order_pairs(struct writer *w, const struct x2_content *src) {
  const struct x2_code *codes = w->doc->codes;
  positions(w, src);
  for (size_t i = 0; i < w->nitems; i++) {
    const struct x2_code *x = &codes[w->items[i].code];
    if (x->kind != XMT_TAG_CLOSE || !inside(src, x->partner))
      continue;
    size_t p = w->index[x->partner - src->first_code];
    if (p > i) { /* its start comes after it: they change places */
      size_t c = w->items[i].code;
      w->items[i].code = w->items[p].code;
      w->items[p].code = c;
      w->index[w->items[i].code - src->first_code] = i;
      w->index[w->items[p].code - src->first_code] = p;
    }
  }
  for (size_t i = 0; i < w->nitems; i++) {
    const struct x2_code *x = &codes[w->items[i].code];
    if (is_span(x) && !inside(src, x->partner)) /* cut by a sentence */
      w->items[i].split = 1;
    else if (w->items[i].split && is_span(x))
      w->items[w->index[x->partner - src->first_code]].split = 1;
  }
}

/* Splits the pc and mrk pairs that are not well nested, one at a time
 * until the rest are. The stack is the top of w->index. */
static void nest_pairs(struct writer *w, const struct x2_content *src) {
  const struct x2_code *codes = w->doc->codes;
  size_t *stack = w->index + src->ncodes + 1;
  for (int changed = 1; changed;) {
    changed = 0;
    size_t depth = 0;
    for (size_t i = 0; i < w->nitems && !changed; i++) {
      const struct x2_code *x = &codes[w->items[i].code];
      if (!is_span(x) || w->items[i].split)
        continue;
      if (x->kind == XMT_TAG_OPEN) {
        stack[depth++] = i;
      } else if (depth > 0 && w->items[stack[depth - 1]].code == x->partner) {
        depth--;
      } else {
        w->items[i].split = 1;
        w->items[w->index[x->partner - src->first_code]].split = 1;
        changed = 1;
      }
    }
  }
}

/* Attribute renames of a pc or mrk written as its start or end code. */
static const char *renamed(const char *name, size_t len, int end, int mrk) {
  static const char *const bases[] = {"dataRef", "disp", "equiv", "subFlows"};
  if (mrk)
    return !end                                     ? ""
           : len == 2 && memcmp(name, "id", 2) == 0 ? "startRef"
                                                    : NULL;
  if (end && len == 2 && memcmp(name, "id", 2) == 0)
    return "startRef";
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    size_t b = strlen(bases[i]);
    if (len <= b || memcmp(name, bases[i], b) != 0)
      continue;
    const char *rest = name + b;
    size_t r = len - b;
    if (r == 5 && memcmp(rest, "Start", 5) == 0)
      return end ? NULL : bases[i];
    if (r == 3 && memcmp(rest, "End", 3) == 0)
      return end ? bases[i] : NULL;
  }
  /* a base name as it is (dataRef on a <pc>, which the schema does not
   * allow and check rejects) would be written twice beside its renamed
   * twin: dropped */
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++)
    if (len == strlen(bases[i]) && memcmp(name, bases[i], len) == 0)
      return NULL;
  return ""; /* kept as it is */
}

/* The start tag of a pc (mrk) written as an sc (sm), or as the ec (em)
 * that ends it: the same prefix and attributes, renamed. */
static void put_split(struct writer *w, const char *tag, size_t len, int end,
                      int mrk) {
  size_t i = 1;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '/' && tag[i] != '>')
    i++;
  size_t local = i - (mrk ? 3 : 2);
  xmt_x2w_put(w, tag, local);
  xmt_x2w_put(w, mrk ? (end ? "em" : "sm") : (end ? "ec" : "sc"), 2);
  for (;;) {
    while (i < len && xmt_is_xml_space(tag[i]))
      i++;
    size_t ns = i;
    while (i < len && tag[i] != '=' && !xmt_is_xml_space(tag[i]) &&
           tag[i] != '/' && tag[i] != '>')
      i++;
    size_t ne = i;
    while (i < len && tag[i] != '"' && tag[i] != '\'')
      i++;
    if (ne == ns || i >= len)
      break;
    char quote = tag[i];
    size_t vs = i;
    for (i++; i < len && tag[i] != quote; i++)
      ;
    i++;
    const char *name = renamed(tag + ns, ne - ns, end, mrk);
    if (name == NULL)
      continue;
    xmt_x2w_put(w, " ", 1);
    if (name[0] != '\0')
      xmt_x2w_put(w, name, strlen(name));
    else
      xmt_x2w_put(w, tag + ns, ne - ns);
    xmt_x2w_put(w, "=", 1);
    xmt_x2w_put(w, tag + vs, i - vs);
  }
  xmt_x2w_put(w, "/>", 2);
}

int xmt_x2w_lone(const struct x2_code *x) {
  return (x->elem == X2_SC || x->elem == X2_EC || x->elem == X2_SM ||
          x->elem == X2_EM) &&
         (x->kind == XMT_TAG_ISOLATED_OPEN ||
          x->kind == XMT_TAG_ISOLATED_CLOSE);
}

/* An attribute of the tag at tag (len bytes) from *i on: its name and
 * its value with the quotes; 0 when there is none. */
static int next_attr(const char *tag, size_t len, size_t *i, size_t *ns,
                     size_t *ne, size_t *vs, size_t *ve) {
  while (*i < len && xmt_is_xml_space(tag[*i]))
    (*i)++;
  *ns = *i;
  while (*i < len && tag[*i] != '=' && !xmt_is_xml_space(tag[*i]) &&
         tag[*i] != '/' && tag[*i] != '>')
    (*i)++;
  *ne = *i;
  while (*i < len && tag[*i] != '"' && tag[*i] != '\'')
    (*i)++;
  if (*ne == *ns || *i >= len)
    return 0;
  char quote = tag[*i];
  *vs = *i;
  for ((*i)++; *i < len && tag[*i] != quote; (*i)++)
    ;
  *ve = ++*i;
  return 1;
}

void xmt_x2w_put_isolated(struct writer *w, const struct x2_code *x) {
  /* A marker has no isolated form (XLIFF 2.0 4.2.3.7, 4.2.3.8: an
   * <sm>'s <em> is in its unit): one whose partner is outside the match
   * is left out, the text it marks kept; an annotation is not needed
   * for a proposal to be right. */
  if (x->elem == X2_SM || x->elem == X2_EM)
    return;
  const char *tag = w->doc->data.data + x->start;
  size_t len = x->end - x->start, i = 1, ns, ne, vs, ve;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '/' && tag[i] != '>')
    i++;
  xmt_x2w_put(w, tag, i);
  while (next_attr(tag, len, &i, &ns, &ne, &vs, &ve)) {
    if (ne - ns == 8 && memcmp(tag + ns, "isolated", 8) == 0)
      continue;
    xmt_x2w_put(w, " ", 1);
    /* an isolated <ec> names itself: its startRef is its id */
    if (x->elem == X2_EC && ne - ns == 8 &&
        memcmp(tag + ns, "startRef", 8) == 0)
      xmt_x2w_put(w, "id", 2);
    else
      xmt_x2w_put(w, tag + ns, ne - ns);
    xmt_x2w_put(w, "=", 1);
    xmt_x2w_put(w, tag + vs, ve - vs);
  }
  xmt_x2w_put_str(w, " isolated=\"yes\"/>");
}

void xmt_x2w_put_code(struct writer *w, const struct placed *p) {
  const struct x2_code *codes = w->doc->codes, *x = &codes[p->code];
  const char *d = w->doc->data.data;
  if (!p->split && w->in_match && xmt_x2w_lone(x)) {
    xmt_x2w_put_isolated(w, x);
    return;
  }
  if (!p->split) {
    xmt_x2w_put(w, d + x->start, x->end - x->start);
    return;
  }
  const struct x2_code *start =
      x->kind == XMT_TAG_OPEN ? x : &codes[x->partner];
  put_split(w, d + start->start, start->end - start->start,
            x->kind != XMT_TAG_OPEN, x->elem == X2_MRK);
}

/* Escaped straight into the output, not into a buffer copied there. */
static void put_text(struct writer *w, const char *s, size_t len) {
  if (w->st == XMT_OK && len > 0)
    w->st = xmt_xml_escape_text(&w->out, s, len);
  xmt_x2w_put(w, s, 0); /* a full block handed over, as a put does */
}

/* Tells that codes were put back or dropped. */
static void tell(struct writer *w, const struct x2_segment *s, size_t missing,
                 const char *what, size_t dropped) {
  if (w->warn == NULL || (missing == 0 && dropped == 0))
    return;
  char msg[512];
  if (missing > 0)
    snprintf(msg, sizeof msg,
             "%zu code%s of the source put back at the end of the target: "
             "%s",
             missing, missing == 1 ? "" : "s", what);
  else
    snprintf(msg, sizeof msg, "%zu code%s placed twice written once", dropped,
             dropped == 1 ? "" : "s");
  unsigned long line, column;
  xmt_x2_locate(w->doc, s->start, &line, &column);
  w->warn(w->warn_user, x2_str(w->doc, s->key), line, msg);
}

void xmt_x2w_content(struct writer *w, const struct x2_segment *s,
                     const struct x2_content *src, const xmt_segment *target) {
  size_t len, dropped = 0, at = 0;
  const char *text = xmt_segment_text(target, &len);
  char what[256];
  if (w->st != XMT_OK)
    return;
  if (src->ncodes == 0 && xmt_segment_tag_count(target) == 0) {
    put_text(w, text, len); /* no code to lay out */
    return;
  }
  if (!lay_out(w, src, s->source.ncodes, target, &dropped))
    return;
  size_t missing = put_back(w, src, len, what, sizeof what);
  if (w->st != XMT_OK)
    return;
  keep_sequences(w, src);
  order_pairs(w, src);
  nest_pairs(w, src);
  for (size_t i = 0; i < w->nitems; i++) {
    size_t off = w->items[i].offset > at ? w->items[i].offset : at;
    put_text(w, text + at, off - at);
    xmt_x2w_put_code(w, &w->items[i]);
    at = off;
  }
  put_text(w, text + at, len - at);
  tell(w, s, missing, what, dropped);
}

void xmt_x2w_free(struct writer *w) {
  xmt_buf_free(&w->out);
  xmt_buf_free(&w->enc);
  xmt_buf_free(&w->tag);
  xmt_buf_free(&w->text);
  xmt_buf_free(&w->attr);
  xmt_buf_free(&w->ttags.b);
  free(w->items);
  free(w->index);
  free(w->used);
  xmt_memo_free(&w->given);
}
