/* write.c -- an XLIFF 2 document written back with the targets the run
 * gave: each translated <segment> gets state="translated" and
 * subState="xliffmt:mt", a <target> after its <source> (or its empty
 * target filled, or with overwriting its target replaced), whose codes are
 * the source's own markup; <xliff> gets trgLang when it has none. Every
 * other byte is the document's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "write_private.h"

void xmt_x2w_flush(struct writer *w) {
  if (w->st != XMT_OK || w->out.len == 0)
    return;
  const struct xmt_buf *b = &w->out;
  if (w->doc->encoding != XMT_ENC_UTF8) {
    xmt_buf_reset(&w->enc);
    w->st = xmt_encode(w->doc->encoding, w->out.data, w->out.len, 1, &w->enc);
    b = &w->enc;
  }
  if (w->st == XMT_OK && b->len > 0 && w->sink(w->user, b->data, b->len) != 0)
    w->st = XMT_ERR_WRITE;
  xmt_buf_reset(&w->out);
}

void xmt_x2w_put_grown(struct writer *w, const char *s, size_t len) {
  w->st = xmt_buf_append(&w->out, s, len);
}

/* The start tag of len bytes at tag with names[i] set to values[i], in
 * w->tag: the bytes of xmt_tag_set_attributes, made in the writer's
 * buffers, which are kept from tag to tag, not allocated for each. */
static void set_attributes(struct writer *w, const char *tag, size_t len,
                           const char *const *names, const char *const *values,
                           size_t n) {
  struct xmt_buf *a = &w->tag, *b = &w->attr, *t;
  xmt_buf_reset(a);
  xmt_status st = xmt_buf_append(a, tag, len);
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    size_t vs, ve, end, from;
    xmt_buf_reset(b);
    if (xmt_tag_find_attribute(a->data, a->len, names[k], &vs, &ve)) {
      end = vs;
      from = ve;
    } else { /* after the last attribute, before "/>" or ">" */
      end = a->len - (a->len >= 2 && a->data[a->len - 2] == '/' ? 2 : 1);
      while (end > 1 && xmt_is_xml_space(a->data[end - 1]))
        end--;
      from = end;
    }
    st = xmt_buf_append(b, a->data, end);
    if (st == XMT_OK && from == end) {
      st = xmt_buf_append_byte(b, ' ');
      if (st == XMT_OK)
        st = xmt_buf_append_str(b, names[k]);
      if (st == XMT_OK)
        st = xmt_buf_append_str(b, "=\"");
    }
    if (st == XMT_OK)
      st = xmt_xml_escape_attr(b, values[k]);
    if (st == XMT_OK && from == end)
      st = xmt_buf_append_byte(b, '"');
    if (st == XMT_OK)
      st = xmt_buf_append(b, a->data + from, a->len - from);
    t = a;
    a = b;
    b = t;
  }
  if (a != &w->tag) {
    struct xmt_buf keep = w->tag;
    w->tag = w->attr;
    w->attr = keep;
  }
  if (st != XMT_OK && w->st == XMT_OK)
    w->st = st;
}

/* The order target start tag o is written with: a sentence's place, or
 * o's moved by the segments before it written split. */
static void put_order(struct writer *w, const struct x2_order *o, size_t len) {
  static const char *const names[] = {"order"};
  char value[16];
  unsigned place =
      w->part_place > 0 ? w->part_place : xmt_x2w_place(w, o->order);
  snprintf(value, sizeof value, "%u", place);
  const char *const values[] = {value};
  if (w->st == XMT_OK)
    set_attributes(w, w->doc->data.data + o->start, o->end - o->start, names,
                   values, 1);
  /* a <target .../> written open: len is the tag's bytes to its "/" */
  size_t n = w->tag.len;
  if (len < o->end - o->start && n >= 2) {
    n -= 2;
    while (n > 1 && xmt_is_xml_space(w->tag.data[n - 1]))
      n--;
  }
  xmt_x2w_put(w, w->tag.data, n);
}

/* The order tag of the unit w->ord_unit that starts at `at`, or NULL. */
static const struct x2_order *order_at(const struct writer *w, size_t at) {
  const struct x2_doc *doc = w->doc;
  if (w->ord_unit == X2_NONE)
    return NULL;
  size_t i = xmt_lower_bound(doc->orders, doc->norders, sizeof *doc->orders,
                             offsetof(struct x2_order, start), at);
  return i < doc->norders && doc->orders[i].start == at &&
                 doc->orders[i].unit_end == w->ord_unit
             ? &doc->orders[i]
             : NULL;
}

