/* srx_load.c -- reading SRX 2.0 rule files (libxml2) and compiling their
 * regular expressions (ICU), Okapi's extensions included. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include "segmenter_private.h"
#include "xml_read_private.h"

/* --- The document -------------------------------------------------------- */

void xmt_srx_doc_free(struct srx_doc *d) {
  for (size_t i = 0; i < d->nlangrules; i++) {
    struct srx_langrule *lr = &d->langrules[i];
    for (size_t j = 0; j < lr->nrules; j++) {
      if (lr->rules[j].re != NULL)
        uregex_close(lr->rules[j].re);
      if (lr->rules[j].local != NULL)
        uregex_close(lr->rules[j].local);
      xmt_srx_hints_free(&lr->rules[j].hints);
      xmt_srx_shape_free(lr->rules[j].shape);
      free(lr->rules[j].before);
      free(lr->rules[j].after);
    }
    free(lr->rules);
    free(lr->name);
  }
  free(d->langrules);
  for (size_t i = 0; i < d->nmaps; i++) {
    if (d->maps[i].re != NULL)
      uregex_close(d->maps[i].re);
    free(d->maps[i].pattern);
  }
  free(d->maps);
  if (d->mask != NULL)
    uregex_close(d->mask);
  memset(d, 0, sizeof *d);
}

/* Options as Okapi's SRXSegmenter.reset() sets them before a file is read:
 * the SRX defaults, Okapi's extensions off. */
static void doc_defaults(struct srx_doc *d) {
  memset(d, 0, sizeof *d);
  d->segment_subflows = 1;
  d->include_end = 1;
}

/* What loading needs besides the document being built. */
struct loader {
  xmt_segmenter *s;
  struct srx_doc doc;
  const char *name; /* file name for messages */
  UChar *u16;       /* pattern conversion buffer */
  int32_t u16_cap;
  int lazy; /* the shipped rules: compiled when a language selects them */
};

static int is_yes(const xmlChar *v) {
  return v != NULL && (xmlStrcasecmp(v, BAD_CAST "yes") == 0 ||
                       xmlStrcasecmp(v, BAD_CAST "true") == 0);
}

/* Element children are matched by local name: SRX files come with the SRX
 * 2.0 namespace, without one, or with the okpsrx one for extensions. */
static int named(const xmlNode *n, const char *local) {
  return n->type == XML_ELEMENT_NODE && xmlStrcmp(n->name, BAD_CAST local) == 0;
}

/* c or the first of its next siblings that is element local; NULL when
 * none is. */
static const xmlNode *first_named(const xmlNode *c, const char *local) {
  while (c != NULL && !named(c, local))
    c = c->next;
  return c;
}

static unsigned long line_of(const xmlNode *n) {
  long line = xmlGetLineNo(n);
  return line > 0 ? (unsigned long)line : 0;
}

/* A plain-English reason for an ICU pattern error. */
static const char *regex_reason(UErrorCode code) {
  switch (code) {
  case U_REGEX_MISMATCHED_PAREN:
    return "unbalanced parentheses";
  case U_REGEX_MISSING_CLOSE_BRACKET:
    return "missing closing bracket";
  case U_REGEX_RULE_SYNTAX:
    return "syntax error";
  case U_REGEX_BAD_ESCAPE_SEQUENCE:
    return "unknown escape sequence";
  case U_REGEX_PROPERTY_SYNTAX:
    return "bad Unicode property";
  case U_REGEX_BAD_INTERVAL:
  case U_REGEX_MAX_LT_MIN:
    return "bad {min,max} interval";
  case U_REGEX_INVALID_RANGE:
    return "bad character range";
  case U_REGEX_LOOK_BEHIND_LIMIT:
    return "look-behind of unbounded length";
  case U_REGEX_INVALID_FLAG:
    return "unknown flag";
  case U_REGEX_INVALID_BACK_REF:
    return "back-reference to a missing group";
  case U_REGEX_NUMBER_TOO_BIG:
    return "number too big";
  case U_REGEX_INVALID_CAPTURE_GROUP_NAME:
    return "bad group name";
  default:
    return u_errorName(code);
  }
}

