/* files.c -- the files of a command: every file it reads and writes,
 * named before any work, so that no file it writes is one it reads or
 * another of its outputs. A file is known by its device and inode when
 * it exists, else by its folder's canonical name and its own: two names
 * of one file, made or not yet, are found the same. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* How a file is known: not at all (standard input or output, a device,
 * a pipe, a folder: writing there destroys nothing), by its inode, or by
 * its canonical name (a file not made yet). */
enum key_kind { KEY_NONE, KEY_INODE, KEY_NAME };

struct xmt_cli_file {
  char *path, *of;
  const char *option, *what;
  enum xmt_cli_file_use use;
  enum key_kind kind;
  dev_t dev;
  ino_t ino;
  char *canon;
  size_t order; /* of registration: the later output is the one refused */
  int fd;       /* STDOUT_FILENO for standard output, else -1 */
};

void xmt_cli_files_init(struct xmt_cli_files *fs) { memset(fs, 0, sizeof *fs); }

void xmt_cli_files_free(struct xmt_cli_files *fs) {
  for (size_t i = 0; i < fs->n; i++) {
    free(fs->v[i].path);
    free(fs->v[i].of);
    free(fs->v[i].canon);
  }
  free(fs->v);
  memset(fs, 0, sizeof *fs);
}

static void add(struct xmt_cli_files *fs, enum xmt_cli_file_use use,
                const char *path, const char *option, const char *what,
                const char *of, int fd) {
  if (fs->n == fs->cap) {
    struct xmt_cli_file *v =
        xmt_grow_array(fs->v, &fs->cap, fs->n + 1, sizeof *v);
    if (v == NULL) {
      fs->nomem = 1;
      return;
    }
    fs->v = v;
  }
  struct xmt_cli_file *f = &fs->v[fs->n];
  memset(f, 0, sizeof *f);
  f->path = strdup(path);
  f->of = of != NULL ? strdup(of) : NULL;
  if (f->path == NULL || (of != NULL && f->of == NULL)) {
    free(f->path);
    free(f->of);
    fs->nomem = 1;
    return;
  }
  f->option = option;
  f->what = what;
  f->use = use;
  f->fd = fd;
  f->order = fs->n++;
}

void xmt_cli_files_add(struct xmt_cli_files *fs, enum xmt_cli_file_use use,
                       const char *path, const char *option, const char *what,
                       const char *of) {
  if (path != NULL && path[0] != '\0' && strcmp(path, "-") != 0)
    add(fs, use, path, option, what, of, -1);
}

void xmt_cli_files_add_output(struct xmt_cli_files *fs, const char *path) {
  if (path != NULL && strcmp(path, "-") != 0)
    xmt_cli_files_add(fs, XMT_CLI_WRITES, path, "-o", "the output", NULL);
  else /* a file when redirected to one: "xliffmt translate a.xlf >>a.xlf" */
    add(fs, XMT_CLI_WRITES, "standard output", "", "standard output", NULL,
        STDOUT_FILENO);
}

/* The last canonical folder found: the outputs of a batch share a few. */
struct folder_memo {
  char *dir, *real;
};

/* The canonical name of folder dir, which may not exist yet: its longest
 * existing part resolved, the rest appended as written ("." and ".."
 * taken by name: a folder not made yet is no symbolic link). */
static char *canonical_dir(const char *dir) {
  char *real = realpath(dir, NULL);
  /* "." itself missing: the working directory was removed (getcwd fails
   * with ENOENT), and there is nothing above it to resolve. */
  if (real != NULL || errno != ENOENT || strcmp(dir, ".") == 0)
    return real;
  const char *slash = strrchr(dir, '/');
  while (slash != NULL && slash > dir && slash[-1] == '/')
    slash--;
  char *up = slash == NULL  ? strdup(".")
             : slash == dir ? strdup("/")
                            : strndup(dir, (size_t)(slash - dir));
  char *base = up != NULL ? canonical_dir(up) : NULL;
  free(up);
  if (base == NULL)
    return NULL;
  const char *last = slash != NULL ? slash + 1 : dir;
  while (*last == '/')
    last++;
  size_t bl = strlen(base), ll = strlen(last);
  if (ll == 0 || strcmp(last, ".") == 0)
    return base;
  if (strcmp(last, "..") == 0) {
    char *cut = strrchr(base, '/');
    if (cut != NULL)
      cut[cut == base ? 1 : 0] = '\0';
    return base;
  }
  char *out = realloc(base, bl + ll + 2);
  if (out == NULL) {
    free(base);
    return NULL;
  }
  if (bl > 0 && out[bl - 1] != '/')
    out[bl++] = '/';
  memcpy(out + bl, last, ll + 1);
  return out;
}

