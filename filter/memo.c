/* memo.c -- exact-match string table for the pipeline: finds the segments
 * of a run that are identical, so that each is translated once. Keys and
 * values live in one arena; open addressing with linear probing. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>

#include "filter_private.h"

struct xmt_memo_slot {
  uint64_t hash;
  size_t key, key_len; /* in the arena */
  size_t value, value_len;
  size_t tag;
  int used;
};

/* XXH3: with fast engines (identity, a cache) the table is looked up
 * at the speed of parsing, and a byte-at-a-time hash was a tenth of the
 * run. */
uint64_t xmt_memo_hash(const char *key, size_t len) {
  return XXH3_64bits(key, len);
}

void xmt_memo_clear(struct xmt_memo *m) {
  if (m->slots != NULL)
    memset(m->slots, 0, m->cap * sizeof *m->slots);
  m->count = 0;
  xmt_buf_reset(&m->arena);
}

void xmt_memo_free(struct xmt_memo *m) {
  free(m->slots);
  xmt_buf_free(&m->arena);
  memset(m, 0, sizeof *m);
}

static struct xmt_memo_slot *find(const struct xmt_memo *m, uint64_t h,
                                  const char *key, size_t len) {
  if (m->cap == 0)
    return NULL;
  for (size_t i = (size_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    struct xmt_memo_slot *s = &m->slots[i];
    if (!s->used)
      return s;
    if (s->hash == h && s->key_len == len &&
        memcmp(m->arena.data + s->key, key, len) == 0)
      return s;
  }
}

static xmt_status grow(struct xmt_memo *m) {
  size_t cap = m->cap ? 2 * m->cap : 256;
  struct xmt_memo_slot *slots = calloc(cap, sizeof *slots);
  if (slots == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->slots[i].used)
      continue;
    size_t j = (size_t)m->slots[i].hash & (cap - 1);
    while (slots[j].used)
      j = (j + 1) & (cap - 1);
    slots[j] = m->slots[i];
  }
  free(m->slots);
  m->slots = slots;
  m->cap = cap;
  return XMT_OK;
}

int xmt_memo_get(const struct xmt_memo *m, const char *key, size_t len,
                 const char **value, size_t *value_len, size_t *tag) {
  return xmt_memo_get_hashed(m, xmt_memo_hash(key, len), key, len, value,
                             value_len, tag);
}

int xmt_memo_get_hashed(const struct xmt_memo *m, uint64_t hash,
                        const char *key, size_t len, const char **value,
                        size_t *value_len, size_t *tag) {
  struct xmt_memo_slot *s = find(m, hash, key, len);
  if (s == NULL || !s->used)
    return 0;
  if (value != NULL)
    *value = m->arena.data + s->value;
  if (value_len != NULL)
    *value_len = s->value_len;
  if (tag != NULL)
    *tag = s->tag;
  return 1;
}

xmt_status xmt_memo_put(struct xmt_memo *m, const char *key, size_t len,
                        const char *value, size_t value_len, size_t tag) {
  return xmt_memo_put_hashed(m, xmt_memo_hash(key, len), key, len, value,
                             value_len, tag);
}

xmt_status xmt_memo_put_hashed(struct xmt_memo *m, uint64_t hash,
                               const char *key, size_t len, const char *value,
                               size_t value_len, size_t tag) {
  if ((m->count + 1) * 4 > m->cap * 3 && grow(m) != XMT_OK)
    return XMT_ERR_NOMEM;
  struct xmt_memo_slot *s = find(m, hash, key, len);
  if (s->used)
    return XMT_OK; /* the first entry stays */
  size_t key_off = m->arena.len;
  /* A value equal to its key (numbers, names, an identity run) is the
   * key's bytes. */
  int same =
      value_len == len && (value_len == 0 || memcmp(value, key, len) == 0);
  if (xmt_buf_append(&m->arena, key, len) != XMT_OK ||
      (!same && xmt_buf_append(&m->arena, value, value_len) != XMT_OK) ||
      xmt_buf_append_byte(&m->arena, '\0') != XMT_OK) {
    m->arena.len = key_off;
    return XMT_ERR_NOMEM;
  }
  s->hash = hash;
  s->key = key_off;
  s->key_len = len;
  s->value = same ? key_off : key_off + len;
  s->value_len = value_len;
  s->tag = tag;
  s->used = 1;
  m->count++;
  return XMT_OK;
}

size_t xmt_memo_bytes(const struct xmt_memo *m) {
  return m->arena.len + m->cap * sizeof *m->slots;
}
