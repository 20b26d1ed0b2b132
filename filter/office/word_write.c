/* word_write.c -- a part written again: each paragraph with a target
 * gets its kept head (start tag and w:pPr), then its target as runs: a
 * stretch of text in a run with the properties it came from (the
 * paragraph's base ones outside an "r" code), the language set to the
 * target's; codes give back their markup, a drawing's with its text
 * boxes' paragraphs written in the same way. Every other byte is the
 * part's own. Markup written a second time (a run's properties on text
 * each side of a code) has the w:id of its revision marks made new:
 * ECMA-376 wants an annotation's id unique in the document. */
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

/* The revision marks (ECMA-376 Part 1, 17.13.5) whose w:id a copy of
 * their markup must not repeat. Range marks (w:moveFromRangeStart and
 * its end) share an id by pairs and are never copied in part. */
static const char *const revision_marks[] = {"ins",
                                             "del",
                                             "moveFrom",
                                             "moveTo",
                                             "rPrChange",
                                             "pPrChange",
                                             "sectPrChange",
                                             "tblPrChange",
                                             "trPrChange",
                                             "tcPrChange",
                                             "tblPrExChange",
                                             "tblGridChange",
                                             "numberingChange",
                                             "cellIns",
                                             "cellDel",
                                             "cellMerge",
                                             NULL};

/* The length of the name of the element at s (after '<'), n bytes. */
static size_t name_len(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && strchr(" \t\r\n/>", s[i]) == NULL)
    i++;
  return i;
}

static int revision_mark(const char *s, size_t n, const char *prefix) {
  size_t pn = strlen(prefix), len = name_len(s, n);
  if (pn > 0 && (len <= pn || memcmp(s, prefix, pn) != 0 || s[pn] != ':'))
    return 0;
  s += pn > 0 ? pn + 1 : 0;
  len -= pn > 0 ? pn + 1 : 0;
  for (size_t i = 0; revision_marks[i] != NULL; i++)
    if (strlen(revision_marks[i]) == len &&
        memcmp(s, revision_marks[i], len) == 0)
      return 1;
  return 0;
}

/* In the start tag [s, s + n) (at its '<'), the offset of the value (its
 * quote) of the attribute prefix:id, or 0. */
static size_t id_value(const char *s, size_t n, const char *prefix) {
  size_t pn = strlen(prefix);
  for (size_t a = 1; a < n; a++) {
    if (s[a] == '"' || s[a] == '\'') { /* a value: skipped whole */
      const char *q = memchr(s + a + 1, s[a], n - a - 1);
      if (q == NULL)
        return 0;
      a = (size_t)(q - s);
      continue;
    }
    if (strchr(" \t\r\n", s[a]) == NULL)
      continue;
    size_t b = a + 1;
    if (pn > 0 &&
        (b + pn >= n || memcmp(s + b, prefix, pn) != 0 || s[b + pn] != ':'))
      continue;
    b += pn > 0 ? pn + 1 : 0;
    if (b + 2 >= n || memcmp(s + b, "id", 2) != 0)
      continue;
    for (b += 2; b < n && strchr(" \t\r\n", s[b]) != NULL; b++)
      ;
    if (b >= n || s[b] != '=')
      continue;
    for (b++; b < n && strchr(" \t\r\n", s[b]) != NULL; b++)
      ;
    if (b < n && (s[b] == '"' || s[b] == '\''))
      return b;
  }
  return 0;
}

/* The markup [s, s + n) with the w:id of each revision mark in it the
 * next new one (*next, counted up). */
static xmt_status put_renumbered(struct xmt_buf *out, const char *s, size_t n,
                                 const char *prefix, long long *next) {
  size_t at = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i + 1 < n && st == XMT_OK; i++) {
    if (s[i] != '<' || !revision_mark(s + i + 1, n - i - 1, prefix))
      continue;
    const char *gt = memchr(s + i, '>', n - i);
    size_t end = gt != NULL ? (size_t)(gt - s) : n;
    size_t v = id_value(s + i, end - i, prefix);
    const char *q =
        v > 0 ? memchr(s + i + v + 1, s[i + v], end - i - v - 1) : NULL;
    if (q != NULL) {
      char id[32];
      snprintf(id, sizeof id, "%lld", (*next)++);
      st = xmt_buf_append(out, s + at, i + v + 1 - at);
      if (st == XMT_OK)
        st = xmt_buf_append_str(out, id);
      at = (size_t)(q - s);
    }
    i = end;
  }
  return st == XMT_OK ? xmt_buf_append(out, s + at, n - at) : st;
}

