/* test_filter_format.c -- the format table: content decides over the
 * name, the name only when the content does not; extensions; names. */
#include "config.h"

#include <string.h>

#include "harness.h"
#include "xliffmt.h"

static void test_sniff(void) {
  static const struct {
    const char *bytes, *path;
    enum xmt_doc_format want;
  } cases[] = {
      {"<!DOCTYPE html><html>", "page.xlf", XMT_FORMAT_HTML},
      {"<?xml version=\"1.0\"?>\n<html xmlns=\"x\">", "a.xliff",
       XMT_FORMAT_HTML},
      {"<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">", "a.html",
       XMT_FORMAT_XLIFF},
      {"<!-- c --><!DOCTYPE xliff><x:xliff xmlns:x=\"u\">", "a.htm",
       XMT_FORMAT_XLIFF},
      {"\xEF\xBB\xBF<xliff>", "a.html", XMT_FORMAT_XLIFF},
      {"<p>Hi</p>", NULL, XMT_FORMAT_HTML},
      {"plain text", "page.HTM", XMT_FORMAT_HTML},
      {"plain text", "page.xlf", XMT_FORMAT_XLIFF},
      {"plain text", "page.txt", XMT_FORMAT_XLIFF},
      {"", "x.xhtml", XMT_FORMAT_HTML},
      {"<tmx version=\"1.4\">", "a.html", XMT_FORMAT_XLIFF},
      {"<!-- only a comment", "x.html", XMT_FORMAT_HTML},
      /* XLIFF 2: the version or the namespace of the root says it */
      {"<xliff version=\"2.0\" srcLang=\"en\">", "a.xlf", XMT_FORMAT_XLIFF2},
      {"<xliff srcLang='en' version='2.2'>", "a.html", XMT_FORMAT_XLIFF2},
      {"<?xml version=\"1.0\"?>\n<x:xliff "
       "xmlns:x=\"urn:oasis:names:tc:xliff:document:2.0\">",
       "a.xlf", XMT_FORMAT_XLIFF2},
      {"<xliff\n xmlns=\"urn:oasis:names:tc:xliff:document:2.0\"/>", NULL,
       XMT_FORMAT_XLIFF2},
      {"<xliff version=\"1.2\" "
       "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">",
       "a.xlf", XMT_FORMAT_XLIFF},
      /* an unknown version is XLIFF's, whose reader says what it reads */
      {"<xliff version=\"3.0\" "
       "xmlns=\"urn:oasis:names:tc:xliff:document:3.0\">",
       "a.xlf", XMT_FORMAT_XLIFF},
      {"<xliff note=\"version='2.0'\">", "a.xlf", XMT_FORMAT_XLIFF},
      /* the prolog, however it is written, comes before the first element */
      {"<?pi a > b?><xliff version=\"2.0\">", "a.html", XMT_FORMAT_XLIFF2},
      {"<!DOCTYPE xliff [<!ENTITY e \"a>]b\"><!-- > ] --><?p >?>]>"
       "<xliff version=\"2.1\">",
       "a.html", XMT_FORMAT_XLIFF2},
      {"<!-- <html> --><xliff>", "a.html", XMT_FORMAT_XLIFF},
      {"<!doctype HTML><!-- x --><body>", "a.xlf", XMT_FORMAT_HTML},
      {"<xliff a=\">\" version=\"2.0\">", NULL, XMT_FORMAT_XLIFF2},
      /* a start tag cut short is XLIFF's, whose reader says so */
      {"<!-- a --><xliff version=", "a.html", XMT_FORMAT_XLIFF},
      /* a zip is Word's, whatever its name: its open() tells Word from
       * another zip by content */
      {"PK\3\4\x14", "a.html", XMT_FORMAT_WORD},
      {"PK\3\4\x14", NULL, XMT_FORMAT_WORD},
      {"plain text", "a.DOCX", XMT_FORMAT_WORD},
      {"PK\5\6", "a.xlf", XMT_FORMAT_XLIFF},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    enum xmt_doc_format got =
        xmt_format_sniff(cases[i].bytes, strlen(cases[i].bytes), cases[i].path);
    CU_ASSERT_EQUAL(got, cases[i].want);
  }
}

