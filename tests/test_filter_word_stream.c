/* test_filter_word_stream.c -- the Word format parses its parts in the
 * units callback, not at open: each paragraph's unit is handed on when
 * the paragraph ends, so a part that is not well-formed late on fails
 * the read (the entry, line and column in the message) after the units
 * before the fault went out, and a damaged part (its CRC) is refused
 * when it is read, before any of its units, with the message open gave
 * before. The twins of mc:AlternateContent are still no units. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "engine_ahead.h"
#include "filter_private.h"
#include "harness.h"

static int suite_init(void) { return xmt_test_tmpdir_create("wordstream"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

#define W "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#define MC "http://schemas.openxmlformats.org/markup-compatibility/2006"

static const char types[] =
    "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/"
    "package/2006/content-types\"><Default Extension=\"rels\" "
    "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\""
    "/><Default Extension=\"xml\" ContentType=\"application/xml\"/>"
    "<Override PartName=\"/word/document.xml\" ContentType=\"application/"
    "vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>"
    "</Types>";
static const char rels[] =
    "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas."
    "openxmlformats.org/package/2006/relationships\"><Relationship Id=\"r1\" "
    "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/"
    "relationships/officeDocument\" Target=\"word/document.xml\"/>"
    "</Relationships>";

/* A package of [Content_Types].xml, _rels/.rels and word/document.xml
 * (body: its w:body's content, then tail), every entry stored. */
static void make_docx(const char *path, const char *body, const char *tail) {
  size_t cap = strlen(body) + strlen(tail) + 256;
  char *doc = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  snprintf(doc, cap,
           "<?xml version=\"1.0\"?>\n<w:document xmlns:w=\"" W
           "\" xmlns:mc=\"" MC "\"><w:body>%s%s",
           body, tail);
  const char *const names[] = {"[Content_Types].xml", "_rels/.rels",
                               "word/document.xml"};
  const char *const bytes[] = {types, rels, doc};
  int e = 0;
  unlink(path);
  zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(za);
  for (size_t i = 0; i < 3; i++) {
    zip_source_t *s = zip_source_buffer(za, bytes[i], strlen(bytes[i]), 0);
    zip_int64_t j = zip_file_add(za, names[i], s, 0);
    CU_ASSERT_FATAL(j >= 0);
    CU_ASSERT_EQUAL(
        zip_set_file_compression(za, (zip_uint64_t)j, ZIP_CM_STORE, 0), 0);
  }
  CU_ASSERT_EQUAL_FATAL(zip_close(za), 0);
  free(doc);
}

/* The ids of the units read, one a line. */
struct seen {
  size_t files;
  char ids[1024];
};
static xmt_status on_file(void *user, const struct xmt_xliff_file_info *info) {
  (void)info;
  ((struct seen *)user)->files++;
  return XMT_OK;
}
static xmt_status on_unit(void *user, xmt_xliff_unit *unit) {
  struct seen *s = user;
  size_t n = strlen(s->ids);
  snprintf(s->ids + n, sizeof s->ids - n, "%s\n", xmt_xliff_unit_id(unit));
  xmt_xliff_unit_free(unit);
  return XMT_OK;
}

#define PARA(text) "<w:p><w:r><w:t>" text "</w:t></w:r></w:p>"
/* A paragraph as a translation writes it: its run in the target language */
#define PARA_ES(text)                                                          \
  "<w:p><w:r><w:rPr><w:lang w:val=\"es\"/></w:rPr><w:t>" text                  \
  "</w:t></w:r></w:p>"

/* Opens path as Word (which must succeed) and reads its units into s;
 * returns the read's status. */
static xmt_status read_doc(xmt_filter *f, const char *path, struct seen *s) {
  const struct xmt_format *word = xmt_format_entry(XMT_FORMAT_WORD);
  void *doc = NULL;
  size_t bytes = 0;
  xmt_status st = word->open(f, path, &doc, &bytes);
  if (st != XMT_OK)
    fprintf(stderr, "%s\n", xmt_filter_error(f)->message);
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  const struct xmt_unit_sink sink = {on_file, on_unit, s, NULL};
  st = word->read(f, doc, path, &sink);
  word->close(doc);
  return st;
}

static void test_late_fault(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL_FATAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  const char *path = xmt_test_tmp_path("late.docx");
  make_docx(path, PARA("One.") PARA("Two.") PARA("Three."),
            "<w:p><w:r><w:t>Four.</w:t></w:r></w:x>");
  struct seen s = {0};
  CU_ASSERT_EQUAL(read_doc(f, path, &s), XMT_ERR_FORMAT);
  CU_ASSERT_EQUAL(s.files, 1);
  CU_ASSERT_STRING_EQUAL(s.ids, "document:1\ndocument:2\ndocument:3\n");
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->message,
                         "word/document.xml, line 2, column 310: not "
                         "well-formed XML: mismatched tag");
  xmt_filter_free(f);
  unlink(path);
}

/* word/document.xml's bytes changed after its CRC was taken. */
static void test_damaged_part(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL_FATAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  const char *path = xmt_test_tmp_path("crc.docx");
  make_docx(path, PARA("One.") PARA("Two."), "</w:body></w:document>");
  size_t len = 0;
  char *z = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(z);
  size_t at = 0;
  while (at + 4 <= len && memcmp(z + at, "Two.", 4) != 0)
    at++;
  CU_ASSERT_FATAL(at + 4 <= len);
  z[at] = 'X';
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  CU_ASSERT_EQUAL(fwrite(z, 1, len, fp), len);
  fclose(fp);
  free(z);
  struct seen s = {0};
  CU_ASSERT_EQUAL(read_doc(f, path, &s), XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(s.ids, "");
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->message,
                         "entry 'word/document.xml' is damaged: CRC error");
  xmt_filter_free(f);
  unlink(path);
}

