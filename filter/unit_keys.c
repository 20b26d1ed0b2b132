/* unit_keys.c -- a name for each unit that no other unit of the document
 * has. XLIFF ids are unique only within a <file>, and Okapi restarts them
 * at "1" in each; broken files repeat them within one. Segment ids
 * ("KEY#MID") are built on these keys, so that extract and merge, which
 * read the same document in the same order, agree on every one.
 *
 * Exact by construction: every key given is kept, byte for byte, and a
 * key counts as taken only when an earlier key is equal to it, compared
 * as strings. The hash only chooses the slot and skips most unequal keys
 * without reading them; two ids that share a hash (64-bit hashes collide,
 * and can be made to) are two keys, each the id itself. A table of hashes
 * alone cannot be exact: a second id with a hash seen once cannot be told
 * from the first without the first, so the ids must be kept; a longer
 * hash would only make the mistake rarer.
 *
 * Memory, the one part of a long run that grows with the document (2.6
 * million units in 1 GB). Ids share long prefixes ("tu123456" follows
 * "tu123455"), so the keys are front-coded in blocks of BLOCK: each the
 * length of what it shares with the key before it in its block and the
 * rest, the first of a block whole, so that any key is read back from
 * its block's start alone. Blocks live in chunks that never move (no
 * buffer doubling, no copy as it grows). The table holds 32-bit slots,
 * at most three quarters full: a key's number plus one in the low bits,
 * as many as the table's size needs, and the hash's high bits in the
 * rest, so that a lookup reads a key back only on a match of those bits
 * (about one probe in 2^(32 - log2 size)). About 4 bytes of keys and 3
 * to 6 of table a unit, against 9 and 11 to 22 when each key was kept
 * whole with a 64-bit slot.
 *
 * check keeps the ids of a <file>'s groups and units in the same way,
 * each with a value (its kind and place) after it in its block: a
 * <file> of 800,000 units took 130 MB in a hash table of whole keys. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

#define BLOCK 16             /* keys front-coded together */
#define CHUNK_MIN 4096       /* the first chunk's bytes */
#define CHUNK_MAX (1u << 20) /* the most a chunk takes, but for long ids */
#define SIZE_BYTES 10        /* the most a size_t takes as a varint */

void xmt_unit_keys_free(struct xmt_unit_keys *k) {
  for (size_t i = 0; i < k->nchunks; i++)
    free(k->chunk[i]);
  free(k->chunk);
  free(k->block);
  free(k->slot);
  xmt_buf_free(&k->key);
  xmt_buf_free(&k->last);
  xmt_buf_free(&k->got);
  memset(k, 0, sizeof *k);
}

size_t xmt_unit_keys_bytes(const struct xmt_unit_keys *k) {
  return k->nslots * sizeof *k->slot + k->blocks_cap * sizeof *k->block +
         k->chunks_cap * sizeof *k->chunk + k->chunk_bytes + k->key.cap +
         k->last.cap + k->got.cap;
}

/* --- Blocks ---------------------------------------------------------- */

static size_t put_size(unsigned char *p, size_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7)
    p[n++] = (unsigned char)(v | 0x80);
  p[n++] = (unsigned char)v;
  return n;
}

static const unsigned char *get_size(const unsigned char *p, size_t *v) {
  size_t r = 0;
  for (unsigned shift = 0;; shift += 7) {
    unsigned char c = *p++;
    r |= (size_t)(c & 0x7f) << shift;
    if ((c & 0x80) == 0)
      break;
  }
  *v = r;
  return p;
}

/* Reads the key coded at p into k->got, which holds the key before it in
 * its block (k->got has room for every key stored); the next one's
 * place. */
static const unsigned char *next_key(struct xmt_unit_keys *k,
                                     const unsigned char *p) {
  size_t keep, len;
  p = get_size(get_size(p, &keep), &len);
  memcpy(k->got.data + keep, p, len);
  k->got.len = keep + len;
  k->got.data[k->got.len] = '\0';
  p += len;
  if (!k->valued)
    return p;
  p = get_size(p, &k->value_len);
  k->value = (const char *)p;
  return p + k->value_len;
}