/* The document's bytes from w->at to end, a target's order renumbered in
 * the unit w->ord_unit. */
static void copy_bytes(struct writer *w, size_t end) {
  const struct x2_doc *doc = w->doc;
  if (w->ord_unit != X2_NONE) {
    size_t i = xmt_lower_bound(doc->orders, doc->norders, sizeof *doc->orders,
                               offsetof(struct x2_order, start), w->at);
    for (; i < doc->norders && doc->orders[i].end <= end; i++) {
      const struct x2_order *o = &doc->orders[i];
      if (o->unit_end != w->ord_unit)
        continue;
      xmt_x2w_put(w, doc->data.data + w->at, o->start - w->at);
      put_order(w, o, o->end - o->start);
      w->at = o->end;
    }
  }
  if (end > w->at)
    xmt_x2w_put(w, doc->data.data + w->at, end - w->at);
  if (end > w->at)
    w->at = end;
}

/* A <target> after the <source> of ignorable g: its source's bytes, laid
 * out as the source is, with its xml:space. */
static void put_ign_target(struct writer *w, const struct x2_ign *g) {
  const char *d = w->doc->data.data;
  const char *tag = d + g->start;
  size_t tag_len = g->inner_start - g->start;
  size_t prefix = xmt_x2w_prefix_len(tag, tag_len, "source"), vs, ve;
  xmt_x2w_put(w, d + g->ws_start, g->start - g->ws_start);
  xmt_x2w_put(w, "<", 1);
  xmt_x2w_put(w, tag + 1, prefix);
  xmt_x2w_put(w, "target", 6);
  if (xmt_tag_find_attribute(tag, tag_len, "xml:space", &vs, &ve)) {
    xmt_x2w_put(w, " xml:space=", 11);
    xmt_x2w_put(w, tag + vs - 1, ve - vs + 2);
  }
  xmt_x2w_put(w, ">", 1);
  xmt_x2w_put(w, d + g->inner_start, g->inner_end - g->inner_start);
  xmt_x2w_put(w, "</", 2);
  xmt_x2w_put(w, tag + 1, prefix);
  xmt_x2w_put(w, "target>", 7);
}

/* The document's bytes from w->at to end, the ignorables of the unit
 * w->ign_unit given a target. */
void xmt_x2w_copy_to(struct writer *w, size_t end) {
  const struct x2_doc *doc = w->doc;
  while (w->ign < doc->nigns && doc->igns[w->ign].end <= end) {
    const struct x2_ign *g = &doc->igns[w->ign++];
    if (g->unit_end != w->ign_unit || g->end <= w->at ||
        g->end == g->inner_start)
      continue;
    copy_bytes(w, g->end);
    put_ign_target(w, g);
  }
  copy_bytes(w, end);
}

/* A start tag with attributes set. */
void xmt_x2w_put_tag(struct writer *w, size_t start, size_t end,
                     const char *const *names, const char *const *values,
                     size_t n) {
  if (w->st != XMT_OK)
    return;
  set_attributes(w, w->doc->data.data + start, end - start, names, values, n);
  xmt_x2w_put(w, w->tag.data, w->tag.len);
}

/* The name of the element whose start tag is at start, prefix included. */
static size_t name_len(const char *tag, size_t len) {
  size_t n = 1;
  while (n < len && !xmt_is_xml_space(tag[n]) && tag[n] != '/' && tag[n] != '>')
    n++;
  return n - 1;
}

size_t xmt_x2w_prefix_len(const char *tag, size_t len, const char *local) {
  size_t n = name_len(tag, len), l = strlen(local);
  return n >= l ? n - l : 0;
}

void xmt_x2w_put_str(struct writer *w, const char *s) {
  xmt_x2w_put(w, s, strlen(s));
}

/* 1 when the len bytes at s hold word: an attribute named word is not
 * in a tag without it. */
static int holds(const char *s, size_t len, const char *word) {
  size_t n = strlen(word);
  for (size_t at = 0; at + n <= len; at++) {
    const char *p = memchr(s + at, word[0], len - n - at + 1);
    if (p == NULL)
      return 0;
    at = (size_t)(p - s);
    if (memcmp(p, word, n) == 0)
      return 1;
  }
  return 0;
}

