/* utf8.c -- UTF-8 decoding and validation. */
#include "config.h"

#include "base_private.h"

size_t xmt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
  if (n == 0)
    return 0;
  unsigned char c = s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t len;
  uint32_t v, min;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, v = c & 0x1Fu, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, v = c & 0x0Fu, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, v = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (n < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    v = (v << 6) | (s[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return len;
}

void xmt_utf8_mend(char *s, size_t n) {
  for (size_t i = xmt_utf8_valid_prefix(s, n); i < n;) {
    uint32_t cp;
    size_t k = (unsigned char)s[i] < 0x80
                   ? 1
                   : xmt_utf8_decode((const unsigned char *)s + i, n - i, &cp);
    if (k == 0)
      s[i++] = '?';
    else
      i += k;
  }
}

size_t xmt_utf8_valid_prefix(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    /* ASCII runs, eight bytes at a time. */
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      if (w & UINT64_C(0x8080808080808080))
        break;
      i += 8;
    }
    if (i == n)
      break;
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    size_t k = xmt_utf8_decode(p + i, n - i, &cp);
    if (k == 0)
      break;
    i += k;
  }
  return i;
}

size_t xmt_utf8_count(const char *s, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n; i++)
    count += ((unsigned char)s[i] & 0xC0) != 0x80;
  return count;
}
