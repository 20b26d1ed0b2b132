/* findings.c -- the findings document of a review report: what check
 * counts and finds, and every segment's source and target with the flags
 * a reviewer filters by. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report_private.h"

#define XLIFF12_NS "urn:oasis:names:tc:xliff:document:1.2"

/* Flags in the order they are written. */
enum {
  FLAG_UNTRANSLATED,
  FLAG_TAG_MISSING,
  FLAG_TAG_ADDED,
  FLAG_TAG_ORDER,
  FLAG_NEEDS_REVIEW,
  FLAG_LENGTH,
  FLAG_IDENTICAL,
  FLAG_PROBLEM,
  FLAG_MT,
  FLAG_LOCKED,
  NFLAGS
};
_Static_assert(NFLAGS == XMT_FINDINGS_FLAGS, "the flags counted");
static const char *const flag_names[NFLAGS] = {
    "untranslated", "tag-missing", "tag-added", "tag-order", "needs-review",
    "length",       "identical",   "problem",   "mt",        "locked"};

#define add xmt_findings_add
#define is xmt_findings_is
#define prop_is xmt_findings_prop_is
#define set xmt_findings_set

/* xmt_grow_array, out of memory noted in b. */
static void *grow(struct xmt_findings *b, void *v, size_t *cap, size_t n,
                  size_t size) {
  void *grown = xmt_grow_array(v, cap, n, size);
  if (grown == NULL)
    b->nomem = 1;
  return grown;
}

static int on_problem(void *user, const struct xmt_problem *p) {
  struct xmt_findings *b = user;
  if (b->nproblems == b->problems_cap) {
    struct xmt_findings_problem *ps =
        grow(b, b->problems, &b->problems_cap, b->nproblems + 1, sizeof *ps);
    if (ps == NULL)
      return 1;
    b->problems = ps;
  }
  struct xmt_findings_problem *q = &b->problems[b->nproblems];
  q->severity = p->severity;
  q->line = p->line, q->column = p->column;
  q->unit = p->unit_id != NULL ? xmt_strdup(p->unit_id) : NULL;
  q->message = xmt_strdup(p->message != NULL ? p->message : "");
  if ((p->unit_id != NULL && q->unit == NULL) || q->message == NULL) {
    free(q->unit), free(q->message);
    return b->nomem = 1;
  }
  b->nproblems++;
  return 0;
}

/* --- Writing the document -------------------------------------------------
 * libxml2 calls fail only when out of memory; b->nomem records it. */

xmlNodePtr xmt_findings_add(struct xmt_findings *b, xmlNodePtr parent,
                            const char *name) {
  xmlNodePtr n = xmlNewChild(parent, parent->ns, BAD_CAST name, NULL);
  if (n == NULL)
    b->nomem = 1;
  return n;
}

void xmt_findings_set(struct xmt_findings *b, xmlNodePtr n, const char *name,
                      const char *value) {
  if (n != NULL && value != NULL &&
      xmlSetProp(n, BAD_CAST name, BAD_CAST value) == NULL)
    b->nomem = 1;
}

static void set_num(struct xmt_findings *b, xmlNodePtr n, const char *name,
                    size_t value) {
  char num[32];
  snprintf(num, sizeof num, "%zu", value);
  set(b, n, name, num);
}

static void add_text(struct xmt_findings *b, xmlNodePtr parent,
                     const xmlChar *s) {
  xmlNodePtr t = xmlNewDocText(b->out, s);
  if (t == NULL || xmlAddChild(parent, t) == NULL) {
    xmlFreeNode(t);
    b->nomem = 1;
  }
}

/* --- Reading the XLIFF tree ------------------------------------------------
 */

/* Elements of XLIFF 1.0 (no namespace), 1.1 and 1.2, any prefix. */
static int in_xliff(const xmlNode *n) {
  return n->ns == NULL ||
         strncmp((const char *)n->ns->href,
                 "urn:oasis:names:tc:xliff:document:", 34) == 0;
}

int xmt_findings_is(const xmlNode *n, const char *local) {
  return n != NULL && n->type == XML_ELEMENT_NODE && in_xliff(n) &&
         strcmp((const char *)n->name, local) == 0;
}

