/* harness.h -- shared CUnit runner and fixture helpers for the test programs.
 * Each test program defines xmt_test_suites[] (terminated by
 * CU_SUITE_INFO_NULL); harness.c provides main(). */
#ifndef XMT_TEST_HARNESS_H
#define XMT_TEST_HARNESS_H

#include <CUnit/CUnit.h>
#include <stddef.h>

extern CU_SuiteInfo xmt_test_suites[];

/* Reads a whole file; returns malloc'd bytes (NUL-terminated) or NULL. */
char *xmt_test_read_file(const char *path, size_t *len);
/* Path of a file or folder of the test data: under $XMT_TEST_DATA, or
 * without it the folder configure chose (--with-test-data, by default this
 * repository's tests/data); static buffer. When it does not exist, the
 * program stops at once with "SKIP: test data PATH not found ..." and exit
 * status 77, which make check reports as SKIP. */
const char *xmt_test_data_path(const char *relative);
/* The same check for several paths at once, before a test needs them: the
 * list ends with NULL; returns only when every one exists. */
void xmt_test_require_data(const char *relative, ...)
#if defined(__GNUC__)
    __attribute__((sentinel))
#endif
    ;
/* Path of a file under $XMT_FIXTURES (this repository's tests/fixtures);
 * static buffer. */
const char *xmt_test_fixture_path(const char *relative);
/* A scratch folder for a suite: created by xmt_test_tmpdir_create (returns
 * 0 on success, as a CUnit suite init), emptied and removed by
 * xmt_test_tmpdir_remove. xmt_test_tmp_path names a file in it; results
 * rotate over 4 buffers, so two calls may share one expression. */
int xmt_test_tmpdir_create(const char *prefix);
int xmt_test_tmpdir_remove(void);
const char *xmt_test_tmp_path(const char *name);
/* Files in the scratch folder: outputs must not linger after failed runs. */
int xmt_test_files_in_tmpdir(void);
/* Asserts that two byte strings are equal, printing the first difference. */
#define XMT_ASSERT_BYTES_EQUAL(actual, alen, expected, elen)                   \
  CU_ASSERT_TRUE(xmt_test_bytes_equal((actual), (alen), (expected), (elen),    \
                                      __FILE__, __LINE__))
int xmt_test_bytes_equal(const char *a, size_t alen, const char *b, size_t blen,
                         const char *file, int line);

#endif
