/* batch_state.c -- the documents of a batch's output tree whose output is
 * not whole: begun and not finished, finished with untranslated segments,
 * or failed. Each has a marker file, OUTDIR/.xliffmt-incomplete.d/REL
 * (the marker tree mirrors the output tree), so that a rerun translates
 * it again although its output may be newer than its input.
 *
 * Several batches may share an output tree at once (xliffmt-batch(1),
 * SCALE-OUT), on one machine or over a shared file system, so no batch
 * ever rewrites what another listed: each marker is one file, created
 * before its document is handed to a worker and removed only by the
 * batch that finished the document whole. While a batch works on a
 * document it holds a shared fcntl lock on the marker (fcntl locks hold
 * over NFS, and a process's locks go with it, whatever kills it). A
 * marker is removed only under an exclusive lock, after checking that
 * the path still names the file locked, and a lock taken is kept only
 * after the same check: a batch never removes a marker another holds.
 * A batch that leaves a document incomplete appends a line to its
 * marker; a batch that finished the same document whole removes the
 * marker only if it grew by no line since it began, since the output
 * now in place may be the other batch's.
 *
 * A marker whose document has no output is removed when a batch starts
 * and ends (such a document is translated anyway), unless a batch holds
 * it. The directory stays: it tells a walk of an input tree that holds
 * this output tree not to read it as input. The list the versions before
 * kept, OUTDIR/.xliffmt-incomplete (one path a line, '%', CR and LF
 * written %25, %0D, %0A), becomes markers when a batch starts. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define STATE_DIR "/.xliffmt-incomplete.d"
#define OLD_LIST "/.xliffmt-incomplete"

int xmt_cli_make_parents(const char *path) {
  char *p = strdup(path);
  if (p == NULL)
    return -1;
  for (char *s = p + 1; *s != '\0'; s++) {
    if (*s != '/')
      continue;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      xmt_cli_say("xliffmt: %s: cannot create the directory: %s\n", p,
                  strerror(errno));
      free(p);
      return -1;
    }
    *s = '/';
  }
  free(p);
  return 0;
}

static int same_inode(const struct stat *a, const struct stat *b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Locks fd's whole file (F_RDLCK, F_WRLCK), waiting or not: 1 when held
 * and path still names the file (a lock on a marker another batch
 * removed meanwhile is worth nothing), 0 when not, -1 on an error. A
 * file system without locks (ENOLCK: an NFS mount without its lock
 * daemon) is taken as one batch alone on its tree. */
static int lock_named(int fd, const char *path, short type, int wait,
                      struct stat *st) {
  struct flock fl;
  memset(&fl, 0, sizeof fl);
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  while (fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl) != 0) {
    if (errno == EAGAIN || errno == EACCES)
      return 0; /* another batch holds it */
    if (errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOSYS)
      break;
    if (errno != EINTR)
      return -1;
  }
  struct stat named;
  if (fstat(fd, st) != 0)
    return -1;
  return lstat(path, &named) == 0 && same_inode(st, &named);
}

/* Removes the directories of path's marker left empty, up to the root;
 * one another batch is filling stays (rmdir fails on it). */
static void remove_empty_parents(const struct xmt_cli_batch_state *st,
                                 char *path) {
  size_t root = strlen(st->root);
  char *slash;
  while ((slash = strrchr(path, '/')) != NULL &&
         (size_t)(slash - path) > root) {
    *slash = '\0';
    if (rmdir(path) != 0)
      break;
  }
}

/* Removes the marker at path when no batch holds it and, when size is
 * not -1, it has not grown past size. 1 when removed. */
static int remove_marker(const struct xmt_cli_batch_state *st, int fd,
                         char *path, off_t size) {
  struct stat sb;
  if (lock_named(fd, path, F_WRLCK, 0, &sb) != 1 ||
      (size >= 0 && sb.st_size != size) || unlink(path) != 0)
    return 0;
  remove_empty_parents(st, path);
  return 1;
}

