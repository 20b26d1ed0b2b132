/* test_filter_units.c -- a format hands the run its units as values: the
 * reader's callbacks get each <file> and unit with no XLIFF text written
 * and parsed between them, and each unit is the one the XLIFF reader
 * makes of the text units_out.c writes of it (fields, segments, codes,
 * existing target, line and column). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"
#include "harness.h"

/* What the reader's callbacks were given. */
struct seen {
  size_t skeleton; /* bytes of XLIFF text */
  size_t files;
  xmt_xliff_unit **units;
  size_t n, cap;
};

static int on_skeleton(void *user, const char *bytes, size_t len) {
  (void)bytes;
  ((struct seen *)user)->skeleton += len;
  return 0;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  (void)info, (void)tag, (void)len;
  ((struct seen *)user)->files++;
  return 0;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct seen *s = user;
  xmt_xliff_unit **grown =
      xmt_grow_array(s->units, &s->cap, s->n + 1, sizeof *grown);
  if (grown == NULL) {
    xmt_xliff_unit_free(unit);
    return 1;
  }
  s->units = grown;
  s->units[s->n++] = unit;
  return 0;
}

static void seen_free(struct seen *s) {
  for (size_t i = 0; i < s->n; i++)
    xmt_xliff_unit_free(s->units[i]);
  free(s->units);
}

static const struct xmt_xliff_reader_callbacks callbacks = {on_skeleton,
                                                            on_file, on_unit};

static int append(void *user, const char *bytes, size_t len) {
  return xmt_buf_append(user, bytes, len) != XMT_OK;
}

