/* filter_private.h -- internals of the document-level filter. Not installed. */
#ifndef XMT_FILTER_PRIVATE_H
#define XMT_FILTER_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "filter_private.h is internal to libxliffmt"
#endif

#include <stdio.h>

#include "projector_private.h"
#include "xliff_private.h"
#include "xmt_filter.h"

struct xmt_mt_response {
  struct xmt_buf text;
  int has_text;
  char *error;
  char *alignment; /* Pharaoh pairs, NULL when the engine gave none */
  char *source_tokens;
  char *target_tokens;
  double score;
  int has_score;
  int nomem;         /* a setter could not allocate: the run is out of memory */
  int engine_failed; /* xmt_mt_response_set_engine_error */
};
void xmt_mt_response_reset(struct xmt_mt_response *response);
/* The most bytes an answer to a request of request_len bytes may have:
 * max_answer (0: XMT_DEFAULT_MAX_ANSWER), and at most XMT_ANSWER_GROWTH
 * times the request plus XMT_ANSWER_SLACK (backend.c). */
size_t xmt_answer_limit(size_t max_answer, size_t request_len);
/* What a built-in backend does before returning non-zero for lack of
 * memory: the run then fails with XMT_ERR_NOMEM. */
void xmt_mt_response_out_of_memory(struct xmt_mt_response *response);
void xmt_mt_response_free(struct xmt_mt_response *response);
/* What a response says, for its readers: answered (a text and no error),
 * the text ("" when empty), the error (NULL: none) and whether the engine
 * itself failed (xmt_mt_response_set_engine_error). The pipeline's rooms
 * read a response through these, but for those that take it in (lanes.c),
 * clean it (answers.c) and check its alignment (aligner.c). */
int xmt_mt_response_answered(const struct xmt_mt_response *response);
const char *xmt_mt_response_text(const struct xmt_mt_response *response,
                                 size_t *len);
const char *xmt_mt_response_error(const struct xmt_mt_response *response);
int xmt_mt_response_engine_failed(const struct xmt_mt_response *response);

/* The default backend: the translation is the source. */
extern const struct xmt_backend xmt_backend_identity;

/* The first bytes of standard input, read to tell its format (as many as
 * its prolog takes, up to 1 MB): the reader of the document takes them
 * before the rest of the stream, since a pipe cannot be read twice and
 * ungetc() gives back one byte only. */
struct xmt_stdin_head {
  struct xmt_buf bytes;
  int held; /* read, and not taken by a reader yet */
};

struct xmt_filter {
  struct xmt_error_store err;
  /* err is placed in the document itself by a format reading it as its
   * units go (an HTML page's bad byte): xmt_format_blame keeps it */
  int err_placed;
  char *source_language;
  char *target_language;
  const struct xmt_backend *backend;
  void *backend_user;
  char *backend_spec;
  char **backend_options; /* "key=value", NULL-terminated */
  size_t nbackend_options, backend_options_cap;
  char *cache_uri; /* translation memory cache, or NULL */
  size_t cache_max;
  /* Its connection, opened by the first run that uses it and kept for the
   * next: opening checks the whole file. */
  struct xmt_cache *cache;
  unsigned timeout_ms;
  size_t max_answer;         /* 0: XMT_DEFAULT_MAX_ANSWER */
  size_t batch_size, window; /* 0: the defaults */
  size_t engine_jobs;        /* backend states translating at once */
  /* XMT_FILTER_KEEP_ENGINES: the states the last run left open, and the
   * configuration they were opened with (its strings are the filter's). */
  void **engines;
  size_t nengines;
  struct xmt_backend_config engine_config;
  xmt_lexicon *lexicon; /* the same flag: the aligner's dictionaries */
  enum xmt_tag_mode tag_mode;
  enum xmt_aligner_mode aligner_mode;
  char *align_model;
  enum xmt_align_model align_kind;
  char **dicts; /* none given: "auto" */
  size_t ndicts, dicts_cap;
  enum xmt_projection_rule rule;
  enum xmt_symmetrization symmetrization;
  enum xmt_probes probes;
  enum xmt_segmentation segmentation;
  char *srx_path;
  xmt_segmenter *segmenter; /* loaded at the first run that segments */
  int resegment;
  xmt_filter_progress_fn progress;
  xmt_filter_failure_fn on_failure;
  xmt_filter_failure_fn on_warning;
  void *callback_user;
  char *state;
  char *state_qualifier;
  unsigned flags;
  struct xmt_filter_stats stats;
  /* xmt_filter_interrupt: set from a signal handler or another thread,
   * read by every loop of a run that can last. */
  int interrupted;
  struct xmt_stdin_head stdin_head;
};

/* 1 when the run is to end at once (xmt_filter_interrupt). */
static inline int xmt_filter_interrupted(const xmt_filter *f) {
  return __atomic_load_n(&f->interrupted, __ATOMIC_RELAXED) != 0;
}

/* Loads the segmentation rules once, before the first run needs them
 * (filter.c). */
xmt_status xmt_filter_prepare_segmenter(xmt_filter *f);

/* --- The pipeline (pipeline/) ------------------------------------------
 * What a run does with the document: translate it; merge (translate with
 * the offline backend, identical segments kept apart so that each is
 * answered by its own id); or extract its segments, in one of the two
 * segments formats, instead of writing the document. */
enum xmt_pipeline_mode {
  XMT_PIPELINE_TRANSLATE,
  XMT_PIPELINE_MERGE,
  XMT_PIPELINE_EXTRACT_TSV,
  XMT_PIPELINE_EXTRACT_JSONL
};

struct xmt_format;

