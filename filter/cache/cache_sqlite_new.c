/* cache_sqlite_new.c -- a new SQLite cache, never seen half-made.
 *
 * A cache that does not exist yet is made whole under a temporary name
 * beside it (PATH.tmpXXXXXX, as the atomic writer names its files): the
 * schema written and WAL mode set, closed, then link()ed into place. A
 * failure (a full disk) leaves no file behind, so the next run does not
 * find an empty one; two processes that make the same cache at once
 * keep the one linked first and both use it. A symbolic link to a file
 * not made yet gets the cache where it points, as SQLite made it. Also
 * the words for the failures both this file and cache_sqlite.c report. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cache_private.h"

const char *xmt_cache_sqlite_disk_trouble(sqlite3 *db) {
  int code = sqlite3_errcode(db) & 0xFF;
  int sys = sqlite3_system_errno(db);
  if (code == SQLITE_FULL ||
      ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN) && sys == ENOSPC))
    return "the disk is full";
  if ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN) && sys == EDQUOT)
    return "the disk quota is exceeded";
  return NULL;
}

int xmt_cache_sqlite_open_errno(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0)
    return S_ISDIR(st.st_mode)              ? EISDIR
           : access(path, R_OK | W_OK) != 0 ? errno
                                            : 0;
  if (errno != ENOENT)
    return errno;
  const char *slash = strrchr(path, '/');
  char *dir = slash == NULL   ? xmt_strdup(".")
              : slash == path ? xmt_strdup("/")
                              : xmt_strndup(path, (size_t)(slash - path));
  int e = dir == NULL || access(dir, W_OK) == 0 ? 0 : errno;
  free(dir);
  return e;
}

#define TMP_SUFFIX ".tmpXXXXXX"

/* A fresh name for tmp (path TMP_SUFFIX) made as an empty file: the
 * file descriptor closed, 0; -1 with errno set. */
static int reserve(char *tmp) {
  size_t len = strlen(tmp);
  for (unsigned attempt = 0; attempt < 100; attempt++) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = (uint64_t)getpid() * 2654435761u ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)attempt * 40503u);
    for (size_t i = len - 6; i < len; i++, v /= 36)
      tmp[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
    /* SQLite's own mode for the files it makes; the umask applies */
    int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0)
      return close(fd);
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

/* Removes tmp and the files SQLite keeps beside it. */
static void remove_all(char *tmp) {
  static const char *const sides[] = {"", "-wal", "-shm", "-journal"};
  size_t len = strlen(tmp);
  for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
    memcpy(tmp + len, sides[i], strlen(sides[i]) + 1);
    unlink(tmp);
  }
  tmp[len] = '\0';
}

/* The schema (in a rollback journal: written to the file itself when
 * committed), then WAL mode. SQLITE_OK, else the failure (*why set). */
static int fill(const char *tmp, const char *schema, const char **why,
                char *buf, size_t size) {
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL);
  char *msg = NULL;
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db, schema, NULL, NULL, &msg);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
  if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *mode = (const char *)sqlite3_column_text(st, 0);
    rc = mode != NULL && strcmp(mode, "wal") == 0 ? SQLITE_OK : SQLITE_ERROR;
  }
  if (rc != SQLITE_OK) {
    const char *disk = db != NULL ? xmt_cache_sqlite_disk_trouble(db) : NULL;
    snprintf(buf, size, "%s",
             disk != NULL  ? disk
             : msg != NULL ? msg
             : db != NULL  ? sqlite3_errmsg(db)
                           : sqlite3_errstr(rc));
    *why = disk != NULL ? "cannot write" : "cannot create";
  }
  sqlite3_free(msg);
  sqlite3_finalize(st);
  if (sqlite3_close(db) != SQLITE_OK && rc == SQLITE_OK) {
    snprintf(buf, size, "%s", sqlite3_errmsg(db));
    *why = "cannot create";
    rc = SQLITE_ERROR;
  }
  return rc;
}

/* Puts the made cache tmp in place at path. A file system without hard
 * links gets a rename when path is still free: a narrow race there. */
static int put_in_place(const char *tmp, const char *path) {
  if (link(tmp, path) == 0 || errno == EEXIST)
    return 0; /* EEXIST: another process made it first; theirs is used */
  if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
      errno != ENOSYS && errno != EMLINK)
    return -1;
  struct stat st;
  if (lstat(path, &st) == 0)
    return 0;
  return rename(tmp, path);
}

/* Makes the cache at place (path, or where its link points); messages
 * name path. */
static int create_at(const char *place, const char *path, const char *schema,
                     struct xmt_error_store *err) {
  size_t len = strlen(place);
  /* room for the longest side name, "-journal" */
  char *tmp = malloc(len + sizeof TMP_SUFFIX + 8);
  if (tmp == NULL) {
    xmt_error_nomem(err);
    return -4;
  }
  memcpy(tmp, place, len);
  memcpy(tmp + len, TMP_SUFFIX, sizeof TMP_SUFFIX);
  const char *why = "cannot open";
  char buf[200];
  int failed = 0;
  if (reserve(tmp) != 0) {
    int e = errno;
    /* the one file then removed is ours only if reserve made it */
    snprintf(buf, sizeof buf, "%s", strerror(e));
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cache: %s: %s", why, buf);
    free(tmp);
    return -2;
  }
  if (fill(tmp, schema, &why, buf, sizeof buf) != SQLITE_OK)
    failed = 1;
  else if (put_in_place(tmp, place) != 0) {
    int e = errno;
    why = e == ENOSPC ? "cannot write" : "cannot create";
    snprintf(buf, sizeof buf, "%s",
             e == ENOSPC ? "the disk is full" : strerror(e));
    failed = 1;
  }
  remove_all(tmp);
  free(tmp);
  if (failed) {
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cache: %s: %s", why, buf);
    return -2;
  }
  return 0;
}

/* Where a new cache is to be made: path, or the file that a symbolic link
 * at path names and that does not exist yet (SQLite made it through the
 * link), followed as the kernel would; *made NULL when something is there
 * already and is opened as it is. 0, or -1 out of memory. */
static int place_of_new(const char *path, char **made) {
  char *at = xmt_strdup(path);
  *made = NULL;
  for (unsigned hops = 0; at != NULL; hops++) {
    struct stat st;
    if (lstat(at, &st) != 0) {
      if (errno != ENOENT)
        break;
      *made = at;
      return 0;
    }
    if (!S_ISLNK(st.st_mode) || hops == 40 || stat(at, &st) == 0 ||
        errno != ENOENT)
      break;
    char target[4096];
    ssize_t n = readlink(at, target, sizeof target - 1);
    if (n <= 0)
      break;
    target[n] = '\0';
    const char *slash = strrchr(at, '/');
    size_t dir =
        target[0] == '/' || slash == NULL ? 0 : (size_t)(slash - at) + 1;
    char *next = malloc(dir + (size_t)n + 1);
    if (next != NULL) {
      memcpy(next, at, dir);
      memcpy(next + dir, target, (size_t)n + 1);
    }
    free(at);
    at = next;
  }
  if (at == NULL)
    return -1;
  free(at);
  return 0;
}

int xmt_cache_sqlite_create(const char *path, const char *schema,
                            struct xmt_error_store *err) {
  char *place;
  if (place_of_new(path, &place) != 0) {
    xmt_error_nomem(err);
    return -4;
  }
  if (place == NULL)
    return 0; /* opened as it is */
  int rc = create_at(place, path, schema, err);
  free(place);
  return rc;
}
