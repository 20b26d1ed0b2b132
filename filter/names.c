/* names.c -- the names of the filter's settings on a command line
 * (--tags project, --rule score...), read here once for every caller. */
#include "config.h"

#include <string.h>

#include "filter_private.h"

struct name {
  const char *name;
  int value;
};

static int lookup(const struct name *names, const char *name) {
  for (; name != NULL && names->name != NULL; names++)
    if (strcmp(names->name, name) == 0)
      return names->value;
  return -1;
}

/* Defines xmt_status FN(const char *name, TYPE *value): the value of the
 * name among the pairs of names and values that follow; XMT_ERR_USAGE,
 * *value untouched, for another name. */
#define NAME_PARSER(fn, type, ...)                                             \
  xmt_status fn(const char *name, type *value) {                               \
    static const struct name names[] = {__VA_ARGS__, {NULL, 0}};               \
    int v = lookup(names, name);                                               \
    if (v < 0)                                                                 \
      return XMT_ERR_USAGE;                                                    \
    *value = (type)v;                                                          \
    return XMT_OK;                                                             \
  }

NAME_PARSER(xmt_tag_mode_parse, enum xmt_tag_mode,
            {"project", XMT_TAGS_PROJECT}, {"mask", XMT_TAGS_MASK},
            {"raw", XMT_TAGS_RAW})
NAME_PARSER(xmt_projection_rule_parse, enum xmt_projection_rule,
            {"minmax", XMT_RULE_MINMAX}, {"score", XMT_RULE_SCORE})
NAME_PARSER(xmt_align_model_parse, enum xmt_align_model,
            {"bayes", XMT_MODEL_BAYES}, {"ibm2", XMT_MODEL_IBM2})
NAME_PARSER(xmt_probes_parse, enum xmt_probes, {"auto", XMT_PROBES_AUTO},
            {"off", XMT_PROBES_OFF})
NAME_PARSER(xmt_segments_format_parse, enum xmt_segments_format,
            {"tsv", XMT_SEGMENTS_TSV}, {"jsonl", XMT_SEGMENTS_JSONL})
NAME_PARSER(xmt_token_style_parse, enum xmt_token_style,
            {"moses", XMT_TOKENS_MOSES},
            {"sentencepiece", XMT_TOKENS_SENTENCEPIECE},
            {"bpe", XMT_TOKENS_BPE})
