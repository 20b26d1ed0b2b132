/* check.c -- reads a document and reports what it holds and what is wrong
 * with it, without writing anything. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

const char *xmt_code_kind_name(enum xmt_code_kind kind) {
  switch (kind) {
  case XMT_CODE_G:
    return "g";
  case XMT_CODE_X:
    return "x";
  case XMT_CODE_BX:
    return "bx";
  case XMT_CODE_EX:
    return "ex";
  case XMT_CODE_BPT:
    return "bpt";
  case XMT_CODE_EPT:
    return "ept";
  case XMT_CODE_PH:
    return "ph";
  case XMT_CODE_IT:
    return "it";
  case XMT_CODE_MRK:
    return "mrk";
  case XMT_CODE_OTHER:
  case XMT_CODE_KINDS:
    break;
  }
  return "other";
}

struct check {
  const char *path;
  struct xmt_check_report *report;
  xmt_problem_fn on_problem;
  void *user;
  struct xmt_memo ids; /* unit ids of the current <file>, with their line */
  int failed;
  struct xmt_doc_facts facts;
};

static int problem_at(struct check *c, enum xmt_severity sev,
                      unsigned long line, unsigned long column,
                      const char *unit_id, const char *message) {
  if (sev == XMT_ERROR)
    c->report->errors++;
  else
    c->report->warnings++;
  if (c->on_problem == NULL)
    return 0;
  /* a name cut short in a message may end inside a character */
  char *mended = NULL;
  size_t len = strlen(message);
  if (xmt_utf8_valid_prefix(message, len) != len &&
      (mended = xmt_strdup(message)) != NULL) {
    xmt_utf8_mend(mended, len);
    message = mended;
  }
  struct xmt_problem p = {sev, c->path, line, column, unit_id, message};
  int rc = c->on_problem(c->user, &p);
  free(mended);
  return rc;
}

static int problem(struct check *c, enum xmt_severity sev, unsigned long line,
                   const char *unit_id, const char *message) {
  return problem_at(c, sev, line, 0, unit_id, message);
}

/* Unit ids must be unique within a <file>; each repeat is an error at
 * its own start tag. (translate, extract and merge still keep the units
 * apart: see unit_keys.c.) */
static int check_id(struct check *c, const xmt_xliff_unit *u) {
  size_t first_line;
  size_t len = strlen(u->id);
  if (xmt_memo_get(&c->ids, u->id, len, NULL, NULL, &first_line)) {
    struct xmt_buf msg = {0};
    char where[64];
    snprintf(where, sizeof where,
             "\" is used more than once in <file> "
             "(first at line %zu)",
             first_line);
    int rc = xmt_buf_append_str(&msg, "trans-unit id \"") != XMT_OK ||
             xmt_buf_append(&msg, u->id, len) != XMT_OK ||
             xmt_buf_append_str(&msg, where) != XMT_OK;
    c->failed |= rc;
    if (rc == 0)
      rc = problem_at(c, XMT_ERROR, u->line, u->column, u->id, msg.data);
    xmt_buf_free(&msg);
    return rc;
  }
  if (xmt_memo_put(&c->ids, u->id, len, NULL, 0, u->line) != XMT_OK)
    return c->failed = 1;
  return 0;
}

/* A rule of an XLIFF 2 document broken (xliff2/rules.c). */
static int on_rule(void *user, unsigned long line, unsigned long column,
                   const char *unit_id, const char *message, int warning) {
  return problem_at(user, warning ? XMT_WARNING : XMT_ERROR, line, column,
                    unit_id, message);
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  (void)user, (void)bytes, (void)len;
  return 0;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct check *c = user;
  (void)tag, (void)len, (void)info;
  xmt_memo_clear(&c->ids);
  c->report->files++;
  return 0;
}

static enum xmt_code_kind code_kind(const struct xmt_tag *t) {
  static const char *const names[] = {"g",   "x",  "bx", "ex", "bpt",
                                      "ept", "ph", "it", "mrk"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(t->name, names[i]) == 0)
      return (enum xmt_code_kind)i;
  return XMT_CODE_OTHER;
}

