/* package_private.h -- the package handle, shared by package.c (open,
 * read) and package_write.c (write). */
#ifndef XMT_PACKAGE_PRIVATE_H
#define XMT_PACKAGE_PRIVATE_H

#include "office_private.h"

#include <zip.h>

struct xmt_package {
  zip_t *za;  /* read only, open until the package is freed: the
                 entries copied raw are read from it at write */
  char *path; /* named in every message */
  char *mem;  /* the package's bytes when read from memory (a copy that
                 za reads from until it is discarded), else NULL */
  struct xmt_package_limits limits;
  size_t n; /* entries */
};

#endif /* XMT_PACKAGE_PRIVATE_H */
