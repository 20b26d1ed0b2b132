/* xmt_base.h -- what every part of libxliffmt shares: the status codes,
 * the error detail of a handle and the export marker.
 *
 * base/ is the bottom of the library: projector/, xliff/, filter/ and the
 * program sit above it and it includes nothing of theirs. Installed;
 * xmt_projector.h includes it, so including any public header is enough. */
#ifndef XMT_BASE_H
#define XMT_BASE_H

#include <stddef.h>

#if defined(XMT_BUILDING_LIBRARY) && defined(__GNUC__)
#define XMT_API __attribute__((visibility("default")))
#else
#define XMT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Appended to, never renumbered. */
typedef enum xmt_status {
  XMT_OK = 0,
  XMT_ERR_NOMEM = 1,     /* out of memory */
  XMT_ERR_IO = 2,        /* an input could not be opened or read */
  XMT_ERR_USAGE = 3,     /* an invalid argument or option */
  XMT_ERR_XML = 4,       /* input is not well-formed XML */
  XMT_ERR_NOT_XLIFF = 5, /* well-formed, but not an XLIFF 1.2 document */
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

#ifdef __cplusplus
}
#endif

#endif /* XMT_BASE_H */
