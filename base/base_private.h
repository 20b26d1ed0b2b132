/* base_private.h -- the helpers every part of libxliffmt shares: growable
 * byte buffers, overflow-checked array growth, UTF-8, string copies, the
 * monotonic clock and the per-handle error record. Not installed.
 *
 * Includes only the C library and xmt_base.h; projector_private.h includes
 * it, so code above base/ gets these helpers without naming this header. */
#ifndef XMT_BASE_PRIVATE_H
#define XMT_BASE_PRIVATE_H

/* The library's, and the program's (cli/ links base/ of its own, as
 * curl's tool does curlx: nothing here is exported). */
#if !defined(XMT_BUILDING_LIBRARY) && !defined(XMT_BUILDING_TOOL)
#error "base_private.h is internal to libxliffmt and xliffmt"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
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
/* A copy of bytes[0, len), which may hold NUL bytes, with a NUL after
 * them (bytes may be NULL when len is 0); NULL when out of memory. */
char *xmt_memdup(const void *bytes, size_t len);

/* --- Hash tables (slots.c) ---------------------------------------------- */

/* The one open-addressing hash table (linear probing) of the library and
 * the program. Its owner keeps the entries (an array, an arena) and their
 * hashes; a slot of 64 bits holds the high bits of an entry's 64-bit hash
 * and a value naming it (its number, or its offset in an arena) plus one,
 * 0 when empty. A lookup reads an entry only when those hash bits match,
 * so a miss touches one cache line (eight slots). The owner grows the
 * table (xmt_slots_resize, then xmt_slots_put of each entry) before it is
 * too full to probe: the slots keep too few bits of a hash to move it. */
#define XMT_SLOT_VALUE_BITS 40
#define XMT_SLOT_VALUE_MASK ((UINT64_C(1) << XMT_SLOT_VALUE_BITS) - 1)
/* The largest value a slot holds. */
#define XMT_SLOT_VALUE_MAX (XMT_SLOT_VALUE_MASK - 1)
struct xmt_slots {
  uint64_t *slot;
  size_t n; /* a power of two, or 0 before the first resize */
};
/* 1 when the entry named value is the one looked for (user: the owner's). */
typedef int (*xmt_slots_same_fn)(const void *user, uint64_t value);

/* The slot of the entry with hash that is_entry accepts, or the empty slot
 * where it would go; NULL when the table has no slots. Inline, so that a
 * lookup calls its owner's comparison directly. */
static inline uint64_t *xmt_slots_find(const struct xmt_slots *s, uint64_t hash,
                                       xmt_slots_same_fn is_entry,
                                       const void *user) {
  if (s->n == 0)
    return NULL;
  size_t mask = s->n - 1;
  uint64_t tag = hash & ~XMT_SLOT_VALUE_MASK;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    uint64_t w = s->slot[i];
    if (w == 0 || ((w & ~XMT_SLOT_VALUE_MASK) == tag &&
                   is_entry(user, (w & XMT_SLOT_VALUE_MASK) - 1)))
      return &s->slot[i];
  }
}
/* The value a full slot names. */
static inline uint64_t xmt_slots_value(uint64_t w) {
  return (w & XMT_SLOT_VALUE_MASK) - 1;
}
/* Fills slot (from xmt_slots_find, empty) with an entry. */
static inline void xmt_slots_set(uint64_t *slot, uint64_t hash,
                                 uint64_t value) {
  *slot = (hash & ~XMT_SLOT_VALUE_MASK) | (value + 1);
}
/* Starts loading the first slot of hash, to look it up a little later
 * without waiting for memory. */
static inline void xmt_slots_prefetch(const struct xmt_slots *s,
                                      uint64_t hash) {
  if (s->n > 0)
    __builtin_prefetch(&s->slot[(size_t)hash & (s->n - 1)]);
}
/* Replaces the slots by n empty ones (n a power of two): the owner then
 * puts its entries back. When they cannot be made (XMT_ERR_NOMEM) the old
 * slots stay as they were. */
xmt_status xmt_slots_resize(struct xmt_slots *s, size_t n);
/* Puts an entry known to be absent into the first empty slot from hash
 * (value at most XMT_SLOT_VALUE_MAX; the table must have an empty slot). */
