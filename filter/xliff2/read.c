/* read.c -- reads an XLIFF 2.0-2.2 document with expat into the ranges of
 * what a translation changes: each <segment>'s start tag, its <source>
 * and <target> with their text and inline codes. Everything else (notes,
 * <originalData>, modules, <ignorable>) is left to be copied as it is.
 * The inline codes of a unit are paired when the unit ends (pairs.c). */
#include "config.h"

#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_private.h"

/* --- Errors and positions ----------------------------------------------------
 */

void xmt_x2_locate(const struct x2_doc *doc, size_t at, unsigned long *line,
                   unsigned long *column) {
  const unsigned char *s = (const unsigned char *)doc->data.data;
  size_t i = doc->offset == 0 && doc->data.len >= 3 && s[0] == 0xEF &&
                     s[1] == 0xBB && s[2] == 0xBF
                 ? 3
                 : 0;
  unsigned long l = doc->lines_before + 1, c = doc->chars_before;
  if (at > doc->data.len)
    at = doc->data.len;
  if (i < at) /* columns count characters */
    xmt_utf8_advance((const char *)s + i, at - i, &l, &c);
  *line = l;
  *column = c + 1;
}

/* The byte where the parser is. */
static size_t here(const struct reader *r) {
  XML_Index at = XML_GetCurrentByteIndex(r->parser);
  return at < 0 || (size_t)at < r->doc->offset ? r->doc->data.len
                                               : (size_t)at - r->doc->offset;
}

void xmt_x2_fail(struct reader *r, xmt_status st, size_t at, const char *fmt,
                 ...) {
  if (r->st != XMT_OK)
    return;
  r->st = st;
  unsigned long line, column;
  xmt_x2_locate(r->doc, at, &line, &column);
  const struct xmt_where where = {.file = r->doc->path,
                                  .line = line,
                                  .column = column,
                                  .unit_id = x2_str(r->doc, r->unit_id)};
  va_list ap;
  va_start(ap, fmt);
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  xmt_error_vat(r->err, st, &where, fmt, ap);
  va_end(ap);
  XML_StopParser(r->parser, XML_FALSE);
}

void xmt_x2_nomem(struct reader *r) {
  if (r->st != XMT_OK)
    return;
  r->st = xmt_error_nomem(r->err);
  XML_StopParser(r->parser, XML_FALSE);
}

/* --- Small helpers -----------------------------------------------------------
 */

size_t xmt_x2_keep(struct reader *r, const char *s) {
  if (s == NULL)
    return X2_NONE;
  size_t at = r->doc->pool.len;
  if (xmt_buf_append(&r->doc->pool, s, strlen(s) + 1) != XMT_OK) {
    xmt_x2_nomem(r);
    return X2_NONE;
  }
  return at;
}

const char *xmt_x2_attr(const char **atts, const char *name) {
  for (size_t i = 0; atts[i] != NULL; i += 2)
    if (strcmp(atts[i], name) == 0)
      return atts[i + 1];
  return NULL;
}

#define XML_SPACE "xml:space" /* as xml_names.c keeps it */
#define XML_SPACE_NS "http://www.w3.org/XML/1998/namespace|space"

struct frame *xmt_x2_push(struct reader *r, enum frame_kind kind) {
  /* What the parent passes on, before the stack moves. */
  unsigned char translate = 1, preserve = 0, resegment = 1;
  if (r->depth > 0 && r->stack != NULL) {
    translate = r->stack[r->depth - 1].translate;
    preserve = r->stack[r->depth - 1].preserve;
    resegment = r->stack[r->depth - 1].resegment;
  }
  /* grown only when full: a push for every element read */
  struct frame *f =
      r->depth < r->stack_cap
          ? &r->stack[r->depth]
          : xmt_grow_one(&r->stack, r->depth, &r->stack_cap, sizeof *f);
  if (f == NULL) {
    xmt_x2_nomem(r);
    return NULL;
  }
  r->depth++;
  f->kind = (unsigned char)kind;
  f->translate = translate;
  f->preserve = preserve;
  f->resegment = resegment;
  f->code = X2_NONE;
  f->side = 0;
  f->order = 0;
  return f;
}

/* translate, canResegment and xml:space of a structural element, found
 * in one pass over expat's list (the first of each, as xmt_x2_attr). */
