/* pipeline_private.h -- what the rooms of the translate pipeline share:
 * the run, its two windows, their jobs and results, and the functions one
 * room calls in another. Not installed.
 *
 * The rooms, one job each (README says what each may include):
 *   run.c          the run's life cycle: xmt_pipeline_run, set-up, tear-down
 *   units.c        reader callbacks: skeleton bytes and units into windows,
 *                  a window's life cycle
 *   requests.c     a window's jobs, their MT requests, the dedup index
 *   tm.c           answers from earlier windows and the translation memory
 *   lanes.c        engine lanes: batches sent, engine failures counted
 *   answers.c      answers checked and cleaned, plain answers kept
 *   aligner.c      the built-in aligner's life cycle and a window's links
 *   align_cache.c  links of a one-window document kept in the cache
 *   schedule.c     which thread places a window, and when
 *   readthread.c   the reader's thread: windows handed over both ways
 *   placing.c      tags placed in the answers, the window written out,
 *                  its counts and failures made the run's
 *   probe_plan.c   probes planned and asked for as requests
 *   probe_anchor.c probe translations found and made anchors
 *   extract.c      extract output: requests, not the document
 *   engines.c      backend states kept between runs
 *   tools.c        a stage's scratch space, its fields its own
 *
 * Threads: the reader's thread reads an XLIFF document (units.c,
 * readthread.c), the main thread asks and collects (requests.c to
 * answers.c); a worker aligns, places and writes the window before
 * (aligner.c, align_cache.c apply/keep, placing.c); with --engine-jobs,
 * lane threads send batches (lanes.c). */
#ifndef XMT_PIPELINE_PRIVATE_H
#define XMT_PIPELINE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "pipeline_private.h is internal to libxliffmt"
#endif

#include <pthread.h>

#include "filter_private.h"

/* Defaults: segments per backend call, and segments per window. A window
 * is what the pipeline holds at once: its units, their translations, and
 * the corpus the built-in aligner trains on. */
#define DEFAULT_BATCH 64
#define DEFAULT_WINDOW 4096
#define IDENTITY_WINDOW 256
/* The table of translations kept across windows is dropped past this. */
#define MEMO_MAX_BYTES (8u << 20)

/* Queued output: skeleton bytes or a unit, kept in order while the units
 * before them wait for their translations. */
struct item {
  xmt_xliff_unit *unit; /* NULL: bytes */
  char *key;            /* its key (xmt_unit_keys) when not its id */
  unsigned long file;   /* the <file> it is in (run->files then) */
  size_t bytes, len;    /* in w->skeleton */
  size_t failed;        /* segments of the unit not translated */
};

/* One segment of the window that wants a translation: made by
 * requests.c, read by units.c (its unit) and placing.c; other rooms ask
 * requests.c (xmt_job_result, xmt_job_core). */
struct job {
  size_t item, seg;
  size_t lead, core_len;       /* the core of its plain text */
  size_t result;               /* NO_RESULT: nothing to translate, copied */
  size_t first_probe, nprobes; /* its probes in w->probes */
  size_t standin;              /* its stand-in request, or NO_RESULT */
};
#define NO_RESULT SIZE_MAX

/* One distinct request of the window, answered by the backend or by the
 * translations of earlier windows. Its fields are three rooms': the
 * request's requests.c's, the answer's answers.c's, the links'
 * aligner.c's; other rooms ask them (xmt_result_*, xmt_answer_*). */
struct result {
  size_t request, request_len; /* MT input, in w->arena */
  uint64_t request_hash;       /* its xmt_memo_hash */
  size_t plain, plain_len;     /* the core's plain text, in w->arena */
  size_t answer, answer_len;   /* plain answer (tags removed), in ->plain */
  size_t first_job;            /* for messages */
  int cached;
  int needs_links;       /* some job projects onto this answer */
  xmt_alignment *links;  /* the aligner's, or NULL */
  int backend_links_bad; /* the engine's alignment did not check out */
  int probe;             /* asked only by probes */
  int asked_by_probe;    /* a probe asked first (its cache key says so) */
  int claimed;           /* a segment asked it after a probe did */
  int unchanged;         /* the answer is the plain text it translates */
};

struct run;

