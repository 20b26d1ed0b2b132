/* read_inline.c -- the inline codes of an XLIFF 2 <source> or <target>:
 * each element becomes a code whose markup is the element as written
 * (pc and mrk: their start and end tags), at its place in the text. */
#include "config.h"

#include <string.h>

#include "read_private.h"

static const struct {
  const char *name;
  enum x2_elem elem;
} inline_elements[] = {{"ph", X2_PH}, {"pc", X2_PC},   {"sc", X2_SC},
                       {"ec", X2_EC}, {"mrk", X2_MRK}, {"sm", X2_SM},
                       {"em", X2_EM}, {"cp", X2_CP}};

/* A new code at the current end of the text; its index, or X2_NONE. */
static size_t add_code(struct reader *r, enum x2_elem elem,
                       enum xmt_tag_kind kind, size_t start, size_t end) {
  struct x2_doc *doc = r->doc;
  /* grown only when full: a call for every code read */
  struct x2_code *codes = doc->codes != NULL && doc->ncodes < doc->codes_cap
                              ? doc->codes
                              : xmt_grow_array(doc->codes, &doc->codes_cap,
                                               doc->ncodes + 1, sizeof *codes);
  if (codes == NULL) {
    xmt_x2_nomem(r);
    return X2_NONE;
  }
  doc->codes = codes;
  const struct x2_segment *s = &doc->segs[doc->nsegs - 1];
  const struct x2_content *c = r->content == 2 ? &s->target : &s->source;
  struct x2_code *x = &doc->codes[doc->ncodes];
  memset(x, 0, sizeof *x);
  x->elem = (unsigned char)elem;
  x->kind = (unsigned char)kind;
  x->can_delete = 1;
  x->offset = doc->texts.len - c->text;
  x->start = start;
  x->end = end;
  x->id = X2_NONE;
  x->partner = X2_NONE;
  return doc->ncodes++;
}

/* The attributes of an inline element a code needs, found in one pass
 * over expat's list: six lookups, each a scan, were a third of reading
 * an element. */
struct inline_atts {
  const char *id, *start_ref, *isolated, *translate, *can_delete, *reorder;
};

static void inline_atts(const char **atts, struct inline_atts *a) {
  memset(a, 0, sizeof *a);
  for (size_t i = 0; atts[i] != NULL; i += 2) {
    const char *n = atts[i], *v = atts[i + 1];
    const char **to = NULL;
    switch (n[0]) {
    case 'i':
      to = strcmp(n, "id") == 0         ? &a->id
           : strcmp(n, "isolated") == 0 ? &a->isolated
                                        : NULL;
      break;
    case 's':
      to = strcmp(n, "startRef") == 0 ? &a->start_ref : NULL;
      break;
    case 't':
      to = strcmp(n, "translate") == 0 ? &a->translate : NULL;
      break;
    case 'c':
      to = strcmp(n, "canDelete") == 0    ? &a->can_delete
           : strcmp(n, "canReorder") == 0 ? &a->reorder
                                          : NULL;
      break;
    default:
      break;
    }
    if (to != NULL && *to == NULL) /* the first, as xmt_x2_attr finds */
      *to = v;
  }
}

/* The kind a code starts with; sc/ec and sm/em pairs are decided when the
 * unit ends (pairs.c). */
static enum xmt_tag_kind first_kind(enum x2_elem e,
                                    const struct inline_atts *a) {
  int iso = a->isolated != NULL && strcmp(a->isolated, "yes") == 0;
  switch (e) {
  case X2_SC:
    return iso ? XMT_TAG_ISOLATED_OPEN : XMT_TAG_OPEN;
  case X2_EC:
    return iso ? XMT_TAG_ISOLATED_CLOSE : XMT_TAG_CLOSE;
  case X2_SM:
  case X2_PC:
  case X2_MRK:
    return XMT_TAG_OPEN;
  case X2_EM:
    return XMT_TAG_CLOSE;
  default:
    return XMT_TAG_PLACEHOLDER;
  }
}

/* The id a code is known by: ec and em name their start. */
static const char *code_id(enum x2_elem e, enum xmt_tag_kind kind,
                           const struct inline_atts *a) {
  if ((e == X2_EC && kind == XMT_TAG_CLOSE) || e == X2_EM)
    return a->start_ref;
  return a->id;
}

/* 1 when every sc/ec and sm/em among the codes from first on has its
 * partner among them too: a range holding only one end of a pair cannot
 * be one code. */
static int pairs_inside(const struct x2_doc *doc, size_t first) {
  for (size_t i = first; i < doc->ncodes; i++) {
    const struct x2_code *x = &doc->codes[i];
    int start = x->elem == X2_SC || x->elem == X2_SM;
    if (!start && x->elem != X2_EC && x->elem != X2_EM)
      continue;
    if (x->kind == XMT_TAG_ISOLATED_OPEN || x->kind == XMT_TAG_ISOLATED_CLOSE)
      continue;
    size_t j = first;
    for (; j < doc->ncodes; j++) {
      const struct x2_code *y = &doc->codes[j];
      int y_start = y->elem == X2_SC || y->elem == X2_SM;
      if (j != i && y_start != start &&
          (y->elem == X2_SC || y->elem == X2_EC) ==
              (x->elem == X2_SC || x->elem == X2_EC) &&
          x->id != X2_NONE && y->id != X2_NONE &&
          strcmp(x2_str(doc, y->id), x2_str(doc, x->id)) == 0)
        break;
    }
    if (j == doc->ncodes)
      return 0;
  }
  return 1;
}

