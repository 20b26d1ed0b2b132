/* atomic_file.c -- output files that appear whole or not at all: the one
 * place where the library and the program create files. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base_private.h"

#define TMP_SUFFIX ".tmpXXXXXX"
#define IOBUF_SIZE (64u * 1024u)

xmt_atomic_file *xmt_atomic_file_new(void) {
  return calloc(1, sizeof(xmt_atomic_file));
}

void xmt_atomic_file_free(xmt_atomic_file *af) {
  if (af == NULL)
    return;
  xmt_atomic_file_abort(af);
  free(af);
}

FILE *xmt_atomic_file_stream(xmt_atomic_file *af) {
  return af != NULL ? af->fp : NULL;
}

const struct xmt_error *xmt_atomic_file_error(const xmt_atomic_file *af) {
  return af != NULL ? &af->err.pub : NULL;
}

int xmt_atomic_file_errno(const xmt_atomic_file *af) {
  return af != NULL ? af->sys_errno : 0;
}

/* Releases the stream, the temporary file and the names, keeping the
 * error record. */
static void release(xmt_atomic_file *af) {
  if (af->fp != NULL && af->fp != stdout)
    fclose(af->fp);
  af->fp = NULL;
  free(af->iobuf); /* after the stream that used it */
  af->iobuf = NULL;
  if (af->tmp_path != NULL && !af->unnamed)
    unlink(af->tmp_path);
  free(af->tmp_path);
  free(af->path);
  af->tmp_path = af->path = NULL;
  af->unnamed = 0;
}

void xmt_atomic_file_abort(xmt_atomic_file *af) {
  if (af == NULL)
    return;
  release(af);
  xmt_error_clear(&af->err);
  af->sys_errno = 0;
}

static xmt_status refuse(xmt_atomic_file *af, const char *what, int e) {
  const char *name = af->path != NULL ? af->path : "standard output";
  af->sys_errno = e;
  /* name points into af: record the error before af lets it go. */
  xmt_error_at(&af->err, XMT_ERR_WRITE, XMT_IN(name), "%s: %s", what,
               strerror(e));
  release(af);
  return XMT_ERR_WRITE;
}

static xmt_status out_of_memory(xmt_atomic_file *af) {
  release(af);
  af->sys_errno = ENOMEM;
  return xmt_error_nomem(&af->err);
}

/* Fills the last six characters of tmp_path with a fresh guess. No
 * counter kept between calls: two threads may write files at once. */
static void guess_name(xmt_atomic_file *af, unsigned attempt) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t v = (uint64_t)getpid() * 2654435761u ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)(uintptr_t)af ^
               ((uint64_t)attempt * 40503u);
  size_t len = strlen(af->tmp_path);
  for (size_t i = len - 6; i < len; i++, v /= 36)
    af->tmp_path[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
}

/* An unnamed file in the directory of af->path, or -1 (errno set) when the
 * system or the file system cannot make one. */
