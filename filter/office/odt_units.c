/* odt_units.c -- a paragraph's pieces made its source segment: text whose
 * spans show alike merged into one stretch, the stretch most of the text
 * is in the paragraph's base, any other stretch a paired code. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odt_private.h"

static char *dup_bytes(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d != NULL) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* The end tags of the start tags in open, innermost first. */
static char *end_tags(const char *open, size_t n, size_t *len) {
  struct xmt_buf out = {0};
  xmt_status st = xmt_buf_append(&out, "", 0);
  for (size_t k = n; k > 0 && st == XMT_OK; k--) {
    if (open[k - 1] != '<')
      continue;
    const char *name = open + k;
    size_t nl = strcspn(name, " \t\r\n/>");
    st = xmt_buf_append(&out, "</", 2);
    if (st == XMT_OK)
      st = xmt_buf_append(&out, name, nl);
    if (st == XMT_OK)
      st = xmt_buf_append(&out, ">", 1);
  }
  if (st != XMT_OK) {
    xmt_buf_free(&out);
    return NULL;
  }
  *len = out.len;
  return out.data != NULL ? out.data : dup_bytes("", 0);
}

static int same_key(const char *pool, const struct odt_piece *a,
                    const struct odt_piece *b) {
  return a->key_len == b->key_len &&
         memcmp(pool + a->key_off, pool + b->key_off, a->key_len) == 0;
}

/* The index of the text piece whose key most of the text has. */
static size_t base_of(const char *pool, const struct odt_piece *pieces,
                      size_t n) {
  size_t best = SIZE_MAX, best_len = 0;
  for (size_t i = 0; i < n; i++) {
    if (pieces[i].type != ODT_TEXT)
      continue;
    size_t len = 0;
    for (size_t j = 0; j < n; j++)
      if (pieces[j].type == ODT_TEXT && same_key(pool, &pieces[i], &pieces[j]))
        len += pieces[j].len;
    if (best == SIZE_MAX || len > best_len) {
      best = i;
      best_len = len;
    }
  }
  return best;
}

static struct odt_code *new_code(struct odt_para *p) {
  struct odt_code *c = realloc(p->codes, (p->ncodes + 1) * sizeof *c);
  if (c == NULL)
    return NULL;
  p->codes = c;
  c = &c[p->ncodes++];
  *c = (struct odt_code){0};
  return c;
}

/* The ctype of a code: "link" for text:a, "bold", "italic" or
 * "underline" are not told apart (x-odt-span), any other "x-odt-" its
 * element's local name ("x-odt-s", "x-odt-note", "x-odt-meta"). */
static void ctype_of(const struct odt_code *c, const char *part, char *buf,
                     size_t cap) {
  if (c->span) {
    snprintf(buf, cap, "x-odt-span");
    return;
  }
  const char *name = c->isolated ? part + c->from + 1 : c->open + 1;
  size_t n = strcspn(name, " \t\r\n/>");
  const char *colon = memchr(name, ':', n);
  if (colon != NULL) {
    n -= (size_t)(colon + 1 - name);
    name = colon + 1;
  }
  if (!c->isolated && n == 1 && name[0] == 'a') {
    snprintf(buf, cap, "link");
    return;
  }
  size_t k = 6; /* cap is 48 */
  memcpy(buf, "x-odt-", k);
  for (size_t i = 0; i < n && k + 1 < cap; i++)
    if ((name[i] >= 'a' && name[i] <= 'z') ||
        (name[i] >= '0' && name[i] <= '9') || name[i] == '-')
      buf[k++] = name[i];
  buf[k] = '\0';
}

/* The code's tag in p->source, its markup XLIFF 1.2's (what the unit
 * stream reads); the code's own bytes stay in the code. */
static xmt_status tag(struct odt_para *p, enum xmt_tag_kind kind, size_t code,
                      const char *part) {
  char id[24], ctype[48], markup[128];
  snprintf(id, sizeof id, "%zu", code + 1);
  const struct odt_code *c = &p->codes[code];
  ctype_of(c, part, ctype, sizeof ctype);
  const char *name = c->isolated ? "x" : "g";
  if (kind == XMT_TAG_CLOSE)
    snprintf(markup, sizeof markup, "</g>");
  else
    snprintf(markup, sizeof markup, "<%s id=\"%zu\" ctype=\"%s\"%s>", name,
             code + 1, ctype, c->isolated ? "/" : "");
  return xmt_segment_append_tag(p->source, kind, id, name, markup,
                                strlen(markup));
}

/* A stretch of text pieces [i, j] whose spans show other than the base:
 * its code (the spans of its first piece), opened and closed around it. */
