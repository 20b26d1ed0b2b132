/* word_read.h -- the reader of a Word part (word_read.c: the events,
 * frames and alternate content; word_read_para.c: inside a paragraph). */
#ifndef XMT_WORD_READ_H
#define XMT_WORD_READ_H

#include <expat.h>
#include <string.h>

#include "word_private.h"

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#define MC_NS "http://schemas.openxmlformats.org/markup-compatibility/2006"
#define A_NS "http://schemas.openxmlformats.org/drawingml/2006/main"

/* An element of the paragraph whose start and end are a paired code: its
 * depth, where it starts; pending while its properties (w:sdtPr...) are
 * read, its open code not yet made; the depth of its w:sdtContent and
 * where that one's end tag starts (the close code's bytes from there). */
struct open_el {
  unsigned long depth, content_depth;
  size_t start, close_from;
  int pending;
};

#define OPEN_MAX 64

/* The instruction of a field being read (word_fields.c): the field's
 * fld_depth (0: none); bad once another field begins in it or it goes
 * on past its paragraph; text_depth: of the w:instrText read (0: none);
 * its text as expat gives it, each stretch (chunk) with its bytes in the
 * part: text [at, the next's at), bytes [from, to). */
struct instr_chunk {
  size_t at, from, to;
};
struct instr {
  unsigned depth;
  int bad, attr; /* attr: a w:fldSimple's w:instr, not w:instrText */
  unsigned long text_depth;
  struct xmt_buf text;
  struct instr_chunk *chunks;
  size_t nchunks, cap;
};

/* The paragraph being read in one frame: the part's own, or a text
 * box's (box_depth: the depth of its w:txbxContent). */
struct frame {
  unsigned long box_depth;
  unsigned long para_depth; /* of its w:p; 0: none */
  struct word_para para;
  struct piece *pieces;
  size_t npieces, cap;
  struct xmt_buf pool;
  struct open_el opens[OPEN_MAX];
  size_t nopen;
  /* the run being read (depth of its w:r; 0: none), its w:rPr */
  unsigned long run_depth;
  size_t rpr_off, rpr_len;
  /* an element copied whole as one code: its depth and start (0: none);
   * skip_in_run: 1 inside a run (written in a run of its own), 0 not,
   * -1 the w:pPr, -2 dropped or already added */
  unsigned long skip_depth;
  size_t skip_start;
  int skip_in_run, skip_rpr, in_text;
  int skip_keep;   /* deleted text: no text box in it is read */
  int long_prefix; /* a prefix the paragraph cannot be written with */
  size_t rpr_start;
  /* the fields open (w:fldChar begin to end, nested), a bit each, set
   * while its instruction is read: text there, another field's result in
   * this one's instruction, is instruction too, kept as it is */
  unsigned long long fld_instr;
  unsigned fld_depth;
  /* a w:ruby read (depth of it; 0: none), from ruby_start; ruby_tag_end
   * its start tag's end; ruby_base 1 while its w:rubyBase is read (the
   * run around the ruby, depth and properties, set aside), 2 once read.
   * Its base's text is the paragraph's, its reading (w:rt) in the
   * pair's open */
  unsigned long ruby_depth, ruby_run;
  size_t ruby_start, ruby_tag_end, ruby_rpr_off, ruby_rpr_len;
  int ruby_base;
  struct instr instr;
};

/* An mc:AlternateContent: the paragraphs [ref_from, ref_to) of its first
 * Choice (ref_from SIZE_MAX until it ends), from: where the Choice or
 * Fallback being read began. */
struct alt {
  unsigned long depth;
  size_t ref_from, ref_to, from;
};

