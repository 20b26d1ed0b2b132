/* merge.c -- xliffmt merge: an HTML page rebuilt from its translated
 * XLIFF; any other input goes to the XLIFF segment merge (cli_offline.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *fp) {
  fprintf(fp,
          "Usage: xliffmt merge PAGE.html PAGE.xlf [-o OUT.html] [-t TGT]\n"
          "                     [--skip-pre] [--skip-code]\n"
          "                     [--encoding-errors=fail|replace] [--quiet]\n\n"
          "Writes PAGE.html with the targets of PAGE.xlf, as written by\n"
          "'xliffmt extract PAGE.html' and translated since, in place of its\n"
          "text; everything else is copied byte for byte, and <html lang>\n"
          "becomes the target language. A unit without a target keeps its\n"
          "source text and is reported; the exit status is then 3.\n\n"
          "  -o OUT       output file (default: standard output)\n"
          "  -t TGT       target language (default: the XLIFF's)\n"
          "  --skip-pre, --skip-code, --encoding-errors  as given to extract\n"
          "  -q, --quiet  no summary on standard error\n\n"
          "XLIFF input takes segment translations instead: see\n"
          "'xliffmt merge IN.xlf --help' and xliffmt-merge(1).\n");
}

/* Missing targets, one line each on stderr. */
static int report(void *user, const struct xmt_problem *p) {
  (void)user;
  fprintf(stderr, "xliffmt: %s", p->file);
  if (p->line > 0)
    fprintf(stderr, ":%lu", p->line);
  fprintf(stderr, ": unit %s: %s\n", p->unit_id != NULL ? p->unit_id : "?",
          p->message);
  return 0;
}

static int merge_html(int argc, char **argv) {
  struct xmt_cli_html_options o;
  int rc = xmt_cli_html_parse(argc, argv, "merge ", 2, usage, &o);
  if (rc >= 0)
    return rc;
  const char *out = o.out, *tgt = o.tgt;
  unsigned flags = o.flags;
  int quiet = o.quiet;
  const char *page = argv[optind], *xliff = argv[optind + 1];
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  struct xmt_html_stats stats;
  memset(&stats, 0, sizeof stats);
  xmt_status st = xmt_filter_set_flags(f, flags);
  if (st == XMT_OK)
    st = xmt_filter_set_languages(f, NULL, tgt);
  if (st == XMT_OK)
    st = xmt_html_merge_file(f, page, xliff, out, &stats, report, NULL);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  if (st == XMT_OK || st == XMT_ERR_PARTIAL)
    xmt_cli_warn_invalid_bytes(page, stats.invalid_bytes);
  if (!quiet && (st == XMT_OK || st == XMT_ERR_PARTIAL))
    fprintf(stderr,
            "xliffmt: %s: %zu units, %zu translated, %zu kept in "
            "the source language\n",
            page, stats.units, stats.units_with_target, stats.missing_targets);
  xmt_filter_free(f);
  return xmt_cli_exit_status(st);
}

int xmt_cli_merge(int argc, char **argv) {
  if (!xmt_cli_is_html(argc, argv)) {
    int help = 0;
    for (int i = 1; i < argc; i++)
      help |= strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
    if (help)
      usage(stdout);
    return xmt_cli_merge_segments(argc, argv);
  }
  return merge_html(argc, argv);
}
