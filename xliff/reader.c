/* reader.c -- streaming XLIFF 1.0-1.2 reader: skeleton bytes, <file> tags
 * and trans-units, from expat events and their byte positions. */
#include "config.h"

#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "xliff_private.h"

#define XLIFF_NS "urn:oasis:names:tc:xliff:document:1."
#define XML_NS "http://www.w3.org/XML/1998/namespace"
#define SDL_NS "http://sdl.com/FileTypes/SdlXliff/1.0"
#define MQ_NS "MQXliff"
/* Bytes handed to expat per call; bounds the decode buffer too. */
#define FEED_MAX (1u << 20)

enum part {
  PART_NONE,
  PART_SOURCE,
  PART_SEG_SOURCE,
  PART_TARGET,
  PART_SEG_DEFS, /* Trados's sdl:seg-defs */
  PART_OTHER
};

/* What an open element inside a source, seg-source or target is. */
enum frame { FRAME_PAIR, FRAME_OUTSIDE, FRAME_SEGMENT };

/* An attribute value kept from a start tag to its end tag, in a buffer
 * reused from element to element. */
struct kept {
  struct xmt_buf buf;
  int set; /* 0: the attribute was absent */
};

/* A bx/ex/bpt/ept seen in a part, to check that they pair up. */
struct code_ref {
  const char *name;
  char *key;
  uint64_t offset; /* located only for a message: locating costs a scan */
  int matched;
};

struct xmt_xliff_reader {
  struct xmt_xliff_reader_callbacks cb;
  void *user;
  XML_Parser parser;
  char *filename;
  struct xmt_error_store err;
  xmt_status status;

  int keep_entities; /* external references become placeholder codes */
  int started;       /* encoding detected */
  enum xmt_encoding enc;
  struct xmt_buf sniff;
  struct xmt_decoder dec;

  /* The UTF-8 stream from byte `base` on; bytes before `flushed` have been
   * handed out. */
  struct xmt_buf window;
  struct xmt_buf input; /* xmt_xliff_reader_buffer's when not the window */
  int in_window;        /* the last buffer handed out is the window's end */
  uint64_t base;
  uint64_t flushed;
  uint64_t safe_end; /* end of the last event outside any unit */

  unsigned long depth;
  int seen_root;
  int version; /* XMT_XLIFF_10, 11 or 12 */
  char *ns;    /* the root's namespace, or NULL */
  size_t ns_len;
  char *mq_prefix; /* memoQ's namespace prefix, colon included */
  char *translate; /* translate flag per open file/group, as '0'/'1' */
  size_t ntranslate, translate_cap;
  char *source_language;
  char *target_language;

  xmt_xliff_unit *unit;
  struct xmt_raw_block *raw_block; /* where units' bytes go */
  uint64_t unit_start;
  unsigned long unit_depth;
  enum part part;
  unsigned long part_depth;
  struct xmt_inline_builder ib;
  int in_segment;
  size_t tseg; /* the target mrk segment open, or SIZE_MAX */
  char *segment_mid;
  size_t segment_inner_start;
  char *frames;
  size_t nframes, frames_cap;
  int code_depth;
  uint64_t code_start;
  char code_name[8];
  struct kept code_key; /* its rid or id */
  struct kept code_pos;
  uint64_t code_offset;
  /* Our own line count: expat's costs a scan per call. Position of byte
   * pos_upto: line pos_line, pos_col characters into it. */
  uint64_t pos_upto;
  unsigned long pos_line, pos_col;
  struct code_ref *codes;
  size_t ncodes, codes_cap;
  struct xmt_buf seg_text;
  int target_content;
};

/* --- Small helpers ----------------------------------------------------------
 */

/* 1 when a and b are the same string; the first letters are compared
 * before a call, since most names differ there. */
static int same(const char *a, const char *b) {
  return a[0] == b[0] && strcmp(a, b) == 0;
}

static const char *attr(const char **atts, const char *name) {
  for (; atts[0] != NULL; atts += 2)
    if (same(atts[0], name))
      return atts[1];
  return NULL;
}

/* Splits "ns|local"; returns the local name and whether the element is an
 * XLIFF one (the document's namespace, or none as some tools write). */
static const char *xliff_name(const xmt_xliff_reader *r, const char *name,
                              int *is_xliff) {
  /* Nearly every name is in the document's namespace: tried first, without
   * a scan for the bar. */
  if (r->ns != NULL && strncmp(name, r->ns, r->ns_len) == 0 &&
      name[r->ns_len] == '|') {
    *is_xliff = 1;
    return name + r->ns_len + 1;
  }
  const char *bar = strrchr(name, '|');
  if (bar == NULL) {
    *is_xliff = 1;
    return name;
  }
  *is_xliff = r->ns != NULL && strlen(r->ns) == (size_t)(bar - name) &&
              memcmp(name, r->ns, (size_t)(bar - name)) == 0;
  return bar + 1;
}

/* 1 when name is "NS|local". */
static int ns_name(const char *name, const char *ns, const char *local) {
  size_t n = strlen(ns);
  return strncmp(name, ns, n) == 0 && name[n] == '|' &&
         strcmp(name + n + 1, local) == 0;
}

static unsigned long cur_line(const xmt_xliff_reader *r) {
  return (unsigned long)XML_GetCurrentLineNumber(r->parser);
}

static unsigned long cur_column(const xmt_xliff_reader *r) {
  return (unsigned long)XML_GetCurrentColumnNumber(r->parser) + 1;
}