static xmlNodePtr child(const xmlNode *n, const char *local) {
  for (xmlNodePtr c = n->children; c != NULL; c = c->next)
    if (is(c, local))
      return c;
  return NULL;
}

int xmt_findings_prop_is(const xmlNode *n, const char *name,
                         const char *value) {
  xmlChar *v = xmlGetProp(n, BAD_CAST name);
  int eq = v != NULL && strcmp((const char *)v, value) == 0;
  xmlFree(v);
  return eq;
}

static int is_seg_mrk(const xmlNode *n) {
  return is(n, "mrk") && prop_is(n, "mtype", "seg");
}

/* Copies an attribute of n onto out when n has it. */
static void copy_prop(struct xmt_findings *b, const xmlNode *n, xmlNodePtr out,
                      const char *name, const char *as) {
  xmlChar *v = xmlGetProp(n, BAD_CAST name);
  if (v != NULL)
    set(b, out, as != NULL ? as : name, (const char *)v);
  xmlFree(v);
}

/* The inline content from first on, into out (XLIFF elements in the 1.2
 * namespace, others as they are) and into seg as tags. */
static void copy_inline(struct xmt_findings *b, const xmlNode *first,
                        xmlNodePtr out, xmt_segment *seg);

static void tag(struct xmt_findings *b, xmt_segment *seg,
                enum xmt_tag_kind kind, const char *id, const char *name) {
  if (seg != NULL && xmt_segment_append_tag(seg, kind, id != NULL ? id : "",
                                            name, name, strlen(name)) != XMT_OK)
    b->nomem = 1;
}

static void copy_element(struct xmt_findings *b, const xmlNode *n,
                         xmlNodePtr out, xmt_segment *seg) {
  const char *name = (const char *)n->name;
  if (!in_xliff(n)) {
    /* Foreign markup: copied, its text counted, one code around it. */
    xmlNodePtr c = xmlDocCopyNode((xmlNodePtr)n, b->out, 1);
    if (c == NULL || xmlAddChild(out, c) == NULL) {
      xmlFreeNode(c);
      b->nomem = 1;
      return;
    }
    xmlReconciliateNs(b->out, c);
    xmlChar *text = xmlNodeGetContent(n);
    tag(b, seg, XMT_TAG_OPEN, "", name);
    if (seg != NULL && text != NULL &&
        xmt_segment_append_text(seg, (const char *)text,
                                strlen((const char *)text)) != XMT_OK)
      b->nomem = 1;
    tag(b, seg, XMT_TAG_CLOSE, "", name);
    xmlFree(text);
    return;
  }
  if (is_seg_mrk(n)) { /* a segment marker is not a code */
    copy_inline(b, n->children, out, seg);
    return;
  }
  xmlNodePtr e = xmlNewChild(out, b->xlf, n->name, NULL);
  if (e == NULL) {
    b->nomem = 1;
    return;
  }
  for (const xmlAttr *a = n->properties; a != NULL; a = a->next)
    if (a->ns == NULL) /* XLIFF's own attributes have no namespace */
      copy_prop(b, n, e, (const char *)a->name, NULL);
  xmlChar *id = xmlGetProp(n, BAD_CAST "id");
  xmlChar *rid = xmlGetProp(n, BAD_CAST "rid");
  const char *pair = (const char *)(rid != NULL ? rid : id);
  if (strcmp(name, "g") == 0 || strcmp(name, "mrk") == 0) {
    const char *key = (const char *)id;
    xmlChar *mid =
        strcmp(name, "mrk") == 0 ? xmlGetProp(n, BAD_CAST "mid") : NULL;
    if (mid != NULL)
      key = (const char *)mid;
    tag(b, seg, XMT_TAG_OPEN, key, name);
    copy_inline(b, n->children, e, seg);
    tag(b, seg, XMT_TAG_CLOSE, key, name);
    xmlFree(mid);
  } else if (strcmp(name, "x") == 0 || strcmp(name, "ph") == 0) {
    tag(b, seg, XMT_TAG_PLACEHOLDER, (const char *)id, name);
    copy_inline(b, n->children, e, NULL); /* native code, not text */
  } else if (strcmp(name, "bx") == 0 || strcmp(name, "bpt") == 0) {
    tag(b, seg, XMT_TAG_ISOLATED_OPEN, pair, name);
    copy_inline(b, n->children, e, NULL);
  } else if (strcmp(name, "ex") == 0 || strcmp(name, "ept") == 0) {
    tag(b, seg, XMT_TAG_ISOLATED_CLOSE, pair, name);
    copy_inline(b, n->children, e, NULL);
  } else if (strcmp(name, "it") == 0) {
    tag(b, seg,
        prop_is(n, "pos", "open") ? XMT_TAG_ISOLATED_OPEN
                                  : XMT_TAG_ISOLATED_CLOSE,
        pair, name);
    copy_inline(b, n->children, e, NULL);
  } else { /* sub and anything else: text inside a code */
    tag(b, seg, XMT_TAG_OPEN, (const char *)id, name);
    copy_inline(b, n->children, e, seg);
    tag(b, seg, XMT_TAG_CLOSE, (const char *)id, name);
  }
  xmlFree(id);
  xmlFree(rid);
}

