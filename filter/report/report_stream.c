/* report_stream.c -- the shipped stylesheets and the findings written a
 * chunk of units at a time (findings_stream.c reads them).
 *
 * The page's head and tail come from the stylesheet run over the findings
 * without units and with only the first of the check's problems; the rows
 * and the other problems, from a copy of it whose root template writes
 * only those of a chunk, within the elements they have on the page, so
 * that they are written as they are on the page. They are cut out of that
 * result and put in their place in the head's: the bytes the stylesheet
 * gives over the whole findings (test_filter_report.c compares them). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxslt/transform.h>
#include <libxslt/xsltInternals.h>

#include "report_private.h"

/* How rows, or problems, are cut from a chunk's result and put into the
 * head's. */
struct part {
  const char *template; /* the chunks' root template; NULL: none */
  /* A chunk's rows: after the first open (after open_after), before the
   * last close. */
  const char *open_after, *open, *close;
  /* Their place in the head: at the first point after the mark of their
   * <file> (the Nth mark after after, N its index; the first mark when
   * not per_file), replacing replaced bytes, between head_open and
   * head_close. */
  const char *after, *mark, *point;
  size_t replaced;
  const char *head_open, *head_close;
  int per_file;
};

struct xmt_report_recipe {
  const char *name; /* of the shipped stylesheet; NULL: the findings */
  struct part rows, problems;
};

#define XSL_TEMPLATE(body) "<xsl:template match='/'>" body "</xsl:template>"

/* The selects repeat those of the root templates of data/xliffmt-*.xsl;
 * the TMX export has no problems. */
static const struct xmt_report_recipe recipes[] = {
    {"report",
     {XSL_TEMPLATE("<html><body><table class='segments'><tbody>"
                   "<xsl:apply-templates select='$F/f:file/f:unit/f:segment'>"
                   "<xsl:with-param name='before' select='$xmt-before'/>"
                   "</xsl:apply-templates></tbody></table></body></html>"),
      NULL, "<tbody>", "</tbody>", "<table class=\"segments\">", "</tbody>",
      NULL, 0, "", "", 1},
     {XSL_TEMPLATE("<html><body><xsl:apply-templates "
                   "select='$F/f:problems[f:problem]'/></body></html>"),
      NULL, "<ul>", "</ul>", "<details class=\"problems\"", "</ul>", NULL, 0,
      "", "", 0}},
    {"tmx",
     {XSL_TEMPLATE("<tmx><body><xsl:apply-templates select=\"$F/f:file/"
                   "f:unit[@translate = 'yes']/f:segment[f:target][not("
                   "contains(concat(' ', @flags, ' '), ' untranslated '))]\"/>"
                   "</body></tmx>"),
      NULL, "<body>\n", "  </body>", NULL, "<body/>", NULL, 7, "<body>\n",
      "  </body>", 0},
     {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0}},
};
static const struct xmt_report_recipe findings_recipe = {
    NULL,
    {NULL, "<file ", ">", "</file>", NULL, "<file ", "/>", 2, ">", "</file>",
     1},
    {NULL, NULL, "<problems>", "</problems>", NULL, "</problems>", NULL, 0, "",
     "", 0}};

const struct xmt_report_recipe *xmt_report_recipe(const char *name,
                                                  int findings) {
  if (findings)
    return &findings_recipe;
  for (size_t i = 0; name != NULL && i < sizeof recipes / sizeof *recipes; i++)
    if (strcmp(recipes[i].name, name) == 0)
      return &recipes[i];
  return NULL;
}

/* The shipped stylesheet with r's root template for its own. */
static int is_root_template(const xmlNode *n) {
  if (n->type != XML_ELEMENT_NODE || !xmlStrEqual(n->name, BAD_CAST "template"))
    return 0;
  xmlChar *match = xmlGetNoNsProp(n, BAD_CAST "match");
  int yes = match != NULL && xmlStrEqual(match, BAD_CAST "/");
  xmlFree(match);
  return yes;
}