static void fail(xmt_xliff_reader *r, xmt_status st, unsigned long line,
                 unsigned long column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void fail(xmt_xliff_reader *r, xmt_status st, unsigned long line,
                 unsigned long column, const char *fmt, ...) {
  if (r->status != XMT_OK)
    return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  /* clang-tidy 14 misreads va_start in a function with a format attribute */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->status = st;
  xmt_error_set(&r->err, st, r->filename, line, column,
                r->unit != NULL ? r->unit->id : NULL, "%s", msg);
  XML_StopParser(r->parser, XML_FALSE);
}

static void fail_status(xmt_xliff_reader *r, xmt_status st) {
  fail(r, st, cur_line(r), cur_column(r), "%s", xmt_strerror(st));
}

static const char *window_at(const xmt_xliff_reader *r, uint64_t pos) {
  return r->window.data + (pos - r->base);
}

/* Line and 1-based column of byte `to`, counting from pos_upto (the bytes
 * in between must still be in the window). */
static void locate(const xmt_xliff_reader *r, uint64_t to, unsigned long *line,
                   unsigned long *col) {
  const char *p = window_at(r, r->pos_upto), *end = window_at(r, to);
  const char *nl;
  unsigned long l = r->pos_line, c = r->pos_col;
  while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
    l++;
    c = 0;
    p = nl + 1;
  }
  for (; p < end; p++)
    c += ((unsigned char)*p & 0xC0) != 0x80; /* lead bytes only */
  *line = l;
  *col = c + 1;
}

static void advance_position(xmt_xliff_reader *r, uint64_t to) {
  if (to <= r->pos_upto)
    return;
  unsigned long col;
  locate(r, to, &r->pos_line, &col);
  r->pos_col = col - 1;
  r->pos_upto = to;
}

static void emit_skeleton(xmt_xliff_reader *r, uint64_t upto) {
  if (upto <= r->flushed || r->status != XMT_OK)
    return;
  advance_position(r, upto);
  if (r->cb.skeleton(r->user, window_at(r, r->flushed),
                     (size_t)(upto - r->flushed)) != 0)
    fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
         "stopped by the skeleton callback");
  r->flushed = upto;
}

static int inherited_translate(const xmt_xliff_reader *r) {
  return r->ntranslate == 0 || r->translate[r->ntranslate - 1] == '1';
}

