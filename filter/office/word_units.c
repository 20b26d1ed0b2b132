/* word_units.c -- a paragraph's pieces made its source segment: runs of
 * equal properties merged, the base properties found, codes numbered. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_private.h"

/* The local name of the element named at s (after '<'); *len its length. */
static const char *local_name(const char *s, size_t n, size_t *len) {
  size_t end = 0;
  /* the test strchr(" \t\r\n/>", c) == NULL makes, without its call */
  while (end < n && s[end] != ' ' && s[end] != '\t' && s[end] != '\r' &&
         s[end] != '\n' && s[end] != '/' && s[end] != '>' && s[end] != '\0')
    end++;
  const char *colon = memchr(s, ':', end);
  const char *local = colon != NULL ? colon + 1 : s;
  *len = end - (size_t)(local - s);
  return local;
}

/* 1 when the element named at s (after '<') is one the comparison of
 * run properties leaves out: the language and the proofing flag, which
 * a spelling check sets run by run. */
static int ignored(const char *s, size_t n) {
  size_t len;
  const char *local = local_name(s, n, &len);
  return (len == 4 && memcmp(local, "lang", 4) == 0) ||
         (len == 7 && memcmp(local, "noProof", 7) == 0);
}

/* 1 when the element named at s (after '<') is a w:rPrChange. */
static int is_change(const char *s, size_t n) {
  size_t len;
  const char *local = local_name(s, n, &len);
  return len == 9 && memcmp(local, "rPrChange", 9) == 0;
}

/* The start tag at s ('<', n bytes left) of a tracked change of the
 * run's properties (w:rPrChange) appended to out less its w:id: Word
 * gives each run's change an id of its own, so runs whose formatting one
 * revision changed alike would otherwise never be one (they are written
 * with the first one's). Returns the tag's length. */
static size_t change_tag(const char *s, size_t n, struct xmt_buf *out,
                         xmt_status *st) {
  const char *gt = memchr(s, '>', n);
  size_t end = gt != NULL ? (size_t)(gt - s) + 1 : n, i = 0;
  while (i < end && *st == XMT_OK) {
    size_t a = i; /* an attribute: blanks, its name, =, its quoted value */
    while (a < end && strchr(" \t\r\n", s[a]) != NULL)
      a++;
    size_t eq = a;
    while (a > i && eq < end && strchr("= \t\r\n/>", s[eq]) == NULL)
      eq++;
    if (a > i && eq + 1 < end && s[eq] == '=' &&
        (s[eq + 1] == '"' || s[eq + 1] == '\'')) {
      const char *q = memchr(s + eq + 2, s[eq + 1], end - eq - 2);
      size_t stop = q != NULL ? (size_t)(q - s) + 1 : end;
      const char *colon = memchr(s + a, ':', eq - a);
      const char *local = colon != NULL ? colon + 1 : s + a;
      if (s + eq - local != 2 || memcmp(local, "id", 2) != 0)
        *st = xmt_buf_append(out, s + i, stop - i);
      i = stop;
      continue;
    }
    *st = xmt_buf_append(out, s + i, 1);
    i++;
  }
  return end;
}

/* The properties rpr (a w:rPr element, or nothing) as compared, appended
 * to out: its children, less the elements ignored() names (a w:rPr left
 * empty so is none). */
static xmt_status key_of(const char *rpr, size_t n, struct xmt_buf *out) {
  xmt_status st = XMT_OK;
  const char *head = memchr(rpr, '>', n);
  if (head == NULL || head[-1] == '/')
    return st; /* none, or <w:rPr/> */
  size_t from = (size_t)(head - rpr) + 1;
  while (n > from && rpr[n - 1] != '<')
    n--; /* its end tag */
  n = n > from ? n - 1 : from;
  rpr += from;
  n -= from;
  size_t kept = 0; /* bytes [kept, i) go out as they are, at once */
  for (size_t i = 0; i < n && st == XMT_OK;) {
    if (rpr[i] != '<' || i + 1 >= n || rpr[i + 1] == '/') {
      const char *lt = memchr(rpr + i + 1, '<', n - i - 1);
      i = lt != NULL ? (size_t)(lt - rpr) : n;
      continue;
    }
    if (is_change(rpr + i + 1, n - i - 1)) {
      st = xmt_buf_append(out, rpr + kept, i - kept);
      if (st == XMT_OK)
        i += change_tag(rpr + i, n - i, out, &st);
      kept = i;
      continue;
    }
    if (ignored(rpr + i + 1, n - i - 1)) {
      st = xmt_buf_append(out, rpr + kept, i - kept);
      const char *gt = memchr(rpr + i, '>', n - i);
      int empty = gt != NULL && gt > rpr && gt[-1] == '/';
      i = gt != NULL ? (size_t)(gt - rpr) + 1 : n;
      if (!empty && i < n) { /* its end tag too */
        gt = memchr(rpr + i, '>', n - i);
        i = gt != NULL ? (size_t)(gt - rpr) + 1 : n;
      }
      kept = i;
      continue;
    }
    i++;
  }
  return st == XMT_OK ? xmt_buf_append(out, rpr + kept, n - kept) : st;
}

