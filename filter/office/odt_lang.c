/* odt_lang.c -- the automatic styles of a part that translated text is in
 * given the target language, since theirs overrides the default
 * paragraph style's and LibreOffice would check the translation's
 * spelling in the source language. A style that text left as it was also
 * uses keeps its language: that text is still in the source language,
 * and a copy of the style would mean renaming it in start tags the
 * writer keeps byte for byte. The language goes where the target's
 * script is read from (ODF 1.2 part 1, 20.x: fo:language and fo:country
 * for Western scripts, style:language-asian and style:country-asian for
 * East Asian ones, style:language-complex and style:country-complex for
 * complex ones); the other kinds are left as they are. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "odt_private.h"

/* A subtag of the target language: [at, at + len). */
struct subtag {
  const char *at;
  size_t len;
};

static int in_list(const char *const *list, struct subtag t) {
  for (size_t i = 0; list[i] != NULL; i++)
    if (strlen(list[i]) == t.len && strncasecmp(list[i], t.at, t.len) == 0)
      return 1;
  return 0;
}

/* 0 Western, 1 East Asian, 2 complex: by the script subtag when the tag
 * has one, else by the language's usual script. */
static size_t script_kind(struct subtag lang, struct subtag script) {
  static const char *const asian_scripts[] = {
      "Hans", "Hant", "Hani", "Jpan", "Kore", "Hira", "Kana", "Hang", NULL};
  static const char *const complex_scripts[] = {
      "Arab", "Hebr", "Thai", "Deva", "Beng", "Taml", "Telu",
      "Knda", "Mlym", "Gujr", "Guru", "Orya", "Sinh", "Khmr",
      "Laoo", "Tibt", "Syrc", "Thaa", "Mymr", "Ethi", NULL};
  static const char *const asian[] = {"zh", "ja", "ko", "yue", "cmn", NULL};
  static const char *const complex[] = {
      "ar", "he", "iw", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "syr",
      "hi", "mr", "ne", "sa", "bn", "as", "ta", "te", "kn", "ml", "gu",
      "pa", "or", "si", "th", "lo", "km", "bo", "dz", "my", "am", NULL};
  if (script.len == 4)
    return in_list(asian_scripts, script)     ? 1
           : in_list(complex_scripts, script) ? 2
                                              : 0;
  return in_list(asian, lang) ? 1 : in_list(complex, lang) ? 2 : 0;
}

/* The target language read: its language, script and region subtags. */
struct target {
  const char *tag;
  struct subtag lang, script, region;
  size_t kind;
};

