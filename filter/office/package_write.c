/* package_write.c -- a package written to a new file: the entries not
 * replaced are copied with their compressed bytes (libzip's
 * ZIP_FL_COMPRESSED source, the method kept so that libzip does not
 * recompress), the replaced ones deflated from memory. libzip writes
 * through a source of ours onto base's atomic file, so that the output
 * appears whole or not at all, as every other output of the library. */
#include "office_private.h"
#include "package_private.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The output as a libzip source that can only be written. */
struct out {
  struct xmt_atomic_file af; /* zeroed: never opened */
  const char *path;
  zip_error_t ze;
  struct xmt_error_store *err;
  int failed;  /* err holds the reason: the atomic file's own */
  FILE *spool; /* not NULL: the package is written here instead */
};

/* Where libzip writes: the spool, else the atomic file. */
static FILE *out_stream(struct out *o) {
  return o->spool != NULL ? o->spool : xmt_atomic_file_stream(&o->af);
}

/* The spool's own answers to a write's start and end (libzip seeks back
 * into what it wrote, so the spool is a file, not a pipe); -2: out_cb's. */
static zip_int64_t spool_cb(struct out *o, zip_source_cmd_t cmd) {
  switch (cmd) {
  case ZIP_SOURCE_BEGIN_WRITE:
  case ZIP_SOURCE_ROLLBACK_WRITE:
    if (fseeko(o->spool, 0, SEEK_SET) != 0 ||
        ftruncate(fileno(o->spool), 0) != 0) {
      zip_error_set(&o->ze, ZIP_ER_WRITE, errno);
      return -1;
    }
    return 0;
  case ZIP_SOURCE_COMMIT_WRITE:
    if (fflush(o->spool) != 0) {
      zip_error_set(&o->ze, ZIP_ER_WRITE, errno);
      return -1;
    }
    return 0;
  default:
    return -2;
  }
}

static zip_int64_t out_fail(struct out *o, int zip_code) {
  if (!o->failed) {
    xmt_error_copy(o->err, xmt_atomic_file_error(&o->af));
    o->failed = 1;
  }
  zip_error_set(&o->ze, zip_code, xmt_atomic_file_errno(&o->af));
  return -1;
}

static zip_int64_t out_write(struct out *o, const void *data,
                             zip_uint64_t len) {
  FILE *fp = out_stream(o);
  if (fp == NULL || fwrite(data, 1, len, fp) != len) {
    int e = errno;
    if (!o->failed) {
      xmt_error_at(o->err, XMT_ERR_WRITE, XMT_IN(o->path), "cannot write%s: %s",
                   o->spool != NULL ? " its temporary copy" : "", strerror(e));
      o->failed = 1;
    }
    zip_error_set(&o->ze, ZIP_ER_WRITE, e);
    return -1;
  }
  return (zip_int64_t)len;
}

static zip_int64_t out_seek(struct out *o, void *data, zip_uint64_t len) {
  zip_source_args_seek_t *a =
      ZIP_SOURCE_GET_ARGS(zip_source_args_seek_t, data, len, &o->ze);
  FILE *fp = out_stream(o);
  if (a == NULL)
    return -1;
  if (fp == NULL || fseeko(fp, (off_t)a->offset, a->whence) != 0) {
    zip_error_set(&o->ze, ZIP_ER_SEEK, errno);
    return -1;
  }
  return 0;
}

static zip_int64_t out_cb(void *user, void *data, zip_uint64_t len,
                          zip_source_cmd_t cmd) {
  struct out *o = user;
  if (o->spool != NULL) {
    zip_int64_t r = spool_cb(o, cmd);
    if (r != -2)
      return r;
  }
  switch (cmd) {
  case ZIP_SOURCE_SUPPORTS:
    return ZIP_SOURCE_SUPPORTS_WRITABLE;
  case ZIP_SOURCE_STAT:
    /* "No such file": libzip starts a new, empty archive. */
    zip_error_set(&o->ze, ZIP_ER_READ, ENOENT);
    return -1;
  case ZIP_SOURCE_ERROR:
    return zip_error_to_data(&o->ze, data, len);
  case ZIP_SOURCE_BEGIN_WRITE:
    if (xmt_atomic_file_open(&o->af, o->path, 0) != XMT_OK)
      return out_fail(o, ZIP_ER_OPEN);
    return 0;
  case ZIP_SOURCE_WRITE:
    return out_write(o, data, len);
  case ZIP_SOURCE_SEEK_WRITE:
    return out_seek(o, data, len);
  case ZIP_SOURCE_TELL_WRITE: {
    FILE *fp = out_stream(o);
    off_t at = fp != NULL ? ftello(fp) : -1;
    if (at < 0)
      zip_error_set(&o->ze, ZIP_ER_TELL, errno);
    return at;
  }
  case ZIP_SOURCE_COMMIT_WRITE:
    if (xmt_atomic_file_commit(&o->af) != XMT_OK)
      return out_fail(o, ZIP_ER_WRITE);
    return 0;
  case ZIP_SOURCE_ROLLBACK_WRITE:
    xmt_atomic_file_abort(&o->af);
    return 0;
  case ZIP_SOURCE_REMOVE: /* an empty archive: there is nothing to remove */
  case ZIP_SOURCE_FREE:
  case ZIP_SOURCE_CLOSE:
    return 0;
  default:
    zip_error_set(&o->ze, ZIP_ER_OPNOTSUPP, 0);
    return -1;
  }
}

