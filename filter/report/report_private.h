/* report_private.h -- internals of the review report: the findings document
 * and the stylesheets shipped with the library. Not installed. */
#ifndef XMT_REPORT_PRIVATE_H
#define XMT_REPORT_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "report_private.h is internal to libxliffmt"
#endif

#include <libxml/tree.h>
#include <libxslt/xsltInternals.h>

#include "filter_private.h"

/* The URI the findings document answers to in document(). */
#define XMT_FINDINGS_URI "urn:xliffmt:findings"

/* --- The findings, whole or a chunk of units at a time (findings.c) ------
 * A findings document is built on a struct xmt_findings: the check's
 * problems (kept from xmt_findings_check on), the lines of the
 * trans-units, the states counted, and the rows of the document being
 * built (out), which wait for their length flag. */

struct xmt_findings_problem {
  enum xmt_severity severity;
  unsigned long line, column;
  char *unit, *message;
};

/* A segment waiting for its length flag, which needs the whole document;
 * node is its element in out, or NULL once out is gone. */
struct xmt_findings_row {
  xmlNodePtr node;
  unsigned flags;
  size_t source_chars, target_chars;
};

struct xmt_findings_state {
  char *name;
  size_t units;
};

struct xmt_findings {
  xmt_filter *f;
  xmlDocPtr out;
  xmlNodePtr root;
  xmlNsPtr xlf; /* inline codes are copied into the XLIFF 1.2 namespace */
  struct xmt_findings_problem *problems;
  size_t nproblems, problems_cap;
  struct xmt_findings_row *rows; /* of out */
  size_t nrows, rows_cap;
  struct xmt_findings_state *states;
  size_t nstates, states_cap;
  struct xmt_memo state_index;                 /* name -> its place in states */
  const struct xmt_findings_problem **by_unit; /* with a unit, by unit */
  size_t nby_unit;
  int by_unit_built;
  unsigned long *lines; /* of the trans-units, sorted */
  size_t nlines, lines_cap;
  xmt_segment *src, *tgt;
  int nomem;     /* libxml2 or an allocation failed */
  int rows_only; /* what only the rows need: lengths and flags */
  /* The flags of the rows to come, length flags too, in their order, as
   * a pass before found them; NULL: found now. */
  const unsigned *known_flags;
  size_t known_next, nknown;
};

/* The flags of a row, as many as xmt_findings_flags counts. */
#define XMT_FINDINGS_FLAGS 10
/* The attributes of an XLIFF <file> its findings <file> copies. */
#define XMT_FINDINGS_FILE_ATTRS 4
extern const char *const xmt_findings_file_attrs[XMT_FINDINGS_FILE_ATTRS];

/* An element of XLIFF 1.0 (no namespace), 1.1 or 1.2 named local. */
int xmt_findings_is(const xmlNode *n, const char *local);
/* n has the attribute name with that value. */
int xmt_findings_prop_is(const xmlNode *n, const char *name, const char *value);
/* Zeroes b and runs the check of path (xmt_check_document), keeping its
 * problems in b; the counts into *report. */
xmt_status xmt_findings_check(struct xmt_findings *b, xmt_filter *f,
                              const char *path,
                              const struct xmt_units_text *units,
                              struct xmt_check_report *report);
void xmt_findings_free(struct xmt_findings *b);
/* The line of a trans-unit start tag; sorted once all are in. */
void xmt_findings_line(struct xmt_findings *b, unsigned long line);
void xmt_findings_sort_lines(struct xmt_findings *b);
/* A new out (the one before freed, no rows) with its root <findings>,
 * returned; NULL out of memory. report gives its encoding and XLIFF
 * version. */
xmlNodePtr xmt_findings_begin(struct xmt_findings *b, const char *path,
                              const struct xmt_check_report *report);
xmlNodePtr xmt_findings_add(struct xmt_findings *b, xmlNodePtr parent,
                            const char *name);
void xmt_findings_set(struct xmt_findings *b, xmlNodePtr n, const char *name,
                      const char *value);
/* The check's problems from from on, n of them at most, under problems. */
void xmt_findings_problems(struct xmt_findings *b, xmlNodePtr problems,
                           size_t from, size_t n);
/* A trans-unit n, with translate="no" of a group around it in
 * translatable, under the findings <file> file_out: its rows into rows. */
void xmt_findings_unit(struct xmt_findings *b, const xmlNode *n,
                       xmlNodePtr file_out, int translatable);
/* The usual ratio of target to source length; -1 out of memory. */
int xmt_findings_median(const struct xmt_findings_row *rows, size_t nrows,
                        double *median);
void xmt_findings_length(struct xmt_findings_row *rows, size_t nrows,
                         double median);
/* Each row's flags as its attribute (when it has a node), and counted
 * into counts[XMT_FINDINGS_FLAGS]. */