/* DrawingML's a:rPr (a chart's, a SmartArt's text) says its formatting
 * in attributes: those of the start tag at rpr appended to out, less
 * the language (lang, altLang) and the flags a spelling check or an
 * edit sets run by run (dirty, err, noProof, smtClean, smtId, bmk). */
static xmt_status drawing_attrs(const char *rpr, size_t n,
                                struct xmt_buf *out) {
  static const char *const left[] = {"lang",  "altLang", "dirty",
                                     "err",   "noProof", "smtClean",
                                     "smtId", "bmk",     NULL};
  const char *gt = memchr(rpr, '>', n);
  size_t end = gt != NULL ? (size_t)(gt - rpr) : n, i = 1;
  xmt_status st = XMT_OK;
  while (i < end && strchr(" \t\r\n/", rpr[i]) == NULL)
    i++; /* the name */
  while (i < end && st == XMT_OK) {
    while (i < end && strchr(" \t\r\n/", rpr[i]) != NULL)
      i++;
    size_t name = i;
    while (i < end && strchr("= \t\r\n", rpr[i]) == NULL)
      i++;
    size_t name_len = i - name;
    while (i < end && rpr[i] != '"' && rpr[i] != '\'')
      i++;
    const char *q = i < end ? memchr(rpr + i + 1, rpr[i], end - i - 1) : NULL;
    size_t stop = q != NULL ? (size_t)(q - rpr) + 1 : end;
    int keep = name_len > 0;
    for (size_t k = 0; left[k] != NULL && keep; k++)
      keep = !(strlen(left[k]) == name_len &&
               memcmp(rpr + name, left[k], name_len) == 0);
    if (keep)
      st = xmt_buf_append(out, rpr + name, stop - name);
    if (keep && st == XMT_OK)
      st = xmt_buf_append(out, " ", 1);
    i = stop;
  }
  return st;
}

/* The pieces' keys, one after the other in one buffer (not a buffer
 * each: two allocations a paragraph, not one a piece). */
struct keys {
  struct xmt_buf pool; /* each key and its NUL; empty for codes */
  size_t *off;         /* piece i's key at pool.data + off[i] */
  /* same[i]: the first piece whose key is piece i's (keys compared once
   * each, not at each look at two pieces) */
  size_t *same;
  size_t *stretches; /* 2 n: work space of base_of */
  size_t n;
};

/* Piece i's key (every piece has one). */
static const char *key(const struct keys *ks, size_t i) {
  return ks->pool.data != NULL ? ks->pool.data + ks->off[i] : "";
}

/* Piece i's key, rpr and its n bytes as compared (key_of), added. */
static xmt_status add_key(struct keys *ks, size_t i, const char *rpr, size_t n,
                          int drawing) {
  ks->off[i] = ks->pool.len;
  xmt_status st = rpr != NULL && drawing && n > 0
                      ? drawing_attrs(rpr, n, &ks->pool)
                      : XMT_OK;
  if (st == XMT_OK && rpr != NULL)
    st = key_of(rpr, n, &ks->pool);
  return st == XMT_OK ? xmt_buf_append(&ks->pool, "", 1) : st;
}

/* 1 when pieces i and j have the same key. */
static int same_key(const struct keys *ks, size_t i, size_t j) {
  return ks->same[i] == ks->same[j];
}

/* ks->same of the n keys added. */
static void name_keys(struct keys *ks) {
  for (size_t i = 0; i < ks->n; i++) {
    size_t k = 0;
    while (k < i && (ks->same[k] != k || strcmp(key(ks, k), key(ks, i)) != 0))
      k++;
    ks->same[i] = k;
  }
}

static void keys_free(struct keys *ks) {
  xmt_buf_free(&ks->pool);
  free(ks->off);
}

