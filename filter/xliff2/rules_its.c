/* rules_its.c -- check's rules of the ITS module of XLIFF 2.1 (5.9):
 * the values of the ITS 2.0 attributes whose range ITS states, and what
 * an attribute needs of the element or of its ancestors (ITS data are
 * inherited: a value given on a <file>, <group> or <unit> holds for what
 * is inside): a rating's threshold its rating, and MT Confidence, a Text
 * Analysis confidence and a Terminology confidence the tool that gave
 * them, its:annotatorsRef naming the data category; a Localization
 * Quality Issue given either by reference or by its own type or comment.
 * What is kept is one byte per open element, the data declared there or
 * above. Its stand-off data (Localization Quality Issue, Provenance) are
 * checked below. */
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

/* A Localization Quality Issue given on an element (XLIFF 2.1 §5.9, its
 * ITS Localization Quality Issue Annotation, as ITS 2.0 states it):
 * exactly one of its:locQualityIssuesRef and an issue of its own (a type,
 * a comment or both); with the reference, no severity, profile or
 * enabled flag (the stand-off issues give them). */
static void issue(struct x2_rules *r, const char *elem, const char **atts,
                  struct pos at) {
  static const char *const own[] = {"locQualityIssueSeverity",
                                    "locQualityIssueProfileRef",
                                    "locQualityIssueEnabled"};
  int ref = attr(atts, NS_ITS "locQualityIssuesRef") != NULL;
  int type = attr(atts, NS_ITS "locQualityIssueType") != NULL;
  int comment = attr(atts, NS_ITS "locQualityIssueComment") != NULL;
  const char *other = NULL;
  char name[80], msg[400];
  for (size_t i = 0; i < sizeof own / sizeof *own && other == NULL; i++) {
    snprintf(name, sizeof name, NS_ITS "%s", own[i]);
    if (attr(atts, name) != NULL)
      other = own[i];
  }
  if (ref && (type || comment))
    snprintf(msg, sizeof msg,
             "<%s> has both its:locQualityIssuesRef and its:%s, where "
             "exactly one of a reference and an issue's type or comment is "
             "set (XLIFF 2.1 §5.9)",
             elem, type ? "locQualityIssueType" : "locQualityIssueComment");
  else if (ref && other != NULL)
    snprintf(msg, sizeof msg,
             "<%s> has its:%s with its:locQualityIssuesRef, where the "
             "issues referenced give it (XLIFF 2.1 §5.9)",
             elem, other);
  else if (!ref && !type && !comment && other != NULL)
    snprintf(msg, sizeof msg,
             "<%s> has its:%s without its:locQualityIssuesRef, "
             "its:locQualityIssueType or its:locQualityIssueComment "
             "(XLIFF 2.1 §5.9)",
             elem, other);
  else
    return;
  xmt_x2_rules_report(r, at, msg);
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
  issue(r, elem, atts, at);
}

/* Stand-off ITS data (XLIFF 2.1 §5.9: Localization Quality Issue and
 * Provenance): an <its:locQualityIssues> (in a <unit>) or
 * <its:provenanceRecords> (in a <file>, <group> or <unit>) has an xml:id
 * (xs:ID: given once in the document, all kept compact with their
 * places); its:locQualityIssuesRef on a <mrk> or
 * <sm> names an <its:locQualityIssues> of the same <unit>;
 * its:provenanceRecordsRef names an <its:provenanceRecords> of the
 * innermost <unit>, <mtc:match> or <ctr:revision> on a <mrk> or <sm>, of
 * the element or an ancestor on a <file>, <group> or <unit>. A value is
 * checked when it names an element of this document: "#its=ID" (the
 * module's fragment prefix) or "#ID" (ITS 2.0's own form); another IRI
 * names another resource. A reference is resolved at the end of the
 * element whose stand-off data it may name (the schema puts them before
 * the segments, a tool may not). */
#define XML_ID "http://www.w3.org/XML/1998/namespace|id"

static const char *standoff_name(char kind) {
  return kind == 'q' ? "its:locQualityIssues" : "its:provenanceRecords";
}

/* Keeps s (with its NUL) in names: its offset, or SIZE_MAX when out of
 * memory. */
