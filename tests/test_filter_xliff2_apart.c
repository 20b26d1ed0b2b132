/* test_filter_xliff2_apart.c -- an XLIFF 2 document read on the reader's
 * thread (read_apart) while the main thread translates, takes and writes
 * the windows before: it reads ahead, and the output, the failures told
 * and the run's status stay those of one thread: a window a unit, a
 * document malformed after 200 units, an engine that fails while the
 * reader reads. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_ahead.h"
#include "harness.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("x2apart"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

#define HEAD                                                                   \
  "<?xml version=\"1.0\"?>\n<xliff "                                           \
  "xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" "           \
  "srcLang=\"en\" trgLang=\"es\">\n<file id=\"f\">\n"
#define TAIL "</file>\n</xliff>\n"
#define UNIT(id, src)                                                          \
  "<unit id=\"" id "\"><segment><source>" src "</source></segment></unit>\n"
#define DONE(id, src, tgt)                                                     \
  "<unit id=\"" id                                                             \
  "\"><segment state=\"translated\" subState=\"xliffmt:mt\"><source>" src      \
  "</source><target>" tgt "</target></segment></unit>\n"
/* A unit's source of 400 bytes and more: 200 of them pass the first
 * chunk the stream reads (X2_CHUNK), which open() parses. */
#define LONG                                                                   \
  "some words to fill the document so that it is read in more than one "       \
  "chunk, some words to fill the document so that it is read in more than "    \
  "one chunk, some words to fill the document so that it is read in more "     \
  "than one chunk, some words to fill the document so that it is read in "     \
  "more than one chunk, some words to fill the document so that it is read "   \
  "in more than one chunk, and more"

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

/* n units of LONG sources (ids u0...), then tail, to free. */
static char *long_doc(int n, const char *tail) {
  size_t cap = (size_t)n * (sizeof UNIT("u0000", LONG) + 8) + 1024;
  char *in = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t len = (size_t)snprintf(in, cap, "%s", HEAD);
  for (int k = 0; k < n; k++)
    len += (size_t)snprintf(in + len, cap - len, UNIT("u%d", LONG " %d"), k, k);
  snprintf(in + len, cap - len, "%s", tail);
  return in;
}

/* While the engine answers the first unit, the reader has read the two
 * after it (one thread: only the first); every unit translated, the
 * output that of one thread. */
static void test_reads_ahead(void) {
  static const char in[] = HEAD UNIT("1", "one") UNIT("2", "two")
      UNIT("3", "three") UNIT("4", "four") TAIL;
  static const char want[] =
      HEAD DONE("1", "one", "ONE") DONE("2", "two", "TWO")
          DONE("3", "three", "THREE") DONE("4", "four", "FOUR") TAIL;
  struct xmt_test_engine e = {.wait_units = 3};
  xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
  const char *path = xmt_test_tmp_path("ahead.xlf");
  const char *out_path = xmt_test_tmp_path("ahead.es.xlf");
  write_file(path, in);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, path, out_path), XMT_OK);
  CU_ASSERT_EQUAL(e.seen, 3);
  CU_ASSERT_EQUAL(e.calls, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->units, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->translated_units, 4);
  size_t len = 0;
  char *out = xmt_test_read_file(out_path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  XMT_ASSERT_BYTES_EQUAL(out, len, want, strlen(want));
  free(out);
  xmt_filter_free(f);
  unlink(path);
  unlink(out_path);
}

/* 200 units then a fault past the first chunk: the message the read gives
 * on one thread, though the windows before it were translated meanwhile;
 * no output. */
static void test_late_fault(void) {
  struct xmt_test_engine e = {0};
  xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
  const char *path = xmt_test_tmp_path("late200.xlf");
  const char *out_path = xmt_test_tmp_path("late200.es.xlf");
  char *in = long_doc(200, "<unit id=\"x\"><segment><source>bad</sourc>");
  write_file(path, in);
  free(in);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, path, out_path), XMT_ERR_XML);
  const struct xmt_error *err = xmt_filter_error(f);
  CU_ASSERT_EQUAL(err->status, XMT_ERR_XML);
  CU_ASSERT_STRING_EQUAL(err->message != NULL ? err->message : "",
                         "mismatched tag");
  CU_ASSERT_STRING_EQUAL(err->file != NULL ? err->file : "", path);
  CU_ASSERT_EQUAL(err->line, 204);
  CU_ASSERT_EQUAL(err->column, 36);
  CU_ASSERT_STRING_EQUAL(err->unit_id != NULL ? err->unit_id : "", "x");
  CU_ASSERT(e.calls > 0);
  CU_ASSERT_EQUAL(access(out_path, F_OK), -1);
  xmt_filter_free(f);
  unlink(path);
}

/* The engine fails on the second unit while the reader reads on: the run
 * fails with the engine's error, at once, and writes nothing. */
static void test_engine_fails(void) {
  struct xmt_test_engine e = {.fail_from = 2};
  xmt_filter *f = xmt_test_engine_filter(&e, "en", "es");
  const char *path = xmt_test_tmp_path("fails.xlf");
  const char *out_path = xmt_test_tmp_path("fails.es.xlf");
  char *in = long_doc(2000, TAIL);
  write_file(path, in);
  free(in);
  xmt_status st = xmt_filter_translate_file(f, path, out_path);
  CU_ASSERT_NOT_EQUAL(st, XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->status, st);
  CU_ASSERT_EQUAL(e.calls, 2);
  CU_ASSERT(xmt_filter_stats(f)->units < 2000);
  CU_ASSERT_EQUAL(access(out_path, F_OK), -1);
  xmt_filter_free(f);
  unlink(path);
}

CU_TestInfo x2apart_tests[] = {
    {"the reader reads ahead while the engine answers", test_reads_ahead},
    {"a late fault, the windows before translated", test_late_fault},
    {"an engine that fails while the reader reads", test_engine_fails},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff2 read apart", suite_init, suite_clean, NULL, NULL, x2apart_tests},
    CU_SUITE_INFO_NULL};
