/* test_filter_html_stream.c -- a page read and written a piece at a time
 * (filter/html/stream.c): its units handed out as the pieces are cut, each
 * piece written as soon as its targets and those of every piece before it
 * are taken, in the page's order whatever order the targets come in, and
 * byte for byte what the page written whole would be. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "html_private.h"

#define BLOCKS 400

struct handed {
  size_t ids[2 * BLOCKS + 8];
  unsigned long lines[2 * BLOCKS + 8], columns[2 * BLOCKS + 8];
  size_t n;
  char source_language[16];
};

static xmt_status on_file(void *user, const struct xmt_xliff_file_info *info) {
  struct handed *h = user;
  snprintf(h->source_language, sizeof h->source_language, "%s",
           info->source_language);
  return XMT_OK;
}

static xmt_status on_unit(void *user, xmt_xliff_unit *u) {
  struct handed *h = user;
  if (h->n < sizeof h->ids / sizeof h->ids[0]) {
    h->lines[h->n] = xmt_xliff_unit_line(u);
    h->columns[h->n] = xmt_xliff_unit_column(u);
    h->ids[h->n++] = strtoul(xmt_xliff_unit_id(u), NULL, 10);
  }
  xmt_xliff_unit_free(u);
  return XMT_OK;
}

static int sink_buf(void *user, const char *bytes, size_t len) {
  return xmt_buf_append(user, bytes, len) != XMT_OK;
}

static const char *page_language(xmt_filter *f, const struct html_doc *doc,
                                 const char *path) {
  (void)f;
  (void)path;
  return doc->lang;
}

static void add(struct xmt_buf *b, const char *s) {
  CU_ASSERT_EQUAL_FATAL(xmt_buf_append(b, s, strlen(s)), XMT_OK);
}

/* Block i: a title (unit 2i + 1) and a paragraph (unit 2i + 2). Every
 * seventh paragraph and every fifth title are translated in want. */
static void make_page(struct xmt_buf *page, struct xmt_buf *want) {
  add(page, "<!DOCTYPE html>\n<html lang=\"en\"><body>\n");
  add(want, "<!DOCTYPE html>\n<html lang=\"fr\"><body>\n");
  char line[256];
  for (size_t i = 0; i < BLOCKS; i++) {
    snprintf(line, sizeof line,
             "<p>Block %zu has <b>bold</b> and <a title=\"t%zu\">a "
             "link</a>.</p>\n",
             i, i);
    add(page, line);
    if (i % 7 == 3)
      snprintf(line, sizeof line, "<p>Bloc %zu.</p>\n", i);
    else
      snprintf(line, sizeof line,
               "<p>Block %zu has <b>bold</b> and <a title=\"%s%zu\">a "
               "link</a>.</p>\n",
               i, i % 5 == 1 ? "titre " : "t", i);
    add(want, line);
  }
  add(page, "</body></html>\n");
  add(want, "</body></html>\n");
}

/* Takes the target of unit id (1-based) as make_page's want says. */
static void take(struct html_stream *s, size_t id) {
  size_t i = (id - 1) / 2;
  char text[64] = "";
  if (id % 2 == 0 && i % 7 == 3)
    snprintf(text, sizeof text, "Bloc %zu.", i);
  else if (id % 2 == 1 && i % 5 == 1)
    snprintf(text, sizeof text, "titre %zu", i);
  xmt_segment *seg = NULL;
  if (text[0] != '\0') {
    seg = xmt_segment_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
    CU_ASSERT_EQUAL(xmt_segment_append_valid_text(seg, text, strlen(text)),
                    XMT_OK);
  }
  CU_ASSERT_EQUAL(xmt_html_stream_take(s, id, NULL, seg), XMT_OK);
  xmt_segment_free(seg);
}

static void test_pieces_as_targets_come(void) {
  struct xmt_buf page = {0}, want = {0}, out = {0};
  make_page(&page, &want);
  struct xmt_error_store err = {0};
  struct html_doc doc;
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_doc_prepare(&doc, page.data, page.len, 0, "p.html", &err),
      XMT_OK);
  struct html_stream *s = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_html_stream_new(&s, &doc, "fr", sink_buf, &out),
                        XMT_OK);
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  struct handed h = {0};
  const struct xmt_unit_sink sink = {on_file, on_unit, &h, NULL};
  /* no -s: the page's own language, known at its root */
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_stream_units(s, f, "p.html", page_language, &sink), XMT_OK);
  CU_ASSERT_STRING_EQUAL(h.source_language, "en");
  CU_ASSERT_EQUAL_FATAL(h.n, 2 * BLOCKS);
  for (size_t k = 0; k < h.n; k++)
    CU_ASSERT_EQUAL(h.ids[k], k + 1);
  /* nothing is written before a target is taken */
  CU_ASSERT_EQUAL(out.len, 0);
  /* the first half in order: what is written is the page's start */
  for (size_t id = 1; id <= BLOCKS; id++)
    take(s, id);
  size_t written = out.len;
  CU_ASSERT(written > 0);
  CU_ASSERT(written < want.len);
  CU_ASSERT(memcmp(out.data, want.data, written) == 0);
  /* the rest backwards: nothing more until the first of them comes */
  for (size_t id = 2 * BLOCKS; id > BLOCKS + 1; id--)
    take(s, id);
  CU_ASSERT_EQUAL(out.len, written);
  take(s, BLOCKS + 1);
  CU_ASSERT_EQUAL(xmt_html_stream_finish(s, &err), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(out.len, want.len);
  CU_ASSERT(memcmp(out.data, want.data, want.len) == 0);
  xmt_html_stream_free(s);
  xmt_filter_free(f);
  xmt_html_doc_free(&doc);
  xmt_error_clear(&err);
  xmt_buf_free(&page);
  xmt_buf_free(&want);
  xmt_buf_free(&out);
}

