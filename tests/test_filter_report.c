/* test_filter_report.c -- review reports: the findings of each segment, the
 * rows of the review page, escaping, stylesheet errors, TMX. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "report_private.h"
#include "xmt_filter.h"

/* Runs a report of fixture into the scratch file out. */
static xmt_status run(const char *fixture, const char *out,
                      const struct xmt_report_options *o, xmt_filter **keep) {
  xmt_filter *f = xmt_filter_new();
  xmt_status st = xmt_filter_report_file(f, xmt_test_fixture_path(fixture),
                                         xmt_test_tmp_path(out), o, NULL, NULL);
  if (keep != NULL)
    *keep = f;
  else
    xmt_filter_free(f);
  return st;
}

static xmlDocPtr read_out(const char *out, int html) {
  const char *path = xmt_test_tmp_path(out);
  return html ? htmlReadFile(path, "UTF-8",
                             HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                 HTML_PARSE_NONET)
              : xmlReadFile(path, NULL, XML_PARSE_NONET);
}

/* The string value of an XPath expression over doc. */
static char *xpath(xmlDocPtr doc, const char *expr) {
  static char value[1024];
  xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
  xmlXPathRegisterNs(ctx, BAD_CAST "f", BAD_CAST XMT_FINDINGS_NS);
  xmlXPathRegisterNs(ctx, BAD_CAST "x",
                     BAD_CAST "urn:oasis:names:tc:xliff:document:1.2");
  char full[512];
  snprintf(full, sizeof full, "string(%s)", expr);
  xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST full, ctx);
  snprintf(value, sizeof value, "%s",
           r != NULL && r->stringval != NULL ? (const char *)r->stringval
                                             : "(error)");
  xmlXPathFreeObject(r);
  xmlXPathFreeContext(ctx);
  return value;
}

static void test_findings_flags(void) {
  struct xmt_report_options o = {NULL, NULL, 1, 0};
  CU_ASSERT_EQUAL_FATAL(run("report-flags.xlf", "flags.xml", &o, NULL), XMT_OK);
  xmlDocPtr doc = read_out("flags.xml", 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  static const char *const want[][3] = {{"ok", "", ""},
                                        {"untranslated", "", "untranslated"},
                                        {"missing", "", "tag-missing problem"},
                                        {"added", "", "tag-added problem"},
                                        {"order", "", "tag-order"},
                                        {"review", "", "needs-review mt"},
                                        {"long", "", "length"},
                                        {"identical", "", "identical"},
                                        {"locked", "", "locked"},
                                        {"seg", "1", ""},
                                        {"seg", "2", "untranslated"},
                                        {"failed", "", "untranslated"},
                                        {"codes", "", ""}};
  char expr[256];
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    snprintf(expr, sizeof expr,
             "count(//f:segment[@unit='%s'][string(@mid)='%s'])", want[i][0],
             want[i][1]);
    CU_ASSERT_STRING_EQUAL(xpath(doc, expr), "1");
    snprintf(expr, sizeof expr,
             "//f:segment[@unit='%s'][string(@mid)='%s']/@flags", want[i][0],
             want[i][1]);
    if (strcmp(xpath(doc, expr), want[i][2]) != 0)
      fprintf(stderr, "\n%s#%s: flags '%s', want '%s'\n", want[i][0],
              want[i][1], xpath(doc, expr), want[i][2]);
    CU_ASSERT_STRING_EQUAL(xpath(doc, expr), want[i][2]);
  }
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//f:segment)"), "13");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/f:findings/f:summary/@units"), "12");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/f:findings/f:summary/@rows"), "13");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/f:findings/f:summary/@warnings"), "2");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc,
            "/f:findings/f:summary/f:flag[@name='untranslated']/@segments"),
      "3");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "/f:findings/f:summary/f:state[@name='translated']/@units"),
      "8");
  /* The check's problem sits in its unit and in the list. */
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//f:unit[@id='missing']/f:problem"),
      "<target> lacks the inline code <x id=\"1\"> of <source>");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "/f:findings/f:problems/f:problem[1]/@line"), "13");
  /* Codes are copied as XLIFF 1.2 elements; a segment's mrk is not. */
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//f:segment[@unit='order']/f:target/x:g[@id='1']"),
      "negrita");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//f:segment[@unit='seg'][@mid='1']/f:target"),
      "Primera frase aquí.");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "count(//f:segment[@unit='seg'][@mid='2']/f:target)"), "0");
  xmlFreeDoc(doc);
}

