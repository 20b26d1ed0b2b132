/* model_file.c -- the aligner's model file: xmt_aligner_save and
 * xmt_aligner_load open it here and hand the stream to the projector,
 * which writes and reads the model (projector/aligner/aligner_model.c)
 * but opens no file. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "aligner_private.h"
#include "xmt_filter.h"

xmt_status xmt_aligner_save(xmt_aligner *a, const char *path) {
  xmt_status st = xmt_aligner_model_call(a, path, 1);
  if (st != XMT_OK)
    return st;
  /* A model appears whole or not at all, like the filter's outputs. */
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  /* A model is a file, never standard output: "-" names a file, as for
   * xmt_aligner_load. */
  st = xmt_atomic_file_open(&af, strcmp(path, "-") == 0 ? "./-" : path, 0);
  if (st != XMT_OK) {
    int e = xmt_atomic_file_errno(&af);
    xmt_atomic_file_abort(&af);
    return st == XMT_ERR_NOMEM
               ? xmt_error_at(&a->err, XMT_ERR_NOMEM, XMT_IN(path),
                              "out of memory")
               : xmt_error_at(&a->err, XMT_ERR_WRITE, XMT_IN(path),
                              "cannot create: %s", strerror(e));
  }
  int e = 0;
  st = xmt_aligner_put_model(a, xmt_atomic_file_stream(&af), &e);
  if (st == XMT_OK && xmt_atomic_file_commit(&af) != XMT_OK) {
    st = XMT_ERR_WRITE;
    e = xmt_atomic_file_errno(&af);
  }
  xmt_atomic_file_abort(&af); /* the temporary file, after a failure */
  if (st != XMT_OK)
    return xmt_error_at(&a->err, XMT_ERR_WRITE, XMT_IN(path),
                        "cannot write: %s", strerror(e));
  return XMT_OK;
}

xmt_status xmt_aligner_load(xmt_aligner *a, const char *path) {
  xmt_status st = xmt_aligner_model_call(a, path, 0);
  if (st != XMT_OK)
    return st;
  FILE *fp = xmt_input_file_open(path); /* a named pipe: waited 10 s */
  char why[200];
  if (fp == NULL)
    return xmt_error_at(&a->err, XMT_ERR_IO, XMT_IN(path), "%s",
                        xmt_input_file_why(errno, why, sizeof why));
  st = xmt_aligner_get_model(a, fp, path);
  fclose(fp);
  return st;
}