/* A unit the stream never handed out is no unit of the page. */
static void test_unknown_unit(void) {
  static const char page[] = "<html lang=\"en\"><p>One.</p><p>Two.</p></html>";
  struct xmt_buf out = {0};
  struct xmt_error_store err = {0};
  struct html_doc doc;
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_doc_prepare(&doc, page, sizeof page - 1, 0, "p.html", &err),
      XMT_OK);
  struct html_stream *s = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_html_stream_new(&s, &doc, NULL, sink_buf, &out),
                        XMT_OK);
  xmt_filter *f = xmt_filter_new();
  struct handed h = {0};
  const struct xmt_unit_sink sink = {on_file, on_unit, &h, NULL};
  CU_ASSERT_EQUAL(xmt_html_stream_units(s, f, "p.html", page_language, &sink),
                  XMT_OK);
  CU_ASSERT_EQUAL(h.n, 2);
  CU_ASSERT_EQUAL(xmt_html_stream_take(s, 3, NULL, NULL), XMT_ERR_INTERNAL);
  CU_ASSERT_EQUAL(xmt_html_stream_take(s, 2, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL(out.len, 0); /* unit 1's piece is not done */
  CU_ASSERT_EQUAL(xmt_html_stream_take(s, 1, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_html_stream_finish(s, &err), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(out.len, sizeof page - 1);
  CU_ASSERT(memcmp(out.data, page, out.len) == 0);
  xmt_html_stream_free(s);
  xmt_filter_free(f);
  xmt_html_doc_free(&doc);
  xmt_error_clear(&err);
  xmt_buf_free(&out);
}

/* Where each unit starts, in characters, over pieces: 300 lines of
 * two-byte characters (more than a piece), then 50 units on one line. */
static void test_unit_places(void) {
  struct xmt_buf page = {0}, out = {0};
  add(&page, "<html lang=\"en\"><body>\n");
  char part[64];
  for (size_t i = 0; i < 300; i++) {
    snprintf(part, sizeof part, "<p>\xC3\xA9t\xC3\xA9 %zu</p>\n", i);
    add(&page, part);
  }
  unsigned long want_col[50], col = 1;
  for (size_t j = 0; j < 50; j++) {
    int n = snprintf(part, sizeof part, "<p>\xC3\xA9 %zu</p>", j);
    want_col[j] = col + 3;
    col += (unsigned long)n - 1; /* one character of two bytes */
    add(&page, part);
  }
  add(&page, "</body></html>\n");
  struct xmt_error_store err = {0};
  struct html_doc doc;
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_doc_prepare(&doc, page.data, page.len, 0, "p.html", &err),
      XMT_OK);
  struct html_stream *s = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_html_stream_new(&s, &doc, NULL, sink_buf, &out),
                        XMT_OK);
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  struct handed h = {0};
  const struct xmt_unit_sink sink = {on_file, on_unit, &h, NULL};
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_stream_units(s, f, "p.html", page_language, &sink), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(h.n, 350);
  for (size_t k = 0; k < h.n; k++) {
    unsigned long line = k < 300 ? k + 2 : 302;
    unsigned long column = k < 300 ? 4 : want_col[k - 300];
    if (h.lines[k] != line || h.columns[k] != column)
      fprintf(stderr, "\nunit %zu at %lu:%lu, not %lu:%lu\n", k + 1, h.lines[k],
              h.columns[k], line, column);
    CU_ASSERT_EQUAL(h.lines[k], line);
    CU_ASSERT_EQUAL(h.columns[k], column);
  }
  for (size_t id = 1; id <= h.n; id++)
    CU_ASSERT_EQUAL(xmt_html_stream_take(s, id, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_html_stream_finish(s, &err), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(out.len, page.len);
  CU_ASSERT(memcmp(out.data, page.data, page.len) == 0);
  xmt_html_stream_free(s);
  xmt_filter_free(f);
  xmt_html_doc_free(&doc);
  xmt_error_clear(&err);
  xmt_buf_free(&page);
  xmt_buf_free(&out);
}

static CU_TestInfo stream_tests[] = {
    {"pieces written as their targets come", test_pieces_as_targets_come},
    {"a unit the page does not have", test_unknown_unit},
    {"where units start", test_unit_places},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"html stream", NULL, NULL, NULL, NULL, stream_tests},
    CU_SUITE_INFO_NULL,
};
