/* unit_keys.c -- a name for each unit that no other unit of the document
 * has. XLIFF ids are unique only within a <file>, and Okapi restarts them
 * at "1" in each; broken files repeat them within one. Segment ids
 * ("KEY#MID") are built on these keys, so that extract and merge, which
 * read the same document in the same order, agree on every one. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "filter_private.h"

void xmt_unit_keys_free(struct xmt_unit_keys *k) {
  xmt_memo_free(&k->taken);
  xmt_buf_free(&k->key);
}

static int taken(const struct xmt_unit_keys *k) {
  return xmt_memo_get(&k->taken, k->key.data, k->key.len, NULL, NULL, NULL);
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
    st = xmt_memo_put(&k->taken, k->key.data, k->key.len, NULL, 0, 0);
  *key = st == XMT_OK ? k->key.data : NULL;
  return st;
}