/* One backend state and its batch: the engine as one thread uses it. */
struct lane {
  struct run *run;
  void *state; /* the backend's */
  struct xmt_mt_request *requests;
  xmt_mt_response **response_ptrs;
  struct xmt_buf ids; /* of the requests of a batch */
  size_t cap, ptrs_cap;
  pthread_t thread;
};

/* A segment the placing stage left without a translation, told to the
 * caller once the stage is done (callbacks come from the caller's
 * thread only). */
struct failure_note {
  size_t id, message; /* in window->notes */
  unsigned long line;
};

/* A document of one window aligned before with the same cache: its
 * links, by result, from the cache (hit) or for it (fresh). */
struct align_cache_use {
  int wanted, hit, fresh;
  char key[33];
  struct xmt_buf links;
};

/* A window: what the pipeline holds at once, its units and skeleton
 * bytes, their requests and answers. The main thread reads and translates
 * one window while a worker thread aligns, places and writes the one
 * before, so that the engine, the parser and the aligner work at once.
 * Its fields are three rooms': its life cycle and items units.c's, its
 * jobs, requests, answers and probes requests.c's, what placing made of
 * it placing.c's; other rooms ask them (xmt_window_*). */
struct window {
  struct item *items;
  size_t nitems, items_cap;
  size_t queued_segments;
  size_t keyed; /* items given their keys (xmt_window_keys) */
  struct job *jobs;
  size_t njobs, jobs_cap;
  struct result *results;
  struct xmt_mt_response *responses; /* one per result */
  size_t nresults, results_cap, responses_cap;
  struct xmt_buf skeleton;    /* the window's skeleton bytes */
  struct xmt_buf arena;       /* requests and plain cores of the window */
  struct xmt_buf plain;       /* plain answers */
  struct xmt_buf probe_plain; /* those of results only probes asked */
  int probes_answered;        /* under run->probes_lock */
  int probes_failed;          /* the run failed asking them */
  struct xmt_probe *probes;   /* of the window's jobs */
  size_t *probe_results;      /* the result of each; NO_RESULT: literal */
  size_t nprobes, probes_cap, probe_results_cap;
  /* What placing counted, failed and left untranslated: the run's own
   * once the main thread takes the window back. */
  struct xmt_filter_stats stats;
  size_t unskipped_units; /* counted in skipped_units, then translated */
  struct xmt_error_store err;
  int failed;
  struct failure_note *notes_at;
  size_t nnotes, notes_cap;
  struct xmt_buf notes;
  /* The run stopped asking the engine while asking this window's
   * requests: the segments the engine failed are not told one by one. */
  int engine_stopped;
  struct align_cache_use align_cache;
};

/* Scratch space of one stage: each thread has its own (tools.c). */
struct stage_tools;

/* The engine as the run uses it: lanes.c's and engines.c's, set up and
 * torn down by run.c. */
/* The engine's settings, copied from the filter when the run is set up,
 * or before any run for xmt_filter_start_engines (run.c): lanes.c and
 * engines.c read them, not the filter. */
struct engine_settings {
  /* the filter's backend (a merge's run answers with its own) */
  const struct xmt_backend *backend;
  void *backend_user;
  const char *spec;
  const char *const *options; /* "key=value", NULL-terminated, or NULL */
  /* what the backend's states are opened with */
  const char *source_language, *target_language;
  unsigned timeout_ms;
  size_t max_answer; /* XMT_DEFAULT_MAX_ANSWER unless set */
  const int *interrupted;
  size_t batch;   /* requests per batch */
  size_t jobs;    /* lanes at most (--engine-jobs) */
  int keep_going; /* an engine that keeps failing is still asked */
  xmt_filter_progress_fn progress; /* NULL: none */
  void *progress_user;
  /* XMT_FILTER_KEEP_ENGINES: the states are kept in the filter's *kept
   * (*nkept of them) for the next run */
  int keep;
  void ***kept;
  size_t *nkept;
  /* the filter's configuration of its states: kept states may hold on
   * to it */
  struct xmt_backend_config *config;
  struct xmt_error_store *err; /* the filter's */
};
/* Copies the filter's settings of the engine into s. */
void xmt_engine_settings(xmt_filter *f, struct engine_settings *s);

