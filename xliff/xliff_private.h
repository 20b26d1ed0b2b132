/* xliff_private.h -- internals shared by the XLIFF reader, writer and inline
 * parser. Not installed. */
#ifndef XMT_XLIFF_PRIVATE_H
#define XMT_XLIFF_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "xliff_private.h is internal to libxliffmt"
#endif

#include <expat.h>
#include <stdint.h>

#include "projector_private.h"
#include "xmt_xliff.h"

/* --- Encodings (encoding.c) ------------------------------------------------
 */

/* Detects the encoding from the first bytes of a document. Returns XMT_OK
 * with *enc set, XMT_ERR_ENCODING with a message in msg (unknown or
 * unsupported encoding; *column gets the position of the name), or
 * XMT_ERR_USAGE when more bytes are needed (and is_final is 0). */
xmt_status xmt_encoding_detect(const char *bytes, size_t len, int is_final,
                               enum xmt_encoding *enc, char *msg, size_t msglen,
                               unsigned long *column);

/* Streaming decoder from an encoding to UTF-8. */
struct xmt_decoder {
  enum xmt_encoding enc;
  unsigned char pending[4]; /* a UTF-16 unit or pair cut by a chunk end */
  size_t npending;
  unsigned long line; /* position, for error messages */
  unsigned long column;
};
void xmt_decoder_init(struct xmt_decoder *dec, enum xmt_encoding enc);
/* Appends the UTF-8 form of bytes to out. Returns XMT_ERR_ENCODING on bytes
 * invalid in the encoding (dec->line/column tell where), or when is_final
 * and a character is cut short. */
xmt_status xmt_decoder_run(struct xmt_decoder *dec, const char *bytes,
                           size_t len, int is_final, struct xmt_buf *out);

/* Appends UTF-8 text to out in encoding enc. With escape, characters enc
 * cannot hold become numeric character references; without, they are an
 * error (XMT_ERR_ENCODING). */
xmt_status xmt_encode(enum xmt_encoding enc, const char *utf8, size_t len,
                      int escape, struct xmt_buf *out);

/* --- Inline content builder (inline.c) ------------------------------------
 * Collects the text and inline codes of one segment from parser events, then
 * builds the tagged segment: bx/ex and bpt/ept found together become
 * OPEN/CLOSE pairs when that keeps the segment well nested. */

struct xmt_pending_tag {
  enum xmt_tag_kind kind;
  size_t offset;    /* in ib->text */
  const char *name; /* static string, or NULL: the name is in ib->pool */
  size_t name_off;  /* offset of the NUL-terminated name when name is NULL */
  size_t key;       /* offset of the NUL-terminated key in ib->pool */
  size_t key_len;   /* its length, the NUL not counted */
  size_t markup;    /* offset of the markup in ib->pool */
  size_t markup_len;
  size_t partner; /* index of the other end of a pair, or SIZE_MAX */
};

struct xmt_tag_ref;
struct xmt_inline_builder {
  struct xmt_buf text;
  struct xmt_buf pool; /* keys and markup */
  struct xmt_pending_tag *tags;
  size_t ntags, cap;
  size_t *open; /* stack of indexes of open g/mrk pairs */
  size_t nopen, open_cap;
  size_t mrk_count;
  /* Work space of xmt_ib_finish, kept from one segment to the next. */
  struct xmt_tag_ref *refs;
  size_t refs_cap;
  size_t *work;
  size_t work_cap;
  struct xmt_buf candidate;
};

/* The name of a pending tag. */
static inline const char *xmt_pending_name(const struct xmt_inline_builder *ib,
                                           const struct xmt_pending_tag *t) {
  return t->name != NULL ? t->name : ib->pool.data + t->name_off;
}

void xmt_ib_init(struct xmt_inline_builder *ib);
void xmt_ib_free(struct xmt_inline_builder *ib);
void xmt_ib_reset(struct xmt_inline_builder *ib);
xmt_status xmt_ib_text(struct xmt_inline_builder *ib, const char *s,
                       size_t len);
