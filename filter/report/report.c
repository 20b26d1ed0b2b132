/* report.c -- xmt_filter_report_file: a document and its findings through
 * an XSLT 1.0 stylesheet (libxslt). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxslt/documents.h>
#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "report_private.h"
#include "xml_read_private.h"

/* report.am sets it; the default serves tools that compile this file
 * alone (make lint). */
#ifndef XMT_PKGDATADIR
#define XMT_PKGDATADIR "/usr/local/share/xliffmt"
#endif

const char *xmt_report_stylesheet(const char *name, size_t *len) {
  const unsigned char *text = NULL;
  size_t n = 0;
  if (name != NULL && strcmp(name, "report") == 0)
    text = xmt_xsl_report, n = xmt_xsl_report_len;
  else if (name != NULL && strcmp(name, "tmx") == 0)
    text = xmt_xsl_tmx, n = xmt_xsl_tmx_len;
  if (len != NULL)
    *len = n;
  return (const char *)text;
}

/* --- Messages ---------------------------------------------------------------
 * libxslt prints a context line ("compilation error: file F line N element
 * E", or "runtime error: ...") and then the message through an error
 * function; libxml2's XPath errors come through its own. Both are caught
 * in a buffer and told apart afterwards. */

struct messages {
  struct xmt_buf text;
  int nomem;
};

static void catch_message(void *user, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void catch_message(void *user, const char *fmt, ...) {
  struct messages *m = user;
  char piece[1024];
  va_list ap;
  va_start(ap, fmt);
  /* clang-tidy 14 misreads va_start in a function with a format attribute */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  int n = vsnprintf(piece, sizeof piece, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = (size_t)n < sizeof piece ? (size_t)n : sizeof piece - 1;
  if (xmt_buf_append(&m->text, piece, len) != XMT_OK)
    m->nomem = 1;
}

/* One diagnostic: file and line from the context line, or none. */
struct diagnostic {
  char file[1024];
  unsigned long line;
  char message[1024];
  char detail[256]; /* libxml2's XPath error */
};

static void append(char *dst, size_t cap, const char *line, size_t len) {
  size_t have = strlen(dst);
  if (have > 0 && have + 1 < cap)
    dst[have++] = ' ', dst[have] = '\0';
  if (have + 1 < cap)
    snprintf(dst + have, cap - have, "%.*s", (int)len, line);
}

/* Parses "compilation error: file F line N element E" into d; returns 1
 * for compilation, 2 for run time, 0 for another line. */
static int context_line(const char *s, size_t len, struct diagnostic *d) {
  static const char *const kinds[] = {"compilation error: file ",
                                      "runtime error: file ",
                                      "compilation warning: file "};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    size_t klen = strlen(kinds[k]);
    if (len <= klen || strncmp(s, kinds[k], klen) != 0)
      continue;
    const char *end = s + len, *f = s + klen, *l = NULL;
    for (const char *p = end - 6; p >= f; p--)
      if (strncmp(p, " line ", 6) == 0) {
        l = p;
        break;
      }
    int kind = k == 1 ? 2 : 1;
    memset(d, 0, sizeof *d);
    if (l == NULL) {
      snprintf(d->file, sizeof d->file, "%.*s", (int)(end - f), f);
      return kind;
    }
    snprintf(d->file, sizeof d->file, "%.*s", (int)(l - f), f);
    d->line = strtoul(l + 6, NULL, 10);
    return kind;
  }
  return 0;
}

/* Splits the caught text into diagnostics. A libxml2 XPath error line
 * comes before the context line of a compilation error, and after the
 * message of a run-time one. Returns how many (at most cap). */
static size_t diagnostics(const struct messages *m, const char *style_path,
                          struct diagnostic *out, size_t cap) {
  char xpath[256] = "", loose[1024] = "";
  struct diagnostic *cur = NULL;
  size_t n = 0;
  const char *s = m->text.data, *end = s + m->text.len;
  while (s != NULL && s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t len = (size_t)((nl != NULL ? nl : end) - s);
    struct diagnostic d;
    int kind = context_line(s, len, &d);
    if (kind != 0 && n < cap) {
      if (kind == 2 && cur != NULL && xpath[0] != '\0')
        snprintf(cur->detail, sizeof cur->detail, "%s", xpath), xpath[0] = 0;
      cur = &out[n++];
      *cur = d;
      if (xpath[0] != '\0')
        snprintf(cur->detail, sizeof cur->detail, "%s", xpath), xpath[0] = 0;
    } else if (kind == 0 && len > 0) {
      if (strncmp(s, "XPath error: ", 13) == 0)
        snprintf(xpath, sizeof xpath, "%.*s", (int)len, s);
      else if (cur != NULL)
        append(cur->message, sizeof cur->message, s, len);
      else
        append(loose, sizeof loose, s, len);
    }
    s = nl != NULL ? nl + 1 : end;
  }
  if (cur == NULL && (loose[0] != '\0' || xpath[0] != '\0') && cap > 0) {
    cur = &out[n++];
    memset(cur, 0, sizeof *cur);
    snprintf(cur->file, sizeof cur->file, "%s", style_path);
    snprintf(cur->message, sizeof cur->message, "%s", loose);
  }
  if (cur != NULL && xpath[0] != '\0' && cur->detail[0] == '\0')
    snprintf(cur->detail, sizeof cur->detail, "%s", xpath);
  for (size_t i = 0; i < n; i++) {
    if (out[i].message[0] == '\0')
      snprintf(out[i].message, sizeof out[i].message, "%s",
               out[i].detail[0] != '\0' ? out[i].detail
                                        : "the stylesheet failed");
    else if (out[i].detail[0] != '\0') {
      size_t have = strlen(out[i].message);
      snprintf(out[i].message + have, sizeof out[i].message - have, " (%s)",
               out[i].detail);
    }
  }
  return n;
}

/* The first diagnostic becomes the filter's error; the others go to
 * on_message, except those on the same line, which only follow from it. */
static xmt_status stylesheet_error(xmt_filter *f, const struct messages *m,
                                   const char *style_path,
                                   xmt_problem_fn on_message, void *user) {
  struct diagnostic d[16];
  size_t n = diagnostics(m, style_path, d, 16);
  for (size_t i = 1; i < n && on_message != NULL; i++) {
    if (d[i].line == d[0].line && strcmp(d[i].file, d[0].file) == 0)
      continue;
    struct xmt_problem p = {XMT_ERROR, d[i].file, d[i].line,
                            0,         NULL,      d[i].message};
    on_message(user, &p);
  }
  if (n == 0)
    return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(style_path),
                        "the stylesheet failed");
  return xmt_error_at(
      &f->err, XMT_ERR_FORMAT, XMT_AT_LINE(d[0].file, d[0].line), "%s",
      d[0].message[0] != '\0' ? d[0].message : "the stylesheet failed");
}

