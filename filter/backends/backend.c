/* backend.c -- backend responses and the table of built-in backends. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "backends_private.h"

xmt_status xmt_mt_response_set_text(xmt_mt_response *r, const char *utf8,
                                    size_t len) {
  if (r == NULL || (utf8 == NULL && len > 0))
    return XMT_ERR_USAGE;
  if (xmt_utf8_valid_prefix(utf8 != NULL ? utf8 : "", len) != len)
    return XMT_ERR_ENCODING;
  xmt_buf_reset(&r->text);
  xmt_status st = xmt_buf_append(&r->text, utf8 != NULL ? utf8 : "", len);
  r->has_text = st == XMT_OK;
  r->nomem |= st == XMT_ERR_NOMEM;
  return st;
}

xmt_status xmt_mt_response_set_error(xmt_mt_response *r, const char *message) {
  if (r == NULL)
    return XMT_ERR_USAGE;
  char *copy = xmt_strdup(message != NULL ? message : "failed");
  if (copy == NULL) {
    r->nomem = 1;
    return XMT_ERR_NOMEM;
  }
  free(r->error);
  r->error = copy;
  return XMT_OK;
}

xmt_status xmt_mt_response_set_engine_error(xmt_mt_response *r,
                                            const char *message) {
  xmt_status st = xmt_mt_response_set_error(r, message);
  if (st == XMT_OK)
    r->engine_failed = 1;
  return st;
}

size_t xmt_answer_limit(size_t max_answer, size_t request_len) {
  size_t max = max_answer != 0 ? max_answer : XMT_DEFAULT_MAX_ANSWER;
  size_t rel = request_len <= (SIZE_MAX - XMT_ANSWER_SLACK) / XMT_ANSWER_GROWTH
                   ? request_len * XMT_ANSWER_GROWTH + XMT_ANSWER_SLACK
                   : SIZE_MAX;
  return rel < max ? rel : max;
}

/* Copies value into *dst (NULL clears it). */
static xmt_status set_copy(char **dst, const char *value) {
  char *copy = NULL;
  if (value != NULL && (copy = xmt_strdup(value)) == NULL)
    return XMT_ERR_NOMEM;
  free(*dst);
  *dst = copy;
  return XMT_OK;
}

xmt_status xmt_mt_response_set_alignment(xmt_mt_response *r,
                                         const char *pharaoh,
                                         const char *source_tokens,
                                         const char *target_tokens) {
  if (r == NULL || pharaoh == NULL ||
      (source_tokens == NULL) != (target_tokens == NULL))
    return XMT_ERR_USAGE;
  if (set_copy(&r->alignment, pharaoh) != XMT_OK ||
      set_copy(&r->source_tokens, source_tokens) != XMT_OK ||
      set_copy(&r->target_tokens, target_tokens) != XMT_OK) {
    set_copy(&r->alignment, NULL);
    set_copy(&r->source_tokens, NULL);
    r->nomem = 1;
    return XMT_ERR_NOMEM;
  }
  return XMT_OK;
}

xmt_status xmt_mt_response_set_score(xmt_mt_response *r, double score) {
  if (r == NULL)
    return XMT_ERR_USAGE;
  r->score = score;
  r->has_score = 1;
  return XMT_OK;
}

void xmt_mt_response_out_of_memory(struct xmt_mt_response *r) { r->nomem = 1; }

void xmt_mt_response_reset(struct xmt_mt_response *r) {
  xmt_buf_reset(&r->text);
  r->has_text = 0;
  set_copy(&r->error, NULL);
  set_copy(&r->alignment, NULL);
  set_copy(&r->source_tokens, NULL);
  set_copy(&r->target_tokens, NULL);
  r->has_score = 0;
  r->nomem = 0;
  r->engine_failed = 0;
}

int xmt_mt_response_answered(const struct xmt_mt_response *r) {
  return r->error == NULL && r->has_text;
}

const char *xmt_mt_response_text(const struct xmt_mt_response *r, size_t *len) {
  *len = r->text.len;
  return r->text.len > 0 ? r->text.data : "";
}

const char *xmt_mt_response_error(const struct xmt_mt_response *r) {
  return r->error;
}

int xmt_mt_response_engine_failed(const struct xmt_mt_response *r) {
  return r->engine_failed;
}

void xmt_mt_response_free(struct xmt_mt_response *r) {
  xmt_mt_response_reset(r);
  xmt_buf_free(&r->text);
  memset(r, 0, sizeof *r);
}

/* The registry of built-in backends: what --mt names, in the order
 * --help lists them. */
static const struct xmt_backend_info registry[] = {
    {"identity", NULL, "the translation is the source (tests)",
     &xmt_backend_identity},
    {"pseudo", NULL, "longer, accented, words reordered (tests)",
     &xmt_backend_pseudo},
    {"apertium", "PAIR", "Apertium, e.g. apertium:eng-spa",
     &xmt_backend_apertium},
    {"cmd", "COMMAND", "a command: a segment a line, in and out",
     &xmt_backend_cmd},
    {"http", "URL", "a JSON service (APy, LibreTranslate...)",
     &xmt_backend_http},
    {"plugin", "PATH.so", "a shared library's backend vtable",
     &xmt_backend_plugin_loader},
};

const struct xmt_backend_info *xmt_backend_list(size_t *n) {
  *n = sizeof registry / sizeof *registry;
  return registry;
}

const struct xmt_backend *xmt_backend_builtin(const char *name) {
  if (name == NULL)
    return NULL;
  for (size_t i = 0; i < sizeof registry / sizeof *registry; i++)
    if (strcmp(registry[i].name, name) == 0)
      return registry[i].backend;
  return NULL;
}
