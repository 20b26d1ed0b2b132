/* word_private.h -- the Word format (word.c, word_parts.c, word_read.c,
 * word_units.c, word_write.c): the paragraphs of word/document.xml and
 * of its headers, footers, notes and comments as units, their runs
 * merged into stretches of text and codes, written back with their
 * targets. */
#ifndef XMT_WORD_PRIVATE_H
#define XMT_WORD_PRIVATE_H

#include <pthread.h>

#include "office_doc.h"

/* A code of a paragraph, tag id its index + 1. Paired codes are a
 * hyperlink or simple field (open: its start tag, close: its end tag)
 * or a stretch of runs whose properties differ from the paragraph's
 * base ones (rpr set, open: the w:rPr of its first run). Isolated ones
 * are written as they were (a tab, break or drawing in a run of their
 * own, with the run's properties; a bookmark; a field's characters). */
struct word_code {
  int isolated, rpr;
  char *open, *close; /* close NULL for a stretch (rpr) */
  size_t open_len, close_len;
  /* a pair around text of one formatting (a link whose run is styled):
   * the w:rPr of its text, NULL when the text has the base ones */
  char *run_rpr;
  /* merged: several elements side by side (word_codes.c), open written
   * as it is; from and to name the first (its ctype) */
  int merged;
  /* an isolated code's open is a wrapper of pre_len bytes, the part's
   * bytes [from, to) (a drawing may hold text boxes, whose paragraphs are
   * written with their targets), the rest of the wrapper */
  size_t from, to, pre_len;
  int values; /* as in struct piece */
};

/* A paragraph with text: bytes [start, end) of the part, of which
 * [start, head_end) (the start tag and w:pPr) are kept when it is
 * rewritten; prefix is the WordprocessingML prefix it is written with
 * ("w"). */
struct word_para {
  size_t start, head_end, end;
  char prefix[32];
  xmt_segment *source, *target;
  struct word_code *codes;
  size_t ncodes, codes_cap;
  char *base_rpr; /* the w:rPr of most of its text ("" when none) */
  /* codes [0, nsource) are the source's; the others stand at its edges
   * (no text in them), written as they were around the target: edges[0,
   * nlead) before it, edges[nlead, nedges) after (close: a pair's end) */
  size_t nsource, nlead, nedges;
  struct word_edge {
    size_t code;
    int close;
  } * edges;
  /* the index of the paragraph of the first mc:Choice this one repeats
   * (in an mc:Fallback or later Choice: the same text, the same codes),
   * whose target it takes; -1: none, a unit of its own */
  long twin;
  /* 1: no paragraph but a value shown as text (a picture's alternative
   * text, a link's tooltip, a core property): [start, end) the bytes of
   * the attribute's value or of the element's content, head_end start,
   * no codes; written as the target's text escaped, no runs */
  int value;
  /* 1: a DrawingML paragraph (a:p of a chart or a SmartArt), its runs
   * written as a:r, the language in a:rPr's lang attribute */
  int drawing;
  /* 1: a value that is a text field's default (w:default). One that says
   * what the field's result says is a twin of the field's paragraph,
   * written with the text of its pair twin_code (-1: the whole target,
   * the pair at the paragraph's edges): the same translation */
  int field_default;
  long twin_code;
  /* a value that is text of a field's instruction (word_fields.c): 1 a
   * quoted argument (a TC field's entry, an XE field's \t text), 2 a
   * level of an XE field's entry (its colons escaped); bare: it had no
   * quotes (written with them once translated). instr_rest: the rest of
   * the argument, in a later w:instrText, its twin's target written in
   * the first: written empty. instr_text: the source's text (instr_len
   * bytes), kept past the take, whose target says whether it changed;
   * instr_attr: in a w:fldSimple's w:instr, escaped as a value */
  int instr, instr_bare, instr_rest, instr_attr;
  char *instr_text;
  size_t instr_len;
};

/* A part read: the main one or a header, footer, notes or comments. Its
 * paragraphs are in the order they end (a text box's before the one it
 * stands in); order lists them by start, for writing. */