/* Converts UTF-8 to the loader's UTF-16 buffer; returns its length or -1. */
static int32_t to_u16(struct loader *l, const char *s, int32_t *len16) {
  UErrorCode st = U_ZERO_ERROR;
  int32_t n = 0;
  u_strFromUTF8(l->u16, l->u16_cap, &n, s, -1, &st);
  if (st == U_BUFFER_OVERFLOW_ERROR || n + 1 > l->u16_cap) {
    size_t cap = (size_t)l->u16_cap;
    UChar *u = xmt_grow_array(l->u16, &cap, (size_t)n + 1, sizeof *u);
    if (u == NULL)
      return -1;
    l->u16 = u;
    /* ICU counts in int32_t: a larger array is used only up to that. */
    l->u16_cap = cap > INT32_MAX ? INT32_MAX : (int32_t)cap;
    st = U_ZERO_ERROR;
    u_strFromUTF8(l->u16, l->u16_cap, &n, s, -1, &st);
  }
  if (U_FAILURE(st))
    return -1;
  *len16 = n;
  return 0;
}

/* 1-based character (code point) position in pattern of an ICU parse
 * error, which counts UTF-16 units from the start of a pattern line. */
static unsigned long error_char(const char *pattern, const UParseError *pe) {
  size_t i = 0, n = strlen(pattern);
  unsigned long chars = 0;
  for (int32_t line = 1; line < pe->line && i < n; i++)
    if (pattern[i] == '\n')
      line++;
  long units = pe->offset > 0 ? pe->offset : 0;
  while (units > 0 && i < n) {
    unsigned char c = (unsigned char)pattern[i];
    size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units -= k == 4 ? 2 : 1;
    i += k;
    chars++;
  }
  return chars + 1;
}

/* Compiles pattern; on failure records "WHAT "PATTERN" is not a valid
 * regular expression: REASON at character N" at line. */
static xmt_status compile(struct loader *l, const char *pattern,
                          unsigned long line, const char *what,
                          URegularExpression **out) {
  int32_t n16;
  if (pattern[0] == '\0')
    pattern = "(?:)"; /* ICU refuses an empty pattern */
  if (to_u16(l, pattern, &n16) != 0)
    return xmt_error_at(&l->s->err, XMT_ERR_NOMEM, XMT_AT_LINE(l->name, line),
                        "out of memory");
  UParseError pe;
  memset(&pe, 0, sizeof pe);
  UErrorCode st = U_ZERO_ERROR;
  l->s->regex_compiles++;
  *out = uregex_open(l->u16, n16, 0, &pe, &st);
  if (U_SUCCESS(st))
    return XMT_OK;
  if (st == U_MEMORY_ALLOCATION_ERROR)
    return xmt_error_at(&l->s->err, XMT_ERR_NOMEM, XMT_AT_LINE(l->name, line),
                        "out of memory");
  return xmt_error_at(&l->s->err, XMT_ERR_FORMAT, XMT_AT_LINE(l->name, line),
                      "%s \"%s\" is not a valid regular expression: %s at "
                      "character %lu",
                      what, pattern, regex_reason(st),
                      error_char(pattern, &pe));
}

static char *text_of(const xmlNode *n) {
  xmlChar *c = n != NULL ? xmlNodeGetContent(n) : NULL;
  char *s = xmt_strdup(c != NULL ? (const char *)c : "");
  xmlFree(c);
  return s;
}

