/* offline.c -- xliffmt extract and merge for XLIFF input: segments out
 * to TSV or JSON lines for MT that runs elsewhere, translations back in. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

/* A segment extract leaves out (a unit it cannot be translated in), told
 * with its place. */
static void left_out(void *in, const char *id, unsigned long line,
                     const char *message) {
  char at[32] = "";
  if (line > 0)
    snprintf(at, sizeof at, ":%lu", line);
  xmt_cli_say("xliffmt: %s%s: segment %s not extracted: %s\n", (const char *)in,
              at, id, message);
}

int xmt_cli_extract_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                             const char *in) {
  xmt_filter_set_callbacks(f, NULL, left_out, (void *)in);
  xmt_status st = xmt_cli_configure(f, s, NULL, NULL);
  if (st == XMT_OK)
    st = xmt_filter_extract_segments_file(f, in, s->out, s->format);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  else if (!s->quiet)
    xmt_cli_say("xliffmt: %s: %zu units, %zu segments written\n", in,
                xmt_filter_stats(f)->units, xmt_filter_stats(f)->segments);
  return xmt_cli_exit_status(st);
}

int xmt_cli_merge_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                           const char *in) {
  if (s->translations == NULL) {
    xmt_cli_usage_error("merge ", "missing --translations FILE");
    return EXIT_BAD_INPUT;
  }
  if ((s->source_tokens == NULL) != (s->target_tokens == NULL)) {
    xmt_cli_usage_error("merge ",
                        "--source-tokens and --target-tokens go together");
    return EXIT_BAD_INPUT;
  }
  int rc = xmt_cli_run_files_check(s, in);
  if (rc != EXIT_OK)
    return rc;
  struct xmt_cli_session ses;
  xmt_cli_session_begin(&ses, f, in, s->quiet);
  xmt_status st = xmt_cli_configure(f, s, NULL, NULL);
  if (st == XMT_OK)
    st = xmt_filter_merge_segments_file(f, in, s->translations, s->alignments,
                                        s->source_tokens, s->target_tokens,
                                        s->out);
  return xmt_cli_session_end(&ses, f, st, s, s->translations);
}