struct word_part {
  const char *name; /* its entry (borrowed from the package) */
  char *unit_name;  /* what unit ids say of it: "document", "header1" */
  struct xmt_buf data;
  struct word_para *paras;
  size_t npara, cap;
  size_t *order;
  size_t nfed; /* paragraphs [0, nfed) handed on (struct word_hook) */
  /* held while paras grows, which a take on another thread reads */
  pthread_mutex_t *lock;
  /* its w:dataBinding elements, bytes [from, to) each, in order: left out
   * when the part is written again, since Word and LibreOffice show a
   * bound content control's data (a document property...), not its
   * translated text */
  struct word_range {
    size_t from, to;
  } * bindings;
  size_t nbindings, bindings_cap;
  /* 1: the core properties (docProps/core.xml), whose units are the
   * document's title, subject and description, not paragraphs */
  int props;
};

struct word_doc {
  struct xmt_office_doc base; /* the package, the main part's entry */
  struct word_part *parts;    /* the main part first */
  size_t nparts;
  struct xmt_unit_part *numbering; /* each part's unit name and count */
  size_t nparsed;                  /* parts [0, nparsed) read and parsed */
  char *path;           /* the file, which a later parse's errors name */
  int read;             /* 1 once the units callback has begun */
  pthread_mutex_t lock; /* the paragraphs and numbering, against take */
  int locked;           /* 1 once lock is made */
};

/* Told, while a part is parsed, each time paragraphs [part->nfed,
 * part->npara) are final (none is in an mc:AlternateContent still open,
 * whose later choices may make them twins): the units callback hands
 * them on then, not once the whole part is read. */
struct word_hook {
  xmt_status (*fed)(void *user, struct word_part *part);
  void *user;
};

/* A piece of a paragraph, in order: text with its run's properties, or
 * a code (the open/close of a pair, or an isolated one). */
enum piece_type { PIECE_TEXT, PIECE_ISOLATED, PIECE_OPEN, PIECE_CLOSE };
struct piece {
  enum piece_type type;
  size_t off, len;          /* text or markup in the pool */
  size_t rpr_off, rpr_len;  /* PIECE_TEXT: the run's w:rPr in the part */
  size_t from, to, pre_len; /* PIECE_ISOLATED: as in struct word_code */
  int merged;               /* as in struct word_code */
  /* a w:instrText or w:fldSimple with text that is a unit: never merged,
   * written through the part */
  int values;
};

/* What the w:fldChar start tag at xml (len bytes) is (its
 * w:fldCharType); FLD_NONE for any other element. */
enum fld { FLD_NONE, FLD_BEGIN, FLD_SEPARATE, FLD_END };
enum fld xmt_word_fld_kind(const char *xml, size_t len);

/* Appends the part's bytes [from, to) less its w:dataBinding elements
 * (word_read.c). */
xmt_status xmt_word_append_unbound(struct xmt_buf *out,
                                   const struct word_part *part, size_t from,
                                   size_t to);

/* Fewer codes (word_codes.c): empty text dropped, each field whose
 * result is in the paragraph one pair, codes side by side with no text
 * between one isolated code. Returns the pieces left. */
size_t xmt_word_fewer_codes(struct piece *pieces, size_t n, const char *part);
/* The pieces [0, *lo) and [*hi, n) at the paragraph's edges that hold no
 * text: isolated codes, pairs around all that is between. */
void xmt_word_edges(const struct piece *pieces, size_t n, size_t *lo,
                    size_t *hi);

/* Makes para's source segment, codes and base properties of its pieces
 * (word_units.c): markup and text in pool, properties in part. The
 * pieces are rewritten (xmt_word_fewer_codes), not copied first. */
xmt_status xmt_word_para_finish(struct word_para *para, const char *pool,
                                struct piece *pieces, size_t n,
                                const char *part);
void xmt_word_para_free(struct word_para *para);
/* 1 when b says what a says: the same text, the same codes at the same
 * places (an mc:Fallback's paragraph and its mc:Choice's). */
int xmt_word_same_source(const struct word_para *a, const struct word_para *b);

/* The parts of doc found (word_parts.c): the main one, then the
 * headers, footers, footnotes, endnotes and comments its relationships
 * name, in the package's order; every other entry of the package
 * verified (the parts are checked when read, by xmt_word_parse_parts).
 * Nothing of the parts is read yet. */
