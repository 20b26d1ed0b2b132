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
  size_t n;             /* entries */
  unsigned char *forms; /* n enum xmt_part_form: how each entry read was
                           stored (UTF-8 until read) */
  struct xmt_package_named *folded; /* n names sorted as OPC compares
                                       them (xmt_package_find_part) */
  /* the entry whose bytes verify keeps for the read that follows (index
   * + 1, 0: none), and those bytes as they are in the zip (not yet
   * UTF-8): the main part is inflated once, not twice */
  size_t keep;
  struct xmt_buf kept;
};

/* An entry's name and index, for the lookup of a part name. */
struct xmt_package_named {
  const char *name; /* libzip's, valid while the package is open */
  zip_uint64_t i;
};

/* How an XML part's text is stored (package_text.c). */
enum xmt_part_form {
  XMT_PART_UTF8,
  XMT_PART_UTF16LE_BOM,
  XMT_PART_UTF16BE_BOM,
  XMT_PART_UTF16LE,
  XMT_PART_UTF16BE
};

/* The bytes of entry name, as stored, made UTF-8 in place; *form says
 * how they were stored. XMT_ERR_FORMAT for unsound UTF-16 or a declared
 * encoding other than the one found (UTF-8 or UTF-16). */
xmt_status xmt_part_to_utf8(xmt_package *pkg, const char *name,
                            struct xmt_buf *bytes, enum xmt_part_form *form,
                            struct xmt_error_store *err);
/* The UTF-8 text s (len bytes) into out (reset first) in form. */
xmt_status xmt_part_from_utf8(const char *s, size_t len,
                              enum xmt_part_form form, struct xmt_buf *out);

#endif /* XMT_PACKAGE_PRIVATE_H */