static struct word_code *new_code(struct word_para *p, const char *open,
                                  size_t len) {
  /* grown by half again, not by one a code */
  struct word_code *c =
      xmt_grow_array(p->codes, &p->codes_cap, p->ncodes + 1, sizeof *c);
  if (c == NULL)
    return NULL;
  p->codes = c;
  c = &c[p->ncodes];
  *c = (struct word_code){0};
  c->open = malloc(len + 1);
  if (c->open == NULL)
    return NULL;
  memcpy(c->open, open, len);
  c->open[len] = '\0';
  c->open_len = len;
  p->ncodes++;
  return c;
}

static xmt_status set_close(struct word_code *c, const char *s, size_t len) {
  c->close = malloc(len + 1);
  if (c->close == NULL)
    return XMT_ERR_NOMEM;
  memcpy(c->close, s, len);
  c->close[len] = '\0';
  c->close_len = len;
  return XMT_OK;
}

/* The XLIFF ctype of a code whose first element is at xml: the standard
 * values where one fits (a hyperlink, a line break, a drawing), else
 * "x-w-" and the element's local name (at most 32 bytes of it). Written
 * at out (room for 37 bytes), not NUL-terminated; returns its length. */
static size_t ctype_of(const char *xml, size_t len, char *out) {
  size_t i = len > 0 && xml[0] == '<' ? 1 : len, from = i, colon = i;
  while (i < len && xml[i] != ' ' && xml[i] != '/' && xml[i] != '>' &&
         xml[i] != '\t' && xml[i] != '\r' && xml[i] != '\n') {
    if (xml[i] == ':')
      colon = i + 1;
    i++;
  }
  from = colon > from ? colon : from;
  size_t n = i - from < 32 ? i - from : 32;
  const char *name = xml + from, *fixed = NULL;
  if (n == 9 && memcmp(name, "hyperlink", 9) == 0)
    fixed = "link";
  else if (n == 2 && memcmp(name, "br", 2) == 0)
    fixed = "lb";
  else if ((n == 7 && memcmp(name, "drawing", 7) == 0) ||
           (n == 4 && memcmp(name, "pict", 4) == 0))
    fixed = "image";
  if (fixed != NULL) {
    memcpy(out, fixed, strlen(fixed));
    return strlen(fixed);
  }
  memcpy(out, "x-w-", 4);
  memcpy(out + 4, name, n);
  return 4 + n;
}

/* Appends the n bytes at s to the markup at out, *len bytes long. */
static void put(char *out, size_t *len, const char *s, size_t n) {
  memcpy(out + *len, s, n);
  *len += n;
}

/* A code's tag in the unit stream, in XLIFF's inline markup (<g>, <x/>:
 * what the report, extract and the engines that take markup read); the
 * Word markup stays in the code, which the writer puts back. */
