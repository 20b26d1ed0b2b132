/* slots.c -- the slots of an open-addressing hash table (linear probing)
 * whose entries live elsewhere: the aligner's vocabularies and a window's
 * request index keep their entries and hashes in their own arrays and
 * probe these slots; rebuilding them on growth is written once here. */
#include "config.h"

#include <stdlib.h>

#include "base_private.h"

xmt_status xmt_slots_rebuild(struct xmt_slots *s, size_t n, uint32_t last,
                             xmt_slots_hash_fn hash_of, const void *user) {
  if (n == 0 || (n & (n - 1)) != 0 || n <= last)
    return XMT_ERR_NOMEM; /* not a power of two, or too small to hold them */
  uint32_t *slot = calloc(n, sizeof *slot);
  if (slot == NULL)
    return XMT_ERR_NOMEM;
  size_t mask = n - 1;
  for (uint32_t e = 1; e <= last && e != 0; e++) {
    size_t k = (size_t)hash_of(user, e) & mask;
    while (slot[k] != 0)
      k = (k + 1) & mask;
    slot[k] = e;
  }
  free(s->slot);
  s->slot = slot;
  s->n = n;
  return XMT_OK;
}

void xmt_slots_clear(struct xmt_slots *s) {
  if (s->slot != NULL)
    memset(s->slot, 0, s->n * sizeof *s->slot);
}

void xmt_slots_free(struct xmt_slots *s) {
  free(s->slot);
  s->slot = NULL;
  s->n = 0;
}
