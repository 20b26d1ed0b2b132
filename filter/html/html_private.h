/* html_private.h -- internals of the HTML filter: the preserving lexer, the
 * document model (units, inline codes, holes) and the writer. Not
 * installed. */
#ifndef XMT_HTML_PRIVATE_H
#define XMT_HTML_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "html_private.h is internal to libxliffmt"
#endif

#include "filter_private.h"

/* --- Lexer (lexer.c) ---------------------------------------------------
 * Splits bytes of an ASCII-compatible encoding into tokens that cover the
 * input exactly, without a gap or an overlap, the way an HTML5 tokenizer
 * would find them; it never fails on bad markup. Offsets are absolute from
 * the first byte of the document. */

/* Bytes [base, len) of a page, byte i at bytes[i - base]: a page read in
 * chunks drops the bytes before base, the offsets kept stay absolute. */
struct html_view {
  const char *bytes;
  size_t base, len;
};

/* Byte off of the page, base <= off <= len. */
static inline const char *page_at(struct html_view v, size_t off) {
  return v.bytes + (off - v.base);
}
static inline char page_byte(struct html_view v, size_t off) {
  return v.bytes[off - v.base];
}
/* A whole buffer as a view from offset 0. */
static inline struct html_view html_view_of(const char *bytes, size_t len) {
  struct html_view v = {bytes, 0, len};
  return v;
}

enum html_token_kind {
  HTML_TEXT = 0,    /* character data; entities not decoded */
  HTML_RAWTEXT = 1, /* content of script, style, title, textarea... */
  HTML_START = 2,   /* start tag, attributes in attrs */
  HTML_END = 3,     /* end tag */
  HTML_COMMENT = 4, /* <!-- ... --> */
  HTML_DOCTYPE = 5, /* <!DOCTYPE ...> */
  HTML_PI = 6,      /* <?xml ...?> and other <?...> */
  HTML_CDATA = 7,   /* <![CDATA[ ... ]]> */
  HTML_BOGUS = 8    /* any other markup a browser skips: </>, <!x>, a tag
                       cut by the end of the input */
};

struct html_attr {
  size_t name, name_end;   /* the name as written */
  size_t value, value_end; /* the value inside its quotes; empty if none */
  char quote;              /* '"', '\'' or 0 (unquoted or no value) */
  unsigned char has_value;
  unsigned char duplicate; /* a browser keeps the first of equal names */
};

struct html_token {
  enum html_token_kind kind;
  size_t start, end;
  size_t name, name_end; /* tags: the element name as written */
  int self_closing;
  const struct html_attr *attrs; /* start tags; borrowed until next call */
  size_t nattrs;
};

struct html_lexer {
  size_t pos;       /* start of the next token */
  char raw_end[16]; /* lower-case name whose end tag ends raw text; "" */
  size_t raw_end_len;
  int plaintext; /* after <plaintext>: the rest is text */
  struct html_attr *attrs;
  size_t nattrs, attrs_cap;
};

void xmt_html_lexer_init(struct html_lexer *lx);
void xmt_html_lexer_free(struct html_lexer *lx);
/* Finds the token starting at lx->pos (>= v.base) in v: 1 with *tok
 * filled (lx->pos moves past it), 0 when more bytes are needed (is_final
 * == 0) or the input is exhausted, -1 when out of memory. */
int xmt_html_lex(struct html_lexer *lx, struct html_view v, int is_final,
                 struct html_token *tok);

/* The push form: bytes in any chunk sizes, tokens through a callback.
 * Returning non-zero from the callback stops with XMT_ERR_ABORTED. */
typedef int (*html_token_fn)(void *user, const char *data,
                             const struct html_token *tok);
struct html_push_lexer {
  struct html_lexer lx;
  struct xmt_buf data; /* everything pushed; tokens point into it */
};
void xmt_html_push_init(struct html_push_lexer *p);
void xmt_html_push_free(struct html_push_lexer *p);
xmt_status xmt_html_push(struct html_push_lexer *p, const char *bytes,
                         size_t len, int is_final, html_token_fn fn,
                         void *user);

/* 1 when s[0, n) equals the lower-case name, ASCII case ignored. */
int xmt_html_name_is(const char *s, size_t n, const char *name);
/* Copies s[0, n) lower-cased into buf (size cap); 0 if it does not fit. */
int xmt_html_name_lower(const char *s, size_t n, char *buf, size_t cap);
/* The same on bytes [start, end) of a page. */
static inline int page_name_is(struct html_view v, size_t start, size_t end,
                               const char *name) {
  return xmt_html_name_is(page_at(v, start), end - start, name);
}

/* --- Text (text.c) --------------------------------------------------- */

