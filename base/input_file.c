/* input_file.c -- input files opened for reading without waiting for
 * ever: a named pipe no program writes into is given up after a bound. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_private.h"

/* fd, a pipe opened without waiting: 1 when a program writes into it,
 * holds it open, or wrote and closed it, within XMT_PIPE_WAIT_S (its
 * first byte, when read, in *c, *got 1); 0 when none came. A read finds
 * no writer (0) or one that has written nothing yet (EAGAIN); poll wakes
 * when one writes or leaves. */
static int pipe_written(int fd, unsigned char *c, int *got) {
  struct pollfd p = {fd, POLLIN, 0};
  ssize_t r = read(fd, c, 1);
  if (r == 0 && poll(&p, 1, XMT_PIPE_WAIT_S * 1000) > 0 &&
      (p.revents & POLLHUP) && !(p.revents & POLLIN))
    return 1; /* it came and went: an empty input */
  if (r == 0)
    r = read(fd, c, 1);
  *got = r == 1;
  return r != 0; /* a writer, or an error the reader meets again */
}

FILE *xmt_input_file_open(const char *path) {
  /* fopen's open() would wait for a writer without end. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  unsigned char c = 0;
  int got = 0;
  if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode) &&
      !pipe_written(fd, &c, &got)) {
    close(fd);
    errno = ETIMEDOUT;
    return NULL;
  }
  int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
  FILE *fp = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0
                 ? fdopen(fd, "rb")
                 : NULL;
  if (fp == NULL && fd >= 0) {
    int e = errno;
    close(fd);
    errno = e;
  }
  if (fp != NULL && got && ungetc(c, fp) == EOF) {
    fclose(fp);
    fp = NULL;
    errno = ENOMEM;
  }
  return fp;
}

const char *xmt_input_file_why(int e, char *buf, size_t size) {
  if (e == ETIMEDOUT)
    snprintf(buf, size, "a named pipe no program writes into (waited %d s)",
             XMT_PIPE_WAIT_S);
  else
    snprintf(buf, size, "cannot open: %s", strerror(e));
  return buf;
}