struct engine {
  struct engine_settings settings;
  /* the filter's, or the merge's offline answers */
  const struct xmt_backend *backend;
  void *backend_user;
  const char *backend_spec;
  const struct xmt_backend_config *config;
  /* lanes[0] holds the state opened for the run; with --engine-jobs, the
   * others are opened when a window first needs them. */
  struct lane *lanes;
  size_t nlanes, lanes_cap;
  size_t *pending; /* results to send this window */
  size_t pending_cap;
  size_t npending, nbatches;
  size_t lanes_running;       /* this window's */
  int lanes_stop;             /* set by a lane that failed */
  pthread_mutex_t lanes_lock; /* stats, progress, errors, engine failures */
  /* Batches in a row the engine itself failed (no segment translated,
   * xmt_mt_response_set_engine_error): at XMT_ENGINE_FAILURES the run
   * stops asking it, and engine_stop says why. Per run: a kept engine
   * carries no count from one document to the next. */
  unsigned engine_failures;
  int engine_stopped;
  char engine_stop[640];
};

/* The cache's settings, copied from the filter when the run is set up
 * (run.c): tm.c reads them, not the filter. */
struct tm_settings {
  const char *uri; /* NULL: no cache */
  size_t max_entries;
  /* the backend's options: the engine part of the cache's keys */
  const char *const *options;
  size_t noptions;
  /* where the filter keeps the open cache for the next run */
  struct xmt_cache **kept;
  const int *interrupted;
  struct xmt_error_store *err; /* the filter's */
};

/* The translation memory: tm.c's. */
struct tm_state {
  struct tm_settings settings;
  struct xmt_memo run_memo; /* request -> translation, whole run */
  /* The translation memory cache and the engine part of its keys. */
  struct xmt_cache *cache;
  struct xmt_buf cache_engine;
  struct xmt_error_store cache_err;
};

/* What requests.c keeps from window to window: the request being made,
 * and the window's distinct requests (result numbers plus one by request
 * hash; the keys are the requests in the arena, not copied again). */
struct asks {
  struct xmt_buf request;
  struct xmt_slots index;
};

/* The word aligner, kept from window to window so that each window's
 * training starts from what the earlier ones taught: aligner.c's. Only
 * the placing stage uses it. */
/* The word aligner's settings, copied from the filter when the run is set
 * up (run.c): aligner.c and align_cache.c read them, not the filter. */
struct align_settings {
  enum xmt_aligner_mode mode;
  const char *model; /* its file, or NULL */
  enum xmt_align_model kind;
  const char *const *dicts; /* none given: "auto" */
  size_t ndicts;
  enum xmt_symmetrization symmetrization;
  int update_model; /* XMT_FILTER_UPDATE_MODEL */
  /* XMT_FILTER_KEEP_DICTIONARIES: the dictionaries are loaded into the
   * filter's *lexicon, kept for the next run */
  int keep_dicts;
  xmt_lexicon **lexicon;
  struct xmt_error_store *err; /* the filter's */
};

struct align_state {
  struct align_settings settings;
  xmt_aligner *aligner;
  size_t pairs; /* trained on in this run */
};

/* The reader on a thread of its own (readthread.c's fields): the windows
 * it filled, in order, and those it may fill again. */
#define RTHREAD_WINDOWS 3
struct rthread {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  struct window *ready[RTHREAD_WINDOWS]; /* filled, for the main thread */
  int finish[RTHREAD_WINDOWS]; /* its placing is finished before the next */
  size_t nready;
  struct window *spare[RTHREAD_WINDOWS]; /* for the reader to fill */
  size_t nspare;
  int busy;       /* the main thread drains a window */
  int done;       /* the reader returned, with st */
  int stop;       /* the main thread failed: the reader stops */
  size_t windows; /* windows the main thread took */
  xmt_status st;
};

/* The segments extract writes, or merge asks for (extract.c): their
 * lines until the header that opens them is known, and what it says. */
struct segments_out {
  FILE *lines; /* a temporary file: a document's lines may not fit memory */
  struct xmt_segments_mark mark;
};

/* The run holds the stages: its fields are run.c's, units.c's (the
 * reader's side) and schedule.c's (the windows' hand-over); the other
 * rooms ask run.c (xmt_run_*) for their stage's state and the few values
 * they need. */
