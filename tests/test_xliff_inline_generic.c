/* test_xliff_inline_generic.c -- generic XML/HTML inline markup to tagged
 * segments: any element names, pairs and placeholders, keys, decoded text,
 * exact markup, rendering back, malformed snippets. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "want_tags.h"
#include "xliff_private.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static xmt_segment *parse_ok(const char *markup) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  unsigned long column = 0;
  xmt_status st =
      xmt_xliff_inline_parse_generic(seg, markup, strlen(markup), &column);
  if (st != XMT_OK)
    fprintf(stderr, "\nparse of «%s»: %s at column %lu\n", markup,
            xmt_strerror(st), column);
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_check(seg, NULL), XMT_OK);
  return seg;
}

static void assert_parse(const char *markup, const char *text,
                         const struct xmt_want_tag *want, size_t n) {
  xmt_segment *seg = parse_ok(markup);
  xmt_assert_tags(seg, text, want, n);
  xmt_segment_free(seg);
}

static void assert_malformed(const char *markup, unsigned long want_column) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  unsigned long column = 0;
  xmt_status st =
      xmt_xliff_inline_parse_generic(seg, markup, strlen(markup), &column);
  if (st != XMT_ERR_XML || column != want_column)
    fprintf(stderr, "\n«%s»: status %d column %lu, want %d column %lu\n",
            markup, (int)st, column, (int)XMT_ERR_XML, want_column);
  CU_ASSERT_EQUAL(st, XMT_ERR_XML);
  CU_ASSERT_EQUAL(column, want_column);
  xmt_segment_free(seg);
}

static void test_plain_text(void) {
  assert_parse("", "", NULL, 0);
  assert_parse("Hello, world.", "Hello, world.", NULL, 0);
  assert_parse("Stra\xC3\x9F"
               "e \xE6\x97\xA5",
               "Stra\xC3\x9F"
               "e \xE6\x97\xA5",
               NULL, 0);
}

static void test_pairs_and_placeholders(void) {
  static const struct xmt_want_tag html[] = {
      {XMT_TAG_OPEN, 2, "b#1", "b", "<b>"},
      {XMT_TAG_CLOSE, 6, "b#1", "b", "</b>"},
      {XMT_TAG_PLACEHOLDER, 11, "br#1", "br", "<br/>"},
  };
  assert_parse("A <b>bold</b> word<br/>.", "A bold word.", html, N_ELEMS(html));
  /* The id attribute is the key; markup is kept byte for byte. */
  static const struct xmt_want_tag ids[] = {
      {XMT_TAG_OPEN, 0, "s1", "span", "<span  class='c' id=\"s1\" >"},
      {XMT_TAG_PLACEHOLDER, 1, "pic", "img", "<img id='pic' src=\"x.png\" />"},
      {XMT_TAG_CLOSE, 2, "s1", "span", "</span >"},
  };
  assert_parse("<span  class='c' id=\"s1\" >a<img id='pic' src=\"x.png\" />b"
               "</span >",
               "ab", ids, N_ELEMS(ids));
  /* An element with an end tag is a pair even when empty. */
  static const struct xmt_want_tag empty[] = {
      {XMT_TAG_OPEN, 1, "br#1", "br", "<br>"},
      {XMT_TAG_CLOSE, 1, "br#1", "br", "</br>"},
  };
  assert_parse("a<br></br>b", "ab", empty, N_ELEMS(empty));
}

static void test_keys_count_per_name(void) {
  static const struct xmt_want_tag want[] = {
      {XMT_TAG_OPEN, 0, "i#1", "i", "<i>"},
      {XMT_TAG_CLOSE, 1, "i#1", "i", "</i>"},
      {XMT_TAG_OPEN, 1, "b#1", "b", "<b>"},
      {XMT_TAG_OPEN, 2, "i#2", "i", "<i>"},
      {XMT_TAG_PLACEHOLDER, 3, "br#1", "br", "<br/>"},
      {XMT_TAG_CLOSE, 3, "i#2", "i", "</i>"},
      {XMT_TAG_PLACEHOLDER, 3, "br#2", "br", "<br/>"},
      {XMT_TAG_CLOSE, 3, "b#1", "b", "</b>"},
      {XMT_TAG_OPEN, 3, "x", "i", "<i id=\"x\">"},
      {XMT_TAG_CLOSE, 4, "x", "i", "</i>"},
      {XMT_TAG_OPEN, 4, "i#3", "i", "<i>"},
      {XMT_TAG_CLOSE, 5, "i#3", "i", "</i>"},
  };
  assert_parse("<i>a</i><b>b<i>c<br/></i><br/></b><i id=\"x\">d</i><i>e</i>",
               "abcde", want, N_ELEMS(want));
}

