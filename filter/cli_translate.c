/* cli_translate.c -- xliffmt translate. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: xliffmt translate IN [-o OUT] [-s SRC] [-t TGT] --mt BACKEND\n"
      "                         [--overwrite] [--alt-trans] [--state VALUE]\n"
      "                         [--state-qualifier VALUE] [--quiet]\n\n"
      "Translates every translatable segment of the XLIFF 1.2 document IN\n"
      "and writes the document with targets to OUT (default: standard\n"
      "output). Nothing else in the document changes.\n\n"
      "  -o, --output OUT          output file (written whole or not at all)\n"
      "  -s, --source-lang SRC     source language (default: the file's)\n"
      "  -t, --target-lang TGT     target language (default: the file's)\n"
      "  -m, --mt BACKEND[:SPEC]   MT backend: identity, pseudo,\n"
      "                            apertium:PAIR, cmd:COMMAND, http:URL,\n"
      "                            plugin:PATH.so\n"
      "      --mt-option KEY=VALUE backend option (repeatable)\n"
      "      --timeout SECONDS     per-batch MT timeout (default: the\n"
      "                            backend's)\n"
      "      --overwrite           replace existing non-empty targets\n"
      "      --alt-trans           write <alt-trans> proposals, not targets\n"
      "      --state VALUE         state of written targets, or none\n"
      "                            (default needs-review-translation)\n"
      "      --state-qualifier V   state-qualifier, or none (default\n"
      "                            mt-suggestion)\n"
      "  -q, --quiet               no summary on stderr\n"
      "  -h, --help                this help\n");
}

enum {
  OPT_OVERWRITE = 256,
  OPT_ALT_TRANS,
  OPT_STATE,
  OPT_QUALIFIER,
  OPT_MT_OPTION,
  OPT_TIMEOUT
};

/* Seconds, positive, at most a day. */
static int parse_timeout(const char *arg, unsigned *ms) {
  char *end;
  double seconds = strtod(arg, &end);
  if (end == arg || *end != '\0' || !(seconds > 0) || seconds > 86400)
    return 0;
  *ms = (unsigned)(seconds * 1000 + 0.5);
  return 1;
}

int xmt_cli_translate(int argc, char **argv) {
  static const struct option options[] = {
      {"output", required_argument, NULL, 'o'},
      {"source-lang", required_argument, NULL, 's'},
      {"target-lang", required_argument, NULL, 't'},
      {"mt", required_argument, NULL, 'm'},
      {"mt-option", required_argument, NULL, OPT_MT_OPTION},
      {"timeout", required_argument, NULL, OPT_TIMEOUT},
      {"overwrite", no_argument, NULL, OPT_OVERWRITE},
      {"alt-trans", no_argument, NULL, OPT_ALT_TRANS},
      {"state", required_argument, NULL, OPT_STATE},
      {"state-qualifier", required_argument, NULL, OPT_QUALIFIER},
      {"quiet", no_argument, NULL, 'q'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *out = "-", *src = NULL, *tgt = NULL, *mt = NULL;
  const char *state = "needs-review-translation", *qualifier = "mt-suggestion";
  unsigned flags = 0, timeout_ms = 0;
  const char *mt_options[32];
  size_t nmt_options = 0;
  int quiet = 0, c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "o:s:t:m:qh", options, NULL)) != -1) {
    switch (c) {
    case 'o':
      out = optarg;
      break;
    case 's':
      src = optarg;
      break;
    case 't':
      tgt = optarg;
      break;
    case 'm':
      mt = optarg;
      break;
    case OPT_MT_OPTION:
      if (nmt_options == sizeof mt_options / sizeof *mt_options) {
        xmt_cli_usage_error("translate ", "too many --mt-option");
        return EXIT_BAD_INPUT;
      }
      mt_options[nmt_options++] = optarg;
      break;
    case OPT_TIMEOUT:
      if (!parse_timeout(optarg, &timeout_ms)) {
        xmt_cli_usage_error("translate ",
                            "--timeout takes a number of seconds");
        return EXIT_BAD_INPUT;
      }
      break;
    case OPT_OVERWRITE:
      flags |= XMT_FILTER_OVERWRITE;
      break;
    case OPT_ALT_TRANS:
      flags |= XMT_FILTER_ALT_TRANS;
      break;
    case OPT_STATE:
      state = strcmp(optarg, "none") == 0 ? NULL : optarg;
      break;
    case OPT_QUALIFIER:
      qualifier = strcmp(optarg, "none") == 0 ? NULL : optarg;
      break;
    case 'q':
      quiet = 1;
      break;
    case 'h':
      usage(stdout);
      return EXIT_OK;
    default:
      xmt_cli_usage_error("translate ", "bad option");
      return EXIT_BAD_INPUT;
    }
  }
  if (optind + 1 != argc) {
    xmt_cli_usage_error("translate ", optind == argc
                                          ? "missing input file"
                                          : "exactly one input file expected");
    return EXIT_BAD_INPUT;
  }
  if (mt == NULL) {
    xmt_cli_usage_error("translate ",
                        "missing --mt BACKEND (e.g. --mt identity)");
    return EXIT_BAD_INPUT;
  }
  const char *in = argv[optind];
  const char *colon = strchr(mt, ':');
  char name[64];
  snprintf(name, sizeof name, "%.*s",
           (int)(colon != NULL ? (size_t)(colon - mt) : strlen(mt)), mt);
  const struct xmt_backend *backend = xmt_backend_builtin(name);
  if (backend == NULL) {
    char msg[192];
    snprintf(msg, sizeof msg,
             "unknown MT backend '%.64s' (known: identity, pseudo, "
             "apertium, cmd, http, plugin)",
             name);
    xmt_cli_usage_error("translate ", msg);
    return EXIT_BAD_INPUT;
  }
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  xmt_status st = xmt_filter_set_languages(f, src, tgt);
  if (st == XMT_OK)
    st = xmt_filter_set_backend(f, backend, NULL,
                                colon != NULL ? colon + 1 : NULL);
  for (size_t i = 0; st == XMT_OK && i < nmt_options; i++)
    st = xmt_filter_add_backend_option(f, mt_options[i]);
  xmt_filter_set_timeout(f, timeout_ms);
  if (st == XMT_OK)
    st = xmt_filter_set_target_state(f, state, qualifier);
  if (st == XMT_OK) {
    xmt_filter_set_flags(f, flags);
    st = xmt_filter_translate_file(f, in, out);
  }
  if (st != XMT_OK) {
    xmt_cli_report(xmt_filter_error(f));
  } else if (!quiet) {
    const struct xmt_filter_stats *s = xmt_filter_stats(f);
    fprintf(stderr,
            "xliffmt: %s: %zu units, %zu translated, %zu left as they were, "
            "%zu segments sent to %s\n",
            in, s->units, s->translated_units, s->skipped_units, s->segments,
            backend->name);
  }
  int rc = xmt_cli_exit_status(st);
  xmt_filter_free(f);
  return rc;
}
