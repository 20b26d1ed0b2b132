/* segment.c -- the tagged segment: UTF-8 text plus an ordered tag list. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "projector_private.h"

/* A tag as stored. Strings are offsets into the segment's pool rather than
 * pointers, so growing the pool never invalidates a record and a whole
 * segment copies with three memcpy calls. */
struct tag_rec {
  enum xmt_tag_kind kind;
  size_t offset; /* byte offset in the text */
  size_t id;     /* NUL-terminated, in pool */
  size_t name;   /* NUL-terminated, in pool */
  size_t markup; /* markup_len bytes in pool, then a NUL */
  size_t markup_len;
};

struct xmt_segment {
  struct xmt_buf text;
  struct xmt_buf pool;
  struct tag_rec *tags;
  size_t ntags;
  size_t cap;
  /* The one allocation text, pool and tags were first made in (NULL:
   * none): one malloc and one free a segment instead of three. A part
   * that outgrows its room there moves out; the last one out frees it. */
  char *block;
  unsigned parts; /* of PART_TEXT, PART_POOL, PART_TAGS: those in block */
  /* The block of a small segment (a gap, a word): in the segment's own
   * allocation. */
  union {
    size_t align; /* tags come first */
    char bytes[64];
  } room;
};

/* Enough for the tags of nearly every real segment, so that
 * xmt_segment_check() does not allocate. */
#define CHECK_LOCAL_OPENS 32

/* malloc, not calloc, which passes by the thread's cache of freed chunks
 * (glibc): a segmenter makes a few segments a sentence. The room is
 * written before it is read. */
xmt_segment *xmt_segment_new(void) {
  xmt_segment *seg = malloc(sizeof *seg);
  if (seg != NULL)
    memset(seg, 0, offsetof(xmt_segment, room));
  return seg;
}

enum { PART_TEXT = 1, PART_POOL = 2, PART_TAGS = 4 };

/* Whether the block is an allocation of its own (not the room, nor
 * the bytes after the segment that xmt_segment_new_sized made). */
static int block_apart(const xmt_segment *seg) {
  return seg->block != seg->room.bytes &&
         seg->block != (const char *)(const void *)(seg + 1);
}

static int in_block(const xmt_segment *seg, unsigned part) {
  return (seg->parts & part) != 0;
}

static unsigned part_of(const xmt_segment *seg, const struct xmt_buf *buf) {
  return buf == &seg->text ? PART_TEXT : PART_POOL;
}

void xmt_segment_free(xmt_segment *seg) {
  if (seg == NULL)
    return;
  if (!in_block(seg, PART_TEXT))
    free(seg->text.data);
  if (!in_block(seg, PART_POOL))
    free(seg->pool.data);
  if (!in_block(seg, PART_TAGS))
    free(seg->tags);
  if (block_apart(seg))
    free(seg->block);
  free(seg);
}

void xmt_segment_clear(xmt_segment *seg) {
  if (seg == NULL)
    return;
  xmt_buf_reset(&seg->text);
  xmt_buf_reset(&seg->pool);
  seg->ntags = 0;
}

static void place(xmt_segment *seg, char *b, size_t text_len, size_t pool_len,
                  size_t ntags);

/* Makes text, pool and tags of a segment that has no memory yet in one
 * allocation: room for text_len bytes of text, pool_len of tag strings
 * (their NULs counted) and ntags tags. Tags come first: malloc aligns
 * them. */
static xmt_status carve(xmt_segment *seg, size_t text_len, size_t pool_len,
                        size_t ntags) {
  if (seg->text.data != NULL || seg->pool.data != NULL || seg->tags != NULL ||
      seg->block != NULL)
    return XMT_OK;
  size_t tags_size = ntags * sizeof *seg->tags;
  if (ntags > SIZE_MAX / 2 / sizeof *seg->tags || text_len > SIZE_MAX / 4 ||
      pool_len > SIZE_MAX / 8)
    return XMT_ERR_NOMEM;
  size_t len = tags_size + text_len + 1 + pool_len + 1;
  char *b = seg->room.bytes;
  if (len <= sizeof seg->room.bytes) /* what is left is the text's */
    text_len += sizeof seg->room.bytes - len;
  else if ((b = malloc(len)) == NULL)
    return XMT_ERR_NOMEM;
  place(seg, b, text_len, pool_len, ntags);
  return XMT_OK;
}

