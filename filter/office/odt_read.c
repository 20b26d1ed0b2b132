/* odt_read.c -- the paragraphs of an OpenDocument content.xml: each
 * text:p and text:h of office:text with text becomes a source segment,
 * as does the svg:title and svg:desc of a frame or shape (its
 * alternative text, text alone), and in meta.xml the title, subject,
 * description and keywords
 * (in tables, lists, sections, and inside notes and frames: a note or a
 * frame is an isolated code of the paragraph it stands in, its own
 * paragraphs units of their own). The automatic styles of text are read
 * first: a span's style is known by what it shows (its properties less
 * revision ids and language), so that spans that show alike are one
 * stretch and a span that shows nothing is no code. text:a is a paired
 * code; any other element of a paragraph (text:s, text:tab, breaks,
 * bookmarks, fields, frames, notes, annotations) is an isolated code of
 * its bytes, the paragraphs in it (a note's, a frame's, an annotation's)
 * units of their own. The automatic paragraph and text
 * styles are read with where their language is said, and the ones each
 * piece of text is in noted: a unit's on the paragraph, others' marking
 * the style kept (odt_lang.c). */
#include "config.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odt_private.h"

#define TEXT_NS "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
#define OFFICE_NS "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
#define STYLE_NS "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
#define SVG_NS "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
#define DC_NS "http://purl.org/dc/elements/1.1/"
#define META_NS "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
#define FO_NS "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
#define FORM_NS "urn:oasis:names:tc:opendocument:xmlns:form:1.0"
#define TABLE_NS "urn:oasis:names:tc:opendocument:xmlns:table:1.0"

/* Paragraphs inside paragraphs (a note's, a frame's) this deep at most;
 * deeper ones stay inside their code, untranslated. */
#define NEST_MAX 8
#define SPANS_MAX 32
#define XMT_STR_(x) #x
#define XMT_STR(x) XMT_STR_(x)

struct style_key {
  char *name, *key;
};

/* A paragraph being read. */
struct builder {
  struct odt_para para;
  unsigned long depth; /* of its element */
  int alone;           /* a name too long to write: left alone */
  int in_text;         /* the last piece is text the next may extend */
  struct odt_piece *pieces;
  size_t n, cap;
  struct xmt_buf pool, spans, key; /* the spans open: start tags, shows */
  struct {
    unsigned long depth;
    size_t spans_len, key_len;
  } open_spans[SPANS_MAX];
  size_t nspans;
  unsigned long links[SPANS_MAX]; /* depths of the text:a, text:meta open */
  size_t nlinks;
  /* an element copied whole as an isolated code (0: none); nested: its
   * paragraphs are units */
  unsigned long skip_depth;
  size_t skip_start;
  int nested, drop; /* drop: no code at its end (in a ruby's pair) */
  /* a text:ruby read (its depth; 0: none) from ruby_start: a pair, open
   * up to its text:ruby-base's start tag, close from that one's end tag
   * (the reading, text:ruby-text, in it); ruby_base 1 while the base is
   * read, 2 once read */
  unsigned long ruby_depth;
  size_t ruby_start;
  int ruby_base;
  size_t *uses; /* the automatic styles its text is in */
  size_t nuses, uses_cap;
};

/* A paragraph or span open, for the styles text is in: its automatic
 * style (-1: none), its builder (-1: a paragraph that is no unit). */
struct text_elem {
  unsigned long depth;
  long style, builder;
  int para;
};

#define TEXT_ELEMS_MAX 64

struct style_ref {
  const char *name;
  size_t index;
};

struct reader {
  struct xmt_office_xml x; /* first: the parse, how it stopped, why */
  struct odt_doc *doc;
  unsigned long depth;
  unsigned long text_depth;   /* of office:text (0: not in it) */
  unsigned long opaque_depth; /* of an element with no units in it */
  /* automatic styles of text: the one being read (name NULL: none) */
  struct style_key *styles;
  size_t nstyles, cap;
  int in_auto, sorted;
  char *style_name;
  struct xmt_buf style_key;
  size_t child_mark; /* the key's length before the child being read */
  struct builder b[NEST_MAX];
  size_t nb;
  /* the automatic style of paragraphs or text being read (-1: none) */
  long cur_style;
  unsigned long cur_depth;
  struct style_ref *by_name; /* doc->styles by name */
  size_t nsorted;
  struct text_elem te[TEXT_ELEMS_MAX];
  size_t nte;
};

/* A master page's header or footer (left, first pages too). */
static int is_header(const char *name) {
  static const char *const names[] = {
      "header",       "footer",       "header-left", "footer-left",
      "header-first", "footer-first", NULL};
  for (size_t i = 0; names[i] != NULL; i++)
    if (xmt_office_is(name, STYLE_NS, names[i]))
      return 1;
  return 0;
}

