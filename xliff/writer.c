/* writer.c -- writes skeleton and units back, in the input's encoding, with
 * targets placed the way Okapi Tikal places them. */
#include "config.h"

#include <stdlib.h>

#include "xliff_private.h"

/* Output is handed to the sink in blocks of about this size. */
#define BLOCK_SIZE (64u * 1024u)

struct xmt_xliff_writer {
  xmt_write_fn sink;
  void *user;
  enum xmt_encoding enc;
  struct xmt_buf out;
  struct xmt_buf utf8; /* a unit or target being assembled */
  xmt_status status;
};

xmt_xliff_writer *xmt_xliff_writer_new(xmt_write_fn sink, void *user) {
  if (sink == NULL)
    return NULL;
  xmt_xliff_writer *w = calloc(1, sizeof *w);
  if (w == NULL)
    return NULL;
  w->sink = sink;
  w->user = user;
  w->enc = XMT_ENC_UTF8;
  return w;
}

void xmt_xliff_writer_free(xmt_xliff_writer *w) {
  if (w == NULL)
    return;
  xmt_buf_free(&w->out);
  xmt_buf_free(&w->utf8);
  free(w);
}

void xmt_xliff_writer_set_encoding(xmt_xliff_writer *w, enum xmt_encoding enc) {
  w->enc = enc;
}

xmt_status xmt_xliff_writer_flush(xmt_xliff_writer *w) {
  if (w->status == XMT_OK && w->out.len > 0 &&
      w->sink(w->user, w->out.data, w->out.len) != 0)
    w->status = XMT_ERR_WRITE;
  xmt_buf_reset(&w->out);
  return w->status;
}

/* Encodes UTF-8 into the output; generated text may need character
 * references, copied text never does. */
static xmt_status put(xmt_xliff_writer *w, const char *utf8, size_t len,
                      int escape) {
  if (w->status != XMT_OK)
    return w->status;
  xmt_status st = xmt_encode(w->enc, utf8, len, escape, &w->out);
  if (st != XMT_OK)
    return w->status = st;
  if (w->out.len >= BLOCK_SIZE)
    return xmt_xliff_writer_flush(w);
  return XMT_OK;
}

xmt_status xmt_xliff_writer_skeleton(xmt_xliff_writer *w, const char *utf8,
                                     size_t len) {
  return put(w, utf8, len, 0);
}

static xmt_status put_attr(struct xmt_buf *out, const char *name,
                           const char *value) {
  xmt_status st = xmt_buf_append_byte(out, ' ');
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, name);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "=\"");
  if (st == XMT_OK)
    st = xmt_xml_escape_attr(out, value);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '"');
  return st;
}

/* 1 when the start tag has an attribute of exactly this name; quoted
 * values are skipped, so a value that mentions the name does not count. */
static int has_attribute(const char *tag, size_t len, const char *name) {
  size_t n = strlen(name), i = 1;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '>' && tag[i] != '/')
    i++; /* the element name */
  while (i < len) {
    while (i < len && xmt_is_xml_space(tag[i]))
      i++;
    size_t start = i;
    while (i < len && tag[i] != '=' && !xmt_is_xml_space(tag[i]) &&
           tag[i] != '>' && tag[i] != '/')
      i++;
    if (i == start)
      return 0;
    if (i - start == n && memcmp(tag + start, name, n) == 0)
      return 1;
    while (i < len && tag[i] != '"' && tag[i] != '\'')
      i++;
    if (i == len)
      return 0;
    char quote = tag[i++];
    while (i < len && tag[i] != quote)
      i++;
    i++;
  }
  return 0;
}

xmt_status xmt_xliff_writer_file_tag(xmt_xliff_writer *w, const char *tag,
                                     size_t len, const char *target_language) {
  if (target_language == NULL || len < 2 ||
      has_attribute(tag, len, "target-language"))
    return put(w, tag, len, 0);
  size_t end = len - (tag[len - 2] == '/' ? 2 : 1);
  xmt_buf_reset(&w->utf8);
  xmt_status st = xmt_buf_append(&w->utf8, tag, end);
  if (st == XMT_OK)
    st = put_attr(&w->utf8, "target-language", target_language);
  if (st == XMT_OK)
    st = xmt_buf_append(&w->utf8, tag + end, len - end);
  if (st != XMT_OK)
    return w->status = st;
  return put(w, w->utf8.data, w->utf8.len, 1);
}

int xmt_xliff_unit_wants_target(
    const xmt_xliff_unit *u, const struct xmt_xliff_target_options *options) {
  if (!u->translatable || u->nsegs == 0 ||
      (u->has_target && !options->overwrite))
    return 0;
  for (size_t i = 0; i < u->nsegs; i++)
    if (u->segs[i].target == NULL)
      return 0;
  return 1;
}

