/* test_projector_alignment.c -- alignments and the Pharaoh format. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "alignment_text.h"
#include "harness.h"
#include "xmt_projector.h"

/* Renders the links as "s-t s-t ..." for whole-string comparison. */
/* Parses line against 10 x 10 tokens; returns the status, *bad gets
 * bad_pair (99 when untouched). */
static xmt_status parse(xmt_alignment *al, const char *line, size_t *bad) {
  *bad = 99;
  return xmt_alignment_parse(al, line, strlen(line), 10, 10, bad);
}

static void assert_parses(const char *line, const char *expected) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  size_t bad;
  CU_ASSERT_EQUAL(parse(al, line, &bad), XMT_OK);
  CU_ASSERT_EQUAL(bad, 99);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(al), expected);
  xmt_alignment_free(al);
}

static void assert_refused(const char *line, size_t expected_bad) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 7, 7), XMT_OK);
  size_t bad;
  CU_ASSERT_EQUAL(parse(al, line, &bad), XMT_ERR_USAGE);
  if (bad != expected_bad)
    fprintf(stderr, "\n\"%s\": bad_pair %zu, expected %zu\n", line, bad,
            expected_bad);
  CU_ASSERT_EQUAL(bad, expected_bad);
  CU_ASSERT_EQUAL(xmt_alignment_count(al), 0); /* cleared, nothing partial */
  xmt_alignment_free(al);
}

static void test_new_add_clear(void) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_alignment_count(al), 0);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 0, 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 2, 0), XMT_OK);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 0, 1), XMT_OK); /* add keeps all */
  CU_ASSERT_STRING_EQUAL(xmt_test_links(al), "0-1 2-0 0-1");
  xmt_alignment_clear(al);
  CU_ASSERT_EQUAL(xmt_alignment_count(al), 0);
  for (size_t i = 0; i < 1000; i++)
    CU_ASSERT_EQUAL(xmt_alignment_add(al, i, 999 - i), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_alignment_count(al), 1000);
  CU_ASSERT_EQUAL(xmt_alignment_links(al)[500].source, 500);
  CU_ASSERT_EQUAL(xmt_alignment_links(al)[500].target, 499);
  CU_ASSERT_EQUAL(xmt_alignment_add(NULL, 0, 0), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_alignment_count(NULL), 0);
  CU_ASSERT_PTR_NULL(xmt_alignment_links(NULL));
  xmt_alignment_clear(NULL);
  xmt_alignment_free(al);
  xmt_alignment_free(NULL);
}

static void test_parse_basic(void) {
  assert_parses("0-0 1-2 2-1", "0-0 1-2 2-1");
  assert_parses("0-0\t1-1", "0-0 1-1");
  assert_parses("  3-4   5-6  ", "3-4 5-6");
  assert_parses("0-0 1-1\n", "0-0 1-1");
  assert_parses("0-0 1-1\r\n", "0-0 1-1");
  assert_parses("9-9", "9-9");
  assert_parses("007-3", "7-3");
}

static void test_parse_possible(void) {
  assert_parses("0p0 1-2 2p3", "0-0 1-2 2-3");
}

static void test_parse_empty(void) {
  assert_parses("", "");
  assert_parses("   \t ", "");
  assert_parses("\n", "");
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 1, 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, NULL, 0, 0, 0, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_alignment_count(al), 0); /* cleared first */
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, NULL, 3, 1, 1, NULL), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_alignment_parse(NULL, "0-0", 3, 1, 1, NULL),
                  XMT_ERR_USAGE);
  xmt_alignment_free(al);
}

static void test_parse_duplicates(void) {
  /* Sorted input, and out of order input: first occurrence kept. */
  assert_parses("0-0 0-0 1-1 1-1 1-1", "0-0 1-1");
  assert_parses("2-1 0-0 2-1 1-1 0-0", "2-1 0-0 1-1");
  assert_parses("1p1 1-1", "1-1");
}