static int same_string(const char *a, const char *b) {
  return (a == NULL && b == NULL) ||
         (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* 1 when a and b have the same text and codes (kind, id, name, markup,
 * place). */
static int same_segment(const xmt_segment *a, const xmt_segment *b) {
  if (a == NULL || b == NULL)
    return a == b;
  size_t al, bl, n = xmt_segment_tag_count(a);
  const char *at = xmt_segment_text(a, &al), *bt = xmt_segment_text(b, &bl);
  if (al != bl || memcmp(at, bt, al) != 0 || n != xmt_segment_tag_count(b))
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag x, y;
    if (xmt_segment_tag(a, i, &x) != XMT_OK ||
        xmt_segment_tag(b, i, &y) != XMT_OK || x.kind != y.kind ||
        x.offset != y.offset || !same_string(x.id, y.id) ||
        !same_string(x.name, y.name) || x.markup_len != y.markup_len ||
        memcmp(x.markup, y.markup, x.markup_len) != 0)
      return 0;
  }
  return 1;
}

/* The unit as a value and as the reader parses its text: the same, but
 * for the place of a unit of a format that is not XLIFF (places: 0), which
 * is in its original, not in the XLIFF text. */
static void check_same_unit(const xmt_xliff_unit *v, const xmt_xliff_unit *t,
                            int places) {
  CU_ASSERT_TRUE(same_string(xmt_xliff_unit_id(v), xmt_xliff_unit_id(t)));
  CU_ASSERT_TRUE(
      same_string(xmt_xliff_unit_resname(v), xmt_xliff_unit_resname(t)));
  CU_ASSERT_TRUE(same_string(xmt_xliff_unit_source_language(v),
                             xmt_xliff_unit_source_language(t)));
  CU_ASSERT_TRUE(same_string(xmt_xliff_unit_target_language(v),
                             xmt_xliff_unit_target_language(t)));
  CU_ASSERT_TRUE(same_string(xmt_xliff_unit_target_state(v),
                             xmt_xliff_unit_target_state(t)));
  CU_ASSERT_EQUAL(xmt_xliff_unit_translatable(v),
                  xmt_xliff_unit_translatable(t));
  CU_ASSERT_EQUAL(xmt_xliff_unit_preserve_space(v),
                  xmt_xliff_unit_preserve_space(t));
  CU_ASSERT_EQUAL(xmt_xliff_unit_segmented(v), xmt_xliff_unit_segmented(t));
  CU_ASSERT_EQUAL(xmt_xliff_unit_has_target(v), xmt_xliff_unit_has_target(t));
  if (places) {
    CU_ASSERT_EQUAL(xmt_xliff_unit_line(v), xmt_xliff_unit_line(t));
    CU_ASSERT_EQUAL(xmt_xliff_unit_column(v), xmt_xliff_unit_column(t));
  }
  size_t n = xmt_xliff_unit_segment_count(v);
  CU_ASSERT_EQUAL_FATAL(n, xmt_xliff_unit_segment_count(t));
  for (size_t i = 0; i < n; i++) {
    CU_ASSERT_TRUE(
        same_segment(xmt_xliff_unit_source(v, i), xmt_xliff_unit_source(t, i)));
    CU_ASSERT_EQUAL(xmt_xliff_unit_segment_wanted(v, i, 0),
                    xmt_xliff_unit_segment_wanted(t, i, 0));
  }
  CU_ASSERT_TRUE(same_segment(xmt_xliff_unit_existing_target(v),
                              xmt_xliff_unit_existing_target(t)));
}

/* The units of doc (of format) handed to a reader, and those the reader
 * parses of the XLIFF text units_out.c writes of them. */
static void check_document(xmt_filter *f, const struct xmt_format *format,
                           const char *name, const char *bytes, size_t len) {
  void *doc = NULL;
  xmt_status parsed = format->parse(f, name, bytes, len, &doc);
  if (parsed != XMT_OK)
    fprintf(stderr, "%s: %s\n", name, xmt_filter_error(f)->message);
  CU_ASSERT_EQUAL_FATAL(parsed, XMT_OK);
  struct seen values = {0}, text = {0};
  xmt_xliff_reader *reader = xmt_xliff_reader_new(&callbacks, &values);
  CU_ASSERT_PTR_NOT_NULL_FATAL(reader);
  CU_ASSERT_EQUAL(xmt_pipeline_feed(f, format, doc, name, reader, &f->err),
                  XMT_OK);
  xmt_xliff_reader_free(reader);
  format->close(doc);
  /* No XLIFF text reached the reader: nothing outside the units, and no
   * unit bytes. */
  CU_ASSERT_EQUAL(values.skeleton, 0);
  CU_ASSERT_TRUE(values.files > 0);
  CU_ASSERT_TRUE(values.n > 0);
  for (size_t i = 0; i < values.n; i++)
    CU_ASSERT_EQUAL(values.units[i]->raw.len, 0);

  struct xmt_buf xliff = {0};
  struct xmt_units_out out;
  CU_ASSERT_EQUAL_FATAL(format->parse(f, name, bytes, len, &doc), XMT_OK);
  xmt_units_out_init(&out, append, &xliff);
  const struct xmt_unit_sink to_text = xmt_units_out_sink_of(&out);
  CU_ASSERT_EQUAL(format->read(f, doc, name, &to_text), XMT_OK);
  CU_ASSERT_EQUAL(xmt_units_out_end(&out), XMT_OK);
  format->close(doc);
  reader = xmt_xliff_reader_new(&callbacks, &text);
  CU_ASSERT_PTR_NOT_NULL_FATAL(reader);
  CU_ASSERT_EQUAL(xmt_xliff_reader_parse(reader, xliff.data, xliff.len, 1),
                  XMT_OK);
  xmt_xliff_reader_free(reader);
  CU_ASSERT_EQUAL(text.files, values.files);
  CU_ASSERT_EQUAL_FATAL(text.n, values.n);
  for (size_t i = 0; i < values.n; i++)
    check_same_unit(values.units[i], text.units[i],
                    format == xmt_format_entry(XMT_FORMAT_XLIFF2));
  xmt_buf_free(&xliff);
  seen_free(&values);
  seen_free(&text);
}

static void check_file(xmt_filter *f, const struct xmt_format *format,
                       const char *path) {
  size_t len;
  char *bytes = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  check_document(f, format, path, bytes, len);
  free(bytes);
}

/* A page with what the text would have to carry: line breaks in text,
 * in an attribute and in an isolated code's markup, a carriage return, a
 * control XML cannot carry, codes paired and alone. */
static const char page[] =
    "<html lang=\"en\"><body>\n"
    "<p title=\"A\ntitle\">First <b>bold\ntext</b> and <i>it</p>\n"
    "<pre>line one\r\n  line two <span\n  class=\"x\">s</span></pre>\n"
    "<p id=\"r&#1;\">Third &#1; &#13; para <b>x</b><br/>y</p>\n"
    "<p>end</b> of it</p>\n"
    "</body></html>\n";

/* Each unit of page at its place in the page (what messages name), the
 * line and column in characters. */
static void check_page_places(xmt_filter *f) {
  const struct xmt_format *html = xmt_format_entry(XMT_FORMAT_HTML);
  void *doc = NULL;
  CU_ASSERT_EQUAL_FATAL(
      html->parse(f, "page.html", page, sizeof page - 1, &doc), XMT_OK);
  struct seen values = {0};
  xmt_xliff_reader *reader = xmt_xliff_reader_new(&callbacks, &values);
  CU_ASSERT_PTR_NOT_NULL_FATAL(reader);
  CU_ASSERT_EQUAL(xmt_pipeline_feed(f, html, doc, "page.html", reader, &f->err),
                  XMT_OK);
  xmt_xliff_reader_free(reader);
  html->close(doc);
  /* the title, First, line one (of <pre>), Third (after a reference),
   * end */
  static const unsigned long at[][2] = {
      {2, 11}, {3, 8}, {5, 6}, {8, 15}, {9, 4}};
  CU_ASSERT_EQUAL_FATAL(values.n, sizeof at / sizeof at[0]);
  for (size_t i = 0; i < values.n; i++) {
    CU_ASSERT_EQUAL(xmt_xliff_unit_line(values.units[i]), at[i][0]);
    CU_ASSERT_EQUAL(xmt_xliff_unit_column(values.units[i]), at[i][1]);
  }
  seen_free(&values);
}

static void test_html(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "fr"), XMT_OK);
  check_document(f, xmt_format_entry(XMT_FORMAT_HTML), "page.html", page,
                 sizeof page - 1);
  check_page_places(f);
  static const char *const okapi[] = {"htmltest.html",
                                      "simpleTest.html",
                                      "okapi_intro_test.html",
                                      "ruby.html",
                                      "testStyleScriptStylesheet.html",
                                      NULL};
  for (const char *const *name = okapi; *name != NULL; name++) {
    char rel[128];
    snprintf(rel, sizeof rel, "okapi/html/%s", *name);
    check_file(f, xmt_format_entry(XMT_FORMAT_HTML), xmt_test_data_path(rel));
  }
  xmt_filter_free(f);
}

