/* word_values.c -- text of a Word document that is no paragraph but is
 * shown or read out all the same, each a unit of its own: a picture's
 * alternative text (wp:docPr's descr and title, Word's "Alt Text", its
 * copy in pic:cNvPr, a VML picture's alt and o:title), a hyperlink's
 * tooltip (w:tooltip), the core properties' title, subject and
 * description (docProps/core.xml: what a title bar, a PDF's metadata and
 * a search show), and the text of a chart or a SmartArt. The unit's
 * place is the bytes of the attribute's value or of the element's
 * content, which the writer replaces with the target escaped
 * (word_write.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_read.h"

#define WP_NS                                                                  \
  "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
#define DC_NS "http://purl.org/dc/elements/1.1/"
#define PIC_NS "http://schemas.openxmlformats.org/drawingml/2006/picture"
#define C_NS "http://schemas.openxmlformats.org/drawingml/2006/chart"
#define V_NS "urn:schemas-microsoft-com:vml"
#define O_NS "urn:schemas-microsoft-com:office:office"

/* A VML shape (a legacy w:pict picture's), whose alt is its alternative
 * text. */
static int vml_shape(const char *name) {
  static const char *const names[] = {"shape", "rect",     "roundrect", "oval",
                                      "line",  "polyline", "arc",       "curve",
                                      "group", "image",    NULL};
  for (size_t i = 0; names[i] != NULL; i++)
    if (xmt_office_is(name, V_NS, names[i]))
      return 1;
  return 0;
}

static size_t here(const struct reader *r) {
  return (size_t)XML_GetCurrentByteIndex(r->x.xp);
}

/* 1 when the attribute named (len bytes at) name is the one asked for:
 * local alone (no prefix), or any prefix and local when prefixed. */
static int attr_named(const char *name, size_t len, const char *local,
                      int prefixed) {
  size_t n = strlen(local);
  if (!prefixed)
    return len == n && memcmp(name, local, n) == 0;
  return len > n + 1 && name[len - n - 1] == ':' &&
         memcmp(name + len - n, local, n) == 0;
}

int xmt_word_value_at(const char *s, size_t n, const char *local, int prefixed,
                      size_t *from, size_t *to) {
  size_t i = 1;
  while (i < n && strchr(" \t\r\n/>", s[i]) == NULL)
    i++; /* the element's name */
  while (i < n) {
    while (i < n && strchr(" \t\r\n", s[i]) != NULL)
      i++;
    size_t name = i;
    while (i < n && strchr(" \t\r\n=/>", s[i]) == NULL)
      i++;
    size_t name_len = i - name;
    while (i < n && strchr(" \t\r\n", s[i]) != NULL)
      i++;
    if (i >= n || s[i] != '=')
      return 0; /* the end of the tag */
    for (i++; i < n && strchr(" \t\r\n", s[i]) != NULL; i++)
      ;
    if (i >= n || (s[i] != '"' && s[i] != '\''))
      return 0;
    const char *q = memchr(s + i + 1, s[i], n - i - 1);
    if (q == NULL)
      return 0;
    if (attr_named(s + name, name_len, local, prefixed)) {
      *from = i + 1;
      *to = (size_t)(q - s);
      return 1;
    }
    i = (size_t)(q - s) + 1;
  }
  return 0;
}

/* A unit of the part's bytes [from, to), its text the len bytes at text
 * (as expat read them: references decoded); none when it is blank. */
static void add_value(struct reader *r, size_t from, size_t to,
                      const char *text, size_t len) {
  if (xmt_office_blank(text, len))
    return;
  struct word_para para = {
      .start = from, .head_end = from, .end = to, .twin = -1, .value = 1};
  para.source = xmt_segment_new();
  xmt_status st = para.source != NULL
                      ? xmt_segment_append_text(para.source, text, len)
                      : XMT_ERR_NOMEM;
  if (st != XMT_OK) {
    xmt_word_para_free(&para);
    xmt_office_stop(&r->x, st);
    return;
  }
  xmt_word_push_para(r, &para);
}