static void test_parse_duplicates_long(void) {
  /* Past the quadratic limit: 200 pairs, reversed order, each twice. */
  char line[4096];
  size_t at = 0;
  for (int r = 0; r < 2; r++)
    for (int i = 99; i >= 0; i--)
      at += (size_t)snprintf(line + at, sizeof line - at, "%d-%d ", i % 10,
                             i / 10);
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, line, at, 10, 10, NULL), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_alignment_count(al), 100);
  const struct xmt_link *l = xmt_alignment_links(al);
  for (size_t i = 0; i < 100; i++) {
    CU_ASSERT_EQUAL(l[i].source, (99 - i) % 10);
    CU_ASSERT_EQUAL(l[i].target, (99 - i) / 10);
  }
  xmt_alignment_free(al);
}

static void test_parse_out_of_range(void) {
  assert_refused("10-0", 0);
  assert_refused("0-0 1-10", 1);
  assert_refused("0-0 1-1 2-2 3p10", 3);
  /* A duplicate still counts as a pair of the line. */
  assert_refused("0-0 0-0 0-11", 2);
  assert_refused("0-0 99999999999999999999999-1", 1); /* overflows */
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  size_t bad = 99;
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-0", 3, 0, 5, &bad), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-0", 3, 1, 1, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-1", 3, 1, 1, NULL),
                  XMT_ERR_USAGE); /* bad_pair may be NULL */
  xmt_alignment_free(al);
}

static void test_parse_garbage(void) {
  assert_refused("1-", 0);
  assert_refused("0-0 1-", 1);
  assert_refused("a-b", 0);
  assert_refused("0-0 1-2-3", 1);
  assert_refused("-1-2", 0);
  assert_refused("0-0 1-1 -1-2", 2);
  assert_refused("1", 0);
  assert_refused("0-0 12", 1);
  assert_refused("1x2", 0);
  assert_refused("1--2", 0);
  assert_refused("1-2,2-3", 0);
  assert_refused("+1-2", 0);
  assert_refused("0-0 1-1 2p", 2);
  assert_refused("0-0 p2", 1);
  assert_refused("0-0,", 0);
  assert_refused("0 -0", 0);
}

static void test_parse_embedded_nul(void) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  size_t bad = 99;
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-0 1\0-1", 8, 5, 5, &bad),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(bad, 1);
  /* len bounds the line: the rest is not read. */
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-0 1-1 garbage", 7, 5, 5, &bad),
                  XMT_OK);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(al), "0-0 1-1");
  xmt_alignment_free(al);
}

static void test_parse_reuse(void) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  size_t bad;
  CU_ASSERT_EQUAL(parse(al, "0-0 1-1 2-2", &bad), XMT_OK);
  CU_ASSERT_EQUAL(parse(al, "3-3", &bad), XMT_OK);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(al), "3-3");
  CU_ASSERT_EQUAL(parse(al, "3-3 x", &bad), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(bad, 1);
  CU_ASSERT_EQUAL(parse(al, "4-4", &bad), XMT_OK);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(al), "4-4");
  xmt_alignment_free(al);
}

static CU_TestInfo alignment_tests[] = {
    {"new, add, clear", test_new_add_clear},
    {"parse: pairs and separators", test_parse_basic},
    {"parse: possible links", test_parse_possible},
    {"parse: empty line", test_parse_empty},
    {"parse: duplicates collapsed", test_parse_duplicates},
    {"parse: duplicates in a long line", test_parse_duplicates_long},
    {"parse: index out of range", test_parse_out_of_range},
    {"parse: garbage", test_parse_garbage},
    {"parse: embedded NUL, len bounds", test_parse_embedded_nul},
    {"parse: reuse", test_parse_reuse},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"projector/alignment", NULL, NULL, NULL, NULL, alignment_tests},
    CU_SUITE_INFO_NULL,
};
