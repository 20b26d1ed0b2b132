/* base_private.h -- the helpers every part of libxliffmt shares: growable
 * byte buffers, overflow-checked array growth, UTF-8, string copies, the
 * monotonic clock and the per-handle error record. Not installed.
 *
 * Includes only the C library and xmt_base.h; projector_private.h includes
 * it, so code above base/ gets these helpers without naming this header. */
#ifndef XMT_BASE_PRIVATE_H
#define XMT_BASE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "base_private.h is internal to libxliffmt"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "xmt_base.h"

/* --- Buffers (buf.c) ------------------------------------------------------ */

/* A growable byte buffer; zero-initialised is empty. Kept NUL-terminated
 * (when non-empty) so text can be handed out as C strings. */
struct xmt_buf {
  char *data;
  size_t len;
  size_t cap;
};

xmt_status xmt_buf_grow(struct xmt_buf *buf, size_t extra);
void xmt_buf_free(struct xmt_buf *buf);

static inline xmt_status xmt_buf_append(struct xmt_buf *buf, const void *bytes,
                                        size_t len) {
  if (buf->cap - buf->len <= len) {
    xmt_status st = xmt_buf_grow(buf, len);
    if (st != XMT_OK)
      return st;
  }
  if (len > 0)
    memcpy(buf->data + buf->len, bytes, len);
  buf->len += len;
  buf->data[buf->len] = '\0';
  return XMT_OK;
}

static inline xmt_status xmt_buf_append_str(struct xmt_buf *buf,
                                            const char *s) {
  return xmt_buf_append(buf, s, strlen(s));
}

static inline xmt_status xmt_buf_append_byte(struct xmt_buf *buf, char c) {
  return xmt_buf_append(buf, &c, 1);
}

/* Empties the buffer, keeping its memory. */
static inline void xmt_buf_reset(struct xmt_buf *buf) {
  buf->len = 0;
  if (buf->data != NULL)
    buf->data[0] = '\0';
}

/* Appends the shortest UTF-8 encoding of code point cp (must be valid). */
xmt_status xmt_buf_append_utf8(struct xmt_buf *buf, uint32_t cp);

struct xmt_error_store;

/* Appends all that is left of fp to buf, then closes fp (standard input
 * stays open). A read error is recorded in err against path and returned
 * as XMT_ERR_IO; XMT_ERR_NOMEM is returned unrecorded, for the caller to
 * word. */
xmt_status xmt_buf_append_stream(struct xmt_buf *buf, FILE *fp,
                                 const char *path, struct xmt_error_store *err);

/* v grown to hold n elements of size bytes, doubling (*cap updated); NULL
 * when out of memory or when n * size does not fit in a size_t, v then
 * untouched (still to be freed by the caller). */
void *xmt_grow_array(void *v, size_t *cap, size_t n, size_t size);

/* Appends one element: a pointer to element n of the array whose address
 * is pv (a T **, capacity *cap, elements of size bytes), zeroed, the
 * array grown as xmt_grow_array grows it. The caller counts it. NULL when
 * out of memory, the array then untouched. */
void *xmt_grow_one(void *pv, size_t n, size_t *cap, size_t size);

/* The array whose address is pv (as for xmt_grow_one) cut down to its n
 * elements, *cap then n: for arrays kept long after they stop growing.
 * Left as it is when n is 0 or already its room, or when realloc
 * fails. */
void xmt_fit_array(void *pv, size_t n, size_t *cap, size_t size);

/* Duplicates a string (NULL stays NULL); NULL also when out of memory. */
char *xmt_strdup(const char *s);
char *xmt_strndup(const char *s, size_t n);

/* --- Hash-table slots (slots.c) ------------------------------------------ */

/* The slots of an open-addressing table with linear probing whose owner
 * keeps the entries and their hashes: a slot holds an entry's number,
 * counted from 1, or 0 when empty. The owner probes from
 * hash & (n - 1) and grows the table before it is too full to probe. */
struct xmt_slots {
  uint32_t *slot;
  size_t n; /* a power of two, or 0 before the first rebuild */
};
typedef uint64_t (*xmt_slots_hash_fn)(const void *user, uint32_t entry);
/* Replaces the slots of s by n empty ones (n a power of two above last)
 * holding entries 1..last, whose hashes hash_of gives. */
xmt_status xmt_slots_rebuild(struct xmt_slots *s, size_t n, uint32_t last,
                             xmt_slots_hash_fn hash_of, const void *user);