/* The document of a run and the engine that answers it. */
struct xmt_pipeline_doc {
  const char *in_path, *out_path;
  /* The format of doc, an open document of it, whose operations the run
   * calls; NULL or an entry without read (XLIFF 1.2): an XLIFF document,
   * read from in_path (or input) and written by the XLIFF writer */
  const struct xmt_format *format;
  void *doc;
  /* NULL: the filter's backend; the merge's offline answers otherwise */
  const struct xmt_backend *backend;
  void *backend_user;
  /* An XLIFF document in memory (format XLIFF's), read instead of in_path,
   * which then only names it */
  const char *input;
  size_t input_len;
  /* Where the document is written instead of out_path, when not NULL */
  struct xmt_buf *output;
};
/* Runs the document. Errors go to the filter. */
xmt_status xmt_pipeline_run(xmt_filter *f, const struct xmt_pipeline_doc *doc,
                            enum xmt_pipeline_mode mode);
/* Feeds the units of doc, an open document of format, to reader, as the
 * run feeds its own (pipeline/units.c). A failure of the reader is the
 * reader's error; the format's goes to err. */
xmt_status xmt_pipeline_feed(xmt_filter *f, const struct xmt_format *format,
                             void *doc, const char *path,
                             xmt_xliff_reader *reader,
                             struct xmt_error_store *err);

/* --- Document formats (format/) --------------------------------------------
 * A format is one entry of one table (format/detect.c): how its documents
 * are told (extensions, a bid on the first bytes), its operations and the
 * properties check, report and the file functions ask of it; format.c
 * asks the entry and never names a format. XLIFF 1.2 is read and written
 * by the XLIFF reader and writer: its entry has no read operation. Any
 * other format is a reader and a writer on the same unit stream: its
 * reader hands the run its document's units as values (read: each built
 * with xmt_xliff_unit_build, given to the run's unit callback as the
 * XLIFF reader gives it the trans-units it parses; no XLIFF text between
 * them), takes back each unit the run has finished, with its target, and
 * writes its document with those targets. What needs the units as XLIFF
 * text gets it from units_out.c. A format never calls the pipeline, and
 * the pipeline gets its operations in struct xmt_pipeline_doc. */

/* Where a format's reader hands its units: each <file> of the document
 * (what it says of itself: original, languages, datatype, line), then
 * the units in it, each taken by unit (handed over or freed, whatever it
 * returns). A status other than XMT_OK stops the reading, and the format
 * returns it. */
struct xmt_unit_sink {
  xmt_status (*file)(void *user, const struct xmt_xliff_file_info *info);
  xmt_status (*unit)(void *user, xmt_xliff_unit *unit);
  void *user;
  /* Where a format that reads apart writes its errors (NULL: the
   * filter's): the run's main thread may write the filter's meanwhile. */
  struct xmt_error_store *err;
};

/* What detect.c read of a document's first bytes, past its prolog, for
 * the formats to bid on. */
enum xmt_root {
  XMT_ROOT_NONE,  /* text before any element, or nothing */
  XMT_ROOT_OTHER, /* an element other than <xliff> */
  XMT_ROOT_XLIFF, /* <xliff> (any prefix), of no version 2 */
  XMT_ROOT_XLIFF2 /* <xliff version="2.N">, or the XLIFF 2 namespace */
};
struct xmt_head {
  const char *bytes; /* the first bytes, 1 KB at most */
  size_t len;
  enum xmt_root root;
  /* XMT_ROOT_OTHER: an ASCII view of the document from that element's
   * '<' (1 KB at most), else NULL */
  const char *element;
  size_t element_len;
  int doctype_html; /* a doctype named html came before */
};
/* A bid: the first element says so (wins over a start that looks like
 * the format's), or the start looks like it. */
enum { XMT_BID_NO, XMT_BID_LOOKS, XMT_BID_ELEMENT };

/* What the reading of a document says of it beyond its units, where its
 * format is not the unit stream's: its version and encoding (static
 * strings: "2.0", "UTF-16LE"), and its units as it counts them (XLIFF 2:
 * a <unit> of several segments is one unit, not one per segment). */
struct xmt_doc_facts {
  const char *version, *encoding; /* NULL: the unit stream's */
  int counted;                    /* 0: the units are the unit stream's */
  /* 1: the format's rules were checked (told before its units), ids used
   * twice among them; the unit stream's ids may repeat */
  int own_rules;
  size_t units, translatable_units, units_with_target;
};
/* A rule of a document's format broken where its schema cannot tell
 * (warning 0), or what is valid but likely wrong (warning 1): the line
 * and column of the element, its unit's id (or NULL), what is wrong.
 * Non-zero stops the reading. */
typedef int (*xmt_rule_fn)(void *user, unsigned long line, unsigned long column,
                           const char *unit_id, const char *message,
                           int warning);
