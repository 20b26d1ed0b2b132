/* test_projector_segment.c -- the tagged-segment model and word counts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "projector_private.h"

#define STR_LEN(s) (s), (sizeof(s) - 1)

/* Appends a tag whose name is "g" and whose markup is empty. */
static void put(xmt_segment *seg, enum xmt_tag_kind kind, const char *id) {
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, kind, id, "g", NULL, 0), XMT_OK);
}

static void put_text(xmt_segment *seg, const char *text) {
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, text, strlen(text)), XMT_OK);
}

static void assert_tag(const xmt_segment *seg, size_t i, enum xmt_tag_kind kind,
                       size_t offset, const char *id, const char *name,
                       const char *markup) {
  struct xmt_tag tag;
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag(seg, i, &tag), XMT_OK);
  CU_ASSERT_EQUAL(tag.kind, kind);
  CU_ASSERT_EQUAL(tag.offset, offset);
  CU_ASSERT_STRING_EQUAL(tag.id, id);
  CU_ASSERT_STRING_EQUAL(tag.name, name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(tag.markup);
  XMT_ASSERT_BYTES_EQUAL(tag.markup, tag.markup_len, markup, strlen(markup));
}

static void assert_text(const xmt_segment *seg, const char *expected) {
  size_t len = 99;
  const char *text = xmt_segment_text(seg, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  XMT_ASSERT_BYTES_EQUAL(text, len, expected, strlen(expected));
  CU_ASSERT_EQUAL(text[len], '\0');
}

/* "Hello <g1>world</g1>!<x2/>" */
static void build_hello(xmt_segment *seg) {
  put_text(seg, "Hello ");
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", "g",
                                         STR_LEN("<g id=\"1\">")),
                  XMT_OK);
  put_text(seg, "world");
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "1", "g", STR_LEN("</g>")),
      XMT_OK);
  put_text(seg, "!");
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, "2", "x",
                                         STR_LEN("<x id=\"2\"/>")),
                  XMT_OK);
}

static void assert_hello(const xmt_segment *seg) {
  assert_text(seg, "Hello world!");
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 3);
  assert_tag(seg, 0, XMT_TAG_OPEN, 6, "1", "g", "<g id=\"1\">");
  assert_tag(seg, 1, XMT_TAG_CLOSE, 11, "1", "g", "</g>");
  assert_tag(seg, 2, XMT_TAG_PLACEHOLDER, 12, "2", "x", "<x id=\"2\"/>");
}

static void test_new_is_empty(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  assert_text(seg, "");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 0);
  struct xmt_tag tag;
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 0, &tag), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_OK);
  xmt_segment_free(seg);
  xmt_segment_free(NULL);
}

static void test_append_read_back(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  build_hello(seg);
  assert_hello(seg);
  struct xmt_tag tag;
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 3, &tag), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_OK);
  xmt_segment_free(seg);
}

static void test_tags_same_offset_keep_order(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  /* <b>bold</b><i>italic</i>: the close and the open share offset 4. */
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", "b", STR_LEN("<b>")),
      XMT_OK);
  put_text(seg, "bold");
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "1", "b", STR_LEN("</b>")),
      XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_OPEN, "2", "i", STR_LEN("<i>")),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, "3", "br",
                                         STR_LEN("<br>")),
                  XMT_OK);
  put_text(seg, "italic");
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "2", "i", STR_LEN("</i>")),
      XMT_OK);
  assert_text(seg, "bolditalic");
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 5);
  assert_tag(seg, 0, XMT_TAG_OPEN, 0, "1", "b", "<b>");
  assert_tag(seg, 1, XMT_TAG_CLOSE, 4, "1", "b", "</b>");
  assert_tag(seg, 2, XMT_TAG_OPEN, 4, "2", "i", "<i>");
  assert_tag(seg, 3, XMT_TAG_PLACEHOLDER, 4, "3", "br", "<br>");
  assert_tag(seg, 4, XMT_TAG_CLOSE, 10, "2", "i", "</i>");
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_OK);
  xmt_segment_free(seg);
}

