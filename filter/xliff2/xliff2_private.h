/* xliff2_private.h -- the XLIFF 2.0-2.2 format: a document read whole into
 * the ranges of what may change (segments, sources, targets, inline
 * codes), everything else copied byte for byte. Not installed. */
#ifndef XMT_XLIFF2_PRIVATE_H
#define XMT_XLIFF2_PRIVATE_H

#include "filter_private.h"

/* The namespace of XLIFF 2.0, 2.1 and 2.2 core elements. */
#define X2_NS "urn:oasis:names:tc:xliff:document:2.0"
/* The namespace of the Matches module. */
#define X2_MTC_NS "urn:oasis:names:tc:xliff:matches:2.0"
/* The namespace of the Glossary module. */
#define X2_GLS_NS "urn:oasis:names:tc:xliff:glossary:2.0"
#define X2_SLR_NS "urn:oasis:names:tc:xliff:sizerestriction:2.0"

/* The inline elements of XLIFF 2 core, and what a code stands for:
 * X2_WHOLE is an element kept whole as one placeholder (an empty <pc/> or
 * <mrk/>, or a <mrk translate="no"> with its content). */
enum x2_elem {
  X2_PH,
  X2_CP,
  X2_PC,
  X2_MRK,
  X2_SC,
  X2_EC,
  X2_SM,
  X2_EM,
  X2_WHOLE
};

/* An inline code of a source or target. Its kind is the one it has on the
 * unit stream: PLACEHOLDER (x), OPEN/CLOSE (pc and mrk as g; sc/ec and
 * sm/em found in one segment as bx/ex), ISOLATED_OPEN/CLOSE (it: the
 * partner is in another segment, or isolated="yes"). */
struct x2_code {
  unsigned char elem;       /* enum x2_elem */
  unsigned char kind;       /* enum xmt_tag_kind */
  unsigned char can_delete; /* 0: canDelete="no" */
  unsigned char reorder;    /* canReorder: X2_REORDER_YES, _FIRST_NO, _NO */
  unsigned char far;        /* 1: its partner is in an <ignorable> */
  size_t offset;            /* in the text of its source or target */
  size_t start, end;        /* its markup: the element, or a start or end tag */
  size_t id;                /* its id (ec, em: startRef) in the pool, or NONE */
  size_t partner;           /* the other end of a pair (index), or NONE */
  unsigned number;          /* the id on the unit stream; a pair shares it */
  unsigned own;             /* the id of an ex of its own (EC/EM in a pair) */
};

#define X2_NONE ((size_t)-1)

/* canReorder: a code with "firstNo" starts a sequence of codes that keep
 * their order, the codes with "no" right after it in the source. */
enum { X2_REORDER_YES, X2_REORDER_FIRST_NO, X2_REORDER_NO };

/* A <source> or <target> of a segment. */
struct x2_content {
  size_t start, end;             /* the element; end 0: there is none */
  size_t inner_start, inner_end; /* its content (empty for <target/>) */
  size_t text, text_len;         /* its text in doc->texts */
  size_t first_code, ncodes;     /* its codes in doc->codes */
  int self_closing;
};

enum x2_state { X2_INITIAL, X2_TRANSLATED, X2_REVIEWED, X2_FINAL };

struct x2_segment {
  size_t start, tag_end;   /* the <segment ...> start tag */
  size_t ws_start, ws_end; /* the white space right before <source> */
  struct x2_content source, target;
  size_t id;   /* its id attribute in the pool, or X2_NONE */
  size_t key;  /* its unit-stream id in the pool */
  size_t unit; /* the unit's id in the pool */
  size_t file; /* index of its <file> */
  /* Its unit: the end of the <unit ...> start tag; its <originalData>
   * element (end 0: none); the end tag of its Matches module's <matches>
   * (0: none). */
  size_t unit_tag_end, odata_start, odata_end, matches_close;
  unsigned char translate, preserve, state;
  unsigned char has_target; /* a target with text or codes */
  /* 1: its target, in state initial (or none), is its source's copy (the
   * same text and codes as written): untranslated, filled as if empty */
  unsigned char copied;
  /* alone: 1 when it may be cut into several on its own: the only
   * <segment> of its unit, or one of several whose targets are each at
   * its own place (an order attribute, if any, is renumbered when the
   * places move); can_resegment: canResegment (inherited from <file>,
   * <group>, <unit>) is not "no" there */
  unsigned char alone, can_resegment;
  unsigned char several; /* its unit has other <segment>s */
  /* 1: a target of its unit (of a segment or an <ignorable>) has an
   * order other than its place: the targets were composed across the
   * segments, and are left as they are */
  unsigned char reordered;
  /* 1: an <sm translate="no"> of its unit ends outside the element it is
   * in or holds one end of another pair: its unit is not translated */
  unsigned char nomt_apart;
  /* the slr:sizeRestriction of its unit, under the <file>'s profile
   * xliff:codepoints: the most code points the targets of the unit's
   * segments may hold together; 0: none known */
  size_t max_chars;
  /* the slr:sizeRestriction of the outermost <group> around its unit that
   * has one, as max_chars, and that group's number in the document (0:
   * none): the units of the group are limited together */
  size_t group_max;
  unsigned group_scope;
  /* its place among the <segment>s and <ignorable>s of its unit, and the
   * order of its target (its place, or the target's order attribute),
   * both from 1 */
  unsigned part, order;
  size_t close, end; /* its </segment> end tag */
  size_t unit_end;   /* its unit's </unit> end tag */
  /* the document's line its start is on, from 1, when a stream's part
   * counted it (stream.c); 0: not counted */
  unsigned long line;
};

