/* aligner_vocab.c -- the aligner's vocabularies: word bytes <-> integer
 * ids, through base's open-addressing hash table (xmt_slots). */
#include "config.h"

#include <stdlib.h>

#include "aligner_private.h"

/* FNV-1a, folded to 32 bits. */
static uint32_t hash_bytes(const char *w, size_t len) {
  uint64_t h = xmt_fnv1a(XMT_FNV1A_BASIS, w, len);
  return (uint32_t)(h ^ (h >> 32));
}

/* The table's 64-bit hash of a word's 32: the same low bits (the slot),
 * and high bits that depend on all 32 (the bits each slot keeps). */
static uint64_t spread(uint32_t h) {
  return (uint64_t)h * UINT64_C(0x9E3779B97F4A7C15);
}

/* The table of ids grown to n slots; ids 1.. (NULL is never looked up). */
static xmt_status resize(struct xmt_vocab *v, size_t n) {
  xmt_status st = xmt_slots_resize(&v->table, n);
  for (uint32_t id = 1; st == XMT_OK && id < v->count; id++)
    xmt_slots_put(&v->table, spread(v->hashes[id]), id);
  return st;
}

xmt_status xmt_vocab_init(struct xmt_vocab *v) {
  memset(v, 0, sizeof *v);
  v->cap = 1024;
  v->start = malloc(((size_t)v->cap + 1) * sizeof *v->start);
  v->hashes = malloc((size_t)v->cap * sizeof *v->hashes);
  if (v->start == NULL || v->hashes == NULL ||
      xmt_slots_resize(&v->table, 2048) != XMT_OK) {
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

/* A word looked up. */
struct probe {
  const struct xmt_vocab *v;
  const char *w;
  size_t len;
  uint32_t h;
};

static int same_word(const void *user, uint64_t id) {
  const struct probe *p = user;
  return p->v->hashes[id] == p->h && same(p->v, (uint32_t)id, p->w, p->len);
}

uint32_t xmt_vocab_find(const struct xmt_vocab *v, const char *w, size_t len) {
  struct probe p = {v, w, len, hash_bytes(w, len)};
  const uint64_t *slot = xmt_slots_find(&v->table, spread(p.h), same_word, &p);
  return *slot != 0 ? (uint32_t)xmt_slots_value(*slot) : XMT_UNKNOWN_WORD;
}

xmt_status xmt_vocab_intern(struct xmt_vocab *v, const char *w, size_t len,
                            uint32_t *id) {
  uint32_t h = hash_bytes(w, len);
  struct probe p = {v, w, len, h};
  uint64_t *slot = xmt_slots_find(&v->table, spread(h), same_word, &p);
  if (*slot != 0) {
    *id = (uint32_t)xmt_slots_value(*slot);
    return XMT_OK;
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
  xmt_slots_set(slot, spread(h), x);
  *id = x;
  if ((uint64_t)v->count * 2 > v->table.n)
    return resize(v, v->table.n * 2);
  return XMT_OK;
}
