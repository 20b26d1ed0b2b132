/* target.c -- a unit's target as the page keeps it from take to write:
 * its text and, for each code, the index of the unit's code it stands
 * for, packed in one block. No XLIFF inline markup is made or parsed on
 * the way; the packed target says what the markup would have said (the
 * writer wrote pages from it before), so the page comes out the same.
 *
 * A block is either the text alone, NUL-terminated (no code, nothing
 * to report: never starting with 0xFF, which UTF-8 text cannot), or
 *   0xFF, text, NUL, status, code count, per code (offset from the one
 *   before, code index + 1 or 0 for none), and after a code of none its
 *   id, NUL,
 * the numbers as 7-bit varints: a code takes about two bytes where its
 * XLIFF element took 4 (</g>) to 40. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html_private.h"

#define TAGGED 0xFF

static xmt_status put_varint(struct xmt_buf *b, size_t v) {
  unsigned char bytes[(sizeof v * 8 + 6) / 7];
  size_t n = 0;
  do {
    bytes[n] = (unsigned char)(v & 0x7F);
    v >>= 7;
    if (v != 0)
      bytes[n] |= 0x80;
    n++;
  } while (v != 0);
  return xmt_buf_append(b, (const char *)bytes, n);
}

static size_t get_varint(const unsigned char **p) {
  size_t v = 0;
  unsigned shift = 0;
  unsigned char c;
  do {
    c = *(*p)++;
    v |= (size_t)(c & 0x7F) << shift;
    shift += 7;
  } while (c & 0x80);
  return v;
}

void xmt_html_packer_free(struct html_packer *pk) {
  xmt_buf_free(&pk->text);
  xmt_buf_free(&pk->block);
  free(pk->index);
  free(pk->tags);
  free(pk->open);
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
static xmt_status read_target(struct html_packer *pk, const xmt_segment *seg) {
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
static int same_content(const struct html_packer *pk,
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
static xmt_status index_codes(struct html_packer *pk,
                              const struct html_doc *doc,
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
static size_t find_code(const struct html_packer *pk, const struct html_unit *u,
                        const struct xmt_tag *tag) {
  char *end;
  if (tag->id == NULL || tag->id[0] < '0' || tag->id[0] > '9')
    return SIZE_MAX;
  unsigned long id = strtoul(tag->id, &end, 10);
  if (*end != '\0' || id > u->max_id)
    return SIZE_MAX;
  return pk->index[2 * id + (size_t)side_of(tag->kind)];
}

static xmt_status put_codes(struct html_packer *pk, const struct html_unit *u) {
  xmt_status st = put_varint(&pk->block, pk->ntags);
  size_t at = 0;
  for (size_t i = 0; st == XMT_OK && i < pk->ntags; i++) {
    const struct xmt_tag *tag = &pk->tags[i];
    size_t code = find_code(pk, u, tag);
    st = put_varint(&pk->block, tag->offset - at);
    if (st == XMT_OK)
      st = put_varint(&pk->block, code + 1); /* SIZE_MAX + 1: 0, none */
    at = tag->offset;
    if (st == XMT_OK && code == SIZE_MAX) { /* the writer stops here */
      const char *id = tag->id != NULL ? tag->id : "";
      return xmt_buf_append(&pk->block, id, strlen(id) + 1);
    }
  }
  return st;
}

xmt_status xmt_html_target_pack(struct html_packer *pk,
                                const struct html_doc *doc, size_t unit,
                                const xmt_segment *target, char **packed) {
  const struct html_unit *u = &doc->units[unit];
  *packed = NULL;
  xmt_status failed = read_target(pk, target);
  if (failed == XMT_ERR_NOMEM)
    return failed;
  if (failed == XMT_OK && same_content(pk, u->source))
    return XMT_OK;
  xmt_buf_reset(&pk->block);
  xmt_status st = XMT_OK;
  if (failed != XMT_OK || pk->ntags > 0) {
    st = xmt_buf_append_byte(&pk->block, (char)TAGGED);
    if (failed != XMT_OK)
      xmt_buf_reset(&pk->text); /* nothing of it is written */
  }
  if (st == XMT_OK)
    st = xmt_buf_append(&pk->block, pk->text.data, pk->text.len);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&pk->block, '\0');
  if (st == XMT_OK && pk->block.data[0] == (char)TAGGED) {
    st = put_varint(&pk->block, (size_t)failed);
    if (st == XMT_OK && failed == XMT_OK)
      st = index_codes(pk, doc, u);
    if (st == XMT_OK && failed == XMT_OK)
      st = put_codes(pk, u);
  }
  if (st != XMT_OK)
    return st;
  if ((*packed = malloc(pk->block.len)) == NULL)
    return XMT_ERR_NOMEM;
  memcpy(*packed, pk->block.data, pk->block.len);
  return XMT_OK;
}

void xmt_html_target_open(struct html_target *t, const char *packed) {
  memset(t, 0, sizeof *t);
  int tagged = (unsigned char)packed[0] == TAGGED;
  t->text = packed + tagged;
  t->len = strlen(t->text);
  if (!tagged)
    return;
  const unsigned char *p = (const unsigned char *)t->text + t->len + 1;
  t->st = (xmt_status)get_varint(&p);
  if (t->st == XMT_OK)
    t->ntags = get_varint(&p);
  t->next = p;
}

int xmt_html_target_next(struct html_target *t, size_t *offset, size_t *code) {
  if (t->ntags == 0)
    return 0;
  t->ntags--;
  t->offset += get_varint(&t->next);
  *offset = t->offset;
  *code = get_varint(&t->next);
  if ((*code)-- == 0) {
    t->bad_id = (const char *)t->next;
    t->ntags = 0;
  }
  return 1;
}