long long xmt_word_next_id(const struct word_doc *doc) {
  long long top = -1;
  for (size_t k = 0; k < doc->nparts; k++) {
    const char *d = doc->parts[k].data.data;
    size_t n = doc->parts[k].data.len;
    /* every prefixed id attribute of a number: any w:id, above all */
    for (size_t i = 1; i + 4 < n; i++) {
      if (d[i] != 'i' || d[i - 1] != ':' || d[i + 1] != 'd' ||
          d[i + 2] != '=' || (d[i + 3] != '"' && d[i + 3] != '\''))
        continue;
      long long v = 0;
      size_t j = i + 4;
      for (; j < n && d[j] >= '0' && d[j] <= '9' && v < XMT_WORD_ID_MAX; j++)
        v = v * 10 + (d[j] - '0');
      if (j > i + 4 && v > top)
        top = v < XMT_WORD_ID_MAX ? v : XMT_WORD_ID_MAX;
    }
  }
  return top + 1;
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

/* DrawingML's run properties (a:rPr, a:endParaRPr: the n bytes at rpr,
 * or none) with their lang attribute set to language: its value
 * replaced, or the attribute added after the element's name. */
static xmt_status put_drawing_rpr(struct xmt_buf *out, const char *rpr,
                                  size_t n, const char *prefix,
                                  const char *language) {
  if (language == NULL || language[0] == '\0')
    return xmt_buf_append(out, rpr, n);
  xmt_status st = XMT_OK;
  if (n == 0) {
    st = put_name(out, prefix, 0, "rPr lang=\"");
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, language);
    return st == XMT_OK ? xmt_buf_append_str(out, "\"/>") : st;
  }
  const char *gt = memchr(rpr, '>', n);
  size_t end = gt != NULL ? (size_t)(gt - rpr) : n, name = 1;
  while (name < end && strchr(" \t\r\n/", rpr[name]) == NULL)
    name++;
  for (size_t i = name; i + 6 < end; i++) {
    if (strchr(" \t\r\n", rpr[i]) == NULL || memcmp(rpr + i + 1, "lang", 4))
      continue;
    size_t v = i + 5;
    while (v < end && strchr(" \t\r\n=", rpr[v]) != NULL)
      v++;
    const char *q = v < end && (rpr[v] == '"' || rpr[v] == '\'')
                        ? memchr(rpr + v + 1, rpr[v], end - v - 1)
                        : NULL;
    if (q == NULL || rpr[i + 5] == ':' ||
        strchr(" \t\r\n=", rpr[i + 5]) == NULL)
      continue;
    st = xmt_buf_append(out, rpr, v + 1);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, language);
    return st == XMT_OK ? xmt_buf_append(out, q, n - (size_t)(q - rpr)) : st;
  }
  st = xmt_buf_append(out, rpr, name);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, " lang=\"");
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, language);
  if (st == XMT_OK)
    st = xmt_buf_append(out, "\"", 1);
  return st == XMT_OK ? xmt_buf_append(out, rpr + name, n - name) : st;
}

/* text escaped for a w:t (in_value 0) or for an attribute's value in
 * either quotes, where a tab or line end would be read back as a space;
 * what XML cannot carry left out. */
xmt_status xmt_word_put_escaped(struct xmt_buf *out, const char *text,
                                size_t len, int in_value) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    size_t bad = xmt_xml_forbidden_at(text, len, i);
    if (bad > 0) {
      i += bad - 1;
      continue;
    }
    char c = text[i];
    const char *esc = c == '&'    ? "&amp;"
                      : c == '<'  ? "&lt;"
                      : c == '>'  ? "&gt;"
                      : !in_value ? NULL
                      : c == '"'  ? "&quot;"
                      : c == '\'' ? "&apos;"
                      : c == '\t' ? "&#9;"
                      : c == '\n' ? "&#10;"
                      : c == '\r' ? "&#13;"
                                  : NULL;
    st = esc != NULL ? xmt_buf_append_str(out, esc)
                     : xmt_buf_append(out, text + i, 1);
  }
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
  if (st == XMT_OK && p->drawing) /* DrawingML's a:t keeps its spaces */
    st = put_drawing_rpr(out, rpr, strlen(rpr), p->prefix, language);
  else if (st == XMT_OK)
    st = put_rpr(out, rpr, p->prefix, language);
  if (st == XMT_OK)
    st = put_name(out, p->prefix, 0,
                  edge && !p->drawing ? "t xml:space=\"preserve\">" : "t>");
  if (st == XMT_OK)
    st = xmt_word_put_escaped(out, text, len, 0);
  if (st == XMT_OK)
    st = put_name(out, p->prefix, 1, "t>");
  return st == XMT_OK ? put_name(out, p->prefix, 1, "r>") : st;
}