/* Key number i read back into k->got. */
static void read_key(struct xmt_unit_keys *k, size_t i) {
  const unsigned char *p = (const unsigned char *)k->block[i / BLOCK];
  k->got.len = 0;
  for (size_t j = 0; j <= i % BLOCK; j++)
    p = next_key(k, p);
}

/* A chunk for need more bytes, the block being filled (its first r keys)
 * moved into it: a block is read from its start, so it is never split. */
static xmt_status new_chunk(struct xmt_unit_keys *k, size_t r, size_t need) {
  char *start = r > 0 ? k->block[k->count / BLOCK] : NULL;
  size_t carry =
      r > 0 ? (size_t)(k->chunk[k->nchunks - 1] + k->used - start) : 0;
  size_t size = k->room == 0 ? CHUNK_MIN : 2 * k->room;
  if (size > CHUNK_MAX)
    size = CHUNK_MAX;
  if (carry + need < need)
    return XMT_ERR_NOMEM;
  if (size < carry + need)
    size = carry + need; /* a long id */
  char **slot =
      xmt_grow_one(&k->chunk, k->nchunks, &k->chunks_cap, sizeof *k->chunk);
  char *c = slot != NULL ? malloc(size) : NULL;
  if (c == NULL)
    return XMT_ERR_NOMEM;
  if (carry > 0) {
    memcpy(c, start, carry);
    k->block[k->count / BLOCK] = c;
  }
  *slot = c;
  k->nchunks++;
  k->chunk_bytes += size;
  k->used = carry;
  k->room = size;
  return XMT_OK;
}

/* Stores k->key (with value, when valued) as key number k->count: all
 * the memory it takes is had first, so that a failure leaves the keys as
 * they were. */
static xmt_status store(struct xmt_unit_keys *k, const char *value,
                        size_t value_len) {
  const char *key = k->key.data;
  size_t len = k->key.len, r = k->count % BLOCK, keep = 0;
  while (r > 0 && keep < len && keep < k->last.len &&
         key[keep] == k->last.data[keep])
    keep++;
  unsigned char head[2 * SIZE_BYTES], tail[SIZE_BYTES];
  size_t nhead = put_size(head, keep);
  nhead += put_size(head + nhead, len - keep);
  size_t ntail = k->valued ? put_size(tail, value_len) : 0;
  size_t need = nhead + len - keep + ntail + (k->valued ? value_len : 0);
  if (need < value_len)
    return XMT_ERR_NOMEM;
  xmt_buf_reset(&k->last);
  if (xmt_buf_grow(&k->got, len) != XMT_OK ||
      xmt_buf_grow(&k->last, len) != XMT_OK ||
      (r == 0 && xmt_grow_one(&k->block, k->count / BLOCK, &k->blocks_cap,
                              sizeof *k->block) == NULL) ||
      (k->room - k->used < need && new_chunk(k, r, need) != XMT_OK))
    return XMT_ERR_NOMEM; /* k->last empty: the next key is coded whole */
  char *at = k->chunk[k->nchunks - 1] + k->used;
  if (r == 0)
    k->block[k->count / BLOCK] = at;
  memcpy(at, head, nhead);
  memcpy(at + nhead, key + keep, len - keep);
  if (k->valued) {
    memcpy(at + nhead + len - keep, tail, ntail);
    if (value_len > 0)
      memcpy(at + nhead + len - keep + ntail, value, value_len);
  }
  k->used += need;
  memcpy(k->last.data, key, len + 1);
  k->last.len = len;
  return XMT_OK;
}

/* --- The table ------------------------------------------------------- */

/* The bits of a slot that hold a key's number plus one (0: empty). */
static uint32_t number_bits(const struct xmt_unit_keys *k) {
  return (uint32_t)(k->nslots - 1);
}

/* Puts key number i, known to be absent, with hash h. */
static void put(struct xmt_unit_keys *k, uint64_t h, size_t i) {
  size_t mask = k->nslots - 1, at = (size_t)h & mask;
  uint32_t bits = number_bits(k);
  while (k->slot[at] != 0)
    at = (at + 1) & mask;
  k->slot[at] = ((uint32_t)(h >> 32) & ~bits) | (uint32_t)(i + 1);
}