struct run {
  xmt_filter *filter;
  enum xmt_pipeline_mode mode;
  xmt_xliff_writer *writer; /* an XLIFF document's; NULL for a format's */
  xmt_xliff_reader *reader;
  const char *in_path;
  /* The document's format and the open document (XLIFF: NULL, NULL) */
  const struct xmt_format *format;
  void *doc;
  const char *input; /* an XLIFF document in memory, or NULL */
  size_t input_len;
  struct engine engine;
  struct xmt_xliff_target_options options;
  char *source_language; /* of the current <file> */
  char *target_language;
  /* A third window when the reader has a thread: one filled, one
   * translated, one placed. */
  struct window windows[RTHREAD_WINDOWS];
  struct window *fill;    /* the one being translated (or filled) */
  struct window *reading; /* the one the reader fills */
  int threaded;           /* the reader runs on rt's thread */
  int reader_owns;        /* ... and the main thread waits for it */
  struct rthread rt;
  struct window *placing; /* handed to the worker, NULL: none */
  struct window *asking;  /* whose requests go to the engine */
  int asking_probes;      /* its probes' (1) or its segments' (0) */
  /* The engine answers a window's probes while the worker aligns it:
   * placing waits for them. */
  pthread_mutex_t probes_lock;
  pthread_cond_t probes_cond;
  pthread_t worker;
  int worker_started; /* else the window was placed in the main thread */
  struct asks asks;
  struct tm_state tm;
  int probing;            /* probes are sent */
  struct stage_tools *tt; /* the main thread's: requests and answers */
  struct stage_tools *pt; /* the placing stage's */
  int failed;             /* the filter's own error is set */
  /* The filter's, given to the stages as they are: the tag mode, the
   * projection rule, and the counts they add to. */
  enum xmt_tag_mode tag_mode;
  enum xmt_projection_rule rule;
  struct xmt_filter_stats *stats;
  /* The filter's settings the reader's side reads: the languages given
   * (NULL: the document's), the segmenter (NULL: none), whether it
   * segments again, the segments of a window. */
  const char *given_source, *given_target;
  xmt_segmenter *segmenter;
  int resegment;
  int icu_only; /* the segmenter cuts ICU messages, not sentences */
  size_t window;
  struct align_state align;
  /* Extract writes the requests here, not the document. */
  struct xmt_output *extract;
  struct segments_out segments; /* extract.c's */
  struct xmt_unit_keys unit_keys;
  unsigned long files;        /* <file> elements begun */
  int reading_done;           /* the window being drained is the last */
  size_t windows_handed;      /* to the placing stage */
  int placed_unit_translated; /* see xmt_run_placed_unit */
};

/* --- extract.c: the segments' header ---------------------------------- */
/* The window's segments (those extract writes a line for) added to the
 * run's mark: their count, a digest of their ids, texts and source
 * language, the languages of the first. */
xmt_status xmt_segments_mark_window(struct run *run, struct window *w);
/* Extract's output: the header line, then the segments' lines. */
xmt_status xmt_extract_finish(struct run *run);
/* Merge: the header of the translations file against the run's mark;
 * an error at its line when it was written for another document, version
 * or language pair. */
xmt_status xmt_merge_check_mark(struct run *run, const xmt_offline *o);
void xmt_segments_mark_free(struct run *run);

/* --- run.c: the stages' state and the values they need ----------------- */
/* Identical requests are sent once and answers are remembered, except in
 * the offline workflow, where extract and merge keep them apart (by id). */
int xmt_run_dedupes(const struct run *run);
xmt_filter *xmt_run_filter(const struct run *run);
enum xmt_pipeline_mode xmt_run_mode(const struct run *run);
/* The filter's tag mode, and the counts the stages add to (the
 * filter's). */
enum xmt_tag_mode xmt_run_tag_mode(const struct run *run);
enum xmt_projection_rule xmt_run_rule(const struct run *run);
struct xmt_filter_stats *xmt_run_stats(const struct run *run);
/* The window the reader fills; the one whose requests go to the engine
 * (*probes: its probes' or its segments'), set by lanes.c. */
struct window *xmt_run_fill(const struct run *run);
struct window *xmt_run_asking(const struct run *run, int *probes);
void xmt_run_set_asking(struct run *run, struct window *w, int probes);
/* Scratch space: the main thread's (requests and answers), the placing
 * stage's. */
struct stage_tools *xmt_run_tools(const struct run *run);
struct stage_tools *xmt_run_place_tools(const struct run *run);
/* The placing stage's: whether the document unit it writes got a target
 * from any of the units made of it (an XLIFF 2 unit of several), which
 * one window may have begun and the next go on with. */