static void copy_inline(struct xmt_findings *b, const xmlNode *first,
                        xmlNodePtr out, xmt_segment *seg) {
  for (const xmlNode *n = first; n != NULL && !b->nomem; n = n->next) {
    if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE ||
        n->type == XML_ENTITY_REF_NODE) {
      xmlChar *text = xmlNodeGetContent(n);
      if (text == NULL) {
        b->nomem = 1;
        break;
      }
      add_text(b, out, text);
      if (seg != NULL &&
          xmt_segment_append_text(seg, (const char *)text,
                                  strlen((const char *)text)) != XMT_OK)
        b->nomem = 1;
      xmlFree(text);
    } else if (n->type == XML_ELEMENT_NODE) {
      copy_element(b, n, out, seg);
    }
  }
}

/* --- Flags ------------------------------------------------------------------
 */

/* Characters of the text, without the spaces around it. */
static size_t chars(const xmt_segment *seg, int *blank) {
  size_t len;
  const char *s = xmt_segment_text(seg, &len);
  size_t lead, core;
  xmt_core_bounds(s, len, &lead, &core);
  *blank = core == 0;
  return xmt_utf8_count(s + lead, core);
}

/* 1 when the codes both sides have come in another order in b; -1 out
 * of memory. */
static int order_differs(const xmt_segment *a, const xmt_segment *b) {
  size_t na = xmt_segment_tag_count(a);
  size_t *match = malloc((na + 1) * sizeof *match);
  int differs = 0;
  if (match == NULL || xmt_check_match_codes(a, b, match) != XMT_OK) {
    differs = -1;
  } else {
    size_t last = 0;
    int seen = 0;
    for (size_t i = 0; i < na && !differs; i++) {
      if (match[i] == SIZE_MAX)
        continue;
      if (seen && match[i] < last)
        differs = 1;
      last = match[i], seen = 1;
    }
  }
  free(match);
  return differs;
}

static unsigned segment_flags(struct xmt_findings *b, int has_target, int blank,
                              const char *state) {
  char what[64];
  unsigned flags = 0;
  int needs_translation =
      state != NULL &&
      (strcmp(state, "new") == 0 || strcmp(state, "needs-translation") == 0);
  if (!has_target || (blank && xmt_segment_tag_count(b->tgt) == 0) ||
      needs_translation)
    return 1u << FLAG_UNTRANSLATED;
  int missing = xmt_check_missing_code(b->src, b->tgt, what, sizeof what);
  int added = xmt_check_missing_code(b->tgt, b->src, what, sizeof what);
  if (missing < 0 || added < 0)
    b->nomem = 1;
  if (missing > 0)
    flags |= 1u << FLAG_TAG_MISSING;
  if (added > 0)
    flags |= 1u << FLAG_TAG_ADDED;
  int reordered = order_differs(b->src, b->tgt);
  if (reordered < 0)
    b->nomem = 1;
  else if (reordered)
    flags |= 1u << FLAG_TAG_ORDER;
  size_t slen, tlen;
  const char *s = xmt_segment_text(b->src, &slen);
  const char *t = xmt_segment_text(b->tgt, &tlen);
  if (slen == tlen && memcmp(s, t, slen) == 0 && xmt_count_words(s, slen) >= 2)
    flags |= 1u << FLAG_IDENTICAL;
  return flags;
}

/* --- Units ------------------------------------------------------------------
 */

