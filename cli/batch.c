/* batch.c -- xliffmt batch: many documents translated into a mirrored
 * output tree, several at a time.
 *
 * Each of --jobs workers is a child process that translates the documents
 * the parent hands it, one after the other, exactly as `xliffmt translate`
 * would, with one filter whose engine stays up from one document to the
 * next (starting Apertium costs more than translating a short document;
 * batch_worker.c). A crash or a leak stays in its worker: the parent
 * marks the document failed and starts another worker. A worker hands
 * back each document's counters on a pipe and its report in a file; the
 * parent keeps the progress, the totals and the batch report. An output
 * newer than its input is skipped, unless it has a marker under
 * OUTDIR/.xliffmt-incomplete.d (batch_state.c, safe for batches that
 * share the tree), so a batch that was stopped starts again where it
 * stopped and a rerun retries the documents left with untranslated
 * segments. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"

enum { XMT_OPT_JOBS = 400, XMT_OPT_FORCE, XMT_OPT_FRESH_ENGINE, XMT_OPT_SHARE };

static const struct xmt_cli_option batch_options[] = {
    {"output", 'o', "OUTDIR", "the output tree (created)"},
    {"jobs", 'j', "N", "documents translated at once (default 1)"},
    {"force", XMT_OPT_FORCE, NULL,
     "translate documents whose output is up to\ndate too"},
    {"fresh-engine", XMT_OPT_FRESH_ENGINE, NULL,
     "start the engine anew for each document\n(default: once per job; an "
     "engine may\ncarry context from one document to the\nnext)"},
    {"share", XMT_OPT_SHARE, "K/N",
     "only share K of N (K from 0 to N-1): the\ndocuments whose relative path "
     "hashes to K,\nthe same on every machine whatever the\norder of its "
     "listing"},
    {"report", XMT_OPT_REPORT, "FILE",
     "JSON: one object per document, as\ntranslate's --report, and the "
     "totals"},
    {NULL, 0, NULL, NULL}};

/* The extensions a directory walk takes, from the format table. */
static void batch_more(FILE *fp) {
  size_t n;
  const struct xmt_format_info *formats = xmt_format_list(&n);
  fputs("\nDocuments taken from a directory:", fp);
  for (size_t i = 0; i < n; i++) {
    fprintf(fp, "\n  %-34s", formats[i].description);
    for (const char *const *e = formats[i].extensions; *e != NULL; e++)
      fprintf(fp, " %s", *e);
    if (*formats[i].extensions == NULL) /* XLIFF 2 is named as 1.2 is */
      fputs(" (the names above; its content decides)", fp);
  }
  fputc('\n', fp);
  xmt_cli_backends_help(fp);
}

static const struct xmt_cli_command batch_command = {
    "batch ",
    "Usage: xliffmt batch IN... -o OUTDIR --mt BACKEND [OPTIONS]\n\n"
    "Translates many documents as `xliffmt translate` translates one: each\n"
    "file IN, and every XLIFF or HTML file under each directory IN (by\n"
    "its name, listed below; the content then decides its format), is\n"
    "written to OUTDIR under the same relative path (a file IN: under its\n"
    "name). An output newer than its input is left alone, so a batch that\n"
    "was stopped goes on where it stopped. One bad document does not stop\n"
    "the others. The options of `xliffmt translate` apply to each\n"
    "document; see xliffmt-translate(1).\n\n",
    XMT_CLI_GROUPS(batch_options, xmt_cli_lang_options, xmt_cli_mt_options,
                   xmt_cli_run_options, xmt_cli_tail_options),
    batch_more,
    "Exit status: 0 all documents done, 1 some document could not be\n"
    "translated (the others were written), 2 internal error, 3 done but\n"
    "some segments not translated.\n"};

/* A directory walk takes the files the format table names. */
static int is_document(const char *name) {
  enum xmt_doc_format format;
  return xmt_format_by_extension(name, &format);
}

static int add_doc(struct batch *b, const char *in, const char *rel) {
  if (b->n == b->cap) {
    struct doc *d = xmt_grow_array(b->docs, &b->cap, b->n + 1, sizeof *d);
    if (d == NULL)
      return -1;
    b->docs = d;
  }
  struct doc *d = &b->docs[b->n];
  memset(d, 0, sizeof *d);
  d->in = strdup(in);
  d->rel = strdup(rel);
  d->out = xmt_cli_join(b->outdir, rel);
  if (d->in == NULL || d->rel == NULL || d->out == NULL) {
    free(d->in);
    free(d->rel);
    free(d->out);
    return -1;
  }
  b->n++;
  return 0;
}