static void read_header(struct loader *l, const xmlNode *h) {
  struct srx_doc *d = &l->doc;
  xmlChar *v = xmlGetProp(h, BAD_CAST "segmentsubflows");
  if (v != NULL)
    d->segment_subflows = is_yes(v);
  xmlFree(v);
  v = xmlGetProp(h, BAD_CAST "cascade");
  d->cascade = is_yes(v);
  xmlFree(v);
  for (const xmlNode *c = h->children; c != NULL; c = c->next) {
    if (named(c, "formathandle")) {
      xmlChar *type = xmlGetProp(c, BAD_CAST "type");
      xmlChar *inc = xmlGetProp(c, BAD_CAST "include");
      int yes = is_yes(inc);
      if (type != NULL && xmlStrcmp(type, BAD_CAST "start") == 0)
        d->include_start = yes;
      else if (type != NULL && xmlStrcmp(type, BAD_CAST "end") == 0)
        d->include_end = yes;
      else if (type != NULL && xmlStrcmp(type, BAD_CAST "isolated") == 0)
        d->include_isolated = yes;
      xmlFree(type);
      xmlFree(inc);
    } else if (named(c, "options")) {
      /* okpsrx:options; attribute names as Okapi writes them, matched
       * without regard to case. useJavaRegex is accepted and ignored: the
       * rules are compiled with ICU, which reads the same syntax. */
      for (const xmlAttr *a = c->properties; a != NULL; a = a->next) {
        xmlChar *val = xmlNodeGetContent((const xmlNode *)a);
        int yes = is_yes(val);
        const xmlChar *k = a->name;
        if (xmlStrcasecmp(k, BAD_CAST "trimLeadingWhitespaces") == 0)
          d->trim_leading = yes;
        else if (xmlStrcasecmp(k, BAD_CAST "trimTrailingWhitespaces") == 0)
          d->trim_trailing = yes;
        else if (xmlStrcasecmp(k, BAD_CAST "oneSegmentIncludesAll") == 0)
          d->one_segment_includes_all = yes;
        else if (xmlStrcasecmp(k, BAD_CAST "treatIsolatedCodesAsWhitespace") ==
                 0)
          d->isolated_as_space = yes;
        else if (xmlStrcasecmp(k, BAD_CAST "useIcu4JBreakRules") == 0)
          d->icu_breaks = yes;
        xmlFree(val);
      }
    }
  }
}

/* "(before)(after)": Okapi's form; the rule hits where group 1 ends. */
static char *rule_pattern(const char *before, const char *after) {
  size_t n = strlen(before) + strlen(after) + 5;
  char *p = malloc(n);
  if (p != NULL)
    snprintf(p, n, "(%s)(%s)", before, after);
  return p;
}

static int is_punct(char c) {
  return c > ' ' && c < 0x7F && !(c >= '0' && c <= '9') &&
         !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z');
}

/* Length of the last atom of a pattern when it is one punctuation mark
 * ("\.") or a set of them ("[.,]", "[\])]") that the whole pattern must
 * end with: no alternation at the top level. 0 when unsure. It makes a
 * one-character look-behind that turns most positions away at once. */
static size_t last_atom(const char *pat) {
  size_t n = strlen(pat), depth = 0;
  for (size_t i = 0; i < n; i++) {
    if (pat[i] == '\\') {
      i++;
    } else if (pat[i] == '[') {
      while (i < n && pat[i] != ']')
        i += pat[i] == '\\' ? 2 : 1;
    } else if (pat[i] == '(') {
      depth++;
    } else if (pat[i] == ')') {
      depth--;
    } else if (pat[i] == '|' && depth == 0) {
      return 0;
    }
  }
  if (n >= 2 && pat[n - 2] == '\\' && is_punct(pat[n - 1]) &&
      (n < 3 || pat[n - 3] != '\\'))
    return 2;
  if (n >= 3 && pat[n - 1] == ']' && pat[n - 2] != '\\') {
    size_t i = n - 1;
    while (i > 0 && !(pat[i - 1] == '[' && (i < 2 || pat[i - 2] != '\\'))) {
      if (!is_punct(pat[i - 1]))
        return 0;
      i--;
    }
    return i > 0 && pat[i] != '^' ? n - (i - 1) : 0;
  }
  return 0;
}

/* Compiles "(?<=last)(?=(?:after))(?<=(?:before))" (last: the prefix
 * read from the beforebreak by srx_scan.c when given, else last_atom's),
 * when ICU accepts it: it does when the beforebreak has a bounded length.
 * *out stays NULL otherwise. The cheap assertions come first. */
static xmt_status compile_local(struct loader *l, const char *before,
                                const char *after, const char *prefix,
                                URegularExpression **out) {
  size_t n = strlen(before) * 2 + strlen(after) +
             (prefix != NULL ? strlen(prefix) : 0) + 32;
  char *p = malloc(n);
  int32_t n16;
  *out = NULL;
  if (p == NULL)
    return XMT_ERR_NOMEM;
  size_t last = last_atom(before);
  if (prefix != NULL)
    snprintf(p, n, "%s(?=(?:%s))(?<=(?:%s))", prefix, after, before);
  else if (last > 0)
    snprintf(p, n, "(?<=%s)(?=(?:%s))(?<=(?:%s))",
             before + strlen(before) - last, after, before);
  else
    snprintf(p, n, "(?=(?:%s))(?<=(?:%s))", after, before);
  int bad = to_u16(l, p, &n16) != 0;
  free(p);
  if (bad)
    return XMT_ERR_NOMEM;
  UParseError pe;
  UErrorCode st = U_ZERO_ERROR;
  l->s->regex_compiles++;
  *out = uregex_open(l->u16, n16, 0, &pe, &st);
  if (st == U_MEMORY_ALLOCATION_ERROR)
    return XMT_ERR_NOMEM;
  if (U_FAILURE(st)) {
    *out = NULL;
    /* Should ICU refuse the prefix, the rule keeps the form it had. */
    if (prefix != NULL)
      return compile_local(l, before, after, NULL, out);
  }
  return XMT_OK;
}