static int open_unnamed(xmt_atomic_file *af, mode_t mode) {
#ifdef O_TMPFILE
  if (af->flags & XMT_ATOMIC_FILE_NAMED_) {
    errno = EOPNOTSUPP;
    return -1;
  }
  const char *path = af->path, *slash = strrchr(path, '/');
  char *dir = slash == NULL   ? xmt_strdup(".")
              : slash == path ? xmt_strdup("/")
                              : xmt_strndup(path, (size_t)(slash - path));
  if (dir == NULL) {
    errno = ENOMEM;
    return -1;
  }
  /* The umask applies, as to any file created. */
  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
  free(dir);
  return fd;
#else
  (void)af;
  (void)mode;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

/* A new file named af->tmp_path; the umask applies by itself, so it need
 * not be read (umask() is process-wide and not thread-safe). */
static int open_named(xmt_atomic_file *af, mode_t mode) {
  for (unsigned attempt = 0; attempt < 100; attempt++) {
    guess_name(af, attempt);
    int fd = open(af->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  return -1;
}

/* Gives the unnamed file its temporary name (a fresh one: linkat does not
 * replace). 0, or -1 with errno set. */
static int name_unnamed(xmt_atomic_file *af) {
  if (af->tmp_path == NULL) { /* set when the file was opened */
    errno = EINVAL;
    return -1;
  }
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(af->fp));
  for (unsigned attempt = 0; attempt < 100; attempt++) {
    guess_name(af, attempt);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, af->tmp_path, AT_SYMLINK_FOLLOW) == 0)
      return 0;
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

/* af written through fd (just opened; -1: the call failed, errno says
 * why), or refused. */
static xmt_status stream_on(xmt_atomic_file *af, int fd) {
  if (fd < 0 || (af->fp = fdopen(fd, "wb")) == NULL) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return refuse(af, "cannot create output", e);
  }
  return XMT_OK;
}

/* How long a named pipe is waited for a program to read from it. */
#define PIPE_WAIT_MS (XMT_PIPE_WAIT_S * 1000)

/* path, a named pipe, opened for writing once a program reads from it
 * (open() would wait for one without end); -1 with errno ENXIO when none
 * came within PIPE_WAIT_MS. */
static int open_pipe(const char *path) {
  for (int waited = 0;; waited += 50) {
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
      return fd;
    if (fd >= 0) {
      int e = errno;
      close(fd);
      errno = e;
      return -1;
    }
    if (errno != ENXIO || waited >= PIPE_WAIT_MS)
      return -1;
    const struct timespec pause = {0, 50 * 1000000L};
    nanosleep(&pause, NULL);
  }
}

/* Standard output, a device or a FIFO: written as the output goes. */
static xmt_status open_in_place(xmt_atomic_file *af, int fifo) {
  if (af->path == NULL) {
    af->fp = stdout;
    return XMT_OK;
  }
  if (!fifo)
    return stream_on(
        af, open(af->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  int fd = open_pipe(af->path);
  if (fd < 0 && errno == ENXIO) {
    af->sys_errno = ENXIO;
    xmt_error_at(&af->err, XMT_ERR_WRITE, XMT_IN(af->path),
                 "a named pipe no program reads from (waited %d s)",
                 PIPE_WAIT_MS / 1000);
    release(af);
    return XMT_ERR_WRITE;
  }
  return stream_on(af, fd);
}

/* The standard stream (output or error) that is the file st, or -1.
 * "-o /dev/stdout" with the output redirected to a file names that file
 * through a link (/dev/stdout, /proc/self/fd/1): renaming over the name
 * would replace the link and leave the file, the redirection's, empty. */
static int standard_stream(const struct stat *st) {
  for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
    struct stat s;
    if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
      return fd;
  }
  return -1;
}

/* Written through standard stream fd, where it stands (appended to with
 * ">>"). */
static xmt_status open_through(xmt_atomic_file *af, int fd) {
  if (fd == STDOUT_FILENO) {
    af->fp = stdout;
    return XMT_OK;
  }
  return stream_on(af, fcntl(fd, F_DUPFD_CLOEXEC, 3));
}

/* A file replaced keeps its owner and group where the system lets them be
 * given, and its mode (a private 0600 stays private). A group that cannot
 * be kept gets none of the old group's rights: they were granted to
 * another group. Owner and group first: changing them clears set-id
 * bits. */
static void keep_owners(int fd, const struct stat *old) {
  struct stat now;
  mode_t mode = old->st_mode & 07777;
  if (fstat(fd, &now) != 0)
    mode &= ~(mode_t)077; /* unknown: nobody but the owner */
  else if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
           fchown(fd, old->st_uid, old->st_gid) != 0 &&
           now.st_gid != old->st_gid && fchown(fd, (uid_t)-1, old->st_gid) != 0)
    mode &= ~(mode_t)070; /* not root, and not in the old group */
  (void)fchmod(fd, mode);
}

xmt_status xmt_atomic_file_open(xmt_atomic_file *af, const char *path,
                                unsigned flags) {
  if (af == NULL)
    return XMT_ERR_USAGE;
  xmt_atomic_file_abort(af);
  af->flags = flags;
  if (path != NULL && strcmp(path, "-") != 0 &&
      (af->path = xmt_strdup(path)) == NULL)
    return out_of_memory(af);
  struct stat st;
  /* stat follows a symbolic link: a link to a device is written through,
   * a link to a regular file is replaced by the new file. */
  int exists = af->path != NULL && stat(af->path, &st) == 0;
  if (exists && S_ISDIR(st.st_mode))
    return refuse(af, "cannot create output", EISDIR);
  if (af->path == NULL || (exists && !S_ISREG(st.st_mode)))
    return open_in_place(af, exists && S_ISFIFO(st.st_mode));
  int stream = exists ? standard_stream(&st) : -1;
  if (stream >= 0)
    return open_through(af, stream);
  /* The temporary name sits beside the output so rename() stays atomic. */
  size_t len = strlen(af->path);
  if ((af->tmp_path = malloc(len + sizeof TMP_SUFFIX)) == NULL)
    return out_of_memory(af);
  memcpy(af->tmp_path, af->path, len);
  memcpy(af->tmp_path + len, TMP_SUFFIX, sizeof TMP_SUFFIX);
  /* 0666 less the umask: the mode of any file created. */
  mode_t mode = flags & XMT_ATOMIC_FILE_PRIVATE ? 0600 : 0666;
  int fd = open_unnamed(af, mode);
  af->unnamed = fd >= 0;
  if (fd < 0)
    fd = open_named(af, mode);
  if (fd < 0 || (af->fp = fdopen(fd, "wb")) == NULL) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    if (fd < 0) {
      /* Nothing was made: the name guessed last may be another's. */
      free(af->tmp_path);
      af->tmp_path = NULL;
    }
    return refuse(af, "cannot create output", e);
  }
  if (exists && !(flags & XMT_ATOMIC_FILE_PRIVATE))
    keep_owners(fd, &st);
  /* stdio's own 4 KiB made a 20 MB page 5,000 writes; without the
   * memory, its own it is */
  if ((af->iobuf = malloc(IOBUF_SIZE)) != NULL &&
      setvbuf(af->fp, af->iobuf, _IOFBF, IOBUF_SIZE) != 0) {
    free(af->iobuf);
    af->iobuf = NULL;
  }
  return XMT_OK;
}

xmt_status xmt_atomic_file_commit(xmt_atomic_file *af) {
  if (af == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&af->err);
  af->sys_errno = 0;
  if (af->fp == NULL)
    return xmt_error_set(&af->err, XMT_ERR_USAGE, "no output open");
  int failed = fflush(af->fp) != 0 || ferror(af->fp) != 0;
  int e = errno;
  if (!failed && (af->flags & XMT_ATOMIC_FILE_SYNC) && af->tmp_path != NULL &&
      fsync(fileno(af->fp)) != 0) {
    failed = 1;
    e = errno;
  }
  if (!failed && af->unnamed) {
    failed = name_unnamed(af) != 0;
    e = errno;
    if (!failed)
      af->unnamed = 0;
  }
  if (af->fp != stdout && fclose(af->fp) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  af->fp = NULL;
  if (!failed && af->tmp_path != NULL && rename(af->tmp_path, af->path) != 0) {
    failed = 1;
    e = errno;
  }
  if (failed)
    return refuse(af, "cannot write", e);
  free(af->tmp_path);
  af->tmp_path = NULL;
  release(af);
  return XMT_OK;
}
