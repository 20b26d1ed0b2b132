/* srx.c -- SRX 2.0 sentence segmentation: loading rule files (libxml2),
 * compiling their regular expressions (ICU) and finding sentence breaks
 * the way Okapi's SRXSegmenter does. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include "filter_private.h"
#include "segmenter_private.h"

enum { UNDECIDED = 0, BREAK = 1, NO_BREAK = 2 };

/* --- The document -------------------------------------------------------- */

static void doc_free(struct srx_doc *d) {
  for (size_t i = 0; i < d->nlangrules; i++) {
    struct srx_langrule *lr = &d->langrules[i];
    for (size_t j = 0; j < lr->nrules; j++) {
      uregex_close(lr->rules[j].re);
      if (lr->rules[j].local != NULL)
        uregex_close(lr->rules[j].local);
    }
    free(lr->rules);
    free(lr->name);
  }
  free(d->langrules);
  for (size_t i = 0; i < d->nmaps; i++)
    uregex_close(d->maps[i].re);
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
    UChar *u = realloc(l->u16, ((size_t)n + 1) * sizeof *u);
    if (u == NULL)
      return -1;
    l->u16 = u;
    l->u16_cap = n + 1;
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
    return xmt_error_set(&l->s->err, XMT_ERR_NOMEM, l->name, line, 0, NULL,
                         "out of memory");
  UParseError pe;
  memset(&pe, 0, sizeof pe);
  UErrorCode st = U_ZERO_ERROR;
  *out = uregex_open(l->u16, n16, 0, &pe, &st);
  if (U_SUCCESS(st))
    return XMT_OK;
  if (st == U_MEMORY_ALLOCATION_ERROR)
    return xmt_error_set(&l->s->err, XMT_ERR_NOMEM, l->name, line, 0, NULL,
                         "out of memory");
  return xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line, 0, NULL,
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

/* "(?<=last)(?=(?:after))(?<=(?:before))", when ICU accepts it: it does
 * when the beforebreak has a bounded length. *out stays NULL otherwise.
 * The cheap assertions come first. */
static xmt_status compile_local(struct loader *l, const char *before,
                                const char *after, URegularExpression **out) {
  size_t n = strlen(before) * 2 + strlen(after) + 32;
  char *p = malloc(n);
  int32_t n16;
  *out = NULL;
  if (p == NULL)
    return XMT_ERR_NOMEM;
  size_t last = last_atom(before);
  if (last > 0)
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
  *out = uregex_open(l->u16, n16, 0, &pe, &st);
  if (st == U_MEMORY_ALLOCATION_ERROR)
    return XMT_ERR_NOMEM;
  if (U_FAILURE(st))
    *out = NULL;
  return XMT_OK;
}

static xmt_status read_rule(struct loader *l, struct srx_langrule *lr,
                            const xmlNode *r) {
  if (lr->nrules == lr->cap) {
    size_t cap = lr->cap ? lr->cap * 2 : 8;
    struct srx_rule *rules = realloc(lr->rules, cap * sizeof *rules);
    if (rules == NULL)
      return XMT_ERR_NOMEM;
    lr->rules = rules;
    lr->cap = cap;
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
  char *whole = before && after ? rule_pattern(before, after) : NULL;
  xmt_status st = whole != NULL ? XMT_OK : XMT_ERR_NOMEM;
  char what[160];
  URegularExpression *re = NULL;
  size_t number = lr->nrules + 1;
  /* Each part alone first, so that an error points into the part. */
  if (st == XMT_OK) {
    snprintf(what, sizeof what, "languagerule \"%.60s\", rule %zu: <%s>",
             lr->name, number, "beforebreak");
    st = compile(l, before, line_of(bn != NULL ? bn : r), what, &re);
    uregex_close(re);
    re = NULL;
  }
  if (st == XMT_OK) {
    snprintf(what, sizeof what, "languagerule \"%.60s\", rule %zu: <%s>",
             lr->name, number, "afterbreak");
    st = compile(l, after, line_of(an != NULL ? an : r), what, &re);
    uregex_close(re);
    re = NULL;
  }
  if (st == XMT_OK) {
    snprintf(what, sizeof what, "languagerule \"%.60s\", rule %zu:", lr->name,
             number);
    st = compile(l, whole, line_of(r), what, &re);
  }
  URegularExpression *local = NULL;
  if (st == XMT_OK && !is_break)
    st = compile_local(l, before, after, &local);
  free(before);
  free(after);
  free(whole);
  if (st != XMT_OK) {
    if (re != NULL)
      uregex_close(re);
    return st;
  }
  lr->rules[lr->nrules].is_break = is_break;
  lr->rules[lr->nrules].re = re;
  lr->rules[lr->nrules].local = local;
  lr->nrules++;
  return XMT_OK;
}

static xmt_status read_languagerules(struct loader *l, const xmlNode *lrs) {
  struct srx_doc *d = &l->doc;
  for (const xmlNode *c = lrs->children; c != NULL; c = c->next) {
    if (!named(c, "languagerule"))
      continue;
    xmlChar *name = xmlGetProp(c, BAD_CAST "languagerulename");
    if (name == NULL)
      return xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line_of(c), 0,
                           NULL, "<languagerule> without languagerulename");
    if (d->nlangrules == d->langrules_cap) {
      size_t cap = d->langrules_cap ? d->langrules_cap * 2 : 4;
      struct srx_langrule *lr = realloc(d->langrules, cap * sizeof *lr);
      if (lr == NULL) {
        xmlFree(name);
        return XMT_ERR_NOMEM;
      }
      d->langrules = lr;
      d->langrules_cap = cap;
    }
    struct srx_langrule *lr = &d->langrules[d->nlangrules];
    memset(lr, 0, sizeof *lr);
    lr->name = xmt_strdup((const char *)name);
    xmlFree(name);
    if (lr->name == NULL)
      return XMT_ERR_NOMEM;
    d->nlangrules++;
    for (const xmlNode *r = c->children; r != NULL; r = r->next) {
      if (!named(r, "rule"))
        continue;
      xmt_status st = read_rule(l, lr, r);
      if (st != XMT_OK)
        return st;
    }
  }
  return XMT_OK;
}

static xmt_status read_maprules(struct loader *l, const xmlNode *mrs) {
  struct srx_doc *d = &l->doc;
  for (const xmlNode *c = mrs->children; c != NULL; c = c->next) {
    if (!named(c, "languagemap"))
      continue;
    xmlChar *pattern = xmlGetProp(c, BAD_CAST "languagepattern");
    xmlChar *rname = xmlGetProp(c, BAD_CAST "languagerulename");
    xmt_status st = XMT_OK;
    size_t index = SIZE_MAX;
    if (pattern == NULL || rname == NULL)
      st = xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line_of(c), 0,
                         NULL,
                         "<languagemap> needs languagepattern and "
                         "languagerulename");
    for (size_t i = 0; st == XMT_OK && rname != NULL && i < d->nlangrules; i++)
      if (strcmp(d->langrules[i].name, (const char *)rname) == 0) {
        index = i;
        break;
      }
    if (st == XMT_OK && index == SIZE_MAX)
      st = xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line_of(c), 0,
                         NULL, "<languagemap>: no languagerule named \"%s\"",
                         (const char *)rname);
    if (st == XMT_OK && d->nmaps == d->maps_cap) {
      size_t cap = d->maps_cap ? d->maps_cap * 2 : 4;
      struct srx_map *m = realloc(d->maps, cap * sizeof *m);
      if (m == NULL)
        st = XMT_ERR_NOMEM;
      else {
        d->maps = m;
        d->maps_cap = cap;
      }
    }
    URegularExpression *re = NULL;
    if (st == XMT_OK)
      st = compile(l, (const char *)pattern, line_of(c),
                   "<languagemap> languagepattern", &re);
    if (st == XMT_OK) {
      d->maps[d->nmaps].re = re;
      d->maps[d->nmaps].langrule = index;
      d->nmaps++;
    }
    xmlFree(pattern);
    xmlFree(rname);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

static xmt_status read_srx(struct loader *l, const xmlNode *root) {
  if (!named(root, "srx"))
    return xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line_of(root), 0,
                         NULL,
                         "not an SRX document: the root element is <%s>, "
                         "not <srx>",
                         (const char *)root->name);
  xmt_status st = XMT_OK;
  const xmlNode *body = NULL;
  for (const xmlNode *c = root->children; c != NULL; c = c->next) {
    if (named(c, "header")) {
      read_header(l, c);
      for (const xmlNode *h = c->children; h != NULL && st == XMT_OK;
           h = h->next) {
        if (!named(h, "rangeRule"))
          continue;
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
    return xmt_error_set(&l->s->err, XMT_ERR_FORMAT, l->name, line_of(root), 0,
                         NULL, "not an SRX document: no <body>");
  for (const xmlNode *c = body->children; c != NULL && st == XMT_OK;
       c = c->next)
    if (named(c, "languagerules"))
      st = read_languagerules(l, c);
  for (const xmlNode *c = body->children; c != NULL && st == XMT_OK;
       c = c->next)
    if (named(c, "maprules"))
      st = read_maprules(l, c);
  return st;
}

static void forget_language(xmt_segmenter *s) {
  free(s->rules_for);
  s->rules_for = NULL;
  s->nactive = 0;
  s->nflat = 0;
  if (s->early != NULL)
    uregex_close(s->early);
  s->early = NULL;
}

/* The no-break rules before the first break rule all come before any break
 * rule that hits: one alternation of their local forms answers for them
 * all in one match. Without it (ICU refused it, or a rule has no local
 * form) they are tested one by one. */
static xmt_status build_early(xmt_segmenter *s) {
  size_t b0 = 0;
  while (b0 < s->nflat && !s->flat[b0]->is_break)
    b0++;
  s->first_break_rule = b0;
  struct xmt_buf pat = {0};
  xmt_status st = XMT_OK;
  size_t n = 0;
  for (size_t g = 0; g < b0 && st == XMT_OK; g++) {
    const struct srx_rule *r = s->flat[g];
    if (r->local == NULL)
      continue;
    UErrorCode ust = U_ZERO_ERROR;
    int32_t len = 0;
    const UChar *p = uregex_pattern(r->local, &len, &ust);
    if (U_FAILURE(ust))
      break;
    static const UChar bar = 0x7C; /* | */
    if (n++ > 0)
      st = xmt_buf_append(&pat, &bar, sizeof bar);
    if (st == XMT_OK)
      st = xmt_buf_append(&pat, p, (size_t)len * sizeof(UChar));
  }
  if (st == XMT_OK && n > 1) {
    UParseError pe;
    UErrorCode ust = U_ZERO_ERROR;
    s->early = uregex_open((const UChar *)pat.data,
                           (int32_t)(pat.len / sizeof(UChar)), 0, &pe, &ust);
    if (U_FAILURE(ust))
      s->early = NULL;
  }
  xmt_buf_free(&pat);
  return st;
}

/* The first XML error: libxml2's last one is often a consequence of it. */
struct first_error {
  int seen;
  unsigned long line, column;
  char message[256];
};

static void on_xml_error(void *user, xmlErrorPtr e) {
  xmlParserCtxtPtr ctxt = user;
  struct first_error *fe = ctxt != NULL ? ctxt->_private : NULL;
  if (fe == NULL || fe->seen || e == NULL || e->level < XML_ERR_ERROR)
    return;
  fe->seen = 1;
  fe->line = e->line > 0 ? (unsigned long)e->line : 0;
  fe->column = e->int2 > 0 ? (unsigned long)e->int2 : 0;
  snprintf(fe->message, sizeof fe->message, "%s",
           e->message != NULL ? e->message : "error");
  size_t n = strlen(fe->message);
  while (n > 0 && (fe->message[n - 1] == '\n' || fe->message[n - 1] == ' '))
    fe->message[--n] = '\0';
}

xmt_status xmt_segmenter_load_srx_memory(xmt_segmenter *s, const char *xml,
                                         size_t len, const char *name) {
  if (s == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  if (xml == NULL || len > INT_MAX)
    return xmt_error_set(&s->err, XMT_ERR_USAGE, name, 0, 0, NULL,
                         "no SRX document given, or one over 2 GB");
  struct loader l;
  memset(&l, 0, sizeof l);
  l.s = s;
  l.name = name;
  doc_defaults(&l.doc);
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (ctxt == NULL)
    return xmt_error_set(&s->err, XMT_ERR_NOMEM, name, 0, 0, NULL,
                         "out of memory");
  struct first_error fe;
  memset(&fe, 0, sizeof fe);
  ctxt->_private = &fe;
  ctxt->sax->serror = on_xml_error;
  xmlDocPtr doc = xmlCtxtReadMemory(
      ctxt, xml, (int)len, name, NULL,
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
          XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS);
  xmt_status st = XMT_OK;
  if (doc == NULL || !ctxt->wellFormed || xmlDocGetRootElement(doc) == NULL) {
    if (!fe.seen)
      snprintf(fe.message, sizeof fe.message, "no root element");
    st = xmt_error_set(&s->err, XMT_ERR_XML, name, fe.line, fe.column, NULL,
                       "SRX document is not well-formed XML: %s", fe.message);
  } else {
    st = read_srx(&l, xmlDocGetRootElement(doc));
    if (st == XMT_ERR_NOMEM && s->err.pub.message == NULL)
      xmt_error_set(&s->err, XMT_ERR_NOMEM, name, 0, 0, NULL, "out of memory");
  }
  xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  free(l.u16);
  if (st != XMT_OK) {
    doc_free(&l.doc);
    return st;
  }
  doc_free(&s->doc);
  s->doc = l.doc;
  forget_language(s);
  return XMT_OK;
}

xmt_status xmt_segmenter_load_srx(xmt_segmenter *s, const char *path) {
  if (s == NULL || path == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  FILE *fp = xmt_input_open(path, &s->err);
  if (fp == NULL)
    return XMT_ERR_IO;
  struct xmt_buf buf = {0};
  char chunk[8192];
  size_t n;
  xmt_status st = XMT_OK;
  while (st == XMT_OK && (n = fread(chunk, 1, sizeof chunk, fp)) > 0)
    st = xmt_buf_append(&buf, chunk, n);
  int bad = ferror(fp);
  int err = errno;
  if (fp != stdin)
    fclose(fp);
  if (st == XMT_OK && bad)
    st = xmt_error_set(&s->err, XMT_ERR_IO, path, 0, 0, NULL, "cannot read: %s",
                       strerror(err));
  else if (st != XMT_OK)
    xmt_error_set(&s->err, st, path, 0, 0, NULL, "out of memory");
  if (st == XMT_OK)
    st = xmt_segmenter_load_srx_memory(s, buf.data != NULL ? buf.data : "",
                                       buf.len, path);
  xmt_buf_free(&buf);
  return st;
}

/* --- Handle ------------------------------------------------------------- */

xmt_segmenter *xmt_segmenter_new(void) {
  xmt_segmenter *s = calloc(1, sizeof *s);
  if (s == NULL)
    return NULL;
  if (xmt_segmenter_load_srx_memory(s, (const char *)xmt_srx_default,
                                    xmt_srx_default_len,
                                    "xliffmt.srx") != XMT_OK) {
    xmt_segmenter_free(s);
    return NULL;
  }
  return s;
}

void xmt_segmenter_free(xmt_segmenter *s) {
  if (s == NULL)
    return;
  doc_free(&s->doc);
  xmt_error_clear(&s->err);
  free(s->lang);
  forget_language(s);
  free(s->active);
  if (s->icu != NULL)
    ubrk_close(s->icu);
  free(s->icu_lang);
  free(s->u16);
  free(s->u8_at);
  free(s->decided);
  free(s->first_break);
  free(s->first_keep);
  free(s->flat);
  free(s->breaks);
  free(s->spans);
  free(s);
}

const struct xmt_error *xmt_segmenter_error(const xmt_segmenter *s) {
  return &s->err.pub;
}

xmt_status xmt_segmenter_set_language(xmt_segmenter *s, const char *lang) {
  if (s == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  if (lang == NULL || lang[0] == '\0')
    return xmt_error_set(&s->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "no language given");
  char *copy = xmt_strdup(lang);
  if (copy == NULL)
    return xmt_error_set(&s->err, XMT_ERR_NOMEM, NULL, 0, 0, NULL,
                         "out of memory");
  free(s->lang);
  s->lang = copy;
  return XMT_OK;
}

/* Picks the languagerules of lang through the maprules; kept until the
 * language or the rules change, so a document in one language selects once. */
static xmt_status select_rules(xmt_segmenter *s, const char *lang) {
  if (s->rules_for != NULL && strcmp(s->rules_for, lang) == 0)
    return XMT_OK;
  forget_language(s);
  UChar tag[128];
  int32_t n16 = 0;
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8(tag, (int32_t)(sizeof tag / sizeof *tag), &n16, lang, -1, &st);
  if (U_FAILURE(st))
    return xmt_error_set(&s->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "bad language tag \"%.40s\"", lang);
  const struct srx_doc *d = &s->doc;
  if (s->active_cap < d->nmaps) {
    size_t *a = realloc(s->active, d->nmaps * sizeof *a);
    if (a == NULL)
      return XMT_ERR_NOMEM;
    s->active = a;
    s->active_cap = d->nmaps;
  }
  for (size_t i = 0; i < d->nmaps; i++) {
    st = U_ZERO_ERROR;
    uregex_setText(d->maps[i].re, tag, n16, &st);
    UBool hit = uregex_matches(d->maps[i].re, 0, &st);
    uregex_setText(d->maps[i].re, tag, 0, &st);
    if (U_FAILURE(st) || !hit)
      continue;
    int seen = 0;
    for (size_t k = 0; k < s->nactive; k++)
      seen |= s->active[k] == d->maps[i].langrule;
    if (!seen)
      s->active[s->nactive++] = d->maps[i].langrule;
    if (!d->cascade)
      break;
  }
  size_t nflat = 0;
  for (size_t k = 0; k < s->nactive; k++)
    nflat += d->langrules[s->active[k]].nrules;
  if (nflat > s->flat_cap) {
    struct srx_rule **f = realloc(s->flat, nflat * sizeof *f);
    if (f == NULL) {
      s->nactive = 0;
      return XMT_ERR_NOMEM;
    }
    s->flat = f;
    s->flat_cap = nflat;
  }
  s->nflat = 0;
  for (size_t k = 0; k < s->nactive; k++) {
    struct srx_langrule *lr = &d->langrules[s->active[k]];
    for (size_t j = 0; j < lr->nrules; j++)
      s->flat[s->nflat++] = &lr->rules[j];
  }
  if (build_early(s) != XMT_OK || (s->rules_for = xmt_strdup(lang)) == NULL) {
    forget_language(s);
    return XMT_ERR_NOMEM;
  }
  return XMT_OK;
}

/* --- Finding breaks ------------------------------------------------------- */

static xmt_status grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return XMT_OK;
  size_t cap2 = *cap ? *cap : 64;
  while (cap2 < need)
    cap2 *= 2;
  void *q = realloc(*p, cap2 * size);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  *p = q;
  *cap = cap2;
  return XMT_OK;
}

/* The text as the rules see it, in UTF-16 with a map back to byte offsets;
 * isolated codes become spaces when the rules say so. */
static xmt_status to_rule_text(xmt_segmenter *s, const char *text, size_t len,
                               const size_t *codes, size_t ncodes,
                               int32_t *len16) {
  size_t extra = s->doc.isolated_as_space ? ncodes : 0;
  size_t need = len + extra + 1;
  if (need > (size_t)INT32_MAX / 2)
    return xmt_error_set(&s->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "text too long to segment (%zu bytes)", len);
  if (grow((void **)&s->u16, &s->u16_cap, need, sizeof *s->u16) != XMT_OK ||
      grow((void **)&s->u8_at, &s->u8_at_cap, need, sizeof *s->u8_at) !=
          XMT_OK ||
      grow((void **)&s->decided, &s->decided_cap, need, 1) != XMT_OK)
    return XMT_ERR_NOMEM;
  if (grow((void **)&s->first_break, &s->first_break_cap, need,
           sizeof *s->first_break) != XMT_OK ||
      grow((void **)&s->first_keep, &s->first_keep_cap, need,
           sizeof *s->first_keep) != XMT_OK)
    return XMT_ERR_NOMEM;
  const unsigned char *p = (const unsigned char *)text;
  size_t i = 0, k = 0, c = 0;
  while (i < len || (extra && c < ncodes)) {
    if (extra && c < ncodes && codes[c] <= i) {
      s->u8_at[k] = i;
      s->u16[k++] = 0x20;
      c++;
      continue;
    }
    uint32_t cp;
    size_t n = xmt_utf8_decode(p + i, len - i, &cp);
    if (n == 0)
      return xmt_error_set(&s->err, XMT_ERR_ENCODING, NULL, 0, 0, NULL,
                           "invalid UTF-8 at byte %zu", i);
    s->u8_at[k] = i;
    if (cp > 0xFFFF) {
      s->u16[k++] = (UChar)(0xD7C0 + (cp >> 10));
      s->u8_at[k] = i;
      s->u16[k++] = (UChar)(0xDC00 | (cp & 0x3FF));
    } else
      s->u16[k++] = (UChar)cp;
    i += n;
  }
  s->u8_at[k] = len;
  *len16 = (int32_t)k;
  return XMT_OK;
}

#define NONE UINT32_MAX
#define ICU_RULE (UINT32_MAX - 1) /* after every SRX rule */

/* Searches rule g through the text: Okapi searches from 0, and from each
 * hit on, so matches may overlap; first[n] keeps the first rule to hit n.
 * Where Okapi would stop (a hit that does not advance), the search goes on
 * one character further, so rules with an empty beforebreak apply at every
 * position their afterbreak matches. */
static xmt_status search_rule(xmt_segmenter *s, const struct srx_rule *r,
                              uint32_t g, uint32_t *first, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  uregex_setText(r->re, s->u16, len16, &st);
  int32_t start = 0;
  while (U_SUCCESS(st) && start <= len16 && uregex_find(r->re, start, &st)) {
    int32_t n = uregex_end(r->re, 1, &st);
    if (U_FAILURE(st))
      break;
    if (n < len16 && first[n] == NONE)
      first[n] = g;
    if (n > start)
      start = n;
    else
      start = n + (n < len16 && U16_IS_LEAD(s->u16[n]) ? 2 : 1);
  }
  UErrorCode ignored = U_ZERO_ERROR;
  uregex_setText(r->re, s->u16, 0, &ignored);
  if (U_FAILURE(st))
    return xmt_error_set(&s->err, XMT_ERR_INTERNAL, NULL, 0, 0, NULL,
                         "regular expression failed: %s", u_errorName(st));
  return XMT_OK;
}

/* useIcu4JBreakRules: ICU's sentence breaks come after every SRX rule, so
 * the rules act as exceptions to them; each break moves back before the
 * whitespace ICU leaves in front of it. */
static xmt_status apply_icu(xmt_segmenter *s, const char *lang, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  if (s->icu == NULL || s->icu_lang == NULL || strcmp(s->icu_lang, lang)) {
    char locale[96];
    int32_t n = uloc_forLanguageTag(lang, locale, sizeof locale, NULL, &st);
    if (U_FAILURE(st) || n >= (int32_t)sizeof locale) {
      st = U_ZERO_ERROR;
      snprintf(locale, sizeof locale, "und");
    }
    if (s->icu != NULL)
      ubrk_close(s->icu);
    free(s->icu_lang);
    s->icu_lang = xmt_strdup(lang);
    s->icu = ubrk_open(UBRK_SENTENCE, locale, NULL, 0, &st);
    if (U_FAILURE(st) || s->icu_lang == NULL) {
      s->icu = NULL;
      return XMT_ERR_NOMEM;
    }
  }
  ubrk_setText(s->icu, s->u16, len16, &st);
  if (U_FAILURE(st))
    return XMT_ERR_INTERNAL;
  for (int32_t b = ubrk_next(s->icu); b != UBRK_DONE && b < len16;
       b = ubrk_next(s->icu)) {
    while (b > 0 && u_isWhitespace(s->u16[b - 1]))
      b--;
    if (s->first_break[b] == NONE)
      s->first_break[b] = ICU_RULE;
  }
  ubrk_setText(s->icu, s->u16, 0, &st);
  return XMT_OK;
}

/* Decides every position: the first rule to hit it decides. Only where a
 * break rule hits is there anything to decide, so break rules (and the
 * no-break rules of unbounded beforebreak) are searched through the text,
 * and the other no-break rules are only tested at those positions. The
 * test asks whether the beforebreak matches up to the position and the
 * afterbreak from it, which finds what Okapi's search finds except for
 * matches that overlap in contrived ways. */
static xmt_status apply_rules(xmt_segmenter *s, const char *lang,
                              int32_t len16) {
  uint32_t *fb = s->first_break, *fk = s->first_keep;
  xmt_status st = XMT_OK;
  for (int32_t i = 0; i <= len16; i++)
    fb[i] = fk[i] = NONE;
  memset(s->decided, UNDECIDED, (size_t)len16 + 1);
  for (size_t g = 0; g < s->nflat && st == XMT_OK; g++) {
    const struct srx_rule *r = s->flat[g];
    if (r->is_break || r->local == NULL)
      st = search_rule(s, r, (uint32_t)g, r->is_break ? fb : fk, len16);
  }
  if (st == XMT_OK && s->doc.icu_breaks)
    st = apply_icu(s, lang, len16);
  if (st != XMT_OK)
    return st;
  size_t text_set = 0; /* local rules [0, text_set) have the text */
  UErrorCode ust = U_ZERO_ERROR;
  if (s->early != NULL)
    uregex_setText(s->early, s->u16, len16, &ust);
  for (int32_t p = 1; p < len16 && U_SUCCESS(ust); p++) {
    if (fb[p] == NONE)
      continue;
    if (fk[p] < fb[p]) {
      s->decided[p] = NO_BREAK;
      continue;
    }
    unsigned char verdict = BREAK;
    uint32_t g = 0;
    if (s->early != NULL) {
      if (uregex_lookingAt(s->early, p, &ust)) {
        s->decided[p] = NO_BREAK;
        continue;
      }
      g = (uint32_t)s->first_break_rule;
    }
    for (; g < fb[p] && g < s->nflat; g++) {
      const struct srx_rule *r = s->flat[g];
      if (r->is_break || r->local == NULL)
        continue;
      for (; text_set <= g; text_set++)
        if (!s->flat[text_set]->is_break && s->flat[text_set]->local != NULL)
          uregex_setText(s->flat[text_set]->local, s->u16, len16, &ust);
      if (uregex_lookingAt(r->local, p, &ust) && U_SUCCESS(ust)) {
        verdict = NO_BREAK;
        break;
      }
    }
    s->decided[p] = verdict;
  }
  for (size_t g = 0; g < text_set; g++)
    if (!s->flat[g]->is_break && s->flat[g]->local != NULL) {
      UErrorCode ignored = U_ZERO_ERROR;
      uregex_setText(s->flat[g]->local, s->u16, 0, &ignored);
    }
  if (s->early != NULL) {
    UErrorCode ignored = U_ZERO_ERROR;
    uregex_setText(s->early, s->u16, 0, &ignored);
  }
  if (U_FAILURE(ust))
    return xmt_error_set(&s->err, XMT_ERR_INTERNAL, NULL, 0, 0, NULL,
                         "regular expression failed: %s", u_errorName(ust));
  return XMT_OK;
}

/* okpsrx:rangeRule: a match is one segment of its own, whatever the rules
 * said inside it. */
static xmt_status apply_mask(xmt_segmenter *s, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  URegularExpression *re = s->doc.mask;
  uregex_setText(re, s->u16, len16, &st);
  while (U_SUCCESS(st) && uregex_findNext(re, &st)) {
    int32_t a = uregex_start(re, 0, &st), b = uregex_end(re, 0, &st);
    if (U_FAILURE(st))
      break;
    for (int32_t i = a; i < b; i++)
      s->decided[i] = UNDECIDED;
    if (a > 0)
      s->decided[a] = BREAK;
    if (b < len16)
      s->decided[b] = BREAK;
  }
  UErrorCode ignored = U_ZERO_ERROR;
  uregex_setText(re, s->u16, 0, &ignored);
  return U_FAILURE(st) ? XMT_ERR_INTERNAL : XMT_OK;
}

/* Whitespace as Java's Character.isWhitespace, which Okapi trims by: no
 * break spaces are text. */
static int space_at(const char *text, size_t len, size_t i, size_t *n) {
  uint32_t cp;
  *n = xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
  if (*n == 0) {
    *n = 1;
    return 0;
  }
  return u_isWhitespace((UChar32)cp);
}

/* First byte in [a, b) that is not whitespace, or b. */
static size_t skip_space(const char *text, size_t len, size_t a, size_t b) {
  size_t n;
  while (a < b && space_at(text, len, a, &n))
    a += n;
  return a;
}

/* End of the last character in [a, b) that is not whitespace, or a. */
static size_t trim_space(const char *text, size_t len, size_t a, size_t b) {
  while (b > a) {
    size_t c = b - 1, n;
    while (c > a && ((unsigned char)text[c] & 0xC0) == 0x80)
      c--;
    if (!space_at(text, len, c, &n))
      break;
    b = c;
  }
  return b;
}

static xmt_status add_span(xmt_segmenter *s, size_t a, size_t b) {
  if (grow((void **)&s->spans, &s->spans_cap, s->nspans + 1,
           sizeof *s->spans) != XMT_OK)
    return XMT_ERR_NOMEM;
  s->spans[s->nspans].start = a;
  s->spans[s->nspans].end = b;
  s->nspans++;
  return XMT_OK;
}

/* Segments between the breaks, trimmed as the options say (Okapi's
 * computeSegments). A piece of whitespace only is no segment: it joins the
 * next piece. */
static xmt_status make_spans(xmt_segmenter *s, const char *text, size_t len) {
  const struct srx_doc *d = &s->doc;
  size_t start = 0;
  s->nspans = 0;
  for (size_t i = 0; i <= s->nbreaks; i++) {
    size_t pos = i < s->nbreaks ? s->breaks[i] : len;
    size_t first = skip_space(text, len, start, pos);
    if (first == pos)
      continue;
    size_t a = d->trim_leading ? first : start;
    size_t b = d->trim_trailing ? trim_space(text, len, a, pos) : pos;
    if (b > a && add_span(s, a, b) != XMT_OK)
      return XMT_ERR_NOMEM;
    start = pos;
  }
  if (s->nspans == 1 && d->one_segment_includes_all) {
    s->spans[0].start = 0;
    s->spans[0].end = len;
  }
  return XMT_OK;
}

xmt_status xmt_srx_run(xmt_segmenter *s, const char *lang, const char *text,
                       size_t len, const size_t *codes, size_t ncodes) {
  if (lang == NULL)
    lang = s->lang != NULL ? s->lang : "und";
  xmt_status st = select_rules(s, lang);
  int32_t len16 = 0;
  if (st == XMT_OK)
    st = to_rule_text(s, text, len, codes, ncodes, &len16);
  if (st != XMT_OK)
    return st;
  st = apply_rules(s, lang, len16);
  if (st == XMT_OK && s->doc.mask != NULL)
    st = apply_mask(s, len16);
  s->nbreaks = 0;
  for (int32_t i = 1; st == XMT_OK && i < len16; i++) {
    if (s->decided[i] != BREAK)
      continue;
    size_t at = s->u8_at[i];
    if (s->nbreaks > 0 && s->breaks[s->nbreaks - 1] == at)
      continue; /* a code seen as a space: both sides are one offset */
    if (grow((void **)&s->breaks, &s->breaks_cap, s->nbreaks + 1,
             sizeof *s->breaks) != XMT_OK)
      st = XMT_ERR_NOMEM;
    else
      s->breaks[s->nbreaks++] = at;
  }
  if (st == XMT_OK)
    st = make_spans(s, text, len);
  if (st == XMT_ERR_NOMEM && s->err.pub.message == NULL)
    xmt_error_set(&s->err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
  return st;
}

xmt_status xmt_segmenter_split(xmt_segmenter *s, const char *text, size_t len,
                               const struct xmt_span **spans, size_t *nspans) {
  if (s == NULL || (text == NULL && len > 0) || spans == NULL || nspans == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  *spans = NULL;
  *nspans = 0;
  xmt_status st = xmt_srx_run(s, NULL, text != NULL ? text : "", len, NULL, 0);
  if (st != XMT_OK)
    return st;
  *spans = s->spans;
  *nspans = s->nspans;
  return XMT_OK;
}