static xmt_status render_into(struct xmt_buf *out, const xmt_segment *seg) {
  return xmt_inline_render_into(out, seg);
}

static xmt_status target_open(struct xmt_buf *out,
                              const struct xmt_xliff_target_options *o,
                              int with_state) {
  xmt_status st = xmt_buf_append_str(out, "<target");
  if (st == XMT_OK)
    st = put_attr(out, "xml:lang", o->target_language);
  if (st == XMT_OK && with_state && o->state != NULL)
    st = put_attr(out, "state", o->state);
  if (st == XMT_OK && with_state && o->state_qualifier != NULL)
    st = put_attr(out, "state-qualifier", o->state_qualifier);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '>');
  return st;
}

/* The content of a generated <seg-source> (use_targets 0) or of the target
 * mirroring it (1): the gaps outside, each segment in its mrk. */
static xmt_status generated_content(struct xmt_buf *out,
                                    const xmt_xliff_unit *u, int use_targets) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK; i++) {
    st = render_into(out, u->gaps[i]);
    if (st != XMT_OK || i == u->nsegs)
      break;
    st = xmt_buf_append_str(out, "<mrk mid=\"");
    if (st == XMT_OK)
      st = xmt_xml_escape_attr(out, u->segs[i].mid);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "\" mtype=\"seg\">");
    if (st == XMT_OK)
      st =
          render_into(out, use_targets ? u->segs[i].target : u->segs[i].source);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "</mrk>");
  }
  return st;
}

/* The target content: the seg-source mirrored with each segment replaced by
 * its translation, or the single translation of an unsegmented unit. */
static xmt_status target_content(struct xmt_buf *out, const xmt_xliff_unit *u) {
  if (u->gaps != NULL)
    return generated_content(out, u, 1);
  if (!u->segmented)
    return render_into(out, u->segs[0].target);
  size_t at = u->seg_inner.start;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < u->nsegs && st == XMT_OK; i++) {
    const struct xmt_unit_segment *s = &u->segs[i];
    st = xmt_buf_append(out, u->raw.data + at, s->inner_start - at);
    if (st == XMT_OK)
      st = render_into(out, s->target);
    at = s->inner_end;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, u->raw.data + at, u->seg_inner.end - at);
  return st;
}

/* Whitespace that precedes <source>, to indent what is inserted alike. */
static struct xmt_range indent_of(const xmt_xliff_unit *u) {
  struct xmt_range r = {u->source.start, u->source.start};
  while (r.start > 0 && xmt_is_xml_space(u->raw.data[r.start - 1]))
    r.start--;
  return r;
}

static xmt_status alt_trans(struct xmt_buf *out, const xmt_xliff_unit *u,
                            const struct xmt_xliff_target_options *o) {
  struct xmt_range indent = indent_of(u);
  xmt_status st = XMT_OK;
  size_t n = u->segmented ? u->nsegs : 1;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    st = xmt_buf_append(out, u->raw.data + indent.start,
                        indent.end - indent.start);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "<alt-trans origin=\"xliffmt\"");
    if (st == XMT_OK && u->segmented && u->segs[i].mid != NULL)
      st = put_attr(out, "mid", u->segs[i].mid);
    if (st == XMT_OK)
      st = xmt_buf_append_byte(out, '>');
    if (st == XMT_OK)
      st = target_open(out, o, 0);
    if (st == XMT_OK)
      st = render_into(out, u->segs[i].target);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "</target></alt-trans>");
  }
  return st;
}

static xmt_status assemble(struct xmt_buf *out, const xmt_xliff_unit *u,
                           const struct xmt_xliff_target_options *o) {
  const char *raw = u->raw.data;
  size_t anchor = u->seg_source.end != 0 ? u->seg_source.end : u->source.end;
  xmt_status st;
  if (o->alt_trans) {
    size_t at = u->target.end != 0 ? u->target.end : anchor;
    st = xmt_buf_append(out, raw, at);
    if (st == XMT_OK)
      st = alt_trans(out, u, o);
    if (st == XMT_OK)
      st = xmt_buf_append(out, raw + at, u->raw.len - at);
    return st;
  }
  struct xmt_range replace = u->target;
  if (replace.end == 0) {
    replace.start = replace.end = anchor;
  }
  st = xmt_buf_append(out, raw, replace.start);
  if (st == XMT_OK && u->target.end == 0) {
    struct xmt_range indent = indent_of(u);
    st = xmt_buf_append(out, raw + indent.start, indent.end - indent.start);
  }
  if (st == XMT_OK)
    st = target_open(out, o, 1);
  if (st == XMT_OK)
    st = target_content(out, u);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "</target>");
  if (st == XMT_OK)
    st = xmt_buf_append(out, raw + replace.end, u->raw.len - replace.end);
  return st;
}