static void inherit(struct frame *f, const char **atts) {
  int t = 0, reseg = 0, space = 0;
  for (size_t i = 0; atts[i] != NULL; i += 2) {
    const char *n = atts[i], *v = atts[i + 1];
    if (!t && n[0] == 't' && strcmp(n, "translate") == 0) {
      t = 1;
      f->translate = strcmp(v, "no") != 0;
    } else if (!reseg && n[0] == 'c' && strcmp(n, "canResegment") == 0) {
      reseg = 1;
      f->resegment = strcmp(v, "no") != 0;
    } else if (!space && (n[0] == 'x' || n[0] == 'h') &&
               (strcmp(n, XML_SPACE) == 0 || strcmp(n, XML_SPACE_NS) == 0)) {
      space = 1;
      f->preserve = strcmp(v, "preserve") == 0;
    }
  }
}

/* --- Structure ---------------------------------------------------------------
 */

static void open_root(struct reader *r, const char *local, const char **atts,
                      size_t at, size_t len) {
  if (local == NULL || strcmp(local, "xliff") != 0) {
    xmt_x2_fail(r, XMT_ERR_NOT_XLIFF, at, "%s",
                "the root element is not an XLIFF 2 <xliff>");
    return;
  }
  struct x2_doc *doc = r->doc;
  const char *version = xmt_x2_attr(atts, "version");
  if (version == NULL ||
      (strcmp(version, "2.0") != 0 && strcmp(version, "2.1") != 0 &&
       strcmp(version, "2.2") != 0)) {
    xmt_x2_fail(r, XMT_ERR_NOT_XLIFF, at,
                "XLIFF version %.32s is not supported (only XLIFF 2.0, 2.1 "
                "and 2.2 in this namespace)",
                version != NULL ? version : "(none)");
    return;
  }
  doc->root_start = at;
  doc->root_end = at + len;
  r->rooted = 1;
  const char *src = xmt_x2_attr(atts, "srcLang");
  const char *trg = xmt_x2_attr(atts, "trgLang");
  doc->version = xmt_strdup(version);
  doc->src_lang = src != NULL ? xmt_strdup(src) : NULL;
  doc->trg_lang = trg != NULL ? xmt_strdup(trg) : NULL;
  if (doc->version == NULL || (src != NULL && doc->src_lang == NULL) ||
      (trg != NULL && doc->trg_lang == NULL))
    xmt_x2_nomem(r);
  struct frame *f = xmt_x2_push(r, F_XLIFF);
  if (f != NULL)
    inherit(f, atts);
}

static void open_file(struct reader *r, const char **atts) {
  struct x2_doc *doc = r->doc;
  struct x2_file *files = xmt_grow_array(doc->files, &doc->files_cap,
                                         doc->nfiles + 1, sizeof *files);
  if (files == NULL) {
    xmt_x2_nomem(r);
    return;
  }
  doc->files = files;
  const char *name = xmt_x2_attr(atts, "original");
  if (name == NULL)
    name = xmt_x2_attr(atts, "id");
  if (name == NULL)
    name = "";
  doc->files[doc->nfiles++].name = doc->names.len;
  if (xmt_buf_append(&doc->names, name, strlen(name) + 1) != XMT_OK)
    xmt_x2_nomem(r);
  r->codepoints = 0;
  struct frame *f = xmt_x2_push(r, F_FILE);
  if (f != NULL)
    inherit(f, atts);
}

/* The maximum of a restriction "[min,]max" of the standard profiles;
 * 0 for "*" or what is not an integer. */
static size_t restriction_max(const char *v) {
  const char *comma = v != NULL ? strchr(v, ',') : NULL;
  const char *p = comma != NULL ? comma + 1 : v;
  size_t n = 0;
  for (; p != NULL && *p >= '0' && *p <= '9'; p++)
    n = n > SIZE_MAX / 10 - 1 ? SIZE_MAX : n * 10 + (size_t)(*p - '0');
  return p != NULL && *p == '\0' ? n : 0;
}

/* A <group>: its slr:sizeRestriction limits its units' targets together,
 * unless a group around it has one (the outermost is kept). */
static void open_group(struct reader *r, const char **atts) {
  struct frame *f = xmt_x2_push(r, F_GROUP);
  if (f == NULL)
    return;
  inherit(f, atts);
  size_t max =
      r->codepoints && r->group_max == 0
          ? restriction_max(xmt_x2_attr(atts, X2_SLR_NS "|sizeRestriction"))
          : 0;
  if (max != 0) {
    r->group_max = max;
    r->group_depth = r->depth;
    r->group_scope = ++r->groups_limited;
  }
}