/* Whether k->key (with hash h) is a key given. */
static int taken(struct xmt_unit_keys *k, uint64_t h) {
  size_t mask = k->nslots - 1;
  uint32_t bits = number_bits(k), tag = (uint32_t)(h >> 32) & ~bits;
  for (size_t at = (size_t)h & mask;; at = (at + 1) & mask) {
    uint32_t w = k->slot[at];
    if (w == 0)
      return 0;
    if ((w & ~bits) != tag)
      continue;
    read_key(k, (w & bits) - 1);
    if (k->got.len == k->key.len &&
        memcmp(k->got.data, k->key.data, k->key.len) == 0)
      return 1;
  }
}

/* Room for one more, the table at most three quarters full: random
 * hashes probe a few slots of one cache line even then, and a table half
 * full took a third of a long run's memory. A key's number plus one must
 * fit in the bits below the hash's (fewer than the slots), and the slots
 * are at most 2^32. The keys are in their blocks: the old table goes
 * before the new one comes, and a table that could not be made is made
 * again at the next call. */
static xmt_status grow(struct xmt_unit_keys *k) {
  size_t n = k->nslots;
  if (n > 0 && 4 * (k->count + 1) <= 3 * n)
    return XMT_OK;
  n = n > 0 ? 2 * n : 64;
  while (4 * (k->count + 1) > 3 * n)
    n *= 2; /* after a table that could not be made */
  if ((uint64_t)n > UINT64_C(1) << 32 || n > SIZE_MAX / sizeof *k->slot)
    return XMT_ERR_NOMEM;
  free(k->slot);
  k->nslots = 0;
  if ((k->slot = calloc(n, sizeof *k->slot)) == NULL)
    return XMT_ERR_NOMEM;
  k->nslots = n;
  for (size_t i = 0; i < k->count; i += BLOCK) {
    const unsigned char *p = (const unsigned char *)k->block[i / BLOCK];
    k->got.len = 0;
    for (size_t j = i; j < i + BLOCK && j < k->count; j++) {
      p = next_key(k, p);
      put(k, xmt_memo_hash(k->got.data, k->got.len), j);
    }
  }
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

/* Every spelling tried is looked up in the keys given, so an id that
 * itself looks like "1@2" cannot make two keys equal. */
xmt_status xmt_unit_keys_take(struct xmt_unit_keys *k, const char *id,
                              unsigned long file, const char **key) {
  *key = NULL;
  xmt_status st = grow(k);
  if (st == XMT_OK)
    st = spell(k, id, file, 0);
  uint64_t h = st == XMT_OK ? xmt_memo_hash(k->key.data, k->key.len) : 0;
  for (unsigned long n = 1; st == XMT_OK && taken(k, h); n++)
    if ((st = spell(k, id, file, n)) == XMT_OK)
      h = xmt_memo_hash(k->key.data, k->key.len);
  if (st == XMT_OK)
    st = store(k, NULL, 0);
  if (st != XMT_OK)
    return st;
  put(k, h, k->count);
  k->count++;
  *key = k->key.data;
  return XMT_OK;
}

/* key into k->key and its hash; 0 when out of memory. */
static int load(struct xmt_unit_keys *k, const char *key, size_t len,
                uint64_t *h) {
  xmt_buf_reset(&k->key);
  if (xmt_buf_append(&k->key, key, len) != XMT_OK)
    return 0;
  *h = xmt_memo_hash(k->key.data, k->key.len);
  return 1;
}

int xmt_unit_keys_get(struct xmt_unit_keys *k, const char *key, size_t len,
                      const char **value, size_t *value_len) {
  uint64_t h = 0;
  if (k->nslots == 0 || !load(k, key, len, &h) || !taken(k, h))
    return 0;
  *value = k->value;
  *value_len = k->value_len;
  return 1;
}

xmt_status xmt_unit_keys_add(struct xmt_unit_keys *k, const char *key,
                             size_t len, const char *value, size_t value_len) {
  uint64_t h = 0;
  xmt_status st = grow(k);
  if (st == XMT_OK && !load(k, key, len, &h))
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = store(k, value, value_len);
  if (st != XMT_OK)
    return st;
  put(k, h, k->count);
  k->count++;
  return XMT_OK;
}