/* A part being written. Each paragraph's markup written (its base
 * properties, each code's open or properties, each code's run
 * properties) has a flag in written, from first[paragraph index]: set
 * once it is written, so that a copy renumbers its revision marks. */
struct writer {
  const struct word_part *part;
  const char *language;
  struct xmt_buf *out;
  long long *next_id; /* the next new revision id, the document's */
  unsigned char *written;
  size_t *first;
  struct xmt_buf *copy; /* markup renumbered */
};

/* The markup's flag: slot 0 the base properties, 1 + 2 k code k's open,
 * 2 + 2 k code k's run properties. */
static unsigned char *written_flag(const struct writer *w,
                                   const struct word_para *p, size_t slot) {
  return &w->written[w->first[p - w->part->paras] + slot];
}

/* markup as it is the first time, else renumbered into w->copy;
 * NULL when out of memory. */
static const char *once(const struct writer *w, const struct word_para *p,
                        size_t slot, const char *markup, size_t len) {
  unsigned char *flag = written_flag(w, p, slot);
  if (!*flag) {
    *flag = 1;
    return markup;
  }
  xmt_buf_reset(w->copy);
  xmt_status st = xmt_buf_append(w->copy, "", 0);
  if (st == XMT_OK)
    st = put_renumbered(w->copy, markup, len, p->prefix, w->next_id);
  return st == XMT_OK ? w->copy->data : NULL;
}

static xmt_status put_range(const struct writer *w, size_t from, size_t to,
                            const char *fresh);

/* An isolated code: its wrapper around its part bytes, in which the
 * paragraphs of text boxes are written with their targets. */
/* A code written again (the target names it twice) has its revision
 * marks renumbered, the paragraphs of its text boxes too. */
static xmt_status put_isolated(const struct writer *w,
                               const struct word_para *p,
                               const struct word_code *c) {
  unsigned char *flag = written_flag(w, p, 1 + 2 * (size_t)(c - p->codes));
  const char *fresh = *flag ? p->prefix : NULL;
  *flag = 1;
  size_t span = c->to - c->from;
  int whole = c->merged || c->pre_len + span > c->open_len;
  size_t pre = whole ? c->open_len : c->pre_len;
  xmt_status st = fresh != NULL
                      ? put_renumbered(w->out, c->open, pre, fresh, w->next_id)
                      : xmt_buf_append(w->out, c->open, pre);
  if (whole || st != XMT_OK)
    return st;
  st = put_range(w, c->from, c->to, fresh);
  const char *post = c->open + c->pre_len + span;
  size_t n = c->open_len - c->pre_len - span;
  if (st != XMT_OK)
    return st;
  return fresh != NULL ? put_renumbered(w->out, post, n, fresh, w->next_id)
                       : xmt_buf_append(w->out, post, n);
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
  size_t slot = 0;
  for (size_t k = nopen; k > 0 && rpr == p->base_rpr; k--)
    if (p->codes[open[k - 1]].rpr)
      rpr = p->codes[open[k - 1]].open, slot = 1 + 2 * open[k - 1];
    else if (p->codes[open[k - 1]].run_rpr != NULL)
      rpr = p->codes[open[k - 1]].run_rpr, slot = 2 + 2 * open[k - 1];
  if (len > 0) /* no run is written for no text */
    rpr = once(pw->w, p, slot, rpr, strlen(rpr));
  return rpr != NULL ? put_run(pw->w->out, p, rpr, pw->w->language, text, len)
                     : XMT_ERR_NOMEM;
}

/* An isolated code of a DrawingML paragraph (a:br, a:fld, the
 * paragraph's end properties a:endParaRPr) as it was, the end
 * properties' lang set: the text typed at the paragraph's end, or in it
 * once empty, is in the target language. */
static xmt_status put_drawing_code(const struct para_writer *pw,
                                   const struct word_code *c) {
  char tag[48];
  const char *prefix = pw->p->prefix;
  snprintf(tag, sizeof tag, "<%s%sendParaRPr", prefix, prefix[0] ? ":" : "");
  const char *at = memmem(c->open, c->open_len, tag, strlen(tag));
  size_t end = at != NULL ? (size_t)(at - c->open) + strlen(tag) : 0;
  if (at == NULL || end >= c->open_len ||
      strchr(" \t\r\n/>", c->open[end]) == NULL)
    return xmt_buf_append(pw->w->out, c->open, c->open_len);
  const char *gt = memchr(at, '>', c->open_len - (size_t)(at - c->open));
  size_t stop = gt != NULL ? (size_t)(gt - c->open) + 1 : c->open_len;
  xmt_status st = xmt_buf_append(pw->w->out, c->open, (size_t)(at - c->open));
  if (st == XMT_OK)
    st = put_drawing_rpr(pw->w->out, at, stop - (size_t)(at - c->open), prefix,
                         pw->w->language);
  return st == XMT_OK
             ? xmt_buf_append(pw->w->out, c->open + stop, c->open_len - stop)
             : st;
}