static xmt_status tag(struct word_para *p, enum xmt_tag_kind kind, size_t code,
                      const char *name, const char *part) {
  /* built by hand: snprintf here was among the largest costs of reading
   * a long document (a tag for each code of each paragraph) */
  char id[24], ctype[40], markup[128];
  size_t id_len = 0, len = 0;
  size_t v = code + 1;
  do /* one digit at least */
    id[id_len++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  for (size_t a = 0, b = id_len - 1; a < b; a++, b--) {
    char t = id[a];
    id[a] = id[b];
    id[b] = t;
  }
  id[id_len] = '\0';
  const struct word_code *c = &p->codes[code];
  if (kind == XMT_TAG_CLOSE) {
    put(markup, &len, "</g>", 4);
  } else {
    int x = kind == XMT_TAG_PLACEHOLDER;
    size_t ctype_len = 5;
    if (c->rpr) /* a stretch: the run it is written as */
      memcpy(ctype, "x-w-r", 5);
    else if (c->to > c->from) /* its first element in the part */
      ctype_len = ctype_of(part + c->from, c->to - c->from, ctype);
    else
      ctype_len = ctype_of(c->open, c->open_len, ctype);
    put(markup, &len, x ? "<x id=\"" : "<g id=\"", 7);
    put(markup, &len, id, id_len);
    put(markup, &len, "\" ctype=\"", 9);
    put(markup, &len, ctype, ctype_len);
    put(markup, &len, x ? "\"/>" : "\">", x ? 3 : 2);
  }
  return xmt_segment_append_tag(p->source, kind, id, name, markup, len);
}

/* The code of an isolated piece or of a pair's open, at p->ncodes - 1. */
static struct word_code *add_code(struct word_para *p, const char *pool,
                                  const struct piece *pc) {
  struct word_code *c = new_code(p, pool + pc->off, pc->len);
  if (c == NULL)
    return NULL;
  c->isolated = pc->type == PIECE_ISOLATED;
  c->merged = pc->merged;
  if (c->isolated || pc->merged || pc->type == PIECE_OPEN) {
    c->from = pc->from; /* a pair's: its start tag, when it is in the part */
    c->to = pc->to;
    c->pre_len = pc->pre_len;
    c->values = pc->values;
  }
  return c;
}

/* The last piece of the stretch of equal properties starting at i. */
static size_t stretch_end(const struct piece *pieces, const struct keys *ks,
                          size_t i, size_t hi) {
  size_t j = i;
  while (j + 1 < hi && pieces[j + 1].type == PIECE_TEXT &&
         same_key(ks, j + 1, i))
    j++;
  return j;
}

/* 1 when the stretch of text [i, j] is the whole of a pair between lo
 * and hi: the pair's one code writes its text with the stretch's
 * properties (styled_pair), whatever they are. */
static int wrapped(const struct piece *pieces, size_t i, size_t j, size_t lo,
                   size_t hi) {
  return i > lo && pieces[i - 1].type == PIECE_OPEN && j + 1 < hi &&
         pieces[j + 1].type == PIECE_CLOSE;
}

/* *base: the index of the text piece whose key, taken as the base, leaves the
 * fewest codes in [lo, hi): each stretch of another key is a code (but
 * one that fills a pair), so the base is the key of the most stretches
 * that are not; among those, the key most of the text has. "Click
 * <b>Save</b>." is one code around "Save", although "Save" is most of
 * the text. XMT_ERR_INTERNAL when [lo, hi) has no text. */
static xmt_status base_of(const struct keys *ks, const struct piece *pieces,
                          size_t lo, size_t hi, size_t *base) {
  /* the stretches first, [start[k], end[k]]: each key is weighed once,
   * at the first piece that has it (a later one weighs the same) */
  size_t *start = ks->stretches, *end = start + ks->n, ns = 0;
  for (size_t j = lo; j < hi; j++)
    if (pieces[j].type == PIECE_TEXT) {
      start[ns] = j;
      j = end[ns++] = stretch_end(pieces, ks, j, hi);
    }
  size_t best = SIZE_MAX, best_n = 0, best_len = 0;
  for (size_t c = 0; c < ns; c++) {
    int seen = 0;
    for (size_t k = 0; k < c && !seen; k++)
      seen = same_key(ks, start[k], start[c]);
    if (seen)
      continue;
    size_t len = 0, nstretch = 0;
    for (size_t k = c; k < ns; k++) {
      if (!same_key(ks, start[k], start[c]))
        continue;
      nstretch += !wrapped(pieces, start[k], end[k], lo, hi);
      for (size_t m = start[k]; m <= end[k]; m++)
        len += pieces[m].len;
    }
    if (best == SIZE_MAX || nstretch > best_n ||
        (nstretch == best_n && len > best_len)) {
      best = start[c];
      best_n = nstretch;
      best_len = len;
    }
  }
  *base = best;
  return best == SIZE_MAX ? XMT_ERR_INTERNAL : XMT_OK;
}

/* Text pieces [i, j] into p->source; between the open and close of an
 * "r" code when their properties are not the base ones. */
static xmt_status put_stretch(struct word_para *p, const char *pool,
                              const struct piece *pieces, size_t i, size_t j,
                              int other, const char *part) {
  size_t code = p->ncodes;
  xmt_status st = XMT_OK;
  if (other) {
    const struct piece *pc = &pieces[i];
    /* no close: a stretch's runs are written with its properties */
    struct word_code *c = new_code(p, part + pc->rpr_off, pc->rpr_len);
    st = c == NULL ? XMT_ERR_NOMEM : XMT_OK;
    if (c != NULL)
      c->rpr = 1;
    if (st == XMT_OK)
      st = tag(p, XMT_TAG_OPEN, code, "g", part);
  }
  for (size_t k = i; k <= j && st == XMT_OK; k++)
    st =
        xmt_segment_append_text(p->source, pool + pieces[k].off, pieces[k].len);
  if (other && st == XMT_OK)
    st = tag(p, XMT_TAG_CLOSE, code, "g", part);
  return st;
}

/* A pair (pieces[i], its close pieces[j + 1]) around one stretch of
 * other properties [i + 1, j]: one code, which writes its text with
 * them (a link whose run is styled is one code, not two). */
static xmt_status styled_pair(struct word_para *p, const char *pool,
                              const struct piece *pieces, size_t i, size_t j,
                              const char *part) {
  size_t code = p->ncodes;
  struct word_code *c = add_code(p, pool, &pieces[i]);
  if (c == NULL)
    return XMT_ERR_NOMEM;
  const struct piece *t = &pieces[i + 1];
  c->run_rpr = malloc(t->rpr_len + 1);
  if (c->run_rpr == NULL)
    return XMT_ERR_NOMEM;
  memcpy(c->run_rpr, part + t->rpr_off, t->rpr_len);
  c->run_rpr[t->rpr_len] = '\0';
  xmt_status st = set_close(c, pool + pieces[j + 1].off, pieces[j + 1].len);
  if (st == XMT_OK)
    st = tag(p, XMT_TAG_OPEN, code, "g", part);
  if (st == XMT_OK)
    st = put_stretch(p, pool, pieces, i + 1, j, 0, part);
  return st == XMT_OK ? tag(p, XMT_TAG_CLOSE, code, "g", part) : st;
}

/* The pieces [lo, hi) into p->source: text of the base properties as
 * it is, other stretches between the open and close of an "r" code. */
static xmt_status build(struct word_para *p, const char *pool,
                        const struct piece *pieces, const struct keys *ks,
                        size_t base, const char *part, size_t lo, size_t hi) {
  size_t stack[64], nopen = 0;
  xmt_status st = XMT_OK;
  for (size_t i = lo; i < hi && st == XMT_OK; i++) {
    const struct piece *pc = &pieces[i];
    if (pc->type == PIECE_TEXT) {
      size_t j = stretch_end(pieces, ks, i, hi);
      st = put_stretch(p, pool, pieces, i, j, !same_key(ks, i, base), part);
      i = j;
      continue;
    }
    if (pc->type == PIECE_OPEN && i + 1 < hi &&
        pieces[i + 1].type == PIECE_TEXT && !same_key(ks, i + 1, base)) {
      size_t j = stretch_end(pieces, ks, i + 1, hi);
      if (j + 1 < hi && pieces[j + 1].type == PIECE_CLOSE) {
        st = styled_pair(p, pool, pieces, i, j, part);
        i = j + 1;
        continue;
      }
    }
    if (pc->type == PIECE_CLOSE) {
      if (nopen == 0)
        return XMT_ERR_INTERNAL; /* the reader pairs them */
      size_t code = stack[--nopen];
      st = set_close(&p->codes[code], pool + pc->off, pc->len);
      if (st == XMT_OK)
        st = tag(p, XMT_TAG_CLOSE, code, "g", part);
      continue;
    }
    size_t code = p->ncodes;
    struct word_code *c = add_code(p, pool, pc);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    if (pc->type == PIECE_OPEN && nopen < 64)
      stack[nopen++] = code;
    st = tag(p, c->isolated ? XMT_TAG_PLACEHOLDER : XMT_TAG_OPEN, code,
             c->isolated ? "x" : "g", part);
  }
  return st;
}

static xmt_status add_edge(struct word_para *p, size_t code, int close) {
  struct word_edge *e = realloc(p->edges, (p->nedges + 1) * sizeof *e);
  if (e == NULL)
    return XMT_ERR_NOMEM;
  p->edges = e;
  e[p->nedges++] = (struct word_edge){code, close};
  return XMT_OK;
}

/* The codes of the pieces outside [lo, hi): not in the source, written
 * around the target (pieces before lo isolated or opens, those from hi
 * isolated or their closes). */
static xmt_status build_edges(struct word_para *p, const char *pool,
                              const struct piece *pieces, size_t n, size_t lo,
                              size_t hi) {
  size_t stack[64], nopen = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    if (i == lo) {
      p->nlead = p->nedges;
      i = hi - 1;
      continue;
    }
    const struct piece *pc = &pieces[i];
    if (pc->type == PIECE_CLOSE) {
      if (nopen == 0)
        return XMT_ERR_INTERNAL;
      size_t code = stack[--nopen];
      st = set_close(&p->codes[code], pool + pc->off, pc->len);
      if (st == XMT_OK)
        st = add_edge(p, code, 1);
      continue;
    }
    size_t code = p->ncodes;
    if (add_code(p, pool, pc) == NULL)
      return XMT_ERR_NOMEM;
    if (pc->type == PIECE_OPEN && nopen == 64)
      return XMT_ERR_INTERNAL;
    if (pc->type == PIECE_OPEN)
      stack[nopen++] = code;
    st = add_edge(p, code, 0);
  }
  return st;
}