/* The start tag of target t, to its "/" when written open (len bytes),
 * its order renumbered; an xml:lang naming another language than trgLang
 * is set to trgLang: the new target is in that language, not the old's. */
static void put_target_tag(struct writer *w, const struct x2_content *t,
                           size_t len) {
  const char *tag = w->doc->data.data + t->start, *lang = w->lang;
  const struct x2_order *o = order_at(w, t->start);
  size_t vs, ve;
  if (lang == NULL || !xmt_tag_find_attribute(tag, len, "xml:lang", &vs, &ve) ||
      (ve - vs == strlen(lang) && strncasecmp(tag + vs, lang, ve - vs) == 0)) {
    if (o != NULL)
      put_order(w, o, len);
    else
      xmt_x2w_put(w, tag, len);
    return;
  }
  char place[16];
  snprintf(place, sizeof place, "%u",
           o == NULL           ? 0U
           : w->part_place > 0 ? w->part_place
                               : xmt_x2w_place(w, o->order));
  const char *const names[] = {"xml:lang", "order"};
  const char *const values[] = {lang, place};
  xmt_buf_reset(&w->tag);
  if (w->st == XMT_OK)
    w->st = xmt_tag_set_attributes(&w->tag, tag, len, names, values,
                                   o != NULL ? 2 : 1);
  xmt_x2w_put(w, w->tag.data, w->tag.len);
}

/* The <target> start and end tags (w->ttags) a segment gets after its
 * source, whose start tag is tag: those of the source before when it is
 * the same bytes; 0 when out of memory. */
static int target_tags(struct writer *w, const char *tag, size_t tag_len) {
  struct x2_target_tags *c = &w->ttags;
  if (c->b.len > 0 && c->src_len == tag_len &&
      memcmp(c->b.data, tag, tag_len) == 0)
    return 1;
  size_t n = name_len(tag, tag_len), vs, ve;
  size_t prefix = n >= 6 && tag[n + 1 - 7] == ':' ? n - 6 : 0;
  struct xmt_buf *b = &c->b;
  xmt_buf_reset(b);
  xmt_status st = xmt_buf_append(b, tag, tag_len);
  if (st == XMT_OK)
    st = xmt_buf_append(b, "<", 1);
  if (st == XMT_OK)
    st = xmt_buf_append(b, tag + 1, prefix);
  if (st == XMT_OK)
    st = xmt_buf_append(b, "target", 6);
  if (st == XMT_OK && holds(tag, tag_len, "xml:space") &&
      xmt_tag_find_attribute(tag, tag_len, "xml:space", &vs, &ve)) {
    st = xmt_buf_append(b, " xml:space=", 11);
    if (st == XMT_OK)
      st = xmt_buf_append(b, tag + vs - 1, ve - vs + 2);
  }
  if (st == XMT_OK)
    st = xmt_buf_append(b, ">", 1);
  c->open_len = b->len - tag_len;
  if (st == XMT_OK)
    st = xmt_buf_append(b, "</", 2);
  if (st == XMT_OK)
    st = xmt_buf_append(b, tag + 1, prefix);
  if (st == XMT_OK)
    st = xmt_buf_append(b, "target>", 7);
  c->src_len = tag_len;
  if (st != XMT_OK) {
    xmt_buf_reset(b);
    if (w->st == XMT_OK)
      w->st = st;
    return 0;
  }
  return 1;
}

void xmt_x2w_target(struct writer *w, const struct x2_segment *s,
                    const struct x2_content *src, const xmt_segment *target) {
  const char *d = w->doc->data.data;
  const struct x2_content *t = &s->target;
  if (t->end != 0 && !t->self_closing) {
    xmt_x2w_copy_to(w, t->start);
    put_target_tag(w, t, t->inner_start - t->start);
    w->at = t->inner_start;
    xmt_x2w_content(w, s, src, target);
    w->at = t->inner_end;
    return;
  }
  if (t->end == 0) { /* after the source, with its white space and xml:space */
    const char *tag = d + s->source.start;
    xmt_x2w_copy_to(w, s->source.end);
    xmt_x2w_put(w, d + s->ws_start, s->ws_end - s->ws_start);
    if (!target_tags(w, tag, s->source.inner_start - s->source.start))
      return;
    const struct x2_target_tags *c = &w->ttags;
    xmt_x2w_put(w, c->b.data + c->src_len, c->open_len);
    xmt_x2w_content(w, s, src, target);
    xmt_x2w_put(w, c->b.data + c->src_len + c->open_len,
                c->b.len - c->src_len - c->open_len);
    return;
  }
  /* <target .../>: opened and closed around the text */
  const char *tag = d + t->start;
  size_t tag_len = t->end - t->start, n = name_len(tag, tag_len);
  xmt_x2w_copy_to(w, t->start);
  size_t end = tag_len - 2;
  while (end > 1 && xmt_is_xml_space(tag[end - 1]))
    end--;
  put_target_tag(w, t, end);
  xmt_x2w_put(w, ">", 1);
  w->at = t->end;
  xmt_x2w_content(w, s, src, target);
  xmt_x2w_put(w, "</", 2);
  xmt_x2w_put(w, tag + 1, n);
  xmt_x2w_put(w, ">", 1);
}

