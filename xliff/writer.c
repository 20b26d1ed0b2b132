/* writer.c -- writes skeleton and units back, in the input's encoding, with
 * targets placed the way Okapi Tikal places them, in the shape and dialect
 * of the input. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "xliff_private.h"

/* Output is handed to the sink in blocks of about this size: large enough
 * that write calls cost little next to the copy into the page cache. */
#define BLOCK_SIZE (256u * 1024u)

/* A change to a unit's raw bytes: [start, end) becomes text[at, at+len). */
struct edit {
  size_t start, end, at, len;
};

struct xmt_xliff_writer {
  xmt_write_fn sink;
  void *user;
  enum xmt_encoding enc;
  struct xmt_buf out;
  struct xmt_buf utf8; /* a unit or target being assembled */
  xmt_status status;
  /* The edits of the unit being written, sorted by start. */
  struct edit *edits;
  size_t nedits, edits_cap;
  struct xmt_buf edit_text;
  struct xmt_buf scratch;
  xmt_segment *joined;
  char stamp[32]; /* memoQ's timestamp, fixed at the first use */
  /* The last <target ...> start tag made, and what it was made of (prefix,
   * language, state, qualifier; "" for none, each NUL-terminated): the
   * units of a run share it, and escaping its attributes cost more than
   * the rest of a unit's markup. */
  struct xmt_buf open_tag;
  struct xmt_buf open_key;
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
  free(w->edits);
  xmt_buf_free(&w->edit_text);
  xmt_buf_free(&w->scratch);
  xmt_segment_free(w->joined);
  xmt_buf_free(&w->open_tag);
  xmt_buf_free(&w->open_key);
  free(w);
}

xmt_status xmt_xliff_writer_set_encoding(xmt_xliff_writer *w,
                                         enum xmt_encoding enc) {
  /* The writer keeps no error detail: the status says it all. Compared as
   * int: the enum may be unsigned. */
  if (w == NULL || (int)enc < (int)XMT_ENC_UTF8 ||
      (int)enc > (int)XMT_ENC_ASCII)
    return XMT_ERR_USAGE;
  w->enc = enc;
  return XMT_OK;
}

