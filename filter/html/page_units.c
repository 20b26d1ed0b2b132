/* page_units.c -- the HTML page reader's text units: the running unit's
 * pieces (text, inline elements as codes), their pairing, the codes'
 * markup and spacing, and the unit made at the end of a run. Apart from
 * page_walk.c because it turns a run of text into a tagged segment,
 * whatever the structure around it. */
#include "config.h"

#include <stdlib.h>

#include "page_private.h"

/* --- Text units -------------------------------------------------------------
 */

/* The unit's restype, resname and spacing come from the innermost block
 * around its first piece. */
static void begin_run(struct builder *b) {
  const char *block = "body";
  free(b->resname);
  b->resname = NULL;
  for (size_t i = b->depth; i-- > 0;) {
    const struct open_elem *e = &b->stack[i];
    if ((e->flags & E_BLOCK) || ((e->flags & E_CONTEXT) && !e->as_inline)) {
      if (!name_is(e->name, "html") && !name_is(e->name, "head"))
        block = e->name;
      if (e->id != NULL && (b->resname = xmt_strdup(e->id)) == NULL)
        fail(b, XMT_ERR_NOMEM);
      break;
    }
  }
  memcpy(b->restype, "x-html-", 7);
  copy_cut(b->restype + 7, sizeof b->restype - 7, block);
  b->preserve = b->depth > 0 && b->stack[b->depth - 1].preserve;
}

struct item *xmt_page_add_item(struct builder *b, enum item_type type,
                               size_t start, size_t end, const char *name) {
  if (b->nitems == 0)
    begin_run(b);
  if (b->nitems == b->items_cap) {
    /* open and crossed have as many slots as items. */
    size_t had = b->items_cap, cap = had;
    struct item *grown = grow(b->items, &b->items_cap, sizeof *grown);
    size_t *o = grown != NULL
                    ? xmt_grow_array(b->open, &cap, b->items_cap, sizeof *o)
                    : NULL;
    cap = had;
    size_t *c = o != NULL
                    ? xmt_grow_array(b->crossed, &cap, b->items_cap, sizeof *c)
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
  copy_cut(it->name, sizeof it->name, name);
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
      while (k > 0 && !name_is(b->items[b->open[k - 1]].name, it->name))
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
        if (name_is(o->name, it->name)) {
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
    std = name_is(n, "img") ? "image" : name_is(n, "br") ? "lb" : NULL;
  else if (name_is(n, "a"))
    std = "link";
  else if (name_is(n, "b") || name_is(n, "strong"))
    std = "bold";
  else if (name_is(n, "i") || name_is(n, "em"))
    std = "italic";
  else if (name_is(n, "u"))
    std = "underlined";
  if (std != NULL) {
    copy_cut(buf, cap, std);
    return;
  }
  int plain = n[0] != '\0';
  for (const char *p = n; *p != '\0'; p++)
    plain = plain && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
                      *p == '-' || *p == '_' || *p == '.' || *p == ':');
  memcpy(buf, "x-html-", 7);
  copy_cut(buf + 7, cap - 7, plain ? n : "element");
}

/* NAME_QUOTE (` pos="`), value and its closing quote appended to m; none
 * when value is NULL. */
static xmt_status attribute(struct xmt_buf *m, const char *name_quote,
                            const char *value) {
  if (value == NULL)
    return XMT_OK;
  xmt_status st = xmt_buf_append_str(m, name_quote);
  if (st == XMT_OK)
    st = xmt_buf_append_str(m, value);
  return st == XMT_OK ? xmt_buf_append_byte(m, '"') : st;
}

/* <ELEMENT id="ID"[ pos="POS"][ ctype="CTYPE"]END appended to m: a code's
 * head, without snprintf's cost per code. */
static xmt_status head_markup(struct xmt_buf *m, const char *element,
                              unsigned id, const char *pos, const char *ctype,
                              const char *end) {
  char num[12];
  size_t n = put_uint(num, id);
  xmt_status st = xmt_buf_append_byte(m, '<');
  if (st == XMT_OK)
    st = xmt_buf_append_str(m, element);
  if (st == XMT_OK)
    st = xmt_buf_append_str(m, " id=\"");
  if (st == XMT_OK)
    st = xmt_buf_append(m, num, n);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(m, '"');
  if (st == XMT_OK)
    st = attribute(m, " pos=\"", pos);
  if (st == XMT_OK)
    st = attribute(m, " ctype=\"", ctype);
  return st == XMT_OK ? xmt_buf_append_str(m, end) : st;
}

/* The XLIFF 1.2 code of a run item, into b->markup. */
static xmt_status code_markup(struct builder *b, const struct item *it,
                              const char **element) {
  char ctype[48];
  ctype_of(it, ctype, sizeof ctype);
  xmt_buf_reset(&b->markup);
  switch (it->kind) {
  case XMT_TAG_OPEN:
    *element = "g";
    return head_markup(&b->markup, "g", it->id, NULL, ctype, ">");
  case XMT_TAG_CLOSE:
    *element = "g";
    return xmt_buf_append_str(&b->markup, "</g>");
  case XMT_TAG_PLACEHOLDER:
    *element = "x";
    return head_markup(&b->markup, "x", it->id, NULL, ctype, "/>");
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    break;
  }
  int open = it->kind == XMT_TAG_ISOLATED_OPEN;
  if (it->partner != NONE) {
    *element = open ? "bx" : "ex";
    return head_markup(&b->markup, *element, it->id, NULL, open ? ctype : NULL,
                       "/>");
  }
  /* No partner in the unit: an isolated tag carrying its markup. */
  *element = "it";
  xmt_buf_reset(&b->text);
  xmt_status st = head_markup(&b->markup, "it", it->id, open ? "open" : "close",
                              ctype, ">");
  if (st == XMT_OK)
    st = xmt_html_decode(&b->doc->charset, page_at(b->page, it->start),
                         it->end - it->start, 2, &b->text);
  if (st == XMT_OK)
    st = xmt_xml_escape_text(&b->markup, b->text.data, b->text.len);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&b->markup, "</it>");
  return st;
}

