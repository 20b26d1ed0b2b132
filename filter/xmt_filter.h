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

/* --- MT backends ----------------------------------------------------------
 * A backend is a const vtable plus a user pointer. The library calls open
 * once per run, translate once per batch, close once at the end. */

#define XMT_BACKEND_ABI_VERSION 2

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
  const char *const *options; /* "key=value" strings (--mt-option), NULL-
                                 terminated; never NULL itself */
  const char *source_language; /* as set on the filter; may be NULL */
  const char *target_language;
  unsigned timeout_ms; /* per batch; 0 means the backend's default */
};

struct xmt_backend {
  int abi_version; /* XMT_BACKEND_ABI_VERSION */
  const char *name;
  /* Creates the backend state for a run. Returns 0 on success; else writes
   * a message into errbuf (errlen bytes, NUL-terminated). */
  int (*open)(void *user, const struct xmt_backend_config *config,
              void **state, char *errbuf, size_t errlen);
  /* Answers n requests, one response each. A segment the engine could not
   * translate gets xmt_mt_response_set_error(); the call still returns 0.
   * Non-zero aborts the whole run (nothing is written): keep it for
   * interruption and for states the backend cannot recover from. */
  int (*translate)(void *state, const struct xmt_mt_request *requests,
                   xmt_mt_response *const *responses, size_t n);
  void (*close)(void *state);
};

/* A built-in backend by name ("identity", "pseudo", "cmd", "apertium",
 * "http", "plugin"), or NULL. */
XMT_API const struct xmt_backend *xmt_backend_builtin(const char *name);

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
/* Per-batch timeout passed to the backend; 0 leaves it to the backend. */
XMT_API void xmt_filter_set_timeout(xmt_filter *filter, unsigned timeout_ms);
/* The state and state-qualifier written on targets; NULL writes none.
 * Default: "needs-review-translation" and "mt-suggestion". Values must be
 * XLIFF 1.2 ones or start with "x-". */
XMT_API xmt_status xmt_filter_set_target_state(xmt_filter *filter,
                                               const char *state,
                                               const char *qualifier);

#define XMT_FILTER_OVERWRITE 0x1u /* replace existing non-empty targets */
#define XMT_FILTER_ALT_TRANS 0x2u /* write alt-trans proposals, not targets */
XMT_API void xmt_filter_set_flags(xmt_filter *filter, unsigned flags);

/* Counts of the last run. */
struct xmt_filter_stats {
  size_t units;            /* trans-units read */
  size_t translated_units; /* units that got a target or alt-trans */
  size_t skipped_units;    /* translate="no" or already translated */
  size_t segments;         /* segments sent to the backend */
  size_t failed_segments;  /* segments the backend reported as failed */
  size_t bytes_in;
};
XMT_API const struct xmt_filter_stats *
xmt_filter_stats(const xmt_filter *filter);

/* Translates in_path into out_path (may be "-" for stdout). The output is
 * written to a temporary file beside out_path and renamed on success, so a
 * failed run leaves no output file. */
XMT_API xmt_status xmt_filter_translate_file(xmt_filter *filter,
                                             const char *in_path,
                                             const char *out_path);

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
};

/* Reads path and fills report; each problem also goes to on_problem (may be
 * NULL). Returns XMT_OK when the document could be read to the end (problems
 * are counted in the report), else the status of the fatal error. */
XMT_API xmt_status xmt_filter_check_file(xmt_filter *filter, const char *path,
                                         struct xmt_check_report *report,
                                         xmt_problem_fn on_problem, void *user);

#ifdef __cplusplus
}
#endif

#endif /* XMT_FILTER_H */