/* A g or non-segment mrk start tag; key is its id (NULL: none). */
xmt_status xmt_ib_open(struct xmt_inline_builder *ib, const char *name,
                       const char *key, const char *markup, size_t len);
/* The end tag of the innermost open pair. */
xmt_status xmt_ib_close(struct xmt_inline_builder *ib, const char *markup,
                        size_t len);
/* A whole code element (x, bx, ex, ph, bpt, ept, it, foreign, empty g). */
xmt_status xmt_ib_code(struct xmt_inline_builder *ib, enum xmt_tag_kind kind,
                       const char *name, const char *key, const char *markup,
                       size_t len);
xmt_status xmt_ib_finish(struct xmt_inline_builder *ib, xmt_segment *out);
/* The same into a new segment of the exact size, in one allocation. */
xmt_status xmt_ib_finish_new(struct xmt_inline_builder *ib, xmt_segment **out);
/* The steps of xmt_ib_finish (inline_pairs.c): each bx (bpt) pairs with
 * the first unpaired ex (ept) after it with its key when that keeps the
 * segment well nested; then a pair key an earlier pair has gets "#n". */
xmt_status xmt_ib_pair_isolated(struct xmt_inline_builder *ib);
xmt_status xmt_ib_unique_keys(struct xmt_inline_builder *ib);

/* Kind of a code element from its local name and pos attribute. */
enum xmt_tag_kind xmt_code_kind(const char *name, const char *pos);
/* 1 for the names whose whole element is one code (x, bx, ex, ph, bpt, ept,
 * it); g and mrk are pairs. */
int xmt_is_code_element(const char *name);
/* 1 for a <mrk mtype="protected">: its text is not to be translated
 * (XLIFF 1.2 mtype; Trados's and memoQ's locked text, Okapi's
 * translate="no"), so the element is one code kept whole, as an XLIFF 2
 * <mrk translate="no"> is. */
int xmt_is_protected_mrk(const char *name, const char **atts);

/* Appends the inline markup of seg (see xmt_xliff_inline_render). */
xmt_status xmt_inline_render_into(struct xmt_buf *out, const xmt_segment *seg);
/* Appends text escaped for XML element content. */
xmt_status xmt_xml_escape_text(struct xmt_buf *out, const char *s, size_t len);
/* The length of the character at text[i] when XML 1.0 cannot carry it
 * (C0 controls other than tab, line feed and carriage return; U+FFFE,
 * U+FFFF; UTF-16 surrogates), else 0. The escapes below drop such
 * characters. */
size_t xmt_xml_forbidden_at(const char *text, size_t len, size_t i);
/* The first byte from i on (len if none) where xmt_xml_forbidden_at may
 * find something: a run of text to pass over whole. */
size_t xmt_xml_allowed_run(const char *text, size_t len, size_t i);

/* Removes from text what XML cannot carry and C1 controls, and a
 * terminal's escape sequences whole, and carriage returns; a carriage
 * return or C1 control the source (src, src_len) holds too is kept, as
 * its own text. *len is updated. Returns the number of characters (a
 * sequence counts one) removed. */
size_t xmt_text_strip_controls(char *text, size_t *len, const char *src,
                               size_t src_len);

/* Appends s escaped for a double-quoted attribute value; tabs and line
 * breaks as character references, which attribute normalization keeps. */
xmt_status xmt_xml_escape_attr(struct xmt_buf *out, const char *s);

/* --- Units (unit.c) ---------------------------------------------------------
 */

/* A byte range of the unit's raw bytes; end == 0 means absent. */
struct xmt_range {
  size_t start, end;
};