/* A merged code whose first element (its begin's w:fldChar) holds a
 * form field's help or status text: that element written through the
 * part, with their targets, the rest of the code as it is. 0 when it
 * holds none (nothing written). */
static int put_field_values(const struct para_writer *pw,
                            const struct word_code *c, xmt_status *st) {
  const char *part = pw->w->part->data.data;
  if (!c->merged || c->to <= c->from ||
      !xmt_word_holds_field_values(part, c->from, c->to))
    return 0;
  const char *at =
      memmem(c->open, c->open_len, part + c->from, c->to - c->from);
  if (at == NULL)
    return 0;
  unsigned char *flag =
      written_flag(pw->w, pw->p, 1 + 2 * (size_t)(c - pw->p->codes));
  const char *fresh = *flag ? pw->p->prefix : NULL;
  *flag = 1;
  size_t before = (size_t)(at - c->open), n = c->to - c->from;
  *st = xmt_buf_append(pw->w->out, c->open, before);
  if (*st == XMT_OK)
    *st = put_range(pw->w, c->from, c->to, fresh);
  if (*st == XMT_OK)
    *st = xmt_buf_append(pw->w->out, at + n, c->open_len - before - n);
  return 1;
}

/* The length of the part's bytes [from, to) less its w:dataBinding
 * elements: a code's open, which leaves them out. */
static size_t unbound_len(const struct word_part *part, size_t from,
                          size_t to) {
  size_t n = to - from;
  for (size_t i = 0; i < part->nbindings; i++)
    if (part->bindings[i].from >= from && part->bindings[i].to <= to)
      n -= part->bindings[i].to - part->bindings[i].from;
  return n;
}