static void test_page_rows(void) {
  CU_ASSERT_EQUAL_FATAL(run("report-flags.xlf", "flags.html", NULL, NULL),
                        XMT_OK);
  xmlDocPtr doc = read_out("flags.html", 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//tr[@data-unit])"), "13");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tr[@data-unit='order']/@data-flags"),
                         "tag-order");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='review']/td[@class='flags']"),
      "needs-reviewmt");
  /* Source and target side by side, codes as chips in their order. */
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='order']/td[@class='src']"),
      "1Bold1 text and a picture2 here.");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='order']/td[@class='tgt']"),
      "Una imagen2 y texto en 1negrita1 aquí.");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='order']/td[@class='tgt']/span[1]/@class"),
      "chip single k2");
  /* A pair's chips share their key; a lost or extra code is marked. */
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "count(//tr[@data-unit='order']//span[@data-pair='p1'])"),
      "4");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='missing']/td[@class='src']/span/@class"),
      "chip single k1 lost");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='added']/td[@class='tgt']/span/@class"),
      "chip single k1 extra");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='codes']/td[@class='src']/span[1]/@title"),
      "<bpt id=\"1\"><a href=\"#x\">");
  /* A filter for each flag present, none for the others. */
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//input[@name='show'])"), "11");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//input[@id='show-tag-order'])"),
                         "1");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//label[@for='show-untranslated']/b"),
                         "3");
  xmlFreeDoc(doc);
}

static void test_hostile_text(void) {
  CU_ASSERT_EQUAL_FATAL(run("report-hostile.xlf", "hostile.html", NULL, NULL),
                        XMT_OK);
  size_t len;
  char *bytes = xmt_test_read_file(xmt_test_tmp_path("hostile.html"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  /* The page's own script is the only one. */
  size_t scripts = 0;
  for (const char *p = bytes; (p = strstr(p, "<script")) != NULL; p++)
    scripts++;
  CU_ASSERT_EQUAL(scripts, 1);
  CU_ASSERT_PTR_NULL(strstr(bytes, "<img"));
  CU_ASSERT_PTR_NULL(strstr(bytes, "</style><script"));
  free(bytes);
  xmlDocPtr doc = read_out("hostile.html", 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//script)"), "1");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//img)"), "0");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tr[@data-unit][1]/@data-unit"),
                         "u\"><script>alert(1)</script>");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tr[@data-unit][1]/td[@class='src']"),
                         "Say <script>alert(2)</script> & </td></tr> loudly.");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tr[@data-unit][1]//div[@class='note']"),
                         "</style><script>alert(4)</script>");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "//tr[@data-unit='code']/td[@class='src']/span[1]/@title"),
      "<ph id=\"1\"><img src=x onerror=\"alert(5)\">");
  /* Foreign markup is shown as a chip and its text, never as markup. */
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tr[@data-unit='code']/td[@class='src']"),
                         "A 1 picture and scriptalert(6) markup.");
  xmlFreeDoc(doc);
}

struct messages {
  char log[1024];
};

static int collect(void *user, const struct xmt_problem *p) {
  struct messages *m = user;
  size_t n = strlen(m->log);
  snprintf(m->log + n, sizeof m->log - n, "%s:%lu:%s\n",
           p->severity == XMT_ERROR ? "E" : "W", p->line, p->message);
  return 0;
}

/* Runs fixture through a stylesheet expected to fail. */
static void failing(const char *stylesheet, xmt_status want, unsigned long line,
                    const char *message_part) {
  char style[4096];
  snprintf(style, sizeof style, "%s", xmt_test_fixture_path(stylesheet));
  struct xmt_report_options o = {style, NULL, 0, 0};
  xmt_filter *f = xmt_filter_new();
  struct messages m = {""};
  const char *out = xmt_test_tmp_path("failed.html");
  CU_ASSERT_EQUAL(
      xmt_filter_report_file(f, xmt_test_fixture_path("report-flags.xlf"), out,
                             &o, collect, &m),
      want);
  const struct xmt_error *e = xmt_filter_error(f);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e->file);
  CU_ASSERT_STRING_EQUAL(e->file, style);
  CU_ASSERT_EQUAL(e->line, line);
  CU_ASSERT_PTR_NOT_NULL(strstr(e->message, message_part));
  CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
  xmt_filter_free(f);
}