static void test_markup_bytes(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  /* Markup is a byte string: it may hold a NUL and need not end with one;
   * only markup_len bytes are taken. */
  static const char markup[] = "<ph id=\"1\">a\0b</ph>trailing";
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, "1", "ph", markup, 19),
      XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_ISOLATED_OPEN, "", "bx", NULL, 0),
      XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 2);
  struct xmt_tag tag;
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag(seg, 0, &tag), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(tag.markup, tag.markup_len, "<ph id=\"1\">a\0b</ph>",
                         19);
  assert_tag(seg, 1, XMT_TAG_ISOLATED_OPEN, 0, "", "bx", "");
  xmt_segment_free(seg);
}

static void test_append_tag_usage(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  put_text(seg, "a");
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, (enum xmt_tag_kind)5, "1", "g", NULL, 0),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, (enum xmt_tag_kind)(-1), "1", "g", NULL, 0),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, NULL, "g", NULL, 0),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", NULL, NULL, 0),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", "g", NULL, 3),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 0);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, NULL, 1), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, NULL, 0), XMT_OK);
  assert_text(seg, "a");
  xmt_segment_free(seg);
}

static void test_invalid_utf8_refused(void) {
  static const char *const bad[] = {
      "ab\xC3",           /* truncated 2-byte sequence */
      "\xC0\xAF",         /* overlong '/' */
      "\xED\xA0\x80",     /* surrogate U+D800 */
      "\xF4\x90\x80\x80", /* above U+10FFFF */
      "x\xFFy",           /* never valid */
      "\x80",             /* stray continuation byte */
  };
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  put_text(seg, "Gr\303\274\303\237e ");
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CU_ASSERT_EQUAL(xmt_segment_append_text(seg, bad[i], strlen(bad[i])),
                    XMT_ERR_ENCODING);
  /* Refused text leaves the segment as it was. */
  assert_text(seg, "Gr\303\274\303\237e ");
  put_text(seg, "\xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x99\x82");
  assert_text(seg, "Gr\303\274\303\237e \xE6\x97\xA5\xE6\x9C\xAC "
                   "\xF0\x9F\x99\x82");
  /* Only len bytes are read: a valid prefix of invalid bytes is fine. */
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, "!\xFF", 1), XMT_OK);
  assert_text(seg, "Gr\303\274\303\237e \xE6\x97\xA5\xE6\x9C\xAC "
                   "\xF0\x9F\x99\x82!");
  xmt_segment_free(seg);
}

/* A segment's text, tags and tag strings start in one piece of memory
 * (a small segment's inside the segment): each part that outgrows its
 * room there moves out with what it holds, in any order. */
/* A segment made at its size in one allocation: tags put at offsets in
 * its whole text, then more than its room (parts move out, the rest stays
 * in the allocation); and the offsets put_tag refuses. */
