/* batch_settings.c -- the settings an output tree's documents were
 * translated with. An output newer than its input is up to date only if
 * it was made with the settings of the run that finds it: a batch into
 * French over the tree a batch into Spanish wrote, or with another
 * engine or its options, translates every document again instead of
 * calling the Spanish ones done.
 *
 * OUTDIR/.xliffmt-settings lists the options that decide a document's
 * output (not -o, -j, --report, --cache, timeouts and the like), one a
 * line, sorted. A run whose options differ writes its own there; the
 * file's time is then the time the settings changed, and an output
 * older than it was made with others. A tree without the file (a new
 * one, or one an earlier version wrote) gets it dated to 1970: its
 * outputs are taken as made with the run's settings. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"

#define SETTINGS_FILE ".xliffmt-settings"

/* Options that change no byte of an output: where it goes, how many at
 * once, what is reported, how long an engine may take, the cache (whose
 * answers are keyed by the settings that decide them). */
static int decides_nothing(int code) {
  switch (code) {
  case 'o':
  case 'q':
  case XMT_OPT_REPORT:
  case XMT_OPT_TIMEOUT:
  case XMT_OPT_BATCH:
  case XMT_OPT_ENGINE_JOBS:
  case XMT_OPT_KEEP_GOING:
  case XMT_OPT_MAX_ANSWER:
  case XMT_OPT_CACHE:
  case XMT_OPT_CACHE_MAX:
    return 1;
  default:
    return 0;
  }
}

int xmt_cli_batch_settings_note(struct xmt_cli_batch_settings *bs,
                                const struct xmt_cli_command *cmd, int code,
                                const char *arg) {
  if (decides_nothing(code))
    return 0;
  const struct xmt_cli_option *o = xmt_cli_find_option(cmd, code);
  if (bs->n == bs->cap) {
    size_t cap = bs->cap != 0 ? 2 * bs->cap : 16;
    char **lines = realloc(bs->lines, cap * sizeof *lines);
    if (lines == NULL)
      return -1;
    bs->lines = lines;
    bs->cap = cap;
  }
  const char *name = o != NULL ? o->name : "?";
  /* A command or library named by a relative path is another engine
   * where the batch runs elsewhere, as in the cache's keys. */
  char *cwd = code == 'm' && arg != NULL &&
                      (strncmp(arg, "cmd:", 4) == 0 ||
                       strncmp(arg, "plugin:", 7) == 0) &&
                      strchr(arg, ':')[1] != '/'
                  ? getcwd(NULL, 0)
                  : NULL;
  size_t len = strlen(name) + (arg != NULL ? strlen(arg) : 0) +
               (cwd != NULL ? strlen(cwd) + 8 : 0) + 5;
  char *line = malloc(len);
  if (line == NULL) {
    free(cwd);
    return -1;
  }
  /* A line break in an argument would read as two options. */
  snprintf(line, len, "--%s%s%s%s%s%s", name, arg != NULL ? " " : "",
           arg != NULL ? arg : "", cwd != NULL ? " (in " : "",
           cwd != NULL ? cwd : "", cwd != NULL ? ")" : "");
  free(cwd);
  for (char *p = line; *p != '\0'; p++)
    if (*p == '\n')
      *p = ' ';
  bs->lines[bs->n++] = line;
  return 0;
}

void xmt_cli_batch_settings_free(struct xmt_cli_batch_settings *bs) {
  for (size_t i = 0; i < bs->n; i++)
    free(bs->lines[i]);
  free(bs->lines);
  memset(bs, 0, sizeof *bs);
}

static int by_text(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The file's text, or NULL (errno ENOENT when there is none). */
static char *read_text(const char *path) {
  FILE *fp = fopen(path, "re");
  if (fp == NULL)
    return NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  int c;
  while (mem != NULL && (c = getc(fp)) != EOF && len < 65536)
    putc(c, mem);
  int bad = ferror(fp);
  fclose(fp);
  if (mem == NULL || fclose(mem) != 0 || bad) {
    free(text);
    errno = EIO;
    return NULL;
  }
  return text;
}

static int write_text(const char *path, const char *text) {
  xmt_atomic_file *af = xmt_atomic_file_new();
  xmt_status st =
      af == NULL ? XMT_ERR_NOMEM : xmt_atomic_file_open(af, path, 0);
  if (st == XMT_OK) {
    fputs(text, xmt_atomic_file_stream(af));
    st = xmt_atomic_file_commit(af);
  }
  if (st != XMT_OK) {
    const struct xmt_error *e = af != NULL ? xmt_atomic_file_error(af) : NULL;
    xmt_cli_say("xliffmt: %s: %s\n", path,
                e != NULL && e->message != NULL ? e->message
                                                : xmt_strerror(st));
  }
  xmt_atomic_file_free(af);
  return st == XMT_OK ? 0 : -1;
}

int xmt_cli_batch_settings_stamp(struct xmt_cli_batch_settings *bs,
                                 const char *outdir, struct stat *since) {
  qsort(bs->lines, bs->n, sizeof *bs->lines, by_text);
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (mem == NULL)
    return -1;
  fputs("# the options this output tree was translated with (xliffmt "
        "batch)\n",
        mem);
  for (size_t i = 0; i < bs->n; i++)
    fprintf(mem, "%s\n", bs->lines[i]);
  char *path = xmt_cli_join(outdir, SETTINGS_FILE);
  if (fclose(mem) != 0 || path == NULL) {
    free(text);
    free(path);
    return -1;
  }
  char *old = read_text(path);
  int rc = 0, absent = old == NULL && errno == ENOENT;
  if (old == NULL && !absent) {
    xmt_cli_say("xliffmt: %s: cannot read: %s\n", path, strerror(errno));
    rc = -1;
  } else if (old == NULL || strcmp(old, text) != 0) {
    rc = write_text(path, text);
  }
  /* A tree without settings: its outputs are taken as this run's. */
  static const struct timespec epoch[2] = {{0, 0}, {0, 0}};
  if (rc == 0 && absent && utimensat(AT_FDCWD, path, epoch, 0) != 0) {
    xmt_cli_say("xliffmt: %s: cannot date: %s\n", path, strerror(errno));
    rc = -1;
  }
  if (rc == 0 && stat(path, since) != 0) {
    xmt_cli_say("xliffmt: %s: %s\n", path, strerror(errno));
    rc = -1;
  }
  free(old);
  free(text);
  free(path);
  return rc;
}