/* The shipped stylesheet name with template for its root template. */
static xsltStylesheetPtr compile_chunks(xmt_filter *f, const char *name,
                                        const char *template) {
  size_t len;
  const char *text = xmt_report_stylesheet(name, &len);
  xmlDocPtr doc = xmt_report_read_xml(f, name, text, len, "the stylesheet");
  xmlNodePtr root = doc != NULL ? xmlDocGetRootElement(doc) : NULL;
  for (xmlNodePtr n = root != NULL ? root->children : NULL; n != NULL;
       n = n->next)
    if (is_root_template(n)) {
      xmlUnlinkNode(n);
      xmlFreeNode(n);
      break;
    }
  static const char param[] = "<xsl:param name='xmt-before' select='0'/>";
  xmlNodePtr list = NULL, more = NULL;
  int ok = root != NULL &&
           xmlParseInNodeContext(root, template, (int)strlen(template), 0,
                                 &list) == XML_ERR_OK &&
           xmlParseInNodeContext(root, param, (int)strlen(param), 0, &more) ==
               XML_ERR_OK;
  if (!ok) {
    xmlFreeNodeList(list);
    xmlFreeNodeList(more);
    xmlFreeDoc(doc);
    if (f->err.pub.status == XMT_OK)
      xmt_error_nomem(&f->err);
    return NULL;
  }
  xmlAddChildList(root, list);
  xmlAddChildList(root, more);
  xsltStylesheetPtr style = xsltParseStylesheetDoc(doc);
  if (style == NULL || style->errors > 0) {
    if (style != NULL)
      xsltFreeStylesheet(style);
    else
      xmlFreeDoc(doc);
    xmt_error_set(&f->err, XMT_ERR_NOMEM, "the stylesheet %s: %s", name,
                  "cannot make its copy for chunks");
    return NULL;
  }
  return style;
}

/* Where s[0, len) holds what, from from on; len when nowhere. */
static size_t find(const char *s, size_t len, size_t from, const char *what) {
  size_t n = strlen(what);
  for (size_t i = from; n > 0 && i + n <= len; i++) {
    const char *p = memchr(s + i, what[0], len - i);
    if (p == NULL)
      break;
    i = (size_t)(p - s);
    if (i + n <= len && memcmp(p, what, n) == 0)
      return i;
  }
  return len;
}

/* Writes a stream's result: the head's bytes with each chunk's rows (or
 * problems) in their place. */
struct splice {
  const struct xmt_report_recipe *r;
  const struct part *p; /* rows or problems */
  struct xmt_output out;
  const char *path; /* of out */
  const char *head;
  size_t head_len;
  size_t written;     /* of the head */
  size_t mark, marks; /* the last mark found, and how many */
  size_t group;       /* whose rows are being written; 0: none */
};

static int write_out(struct splice *sp, const char *bytes, size_t len) {
  return len == 0 ? 0 : -(xmt_output_write(&sp->out, bytes, len) != 0);
}

/* Ends the rows of a group, and starts on p's. */
static int close_group(struct splice *sp, const struct part *p) {
  int rc = 0;
  if (sp->group != 0)
    rc = write_out(sp, sp->p->head_close, strlen(sp->p->head_close));
  sp->group = 0;
  if (p != sp->p)
    sp->p = p, sp->mark = sp->marks = 0;
  return rc;
}

/* Writes the rows of a chunk of <file> file; -1 when the head has no
 * place for them (a stylesheet that is not the recipe's). */
