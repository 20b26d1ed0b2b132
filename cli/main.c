/* main.c -- xliffmt: dispatch to the commands, --help, --version. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} commands[] = {
    {"translate", xmt_cli_translate,
     "translate a document (XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF, XLIFF\n"
     "             2.0-2.2 or HTML) with an MT backend"},
    {"batch", xmt_cli_batch,
     "translate many documents into an output tree, several at once"},
    {"check", xmt_cli_check,
     "parse a document (XLIFF or HTML) and report its contents and\n"
     "             problems"},
    {"project", xmt_cli_project,
     "put the tags of tagged source lines into their translations"},
    {"evaluate", xmt_cli_evaluate,
     "score tag placement against reference tagged segments"},
    {"segment", xmt_cli_segment, "split text or XLIFF units into sentences"},
    {"align", xmt_cli_align, "word-align a parallel corpus (fast_align-style)"},
    {"extract", xmt_cli_extract,
     "write text for translation elsewhere: an HTML page as XLIFF,\n"
     "             an XLIFF document's segments as TSV or JSON lines"},
    {"merge", xmt_cli_merge,
     "put translations back: XLIFF into its HTML page, TSV or JSON\n"
     "             lines into their XLIFF document"},
    {"report", xmt_cli_report_command,
     "write a review page (or any XSLT report) of an XLIFF document\n"
     "             or HTML page"},
    {"serve", xmt_cli_serve,
     "serve MT over HTTP to CAT tools: the Apertium APy, DeepL and\n"
     "             LibreTranslate APIs, tags put back"},
};

static void usage(FILE *fp) {
  fprintf(fp, "Usage: xliffmt [--help] [--version] [--list-backends]\n"
              "       xliffmt COMMAND [OPTIONS]\n\n"
              "Machine-translate documents without breaking their markup:\n"
              "XLIFF 1.0-1.2 (SDLXLIFF, MQXLIFF too), XLIFF 2.0-2.2 and HTML,\n"
              "named as you like (the content decides), or - for standard\n"
              "input.\n\n"
              "Commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(fp, "\nRun 'xliffmt COMMAND --help' for a command's options; "
              "see xliffmt(1).\n");
}

void xmt_cli_report(const struct xmt_error *err) {
  char line_col[48] = "";
  if (err->file != NULL && err->line > 0 && err->column > 0)
    snprintf(line_col, sizeof line_col, ":%lu:%lu", err->line, err->column);
  else if (err->file != NULL && err->line > 0)
    snprintf(line_col, sizeof line_col, ":%lu", err->line);
  xmt_cli_say("xliffmt: %s%s%s%s%s%s%s\n", err->file != NULL ? err->file : "",
              line_col, err->file != NULL ? ": " : "",
              err->message != NULL ? err->message : xmt_strerror(err->status),
              err->unit_id != NULL ? " (unit " : "",
              err->unit_id != NULL ? err->unit_id : "",
              err->unit_id != NULL ? ")" : "");
}

void xmt_cli_usage_error(const char *command, const char *message) {
  xmt_cli_say("xliffmt: %s\n", message);
  xmt_cli_say("Try 'xliffmt %s--help'.\n", command != NULL ? command : "");
}

int xmt_cli_exit_status(xmt_status status) {
  switch (status) {
  case XMT_OK:
    return EXIT_OK;
  case XMT_ERR_IO:
  case XMT_ERR_USAGE:
  case XMT_ERR_XML:
  case XMT_ERR_NOT_XLIFF:
  case XMT_ERR_ENCODING:
  case XMT_ERR_INLINE:
  case XMT_ERR_BACKEND:
  case XMT_ERR_ABORTED:
  case XMT_ERR_FORMAT:
    return EXIT_BAD_INPUT;
  case XMT_ERR_PARTIAL:
    return EXIT_PARTIAL;
  case XMT_ERR_NOMEM:
  case XMT_ERR_INTERNAL:
  case XMT_ERR_WRITE:
    return EXIT_INTERNAL;
  }
  return EXIT_INTERNAL;
}

/* A command whose standard output could not be written (a full disk,
 * a closed pipe, /dev/full) has not done its job, whatever it says. */
static int stdout_written(int rc) {
  if ((fflush(stdout) == 0 && !ferror(stdout)) ||
      (rc != EXIT_OK && rc != EXIT_PARTIAL)) /* a failure said already */
    return rc;
  xmt_cli_say("xliffmt: standard output: cannot write: %s\n",
              strerror(errno != 0 ? errno : EIO));
  return EXIT_INTERNAL;
}

int main(int argc, char **argv) {
  /* Past a file size limit (ulimit -f) a write fails with EFBIG, told
   * like a full disk and its temporary file removed, instead of the
   * process killed without a word by SIGXFSZ. */
  signal(SIGXFSZ, SIG_IGN);
  /* So is a closed pipe (EPIPE): exit status 2 with a message, and the
   * --report still written, instead of death by SIGPIPE. Engines get
   * SIGPIPE's default back (base/spawn.c). */
  signal(SIGPIPE, SIG_IGN);
  if (argc < 2) {
    usage(stderr);
    return EXIT_BAD_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return EXIT_OK;
  }
  if (strcmp(argv[1], "--list-backends") == 0) {
    size_t n;
    const struct xmt_backend_info *b = xmt_backend_list(&n);
    for (size_t i = 0; i < n; i++) {
      char name[64];
      snprintf(name, sizeof name, "%s%s%s", b[i].name,
               b[i].spec != NULL ? ":" : "",
               b[i].spec != NULL ? b[i].spec : "");
      printf("%-16s %s\n", name, b[i].description);
    }
    return EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("xliffmt %s\n", xmt_version());
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(argv[1], commands[i].name) == 0)
      return stdout_written(commands[i].run(argc - 1, argv + 1));
  char msg[128];
  snprintf(msg, sizeof msg, "unknown command '%.64s'", argv[1]);
  xmt_cli_usage_error(NULL, msg);
  return EXIT_BAD_INPUT;
}
