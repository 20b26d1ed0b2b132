/* test_projector_han.c -- the projector's rule for runs of ideographs
 * (project_words.c): a pair whose edge the links put inside a run that
 * ICU cut into words takes the run whole, unless a word of the run
 * translates a source word outside the pair. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "xmt_projector.h"

/* Projects "<g1>" around source bytes [open, close) of src onto tgt with
 * the Pharaoh links, over xliffmt's word tokens; returns the target with
 * the pair written as [ and ]. */
static const char *project_pair(const char *src, size_t open, size_t close,
                                const char *tgt, const char *links) {
  static char buf[256];
  xmt_segment *s = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(s && out && st && tt && al);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src, open), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(s, XMT_TAG_OPEN, "1", "g", "<g id=\"1\">", 10),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src + open, close - open), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(s, XMT_TAG_CLOSE, "1", "g", "</g>", 4),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(s, src + close, strlen(src + close)),
                  XMT_OK);
  size_t slen;
  const char *text = xmt_segment_text(s, &slen);
  CU_ASSERT_EQUAL(xmt_tokenize(st, text, slen, XMT_TOKENIZE_DEFAULT), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokenize(tt, tgt, strlen(tgt), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_alignment_parse(al, links, strlen(links),
                                            xmt_tokens_count(st),
                                            xmt_tokens_count(tt), NULL),
                        XMT_OK);
  CU_ASSERT_EQUAL_FATAL(
      xmt_project(out, s, st, tgt, strlen(tgt), tt, al, XMT_RULE_MINMAX),
      XMT_OK);
  struct xmt_tag open_tag, close_tag;
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(out), 2);
  CU_ASSERT_EQUAL(xmt_segment_tag(out, 0, &open_tag), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_tag(out, 1, &close_tag), XMT_OK);
  snprintf(buf, sizeof buf, "%.*s[%.*s]%s", (int)open_tag.offset, tgt,
           (int)(close_tag.offset - open_tag.offset), tgt + open_tag.offset,
           tgt + close_tag.offset);
  xmt_segment_free(s);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
  return buf;
}

#define EXPECT(got, want)                                                      \
  do {                                                                         \
    const char *got_ = (got);                                                  \
    if (strcmp(got_, (want)) != 0)                                             \
      fprintf(stderr, "\nline %d: got %s\n", __LINE__, got_);                  \
    CU_ASSERT_STRING_EQUAL(got_, (want));                                      \
  } while (0)

/* "cut OPTION... [FILE]..." -> "cut 选项... [文件列表]...": tokens cut 选项
 * . . . [ 文件 列表 ] . . .; FILE (source token 6) linked to 文件 (target
 * token 6) alone. */
static void test_run_taken_whole(void) {
  static const char src[] = "cut OPTION... [FILE]...";
  static const char tgt[] = "cut \xE9\x80\x89\xE9\xA1\xB9... "
                            "[\xE6\x96\x87\xE4\xBB\xB6\xE5\x88\x97\xE8\xA1\xA8"
                            "]...";
  EXPECT(project_pair(src, 15, 19, tgt, "0-0 1-1 6-6"),
         "cut \xE9\x80\x89\xE9\xA1\xB9... "
         "[[\xE6\x96\x87\xE4\xBB\xB6\xE5\x88\x97\xE8\xA1\xA8]]...");
  /* the run's first word left out by the links: taken too */
  EXPECT(project_pair(src, 15, 19, tgt, "0-0 1-1 6-7"),
         "cut \xE9\x80\x89\xE9\xA1\xB9... "
         "[[\xE6\x96\x87\xE4\xBB\xB6\xE5\x88\x97\xE8\xA1\xA8]]...");
}

/* "see FILE name" -> "见文件的名称" (见 文件 的 名称): 名称 translates
 * "name", outside the pair, so the pair keeps 文件 alone. */
static void test_run_kept_short(void) {
  static const char tgt[] = "\xE8\xA7\x81\xE6\x96\x87\xE4\xBB\xB6\xE7\x9A\x84"
                            "\xE5\x90\x8D\xE7\xA7\xB0";
  EXPECT(project_pair("see FILE name", 4, 8, tgt, "0-0 1-1 2-3"),
         "\xE8\xA7\x81[\xE6\x96\x87\xE4\xBB\xB6]\xE7\x9A\x84"
         "\xE5\x90\x8D\xE7\xA7\xB0");
}

/* Kana are not ideographs: "ファイルを" keeps its particle out. */
static void test_kana_apart(void) {
  static const char tgt[] = "\xE3\x83\x95\xE3\x82\xA1\xE3\x82\xA4\xE3\x83\xAB"
                            "\xE3\x82\x92\xE8\xAA\xAD\xE3\x82\x80";
  const char *got = project_pair("read FILE", 5, 9, tgt, "1-0 0-2");
  CU_ASSERT_PTR_NOT_NULL(strstr(got, "\xE3\x83\xAB]")); /* ...ル] */
}

static CU_TestInfo han_tests[] = {
    {"a run of ideographs taken whole", test_run_taken_whole},
    {"not over a word translating another", test_run_kept_short},
    {"kana apart", test_kana_apart},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"han runs", NULL, NULL, NULL, NULL, han_tests},
    CU_SUITE_INFO_NULL,
};
