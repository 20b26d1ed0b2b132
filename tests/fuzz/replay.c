/* replay.c -- runs a fuzz target over its seed corpus and its past crashes
 * without libFuzzer, so that `make check` keeps checking them with any
 * compiler. Directories come from the command line, or else are
 * $XMT_FIXTURES/../fuzz/{corpus,crashes}/FUZZ_NAME. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
    return 1;
  }
  struct fuzz_out in = {0};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    fuzz_sink(&in, buf, n);
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    fprintf(stderr, "%s: read error\n", path);
    free(in.data);
    return 1;
  }
  /* an exact-size copy, so that ASan sees reads past the end */
  uint8_t *copy = malloc(in.len ? in.len : 1);
  if (copy == NULL)
    abort();
  if (in.len > 0)
    memcpy(copy, in.data, in.len);
  free(in.data);
  fprintf(stderr, "%s\n", path);
  LLVMFuzzerTestOneInput(copy, in.len);
  free(copy);
  return 0;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every file of dir, in name order; *count gets how many. A
 * missing directory is no error when optional. */
static int replay_dir(const char *dir, int optional, size_t *count) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    if (optional && errno == ENOENT)
      return 0;
    fprintf(stderr, "%s: %s\n", dir, strerror(errno));
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, cap * sizeof *names);
      if (names == NULL)
        abort();
    }
    names[n] = strdup(e->d_name);
    if (names[n++] == NULL)
      abort();
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(dir) + strlen(names[i]) + 2;
    char *path = malloc(len);
    if (path == NULL)
      abort();
    snprintf(path, len, "%s/%s", dir, names[i]);
    rc |= replay_file(path);
    free(path);
    free(names[i]);
  }
  free(names);
  *count += n;
  return rc;
}

int main(int argc, char **argv) {
  size_t count = 0;
  int rc = 0;
  if (argc > 1) {
    for (int i = 1; i < argc; i++)
      rc |= replay_dir(argv[i], 0, &count);
  } else {
    const char *fixtures = getenv("XMT_FIXTURES");
    if (fixtures == NULL) {
      fprintf(stderr, "replay: set XMT_FIXTURES or name directories\n");
      return 2;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../fuzz/corpus/%s", fixtures, FUZZ_NAME);
    rc |= replay_dir(dir, 0, &count);
    snprintf(dir, sizeof dir, "%s/../fuzz/crashes/%s", fixtures, FUZZ_NAME);
    rc |= replay_dir(dir, 1, &count);
  }
  if (rc == 0 && count == 0) {
    fprintf(stderr, "replay: no inputs\n");
    rc = 1;
  }
  fprintf(stderr, "%s: %zu inputs replayed\n", FUZZ_NAME, count);
  return rc;
}
