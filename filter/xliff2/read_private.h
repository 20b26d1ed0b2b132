/* read_private.h -- what the pieces of the XLIFF 2 reader share (read.c,
 * read_inline.c, pairs.c; rules.c uses its attribute lookup). Not
 * installed. */
#ifndef XMT_X2_READ_PRIVATE_H
#define XMT_X2_READ_PRIVATE_H

#include <expat.h>

#include "xliff2_private.h"

enum frame_kind {
  F_OTHER,
  F_XLIFF,
  F_FILE,
  F_GROUP,
  F_UNIT,
  F_SEGMENT,
  F_SOURCE,
  F_TARGET,
  F_INLINE,
  F_ODATA,   /* a unit's <originalData> */
  F_MATCHES, /* a unit's <mtc:matches> */
  F_IGNORABLE,
  F_IGN_CONTENT /* an <ignorable>'s <source> or <target>, and inside it */
};

struct frame {
  unsigned char kind; /* enum frame_kind */
  unsigned char translate, preserve;
  unsigned char resegment; /* canResegment is not "no" */
  unsigned char side;      /* F_IGN_CONTENT: 1 source, 2 target */
  unsigned order;          /* F_IGN_CONTENT: the order of its target */
  size_t code;             /* F_INLINE: its start code, or X2_NONE */
};

/* An sc, ec, sm or em (not isolated="yes") of an <ignorable>: not a code
 * of any segment, but the partner of one that is (pairs.c). */
struct x2_far {
  unsigned char elem, side; /* enum x2_elem; 1 source, 2 target */
  unsigned part, order;     /* its <ignorable>'s place, its target's order */
  size_t id;                /* its id (ec, em: startRef) in the pool */
};

struct reader {
  struct x2_doc *doc;
  /* Told the end of each <unit> read, its segments paired and named
   * (NULL: the document is read whole); it may take the doc's segments
   * and the data before end away (stream.c). */
  void (*on_unit)(struct reader *r, size_t end);
  void *hook;
  int rooted; /* <xliff> was read */
  /* 1: the unit-stream ids are not made unique here: the run's unit
   * reader makes them so the same way (filter/unit_keys.c), and a
   * document translated as a stream would hold a second set of them */
  int raw_keys;
  XML_Parser parser;
  struct xmt_xml_names names; /* the namespaces in scope */
  /* 1: the parser is expat's namespace mode, taken for a document with a
   * DTD (see start_doctype); 1 in restart while it is made */
  int ns_mode, restart;
  size_t fed; /* the bytes given to the parser before this feed */
  struct xmt_error_store *err;
  xmt_status st;
  struct frame *stack;
  size_t depth, stack_cap;
  size_t unit_id;    /* in the pool; X2_NONE outside a unit */
  size_t unit_first; /* its first segment */
  /* the unit's start tag end, <originalData> and </mtc:matches> */
  size_t unit_tag_end, odata_start, odata_end, matches_close;
  int content;  /* 1: in a <source>, 2: in a <target>, 0: neither */
  size_t whole; /* depth of an element kept whole (mrk translate="no") */
  size_t whole_code;
  /* An <sm translate="no"> waiting for its <em> at the same depth: its
   * code (X2_NONE: none), that depth, its id in the pool. */
  size_t nomt, nomt_depth, nomt_id;
  /* 1 when an <sm translate="no"> of the unit could not be kept whole */
  int nomt_apart;
  /* 1: the <file>'s slr:profiles has generalProfile xliff:codepoints;
   * the unit's slr:sizeRestriction's maximum under it (0: none) */
  int codepoints;
  size_t unit_max;
  /* the outermost open <group> with an slr:sizeRestriction under the
   * profile: its maximum (0: none), its depth, and its number among the
   * document's (the units of one share it, xmt_unit_fields.group_scope) */
  size_t group_max, group_depth;
  unsigned group_scope, groups_limited;
  /* the unit's <segment>s and <ignorable>s so far; 1 when a target's
   * order is not its place */
  unsigned parts;
  int reordered;
  int ordered;        /* 1 when a target has an order attribute */
  struct x2_far *far; /* the unit's ignorables' sc, ec, sm and em */
  size_t nfar, far_cap;
  struct xmt_memo refs;      /* a unit's sc and sm by id */
  struct xmt_unit_keys keys; /* the unit-stream ids given */
  struct xmt_buf scratch;    /* a key being made */
};

/* A reader of doc (its data, from doc->offset on, is what the parser is
 * fed); feed hands it the next len bytes (last: the end of the
 * document). */
xmt_status xmt_x2_reader_init(struct reader *r, struct x2_doc *doc,
                              struct xmt_error_store *err);
xmt_status xmt_x2_reader_feed(struct reader *r, const char *bytes, size_t len,
                              int last);
void xmt_x2_reader_free(struct reader *r);

/* Records the first error at byte at of the document and stops. */
void xmt_x2_fail(struct reader *r, xmt_status st, size_t at, const char *fmt,
                 ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void xmt_x2_nomem(struct reader *r);
/* A copy of s in the pool (X2_NONE for NULL). */
size_t xmt_x2_keep(struct reader *r, const char *s);
/* A new frame on the element stack, inheriting translate and xml:space;
 * NULL when out of memory (recorded). */
struct frame *xmt_x2_push(struct reader *r, enum frame_kind kind);
/* The value of attribute name in expat's list, or NULL. */
const char *xmt_x2_attr(const char **atts, const char *name);

/* An element inside a <source> or <target> (read_inline.c); local is
 * NULL for another namespace than XLIFF 2 core. An <sm translate="no">
 * whose <em> comes before the element that holds it ends becomes one
 * code kept whole with all between them; xmt_x2_end_depth, at every end
 * tag, gives up on one whose element ended first (a pair then). */
void xmt_x2_open_inline(struct reader *r, const char *local, const char **atts,
                        size_t at, size_t len);
/* A comment or processing instruction at..at+len: a code kept whole. */
void xmt_x2_inline_other(struct reader *r, size_t at, size_t len);
void xmt_x2_close_inline(struct reader *r, const struct frame *f, size_t at,
                         size_t len);
static inline void xmt_x2_end_depth(struct reader *r) {
  if (r->nomt != X2_NONE && r->depth <= r->nomt_depth) {
    r->nomt = X2_NONE;
    r->nomt_apart = 1;
  }
}
/* The end of a unit: its codes paired and numbered, its segments named
 * (pairs.c). */
void xmt_x2_close_unit(struct reader *r, size_t at);

/* read_ignorable.c: the order of a target of the part-th segment or
 * ignorable (at, len: its start tag); an <ignorable>, its <source> and
 * <target> and their codes (k: the parent's kind), and their ends. */
unsigned xmt_x2_target_order(struct reader *r, const char **atts, unsigned part,
                             size_t at, size_t len);
void xmt_x2_open_ignorable_element(struct reader *r);
void xmt_x2_open_ignorable(struct reader *r, enum frame_kind k,
                           const char *local, const char **atts, size_t at,
                           size_t len);
void xmt_x2_close_ignorable(struct reader *r, const struct frame *f, size_t at,
                            size_t len);

#endif /* XMT_X2_READ_PRIVATE_H */