struct xmt_format {
  /* Detection (detect.c): the table's public face (xmt_format_list);
   * its extensions (lower case, NULL-ended) decide when no format bids;
   * its value (info.format) is its place in the table, whatever the
   * entry says (a format after the first five has no named value) */
  struct xmt_format_info info;
  /* What check says a document of it was read as ("Word document";
   * NULL: XLIFF, read as itself), and its media type (what the server's
   * download says; NULL: XLIFF's) */
  const char *noun, *media_type;
  /* XMT_BID_* for a document that starts as head says */
  int (*bid)(const struct xmt_head *head);
  /* 1: extract and merge of segments take its documents */
  int segments_io;
  /* The XMT_FILTER_* flags that apply to its documents alone (the
   * options of its own: xmt_format_flags), and 1 when some of its units
   * are attribute values, which extract counts apart */
  unsigned flags;
  int attribute_units;
  /* Its own extract and merge of units, in place of units_io.c's (NULL:
   * those): xmt_filter_extract_units_file and _merge_ call them. */
  xmt_status (*extract_file)(xmt_filter *f, const char *in_path,
                             const char *xliff_path,
                             struct xmt_html_stats *stats);
  xmt_status (*merge_file)(xmt_filter *f, const char *in_path,
                           const char *xliff_path, const char *out_path,
                           struct xmt_html_stats *stats,
                           xmt_problem_fn on_problem, void *user);
  /* 1: check validates it against the OASIS schema of its root's
   * namespace (xmt_schema_check) before its rules */
  int schema;
  /* The operations; read NULL: XLIFF 1.2, the XLIFF reader's own. */
  /* Reads the document at path into *doc; *bytes receives its size. */
  xmt_status (*open)(xmt_filter *f, const char *path, void **doc,
                     size_t *bytes);
  /* The same for a document of len bytes in memory, named name. */
  xmt_status (*parse)(xmt_filter *f, const char *name, const char *bytes,
                      size_t len, void **doc);
  /* Hands the units of doc to sink as values, one at a time, never all
   * held (path names the document: the original of its <file>). */
  xmt_status (*read)(xmt_filter *f, void *doc, const char *path,
                     const struct xmt_unit_sink *sink);
  /* Takes the target of a unit read() handed out (NULL: it has none). */
  xmt_status (*take)(xmt_filter *f, void *doc, const xmt_xliff_unit *unit,
                     const xmt_segment *target);
  /* 1: read() may run on a thread of its own while take() runs on
   * another (the document's shared parts under its own lock), and writes
   * its errors where the sink says, never in the filter */
  int read_apart;
  /* Writes doc with the targets taken, in target_language, to sink. */
  xmt_status (*write)(xmt_filter *f, void *doc, const char *target_language,
                      xmt_write_fn sink, void *user);
  void (*close)(void *doc);
  /* Before read(): where write() is to write, so that a format that
   * streams may write each part once its targets are taken (NULL: the
   * format writes all in write()). */
  xmt_status (*stream)(xmt_filter *f, void *doc, const char *target_language,
                       xmt_write_fn sink, void *user);
  /* Optional operations (NULL: what the comment says instead). */
  /* open, the document held whole: before its units are handed to check
   * and report, so that a malformed one fails before any (NULL: open) */
  xmt_status (*open_whole)(xmt_filter *f, const char *path, void **doc,
                           size_t *bytes);
  /* open, for the units to be written as text as a run reads them: the
   * ids its run's reader makes unique made so already (NULL: open) */
  xmt_status (*open_for_text)(xmt_filter *f, const char *path, void **doc,
                              size_t *bytes);
  /* A document that may say its target language: XMT_OK when doc says
   * it, else a usage error naming path (NULL: the document never says
   * it, and -t is asked before it is opened) */
  xmt_status (*own_target)(xmt_filter *f, const void *doc, const char *path);
  /* The bytes of doc read so far, after a run (NULL: what open said) */
  size_t (*bytes_read)(const void *doc);
  /* 1 when the last error of a run of doc is the document's, read as the
   * run went: its position is the document's own (NULL: never) */
  int (*read_failed)(const void *doc);
  /* The rules of the format its schema cannot state, for check: on the
   * document at path (not "-"), read for them and let go; or on an open
   * document (NULL: none) */
  xmt_status (*check_file)(xmt_filter *f, const char *path, xmt_rule_fn fn,
                           void *user, struct xmt_error_store *err);
  xmt_status (*check)(const void *doc, xmt_rule_fn fn, void *user,
                      struct xmt_error_store *err);
  /* What doc says of itself beyond its units (NULL: nothing) */
  void (*describe)(const void *doc, struct xmt_doc_facts *facts);
};

/* The table (detect.c): *n entries, the first the one a document no
 * format bids on and of no known extension goes to; the entry of id,
 * or NULL. */
const struct xmt_format *const *xmt_formats(size_t *n);
const struct xmt_format *xmt_format_entry(enum xmt_doc_format id);
/* Validates the XLIFF document at path (- is standard input, which
 * xmt_stdin_hold_whole has held) against the OASIS schema of its root's
 * namespace, XLIFF 1.2 (XMT_FILTER_SCHEMA_STRICT: the strict one) or 2.0
 * with its modules, telling each error to fn; a document in another
 * namespace is not validated. A malformed document ends validation
 * quietly: its reader tells why. (schema/schema.c) */
xmt_status xmt_schema_check(xmt_filter *f, const char *path, xmt_rule_fn fn,
                            void *user);
/* Segments in memory (format/segments.c): xmt_filter_translate_segments */
extern const struct xmt_format xmt_format_segments;

/* The XLIFF 1.2 text of units (format/units_out.c), the one writer of it,
 * for what needs units as text (the report's stylesheets, extract to
 * XLIFF): init writes the prolog; then per <file>, xmt_units_out_file;
 * per unit, xmt_units_out_unit, which hands full blocks to the sink;
 * xmt_units_out_end closes the last <file>, hands the rest to the sink
 * and frees. The first failure sticks: every later call returns it.
 * flushed + buf.len is the size of the document so far. */
struct xmt_units_out {
  struct xmt_buf buf;
  size_t flushed;
  xmt_status st;
  xmt_write_fn sink;
  void *user;
  int in_file;        /* a <file> is open (the unit sink's) */
  int one_line;       /* its units one line each (XMT_DATATYPE_XLIFF2) */
  unsigned long line; /* of buf's end, counted up to counted */
  size_t counted;
};
void xmt_units_out_init(struct xmt_units_out *o, xmt_write_fn sink, void *user);
/* original need not be UTF-8. */
xmt_status xmt_units_out_file(struct xmt_units_out *o, const char *original,
                              const char *source_language,
                              const char *target_language,
                              const char *datatype);
/* A trans-unit of u on its line (line breaks added up to it): its id,
 * resname, restype, translate and xml:space, its whole source and its
 * existing target; the units a format reads are never segmented. */