/* An element whose text is a unit: a paragraph, or what shows like one
 * (an image's alternative text; a document's title; an index's title as
 * its update writes it again, which the index body's title is read
 * from; the notice printed where a footnote goes on to the next page,
 * and where it comes from). */
static int is_para(const struct odt_doc *doc, const char *name) {
  if (doc->meta)
    return xmt_office_is(name, DC_NS, "title") ||
           xmt_office_is(name, DC_NS, "subject") ||
           xmt_office_is(name, DC_NS, "description") ||
           xmt_office_is(name, META_NS, "keyword");
  return xmt_office_is(name, TEXT_NS, "p") ||
         xmt_office_is(name, TEXT_NS, "h") ||
         xmt_office_is(name, SVG_NS, "title") ||
         xmt_office_is(name, SVG_NS, "desc") ||
         xmt_office_is(name, TEXT_NS, "index-title-template") ||
         xmt_office_is(name, TEXT_NS, "note-continuation-notice-forward") ||
         xmt_office_is(name, TEXT_NS, "note-continuation-notice-backward");
}

/* The element whose units the part has in it. */
static int is_body(const struct odt_doc *doc, const char *name) {
  if (doc->headers) /* and the notes' continuation notices, printed */
    return is_header(name) ||
           xmt_office_is(name, TEXT_NS, "notes-configuration");
  if (doc->chart)
    return xmt_office_is(name, OFFICE_NS, "chart");
  return xmt_office_is(name, OFFICE_NS, doc->meta ? "meta" : "text");
}

static size_t here(const struct reader *r) {
  return (size_t)XML_GetCurrentByteIndex(r->x.xp);
}
static size_t past_event(const struct reader *r) {
  return here(r) + (size_t)XML_GetCurrentByteCount(r->x.xp);
}
/* 1 when the start tag just read is an empty element (<x/>). */
static int empty_tag(const struct reader *r) {
  size_t end = past_event(r);
  return end >= 2 && r->doc->part.data[end - 2] == '/';
}

static void check(struct reader *r, xmt_status st) {
  if (st != XMT_OK)
    xmt_office_stop(&r->x, st);
}

/* --- Automatic styles ---------------------------------------------------- */

/* Properties that do not show: revision ids and the language. */
static int unseen(const char *attr) {
  static const char *const names[] = {
      "rsid",   "paragraph-rsid",   "language", "country",
      "script", "rfc-language-tag", NULL};
  const char *local = strrchr(attr, '|');
  local = local != NULL ? local + 1 : attr;
  for (size_t i = 0; names[i] != NULL; i++) {
    size_t n = strlen(names[i]);
    size_t ln = strlen(local);
    /* language, language-asian, language-complex, country-...: all */
    if (ln >= n && (strcmp(local, names[i]) == 0 ||
                    (strncmp(local, names[i], n) == 0 && local[n] == '-') ||
                    (ln > n && strcmp(local + ln - n, names[i]) == 0 &&
                     local[ln - n - 1] == '-')))
      return 1;
  }
  return 0;
}

static void put_attrs(struct reader *r, const char **attrs) {
  for (; attrs[0] != NULL; attrs += 2) {
    if (unseen(attrs[0]))
      continue;
    xmt_buf_append_str(&r->style_key, attrs[0]);
    xmt_buf_append(&r->style_key, "=", 1);
    xmt_buf_append_str(&r->style_key, attrs[1]);
    check(r, xmt_buf_append(&r->style_key, ";", 1));
  }
}

/* A <style:style>'s style:name and style:family, NULL when missing. */
static void style_name_family(const XML_Char **attrs, const char **name,
                              const char **family) {
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (xmt_office_is(attrs[i], STYLE_NS, "name"))
      *name = attrs[i + 1];
    else if (xmt_office_is(attrs[i], STYLE_NS, "family"))
      *family = attrs[i + 1];
}

