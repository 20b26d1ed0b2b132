/* backends_private.h -- internals shared by the built-in MT backends: the
 * table of built-ins, --mt-option lookup and checking, small string tools,
 * and the persistent engine subprocess of the cmd and apertium backends.
 * Not installed. */
#ifndef XMT_BACKENDS_PRIVATE_H
#define XMT_BACKENDS_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "backends_private.h is internal to libxliffmt"
#endif

#include <stddef.h>

#include "filter_private.h"

extern const struct xmt_backend xmt_backend_pseudo;
extern const struct xmt_backend xmt_backend_cmd;
extern const struct xmt_backend xmt_backend_apertium;
extern const struct xmt_backend xmt_backend_http;
extern const struct xmt_backend xmt_backend_plugin_loader;

/* --- Options and strings (util.c) ------------------------------------------
 */

/* Fails (writes errbuf, returns 1) when an option is not KEY=VALUE or its
 * KEY is not in known (NULL-terminated); backend names the backend in the
 * message. */
int xmt_backend_check_options(const struct xmt_backend_config *config,
                              const char *backend, const char *const *known,
                              char *errbuf, size_t errlen);

/* A backend's state of size bytes, zeroed; NULL when out of memory, which
 * it writes in errbuf. */
void *xmt_backend_state_new(size_t size, char *errbuf, size_t errlen);

/* The value of the last option KEY=VALUE, or NULL. Borrowed from config. */
const char *xmt_backend_option(const struct xmt_backend_config *config,
                               const char *key);

/* Option KEY as an unsigned integer in [min, max]; *value keeps its
 * default when the option is absent. Returns 1 with a message when the
 * value is not such a number. */
int xmt_backend_option_uint(const struct xmt_backend_config *config,
                            const char *backend, const char *key, unsigned min,
                            unsigned max, unsigned *value, char *errbuf,
                            size_t errlen);

/* Option KEY as seconds (decimals allowed, >0, at most a day) into
 * milliseconds; *ms keeps its default when absent. */
int xmt_backend_option_seconds(const struct xmt_backend_config *config,
                               const char *backend, const char *key,
                               unsigned *ms, char *errbuf, size_t errlen);

/* The Apertium name of a BCP 47 language tag: the ISO 639-3 code of its
 * primary subtag ("en-GB" -> "eng"), or the primary subtag itself, lower
 * case; region gets its region subtag upper case ("GB"), or "". */
void xmt_apertium_language(const char *tag, char *out, size_t outlen,
                           char *region, size_t regionlen);

/* Milliseconds on a monotonic clock. */
unsigned long long xmt_now_ms(void);

/* --- Apertium stream format (apertium.c, apertium_markup.c) ---------------
 */

/* Appends text escaped as apertium-destxt would: reserved characters get
 * a backslash; tabs, line breaks, runs of spaces and '~' (a post-generation
 * mark) go into superblanks, which pass through untouched. */
xmt_status xmt_apertium_escape(struct xmt_buf *out, const char *text,
                               size_t len);

/* Ends a request as apertium-destxt does: a full stop and an empty
 * superblank after the text, so the last words are tagged as at the end
 * of a sentence (the tagger sees "back." where the text has "back"), then
 * the newline that lets the last word out before the NUL. */
xmt_status xmt_apertium_end(struct xmt_buf *out);

/* Where the full stop of that end is in an answer (before its last "[]"),
 * or SIZE_MAX; decoding leaves it out, as apertium-retxt does. */
size_t xmt_apertium_end_dot(const char *answer, size_t len);

/* Undoes the escapes of an answer: "\x" is x, a superblank "[...]" is its
 * content, a word-bound blank "[[...]]" is dropped. Blanks at the ends are
 * replaced by the request's own. */
xmt_status xmt_apertium_decode(struct xmt_buf *out, const char *answer,
                               size_t len, const struct xmt_mt_request *req);

/* The same for requests and answers in XLIFF inline markup: spans ride on
 * word-bound blanks, placeholders on superblanks. */
xmt_status xmt_apertium_encode_markup(struct xmt_buf *out, const char *markup,
                                      size_t len);
xmt_status xmt_apertium_decode_markup(struct xmt_buf *out, const char *answer,
                                      size_t len,
                                      const struct xmt_mt_request *req);

