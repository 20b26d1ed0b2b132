/* odt_write.c -- content.xml written again: each paragraph with a target
 * gets its kept start tag, then its target: text in the spans of the
 * stretch it is in (the paragraph's base spans outside a span code),
 * spaces ODF would collapse as text:s, tabs and line ends as text:tab and
 * text:line-break; codes give back their markup, and an isolated one its
 * bytes written again, since a note or frame in it holds paragraphs that
 * may have targets of their own. Every other byte is the part's own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odt_private.h"

static xmt_status render_range(const struct odt_doc *doc, size_t from,
                               size_t to, unsigned depth, struct xmt_buf *out);

/* Appends <prefix:rest. */
static xmt_status put_elem(struct xmt_buf *out, const char *prefix,
                           const char *rest) {
  xmt_status st = xmt_buf_append(out, "<", 1);
  if (st == XMT_OK && prefix[0] != '\0') {
    st = xmt_buf_append_str(out, prefix);
    if (st == XMT_OK)
      st = xmt_buf_append(out, ":", 1);
  }
  return st == XMT_OK ? xmt_buf_append_str(out, rest) : st;
}

/* The text of a target; *space: the last character written was a space
 * (or none yet in the paragraph), after which ODF drops one. */
static xmt_status put_text(struct xmt_buf *out, const struct odt_para *p,
                           const char *text, size_t len, int *space) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    size_t bad = xmt_xml_forbidden_at(text, len, i);
    if (bad > 0) {
      i += bad - 1;
      continue;
    }
    char c = text[i];
    if (c == ' ' && *space) {
      size_t n = 1;
      while (i + n < len && text[i + n] == ' ')
        n++;
      char s[48];
      snprintf(s, sizeof s, n > 1 ? "s %s%sc=\"%zu\"/>" : "s/>", p->prefix,
               p->prefix[0] != '\0' ? ":" : "", n);
      st = put_elem(out, p->prefix, s);
      i += n - 1;
      continue;
    }
    *space = c == ' ';
    if (c == '\t' || c == '\n' || c == '\r') {
      st = put_elem(out, p->prefix, c == '\t' ? "tab/>" : "line-break/>");
      if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
        i++;
      continue;
    }
    const char *esc = c == '&'   ? "&amp;"
                      : c == '<' ? "&lt;"
                      : c == '>' ? "&gt;"
                                 : NULL;
    st =
        esc != NULL ? xmt_buf_append_str(out, esc) : xmt_buf_append(out, &c, 1);
  }
  return st;
}

/* Text of a target in the spans it is in. */
static xmt_status put_run(struct xmt_buf *out, const struct odt_para *p,
                          const struct odt_code *span, const char *text,
                          size_t len, int *space) {
  xmt_status st =
      xmt_buf_append_str(out, span != NULL ? span->open : p->base_open);
  if (st == XMT_OK)
    st = put_text(out, p, text, len, space);
  return st == XMT_OK ? xmt_buf_append_str(out, span != NULL ? span->close
                                                             : p->base_close)
                      : st;
}

/* A paragraph being written: its part, the paragraph, how deep in the
 * codes of others; space: the last character written was a space (or
 * none yet), after which ODF drops one. */
struct para_writer {
  const struct odt_doc *doc;
  const struct odt_para *p;
  unsigned depth;
  struct xmt_buf *out;
  int space;
};

static int paired(void *user, size_t code) {
  return !((struct para_writer *)user)->p->codes[code].isolated;
}

/* Text in the spans of the innermost span code open, else the base
 * spans. */
static xmt_status put_text_in(void *user, const size_t *open, size_t nopen,
                              const char *text, size_t len) {
  struct para_writer *pw = user;
  const struct odt_code *span = NULL;
  for (size_t k = nopen; k > 0 && span == NULL; k--)
    if (pw->p->codes[open[k - 1]].span)
      span = &pw->p->codes[open[k - 1]];
  return put_run(pw->out, pw->p, span, text, len, &pw->space);
}

