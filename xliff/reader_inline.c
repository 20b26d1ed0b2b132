/* reader_inline.c -- the XLIFF reader's inline content: the codes inside a
 * part handed to the inline builder, and the codes Trados writes between
 * the segments of a target. Apart from reader_unit.c because it works on
 * elements inside a part, not on the unit's structure. */
#include "config.h"

#include <stdint.h>

#include "reader_private.h"

/* --- Inline content ---------------------------------------------------------
 */

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
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
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

void xmt_reader_inline_start(xmt_xliff_reader *r, const char *name,
                             const char **atts, uint64_t at, int count) {
  if (r->code_depth > 0) {
    r->code_depth++;
    if (r->sub_depth == 0 && r->part != PART_TARGET) {
      int is_xliff;
      const char *local = xmt_reader_xliff_name(r, name, &is_xliff);
      if (is_xliff && same(local, "sub")) {
        r->sub_depth = r->code_depth;
        r->sub_start = at + (uint64_t)count;
        r->sub_has_text = 0;
      }
    }
    return;
  }
  if (r->part == PART_TARGET) {
    r->target_content = 1;
    if (r->tseg != SIZE_MAX)
      r->unit->tsegs[r->tseg].empty = 0;
  }
  int is_xliff;
  const char *local = xmt_reader_xliff_name(r, name, &is_xliff);
  const char *tag = window_at(r, at);
  int self_closing = count >= 2 && tag[count - 2] == '/';
  xmt_status st = XMT_OK;
  if (is_xliff && same(local, "mrk") &&
      (r->part == PART_SEG_SOURCE || r->part == PART_TARGET) &&
      attr(atts, "mtype") != NULL && strcmp(attr(atts, "mtype"), "seg") == 0) {
    note_segment_held(r);
    xmt_reader_push_frame(r, FRAME_SEGMENT);
    if (r->part == PART_SEG_SOURCE) {
      if (!r->unit->segmented) {
        xmt_unit_clear_segments(r->unit);
        r->unit->segmented = 1;
      }
      xmt_reader_set_string(r, &r->segment_mid, attr(atts, "mid"));
      r->segment_inner_start = unit_offset(r, at + (uint64_t)count);
      r->in_segment = 1;
      xmt_ib_reset(&r->ib);
    } else if (r->tseg == SIZE_MAX) {
      size_t k;
      xmt_xliff_unit *u = r->unit;
      if (xmt_unit_add_tseg(u, attr(atts, "mid"), &k) != XMT_OK) {
        xmt_reader_fail_status(r, XMT_ERR_NOMEM);
        return;
      }
      u->tsegs[k].whole.start = unit_offset(r, at);
      u->tsegs[k].inner.start = unit_offset(r, at + (uint64_t)count);
      u->tsegs[k].self_closing = self_closing;
      r->tseg = k;
    }
    return;
  }
  if (is_xliff && (same(local, "g") || same(local, "mrk")) && !self_closing &&
      !xmt_is_protected_mrk(local, atts)) {
    if (outside_segments(r))
      note_outside(r, at, at + (uint64_t)count, 0);
    if (builder_active(r)) {
      const char *key = attr(atts, "id");
      if (key == NULL)
        key = attr(atts, "mid");
      st = xmt_ib_open(&r->ib, local, key, tag, (size_t)count);
      xmt_reader_push_frame(r, FRAME_PAIR);
    } else {
      xmt_reader_push_frame(r, FRAME_OUTSIDE);
    }
    if (st != XMT_OK)
      xmt_reader_fail_status(r, st);
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
  const char *key = attr(atts, "rid");
  if (key == NULL)
    key = attr(atts, "id");
  if (key == NULL && same(code, "mrk"))
    key = attr(atts, "mid");
  xmt_reader_keep(r, &r->code_key, key);
  xmt_reader_keep(r, &r->code_pos, attr(atts, "pos"));
}

/* A comment or processing instruction in a part: no text, but part of
 * what was written there, so kept as a code at its place, as an element
 * of another namespace is. */
void xmt_reader_inline_other(xmt_xliff_reader *r, uint64_t at, int count) {
  if (r->code_depth > 0 || count <= 0)
    return; /* inside a code: kept with it */
  /* a target of comments only is still empty: it is filled */
  uint64_t end = at + (uint64_t)count;
  xmt_status st = XMT_OK;
  if (builder_active(r))
    st = xmt_ib_code(&r->ib, XMT_TAG_PLACEHOLDER, "?", NULL, window_at(r, at),
                     (size_t)count);
  if (st == XMT_OK && outside_segments(r))
    note_outside(r, at, end, end);
  if (st != XMT_OK)
    xmt_reader_fail_status(r, st);
}

void xmt_reader_inline_end(xmt_xliff_reader *r, uint64_t at, int count) {
  xmt_status st = XMT_OK;
  if (r->code_depth > 0) {
    if (r->code_depth == r->sub_depth) {
      /* A sub-flow of the unit, translated on its own (unit_sub.c). One
       * in a code between a seg-source's segments, which the target
       * copies as written, is refused: it would stay untranslated. */
      if (r->sub_has_text && r->part == PART_SEG_SOURCE && !r->in_segment)
        r->unit->sub_text = 1;
      else if (r->sub_has_text)
        st = xmt_unit_add_sub(r->unit, window_at(r, r->sub_start),
                              (size_t)(at - r->sub_start));
      r->sub_depth = 0;
      if (st != XMT_OK) {
        xmt_reader_fail_status(r, st);
        return;
      }
    }
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
      xmt_reader_note_code(r, name, kept(&r->code_key));
    if (st == XMT_OK && outside_segments(r))
      note_outside(r, r->code_start, end, end);
    if (st != XMT_OK)
      xmt_reader_fail_status(r, st);
    return;
  }
  if (r->nframes == 0) {
    xmt_reader_fail_status(r, XMT_ERR_INTERNAL);
    return;
  }
  switch ((enum frame)r->frames[--r->nframes]) {
  case FRAME_SEGMENT:
    if (r->part == PART_SEG_SOURCE) {
      r->in_segment = 0;
      xmt_reader_finish_segment(r, r->segment_mid, r->segment_inner_start,
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
    xmt_reader_fail_status(r, st);
}
