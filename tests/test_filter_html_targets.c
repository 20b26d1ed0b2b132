/* test_filter_html_targets.c -- the HTML format keeps the targets the run
 * hands back as values until the page is written: taking a target and
 * writing the page make and parse no XLIFF inline markup, and the page
 * written is the one the markup round trip wrote, mistakes included (a
 * code the source does not have, pairs that do not nest, characters XML
 * cannot carry). A target taken is a typed value the writer walks as
 * it is (test_typed).
 *
 * The program is linked with --wrap for the inline markup renderer and
 * parser, so that the calls of the library's (statically linked) objects
 * go through the counting wrappers below. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"
#include "harness.h"
#include "html_private.h"

char *__real_xmt_xliff_inline_render(const xmt_segment *seg, size_t *len);
char *__wrap_xmt_xliff_inline_render(const xmt_segment *seg, size_t *len);
xmt_status __real_xmt_xliff_inline_parse(xmt_segment *seg, const char *markup,
                                         size_t len, unsigned long *column);
xmt_status __wrap_xmt_xliff_inline_parse(xmt_segment *seg, const char *markup,
                                         size_t len, unsigned long *column);
xmt_status __real_xmt_inline_render_into(struct xmt_buf *out,
                                         const xmt_segment *seg);
xmt_status __wrap_xmt_inline_render_into(struct xmt_buf *out,
                                         const xmt_segment *seg);

static unsigned long markup_calls;

char *__wrap_xmt_xliff_inline_render(const xmt_segment *seg, size_t *len) {
  markup_calls++;
  return __real_xmt_xliff_inline_render(seg, len);
}

xmt_status __wrap_xmt_xliff_inline_parse(xmt_segment *seg, const char *markup,
                                         size_t len, unsigned long *column) {
  markup_calls++;
  return __real_xmt_xliff_inline_parse(seg, markup, len, column);
}

xmt_status __wrap_xmt_inline_render_into(struct xmt_buf *out,
                                         const xmt_segment *seg) {
  markup_calls++;
  return __real_xmt_inline_render_into(out, seg);
}

/* The page's units, as read() hands them out. */
struct units {
  xmt_xliff_unit *u[8];
  size_t n;
};

static xmt_status on_file(void *user, const struct xmt_xliff_file_info *info) {
  (void)user, (void)info;
  return XMT_OK;
}

static xmt_status on_unit(void *user, xmt_xliff_unit *unit) {
  struct units *s = user;
  if (s->n == sizeof s->u / sizeof s->u[0]) {
    xmt_xliff_unit_free(unit);
    return XMT_ERR_USAGE;
  }
  s->u[s->n++] = unit;
  return XMT_OK;
}

static int append(void *user, const char *bytes, size_t len) {
  return xmt_buf_append(user, bytes, len) != XMT_OK;
}

/* A target made of spec: its characters as text, "{n}" source code n
 * of src, "{Xn}" the same code as an end of a pair (kind CLOSE),
 * "{?}" a code id "9" the source does not have. */
static xmt_segment *target(const xmt_segment *src, const char *spec) {
  xmt_segment *t = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  for (const char *p = spec; *p != '\0';) {
    if (*p != '{') {
      size_t n = strcspn(p, "{");
      CU_ASSERT_EQUAL(xmt_segment_append_text(t, p, n), XMT_OK);
      p += n;
      continue;
    }
    struct xmt_tag tag;
    if (p[1] == '?') {
      CU_ASSERT_EQUAL(xmt_segment_append_tag(t, XMT_TAG_PLACEHOLDER, "9", "x",
                                             "<x id=\"9\"/>", 11),
                      XMT_OK);
    } else {
      int close = p[1] == 'X';
      size_t i = (size_t)strtoul(p + 1 + close, NULL, 10);
      CU_ASSERT_EQUAL_FATAL(xmt_segment_tag(src, i, &tag), XMT_OK);
      CU_ASSERT_EQUAL(
          xmt_segment_append_tag(t, close ? XMT_TAG_CLOSE : tag.kind, tag.id,
                                 tag.name, close ? "</g>" : tag.markup,
                                 close ? 4 : tag.markup_len),
          XMT_OK);
    }
    p = strchr(p, '}') + 1;
  }
  return t;
}

static const char page[] =
    "<html lang=\"en\"><body>\n"
    "<p>One <b>bold</b> and <i>it</i> word<br>end &amp; more</p>\n"
    "<p><img alt=\"A &quot;pic&quot;\" src=\"x.png\"> "
    "Two\n  <em>a</em>  b</p>\n"
    "</body></html>\n";

/* The page with targets[i] (spec, NULL: none) taken for unit i + 1: its
 * status, the page in *out, the message in *message (both to free). The
 * taking and the writing render and parse no XLIFF markup. */