static void push_translate(xmt_xliff_reader *r, const char *value) {
  if (r->ntranslate == r->translate_cap) {
    char *t =
        xmt_grow_array(r->translate, &r->translate_cap, r->ntranslate + 1, 1);
    if (t == NULL) {
      fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    r->translate = t;
  }
  int yes = value != NULL ? strcmp(value, "no") != 0 : inherited_translate(r);
  r->translate[r->ntranslate++] = yes ? '1' : '0';
}

static void push_frame(xmt_xliff_reader *r, enum frame f) {
  if (r->nframes == r->frames_cap) {
    char *fr = xmt_grow_array(r->frames, &r->frames_cap, r->nframes + 1, 1);
    if (fr == NULL) {
      fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    r->frames = fr;
  }
  r->frames[r->nframes++] = (char)f;
}

static void keep(xmt_xliff_reader *r, struct kept *k, const char *value) {
  xmt_buf_reset(&k->buf);
  k->set = value != NULL;
  if (value != NULL && xmt_buf_append_str(&k->buf, value) != XMT_OK)
    fail_status(r, XMT_ERR_NOMEM);
}

static const char *kept(const struct kept *k) {
  return !k->set ? NULL : k->buf.data != NULL ? k->buf.data : "";
}

static void set_string(xmt_xliff_reader *r, char **dst, const char *value) {
  free(*dst);
  *dst = NULL;
  if (value != NULL && (*dst = xmt_strdup(value)) == NULL)
    fail_status(r, XMT_ERR_NOMEM);
}

/* --- Pairing of bpt/ept within a part -------------------------------------
 * XLIFF 1.2 lets a bx or ex stand alone: its partner is in another unit or
 * segment, and a lone one becomes an isolated code. A bpt and its ept
 * belong to one <source> (or seg-source), so a lone one is an error. */

static void clear_codes(xmt_xliff_reader *r) {
  for (size_t i = 0; i < r->ncodes; i++)
    free(r->codes[i].key);
  r->ncodes = 0;
}

static void note_code(xmt_xliff_reader *r, const char *name, const char *key) {
  struct code_ref *codes =
      xmt_grow_array(r->codes, &r->codes_cap, r->ncodes + 1, sizeof *codes);
  if (codes == NULL) {
    fail_status(r, XMT_ERR_NOMEM);
    return;
  }
  r->codes = codes;
  struct code_ref *c = &r->codes[r->ncodes];
  c->name = name[0] == 'b' ? "bpt" : "ept";
  c->key = xmt_strdup(key != NULL ? key : "");
  c->offset = r->code_offset;
  c->matched = 0;
  if (c->key == NULL)
    fail_status(r, XMT_ERR_NOMEM);
  else
    r->ncodes++;
}

static void fail_unpaired(xmt_xliff_reader *r, const struct code_ref *c,
                          const char *part, const char *problem) {
  unsigned long line, column;
  locate(r, c->offset, &line, &column);
  fail(r, XMT_ERR_INLINE, line, column,
       "unpaired <%s id=\"%.40s\"> in <%s>: %s", c->name, c->key, part,
       problem);
}

/* Every bpt needs a later ept with the same id (or rid), and every ept an
 * earlier bpt. */
static void check_codes_paired(xmt_xliff_reader *r, const char *part) {
  for (size_t i = 0; i < r->ncodes && r->status == XMT_OK; i++) {
    struct code_ref *o = &r->codes[i];
    if (strcmp(o->name, "bpt") != 0)
      continue;
    for (size_t j = i + 1; j < r->ncodes; j++)
      if (!r->codes[j].matched && strcmp(r->codes[j].name, "ept") == 0 &&
          strcmp(r->codes[j].key, o->key) == 0) {
        r->codes[j].matched = o->matched = 1;
        break;
      }
    if (!o->matched)
      fail_unpaired(r, o, part, "no matching <ept> follows");
  }
  for (size_t j = 0; j < r->ncodes && r->status == XMT_OK; j++)
    if (!r->codes[j].matched && strcmp(r->codes[j].name, "ept") == 0)
      fail_unpaired(r, &r->codes[j], part, "no matching <bpt> before it");
  clear_codes(r);
}

/* --- Units
 * -------------------------------------------------------------------- */

static size_t unit_offset(const xmt_xliff_reader *r, uint64_t pos) {
  return (size_t)(pos - r->unit_start);
}

static void start_unit(xmt_xliff_reader *r, const char **atts, uint64_t at,
                       int count) {
  emit_skeleton(r, at);
  /* New elements take the prefix of the unit's own: in scope, and bound to
   * the XLIFF namespace. */
  const char *tag = window_at(r, at) + 1;
  size_t nl = 0, pl = 0;
  while (nl < (size_t)count - 1 && !xmt_is_xml_space(tag[nl]) &&
         tag[nl] != '>' && tag[nl] != '/')
    if (tag[nl++] == ':')
      pl = nl;
  /* One pass over the attributes, not one per name. */
  const char *translate = NULL, *mq_locked = NULL, *mq_status = NULL;
  const char *approved = NULL, *space = NULL, *id = NULL, *resname = NULL;
  for (const char **a = atts; a[0] != NULL; a += 2) {
    const char *n = a[0];
    const char **v = same(n, "id")              ? &id
                     : same(n, "resname")       ? &resname
                     : same(n, "translate")     ? &translate
                     : same(n, "approved")      ? &approved
                     : same(n, XML_NS "|space") ? &space
                     : same(n, MQ_NS "|locked") ? &mq_locked
                     : same(n, MQ_NS "|status") ? &mq_status
                                                : NULL;
    if (v != NULL && *v == NULL) /* the first, as attr() finds it */
      *v = a[1];
  }
  int mq = mq_status != NULL || mq_locked != NULL;
  /* The unit's strings come with it, in one allocation. */
  const char *values[] = {id, resname, r->source_language, r->target_language,
                          mq ? r->mq_prefix : NULL};
  size_t lens[sizeof values / sizeof *values], total = pl + 1;
  for (size_t i = 0; i < sizeof values / sizeof *values; i++)
    total += values[i] != NULL ? (lens[i] = strlen(values[i])) + 1 : 0;
  xmt_xliff_unit *u = xmt_unit_new(total);
  if (u == NULL) {
    fail_status(r, XMT_ERR_NOMEM);
    return;
  }
  r->unit = u;
  r->unit_start = at;
  r->unit_depth = r->depth;
  r->part = PART_NONE;
  advance_position(r, at);
  u->line = r->pos_line;
  u->column = r->pos_col + 1;
  u->head_end = (size_t)count;
  u->version = r->version;
  u->mq = mq;
  u->translatable =
      translate != NULL ? strcmp(translate, "no") != 0 : inherited_translate(r);
  if (mq_locked != NULL && strcasecmp(mq_locked, "no") != 0 &&
      strcasecmp(mq_locked, "false") != 0 && mq_locked[0] != '\0')
    u->translatable = 0; /* memoQ's locked rows are not to be touched */
  u->approved = approved != NULL && strcmp(approved, "yes") == 0;
  u->preserve_space = space != NULL && strcmp(space, "preserve") == 0;
  char **fields[] = {&u->id, &u->resname, &u->source_language,
                     &u->target_language, &u->mq_prefix};
  char *p = u->prefix = u->strings;
  memcpy(p, tag, pl);
  p[pl] = '\0';
  p += pl + 1;
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    if (values[i] == NULL)
      continue;
    memcpy(p, values[i], lens[i] + 1);
    *fields[i] = p;
    p += lens[i] + 1;
  }
}

static void finish_segment(xmt_xliff_reader *r, const char *mid,
                           size_t inner_start, size_t inner_end) {
  size_t index;
  xmt_status st = xmt_unit_add_segment(r->unit, mid, NULL, &index);
  if (st == XMT_OK) {
    struct xmt_unit_segment *s = &r->unit->segs[index];
    s->inner_start = inner_start;
    s->inner_end = inner_end;
    st = xmt_ib_finish(&r->ib, s->source);
  }
  if (st != XMT_OK)
    fail_status(r, st);
}

/* Source and seg-source must carry the same text; whitespace between
 * segments may differ (Okapi writes newlines there). */
static int same_text_modulo_space(const char *a, size_t alen, const char *b,
                                  size_t blen) {
  size_t i = 0, j = 0;
  for (;;) {
    /* Identical bytes are passed over at once (most of the two texts),
     * then back to the start of a run of spaces they end in: the runs are
     * compared below. */
    size_t n = alen - i < blen - j ? alen - i : blen - j, k = 0;
    while (k + 8 <= n && memcmp(a + i + k, b + j + k, 8) == 0)
      k += 8;
    while (k < n && a[i + k] == b[j + k])
      k++;
    while (k > 0 && xmt_is_xml_space(a[i + k - 1]))
      k--;
    i += k, j += k;
    int sa = 0, sb = 0;
    while (i < alen && xmt_is_xml_space(a[i]))
      i++, sa = 1;
    while (j < blen && xmt_is_xml_space(b[j]))
      j++, sb = 1;
    if (i == alen || j == blen)
      return i == alen && j == blen;
    if ((sa != sb && i > 0 && j > 0) || a[i] != b[j])
      return 0;
    i++, j++;
  }
}

static void start_part(xmt_xliff_reader *r, const char *name, const char **atts,
                       uint64_t at, int count) {
  int is_xliff;
  const char *local = xliff_name(r, name, &is_xliff);
  xmt_xliff_unit *u = r->unit;
  r->part = PART_OTHER;
  r->part_depth = r->depth;
  r->nframes = 0;
  r->code_depth = 0;
  r->in_segment = 0;
  r->target_content = 0;
  xmt_ib_reset(&r->ib);
  clear_codes(r);
  r->tseg = SIZE_MAX;
  if (!is_xliff) {
    if (ns_name(name, SDL_NS, "seg-defs"))
      r->part = PART_SEG_DEFS;
    return;
  }
  size_t start = unit_offset(r, at);
  if (same(local, "source") && u->source.end == 0) {
    r->part = PART_SOURCE;
    u->source.start = start;
    r->segment_inner_start = start + (size_t)count;
  } else if (same(local, "seg-source") && u->seg_source.end == 0) {
    r->part = PART_SEG_SOURCE;
    u->seg_source.start = start;
    u->seg_inner.start = start + (size_t)count;
    xmt_buf_reset(&r->seg_text);
  } else if (same(local, "target") && u->target.end == 0) {
    r->part = PART_TARGET;
    u->target.start = start;
    set_string(r, &u->state, attr(atts, "state"));
  }
}

static void end_part(xmt_xliff_reader *r, uint64_t at, int count) {
  xmt_xliff_unit *u = r->unit;
  size_t end = unit_offset(r, at + (uint64_t)count);
  switch (r->part) {
  case PART_SOURCE:
    u->source.end = end;
    if (u->whole_source == NULL) {
      /* The whole source is also the single segment until a seg-source
       * says otherwise; the two share one segment. */
      size_t index;
      xmt_status st = XMT_ERR_NOMEM;
      if ((u->whole_source = xmt_segment_new()) != NULL)
        st = xmt_ib_finish(&r->ib, u->whole_source);
      if (st == XMT_OK && !u->segmented &&
          (st = xmt_unit_add_segment(u, NULL, u->whole_source, &index)) ==
              XMT_OK) {
        u->segs[index].inner_start = r->segment_inner_start;
        u->segs[index].inner_end = unit_offset(r, at);
      }
      if (st != XMT_OK)
        fail_status(r, st);
    }
    check_codes_paired(r, "source");
    break;
  case PART_SEG_SOURCE:
    u->seg_source.end = end;
    u->seg_inner.end = unit_offset(r, at);
    check_codes_paired(r, "seg-source");
    /* The source's text is its whole segment's (codes take none). */
    size_t slen = 0;
    const char *stext =
        u->whole_source != NULL ? xmt_segment_text(u->whole_source, &slen) : "";
    u->seg_text_differs = !same_text_modulo_space(
        stext, slen, r->seg_text.data != NULL ? r->seg_text.data : "",
        r->seg_text.len);
    break;
  case PART_TARGET: {
    u->target.end = end;
    u->has_target = r->target_content;
    xmt_segment *seg = xmt_segment_new();
    xmt_status st = seg != NULL ? xmt_ib_finish(&r->ib, seg) : XMT_ERR_NOMEM;
    xmt_segment_free(u->existing);
    u->existing = seg;
    if (st != XMT_OK)
      fail_status(r, st);
    clear_codes(r); /* an existing target's codes are the check's business */
    break;
  }
  case PART_NONE:
  case PART_SEG_DEFS:
  case PART_OTHER:
    break;
  }
  r->part = PART_NONE;
}

static void finish_unit(xmt_xliff_reader *r, uint64_t end) {
  xmt_xliff_unit *u = r->unit;
  r->unit = NULL;
  xmt_unit_resolve(u);
  /* In a block shared with the units around it, of its exact size: one
   * allocation each took malloc's slow path for large chunks from 1 KiB
   * on. */
  xmt_status st =
      xmt_unit_set_raw(u, &r->raw_block, window_at(r, r->unit_start),
                       (size_t)(end - r->unit_start));
  advance_position(r, end);
  r->flushed = end;
  r->safe_end = end;
  if (st != XMT_OK) {
    xmt_xliff_unit_free(u);
    fail_status(r, st);
    return;
  }
  if (r->cb.unit == NULL) {
    xmt_xliff_unit_free(u);
    if (r->cb.skeleton(r->user, window_at(r, r->unit_start),
                       (size_t)(end - r->unit_start)) != 0)
      fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
           "stopped by the skeleton callback");
    return;
  }
  if (r->cb.unit(r->user, u) != 0)
    fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
         "stopped by the unit callback");
}

