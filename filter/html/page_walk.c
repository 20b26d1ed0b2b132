/* page_walk.c -- the HTML page reader's tree walk: the element stack with
 * the closes a browser implies, each token's effect on it, and the
 * translatable attributes of start tags; an inline svg outside running
 * text a frame whose text, title and desc are units. Apart from page.c
 * because it is the page's structure, as a browser would build it; the
 * units it finds are collected in page_units.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "page_private.h"

/* --- Attributes -------------------------------------------------------------
 */

/* restype of a translatable attribute of element name, or NULL. */
static const char *attr_restype(struct builder *b, const struct html_token *tok,
                                const char *elem, const char *attr, char *buf,
                                size_t cap) {
  /* WAI-ARIA's text, which screen readers say, as aria-label */
  static const char *const plain[] = {"alt",
                                      "placeholder",
                                      "aria-label",
                                      "aria-description",
                                      "aria-placeholder",
                                      "aria-roledescription",
                                      "aria-valuetext",
                                      NULL};
  /* Names of elements too: the suffix keeps restypes apart. */
  static const char *const suffixed[] = {"title", "label", "summary", NULL};
  if (name_in(attr, plain)) {
    memcpy(buf, "x-html-", 7);
    copy_cut(buf + 7, cap - 7, attr);
  } else if (name_in(attr, suffixed)) {
    memcpy(buf, "x-html-", 7);
    copy_cut(buf + 7, cap - 7, attr);
    size_t n = strlen(buf);
    copy_cut(buf + n, cap - n, "-attr");
  } else if (name_is(attr, "value") && name_is(elem, "input")) {
    static const char *const buttons[] = {"submit", "button", "reset", NULL};
    if (!xmt_page_attr_value(b, tok, "type"))
      return NULL;
    for (char *p = b->text.data; p != NULL && *p != '\0'; p++)
      *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    if (b->text.data == NULL || !name_in(b->text.data, buttons))
      return NULL;
    copy_cut(buf, cap, "x-html-value");
  } else if (name_is(attr, "content") && name_is(elem, "meta")) {
    if (!xmt_page_attr_value(b, tok, "name") || b->text.data == NULL)
      return NULL;
    if (ascii_ieq(b->text.data, "description"))
      copy_cut(buf, cap, "x-html-meta-description");
    else if (ascii_ieq(b->text.data, "keywords"))
      copy_cut(buf, cap, "x-html-meta-keywords");
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
        !xmt_html_name_lower(page_at(b->page, a->name), a->name_end - a->name,
                             name, sizeof name) ||
        attr_restype(b, tok, elem, name, restype, sizeof restype) == NULL)
      continue;
    xmt_buf_reset(&b->text);
    if (xmt_html_decode(&b->doc->charset, page_at(b->page, a->value),
                        a->value_end - a->value, 1, &b->text) != XMT_OK) {
      fail(b, XMT_ERR_NOMEM);
      return;
    }
    xmt_page_normalize(&b->text, 1);
    if (!xmt_page_has_content(b->text.data, b->text.len))
      continue;
    struct html_unit *u =
        xmt_page_new_unit(b, a->value, a->value_end, restype, id, NULL);
    if (u == NULL)
      return;
    u->is_attr = 1;
    u->quote = a->quote;
    if (xmt_segment_append_valid_text(u->source, b->text.data, b->text.len) !=
        XMT_OK)
      fail(b, XMT_ERR_NOMEM);
    xmt_page_add_hole(b, HOLE_ATTR, a->value, a->value_end, b->doc->nunits - 1,
                      a->quote);
  }
}