static void test_stylesheet_errors(void) {
  failing("report-bad.xsl", XMT_ERR_FORMAT, 5,
          "could not compile select expression 'count(('");
  failing("report-runtime.xsl", XMT_ERR_FORMAT, 6,
          "Variable 'nowhere' has not been declared.");
  failing("bad-malformed.xlf", XMT_ERR_XML, 9,
          "the stylesheet is not well-formed XML");
  failing("report-flags.xlf", XMT_ERR_FORMAT, 3, "not a stylesheet");
  /* A name that is neither a file nor a shipped stylesheet. */
  struct xmt_report_options o = {"no-such.xsl", NULL, 0, 0};
  xmt_filter *f = NULL;
  CU_ASSERT_EQUAL(run("report-flags.xlf", "none.html", &o, &f), XMT_ERR_IO);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->file, "no-such.xsl");
  xmt_filter_free(f);
}

static void test_user_stylesheet(void) {
  char style[4096];
  snprintf(style, sizeof style, "%s",
           xmt_test_fixture_path("report-params.xsl"));
  const char *params[] = {"who=ana", NULL};
  struct xmt_report_options o = {style, params, 0, 0};
  xmt_filter *f = xmt_filter_new();
  struct messages m = {""};
  CU_ASSERT_EQUAL(
      xmt_filter_report_file(f, xmt_test_fixture_path("report-flags.xlf"),
                             xmt_test_tmp_path("mine.txt"), &o, collect, &m),
      XMT_OK);
  CU_ASSERT_STRING_EQUAL(m.log, "W:0:reviewer: ana\n");
  size_t len;
  char *text = xmt_test_read_file(xmt_test_tmp_path("mine.txt"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "units in the input: 12\n"
                                      "same findings: true\n"
                                      "ana untranslated#: untranslated\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "ana seg#2: untranslated\n"));
  free(text);
  /* findings is the report's own parameter. */
  const char *taken[] = {"findings=1", NULL};
  o.params = taken;
  CU_ASSERT_EQUAL(
      xmt_filter_report_file(f, xmt_test_fixture_path("report-flags.xlf"),
                             xmt_test_tmp_path("mine2.txt"), &o, NULL, NULL),
      XMT_ERR_USAGE);
  CU_ASSERT_NOT_EQUAL(access(xmt_test_tmp_path("mine2.txt"), F_OK), 0);
  xmt_filter_free(f);
}

static void test_shipped_stylesheets(void) {
  size_t len = 0;
  const char *text = xmt_report_stylesheet("report", &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_TRUE(len > 1000 && strlen(text) == len);
  CU_ASSERT_PTR_NOT_NULL(xmt_report_stylesheet("tmx", NULL));
  CU_ASSERT_PTR_NULL(xmt_report_stylesheet("csv", &len));
  CU_ASSERT_EQUAL(len, 0);
  struct xmt_report_options o = {"tmx", NULL, 0, 0};
  CU_ASSERT_EQUAL_FATAL(run("report-flags.xlf", "flags.tmx", &o, NULL), XMT_OK);
  xmlDocPtr doc = read_out("flags.tmx", 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/tmx/@version"), "1.4");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/tmx/header/@srclang"), "en");
  /* Translated segments only: not untranslated, failed, locked or seg#2. */
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(/tmx/body/tu)"), "9");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//tu[@tuid='seg#1'])"), "1");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tu[@tuid='order']/tuv[2]/seg"),
                         "Una imagen y texto en negrita aquí.");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "count(//tu[@tuid='order']/tuv[2]/seg/bpt[@i=../ept/@i])"),
      "1");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tu[@tuid='codes']/tuv[1]/seg/bpt[1]"),
                         "<a href=\"#x\">");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "//tu[@tuid='codes']/tuv[1]/seg/it/@pos"),
                         "begin");
  xmlFreeDoc(doc);
}