static void test_new_sized_put_tag(void) {
  xmt_segment *seg = xmt_segment_new_sized(40, 16, 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  const char *text = "Hello world, and a text of forty bytes!!";
  CU_ASSERT_EQUAL(xmt_segment_append_valid_text(seg, text, 40), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_put_tag(seg, 6, XMT_TAG_OPEN, "1", 1, "g", 1,
                                      STR_LEN("<g id=\"1\">")),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_put_tag(seg, 11, XMT_TAG_CLOSE, "1", 1, "g", 1,
                                      STR_LEN("</g>")),
                  XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_put_tag(seg, 5, XMT_TAG_PLACEHOLDER, "2", 1, "x", 1, NULL, 0),
      XMT_ERR_USAGE); /* before the last tag */
  CU_ASSERT_EQUAL(xmt_segment_put_tag(seg, 41, XMT_TAG_PLACEHOLDER, "2", 1, "x",
                                      1, NULL, 0),
                  XMT_ERR_USAGE); /* past the text */
  CU_ASSERT_EQUAL(xmt_segment_put_tag(seg, 40, XMT_TAG_PLACEHOLDER, "22", 2,
                                      "bpt", 3, STR_LEN("<bpt id=\"22\"/>")),
                  XMT_OK); /* past the room: the pool and tags move out */
  put_text(seg, " and more");
  assert_text(seg, "Hello world, and a text of forty bytes!! and more");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 3);
  assert_tag(seg, 0, XMT_TAG_OPEN, 6, "1", "g", "<g id=\"1\">");
  assert_tag(seg, 1, XMT_TAG_CLOSE, 11, "1", "g", "</g>");
  assert_tag(seg, 2, XMT_TAG_PLACEHOLDER, 40, "22", "bpt", "<bpt id=\"22\"/>");
  xmt_segment *copy = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
  CU_ASSERT_EQUAL(xmt_segment_copy(copy, seg), XMT_OK);
  CU_ASSERT_TRUE(xmt_segment_equal(copy, seg));
  xmt_segment_free(copy);
  xmt_segment_free(seg);
  /* Small: in the segment's own room. */
  seg = xmt_segment_new_sized(3, 0, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  put_text(seg, "abc");
  assert_text(seg, "abc");
  xmt_segment_free(seg);
}

static void test_parts_outgrow_their_room(void) {
  static const char *const ids[] = {"1", "2", "3", "4", "5", "6"};
  /* Room made for exactly "Hello" and one tag, then more of each. */
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  CU_ASSERT_EQUAL(xmt_segment_reserve(seg, 5, 8, 1), XMT_OK);
  put_text(seg, "Hello");
  put(seg, XMT_TAG_OPEN, "1");
  put_text(seg, " world, and many more words than the room had bytes for");
  for (size_t i = 1; i < 6; i++)
    put(seg, XMT_TAG_PLACEHOLDER, ids[i]);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "1", "g",
                                         STR_LEN("</g-with-long-markup>")),
                  XMT_OK);
  assert_text(seg, "Hello world, and many more words than the room had bytes "
                   "for");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 7);
  assert_tag(seg, 0, XMT_TAG_OPEN, 5, "1", "g", "");
  for (size_t i = 1; i < 6; i++)
    assert_tag(seg, i, XMT_TAG_PLACEHOLDER, 60, ids[i], "g", "");
  assert_tag(seg, 6, XMT_TAG_CLOSE, 60, "1", "g", "</g-with-long-markup>");
  /* A gap: a space, then a tag, then text past the segment's own room. */
  xmt_segment *gap = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(gap);
  put_text(gap, " ");
  put(gap, XMT_TAG_PLACEHOLDER, "7");
  put(gap, XMT_TAG_PLACEHOLDER, "8");
  put_text(gap, "and then a sentence longer than sixty-four bytes, a long one");
  assert_text(gap,
              " and then a sentence longer than sixty-four bytes, a long one");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(gap), 2);
  assert_tag(gap, 0, XMT_TAG_PLACEHOLDER, 1, "7", "g", "");
  assert_tag(gap, 1, XMT_TAG_PLACEHOLDER, 1, "8", "g", "");
  /* Copies both ways, into fresh segments and over used ones. */
  xmt_segment *copy = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
  CU_ASSERT_EQUAL(xmt_segment_copy(copy, gap), XMT_OK);
  CU_ASSERT(xmt_segment_equal(copy, gap));
  CU_ASSERT_EQUAL(xmt_segment_copy(copy, seg), XMT_OK);
  CU_ASSERT(xmt_segment_equal(copy, seg));
  CU_ASSERT_EQUAL(xmt_segment_copy(gap, seg), XMT_OK);
  CU_ASSERT(xmt_segment_equal(gap, seg));
  /* Cleared, a segment keeps its memory and fills again. */
  xmt_segment_clear(seg);
  build_hello(seg);
  assert_hello(seg);
  xmt_segment_free(seg);
  xmt_segment_free(gap);
  xmt_segment_free(copy);
}

static void test_clear_then_reuse(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  build_hello(seg);
  const char *before = xmt_segment_text(seg, NULL);
  xmt_segment_clear(seg);
  assert_text(seg, "");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 0);
  struct xmt_tag tag;
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 0, &tag), XMT_ERR_USAGE);
  /* The buffers are kept: the text lives where it lived before. */
  build_hello(seg);
  CU_ASSERT_PTR_EQUAL(xmt_segment_text(seg, NULL), before);
  assert_hello(seg);
  xmt_segment_clear(seg);
  put_text(seg, "x");
  put(seg, XMT_TAG_PLACEHOLDER, "9");
  assert_text(seg, "x");
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 1);
  assert_tag(seg, 0, XMT_TAG_PLACEHOLDER, 1, "9", "g", "");
  xmt_segment_clear(NULL);
  xmt_segment_free(seg);
}