/* The properties most of the text has, copied into p->base_rpr. */
static xmt_status set_base(struct word_para *p, const struct piece *b,
                           const char *part) {
  p->base_rpr = malloc(b->rpr_len + 1);
  if (p->base_rpr == NULL)
    return XMT_ERR_NOMEM;
  memcpy(p->base_rpr, part + b->rpr_off, b->rpr_len);
  p->base_rpr[b->rpr_len] = '\0';
  return XMT_OK;
}

/* Room in source for the text of the pieces and their tags at once, not
 * grown tag by tag: a piece of text two tags at most, a code one (a
 * pair's open and close are two pieces), each its id, name and markup
 * (an open about 30 bytes, a close 9). */
static xmt_status reserve(xmt_segment *source, const struct piece *pieces,
                          size_t n) {
  size_t text = 0, tags = 0;
  for (size_t i = 0; i < n; i++) {
    int t = pieces[i].type == PIECE_TEXT;
    text += t ? pieces[i].len : 0;
    tags += t ? 2 : 1;
  }
  return xmt_segment_reserve(source, text, tags * 20, tags);
}

xmt_status xmt_word_para_finish(struct word_para *p, const char *pool,
                                struct piece *pieces, size_t n,
                                const char *part) {
  n = xmt_word_fewer_codes(pieces, n, part);
  /* one allocation: each piece's key offset and key, two for base_of */
  struct keys ks = {.off = malloc(4 * (n > 0 ? n : 1) * sizeof *ks.off),
                    .n = n};
  ks.same = ks.off != NULL ? ks.off + n : NULL;
  ks.stretches = ks.off != NULL ? ks.off + 2 * n : NULL;
  p->source = xmt_segment_new();
  xmt_status st = ks.off != NULL && p->source != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t i = 0; i < n && st == XMT_OK; i++)
    st = pieces[i].type == PIECE_TEXT
             ? add_key(&ks, i, part + pieces[i].rpr_off, pieces[i].rpr_len,
                       p->drawing)
             : add_key(&ks, i, NULL, 0, 0);
  if (st == XMT_OK)
    name_keys(&ks);
  if (st == XMT_OK)
    st = reserve(p->source, pieces, n);
  size_t lo = 0, hi = n, base = 0;
  xmt_word_edges(pieces, n, &lo, &hi);
  if (st == XMT_OK)
    st = base_of(&ks, pieces, lo, hi, &base);
  if (st == XMT_OK)
    st = set_base(p, &pieces[base], part);
  if (st == XMT_OK)
    st = build(p, pool, pieces, &ks, base, part, lo, hi);
  p->nsource = p->ncodes;
  if (st == XMT_OK)
    st = build_edges(p, pool, pieces, n, lo, hi);
  keys_free(&ks);
  if (st != XMT_OK)
    xmt_word_para_free(p);
  return st;
}