/* The time, attributes, comment and extra fields of entry i of src on
 * entry j of dst (extra fields not on a mimetype, which has none). */
static int copy_meta(zip_t *dst, zip_uint64_t j, zip_t *src, zip_uint64_t i,
                     int extras) {
  zip_stat_t zs;
  zip_uint8_t opsys;
  zip_uint32_t attrs;
  zip_uint32_t clen;
  if (zip_stat_index(src, i, 0, &zs) != 0 ||
      zip_file_set_mtime(dst, j, zs.mtime, 0) != 0 ||
      zip_file_get_external_attributes(src, i, 0, &opsys, &attrs) != 0 ||
      zip_file_set_external_attributes(dst, j, 0, opsys, attrs) != 0)
    return -1;
  const char *comment = zip_file_get_comment(src, i, &clen, ZIP_FL_ENC_RAW);
  if (comment != NULL && clen > 0 &&
      zip_file_set_comment(dst, j, comment, (zip_uint16_t)clen, 0) != 0)
    return -1;
  static const zip_flags_t where[] = {ZIP_FL_LOCAL, ZIP_FL_CENTRAL};
  for (size_t w = 0; extras && w < 2; w++) {
    zip_int16_t n = zip_file_extra_fields_count(src, i, where[w]);
    for (zip_int16_t k = 0; k < n; k++) {
      zip_uint16_t id;
      zip_uint16_t elen;
      const zip_uint8_t *ef = zip_file_extra_field_get(src, i, (zip_uint16_t)k,
                                                       &id, &elen, where[w]);
      if (ef == NULL ||
          zip_file_extra_field_set(dst, j, id, ZIP_EXTRA_FIELD_NEW, ef, elen,
                                   where[w]) != 0)
        return -1;
    }
  }
  return 0;
}

static const struct xmt_package_part *
part_named(const struct xmt_package_part *parts, size_t nparts,
           const char *name) {
  for (size_t p = 0; p < nparts; p++)
    if (strcmp(parts[p].name, name) == 0)
      return &parts[p];
  return NULL;
}

/* Adds entry i of the package to dst: from its part when replaced, else
 * its compressed bytes. A `mimetype` is stored, whatever it was. */
static int add_entry(zip_t *dst, xmt_package *pkg, zip_uint64_t i,
                     const struct xmt_package_part *part) {
  const char *name = zip_get_name(pkg->za, i, 0);
  int mimetype = strcmp(name, "mimetype") == 0;
  zip_stat_t zs;
  if (zip_stat_index(pkg->za, i, 0, &zs) != 0)
    return -1;
  zip_int32_t method = mimetype ? ZIP_CM_STORE : (zip_int32_t)zs.comp_method;
  zip_source_t *s;
  if (part != NULL && pkg->forms[i] != XMT_PART_UTF8) {
    /* Back to its own UTF-16; libzip frees the bytes with the source. */
    struct xmt_buf utf16 = {.data = NULL};
    if (xmt_part_from_utf8(part->data, part->len,
                           (enum xmt_part_form)pkg->forms[i],
                           &utf16) != XMT_OK) {
      xmt_buf_free(&utf16);
      zip_error_set(zip_get_error(dst), ZIP_ER_MEMORY, 0);
      return -1;
    }
    s = zip_source_buffer(dst, utf16.data, utf16.len, 1);
    if (s == NULL)
      xmt_buf_free(&utf16);
    method = ZIP_CM_DEFLATE;
  } else if (part != NULL) {
    s = zip_source_buffer(dst, part->data, part->len, 0);
    if (!mimetype)
      method = ZIP_CM_DEFLATE;
  } else {
    /* Raw bytes unless a mimetype must be stored from compressed ones. */
    int raw = !mimetype || zs.comp_method == ZIP_CM_STORE;
    s = zip_source_zip(dst, pkg->za, i, raw ? ZIP_FL_COMPRESSED : 0, 0, -1);
  }
  if (s == NULL)
    return -1;
  zip_int64_t j = zip_file_add(dst, name, s, ZIP_FL_ENC_UTF_8);
  if (j < 0) {
    zip_source_free(s);
    return -1;
  }
  if (zip_set_file_compression(dst, (zip_uint64_t)j, method, 0) != 0)
    return -1;
  return copy_meta(dst, (zip_uint64_t)j, pkg->za, i, !mimetype);
}