static void test_table(void) {
  enum xmt_doc_format f = XMT_FORMAT_HTML;
  size_t n = 0;
  const struct xmt_format_info *t = xmt_format_list(&n);
  CU_ASSERT_EQUAL_FATAL(n, 5);
  CU_ASSERT_STRING_EQUAL(t[0].name, "xliff");
  CU_ASSERT_STRING_EQUAL(t[1].name, "html");
  CU_ASSERT_STRING_EQUAL(t[2].name, "xliff2");
  CU_ASSERT_PTR_NULL(t[2].extensions[0]); /* .xlf is XLIFF's: content decides */
  CU_ASSERT_STRING_EQUAL(t[3].name, "docx");
  CU_ASSERT_STRING_EQUAL(t[4].name, "odt");
  CU_ASSERT_STRING_EQUAL(xmt_format_name(XMT_FORMAT_WORD), "docx");
  /* a format's value is its place; its name finds it */
  for (size_t i = 0; i < n; i++) {
    CU_ASSERT_EQUAL(t[i].format, (enum xmt_doc_format)i);
    CU_ASSERT_EQUAL(xmt_format_by_name(t[i].name, &f), 1);
    CU_ASSERT_EQUAL(f, (enum xmt_doc_format)i);
  }
  CU_ASSERT_EQUAL(xmt_format_by_name("odt", &f), 1);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_ODT);
  CU_ASSERT_EQUAL(xmt_format_by_name("segments", &f), 0);
  CU_ASSERT_EQUAL(xmt_format_by_name("HTML", &f), 0);
  CU_ASSERT_EQUAL(xmt_format_by_name(NULL, &f), 0);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_ODT);
  CU_ASSERT_PTR_NULL(xmt_format_name((enum xmt_doc_format) - 1));
  CU_ASSERT_EQUAL(xmt_format_by_extension("a.dotm", &f), 1);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_WORD);
  CU_ASSERT_STRING_EQUAL(xmt_format_name(XMT_FORMAT_HTML), "html");
  CU_ASSERT_STRING_EQUAL(xmt_format_name(XMT_FORMAT_XLIFF2), "xliff2");
  /* extract and merge of units, not segments */
  CU_ASSERT_EQUAL(xmt_format_has_units(XMT_FORMAT_XLIFF), 0);
  CU_ASSERT_EQUAL(xmt_format_has_units(XMT_FORMAT_XLIFF2), 0);
  CU_ASSERT_EQUAL(xmt_format_has_units(XMT_FORMAT_HTML), 1);
  CU_ASSERT_EQUAL(xmt_format_has_units(XMT_FORMAT_WORD), 1);
  CU_ASSERT_EQUAL(xmt_format_has_units(XMT_FORMAT_ODT), 1);
  /* the options of a format's own, and its counts, come from its entry */
  CU_ASSERT_EQUAL(xmt_format_flags(XMT_FORMAT_HTML),
                  XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE |
                      XMT_FILTER_HTML_REPLACE_INVALID);
  CU_ASSERT_EQUAL(xmt_format_flags(XMT_FORMAT_XLIFF), 0);
  CU_ASSERT_EQUAL(xmt_format_flags(XMT_FORMAT_WORD), 0);
  CU_ASSERT_EQUAL(xmt_format_flags(XMT_FORMAT_ODT), 0);
  CU_ASSERT_EQUAL(xmt_format_flags((enum xmt_doc_format)99), 0);
  CU_ASSERT_EQUAL(xmt_format_counts_attributes(XMT_FORMAT_HTML), 1);
  CU_ASSERT_EQUAL(xmt_format_counts_attributes(XMT_FORMAT_WORD), 0);
  CU_ASSERT_EQUAL(xmt_format_counts_attributes((enum xmt_doc_format)99), 0);
  /* what people read of a format comes from its entry */
  CU_ASSERT_PTR_NULL(xmt_format_noun(XMT_FORMAT_XLIFF));
  CU_ASSERT_PTR_NULL(xmt_format_noun(XMT_FORMAT_XLIFF2));
  CU_ASSERT_STRING_EQUAL(xmt_format_noun(XMT_FORMAT_HTML), "HTML page");
  CU_ASSERT_STRING_EQUAL(xmt_format_noun(XMT_FORMAT_WORD), "Word document");
  CU_ASSERT_STRING_EQUAL(xmt_format_noun(XMT_FORMAT_ODT), "OpenDocument text");
  CU_ASSERT_PTR_NULL(xmt_format_noun((enum xmt_doc_format)99));
  CU_ASSERT_STRING_EQUAL(xmt_format_media_type(XMT_FORMAT_XLIFF),
                         "application/xliff+xml");
  CU_ASSERT_STRING_EQUAL(xmt_format_media_type(XMT_FORMAT_XLIFF2),
                         "application/xliff+xml");
  CU_ASSERT_STRING_EQUAL(xmt_format_media_type(XMT_FORMAT_HTML), "text/html");
  CU_ASSERT_STRING_EQUAL(xmt_format_media_type(XMT_FORMAT_ODT),
                         "application/vnd.oasis.opendocument.text");
  CU_ASSERT_STRING_EQUAL(
      xmt_format_media_type(XMT_FORMAT_WORD),
      "application/"
      "vnd.openxmlformats-officedocument.wordprocessingml.document");
  CU_ASSERT_EQUAL(xmt_format_by_extension("d/a.SDLXLIFF", &f), 1);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_XLIFF);
  CU_ASSERT_EQUAL(xmt_format_by_extension("a.htm", &f), 1);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_HTML);
  CU_ASSERT_EQUAL(xmt_format_by_extension("a.txt", &f), 0);
  CU_ASSERT_EQUAL(xmt_format_by_extension("dir.xlf/a", &f), 0);
  CU_ASSERT_EQUAL(xmt_format_by_extension(".xlf", &f), 1);
}

