/* xmt_xliff.h -- streaming, byte-preserving XLIFF 1.0, 1.1 and 1.2 reader
 * and writer, with the conventions of Trados SDLXLIFF and memoQ MQXLIFF.
 *
 * The reader is a push parser: feed it bytes in any chunk sizes and it calls
 * back with, in document order, (a) skeleton bytes to copy to the output
 * unchanged, (b) each <file> start tag, (c) each <trans-unit>, parsed into
 * tagged segments. Memory is bounded by the largest trans-unit.
 *
 * Every byte given to the callbacks is UTF-8, whatever the input encoding:
 * the reader transcodes on entry and the writer encodes back on exit, so
 * that feeding the writer everything the reader produced reproduces the
 * input byte for byte. */
#ifndef XMT_XLIFF_H
#define XMT_XLIFF_H

#include <stddef.h>
#include <xmt_projector.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Input encodings the reader accepts. The writer writes the same one. */
enum xmt_encoding {
  XMT_ENC_UTF8 = 0,    /* with or without BOM */
  XMT_ENC_UTF16LE = 1, /* with BOM */
  XMT_ENC_UTF16BE = 2, /* with BOM */
  XMT_ENC_LATIN1 = 3,  /* ISO-8859-1 */
  XMT_ENC_CP1252 = 4,  /* windows-1252 */
  XMT_ENC_ASCII = 5    /* US-ASCII */
};
/* Canonical name of an encoding, e.g. "windows-1252". */
XMT_API const char *xmt_encoding_name(enum xmt_encoding enc);

/* What a <file> element says about itself. Absent attributes are NULL. */
struct xmt_xliff_file_info {
  const char *original;
  const char *source_language;
  const char *target_language;
  const char *datatype;
  unsigned long line;
};

typedef struct xmt_xliff_unit xmt_xliff_unit;
typedef struct xmt_xliff_reader xmt_xliff_reader;
typedef struct xmt_xliff_writer xmt_xliff_writer;

/* Callbacks return 0 to go on; anything else stops the parse, which then
 * returns XMT_ERR_ABORTED. Pointer arguments live only during the call,
 * except the unit, which the unit callback owns and must free with
 * xmt_xliff_unit_free(). */
typedef int (*xmt_xliff_skeleton_fn)(void *user, const char *bytes, size_t len);
typedef int (*xmt_xliff_file_fn)(void *user,
                                 const struct xmt_xliff_file_info *info,
                                 const char *start_tag, size_t len);
typedef int (*xmt_xliff_unit_fn)(void *user, xmt_xliff_unit *unit);

struct xmt_xliff_reader_callbacks {
  xmt_xliff_skeleton_fn skeleton; /* required */
  xmt_xliff_file_fn file;         /* NULL: the start tag goes to skeleton */
  xmt_xliff_unit_fn unit;         /* NULL: units are freed, bytes skeleton */
};

/* The callbacks struct is copied. Returns NULL when out of memory. */
XMT_API xmt_xliff_reader *
xmt_xliff_reader_new(const struct xmt_xliff_reader_callbacks *callbacks,
                     void *user);
XMT_API void xmt_xliff_reader_free(xmt_xliff_reader *reader);
/* Name used in error messages, e.g. the input path. Copied. */
XMT_API xmt_status xmt_xliff_reader_set_filename(xmt_xliff_reader *reader,
                                                 const char *name);
/* A reference to an external or undeclared entity in translatable text is
 * an error (the default: its text cannot be read and would be lost); with
 * keep set it becomes a placeholder code whose markup is the reference
 * itself, so the translation carries it as written. */
XMT_API void xmt_xliff_reader_keep_entities(xmt_xliff_reader *reader, int keep);
/* Pushes the next len bytes; is_final marks the last call. After an error
 * every further call returns the same status. */
XMT_API xmt_status xmt_xliff_reader_parse(xmt_xliff_reader *reader,
                                          const char *bytes, size_t len,
                                          int is_final);
/* The detected encoding; meaningful once the first callback has run. */
XMT_API enum xmt_encoding
xmt_xliff_reader_encoding(const xmt_xliff_reader *reader);
XMT_API const struct xmt_error *
xmt_xliff_reader_error(const xmt_xliff_reader *reader);
/* The document's XLIFF version, "1.0", "1.1" or "1.2", from its namespace
 * or else its version attribute; meaningful once the root was read. */
XMT_API const char *xmt_xliff_reader_version(const xmt_xliff_reader *reader);

/* --- Units ----------------------------------------------------------------
 * A unit has one segment per <mrk mtype="seg"> of its <seg-source>, or a
 * single segment holding the whole <source> when it has no seg-source. */

