/* report.c -- xliffmt report: a document and its findings through an XSLT
 * stylesheet, by default the shipped review page. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { OPT_FINDINGS = 300, OPT_MAX_WHOLE };

static const struct xmt_cli_option report_options[] = {
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"stylesheet", 'x', "F",
     "an XSLT 1.0 stylesheet of your own, or a\nshipped one: report "
     "(default), tmx"},
    {"param", 'p', "N=V", "a string parameter for the stylesheet"},
    {"findings", OPT_FINDINGS, NULL, "write the findings document itself"},
    {"max-whole-size", OPT_MAX_WHOLE, "N",
     "the largest document a stylesheet of your\nown reads whole, in bytes "
     "(K, M, G: KiB...;\ndefault 8M)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_option report_quiet_option[] = {
    {"quiet", 'q', NULL, "leave out the stylesheet's messages"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command report = {
    "report ",
    "Usage: xliffmt report IN [-o OUT] [--stylesheet F] "
    "[--param NAME=VALUE]...\n"
    "                      [--findings] [--max-whole-size N] [-s SRC] [-t "
    "TGT]\n"
    "                      [--quiet]\n\n"
    "Writes a review page of IN, an XLIFF 1.0-1.2 (SDLXLIFF, MQXLIFF\n"
    "too), XLIFF 2.0-2.2, HTML, Word or OpenDocument Text document (its\n"
    "content decides; a file, not standard input): a summary and one row\n"
    "per segment with its source and target side by side, inline codes\n"
    "as numbered chips, its state and its flags. An HTML page is reported\n"
    "as the XLIFF document 'xliffmt extract' writes.\n\n",
    XMT_CLI_GROUPS(report_options, xmt_cli_page_lang_options,
                   report_quiet_option),
    NULL, "See xliffmt-report(1) for the findings the stylesheet is given.\n"};

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
  char line[32] = "";
  if (p->file != NULL && p->line > 0)
    snprintf(line, sizeof line, ":%lu", p->line);
  const char *file = p->file != NULL ? p->file : "";
  const char *colon = p->file != NULL ? ": " : "";
  if (p->severity == XMT_ERROR && m->later_fp == NULL)
    m->later_fp = open_memstream(&m->later, &m->later_len);
  if (p->severity == XMT_ERROR && m->later_fp != NULL) {
    /* told after the page is written; NUL-ended, each told as one */
    fprintf(m->later_fp, "xliffmt: %s%s%s%s\n", file, line, colon, p->message);
    fputc('\0', m->later_fp);
  } else {
    xmt_cli_say("xliffmt: %s%s%s%s\n", file, line, colon, p->message);
  }
  return 0;
}

struct report_args {
  const char *out, *src, *tgt;
  struct xmt_report_options ro;
  struct messages m;
  const char **params;
  size_t nparams;
};

/* The options kept as given: all but --param. */
#define KEPT(code, member) XMT_CLI_STRING(code, struct report_args, member)
#define FLAG(code, member) XMT_CLI_FLAG(code, struct report_args, member)
static const struct xmt_cli_store kept[] = {
    KEPT('o', out),     KEPT('x', ro.stylesheet),
    KEPT('s', src),     KEPT('t', tgt),
    FLAG('q', m.quiet), FLAG(OPT_FINDINGS, ro.findings_only)};
#undef KEPT
#undef FLAG

static int take(void *user, int c, const char *arg) {
  struct report_args *a = user;
  if (xmt_cli_store(kept, sizeof kept / sizeof *kept, a, c, arg))
    return 1;
  if (c == OPT_MAX_WHOLE) {
    if (xmt_cli_parse_size(arg, &a->ro.max_whole))
      return 1;
    xmt_cli_usage_error("report ", "--max-whole-size takes a number of bytes "
                                   "(K, M, G: KiB...)");
    return 0;
  }
  if (c != 'p')
    return 1;
  if (strchr(arg, '=') == NULL || arg[0] == '=') {
    xmt_cli_usage_error("report ", "--param wants NAME=VALUE");
    return 0;
  }
  a->params[a->nparams++] = arg;
  return 1;
}

/* The document, a stylesheet of one's own, the output: never one. */
static int files_check(const struct report_args *a, const char *in) {
  const char *x = a->ro.stylesheet;
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add(&fs, XMT_CLI_READS, in, "", "the input", NULL);
  if (x != NULL && strcmp(x, "report") != 0 && strcmp(x, "tmx") != 0)
    xmt_cli_files_add(&fs, XMT_CLI_READS, x, "--stylesheet", "the stylesheet",
                      NULL);
  xmt_cli_files_add_output(&fs, a->out);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}

int xmt_cli_report_command(int argc, char **argv) {
  struct report_args a;
  memset(&a, 0, sizeof a);
  a.out = "-";
  a.params = calloc((size_t)argc + 1, sizeof *a.params);
  if (a.params == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  int rc = xmt_cli_parse(&report, argc, argv, take, &a);
  if (rc < 0 && !xmt_cli_operands(&report, argc, 1, "missing input file"))
    rc = EXIT_BAD_INPUT;
  if (rc >= 0) {
    free(a.params);
    return rc;
  }
  if ((rc = files_check(&a, argv[optind])) != EXIT_OK) {
    free(a.params);
    return rc;
  }
  const char *out = a.out, *src = a.src, *tgt = a.tgt;
  struct xmt_report_options ro = a.ro;
  struct messages m = a.m;
  const char **params = a.params;
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
    for (size_t at = 0; at < m.later_len; at += strlen(m.later + at) + 1)
      xmt_cli_say("%s", m.later + at);
    free(m.later);
  }
  xmt_filter_free(f);
  free(params);
  return xmt_cli_exit_status(st);
}