/* The <segment> start tag of s with state and subState set: when it has
 * neither, both go after its last attribute, as set_attributes puts them,
 * without its copies and lookups (most segments). */
static void put_segment_tag(struct writer *w, const struct x2_segment *s) {
  static const char *const names[] = {"state", "subState"};
  static const char *const values[] = {"translated", "xliffmt:mt"};
  static const char add[] = " state=\"translated\" subState=\"xliffmt:mt\"";
  const char *tag = w->doc->data.data + s->start;
  size_t len = s->tag_end - s->start;
  /* "tate": one scan of the tag for both names, most tags have neither */
  if (holds(tag, len, "tate") &&
      (holds(tag, len, "state") || holds(tag, len, "subState"))) {
    xmt_x2w_put_tag(w, s->start, s->tag_end, names, values, 2);
    return;
  }
  size_t end = len - (len >= 2 && tag[len - 2] == '/' ? 2 : 1);
  while (end > 1 && xmt_is_xml_space(tag[end - 1]))
    end--;
  xmt_x2w_put(w, tag, end);
  xmt_x2w_put(w, add, sizeof add - 1);
  xmt_x2w_put(w, tag + end, len - end);
}

static void put_segment(struct writer *w, size_t i) {
  const struct x2_segment *s = &w->doc->segs[i];
  xmt_x2w_copy_to(w, s->start);
  if (w->st == XMT_OK)
    put_segment_tag(w, s);
  w->at = s->tag_end;
  xmt_x2w_copy_to(w, s->source.end);
  xmt_x2w_target(w, s, &s->source, w->doc->targets[i]);
}

static int wanted(const struct x2_doc *doc, size_t i, int overwrite);

/* A segment of a unit whose targets have an order of their own, left
 * without the target the run was asked for (an empty one, or any with
 * --overwrite): the first of its unit says so. */
static void tell_reordered(struct writer *w, size_t i) {
  const struct x2_segment *s = &w->doc->segs[i];
  if (w->warn == NULL || !wanted(w->doc, i, w->doc->overwrite))
    return;
  for (size_t j = i; j > 0 && w->doc->segs[j - 1].unit_end == s->unit_end; j--)
    if (wanted(w->doc, j - 1, w->doc->overwrite))
      return;
  unsigned long line, column;
  xmt_x2_locate(w->doc, s->start, &line, &column);
  w->warn(w->warn_user, x2_str(w->doc, s->unit), line,
          "<unit> not translated: its targets have an order of their own "
          "(order), and a new target in the place of its <segment> would "
          "break it");
}

/* The first segment of a unit left untranslated for an <sm
 * translate="no"> that could not be kept whole says so. */
static void tell_nomt_apart(struct writer *w, size_t i) {
  const struct x2_segment *s = &w->doc->segs[i];
  if (w->warn == NULL || !s->nomt_apart)
    return;
  unsigned long line, column;
  xmt_x2_locate(w->doc, s->start, &line, &column);
  w->warn(w->warn_user, x2_str(w->doc, s->unit), line,
          "<unit> not translated: an <sm translate=\"no\"> of it ends "
          "outside the element it is in, or holds one end of another pair, "
          "so its text could not be kept from the translation");
}

/* 1 when the id of a start code of the source of s is id: a new target
 * has it (every code of the source is written). */
static int source_has(const struct x2_doc *doc, const struct x2_segment *s,
                      const char *id) {
  const struct x2_content *c = &s->source;
  for (size_t k = c->first_code; k < c->first_code + c->ncodes; k++) {
    const struct x2_code *x = &doc->codes[k];
    if (x->elem != X2_EC && x->elem != X2_EM && x->kind != XMT_TAG_CLOSE &&
        x->kind != XMT_TAG_ISOLATED_CLOSE && x->id != X2_NONE &&
        strcmp(x2_str(doc, x->id), id) == 0)
      return 1;
  }
  return 0;
}

