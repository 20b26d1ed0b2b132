/* extract.c -- xliffmt extract: an HTML page's units out to XLIFF 1.2;
 * any other input goes to the XLIFF segment extract (cli_offline.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum { OPT_SKIP_PRE = 300, OPT_SKIP_CODE, OPT_ENCODING_ERRORS };

/* Options of extract and merge, HTML or not, that take a value: the input
 * is the first word that is not one of them. */
static int takes_value(const char *opt) {
  static const char *const with_value[] = {"-o",
                                           "-s",
                                           "-t",
                                           "-m",
                                           "--output",
                                           "--source-lang",
                                           "--target-lang",
                                           "--mt",
                                           "--mt-option",
                                           "--timeout",
                                           "--batch-size",
                                           "--engine-jobs",
                                           "--tags",
                                           "--aligner",
                                           "--align-model",
                                           "--model",
                                           "--dictionary",
                                           "--rule",
                                           "--symmetrize",
                                           "--srx",
                                           "--state",
                                           "--state-qualifier",
                                           "--report",
                                           "--translations",
                                           "--alignments",
                                           "--source-tokens",
                                           "--target-tokens",
                                           "--format",
                                           NULL};
  for (const char *const *w = with_value; *w != NULL; w++)
    if (strcmp(opt, *w) == 0)
      return 1;
  return 0;
}

int xmt_cli_is_html(int argc, char **argv) {
  const char *in = NULL;
  for (int i = 1; i < argc && in == NULL; i++) {
    if (strcmp(argv[i], "--") == 0) {
      in = i + 1 < argc ? argv[i + 1] : NULL;
      break;
    }
    if (argv[i][0] == '-' && argv[i][1] != '\0') {
      i += takes_value(argv[i]);
      continue;
    }
    in = argv[i];
  }
  if (in == NULL)
    return 0;
  /* The library's table decides, standard input too (read ahead). */
  xmt_filter *f = xmt_filter_new();
  enum xmt_doc_format format = XMT_FORMAT_XLIFF;
  if (f != NULL)
    xmt_filter_detect_format(f, in, &format);
  xmt_filter_free(f);
  return format == XMT_FORMAT_HTML;
}

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: xliffmt extract PAGE.html [-o OUT.xlf] [-s SRC] [-t TGT]\n"
      "                       [--skip-pre] [--skip-code]\n"
      "                       [--encoding-errors=fail|replace] [--quiet]\n\n"
      "Writes the translatable text of an HTML page as an XLIFF 1.2\n"
      "document for a CAT tool or an MT run: one trans-unit per block of\n"
      "text or translatable attribute, inline elements as codes. Put the\n"
      "translation back with 'xliffmt merge PAGE.html OUT.xlf'.\n\n"
      "  -o OUT       output file (default: standard output)\n"
      "  -s SRC       source language (default: <html lang>)\n"
      "  -t TGT       target language written in the XLIFF\n"
      "  --skip-pre   leave <pre> elements untranslated\n"
      "  --skip-code  leave <code> elements untranslated\n"
      "  --encoding-errors=replace  read bytes that are not UTF-8 in a\n"
      "               UTF-8 page as U+FFFD, with a warning (default:\n"
      "               fail, naming the first)\n"
      "  -q, --quiet  no summary on standard error\n\n"
      "XLIFF input is extracted to segments instead: see\n"
      "'xliffmt extract IN.xlf --help' and xliffmt-extract(1).\n");
}

int xmt_cli_html_parse(int argc, char **argv, const char *command, int npaths,
                       void (*print_usage)(FILE *),
                       struct xmt_cli_html_options *o) {
  static const struct option options[] = {
      {"output", required_argument, NULL, 'o'},
      {"source-lang", required_argument, NULL, 's'},
      {"target-lang", required_argument, NULL, 't'},
      {"skip-pre", no_argument, NULL, OPT_SKIP_PRE},
      {"skip-code", no_argument, NULL, OPT_SKIP_CODE},
      {"encoding-errors", required_argument, NULL, OPT_ENCODING_ERRORS},
      {"quiet", no_argument, NULL, 'q'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  /* Only extract writes a source language into its XLIFF. */
  int takes_source = npaths == 1;
  memset(o, 0, sizeof *o);
  o->out = "-";
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, takes_source ? "o:s:t:qh" : "o:t:qh",
                          options, NULL)) != -1) {
    switch (c) {
    case 'o':
      o->out = optarg;
      break;
    case 's':
      if (!takes_source) {
        xmt_cli_usage_error(command, "unknown option --source-lang");
        return EXIT_BAD_INPUT;
      }
      o->src = optarg;
      break;
    case 't':
      o->tgt = optarg;
      break;
    case OPT_SKIP_PRE:
      o->flags |= XMT_FILTER_HTML_SKIP_PRE;
      break;
    case OPT_SKIP_CODE:
      o->flags |= XMT_FILTER_HTML_SKIP_CODE;
      break;
    case OPT_ENCODING_ERRORS:
      if (xmt_cli_parse_encoding_errors(optarg, &o->flags) != 0) {
        xmt_cli_usage_error(command, "--encoding-errors takes fail or replace");
        return EXIT_BAD_INPUT;
      }
      break;
    case 'q':
      o->quiet = 1;
      break;
    case 'h':
      print_usage(stdout);
      return EXIT_OK;
    default:
      xmt_cli_usage_error(command, "unknown option");
      return EXIT_BAD_INPUT;
    }
  }
  if (optind + npaths != argc) {
    xmt_cli_usage_error(command, npaths == 1
                                     ? (optind == argc
                                            ? "missing input file"
                                            : "exactly one input file expected")
                                     : "give the page and its XLIFF: "
                                       "merge PAGE.html PAGE.xlf");
    return EXIT_BAD_INPUT;
  }
  return -1;
}

void xmt_cli_warn_invalid_bytes(const char *page, size_t n) {
  if (n > 0)
    xmt_cli_say("xliffmt: warning: %s: %zu byte%s not UTF-8, read as "
                "U+FFFD\n",
                page, n, n == 1 ? " is" : "s are");
}

static int extract_html(int argc, char **argv) {
  struct xmt_cli_html_options o;
  int rc = xmt_cli_html_parse(argc, argv, "extract ", 1, usage, &o);
  if (rc >= 0)
    return rc;
  const char *out = o.out, *src = o.src, *tgt = o.tgt;
  unsigned flags = o.flags;
  int quiet = o.quiet;
  const char *in = argv[optind];
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  struct xmt_html_stats stats;
  xmt_status st = xmt_filter_set_flags(f, flags);
  if (st == XMT_OK)
    st = xmt_filter_set_languages(f, src, tgt);
  if (st == XMT_OK)
    st = xmt_html_extract_file(f, in, out, &stats);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  else
    xmt_cli_warn_invalid_bytes(in, stats.invalid_bytes);
  if (st == XMT_OK && !quiet)
    fprintf(stderr,
            "xliffmt: %s: %zu units (%zu attribute values), %zu inline codes "
            "extracted\n",
            in, stats.units, stats.attribute_units, stats.codes);
  xmt_filter_free(f);
  return xmt_cli_exit_status(st);
}

int xmt_cli_extract(int argc, char **argv) {
  if (!xmt_cli_is_html(argc, argv)) {
    int help = 0;
    for (int i = 1; i < argc; i++)
      help |= strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
    if (help) /* no HTML page named: both forms */
      usage(stdout);
    return xmt_cli_extract_segments(argc, argv);
  }
  return extract_html(argc, argv);
}
