/* office_doc.h -- what the Word and OpenDocument formats do alike
 * (office_doc.c): open a package from a file or from memory and tell its
 * kind, parse a part with expat and report where it failed (the entry,
 * its line and column), write the package back to a sink, and walk a
 * target's text and codes to write a paragraph again. */
#ifndef XMT_OFFICE_DOC_H
#define XMT_OFFICE_DOC_H

#include <expat.h>

#include "filter_private.h"
#include "office_private.h"

/* The first member of a format's document: its package, its main part's
 * entry name (borrowed from the package). */
struct xmt_office_doc {
  xmt_package *pkg;
  const char *main;
};

/* A format of zip packages as the opener sees it. */
struct xmt_office_format {
  enum xmt_package_kind kind;
  /* what a zip of another kind, one without its main part, and "-" are
   * refused with */
  const char *not_kind, *no_main, *not_stdin;
  size_t size; /* of the document, a struct xmt_office_doc first */
  /* its parts read, once the package is open and of its kind */
  xmt_status (*load)(xmt_filter *f, const char *path, void *doc);
  void (*unload)(void *doc);        /* what load made, even when it failed */
  size_t (*bytes)(const void *doc); /* what open tells the run */
  /* 1: load verifies the entries itself (those it parses later are
   * checked when read); 0: every entry verified before load */
  int load_verifies;
};

/* The format's open, parse and close of the format table. */
xmt_status xmt_office_open(xmt_filter *f, const struct xmt_office_format *fmt,
                           const char *path, void **out, size_t *bytes);
xmt_status xmt_office_parse(xmt_filter *f, const struct xmt_office_format *fmt,
                            const char *name, const char *bytes, size_t len,
                            void **out);
void xmt_office_close(const struct xmt_office_format *fmt, void *doc);

/* The format table's close_doc, parse_doc and open_doc of a format
 * whose struct xmt_office_format is fmt; XMT_OFFICE_TABLE puts them in
 * its entry. */
#define XMT_OFFICE_TABLE                                                       \
  .open = open_doc, .parse = parse_doc, .close = close_doc
#define XMT_OFFICE_OPERATIONS(fmt)                                             \
  static void close_doc(void *d) { xmt_office_close(&(fmt), d); }              \
  static xmt_status parse_doc(xmt_filter *f, const char *name,                 \
                              const char *bytes, size_t len, void **out) {     \
    return xmt_office_parse(f, &(fmt), name, bytes, len, out);                 \
  }                                                                            \
  static xmt_status open_doc(xmt_filter *f, const char *path, void **out,      \
                             size_t *bytes) {                                  \
    return xmt_office_open(f, &(fmt), path, out, bytes);                       \
  }

/* 1 when the len bytes at text are spaces, tabs and line ends alone: a
 * paragraph with no other text is no unit. */
int xmt_office_blank(const char *text, size_t len);

/* A paragraph's target taken into *slot: none (NULL) when target is NULL
 * or says what source says, so that the paragraph keeps its own bytes
 * (the merging of runs or spans would change them); else a copy. */
xmt_status xmt_office_take(xmt_filter *f, xmt_segment **slot,
                           const xmt_segment *source,
                           const xmt_segment *target);

/* The package with the entries of parts replaced, every other copied
 * raw, handed to sink whole. */
xmt_status xmt_office_write(xmt_filter *f, const struct xmt_office_doc *doc,
                            const struct xmt_package_part *parts, size_t n,
                            xmt_write_fn sink, void *user);

/* A part being parsed: the first member of a reader, which is what the
 * handlers are given (the doctype handler set here too). */
struct xmt_office_xml {
  XML_StartElementHandler start;
  XML_EndElementHandler end;
  XML_CharacterDataHandler text;
  const char *doctype; /* what a doctype is refused with */
  XML_Parser xp;
  xmt_status st;
  const char *why; /* XMT_ERR_FORMAT: what was refused */
  /* 1: the stop's status is the caller's (a sink's, whose message it
   * gave), returned as it is */
  int pass;
};

/* Stops the parse with st (the first one kept). */
void xmt_office_stop(struct xmt_office_xml *x, xmt_status st);
/* 1 when name (expat's "ns|local") is local in namespace ns. */
int xmt_office_is(const char *name, const char *ns, const char *local);

/* How a part's errors name it. */
struct xmt_office_entry {
  const char *path;  /* the package file */
  const char *entry; /* the part */
  int quoted;        /* 1: "entry 'content.xml'", 0: "word/document.xml" */
};

/* Parses len bytes at data with namespaces ('|' between) and x's
 * handlers; a doctype is refused (it could declare entities that expand
 * without end). A stop for XMT_ERR_FORMAT says x->why, a part that is
 * not well-formed expat's reason, each with the entry's line and column
 * (not the package file's); any other stop is out of memory. */
xmt_status xmt_office_xml_parse(struct xmt_office_xml *x, const char *data,
                                size_t len, const struct xmt_office_entry *at,
                                struct xmt_error_store *err);

/* Writing a target again: its text in stretches, each with the pair
 * codes open around it (innermost last; indexes into the paragraph's
 * codes), and its codes; an end of a pair closes the innermost pair
 * open, as the target's XLIFF reads. Tag ids 1..ncodes are the codes. */
/* With ncodes 0 (a value: text only, any tag dropped) paired_code and
 * put_code are never called and may be NULL. */
struct xmt_office_target {
  void *user;
  size_t ncodes;
  int (*paired_code)(void *user, size_t code); /* 1: opened and closed */
  xmt_status (*put_stretch)(void *user, const size_t *open, size_t nopen,
                            const char *text, size_t len);
  xmt_status (*put_code)(void *user, size_t code, int close);
};
xmt_status xmt_office_put_target(const struct xmt_office_target *w,
                                 const xmt_segment *target);

#endif /* XMT_OFFICE_DOC_H */
