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

/* --- Tokens ----------------------------------------------------------------
 * A tokenization is a list of byte ranges [start, end) of a text, in order,
 * not overlapping, never starting or ending with whitespace. A token may be
 * empty (a lone SentencePiece "\u2581" keeps its index that way).
 * Alignments index tokens. */

struct xmt_token {
  size_t start;
  size_t end;
};

typedef struct xmt_tokens xmt_tokens;

XMT_API xmt_tokens *xmt_tokens_new(void);
XMT_API void xmt_tokens_free(xmt_tokens *tokens);
XMT_API size_t xmt_tokens_count(const xmt_tokens *tokens);
/* The tokens as an array of xmt_tokens_count() entries; borrowed. */
XMT_API const struct xmt_token *xmt_tokens_array(const xmt_tokens *tokens);
/* Appends a token (for callers with their own tokenizer); ranges must be in
 * order and not overlap; a token may start where the previous one ends and
 * may be empty. */
XMT_API xmt_status xmt_tokens_append(xmt_tokens *tokens, size_t start,
                                     size_t end);

enum xmt_tokenizer {
  XMT_TOKENIZE_DEFAULT = 0,   /* ICU word boundaries; punctuation alone */
  XMT_TOKENIZE_WHITESPACE = 1 /* runs of non-space characters */
};
/* Tokenizes UTF-8 text into tokens (cleared first). XMT_ERR_ENCODING for
 * invalid UTF-8; XMT_ERR_USAGE for DEFAULT on text over INT32_MAX bytes. */
XMT_API xmt_status xmt_tokenize(xmt_tokens *tokens, const char *text,
                                size_t len, enum xmt_tokenizer tokenizer);

enum xmt_token_style {
  XMT_TOKENS_MOSES = 0,         /* Moses tokenizer output, escapes included */
  XMT_TOKENS_SENTENCEPIECE = 1, /* pieces separated by spaces, U+2581 marks */
  XMT_TOKENS_BPE = 2            /* subword-nmt: "@@ " joins pieces; Moses
                                   escapes decoded, as BPE runs on Moses */
};
/* Finds the byte range in raw of each space-separated token of tokenized
 * (tokens cleared first). On a mismatch returns XMT_ERR_USAGE with
 * *bad_token (if not NULL) set to the 0-based index of the first token that
 * cannot be found (the number of tokens when raw text is left over); tokens
 * then holds the ranges found before it. XMT_ERR_ENCODING for invalid
 * UTF-8. */
XMT_API xmt_status xmt_tokens_map(xmt_tokens *tokens, const char *raw,
                                  size_t raw_len, const char *tokenized,
                                  size_t tokenized_len,
                                  enum xmt_token_style style,
                                  size_t *bad_token);

/* --- Alignments -------------------------------------------------------------
 */

struct xmt_link {
  size_t source; /* token index in the source */
  size_t target; /* token index in the target */
};

typedef struct xmt_alignment xmt_alignment;

XMT_API xmt_alignment *xmt_alignment_new(void);
XMT_API void xmt_alignment_free(xmt_alignment *alignment);
XMT_API void xmt_alignment_clear(xmt_alignment *alignment);
/* Adds a link; duplicates are kept (xmt_alignment_parse removes them). */
XMT_API xmt_status xmt_alignment_add(xmt_alignment *alignment, size_t source,
                                     size_t target);
XMT_API size_t xmt_alignment_count(const xmt_alignment *alignment);
XMT_API const struct xmt_link *
xmt_alignment_links(const xmt_alignment *alignment);
/* Parses one Pharaoh line ("0-0 1-2 2p3"; "p" marks a possible link, taken
 * as a link) into alignment (cleared first), checking each index against
 * the token counts; duplicate links are dropped, the first kept. On error
 * returns XMT_ERR_USAGE, leaves the alignment empty and sets *bad_pair (if
 * not NULL) to the 0-based index of the offending pair. */
