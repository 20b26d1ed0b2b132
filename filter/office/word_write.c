/* word_write.c -- a part written again: each paragraph with a target
 * gets its kept head (start tag and w:pPr), then its target as runs: a
 * stretch of text in a run with the properties it came from (the
 * paragraph's base ones outside an "r" code), the language set to the
 * target's; codes give back their markup, a drawing's with its text
 * boxes' paragraphs written in the same way. Every other byte is the
 * part's own. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_private.h"

/* Appends "<prefix:" + rest, or "</prefix:" when end. */
static xmt_status put_name(struct xmt_buf *out, const char *prefix, int end,
                           const char *rest) {
  xmt_status st = xmt_buf_append_str(out, end ? "</" : "<");
  if (st == XMT_OK && prefix[0] != '\0') {
    st = xmt_buf_append_str(out, prefix);
    if (st == XMT_OK)
      st = xmt_buf_append(out, ":", 1);
  }
  return st == XMT_OK ? xmt_buf_append_str(out, rest) : st;
}

/* The element named local (after "<prefix:") in rpr, or NULL. */
static const char *find_element(const char *rpr, const char *prefix,
                                const char *local) {
  size_t pn = strlen(prefix), ln = strlen(local);
  for (const char *s = strchr(rpr, '<'); s != NULL; s = strchr(s + 1, '<')) {
    const char *name = s + 1;
    if (pn > 0 && (strncmp(name, prefix, pn) != 0 || name[pn] != ':'))
      continue;
    name += pn > 0 ? pn + 1 : 0;
    if (strncmp(name, local, ln) == 0 && strchr(" \t\r\n/>", name[ln]) != NULL)
      return s;
  }
  return NULL;
}

/* The element named local among rpr's own, not in the former
 * properties a tracked change (w:rPrChange, the last) holds; or NULL. */
static const char *find_own(const char *rpr, const char *prefix,
                            const char *local) {
  const char *s = find_element(rpr, prefix, local);
  const char *change = find_element(rpr, prefix, "rPrChange");
  return s != NULL && change != NULL && s > change ? NULL : s;
}

/* rpr with its w:lang's w:val set to language: replaced in a w:lang
 * there is (its other attributes kept), else a w:lang added where the
 * schema's order puts it (before w:eastAsianLayout, w:specVanish,
 * w:oMath, w:rPrChange, or at the end). */
static xmt_status put_rpr(struct xmt_buf *out, const char *rpr,
                          const char *prefix, const char *language) {
  if (language == NULL || language[0] == '\0')
    return xmt_buf_append_str(out, rpr);
  const char *lang = find_own(rpr, prefix, "lang");
  char val[64];
  snprintf(val, sizeof val, "%s%sval=\"", prefix, prefix[0] ? ":" : "");
  xmt_status st = XMT_OK;
  if (lang != NULL) {
    const char *gt = strchr(lang, '>');
    const char *v = strstr(lang, val);
    if (v != NULL && gt != NULL && v < gt) {
      v += strlen(val);
      const char *q = strchr(v, '"');
      st = xmt_buf_append(out, rpr, (size_t)(v - rpr));
      if (st == XMT_OK)
        st = xmt_buf_append_str(out, language);
      return st == XMT_OK ? xmt_buf_append_str(out, q) : st;
    }
    /* a w:lang with no w:val: the attribute added first */
    size_t at =
        (size_t)(lang - rpr) + 1 + strlen(prefix) + (prefix[0] != 0) + 4;
    st = xmt_buf_append(out, rpr, at);
    if (st == XMT_OK)
      st = xmt_buf_append(out, " ", 1);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, val);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, language);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "\"", 1);
    return st == XMT_OK ? xmt_buf_append_str(out, rpr + at) : st;
  }
  const char *before = NULL;
  static const char *const after_lang[] = {"eastAsianLayout", "specVanish",
                                           "oMath", "rPrChange", NULL};
  for (size_t i = 0; after_lang[i] != NULL && before == NULL; i++)
    before = find_own(rpr, prefix, after_lang[i]);
  size_t n = strlen(rpr);
  int empty = n == 0 || (n >= 2 && rpr[n - 2] == '/');
  if (before == NULL && !empty)
    before = strrchr(rpr, '<'); /* the end tag */
  if (empty)                    /* none, or <w:rPr/> */
    st = put_name(out, prefix, 0, "rPr>");
  else
    st = xmt_buf_append(out, rpr, (size_t)(before - rpr));
  if (st == XMT_OK)
    st = put_name(out, prefix, 0, "lang ");
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, val);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, language);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "\"/>");
  if (st == XMT_OK && empty)
    st = put_name(out, prefix, 1, "rPr>");
  else if (st == XMT_OK)
    st = xmt_buf_append_str(out, before);
  return st;
}

/* Text as a run: escaped, in a w:t that keeps its edge spaces. */
static xmt_status put_run(struct xmt_buf *out, const struct word_para *p,
                          const char *rpr, const char *language,
                          const char *text, size_t len) {
  if (len == 0)
    return XMT_OK;
  int edge = strchr(" \t\r\n", text[0]) != NULL ||
             strchr(" \t\r\n", text[len - 1]) != NULL;
  xmt_status st = put_name(out, p->prefix, 0, "r>");
  if (st == XMT_OK)
    st = put_rpr(out, rpr, p->prefix, language);
  if (st == XMT_OK)
    st = put_name(out, p->prefix, 0, edge ? "t xml:space=\"preserve\">" : "t>");
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    size_t bad = xmt_xml_forbidden_at(text, len, i);
    if (bad > 0) {
      i += bad - 1;
      continue;
    }
    const char *esc = text[i] == '&'   ? "&amp;"
                      : text[i] == '<' ? "&lt;"
                      : text[i] == '>' ? "&gt;"
                                       : NULL;
    st = esc != NULL ? xmt_buf_append_str(out, esc)
                     : xmt_buf_append(out, text + i, 1);
  }
  if (st == XMT_OK)
    st = put_name(out, p->prefix, 1, "t>");
  return st == XMT_OK ? put_name(out, p->prefix, 1, "r>") : st;
}