/* A ref of a module of the unit of segment i (its index in doc->refs)
 * that names an element of the target of segment i which a new target
 * would not have (its source has no code of that id); X2_NONE when none:
 * the target may be replaced and the reference still names something. */
static size_t kept_ref(const struct x2_doc *doc, size_t i) {
  const struct x2_segment *s = &doc->segs[i];
  const struct x2_content *t = &s->target;
  if (t->end == 0 || t->self_closing || t->ncodes == 0)
    return X2_NONE;
  for (size_t j = 0; j < doc->nrefs; j++) {
    const char *id = x2_str(doc, doc->refs[j].id);
    if (doc->refs[j].unit_end == s->unit_end &&
        xmt_x2w_has_id(doc, t->inner_start, t->inner_end, id) &&
        !source_has(doc, s, id))
      return j;
  }
  return X2_NONE;
}

/* 1 when segment i is written with a new target, of every code of its
 * source. */
static int written(const struct x2_doc *doc, size_t i) {
  return !doc->segs[i].reordered &&
         ((doc->splits != NULL && doc->splits[i].nparts > 1) ||
          (doc->targets != NULL && doc->targets[i] != NULL)) &&
         kept_ref(doc, i) == X2_NONE;
}

/* 1 when the units hand segment i to the run to translate (units.c):
 * translatable, not locked by its state, its unit's targets in their
 * places, with a source and without a target of its own (unless
 * overwriting, or the target copies the source). */
static int asked(const struct x2_doc *doc, size_t i, int overwrite) {
  return !doc->segs[i].reordered && wanted(doc, i, overwrite);
}

/* 1 when segment i would be asked but for its unit's order. */
static int wanted(const struct x2_doc *doc, size_t i, int overwrite) {
  const struct x2_segment *s = &doc->segs[i];
  return s->translate && (s->state < X2_REVIEWED || overwrite) &&
         (!s->has_target || s->copied || overwrite) &&
         (s->source.text_len > 0 || s->source.ncodes > 0);
}

int xmt_x2_target_kept(const struct x2_doc *doc, size_t i, int overwrite) {
  return asked(doc, i, overwrite) && kept_ref(doc, i) != X2_NONE;
}

/* The first of doc->igns in the unit whose </unit> is at unit_end, or
 * doc->nigns: the ignorables are in the document's order. */
static size_t first_ign(const struct x2_doc *doc, size_t unit_end) {
  size_t lo = xmt_lower_bound(doc->igns, doc->nigns, sizeof *doc->igns,
                              offsetof(struct x2_ign, unit_end), unit_end);
  return lo < doc->nigns && doc->igns[lo].unit_end == unit_end ? lo
                                                               : doc->nigns;
}

/* The plan of the unit of segment i (its first): with its segments
 * written as out says (asked, or written when overwrite < 0). Some of its
 * codes pair with an sc, ec, sm or em of an <ignorable> without a target:
 * a new target with such a code needs its partner in the targets, and
 * each such ignorable of the unit gets its source's copy as target (1).
 * That holds only when every segment with such a code gets a new target
 * (the copy's partners are then all in targets) and no target kept has
 * codes (whose ids the copy's could take); else the unit is left as it is
 * (-1). */
static int plan_of(const struct x2_doc *doc, size_t i, int overwrite) {
  const struct x2_segment *s = &doc->segs[i];
  int need = 0, unsafe = 0;
  if (first_ign(doc, s->unit_end) == doc->nigns)
    return 0;
  for (size_t j = i; j < doc->nsegs && doc->segs[j].unit_end == s->unit_end;
       j++) {
    const struct x2_content *src = &doc->segs[j].source;
    int far = 0, out = overwrite < 0 ? written(doc, j)
                                     : asked(doc, j, overwrite) &&
                                           kept_ref(doc, j) == X2_NONE;
    for (size_t k = src->first_code; k < src->first_code + src->ncodes; k++)
      far |= doc->codes[k].far;
    need |= far && out;
    unsafe |= (far && !out) || (!out && doc->segs[j].target.ncodes > 0);
  }
  return !need ? 0 : unsafe ? -1 : 1;
}

int xmt_x2_unit_plan(const struct x2_doc *doc, size_t first, int overwrite) {
  return plan_of(doc, first, overwrite != 0);
}