/* After a </group> (r->depth not yet taken down): its limit ends. */
static void close_group(struct reader *r) {
  if (r->group_max != 0 && r->depth <= r->group_depth) {
    r->group_max = 0;
    r->group_scope = 0;
  }
}

static void open_unit(struct reader *r, const char **atts, size_t at,
                      size_t len) {
  const char *id = xmt_x2_attr(atts, "id");
  if (id == NULL) {
    xmt_x2_fail(r, XMT_ERR_FORMAT, at, "%s", "<unit> without id");
    return;
  }
  r->unit_id = xmt_x2_keep(r, id);
  r->unit_first = r->doc->nsegs;
  r->unit_tag_end = at + len;
  r->odata_start = r->odata_end = r->matches_close = 0;
  r->parts = 0;
  r->reordered = 0;
  r->ordered = 0;
  r->nomt_apart = 0;
  r->unit_max =
      r->codepoints
          ? restriction_max(xmt_x2_attr(atts, X2_SLR_NS "|sizeRestriction"))
          : 0;
  r->nfar = 0;
  struct frame *f = xmt_x2_push(r, F_UNIT);
  if (f != NULL)
    inherit(f, atts);
}

static enum x2_state state_of(const char *s) {
  if (s == NULL || strcmp(s, "initial") == 0)
    return X2_INITIAL;
  if (strcmp(s, "translated") == 0)
    return X2_TRANSLATED;
  return strcmp(s, "reviewed") == 0 ? X2_REVIEWED : X2_FINAL;
}

static void open_segment(struct reader *r, const char **atts, size_t at,
                         size_t len) {
  struct x2_doc *doc = r->doc;
  struct x2_segment *segs = doc->segs != NULL && doc->nsegs < doc->segs_cap
                                ? doc->segs
                                : xmt_grow_array(doc->segs, &doc->segs_cap,
                                                 doc->nsegs + 1, sizeof *segs);
  struct frame *f = segs != NULL ? xmt_x2_push(r, F_SEGMENT) : NULL;
  if (f == NULL) {
    if (segs == NULL)
      xmt_x2_nomem(r);
    return;
  }
  doc->segs = segs;
  struct x2_segment *s = &doc->segs[doc->nsegs++];
  memset(s, 0, sizeof *s);
  s->start = at;
  s->tag_end = at + len;
  s->key = X2_NONE;
  s->unit = r->unit_id;
  s->id = xmt_x2_keep(r, xmt_x2_attr(atts, "id"));
  s->file = doc->nfiles - 1;
  s->unit_tag_end = r->unit_tag_end;
  s->odata_start = r->odata_start;
  s->odata_end = r->odata_end;
  s->matches_close = r->matches_close;
  s->translate = f->translate;
  s->preserve = f->preserve;
  s->max_chars = r->unit_max;
  s->group_max = r->group_max;
  s->group_scope = r->group_scope;
  inherit(f, atts); /* a segment's own canResegment */
  s->can_resegment = f->resegment;
  s->part = s->order = ++r->parts;
  s->state = (unsigned char)state_of(xmt_x2_attr(atts, "state"));
  const char *state = xmt_x2_attr(atts, "state");
  if (state != NULL && s->state == X2_FINAL && strcmp(state, "final") != 0)
    xmt_x2_fail(r, XMT_ERR_FORMAT, at, "unknown segment state \"%.32s\"",
                state);
}

/* A <source> or <target> of the segment being read. */
static void open_content(struct reader *r, int target, const char **atts,
                         size_t at, size_t len) {
  struct x2_doc *doc = r->doc;
  struct x2_segment *s = &doc->segs[doc->nsegs - 1];
  struct x2_content *c = target ? &s->target : &s->source;
  if (c->end != 0 || (target && s->source.end == 0)) {
    xmt_x2_fail(r, XMT_ERR_FORMAT, at, "%s",
                target ? "<target> not right after one <source>"
                       : "a second <source> in a <segment>");
    return;
  }
  struct frame *f = xmt_x2_push(r, target ? F_TARGET : F_SOURCE);
  if (f == NULL)
    return;
  inherit(f, atts);
  if (target)
    s->order = xmt_x2_target_order(r, atts, s->part, at, len);
  if (!target) {
    s->preserve = f->preserve;
    size_t ws = at;
    while (ws > s->tag_end && xmt_is_xml_space(doc->data.data[ws - 1]))
      ws--;
    s->ws_start = ws;
    s->ws_end = at;
  }
  c->start = at;
  c->end = at + len; /* until its end tag */
  c->inner_start = c->inner_end = at + len;
  c->text = doc->texts.len;
  c->first_code = doc->ncodes;
  r->content = target ? 2 : 1;
}

