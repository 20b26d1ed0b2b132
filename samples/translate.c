/* translate.c -- a sample program on libxliffmt's public API: translates
 * an XLIFF document or an HTML page with a built-in backend, checking
 * every setter, and prints the counts of the run on standard error.
 *
 *   cc -o translate translate.c $(pkg-config --cflags --libs xliffmt)
 *   cc -o translate translate.c $(pkg-config --static --cflags --libs xliffmt)
 *   ./translate IN OUT TARGET-LANGUAGE [BACKEND]
 *
 * BACKEND is a built-in backend by name (default "pseudo"). */
#include <stdio.h>
#include <xliffmt.h>

static void print_failure(void *user, const char *segment_id,
                          unsigned long line, const char *message) {
  fprintf(stderr, "%s:%lu: segment %s not translated: %s\n", (const char *)user,
          line, segment_id, message);
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: %s IN OUT TARGET-LANGUAGE [BACKEND]\n", argv[0]);
    return 2;
  }
  const char *name = argc == 5 ? argv[4] : "pseudo";
  const struct xmt_backend *backend = xmt_backend_builtin(name);
  if (backend == NULL) {
    fprintf(stderr, "%s: no built-in backend '%s'\n", argv[0], name);
    return 2;
  }
  xmt_filter *filter = xmt_filter_new();
  if (filter == NULL) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  xmt_status st = xmt_filter_set_languages(filter, NULL, argv[3]);
  if (st == XMT_OK)
    st = xmt_filter_set_backend(filter, backend, NULL, NULL);
  if (st == XMT_OK)
    st = xmt_filter_set_flags(filter, XMT_FILTER_OVERWRITE);
  if (st == XMT_OK)
    st = xmt_filter_set_batch_size(filter, XMT_DEFAULT_BATCH_SIZE);
  if (st == XMT_OK)
    st = xmt_filter_set_callbacks(filter, NULL, print_failure, argv[1]);
  if (st == XMT_OK)
    st = xmt_filter_translate_file(filter, argv[1], argv[2]);
  if (st == XMT_OK || st == XMT_ERR_PARTIAL) {
    const struct xmt_filter_stats *s = xmt_filter_stats(filter);
    fprintf(stderr,
            "%s: %zu units, %zu translated, %zu segments, %zu failed "
            "(libxliffmt %s)\n",
            argv[1], s->units, s->translated_units, s->segments,
            s->failed_segments, xmt_version());
  } else {
    const struct xmt_error *err = xmt_filter_error(filter);
    fprintf(stderr, "%s:%lu: %s\n", err->file != NULL ? err->file : argv[1],
            err->line, err->message != NULL ? err->message : xmt_strerror(st));
  }
  xmt_filter_free(filter);
  return st == XMT_OK ? 0 : st == XMT_ERR_PARTIAL ? 3 : 1;
}
