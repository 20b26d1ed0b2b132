/* reader_unit.c -- the XLIFF reader's trans-units: a unit's start tag and
 * attributes, its parts (source, seg-source, target), the segments of
 * seg-source and target, and the check that bx/ex and bpt/ept pair up
 * within a part. Apart from reader.c because it assembles one unit from
 * events; reader.c decides which events reach it. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include "reader_private.h"

/* --- Pairing of bpt/ept within a part -------------------------------------
 * XLIFF 1.2 lets a bx or ex stand alone: its partner is in another unit or
 * segment, and a lone one becomes an isolated code. A bpt and its ept
 * belong to one <source> (or seg-source), so a lone one is an error. */

void xmt_reader_clear_codes(xmt_xliff_reader *r) {
  for (size_t i = 0; i < r->ncodes; i++)
    free(r->codes[i].key);
  r->ncodes = 0;
}

void xmt_reader_note_code(xmt_xliff_reader *r, const char *name,
                          const char *key) {
  struct code_ref *codes =
      xmt_grow_array(r->codes, &r->codes_cap, r->ncodes + 1, sizeof *codes);
  if (codes == NULL) {
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
    return;
  }
  r->codes = codes;
  struct code_ref *c = &r->codes[r->ncodes];
  c->name = name[0] == 'b' ? "bpt" : "ept";
  c->key = xmt_strdup(key != NULL ? key : "");
  c->offset = r->code_offset;
  c->matched = 0;
  if (c->key == NULL)
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
  else
    r->ncodes++;
}

static void fail_unpaired(xmt_xliff_reader *r, const struct code_ref *c,
                          const char *part, const char *problem) {
  unsigned long line, column;
  xmt_reader_locate(r, c->offset, &line, &column);
  xmt_reader_fail(r, XMT_ERR_INLINE, line, column,
                  "unpaired <%s id=\"%.40s\"> in <%s>: %s", c->name, c->key,
                  part, problem);
}

/* Codes by key, then by place in the part (their addresses). */
static int by_key(const void *a, const void *b) {
  const struct code_ref *x = *(const struct code_ref *const *)a;
  const struct code_ref *y = *(const struct code_ref *const *)b;
  int c = strcmp(x->key, y->key);
  return c != 0 ? c : (x > y) - (x < y);
}

/* Every bpt needs a later ept with the same id (or rid), and every ept an
 * earlier bpt: each bpt, in order, takes the first free ept after it.
 * Done per key on the codes sorted by key, so that 100,000 nested pairs
 * cost n log n, not a walk of the part for each bpt. */
static void check_codes_paired(xmt_xliff_reader *r, const char *part) {
  struct code_ref **sorted =
      r->ncodes > 0 ? malloc(r->ncodes * sizeof *sorted) : NULL;
  if (r->ncodes > 0 && sorted == NULL) {
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
    xmt_reader_clear_codes(r);
    return;
  }
  for (size_t i = 0; i < r->ncodes; i++)
    sorted[i] = &r->codes[i];
  if (r->ncodes > 1)
    qsort(sorted, r->ncodes, sizeof *sorted, by_key);
  for (size_t k = 0, end; k < r->ncodes; k = end) {
    end = k + 1;
    while (end < r->ncodes && strcmp(sorted[end]->key, sorted[k]->key) == 0)
      end++;
    /* An ept passed over stays free: every later bpt comes after it. */
    size_t e = k;
    for (size_t i = k; i < end; i++) {
      if (sorted[i]->name[0] != 'b')
        continue;
      while (e < end && (sorted[e]->name[0] != 'e' || sorted[e] < sorted[i]))
        e++;
      if (e < end)
        sorted[e++]->matched = sorted[i]->matched = 1;
    }
  }
  free(sorted);
  for (size_t i = 0; i < r->ncodes && r->status == XMT_OK; i++)
    if (!r->codes[i].matched && r->codes[i].name[0] == 'b')
      fail_unpaired(r, &r->codes[i], part, "no matching <ept> follows");
  for (size_t j = 0; j < r->ncodes && r->status == XMT_OK; j++)
    if (!r->codes[j].matched && r->codes[j].name[0] == 'e')
      fail_unpaired(r, &r->codes[j], part, "no matching <bpt> before it");
  xmt_reader_clear_codes(r);
}