/* --- Parsing --------------------------------------------------------------
 */

xmlDocPtr xmt_report_read_xml(xmt_filter *f, const char *path, const char *text,
                              size_t len, const char *what) {
  return xmt_xml_read(&f->err, path, text, len, XML_PARSE_NOCDATA, what);
}

/* --- Stylesheets ------------------------------------------------------------
 */

/* libxslt reports compilation errors, and some run-time ones, through a
 * handler that is one for the process; calls that set it take turns.
 * libxml2's (XPath errors) is one per thread. */
static pthread_mutex_t catch_lock = PTHREAD_MUTEX_INITIALIZER;

struct catcher {
  xmlGenericErrorFunc xslt;
  xmlStructuredErrorFunc xml;
  void *xslt_ctx, *xml_ctx;
};

/* libxml2's errors, XPath ones marked to be told from libxslt's lines. */
static void catch_xml_error(void *user, xmlErrorPtr e) {
  struct messages *m = user;
  if (e == NULL || e->message == NULL)
    return;
  size_t len = strlen(e->message);
  while (len > 0 && e->message[len - 1] == '\n')
    len--;
  if (e->domain == XML_FROM_XPATH)
    catch_message(m, "XPath error: %.*s\n", (int)len, e->message);
  else
    catch_message(m, "%.*s\n", (int)len, e->message);
}

static void catch_begin(struct catcher *c, struct messages *m) {
  pthread_mutex_lock(&catch_lock);
  c->xslt = xsltGenericError, c->xslt_ctx = xsltGenericErrorContext;
  c->xml = xmlStructuredError, c->xml_ctx = xmlStructuredErrorContext;
  xsltSetGenericErrorFunc(m, catch_message);
  xmlSetStructuredErrorFunc(m, catch_xml_error);
}

static void catch_end(const struct catcher *c) {
  xsltSetGenericErrorFunc(c->xslt_ctx, c->xslt);
  xmlSetStructuredErrorFunc(c->xml_ctx, c->xml);
  pthread_mutex_unlock(&catch_lock);
}

