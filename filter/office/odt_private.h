/* odt_private.h -- the OpenDocument Text format (odt.c, odt_read.c,
 * odt_units.c, odt_write.c): the paragraphs of content.xml as units,
 * their spans merged by what their automatic styles show, written back
 * with their targets. */
#ifndef XMT_ODT_PRIVATE_H
#define XMT_ODT_PRIVATE_H

#include "office_doc.h"

/* A code of a paragraph, tag id its index + 1. Paired: a text:a (open:
 * its start tag, close: its end tag) or a stretch of spans whose styles
 * show otherwise than the paragraph's base (span set; open: the start
 * tags of the spans around it, close: their end tags). Isolated: the
 * bytes [from, to) of the part (a space, tab, break, bookmark, frame,
 * note, annotation, field...), written again through the writer, since
 * a note, a frame or an annotation holds paragraphs of its own. */
struct odt_code {
  int isolated, span;
  size_t from, to;
  char *open, *close;
  size_t open_len, close_len;
};

/* A paragraph (text:p or text:h) with text: bytes [start, end) of the
 * part, of which [start, head_end) (its start tag) is kept when it is
 * rewritten; name is its element's name as written ("text:p"), prefix
 * the text namespace's ("text"). */
struct odt_para {
  size_t start, head_end, end;
  char name[48], prefix[32];
  xmt_segment *source, *target;
  struct odt_code *codes;
  size_t ncodes;
  /* the spans around most of its text (start tags, end tags; "" none) */
  char *base_open, *base_close;
  /* the automatic styles its text is in (indexes into its part's) */
  size_t *styles;
  size_t nstyles;
  /* 1: no paragraph but an attribute's value shown as text (a
   * placeholder's tooltip, a form control's label): [start, end) the
   * value's bytes, head_end start, no codes; written as the target's
   * text escaped */
  int value;
};

/* The language attributes of style:text-properties, three of each kind
 * of script (ODF 1.2 part 1, 20.x): Western (fo:), Asian and complex
 * (style:...-asian, style:...-complex); language, country, RFC tag. */
#define ODT_LANG_ATTRS 9

/* An automatic style of paragraphs or text: its element [from, end),
 * start tag [from, head_end) (empty: <style:style .../>), the start tag
 * of its style:text-properties [tp_from, tp_end) (tp_end 0: none) and
 * the value of each language attribute there ([0] < [1]: present);
 * props_end: the end of its style:paragraph-properties (0: none), after
 * which one of text properties goes; kept: text left untranslated uses
 * it (its language stays). */
struct odt_style {
  char *name;
  size_t from, head_end, end, tp_from, tp_end, props_end;
  size_t val[ODT_LANG_ATTRS][2];
  int empty, kept;
};

/* One part read: content.xml (the paragraphs of office:text, and the
 * svg:title and svg:desc of its frames and shapes: their alternative
 * text), or, headers set, styles.xml (the paragraphs of the master
 * pages' headers and footers), or, meta set, meta.xml (the dc:title,
 * dc:subject, dc:description and meta:keyword of office:meta). */
struct odt_doc {
  const char *main; /* "content.xml", "styles.xml", "meta.xml" */
  int headers, meta;
  /* 1: an embedded object's content.xml ("Object 1/content.xml"), whose
   * units are the paragraphs of its office:chart (titles, the labels of
   * its own table: its text cells), none when it is no chart */
  int chart;
  struct xmt_buf part;
  struct odt_para *paras; /* in the order of their start */
  size_t npara, cap;
  struct odt_style *styles; /* automatic ones, in the order of the part */
  size_t nstyles, styles_cap;
  char fo_prefix[32]; /* the FO namespace's prefix at the root ("" none) */
};

/* A piece of a paragraph, in order: text with the spans around it, or a
 * code (the open/close of a text:a, or an isolated one). */
enum odt_piece_type { ODT_TEXT, ODT_ISOLATED, ODT_OPEN, ODT_CLOSE };
struct odt_piece {
  enum odt_piece_type type;
  size_t off, len;             /* text or markup, in the pool */
  size_t key_off, key_len;     /* ODT_TEXT: what its spans show, in the pool */
  size_t spans_off, spans_len; /* ODT_TEXT: its spans' start tags */
  size_t from, to;             /* ODT_ISOLATED: its bytes in the part */
};

/* Makes p's source segment, codes and base spans of its pieces
 * (odt_units.c), their text and markup in pool, isolated codes in part. */
xmt_status xmt_odt_para_finish(struct odt_para *p, const char *pool,
                               const struct odt_piece *pieces, size_t n,
                               const char *part);
void xmt_odt_para_free(struct odt_para *p);
/* A value unit of doc: the part's bytes [from, to), its text the
 * attribute's value as expat read it (references decoded); none when
 * it is blank. */
xmt_status xmt_odt_add_value(struct odt_doc *doc, size_t from, size_t to,
                             const char *text);
void xmt_odt_paras_free(struct odt_doc *doc);

/* Reads the paragraphs of doc->part (odt_read.c); errors name path and
 * the entry, with the line and column. */
xmt_status xmt_odt_parse(struct odt_doc *doc, const char *path,
                         struct xmt_error_store *err);

/* The part with each paragraph that has a target rewritten (odt_write.c)
 * in out (reset first); language (NULL: none), the automatic styles that
 * translated text alone uses set to it (odt_lang.c). */
xmt_status xmt_odt_render(const struct odt_doc *doc, const char *language,
                          struct xmt_buf *out);

/* One change of the part's bytes: [from, to) replaced by bytes. */
struct odt_edit {
  size_t from, to;
  char *bytes;
  size_t len;
};

/* The edits that give the automatic styles of doc that translated text
 * alone uses the language (odt_lang.c), in the order of the part;
 * *n 0 when none. */
xmt_status xmt_odt_lang_edits(const struct odt_doc *doc, const char *language,
                              struct odt_edit **edits, size_t *n);
void xmt_odt_edits_free(struct odt_edit *edits, size_t n);
void xmt_odt_styles_free(struct odt_doc *doc);

/* styles.xml (its len bytes at xml) in out (reset first), the language
 * and country of its default paragraph style (fo:language, fo:country)
 * set to language's: "es-ES" gives es and ES, "es" es and none; added
 * when it gives neither; the bytes as they were when it has no such
 * style. */
xmt_status xmt_odt_set_language(const char *xml, size_t len,
                                const char *language, struct xmt_buf *out);

/* The raw attributes of the start tag at tag, in order: *name (len
 * *nlen) and its value [*vfrom, *vto) as offsets from tag; 0 past the
 * last (odt_lang.c). Begin with *at the offset of the first. */
int xmt_odt_next_attr(const char *tag, size_t *at, const char **name,
                      size_t *nlen, size_t *vfrom, size_t *vto);
size_t xmt_odt_first_attr(const char *tag);

#endif /* XMT_ODT_PRIVATE_H */