static xmt_status stretch(struct odt_para *p, const char *pool,
                          const struct odt_piece *pieces, size_t i, size_t j,
                          int other) {
  size_t code = p->ncodes;
  xmt_status st = XMT_OK;
  if (other) {
    struct odt_code *c = new_code(p);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    c->span = 1;
    c->open = dup_bytes(pool + pieces[i].spans_off, pieces[i].spans_len);
    c->open_len = pieces[i].spans_len;
    c->close = end_tags(pool + pieces[i].spans_off, pieces[i].spans_len,
                        &c->close_len);
    st = c->open != NULL && c->close != NULL ? XMT_OK : XMT_ERR_NOMEM;
    if (st == XMT_OK)
      st = tag(p, XMT_TAG_OPEN, code, "");
  }
  for (size_t k = i; k <= j && st == XMT_OK; k++)
    st =
        xmt_segment_append_text(p->source, pool + pieces[k].off, pieces[k].len);
  if (other && st == XMT_OK)
    st = tag(p, XMT_TAG_CLOSE, code, "");
  return st;
}

/* The pieces into p->source. */
static xmt_status build(struct odt_para *p, const char *pool,
                        const struct odt_piece *pieces, size_t n, size_t base,
                        const char *part) {
  size_t stack[64], nopen = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    const struct odt_piece *pc = &pieces[i];
    if (pc->type == ODT_TEXT) {
      size_t j = i; /* the stretch [i, j] that shows alike */
      while (j + 1 < n && pieces[j + 1].type == ODT_TEXT &&
             same_key(pool, &pieces[j + 1], pc))
        j++;
      st = stretch(p, pool, pieces, i, j, !same_key(pool, pc, &pieces[base]));
      i = j;
      continue;
    }
    if (pc->type == ODT_CLOSE) {
      if (nopen == 0)
        return XMT_ERR_INTERNAL; /* the reader pairs them */
      size_t code = stack[--nopen];
      struct odt_code *c = &p->codes[code];
      c->close = dup_bytes(pool + pc->off, pc->len);
      c->close_len = pc->len;
      st = c->close != NULL ? tag(p, XMT_TAG_CLOSE, code, part) : XMT_ERR_NOMEM;
      continue;
    }
    size_t code = p->ncodes;
    struct odt_code *c = new_code(p);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    c->isolated = pc->type == ODT_ISOLATED;
    c->from = pc->from;
    c->to = pc->to;
    if (!c->isolated) {
      c->open = dup_bytes(pool + pc->off, pc->len);
      c->open_len = pc->len;
      if (c->open == NULL)
        return XMT_ERR_NOMEM;
      if (nopen == 64)
        return XMT_ERR_INTERNAL; /* the reader opens at most 32 */
      stack[nopen++] = code;
    }
    st = tag(p, c->isolated ? XMT_TAG_PLACEHOLDER : XMT_TAG_OPEN, code, part);
  }
  return st;
}

xmt_status xmt_odt_para_finish(struct odt_para *p, const char *pool,
                               const struct odt_piece *pieces, size_t n,
                               const char *part) {
  p->source = xmt_segment_new();
  size_t base = base_of(pool, pieces, n); /* there is text: not SIZE_MAX */
  xmt_status st = p->source != NULL ? XMT_OK : XMT_ERR_NOMEM;
  if (st == XMT_OK) {
    const struct odt_piece *b = &pieces[base];
    p->base_open = dup_bytes(pool + b->spans_off, b->spans_len);
    p->base_close = end_tags(pool + b->spans_off, b->spans_len, &(size_t){0});
    if (p->base_open == NULL || p->base_close == NULL)
      st = XMT_ERR_NOMEM;
  }
  if (st == XMT_OK)
    st = build(p, pool, pieces, n, base, part);
  if (st != XMT_OK)
    xmt_odt_para_free(p);
  return st;
}

void xmt_odt_para_free(struct odt_para *p) {
  for (size_t i = 0; i < p->ncodes; i++) {
    free(p->codes[i].open);
    free(p->codes[i].close);
  }
  free(p->codes);
  free(p->base_open);
  free(p->base_close);
  free(p->styles);
  xmt_segment_free(p->source);
  xmt_segment_free(p->target);
  memset(p, 0, sizeof *p);
}

xmt_status xmt_odt_add_value(struct odt_doc *doc, size_t from, size_t to,
                             const char *text) {
  if (xmt_office_blank(text, strlen(text)))
    return XMT_OK;
  struct odt_para *p =
      xmt_grow_one(&doc->paras, doc->npara, &doc->cap, sizeof *p);
  if (p == NULL)
    return XMT_ERR_NOMEM;
  *p =
      (struct odt_para){.start = from, .head_end = from, .end = to, .value = 1};
  p->source = xmt_segment_new();
  xmt_status st = p->source != NULL
                      ? xmt_segment_append_text(p->source, text, strlen(text))
                      : XMT_ERR_NOMEM;
  if (st != XMT_OK)
    xmt_odt_para_free(p);
  else
    doc->npara++;
  return st;
}

void xmt_odt_paras_free(struct odt_doc *doc) {
  for (size_t i = 0; i < doc->npara; i++)
    xmt_odt_para_free(&doc->paras[i]);
  free(doc->paras);
  doc->paras = NULL;
  doc->npara = doc->cap = 0;
}
