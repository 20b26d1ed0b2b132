/* status.c -- the message of each status code. */
#include "config.h"

#include "base_private.h"

const char *xmt_strerror(xmt_status status) {
  /* No default: -Wswitch flags a status without a message. */
  switch (status) {
  case XMT_OK:
    return "no error";
  case XMT_ERR_NOMEM:
    return "out of memory";
  case XMT_ERR_IO:
    return "input/output error";
  case XMT_ERR_USAGE:
    return "invalid argument";
  case XMT_ERR_XML:
    return "malformed XML";
  case XMT_ERR_NOT_XLIFF:
    return "not an XLIFF 1.0-1.2 or 2.0-2.2 document";
  case XMT_ERR_ENCODING:
    return "bad character encoding";
  case XMT_ERR_INLINE:
    return "broken inline codes";
  case XMT_ERR_BACKEND:
    return "MT backend failure";
  case XMT_ERR_ABORTED:
    return "aborted by a callback";
  case XMT_ERR_INTERNAL:
    return "internal error";
  case XMT_ERR_WRITE:
    return "output could not be written";
  case XMT_ERR_PARTIAL:
    return "some segments were not translated";
  case XMT_ERR_FORMAT:
    return "unsupported document format";
  }
  return "unknown status";
}