struct xmt_unit_segment {
  char *mid;
  xmt_segment *source;
  xmt_segment *target; /* set by xmt_xliff_unit_set_target */
  xmt_segment *flowed; /* source with line breaks as spaces (xmt_unit_flow) */
  size_t inner_start;  /* content range in raw (seg-source mrk, or source) */
  size_t inner_end;
  size_t tseg; /* its <mrk mtype="seg"> in the target, or SIZE_MAX */
  /* (a segment of a mirrored unit without one is open: its mrk is added) */
  size_t sdlseg; /* its <sdl:seg> in <sdl:seg-defs>, or SIZE_MAX */
  int locked;    /* sdl:seg locked="true": never translated */
};

/* A sub-flow (XLIFF 1.2 <sub> inside a code): text to translate of its
 * own, written back inside the same <sub> of the code's copy in the
 * target. */
struct xmt_unit_sub {
  char *content; /* the <sub>'s content as written, NUL-terminated */
  size_t content_len;
  xmt_segment *source; /* that content parsed */
  xmt_segment *target; /* its translation, or NULL */
};

/* A <mrk mtype="seg"> of an existing target. */
struct xmt_target_seg {
  char *mid;
  struct xmt_range whole; /* the element */
  struct xmt_range inner; /* its content; empty for <mrk .../> */
  int empty;              /* no text but whitespace, no element */
  int text; /* text other than whitespace (the content of codes aside) */
  int self_closing;
};

/* A Trados <sdl:seg> of the unit's <sdl:seg-defs>: its start tag. */
struct xmt_sdl_seg {
  char *id;
  struct xmt_range tag;
  int locked;
  int confirmed; /* conf="Translated", "ApprovedTranslation" or
                    "ApprovedSignOff" */
  int untouched; /* origin absent or "not-translated": nothing came in */
};

/* An element of a segmented unit's <seg-source> or <target> that is
 * outside every <mrk mtype="seg">: a whole code, or a g pair. A pair that
 * holds a segment is two tags, its start and end tag; any other element
 * is whole. */
struct xmt_outside_code {
  struct xmt_range whole; /* the element; end == 0 while it is open */
  size_t tag_end;         /* end of its start tag */
  size_t close_start;     /* start of its end tag (whole.end if none) */
  size_t frame;           /* the reader's frame depth inside a pair */
  int in_target;          /* 0: in <seg-source> */
  int holds_segment;
};

/* The element versions the reader accepts (10, 11, 12). */
enum { XMT_XLIFF_10 = 10, XMT_XLIFF_11 = 11, XMT_XLIFF_12 = 12 };

/* Memory that holds the bytes of many units, freed with the last of them
 * (the reader holds it too while it fills it): one allocation for
 * hundreds of units instead of one each. */
struct xmt_raw_block {
  size_t refs; /* atomic: units may be freed in another thread */
  size_t used, size;
  char data[];
};