XMT_API xmt_status xmt_alignment_parse(xmt_alignment *alignment,
                                       const char *line, size_t len,
                                       size_t source_tokens,
                                       size_t target_tokens, size_t *bad_pair);

/* --- Projection
 * --------------------------------------------------------------- */

enum xmt_projection_rule {
  XMT_RULE_MINMAX = 0, /* span = min..max of the aligned target tokens */
  XMT_RULE_SCORE = 1   /* span maximising inside-inside + outside-outside */
};

/* Projects the tags of source onto target_text: out (cleared first, not
 * source itself) gets target_text with every tag of source exactly once,
 * same ids, pairs ordered and well nested. source_tokens tokenize source's
 * plain text, target_tokens target_text; alignment links their indexes
 * (NULL or empty: proportional positions). A pair spans the target tokens
 * aligned to its source tokens; unaligned tokens borrow their nearest
 * aligned neighbour inside the parent pair; children stay inside parents;
 * crossing siblings are shrunk; tags attach to words, not spaces, except
 * that spacing copied unchanged keeps its tags where they were. Returns
 * XMT_ERR_INLINE for a source whose tags are mis-nested, XMT_ERR_USAGE for
 * tokens or links out of range, XMT_ERR_ENCODING for invalid UTF-8. */
XMT_API xmt_status xmt_project(xmt_segment *out, const xmt_segment *source,
                               const xmt_tokens *source_tokens,
                               const char *target_text, size_t target_len,
                               const xmt_tokens *target_tokens,
                               const xmt_alignment *alignment,
                               enum xmt_projection_rule rule);

/* --- Tag metrics
 * ---------------------------------------------------------------- Compares a
 * hypothesis tagged segment with a reference (gold) one over the same plain
 * text. Positions count tokens of the form \w+|[^\w\s] (Unicode) before a tag;
 * a tag is exact when its position matches the reference's tag with the same id
 * (a pair: both ends); "interior" tags are those whose reference position is
 * neither the line start nor the line end. */

struct xmt_tag_metrics {
  size_t lines;           /* line pairs added */
  size_t lines_with_tags; /* reference lines with at least one tag */
  size_t tags;            /* reference tags; a pair counts once */
  /* Flagrant failures (Hanneman & Dinu 2020, section 6.1). */
  size_t dropped;           /* reference tags missing from the hypothesis */
  size_t added;             /* hypothesis tags not in the reference */
  size_t changed_id;        /* same element, other id */
  size_t mutilated;         /* tags of lines that are not well-formed */
  size_t badly_nested;      /* pairs crossing others or closed before open */
  size_t well_formed_lines; /* hypothesis lines that parse (Hashimoto 2019) */
  size_t structure_match_lines; /* same tag sequence as the reference */
  size_t exact;                 /* reference tags placed exactly */
  size_t interior;              /* interior reference tags */
  size_t interior_exact;
  size_t all_exact_lines; /* lines with tags whose tags are all exact */
  double content_f1_sum;  /* token-bag F1 of pair contents (Ryu 2022) */
  size_t content_pairs;   /* pairs that F1 was averaged over */
};

typedef struct xmt_evaluator xmt_evaluator;

XMT_API xmt_evaluator *xmt_evaluator_new(void);
XMT_API void xmt_evaluator_free(xmt_evaluator *evaluator);
/* Adds one line pair. hypothesis is NULL when the hypothesis line is not
 * well-formed (its tags then count as mutilated). */
XMT_API xmt_status xmt_evaluator_add(xmt_evaluator *evaluator,
                                     const xmt_segment *hypothesis,
                                     const xmt_segment *reference);
XMT_API const struct xmt_tag_metrics *
xmt_evaluator_metrics(const xmt_evaluator *evaluator);

#ifdef __cplusplus
}
#endif

#endif /* XMT_PROJECTOR_H */