/* Compiles part (the pattern of element n) of rule number of lr alone,
 * only to say what is wrong with it. */
static xmt_status check_part(struct loader *l, const struct srx_langrule *lr,
                             size_t number, const char *part,
                             const char *pattern, const xmlNode *n) {
  char what[160];
  URegularExpression *re = NULL;
  snprintf(what, sizeof what, "languagerule \"%.60s\", rule %zu: <%s>",
           lr->name, number, part);
  xmt_status st = compile(l, pattern, line_of(n), what, &re);
  uregex_close(re);
  return st;
}

static xmt_status read_rule(struct loader *l, struct srx_langrule *lr,
                            const xmlNode *r) {
  if (lr->nrules == lr->cap) {
    struct srx_rule *rules =
        xmt_grow_array(lr->rules, &lr->cap, lr->nrules + 1, sizeof *rules);
    if (rules == NULL)
      return XMT_ERR_NOMEM;
    lr->rules = rules;
  }
  const xmlNode *bn = NULL, *an = NULL;
  for (const xmlNode *c = r->children; c != NULL; c = c->next) {
    if (named(c, "beforebreak"))
      bn = c;
    else if (named(c, "afterbreak"))
      an = c;
  }
  xmlChar *brk = xmlGetProp(r, BAD_CAST "break");
  int is_break = brk == NULL || is_yes(brk); /* SRX: break="yes" default */
  xmlFree(brk);
  char *before = text_of(bn), *after = text_of(an);
  if (l->lazy) {
    struct srx_rule *rule = &lr->rules[lr->nrules];
    memset(rule, 0, sizeof *rule);
    rule->is_break = is_break;
    rule->before = before;
    rule->after = after;
    rule->line = line_of(r);
    rule->hints.max16 = -1;
    if (before == NULL || after == NULL) {
      free(before);
      free(after);
      return XMT_ERR_NOMEM;
    }
    lr->nrules++;
    return XMT_OK;
  }
  char *whole = before && after ? rule_pattern(before, after) : NULL;
  xmt_status st = whole != NULL ? XMT_OK : XMT_ERR_NOMEM;
  char what[160];
  URegularExpression *re = NULL;
  size_t number = lr->nrules + 1;
  /* Each part alone first, so that an error points into the part. */
  if (st == XMT_OK)
    st = check_part(l, lr, number, "beforebreak", before, bn != NULL ? bn : r);
  if (st == XMT_OK)
    st = check_part(l, lr, number, "afterbreak", after, an != NULL ? an : r);
  if (st == XMT_OK) {
    snprintf(what, sizeof what, "languagerule \"%.60s\", rule %zu:", lr->name,
             number);
    st = compile(l, whole, line_of(r), what, &re);
  }
  URegularExpression *local = NULL;
  struct srx_hints hints;
  if (st == XMT_OK)
    st = xmt_srx_scan(before, &hints);
  if (st == XMT_OK && !is_break &&
      (st = compile_local(l, before, after, hints.prefix, &local)) != XMT_OK)
    xmt_srx_hints_free(&hints);
  int nomem = 0;
  struct srx_shape *shape =
      st != XMT_OK    ? NULL
      : local != NULL ? xmt_srx_shape_read(before, after, &nomem)
                      : xmt_srx_shape_read_find(before, after, &nomem);
  if (nomem) {
    xmt_srx_hints_free(&hints);
    uregex_close(local);
    st = XMT_ERR_NOMEM;
  }
  free(before);
  free(after);
  free(whole);
  if (st != XMT_OK) {
    if (re != NULL)
      uregex_close(re);
    return st;
  }
  memset(&lr->rules[lr->nrules], 0, sizeof lr->rules[lr->nrules]);
  lr->rules[lr->nrules].is_break = is_break;
  lr->rules[lr->nrules].re = re;
  lr->rules[lr->nrules].local = local;
  lr->rules[lr->nrules].has_local = local != NULL;
  lr->rules[lr->nrules].hints = hints;
  lr->rules[lr->nrules].shape = shape;
  lr->nrules++;
  return XMT_OK;
}