static void test_xliff2(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  static const char *const names[] = {"spec-minimal.xlf", "spec-inline.xlf",
                                      "modules.xlf", "structure.xlf", NULL};
  for (const char *const *name = names; *name != NULL; name++) {
    char rel[128];
    snprintf(rel, sizeof rel, "xliff2-valid/%s", *name);
    check_file(f, xmt_format_entry(XMT_FORMAT_XLIFF2),
               xmt_test_fixture_path(rel));
  }
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, NULL, "fr"), XMT_OK);
  /* a target kept, one to translate, a locked one, and lines apart */
  static const char doc[] =
      "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" "
      "version=\"2.0\" srcLang=\"en\" trgLang=\"fr\">\n"
      "<file id=\"f1\"><unit id=\"u1\">\n<segment state=\"final\">"
      "<source>One <pc id=\"1\">two</pc></source>"
      "<target>Un <pc id=\"1\">deux</pc></target></segment>\n\n\n"
      "<segment><source xml:space=\"preserve\">a\nb <ph id=\"2\"/></source>"
      "<target> </target></segment></unit>\n"
      "<unit id=\"u2\" translate=\"no\"><segment><source>x<sc id=\"3\" "
      "isolated=\"yes\"/>y"
      "</source></segment></unit></file>\n"
      "<file id=\"f2\"><unit id=\"u1\"><segment><source>again</source>"
      "</segment></unit></file></xliff>\n";
  void *x2 = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_format_entry(XMT_FORMAT_XLIFF2)
                            ->parse(f, "doc.xlf", doc, sizeof doc - 1, &x2),
                        XMT_OK);
  xmt_format_entry(XMT_FORMAT_XLIFF2)->close(x2);
  struct seen values = {0};
  xmt_xliff_reader *reader = xmt_xliff_reader_new(&callbacks, &values);
  CU_ASSERT_PTR_NOT_NULL_FATAL(reader);
  CU_ASSERT_EQUAL_FATAL(xmt_format_entry(XMT_FORMAT_XLIFF2)
                            ->parse(f, "doc.xlf", doc, sizeof doc - 1, &x2),
                        XMT_OK);
  CU_ASSERT_EQUAL(xmt_pipeline_feed(f, xmt_format_entry(XMT_FORMAT_XLIFF2), x2,
                                    "doc.xlf", reader, &f->err),
                  XMT_OK);
  xmt_format_entry(XMT_FORMAT_XLIFF2)->close(x2);
  xmt_xliff_reader_free(reader);
  CU_ASSERT_EQUAL(values.skeleton, 0);
  CU_ASSERT_EQUAL(values.files, 2);
  CU_ASSERT_EQUAL_FATAL(values.n, 4);
  /* each on the line of its <segment>, once the units before it allow */
  static const unsigned long lines[] = {5, 6, 8, 13};
  for (size_t i = 0; i < values.n; i++)
    CU_ASSERT_EQUAL(xmt_xliff_unit_line(values.units[i]), lines[i]);
  CU_ASSERT_TRUE(xmt_xliff_unit_has_target(values.units[0]));
  CU_ASSERT_FALSE(xmt_xliff_unit_has_target(values.units[1]));
  CU_ASSERT_TRUE(xmt_xliff_unit_preserve_space(values.units[1]));
  CU_ASSERT_FALSE(xmt_xliff_unit_translatable(values.units[2]));
  seen_free(&values);
  check_document(f, xmt_format_entry(XMT_FORMAT_XLIFF2), "doc.xlf", doc,
                 sizeof doc - 1);
  xmt_filter_free(f);
}

