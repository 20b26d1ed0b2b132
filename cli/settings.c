/* settings.c -- the options translate, extract and merge share. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Seconds, positive, at most a day. */
static int parse_timeout(const char *arg, unsigned *ms) {
  char *end;
  double seconds = strtod(arg, &end);
  if (end == arg || *end != '\0' || !(seconds > 0) || seconds > 86400)
    return 0;
  *ms = (unsigned)(seconds * 1000 + 0.5);
  return 1;
}

static int parse_count(const char *arg, size_t *n) {
  char *end;
  unsigned long v = strtoul(arg, &end, 10);
  if (end == arg || *end != '\0' || v == 0 || v > 1000000 || arg[0] == '-')
    return 0;
  *n = v;
  return 1;
}

/* A number of bytes, with an optional K, M or G (binary multiples). */
int xmt_cli_parse_size(const char *arg, size_t *bytes) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(arg, &end, 10);
  unsigned shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M')
    shift = 20;
  else if (*end == 'G')
    shift = 30;
  if (shift != 0)
    end++;
  if (end == arg || *end != '\0' || errno != 0 || v == 0 || arg[0] == '-' ||
      v > (SIZE_MAX >> shift))
    return 0;
  *bytes = (size_t)v << shift;
  return 1;
}

int xmt_cli_parse_encoding_errors(const char *arg, unsigned *flags) {
  if (strcmp(arg, "fail") == 0)
    *flags &= ~XMT_FILTER_HTML_REPLACE_INVALID;
  else if (strcmp(arg, "replace") == 0)
    *flags |= XMT_FILTER_HTML_REPLACE_INVALID;
  else
    return -1;
  return 0;
}

/* --- The shared option groups ---------------------------------------------
 */