static xmt_status read_languagerule(struct loader *l, const xmlNode *c) {
  struct srx_doc *d = &l->doc;
  xmlChar *name = xmlGetProp(c, BAD_CAST "languagerulename");
  if (name == NULL)
    return xmt_error_at(&l->s->err, XMT_ERR_FORMAT,
                        XMT_AT_LINE(l->name, line_of(c)),
                        "<languagerule> without languagerulename");
  if (d->nlangrules == d->langrules_cap) {
    struct srx_langrule *lr = xmt_grow_array(d->langrules, &d->langrules_cap,
                                             d->nlangrules + 1, sizeof *lr);
    if (lr == NULL) {
      xmlFree(name);
      return XMT_ERR_NOMEM;
    }
    d->langrules = lr;
  }
  struct srx_langrule *lr = &d->langrules[d->nlangrules];
  memset(lr, 0, sizeof *lr);
  lr->name = xmt_strdup((const char *)name);
  xmlFree(name);
  if (lr->name == NULL)
    return XMT_ERR_NOMEM;
  d->nlangrules++;
  xmt_status st = XMT_OK;
  for (const xmlNode *r = first_named(c->children, "rule");
       r != NULL && st == XMT_OK; r = first_named(r->next, "rule"))
    st = read_rule(l, lr, r);
  lr->compiled = !l->lazy;
  return st;
}

/* 1 when pattern repeats something without bound (*, + or {n,} outside a
 * set): then it has no C shape and ICU refuses it in a look-behind, so
 * neither is tried (reading the shape of the CJK rule asked ICU for its
 * classes: 8 million instructions). 0 when unsure: look-arounds (one may
 * hold a * that ICU accepts) and quoting. */
static int unbounded(const char *pat) {
  int any = 0;
  for (size_t i = 0; pat[i] != '\0'; i++) {
    char c = pat[i];
    if (c == '\\') {
      if (pat[i + 1] == 'Q' || pat[i + 1] == '\0')
        return 0;
      i++;
    } else if (c == '[') {
      int depth = 1;
      for (i++; pat[i] != '\0' && depth > 0; i++)
        if (pat[i] == '\\' && pat[i + 1] != '\0')
          i++;
        else
          depth += pat[i] == '[' ? 1 : pat[i] == ']' ? -1 : 0;
      if (depth > 0)
        return 0;
      i--;
    } else if (c == '(' && pat[i + 1] == '?' && pat[i + 2] != ':') {
      return 0;
    } else if ((c == '*' || c == '+') && i > 0 && pat[i - 1] != '?' &&
               pat[i - 1] != '}') {
      any = 1;
    } else if (c == '{' && strspn(pat + i + 1, "0123456789") > 0 &&
               pat[i + 1 + strspn(pat + i + 1, "0123456789")] == ',' &&
               pat[i + 2 + strspn(pat + i + 1, "0123456789")] == '}') {
      any = 1;
    }
  }
  return any;
}

/* What read_rule does at load for a rule read lazily, less the checks (the
 * shipped rules compile) and the whole pattern of a no-break rule that has
 * a local form (only break rules and the other no-break rules are searched
 * through the text). A no-break rule of a C shape has a bounded
 * beforebreak, so a local form: it is compiled only when the shape leaves
 * a position to ICU (xmt_srx_rule_local), which text below U+0100 seldom
 * does. */
