/* extract.c -- xliffmt extract: the units of a document that has units
 * of its own (HTML, Word, OpenDocument) out to XLIFF 1.2, an XLIFF
 * document's segments out to TSV or JSON lines (offline.c); the
 * library's format table tells which. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct xmt_cli_option extract_options[] = {
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"source-lang", 's', "SRC",
     "source language (default: the document's,\nor <html lang>)"},
    {"target-lang", 't', "TGT", "target language written in the XLIFF"},
    {"format", XMT_OPT_FORMAT, "tsv|jsonl",
     "XLIFF: how segments are written (default\ntsv)"},
    {"skip-pre", XMT_OPT_SKIP_PRE, NULL,
     "HTML: leave <pre> elements untranslated"},
    {"skip-code", XMT_OPT_SKIP_CODE, NULL,
     "HTML: leave <code> elements untranslated"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command extract = {
    "extract ",
    "Usage: xliffmt extract PAGE.html [-o OUT.xlf] [-s SRC] [-t TGT]\n"
    "                       [--skip-pre] [--skip-code]\n"
    "                       [--encoding-errors=fail|replace] [--quiet]\n"
    "       xliffmt extract DOC.docx|DOC.odt -s SRC [-o OUT.xlf] [-t TGT]\n"
    "       xliffmt extract IN.xlf [-o SEGMENTS] [--format tsv|jsonl]\n"
    "                       [-s SRC] [--tags MODE] [--srx FILE]\n"
    "                       [--no-segment] [--resegment]\n\n"
    "An HTML page (its content decides, not its name; - is standard\n"
    "input) is written as an XLIFF 1.2 document for a CAT tool or an MT\n"
    "run: one trans-unit per block of text or translatable attribute,\n"
    "inline elements as codes. Put the translation back with\n"
    "'xliffmt merge PAGE.html OUT.xlf'. A Word document or an OpenDocument\n"
    "text is written alike (its units as translate reads them, the\n"
    "format's ids and codes), and put back with 'xliffmt merge DOC "
    "OUT.xlf'.\n\n"
    "An XLIFF 1.0-1.2 (SDLXLIFF, MQXLIFF too) or XLIFF 2.0-2.2 document\n"
    "has the segments that need translation written, one per line with\n"
    "its id: 'ID<TAB>TEXT' (tab, newline, carriage return and backslash\n"
    "escaped as \\t \\n \\r \\\\) or JSON lines {\"id\":...,\"text\":...}.\n"
    "Translate the text anywhere and put it back with 'xliffmt merge'.\n"
    "The segmentation and tag options are translate's. See\n"
    "xliffmt-extract(1).\n\n",
    XMT_CLI_GROUPS(extract_options, xmt_cli_run_options, xmt_cli_report_option,
                   xmt_cli_tail_options),
    NULL, NULL};

/* What any document with units takes; a format takes besides the
 * options of its own (xmt_cli_units_or_segments). */
static const int units_options[] = {'o', 's', 't', 'q'};

/* The options of a format's own, by the filter flag each sets; segments
 * 1: a document of segments takes it too (translate's run takes it of any
 * document). */
static const struct {
  int code;
  unsigned flag;
  int segments;
} format_options[] = {
    {XMT_OPT_SKIP_PRE, XMT_FILTER_HTML_SKIP_PRE, 0},
    {XMT_OPT_SKIP_CODE, XMT_FILTER_HTML_SKIP_CODE, 0},
    {XMT_OPT_ENCODING_ERRORS, XMT_FILTER_HTML_REPLACE_INVALID, 1}};
#define NFORMAT_OPTIONS (sizeof format_options / sizeof *format_options)

/* What a document of format is called where an option does not apply:
 * a format with options of its own by its noun ("an HTML page"), any
 * other by its description. */
