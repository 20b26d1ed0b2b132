/* rules_its.c -- check's rules of the ITS module of XLIFF 2.1 (5.9):
 * the values of the ITS 2.0 attributes whose range ITS states, and what
 * an attribute needs of the element or of its ancestors (ITS data are
 * inherited: a value given on a <file>, <group> or <unit> holds for what
 * is inside): a rating's threshold its rating, and MT Confidence, a Text
 * Analysis confidence and a Terminology confidence the tool that gave
 * them, its:annotatorsRef naming the data category. What is kept is one
 * byte per open element, the data declared there or above. No id is
 * checked: ITS 2.0 has no its:id attribute. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_private.h"

#define NS_ITS "http://www.w3.org/2005/11/its|"

enum { HAS_SCORE = 1, HAS_VOTE = 2, TOOL_MT = 4, TOOL_TA = 8, TOOL_TERM = 16 };

static const char *attr(const char **atts, const char *name) {
  for (size_t i = 0; atts[i] != NULL; i += 2)
    if (strcmp(atts[i], name) == 0)
      return atts[i + 1];
  return NULL;
}

/* A decimal number (an optional sign, digits, a point and digits) in
 * [lo, hi], or an integer when lo > hi. */
static int number_in(const char *v, double lo, double hi) {
  const char *p = v + (v[0] == '-' || v[0] == '+');
  size_t digits = strspn(p, "0123456789"), frac = 0;
  if (p[digits] == '.' && lo <= hi)
    frac = strspn(p + digits + 1, "0123456789") + 1;
  if ((digits == 0 && frac <= 1) || p[digits + frac] != '\0')
    return 0;
  /* by hand: strtod follows the locale's decimal point */
  double x = 0, scale = 1;
  for (size_t i = 0; i < digits; i++)
    x = x * 10 + (p[i] - '0');
  for (size_t i = 1; i < frac; i++)
    x += (p[digits + i] - '0') * (scale /= 10);
  if (v[0] == '-')
    x = -x;
  return lo > hi || (x >= lo && x <= hi);
}

/* The ITS module of XLIFF 2.1 (5.9): the values of the ITS 2.0
 * attributes whose range ITS states (no ITS schema is shipped), and a
 * rating that is both a score and a vote ("exactly one"). */
static void its_attrs(struct x2_rules *r, const char *elem, const char **atts,
                      struct pos at) {
  static const struct {
    const char *name;
    double lo, hi; /* lo > hi: an integer */
  } ranges[] = {{"locQualityRatingScore", 0, 100},
                {"locQualityRatingScoreThreshold", 0, 100},
                {"locQualityIssueSeverity", 0, 100},
                {"locQualityRatingVote", 1, 0},
                {"locQualityRatingVoteThreshold", 1, 0},
                {"mtConfidence", 0, 1},
                {"taConfidence", 0, 1},
                {"termConfidence", 0, 1}};
  char name[80], msg[400];
  for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
    snprintf(name, sizeof name, NS_ITS "%s", ranges[i].name);
    const char *v = attr(atts, name);
    if (v == NULL || number_in(v, ranges[i].lo, ranges[i].hi))
      continue;
    if (ranges[i].lo > ranges[i].hi)
      snprintf(msg, sizeof msg,
               "<%s> its:%s=\"%.40s\" is not an integer (XLIFF 2.1 §5.9)", elem,
               ranges[i].name, v);
    else
      snprintf(msg, sizeof msg,
               "<%s> its:%s=\"%.40s\" is not a number from %g to %g (XLIFF "
               "2.1 §5.9)",
               elem, ranges[i].name, v, ranges[i].lo, ranges[i].hi);
    xmt_x2_rules_report(r, at, msg);
  }
  if (attr(atts, NS_ITS "locQualityRatingScore") != NULL &&
      attr(atts, NS_ITS "locQualityRatingVote") != NULL) {
    snprintf(msg, sizeof msg,
             "<%s> has both its:locQualityRatingScore and "
             "its:locQualityRatingVote, where exactly one is set (XLIFF 2.1 "
             "§5.9)",
             elem);
    xmt_x2_rules_report(r, at, msg);
  }
}