/* A marker for rel, created if need be; fd -1 when it could not be. */
static int create_marker(const char *path, int *fd) {
  /* A directory another batch removes between our mkdir and open is
   * made again. */
  for (int tries = 0; tries < 100; tries++) {
    if (xmt_cli_make_parents(path) != 0)
      return -1;
    *fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (*fd >= 0 || errno != ENOENT)
      break;
  }
  if (*fd < 0) {
    xmt_cli_say("xliffmt: %s: cannot write: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

int xmt_cli_batch_state_begin(const struct xmt_cli_batch_state *st,
                              const char *rel, struct xmt_cli_batch_mark *m) {
  m->fd = -1;
  char *path = xmt_cli_join(st->root, rel);
  if (path == NULL)
    return -1;
  int rc = -1;
  for (int tries = 0; rc != 0 && tries < 100; tries++) {
    int fd;
    if (create_marker(path, &fd) != 0)
      break;
    struct stat sb;
    int held = lock_named(fd, path, F_RDLCK, 1, &sb);
    if (held == 1) {
      m->fd = fd;
      m->size = sb.st_size;
      rc = 0;
      continue;
    }
    if (held < 0) {
      xmt_cli_say("xliffmt: %s: cannot lock: %s\n", path, strerror(errno));
      close(fd);
      break;
    }
    close(fd); /* removed by another batch before we held it: anew */
  }
  free(path);
  return rc;
}

void xmt_cli_batch_state_end(const struct xmt_cli_batch_state *st,
                             const char *rel, struct xmt_cli_batch_mark *m,
                             const char *why) {
  if (m->fd < 0)
    return;
  char *path = xmt_cli_join(st->root, rel);
  if (why != NULL) {
    /* the line that tells a batch finishing it at the same time that
     * the document is not whole */
    ssize_t n = write(m->fd, why, strlen(why));
    (void)n;
  } else if (path != NULL) {
    remove_marker(st, m->fd, path, m->size);
  }
  free(path);
  close(m->fd); /* and its lock */
  m->fd = -1;
}

int xmt_cli_batch_state_has(const struct xmt_cli_batch_state *st,
                            const char *rel) {
  char *path = xmt_cli_join(st->root, rel);
  struct stat sb;
  /* listed unless surely not: an error reading it keeps the document */
  int has = path == NULL || lstat(path, &sb) == 0 ||
            (errno != ENOENT && errno != ENOTDIR);
  free(path);
  return has;
}

/* Removes the markers under dir (rel below the root) whose document has
 * no output and which no batch holds, and the directories left empty. */
static int prune_dir(const struct xmt_cli_batch_state *st, const char *dir,
                     const char *rel) {
  DIR *dp = opendir(dir);
  if (dp == NULL)
    return errno == ENOENT ? 0 : -1;
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(dp)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    char *path = xmt_cli_join(dir, e->d_name);
    char *sub =
        rel[0] != '\0' ? xmt_cli_join(rel, e->d_name) : strdup(e->d_name);
    char *out = sub != NULL ? xmt_cli_join(st->outdir, sub) : NULL;
    struct stat sb;
    if (path == NULL || sub == NULL || out == NULL) {
      rc = -1;
    } else if (lstat(path, &sb) != 0) {
      /* gone meanwhile */
    } else if (S_ISDIR(sb.st_mode)) {
      rc = prune_dir(st, path, sub);
      rmdir(path); /* when empty */
    } else if (lstat(out, &sb) != 0 && errno == ENOENT) {
      int fd = open(path, O_RDWR | O_CLOEXEC);
      if (fd >= 0) {
        remove_marker(st, fd, path, -1);
        close(fd);
      }
    }
    free(path);
    free(sub);
    free(out);
  }
  closedir(dp);
  return rc;
}

int xmt_cli_batch_state_prune(const struct xmt_cli_batch_state *st) {
  return prune_dir(st, st->root, "");
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

/* 1 when rel is a path below a directory: no component empty, "." or
 * "..", none absolute. */
static int inside(const char *rel) {
  for (const char *c = rel;; c++) {
    size_t len = strcspn(c, "/");
    if (len == 0 || (len == 1 && c[0] == '.') ||
        (len == 2 && c[0] == '.' && c[1] == '.'))
      return 0;
    c += len;
    if (*c == '\0')
      return 1;
  }
}

/* The list an earlier version kept becomes markers, then goes. Two
 * batches starting at once both make the markers: no harm. */
static int migrate(const struct xmt_cli_batch_state *st, const char *list) {
  FILE *fp = xmt_input_file_open(list); /* a named pipe: waited 10 s */
  if (fp == NULL)
    return errno == ENOENT ? 0 : -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  int rc = 0;
  while (rc == 0 && (got = getline(&line, &cap, fp)) > 0) {
    if (line[got - 1] == '\n')
      line[--got] = '\0';
    unescape(line);
    if (!inside(line))
      continue; /* never a marker outside the marker tree */
    char *path = xmt_cli_join(st->root, line);
    int fd = -1;
    if (path == NULL || create_marker(path, &fd) != 0)
      rc = -1;
    if (fd >= 0)
      close(fd);
    free(path);
  }
  free(line);
  if (ferror(fp))
    rc = -1;
  fclose(fp);
  if (rc == 0 && unlink(list) != 0 && errno != ENOENT)
    rc = -1;
  return rc;
}

int xmt_cli_batch_state_open(struct xmt_cli_batch_state *st,
                             const char *outdir) {
  memset(st, 0, sizeof *st);
  st->outdir = outdir;
  size_t len = strlen(outdir);
  st->root = malloc(len + sizeof STATE_DIR);
  char *list = malloc(len + sizeof OLD_LIST);
  if (st->root == NULL || list == NULL) {
    free(list);
    return -1;
  }
  memcpy(st->root, outdir, len);
  memcpy(st->root + len, STATE_DIR, sizeof STATE_DIR);
  memcpy(list, outdir, len);
  memcpy(list + len, OLD_LIST, sizeof OLD_LIST);
  int rc = 0;
  if (mkdir(st->root, 0777) != 0 && errno != EEXIST) {
    xmt_cli_say("xliffmt: %s: cannot create the directory: %s\n", st->root,
                strerror(errno));
    rc = -1;
  } else if (migrate(st, list) != 0) {
    char why[200];
    if (errno == ETIMEDOUT)
      xmt_cli_say("xliffmt: %s: %s\n", list,
                  xmt_input_file_why(errno, why, sizeof why));
    else
      xmt_cli_say("xliffmt: %s: cannot read the list of incomplete "
                  "documents: %s\n",
                  list, strerror(errno));
    rc = -1;
  } else if (xmt_cli_batch_state_prune(st) != 0) {
    xmt_cli_say("xliffmt: %s: cannot read: %s\n", st->root, strerror(errno));
    rc = -1;
  }
  free(list);
  return rc;
}

void xmt_cli_batch_state_free(struct xmt_cli_batch_state *st) {
  free(st->root);
  memset(st, 0, sizeof *st);
}