/* The ref of a Matches or Glossary element (name) of the unit: kept when
 * it names an inline element of the unit's targets. Its selectors are
 * those of XLIFF 2's fragment identification: a u= of another unit is
 * not this unit's. */
static void module_ref(struct reader *r, const char *name, const char **atts,
                       size_t at) {
  const char *ref = xmt_x2_attr(atts, "ref");
  size_t n = strlen(X2_MTC_NS);
  if (ref == NULL || ref[0] != '#' || r->unit_id == X2_NONE ||
      (strncmp(name, X2_MTC_NS "|", n + 1) != 0 &&
       strncmp(name, X2_GLS_NS "|", strlen(X2_GLS_NS) + 1) != 0))
    return;
  const char *last = strrchr(ref, '/');
  last = last != NULL ? last + 1 : ref + 1;
  if (strncmp(last, "t=", 2) != 0 || last[2] == '\0')
    return;
  const char *unit = x2_str(r->doc, r->unit_id), *u = strstr(ref, "u=");
  size_t len = strlen(unit);
  if (u != NULL && (u[-1] == '/' || u[-1] == '#') &&
      (strncmp(u + 2, unit, len) != 0 || u[2 + len] != '/'))
    return;
  struct x2_doc *doc = r->doc;
  struct x2_ref *x =
      xmt_grow_one(&doc->refs, doc->nrefs, &doc->refs_cap, sizeof *x);
  if (x == NULL) {
    xmt_x2_nomem(r);
    return;
  }
  doc->nrefs++;
  x->id = xmt_x2_keep(r, last + 2);
  x->ref = xmt_x2_keep(r, ref);
  x->at = at;
  x->unit_end = 0;
}

/* 1 when a core element so named holds units, segments or their text. */
static int holds_units(const char *local) {
  static const char *const names[] = {"file",   "group",  "unit",     "segment",
                                      "source", "target", "ignorable"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(local, names[i]) == 0)
      return 1;
  return 0;
}

/* What the names of a tag say against XML namespaces, refused as expat's
 * namespace mode refuses it. */
/* The local name of an XLIFF 2 core element named as expat's namespace
 * mode names it, or NULL for another namespace's. */
static const char *core_name(const char *name) {
  size_t n = sizeof X2_NS - 1;
  return strncmp(name, X2_NS, n) == 0 && name[n] == '|' ? name + n + 1 : NULL;
}

static void names_failed(struct reader *r, enum XML_Error e) {
  if (e == XML_ERROR_NO_MEMORY)
    xmt_x2_nomem(r);
  else
    xmt_x2_fail(r, XMT_ERR_XML, here(r), "%s", XML_ErrorString(e));
  XML_StopParser(r->parser, XML_FALSE);
}

/* 1 when local is name: the first letter first, as most names passed
 * over differ there and a call to strcmp cost more than the name. */
static int is(const char *local, const char *name) {
  return local[0] == name[0] && strcmp(local, name) == 0;
}