/* Segment i keeps its target: a module's reference names an element of it
 * that a new one would not have. */
static void tell_kept(struct writer *w, size_t i, size_t ref) {
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s = &doc->segs[i];
  if (w->warn == NULL)
    return;
  unsigned long line, column, ref_line;
  xmt_x2_locate(doc, s->start, &line, &column);
  xmt_x2_locate(doc, doc->refs[ref].at, &ref_line, &column);
  char msg[400];
  snprintf(msg, sizeof msg,
           "<target> not replaced: ref=\"%.128s\" (line %lu) names its "
           "element id=\"%.64s\", which its source does not have and a new "
           "target would not",
           x2_str(doc, doc->refs[ref].ref), ref_line,
           x2_str(doc, doc->refs[ref].id));
  w->warn(w->warn_user, x2_str(doc, s->key), line, msg);
}

/* The plan of the unit of segment i (its first), as the units planned it
 * (they then handed none of its segments out when it is left, -1), and
 * as the targets taken allow (a segment may have failed); -1 is told. */
static int plan_unit(struct writer *w, size_t i) {
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s = &doc->segs[i];
  int plan = plan_of(doc, i, doc->overwrite != 0);
  if (plan > 0)
    plan = plan_of(doc, i, -1);
  if (plan == 0)
    return 0;
  if (plan > 0) {
    w->ign_unit = s->unit_end;
    return 1;
  }
  if (w->warn != NULL) {
    unsigned long line, column;
    xmt_x2_locate(doc, s->start, &line, &column);
    w->warn(w->warn_user, x2_str(doc, s->unit), line,
            "<unit> not translated: a code of its segments pairs with one "
            "in an <ignorable> without a <target>, and a copy of its source "
            "as target would not pair with the targets the unit keeps");
  }
  return -1;
}

/* Segment i, which --seg-source would have cut, is written whole: two
 * codes of its unit's sources share an id. A target kept is kept whole;
 * else the segment is translated whole. */
static void tell_whole(struct writer *w, size_t i) {
  const struct x2_doc *doc = w->doc;
  const struct x2_segment *s = &doc->segs[i];
  const struct x2_code *x = &doc->codes[doc->splits[i].shared - 1];
  if (w->warn == NULL)
    return;
  unsigned long line, column;
  xmt_x2_locate(doc, x->start, &line, &column);
  char msg[320];
  snprintf(msg, sizeof msg,
           "<segment> not resegmented: the id \"%.64s\" (line %lu, column "
           "%lu) is used by two codes of its unit's sources (XLIFF 2.0 "
           "§4.3.1.21), whose pairs, cut, could not be told apart; %s "
           "whole",
           x2_str(doc, x->id), line, column,
           doc->targets == NULL || doc->targets[i] == NULL ? "written"
                                                           : "translated");
  xmt_x2_locate(doc, s->start, &line, &column);
  w->warn(w->warn_user, x2_str(doc, s->key), line, msg);
}

/* Segment i, whose target is kept, is written whole: --seg-source cut
 * its source and target into sentences that do not pair, in number or in
 * the inline codes each holds. */
static void tell_unpaired(struct writer *w, size_t i) {
  const struct x2_doc *doc = w->doc;
  const struct x2_split *split = &doc->splits[i];
  if (w->warn == NULL)
    return;
  unsigned long line, column;
  char msg[320];
  if (split->coded)
    snprintf(msg, sizeof msg,
             "<segment> not resegmented: the inline codes of its target, "
             "kept, do not fall in the sentences (and the white space "
             "between them) where its source's do; written whole");
  else
    snprintf(msg, sizeof msg,
             "<segment> not resegmented: its source has %zu sentences and "
             "its target, kept, %zu; written whole, so that no sentence gets "
             "another's translation",
             split->src_sentences, split->unpaired - 1);
  xmt_x2_locate(doc, doc->segs[i].start, &line, &column);
  w->warn(w->warn_user, x2_str(doc, doc->segs[i].key), line, msg);
}

/* 1 when segment i is written split (the writer's loop below, its unit
 * not left). */
static int split_written(const struct x2_doc *doc, size_t i) {
  return doc->splits != NULL && doc->splits[i].nparts > 1 &&
         !doc->segs[i].reordered &&
         !(asked(doc, i, doc->overwrite) && kept_ref(doc, i) != X2_NONE);
}