/* The content range of the existing <target>, for rewriting it; 0 when it
 * has none (an empty element). */
static int target_inner(const xmt_xliff_unit *u, struct xmt_range *inner) {
  const char *raw = u->raw.data;
  size_t i = u->target.start;
  char quote = 0;
  for (; i < u->target.end; i++) {
    if (quote != 0) {
      if (raw[i] == quote)
        quote = 0;
    } else if (raw[i] == '"' || raw[i] == '\'')
      quote = raw[i];
    else if (raw[i] == '>')
      break;
  }
  if (i >= u->target.end || raw[i - 1] == '/')
    return 0;
  size_t end = u->target.end;
  while (end > i && raw[end - 1] != '<')
    end--;
  if (end <= i + 1)
    return 0;
  inner->start = i + 1;
  inner->end = end - 1;
  return 1;
}

/* A unit with generated segments: the new <seg-source> goes after </source>
 * (or replaces the file's), and the target mirrors it: a new one, or the
 * existing copy of the source with mrks added; a real translation already
 * there is left as it is. */
static xmt_status assemble_generated(struct xmt_buf *out,
                                     const xmt_xliff_unit *u,
                                     const struct xmt_xliff_target_options *o,
                                     int want_target) {
  const char *raw = u->raw.data;
  int had = u->seg_source.end != 0;
  size_t cut = had ? u->seg_source.start : u->source.end;
  size_t at = had ? u->seg_source.end : u->source.end;
  xmt_status st = xmt_buf_append(out, raw, cut);
  if (st == XMT_OK && !had) {
    struct xmt_range indent = indent_of(u);
    st = xmt_buf_append(out, raw + indent.start, indent.end - indent.start);
  }
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "<seg-source>");
  if (st == XMT_OK)
    st = generated_content(out, u, 0);
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, "</seg-source>");
  struct xmt_range inner;
  int target_after = u->target.end != 0 && u->target.start >= at;
  if (st != XMT_OK)
    return st;
  if (want_target && o->alt_trans) {
    size_t anchor = target_after ? u->target.end : at;
    st = xmt_buf_append(out, raw + at, anchor - at);
    if (st == XMT_OK)
      st = alt_trans(out, u, o);
    at = anchor;
  } else if (want_target) {
    if (target_after)
      st = xmt_buf_append(out, raw + at, u->target.start - at);
    else {
      struct xmt_range indent = indent_of(u);
      st = xmt_buf_append(out, raw + indent.start, indent.end - indent.start);
    }
    if (st == XMT_OK)
      st = target_open(out, o, 1);
    if (st == XMT_OK)
      st = generated_content(out, u, 1);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "</target>");
    if (target_after)
      at = u->target.end;
  } else if (target_after && u->has_target && u->existing != NULL &&
             u->whole_source != NULL &&
             xmt_segment_equal(u->existing, u->whole_source) &&
             target_inner(u, &inner)) {
    st = xmt_buf_append(out, raw + at, inner.start - at);
    if (st == XMT_OK)
      st = generated_content(out, u, 0);
    at = inner.end;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, raw + at, u->raw.len - at);
  return st;
}

xmt_status xmt_xliff_writer_unit(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                                 const struct xmt_xliff_target_options *o) {
  if (w->status != XMT_OK)
    return w->status;
  if (o == NULL || o->target_language == NULL)
    return XMT_ERR_USAGE;
  int want = xmt_xliff_unit_wants_target(u, o);
  if (!want && u->gaps == NULL)
    return put(w, u->raw.data, u->raw.len, 0);
  xmt_status st;
  if (w->enc == XMT_ENC_UTF8) {
    /* Nothing to encode: assemble straight into the output. */
    st = u->gaps != NULL ? assemble_generated(&w->out, u, o, want)
                         : assemble(&w->out, u, o);
    if (st != XMT_OK)
      return w->status = st;
    return w->out.len >= BLOCK_SIZE ? xmt_xliff_writer_flush(w) : XMT_OK;
  }
  xmt_buf_reset(&w->utf8);
  st = u->gaps != NULL ? assemble_generated(&w->utf8, u, o, want)
                       : assemble(&w->utf8, u, o);
  if (st != XMT_OK)
    return w->status = st;
  return put(w, w->utf8.data, w->utf8.len, 1);
}
