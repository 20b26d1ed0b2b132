/* buf.c -- growable buffers, UTF-8 helpers and error records. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "projector_private.h"

xmt_status xmt_buf_grow(struct xmt_buf *buf, size_t extra) {
  size_t need = buf->len + extra + 1; /* room for the terminating NUL */
  if (need < extra)
    return XMT_ERR_NOMEM;
  if (need <= buf->cap)
    return XMT_OK;
  size_t cap = buf->cap ? buf->cap : 64;
  while (cap < need) {
    if (cap > SIZE_MAX / 2)
      return XMT_ERR_NOMEM;
    cap *= 2;
  }
  char *data = realloc(buf->data, cap);
  if (data == NULL)
    return XMT_ERR_NOMEM;
  buf->data = data;
  buf->cap = cap;
  buf->data[buf->len] = '\0';
  return XMT_OK;
}

void xmt_buf_free(struct xmt_buf *buf) {
  free(buf->data);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

xmt_status xmt_buf_append_utf8(struct xmt_buf *buf, uint32_t cp) {
  char out[4];
  size_t n;
  if (cp < 0x80) {
    out[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  return xmt_buf_append(buf, out, n);
}

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

char *xmt_strndup(const char *s, size_t n) {
  if (s == NULL)
    return NULL;
  char *d = malloc(n + 1);
  if (d == NULL)
    return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

void *xmt_grow_array(void *v, size_t *cap, size_t n, size_t size) {
  if (n == 0)
    n = 1;
  if (v != NULL && n <= *cap)
    return v;
  size_t c = *cap > 0 ? *cap : 8;
  while (c < n)
    c *= 2;
  void *nv = realloc(v, c * size);
  if (nv != NULL)
    *cap = c;
  return nv;
}

char *xmt_strdup(const char *s) {
  return s == NULL ? NULL : xmt_strndup(s, strlen(s));
}

void xmt_error_clear(struct xmt_error_store *err) {
  free(err->message);
  free(err->file);
  free(err->unit_id);
  memset(err, 0, sizeof *err);
}

static void error_store(struct xmt_error_store *err, xmt_status status,
                        const char *file, unsigned long line,
                        unsigned long column, const char *unit_id,
                        char *message) {
  xmt_error_clear(err);
  err->message = message;
  err->file = xmt_strdup(file);
  err->unit_id = xmt_strdup(unit_id);
  err->pub.status = status;
  err->pub.message = message != NULL ? message : xmt_strerror(status);
  err->pub.file = err->file;
  err->pub.line = line;
  err->pub.column = column;
  err->pub.unit_id = err->unit_id;
}

xmt_status xmt_error_set(struct xmt_error_store *err, xmt_status status,
                         const char *file, unsigned long line,
                         unsigned long column, const char *unit_id,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *message = NULL;
  if (n >= 0 && (message = malloc((size_t)n + 1)) != NULL) {
    va_start(ap, fmt);
    vsnprintf(message, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  error_store(err, status, file, line, column, unit_id, message);
  return status;
}

xmt_status xmt_error_copy(struct xmt_error_store *dst,
                          const struct xmt_error *src) {
  error_store(dst, src->status, src->file, src->line, src->column, src->unit_id,
              xmt_strdup(src->message));
  return src->status;
}