struct xmt_xliff_unit {
  struct xmt_buf raw;              /* the whole <trans-unit> element, UTF-8 */
  struct xmt_raw_block *raw_block; /* where raw.data is, or NULL: its own */
  size_t head_end; /* end of the <trans-unit ...> start tag in raw */
  int version;     /* of the document: XMT_XLIFF_10, 11 or 12 */
  /* prefix, mq_prefix, id, resname and the languages are in strings,
   * allocated with the unit; state is its own. */
  char *strings;
  char *prefix;    /* of the XLIFF elements, colon included, or "" */
  char *mq_prefix; /* memoQ's namespace prefix (colon included), or NULL */
  char *id;
  char *resname;
  char *restype; /* of a unit a format built (the reader keeps none) */
  char *state;
  char *source_language;
  char *target_language;
  unsigned long line, column; /* of the <trans-unit> start tag */
  int translatable;
  int preserve_space;
  int approved;
  int segmented;
  /* cut by the document itself (an XLIFF 2 unit of several <segment>s):
   * a segmenter cuts it only to resegment, as one with a <seg-source> */
  int presegmented;
  /* a later <segment> of the document's unit the unit before it was made
   * of (an XLIFF 2 unit of several): counted with that one */
  int continues;
  int has_target; /* a target that translates the unit (xmt_unit_resolve) */
  /* 1: that target only copies the source, in state needs-translation or
   * new (XLIFF 1.2): no translation after all, but still a copy of the
   * source for a segmenter to cut as it cuts the source */
  int copied;
  /* maxwidth with size-unit="char": the most characters its target may
   * hold; 0: no limit known (none, or one in pixels or another unit) */
  size_t max_chars;
  /* 1: the limit is XLIFF 2's slr:sizeRestriction; it limits the units
   * of one document unit together (continues) */
  int max_slr;
  /* XLIFF 2: the slr:sizeRestriction of a <group> around it, as max_chars
   * (0: none), limiting the units of group_scope (a number given to the
   * group, never 0) together */
  size_t group_max;
  unsigned group_scope;
  /* a <sub> inside a code of its source holds text that is not sent to
   * MT (one inside another <sub>, or one that does not parse on its own):
   * the unit cannot be translated */
  int sub_text;
  /* The sub-flows: each <sub> with text inside a code of the source, one
   * for each distinct content (translated once, put in every code that
   * holds it). Kept apart from segs, which a segmenter replaces; a job
   * asks for sub k as segment nsegs + k. */
  struct xmt_unit_sub *subs;
  size_t nsubs, subs_cap;
  struct xmt_range source;       /* whole <source> element */
  struct xmt_range seg_source;   /* whole <seg-source> element */
  struct xmt_range seg_inner;    /* content of <seg-source> */
  struct xmt_range target;       /* whole <target> element */
  xmt_segment *existing;         /* the whole existing target, or NULL */
  xmt_segment *whole_source;     /* the <source>, whatever the segmentation */
  struct xmt_unit_segment *segs; /* segs_inline while they fit there */
  size_t nsegs, segs_cap;
  struct xmt_unit_segment segs_inline[2]; /* most units have one or two */
  /* For checks: whitespace-normalised source and seg-source text differ. */
  int seg_text_differs;
  /* Segments made by a segmenter, not read from the file: gaps[i] (the
   * whitespace and codes outside the mrk elements) comes before segment i,
   * gaps[nsegs] after the last; the writer writes them as a new <seg-source>.
   * NULL for a unit as read. */
  xmt_segment **gaps;
  size_t ngaps;
  /* The gaps as the target writes them, where a code in one holds a
   * translated sub-flow (unit_sub.c): NULL, or ngaps entries, each NULL
   * where the gap is written as it is. */
  xmt_segment **target_gaps;
  /* The existing target's segments; mirrored when every segment has its
   * mrk there, so each can be filled or kept on its own. A Trados target
   * is mirrored with some mrks missing too: the writer adds them. */
  struct xmt_target_seg *tsegs;
  size_t ntsegs, tsegs_cap;
  int mirrored;
  /* Dialects: Trados SDLXLIFF (sdl:seg-defs) and memoQ MQXLIFF. */
  struct xmt_sdl_seg *sdlsegs;
  size_t nsdlsegs, sdlsegs_cap;
  int mq;
  /* Codes between the segments of seg-source and target, in document
   * order: a filled segment's code that the target holds outside its mrk
   * is written once. */
  struct xmt_outside_code *outside;
  size_t noutside, outside_cap;
};

/* Gives the unit a copy of its bytes, in *block (a new block replaces a
 * full one there), or in an allocation of its own when they are large. */
xmt_status xmt_unit_set_raw(xmt_xliff_unit *unit, struct xmt_raw_block **block,
                            const char *bytes, size_t len);
/* Drops a reference to a block; NULL is a no-op. */
void xmt_raw_block_release(struct xmt_raw_block *block);
/* A unit with room for strings bytes at u->strings (freed with it). */
xmt_xliff_unit *xmt_unit_new(size_t strings);
/* Adds a segment; returns its index via *index. mid is copied; source is
 * the segment's (shared, not owned: the whole source), or NULL for a new
 * empty one that the unit owns. */