/* A sentence of a segment split into several (--seg-source): its text in
 * the source's, its codes, where it starts and ends in the document, and
 * the run's translation of it. */
struct x2_part {
  size_t text_start, text_end;
  size_t first_code, ncodes;
  size_t raw_start, raw_end;
  xmt_segment *target;
  /* a kept target's sentence (x2_split.kept): its bytes and codes */
  size_t t_start, t_end;
  size_t t_first_code, t_ncodes;
};

struct x2_split {
  struct x2_part *parts;
  size_t nparts; /* 0: the segment is not split */
  /* 1 + the index of a code of the unit's sources whose id one before it
   * has (the unit is invalid): the segment is written whole, and the
   * writer says so; 0: none */
  size_t shared;
  /* 1: the parts pair the sentences of a target kept (a translator's)
   * with those of the source, each part's target its bytes [t_start,
   * t_end); unpaired: the sentences of such a target (1 + their number)
   * that did not pair with the source's src_sentences: written whole, and
   * the writer says so; 0: none; coded: 1 when such a segment's sentences
   * do not hold the same inline codes (by element, end and id) in source
   * and target, sentence by sentence and gap by gap: written whole, told */
  int kept, coded;
  size_t unpaired, src_sentences;
};

/* How --seg-source cuts a segment whose target is kept: the segmenter
 * (with the run's rules, the run's own left alone) and the languages of
 * source and target. */
struct x2_kept_cut {
  xmt_segmenter *seg;
  const char *source_language, *target_language;
};

struct x2_file {
  size_t name; /* original, else id, in doc->names */
};

/* An <ignorable> without a <target> whose <source> holds an sc, ec, sm or
 * em (not isolated) that pairs with a code of a segment: a target written
 * with that code needs its partner in the targets too, and the ignorable
 * gets a copy of its source as target (write.c). */
struct x2_ign {
  size_t ws_start;   /* the white space before its <source> */
  size_t start, end; /* its <source> element */
  size_t inner_start, inner_end;
  size_t unit_end; /* its unit's </unit> end tag */
  unsigned char pairs, has_target;
};

/* A ref of a Matches or Glossary module element of a unit that names an
 * inline element of the unit's targets (a fragment identifier whose last
 * selector is t=ID: #t=m2, #/f=f1/u=u1/t=m2): a target replaced must keep
 * it (write.c). */
struct x2_ref {
  size_t id;       /* ID, in the pool */
  size_t ref;      /* the attribute's value, in the pool */
  size_t at;       /* the element */
  size_t unit_end; /* its unit's </unit> end tag */
};

/* A <target> start tag (of a segment or an <ignorable>) with an order
 * attribute: when a segment of its unit is written split, the places
 * after it move and the order is written renumbered (write.c). */
struct x2_order {
  size_t start, end; /* the start tag */
  unsigned order;    /* its value */
  size_t unit_end;   /* its unit's </unit> end tag */
};

struct x2_doc {
  struct xmt_buf data; /* the document, UTF-8, from byte offset on */
  enum xmt_encoding encoding;
  const char *path;
  /* A part of a document read as a stream (stream.c): where its data
   * starts in the document, and the lines and characters of the line
   * before it; all 0 for a document read whole. */
  size_t offset;
  unsigned long lines_before, chars_before;
  size_t root_start, root_end; /* the <xliff ...> start tag */
  char *version, *src_lang, *trg_lang;
  struct x2_segment *segs;
  size_t nsegs, segs_cap;
  struct x2_code *codes;
  size_t ncodes, codes_cap;
  struct x2_file *files;
  size_t nfiles, files_cap;
  struct x2_ign *igns;
  size_t nigns, igns_cap;
  struct x2_ref *refs;
  size_t nrefs, refs_cap;
  struct x2_order *orders;
  size_t norders, orders_cap;
  struct xmt_buf texts;  /* the text of every source and target */
  struct xmt_buf pool;   /* NUL-terminated strings: ids, keys */
  struct xmt_buf names;  /* NUL-terminated names of the files */
  struct xmt_memo keys;  /* unit-stream id -> segment index */
  xmt_segment **targets; /* per segment, as the run gave them; NULL: none */
  /* per segment, its sentences when it is written split (resegment.c);
   * NULL when the run does not resegment */
  struct x2_split *splits;
  /* 1: the targets are written as matches of the Matches module, not
   * as targets (write_matches.c) */
  int matches;
  /* 1: the run overwrites targets (--overwrite) */
  int overwrite;
};