static int read_target(const char *tag, struct target *t) {
  *t = (struct target){.tag = tag};
  if (tag[0] == '\0' ||
      strspn(tag, "abcdefghijklmnopqrstuvwxyz"
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(tag))
    return 0; /* written into attribute values: nothing else */
  t->lang = (struct subtag){tag, strcspn(tag, "-_")};
  const char *p = tag + t->lang.len;
  while (*p != '\0') {
    p++;
    struct subtag s = {p, strcspn(p, "-_")};
    if (s.len == 4 && t->script.len == 0 && t->region.len == 0)
      t->script = s;
    else if ((s.len == 2 || s.len == 3) && t->region.len == 0)
      t->region = s;
    p += s.len;
  }
  t->kind = script_kind(t->lang, t->script);
  return 1;
}

/* Edits being made. */
struct edits {
  struct odt_edit *e;
  size_t n, cap;
};

static xmt_status add_edit(struct edits *ed, size_t from, size_t to,
                           const struct xmt_buf *bytes) {
  struct odt_edit *e = xmt_grow_one(&ed->e, ed->n, &ed->cap, sizeof *e);
  char *copy = e != NULL ? xmt_memdup(bytes->data, bytes->len) : NULL;
  if (copy == NULL)
    return XMT_ERR_NOMEM;
  ed->e[ed->n++] = (struct odt_edit){from, to, copy, bytes->len};
  return XMT_OK;
}

/* The value of language attribute k (language, country, RFC tag). */
static xmt_status put_value(struct xmt_buf *out, const struct target *t,
                            size_t k) {
  if (k == 0)
    return xmt_buf_append(out, t->lang.at, t->lang.len);
  if (k == 1)
    return t->region.len > 0 ? xmt_buf_append(out, t->region.at, t->region.len)
                             : xmt_buf_append_str(out, "none");
  xmt_status st = XMT_OK; /* BCP 47: "es_ES" is es-ES */
  for (const char *c = t->tag; *c != '\0' && st == XMT_OK; c++)
    st = xmt_buf_append(out, *c == '_' ? "-" : c, 1);
  return st;
}

/* The attributes a style lacks, " p:language=\"es\" p:country=\"ES\"",
 * into out; none when the namespace's prefix is not known. */
static xmt_status missing(const struct odt_style *s, const struct target *t,
                          const char *fo, const char *style, size_t style_len,
                          struct xmt_buf *out) {
  static const char *const names[3][2] = {
      {"language", "country"},
      {"language-asian", "country-asian"},
      {"language-complex", "country-complex"}};
  xmt_status st = XMT_OK;
  for (size_t k = 0; k < 2 && st == XMT_OK; k++) {
    size_t a = t->kind * 3 + k;
    if ((s->tp_end != 0 && s->val[a][1] > s->val[a][0]) ||
        (k == 1 && t->region.len == 0))
      continue; /* there, or no country to say */
    if (t->kind == 0 ? fo[0] == '\0' : style_len == 0)
      break; /* no prefix to write it with */
    st = xmt_buf_append(out, " ", 1);
    if (st == XMT_OK)
      st = t->kind == 0 ? xmt_buf_append_str(out, fo)
                        : xmt_buf_append(out, style, style_len);
    if (st == XMT_OK)
      st = xmt_buf_append(out, ":", 1);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, names[t->kind][k]);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "=\"", 2);
    if (st == XMT_OK)
      st = put_value(out, t, k);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "\"", 1);
  }
  return st;
}

/* The edits of one style: its language attributes of the target's kind
 * set, those missing added (in a style:text-properties of its own when
 * it has none). */
static xmt_status style_edits(const struct odt_doc *doc,
                              const struct odt_style *s, const struct target *t,
                              struct edits *ed) {
  const char *part = doc->part.data;
  const char *qname = part + s->from + 1;
  size_t qlen = strcspn(qname, " \t\r\n/>");
  const char *colon = memchr(qname, ':', qlen);
  size_t plen = colon != NULL ? (size_t)(colon - qname) : 0;
  struct xmt_buf b = {0};
  xmt_status st = XMT_OK;
  for (size_t k = 0; k < 3 && st == XMT_OK && s->tp_end != 0; k++) {
    const size_t *v = s->val[t->kind * 3 + k];
    if (v[1] <= v[0])
      continue;
    xmt_buf_reset(&b);
    st = put_value(&b, t, k);
    if (st == XMT_OK)
      st = add_edit(ed, v[0], v[1], &b);
  }
  xmt_buf_reset(&b);
  if (st == XMT_OK)
    st = missing(s, t, doc->fo_prefix, qname, plen, &b);
  if (st != XMT_OK || b.len == 0) {
    xmt_buf_free(&b);
    return st;
  }
  size_t at;
  struct xmt_buf tag = {0};
  if (s->tp_end != 0) { /* before the end of its start tag */
    at = s->tp_end - (part[s->tp_end - 2] == '/' ? 2 : 1);
    st = xmt_buf_append(&tag, b.data, b.len);
  } else { /* <style:text-properties .../> of its own, after its
            * paragraph properties (ODF 1.2 part 1, 16.2) */
    at = s->empty            ? s->head_end - 2
         : s->props_end != 0 ? s->props_end
                             : s->head_end;
    st = xmt_buf_append_str(&tag, s->empty ? "><" : "<");
    if (st == XMT_OK)
      st = xmt_buf_append(&tag, qname, plen + (plen > 0));
    if (st == XMT_OK)
      st = xmt_buf_append_str(&tag, "text-properties");
    if (st == XMT_OK)
      st = xmt_buf_append(&tag, b.data, b.len);
    if (st == XMT_OK)
      st = xmt_buf_append(&tag, "/>", 2);
    if (st == XMT_OK && s->empty) {
      st = xmt_buf_append(&tag, "</", 2);
      if (st == XMT_OK)
        st = xmt_buf_append(&tag, qname, qlen);
      if (st == XMT_OK)
        st = xmt_buf_append(&tag, ">", 1);
    }
  }
  if (st == XMT_OK)
    st = add_edit(ed, at, s->empty && s->tp_end == 0 ? s->head_end : at, &tag);
  xmt_buf_free(&tag);
  xmt_buf_free(&b);
  return st;
}