static void test_detect_file(void) {
  xmt_filter *f = xmt_filter_new();
  enum xmt_doc_format got = XMT_FORMAT_HTML;
  CU_ASSERT_EQUAL(
      xmt_filter_detect_format(f, xmt_test_fixture_path("enc-utf8.xlf"), &got),
      XMT_OK);
  CU_ASSERT_EQUAL(got, XMT_FORMAT_XLIFF);
  CU_ASSERT_EQUAL(
      xmt_filter_detect_format(f, xmt_test_fixture_path("no-such.xlf"), &got),
      XMT_ERR_IO);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->message, "cannot open"));
  xmt_filter_free(f);
}

static void test_names(void) {
  enum xmt_tag_mode tags = XMT_TAGS_PROJECT;
  CU_ASSERT_EQUAL(xmt_tag_mode_parse("raw", &tags), XMT_OK);
  CU_ASSERT_EQUAL(tags, XMT_TAGS_RAW);
  CU_ASSERT_EQUAL(xmt_tag_mode_parse("Raw", &tags), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tag_mode_parse(NULL, &tags), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(tags, XMT_TAGS_RAW);
  enum xmt_projection_rule rule = XMT_RULE_MINMAX;
  CU_ASSERT_EQUAL(xmt_projection_rule_parse("score", &rule), XMT_OK);
  CU_ASSERT_EQUAL(rule, XMT_RULE_SCORE);
  enum xmt_align_model model = XMT_MODEL_BAYES;
  CU_ASSERT_EQUAL(xmt_align_model_parse("ibm2", &model), XMT_OK);
  CU_ASSERT_EQUAL(model, XMT_MODEL_IBM2);
  CU_ASSERT_EQUAL(xmt_align_model_parse("ibm1", &model), XMT_ERR_USAGE);
  enum xmt_probes probes = XMT_PROBES_AUTO;
  CU_ASSERT_EQUAL(xmt_probes_parse("off", &probes), XMT_OK);
  CU_ASSERT_EQUAL(probes, XMT_PROBES_OFF);
  enum xmt_segments_format format = XMT_SEGMENTS_TSV;
  CU_ASSERT_EQUAL(xmt_segments_format_parse("jsonl", &format), XMT_OK);
  CU_ASSERT_EQUAL(format, XMT_SEGMENTS_JSONL);
  enum xmt_token_style style = XMT_TOKENS_MOSES;
  CU_ASSERT_EQUAL(xmt_token_style_parse("bpe", &style), XMT_OK);
  CU_ASSERT_EQUAL(style, XMT_TOKENS_BPE);
}

static void test_backend_registry(void) {
  size_t n = 0;
  const struct xmt_backend_info *b = xmt_backend_list(&n);
  static const char *const names[] = {"identity", "pseudo", "apertium",
                                      "cmd",      "http",   "plugin"};
  CU_ASSERT_EQUAL_FATAL(n, sizeof names / sizeof *names);
  for (size_t i = 0; i < n; i++) {
    CU_ASSERT_STRING_EQUAL(b[i].name, names[i]);
    CU_ASSERT_PTR_EQUAL(xmt_backend_builtin(names[i]), b[i].backend);
    CU_ASSERT_STRING_EQUAL(b[i].backend->name, names[i]);
  }
  CU_ASSERT_PTR_NULL(xmt_backend_builtin("offline"));
}

static CU_TestInfo format_tests[] = {
    {"sniff: content over name", test_sniff},
    {"table and extensions", test_table},
    {"detect a file", test_detect_file},
    {"setting names", test_names},
    {"backend registry", test_backend_registry},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"format", NULL, NULL, NULL, NULL, format_tests},
    CU_SUITE_INFO_NULL,
};
