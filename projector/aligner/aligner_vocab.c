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
  v->nslots = 2048;
  v->start = malloc(((size_t)v->cap + 1) * sizeof *v->start);
  v->hashes = malloc((size_t)v->cap * sizeof *v->hashes);
  v->slots = calloc(v->nslots, sizeof *v->slots);
  if (v->start == NULL || v->hashes == NULL || v->slots == NULL) {
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
  free(v->slots);
  memset(v, 0, sizeof *v);
}

static int same(const struct xmt_vocab *v, uint32_t id, const char *w,
                size_t len) {
  size_t n;
  const char *x = xmt_vocab_word(v, id, &n);
  return n == len && memcmp(x, w, len) == 0;
}

uint32_t xmt_vocab_find(const struct xmt_vocab *v, const char *w, size_t len) {
  uint32_t h = hash_bytes(w, len), mask = v->nslots - 1;
  for (uint32_t k = h & mask;; k = (k + 1) & mask) {
    uint32_t id = v->slots[k];
    if (id == 0)
      return XMT_UNKNOWN_WORD;
    if (v->hashes[id] == h && same(v, id, w, len))
      return id;
  }
}

static xmt_status rehash(struct xmt_vocab *v) {
  if (v->nslots > UINT32_MAX / 2)
    return XMT_ERR_NOMEM;
  uint32_t nslots = v->nslots * 2, mask = nslots - 1;
  uint32_t *slots = calloc(nslots, sizeof *slots);
  if (slots == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t id = 1; id < v->count; id++) {
    uint32_t k = v->hashes[id] & mask;
    while (slots[k] != 0)
      k = (k + 1) & mask;
    slots[k] = id;
  }
  free(v->slots);
  v->slots = slots;
  v->nslots = nslots;
  return XMT_OK;
}

xmt_status xmt_vocab_intern(struct xmt_vocab *v, const char *w, size_t len,
                            uint32_t *id) {
  uint32_t h = hash_bytes(w, len), mask = v->nslots - 1, k;
  for (k = h & mask; v->slots[k] != 0; k = (k + 1) & mask) {
    uint32_t x = v->slots[k];
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
  v->slots[k] = x;
  *id = x;
  if ((uint64_t)v->count * 2 > v->nslots)
    return rehash(v);
  return XMT_OK;
}