static int by_from(const void *a, const void *b) {
  size_t x = ((const struct odt_edit *)a)->from;
  size_t y = ((const struct odt_edit *)b)->from;
  return x < y ? -1 : x > y;
}

/* Per style: 1 used by translated text, 2 by text kept as it was. */
static unsigned char *uses_of(const struct odt_doc *doc) {
  unsigned char *use = calloc(doc->nstyles + 1, 1);
  if (use == NULL)
    return NULL;
  for (size_t i = 0; i < doc->nstyles; i++)
    use[i] = doc->styles[i].kept ? 2 : 0;
  for (size_t i = 0; i < doc->npara; i++)
    for (size_t k = 0; k < doc->paras[i].nstyles; k++)
      use[doc->paras[i].styles[k]] |= doc->paras[i].target != NULL ? 1 : 2;
  return use;
}

xmt_status xmt_odt_lang_edits(const struct odt_doc *doc, const char *language,
                              struct odt_edit **edits, size_t *n) {
  *edits = NULL;
  *n = 0;
  struct target t;
  if (language == NULL || doc->nstyles == 0 || !read_target(language, &t))
    return XMT_OK;
  unsigned char *use = uses_of(doc);
  if (use == NULL)
    return XMT_ERR_NOMEM;
  struct edits ed = {0};
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < doc->nstyles && st == XMT_OK; i++)
    if (use[i] == 1)
      st = style_edits(doc, &doc->styles[i], &t, &ed);
  free(use);
  if (st != XMT_OK) {
    xmt_odt_edits_free(ed.e, ed.n);
    return st;
  }
  if (ed.n > 1)
    qsort(ed.e, ed.n, sizeof *ed.e, by_from);
  *edits = ed.e;
  *n = ed.n;
  return XMT_OK;
}

void xmt_odt_edits_free(struct odt_edit *edits, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(edits[i].bytes);
  free(edits);
}

void xmt_odt_styles_free(struct odt_doc *doc) {
  for (size_t i = 0; i < doc->nstyles; i++)
    free(doc->styles[i].name);
  free(doc->styles);
  doc->styles = NULL;
  doc->nstyles = doc->styles_cap = 0;
}

/* A start tag's raw attributes, read here and by odt_read.c. */
int xmt_odt_next_attr(const char *tag, size_t *at, const char **name,
                      size_t *nlen, size_t *vfrom, size_t *vto) {
  const char *p = tag + *at;
  p += strspn(p, " \t\r\n");
  if (*p == '/' || *p == '>' || *p == '\0')
    return 0;
  *name = p;
  *nlen = strcspn(p, " \t\r\n=");
  p = strchr(p, '=');
  if (p == NULL)
    return 0;
  p += 1 + strspn(p + 1, " \t\r\n");
  const char *close = strchr(p + 1, *p);
  if (close == NULL)
    return 0;
  *vfrom = (size_t)(p + 1 - tag);
  *vto = (size_t)(close - tag);
  *at = *vto + 1;
  return 1;
}

size_t xmt_odt_first_attr(const char *tag) { return strcspn(tag, " \t\r\n/>"); }
