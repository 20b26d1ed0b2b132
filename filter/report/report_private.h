/* report_private.h -- internals of the review report: the findings document
 * and the stylesheets shipped with the library. Not installed. */
#ifndef XMT_REPORT_PRIVATE_H
#define XMT_REPORT_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "report_private.h is internal to libxliffmt"
#endif

#include <libxml/tree.h>

#include "filter_private.h"

/* The URI the findings document answers to in document(). */
#define XMT_FINDINGS_URI "urn:xliffmt:findings"

/* Checks the document path (xmt_filter_check_file), reads it into *doc,
 * and builds its findings: the check's counts and problems and one
 * element per segment. A document of another format than XLIFF is read
 * as units, the XLIFF text of which is given in units (NULL: path is an
 * XLIFF document). NULL with the error in f (*doc is then NULL too). */
xmlDocPtr xmt_findings_build(xmt_filter *f, const char *path,
                             const struct xmt_buf *units, xmlDocPtr *doc);

/* Reads an XML file, or text when not NULL (path then names it), without
 * network access or external entities; what names it in messages. NULL
 * with the error (file, line, column) in f. */
xmlDocPtr xmt_report_read_xml(xmt_filter *f, const char *path, const char *text,
                              size_t len, const char *what);

/* The shipped stylesheets, generated from data/ by report.am. */
extern const unsigned char xmt_xsl_report[];
extern const size_t xmt_xsl_report_len;
extern const unsigned char xmt_xsl_tmx[];
extern const size_t xmt_xsl_tmx_len;

#endif /* XMT_REPORT_PRIVATE_H */