static xmt_status compile_lazy_rule(struct loader *l, struct srx_rule *rule) {
  if (rule->read)
    return XMT_OK; /* by an earlier call that failed further on */
  xmt_status st = xmt_srx_scan(rule->before, &rule->hints);
  int nomem = 0;
  if (st == XMT_OK && !rule->is_break && !unbounded(rule->before) &&
      (rule->shape = xmt_srx_shape_read(rule->before, rule->after, &nomem)) ==
          NULL)
    st = nomem ? XMT_ERR_NOMEM
               : compile_local(l, rule->before, rule->after, rule->hints.prefix,
                               &rule->local);
  int searched = rule->shape == NULL && rule->local == NULL;
  /* Searched through the text: its find form; the whole pattern is
   * compiled when a find is first left to ICU (xmt_srx_rule_whole), which
   * a rule whose required characters are not in the text never is. */
  if (st == XMT_OK && searched &&
      (rule->shape = xmt_srx_shape_read_find(rule->before, rule->after,
                                             &nomem)) == NULL &&
      nomem)
    st = XMT_ERR_NOMEM;
  if (st != XMT_OK) { /* as it was, to be compiled again */
    xmt_srx_hints_free(&rule->hints);
    if (rule->local != NULL)
      uregex_close(rule->local);
    rule->local = NULL;
    xmt_srx_shape_free(rule->shape);
    rule->shape = NULL;
    return st;
  }
  rule->has_local = !searched;
  rule->read = 1;
  if (rule->local != NULL) { /* else kept for later */
    free(rule->before);
    free(rule->after);
    rule->before = rule->after = NULL;
  }
  return XMT_OK;
}

/* A loader for the shipped rules, read before: no file to name but theirs. */
static void shipped_loader(struct loader *l, xmt_segmenter *s) {
  memset(l, 0, sizeof *l);
  l->s = s;
  l->name = "xliffmt.srx";
}

/* Rule r's whole pattern (whole) or its local form, compiled the first
 * time it is asked for; its parts are freed once it is. A failure is in
 * *ust: no memory, or a form ICU does not read. */
static URegularExpression *compiled_once(xmt_segmenter *s, struct srx_rule *r,
                                         int whole, UErrorCode *ust) {
  URegularExpression **re = whole ? &r->re : &r->local;
  if (*re != NULL || U_FAILURE(*ust))
    return *re;
  struct loader l;
  shipped_loader(&l, s);
  xmt_status st = XMT_ERR_INTERNAL; /* parts gone: another form was made */
  if (r->before != NULL && r->after != NULL && !whole)
    st = compile_local(&l, r->before, r->after, r->hints.prefix, re);
  else if (r->before != NULL && r->after != NULL) {
    char *pattern = rule_pattern(r->before, r->after);
    st = pattern != NULL ? compile(&l, pattern, r->line, "rule", re)
                         : XMT_ERR_NOMEM;
    free(pattern);
  }
  free(l.u16);
  if (st == XMT_ERR_NOMEM)
    *ust = U_MEMORY_ALLOCATION_ERROR;
  else if (*re == NULL) /* ICU refused it: a shape it does not read */
    *ust = U_REGEX_INTERNAL_ERROR;
  else {
    free(r->before);
    free(r->after);
    r->before = r->after = NULL;
  }
  return *re;
}

URegularExpression *xmt_srx_rule_local(xmt_segmenter *s, struct srx_rule *r,
                                       UErrorCode *ust) {
  return compiled_once(s, r, 0, ust);
}

URegularExpression *xmt_srx_rule_whole(xmt_segmenter *s, struct srx_rule *r,
                                       UErrorCode *ust) {
  return compiled_once(s, r, 1, ust);
}

xmt_status xmt_srx_compile_langrule(xmt_segmenter *s, struct srx_langrule *lr) {
  if (lr->compiled)
    return XMT_OK;
  struct loader l;
  shipped_loader(&l, s);
  xmt_status st = XMT_OK;
  for (size_t j = 0; j < lr->nrules && st == XMT_OK; j++)
    st = compile_lazy_rule(&l, &lr->rules[j]);
  free(l.u16);
  if (st == XMT_ERR_NOMEM && s->err.pub.message == NULL)
    xmt_error_nomem(&s->err);
  lr->compiled = st == XMT_OK;
  return st;
}

/* The shipped maps' forms, "(?i)LL(?:[-_].*)?" and ".*", matched without
 * ICU: 1 or 0, or -1 when the pattern or the tag is of another kind (tags
 * of printable ASCII only: "." matches no line end, and (?i) folds "k"
 * and "s" with letters beyond ASCII). */
