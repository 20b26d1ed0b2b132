/* session.c -- what the commands that run the pipeline share on
 * stderr: progress, failed segments, the summary, the JSON report, and
 * Ctrl-C, which stops the run without leaving an output file. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t interrupted;
/* The filter of the session under way: a signal ends its run at once,
 * wherever it is. */
static xmt_filter *volatile running;
static void on_signal(int sig) {
  interrupted = sig;
  xmt_filter_interrupt(running);
}

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) +
         (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static int on_progress(void *user, const struct xmt_filter_stats *s) {
  struct xmt_cli_session *ses = user;
  if (ses->progress) {
    double t = since(&ses->start);
    if (t - ses->last_draw >= 0.25) {
      ses->last_draw = t;
      xmt_cli_progress("xliffmt: %zu units, %zu segments sent, %.1f/s",
                       s->units, s->segments,
                       t > 0 ? (double)s->segments / t : 0.0);
      fflush(stderr);
    }
  }
  return interrupted != 0;
}

/* Keeps a segment's message for the report. */
static void keep(struct xmt_cli_session *ses, struct xmt_cli_failure **list,
                 size_t *n, size_t *cap, const char *id, unsigned long line,
                 const char *message) {
  if (*n == *cap) {
    struct xmt_cli_failure *l = xmt_grow_array(*list, cap, *n + 1, sizeof *l);
    if (l == NULL) {
      ses->nomem = 1;
      return;
    }
    *list = l;
  }
  struct xmt_cli_failure *f = &(*list)[*n];
  f->id = strdup(id);
  f->message = strdup(message);
  f->line = line;
  if (f->id == NULL || f->message == NULL) {
    free(f->id);
    free(f->message);
    ses->nomem = 1;
    return;
  }
  (*n)++;
}

static void on_failure(void *user, const char *id, unsigned long line,
                       const char *message) {
  struct xmt_cli_session *ses = user;
  if (ses->progress)
    fputc('\n', stderr);
  char at[32] = "";
  if (line > 0) /* a part of a package has no line a user could open */
    snprintf(at, sizeof at, ":%lu", line);
  xmt_cli_say("xliffmt: %s%s: segment %s not translated: %s\n", ses->in, at, id,
              message);
  keep(ses, &ses->failures, &ses->nfailures, &ses->cap, id, line, message);
}

static void on_warning(void *user, const char *id, unsigned long line,
                       const char *message) {
  struct xmt_cli_session *ses = user;
  if (ses->progress)
    fputc('\n', stderr);
  if (id == NULL) { /* about the run, not a segment */
    xmt_cli_say("xliffmt: warning: %s\n", message);
    keep(ses, &ses->warnings, &ses->nwarnings, &ses->warnings_cap, "", 0,
         message);
    return;
  }
  char at[32] = "";
  if (line > 0)
    snprintf(at, sizeof at, ":%lu", line);
  xmt_cli_say("xliffmt: %s%s: warning: segment %s: %s\n", ses->in, at, id,
              message);
  keep(ses, &ses->warnings, &ses->nwarnings, &ses->warnings_cap, id, line,
       message);
}

static void write_messages(FILE *fp, const struct xmt_cli_failure *list,
                           size_t n) {
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ",{\"segment\":" : "{\"segment\":", fp);
    xmt_cli_json_string(fp, list[i].id);
    fprintf(fp, ",\"line\":%lu,\"message\":", list[i].line);
    xmt_cli_json_string(fp, list[i].message);
    fputc('}', fp);
  }
}

static void free_messages(struct xmt_cli_failure *list, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(list[i].id);
    free(list[i].message);
  }
  free(list);
}