static void test_html_page(void) {
  const char *page = xmt_test_tmp_path("page.html");
  FILE *fp = fopen(page, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><title>Hi</title></head>"
        "<body><p>Hello <b>bold</b> world.</p></body></html>\n",
        fp);
  fclose(fp);
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, NULL, "es"), XMT_OK);
  struct xmt_report_options o = {NULL, NULL, 1, 0};
  CU_ASSERT_EQUAL_FATAL(xmt_filter_report_file(f, page,
                                               xmt_test_tmp_path("page.xml"),
                                               &o, NULL, NULL),
                        XMT_OK);
  xmt_filter_free(f);
  xmlDocPtr doc = read_out("page.xml", 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  CU_ASSERT_STRING_EQUAL(xpath(doc, "/f:findings/@file"), page);
  CU_ASSERT_STRING_EQUAL(xpath(doc, "count(//f:segment)"), "2");
  CU_ASSERT_STRING_EQUAL(
      xpath(doc, "count(//f:segment[@flags='untranslated'])"), "2");
  CU_ASSERT_STRING_EQUAL(xpath(doc, "(//f:segment)[2]/f:source/x:g"), "bold");
  xmlFreeDoc(doc);
}

static void test_bad_document(void) {
  xmt_filter *f = NULL;
  CU_ASSERT_EQUAL(run("bad-malformed.xlf", "bad.html", NULL, &f), XMT_ERR_XML);
  const struct xmt_error *e = xmt_filter_error(f);
  CU_ASSERT_STRING_EQUAL(e->file, xmt_test_fixture_path("bad-malformed.xlf"));
  CU_ASSERT_EQUAL(e->line, 9);
  CU_ASSERT_NOT_EQUAL(access(xmt_test_tmp_path("bad.html"), F_OK), 0);
  xmt_filter_free(f);
}

/* A document of the shapes the walk of a streamed report must take as
 * xmt_findings_build does: files empty, without a body, with two; groups
 * with translate="no" nested; a trans-unit outside any body (its line
 * still a unit's); ids used twice (the problem on the second's line);
 * units without source; notes, states, seg-source, codes; problems
 * enough for several chunks of them. */
