/* unit_keys.c -- a name for each unit that no other unit of the document
 * has. XLIFF ids are unique only within a <file>, and Okapi restarts them
 * at "1" in each; broken files repeat them within one. Segment ids
 * ("KEY#MID") are built on these keys, so that extract and merge, which
 * read the same document in the same order, agree on every one. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

/* Only the hashes of the keys are kept: a run's table of keys grows with
 * its units, and strings took 80 bytes a unit (a 200 MB document of 500k
 * units: 42 of its 100 MB peak). */

void xmt_unit_keys_free(struct xmt_unit_keys *k) {
  free(k->taken);
  xmt_buf_free(&k->key);
  memset(k, 0, sizeof *k);
}

static uint64_t hash_of(const struct xmt_unit_keys *k) {
  uint64_t h = xmt_memo_hash(k->key.data, k->key.len);
  return h != 0 ? h : 1; /* 0 marks a free slot */
}

/* The slot of hash h: its own, or the free one where it would go. */
static uint64_t *slot(const struct xmt_unit_keys *k, uint64_t h) {
  size_t i = (size_t)h & (k->cap - 1);
  while (k->taken[i] != 0 && k->taken[i] != h)
    i = (i + 1) & (k->cap - 1);
  return &k->taken[i];
}

static int taken(const struct xmt_unit_keys *k) {
  return k->cap > 0 && *slot(k, hash_of(k)) != 0;
}

/* Room for one more, the table at most three quarters full: random
 * 64-bit hashes probe a few slots of one cache line even then, and a
 * table half full took a third of a long run's memory. */
static xmt_status grow(struct xmt_unit_keys *k) {
  if (4 * (k->count + 1) <= 3 * k->cap)
    return XMT_OK;
  size_t cap = k->cap > 0 ? 2 * k->cap : 64;
  if (cap > SIZE_MAX / sizeof *k->taken)
    return XMT_ERR_NOMEM;
  uint64_t *old = k->taken;
  size_t old_cap = k->cap;
  if ((k->taken = calloc(cap, sizeof *k->taken)) == NULL) {
    k->taken = old;
    return XMT_ERR_NOMEM;
  }
  k->cap = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i] != 0)
      *slot(k, old[i]) = old[i];
  free(old);
  return XMT_OK;
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

/* Every spelling tried is looked up in the table of keys given, so an id
 * that itself looks like "1@2" cannot make two keys equal. */
xmt_status xmt_unit_keys_take(struct xmt_unit_keys *k, const char *id,
                              unsigned long file, const char **key) {
  xmt_status st = spell(k, id, file, 0);
  for (unsigned long n = 1; st == XMT_OK && taken(k); n++)
    st = spell(k, id, file, n);
  if (st == XMT_OK)
    st = grow(k);
  if (st == XMT_OK) {
    *slot(k, hash_of(k)) = hash_of(k);
    k->count++;
  }
  *key = st == XMT_OK ? k->key.data : NULL;
  return st;
}
