/* page.c -- the HTML reader: finds the translatable units of a page
 * (text of block elements with their inline elements as codes, translatable
 * attributes) as a browser would structure the page, and records the byte
 * ranges the writer replaces. Everything else is never touched. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_private.h"

#define NONE ((size_t)-1)

/* How far searches for an open element look: absurdly deep nesting costs
 * linear time, as in browsers, which cap their searches too. */
#define SEARCH_LIMIT 1024

static int name_in(const char *name, const char *const *list) {
  for (; *list != NULL; list++)
    if (strcmp(name, *list) == 0)
      return 1;
  return 0;
}

/* --- The builder ------------------------------------------------------------
 */

struct open_elem {
  char name[24]; /* lower case; "" when too long to matter */
  unsigned flags;
  unsigned char notrans;   /* content not translated */
  unsigned char preserve;  /* whitespace significant */
  unsigned char as_inline; /* a code of the running text */
  char *id;                /* its id attribute, for resname */
};

enum item_type { IT_TEXT, IT_OPEN, IT_CLOSE, IT_CODE };

/* A piece of the text unit being collected. */
struct item {
  enum item_type type;
  size_t start, end;
  char name[24];
  enum xmt_tag_kind kind;
  size_t partner;
  unsigned id;
};

struct builder {
  struct html_doc *doc;
  const char *data;
  struct open_elem *stack;
  size_t depth, stack_cap;
  struct item *items; /* the running text unit */
  size_t nitems, items_cap;
  size_t *open; /* pairing: open items, then crossed ones */
  size_t *crossed;
  size_t ph_item;  /* the untranslated inline element being skipped */
  size_t ph_entry; /* its stack index */
  char restype[48];
  char *resname;
  int preserve;
  int run_text; /* the running unit has text */
  int root_seen;
  char *meta_lang;
  struct xmt_buf text; /* scratch */
  struct xmt_buf markup;
  xmt_status st;
};

/* array grown by at least one element (*cap updated). */
static void *grow(void *array, size_t *cap, size_t size) {
  return xmt_grow_array(array, cap, *cap + 1, size);
}

static int fail(struct builder *b, xmt_status st) {
  if (b->st == XMT_OK)
    b->st = st;
  return 0;
}

/* The value of attribute name of tok, decoded into b->text; 0 if absent. */
static int attr_value(struct builder *b, const struct html_token *tok,
                      const char *name) {
  for (size_t i = 0; i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    if (a->duplicate || !xmt_html_name_is(b->data, a->name, a->name_end, name))
      continue;
    xmt_buf_reset(&b->text);
    if (xmt_html_decode(&b->doc->charset, b->data + a->value,
                        a->value_end - a->value, 1, &b->text) != XMT_OK ||
        xmt_buf_append(&b->text, "", 0) != XMT_OK)
      return fail(b, XMT_ERR_NOMEM);
    return 1;
  }
  return 0;
}

static int ascii_ieq(const char *a, const char *b) {
  for (; *a != '\0' && *b != '\0'; a++, b++)
    if ((*a | 0x20) != (*b | 0x20))
      return 0;
  return *a == *b;
}

/* 1 when the space-separated list s holds word. */
static int has_word(const char *s, const char *word) {
  size_t n = strlen(word);
  while (*s != '\0') {
    while (html_is_space(*s))
      s++;
    size_t k = 0;
    while (s[k] != '\0' && !html_is_space(s[k]))
      k++;
    if (k == n && strncmp(s, word, n) == 0)
      return 1;
    s += k;
  }
  return 0;
}

/* Collapses whitespace runs of buf to single spaces; trim also drops them
 * at both ends. */
static void normalize(struct xmt_buf *buf, int trim) {
  size_t w = 0;
  int space = 0;
  for (size_t r = 0; r < buf->len; r++) {
    if (html_is_space(buf->data[r])) {
      space = 1;
      continue;
    }
    if (space && (w > 0 || !trim))
      buf->data[w++] = ' ';
    space = 0;
    buf->data[w++] = buf->data[r];
  }
  if (space && !trim)
    buf->data[w++] = ' ';
  buf->len = w;
  if (buf->data != NULL)
    buf->data[w] = '\0';
}

/* 1 when text has something besides spaces and no-break spaces. */
static int has_content(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (html_is_space(s[i]))
      continue;
    if ((unsigned char)s[i] == 0xC2 && i + 1 < len &&
        (unsigned char)s[i + 1] == 0xA0) {
      i++;
      continue;
    }
    return 1;
  }
  return 0;
}

static void add_hole(struct builder *b, enum html_hole_kind kind, size_t start,
                     size_t end, size_t unit, char quote) {
  struct html_doc *d = b->doc;
  if (d->nholes == d->holes_cap) {
    struct html_hole *h = grow(d->holes, &d->holes_cap, sizeof *h);
    if (h == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return;
    }
    d->holes = h;
  }
  struct html_hole *h = &d->holes[d->nholes++];
  h->start = start;
  h->end = end;
  h->kind = kind;
  h->unit = unit;
  h->quote = quote;
}