struct unit_info {
  xmlNodePtr out; /* the <unit> of the findings */
  const char *id;
  const char *state;
  unsigned flags; /* for every segment of the unit */
  int translatable;
};

static void segment(struct xmt_findings *b, const struct unit_info *u,
                    const char *mid, const xmlNode *source,
                    const xmlNode *target) {
  xmlNodePtr s = add(b, u->out, "segment");
  if (s == NULL)
    return;
  set(b, s, "unit", u->id);
  set(b, s, "mid", mid);
  xmt_segment_clear(b->src);
  xmt_segment_clear(b->tgt);
  xmlNodePtr src = add(b, s, "source");
  if (src != NULL)
    copy_inline(b, source->children, src, b->src);
  if (target != NULL) {
    xmlNodePtr tgt = add(b, s, "target");
    if (tgt != NULL)
      copy_inline(b, target->children, tgt, b->tgt);
  }
  int blank;
  size_t slen;
  const char *text = xmt_segment_text(b->src, &slen);
  struct xmt_findings_row r = {s, u->flags, chars(b->src, &blank), 0};
  if (!b->rows_only) /* words are costly to count, and the check did */
    set_num(b, s, "words", xmt_count_words(text, slen));
  set_num(b, s, "source-chars", r.source_chars);
  if (target != NULL) {
    r.target_chars = chars(b->tgt, &blank);
    set_num(b, s, "target-chars", r.target_chars);
  }
  if (b->known_flags != NULL) /* a pass before found them */
    r.flags = b->known_next < b->nknown ? b->known_flags[b->known_next++] : 0;
  else if (u->translatable)
    r.flags |= segment_flags(b, target != NULL, blank, u->state);
  struct xmt_findings_row *rows =
      grow(b, b->rows, &b->rows_cap, b->nrows + 1, sizeof *rows);
  if (rows == NULL)
    return;
  b->rows = rows;
  b->rows[b->nrows++] = r;
}

/* The seg mrk elements under n (not inside one another), into list. */
static size_t seg_mrks(const xmlNode *n, const xmlNode **list, size_t cap,
                       size_t count) {
  for (const xmlNode *c = n->children; c != NULL; c = c->next) {
    if (is_seg_mrk(c)) {
      if (count < cap)
        list[count] = c;
      count++;
    } else if (c->type == XML_ELEMENT_NODE) {
      count = seg_mrks(c, list, cap, count);
    }
  }
  return count;
}

static const xmlNode *mrk_by_mid(const xmlNode **list, size_t n,
                                 const char *mid) {
  for (size_t i = 0; i < n; i++)
    if (mid != NULL && prop_is(list[i], "mid", mid))
      return list[i];
  return NULL;
}

/* Looked up by name: a document may name thousands of states. */
static void count_state(struct xmt_findings *b, const char *name) {
  size_t at, len = strlen(name);
  if (xmt_memo_get(&b->state_index, name, len, NULL, NULL, &at)) {
    b->states[at].units++;
    return;
  }
  struct xmt_findings_state *s = xmt_grow_array(
      b->states, &b->states_cap, b->nstates + 1, sizeof *b->states);
  if (s == NULL) {
    b->nomem = 1;
    return;
  }
  b->states = s;
  if ((s[b->nstates].name = xmt_strdup(name)) == NULL ||
      xmt_memo_put(&b->state_index, name, len, NULL, 0, b->nstates) != XMT_OK) {
    free(s[b->nstates].name);
    b->nomem = 1;
    return;
  }
  s[b->nstates++].units = 1;
}

/* Lines of every trans-unit start tag, sorted, to tell which problems
 * are about a unit's own line. */
static void unit_lines(struct xmt_findings *b, const xmlNode *n) {
  for (const xmlNode *c = n->children; c != NULL && !b->nomem; c = c->next) {
    if (c->type != XML_ELEMENT_NODE)
      continue;
    if (!is(c, "trans-unit")) {
      unit_lines(b, c);
      continue;
    }
    unsigned long *lines =
        grow(b, b->lines, &b->lines_cap, b->nlines + 1, sizeof *lines);
    if (lines == NULL)
      return;
    b->lines = lines;
    b->lines[b->nlines++] = (unsigned long)xmlGetLineNo(c);
  }
}