xmt_segment *xmt_segment_new_sized(size_t text_len, size_t pool_len,
                                   size_t ntags) {
  size_t tags_size = ntags * sizeof(struct tag_rec);
  if (ntags > SIZE_MAX / 2 / sizeof(struct tag_rec) ||
      text_len > SIZE_MAX / 4 || pool_len > SIZE_MAX / 8)
    return NULL;
  size_t len = tags_size + text_len + 1 + pool_len + 1;
  xmt_segment *seg;
  if (len <= sizeof seg->room.bytes) {
    if ((seg = xmt_segment_new()) != NULL &&
        carve(seg, text_len, pool_len, ntags) != XMT_OK) {
      xmt_segment_free(seg);
      seg = NULL;
    }
    return seg;
  }
  /* The block right after the segment: one allocation, one free. */
  if ((seg = malloc(sizeof *seg + len)) == NULL)
    return NULL;
  memset(seg, 0, sizeof *seg);
  place(seg, (char *)(void *)(seg + 1), text_len, pool_len, ntags);
  return seg;
}

/* Text, pool and tags laid out in the block b. */
static void place(xmt_segment *seg, char *b, size_t text_len, size_t pool_len,
                  size_t ntags) {
  size_t tags_size = ntags * sizeof *seg->tags;
  seg->block = b;
  seg->parts = PART_TEXT | PART_POOL | (ntags > 0 ? PART_TAGS : 0);
  seg->tags = ntags > 0 ? (struct tag_rec *)(void *)b : NULL;
  seg->cap = ntags;
  seg->text = (struct xmt_buf){b + tags_size, 0, text_len + 1};
  seg->text.data[0] = '\0';
  seg->pool = (struct xmt_buf){b + tags_size + text_len + 1, 0, pool_len + 1};
  seg->pool.data[0] = '\0';
}

/* Takes part out of the block; frees the block once no part is in it. */
static void drop_block(xmt_segment *seg, unsigned part) {
  seg->parts &= ~part;
  if (seg->parts == 0) {
    if (block_apart(seg))
      free(seg->block);
    seg->block = NULL;
  }
}

/* Makes room for total bytes in buf (plus its NUL) without changing it;
 * a buffer in the block moves out of it to grow. */
static xmt_status buf_reserve(xmt_segment *seg, struct xmt_buf *buf,
                              size_t total) {
  if (buf->data != NULL && total < buf->cap)
    return XMT_OK;
  /* Here total >= len: either buf is unallocated or cap > len. */
  unsigned part = part_of(seg, buf);
  if (!in_block(seg, part) || buf->data == NULL)
    return xmt_buf_grow(buf, total - buf->len);
  struct xmt_buf own = {0};
  if (xmt_buf_grow(&own, total) != XMT_OK)
    return XMT_ERR_NOMEM;
  memcpy(own.data, buf->data, buf->len + 1);
  own.len = buf->len;
  *buf = own;
  drop_block(seg, part);
  return XMT_OK;
}

static xmt_status tags_reserve(xmt_segment *seg, size_t total) {
  if (total <= seg->cap)
    return XMT_OK;
  int moved = in_block(seg, PART_TAGS);
  struct tag_rec *tags =
      xmt_grow_array(moved ? NULL : seg->tags, &seg->cap, total, sizeof *tags);
  if (tags == NULL)
    return XMT_ERR_NOMEM;
  if (moved && seg->ntags > 0)
    memcpy(tags, seg->tags, seg->ntags * sizeof *tags);
  seg->tags = tags;
  if (moved)
    drop_block(seg, PART_TAGS);
  return XMT_OK;
}

/* Replaces dst's text with text and its tags with src's, leaving the tag
 * offsets as src had them. Everything is reserved first, so on failure dst
 * is unchanged. */
static xmt_status assign(xmt_segment *dst, const xmt_segment *src,
                         const char *text, size_t len) {
  xmt_status st;
  if ((st = carve(dst, len, src->pool.len, src->ntags)) != XMT_OK ||
      (st = buf_reserve(dst, &dst->text, len)) != XMT_OK ||
      (st = buf_reserve(dst, &dst->pool, src->pool.len)) != XMT_OK ||
      (st = tags_reserve(dst, src->ntags)) != XMT_OK)
    return st;
  xmt_segment_clear(dst);
  /* Cannot fail: the room is reserved. */
  (void)xmt_buf_append(&dst->text, text, len);
  (void)xmt_buf_append(&dst->pool, src->pool.data, src->pool.len);
  if (src->ntags > 0)
    memcpy(dst->tags, src->tags, src->ntags * sizeof *dst->tags);
  dst->ntags = src->ntags;
  return XMT_OK;
}

xmt_status xmt_segment_copy(xmt_segment *dst, const xmt_segment *src) {
  if (dst == NULL || src == NULL)
    return XMT_ERR_USAGE;
  if (dst == src)
    return XMT_OK;
  return assign(dst, src, src->text.data, src->text.len);
}

