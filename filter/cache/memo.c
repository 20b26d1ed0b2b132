/* memo.c -- exact-match string table: the run's table of translations
 * (identical segments translated once), unit keys, check's ids. Keys and
 * values live in one arena; the entries are found through base's hash
 * table (xmt_slots). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>

#include "filter_private.h"

/* The table holds only hash bits and entry numbers, eight slots to a
 * cache line, so that a miss (most lookups of a run with few repeats)
 * touches one line; the entries are read on a match of the hash bits. */
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
  xmt_slots_clear(&m->table);
  m->count = 0;
  xmt_buf_reset(&m->arena);
}

void xmt_memo_free(struct xmt_memo *m) {
  xmt_slots_free(&m->table);
  free(m->entries);
  xmt_buf_free(&m->arena);
  memset(m, 0, sizeof *m);
}

/* A key looked up. */
struct probe {
  const struct xmt_memo *m;
  const char *key;
  size_t len;
};

static int same_key(const void *user, uint64_t entry) {
  const struct probe *p = user;
  const struct xmt_memo_entry *e = &p->m->entries[entry];
  return e->key_len == p->len &&
         memcmp(p->m->arena.data + e->key, p->key, p->len) == 0;
}

/* The slot of key: its entry's, or the free one where it would go; NULL
 * before the first put. */
static uint64_t *find(const struct xmt_memo *m, uint64_t h, const char *key,
                      size_t len) {
  struct probe p = {m, key, len};
  return xmt_slots_find(&m->table, h, same_key, &p);
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
  if ((m->count + 1) * 2 <= m->table.n)
    return XMT_OK;
  if (m->count >= XMT_SLOT_VALUE_MAX ||
      xmt_slots_resize(&m->table, m->table.n ? 2 * m->table.n : 256) != XMT_OK)
    return XMT_ERR_NOMEM;
  /* The hashes again, from the keys: a hash kept with each entry took
   * more memory than the table saves. */
  for (size_t i = 0; i < m->count; i++) {
    const struct xmt_memo_entry *e = &m->entries[i];
    xmt_slots_put(&m->table, xmt_memo_hash(m->arena.data + e->key, e->key_len),
                  i);
  }
  return XMT_OK;
}

void xmt_memo_prefetch(const struct xmt_memo *m, uint64_t hash) {
  xmt_slots_prefetch(&m->table, hash);
}

int xmt_memo_get(const struct xmt_memo *m, const char *key, size_t len,
                 const char **value, size_t *value_len, size_t *tag) {
  return xmt_memo_get_hashed(m, xmt_memo_hash(key, len), key, len, value,
                             value_len, tag);
}

int xmt_memo_get_hashed(const struct xmt_memo *m, uint64_t hash,
                        const char *key, size_t len, const char **value,
                        size_t *value_len, size_t *tag) {
  const uint64_t *s = find(m, hash, key, len);
  if (s == NULL || *s == 0)
    return 0;
  const struct xmt_memo_entry *e = &m->entries[xmt_slots_value(*s)];
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
  uint64_t *s = find(m, hash, key, len);
  if (*s != 0)
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
  xmt_slots_set(s, hash, m->count++);
  return XMT_OK;
}

size_t xmt_memo_bytes(const struct xmt_memo *m) {
  return m->arena.len + m->table.n * sizeof *m->table.slot +
         m->entries_cap * sizeof *m->entries;
}