static void start_element(void *user, const XML_Char *qname,
                          const XML_Char **raw_atts) {
  struct reader *r = user;
  if (r->st != XMT_OK)
    return;
  const char **atts = raw_atts, *name = qname, *local;
  if (r->ns_mode) {
    local = core_name(name);
  } else {
    enum XML_Error e;
    name = xmt_xml_names_start(&r->names, qname, raw_atts, &atts, &e);
    if (name == NULL) {
      names_failed(r, e);
      return;
    }
    local = r->names.element_in_bare ? name : NULL;
  }
  size_t at = here(r), len = (size_t)XML_GetCurrentByteCount(r->parser);
  /* An element an internal entity's text holds has no bytes of its own
   * (expat points at the reference): its markup cannot be kept. */
  if (r->unit_id != X2_NONE &&
      (len == 0 || at >= r->doc->data.len || r->doc->data.data[at] != '<')) {
    xmt_x2_fail(r, XMT_ERR_XML, at,
                "element <%s> from an entity's text in a unit: xliffmt "
                "cannot write it back; write it out in the document",
                local != NULL ? local : name);
    return;
  }
  if (r->depth == 0 || r->stack == NULL) {
    open_root(r, local, atts, at, len);
    return;
  }
  if (r->content != 0 || r->whole > 0) {
    xmt_x2_open_inline(r, local, atts, at, len);
    return;
  }
  enum frame_kind k = (enum frame_kind)r->stack[r->depth - 1].kind;
  if (local == NULL) {
    if (k == F_FILE && strcmp(name, X2_SLR_NS "|profiles") == 0) {
      const char *g = xmt_x2_attr(atts, "generalProfile");
      r->codepoints = g != NULL && strcmp(g, "xliff:codepoints") == 0;
    }
    module_ref(r, name, atts, at);
    int m = k == F_UNIT && strcmp(name, X2_MTC_NS "|matches") == 0;
    xmt_x2_push(r, m ? F_MATCHES : F_OTHER);
  } else if (k == F_UNIT && is(local, "originalData")) {
    r->odata_start = at;
    xmt_x2_push(r, F_ODATA);
  } else if (k == F_XLIFF && is(local, "file")) {
    open_file(r, atts);
  } else if ((k == F_FILE || k == F_GROUP) && is(local, "group")) {
    open_group(r, atts);
  } else if ((k == F_FILE || k == F_GROUP) && is(local, "unit")) {
    open_unit(r, atts, at, len);
  } else if (k == F_UNIT && is(local, "segment")) {
    open_segment(r, atts, at, len);
  } else if (k == F_UNIT && is(local, "ignorable")) {
    xmt_x2_open_ignorable_element(r);
  } else if (k == F_IGN_CONTENT ||
             (k == F_IGNORABLE &&
              (is(local, "source") || is(local, "target")))) {
    xmt_x2_open_ignorable(r, k, local, atts, at, len);
  } else if (k == F_SEGMENT && (is(local, "source") || is(local, "target"))) {
    open_content(r, local[0] == 't', atts, at, len);
  } else if (k >= F_XLIFF && k <= F_SEGMENT && holds_units(local)) {
    /* Out of its place (a unit in a unit, a segment in a segment): it
     * was passed over, untranslated and uncounted, where another reader
     * may take it. */
    static const char *const parents[] = {"",      "xliff", "file",
                                          "group", "unit",  "segment"};
    xmt_x2_fail(r, XMT_ERR_FORMAT, at,
                "a <%s> inside <%s>: readers differ on whether it is "
                "translated",
                local, parents[k]);
  } else {
    xmt_x2_push(r, F_OTHER); /* ignorable, notes, originalData, skeleton... */
  }
}

/* 1 when target t has the text of source s and its codes, each as written
 * at the same place: what xliff-simple-merge gives a new message. */
static int copies_source(const struct x2_doc *doc, const struct x2_content *s,
                         const struct x2_content *t) {
  if (s->text_len != t->text_len || s->ncodes != t->ncodes ||
      (s->text_len > 0 && memcmp(doc->texts.data + s->text,
                                 doc->texts.data + t->text, s->text_len) != 0))
    return 0;
  for (size_t k = 0; k < s->ncodes; k++) {
    const struct x2_code *a = &doc->codes[s->first_code + k];
    const struct x2_code *b = &doc->codes[t->first_code + k];
    if (a->offset != b->offset || a->end - a->start != b->end - b->start ||
        memcmp(doc->data.data + a->start, doc->data.data + b->start,
               a->end - a->start) != 0)
      return 0;
  }
  return 1;
}