void xmt_findings_flags(struct xmt_findings *b,
                        const struct xmt_findings_row *rows, size_t nrows,
                        size_t *counts);
void xmt_findings_summary(struct xmt_findings *b, xmlNodePtr summary,
                          const struct xmt_check_report *r, size_t nrows,
                          const size_t *counts);

/* --- The findings a chunk of units at a time (findings_stream.c) ------ */
typedef struct xmt_findings_stream xmt_findings_stream;
/* Checks path as xmt_findings_build does and reads it (or its XLIFF text
 * units, when not NULL) twice as a stream, for the counts of the
 * summary; chunks will have at most chunk_units units. */
xmt_status xmt_findings_stream_open(xmt_filter *f, const char *path,
                                    const struct xmt_units_text *units,
                                    size_t chunk_units,
                                    xmt_findings_stream **out);
/* The findings without units: the summary, the first of the problems,
 * an empty <file> for each; the caller's. NULL out of memory (in f). */
xmlDocPtr xmt_findings_stream_head(xmt_findings_stream *s);
/* The findings with only the problems from from on, n at most (the
 * caller's; NULL out of memory), and how many there are. */
xmlDocPtr xmt_findings_stream_problems(xmt_findings_stream *s, size_t from,
                                       size_t n);
size_t xmt_findings_stream_nproblems(const xmt_findings_stream *s);
/* The next chunk, a findings document (the caller's) with the units of
 * one <file>, the index of which goes to *file, and *before the rows of
 * the chunks before; *chunk NULL after the last. */
xmt_status xmt_findings_stream_next(xmt_findings_stream *s, xmlDocPtr *chunk,
                                    size_t *file, size_t *before);
void xmt_findings_stream_free(xmt_findings_stream *s);

/* Checks the document path (xmt_filter_check_file), reads it into *doc,
 * and builds its findings: the check's counts and problems and one
 * element per segment. A document of another format than XLIFF is read
 * as units, the XLIFF text of which is given in units (NULL: path is an
 * XLIFF document), with the format's own counts in facts (or NULL).
 * NULL with the error in f (*doc is then NULL too). */
xmlDocPtr xmt_findings_build(xmt_filter *f, const char *path,
                             const struct xmt_buf *units,
                             const struct xmt_doc_facts *facts, xmlDocPtr *doc);

/* Reads an XML file, or text when not NULL (path then names it), without
 * network access or external entities; what names it in messages. NULL
 * with the error (file, line, column) in f. */
xmlDocPtr xmt_report_read_xml(xmt_filter *f, const char *path, const char *text,
                              size_t len, const char *what);

/* --- Running stylesheets (report.c, report_stream.c) ------------------ */

/* Compiles the stylesheet file name, or the shipped one of that name when
 * no such file exists; NULL with the error in f. */
xsltStylesheetPtr xmt_report_compile(xmt_filter *f, const char *name,
                                     xmt_problem_fn on_message, void *user);
/* The bytes of a findings document, or of style's result over source
 * with the findings (freed, as style's are, with the transformation) and
 * with before, when not NULL, as the parameter xmt-before. */
xmt_status xmt_report_result(xmt_filter *f, xsltStylesheetPtr style,
                             xmlDocPtr source, xmlDocPtr findings,
                             const struct xmt_report_options *options,
                             const char *before, xmt_problem_fn on_message,
                             void *user, xmlChar **bytes, int *len);
/* How a shipped stylesheet (or the findings, when findings) is written a
 * chunk at a time; NULL for another name. */
struct xmt_report_recipe;
const struct xmt_report_recipe *xmt_report_recipe(const char *name,
                                                  int findings);
/* The report of in_path written a chunk of chunk_units units at a time. */
xmt_status xmt_report_stream(xmt_filter *f, const char *in_path,
                             const struct xmt_units_text *units,
                             const char *out_path,
                             const struct xmt_report_recipe *r,
                             const struct xmt_report_options *options,
                             xmt_problem_fn on_message, void *user,
                             size_t chunk_units);

/* xmt_filter_report_file with chunks of chunk_units units for the shipped
 * stylesheets and the findings; 0 reads them whole, as a stylesheet of
 * the user's is read (the tests compare the two). */
xmt_status xmt_report_file_chunked(xmt_filter *f, const char *in_path,
                                   const char *out_path,
                                   const struct xmt_report_options *options,
                                   xmt_problem_fn on_message, void *user,
                                   size_t chunk_units);

/* The shipped stylesheets, generated from data/ by report.am. */
extern const unsigned char xmt_xsl_report[];
extern const size_t xmt_xsl_report_len;
extern const unsigned char xmt_xsl_tmx[];
extern const size_t xmt_xsl_tmx_len;

#endif /* XMT_REPORT_PRIVATE_H */
