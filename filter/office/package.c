/* package.c -- a zip package opened, checked whole, and read an entry at
 * a time (libzip). Everything that could make a later step unsafe is
 * refused here, before any entry is read: a name that leaves the package,
 * encryption, an expansion over the limits. */
#include "office_private.h"
#include "package_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xmt_package_limits_default(struct xmt_package_limits *limits) {
  limits->entry_max = (uint64_t)256 << 20;
  limits->total_max = (uint64_t)1 << 30;
  limits->ratio_max = 200;
  limits->ratio_floor = (uint64_t)1 << 20;
  limits->entries_max = 65535;
}

/* Why libzip would not open path, in words that say what the file is:
 * its first bytes tell a Word file encrypted with a password (an OLE
 * compound file, not a zip) and a zip cut short from other files. */
static xmt_status refuse_bytes(const char *path, int zerr,
                               const unsigned char *magic, size_t got,
                               struct xmt_error_store *err) {
  if (got >= 8 && memcmp(magic, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8) == 0)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(path),
                        "an encrypted (password-protected) or old binary "
                        "Office file, not a zip package");
  if (zerr == ZIP_ER_INCONS ||
      (got >= 4 && memcmp(magic, "PK\x03\x04", 4) == 0))
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(path),
                        "a truncated or damaged zip package");
  if (zerr == ZIP_ER_NOZIP)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(path), "not a zip package");
  zip_error_t ze;
  zip_error_init_with_code(&ze, zerr);
  xmt_status st =
      xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(path),
                   "not a readable zip package: %s", zip_error_strerror(&ze));
  zip_error_fini(&ze);
  return st;
}

static xmt_status refuse_open(const char *path, int zerr,
                              struct xmt_error_store *err) {
  unsigned char magic[8] = {0};
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cannot open: %s",
                        strerror(errno));
  size_t got = fread(magic, 1, sizeof magic, fp);
  fclose(fp);
  return refuse_bytes(path, zerr, magic, got, err);
}

/* 1 when name, used as a path, would leave the folder it is unpacked in:
 * an absolute path, a drive, or a ".." component ('\' counts as '/'). */
static int name_escapes(const char *name) {
  if (name[0] == '/' || name[0] == '\\' || name[0] == '\0')
    return 1;
  if (name[0] != '\0' && name[1] == ':')
    return 1;
  for (const char *p = name; *p != '\0';) {
    size_t n = strcspn(p, "/\\");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      return 1;
    p += n;
    if (*p != '\0')
      p++;
  }
  return 0;
}

/* Checks entry i: its name, encryption, and expansion; adds its size to
 * *total. */
static xmt_status check_entry(xmt_package *pkg, zip_uint64_t i, uint64_t *total,
                              struct xmt_error_store *err) {
  const struct xmt_package_limits *lim = &pkg->limits;
  zip_stat_t zs;
  if (zip_stat_index(pkg->za, i, 0, &zs) != 0 || zs.name == NULL)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "a damaged zip package: entry %llu unreadable",
                        (unsigned long long)i + 1);
  if (name_escapes(zs.name))
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry name '%s' leaves the package (an absolute "
                        "path or '..')",
                        zs.name);
  /* Readers differ on which of two same-named entries they take: what
   * is translated might not be what is shown. */
  if (zip_name_locate(pkg->za, zs.name, ZIP_FL_ENC_GUESS) != (zip_int64_t)i)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry '%s' is in the package twice (readers differ "
                        "on which one they take)",
                        zs.name);
  if ((zs.valid & ZIP_STAT_ENCRYPTION_METHOD) &&
      zs.encryption_method != ZIP_EM_NONE)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry '%s' is encrypted (password-protected "
                        "packages are not read)",
                        zs.name);
  if (zs.size > lim->entry_max)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry '%s' expands to %llu bytes, over the limit "
                        "of %llu bytes an entry",
                        zs.name, (unsigned long long)zs.size,
                        (unsigned long long)lim->entry_max);
  if (zs.size > lim->ratio_floor &&
      zs.size / (zs.comp_size ? zs.comp_size : 1) >= lim->ratio_max)
    return xmt_error_at(
        err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
        "entry '%s' expands %llu times (%llu to %llu "
        "bytes), over the limit of %llu times: a zip bomb?",
        zs.name,
        (unsigned long long)(zs.size / (zs.comp_size ? zs.comp_size : 1)),
        (unsigned long long)zs.comp_size, (unsigned long long)zs.size,
        (unsigned long long)lim->ratio_max);
  *total += zs.size;
  if (*total > lim->total_max)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "the entries expand to more than %llu bytes in all, "
                        "the limit: a zip bomb?",
                        (unsigned long long)lim->total_max);
  return XMT_OK;
}

