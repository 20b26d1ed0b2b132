/* hash.c -- 64-bit FNV-1a, the one byte hash written here (hash tables
 * of long texts use XXH3 through xmt_memo_hash). Its values are kept in
 * files (the aligner model's checksum, the names of dictionary caches):
 * it must not change. */
#include "config.h"

#include "base_private.h"

uint64_t xmt_fnv1a(uint64_t h, const void *bytes, size_t n) {
  const unsigned char *p = bytes;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= UINT64_C(0x100000001b3);
  }
  return h;
}
