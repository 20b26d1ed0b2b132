/* test_filter_memory.c -- translating what a program holds in memory:
 * tagged segments (xmt_filter_translate_segments) and documents
 * (xmt_filter_translate_buffer), through the same run as files, with
 * exact results from the identity and pseudo backends. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "xliffmt.h"

static xmt_filter *filter_for(const char *backend) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_filter_set_backend(f, xmt_backend_builtin(backend), NULL, NULL),
      XMT_OK);
  return f;
}

static xmt_segment *parse_generic(const char *markup) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  CU_ASSERT_EQUAL(
      xmt_xliff_inline_parse_generic(seg, markup, strlen(markup), NULL),
      XMT_OK);
  return seg;
}

/* The segment as markup: its text and each code's own markup. */
static char *markup_of(const xmt_segment *seg) {
  size_t len, at = 0;
  const char *text = xmt_segment_text(seg, &len);
  char *out = calloc(1, 4096);
  size_t n = 0;
  for (size_t k = 0; k <= xmt_segment_tag_count(seg); k++) {
    struct xmt_tag t = {0};
    size_t upto = len;
    if (k < xmt_segment_tag_count(seg)) {
      CU_ASSERT_EQUAL(xmt_segment_tag(seg, k, &t), XMT_OK);
      upto = t.offset;
    }
    n += (size_t)snprintf(out + n, 4096 - n, "%.*s", (int)(upto - at),
                          text + at);
    at = upto;
    if (k < xmt_segment_tag_count(seg))
      n += (size_t)snprintf(out + n, 4096 - n, "%.*s", (int)t.markup_len,
                            t.markup);
  }
  return out;
}

static void test_segments_identity(void) {
  xmt_filter *f = filter_for("identity");
  const char *in[] = {"Hello <b>world</b><br/>!", "No codes here.",
                      "<a href=\"x\">Two</a> <i>pairs</i>"};
  xmt_segment *src[3], *tgt[3];
  for (int i = 0; i < 3; i++)
    src[i] = parse_generic(in[i]);
  CU_ASSERT_EQUAL_FATAL(
      xmt_filter_translate_segments(f, (const xmt_segment *const *)src, 3, tgt),
      XMT_OK);
  for (int i = 0; i < 3; i++) {
    CU_ASSERT_PTR_NOT_NULL_FATAL(tgt[i]);
    char *got = markup_of(tgt[i]);
    CU_ASSERT_STRING_EQUAL(got, in[i]);
    free(got);
    /* the caller's own codes, ids and names included */
    struct xmt_tag a, b;
    for (size_t k = 0; k < xmt_segment_tag_count(src[i]); k++) {
      CU_ASSERT_EQUAL(xmt_segment_tag(src[i], k, &a), XMT_OK);
      CU_ASSERT_EQUAL(xmt_segment_tag(tgt[i], k, &b), XMT_OK);
      CU_ASSERT_STRING_EQUAL(a.id, b.id);
      CU_ASSERT_STRING_EQUAL(a.name, b.name);
    }
    xmt_segment_free(src[i]);
    xmt_segment_free(tgt[i]);
  }
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->units, 3);
  xmt_filter_free(f);
}

/* pseudo reorders words and reports exact links: the codes follow their
 * words, as they do in a page (test_cli_formats.sh). */
static void test_segments_pseudo(void) {
  xmt_filter *f = filter_for("pseudo");
  xmt_segment *src = parse_generic("Hello <b>world</b>."), *tgt = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_filter_translate_segments(
                            f, (const xmt_segment *const *)&src, 1, &tgt),
                        XMT_OK);
  char *got = markup_of(tgt);
  CU_ASSERT_STRING_EQUAL(got,
                         "[<b>w\xc3\xb3rld.</b> H\xc3\xa9ll\xc3\xb3 ~~~~]");
  free(got);
  xmt_segment_free(src);
  xmt_segment_free(tgt);
  xmt_filter_free(f);
}

static void test_segments_refused(void) {
  xmt_filter *f = filter_for("identity");
  xmt_segment *bad = xmt_segment_new(), *tgt = (xmt_segment *)1;
  CU_ASSERT_EQUAL(xmt_segment_append_tag(bad, XMT_TAG_OPEN, "1", "b", "<b>", 3),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(bad, "open", 4), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_translate_segments(
                      f, (const xmt_segment *const *)&bad, 1, &tgt),
                  XMT_ERR_USAGE);
  CU_ASSERT_PTR_NULL(tgt);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->message, "well nested"));
  xmt_segment *none = NULL;
  CU_ASSERT_EQUAL(xmt_filter_translate_segments(
                      f, (const xmt_segment *const *)&none, 1, &tgt),
                  XMT_ERR_USAGE);
  xmt_filter_set_languages(f, NULL, "es");
  xmt_segment *ok = parse_generic("Text.");
  CU_ASSERT_EQUAL(xmt_filter_translate_segments(
                      f, (const xmt_segment *const *)&ok, 1, &tgt),
                  XMT_ERR_USAGE);
  xmt_segment_free(ok);
  xmt_segment_free(bad);
  xmt_filter_free(f);
}