/* The end of a <source> or <target>: its ranges and text. */
static void close_content(struct reader *r, size_t at, size_t len) {
  struct x2_doc *doc = r->doc;
  struct x2_segment *s = &doc->segs[doc->nsegs - 1];
  struct x2_content *c = r->content == 2 ? &s->target : &s->source;
  c->self_closing = len == 0;
  if (len > 0) {
    c->inner_end = at;
    c->end = at + len;
  }
  c->text_len = doc->texts.len - c->text;
  c->ncodes = doc->ncodes - c->first_code;
  if (r->content == 2) {
    const char *t = c->text_len > 0 ? doc->texts.data + c->text : "";
    for (size_t i = 0; i < c->text_len && !s->has_target; i++)
      s->has_target = !xmt_is_xml_space(t[i]);
    /* a comment is no translation (a code kept whole without an id) */
    for (size_t k = 0; k < c->ncodes && !s->has_target; k++) {
      const struct x2_code *x = &doc->codes[c->first_code + k];
      s->has_target = x->elem != X2_WHOLE || x->id != X2_NONE;
    }
    s->copied = s->has_target && s->state == X2_INITIAL &&
                copies_source(doc, &s->source, c);
  }
  r->content = 0;
}

static void end_element(void *user, const XML_Char *qname) {
  struct reader *r = user;
  if (r->st != XMT_OK)
    return;
  (void)qname;
  if (!r->ns_mode) /* its name checked at the start, in the same scope */
    xmt_xml_names_pop(&r->names);
  if (r->depth == 0)
    return;
  size_t at = here(r), len = (size_t)XML_GetCurrentByteCount(r->parser);
  struct frame *f = &r->stack[r->depth - 1];
  xmt_x2_end_depth(r);
  switch ((enum frame_kind)f->kind) {
  case F_INLINE:
    xmt_x2_close_inline(r, f, at, len);
    break;
  case F_SOURCE:
  case F_TARGET:
    close_content(r, at, len);
    break;
  case F_SEGMENT:
    if (r->doc->segs[r->doc->nsegs - 1].source.end == 0)
      xmt_x2_fail(r, XMT_ERR_FORMAT, at, "%s", "<segment> without <source>");
    r->doc->segs[r->doc->nsegs - 1].close = at;
    r->doc->segs[r->doc->nsegs - 1].end = at + len;
    break;
  case F_ODATA:
    r->odata_end = at + len;
    break;
  case F_IGNORABLE:
  case F_IGN_CONTENT:
    xmt_x2_close_ignorable(r, f, at, len);
    break;
  case F_MATCHES:
    r->matches_close = len > 0 ? at : 0; /* <mtc:matches/>: none to add to */
    break;
  case F_GROUP:
    close_group(r);
    break;
  case F_UNIT:
    for (size_t i = r->doc->nigns; i > 0 && r->doc->igns[i - 1].unit_end == 0;
         i--)
      r->doc->igns[i - 1].unit_end = at;
    for (size_t i = r->doc->nrefs; i > 0 && r->doc->refs[i - 1].unit_end == 0;
         i--)
      r->doc->refs[i - 1].unit_end = at;
    for (size_t i = r->doc->norders;
         i > 0 && r->doc->orders[i - 1].unit_end == 0; i--)
      r->doc->orders[i - 1].unit_end = at;
    xmt_x2_close_unit(r, at);
    if (r->on_unit != NULL && r->st == XMT_OK)
      r->on_unit(r, at + len);
    r->unit_id = X2_NONE;
    break;
  default:
    break;
  }
  r->depth--;
}

static void character_data(void *user, const XML_Char *s, int len) {
  struct reader *r = user;
  if (r->st != XMT_OK || r->content == 0 || r->whole > 0 || len <= 0)
    return;
  if (xmt_buf_append(&r->doc->texts, s, (size_t)len) != XMT_OK)
    xmt_x2_nomem(r);
}

/* A comment or processing instruction in a <source> or <target>: no
 * text, but kept as a code at its place. */
static void comment(void *user, const XML_Char *data) {
  struct reader *r = user;
  (void)data;
  if (r->st == XMT_OK && r->content != 0 && r->whole == 0)
    xmt_x2_inline_other(r, here(r), (size_t)XML_GetCurrentByteCount(r->parser));
}

static void processing_instruction(void *user, const XML_Char *target,
                                   const XML_Char *data) {
  struct reader *r = user;
  /* Namespaces forbid a colon in a target; expat's namespace mode finds
   * it as a bad token, where it stands. */
  const char *colon = r->ns_mode ? NULL : strchr(target, ':');
  if (colon != NULL && r->st == XMT_OK) {
    xmt_x2_fail(r, XMT_ERR_XML, here(r) + 2 + (size_t)(colon - target), "%s",
                XML_ErrorString(XML_ERROR_INVALID_TOKEN));
    XML_StopParser(r->parser, XML_FALSE);
    return;
  }
  comment(user, data);
}