static void test_many_tags(void) {
  /* Enough tags to grow the tag array and the string pool many times. */
  enum { N = 2000 };
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  char id[32], markup[64];
  for (size_t i = 0; i < N; i++) {
    put_text(seg, "w ");
    snprintf(id, sizeof id, "t%zu", i);
    int n = snprintf(markup, sizeof markup, "<x id=\"t%zu\"/>", i);
    CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, id, "x",
                                           markup, (size_t)n),
                    XMT_OK);
  }
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), N);
  size_t len;
  xmt_segment_text(seg, &len);
  CU_ASSERT_EQUAL(len, 2 * N);
  for (size_t i = 0; i < N; i++) {
    snprintf(id, sizeof id, "t%zu", i);
    snprintf(markup, sizeof markup, "<x id=\"t%zu\"/>", i);
    assert_tag(seg, i, XMT_TAG_PLACEHOLDER, 2 * (i + 1), id, "x", markup);
  }
  /* Many OPENs take xmt_segment_check() past its on-stack scratch. */
  xmt_segment_clear(seg);
  for (size_t i = 0; i < N; i++) {
    snprintf(id, sizeof id, "%zu", i);
    put(seg, XMT_TAG_OPEN, id);
  }
  for (size_t i = N; i-- > 0;) {
    snprintf(id, sizeof id, "%zu", i);
    put(seg, XMT_TAG_CLOSE, id);
  }
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_OK);
  put(seg, XMT_TAG_OPEN, "1500");
  put(seg, XMT_TAG_CLOSE, "1500");
  size_t bad = 0;
  CU_ASSERT_EQUAL(xmt_segment_check(seg, &bad), XMT_ERR_INLINE);
  CU_ASSERT_EQUAL(bad, 2 * N);
  xmt_segment_free(seg);
}

static void test_copy(void) {
  xmt_segment *src = xmt_segment_new(), *dst = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
  build_hello(src);
  put_text(dst, "old text");
  put(dst, XMT_TAG_OPEN, "old");
  CU_ASSERT_EQUAL(xmt_segment_copy(dst, src), XMT_OK);
  assert_hello(dst);
  CU_ASSERT_TRUE(xmt_segment_equal(dst, src));
  /* The copy is independent of its source. */
  xmt_segment_clear(src);
  put_text(src, "other");
  assert_hello(dst);
  CU_ASSERT_EQUAL(xmt_segment_copy(dst, dst), XMT_OK);
  assert_hello(dst);
  /* Copying an empty segment empties the destination. */
  xmt_segment_clear(src);
  CU_ASSERT_EQUAL(xmt_segment_copy(dst, src), XMT_OK);
  assert_text(dst, "");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(dst), 0);
  xmt_segment_free(src);
  xmt_segment_free(dst);
}

/* Appending whole: the tags land past the text there was, their strings
 * past the strings there were, and an empty segment adds nothing. */
static void test_append_whole(void) {
  xmt_segment *src = xmt_segment_new(), *dst = xmt_segment_new(),
              *empty = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
  CU_ASSERT_PTR_NOT_NULL_FATAL(empty);
  build_hello(src);
  CU_ASSERT_EQUAL(xmt_segment_append_whole(dst, src), XMT_OK);
  assert_hello(dst);
  CU_ASSERT_EQUAL(xmt_segment_append_whole(dst, empty), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_whole(dst, src), XMT_OK);
  assert_text(dst, "Hello world!Hello world!");
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(dst), 6);
  assert_tag(dst, 2, XMT_TAG_PLACEHOLDER, 12, "2", "x", "<x id=\"2\"/>");
  assert_tag(dst, 3, XMT_TAG_OPEN, 18, "1", "g", "<g id=\"1\">");
  assert_tag(dst, 4, XMT_TAG_CLOSE, 23, "1", "g", "</g>");
  assert_tag(dst, 5, XMT_TAG_PLACEHOLDER, 24, "2", "x", "<x id=\"2\"/>");
  CU_ASSERT_EQUAL(xmt_segment_append_whole(dst, dst), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_append_whole(NULL, src), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_tag_count(dst), 6);
  /* Into an empty segment with tags only: the same as a copy. */
  xmt_segment_clear(src);
  put(src, XMT_TAG_OPEN, "7");
  put(src, XMT_TAG_CLOSE, "7");
  CU_ASSERT_EQUAL(xmt_segment_append_whole(empty, src), XMT_OK);
  CU_ASSERT_TRUE(xmt_segment_equal(empty, src));
  xmt_segment_free(src);
  xmt_segment_free(dst);
  xmt_segment_free(empty);
}