static xmt_status put_code(void *user, size_t code, int close) {
  struct para_writer *pw = user;
  const struct odt_code *c = &pw->p->codes[code];
  if (c->isolated) {
    pw->space = 0;
    return render_range(pw->doc, c->from, c->to, pw->depth + 1, pw->out);
  }
  if (c->span) /* its spans are around the text */
    return XMT_OK;
  if (!close && c->to > c->from) /* a placeholder: its tooltip a unit */
    return render_range(pw->doc, c->from, c->to, pw->depth + 1, pw->out);
  return close ? xmt_buf_append(pw->out, c->close, c->close_len)
               : xmt_buf_append(pw->out, c->open, c->open_len);
}

/* The paragraph's target after its start tag. */
static xmt_status put_target(const struct odt_doc *doc,
                             const struct odt_para *p, unsigned depth,
                             struct xmt_buf *out) {
  struct para_writer pw = {doc, p, depth, out, 1};
  const struct xmt_office_target walk = {&pw, p->ncodes, paired, put_text_in,
                                         put_code};
  return xmt_office_put_target(&walk, p->target);
}

static xmt_status put_value_text(void *user, const size_t *open, size_t nopen,
                                 const char *text, size_t len) {
  (void)open;
  (void)nopen;
  struct xmt_buf *out = user;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    size_t bad = xmt_xml_forbidden_at(text, len, i);
    if (bad > 0) {
      i += bad - 1;
      continue;
    }
    const char *esc = text[i] == '&'    ? "&amp;"
                      : text[i] == '<'  ? "&lt;"
                      : text[i] == '"'  ? "&quot;"
                      : text[i] == '\'' ? "&apos;"
                      : text[i] == '\t' ? "&#9;"
                      : text[i] == '\n' ? "&#10;"
                      : text[i] == '\r' ? "&#13;"
                                        : NULL;
    st = esc != NULL ? xmt_buf_append_str(out, esc)
                     : xmt_buf_append(out, text + i, 1);
  }
  return st;
}

/* The first paragraph that starts at or after from. */
static size_t first_from(const struct odt_doc *doc, size_t from) {
  size_t lo = 0, hi = doc->npara;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (doc->paras[mid].start < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Bytes [from, to) of the part, each paragraph in them with a target
 * rewritten (and those inside its codes, depth levels down). */
static xmt_status render_range(const struct odt_doc *doc, size_t from,
                               size_t to, unsigned depth, struct xmt_buf *out) {
  const char *part = doc->part.data;
  size_t at = from;
  xmt_status st = depth > 16 ? XMT_ERR_INTERNAL : XMT_OK;
  for (size_t i = first_from(doc, from);
       i < doc->npara && doc->paras[i].start < to && st == XMT_OK; i++) {
    const struct odt_para *p = &doc->paras[i];
    if (p->target == NULL || p->start < at)
      continue; /* its bytes are copied, or it is inside one written */
    st = xmt_buf_append(out, part + at, p->head_end - at);
    if (st == XMT_OK && p->value) {
      const struct xmt_office_target walk = {out, 0, NULL, put_value_text,
                                             NULL};
      st = xmt_office_put_target(&walk, p->target);
      at = p->end;
      continue;
    }
    if (st == XMT_OK)
      st = put_target(doc, p, depth, out);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "</", 2);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, p->name);
    if (st == XMT_OK)
      st = xmt_buf_append(out, ">", 1);
    at = p->end;
  }
  return st == XMT_OK ? xmt_buf_append(out, part + at, to - at) : st;
}

xmt_status xmt_odt_render(const struct odt_doc *doc, const char *language,
                          struct xmt_buf *out) {
  xmt_buf_reset(out);
  struct odt_edit *edits = NULL;
  size_t n = 0, at = 0;
  xmt_status st = xmt_buf_append(out, "", 0);
  if (st == XMT_OK)
    st = xmt_odt_lang_edits(doc, language, &edits, &n);
  /* the automatic styles come before the text (ODF 1.2 part 1, 3.1.3):
   * an edit after a paragraph's start, which a part could not hold, is
   * not made */
  size_t text = doc->npara > 0 ? doc->paras[0].start : doc->part.len;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    if (edits[i].from < at || edits[i].to > text)
      continue;
    st = xmt_buf_append(out, doc->part.data + at, edits[i].from - at);
    if (st == XMT_OK)
      st = xmt_buf_append(out, edits[i].bytes, edits[i].len);
    at = edits[i].to;
  }
  xmt_odt_edits_free(edits, n);
  return st == XMT_OK ? render_range(doc, at, doc->part.len, 0, out) : st;
}