/* The folder path names a file in, as written: "." for a bare name. */
static char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash == NULL   ? strdup(".")
         : slash == path ? strdup("/")
                         : strndup(path, (size_t)(slash - path));
}

/* The canonical name of path's folder, then '/' and its last part: the
 * same for two names of one file that does not exist yet. */
static char *canonical(const char *path, struct folder_memo *memo) {
  const char *slash = strrchr(path, '/');
  char *dir = folder_of(path);
  if (dir == NULL)
    return NULL;
  if (memo->dir == NULL || strcmp(memo->dir, dir) != 0) {
    free(memo->dir);
    free(memo->real);
    memo->dir = dir;
    memo->real = canonical_dir(dir);
  } else {
    free(dir);
  }
  if (memo->real == NULL)
    return NULL;
  const char *base = slash != NULL ? slash + 1 : path;
  size_t rl = strlen(memo->real), bl = strlen(base);
  char *out = malloc(rl + bl + 2);
  if (out != NULL) {
    memcpy(out, memo->real, rl);
    out[rl] = '/';
    memcpy(out + rl + 1, base, bl + 1);
  }
  return out;
}

/* How f is known; 0, or -1 when out of memory. */
static int identify(struct xmt_cli_file *f, struct folder_memo *memo) {
  struct stat st;
  if (f->fd >= 0) {
    if (fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode)) {
      f->kind = KEY_INODE;
      f->dev = st.st_dev;
      f->ino = st.st_ino;
    }
    return 0;
  }
  if (stat(f->path, &st) == 0) {
    f->kind = S_ISREG(st.st_mode) ? KEY_INODE : KEY_NONE;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    return 0;
  }
  if (errno != ENOENT) /* unreadable: the command itself will say */
    return 0;
  f->canon = canonical(f->path, memo);
  if (f->canon != NULL)
    f->kind = KEY_NAME;
  return f->canon != NULL || errno != ENOMEM ? 0 : -1;
}

static int by_key(const void *x, const void *y) {
  const struct xmt_cli_file *a = x, *b = y;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  if (a->kind == KEY_NAME)
    return strcmp(a->canon, b->canon);
  if (a->dev != b->dev)
    return a->dev < b->dev ? -1 : 1;
  if (a->ino != b->ino)
    return a->ino < b->ino ? -1 : 1;
  return 0;
}

static int same_key(const struct xmt_cli_file *a,
                    const struct xmt_cli_file *b) {
  return a->kind != KEY_NONE && by_key(a, b) == 0;
}

/* Among the files v[0, n) that are one file: the output to refuse (the
 * one named last), or NULL when none writes or it is named once. *other
 * gets the file it would destroy (the one named first). */
static const struct xmt_cli_file *clash_in(const struct xmt_cli_file *v,
                                           size_t n,
                                           const struct xmt_cli_file **other) {
  const struct xmt_cli_file *out = NULL, *first = NULL;
  for (size_t i = 0; i < n; i++) {
    if (v[i].use != XMT_CLI_READS && (out == NULL || v[i].order > out->order))
      out = &v[i];
  }
  if (out == NULL || n < 2)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (&v[i] != out && (first == NULL || v[i].order < first->order))
      first = &v[i];
  *other = first;
  return out;
}

