/* write_matches.c -- the run's translations written as proposals of the
 * Matches module (--alt-trans) rather than targets: in each unit, an
 * <mtc:match origin="xliffmt" type="mt"> per translated segment, with
 * the segment's <source> and the translation as <target>, in the unit's
 * <mtc:matches> (added first in the unit when it has none). The match
 * refers to its segment by id; a segment without one is given one new in
 * its unit. Segments and their states are left as they were. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "write_private.h"

/* The id a match refers to segment i by, in buf: its own, or "mtN" with
 * the first N that nothing of the unit has (nth: its number in it). */
static const char *segment_ref(const struct x2_doc *doc, size_t first,
                               size_t end, size_t i, char *buf, size_t size) {
  const struct x2_segment *s = &doc->segs[i];
  if (s->id != X2_NONE)
    return x2_str(doc, s->id);
  /* each segment its own numbers: no two given the same */
  for (size_t n = i - first + 1;; n += end - first) {
    snprintf(buf, size, "mt%zu", n);
    if (!xmt_x2w_id_taken(doc, s, buf))
      return buf;
  }
}

/* The segment's <source> up to its end tag, as it is but for an <sc> or
 * <ec> whose partner is in another segment (or an <ignorable>): a match
 * holds one segment, where such a code is isolated="yes" (XLIFF 2.0
 * 4.2.3.4: else its partner must be in the same scope); such an <sm> or
 * <em> is left out. */
static void put_source(struct writer *w, const struct x2_segment *s) {
  const struct x2_doc *doc = w->doc;
  const char *d = doc->data.data;
  size_t at = s->source.start;
  for (size_t k = 0; k < s->source.ncodes; k++) {
    const struct x2_code *x = &doc->codes[s->source.first_code + k];
    if (!xmt_x2w_lone(x) || x->start < at)
      continue;
    xmt_x2w_put(w, d + at, x->start - at);
    xmt_x2w_put_isolated(w, x);
    at = x->end;
  }
  xmt_x2w_put(w, d + at, s->source.inner_end - at);
}

/* One <mtc:match> of segment i, referring to it as ref. */
static void put_match(struct writer *w, const char *mtc, size_t i,
                      const char *ref) {
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s = &doc->segs[i];
  const char *d = doc->data.data;
  const char *tag = d + s->source.start;
  size_t tag_len = s->source.inner_start - s->source.start;
  size_t prefix = xmt_x2w_prefix_len(tag, tag_len, "source");
  xmt_x2w_put_str(w, "<");
  xmt_x2w_put_str(w, mtc);
  xmt_x2w_put_str(w, "match ref=\"#");
  xmt_buf_reset(&w->text);
  if (w->st == XMT_OK)
    w->st = xmt_xml_escape_attr(&w->text, ref);
  xmt_x2w_put(w, w->text.data, w->text.len);
  xmt_x2w_put_str(w, "\" origin=\"xliffmt\" type=\"mt\">");
  if (s->odata_end > s->odata_start) /* what the codes' dataRefs name */
    xmt_x2w_put(w, d + s->odata_start, s->odata_end - s->odata_start);
  if (s->source.self_closing) {
    xmt_x2w_put(w, tag, tag_len - 2);
    xmt_x2w_put_str(w, ">");
  } else {
    put_source(w, s);
  }
  xmt_x2w_put_str(w, "</");
  xmt_x2w_put(w, tag + 1, prefix);
  xmt_x2w_put_str(w, "source><");
  xmt_x2w_put(w, tag + 1, prefix);
  xmt_x2w_put_str(w, "target");
  size_t vs, ve;
  if (xmt_tag_find_attribute(tag, tag_len, "xml:space", &vs, &ve)) {
    xmt_x2w_put_str(w, " xml:space=");
    xmt_x2w_put(w, tag + vs - 1, ve - vs + 2);
  }
  xmt_x2w_put_str(w, ">");
  w->in_match = 1;
  xmt_x2w_content(w, s, &s->source, doc->targets[i]);
  w->in_match = 0;
  xmt_x2w_put_str(w, "</");
  xmt_x2w_put(w, tag + 1, prefix);
  xmt_x2w_put_str(w, "target></");
  xmt_x2w_put_str(w, mtc);
  xmt_x2w_put_str(w, "match>");
}

/* The white space right after the unit's start tag: what the matches are
 * indented with. */
static size_t indent(const struct x2_doc *doc, size_t at) {
  size_t n = 0;
  while (at + n < doc->data.len && xmt_is_xml_space(doc->data.data[at + n]))
    n++;
  return n;
}

/* The matches of the unit whose segments are first..end-1, where its
 * <mtc:matches> ends or first in it. */
static void put_matches(struct writer *w, size_t first, size_t end) {
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s0 = &doc->segs[first];
  const char *d = doc->data.data;
  size_t at = s0->unit_tag_end, ws = indent(doc, at);
  char mtc[64] = "mtc:";
  if (s0->matches_close > 0) { /* into the unit's own, with its prefix */
    size_t p = s0->matches_close + 2, n = 0;
    while (d[p + n] != '>' && !xmt_is_xml_space(d[p + n]))
      n++;
    n = n >= 7 && n - 7 < sizeof mtc ? n - 7 : 0;
    memcpy(mtc, d + p, n);
    mtc[n] = '\0';
    at = s0->matches_close;
    while (at > s0->unit_tag_end && xmt_is_xml_space(d[at - 1]))
      at--;
  }
  xmt_x2w_copy_to(w, at);
  if (s0->matches_close == 0) {
    xmt_x2w_put(w, d + s0->unit_tag_end, ws);
    xmt_x2w_put_str(w, "<mtc:matches xmlns:mtc=\"" X2_MTC_NS "\">");
  }
  char buf[32];
  for (size_t i = first; w->st == XMT_OK && i < end; i++) {
    if (doc->targets[i] == NULL)
      continue;
    xmt_x2w_put(w, d + s0->unit_tag_end, ws);
    xmt_x2w_put_str(w, " ");
    put_match(w, mtc, i, segment_ref(doc, first, end, i, buf, sizeof buf));
  }
  if (s0->matches_close == 0) {
    xmt_x2w_put(w, d + s0->unit_tag_end, ws);
    xmt_x2w_put_str(w, "</mtc:matches>");
  }
  /* Segments without an id get the one their match names. */
  for (size_t i = first; w->st == XMT_OK && i < end; i++) {
    const struct x2_segment *s = &doc->segs[i];
    if (doc->targets[i] == NULL || s->id != X2_NONE)
      continue;
    static const char *const names[] = {"id"};
    const char *const values[] = {
        segment_ref(doc, first, end, i, buf, sizeof buf)};
    xmt_x2w_copy_to(w, s->start);
    xmt_x2w_put_tag(w, s->start, s->tag_end, names, values, 1);
    w->at = s->tag_end;
  }
}

void xmt_x2w_matches(struct writer *w) {
  const struct x2_doc *doc = w->doc;
  for (size_t first = 0; w->st == XMT_OK && first < doc->nsegs;) {
    size_t end = first + 1, n = doc->targets[first] != NULL;
    while (end < doc->nsegs &&
           doc->segs[end].unit_tag_end == doc->segs[first].unit_tag_end)
      n += doc->targets[end++] != NULL;
    if (n > 0)
      put_matches(w, first, end);
    first = end;
  }
}