/* A new unit, numbered after the last; NULL when out of memory. */
static struct html_unit *new_unit(struct builder *b, size_t start, size_t end,
                                  const char *restype, const char *resname) {
  struct html_doc *d = b->doc;
  if (d->nunits == d->units_cap) {
    struct html_unit *u = grow(d->units, &d->units_cap, sizeof *u);
    if (u == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return NULL;
    }
    d->units = u;
  }
  struct html_unit *u = &d->units[d->nunits];
  memset(u, 0, sizeof *u);
  u->id = (unsigned)d->nunits + 1;
  u->start = start;
  u->end = end;
  snprintf(u->restype, sizeof u->restype, "%s", restype);
  u->source = xmt_segment_new();
  if (u->source == NULL ||
      (resname != NULL && (u->resname = xmt_strdup(resname)) == NULL)) {
    xmt_segment_free(u->source);
    fail(b, XMT_ERR_NOMEM);
    return NULL;
  }
  d->nunits++;
  return u;
}

/* --- Attributes -------------------------------------------------------------
 */

/* restype of a translatable attribute of element name, or NULL. */
static const char *attr_restype(struct builder *b, const struct html_token *tok,
                                const char *elem, const char *attr, char *buf,
                                size_t cap) {
  static const char *const plain[] = {"alt", "placeholder", "aria-label", NULL};
  /* Names of elements too: the suffix keeps restypes apart. */
  static const char *const suffixed[] = {"title", "label", "summary", NULL};
  if (name_in(attr, plain)) {
    snprintf(buf, cap, "x-html-%s", attr);
  } else if (name_in(attr, suffixed)) {
    snprintf(buf, cap, "x-html-%s-attr", attr);
  } else if (strcmp(attr, "value") == 0 && strcmp(elem, "input") == 0) {
    static const char *const buttons[] = {"submit", "button", "reset", NULL};
    if (!attr_value(b, tok, "type"))
      return NULL;
    for (char *p = b->text.data; p != NULL && *p != '\0'; p++)
      *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    if (b->text.data == NULL || !name_in(b->text.data, buttons))
      return NULL;
    snprintf(buf, cap, "x-html-value");
  } else if (strcmp(attr, "content") == 0 && strcmp(elem, "meta") == 0) {
    if (!attr_value(b, tok, "name") || b->text.data == NULL)
      return NULL;
    if (ascii_ieq(b->text.data, "description"))
      snprintf(buf, cap, "x-html-meta-description");
    else if (ascii_ieq(b->text.data, "keywords"))
      snprintf(buf, cap, "x-html-meta-keywords");
    else
      return NULL;
  } else {
    return NULL;
  }
  return buf;
}

static void attr_units(struct builder *b, const struct html_token *tok,
                       const char *elem, const char *id) {
  for (size_t i = 0; i < tok->nattrs && b->st == XMT_OK; i++) {
    const struct html_attr *a = &tok->attrs[i];
    char name[24], restype[48];
    if (a->duplicate || !a->has_value || a->value == a->value_end ||
        !xmt_html_name_lower(b->data, a->name, a->name_end, name,
                             sizeof name) ||
        attr_restype(b, tok, elem, name, restype, sizeof restype) == NULL)
      continue;
    xmt_buf_reset(&b->text);
    if (xmt_html_decode(&b->doc->charset, b->data + a->value,
                        a->value_end - a->value, 1, &b->text) != XMT_OK) {
      fail(b, XMT_ERR_NOMEM);
      return;
    }
    normalize(&b->text, 1);
    if (!has_content(b->text.data, b->text.len))
      continue;
    struct html_unit *u = new_unit(b, a->value, a->value_end, restype, id);
    if (u == NULL)
      return;
    u->is_attr = 1;
    u->quote = a->quote;
    if (xmt_segment_append_valid_text(u->source, b->text.data, b->text.len) !=
        XMT_OK)
      fail(b, XMT_ERR_NOMEM);
    add_hole(b, HOLE_ATTR, a->value, a->value_end, b->doc->nunits - 1,
             a->quote);
  }
}

/* lang and xml:lang of the root element become the target language. */
static void lang_holes(struct builder *b, const struct html_token *tok,
                       int is_meta) {
  for (size_t i = 0; i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    int lang = !is_meta &&
               (xmt_html_name_is(b->data, a->name, a->name_end, "lang") ||
                xmt_html_name_is(b->data, a->name, a->name_end, "xml:lang"));
    int content =
        is_meta && xmt_html_name_is(b->data, a->name, a->name_end, "content");
    if (a->duplicate || !a->has_value || a->value == a->value_end ||
        !(lang || content))
      continue;
    add_hole(b, HOLE_LANG, a->value, a->value_end, 0, a->quote);
    char **keep = is_meta ? &b->meta_lang : &b->doc->lang;
    if (*keep == NULL && (*keep = xmt_strndup(b->data + a->value,
                                              a->value_end - a->value)) == NULL)
      fail(b, XMT_ERR_NOMEM);
  }
}

/* --- The element stack ------------------------------------------------------
 */

