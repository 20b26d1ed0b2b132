/* xmt_filter.h -- the document-level filter: MT backends, the translate
 * pipeline and document checks.
 *
 * A filter handle holds the settings of a run (languages, backend, how
 * targets are written) and the detail of its last error. Handles are
 * independent: two documents translate in two threads with two handles. */
#ifndef XMT_FILTER_H
#define XMT_FILTER_H

#include <stddef.h>
#include <xmt_projector.h>
#include <xmt_xliff.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A function kept under its old name for one release after a rename: the
 * compiler warns, naming the new one. */
#if defined(__GNUC__)
#define XMT_DEPRECATED(use) __attribute__((deprecated("use " use)))
#else
#define XMT_DEPRECATED(use)
#endif

/* --- MT backends ----------------------------------------------------------
 * A backend is a const vtable plus a user pointer. The library calls open
 * once per run, translate once per batch, close once at the end. */

/* Version 3 added translate_markup; plug-ins of version 2 still load. */
#define XMT_BACKEND_ABI_VERSION 3

/* One segment to translate. Strings live only during translate(). */
struct xmt_mt_request {
  const char *segment_id; /* "unit-id" or "unit-id#mid", for messages */
  const char *text;       /* UTF-8 plain text, NUL-terminated */
  size_t len;
  const char *source_language;
  const char *target_language;
};

/* Where a backend puts its answer for one request; filled only through the
 * setters below, which copy their arguments. */
typedef struct xmt_mt_response xmt_mt_response;
/* The translation, UTF-8 (XMT_ERR_ENCODING otherwise). */
XMT_API xmt_status xmt_mt_response_set_text(xmt_mt_response *response,
                                            const char *utf8, size_t len);
/* Marks this segment as failed (a crash, a timeout, a refused request...).
 * The run goes on; the segment gets no new target, is reported, and the run
 * ends with XMT_ERR_PARTIAL. */
XMT_API xmt_status xmt_mt_response_set_error(xmt_mt_response *response,
                                             const char *message);
/* The same for a failure of the engine itself rather than of this
 * segment: it cannot be started or reached, it died, it timed out. A
 * batch none of whose segments got a translation, failed this way, is a
 * failed batch; XMT_ENGINE_FAILURES of them in a row stop the run from
 * asking the engine any more (unless XMT_FILTER_KEEP_GOING): the segments
 * left get no target, and the run's XMT_ERR_PARTIAL message gives the
 * reason once instead of one failure per segment. */
XMT_API xmt_status xmt_mt_response_set_engine_error(xmt_mt_response *response,
                                                    const char *message);
#define XMT_ENGINE_FAILURES 3
/* Optional word alignment of the translation with the request text:
 * pharaoh holds "i-j" pairs, source token index first. source_tokens and
 * target_tokens are the space-separated tokenizations the indexes refer to
 * (Moses style, mapped onto the raw strings as xmt_tokens_map does), or
 * NULL for the project's default tokenization. Checked when used: a bad
 * alignment is reported and replaced by the built-in aligner's. */
XMT_API xmt_status xmt_mt_response_set_alignment(xmt_mt_response *response,
                                                 const char *pharaoh,
                                                 const char *source_tokens,
                                                 const char *target_tokens);
/* Optional engine score of the translation (higher is better). */
XMT_API xmt_status xmt_mt_response_set_score(xmt_mt_response *response,
                                             double score);

/* What open() gets. All strings live only during open(): copy what you
 * keep. */
struct xmt_backend_config {
  const char *spec; /* the part after the colon of "--mt name:spec", or NULL */
  const char *const *options;  /* "key=value" strings (--mt-option), NULL-
                                  terminated; never NULL itself */
  const char *source_language; /* as set on the filter; may be NULL */
  const char *target_language;
  unsigned timeout_ms; /* per batch; 0 means the backend's default */
  /* The largest answer to one request, in bytes (see
   * xmt_filter_set_max_answer_size); the backend stops reading an answer
   * that grows past it. Never 0 when the library calls open(). */
  size_t max_answer_bytes;
  /* Non-zero once the run is to end at once (xmt_filter_interrupt;
   * read it with __atomic_load_n or as volatile): a backend that waits
   * looks at it at least every 100 ms and then returns non-zero from
   * translate. NULL: never. */
  const int *interrupted;
};

struct xmt_backend {
  int abi_version; /* XMT_BACKEND_ABI_VERSION */
  const char *name;
  /* Creates the backend state for a run. Returns 0 on success; else writes
   * a message into errbuf (errlen bytes, NUL-terminated). */
  int (*open)(void *user, const struct xmt_backend_config *config, void **state,
              char *errbuf, size_t errlen);
  /* Answers n requests, one response each. A segment the engine could not
   * translate gets xmt_mt_response_set_error(); the call still returns 0.
   * Non-zero aborts the whole run (nothing is written): keep it for
   * interruption and for states the backend cannot recover from. */
  int (*translate)(void *state, const struct xmt_mt_request *requests,
                   xmt_mt_response *const *responses, size_t n);
  void (*close)(void *state);
  /* Optional (NULL: such requests go to translate as text). Answers
   * requests whose text is XLIFF 1.2 inline markup (--tags raw and auto),
   * with the same markup placed in the translation, as the engine's own
   * formatter would; as translate otherwise. */
  int (*translate_markup)(void *state, const struct xmt_mt_request *requests,
                          xmt_mt_response *const *responses, size_t n);
};

/* A built-in backend by name ("identity", "pseudo", "cmd", "apertium",
 * "http", "plugin"), or NULL. */
XMT_API const struct xmt_backend *xmt_backend_builtin(const char *name);

/* A plug-in for the "plugin" backend is a shared library that exports one
 * function, of type xmt_backend_plugin_fn, returning its vtable (which
 * lives as long as the library is loaded). Its name, the same as an
 * identifier to define it with and as a string to look it up with: */
#define XMT_BACKEND_PLUGIN_ENTRY xmt_backend_plugin
#define XMT_BACKEND_PLUGIN_SYMBOL "xmt_backend_plugin"
typedef const struct xmt_backend *(*xmt_backend_plugin_fn)(void);

/* --- Filter ----------------------------------------------------------------
 */