xsltStylesheetPtr xmt_report_compile(xmt_filter *f, const char *name,
                                     xmt_problem_fn on_message, void *user) {
  const char *path = name != NULL ? name : "report";
  char builtin_path[4096];
  size_t len = 0;
  const char *text = NULL;
  if (access(path, F_OK) != 0) {
    text = xmt_report_stylesheet(path, &len);
    if (text == NULL) {
      xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path),
                   "cannot open the stylesheet: %s", strerror(ENOENT));
      return NULL;
    }
    snprintf(builtin_path, sizeof builtin_path, "%s/xliffmt-%s.xsl",
             XMT_PKGDATADIR, path);
    path = builtin_path;
  }
  xmlDocPtr doc = xmt_report_read_xml(f, path, text, len, "the stylesheet");
  if (doc == NULL)
    return NULL;
  struct messages m;
  memset(&m, 0, sizeof m);
  struct catcher c;
  catch_begin(&c, &m);
  xsltStylesheetPtr style = xsltParseStylesheetDoc(doc);
  catch_end(&c);
  if (style == NULL || style->errors > 0) {
    if (style != NULL)
      xsltFreeStylesheet(style); /* frees doc */
    else
      xmlFreeDoc(doc);
    stylesheet_error(f, &m, path, on_message, user);
    xmt_buf_free(&m.text);
    return NULL;
  }
  xmt_buf_free(&m.text);
  return style;
}

/* document() may read local files; nothing goes over the network, and
 * nothing is written, except the findings, which are in memory. */
static int read_network(xsltSecurityPrefsPtr sec, xsltTransformContextPtr ctxt,
                        const char *value) {
  (void)sec, (void)ctxt;
  return value != NULL && strcmp(value, XMT_FINDINGS_URI) == 0;
}

/* "NAME=VALUE" options into libxslt's parameters (string values). */
static xmt_status add_params(xmt_filter *f, xsltTransformContextPtr ctxt,
                             const char *const *params) {
  for (const char *const *p = params; p != NULL && *p != NULL; p++) {
    const char *eq = strchr(*p, '=');
    if (eq == NULL || eq == *p)
      return xmt_error_set(&f->err, XMT_ERR_USAGE,
                           "parameter '%s' is not NAME=VALUE", *p);
    char *name = xmt_strndup(*p, (size_t)(eq - *p));
    if (name == NULL)
      return xmt_error_nomem(&f->err);
    int reserved = strcmp(name, "findings") == 0;
    int rc = reserved
                 ? 0
                 : xsltQuoteOneUserParam(ctxt, BAD_CAST name, BAD_CAST(eq + 1));
    free(name);
    if (reserved)
      return xmt_error_set(&f->err, XMT_ERR_USAGE,
                           "the parameter 'findings' is xliffmt's own");
    if (rc != 0)
      return XMT_ERR_FORMAT; /* libxslt said why; the caller reports it */
  }
  return XMT_OK;
}

static xmt_status save(xmt_filter *f, const char *out_path, const char *bytes,
                       size_t len) {
  struct xmt_output out;
  memset(&out, 0, sizeof out);
  xmt_status st = xmt_output_open(&out, out_path, &f->err);
  if (st != XMT_OK)
    return st;
  if (len > 0 && fwrite(bytes, 1, len, out.fp) != len) {
    xmt_output_abort(&out);
    return xmt_error_at(&f->err, XMT_ERR_WRITE, XMT_IN(out_path),
                        "cannot write: %s", strerror(errno));
  }
  st = xmt_output_commit(&out, &f->err);
  if (st != XMT_OK)
    xmt_output_abort(&out);
  return st;
}

/* Runs style over doc with the findings (its from here), and with the
 * rows before a chunk's in xmt-before when before is not NULL; the
 * result's bytes into *bytes. */