int *xmt_run_placed_unit(struct run *run);
/* The languages of the current <file> (NULL: none). */
const char *xmt_run_source_language(const struct run *run);
const char *xmt_run_target_language(const struct run *run);
const struct xmt_xliff_target_options *xmt_run_options(const struct run *run);
/* Extract's output (NULL: the run writes the document). */
struct xmt_output *xmt_run_extract(const struct run *run);
/* The segments' lines and header (extract.c). */
struct segments_out *xmt_run_segments(struct run *run);
/* 1 when the segments' header is made: extract writes it, merge checks
 * its translations file against it; translate needs none. */
int xmt_run_marks_segments(const struct run *run);
/* 1 when probes are sent. */
int xmt_run_probing(const struct run *run);
/* 1 when the filter's error is set (xmt_run_fail, xmt_run_fail_with). */
int xmt_run_failed(const struct run *run);
const char *xmt_run_in_path(const struct run *run);
/* 1 when the caller takes warnings; a warning to it (id NULL: of the
 * run, not of a segment). */
int xmt_run_warns(const struct run *run);
void xmt_run_warn(const struct run *run, const char *id, unsigned long line,
                  const char *message);
/* 1 when the caller is told of each segment not translated; telling it
 * (placing.c, when the window comes back). */
int xmt_run_tells_failures(const struct run *run);
void xmt_run_tell_failure(const struct run *run, const char *id,
                          unsigned long line, const char *message);
/* The segmenter (NULL: the run does not segment) and whether it
 * segments units already segmented. */
xmt_segmenter *xmt_run_segmenter(const struct run *run, int *resegment,
                                 int *icu_only);
/* The longest answer the filter allows an engine (XMT_DEFAULT_MAX_ANSWER
 * unless set). */
size_t xmt_run_max_answer(const struct run *run);
/* 1 when the document was read whole into the first window, none handed
 * to the placing stage yet. */
int xmt_run_one_window(const struct run *run);
/* The stages' own state. */
struct engine *xmt_run_engine(struct run *run);
struct tm_state *xmt_run_tm(struct run *run);
struct asks *xmt_run_asks(struct run *run);
struct align_state *xmt_run_align(struct run *run);
/* The placing stage waits for a window's probes under this lock. */
pthread_mutex_t *xmt_run_probes_lock(struct run *run);
pthread_cond_t *xmt_run_probes_cond(struct run *run);
/* A placed unit to the XLIFF writer, or its target (made in scratch) to
 * the format; skeleton bytes to the XLIFF writer. */
xmt_status xmt_run_put_unit(struct run *run, const xmt_xliff_unit *unit,
                            const struct xmt_xliff_target_options *options,
                            xmt_segment *scratch);
xmt_status xmt_run_put_skeleton(struct run *run, const char *bytes, size_t len);

/* --- run.c: failures --------------------------------------------------- */
/* The run's error set (the filter's); returns 1. */
int xmt_run_fail(struct run *run, xmt_status st, unsigned long line,
                 const char *unit_id, const char *message);
int xmt_run_nomem(struct run *run);
/* The same with an error already made (a window's); returns 1. */
int xmt_run_fail_with(struct run *run, const struct xmt_error *e);

/* --- units.c ----------------------------------------------------------- */
extern const struct xmt_xliff_reader_callbacks xmt_units_callbacks;
/* The source segment MT translates: flowed where white space is not
 * significant (xmt_unit_flow). */
const xmt_segment *xmt_job_source(const struct window *w, const struct job *j);
/* The unit of item number item, and the unit of a job's segment: the
 * items are units.c's (placing.c writes them out). */
xmt_xliff_unit *xmt_window_unit(const struct window *w, size_t item);
xmt_xliff_unit *xmt_job_unit(const struct window *w, const struct job *j);
/* Appends the segment id of a job, "KEY#MID" (or KEY for a unit read as
 * one segment), and a NUL; '#' and '%' of KEY are written %23 and %25,
 * so that no two segments have one id. */
xmt_status xmt_job_id(const struct window *w, const struct job *j,
                      struct xmt_buf *out);