/* Every entry into dst, `mimetype` first. */
static int add_entries(zip_t *dst, xmt_package *pkg,
                       const struct xmt_package_part *parts, size_t nparts) {
  long m = xmt_package_find(pkg, "mimetype");
  if (m >= 0 && add_entry(dst, pkg, (zip_uint64_t)m,
                          part_named(parts, nparts, "mimetype")) != 0)
    return -1;
  for (size_t i = 0; i < pkg->n; i++) {
    if ((long)i == m)
      continue;
    const char *name = zip_get_name(pkg->za, i, 0);
    if (add_entry(dst, pkg, i, part_named(parts, nparts, name)) != 0)
      return -1;
  }
  int clen = 0;
  const char *comment = zip_get_archive_comment(pkg->za, &clen, ZIP_FL_ENC_RAW);
  if (comment != NULL && clen > 0 &&
      zip_set_archive_comment(dst, comment, (zip_uint16_t)clen) != 0)
    return -1;
  return 0;
}

static xmt_status write_failed(struct out *o, zip_t *dst) {
  if (o->failed)
    return o->err->pub.status;
  return xmt_error_at(o->err, XMT_ERR_WRITE, XMT_IN(o->path),
                      "cannot write the package: %s",
                      zip_error_strerror(zip_get_error(dst)));
}

static xmt_status write_to(xmt_package *pkg, const char *path, FILE *spool,
                           const struct xmt_package_part *parts, size_t nparts,
                           struct xmt_error_store *err) {
  for (size_t p = 0; p < nparts; p++)
    if (xmt_package_find(pkg, parts[p].name) < 0)
      return xmt_error_at(err, XMT_ERR_USAGE, XMT_IN(pkg->path),
                          "no entry '%s' in the package to replace",
                          parts[p].name);
  if (pkg->n == 0)
    return xmt_error_at(err, XMT_ERR_USAGE, XMT_IN(pkg->path),
                        "an empty package is not written");
  struct out o = {.path = path, .err = err, .spool = spool};
  zip_error_init(&o.ze);
  zip_error_t ze;
  zip_error_init(&ze);
  xmt_status st = XMT_OK;
  zip_source_t *src = zip_source_function_create(out_cb, &o, &ze);
  zip_t *dst = src != NULL
                   ? zip_open_from_source(src, ZIP_CREATE | ZIP_TRUNCATE, &ze)
                   : NULL;
  if (dst == NULL) {
    zip_source_free(src);
    st = zip_error_code_zip(&ze) == ZIP_ER_MEMORY
             ? xmt_error_nomem(err)
             : xmt_error_at(err, XMT_ERR_INTERNAL, XMT_IN(path),
                            "cannot start the package: %s",
                            zip_error_strerror(&ze));
  } else if (add_entries(dst, pkg, parts, nparts) != 0 || zip_close(dst) != 0) {
    st = write_failed(&o, dst);
    zip_discard(dst);
  }
  /* After a commit this frees the handle's memory; after a failure it
   * removes what was written. */
  xmt_atomic_file_abort(&o.af);
  zip_error_fini(&ze);
  zip_error_fini(&o.ze);
  return st;
}

xmt_status xmt_package_write(xmt_package *pkg, const char *path,
                             const struct xmt_package_part *parts,
                             size_t nparts, struct xmt_error_store *err) {
  return write_to(pkg, path, NULL, parts, nparts, err);
}

xmt_status xmt_package_write_out(xmt_package *pkg,
                                 const struct xmt_package_part *parts,
                                 size_t nparts, xmt_package_sink_fn sink,
                                 void *user, struct xmt_error_store *err) {
  FILE *spool = tmpfile();
  if (spool == NULL)
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(pkg->path),
                        "cannot make a temporary file for the package: %s",
                        strerror(errno));
  xmt_status st = write_to(pkg, pkg->path, spool, parts, nparts, err);
  if (st == XMT_OK && fseeko(spool, 0, SEEK_SET) != 0)
    st = XMT_ERR_IO;
  char chunk[65536];
  size_t got;
  while (st == XMT_OK && (got = fread(chunk, 1, sizeof chunk, spool)) > 0)
    if (sink(user, chunk, got) != 0)
      st = XMT_ERR_WRITE;
  if (st == XMT_ERR_IO || (st == XMT_OK && ferror(spool)))
    st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(pkg->path),
                      "cannot read the package's temporary copy back: %s",
                      strerror(errno));
  fclose(spool);
  return st;
}