static xmt_status transform(xmt_filter *f, xsltStylesheetPtr style,
                            xmlDocPtr doc, xmlDocPtr findings,
                            const struct xmt_report_options *options,
                            const char *before, xmt_problem_fn on_message,
                            void *user, xmlChar **bytes, int *len) {
  struct messages m;
  memset(&m, 0, sizeof m);
  xsltTransformContextPtr ctxt = xsltNewTransformContext(style, doc);
  xsltSecurityPrefsPtr sec = xsltNewSecurityPrefs();
  xmt_status st = XMT_OK;
  if (ctxt == NULL || sec == NULL || findings == NULL) {
    xmlFreeDoc(findings);
    st = xmt_error_nomem(&f->err);
    goto done;
  }
  xsltSetTransformErrorFunc(ctxt, &m, catch_message);
  xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_FILE, xsltSecurityForbid);
  xsltSetSecurityPrefs(sec, XSLT_SECPREF_CREATE_DIRECTORY, xsltSecurityForbid);
  xsltSetSecurityPrefs(sec, XSLT_SECPREF_WRITE_NETWORK, xsltSecurityForbid);
  xsltSetSecurityPrefs(sec, XSLT_SECPREF_READ_NETWORK, read_network);
  xsltSetCtxtSecurityPrefs(sec, ctxt);
  /* document('urn:xliffmt:findings') finds it among the context's
   * documents, which own it from here. */
  findings->URL = xmlStrdup(BAD_CAST XMT_FINDINGS_URI);
  xmlXPathOrderDocElems(findings);
  if (findings->URL == NULL || xsltNewDocument(ctxt, findings) == NULL) {
    xmlFreeDoc(findings);
    st = xmt_error_nomem(&f->err);
    goto done;
  }
  st = add_params(f, ctxt, options != NULL ? options->params : NULL);
  if (st == XMT_OK && before != NULL &&
      xsltQuoteOneUserParam(ctxt, BAD_CAST "xmt-before", BAD_CAST before) != 0)
    st = XMT_ERR_FORMAT;
  if (st == XMT_ERR_FORMAT) {
    st = stylesheet_error(f, &m, (const char *)style->doc->URL, on_message,
                          user);
    goto done;
  }
  if (st != XMT_OK)
    goto done;
  static const char *const params[] = {
      "findings", "document('" XMT_FINDINGS_URI "')", NULL};
  struct catcher c;
  catch_begin(&c, &m);
  xmlDocPtr result = xsltApplyStylesheetUser(style, doc, (const char **)params,
                                             NULL, NULL, ctxt);
  catch_end(&c);
  if (result == NULL || ctxt->state == XSLT_STATE_ERROR ||
      ctxt->state == XSLT_STATE_STOPPED) {
    xmlFreeDoc(result);
    st = stylesheet_error(f, &m, (const char *)style->doc->URL, on_message,
                          user);
    goto done;
  }
  /* What is left are xsl:message lines. */
  if (on_message != NULL && m.text.len > 0) {
    const char *s = m.text.data, *end = s + m.text.len;
    while (s < end) {
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      size_t n = (size_t)((nl != NULL ? nl : end) - s);
      char *line = xmt_strndup(s, n);
      if (line != NULL && n > 0) {
        struct xmt_problem p = {
            XMT_WARNING, (const char *)style->doc->URL, 0, 0, NULL, line};
        on_message(user, &p);
      }
      free(line);
      s = nl != NULL ? nl + 1 : end;
    }
  }
  if (xsltSaveResultToString(bytes, len, result, style) != 0)
    st = xmt_error_nomem(&f->err);
  xmlFreeDoc(result);
done:
  if (st == XMT_OK && m.nomem)
    st = xmt_error_nomem(&f->err);
  xsltFreeTransformContext(ctxt);
  xsltFreeSecurityPrefs(sec);
  xmt_buf_free(&m.text);
  return st;
}

/* The bytes of a findings document, or of style's result over it (the
 * findings then freed with the transformation). */
xmt_status xmt_report_result(xmt_filter *f, xsltStylesheetPtr style,
                             xmlDocPtr source, xmlDocPtr findings,
                             const struct xmt_report_options *options,
                             const char *before, xmt_problem_fn on_message,
                             void *user, xmlChar **bytes, int *len) {
  *bytes = NULL, *len = 0;
  if (style != NULL)
    return transform(f, style, source, findings, options, before, on_message,
                     user, bytes, len);
  xmlDocDumpFormatMemoryEnc(findings, bytes, len, "UTF-8", 0);
  xmlFreeDoc(findings);
  return *bytes == NULL ? xmt_error_nomem(&f->err) : XMT_OK;
}

/* --- The report -------------------------------------------------------------
 */

/* A stylesheet of the user's reads the document and its findings whole,
 * in trees some fifty times the document's size. */
static xmt_status whole_too_big(xmt_filter *f, const char *in_path,
                                const struct xmt_buf *units,
                                const struct xmt_report_options *options) {
  size_t limit = options != NULL && options->max_whole > 0
                     ? options->max_whole
                     : XMT_REPORT_MAX_WHOLE;
  struct stat sb;
  size_t size = units != NULL             ? units->len
                : stat(in_path, &sb) == 0 ? (size_t)sb.st_size
                                          : 0;
  if (size <= limit)
    return XMT_OK;
  return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(in_path),
                      "the document is %zu bytes, over the %zu a stylesheet "
                      "of your own reads whole; --max-whole-size raises the "
                      "limit (the shipped stylesheets stream, with none)",
                      size, limit);
}