static int compare_lines(const void *x, const void *y) {
  unsigned long a = *(const unsigned long *)x, c = *(const unsigned long *)y;
  return a < c ? -1 : a > c;
}

static int compare_by_unit(const void *x, const void *y) {
  const struct xmt_findings_problem *a =
      *(const struct xmt_findings_problem *const *)x;
  const struct xmt_findings_problem *c =
      *(const struct xmt_findings_problem *const *)y;
  int d = strcmp(a->unit, c->unit);
  return d != 0 ? d : (a > c) - (a < c);
}

/* The problems with a unit id, sorted by it and then in their order, so
 * that each unit finds its own by binary search: a walk of every problem
 * for each unit took quadratic time in a document of many. */
static void index_problems(struct xmt_findings *b) {
  b->by_unit_built = 1;
  b->by_unit = malloc((b->nproblems + 1) * sizeof *b->by_unit);
  if (b->by_unit == NULL) {
    b->nomem = 1;
    return;
  }
  for (size_t i = 0; i < b->nproblems; i++)
    if (b->problems[i].unit != NULL)
      b->by_unit[b->nby_unit++] = &b->problems[i];
  qsort(b->by_unit, b->nby_unit, sizeof *b->by_unit, compare_by_unit);
}

/* The check's problems of a unit: those on its line, and those about its
 * id on no unit's line (a duplicate id, reported on its <file>). */
static void unit_problems(struct xmt_findings *b, struct unit_info *u,
                          unsigned long line) {
  if (!b->by_unit_built)
    index_problems(b);
  size_t lo = 0, hi = b->nby_unit;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(b->by_unit[mid]->unit, u->id) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t i = lo; i < b->nby_unit && !b->nomem; i++) {
    const struct xmt_findings_problem *p = b->by_unit[i];
    if (strcmp(p->unit, u->id) != 0)
      break;
    if (p->line != line && bsearch(&p->line, b->lines, b->nlines,
                                   sizeof *b->lines, compare_lines) != NULL)
      continue;
    xmlNodePtr q = add(b, u->out, "problem");
    set(b, q, "severity", p->severity == XMT_ERROR ? "error" : "warning");
    set_num(b, q, "line", p->line);
    if (q != NULL)
      add_text(b, q, BAD_CAST p->message);
    u->flags |= 1u << FLAG_PROBLEM;
  }
}

void xmt_findings_unit(struct xmt_findings *b, const xmlNode *n,
                       xmlNodePtr file_out, int translatable) {
  if (prop_is(n, "translate", "no"))
    translatable = 0;
  xmlChar *id = xmlGetProp(n, BAD_CAST "id");
  const xmlNode *source = child(n, "source");
  const xmlNode *seg_source = child(n, "seg-source");
  const xmlNode *target = child(n, "target");
  xmlChar *state = target != NULL ? xmlGetProp(target, BAD_CAST "state") : NULL;
  struct unit_info u = {source != NULL ? add(b, file_out, "unit") : NULL,
                        id != NULL ? (const char *)id : "", (char *)state, 0,
                        translatable};
  unsigned long line = (unsigned long)xmlGetLineNo(n);
  if (u.out != NULL && source != NULL) {
    set(b, u.out, "id", u.id);
    set_num(b, u.out, "line", line);
    set(b, u.out, "translate", translatable ? "yes" : "no");
    copy_prop(b, n, u.out, "resname", NULL);
    copy_prop(b, n, u.out, "approved", NULL);
    if (target != NULL) {
      copy_prop(b, target, u.out, "state", NULL);
      copy_prop(b, target, u.out, "state-qualifier", NULL);
    }
    count_state(b, target == NULL  ? "(no target)"
                   : state == NULL ? "(no state)"
                                   : (const char *)state);
    if (!translatable)
      u.flags |= 1u << FLAG_LOCKED;
    else if (state != NULL &&
             strncmp((const char *)state, "needs-review", 12) == 0)
      u.flags |= 1u << FLAG_NEEDS_REVIEW;
    if (translatable && target != NULL) {
      xmlChar *q = xmlGetProp(target, BAD_CAST "state-qualifier");
      if (q != NULL && (strcmp((const char *)q, "mt-suggestion") == 0 ||
                        strcmp((const char *)q, "leveraged-mt") == 0))
        u.flags |= 1u << FLAG_MT;
      xmlFree(q);
    }
    unit_problems(b, &u, line);
    for (const xmlNode *c = n->children; c != NULL; c = c->next)
      if (is(c, "note")) {
        xmlNodePtr note = add(b, u.out, "note");
        xmlChar *text = xmlNodeGetContent(c);
        if (note != NULL && text != NULL)
          add_text(b, note, text);
        xmlFree(text);
      }
    /* One row per seg mrk when the target is segmented alike (or has one
     * segment), else one row for the whole unit. */
    const xmlNode *smrk[256], *tmrk[256];
    size_t ns = seg_source != NULL ? seg_mrks(seg_source, smrk, 256, 0) : 0;
    size_t nt = target != NULL ? seg_mrks(target, tmrk, 256, 0) : 0;
    if (ns > 0 && ns <= 256 && nt <= 256 &&
        (nt > 0 || target == NULL || ns == 1)) {
      for (size_t i = 0; i < ns && !b->nomem; i++) {
        xmlChar *mid = xmlGetProp(smrk[i], BAD_CAST "mid");
        const xmlNode *t =
            nt > 0 ? mrk_by_mid(tmrk, nt, (const char *)mid) : target;
        segment(b, &u, mid != NULL ? (const char *)mid : "", smrk[i], t);
        xmlFree(mid);
      }
    } else {
      segment(b, &u, NULL, source, target);
    }
  }
  xmlFree(state);
  xmlFree(id);
}