static void style_start(struct reader *r, const char *name,
                        const char **attrs) {
  if (r->style_name != NULL) { /* a child: its properties */
    r->child_mark = r->style_key.len;
    xmt_buf_append_str(&r->style_key, name);
    xmt_buf_append(&r->style_key, "{", 1);
    put_attrs(r, attrs);
    return;
  }
  if (!xmt_office_is(name, STYLE_NS, "style"))
    return;
  const char *sname = NULL, *family = NULL;
  style_name_family(attrs, &sname, &family);
  if (sname == NULL || family == NULL || strcmp(family, "text") != 0)
    return;
  r->style_name = strdup(sname);
  if (r->style_name == NULL)
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
  xmt_buf_reset(&r->style_key);
  check(r, xmt_buf_append(&r->style_key, "", 0));
  /* of the style's own attributes, only its parent shows (its name,
   * family, display name do not) */
  for (; attrs[0] != NULL; attrs += 2)
    if (xmt_office_is(attrs[0], STYLE_NS, "parent-style-name")) {
      xmt_buf_append_str(&r->style_key, "parent=");
      check(r, xmt_buf_append_str(&r->style_key, attrs[1]));
    }
}

static void style_end(struct reader *r, int style) {
  if (r->style_name == NULL)
    return;
  if (!style) { /* a child with nothing that shows is none */
    if (r->style_key.len > 0 && r->style_key.data[r->style_key.len - 1] == '{')
      r->style_key.data[r->style_key.len = r->child_mark] = '\0';
    else
      check(r, xmt_buf_append(&r->style_key, "}", 1));
    return;
  }
  char *key = strdup(r->style_key.data);
  if (key == NULL || xmt_grow_one(&r->styles, r->nstyles, &r->cap,
                                  sizeof *r->styles) == NULL) {
    free(key);
    free(r->style_name);
    r->style_name = NULL;
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return;
  }
  r->styles[r->nstyles].name = r->style_name;
  r->styles[r->nstyles].key = key;
  r->nstyles++;
  r->style_name = NULL;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const struct style_key *)a)->name,
                ((const struct style_key *)b)->name);
}

/* What the style named name shows: its key, or the name itself for a
 * style not automatic (a named style of styles.xml). */
static const char *shows(struct reader *r, const char *name, int *known) {
  if (!r->sorted) {
    if (r->nstyles > 0)
      qsort(r->styles, r->nstyles, sizeof *r->styles, by_name);
    r->sorted = 1;
  }
  struct style_key k = {(char *)name, NULL};
  const struct style_key *s =
      r->nstyles > 0
          ? bsearch(&k, r->styles, r->nstyles, sizeof *r->styles, by_name)
          : NULL;
  *known = s != NULL;
  return s != NULL ? s->key : name;
}

/* --- The language of automatic styles ------------------------------------ */

/* The prefix the root element binds to the FO namespace, kept in the
 * doc: attributes added to a style are written with it. */
static void root_prefix(struct reader *r) {
  const char *tag = r->doc->part.data + here(r);
  const char *name;
  size_t at = xmt_odt_first_attr(tag), nlen, vfrom, vto;
  while (xmt_odt_next_attr(tag, &at, &name, &nlen, &vfrom, &vto))
    if (nlen > 6 && nlen - 6 < sizeof r->doc->fo_prefix &&
        memcmp(name, "xmlns:", 6) == 0 && vto - vfrom == strlen(FO_NS) &&
        memcmp(tag + vfrom, FO_NS, vto - vfrom) == 0) {
      memcpy(r->doc->fo_prefix, name + 6, nlen - 6);
      r->doc->fo_prefix[nlen - 6] = '\0';
    }
}

/* The index of a language attribute (ODT_LANG_ATTRS: none). */
static size_t lang_attr(const char *name) {
  static const char *const style_names[] = {
      "rfc-language-tag",        "language-asian",   "country-asian",
      "rfc-language-tag-asian",  "language-complex", "country-complex",
      "rfc-language-tag-complex"};
  if (xmt_office_is(name, FO_NS, "language"))
    return 0;
  if (xmt_office_is(name, FO_NS, "country"))
    return 1;
  for (size_t i = 0; i < sizeof style_names / sizeof *style_names; i++)
    if (xmt_office_is(name, STYLE_NS, style_names[i]))
      return i + 2;
  return ODT_LANG_ATTRS;
}

/* The value of each language attribute of a style:text-properties: the
 * raw attributes are expat's in the same order, less the namespace
 * declarations (which expat does not report). */
static void text_properties(struct reader *r, struct odt_style *st,
                            const char **attrs) {
  st->tp_from = here(r);
  st->tp_end = past_event(r);
  const char *tag = r->doc->part.data + st->tp_from;
  const char *name;
  size_t at = xmt_odt_first_attr(tag), nlen, vfrom, vto;
  while (attrs[0] != NULL &&
         xmt_odt_next_attr(tag, &at, &name, &nlen, &vfrom, &vto)) {
    if (nlen >= 5 && memcmp(name, "xmlns", 5) == 0 &&
        (nlen == 5 || name[5] == ':'))
      continue;
    size_t k = lang_attr(attrs[0]);
    if (k < ODT_LANG_ATTRS) {
      st->val[k][0] = st->tp_from + vfrom;
      st->val[k][1] = st->tp_from + vto;
    }
    attrs += 2;
  }
}

