/* units_out.c -- the XLIFF 1.2 a format hands to the unit reader: the
 * prolog, a <file> with its languages and datatype, the trans-units the
 * format writes, and the end; handed to the sink in blocks so that a large
 * document never sits twice in memory. */
#include "config.h"

#include "filter_private.h"

/* Output is handed to the sink in blocks of about this size. */
#define BLOCK 65536

void xmt_units_out_init(struct xmt_units_out *o, xmt_write_fn sink,
                        void *user) {
  memset(o, 0, sizeof *o);
  o->sink = sink;
  o->user = user;
  o->st = xmt_buf_append_str(
      &o->buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<xliff version=\"1.2\" "
               "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n");
}

static xmt_status flush(struct xmt_units_out *o) {
  if (o->sink(o->user, o->buf.data, o->buf.len) != 0)
    return XMT_ERR_WRITE;
  o->flushed += o->buf.len;
  xmt_buf_reset(&o->buf);
  return XMT_OK;
}

/* Appends s unless an earlier step failed. */
static void put(struct xmt_units_out *o, const char *s) {
  if (o->st == XMT_OK)
    o->st = xmt_buf_append_str(&o->buf, s);
}

/* Appends name="value", value escaped. A name that came from outside (a
 * path) need not be UTF-8: what is not becomes U+FFFD. */
static void put_attr(struct xmt_units_out *o, const char *name,
                     const char *value) {
  struct xmt_buf utf8 = {0};
  size_t len = strlen(value), at = 0;
  put(o, name);
  put(o, "=\"");
  while (o->st == XMT_OK && at < len) {
    size_t ok = xmt_utf8_valid_prefix(value + at, len - at);
    o->st = xmt_buf_append(&utf8, value + at, ok);
    at += ok;
    if (o->st == XMT_OK && at < len) {
      o->st = xmt_buf_append_str(&utf8, "\xEF\xBF\xBD");
      at++;
    }
  }
  if (o->st == XMT_OK)
    o->st = xmt_xml_escape_attr(&o->buf, utf8.data != NULL ? utf8.data : "");
  put(o, "\"");
  xmt_buf_free(&utf8);
}

xmt_status xmt_units_out_file(struct xmt_units_out *o, const char *original,
                              const char *source_language,
                              const char *target_language,
                              const char *datatype) {
  put(o, "<file");
  put_attr(o, " original", original);
  put_attr(o, " source-language", source_language);
  if (target_language != NULL)
    put_attr(o, " target-language", target_language);
  put_attr(o, " datatype", datatype);
  put(o, ">\n<body>\n");
  return o->st;
}

xmt_status xmt_units_out_unit_done(struct xmt_units_out *o, xmt_status st) {
  if (o->st == XMT_OK)
    o->st = st;
  if (o->st == XMT_OK && o->buf.len >= BLOCK)
    o->st = flush(o);
  return o->st;
}

xmt_status xmt_units_out_file_end(struct xmt_units_out *o) {
  put(o, "</body>\n</file>\n");
  return o->st;
}

xmt_status xmt_units_out_end(struct xmt_units_out *o) {
  put(o, "</xliff>\n");
  if (o->st == XMT_OK)
    o->st = flush(o);
  xmt_buf_free(&o->buf);
  return o->st;
}