static size_t keep_name(struct x2_rules *r, const char *s) {
  struct xmt_buf *b = &r->mod.its.names;
  size_t at = b->len;
  if (xmt_buf_append(b, s, strlen(s) + 1) != XMT_OK) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return SIZE_MAX;
  }
  return at;
}

static void standoff(struct x2_rules *r, char kind, const char **atts,
                     struct pos at) {
  struct x2_its *its = &r->mod.its;
  const char *id = attr(atts, XML_ID);
  char first_kind = 0, msg[400];
  struct pos first;
  if (id == NULL)
    return;
  if (xmt_x2_rules_seen(r, &its->xml_ids, id, kind, at, &first_kind, &first)) {
    snprintf(msg, sizeof msg,
             "<%s> xml:id \"%.64s\" is used more than once (first at line "
             "%lu, column %lu, by an <%s>) (XLIFF 2.1 §5.9)",
             standoff_name(kind), id, first.line, first.column,
             standoff_name(first_kind));
    xmt_x2_rules_report(r, at, msg);
  }
  /* kept for the references of its element even when told: one error */
  struct its_standoff *o =
      xmt_grow_one(&its->ids, its->nids, &its->ids_cap, sizeof *o);
  size_t name = keep_name(r, id);
  if (o == NULL || name == SIZE_MAX) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return;
  }
  its->nids++;
  *o = (struct its_standoff){r->depth - 1, name, kind, at};
}

/* The stack index of the innermost <unit> open (SIZE_MAX: none) and, for
 * Provenance, of an <mtc:match> or <ctr:revision> inside it. */
static size_t holder(const struct x2_rules *r, char kind) {
  size_t unit = SIZE_MAX;
  for (size_t i = r->depth; unit == SIZE_MAX && i-- > 0;)
    if (r->stack[i] == S_UNIT)
      unit = i;
  size_t h = r->mod.its.holder;
  if (kind == 'p' && h > 0 && (unit == SIZE_MAX || h - 1 > unit))
    return h - 1;
  return unit;
}

static void reference(struct x2_rules *r, char kind, const char *elem,
                      const char *value, int inline_ref, struct pos at) {
  struct x2_its *its = &r->mod.its;
  size_t enc = inline_ref ? holder(r, kind) : r->depth;
  if (enc == SIZE_MAX)
    return;
  struct its_ref *p =
      xmt_grow_one(&its->refs, its->nrefs, &its->refs_cap, sizeof *p);
  size_t v = keep_name(r, value), e = keep_name(r, elem);
  if (p == NULL || v == SIZE_MAX || e == SIZE_MAX) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return;
  }
  its->nrefs++;
  *p = (struct its_ref){enc, v, e, kind, inline_ref, at};
}

void xmt_x2_its_element(struct x2_rules *r, const char *name, const char *local,
                        const char **atts, struct pos at) {
  struct x2_its *its = &r->mod.its;
  static const char mtc[] = "urn:oasis:names:tc:xliff:matches:2.0|match",
                    ctr[] = "urn:oasis:names:tc:xliff:changetracking:2.0|"
                            "revision";
  if (strcmp(name, mtc) == 0 || strcmp(name, ctr) == 0)
    its->holder = r->depth + 1;
  if (strcmp(name, NS_ITS "locQualityIssues") == 0)
    standoff(r, 'q', atts, at);
  else if (strcmp(name, NS_ITS "provenanceRecords") == 0)
    standoff(r, 'p', atts, at);
  else if (strcmp(name, NS_ITS "locQualityIssue") == 0 &&
           attr(atts, "locQualityIssueType") == NULL &&
           attr(atts, "locQualityIssueComment") == NULL)
    xmt_x2_rules_report(r, at,
                        "<its:locQualityIssue> has neither "
                        "locQualityIssueType nor locQualityIssueComment "
                        "(XLIFF 2.1 §5.9)");
  if (local == NULL)
    return;
  int inline_ref = strcmp(local, "mrk") == 0 || strcmp(local, "sm") == 0;
  int structural = strcmp(local, "file") == 0 || strcmp(local, "group") == 0 ||
                   strcmp(local, "unit") == 0;
  const char *q = attr(atts, NS_ITS "locQualityIssuesRef");
  const char *p = attr(atts, NS_ITS "provenanceRecordsRef");
  if (q != NULL && inline_ref)
    reference(r, 'q', local, q, 1, at);
  if (p != NULL && (inline_ref || structural))
    reference(r, 'p', local, p, inline_ref, at);
}

