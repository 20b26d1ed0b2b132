/* output.c -- output files that appear only when complete, and input files
 * that say which file failed. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "filter_private.h"

FILE *xmt_input_open(const char *path, struct xmt_error_store *err) {
  FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (fp == NULL)
    xmt_error_set(err, XMT_ERR_IO, path, 0, 0, NULL, "cannot open: %s",
                  strerror(errno));
  return fp;
}

/* An unnamed file in the directory of path, or -1 (errno set) when the
 * system or the file system cannot make one. */
static int open_unnamed(const char *path) {
#ifdef O_TMPFILE
  const char *slash = strrchr(path, '/');
  char *dir = slash == NULL   ? xmt_strdup(".")
              : slash == path ? xmt_strdup("/")
                              : xmt_strndup(path, (size_t)(slash - path));
  if (dir == NULL)
    return -1;
  /* The mode is that of a file created as usual: 0666 less the umask. */
  int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  free(dir);
  return fd;
#else
  (void)path;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

xmt_status xmt_output_open(struct xmt_output *out, const char *path,
                           struct xmt_error_store *err) {
  memset(out, 0, sizeof *out);
  if (path == NULL || strcmp(path, "-") == 0) {
    out->fp = stdout;
    return XMT_OK;
  }
  /* A device or a pipe (/dev/null, a FIFO) is written as the document
   * goes: a file renamed over it would replace it. */
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      return xmt_error_set(err, XMT_ERR_WRITE, path, 0, 0, NULL,
                           "cannot create output: %s", strerror(EISDIR));
    if ((out->path = xmt_strdup(path)) == NULL)
      return xmt_error_set(err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                           xmt_strerror(XMT_ERR_NOMEM));
    if ((out->fp = fopen(path, "wb")) == NULL) {
      int e = errno;
      xmt_output_abort(out);
      return xmt_error_set(err, XMT_ERR_WRITE, path, 0, 0, NULL,
                           "cannot create output: %s", strerror(e));
    }
    return XMT_OK;
  }
  /* The temporary name sits beside the output so rename() stays atomic. */
  size_t len = strlen(path);
  out->path = xmt_strdup(path);
  out->tmp_path = malloc(len + sizeof ".tmpXXXXXX");
  if (out->path == NULL || out->tmp_path == NULL) {
    xmt_output_abort(out);
    return xmt_error_set(err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                         xmt_strerror(XMT_ERR_NOMEM));
  }
  memcpy(out->tmp_path, path, len);
  memcpy(out->tmp_path + len, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
  int fd = open_unnamed(path);
  out->unnamed = fd >= 0;
  /* A file replaced keeps its mode (a private 0600 stays private). */
  int replaces = stat(path, &st) == 0;
  if (fd < 0) {
    fd = mkstemp(out->tmp_path);
    /* mkstemp makes the file 0600; the output gets the mode of a file
     * created as usual (0666 less the umask). umask() is read and put
     * back at once. */
    mode_t mask = umask(022);
    umask(mask);
    if (fd >= 0)
      (void)fchmod(fd, (mode_t)(0666 & ~mask));
  }
  if (fd < 0 || (out->fp = fdopen(fd, "wb")) == NULL) {
    int e = errno;
    if (fd >= 0) {
      close(fd);
      if (!out->unnamed)
        unlink(out->tmp_path);
    }
    free(out->tmp_path);
    out->tmp_path = NULL;
    xmt_output_abort(out);
    return xmt_error_set(err, XMT_ERR_WRITE, path, 0, 0, NULL,
                         "cannot create output: %s", strerror(e));
  }
  if (replaces)
    (void)fchmod(fd, st.st_mode & 07777);
  return XMT_OK;
}

int xmt_output_write(void *user, const char *bytes, size_t len) {
  struct xmt_output *out = user;
  if (fwrite(bytes, 1, len, out->fp) == len)
    return 0;
  if (out->write_errno == 0)
    out->write_errno = errno != 0 ? errno : EIO;
  return 1;
}

xmt_status xmt_output_reason(const struct xmt_output *out, xmt_status st,
                             const char *path, struct xmt_error_store *err) {
  if (out->write_errno == 0)
    return st;
  return xmt_error_set(
      err, XMT_ERR_WRITE,
      path != NULL && strcmp(path, "-") != 0 ? path : "standard output", 0, 0,
      NULL, "cannot write: %s", strerror(out->write_errno));
}

/* Gives the unnamed file of out the name tmp_path (a fresh one: linkat
 * does not replace). 0, or -1 with errno set. */
static int name_unnamed(struct xmt_output *out) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(out->fp));
  size_t len = strlen(out->tmp_path);
  static unsigned counter;
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned long v = (unsigned long)getpid() * 2654435761UL ^
                      (unsigned long)time(NULL) ^ (++counter * 40503UL);
    for (size_t i = len - 6; i < len; i++, v /= 36)
      out->tmp_path[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
    if (linkat(AT_FDCWD, proc, AT_FDCWD, out->tmp_path, AT_SYMLINK_FOLLOW) == 0)
      return 0;
    if (errno != EEXIST)
      return -1;
  }
  return -1;
}

