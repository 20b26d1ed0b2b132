/* test_filter_readthread.c -- the XLIFF reader on a thread of its own:
 * it reads the next windows while the engine answers one, and the output,
 * the failures told and the run's status stay those of one thread: a
 * window a unit, <file>s with other languages, a document malformed after
 * some windows, an output that cannot be written, a pipe never closed. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_ahead.h"
#include "harness.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("readthread"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

#define HEAD_LANG(lang)                                                        \
  "<file original=\"a\" source-language=\"en\" target-language=\"" lang        \
  "\" datatype=\"plaintext\"><body>\n"
#define XLIFF                                                                  \
  "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"
#define TAIL "</body></file></xliff>\n"
#define UNIT(id, src) "<trans-unit id=\"" id "\"><source>" src "</source>"
#define DONE(lang, tgt)                                                        \
  "<target xml:lang=\"" lang "\" state=\"translated\">" tgt                    \
  "</target></trans-unit>\n"
#define END "</trans-unit>\n"

static xmt_filter *new_filter(struct xmt_test_engine *e) {
  xmt_filter *f = xmt_test_engine_filter(e, NULL, NULL);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "translated", NULL), XMT_OK);
  return f;
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Translates doc into out_path; the output compared with expected (NULL:
 * none written). */
static void expect_run(xmt_filter *f, const char *doc, const char *out_path,
                       xmt_status want, const char *expected) {
  write_file(xmt_test_tmp_path("in.xlf"), doc);
  xmt_status st =
      xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"), out_path);
  CU_ASSERT_EQUAL(st, want);
  if (st != want && xmt_filter_error(f)->message != NULL)
    fprintf(stderr, "\n%s\n", xmt_filter_error(f)->message);
  size_t len = 0;
  char *out = xmt_test_read_file(out_path, &len);
  if (expected == NULL) {
    CU_ASSERT_PTR_NULL(out);
  } else {
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    XMT_ASSERT_BYTES_EQUAL(out, len, expected, strlen(expected));
  }
  free(out);
  unlink(out_path);
  unlink(xmt_test_tmp_path("in.xlf"));
}

/* While the engine answers the first window, the reader has read the two
 * windows after it (one thread: only the first). */
static void test_reads_while_translating(void) {
  static const char in[] =
      XLIFF HEAD_LANG("de") UNIT("1", "one") END UNIT("2", "two")
          END UNIT("3", "three") END UNIT("4", "four") END TAIL;
  static const char out[] = XLIFF HEAD_LANG("de") UNIT("1", "one")
      DONE("de", "ONE") UNIT("2", "two") DONE("de", "TWO") UNIT("3", "three")
          DONE("de", "THREE") UNIT("4", "four") DONE("de", "FOUR") TAIL;
  struct xmt_test_engine e = {.wait_units = 3};
  xmt_filter *f = new_filter(&e);
  expect_run(f, in, xmt_test_tmp_path("out.xlf"), XMT_OK, out);
  CU_ASSERT_EQUAL(e.seen, 3);
  CU_ASSERT_EQUAL(e.calls, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->units, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->translated_units, 4);
  xmt_filter_free(f);
}

/* Each <file>'s units get its own language, though the reader is ahead. */
static void test_files_languages(void) {
  static const char in[] =
      XLIFF HEAD_LANG("de") UNIT("1", "one") END UNIT("2", "two") END
      "</body></file>" HEAD_LANG("fr") UNIT("1", "three") END TAIL;
  static const char out[] =
      XLIFF HEAD_LANG("de") UNIT("1", "one") DONE("de", "ONE") UNIT("2", "two")
          DONE("de", "TWO") "</body></file>" HEAD_LANG("fr") UNIT("1", "three")
              DONE("fr", "THREE") TAIL;
  struct xmt_test_engine e = {0};
  xmt_filter *f = new_filter(&e);
  expect_run(f, in, xmt_test_tmp_path("out.xlf"), XMT_OK, out);
  CU_ASSERT_EQUAL(e.calls, 3);
  xmt_filter_free(f);
}

/* A document malformed after many windows: the reader's error, no
 * output. */