/* The xml:id a value names in this document ("#its=ID", "#ID"), or NULL
 * for another IRI. */
static const char *local_id(const char *v) {
  if (v[0] != '#')
    return NULL;
  v += strncmp(v, "#its=", 5) == 0 ? 5 : 1;
  return *v != '\0' && strpbrk(v, "/=") == NULL ? v : NULL;
}

static void resolve(struct x2_rules *r, const struct its_ref *p) {
  struct x2_its *its = &r->mod.its;
  const char *value = its->names.data + p->value;
  const char *id = local_id(value);
  if (id == NULL)
    return;
  const struct its_standoff *found = NULL;
  for (size_t i = 0; i < its->nids && (found == NULL || found->kind != p->kind);
       i++) {
    const struct its_standoff *o = &its->ids[i];
    if ((p->inline_ref ? o->enc == p->enc : o->enc <= p->enc) &&
        strcmp(its->names.data + o->name, id) == 0)
      found = o;
  }
  if (found != NULL && found->kind == p->kind)
    return;
  const char *elem = its->names.data + p->elem;
  const char *scope = !p->inline_ref ? "it or an enclosing element"
                      : r->stack[p->enc] == S_UNIT
                          ? "its <unit>"
                          : "its <mtc:match> or <ctr:revision>";
  const char *attr_name =
      p->kind == 'q' ? "locQualityIssuesRef" : "provenanceRecordsRef";
  char msg[400];
  if (found != NULL)
    snprintf(msg, sizeof msg,
             "<%s> its:%s=\"%.64s\" names <%s xml:id=\"%.64s\">, not an "
             "<%s> (XLIFF 2.1 §5.9)",
             elem, attr_name, value, standoff_name(found->kind), id,
             standoff_name(p->kind));
  else
    snprintf(msg, sizeof msg,
             "<%s> its:%s=\"%.64s\" names no <%s xml:id=\"%.64s\"> in %s "
             "(XLIFF 2.1 §5.9)",
             elem, attr_name, value, standoff_name(p->kind), id, scope);
  xmt_x2_rules_report(r, p->at, msg);
}

void xmt_x2_its_end(struct x2_rules *r, const char *name) {
  struct x2_its *its = &r->mod.its;
  size_t index = r->depth - 1, kept = 0, end = 0;
  (void)name;
  if (its->holder == r->depth)
    its->holder = 0;
  if (its->nrefs == 0 && its->nids == 0)
    return;
  for (size_t i = 0; i < its->nrefs; i++)
    if (its->refs[i].enc == index)
      resolve(r, &its->refs[i]);
    else
      its->refs[kept++] = its->refs[i];
  its->nrefs = kept;
  kept = 0;
  for (size_t i = 0; i < its->nids; i++)
    if (its->ids[i].enc != index)
      its->ids[kept++] = its->ids[i];
  its->nids = kept;
  /* the names still used end at the last one kept: the rest is let go */
  for (size_t i = 0; i < its->nrefs; i++) {
    const struct its_ref *p = &its->refs[i];
    size_t e = p->elem + strlen(its->names.data + p->elem) + 1;
    end = e > end ? e : end;
  }
  for (size_t i = 0; i < its->nids; i++) {
    const struct its_standoff *o = &its->ids[i];
    size_t e = o->name + strlen(its->names.data + o->name) + 1;
    end = e > end ? e : end;
  }
  its->names.len = end;
}

void xmt_x2_its_free(struct x2_its *its) {
  free(its->flags);
  its->flags = NULL;
  its->cap = 0;
  free(its->ids);
  free(its->refs);
  its->ids = NULL;
  its->refs = NULL;
  its->nids = its->nrefs = its->ids_cap = its->refs_cap = 0;
  xmt_buf_free(&its->names);
  xmt_unit_keys_free(&its->xml_ids);
}
