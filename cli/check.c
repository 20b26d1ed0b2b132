/* check.c -- xliffmt check: a report of a document, as text or JSON. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct xmt_cli_option check_options[] = {
    {"json", 'j', NULL, "one JSON object on standard output"},
    {"quiet", 'q', NULL, "print only problems (text mode)"},
    {"strict", XMT_OPT_STRICT, NULL,
     "validate XLIFF 1.2 against its strict schema\n"
     "(default: the transitional one)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command check = {
    "check ",
    "Usage: xliffmt check IN [--json] [--quiet] [--strict] [-s SRC] "
    "[-t TGT]\n\n"
    "Parses IN (XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF, XLIFF 2.0-2.2 or\n"
    "HTML, its content decides; - is standard input) and reports units,\n"
    "segments, words, inline codes by element, and the problems found.\n"
    "An XLIFF 1.2 document is validated against the OASIS schema of\n"
    "XLIFF 1.2, an XLIFF 2 one against those of XLIFF 2.0 and its\n"
    "modules (shipped; nothing is fetched), and an XLIFF 2 document\n"
    "against the rules its schema cannot state too (ids unique per\n"
    "scope, <sc>/<ec> that find each other, dataRefs that name a\n"
    "<data>). An HTML page is checked as the XLIFF document\n"
    "'xliffmt extract' writes of it.\n\n",
    XMT_CLI_GROUPS(check_options, xmt_cli_page_lang_options), NULL, NULL};

/* Problems are kept until the end for JSON, printed at once for text. */
struct problems {
  int json;
  int quiet;
  char **lines; /* JSON objects */
  size_t n, cap;
};