static int splice_rows(struct splice *sp, size_t file, const char *rows,
                       size_t len) {
  const struct part *p = sp->p;
  size_t group = p->per_file ? file : 1;
  if (len == 0)
    return 0;
  if (group != sp->group) {
    if (close_group(sp, p) != 0)
      return -1;
    if (sp->marks == 0 && p->after != NULL)
      sp->mark = find(sp->head, sp->head_len, sp->written, p->after);
    else if (sp->marks == 0)
      sp->mark = sp->written;
    while (sp->marks < group && sp->mark < sp->head_len) {
      sp->mark = find(sp->head, sp->head_len,
                      sp->marks == 0 ? sp->mark : sp->mark + 1, p->mark);
      sp->marks += sp->mark < sp->head_len;
    }
    size_t at = p->point != NULL
                    ? find(sp->head, sp->head_len, sp->mark, p->point)
                    : sp->mark;
    if (sp->marks < group || at >= sp->head_len || at < sp->written)
      return -1;
    if (write_out(sp, sp->head + sp->written, at - sp->written) != 0 ||
        write_out(sp, p->head_open, strlen(p->head_open)) != 0)
      return -1;
    sp->written = at + p->replaced;
    sp->group = group;
  }
  return write_out(sp, rows, len);
}

static xmt_status splice_failed(xmt_filter *f, const struct splice *sp) {
  xmt_status st = xmt_output_reason(&sp->out, XMT_OK, sp->path, &f->err);
  if (st != XMT_OK)
    return st;
  return xmt_error_set(&f->err, XMT_ERR_INTERNAL,
                       "the %s page has no place for the rows of a chunk",
                       sp->r->name != NULL ? sp->r->name : "findings");
}

/* The rows of a chunk's result. */
static const char *cut_rows(const struct part *p, const char *s, size_t len,
                            size_t *rows_len) {
  size_t from = p->open_after != NULL ? find(s, len, 0, p->open_after) : 0;
  size_t start = find(s, len, from, p->open);
  size_t n = strlen(p->close), end = len;
  for (size_t i = len >= n ? len - n + 1 : 0; i-- > 0;)
    if (memcmp(s + i, p->close, n) == 0) {
      end = i;
      break;
    }
  if (start >= len || end >= len || end < start + strlen(p->open)) {
    *rows_len = 0;
    return s;
  }
  start += strlen(p->open);
  *rows_len = end - start;
  return s + start;
}

/* Problems are smaller than units: a chunk has more of them. */
#define PROBLEMS_A_UNIT 4

struct stream_run {
  xmt_filter *f;
  const struct xmt_report_options *options;
  xmt_problem_fn on_message;
  void *user;
  xsltStylesheetPtr style, rows, problems; /* NULL: the findings */
  xmlDocPtr source;                        /* what the stylesheet is run over */
  size_t chunk_problems;
};

/* A chunk's findings through style (or as they are), its rows (or
 * problems) spliced in. */
static xmt_status splice_chunk(struct stream_run *run, struct splice *sp,
                               xsltStylesheetPtr style, xmlDocPtr chunk,
                               size_t file, size_t before) {
  char num[32];
  snprintf(num, sizeof num, "%zu", before);
  xmlChar *bytes;
  int len;
  xmt_status st =
      xmt_report_result(run->f, style, run->source, chunk, run->options, num,
                        run->on_message, run->user, &bytes, &len);
  size_t rows_len = 0;
  const char *rows = st == XMT_OK
                         ? cut_rows(sp->p, (const char *)bytes,
                                    len > 0 ? (size_t)len : 0, &rows_len)
                         : NULL;
  if (st == XMT_OK && splice_rows(sp, file, rows, rows_len) != 0)
    st = splice_failed(run->f, sp);
  xmlFree(bytes);
  return st;
}