xmt_status xmt_xliff_writer_flush(xmt_xliff_writer *w) {
  if (w == NULL)
    return XMT_ERR_USAGE;
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
  if (w == NULL)
    return XMT_ERR_USAGE;
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

static int has_attribute(const char *tag, size_t len, const char *name) {
  size_t vs, ve;
  return xmt_tag_find_attribute(tag, len, name, &vs, &ve);
}

xmt_status xmt_xliff_writer_file_tag(xmt_xliff_writer *w, const char *tag,
                                     size_t len, const char *target_language) {
  if (w == NULL)
    return XMT_ERR_USAGE;
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

/* A segment's translation, or its source when it wants none (locked). */
static const xmt_segment *target_of(const struct xmt_unit_segment *s) {
  return s->target != NULL ? s->target : s->source;
}

/* Appends an XLIFF element name with the unit's prefix. */
static xmt_status put_name(struct xmt_buf *out, const xmt_xliff_unit *u,
                           const char *name) {
  xmt_status st = xmt_buf_append_str(out, u->prefix != NULL ? u->prefix : "");
  return st == XMT_OK ? xmt_buf_append_str(out, name) : st;
}

static xmt_status put_tag(struct xmt_buf *out, const xmt_xliff_unit *u,
                          const char *open, const char *name) {
  xmt_status st = xmt_buf_append_str(out, open);
  return st == XMT_OK ? put_name(out, u, name) : st;
}

/* --- Edits of the copied bytes ------------------------------------------ */

/* An insertion (an empty range) goes before the edit that starts where
 * it is. */
static int by_start(const void *a, const void *b) {
  const struct edit *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* Records that raw [start, end) becomes what was appended to edit_text
 * since at. */
static xmt_status push_edit(xmt_xliff_writer *w, size_t start, size_t end,
                            size_t at) {
  struct edit *grown =
      xmt_grow_array(w->edits, &w->edits_cap, w->nedits + 1, sizeof *grown);
  if (grown == NULL)
    return XMT_ERR_NOMEM;
  w->edits = grown;
  struct edit *e = &w->edits[w->nedits++];
  e->start = start;
  e->end = end;
  e->at = at;
  e->len = w->edit_text.len - at;
  return XMT_OK;
}

/* Appends raw [from, to) with the edits that fall inside it applied. */
static xmt_status copy_raw(const xmt_xliff_writer *w, struct xmt_buf *out,
                           const xmt_xliff_unit *u, size_t from, size_t to) {
  xmt_status st = XMT_OK;
  size_t at = from;
  for (size_t k = 0; st == XMT_OK && k < w->nedits; k++) {
    const struct edit *e = &w->edits[k];
    if (e->start < at || e->end > to)
      continue;
    st = xmt_buf_append(out, u->raw.data + at, e->start - at);
    if (st == XMT_OK)
      st = xmt_buf_append(out, w->edit_text.data + e->at, e->len);
    at = e->end;
  }
  if (st == XMT_OK && to > at)
    st = xmt_buf_append(out, u->raw.data + at, to - at);
  return st;
}

/* memoQ's timestamp: the time of the first use, or SOURCE_DATE_EPOCH for
 * reproducible output. */
static const char *stamp(xmt_xliff_writer *w) {
  if (w->stamp[0] != '\0')
    return w->stamp;
  time_t t = time(NULL);
  const char *e = getenv("SOURCE_DATE_EPOCH");
  if (e != NULL && *e != '\0') {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 0)
      t = (time_t)v;
  }
  struct tm tm;
  if (gmtime_r(&t, &tm) == NULL ||
      strftime(w->stamp, sizeof w->stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
    snprintf(w->stamp, sizeof w->stamp, "%s", "1970-01-01T00:00:00Z");
  return w->stamp;
}

/* The trans-unit start tag: approved="yes", memoQ's status. A unit that
 * was approved and gets a new target (--overwrite) is approved no more:
 * a reviewer approved the target it had, and tools take an approved
 * unit's target as final. */
static xmt_status edit_head(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                            const struct xmt_xliff_target_options *o) {
  const char *names[3], *values[3];
  char status[80], changed[80];
  size_t n = 0;
  if (o->approved || u->approved) {
    names[n] = "approved";
    values[n++] = o->approved ? "yes" : "no";
  }
  if (u->mq && u->mq_prefix != NULL) {
    snprintf(status, sizeof status, "%sstatus", u->mq_prefix);
    snprintf(changed, sizeof changed, "%slastchangedtimestamp", u->mq_prefix);
    names[n] = status;
    values[n++] = "MachineTranslated";
    names[n] = changed;
    values[n++] = stamp(w);
  }
  if (n == 0)
    return XMT_OK;
  size_t at = w->edit_text.len;
  xmt_status st = xmt_tag_set_attributes(&w->edit_text, u->raw.data,
                                         u->head_end, names, values, n);
  return st == XMT_OK ? push_edit(w, 0, u->head_end, at) : st;
}

/* The bytes of raw between the seg-source mrks of segments a and a + 1
 * when they are white space only (as between sentences), in *from and
 * *to; else an empty range. */
static void seg_gap(const xmt_xliff_unit *u, size_t a, size_t *from,
                    size_t *to) {
  const char *raw = u->raw.data;
  size_t p = u->segs[a].inner_end, q = u->segs[a + 1].inner_start;
  *from = *to = 0;
  while (p < q && raw[p] != '>') /* a's </mrk> */
    p++;
  while (q > p && raw[q - 1] != '<') /* a + 1's <mrk ...> */
    q--;
  if (p >= q || raw[p] != '>' || q == 0)
    return;
  for (size_t k = p + 1; k < q - 1; k++)
    if (!xmt_is_xml_space(raw[k]))
      return;
  *from = p + 1;
  *to = q - 1;
}

/* A Trados target that lacks segment i's mrk gets one, with its
 * translation, before the mrk of the next segment that has one (and the
 * white space the seg-source has after it), else at the end of the
 * target (after the white space before it); the mrk is named as the
 * target's others. */
static xmt_status add_tseg(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                           size_t i) {
  const char *raw = u->raw.data, *m = raw + u->tsegs[0].whole.start;
  size_t nl = 1, pos = SIZE_MAX;
  while (!xmt_is_xml_space(m[nl]) && m[nl] != '/' && m[nl] != '>')
    nl++;
  for (size_t k = i + 1; k < u->nsegs && pos == SIZE_MAX; k++)
    if (u->segs[k].tseg != SIZE_MAX)
      pos = u->tsegs[u->segs[k].tseg].whole.start;
  int last = pos == SIZE_MAX;
  if (last) { /* at the target's end tag */
    pos = u->target.end - 1;
    while (pos > u->target.start && raw[pos] != '<')
      pos--;
  }
  size_t at = w->edit_text.len, gap_from = 0, gap_to = 0;
  if (!last)
    seg_gap(u, i, &gap_from, &gap_to);
  else if (i > 0 && !xmt_is_xml_space(raw[pos - 1])) /* none there yet */
    seg_gap(u, i - 1, &gap_from, &gap_to);
  xmt_status st = XMT_OK;
  if (last)
    st = xmt_buf_append(&w->edit_text, raw + gap_from, gap_to - gap_from);
  if (st == XMT_OK)
    st = xmt_buf_append(&w->edit_text, m, nl);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&w->edit_text, " mtype=\"seg\" mid=\"");
  if (st == XMT_OK)
    st = xmt_xml_escape_attr(&w->edit_text, u->segs[i].mid);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&w->edit_text, "\">");
  if (st == XMT_OK)
    st = xmt_inline_render_into(&w->edit_text, u->segs[i].target);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&w->edit_text, "</");
  if (st == XMT_OK)
    st = xmt_buf_append(&w->edit_text, m + 1, nl - 1);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&w->edit_text, '>');
  if (st == XMT_OK && !last)
    st = xmt_buf_append(&w->edit_text, raw + gap_from, gap_to - gap_from);
  return st == XMT_OK ? push_edit(w, pos, pos, at) : st;
}