static void test_retag(void) {
  xmt_segment *src = xmt_segment_new(), *dst = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
  build_hello(src);
  put_text(dst, "stale");
  put(dst, XMT_TAG_CLOSE, "stale");
  /* "Bonjour <g1>le monde</g1> !<x2/>" */
  static const char fr[] = "Bonjour le monde !";
  const size_t offsets[] = {8, 16, 18};
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(fr), offsets), XMT_OK);
  assert_text(dst, fr);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(dst), 3);
  assert_tag(dst, 0, XMT_TAG_OPEN, 8, "1", "g", "<g id=\"1\">");
  assert_tag(dst, 1, XMT_TAG_CLOSE, 16, "1", "g", "</g>");
  assert_tag(dst, 2, XMT_TAG_PLACEHOLDER, 18, "2", "x", "<x id=\"2\"/>");
  assert_hello(src);

  /* Multi-byte text, equal offsets, offsets 0 and len. "Straße" is 7
   * bytes: "<g1></g1>Straße<x2/>". */
  static const char de[] = "Stra\303\237e";
  const size_t at_edges[] = {0, 0, 7};
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), at_edges), XMT_OK);
  assert_text(dst, de);
  assert_tag(dst, 0, XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">");
  assert_tag(dst, 1, XMT_TAG_CLOSE, 0, "1", "g", "</g>");
  assert_tag(dst, 2, XMT_TAG_PLACEHOLDER, 7, "2", "x", "<x id=\"2\"/>");
  xmt_segment_free(src);
  xmt_segment_free(dst);
}

static void test_retag_refused(void) {
  xmt_segment *src = xmt_segment_new(), *dst = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
  build_hello(src);
  static const char de[] = "Gr\303\274\303\237e"; /* ü at 2-3, ß at 4-5 */
  const size_t good[] = {0, 2, 7};
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), good), XMT_OK);

  const size_t decreasing[] = {4, 2, 7};
  const size_t inside_char[] = {0, 3, 7};
  const size_t past_end[] = {0, 2, 8};
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), decreasing),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), inside_char),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), past_end),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN("ab\377cdefg"), good),
                  XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN(de), NULL),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segment_retag(src, src, STR_LEN(de), good),
                  XMT_ERR_USAGE);
  /* A refused retag leaves both segments unchanged. */
  assert_hello(src);
  assert_text(dst, de);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(dst), 3);
  assert_tag(dst, 0, XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">");
  assert_tag(dst, 1, XMT_TAG_CLOSE, 2, "1", "g", "</g>");
  assert_tag(dst, 2, XMT_TAG_PLACEHOLDER, 7, "2", "x", "<x id=\"2\"/>");

  /* A source without tags needs no offsets. */
  xmt_segment_clear(src);
  CU_ASSERT_EQUAL(xmt_segment_retag(dst, src, STR_LEN("plain"), NULL), XMT_OK);
  assert_text(dst, "plain");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(dst), 0);
  xmt_segment_free(src);
  xmt_segment_free(dst);
}

/* Builds a segment from a pattern: "<a" opens a, ">a" closes a, "[a" and
 * "]a" are isolated open/close, "*a" a placeholder, any other character
 * is text. Ids are one character. */
static xmt_segment *from_pattern(const char *pattern) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  for (const char *p = pattern; *p != '\0'; p++) {
    char id[2] = {p[1], '\0'};
    enum xmt_tag_kind kind;
    switch (*p) {
    case '<':
      kind = XMT_TAG_OPEN;
      break;
    case '>':
      kind = XMT_TAG_CLOSE;
      break;
    case '[':
      kind = XMT_TAG_ISOLATED_OPEN;
      break;
    case ']':
      kind = XMT_TAG_ISOLATED_CLOSE;
      break;
    case '*':
      kind = XMT_TAG_PLACEHOLDER;
      break;
    default:
      CU_ASSERT_EQUAL(xmt_segment_append_text(seg, p, 1), XMT_OK);
      continue;
    }
    CU_ASSERT_FATAL(p[1] != '\0');
    put(seg, kind, id);
    p++;
  }
  return seg;
}

/* XMT_OK when pattern checks clean, else XMT_ERR_INLINE and expected_bad
 * must be the reported index. */