static xmt_status write_page(const char *const targets[3], char **out,
                             char **message) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "fr"), XMT_OK);
  const struct xmt_format *html = xmt_format_entry(XMT_FORMAT_HTML);
  void *doc = NULL;
  CU_ASSERT_EQUAL_FATAL(
      html->parse(f, "page.html", page, sizeof page - 1, &doc), XMT_OK);
  struct units units = {0};
  const struct xmt_unit_sink sink = {on_file, on_unit, &units, NULL};
  CU_ASSERT_EQUAL_FATAL(html->read(f, doc, "page.html", &sink), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(units.n, 3); /* the first p, the alt, the second p */
  xmt_segment *t[3] = {NULL, NULL, NULL};
  for (size_t i = 0; i < 3; i++)
    if (targets[i] != NULL)
      t[i] = target(xmt_xliff_unit_source(units.u[i], 0), targets[i]);
  struct xmt_buf buf = {0};
  unsigned long calls = markup_calls;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < 3 && st == XMT_OK; i++)
    st = html->take(f, doc, units.u[i], t[i]);
  if (st == XMT_OK)
    st = html->write(f, doc, "fr", append, &buf);
  CU_ASSERT_EQUAL(markup_calls, calls);
  *message = xmt_strdup(f->err.pub.message != NULL ? f->err.pub.message : "");
  CU_ASSERT_EQUAL(xmt_buf_append_byte(&buf, '\0'), XMT_OK);
  *out = buf.data;
  for (size_t i = 0; i < 3; i++) {
    xmt_segment_free(t[i]);
    xmt_xliff_unit_free(units.u[i]);
  }
  html->close(doc);
  xmt_filter_free(f);
  return st;
}

#define ASSERT_PAGE(targets, expected)                                         \
  do {                                                                         \
    char *out_, *msg_;                                                         \
    CU_ASSERT_EQUAL(write_page(targets, &out_, &msg_), XMT_OK);                \
    CU_ASSERT_TRUE(xmt_test_bytes_equal(                                       \
        out_, strlen(out_), expected, strlen(expected), __FILE__, __LINE__));  \
    free(out_);                                                                \
    free(msg_);                                                                \
  } while (0)

#define ASSERT_FAILS(targets, status, message)                                 \
  do {                                                                         \
    char *out_, *msg_;                                                         \
    CU_ASSERT_EQUAL(write_page(targets, &out_, &msg_), status);                \
    CU_ASSERT_STRING_EQUAL(msg_, message);                                     \
    free(out_);                                                                \
    free(msg_);                                                                \
  } while (0)

static void test_values(void) {
  /* codes moved, text changed, an attribute, the page's spacing kept */
  const char *const moved[3] = {"Un {2}it{3} et {0}gras{1}{4}fin & plus",
                                "Une \"image\"", "{0} Deux {1}a{2} b"};
  ASSERT_PAGE(moved, "<html lang=\"fr\"><body>\n"
                     "<p>Un <i>it</i> et <b>gras</b><br>fin &amp; plus</p>\n"
                     "<p><img alt=\"Une &quot;image&quot;\" src=\"x.png\"> "
                     "Deux\n  <em>a</em>  b</p>\n"
                     "</body></html>\n");
  /* no target, and targets that say what the source says: the page's
   * own bytes */
  const char *const same[3] = {NULL, "A \"pic\"", "{0} Two {1}a{2} b"};
  ASSERT_PAGE(same, "<html lang=\"fr\"><body>\n"
                    "<p>One <b>bold</b> and <i>it</i> word<br>end &amp; more"
                    "</p>\n<p><img alt=\"A &quot;pic&quot;\" src=\"x.png\"> "
                    "Two\n  <em>a</em>  b</p>\n"
                    "</body></html>\n");
}

static void test_as_markup_was(void) {
  /* An end of a pair closes the innermost pair open, as in XLIFF: pairs
   * that cross come back nested. */
  const char *const crossed[3] = {"{0}x{2}y{X0}z{X2}{4}", NULL, NULL};
  ASSERT_PAGE(crossed, "<html lang=\"fr\"><body>\n"
                       "<p><b>x<i>y</i>z</b><br></p>\n"
                       "<p><img alt=\"A &quot;pic&quot;\" src=\"x.png\"> "
                       "Two\n  <em>a</em>  b</p>\n"
                       "</body></html>\n");
  /* Characters XML cannot carry are dropped, also around codes; what is
   * left is the source, written as the page has it. */
  const char *const controls[3] = {NULL, "A \x01\"pic\"\x1F",
                                   "{0} Two\x02 {1}\x0B"
                                   "a\xEF\xBF\xBE{2} b\x08"};
  ASSERT_PAGE(controls, "<html lang=\"fr\"><body>\n"
                        "<p>One <b>bold</b> and <i>it</i> word<br>end &amp; "
                        "more</p>\n<p><img alt=\"A &quot;pic&quot;\" "
                        "src=\"x.png\"> Two\n  <em>a</em>  b</p>\n"
                        "</body></html>\n");
}

