/* fuzz_xliff_reader_writer.c -- the XLIFF reader and writer: any bytes the
 * reader accepts come back byte for byte through the writer, whatever the
 * chunk sizes, and with identity targets added they stay well-formed. */
#include "config.h"

#include "fuzz.h"
#include "xmt_xliff.h"

struct rt {
  xmt_xliff_reader *reader;
  xmt_xliff_writer *writer;
  struct fuzz_out out;
  const char *target_language; /* NULL: no targets, a pure copy */
  int started, write_failed;
  enum xmt_encoding enc;
};

/* The encoding to check the output in: a UTF-16 byte order mark decides
 * over the declaration, for the reader as for expat told so. */
static const char *check_encoding(const struct rt *rt) {
  return rt->enc == XMT_ENC_UTF16LE   ? "UTF-16LE"
         : rt->enc == XMT_ENC_UTF16BE ? "UTF-16BE"
                                      : NULL;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct rt *rt = user;
  if (!rt->started) {
    xmt_xliff_writer_set_encoding(rt->writer,
                                  xmt_xliff_reader_encoding(rt->reader));
    rt->started = 1;
  }
  if (xmt_xliff_writer_skeleton(rt->writer, bytes, len) != XMT_OK)
    rt->write_failed = 1;
  return 0;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct rt *rt = user;
  (void)info;
  if (!rt->started) {
    xmt_xliff_writer_set_encoding(rt->writer,
                                  xmt_xliff_reader_encoding(rt->reader));
    rt->started = 1;
  }
  if (xmt_xliff_writer_file_tag(rt->writer, tag, len, rt->target_language) !=
      XMT_OK)
    rt->write_failed = 1;
  return 0;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct rt *rt = user;
  struct xmt_xliff_target_options opt;
  memset(&opt, 0, sizeof opt);
  opt.target_language = "fr";
  if (rt->target_language != NULL) {
    opt.target_language = rt->target_language;
    opt.state = "needs-review-translation";
    for (size_t i = 0; i < xmt_xliff_unit_segment_count(unit); i++)
      (void)xmt_xliff_unit_set_target(unit, i, xmt_xliff_unit_source(unit, i));
  }
  if (xmt_xliff_writer_unit(rt->writer, unit, &opt) != XMT_OK)
    rt->write_failed = 1;
  xmt_xliff_unit_free(unit);
  return 0;
}

/* Reads data in chunks of chunk bytes (0: at once) into rt->out. */
static xmt_status round_trip(struct rt *rt, const uint8_t *data, size_t size,
                             size_t chunk) {
  static const struct xmt_xliff_reader_callbacks cb = {on_skeleton, on_file,
                                                       on_unit};
  rt->reader = xmt_xliff_reader_new(&cb, rt);
  rt->writer = xmt_xliff_writer_new(fuzz_sink, &rt->out);
  if (rt->reader == NULL || rt->writer == NULL)
    FUZZ_FAIL();
  xmt_status st = XMT_OK;
  if (chunk == 0) {
    st = xmt_xliff_reader_parse(rt->reader, (const char *)data, size, 1);
  } else {
    size_t at = 0;
    do {
      size_t n = size - at < chunk ? size - at : chunk;
      st = xmt_xliff_reader_parse(rt->reader, (const char *)data + at, n,
                                  at + n == size);
      at += n;
    } while (st == XMT_OK && at < size);
  }
  if (st == XMT_OK && xmt_xliff_writer_flush(rt->writer) != XMT_OK)
    rt->write_failed = 1;
  rt->enc = xmt_xliff_reader_encoding(rt->reader);
  xmt_xliff_reader_free(rt->reader);
  xmt_xliff_writer_free(rt->writer);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct rt copy = {0};
  xmt_status st = round_trip(&copy, data, size, 0);
  if (st == XMT_OK) {
    /* identity: nothing changed, nothing lost */
    if (copy.write_failed || copy.out.len != size ||
        (size > 0 && memcmp(copy.out.data, data, size) != 0))
      FUZZ_FAIL();
    if (!fuzz_well_formed_as(copy.out.data, copy.out.len,
                             check_encoding(&copy)))
      FUZZ_FAIL();
  }
  /* the same bytes in small chunks: the same verdict */
  struct rt tr = {0};
  tr.target_language = "fr";
  xmt_status st2 = round_trip(&tr, data, size, 1 + size % 7);
  if ((st == XMT_OK) != (st2 == XMT_OK))
    FUZZ_FAIL();
  if (st2 == XMT_OK && !tr.write_failed &&
      !fuzz_well_formed_as(tr.out.data, tr.out.len, check_encoding(&tr)))
    FUZZ_FAIL();
  free(copy.out.data);
  free(tr.out.data);
  return 0;
}
