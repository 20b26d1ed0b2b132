/* output.c -- the filter's output files (base/'s atomic output file, its
 * errors in the filter's record), and input files that say which file
 * failed. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "filter_private.h"

/* path opened for reading (base/'s input file: a named pipe no program
 * writes into is given up instead of waited for without end). */
static FILE *open_read(const char *path, struct xmt_error_store *err) {
  FILE *fp = xmt_input_file_open(path);
  char why[200];
  if (fp == NULL && errno == ENOMEM)
    xmt_error_nomem(err); /* the file is not at fault */
  else if (fp == NULL)
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "%s",
                 xmt_input_file_why(errno, why, sizeof why));
  return fp;
}

FILE *xmt_input_open(const char *path, struct xmt_error_store *err) {
  if (strcmp(path, "-") == 0)
    return stdin;
  return open_read(path, err);
}

const char *xmt_stdin_take(xmt_filter *f, const char *path, size_t *len) {
  struct xmt_stdin_head *h = &f->stdin_head;
  *len = 0;
  if (strcmp(path, "-") != 0 || !h->held)
    return NULL;
  h->held = 0;
  *len = h->bytes.len;
  return h->bytes.data;
}

xmt_status xmt_input_read_whole(xmt_filter *f, const char *path,
                                struct xmt_buf *buf,
                                struct xmt_error_store *err) {
  FILE *fp = xmt_input_open(path, err);
  if (fp == NULL)
    return err->pub.status;
  size_t head_len;
  const char *head = xmt_stdin_take(f, path, &head_len);
  xmt_status st = head_len > 0 ? xmt_buf_append(buf, head, head_len) : XMT_OK;
  if (st != XMT_OK)
    return st;
  return xmt_buf_append_stream(buf, fp, path, err);
}

xmt_status xmt_stdin_hold_whole(xmt_filter *f) {
  struct xmt_stdin_head *h = &f->stdin_head;
  if (!h->held)
    return XMT_OK;
  return xmt_buf_append_stream(&h->bytes, stdin, "-", &f->err);
}

xmt_status xmt_output_open(struct xmt_output *out, const char *path,
                           struct xmt_error_store *err) {
  memset(out, 0, sizeof *out);
  xmt_status st = xmt_atomic_file_open(&out->file, path, 0);
  if (st != XMT_OK) {
    xmt_error_copy(err, xmt_atomic_file_error(&out->file));
    xmt_atomic_file_abort(&out->file);
    return st;
  }
  out->fp = xmt_atomic_file_stream(&out->file);
  return XMT_OK;
}

void xmt_output_open_memory(struct xmt_output *out, struct xmt_buf *mem) {
  memset(out, 0, sizeof *out);
  out->mem = mem;
  xmt_buf_reset(mem);
}

int xmt_output_write(void *user, const char *bytes, size_t len) {
  struct xmt_output *out = user;
  if (out->mem != NULL) {
    if (xmt_buf_append(out->mem, bytes, len) == XMT_OK)
      return 0;
    if (out->write_errno == 0)
      out->write_errno = ENOMEM;
    return 1;
  }
  if (fwrite(bytes, 1, len, out->fp) == len)
    return 0;
  if (out->write_errno == 0)
    out->write_errno = errno != 0 ? errno : EIO;
  return 1;
}

xmt_status xmt_output_reason(const struct xmt_output *out, xmt_status st,
                             const char *path, struct xmt_error_store *err) {
  if (out->write_errno == 0)
    return st;
  if (out->mem != NULL)
    return xmt_error_nomem(err);
  return xmt_error_at(
      err, XMT_ERR_WRITE,
      XMT_IN(path != NULL && strcmp(path, "-") != 0 ? path : "standard output"),
      "cannot write: %s", strerror(out->write_errno));
}

xmt_status xmt_output_commit(struct xmt_output *out,
                             struct xmt_error_store *err) {
  if (out->mem != NULL) {
    out->mem = NULL; /* the caller's now */
    return XMT_OK;
  }
  xmt_status st = xmt_atomic_file_commit(&out->file);
  if (st != XMT_OK)
    xmt_error_copy(err, xmt_atomic_file_error(&out->file));
  xmt_output_abort(out);
  return st;
}

void xmt_output_abort(struct xmt_output *out) {
  if (out->mem != NULL) {
    xmt_buf_reset(out->mem);
    out->mem = NULL;
    return;
  }
  xmt_atomic_file_abort(&out->file);
  out->fp = NULL;
}

int xmt_skip_skeleton(void *user, const char *bytes, size_t len) {
  (void)user, (void)bytes, (void)len;
  return 0;
}

xmt_status xmt_read_xliff_path(xmt_filter *f, const char *path,
                               const struct xmt_xliff_reader_callbacks *cb,
                               void *user, const int *failed) {
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  xmt_xliff_reader *r = xmt_xliff_reader_new(cb, user);
  xmt_status st = XMT_ERR_NOMEM;
  if (r == NULL || xmt_xliff_reader_set_filename(r, path) != XMT_OK) {
    xmt_error_nomem(&f->err);
  } else {
    struct xmt_error_store read_err = {0};
    size_t bytes = 0, head_len;
    const char *head = xmt_stdin_take(f, path, &head_len);
    st = xmt_read_all(r, head, head_len, fp, path, &read_err, &bytes);
    if (*failed)
      st = f->err.pub.status;
    else if (read_err.pub.status != XMT_OK)
      st = xmt_error_copy(&f->err, &read_err.pub);
    else if (st != XMT_OK)
      st = xmt_error_copy(&f->err, xmt_xliff_reader_error(r));
    xmt_error_clear(&read_err);
  }
  xmt_xliff_reader_free(r);
  if (fp != stdin)
    fclose(fp);
  return st;
}

xmt_status xmt_read_all(xmt_xliff_reader *reader, const char *head,
                        size_t head_len, FILE *fp, const char *path,
                        struct xmt_error_store *err, size_t *bytes_in) {
  static const size_t chunk = 256u * 1024u;
  xmt_status st = XMT_OK;
  for (;;) {
    /* Read where the reader keeps its input: no copy on the way. The
     * head makes the start of the first chunk, which is then cut where a
     * file's would be. */
    char *buf = xmt_xliff_reader_buffer(reader, chunk);
    if (buf == NULL)
      return xmt_error_nomem(err);
    if (head_len > 0)
      memcpy(buf, head, head_len);
    size_t n = head_len + fread(buf + head_len, 1, chunk - head_len, fp);
    head_len = 0;
    if (n < chunk && ferror(fp)) {
      st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                        strerror(errno));
      break;
    }
    *bytes_in += n;
    int final = n < chunk && feof(fp);
    st = xmt_xliff_reader_parse_buffer(reader, n, final);
    if (st != XMT_OK || final)
      break;
  }
  return st;
}