unsigned xmt_x2w_place(const struct writer *w, unsigned q) {
  const struct x2_doc *doc = w->doc;
  unsigned place = q;
  for (size_t j = w->ord_first;
       j < doc->nsegs && doc->segs[j].unit_end == w->ord_unit &&
       doc->segs[j].part < q;
       j++)
    if (split_written(doc, j))
      place += xmt_x2w_split_places(doc, j) - 1;
  return place;
}

/* The unit of segment i (its first; doc->nsegs: past the last) about to
 * be written as plan says: the unit before it written to its end with its
 * orders renumbered, and this one's renumbered when one of its targets
 * has an order and one of its segments is written split. */
static void ordered_unit(struct writer *w, size_t i, int plan) {
  const struct x2_doc *doc = w->doc;
  if (w->ord_unit != X2_NONE)
    xmt_x2w_copy_to(w, w->ord_unit);
  w->ord_unit = X2_NONE;
  if (i >= doc->nsegs || plan < 0)
    return;
  size_t unit = doc->segs[i].unit_end;
  size_t o = xmt_lower_bound(doc->orders, doc->norders, sizeof *doc->orders,
                             offsetof(struct x2_order, start),
                             doc->segs[i].unit_tag_end);
  if (o >= doc->norders || doc->orders[o].unit_end != unit)
    return;
  for (size_t j = i; j < doc->nsegs && doc->segs[j].unit_end == unit; j++)
    if (split_written(doc, j)) {
      w->ord_unit = unit;
      w->ord_first = i;
      return;
    }
}

xmt_status xmt_x2_write(const struct x2_doc *doc, const char *target_language,
                        xmt_write_fn sink, void *user,
                        struct xmt_error_store *err, xmt_x2_warn_fn warn,
                        void *warn_user) {
  struct x2_write_bufs bufs = {0};
  xmt_status st = xmt_x2_write_with(doc, target_language, sink, user, err, warn,
                                    warn_user, &bufs);
  xmt_x2_write_bufs_free(&bufs);
  return st;
}

void xmt_x2_write_bufs_free(struct x2_write_bufs *b) {
  xmt_buf_free(&b->out);
  xmt_buf_free(&b->enc);
  xmt_buf_free(&b->tag);
  xmt_buf_free(&b->text);
  xmt_buf_free(&b->attr);
  xmt_buf_free(&b->ttags.b);
  free(b->items);
  free(b->index);
  free(b->used);
  memset(b, 0, sizeof *b);
}

/* The writer's buffers and arrays from b, kept from part to part. */
static void take_bufs(struct writer *w, struct x2_write_bufs *b) {
  w->out = b->out;
  w->enc = b->enc;
  w->tag = b->tag;
  w->text = b->text;
  w->attr = b->attr;
  w->ttags = b->ttags;
  w->items = b->items;
  w->items_cap = b->items_cap;
  w->index = b->index;
  w->index_cap = b->index_cap;
  w->used = b->used;
  w->used_cap = b->used_cap;
  int hold = b->hold;
  memset(b, 0, sizeof *b);
  b->hold = hold;
}

/* ... and given back, emptied, the writer left without them. */
static void give_bufs(struct writer *w, struct x2_write_bufs *b) {
  if (!b->hold)
    xmt_buf_reset(&w->out);
  xmt_buf_reset(&w->enc);
  xmt_buf_reset(&w->tag);
  xmt_buf_reset(&w->text);
  xmt_buf_reset(&w->attr);
  *b = (struct x2_write_bufs){w->out,   w->enc,       w->tag,   w->text,
                              w->attr,  w->ttags,     w->items, w->items_cap,
                              w->index, w->index_cap, w->used,  w->used_cap,
                              b->hold};
  w->items = NULL;
  w->index = NULL;
  w->used = NULL;
  memset(&w->out, 0, sizeof w->out);
  memset(&w->enc, 0, sizeof w->enc);
  memset(&w->tag, 0, sizeof w->tag);
  memset(&w->text, 0, sizeof w->text);
  memset(&w->attr, 0, sizeof w->attr);
  memset(&w->ttags, 0, sizeof w->ttags);
}

