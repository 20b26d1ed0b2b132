/* test_projector_metrics.c -- tag-placement metrics: exact counters on
 * hand-made line pairs (segments written as XLIFF inline markup). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "xliff_private.h"

static xmt_segment *parse(const char *markup) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  xmt_status st = xmt_xliff_inline_parse(seg, markup, strlen(markup), NULL);
  if (st != XMT_OK)
    fprintf(stderr, "\ncannot parse «%s»: %s\n", markup, xmt_strerror(st));
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  return seg;
}

/* Adds a line pair; hyp NULL is a hypothesis that did not parse. */
static void add(xmt_evaluator *ev, const char *hyp, const char *ref) {
  xmt_segment *h = hyp != NULL ? parse(hyp) : NULL;
  xmt_segment *r = parse(ref);
  CU_ASSERT_EQUAL(xmt_evaluator_add(ev, h, r), XMT_OK);
  xmt_segment_free(h);
  xmt_segment_free(r);
}

#define CHECK_FIELD(f)                                                         \
  do {                                                                         \
    if (got->f != want->f)                                                     \
      fprintf(stderr, "\n%s:%d: %s = %zu, want %zu\n", file, line, #f, got->f, \
              want->f);                                                        \
    CU_ASSERT_EQUAL(got->f, want->f);                                          \
  } while (0)

static void check_metrics(const struct xmt_tag_metrics *got,
                          const struct xmt_tag_metrics *want, const char *file,
                          int line) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  CHECK_FIELD(lines);
  CHECK_FIELD(lines_with_tags);
  CHECK_FIELD(tags);
  CHECK_FIELD(dropped);
  CHECK_FIELD(added);
  CHECK_FIELD(changed_id);
  CHECK_FIELD(mutilated);
  CHECK_FIELD(badly_nested);
  CHECK_FIELD(well_formed_lines);
  CHECK_FIELD(structure_match_lines);
  CHECK_FIELD(exact);
  CHECK_FIELD(interior);
  CHECK_FIELD(interior_exact);
  CHECK_FIELD(all_exact_lines);
  CHECK_FIELD(content_pairs);
  if (fabs(got->content_f1_sum - want->content_f1_sum) >= 1e-9)
    fprintf(stderr, "\n%s:%d: content_f1_sum = %.12f, want %.12f\n", file, line,
            got->content_f1_sum, want->content_f1_sum);
  CU_ASSERT_TRUE(fabs(got->content_f1_sum - want->content_f1_sum) < 1e-9);
}

/* Evaluates one line pair in a fresh evaluator against want. */
#define EXPECT_LINE(hyp, ref, ...)                                             \
  do {                                                                         \
    const struct xmt_tag_metrics want_ = {__VA_ARGS__};                        \
    xmt_evaluator *ev_ = xmt_evaluator_new();                                  \
    CU_ASSERT_PTR_NOT_NULL_FATAL(ev_);                                         \
    add(ev_, (hyp), (ref));                                                    \
    check_metrics(xmt_evaluator_metrics(ev_), &want_, __FILE__, __LINE__);     \
    xmt_evaluator_free(ev_);                                                   \
  } while (0)

/* The reference of most tests: 7 tokens "The cat sat on the mat ."; the
 * pair covers tokens 0..2, the placeholder sits at 4. Both are interior
 * (the pair by its end). */
static const char ref1[] =
    "<g id=\"1\">The cat</g> sat on <x id=\"2\"/>the mat.";

static void test_perfect(void) {
  EXPECT_LINE(ref1, ref1, .lines = 1, .lines_with_tags = 1, .tags = 2,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 2,
              .interior = 2, .interior_exact = 2, .all_exact_lines = 1,
              .content_f1_sum = 1.0, .content_pairs = 1);
  /* Spaces do not count: the x after the space is at the same position. */
  EXPECT_LINE("<g id=\"1\">The cat </g>sat on<x id=\"2\"/> the mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 2,
              .interior = 2, .interior_exact = 2, .all_exact_lines = 1,
              .content_f1_sum = 1.0, .content_pairs = 1);
}