struct writer {
  const struct word_part *part;
  const char *language;
  struct xmt_buf *out;
};

static xmt_status put_range(const struct writer *w, size_t from, size_t to);

/* An isolated code: its wrapper around its part bytes, in which the
 * paragraphs of text boxes are written with their targets. */
static xmt_status put_isolated(const struct writer *w,
                               const struct word_code *c) {
  size_t span = c->to - c->from;
  if (c->merged || c->pre_len + span > c->open_len)
    return xmt_buf_append(w->out, c->open, c->open_len);
  xmt_status st = xmt_buf_append(w->out, c->open, c->pre_len);
  if (st == XMT_OK)
    st = put_range(w, c->from, c->to);
  return st == XMT_OK ? xmt_buf_append(w->out, c->open + c->pre_len + span,
                                       c->open_len - c->pre_len - span)
                      : st;
}

/* A paragraph being written: the writer, the paragraph. */
struct para_writer {
  const struct writer *w;
  const struct word_para *p;
};

static int paired(void *user, size_t code) {
  return !((struct para_writer *)user)->p->codes[code].isolated;
}

/* Text in a run with the properties of the innermost stretch open (or
 * pair around a styled run), else the base ones. */
static xmt_status put_text(void *user, const size_t *open, size_t nopen,
                           const char *text, size_t len) {
  const struct para_writer *pw = user;
  const struct word_para *p = pw->p;
  const char *rpr = p->base_rpr;
  for (size_t k = nopen; k > 0 && rpr == p->base_rpr; k--)
    if (p->codes[open[k - 1]].rpr)
      rpr = p->codes[open[k - 1]].open;
    else if (p->codes[open[k - 1]].run_rpr != NULL)
      rpr = p->codes[open[k - 1]].run_rpr;
  return put_run(pw->w->out, p, rpr, pw->w->language, text, len);
}

static xmt_status put_code(void *user, size_t code, int close) {
  const struct para_writer *pw = user;
  const struct word_code *c = &pw->p->codes[code];
  if (c->isolated && !close)
    return put_isolated(pw->w, c);
  if (c->rpr) /* a stretch: its properties are on its runs */
    return XMT_OK;
  return close ? xmt_buf_append(pw->w->out, c->close, c->close_len)
               : xmt_buf_append(pw->w->out, c->open, c->open_len);
}

/* The paragraph's target after its head, between the codes at its
 * edges (which the target cannot name: they are not in the source). */
static xmt_status put_target(const struct writer *w, const struct word_para *p,
                             const xmt_segment *target) {
  struct para_writer pw = {w, p};
  const struct xmt_office_target walk = {&pw, p->nsource, paired, put_text,
                                         put_code};
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < p->nlead && st == XMT_OK; i++)
    st = put_code(&pw, p->edges[i].code, p->edges[i].close);
  if (st == XMT_OK)
    st = xmt_office_put_target(&walk, target);
  for (size_t i = p->nlead; i < p->nedges && st == XMT_OK; i++)
    st = put_code(&pw, p->edges[i].code, p->edges[i].close);
  return st;
}

const xmt_segment *xmt_word_target_of(const struct word_part *part,
                                      const struct word_para *p) {
  return p->twin >= 0 && (size_t)p->twin < part->npara
             ? part->paras[p->twin].target
             : p->target;
}

/* The part's bytes [from, to), each paragraph in them that has a target
 * written with it (those in it written by its codes). */
static xmt_status put_range(const struct writer *w, size_t from, size_t to) {
  const struct word_part *part = w->part;
  const char *bytes = part->data.data;
  size_t lo = 0, hi = part->npara, at = from;
  while (lo < hi) { /* the first paragraph starting at from or later */
    size_t mid = lo + (hi - lo) / 2;
    if (part->paras[part->order[mid]].start < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  xmt_status st = XMT_OK;
  for (size_t k = lo; k < part->npara && st == XMT_OK; k++) {
    const struct word_para *p = &part->paras[part->order[k]];
    if (p->start >= to)
      break;
    const xmt_segment *target = xmt_word_target_of(part, p);
    if (p->start < at || p->end > to || target == NULL)
      continue;
    st = xmt_buf_append(w->out, bytes + at, p->head_end - at);
    if (st == XMT_OK)
      st = put_target(w, p, target);
    if (st == XMT_OK)
      st = put_name(w->out, p->prefix, 1, "p>");
    at = p->end;
  }
  return st == XMT_OK ? xmt_buf_append(w->out, bytes + at, to - at) : st;
}

xmt_status xmt_word_render(const struct word_part *part, const char *language,
                           struct xmt_buf *out) {
  const struct writer w = {part, language, out};
  xmt_buf_reset(out);
  xmt_status st = xmt_buf_append(out, "", 0);
  return st == XMT_OK ? put_range(&w, 0, part->data.len) : st;
}