static xmt_status report_whole(xmt_filter *f, const char *in_path,
                               const struct xmt_buf *units,
                               const struct xmt_doc_facts *facts,
                               const char *out_path,
                               const struct xmt_report_options *options,
                               xmt_problem_fn on_message, void *user) {
  xmlDocPtr doc = NULL, findings = NULL;
  xsltStylesheetPtr style = NULL;
  xmt_status st = whole_too_big(f, in_path, units, options);
  if (st == XMT_OK &&
      (findings = xmt_findings_build(f, in_path, units, facts, &doc)) == NULL)
    st = f->err.pub.status;
  if (st == XMT_OK && !options->findings_only &&
      (style = xmt_report_compile(f, options->stylesheet, on_message, user)) ==
          NULL)
    st = f->err.pub.status;
  if (st == XMT_OK) {
    xmlChar *bytes = NULL;
    int len = 0;
    st = xmt_report_result(f, style, doc, findings, options, NULL, on_message,
                           user, &bytes, &len);
    findings = NULL; /* the transformation's now */
    if (st == XMT_OK)
      st = save(f, out_path, bytes != NULL ? (const char *)bytes : "",
                len > 0 ? (size_t)len : 0);
    xmlFree(bytes);
  }
  xsltFreeStylesheet(style);
  xmlFreeDoc(findings);
  xmlFreeDoc(doc);
  return st;
}

/* The shipped stylesheets a chunk at a time; a document of another format
 * (an XLIFF 2 document, a page) is read as a stream into the XLIFF text
 * of its units, in a temporary file that the findings read again: the
 * document is never held whole. */
static xmt_status report_streamed(xmt_filter *f, const char *in_path,
                                  const struct xmt_format *format,
                                  const char *out_path,
                                  const struct xmt_report_recipe *r,
                                  const struct xmt_report_options *options,
                                  xmt_problem_fn on_message, void *user,
                                  size_t chunk_units) {
  if (format->read == NULL) /* XLIFF 1.2: read as it is */
    return xmt_report_stream(f, in_path, NULL, out_path, r, options, on_message,
                             user, chunk_units);
  struct xmt_doc_facts facts;
  struct xmt_units_text units = {NULL, 0, tmpfile(), &facts};
  if (units.fp == NULL)
    return xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(in_path),
                        "cannot make a temporary file for its units: %s",
                        strerror(errno));
  xmt_status st = xmt_format_units_file(f, in_path, units.fp, &facts);
  if (st == XMT_OK)
    st = xmt_report_stream(f, in_path, &units, out_path, r, options, on_message,
                           user, chunk_units);
  fclose(units.fp);
  return st;
}

xmt_status xmt_report_file_chunked(xmt_filter *f, const char *in_path,
                                   const char *out_path,
                                   const struct xmt_report_options *options,
                                   xmt_problem_fn on_message, void *user,
                                   size_t chunk_units) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (in_path == NULL || strcmp(in_path, "-") == 0)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "the report reads its input twice: give a file, "
                         "not standard input");
  /* An HTML page is reported as the XLIFF document extract writes of it. */
  const struct xmt_format *format = NULL;
  struct xmt_buf units = {0};
  struct xmt_doc_facts facts = {0};
  xmt_status st = xmt_format_of(f, in_path, &format);
  struct xmt_report_options none;
  memset(&none, 0, sizeof none);
  if (options == NULL)
    options = &none;
  const char *name =
      options->stylesheet != NULL ? options->stylesheet : "report";
  /* A file of that name is the user's, as xmt_report_compile takes it. */
  const struct xmt_report_recipe *r =
      options->findings_only || access(name, F_OK) != 0
          ? xmt_report_recipe(name, options->findings_only)
          : NULL;
  const struct xmt_buf *u = format->read != NULL ? &units : NULL;
  if (st == XMT_OK && r != NULL && chunk_units > 0) {
    st = report_streamed(f, in_path, format, out_path, r, options, on_message,
                         user, chunk_units);
  } else if (st == XMT_OK) {
    if (format->read != NULL)
      st = xmt_format_units_xliff(f, in_path, &units, &facts);
    if (st == XMT_OK)
      st = report_whole(f, in_path, u, u != NULL ? &facts : NULL, out_path,
                        options, on_message, user);
  }
  if (st != XMT_OK)
    xmt_format_blame(f, format, in_path);
  xmt_buf_free(&units);
  return st;
}

/* How many units a chunk has: a few hundred keep its trees small. */
#define CHUNK_UNITS 256

xmt_status xmt_filter_report_file(xmt_filter *f, const char *in_path,
                                  const char *out_path,
                                  const struct xmt_report_options *options,
                                  xmt_problem_fn on_message, void *user) {
  return xmt_report_file_chunked(f, in_path, out_path, options, on_message,
                                 user, CHUNK_UNITS);
}