static void test_shifted(void) {
  EXPECT_LINE("<g id=\"1\">The cat</g> sat on the <x id=\"2\"/>mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 1,
              .interior = 2, .interior_exact = 1, .content_f1_sum = 1.0,
              .content_pairs = 1);
}

static void test_pair_one_wrong_end(void) {
  /* Content {The, cat, sat} against {The, cat}: F1 = 2*2/(3+2) = 0.8. */
  EXPECT_LINE("<g id=\"1\">The cat sat</g> on <x id=\"2\"/>the mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 1,
              .interior = 2, .interior_exact = 1, .content_f1_sum = 0.8,
              .content_pairs = 1);
  /* The other end wrong: the open one token late. */
  EXPECT_LINE("The <g id=\"1\">cat</g> sat on <x id=\"2\"/>the mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 1,
              .interior = 2, .interior_exact = 1, .content_f1_sum = 2.0 / 3.0,
              .content_pairs = 1);
}

static void test_dropped(void) {
  EXPECT_LINE("<g id=\"1\">The cat</g> sat on the mat.", ref1, .lines = 1,
              .lines_with_tags = 1, .tags = 2, .dropped = 1,
              .well_formed_lines = 1, .exact = 1, .interior = 2,
              .interior_exact = 1, .content_f1_sum = 1.0, .content_pairs = 1);
  /* A dropped pair: no content F1 for it. */
  EXPECT_LINE("The cat sat on <x id=\"2\"/>the mat.", ref1, .lines = 1,
              .lines_with_tags = 1, .tags = 2, .dropped = 1,
              .well_formed_lines = 1, .exact = 1, .interior = 2,
              .interior_exact = 1);
}

static void test_added(void) {
  /* All reference tags exact, but an extra one: not an all-exact line. */
  EXPECT_LINE("<g id=\"1\">The cat</g> sat on <x id=\"2\"/>the <x id=\"3\"/>"
              "mat.",
              ref1, .lines = 1, .lines_with_tags = 1, .tags = 2, .added = 1,
              .well_formed_lines = 1, .exact = 2, .interior = 2,
              .interior_exact = 2, .content_f1_sum = 1.0, .content_pairs = 1);
  /* The same element twice: the first matches, the second is added. */
  EXPECT_LINE("<g id=\"1\">The cat</g> sat on <x id=\"2\"/>the <x id=\"2\"/>"
              "mat.",
              ref1, .lines = 1, .lines_with_tags = 1, .tags = 2, .added = 1,
              .well_formed_lines = 1, .exact = 2, .interior = 2,
              .interior_exact = 2, .content_f1_sum = 1.0, .content_pairs = 1);
}

static void test_changed_id(void) {
  /* Neither dropped nor added, and not exact although well placed. */
  EXPECT_LINE("<g id=\"1\">The cat</g> sat on <x id=\"5\"/>the mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2, .changed_id = 1,
              .well_formed_lines = 1, .exact = 1, .interior = 2,
              .interior_exact = 1, .content_f1_sum = 1.0, .content_pairs = 1);
  /* A pair whose id changed gives no content F1; an x for a g is not a
   * changed id but a drop and an addition. */
  EXPECT_LINE("<g id=\"7\">The cat</g> sat on <g id=\"2\">the</g> mat.", ref1,
              .lines = 1, .lines_with_tags = 1, .tags = 2, .dropped = 1,
              .added = 1, .changed_id = 1, .well_formed_lines = 1,
              .interior = 2);
}

/* Appends text and a tag to a hand-built segment. */
static void put(xmt_segment *seg, const char *text, enum xmt_tag_kind kind,
                const char *id) {
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, text, strlen(text)), XMT_OK);
  char markup[32] = "</g>";
  if (kind != XMT_TAG_CLOSE)
    snprintf(markup, sizeof markup, "<g id=\"%s\">", id);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, kind, id, "g", markup, strlen(markup)),
      XMT_OK);
}