/* lang and xml:lang of the root element become the target language. */
static void lang_holes(struct builder *b, const struct html_token *tok,
                       int is_meta) {
  for (size_t i = 0; i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    int lang =
        !is_meta && (page_name_is(b->page, a->name, a->name_end, "lang") ||
                     page_name_is(b->page, a->name, a->name_end, "xml:lang"));
    int content =
        is_meta && page_name_is(b->page, a->name, a->name_end, "content");
    if (a->duplicate || !a->has_value || a->value == a->value_end ||
        !(lang || content))
      continue;
    xmt_page_add_hole(b, HOLE_LANG, a->value, a->value_end, 0, a->quote);
    char **keep = is_meta ? &b->meta_lang : &b->doc->lang;
    if (*keep == NULL && (*keep = xmt_strndup(page_at(b->page, a->value),
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
  copy_cut(e->name, sizeof e->name, name);
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
void xmt_page_pop_to(struct builder *b, size_t k, size_t cause) {
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
  /* depth > 0 means the stack holds depth elements; the analyzer, starting
   * at xmt_page_on_token with any builder, cannot know it. */
  // NOLINTNEXTLINE(clang-analyzer-core.NullDereference)
  return b->depth > 0 && b->stack[b->depth - 1].notrans;
}

/* Index of the innermost open element name, searching down to an element
 * that stops it; NONE when it is not open there. */
static size_t find_open(const struct builder *b, const char *name,
                        const char *const *stops, unsigned stop_flags) {
  for (size_t i = b->depth; i-- > 0 && b->depth - i <= SEARCH_LIMIT;) {
    const struct open_elem *e = &b->stack[i];
    if (name_is(e->name, name))
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
      xmt_page_pop_to(b, k, at);
  }
  if (name_is(name, "li") &&
      (k = find_open(b, "li", list_stops, E_SCOPE)) != NONE)
    xmt_page_pop_to(b, k, at);
  if (name_is(name, "dt") || name_is(name, "dd")) {
    size_t t = find_open(b, "dt", dl_stops, E_SCOPE);
    size_t d = find_open(b, "dd", dl_stops, E_SCOPE);
    k = t == NONE ? d : d == NONE ? t : (t > d ? t : d);
    if (k != NONE)
      xmt_page_pop_to(b, k, at);
  }
  if (name_is(name, "tr") && (k = find_open(b, "tr", row_stops, 0)) != NONE)
    xmt_page_pop_to(b, k, at);
  if (name_is(name, "tbody") || name_is(name, "thead") ||
      name_is(name, "tfoot")) {
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
      xmt_page_pop_to(b, k, at);
  }
  if (name_is(name, "td") || name_is(name, "th")) {
    size_t d = find_open(b, "td", cell_stops, 0);
    size_t h = find_open(b, "th", cell_stops, 0);
    k = d == NONE ? h : h == NONE ? d : (d < h ? d : h);
    if (k != NONE)
      xmt_page_pop_to(b, k, at);
  }
  if (name_is(name, "option") || name_is(name, "optgroup")) {
    if (b->depth > 0 && name_is(b->stack[b->depth - 1].name, "option"))
      xmt_page_pop_to(b, b->depth - 1, at);
    if (name_is(name, "optgroup") && b->depth > 0 &&
        name_is(b->stack[b->depth - 1].name, "optgroup"))
      xmt_page_pop_to(b, b->depth - 1, at);
  }
  if (name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && name[2] == '\0' &&
      b->depth > 0) {
    const char *t = b->stack[b->depth - 1].name;
    if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && t[2] == '\0')
      xmt_page_pop_to(b, b->depth - 1, at);
  }
  if (name_is(name, "body") && (k = find_open(b, "head", NULL, 0)) != NONE)
    xmt_page_pop_to(b, k, at);
}

/* --- Tokens -----------------------------------------------------------------
 */

/* The room for an element name: longer ones are no element we know. */
#define NAME_ROOM 24

/* The element of tag tok: its name in lower case into name ("" when it is
 * longer than any we know), and its class. */
static unsigned element_of(const struct builder *b,
                           const struct html_token *tok, char name[NAME_ROOM]) {
  if (!xmt_html_name_lower(page_at(b->page, tok->name),
                           tok->name_end - tok->name, name, NAME_ROOM))
    name[0] = '\0';
  return xmt_html_element_class(name);
}

/* 1 when the block element of tok says translate="yes" (or "") inside
 * elements that said "no": HTML's translation mode is an element's own,
 * so its content is translated again. Not inside running text, nor
 * inside an element whose content is never text (script, svg...). */
static int translate_again(struct builder *b, const struct html_token *tok,
                           unsigned flags) {
  if (!(flags & E_BLOCK) || (flags & E_SKIP) || b->ph_item != NONE ||
      b->nitems > 0)
    return 0;
  for (size_t i = 0; i < b->depth; i++)
    if (b->stack[i].flags & E_SKIP)
      return 0;
  return xmt_page_attr_value(b, tok, "translate") &&
         (b->text.data == NULL || b->text.data[0] == '\0' ||
          ascii_ieq(b->text.data, "yes"));
}

/* 1 when the start tag tok says its content is not translated:
 * translate="no", or the class notranslate. */
static int says_no(struct builder *b, const struct html_token *tok) {
  return (xmt_page_attr_value(b, tok, "translate") &&
          ascii_ieq(b->text.data, "no")) ||
         (xmt_page_attr_value(b, tok, "class") &&
          xmt_page_has_word(b->text.data, "notranslate"));
}

/* An inline svg outside running text is a frame (notrans SVG_FRAME): its
 * elements are not text, but its text, title and desc are blocks of
 * text (what the picture shows, what a screen reader says), tspan and a
 * an inline element of theirs. In running text an svg stays one code. */
#define SVG_FRAME 2

static int in_svg_frame(const struct builder *b) {
  return b->depth > 0 && b->stack[b->depth - 1].notrans == SVG_FRAME;
}

/* An svg in running text is one code of its sentence (notrans SVG_CODE),
 * but its title is the tooltip a reader sees over the icon, its desc
 * what a screen reader says of it; the title, the desc,
 * and a textarea's prefilled content (text the form shows, which a
 * page's translation is expected to show translated, as its placeholder
 * is), are elements whose text is a unit of its own (notrans SIDE_TEXT),
 * apart from the running text they may be a code of. */
#define SVG_CODE 3
#define SIDE_TEXT 4

static unsigned char top_mark(const struct builder *b) {
  return b->depth > 0 ? b->stack[b->depth - 1].notrans : 0;
}

/* The text token tok of a SIDE_TEXT element a unit of its own: its
 * spaces at either end left out of it, those inside kept in a textarea
 * (its content is shown as written) and collapsed in a title. */
static void side_unit(struct builder *b, const struct html_token *tok) {
  const struct open_elem *e = &b->stack[b->depth - 1];
  size_t s = tok->start, end = tok->end;
  while (s < end && html_is_space(page_byte(b->page, s)))
    s++;
  while (end > s && html_is_space(page_byte(b->page, end - 1)))
    end--;
  xmt_buf_reset(&b->text);
  if (s == end || xmt_html_decode(&b->doc->charset, page_at(b->page, s),
                                  end - s, 0, &b->text) != XMT_OK) {
    if (s != end)
      fail(b, XMT_ERR_NOMEM);
    return;
  }
  if (!e->preserve)
    xmt_page_normalize(&b->text, 1);
  if (!xmt_page_has_content(b->text.data, b->text.len))
    return;
  char restype[48];
  memcpy(restype, "x-html-", 7);
  copy_cut(restype + 7, sizeof restype - 7, e->name);
  struct html_unit *u = xmt_page_new_unit(b, s, end, restype, NULL, NULL);
  if (u == NULL)
    return;
  u->preserve = e->preserve;
  if (xmt_segment_append_valid_text(u->source, b->text.data, b->text.len) !=
      XMT_OK)
    fail(b, XMT_ERR_NOMEM);
  xmt_page_add_hole(b, HOLE_TEXT, s, end, b->doc->nunits - 1, 0);
}

/* 1 when the markup s has text outside its tags (or when a '<' that
 * starts none is text). */
static int markup_has_text(const char *s) {
  for (; *s != '\0'; s++) {
    if (*s == '<' && strchr(s, '>') != NULL)
      s = strchr(s, '>');
    else if (!html_is_space(*s))
      return 1;
  }
  return 0;
}

/* An iframe's srcdoc (its value decoded in b->text) is a page shown in
 * the frame: read as a page of its own, through the same rules, its
 * units units of this page (each taking and writing its target through
 * that page), the attribute's value a HOLE_FRAME written as that page
 * translated. A srcdoc inside a srcdoc is refused: its page would be
 * escaped twice over, and no browser test of it is at hand. */
static const char nested_why[] =
    "an iframe's srcdoc inside another iframe's srcdoc is not translated: "
    "say translate=\"no\" on the inner iframe to keep it";

static void frame_units(struct builder *b, const struct html_token *tok) {
  const struct html_attr *a = NULL;
  for (size_t i = 0; a == NULL && i < tok->nattrs; i++)
    if (!tok->attrs[i].duplicate &&
        page_name_is(b->page, tok->attrs[i].name, tok->attrs[i].name_end,
                     "srcdoc"))
      a = &tok->attrs[i];
  if (a == NULL)
    return;
  if (b->doc->frame_depth > 0) {
    b->why = nested_why;
    fail(b, XMT_ERR_FORMAT);
    return;
  }
  struct html_doc *frame = calloc(1, sizeof *frame);
  struct xmt_error_store err = {0};
  if (frame == NULL) {
    fail(b, XMT_ERR_NOMEM);
    return;
  }
  /* The value decoded is UTF-8 whatever the page's encoding. */
  xmt_status st = xmt_html_doc_prepare(frame, b->text.data, b->text.len,
                                       b->doc->flags, "srcdoc", &err);
  if (st == XMT_OK && frame->charset.out != XMT_ENC_UTF8)
    st = XMT_ERR_FORMAT;
  if (st == XMT_OK) {
    frame->frame_depth = b->doc->frame_depth + 1;
    st = xmt_html_doc_build(frame, "srcdoc", &err);
  }
  int nested = err.message != NULL && strstr(err.message, nested_why) != NULL;
  xmt_error_clear(&err);
  size_t first = b->doc->nunits;
  for (size_t i = 0; st == XMT_OK && b->st == XMT_OK && i < frame->nunits;
       i++) {
    const struct html_unit *in = &frame->units[i];
    xmt_segment *source = xmt_segment_new();
    if (source == NULL || xmt_segment_copy(source, in->source) != XMT_OK) {
      xmt_segment_free(source);
      fail(b, XMT_ERR_NOMEM);
      break;
    }
    struct html_unit *u = xmt_page_new_unit(b, a->value, a->value_end,
                                            in->restype, in->resname, source);
    if (u == NULL) {
      xmt_segment_free(source);
      break;
    }
    u->is_attr = in->is_attr;
    u->preserve = in->preserve;
    u->quote = in->quote;
    u->max_id = in->max_id;
    u->frame = frame;
    u->frame_unit = i;
  }
  if (st == XMT_OK && b->st == XMT_OK && frame->nunits > 0) {
    xmt_page_add_hole(b, HOLE_FRAME, a->value, a->value_end, first, a->quote);
    if (b->st == XMT_OK) {
      b->doc->holes[b->doc->nholes - 1].frame = frame;
      return;
    }
  }
  if (st != XMT_OK && st != XMT_ERR_NOMEM)
    b->why =
        nested
            ? nested_why
            : "an iframe's srcdoc (a page in an attribute) cannot be read as "
              "a page: say translate=\"no\" on the iframe to keep it";
  if (st != XMT_OK)
    fail(b, st);
  xmt_html_doc_free(frame);
  free(frame);
}

/* The start tag tok of an element whose content is not translated (no:
 * it says so), inline_like when it is in running text. */
static void start_untranslated(struct builder *b, const struct html_token *tok,
                               const char *name, unsigned flags, int no,
                               int inline_like, const char *id) {
  int mark = 1;
  if (!no && name_is(name, "textarea"))
    mark = SIDE_TEXT;
  else if (!no && name_is(name, "svg"))
    mark = SVG_CODE;
  if (inline_like || (b->nitems > 0 && !(flags & E_BLOCK))) {
    /* Inside running text: the whole element is one code. */
    if (xmt_page_add_item(b, IT_CODE, tok->start, tok->end, name) != NULL &&
        !(flags & E_VOID)) {
      push(b, name, flags, mark, 1, 1, NULL);
      b->ph_item = b->nitems - 1;
      b->ph_entry = b->depth - 1;
    }
  } else {
    xmt_page_flush_run(b);
    if (!(flags & E_VOID))
      push(b, name, flags, mark, 1, 0, NULL);
  }
  /* its content is none (a textarea's, an iframe's), but not its
   * attributes: a placeholder, a title */
  if (!no)
    attr_units(b, tok, name, id);
}

static void on_start(struct builder *b, const struct html_token *tok) {
  char name[NAME_ROOM];
  unsigned flags = element_of(b, tok, name);
  if ((name_is(name, "code") && (b->doc->flags & XMT_FILTER_HTML_SKIP_CODE)) ||
      (name_is(name, "pre") && (b->doc->flags & XMT_FILTER_HTML_SKIP_PRE)))
    flags |= E_SKIP;
  if ((flags & E_SKIP) && tok->self_closing)
    flags |= E_VOID; /* <script/>: the lexer saw no content either */
  int svg_text = 0;
  if (in_svg_frame(b)) {
    svg_text = name_is(name, "text") || name_is(name, "title") ||
               name_is(name, "desc");
    flags = svg_text ? E_BLOCK : E_INLINE;
    if (tok->self_closing) /* SVG's elements end so */
      flags |= E_VOID;
  }
  implied_closes(b, name, flags, tok->start);
  if (top_notrans(b) && !svg_text && !translate_again(b, tok, flags)) {
    int mark = 1;
    if (in_svg_frame(b) && !says_no(b, tok))
      mark = SVG_FRAME;
    else if (top_mark(b) == SVG_CODE && !says_no(b, tok))
      mark = name_is(name, "title") || name_is(name, "desc") ? SIDE_TEXT
                                                             : SVG_CODE;
    if (!(flags & E_VOID))
      push(b, name, flags, mark, mark != SIDE_TEXT, 0, NULL);
    return;
  }
  int notrans = (flags & E_SKIP) != 0;
  int preserve =
      (flags & E_PRE) || (b->depth > 0 && b->stack[b->depth - 1].preserve);
  int no = says_no(b, tok);
  notrans |= no;
  if (!no && name_is(name, "iframe") && xmt_page_attr_value(b, tok, "srcdoc") &&
      markup_has_text(b->text.data)) {
    frame_units(b, tok);
    if (b->st != XMT_OK)
      return;
  }
  if (name_is(name, "svg") && !no && !(flags & E_VOID) && b->nitems == 0) {
    xmt_page_flush_run(b);
    attr_units(b, tok, name, NULL);
    push(b, name, flags, SVG_FRAME, preserve, 0, NULL);
    return;
  }
  if (xmt_page_attr_value(b, tok, "style")) {
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
  if (xmt_page_attr_value(b, tok, "id") && b->text.len > 0 &&
      (id = xmt_strdup(b->text.data)) == NULL)
    fail(b, XMT_ERR_NOMEM);
  if (name_is(name, "html") && !b->root_seen) {
    lang_holes(b, tok, 0);
    b->root_seen = 1;
  }
  if (name_is(name, "meta") && xmt_page_attr_value(b, tok, "http-equiv") &&
      ascii_ieq(b->text.data, "content-language"))
    lang_holes(b, tok, 1);
  int inline_like = (flags & E_INLINE) || ((flags & E_CONTEXT) && b->run_text);
  if (notrans) {
    start_untranslated(b, tok, name, flags, no, inline_like, id);
    free(id);
    return;
  }
  if (!inline_like)
    xmt_page_flush_run(b);
  attr_units(b, tok, name, id);
  if (flags & E_VOID) {
    if (inline_like)
      xmt_page_add_item(b, IT_CODE, tok->start, tok->end, name);
  } else {
    push(b, name, flags, 0, preserve, inline_like, id);
    if (inline_like)
      xmt_page_add_item(b, IT_OPEN, tok->start, tok->end, name);
  }
  free(id);
}

static void on_end(struct builder *b, const struct html_token *tok) {
  char name[NAME_ROOM];
  unsigned flags = element_of(b, tok, name);
  size_t k = NONE;
  if (!name_is(name, "html") && !name_is(name, "body")) {
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
  int as_inline = 0, translated = 0;
  if (k != NONE && b->stack != NULL) {
    int ends_skipped = b->ph_item != NONE && k == b->ph_entry;
    as_inline = b->stack[k].as_inline;
    translated = !b->stack[k].notrans;
    xmt_page_pop_to(b, k, ends_skipped ? tok->end : tok->start);
    if (ends_skipped)
      return;
  }
  if (top_notrans(b)) {
    if (translated && !as_inline) /* a translate="yes" block ends */
      xmt_page_flush_run(b);
    return;
  }
  if (name_is(name, "br")) { /* </br> is a <br> to browsers */
    xmt_page_add_item(b, IT_CODE, tok->start, tok->end, name);
  } else if (k != NONE ? as_inline : (flags & (E_INLINE | E_CONTEXT)) != 0) {
    if (k != NONE || b->nitems > 0)
      xmt_page_add_item(b, IT_CLOSE, tok->start, tok->end, name);
  } else {
    xmt_page_flush_run(b);
  }
}

void xmt_page_on_token(struct builder *b, const struct html_token *tok) {
  switch (tok->kind) {
  case HTML_START:
    on_start(b, tok);
    break;
  case HTML_END:
    on_end(b, tok);
    break;
  case HTML_TEXT:
  case HTML_RAWTEXT: {
    if (top_mark(b) == SIDE_TEXT)
      side_unit(b, tok);
    if (top_notrans(b))
      break;
    size_t s = tok->start;
    if (b->nitems == 0) {
      while (s < tok->end && html_is_space(page_byte(b->page, s)))
        s++;
      if (s == tok->end)
        break;
    }
    xmt_page_add_item(b, IT_TEXT, s, tok->end, "");
    break;
  }
  case HTML_COMMENT:
  case HTML_CDATA:
  case HTML_BOGUS:
    if (!top_notrans(b) && b->nitems > 0)
      xmt_page_add_item(b, IT_CODE, tok->start, tok->end,
                        tok->kind == HTML_COMMENT ? "comment" : "markup");
    break;
  case HTML_DOCTYPE:
  case HTML_PI:
    if (!top_notrans(b))
      xmt_page_flush_run(b);
    break;
  }
}