xmt_status xmt_unit_add_segment(xmt_xliff_unit *unit, const char *mid,
                                xmt_segment *source, size_t *index);
/* Drops all segments (when a seg-source replaces the source's). */
void xmt_unit_clear_segments(xmt_xliff_unit *unit);
/* Once the unit is written: what placing made of it (the segments a
 * segmenter cut, their gaps, every target and flowed copy) freed, by the
 * thread that placed it, which made them: glibc frees a chunk of another
 * thread's arena under that arena's lock, which its thread's mallocs then
 * wait for. What is left is only to be freed. */
void xmt_unit_release_placed(xmt_xliff_unit *unit);
/* Segment i's target, if any, dropped: the segment failed after all. */
void xmt_unit_drop_target(xmt_xliff_unit *unit, size_t i);
/* Sub-flows (unit_sub.c). A job asks for sub k as segment nsegs + k:
 * xmt_unit_mt_source, xmt_xliff_unit_set_target, xmt_unit_segment_target
 * and xmt_unit_drop_target take that index too. */
/* Adds the content of a <sub> with text (copied), once for each distinct
 * content; one that cannot be translated alone sets sub_text instead. */
xmt_status xmt_unit_add_sub(xmt_xliff_unit *unit, const char *content,
                            size_t len);
void xmt_unit_free_subs(xmt_xliff_unit *unit);
void xmt_unit_drop_sub_target(xmt_xliff_unit *unit, size_t k);
xmt_status xmt_unit_set_sub_target(xmt_xliff_unit *unit, size_t k,
                                   const xmt_segment *target);
size_t xmt_unit_sub_count(const xmt_xliff_unit *unit);
/* 1 when every sub-flow has its translation. */
int xmt_unit_subs_translated(const xmt_xliff_unit *unit);
/* The targets of the segments made again with each code's sub-flows in
 * their translation (the codes are copied from the source as they are). */
xmt_status xmt_unit_put_subs(xmt_xliff_unit *unit);
/* Keeps a translation of source in *slot: source itself when they are
 * equal, else a copy (the slot's own segment reused). */
xmt_status xmt_unit_keep_target(xmt_segment **slot, xmt_segment *source,
                                const xmt_segment *target);
/* Gap i (0..nsegs) of a segmented unit as its target writes it. */
const xmt_segment *xmt_unit_target_gap(const xmt_xliff_unit *unit, size_t i);
void xmt_unit_free_target_gaps(xmt_xliff_unit *unit);
/* The characters (code points) of the text of the unit's targets and of
 * the gaps between them: what its max_chars limits. */
size_t xmt_unit_target_chars(const xmt_xliff_unit *unit);
/* Those of the target the unit is written with: its new targets, else
 * the target it had when that translates it. */
size_t xmt_unit_written_chars(const xmt_xliff_unit *unit);
/* Replaces the segments by n generated ones with mids "0", "1"...: on
 * success the unit owns sources[0..n-1] (the array stays the caller's) and
 * gaps, an array of n + 1 segments; on failure nothing changes hands. */
xmt_status xmt_unit_set_generated(xmt_xliff_unit *unit, xmt_segment **sources,
                                  xmt_segment **gaps, size_t n);
/* Of a unit segmented by xmt_xliff_unit_set_generated: gap i (0..nsegs;
 * NULL for a unit as read), and the translation set for segment i (NULL:
 * none), for a format that writes the segments apart (XLIFF 2). */
const xmt_segment *xmt_unit_gap(const xmt_xliff_unit *unit, size_t i);
const xmt_segment *xmt_unit_segment_target(const xmt_xliff_unit *unit,
                                           size_t i);
/* Where white space is not significant (xmt_xliff_unit_preserve_space is
 * 0), gives each segment whose text has a line break between its first and
 * last word a flowed copy: each run of white space with a line break is one
 * space, a run cut by a code is two runs, the edges stay as they are. What
 * is written of the source never changes; MT and the target take the flowed
 * text (xmt_unit_mt_source). */
