/* batch_state.c -- the documents of a batch's output tree whose output is
 * not whole: begun and not finished, finished with untranslated segments,
 * or failed. They are listed in OUTDIR/.xliffmt-incomplete, one relative
 * path a line ('%', CR and LF written %25, %0D, %0A), so that a rerun
 * translates them again although their output may be newer than their
 * input. A document is listed before it is handed to a worker and taken
 * off only when it is done: a batch killed at any moment leaves no
 * partial output that a rerun would call up to date. A document without
 * an output cannot be taken for a finished one: it is taken off the list
 * when the list is read and when the batch ends. The file exists only
 * while some document is listed. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The index of rel, or where it would go (*found 0). */
static size_t find(const struct xmt_cli_batch_state *st, const char *rel,
                   int *found) {
  size_t lo = 0, hi = st->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(st->rels[mid], rel);
    if (c == 0) {
      *found = 1;
      return mid;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = 0;
  return lo;
}

static int add(struct xmt_cli_batch_state *st, char *rel) {
  if (st->n == st->cap) {
    char **rels = xmt_cli_grow(st->rels, &st->cap, st->n + 1, sizeof *rels);
    if (rels == NULL)
      return -1;
    st->rels = rels;
  }
  st->rels[st->n++] = rel;
  return 0;
}

/* Decodes %XX in place. */
static void unescape(char *s) {
  char *w = s;
  for (const char *r = s; *r != '\0'; r++) {
    unsigned v;
    if (*r == '%' && sscanf(r + 1, "%2x", &v) == 1 && r[1] && r[2]) {
      *w++ = (char)v;
      r += 2;
    } else {
      *w++ = *r;
    }
  }
  *w = '\0';
}

int xmt_cli_batch_state_load(struct xmt_cli_batch_state *st,
                             const char *outdir) {
  memset(st, 0, sizeof *st);
  size_t len = strlen(outdir);
  st->path = malloc(len + sizeof "/.xliffmt-incomplete");
  if (st->path == NULL)
    return -1;
  memcpy(st->path, outdir, len);
  memcpy(st->path + len, "/.xliffmt-incomplete", sizeof "/.xliffmt-incomplete");
  FILE *fp = fopen(st->path, "rb");
  if (fp == NULL)
    return errno == ENOENT ? 0 : -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  int rc = 0;
  while (rc == 0 && (got = getline(&line, &cap, fp)) > 0) {
    if (line[got - 1] == '\n')
      line[--got] = '\0';
    if (got == 0)
      continue;
    unescape(line);
    char *rel = strdup(line);
    if (rel == NULL || add(st, rel) != 0) {
      free(rel);
      rc = -1;
    }
  }
  free(line);
  if (ferror(fp))
    rc = -1;
  fclose(fp);
  if (st->n > 1)
    qsort(st->rels, st->n, sizeof *st->rels, by_name);
  return rc;
}

int xmt_cli_batch_state_has(const struct xmt_cli_batch_state *st,
                            const char *rel) {
  int found;
  find(st, rel, &found);
  return found;
}

/* Writes the list whole under a temporary name, or removes the file when
 * the list is empty. */
static int save(const struct xmt_cli_batch_state *st) {
  if (st->n == 0)
    return unlink(st->path) == 0 || errno == ENOENT ? 0 : -1;
  struct xmt_cli_output out;
  if (xmt_cli_output_open(&out, st->path) != EXIT_OK)
    return -1;
  for (size_t i = 0; i < st->n; i++) {
    for (const char *p = st->rels[i]; *p != '\0'; p++)
      if (*p == '%' || *p == '\n' || *p == '\r')
        fprintf(out.fp, "%%%02X", (unsigned char)*p);
      else
        fputc(*p, out.fp);
    fputc('\n', out.fp);
  }
  return xmt_cli_output_commit(&out) == EXIT_OK ? 0 : -1;
}

int xmt_cli_batch_state_mark(struct xmt_cli_batch_state *st, const char *rel,
                             int incomplete) {
  int found;
  size_t at = find(st, rel, &found);
  if (found == incomplete)
    return 0;
  if (incomplete) {
    char *copy = strdup(rel);
    if (copy == NULL || add(st, copy) != 0) {
      free(copy);
      return -1;
    }
    memmove(st->rels + at + 1, st->rels + at,
            (st->n - 1 - at) * sizeof *st->rels);
    st->rels[at] = copy;
  } else {
    free(st->rels[at]);
    memmove(st->rels + at, st->rels + at + 1,
            (st->n - at - 1) * sizeof *st->rels);
    st->n--;
  }
  return save(st);
}

int xmt_cli_batch_state_prune(struct xmt_cli_batch_state *st,
                              const char *outdir) {
  size_t kept = 0, dir_len = strlen(outdir);
  for (size_t i = 0; i < st->n; i++) {
    size_t len = strlen(st->rels[i]);
    char *out = malloc(dir_len + len + 2);
    if (out == NULL)
      return -1;
    memcpy(out, outdir, dir_len);
    out[dir_len] = '/';
    memcpy(out + dir_len + 1, st->rels[i], len + 1);
    struct stat sb;
    int exists = lstat(out, &sb) == 0;
    free(out);
    if (exists)
      st->rels[kept++] = st->rels[i];
    else
      free(st->rels[i]);
  }
  if (kept == st->n)
    return 0;
  st->n = kept;
  return save(st);
}

void xmt_cli_batch_state_free(struct xmt_cli_batch_state *st) {
  for (size_t i = 0; i < st->n; i++)
    free(st->rels[i]);
  free(st->rels);
  free(st->path);
  memset(st, 0, sizeof *st);
}