typedef struct xmt_filter xmt_filter;

XMT_API xmt_filter *xmt_filter_new(void);
XMT_API void xmt_filter_free(xmt_filter *filter);
XMT_API const struct xmt_error *xmt_filter_error(const xmt_filter *filter);

/* Languages of the run (BCP 47). Either may be NULL to take the document's
 * own; a document declaring another language is an error. Copied. */
XMT_API xmt_status xmt_filter_set_languages(xmt_filter *filter,
                                            const char *source,
                                            const char *target);
/* The backend; spec (the part after the colon of "--mt name:spec", may be
 * NULL) goes to its open(). Copied; the backend vtable and user must outlive
 * the filter. */
XMT_API xmt_status xmt_filter_set_backend(xmt_filter *filter,
                                          const struct xmt_backend *backend,
                                          void *user, const char *spec);
/* Adds a "key=value" option for the backend's open() (--mt-option). */
XMT_API xmt_status xmt_filter_add_backend_option(xmt_filter *filter,
                                                 const char *option);
/* Per-batch timeout passed to the backend, at most XMT_MAX_TIMEOUT_MS (a
 * day); 0 leaves it to the backend. XMT_ERR_USAGE for a longer one. */
#define XMT_MAX_TIMEOUT_MS 86400000u
XMT_API xmt_status xmt_filter_set_timeout(xmt_filter *filter,
                                          unsigned timeout_ms);
/* The largest answer taken from the engine for one request, in bytes
 * (0: the default, XMT_DEFAULT_MAX_ANSWER). An answer is also refused when
 * it is more than XMT_ANSWER_GROWTH times as long as its request plus
 * XMT_ANSWER_SLACK bytes: that is no translation, and would cost the
 * aligner its memory. A refused answer fails its segment, not the run.
 * XMT_ERR_USAGE for more than PTRDIFF_MAX bytes, which no buffer holds. */
#define XMT_DEFAULT_MAX_ANSWER ((size_t)16 << 20)
#define XMT_ANSWER_GROWTH 16
#define XMT_ANSWER_SLACK 1024
XMT_API xmt_status xmt_filter_set_max_answer_size(xmt_filter *filter,
                                                  size_t bytes);
/* The state and state-qualifier written on targets; NULL writes none.
 * Default: "needs-review-translation" and "mt-suggestion". Values must be
 * XLIFF 1.2 ones or start with "x-". */
XMT_API xmt_status xmt_filter_set_target_state(xmt_filter *filter,
                                               const char *state,
                                               const char *qualifier);

#define XMT_FILTER_OVERWRITE 0x1u /* replace existing non-empty targets */
#define XMT_FILTER_ALT_TRANS 0x2u /* write alt-trans proposals, not targets */
/* after a successful run, write the self-trained aligner's model, grown by
 * the document's links, back to the aligner model file (created when it
 * does not exist yet) */
#define XMT_FILTER_UPDATE_MODEL 0x4u
/* a unit without <seg-source> that is segmented for MT gets a new
 * <seg-source> and a target of mrk segments, as Okapi Tikal -seg writes
 * (XLIFF 1.2); in XLIFF 2 a unit's only <segment> whose canResegment is
 * not "no" becomes a <segment> per sentence with <ignorable>s between
 * them; without it, one whole <target> */
#define XMT_FILTER_SEG_SOURCE 0x8u
/* units whose target is written get approved="yes" (what Translate
 * Toolkit-based tools need to take a target) */
#define XMT_FILTER_APPROVED 0x10u
/* a reference to an external or undeclared entity in translatable text is
 * kept as written in the translation, as an inline code, instead of
 * stopping the run (xmt_xliff_reader_keep_entities) */
#define XMT_FILTER_KEEP_ENTITIES 0x20u
/* the engine's processes and connections stay open from one run to the
 * next, so that many documents translated with one filter start the
 * engine once (see xmt_filter_close_engines) */
#define XMT_FILTER_KEEP_ENGINES 0x40u
/* the dictionaries the aligner read are kept in memory for the next run
 * (xmt_lexicon_new): the same prior links, without reading the files
 * again */
#define XMT_FILTER_KEEP_DICTIONARIES 0x80u
/* a run goes on asking an engine that failed XMT_ENGINE_FAILURES batches
 * in a row (see xmt_mt_response_set_engine_error), each segment failing
 * on its own, instead of stopping */
#define XMT_FILTER_KEEP_GOING 0x400u
/* ICU MessageFormat messages (Angular's plurals and selects) are text like
 * any other: without it only their case bodies are translated, their
 * syntax kept as it is, with or without segmentation (see
 * xmt_segmenter_set_flags) */
#define XMT_FILTER_NO_ICU 0x1000u
/* Sets the XMT_FILTER_* flags (here and with HTML below), replacing those
 * set before. XMT_ERR_USAGE, and nothing changed, for a bit outside
 * XMT_FILTER_KNOWN_FLAGS. */
XMT_API xmt_status xmt_filter_set_flags(xmt_filter *filter, unsigned flags);

/* Closes the backend states a run left open under XMT_FILTER_KEEP_ENGINES.
 * They are also closed by xmt_filter_free(), by a run that fails, and by
 * a change of backend, backend options, languages or timeout, all of which
 * the states were opened with. An engine that carries context from one
 * segment to the next (Apertium's tagger does, a little) may translate a
 * segment slightly differently after other documents than in a fresh
 * process. */
XMT_API void xmt_filter_close_engines(xmt_filter *filter);

/* Starts the backend's first engine and loads the segmentation rules now,
 * with the filter's settings, instead of in the first run: a server calls
 * it before taking requests, so that the first one does not wait for
 * start-up and a missing engine is told at once. Needs
 * XMT_FILTER_KEEP_ENGINES (XMT_ERR_USAGE otherwise); does nothing when an
 * engine is already open. A backend that cannot start gives
 * XMT_ERR_BACKEND with its message, as a run would. */
XMT_API xmt_status xmt_filter_start_engines(xmt_filter *filter);