/* --- Inline content ---------------------------------------------------------
 */

static int builder_active(const xmt_xliff_reader *r) {
  return r->part == PART_SOURCE || r->part == PART_TARGET ||
         (r->part == PART_SEG_SOURCE && r->in_segment);
}

/* --- Codes between segments --------------------------------------------------
 * Trados's targets hold some codes of a segment outside its mrk; the
 * writer needs to know where, and which codes the seg-source itself holds
 * between its segments. */

/* 1 between the segments of a seg-source, or of the target of a unit
 * with segments. */
static int outside_segments(const xmt_xliff_reader *r) {
  return (r->part == PART_SEG_SOURCE && !r->in_segment) ||
         (r->part == PART_TARGET && r->unit->segmented && r->tseg == SIZE_MAX);
}

/* Records an outside element from `at` whose start tag ends at tag_end;
 * end 0: a pair still open (its frame is the next one pushed). */
static void note_outside(xmt_xliff_reader *r, uint64_t at, uint64_t tag_end,
                         uint64_t end) {
  size_t k;
  xmt_xliff_unit *u = r->unit;
  if (xmt_unit_add_outside(u, &k) != XMT_OK) {
    fail_status(r, XMT_ERR_NOMEM);
    return;
  }
  struct xmt_outside_code *c = &u->outside[k];
  c->whole.start = unit_offset(r, at);
  c->tag_end = unit_offset(r, tag_end);
  c->whole.end = c->close_start = end != 0 ? unit_offset(r, end) : 0;
  c->frame = r->nframes;
  c->in_target = r->part == PART_TARGET;
}

/* A segment starts: the outside pairs open around it hold it. */
static void note_segment_held(xmt_xliff_reader *r) {
  xmt_xliff_unit *u = r->unit;
  for (size_t k = u->noutside;
       k-- > 0 && u->outside[k].in_target == (r->part == PART_TARGET);)
    if (u->outside[k].whole.end == 0)
      u->outside[k].holds_segment = 1;
}

/* The end tag at `at` closes the outside pair of the current frame, if
 * one is open there. */