/* An automatic style of paragraphs or text, and its text properties. */
static void capture_start(struct reader *r, const char *name,
                          const char **attrs) {
  struct odt_doc *doc = r->doc;
  if (r->cur_style >= 0) {
    struct odt_style *cs = &doc->styles[r->cur_style];
    if (r->depth == r->cur_depth + 1 &&
        xmt_office_is(name, STYLE_NS, "text-properties") && cs->tp_end == 0)
      text_properties(r, cs, attrs);
    else if (r->depth == r->cur_depth + 1 &&
             xmt_office_is(name, STYLE_NS, "paragraph-properties") &&
             empty_tag(r))
      cs->props_end = past_event(r);
    return;
  }
  if (!xmt_office_is(name, STYLE_NS, "style"))
    return;
  const char *sname = NULL, *family = NULL;
  style_name_family(attrs, &sname, &family);
  if (sname == NULL || family == NULL ||
      (strcmp(family, "text") != 0 && strcmp(family, "paragraph") != 0))
    return;
  struct odt_style *st =
      xmt_grow_one(&doc->styles, doc->nstyles, &doc->styles_cap, sizeof *st);
  char *copy = strdup(sname);
  if (st == NULL || copy == NULL) {
    free(copy);
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return;
  }
  *st = (struct odt_style){.name = copy,
                           .from = here(r),
                           .head_end = past_event(r),
                           .empty = empty_tag(r)};
  r->cur_style = (long)doc->nstyles++;
  r->cur_depth = r->depth;
}

static int by_style_name(const void *a, const void *b) {
  return strcmp(((const struct style_ref *)a)->name,
                ((const struct style_ref *)b)->name);
}

/* The index of the automatic style named name, -1 when none is. */
static long style_index(struct reader *r, const char *name) {
  struct odt_doc *doc = r->doc;
  if (r->nsorted != doc->nstyles) {
    struct style_ref *idx =
        realloc(r->by_name, (doc->nstyles + 1) * sizeof *idx);
    if (idx == NULL) {
      xmt_office_stop(&r->x, XMT_ERR_NOMEM);
      return -1;
    }
    r->by_name = idx;
    for (size_t i = 0; i < doc->nstyles; i++)
      idx[i] = (struct style_ref){doc->styles[i].name, i};
    qsort(idx, doc->nstyles, sizeof *idx, by_style_name);
    r->nsorted = doc->nstyles;
  }
  struct style_ref key = {name, 0};
  const struct style_ref *found =
      bsearch(&key, r->by_name, r->nsorted, sizeof key, by_style_name);
  return found != NULL ? (long)found->index : -1;
}

/* A paragraph or span opened: the style its text is in. */
static void push_text(struct reader *r, const char *name, const char **attrs) {
  int para =
      xmt_office_is(name, TEXT_NS, "p") || xmt_office_is(name, TEXT_NS, "h");
  if ((!para && !xmt_office_is(name, TEXT_NS, "span")) ||
      r->nte == TEXT_ELEMS_MAX || r->doc->nstyles == 0)
    return;
  long style = -1;
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (xmt_office_is(attrs[i], TEXT_NS, "style-name"))
      style = style_index(r, attrs[i + 1]);
  long builder = -1;
  if (para && r->nb > 0 && r->b[r->nb - 1].depth == r->depth &&
      r->b[r->nb - 1].skip_depth == 0)
    builder = (long)r->nb - 1;
  r->te[r->nte++] = (struct text_elem){r->depth, style, builder, para};
}

/* Text read: the styles it is in are used by the paragraph it is a unit
 * of (or a code of), else by text that is not translated. */
static void text_in(struct reader *r) {
  size_t k = r->nte;
  while (k > 0 && !r->te[k - 1].para)
    k--;
  struct builder *b = NULL;
  if (k > 0 && r->te[k - 1].builder >= 0 &&
      (size_t)r->te[k - 1].builder < r->nb &&
      r->b[r->te[k - 1].builder].depth == r->te[k - 1].depth)
    b = &r->b[r->te[k - 1].builder];
  for (size_t i = k > 0 ? k - 1 : 0; i < r->nte; i++) {
    long style = r->te[i].style;
    if (style < 0)
      continue;
    size_t j = 0;
    while (b != NULL && j < b->nuses && b->uses[j] != (size_t)style)
      j++;
    if (b == NULL || (j == b->nuses && b->nuses >= 256)) {
      r->doc->styles[style].kept = 1; /* no unit's, or too many to keep */
    } else if (j == b->nuses) {
      if (xmt_grow_one(&b->uses, b->nuses, &b->uses_cap, sizeof *b->uses) ==
          NULL) {
        xmt_office_stop(&r->x, XMT_ERR_NOMEM);
        return;
      }
      b->uses[b->nuses++] = (size_t)style;
    }
  }
}