xmt_status xmt_units_out_unit(struct xmt_units_out *o, const xmt_xliff_unit *u);
xmt_status xmt_units_out_end(struct xmt_units_out *o);
/* Lines, so that a format's reader gives each unit the line its XLIFF
 * shows it on (what check and report name): the first <file> starts on
 * XMT_UNITS_OUT_FILE_LINE, its first unit on XMT_UNITS_OUT_UNIT_LINE;
 * a unit takes xmt_units_out_lines lines (of a file of datatype, with
 * this source and target); a <file>'s end takes
 * XMT_UNITS_OUT_FILE_END_LINES. The units of XLIFF 2 (XMT_DATATYPE_XLIFF2)
 * take one line each, so that each can be on its <segment>'s line, and
 * so do segments in memory (XMT_DATATYPE_SEGMENTS). */
enum {
  XMT_UNITS_OUT_FILE_LINE = 3,
  XMT_UNITS_OUT_UNIT_LINE = 5,
  XMT_UNITS_OUT_FILE_END_LINES = 2
};
#define XMT_DATATYPE_XLIFF2 "x-xliff2"
#define XMT_DATATYPE_SEGMENTS "plaintext" /* segments in memory: one line */
unsigned long xmt_units_out_lines(const char *datatype,
                                  const xmt_segment *source,
                                  const xmt_segment *target);
/* A unit sink writing each <file> and unit to o; the last <file> is
 * closed by xmt_units_out_end. */
struct xmt_unit_sink xmt_units_out_sink_of(struct xmt_units_out *o);

/* Handing a format's units to the run (format/unit_feed.c), alike for
 * every format with a reader: one <file> of original, languages and
 * datatype, then nunits units, the i-th described by at(doc, i, ...):
 * its id (written in decimal, after "part:" when it is in a part: what
 * xmt_unit_index_in reads back), source and the fields a format may set;
 * each at its place in the original (a page's line and column), which
 * messages name: the user never sees the XLIFF of the units. */
struct xmt_unit_feed {
  const char *original, *source_language, *target_language, *datatype;
  size_t nunits;
};
struct xmt_feed_unit {
  unsigned long id;
  const char *part;              /* NULL: none, the id a number alone */
  const char *resname, *restype; /* NULL: absent */
  const xmt_segment *source;
  int preserve_space;
  /* where the unit starts in the original, for messages; 0: nowhere a
   * user could open (a part inside a package) */
  unsigned long line, column;
};
typedef void (*xmt_unit_at_fn)(void *doc, size_t i, struct xmt_feed_unit *out);
xmt_status xmt_unit_feed(const struct xmt_unit_feed *feed, void *doc,
                         xmt_unit_at_fn at, const struct xmt_unit_sink *sink);
/* The same a unit at a time, for a format that parses as it feeds: the
 * <file> first, then each unit (ib: the caller's, one for all). */
xmt_status xmt_unit_feed_file(const struct xmt_unit_feed *feed,
                              const struct xmt_unit_sink *sink);
xmt_status xmt_unit_feed_one(const struct xmt_unit_feed *feed,
                             struct xmt_inline_builder *ib,
                             const struct xmt_feed_unit *u,
                             const struct xmt_unit_sink *sink);
/* The index (id - 1) of unit among n units numbered from 1 by the feed;
 * an id that is not one of them is an internal error naming it ("a unit
 * the <what> does not have"). */
xmt_status xmt_unit_index(const xmt_xliff_unit *unit, size_t n,
                          const char *what, size_t *index,
                          struct xmt_error_store *err);
/* The same for units numbered in parts ("document:3", "footnotes:1"),
 * each part's from 1 to its count; a part named NULL takes the ids of a
 * number alone. *part gets the part's index in parts, *index n - 1. */
struct xmt_unit_part {
  const char *name;
  size_t count;
};
xmt_status xmt_unit_index_in(const xmt_xliff_unit *unit,
                             const struct xmt_unit_part *parts, size_t nparts,
                             const char *what, size_t *part, size_t *index,
                             struct xmt_error_store *err);
/* 1 when tag is NULL or a language tag: letters, digits, hyphens and
 * underscores, starting with a letter, at most 64 bytes. */
int xmt_valid_language(const char *tag);

/* 1 when target says what source says: the same text, the same codes (by
 * id and side) at the same places; their markup is not compared, being
 * the format's own. A format keeps a unit's bytes when so. */
int xmt_target_is_source(const xmt_segment *target, const xmt_segment *source);

/* The format of in_path, its entry in the table (never NULL: XLIFF's
 * when detection fails, as the error says). */
xmt_status xmt_format_of(xmt_filter *f, const char *in_path,
                         const struct xmt_format **format);
/* format->open of path, or, for standard input, format->parse of the
 * bytes detect read from it and the rest of the stream. */
xmt_status xmt_format_open(xmt_filter *f, const struct xmt_format *format,
                           const char *path, void **doc, size_t *bytes);
/* Feeds the units of in_path, of any format, to reader; *bytes_in
 * receives the size of the document, and *facts what a format other than
 * the unit stream's says of it (zeroed first). When on_rule is
 * not NULL, the rules of the format that its schema cannot state are
 * checked first and each one broken is told to it (XLIFF 2). Errors go
 * to err. */
xmt_status xmt_format_read_units(xmt_filter *f, const char *in_path,
                                 xmt_xliff_reader *reader,
                                 struct xmt_error_store *err, size_t *bytes_in,
                                 struct xmt_doc_facts *facts,
                                 xmt_rule_fn on_rule, void *rule_user);
/* The XLIFF 1.2 document a page of another format is read as, in out;
 * out is left empty for an XLIFF document. facts (NULL: not wanted)
 * gets the format's own counts: an XLIFF 2 unit of several segments is
 * one unit of the document but a trans-unit a segment in out. */
xmt_status xmt_format_units_xliff(xmt_filter *f, const char *in_path,
                                  struct xmt_buf *out,
                                  struct xmt_doc_facts *facts);
/* The same written to out (a temporary file), the document read as a
 * stream as a translation reads it: an XLIFF 2 document is not held
 * whole. Nothing is written for an XLIFF document. */