static const char shapes[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    "<file original=\"a &lt;/tbody&gt; /&gt;\" source-language=\"en\" "
    "target-language=\"de\" datatype=\"html\"><header><trans-unit "
    "id=\"h\"><source>In the header.</source></trans-unit></header>\n"
    "<body>\n"
    "<trans-unit id=\"1\"><source>One <g id=\"1\">two</g> three.</source>"
    "<target state=\"translated\">Eins <g id=\"1\">zwei</g> drei.</target>"
    "<note>a note &lt;/tbody&gt;</note></trans-unit>\n"
    "<group translate=\"no\"><group><trans-unit id=\"2\"><source>Locked "
    "&lt;body/&gt; text.</source><target>Gesperrt.</target></trans-unit>"
    "</group></group>\n"
    "<trans-unit id=\"1\"><source>Again <x id=\"1\"/> here.</source>"
    "<target state=\"needs-review-translation\">Wieder hier, viel viel viel "
    "viel viel viel viel viel viel viel viel viel viel viel viel viel "
    "langer.</target></trans-unit>\n"
    "<trans-unit id=\"nosource\"><target>x</target></trans-unit>\n"
    "<trans-unit id=\"3\"><source>A. B.</source><seg-source><mrk "
    "mtype=\"seg\" mid=\"0\">A.</mrk> <mrk mtype=\"seg\" mid=\"1\">B.</mrk>"
    "</seg-source><target><mrk mtype=\"seg\" mid=\"0\">A!</mrk> <mrk "
    "mtype=\"seg\" mid=\"1\">B!</mrk></target></trans-unit>\n"
    "</body><body><trans-unit id=\"second-body\"><source>Not read."
    "</source></trans-unit></body></file>\n"
    "<file original=\"empty\" source-language=\"en\" "
    "target-language=\"de\" datatype=\"plaintext\"/>\n"
    "<file original=\"nobody\" source-language=\"en\" "
    "target-language=\"de\" datatype=\"plaintext\"><header/></file>\n"
    "<file original=\"c\" source-language=\"en\" target-language=\"de\" "
    "datatype=\"plaintext\"><body>\n"
    "<trans-unit id=\"c1\"><source>Same words here.</source><target "
    "state=\"x-mine\">Same words here.</target></trans-unit>\n"
    "<trans-unit id=\"c2\"><source>Nothing yet.</source></trans-unit>\n"
    "<trans-unit id=\"p1\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"p2\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"p3\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"p4\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"p5\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"p6\"><source>Press <x id=\"1\"/> now.</source>"
    "<target>Pulse &lt;/ul&gt;.</target></trans-unit>\n"
    "<trans-unit id=\"c3\"><source>Tail <bx id=\"4\"/>end<ex id=\"4\"/>."
    "</source><target state=\"signed-off\">Ende <bx id=\"4\"/>x<ex "
    "id=\"4\"/>.</target></trans-unit>\n"
    "</body></file>\n"
    "<file original=\"d\" source-language=\"en\" target-language=\"de\" "
    "datatype=\"plaintext\"><body><trans-unit id=\"d1\" translate=\"no\">"
    "<source>Last.</source></trans-unit></body></file>\n"
    "</xliff>\n";

/* The report of path written whole and in chunks of 1, 2, 3 and 256
 * units: the same bytes, for the shipped stylesheets and the findings. */
static void same_in_chunks(const char *doc) {
  char path[4096], whole[4096], chunked[4096];
  snprintf(path, sizeof path, "%s", doc); /* the paths are static buffers */
  snprintf(whole, sizeof whole, "%s", xmt_test_tmp_path("whole.out"));
  snprintf(chunked, sizeof chunked, "%s", xmt_test_tmp_path("chunked.out"));
  static const size_t sizes[] = {1, 2, 3, 256};
  struct xmt_report_options o[3] = {
      {"report", NULL, 0, 0}, {"tmx", NULL, 0, 0}, {NULL, NULL, 1, 0}};
  for (size_t k = 0; k < 3; k++) {
    xmt_filter *f = xmt_filter_new();
    xmt_status st =
        xmt_report_file_chunked(f, path, whole, &o[k], NULL, NULL, 0);
    if (st != XMT_OK)
      fprintf(stderr, "\n%s: %s\n", path, xmt_filter_error(f)->message);
    CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
    size_t wlen, clen;
    char *want = xmt_test_read_file(whole, &wlen);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
      st = xmt_report_file_chunked(f, path, chunked, &o[k], NULL, NULL,
                                   sizes[i]);
      if (st != XMT_OK)
        fprintf(stderr, "\n%s: %s\n", path, xmt_filter_error(f)->message);
      CU_ASSERT_EQUAL(st, XMT_OK);
      char *got = xmt_test_read_file(chunked, &clen);
      CU_ASSERT_PTR_NOT_NULL_FATAL(got);
      if (clen != wlen || memcmp(got, want, wlen) != 0)
        fprintf(stderr, "\n%s, %s, chunks of %zu: not the bytes read whole\n",
                path, k == 2 ? "findings" : o[k].stylesheet, sizes[i]);
      CU_ASSERT_TRUE(clen == wlen && memcmp(got, want, wlen) == 0);
      free(got);
    }
    free(want);
    xmt_filter_free(f);
  }
}

static void test_chunks_same_bytes(void) {
  const char *doc = xmt_test_tmp_path("shapes.xlf");
  FILE *fp = fopen(doc, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(shapes, fp);
  fclose(fp);
  same_in_chunks(doc);
  static const char *const fixtures[] = {
      "report-flags.xlf",  "report-hostile.xlf",   "check-problems.xlf",
      "lone-codes.xlf",    "xliff10.xlf",          "typo3-prefixed.xlf",
      "enc-utf16le.xlf",   "sdl-library.sdlxliff", "mq-library.mqxliff",
      "xliff2/groups.xlf", "xliff2/inline.xlf"};
  for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
    same_in_chunks(xmt_test_fixture_path(fixtures[i]));
}

static int init(void) { return xmt_test_tmpdir_create("report"); }

static CU_TestInfo tests[] = {
    {"findings: one flag set per segment", test_findings_flags},
    {"page: rows, chips and filters", test_page_rows},
    {"page: hostile text stays text", test_hostile_text},
    {"stylesheet errors: file and line, no output", test_stylesheet_errors},
    {"a user's stylesheet with parameters and messages", test_user_stylesheet},
    {"shipped stylesheets: report and tmx", test_shipped_stylesheets},
    {"HTML pages are reported as their XLIFF", test_html_page},
    {"a bad document: file and line, no output", test_bad_document},
    {"shipped stylesheets in chunks: the bytes read whole",
     test_chunks_same_bytes},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"report", init, xmt_test_tmpdir_remove, NULL, NULL, tests},
    CU_SUITE_INFO_NULL};