/* The attribute local of the element starting (its expat name: ns "|"
 * local, or local alone when ns is NULL) as a unit. */
static void attr_value(struct reader *r, const XML_Char **attrs, const char *ns,
                       const char *local) {
  const char *value = NULL;
  for (size_t i = 0; attrs[i] != NULL && value == NULL; i += 2)
    if (ns != NULL ? xmt_office_is(attrs[i], ns, local)
                   : strcmp(attrs[i], local) == 0)
      value = attrs[i + 1];
  size_t from, to, at = here(r);
  if (value != NULL &&
      xmt_word_value_at(r->part->data.data + at,
                        (size_t)XML_GetCurrentByteCount(r->x.xp), local,
                        ns != NULL, &from, &to))
    add_value(r, at + from, at + to, value, strlen(value));
}

/* 1 when a form field's w:helpText or w:statusText names an AutoText
 * entry (w:type="autoText"), not text. */
static int auto_text(const XML_Char **attrs) {
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (xmt_office_is(attrs[i], W_NS, "type"))
      return strcmp(attrs[i + 1], "autoText") == 0;
  return 0;
}

void xmt_word_values_start(struct reader *r, const char *name,
                           const XML_Char **attrs) {
  const struct frame *s = &r->s;
  /* a content control around paragraphs, cells or rows: its choices'
   * text before them */
  if (s->para_depth == 0 && (s->skip_depth != 0 || !word_is(r, "listItem")))
    return;
  if (s->skip_depth != 0 && s->skip_keep)
    return; /* deleted: its text stays as it is */
  /* the picture's own copy of its alternative text (pic:cNvPr), as
   * wp:docPr's: a unit each, which the same engine answer keeps alike */
  if (xmt_office_is(name, WP_NS, "docPr") ||
      xmt_office_is(name, PIC_NS, "cNvPr")) {
    attr_value(r, attrs, NULL, "title");
    attr_value(r, attrs, NULL, "descr");
  } else if (vml_shape(name)) {
    attr_value(r, attrs, NULL, "alt");
  } else if (xmt_office_is(name, V_NS, "imagedata")) {
    attr_value(r, attrs, O_NS, "title");
  } else if (word_is(r, "hyperlink")) {
    attr_value(r, attrs, W_NS, "tooltip");
  } else if (word_is(r, "listItem")) {
    /* a content control's drop-down or combo box choice: what it shows */
    attr_value(r, attrs, W_NS, "displayText");
  } else if (((word_is(r, "helpText") || word_is(r, "statusText")) &&
              !auto_text(attrs)) ||
             word_is(r, "listEntry")) {
    /* a form field's help (F1), status bar text, a drop-down's entries
     * (the one chosen is what the document shows) */
    attr_value(r, attrs, W_NS, "val");
  } else if (word_is(r, "default") && r->input_depth != 0 &&
             r->depth == r->input_depth + 1) {
    /* a text field's default, what it shows again once reset: most
     * often its result's text, whose translation it takes then
     * (word_read_para.c) */
    size_t n = r->part->npara;
    attr_value(r, attrs, W_NS, "val");
    if (r->part->npara > n)
      r->part->paras[n].field_default = 1;
  } else if (word_is(r, "textInput")) {
    r->input_depth = r->depth;
  }
}

int xmt_word_holds_values(const char *part, size_t from, size_t to) {
  const char *s = part + from;
  size_t n = to - from;
  /* any of the attributes that may be one: a code that has one and no
   * unit is written through the part all the same, as it was */
  return memmem(s, n, "descr=", 6) != NULL ||
         memmem(s, n, "title=", 6) != NULL || memmem(s, n, "alt=", 4) != NULL ||
         memmem(s, n, "tooltip=", 8) != NULL ||
         memmem(s, n, "displayText=", 12) != NULL;
}

int xmt_word_holds_field_values(const char *part, size_t from, size_t to) {
  const char *s = part + from;
  size_t n = to - from;
  return memmem(s, n, "helpText ", 9) != NULL ||
         memmem(s, n, "statusText ", 11) != NULL ||
         memmem(s, n, "listEntry ", 10) != NULL ||
         memmem(s, n, "default ", 8) != NULL;
}