xmt_status xmt_word_load_parts(struct word_doc *doc, const char *path,
                               struct xmt_error_store *err);
/* The entries of the packages (an embedded workbook: a chart's data)
 * whose relationships of part (an entry name) name, in *found (the
 * caller frees it), *n of them. */
xmt_status xmt_word_embedded(struct word_doc *doc, const char *part,
                             size_t **found, size_t *n,
                             struct xmt_error_store *err);
/* Reads and parses the parts not parsed yet, in order; hook (NULL: none)
 * is told of their paragraphs as they are final. */
xmt_status xmt_word_parse_parts(struct word_doc *doc, const char *path,
                                const struct word_hook *hook,
                                struct xmt_error_store *err);
void xmt_word_parts_free(struct word_doc *doc);

/* Reads the paragraphs of part (word_read.c); errors name path and the
 * part, with the line and column. A status hook returns stops the parse
 * and is returned as it is (its message is the hook's). */
xmt_status xmt_word_parse(struct word_part *part, const char *path,
                          const struct word_hook *hook,
                          struct xmt_error_store *err);

/* The part with each paragraph that has a target rewritten (word_write.c)
 * in out (reset first); language set on the runs written. Markup written
 * again has its revision marks renumbered from *next_id on. */
xmt_status xmt_word_render(const struct word_part *part, const char *language,
                           long long *next_id, struct xmt_buf *out);
/* 1 when the part's bytes [from, to) (an isolated code's, a pair's
 * start tag) hold a value that is a unit (word_values.c): a picture's
 * alternative text, a link's tooltip. Such a code is written through the
 * part, never merged with others. */
int xmt_word_holds_values(const char *part, size_t from, size_t to);
/* 1 when the part's bytes [from, to) (a field's w:fldChar begin) hold a
 * form field's help or status text (w:helpText, w:statusText) or a
 * drop-down's entries (w:listEntry) or a text field's default (w:default)
 * that are units: the code the field's
 * begin..separate make is written with the begin's bytes through the part, the
 * rest as it is. */
int xmt_word_holds_field_values(const char *part, size_t from, size_t to);

/* The first id above every w:id of doc's parts (ids past XMT_WORD_ID_MAX
 * counted as it): revision ids are unique in the document, its headers,
 * notes and comments included (ECMA-376 Part 1, 17.13.4). */
#define XMT_WORD_ID_MAX 100000000000000LL
long long xmt_word_next_id(const struct word_doc *doc);
/* The target a paragraph is written with: its own, or its twin's. */
const xmt_segment *xmt_word_target_of(const struct word_part *part,
                                      const struct word_para *p);

/* len bytes of text escaped for XML into out: for an element's content
 * (in_value 0) or an attribute's value in either quotes (word_write.c);
 * what XML cannot carry left out. */
xmt_status xmt_word_put_escaped(struct xmt_buf *out, const char *text,
                                size_t len, int in_value);

/* The workbook embedded in the package at entry (a chart's data) with
 * the cells the chart part's translated string caches name given their
 * translations, written whole into out (word_workbook.c); out empty when
 * none was. *missed: the caches whose cell was not (not found, another
 * text, the workbook not readable): Word shows their source text again
 * when the chart's data is edited. Fails only out of memory. */
xmt_status xmt_word_workbook(const struct word_doc *doc,
                             const struct word_part *part, size_t entry,
                             struct xmt_buf *out, size_t *missed,
                             struct xmt_error_store *err);

/* The instruction text of a value p->instr says (word_fields.c): into
 * out, target's text quoted as Word's fields want; *same set when the
 * target's text is the source's (the part's bytes are kept then). */
xmt_status xmt_word_instr_put(struct xmt_buf *out, const struct word_para *p,
                              const xmt_segment *target, int *same);

/* The text of seg (a paragraph's source or target, tag ids its codes)
 * inside p's pair code, or all of it when code is -1, into out (reset
 * first) (word_write.c). */
xmt_status xmt_word_pair_text(const struct word_para *p, const xmt_segment *seg,
                              long code, struct xmt_buf *out);

#endif /* XMT_WORD_PRIVATE_H */
