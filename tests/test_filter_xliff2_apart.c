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
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("x2apart"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

/* An engine that uppercases; its first call waits (5 s at most) for the
 * reader to have read wait_units units, keeping the count it saw, and it
 * fails from call fail_from on (0: never). */
struct engine {
  xmt_filter *f;
  size_t wait_units, seen;
  int calls, fail_from;
};

static int engine_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static size_t units_read(xmt_filter *f) {
  const size_t *units = &xmt_filter_stats(f)->units;
  return __atomic_load_n(units, __ATOMIC_RELAXED);
}

static int engine_translate(void *state, const struct xmt_mt_request *req,
                            xmt_mt_response *const *resp, size_t n) {
  struct engine *e = state;
  if (e->calls++ == 0 && e->wait_units > 0) {
    for (int k = 0; k < 500 && units_read(e->f) < e->wait_units; k++) {
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
    e->seen = units_read(e->f);
  }
  if (e->fail_from > 0 && e->calls >= e->fail_from)
    return -1;
  for (size_t i = 0; i < n; i++) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", req[i].text);
    for (char *p = buf; *p; p++)
      if (*p >= 'a' && *p <= 'z')
        *p = (char)(*p - 'a' + 'A');
    xmt_mt_response_set_text(resp[i], buf, strlen(buf));
  }
  return 0;
}

static void engine_close(void *state) { (void)state; }

static const struct xmt_backend engine_backend = {
    XMT_BACKEND_ABI_VERSION, "engine",     engine_open,
    engine_translate,        engine_close, NULL};

/* A filter en to es with the engine, one unit a window. */
static xmt_filter *engine_filter(struct engine *e) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  e->f = f;
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &engine_backend, e, NULL), XMT_OK);
  xmt_filter_set_window(f, 1);
  return f;
}

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
  struct engine e = {.wait_units = 3};
  xmt_filter *f = engine_filter(&e);
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
  struct engine e = {0};
  xmt_filter *f = engine_filter(&e);
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
  struct engine e = {.fail_from = 2};
  xmt_filter *f = engine_filter(&e);
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