static int map_by_hand(const char *pattern, const char *lang) {
  for (const char *q = lang; *q != '\0'; q++)
    if (*q < 0x20 || *q > 0x7E)
      return -1;
  if (strcmp(pattern, ".*") == 0)
    return 1;
  static const char head[] = "(?i)", tail[] = "(?:[-_].*)?";
  size_t n = strlen(pattern), hn = sizeof head - 1, tn = sizeof tail - 1;
  if (n <= hn + tn || strncmp(pattern, head, hn) != 0 ||
      strcmp(pattern + n - tn, tail) != 0)
    return -1;
  size_t k = hn;
  for (; k < n - tn; k++) {
    char c = pattern[k];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
      return -1;
    char t = lang[k - hn];
    if (t == '\0' || (t | 0x20) != (c | 0x20))
      return 0;
  }
  char t = lang[k - hn];
  return t == '\0' || t == '-' || t == '_';
}

int xmt_srx_map_matches(xmt_segmenter *s, struct srx_map *m, const char *lang,
                        const UChar *tag, int32_t n16) {
  if (m->re == NULL) {
    int hit = m->pattern != NULL ? map_by_hand(m->pattern, lang) : -1;
    if (hit >= 0)
      return hit;
    struct loader l;
    memset(&l, 0, sizeof l);
    l.s = s;
    l.name = "xliffmt.srx";
    xmt_status st = m->pattern != NULL
                        ? compile(&l, m->pattern, 0,
                                  "<languagemap> languagepattern", &m->re)
                        : XMT_ERR_INTERNAL;
    free(l.u16);
    if (st != XMT_OK)
      return -1;
  }
  UErrorCode st = U_ZERO_ERROR;
  uregex_setText(m->re, tag, n16, &st);
  UBool hit = uregex_matches(m->re, 0, &st);
  uregex_setText(m->re, tag, 0, &st);
  return U_FAILURE(st) ? 0 : hit != 0;
}

static xmt_status read_languagemap(struct loader *l, const xmlNode *c) {
  struct srx_doc *d = &l->doc;
  xmlChar *pattern = xmlGetProp(c, BAD_CAST "languagepattern");
  xmlChar *rname = xmlGetProp(c, BAD_CAST "languagerulename");
  xmt_status st = XMT_OK;
  size_t index = SIZE_MAX;
  if (pattern == NULL || rname == NULL)
    st = xmt_error_at(&l->s->err, XMT_ERR_FORMAT,
                      XMT_AT_LINE(l->name, line_of(c)),
                      "<languagemap> needs languagepattern and "
                      "languagerulename");
  for (size_t i = 0; st == XMT_OK && rname != NULL && i < d->nlangrules; i++)
    if (strcmp(d->langrules[i].name, (const char *)rname) == 0) {
      index = i;
      break;
    }
  if (st == XMT_OK && index == SIZE_MAX)
    st = xmt_error_at(
        &l->s->err, XMT_ERR_FORMAT, XMT_AT_LINE(l->name, line_of(c)),
        "<languagemap>: no languagerule named \"%s\"", (const char *)rname);
  if (st == XMT_OK && d->nmaps == d->maps_cap) {
    struct srx_map *m =
        xmt_grow_array(d->maps, &d->maps_cap, d->nmaps + 1, sizeof *m);
    if (m == NULL)
      st = XMT_ERR_NOMEM;
    else
      d->maps = m;
  }
  URegularExpression *re = NULL;
  char *lazy = NULL;
  if (st == XMT_OK && l->lazy)
    st = (lazy = xmt_strdup((const char *)pattern)) != NULL ? XMT_OK
                                                            : XMT_ERR_NOMEM;
  else if (st == XMT_OK && pattern != NULL)
    st = compile(l, (const char *)pattern, line_of(c),
                 "<languagemap> languagepattern", &re);
  if (st == XMT_OK) {
    d->maps[d->nmaps].re = re;
    d->maps[d->nmaps].pattern = lazy;
    d->maps[d->nmaps].langrule = index;
    d->nmaps++;
  }
  xmlFree(pattern);
  xmlFree(rname);
  return st;
}

/* fn on each element inner of each element outer of parent, in document
 * order, up to the first that fails. */
static xmt_status read_each(struct loader *l, const xmlNode *parent,
                            const char *outer, const char *inner,
                            xmt_status (*fn)(struct loader *,
                                             const xmlNode *)) {
  xmt_status st = XMT_OK;
  for (const xmlNode *o = first_named(parent->children, outer);
       o != NULL && st == XMT_OK; o = first_named(o->next, outer))
    for (const xmlNode *c = first_named(o->children, inner);
         c != NULL && st == XMT_OK; c = first_named(c->next, inner))
      st = fn(l, c);
  return st;
}

