/* reader_private.h -- what the pieces of the streaming XLIFF reader share:
 * the reader's state, the one-line accessors (static inline, so they stay
 * out of the library's symbols) and the functions each piece offers the
 * others. The reader is cut by job: reader.c the expat handlers, the
 * helpers and the public calls; reader_unit.c the assembly of a
 * trans-unit (its parts, segments and the pairing of bpt/ept);
 * reader_inline.c the inline codes of a part. Not installed. */
#ifndef XMT_READER_PRIVATE_H
#define XMT_READER_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "reader_private.h is internal to libxliffmt"
#endif

#include <expat.h>
#include <string.h>

#include "xliff_private.h"

#define XLIFF_NS "urn:oasis:names:tc:xliff:document:1."
#define XML_NS "http://www.w3.org/XML/1998/namespace"
#define SDL_NS "http://sdl.com/FileTypes/SdlXliff/1.0"
#define MQ_NS "MQXliff"
/* Bytes handed to expat per call; bounds the decode buffer too. */
#define FEED_MAX (1u << 20)

enum part {
  PART_NONE,
  PART_SOURCE,
  PART_SEG_SOURCE,
  PART_TARGET,
  PART_SEG_DEFS, /* Trados's sdl:seg-defs */
  PART_OTHER
};

/* What an open element inside a source, seg-source or target is. */
enum frame { FRAME_PAIR, FRAME_OUTSIDE, FRAME_SEGMENT };

/* An attribute value kept from a start tag to its end tag, in a buffer
 * reused from element to element. */
struct kept {
  struct xmt_buf buf;
  int set; /* 0: the attribute was absent */
};

/* A bx/ex/bpt/ept seen in a part, to check that they pair up. */
struct code_ref {
  const char *name;
  char *key;
  uint64_t offset; /* located only for a message: locating costs a scan */
  int matched;
};

struct xmt_xliff_reader {
  struct xmt_xliff_reader_callbacks cb;
  void *user;
  XML_Parser parser;
  char *filename;
  struct xmt_error_store err;
  xmt_status status;

  int keep_entities; /* external references become placeholder codes */
  int started;       /* encoding detected */
  enum xmt_encoding enc;
  struct xmt_buf sniff;
  struct xmt_decoder dec;

  /* The UTF-8 stream from byte `base` on; bytes before `flushed` have been
   * handed out. */
  struct xmt_buf window;
  struct xmt_buf input; /* xmt_xliff_reader_buffer's when not the window */
  int in_window;        /* the last buffer handed out is the window's end */
  uint64_t base;
  uint64_t flushed;
  uint64_t safe_end; /* end of the last event outside any unit */

  unsigned long depth;
  int seen_root;
  int version; /* XMT_XLIFF_10, 11 or 12 */
  char *ns;    /* the root's namespace, or NULL */
  size_t ns_len;
  char *mq_prefix;            /* memoQ's namespace prefix, colon included */
  struct xmt_xml_names names; /* the namespaces in scope */
  /* Per open file/group: FLAG_TRANSLATE and FLAG_PRESERVE (xml:space). */
  char *translate;
  size_t ntranslate, translate_cap;
  int root_preserve; /* xml:space="preserve" on <xliff> */
  char *source_language;
  char *target_language;

  xmt_xliff_unit *unit;
  struct xmt_raw_block *raw_block; /* where units' bytes go */
  uint64_t unit_start;
  unsigned long unit_depth;
  enum part part;
  unsigned long part_depth;
  struct xmt_inline_builder ib;
  int in_segment;
  size_t tseg; /* the target mrk segment open, or SIZE_MAX */
  char *segment_mid;
  size_t segment_inner_start;
  char *frames;
  size_t nframes, frames_cap;
  int code_depth;
  int sub_depth;      /* code_depth inside the outermost <sub> open, or 0 */
  uint64_t sub_start; /* where that sub's content starts */
  int sub_has_text;   /* more than white space in it */
  uint64_t code_start;
  char code_name[8];
  struct kept code_key; /* its rid or id */
  struct kept code_pos;
  uint64_t code_offset;
  /* Our own line count: expat's costs a scan per call. Position of byte
   * pos_upto: line pos_line, pos_col characters into it. */
  uint64_t pos_upto;
  unsigned long pos_line, pos_col;
  struct code_ref *codes;
  size_t ncodes, codes_cap;
  struct xmt_buf seg_text;
  int target_content;
};

