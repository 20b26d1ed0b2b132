/* batch_worker.c -- xliffmt batch's worker processes, and the signals
 * that stop a batch.
 *
 * A worker is a child process that translates the documents the parent
 * hands it on a pipe, one after the other, with one filter whose engine
 * stays up from one document to the next, and hands back each one's
 * counters on another pipe. A signal sent to the batch alone (kill,
 * systemd, a container runtime: not a terminal's Ctrl-C, which reaches
 * the whole process group) is passed on to the workers, so the document
 * under way is interrupted and not written. A worker dies with the batch
 * however the batch ends, SIGKILL too: on Linux the kernel sends it
 * SIGTERM when its parent dies (PR_SET_PDEATHSIG), which interrupts its
 * document as any SIGTERM does, and a worker whose parent is no longer
 * the one that started it begins no document. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>

#include "batch.h"

void xmt_cli_batch_report_path(const struct batch *b, size_t i, char *out,
                               size_t len) {
  snprintf(out, len, "%s/%zu.json", b->tmpdir, i);
}

static int transfer_full(int fd, char *in, const char *out, size_t len) {
  for (size_t done = 0; done < len;) {
    ssize_t n = in != NULL ? read(fd, in + done, len - done)
                           : write(fd, out + done, len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    done += (size_t)n;
  }
  return 0;
}

int xmt_cli_batch_read(int fd, void *buf, size_t len) {
  return transfer_full(fd, buf, NULL, len);
}

int xmt_cli_batch_write(int fd, const void *buf, size_t len) {
  return transfer_full(fd, NULL, buf, len);
}

static volatile sig_atomic_t stop;
/* The workers a signal is passed on to (none in a worker). */
static struct slot *volatile watched;
static volatile size_t nwatched;
static struct sigaction old_int, old_term, old_pipe;

static void on_signal(int sig) {
  int saved = errno;
  stop = sig;
  struct slot *slots = watched;
  for (size_t k = 0; slots != NULL && k < nwatched; k++) {
    pid_t pid = slots[k].pid;
    if (pid > 0) /* not yet reaped: the pid is still the worker's */
      kill(pid, sig);
  }
  errno = saved;
}

void xmt_cli_batch_signals_begin(struct slot *slots, size_t n) {
  watched = slots;
  nwatched = n;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  /* A worker that died has closed its pipe: writing to it must fail, not
   * kill the batch. */
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, &old_pipe);
}

void xmt_cli_batch_signals_end(void) {
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  sigaction(SIGPIPE, &old_pipe, NULL);
  watched = NULL;
  nwatched = 0;
}

int xmt_cli_batch_stopped(void) { return stop; }

/* The worker's life: one filter, configured once, for every document it
 * is handed until the parent closes the pipe. If the configuration fails,
 * each document is tried alone and fails with its message. */
static void work(const struct batch *b, const struct xmt_cli_settings *s,
                 int in, int out, pid_t parent) {
  xmt_filter *f = xmt_filter_new();
  if (f != NULL && xmt_cli_configure(f, s, b->backend, b->spec) != XMT_OK) {
    xmt_filter_free(f);
    f = NULL;
  }
  if (f != NULL &&
      xmt_filter_set_flags(
          f, s->flags | XMT_FILTER_KEEP_DICTIONARIES |
                 (b->fresh_engine ? 0 : XMT_FILTER_KEEP_ENGINES)) != XMT_OK) {
    xmt_filter_free(f);
    f = NULL;
  }
  size_t i;
  /* Every document handed over gets an answer, also after a signal: the
   * parent waits for it. */
  while (xmt_cli_batch_read(in, &i, sizeof i) == 0 && i < b->n) {
    char report[600];
    xmt_cli_batch_report_path(b, i, report, sizeof report);
    struct child_result r;
    memset(&r, 0, sizeof r);
    struct xmt_cli_settings one = *s;
    one.out = b->docs[i].out;
    one.report = b->reports ? report : NULL;
    one.quiet = 1; /* the batch shows the progress */
    if (stop || getppid() != parent) {
      r.rc = NOT_STARTED;
    } else {
      r.rc = xmt_cli_translate_one(&one, b->backend, b->spec, f, b->docs[i].in,
                                   &r.stats);
    }
    if (xmt_cli_batch_write(out, &r, sizeof r) != 0 || r.rc == NOT_STARTED ||
        r.rc == 128 + SIGINT || r.rc == 128 + SIGTERM)
      break;
  }
  xmt_filter_free(f);
}

/* In the new worker: it dies with its parent, passes no signal on, and
 * leaves if the parent died before it could ask for that. */
static void become_worker(const sigset_t *mask, pid_t parent) {
  watched = NULL;
  nwatched = 0;
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
  if (getppid() != parent)
    _exit(0);
  sigaction(SIGPIPE, &old_pipe, NULL);
  sigprocmask(SIG_SETMASK, mask, NULL);
}

/* Its pipes' other ends, and those of the other workers, are closed in
 * it: a worker must see the end of its own pipe when the parent closes
 * it. SIGINT and SIGTERM wait while it is forked: one that came before
 * its pid is in its slot would not reach it. */
int xmt_cli_batch_start_worker(const struct batch *b,
                               const struct xmt_cli_settings *s,
                               struct slot *slots, size_t nslots, size_t k) {
  int jobs[2], results[2];
  if (pipe(jobs) != 0)
    return -1;
  if (pipe(results) != 0) {
    close(jobs[0]);
    close(jobs[1]);
    return -1;
  }
  fflush(NULL);
  sigset_t block, mask;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, &mask);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    become_worker(&mask, parent);
    for (size_t j = 0; j < nslots; j++)
      if (slots[j].pid != 0) {
        close(slots[j].to);
        close(slots[j].from);
      }
    close(jobs[1]);
    close(results[0]);
    work(b, s, jobs[0], results[1], parent);
    _exit(0);
  }
  if (pid > 0) {
    slots[k].pid = pid;
    slots[k].to = jobs[1];
    slots[k].from = results[0];
    slots[k].busy = 0;
  }
  sigprocmask(SIG_SETMASK, &mask, NULL);
  close(jobs[0]);
  close(results[1]);
  if (pid < 0) {
    close(jobs[1]);
    close(results[0]);
    return -1;
  }
  return 0;
}

void xmt_cli_batch_end_worker(struct slot *slot, int sig, int *wstatus) {
  pid_t pid = slot->pid;
  slot->pid = 0; /* before it is reaped: the handler kills no other */
  close(slot->to);
  close(slot->from);
  if (sig != 0)
    kill(pid, sig);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (wstatus != NULL)
    *wstatus = status;
  slot->busy = 0;
}
