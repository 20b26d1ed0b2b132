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