XMT_API void xmt_xliff_unit_free(xmt_xliff_unit *unit);
XMT_API const char *xmt_xliff_unit_id(const xmt_xliff_unit *unit);
XMT_API const char *xmt_xliff_unit_resname(const xmt_xliff_unit *unit);
/* 0 when the unit or an enclosing group says translate="no". */
XMT_API int xmt_xliff_unit_translatable(const xmt_xliff_unit *unit);
/* 1 when xml:space="preserve" is in scope of the unit's source (on it, its
 * seg-source, the trans-unit, a group, the file or the root): its line
 * breaks are significant. Else a line break and the white space around it
 * are one space to segmentation and MT. */
XMT_API int xmt_xliff_unit_preserve_space(const xmt_xliff_unit *unit);
XMT_API int xmt_xliff_unit_approved(const xmt_xliff_unit *unit);
XMT_API int xmt_xliff_unit_segmented(const xmt_xliff_unit *unit);
/* 1 when a <target> with text or inline codes is present, and, when it has
 * a <mrk mtype="seg"> for every segment, none of its segments still wants
 * a translation (xmt_xliff_unit_segment_wanted without overwrite): Trados
 * writes a target of empty mrks, or of mrks holding only copies of their
 * segments' codes, for segments yet to translate. 0 when the target has
 * mrks of segments but none for some segment of the <seg-source> (outside
 * SDLXLIFF, whose missing mrks are open segments): it translates the unit
 * in part. */
XMT_API int xmt_xliff_unit_has_target(const xmt_xliff_unit *unit);
/* The state attribute of the existing target, or NULL. */
XMT_API const char *xmt_xliff_unit_target_state(const xmt_xliff_unit *unit);
/* Line and column (1-based, in characters) of the <trans-unit> start
 * tag. */
XMT_API unsigned long xmt_xliff_unit_line(const xmt_xliff_unit *unit);
XMT_API unsigned long xmt_xliff_unit_column(const xmt_xliff_unit *unit);
/* Source and target language of the enclosing <file> (may be NULL). */
XMT_API const char *xmt_xliff_unit_source_language(const xmt_xliff_unit *u);
XMT_API const char *xmt_xliff_unit_target_language(const xmt_xliff_unit *u);

XMT_API size_t xmt_xliff_unit_segment_count(const xmt_xliff_unit *unit);
/* 1 when segment i wants a translation: it is not locked (SDLXLIFF
 * sdl:seg locked="true"), and overwrite is set, or the target has no mrk
 * for every segment, or segment i's mrk is still open. A mrk is open when
 * it is empty (no text but whitespace, no element) or, in SDLXLIFF, when
 * it holds inline codes and no text (x, bx/ex, ph..., g pairs of codes and
 * whitespace) and its sdl:seg says nothing came into it (origin absent or
 * "not-translated"); never when the sdl:seg confirms it (conf
 * "Translated", "ApprovedTranslation" or "ApprovedSignOff"). */
XMT_API int xmt_xliff_unit_segment_wanted(const xmt_xliff_unit *unit, size_t i,
                                          int overwrite);
/* 1 when segment i is locked (SDLXLIFF sdl:seg locked="true"). */
XMT_API int xmt_xliff_unit_segment_locked(const xmt_xliff_unit *unit, size_t i);
/* The mid of segment i, or NULL for an unsegmented unit. */
XMT_API const char *xmt_xliff_unit_segment_mid(const xmt_xliff_unit *unit,
                                               size_t i);
XMT_API const xmt_segment *xmt_xliff_unit_source(const xmt_xliff_unit *unit,
                                                 size_t i);
/* The existing <target> as one segment (segment markers left out), or NULL
 * when the unit has no target element. */
XMT_API const xmt_segment *
xmt_xliff_unit_existing_target(const xmt_xliff_unit *unit);
/* Sets the translation of segment i; copied. The writer writes a target
 * only when every segment that wants one (xmt_xliff_unit_segment_wanted)
 * has one. */
XMT_API xmt_status xmt_xliff_unit_set_target(xmt_xliff_unit *unit, size_t i,
                                             const xmt_segment *target);

/* --- Writer --------------------------------------------------------------- */

typedef int (*xmt_write_fn)(void *user, const char *bytes, size_t len);