/* Fills the existing target mrk of segment s with its translation. */
static xmt_status edit_tseg(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                            const struct xmt_unit_segment *s) {
  if (s->tseg == SIZE_MAX)
    return add_tseg(w, u, (size_t)(s - u->segs));
  const struct xmt_target_seg *t = &u->tsegs[s->tseg];
  size_t at = w->edit_text.len;
  xmt_status st = XMT_OK;
  if (!t->self_closing) {
    st = xmt_inline_render_into(&w->edit_text, s->target);
    return st == XMT_OK ? push_edit(w, t->inner.start, t->inner.end, at) : st;
  }
  /* <mrk .../> becomes <mrk ...>translation</mrk>. */
  const char *m = u->raw.data + t->whole.start;
  size_t len = t->whole.end - t->whole.start, end = len - 2, nl = 1;
  while (end > 1 && xmt_is_xml_space(m[end - 1]))
    end--;
  while (nl < len && !xmt_is_xml_space(m[nl]) && m[nl] != '/' && m[nl] != '>')
    nl++;
  st = xmt_buf_append(&w->edit_text, m, end);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&w->edit_text, '>');
  if (st == XMT_OK)
    st = xmt_inline_render_into(&w->edit_text, s->target);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&w->edit_text, "</");
  if (st == XMT_OK)
    st = xmt_buf_append(&w->edit_text, m + 1, nl - 1);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&w->edit_text, '>');
  return st == XMT_OK ? push_edit(w, t->whole.start, t->whole.end, at) : st;
}

/* Trados shows a segment as machine translated by its sdl:seg. */
static xmt_status edit_sdlseg(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                              const struct xmt_unit_segment *s) {
  const struct xmt_sdl_seg *d = &u->sdlsegs[s->sdlseg];
  size_t at = w->edit_text.len;
  xmt_status st = xmt_tag_set_sdl_mt(&w->edit_text, u->raw.data + d->tag.start,
                                     d->tag.end - d->tag.start);
  return st == XMT_OK ? push_edit(w, d->tag.start, d->tag.end, at) : st;
}