xmt_status xmt_unit_flow(xmt_xliff_unit *unit);
/* Segment i as MT sees it: its flowed copy, else its source. */
const xmt_segment *xmt_unit_mt_source(const xmt_xliff_unit *unit, size_t i);
/* Appends a target segment or an sdl:seg; returns its index via *index. */
xmt_status xmt_unit_add_tseg(xmt_xliff_unit *unit, const char *mid,
                             size_t *index);
xmt_status xmt_unit_add_sdlseg(xmt_xliff_unit *unit, const char *id,
                               size_t *index);
/* Appends an outside code, zeroed; returns its index via *index. */
xmt_status xmt_unit_add_outside(xmt_xliff_unit *unit, size_t *index);
/* Links segments to their target mrks and sdl:segs once the unit is read,
 * and decides whether its target still wants a translation. Returns a mid
 * that two segments of the seg-source share (the unit cannot be written:
 * a segment would take the other's mrk, id and sdl:seg), else NULL. */
const char *xmt_unit_resolve(xmt_xliff_unit *unit);
/* Once resolved: of a Trados unit (sdl:seg-defs), the index of a target
 * <mrk mtype="seg"> with a mid that no segment of the seg-source took
 * (none has it, or an earlier mrk of the target has it too), else
 * SIZE_MAX. The XLIFF 1.2 schema refuses it (the key reference of a
 * target's mid), and Trados pairs each segment with its sdl:seg by it;
 * written back it would hold a translation of nothing. Other tools' units
 * are let through: a target written before a segmenter made their
 * seg-source (xliffmt's own --seg-source keeps it) has mids of its own. */
size_t xmt_unit_stray_tseg(const xmt_xliff_unit *unit);

/* --- Units a format builds (unit_build.c) -----------------------------------
 * A format other than XLIFF 1.2 hands the pipeline units it builds from
 * what it holds, not XLIFF text for the reader to parse: each is the unit
 * the reader would make of a <trans-unit> with these fields and this
 * source. The XLIFF 1.2 of such units, where some consumer needs text, is
 * written by one serializer (filter/format/units_out.c). */
struct xmt_unit_fields {
  const char *id, *resname, *restype; /* NULL: absent */
  const char *source_language, *target_language;
  unsigned long line, column; /* where the document has the unit */
  int translatable, preserve_space;
  int presegmented; /* see struct xmt_xliff_unit */
  int continues;    /* see struct xmt_xliff_unit */
  size_t max_chars; /* see struct xmt_xliff_unit */
  int max_slr;      /* see struct xmt_xliff_unit */
  size_t group_max; /* see struct xmt_xliff_unit */
  unsigned group_scope;
};
/* seg made what the reader makes of its markup (codes paired and keyed by
 * the inline builder, text XML cannot carry dropped), in out; ib is work
 * space kept from one segment to the next. XMT_ERR_INLINE: seg opens a
 * g it never closes. */
xmt_status xmt_unit_build_segment(struct xmt_inline_builder *ib,
                                  const xmt_segment *seg, xmt_segment *out);
/* A unit of one segment, source, unsegmented, with target as its
 * existing target (NULL: none), in *out (the caller's to free or hand
 * over). */
xmt_status xmt_xliff_unit_build(struct xmt_inline_builder *ib,
                                const struct xmt_unit_fields *in,
                                const xmt_segment *source,
                                const xmt_segment *target,
                                xmt_xliff_unit **out);
/* xmt_xliff_unit_build of source with no target, when the builder would
 * make source of it as it is (xmt_unit_feed_one tells): source copied. */
xmt_status xmt_xliff_unit_copy(const struct xmt_unit_fields *in,
                               const xmt_segment *source, xmt_xliff_unit **out);
/* Feeds side target (0: the source, 1: the target) of a unit to ib, as
 * xmt_ib_put_text and xmt_ib_put_tag: a format that holds the codes and
 * text builds the unit straight, with no segment copied between. */
