/* xml_read_private.h -- whole XML documents through libxml2, for the
 * parts of the filter that need a tree (xml_read.c). Not installed. */
#ifndef XMT_XML_READ_PRIVATE_H
#define XMT_XML_READ_PRIVATE_H

#include <limits.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "filter_private.h"

/* Reads the document text[0, len) (or the file path when text is NULL;
 * path names it in messages) with libxml2, never from the network, with
 * the given extra options. NULL on failure, with XMT_ERR_XML in err at
 * the first error's line and column ("WHAT is not well-formed XML: ..."),
 * or XMT_ERR_NOMEM. */
xmlDocPtr xmt_xml_read(struct xmt_error_store *err, const char *path,
                       const char *text, size_t len, int options,
                       const char *what);

#endif /* XMT_XML_READ_PRIVATE_H */