xmt_status xmt_format_units_file(xmt_filter *f, const char *in_path, FILE *out,
                                 struct xmt_doc_facts *facts);
/* The XLIFF text of a document's units: data and len, or, when fp is
 * not NULL, what fp holds (read from its start each time); facts, when
 * not NULL, the document's own counts (see xmt_format_units_xliff). */
struct xmt_units_text {
  const char *data;
  size_t len;
  FILE *fp;
  const struct xmt_doc_facts *facts;
};
/* xmt_filter_check_file, on the units of path or, when units is not
 * NULL, on that XLIFF text of them (check.c). */
xmt_status xmt_check_document(xmt_filter *f, const char *path,
                              const struct xmt_units_text *units,
                              struct xmt_check_report *report,
                              xmt_problem_fn on_problem, void *user);
/* Positions in an error about the unit stream of in_path are not the
 * document's: they go. */
void xmt_format_blame(xmt_filter *f, const struct xmt_format *format,
                      const char *in_path);

/* An output file written under a temporary name and renamed on commit. */
/* --- The translation memory cache (cache/cache.c) ----------------------- */
/* Stores: cache/cache_sqlite.c, cache/cache_pg.c. */

struct xmt_cache;
struct xmt_cache_key {
  const char *engine; /* backend, spec and options */
  const char *source_language, *target_language;
  int markup; /* the request is inline markup (translate_markup) */
};
/* XMT_OK when a store knows uri's scheme, else XMT_ERR_USAGE (in err). */
xmt_status xmt_cache_check_uri(const char *uri, struct xmt_error_store *err);
/* Opens the cache of uri ("sqlite:PATH", "postgresql:CONNINFO"); a file
 * that is not a sound cache is set aside and *warning says so. A cache
 * whose lock another process keeps past a few seconds (or past
 * *interrupted becoming non-zero) is XMT_OK with *cache NULL, and
 * *warning says the run goes on without it; later lock waits are bounded
 * the same way and fail the call. */
xmt_status xmt_cache_open(struct xmt_cache **cache, const char *uri,
                          size_t max_entries, const int *interrupted,
                          struct xmt_error_store *err, char *warning,
                          size_t warning_len);
/* 1 and resp filled (text, and alignment if any) when request is known,
 * 0 when not, -1 on a database error, -2 out of memory. */
int xmt_cache_get(struct xmt_cache *cache, const struct xmt_cache_key *key,
                  const char *request, size_t len,
                  struct xmt_mt_response *resp);
/* Keeps an answer (in the transaction xmt_cache_commit ends). */
xmt_status xmt_cache_put(struct xmt_cache *cache,
                         const struct xmt_cache_key *key, const char *request,
                         size_t len, const char *answer, size_t answer_len,
                         const struct xmt_mt_response *resp);
xmt_status xmt_cache_commit(struct xmt_cache *cache,
                            struct xmt_error_store *err);
/* The cache for messages: its file, or its server without a password. */
const char *xmt_cache_name(const struct xmt_cache *cache);
/* Why the last call failed. */
const char *xmt_cache_error(const struct xmt_cache *cache);
/* Closes, first dropping the least recently used entries beyond the
 * bound. NULL is a no-op. */
void xmt_cache_close(struct xmt_cache *cache);

/* An output file of the filter: base/'s atomic output file (written
 * unnamed and linked into place when complete, so nothing is left whatever
 * stops the process), with its errors recorded in the filter's error and
 * the reason of the first failed write kept. */
struct xmt_output {
  struct xmt_atomic_file file;
  int write_errno;     /* why the first failed write failed, or 0 */
  FILE *fp;            /* file's stream, while open */
  struct xmt_buf *mem; /* written here instead, when not NULL */
};
xmt_status xmt_output_open(struct xmt_output *out, const char *path,
                           struct xmt_error_store *err);
/* An output into mem (emptied first): nothing to commit, abort empties it. */
void xmt_output_open_memory(struct xmt_output *out, struct xmt_buf *mem);
xmt_status xmt_output_commit(struct xmt_output *out,
                             struct xmt_error_store *err);
/* When a write to out failed, records "cannot write: REASON" (the
 * system's) for path and returns XMT_ERR_WRITE; else returns st. */
xmt_status xmt_output_reason(const struct xmt_output *out, xmt_status st,
                             const char *path, struct xmt_error_store *err);
/* Removes the temporary file; safe after commit and on a zeroed output. */
void xmt_output_abort(struct xmt_output *out);
int xmt_output_write(void *user, const char *bytes, size_t len);

/* Opens path for reading, with a message naming it on failure. */
FILE *xmt_input_open(const char *path, struct xmt_error_store *err);

/* The bytes of standard input that xmt_filter_detect_format read, when
 * path is "-" and no reader took them yet; the caller reads them before
 * the rest of the stream (output.c). *len is 0 otherwise. */
const char *xmt_stdin_take(xmt_filter *f, const char *path, size_t *len);
/* The rest of standard input added to the head the filter holds, for a
 * document read twice (check: the schema, then the reader). */
xmt_status xmt_stdin_hold_whole(xmt_filter *f);

/* Appends the whole of path ("-": the bytes xmt_stdin_take gives, then
 * the rest of standard input) to buf. XMT_ERR_NOMEM without a message;
 * a read error with one, in err. */
xmt_status xmt_input_read_whole(xmt_filter *f, const char *path,
                                struct xmt_buf *buf,
                                struct xmt_error_store *err);

/* Reads head[0, head_len) then fp to the end through reader; returns the
 * first error. */
xmt_status xmt_read_all(xmt_xliff_reader *reader, const char *head,
                        size_t head_len, FILE *fp, const char *path,
                        struct xmt_error_store *err, size_t *bytes_in);