/* 1 when segment i gets its translation written. */
static int filled(const xmt_xliff_unit *u, size_t i, int overwrite) {
  return u->segs[i].target != NULL &&
         xmt_xliff_unit_segment_wanted(u, i, overwrite);
}

/* --- Codes written once -----------------------------------------------------
 * Trados prepares a target with some codes of a segment outside its mrk
 * (seg-source <mrk mid="1">Text <x id="8"/></mrk>, target <mrk mid="1"/>
 * <x id="8"/>); the filled mrk carries the segment's codes, so that copy
 * outside would be the code's second. It is dropped, as many times as the
 * filled segments carry the code, but never so far that the target holds
 * fewer copies outside its segments than the seg-source does: those are
 * codes between segments (a line break between two sentences), which stay
 * where they are, byte for byte. Codes are told apart by element name and
 * id; the rest of the target, kept segments included, is not touched. */

/* An element's local name and id, from its start tag. */
struct code_key {
  const char *name, *id;
  size_t name_len, id_len;
};

/* 0 when the markup is no start tag with an id (an end tag, an entity). */
static int code_key(const char *tag, size_t len, struct code_key *k) {
  size_t i = 1, local = 1, vs, ve;
  if (len < 2 || tag[0] != '<' || tag[1] == '/')
    return 0;
  while (i < len && !xmt_is_xml_space(tag[i]) && tag[i] != '/' && tag[i] != '>')
    if (tag[i++] == ':')
      local = i;
  if (!xmt_tag_find_attribute(tag, len, "id", &vs, &ve))
    return 0;
  k->name = tag + local;
  k->name_len = i - local;
  k->id = tag + vs;
  k->id_len = ve - vs;
  return 1;
}

static int same_code(const struct code_key *a, const char *tag, size_t len) {
  struct code_key b;
  return code_key(tag, len, &b) && a->name_len == b.name_len &&
         a->id_len == b.id_len && memcmp(a->name, b.name, b.name_len) == 0 &&
         memcmp(a->id, b.id, b.id_len) == 0;
}

/* How many times the translations written carry the code. */
static size_t carried(const xmt_xliff_unit *u, int overwrite,
                      const struct code_key *key) {
  size_t n = 0;
  for (size_t i = 0; i < u->nsegs; i++) {
    const xmt_segment *t = u->segs[i].target;
    for (size_t k = 0; filled(u, i, overwrite) && k < xmt_segment_tag_count(t);
         k++) {
      struct xmt_tag tag;
      if (xmt_segment_tag(t, k, &tag) == XMT_OK &&
          same_code(key, tag.markup, tag.markup_len))
        n++;
    }
  }
  return n;
}

/* How many of the first n outside codes of the target (in_target 1) or
 * the seg-source (0) are the code. */
static size_t outside_count(const xmt_xliff_unit *u, const struct code_key *key,
                            int in_target, size_t n) {
  size_t count = 0;
  for (size_t k = 0; k < n; k++) {
    const struct xmt_outside_code *c = &u->outside[k];
    if (c->in_target == in_target && c->whole.end != 0 &&
        same_code(key, u->raw.data + c->whole.start,
                  c->tag_end - c->whole.start))
      count++;
  }
  return count;
}

/* A pair that holds a segment loses its two tags, its content stays. */
static xmt_status drop_outside(xmt_xliff_writer *w,
                               const struct xmt_outside_code *c) {
  size_t at = w->edit_text.len;
  if (!c->holds_segment)
    return push_edit(w, c->whole.start, c->whole.end, at);
  xmt_status st = push_edit(w, c->whole.start, c->tag_end, at);
  return st == XMT_OK ? push_edit(w, c->close_start, c->whole.end, at) : st;
}