static void test_any_names(void) {
  /* Prefixed names need no namespace declaration; XLIFF names are plain
   * names here: bx is a placeholder, not half a pair. */
  static const struct xmt_want_tag want[] = {
      {XMT_TAG_OPEN, 0, "o:p#1", "o:p", "<o:p>"},
      {XMT_TAG_CLOSE, 1, "o:p#1", "o:p", "</o:p>"},
      {XMT_TAG_OPEN, 1, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 2, "1", "g", "</g>"},
      {XMT_TAG_PLACEHOLDER, 2, "2", "bx", "<bx id=\"2\"/>"},
      {XMT_TAG_PLACEHOLDER, 3, "3", "ex", "<ex id=\"3\"/>"},
      {XMT_TAG_OPEN, 3, "My-Elem_2#1", "My-Elem_2", "<My-Elem_2 a=\"1\">"},
      {XMT_TAG_CLOSE, 4, "My-Elem_2#1", "My-Elem_2", "</My-Elem_2>"},
  };
  assert_parse("<o:p>a</o:p><g id=\"1\">b</g><bx id=\"2\"/>c<ex id=\"3\"/>"
               "<My-Elem_2 a=\"1\">d</My-Elem_2>",
               "abcd", want, N_ELEMS(want));
}

static void test_duplicate_ids(void) {
  /* Pair keys stay distinct, as in XLIFF parsing; markup keeps the ids. */
  static const struct xmt_want_tag want[] = {
      {XMT_TAG_OPEN, 0, "a", "b", "<b id=\"a\">"},
      {XMT_TAG_CLOSE, 1, "a", "b", "</b>"},
      {XMT_TAG_OPEN, 1, "a#1", "i", "<i id=\"a\">"},
      {XMT_TAG_CLOSE, 2, "a#1", "i", "</i>"},
  };
  assert_parse("<b id=\"a\">x</b><i id=\"a\">y</i>", "xy", want, N_ELEMS(want));
}

static void test_entities(void) {
  static const struct xmt_want_tag amp[] = {
      {XMT_TAG_OPEN, 4, "b#1", "b", "<b title=\"&amp;&eacute;\">"},
      {XMT_TAG_CLOSE, 7, "b#1", "b", "</b>"},
  };
  /* XML entities, character references, CDATA, HTML named entities. */
  assert_parse("a&amp;b&lt;<b title=\"&amp;&eacute;\">&#233;&#x41;</b>"
               "<![CDATA[<c>]]>&nbsp;&eacute;&Omega;&euro;&quot;&apos;",
               "a&b<\xC3\xA9"
               "A<c>\xC2\xA0\xC3\xA9\xCE\xA9\xE2\x82\xAC\"'",
               amp, N_ELEMS(amp));
  /* The XLIFF parser still knows only the XML entities. */
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  CU_ASSERT_EQUAL(xmt_xliff_inline_parse(seg, "a&nbsp;b", 8, NULL),
                  XMT_ERR_XML);
  xmt_segment_free(seg);
}

static void test_render(void) {
  static const char *const same[] = {
      "A <b>bold</b> word<br/>.",
      "<span  class='c' id=\"s1\" >a &amp; b &lt; c<img src='x'/></span >",
      "<o:p>x</o:p><i>a<i>b</i></i>",
  };
  for (size_t i = 0; i < N_ELEMS(same); i++) {
    xmt_segment *seg = parse_ok(same[i]);
    size_t len = 0;
    char *out = xmt_xliff_inline_render(seg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    XMT_ASSERT_BYTES_EQUAL(out, len, same[i], strlen(same[i]));
    free(out);
    xmt_segment_free(seg);
  }
  /* Decoded entities come back as characters; & and < are escaped. */
  xmt_segment *seg = parse_ok("<a href='x?a=1&amp;b=2'>&nbsp;&#65;&gt;</a>");
  size_t len = 0;
  char *out = xmt_xliff_inline_render(seg, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  const char want[] = "<a href='x?a=1&amp;b=2'>\xC2\xA0"
                      "A></a>";
  XMT_ASSERT_BYTES_EQUAL(out, len, want, sizeof want - 1);
  free(out);
  xmt_segment_free(seg);
}

static void test_parse_replaces(void) {
  xmt_segment *seg = parse_ok("<b>old</b>");
  CU_ASSERT_EQUAL(xmt_xliff_inline_parse_generic(seg, "new<br/>", 8, NULL),
                  XMT_OK);
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(text, len, "new", 3);
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 1);
  xmt_segment_free(seg);
}

static void test_malformed(void) {
  assert_malformed("<b>x", 5);        /* unclosed: past the end */
  assert_malformed("a<br>b", 7);      /* HTML void element without / */
  assert_malformed("<b>x</i>", 5);    /* mismatched end tag */
  assert_malformed("a </b>", 3);      /* stray end tag */
  assert_malformed("a & b", 4);       /* bare ampersand: just past it */
  assert_malformed("x &bogus; y", 3); /* unknown entity */
  assert_malformed("x\n  &bogus;", 3);
}

static CU_TestInfo generic_tests[] = {
    {"plain text", test_plain_text},
    {"pairs and placeholders", test_pairs_and_placeholders},
    {"NAME#n keys count per name", test_keys_count_per_name},
    {"any element names", test_any_names},
    {"duplicate ids", test_duplicate_ids},
    {"entities decoded", test_entities},
    {"render", test_render},
    {"parse replaces the segment", test_parse_replaces},
    {"malformed snippets", test_malformed},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff/inline-generic", NULL, NULL, NULL, NULL, generic_tests},
    CU_SUITE_INFO_NULL,
};
