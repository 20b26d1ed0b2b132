/* report.c -- xliffmt report: a document and its findings through an XSLT
 * stylesheet, by default the shipped review page. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_STYLESHEET = 300, OPT_PARAM, OPT_FINDINGS };

static void usage(FILE *fp) {
  fprintf(fp,
          "Usage: xliffmt report IN [-o OUT] [--stylesheet F] "
          "[--param NAME=VALUE]...\n"
          "                      [--findings] [-s SRC] [-t TGT] [--quiet]\n\n"
          "Writes a review page of the XLIFF 1.2 document IN: a summary and\n"
          "one row per segment with its source and target side by side,\n"
          "inline codes as numbered chips, its state and its flags. An HTML\n"
          "page is reported as the XLIFF document 'xliffmt extract' writes.\n\n"
          "  -o OUT               output file (default: standard output)\n"
          "  -x, --stylesheet F   an XSLT 1.0 stylesheet of your own, or a\n"
          "                       shipped one: report (default), tmx\n"
          "  -p, --param N=V      a string parameter for the stylesheet\n"
          "      --findings       write the findings document itself\n"
          "  -s SRC, -t TGT       languages of an HTML page's XLIFF\n"
          "  -q, --quiet          leave out the stylesheet's messages\n"
          "  -h, --help           this help\n\n"
          "See xliffmt-report(1) for the findings the stylesheet is given.\n");
}

/* The stylesheet's messages go out as they come; its further errors wait
 * for the first, which the library returns. */
struct messages {
  int quiet;
  char *later;
  size_t later_len;
  FILE *later_fp;
};

static int on_message(void *user, const struct xmt_problem *p) {
  struct messages *m = user;
  if (p->severity == XMT_WARNING && m->quiet)
    return 0;
  FILE *fp = stderr;
  if (p->severity == XMT_ERROR) {
    if (m->later_fp == NULL)
      m->later_fp = open_memstream(&m->later, &m->later_len);
    if (m->later_fp != NULL)
      fp = m->later_fp;
  }
  fputs("xliffmt: ", fp);
  if (p->file != NULL) {
    fputs(p->file, fp);
    if (p->line > 0)
      fprintf(fp, ":%lu", p->line);
    fputs(": ", fp);
  }
  fprintf(fp, "%s\n", p->message);
  return 0;
}

int xmt_cli_report_command(int argc, char **argv) {
  static const struct option options[] = {
      {"output", required_argument, NULL, 'o'},
      {"stylesheet", required_argument, NULL, 'x'},
      {"param", required_argument, NULL, 'p'},
      {"findings", no_argument, NULL, OPT_FINDINGS},
      {"source-lang", required_argument, NULL, 's'},
      {"target-lang", required_argument, NULL, 't'},
      {"quiet", no_argument, NULL, 'q'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *out = "-", *src = NULL, *tgt = NULL;
  struct xmt_report_options ro = {NULL, NULL, 0};
  struct messages m = {0, NULL, 0, NULL};
  const char **params = calloc((size_t)argc + 1, sizeof *params);
  size_t nparams = 0;
  if (params == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  int c, rc = -1;
  optind = 1;
  while (rc < 0 &&
         (c = getopt_long(argc, argv, "o:x:p:s:t:qh", options, NULL)) != -1) {
    switch (c) {
    case 'o':
      out = optarg;
      break;
    case 'x':
      ro.stylesheet = optarg;
      break;
    case 'p':
      if (strchr(optarg, '=') == NULL || optarg[0] == '=') {
        xmt_cli_usage_error("report ", "--param wants NAME=VALUE");
        rc = EXIT_BAD_INPUT;
      }
      params[nparams++] = optarg;
      break;
    case OPT_FINDINGS:
      ro.findings_only = 1;
      break;
    case 's':
      src = optarg;
      break;
    case 't':
      tgt = optarg;
      break;
    case 'q':
      m.quiet = 1;
      break;
    case 'h':
      usage(stdout);
      rc = EXIT_OK;
      break;
    default:
      xmt_cli_usage_error("report ", "bad option");
      rc = EXIT_BAD_INPUT;
    }
  }
  if (rc < 0 && optind + 1 != argc) {
    xmt_cli_usage_error("report ", optind == argc
                                       ? "missing input file"
                                       : "exactly one input file expected");
    rc = EXIT_BAD_INPUT;
  }
  if (rc >= 0) {
    free(params);
    return rc;
  }
  ro.params = params;
  xmt_filter *f = xmt_filter_new();
  xmt_status st =
      f != NULL ? xmt_filter_set_languages(f, src, tgt) : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = xmt_filter_report_file(f, argv[optind], out, &ro, on_message, &m);
  if (f == NULL)
    fputs("xliffmt: out of memory\n", stderr);
  else if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  if (m.later_fp != NULL) {
    fclose(m.later_fp);
    fputs(m.later, stderr);
    free(m.later);
  }
  xmt_filter_free(f);
  free(params);
  return xmt_cli_exit_status(st);
}
