/* error.c -- the per-handle error record behind struct xmt_error. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "base_private.h"

void xmt_error_clear(struct xmt_error_store *err) {
  free(err->message);
  free(err->file);
  free(err->unit_id);
  memset(err, 0, sizeof *err);
}

static void error_store(struct xmt_error_store *err, xmt_status status,
                        const struct xmt_where *where, char *message) {
  static const struct xmt_where nowhere = {0};
  if (where == NULL)
    where = &nowhere;
  xmt_error_clear(err);
  err->message = message;
  err->file = xmt_strdup(where->file);
  err->unit_id = xmt_strdup(where->unit_id);
  err->pub.status = status;
  err->pub.message = message != NULL ? message : xmt_strerror(status);
  err->pub.file = err->file;
  err->pub.line = where->line;
  err->pub.column = where->column;
  err->pub.unit_id = err->unit_id;
}

/* The formatted message, or NULL when out of memory (the status's own
 * message then stands in). */
static char *format_message(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *message = NULL;
  if (n >= 0 && (message = malloc((size_t)n + 1)) != NULL) {
    vsnprintf(message, (size_t)n + 1, fmt, again);
    xmt_utf8_mend(message, (size_t)n);
  }
  va_end(again);
  return message;
}

xmt_status xmt_error_vat(struct xmt_error_store *err, xmt_status status,
                         const struct xmt_where *where, const char *fmt,
                         va_list ap) {
  error_store(err, status, where, format_message(fmt, ap));
  return status;
}

xmt_status xmt_error_at(struct xmt_error_store *err, xmt_status status,
                        const struct xmt_where *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  xmt_error_vat(err, status, where, fmt, ap);
  va_end(ap);
  return status;
}

xmt_status xmt_error_nomem(struct xmt_error_store *err) {
  error_store(err, XMT_ERR_NOMEM, NULL, NULL);
  return XMT_ERR_NOMEM;
}

xmt_status xmt_error_copy(struct xmt_error_store *dst,
                          const struct xmt_error *src) {
  const struct xmt_where where = {.file = src->file,
                                  .line = src->line,
                                  .column = src->column,
                                  .unit_id = src->unit_id};
  error_store(dst, src->status, &where, xmt_strdup(src->message));
  return src->status;
}