/* Gives the window's units not yet keyed their keys; 1 when the run fails. */
int xmt_window_keys(struct run *run, struct window *w);
/* Frees a window's units and empties it for the reader. */
void xmt_window_reset(struct window *w);
/* Frees all the window holds (the run's end). */
void xmt_window_free(struct window *w);
/* The window's items (units and skeleton bytes) queued. */
size_t xmt_window_nitems(const struct window *w);

/* --- requests.c -------------------------------------------------------- */
/* The main thread's part of a window: its segments, their requests, and
 * the answers of the run's table, the cache and the engine (probes
 * aside). */
int xmt_window_translate(struct run *run);
/* The result answering request req, whose answer is aligned with plain:
 * one of the window's, or a new one (probe: asked only by a probe). */
xmt_status xmt_requests_add(struct run *run, const char *req, size_t req_len,
                            const char *plain, size_t plain_len, int probe,
                            size_t *out);
/* Frees what requests.c keeps from window to window (the run's end). */
void xmt_requests_free(struct run *run);
/* A job's result (NO_RESULT: its segment is copied), and the core of its
 * plain text. */
size_t xmt_job_result(const struct job *j);
void xmt_job_core(const struct job *j, size_t *lead, size_t *core_len);
/* The window's results, their engine responses and its jobs: r below
 * xmt_window_nresults, k below xmt_window_njobs. */
size_t xmt_window_nresults(const struct window *w);
struct result *xmt_window_result(const struct window *w, size_t r);
size_t xmt_window_result_index(const struct window *w, const struct result *r);
struct xmt_mt_response *xmt_window_response(const struct window *w, size_t r);
size_t xmt_window_njobs(const struct window *w);
const struct job *xmt_window_job(const struct window *w, size_t k);
/* The plain answers of the results probes asked (probe 1) or of the
 * others (0); the text of the ones kept at offset at. */
struct xmt_buf *xmt_window_answers(struct window *w, int probe);
const char *xmt_window_answer_at(const struct window *w, int probe, size_t at);
/* The window's probes: room for n more; one added, whose result number
 * the caller sets through the pointer returned; those from first; the
 * result of probe k (NO_RESULT: literal). */
xmt_status xmt_window_grow_probes(struct window *w, size_t n);
size_t xmt_window_nprobes(const struct window *w);
size_t *xmt_window_add_probe(struct window *w, const struct xmt_probe *q);
struct xmt_probe *xmt_window_probes(const struct window *w, size_t first);
size_t xmt_window_probe_result(const struct window *w, size_t k);
/* A result's request (the MT input) and the plain text its answer is
 * aligned with, in w's arena; the request's xmt_memo_hash. */
const char *xmt_result_request(const struct window *w, const struct result *r,
                               size_t *len);
const char *xmt_result_plain(const struct window *w, const struct result *r,
                             size_t *len);
uint64_t xmt_result_hash(const struct result *r);
/* 1 when only probes asked r; when a probe asked it first (its cache key
 * says so); when a segment asked it after a probe did. */
int xmt_result_probe(const struct result *r);
int xmt_result_probe_key(const struct result *r);
int xmt_result_claimed(const struct result *r);
/* The first job that asked r (for messages). */
const struct job *xmt_result_job(const struct window *w,
                                 const struct result *r);
/* 1 when r was answered by the run's table or the cache (tm.c), which
 * then sets it. */
int xmt_result_cached(const struct result *r);
void xmt_result_set_cached(struct result *r);

/* --- tm.c -------------------------------------------------------------- */
/* Opens the filter's cache for a run (its error is the filter's). */
xmt_status xmt_tm_open(struct run *run);
void xmt_tm_key(struct run *run, int probe, struct xmt_cache_key *key);
/* A cache that fails is reported once and no longer used. */
void xmt_tm_trouble(struct run *run);
/* Answers of earlier windows and of the cache for the filling window. */
xmt_status xmt_tm_look_up(struct run *run);
/* Remembers an answer the engine gave: the run's table and the cache. */
xmt_status xmt_tm_keep(struct run *run, const struct result *res,
                       const char *tr, size_t trlen,
                       const struct xmt_mt_response *resp);

/* The cache (NULL: none, or it failed); its answers committed (XMT_OK
 * without one). */
struct xmt_cache *xmt_tm_cache(struct run *run);
xmt_status xmt_tm_commit(struct run *run);
/* The run's table emptied past MEMO_MAX_BYTES, before a window's answers
 * go in; the slot of request hash fetched ahead. */