/* n bytes and more, as xmt_buf_grow rounds them, less the NUL. */
static size_t rounded(size_t n) {
  size_t cap = 64;
  while (cap < n + 1 && cap <= SIZE_MAX / 8)
    cap *= 2;
  return cap - 1;
}

/* A segment built piece by piece: the first piece makes room for a few
 * more, and a few tags, unless it fits in the segment's own room. */
static xmt_status carve_for(xmt_segment *seg, size_t text_len, size_t pool_len,
                            size_t ntags) {
  if (text_len < sizeof seg->room.bytes && pool_len < sizeof seg->room.bytes &&
      ntags * sizeof *seg->tags + text_len + pool_len + 2 <=
          sizeof seg->room.bytes)
    return carve(seg, text_len, pool_len, ntags);
  return carve(seg, rounded(text_len), rounded(pool_len), 4);
}

xmt_status xmt_segment_append_text(xmt_segment *seg, const char *text,
                                   size_t len) {
  if (seg == NULL || (text == NULL && len > 0))
    return XMT_ERR_USAGE;
  if (xmt_utf8_valid_prefix(text, len) != len)
    return XMT_ERR_ENCODING;
  return xmt_segment_append_valid_text(seg, text, len);
}

xmt_status xmt_segment_append_valid_text(xmt_segment *seg, const char *text,
                                         size_t len) {
  xmt_status st = carve_for(seg, len, 0, 0);
  if (st == XMT_OK && len > SIZE_MAX / 4)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = buf_reserve(seg, &seg->text, seg->text.len + len);
  return st == XMT_OK ? xmt_buf_append(&seg->text, text, len) : st;
}

xmt_status xmt_segment_append_whole(xmt_segment *dst, const xmt_segment *src) {
  if (dst == NULL || src == NULL || dst == src)
    return XMT_ERR_USAGE;
  size_t text_at = dst->text.len, pool_at = dst->pool.len;
  xmt_status st =
      xmt_segment_reserve(dst, src->text.len, src->pool.len, src->ntags);
  if (st != XMT_OK)
    return st;
  /* Cannot fail: the room is reserved. */
  (void)xmt_buf_append(&dst->text, src->text.data, src->text.len);
  (void)xmt_buf_append(&dst->pool, src->pool.data, src->pool.len);
  for (size_t i = 0; i < src->ntags; i++) {
    struct tag_rec rec = src->tags[i];
    rec.offset += text_at;
    rec.id += pool_at;
    rec.name += pool_at;
    rec.markup += pool_at;
    dst->tags[dst->ntags++] = rec;
  }
  return XMT_OK;
}

xmt_status xmt_segment_reserve(xmt_segment *seg, size_t text_len,
                               size_t pool_len, size_t ntags) {
  xmt_status st = carve(seg, text_len, pool_len, ntags);
  if (st == XMT_OK)
    st = buf_reserve(seg, &seg->text, seg->text.len + text_len);
  if (st == XMT_OK)
    st = buf_reserve(seg, &seg->pool, seg->pool.len + pool_len);
  if (st == XMT_OK)
    st = tags_reserve(seg, seg->ntags + ntags);
  return st;
}

static int kind_valid(enum xmt_tag_kind kind) {
  /* No default: -Wswitch flags a kind added to the enum but not here. */
  switch (kind) {
  case XMT_TAG_OPEN:
  case XMT_TAG_CLOSE:
  case XMT_TAG_PLACEHOLDER:
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    return 1;
  }
  return 0;
}

xmt_status xmt_segment_append_tag(xmt_segment *seg, enum xmt_tag_kind kind,
                                  const char *id, const char *name,
                                  const char *markup, size_t markup_len) {
  if (seg == NULL || id == NULL || name == NULL)
    return XMT_ERR_USAGE;
  return xmt_segment_put_tag(seg, seg->text.len, kind, id, strlen(id), name,
                             strlen(name), markup, markup_len);
}