/* Appends value's language ("es" of "es-ES") or country ("ES", or
 * "none" when it names none). */
static xmt_status put_part(struct xmt_buf *out, const char *tag, int country) {
  size_t n = strcspn(tag, "-_");
  if (!country)
    return xmt_buf_append(out, tag, n);
  if (tag[n] == '\0')
    return xmt_buf_append_str(out, "none");
  const char *c = tag + n + 1;
  size_t cn = strcspn(c, "-_");
  if (cn == 4 && c[cn] != '\0') { /* a script first: zh-Hant-TW */
    c += cn + 1;
    cn = strcspn(c, "-_");
  }
  return cn == 2 || cn == 3 ? xmt_buf_append(out, c, cn)
                            : xmt_buf_append_str(out, "none");
}

xmt_status xmt_odt_set_language(const char *xml, size_t len,
                                const char *language, struct xmt_buf *out) {
  xmt_buf_reset(out);
  xmt_status st = xmt_buf_append(out, "", 0);
  /* <style:default-style style:family="paragraph">'s text properties */
  const char *ds = xml;
  const char *end = xml + len;
  const char *tp = NULL, *tp_end = NULL;
  while (st == XMT_OK && tp == NULL &&
         (ds = memmem(ds, (size_t)(end - ds), ":default-style ", 15)) != NULL) {
    const char *gt = memchr(ds, '>', (size_t)(end - ds));
    const char *close = memmem(ds, (size_t)(end - ds), "default-style>", 14);
    if (gt == NULL || close == NULL)
      break;
    if (memmem(ds, (size_t)(gt - ds), "family=\"paragraph\"", 18) != NULL) {
      tp = memmem(gt, (size_t)(close - gt), ":text-properties", 16);
      tp_end = tp != NULL ? memchr(tp, '>', (size_t)(close - tp)) : NULL;
      if (tp_end == NULL)
        tp = NULL;
    }
    ds = gt;
  }
  if (st != XMT_OK || tp == NULL || language == NULL || language[0] == '\0')
    return st == XMT_OK ? xmt_buf_append(out, xml, len) : st;
  static const char *const attrs[] = {" fo:language=\"", " fo:country=\""};
  const char *at = xml;
  int seen[2] = {0, 0};
  for (size_t k = 0; k < 2 && st == XMT_OK; k++) {
    const char *a =
        memmem(tp, (size_t)(tp_end - tp), attrs[k], strlen(attrs[k]));
    if (a == NULL || a < at)
      continue;
    seen[k] = 1;
    a += strlen(attrs[k]);
    st = xmt_buf_append(out, at, (size_t)(a - at));
    if (st == XMT_OK)
      st = put_part(out, language, (int)k);
    at = memchr(a, '"', (size_t)(tp_end - a));
    if (at == NULL)
      return XMT_ERR_INTERNAL; /* expat read it well-formed */
  }
  /* none said: both added at the end of the start tag */
  const char *stop = tp_end[-1] == '/' ? tp_end - 1 : tp_end;
  if (st == XMT_OK)
    st = xmt_buf_append(out, at, (size_t)(stop - at));
  for (size_t k = 0; k < 2 && st == XMT_OK; k++)
    if (!seen[0] && !seen[1]) {
      st = xmt_buf_append_str(out, attrs[k]);
      if (st == XMT_OK)
        st = put_part(out, language, (int)k);
      if (st == XMT_OK)
        st = xmt_buf_append(out, "\"", 1);
    }
  return st == XMT_OK ? xmt_buf_append(out, stop, (size_t)(end - stop)) : st;
}