static void close_outside(xmt_xliff_reader *r, uint64_t at, int count) {
  xmt_xliff_unit *u = r->unit;
  for (size_t k = u->noutside;
       k-- > 0 && u->outside[k].in_target == (r->part == PART_TARGET);) {
    struct xmt_outside_code *c = &u->outside[k];
    if (c->whole.end == 0 && c->frame == r->nframes) {
      c->close_start = unit_offset(r, at);
      c->whole.end = unit_offset(r, at + (uint64_t)count);
      return;
    }
  }
}

static void inline_start(xmt_xliff_reader *r, const char *name,
                         const char **atts, uint64_t at, int count) {
  if (r->code_depth > 0) {
    r->code_depth++;
    return;
  }
  if (r->part == PART_TARGET) {
    r->target_content = 1;
    if (r->tseg != SIZE_MAX)
      r->unit->tsegs[r->tseg].empty = 0;
  }
  int is_xliff;
  const char *local = xliff_name(r, name, &is_xliff);
  const char *tag = window_at(r, at);
  int self_closing = count >= 2 && tag[count - 2] == '/';
  xmt_status st = XMT_OK;
  if (is_xliff && same(local, "mrk") &&
      (r->part == PART_SEG_SOURCE || r->part == PART_TARGET) &&
      attr(atts, "mtype") != NULL && strcmp(attr(atts, "mtype"), "seg") == 0) {
    note_segment_held(r);
    push_frame(r, FRAME_SEGMENT);
    if (r->part == PART_SEG_SOURCE) {
      if (!r->unit->segmented) {
        xmt_unit_clear_segments(r->unit);
        r->unit->segmented = 1;
      }
      set_string(r, &r->segment_mid, attr(atts, "mid"));
      r->segment_inner_start = unit_offset(r, at + (uint64_t)count);
      r->in_segment = 1;
      xmt_ib_reset(&r->ib);
    } else if (r->tseg == SIZE_MAX) {
      size_t k;
      xmt_xliff_unit *u = r->unit;
      if (xmt_unit_add_tseg(u, attr(atts, "mid"), &k) != XMT_OK) {
        fail_status(r, XMT_ERR_NOMEM);
        return;
      }
      u->tsegs[k].whole.start = unit_offset(r, at);
      u->tsegs[k].inner.start = unit_offset(r, at + (uint64_t)count);
      u->tsegs[k].self_closing = self_closing;
      r->tseg = k;
    }
    return;
  }
  if (is_xliff && (same(local, "g") || same(local, "mrk")) && !self_closing) {
    if (outside_segments(r))
      note_outside(r, at, at + (uint64_t)count, 0);
    if (builder_active(r)) {
      const char *key = attr(atts, "id");
      if (key == NULL)
        key = attr(atts, "mid");
      st = xmt_ib_open(&r->ib, local, key, tag, (size_t)count);
      push_frame(r, FRAME_PAIR);
    } else {
      push_frame(r, FRAME_OUTSIDE);
    }
    if (st != XMT_OK)
      fail_status(r, st);
    return;
  }
  /* A code element, or anything else: kept whole as one code. */
  r->code_depth = 1;
  r->code_start = at;
  r->code_offset = at;
  const char *code = is_xliff && (xmt_is_code_element(local) ||
                                  same(local, "g") || same(local, "mrk"))
                         ? local
                         : "?";
  memcpy(r->code_name, code, strlen(code) + 1); /* at most "bpt" */
  const char *rid = attr(atts, "rid");
  keep(r, &r->code_key, rid != NULL ? rid : attr(atts, "id"));
  keep(r, &r->code_pos, attr(atts, "pos"));
}

static void inline_end(xmt_xliff_reader *r, uint64_t at, int count) {
  xmt_status st = XMT_OK;
  if (r->code_depth > 0) {
    if (--r->code_depth > 0)
      return;
    const char *name = r->code_name;
    uint64_t end = at + (uint64_t)count;
    if (builder_active(r))
      st = xmt_ib_code(&r->ib, xmt_code_kind(name, kept(&r->code_pos)), name,
                       kept(&r->code_key), window_at(r, r->code_start),
                       (size_t)(end - r->code_start));
    if (st == XMT_OK &&
        (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE) &&
        (strcmp(name, "bpt") == 0 || strcmp(name, "ept") == 0))
      note_code(r, name, kept(&r->code_key));
    if (st == XMT_OK && outside_segments(r))
      note_outside(r, r->code_start, end, end);
    if (st != XMT_OK)
      fail_status(r, st);
    return;
  }
  if (r->nframes == 0) {
    fail_status(r, XMT_ERR_INTERNAL);
    return;
  }
  switch ((enum frame)r->frames[--r->nframes]) {
  case FRAME_SEGMENT:
    if (r->part == PART_SEG_SOURCE) {
      r->in_segment = 0;
      finish_segment(r, r->segment_mid, r->segment_inner_start,
                     unit_offset(r, at));
    } else if (r->tseg != SIZE_MAX) {
      struct xmt_target_seg *t = &r->unit->tsegs[r->tseg];
      t->whole.end = unit_offset(r, at + (uint64_t)count);
      t->inner.end = t->self_closing ? t->inner.start : unit_offset(r, at);
      r->tseg = SIZE_MAX;
    }
    break;
  case FRAME_PAIR:
    st = xmt_ib_close(&r->ib, window_at(r, at), (size_t)count);
    if (outside_segments(r))
      close_outside(r, at, count);
    break;
  case FRAME_OUTSIDE:
    if (outside_segments(r))
      close_outside(r, at, count);
    break;
  }
  if (st != XMT_OK)
    fail_status(r, st);
}

/* --- expat handlers
 * ------------------------------------------------------------ */

/* XMT_XLIFF_1x for "1.0" to "1.2" (of a version attribute or the end of a
 * namespace name), else 0. */
static int version_of(const char *v, size_t len) {
  if (len != 3 || v[0] != '1' || v[1] != '.' || v[2] < '0' || v[2] > '2')
    return 0;
  return 10 + (v[2] - '0');
}

/* XLIFF 1.0 has no namespace; 1.1 and 1.2 have their own, and the output
 * keeps the version and namespace of the input. */