static void test_malformed_late(void) {
  size_t cap = 64 * 1024;
  char *in = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t len = (size_t)snprintf(in, cap, "%s", XLIFF HEAD_LANG("de"));
  for (int k = 0; k < 200; k++)
    len +=
        (size_t)snprintf(in + len, cap - len, UNIT("u%d", "word %d") END, k, k);
  snprintf(in + len, cap - len, "<trans-unit id=\"x\"><source>bad</sourc>");
  struct xmt_test_engine e = {0};
  xmt_filter *f = new_filter(&e);
  expect_run(f, in, xmt_test_tmp_path("out.xlf"), XMT_ERR_XML, NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->message, "mismatched"));
  CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 202);
  xmt_filter_free(f);
  free(in);
}

/* The output cannot be written while the reader is ahead: the run fails
 * with the output's error and the reader does not wait for ever. */
static void test_write_failure(void) {
  if (access("/dev/full", W_OK) != 0)
    return;
  size_t cap = 256 * 1024;
  char *in = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t len = (size_t)snprintf(in, cap, "%s", XLIFF HEAD_LANG("de"));
  for (int k = 0; k < 2000; k++)
    len += (size_t)snprintf(in + len, cap - len,
                            UNIT("u%d", "some words to fill the output %d") END,
                            k, k);
  snprintf(in + len, cap - len, "%s", TAIL);
  struct xmt_test_engine e = {0};
  xmt_filter *f = new_filter(&e);
  write_file(xmt_test_tmp_path("in.xlf"), in);
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"), "/dev/full"),
      XMT_ERR_WRITE);
  unlink(xmt_test_tmp_path("in.xlf"));
  CU_ASSERT_EQUAL(xmt_filter_error(f)->status, XMT_ERR_WRITE);
  CU_ASSERT(e.calls < 2000);
  xmt_filter_free(f);
  free(in);
}

/* The document comes on standard input from a pipe that is never
 * closed, more than a read's chunk of it: it is read on the main thread,
 * never ahead, so a run that fails in the first chunk (its output cannot
 * be written) returns at once instead of waiting for the pipe's end. */
static void test_pipe_not_waited(void) {
  if (access("/dev/full", W_OK) != 0)
    return;
  const char *fifo = xmt_test_tmp_path("in.fifo");
  unlink(fifo);
  CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
  int writer = open(fifo, O_RDWR); /* a writer kept: no end of file */
  CU_ASSERT_FATAL(writer >= 0);
  size_t cap = 512 * 1024;
  if (fcntl(writer, F_SETPIPE_SZ, (int)cap) < (int)cap) {
    close(writer); /* the pipe cannot hold the document: not tested */
    unlink(fifo);
    return;
  }
  char *in = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(in);
  size_t len = (size_t)snprintf(in, cap, "%s", XLIFF HEAD_LANG("de"));
  for (int k = 0; k < 4000; k++)
    len += (size_t)snprintf(in + len, cap - len,
                            UNIT("u%d", "some words to fill the output %d") END,
                            k, k);
  CU_ASSERT_FATAL(len > 300 * 1024 && len < cap - 1);
  CU_ASSERT_EQUAL_FATAL(write(writer, in, len), (ssize_t)len);
  int saved = dup(0);
  CU_ASSERT_FATAL(saved >= 0);
  CU_ASSERT_EQUAL_FATAL(dup2(writer, 0), 0);
  struct xmt_test_engine e = {0};
  xmt_filter *f = new_filter(&e);
  /* The first chunk read holds two windows and a part of a third: a
   * reader ahead would wait in the next read. */
  xmt_filter_set_window(f, 1000);
  alarm(60); /* a run that waits for the pipe's end fails the test */
  xmt_status st = xmt_filter_translate_file(f, "-", "/dev/full");
  alarm(0);
  dup2(saved, 0);
  close(saved);
  CU_ASSERT_EQUAL(st, XMT_ERR_WRITE);
  CU_ASSERT(e.calls > 0);
  xmt_filter_free(f);
  close(writer);
  unlink(fifo);
  free(in);
}

CU_TestInfo readthread_tests[] = {
    {"the reader reads while a window is translated",
     test_reads_while_translating},
    {"each <file>'s language", test_files_languages},
    {"a document malformed after many windows", test_malformed_late},
    {"an output that cannot be written", test_write_failure},
    {"a pipe never closed is not waited for", test_pipe_not_waited},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {{"filter reader thread", suite_init,
                                   suite_clean, NULL, NULL, readthread_tests},
                                  CU_SUITE_INFO_NULL};