/* A comment or processing instruction the readers keep in place as a
 * code: no inline element, and nothing a target lacks when it has none
 * (the writer puts it back itself; a translator need not copy it). The
 * XLIFF 1.2 reader keeps its bytes as markup; XLIFF 2's names it "?"
 * over an <x/> of its own. */
static int comment_or_pi(const struct xmt_tag *t) {
  const char *m = t->markup;
  size_t n = m != NULL ? t->markup_len : 0;
  if (t->kind != XMT_TAG_PLACEHOLDER || n < 2 || m[0] != '<')
    return 0;
  return (n >= 4 && memcmp(m, "<!--", 4) == 0) || m[1] == '?' ||
         (strcmp(t->name, "?") == 0 && n >= 3 && memcmp(m, "<x ", 3) == 0);
}

/* One element per tag, except the end tag of a g or mrk pair and a
 * comment or processing instruction. */
int xmt_check_counts_as_element(const struct xmt_tag *t) {
  return !(t->kind == XMT_TAG_CLOSE &&
           (strcmp(t->name, "g") == 0 || strcmp(t->name, "mrk") == 0)) &&
         !comment_or_pi(t);
}

/* bx, ex and it whose partner is in another segment or unit: valid
 * XLIFF, told as information. */
static size_t isolated_codes(const xmt_segment *seg) {
  size_t n = 0;
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) == XMT_OK &&
        (t.kind == XMT_TAG_ISOLATED_OPEN || t.kind == XMT_TAG_ISOLATED_CLOSE))
      n++;
  }
  return n;
}

static void count_codes(const xmt_segment *seg, size_t *codes) {
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) == XMT_OK &&
        xmt_check_counts_as_element(&t))
      codes[code_kind(&t)]++;
  }
}

/* A code by name and id, to match codes by sorting both sides: looking
 * through the other side for each code took quadratic time in a unit of
 * many codes. */
struct code_ref {
  const char *name, *id;
  size_t index;
};

static int code_cmp(const struct code_ref *a, const struct code_ref *b) {
  int c = strcmp(a->name, b->name);
  return c != 0 ? c : strcmp(a->id, b->id);
}

static int code_order(const void *x, const void *y) {
  const struct code_ref *a = x, *b = y;
  int c = code_cmp(a, b);
  return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* The inline elements of seg into refs, sorted; returns how many. */
static size_t code_refs(const xmt_segment *seg, struct code_ref *refs) {
  size_t n = 0;
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    xmt_segment_tag(seg, i, &t);
    if (xmt_check_counts_as_element(&t)) {
      refs[n].name = t.name;
      refs[n].id = t.id;
      refs[n++].index = i;
    }
  }
  qsort(refs, n, sizeof *refs, code_order);
  return n;
}

xmt_status xmt_check_match_codes(const xmt_segment *a, const xmt_segment *b,
                                 size_t *match) {
  size_t na = xmt_segment_tag_count(a), nb = xmt_segment_tag_count(b);
  struct code_ref *ra = malloc((na + 1) * sizeof *ra);
  struct code_ref *rb = malloc((nb + 1) * sizeof *rb);
  if (ra == NULL || rb == NULL) {
    free(ra);
    free(rb);
    return XMT_ERR_NOMEM;
  }
  for (size_t i = 0; i < na; i++)
    match[i] = SIZE_MAX;
  na = code_refs(a, ra);
  nb = code_refs(b, rb);
  /* Both in order of name, id, place: the runs of equal codes pair up
   * in order. */
  for (size_t i = 0, j = 0; i < na && j < nb;) {
    int c = code_cmp(&ra[i], &rb[j]);
    if (c < 0)
      i++;
    else if (c > 0)
      j++;
    else
      match[ra[i++].index] = rb[j++].index;
  }
  free(ra);
  free(rb);
  return XMT_OK;
}