static void assert_check(const char *pattern, xmt_status expected,
                         size_t expected_bad) {
  xmt_segment *seg = from_pattern(pattern);
  size_t bad = 12345;
  xmt_status st = xmt_segment_check(seg, &bad);
  CU_ASSERT_EQUAL(st, expected);
  if (expected != XMT_OK)
    CU_ASSERT_EQUAL(bad, expected_bad);
  if (st != expected || (expected != XMT_OK && bad != expected_bad))
    fprintf(stderr, "\n  check(\"%s\") = %d, bad %zu\n", pattern, (int)st, bad);
  xmt_segment_free(seg);
}

static void test_check_good_nesting(void) {
  assert_check("", XMT_OK, 0);
  assert_check("plain text", XMT_OK, 0);
  assert_check("<aA<bB>bC>a<cD>c", XMT_OK, 0);
  assert_check("<a<b<c>c>b>a", XMT_OK, 0);
  assert_check("<a>a<b>b", XMT_OK, 0);
  assert_check("x<a*1y*2>az", XMT_OK, 0);
}

static void test_check_crossing(void) {
  /* <a><b></a></b>: the close of a is met while b is open. */
  assert_check("<a<b>a>b", XMT_ERR_INLINE, 2);
  assert_check("x<ay<bz>a>b", XMT_ERR_INLINE, 2);
  assert_check("<a<b<c>b>c>a", XMT_ERR_INLINE, 3);
}

static void test_check_unclosed(void) {
  assert_check("<a", XMT_ERR_INLINE, 0);
  assert_check("<a<b>b", XMT_ERR_INLINE, 0);
  assert_check("<a>a<b", XMT_ERR_INLINE, 2);
  /* Several unclosed: the earliest. */
  assert_check("*1<a>a<b<c", XMT_ERR_INLINE, 3);
}

static void test_check_stray_close(void) {
  assert_check(">a", XMT_ERR_INLINE, 0);
  assert_check("<a>a>a", XMT_ERR_INLINE, 2);
  assert_check("<a>b>a", XMT_ERR_INLINE, 1);
  /* An isolated open does not pair with a CLOSE. */
  assert_check("[a>a", XMT_ERR_INLINE, 1);
}

static void test_check_reused_id(void) {
  assert_check("<a>a<a>a", XMT_ERR_INLINE, 2);
  assert_check("<a<a>a>a", XMT_ERR_INLINE, 1);
  assert_check("<a>a<b>b<c>c<b>b", XMT_ERR_INLINE, 6);
}

static void test_check_isolated_free(void) {
  /* Isolated tags and placeholders neither pair nor reserve ids. */
  assert_check("[a]a]a[a", XMT_OK, 0);
  assert_check("]1[2", XMT_OK, 0);
  assert_check("*a*a<a]a*a>a[a", XMT_OK, 0);
  assert_check("[a<b]a>b", XMT_OK, 0);
  /* bad_tag may be NULL. */
  xmt_segment *seg = from_pattern("<a");
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_ERR_INLINE);
  xmt_segment_free(seg);
}

/* 100,000 pairs nested, then as many side by side: check and pairs in
 * time linear (or n log n) in the depth. */
static void test_deep_nesting(void) {
  enum { N = 100000 };
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  char id[16];
  for (int i = 0; i < N; i++) {
    snprintf(id, sizeof id, "%d", i);
    put(seg, XMT_TAG_OPEN, id);
  }
  put_text(seg, "deep");
  for (int i = N; i-- > 0;) {
    snprintf(id, sizeof id, "%d", i);
    put(seg, XMT_TAG_CLOSE, id);
  }
  for (int i = N; i < 2 * N; i++) {
    snprintf(id, sizeof id, "%d", i);
    put(seg, XMT_TAG_OPEN, id);
    put(seg, XMT_TAG_PLACEHOLDER, "x");
    put(seg, XMT_TAG_CLOSE, id);
  }
  size_t bad = 7;
  CU_ASSERT_EQUAL(xmt_segment_check(seg, &bad), XMT_OK);
  CU_ASSERT_EQUAL(bad, 7);
  size_t n = xmt_segment_tag_count(seg);
  size_t *partner = malloc(n * sizeof *partner);
  CU_ASSERT_PTR_NOT_NULL_FATAL(partner);
  xmt_segment_pairs(seg, partner);
  size_t wrong = 0;
  for (size_t i = 0; i < 2 * (size_t)N; i++)
    wrong += partner[i] != 2 * (size_t)N - 1 - i;
  for (size_t i = 2 * (size_t)N; i < n; i += 3)
    wrong += partner[i] != i + 2 || partner[i + 1] != SIZE_MAX ||
             partner[i + 2] != i;
  CU_ASSERT_EQUAL(wrong, 0);
  free(partner);
  xmt_segment_free(seg);
}

