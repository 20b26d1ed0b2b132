/* backend.c -- backend responses and the table of built-in backends. */
#include "config.h"

#include <stdlib.h>

#include "filter_private.h"

xmt_status xmt_mt_response_set_text(xmt_mt_response *r, const char *utf8,
                                    size_t len) {
  if (r == NULL || (utf8 == NULL && len > 0))
    return XMT_ERR_USAGE;
  if (xmt_utf8_valid_prefix(utf8 != NULL ? utf8 : "", len) != len)
    return XMT_ERR_ENCODING;
  xmt_buf_reset(&r->text);
  xmt_status st = xmt_buf_append(&r->text, utf8 != NULL ? utf8 : "", len);
  r->has_text = st == XMT_OK;
  return st;
}

xmt_status xmt_mt_response_set_error(xmt_mt_response *r, const char *message) {
  if (r == NULL)
    return XMT_ERR_USAGE;
  char *copy = xmt_strdup(message != NULL ? message : "failed");
  if (copy == NULL)
    return XMT_ERR_NOMEM;
  free(r->error);
  r->error = copy;
  return XMT_OK;
}

void xmt_mt_response_reset(struct xmt_mt_response *r) {
  xmt_buf_reset(&r->text);
  r->has_text = 0;
  free(r->error);
  r->error = NULL;
}

void xmt_mt_response_free(struct xmt_mt_response *r) {
  xmt_buf_free(&r->text);
  free(r->error);
  memset(r, 0, sizeof *r);
}

const struct xmt_backend *xmt_backend_builtin(const char *name) {
  static const struct xmt_backend *const builtins[] = {&xmt_backend_identity};
  if (name == NULL)
    return NULL;
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    if (strcmp(builtins[i]->name, name) == 0)
      return builtins[i];
  return NULL;
}