static void check_root(xmt_xliff_reader *r, const char *name,
                       const char **atts) {
  const char *bar = strrchr(name, '|');
  const char *local = bar != NULL ? bar + 1 : name;
  size_t pl = sizeof XLIFF_NS - 1;
  int ns_version = 0;
  if (bar != NULL && (size_t)(bar - name) > pl &&
      memcmp(name, XLIFF_NS, pl) == 0)
    ns_version = version_of(name + pl - 2, (size_t)(bar - name) - pl + 2);
  const char *version = attr(atts, "version");
  int v = version != NULL ? version_of(version, strlen(version)) : 0;
  if (strcmp(local, "xliff") != 0) {
    fail(r, XMT_ERR_NOT_XLIFF, cur_line(r), cur_column(r),
         "root element is <%s>, not <xliff>: not an XLIFF 1.x document", local);
    return;
  }
  if ((bar != NULL && ns_version == 0) ||
      (version != NULL && v == 0 && ns_version == 0)) {
    fail(r, XMT_ERR_NOT_XLIFF, cur_line(r), cur_column(r),
         "XLIFF version %s is not supported (only XLIFF 1.0, 1.1 and 1.2)",
         version != NULL ? version : "of another namespace");
    return;
  }
  r->version = ns_version ? ns_version : v ? v : XMT_XLIFF_12;
  if (bar != NULL) {
    free(r->ns);
    if ((r->ns = malloc((size_t)(bar - name) + 1)) == NULL) {
      fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    memcpy(r->ns, name, (size_t)(bar - name));
    r->ns[bar - name] = '\0';
    r->ns_len = (size_t)(bar - name);
  }
}

/* memoQ's attributes are written with the prefix the document binds. */
static void on_ns_start(void *user, const char *prefix, const char *uri) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK || prefix == NULL || uri == NULL ||
      strcmp(uri, MQ_NS) != 0)
    return;
  char buf[128];
  snprintf(buf, sizeof buf, "%s:", prefix);
  set_string(r, &r->mq_prefix, buf);
}

static void on_start(void *user, const char *name, const char **atts) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK)
    return;
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  int count = XML_GetCurrentByteCount(r->parser);
  r->depth++;
  if (!r->seen_root) {
    r->seen_root = 1;
    check_root(r, name, atts);
    return;
  }
  if (r->unit == NULL) {
    int is_xliff;
    const char *local = xliff_name(r, name, &is_xliff);
    r->safe_end = at + (uint64_t)count;
    if (!is_xliff)
      return;
    if (same(local, "trans-unit")) {
      start_unit(r, atts, at, count);
    } else if (same(local, "group")) {
      push_translate(r, attr(atts, "translate"));
    } else if (same(local, "file")) {
      r->ntranslate = 0;
      push_translate(r, NULL);
      set_string(r, &r->source_language, attr(atts, "source-language"));
      set_string(r, &r->target_language, attr(atts, "target-language"));
      if (r->cb.file != NULL && r->status == XMT_OK) {
        emit_skeleton(r, at);
        /* Our own line count: expat's scans from its last call. */
        advance_position(r, at);
        struct xmt_xliff_file_info info = {
            attr(atts, "original"), r->source_language, r->target_language,
            attr(atts, "datatype"), r->pos_line};
        if (r->status == XMT_OK &&
            r->cb.file(r->user, &info, window_at(r, at), (size_t)count) != 0)
          fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
               "stopped by the file callback");
        advance_position(r, at + (uint64_t)count);
        r->flushed = at + (uint64_t)count;
      }
    }
    return;
  }
  if (r->depth == r->unit_depth + 1) {
    start_part(r, name, atts, at, count);
    return;
  }
  if (r->part == PART_SEG_DEFS && r->depth == r->part_depth + 1 &&
      ns_name(name, SDL_NS, "seg")) {
    size_t k;
    xmt_xliff_unit *u = r->unit;
    if (xmt_unit_add_sdlseg(u, attr(atts, "id"), &k) != XMT_OK) {
      fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    const char *locked = attr(atts, "locked");
    const char *conf = attr(atts, "conf"), *origin = attr(atts, "origin");
    u->sdlsegs[k].locked = locked != NULL && strcmp(locked, "true") == 0;
    u->sdlsegs[k].confirmed =
        conf != NULL && (strcmp(conf, "Translated") == 0 ||
                         strcmp(conf, "ApprovedTranslation") == 0 ||
                         strcmp(conf, "ApprovedSignOff") == 0);
    u->sdlsegs[k].untouched =
        origin == NULL || strcmp(origin, "not-translated") == 0;
    u->sdlsegs[k].tag.start = unit_offset(r, at);
    u->sdlsegs[k].tag.end = unit_offset(r, at + (uint64_t)count);
    return;
  }
  if (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE ||
      r->part == PART_TARGET)
    inline_start(r, name, atts, at, count);
}

static void on_end(void *user, const char *name) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK)
    return;
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  int count = XML_GetCurrentByteCount(r->parser);
  if (r->unit == NULL) {
    int is_xliff;
    const char *local = xliff_name(r, name, &is_xliff);
    if (is_xliff && r->ntranslate > 0 &&
        (same(local, "group") || same(local, "file")))
      r->ntranslate--;
    r->safe_end = at + (uint64_t)count;
  } else if (r->depth == r->unit_depth) {
    finish_unit(r, at + (uint64_t)count);
  } else if (r->depth == r->part_depth && r->part != PART_NONE) {
    end_part(r, at, count);
  } else if (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE ||
             r->part == PART_TARGET) {
    inline_end(r, at, count);
  }
  r->depth--;
}

