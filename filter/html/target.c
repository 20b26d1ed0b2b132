/* target.c -- a unit's target as the page keeps it from take to write:
 * a typed value made once at take, its text (the characters XML cannot
 * carry dropped, as the XLIFF text of a target dropped them) and, for
 * each code, its offset in the text and the index of the unit's code it
 * stands for. The writer walks it as it is: no XLIFF markup, and no
 * packed string, is made and read again on the way. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html_private.h"

void xmt_html_taker_free(struct html_taker *pk) {
  xmt_buf_free(&pk->text);
  free(pk->index);
  free(pk->tags);
  free(pk->open);
  free(pk->pairs);
  memset(pk, 0, sizeof *pk);
}

/* Appends seg's text between from and to without the characters XML
 * cannot carry, as the XLIFF text of a target dropped them. */
static xmt_status put_piece(struct xmt_buf *out, const char *s, size_t len) {
  size_t from = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    size_t bad = xmt_xml_forbidden_at(s, len, i);
    if (bad == 0)
      continue;
    st = xmt_buf_append(out, s + from, i - from);
    i += bad - 1;
    from = i + 1;
  }
  return st == XMT_OK ? xmt_buf_append(out, s + from, len - from) : st;
}

static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
}

/* The target's text and codes into pk->text and pk->tags (offsets in
 * the text, ids): an end of a pair takes the id of the innermost pair
 * open, and a pair left open or closed twice makes XMT_ERR_XML, as
 * reading the target's XLIFF elements did. */
static xmt_status read_target(struct html_taker *pk, const xmt_segment *seg) {
  size_t len, at = 0, n = xmt_segment_tag_count(seg), open = 0;
  const char *text = xmt_segment_text(seg, &len);
  xmt_buf_reset(&pk->text);
  pk->ntags = 0;
  if (n > pk->tags_cap) {
    struct xmt_tag *t = xmt_grow_array(pk->tags, &pk->tags_cap, n, sizeof *t);
    if (t == NULL)
      return XMT_ERR_NOMEM;
    pk->tags = t;
  }
  if (n > pk->open_cap) {
    const char **o = xmt_grow_array(pk->open, &pk->open_cap, n, sizeof *o);
    if (o == NULL)
      return XMT_ERR_NOMEM;
    pk->open = o;
  }
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    struct xmt_tag *tag = &pk->tags[i];
    st = xmt_segment_tag(seg, i, tag);
    if (st == XMT_OK && tag->offset > at)
      st = put_piece(&pk->text, text + at, tag->offset - at);
    at = tag->offset > at ? tag->offset : at;
    tag->offset = pk->text.len;
    if (tag->kind == XMT_TAG_OPEN)
      pk->open[open++] = tag->id;
    else if (tag->kind == XMT_TAG_CLOSE && open == 0)
      return XMT_ERR_XML;
    else if (tag->kind == XMT_TAG_CLOSE)
      tag->id = pk->open[--open];
  }
  if (st == XMT_OK && len > at)
    st = put_piece(&pk->text, text + at, len - at);
  pk->ntags = n;
  return st == XMT_OK && open > 0 ? XMT_ERR_XML : st;
}

/* 1 when what read_target made says the same as the source: same text,
 * same codes at the same places; the page's own bytes are written. */
static int same_content(const struct html_taker *pk,
                        const xmt_segment *source) {
  size_t sl;
  const char *s = xmt_segment_text(source, &sl);
  if (pk->text.len != sl || memcmp(pk->text.data, s, sl) != 0 ||
      pk->ntags != xmt_segment_tag_count(source))
    return 0;
  for (size_t i = 0; i < pk->ntags; i++) {
    const struct xmt_tag *a = &pk->tags[i];
    struct xmt_tag b;
    if (xmt_segment_tag(source, i, &b) != XMT_OK || a->offset != b.offset ||
        side_of(a->kind) != side_of(b.kind) || a->id == NULL || b.id == NULL ||
        strcmp(a->id, b.id) != 0)
      return 0;
  }
  return 1;
}

/* Indexes the codes of u by id and side: pk->index[2 * id + side]. */
static xmt_status index_codes(struct html_taker *pk, const struct html_doc *doc,
                              const struct html_unit *u) {
  size_t n = 2 * ((size_t)u->max_id + 1);
  if (n > pk->index_cap) {
    size_t *grown = xmt_grow_array(pk->index, &pk->index_cap, n, sizeof *grown);
    if (grown == NULL)
      return XMT_ERR_NOMEM;
    pk->index = grown;
  }
  for (size_t i = 0; i < n; i++)
    pk->index[i] = SIZE_MAX;
  for (size_t i = 0; i < u->ncodes; i++) {
    const struct html_code *c = &doc->codes[u->first_code + i];
    pk->index[2 * c->id + (size_t)side_of(c->kind)] = i;
  }
  return XMT_OK;
}

/* The index of the code of u a target code stands for, or SIZE_MAX. */
static size_t find_code(const struct html_taker *pk, const struct html_unit *u,
                        const struct xmt_tag *tag) {
  char *end;
  if (tag->id == NULL || tag->id[0] < '0' || tag->id[0] > '9')
    return SIZE_MAX;
  unsigned long id = strtoul(tag->id, &end, 10);
  if (*end != '\0' || id > u->max_id)
    return SIZE_MAX;
  return pk->index[2 * id + (size_t)side_of(tag->kind)];
}

