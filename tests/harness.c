/* harness.c -- main() for the CUnit test programs. */
#include <CUnit/Basic.h>
#include <dirent.h>
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

const char *xmt_test_data_path(const char *relative) {
  return join("XMT_TEST_DATA", "../shared/data", relative);
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

static char tmpdir[256];

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
  return rmdir(tmpdir);
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
