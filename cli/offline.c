/* offline.c -- xliffmt extract and merge for XLIFF input: segments out
 * to TSV or JSON lines for MT that runs elsewhere, translations back in. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static void extract_usage(FILE *fp) {
  fprintf(fp,
          "Usage: xliffmt extract IN.xlf [-o SEGMENTS] [--format tsv|jsonl]\n"
          "                       [-s SRC] [--tags MODE] [--srx FILE]\n"
          "                       [--no-segment] [--resegment]\n\n"
          "Writes the segments of IN that need translation, one per line\n"
          "with its id: 'ID<TAB>TEXT' (tab, newline, carriage return and\n"
          "backslash escaped as \\t \\n \\r \\\\) or JSON lines\n"
          "{\"id\":...,\"text\":...}. Translate the text anywhere and put it\n"
          "back with 'xliffmt merge'. See xliffmt-extract(1).\n");
}

static void merge_usage(FILE *fp) {
  fprintf(fp,
          "Usage: xliffmt merge IN.xlf --translations FILE [-o OUT]\n"
          "                     [--alignments FILE] [--source-tokens FILE\n"
          "                     --target-tokens FILE] [translate options]\n\n"
          "Writes IN with the translations of FILE (TSV or JSON lines, by\n"
          "segment id, as 'xliffmt extract' writes them) as targets, the\n"
          "inline codes projected. Segments without a translation are\n"
          "reported and the exit status is 3. See xliffmt-merge(1).\n");
}

/* Parses the common options; returns the input path, or NULL after
 * printing help (*rc = 0) or a usage error (*rc = 1). */
static const char *parse(int argc, char **argv, struct xmt_cli_settings *s,
                         void (*usage)(FILE *), int *rc) {
  static const struct option options[] = {
      XMT_CLI_RUN_LONG_OPTIONS,
      {"format", required_argument, NULL, XMT_OPT_FORMAT},
      {"translations", required_argument, NULL, XMT_OPT_TRANSLATIONS},
      {"alignments", required_argument, NULL, XMT_OPT_ALIGNMENTS},
      {"source-tokens", required_argument, NULL, XMT_OPT_SOURCE_TOKENS},
      {"target-tokens", required_argument, NULL, XMT_OPT_TARGET_TOKENS},
      {NULL, 0, NULL, 0}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "o:s:t:qh", options, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      *rc = EXIT_OK;
      return NULL;
    }
    if (!xmt_cli_take_option(s, c, optarg)) {
      *rc = EXIT_BAD_INPUT;
      return NULL;
    }
  }
  if (optind + 1 != argc) {
    xmt_cli_usage_error(s->command, optind == argc
                                        ? "missing input file"
                                        : "exactly one input file expected");
    *rc = EXIT_BAD_INPUT;
    return NULL;
  }
  return argv[optind];
}

int xmt_cli_extract_segments(int argc, char **argv) {
  struct xmt_cli_settings s;
  xmt_cli_settings_init(&s);
  s.command = "extract ";
  int rc = EXIT_OK;
  const char *in = parse(argc, argv, &s, extract_usage, &rc);
  if (in == NULL)
    return rc;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  xmt_status st = xmt_cli_configure(f, &s, NULL, NULL);
  if (st == XMT_OK)
    st = xmt_filter_extract_segments_file(f, in, s.out, s.format);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  else if (!s.quiet)
    fprintf(stderr, "xliffmt: %s: %zu units, %zu segments written\n", in,
            xmt_filter_stats(f)->units, xmt_filter_stats(f)->segments);
  rc = xmt_cli_exit_status(st);
  xmt_filter_free(f);
  return rc;
}

int xmt_cli_merge_segments(int argc, char **argv) {
  struct xmt_cli_settings s;
  xmt_cli_settings_init(&s);
  s.command = "merge ";
  int rc = EXIT_OK;
  const char *in = parse(argc, argv, &s, merge_usage, &rc);
  if (in == NULL)
    return rc;
  if (s.translations == NULL) {
    xmt_cli_usage_error("merge ", "missing --translations FILE");
    return EXIT_BAD_INPUT;
  }
  if ((s.source_tokens == NULL) != (s.target_tokens == NULL)) {
    xmt_cli_usage_error("merge ",
                        "--source-tokens and --target-tokens go together");
    return EXIT_BAD_INPUT;
  }
  if (xmt_cli_report_clashes(&s, in))
    return EXIT_BAD_INPUT;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  struct xmt_cli_session ses;
  xmt_cli_session_begin(&ses, f, in, s.quiet);
  xmt_status st = xmt_cli_configure(f, &s, NULL, NULL);
  if (st == XMT_OK)
    st =
        xmt_filter_merge_segments_file(f, in, s.translations, s.alignments,
                                       s.source_tokens, s.target_tokens, s.out);
  rc = xmt_cli_session_end(&ses, f, st, &s, s.translations);
  xmt_filter_free(f);
  return rc;
}