static xmt_status read_srx(struct loader *l, const xmlNode *root) {
  if (!named(root, "srx"))
    return xmt_error_at(&l->s->err, XMT_ERR_FORMAT,
                        XMT_AT_LINE(l->name, line_of(root)),
                        "not an SRX document: the root element is <%s>, "
                        "not <srx>",
                        (const char *)root->name);
  xmt_status st = XMT_OK;
  const xmlNode *body = NULL;
  for (const xmlNode *c = root->children; c != NULL; c = c->next) {
    if (named(c, "header")) {
      read_header(l, c);
      for (const xmlNode *h = first_named(c->children, "rangeRule");
           h != NULL && st == XMT_OK; h = first_named(h->next, "rangeRule")) {
        char *mask = text_of(h);
        if (mask == NULL)
          return XMT_ERR_NOMEM;
        if (mask[0] != '\0')
          st = compile(l, mask, line_of(h), "<okpsrx:rangeRule>", &l->doc.mask);
        free(mask);
      }
    } else if (named(c, "body"))
      body = c;
  }
  if (st != XMT_OK)
    return st;
  if (body == NULL)
    return xmt_error_at(&l->s->err, XMT_ERR_FORMAT,
                        XMT_AT_LINE(l->name, line_of(root)),
                        "not an SRX document: no <body>");
  /* The maps name rules: all rules first. */
  st = read_each(l, body, "languagerules", "languagerule", read_languagerule);
  if (st == XMT_OK)
    st = read_each(l, body, "maprules", "languagemap", read_languagemap);
  return st;
}

static xmt_status load_memory(xmt_segmenter *s, const char *xml, size_t len,
                              const char *name, int lazy) {
  if (s == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  if (xml == NULL || len > INT_MAX)
    return xmt_error_at(&s->err, XMT_ERR_USAGE, XMT_IN(name),
                        "no SRX document given, or one over 2 GB");
  struct loader l;
  memset(&l, 0, sizeof l);
  l.s = s;
  l.name = name;
  l.lazy = lazy;
  doc_defaults(&l.doc);
  xmlDocPtr doc =
      xmt_xml_read(&s->err, name, xml, len, XML_PARSE_NOBLANKS, "SRX document");
  xmt_status st = XMT_OK;
  if (doc == NULL) {
    st = s->err.pub.status;
  } else {
    st = read_srx(&l, xmlDocGetRootElement(doc));
    if (st == XMT_ERR_NOMEM && s->err.pub.message == NULL)
      xmt_error_at(&s->err, XMT_ERR_NOMEM, XMT_IN(name), "out of memory");
  }
  xmlFreeDoc(doc);
  free(l.u16);
  if (st != XMT_OK) {
    xmt_srx_doc_free(&l.doc);
    return st;
  }
  xmt_srx_doc_free(&s->doc);
  s->doc = l.doc;
  xmt_srx_forget_language(s);
  return XMT_OK;
}

xmt_status xmt_segmenter_load_srx_memory(xmt_segmenter *s, const char *xml,
                                         size_t len, const char *name) {
  return load_memory(s, xml, len, name, 0);
}

xmt_status xmt_srx_load_default(xmt_segmenter *s) {
  return load_memory(s, (const char *)xmt_srx_default, xmt_srx_default_len,
                     "xliffmt.srx", 1);
}

xmt_status xmt_segmenter_load_srx(xmt_segmenter *s, const char *path) {
  if (s == NULL || path == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  FILE *fp = xmt_input_open(path, &s->err);
  if (fp == NULL)
    return XMT_ERR_IO;
  struct xmt_buf buf = {0};
  xmt_status st = xmt_buf_append_stream(&buf, fp, path, &s->err);
  if (st == XMT_ERR_NOMEM)
    xmt_error_at(&s->err, st, XMT_IN(path), "out of memory");
  if (st == XMT_OK)
    st = xmt_segmenter_load_srx_memory(s, buf.data != NULL ? buf.data : "",
                                       buf.len, path);
  xmt_buf_free(&buf);
  return st;
}