static void push(struct builder *b, const char *name, unsigned flags,
                 int notrans, int preserve, int as_inline, const char *id) {
  if (b->depth == b->stack_cap) {
    struct open_elem *s = grow(b->stack, &b->stack_cap, sizeof *s);
    if (s == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return;
    }
    b->stack = s;
  }
  struct open_elem *e = &b->stack[b->depth++];
  snprintf(e->name, sizeof e->name, "%s", name);
  e->flags = flags;
  e->notrans = (unsigned char)notrans;
  e->preserve = (unsigned char)preserve;
  e->as_inline = (unsigned char)as_inline;
  e->id = NULL;
  if (id != NULL && (e->id = xmt_strdup(id)) == NULL)
    fail(b, XMT_ERR_NOMEM);
}

/* Pops the elements from the top down to index k; a skipped inline element
 * among them ends at cause. */
static void pop_to(struct builder *b, size_t k, size_t cause) {
  while (b->depth > k) {
    b->depth--;
    if (b->ph_item != NONE && b->depth == b->ph_entry) {
      b->items[b->ph_item].end = cause;
      b->ph_item = NONE;
    }
    free(b->stack[b->depth].id);
  }
}

static int top_notrans(const struct builder *b) {
  return b->depth > 0 && b->stack[b->depth - 1].notrans;
}

/* Index of the innermost open element name, searching down to an element
 * that stops it; NONE when it is not open there. */
static size_t find_open(const struct builder *b, const char *name,
                        const char *const *stops, unsigned stop_flags) {
  for (size_t i = b->depth; i-- > 0 && b->depth - i <= SEARCH_LIMIT;) {
    const struct open_elem *e = &b->stack[i];
    if (strcmp(e->name, name) == 0)
      return i;
    if ((e->flags & stop_flags) || (stops != NULL && name_in(e->name, stops)))
      return NONE;
  }
  return NONE;
}

/* The end tags a browser implies before a start tag. */
static void implied_closes(struct builder *b, const char *name, unsigned flags,
                           size_t at) {
  static const char *const list_stops[] = {"ul", "ol", "menu", "dir", NULL};
  static const char *const dl_stops[] = {"dl", NULL};
  static const char *const row_stops[] = {"table", "tbody", "thead", "tfoot",
                                          NULL};
  static const char *const cell_stops[] = {"tr", "table", NULL};
  size_t k = NONE;
  if (flags & E_PCLOSE) {
    static const char *const p_stops[] = {"button", NULL};
    if ((k = find_open(b, "p", p_stops, E_SCOPE)) != NONE)
      pop_to(b, k, at);
  }
  if (strcmp(name, "li") == 0 &&
      (k = find_open(b, "li", list_stops, E_SCOPE)) != NONE)
    pop_to(b, k, at);
  if (strcmp(name, "dt") == 0 || strcmp(name, "dd") == 0) {
    size_t t = find_open(b, "dt", dl_stops, E_SCOPE);
    size_t d = find_open(b, "dd", dl_stops, E_SCOPE);
    k = t == NONE ? d : d == NONE ? t : (t > d ? t : d);
    if (k != NONE)
      pop_to(b, k, at);
  }
  if (strcmp(name, "tr") == 0 && (k = find_open(b, "tr", row_stops, 0)) != NONE)
    pop_to(b, k, at);
  if (strcmp(name, "tbody") == 0 || strcmp(name, "thead") == 0 ||
      strcmp(name, "tfoot") == 0) {
    static const char *const sections[] = {"tbody", "thead", "tfoot", "tr",
                                           NULL};
    static const char *const table[] = {"table", NULL};
    k = NONE;
    for (size_t i = b->depth; i-- > 0 && b->depth - i <= SEARCH_LIMIT;) {
      if (name_in(b->stack[i].name, table))
        break;
      if (name_in(b->stack[i].name, sections))
        k = i; /* the outermost before the table */
    }
    if (k != NONE)
      pop_to(b, k, at);
  }
  if (strcmp(name, "td") == 0 || strcmp(name, "th") == 0) {
    size_t d = find_open(b, "td", cell_stops, 0);
    size_t h = find_open(b, "th", cell_stops, 0);
    k = d == NONE ? h : h == NONE ? d : (d < h ? d : h);
    if (k != NONE)
      pop_to(b, k, at);
  }
  if (strcmp(name, "option") == 0 || strcmp(name, "optgroup") == 0) {
    if (b->depth > 0 && strcmp(b->stack[b->depth - 1].name, "option") == 0)
      pop_to(b, b->depth - 1, at);
    if (strcmp(name, "optgroup") == 0 && b->depth > 0 &&
        strcmp(b->stack[b->depth - 1].name, "optgroup") == 0)
      pop_to(b, b->depth - 1, at);
  }
  if (name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && name[2] == '\0' &&
      b->depth > 0) {
    const char *t = b->stack[b->depth - 1].name;
    if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0')
      pop_to(b, b->depth - 1, at);
  }
  if (strcmp(name, "body") == 0 && (k = find_open(b, "head", NULL, 0)) != NONE)
    pop_to(b, k, at);
}

/* --- Text units -------------------------------------------------------------
 */