/* Reads the document in data (taken over: emptied) into doc, feeding the
 * parser chunk bytes at a time (0: all at once). Errors name path. */
xmt_status xmt_x2_read(struct x2_doc *doc, struct xmt_buf *data,
                       const char *path, size_t chunk,
                       struct xmt_error_store *err);
void xmt_x2_free(struct x2_doc *doc);
/* data (taken over: emptied) as UTF-8 in doc->data, its encoding noted. */
xmt_status xmt_x2_utf8(struct x2_doc *doc, struct xmt_buf *data,
                       struct xmt_error_store *err);
/* Line and column (characters, 1-based, a byte order mark not counted) of
 * byte at of the document. */
void xmt_x2_locate(const struct x2_doc *doc, size_t at, unsigned long *line,
                   unsigned long *column);

/* The units of a document as values, one per <segment>, a part at a
 * time (a document read as a stream, units.c): begin; the <file>s of
 * names up to nfiles (its files and names); each segment of doc (the
 * document, or the part it is in); end tells the rest of names's <file>s
 * and frees (after a failure too). */
/* X2_UNITS_SEGMENTS_KEPT: a segment of a unit of several is one segment
 * to the run, as a <seg-source>'s <mrk> is (not when --seg-source splits
 * it into sentences). */
enum {
  X2_UNITS_OVERWRITE = 1,
  X2_UNITS_MATCHES = 2,
  X2_UNITS_SEGMENTS_KEPT = 4
};
#define X2_DATATYPE XMT_DATATYPE_XLIFF2
struct x2_units {
  const struct xmt_unit_sink *sink;
  xmt_status st; /* the first failure; every later call returns it */
  const char *source_language, *target_language;
  unsigned mode; /* X2_UNITS_* */
  size_t files;  /* the <file>s told */
  /* the unit (its </unit> in plan_doc) whose plan is known, and that
   * plan */
  const struct x2_doc *plan_doc;
  size_t plan_unit_end;
  int plan;
  const struct x2_doc *doc;
  size_t doc_at;          /* lines of doc counted up to there */
  unsigned long doc_line; /* 1-based */
  unsigned long out_line; /* where the XLIFF of the units is (units_out.c) */
  /* work space: the unit's builder, a code's markup */
  struct xmt_inline_builder ib;
  struct xmt_buf markup;
};
void xmt_x2_units_begin(struct x2_units *u, const char *source_language,
                        const char *target_language, unsigned mode,
                        const struct xmt_unit_sink *sink);
xmt_status xmt_x2_units_files(struct x2_units *u, const struct x2_doc *names,
                              size_t nfiles);
xmt_status xmt_x2_units_segment(struct x2_units *u, const struct x2_doc *doc,
                                const struct x2_segment *s);
xmt_status xmt_x2_units_end(struct x2_units *u, const struct x2_doc *names);
/* The same for a document read whole. */
xmt_status xmt_x2_units(const struct x2_doc *doc, const char *source_language,
                        const char *target_language, unsigned mode,
                        const struct xmt_unit_sink *sink);
/* c as a segment in out: its text, and its codes as the unit stream marks
 * them up (markup: work space). */
xmt_status xmt_x2_content_segment(const struct x2_doc *doc,
                                  const struct x2_content *c,
                                  struct xmt_buf *markup, xmt_segment *out);
/* Appends the unit-stream markup of the codes of c with its text (what
 * the XLIFF of its units shows). */
xmt_status xmt_x2_render(const struct x2_doc *doc, const struct x2_content *c,
                         struct xmt_buf *out);

/* Writes doc with the targets taken (write.c), trgLang added to <xliff>
 * when doc has its start tag and target_language is not NULL; a target
 * whose codes
 * the run lost gets them back at its end, and warn (may be NULL) is
 * told. */
/* What the writer will do with the unit of segment first (its first
 * segment) if the run translates what the units hand out: 1, its
 * ignorables get their source's copy as target; -1, it is left as it is;
 * 0, neither (write.c). */
int xmt_x2_unit_plan(const struct x2_doc *doc, size_t first, int overwrite);
/* 1 when segment i, which the run would translate, keeps its target: a
 * module's reference names an element of it that a new one would not
 * have (write.c). */
