/* cli.h -- the xliffmt command line; uses the public API, and base/ (its
 * buffers, growth, UTF-8, hash and JSON), linked in of its own. */
#ifndef XMT_CLI_H
#define XMT_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "base_private.h" /* shared with the library, not exported */
#include "xliffmt.h"

struct xmt_cli_settings;
struct xmt_cli_command;

/* Exit statuses, documented in xliffmt(1). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_INTERNAL = 2, EXIT_PARTIAL = 3 };

int xmt_cli_translate(int argc, char **argv);
int xmt_cli_batch(int argc, char **argv);
int xmt_cli_check(int argc, char **argv);
int xmt_cli_project(int argc, char **argv);
int xmt_cli_evaluate(int argc, char **argv);
int xmt_cli_segment(int argc, char **argv);
int xmt_cli_align(int argc, char **argv);
/* serve (serve/: serve.c and the serve_*.c rooms, which share serve.h). */
int xmt_cli_serve(int argc, char **argv);
/* report (report.c); xmt_cli_report below prints an error. */
int xmt_cli_report_command(int argc, char **argv);
/* extract and merge of an XLIFF document, in, as s says (offline.c). */
int xmt_cli_extract_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                             const char *in);
int xmt_cli_merge_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                           const char *in);
/* extract and merge: an HTML page (extract.c, merge.c), else the XLIFF
 * forms above. */
int xmt_cli_extract(int argc, char **argv);
int xmt_cli_merge(int argc, char **argv);
/* Which form of extract or merge (cmd) the input in calls for, by its
 * content, as f tells it (f then holds what it read of standard input,
 * for the run on f that follows), *format its format: 1 a document with
 * units (an HTML page, Word, OpenDocument), 0 an XLIFF document; -1
 * after a reported error, also when an option given (in s) does not
 * fit: a document with units takes doc_takes and the options of the
 * flags its format takes (xmt_format_flags), an XLIFF document none of
 * a format's own options but those translate takes of any document. */
int xmt_cli_units_or_segments(xmt_filter *f, const struct xmt_cli_settings *s,
                              const struct xmt_cli_command *cmd, const char *in,
                              const int *doc_takes, size_t ndoc_takes,
                              enum xmt_doc_format *format);

/* A line-oriented input file ("-" is standard input). */
struct xmt_cli_lines {
  const char *path;
  FILE *fp;
  char *line; /* the line last read, without its end of line */
  size_t cap;
  size_t len;
  unsigned long number; /* of the line last read */
};
/* Opens path; on failure reports it on stderr and returns 0. */
int xmt_cli_lines_open(struct xmt_cli_lines *in, const char *path);
void xmt_cli_lines_close(struct xmt_cli_lines *in);
/* Reads the next line: 1, 0 at the end, -1 on a read error or a line
 * that is not UTF-8 text (reported with its line and column). */
int xmt_cli_lines_next(struct xmt_cli_lines *in);

/* Options of the commands that run the pipeline (translate, extract,
 * merge), in long-option codes above 255. */
enum {
  XMT_OPT_OVERWRITE = 256,
  XMT_OPT_ALT_TRANS,
  XMT_OPT_STATE,
  XMT_OPT_QUALIFIER,
  XMT_OPT_MT_OPTION,
  XMT_OPT_TIMEOUT,
  XMT_OPT_BATCH,
  XMT_OPT_TAGS,
  XMT_OPT_ALIGNER,
  XMT_OPT_ALIGN_MODEL,
  XMT_OPT_RULE,
  XMT_OPT_SYMMETRIZE,
  XMT_OPT_SRX,
  XMT_OPT_NO_SEGMENT,
  XMT_OPT_RESEGMENT,
  XMT_OPT_REPORT,
  XMT_OPT_TRANSLATIONS,
  XMT_OPT_ALIGNMENTS,
  XMT_OPT_SOURCE_TOKENS,
  XMT_OPT_TARGET_TOKENS,
  XMT_OPT_FORMAT,
  XMT_OPT_MODEL,
  XMT_OPT_DICTIONARY,
  XMT_OPT_UPDATE_MODEL,
  XMT_OPT_PROBES,
  XMT_OPT_SEG_SOURCE,
  XMT_OPT_APPROVED,
  XMT_OPT_CACHE,
  XMT_OPT_CACHE_MAX,
  XMT_OPT_KEEP_ENTITIES,
  XMT_OPT_ENGINE_JOBS,
  XMT_OPT_KEEP_GOING,
  XMT_OPT_MAX_ANSWER,
  XMT_OPT_ENCODING_ERRORS,
  XMT_OPT_SKIP_PRE,
  XMT_OPT_SKIP_CODE,
  XMT_OPT_NO_ICU,
  XMT_OPT_STRICT
};