static void test_errors(void) {
  const char *const unknown[3] = {"Un {0}x{1}{?} y", NULL, NULL};
  ASSERT_FAILS(unknown, XMT_ERR_INLINE,
               "unit 1: the target has a code (id \"9\") its source does "
               "not have");
  /* in an attribute's target, a code is never looked at */
  const char *const in_attr[3] = {NULL, "B{?}", NULL};
  ASSERT_PAGE(in_attr, "<html lang=\"fr\"><body>\n"
                       "<p>One <b>bold</b> and <i>it</i> word<br>end &amp; "
                       "more</p>\n<p><img alt=\"B\" src=\"x.png\"> "
                       "Two\n  <em>a</em>  b</p>\n"
                       "</body></html>\n");
  const char *const open[3] = {"Un {0}x", NULL, NULL};
  ASSERT_FAILS(open, XMT_ERR_XML, "malformed XML");
  const char *const closed[3] = {NULL, NULL, "Deux {X1}a"};
  ASSERT_FAILS(closed, XMT_ERR_XML, "malformed XML");
}

/* The target of unit of the page taken from spec: *out, to free. */
static xmt_status take(const struct html_doc *doc, size_t unit,
                       const char *spec, struct html_target **out) {
  struct html_taker pk = {0};
  xmt_segment *seg = target(doc->units[unit].source, spec);
  unsigned long calls = markup_calls;
  xmt_status st = xmt_html_target_take(&pk, doc, unit, seg, out);
  CU_ASSERT_EQUAL(markup_calls, calls);
  xmt_segment_free(seg);
  xmt_html_taker_free(&pk);
  return st;
}

#define ASSERT_CODE(t, k, off, index)                                          \
  do {                                                                         \
    CU_ASSERT_EQUAL((t)->codes[k].offset, off);                                \
    CU_ASSERT_EQUAL((t)->codes[k].code, index);                                \
  } while (0)

/* A target is taken once into a typed value the writer walks as it is:
 * its text, and for each code its offset in the text and the index of
 * the unit's code it stands for; nothing to parse again. */
static void test_typed(void) {
  struct html_doc doc;
  struct xmt_error_store err = {0};
  CU_ASSERT_EQUAL_FATAL(
      xmt_html_doc_parse(&doc, page, sizeof page - 1, 0, "page.html", &err),
      XMT_OK);
  struct html_target *t = NULL;
  /* unit 1's codes: <b> 0, </b> 1, <i> 2, </i> 3, <br> 4 */
  CU_ASSERT_EQUAL(take(&doc, 0, "Un {2}it{3} et {0}gras{1}{4}fin & plus", &t),
                  XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_EQUAL(t->st, XMT_OK);
  CU_ASSERT_STRING_EQUAL(html_target_ctext(t), "Un it et grasfin & plus");
  CU_ASSERT_EQUAL(t->len, strlen("Un it et grasfin & plus"));
  CU_ASSERT_EQUAL_FATAL(t->ncodes, 5);
  ASSERT_CODE(t, 0, 3, 2);
  ASSERT_CODE(t, 1, 5, 3);
  ASSERT_CODE(t, 2, 9, 0);
  ASSERT_CODE(t, 3, 13, 1);
  ASSERT_CODE(t, 4, 13, 4);
  free(t);
  /* the codes up to the first the unit lacks, and its id */
  CU_ASSERT_EQUAL(take(&doc, 0, "Un {0}x{1}{?} y{4}", &t), XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_STRING_EQUAL(html_target_ctext(t), "Un x y");
  CU_ASSERT_EQUAL_FATAL(t->ncodes, 3);
  ASSERT_CODE(t, 1, 4, 1);
  ASSERT_CODE(t, 2, 4, SIZE_MAX);
  CU_ASSERT_STRING_EQUAL(html_target_bad_id(t), "9");
  free(t);
  /* pairs that do not nest: the status, nothing to write */
  CU_ASSERT_EQUAL(take(&doc, 0, "Un {0}x", &t), XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_EQUAL(t->st, XMT_ERR_XML);
  CU_ASSERT_EQUAL(t->ncodes, 0);
  CU_ASSERT_EQUAL(t->len, 0);
  free(t);
  /* the source again, and an attribute's text: none, and the text */
  CU_ASSERT_EQUAL(take(&doc, 2, "{0} Two {1}a{2} b", &t), XMT_OK);
  CU_ASSERT_PTR_NULL(t);
  CU_ASSERT_EQUAL(take(&doc, 1, "Une \"image\"", &t), XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_STRING_EQUAL(html_target_ctext(t), "Une \"image\"");
  CU_ASSERT_EQUAL(t->ncodes, 0);
  free(t);
  xmt_error_clear(&err);
  xmt_html_doc_free(&doc);
}

static CU_TestInfo targets_tests[] = {
    {"targets kept as values, no XLIFF markup", test_values},
    {"the page the markup round trip wrote", test_as_markup_was},
    {"a target that cannot be written", test_errors},
    {"a target taken once, typed", test_typed},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"html targets", NULL, NULL, NULL, NULL, targets_tests},
    CU_SUITE_INFO_NULL,
};