/* A document of units in parts, as Word's: each unit a paragraph. */
struct parted {
  const char *part[4];
  unsigned long id[4];
  xmt_segment *source;
};

static void parted_at(void *d, size_t i, struct xmt_feed_unit *out) {
  const struct parted *doc = d;
  *out = (struct xmt_feed_unit){
      .id = doc->id[i], .part = doc->part[i], .source = doc->source};
}

static xmt_status sink_file(void *user, const struct xmt_xliff_file_info *in) {
  (void)in;
  ((struct seen *)user)->files++;
  return XMT_OK;
}

static xmt_status sink_unit(void *user, xmt_xliff_unit *unit) {
  return on_unit(user, unit) == 0 ? XMT_OK : XMT_ERR_NOMEM;
}

/* The id xmt_unit_index_in reads back into part and index, or the
 * internal error naming it. */
static void check_index(const char *id, const struct xmt_unit_part *parts,
                        size_t nparts, long want_part, size_t want_index) {
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  const struct xmt_unit_fields in = {
      .id = id, .line = 1, .column = 1, .translatable = 1};
  xmt_segment *source = xmt_segment_new();
  xmt_xliff_unit *unit = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_xliff_unit_build(&ib, &in, source, NULL, &unit),
                        XMT_OK);
  struct xmt_error_store err = {0};
  size_t part = 99, index = 99;
  xmt_status st =
      xmt_unit_index_in(unit, parts, nparts, "document", &part, &index, &err);
  if (want_part >= 0) {
    CU_ASSERT_EQUAL(st, XMT_OK);
    CU_ASSERT_EQUAL(part, (size_t)want_part);
    CU_ASSERT_EQUAL(index, want_index);
  } else {
    CU_ASSERT_EQUAL(st, XMT_ERR_INTERNAL);
    CU_ASSERT_STRING_EQUAL(err.pub.message,
                           "a unit the document does not have");
    CU_ASSERT_STRING_EQUAL(err.pub.unit_id, id);
    CU_ASSERT_EQUAL(part, 99);
  }
  xmt_error_clear(&err);
  xmt_xliff_unit_free(unit);
  xmt_segment_free(source);
  xmt_ib_free(&ib);
}

/* Units in parts: the feed writes "part:n", xmt_unit_index_in reads each
 * back to its part and index, and refuses any id it did not write. */