void xmt_slots_put(struct xmt_slots *s, uint64_t hash, uint64_t value);
/* Empties every slot, keeping the memory. */
void xmt_slots_clear(struct xmt_slots *s);
void xmt_slots_free(struct xmt_slots *s);

/* --- Hashing (hash.c) ---------------------------------------------------- */

/* 64-bit FNV-1a: small, and the same on every machine, for what is kept
 * in files (checksums, names of cache files) and short keys. Start with
 * h = XMT_FNV1A_BASIS; feed a text in pieces by passing the last result. */
#define XMT_FNV1A_BASIS UINT64_C(0xcbf29ce484222325)
uint64_t xmt_fnv1a(uint64_t h, const void *bytes, size_t n);

/* --- JSON (json.c) -------------------------------------------------------- */

/* xmt_json_quote's flag: a byte that does not start a valid UTF-8
 * character is written \ufffd, and DEL is escaped: what the program shows
 * of names it was given stays valid JSON, and plain on a terminal. */
#define XMT_JSON_MEND 1u
/* Appends s (n bytes) as a JSON string, quotes included: '"' and '\\'
 * escaped with a backslash, the C0 controls as \u00XX. */
xmt_status xmt_json_quote(struct xmt_buf *out, const char *s, size_t n,
                          unsigned flags);
/* The spelling in a JSON string of the character at s (n > 0 bytes left)
 * into esc (*len bytes, unterminated); returns the bytes of s it stands
 * for. For writers with a sink of their own (a FILE). */
size_t xmt_json_escape_one(const char *s, size_t n, unsigned flags, char esc[8],
                           size_t *len);
/* Reads the JSON string at s (its opening quote; n bytes available),
 * appending its text, escapes decoded (\uXXXX and surrogate pairs to
 * UTF-8), to out (NULL: only checked); *used is set to the bytes read.
 * 0; -1 not a JSON string; -2 out of memory. */
int xmt_json_string(const char *s, size_t n, size_t *used, struct xmt_buf *out);
/* Appends to out the JSON string found in doc by path, a NULL-terminated
 * list of object keys (e.g. {"responseData", "translatedText", NULL}),
 * with escapes decoded. The whole document must be valid JSON. 0 found;
 * 1 valid without it (or not a string); -1 not JSON; -2 out of memory. */
int xmt_json_string_at(const char *doc, size_t len, const char *const *path,
                       struct xmt_buf *out);

/* --- UTF-8 (utf8.c) ------------------------------------------------------- */

/* 1 when byte c continues a UTF-8 character (10xxxxxx), 0 when it starts
 * one (or is ASCII). In valid UTF-8 every other byte starts a character:
 * the steps below need no decoding. */
static inline int xmt_utf8_is_cont(char c) {
  return ((unsigned char)c & 0xC0) == 0x80;
}
/* 1 when byte offset at of s (len bytes) is on a character boundary. */
static inline int xmt_utf8_at_boundary(const char *s, size_t len, size_t at) {
  return at >= len || !xmt_utf8_is_cont(s[at]);
}
/* at moved back to the start of the character holding byte at, never
 * below lo. */
static inline size_t xmt_utf8_floor(const char *s, size_t lo, size_t at) {
  while (at > lo && xmt_utf8_is_cont(s[at]))
    at--;
  return at;
}
/* The start of the character before byte at, never below lo (lo when at
 * is lo). */
static inline size_t xmt_utf8_prev(const char *s, size_t lo, size_t at) {
  return at > lo ? xmt_utf8_floor(s, lo, at - 1) : lo;
}
/* The start of the character after the one at byte at: at most len. */
/* In n elements of size bytes from base, sorted by the size_t at byte
 * offset of each: the first whose field is not below key, or n. */
