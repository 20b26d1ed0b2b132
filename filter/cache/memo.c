/* memo.c -- exact-match string table: the run's table of translations
 * (identical segments translated once), unit keys, check's ids. Keys and
 * values live in one arena; open addressing with linear probing. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>

#include "filter_private.h"

/* The table holds only hashes and entry numbers, four slots to a cache
 * line, so that a miss (most lookups of a run with few repeats) touches
 * one line; the entries are read on a hash match. */
struct xmt_memo_slot {
  uint64_t hash;
  size_t entry; /* its number + 1; 0: free */
};

struct xmt_memo_entry {
  size_t key, key_len; /* in the arena */
  size_t value, value_len;
  size_t tag;
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
  free(m->entries);
  xmt_buf_free(&m->arena);
  memset(m, 0, sizeof *m);
}

/* The slot of key: its entry's, or the free one where it would go. */
static struct xmt_memo_slot *find(const struct xmt_memo *m, uint64_t h,
                                  const char *key, size_t len) {
  if (m->cap == 0)
    return NULL;
  for (size_t i = (size_t)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    struct xmt_memo_slot *s = &m->slots[i];
    if (s->entry == 0)
      return s;
    if (s->hash != h)
      continue;
    const struct xmt_memo_entry *e = &m->entries[s->entry - 1];
    if (e->key_len == len && memcmp(m->arena.data + e->key, key, len) == 0)
      return s;
  }
}

/* Room for one more entry, the table at most half full: short probe runs
 * for the misses. */
static xmt_status grow(struct xmt_memo *m) {
  if (m->count == m->entries_cap) {
    struct xmt_memo_entry *e =
        xmt_grow_array(m->entries, &m->entries_cap, m->count + 1, sizeof *e);
    if (e == NULL)
      return XMT_ERR_NOMEM;
    m->entries = e;
  }
  if ((m->count + 1) * 2 <= m->cap)
    return XMT_OK;
  size_t cap = m->cap ? 2 * m->cap : 256;
  struct xmt_memo_slot *slots = calloc(cap, sizeof *slots);
  if (slots == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < m->cap; i++) {
    if (m->slots[i].entry == 0)
      continue;
    size_t j = (size_t)m->slots[i].hash & (cap - 1);
    while (slots[j].entry != 0)
      j = (j + 1) & (cap - 1);
    slots[j] = m->slots[i];
  }
  free(m->slots);
  m->slots = slots;
  m->cap = cap;
  return XMT_OK;
}

void xmt_memo_prefetch(const struct xmt_memo *m, uint64_t hash) {
  if (m->cap > 0)
    __builtin_prefetch(&m->slots[(size_t)hash & (m->cap - 1)]);
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
  if (s == NULL || s->entry == 0)
    return 0;
  const struct xmt_memo_entry *e = &m->entries[s->entry - 1];
  if (value != NULL)
    *value = m->arena.data + e->value;
  if (value_len != NULL)
    *value_len = e->value_len;
  if (tag != NULL)
    *tag = e->tag;
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
  if (grow(m) != XMT_OK)
    return XMT_ERR_NOMEM;
  struct xmt_memo_slot *s = find(m, hash, key, len);
  if (s->entry != 0)
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
  struct xmt_memo_entry *e = &m->entries[m->count];
  e->key = key_off;
  e->key_len = len;
  e->value = same ? key_off : key_off + len;
  e->value_len = value_len;
  e->tag = tag;
  s->hash = hash;
  s->entry = ++m->count;
  return XMT_OK;
}

size_t xmt_memo_bytes(const struct xmt_memo *m) {
  return m->arena.len + m->cap * sizeof *m->slots +
         m->entries_cap * sizeof *m->entries;
}
