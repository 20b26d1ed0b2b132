/* cmd.c -- the persistent engine subprocess of the cmd backend
 * (cmd_backend.c), fed one segment per line, which apertium shares: it
 * takes answers only one per request, never one off, and reads no more
 * than they may have.
 *
 * A line engine has no framing of its own: one line more (a banner such
 * as "Model loaded.", an answer split over two lines) would shift every
 * later answer onto the next segment, and no wait, however long, tells a
 * slow engine's extra line from none. So the engine's place in its output
 * is checked, not guessed: before its first request it is sent a check
 * line of digits (which engines pass through, or answer the same way each
 * time) until its answer is known; whatever came before that answer is
 * its banner, set aside. Each batch then ends with the check line, and
 * its answers are taken only when the check line's answer is the line
 * just after the last segment's and nothing follows it. An engine whose
 * answer to the check line cannot be learned (empty, never the same twice
 * in a row) is not used at all. A flush=null engine gets one batch of the
 * check line first, its banner being the lines before its answer; its
 * later batches are framed by their NUL. An engine of one NUL-ended
 * record per segment (apertium) is checked the same way with a check
 * record, so that a record more or less is seen when the batch ends,
 * without waiting to see whether more comes. An engine that timed out, was
 * restarted, and timed out again before answering anything hangs: the
 * rest of the run is not sent to it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends_private.h"
#include "engine_private.h"

#define DEFAULT_TIMEOUT_MS 60000u
#define DEFAULT_MAX_FAILURES 3u
#define STOP_GRACE_MS 2000u /* for the engine to exit at close */

/* --- Pipes and processes --------------------------------------------------
 */

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

static int spawn(struct xmt_engine *e, char *msg, size_t msglen) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    snprintf(msg, msglen, "cannot create pipes for %s: %s", e->name,
             strerror(errno));
    goto fail;
  }
  /* The engine gets default signal handling whatever ours is; its own
   * group lets a timeout kill a whole shell pipeline. */
  char sh[] = "sh", dash_c[] = "-c";
  char *argv[] = {sh, dash_c, e->command, NULL};
  struct xmt_spawn sp = {"/bin/sh", argv, {in[0], out[1], err[1]}, 1};
  pid_t pid;
  int rc = xmt_spawn(&sp, &pid);
  if (rc != 0) {
    snprintf(msg, msglen, "cannot start %s: %s", e->name, strerror(rc));
    goto fail;
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  e->pid = pid;
  e->in_fd = in[1];
  e->out_fd = out[0];
  e->err_fd = err[0];
  e->probed = 0;
  e->prompt = 0;
  e->bom_seen = 0;
  fcntl(e->in_fd, F_SETFL, fcntl(e->in_fd, F_GETFL) | O_NONBLOCK);
  fcntl(e->out_fd, F_SETFL, fcntl(e->out_fd, F_GETFL) | O_NONBLOCK);
  fcntl(e->err_fd, F_SETFL, fcntl(e->err_fd, F_GETFL) | O_NONBLOCK);
  e->errtail_len = 0;
  return 0;
fail:
  for (int i = 0; i < 2; i++) {
    close_fd(&in[i]);
    close_fd(&out[i]);
    close_fd(&err[i]);
  }
  return -1;
}