/* How the bytes of the document are read and written. */
struct html_charset {
  enum xmt_encoding out;    /* written text is encoded in this */
  enum xmt_encoding decode; /* and read with this (cp1252 for Latin-1, as
                               browsers do) */
  int utf16;                /* the document was transcoded to UTF-8 */
};

/* Finds the encoding of a document: BOM, <meta charset>, <meta http-equiv
 * content-type>, XML declaration, else UTF-8 when the bytes are valid UTF-8
 * and windows-1252 otherwise. XMT_ERR_ENCODING for an encoding xliffmt
 * cannot write back, with a message in msg and the byte offset of the label
 * in *at. */
xmt_status xmt_html_detect_charset(const char *data, size_t len,
                                   struct html_charset *cs, char *msg,
                                   size_t msglen, size_t *at);

/* Appends the UTF-8 text of raw bytes: charset decoded, character
 * references decoded as in text (mode 0) or in an attribute value (mode 1:
 * named ones only with their ';'), or left alone (mode 2, for markup);
 * bytes invalid in the charset and characters XML cannot hold become
 * U+FFFD, a form feed a space. */
xmt_status xmt_html_decode(const struct html_charset *cs, const char *s,
                           size_t len, int mode, struct xmt_buf *out);

/* Appends UTF-8 text escaped minimally for HTML: & and < always, and the
 * quote character when quote is not 0. */
xmt_status xmt_html_escape(struct xmt_buf *out, const char *s, size_t len,
                           char quote);

/* 1 for HTML whitespace: space, tab, LF, FF, CR. */
static inline int html_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* --- Element classes (elements.c) -----------------------------------------
 */

enum html_element_flags {
  E_BLOCK = 0x1,    /* its start and end end a text unit */
  E_INLINE = 0x2,   /* a code inside a text unit */
  E_VOID = 0x4,     /* no content, no end tag */
  E_SKIP = 0x8,     /* content never translated */
  E_PCLOSE = 0x10,  /* its start tag closes an open <p> */
  E_PRE = 0x20,     /* whitespace is significant inside */
  E_CONTEXT = 0x40, /* inline inside running text, else a block */
  E_SCOPE = 0x80    /* end tags of outer elements do not reach past it */
};

/* The E_* flags of an element by its lower-case name; unknown elements
 * (custom elements, o:p...) are inline, as browsers display them. */
unsigned xmt_html_element_class(const char *name);

/* --- Document model (page.c) ---------------------------------------
 * A parsed page: its bytes plus the units found in it. Each unit replaces
 * a byte range (its hole) when written; a text unit's inline codes are byte
 * ranges too, written back from the page by their id. */

/* HOLE_FRAME: an iframe's srcdoc, a page of its own (frame) whose units
 * are those of the page from unit on (frame->nunits of them, in its
 * order); written as that page with their targets, escaped as the
 * attribute's value. The hole owns frame. */
enum html_hole_kind {
  HOLE_TEXT = 0,
  HOLE_ATTR = 1,
  HOLE_LANG = 2,
  HOLE_FRAME = 3
};

struct html_hole {
  size_t start, end;
  enum html_hole_kind kind;
  size_t unit; /* HOLE_TEXT, HOLE_ATTR, HOLE_FRAME (its first) */
  char quote;  /* HOLE_ATTR, HOLE_LANG, HOLE_FRAME: the value's quote */
  struct html_doc *frame; /* HOLE_FRAME */
};

/* An inline code of a text unit. */
struct html_code {
  size_t start, end;   /* its markup in the page */
  size_t ws_before[2]; /* spacing right before it when not " " */
  size_t ws_after[2];  /* and right after it */
  unsigned id;         /* 1-based within the unit; pairs share it */
  enum xmt_tag_kind kind;
};

struct html_unit {
  unsigned id; /* 1-based, the trans-unit id */
  int is_attr;
  int preserve; /* whitespace is significant */
  char quote;   /* attribute units: the value's quote */
  size_t start, end;
  char restype[48];
  char *resname;       /* the element's id attribute, or NULL */
  xmt_segment *source; /* UTF-8 text; codes as XLIFF g/x/bx/ex/it */
  size_t first_code, ncodes;
  unsigned max_id;
  /* a unit of an iframe's srcdoc: unit frame_unit of that page, which
   * takes and writes its target (borrowed from its HOLE_FRAME) */
  const struct html_doc *frame;
  size_t frame_unit;
};