int xmt_check_missing_code(const xmt_segment *a, const xmt_segment *b,
                           char *what, size_t size) {
  size_t na = xmt_segment_tag_count(a);
  size_t *match = calloc(na + 1, sizeof *match);
  int found = 0;
  if (match == NULL || xmt_check_match_codes(a, b, match) != XMT_OK)
    found = -1;
  else
    for (size_t i = 0; i < na && !found; i++) {
      struct xmt_tag ta;
      xmt_segment_tag(a, i, &ta);
      if (xmt_check_counts_as_element(&ta) && match[i] == SIZE_MAX) {
        snprintf(what, size, "<%s id=\"%.40s\">", ta.name, ta.id);
        found = 1;
      }
    }
  free(match);
  return found;
}

static int check_unit(struct check *c, const xmt_xliff_unit *u) {
  const char *id = u->id != NULL ? u->id : "";
  char msg[256], what[64];
  int rc = 0;
  if (u->id == NULL)
    rc = problem(c, XMT_ERROR, u->line, NULL, "trans-unit without id");
  if (rc == 0 && u->seg_text_differs)
    rc = problem(c, XMT_WARNING, u->line, id,
                 "the text of <seg-source> differs from <source>");
  if (rc == 0 && u->translatable && u->whole_source != NULL &&
      xmt_segment_tag_count(u->whole_source) == 0) {
    size_t len;
    const char *text = xmt_segment_text(u->whole_source, &len);
    size_t i = 0;
    while (i < len && xmt_is_xml_space(text[i]))
      i++;
    if (i == len)
      rc = problem(c, XMT_WARNING, u->line, id, "empty <source>");
  }
  /* a format with rules of its own compares its codes as it names them */
  if (rc == 0 && u->has_target && u->existing != NULL &&
      u->whole_source != NULL && !c->facts.own_rules) {
    int missing =
        xmt_check_missing_code(u->whole_source, u->existing, what, sizeof what);
    if (missing > 0) {
      snprintf(msg, sizeof msg, "<target> lacks the inline code %s of <source>",
               what);
      rc = problem(c, XMT_WARNING, u->line, id, msg);
    }
    int added = rc != 0 || missing < 0
                    ? 0
                    : xmt_check_missing_code(u->existing, u->whole_source, what,
                                             sizeof what);
    if (added > 0) {
      snprintf(msg, sizeof msg,
               "<target> has an inline code %s not in <source>", what);
      rc = problem(c, XMT_WARNING, u->line, id, msg);
    }
    /* A check that could not be made is not a clean unit. */
    if (missing < 0 || added < 0)
      c->failed = rc = 1;
  }
  return rc;
}

static int on_unit(void *user, xmt_xliff_unit *u) {
  struct check *c = user;
  struct xmt_check_report *r = c->report;
  r->units++;
  if (u->translatable)
    r->translatable_units++;
  if (u->has_target)
    r->units_with_target++;
  r->segments += u->nsegs;
  if (u->whole_source != NULL)
    count_codes(u->whole_source, r->codes);
  for (size_t i = 0; i < u->nsegs; i++) {
    r->isolated_codes += isolated_codes(u->segs[i].source);
    size_t len;
    const char *text = xmt_segment_text(u->segs[i].source, &len);
    if (u->translatable)
      r->words += xmt_count_words(text, len);
  }
  /* a format with rules of its own has told of ids used twice */
  int rc = u->id != NULL && !c->facts.own_rules ? check_id(c, u) : 0;
  if (rc == 0)
    rc = check_unit(c, u);
  xmt_xliff_unit_free(u);
  return rc;
}

/* A document of a format with a schema (XLIFF) is checked against it
 * first, then by the rules a schema cannot state; a page (checked as the
 * XLIFF extract writes of it) is not. */