/* One option of a command: getopt_long's table and --help both come from
 * these. */
struct xmt_cli_option {
  const char *name;  /* long name, without "--" */
  int code;          /* the short option's letter, or an XMT_OPT_* code */
  const char *value; /* what it takes, for --help ("FILE"); NULL: none */
  const char *help;  /* lines ('\n' between them) */
};
/* A command: its usage (text before the options, ending with an empty
 * line), its option groups (NULL-terminated; each group ends with a NULL
 * name; -h, --help, which every command has, follows them unasked) and
 * text after the options (or NULL). */
struct xmt_cli_command {
  const char *name; /* "translate ", for messages */
  const char *usage;
  const struct xmt_cli_option *const *groups;
  void (*more)(FILE *fp); /* prints more after the options, or NULL */
  const char *after;
};
/* The option groups of a command, for its struct xmt_cli_command:
 * XMT_CLI_GROUPS(its_options, xmt_cli_tail_options). */
#define XMT_CLI_GROUPS(...)                                                    \
  ((const struct xmt_cli_option *const[]){__VA_ARGS__, NULL})
/* The groups the commands that run the pipeline share: -o; -s -t; the
 * engine's; the aligner's, projector's and writer's; --report; -q. */
extern const struct xmt_cli_option xmt_cli_output_option[];
extern const struct xmt_cli_option xmt_cli_lang_options[];
/* -s -t of the commands that read a page as the XLIFF extract writes. */
extern const struct xmt_cli_option xmt_cli_page_lang_options[];
extern const struct xmt_cli_option xmt_cli_mt_options[];
extern const struct xmt_cli_option xmt_cli_run_options[];
extern const struct xmt_cli_option xmt_cli_report_option[];
extern const struct xmt_cli_option xmt_cli_tail_options[];

/* The MT backends --mt takes, from the library's registry, one a line
 * ("  apertium:PAIR     Apertium, ..."), under a heading. */
void xmt_cli_backends_help(FILE *fp);
/* Prints cmd's usage, options and the text after them. */
void xmt_cli_help(FILE *fp, const struct xmt_cli_command *cmd);
/* The option of cmd with that code, or NULL. */
const struct xmt_cli_option *
xmt_cli_find_option(const struct xmt_cli_command *cmd, int code);
/* Parses argv with getopt_long, once, by cmd's options (abbreviations
 * as getopt takes them; options and operands in any order): -h prints
 * the help, each other option goes to take (0: a usage error it
 * reported). Returns -1 to go on (the operands from optind on), else the
 * exit status. */
int xmt_cli_parse(const struct xmt_cli_command *cmd, int argc, char **argv,
                  int (*take)(void *user, int code, const char *arg),
                  void *user);
/* An option kept as given: its argument into the const char * member at
 * offset of the struct a command parses into, or, for a flag, 1 into the
 * int member there. XMT_CLI_STRING and XMT_CLI_FLAG make them. */
struct xmt_cli_store {
  int code;
  size_t offset;
  int flag;
};
#define XMT_CLI_STRING(code, type, member)                                     \
  { code, offsetof(type, member), 0 }
#define XMT_CLI_FLAG(code, type, member)                                       \
  { code, offsetof(type, member), 1 }
/* Keeps option c (argument arg) in user when stores, n of them, lists it:
 * 1; else 0, user untouched. */
int xmt_cli_store(const struct xmt_cli_store *stores, size_t n, void *user,
                  int c, const char *arg);