xmt_status xmt_segment_put_tag(xmt_segment *seg, size_t offset,
                               enum xmt_tag_kind kind, const char *id,
                               size_t id_len, const char *name, size_t name_len,
                               const char *markup, size_t markup_len) {
  if (seg == NULL || !kind_valid(kind) || id == NULL || name == NULL ||
      (markup == NULL && markup_len > 0) || offset > seg->text.len ||
      (seg->ntags > 0 && offset < seg->tags[seg->ntags - 1].offset))
    return XMT_ERR_USAGE;
  if (id_len >= SIZE_MAX / 8 || name_len >= SIZE_MAX / 8 ||
      markup_len > SIZE_MAX / 8)
    return XMT_ERR_NOMEM;
  size_t need = id_len + 1 + name_len + 1 + markup_len + 1;
  /* Reserved room (xmt_segment_reserve) is taken as it is. */
  if (seg->ntags >= seg->cap || seg->pool.data == NULL ||
      seg->pool.len + need >= seg->pool.cap) {
    xmt_status st = carve_for(seg, 0, need, 1);
    if (st == XMT_OK)
      st = tags_reserve(seg, seg->ntags + 1);
    if (st == XMT_OK)
      st = buf_reserve(seg, &seg->pool, seg->pool.len + need);
    if (st != XMT_OK)
      return st;
  }
  struct tag_rec *rec = &seg->tags[seg->ntags++];
  char *d = seg->pool.data + seg->pool.len;
  rec->kind = kind;
  rec->offset = offset;
  rec->id = seg->pool.len;
  rec->name = rec->id + id_len + 1;
  rec->markup = rec->name + name_len + 1;
  rec->markup_len = markup_len;
  memcpy(d, id, id_len);
  d[id_len] = '\0';
  memcpy(d + id_len + 1, name, name_len);
  d[id_len + 1 + name_len] = '\0';
  if (markup_len > 0)
    memcpy(d + id_len + name_len + 2, markup, markup_len);
  d[need - 1] = '\0';
  seg->pool.len += need;
  seg->pool.data[seg->pool.len] = '\0';
  return XMT_OK;
}

xmt_status xmt_segment_append_to_tag(xmt_segment *seg, const char *text,
                                     size_t *at, const struct xmt_tag *tag) {
  xmt_status st = XMT_OK;
  if (tag->offset > *at) {
    st = xmt_segment_append_text(seg, text + *at, tag->offset - *at);
    *at = tag->offset;
  }
  if (st == XMT_OK)
    st = xmt_segment_append_tag(seg, tag->kind, tag->id, tag->name, tag->markup,
                                tag->markup_len);
  return st;
}

const char *xmt_segment_text(const xmt_segment *seg, size_t *len) {
  if (len != NULL)
    *len = seg != NULL ? seg->text.len : 0;
  if (seg == NULL || seg->text.data == NULL)
    return "";
  return seg->text.data;
}

size_t xmt_segment_tag_count(const xmt_segment *seg) {
  return seg != NULL ? seg->ntags : 0;
}

xmt_status xmt_segment_tag(const xmt_segment *seg, size_t i,
                           struct xmt_tag *tag) {
  if (seg == NULL || tag == NULL || i >= seg->ntags)
    return XMT_ERR_USAGE;
  const struct tag_rec *rec = &seg->tags[i];
  tag->kind = rec->kind;
  tag->offset = rec->offset;
  tag->id = seg->pool.data + rec->id;
  tag->name = seg->pool.data + rec->name;
  tag->markup = seg->pool.data + rec->markup;
  tag->markup_len = rec->markup_len;
  return XMT_OK;
}

xmt_status xmt_segment_retag(xmt_segment *dst, const xmt_segment *src,
                             const char *text, size_t len,
                             const size_t *offsets) {
  if (dst == NULL || src == NULL || dst == src || (text == NULL && len > 0) ||
      (offsets == NULL && src->ntags > 0))
    return XMT_ERR_USAGE;
  if (xmt_utf8_valid_prefix(text, len) != len)
    return XMT_ERR_ENCODING;
  size_t prev = 0;
  for (size_t i = 0; i < src->ntags; i++) {
    size_t off = offsets[i];
    /* text is valid UTF-8, so any non-continuation byte starts a char. */
    if (off < prev || off > len || !xmt_utf8_at_boundary(text, len, off))
      return XMT_ERR_USAGE;
    prev = off;
  }
  xmt_status st = assign(dst, src, text, len);
  if (st != XMT_OK)
    return st;
  for (size_t i = 0; i < dst->ntags; i++)
    dst->tags[i].offset = offsets[i];
  return XMT_OK;
}

void xmt_segment_pairs(const xmt_segment *seg, size_t *partner) {
  /* The partner of an OPEN left open links to the OPEN around it: the
   * stack of open pairs, in no memory of its own. */
  size_t top = SIZE_MAX;
  for (size_t i = 0; i < seg->ntags; i++) {
    partner[i] = SIZE_MAX;
    if (seg->tags[i].kind == XMT_TAG_OPEN) {
      partner[i] = top;
      top = i;
    } else if (seg->tags[i].kind == XMT_TAG_CLOSE && top != SIZE_MAX) {
      size_t open = top;
      top = partner[open];
      partner[open] = i;
      partner[i] = open;
    }
  }
  while (top != SIZE_MAX) {
    size_t around = partner[top];
    partner[top] = SIZE_MAX;
    top = around;
  }
}