static int on_problem(void *user, const struct xmt_problem *p) {
  struct problems *ps = user;
  const char *sev = p->severity == XMT_ERROR ? "error" : "warning";
  if (!ps->json) {
    char where[48];
    if (p->column > 0)
      snprintf(where, sizeof where, ":%lu:%lu", p->line, p->column);
    else
      snprintf(where, sizeof where, ":%lu", p->line);
    xmt_cli_say("xliffmt: %s%s: %s: %s%s%s%s\n", p->file, where, sev,
                p->message, p->unit_id != NULL ? " (unit " : "",
                p->unit_id != NULL ? p->unit_id : "",
                p->unit_id != NULL ? ")" : "");
    return 0;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  if (mem == NULL)
    return 1;
  fprintf(mem,
          "{\"severity\":\"%s\",\"line\":%lu,\"column\":%lu,\"unit\":", sev,
          p->line, p->column);
  if (p->unit_id != NULL)
    xmt_cli_json_string(mem, p->unit_id);
  else
    fputs("null", mem);
  fputs(",\"message\":", mem);
  xmt_cli_json_string(mem, p->message);
  fputc('}', mem);
  fclose(mem);
  if (ps->n == ps->cap) {
    char **lines =
        xmt_grow_array(ps->lines, &ps->cap, ps->n + 1, sizeof *lines);
    if (lines == NULL) {
      free(buf);
      return 1;
    }
    ps->lines = lines;
  }
  ps->lines[ps->n++] = buf;
  return 0;
}

static void print_json(const char *path, const struct xmt_check_report *r,
                       const struct problems *ps) {
  printf("{\"file\":");
  xmt_cli_json_string(stdout, path);
  printf(",\"encoding\":");
  xmt_cli_json_string(stdout, r->encoding);
  printf(",\"version\":");
  xmt_cli_json_string(stdout, r->version);
  printf(",\"files\":%zu,\"units\":%zu,\"translatable_units\":%zu,"
         "\"units_with_target\":%zu,\"segments\":%zu,\"words\":%zu,"
         "\"codes\":{",
         r->files, r->units, r->translatable_units, r->units_with_target,
         r->segments, r->words);
  for (int k = 0; k < XMT_CODE_KINDS; k++)
    printf("%s\"%s\":%zu", k ? "," : "",
           xmt_code_kind_name((enum xmt_code_kind)k), r->codes[k]);
  printf("},\"isolated_codes\":%zu,\"errors\":%zu,\"warnings\":%zu,"
         "\"problems\":[",
         r->isolated_codes, r->errors, r->warnings);
  for (size_t i = 0; i < ps->n; i++)
    printf("%s%s", i ? "," : "", ps->lines[i]);
  printf("]}\n");
}

static void print_text(const char *path, const struct xmt_check_report *r,
                       enum xmt_doc_format format) {
  const char *noun = xmt_format_noun(format);
  xmt_cli_print("%s: %s%sXLIFF %s, %s\n", path, noun != NULL ? noun : "",
                noun != NULL ? ", as " : "",
                r->version != NULL ? r->version : "1.2", r->encoding);
  printf("  files              %zu\n", r->files);
  printf("  units              %zu (%zu translatable, %zu with target)\n",
         r->units, r->translatable_units, r->units_with_target);
  printf("  segments           %zu\n", r->segments);
  printf("  words              %zu\n", r->words);
  printf("  inline codes      ");
  for (int k = 0; k < XMT_CODE_KINDS; k++)
    printf(" %s=%zu", xmt_code_kind_name((enum xmt_code_kind)k), r->codes[k]);
  if (r->isolated_codes > 0)
    printf("\n  isolated codes     %zu (partner in another segment or unit)",
           r->isolated_codes);
  printf("\n  problems           %zu errors, %zu warnings\n", r->errors,
         r->warnings);
}

struct check_args {
  struct problems ps;
  int strict;
  const char *src, *tgt;
};

static int take(void *user, int c, const char *arg) {
  struct check_args *a = user;
  if (c == 'j')
    a->ps.json = 1;
  else if (c == 'q')
    a->ps.quiet = 1;
  else if (c == 's')
    a->src = arg;
  else if (c == 't')
    a->tgt = arg;
  else if (c == XMT_OPT_STRICT)
    a->strict = 1;
  return 1;
}

/* Prints the report; returns the exit status. */
static int print(const char *path, xmt_filter *f, xmt_status st,
                 struct xmt_check_report *report, struct problems *ps,
                 enum xmt_doc_format format) {
  int rc = EXIT_OK;
  if (st != XMT_OK) {
    const struct xmt_error *err = xmt_filter_error(f);
    xmt_cli_report(err);
    rc = xmt_cli_exit_status(st);
    if (ps->json) {
      /* The fatal error is a problem too, for machines. */
      struct xmt_problem p = {XMT_ERROR,   path,         err->line,
                              err->column, err->unit_id, err->message};
      report->errors++;
      on_problem(ps, &p);
    }
  } else if (report->errors > 0) {
    rc = EXIT_BAD_INPUT;
  }
  if (ps->json)
    print_json(path, report, ps);
  else if (st == XMT_OK && !ps->quiet)
    print_text(path, report, format);
  return rc;
}

int xmt_cli_check(int argc, char **argv) {
  struct check_args a;
  memset(&a, 0, sizeof a);
  int rc = xmt_cli_parse(&check, argc, argv, take, &a);
  if (rc >= 0)
    return rc;
  if (!xmt_cli_operands(&check, argc, 1, "missing input file"))
    return EXIT_BAD_INPUT;
  struct problems ps = a.ps;
  const char *path = argv[optind];
  xmt_filter *f = xmt_cli_filter_new();
  if (f == NULL)
    return EXIT_INTERNAL;
  struct xmt_check_report report;
  memset(&report, 0, sizeof report);
  enum xmt_doc_format format = XMT_FORMAT_XLIFF;
  xmt_status st = xmt_filter_set_languages(f, a.src, a.tgt);
  if (st == XMT_OK && a.strict)
    st = xmt_filter_set_flags(f, XMT_FILTER_SCHEMA_STRICT);
  if (st == XMT_OK && !ps.json && !ps.quiet)
    xmt_filter_detect_format(f, path, &format); /* for the first line */
  if (st == XMT_OK)
    st = xmt_filter_check_file(f, path, &report, on_problem, &ps);
  rc = print(path, f, st, &report, &ps, format);
  for (size_t i = 0; i < ps.n; i++)
    free(ps.lines[i]);
  free(ps.lines);
  xmt_filter_free(f);
  return rc;
}