/* How inline codes travel through MT. */
enum xmt_tag_mode {
  XMT_TAGS_PROJECT = 0, /* MT sees plain text; tags projected back over word
                           alignments (Hanneman & Dinu 2020, 4.1) */
  XMT_TAGS_MASK = 1,    /* tags become tokens XMT<n>X in the text; missing
                           ones are appended, spurious ones dropped (4.2) */
  XMT_TAGS_RAW = 2      /* MT sees XLIFF inline markup; the answer is parsed,
                           repaired, or projected when beyond repair */
};
XMT_API xmt_status xmt_filter_set_tag_mode(xmt_filter *filter,
                                           enum xmt_tag_mode mode);

/* Segments per backend call (1 to XMT_MAX_BATCH_SIZE), and per window (1
 * or more): the pipeline holds one window of units at a time, translates
 * it, aligns it and writes it, so memory stays bounded on any document.
 * XMT_ERR_USAGE, and nothing changed, for 0 or a batch too large. */
#define XMT_DEFAULT_BATCH_SIZE 64
#define XMT_MAX_BATCH_SIZE 1000000
#define XMT_DEFAULT_WINDOW 4096
XMT_API xmt_status xmt_filter_set_batch_size(xmt_filter *filter,
                                             size_t segments);
XMT_API xmt_status xmt_filter_set_window(xmt_filter *filter, size_t segments);

/* Backend states (engine processes, connections) translating a window's
 * batches at once, each in a thread of its own (default 1; at most
 * XMT_MAX_ENGINE_JOBS). The states beyond the first are opened when a
 * window first has that many batches. With more than one, a backend's
 * translate is called from several threads at once, never twice at once
 * on the same state. XMT_ERR_USAGE, and nothing changed, for 0 or more
 * than XMT_MAX_ENGINE_JOBS. */
#define XMT_MAX_ENGINE_JOBS 64
XMT_API xmt_status xmt_filter_set_engine_jobs(xmt_filter *filter, size_t jobs);

/* Where word alignments come from when the backend gives none. */
enum xmt_aligner_mode {
  XMT_ALIGNER_SELF = 0,  /* the built-in aligner trained on the window's own
                            source and MT output (seeded by model_path when
                            not NULL); the default */
  XMT_ALIGNER_MODEL = 1, /* a saved model only, no training */
  XMT_ALIGNER_NONE = 2   /* none: proportional positions */
};
XMT_API xmt_status xmt_filter_set_aligner(xmt_filter *filter,
                                          enum xmt_aligner_mode mode,
                                          const char *model_path);
/* Writes aligner's model (xmt_projector.h: vocabulary, both directions,
 * tension, mean length ratio, options) to path, through a temporary file
 * renamed at the end. An aligner given no pairs saves an empty model (no
 * document, no word, the languages set), which loads as a new aligner
 * that aligns nothing. XMT_ERR_USAGE with pairs not yet trained,
 * XMT_ERR_WRITE when it cannot be written. */
XMT_API xmt_status xmt_aligner_save(xmt_aligner *aligner, const char *path);
/* Reads a model written by xmt_aligner_save into an aligner that has no
 * pairs and no model yet. The model's options replace the aligner's,
 * except threads and seed_weight. XMT_ERR_IO when path cannot be read,
 * XMT_ERR_FORMAT when it is not a model, is corrupt, or is of another
 * format version (the message says which). Declared here, with the
 * filters, because the files are opened by filter/lexicon/: the aligner
 * itself opens none. */
XMT_API xmt_status xmt_aligner_load(xmt_aligner *aligner, const char *path);
/* Adds to aligner (xmt_projector.h) a source of prior word translations,
 * read when training: "auto" (every installed dictionary of the language
 * pair: FreeDict dictd files under /usr/share/dictd, Apertium bilingual
 * dictionaries under /usr/share/apertium), a file (FreeDict
 * .index/.dict.dz, Apertium .autobil.bin, or TSV "source TAB target [TAB
 * weight]"), or "none", which removes those added before. Copied. Errors
 * reading a file are reported by xmt_aligner_train. Declared here, with
 * the filters, because the files are read by filter/lexicon/: the
 * aligner itself reads none. */
XMT_API xmt_status xmt_aligner_add_dictionary(xmt_aligner *aligner,
                                              const char *spec);
/* The built-in aligner's model (default: xmt_aligner_options_init's) and its
 * sources of prior word translations (xmt_aligner_add_dictionary: "auto",
 * "none" or a file; default "auto"). Copied. */
XMT_API xmt_status xmt_filter_set_aligner_model(xmt_filter *filter,
                                                enum xmt_align_model model);
XMT_API xmt_status xmt_filter_add_dictionary(xmt_filter *filter,
                                             const char *spec);
/* Projection rule and symmetrization of the built-in aligner's two
 * directions. Defaults: XMT_RULE_MINMAX, XMT_SYM_GROW_DIAG_FINAL_AND.
 * XMT_ERR_USAGE, and nothing changed, when either is unknown. */
XMT_API xmt_status
xmt_filter_set_projection(xmt_filter *filter, enum xmt_projection_rule rule,
                          enum xmt_symmetrization symmetrization);

/* Engine probes (projection only): the content of each tagged span and
 * the words around each placeholder go to the engine as extra requests
 * in the same batches; where their translation is found in the segment's,
 * it anchors the tag, and the alignment decides the rest. They never
 * change the translation, and one that fails is ignored. */
enum xmt_probes {
  XMT_PROBES_AUTO = 0, /* when tags are projected (the default) */
  XMT_PROBES_OFF = 1
};
XMT_API xmt_status xmt_filter_set_probes(xmt_filter *filter,
                                         enum xmt_probes mode);

/* A translation memory cache of the engine's answers, kept between runs
 * and shared by processes: "sqlite:PATH" (created if missing), or
 * "postgresql:CONNINFO" (a libpq connection string or postgresql:// URI;
 * empty: the PG* environment) for many machines, or NULL for none (the
 * default). XMT_ERR_USAGE for another scheme. A request already answered by the
 * same engine (backend, spec and options), in the same languages, is not sent
 * again. max_entries > 0 bounds the cache: the least recently used entries go
 * at the end of each run. */
XMT_API xmt_status xmt_filter_set_cache(xmt_filter *filter, const char *uri,
                                        size_t max_entries);

