/* merge.c -- xliffmt merge: a document with units of its own (HTML,
 * Word, OpenDocument) rebuilt from its translated XLIFF, or an XLIFF document
 * given the translations of its segments (offline.c); the library's format
 * table tells which. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static const struct xmt_cli_option merge_options[] = {
    {"output", 'o', "OUT", "output file (default: standard output)"},
    {"target-lang", 't', "TGT", "target language (default: the XLIFF's)"},
    {"translations", XMT_OPT_TRANSLATIONS, "FILE",
     "XLIFF: the segments' translations (TSV or\nJSON lines, by id)"},
    {"alignments", XMT_OPT_ALIGNMENTS, "FILE",
     "XLIFF: Pharaoh word alignments, a line\nper translation"},
    {"source-tokens", XMT_OPT_SOURCE_TOKENS, "FILE",
     "XLIFF: the tokens the alignments count,\na line per segment"},
    {"target-tokens", XMT_OPT_TARGET_TOKENS, "FILE",
     "XLIFF: the same for the translations"},
    {"skip-pre", XMT_OPT_SKIP_PRE, NULL, "HTML: as given to extract"},
    {"skip-code", XMT_OPT_SKIP_CODE, NULL, "HTML: as given to extract"},
    {NULL, 0, NULL, NULL}};

/* -s for an XLIFF document, in a group of its own: the page's XLIFF has
 * its source language. */
static const struct xmt_cli_option source_option[] = {
    {"source-lang", 's', "SRC", "XLIFF: source language (default: the file's)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command merge = {
    "merge ",
    "Usage: xliffmt merge PAGE.html PAGE.xlf [-o OUT.html] [-t TGT]\n"
    "                     [--skip-pre] [--skip-code]\n"
    "                     [--encoding-errors=fail|replace] [--quiet]\n"
    "       xliffmt merge DOC.docx|DOC.odt DOC.xlf [-o OUT] [-t TGT]\n"
    "       xliffmt merge IN.xlf --translations FILE [-o OUT]\n"
    "                     [--alignments FILE] [--source-tokens FILE\n"
    "                     --target-tokens FILE] [translate options]\n\n"
    "An HTML page (its content decides, not its name) is written with\n"
    "the targets of PAGE.xlf, as written by 'xliffmt extract PAGE.html'\n"
    "and translated since, in place of its text; everything else is\n"
    "copied byte for byte, and <html lang> becomes the target language.\n"
    "A unit without a target keeps its source text and is reported; the\n"
    "exit status is then 3. A Word document or an OpenDocument text is\n"
    "written alike: a copy of the package with the targets of the XLIFF\n"
    "'xliffmt extract' wrote of it, as 'xliffmt translate' would write it.\n\n"
    "An XLIFF 1.0-1.2 (SDLXLIFF, MQXLIFF too) or XLIFF 2.0-2.2 document\n"
    "is written with the translations of FILE (TSV or JSON lines, by\n"
    "segment id, as 'xliffmt extract' writes them) as targets, the\n"
    "inline codes projected. Segments without a translation are reported\n"
    "and the exit status is 3. The segmentation, tag and target options\n"
    "are translate's. See xliffmt-merge(1).\n\n",
    XMT_CLI_GROUPS(merge_options, source_option, xmt_cli_run_options,
                   xmt_cli_report_option, xmt_cli_tail_options),
    NULL, NULL};

/* What any document with units takes; a format takes besides the
 * options of its own (xmt_cli_units_or_segments). */
static const int units_options[] = {'o', 't', 'q'};

/* Missing targets, one line each on stderr. */
static int report(void *user, const struct xmt_problem *p) {
  (void)user;
  xmt_cli_say("xliffmt: %s", p->file);
  if (p->line > 0)
    xmt_cli_say(":%lu", p->line);
  xmt_cli_say(": unit %s: %s\n", p->unit_id != NULL ? p->unit_id : "?",
              p->message);
  return 0;
}

static int merge_units(xmt_filter *f, const struct xmt_cli_settings *s,
                       const char *page, const char *xliff) {
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add(&fs, XMT_CLI_READS, xliff, "", "the XLIFF", NULL);
  xmt_cli_files_add_run(&fs, s, page, s->out);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  if (rc != EXIT_OK)
    return rc;
  struct xmt_html_stats stats;
  memset(&stats, 0, sizeof stats);
  xmt_status st = xmt_filter_set_flags(f, s->flags);
  if (st == XMT_OK)
    st = xmt_filter_set_languages(f, NULL, s->tgt);
  if (st == XMT_OK)
    st = xmt_filter_merge_units_file(f, page, xliff, s->out, &stats, report,
                                     NULL);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  if (st == XMT_OK || st == XMT_ERR_PARTIAL)
    xmt_cli_warn_invalid_bytes(page, stats.invalid_bytes);
  if (!s->quiet && (st == XMT_OK || st == XMT_ERR_PARTIAL))
    xmt_cli_say("xliffmt: %s: %zu units, %zu translated, %zu kept in "
                "the source language\n",
                page, stats.units, stats.units_with_target,
                stats.missing_targets);
  return xmt_cli_exit_status(st);
}

/* The form of merge the input at argv[optind] calls for, run on f, which
 * tells its format. */
static int merge_input(xmt_filter *f, const struct xmt_cli_settings *s,
                       int argc, char **argv) {
  enum xmt_doc_format format;
  int units = xmt_cli_units_or_segments(
      f, s, &merge, argv[optind], units_options,
      sizeof units_options / sizeof *units_options, &format);
  if (units < 0)
    return EXIT_BAD_INPUT;
  if (!units)
    return xmt_cli_operands(&merge, argc, 1, "missing input file")
               ? xmt_cli_merge_segments(f, s, argv[optind])
               : EXIT_BAD_INPUT;
  if (optind + 2 != argc) {
    const char *noun = xmt_format_noun(format);
    char why[128];
    snprintf(why, sizeof why, "give the %s and its XLIFF: merge DOC DOC.xlf",
             noun != NULL ? noun : "document");
    xmt_cli_usage_error(merge.name, why);
    return EXIT_BAD_INPUT;
  }
  return merge_units(f, s, argv[optind], argv[optind + 1]);
}

int xmt_cli_merge(int argc, char **argv) {
  struct xmt_cli_settings s;
  int rc = xmt_cli_settings_parse(&s, &merge, argc, argv, 0);
  if (rc >= 0)
    return rc;
  if (optind == argc) {
    xmt_cli_usage_error(merge.name, "missing input file");
    return EXIT_BAD_INPUT;
  }
  xmt_filter *f = xmt_cli_filter_new();
  if (f == NULL)
    return EXIT_INTERNAL;
  rc = merge_input(f, &s, argc, argv);
  xmt_filter_free(f);
  return rc;
}