/* A new package named path, its limits set; NULL when out of memory. */
static xmt_package *package_new(const char *path,
                                const struct xmt_package_limits *limits) {
  xmt_package *pkg = calloc(1, sizeof *pkg);
  if (pkg == NULL || (pkg->path = xmt_strdup(path)) == NULL) {
    free(pkg);
    return NULL;
  }
  if (limits != NULL)
    pkg->limits = *limits;
  else
    xmt_package_limits_default(&pkg->limits);
  return pkg;
}

/* A byte of a name as a part name compares: OPC part names are equal
 * in any ASCII case (ECMA-376 part 2, 8.1.1.1), and a backslash is '/'
 * to a Windows unpacker. */
static int folded(unsigned char c) {
  return c == '\\' ? '/' : c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Names compared folded: <0, 0 or >0. */
static int fold_cmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a;
  const unsigned char *y = (const unsigned char *)b;
  for (; *x != '\0' && folded(*x) == folded(*y); x++, y++)
    ;
  return folded(*x) - folded(*y);
}

static int folded_cmp(const void *key, const void *b) {
  return fold_cmp(key, ((const struct xmt_package_named *)b)->name);
}

/* The entry named name, in any ASCII case, or -1. */
static long find_folded(const xmt_package *pkg, const char *name) {
  long i = xmt_package_find(pkg, name);
  if (i >= 0 || pkg->folded == NULL)
    return i;
  const struct xmt_package_named *at =
      bsearch(name, pkg->folded, pkg->n, sizeof *pkg->folded, folded_cmp);
  return at != NULL ? (long)at->i : -1;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* name with its percent escapes decoded into out (reset first). 0 when
 * it is no part name: '%' without two hex digits, or an escaped '/',
 * '\\' or NUL, which a part name never holds (ECMA-376 part 2,
 * 9.1.1.1). */
static int decoded(const char *name, struct xmt_buf *out) {
  xmt_buf_reset(out);
  for (const char *s = name; *s != '\0'; s++) {
    char c = *s;
    if (c == '%') {
      int hi = hex_digit(s[1]);
      int lo = hi >= 0 ? hex_digit(s[2]) : -1;
      c = (char)(hi * 16 + lo);
      if (lo < 0 || c == '/' || c == '\\' || c == '\0')
        return 0;
      s += 2;
    }
    if (xmt_buf_append(out, &c, 1) != XMT_OK)
      return 0;
  }
  return xmt_buf_append(out, "", 1) == XMT_OK; /* its NUL */
}

long xmt_package_find_part(const xmt_package *pkg, const char *name) {
  if (strchr(name, '%') == NULL)
    return find_folded(pkg, name);
  /* a part name is an IRI (ECMA-376 part 2, 9.1.1): its escapes name
   * the entry decoded; a package whose entry names keep them is found
   * as written */
  struct xmt_buf plain = {0};
  long i = decoded(name, &plain) ? find_folded(pkg, plain.data) : -1;
  xmt_buf_free(&plain);
  return i >= 0 ? i : find_folded(pkg, name);
}

static int named_cmp(const void *a, const void *b) {
  const struct xmt_package_named *na = a, *nb = b;
  int d = fold_cmp(na->name, nb->name);
  if (d != 0)
    return d;
  return na->i < nb->i ? -1 : na->i > nb->i;
}

/* Two entries whose names differ only in case or in a backslash for '/'
 * are one part to a Word reader, one file unpacked on Windows or macOS:
 * which one is shown is the reader's choice, so what is translated might
 * not be what is shown (exact twins are check_entry's). Sorted, so
 * 65,535 entries cost no more than a sort. */
static xmt_status check_alike(xmt_package *pkg, zip_uint64_t n,
                              struct xmt_error_store *err) {
  if (n == 0)
    return XMT_OK;
  struct xmt_package_named *v = calloc((size_t)n, sizeof *v);
  if (v == NULL)
    return xmt_error_nomem(err);
  for (zip_uint64_t i = 0; i < n; i++) {
    v[i].name = zip_get_name(pkg->za, i, ZIP_FL_ENC_GUESS);
    v[i].i = i;
    if (v[i].name == NULL)
      v[i].name = "";
  }
  qsort(v, (size_t)n, sizeof *v, named_cmp);
  pkg->folded = v; /* freed with the package */
  xmt_status st = XMT_OK;
  for (size_t k = 1; st == XMT_OK && k < (size_t)n; k++) {
    if (fold_cmp(v[k - 1].name, v[k].name) == 0)
      st = xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entries '%s' and '%s' are one part (names differ "
                        "in case or '\\' only; readers differ on which one "
                        "they take)",
                        v[k - 1].name, v[k].name);
  }
  return st;
}

/* The entries of the opened package checked; pkg freed on failure. */
static xmt_status package_checked(xmt_package *pkg, xmt_package **out,
                                  struct xmt_error_store *err) {
  zip_int64_t n = zip_get_num_entries(pkg->za, 0);
  xmt_status st = XMT_OK;
  if (n < 0 || (uint64_t)n > pkg->limits.entries_max)
    st =
        xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                     "%lld entries, over the limit of %llu entries",
                     (long long)n, (unsigned long long)pkg->limits.entries_max);
  uint64_t total = 0;
  for (zip_int64_t i = 0; st == XMT_OK && i < n; i++)
    st = check_entry(pkg, (zip_uint64_t)i, &total, err);
  if (st == XMT_OK)
    st = check_alike(pkg, (zip_uint64_t)n, err);
  if (st != XMT_OK) {
    xmt_package_free(pkg);
    return st;
  }
  pkg->n = (size_t)n;
  if (n > 0 && (pkg->forms = calloc((size_t)n, 1)) == NULL) {
    xmt_package_free(pkg);
    return xmt_error_nomem(err);
  }
  *out = pkg;
  return XMT_OK;
}

