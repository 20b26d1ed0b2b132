/* office_private.h -- zip packages of Word (OOXML) and OpenDocument files.
 *
 * A package is opened once, checked whole before anything is read (no
 * entry leaves the package by its name, none is encrypted, the expansion
 * is bounded), read one entry at a time, and written to a new file in
 * which the entries not replaced keep their compressed bytes (copied, not
 * recompressed), their method, order and names. Errors name the file and,
 * where there is one, the entry; messages are in the error store. */
#ifndef XMT_OFFICE_PRIVATE_H
#define XMT_OFFICE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "office_private.h is internal to the xliffmt library"
#endif

#include "base_private.h"

#include <stddef.h>
#include <stdint.h>

/* What a package may expand to, checked at open from the central
 * directory and again while an entry is read (a directory can lie). */
struct xmt_package_limits {
  uint64_t entry_max;   /* uncompressed bytes of one entry */
  uint64_t total_max;   /* uncompressed bytes of all entries */
  uint64_t ratio_max;   /* uncompressed / compressed size of one entry, */
  uint64_t ratio_floor; /* for entries of more than this many bytes */
  uint64_t entries_max; /* entries in the package */
};

/* 256 MiB an entry, 1 GiB in all, 200:1 above 1 MiB, 65,535 entries. */
void xmt_package_limits_default(struct xmt_package_limits *limits);

typedef struct xmt_package xmt_package;

/* Opens the zip package at path (copied). On failure *out is NULL and the
 * error says why, naming the file: XMT_ERR_IO (cannot be read),
 * XMT_ERR_FORMAT (not a zip, damaged or truncated, encrypted, an entry
 * name with ".." or an absolute path, over a limit) or XMT_ERR_NOMEM.
 * limits NULL: the defaults. */
xmt_status xmt_package_open(xmt_package **out, const char *path,
                            const struct xmt_package_limits *limits,
                            struct xmt_error_store *err);
/* The same for the len bytes of a package in memory (copied), named
 * name in messages. */
xmt_status xmt_package_open_mem(xmt_package **out, const char *name,
                                const char *bytes, size_t len,
                                const struct xmt_package_limits *limits,
                                struct xmt_error_store *err);
/* NULL is a no-op. */
void xmt_package_free(xmt_package *pkg);

/* The entries in the order of the central directory; names are UTF-8,
 * borrowed until the package is freed. */
size_t xmt_package_count(const xmt_package *pkg);
const char *xmt_package_name(const xmt_package *pkg, size_t i);
/* The uncompressed size the directory declares. */
uint64_t xmt_package_size(const xmt_package *pkg, size_t i);
/* The index of the entry named name, or -1. */
long xmt_package_find(const xmt_package *pkg, const char *name);
/* The index of the entry that is OPC part name (no leading '/'), as Word
 * finds it: in any ASCII case, its percent escapes decoded ("comment%73"
 * is "comments"), or -1. One at most, since a package with two names
 * that are one part is refused at open. */
long xmt_package_find_part(const xmt_package *pkg, const char *name);

/* Reads entry i whole into out (reset first, NUL-terminated), at most
 * max bytes (0: the package's entry limit), as UTF-8: a UTF-16 part is
 * converted, and written back as UTF-16 when replaced. XMT_ERR_FORMAT
 * when the entry is over the limit, damaged (CRC, bad data), not the size
 * declared, or declares an encoding other than UTF-8 or UTF-16. */
xmt_status xmt_package_read(xmt_package *pkg, size_t i, size_t max,
                            struct xmt_buf *out, struct xmt_error_store *err);

/* Reads entry i to its end without keeping it, so that its CRC and
 * size are checked: an entry copied with its compressed bytes would
 * otherwise carry its damage into the output unseen. XMT_ERR_FORMAT as
 * xmt_package_read. */
xmt_status xmt_package_verify(xmt_package *pkg, size_t i,
                              struct xmt_error_store *err);
/* Entry i's bytes, when verify reads them through, are kept for the
 * first xmt_package_read of i (which takes them): a part that is both
 * checked and read is inflated once. */
void xmt_package_keep(xmt_package *pkg, size_t i);

/* A replacement for one entry of the package (bytes borrowed). */
struct xmt_package_part {
  const char *name;
  const char *data;
  size_t len;
};

/* Writes the package to path, atomically (xmt_atomic_file): the entries
 * named in parts are written from their bytes (deflated; a `mimetype`
 * stored), every other entry is copied with its compressed bytes, method,
 * CRC, time, attributes and extra fields; the order is the package's,
 * except that `mimetype`, when there is one, comes first and is stored
 * with no extra field (as ODF requires). A part that names no entry is a
 * usage error. On any failure nothing is left at path (an existing file
 * stays as it was). */
xmt_status xmt_package_write(xmt_package *pkg, const char *path,
                             const struct xmt_package_part *parts,
                             size_t nparts, struct xmt_error_store *err);

/* The same, handed to sink (which makes the output atomic) once whole:
 * written first into a temporary file, not memory, as the package may be
 * far larger than the parts that are rewritten, and libzip seeks back
 * into what it wrote. A sink that fails is XMT_ERR_WRITE with no message
 * (the sink's owner has it). */
typedef int (*xmt_package_sink_fn)(void *user, const char *bytes, size_t len);
xmt_status xmt_package_write_out(xmt_package *pkg,
                                 const struct xmt_package_part *parts,
                                 size_t nparts, xmt_package_sink_fn sink,
                                 void *user, struct xmt_error_store *err);

/* Which document a package holds, by content alone. */
enum xmt_package_kind {
  XMT_PACKAGE_OTHER = 0, /* a zip, but neither of the below */
  XMT_PACKAGE_WORD,      /* OOXML WordprocessingML: .docx .docm .dotx .dotm */
  XMT_PACKAGE_ODT        /* OpenDocument Text: .odt .ott */
};

/* Tells the kind from `[Content_Types].xml` (the content type of a main
 * part) or `mimetype`. main, when not NULL, gets the main part's entry
 * name ("word/document.xml", "content.xml"; borrowed from the package),
 * or NULL for XMT_PACKAGE_OTHER and when the package lacks that part. Fails
 * only when the telling entry cannot be read (damaged, over its limit, not
 * well-formed XML). */
xmt_status xmt_package_kind(xmt_package *pkg, enum xmt_package_kind *kind,
                            const char **main, struct xmt_error_store *err);

#endif /* XMT_OFFICE_PRIVATE_H */