/* How targets are written. */
struct xmt_xliff_target_options {
  const char *target_language; /* xml:lang of written targets; required */
  const char *state;           /* NULL: no state attribute */
  const char *state_qualifier; /* NULL: none; XLIFF 1.2 documents only */
  int overwrite;               /* replace existing non-empty targets */
  int alt_trans;               /* write <alt-trans origin="xliffmt"> instead */
  int approved;                /* mark units that get a target approved="yes" */
  int seg_source; /* write a unit segmented for MT with a new <seg-source>
                     and a target of mrk segments, as Okapi Tikal -seg
                     does (XLIFF 1.2 only); else one whole <target> */
};

/* Output goes to sink in blocks; a non-zero return from sink fails the
 * write with XMT_ERR_WRITE. */
XMT_API xmt_xliff_writer *xmt_xliff_writer_new(xmt_write_fn sink, void *user);
XMT_API void xmt_xliff_writer_free(xmt_xliff_writer *writer);
/* The encoding of the output (default XMT_ENC_UTF8), usually the one the
 * reader found. XMT_ERR_USAGE, and nothing changed, for a value outside
 * enum xmt_encoding. */
XMT_API xmt_status xmt_xliff_writer_set_encoding(xmt_xliff_writer *writer,
                                                 enum xmt_encoding enc);
XMT_API xmt_status xmt_xliff_writer_skeleton(xmt_xliff_writer *writer,
                                             const char *utf8, size_t len);
/* Writes a <file> start tag, adding target-language="..." when the tag has
 * none and target_language is not NULL. */
XMT_API xmt_status xmt_xliff_writer_file_tag(xmt_xliff_writer *writer,
                                             const char *tag, size_t len,
                                             const char *target_language);
/* Writes a unit: unchanged, unless it is translatable, has a target for
 * every segment that wants one, and has no non-empty target (or
 * options->overwrite). The output keeps the input's shape: a unit read
 * with a <seg-source> gets a target of mrk segments; one segmented by
 * xmt_segmenter_segment_unit gets one whole target (or, with
 * options->seg_source, a new <seg-source> and a segmented target). New
 * elements take the prefix the unit's own elements have. An existing
 * target with a mrk per segment is filled mrk by mrk when some are kept
 * (translated or locked) or the unit is SDLXLIFF; each segment filled gets
 * conf="Draft" origin="mt" origin-system="xliffmt" on its sdl:seg, and a
 * code its translation carries that the target held outside its mrk is
 * not written there again (codes the seg-source too holds between
 * segments stay). A memoQ unit keeps its target's start tag and gets
 * mq:status="MachineTranslated" and mq:lastchangedtimestamp (the time of
 * the first such unit, or SOURCE_DATE_EPOCH when set). */
XMT_API xmt_status
xmt_xliff_writer_unit(xmt_xliff_writer *writer, const xmt_xliff_unit *unit,
                      const struct xmt_xliff_target_options *options);
/* 1 when xmt_xliff_writer_unit would write a target for the unit. */
XMT_API int
xmt_xliff_unit_wants_target(const xmt_xliff_unit *unit,
                            const struct xmt_xliff_target_options *options);
XMT_API xmt_status xmt_xliff_writer_flush(xmt_xliff_writer *writer);

/* --- Inline markup --------------------------------------------------------
 * Conversion between XLIFF 1.2 inline content ("Text <g id='1'>bold</g>")
 * and tagged segments; lossless both ways. */

/* Parses inline content into seg (cleared first). On failure, *error_column
 * (if not NULL) gets the 1-based column of the problem. */
XMT_API xmt_status xmt_xliff_inline_parse(xmt_segment *seg, const char *markup,
                                          size_t len,
                                          unsigned long *error_column);
/* The same for generic XML or HTML inline markup with any element names
 * ("A <b>bold</b> word<br/>"): an element with an end tag is an OPEN/CLOSE
 * pair (start and end tag as markup) whose id is its id attribute, or
 * "NAME#n" for the n-th element NAME without one; a self-closing element is
 * a PLACEHOLDER with the same kind of id. Tag names are the element names as
 * written (prefix included), markup bytes are kept exactly. The text is
 * decoded as by xmt_xliff_inline_parse, and HTML 4 named entities (&nbsp;,
 * &eacute;...) too. The snippet must be well-formed XML: HTML void
 * elements are written <br/>, not <br>. */
XMT_API xmt_status xmt_xliff_inline_parse_generic(xmt_segment *seg,
                                                  const char *markup,
                                                  size_t len,
                                                  unsigned long *error_column);
/* Renders seg as inline content; returns a NUL-terminated string to free()
 * with free(), or NULL when out of memory or seg is NULL. */
XMT_API char *xmt_xliff_inline_render(const xmt_segment *seg, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* XMT_XLIFF_H */