/* --- Paragraphs ---------------------------------------------------------- */

static struct odt_piece *add_piece(struct reader *r, struct builder *b,
                                   enum odt_piece_type type, const char *bytes,
                                   size_t len) {
  struct odt_piece *p = xmt_grow_one(&b->pieces, b->n, &b->cap, sizeof *p);
  if (p == NULL || xmt_buf_append(&b->pool, bytes, len) != XMT_OK) {
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return NULL;
  }
  b->n++;
  *p = (struct odt_piece){.type = type, .off = b->pool.len - len, .len = len};
  return p;
}

static void begin_para(struct reader *r) {
  if (r->nb == NEST_MAX)
    return;
  struct builder *b = &r->b[r->nb++];
  const char *tag = r->doc->part.data + here(r) + 1;
  size_t n = strcspn(tag, " \t\r\n/>");
  const char *colon = memchr(tag, ':', n);
  size_t pn = colon != NULL ? (size_t)(colon - tag) : 0;
  memset(&b->para, 0, sizeof b->para);
  b->depth = r->depth;
  b->alone = n >= sizeof b->para.name || pn >= sizeof b->para.prefix;
  if (b->alone)
    n = pn = 0;
  memcpy(b->para.name, tag, n);
  memcpy(b->para.prefix, tag, pn);
  b->para.start = here(r);
  b->para.head_end = past_event(r);
  b->n = b->nspans = b->nlinks = 0;
  b->skip_depth = 0;
  b->ruby_depth = 0;
  b->in_text = 0;
  b->nuses = 0;
  xmt_buf_reset(&b->pool);
  xmt_buf_reset(&b->spans);
  xmt_buf_reset(&b->key);
  check(r, xmt_buf_append(&b->spans, "", 0));
  check(r, xmt_buf_append(&b->key, "", 0));
}

static void open_span(struct reader *r, struct builder *b, const char **attrs) {
  if (b->nspans == SPANS_MAX) {
    r->x.why = "spans nested over " XMT_STR(SPANS_MAX) " deep are not read";
    xmt_office_stop(&r->x, XMT_ERR_FORMAT);
    return;
  }
  b->open_spans[b->nspans].depth = r->depth;
  b->open_spans[b->nspans].spans_len = b->spans.len;
  b->open_spans[b->nspans].key_len = b->key.len;
  b->nspans++;
  const char *style = NULL;
  for (; attrs[0] != NULL; attrs += 2)
    if (xmt_office_is(attrs[0], TEXT_NS, "style-name"))
      style = attrs[1];
  int known = 0;
  const char *key = style != NULL ? shows(r, style, &known) : "";
  if (key[0] == '\0')
    return; /* shows nothing: no code, no span written */
  xmt_buf_append(&b->key, known ? "[" : "[named:", known ? 1 : 7);
  xmt_buf_append_str(&b->key, key);
  xmt_buf_append(&b->key, "]", 1);
  check(r, xmt_buf_append(&b->spans, r->doc->part.data + here(r),
                          past_event(r) - here(r)));
}

/* An element of a paragraph copied whole as an isolated code; nested: the
 * paragraphs in it are units. */
static void skip_element(struct reader *r, struct builder *b, int nested) {
  b->skip_depth = r->depth;
  b->skip_start = here(r);
  b->nested = nested;
  b->drop = 0;
}

/* A child of a text:ruby: its first text:ruby-base ends the open of the
 * pair, whose text is the paragraph's; the reading (text:ruby-text) and
 * anything else is in the pair's open or close, not translated alone: a
 * reading says how the base is read in the source language. */
static void ruby_child(struct reader *r, struct builder *b, const char *name) {
  if (!xmt_office_is(name, TEXT_NS, "ruby-base") || b->ruby_base != 0 ||
      empty_tag(r) || b->nlinks == SPANS_MAX) {
    skip_element(r, b, 0);
    b->drop = 1;
    return;
  }
  b->ruby_base = 1;
  b->links[b->nlinks++] = r->depth;
  const char *part = r->doc->part.data;
  add_piece(r, b, ODT_OPEN, part + b->ruby_start,
            past_event(r) - b->ruby_start);
}

/* The attribute ns|local of the element starting, a unit of its own
 * (a placeholder's tooltip, a form control's label). */