/* A reader's skeleton callback for readers that want the units alone. */
int xmt_skip_skeleton(void *user, const char *bytes, size_t len);
/* Reads the XLIFF document at path ("-": standard input, from the bytes
 * read to tell its format) through cb with user, into f->err on error.
 * *failed set by a callback: its own error, already in f->err, stands. */
xmt_status xmt_read_xliff_path(xmt_filter *f, const char *path,
                               const struct xmt_xliff_reader_callbacks *cb,
                               void *user, const int *failed);

/* --- Identical segments (cache/memo.c) ---------------------------------
 */

struct xmt_memo_entry;
struct xmt_memo {
  struct xmt_slots table;
  size_t count;
  struct xmt_memo_entry *entries; /* count of entries_cap in use */
  size_t entries_cap;
  struct xmt_buf arena;
};
/* 1 and the value (borrowed until the next put or clear) when key is
 * there; value_len and tag may be NULL. */
int xmt_memo_get(const struct xmt_memo *m, const char *key, size_t len,
                 const char **value, size_t *value_len, size_t *tag);
/* Adds key with a value and a number; an existing key keeps its own. */
xmt_status xmt_memo_put(struct xmt_memo *m, const char *key, size_t len,
                        const char *value, size_t value_len, size_t tag);
/* The same with the key's xmt_memo_hash, for a key looked up in several
 * tables. */
uint64_t xmt_memo_hash(const char *key, size_t len);
int xmt_memo_get_hashed(const struct xmt_memo *m, uint64_t hash,
                        const char *key, size_t len, const char **value,
                        size_t *value_len, size_t *tag);
xmt_status xmt_memo_put_hashed(struct xmt_memo *m, uint64_t hash,
                               const char *key, size_t len, const char *value,
                               size_t value_len, size_t tag);
/* Starts loading the slot of a key with that hash, to look it up a
 * little later without waiting for memory: the table of a long run does
 * not stay in the cache. */
void xmt_memo_prefetch(const struct xmt_memo *m, uint64_t hash);
void xmt_memo_clear(struct xmt_memo *m);
void xmt_memo_free(struct xmt_memo *m);
/* Memory held, to cap the table of a long run. */
size_t xmt_memo_bytes(const struct xmt_memo *m);

/* --- Unit keys (unit_keys.c) -------------------------------------------------
 * The name of each unit unique in its document, segment ids' first part. */

struct xmt_unit_keys {
  uint32_t *slot; /* the table: a key's number + 1 and hash bits */
  size_t nslots;  /* a power of two, or 0 */
  size_t count;   /* keys given */
  char **block;   /* where each block of keys starts (front-coded) */
  size_t blocks_cap;
  char **chunk; /* the memory of the blocks, never moved */
  size_t nchunks, chunks_cap;
  size_t used, room;   /* of the last chunk */
  size_t chunk_bytes;  /* of all chunks */
  struct xmt_buf key;  /* the key being given, then the last one given */
  struct xmt_buf last; /* the last key stored, to front-code the next */
  struct xmt_buf got;  /* a key read back from its block */
  int valued;          /* set before the first key: each key has a value */
  const char *value;   /* got's value, in its block (never moved) */
  size_t value_len;
};
/* Bytes held (for tests and benchmarks). */
size_t xmt_unit_keys_bytes(const struct xmt_unit_keys *keys);
/* The key of the next unit, with id (never NULL) in <file> number file
 * (1-based): the id itself when no earlier unit has it as key, else
 * "ID@FILE", else "ID@FILE.N" with the smallest free N from 2. Keys are
 * compared as strings (never by hash alone): no two keys are ever equal,
 * and an id no earlier key equals is its own key. *key is borrowed until
 * the next call. */
xmt_status xmt_unit_keys_take(struct xmt_unit_keys *keys, const char *id,
                              unsigned long file, const char **key);
void xmt_unit_keys_free(struct xmt_unit_keys *keys);
/* The same blocks as a set of keys with a value each, keys->valued set
 * (check's ids of a <file> with their places): 1 and the value of key
 * (len bytes; borrowed until the next call) when it was added, else 0;
 * add a key known to be absent. */
int xmt_unit_keys_get(struct xmt_unit_keys *keys, const char *key, size_t len,
                      const char **value, size_t *value_len);
xmt_status xmt_unit_keys_add(struct xmt_unit_keys *keys, const char *key,
                             size_t len, const char *value, size_t value_len);

/* --- Offline MT (backends/offline.c) ---------------------------------------
 */

/* Translations (TSV or JSON lines, by id) with optional parallel files of
 * alignments and tokens. NULL with the error in err. */
typedef struct xmt_offline xmt_offline;
xmt_offline *xmt_offline_load(const char *translations, const char *alignments,
                              const char *source_tokens,
                              const char *target_tokens,
                              struct xmt_error_store *err);
void xmt_offline_free(xmt_offline *o);
/* What the header line of a segments file says (extract writes one; a
 * file without one says nothing): the document's name, languages, the
 * segments' count and digest. NULL members: not said. */
struct xmt_segments_mark {
  char *document, *source, *target;
  uint64_t digest;
  size_t count;
  unsigned has;       /* XMT_MARK_*: the count and digest said */
  unsigned long line; /* of the header; 0: the file has none */
};
#define XMT_MARK_COUNT 1u
#define XMT_MARK_DIGEST 2u
const struct xmt_segments_mark *xmt_offline_mark(const xmt_offline *o);
const char *xmt_offline_path(const xmt_offline *o);
/* XMT_OK when a segment of the document asked for each translation; else
 * an error against the translations file at the first line no segment
 * asked for, naming up to ten more: a translation for no segment is
 * a mistake of the file (ids of another document, of another
 * segmentation), never to be dropped in silence. First, an error at a
 * line whose "text" (beside its "translation") is not the text of the
 * segment that asked for it: the translation of another source, which
 * the backend gave no segment. doc names the document. */
xmt_status xmt_offline_check_asked(const xmt_offline *o, const char *doc,
                                   struct xmt_error_store *err);