static void container(struct xmt_findings *b, const xmlNode *n,
                      xmlNodePtr file_out, int translatable) {
  for (const xmlNode *c = n->children; c != NULL && !b->nomem; c = c->next) {
    if (is(c, "group"))
      container(b, c, file_out, translatable && !prop_is(c, "translate", "no"));
    else if (is(c, "trans-unit"))
      xmt_findings_unit(b, c, file_out, translatable);
  }
}

/* --- The whole document ---------------------------------------------------
 */

static int compare_ratio(const void *x, const void *y) {
  double a = *(const double *)x, c = *(const double *)y;
  return a < c ? -1 : a > c;
}

/* The rows that a length flag is measured on. */
static int measured(const struct xmt_findings_row *r) {
  return !(r->flags & (1u << FLAG_UNTRANSLATED | 1u << FLAG_LOCKED));
}

int xmt_findings_median(const struct xmt_findings_row *rows, size_t nrows,
                        double *median) {
  double *ratios = malloc((nrows + 1) * sizeof *ratios);
  if (ratios == NULL)
    return -1;
  size_t n = 0;
  for (size_t min = 20; n == 0 && min > 0; min = min == 20 ? 1 : 0)
    for (size_t i = 0; i < nrows; i++) {
      const struct xmt_findings_row *r = &rows[i];
      if (r->source_chars >= min && r->target_chars > 0 && measured(r))
        ratios[n++] = (double)r->target_chars / (double)r->source_chars;
    }
  *median = 1.0;
  if (n > 0) {
    qsort(ratios, n, sizeof *ratios, compare_ratio);
    *median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  }
  free(ratios);
  return 0;
}

/* Flags a target far longer or shorter than the document's usual ratio
 * predicts; short segments get slack, as their ratios swing. */
void xmt_findings_length(struct xmt_findings_row *rows, size_t nrows,
                         double median) {
  for (size_t i = 0; i < nrows; i++) {
    struct xmt_findings_row *r = &rows[i];
    if (!measured(r))
      continue;
    double want = median * (double)r->source_chars;
    double got = (double)r->target_chars;
    if (got > 2 * want + 10 || got < want / 2 - 10)
      r->flags |= 1u << FLAG_LENGTH;
  }
}

void xmt_findings_flags(struct xmt_findings *b,
                        const struct xmt_findings_row *rows, size_t nrows,
                        size_t *counts) {
  for (size_t i = 0; i < nrows; i++) {
    char flags[256] = "";
    size_t len = 0;
    for (int k = 0; k < NFLAGS; k++)
      if (rows[i].flags & (1u << k)) {
        len += (size_t)snprintf(flags + len, sizeof flags - len, "%s%s",
                                len ? " " : "", flag_names[k]);
        counts[k]++;
      }
    if (rows[i].node != NULL)
      set(b, rows[i].node, "flags", flags);
  }
}