static xmt_status drop_outside_copies(xmt_xliff_writer *w,
                                      const xmt_xliff_unit *u, int overwrite) {
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < u->noutside; k++) {
    const struct xmt_outside_code *c = &u->outside[k];
    struct code_key key;
    if (!c->in_target || c->whole.end == 0 ||
        !code_key(u->raw.data + c->whole.start, c->tag_end - c->whole.start,
                  &key))
      continue;
    size_t in_target = outside_count(u, &key, 1, u->noutside);
    size_t in_source = outside_count(u, &key, 0, u->noutside);
    if (in_target <= in_source)
      continue; /* codes between segments, as in the seg-source */
    size_t extra = in_target - in_source, n = carried(u, overwrite, &key);
    /* The first copies in document order go. */
    if (outside_count(u, &key, 1, k) < (n < extra ? n : extra))
      st = drop_outside(w, c);
  }
  return st;
}

static xmt_status plan_edits(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                             const struct xmt_xliff_target_options *o,
                             int in_place) {
  w->nedits = 0;
  xmt_buf_reset(&w->edit_text);
  if (o->alt_trans)
    return XMT_OK; /* proposals change nothing of the unit */
  xmt_status st = edit_head(w, u, o);
  for (size_t i = 0; st == XMT_OK && i < u->nsegs; i++) {
    const struct xmt_unit_segment *s = &u->segs[i];
    if (!filled(u, i, o->overwrite))
      continue;
    if (in_place)
      st = edit_tseg(w, u, s);
    if (st == XMT_OK && s->sdlseg != SIZE_MAX)
      st = edit_sdlseg(w, u, s);
  }
  if (st == XMT_OK && in_place && u->noutside > 0)
    st = drop_outside_copies(w, u, o->overwrite);
  /* The target now holds machine translation: its state says so (Trados
   * and memoQ say it per segment, and in the unit). */
  if (st == XMT_OK && in_place && u->nsdlsegs == 0 && !u->mq) {
    size_t at = w->edit_text.len, start = u->target.start;
    size_t len = xmt_tag_end(u->raw.data + start, u->target.end - start) + 1;
    st = xmt_tag_set_state(&w->edit_text, u->raw.data + start, len, o,
                           u->version >= XMT_XLIFF_12);
    if (st == XMT_OK)
      st = push_edit(w, start, start + len, at);
  }
  if (w->nedits > 1)
    qsort(w->edits, w->nedits, sizeof *w->edits, by_start);
  return st;
}

/* 1 when the existing target is filled mrk by mrk: some segments keep
 * theirs (translated or locked), or Trados wants its own bytes kept. */
static int fills_in_place(const xmt_xliff_unit *u,
                          const struct xmt_xliff_target_options *o) {
  if (o->alt_trans || u->gaps != NULL || !u->mirrored)
    return 0;
  if (u->nsdlsegs > 0)
    return 1;
  for (size_t i = 0; i < u->nsegs; i++)
    if (!xmt_xliff_unit_segment_wanted(u, i, o->overwrite))
      return 1;
  return 0;
}

/* --- Targets ------------------------------------------------------------ */

static xmt_status make_target_open(struct xmt_buf *out, const xmt_xliff_unit *u,
                                   const struct xmt_xliff_target_options *o,
                                   int with_state) {
  xmt_status st = put_tag(out, u, "<", "target");
  if (st == XMT_OK)
    st = put_attr(out, "xml:lang", o->target_language);
  if (st == XMT_OK && with_state && o->state != NULL)
    st = put_attr(out, "state", o->state);
  /* state-qualifier is XLIFF 1.2's: 1.0 and 1.1 define none */
  if (st == XMT_OK && with_state && o->state_qualifier != NULL &&
      u->version >= XMT_XLIFF_12)
    st = put_attr(out, "state-qualifier", o->state_qualifier);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '>');
  return st;
}

/* 1 when the strings key[0..n-1] are those at [at, end), NUL-terminated
 * one after the other. */
static int same_key(const char *const *key, size_t n, const char *at,
                    const char *end) {
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(key[i]);
    if ((size_t)(end - at) <= len || memcmp(at, key[i], len + 1) != 0)
      return 0;
    at += len + 1;
  }
  return at == end;
}