static struct item *add_item(struct builder *b, enum item_type type,
                             size_t start, size_t end, const char *name);

/* The unit's restype, resname and spacing come from the innermost block
 * around its first piece. */
static void begin_run(struct builder *b) {
  const char *block = "body";
  free(b->resname);
  b->resname = NULL;
  for (size_t i = b->depth; i-- > 0;) {
    const struct open_elem *e = &b->stack[i];
    if ((e->flags & E_BLOCK) || ((e->flags & E_CONTEXT) && !e->as_inline)) {
      if (strcmp(e->name, "html") != 0 && strcmp(e->name, "head") != 0)
        block = e->name;
      if (e->id != NULL && (b->resname = xmt_strdup(e->id)) == NULL)
        fail(b, XMT_ERR_NOMEM);
      break;
    }
  }
  snprintf(b->restype, sizeof b->restype, "x-html-%s", block);
  b->preserve = b->depth > 0 && b->stack[b->depth - 1].preserve;
}

static struct item *add_item(struct builder *b, enum item_type type,
                             size_t start, size_t end, const char *name) {
  if (b->nitems == 0)
    begin_run(b);
  if (b->nitems == b->items_cap) {
    /* open and crossed have as many slots as items. */
    size_t open_cap = b->items_cap, crossed_cap = b->items_cap;
    struct item *grown = grow(b->items, &b->items_cap, sizeof *grown);
    size_t *o = grown != NULL ? xmt_grow_array(b->open, &open_cap,
                                               b->items_cap, sizeof *o)
                              : NULL;
    size_t *c = o != NULL ? xmt_grow_array(b->crossed, &crossed_cap,
                                           b->items_cap, sizeof *c)
                          : NULL;
    if (grown != NULL)
      b->items = grown;
    if (o != NULL)
      b->open = o;
    if (c == NULL) {
      fail(b, XMT_ERR_NOMEM);
      return NULL;
    }
    b->crossed = c;
  }
  struct item *it = &b->items[b->nitems++];
  memset(it, 0, sizeof *it);
  b->run_text |= type == IT_TEXT;
  it->type = type;
  it->start = start;
  it->end = end;
  it->partner = NONE;
  snprintf(it->name, sizeof it->name, "%s", name);
  return it;
}

/* Pairs start and end tags of the run as a browser would show them: a
 * pair that crosses another leaves that one as bx/ex, tags without a
 * partner in the run are isolated. */
static void pair_items(struct builder *b, size_t n) {
  size_t nopen = 0, ncrossed = 0;
  for (size_t i = 0; i < n; i++) {
    struct item *it = &b->items[i];
    if (it->type == IT_CODE) {
      it->kind = XMT_TAG_PLACEHOLDER;
    } else if (it->type == IT_OPEN) {
      it->kind = XMT_TAG_OPEN;
      b->open[nopen++] = i;
    } else if (it->type == IT_CLOSE) {
      it->kind = XMT_TAG_ISOLATED_CLOSE;
      size_t k = nopen;
      while (k > 0 && strcmp(b->items[b->open[k - 1]].name, it->name) != 0)
        k = nopen - k < SEARCH_LIMIT ? k - 1 : 0;
      if (k > 0) {
        for (size_t j = k; j < nopen; j++) { /* crossed by this pair */
          b->items[b->open[j]].kind = XMT_TAG_ISOLATED_OPEN;
          b->crossed[ncrossed++] = b->open[j];
        }
        it->kind = XMT_TAG_CLOSE;
        it->partner = b->open[k - 1];
        b->items[it->partner].partner = i;
        nopen = k - 1;
        continue;
      }
      for (size_t j = ncrossed; j-- > 0 && ncrossed - j <= SEARCH_LIMIT;) {
        struct item *o = &b->items[b->crossed[j]];
        if (strcmp(o->name, it->name) == 0) {
          it->partner = b->crossed[j];
          o->partner = i;
          memmove(b->crossed + j, b->crossed + j + 1,
                  (ncrossed - j - 1) * sizeof *b->crossed);
          ncrossed--;
          break;
        }
      }
    }
  }
  for (size_t j = 0; j < nopen; j++)
    b->items[b->open[j]].kind = XMT_TAG_ISOLATED_OPEN;
}

/* ctype of a code: XLIFF's own names where they fit. */
static void ctype_of(const struct item *it, char *buf, size_t cap) {
  const char *n = it->name;
  const char *std = NULL;
  if (it->kind == XMT_TAG_PLACEHOLDER)
    std = strcmp(n, "img") == 0 ? "image" : strcmp(n, "br") == 0 ? "lb" : NULL;
  else if (strcmp(n, "a") == 0)
    std = "link";
  else if (strcmp(n, "b") == 0 || strcmp(n, "strong") == 0)
    std = "bold";
  else if (strcmp(n, "i") == 0 || strcmp(n, "em") == 0)
    std = "italic";
  else if (strcmp(n, "u") == 0)
    std = "underlined";
  if (std != NULL) {
    snprintf(buf, cap, "%s", std);
    return;
  }
  int plain = n[0] != '\0';
  for (const char *p = n; *p != '\0'; p++)
    plain = plain && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
                      *p == '-' || *p == '_' || *p == '.' || *p == ':');
  snprintf(buf, cap, "x-html-%s", plain ? n : "element");
}