static inline size_t xmt_lower_bound(const void *base, size_t n, size_t size,
                                     size_t offset, size_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2, v;
    memcpy(&v, (const char *)base + mid * size + offset, sizeof v);
    if (v < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
static inline size_t xmt_utf8_next(const char *s, size_t len, size_t at) {
  while (++at < len && xmt_utf8_is_cont(s[at]))
    ;
  return at;
}
/* The characters of s (n bytes): the bytes that are no continuation. */
size_t xmt_utf8_count(const char *s, size_t n);
/* Moves a position (*line, *chars: characters since the last newline)
 * over s (n bytes): a newline adds a line and zeroes *chars. */
void xmt_utf8_advance(const char *s, size_t n, unsigned long *line,
                      unsigned long *chars);

/* Decodes one UTF-8 character at s (n bytes available). Returns its length
 * and stores the code point, or returns 0 for an invalid or truncated
 * sequence (overlongs and surrogates are invalid). */
size_t xmt_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* The shortest UTF-8 encoding of code point cp (must be valid) into out;
 * returns its length. */
size_t xmt_utf8_encode(uint32_t cp, char out[4]);

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

/* --- Input files (input_file.c) ------------------------------------------ */

/* How long a named pipe is waited for a program to write into it (or,
 * for an output, to read from it). */
#define XMT_PIPE_WAIT_S 10

/* path opened for reading ("rb"). fopen would wait without end for a
 * program to write into a named pipe: this gives up after
 * XMT_PIPE_WAIT_S, NULL with errno ETIMEDOUT. Else NULL with errno set
 * as fopen's. */
FILE *xmt_input_file_open(const char *path);
/* Why xmt_input_file_open failed with errno e, in buf: "a named pipe no
 * program writes into (waited 10 s)" or "cannot open: " and strerror's
 * words. Returns buf. */
const char *xmt_input_file_why(int e, char *buf, size_t size);

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
  char *iobuf;    /* fp's buffer (glibc sizes its own 4 KiB), or NULL */
  unsigned flags;
  int sys_errno; /* of the last failure, or 0 */
  struct xmt_error_store err;
};

/* --- Child processes (spawn.c) -------------------------------------------
 * The library's one process spawner (posix_spawn; no shell unless argv
 * runs one). Waiting for the child and its pipes are the caller's. */

#define XMT_SPAWN_DEVNULL (-1)

struct xmt_spawn {
  const char *path;  /* the program; a path, not searched (xmt_spawn_find) */
  char *const *argv; /* NULL-terminated */
  int fd[3];         /* the child's standard input, output and error: a
                        descriptor of ours (close-on-exec or not), or
                        XMT_SPAWN_DEVNULL */
  int own_group;     /* in a process group of its own, so that kill(-pid)
                        ends all it starts, with SIGPIPE's default action
                        and no blocked signals whatever ours are */
};

/* Starts s->path; 0 with *pid set, or an errno value. */
int xmt_spawn(const struct xmt_spawn *s, pid_t *pid);
/* prog itself when it has a '/' and may be run, else the first executable
 * regular file named prog in a directory of $PATH ("/usr/bin:/bin" when
 * unset); NULL when there is none, or when out of memory (*nomem). */
char *xmt_spawn_find(const char *prog, int *nomem);

/* --- Libraries loaded on first use (dynlib.c) -----------------------------
 * A table of function pointers filled from a shared library with dlopen
 * and dlsym; the library's own header still gives the types. */

/* One function of the library: its name, and the offset of its pointer in
 * the caller's table (offsetof). */
struct xmt_dynsym {
  const char *name;
  size_t offset;
};

/* Loads soname and writes the address of each of syms[0..n) at table +
 * offset. 0, or 1 with "cannot load SONAME: " and dlerror()'s reason in
 * errbuf (the library closed again). A loaded library stays loaded. */
int xmt_dynlib_load(const char *soname, const struct xmt_dynsym *syms, size_t n,
                    void *table, char *errbuf, size_t errlen);

/* What a first-use accessor returns once its pthread_once load has run
 * (once_status, pthread_once's): table, or NULL with the reason in errbuf
 * (the load's, kept in why, or that the load could not run). */
const void *xmt_dynlib_result(int once_status, int failed, const char *why,
                              const char *soname, const void *table,
                              char *errbuf, size_t errlen);

/* A compile-time check that a table's field has the type of the function
 * it is filled with (no code, no reference to the function). */
#define XMT_DYNSYM_CHECK(field, fn) ((void)sizeof(&(fn) == (field)))

#endif /* XMT_BASE_PRIVATE_H */