const struct xmt_cli_option xmt_cli_output_option[] = {
    {"output", 'o', "OUT", "output file (written whole or not at all)"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_lang_options[] = {
    {"source-lang", 's', "SRC", "source language (default: the file's)"},
    {"target-lang", 't', "TGT", "target language (default: the file's)"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_page_lang_options[] = {
    {"source-lang", 's', "SRC", "source language of an HTML page's XLIFF"},
    {"target-lang", 't', "TGT", "target language of an HTML page's XLIFF"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_mt_options[] = {
    {"mt", 'm', "BACKEND[:SPEC]", "MT backend (listed below)"},
    {"mt-option", XMT_OPT_MT_OPTION, "KEY=VALUE",
     "backend option (repeatable)"},
    {"timeout", XMT_OPT_TIMEOUT, "SECONDS",
     "per-batch MT timeout, retries included\n(default: the backend's)"},
    {"max-answer-size", XMT_OPT_MAX_ANSWER, "N",
     "refuse an engine answer of more than N\nbytes (K, M, G: KiB...; default "
     "16M)"},
    {"keep-going", XMT_OPT_KEEP_GOING, NULL,
     "go on asking an engine that failed 3\nbatches in a row (default: stop "
     "asking)"},
    {"batch-size", XMT_OPT_BATCH, "N", "segments per MT call (default 64)"},
    {"engine-jobs", XMT_OPT_ENGINE_JOBS, "N",
     "engine processes or connections\ntranslating batches at once (default "
     "1)"},
    {"probes", XMT_OPT_PROBES, "WHEN",
     "auto (default: when tags are projected)\nor off: send each tagged span "
     "and the\nwords around each placeholder to the\nengine too, to anchor the "
     "tags where\ntheir translation is found"},
    {"cache", XMT_OPT_CACHE, "sqlite:PATH|postgresql:CONNINFO",
     "keep the engine's answers in a translation\nmemory cache (SQLite: "
     "created if missing;\nPostgreSQL: a database that many machines\nshare, "
     "postgresql: alone: the PG*\nenvironment) and send only what it does\nnot "
     "know"},
    {"cache-max", XMT_OPT_CACHE_MAX, "N",
     "keep at most N entries (the least\nrecently used go)"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_run_options[] = {
    {"tags", XMT_OPT_TAGS, "MODE", "project (default), mask or raw"},
    {"aligner", XMT_OPT_ALIGNER, "WHICH", "self (default), model:FILE or none"},
    {"align-model", XMT_OPT_ALIGN_MODEL, "FILE",
     "seed the self-trained aligner"},
    {"update-model", XMT_OPT_UPDATE_MODEL, NULL,
     "add the document's word links to the\n--align-model FILE (created if "
     "missing)"},
    {"model", XMT_OPT_MODEL, "M",
     "the aligner's model: bayes (Gibbs sampling\nof IBM1, HMM, fertility) or "
     "ibm2 (faster)"},
    {"dictionary", XMT_OPT_DICTIONARY, "D",
     "prior word translations for the aligner:\nauto (default: the installed "
     "FreeDict and\nApertium dictionaries of the languages),\nnone, or a "
     "FreeDict, Apertium or TSV file;\nrepeatable"},
    {"rule", XMT_OPT_RULE, "RULE", "projection rule: minmax (default), score"},
    {"symmetrize", XMT_OPT_SYMMETRIZE, "NAME",
     "grow-diag-final-and (default), intersect,\nunion, grow-diag, "
     "grow-diag-final,\nintersect-first, forward, reverse"},
    {"srx", XMT_OPT_SRX, "FILE", "segmentation rules (default: shipped)"},
    {"no-segment", XMT_OPT_NO_SEGMENT, NULL, "translate units whole"},
    {"resegment", XMT_OPT_RESEGMENT, NULL,
     "resegment units that have a seg-source"},
    {"no-icu", XMT_OPT_NO_ICU, NULL,
     "send ICU plural and select messages\n(Angular's) to the engine whole; "
     "default:\nonly their case bodies, their syntax kept"},
    {"seg-source", XMT_OPT_SEG_SOURCE, NULL,
     "write the segments of units without one\nas <seg-source> and mrk targets "
     "(Tikal's\n-seg; XLIFF 2: a <segment> per sentence);\ndefault: one whole "
     "<target>"},
    {"overwrite", XMT_OPT_OVERWRITE, NULL,
     "replace existing non-empty targets"},
    {"alt-trans", XMT_OPT_ALT_TRANS, NULL,
     "write <alt-trans> proposals, not targets"},
    {"approved", XMT_OPT_APPROVED, NULL,
     "mark units given a target approved=\"yes\""},
    {"keep-entities", XMT_OPT_KEEP_ENTITIES, NULL,
     "keep a reference to an external entity in\ntranslatable text as written "
     "(default:\nstop, as its text would be lost)"},
    {"encoding-errors", XMT_OPT_ENCODING_ERRORS, "fail|replace",
     "replace: read bytes that are not UTF-8 in\na UTF-8 HTML page as U+FFFD, "
     "with a\nwarning (default: fail, naming the first)"},
    {"state", XMT_OPT_STATE, "VALUE",
     "state of written targets, or none\n(default needs-review-translation)"},
    {"state-qualifier", XMT_OPT_QUALIFIER, "V",
     "state-qualifier, or none (default\nmt-suggestion)"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_report_option[] = {
    {"report", XMT_OPT_REPORT, "FILE", "write a JSON summary of the run"},
    {NULL, 0, NULL, NULL}};

const struct xmt_cli_option xmt_cli_tail_options[] = {
    {"quiet", 'q', NULL, "no progress and no summary on stderr"},
    {NULL, 0, NULL, NULL}};

void xmt_cli_settings_init(struct xmt_cli_settings *s) {
  memset(s, 0, sizeof *s);
  s->out = "-";
  s->state = "needs-review-translation";
  s->qualifier = "mt-suggestion";
  s->sym = XMT_SYM_GROW_DIAG_FINAL_AND;
  s->segmentation = XMT_SEGMENT_UNSEGMENTED;
  s->align_kind = XMT_CLI_DEFAULT_ALIGN_MODEL;
}

/* Appends arg to a list of at most cap; NULL, or the message. */
static const char *add_to(const char **list, size_t *n, size_t cap,
                          const char *arg, const char *too_many) {
  if (*n == cap)
    return too_many;
  list[(*n)++] = arg;
  return NULL;
}

/* The engine's options; bad: the message of a bad value. 0 when c is
 * not one of them. */
static int take_mt(struct xmt_cli_settings *s, int c, const char *arg,
                   const char **bad) {
  switch (c) {
  case XMT_OPT_MT_OPTION:
    *bad = add_to(s->mt_options, &s->nmt_options,
                  sizeof s->mt_options / sizeof *s->mt_options, arg,
                  "too many --mt-option");
    break;
  case XMT_OPT_TIMEOUT:
    if (!parse_timeout(arg, &s->timeout_ms))
      *bad = "--timeout takes a number of seconds, more than 0 and at most "
             "86400 (a day)";
    break;
  case XMT_OPT_BATCH:
    if (!parse_count(arg, &s->batch))
      *bad = "--batch-size takes a number of segments from 1 to 1000000";
    break;
  case XMT_OPT_ENGINE_JOBS:
    if (!parse_count(arg, &s->engine_jobs) ||
        s->engine_jobs > XMT_MAX_ENGINE_JOBS)
      *bad = "--engine-jobs takes a number from 1 to 64";
    break;
  case XMT_OPT_KEEP_GOING:
    s->flags |= XMT_FILTER_KEEP_GOING;
    break;
  case XMT_OPT_MAX_ANSWER:
    if (!xmt_cli_parse_size(arg, &s->max_answer))
      *bad = "--max-answer-size takes a number of bytes (K, M, G: KiB...)";
    break;
  case XMT_OPT_PROBES:
    if (xmt_probes_parse(arg, &s->probes) != XMT_OK)
      *bad = "--probes takes auto or off";
    break;
  case XMT_OPT_CACHE:
    /* postgresql: alone takes everything from the PG* environment. */
    if ((strncmp(arg, "sqlite:", 7) != 0 || arg[7] == '\0') &&
        strncmp(arg, "postgresql:", 11) != 0)
      *bad = "--cache takes sqlite:PATH or postgresql:CONNINFO";
    else
      s->cache = arg;
    break;
  case XMT_OPT_CACHE_MAX: {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (errno != 0 || *end != '\0' || v == 0 || arg[0] == '-')
      *bad = "--cache-max takes a number of entries (1 or more)";
    else
      s->cache_max = (size_t)v;
    break;
  }
  default:
    return 0;
  }
  return 1;
}

/* How the aligner and the projector work. */
static int take_alignment(struct xmt_cli_settings *s, int c, const char *arg,
                          const char **bad) {
  switch (c) {
  case XMT_OPT_TAGS:
    if (xmt_tag_mode_parse(arg, &s->tags) != XMT_OK)
      *bad = "--tags takes project, mask or raw";
    break;
  case XMT_OPT_ALIGNER:
    if (strcmp(arg, "self") == 0) {
      s->aligner = XMT_ALIGNER_SELF;
    } else if (strcmp(arg, "none") == 0) {
      s->aligner = XMT_ALIGNER_NONE;
    } else if (strncmp(arg, "model:", 6) == 0 && arg[6] != '\0') {
      s->aligner = XMT_ALIGNER_MODEL;
      s->align_model = arg + 6;
    } else {
      *bad = "--aligner takes self, model:FILE or none";
    }
    break;
  case XMT_OPT_MODEL:
    if (xmt_align_model_parse(arg, &s->align_kind) != XMT_OK)
      *bad = "--model takes bayes or ibm2";
    break;
  case XMT_OPT_DICTIONARY:
    *bad = add_to(s->dicts, &s->ndicts, sizeof s->dicts / sizeof *s->dicts, arg,
                  "too many --dictionary");
    break;
  case XMT_OPT_RULE:
    if (xmt_projection_rule_parse(arg, &s->rule) != XMT_OK)
      *bad = "--rule takes minmax or score";
    break;
  case XMT_OPT_SYMMETRIZE:
    if (xmt_symmetrization_parse(arg, &s->sym) != XMT_OK)
      *bad = "unknown --symmetrize heuristic";
    break;
  case XMT_OPT_UPDATE_MODEL:
    s->flags |= XMT_FILTER_UPDATE_MODEL;
    break;
  default:
    return 0;
  }
  return 1;
}

/* What the run writes: flags, states, segmentation, the segments format. */
static int take_output(struct xmt_cli_settings *s, int c, const char *arg,
                       const char **bad) {
  static const struct {
    int code;
    unsigned flag;
  } flags[] = {{XMT_OPT_OVERWRITE, XMT_FILTER_OVERWRITE},
               {XMT_OPT_ALT_TRANS, XMT_FILTER_ALT_TRANS},
               {XMT_OPT_SEG_SOURCE, XMT_FILTER_SEG_SOURCE},
               {XMT_OPT_APPROVED, XMT_FILTER_APPROVED},
               {XMT_OPT_KEEP_ENTITIES, XMT_FILTER_KEEP_ENTITIES},
               {XMT_OPT_SKIP_PRE, XMT_FILTER_HTML_SKIP_PRE},
               {XMT_OPT_SKIP_CODE, XMT_FILTER_HTML_SKIP_CODE},
               {XMT_OPT_NO_ICU, XMT_FILTER_NO_ICU}};
  for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
    if (flags[i].code == c) {
      s->flags |= flags[i].flag;
      return 1;
    }
  switch (c) {
  case XMT_OPT_NO_SEGMENT:
    s->segmentation = XMT_SEGMENT_NONE;
    break;
  case XMT_OPT_RESEGMENT:
    s->segmentation = XMT_SEGMENT_ALL;
    break;
  case XMT_OPT_STATE:
    s->state = strcmp(arg, "none") == 0 ? NULL : arg;
    break;
  case XMT_OPT_QUALIFIER:
    s->qualifier = strcmp(arg, "none") == 0 ? NULL : arg;
    break;
  case XMT_OPT_ENCODING_ERRORS:
    if (xmt_cli_parse_encoding_errors(arg, &s->flags) != 0)
      *bad = "--encoding-errors takes fail or replace";
    break;
  case XMT_OPT_FORMAT:
    if (xmt_segments_format_parse(arg, &s->format) != XMT_OK)
      *bad = "--format takes tsv or jsonl";
    break;
  default:
    return 0;
  }
  return 1;
}

/* The options kept as given: files, languages, the engine, -q. */
#define KEPT(code, member) XMT_CLI_STRING(code, struct xmt_cli_settings, member)
static const struct xmt_cli_store kept[] = {
    KEPT('o', out),
    KEPT('s', src),
    KEPT('t', tgt),
    KEPT('m', mt),
    KEPT(XMT_OPT_REPORT, report),
    KEPT(XMT_OPT_TRANSLATIONS, translations),
    KEPT(XMT_OPT_ALIGNMENTS, alignments),
    KEPT(XMT_OPT_SOURCE_TOKENS, source_tokens),
    KEPT(XMT_OPT_TARGET_TOKENS, target_tokens),
    KEPT(XMT_OPT_SRX, srx),
    KEPT(XMT_OPT_ALIGN_MODEL, align_model),
    XMT_CLI_FLAG('q', struct xmt_cli_settings, quiet)};
#undef KEPT

int xmt_cli_take_option(struct xmt_cli_settings *s, int c, const char *arg) {
  const char *bad = NULL;
  if (!xmt_cli_store(kept, sizeof kept / sizeof *kept, s, c, arg) &&
      !take_mt(s, c, arg, &bad) && !take_alignment(s, c, arg, &bad) &&
      !take_output(s, c, arg, &bad))
    bad = "bad option";
  if (bad == NULL && s->nseen < sizeof s->seen / sizeof *s->seen)
    s->seen[s->nseen++] = c;
  if (bad != NULL)
    xmt_cli_usage_error(s->command, bad);
  return bad == NULL;
}

static int take(void *settings, int c, const char *arg) {
  return xmt_cli_take_option(settings, c, arg);
}

int xmt_cli_settings_parse(struct xmt_cli_settings *s,
                           const struct xmt_cli_command *cmd, int argc,
                           char **argv, int operands) {
  xmt_cli_settings_init(s);
  s->command = cmd->name;
  int rc = xmt_cli_parse(cmd, argc, argv, take, s);
  if (rc < 0 && operands > 0 &&
      !xmt_cli_operands(cmd, argc, operands, "missing input file"))
    rc = EXIT_BAD_INPUT;
  return rc;
}

int xmt_cli_refuse_options(const struct xmt_cli_settings *s,
                           const struct xmt_cli_command *cmd, const int *codes,
                           size_t ncodes, int allowed, const char *what) {
  for (size_t i = 0; i < s->nseen; i++) {
    size_t k = 0;
    while (k < ncodes && codes[k] != s->seen[i])
      k++;
    if ((k < ncodes) == (allowed != 0))
      continue;
    const struct xmt_cli_option *o = xmt_cli_find_option(cmd, s->seen[i]);
    char msg[160];
    snprintf(msg, sizeof msg, "--%s does not apply to %s",
             o != NULL ? o->name : "?", what);
    xmt_cli_usage_error(cmd->name, msg);
    return 1;
  }
  return 0;
}

xmt_filter *xmt_cli_filter_new(void) {
  xmt_filter *f = xmt_filter_new();
  if (f == NULL)
    fputs("xliffmt: out of memory\n", stderr);
  return f;
}

xmt_status xmt_cli_configure(xmt_filter *f, const struct xmt_cli_settings *s,
                             const struct xmt_backend *backend,
                             const char *spec) {
  xmt_status st = xmt_filter_set_languages(f, s->src, s->tgt);
  if (st == XMT_OK && backend != NULL)
    st = xmt_filter_set_backend(f, backend, NULL, spec);
  for (size_t i = 0; st == XMT_OK && i < s->nmt_options; i++)
    st = xmt_filter_add_backend_option(f, s->mt_options[i]);
  if (st == XMT_OK && s->cache != NULL)
    st = xmt_filter_set_cache(f, s->cache, s->cache_max);
  if (st == XMT_OK)
    st = xmt_filter_set_target_state(f, s->state, s->qualifier);
  if (st == XMT_OK)
    st = xmt_filter_set_tag_mode(f, s->tags);
  if (st == XMT_OK)
    st = xmt_filter_set_aligner(f, s->aligner, s->align_model);
  if (st == XMT_OK)
    st = xmt_filter_set_aligner_model(f, s->align_kind);
  for (size_t k = 0; k < s->ndicts && st == XMT_OK; k++)
    st = xmt_filter_add_dictionary(f, s->dicts[k]);
  if (st == XMT_OK)
    st = xmt_filter_set_probes(f, s->probes);
  if (st == XMT_OK)
    st = xmt_filter_set_segmentation(f, s->segmentation, s->srx);
  if (st == XMT_OK)
    st = xmt_filter_set_timeout(f, s->timeout_ms);
  if (st == XMT_OK)
    st = xmt_filter_set_max_answer_size(f, s->max_answer);
  if (st == XMT_OK && s->batch != 0) /* 0: not given */
    st = xmt_filter_set_batch_size(f, s->batch);
  if (st == XMT_OK && s->engine_jobs != 0)
    st = xmt_filter_set_engine_jobs(f, s->engine_jobs);
  if (st == XMT_OK)
    st = xmt_filter_set_projection(f, s->rule, s->sym);
  if (st == XMT_OK)
    st = xmt_filter_set_flags(f, s->flags);
  return st;
}