/* Options of the parse (XMT_FILTER_HTML_* flags). */
struct html_doc {
  /* The page; UTF-8 when charset.utf16. A page read in chunks (rest not
   * NULL until its end) holds only bytes [base, len) of it, byte i at
   * bytes[i - base] (page_at), so every offset kept stays right after the
   * bytes before base are dropped; a page read whole has base 0. */
  char *bytes;
  size_t len;
  size_t base, cap; /* cap: bytes allocated at bytes */
  FILE *rest;       /* the bytes still to read, or NULL */
  int checked;      /* UTF-8 pages: the bytes read are checked to be */
  struct html_charset charset;
  unsigned flags;
  /* XMT_FILTER_HTML_REPLACE_INVALID: bytes that are not UTF-8 in a UTF-8
   * page, and where the first is */
  size_t invalid_bytes;
  unsigned long invalid_line, invalid_column;
  char *lang;       /* lang of the root element, or NULL */
  size_t unit_base; /* units before these (a streamed page's, cut off) */
  struct html_unit *units;
  size_t nunits, units_cap;
  struct html_code *codes;
  size_t ncodes, codes_cap;
  struct html_hole *holes; /* sorted by start, outer before inner */
  size_t nholes, holes_cap;
  unsigned frame_depth; /* 1: the page of an iframe's srcdoc */
};

/* The pages of the HOLE_FRAMEs of holes freed. */
void xmt_html_free_frames(struct html_hole *holes, size_t n);

/* The bytes of the page held. */
static inline struct html_view html_doc_view(const struct html_doc *d) {
  struct html_view v = {d->bytes, d->base, d->len};
  return v;
}

/* Reads and parses the page at path ("-": standard input, read from the
 * bytes f's detection holds) into doc, with f's flags. Errors go to f's
 * with the path. */
xmt_status xmt_html_doc_load(struct html_doc *doc, xmt_filter *f,
                             const char *path);
/* Parses bytes already in memory (copied). */
xmt_status xmt_html_doc_parse(struct html_doc *doc, const char *bytes,
                              size_t len, unsigned flags, const char *name,
                              struct xmt_error_store *err);
void xmt_html_doc_free(struct html_doc *doc);
/* The same cut in two: the bytes read, their encoding found and checked
 * (prepare; read: from path as load, build_it 0), and the units found
 * (build), which a streamed page does a piece at a time instead
 * (stream.c). */
xmt_status xmt_html_doc_prepare(struct html_doc *doc, const char *bytes,
                                size_t len, unsigned flags, const char *name,
                                struct xmt_error_store *err);
xmt_status xmt_html_doc_read(struct html_doc *doc, xmt_filter *f,
                             const char *path, int build_it);
xmt_status xmt_html_doc_build(struct html_doc *doc, const char *name,
                              struct xmt_error_store *err);
/* Opens the page at path as read: its first bytes read, their encoding
 * found; the rest left to read in chunks (doc->rest) when the page says
 * its encoding and is not UTF-16, else read whole. *bytes: its size. */
xmt_status xmt_html_doc_open(struct html_doc *doc, xmt_filter *f,
                             const char *path, size_t *bytes);
/* The rest of a page opened so read whole, its bytes checked. */
xmt_status xmt_html_doc_read_rest(struct html_doc *doc, const char *name,
                                  struct xmt_error_store *err);
/* The error of a UTF-8 page with n bytes not UTF-8, the first, byte, at
 * line and column. */
xmt_status xmt_html_not_utf8(struct xmt_error_store *err, const char *name,
                             unsigned char byte, size_t n, unsigned long line,
                             unsigned long column);
/* 1 when the first bytes of a page say its encoding (a byte order mark,
 * a label): its encoding is then known from them alone. */
int xmt_html_charset_declared(const char *data, size_t len);

/* --- Targets (target.c) ----------------------------------------------
 * A target kept from take to write as a typed value, made once when it
 * is taken and walked as it is by the writer: no XLIFF is made or parsed
 * between them, nor any string read again. */

/* A code of a target: where it stands in the target's text, and the
 * index among its unit's codes of the code whose page bytes it writes
 * (SIZE_MAX: the unit has no such code, the last one kept). */
struct html_target_code {
  size_t offset;
  size_t code;
};

/* A target: one block of malloc(), sized by what it holds (free()). */
struct html_target {
  /* not XMT_OK: its pairs do not nest, or (XMT_ERR_INLINE) break the
   * page's, the code's id after the text; nothing written */
  xmt_status st;
  size_t len; /* of its text */
  size_t ncodes;
  struct html_target_code codes[]; /* then the text, NUL; the bad id, NUL */
};

/* The target's UTF-8 text, NUL-terminated, right after its codes. */
static inline char *html_target_text(struct html_target *t) {
  return (char *)(t->codes + t->ncodes);
}
static inline const char *html_target_ctext(const struct html_target *t) {
  return (const char *)(t->codes + t->ncodes);
}
/* After a code of none (the last code): the id it had in the target. */
static inline const char *html_target_bad_id(const struct html_target *t) {
  return html_target_ctext(t) + t->len + 1;
}