/* The XLIFF 1.2 code of a run item, into b->markup. */
static xmt_status code_markup(struct builder *b, const struct item *it,
                              const char **element) {
  char ctype[48], head[128];
  ctype_of(it, ctype, sizeof ctype);
  xmt_buf_reset(&b->markup);
  switch (it->kind) {
  case XMT_TAG_OPEN:
    *element = "g";
    snprintf(head, sizeof head, "<g id=\"%u\" ctype=\"%s\">", it->id, ctype);
    break;
  case XMT_TAG_CLOSE:
    *element = "g";
    snprintf(head, sizeof head, "</g>");
    break;
  case XMT_TAG_PLACEHOLDER:
    *element = "x";
    snprintf(head, sizeof head, "<x id=\"%u\" ctype=\"%s\"/>", it->id, ctype);
    break;
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    if (it->partner != NONE) {
      int open = it->kind == XMT_TAG_ISOLATED_OPEN;
      *element = open ? "bx" : "ex";
      if (open)
        snprintf(head, sizeof head, "<bx id=\"%u\" ctype=\"%s\"/>", it->id,
                 ctype);
      else
        snprintf(head, sizeof head, "<ex id=\"%u\"/>", it->id);
      break;
    }
    /* No partner in the unit: an isolated tag carrying its markup. */
    *element = "it";
    snprintf(head, sizeof head, "<it id=\"%u\" pos=\"%s\" ctype=\"%s\">",
             it->id, it->kind == XMT_TAG_ISOLATED_OPEN ? "open" : "close",
             ctype);
    xmt_buf_reset(&b->text);
    xmt_status st = xmt_buf_append_str(&b->markup, head);
    if (st == XMT_OK)
      st = xmt_html_decode(&b->doc->charset, b->data + it->start,
                           it->end - it->start, 2, &b->text);
    if (st == XMT_OK)
      st = xmt_xml_escape_text(&b->markup, b->text.data, b->text.len);
    if (st == XMT_OK)
      st = xmt_buf_append_str(&b->markup, "</it>");
    return st;
  }
  return xmt_buf_append_str(&b->markup, head);
}

/* Whitespace run of the page ending at end (before) or starting at start
 * (after) within an item, unless it is a single space. */
static void spacing(const char *data, const struct item *text, int before,
                    size_t range[2]) {
  range[0] = range[1] = 0;
  if (text == NULL || text->type != IT_TEXT)
    return;
  size_t s, e;
  if (before) {
    e = text->end;
    s = e;
    while (s > text->start && html_is_space(data[s - 1]))
      s--;
  } else {
    s = text->start;
    e = s;
    while (e < text->end && html_is_space(data[e]))
      e++;
  }
  if (e > s && !(e - s == 1 && data[s] == ' ')) {
    range[0] = s;
    range[1] = e;
  }
}

static xmt_status add_code(struct builder *b, size_t i, size_t n) {
  struct html_doc *d = b->doc;
  if (d->ncodes == d->codes_cap) {
    struct html_code *c = grow(d->codes, &d->codes_cap, sizeof *c);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    d->codes = c;
  }
  const struct item *it = &b->items[i];
  struct html_code *c = &d->codes[d->ncodes++];
  memset(c, 0, sizeof *c);
  c->start = it->start;
  c->end = it->end;
  c->id = it->id;
  c->kind = it->kind;
  if (!b->preserve) {
    spacing(b->data, i > 0 ? &b->items[i - 1] : NULL, 1, c->ws_before);
    spacing(b->data, i + 1 < n ? &b->items[i + 1] : NULL, 0, c->ws_after);
  }
  return XMT_OK;
}