/* Sentence segmentation of the units translated. Default: none in the
 * library (the xliffmt command segments). srx_path NULL: the shipped
 * rules. Copied; the rules load at the next run. */
enum xmt_segmentation {
  XMT_SEGMENT_NONE = 0,        /* translate units as they are */
  XMT_SEGMENT_UNSEGMENTED = 1, /* segment units without <seg-source> */
  XMT_SEGMENT_ALL = 2          /* resegment every unit */
};
XMT_API xmt_status xmt_filter_set_segmentation(xmt_filter *filter,
                                               enum xmt_segmentation mode,
                                               const char *srx_path);

/* Counts of the last run. */
struct xmt_filter_stats {
  size_t units;            /* trans-units read */
  size_t translated_units; /* units that got a target or alt-trans */
  size_t skipped_units;    /* translate="no", already translated, or
                              no segment translated */
  size_t segments;         /* segments sent to the backend */
  size_t failed_segments;  /* segments left without a translation */
  size_t bytes_in;
  size_t copied_segments;       /* nothing to translate: source copied */
  size_t deduplicated_segments; /* answered by an identical segment */
  size_t mt_calls;              /* backend translate() calls */
  size_t projected_segments;    /* tags placed over word alignments */
  size_t repaired_segments;     /* mask/raw answers with tags repaired */
  size_t probe_requests;        /* probes sent to the backend */
  size_t probe_anchored_tags;   /* tags placed where a probe was found */
  size_t sanitized_segments;    /* answers with characters XML cannot carry
                                   (or C1 controls), which were removed */
  size_t cache_hits;            /* requests answered by the cache */
  double engine_seconds;        /* wall time with requests at the engine */
  size_t cached_alignments;     /* segments whose word alignment the cache
                                   kept from an earlier run of the same
                                   document, the aligner not trained */
  size_t filled_copies;         /* XLIFF 2 targets in state initial (or
                                   none) that were a copy of their source,
                                   as xliff-simple-merge leaves a new
                                   message, translated */
  size_t source_characters;     /* characters (code points) of the plain
                                   text of the segments to translate, each
                                   time it occurs (sent to the backend, or
                                   answered by an identical segment or the
                                   cache): codes, the white space around a
                                   segment and segments copied not
                                   counted. What DeepL bills. */
};

/* Called after each backend call; non-zero stops the run (nothing is
 * written, XMT_ERR_ABORTED). */
typedef int (*xmt_filter_progress_fn)(void *user,
                                      const struct xmt_filter_stats *stats);
/* Called for each segment left without a translation, except those of
 * an engine the run stopped asking (XMT_FILTER_KEEP_GOING): the run's
 * error counts them and gives the reason. Strings live only during the
 * call. */
typedef void (*xmt_filter_failure_fn)(void *user, const char *segment_id,
                                      unsigned long line, const char *message);
/* Either callback may be NULL; any value is good (XMT_OK). */
XMT_API xmt_status xmt_filter_set_callbacks(xmt_filter *filter,
                                            xmt_filter_progress_fn progress,
                                            xmt_filter_failure_fn on_failure,
                                            void *user);
/* Called for each segment translated with a warning (an engine answer
 * with characters XML cannot carry, removed); gets the user pointer of
 * xmt_filter_set_callbacks. NULL for none; any value is good (XMT_OK). */
XMT_API xmt_status xmt_filter_set_warning_callback(
    xmt_filter *filter, xmt_filter_failure_fn on_warning);
/* Asks the run under way on the filter to end at once: it stops within a
 * fraction of a second wherever it is (waiting for the engine, training
 * the aligner, placing codes, waiting for the cache's lock), writes no
 * output and returns XMT_ERR_ABORTED. Async-signal-safe and callable from
 * any thread: meant for a SIGINT or SIGTERM handler. The request holds
 * until the next run begins. */
XMT_API void xmt_filter_interrupt(xmt_filter *filter);
XMT_API const struct xmt_filter_stats *
xmt_filter_stats(const xmt_filter *filter);

/* Translates in_path into out_path (may be "-" for stdout). The output is
 * written to a temporary file beside out_path and renamed on success, so a
 * failed run leaves no output file. Segments the backend could not
 * translate get no new target (or, when other segments of their unit were
 * translated, their source text in a target marked needs-translation); the
 * output is still written, and the status is XMT_ERR_PARTIAL. */
XMT_API xmt_status xmt_filter_translate_file(xmt_filter *filter,
                                             const char *in_path,
                                             const char *out_path);

/* --- Offline MT --------------------------------------------------------------
 * For MT that runs elsewhere: extract the segments the pipeline would send,
 * translate them anywhere, merge the translations back. Extract then merge
 * of the untouched text gives the document translate gives with the
 * identity backend. Both use the filter's settings (segmentation, tag
 * mode, aligner, target state).
 *
 * Names of the functions on files: xmt_filter_*_segments_file go between
 * an XLIFF document and segment lines (TSV or JSON lines);
 * xmt_html_*_file between an HTML page and XLIFF (below). */

enum xmt_segments_format {
  XMT_SEGMENTS_TSV = 0,  /* "ID<TAB>TEXT", \t \n \r \\ escaped */
  XMT_SEGMENTS_JSONL = 1 /* {"id":"...","text":"..."} per line */
};
/* Writes one line per segment to translate (segments with nothing to
 * translate left out; identical ones not merged) to out_path, through a
 * temporary file, after a header line: "#xliffmt-segments KEY=VALUE..."
 * (TSV) or {"xliffmt":"segments",...} (JSON lines), the document's name,
 * languages, segment count and digest. */
XMT_API xmt_status xmt_filter_extract_segments_file(
    xmt_filter *filter, const char *in_path, const char *out_path,
    enum xmt_segments_format format);
/* Translates in_path with the translations of a segments file (TSV or JSON
 * lines, by id; JSON lines may carry "alignment", "source_tokens" and
 * "target_tokens"). A header of other segments or another language pair
 * than the run's is XMT_ERR_USAGE at its line, nothing written. alignments
 * (Pharaoh) and source_tokens/target_tokens (space-separated tokens), when not
 * NULL, are files parallel to the translations, line by line. A segment without
 * a translation is a failed segment (XMT_ERR_PARTIAL), as in
 * xmt_filter_translate_file. */