static void test_badly_nested(void) {
  /* Crossing pairs that XML cannot express: built by hand. The reference
   * nests 2 in 1; the hypothesis closes 1 inside 2. Both pairs are badly
   * nested, and neither is exact though the 1 pair is where it belongs. */
  xmt_segment *ref = parse("<g id=\"1\">The <g id=\"2\">cat</g></g> sat.");
  xmt_segment *hyp = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(hyp);
  put(hyp, "", XMT_TAG_OPEN, "1");
  put(hyp, "The ", XMT_TAG_OPEN, "2");
  put(hyp, "cat", XMT_TAG_CLOSE, "1");
  put(hyp, " sat", XMT_TAG_CLOSE, "2");
  CU_ASSERT_EQUAL(xmt_segment_append_text(hyp, ".", 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_check(hyp, NULL), XMT_ERR_INLINE);
  xmt_evaluator *ev = xmt_evaluator_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  CU_ASSERT_EQUAL(xmt_evaluator_add(ev, hyp, ref), XMT_OK);
  /* Content: 1 has {The, cat} in both (F1 1); 2 has {cat, sat} against
   * {cat} (F1 2/3). */
  const struct xmt_tag_metrics want = {.lines = 1,
                                       .lines_with_tags = 1,
                                       .tags = 2,
                                       .badly_nested = 2,
                                       .well_formed_lines = 1,
                                       .interior = 2,
                                       .content_f1_sum = 1.0 + 2.0 / 3,
                                       .content_pairs = 2};
  check_metrics(xmt_evaluator_metrics(ev), &want, __FILE__, __LINE__);
  xmt_evaluator_free(ev);
  xmt_segment_free(hyp);
  xmt_segment_free(ref);

  /* An ex before its bx: the parser leaves both isolated; the reference
   * pair is matched, badly nested, with empty content (F1 0). */
  EXPECT_LINE("<ex id=\"1\"/>The cat<bx id=\"1\"/> sat.",
              "<bx id=\"1\"/>The cat<ex id=\"1\"/> sat.", .lines = 1,
              .lines_with_tags = 1, .tags = 1, .badly_nested = 1,
              .well_formed_lines = 1, .interior = 1, .content_pairs = 1);
}

static void test_mutilated(void) {
  EXPECT_LINE(NULL, ref1, .lines = 1, .lines_with_tags = 1, .tags = 2,
              .mutilated = 2, .interior = 2);
  EXPECT_LINE(NULL, "No tags.", .lines = 1);
}

static void test_interior(void) {
  /* A pair around the whole line and tags at both ends: not interior. */
  EXPECT_LINE("<g id=\"1\">Whole line.</g>", "<g id=\"1\">Whole line.</g>",
              .lines = 1, .lines_with_tags = 1, .tags = 1,
              .well_formed_lines = 1, .structure_match_lines = 1, .exact = 1,
              .all_exact_lines = 1, .content_f1_sum = 1.0, .content_pairs = 1);
  EXPECT_LINE("<x id=\"1\"/>Start and end.<x id=\"2\"/>",
              "<x id=\"1\"/>Start and end.<x id=\"2\"/>", .lines = 1,
              .lines_with_tags = 1, .tags = 2, .well_formed_lines = 1,
              .structure_match_lines = 1, .exact = 2, .all_exact_lines = 1);
  /* Both ends at the line edges, placed inside: wrong, not interior. */
  EXPECT_LINE("Start <x id=\"1\"/>and end<x id=\"2\"/>.",
              "<x id=\"1\"/>Start and end.<x id=\"2\"/>", .lines = 1,
              .lines_with_tags = 1, .tags = 2, .well_formed_lines = 1,
              .structure_match_lines = 1);
  /* A pair starting the line but ending inside it is interior. */
  EXPECT_LINE("<g id=\"1\">Start</g> and <x id=\"2\"/>end",
              "<g id=\"1\">Start</g> and <x id=\"2\"/>end", .lines = 1,
              .lines_with_tags = 1, .tags = 2, .well_formed_lines = 1,
              .structure_match_lines = 1, .exact = 2, .interior = 2,
              .interior_exact = 2, .all_exact_lines = 1, .content_f1_sum = 1.0,
              .content_pairs = 1);
  /* A tag inside a token does not count that token as before it. */
  EXPECT_LINE("ab<x id=\"1\"/>cd ef", "<x id=\"1\"/>abcd ef", .lines = 1,
              .lines_with_tags = 1, .tags = 1, .well_formed_lines = 1,
              .structure_match_lines = 1, .exact = 1, .all_exact_lines = 1);
}

/* Positions count \w+|[^\w\s] tokens: texts that tokenize alike place a
 * tag at the same position although the bytes differ. */
static void test_tokens(void) {
  static const char *const alike[][2] = {
      /* combining mark, ZWNJ and ZWJ inside a word */
      {"ab c <x id=\"1\"/>d", "a\xCC\x81"
                              "b c <x id=\"1\"/>d"},
      {"ab c <x id=\"1\"/>d", "a\xE2\x80\x8C"
                              "b\xE2\x80\x8D"
                              "b c <x id=\"1\"/>d"},
      /* Arabic-Indic digits and connector punctuation are word chars */
      {"ab c <x id=\"1\"/>d", "\xD9\xA3\xD9\xA4 c <x id=\"1\"/>d"},
      {"ab c <x id=\"1\"/>d", "a_b\xE2\x80\xBF"
                              "c c <x id=\"1\"/>d"},
      /* no-break and ideographic spaces separate */
      {"a b <x id=\"1\"/>c", "a\xC2\xA0"
                             "b\xE3\x80\x80<x id=\"1\"/>c"},
      /* each punctuation or symbol character is a token */
      {"a b c d <x id=\"1\"/>e", "a,\xE2\x80\x94% <x id=\"1\"/>e"},
  };
  for (size_t i = 0; i < sizeof alike / sizeof *alike; i++)
    EXPECT_LINE(alike[i][0], alike[i][1], .lines = 1, .lines_with_tags = 1,
                .tags = 1, .well_formed_lines = 1, .structure_match_lines = 1,
                .exact = 1, .interior = 1, .interior_exact = 1,
                .all_exact_lines = 1);
  /* Without the mark in \w the reference would have 4 tokens before x. */
  EXPECT_LINE("a b c d <x id=\"1\"/>e",
              "a\xCC\x81"
              "b c <x id=\"1\"/>d",
              .lines = 1, .lines_with_tags = 1, .tags = 1,
              .well_formed_lines = 1, .structure_match_lines = 1,
              .interior = 1);
}

static void test_content_f1(void) {
  /* Bags, not sets: {a, a, a} against {a, a, b}: 2*2/(3+3). */
  EXPECT_LINE("<g id=\"1\">a a a</g> b c", "a <g id=\"1\">a a b</g> c",
              .lines = 1, .lines_with_tags = 1, .tags = 1,
              .well_formed_lines = 1, .structure_match_lines = 1, .interior = 1,
              .content_f1_sum = 2.0 / 3.0, .content_pairs = 1);
  /* Empty against empty is 1; empty against something is 0. */
  EXPECT_LINE("a <g id=\"1\"></g>b", "a <g id=\"1\"></g>b", .lines = 1,
              .lines_with_tags = 1, .tags = 1, .well_formed_lines = 1,
              .structure_match_lines = 1, .exact = 1, .interior = 1,
              .interior_exact = 1, .all_exact_lines = 1, .content_f1_sum = 1.0,
              .content_pairs = 1);
  EXPECT_LINE("a <g id=\"1\"></g>b", "<g id=\"1\">a</g> b", .lines = 1,
              .lines_with_tags = 1, .tags = 1, .well_formed_lines = 1,
              .structure_match_lines = 1, .interior = 1, .content_pairs = 1);
}

/* Many lines accumulate; lines without tags count in lines only. */
static void test_accumulate(void) {
  xmt_evaluator *ev = xmt_evaluator_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  add(ev, ref1, ref1);
  add(ev, "<g id=\"1\">The cat sat</g> on <x id=\"2\"/>the mat.", ref1);
  add(ev, "No tags.", "No tags.");
  add(ev, NULL, ref1);
  add(ev, "<x id=\"9\"/>Tag added.", "Tag added.");
  const struct xmt_tag_metrics want = {.lines = 5,
                                       .lines_with_tags = 3,
                                       .tags = 6,
                                       .added = 1,
                                       .mutilated = 2,
                                       .well_formed_lines = 4,
                                       .structure_match_lines = 3,
                                       .exact = 3,
                                       .interior = 6,
                                       .interior_exact = 3,
                                       .all_exact_lines = 1,
                                       .content_f1_sum = 1.8,
                                       .content_pairs = 2};
  check_metrics(xmt_evaluator_metrics(ev), &want, __FILE__, __LINE__);
  xmt_evaluator_free(ev);
}

/* The counts by the kind of the reference tag: a pair, a placeholder and
 * lone bx/ex (partners on other lines), at the edges and inside. */
static void test_by_class(void) {
  xmt_evaluator *ev = xmt_evaluator_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  add(ev, "<bx id=\"1\"/>The cat sat<ex id=\"2\"/>.",
      "<bx id=\"1\"/>The cat sat.<ex id=\"2\"/>");
  add(ev, "<g id=\"1\">The cat</g> sat <x id=\"2\"/>on the mat.", ref1);
  add(ev, "A <bx id=\"3\"/>b c.", "A <bx id=\"3\"/>b c.");
  const struct xmt_tag_metrics *m = xmt_evaluator_metrics(ev);
  static const size_t want[3][4] = {
      {1, 1, 1, 1}, /* pair: tags, exact, interior, interior exact */
      {1, 0, 1, 0}, /* placeholder */
      {3, 2, 1, 1}, /* isolated */
  };
  for (int k = 0; k < 3; k++) {
    const struct xmt_tag_class_metrics *c = &m->by_class[k];
    const size_t got[4] = {c->tags, c->exact, c->interior, c->interior_exact};
    for (int f = 0; f < 4; f++) {
      if (got[f] != want[k][f])
        fprintf(stderr, "\nclass %d field %d: %zu, want %zu\n", k, f, got[f],
                want[k][f]);
      CU_ASSERT_EQUAL(got[f], want[k][f]);
    }
  }
  CU_ASSERT_EQUAL(m->tags, 5);
  CU_ASSERT_EQUAL(m->exact, 3);
  xmt_evaluator_free(ev);
}

static void test_bad_arguments(void) {
  xmt_evaluator *ev = xmt_evaluator_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  xmt_segment *seg = parse("a");
  CU_ASSERT_EQUAL(xmt_evaluator_add(NULL, seg, seg), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_evaluator_add(ev, seg, NULL), XMT_ERR_USAGE);
  /* A reference that is not well nested is refused, and not counted. */
  xmt_segment *bad = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(bad);
  put(bad, "x", XMT_TAG_CLOSE, "1");
  CU_ASSERT_EQUAL(xmt_evaluator_add(ev, seg, bad), XMT_ERR_INLINE);
  CU_ASSERT_EQUAL(xmt_evaluator_metrics(ev)->lines, 0);
  CU_ASSERT_PTR_NULL(xmt_evaluator_metrics(NULL));
  xmt_evaluator_free(NULL);
  xmt_segment_free(bad);
  xmt_segment_free(seg);
  xmt_evaluator_free(ev);
}

static CU_TestInfo metrics_tests[] = {
    {"perfect hypothesis", test_perfect},
    {"a tag shifted by a token", test_shifted},
    {"a pair with one wrong end", test_pair_one_wrong_end},
    {"dropped tags", test_dropped},
    {"added tags", test_added},
    {"changed ids", test_changed_id},
    {"badly nested pairs", test_badly_nested},
    {"NULL hypothesis is mutilated", test_mutilated},
    {"interior vs line start and end", test_interior},
    {"\\w+|[^\\w\\s] tokens", test_tokens},
    {"content F1", test_content_f1},
    {"lines accumulate", test_accumulate},
    {"counts by kind: pairs, placeholders, lone codes", test_by_class},
    {"bad arguments", test_bad_arguments},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"projector/metrics", NULL, NULL, NULL, NULL, metrics_tests},
    CU_SUITE_INFO_NULL,
};