static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
}

int xmt_word_same_source(const struct word_para *a, const struct word_para *b) {
  size_t al, bl, n = xmt_segment_tag_count(a->source);
  const char *at = xmt_segment_text(a->source, &al);
  const char *bt = xmt_segment_text(b->source, &bl);
  if (al != bl || memcmp(at, bt, al) != 0 ||
      xmt_segment_tag_count(b->source) != n || a->ncodes != b->ncodes)
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag x, y;
    if (xmt_segment_tag(a->source, i, &x) != XMT_OK ||
        xmt_segment_tag(b->source, i, &y) != XMT_OK || x.offset != y.offset ||
        x.kind != y.kind || side_of(x.kind) != side_of(y.kind) ||
        strcmp(x.id, y.id) != 0)
      return 0;
  }
  for (size_t i = 0; i < a->ncodes; i++)
    if (a->codes[i].isolated != b->codes[i].isolated ||
        a->codes[i].rpr != b->codes[i].rpr ||
        (a->codes[i].run_rpr == NULL) != (b->codes[i].run_rpr == NULL))
      return 0;
  return 1;
}

void xmt_word_para_free(struct word_para *p) {
  for (size_t i = 0; i < p->ncodes; i++) {
    free(p->codes[i].open);
    free(p->codes[i].close);
    free(p->codes[i].run_rpr);
  }
  free(p->codes);
  free(p->edges);
  free(p->base_rpr);
  free(p->instr_text);
  xmt_segment_free(p->source);
  xmt_segment_free(p->target);
  memset(p, 0, sizeof *p);
}