void xmt_findings_summary(struct xmt_findings *b, xmlNodePtr summary,
                          const struct xmt_check_report *r, size_t nrows,
                          const size_t *counts) {
  set_num(b, summary, "files", r->files);
  set_num(b, summary, "units", r->units);
  set_num(b, summary, "translatable-units", r->translatable_units);
  set_num(b, summary, "units-with-target", r->units_with_target);
  set_num(b, summary, "segments", r->segments);
  set_num(b, summary, "rows", nrows);
  /* The check counts the words of translatable units only: the
   * attribute says so; "words", its name before, stays for stylesheets
   * that read it. */
  set_num(b, summary, "translatable-words", r->words);
  set_num(b, summary, "words", r->words);
  set_num(b, summary, "errors", r->errors);
  set_num(b, summary, "warnings", r->warnings);
  for (int k = 0; k < XMT_CODE_KINDS; k++) {
    xmlNodePtr c = add(b, summary, "codes");
    set(b, c, "name", xmt_code_kind_name((enum xmt_code_kind)k));
    set_num(b, c, "count", r->codes[k]);
  }
  for (size_t i = 0; i < b->nstates; i++) {
    xmlNodePtr s = add(b, summary, "state");
    set(b, s, "name", b->states[i].name);
    set_num(b, s, "units", b->states[i].units);
  }
  for (int k = 0; k < NFLAGS; k++) {
    xmlNodePtr fl = add(b, summary, "flag");
    set(b, fl, "name", flag_names[k]);
    set_num(b, fl, "segments", counts[k]);
  }
}

const char *const xmt_findings_file_attrs[XMT_FINDINGS_FILE_ATTRS] = {
    "original", "source-language", "target-language", "datatype"};

static void document(struct xmt_findings *b, const xmlNode *xliff) {
  size_t index = 0;
  for (const xmlNode *c = xliff->children; c != NULL && !b->nomem;
       c = c->next) {
    if (!is(c, "file"))
      continue;
    xmlNodePtr fo = add(b, b->root, "file");
    set_num(b, fo, "index", ++index);
    for (int k = 0; k < XMT_FINDINGS_FILE_ATTRS; k++)
      copy_prop(b, c, fo, xmt_findings_file_attrs[k], NULL);
    if (index == 1) {
      copy_prop(b, c, b->root, "source-language", NULL);
      copy_prop(b, c, b->root, "target-language", NULL);
    }
    const xmlNode *body = child(c, "body");
    if (fo != NULL && body != NULL)
      container(b, body, fo, 1);
  }
}

void xmt_findings_free(struct xmt_findings *b) {
  for (size_t i = 0; i < b->nproblems; i++)
    free(b->problems[i].unit), free(b->problems[i].message);
  free(b->problems);
  free(b->rows);
  free(b->lines);
  for (size_t i = 0; i < b->nstates; i++)
    free(b->states[i].name);
  free(b->states);
  xmt_memo_free(&b->state_index);
  free(b->by_unit);
  xmt_segment_free(b->src);
  xmt_segment_free(b->tgt);
  xmlFreeDoc(b->out);
  memset(b, 0, sizeof *b);
}

xmt_status xmt_findings_check(struct xmt_findings *b, xmt_filter *f,
                              const char *path,
                              const struct xmt_units_text *units,
                              struct xmt_check_report *report) {
  memset(b, 0, sizeof *b);
  b->f = f;
  xmt_status st = xmt_check_document(f, path, units, report, on_problem, b);
  if (st == XMT_OK && b->nomem)
    st = xmt_error_nomem(&f->err);
  if (st == XMT_OK && ((b->src = xmt_segment_new()) == NULL ||
                       (b->tgt = xmt_segment_new()) == NULL))
    st = xmt_error_nomem(&f->err);
  return st;
}

void xmt_findings_line(struct xmt_findings *b, unsigned long line) {
  unsigned long *lines =
      grow(b, b->lines, &b->lines_cap, b->nlines + 1, sizeof *lines);
  if (lines != NULL)
    b->lines = lines, b->lines[b->nlines++] = line;
}

void xmt_findings_sort_lines(struct xmt_findings *b) {
  if (b->nlines > 1)
    qsort(b->lines, b->nlines, sizeof *b->lines, compare_lines);
}

