/* translate.c -- xliffmt translate. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: xliffmt translate IN [-o OUT] [-s SRC] [-t TGT] --mt BACKEND\n"
      "                         [OPTIONS]\n\n"
      "Translates every translatable segment of the XLIFF 1.0, 1.1 or 1.2\n"
      "document (SDLXLIFF, MQXLIFF too) or HTML page IN and writes it with\n"
      "targets to OUT (default: standard output). Nothing else in the\n"
      "document changes.\n\n"
      "  -o, --output OUT          output file (written whole or not at all)\n"
      "  -s, --source-lang SRC     source language (default: the file's)\n"
      "  -t, --target-lang TGT     target language (default: the file's)\n"
      "  -m, --mt BACKEND[:SPEC]   MT backend: identity, pseudo,\n"
      "                            apertium:PAIR, cmd:COMMAND, http:URL,\n"
      "                            plugin:PATH.so\n"
      "      --mt-option KEY=VALUE backend option (repeatable)\n"
      "      --timeout SECONDS     per-batch MT timeout, retries included\n"
      "                            (default: the backend's)\n"
      "      --max-answer-size N   refuse an engine answer of more than N\n"
      "                            bytes (K, M, G: KiB...; default 16M)\n"
      "      --keep-going          go on asking an engine that failed 3\n"
      "                            batches in a row (default: stop asking)\n"
      "      --batch-size N        segments per MT call (default 64)\n"
      "      --engine-jobs N       engine processes or connections\n"
      "                            translating batches at once (default 1)\n"
      "      --tags MODE           project (default), mask or raw\n"
      "      --aligner WHICH       self (default), model:FILE or none\n"
      "      --align-model FILE    seed the self-trained aligner\n"
      "      --update-model        add the document's word links to the\n"
      "                            --align-model FILE (created if missing)\n"
      "      --model M             the aligner's model: bayes (Gibbs sampling\n"
      "                            of IBM1, HMM, fertility) or ibm2 (faster)\n"
      "      --dictionary D        prior word translations for the aligner:\n"
      "                            auto (default: the installed FreeDict and\n"
      "                            Apertium dictionaries of the languages),\n"
      "                            none, or a FreeDict, Apertium or TSV file;\n"
      "                            repeatable\n"
      "      --rule RULE           projection rule: minmax (default), score\n"
      "      --symmetrize NAME     grow-diag-final-and (default), intersect,\n"
      "                            union, grow-diag, grow-diag-final,\n"
      "                            forward, reverse\n"
      "      --probes WHEN         auto (default: when tags are projected)\n"
      "                            or off: send each tagged span and the\n"
      "                            words around each placeholder to the\n"
      "                            engine too, to anchor the tags where\n"
      "                            their translation is found\n"
      "      --srx FILE            segmentation rules (default: shipped)\n"
      "      --no-segment          translate units whole\n"
      "      --resegment           resegment units that have a seg-source\n"
      "      --seg-source          write the segments of units without one\n"
      "                            as <seg-source> and mrk targets (Tikal's\n"
      "                            -seg); default: one whole <target>\n"
      "      --overwrite           replace existing non-empty targets\n"
      "      --alt-trans           write <alt-trans> proposals, not targets\n"
      "      --approved            mark units given a target approved=\"yes\"\n"
      "      --keep-entities       keep a reference to an external entity in\n"
      "                            translatable text as written (default:\n"
      "                            stop, as its text would be lost)\n"
      "      --encoding-errors=replace  read bytes that are not UTF-8 in a\n"
      "                            UTF-8 HTML page as U+FFFD, with a warning\n"
      "                            (default: fail, naming the first)\n"
      "      --state VALUE         state of written targets, or none\n"
      "                            (default needs-review-translation)\n"
      "      --state-qualifier V   state-qualifier, or none (default\n"
      "                            mt-suggestion)\n"
      "      --cache sqlite:PATH   keep the engine's answers in a translation\n"
      "                            memory cache (created if missing) and\n"
      "                            send only what it does not know\n"
      "      --cache postgresql:CONNINFO\n"
      "                            the same in a PostgreSQL database that\n"
      "                            many machines share (postgresql: alone:\n"
      "                            the PG* environment)\n"
      "      --cache-max N         keep at most N entries (the least\n"
      "                            recently used go)\n"
      "      --report FILE         write a JSON summary of the run\n"
      "  -q, --quiet               no progress and no summary on stderr\n"
      "  -h, --help                this help\n\n"
      "Exit status: 0 done, 1 bad input or MT failure, 2 internal error,\n"
      "3 done but some segments not translated (listed on stderr).\n");
}

const struct xmt_backend *xmt_cli_backend(const struct xmt_cli_settings *s,
                                          const char **spec) {
  if (s->mt == NULL) {
    xmt_cli_usage_error(s->command,
                        "missing --mt BACKEND (e.g. --mt apertium:eng-spa)");
    return NULL;
  }
  const char *colon = strchr(s->mt, ':');
  char name[64];
  snprintf(name, sizeof name, "%.*s",
           (int)(colon != NULL ? (size_t)(colon - s->mt) : strlen(s->mt)),
           s->mt);
  const struct xmt_backend *backend = xmt_backend_builtin(name);
  if (backend == NULL) {
    char msg[192];
    snprintf(msg, sizeof msg,
             "unknown MT backend '%.64s' (known: identity, pseudo, "
             "apertium, cmd, http, plugin)",
             name);
    xmt_cli_usage_error(s->command, msg);
  }
  *spec = colon != NULL ? colon + 1 : NULL;
  return backend;
}

int xmt_cli_translate_one(const struct xmt_cli_settings *s,
                          const struct xmt_backend *backend, const char *spec,
                          xmt_filter *configured, const char *in,
                          struct xmt_filter_stats *stats) {
  if (xmt_cli_report_clashes(s, in))
    return EXIT_BAD_INPUT;
  xmt_filter *f = configured != NULL ? configured : xmt_filter_new();
  if (f == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  struct xmt_cli_session ses;
  xmt_cli_session_begin(&ses, f, in, s->quiet);
  xmt_status st =
      configured != NULL ? XMT_OK : xmt_cli_configure(f, s, backend, spec);
  if (st == XMT_OK)
    st = xmt_filter_translate_file(f, in, s->out);
  int rc = xmt_cli_session_end(&ses, f, st, s, backend->name);
  if (stats != NULL)
    *stats = *xmt_filter_stats(f);
  if (configured == NULL)
    xmt_filter_free(f);
  return rc;
}

int xmt_cli_translate(int argc, char **argv) {
  static const struct option options[] = {
      XMT_CLI_RUN_LONG_OPTIONS, XMT_CLI_MT_LONG_OPTIONS, {NULL, 0, NULL, 0}};
  struct xmt_cli_settings s;
  xmt_cli_settings_init(&s);
  s.command = "translate ";
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "o:s:t:m:qh", options, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return EXIT_OK;
    }
    if (!xmt_cli_take_option(&s, c, optarg))
      return EXIT_BAD_INPUT;
  }
  if (optind + 1 != argc) {
    xmt_cli_usage_error("translate ", optind == argc
                                          ? "missing input file"
                                          : "exactly one input file expected");
    return EXIT_BAD_INPUT;
  }
  const char *spec;
  const struct xmt_backend *backend = xmt_cli_backend(&s, &spec);
  if (backend == NULL)
    return EXIT_BAD_INPUT;
  return xmt_cli_translate_one(&s, backend, spec, NULL, argv[optind], NULL);
}