/* Scratch of the taking, reused from target to target. */
struct html_taker {
  struct xmt_buf text;
  struct xmt_tag *tags; /* the target's codes, offsets in text */
  size_t ntags, tags_cap;
  const char **open; /* ids of the pairs open */
  size_t open_cap;
  size_t *index; /* code of the unit by id and side */
  size_t index_cap;
  size_t *pairs; /* the target's codes that open a pair of the page */
  size_t pairs_cap;
};
void xmt_html_taker_free(struct html_taker *pk);

/* Makes target, the content of unit of doc, a typed target in *out
 * (free()), or sets it NULL when the target says the same as the source
 * (same text, codes of the same ids at the same places), whose bytes
 * are written. A code the unit does not have, a pair's end without its
 * start or a start without its end (in the target's markup, or of the
 * page's pairs the codes stand for) are kept in it and reported by the
 * writer. XMT_ERR_NOMEM only. */
xmt_status xmt_html_target_take(struct html_taker *pk,
                                const struct html_doc *doc, size_t unit,
                                const xmt_segment *target,
                                struct html_target **out);

/* --- Writing (write.c) ------------------------------------------------
 */

/* Writes the page with targets[i] (NULL: the source) as the content of
 * unit i and lang values set to target_language (NULL: unchanged). Fails
 * with XMT_ERR_INLINE, naming the unit in err, when a target holds a code
 * its source does not have, and with XMT_ERR_XML when its pairs do not
 * nest. */
xmt_status xmt_html_doc_write_targets(const struct html_doc *doc,
                                      const struct html_target *const *targets,
                                      const char *target_language,
                                      xmt_write_fn sink, void *user,
                                      struct xmt_error_store *err);
/* The bytes [start, end) of the page so written: the holes of doc are
 * those inside it. */
xmt_status xmt_html_doc_write_range(const struct html_doc *doc,
                                    const struct html_target *const *targets,
                                    const char *target_language, size_t start,
                                    size_t end, xmt_write_fn sink, void *user,
                                    struct xmt_error_store *err);
/* The same with the targets as segments (NULL: the source), each taken
 * first as the pipeline's are. */
xmt_status xmt_html_doc_write(const struct html_doc *doc,
                              const xmt_segment *const *targets,
                              const char *target_language, xmt_write_fn sink,
                              void *user, struct xmt_error_store *err);

/* The units of doc as values, to sink: the one <file> (original, the
 * languages), then each unit, numbered from 1 (html.c takes targets back
 * by that id). */
xmt_status xmt_html_doc_units(const struct html_doc *doc, const char *original,
                              const char *source_language,
                              const char *target_language,
                              const struct xmt_unit_sink *sink);
/* Writes doc as an XLIFF 1.2 document to sink. */
xmt_status xmt_html_doc_write_xliff(const struct html_doc *doc,
                                    const char *original,
                                    const char *source_language,
                                    const char *target_language,
                                    xmt_write_fn sink, void *user);

/* --- A page read and written as a stream (stream.c) ----------------------
 * The page's units found a piece at a time: the bytes since the piece
 * before and the units, codes and holes in them, cut off where no text
 * unit is open; each piece's units handed out, its targets taken, and
 * the piece written and freed once they all are and every piece before
 * it is written. Targets are taken on the run's worker thread: the
 * pieces waiting are under a lock. */
struct html_stream;

/* A stream of doc (prepared, not built; borrowed) written to sink, lang
 * values set to target_language (NULL: unchanged). */
xmt_status xmt_html_stream_new(struct html_stream **out, struct html_doc *doc,
                               const char *target_language, xmt_write_fn sink,
                               void *user);
/* The source language of the units of doc (f's, else the page's), or
 * NULL with an error in f. */
typedef const char *(*html_lang_fn)(xmt_filter *f, const struct html_doc *doc,
                                    const char *path);
/* Finds the units and hands them to sink as they are cut off, once
 * source_of says the source language: asked when f has one, when the
 * page's root says one, or at the page's end. */
xmt_status xmt_html_stream_units(struct html_stream *s, xmt_filter *f,
                                 const char *path, html_lang_fn source_of,
                                 const struct xmt_unit_sink *sink);
/* The target of the unit numbered id (NULL: its source). Any thread. */
xmt_status xmt_html_stream_take(struct html_stream *s, size_t id,
                                const xmt_xliff_unit *unit,
                                const xmt_segment *target);
/* Writes what is left; the first failure of a writing, in err. */
xmt_status xmt_html_stream_finish(struct html_stream *s,
                                  struct xmt_error_store *err);
void xmt_html_stream_free(struct html_stream *s);

#endif /* XMT_HTML_PRIVATE_H */