/* --- Units
 * -------------------------------------------------------------------- */

/* A maxwidth: its digits as a number; 0 when it is not a positive
 * integer (no limit is then known). */
static size_t max_chars(const char *v) {
  size_t n = 0;
  for (; *v >= '0' && *v <= '9'; v++)
    n = n > SIZE_MAX / 10 - 1 ? SIZE_MAX : n * 10 + (size_t)(*v - '0');
  return *v == '\0' ? n : 0;
}

void xmt_reader_start_unit(xmt_xliff_reader *r, const char **atts, uint64_t at,
                           int count) {
  xmt_reader_emit_skeleton(r, at);
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
  const char *maxwidth = NULL, *size_unit = NULL;
  for (const char **a = atts; a[0] != NULL; a += 2) {
    const char *n = a[0];
    const char **v = same(n, "id")              ? &id
                     : same(n, "resname")       ? &resname
                     : same(n, "maxwidth")      ? &maxwidth
                     : same(n, "size-unit")     ? &size_unit
                     : same(n, "translate")     ? &translate
                     : same(n, "approved")      ? &approved
                     : same(n, "xml:space")     ? &space
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
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
    return;
  }
  r->unit = u;
  r->unit_start = at;
  r->unit_depth = r->depth;
  r->part = PART_NONE;
  xmt_reader_advance_position(r, at);
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
  if (maxwidth != NULL && size_unit != NULL && strcmp(size_unit, "char") == 0)
    u->max_chars = max_chars(maxwidth);
  u->preserve_space =
      space != NULL ? strcmp(space, "preserve") == 0 : inherited_preserve(r);
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

void xmt_reader_finish_segment(xmt_xliff_reader *r, const char *mid,
                               size_t inner_start, size_t inner_end) {
  size_t index;
  xmt_segment *source;
  xmt_status st = xmt_ib_finish_new(&r->ib, &source);
  if (st == XMT_OK &&
      (st = xmt_unit_add_segment(r->unit, mid, source, &index)) != XMT_OK)
    xmt_segment_free(source); /* not the unit's */
  if (st == XMT_OK) {
    struct xmt_unit_segment *s = &r->unit->segs[index];
    s->inner_start = inner_start;
    s->inner_end = inner_end;
  }
  if (st != XMT_OK)
    xmt_reader_fail_status(r, st);
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

/* 1 when the target of an unsegmented unit is its source copied, in a
 * state that says it still needs translation (a CAT tool's or Okapi's
 * copy of the source): no translation, filled as an empty one is (a
 * segmenter still gives it the seg-source's mrks). */
static int copies_source(const xmt_xliff_unit *u) {
  return !u->segmented && u->state != NULL &&
         (strcmp(u->state, "needs-translation") == 0 ||
          strcmp(u->state, "new") == 0) &&
         u->whole_source != NULL && u->existing != NULL &&
         xmt_segment_equal(u->existing, u->whole_source);
}

void xmt_reader_start_part(xmt_xliff_reader *r, const char *name,
                           const char **atts, uint64_t at, int count) {
  int is_xliff;
  const char *local = xmt_reader_xliff_name(r, name, &is_xliff);
  xmt_xliff_unit *u = r->unit;
  r->part = PART_OTHER;
  r->part_depth = r->depth;
  r->nframes = 0;
  r->code_depth = 0;
  r->sub_depth = 0;
  r->in_segment = 0;
  r->target_content = 0;
  xmt_ib_reset(&r->ib);
  xmt_reader_clear_codes(r);
  r->tseg = SIZE_MAX;
  if (!is_xliff) {
    if (xmt_reader_ns_name(name, SDL_NS, "seg-defs"))
      r->part = PART_SEG_DEFS;
    return;
  }
  /* A second <source>, <seg-source> or <target>, or a unit in a unit:
   * readers differ on which they take (one the first, one the last), and
   * the one not taken would stay untranslated, or hold the old target. */
  if ((same(local, "source") && u->source.end != 0) ||
      (same(local, "seg-source") && u->seg_source.end != 0) ||
      (same(local, "target") && u->target.end != 0) ||
      same(local, "trans-unit")) {
    xmt_reader_fail(r, XMT_ERR_NOT_XLIFF, cur_line(r), cur_column(r),
                    "%s <%s> in the unit: readers differ on which they take",
                    same(local, "trans-unit") ? "a" : "a second", local);
    return;
  }
  size_t start = unit_offset(r, at);
  /* The source's own xml:space (or its seg-source's) says whether its line
   * breaks are breaks (xmt_xliff_unit_preserve_space). */
  const char *space = attr(atts, "xml:space");
  if (space != NULL && ((same(local, "source") && u->source.end == 0) ||
                        (same(local, "seg-source") && u->seg_source.end == 0)))
    u->preserve_space = strcmp(space, "preserve") == 0;
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
    xmt_reader_set_string(r, &u->state, attr(atts, "state"));
  }
}

void xmt_reader_end_part(xmt_xliff_reader *r, uint64_t at, int count) {
  xmt_xliff_unit *u = r->unit;
  size_t end = unit_offset(r, at + (uint64_t)count);
  switch (r->part) {
  case PART_SOURCE:
    u->source.end = end;
    if (u->whole_source == NULL) {
      /* The whole source is also the single segment until a seg-source
       * says otherwise; the two share one segment. */
      size_t index;
      xmt_status st = xmt_ib_finish_new(&r->ib, &u->whole_source);
      if (st == XMT_OK && !u->segmented &&
          (st = xmt_unit_add_segment(u, NULL, u->whole_source, &index)) ==
              XMT_OK) {
        u->segs[index].inner_start = r->segment_inner_start;
        u->segs[index].inner_end = unit_offset(r, at);
      }
      if (st != XMT_OK)
        xmt_reader_fail_status(r, st);
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
    xmt_segment *seg;
    xmt_status st = xmt_ib_finish_new(&r->ib, &seg);
    xmt_segment_free(u->existing);
    u->existing = seg;
    if (st != XMT_OK)
      xmt_reader_fail_status(r, st);
    else
      u->copied = copies_source(u);
    xmt_reader_clear_codes(
        r); /* an existing target's codes are the check's business */
    break;
  }
  case PART_NONE:
  case PART_SEG_DEFS:
  case PART_OTHER:
    break;
  }
  r->part = PART_NONE;
}

void xmt_reader_finish_unit(xmt_xliff_reader *r, uint64_t end) {
  xmt_xliff_unit *u = r->unit;
  r->unit = NULL;
  const char *twice = xmt_unit_resolve(u);
  if (twice != NULL) {
    xmt_reader_fail(r, XMT_ERR_NOT_XLIFF, u->line, u->column,
                    "unit \"%.80s\": two segments of <seg-source> have mid "
                    "\"%.80s\"",
                    u->id != NULL ? u->id : "", twice);
    xmt_xliff_unit_free(u);
    return;
  }
  size_t stray = xmt_unit_stray_tseg(u);
  if (stray != SIZE_MAX) {
    unsigned long line, column;
    xmt_reader_locate(r, r->unit_start + u->tsegs[stray].whole.start, &line,
                      &column);
    xmt_reader_fail(r, XMT_ERR_NOT_XLIFF, line, column,
                    "unit \"%.80s\": the <target> has a <mrk mtype=\"seg\" "
                    "mid=\"%.80s\"> that no segment of <seg-source> takes "
                    "(none has its mid, or another mrk of the target has it)",
                    u->id != NULL ? u->id : "", u->tsegs[stray].mid);
    xmt_xliff_unit_free(u);
    return;
  }
  /* In a block shared with the units around it, of its exact size: one
   * allocation each took malloc's slow path for large chunks from 1 KiB
   * on. */
  xmt_status st =
      xmt_unit_set_raw(u, &r->raw_block, window_at(r, r->unit_start),
                       (size_t)(end - r->unit_start));
  xmt_reader_advance_position(r, end);
  r->flushed = end;
  r->safe_end = end;
  if (st != XMT_OK) {
    xmt_xliff_unit_free(u);
    xmt_reader_fail_status(r, st);
    return;
  }
  if (r->cb.unit == NULL) {
    xmt_xliff_unit_free(u);
    if (r->cb.skeleton(r->user, window_at(r, r->unit_start),
                       (size_t)(end - r->unit_start)) != 0)
      xmt_reader_fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
                      "stopped by the skeleton callback");
    return;
  }
  if (r->cb.unit(r->user, u) != 0)
    xmt_reader_fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
                    "stopped by the unit callback");
}