/* A Fallback's paragraph that says what its Choice's says is no unit;
 * its id is still counted. */
static void test_twins(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL_FATAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  const char *path = xmt_test_tmp_path("twins.docx");
  make_docx(
      path,
      PARA("One.") "<mc:AlternateContent><mc:Choice Requires=\"x\">" PARA(
          "Box.") "</mc:Choice><mc:Fallback>" PARA("Box.")
          PARA("Not.") "</mc:Fallback></mc:AlternateContent>" PARA("Last."),
      "</w:body></w:document>");
  struct seen s = {0};
  CU_ASSERT_EQUAL(read_doc(f, path, &s), XMT_OK);
  CU_ASSERT_STRING_EQUAL(s.ids,
                         "document:1\ndocument:2\ndocument:4\ndocument:5\n");
  xmt_filter_free(f);
  unlink(path);
}

/* A run reads the document on a thread of its own (engine_ahead.h). */

/* word/document.xml of the package at path (NULL: none), to free. */
static char *document_part(const char *path) {
  zip_t *za = zip_open(path, ZIP_RDONLY, NULL);
  if (za == NULL)
    return NULL;
  zip_stat_t st;
  zip_file_t *zf = NULL;
  char *text = NULL;
  if (zip_stat(za, "word/document.xml", 0, &st) == 0 &&
      (zf = zip_fopen(za, "word/document.xml", 0)) != NULL &&
      (text = calloc(1, (size_t)st.size + 1)) != NULL &&
      zip_fread(zf, text, st.size) != (zip_int64_t)st.size) {
    free(text);
    text = NULL;
  }
  if (zf != NULL)
    zip_fclose(zf);
  zip_discard(za);
  return text;
}

/* While the engine answers the first paragraph, the reader has read the
 * two after it (one thread: only the first); every paragraph translated. */
static void test_run_reads_ahead(void) {
  struct xmt_test_engine e = {.wait_units = 3};
  xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
  const char *in = xmt_test_tmp_path("ahead.docx");
  const char *out = xmt_test_tmp_path("ahead.es.docx");
  make_docx(in, PARA("one") PARA("two") PARA("three") PARA("four"),
            "</w:body></w:document>");
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, in, out), XMT_OK);
  CU_ASSERT_EQUAL(e.seen, 3);
  CU_ASSERT_EQUAL(e.calls, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->translated_units, 4);
  char *doc = document_part(out);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  const char *body = strstr(doc, "<w:body>");
  CU_ASSERT_PTR_NOT_NULL_FATAL(body);
  CU_ASSERT_STRING_EQUAL(
      body, "<w:body>" PARA_ES("ONE") PARA_ES("TWO") PARA_ES("THREE")
                PARA_ES("FOUR") "</w:body></w:document>");
  free(doc);
  xmt_filter_free(f);
  unlink(in);
  unlink(out);
}

/* 200 paragraphs then a fault: the message the read gives on one thread,
 * though the windows before it were translated meanwhile; no output. */
static void test_run_late_fault(void) {
  struct xmt_test_engine e = {0};
  xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
  const char *in = xmt_test_tmp_path("late200.docx");
  const char *out = xmt_test_tmp_path("late200.es.docx");
  static char body[200 * sizeof PARA("word 000")];
  size_t len = 0;
  for (int k = 0; k < 200; k++)
    len +=
        (size_t)snprintf(body + len, sizeof body - len, PARA("word %03d"), k);
  make_docx(in, body, "<w:p><w:r><w:t>Last.</w:t></w:r></w:x>");
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, in, out), XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->message,
                         "word/document.xml, line 2, column 8397: not "
                         "well-formed XML: mismatched tag");
  CU_ASSERT_EQUAL(access(out, F_OK), -1);
  xmt_filter_free(f);
  unlink(in);
}

/* The engine fails on the second paragraph while the reader reads on: the
 * run fails with the engine's error, at once, and writes nothing. Run 50
 * times: where the reader is when the main thread stops varies. */
static void test_run_engine_fails(void) {
  const char *in = xmt_test_tmp_path("fails.docx");
  const char *out = xmt_test_tmp_path("fails.es.docx");
  static char body[2000 * sizeof PARA("word 0000")];
  size_t len = 0;
  for (int k = 0; k < 2000; k++)
    len +=
        (size_t)snprintf(body + len, sizeof body - len, PARA("word %04d"), k);
  make_docx(in, body, "</w:body></w:document>");
  for (int run = 0; run < 50; run++) {
    struct xmt_test_engine e = {.fail_from = 2};
    xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
    xmt_status st = xmt_filter_translate_file(f, in, out);
    CU_ASSERT_NOT_EQUAL(st, XMT_OK);
    CU_ASSERT_EQUAL(xmt_filter_error(f)->status, st);
    CU_ASSERT_EQUAL(e.calls, 2);
    CU_ASSERT_EQUAL(access(out, F_OK), -1);
    xmt_filter_free(f);
  }
  unlink(in);
}

CU_TestInfo word_stream_tests[] = {
    {"a late fault after the units before it", test_late_fault},
    {"a damaged part refused when read", test_damaged_part},
    {"twins are no units", test_twins},
    {"a run reads ahead while the engine answers", test_run_reads_ahead},
    {"a run's late fault, the windows before translated", test_run_late_fault},
    {"a run whose engine fails while the reader reads", test_run_engine_fails},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"word stream", suite_init, suite_clean, NULL, NULL, word_stream_tests},
    CU_SUITE_INFO_NULL};