typedef xmt_status (*xmt_unit_fill)(void *user, int target,
                                    struct xmt_inline_builder *ib);
/* xmt_xliff_unit_build with its sides fed by fill (the target when
 * has_target). */
xmt_status xmt_xliff_unit_fill(struct xmt_inline_builder *ib,
                               const struct xmt_unit_fields *in,
                               xmt_unit_fill fill, void *user, int has_target,
                               xmt_xliff_unit **out);
/* Side target of a unit made straight into *out, as the builder would
 * make it of what fill feeds it, when the format can tell it would
 * change nothing (no pair to make, no key twice); *out left NULL: fill
 * feeds the builder. */
typedef xmt_status (*xmt_unit_make)(void *user, int target, xmt_segment **out);
/* xmt_xliff_unit_fill, each side asked of make first. */
xmt_status xmt_xliff_unit_make(struct xmt_inline_builder *ib,
                               const struct xmt_unit_fields *in,
                               xmt_unit_make make, xmt_unit_fill fill,
                               void *user, int has_target,
                               xmt_xliff_unit **out);
/* Text (less what XML cannot carry) and a code (named as the unit stream
 * names it: g, x, bx, ex, it, ...; key its id) to ib, as
 * xmt_unit_build_segment hands a segment's. */
xmt_status xmt_ib_put_text(struct xmt_inline_builder *ib, const char *text,
                           size_t len);
xmt_status xmt_ib_put_tag(struct xmt_inline_builder *ib, enum xmt_tag_kind kind,
                          const char *key, const char *name, const char *markup,
                          size_t len);
/* Hands a <file> (its languages kept for the units after it) or a unit
 * (taken: handed over or freed) to the reader's callbacks, as parsing
 * would; a callback that stops fails the reader (XMT_ERR_ABORTED at the
 * unit's line), whose status is returned. */
xmt_status xmt_xliff_reader_hand_file(xmt_xliff_reader *reader,
                                      const struct xmt_xliff_file_info *info);
xmt_status xmt_xliff_reader_hand_unit(xmt_xliff_reader *reader,
                                      xmt_xliff_unit *unit);

/* Reading in place (reader.c), as expat's XML_GetBuffer: room for len
 * bytes of input (NULL when out of memory), to fill and hand over with
 * xmt_xliff_reader_parse_buffer, which is xmt_xliff_reader_parse of them.
 * UTF-8 is read straight into the bytes the parser keeps, not copied. */
void *xmt_xliff_reader_buffer(xmt_xliff_reader *reader, size_t len);
xmt_status xmt_xliff_reader_parse_buffer(xmt_xliff_reader *reader, size_t len,
                                         int is_final);

/* --- Output shape (shape.c) --------------------------------------------------
 */

/* The unit's one whole target when it was segmented for MT only: the
 * translated segments joined by the source's text and codes between them,
 * and each g (or bpt/ept) a boundary cut into bx/ex (it) made whole again
 * where the translation keeps it well nested. A segment without a
 * translation gives its source. */
xmt_status xmt_unit_joined_target(const xmt_xliff_unit *unit, xmt_segment *out);
/* Appends the whole target of a unit with gaps to out as markup, as
 * rendering xmt_unit_joined_target's segment would; *joined is scratch
 * kept by the caller (made when first needed). */
xmt_status xmt_unit_render_joined_target(struct xmt_buf *out,
                                         const xmt_xliff_unit *u,
                                         xmt_segment **joined);

/* The target xmt_xliff_writer_unit writes for a unit not read with
 * seg-source, as a segment in *target: NULL when it writes none; the
 * unit's own segment, borrowed as the unit is, when it is one; else
 * joined in scratch. A unit read with seg-source is refused
 * (XMT_ERR_USAGE): its target is its segments' (writer.c). */
