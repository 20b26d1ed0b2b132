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
static int parse_size(const char *arg, size_t *bytes) {
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

void xmt_cli_settings_init(struct xmt_cli_settings *s) {
  memset(s, 0, sizeof *s);
  s->out = "-";
  s->state = "needs-review-translation";
  s->qualifier = "mt-suggestion";
  s->sym = XMT_SYM_GROW_DIAG_FINAL_AND;
  s->segmentation = XMT_SEGMENT_UNSEGMENTED;
  s->align_kind = XMT_CLI_DEFAULT_ALIGN_MODEL;
}

/* Parses one option into s; 0 on a usage error (reported). */
int xmt_cli_take_option(struct xmt_cli_settings *s, int c, const char *arg) {
  const char *bad = NULL;
  switch (c) {
  case 'o':
    s->out = arg;
    break;
  case 's':
    s->src = arg;
    break;
  case 't':
    s->tgt = arg;
    break;
  case 'm':
    s->mt = arg;
    break;
  case XMT_OPT_MT_OPTION:
    if (s->nmt_options == sizeof s->mt_options / sizeof *s->mt_options)
      bad = "too many --mt-option";
    else
      s->mt_options[s->nmt_options++] = arg;
    break;
  case XMT_OPT_TIMEOUT:
    if (!parse_timeout(arg, &s->timeout_ms))
      bad = "--timeout takes a number of seconds, more than 0 and at most "
            "86400 (a day)";
    break;
  case XMT_OPT_BATCH:
    if (!parse_count(arg, &s->batch))
      bad = "--batch-size takes a number of segments from 1 to 1000000";
    break;
  case XMT_OPT_ENGINE_JOBS:
    if (!parse_count(arg, &s->engine_jobs) ||
        s->engine_jobs > XMT_MAX_ENGINE_JOBS)
      bad = "--engine-jobs takes a number from 1 to 64";
    break;
  case XMT_OPT_KEEP_GOING:
    s->flags |= XMT_FILTER_KEEP_GOING;
    break;
  case XMT_OPT_MAX_ANSWER:
    if (!parse_size(arg, &s->max_answer))
      bad = "--max-answer-size takes a number of bytes (K, M, G: KiB...)";
    break;
  case XMT_OPT_TAGS:
    if (strcmp(arg, "project") == 0)
      s->tags = XMT_TAGS_PROJECT;
    else if (strcmp(arg, "mask") == 0)
      s->tags = XMT_TAGS_MASK;
    else if (strcmp(arg, "raw") == 0)
      s->tags = XMT_TAGS_RAW;
    else
      bad = "--tags takes project, mask or raw";
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
      bad = "--aligner takes self, model:FILE or none";
    }
    break;
  case XMT_OPT_ALIGN_MODEL:
    s->align_model = arg;
    break;
  case XMT_OPT_MODEL:
    if (xmt_cli_parse_align_model(arg, &s->align_kind) != 0)
      bad = "--model takes bayes or ibm2";
    break;
  case XMT_OPT_DICTIONARY:
    if (s->ndicts == sizeof s->dicts / sizeof *s->dicts)
      bad = "too many --dictionary";
    else
      s->dicts[s->ndicts++] = arg;
    break;
  case XMT_OPT_RULE:
    if (strcmp(arg, "minmax") == 0)
      s->rule = XMT_RULE_MINMAX;
    else if (strcmp(arg, "score") == 0)
      s->rule = XMT_RULE_SCORE;
    else
      bad = "--rule takes minmax or score";
    break;
  case XMT_OPT_SYMMETRIZE:
    if (xmt_symmetrization_parse(arg, &s->sym) != XMT_OK)
      bad = "unknown --symmetrize heuristic";
    break;
  case XMT_OPT_SRX:
    s->srx = arg;
    break;
  case XMT_OPT_NO_SEGMENT:
    s->segmentation = XMT_SEGMENT_NONE;
    break;
  case XMT_OPT_RESEGMENT:
    s->segmentation = XMT_SEGMENT_ALL;
    break;
  case XMT_OPT_OVERWRITE:
    s->flags |= XMT_FILTER_OVERWRITE;
    break;
  case XMT_OPT_UPDATE_MODEL:
    s->flags |= XMT_FILTER_UPDATE_MODEL;
    break;
  case XMT_OPT_ALT_TRANS:
    s->flags |= XMT_FILTER_ALT_TRANS;
    break;
  case XMT_OPT_SEG_SOURCE:
    s->flags |= XMT_FILTER_SEG_SOURCE;
    break;
  case XMT_OPT_APPROVED:
    s->flags |= XMT_FILTER_APPROVED;
    break;
  case XMT_OPT_STATE:
    s->state = strcmp(arg, "none") == 0 ? NULL : arg;
    break;
  case XMT_OPT_QUALIFIER:
    s->qualifier = strcmp(arg, "none") == 0 ? NULL : arg;
    break;
  case XMT_OPT_REPORT:
    s->report = arg;
    break;
  case XMT_OPT_KEEP_ENTITIES:
    s->flags |= XMT_FILTER_KEEP_ENTITIES;
    break;
  case XMT_OPT_ENCODING_ERRORS:
    if (xmt_cli_parse_encoding_errors(arg, &s->flags) != 0)
      bad = "--encoding-errors takes fail or replace";
    break;
  case XMT_OPT_CACHE:
    /* postgresql: alone takes everything from the PG* environment. */
    if ((strncmp(arg, "sqlite:", 7) != 0 || arg[7] == '\0') &&
        strncmp(arg, "postgresql:", 11) != 0)
      bad = "--cache takes sqlite:PATH or postgresql:CONNINFO";
    else
      s->cache = arg;
    break;
  case XMT_OPT_CACHE_MAX: {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 10);
    if (errno != 0 || *end != '\0' || v == 0 || arg[0] == '-')
      bad = "--cache-max takes a number of entries (1 or more)";
    else
      s->cache_max = (size_t)v;
    break;
  }
  case XMT_OPT_PROBES:
    if (strcmp(arg, "auto") == 0)
      s->probes = XMT_PROBES_AUTO;
    else if (strcmp(arg, "off") == 0)
      s->probes = XMT_PROBES_OFF;
    else
      bad = "--probes takes auto or off";
    break;
  case 'q':
    s->quiet = 1;
    break;
  case XMT_OPT_TRANSLATIONS:
    s->translations = arg;
    break;
  case XMT_OPT_ALIGNMENTS:
    s->alignments = arg;
    break;
  case XMT_OPT_SOURCE_TOKENS:
    s->source_tokens = arg;
    break;
  case XMT_OPT_TARGET_TOKENS:
    s->target_tokens = arg;
    break;
  case XMT_OPT_FORMAT:
    if (strcmp(arg, "tsv") == 0)
      s->format = XMT_SEGMENTS_TSV;
    else if (strcmp(arg, "jsonl") == 0)
      s->format = XMT_SEGMENTS_JSONL;
    else
      bad = "--format takes tsv or jsonl";
    break;
  default:
    bad = "bad option";
  }
  if (bad != NULL)
    xmt_cli_usage_error(s->command, bad);
  return bad == NULL;
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