xmt_status xmt_output_commit(struct xmt_output *out,
                             struct xmt_error_store *err) {
  const char *name = out->path != NULL ? out->path : "standard output";
  if (out->tmp_path == NULL) { /* standard output, a device or a pipe */
    int failed = fflush(out->fp) != 0 || ferror(out->fp) != 0;
    int e = errno;
    if (out->fp != stdout) {
      if (fclose(out->fp) != 0 && !failed) {
        failed = 1;
        e = errno;
      }
      out->fp = NULL;
    }
    if (failed)
      xmt_error_set(err, XMT_ERR_WRITE, name, 0, 0, NULL, "cannot write: %s",
                    strerror(e));
    free(out->path);
    out->path = NULL;
    return failed ? XMT_ERR_WRITE : XMT_OK;
  }
  int failed = fflush(out->fp) != 0 || ferror(out->fp) != 0;
  int e = errno;
  if (!failed && out->unnamed) {
    failed = name_unnamed(out) != 0;
    e = errno;
    if (!failed)
      out->unnamed = 0;
  }
  if (fclose(out->fp) != 0 && !failed) {
    failed = 1;
    e = errno;
  }
  out->fp = NULL;
  if (!failed && rename(out->tmp_path, out->path) != 0) {
    failed = 1;
    e = errno;
  }
  if (failed) {
    /* name points into out: record the error before out is freed. */
    xmt_error_set(err, XMT_ERR_WRITE, name, 0, 0, NULL, "cannot write: %s",
                  strerror(e));
    xmt_output_abort(out);
    return XMT_ERR_WRITE;
  }
  free(out->tmp_path);
  out->tmp_path = NULL;
  free(out->path);
  out->path = NULL;
  return XMT_OK;
}

void xmt_output_abort(struct xmt_output *out) {
  if (out->fp != NULL && out->fp != stdout)
    fclose(out->fp);
  out->fp = NULL;
  if (out->tmp_path != NULL && !out->unnamed)
    unlink(out->tmp_path);
  free(out->tmp_path);
  free(out->path);
  out->tmp_path = out->path = NULL;
  out->unnamed = 0;
}

xmt_status xmt_read_all(xmt_xliff_reader *reader, FILE *fp, const char *path,
                        struct xmt_error_store *err, size_t *bytes_in) {
  static const size_t chunk = 256u * 1024u;
  xmt_status st = XMT_OK;
  for (;;) {
    /* Read where the reader keeps its input: no copy on the way. */
    char *buf = xmt_xliff_reader_buffer(reader, chunk);
    if (buf == NULL)
      return xmt_error_set(err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                           xmt_strerror(XMT_ERR_NOMEM));
    size_t n = fread(buf, 1, chunk, fp);
    if (n < chunk && ferror(fp)) {
      st = xmt_error_set(err, XMT_ERR_IO, path, 0, 0, NULL, "cannot read: %s",
                         strerror(errno));
      break;
    }
    *bytes_in += n;
    int final = n < chunk && feof(fp);
    st = xmt_xliff_reader_parse_buffer(reader, n, final);
    if (st != XMT_OK || final)
      break;
  }
  return st;
}