xmt_status xmt_xliff_unit_target(const xmt_xliff_unit *unit,
                                 const struct xmt_xliff_target_options *options,
                                 xmt_segment *scratch,
                                 const xmt_segment **target);

/* The index of the '>' that ends the start tag at tag (len bytes), quoted
 * values skipped; len when none does. */
size_t xmt_tag_end(const char *tag, size_t len);
/* Value range of attribute name (exactly, prefix included) in a start tag;
 * 0 when absent. Quoted values are skipped, so a value that mentions the
 * name does not count. */
int xmt_tag_find_attribute(const char *tag, size_t len, const char *name,
                           size_t *value_start, size_t *value_end);
/* The <target> start tag at tag (len bytes) appended with the state and,
 * when qualified (XLIFF 1.2, the version that defines it), the
 * state-qualifier of o (an attribute o has none of removed). */
xmt_status xmt_tag_set_state(struct xmt_buf *out, const char *tag, size_t len,
                             const struct xmt_xliff_target_options *o,
                             int qualified);
/* The <sdl:seg> start tag at tag (len bytes) appended as Trados marks a
 * machine translation: conf="Draft" origin="mt", and no match's percent,
 * text-match or struct-match. */
xmt_status xmt_tag_set_sdl_mt(struct xmt_buf *out, const char *tag, size_t len);
/* Appends the start tag with each names[i] set to values[i]: an existing
 * value replaced, a missing attribute added after the last one; a NULL
 * value removes the attribute. */
xmt_status xmt_tag_set_attributes(struct xmt_buf *out, const char *tag,
                                  size_t len, const char *const *names,
                                  const char *const *values, size_t n);

/* --- XML namespaces without expat's own processing (xml_names.c) ----------
 */

/* The namespaces in scope of an expat parser made with XML_ParserCreate:
 * element and attribute names as its namespace mode gives them, save that
 * elements of the namespace set bare keep their local name and "xml:"
 * attributes keep theirs (see xml_names.c). */
struct xmt_xml_binding;
struct xmt_xml_names {
  struct xmt_xml_binding *v; /* the declarations in scope, innermost last */
  size_t n, cap;
  size_t depth;
  char *bare;                /* its elements keep their local name; NULL none */
  const char *default_uri;   /* in scope; NULL none */
  int default_bare;          /* default_uri is bare, none or "" */
  int default_in_bare;       /* default_uri is bare */
  int element_in_bare;       /* the element last named is in bare */
  struct xmt_buf name;       /* the element name last expanded */
  struct xmt_buf attr_names; /* the attribute names expanded */
  const char **atts;         /* the attributes given for the last tag */
  size_t atts_cap;
  size_t *offsets; /* of the expanded names in attr_names */
  size_t offsets_cap;
  /* Told each declaration (prefix NULL for the default namespace). */
  void (*on_declare)(void *user, const char *prefix, const char *uri);
  void *user;
};

void xmt_xml_names_init(struct xmt_xml_names *ns);
void xmt_xml_names_free(struct xmt_xml_names *ns);
/* Elements of namespace uri (NULL: none) keep their local name. */
xmt_status xmt_xml_names_bare(struct xmt_xml_names *ns, const char *uri);
/* At a start tag: the element's name, and in *out_atts its attributes,
 * as given to the handler (valid until the next call); NULL, with
 * *error what expat's namespace mode would have refused the tag for. */
const char *xmt_xml_names_start(struct xmt_xml_names *ns, const char *qname,
                                const char **atts, const char ***out_atts,
                                enum XML_Error *error);
/* At an end tag: the element's name (NULL with *error, as above); its
 * declarations go out of scope. */
const char *xmt_xml_names_end(struct xmt_xml_names *ns, const char *qname,
                              enum XML_Error *error);
/* At an end tag whose name is not wanted (the start tag's was checked,
 * in the same scope): its declarations go out of scope. */
void xmt_xml_names_pop(struct xmt_xml_names *ns);

#endif /* XMT_XLIFF_PRIVATE_H */
