/* unit_keys.c -- a name for each unit that no other unit of the document
 * has. XLIFF ids are unique only within a <file>, and Okapi restarts them
 * at "1" in each; broken files repeat them within one. Segment ids
 * ("KEY#MID") are built on these keys, so that extract and merge, which
 * read the same document in the same order, agree on every one.
 *
 * Exact by construction: every key given is kept, byte for byte, in one
 * arena, and a key counts as taken only when an earlier key is equal to
 * it, compared as strings. The hash only chooses the slot and skips most
 * unequal keys without reading them; two ids that share a hash (64-bit
 * hashes collide, and can be made to) are two keys, each the id itself.
 * A table of hashes alone cannot be exact: a second id with a hash seen
 * once cannot be told from the first without the first, so the ids must
 * be kept; a longer hash would only make the mistake rarer.
 *
 * Memory: the arena (an id's bytes and a NUL; a unit took 80 bytes when
 * each key was a string of its own) and one 64-bit slot a key in base's
 * hash table (xmt_slots), at most three quarters full. A slot holds the
 * key's place in the arena and 24 bits of its hash, so that a lookup reads
 * a key only on a match of those bits; the table is rebuilt from the
 * arena when it grows, the old one freed first. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

void xmt_unit_keys_free(struct xmt_unit_keys *k) {
  xmt_slots_free(&k->table);
  xmt_buf_free(&k->arena);
  xmt_buf_free(&k->key);
  memset(k, 0, sizeof *k);
}

/* A key looked up (NUL-terminated). */
struct probe {
  const struct xmt_unit_keys *k;
  const char *key;
};

static int same_key(const void *user, uint64_t off) {
  const struct probe *p = user;
  return strcmp(p->k->arena.data + off, p->key) == 0;
}

/* Puts the key at off in the arena (len bytes), known to be absent. */
static void put(struct xmt_unit_keys *k, size_t off, size_t len) {
  const char *key = k->arena.data + off;
  xmt_slots_put(&k->table, xmt_memo_hash(key, len), off);
}

/* Room for one more, the table at most three quarters full: random
 * hashes probe a few slots of one cache line even then, and a table half
 * full took a third of a long run's memory. The keys are in the arena:
 * the old table goes before the new one comes, and a table that could not
 * be made is made again at the next call. */
static xmt_status grow(struct xmt_unit_keys *k) {
  size_t n = k->table.n;
  if (n > 0 && 4 * (k->count + 1) <= 3 * n)
    return XMT_OK;
  n = n > 0 ? 2 * n : 64;
  while (4 * (k->count + 1) > 3 * n)
    n *= 2; /* after a table that could not be made */
  if (n > SIZE_MAX / sizeof *k->table.slot)
    return XMT_ERR_NOMEM;
  xmt_slots_free(&k->table);
  if (xmt_slots_resize(&k->table, n) != XMT_OK)
    return XMT_ERR_NOMEM;
  for (size_t off = 0; off < k->arena.len;) {
    size_t len = strlen(k->arena.data + off);
    put(k, off, len);
    off += len + 1;
  }
  return XMT_OK;
}

static int taken(const struct xmt_unit_keys *k) {
  struct probe p = {k, k->key.data};
  uint64_t h = xmt_memo_hash(k->key.data, k->key.len);
  return *xmt_slots_find(&k->table, h, same_key, &p) != 0;
}

/* id, then "@FILE" (n 1), then "@FILE.N" (n from 2). */
static xmt_status spell(struct xmt_unit_keys *k, const char *id,
                        unsigned long file, unsigned long n) {
  xmt_buf_reset(&k->key);
  xmt_status st = xmt_buf_append_str(&k->key, id);
  if (st != XMT_OK || n == 0)
    return st;
  char tail[48];
  if (n > 1)
    snprintf(tail, sizeof tail, "@%lu.%lu", file, n);
  else
    snprintf(tail, sizeof tail, "@%lu", file);
  return xmt_buf_append_str(&k->key, tail);
}

/* Every spelling tried is looked up in the keys given, so an id that
 * itself looks like "1@2" cannot make two keys equal. */
xmt_status xmt_unit_keys_take(struct xmt_unit_keys *k, const char *id,
                              unsigned long file, const char **key) {
  *key = NULL;
  xmt_status st = grow(k);
  if (st == XMT_OK)
    st = spell(k, id, file, 0);
  for (unsigned long n = 1; st == XMT_OK && taken(k); n++)
    st = spell(k, id, file, n);
  size_t off = k->arena.len;
  if (st == XMT_OK && off >= XMT_SLOT_VALUE_MAX - k->key.len)
    st = XMT_ERR_NOMEM; /* a terabyte of keys */
  if (st == XMT_OK)
    st = xmt_buf_append(&k->arena, k->key.data, k->key.len + 1);
  if (st != XMT_OK)
    return st;
  put(k, off, k->key.len);
  k->count++;
  *key = k->key.data;
  return XMT_OK;
}