static xmt_status write_chunks(struct stream_run *run, xmt_findings_stream *s,
                               struct splice *sp) {
  xmt_status st = XMT_OK;
  size_t nproblems = xmt_findings_stream_nproblems(s);
  if (sp->r->problems.open != NULL && close_group(sp, &sp->r->problems) == 0)
    for (size_t i = 1; st == XMT_OK && i < nproblems;
         i += run->chunk_problems) {
      xmlDocPtr chunk = xmt_findings_stream_problems(s, i, run->chunk_problems);
      st = chunk == NULL ? run->f->err.pub.status
                         : splice_chunk(run, sp, run->problems, chunk, 1, 0);
    }
  if (st == XMT_OK && close_group(sp, &sp->r->rows) != 0)
    st = splice_failed(run->f, sp);
  while (st == XMT_OK) {
    xmlDocPtr chunk;
    size_t file = 0, before = 0;
    if ((st = xmt_findings_stream_next(s, &chunk, &file, &before)) != XMT_OK ||
        chunk == NULL)
      break;
    st = splice_chunk(run, sp, run->rows, chunk, file, before);
  }
  return st;
}

/* The stylesheets of a shipped recipe, and the document they are run
 * over: they read the findings only. */
static xmt_status compile_all(struct stream_run *run,
                              const struct xmt_report_recipe *r) {
  xmt_filter *f = run->f;
  if (r->name == NULL)
    return XMT_OK;
  if ((run->style = xmt_report_compile(f, r->name, run->on_message,
                                       run->user)) == NULL ||
      (run->rows = compile_chunks(f, r->name, r->rows.template)) == NULL ||
      (r->problems.template != NULL &&
       (run->problems = compile_chunks(f, r->name, r->problems.template)) ==
           NULL))
    return f->err.pub.status;
  xmlNodePtr root = NULL;
  if ((run->source = xmlNewDoc(BAD_CAST "1.0")) == NULL ||
      (root = xmlNewDocNode(run->source, NULL, BAD_CAST "xliff", NULL)) == NULL)
    return xmt_error_nomem(&f->err);
  xmlDocSetRootElement(run->source, root);
  return XMT_OK;
}

xmt_status xmt_report_stream(xmt_filter *f, const char *in_path,
                             const struct xmt_units_text *units,
                             const char *out_path,
                             const struct xmt_report_recipe *r,
                             const struct xmt_report_options *options,
                             xmt_problem_fn on_message, void *user,
                             size_t chunk_units) {
  struct stream_run run = {f,    options, on_message,
                           user, NULL,    NULL,
                           NULL, NULL,    chunk_units * PROBLEMS_A_UNIT};
  xmt_findings_stream *s = NULL;
  xmlChar *head = NULL;
  int head_len = 0;
  xmt_status st = xmt_findings_stream_open(f, in_path, units, chunk_units, &s);
  if (st == XMT_OK)
    st = compile_all(&run, r);
  xmlDocPtr findings = st == XMT_OK ? xmt_findings_stream_head(s) : NULL;
  if (st == XMT_OK && findings == NULL)
    st = f->err.pub.status;
  if (st == XMT_OK)
    st = xmt_report_result(f, run.style, run.source, findings, options, NULL,
                           on_message, user, &head, &head_len);
  struct splice sp;
  memset(&sp, 0, sizeof sp);
  sp.r = r, sp.p = &r->rows, sp.path = out_path, sp.head = (const char *)head;
  sp.head_len = head_len > 0 ? (size_t)head_len : 0;
  if (st == XMT_OK)
    st = xmt_output_open(&sp.out, out_path, &f->err);
  if (st == XMT_OK) {
    st = write_chunks(&run, s, &sp);
    if (st == XMT_OK &&
        (close_group(&sp, sp.p) != 0 ||
         write_out(&sp, sp.head + sp.written, sp.head_len - sp.written) != 0))
      st = splice_failed(f, &sp);
    if (st == XMT_OK)
      st = xmt_output_commit(&sp.out, &f->err);
    if (st != XMT_OK)
      xmt_output_abort(&sp.out);
  }
  xmlFree(head);
  xmlFreeDoc(run.source);
  xsltFreeStylesheet(run.style);
  xsltFreeStylesheet(run.rows);
  xsltFreeStylesheet(run.problems);
  xmt_findings_stream_free(s);
  return st;
}