/* 1 when there are want operands from optind; else reports what is
 * missing (none: missing; too many: for want 1, "exactly one input file
 * expected", else missing) and returns 0. */
int xmt_cli_operands(const struct xmt_cli_command *cmd, int argc, int want,
                     const char *missing);

struct xmt_cli_settings {
  const char *out, *src, *tgt, *mt;
  const char *state, *qualifier;
  unsigned flags, timeout_ms;
  const char *mt_options[32];
  size_t nmt_options;
  size_t batch;
  size_t engine_jobs;
  size_t max_answer; /* --max-answer-size; 0: the library's default */
  enum xmt_tag_mode tags;
  enum xmt_aligner_mode aligner;
  const char *align_model;
  enum xmt_align_model align_kind;
  const char *dicts[16];
  size_t ndicts;
  enum xmt_projection_rule rule;
  enum xmt_symmetrization sym;
  enum xmt_probes probes;
  const char *srx;
  enum xmt_segmentation segmentation;
  const char *report;
  const char *cache; /* --cache URI */
  size_t cache_max;
  int quiet;
  const char *command; /* "translate " etc., for usage messages */
  /* merge */
  const char *translations, *alignments, *source_tokens, *target_tokens;
  enum xmt_segments_format format; /* extract */
  int seen[64];                    /* the options given, in order */
  size_t nseen;
};

void xmt_cli_settings_init(struct xmt_cli_settings *s);
/* Takes one option into s; 0 on a usage error (reported). */
int xmt_cli_take_option(struct xmt_cli_settings *s, int c, const char *arg);
/* s for cmd from argv (the defaults, then the options), and, unless
 * operands is 0, that many operands ("missing input file"): as
 * xmt_cli_parse, -1 to go on, else the exit status. */
int xmt_cli_settings_parse(struct xmt_cli_settings *s,
                           const struct xmt_cli_command *cmd, int argc,
                           char **argv, int operands);
/* 1, reported, when an option given (s->seen) is not one of codes
 * (allowed 1) or is one of them (allowed 0): "--NAME does not apply to
 * WHAT". */
int xmt_cli_refuse_options(const struct xmt_cli_settings *s,
                           const struct xmt_cli_command *cmd, const int *codes,
                           size_t ncodes, int allowed, const char *what);
/* A new filter; NULL after saying that memory ran out. */
xmt_filter *xmt_cli_filter_new(void);
/* Applies s to a filter. */
xmt_status xmt_cli_configure(xmt_filter *f, const struct xmt_cli_settings *s,
                             const struct xmt_backend *backend,
                             const char *spec);

/* The backend --mt names, and its spec (the part after the colon, or
 * NULL) in *spec; NULL after a usage error (no --mt, an unknown name). */
const struct xmt_backend *xmt_cli_backend(const struct xmt_cli_settings *s,
                                          const char **spec);
/* Translates one document as `xliffmt translate` does (s->out, s->report,
 * s->quiet); returns the exit status and, when stats is not NULL, the
 * run's counters. configured: a filter the caller configured from s and
 * keeps (a batch worker's, whose engine lives from one document to the
 * next), or NULL for one of the call's own. */
int xmt_cli_translate_one(const struct xmt_cli_settings *s,
                          const struct xmt_backend *backend, const char *spec,
                          xmt_filter *configured, const char *in,
                          struct xmt_filter_stats *stats);

/* Progress, failed segments, summary and report of a run (session.c). */
/* Segments left untranslated, for stderr and the report. */
struct xmt_cli_failure {
  char *id;
  unsigned long line;
  char *message;
};

struct xmt_cli_session {
  const char *in;
  int progress; /* draw progress on stderr */
  struct timespec start;
  double last_draw;
  struct xmt_cli_failure *failures;
  size_t nfailures, cap;
  struct xmt_cli_failure *warnings; /* segments translated with a warning */
  size_t nwarnings, warnings_cap;
  int nomem;
  struct sigaction old_int, old_term;
};

/* Installs the filter's callbacks and the Ctrl-C handler. */
void xmt_cli_session_begin(struct xmt_cli_session *ses, xmt_filter *f,
                           const char *in, int quiet);