xmt_status xmt_package_open(xmt_package **out, const char *path,
                            const struct xmt_package_limits *limits,
                            struct xmt_error_store *err) {
  *out = NULL;
  xmt_package *pkg = package_new(path, limits);
  if (pkg == NULL)
    return xmt_error_nomem(err);
  int zerr = 0;
  /* Not ZIP_CHECKCONS: the central directory is the authority, as for
   * Word and unzip; some writers leave sizes out of the local headers
   * (Okapi's 992.docx). A cut file has no directory; a cut entry fails
   * its read, or its copy at write. */
  pkg->za = zip_open(path, ZIP_RDONLY, &zerr);
  if (pkg->za == NULL) {
    xmt_package_free(pkg);
    return refuse_open(path, zerr, err);
  }
  return package_checked(pkg, out, err);
}

xmt_status xmt_package_open_mem(xmt_package **out, const char *name,
                                const char *bytes, size_t len,
                                const struct xmt_package_limits *limits,
                                struct xmt_error_store *err) {
  *out = NULL;
  xmt_package *pkg = package_new(name, limits);
  if (pkg == NULL || (pkg->mem = malloc(len ? len : 1)) == NULL) {
    xmt_package_free(pkg);
    return xmt_error_nomem(err);
  }
  memcpy(pkg->mem, bytes, len);
  zip_error_t ze;
  zip_error_init(&ze);
  zip_source_t *src = zip_source_buffer_create(pkg->mem, len, 0, &ze);
  if (src == NULL) {
    zip_error_fini(&ze);
    xmt_package_free(pkg);
    return xmt_error_nomem(err);
  }
  pkg->za = zip_open_from_source(src, ZIP_RDONLY, &ze);
  if (pkg->za == NULL) {
    int zerr = zip_error_code_zip(&ze);
    zip_source_free(src);
    zip_error_fini(&ze);
    xmt_package_free(pkg);
    return refuse_bytes(name, zerr, (const unsigned char *)bytes,
                        len < 8 ? len : 8, err);
  }
  zip_error_fini(&ze);
  return package_checked(pkg, out, err);
}

void xmt_package_free(xmt_package *pkg) {
  if (pkg == NULL)
    return;
  if (pkg->za != NULL)
    zip_discard(pkg->za);
  free(pkg->mem); /* after za, which reads it */
  free(pkg->forms);
  free(pkg->folded);
  free(pkg->path);
  xmt_buf_free(&pkg->kept);
  free(pkg);
}

size_t xmt_package_count(const xmt_package *pkg) { return pkg->n; }

const char *xmt_package_name(const xmt_package *pkg, size_t i) {
  return i < pkg->n ? zip_get_name(pkg->za, i, 0) : NULL;
}

uint64_t xmt_package_size(const xmt_package *pkg, size_t i) {
  zip_stat_t zs;
  if (i >= pkg->n || zip_stat_index(pkg->za, i, 0, &zs) != 0)
    return 0;
  return zs.size;
}

long xmt_package_find(const xmt_package *pkg, const char *name) {
  zip_int64_t i = zip_name_locate(pkg->za, name, ZIP_FL_ENC_GUESS);
  return i < 0 ? -1 : (long)i;
}

static xmt_status damaged(xmt_package *pkg, const char *name, const char *why,
                          struct xmt_error_store *err) {
  return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                      "entry '%s' is damaged: %s", name, why);
}

