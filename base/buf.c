/* buf.c -- growable byte buffers (and a whole stream read into one),
 * overflow-checked array growth and string copies. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base_private.h"

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
  size_t n = xmt_utf8_encode(cp, out);
  return xmt_buf_append(buf, out, n);
}

char *xmt_memdup(const void *bytes, size_t len) {
  if (len == SIZE_MAX)
    return NULL;
  char *d = malloc(len + 1);
  if (d == NULL)
    return NULL;
  if (len > 0)
    memcpy(d, bytes, len);
  d[len] = '\0';
  return d;
}

char *xmt_strndup(const char *s, size_t n) {
  return s == NULL ? NULL : xmt_memdup(s, n);
}

void *xmt_grow_array(void *v, size_t *cap, size_t n, size_t size) {
  if (n == 0)
    n = 1;
  if (v != NULL && n <= *cap)
    return v;
  size_t c = *cap > 0 ? *cap : 8;
  while (c < n) {
    if (c > SIZE_MAX / 2)
      return NULL;
    c *= 2;
  }
  /* A byte count that wraps would allocate too little, silently. */
  if (size > 0 && c > SIZE_MAX / size)
    return NULL;
  /* size 0: one byte, so that realloc never frees v */
  void *nv = realloc(v, size > 0 ? c * size : 1);
  if (nv != NULL)
    *cap = c;
  return nv;
}

void *xmt_grow_one(void *pv, size_t n, size_t *cap, size_t size) {
  void *v;
  memcpy(&v, pv, sizeof v); /* pv: the address of some T *, read as bytes */
  if (n == SIZE_MAX || (v = xmt_grow_array(v, cap, n + 1, size)) == NULL)
    return NULL;
  memcpy(pv, &v, sizeof v);
  char *element = (char *)v + n * size;
  memset(element, 0, size);
  return element;
}

void xmt_fit_array(void *pv, size_t n, size_t *cap, size_t size) {
  void *v, *fit;
  memcpy(&v, pv, sizeof v);
  if (n == 0 || n >= *cap || (fit = realloc(v, n * size)) == NULL)
    return; /* v is still the array's */
  memcpy(pv, &fit, sizeof fit);
  *cap = n;
}

char *xmt_strdup(const char *s) {
  return s == NULL ? NULL : xmt_strndup(s, strlen(s));
}

xmt_status xmt_buf_append_stream(struct xmt_buf *buf, FILE *fp,
                                 const char *path,
                                 struct xmt_error_store *err) {
  char chunk[65536];
  size_t n;
  xmt_status st = XMT_OK;
  /* A file's size known, room for it at once: growing by doubling held
   * the old and the new copy of a large document together. */
  struct stat sb;
  off_t at = ftello(fp);
  if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && at >= 0 &&
      sb.st_size > at && (uintmax_t)(sb.st_size - at) < SIZE_MAX / 2)
    st = xmt_buf_grow(buf, (size_t)(sb.st_size - at) + 1);
  while (st == XMT_OK && (n = fread(chunk, 1, sizeof chunk, fp)) > 0)
    st = xmt_buf_append(buf, chunk, n);
  int bad = ferror(fp);
  int e = errno;
  if (fp != stdin)
    fclose(fp);
  if (st == XMT_OK && bad)
    st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                      strerror(e));
  return st;
}