/* Answers requests by segment id from an xmt_offline (its user pointer). */
extern const struct xmt_backend xmt_backend_offline;

/* --- Placing tags in translations (place.c, place_breaks.c) -------------
 * The probes' planning and anchoring are pipeline/probe_plan.c and
 * pipeline/probe_anchor.c. */

struct xmt_found {
  size_t tag;    /* index of the source tag */
  size_t offset; /* in the plain translation */
};

/* A space the source got for a code standing for a word break: beside
 * source tag `tag`, after it or before it. */
struct xmt_break {
  size_t tag;
  int space_after;
};

/* Engine probes: words of a segment sent to the engine on their own, whose
 * translation, found in the segment's, anchors a tag. SPAN: the content
 * of a pair; CONTEXT: the same with the word before it, right after the
 * SPAN probe, for when that one is not found; BEFORE and AFTER: the words
 * right before or after a placeholder (or isolated code). */
enum xmt_probe_kind {
  XMT_PROBE_SPAN,
  XMT_PROBE_CONTEXT,
  XMT_PROBE_BEFORE,
  XMT_PROBE_AFTER
};
struct xmt_probe {
  enum xmt_probe_kind kind;
  size_t start, end;  /* the words probed, bytes of the core */
  size_t tag;         /* SPAN: the pair's OPEN; else the placeholder */
  size_t parent;      /* the SPAN probe of the innermost pair around it
                         (SIZE_MAX: none) */
  int literal;        /* nothing to translate: the words are their own
                         translation, not sent */
  const char *answer; /* its translation (NULL: none), set before anchoring */
  size_t answer_len;
};

/* A word of a text with its match keys (offsets into keys). */
struct xmt_probe_word {
  size_t start, end;
  size_t fold, fold_len; /* case-folded, diacritics removed */
  size_t stem, stem_len; /* the folded Snowball stem */
  int word;              /* a letter or a digit in it */
};
struct xmt_probe_words {
  struct xmt_probe_word *w;
  size_t n, cap;
  struct xmt_buf keys;
};
struct xmt_anchor;
struct sb_stemmer;

/* Scratch reused from segment to segment. */
struct xmt_placer {
  xmt_tokens *stok, *ttok;
  xmt_alignment *links;
  xmt_segment *seg;
  struct xmt_buf text; /* the target text, or the plain answer */
  struct xmt_found *found;
  size_t nfound, found_cap;
  /* word breaks */
  xmt_segment *spaced, *spare;
  struct xmt_break *breaks;
  size_t nbreaks, breaks_cap;
  unsigned char *marks; /* per source tag */
  size_t marks_cap;
  size_t *pairs; /* per source tag: xmt_segment_pairs */
  size_t pairs_cap;
  /* codes looked up by identity (place.c), so that no tag walks the tags */
  struct xmt_code_ref *refs;
  size_t refs_cap;
  size_t *map; /* per source tag: its like in a target */
  size_t map_cap;
  unsigned char *taken; /* per source tag: found in a mask or raw answer */
  size_t taken_cap;
  unsigned char *noted; /* per byte of a target: a break's space */
  size_t noted_cap;
  /* probes */
  struct xmt_probe *probes;
  size_t nprobes, probes_cap;
  struct xmt_probe_words tw, pw; /* the translation's words, a probe's */
  struct xmt_link *work;         /* the alignment being anchored */
  size_t nwork, work_cap;
  struct xmt_anchor *anchors;
  size_t nanchors, anchors_cap;
  xmt_alignment *anchored;
  struct sb_stemmer *stemmer; /* of stem_lang; NULL: prefixes only */
  char stem_lang[16];
};
xmt_status xmt_placer_init(struct xmt_placer *p);
void xmt_placer_free(struct xmt_placer *p);
/* Notes source tag `tag` found at byte off of a target. */
xmt_status xmt_placer_note_found(struct xmt_placer *p, size_t tag, size_t off);
/* The placer's own links (filled by a caller, read by placing), and the
 * text a decode left (the plain answer): for the pipeline's rooms, which
 * leave the placer's other fields to place.c and the probes' rooms. */
xmt_alignment *xmt_placer_links(struct xmt_placer *p);
const char *xmt_placer_text(const struct xmt_placer *p, size_t *len);

/* Codes by identity: tags sorted by kind, markup and id, to find a tag's
 * like in another segment by binary search (place.c); a walk of the other
 * segment for each tag took quadratic time in a segment of many codes. */
struct xmt_code_ref {
  enum xmt_tag_kind kind;
  const char *markup, *id; /* markup NULL: compared by kind and id only */
  size_t markup_len, index;
};
int xmt_code_ref_cmp(const struct xmt_code_ref *a,
                     const struct xmt_code_ref *b);
/* The tags of seg (only those of the core lead..lead+core_len when core)
 * as refs at p->refs + at, sorted; returns how many. */
size_t xmt_code_refs(struct xmt_placer *p, size_t at, const xmt_segment *seg,
                     int with_markup, int core, size_t lead, size_t core_len);
/* Room for n refs in p->refs. */
xmt_status xmt_code_refs_room(struct xmt_placer *p, size_t n);

/* The core of a segment's text: without leading and trailing whitespace,
 * which stays out of MT and is restored around the translation. */
void xmt_core_bounds(const char *text, size_t len, size_t *lead,
                     size_t *core_len);
/* 1 when text has something for MT: a letter of any script. */
int xmt_needs_mt(const char *text, size_t len);
/* 1 when the characters on both sides of byte o of text are word
 * characters (letters, digits, combining marks): o is inside a word
 * (place_breaks.c). */
int xmt_between_words(const char *text, size_t len, size_t o);
/* 1 when text has a letter or a digit. */
int xmt_has_word(const char *text, size_t len);
/* 1 when text has a character a reader would see: not white space of
 * any kind, a control, a format or a default-ignorable character. */