/* An OPEN tag seen by xmt_segment_check(): first sorted by id to find
 * reused ids, then reused as the nesting stack. */
struct open_ref {
  const char *id;
  size_t index;
};

static int open_ref_cmp(const void *pa, const void *pb) {
  const struct open_ref *a = pa, *b = pb;
  int c = strcmp(a->id, b->id);
  if (c != 0)
    return c;
  return (a->index > b->index) - (a->index < b->index);
}

/* Index of the first OPEN whose id an earlier OPEN already used, or
 * SIZE_MAX. Sorting keeps this O(n log n) on hostile input. */
static size_t first_reused_id(struct open_ref *refs, size_t nopen) {
  size_t reused = SIZE_MAX;
  qsort(refs, nopen, sizeof *refs, open_ref_cmp);
  for (size_t k = 1; k < nopen; k++)
    if (strcmp(refs[k].id, refs[k - 1].id) == 0 && refs[k].index < reused)
      reused = refs[k].index;
  return reused;
}

/* The left-to-right scan of xmt_segment_check(); stack has room for every
 * OPEN. Returns the offending index or SIZE_MAX. */
static size_t scan_tags(const xmt_segment *seg, struct open_ref *stack,
                        size_t reused) {
  const char *pool = seg->pool.data;
  size_t depth = 0, prev = 0;
  for (size_t i = 0; i < seg->ntags; i++) {
    const struct tag_rec *rec = &seg->tags[i];
    if (rec->offset < prev || rec->offset > seg->text.len || i == reused)
      return i;
    prev = rec->offset;
    if (rec->kind == XMT_TAG_OPEN) {
      stack[depth].id = pool + rec->id;
      stack[depth++].index = i;
    } else if (rec->kind == XMT_TAG_CLOSE) {
      /* A stray close, or one that crosses the innermost open pair. */
      if (depth == 0 || strcmp(stack[depth - 1].id, pool + rec->id) != 0)
        return i;
      depth--;
    }
  }
  /* The outermost unclosed OPEN is the earliest one. */
  return depth > 0 ? stack[0].index : SIZE_MAX;
}

xmt_status xmt_segment_check(const xmt_segment *seg, size_t *bad_tag) {
  if (seg == NULL)
    return XMT_ERR_USAGE;
  struct open_ref local[CHECK_LOCAL_OPENS];
  struct open_ref *refs = local;
  size_t nopen = 0;
  for (size_t i = 0; i < seg->ntags; i++)
    if (seg->tags[i].kind == XMT_TAG_OPEN)
      nopen++;
  if (nopen > CHECK_LOCAL_OPENS) {
    refs = malloc(nopen * sizeof *refs);
    if (refs == NULL)
      return XMT_ERR_NOMEM;
  }
  nopen = 0;
  for (size_t i = 0; i < seg->ntags; i++) {
    if (seg->tags[i].kind == XMT_TAG_OPEN) {
      refs[nopen].id = seg->pool.data + seg->tags[i].id;
      refs[nopen++].index = i;
    }
  }
  size_t bad = scan_tags(seg, refs, first_reused_id(refs, nopen));
  if (refs != local)
    free(refs);
  if (bad == SIZE_MAX)
    return XMT_OK;
  if (bad_tag != NULL)
    *bad_tag = bad;
  return XMT_ERR_INLINE;
}

int xmt_segment_equal(const xmt_segment *a, const xmt_segment *b) {
  if (a == NULL || b == NULL)
    return 0;
  if (a == b)
    return 1;
  if (a == NULL || b == NULL || a->text.len != b->text.len ||
      a->ntags != b->ntags)
    return 0;
  if (a->text.len > 0 && memcmp(a->text.data, b->text.data, a->text.len) != 0)
    return 0;
  for (size_t i = 0; i < a->ntags; i++) {
    const struct tag_rec *ta = &a->tags[i], *tb = &b->tags[i];
    if (ta->kind != tb->kind || ta->offset != tb->offset ||
        ta->markup_len != tb->markup_len ||
        strcmp(a->pool.data + ta->id, b->pool.data + tb->id) != 0 ||
        strcmp(a->pool.data + ta->name, b->pool.data + tb->name) != 0 ||
        (ta->markup_len > 0 &&
         memcmp(a->pool.data + ta->markup, b->pool.data + tb->markup,
                ta->markup_len) != 0))
      return 0;
  }
  return 1;
}