/* Reports how the run went (engine names the MT used); returns the exit
 * status (130 after Ctrl-C). */
int xmt_cli_session_end(struct xmt_cli_session *ses, xmt_filter *f,
                        xmt_status st, const struct xmt_cli_settings *s,
                        const char *engine);

/* dir '/' name, one '/' between them; NULL when out of memory. Freed by
 * the caller. */
char *xmt_cli_join(const char *dir, const char *name);

/* The documents of a batch output tree whose output is not whole
 * (batch_state.c): a marker file each under OUTDIR/.xliffmt-incomplete.d,
 * shared safely by batches that run at once. */
struct xmt_cli_batch_state {
  char *root; /* OUTDIR/.xliffmt-incomplete.d */
  const char *outdir;
};
/* A document's marker while a batch works on it: held (a shared lock),
 * and its size then. */
struct xmt_cli_batch_mark {
  int fd; /* -1: none */
  off_t size;
};
/* Creates the marker directory, turns an earlier version's list into
 * markers, removes the markers of documents without output. -1, reported,
 * on an error. */
int xmt_cli_batch_state_open(struct xmt_cli_batch_state *st,
                             const char *outdir);
/* 1 when rel has a marker (or it cannot be told). */
int xmt_cli_batch_state_has(const struct xmt_cli_batch_state *st,
                            const char *rel);
/* Lists rel before its document is begun, and holds the marker. -1,
 * reported, when it cannot be written. */
int xmt_cli_batch_state_begin(const struct xmt_cli_batch_state *st,
                              const char *rel, struct xmt_cli_batch_mark *m);
/* Lets go of rel's marker: why NULL, the document is whole and the marker
 * goes (unless another batch holds it or left it incomplete meanwhile);
 * else why, a line, is added to it and it stays. */
void xmt_cli_batch_state_end(const struct xmt_cli_batch_state *st,
                             const char *rel, struct xmt_cli_batch_mark *m,
                             const char *why);
/* Removes the markers of documents without output that no batch holds. */
int xmt_cli_batch_state_prune(const struct xmt_cli_batch_state *st);
void xmt_cli_batch_state_free(struct xmt_cli_batch_state *st);
/* Creates the directories of path's parents; -1, reported, on failure. */
int xmt_cli_make_parents(const char *path);

/* An output file written through the library's atomic output file (put in
 * place at commit), or standard output, a device or a pipe kept in memory
 * until commit: a failed run shows nothing. */
struct xmt_cli_output {
  FILE *fp;              /* write here */
  xmt_atomic_file *file; /* NULL for standard output, a device or a pipe */
  char *device; /* a device or a pipe the output is copied to at the end */
  char *mem;
  size_t mem_len;
};
/* The files of a command (files.c): each file it reads or writes, named
 * before any work; no file it writes may be one it reads or another it
 * writes (by device and inode, or, for a file not made yet, by its
 * folder's canonical name and its own). "-", devices, pipes and folders
 * are never one. */
enum xmt_cli_file_use {
  XMT_CLI_READS,   /* read only */
  XMT_CLI_WRITES,  /* made or replaced */
  XMT_CLI_UPDATES, /* read, then written: a cache, a model updated */
  /* the same, in folders the command makes when they are missing (a
   * batch's outputs) */
  XMT_CLI_WRITES_UNDER,
  XMT_CLI_UPDATES_UNDER
};
struct xmt_cli_file;
struct xmt_cli_files {
  struct xmt_cli_file *v;
  size_t n, cap;
  int nomem;
};
void xmt_cli_files_init(struct xmt_cli_files *fs);
void xmt_cli_files_free(struct xmt_cli_files *fs);
/* Names path (copied; NULL or "-": nothing), given by option ("--report",
 * "-o"; the message of an output refused names it), as what ("the
 * input"), of whom when of is not NULL ("the output of IN"). */
void xmt_cli_files_add(struct xmt_cli_files *fs, enum xmt_cli_file_use use,
                       const char *path, const char *option, const char *what,
                       const char *of);