static void test_parts(void) {
  struct parted doc = {{"document", "document", "footnotes", NULL},
                       {1, 3, 2, 4},
                       xmt_segment_new()};
  CU_ASSERT_EQUAL_FATAL(xmt_segment_append_text(doc.source, "Text", 4), XMT_OK);
  struct seen values = {0};
  const struct xmt_unit_sink sink = {sink_file, sink_unit, &values, NULL};
  const struct xmt_unit_feed feed = {"a.docx", "en", "fr", "x-docx", 4};
  CU_ASSERT_EQUAL_FATAL(xmt_unit_feed(&feed, &doc, parted_at, &sink), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(values.n, 4);
  CU_ASSERT_EQUAL(values.files, 1);
  CU_ASSERT_STRING_EQUAL(xmt_xliff_unit_id(values.units[0]), "document:1");
  CU_ASSERT_STRING_EQUAL(xmt_xliff_unit_id(values.units[1]), "document:3");
  CU_ASSERT_STRING_EQUAL(xmt_xliff_unit_id(values.units[2]), "footnotes:2");
  CU_ASSERT_STRING_EQUAL(xmt_xliff_unit_id(values.units[3]), "4");
  const struct xmt_unit_part parts[] = {
      {"document", 3}, {"footnotes", 2}, {"header1", 0}, {NULL, 4}};
  size_t part, index;
  struct xmt_error_store err = {0};
  const long want_part[] = {0, 0, 1, 3};
  const size_t want_index[] = {0, 2, 1, 3};
  for (size_t i = 0; i < values.n; i++) {
    CU_ASSERT_EQUAL(xmt_unit_index_in(values.units[i], parts, 4, "document",
                                      &part, &index, &err),
                    XMT_OK);
    CU_ASSERT_EQUAL(part, (size_t)want_part[i]);
    CU_ASSERT_EQUAL(index, want_index[i]);
  }
  seen_free(&values);
  xmt_segment_free(doc.source);
  check_index("footnotes:1", parts, 4, 1, 0);
  check_index("1", parts, 4, 3, 0);
  /* a part name with a colon in it: the number is after the last one */
  const struct xmt_unit_part odd[] = {{"word/a:b.xml", 2}};
  check_index("word/a:b.xml:2", odd, 1, 0, 1);
  static const char *const refused[] = {"document:4",
                                        "document:0",
                                        "document:01",
                                        "document:+1",
                                        "document: 1",
                                        "document:",
                                        "document",
                                        "header1:1",
                                        "endnotes:1",
                                        ":1",
                                        "Document:1",
                                        "document:1x",
                                        "5",
                                        "0",
                                        "",
                                        "document:18446744073709551617"};
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
    check_index(refused[i], parts, 4, -1, 0);
  /* one part of no name: the ids of a number alone (HTML, ODT) */
  const struct xmt_unit_part whole[] = {{NULL, 2}};
  check_index("2", whole, 1, 0, 1);
  check_index("document:2", whole, 1, -1, 0);
  check_index("3", whole, 1, -1, 0);
}

/* A code of a test segment, after its text. */
struct code {
  const char *text;
  enum xmt_tag_kind kind;
  const char *id, *name;
};

static xmt_segment *segment_of(const struct code *codes, size_t n,
                               const char *tail) {
  xmt_segment *seg = xmt_segment_new();
  for (size_t i = 0; i < n; i++) {
    CU_ASSERT_EQUAL(
        xmt_segment_append_text(seg, codes[i].text, strlen(codes[i].text)),
        XMT_OK);
    CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, codes[i].kind, codes[i].id,
                                           codes[i].name, "<m/>", 4),
                    XMT_OK);
  }
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, tail, strlen(tail)), XMT_OK);
  return seg;
}

/* seg fed as a unit of part (id 7): its status, and its source the one
 * xmt_xliff_unit_build makes of seg (*same: 1 when that is seg). */
static xmt_status fed_one(const xmt_segment *seg, const char *part, int *same) {
  struct seen values = {0};
  const struct xmt_unit_sink sink = {sink_file, sink_unit, &values, NULL};
  const struct xmt_unit_feed feed = {"a.docx", "en", "fr", "x-docx", 1};
  const struct xmt_feed_unit u = {.id = 7, .part = part, .source = seg};
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  xmt_status st = xmt_unit_feed_one(&feed, &ib, &u, &sink);
  const struct xmt_unit_fields in = {.id = "7", .translatable = 1};
  xmt_xliff_unit *built = NULL;
  xmt_ib_reset(&ib);
  CU_ASSERT_EQUAL(xmt_xliff_unit_build(&ib, &in, seg, NULL, &built), st);
  if (st == XMT_OK) {
    CU_ASSERT_EQUAL_FATAL(values.n, 1);
    const xmt_segment *mine = xmt_xliff_unit_source(values.units[0], 0);
    CU_ASSERT(mine != seg);
    CU_ASSERT(xmt_segment_equal(mine, xmt_xliff_unit_source(built, 0)));
    *same = xmt_segment_equal(mine, seg);
    if (part != NULL && strlen(part) > 255)
      CU_ASSERT_EQUAL(strlen(xmt_xliff_unit_id(values.units[0])), 255 + 2);
  }
  xmt_xliff_unit_free(built);
  xmt_ib_free(&ib);
  seen_free(&values);
  return st;
}