int xmt_x2_target_kept(const struct x2_doc *doc, size_t i, int overwrite);

typedef void (*xmt_x2_warn_fn)(void *user, const char *unit_id,
                               unsigned long line, const char *message);
xmt_status xmt_x2_write(const struct x2_doc *doc, const char *target_language,
                        xmt_write_fn sink, void *user,
                        struct xmt_error_store *err, xmt_x2_warn_fn warn,
                        void *warn_user);
/* The writer's buffers, kept from one part of a stream to the next
 * (emptied, not freed) so that they are not grown again for each unit;
 * xmt_x2_write_bufs_free frees them. */
struct placed;
/* The <target> start and end tags a segment without one gets after its
 * <source>, kept with that source's start tag: most are the same bytes
 * (write.c). b holds the three, the source's src_len bytes first. */
struct x2_target_tags {
  struct xmt_buf b;
  size_t src_len, open_len;
};
struct x2_write_bufs {
  struct xmt_buf out, enc, tag, text, attr;
  struct x2_target_tags ttags;
  /* the writer's arrays (write_codes.c), kept from part to part */
  struct placed *items;
  size_t items_cap;
  size_t *index;
  size_t index_cap;
  unsigned char *used;
  size_t used_cap;
  /* 1: output short of a block is kept for the next part, not handed to
   * the sink at each part's end (xmt_x2_write_flush hands it over) */
  int hold;
};
void xmt_x2_write_bufs_free(struct x2_write_bufs *b);
/* The output bufs holds, in encoding, to sink. */
xmt_status xmt_x2_write_flush(struct x2_write_bufs *b,
                              enum xmt_encoding encoding, xmt_write_fn sink,
                              void *user, struct xmt_error_store *err);
/* xmt_x2_write with the buffers of bufs (left in it, emptied). */
xmt_status xmt_x2_write_with(const struct x2_doc *doc,
                             const char *target_language, xmt_write_fn sink,
                             void *user, struct xmt_error_store *err,
                             xmt_x2_warn_fn warn, void *warn_user,
                             struct x2_write_bufs *bufs);

/* With XMT_FILTER_SEG_SOURCE: the sentences of segment i, as the unit
 * reader's segmenter cut its trans-unit (unit), kept with their
 * translations in doc->splits[i] when the segment may be resegmented (the
 * only one of its unit, canResegment not "no", not reviewed or final) and
 * its sentences can be cut from its source's bytes; else nothing is kept
 * and the segment gets one target (resegment.c). */
xmt_status xmt_x2_take_split(struct x2_doc *doc, size_t i,
                             const xmt_xliff_unit *unit);
void xmt_x2_free_split(struct x2_split *split);
/* --seg-source on segment i whose target is kept: its source and target
 * cut into sentences, paired when they are as many and, with inline
 * codes, each sentence and each gap between them holds the same codes in
 * both (the target's codes keep the ids of the source's). */
xmt_status xmt_x2_take_kept(struct x2_doc *doc, size_t i,
                            const struct x2_kept_cut *cut);
/* The order read from the target start tag at `at`, or NULL (none, or
 * one whose value is not a place). */
const struct x2_order *xmt_x2_order_at(const struct x2_doc *doc, size_t at);

/* Checks the rules of doc its schema cannot state (rules.c): unique ids,
 * sc/ec and sm/em that find each other, dataRefs that name a <data>. fn
 * is told each rule broken, in document order, with the line and column
 * of the element and its unit's id (or NULL); non-zero from it stops the
 * check with XMT_ERR_ABORTED. XMT_ERR_NOMEM when out of memory. */
typedef int (*xmt_x2_rule_fn)(void *user, unsigned long line,
                              unsigned long column, const char *unit_id,
                              const char *message, int warning);
xmt_status xmt_x2_check_rules(const struct x2_doc *doc, xmt_x2_rule_fn fn,
                              void *user);
/* The same a part at a time (stream.c's parts, in document order, each
 * starting where the one before ended; last: the document ends with
 * it). XMT_ERR_XML when the bytes fed are not well-formed: the reader
 * tells why. */
struct x2_rules;
xmt_status xmt_x2_rules_new(struct x2_rules **out, xmt_x2_rule_fn fn,
                            void *user);
xmt_status xmt_x2_rules_feed(struct x2_rules *r, const struct x2_doc *part,
                             int last);
void xmt_x2_rules_free(struct x2_rules *r);

/* A string of the pool. */
static inline const char *x2_str(const struct x2_doc *doc, size_t at) {
  return at == X2_NONE ? NULL : doc->pool.data + at;
}

#endif /* XMT_XLIFF2_PRIVATE_H */