/* A DTD: its names and references are checked against namespaces by
 * expat's tokenizer in namespace mode only, and no handler sees them all,
 * so such a document is read again from its start in that mode (it comes
 * before the root: nothing was read yet). */
static void start_doctype(void *user, const XML_Char *name,
                          const XML_Char *sysid, const XML_Char *pubid,
                          int has_internal_subset) {
  struct reader *r = user;
  (void)name, (void)sysid, (void)pubid, (void)has_internal_subset;
  r->restart = 1;
  XML_StopParser(r->parser, XML_FALSE);
}

/* An entity the parser could not read (external, or undeclared): its text
 * would be lost. */
static void skipped_entity(void *user, const XML_Char *name, int is_param) {
  struct reader *r = user;
  (void)is_param;
  if (r->content != 0)
    xmt_x2_fail(r, XMT_ERR_XML, here(r),
                "reference to the unknown entity &%.64s; in translatable text",
                name);
}

/* --- The document ------------------------------------------------------------
 */

/* A parser for r: in expat's namespace mode (ns) or with r->names. */
static xmt_status make_parser(struct reader *r, int ns) {
  if (r->parser != NULL)
    XML_ParserFree(r->parser);
  r->ns_mode = ns;
  r->parser = ns ? XML_ParserCreateNS("UTF-8", '|') : XML_ParserCreate("UTF-8");
  if (r->parser == NULL)
    return xmt_error_nomem(r->err);
  XML_SetUserData(r->parser, r);
  XML_SetElementHandler(r->parser, start_element, end_element);
  XML_SetCharacterDataHandler(r->parser, character_data);
  XML_SetSkippedEntityHandler(r->parser, skipped_entity);
  XML_SetCommentHandler(r->parser, comment);
  XML_SetProcessingInstructionHandler(r->parser, processing_instruction);
  if (!ns)
    XML_SetStartDoctypeDeclHandler(r->parser, start_doctype);
  return XMT_OK;
}

/* Parses the document's bytes so far, and len more at bytes. */
static enum XML_Status parse_bytes(struct reader *r, const char *bytes,
                                   size_t len, int last) {
  enum XML_Status ok =
      XML_Parse(r->parser, len > 0 ? bytes : "", (int)len, last);
  if (ok == XML_STATUS_ERROR && r->restart && r->st == XMT_OK) {
    /* From the start, in namespace mode: the document's bytes from its
     * first are still there, none cut off before its root. */
    r->restart = 0;
    if (r->doc->offset != 0 || r->fed + len > r->doc->data.len) {
      xmt_x2_fail(r, XMT_ERR_XML, here(r), "%s",
                  "a document type declaration after the document's start");
      return XML_STATUS_ERROR;
    }
    if (make_parser(r, 1) != XMT_OK) {
      r->st = XMT_ERR_NOMEM;
      return XML_STATUS_ERROR;
    }
    ok = XML_Parse(r->parser, r->doc->data.data, (int)(r->fed + len), last);
  }
  r->fed += len;
  return ok;
}

xmt_status xmt_x2_reader_feed(struct reader *r, const char *bytes, size_t len,
                              int last) {
  if (r->st != XMT_OK)
    return r->st;
  if (parse_bytes(r, bytes, len, last) == XML_STATUS_ERROR) {
    if (r->st == XMT_OK)
      xmt_x2_fail(r, XMT_ERR_XML, here(r), "%s",
                  XML_ErrorString(XML_GetErrorCode(r->parser)));
    return r->st;
  }
  if (last && r->st == XMT_OK && !r->rooted)
    xmt_x2_fail(r, XMT_ERR_NOT_XLIFF, 0, "%s", "no <xliff> element");
  return r->st;
}

static xmt_status parse(struct reader *r, size_t chunk) {
  const char *data = r->doc->data.data != NULL ? r->doc->data.data : "";
  size_t len = r->doc->data.len, at = 0;
  if (chunk == 0 || chunk > (size_t)1 << 30)
    chunk = (size_t)1 << 30;
  do {
    size_t n = len - at < chunk ? len - at : chunk;
    if (xmt_x2_reader_feed(r, data + at, n, at + n == len) != XMT_OK)
      return r->st;
    at += n;
  } while (at < len);
  return r->st;
}

