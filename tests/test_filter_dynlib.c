/* test_filter_dynlib.c -- libcurl and libpq are loaded when an http engine
 * or a PostgreSQL cache is first made (base/dynlib.c): a library or a
 * function that cannot be loaded fails the engine's or the cache's
 * creation with a message naming the library and the loader's reason.
 * The sonames are set to a library that does not exist before the first
 * load of this program; tests/test_needed.sh checks that neither library
 * is linked. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends_private.h"
#include "curl_api.h"
#include "harness.h"
#include "pq_api.h"

#define NONE "libxmt-none.so.0"
#define NONE_WHY                                                               \
  NONE ": cannot open shared object file: No such file or directory"

struct table {
  void (*first)(void);
  void (*second)(void);
};

static void test_missing_library(void) {
  struct xmt_dynsym syms[] = {{"free", offsetof(struct table, first)}};
  struct table t = {NULL, NULL};
  char why[512] = "";
  CU_ASSERT_EQUAL(xmt_dynlib_load(NONE, syms, 1, &t, why, sizeof why), 1);
  CU_ASSERT_STRING_EQUAL(why, "cannot load " NONE ": " NONE_WHY);
  CU_ASSERT_PTR_NULL(t.first);
}

/* A library there, a function not: the message names both. */
static void test_missing_symbol(void) {
  struct xmt_dynsym syms[] = {
      {"free", offsetof(struct table, first)},
      {"xmt_no_such_function", offsetof(struct table, second)}};
  struct table t = {NULL, NULL};
  char why[512] = "";
  CU_ASSERT_EQUAL(xmt_dynlib_load("libc.so.6", syms, 2, &t, why, sizeof why),
                  1);
  const char *head = "cannot load libc.so.6: ";
  const char *tail = "libc.so.6: undefined symbol: xmt_no_such_function";
  size_t n = strlen(why);
  CU_ASSERT_EQUAL(strncmp(why, head, strlen(head)), 0);
  CU_ASSERT_TRUE(n > strlen(tail) && strcmp(why + n - strlen(tail), tail) == 0);
  CU_ASSERT_PTR_NULL(t.second);
}

static void test_loaded(void) {
  /* abs: a function the sanitizers do not intercept, so the program's
   * abs is libc's */
  struct xmt_dynsym syms[] = {{"abs", offsetof(struct table, first)},
                              {"abort", offsetof(struct table, second)}};
  struct table t = {NULL, NULL};
  char why[512] = "";
  CU_ASSERT_EQUAL(xmt_dynlib_load("libc.so.6", syms, 2, &t, why, sizeof why),
                  0);
  CU_ASSERT_STRING_EQUAL(why, "");
  void (*want)(void) = NULL;
  int (*libc_abs)(int) = abs;
  memcpy(&want, &libc_abs, sizeof want);
  CU_ASSERT_PTR_EQUAL(t.first, want);
  CU_ASSERT_PTR_NOT_NULL(t.second);
}

/* Twice: the failure is kept, as a success would be. */
static void test_http_engine(void) {
  xmt_curl_soname = NONE;
  static const char *const no_options[] = {NULL};
  const struct xmt_backend_config config = {
      "http://127.0.0.1:9/", no_options, "en", "es", 0, 0, NULL};
  for (int i = 0; i < 2; i++) {
    void *state = NULL;
    char err[512] = "";
    CU_ASSERT_EQUAL(
        xmt_backend_http.open(NULL, &config, &state, err, sizeof err), 1);
    CU_ASSERT_PTR_NULL(state);
    CU_ASSERT_STRING_EQUAL(err,
                           "http backend: cannot load " NONE ": " NONE_WHY);
  }
}

static void test_pg_cache(void) {
  xmt_pq_soname = NONE;
  for (int i = 0; i < 2; i++) {
    struct xmt_cache *cache = NULL;
    struct xmt_error_store err;
    memset(&err, 0, sizeof err);
    char warning[256] = "";
    CU_ASSERT_EQUAL(xmt_cache_open(&cache, "postgresql:dbname=none", 0, NULL,
                                   &err, warning, sizeof warning),
                    XMT_ERR_IO);
    CU_ASSERT_PTR_NULL(cache);
    CU_ASSERT_STRING_EQUAL(warning, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(err.pub.message);
    CU_ASSERT_STRING_EQUAL(err.pub.message, "cache: cannot connect: cannot "
                                            "load " NONE ": " NONE_WHY);
    xmt_error_clear(&err);
  }
}

static CU_TestInfo tests[] = {{"a library missing", test_missing_library},
                              {"a function missing", test_missing_symbol},
                              {"a library loaded", test_loaded},
                              {"http engine without libcurl", test_http_engine},
                              {"PostgreSQL cache without libpq", test_pg_cache},
                              CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/dynlib", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