void xmt_tm_trim(struct run *run);
/* The run's table emptied: a <file> of other languages begins. */
void xmt_tm_forget(struct run *run);
void xmt_tm_prefetch(struct run *run, uint64_t hash);
/* The run failed: the filter's cache closed, its answers uncommitted. */
void xmt_tm_drop(struct run *run);
void xmt_tm_free(struct run *run);

/* --- lanes.c ----------------------------------------------------------- */
/* Sends the window's segments (probes 0) or its probes (1) to the
 * engine, and keeps the answers. */
int xmt_lanes_ask(struct run *run, struct window *w, int probes);

/* --- answers.c --------------------------------------------------------- */
/* The plain answer of each result asked (tags removed in mask and raw
 * modes), checked and cleaned, and remembered. */
int xmt_answers_collect(struct run *run);
/* The plain answer of r and its length; "" before it is collected. */
const char *xmt_answer_of(const struct window *w, const struct result *r,
                          size_t *len);
/* 1 when the answer is the plain text it translates. */
int xmt_answer_unchanged(const struct result *r);

/* --- aligner.c --------------------------------------------------------- */
/* The aligner model file, unless it is still to be made. */
int xmt_model_to_load(const struct align_settings *s);
/* A bad aligner model is reported before any MT call (to s->err). */
xmt_status xmt_check_align_model(const struct align_settings *s);
/* XMT_FILTER_UPDATE_MODEL: the grown model back to its file. */
xmt_status xmt_save_model(struct run *run);
/* The engine's links of res into links when res needs links and they
 * check out (*own_tokens: 1 when tokens are the engine's, in run->pt's
 * token lists); else 0. */
int xmt_engine_links(struct run *run, const struct window *w,
                     const struct result *res, xmt_alignment *links,
                     int *own_tokens);
int xmt_wants_aligner_links(struct run *run, const struct window *w,
                            const struct result *res);
/* Frees the run's word aligner (the run's end). */
void xmt_align_free(struct run *run);
/* 1 when the run aligns (an aligner mode other than none). */
int xmt_aligner_on(struct run *run);
/* Word alignments for the results that need them (placing stage). */
int xmt_align_results(struct run *run, struct window *w);
/* A result's links are aligner.c's: some job projects onto res (placing
 * stage), whether one does, and the links it is projected over (the
 * aligner's or the alignment cache's; NULL: none). */
void xmt_result_want_links(struct result *res);
int xmt_result_needs_links(const struct result *res);
const xmt_alignment *xmt_result_links(const struct result *res);
/* New empty links for res (the alignment cache's); NULL: out of memory. */
xmt_alignment *xmt_result_new_links(struct result *res);
/* Frees the links of the window's results. */
void xmt_window_drop_links(struct window *w);

/* --- align_cache.c ----------------------------------------------------- */
void xmt_align_cache_look_up(struct run *run, struct window *w);
void xmt_align_cache_store(struct run *run, struct window *w);
int xmt_align_cache_apply(struct run *run, struct window *w);
void xmt_align_cache_keep(struct window *w);

/* --- readthread.c ------------------------------------------------------ */
/* Starts body(arg) on the reader's thread, the nspare windows from spare
 * for it to fill after the first; 1 when no thread could be made. */
int xmt_rthread_start(struct rthread *t, struct window *spare, size_t nspare,
                      void *(*body)(void *), void *arg);
void xmt_rthread_join(struct rthread *t);
/* The main thread failed: the reader is told, and stops waiting. */
void xmt_rthread_stop(struct rthread *t);
int xmt_rthread_stopped(struct rthread *t);
/* The reader's side: hands w over (finish: the main thread finishes its
 * placing too) and returns the next window to fill, NULL once stopped;
 * its last window and status when it returns; waits until the main thread
 * has drained all it was handed (1: the main thread failed). */
struct window *xmt_rthread_hand(struct rthread *t, struct window *w,
                                int finish);
void xmt_rthread_finish(struct rthread *t, struct window *w, xmt_status st);
int xmt_rthread_wait_idle(struct rthread *t);
/* The main thread's side: the next window the reader filled (*last: the
 * reader's last, after it returned), and a window given back to it. */
struct window *xmt_rthread_next(struct rthread *t, int *last, int *finish);
void xmt_rthread_give(struct rthread *t, struct window *w);
xmt_status xmt_rthread_status(const struct rthread *t);