/* A CLOSE ends the nearest OPEN left open, whatever the ids; ends without
 * a partner get none. */
static void test_pairs(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  put(seg, XMT_TAG_CLOSE, "0");          /* 0: stray */
  put(seg, XMT_TAG_OPEN, "1");           /* 1 */
  put(seg, XMT_TAG_ISOLATED_OPEN, "b");  /* 2 */
  put(seg, XMT_TAG_OPEN, "2");           /* 3 */
  put(seg, XMT_TAG_CLOSE, "1");          /* 4: ends 3 */
  put(seg, XMT_TAG_PLACEHOLDER, "x");    /* 5 */
  put(seg, XMT_TAG_OPEN, "3");           /* 6: unclosed */
  put(seg, XMT_TAG_ISOLATED_CLOSE, "b"); /* 7 */
  put(seg, XMT_TAG_CLOSE, "2");          /* 8: ends 6 */
  put(seg, XMT_TAG_OPEN, "4");           /* 9: unclosed, as is 1 */
  static const size_t want[] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, 4, 3,
                                SIZE_MAX, 8,        SIZE_MAX, 6, SIZE_MAX};
  size_t got[10];
  xmt_segment_pairs(seg, got);
  for (size_t i = 0; i < 10; i++)
    CU_ASSERT_EQUAL(got[i], want[i]);
  xmt_segment_free(seg);
}

static void test_equal(void) {
  xmt_segment *a = xmt_segment_new(), *b = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_TRUE(xmt_segment_equal(a, b));
  build_hello(a);
  CU_ASSERT_FALSE(xmt_segment_equal(a, b));
  build_hello(b);
  CU_ASSERT_TRUE(xmt_segment_equal(a, b));
  CU_ASSERT_TRUE(xmt_segment_equal(a, a));

  /* Same tags, different text. */
  xmt_segment_clear(b);
  put_text(b, "Hello ");
  CU_ASSERT_EQUAL(xmt_segment_append_tag(b, XMT_TAG_OPEN, "1", "g",
                                         STR_LEN("<g id=\"1\">")),
                  XMT_OK);
  put_text(b, "World");
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(b, XMT_TAG_CLOSE, "1", "g", STR_LEN("</g>")),
      XMT_OK);
  put_text(b, "!");
  CU_ASSERT_EQUAL(xmt_segment_append_tag(b, XMT_TAG_PLACEHOLDER, "2", "x",
                                         STR_LEN("<x id=\"2\"/>")),
                  XMT_OK);
  CU_ASSERT_FALSE(xmt_segment_equal(a, b));

  /* One field of the last tag differs at a time. */
  struct {
    enum xmt_tag_kind kind;
    const char *id, *name, *markup;
  } last[] = {
      {XMT_TAG_ISOLATED_OPEN, "2", "x", "<x id=\"2\"/>"},
      {XMT_TAG_PLACEHOLDER, "3", "x", "<x id=\"2\"/>"},
      {XMT_TAG_PLACEHOLDER, "2", "ph", "<x id=\"2\"/>"},
      {XMT_TAG_PLACEHOLDER, "2", "x", "<x id=\"3\"/>"},
      {XMT_TAG_PLACEHOLDER, "2", "x", "<x id=\"2\" />"},
      {XMT_TAG_PLACEHOLDER, "2", "x", "<x id=\"2\"/>"},
  };
  for (size_t i = 0; i < sizeof last / sizeof last[0]; i++) {
    xmt_segment_clear(b);
    put_text(b, "Hello ");
    CU_ASSERT_EQUAL(xmt_segment_append_tag(b, XMT_TAG_OPEN, "1", "g",
                                           STR_LEN("<g id=\"1\">")),
                    XMT_OK);
    put_text(b, "world");
    CU_ASSERT_EQUAL(
        xmt_segment_append_tag(b, XMT_TAG_CLOSE, "1", "g", STR_LEN("</g>")),
        XMT_OK);
    put_text(b, "!");
    CU_ASSERT_EQUAL(xmt_segment_append_tag(b, last[i].kind, last[i].id,
                                           last[i].name, last[i].markup,
                                           strlen(last[i].markup)),
                    XMT_OK);
    /* Only the last row is identical to build_hello(). */
    CU_ASSERT_EQUAL(xmt_segment_equal(a, b),
                    i + 1 == sizeof last / sizeof last[0]);
  }

  /* Same text and tags, one tag at another offset. */
  xmt_segment_clear(b);
  const size_t moved[] = {6, 11, 11};
  CU_ASSERT_EQUAL(xmt_segment_retag(b, a, STR_LEN("Hello world!"), moved),
                  XMT_OK);
  CU_ASSERT_FALSE(xmt_segment_equal(a, b));
  const size_t same[] = {6, 11, 12};
  CU_ASSERT_EQUAL(xmt_segment_retag(b, a, STR_LEN("Hello world!"), same),
                  XMT_OK);
  CU_ASSERT_TRUE(xmt_segment_equal(a, b));
  xmt_segment_free(a);
  xmt_segment_free(b);
}