/* The data categories an its:annotatorsRef ("ID|IRI ID|IRI ...") names,
 * as TOOL_ flags. */
static unsigned tools(const char *v) {
  static const struct {
    const char *id;
    unsigned flag;
  } cats[] = {{"mt-confidence", TOOL_MT},
              {"text-analysis", TOOL_TA},
              {"terminology", TOOL_TERM}};
  unsigned flags = 0;
  while (v != NULL && *v != '\0') {
    v += strspn(v, " \t\r\n");
    size_t n = strcspn(v, " \t\r\n");
    const char *bar = memchr(v, '|', n);
    for (size_t i = 0; bar != NULL && i < sizeof cats / sizeof *cats; i++)
      if ((size_t)(bar - v) == strlen(cats[i].id) &&
          memcmp(v, cats[i].id, strlen(cats[i].id)) == 0)
        flags |= cats[i].flag;
    v += n;
  }
  return flags;
}

/* What an attribute needs declared on its element or an ancestor. */
static void inherited(struct x2_rules *r, const char *elem, const char **atts,
                      unsigned flags, struct pos at) {
  static const struct {
    const char *name, *needs;
    unsigned flag;
  } rules[] = {
      {"locQualityRatingScoreThreshold", "its:locQualityRatingScore",
       HAS_SCORE},
      {"locQualityRatingVoteThreshold", "its:locQualityRatingVote", HAS_VOTE},
      {"mtConfidence", "its:annotatorsRef naming mt-confidence", TOOL_MT},
      {"taConfidence", "its:annotatorsRef naming text-analysis", TOOL_TA},
      {"termConfidence", "its:annotatorsRef naming terminology", TOOL_TERM}};
  char name[80], msg[400];
  for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
    snprintf(name, sizeof name, NS_ITS "%s", rules[i].name);
    if (attr(atts, name) == NULL || (flags & rules[i].flag) != 0)
      continue;
    snprintf(msg, sizeof msg,
             "<%s> has its:%s without %s on it or an enclosing element "
             "(XLIFF 2.1 §5.9)",
             elem, rules[i].name, rules[i].needs);
    xmt_x2_rules_report(r, at, msg);
  }
}

void xmt_x2_its_start(struct x2_rules *r, const char *elem, const char **atts,
                      struct pos at) {
  struct x2_its *its = &r->mod.its;
  size_t depth = r->depth;
  if (depth >= its->cap) {
    size_t cap = its->cap ? its->cap * 2 : 32;
    while (cap <= depth)
      cap *= 2;
    unsigned char *grown = realloc(its->flags, cap);
    if (grown == NULL) {
      xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
      return;
    }
    its->flags = grown;
    its->cap = cap;
  }
  unsigned flags = depth > 0 ? its->flags[depth - 1] : 0;
  unsigned own = 0;
  size_t i = 0;
  while (atts[i] != NULL && strncmp(atts[i], NS_ITS, sizeof NS_ITS - 1) != 0)
    i += 2;
  if (atts[i] == NULL) { /* no ITS attribute: the common case, made quick */
    its->flags[depth] = (unsigned char)flags;
    return;
  }
  if (attr(atts, NS_ITS "locQualityRatingScore") != NULL)
    own |= HAS_SCORE;
  if (attr(atts, NS_ITS "locQualityRatingVote") != NULL)
    own |= HAS_VOTE;
  own |= tools(attr(atts, NS_ITS "annotatorsRef"));
  flags |= own;
  its->flags[depth] = (unsigned char)flags;
  /* an <sm>'s data hold up to its <em>, not for its XML content: taken
   * for the rest of its parent (never a value refused that holds) */
  if (depth > 0 && strcmp(elem, "sm") == 0)
    its->flags[depth - 1] |= (unsigned char)own;
  its_attrs(r, elem, atts, at);
  inherited(r, elem, atts, flags, at);
}

void xmt_x2_its_free(struct x2_its *its) {
  free(its->flags);
  its->flags = NULL;
  its->cap = 0;
}