/* --- One-line accessors ----------------------------------------------------
 */

/* 1 when a and b are the same string; the first letters are compared
 * before a call, since most names differ there. */
static inline int same(const char *a, const char *b) {
  return a[0] == b[0] && strcmp(a, b) == 0;
}

static inline const char *attr(const char **atts, const char *name) {
  for (; atts[0] != NULL; atts += 2)
    if (same(atts[0], name))
      return atts[1];
  return NULL;
}

static inline unsigned long cur_line(const xmt_xliff_reader *r) {
  return (unsigned long)XML_GetCurrentLineNumber(r->parser);
}

static inline unsigned long cur_column(const xmt_xliff_reader *r) {
  return (unsigned long)XML_GetCurrentColumnNumber(r->parser) + 1;
}

static inline const char *window_at(const xmt_xliff_reader *r, uint64_t pos) {
  return r->window.data + (pos - r->base);
}

static inline const char *kept(const struct kept *k) {
  return !k->set ? NULL : k->buf.data != NULL ? k->buf.data : "";
}

enum { FLAG_TRANSLATE = 1, FLAG_PRESERVE = 2 };

static inline int inherited_translate(const xmt_xliff_reader *r) {
  return r->ntranslate == 0 ||
         (r->translate[r->ntranslate - 1] & FLAG_TRANSLATE) != 0;
}

/* xml:space="preserve" in scope, from the open file, groups or root. */
static inline int inherited_preserve(const xmt_xliff_reader *r) {
  return r->ntranslate == 0
             ? r->root_preserve
             : (r->translate[r->ntranslate - 1] & FLAG_PRESERVE) != 0;
}

static inline size_t unit_offset(const xmt_xliff_reader *r, uint64_t pos) {
  return (size_t)(pos - r->unit_start);
}

static inline int builder_active(const xmt_xliff_reader *r) {
  return r->part == PART_SOURCE || r->part == PART_TARGET ||
         (r->part == PART_SEG_SOURCE && r->in_segment);
}

/* --- reader.c: names, errors, positions, the skeleton, kept values ---------
 */

const char *xmt_reader_xliff_name(const xmt_xliff_reader *r, const char *name,
                                  int *is_xliff);
int xmt_reader_ns_name(const char *name, const char *ns, const char *local);
void xmt_reader_fail(xmt_xliff_reader *r, xmt_status st, unsigned long line,
                     unsigned long column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void xmt_reader_fail_status(xmt_xliff_reader *r, xmt_status st);
void xmt_reader_locate(const xmt_xliff_reader *r, uint64_t to,
                       unsigned long *line, unsigned long *col);
void xmt_reader_advance_position(xmt_xliff_reader *r, uint64_t to);
void xmt_reader_emit_skeleton(xmt_xliff_reader *r, uint64_t upto);
void xmt_reader_push_frame(xmt_xliff_reader *r, enum frame f);
void xmt_reader_keep(xmt_xliff_reader *r, struct kept *k, const char *value);
void xmt_reader_set_string(xmt_xliff_reader *r, char **dst, const char *value);

/* --- reader_unit.c: trans-units, their parts and segments, bpt/ept pairs ---
 */

void xmt_reader_clear_codes(xmt_xliff_reader *r);
void xmt_reader_note_code(xmt_xliff_reader *r, const char *name,
                          const char *key);
void xmt_reader_start_unit(xmt_xliff_reader *r, const char **atts, uint64_t at,
                           int count);
void xmt_reader_finish_segment(xmt_xliff_reader *r, const char *mid,
                               size_t inner_start, size_t inner_end);
void xmt_reader_start_part(xmt_xliff_reader *r, const char *name,
                           const char **atts, uint64_t at, int count);
void xmt_reader_end_part(xmt_xliff_reader *r, uint64_t at, int count);
void xmt_reader_finish_unit(xmt_xliff_reader *r, uint64_t end);

/* --- reader_inline.c: inline codes, and codes between segments -------------
 */

void xmt_reader_inline_start(xmt_xliff_reader *r, const char *name,
                             const char **atts, uint64_t at, int count);
void xmt_reader_inline_end(xmt_xliff_reader *r, uint64_t at, int count);
void xmt_reader_inline_other(xmt_xliff_reader *r, uint64_t at, int count);

#endif
