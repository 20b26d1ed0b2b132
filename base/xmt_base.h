/* xmt_base.h -- what every part of libxliffmt shares: the status codes,
 * the error detail of a handle, the export marker, and output files that
 * appear whole or not at all.
 *
 * base/ is the bottom of the library: projector/, xliff/, filter/ and the
 * program sit above it and it includes nothing of theirs. Installed;
 * xmt_projector.h includes it, so including any public header is enough. */
#ifndef XMT_BASE_H
#define XMT_BASE_H

#include <stddef.h>
#include <stdio.h>

#if defined(XMT_BUILDING_LIBRARY) && defined(__GNUC__)
#define XMT_API __attribute__((visibility("default")))
#else
#define XMT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A NULL handle, in every public function (libxliffmt(3)): nothing is
 * done, and the function returns XMT_ERR_USAGE (a status), NULL (a
 * pointer; xmt_segment_text: ""), 0 (a number) or nothing (a free
 * function). tests/test_api_null.c calls every XMT_API function so. */

/* Status codes. Appended to, never renumbered. */
typedef enum xmt_status {
  XMT_OK = 0,
  XMT_ERR_NOMEM = 1,     /* out of memory */
  XMT_ERR_IO = 2,        /* an input could not be opened or read */
  XMT_ERR_USAGE = 3,     /* an invalid argument or option */
  XMT_ERR_XML = 4,       /* input is not well-formed XML */
  XMT_ERR_NOT_XLIFF = 5, /* well-formed, but not XLIFF 1.0-1.2 or 2.0-2.2 */
  XMT_ERR_ENCODING = 6,  /* unknown encoding or bytes invalid in it */
  XMT_ERR_INLINE = 7,    /* inline codes broken: unpaired, mis-nested */
  XMT_ERR_BACKEND = 8,   /* the MT backend failed */
  XMT_ERR_ABORTED = 9,   /* a callback asked to stop */
  XMT_ERR_INTERNAL = 10, /* a bug in xliffmt */
  XMT_ERR_WRITE = 11,    /* the output could not be written */
  XMT_ERR_PARTIAL = 12,  /* done, but some segments were not translated */
  XMT_ERR_FORMAT = 13    /* input of an unsupported or unknown format */
} xmt_status;

/* A static English message for a status; never NULL. */
XMT_API const char *xmt_strerror(xmt_status status);

/* Detail of the last failure of a handle. Strings are borrowed from the
 * handle and cleared at its next public call. Absent parts are NULL or 0. */
struct xmt_error {
  xmt_status status;
  const char *message;
  const char *file;
  unsigned long line;   /* 1-based; 0 when unknown */
  unsigned long column; /* 1-based, in characters; 0 when unknown */
  const char *unit_id;
};

/* --- Atomic output files ---------------------------------------------------
 * An output that appears whole or not at all. A regular file (new, or an
 * existing one, a symbolic link included: the link itself is replaced) is
 * written unnamed (O_TMPFILE) or, where the system or file system cannot,
 * under a temporary name beside it, and renamed over it at commit; abort,
 * or a failed commit, leaves the old file as it was and nothing beside it.
 * A new file gets the mode of any file created (0666 less the umask); a
 * replaced one keeps its mode (XMT_ATOMIC_FILE_PRIVATE: 0600 either
 * way). Standard output ("-" or NULL), devices and FIFOs are written in
 * place: renaming over them would replace them; so is a file that is
 * standard output or error (-o /dev/stdout, output redirected to it).
 *
 * The handle owns its stream and copies the path. Errors: XMT_ERR_NOMEM,
 * or XMT_ERR_WRITE with "cannot create output: REASON" (open) or "cannot
 * write: REASON" (commit) for the file, in xmt_atomic_file_error(). */

typedef struct xmt_atomic_file xmt_atomic_file;

/* Flags of xmt_atomic_file_open. */
#define XMT_ATOMIC_FILE_SYNC 1u    /* fsync before naming the file */
#define XMT_ATOMIC_FILE_PRIVATE 2u /* 0600, new or replaced: a cache */

/* NULL when out of memory. */
XMT_API xmt_atomic_file *xmt_atomic_file_new(void);
/* Aborts what is not committed. NULL is a no-op. */
XMT_API void xmt_atomic_file_free(xmt_atomic_file *af);
/* Starts an output to path; a handle holds one output at a time. */
XMT_API xmt_status xmt_atomic_file_open(xmt_atomic_file *af, const char *path,
                                        unsigned flags);
/* Where to write, until commit or abort (borrowed). */
XMT_API FILE *xmt_atomic_file_stream(xmt_atomic_file *af);
/* Flushes and puts the file in place. On failure the output is aborted. */
XMT_API xmt_status xmt_atomic_file_commit(xmt_atomic_file *af);
/* Drops the output and the error: the temporary file goes, the target is
 * untouched (what was already written to a device or FIFO stays written).
 * Safe after commit and on a handle never opened. */
XMT_API void xmt_atomic_file_abort(xmt_atomic_file *af);
/* The last failure (borrowed until the next call on af). */
XMT_API const struct xmt_error *
xmt_atomic_file_error(const xmt_atomic_file *af);
/* The system's errno behind the last failure, 0 when none: for callers
 * that word their own message. */
XMT_API int xmt_atomic_file_errno(const xmt_atomic_file *af);

#ifdef __cplusplus
}
#endif

#endif /* XMT_BASE_H */