static void value_unit(struct reader *r, const char **attrs, const char *ns,
                       const char *local) {
  const char *value = NULL, *tag = r->doc->part.data + here(r), *name;
  for (size_t i = 0; attrs[i] != NULL && value == NULL; i += 2)
    if (xmt_office_is(attrs[i], ns, local))
      value = attrs[i + 1];
  size_t at = xmt_odt_first_attr(tag), nlen, vfrom, vto, n = strlen(local);
  while (value != NULL &&
         xmt_odt_next_attr(tag, &at, &name, &nlen, &vfrom, &vto))
    if (nlen > n && name[nlen - n - 1] == ':' &&
        memcmp(name + nlen - n, local, n) == 0) {
      check(r,
            xmt_odt_add_value(r->doc, here(r) + vfrom, here(r) + vto, value));
      return;
    }
}

/* A form control's label (a button's, a check box's) and its tooltip
 * (form:title), shown on the page. */
static void form_values(struct reader *r, const char **attrs) {
  value_unit(r, attrs, FORM_NS, "label");
  value_unit(r, attrs, FORM_NS, "title");
}

/* An index mark (text:toc-mark, text:alphabetical-index-mark...): the
 * entry with no text of its own (text:string-value) and keys (text:key1,
 * text:key2) it puts in an index, which an update writes again. */
static void index_mark(struct reader *r, const char *name, const char **attrs) {
  if (strncmp(name, TEXT_NS "|", sizeof TEXT_NS) != 0 ||
      strstr(name, "-mark") == NULL || strstr(name, "-mark-end") != NULL)
    return;
  value_unit(r, attrs, TEXT_NS, "string-value");
  value_unit(r, attrs, TEXT_NS, "key1");
  value_unit(r, attrs, TEXT_NS, "key2");
}

static void start_in_para(struct reader *r, struct builder *b, const char *name,
                          const char **attrs) {
  if (b->ruby_depth != 0 && r->depth == b->ruby_depth + 1) {
    ruby_child(r, b, name);
    return;
  }
  if (xmt_office_is(name, TEXT_NS, "ruby") && !empty_tag(r) &&
      b->ruby_depth == 0) {
    b->ruby_depth = r->depth;
    b->ruby_start = here(r);
    b->ruby_base = 0;
    return;
  }
  if (xmt_office_is(name, TEXT_NS, "span") && !empty_tag(r)) {
    open_span(r, b, attrs);
    return;
  }
  if (xmt_office_is(name, TEXT_NS, "placeholder"))
    value_unit(r, attrs, TEXT_NS, "description"); /* its tooltip */
  index_mark(r, name, attrs);
  /* a link, text with metadata (text:meta) and a placeholder (whose text
   * is the prompt the document shows): a pair around its text */
  if ((xmt_office_is(name, TEXT_NS, "a") ||
       xmt_office_is(name, TEXT_NS, "meta") ||
       xmt_office_is(name, TEXT_NS, "placeholder")) &&
      !empty_tag(r) && b->nlinks < SPANS_MAX) {
    b->links[b->nlinks++] = r->depth;
    const char *part = r->doc->part.data;
    struct odt_piece *p =
        add_piece(r, b, ODT_OPEN, part + here(r), past_event(r) - here(r));
    if (p != NULL && xmt_office_is(name, TEXT_NS, "placeholder")) {
      /* its tooltip: the code written through the part, with it */
      p->from = here(r);
      p->to = past_event(r);
    }
    return;
  }
  /* the paragraphs of a note, a frame, an annotation (a comment, as
   * Word's are) and any other element that holds some are translated */
  skip_element(r, b, 1);
}

/* In a chart's table, a cell of a number (office:value-type other than
 * string): its paragraph shows the value, not words. */
static int number_cell(const char *name, const XML_Char **attrs) {
  if (strcmp(name, TABLE_NS "|table-cell") != 0)
    return 0;
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (xmt_office_is(attrs[i], OFFICE_NS, "value-type"))
      return strcmp(attrs[i + 1], "string") != 0;
  return 0;
}