static xmt_status put_code(void *user, size_t code, int close) {
  const struct para_writer *pw = user;
  const struct word_code *c = &pw->p->codes[code];
  xmt_status st = XMT_OK;
  if (!close && put_field_values(pw, c, &st))
    return st;
  if (c->isolated && !close && pw->p->drawing)
    return put_drawing_code(pw, c);
  if (c->isolated && !close)
    return put_isolated(pw->w, pw->p, c);
  if (c->rpr) /* a stretch: its properties are on its runs */
    return XMT_OK;
  if (close) /* an end tag: no id */
    return xmt_buf_append(pw->w->out, c->close, c->close_len);
  if (!c->merged && c->to > c->from &&
      c->open_len == unbound_len(pw->w->part, c->from, c->to) &&
      (c->values ||
       xmt_word_holds_values(pw->w->part->data.data, c->from, c->to))) {
    /* a start tag with a value that is a unit (a link's tooltip): written
     * through the part, with the value's target */
    unsigned char *flag = written_flag(pw->w, pw->p, 1 + 2 * code);
    const char *fresh = *flag ? pw->p->prefix : NULL;
    *flag = 1;
    return put_range(pw->w, c->from, c->to, fresh);
  }
  const char *open = once(pw->w, pw->p, 1 + 2 * code, c->open, c->open_len);
  size_t n = open == c->open ? c->open_len : pw->w->copy->len;
  return open != NULL ? xmt_buf_append(pw->w->out, open, n) : XMT_ERR_NOMEM;
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

static xmt_status put_value_text(void *user, const size_t *open, size_t nopen,
                                 const char *text, size_t len) {
  (void)open;
  (void)nopen;
  return xmt_word_put_escaped(user, text, len, 1);
}

struct pair_text {
  const struct word_para *p;
  long code;
  struct xmt_buf *out;
};

static int pair_paired(void *user, size_t code) {
  return !((struct pair_text *)user)->p->codes[code].isolated;
}

static xmt_status pair_stretch(void *user, const size_t *open, size_t nopen,
                               const char *text, size_t len) {
  const struct pair_text *pt = user;
  int in = pt->code < 0;
  for (size_t k = 0; k < nopen && !in; k++)
    in = open[k] == (size_t)pt->code;
  return in ? xmt_buf_append(pt->out, text, len) : XMT_OK;
}

static xmt_status pair_code(void *user, size_t code, int close) {
  (void)user, (void)code, (void)close;
  return XMT_OK;
}

xmt_status xmt_word_pair_text(const struct word_para *p, const xmt_segment *seg,
                              long code, struct xmt_buf *out) {
  struct pair_text pt = {p, code, out};
  const struct xmt_office_target walk = {&pt, p->nsource, pair_paired,
                                         pair_stretch, pair_code};
  xmt_buf_reset(out);
  return xmt_office_put_target(&walk, seg);
}

/* A text field's default that is its result's twin: the text of the
 * field's pair in the paragraph's target, escaped. */
static xmt_status put_twin_value(struct xmt_buf *out,
                                 const struct word_part *part,
                                 const struct word_para *v,
                                 const xmt_segment *target) {
  struct xmt_buf text = {0};
  xmt_status st =
      xmt_word_pair_text(&part->paras[v->twin], target, v->twin_code, &text);
  if (st == XMT_OK)
    st = xmt_word_put_escaped(out, text.data, text.len, 1);
  xmt_buf_free(&text);
  return st;
}

/* A value's target (its text: a value has no codes), escaped. */
static xmt_status put_value(struct xmt_buf *out, const xmt_segment *target) {
  const struct xmt_office_target walk = {out, 0, NULL, put_value_text, NULL};
  return xmt_office_put_target(&walk, target);
}

/* Bytes of the part, less its data bindings, with their revision marks
 * renumbered when fresh (the WordprocessingML prefix) is not NULL. */
static xmt_status put_bytes(const struct writer *w, size_t from, size_t to,
                            const char *fresh) {
  if (fresh == NULL)
    return xmt_word_append_unbound(w->out, w->part, from, to);
  struct xmt_buf bytes = {0};
  xmt_status st = xmt_word_append_unbound(&bytes, w->part, from, to);
  if (st == XMT_OK)
    st = put_renumbered(w->out, bytes.data, bytes.len, fresh, w->next_id);
  xmt_buf_free(&bytes);
  return st;
}

/* A field's instruction text (word_fields.c): its target quoted, or the
 * part's bytes when it says what the source says; the rest of it in a
 * later w:instrText, empty when its twin was translated. */
static xmt_status put_instr(const struct writer *w, const struct word_para *p,
                            const xmt_segment *target, const char *fresh) {
  const struct word_para *first = p->instr_rest ? &w->part->paras[p->twin] : p;
  struct xmt_buf text = {0};
  int same;
  xmt_status st = xmt_word_instr_put(&text, first, target, &same);
  if (st == XMT_OK && same)
    st = put_bytes(w, p->start, p->end, fresh);
  else if (st == XMT_OK && !p->instr_rest)
    st = xmt_buf_append(w->out, text.data, text.len);
  xmt_buf_free(&text);
  return st;
}

/* The part's bytes [from, to), each paragraph in them that has a target
 * written with it (those in it written by its codes); fresh as for
 * put_bytes (a text box written again). */
static xmt_status put_range(const struct writer *w, size_t from, size_t to,
                            const char *fresh) {
  const struct word_part *part = w->part;
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
    st = put_bytes(w, at, p->head_end, fresh);
    if (st == XMT_OK && (p->instr || p->instr_rest))
      st = put_instr(w, p, target, fresh);
    else if (st == XMT_OK && p->value && p->twin >= 0)
      st = put_twin_value(w->out, part, p, target);
    else if (st == XMT_OK && p->value)
      st = put_value(w->out, target);
    else if (st == XMT_OK)
      st = put_target(w, p, target);
    if (st == XMT_OK && !p->value)
      st = put_name(w->out, p->prefix, 1, "p>");
    at = p->end;
  }
  return st == XMT_OK ? put_bytes(w, at, to, fresh) : st;
}

xmt_status xmt_word_render(const struct word_part *part, const char *language,
                           long long *next_id, struct xmt_buf *out) {
  struct xmt_buf copy = {0};
  size_t *first = malloc((part->npara + 1) * sizeof *first);
  if (first == NULL)
    return XMT_ERR_NOMEM;
  first[0] = 0;
  for (size_t i = 0; i < part->npara; i++)
    first[i + 1] = first[i] + 1 + 2 * part->paras[i].ncodes;
  const struct writer w = {
      part,  language, out, next_id, calloc(first[part->npara] + 1, 1),
      first, &copy};
  xmt_buf_reset(out);
  xmt_status st =
      w.written != NULL ? xmt_buf_append(out, "", 0) : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = put_range(&w, 0, part->data.len, NULL);
  free(w.written);
  free(first);
  xmt_buf_free(&copy);
  return st;
}