static xmt_status schema_first(xmt_filter *f, const char *path,
                               struct check *c) {
  const struct xmt_format *format;
  xmt_status st = xmt_format_of(f, path, &format);
  if (st != XMT_OK || !format->schema)
    return st == XMT_ERR_FORMAT ? XMT_OK : st; /* the reader tells it */
  if (strcmp(path, "-") == 0 && (st = xmt_stdin_hold_whole(f)) != XMT_OK)
    return st;
  st = xmt_schema_check(f, path, on_rule, c);
  if (st == XMT_ERR_ABORTED && f->err.pub.status == XMT_OK)
    st = xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  return st;
}

/* The XLIFF text of a document's units parsed, from memory or a file. */
static xmt_status parse_units(xmt_filter *f, const char *path,
                              xmt_xliff_reader *reader,
                              const struct xmt_units_text *units) {
  if (units->fp == NULL)
    return xmt_xliff_reader_parse(reader, units->data, units->len, 1);
  char buf[65536];
  xmt_status st = XMT_OK;
  int last = 0;
  rewind(units->fp);
  while (st == XMT_OK && !last) {
    size_t n = fread(buf, 1, sizeof buf, units->fp);
    if (n < sizeof buf && ferror(units->fp))
      return xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path),
                          "cannot read the units of the document again: %s",
                          strerror(errno));
    last = n < sizeof buf;
    st = xmt_xliff_reader_parse(reader, buf, n, last);
  }
  return st;
}

xmt_status xmt_check_document(xmt_filter *f, const char *path,
                              const struct xmt_units_text *units,
                              struct xmt_check_report *report,
                              xmt_problem_fn on_problem, void *user) {
  xmt_error_clear(&f->err);
  memset(report, 0, sizeof *report);
  if (path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  struct check c = {
      .path = path, .report = report, .on_problem = on_problem, .user = user};
  static const struct xmt_xliff_reader_callbacks callbacks = {on_skeleton,
                                                              on_file, on_unit};
  xmt_status st = units == NULL ? schema_first(f, path, &c) : XMT_OK;
  if (st != XMT_OK) {
    xmt_memo_free(&c.ids);
    return st;
  }
  xmt_xliff_reader *reader = xmt_xliff_reader_new(&callbacks, &c);
  if (reader != NULL)
    xmt_xliff_reader_keep_entities(reader,
                                   (f->flags & XMT_FILTER_KEEP_ENTITIES) != 0);
  if (reader == NULL || xmt_xliff_reader_set_filename(reader, path) != XMT_OK) {
    st = xmt_error_nomem(&f->err);
  } else {
    size_t bytes = 0;
    const struct xmt_doc_facts *facts = &c.facts;
    st = units != NULL ? parse_units(f, path, reader, units)
                       : xmt_format_read_units(f, path, reader, &f->err, &bytes,
                                               &c.facts, on_rule, &c);
    if (c.failed)
      st = xmt_error_nomem(&f->err);
    else if (st != XMT_OK && f->err.pub.status == XMT_OK)
      st = xmt_error_copy(&f->err, xmt_xliff_reader_error(reader));
    /* the text of the units has a trans-unit for each segment of an
     * XLIFF 2 unit of several, and says XLIFF 1.2: the document's own
     * facts win */
    if (units != NULL && units->facts != NULL)
      facts = units->facts;
    report->encoding =
        facts->encoding != NULL
            ? facts->encoding
            : xmt_encoding_name(xmt_xliff_reader_encoding(reader));
    report->version = facts->version != NULL ? facts->version
                                             : xmt_xliff_reader_version(reader);
    if (facts->counted) {
      report->units = facts->units;
      report->translatable_units = facts->translatable_units;
      report->units_with_target = facts->units_with_target;
    }
  }
  xmt_memo_free(&c.ids);
  xmt_xliff_reader_free(reader);
  return st;
}

xmt_status xmt_filter_check_file(xmt_filter *f, const char *path,
                                 struct xmt_check_report *report,
                                 xmt_problem_fn on_problem, void *user) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  /* An HTML page is checked as the XLIFF document extract writes of it. */
  return xmt_check_document(f, path, NULL, report, on_problem, user);
}
