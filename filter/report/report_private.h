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

/* Builds the findings of the XLIFF document xliff_path, already parsed as
 * doc: the check's counts and problems and one element per segment.
 * display_path names the document in the findings (the HTML page a
 * temporary XLIFF came from). NULL with the error in f. */
xmlDocPtr xmt_findings_build(xmt_filter *f, xmlDocPtr doc,
                             const char *xliff_path, const char *display_path);

/* The shipped stylesheets, generated from data/ by report.am. */
extern const unsigned char xmt_xsl_report[];
extern const size_t xmt_xsl_report_len;
extern const unsigned char xmt_xsl_tmx[];
extern const size_t xmt_xsl_tmx_len;

#endif /* XMT_REPORT_PRIVATE_H */
