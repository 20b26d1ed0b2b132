/* test_projector_intersect_first.c -- the intersect-first symmetrization:
 * grow-diag-final-and, but a word the intersection links keeps only the
 * links that run on from those without a gap; on hand-made direction pairs
 * and through min-max projection. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "alignment_text.h"
#include "harness.h"
#include "xmt_projector.h"

/* Symmetrizes fwd and rev (n x m) into out with sym. */
static void combine(xmt_alignment *out, const char *fwd, const char *rev,
                    size_t n, size_t m, enum xmt_symmetrization sym) {
  xmt_alignment *f = xmt_test_alignment(fwd, n, m),
                *r = xmt_test_alignment(rev, n, m);
  CU_ASSERT_EQUAL(xmt_symmetrize(out, f, r, n, m, sym), XMT_OK);
  xmt_alignment_free(f);
  xmt_alignment_free(r);
}

#define EXPECT(got, want)                                                      \
  do {                                                                         \
    const char *got_ = (got);                                                  \
    if (strcmp(got_, (want)) != 0)                                             \
      fprintf(stderr, "\nline %d: got \"%s\"\n", __LINE__, got_);              \
    CU_ASSERT_STRING_EQUAL(got_, (want));                                      \
  } while (0)

static const char *sym_links(const char *fwd, const char *rev, size_t n,
                             size_t m, enum xmt_symmetrization sym) {
  xmt_alignment *out = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  combine(out, fwd, rev, n, m, sym);
  const char *s = xmt_test_links(out);
  xmt_alignment_free(out);
  return s;
}

/* "See Memory section" -> "Smotrite razdel o pamyati" (Russian word
 * order, "section" first). Forward: Memory-pamyati, section-razdel;
 * reverse keeps the English order: razdel and pamyati both to Memory, o to
 * section. The intersection holds See and Memory-pamyati; grow-diag adds
 * Memory-razdel (razdel free, diagonal to See), two words away from
 * Memory's sure link. */
static const char fwd3[] = "0-0 1-3 2-1";
static const char rev3[] = "0-0 1-1 1-3 2-2";

static void test_link_apart_from_a_sure_one(void) {
  EXPECT(sym_links(fwd3, rev3, 3, 4, XMT_SYM_GROW_DIAG_FINAL_AND),
         "0-0 1-1 1-3 2-1 2-2");
  EXPECT(sym_links(fwd3, rev3, 3, 4, XMT_SYM_INTERSECT_FIRST),
         "0-0 1-3 2-1 2-2");
  /* the same seen from the target side: target 1's sure link is to
   * source 3, its grown link from source 1 is apart from it */
  EXPECT(sym_links("0-0 1-1 3-1", "0-0 3-1", 4, 2, XMT_SYM_GROW_DIAG_FINAL_AND),
         "0-0 1-1 3-1");
  EXPECT(sym_links("0-0 1-1 3-1", "0-0 3-1", 4, 2, XMT_SYM_INTERSECT_FIRST),
         "0-0 3-1");
  /* next to the sure link, a grown link stays: "timezone" -> "chasovoj
   * pojas" */
  EXPECT(sym_links("0-0 1-1 2-3", "0-0 1-1 1-2 2-3", 3, 4,
                   XMT_SYM_INTERSECT_FIRST),
         "0-0 1-1 1-2 2-3");
}

/* Words outside the intersection keep grow-diag-final-and's links: the
 * 8 x 8 case of test_projector_symmetrize.c (intersection 0-0 1-1 5-5;
 * grown 2-2 2-3 4-4, final-and 7-7) comes out the same. */
static void test_unsure_words_keep_their_links(void) {
  static const char fwd8[] = "0-0 1-1 2-3 4-4 5-5 7-7";
  static const char rev8[] = "0-0 1-0 1-1 2-2 3-0 5-5 6-7";
  EXPECT(sym_links(fwd8, rev8, 8, 8, XMT_SYM_INTERSECT_FIRST),
         "0-0 1-1 2-2 2-3 4-4 5-5 7-7");
  /* no intersection: final-and's links stay */
  EXPECT(sym_links("0-1 1-0", "0-0 1-1", 2, 2, XMT_SYM_INTERSECT_FIRST),
         "0-1 1-0");
  EXPECT(sym_links("", "", 2, 2, XMT_SYM_INTERSECT_FIRST), "");
}