static void start_elem(struct reader *r, const XML_Char *name,
                       const XML_Char **attrs) {
  if (r->depth == 1)
    root_prefix(r);
  if (r->opaque_depth != 0)
    return;
  if (r->in_auto) {
    capture_start(r, name, attrs);
    style_start(r, name, attrs);
    return;
  }
  struct builder *b = r->nb > 0 ? &r->b[r->nb - 1] : NULL;
  if (b != NULL)
    b->in_text = 0; /* the spans around the next text may differ */
  int para = is_para(r->doc, name);
  if (b == NULL || b->skip_depth != 0) {
    if (b != NULL && !b->nested)
      return;
    if (r->text_depth != 0 && para)
      begin_para(r);
    else if (r->text_depth != 0 && b == NULL &&
             strncmp(name, FORM_NS "|", sizeof FORM_NS) == 0)
      form_values(r, attrs);
    else if (xmt_office_is(name, OFFICE_NS, "automatic-styles"))
      r->in_auto = 1;
    else if (r->text_depth == 0 && is_body(r->doc, name))
      r->text_depth = r->depth;
    else if (xmt_office_is(name, TEXT_NS, "tracked-changes") ||
             (r->doc->chart && number_cell(name, attrs)))
      r->opaque_depth = r->depth; /* deleted text, a number: kept */
    return;
  }
  start_in_para(r, b, name, attrs);
}

static void XMLCALL on_start(void *user, const XML_Char *name,
                             const XML_Char **attrs) {
  struct reader *r = user;
  r->depth++;
  if (r->x.st != XMT_OK)
    return;
  start_elem(r, name, attrs);
  if (!r->in_auto)
    push_text(r, name, attrs);
}

static void end_para(struct reader *r) {
  struct builder *b = &r->b[--r->nb];
  b->para.end = past_event(r);
  int text = 0;
  for (size_t i = 0; i < b->n && !text; i++)
    text = b->pieces[i].type == ODT_TEXT &&
           !xmt_office_blank(b->pool.data + b->pieces[i].off, b->pieces[i].len);
  if (!text || b->alone) { /* left alone, its text too */
    for (size_t i = 0; i < b->nuses; i++)
      r->doc->styles[b->uses[i]].kept = 1;
    return;
  }
  struct odt_doc *doc = r->doc;
  struct odt_para *p =
      xmt_grow_one(&doc->paras, doc->npara, &doc->cap, sizeof *p);
  if (p == NULL) {
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return;
  }
  *p = b->para;
  xmt_status st =
      xmt_odt_para_finish(p, b->pool.data, b->pieces, b->n, doc->part.data);
  if (st == XMT_OK && b->nuses > 0) {
    p->styles = malloc(b->nuses * sizeof *p->styles);
    if (p->styles == NULL) {
      xmt_odt_para_free(p);
      st = XMT_ERR_NOMEM;
    } else {
      memcpy(p->styles, b->uses, b->nuses * sizeof *p->styles);
      p->nstyles = b->nuses;
    }
  }
  if (st != XMT_OK)
    xmt_office_stop(&r->x, st);
  else
    doc->npara++;
}

/* The end of a text:ruby: its pair's close, or with no base read, the
 * whole ruby an isolated code. */
static void ruby_end(struct reader *r, struct builder *b) {
  b->ruby_depth = 0;
  struct odt_piece *p =
      add_piece(r, b, b->ruby_base == 2 ? ODT_CLOSE : ODT_ISOLATED,
                b->ruby_base == 2 ? r->doc->part.data + b->ruby_start : "",
                b->ruby_base == 2 ? past_event(r) - b->ruby_start : 0);
  if (p != NULL && p->type == ODT_ISOLATED) {
    p->from = b->ruby_start;
    p->to = past_event(r);
  }
}

static void end_in_para(struct reader *r, struct builder *b) {
  if (b->skip_depth == r->depth && b->drop) {
    b->skip_depth = 0;
  } else if (b->skip_depth == r->depth) {
    b->skip_depth = 0;
    struct odt_piece *p = add_piece(r, b, ODT_ISOLATED, "", 0);
    if (p != NULL) {
      p->from = b->skip_start;
      p->to = past_event(r);
    }
  } else if (b->nspans > 0 && b->open_spans[b->nspans - 1].depth == r->depth) {
    b->nspans--;
    b->spans.len = b->open_spans[b->nspans].spans_len;
    b->key.len = b->open_spans[b->nspans].key_len;
    b->spans.data[b->spans.len] = '\0';
    b->key.data[b->key.len] = '\0';
  } else if (b->ruby_depth != 0 && b->ruby_depth == r->depth) {
    ruby_end(r, b);
  } else if (b->ruby_base == 1 && b->ruby_depth + 1 == r->depth &&
             b->nlinks > 0 && b->links[b->nlinks - 1] == r->depth) {
    b->nlinks--;
    b->ruby_base = 2;
    b->ruby_start = here(r); /* the close from the base's end tag */
  } else if (b->nlinks > 0 && b->links[b->nlinks - 1] == r->depth) {
    b->nlinks--;
    const char *part = r->doc->part.data;
    add_piece(r, b, ODT_CLOSE, part + here(r), past_event(r) - here(r));
  }
}