/* Reads zf to its end into out, refusing more than want bytes (the size
 * the directory declares): libzip checks the CRC at the end. */
static xmt_status read_all(xmt_package *pkg, zip_file_t *zf, const char *name,
                           uint64_t want, struct xmt_buf *out,
                           struct xmt_error_store *err) {
  /* The declared size at once (the caller bounds it), and a byte more to
   * see a longer entry: grown by doubling, a part was held in up to
   * twice its size, copied at each step. */
  if (out->cap < want + 2) {
    char *d = realloc(out->data, (size_t)want + 2);
    if (d == NULL)
      return xmt_error_nomem(err);
    out->data = d;
    out->cap = (size_t)want + 2;
  }
  for (;;) {
    /* out->len <= want here: room for one byte at least */
    size_t room = out->cap - out->len - 1;
    zip_int64_t got = zip_fread(zf, out->data + out->len, room);
    if (got < 0)
      return damaged(pkg, name, zip_error_strerror(zip_file_get_error(zf)),
                     err);
    if (got == 0)
      break;
    out->len += (size_t)got;
    if (out->len > want)
      return damaged(pkg, name, "longer than its declared size", err);
  }
  out->data[out->len] = '\0';
  if (out->len != want)
    return damaged(pkg, name, "shorter than its declared size", err);
  return XMT_OK;
}

xmt_status xmt_package_read(xmt_package *pkg, size_t i, size_t max,
                            struct xmt_buf *out, struct xmt_error_store *err) {
  xmt_buf_reset(out);
  if (i >= pkg->n)
    return xmt_error_set(err, XMT_ERR_USAGE, "no entry %zu in the package", i);
  const char *name = zip_get_name(pkg->za, i, 0);
  uint64_t size = xmt_package_size(pkg, i);
  uint64_t limit = max != 0 ? max : pkg->limits.entry_max;
  if (size > limit)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry '%s' is %llu bytes, over the limit of %llu "
                        "bytes",
                        name, (unsigned long long)size,
                        (unsigned long long)limit);
  xmt_status st = XMT_OK;
  if (pkg->keep == i + 1 && pkg->kept.data != NULL) { /* verify read it */
    xmt_buf_free(out);
    *out = pkg->kept;
    pkg->kept = (struct xmt_buf){0};
  } else {
    zip_file_t *zf = zip_fopen_index(pkg->za, i, 0);
    if (zf == NULL)
      return damaged(pkg, name, zip_error_strerror(zip_get_error(pkg->za)),
                     err);
    st = read_all(pkg, zf, name, size, out, err);
    zip_fclose(zf);
  }
  enum xmt_part_form form = XMT_PART_UTF8;
  if (st == XMT_OK)
    st = xmt_part_to_utf8(pkg, name, out, &form, err);
  if (st == XMT_OK)
    pkg->forms[i] = (unsigned char)form;
  if (st != XMT_OK)
    xmt_buf_reset(out);
  return st;
}

xmt_status xmt_package_verify(xmt_package *pkg, size_t i,
                              struct xmt_error_store *err) {
  if (i >= pkg->n)
    return xmt_error_set(err, XMT_ERR_USAGE, "no entry %zu in the package", i);
  const char *name = zip_get_name(pkg->za, i, 0);
  uint64_t want = xmt_package_size(pkg, i);
  zip_file_t *zf = zip_fopen_index(pkg->za, i, 0);
  if (zf == NULL)
    return damaged(pkg, name, zip_error_strerror(zip_get_error(pkg->za)), err);
  if (pkg->keep == i + 1) {
    xmt_buf_reset(&pkg->kept);
    xmt_status st = read_all(pkg, zf, name, want, &pkg->kept, err);
    zip_fclose(zf);
    if (st != XMT_OK)
      xmt_buf_free(&pkg->kept);
    return st;
  }
  char chunk[16384];
  uint64_t seen = 0;
  xmt_status st = XMT_OK;
  for (;;) {
    zip_int64_t got = zip_fread(zf, chunk, sizeof chunk);
    if (got < 0) {
      st = damaged(pkg, name, zip_error_strerror(zip_file_get_error(zf)), err);
      break;
    }
    if (got == 0)
      break;
    seen += (uint64_t)got;
    if (seen > want) {
      st = damaged(pkg, name, "longer than its declared size", err);
      break;
    }
  }
  if (st == XMT_OK && seen != want)
    st = damaged(pkg, name, "shorter than its declared size", err);
  zip_fclose(zf);
  return st;
}

void xmt_package_keep(xmt_package *pkg, size_t i) {
  xmt_buf_free(&pkg->kept);
  pkg->keep = i + 1;
}