xmt_status xmt_x2_write_flush(struct x2_write_bufs *b,
                              enum xmt_encoding encoding, xmt_write_fn sink,
                              void *user, struct xmt_error_store *err) {
  struct x2_doc doc;
  struct writer w;
  memset(&doc, 0, sizeof doc);
  memset(&w, 0, sizeof w);
  doc.encoding = encoding;
  w.doc = &doc;
  w.sink = sink;
  w.user = user;
  take_bufs(&w, b);
  xmt_x2w_flush(&w);
  give_bufs(&w, b);
  xmt_x2w_free(&w);
  if (w.st != XMT_OK && err->pub.status != w.st)
    xmt_error_set(err, w.st, "%s", xmt_strerror(w.st));
  return w.st;
}

xmt_status xmt_x2_write_with(const struct x2_doc *doc,
                             const char *target_language, xmt_write_fn sink,
                             void *user, struct xmt_error_store *err,
                             xmt_x2_warn_fn warn, void *warn_user,
                             struct x2_write_bufs *bufs) {
  struct writer w;
  memset(&w, 0, sizeof w);
  take_bufs(&w, bufs);
  w.doc = doc;
  w.sink = sink;
  w.user = user;
  w.err = err;
  w.warn = warn;
  w.warn_user = warn_user;
  w.lang = doc->trg_lang != NULL ? doc->trg_lang : target_language;
  const char *lang = doc->trg_lang != NULL ? NULL : target_language;
  size_t vs, ve; /* a stream's first piece has the root, not its trgLang */
  if (lang != NULL && doc->root_end != 0 &&
      !xmt_tag_find_attribute(doc->data.data + doc->root_start,
                              doc->root_end - doc->root_start, "trgLang", &vs,
                              &ve)) {
    static const char *const names[] = {"trgLang"};
    const char *const values[] = {lang};
    xmt_x2w_copy_to(&w, doc->root_start);
    xmt_x2w_put_tag(&w, doc->root_start, doc->root_end, names, values, 1);
    w.at = doc->root_end;
  }
  if (doc->matches && doc->targets != NULL)
    xmt_x2w_matches(&w);
  w.ign_unit = w.ord_unit = X2_NONE;
  int plan = 0;
  for (size_t i = 0; !doc->matches && w.st == XMT_OK && i < doc->nsegs; i++) {
    if (i == 0 || doc->segs[i - 1].unit_end != doc->segs[i].unit_end) {
      plan = plan_unit(&w, i);
      ordered_unit(&w, i, plan);
      tell_nomt_apart(&w, i);
    }
    size_t ref = X2_NONE;
    if (plan < 0)
      continue;
    else if (doc->segs[i].reordered)
      tell_reordered(&w, i);
    else if (asked(doc, i, doc->overwrite) &&
             (ref = kept_ref(doc, i)) != X2_NONE)
      tell_kept(&w, i, ref);
    else if (split_written(doc, i))
      xmt_x2w_split(&w, i);
    else if (doc->targets != NULL && doc->targets[i] != NULL)
      put_segment(&w, i);
    if (doc->splits != NULL && doc->splits[i].shared > 0)
      tell_whole(&w, i);
    else if (doc->splits != NULL &&
             (doc->splits[i].unpaired > 0 || doc->splits[i].coded))
      tell_unpaired(&w, i);
  }
  ordered_unit(&w, doc->nsegs, -1);
  xmt_x2w_copy_to(&w, doc->data.len);
  if (!bufs->hold)
    xmt_x2w_flush(&w);
  give_bufs(&w, bufs);
  xmt_memo_free(&w.given); /* the rest: give_bufs took every other */
  if (w.st != XMT_OK && err->pub.status != w.st)
    xmt_error_set(err, w.st, "%s", xmt_strerror(w.st));
  return w.st;
}

int xmt_x2w_id_taken(const struct x2_doc *doc, const struct x2_segment *s,
                     const char *id) {
  return xmt_x2w_has_id(doc, s->unit_tag_end, s->unit_end, id);
}

int xmt_x2w_has_id(const struct x2_doc *doc, size_t from, size_t to,
                   const char *id) {
  const char *d = doc->data.data;
  size_t idlen = strlen(id);
  for (size_t at = from; at < to; at++) {
    if (d[at] != '<' || at + 1 >= to || d[at + 1] == '/' || d[at + 1] == '!' ||
        d[at + 1] == '?')
      continue;
    size_t len = xmt_tag_end(d + at, to - at), vs, ve;
    if (len < to - at &&
        xmt_tag_find_attribute(d + at, len + 1, "id", &vs, &ve) &&
        ve - vs == idlen && memcmp(d + at + vs, id, idlen) == 0)
      return 1;
  }
  return 0;
}
