/* test_projector_symmetrize.c -- symmetrization heuristics on hand-made
 * alignment matrices, with the link sets worked out by hand. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "alignment_text.h"
#include "harness.h"
#include "xmt_projector.h"

static void expect(const char *fwd, const char *rev, size_t n, size_t m,
                   enum xmt_symmetrization sym, const char *want) {
  xmt_alignment *f = xmt_test_alignment(fwd, n, m),
                *r = xmt_test_alignment(rev, n, m);
  xmt_alignment *out = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(xmt_alignment_add(out, 9, 9), XMT_OK); /* cleared first */
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, n, m, sym), XMT_OK);
  if (strcmp(xmt_test_links(out), want) != 0)
    fprintf(stderr, "\n%s: got \"%s\", want \"%s\"\n",
            xmt_symmetrization_name(sym), xmt_test_links(out), want);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(out), want);
  xmt_alignment_free(f);
  xmt_alignment_free(r);
  xmt_alignment_free(out);
}

/* An 8 x 8 case worked out by hand (atools order: candidates swept in
 * (source, target) order, each taken at once; then the forward links, then
 * the reverse ones):
 *   intersection 0-0 1-1 5-5;
 *   grow-diag adds 2-2 (next to 1-1), 2-3 (next to 2-2, target 3 free),
 *   4-4 (diagonal to 5-5); 3-0, 6-7 and 7-7 touch no link; 1-0 joins two
 *   aligned words;
 *   final: forward 7-7 (both free), then reverse 3-0 (source 3 free) and
 *   6-7 (source 6 free); final-and only 7-7, as 3-0 and 6-7 each have one
 *   word aligned by then. */
static const char fwd8[] = "0-0 1-1 2-3 4-4 5-5 7-7";
static const char rev8[] = "0-0 1-0 1-1 2-2 3-0 5-5 6-7";

static void test_each_heuristic(void) {
  expect(fwd8, rev8, 8, 8, XMT_SYM_FORWARD, "0-0 1-1 2-3 4-4 5-5 7-7");
  expect(fwd8, rev8, 8, 8, XMT_SYM_REVERSE, "0-0 1-0 1-1 2-2 3-0 5-5 6-7");
  expect(fwd8, rev8, 8, 8, XMT_SYM_INTERSECT, "0-0 1-1 5-5");
  expect(fwd8, rev8, 8, 8, XMT_SYM_UNION,
         "0-0 1-0 1-1 2-2 2-3 3-0 4-4 5-5 6-7 7-7");
  expect(fwd8, rev8, 8, 8, XMT_SYM_GROW_DIAG, "0-0 1-1 2-2 2-3 4-4 5-5");
  expect(fwd8, rev8, 8, 8, XMT_SYM_GROW_DIAG_FINAL,
         "0-0 1-1 2-2 2-3 3-0 4-4 5-5 6-7 7-7");
  expect(fwd8, rev8, 8, 8, XMT_SYM_GROW_DIAG_FINAL_AND,
         "0-0 1-1 2-2 2-3 4-4 5-5 7-7");
}

/* Growing runs along a diagonal within one sweep, each link taken at
 * once: 0-0 seeds; 1-1 and 2-2 follow; 3-2 (reverse only) comes before 3-3
 * in the sweep and is taken, as source 3 is still free; 3-3 then follows
 * too, target 3 being free. */
static void test_grow_chain(void) {
  expect("0-0 1-1 2-2 3-3", "0-0 3-2", 4, 4, XMT_SYM_INTERSECT, "0-0");
  expect("0-0 1-1 2-2 3-3", "0-0 3-2", 4, 4, XMT_SYM_GROW_DIAG,
         "0-0 1-1 2-2 3-2 3-3");
  /* Only the intersection's neighbours grow: 2-0 is two cells away. */
  expect("0-0 2-0", "0-0", 3, 3, XMT_SYM_GROW_DIAG, "0-0");
  expect("0-0 2-0", "0-0", 3, 3, XMT_SYM_GROW_DIAG_FINAL, "0-0 2-0");
  expect("0-0 2-0", "0-0", 3, 3, XMT_SYM_GROW_DIAG_FINAL_AND, "0-0");
}