static xmt_status target_open(xmt_xliff_writer *w, struct xmt_buf *out,
                              const xmt_xliff_unit *u,
                              const struct xmt_xliff_target_options *o,
                              int with_state) {
  const char *state = with_state ? o->state : NULL;
  const char *qualifier =
      with_state && u->version >= XMT_XLIFF_12 ? o->state_qualifier : NULL;
  /* An empty state is written as state="", not as none: not kept. */
  if ((state != NULL && state[0] == '\0') ||
      (qualifier != NULL && qualifier[0] == '\0'))
    return make_target_open(out, u, o, with_state);
  const char *key[] = {u->prefix != NULL ? u->prefix : "", o->target_language,
                       state != NULL ? state : "",
                       qualifier != NULL ? qualifier : ""};
  size_t n = sizeof key / sizeof *key;
  const char *at = w->open_key.data != NULL ? w->open_key.data : "";
  if (w->open_tag.len == 0 || !same_key(key, n, at, at + w->open_key.len)) {
    xmt_buf_reset(&w->open_tag);
    xmt_buf_reset(&w->open_key);
    xmt_status st = make_target_open(&w->open_tag, u, o, with_state);
    for (size_t i = 0; st == XMT_OK && i < n; i++)
      st = xmt_buf_append(&w->open_key, key[i], strlen(key[i]) + 1);
    if (st != XMT_OK) {
      xmt_buf_reset(&w->open_tag);
      return st;
    }
  }
  return xmt_buf_append(out, w->open_tag.data, w->open_tag.len);
}

/* The content of a generated <seg-source> (use_targets 0) or of the target
 * mirroring it (1): the gaps outside, each segment in its mrk. */
static xmt_status generated_content(struct xmt_buf *out,
                                    const xmt_xliff_unit *u, int use_targets) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK; i++) {
    st = xmt_inline_render_into(out, use_targets ? xmt_unit_target_gap(u, i)
                                                 : u->gaps[i]);
    if (st != XMT_OK || i == u->nsegs)
      break;
    st = put_tag(out, u, "<", "mrk");
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, " mid=\"");
    if (st == XMT_OK)
      st = xmt_xml_escape_attr(out, u->segs[i].mid);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "\" mtype=\"seg\">");
    if (st == XMT_OK)
      st = xmt_inline_render_into(out, use_targets ? target_of(&u->segs[i])
                                                   : u->segs[i].source);
    if (st == XMT_OK)
      st = put_tag(out, u, "</", "mrk>");
  }
  return st;
}

/* The target content: one whole translation for a unit segmented for MT
 * only, the seg-source mirrored with each segment replaced by its
 * translation, or the single translation of an unsegmented unit. */
static xmt_status target_content(xmt_xliff_writer *w, struct xmt_buf *out,
                                 const xmt_xliff_unit *u) {
  if (u->gaps != NULL)
    return xmt_unit_render_joined_target(out, u, &w->joined);
  if (!u->segmented)
    return xmt_inline_render_into(out, target_of(&u->segs[0]));
  size_t at = u->seg_inner.start;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < u->nsegs && st == XMT_OK; i++) {
    const struct xmt_unit_segment *s = &u->segs[i];
    st = xmt_buf_append(out, u->raw.data + at, s->inner_start - at);
    if (st == XMT_OK)
      st = xmt_inline_render_into(out, target_of(s));
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

/* One <alt-trans> per translated segment (with its mid when the file has
 * the segments), or one for the whole unit. */
static xmt_status alt_trans(xmt_xliff_writer *w, struct xmt_buf *out,
                            const xmt_xliff_unit *u,
                            const struct xmt_xliff_target_options *o,
                            int per_segment) {
  struct xmt_range indent = indent_of(u);
  xmt_status st = XMT_OK;
  size_t n = per_segment ? u->nsegs : 1;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    if (per_segment && u->segs[i].target == NULL)
      continue;
    st = xmt_buf_append(out, u->raw.data + indent.start,
                        indent.end - indent.start);
    if (st == XMT_OK)
      st = put_tag(out, u, "<", "alt-trans origin=\"xliffmt\"");
    if (st == XMT_OK && per_segment && u->segs[i].mid != NULL &&
        u->version >= XMT_XLIFF_12)
      st = put_attr(out, "mid", u->segs[i].mid);
    if (st == XMT_OK)
      st = xmt_buf_append_byte(out, '>');
    if (st == XMT_OK)
      st = target_open(w, out, u, o, 0);
    if (st == XMT_OK)
      st = per_segment ? xmt_inline_render_into(out, u->segs[i].target)
                       : target_content(w, out, u);
    if (st == XMT_OK)
      st = put_tag(out, u, "</", "target>");
    if (st == XMT_OK)
      st = put_tag(out, u, "</", "alt-trans>");
  }
  return st;
}