xmlNodePtr xmt_findings_begin(struct xmt_findings *b, const char *path,
                              const struct xmt_check_report *report) {
  xmlFreeDoc(b->out);
  b->nrows = 0;
  b->out = xmlNewDoc(BAD_CAST "1.0");
  b->root = b->out != NULL
                ? xmlNewDocNode(b->out, NULL, BAD_CAST "findings", NULL)
                : NULL;
  xmlNsPtr ns = b->root != NULL
                    ? xmlNewNs(b->root, BAD_CAST XMT_FINDINGS_NS, NULL)
                    : NULL;
  b->xlf = b->root != NULL
               ? xmlNewNs(b->root, BAD_CAST XLIFF12_NS, BAD_CAST "x")
               : NULL;
  if (ns == NULL || b->xlf == NULL) {
    xmlFreeNode(b->root);
    b->root = NULL;
    b->nomem = 1;
    return NULL;
  }
  xmlSetNs(b->root, ns);
  xmlDocSetRootElement(b->out, b->root);
  set(b, b->root, "version", PACKAGE_VERSION);
  set(b, b->root, "file", path);
  set(b, b->root, "encoding", report->encoding);
  /* a page of another format is read as the XLIFF 1.2 extract makes */
  set(b, b->root, "xliff-version",
      report->version != NULL ? report->version : "1.2");
  return b->root;
}

void xmt_findings_problems(struct xmt_findings *b, xmlNodePtr problems,
                           size_t from, size_t n) {
  size_t end =
      from + n < from || from + n > b->nproblems ? b->nproblems : from + n;
  for (size_t i = from; i < end && problems != NULL; i++) {
    const struct xmt_findings_problem *p = &b->problems[i];
    xmlNodePtr q = add(b, problems, "problem");
    set(b, q, "severity", p->severity == XMT_ERROR ? "error" : "warning");
    set_num(b, q, "line", p->line);
    set_num(b, q, "column", p->column);
    set(b, q, "unit", p->unit);
    if (q != NULL)
      add_text(b, q, BAD_CAST p->message);
  }
}

xmlDocPtr xmt_findings_build(xmt_filter *f, const char *path,
                             const struct xmt_buf *units,
                             const struct xmt_doc_facts *facts,
                             xmlDocPtr *doc_out) {
  struct xmt_findings b;
  struct xmt_check_report report;
  struct xmt_units_text text = {units != NULL ? units->data : NULL,
                                units != NULL ? units->len : 0, NULL, facts};
  xmt_status st =
      xmt_findings_check(&b, f, path, units != NULL ? &text : NULL, &report);
  /* The check reads the document first: bad input is reported as every
   * command reports it. */
  xmlDocPtr doc = NULL;
  *doc_out = NULL;
  if (st == XMT_OK &&
      (doc = xmt_report_read_xml(f, path, units != NULL ? units->data : NULL,
                                 units != NULL ? units->len : 0,
                                 "the document")) == NULL)
    st = f->err.pub.status;
  if (st != XMT_OK) {
    xmt_findings_free(&b);
    return NULL;
  }
  if (xmt_findings_begin(&b, path, &report) != NULL) {
    xmlNodePtr summary = add(&b, b.root, "summary");
    xmt_findings_problems(&b, add(&b, b.root, "problems"), 0, SIZE_MAX);
    const xmlNode *xliff = xmlDocGetRootElement(doc);
    if (xliff != NULL)
      unit_lines(&b, xliff);
    xmt_findings_sort_lines(&b);
    if (xliff != NULL)
      document(&b, xliff);
    double median = 1.0;
    if (!b.nomem && xmt_findings_median(b.rows, b.nrows, &median) != 0)
      b.nomem = 1;
    xmt_findings_length(b.rows, b.nrows, median);
    size_t counts[NFLAGS] = {0};
    xmt_findings_flags(&b, b.rows, b.nrows, counts);
    if (summary != NULL)
      xmt_findings_summary(&b, summary, &report, b.nrows, counts);
  }
  xmlDocPtr out = b.out;
  int nomem = b.nomem;
  b.out = NULL;
  xmt_findings_free(&b);
  if (nomem) {
    xmlFreeDoc(out);
    xmlFreeDoc(doc);
    xmt_error_nomem(&f->err);
    return NULL;
  }
  *doc_out = doc;
  return out;
}