XMT_API xmt_status xmt_filter_merge_segments_file(
    xmt_filter *filter, const char *in_path, const char *translations,
    const char *alignments, const char *source_tokens,
    const char *target_tokens, const char *out_path);

/* The same under their names of xliffmt 0.1, for one more release. */
XMT_API xmt_status xmt_filter_extract_file(xmt_filter *filter,
                                           const char *in_path,
                                           const char *out_path,
                                           enum xmt_segments_format format)
    XMT_DEPRECATED("xmt_filter_extract_segments_file");
XMT_API xmt_status xmt_filter_merge_file(
    xmt_filter *filter, const char *in_path, const char *translations,
    const char *alignments, const char *source_tokens,
    const char *target_tokens, const char *out_path)
    XMT_DEPRECATED("xmt_filter_merge_segments_file");

/* --- Checks -----------------------------------------------------------------
 */

enum xmt_severity { XMT_WARNING = 0, XMT_ERROR = 1 };

/* A problem found in a document. Strings live only during the callback. */
struct xmt_problem {
  enum xmt_severity severity;
  const char *file;
  unsigned long line;
  unsigned long column;
  const char *unit_id; /* NULL when not inside a unit */
  const char *message;
};
typedef int (*xmt_problem_fn)(void *user, const struct xmt_problem *problem);

/* Inline codes counted by element. */
enum xmt_code_kind {
  XMT_CODE_G,
  XMT_CODE_X,
  XMT_CODE_BX,
  XMT_CODE_EX,
  XMT_CODE_BPT,
  XMT_CODE_EPT,
  XMT_CODE_PH,
  XMT_CODE_IT,
  XMT_CODE_MRK,
  XMT_CODE_OTHER,
  XMT_CODE_KINDS
};
/* Element name of a code kind, e.g. "bpt". */
XMT_API const char *xmt_code_kind_name(enum xmt_code_kind kind);

struct xmt_check_report {
  const char *encoding;
  size_t files;
  size_t units;
  size_t translatable_units;
  size_t units_with_target;
  size_t segments;
  size_t words;                 /* in translatable source segments */
  size_t codes[XMT_CODE_KINDS]; /* in source segments */
  size_t errors;
  size_t warnings;
  const char *version; /* of the document: "1.0", "1.1" or "1.2" */
  /* Of codes[]: bx, ex and it whose partner is in another segment or
   * unit (valid XLIFF: information, not a problem). */
  size_t isolated_codes;
};

/* Reads path and fills report; each problem also goes to on_problem (may be
 * NULL). An XLIFF 1.2 or 2.x document is validated against the OASIS
 * schemas of its namespace first (streamed, offline), each schema error a
 * problem (XMT_FILTER_SCHEMA_STRICT: the strict 1.2 schema). Returns XMT_OK
 * when the document could be read to the end (problems are counted in the
 * report), else the status of the fatal error. */
XMT_API xmt_status xmt_filter_check_file(xmt_filter *filter, const char *path,
                                         struct xmt_check_report *report,
                                         xmt_problem_fn on_problem, void *user);

/* --- Segmentation -----------------------------------------------------------
 * Sentence segmentation by SRX 2.0 rules (Okapi's okpsrx extensions
 * included), regular expressions compiled with ICU. A segmenter holds one
 * rule set, the language it segments and the detail of its last error; it
 * is not shared between threads. */

/* A byte range [start, end) of a text. */
struct xmt_span {
  size_t start;
  size_t end;
};

typedef struct xmt_segmenter xmt_segmenter;

/* A segmenter loaded with the shipped rules (built into the library; also
 * installed as PKGDATADIR/xliffmt.srx to copy and adapt). NULL when out of
 * memory. */
XMT_API xmt_segmenter *xmt_segmenter_new(void);
XMT_API void xmt_segmenter_free(xmt_segmenter *s);
XMT_API const struct xmt_error *xmt_segmenter_error(const xmt_segmenter *s);
/* Replaces the rules with those of an SRX file. On failure the previous
 * rules stay; the error names the file and line, and for a bad regular
 * expression the languagerule, the rule and the character position:
 * XMT_ERR_IO (unreadable), XMT_ERR_XML (not well-formed), XMT_ERR_FORMAT
 * (not SRX, bad regular expression, unknown languagerulename). */
XMT_API xmt_status xmt_segmenter_load_srx(xmt_segmenter *s, const char *path);
/* The same from memory; name (copied; may be NULL) stands for the file in
 * messages. */
XMT_API xmt_status xmt_segmenter_load_srx_memory(xmt_segmenter *s,
                                                 const char *xml, size_t len,
                                                 const char *name);
/* The language (BCP 47, e.g. "en", "de-AT") whose rules apply, as the
 * maprules select them (all matching maps with cascade="yes", else the
 * first). Copied. Without it, split uses "und" and segment_unit the
 * source-language of the unit's file. */
XMT_API xmt_status xmt_segmenter_set_language(xmt_segmenter *s,
                                              const char *lang);
/* Splits UTF-8 text into sentences: *spans gets *nspans byte ranges, in
 * order, not overlapping, none empty; what lies between and around them is
 * whitespace the SRX trim options leave out (trimLeadingWhitespaces and
 * trimTrailingWhitespaces; without them segments keep their spaces and only
 * whitespace-only text yields no span). *spans is borrowed until the next
 * call on s. XMT_ERR_ENCODING for invalid UTF-8. */
XMT_API xmt_status xmt_segmenter_split(xmt_segmenter *s, const char *text,
                                       size_t len,
                                       const struct xmt_span **spans,
                                       size_t *nspans);
/* What xmt_segmenter_segment_unit cuts (default 0: both):
 * XMT_SEGMENTER_NO_SENTENCES: no sentences; only ICU messages cut a unit.
 * XMT_SEGMENTER_NO_ICU: ICU messages are text like any other.
 * An ICU MessageFormat plural, select or selectordinal message (as
 * Angular's extractor writes them: "{count, plural, =0 {no items} other
 * {<ph/> items}}", the variable a name or an inline code; no apostrophe
 * quoting) is cut so that only its case bodies and the text around it
 * are segments: braces, variable, keyword, offset and selectors lie
 * between the segments and stay as they are, a message nested in a body
 * too. A text whose braces do not pair up, a message with a code where
 * ICU wants none, or a pair of codes that would straddle a body's edge,
 * leaves the unit as without the flag. XMT_ERR_USAGE for unknown flags. */