/* Names the document a command writes: -o path, or, NULL or "-",
 * standard output, which may be a file ("xliffmt translate a.xlf
 * >>a.xlf": "xliffmt: a.xlf: standard output is the input: it would be
 * overwritten"). */
void xmt_cli_files_add_output(struct xmt_cli_files *fs, const char *path);
/* EXIT_OK, or, reported ("xliffmt: PATH: --report names the input: it
 * would be overwritten"), EXIT_BAD_INPUT when an output (the one named
 * last) is a file named before it, EXIT_INTERNAL when out of memory.
 * Then each file written, in the order named, must be one that can be
 * made: not a folder, in a folder that exists (or, _UNDER, that can be
 * made) and may be written. Else, reported ("xliffmt: PATH: cannot
 * create output: REASON", "DIR: cannot create the directory: REASON";
 * a --cache's "PATH: cache: cannot open: REASON", EXIT_BAD_INPUT as
 * for any cache that cannot be opened), EXIT_INTERNAL: output that
 * cannot be written, found before any work. */
int xmt_cli_files_check(struct xmt_cli_files *fs);
/* The files a run of the pipeline reads and writes as s says: in, the
 * rules, dictionaries, translations, alignments, tokens, aligner model
 * (written with --update-model), SQLite cache (written), out (standard
 * output when NULL, unless in is NULL too: a batch's) and the report. */
void xmt_cli_files_add_run(struct xmt_cli_files *fs,
                           const struct xmt_cli_settings *s, const char *in,
                           const char *out);
/* xmt_cli_files_check of the files of a run: in and s->out. */
int xmt_cli_run_files_check(const struct xmt_cli_settings *s, const char *in);
/* path NULL or "-" is standard output. Reports failures; returns an exit
 * status. */
int xmt_cli_output_open(struct xmt_cli_output *out, const char *path);
int xmt_cli_output_commit(struct xmt_cli_output *out);
/* Drops what was written; safe after commit and on a zeroed output. */
void xmt_cli_output_abort(struct xmt_cli_output *out);

/* One warning line when n bytes of page were not UTF-8 and read as
 * U+FFFD (--encoding-errors=replace); nothing when n is 0. */
void xmt_cli_warn_invalid_bytes(const char *page, size_t n);

/* Writes s as a JSON string (NULL as ""). */
void xmt_cli_json_string(FILE *fp, const char *s);

/* Prints "xliffmt: FILE:LINE:COLUMN: MESSAGE (unit ID)" on stderr. */
void xmt_cli_report(const struct xmt_error *err);
/* Prints a message on standard error in one write, made safe for a
 * terminal: control characters (C0 but the final newline, DEL, C1) and
 * bytes that are not UTF-8 shown as \xHH. Every human message goes
 * through it (or the two below); machine output (JSON, extract's files)
 * is escaped by its own format. */
void xmt_cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same on standard output: check's text. */
void xmt_cli_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A progress line drawn over the last one: "\r", then the message made
 * safe as xmt_cli_say makes it; flushed. */
void xmt_cli_progress(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* Prints "xliffmt: MESSAGE" on stderr. */
void xmt_cli_usage_error(const char *command, const char *message);
/* The exit status for a failed library call. */
int xmt_cli_exit_status(xmt_status status);

/* The aligner model commands train unless told otherwise (--model). */
#define XMT_CLI_DEFAULT_ALIGN_MODEL XMT_MODEL_BAYES
/* --encoding-errors: "fail" clears and "replace" sets
 * XMT_FILTER_HTML_REPLACE_INVALID in *flags; -1 for anything else. */
/* A number of bytes, with K, M or G for KiB, MiB, GiB, into *bytes: 1, or
 * 0 when arg is not one (or is 0). */
int xmt_cli_parse_size(const char *arg, size_t *bytes);
int xmt_cli_parse_encoding_errors(const char *arg, unsigned *flags);
/* Sets the aligner's languages and dictionaries (no --dictionary: "auto"
 * when both languages are known). */
xmt_status xmt_cli_aligner_priors(xmt_aligner *aligner, const char *source,
                                  const char *target, const char *const *dicts,
                                  size_t ndicts);

#endif
