/* test_filter_check.c -- document checks: counts and problems, exactly. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "xmt_filter.h"

struct seen {
  char log[2048];
};

static int collect(void *user, const struct xmt_problem *p) {
  struct seen *s = user;
  size_t n = strlen(s->log);
  snprintf(s->log + n, sizeof s->log - n, "%s:%lu:%s:%s\n",
           p->severity == XMT_ERROR ? "E" : "W", p->line,
           p->unit_id ? p->unit_id : "-", p->message);
  return 0;
}

static void run_check(const char *path, struct xmt_check_report *r,
                      struct seen *s, xmt_status want) {
  xmt_filter *f = xmt_filter_new();
  memset(s, 0, sizeof *s);
  CU_ASSERT_EQUAL(xmt_filter_check_file(f, path, r, collect, s), want);
  xmt_filter_free(f);
}

static void test_counts_docx(void) {
  struct xmt_check_report r;
  struct seen s;
  run_check(xmt_test_data_path("okapi/xliff/docxtest.docx.xlf"), &r, &s,
            XMT_OK);
  CU_ASSERT_STRING_EQUAL(r.encoding, "UTF-8");
  CU_ASSERT_EQUAL(r.files, 6);
  CU_ASSERT_EQUAL(r.units, 20);
  CU_ASSERT_EQUAL(r.translatable_units, 20);
  CU_ASSERT_EQUAL(r.units_with_target, 20);
  CU_ASSERT_EQUAL(r.segments, 20);
  CU_ASSERT_EQUAL(r.words, 132);
  CU_ASSERT_EQUAL(r.codes[XMT_CODE_G], 10);
  CU_ASSERT_EQUAL(r.codes[XMT_CODE_X], 5);
  CU_ASSERT_EQUAL(r.errors, 0);
  CU_ASSERT_EQUAL(r.warnings, 0);
  CU_ASSERT_STRING_EQUAL(s.log, "");
}

static void test_segmented_with_warning(void) {
  struct xmt_check_report r;
  struct seen s;
  run_check(xmt_test_data_path("okapi/xliff/RB-12-Test02.xlf"), &r, &s, XMT_OK);
  CU_ASSERT_STRING_EQUAL(r.encoding, "windows-1252");
  CU_ASSERT_EQUAL(r.units, 9);
  CU_ASSERT_EQUAL(r.units_with_target, 7);
  CU_ASSERT_EQUAL(r.segments, 11);
  CU_ASSERT_EQUAL(r.codes[XMT_CODE_G], 3);
  CU_ASSERT_EQUAL(r.codes[XMT_CODE_X], 2);
  CU_ASSERT_EQUAL(r.warnings, 1);
  CU_ASSERT_STRING_EQUAL(
      s.log, "W:44:11withWarning:the text of <seg-source> differs from "
             "<source>\n");
}

static void test_target_codes(void) {
  struct xmt_check_report r;
  struct seen s;
  run_check(xmt_test_data_path("okapi/xliff/DifferentTags.xlf"), &r, &s,
            XMT_OK);
  CU_ASSERT_STRING_EQUAL(
      s.log, "W:9:1:<target> has an inline code <bx id=\"3\"> not in "
             "<source>\n");
  run_check(xmt_test_data_path("okapi/xliff/Manual-12-AltTrans.xlf"), &r, &s,
            XMT_OK);
  CU_ASSERT_EQUAL(r.units, 7);
  CU_ASSERT_EQUAL(r.translatable_units, 6);
  CU_ASSERT_EQUAL(r.codes[XMT_CODE_PH], 2);
  CU_ASSERT_EQUAL(r.words, 16);
}

static void test_fatal(void) {
  struct xmt_check_report r;
  struct seen s;
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL(xmt_filter_check_file(
                      f,
                      xmt_test_data_path("okapi/xliff/invalid_xml_entity.xlf"),
                      &r, collect, &s),
                  XMT_ERR_XML);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 8);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->column, 31);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->unit_id, "tu1_tu1");
  CU_ASSERT_EQUAL(xmt_filter_check_file(f, "no-such-file.xlf", &r, NULL, NULL),
                  XMT_ERR_IO);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->file, "no-such-file.xlf");
  xmt_filter_free(f);
  CU_ASSERT_STRING_EQUAL(xmt_code_kind_name(XMT_CODE_BPT), "bpt");
  CU_ASSERT_STRING_EQUAL(xmt_code_kind_name(XMT_CODE_OTHER), "other");
}

CU_TestInfo check_tests[] = {
    {"counts of a Word document's XLIFF", test_counts_docx},
    {"segmented units and a seg-source warning", test_segmented_with_warning},
    {"target codes against source codes", test_target_codes},
    {"fatal errors and missing files", test_fatal},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter check", NULL, NULL, NULL, NULL, check_tests}, CU_SUITE_INFO_NULL};