/* A source the builder leaves as it is goes into its unit as a copy;
 * any other is built, as before: pairs that cross (the builder closes
 * the innermost), an open id twice (suffixed), a code named as another
 * kind, text XML cannot carry, more pairs than are looked at, a pair
 * never closed. */
static void test_feed_copy(void) {
  const enum xmt_tag_kind O = XMT_TAG_OPEN, C = XMT_TAG_CLOSE,
                          X = XMT_TAG_PLACEHOLDER;
  const struct code nested[] = {
      {"a ", O, "1", "g"}, {"b", X, "2", "x"}, {"", C, "1", "g"}};
  const struct code crossing[] = {{"a", O, "1", "g"},
                                  {"b", O, "2", "g"},
                                  {"c", C, "1", "g"},
                                  {"d", C, "2", "g"}};
  const struct code twice[] = {{"a", O, "1", "g"},
                               {"b", C, "1", "g"},
                               {"c", O, "1", "g"},
                               {"d", C, "1", "g"}};
  const struct code named[] = {{"a", X, "1", "bx"}};
  const struct code open[] = {{"a", O, "1", "g"}};
  struct {
    const struct code *codes;
    size_t n;
    const char *tail;
    xmt_status st;
    int same;
  } cases[] = {{nested, 3, ".", XMT_OK, 1},      {crossing, 4, "e", XMT_OK, 0},
               {twice, 4, "e", XMT_OK, 0},       {named, 1, "", XMT_OK, 0},
               {nested, 3, "\x01.", XMT_OK, 0},  {NULL, 0, "", XMT_OK, 1},
               {open, 1, "b", XMT_ERR_INLINE, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    xmt_segment *seg = segment_of(cases[i].codes, cases[i].n, cases[i].tail);
    int same = -1;
    CU_ASSERT_EQUAL(fed_one(seg, NULL, &same), cases[i].st);
    if (cases[i].st == XMT_OK)
      CU_ASSERT_EQUAL(same, cases[i].same);
    xmt_segment_free(seg);
  }
  /* 40 pairs one in another: built, and the same */
  struct code deep[80];
  char ids[40][4];
  for (size_t i = 0; i < 40; i++) {
    snprintf(ids[i], sizeof ids[i], "%zu", i + 1);
    deep[i] = (struct code){"a", O, ids[i], "g"};
    deep[79 - i] = (struct code){"b", C, ids[i], "g"};
  }
  xmt_segment *seg = segment_of(deep, 80, "");
  char part[301];
  memset(part, 'p', 300);
  part[300] = '\0';
  int same = -1;
  CU_ASSERT_EQUAL(fed_one(seg, part, &same), XMT_OK);
  CU_ASSERT_EQUAL(same, 1);
  /* the copy alone */
  xmt_xliff_unit *unit = NULL;
  const struct xmt_unit_fields in = {.id = "3", .translatable = 1};
  CU_ASSERT_EQUAL_FATAL(xmt_xliff_unit_copy(&in, seg, &unit), XMT_OK);
  CU_ASSERT_STRING_EQUAL(xmt_xliff_unit_id(unit), "3");
  CU_ASSERT_EQUAL(xmt_xliff_unit_segment_count(unit), 1);
  CU_ASSERT(xmt_segment_equal(xmt_xliff_unit_source(unit, 0), seg));
  xmt_xliff_unit_free(unit);
  xmt_segment_free(seg);
}

static CU_TestInfo units_tests[] = {
    {"units in parts: ids \"part:n\" written and read back", test_parts},
    {"a source the builder keeps copied into its unit", test_feed_copy},
    {"an HTML page's units as values", test_html},
    {"an XLIFF 2 document's units as values", test_xliff2},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"units", NULL, NULL, NULL, NULL, units_tests},
    CU_SUITE_INFO_NULL,
};