static int is_space(const char *s, int len) {
  for (int i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
      return 0;
  return 1;
}

static void on_text(void *user, const char *text, int len) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK || r->unit == NULL || r->code_depth > 0)
    return;
  xmt_status st = XMT_OK;
  switch (r->part) {
  case PART_SOURCE:
    st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_SEG_SOURCE:
    st = xmt_buf_append(&r->seg_text, text, (size_t)len);
    if (st == XMT_OK && r->in_segment)
      st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_TARGET:
    if (!is_space(text, len)) {
      r->target_content = 1;
      if (r->tseg != SIZE_MAX) {
        r->unit->tsegs[r->tseg].empty = 0;
        r->unit->tsegs[r->tseg].text = 1;
      }
    }
    st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_NONE:
  case PART_SEG_DEFS:
  case PART_OTHER:
    break;
  }
  if (st != XMT_OK)
    fail_status(r, st);
}

/* --- Entities ---------------------------------------------------------------
 * External entities are never read. Outside translatable text a reference
 * to one only passes through with the bytes around it; inside, its text
 * would be missing from what is translated, so the run stops. */

static void refuse_entity(xmt_xliff_reader *r, const char *name,
                          const char *why) {
  if (builder_active(r) && r->keep_entities) {
    char ref[300];
    int n = snprintf(ref, sizeof ref, "&%.256s;", name);
    /* The reference as a placeholder that is written back as it is. */
    xmt_status st =
        xmt_ib_code(&r->ib, XMT_TAG_PLACEHOLDER, "x", NULL, ref, (size_t)n);
    if (st != XMT_OK)
      fail_status(r, st);
    return;
  }
  if (builder_active(r))
    fail(r, XMT_ERR_XML, cur_line(r), cur_column(r),
         "entity &%s; in translatable text is %s: xliffmt does not read "
         "it, and translating without its text would lose it",
         name, why);
}

static int XMLCALL on_external_entity(XML_Parser parser,
                                      const XML_Char *context,
                                      const XML_Char *base,
                                      const XML_Char *system_id,
                                      const XML_Char *public_id) {
  (void)base, (void)public_id;
  xmt_xliff_reader *r = XML_GetUserData(parser);
  /* The context ends with the entity's name, after any namespace
   * bindings. */
  const char *name = context != NULL ? context : "?";
  const char *ff = strrchr(name, '\f');
  if (ff != NULL)
    name = ff + 1;
  char why[320];
  snprintf(why, sizeof why, "external (SYSTEM \"%.256s\")",
           system_id != NULL ? system_id : "");
  refuse_entity(r, name, why);
  return XML_STATUS_OK;
}

static void XMLCALL on_skipped_entity(void *user, const XML_Char *name,
                                      int is_parameter_entity) {
  if (!is_parameter_entity)
    refuse_entity(user, name, "not declared in the document");
}

/* --- Public API ------------------------------------------------------------
 */

xmt_xliff_reader *
xmt_xliff_reader_new(const struct xmt_xliff_reader_callbacks *callbacks,
                     void *user) {
  if (callbacks == NULL || callbacks->skeleton == NULL)
    return NULL;
  xmt_xliff_reader *r = calloc(1, sizeof *r);
  if (r == NULL)
    return NULL;
  r->cb = *callbacks;
  r->user = user;
  r->pos_line = 1;
  r->parser = XML_ParserCreateNS("UTF-8", '|');
  if (r->parser == NULL) {
    free(r);
    return NULL;
  }
  XML_SetUserData(r->parser, r);
  XML_SetElementHandler(r->parser, on_start, on_end);
  XML_SetCharacterDataHandler(r->parser, on_text);
  XML_SetExternalEntityRefHandler(r->parser, on_external_entity);
  XML_SetSkippedEntityHandler(r->parser, on_skipped_entity);
  XML_SetStartNamespaceDeclHandler(r->parser, on_ns_start);
  r->tseg = SIZE_MAX;
  xmt_ib_init(&r->ib);
  return r;
}

void xmt_xliff_reader_free(xmt_xliff_reader *r) {
  if (r == NULL)
    return;
  XML_ParserFree(r->parser);
  free(r->filename);
  xmt_error_clear(&r->err);
  xmt_buf_free(&r->sniff);
  xmt_buf_free(&r->window);
  xmt_buf_free(&r->input);
  xmt_raw_block_release(r->raw_block);
  free(r->translate);
  free(r->source_language);
  free(r->target_language);
  free(r->ns);
  free(r->mq_prefix);
  xmt_xliff_unit_free(r->unit);
  xmt_ib_free(&r->ib);
  free(r->segment_mid);
  free(r->frames);
  xmt_buf_free(&r->code_key.buf);
  xmt_buf_free(&r->code_pos.buf);
  clear_codes(r);
  free(r->codes);
  xmt_buf_free(&r->seg_text);
  free(r);
}

void xmt_xliff_reader_keep_entities(xmt_xliff_reader *r, int keep) {
  r->keep_entities = keep != 0;
}

xmt_status xmt_xliff_reader_set_filename(xmt_xliff_reader *r,
                                         const char *name) {
  char *copy = xmt_strdup(name);
  if (name != NULL && copy == NULL)
    return XMT_ERR_NOMEM;
  free(r->filename);
  r->filename = copy;
  return XMT_OK;
}

const char *xmt_xliff_reader_version(const xmt_xliff_reader *r) {
  return r->version == XMT_XLIFF_10   ? "1.0"
         : r->version == XMT_XLIFF_11 ? "1.1"
                                      : "1.2";
}

enum xmt_encoding xmt_xliff_reader_encoding(const xmt_xliff_reader *r) {
  return r->enc;
}

const struct xmt_error *xmt_xliff_reader_error(const xmt_xliff_reader *r) {
  return &r->err.pub;
}