/* Empties every slot, keeping the memory. */
void xmt_slots_clear(struct xmt_slots *s);
void xmt_slots_free(struct xmt_slots *s);

/* --- UTF-8 (utf8.c) ------------------------------------------------------- */

/* Decodes one UTF-8 character at s (n bytes available). Returns its length
 * and stores the code point, or returns 0 for an invalid or truncated
 * sequence (overlongs and surrogates are invalid). */
size_t xmt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* The characters of UTF-8 text s: its bytes that are not continuation
 * bytes. */
size_t xmt_utf8_count(const char *s, size_t n);

/* Length of the longest valid UTF-8 prefix of s. */
size_t xmt_utf8_valid_prefix(const char *s, size_t n);
/* Each byte of s that starts no valid UTF-8 character made '?', in
 * place: a message that cut a name short ("%.64s") stays UTF-8 for a
 * terminal or a JSON reader. */
void xmt_utf8_mend(char *s, size_t n);

/* --- The monotonic clock (clock.c) --------------------------------------- */

/* Seconds from t0 (taken with clock_gettime(CLOCK_MONOTONIC)) to now. */
double xmt_seconds_since(const struct timespec *t0);

/* --- Errors (error.c) ----------------------------------------------------- */

/* Per-handle error detail (struct xmt_error plus the storage behind it). */
struct xmt_error_store {
  struct xmt_error pub;
  char *message;
  char *file;
  char *unit_id;
};
void xmt_error_clear(struct xmt_error_store *err);

/* Where an error is. A call site names only what it knows: the parts left
 * out of a designated initializer are NULL or 0, "unknown". The strings
 * are copied into the error record. */
struct xmt_where {
  const char *file;     /* the file read or written */
  unsigned long line;   /* 1-based */
  unsigned long column; /* 1-based, in characters */
  const char *unit_id;  /* the translation unit */
};

/* Locations for xmt_error_at, valid for the call they appear in. */
#define XMT_IN(path) (&(const struct xmt_where){.file = (path)})
#define XMT_AT_LINE(path, ln)                                                  \
  (&(const struct xmt_where){.file = (path), .line = (ln)})
#define XMT_AT(path, ln, col)                                                  \
  (&(const struct xmt_where){.file = (path), .line = (ln), .column = (col)})
#define XMT_IN_UNIT(path, unit)                                                \
  (&(const struct xmt_where){.file = (path), .unit_id = (unit)})
#define XMT_AT_UNIT(path, ln, unit)                                            \
  (&(const struct xmt_where){.file = (path), .line = (ln), .unit_id = (unit)})

/* Records an error at a location (NULL: none); the message is
 * printf-style. Returns status. E.g.
 *   return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(path, n), "...");
 */
xmt_status xmt_error_at(struct xmt_error_store *err, xmt_status status,
                        const struct xmt_where *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same with a va_list, for a function that takes a message of its
 * own. */
xmt_status xmt_error_vat(struct xmt_error_store *err, xmt_status status,
                         const struct xmt_where *where, const char *fmt,
                         va_list ap) __attribute__((format(printf, 4, 0)));
/* The same without a location: xmt_error_set(err, status, fmt, ...). */
#define xmt_error_set(err, status, ...)                                        \
  xmt_error_at((err), (status), NULL, __VA_ARGS__)
/* Records XMT_ERR_NOMEM with its standard message, allocating nothing.
 * Returns XMT_ERR_NOMEM. */
xmt_status xmt_error_nomem(struct xmt_error_store *err);
/* Copies another handle's error (e.g. the reader's into the filter's). */
xmt_status xmt_error_copy(struct xmt_error_store *dst,
                          const struct xmt_error *src);

/* --- Atomic output files (atomic_file.c) ---------------------------------
 * Declared here so that the library embeds the handle in its own structs:
 * zeroed is never opened; xmt_atomic_file_abort releases everything. */

/* An internal flag of xmt_atomic_file_open: no O_TMPFILE, the named
 * temporary file at once (for the tests of that path). */
#define XMT_ATOMIC_FILE_NAMED_ 0x100u

struct xmt_atomic_file {
  FILE *fp;       /* the stream written; NULL when not open */
  char *path;     /* the target; NULL for standard output */
  char *tmp_path; /* the temporary name (to link the unnamed file to);
                     NULL when written in place */
  int unnamed;    /* O_TMPFILE: tmp_path does not exist yet */
  unsigned flags;
  int sys_errno; /* of the last failure, or 0 */
  struct xmt_error_store err;
};

#endif /* XMT_BASE_PRIVATE_H */