#define XMT_SEGMENTER_NO_SENTENCES 0x1u
#define XMT_SEGMENTER_NO_ICU 0x2u
XMT_API xmt_status xmt_segmenter_set_flags(xmt_segmenter *s, unsigned flags);
/* Segments an unsegmented unit in place: afterwards
 * xmt_xliff_unit_segmented() is 1 and the unit has one segment per
 * sentence, with mids "0", "1"... as Okapi Tikal numbers them (a unit of one
 * sentence gets one). Inline codes are invisible to the rules; a boundary
 * never separates a code from the text it touches: a code touching one
 * sentence only goes with it, one between two sentences with no space goes
 * as the SRX formathandle says (closing codes before the break, opening and
 * isolated ones after, by default), codes in the whitespace between
 * sentences stay outside the segments. A g pair cut by a boundary (one
 * around several sentences too) becomes <bx/> and <ex/> with its id;
 * bpt/ept become <it pos="open|close">; a boundary inside a non-segment
 * <mrk> is dropped.
 * The writer then writes a <seg-source> after </source> with one
 * <mrk mtype="seg"> per segment and the whitespace between them outside the
 * mrks, and targets mirror it; an existing target equal to the source gets
 * the same mrks, any other existing target is kept as is. With resegment a
 * unit already segmented is segmented anew from its whole source; without,
 * it is left alone, as are units with translate="no" and units whose source
 * has no text. */
XMT_API xmt_status xmt_segmenter_segment_unit(xmt_segmenter *s,
                                              xmt_xliff_unit *unit,
                                              int resegment);

/* --- HTML -------------------------------------------------------------------
 * Pages are read by a preserving lexer: everything outside the translated
 * text is written back byte for byte. Text of block elements (p, li, td,
 * h1...) makes units whose inline elements (a, b, span...) become g/x/bx/ex/
 * it codes; alt, title, placeholder, aria-label (and WAI-ARIA's other
 * text: aria-description, -placeholder, -roledescription, -valuetext),
 * label, summary, button values and meta description/keywords make
 * attribute units. script, style,
 * template, translate="no" and class="notranslate" are never translated.
 * See xmt_html(3). */

/* Flags for xmt_filter_set_flags: leave pre elements, or code elements,
 * untranslated (an inline code element becomes one code). */
#define XMT_FILTER_HTML_SKIP_PRE 0x100u
#define XMT_FILTER_HTML_SKIP_CODE 0x200u
/* A page read as UTF-8 (declared so, or with a UTF-8 BOM) that holds bytes
 * which are not UTF-8 is an error (XMT_ERR_ENCODING, at the first such
 * byte); with this flag each such byte reads as U+FFFD instead, and the
 * count goes to the warning callback and xmt_html_stats. */
#define XMT_FILTER_HTML_REPLACE_INVALID 0x800u
/* xmt_filter_check_file validates an XLIFF 1.2 document against the
 * strict schema of XLIFF 1.2 instead of the transitional one. */
#define XMT_FILTER_SCHEMA_STRICT 0x2000u
/* Every XMT_FILTER_* flag: xmt_filter_set_flags refuses any other bit. */
#define XMT_FILTER_KNOWN_FLAGS 0x3FFFu

/* Non-zero when a document is HTML, judged on its first bytes (len of them,
 * 1 KB is plenty): a doctype, <html>, <head>, <body> or a common element
 * first; path's extension (.html, .htm, .xhtml; path may be NULL) decides
 * when the content does not. */
XMT_API int xmt_html_sniff(const char *bytes, size_t len, const char *path);

/* Counts of an extract or merge. */
struct xmt_html_stats {
  size_t units;             /* units of the page (text and attributes) */
  size_t attribute_units;   /* of which attribute values */
  size_t codes;             /* inline codes in the text units */
  size_t units_with_target; /* merge: units written from a target */
  size_t missing_targets;   /* merge: units left in the source language */
  size_t bytes_in;          /* size of the page */
  size_t invalid_bytes;     /* with XMT_FILTER_HTML_REPLACE_INVALID: bytes
                               of a UTF-8 page read as U+FFFD */
};

/* Writes the units of the page html_path as an XLIFF 1.2 document (one
 * unsegmented trans-unit per unit, id 1, 2... in page order of completion,
 * restype x-html-ELEMENT or x-html-ATTRIBUTE) to xliff_path ("-": standard
 * output), under a temporary name renamed on success. The languages are
 * the filter's; without a source language, <html lang> is used. stats may
 * be NULL. */
XMT_API xmt_status xmt_html_extract_file(xmt_filter *filter,
                                         const char *html_path,
                                         const char *xliff_path,
                                         struct xmt_html_stats *stats);

/* Writes html_path to out_path with the targets of xliff_path (as written
 * by xmt_html_extract_file from the same page) in place of its units, and
 * the root element's lang set to the filter's target language or else the
 * XLIFF's. A unit without a target keeps its source text and goes to
 * on_problem (may be NULL) as a warning; the page is still written and the
 * call returns XMT_ERR_PARTIAL. A trans-unit the page does not have, or
 * whose source differs from the page's, is an error (XMT_ERR_FORMAT, with
 * its line). */
XMT_API xmt_status xmt_html_merge_file(xmt_filter *filter,
                                       const char *html_path,
                                       const char *xliff_path,
                                       const char *out_path,
                                       struct xmt_html_stats *stats,
                                       xmt_problem_fn on_problem, void *user);