/* Names the error expat stopped on; invalid UTF-8 gets its own message. */
static void expat_failed(xmt_xliff_reader *r) {
  enum XML_Error code = XML_GetErrorCode(r->parser);
  unsigned long line = cur_line(r), column = cur_column(r);
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  if (code == XML_ERROR_INVALID_TOKEN && r->enc == XMT_ENC_UTF8 &&
      at >= r->base && at < r->base + r->window.len) {
    const unsigned char *p = (const unsigned char *)window_at(r, at);
    size_t avail = (size_t)(r->base + r->window.len - at);
    uint32_t cp;
    if (*p >= 0x80 && xmt_utf8_decode(p, avail, &cp) == 0) {
      fail(r, XMT_ERR_ENCODING, line, column,
           "invalid UTF-8 byte 0x%02X (is the encoding declaration right?)",
           (unsigned)*p);
      return;
    }
  }
  /* expat points at the name in "</name>"; report the "<" as elsewhere. */
  if (code == XML_ERROR_TAG_MISMATCH && column > 2)
    column -= 2;
  fail(r, XMT_ERR_XML, line, column, "%s", XML_ErrorString(code));
}

static void compact_window(xmt_xliff_reader *r) {
  size_t done = (size_t)(r->flushed - r->base);
  if (done == 0 || done < r->window.len / 2)
    return;
  memmove(r->window.data, r->window.data + done, r->window.len - done);
  r->window.len -= done;
  r->base = r->flushed;
}

/* Parses the len bytes at the end of the window. */
static xmt_status parse_window(xmt_xliff_reader *r, size_t len, int is_final) {
  size_t before = r->window.len - len;
  /* A byte order mark takes no column. */
  if (r->base == 0 && before == 0 && len >= 3 &&
      memcmp(r->window.data, "\xEF\xBB\xBF", 3) == 0)
    r->pos_upto = 3;
  if (XML_Parse(r->parser, r->window.data + before, (int)len, is_final) ==
      XML_STATUS_ERROR) {
    if (r->status == XMT_OK)
      expat_failed(r);
    return r->status;
  }
  if (r->status != XMT_OK)
    return r->status;
  if (r->unit == NULL)
    emit_skeleton(r, is_final ? r->base + r->window.len : r->safe_end);
  if (is_final && r->status == XMT_OK && !r->seen_root)
    fail(r, XMT_ERR_NOT_XLIFF, 1, 1, "%s", "no root element");
  compact_window(r);
  return r->status;
}

static xmt_status feed(xmt_xliff_reader *r, const char *utf8, size_t len,
                       int is_final) {
  xmt_status st = xmt_buf_append(&r->window, utf8, len);
  if (st != XMT_OK) {
    fail_status(r, st);
    return r->status;
  }
  return parse_window(r, len, is_final);
}

static xmt_status start(xmt_xliff_reader *r, int is_final) {
  char msg[256];
  unsigned long column;
  xmt_status st = xmt_encoding_detect(r->sniff.data, r->sniff.len, is_final,
                                      &r->enc, msg, sizeof msg, &column);
  if (st == XMT_ERR_USAGE)
    return XMT_OK; /* need more bytes */
  if (st != XMT_OK) {
    r->status = st;
    xmt_error_set(&r->err, st, r->filename, 1, column, NULL, "%s", msg);
    return st;
  }
  r->started = 1;
  xmt_decoder_init(&r->dec, r->enc);
  return XMT_OK;
}

static xmt_status decode_and_feed(xmt_xliff_reader *r, const char *bytes,
                                  size_t len, int is_final) {
  if (r->enc == XMT_ENC_UTF8)
    return feed(r, bytes, len, is_final);
  struct xmt_buf utf8 = {0};
  xmt_status st = xmt_decoder_run(&r->dec, bytes, len, is_final, &utf8);
  if (st == XMT_ERR_ENCODING) {
    r->status = st;
    xmt_error_set(&r->err, st, r->filename, r->dec.line, r->dec.column + 1,
                  NULL, "byte sequence invalid in %s",
                  xmt_encoding_name(r->enc));
  } else if (st != XMT_OK) {
    r->status = st;
    xmt_error_set(&r->err, st, r->filename, 0, 0, NULL, "%s", xmt_strerror(st));
  } else {
    st = feed(r, utf8.data != NULL ? utf8.data : "", utf8.len, is_final);
  }
  xmt_buf_free(&utf8);
  return st;
}

xmt_status xmt_xliff_reader_parse(xmt_xliff_reader *r, const char *bytes,
                                  size_t len, int is_final) {
  if (r->status != XMT_OK)
    return r->status;
  if (!r->started) {
    xmt_status st = xmt_buf_append(&r->sniff, bytes, len);
    if (st == XMT_OK)
      st = start(r, is_final);
    if (st != XMT_OK && r->status == XMT_OK) {
      r->status = st;
      xmt_error_set(&r->err, st, r->filename, 0, 0, NULL, "%s",
                    xmt_strerror(st));
    }
    if (st != XMT_OK || !r->started)
      return st;
    bytes = r->sniff.data;
    len = r->sniff.len;
  }
  /* Keep each expat call within int range and the decode buffer small. */
  do {
    size_t n = len > FEED_MAX ? FEED_MAX : len;
    int last = is_final && n == len;
    xmt_status st = decode_and_feed(r, bytes, n, last);
    if (st != XMT_OK)
      return st;
    bytes += n;
    len -= n;
  } while (len > 0);
  if (r->sniff.data != NULL)
    xmt_buf_free(&r->sniff);
  return XMT_OK;
}

void *xmt_xliff_reader_buffer(xmt_xliff_reader *r, size_t len) {
  /* UTF-8 goes straight into the window, where expat reads it. */
  r->in_window = r->status == XMT_OK && r->started && r->enc == XMT_ENC_UTF8 &&
                 len <= FEED_MAX;
  struct xmt_buf *b = r->in_window ? &r->window : &r->input;
  if (!r->in_window)
    xmt_buf_reset(b);
  if (xmt_buf_grow(b, len) != XMT_OK)
    return NULL;
  return b->data + b->len;
}

xmt_status xmt_xliff_reader_parse_buffer(xmt_xliff_reader *r, size_t len,
                                         int is_final) {
  if (!r->in_window)
    return xmt_xliff_reader_parse(r, r->input.data, len, is_final);
  r->in_window = 0;
  if (r->status != XMT_OK)
    return r->status;
  r->window.len += len;
  r->window.data[r->window.len] = '\0';
  return parse_window(r, len, is_final);
}
