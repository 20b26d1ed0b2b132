/* read_ignorable.c -- the <ignorable>s of an XLIFF 2 unit, kept while
 * they may need a target (their codes pair with the segments'), and the
 * order of a target, which an ignorable's may have too. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read_private.h"

/* The order of a target of the part-th segment or ignorable: its order
 * attribute, else its place; one other than its place is noted. */
unsigned xmt_x2_target_order(struct reader *r, const char **atts, unsigned part,
                             size_t at, size_t len) {
  const char *order = xmt_x2_attr(atts, "order");
  char *end = NULL;
  unsigned long n = order != NULL ? strtoul(order, &end, 10) : 0;
  if (order == NULL || end == order || *end != '\0' || n == 0 || n > 0xFFFFFFu)
    return part;
  r->ordered = 1;
  if (n != part)
    r->reordered = 1;
  struct x2_doc *doc = r->doc;
  struct x2_order *o =
      xmt_grow_one(&doc->orders, doc->norders, &doc->orders_cap, sizeof *o);
  if (o == NULL) {
    xmt_x2_nomem(r);
    return part;
  }
  *o = (struct x2_order){at, at + len, (unsigned)n, 0};
  doc->norders++;
  return (unsigned)n;
}

/* An element of an <ignorable> (k: its parent's kind): the sc, ec, sm
 * and em of its source and target are kept for pairing (pairs.c). */
void xmt_x2_open_ignorable(struct reader *r, enum frame_kind k,
                           const char *local, const char **atts, size_t at,
                           size_t len) {
  const struct frame *parent = &r->stack[r->depth - 1];
  unsigned char side = parent->side;
  unsigned order = parent->order;
  struct x2_doc *doc = r->doc;
  struct x2_ign *g = doc->nigns > 0 ? &doc->igns[doc->nigns - 1] : NULL;
  if (k == F_IGNORABLE) {
    side = strcmp(local, "target") == 0 ? 2 : 1;
    order =
        side == 2 ? xmt_x2_target_order(r, atts, r->parts, at, len) : r->parts;
    if (g != NULL && side == 2)
      g->has_target = 1;
    if (g != NULL && side == 1) {
      size_t ws = at;
      while (ws > 0 && xmt_is_xml_space(doc->data.data[ws - 1]))
        ws--;
      g->ws_start = ws;
      g->start = at;
      g->inner_start = g->inner_end = g->end = at + len;
    }
  } else {
    static const char *const names[] = {"sc", "ec", "sm", "em"};
    static const enum x2_elem elems[] = {X2_SC, X2_EC, X2_SM, X2_EM};
    const char *iso = xmt_x2_attr(atts, "isolated");
    for (size_t i = 0; i < 4; i++) {
      if (strcmp(local, names[i]) != 0 ||
          (iso != NULL && strcmp(iso, "yes") == 0))
        continue;
      const char *id = xmt_x2_attr(atts, i % 2 ? "startRef" : "id");
      struct x2_far *x =
          id != NULL ? xmt_grow_one(&r->far, r->nfar, &r->far_cap, sizeof *x)
                     : NULL;
      if (id != NULL && x == NULL) {
        xmt_x2_nomem(r);
        return;
      }
      if (x == NULL)
        break;
      r->nfar++;
      if (g != NULL && side == 1)
        g->pairs = 1;
      x->elem = (unsigned char)elems[i];
      x->side = side;
      x->part = r->parts;
      x->order = order;
      x->id = xmt_x2_keep(r, id);
    }
  }
  struct frame *f = xmt_x2_push(r, F_IGN_CONTENT);
  if (f != NULL) {
    f->side = side;
    f->order = order;
  }
}

/* An <ignorable>: a place of its unit, and kept (doc->igns) until its
 * end shows whether it may need a target (xmt_x2_close_ignorable). */
void xmt_x2_open_ignorable_element(struct reader *r) {
  struct x2_doc *doc = r->doc;
  r->parts++;
  struct x2_ign *g =
      xmt_grow_one(&doc->igns, doc->nigns, &doc->igns_cap, sizeof *g);
  if (g == NULL) {
    xmt_x2_nomem(r);
    return;
  }
  memset(g, 0, sizeof *g);
  doc->nigns++;
  xmt_x2_push(r, F_IGNORABLE);
}

/* The end of an <ignorable>'s <source> (at, len: its end tag), or of the
 * <ignorable>: one with a target, or no code that pairs, is dropped. */
void xmt_x2_close_ignorable(struct reader *r, const struct frame *f, size_t at,
                            size_t len) {
  struct x2_doc *doc = r->doc;
  if (doc->nigns == 0)
    return;
  struct x2_ign *g = &doc->igns[doc->nigns - 1];
  if (f->kind == F_IGN_CONTENT && f->side == 1 && len > 0 &&
      r->stack[r->depth - 2].kind == F_IGNORABLE) {
    g->inner_end = at;
    g->end = at + len;
  } else if (f->kind == F_IGNORABLE && (!g->pairs || g->has_target)) {
    doc->nigns--;
  }
}