/* The <em> of a pending <sm translate="no"> at its depth: the sm becomes
 * one code kept whole, from its start to the em's end, and the text and
 * codes read since it are taken back. 1 when it was that em. */
static int end_nomt(struct reader *r, enum x2_elem e, const char *id, size_t at,
                    size_t len) {
  struct x2_doc *doc = r->doc;
  if (r->nomt == X2_NONE || e != X2_EM || r->depth != r->nomt_depth ||
      strcmp(id, x2_str(doc, r->nomt_id)) != 0)
    return 0;
  if (!pairs_inside(doc, r->nomt + 1)) {
    r->nomt = X2_NONE; /* a pair then, as any sm/em */
    r->nomt_apart = 1;
    return 0;
  }
  struct x2_code *x = &doc->codes[r->nomt];
  const struct x2_segment *s = &doc->segs[doc->nsegs - 1];
  const struct x2_content *c = r->content == 2 ? &s->target : &s->source;
  x->elem = X2_WHOLE;
  x->kind = XMT_TAG_PLACEHOLDER;
  x->end = at + len;
  doc->ncodes = r->nomt + 1;
  doc->texts.len = c->text + x->offset;
  r->nomt = X2_NONE;
  xmt_x2_push(r, F_OTHER);
  return 1;
}

void xmt_x2_open_inline(struct reader *r, const char *local, const char **atts,
                        size_t at, size_t len) {
  if (r->whole > 0) { /* inside an element kept whole */
    xmt_x2_push(r, F_OTHER);
    return;
  }
  size_t n = sizeof inline_elements / sizeof *inline_elements, i = 0;
  /* the first letter first: a call to strcmp a name passed over cost more
   * than the name */
  while (local != NULL && i < n &&
         (inline_elements[i].name[0] != local[0] ||
          strcmp(inline_elements[i].name, local) != 0))
    i++;
  if (local == NULL || i == n) {
    xmt_x2_fail(r, XMT_ERR_FORMAT, at, "%s",
                "an element that is not an XLIFF 2 inline code in text");
    return;
  }
  enum x2_elem e = inline_elements[i].elem;
  struct inline_atts a;
  inline_atts(atts, &a);
  enum xmt_tag_kind kind = first_kind(e, &a);
  const char *id = code_id(e, kind, &a);
  if (id == NULL && e != X2_CP) {
    xmt_x2_fail(r, XMT_ERR_FORMAT, at, "<%s> without %s", local,
                e == X2_EM || e == X2_EC ? "startRef" : "id");
    return;
  }
  if (end_nomt(r, e, id, at, len))
    return;
  int no = a.translate != NULL && strcmp(a.translate, "no") == 0;
  if (e == X2_MRK && no) {
    e = X2_WHOLE; /* its content is not to be translated: kept whole */
    kind = XMT_TAG_PLACEHOLDER;
  }
  size_t k = add_code(r, e, kind, at, at + len);
  if (e == X2_SM && no && k != X2_NONE && r->nomt == X2_NONE) {
    r->nomt = k;
    r->nomt_depth = r->depth;
    r->nomt_id = xmt_x2_keep(r, id);
  }
  struct frame *f = k != X2_NONE ? xmt_x2_push(r, F_INLINE) : NULL;
  if (f == NULL)
    return;
  f->code = k;
  struct x2_code *x = &r->doc->codes[k];
  x->id = xmt_x2_keep(r, id);
  x->can_delete = a.can_delete == NULL || strcmp(a.can_delete, "no") != 0;
  const char *reorder = a.reorder;
  x->reorder = reorder == NULL                   ? X2_REORDER_YES
               : strcmp(reorder, "firstNo") == 0 ? X2_REORDER_FIRST_NO
               : strcmp(reorder, "no") == 0      ? X2_REORDER_NO
                                                 : X2_REORDER_YES;
  if (e != X2_PC && e != X2_MRK)
    r->whole = r->depth; /* nothing inside counts: one code */
}

void xmt_x2_close_inline(struct reader *r, const struct frame *f, size_t at,
                         size_t len) {
  struct x2_doc *doc = r->doc;
  size_t k = f->code;
  if (r->whole == r->depth) {
    if (len > 0)
      doc->codes[k].end = at + len;
    r->whole = 0;
    return;
  }
  if (len == 0) { /* <pc .../>: nothing to enclose, one placeholder */
    doc->codes[k].elem = X2_WHOLE;
    doc->codes[k].kind = XMT_TAG_PLACEHOLDER;
    return;
  }
  size_t e = add_code(r, (enum x2_elem)doc->codes[k].elem, XMT_TAG_CLOSE, at,
                      at + len);
  if (e == X2_NONE)
    return;
  doc->codes[e].id = doc->codes[k].id;
  doc->codes[e].can_delete = doc->codes[k].can_delete;
  doc->codes[e].reorder = doc->codes[k].reorder;
  doc->codes[e].partner = k;
  doc->codes[k].partner = e;
}

void xmt_x2_inline_other(struct reader *r, size_t at, size_t len) {
  if (len > 0)
    add_code(r, X2_WHOLE, XMT_TAG_PLACEHOLDER, at, at + len);
}
