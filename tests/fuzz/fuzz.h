/* fuzz.h -- helpers shared by the libFuzzer targets: the entry point, an
 * output buffer, input slicing and an independent well-formedness check
 * (expat, not the library's own reader). */
#ifndef XMT_FUZZ_H
#define XMT_FUZZ_H

#include <expat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts, for the fuzzer to report, naming the check that failed. */
#define FUZZ_FAIL() fuzz_fail(__FILE__, __LINE__)
static inline void fuzz_fail(const char *file, int line) {
  fprintf(stderr, "%s:%d: check failed\n", file, line);
  abort();
}

/* A growing byte buffer, usable as an xmt_write_fn sink. */
struct fuzz_out {
  char *data;
  size_t len, cap;
};

static inline int fuzz_sink(void *user, const char *bytes, size_t len) {
  struct fuzz_out *o = user;
  if (o->len + len + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    while (cap < o->len + len + 1)
      cap *= 2;
    char *p = realloc(o->data, cap);
    if (p == NULL)
      FUZZ_FAIL();
    o->data = p;
    o->cap = cap;
  }
  if (len > 0)
    memcpy(o->data + o->len, bytes, len);
  o->len += len;
  o->data[o->len] = '\0';
  return 0;
}

/* The next piece of in[*at, n) up to the separator byte sep (not
 * included); *at moves past it. The last piece runs to the end. */
static inline const uint8_t *fuzz_slice(const uint8_t *in, size_t n, size_t *at,
                                        uint8_t sep, size_t *len) {
  const uint8_t *p = in + *at;
  size_t rest = n - *at;
  const uint8_t *q = rest > 0 ? memchr(p, sep, rest) : NULL;
  *len = q != NULL ? (size_t)(q - p) : rest;
  *at += *len + (q != NULL);
  return p;
}

/* windows-1252 for expat, which knows only UTF-8/16, Latin-1 and ASCII;
 * the five bytes it leaves undefined are C1 controls, as WHATWG and the
 * library's decoder read them. */
static inline int fuzz_cp1252(void *data, const XML_Char *name,
                              XML_Encoding *info) {
  static const unsigned short hi[32] = {
      0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};
  (void)data;
  const char *w = "windows-1252";
  size_t i;
  for (i = 0; w[i] != '\0'; i++) {
    char c = name[i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c + 32);
    if (c != w[i])
      return XML_STATUS_ERROR;
  }
  if (name[i] != '\0')
    return XML_STATUS_ERROR;
  for (int b = 0; b < 256; b++)
    info->map[b] =
        b >= 0x80 && b < 0xA0 ? (hi[b - 0x80] ? hi[b - 0x80] : b) : b;
  info->data = NULL;
  info->convert = NULL;
  info->release = NULL;
  return XML_STATUS_OK;
}

/* 1 when bytes are a well-formed XML document in encoding (NULL: as the
 * document declares it). */
static inline int fuzz_well_formed_as(const char *bytes, size_t len,
                                      const char *encoding) {
  XML_Parser p = XML_ParserCreate(encoding);
  if (p == NULL)
    FUZZ_FAIL();
  XML_SetUnknownEncodingHandler(p, fuzz_cp1252, NULL);
  int ok = XML_Parse(p, bytes, (int)len, 1) == XML_STATUS_OK;
  XML_ParserFree(p);
  return ok;
}

static inline int fuzz_well_formed(const char *bytes, size_t len) {
  return fuzz_well_formed_as(bytes, len, NULL);
}

#endif /* XMT_FUZZ_H */