/* The directories from the root of a walk down to the current one. */
struct dir_chain {
  dev_t dev;
  ino_t ino;
  const struct dir_chain *up;
};

static int same_dir(const struct stat *st, dev_t dev, ino_t ino) {
  return st->st_dev == dev && st->st_ino == ino;
}

/* 1 when dir is a batch's output tree: its incomplete documents'
 * directory (batch_state.c) is there. */
static int is_output_tree(const char *dir) {
  char *state = xmt_cli_join(dir, ".xliffmt-incomplete.d");
  struct stat st;
  int yes = state != NULL && stat(state, &st) == 0 && S_ISDIR(st.st_mode);
  free(state);
  return yes;
}

/* The documents under dir, rel being dir's path below the batch's root.
 * The output directory, by device and inode, and any other batch's
 * output tree (it holds .xliffmt-incomplete.d) are never read as input:
 * an output tree inside the input tree would otherwise be translated
 * again, one level deeper, at each run. A symbolic link back to a
 * directory being walked is not followed round. */
static int walk(struct batch *b, const char *dir, const char *rel,
                const struct dir_chain *up) {
  DIR *dp = opendir(dir);
  if (dp == NULL) {
    xmt_cli_say("xliffmt: %s: cannot read the directory: %s\n", dir,
                strerror(errno));
    return -1;
  }
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(dp)) != NULL) {
    if (e->d_name[0] == '.')
      continue; /* ., .., hidden files and our own temporary files */
    char *path = xmt_cli_join(dir, e->d_name);
    char *sub =
        rel[0] != '\0' ? xmt_cli_join(rel, e->d_name) : strdup(e->d_name);
    struct stat st;
    if (path == NULL || sub == NULL) {
      rc = -1;
    } else if (stat(path, &st) != 0) {
      xmt_cli_say("xliffmt: %s: %s\n", path, strerror(errno));
      rc = -1;
    } else if (S_ISDIR(st.st_mode)) {
      const struct dir_chain *a = up;
      while (a != NULL && !same_dir(&st, a->dev, a->ino))
        a = a->up;
      if (a != NULL)
        xmt_cli_say("xliffmt: warning: %s: a link back to a directory "
                    "above it: not followed\n",
                    path);
      else if (b->outdir_exists &&
               same_dir(&st, b->outdir_st.st_dev, b->outdir_st.st_ino))
        ; /* our own output tree: left out silently */
      else if (is_output_tree(path))
        xmt_cli_say("xliffmt: warning: %s: the output tree of another "
                    "batch: not read (name it to translate it)\n",
                    path);
      else {
        const struct dir_chain here = {st.st_dev, st.st_ino, up};
        rc = walk(b, path, sub, &here);
      }
    } else if (S_ISREG(st.st_mode) && is_document(e->d_name)) {
      rc = add_doc(b, path, sub);
    }
    free(path);
    free(sub);
  }
  closedir(dp);
  return rc;
}

static int by_rel(const void *x, const void *y) {
  return strcmp(((const struct doc *)x)->rel, ((const struct doc *)y)->rel);
}

static int newer(const struct stat *a, const struct stat *b) {
  return a->st_mtim.tv_sec > b->st_mtim.tv_sec ||
         (a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
          a->st_mtim.tv_nsec > b->st_mtim.tv_nsec);
}

static char *read_file(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return NULL;
  struct xmt_cli_output_buf {
    char *data;
    size_t len, cap;
  } b = {0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
    if (b.len + n + 1 > b.cap) {
      char *d = xmt_grow_array(b.data, &b.cap, b.len + n + 1, 1);
      if (d == NULL) {
        free(b.data);
        fclose(fp);
        return NULL;
      }
      b.data = d;
    }
    memcpy(b.data + b.len, chunk, n);
    b.len += n;
  }
  fclose(fp);
  if (b.data == NULL)
    return NULL;
  while (b.len > 0 && (b.data[b.len - 1] == '\n' || b.data[b.len - 1] == ' '))
    b.len--;
  b.data[b.len] = '\0';
  return b.data;
}

/* The document slots[k] was translating, from its result, or failed when
 * the worker died on it (the worker is then reaped). */