/* The content range of the existing <target>, for rewriting it; 0 when it
 * has none (an empty element). */
static int target_inner(const xmt_xliff_unit *u, struct xmt_range *inner) {
  const char *raw = u->raw.data;
  size_t i = u->target.start + xmt_tag_end(raw + u->target.start,
                                           u->target.end - u->target.start);
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

/* memoQ: the existing target keeps its start tag (xml:space and all) and
 * gets the translation as content. */
static xmt_status fill_target(xmt_xliff_writer *w, struct xmt_buf *out,
                              const xmt_xliff_unit *u) {
  struct xmt_range inner;
  xmt_status st;
  if (target_inner(u, &inner)) {
    st = copy_raw(w, out, u, 0, inner.start);
    if (st == XMT_OK)
      st = target_content(w, out, u);
    if (st == XMT_OK)
      st = copy_raw(w, out, u, inner.end, u->raw.len);
    return st;
  }
  /* <target .../>: the start tag without its slash, then an end tag. */
  size_t end = u->target.end - 2;
  while (end > u->target.start + 1 && xmt_is_xml_space(u->raw.data[end - 1]))
    end--;
  st = copy_raw(w, out, u, 0, end);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '>');
  if (st == XMT_OK)
    st = target_content(w, out, u);
  if (st == XMT_OK)
    st = put_tag(out, u, "</", "target>");
  if (st == XMT_OK)
    st = copy_raw(w, out, u, u->target.end, u->raw.len);
  return st;
}

static xmt_status assemble(xmt_xliff_writer *w, struct xmt_buf *out,
                           const xmt_xliff_unit *u,
                           const struct xmt_xliff_target_options *o) {
  size_t anchor = u->seg_source.end != 0 ? u->seg_source.end : u->source.end;
  xmt_status st;
  if (o->alt_trans) {
    size_t at = u->target.end != 0 ? u->target.end : anchor;
    st = copy_raw(w, out, u, 0, at);
    if (st == XMT_OK)
      st = alt_trans(w, out, u, o, u->segmented && u->gaps == NULL);
    if (st == XMT_OK)
      st = copy_raw(w, out, u, at, u->raw.len);
    return st;
  }
  if (u->mq && u->target.end != 0)
    return fill_target(w, out, u);
  struct xmt_range replace = u->target;
  if (replace.end == 0) {
    replace.start = replace.end = anchor;
  }
  st = copy_raw(w, out, u, 0, replace.start);
  if (st == XMT_OK && u->target.end == 0) {
    struct xmt_range indent = indent_of(u);
    st = xmt_buf_append(out, u->raw.data + indent.start,
                        indent.end - indent.start);
  }
  if (st == XMT_OK)
    st = target_open(w, out, u, o, 1);
  if (st == XMT_OK)
    st = target_content(w, out, u);
  if (st == XMT_OK)
    st = put_tag(out, u, "</", "target>");
  if (st == XMT_OK)
    st = copy_raw(w, out, u, replace.end, u->raw.len);
  return st;
}

/* Tikal's shape for a unit segmented here: the new <seg-source> goes after
 * </source> (or replaces the file's), and the target mirrors it: a new one,
 * or the existing copy of the source with mrks added; a real translation
 * already there is left as it is. */