/* min-max over each alignment of "See <g>Memory</g> section": the grown
 * link stretches the pair over "razdel". */
static const char *project_memory(enum xmt_symmetrization sym) {
  static char buf[128];
  static const char src[] = "See Memory section";
  static const char tgt[] = "Smotrite razdel o pamyati";
  xmt_segment *s = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(s && out && st && tt && al);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src, 4), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(s, XMT_TAG_OPEN, "1", "g", "<g id=\"1\">", 10),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src + 4, 6), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(s, XMT_TAG_CLOSE, "1", "g", "</g>", 4),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src + 10, 8), XMT_OK);
  size_t slen;
  const char *text = xmt_segment_text(s, &slen);
  CU_ASSERT_EQUAL(xmt_tokenize(st, text, slen, XMT_TOKENIZE_DEFAULT), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokenize(tt, tgt, strlen(tgt), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_tokens_count(st), 3);
  CU_ASSERT_EQUAL_FATAL(xmt_tokens_count(tt), 4);
  combine(al, fwd3, rev3, 3, 4, sym);
  CU_ASSERT_EQUAL_FATAL(
      xmt_project(out, s, st, tgt, strlen(tgt), tt, al, XMT_RULE_MINMAX),
      XMT_OK);
  struct xmt_tag o, c;
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(out), 2);
  CU_ASSERT_EQUAL(xmt_segment_tag(out, 0, &o), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_tag(out, 1, &c), XMT_OK);
  snprintf(buf, sizeof buf, "%.*s[%.*s]%s", (int)o.offset, tgt,
           (int)(c.offset - o.offset), tgt + o.offset, tgt + c.offset);
  xmt_segment_free(s);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
  return buf;
}

static void test_projection(void) {
  EXPECT(project_memory(XMT_SYM_GROW_DIAG_FINAL_AND),
         "Smotrite [razdel o pamyati]");
  EXPECT(project_memory(XMT_SYM_INTERSECT_FIRST),
         "Smotrite razdel o [pamyati]");
}

static void test_name(void) {
  enum xmt_symmetrization sym = XMT_SYM_UNION;
  CU_ASSERT_EQUAL(xmt_symmetrization_parse("intersect-first", &sym), XMT_OK);
  CU_ASSERT_EQUAL(sym, XMT_SYM_INTERSECT_FIRST);
  CU_ASSERT_EQUAL((int)XMT_SYM_INTERSECT_FIRST, 7); /* appended */
  CU_ASSERT_STRING_EQUAL(xmt_symmetrization_name(XMT_SYM_INTERSECT_FIRST),
                         "intersect-first");
  xmt_alignment *f = xmt_test_alignment("0-0", 1, 1),
                *out = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(xmt_symmetrize(f, f, f, 1, 1, XMT_SYM_INTERSECT_FIRST),
                  XMT_ERR_USAGE); /* out may not be an input */
  CU_ASSERT_EQUAL(
      xmt_symmetrize(out, f, f, 1, 1,
                     (enum xmt_symmetrization)(XMT_SYM_INTERSECT_FIRST + 1)),
      XMT_ERR_USAGE);
  xmt_alignment_free(f);
  xmt_alignment_free(out);
}

static CU_TestInfo intersect_first_tests[] = {
    {"a link apart from a sure one goes", test_link_apart_from_a_sure_one},
    {"unsure words keep their links", test_unsure_words_keep_their_links},
    {"min-max over the two", test_projection},
    {"name and errors", test_name},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"intersect-first", NULL, NULL, NULL, NULL, intersect_first_tests},
    CU_SUITE_INFO_NULL,
};