/* The same for a document of any format with units of its own (Word,
 * OpenDocument Text, HTML: not XLIFF, which has segments), by the format
 * table: an HTML page is extracted and merged by xmt_html_extract_file and
 * xmt_html_merge_file (its counts: attribute_units, invalid_bytes); a
 * document of another format: extract writes its units as XLIFF 1.2 (a
 * trans-unit per unit, the format's ids, datatype and codes; original: in_path;
 * the filter's languages, the source language required by formats that never
 * say it) to xliff_path; merge writes in_path to out_path with the targets of
 * xliff_path taken as a translation's would be, in the filter's target
 * language or else the XLIFF's. A trans-unit whose id the document does
 * not have, twice, or whose source differs from the document's is an
 * error (XMT_ERR_FORMAT, naming it and its line) and nothing is written;
 * a unit without a target keeps its source, goes to on_problem, and the
 * call returns XMT_ERR_PARTIAL. stats: units, codes (extract), units with
 * and without target (merge); may be NULL. */
XMT_API xmt_status xmt_filter_extract_units_file(xmt_filter *filter,
                                                 const char *in_path,
                                                 const char *xliff_path,
                                                 struct xmt_html_stats *stats);
XMT_API xmt_status xmt_filter_merge_units_file(
    xmt_filter *filter, const char *in_path, const char *xliff_path,
    const char *out_path, struct xmt_html_stats *stats,
    xmt_problem_fn on_problem, void *user);

/* Translates the page in_path into out_path ("-": standard output) with the
 * filter's backend: the page's units go through the run that translates
 * XLIFF, in memory, and their targets into the page, so segments, codes
 * and failures behave as for XLIFF. The target language is required;
 * XMT_FILTER_ALT_TRANS is ignored. xmt_filter_stats() gives the counts. */
XMT_API xmt_status xmt_filter_translate_html_file(xmt_filter *filter,
                                                  const char *in_path,
                                                  const char *out_path);

/* --- Review reports ---------------------------------------------------------
 * A document read whole and transformed by an XSLT 1.0 stylesheet
 * (libxslt) together with its findings: the counts and problems of
 * xmt_filter_check_file, and one element per segment (per <mrk
 * mtype="seg">, or per unit when unsegmented) with its source and target
 * and its flags. The stylesheet gets the findings document (namespace
 * XMT_FINDINGS_NS, described in xliffmt-report(1)) as the node-set
 * parameter "findings", also reachable as document('urn:xliffmt:findings').
 * The stylesheet may read local files with document(); it cannot reach
 * the network or write files. */

#define XMT_FINDINGS_NS "urn:xliffmt:findings:1"

struct xmt_report_options {
  /* An XSLT 1.0 file; when no such file exists, the name of a shipped
   * stylesheet ("report", the default when NULL, or "tmx"). */
  const char *stylesheet;
  /* "NAME=VALUE" strings passed to the stylesheet as string parameters,
   * NULL-terminated; NULL for none. "findings" is taken. */
  const char *const *params;
  /* Write the findings document itself, not a transformation of it. */
  int findings_only;
  /* The largest document (bytes) a stylesheet of the user's is run over:
   * it reads the document and its findings whole, as trees some fifty
   * times the document's size; 0: XMT_REPORT_MAX_WHOLE. The shipped
   * stylesheets and the findings are written a chunk of units at a time,
   * in memory that does not grow with the document. */
  size_t max_whole;
};
#define XMT_REPORT_MAX_WHOLE ((size_t)8 << 20)

/* Writes the report of the XLIFF document in_path (a file: it is read
 * more than once) to out_path ("-": standard output), through a temporary file
 * renamed on success. An HTML page is reported as the XLIFF document
 * xmt_html_extract_file writes of it, with the filter's languages.
 * options may be NULL. The stylesheet's xsl:message lines go to on_message
 * (may be NULL) as warnings. An error in the stylesheet (not well-formed,
 * does not compile, fails while running) is the filter's error, with the
 * stylesheet's file and line as libxslt gives them (XMT_ERR_XML or
 * XMT_ERR_FORMAT); further errors of the same run go to on_message; nothing
 * is written. libxslt reports compilation errors through a handler shared
 * by the whole process: this call sets it and restores it, one thread at a
 * time. */
XMT_API xmt_status xmt_filter_report_file(
    xmt_filter *filter, const char *in_path, const char *out_path,
    const struct xmt_report_options *options, xmt_problem_fn on_message,
    void *user);

/* The text of a shipped stylesheet ("report": the review page; "tmx": the
 * translated segments as TMX 1.4), or NULL for another name; *len (may be
 * NULL) gets its length. Copies are installed as PKGDATADIR/xliffmt-NAME.xsl
 * to start your own from. */
XMT_API const char *xmt_report_stylesheet(const char *name, size_t *len);

/* --- Document formats ----------------------------------------------------
 * The one table of the formats the library reads, from which every file
 * function (translate, extract, merge, check, report) and the xliffmt
 * command decide a document's format. The content decides: a document
 * whose first element is <xliff> (any prefix) is XLIFF, XLIFF 2 when that
 * element says version="2.N" or declares the XLIFF 2 core namespace
 * (urn:oasis:names:tc:xliff:document:2.0); one that starts as HTML does
 * (xmt_html_sniff) is HTML, whatever its name; a zip whose first entry
 * is a stored ODF `mimetype` is OpenDocument Text (XMT_FORMAT_ODT), whose
 * opening refuses an OpenDocument that is not a text; any other zip
 * ("PK\3\4") is Word, whose opening refuses a zip that is not (its
 * [Content_Types].xml names no WordprocessingML main part); the name's
 * extension decides only when the first bytes do not (text, nothing),
 * and XLIFF, whose reader says what is wrong, when neither does. */

/* A format's value is its place in the table (xmt_format_list): these
 * five keep theirs; a format added after them is named by its name, not
 * here (xmt_format_by_name). */
enum xmt_doc_format {
  XMT_FORMAT_XLIFF = 0, /* XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF */
  XMT_FORMAT_HTML = 1,
  XMT_FORMAT_XLIFF2 = 2, /* XLIFF 2.0-2.2: <xliff version="2.N">, or the
                           XLIFF 2 core namespace */
  XMT_FORMAT_WORD = 3,   /* Word (OOXML WordprocessingML) packages */
  XMT_FORMAT_ODT = 4     /* OpenDocument Text packages (.odt, .ott) */
};

