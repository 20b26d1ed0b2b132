/* batch.h -- what batch.c (the documents, the run) and batch_worker.c
 * (the worker processes, the signals) share; private to xliffmt batch. */
#ifndef XMT_CLI_BATCH_H
#define XMT_CLI_BATCH_H

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"

/* A worker's answer for a document it did not begin (a signal came
 * first). */
#define NOT_STARTED (-1)

struct doc {
  char *in, *out, *rel;
  int skipped; /* up to date */
  int rc;      /* translate's exit status, or NOT_STARTED */
  int done;
  int has_report; /* translate's JSON report waits in the temporary dir */
  struct xmt_filter_stats stats;
};

struct batch {
  struct doc *docs;
  size_t n, cap;
  size_t listed; /* documents before --share kept its own */
  const char *outdir;
  struct stat outdir_st; /* when it existed before the walk */
  int outdir_exists;
  char tmpdir[512];
  const struct xmt_backend *backend; /* --mt */
  const char *spec;
  int reports; /* --report: each document's report is kept on disk */
  int fresh_engine;
  struct stat settings_since; /* OUTDIR/.xliffmt-settings, its time */
};

/* What a worker hands back on its pipe for each document. */
struct child_result {
  int rc;
  struct xmt_filter_stats stats;
};

/* A worker: its process (0: none; read by the signal handler), the pipe
 * that hands it document numbers and the one its results come back on,
 * and the marker of the document it is on. */
struct slot {
  volatile pid_t pid;
  int to, from;
  int busy;
  size_t doc;
  struct xmt_cli_batch_mark mark;
};

/* The options of a batch that decide its documents' outputs
 * (batch_settings.c). */
struct xmt_cli_batch_settings {
  char **lines; /* "--name value" */
  size_t n, cap;
};
/* Keeps option code (argument arg, or NULL) of cmd unless it decides no
 * output; -1 out of memory. */
int xmt_cli_batch_settings_note(struct xmt_cli_batch_settings *bs,
                                const struct xmt_cli_command *cmd, int code,
                                const char *arg);
/* Writes the settings to OUTDIR/.xliffmt-settings unless it holds them;
 * *since gets its stat: an output older than it was made with other
 * settings. -1, reported, when it cannot be read or written. */
int xmt_cli_batch_settings_stamp(struct xmt_cli_batch_settings *bs,
                                 const char *outdir, struct stat *since);
void xmt_cli_batch_settings_free(struct xmt_cli_batch_settings *bs);

void xmt_cli_batch_report_path(const struct batch *b, size_t i, char *out,
                               size_t len);
/* All len bytes read from fd, or written to it, whatever signals
 * interrupt; -1 at the end of the pipe or on an error. */
int xmt_cli_batch_read(int fd, void *buf, size_t len);
int xmt_cli_batch_write(int fd, const void *buf, size_t len);

/* SIGINT and SIGTERM, from now on, are passed on to the workers of
 * slots (as a terminal's Ctrl-C reaches them all) and stop the batch;
 * SIGPIPE is ignored. Undone by xmt_cli_batch_signals_end. */
void xmt_cli_batch_signals_begin(struct slot *slots, size_t n);
void xmt_cli_batch_signals_end(void);
/* The signal that stopped the batch, or 0. */
int xmt_cli_batch_stopped(void);

/* Starts the worker of slots[k]; -1 when it cannot. The worker dies with
 * the batch, whatever kills the batch. */
int xmt_cli_batch_start_worker(const struct batch *b,
                               const struct xmt_cli_settings *s,
                               struct slot *slots, size_t nslots, size_t k);
/* Ends a worker: its pipe closed, it leaves on its own; sig makes it
 * leave now. wstatus, if not NULL, gets how it ended. */
void xmt_cli_batch_end_worker(struct slot *slot, int sig, int *wstatus);

#endif