/* Ends the running text: a unit when it has text to translate. */
static void flush_run(struct builder *b) {
  size_t n = b->nitems;
  b->nitems = 0;
  b->run_text = 0;
  if (b->ph_item != NONE) { /* cannot happen: the skipped element is open */
    b->items[b->ph_item].end = b->doc->len;
    b->ph_item = NONE;
  }
  if (n == 0 || b->st != XMT_OK)
    return;
  struct item *last = &b->items[n - 1];
  if (last->type == IT_TEXT) {
    while (last->end > last->start && html_is_space(b->data[last->end - 1]))
      last->end--;
    if (last->end == last->start && --n == 0)
      return;
  }
  pair_items(b, n);
  unsigned next_id = 0;
  for (size_t i = 0; i < n; i++) {
    struct item *it = &b->items[i];
    if (it->type == IT_TEXT)
      continue;
    int second =
        (it->kind == XMT_TAG_CLOSE || it->kind == XMT_TAG_ISOLATED_CLOSE) &&
        it->partner != NONE;
    it->id = second ? b->items[it->partner].id : ++next_id;
  }
  xmt_segment *seg = xmt_segment_new();
  size_t first_code = b->doc->ncodes;
  xmt_status st = seg != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    const struct item *it = &b->items[i];
    if (it->type == IT_TEXT) {
      xmt_buf_reset(&b->text);
      st = xmt_html_decode(&b->doc->charset, b->data + it->start,
                           it->end - it->start, 0, &b->text);
      if (!b->preserve)
        normalize(&b->text, 0);
      if (st == XMT_OK)
        st = xmt_segment_append_valid_text(seg, b->text.data, b->text.len);
      continue;
    }
    const char *element = NULL;
    char id[24];
    snprintf(id, sizeof id, "%u", it->id);
    st = code_markup(b, it, &element);
    if (st == XMT_OK)
      st = xmt_segment_append_tag(seg, it->kind, id, element, b->markup.data,
                                  b->markup.len);
    if (st == XMT_OK)
      st = add_code(b, i, n);
  }
  size_t len;
  const char *text = st == XMT_OK ? xmt_segment_text(seg, &len) : NULL;
  struct html_unit *u = NULL;
  if (st == XMT_OK && has_content(text, len))
    u = new_unit(b, b->items[0].start, b->items[n - 1].end, b->restype,
                 b->resname);
  if (u == NULL) { /* nothing to translate, or out of memory */
    xmt_segment_free(seg);
    b->doc->ncodes = first_code;
    if (st != XMT_OK)
      fail(b, st);
    return;
  }
  xmt_segment_free(u->source);
  u->source = seg;
  u->preserve = b->preserve;
  u->first_code = first_code;
  u->ncodes = b->doc->ncodes - first_code;
  u->max_id = next_id;
  add_hole(b, HOLE_TEXT, u->start, u->end, b->doc->nunits - 1, 0);
}

/* --- Tokens -----------------------------------------------------------------
 */

static void on_start(struct builder *b, const struct html_token *tok) {
  char name[24];
  if (!xmt_html_name_lower(b->data, tok->name, tok->name_end, name,
                           sizeof name))
    name[0] = '\0';
  unsigned flags = xmt_html_element_class(name);
  if ((strcmp(name, "code") == 0 &&
       (b->doc->flags & XMT_FILTER_HTML_SKIP_CODE)) ||
      (strcmp(name, "pre") == 0 && (b->doc->flags & XMT_FILTER_HTML_SKIP_PRE)))
    flags |= E_SKIP;
  if ((flags & E_SKIP) && tok->self_closing)
    flags |= E_VOID; /* <script/>: the lexer saw no content either */
  implied_closes(b, name, flags, tok->start);
  if (top_notrans(b)) {
    if (!(flags & E_VOID))
      push(b, name, flags, 1, 1, 0, NULL);
    return;
  }
  int notrans = (flags & E_SKIP) != 0;
  int preserve =
      (flags & E_PRE) || (b->depth > 0 && b->stack[b->depth - 1].preserve);
  if (attr_value(b, tok, "translate") && ascii_ieq(b->text.data, "no"))
    notrans = 1;
  if (attr_value(b, tok, "class") && has_word(b->text.data, "notranslate"))
    notrans = 1;
  if (attr_value(b, tok, "style")) {
    /* white-space: pre, pre-wrap, pre-line or break-spaces */
    const char *ws = strstr(b->text.data, "white-space");
    if (ws != NULL) {
      ws += 11;
      while (*ws == ' ' || *ws == '\t' || *ws == ':')
        ws++;
      if (strncmp(ws, "pre", 3) == 0 || strncmp(ws, "break-spaces", 12) == 0)
        preserve = 1;
    }
  }
  char *id = NULL;
  if (attr_value(b, tok, "id") && b->text.len > 0 &&
      (id = xmt_strdup(b->text.data)) == NULL)
    fail(b, XMT_ERR_NOMEM);
  if (strcmp(name, "html") == 0 && !b->root_seen) {
    lang_holes(b, tok, 0);
    b->root_seen = 1;
  }
  if (strcmp(name, "meta") == 0 && attr_value(b, tok, "http-equiv") &&
      ascii_ieq(b->text.data, "content-language"))
    lang_holes(b, tok, 1);
  int inline_like = (flags & E_INLINE) || ((flags & E_CONTEXT) && b->run_text);
  if (notrans) {
    if (inline_like || (b->nitems > 0 && !(flags & E_BLOCK))) {
      /* Inside running text: the whole element is one code. */
      if (add_item(b, IT_CODE, tok->start, tok->end, name) != NULL &&
          !(flags & E_VOID)) {
        push(b, name, flags, 1, 1, 1, NULL);
        b->ph_item = b->nitems - 1;
        b->ph_entry = b->depth - 1;
      }
    } else {
      flush_run(b);
      if (!(flags & E_VOID))
        push(b, name, flags, 1, 1, 0, NULL);
    }
    free(id);
    return;
  }
  if (!inline_like)
    flush_run(b);
  attr_units(b, tok, name, id);
  if (flags & E_VOID) {
    if (inline_like)
      add_item(b, IT_CODE, tok->start, tok->end, name);
  } else {
    push(b, name, flags, 0, preserve, inline_like, id);
    if (inline_like)
      add_item(b, IT_OPEN, tok->start, tok->end, name);
  }
  free(id);
}