struct xmt_format_info {
  enum xmt_doc_format format;
  const char *name;              /* "xliff", "html", "xliff2" */
  const char *description;       /* "XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF" */
  const char *const *extensions; /* ".xlf", ... (lower case, NULL-ended;
                                    none for XLIFF 2, whose .xlf is
                                    XLIFF's) */
};

/* The table, *n entries; static. */
XMT_API const struct xmt_format_info *xmt_format_list(size_t *n);
/* 1 when a document of format has units of its own (HTML, Word,
 * OpenDocument Text: xmt_filter_extract_units_file and _merge_ take it),
 * 0 when it has segments (XLIFF: xmt_filter_extract_segments_file). */
XMT_API int xmt_format_has_units(enum xmt_doc_format format);
/* The XMT_FILTER_* flags that apply to documents of format alone
 * (HTML: XMT_FILTER_HTML_SKIP_PRE, _SKIP_CODE, _REPLACE_INVALID), 0 for
 * none or another value: what a command line takes of a format's own
 * options. */
XMT_API unsigned xmt_format_flags(enum xmt_doc_format format);
/* 1 when some units of a document of format are attribute values,
 * counted apart in xmt_html_stats.attribute_units by extract (HTML). */
XMT_API int xmt_format_counts_attributes(enum xmt_doc_format format);
/* 1 and *format when name is a format's in the table ("html", "docx"),
 * else 0. */
XMT_API int xmt_format_by_name(const char *name, enum xmt_doc_format *format);
/* "xliff", "html", "xliff2"; NULL for another value. */
XMT_API const char *xmt_format_name(enum xmt_doc_format format);
/* What a document of format is called ("HTML page", "Word document"),
 * NULL for XLIFF (its units are read as they are written). */
XMT_API const char *xmt_format_noun(enum xmt_doc_format format);
/* The media type of its documents ("text/html"; XLIFF 1.2 and 2:
 * "application/xliff+xml"). */
XMT_API const char *xmt_format_media_type(enum xmt_doc_format format);
/* 1 and *format when path's extension (any case) is one of the table's,
 * else 0: what a walk through a directory picks documents by. */
XMT_API int xmt_format_by_extension(const char *path,
                                    enum xmt_doc_format *format);
/* The format of a document whose first len bytes are bytes; path (may be
 * NULL) for its extension. The first element decides, past any prolog
 * (XML declaration, comments, processing instructions, a doctype with its
 * internal subset, BOM, UTF-16): bytes should reach the end of its start
 * tag, as xmt_filter_detect_format reads them. */
XMT_API enum xmt_doc_format xmt_format_sniff(const char *bytes, size_t len,
                                             const char *path);
/* The format of the document at path, read up to its first element (at
 * most 1 MB: XMT_ERR_FORMAT past that); "-" is standard input, whose
 * first bytes the filter reads and keeps: the next file function of the filter
 * on "-" reads them, then the rest of the stream. XMT_ERR_IO (in the
 * filter's error) when it cannot be read. */
XMT_API xmt_status xmt_filter_detect_format(xmt_filter *filter,
                                            const char *path,
                                            enum xmt_doc_format *format);

/* --- In memory -------------------------------------------------------------
 * What a server or an editor translates: text it holds, not files. Both
 * go through the run that translates a document's units (segmentation,
 * batching, the cache, alignment and tag placement), with the filter's
 * settings, and write no file. */

/* Translates a document held in memory, len bytes of input in format
 * (XMT_FORMAT_XLIFF, XMT_FORMAT_HTML or XMT_FORMAT_XLIFF2; a fragment of
 * HTML is a page):
 * *output receives the translated document, NUL-terminated, to free with
 * free(), and *output_len its length. name names the document in
 * messages (NULL: "-"). XMT_ERR_PARTIAL as for xmt_filter_translate_file,
 * with the output set. */
XMT_API xmt_status xmt_filter_translate_buffer(
    xmt_filter *filter, enum xmt_doc_format format, const char *name,
    const char *input, size_t len, char **output, size_t *output_len);

/* Translates n tagged segments, each a unit of its own (a unit is split
 * into sentences when the filter segments): targets[i] receives a new
 * segment with the codes of sources[i] (the same id, name and markup)
 * placed in the translation, to free with xmt_segment_free, or NULL when
 * segment i was not translated (the call then returns XMT_ERR_PARTIAL).
 * The codes must be well nested; the filter's source and target
 * languages must be set. */
XMT_API xmt_status xmt_filter_translate_segments(
    xmt_filter *filter, const xmt_segment *const *sources, size_t n,
    xmt_segment **targets);

/* --- Setting names -------------------------------------------------------
 * The names a command line gives settings, read into their values:
 * XMT_OK, or XMT_ERR_USAGE for a name (or NULL) none has. */
/* "project", "mask", "raw" */
XMT_API xmt_status xmt_tag_mode_parse(const char *name,
                                      enum xmt_tag_mode *mode);
/* "minmax", "score" */
XMT_API xmt_status xmt_projection_rule_parse(const char *name,
                                             enum xmt_projection_rule *rule);
/* "bayes", "ibm2" */
XMT_API xmt_status xmt_align_model_parse(const char *name,
                                         enum xmt_align_model *model);
/* "auto", "off" */
XMT_API xmt_status xmt_probes_parse(const char *name, enum xmt_probes *probes);
/* "moses", "sentencepiece", "bpe" */
XMT_API xmt_status xmt_token_style_parse(const char *name,
                                         enum xmt_token_style *style);
/* "tsv", "jsonl" */
XMT_API xmt_status xmt_segments_format_parse(const char *name,
                                             enum xmt_segments_format *format);

/* --- The backend registry ------------------------------------------------
 * The built-in backends by name, each with what follows the colon of
 * "--mt name:SPEC" and a line saying what it is; xmt_backend_builtin()
 * looks names up here. */
struct xmt_backend_info {
  const char *name;        /* "apertium" */
  const char *spec;        /* "PAIR"; NULL when it takes none */
  const char *description; /* one line */
  const struct xmt_backend *backend;
};
/* The registry, *n entries; static. */
XMT_API const struct xmt_backend_info *xmt_backend_list(size_t *n);

#ifdef __cplusplus
}
#endif

#endif /* XMT_FILTER_H */