struct reader {
  struct xmt_office_xml x; /* first: the parse, how it stopped */
  struct word_part *part;
  const struct word_hook *hook; /* NULL: none */
  unsigned long depth;
  struct frame s;        /* the frame being read */
  struct frame saved[8]; /* the frames of the text boxes it is in */
  size_t nsaved;
  struct alt alt[16];
  size_t nalt;
  unsigned long binding_depth; /* of the w:dataBinding open; 0: none */
  /* of a form field's w:textInput open (0: none), whose w:default is the
   * text the field is reset to */
  unsigned long input_depth;
  /* a core property being read (part->props): its depth (0: none), the
   * start of its content, its text; bad: an element in it */
  unsigned long prop_depth;
  size_t prop_from;
  int prop_bad;
  struct xmt_buf prop_text;
  /* a chart or a SmartArt's data or drawing (its root says): its
   * DrawingML paragraphs (a:p) are units as Word's are, and a chart's
   * strings (c:v in a string cache, or a series' name: in c:tx) units
   * read as the core properties are; str_depth and tx_depth: the
   * c:strCache... and c:tx open (0) */
  int drawing;
  unsigned long str_depth, tx_depth;
  /* the event's element: its local name when it is of W_NS or MC_NS,
   * else NULL; found once an event, not once a name asked about */
  const char *w, *mc;
};

/* 1 when the event's element is W_NS's local (or MC_NS's, word_mc_is). */
static inline int word_is(const struct reader *r, const char *local) {
  return r->w != NULL && r->w[0] == local[0] && strcmp(r->w, local) == 0;
}
static inline int word_mc_is(const struct reader *r, const char *local) {
  return r->mc != NULL && r->mc[0] == local[0] && strcmp(r->mc, local) == 0;
}

void xmt_word_begin_para(struct reader *r);
void xmt_word_start_in_run(struct reader *r);
void xmt_word_start_in_para(struct reader *r);
void xmt_word_end_skipped(struct reader *r);
void xmt_word_end_in_para(struct reader *r);
/* Adds para to the part's paragraphs (owned by it then, freed when it
 * cannot be added); 0 when out of memory, the parse stopped. */
int xmt_word_push_para(struct reader *r, struct word_para *para);
/* The values of the element starting (name, attrs) that are units
 * (word_values.c): wp:docPr's descr and title, w:hyperlink's
 * w:tooltip, outside deleted text. */
void xmt_word_values_start(struct reader *r, const char *name,
                           const XML_Char **attrs);
/* 1 when the part's bytes are a chart's, a SmartArt's data or its
 * drawing: its root element's local name says. */
int xmt_word_is_drawing(const char *data, size_t len);
/* The events of the core properties part (part->props), and of a chart
 * or SmartArt part (r->drawing). */
void XMLCALL xmt_word_props_start(void *user, const XML_Char *name,
                                  const XML_Char **attrs);
void XMLCALL xmt_word_props_end(void *user, const XML_Char *name);
void XMLCALL xmt_word_props_text(void *user, const XML_Char *s, int len);
/* In a chart or SmartArt part, outside a DrawingML paragraph (read as a
 * Word paragraph is): the element starting (depth counted by the
 * caller) or ending, its string values and series names units. */
void xmt_word_chart_start(struct reader *r, const XML_Char *name);
void xmt_word_chart_end(struct reader *r);

/* A field's character k read (fld_depth counted already), and text of
 * a w:instrText (word_fields.c): the text of an XE or TC field's
 * instruction that is shown (an index entry, a table of contents entry)
 * units, read when its instruction ends. */
void xmt_word_instr_fld(struct reader *r, enum fld k);
void xmt_word_instr_text(struct reader *r, const char *s, size_t len);
/* A w:fldSimple's instruction, the part's bytes [from, to) (its w:instr
 * value), read alike once its piece is added. */
void xmt_word_instr_simple(struct reader *r, size_t from, size_t to);
/* In the start tag [s, s + n), the bytes of the value of the attribute
 * local (prefixed: with a prefix), between its quotes: [*from, *to)
 * from s (word_values.c). 0 when there is none. */
int xmt_word_value_at(const char *s, size_t n, const char *local, int prefixed,
                      size_t *from, size_t *to);

/* The hook told of the paragraphs read, when none can become a twin. */
void xmt_word_final(struct reader *r);

#endif /* XMT_WORD_READ_H */