/* --- schedule.c and placing.c ------------------------------------------ */
/* Translates the filled window and hands it to the placing stage. */
int xmt_window_drain(struct run *run);
/* Takes back the window the placing stage had. */
int xmt_placing_finish(struct run *run);
/* The placing stage of a window, on whichever thread schedule.c chose. */
void xmt_window_place(struct run *run, struct window *w);
/* What placing made of a window is placing.c's: a failure of the placing
 * stage (message NULL: st's own; _model: the word aligner's, at a line of
 * its model file, not of the document), made the run's when the main
 * thread takes the window back; returns 1. */
int xmt_window_fail(const struct run *run, struct window *w, xmt_status st,
                    unsigned long line, const char *unit_id,
                    const char *message);
int xmt_window_fail_model(struct window *w, xmt_status st, const char *model,
                          unsigned long line, const char *message);
int xmt_window_failed(const struct window *w);
/* The counts placing keeps; the alignment cache's use of the window. */
struct xmt_filter_stats *xmt_window_stats(struct window *w);
struct align_cache_use *xmt_window_align_cache(struct window *w);
/* The run stopped asking the engine while asking w's requests. */
void xmt_window_engine_stopped(struct window *w);
/* The window's probes are to be asked (ask 1) or not; they are answered
 * (failed: the run failed asking them), which placing waits for. */
void xmt_window_expect_probes(struct window *w, int ask);
void xmt_window_probes_answered(struct run *run, struct window *w, int failed);
/* The counts, failures and messages of a placed window become the run's;
 * returns run->failed. */
int xmt_window_report(struct run *run, struct window *w);

/* --- probe_plan.c and probe_anchor.c ----------------------------------- */
xmt_status xmt_probes_add(struct run *run, const xmt_segment *src, size_t lead,
                          size_t src_core_len, size_t *first, size_t *n);
xmt_status xmt_probes_anchor(struct run *run, struct window *w, size_t first,
                             size_t nprobes, const struct result *res,
                             const xmt_tokens **ctok, const xmt_tokens **ttok,
                             const xmt_alignment **links);

/* --- tools.c ---------------------------------------------------------- */
/* A stage's scratch space; NULL: out of memory. */
struct stage_tools *xmt_tools_new(void);
void xmt_tools_free(struct stage_tools *t);
struct xmt_placer *xmt_tools_placer(struct stage_tools *t);
xmt_segment *xmt_tools_scratch(struct stage_tools *t);
/* The stage's token lists: of a source (stok) and of its answer (ttok). */
xmt_tokens *xmt_tools_stok(struct stage_tools *t);
xmt_tokens *xmt_tools_ttok(struct stage_tools *t);
/* src into stok and tgt into ttok, tokenized the default way. */
xmt_status xmt_tools_tokenize(struct stage_tools *t, const char *src,
                              size_t src_len, const char *tgt, size_t tgt_len);

/* --- extract.c and engines.c ------------------------------------------- */
int xmt_extract_window(struct run *run, struct window *w);
/* Why a segment of a unit whose code holds a <sub> with text that is not
 * translated gets no translation (placing.c) and no line (extract.c). */
#define XMT_SUB_TEXT_WHY                                                       \
  "a <sub> inside one of its codes holds translatable text where xliffmt "     \
  "does not translate it (inside another <sub>, or in a code between the "     \
  "segments of its <seg-source>)"
/* The backend configuration of the run, in the filter (kept states may
 * hold on to it); earlier states closed unless they are to be kept. */
void xmt_engines_configure(struct run *run);
/* The states an earlier run kept become the run's first lanes. */
void xmt_engines_take(struct run *run);
/* Opens lanes[0]'s state unless the run has one or extracts; the error
 * is the filter's. */
xmt_status xmt_engines_open_first(struct run *run);
/* The run's states kept for the next run (XMT_FILTER_KEEP_ENGINES). */
void xmt_engines_keep(struct run *run);
void xmt_engines_close(struct run *run);
/* The backend's name and spec (the engine part of the cache's keys)
 * appended to out; 1 when the backend translates markup. */
xmt_status xmt_engines_describe(struct run *run, struct xmt_buf *out);
int xmt_engines_markup(struct run *run);

#endif /* XMT_PIPELINE_PRIVATE_H */
