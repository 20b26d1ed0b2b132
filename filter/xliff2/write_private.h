/* write_private.h -- what the pieces of the XLIFF 2 writer share (write.c,
 * write_codes.c, write_matches.c, write_split.c). Not installed. */
#ifndef XMT_X2_WRITE_PRIVATE_H
#define XMT_X2_WRITE_PRIVATE_H

#include "xliff2_private.h"

/* A code of a target, in the order written. */
struct placed {
  size_t offset;       /* in the target's text */
  size_t code;         /* the source code it is (index in doc->codes) */
  unsigned char split; /* a pc or mrk written as sc/ec or sm/em */
};

struct writer {
  const struct x2_doc *doc;
  const char *lang; /* the targets' language: trgLang, or the run's */
  xmt_write_fn sink;
  void *user;
  struct xmt_error_store *err;
  xmt_x2_warn_fn warn;
  void *warn_user;
  xmt_status st;
  size_t at; /* the document's bytes before it are written */
  /* the next of doc->igns, and the unit (its </unit>) whose ignorables
   * get a target (X2_NONE: none) */
  size_t ign, ign_unit;
  struct xmt_buf out;  /* UTF-8, not yet handed to the sink */
  struct xmt_buf enc;  /* out in the document's encoding */
  struct xmt_buf tag;  /* a start tag being rewritten */
  struct xmt_buf text; /* scratch */
  struct xmt_buf attr; /* a start tag being rewritten, its other copy */
  struct x2_target_tags ttags;
  struct placed *items;
  size_t nitems, items_cap;
  size_t *index; /* source code by number and end: index[2 * number + end] */
  size_t index_cap;
  unsigned char *used; /* per source code of the segment */
  size_t used_cap;
  int in_match; /* writing a match: an sc/ec without its partner isolated */
  /* the segment ids given in the unit (its <unit ...> tag's end) */
  struct xmt_memo given;
  size_t given_unit;
  /* the unit (its </unit>) whose targets' orders are renumbered, as a
   * segment of it is written split (X2_NONE: none), and its first
   * segment; part_place: when not 0, the order a target start tag copied
   * now gets (that of a sentence of a split segment) */
  size_t ord_unit, ord_first;
  unsigned part_place;
};

/* Output is handed to the sink in blocks of about this size: as the
 * XLIFF 1.2 writer's, four times stdio's buffer of an output file, so
 * that most of a block is written from here, not copied there first. */
#define X2W_BLOCK (256u * 1024u)

void xmt_x2w_flush(struct writer *w);
/* out grown for len more bytes, appended: the rare case of xmt_x2w_put */
void xmt_x2w_put_grown(struct writer *w, const char *s, size_t len);

/* len bytes at s appended to the output; a block full handed over. Inline:
 * a target is written in a score of small puts. */
static inline void xmt_x2w_put(struct writer *w, const char *s, size_t len) {
  struct xmt_buf *o = &w->out;
  if (w->st == XMT_OK && len > 0 && len < o->cap - o->len) {
    memcpy(o->data + o->len, s, len);
    o->len += len;
    o->data[o->len] = '\0';
  } else if (w->st == XMT_OK && len > 0) {
    xmt_x2w_put_grown(w, s, len);
  }
  if (o->len >= X2W_BLOCK)
    xmt_x2w_flush(w);
}
void xmt_x2w_put_str(struct writer *w, const char *s);
/* The length of the prefix (colon included) of the element whose start
 * tag of len bytes is at tag, its local name being `local`. */
size_t xmt_x2w_prefix_len(const char *tag, size_t len, const char *local);
/* The document's bytes from w->at to end. */
void xmt_x2w_copy_to(struct writer *w, size_t end);
/* The start tag from start to end with names[i] set to values[i]. */
void xmt_x2w_put_tag(struct writer *w, size_t start, size_t end,
                     const char *const *names, const char *const *values,
                     size_t n);
/* 1 when code x is an <sc>, <ec>, <sm> or <em> whose partner is not in
 * its segment (or isolated="yes"): in a match, which holds one segment, it
 * is written isolated (xmt_x2w_put_isolated). */
int xmt_x2w_lone(const struct x2_code *x);
/* Code x's tag written with isolated="yes" (an <ec>'s startRef as id); an
 * <sm> or <em>, which has no isolated form, written as nothing. */
void xmt_x2w_put_isolated(struct writer *w, const struct x2_code *x);
/* The targets as matches of the Matches module (write_matches.c). */
void xmt_x2w_matches(struct writer *w);
/* The content of the target of s: target's text, and its codes as the
 * source src (s's, or a part of it, whose codes are numbered as s's)
 * wrote them; codes it lacks are added at its end. */
void xmt_x2w_content(struct writer *w, const struct x2_segment *s,
                     const struct x2_content *src, const xmt_segment *target);
/* A code as its source wrote it, or a pc (mrk) end as an sc/ec (sm/em)
 * when split. */
void xmt_x2w_put_code(struct writer *w, const struct placed *p);
/* The target of s after its source, with content target of the codes of
 * src; w->at is the source's end, and is moved past an existing target
 * (write.c). */
void xmt_x2w_target(struct writer *w, const struct x2_segment *s,
                    const struct x2_content *src, const xmt_segment *target);
/* Segment i written as one <segment> per sentence of doc->splits[i] with
 * <ignorable>s between them (write_split.c). */
void xmt_x2w_split(struct writer *w, size_t i);
void xmt_x2w_free(struct writer *w);
/* The number of <segment>s and <ignorable>s segment i is written as when
 * split (write_split.c). */
unsigned xmt_x2w_split_places(const struct x2_doc *doc, size_t i);
/* The place in the unit w->ord_unit, as written, of what was its place
 * q: moved by the segments before it written split. */
unsigned xmt_x2w_place(const struct writer *w, unsigned q);
/* 1 when an element of the unit of s has the id `id`: the ids xliffmt
 * adds must be unique among its segments, ignorables and codes (any start
 * tag with that id counts). */
int xmt_x2w_id_taken(const struct x2_doc *doc, const struct x2_segment *s,
                     const char *id);
/* 1 when a start tag between from and to has the id `id`. */
int xmt_x2w_has_id(const struct x2_doc *doc, size_t from, size_t to,
                   const char *id);

#endif /* XMT_X2_WRITE_PRIVATE_H */
