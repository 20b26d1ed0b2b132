/* engine_private.h -- the engine subprocess of cmd.c, shared with the
 * probe that checks its place in its output (engine_probe.c). Not
 * installed. */
#ifndef XMT_ENGINE_PRIVATE_H
#define XMT_ENGINE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "engine_private.h is internal to libxliffmt"
#endif

#include <sys/types.h>

#include "backends_private.h"

#define ERR_TAIL 1024 /* bytes of the engine's stderr kept */

/* The check line: digits and spaces pass most engines unchanged, and no
 * segment is likely to be exactly this. */
#define CHECK_LINE "2 4 6 8 0 1 3 5 7 9"

#define BOM_DECIDED 4u /* struct xmt_engine's bom_seen */

struct xmt_engine {
  char *command;
  char *name;
  enum xmt_engine_framing framing;
  unsigned timeout_ms;
  unsigned max_failures;  /* segments in a row failed alone */
  size_t max_answer;      /* 0: XMT_DEFAULT_MAX_ANSWER */
  const int *interrupted; /* the run's, or NULL */
  xmt_engine_encode_fn encode;
  xmt_engine_decode_fn decode;
  pid_t pid;  /* -1: not running */
  int probed; /* its banner is read and its check answer known */
  int prompt; /* the check answer's front is a prompt written after each
                 answer, set aside from every answer */
  /* How much of a UTF-8 BOM opens its output: 0-3 bytes of one, held
   * back; BOM_DECIDED once the first bytes are known. */
  unsigned bom_seen;
  int timed_out; /* it timed out, and has answered no segment since */
  char *gave_up; /* why nothing more is sent to it, or NULL */
  int in_fd, out_fd, err_fd;
  struct xmt_buf wbuf;  /* the batch as written */
  struct xmt_buf rbuf;  /* the answers as read */
  struct xmt_buf text;  /* one decoded answer */
  struct xmt_buf check; /* its answer to CHECK_LINE (line framing) */
  char errtail[ERR_TAIL];
  size_t errtail_len;
};

enum outcome {
  EX_DONE,        /* all the answers came */
  EX_TIMEOUT,     /* the deadline passed first */
  EX_EOF,         /* the engine closed its output (it exited or crashed) */
  EX_TOOBIG,      /* the answers grew past their limit */
  EX_INTERRUPTED, /* the run is to end at once */
  EX_IOERR,
  EX_SHORT /* the check line's answer came before the last segment's */
};

/* The exchange of one batch: wbuf written while the answers are read. */
struct exchange {
  char delim;
  size_t from;      /* offset in rbuf where the answers start */
  size_t want;      /* delimiters */
  int checked;      /* the last line wanted is the check line's answer */
  size_t cap;       /* answers_cap */
  size_t have;      /* delimiters read */
  size_t end;       /* offset in rbuf just after the last one wanted */
  size_t unwritten; /* input left */
  int ioerr;
  unsigned long long took_us;
};

/* Why a batch failed: the message for its segments, and whether the
 * engine itself failed (it could not start, died, timed out) rather than
 * its answers (too many, too few, too long). */
struct failure {
  char message[700];
  int engine;
  int timed_out;
};

/* Writes wbuf while reading answers, after what rbuf holds, until
 * x->want delimiters came after x->from, the deadline passed, the engine
 * closed its output or wrote more than x->cap bytes. */
enum outcome xmt_engine_exchange(struct xmt_engine *e, struct exchange *x);

/* Why an exchange ended early, into why; the engine is stopped and
 * reaped. req and n: the batch (NULL and 0 for the probe). */
void xmt_engine_describe_end(struct xmt_engine *e, enum outcome out,
                             const struct exchange *x,
                             const struct xmt_mt_request *req, size_t n,
                             struct failure *why);

/* How many bytes of each answer line are the engine's prompt, set
 * aside: the part of its check answer before the check line, once seen
 * written alone (engine_probe.c). */
size_t xmt_engine_decoration(const struct xmt_engine *e);

/* 1 when the engine has written something nobody asked for, or has
 * closed its output. */
int xmt_engine_out_of_step(struct xmt_engine *e);

/* 1 when line (a '\r' at its end aside) is the engine's answer to the
 * check line. */
int xmt_engine_is_check_answer(const struct xmt_engine *e, const char *line,
                               size_t len);

/* 1 when a line of rbuf that ends in [from, to) is the check line's
 * answer. */
int xmt_engine_check_came(const struct xmt_engine *e, size_t from, size_t to);

/* Reads the engine's banner and learns its answer to the check line,
 * before its first request. 0 done; 1 failed as a batch fails (why set,
 * the engine stopped); -2 the engine cannot be checked (why says why);
 * -1 out of memory; XMT_ENGINE_INTERRUPTED. */
int xmt_engine_probe(struct xmt_engine *e, struct failure *why);

/* Appends the check record of an XMT_FRAME_NULL_SEGMENT engine (the check
 * line, encoded as a segment, and its NUL) to wbuf. */
xmt_status xmt_engine_append_check_record(struct xmt_engine *e);

#endif /* XMT_ENGINE_PRIVATE_H */
