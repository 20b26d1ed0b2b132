/* tools.c -- the scratch space of one stage (the main thread's, the
 * placing stage's): a placer, a segment and two token lists. Its fields
 * are this file's own; the rooms reach them through the functions below,
 * so that two stages never share one by accident. */
#include "config.h"

#include <stdlib.h>

#include "pipeline_private.h"

struct stage_tools {
  struct xmt_placer placer;
  xmt_segment *scratch;
  xmt_tokens *stok, *ttok;
};

struct stage_tools *xmt_tools_new(void) {
  struct stage_tools *t = calloc(1, sizeof *t);
  if (t == NULL)
    return NULL;
  t->scratch = xmt_segment_new();
  t->stok = xmt_tokens_new();
  t->ttok = xmt_tokens_new();
  if (t->scratch == NULL || t->stok == NULL || t->ttok == NULL ||
      xmt_placer_init(&t->placer) != XMT_OK) {
    xmt_tools_free(t);
    return NULL;
  }
  return t;
}

void xmt_tools_free(struct stage_tools *t) {
  if (t == NULL)
    return;
  xmt_placer_free(&t->placer);
  xmt_tokens_free(t->stok);
  xmt_tokens_free(t->ttok);
  xmt_segment_free(t->scratch);
  free(t);
}

struct xmt_placer *xmt_tools_placer(struct stage_tools *t) {
  return &t->placer;
}

xmt_segment *xmt_tools_scratch(struct stage_tools *t) { return t->scratch; }

xmt_tokens *xmt_tools_stok(struct stage_tools *t) { return t->stok; }

xmt_tokens *xmt_tools_ttok(struct stage_tools *t) { return t->ttok; }

xmt_status xmt_tools_tokenize(struct stage_tools *t, const char *src,
                              size_t src_len, const char *tgt, size_t tgt_len) {
  xmt_status st = xmt_tokenize(t->stok, src, src_len, XMT_TOKENIZE_DEFAULT);
  if (st == XMT_OK)
    st = xmt_tokenize(t->ttok, tgt, tgt_len, XMT_TOKENIZE_DEFAULT);
  return st;
}