/* Whitespace run of the page ending at end (before) or starting at start
 * (after) within an item, unless it is a single space. */
static void spacing(struct html_view page, const struct item *text, int before,
                    size_t range[2]) {
  range[0] = range[1] = 0;
  if (text == NULL || text->type != IT_TEXT)
    return;
  size_t s, e;
  if (before) {
    e = text->end;
    s = e;
    while (s > text->start && html_is_space(page_byte(page, s - 1)))
      s--;
  } else {
    s = text->start;
    e = s;
    while (e < text->end && html_is_space(page_byte(page, e)))
      e++;
  }
  if (e > s && !(e - s == 1 && page_byte(page, s) == ' ')) {
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
    spacing(b->page, i > 0 ? &b->items[i - 1] : NULL, 1, c->ws_before);
    spacing(b->page, i + 1 < n ? &b->items[i + 1] : NULL, 0, c->ws_after);
  }
  return XMT_OK;
}

/* Ends the running text: a unit when it has text to translate. */
void xmt_page_flush_run(struct builder *b) {
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
    while (last->end > last->start &&
           html_is_space(page_byte(b->page, last->end - 1)))
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
      st = xmt_html_decode(&b->doc->charset, page_at(b->page, it->start),
                           it->end - it->start, 0, &b->text);
      if (!b->preserve)
        xmt_page_normalize(&b->text, 0);
      if (st == XMT_OK)
        st = xmt_segment_append_valid_text(seg, b->text.data, b->text.len);
      continue;
    }
    const char *element = NULL;
    char id[24];
    put_uint(id, it->id);
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
  if (st == XMT_OK && xmt_page_has_content(text, len))
    u = xmt_page_new_unit(b, b->items[0].start, b->items[n - 1].end, b->restype,
                          b->resname, seg);
  if (u == NULL) { /* nothing to translate, or out of memory */
    xmt_segment_free(seg);
    b->doc->ncodes = first_code;
    if (st != XMT_OK)
      fail(b, st);
    return;
  }
  u->preserve = b->preserve;
  u->first_code = first_code;
  u->ncodes = b->doc->ncodes - first_code;
  u->max_id = next_id;
  xmt_page_add_hole(b, HOLE_TEXT, u->start, u->end, b->doc->nunits - 1, 0);
}