static int by_order(const void *x, const void *y) {
  const struct xmt_cli_file *a = x, *b = y;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* 0 when a file can be made as the atomic output file makes one at path
 * (a temporary file in its folder, made and removed at once: what root,
 * whom modes do not stop, and a read-only file system answer truly,
 * unlike access()); else the reason, an errno. */
static int try_create(const char *path) {
  xmt_atomic_file *af = xmt_atomic_file_new();
  if (af == NULL)
    return ENOMEM;
  int e = xmt_atomic_file_open(af, path, 0) == XMT_OK
              ? 0
              : xmt_atomic_file_errno(af);
  xmt_atomic_file_free(af); /* removes the temporary file */
  return e;
}

/* The folder a command makes first for path: the shallowest missing
 * one, or, when what is there is no folder, the one whose making fails
 * (*e ENOTDIR then). NULL when path's folder exists (or cannot be
 * told: creating the file says why); *e ENOMEM when out of memory. */
static char *first_missing(const char *path, int *e) {
  char *missing = NULL, *dir = folder_of(path);
  struct stat st;
  *e = 0;
  while (dir != NULL && stat(dir, &st) != 0 &&
         (errno == ENOENT || errno == ENOTDIR)) {
    char *up = folder_of(dir);
    free(missing);
    missing = dir;
    dir = up;
    if (up != NULL && strcmp(up, missing) == 0)
      break; /* "." or "/": its own folder */
  }
  if (dir == NULL) {
    free(missing);
    *e = ENOMEM;
    return NULL;
  }
  if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    *e = ENOTDIR; /* mkdir fails: a file where a folder must be */
    if (missing == NULL)
      return dir;
  }
  free(dir);
  return missing;
}

/* The folder probed last and its answer: a batch's outputs share a few. */
struct probe_memo {
  char *dir;
  int e;
};

/* 0 when f can be written, else why not (an errno); *target is the
 * missing folder probed in its stead, if any. */
static int probe_writable(const struct xmt_cli_file *f, int cache,
                          struct probe_memo *memo, char **target) {
  struct stat st;
  int e = 0;
  int exists = stat(f->path, &st) == 0;
  *target = NULL;
  if (exists && S_ISDIR(st.st_mode))
    e = EISDIR;
  else if (exists && (!S_ISREG(st.st_mode) || cache))
    return 0; /* a device or a pipe is written to, never replaced; a cache
               * there is SQLite's to open, which tells a read-only one as
               * such */
  if (e == 0 &&
      (f->use == XMT_CLI_WRITES_UNDER || f->use == XMT_CLI_UPDATES_UNDER))
    *target = first_missing(f->path, &e);
  if (e == 0) {
    char *dir = folder_of(*target != NULL ? *target : f->path);
    if (dir == NULL) {
      e = ENOMEM;
    } else if (memo->dir != NULL && strcmp(memo->dir, dir) == 0) {
      e = memo->e;
      free(dir);
    } else {
      e = try_create(*target != NULL ? *target : f->path);
      free(memo->dir);
      memo->dir = dir;
      memo->e = e;
    }
  }
  return e;
}

/* EXIT_OK when f can be written; else reported, its exit status. */
static int check_writable(const struct xmt_cli_file *f,
                          struct probe_memo *memo) {
  int cache = strcmp(f->option, "--cache") == 0;
  char *target;
  int e = probe_writable(f, cache, memo, &target);
  /* A folder that another process made or removed between the look and
   * the probe (shares of one batch starting at once make the same folders
   * and remove the empty ones): looked at again. */
  for (int tries = 0;
       ((target != NULL && e == EISDIR) || e == ENOENT) && tries < 8; tries++) {
    free(target);
    free(memo->dir);
    memo->dir = NULL;
    e = probe_writable(f, cache, memo, &target);
  }
  int is_dir = target != NULL;
  const char *name = target != NULL ? target : f->path;
  if (e == ENOMEM)
    fputs("xliffmt: out of memory\n", stderr);
  else if (e != 0 && cache)
    xmt_cli_say("xliffmt: %s: cache: cannot open: %s\n", name, strerror(e));
  else if (e != 0)
    xmt_cli_say("xliffmt: %s: cannot create %s: %s\n", name,
                is_dir ? "the directory" : "output", strerror(e));
  free(target);
  if (e == 0)
    return EXIT_OK;
  return e != ENOMEM && cache ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

/* Each file written, in the order named, the outputs before the files
 * updated (a batch's outputs before its markers): the first that cannot
 * be. */
static int check_outputs(struct xmt_cli_files *fs) {
  if (fs->n > 1)
    qsort(fs->v, fs->n, sizeof *fs->v, by_order);
  struct probe_memo memo = {NULL, 0};
  int rc = EXIT_OK, cache_seen = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < fs->n && rc == EXIT_OK; i++) {
      enum xmt_cli_file_use u = fs->v[i].use;
      int output = u == XMT_CLI_WRITES || u == XMT_CLI_WRITES_UNDER;
      /* The cache's database only, named first: its -wal, -shm and
       * -journal files are SQLite's to make, as it can. */
      int cache = strcmp(fs->v[i].option, "--cache") == 0;
      if (u == XMT_CLI_READS || output != (pass == 0) || fs->v[i].fd >= 0 ||
          (cache && cache_seen++ > 0))
        continue;
      rc = check_writable(&fs->v[i], &memo);
    }
  free(memo.dir);
  return rc;
}

