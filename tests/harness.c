/* harness.c -- main() for the CUnit test programs. */
#include <CUnit/Basic.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

char *xmt_test_read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return NULL;
  size_t cap = 4096, n = 0;
  char *data = malloc(cap);
  size_t got;
  while (data != NULL && (got = fread(data + n, 1, cap - n - 1, fp)) > 0) {
    n += got;
    if (cap - n - 1 == 0) {
      char *bigger = realloc(data, cap * 2);
      if (bigger == NULL) {
        free(data);
        data = NULL;
        break;
      }
      data = bigger;
      cap *= 2;
    }
  }
  fclose(fp);
  if (data != NULL) {
    data[n] = '\0';
    if (len != NULL)
      *len = n;
  }
  return data;
}

static const char *join(const char *var, const char *fallback,
                        const char *relative) {
  static char path[4096];
  const char *dir = getenv(var);
  snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : fallback, relative);
  return path;
}

/* configure's --with-test-data, by default $srcdir/tests/data. */
#ifndef XMT_TEST_DATA_DEFAULT
#define XMT_TEST_DATA_DEFAULT "tests/data"
#endif

static char tmpdir[256];

static void data_path(char *path, size_t size, const char *relative) {
  const char *dir = getenv("XMT_TEST_DATA");
  if (dir == NULL || dir[0] == '\0')
    dir = XMT_TEST_DATA_DEFAULT;
  snprintf(path, size, "%s/%s", dir, relative);
}

/* A test that cannot find its data is skipped, not failed: exit status 77
 * is SKIP to automake's test driver. _exit, because the test stops half
 * way: LeakSanitizer would count what it holds as leaks. */
static void require(const char *path) {
  if (access(path, F_OK) == 0)
    return;
  fflush(stdout);
  printf("\nSKIP: test data %s not found "
         "(set XMT_TEST_DATA or --with-test-data)\n",
         path);
  fflush(stdout);
  fflush(stderr);
  if (tmpdir[0] != '\0')
    xmt_test_tmpdir_remove();
  _exit(77);
}

const char *xmt_test_data_path(const char *relative) {
  static char path[4096];
  data_path(path, sizeof path, relative);
  require(path);
  return path;
}

void xmt_test_require_data(const char *relative, ...) {
  char path[4096];
  va_list ap;
  va_start(ap, relative);
  for (const char *r = relative; r != NULL; r = va_arg(ap, const char *)) {
    data_path(path, sizeof path, r);
    require(path);
  }
  va_end(ap);
}

const char *xmt_test_fixture_path(const char *relative) {
  return join("XMT_FIXTURES", "tests/fixtures", relative);
}

int xmt_test_bytes_equal(const char *a, size_t alen, const char *b, size_t blen,
                         const char *file, int line) {
  size_t i = 0;
  while (i < alen && i < blen && a[i] == b[i])
    i++;
  if (i == alen && i == blen)
    return 1;
  size_t from = i > 40 ? i - 40 : 0;
  fprintf(stderr, "\n%s:%d: bytes differ at offset %zu (lengths %zu, %zu)\n",
          file, line, i, alen, blen);
  fprintf(stderr, "  actual:   «%.*s»\n",
          (int)((alen > from ? alen - from : 0) < 80 ? alen - from : 80),
          a + from);
  fprintf(stderr, "  expected: «%.*s»\n",
          (int)((blen > from ? blen - from : 0) < 80 ? blen - from : 80),
          b + from);
  return 0;
}

int main(void) {
  if (CU_initialize_registry() != CUE_SUCCESS)
    return 2;
  if (CU_register_suites(xmt_test_suites) != CUE_SUCCESS) {
    fprintf(stderr, "cannot register suites: %s\n", CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
  }
  CU_basic_set_mode(CU_BRM_VERBOSE);
  CU_basic_run_tests();
  unsigned failed =
      CU_get_number_of_failures() + CU_get_number_of_tests_failed();
  unsigned run = CU_get_number_of_tests_run();
  CU_cleanup_registry();
  if (run == 0) {
    fprintf(stderr, "no test ran\n");
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

int xmt_test_tmpdir_create(const char *prefix) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/xmt-%s-XXXXXX", prefix);
  return mkdtemp(tmpdir) == NULL;
}

int xmt_test_tmpdir_remove(void) {
  DIR *d = opendir(tmpdir);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name);
    if (e->d_name[0] != '.')
      unlink(path);
  }
  if (d != NULL)
    closedir(d);
  if (rmdir(tmpdir) != 0)
    return -1;
  tmpdir[0] = '\0';
  return 0;
}

const char *xmt_test_tmp_path(const char *name) {
  static char paths[4][512];
  static unsigned next;
  char *path = paths[next++ % 4];
  snprintf(path, sizeof paths[0], "%s/%s", tmpdir, name);
  return path;
}

int xmt_test_files_in_tmpdir(void) {
  int n = 0;
  DIR *d = opendir(tmpdir);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL)
    n += e->d_name[0] != '.';
  if (d != NULL)
    closedir(d);
  return n;
}