/* The document as UTF-8, its encoding noted. */
static xmt_status to_utf8(struct x2_doc *doc, struct xmt_buf *data,
                          struct xmt_error_store *err) {
  char msg[256];
  unsigned long column = 0;
  xmt_status st =
      xmt_encoding_detect(data->data != NULL ? data->data : "", data->len, 1,
                          &doc->encoding, msg, sizeof msg, &column);
  if (st != XMT_OK)
    return xmt_error_at(err, st, XMT_AT(doc->path, 1, column), "%s", msg);
  if (doc->encoding == XMT_ENC_UTF8) {
    doc->data = *data;
    memset(data, 0, sizeof *data);
  } else {
    struct xmt_decoder dec;
    xmt_decoder_init(&dec, doc->encoding);
    st = xmt_decoder_run(&dec, data->data, data->len, 1, &doc->data);
    xmt_buf_free(data);
    if (st != XMT_OK)
      return xmt_error_at(err, st, XMT_AT(doc->path, dec.line, dec.column),
                          "byte sequence invalid in %s",
                          xmt_encoding_name(doc->encoding));
  }
  /* Every byte must be UTF-8 from here on: expat is told so. */
  size_t good = xmt_utf8_valid_prefix(doc->data.data, doc->data.len);
  if (good == doc->data.len)
    return XMT_OK;
  unsigned long line, col;
  xmt_x2_locate(doc, good, &line, &col);
  return xmt_error_at(err, XMT_ERR_ENCODING, XMT_AT(doc->path, line, col),
                      "invalid UTF-8 byte 0x%02X (is the encoding "
                      "declaration right?)",
                      (unsigned char)doc->data.data[good]);
}

xmt_status xmt_x2_reader_init(struct reader *r, struct x2_doc *doc,
                              struct xmt_error_store *err) {
  memset(r, 0, sizeof *r);
  r->doc = doc;
  r->err = err;
  r->unit_id = X2_NONE;
  r->nomt = X2_NONE;
  /* Namespaces are resolved by r->names, core elements by their local
   * name: cheaper than expat's own (xml_names.c). */
  xmt_xml_names_init(&r->names);
  if (xmt_xml_names_bare(&r->names, X2_NS) != XMT_OK)
    return xmt_error_nomem(err);
  return make_parser(r, 0);
}

void xmt_x2_reader_free(struct reader *r) {
  if (r->parser != NULL)
    XML_ParserFree(r->parser);
  free(r->stack);
  free(r->far);
  xmt_memo_free(&r->refs);
  xmt_unit_keys_free(&r->keys);
  xmt_buf_free(&r->scratch);
  xmt_xml_names_free(&r->names);
  memset(r, 0, sizeof *r);
}

xmt_status xmt_x2_utf8(struct x2_doc *doc, struct xmt_buf *data,
                       struct xmt_error_store *err) {
  return to_utf8(doc, data, err);
}

xmt_status xmt_x2_read(struct x2_doc *doc, struct xmt_buf *data,
                       const char *path, size_t chunk,
                       struct xmt_error_store *err) {
  memset(doc, 0, sizeof *doc);
  doc->path = path;
  xmt_status st = to_utf8(doc, data, err);
  if (st != XMT_OK)
    return st;
  struct reader r;
  st = xmt_x2_reader_init(&r, doc, err);
  if (st == XMT_OK)
    st = parse(&r, chunk);
  xmt_x2_reader_free(&r);
  return st;
}

void xmt_x2_free(struct x2_doc *doc) {
  if (doc->targets != NULL)
    for (size_t i = 0; i < doc->nsegs; i++)
      xmt_segment_free(doc->targets[i]);
  free(doc->targets);
  if (doc->splits != NULL)
    for (size_t i = 0; i < doc->nsegs; i++)
      xmt_x2_free_split(&doc->splits[i]);
  free(doc->splits);
  xmt_buf_free(&doc->data);
  xmt_buf_free(&doc->texts);
  xmt_buf_free(&doc->pool);
  xmt_buf_free(&doc->names);
  xmt_memo_free(&doc->keys);
  free(doc->version);
  free(doc->src_lang);
  free(doc->trg_lang);
  free(doc->segs);
  free(doc->codes);
  free(doc->files);
  free(doc->igns);
  free(doc->refs);
  free(doc->orders);
  memset(doc, 0, sizeof *doc);
}