static void on_end(struct builder *b, const struct html_token *tok) {
  char name[24];
  if (!xmt_html_name_lower(b->data, tok->name, tok->name_end, name,
                           sizeof name))
    name[0] = '\0';
  unsigned flags = xmt_html_element_class(name);
  size_t k = NONE;
  if (strcmp(name, "html") != 0 && strcmp(name, "body") != 0) {
    /* An inline end tag does not reach past a block; a block one stops at
     * a table cell and the like. */
    static const char *const none[] = {NULL};
    static const char *const table_parts[] = {
        "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", NULL};
    /* Table end tags reach past cells, but not out of their own table
     * (the name is matched before the stops). */
    static const char *const table_stops[] = {"html", "template", "table",
                                              NULL};
    if (name_in(name, table_parts))
      k = find_open(b, name, table_stops, 0);
    else if (flags & E_INLINE)
      k = find_open(b, name, none, E_BLOCK | E_SCOPE);
    else
      k = find_open(b, name, none, E_SCOPE);
    if ((flags & E_INLINE) && k != NONE) {
      for (size_t i = k + 1; i < b->depth && k != NONE; i++)
        if ((b->stack[i].flags & E_CONTEXT) && !b->stack[i].as_inline)
          k = NONE;
    }
  }
  int as_inline = 0;
  if (k != NONE && b->stack != NULL) {
    int ends_skipped = b->ph_item != NONE && k == b->ph_entry;
    as_inline = b->stack[k].as_inline;
    pop_to(b, k, ends_skipped ? tok->end : tok->start);
    if (ends_skipped)
      return;
  }
  if (top_notrans(b))
    return;
  if (strcmp(name, "br") == 0) { /* </br> is a <br> to browsers */
    add_item(b, IT_CODE, tok->start, tok->end, name);
  } else if (k != NONE ? as_inline : (flags & (E_INLINE | E_CONTEXT)) != 0) {
    if (k != NONE || b->nitems > 0)
      add_item(b, IT_CLOSE, tok->start, tok->end, name);
  } else {
    flush_run(b);
  }
}

static void on_token(struct builder *b, const struct html_token *tok) {
  switch (tok->kind) {
  case HTML_START:
    on_start(b, tok);
    break;
  case HTML_END:
    on_end(b, tok);
    break;
  case HTML_TEXT:
  case HTML_RAWTEXT: {
    if (top_notrans(b))
      break;
    size_t s = tok->start;
    if (b->nitems == 0) {
      while (s < tok->end && html_is_space(b->data[s]))
        s++;
      if (s == tok->end)
        break;
    }
    add_item(b, IT_TEXT, s, tok->end, "");
    break;
  }
  case HTML_COMMENT:
  case HTML_CDATA:
  case HTML_BOGUS:
    if (!top_notrans(b) && b->nitems > 0)
      add_item(b, IT_CODE, tok->start, tok->end,
               tok->kind == HTML_COMMENT ? "comment" : "markup");
    break;
  case HTML_DOCTYPE:
  case HTML_PI:
    if (!top_notrans(b))
      flush_run(b);
    break;
  }
}

static int hole_cmp(const void *a, const void *b) {
  const struct html_hole *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->end != y->end) /* the outer one first */
    return x->end > y->end ? -1 : 1;
  return 0;
}

static void builder_free(struct builder *b) {
  pop_to(b, 0, b->doc->len);
  free(b->stack);
  free(b->items);
  free(b->open);
  free(b->crossed);
  free(b->resname);
  free(b->meta_lang);
  xmt_buf_free(&b->text);
  xmt_buf_free(&b->markup);
}

static xmt_status build(struct html_doc *doc) {
  struct builder b;
  memset(&b, 0, sizeof b);
  b.doc = doc;
  b.data = doc->data;
  b.ph_item = NONE;
  struct html_lexer lx;
  struct html_token tok;
  xmt_html_lexer_init(&lx);
  /* A byte order mark stays, but is no text. */
  if (doc->len >= 3 && memcmp(doc->data, "\xEF\xBB\xBF", 3) == 0)
    lx.pos = 3;
  int r = 0;
  while (b.st == XMT_OK &&
         (r = xmt_html_lex(&lx, doc->data, doc->len, 1, &tok)) > 0)
    on_token(&b, &tok);
  if (r < 0)
    fail(&b, XMT_ERR_NOMEM);
  xmt_html_lexer_free(&lx);
  if (b.ph_item != NONE) { /* skipped up to the end of the page */
    b.items[b.ph_item].end = doc->len;
    b.ph_item = NONE;
  }
  flush_run(&b);
  if (doc->lang == NULL && b.meta_lang != NULL) {
    doc->lang = b.meta_lang;
    b.meta_lang = NULL;
  }
  builder_free(&b);
  if (b.st == XMT_OK && doc->nholes > 1)
    qsort(doc->holes, doc->nholes, sizeof *doc->holes, hole_cmp);
  return b.st;
}

/* --- Loading ----------------------------------------------------------------
 */