/* An engine that answers nothing: every segment is left untranslated,
 * NULL, and the call says so. */
static void test_segments_engine_fails(void) {
  xmt_filter *f = xmt_filter_new();
  xmt_filter_set_languages(f, "en", "es");
  xmt_filter_set_backend(f, xmt_backend_builtin("cmd"), NULL, "exit 3");
  xmt_segment *src = parse_generic("Hello <b>world</b>."), *tgt = NULL;
  xmt_status st = xmt_filter_translate_segments(
      f, (const xmt_segment *const *)&src, 1, &tgt);
  CU_ASSERT_EQUAL(st, XMT_ERR_PARTIAL);
  CU_ASSERT_PTR_NULL(tgt);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->failed_segments, 1);
  xmt_segment_free(src);
  xmt_filter_free(f);
}

static void test_buffer_html(void) {
  xmt_filter *f = filter_for("pseudo");
  const char *page = "<p>Hello <b>world</b>.</p>\n";
  char *out = NULL;
  size_t len = 0;
  CU_ASSERT_EQUAL_FATAL(xmt_filter_translate_buffer(f, XMT_FORMAT_HTML, NULL,
                                                    page, strlen(page), &out,
                                                    &len),
                        XMT_OK);
  CU_ASSERT_STRING_EQUAL(
      out, "<p>[<b>w\xc3\xb3rld.</b> H\xc3\xa9ll\xc3\xb3 ~~~~]</p>\n");
  CU_ASSERT_EQUAL(len, strlen(out));
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->bytes_in, strlen(page));
  free(out);
  /* a broken page is named as the caller named it, and gives nothing */
  const char *latin1 = "<meta charset=\"utf-8\"><p>caf\xe9</p>";
  CU_ASSERT_EQUAL(xmt_filter_translate_buffer(f, XMT_FORMAT_HTML, "req-7",
                                              latin1, strlen(latin1), &out,
                                              &len),
                  XMT_ERR_ENCODING);
  CU_ASSERT_PTR_NULL(out);
  CU_ASSERT_PTR_NOT_NULL_FATAL(xmt_filter_error(f)->file);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->file, "req-7");
  CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 1);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->column, 29);
  xmt_filter_free(f);
}

/* The same document in memory and on disk: the same bytes out. */
static void test_buffer_xliff(void) {
  xmt_filter *f = filter_for("pseudo");
  const char *path = xmt_test_fixture_path("xliff11-odf2xliff.xlf");
  FILE *fp = fopen(path, "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  char in[65536];
  size_t n = fread(in, 1, sizeof in, fp);
  fclose(fp);
  char *out = NULL;
  size_t len = 0;
  CU_ASSERT_EQUAL_FATAL(
      xmt_filter_translate_buffer(f, XMT_FORMAT_XLIFF, path, in, n, &out, &len),
      XMT_OK);
  char tmp[] = "memory-test-XXXXXX";
  int fd = mkstemp(tmp);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, path, tmp), XMT_OK);
  fp = fopen(tmp, "rb"); /* the file the run wrote, not the one made here */
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  char *file = calloc(1, len + 2);
  size_t m = fread(file, 1, len + 1, fp);
  fclose(fp);
  remove(tmp);
  CU_ASSERT_EQUAL(m, len);
  CU_ASSERT(memcmp(file, out, len) == 0);
  free(file);
  free(out);
  /* malformed XML: an error that names the document, no output */
  out = (char *)1;
  CU_ASSERT_EQUAL(xmt_filter_translate_buffer(f, XMT_FORMAT_XLIFF, "req.xlf",
                                              "<xliff", 6, &out, &len),
                  XMT_ERR_XML);
  CU_ASSERT_PTR_NULL(out);
  CU_ASSERT_PTR_NOT_NULL_FATAL(xmt_filter_error(f)->file);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->file, "req.xlf");
  xmt_filter_free(f);
}

static CU_TestInfo memory_tests[] = {
    {"segments: identity keeps the caller's codes", test_segments_identity},
    {"segments: codes follow their words", test_segments_pseudo},
    {"segments: refused input", test_segments_refused},
    {"segments: an engine that fails", test_segments_engine_fails},
    {"buffer: an HTML fragment", test_buffer_html},
    {"buffer: XLIFF in memory as on disk", test_buffer_xliff},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"memory", NULL, NULL, NULL, NULL, memory_tests},
    CU_SUITE_INFO_NULL,
};