/* --- Engine subprocess (cmd.c) ---------------------------------------------
 * The engine runs as /bin/sh -c COMMAND in its own process group, with its
 * standard input, output and error on pipes. A batch is written and read
 * at the same time (non-blocking, poll), so an engine that answers as it
 * reads never deadlocks against us, whatever the pipe buffers hold. */

/* How segments are delimited on the pipes. */
enum xmt_engine_framing {
  XMT_FRAME_LINE,        /* one line in, one line out per segment, and
                            a check line after each batch */
  XMT_FRAME_NULL_BATCH,  /* lines, then a NUL after the batch; the engine
                            answers its lines and a NUL (apertium -z) */
  XMT_FRAME_NULL_SEGMENT /* a NUL after each segment, in and out */
};

/* Turns a segment into the engine's input (without the delimiter). */
typedef xmt_status (*xmt_engine_encode_fn)(struct xmt_buf *out,
                                           const char *text, size_t len);
/* Turns one answer (without its delimiter) into the translation of
 * request. */
typedef xmt_status (*xmt_engine_decode_fn)(struct xmt_buf *out,
                                           const char *answer, size_t len,
                                           const struct xmt_mt_request *req);

struct xmt_engine_config {
  const char *command; /* for /bin/sh -c; copied */
  const char *name;    /* for messages, e.g. "cmd 'tr a-z A-Z'"; copied */
  enum xmt_engine_framing framing;
  unsigned timeout_ms; /* per batch; 0: 60 s */
  /* Segments of a failed batch, sent again one at a time, that may fail
   * in a row before the rest fail unsent; 0: 3. */
  unsigned max_failures;
  xmt_engine_encode_fn encode; /* NULL: newlines and NULs become spaces */
  xmt_engine_decode_fn decode; /* NULL: the answer as it is */
  size_t max_answer;           /* for xmt_answer_limit; 0: the default */
  const int *interrupted;      /* the run's (see xmt_backend_config) */
};

struct xmt_engine;

/* Starts the engine. NULL with a message in errbuf when it cannot be
 * started (no pipes, no fork, out of memory). */
struct xmt_engine *xmt_engine_new(const struct xmt_engine_config *config,
                                  char *errbuf, size_t errlen);

/* xmt_engine_translate's answer when the run was interrupted while the
 * engine was asked (the engine is stopped). */
#define XMT_ENGINE_INTERRUPTED 2

/* Translates n requests. Answers are taken only when there is exactly
 * one per request, each within xmt_answer_limit, and nothing more: with
 * XMT_FRAME_LINE (XMT_FRAME_NULL_SEGMENT), checked by a check line (record)
 * that ends each batch, whose answer the engine is asked for before its
 * first request (its banner set aside; see cmd.c). An engine that cannot be
 * checked, or that timed out twice with no answer in between (it hangs), is
 * given up: every later request fails unsent
 * (xmt_mt_response_set_engine_error). A batch that fails otherwise (a crash, a
 * timeout, too few or too many answers, one too long) stops the engine and is
 * sent again one segment at a time, each on an engine started afresh after any
 * failure, so that an answer never goes to another segment; a segment that
 * fails alone fails (xmt_mt_response_set_engine_error when the engine died,
 * timed out or could not start, else xmt_mt_response_set_error), and after
 * max_failures of them in a row the rest of the batch fails unsent. The
 * engine keeps no count from one call to the next. Returns 0, -1 when
 * out of memory, XMT_ENGINE_INTERRUPTED when the run was interrupted. */
int xmt_engine_translate(struct xmt_engine *engine,
                         const struct xmt_mt_request *requests,
                         xmt_mt_response *const *responses, size_t n);

/* Closes the engine's input, waits a little for it to exit, then kills its
 * process group; reaps it either way. NULL is a no-op. */
void xmt_engine_free(struct xmt_engine *engine);

/* The engine's process id, or -1 when it is not running (for tests). */
long xmt_engine_pid(const struct xmt_engine *engine);

/* Appends s quoted for /bin/sh. */
xmt_status xmt_shell_quote(struct xmt_buf *out, const char *s);

#endif /* XMT_BACKENDS_PRIVATE_H */