static xmt_status assemble_generated(xmt_xliff_writer *w, struct xmt_buf *out,
                                     const xmt_xliff_unit *u,
                                     const struct xmt_xliff_target_options *o,
                                     int want_target) {
  const char *raw = u->raw.data;
  int had = u->seg_source.end != 0;
  size_t cut = had ? u->seg_source.start : u->source.end;
  size_t at = had ? u->seg_source.end : u->source.end;
  xmt_status st = copy_raw(w, out, u, 0, cut);
  if (st == XMT_OK && !had) {
    struct xmt_range indent = indent_of(u);
    st = xmt_buf_append(out, raw + indent.start, indent.end - indent.start);
  }
  if (st == XMT_OK)
    st = put_tag(out, u, "<", "seg-source>");
  if (st == XMT_OK)
    st = generated_content(out, u, 0);
  if (st == XMT_OK)
    st = put_tag(out, u, "</", "seg-source>");
  struct xmt_range inner;
  int target_after = u->target.end != 0 && u->target.start >= at;
  if (st != XMT_OK)
    return st;
  if (want_target && o->alt_trans) {
    size_t anchor = target_after ? u->target.end : at;
    st = copy_raw(w, out, u, at, anchor);
    if (st == XMT_OK)
      st = alt_trans(w, out, u, o, 1);
    at = anchor;
  } else if (want_target) {
    if (target_after)
      st = copy_raw(w, out, u, at, u->target.start);
    else {
      struct xmt_range indent = indent_of(u);
      st = xmt_buf_append(out, raw + indent.start, indent.end - indent.start);
    }
    if (st == XMT_OK)
      st = target_open(w, out, u, o, 1);
    if (st == XMT_OK)
      st = generated_content(out, u, 1);
    if (st == XMT_OK)
      st = put_tag(out, u, "</", "target>");
    if (target_after)
      at = u->target.end;
  } else if (target_after && u->has_target && u->existing != NULL &&
             u->whole_source != NULL &&
             xmt_segment_equal(u->existing, u->whole_source) &&
             target_inner(u, &inner)) {
    st = copy_raw(w, out, u, at, inner.start);
    if (st == XMT_OK)
      st = generated_content(out, u, 0);
    at = inner.end;
  }
  if (st == XMT_OK)
    st = copy_raw(w, out, u, at, u->raw.len);
  return st;
}

static xmt_status assemble_unit(xmt_xliff_writer *w, struct xmt_buf *out,
                                const xmt_xliff_unit *u,
                                const struct xmt_xliff_target_options *o,
                                int want, int seg_source) {
  int in_place = want && fills_in_place(u, o);
  xmt_status st = want ? plan_edits(w, u, o, in_place) : XMT_OK;
  if (!want) {
    w->nedits = 0;
  }
  if (st != XMT_OK)
    return st;
  if (seg_source)
    return assemble_generated(w, out, u, o, want);
  if (in_place)
    return copy_raw(w, out, u, 0, u->raw.len);
  return assemble(w, out, u, o);
}

xmt_status xmt_xliff_writer_unit(xmt_xliff_writer *w, const xmt_xliff_unit *u,
                                 const struct xmt_xliff_target_options *o) {
  if (w == NULL || u == NULL || o == NULL)
    return XMT_ERR_USAGE;
  if (w->status != XMT_OK)
    return w->status;
  if (o == NULL || o->target_language == NULL)
    return XMT_ERR_USAGE;
  int want = xmt_xliff_unit_wants_target(u, o);
  /* seg-source is XLIFF 1.2's; older versions get one whole target. A
   * unit that had one and was segmented anew gets the new one: a whole
   * target beside the old one would not mirror it. */
  int seg_source = u->gaps != NULL &&
                   (o->seg_source || u->seg_source.end != 0) &&
                   u->version >= XMT_XLIFF_12;
  if (!want && !seg_source)
    return put(w, u->raw.data, u->raw.len, 0);
  xmt_status st;
  if (w->enc == XMT_ENC_UTF8) {
    /* Nothing to encode: assemble straight into the output. */
    st = assemble_unit(w, &w->out, u, o, want, seg_source);
    if (st != XMT_OK)
      return w->status = st;
    return w->out.len >= BLOCK_SIZE ? xmt_xliff_writer_flush(w) : XMT_OK;
  }
  xmt_buf_reset(&w->utf8);
  st = assemble_unit(w, &w->utf8, u, o, want, seg_source);
  if (st != XMT_OK)
    return w->status = st;
  return put(w, w->utf8.data, w->utf8.len, 1);
}