/* The reverse direction aligning one source word to two target words
 * (a 1-n link a forward model cannot produce): grow-diag keeps both, as the
 * second target word is free and next to the first. */
static void test_one_to_many(void) {
  expect("0-0 1-1 2-3", "0-0 1-1 1-2 2-3", 3, 4, XMT_SYM_INTERSECT,
         "0-0 1-1 2-3");
  expect("0-0 1-1 2-3", "0-0 1-1 1-2 2-3", 3, 4, XMT_SYM_GROW_DIAG,
         "0-0 1-1 1-2 2-3");
  expect("0-0 1-1 2-3", "0-0 1-1 1-2 2-3", 3, 4, XMT_SYM_GROW_DIAG_FINAL_AND,
         "0-0 1-1 1-2 2-3");
}

static void test_empty_and_disjoint(void) {
  expect("", "", 3, 3, XMT_SYM_GROW_DIAG_FINAL_AND, "");
  expect("", "", 0, 0, XMT_SYM_UNION, "");
  /* No intersection: grow-diag has nothing to grow from; final-and takes
   * forward links first, then reverse links still joining free words. */
  expect("0-1 1-0", "0-0 1-1", 2, 2, XMT_SYM_GROW_DIAG, "");
  expect("0-1 1-0", "0-0 1-1", 2, 2, XMT_SYM_GROW_DIAG_FINAL_AND, "0-1 1-0");
  expect("0-1 1-0", "0-0 1-1", 2, 2, XMT_SYM_GROW_DIAG_FINAL, "0-1 1-0");
  expect("0-1", "", 2, 2, XMT_SYM_GROW_DIAG_FINAL_AND, "0-1");
  expect("", "1-1", 2, 2, XMT_SYM_GROW_DIAG_FINAL, "1-1");
}

static void test_errors(void) {
  xmt_alignment *f = xmt_test_alignment("0-0 2-1", 3, 2),
                *r = xmt_test_alignment("0-0", 3, 2);
  xmt_alignment *out = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  /* a link outside the stated sizes */
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, 2, 2, XMT_SYM_UNION),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, 3, 1, XMT_SYM_INTERSECT),
                  XMT_ERR_USAGE);
  /* out may not be an input; bad heuristic; NULLs */
  CU_ASSERT_EQUAL(xmt_symmetrize(f, f, r, 3, 2, XMT_SYM_UNION), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, 3, 2, (enum xmt_symmetrization)8),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrize(out, NULL, r, 3, 2, XMT_SYM_UNION),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, 3, 2, XMT_SYM_UNION), XMT_OK);
  CU_ASSERT_STRING_EQUAL(xmt_test_links(out), "0-0 2-1");
  xmt_alignment_free(f);
  xmt_alignment_free(r);
  xmt_alignment_free(out);
}

static void test_names(void) {
  static const char *const names[] = {
      "forward",   "reverse",         "intersect",          "union",
      "grow-diag", "grow-diag-final", "grow-diag-final-and"};
  for (int i = 0; i < 7; i++) {
    enum xmt_symmetrization sym = XMT_SYM_UNION;
    CU_ASSERT_EQUAL(xmt_symmetrization_parse(names[i], &sym), XMT_OK);
    CU_ASSERT_EQUAL((int)sym, i);
    CU_ASSERT_STRING_EQUAL(xmt_symmetrization_name(sym), names[i]);
  }
  enum xmt_symmetrization sym = XMT_SYM_UNION;
  CU_ASSERT_EQUAL(xmt_symmetrization_parse("gdfa", &sym), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrization_parse("grow-diag-final-and ", &sym),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_symmetrization_parse(NULL, &sym), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL((int)sym, XMT_SYM_UNION);
  CU_ASSERT_STRING_EQUAL(xmt_symmetrization_name((enum xmt_symmetrization)9),
                         "?");
}

static CU_TestInfo symmetrize_tests[] = {
    {"each heuristic on an 8x8 case", test_each_heuristic},
    {"grow along a diagonal", test_grow_chain},
    {"one source word, two target words", test_one_to_many},
    {"empty and disjoint alignments", test_empty_and_disjoint},
    {"errors", test_errors},
    {"names", test_names},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"symmetrize", NULL, NULL, NULL, NULL, symmetrize_tests},
    CU_SUITE_INFO_NULL,
};