static void format_what(enum xmt_doc_format format, char *what, size_t cap) {
  const char *noun = xmt_format_noun(format);
  if (xmt_format_flags(format) != 0 && noun != NULL) {
    /* "an" before a vowel, or a letter said with one in an acronym */
    int an = strchr("AEIOUaeiou", noun[0]) != NULL ||
             (strchr("FHLMNRSX", noun[0]) != NULL && noun[1] >= 'A' &&
              noun[1] <= 'Z');
    snprintf(what, cap, "%s %s", an ? "an" : "a", noun);
    return;
  }
  size_t n;
  const struct xmt_format_info *list = xmt_format_list(&n);
  const char *desc = "?";
  for (size_t i = 0; i < n; i++)
    if (list[i].format == format)
      desc = list[i].description;
  snprintf(what, cap, "a document in %s", desc);
}

int xmt_cli_units_or_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                              const struct xmt_cli_command *cmd, const char *in,
                              const int *doc_takes, size_t ndoc_takes,
                              enum xmt_doc_format *format) {
  if (xmt_filter_detect_format(f, in, format) != XMT_OK) {
    xmt_cli_report(xmt_filter_error(f));
    return -1;
  }
  int takes[16], refused[NFORMAT_OPTIONS];
  size_t ntakes = 0, nrefused = 0;
  for (; ntakes < ndoc_takes && ntakes < 16 - NFORMAT_OPTIONS; ntakes++)
    takes[ntakes] = doc_takes[ntakes];
  unsigned flags = xmt_format_flags(*format);
  for (size_t i = 0; i < NFORMAT_OPTIONS; i++) {
    if (flags & format_options[i].flag)
      takes[ntakes++] = format_options[i].code;
    else if (!format_options[i].segments)
      refused[nrefused++] = format_options[i].code;
  }
  if (!xmt_format_has_units(*format))
    return xmt_cli_refuse_options(s, cmd, refused, nrefused, 0,
                                  "an XLIFF document")
               ? -1
               : 0;
  char what[160];
  format_what(*format, what, sizeof what);
  return xmt_cli_refuse_options(s, cmd, takes, ntakes, 1, what) ? -1 : 1;
}

void xmt_cli_warn_invalid_bytes(const char *page, size_t n) {
  if (n > 0)
    xmt_cli_say("xliffmt: warning: %s: %zu byte%s not UTF-8, read as "
                "U+FFFD\n",
                page, n, n == 1 ? " is" : "s are");
}

static int extract_units(xmt_filter *f, const struct xmt_cli_settings *s,
                         const char *in, enum xmt_doc_format format) {
  struct xmt_html_stats stats;
  xmt_status st = xmt_filter_set_flags(f, s->flags);
  if (st == XMT_OK)
    st = xmt_filter_set_languages(f, s->src, s->tgt);
  if (st == XMT_OK)
    st = xmt_filter_extract_units_file(f, in, s->out, &stats);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  else
    xmt_cli_warn_invalid_bytes(in, stats.invalid_bytes);
  if (st == XMT_OK && !s->quiet && xmt_format_counts_attributes(format))
    xmt_cli_say(
        "xliffmt: %s: %zu units (%zu attribute values), %zu inline codes "
        "extracted\n",
        in, stats.units, stats.attribute_units, stats.codes);
  else if (st == XMT_OK && !s->quiet)
    xmt_cli_say("xliffmt: %s: %zu units, %zu inline codes extracted\n", in,
                stats.units, stats.codes);
  return xmt_cli_exit_status(st);
}

int xmt_cli_extract(int argc, char **argv) {
  struct xmt_cli_settings s;
  int rc = xmt_cli_settings_parse(&s, &extract, argc, argv, 1);
  if (rc >= 0)
    return rc;
  const char *in = argv[optind];
  if ((rc = xmt_cli_run_files_check(&s, in)) != EXIT_OK)
    return rc;
  xmt_filter *f = xmt_cli_filter_new();
  if (f == NULL)
    return EXIT_INTERNAL;
  enum xmt_doc_format format;
  int units = xmt_cli_units_or_segments(
      f, &s, &extract, in, units_options,
      sizeof units_options / sizeof *units_options, &format);
  rc = units < 0 ? EXIT_BAD_INPUT
       : units   ? extract_units(f, &s, in, format)
                 : xmt_cli_extract_segments(f, &s, in);
  xmt_filter_free(f);
  return rc;
}
