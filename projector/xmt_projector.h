/* xmt_projector.h -- the tagged-segment model, status codes and errors.
 *
 * This is the bottom module: xliff/ and filter/ depend on it, it depends on
 * nothing of theirs, which is why the status enum shared by the whole
 * library lives here.
 *
 * Ownership: every function copies the strings it is given. Pointers
 * returned by accessors are borrowed from the object and stay valid until
 * the next call that modifies it, or until it is freed. */
#ifndef XMT_PROJECTOR_H
#define XMT_PROJECTOR_H

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
  XMT_ERR_WRITE = 11     /* the output could not be written */
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

/* --- Tagged segments ------------------------------------------------------
 * UTF-8 plain text plus an ordered list of tags. Each tag sits at a byte
 * offset of the text; tags at the same offset keep their list order. */

enum xmt_tag_kind {
  XMT_TAG_OPEN = 0,        /* g, bpt, bx with its ex in the segment, mrk */
  XMT_TAG_CLOSE = 1,       /* the partner of an OPEN with the same id */
  XMT_TAG_PLACEHOLDER = 2, /* x, ph, HTML void elements */
  XMT_TAG_ISOLATED_OPEN =
      3, /* bx or bpt whose partner is elsewhere, it pos=open */
  XMT_TAG_ISOLATED_CLOSE =
      4 /* ex or ept whose partner is elsewhere, it pos=close */
};

struct xmt_tag {
  enum xmt_tag_kind kind;
  size_t offset;      /* byte offset in the plain text */
  const char *id;     /* pairs OPEN with CLOSE; for XLIFF the id or rid */
  const char *name;   /* element name as written: "g", "bx", "b", "img" */
  const char *markup; /* the original markup, UTF-8, not NUL-terminated */
  size_t markup_len;
};

typedef struct xmt_segment xmt_segment;

XMT_API xmt_segment *xmt_segment_new(void);
XMT_API void xmt_segment_free(xmt_segment *seg);
/* Empties the segment but keeps its buffers for reuse. */
XMT_API void xmt_segment_clear(xmt_segment *seg);
XMT_API xmt_status xmt_segment_copy(xmt_segment *dst, const xmt_segment *src);

/* Appends plain UTF-8 text. Invalid UTF-8 is refused with XMT_ERR_ENCODING. */
XMT_API xmt_status xmt_segment_append_text(xmt_segment *seg, const char *text,
                                           size_t len);
/* Appends a tag at the current end of the text. */
XMT_API xmt_status xmt_segment_append_tag(xmt_segment *seg,
                                          enum xmt_tag_kind kind,
                                          const char *id, const char *name,
                                          const char *markup,
                                          size_t markup_len);

/* The plain text; NUL-terminated, *len (if not NULL) gets its length. */
XMT_API const char *xmt_segment_text(const xmt_segment *seg, size_t *len);
XMT_API size_t xmt_segment_tag_count(const xmt_segment *seg);
/* Fills *tag with tag i (0-based). Returns XMT_ERR_USAGE if out of range. */
XMT_API xmt_status xmt_segment_tag(const xmt_segment *seg, size_t i,
                                   struct xmt_tag *tag);

/* Builds dst from src's tags placed at new offsets over a new text:
 * offsets[i] is the offset of src's tag i in text. Offsets must be
 * non-decreasing in tag order and on UTF-8 character boundaries. This is
 * how a projected translation becomes a tagged segment again. */
XMT_API xmt_status xmt_segment_retag(xmt_segment *dst, const xmt_segment *src,
                                     const char *text, size_t len,
                                     const size_t *offsets);

/* Checks the tag structure: OPEN/CLOSE pairs with equal ids, in order and
 * well nested, no id used by two pairs. On failure returns XMT_ERR_INLINE
 * and, if bad_tag is not NULL, the index of the first offending tag. */
XMT_API xmt_status xmt_segment_check(const xmt_segment *seg, size_t *bad_tag);

/* 1 when both segments have the same text and the same tags (kind, offset,
 * id, name and markup), else 0. */
XMT_API int xmt_segment_equal(const xmt_segment *a, const xmt_segment *b);

/* Number of words in UTF-8 text, by ICU word boundaries (runs of letters,
 * numbers or ideographs; punctuation and spaces do not count). */
XMT_API size_t xmt_count_words(const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* XMT_PROJECTOR_H */