int xmt_has_visible(const char *text, size_t len);

/* out = src's text with the core replaced by tr, src's tags projected.
 * core_tokens/tr_tokens tokenize the core and tr (NULL: the default
 * tokenization); links index them (NULL: proportional positions). */
xmt_status xmt_place_project(struct xmt_placer *p, xmt_segment *out,
                             const xmt_segment *src, size_t lead,
                             size_t core_len, const char *tr, size_t trlen,
                             const xmt_tokens *core_tokens,
                             const xmt_tokens *tr_tokens,
                             const xmt_alignment *links,
                             enum xmt_projection_rule rule);

/* Word breaks: out = src with a space in the core wherever a code that
 * stands for a break between words (a placeholder or isolated code: br,
 * img, x, ph, bx, ex, it; an HTML sup or sub pair) sits between two word
 * characters, so that the engine sees two words; *out_core_len is the
 * core's new length and p->breaks records the spaces. Formatting inside a
 * word (un<b>believ</b>able) stays joined. */
xmt_status xmt_break_segment(struct xmt_placer *p, const xmt_segment *src,
                             size_t lead, size_t core_len, xmt_segment *out,
                             size_t *out_core_len);
/* The core of xmt_break_segment's out alone, into out (reset first):
 * the text an engine is asked, without building the spaced segment. */
xmt_status xmt_break_text(struct xmt_placer *p, const xmt_segment *src,
                          size_t lead, size_t core_len, struct xmt_buf *out);
/* Takes the spaces of p->breaks out of seg, a projection of the spaced
 * segment: where a space is next to its tag in the target, the tag stays
 * and the space goes. src is the segment the breaks were made from. */
xmt_status xmt_break_unspace(struct xmt_placer *p, const xmt_segment *src,
                             xmt_segment *seg);

/* Stand-ins (place_standin.c): a short message whose codes are all
 * placeholders, its core with a number for each, into out; 1 when it gets
 * one (*st: XMT_OK, or why not). */
int xmt_standin_request(const xmt_segment *src, size_t lead, size_t core_len,
                        struct xmt_buf *out, xmt_status *st);
/* Moves the placeholders of target, projected from src, to where ans, the
 * engine's answer to xmt_standin_request's text, has their numbers, when
 * ans is target's text with them; *placed: how many it moved (0: target
 * is as it was). */
xmt_status xmt_standin_place(struct xmt_placer *p, xmt_segment *target,
                             const xmt_segment *src, size_t lead,
                             size_t core_len, const char *ans, size_t alen,
                             size_t *placed);

/* Probes of the core of seg (spaced) into p->probes: the content of each
 * pair that neither covers the whole core nor cuts a word, outer pairs
 * first, each followed by its context probe; up to three words (then the
 * one word) on the side of each placeholder the projector looks at. */
xmt_status xmt_probe_plan(struct xmt_placer *p, const xmt_segment *seg,
                          size_t lead, size_t core_len);
/* Anchors the tags of probes (of a core planned as above, answers set)
 * in the core's translation tr: where a probe's translation is found in tr
 * (exactly, then folded for case and diacritics, then by stem or a shared
 * prefix), within its parent's match and nearest to where links put it, the
 * links are edited so that min-max projection puts the tag there: the probed
 * source tokens link only into the match, no other source token links into it.
 * links may be NULL (proportional positions). ctok and ttok tokenize the core
 * and tr as links do. lang is the target language (for stems).
 * *anchored grows by the tags anchored. */
xmt_status xmt_probe_anchor(struct xmt_placer *p, const char *lang,
                            const struct xmt_probe *probes, size_t nprobes,
                            const xmt_tokens *ctok, const char *tr,
                            size_t trlen, const xmt_tokens *ttok,
                            const xmt_alignment *links, xmt_alignment *out,
                            size_t *anchored);

/* Mask mode: the core with each tag as a token "XMT<n>X" (n the tag's
 * index in src), spaced from the words around it. */
xmt_status xmt_mask_encode(const xmt_segment *src, size_t lead, size_t core_len,
                           struct xmt_buf *out);
/* Raw mode: the core as XLIFF inline markup. */
xmt_status xmt_raw_encode(struct xmt_placer *p, const xmt_segment *src,
                          size_t lead, size_t core_len, struct xmt_buf *out);
/* Decode an answer: tags found become the target's, spurious ones are
 * dropped and missing ones appended to the core (*repairs counts both).
 * XMT_ERR_INLINE when the result is not well nested or (raw) does not
 * parse; p->text then holds the plain answer to project instead. */
xmt_status xmt_mask_decode(struct xmt_placer *p, xmt_segment *out,
                           const xmt_segment *src, size_t lead, size_t core_len,
                           const char *tr, size_t trlen, size_t *repairs);
xmt_status xmt_raw_decode(struct xmt_placer *p, xmt_segment *out,
                          const xmt_segment *src, size_t lead, size_t core_len,
                          const char *tr, size_t trlen, size_t *repairs);

/* --- Checks shared with the review report (check.c) -----------------------
 */

/* 1 when t is one inline element: the end tag of a g or mrk pair is not,
 * nor a comment or processing instruction kept as a code. */
int xmt_check_counts_as_element(const struct xmt_tag *t);
/* Names in what the first inline code of a that b lacks (by element and
 * id); returns 1 when there is one, 0 when none, -1 out of memory. */
int xmt_check_missing_code(const xmt_segment *a, const xmt_segment *b,
                           char *what, size_t size);
/* match[i] (room for every tag of a): the tag of b that tag i of a is
 * taken to be, or SIZE_MAX. Only inline elements match: the k-th of a
 * with a name and id, the k-th of b with them. In n log n. */
xmt_status xmt_check_match_codes(const xmt_segment *a, const xmt_segment *b,
                                 size_t *match);

#endif /* XMT_FILTER_PRIVATE_H */
