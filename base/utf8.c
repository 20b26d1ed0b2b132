/* utf8.c -- UTF-8 decoding, validation, counting and positions (the
 * steps from character to character are inline, in base_private.h). */
#include "config.h"

#include "base_private.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define XMT_UTF8_SSE2 1 /* x86-64 has it always */
#endif

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
    if (!xmt_utf8_is_cont((char)s[i]))
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

/* ASCII 16 bytes at a time (8 without SSE2), two- and three-byte
 * characters without a call: the XLIFF 2 reader checks every byte of its
 * input with it. */
size_t xmt_utf8_valid_prefix(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  const uint64_t high = UINT64_C(0x8080808080808080);
  size_t i = 0;
  while (i < n) {
#ifdef XMT_UTF8_SSE2
    while (i + 16 <= n) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
      unsigned m = (unsigned)_mm_movemask_epi8(v); /* the bytes above ASCII */
      if (m != 0) { /* straight to the first byte above ASCII */
        i += (size_t)__builtin_ctz(m);
        break;
      }
      i += 16;
    }
#endif
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      if (w & high)
        break;
      i += 8;
    }
    if (i == n)
      break;
    unsigned char c = p[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF && i + 1 < n &&
        xmt_utf8_is_cont((char)p[i + 1])) {
      i += 2;
      continue;
    }
    if (c >= 0xE0 && c <= 0xEF && i + 2 < n &&
        xmt_utf8_is_cont((char)p[i + 1]) && xmt_utf8_is_cont((char)p[i + 2])) {
      uint32_t v =
          ((c & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu);
      if (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))
        break;
      i += 3;
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

/* Eight bytes at a time: a continuation byte is 10xxxxxx, so its top bit
 * is set and the bit below it clear; the count of those is summed by one
 * multiplication. Called for every segment (source characters) and every
 * position the reader reports. */
size_t xmt_utf8_count(const char *s, size_t n) {
  const uint64_t high = UINT64_C(0x8080808080808080);
  const uint64_t ones = UINT64_C(0x0101010101010101);
  size_t cont = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, sizeof w);
    uint64_t c = w & ~(w << 1) & high; /* bit 7 of each continuation byte */
    cont += (size_t)(((c >> 7) * ones) >> 56);
  }
  for (; i < n; i++)
    cont += xmt_utf8_is_cont(s[i]);
  return n - cont;
}

void xmt_utf8_advance(const char *s, size_t n, unsigned long *line,
                      unsigned long *chars) {
  const char *p = s, *end = s + n, *nl;
  while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    ++*line;
    *chars = 0;
    p = nl + 1;
  }
  *chars += xmt_utf8_count(p, (size_t)(end - p));
}

size_t xmt_utf8_encode(uint32_t cp, char out[4]) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}
