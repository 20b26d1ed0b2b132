/* names.c -- the names of the filter's settings on a command line
 * (--tags project, --rule score...), read here once for every caller. */
#include "config.h"

#include <string.h>

#include "filter_private.h"

struct name {
  const char *name;
  int value;
};

static xmt_status lookup(const struct name *names, const char *name,
                         int *value) {
  for (; name != NULL && names->name != NULL; names++)
    if (strcmp(names->name, name) == 0) {
      *value = names->value;
      return XMT_OK;
    }
  return XMT_ERR_USAGE;
}

xmt_status xmt_tag_mode_parse(const char *name, enum xmt_tag_mode *mode) {
  static const struct name names[] = {{"project", XMT_TAGS_PROJECT},
                                      {"mask", XMT_TAGS_MASK},
                                      {"raw", XMT_TAGS_RAW},
                                      {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *mode = (enum xmt_tag_mode)v;
  return st;
}

xmt_status xmt_projection_rule_parse(const char *name,
                                     enum xmt_projection_rule *rule) {
  static const struct name names[] = {
      {"minmax", XMT_RULE_MINMAX}, {"score", XMT_RULE_SCORE}, {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *rule = (enum xmt_projection_rule)v;
  return st;
}

xmt_status xmt_align_model_parse(const char *name,
                                 enum xmt_align_model *model) {
  static const struct name names[] = {
      {"bayes", XMT_MODEL_BAYES}, {"ibm2", XMT_MODEL_IBM2}, {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *model = (enum xmt_align_model)v;
  return st;
}

xmt_status xmt_probes_parse(const char *name, enum xmt_probes *probes) {
  static const struct name names[] = {
      {"auto", XMT_PROBES_AUTO}, {"off", XMT_PROBES_OFF}, {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *probes = (enum xmt_probes)v;
  return st;
}

xmt_status xmt_segments_format_parse(const char *name,
                                     enum xmt_segments_format *format) {
  static const struct name names[] = {
      {"tsv", XMT_SEGMENTS_TSV}, {"jsonl", XMT_SEGMENTS_JSONL}, {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *format = (enum xmt_segments_format)v;
  return st;
}

xmt_status xmt_token_style_parse(const char *name,
                                 enum xmt_token_style *style) {
  static const struct name names[] = {
      {"moses", XMT_TOKENS_MOSES},
      {"sentencepiece", XMT_TOKENS_SENTENCEPIECE},
      {"bpe", XMT_TOKENS_BPE},
      {NULL, 0}};
  int v;
  xmt_status st = lookup(names, name, &v);
  if (st == XMT_OK)
    *style = (enum xmt_token_style)v;
  return st;
}