static void finish(struct batch *b, struct slot *slot) {
  struct doc *d = &b->docs[slot->doc];
  struct child_result r;
  d->done = 1;
  d->has_report = b->reports;
  slot->busy = 0;
  if (xmt_cli_batch_read(slot->from, &r, sizeof r) == 0) {
    d->rc = r.rc;
    d->stats = r.stats;
    return;
  }
  int wstatus;
  xmt_cli_batch_end_worker(slot, 0, &wstatus);
  d->rc = EXIT_INTERNAL;
  if (WIFSIGNALED(wstatus))
    xmt_cli_say("xliffmt: %s: the translation died (signal %d)\n", d->in,
                WTERMSIG(wstatus));
  else
    xmt_cli_say("xliffmt: %s: the translation ended without a result\n", d->in);
}

struct totals {
  size_t docs, done, skipped, failed, partial;
  size_t interrupted, not_started; /* by Ctrl-C: begun, never begun */
  struct xmt_filter_stats s;
};

static void add_stats(struct xmt_filter_stats *t,
                      const struct xmt_filter_stats *s) {
  t->units += s->units;
  t->translated_units += s->translated_units;
  t->skipped_units += s->skipped_units;
  t->segments += s->segments;
  t->failed_segments += s->failed_segments;
  t->bytes_in += s->bytes_in;
  t->copied_segments += s->copied_segments;
  t->deduplicated_segments += s->deduplicated_segments;
  t->mt_calls += s->mt_calls;
  t->projected_segments += s->projected_segments;
  t->repaired_segments += s->repaired_segments;
  t->probe_requests += s->probe_requests;
  t->probe_anchored_tags += s->probe_anchored_tags;
  t->sanitized_segments += s->sanitized_segments;
  t->cache_hits += s->cache_hits;
  t->engine_seconds += s->engine_seconds;
  t->cached_alignments += s->cached_alignments;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* translate's exit status after SIGINT or SIGTERM */
static int interrupted(int rc) {
  return rc == 128 + SIGINT || rc == 128 + SIGTERM;
}

static void progress(const struct totals *t, const struct doc *d, double t0,
                     int tty, int quiet) {
  if (quiet)
    return;
  double el = now_s() - t0;
  size_t handled = t->done + t->skipped;
  if (tty) {
    double eta = t->done > 0 && t->docs > handled
                     ? el / (double)t->done * (double)(t->docs - handled)
                     : 0;
    xmt_cli_progress("xliffmt batch: %zu/%zu documents, %zu segments, %.1f "
                     "segments/s, ETA %d:%02d ",
                     handled, t->docs, t->s.segments,
                     el > 0 ? (double)t->s.segments / el : 0.0, (int)eta / 60,
                     (int)eta % 60);
    fflush(stderr);
  } else {
    xmt_cli_say("xliffmt: batch %zu/%zu: %s: %s, %zu segment%s\n", handled,
                t->docs, d->rel,
                d->skipped              ? "up to date"
                : d->rc == EXIT_OK      ? "done"
                : d->rc == EXIT_PARTIAL ? "some segments not translated"
                : d->rc == NOT_STARTED  ? "not started"
                : interrupted(d->rc)    ? "interrupted"
                                        : "failed",
                d->stats.segments, d->stats.segments == 1 ? "" : "s");
  }
}

static int write_batch_report(const char *path, const struct batch *b,
                              const struct totals *t, double seconds) {
  /* Written whole or not at all, like every output. */
  struct xmt_cli_output out;
  if (xmt_cli_output_open(&out, path) != EXIT_OK)
    return 0;
  FILE *fp = out.fp;
  fputs("{\"documents\":[", fp);
  /* One document's report in memory at a time: the batch's memory does
   * not grow with its reports. */
  for (size_t i = 0; i < b->n; i++) {
    const struct doc *d = &b->docs[i];
    char doc_report[600], *report = NULL;
    xmt_cli_batch_report_path(b, i, doc_report, sizeof doc_report);
    if (d->has_report)
      report = read_file(doc_report);
    if (i > 0)
      fputc(',', fp);
    if (report != NULL && report[0] == '{') {
      /* translate's report, with the output and the exit status */
      fputs("{\"output\":", fp);
      xmt_cli_json_string(fp, d->out);
      fprintf(fp, ",\"exit_status\":%d,", d->rc);
      fputs(report + 1, fp);
    } else {
      fputs("{\"input\":", fp);
      xmt_cli_json_string(fp, d->in);
      fputs(",\"output\":", fp);
      xmt_cli_json_string(fp, d->out);
      if (d->skipped)
        fputs(",\"status\":\"up-to-date\"}", fp);
      else if (!d->done || d->rc == NOT_STARTED)
        fputs(",\"status\":\"not-started\"}", fp);
      else
        fprintf(fp, ",\"status\":\"failed\",\"exit_status\":%d}", d->rc);
    }
    free(report);
  }
  const struct xmt_filter_stats *s = &t->s;
  fprintf(fp,
          "],\"totals\":{\"documents\":%zu,\"translated_documents\":%zu,"
          "\"up_to_date_documents\":%zu,\"partial_documents\":%zu,"
          "\"failed_documents\":%zu,\"interrupted_documents\":%zu,"
          "\"not_started_documents\":%zu,"
          "\"units\":%zu,\"translated_units\":%zu,"
          "\"skipped_units\":%zu,\"segments_sent\":%zu,"
          "\"copied_segments\":%zu,\"deduplicated_segments\":%zu,"
          "\"mt_calls\":%zu,\"projected_segments\":%zu,"
          "\"repaired_segments\":%zu,\"probe_requests\":%zu,"
          "\"probe_anchored_tags\":%zu,\"sanitized_segments\":%zu,"
          "\"cache_hits\":%zu,\"failed_segments\":%zu,\"seconds\":%.3f,"
          "\"engine_seconds\":%.3f,\"cached_alignments\":%zu}}\n",
          t->docs, t->done - t->failed - t->partial, t->skipped, t->partial,
          t->failed, t->interrupted, t->not_started, s->units,
          s->translated_units, s->skipped_units, s->segments,
          s->copied_segments, s->deduplicated_segments, s->mt_calls,
          s->projected_segments, s->repaired_segments, s->probe_requests,
          s->probe_anchored_tags, s->sanitized_segments, s->cache_hits,
          s->failed_segments, seconds, s->engine_seconds, s->cached_alignments);
  return xmt_cli_output_commit(&out) == EXIT_OK;
}

static void free_batch(struct batch *b) {
  for (size_t i = 0; i < b->n; i++) {
    char path[600];
    xmt_cli_batch_report_path(b, i, path, sizeof path);
    if (b->docs[i].has_report)
      unlink(path);
    free(b->docs[i].in);
    free(b->docs[i].out);
    free(b->docs[i].rel);
  }
  free(b->docs);
  if (b->tmpdir[0] != '\0')
    rmdir(b->tmpdir);
}

/* The options of batch beyond translate's. */
struct batch_args {
  struct xmt_cli_settings s;
  unsigned long jobs;
  unsigned long share_k, share_n; /* --share K/N; N is 0 without it */
  int force, fresh_engine;
  struct xmt_cli_batch_settings settings; /* deciding the outputs */
};

/* --share K/N: two decimal numbers, 0 <= K < N. */
static int take_share(struct batch_args *a, const char *arg) {
  char *end;
  errno = 0;
  unsigned long k = strtoul(arg, &end, 10);
  int ok =
      errno == 0 && end != arg && *end == '/' && arg[0] >= '0' && arg[0] <= '9';
  const char *n_at = end + 1;
  unsigned long n = ok ? strtoul(n_at, &end, 10) : 0;
  ok = ok && errno == 0 && end != n_at && *end == '\0' && n_at[0] >= '0' &&
       n_at[0] <= '9' && n >= 1 && n <= 1000000 && k < n;
  if (!ok) {
    xmt_cli_usage_error("batch ", "--share takes K/N, two numbers with K "
                                  "from 0 to N-1 (for a job array of 1 to "
                                  "N, give the task id minus 1)");
    return 0;
  }
  a->share_k = k;
  a->share_n = n;
  return 1;
}

static int take(void *user, int c, const char *arg) {
  struct batch_args *a = user;
  if (c == 'j') {
    char *end;
    errno = 0;
    a->jobs = strtoul(arg, &end, 10);
    if (errno != 0 || *end != '\0' || a->jobs < 1 || a->jobs > 256) {
      xmt_cli_usage_error("batch ", "--jobs takes a number from 1 to 256");
      return 0;
    }
  } else if (c == XMT_OPT_FORCE) {
    a->force = 1;
  } else if (c == XMT_OPT_FRESH_ENGINE) {
    a->fresh_engine = 1;
  } else if (c == XMT_OPT_SHARE) {
    return take_share(a, arg);
  } else {
    if (xmt_cli_batch_settings_note(&a->settings, &batch_command, c, arg) !=
        0) {
      xmt_cli_say("xliffmt: batch: out of memory\n");
      return 0;
    }
    return xmt_cli_take_option(&a->s, c, arg);
  }
  return 1;
}

/* Parses argv; -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct batch_args *a) {
  memset(a, 0, sizeof *a);
  xmt_cli_settings_init(&a->s);
  a->s.command = batch_command.name;
  a->jobs = 1;
  int rc = xmt_cli_parse(&batch_command, argc, argv, take, a);
  if (rc >= 0)
    return rc;
  const char *bad = NULL;
  if (optind == argc)
    bad = "missing input files or directories";
  else if (a->s.out == NULL || strcmp(a->s.out, "-") == 0)
    bad = "missing -o OUTDIR (the output tree)";
  /* Each document would load the model before the others saved. */
  else if ((a->s.flags & XMT_FILTER_UPDATE_MODEL) != 0 && a->jobs > 1)
    bad = "--update-model needs --jobs 1: each document adds to what the "
          "ones before it taught the model";
  if (bad != NULL) {
    xmt_cli_usage_error("batch ", bad);
    return EXIT_BAD_INPUT;
  }
  return -1;
}

