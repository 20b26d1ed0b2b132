/* filter_private.h -- internals of the document-level filter. Not installed. */
#ifndef XMT_FILTER_PRIVATE_H
#define XMT_FILTER_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "filter_private.h is internal to libxliffmt"
#endif

#include <stdio.h>

#include "projector_private.h"
#include "xliff_private.h"
#include "xmt_filter.h"

struct xmt_mt_response {
  struct xmt_buf text;
  int has_text;
  char *error;
  char *alignment; /* Pharaoh pairs, NULL when the engine gave none */
  char *source_tokens;
  char *target_tokens;
  double score;
  int has_score;
};
void xmt_mt_response_reset(struct xmt_mt_response *response);
void xmt_mt_response_free(struct xmt_mt_response *response);

extern const struct xmt_backend xmt_backend_identity;

struct xmt_filter {
  struct xmt_error_store err;
  char *source_language;
  char *target_language;
  const struct xmt_backend *backend;
  void *backend_user;
  char *backend_spec;
  char **backend_options; /* "key=value", NULL-terminated */
  size_t nbackend_options;
  unsigned timeout_ms;
  char *state;
  char *state_qualifier;
  unsigned flags;
  struct xmt_filter_stats stats;
};

/* An output file written under a temporary name and renamed on commit. */
struct xmt_output {
  char *path;     /* final path, NULL for standard output */
  char *tmp_path; /* NULL for standard output */
  FILE *fp;
};
xmt_status xmt_output_open(struct xmt_output *out, const char *path,
                           struct xmt_error_store *err);
xmt_status xmt_output_commit(struct xmt_output *out,
                             struct xmt_error_store *err);
/* Removes the temporary file; safe after commit and on a zeroed output. */
void xmt_output_abort(struct xmt_output *out);
int xmt_output_write(void *user, const char *bytes, size_t len);

/* Opens path for reading, with a message naming it on failure. */
FILE *xmt_input_open(const char *path, struct xmt_error_store *err);

/* Reads fp to the end through reader; returns the first error. */
xmt_status xmt_read_all(xmt_xliff_reader *reader, FILE *fp, const char *path,
                        struct xmt_error_store *err, size_t *bytes_in);

#endif /* XMT_FILTER_PRIVATE_H */