void xmt_html_doc_free(struct html_doc *doc) {
  if (doc == NULL)
    return;
  for (size_t i = 0; i < doc->nunits; i++) {
    xmt_segment_free(doc->units[i].source);
    free(doc->units[i].resname);
  }
  free(doc->units);
  free(doc->codes);
  free(doc->holes);
  free(doc->lang);
  free(doc->data);
  memset(doc, 0, sizeof *doc);
}

/* Line and column (in characters) of byte offset at. */
static void position(const char *data, size_t at, int utf8, unsigned long *line,
                     unsigned long *column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < at; i++) {
    if (data[i] == '\n') {
      ++*line;
      *column = 1;
    } else if (!utf8 || ((unsigned char)data[i] & 0xC0) != 0x80) {
      ++*column;
    }
  }
}

/* Bytes that are not UTF-8 in data, each counted as decoding reads it (one
 * U+FFFD per byte); *first is the offset of the first. */
static size_t invalid_utf8(const char *data, size_t len, size_t *first) {
  size_t n = 0;
  size_t i = xmt_utf8_valid_prefix(data, len);
  *first = i;
  while (i < len) {
    n++;
    i++;
    i += xmt_utf8_valid_prefix(data + i, len - i);
  }
  return n;
}

xmt_status xmt_html_doc_parse(struct html_doc *doc, const char *bytes,
                              size_t len, unsigned flags, const char *name,
                              struct xmt_error_store *err) {
  memset(doc, 0, sizeof *doc);
  doc->flags = flags;
  char msg[256];
  size_t at;
  xmt_status st =
      xmt_html_detect_charset(bytes, len, &doc->charset, msg, sizeof msg, &at);
  if (st != XMT_OK) {
    unsigned long line, column;
    position(bytes, at, 1, &line, &column);
    return xmt_error_set(err, st, name, line, column, NULL, "%s", msg);
  }
  /* A page that says it is UTF-8 and is not would lose its accents to
   * U+FFFD without a word. */
  if (doc->charset.decode == XMT_ENC_UTF8 && !doc->charset.utf16) {
    size_t first;
    size_t n = invalid_utf8(bytes, len, &first);
    if (n > 0) {
      unsigned long line, column;
      position(bytes, first, 1, &line, &column);
      if (!(flags & XMT_FILTER_HTML_REPLACE_INVALID))
        return xmt_error_set(
            err, XMT_ERR_ENCODING, name, line, column, NULL,
            "byte 0x%02X is not UTF-8, the page's encoding (%zu such "
            "byte%s; --encoding-errors=replace reads them as U+FFFD)",
            (unsigned)(unsigned char)bytes[first], n, n == 1 ? "" : "s");
      doc->invalid_bytes = n;
      doc->invalid_line = line;
      doc->invalid_column = column;
    }
  }
  struct xmt_buf data = {0};
  if (doc->charset.utf16) {
    struct xmt_decoder dec;
    xmt_decoder_init(&dec, doc->charset.out);
    st = xmt_decoder_run(&dec, bytes, len, 1, &data);
    if (st == XMT_ERR_ENCODING) {
      xmt_buf_free(&data);
      return xmt_error_set(err, st, name, dec.line, dec.column + 1, NULL,
                           "invalid %s", xmt_encoding_name(doc->charset.out));
    }
  } else {
    st = xmt_buf_append(&data, bytes, len);
  }
  if (st == XMT_OK && data.data == NULL)
    st = xmt_buf_grow(&data, 1);
  if (st != XMT_OK) {
    xmt_buf_free(&data);
    return xmt_error_set(err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                         xmt_strerror(XMT_ERR_NOMEM));
  }
  doc->data = data.data;
  doc->len = data.len;
  st = build(doc);
  if (st != XMT_OK) {
    xmt_html_doc_free(doc);
    return xmt_error_set(err, st, name, 0, 0, NULL, "%s", xmt_strerror(st));
  }
  return XMT_OK;
}

xmt_status xmt_html_doc_load(struct html_doc *doc, const char *path,
                             unsigned flags, struct xmt_error_store *err) {
  memset(doc, 0, sizeof *doc);
  FILE *fp = xmt_input_open(path, err);
  if (fp == NULL)
    return err->pub.status;
  struct xmt_buf buf = {0};
  char chunk[65536];
  size_t got;
  xmt_status st = XMT_OK;
  while (st == XMT_OK && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
    st = xmt_buf_append(&buf, chunk, got);
  int bad = ferror(fp);
  int e = errno;
  if (fp != stdin)
    fclose(fp);
  if (st == XMT_OK && bad)
    st = xmt_error_set(err, XMT_ERR_IO, path, 0, 0, NULL, "cannot read: %s",
                       strerror(e));
  else if (st != XMT_OK)
    st = xmt_error_set(err, st, NULL, 0, 0, NULL, "%s", xmt_strerror(st));
  if (st == XMT_OK)
    st = xmt_html_doc_parse(doc, buf.data != NULL ? buf.data : "", buf.len,
                            flags, path, err);
  xmt_buf_free(&buf);
  return st;
}