/* One input argument: a file, or a directory walked. */
static int collect_one(struct batch *b, const char *in) {
  struct stat st;
  if (stat(in, &st) != 0) {
    xmt_cli_say("xliffmt: %s: %s\n", in, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  if (!S_ISDIR(st.st_mode)) {
    const char *slash = strrchr(in, '/');
    return add_doc(b, in, slash != NULL ? slash + 1 : in) != 0 ? EXIT_INTERNAL
                                                               : EXIT_OK;
  }
  const struct dir_chain root = {st.st_dev, st.st_ino, NULL};
  if (b->outdir_exists &&
      same_dir(&st, b->outdir_st.st_dev, b->outdir_st.st_ino)) {
    xmt_cli_say("xliffmt: %s: the output directory is an input "
                "directory: give -o another\n",
                in);
    return EXIT_BAD_INPUT;
  }
  return walk(b, in, "", &root) != 0 ? EXIT_BAD_INPUT : EXIT_OK;
}

/* The documents of the operands, sorted, none written twice. */
static int collect(struct batch *b, int argc, char **argv) {
  int rc = EXIT_OK;
  b->outdir_exists = stat(b->outdir, &b->outdir_st) == 0;
  for (int i = optind; rc == EXIT_OK && i < argc; i++)
    rc = collect_one(b, argv[i]);
  if (rc == EXIT_OK && b->n > 1)
    qsort(b->docs, b->n, sizeof *b->docs, by_rel);
  for (size_t i = 1; rc == EXIT_OK && i < b->n; i++)
    if (strcmp(b->docs[i].rel, b->docs[i - 1].rel) == 0) {
      xmt_cli_say("xliffmt: %s and %s would both be written to %s\n",
                  b->docs[i - 1].in, b->docs[i].in, b->docs[i].out);
      rc = EXIT_BAD_INPUT;
    }
  return rc;
}

/* The share of a document: a hash of its relative path (the path under
 * OUTDIR), so that N workers that list the collection in any order, or
 * on machines whose directories read back in different orders, cover
 * each document exactly once. */
static unsigned long share_of(const char *rel, unsigned long n) {
  return (unsigned long)(xmt_fnv1a(XMT_FNV1A_BASIS, rel, strlen(rel)) % n);
}

/* Keeps only the documents of --share K/N; b->listed keeps the count. */
static void keep_share(struct batch *b, unsigned long k, unsigned long n) {
  b->listed = b->n;
  if (n == 0)
    return;
  size_t kept = 0;
  for (size_t i = 0; i < b->n; i++) {
    struct doc *d = &b->docs[i];
    if (share_of(d->rel, n) == k) {
      b->docs[kept++] = *d;
      continue;
    }
    free(d->in);
    free(d->out);
    free(d->rel);
  }
  b->n = kept;
}

/* Every file of the batch, before one is written or a worker started
 * (files.c): no output and no --report is an input document, another
 * output, the list of incomplete documents or a file the run reads, and
 * each can be made (the output folder's missing folders too). */
static int files_check(const struct batch *b,
                       const struct xmt_cli_settings *s) {
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  struct xmt_cli_settings run = *s;
  run.report = NULL; /* each document's goes to the temporary folder */
  xmt_cli_files_add_run(&fs, &run, NULL, NULL);
  for (size_t i = 0; i < b->n; i++)
    xmt_cli_files_add(&fs, XMT_CLI_READS, b->docs[i].in, "", "the input", NULL);
  /* batch_state.c: the list an earlier version left, and the markers. */
  char *list = xmt_cli_join(b->outdir, ".xliffmt-incomplete");
  fs.nomem |= list == NULL;
  xmt_cli_files_add(&fs, XMT_CLI_UPDATES_UNDER, list, "-o",
                    "the list of incomplete documents", NULL);
  free(list);
  char *settings = xmt_cli_join(b->outdir, ".xliffmt-settings");
  fs.nomem |= settings == NULL;
  xmt_cli_files_add(&fs, XMT_CLI_UPDATES_UNDER, settings, "-o",
                    "the settings of the output tree", NULL);
  free(settings);
  char *marks = xmt_cli_join(b->outdir, ".xliffmt-incomplete.d");
  fs.nomem |= marks == NULL;
  for (size_t i = 0; marks != NULL && i < b->n; i++) {
    char *mark = xmt_cli_join(marks, b->docs[i].rel);
    fs.nomem |= mark == NULL;
    xmt_cli_files_add(&fs, XMT_CLI_UPDATES_UNDER, mark, "-o",
                      "the marker of an incomplete document", b->docs[i].in);
    free(mark);
  }
  free(marks);
  for (size_t i = 0; i < b->n; i++)
    xmt_cli_files_add(&fs, XMT_CLI_WRITES_UNDER, b->docs[i].out, "-o",
                      "the output", b->docs[i].in);
  xmt_cli_files_add(&fs, XMT_CLI_WRITES, s->report, "--report", "the report",
                    NULL);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}

/* The output directory, its incomplete documents, the temporary
 * directory of the reports. */
static int prepare(struct batch *b, struct xmt_cli_batch_state *state,
                   struct xmt_cli_batch_settings *settings, int rc) {
  memset(state, 0, sizeof *state);
  struct stat st;
  if (rc == EXIT_OK && ((mkdir(b->outdir, 0777) != 0 && errno != EEXIST) ||
                        (stat(b->outdir, &st) == 0 && !S_ISDIR(st.st_mode) &&
                         (errno = ENOTDIR) != 0))) {
    xmt_cli_say("xliffmt: %s: cannot create the directory: %s\n", b->outdir,
                strerror(errno));
    rc = EXIT_INTERNAL; /* output that cannot be written, as ever */
  }
  if (rc == EXIT_OK && xmt_cli_batch_state_open(state, b->outdir) != 0)
    rc = EXIT_BAD_INPUT;
  if (rc == EXIT_OK && xmt_cli_batch_settings_stamp(settings, b->outdir,
                                                    &b->settings_since) != 0)
    rc = EXIT_INTERNAL;
  const char *tmp = getenv("TMPDIR");
  snprintf(b->tmpdir, sizeof b->tmpdir, "%s/xliffmt-batch-XXXXXX",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (rc == EXIT_OK && mkdtemp(b->tmpdir) == NULL) {
    xmt_cli_say("xliffmt: cannot create a temporary directory: %s\n",
                strerror(errno));
    b->tmpdir[0] = '\0';
    rc = EXIT_INTERNAL;
  }
  return rc;
}

/* The run: the workers, what is handed out, what came back. */
struct run {
  struct batch *b;
  const struct batch_args *a;
  struct xmt_cli_batch_state *state;
  struct totals t;
  struct slot *slots;
  struct pollfd *pfd;
  size_t running, next;
  int tty;
  double t0;
};

/* Hands documents to idle workers until all are busy; an up-to-date
 * document is skipped. */
static int hand_out(struct run *r) {
  struct batch *b = r->b;
  while (!xmt_cli_batch_stopped() && r->running < r->a->jobs &&
         r->next < b->n) {
    struct doc *d = &b->docs[r->next];
    struct stat si, so;
    if (!r->a->force && !xmt_cli_batch_state_has(r->state, d->rel) &&
        stat(d->in, &si) == 0 && stat(d->out, &so) == 0 && newer(&so, &si) &&
        newer(&so, &b->settings_since)) {
      d->skipped = 1;
      r->t.skipped++;
      progress(&r->t, d, r->t0, r->tty, r->a->s.quiet);
      r->next++;
      continue;
    }
    if (xmt_cli_make_parents(d->out) != 0) {
      d->done = 1;
      d->rc = EXIT_BAD_INPUT;
      r->t.done++;
      r->t.failed++;
      r->next++;
      continue;
    }
    struct slot *slots = r->slots;
    size_t k = 0;
    while (slots[k].busy)
      k++;
    /* Listed before it is begun: whatever happens next, a rerun does
     * not take a partial output for a finished one. */
    if (xmt_cli_batch_state_begin(r->state, d->rel, &slots[k].mark) != 0)
      return EXIT_INTERNAL;
    /* A worker gone since its last document is started again. */
    if (slots[k].pid != 0 &&
        xmt_cli_batch_write(slots[k].to, &r->next, sizeof r->next) != 0)
      xmt_cli_batch_end_worker(&slots[k], 0, NULL);
    if (slots[k].pid == 0 &&
        (xmt_cli_batch_start_worker(b, &r->a->s, slots, r->a->jobs, k) != 0 ||
         xmt_cli_batch_write(slots[k].to, &r->next, sizeof r->next) != 0)) {
      xmt_cli_say("xliffmt: cannot start a process: %s\n", strerror(errno));
      return EXIT_INTERNAL;
    }
    slots[k].busy = 1;
    slots[k].doc = r->next++;
    r->running++;
  }
  return EXIT_OK;
}

/* Counts the document of slot, whose result came (or whose worker was
 * ended), and lets go of its marker: it goes only when the document is
 * whole. */
static void count(struct run *r, struct slot *slot) {
  const struct doc *d = &r->b->docs[slot->doc];
  r->running--;
  const char *why = d->rc == EXIT_OK        ? NULL
                    : d->rc == NOT_STARTED  ? "not started\n"
                    : interrupted(d->rc)    ? "interrupted\n"
                    : d->rc == EXIT_PARTIAL ? "some segments not translated\n"
                                            : "failed\n";
  xmt_cli_batch_state_end(r->state, d->rel, &slot->mark, why);
  if (d->rc == NOT_STARTED || interrupted(d->rc)) {
    *(d->rc == NOT_STARTED ? &r->t.not_started : &r->t.interrupted) += 1;
    return;
  }
  r->t.done++;
  /* A document that failed has no output: no unit of it translated. */
  struct xmt_filter_stats held = d->stats;
  if (d->rc != EXIT_OK && d->rc != EXIT_PARTIAL) {
    held.translated_units = 0;
    held.skipped_units = held.units;
  }
  add_stats(&r->t.s, &held);
  if (d->rc == EXIT_PARTIAL)
    r->t.partial++;
  else if (d->rc != EXIT_OK)
    r->t.failed++;
  progress(&r->t, d, r->t0, r->tty, r->a->s.quiet);
}

/* After a signal, the workers have a few seconds to answer; those that do
 * not are killed, their documents interrupted (and not written: a worker
 * writes its output before it answers, so it had not). */
static void kill_late(struct run *r) {
  for (size_t k = 0; k < r->a->jobs; k++) {
    struct slot *slot = &r->slots[k];
    if (!slot->busy)
      continue;
    xmt_cli_batch_end_worker(slot, SIGKILL, NULL);
    struct doc *d = &r->b->docs[slot->doc];
    d->done = 1;
    d->rc = 128 + xmt_cli_batch_stopped();
    count(r, slot);
  }
}

/* Waits for a result and takes in every one there is. */
static int wait_results(struct run *r) {
  nfds_t np = 0;
  for (size_t k = 0; k < r->a->jobs; k++)
    if (r->slots[k].busy) {
      r->pfd[np].fd = r->slots[k].from;
      r->pfd[np].events = POLLIN;
      r->pfd[np++].revents = 0;
    }
  int stopped = xmt_cli_batch_stopped() != 0;
  int got = poll(r->pfd, np, stopped ? 5000 : -1);
  if (got < 0)
    return errno == EINTR ? EXIT_OK : EXIT_INTERNAL;
  if (got == 0 && stopped) {
    kill_late(r);
    return EXIT_OK;
  }
  for (size_t k = 0, i = 0; k < r->a->jobs; k++) {
    if (!r->slots[k].busy)
      continue;
    if (r->pfd[i++].revents != 0) {
      finish(r->b, &r->slots[k]);
      count(r, &r->slots[k]);
    }
  }
  return EXIT_OK;
}

/* Runs the documents on the workers; r->t gets the totals. */
static int run_documents(struct run *r) {
  r->t.docs = r->b->n;
  r->tty = isatty(STDERR_FILENO);
  r->t0 = now_s();
  r->slots = calloc(r->a->jobs, sizeof *r->slots);
  r->pfd = calloc(r->a->jobs, sizeof *r->pfd);
  int rc = r->slots == NULL || r->pfd == NULL ? EXIT_INTERNAL : EXIT_OK;
  for (size_t k = 0; r->slots != NULL && k < r->a->jobs; k++)
    r->slots[k].mark.fd = -1;
  xmt_cli_batch_signals_begin(r->slots, r->slots != NULL ? r->a->jobs : 0);
  while (rc == EXIT_OK && (r->next < r->b->n || r->running > 0)) {
    rc = hand_out(r);
    if (rc == EXIT_OK && r->running == 0)
      break;
    if (rc == EXIT_OK)
      rc = wait_results(r);
  }
  /* Whatever stopped the loop, no worker is left behind: idle ones leave
   * when their pipe closes, busy ones (after an error) are stopped. */
  for (size_t k = 0; r->slots != NULL && k < r->a->jobs; k++) {
    struct slot *slot = &r->slots[k];
    if (slot->pid != 0)
      xmt_cli_batch_end_worker(slot, slot->busy ? SIGTERM : 0, NULL);
    if (slot->mark.fd >= 0)
      xmt_cli_batch_state_end(r->state, r->b->docs[slot->doc].rel, &slot->mark,
                              "interrupted\n");
  }
  xmt_cli_batch_signals_end();
  free(r->pfd);
  free(r->slots);
  if (xmt_cli_batch_state_prune(r->state) != 0) {
    xmt_cli_say("xliffmt: %s: cannot read: %s\n", r->state->root,
                strerror(errno));
    rc = EXIT_INTERNAL;
  }
  r->t.not_started += r->b->n - r->next; /* never handed out */
  return rc;
}

/* The summary line, the report and the exit status. */
static int conclude(struct run *r, int rc) {
  const struct totals *t = &r->t;
  double seconds = now_s() - r->t0;
  if (!r->a->s.quiet && r->tty)
    fputc('\n', stderr);
  if (!r->a->s.quiet && r->a->share_n != 0)
    xmt_cli_say("xliffmt: batch: share %lu/%lu, %zu of %zu documents\n",
                r->a->share_k, r->a->share_n, r->b->n, r->b->listed);
  if (!r->a->s.quiet)
    xmt_cli_say(
        "xliffmt: batch: %zu documents, %zu translated, %zu up to date, "
        "%zu with untranslated segments, %zu failed, %zu interrupted, "
        "%zu not started; %zu segments sent in %.2f s\n",
        t->docs, t->done - t->failed - t->partial, t->skipped, t->partial,
        t->failed, t->interrupted, t->not_started, t->s.segments, seconds);
  if (r->a->s.report != NULL &&
      !write_batch_report(r->a->s.report, r->b, t, seconds) && rc == EXIT_OK)
    rc = EXIT_BAD_INPUT;
  /* as a shell reports a process its signal ended: 130, 143 */
  if (xmt_cli_batch_stopped())
    return 128 + xmt_cli_batch_stopped();
  if (rc != EXIT_OK)
    return rc;
  return t->failed > 0    ? EXIT_BAD_INPUT
         : t->partial > 0 ? EXIT_PARTIAL
                          : EXIT_OK;
}

int xmt_cli_batch(int argc, char **argv) {
  struct batch_args a;
  int rc = parse(argc, argv, &a);
  const char *spec;
  const struct xmt_backend *backend =
      rc < 0 ? xmt_cli_backend(&a.s, &spec) : NULL;
  if (backend == NULL) {
    xmt_cli_batch_settings_free(&a.settings);
    return rc >= 0 ? rc : EXIT_BAD_INPUT;
  }
  struct batch b;
  memset(&b, 0, sizeof b);
  b.outdir = a.s.out;
  b.backend = backend;
  b.spec = spec;
  b.reports = a.s.report != NULL;
  b.fresh_engine = a.fresh_engine;
  struct xmt_cli_batch_state state;
  rc = collect(&b, argc, argv);
  if (rc == EXIT_OK) {
    keep_share(&b, a.share_k, a.share_n);
    rc = files_check(&b, &a.s);
  }
  rc = prepare(&b, &state, &a.settings, rc);
  xmt_cli_batch_settings_free(&a.settings);
  if (rc != EXIT_OK) {
    xmt_cli_batch_state_free(&state);
    free_batch(&b);
    return rc;
  }
  struct run r;
  memset(&r, 0, sizeof r);
  r.b = &b;
  r.a = &a;
  r.state = &state;
  rc = run_documents(&r);
  xmt_cli_batch_state_free(&state);
  rc = conclude(&r, rc);
  free_batch(&b);
  return rc;
}
