/* slots.c -- the slots of the one open-addressing hash table (linear
 * probing), whose entries live with their owner: the aligner's
 * vocabularies, a window's request index, the exact-match string tables
 * and the unit keys keep their entries and hashes in their own arrays or
 * arenas and probe these slots (xmt_slots_find, inline in
 * base_private.h). */
#include "config.h"

#include <stdlib.h>

#include "base_private.h"

xmt_status xmt_slots_resize(struct xmt_slots *s, size_t n) {
  if (n == 0 || (n & (n - 1)) != 0)
    return XMT_ERR_NOMEM; /* not a power of two */
  uint64_t *slot = calloc(n, sizeof *slot);
  if (slot == NULL)
    return XMT_ERR_NOMEM;
  free(s->slot);
  s->slot = slot;
  s->n = n;
  return XMT_OK;
}

void xmt_slots_put(struct xmt_slots *s, uint64_t hash, uint64_t value) {
  size_t mask = s->n - 1, i = (size_t)hash & mask;
  while (s->slot[i] != 0)
    i = (i + 1) & mask;
  xmt_slots_set(&s->slot[i], hash, value);
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