static void XMLCALL on_end(void *user, const XML_Char *name) {
  struct reader *r = user;
  struct builder *b = r->nb > 0 ? &r->b[r->nb - 1] : NULL;
  if (b != NULL)
    b->in_text = 0;
  if (r->x.st != XMT_OK || r->opaque_depth != 0) {
    if (r->opaque_depth == r->depth)
      r->opaque_depth = 0;
  } else if (r->in_auto) {
    if (r->cur_style >= 0 && r->cur_depth == r->depth) {
      struct odt_style *cs = &r->doc->styles[r->cur_style];
      cs->end = cs->empty ? cs->head_end : past_event(r);
      r->cur_style = -1;
    } else if (r->cur_style >= 0 && r->cur_depth + 1 == r->depth &&
               xmt_office_is(name, STYLE_NS, "paragraph-properties") &&
               r->doc->styles[r->cur_style].props_end == 0) {
      r->doc->styles[r->cur_style].props_end = past_event(r);
    }
    if (xmt_office_is(name, OFFICE_NS, "automatic-styles"))
      r->in_auto = 0;
    else
      style_end(r, xmt_office_is(name, STYLE_NS, "style"));
  } else if (b != NULL && b->skip_depth == 0 && b->depth == r->depth) {
    end_para(r);
  } else if (b != NULL) {
    end_in_para(r, b);
  } else if (r->text_depth == r->depth) {
    r->text_depth = 0;
  }
  if (r->nte > 0 && r->te[r->nte - 1].depth == r->depth)
    r->nte--;
  r->depth--;
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len) {
  struct reader *r = user;
  if (r->x.st != XMT_OK)
    return;
  if (r->nte > 0 && !xmt_office_blank(s, (size_t)len))
    text_in(r);
  if (r->opaque_depth != 0 || r->nb == 0)
    return;
  struct builder *b = &r->b[r->nb - 1];
  if (b->skip_depth != 0 || (b->ruby_depth != 0 && b->ruby_depth == r->depth))
    return; /* blanks between a ruby's children are none of its text */
  struct odt_piece *last = b->n > 0 ? &b->pieces[b->n - 1] : NULL;
  /* expat hands text in pieces (at each entity): one piece of text for
   * as long as the spans stay the same */
  if (!b->in_text || last == NULL) {
    size_t key_off = b->pool.len;
    xmt_buf_append(&b->pool, b->key.data, b->key.len);
    size_t spans_off = b->pool.len;
    check(r, xmt_buf_append(&b->pool, b->spans.data, b->spans.len));
    last = add_piece(r, b, ODT_TEXT, "", 0);
    if (last == NULL)
      return;
    *last = (struct odt_piece){.type = ODT_TEXT,
                               .off = b->pool.len,
                               .key_off = key_off,
                               .key_len = b->key.len,
                               .spans_off = spans_off,
                               .spans_len = b->spans.len};
  }
  b->in_text = 1;
  check(r, xmt_buf_append(&b->pool, s, (size_t)len));
  last->len += (size_t)len;
}

static void reader_free(struct reader *r) {
  for (size_t i = 0; i < NEST_MAX; i++) {
    free(r->b[i].pieces);
    xmt_buf_free(&r->b[i].pool);
    xmt_buf_free(&r->b[i].spans);
    xmt_buf_free(&r->b[i].key);
    free(r->b[i].uses);
  }
  free(r->by_name);
  for (size_t i = 0; i < r->nstyles; i++) {
    free(r->styles[i].name);
    free(r->styles[i].key);
  }
  free(r->styles);
  free(r->style_name);
  xmt_buf_free(&r->style_key);
}

static int by_start(const void *a, const void *b) {
  size_t x = ((const struct odt_para *)a)->start;
  size_t y = ((const struct odt_para *)b)->start;
  return x < y ? -1 : x > y;
}

xmt_status xmt_odt_parse(struct odt_doc *doc, const char *path,
                         struct xmt_error_store *err) {
  struct reader r = {
      .x = {.start = on_start,
            .end = on_end,
            .text = on_text,
            .doctype = "a doctype is not read in an OpenDocument part"},
      .doc = doc,
      .cur_style = -1};
  const struct xmt_office_entry at = {path, doc->main, 1};
  xmt_status st =
      xmt_office_xml_parse(&r.x, doc->part.data, doc->part.len, &at, err);
  reader_free(&r);
  /* nested paragraphs end before the one they stand in: the writer
   * wants them in the order they start */
  if (st == XMT_OK && doc->npara > 1)
    qsort(doc->paras, doc->npara, sizeof *doc->paras, by_start);
  return st;
}
