/* backend_cmd.h -- a persistent MT engine subprocess, shared by the cmd
 * and apertium backends. Not installed.
 *
 * The engine runs as /bin/sh -c COMMAND in its own process group, with its
 * standard input, output and error on pipes. A batch is written and read
 * at the same time (non-blocking, poll), so an engine that answers as it
 * reads never deadlocks against us, whatever the pipe buffers hold. */
#ifndef XMT_BACKEND_CMD_H
#define XMT_BACKEND_CMD_H

#ifndef XMT_BUILDING_LIBRARY
#error "backend_cmd.h is internal to libxliffmt"
#endif

#include "filter_private.h"

/* How segments are delimited on the pipes. */
enum xmt_engine_framing {
  XMT_FRAME_LINE,        /* one line in, one line out per segment */
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
  unsigned timeout_ms;   /* per batch; 0: 60 s */
  unsigned max_failures; /* failed batches in a row before giving up; 0: 3 */
  xmt_engine_encode_fn encode; /* NULL: newlines and NULs become spaces */
  xmt_engine_decode_fn decode; /* NULL: the answer as it is */
};

struct xmt_engine;

/* Starts the engine. NULL with a message in errbuf when it cannot be
 * started (no pipes, no fork, out of memory). */
struct xmt_engine *xmt_engine_new(const struct xmt_engine_config *config,
                                  char *errbuf, size_t errlen);

/* Translates n requests. A crash, a timeout or a wrong number of answers
 * fails the segments concerned (xmt_mt_response_set_error) and stops the
 * engine, which the next batch restarts; after max_failures failed batches
 * in a row every segment fails at once. Returns 0, or -1 when out of
 * memory. */
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

#endif /* XMT_BACKEND_CMD_H */
