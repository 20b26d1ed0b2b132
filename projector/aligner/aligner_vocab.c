/* aligner_vocab.c -- the aligner's vocabularies: word bytes <-> integer
 * ids, through an open-addressing hash table with linear probing. */
#include "config.h"

#include <stdlib.h>

#include "aligner_private.h"

/* FNV-1a, folded to 32 bits. */
static uint32_t hash_bytes(const char *w, size_t len) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)w[i];
    h *= 0x100000001b3u;
  }
  return (uint32_t)(h ^ (h >> 32));
}

xmt_status xmt_vocab_init(struct xmt_vocab *v) {
  memset(v, 0, sizeof *v);
  v->cap = 1024;
  v->start = malloc(((size_t)v->cap + 1) * sizeof *v->start);
  v->hashes = malloc((size_t)v->cap * sizeof *v->hashes);
  if (v->start == NULL || v->hashes == NULL ||
      xmt_slots_rebuild(&v->table, 2048, 0, NULL, NULL) != XMT_OK) {
    xmt_vocab_free(v);
    return XMT_ERR_NOMEM;
  }
  v->start[0] = v->start[1] = 0; /* NULL: the empty word */
  v->hashes[0] = 0;
  v->count = 1;
  return XMT_OK;
}

void xmt_vocab_free(struct xmt_vocab *v) {
  xmt_buf_free(&v->bytes);
  free(v->start);
  free(v->hashes);
  xmt_slots_free(&v->table);
  memset(v, 0, sizeof *v);
}

static int same(const struct xmt_vocab *v, uint32_t id, const char *w,
                size_t len) {
  size_t n;
  const char *x = xmt_vocab_word(v, id, &n);
  return n == len && memcmp(x, w, len) == 0;
}

uint32_t xmt_vocab_find(const struct xmt_vocab *v, const char *w, size_t len) {
  uint32_t h = hash_bytes(w, len);
  size_t mask = v->table.n - 1;
  for (size_t k = h & mask;; k = (k + 1) & mask) {
    uint32_t id = v->table.slot[k];
    if (id == 0)
      return XMT_UNKNOWN_WORD;
    if (v->hashes[id] == h && same(v, id, w, len))
      return id;
  }
}

static uint64_t hash_of_id(const void *user, uint32_t id) {
  return ((const struct xmt_vocab *)user)->hashes[id];
}

xmt_status xmt_vocab_intern(struct xmt_vocab *v, const char *w, size_t len,
                            uint32_t *id) {
  uint32_t h = hash_bytes(w, len);
  size_t mask = v->table.n - 1, k;
  for (k = h & mask; v->table.slot[k] != 0; k = (k + 1) & mask) {
    uint32_t x = v->table.slot[k];
    if (v->hashes[x] == h && same(v, x, w, len)) {
      *id = x;
      return XMT_OK;
    }
  }
  if (v->count >= UINT32_MAX - 1)
    return XMT_ERR_NOMEM;
  if (v->count == v->cap) {
    /* Ids are 32-bit: the last doubling stops short of UINT32_MAX. start
     * holds one offset more than there are words. */
    uint32_t cap = v->cap > UINT32_MAX / 2 ? UINT32_MAX - 1 : v->cap * 2;
    size_t have = (size_t)v->cap + 1;
    uint64_t *start =
        xmt_grow_array(v->start, &have, (size_t)cap + 1, sizeof *start);
    if (start == NULL)
      return XMT_ERR_NOMEM;
    v->start = start;
    have = v->cap;
    uint32_t *hashes =
        xmt_grow_array(v->hashes, &have, (size_t)cap, sizeof *hashes);
    if (hashes == NULL)
      return XMT_ERR_NOMEM;
    v->hashes = hashes;
    v->cap = cap;
  }
  xmt_status st = xmt_buf_append(&v->bytes, w, len);
  if (st != XMT_OK)
    return st;
  uint32_t x = v->count++;
  v->start[x + 1] = v->bytes.len;
  v->hashes[x] = h;
  v->table.slot[k] = x;
  *id = x;
  if ((uint64_t)v->count * 2 > v->table.n)
    return xmt_slots_rebuild(&v->table, v->table.n * 2, v->count - 1,
                             hash_of_id, v);
  return XMT_OK;
}