int xmt_word_is_drawing(const char *data, size_t len) {
  static const char *const roots[] = {"chartSpace", "dataModel", "drawing",
                                      NULL};
  const char *s = data, *end = data + len;
  /* past the XML declaration, comments, blanks: the first start tag */
  while (s < end && (s = memchr(s, '<', (size_t)(end - s))) != NULL &&
         s + 1 < end && (s[1] == '?' || s[1] == '!'))
    s++;
  if (s == NULL || s + 1 >= end)
    return 0;
  size_t n = 1;
  while (s + n < end && strchr(" \t\r\n/>", s[n]) == NULL)
    n++;
  const char *colon = memchr(s, ':', n);
  const char *local = colon != NULL ? colon + 1 : s + 1;
  size_t ln = (size_t)(s + n - local);
  for (size_t i = 0; roots[i] != NULL; i++)
    if (strlen(roots[i]) == ln && memcmp(local, roots[i], ln) == 0)
      return 1;
  return 0;
}

/* In a chart or SmartArt part: 1 when the element starting holds text
 * shown (a:t, a chart's string values and series names). */
static int drawing_text(struct reader *r, const char *name) {
  if (xmt_office_is(name, C_NS, "strCache") ||
      xmt_office_is(name, C_NS, "strLit") ||
      xmt_office_is(name, C_NS, "multiLvlStrCache")) {
    if (r->str_depth == 0)
      r->str_depth = r->depth;
    return 0;
  }
  if (xmt_office_is(name, C_NS, "tx") && r->tx_depth == 0) {
    r->tx_depth = r->depth;
    return 0;
  }
  return xmt_office_is(name, C_NS, "v") &&
         (r->str_depth != 0 || r->tx_depth + 1 == r->depth);
}

/* The core properties: dc:title, dc:subject and dc:description, children
 * of cp:coreProperties holding text alone, are units; in a chart or a
 * SmartArt, its string values (drawing_text). */
void XMLCALL xmt_word_props_start(void *user, const XML_Char *name,
                                  const XML_Char **attrs) {
  struct reader *r = user;
  (void)attrs;
  r->depth++;
  xmt_word_chart_start(r, name);
}

void xmt_word_chart_start(struct reader *r, const XML_Char *name) {
  if (r->x.st != XMT_OK)
    return;
  if (r->prop_depth != 0) {
    r->prop_bad = 1; /* markup in it: left as it is */
    return;
  }
  if (r->drawing
          ? drawing_text(r, name)
          : r->depth == 2 && (xmt_office_is(name, DC_NS, "title") ||
                              xmt_office_is(name, DC_NS, "subject") ||
                              xmt_office_is(name, DC_NS, "description"))) {
    r->prop_depth = r->depth;
    r->prop_from = here(r) + (size_t)XML_GetCurrentByteCount(r->x.xp);
    r->prop_bad = 0;
    xmt_buf_reset(&r->prop_text);
  }
}

void XMLCALL xmt_word_props_end(void *user, const XML_Char *name) {
  struct reader *r = user;
  (void)name;
  xmt_word_chart_end(r);
  r->depth--;
}

void xmt_word_chart_end(struct reader *r) {
  if (r->x.st == XMT_OK && r->prop_depth == r->depth) {
    r->prop_depth = 0;
    /* <dc:title/>: no content, no event bytes */
    if (!r->prop_bad && XML_GetCurrentByteCount(r->x.xp) > 0)
      add_value(r, r->prop_from, here(r), r->prop_text.data, r->prop_text.len);
    xmt_word_final(r);
  }
  if (r->str_depth == r->depth)
    r->str_depth = 0;
  if (r->tx_depth == r->depth)
    r->tx_depth = 0;
}

void XMLCALL xmt_word_props_text(void *user, const XML_Char *s, int len) {
  struct reader *r = user;
  if (r->x.st == XMT_OK && r->prop_depth == r->depth &&
      xmt_buf_append(&r->prop_text, s, (size_t)len) != XMT_OK)
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
}