static int write_report(const char *path, const struct xmt_cli_session *ses,
                        const struct xmt_filter_stats *run, const char *backend,
                        xmt_status st, double seconds) {
  /* The units say what the output holds: a run that failed wrote none,
   * and no unit got a translation, whatever the engine answered. */
  struct xmt_filter_stats held = *run;
  const struct xmt_filter_stats *s = &held;
  if (st != XMT_OK && st != XMT_ERR_PARTIAL) {
    held.translated_units = 0;
    held.skipped_units = held.units;
  }
  /* Written whole or not at all, like every output. */
  struct xmt_cli_output out;
  if (xmt_cli_output_open(&out, path) != EXIT_OK)
    return 0;
  FILE *fp = out.fp;
  fputs("{\"input\":", fp);
  xmt_cli_json_string(fp, ses->in);
  fputs(",\"backend\":", fp);
  xmt_cli_json_string(fp, backend);
  fputs(",\"status\":", fp);
  xmt_cli_json_string(fp, st == XMT_OK            ? "ok"
                          : st == XMT_ERR_PARTIAL ? "partial"
                                                  : "failed");
  fprintf(fp,
          ",\"units\":%zu,\"translated_units\":%zu,\"skipped_units\":%zu,"
          "\"segments_sent\":%zu,\"copied_segments\":%zu,"
          "\"deduplicated_segments\":%zu,\"mt_calls\":%zu,"
          "\"projected_segments\":%zu,\"repaired_segments\":%zu,"
          "\"probe_requests\":%zu,\"probe_anchored_tags\":%zu,"
          "\"sanitized_segments\":%zu,\"cache_hits\":%zu,"
          "\"failed_segments\":%zu,\"seconds\":%.3f,"
          "\"engine_seconds\":%.3f,\"cached_alignments\":%zu,\"failures\":[",
          s->units, s->translated_units, s->skipped_units, s->segments,
          s->copied_segments, s->deduplicated_segments, s->mt_calls,
          s->projected_segments, s->repaired_segments, s->probe_requests,
          s->probe_anchored_tags, s->sanitized_segments, s->cache_hits,
          s->failed_segments, seconds, s->engine_seconds, s->cached_alignments);
  write_messages(fp, ses->failures, ses->nfailures);
  fputs("],\"warnings\":[", fp);
  write_messages(fp, ses->warnings, ses->nwarnings);
  fputs("]}\n", fp);
  return xmt_cli_output_commit(&out) == EXIT_OK;
}

void xmt_cli_session_begin(struct xmt_cli_session *ses, xmt_filter *f,
                           const char *in, int quiet) {
  memset(ses, 0, sizeof *ses);
  ses->in = in;
  ses->progress = !quiet && isatty(STDERR_FILENO);
  clock_gettime(CLOCK_MONOTONIC, &ses->start);
  xmt_filter_set_callbacks(f, on_progress, on_failure, ses);
  xmt_filter_set_warning_callback(f, on_warning);
  /* Ctrl-C and SIGTERM end the run within a fraction of a second; the
   * output is then not written. */
  running = f;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &ses->old_int);
  sigaction(SIGTERM, &sa, &ses->old_term);
}

int xmt_cli_session_end(struct xmt_cli_session *ses, xmt_filter *f,
                        xmt_status st, const struct xmt_cli_settings *s,
                        const char *engine) {
  sigaction(SIGINT, &ses->old_int, NULL);
  sigaction(SIGTERM, &ses->old_term, NULL);
  running = NULL;
  double seconds = since(&ses->start);
  const struct xmt_filter_stats *stats = xmt_filter_stats(f);
  if (ses->progress)
    fputc('\n', stderr);
  if (st != XMT_OK)
    xmt_cli_report(xmt_filter_error(f));
  if (!s->quiet && (st == XMT_OK || st == XMT_ERR_PARTIAL))
    xmt_cli_say(
        "xliffmt: %s: %zu units, %zu translated, %zu left as they were; "
        "%zu segments sent to %s in %zu calls, %zu copied, %zu "
        "deduplicated, %zu failed; %.2f s\n",
        ses->in, stats->units, stats->translated_units, stats->skipped_units,
        stats->segments, engine, stats->mt_calls, stats->copied_segments,
        stats->deduplicated_segments, stats->failed_segments, seconds);
  if (!s->quiet && (st == XMT_OK || st == XMT_ERR_PARTIAL) &&
      stats->filled_copies > 0)
    xmt_cli_say("xliffmt: %s: %zu target%s that copied %s source filled "
                "(state initial)\n",
                ses->in, stats->filled_copies,
                stats->filled_copies == 1 ? "" : "s",
                stats->filled_copies == 1 ? "its" : "their");
  int rc = xmt_cli_exit_status(st);
  if (s->report != NULL &&
      !write_report(s->report, ses, stats, engine, st, seconds) &&
      rc == EXIT_OK)
    rc = EXIT_BAD_INPUT;
  if (ses->nomem && rc == EXIT_OK)
    rc = EXIT_INTERNAL;
  free_messages(ses->failures, ses->nfailures);
  free_messages(ses->warnings, ses->nwarnings);
  /* as a shell reports a process its signal ended: 130, 143 */
  if (interrupted && rc != EXIT_OK)
    return 128 + interrupted;
  return rc;
}