static void test_count_words_english(void) {
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("This is a test.")), 4);
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("  This   is a test!!  ")), 4);
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("don't stop")), 2);
  /* Only len bytes are read. */
  CU_ASSERT_EQUAL(xmt_count_words("one two three", 7), 2);
}

static void test_count_words_numbers_punctuation(void) {
  /* Article, 3, 1, point, a. */
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("Article 3(1), point (a).")), 5);
  /* ICU keeps a number with its separators as one word. */
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("EUR 1,234.56 in 2024")), 4);
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("... -- !? ()")), 0);
}

static void test_count_words_german(void) {
  CU_ASSERT_EQUAL(
      xmt_count_words(STR_LEN("Die Stra\303\237e ist sch\303\266n.")), 4);
  CU_ASSERT_EQUAL(
      xmt_count_words(STR_LEN("Donaudampfschifffahrtsgesellschaft")), 1);
}

static void test_count_words_japanese(void) {
  /* これはテストです。 -- no spaces; ICU's dictionary splits it. */
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN(
                      "\xE3\x81\x93\xE3\x82\x8C\xE3\x81\xAF\xE3\x83\x86\xE3"
                      "\x82\xB9\xE3\x83\x88\xE3\x81\xA7\xE3\x81\x99\xE3\x80"
                      "\x82")),
                  4);
}

static void test_count_words_empty(void) {
  CU_ASSERT_EQUAL(xmt_count_words("", 0), 0);
  CU_ASSERT_EQUAL(xmt_count_words(NULL, 0), 0);
  CU_ASSERT_EQUAL(xmt_count_words("word", 0), 0);
  CU_ASSERT_EQUAL(xmt_count_words(STR_LEN("   ")), 0);
}

static CU_TestInfo segment_tests[] = {
    {"new segment is empty", test_new_is_empty},
    {"append then read back", test_append_read_back},
    {"tags at one offset keep order", test_tags_same_offset_keep_order},
    {"markup is bytes", test_markup_bytes},
    {"append_tag refuses bad arguments", test_append_tag_usage},
    {"invalid UTF-8 refused", test_invalid_utf8_refused},
    {"clear then reuse", test_clear_then_reuse},
    {"parts outgrow their room", test_parts_outgrow_their_room},
    {"new_sized and put_tag", test_new_sized_put_tag},
    {"many tags", test_many_tags},
    {"copy", test_copy},
    {"append whole", test_append_whole},
    {"retag", test_retag},
    {"retag refuses bad offsets", test_retag_refused},
    {"check: good nesting", test_check_good_nesting},
    {"check: crossing pairs", test_check_crossing},
    {"check: unclosed open", test_check_unclosed},
    {"check: stray close", test_check_stray_close},
    {"check: reused id", test_check_reused_id},
    {"check and pairs: deep nesting", test_deep_nesting},
    {"pairs", test_pairs},
    {"check: isolated tags are free", test_check_isolated_free},
    {"equal", test_equal},
    {"count_words: English", test_count_words_english},
    {"count_words: numbers, punctuation", test_count_words_numbers_punctuation},
    {"count_words: German", test_count_words_german},
    {"count_words: Japanese", test_count_words_japanese},
    {"count_words: empty", test_count_words_empty},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"projector/segment", NULL, NULL, NULL, NULL, segment_tests},
    CU_SUITE_INFO_NULL,
};
