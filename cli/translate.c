/* translate.c -- xliffmt translate. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct xmt_cli_command translate = {
    "translate ",
    "Usage: xliffmt translate IN [-o OUT] [-s SRC] [-t TGT] --mt BACKEND\n"
    "                         [OPTIONS]\n\n"
    "Translates every translatable segment of IN, an XLIFF 1.0-1.2,\n"
    "SDLXLIFF, MQXLIFF, XLIFF 2.0-2.2, HTML, Word (.docx) or\n"
    "OpenDocument Text (.odt) document (its content decides, not its\n"
    "name; - is standard input), and writes it with targets to OUT\n"
    "(default: standard output). Nothing else in the document changes.\n\n",
    XMT_CLI_GROUPS(xmt_cli_output_option, xmt_cli_lang_options,
                   xmt_cli_mt_options, xmt_cli_run_options,
                   xmt_cli_report_option, xmt_cli_tail_options),
    xmt_cli_backends_help,
    "Exit status: 0 done, 1 bad input or MT failure, 2 internal error,\n"
    "3 done but some segments not translated (listed on stderr).\n"};

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
    char msg[256];
    int k =
        snprintf(msg, sizeof msg, "unknown MT backend '%.64s' (known:", name);
    size_t n;
    const struct xmt_backend_info *b = xmt_backend_list(&n);
    for (size_t i = 0; i < n && k > 0 && (size_t)k < sizeof msg; i++)
      k += snprintf(msg + k, sizeof msg - (size_t)k, "%s %s", i > 0 ? "," : "",
                    b[i].name);
    if (k > 0 && (size_t)k < sizeof msg)
      snprintf(msg + k, sizeof msg - (size_t)k, ")");
    xmt_cli_usage_error(s->command, msg);
  }
  *spec = colon != NULL ? colon + 1 : NULL;
  return backend;
}

int xmt_cli_translate_one(const struct xmt_cli_settings *s,
                          const struct xmt_backend *backend, const char *spec,
                          xmt_filter *configured, const char *in,
                          struct xmt_filter_stats *stats) {
  int rc = xmt_cli_run_files_check(s, in);
  if (rc != EXIT_OK)
    return rc;
  xmt_filter *f = configured != NULL ? configured : xmt_cli_filter_new();
  if (f == NULL)
    return EXIT_INTERNAL;
  struct xmt_cli_session ses;
  xmt_cli_session_begin(&ses, f, in, s->quiet);
  xmt_status st =
      configured != NULL ? XMT_OK : xmt_cli_configure(f, s, backend, spec);
  if (st == XMT_OK)
    st = xmt_filter_translate_file(f, in, s->out);
  rc = xmt_cli_session_end(&ses, f, st, s, backend->name);
  if (stats != NULL)
    *stats = *xmt_filter_stats(f);
  if (configured == NULL)
    xmt_filter_free(f);
  return rc;
}

int xmt_cli_translate(int argc, char **argv) {
  struct xmt_cli_settings s;
  int rc = xmt_cli_settings_parse(&s, &translate, argc, argv, 1);
  if (rc >= 0)
    return rc;
  const char *spec;
  const struct xmt_backend *backend = xmt_cli_backend(&s, &spec);
  if (backend == NULL)
    return EXIT_BAD_INPUT;
  return xmt_cli_translate_one(&s, backend, spec, NULL, argv[optind], NULL);
}