/* Reaps the engine; *status gets its wait status (or 0). */
static void reap(struct xmt_engine *e, int *status) {
  int st = 0;
  while (waitpid(e->pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (status != NULL)
    *status = st;
  e->pid = -1;
}

static void close_pipes(struct xmt_engine *e) {
  close_fd(&e->in_fd);
  close_fd(&e->out_fd);
  close_fd(&e->err_fd);
}

/* Kills the engine's process group and reaps it. */
static void kill_engine(struct xmt_engine *e, int *status) {
  if (e->pid > 0) {
    kill(-e->pid, SIGKILL);
    kill(e->pid, SIGKILL);
    reap(e, status);
  }
  close_pipes(e);
}

/* Keeps the last ERR_TAIL bytes the engine wrote on stderr; closes the
 * pipe at end of file. */
static void drain_stderr(struct xmt_engine *e) {
  char chunk[ERR_TAIL];
  while (e->err_fd >= 0) {
    ssize_t got = read(e->err_fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        close_fd(&e->err_fd);
      return;
    }
    size_t n = (size_t)got;
    if (n >= ERR_TAIL) {
      memcpy(e->errtail, chunk + n - ERR_TAIL, ERR_TAIL);
      e->errtail_len = ERR_TAIL;
    } else {
      size_t keep =
          e->errtail_len + n > ERR_TAIL ? ERR_TAIL - n : e->errtail_len;
      memmove(e->errtail, e->errtail + e->errtail_len - keep, keep);
      memcpy(e->errtail + keep, chunk, n);
      e->errtail_len = keep + n;
    }
  }
}

/* The last non-empty line of the engine's stderr, for messages. */
static void stderr_line(const struct xmt_engine *e, char *out, size_t outlen) {
  size_t end = e->errtail_len;
  while (end > 0 &&
         (e->errtail[end - 1] == '\n' || e->errtail[end - 1] == '\r'))
    end--;
  size_t start = end;
  while (start > 0 && e->errtail[start - 1] != '\n')
    start--;
  if (end > start)
    snprintf(out, outlen, ": %.*s", (int)(end - start), e->errtail + start);
  else if (outlen > 0)
    out[0] = '\0';
}

/* How the engine ended, e.g. "exited with status 2". */
static void describe_status(int status, char *out, size_t outlen) {
  if (WIFEXITED(status))
    snprintf(out, outlen, "exited with status %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    snprintf(out, outlen, "was killed by signal %d", WTERMSIG(status));
  else
    snprintf(out, outlen, "stopped");
}

/* write() that cannot raise SIGPIPE: the signal is blocked in this thread
 * during the call and, if the write raised it, consumed before unblocking.
 * The process-wide disposition is never changed. */
static ssize_t write_nosigpipe(int fd, const char *buf, size_t len) {
  sigset_t pipe_set, old, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  int was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
  ssize_t w = write(fd, buf, len);
  int saved = errno;
  if (w < 0 && saved == EPIPE && !was_pending) {
    static const struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
      ;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved;
  return w;
}

/* 1 once the run is to end at once. */
static int interrupted(const struct xmt_engine *e) {
  return e->interrupted != NULL &&
         __atomic_load_n(e->interrupted, __ATOMIC_RELAXED) != 0;
}

/* --- One batch ---------------------------------------------------------------
 */

/* The got bytes just read at the end of rbuf, less a UTF-8 byte order
 * mark opening the engine's output (engines on .NET, or Python's
 * utf-8-sig, write one): left in, it would make the first answer to the
 * check line differ from the next, and the probe wait for an answer that
 * never comes. The bytes of a BOM begun are held back until it is whole
 * or broken off (then put back); rbuf never holds a part of one, so the
 * scan of the answers is not thrown out. Returns the bytes kept. */
static size_t drop_bom(struct xmt_engine *e, size_t got) {
  static const char bom[] = "\xEF\xBB\xBF";
  char *at = e->rbuf.data + e->rbuf.len;
  size_t i = 0;
  while (e->bom_seen < 3 && i < got && at[i] == bom[e->bom_seen]) {
    e->bom_seen++;
    i++;
  }
  if (e->bom_seen == 3 || i < got) {
    size_t back = e->bom_seen == 3 ? 0 : e->bom_seen; /* not a BOM */
    e->bom_seen = BOM_DECIDED;
    memmove(at + back, at + i, got - i);
    memcpy(at, bom, back);
    return got - i + back;
  }
  return 0; /* all of it a BOM's start: held */
}

/* Reads what is available from the engine's output into rbuf. Returns the
 * bytes read, 0 at end of file, -1 when nothing is there (or on error,
 * with *ioerr set). */
static ssize_t read_some(struct xmt_engine *e, int *ioerr) {
  if (xmt_buf_grow(&e->rbuf, 8192) != XMT_OK) {
    *ioerr = ENOMEM;
    return -1;
  }
  ssize_t got;
  do /* room for a BOM's bytes put back */
    got = read(e->out_fd, e->rbuf.data + e->rbuf.len,
               e->rbuf.cap - e->rbuf.len - 1 - 3);
  while (got < 0 && errno == EINTR);
  if (got < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      *ioerr = errno;
    return -1;
  }
  if (got > 0 && e->bom_seen != BOM_DECIDED) {
    got = (ssize_t)drop_bom(e, (size_t)got);
    if (got == 0)
      return -1;
  }
  e->rbuf.len += (size_t)got;
  e->rbuf.data[e->rbuf.len] = '\0';
  return got;
}

/* Counts delimiters in rbuf from *scanned on; stops at want. */
static size_t count_delims(const struct xmt_engine *e, char delim,
                           size_t *scanned, size_t have, size_t want) {
  while (have < want && *scanned < e->rbuf.len) {
    const char *p =
        memchr(e->rbuf.data + *scanned, delim, e->rbuf.len - *scanned);
    if (p == NULL) {
      *scanned = e->rbuf.len;
      break;
    }
    *scanned = (size_t)(p - e->rbuf.data) + 1;
    have++;
  }
  return have;
}

/* The most bytes the answers to n requests may take with their
 * delimiters: reading stops there, so that an engine answering without
 * end costs a few times the request, not all memory. */
static size_t answers_cap(const struct xmt_engine *e,
                          const struct xmt_mt_request *req, size_t n) {
  size_t cap = n + 1;
  for (size_t i = 0; i < n; i++) {
    size_t one = xmt_answer_limit(e->max_answer, req[i].len) + 1;
    cap = cap <= SIZE_MAX - one ? cap + one : SIZE_MAX;
  }
  return cap;
}

static unsigned long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000u +
         (unsigned long long)ts.tv_nsec / 1000u;
}

/* Writes wbuf while reading answers, after what rbuf holds, until
 * x->want delimiters came after x->from, the deadline passed, the engine
 * closed its output or wrote more than x->cap bytes. */
enum outcome xmt_engine_exchange(struct xmt_engine *e, struct exchange *x) {
  unsigned long long start = now_us();
  unsigned long long deadline = xmt_now_ms() + e->timeout_ms;
  size_t woff = 0, scanned = x->from;
  x->have = count_delims(e, x->delim, &scanned, 0, x->want);
  enum outcome result = EX_DONE;
  while (x->have < x->want) {
    unsigned long long now = xmt_now_ms();
    if (now >= deadline) {
      result = EX_TIMEOUT;
      break;
    }
    struct pollfd pfd[3];
    nfds_t np = 0;
    pfd[np].fd = e->out_fd;
    pfd[np++].events = POLLIN;
    int err_at = -1, in_at = -1;
    if (e->err_fd >= 0) {
      err_at = (int)np;
      pfd[np].fd = e->err_fd;
      pfd[np++].events = POLLIN;
    }
    if (e->in_fd >= 0 && woff < e->wbuf.len) {
      in_at = (int)np;
      pfd[np].fd = e->in_fd;
      pfd[np++].events = POLLOUT;
    }
    /* Slices of 100 ms at most: an interrupted run does not wait. */
    unsigned long long left = deadline - now;
    int rc = poll(pfd, np, left > 100 ? 100 : (int)left);
    if (interrupted(e)) {
      result = EX_INTERRUPTED;
      break;
    }
    if (rc < 0) {
      if (errno == EINTR)
        continue;
      x->ioerr = errno;
      result = EX_IOERR;
      break;
    }
    if (in_at >= 0 && pfd[in_at].revents != 0) {
      ssize_t w =
          write_nosigpipe(e->in_fd, e->wbuf.data + woff, e->wbuf.len - woff);
      if (w > 0)
        woff += (size_t)w;
      else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
               errno != EINTR)
        close_fd(&e->in_fd); /* EPIPE: the engine stopped reading */
    }
    if (err_at >= 0 && pfd[err_at].revents != 0)
      drain_stderr(e);
    if (pfd[0].revents != 0) {
      ssize_t got = read_some(e, &x->ioerr);
      if (got == 0) {
        result = EX_EOF;
        break;
      }
      if (got < 0 && x->ioerr != 0) {
        result = EX_IOERR;
        break;
      }
      size_t was = scanned;
      x->have = count_delims(e, x->delim, &scanned, x->have, x->want);
      if (x->checked && x->have < x->want &&
          xmt_engine_check_came(e, was, scanned)) {
        result = EX_SHORT; /* a line was left out: no use waiting */
        break;
      }
      if (e->rbuf.len > x->cap) {
        result = EX_TOOBIG;
        break;
      }
    }
  }
  x->end = x->have == x->want ? scanned : 0;
  x->unwritten = e->wbuf.len - woff;
  x->took_us = now_us() - start;
  drain_stderr(e);
  return result;
}

/* 1 when the engine has written something nobody asked for, or has closed
 * its output, since the last batch. */
int xmt_engine_out_of_step(struct xmt_engine *e) {
  struct pollfd pfd = {e->out_fd, POLLIN, 0};
  return poll(&pfd, 1, 0) > 0;
}

/* Default encoding: one line per segment, so line breaks (and NULs, which
 * would end a null-flush batch) become spaces. */
static xmt_status encode_line(struct xmt_buf *out, const char *text,
                              size_t len) {
  size_t from = out->len;
  xmt_status st = xmt_buf_append(out, text, len);
  for (size_t i = from; st == XMT_OK && i < out->len; i++)
    if (out->data[i] == '\n' || out->data[i] == '\r' || out->data[i] == '\0')
      out->data[i] = ' ';
  return st;
}

static xmt_status build_input(struct xmt_engine *e,
                              const struct xmt_mt_request *req, size_t n) {
  xmt_buf_reset(&e->wbuf);
  xmt_status st = XMT_OK;
  char delim = e->framing == XMT_FRAME_NULL_SEGMENT ? '\0' : '\n';
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    st = e->encode != NULL ? e->encode(&e->wbuf, req[i].text, req[i].len)
                           : encode_line(&e->wbuf, req[i].text, req[i].len);
    if (st == XMT_OK)
      st = xmt_buf_append_byte(&e->wbuf, delim);
  }
  if (st == XMT_OK && e->framing == XMT_FRAME_NULL_BATCH)
    st = xmt_buf_append_byte(&e->wbuf, '\0');
  if (st == XMT_OK && e->framing == XMT_FRAME_LINE)
    st = xmt_buf_append_str(&e->wbuf, CHECK_LINE "\n");
  if (st == XMT_OK && e->framing == XMT_FRAME_NULL_SEGMENT)
    st = xmt_engine_append_check_record(e);
  return st;
}

/* Why an answer to req is refused as too long (xmt_answer_limit). */
static void too_long(const struct xmt_engine *e,
                     const struct xmt_mt_request *req, char *msg,
                     size_t msglen) {
  size_t most = e->max_answer != 0 ? e->max_answer : XMT_DEFAULT_MAX_ANSWER;
  size_t limit = xmt_answer_limit(e->max_answer, req->len);
  if (limit < most)
    snprintf(msg, msglen,
             "%.200s answered more than %zu bytes for a request of %zu "
             "bytes (more than %d times as long: not a translation)",
             e->name, limit, req->len, XMT_ANSWER_GROWTH);
  else
    snprintf(msg, msglen,
             "%.200s answered more than %zu bytes, the maximum answer size",
             e->name, most);
}

/* Sets one answer as the translation of response i. -1: out of memory. */
static int set_answer(struct xmt_engine *e, const struct xmt_mt_request *req,
                      xmt_mt_response *resp, const char *answer, size_t len) {
  if (e->framing != XMT_FRAME_NULL_SEGMENT && len > 0 &&
      answer[len - 1] == '\r')
    len--;
  xmt_status st;
  if (len > xmt_answer_limit(e->max_answer, req->len)) {
    char msg[400];
    too_long(e, req, msg, sizeof msg);
    return xmt_mt_response_set_error(resp, msg) == XMT_OK ? 0 : -1;
  }
  const char *text = answer;
  if (e->decode != NULL) {
    xmt_buf_reset(&e->text);
    st = e->decode(&e->text, answer, len, req);
    if (st == XMT_ERR_NOMEM)
      return -1;
    text = e->text.data != NULL ? e->text.data : "";
    len = e->text.len;
  }
  st = xmt_mt_response_set_text(resp, text, len);
  if (st == XMT_ERR_ENCODING) {
    char msg[320];
    snprintf(msg, sizeof msg, "%s: the answer is not valid UTF-8", e->name);
    st = xmt_mt_response_set_error(resp, msg);
  }
  return st == XMT_OK ? 0 : -1;
}

/* Splits the n answers of a batch (rbuf up to end, each ending in
 * delim) and sets them, each without the engine's decoration. Returns -1
 * when out of memory. */
static int distribute(struct xmt_engine *e, const struct xmt_mt_request *req,
                      xmt_mt_response *const *responses, size_t n, size_t end,
                      char delim) {
  size_t pos = 0, deco = xmt_engine_decoration(e);
  for (size_t k = 0; k < n && pos < end; k++) {
    const char *start = e->rbuf.data + pos;
    const char *stop = memchr(start, delim, end - pos);
    if (stop == NULL)
      break;
    size_t skip = (size_t)(stop - start) >= deco &&
                          memcmp(start, e->check.data, deco) == 0
                      ? deco
                      : 0;
    if (set_answer(e, &req[k], responses[k], start + skip,
                   (size_t)(stop - start) - skip) != 0)
      return -1;
    pos = (size_t)(stop - e->rbuf.data) + 1;
  }
  return 0;
}

/* The lines of a null-flush batch (rbuf up to end, its NUL last), each
 * ending in a newline once the last gets one if it has none. -1: out of
 * memory. */
static int null_batch_lines(struct xmt_engine *e, size_t *end, size_t *lines) {
  size_t body = *end - 1;
  *lines = 0;
  for (size_t i = 0; i < body; i++)
    *lines += e->rbuf.data[i] == '\n';
  if (body > 0 && e->rbuf.data[body - 1] != '\n') {
    ++*lines;
    if (xmt_buf_grow(&e->rbuf, 1) != XMT_OK)
      return -1;
    memmove(e->rbuf.data + body + 1, e->rbuf.data + body, e->rbuf.len - body);
    e->rbuf.data[body] = '\n';
    e->rbuf.data[++e->rbuf.len] = '\0';
    ++*end;
  }
  return 0;
}

/* 1 when what rbuf holds after end is the engine's decoration alone:
 * the prompt it wrote once it had answered. */
static int only_prompt_after(const struct xmt_engine *e, size_t end) {
  size_t deco = xmt_engine_decoration(e);
  return deco > 0 && e->rbuf.len - end == deco &&
         memcmp(e->rbuf.data + end, e->check.data, deco) == 0;
}

/* All the answers came: they are taken when there is exactly one per
 * request and nothing more; else the batch fails. 0, 1 failed, -1 out of
 * memory. */
static int take_answers(struct xmt_engine *e, const struct xmt_mt_request *req,
                        xmt_mt_response *const *responses, size_t n,
                        struct exchange *x, struct failure *why) {
  const char *unit = e->framing == XMT_FRAME_NULL_SEGMENT ? "record" : "line";
  if (e->framing == XMT_FRAME_NULL_BATCH) {
    size_t lines;
    if (null_batch_lines(e, &x->end, &lines) != 0)
      return -1;
    if (lines != n || e->rbuf.len > x->end) {
      snprintf(why->message, sizeof why->message,
               "%s answered %zu line%s%s for %zu segment%s", e->name, lines,
               lines == 1 ? "" : "s", e->rbuf.len > x->end ? " and more" : "",
               n, n == 1 ? "" : "s");
      return 1;
    }
    return distribute(e, req, responses, n, x->end - 1, '\n');
  }
  if (e->framing == XMT_FRAME_LINE) {
    /* The last line read must be the check line's answer, and nothing
     * after it: else a line came more or less than asked (an answer
     * split in two, a line of the engine's own, one left out). */
    size_t last = x->end - 1;
    while (last > 0 && e->rbuf.data[last - 1] != '\n')
      last--;
    if (xmt_engine_is_check_answer(e, e->rbuf.data + last, x->end - 1 - last) &&
        (e->rbuf.len == x->end || only_prompt_after(e, x->end)))
      return distribute(e, req, responses, n, last, '\n');
    if (n == 1)
      snprintf(why->message, sizeof why->message,
               "%s answered more than one line for one segment", e->name);
    else
      snprintf(why->message, sizeof why->message,
               "%s answered more lines than the %zu segments sent", e->name, n);
    return 1;
  }
  /* XMT_FRAME_NULL_SEGMENT: the last record must be the check record's
   * answer, and nothing after it. */
  size_t last = x->end - 1;
  while (last > 0 && e->rbuf.data[last - 1] != '\0')
    last--;
  if (!xmt_engine_is_check_answer(e, e->rbuf.data + last, x->end - 1 - last) ||
      e->rbuf.len > x->end) {
    if (n == 1)
      snprintf(why->message, sizeof why->message,
               "%s answered more than one %s for one segment", e->name, unit);
    else
      snprintf(why->message, sizeof why->message,
               "%s answered more %ss than the %zu segments sent", e->name, unit,
               n);
    return 1;
  }
  return distribute(e, req, responses, n, last, x->delim);
}

/* Why a batch ended early, into why; the engine is stopped and reaped. */
void xmt_engine_describe_end(struct xmt_engine *e, enum outcome out,
                             const struct exchange *x,
                             const struct xmt_mt_request *req, size_t n,
                             struct failure *why) {
  char err_line[200], how[64], done[64] = "";
  size_t scanned = 0;
  size_t answered =
      out == EX_TOOBIG ? 0 : count_delims(e, x->delim, &scanned, 0, SIZE_MAX);
  if (n > 1 && e->framing != XMT_FRAME_NULL_BATCH)
    snprintf(done, sizeof done, " (%zu of %zu segments answered)", answered, n);
  int status = 0;
  why->engine = out != EX_TOOBIG && out != EX_SHORT;
  why->timed_out = out == EX_TIMEOUT;
  if (out == EX_EOF) {
    close_fd(&e->in_fd);
    /* It closed its output: it is exiting; if not, it is of no more use. */
    unsigned long long until = xmt_now_ms() + 200;
    int exited = 0;
    while (!exited && xmt_now_ms() < until) {
      exited = waitpid(e->pid, &status, WNOHANG) == e->pid;
      if (!exited) {
        struct timespec ms5 = {0, 5000000};
        nanosleep(&ms5, NULL);
      }
    }
    if (exited)
      e->pid = -1;
  }
  /* Killed and reaped first, so that its standard error is whole (the
   * pipe then ends), then read, then closed. */
  if (e->pid > 0) {
    kill(-e->pid, SIGKILL);
    kill(e->pid, SIGKILL);
    reap(e, out == EX_EOF ? &status : NULL);
  }
  drain_stderr(e);
  kill_engine(e, NULL);
  stderr_line(e, err_line, sizeof err_line);
  if (out == EX_TIMEOUT) {
    snprintf(why->message, sizeof why->message,
             "%.200s timed out after %.1f s%s%.200s", e->name,
             e->timeout_ms / 1000.0, done, err_line);
  } else if (out == EX_EOF) {
    describe_status(status, how, sizeof how);
    snprintf(why->message, sizeof why->message, "%.200s %s%s%.200s", e->name,
             how, done, err_line);
  } else if (out == EX_TOOBIG && n > 1) {
    snprintf(why->message, sizeof why->message,
             "%.200s answered more than the %zu bytes its %zu answers may have",
             e->name, x->cap, n);
  } else if (out == EX_SHORT) {
    snprintf(why->message, sizeof why->message,
             "%.200s answered fewer lines than the %zu segment%s sent (its "
             "answer to the check line came after %zu)",
             e->name, n, n == 1 ? "" : "s", answered - 1);
  } else if (out == EX_TOOBIG && req == NULL) {
    snprintf(why->message, sizeof why->message,
             "%.200s wrote more than %zu bytes before its first answer",
             e->name, x->cap);
  } else if (out == EX_TOOBIG && req != NULL) {
    too_long(e, &req[0], why->message, sizeof why->message);
  } else {
    snprintf(why->message, sizeof why->message,
             "%.200s: reading its output: %s", e->name, strerror(x->ioerr));
  }
}
/* Nothing more is sent to the engine, for why: it is stopped, and every
 * later request fails unsent. Returns 1 (the batch failed), or -1 when
 * out of memory. */
static int give_up(struct xmt_engine *e, const char *reason,
                   struct failure *why) {
  kill_engine(e, NULL);
  why->engine = 1;
  if (e->gave_up == NULL && (e->gave_up = xmt_strdup(reason)) == NULL)
    return -1;
  return 1;
}

/* After a batch failed as an engine (stopped, why set): a second
 * timeout with no answer in between means the engine hangs, whatever it
 * is sent, so each further try would cost a whole timeout for nothing. */
static int after_failure(struct xmt_engine *e, struct failure *why) {
  if (!why->timed_out)
    return 1;
  if (!e->timed_out) {
    e->timed_out = 1;
    return 1;
  }
  char reason[sizeof why->message];
  snprintf(reason, sizeof reason,
           "%.400s, and had timed out before it was restarted: it hangs",
           why->message);
  return give_up(e, reason, why);
}

/* 1 when what the engine wrote since its last answer is its decoration
 * alone, read and set aside: the prompt an interactive engine writes
 * once it has answered, before it reads the next line. */
static int prompt_pending(struct xmt_engine *e) {
  size_t deco = xmt_engine_decoration(e);
  char pending[256];
  if (deco == 0 || deco > sizeof pending)
    return 0;
  ssize_t got = read(e->out_fd, pending, deco);
  return got == (ssize_t)deco && memcmp(pending, e->check.data, deco) == 0 &&
         !xmt_engine_out_of_step(e);
}

/* Sends n requests and takes their answers. 0 answered (each response
 * set), 1 failed (why says why; no response set, the engine stopped),
 * -1 out of memory. */
static int run_batch(struct xmt_engine *e, const struct xmt_mt_request *req,
                     xmt_mt_response *const *responses, size_t n,
                     struct failure *why) {
  why->engine = 1;
  why->timed_out = 0;
  if (e->pid > 0 && xmt_engine_out_of_step(e) && !prompt_pending(e)) {
    /* Output nobody asked for, or an exit, since the last batch: this
     * engine's answers can no longer be matched to segments. */
    kill_engine(e, NULL);
  }
  if (e->pid <= 0 && spawn(e, why->message, sizeof why->message) != 0)
    return 1;
  if (!e->probed) {
    int rc = xmt_engine_probe(e, why);
    if (rc == -2)
      return give_up(e, why->message, why);
    if (rc == XMT_ENGINE_INTERRUPTED)
      kill_engine(e, NULL);
    if (rc != 0)
      return rc == 1 ? after_failure(e, why) : rc;
  }
  if (build_input(e, req, n) != XMT_OK)
    return -1;
  struct exchange x;
  memset(&x, 0, sizeof x);
  x.delim = e->framing == XMT_FRAME_LINE ? '\n' : '\0';
  x.want = e->framing == XMT_FRAME_NULL_BATCH ? 1 : n + 1;
  x.cap = answers_cap(e, req, n);
  if (e->framing != XMT_FRAME_NULL_BATCH)
    x.cap += e->check.len + 2;
  x.checked = e->framing == XMT_FRAME_LINE;
  xmt_buf_reset(&e->rbuf);
  enum outcome out = xmt_engine_exchange(e, &x);
  if (x.ioerr == ENOMEM)
    return -1;
  if (out == EX_INTERRUPTED) {
    kill_engine(e, NULL);
    return XMT_ENGINE_INTERRUPTED;
  }
  if (out == EX_DONE) {
    why->engine = 0;
    e->timed_out = 0; /* it answered segments in time: it does not hang */
    int rc = take_answers(e, req, responses, n, &x, why);
    if (rc == 1)
      kill_engine(e, NULL);
    return rc;
  }
  if (out == EX_SHORT || out == EX_TOOBIG)
    e->timed_out = 0; /* it answered, if wrongly */
  xmt_engine_describe_end(e, out, &x, req, n, why);
  return after_failure(e, why);
}

static int fail_segment(xmt_mt_response *resp, const struct failure *why) {
  xmt_status st = why->engine
                      ? xmt_mt_response_set_engine_error(resp, why->message)
                      : xmt_mt_response_set_error(resp, why->message);
  return st == XMT_OK ? 0 : -1;
}

/* The segments from i on fail unsent, with why the engine was given up
 * or why the last max_failures of them failed. -1: out of memory. */
static int fail_rest(const struct xmt_engine *e,
                     xmt_mt_response *const *responses, size_t n,
                     unsigned in_a_row, const struct failure *why) {
  struct failure rest = {"", 1, 0};
  if (e->gave_up != NULL)
    snprintf(rest.message, sizeof rest.message, "not sent: %.600s", e->gave_up);
  else
    snprintf(rest.message, sizeof rest.message,
             "not sent: %.200s failed %u segment%s in a row sent alone "
             "(last: %.400s)",
             e->name, in_a_row, in_a_row == 1 ? "" : "s", why->message);
  rest.engine = e->gave_up != NULL || why->engine;
  for (size_t i = 0; i < n; i++)
    if (fail_segment(responses[i], &rest) != 0)
      return -1;
  return 0;
}

/* A batch that failed is sent again a segment at a time, each on an
 * engine that has answered nothing else since it was (re)started or
 * since its last whole answer, so that no answer can be taken for
 * another segment's. After max_failures segments failed in a row, or
 * once the engine is given up (it hangs, or cannot be checked), the rest
 * fail unsent. */
static int one_by_one(struct xmt_engine *e, const struct xmt_mt_request *req,
                      xmt_mt_response *const *responses, size_t n,
                      struct failure *why) {
  unsigned in_a_row = 0;
  for (size_t i = 0; i < n; i++) {
    if (in_a_row >= e->max_failures || e->gave_up != NULL)
      return fail_rest(e, &responses[i], n - i, in_a_row, why);
    int rc = run_batch(e, &req[i], &responses[i], 1, why);
    if (rc == XMT_ENGINE_INTERRUPTED)
      return rc;
    if (rc < 0 || (rc == 1 && fail_segment(responses[i], why) != 0))
      return -1;
    in_a_row = rc == 1 ? in_a_row + 1 : 0;
  }
  return 0;
}

int xmt_engine_translate(struct xmt_engine *e,
                         const struct xmt_mt_request *requests,
                         xmt_mt_response *const *responses, size_t n) {
  if (n == 0)
    return 0;
  struct failure why = {"", 1, 0};
  if (e->gave_up != NULL)
    return fail_rest(e, responses, n, 0, &why);
  int rc = run_batch(e, requests, responses, n, &why);
  if (rc != 1)
    return rc;
  if (n == 1)
    return fail_segment(responses[0], &why);
  return one_by_one(e, requests, responses, n, &why);
}

/* --- Life cycle
 * ---------------------------------------------------------------
 */

struct xmt_engine *xmt_engine_new(const struct xmt_engine_config *config,
                                  char *errbuf, size_t errlen) {
  struct xmt_engine *e = calloc(1, sizeof *e);
  if (e == NULL || (e->command = xmt_strdup(config->command)) == NULL ||
      (e->name = xmt_strdup(config->name)) == NULL) {
    snprintf(errbuf, errlen, "out of memory");
    xmt_engine_free(e);
    return NULL;
  }
  e->framing = config->framing;
  e->timeout_ms =
      config->timeout_ms != 0 ? config->timeout_ms : DEFAULT_TIMEOUT_MS;
  e->max_failures =
      config->max_failures != 0 ? config->max_failures : DEFAULT_MAX_FAILURES;
  e->max_answer = config->max_answer;
  e->interrupted = config->interrupted;
  e->encode = config->encode;
  e->decode = config->decode;
  e->pid = -1;
  e->in_fd = e->out_fd = e->err_fd = -1;
  if (spawn(e, errbuf, errlen) != 0) {
    xmt_engine_free(e);
    return NULL;
  }
  return e;
}

/* Lets the engine see end of file and exit by itself for a while, reading
 * what it still writes so it cannot block; then kills what is left. */
static void stop_engine(struct xmt_engine *e) {
  if (e->pid <= 0) {
    close_pipes(e);
    return;
  }
  close_fd(&e->in_fd);
  unsigned long long until = xmt_now_ms() + STOP_GRACE_MS;
  int status;
  while (xmt_now_ms() < until) {
    if (waitpid(e->pid, &status, WNOHANG) == e->pid) {
      e->pid = -1;
      break;
    }
    struct pollfd pfd[2];
    nfds_t np = 0;
    if (e->out_fd >= 0)
      pfd[np++] = (struct pollfd){e->out_fd, POLLIN, 0};
    if (e->err_fd >= 0)
      pfd[np++] = (struct pollfd){e->err_fd, POLLIN, 0};
    if (np == 0) {
      struct timespec ms10 = {0, 10000000};
      nanosleep(&ms10, NULL);
      continue;
    }
    if (poll(pfd, np, 10) <= 0)
      continue;
    char sink[4096];
    if (pfd[0].fd == e->out_fd && pfd[0].revents != 0 &&
        read(e->out_fd, sink, sizeof sink) == 0)
      close_fd(&e->out_fd); /* end of file: only the exit to wait for */
    drain_stderr(e);
  }
  kill_engine(e, NULL);
}

void xmt_engine_free(struct xmt_engine *e) {
  if (e == NULL)
    return;
  stop_engine(e);
  xmt_buf_free(&e->wbuf);
  xmt_buf_free(&e->rbuf);
  xmt_buf_free(&e->text);
  xmt_buf_free(&e->check);
  free(e->gave_up);
  free(e->command);
  free(e->name);
  free(e);
}

long xmt_engine_pid(const struct xmt_engine *e) {
  return e != NULL && e->pid > 0 ? (long)e->pid : -1;
}

xmt_status xmt_shell_quote(struct xmt_buf *out, const char *s) {
  xmt_status st = xmt_buf_append_byte(out, '\'');
  for (; st == XMT_OK && *s != '\0'; s++)
    st = *s == '\'' ? xmt_buf_append_str(out, "'\\''")
                    : xmt_buf_append_byte(out, *s);
  return st == XMT_OK ? xmt_buf_append_byte(out, '\'') : st;
}
