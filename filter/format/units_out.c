/* units_out.c -- the one writer of units as XLIFF 1.2 text, for what
 * needs them as text (the report's stylesheets, extract to XLIFF): the
 * prolog, a <file> with its languages and datatype, a trans-unit of each
 * unit value, and the end; handed to the sink in blocks so that a large
 * document never sits twice in memory. The pipeline never reads this
 * text: formats hand it the unit values. */
#include "config.h"

#include <string.h>

#include "filter_private.h"

/* Output is handed to the sink in blocks of about this size. */
#define BLOCK 65536

void xmt_units_out_init(struct xmt_units_out *o, xmt_write_fn sink,
                        void *user) {
  memset(o, 0, sizeof *o);
  o->sink = sink;
  o->user = user;
  o->line = 1;
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

static int one_line(const char *datatype) {
  return strcmp(datatype, XMT_DATATYPE_XLIFF2) == 0 ||
         strcmp(datatype, XMT_DATATYPE_SEGMENTS) == 0;
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
  o->one_line = one_line(datatype);
  return o->st;
}

/* Counts the lines of what buf holds since the last count. */
static void count_lines(struct xmt_units_out *o) {
  for (size_t i = o->counted - o->flushed; i < o->buf.len; i++)
    o->line += o->buf.data[i] == '\n';
  o->counted = o->flushed + o->buf.len;
}

static xmt_status unit_done(struct xmt_units_out *o, xmt_status st) {
  if (o->st == XMT_OK)
    o->st = st;
  if (o->st == XMT_OK && o->buf.len >= BLOCK) {
    count_lines(o);
    o->st = flush(o);
  }
  return o->st;
}

static xmt_status file_end(struct xmt_units_out *o) {
  put(o, "</body>\n</file>\n");
  return o->st;
}

/* The XLIFF escape of an attribute, appended when value is not NULL. */
static void put_opt(struct xmt_units_out *o, const char *name,
                    const char *value) {
  if (value == NULL)
    return;
  put(o, name);
  put(o, "=\"");
  if (o->st == XMT_OK)
    o->st = xmt_xml_escape_attr(&o->buf, value);
  put(o, "\"");
}

/* The line breaks of the text and codes of seg as written (escape keeps
 * \n, writes \r as a reference; an attribute's are references). */
static unsigned long breaks(const xmt_segment *seg) {
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  unsigned long n = 0;
  for (const char *p = text; (p = memchr(p, '\n', len - (size_t)(p - text)));
       p++)
    n++;
  for (size_t i = 0, k = xmt_segment_tag_count(seg); i < k; i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) != XMT_OK)
      continue;
    for (size_t j = 0; j < t.markup_len; j++)
      n += t.markup[j] == '\n';
  }
  return n;
}

unsigned long xmt_units_out_lines(const char *datatype,
                                  const xmt_segment *source,
                                  const xmt_segment *target) {
  unsigned long n = breaks(source) + (target != NULL ? breaks(target) : 0);
  return n + (one_line(datatype) ? 1 : 3);
}

xmt_status xmt_units_out_unit(struct xmt_units_out *o,
                              const xmt_xliff_unit *u) {
  count_lines(o);
  for (; o->st == XMT_OK && o->line < u->line; o->line++, o->counted++)
    o->st = xmt_buf_append_byte(&o->buf, '\n');
  put(o, "<trans-unit");
  put_opt(o, " id", xmt_xliff_unit_id(u));
  put_opt(o, " resname", xmt_xliff_unit_resname(u));
  put_opt(o, " restype", u->restype);
  if (!xmt_xliff_unit_translatable(u))
    put(o, " translate=\"no\"");
  if (xmt_xliff_unit_preserve_space(u))
    put(o, " xml:space=\"preserve\"");
  put(o, o->one_line ? "><source>" : ">\n<source>");
  if (o->st == XMT_OK)
    o->st = xmt_inline_render_into(&o->buf, u->whole_source);
  put(o, o->one_line ? "</source>" : "</source>\n");
  if (u->existing != NULL) {
    put(o, "<target>");
    if (o->st == XMT_OK)
      o->st = xmt_inline_render_into(&o->buf, u->existing);
    put(o, "</target>");
  }
  put(o, "</trans-unit>\n");
  return unit_done(o, XMT_OK);
}

static xmt_status sink_file(void *user,
                            const struct xmt_xliff_file_info *info) {
  struct xmt_units_out *o = user;
  if (o->in_file)
    file_end(o);
  o->in_file = 1;
  return xmt_units_out_file(
      o, info->original != NULL ? info->original : "",
      info->source_language != NULL ? info->source_language : "",
      info->target_language, info->datatype != NULL ? info->datatype : "");
}

static xmt_status sink_unit(void *user, xmt_xliff_unit *unit) {
  xmt_status st = xmt_units_out_unit(user, unit);
  xmt_xliff_unit_free(unit);
  return st;
}

struct xmt_unit_sink xmt_units_out_sink_of(struct xmt_units_out *o) {
  return (struct xmt_unit_sink){sink_file, sink_unit, o, NULL};
}

xmt_status xmt_units_out_end(struct xmt_units_out *o) {
  if (o->in_file)
    file_end(o);
  o->in_file = 0;
  put(o, "</xliff>\n");
  if (o->st == XMT_OK)
    o->st = flush(o);
  xmt_buf_free(&o->buf);
  return o->st;
}