/* How many codes of the target are kept: all, or up to and including
 * the first the unit does not have (the writer stops there; its id in
 * *bad_id). */
static size_t codes_kept(const struct html_taker *pk, const struct html_unit *u,
                         const char **bad_id) {
  *bad_id = NULL;
  for (size_t i = 0; i < pk->ntags; i++)
    if (find_code(pk, u, &pk->tags[i]) == SIZE_MAX) {
      *bad_id = pk->tags[i].id != NULL ? pk->tags[i].id : "";
      return i + 1;
    }
  return pk->ntags;
}

/* The id of the first code of the target that breaks a pair of the
 * page (an element's start or end whose other end the target lacks, puts
 * first, or crosses), *broken set; else NULL. Each code stands for one
 * of u's by id and side, whatever its kind: a <bx/> or <x/> alone for a
 * <b> would write a start the page never ends, and a browser carries the
 * element on into the paragraphs after. */
static xmt_status broken_pair(struct html_taker *pk, const struct html_doc *doc,
                              const struct html_unit *u, const char **broken) {
  *broken = NULL;
  if (pk->ntags > pk->pairs_cap) {
    size_t *p = xmt_grow_array(pk->pairs, &pk->pairs_cap, pk->ntags, sizeof *p);
    if (p == NULL)
      return XMT_ERR_NOMEM;
    pk->pairs = p;
  }
  size_t open = 0;
  for (size_t i = 0; i < pk->ntags && *broken == NULL; i++) {
    const struct html_code *c =
        &doc->codes[u->first_code + find_code(pk, u, &pk->tags[i])];
    int side = side_of(c->kind);
    if ((c->kind != XMT_TAG_OPEN && c->kind != XMT_TAG_CLOSE) ||
        pk->index[2 * c->id + (size_t)!side] == SIZE_MAX)
      continue; /* no pair in the page */
    if (side == 0) {
      pk->pairs[open++] = i;
      continue;
    }
    const struct html_code *o =
        open > 0 ? &doc->codes[u->first_code +
                               find_code(pk, u, &pk->tags[pk->pairs[open - 1]])]
                 : NULL;
    if (o == NULL || o->id != c->id)
      *broken = pk->tags[i].id;
    else
      open--;
  }
  if (*broken == NULL && open > 0)
    *broken = pk->tags[pk->pairs[open - 1]].id;
  return XMT_OK;
}

/* One block: the struct, its codes, its text and NUL, the bad id and
 * NUL; sized by what it holds. */
static struct html_target *new_target(xmt_status st, size_t ncodes, size_t len,
                                      size_t id_len) {
  size_t size = sizeof(struct html_target) +
                ncodes * sizeof(struct html_target_code) + len + 1 + id_len;
  struct html_target *t = malloc(size);
  if (t != NULL)
    *t = (struct html_target){.st = st, .len = len, .ncodes = ncodes};
  return t;
}

xmt_status xmt_html_target_take(struct html_taker *pk,
                                const struct html_doc *doc, size_t unit,
                                const xmt_segment *target,
                                struct html_target **out) {
  const struct html_unit *u = &doc->units[unit];
  if (u->frame != NULL) /* its codes are its srcdoc page's */
    return xmt_html_target_take(pk, u->frame, u->frame_unit, target, out);
  *out = NULL;
  xmt_status failed = read_target(pk, target);
  if (failed == XMT_ERR_NOMEM)
    return failed;
  if (failed == XMT_OK && same_content(pk, u->source))
    return XMT_OK;
  if (failed != XMT_OK) { /* nothing of it is written */
    *out = new_target(failed, 0, 0, 0);
    if (*out != NULL)
      html_target_text(*out)[0] = '\0';
    return *out != NULL ? XMT_OK : XMT_ERR_NOMEM;
  }
  xmt_status st = pk->ntags > 0 ? index_codes(pk, doc, u) : XMT_OK;
  if (st != XMT_OK)
    return st;
  const char *bad_id, *broken = NULL;
  size_t n = codes_kept(pk, u, &bad_id);
  if (bad_id == NULL && (st = broken_pair(pk, doc, u, &broken)) != XMT_OK)
    return st;
  if (broken != NULL) { /* nothing of it is written */
    size_t id_len = strlen(broken) + 1;
    *out = new_target(XMT_ERR_INLINE, 0, 0, id_len);
    if (*out == NULL)
      return XMT_ERR_NOMEM;
    html_target_text(*out)[0] = '\0';
    memcpy(html_target_text(*out) + 1, broken, id_len);
    return XMT_OK;
  }
  size_t id_len = bad_id != NULL ? strlen(bad_id) + 1 : 0;
  struct html_target *t = new_target(XMT_OK, n, pk->text.len, id_len);
  if (t == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < n; i++)
    t->codes[i] = (struct html_target_code){pk->tags[i].offset,
                                            find_code(pk, u, &pk->tags[i])};
  char *text = html_target_text(t);
  if (pk->text.len > 0)
    memcpy(text, pk->text.data, pk->text.len);
  text[pk->text.len] = '\0';
  if (bad_id != NULL)
    memcpy(text + pk->text.len + 1, bad_id, id_len);
  *out = t;
  return XMT_OK;
}