int xmt_cli_files_check(struct xmt_cli_files *fs) {
  struct folder_memo memo = {NULL, NULL};
  int nomem = fs->nomem;
  for (size_t i = 0; i < fs->n && !nomem; i++)
    nomem = identify(&fs->v[i], &memo) != 0;
  free(memo.dir);
  free(memo.real);
  if (nomem) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  if (fs->n > 1)
    qsort(fs->v, fs->n, sizeof *fs->v, by_key);
  /* Of all clashes, the one of the output named first: the same message
   * whatever the inodes' order. */
  const struct xmt_cli_file *out = NULL, *other = NULL;
  for (size_t i = 0, j; i < fs->n; i = j) {
    for (j = i + 1; j < fs->n && same_key(&fs->v[i], &fs->v[j]); j++)
      ;
    const struct xmt_cli_file *o = NULL, *c = clash_in(&fs->v[i], j - i, &o);
    if (c != NULL && (out == NULL || c->order < out->order)) {
      out = c;
      other = o;
    }
  }
  if (out == NULL)
    return check_outputs(fs);
  if (out->fd >= 0) {
    xmt_cli_say("xliffmt: %s: standard output is %s%s%s: it would be "
                "overwritten\n",
                other->path, other->what, other->of != NULL ? " of " : "",
                other->of != NULL ? other->of : "");
    return EXIT_BAD_INPUT;
  }
  xmt_cli_say("xliffmt: %s: %s names %s%s%s: it would be overwritten\n",
              out->path, out->option, other->what,
              other->of != NULL ? " of " : "",
              other->of != NULL ? other->of : "");
  return EXIT_BAD_INPUT;
}

void xmt_cli_files_add_run(struct xmt_cli_files *fs,
                           const struct xmt_cli_settings *s, const char *in,
                           const char *out) {
  xmt_cli_files_add(fs, XMT_CLI_READS, in, "", "the input", NULL);
  xmt_cli_files_add(fs, XMT_CLI_READS, s->srx, "--srx",
                    "the segmentation rules", NULL);
  for (size_t k = 0; k < s->ndicts; k++)
    if (strcmp(s->dicts[k], "auto") != 0 && strcmp(s->dicts[k], "none") != 0)
      xmt_cli_files_add(fs, XMT_CLI_READS, s->dicts[k], "--dictionary",
                        "a dictionary", NULL);
  xmt_cli_files_add(fs, XMT_CLI_READS, s->translations, "--translations",
                    "the translations", NULL);
  xmt_cli_files_add(fs, XMT_CLI_READS, s->alignments, "--alignments",
                    "the alignments", NULL);
  xmt_cli_files_add(fs, XMT_CLI_READS, s->source_tokens, "--source-tokens",
                    "the source tokens", NULL);
  xmt_cli_files_add(fs, XMT_CLI_READS, s->target_tokens, "--target-tokens",
                    "the target tokens", NULL);
  xmt_cli_files_add(
      fs, s->flags & XMT_FILTER_UPDATE_MODEL ? XMT_CLI_UPDATES : XMT_CLI_READS,
      s->align_model, "--align-model", "the aligner model", NULL);
  if (s->cache != NULL && strncmp(s->cache, "sqlite:", 7) == 0) {
    /* SQLite's own files beside it too (WAL mode). */
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    const char *db = s->cache + 7;
    size_t len = strlen(db);
    char *name = malloc(len + 9);
    if (name == NULL)
      fs->nomem = 1;
    for (size_t k = 0; name != NULL && k < 4; k++) {
      memcpy(name, db, len);
      memcpy(name + len, suffixes[k], strlen(suffixes[k]) + 1);
      xmt_cli_files_add(fs, XMT_CLI_UPDATES, name, "--cache",
                        "the translation memory", NULL);
    }
    free(name);
  }
  if (in != NULL) /* a batch names its documents itself */
    xmt_cli_files_add_output(fs, out);
  xmt_cli_files_add(fs, XMT_CLI_WRITES, s->report, "--report", "the report",
                    NULL);
}

int xmt_cli_run_files_check(const struct xmt_cli_settings *s, const char *in) {
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add_run(&fs, s, in, s->out);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}
