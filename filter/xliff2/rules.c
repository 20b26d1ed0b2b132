/* rules.c -- the rules of XLIFF 2 core that its schema cannot state, for
 * check: ids unique in their scope (a <file>'s in the document, a
 * <group>'s or <unit>'s in its <file>, a <segment>'s, <ignorable>'s and
 * inline code's in its <unit>, the codes of targets apart from those of
 * sources), each <sc>/<sm> not isolated ended by an <ec>/<em> of its
 * unit that names it (and the reverse), each dataRef, dataRefStart and
 * dataRefEnd naming a <data> of the unit's <originalData>; and, as
 * warnings, a segment's target that lacks a code of its source or has one
 * it has not, in XLIFF 2's names (the unit stream's are XLIFF 1.2's). The
 * document is parsed again on its own: the reader keeps none of this.
 * It is fed a part of the document at a time (stream.c cuts them at the
 * end of each <unit>): a position is made a line and column while its
 * part is there, and what outlives a unit is the ids of the <file>s and
 * of the current <file>'s groups and units, with their places. */
#include "config.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_private.h"

static void stop(struct x2_rules *r, xmt_status st) {
  if (r->st == XMT_OK)
    r->st = st;
  XML_StopParser(r->parser, XML_FALSE);
}

/* Where the parser is, in the part it is given (a unit is never cut
 * between parts: what it refers to is made a position while it is). */
static struct pos here(const struct x2_rules *r) {
  XML_Index at = XML_GetCurrentByteIndex(r->parser);
  size_t in = at < 0                        ? r->doc->data.len
              : (size_t)at < r->doc->offset ? 0
                                            : (size_t)at - r->doc->offset;
  struct pos p;
  xmt_x2_locate(r->doc, in, &p.line, &p.column);
  return p;
}

/* Tells the rule broken (a warning) at at. */
static void tell(struct x2_rules *r, struct pos at, const char *msg,
                 int warning) {
  const char *unit = r->unit_id.len > 0 ? r->unit_id.data : NULL;
  if (r->st == XMT_OK &&
      r->fn(r->user, at.line, at.column, unit, msg, warning) != 0)
    stop(r, XMT_ERR_ABORTED);
}

static void report(struct x2_rules *r, struct pos at, const char *msg) {
  tell(r, at, msg, 0);
}

void xmt_x2_rules_stop(struct x2_rules *r, xmt_status st) { stop(r, st); }

void xmt_x2_rules_report(struct x2_rules *r, struct pos at, const char *msg) {
  report(r, at, msg);
}

/* key = prefix and id; 0 when out of memory (recorded). */
static int make_key(struct x2_rules *r, char prefix, char side,
                    const char *id) {
  xmt_buf_reset(&r->key);
  xmt_status st = xmt_buf_append_byte(&r->key, prefix);
  if (st == XMT_OK && side != 0)
    st = xmt_buf_append_byte(&r->key, side);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&r->key, id);
  if (st != XMT_OK)
    stop(r, XMT_ERR_NOMEM);
  return st == XMT_OK;
}

int xmt_x2_rules_key(struct x2_rules *r, char prefix, char side,
                     const char *id) {
  return make_key(r, prefix, side, id);
}

int xmt_x2_rules_mark(struct x2_rules *r, struct xmt_memo *m, char prefix,
                      char side, const char *id) {
  if (!make_key(r, prefix, side, id))
    return 0;
  if (xmt_memo_put(m, r->key.data, r->key.len, NULL, 0, 0) != XMT_OK) {
    stop(r, XMT_ERR_NOMEM);
    return 0;
  }
  return 1;
}

/* An id of element elem in a scope: an error if the scope has it. The
 * scope keeps the id and its place (its line, its column as the value):
 * a <file>'s units outlive the parts they were read in. */
static void unique(struct x2_rules *r, struct xmt_memo *m, const char *scope,
                   const char *elem, char side, const char *id, struct pos at) {
  size_t line = 0;
  const char *value = NULL;
  size_t value_len = 0;
  if (!make_key(r, 'i', side, id))
    return;
  if (!xmt_memo_get(m, r->key.data, r->key.len, &value, &value_len, &line)) {
    if (xmt_memo_put(m, r->key.data, r->key.len, (const char *)&at.column,
                     sizeof at.column, at.line) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
    return;
  }
  unsigned long column = 0;
  if (value_len == sizeof column)
    memcpy(&column, value, sizeof column);
  char msg[320];
  snprintf(msg, sizeof msg,
           "<%s> id \"%.64s\" is used more than once in %s (first at line "
           "%lu, column %lu) (XLIFF 2.0 §4.3.1.21)",
           elem, id, scope, (unsigned long)line, column);
  report(r, at, msg);
}

/* A varint of v at p; its bytes. */
static size_t put_varint(unsigned char *p, unsigned long v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7)
    p[n++] = (unsigned char)(v | 0x80);
  p[n++] = (unsigned char)v;
  return n;
}

/* The varint at p[*at..len) into *v; 0 past len. */
static int get_varint(const unsigned char *p, size_t len, size_t *at,
                      unsigned long *v) {
  unsigned long r = 0;
  for (unsigned shift = 0; *at < len && shift < 64; shift += 7) {
    unsigned char c = p[(*at)++];
    r |= (unsigned long)(c & 0x7f) << shift;
    if ((c & 0x80) == 0) {
      *v = r;
      return 1;
    }
  }
  return 0;
}

int xmt_x2_rules_seen(struct x2_rules *r, struct xmt_unit_keys *keys,
                      const char *id, char kind, struct pos at,
                      char *first_kind, struct pos *first) {
  const char *value = NULL;
  size_t value_len = 0, len = strlen(id);
  if (!xmt_unit_keys_get(keys, id, len, &value, &value_len)) {
    unsigned char v[1 + 2 * 10];
    size_t n = 1;
    v[0] = (unsigned char)kind;
    n += put_varint(v + n, at.line);
    n += put_varint(v + n, at.column);
    keys->valued = 1;
    if (xmt_unit_keys_add(keys, id, len, (const char *)v, n) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
    return 0;
  }
  const unsigned char *v = (const unsigned char *)value;
  size_t i = 1;
  unsigned long line = 0, column = 0;
  if (value_len < 1 || !get_varint(v, value_len, &i, &line) ||
      !get_varint(v, value_len, &i, &column))
    line = column = 0;
  *first_kind = value_len > 0 ? (char)v[0] : '\0';
  *first = (struct pos){line, column};
  return 1;
}

/* A <group>'s or <unit>'s id (kind 'g', 'u'): an error if its <file> has
 * one (in r->file_ids). */
static void unique_in_file(struct x2_rules *r, char kind, const char *elem,
                           const char *id, struct pos at) {
  char first_kind = 0;
  struct pos first;
  if (!xmt_x2_rules_seen(r, &r->file_ids, id, kind, at, &first_kind, &first))
    return;
  /* subFlows may name the unit whose id a group had first */
  if (kind == 'u' && first_kind != 'u')
    xmt_x2_rules_mark(r, &r->ids, 'u', 0, id);
  char msg[320];
  snprintf(msg, sizeof msg,
           "<%s> id \"%.64s\" is used more than once in its <file> (first "
           "at line %lu, column %lu) (XLIFF 2.0 §4.3.1.21)",
           elem, id, first.line, first.column);
  report(r, at, msg);
}

int xmt_x2_rules_has_unit(struct x2_rules *r, const char *id) {
  const char *value = NULL;
  size_t value_len = 0;
  if (xmt_unit_keys_get(&r->file_ids, id, strlen(id), &value, &value_len) &&
      value_len > 0 && value[0] == 'u')
    return 1;
  return xmt_x2_rules_key(r, 'u', 0, id) &&
         xmt_memo_get(&r->ids, r->key.data, r->key.len, NULL, NULL, NULL);
}

static size_t keep(struct x2_rules *r, const char *s) {
  size_t at = r->names.len;
  if (xmt_buf_append(&r->names, s, strlen(s) + 1) != XMT_OK) {
    stop(r, XMT_ERR_NOMEM);
    return 0;
  }
  return at;
}

static void add_pending(struct x2_rules *r, char what, char side,
                        const char *id, const char *attr, struct pos at) {
  struct pending *p = xmt_grow_one(&r->pend, r->npend, &r->pend_cap, sizeof *p);
  if (p == NULL) {
    stop(r, XMT_ERR_NOMEM);
    return;
  }
  r->npend++;
  p->what = what;
  p->side = side;
  p->at = at;
  p->name = keep(r, id);
  p->attr = keep(r, attr != NULL ? attr : "");
  /* A start or an end is known by what refers to it. */
  if (strchr("cemn", what) != NULL && make_key(r, what, side, id) &&
      xmt_memo_put(&r->unit, r->key.data, r->key.len, NULL, 0, 0) != XMT_OK)
    stop(r, XMT_ERR_NOMEM);
}

void xmt_x2_rules_pend(struct x2_rules *r, char what, char side, const char *id,
                       const char *attr, struct pos at) {
  add_pending(r, what, side, id, attr, at);
}

/* The partner a pending reference needs, as a key prefix. */
static char wanted(char what) {
  switch (what) {
  case 'c':
    return 'e';
  case 'e':
    return 'c';
  case 'm':
    return 'n';
  case 'n':
    return 'm';
  default:
    return 'd';
  }
}

static const char *const pair_names[] = {"sc", "ec", "sm", "em"};

static const char *pair_name(char what) {
  return pair_names[what == 'c' ? 0 : what == 'e' ? 1 : what == 'm' ? 2 : 3];
}

/* The local name of an XLIFF 2 core element, or NULL. */
static const char *core_name(const char *name) {
  size_t n = sizeof X2_NS - 1;
  return strncmp(name, X2_NS, n) == 0 && name[n] == '|' ? name + n + 1 : NULL;
}

static int is(const char *local, const char *name) {
  return local != NULL && strcmp(local, name) == 0;
}

static int code_order(const void *a, const void *b) {
  const struct code *x = a, *y = b;
  if (x->seg != y->seg)
    return x->seg < y->seg ? -1 : 1;
  int c = strcmp(x->n, y->n);
  if (c == 0)
    c = strcmp(x->i, y->i);
  if (c == 0 && x->side != y->side)
    c = x->side == 's' ? -1 : 1;
  return c != 0 ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* A code as written: <sm id="m1">, <em startRef="m1">. */
static void code_name(const struct x2_rules *r, const struct code *x, char *out,
                      size_t size) {
  const char *name = r->names.data + x->name;
  int ref = strcmp(name, "ec") == 0 || strcmp(name, "em") == 0;
  const char *id = r->names.data + x->id;
  if (ref && strncmp(id, "#", 1) == 0) /* an isolated ec's own id */
    snprintf(out, size, "<%s id=\"%.40s\">", name, id + 1);
  else
    snprintf(out, size, "<%s %s=\"%.40s\">", name, ref ? "startRef" : "id", id);
}

/* The first code of segment seg (0: the unit's, its targets composed
 * with order) on one side that the other lacks: a warning each way, as
 * for XLIFF 1.2, in the names of XLIFF 2. */
static void compare_segment(struct x2_rules *r, size_t from, size_t to) {
  const struct seg *g = r->codes[from].seg > 0 && r->codes[from].seg <= r->nsegs
                            ? &r->segs[r->codes[from].seg - 1]
                            : NULL;
  char lacks[120] = "", has[120] = "", msg[400], where[120];
  for (size_t i = from; i < to;) {
    size_t j = i, ns = 0, nt = 0;
    while (j < to && strcmp(r->codes[j].n, r->codes[i].n) == 0 &&
           strcmp(r->codes[j].i, r->codes[i].i) == 0) {
      ns += r->codes[j].side == 's';
      nt += r->codes[j].side == 't';
      j++;
    }
    if (ns > nt && lacks[0] == '\0')
      code_name(r, &r->codes[i], lacks, sizeof lacks);
    if (nt > ns && has[0] == '\0')
      code_name(r, &r->codes[i], has, sizeof has);
    i = j;
  }
  if (g == NULL)
    snprintf(where, sizeof where, "%s", "the <target>s of the <unit>");
  else if (g->id != SIZE_MAX)
    snprintf(where, sizeof where, "<target> of <segment id=\"%.40s\">",
             r->names.data + g->id);
  else
    snprintf(where, sizeof where, "<target> of segment %zu",
             (size_t)(g - r->segs) + 1);
  struct pos at = g != NULL ? g->at : r->unit_at;
  if (lacks[0] != '\0') {
    snprintf(msg, sizeof msg, "%s %s the inline code %s of its <source>%s",
             where, g != NULL ? "lacks" : "lack", lacks, g != NULL ? "" : "s");
    tell(r, at, msg, 1);
  }
  if (has[0] != '\0') {
    snprintf(msg, sizeof msg, "%s %s an inline code %s not in its <source>%s",
             where, g != NULL ? "has" : "have", has, g != NULL ? "" : "s");
    tell(r, at, msg, 1);
  }
}

/* The codes of each segment's target against its source's (the unit's
 * targets against its sources when they are composed with order). */
static void compare_codes(struct x2_rules *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->ncodes; i++) {
    size_t seg = r->codes[i].seg;
    if (seg == 0 || seg > r->nsegs || !r->segs[seg - 1].target)
      continue;
    r->codes[n] = r->codes[i];
    r->codes[n].n = r->names.data + r->codes[n].name;
    r->codes[n].i = r->names.data + r->codes[n].id;
    if (r->ordered)
      r->codes[n].seg = 0;
    n++;
  }
  if (n > 1)
    qsort(r->codes, n, sizeof *r->codes, code_order);
  for (size_t i = 0; i < n && r->st == XMT_OK;) {
    size_t j = i;
    while (j < n && r->codes[j].seg == r->codes[i].seg)
      j++;
    compare_segment(r, i, j);
    i = j;
  }
}

/* A code of the segment being read (local: its element). */
static void add_code(struct x2_rules *r, const char *local, char side,
                     const char **atts) {
  if (!r->in_segment || r->nsegs == 0 || is(local, "cp"))
    return;
  const char *iso_id = NULL, *id = xmt_x2_attr(atts, "id");
  if (is(local, "ec") || is(local, "em")) {
    iso_id = id;
    id = xmt_x2_attr(atts, "startRef");
  }
  struct code *x = xmt_grow_one(&r->codes, r->ncodes, &r->codes_cap, sizeof *x);
  if (x == NULL) {
    stop(r, XMT_ERR_NOMEM);
    return;
  }
  x->seg = r->nsegs;
  x->side = side;
  x->seq = r->ncodes++;
  x->name = keep(r, local);
  if (id == NULL && iso_id != NULL) { /* an isolated ec by its own id */
    x->id = keep(r, "#");
    r->names.len--; /* the id follows the '#' */
    keep(r, iso_id);
  } else {
    x->id = keep(r, id != NULL ? id : "");
  }
  if (side == 't')
    r->segs[r->nsegs - 1].target = 1;
}

/* The section of the XLIFF 2.0 specification (4.3.1.N) that defines a
 * dataRef attribute. */
static const char *data_ref_section(const char *attr) {
  return strcmp(attr, "dataRef") == 0      ? "9"
         : strcmp(attr, "dataRefEnd") == 0 ? "10"
                                           : "11";
}

/* The end of a unit: what its elements referred to must be in it. */
static void close_unit(struct x2_rules *r) {
  char msg[320];
  for (size_t i = 0; r->st == XMT_OK && i < r->npend; i++) {
    const struct pending *p = &r->pend[i];
    const char *id = r->names.data + p->name;
    if (xmt_x2_mod_unresolved(r, p))
      continue;
    char w = wanted(p->what);
    if (!make_key(r, w, w == 'd' ? 0 : p->side, id))
      return;
    if (xmt_memo_get(&r->unit, r->key.data, r->key.len, NULL, NULL, NULL))
      continue;
    const char *where = p->side == 't' ? "targets" : "sources";
    if (p->what == 'd')
      snprintf(msg, sizeof msg,
               "%s=\"%.64s\" names no <data> in the <originalData> of its "
               "<unit> (XLIFF 2.0 §4.3.1.%s)",
               r->names.data + p->attr, id,
               data_ref_section(r->names.data + p->attr));
    else if (p->what == 'c' || p->what == 'm')
      snprintf(msg, sizeof msg,
               "<%s id=\"%.64s\"> has no <%s startRef=\"%.64s\"> in the %s "
               "of its <unit>%s (XLIFF 2.0 §4.2.3.%s)",
               pair_name(p->what), id, pair_name(w), id, where,
               p->what == 'c' ? " (and is not isolated=\"yes\")" : "",
               p->what == 'c' ? "4" : "7");
    else
      snprintf(msg, sizeof msg,
               "<%s startRef=\"%.64s\"> has no <%s id=\"%.64s\"> in the %s of "
               "its <unit> (XLIFF 2.0 §4.2.3.%s)",
               pair_name(p->what), id, pair_name(w), id, where,
               p->what == 'e' ? "5" : "8");
    report(r, p->at, msg);
  }
  xmt_x2_mod_unit_end(r);
  xmt_x2_refs_unit_end(r);
  compare_codes(r);
  r->npend = 0;
  r->ncodes = r->nsegs = 0;
  r->ordered = 0;
  xmt_buf_reset(&r->names);
  xmt_buf_reset(&r->unit_id);
  xmt_memo_clear(&r->unit);
}

static void data_refs(struct x2_rules *r, char side, const char **atts,
                      struct pos at) {
  static const char *const refs[] = {"dataRef", "dataRefStart", "dataRefEnd"};
  for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
    const char *v = xmt_x2_attr(atts, refs[i]);
    if (v != NULL)
      add_pending(r, 'd', side, v, refs[i], at);
  }
}

/* The attributes of no namespace the core schema allows on each inline
 * element (xliff_core_2.0.xsd; 2.1 and 2.2 add none): one it does not
 * allow would be copied into a target, or collide with its renamed twin
 * when a <pc> is written as <sc>/<ec> (dataRef beside dataRefStart). */
static const char *const inline_attrs[][3] = {
    {"ph", "2",
     " canCopy canDelete canReorder copyOf disp equiv id dataRef "
     "subFlows subType type "},
    {"pc", "3",
     " canCopy canDelete canOverlap canReorder copyOf dispEnd "
     "dispStart equivEnd equivStart id dataRefEnd dataRefStart "
     "subFlowsEnd subFlowsStart subType type dir "},
    {"sc", "4",
     " canCopy canDelete canOverlap canReorder copyOf dataRef dir disp "
     "equiv id isolated subFlows subType type "},
    {"ec", "5",
     " canCopy canDelete canOverlap canReorder copyOf dataRef dir disp "
     "equiv id isolated startRef subFlows subType type "},
    {"mrk", "6", " id translate type ref value "},
    {"sm", "7", " id translate type ref value "},
    {"em", "8", " startRef "},
    {"cp", "1", " hex "}};

static void allowed_attrs(struct x2_rules *r, const char *local,
                          const char **atts, struct pos at) {
  const char *list = NULL, *section = "";
  for (size_t i = 0; i < sizeof inline_attrs / sizeof *inline_attrs; i++)
    if (strcmp(local, inline_attrs[i][0]) == 0) {
      section = inline_attrs[i][1];
      list = inline_attrs[i][2];
    }
  for (size_t i = 0; list != NULL && atts[i] != NULL; i += 2) {
    const char *name = atts[i], *hit = list;
    size_t n = strlen(name);
    if (strchr(name, '|') != NULL) /* another namespace's: the schema's lax */
      continue;
    while ((hit = strstr(hit, name)) != NULL &&
           (hit[-1] != ' ' || hit[n] != ' '))
      hit++;
    if (hit != NULL)
      continue;
    char msg[200];
    snprintf(msg, sizeof msg,
             "<%s> has an attribute %.64s that the XLIFF 2 core schema does "
             "not allow on it (XLIFF 2.0 §4.2.3.%s)",
             local, name, section);
    report(r, at, msg);
  }
}

/* An inline element of a source or target. */
static void inline_code(struct x2_rules *r, const char *local, char side,
                        const char **atts, struct pos at) {
  static const char *const with_ids[] = {"ph", "pc", "sc", "ec", "mrk", "sm"};
  const char *id = xmt_x2_attr(atts, "id");
  const char *ref = xmt_x2_attr(atts, "startRef");
  const char *iso = xmt_x2_attr(atts, "isolated");
  int isolated = iso != NULL && strcmp(iso, "yes") == 0;
  allowed_attrs(r, local, atts, at);
  add_code(r, local, side, atts);
  for (size_t i = 0; id != NULL && i < sizeof with_ids / sizeof *with_ids; i++)
    if (is(local, with_ids[i])) {
      unique(r, &r->unit, "<unit>", local, side, id, at);
      /* a code (not a marker) a copyOf may name */
      if (i < 4)
        xmt_x2_rules_mark(r, &r->unit, 'k', 0, id);
    }
  data_refs(r, side, atts, at);
  if (is(local, "sc") && id != NULL && !isolated)
    add_pending(r, 'c', side, id, NULL, at);
  else if (is(local, "ec") && ref != NULL && !isolated)
    add_pending(r, 'e', side, ref, NULL, at);
  else if (is(local, "sm") && id != NULL)
    add_pending(r, 'm', side, id, NULL, at);
  else if (is(local, "em") && ref != NULL)
    add_pending(r, 'n', side, ref, NULL, at);
}

static void open_segment(struct x2_rules *r, const char *id, struct pos at) {
  struct seg *g = xmt_grow_one(&r->segs, r->nsegs, &r->segs_cap, sizeof *g);
  if (g == NULL) {
    stop(r, XMT_ERR_NOMEM);
    return;
  }
  r->nsegs++;
  g->at = at;
  g->id = id != NULL ? keep(r, id) : SIZE_MAX;
  g->target = 0;
}

/* The scope an element opens inside one of kind parent. */
static enum scope structure(struct x2_rules *r, enum scope parent,
                            const char *local, const char **atts,
                            struct pos at) {
  const char *id = xmt_x2_attr(atts, "id");
  if (parent == S_ROOT && is(local, "file")) {
    if (id != NULL) {
      unique(r, &r->files, "<xliff>", "file", 0, id, at);
      xmt_x2_refs_element(r, 'F', id);
    }
    xmt_memo_clear(&r->ids);
    xmt_unit_keys_free(&r->file_ids);
    r->file_ids.valued = 1;
    return S_FILE;
  }
  if ((parent == S_FILE || parent == S_GROUP) &&
      (is(local, "group") || is(local, "unit"))) {
    if (id != NULL) {
      unique_in_file(r, local[0], local, id, at);
      xmt_x2_refs_element(r, is(local, "group") ? 'G' : 'U', id);
    }
    if (is(local, "group")) {
      xmt_x2_refs_group(r, id);
      return S_GROUP;
    }
    xmt_x2_mod_unit_start(r);
    xmt_buf_reset(&r->unit_id);
    if (id != NULL && xmt_buf_append(&r->unit_id, id, strlen(id) + 1) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
    r->unit_at = at;
    return S_UNIT;
  }
  if (parent == S_UNIT && (is(local, "segment") || is(local, "ignorable"))) {
    if (id != NULL)
      unique(r, &r->unit, "<unit>", local, 's', id, at);
    r->in_segment = is(local, "segment");
    if (r->in_segment)
      open_segment(r, id, at);
    return S_PART;
  }
  if (parent == S_PART && (is(local, "source") || is(local, "target"))) {
    if (local[0] == 't' && xmt_x2_attr(atts, "order") != NULL)
      r->ordered = 1;
    return local[0] == 's' ? S_SOURCE : S_TARGET;
  }
  if (parent == S_UNIT && is(local, "originalData"))
    return S_ORIGINAL;
  if (parent == S_UNIT && is(local, "notes"))
    return S_NOTES;
  if (parent == S_NOTES && is(local, "note") && id != NULL)
    xmt_x2_rules_mark(r, &r->unit, 'N', 0, id);
  if (parent == S_ORIGINAL && is(local, "data") && id != NULL) {
    if (make_key(r, 'd', 0, id) &&
        xmt_memo_put(&r->unit, r->key.data, r->key.len, NULL, 0, 0) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
  }
  return S_OTHER;
}

/* The side (source or target) the innermost content is on, or 0. */
static char side_of(const struct x2_rules *r) {
  for (size_t i = r->depth; i > 0; i--)
    if (r->stack[i - 1] == S_SOURCE || r->stack[i - 1] == S_TARGET)
      return r->stack[i - 1] == S_SOURCE ? 's' : 't';
  return 0;
}

static void start_element(void *user, const XML_Char *name,
                          const XML_Char **atts) {
  struct x2_rules *r = user;
  if (r->st != XMT_OK)
    return;
  const char *local = core_name(name);
  struct pos at = here(r);
  enum scope s = S_ROOT;
  if (r->depth == 0)
    xmt_x2_mod_root(r, atts, at);
  if (r->depth > 0) {
    enum scope parent = (enum scope)r->stack[r->depth - 1];
    char side = side_of(r);
    if (side != 0 && local != NULL) {
      inline_code(r, local, side, atts, at);
      s = S_INLINE;
    } else {
      s = local != NULL ? structure(r, parent, local, atts, at) : S_MODULE;
    }
    xmt_x2_mod_start(r, name, local, atts, side, at);
  }
  unsigned char *top =
      xmt_grow_one(&r->stack, r->depth, &r->stack_cap, sizeof *top);
  if (top == NULL) {
    stop(r, XMT_ERR_NOMEM);
    return;
  }
  *top = (unsigned char)s;
  r->depth++;
}

static void end_element(void *user, const XML_Char *name) {
  struct x2_rules *r = user;
  if (r->st != XMT_OK || r->depth == 0)
    return;
  xmt_x2_mod_end(r, name);
  if (r->stack[--r->depth] == S_UNIT)
    close_unit(r);
  else if (r->stack[r->depth] == S_GROUP)
    xmt_x2_refs_group_end(r);
  else if (r->depth == 1 && r->stack[1] == S_FILE)
    xmt_x2_mod_file_end(r);
  else if (r->stack[r->depth] == S_PART)
    r->in_segment = 0;
  if (r->depth == 0)
    xmt_x2_refs_end(r);
}

/* Text of a segment's target: the target is one to compare. */
static void character_data(void *user, const XML_Char *s, int len) {
  struct x2_rules *r = user;
  if (r->st != XMT_OK || !r->in_segment || r->nsegs == 0 ||
      r->segs[r->nsegs - 1].target || side_of(r) != 't')
    return;
  for (int i = 0; i < len; i++)
    if (!xmt_is_xml_space(s[i]))
      r->segs[r->nsegs - 1].target = 1;
}

xmt_status xmt_x2_rules_new(struct x2_rules **out, xmt_x2_rule_fn fn,
                            void *user) {
  struct x2_rules *r = calloc(1, sizeof *r);
  *out = r;
  if (r == NULL)
    return XMT_ERR_NOMEM;
  r->doc = &r->none;
  r->fn = fn;
  r->user = user;
  r->parser = XML_ParserCreateNS("UTF-8", '|');
  if (r->parser == NULL)
    return XMT_ERR_NOMEM;
  XML_SetUserData(r->parser, r);
  XML_SetElementHandler(r->parser, start_element, end_element);
  XML_SetCharacterDataHandler(r->parser, character_data);
  return XMT_OK;
}

xmt_status xmt_x2_rules_feed(struct x2_rules *r, const struct x2_doc *part,
                             int last) {
  if (r->st != XMT_OK)
    return r->st;
  r->doc = part;
  const char *data = part->data.data != NULL ? part->data.data : "";
  /* A slice at a time: expat copies what it is given, and a part given
   * whole would be held twice. An XML error is none of the rules'
   * business: the reader tells it. */
  size_t at = 0, len = part->data.len;
  enum XML_Status parsed = XML_STATUS_OK;
  do {
    size_t n = len - at < X2_RULES_SLICE ? len - at : X2_RULES_SLICE;
    parsed = XML_Parse(r->parser, data + at, (int)n, last && at + n == len);
    at += n;
  } while (parsed == XML_STATUS_OK && r->st == XMT_OK && at < len);
  if (parsed == XML_STATUS_ERROR && r->st == XMT_OK)
    r->st = XML_GetErrorCode(r->parser) == XML_ERROR_NO_MEMORY ? XMT_ERR_NOMEM
                                                               : XMT_ERR_XML;
  /* Nothing of the part is looked at once it is parsed. */
  r->none.offset = part->offset + len;
  r->doc = &r->none;
  return r->st;
}

void xmt_x2_rules_free(struct x2_rules *r) {
  if (r == NULL)
    return;
  if (r->parser != NULL)
    XML_ParserFree(r->parser);
  free(r->stack);
  free(r->pend);
  free(r->codes);
  free(r->segs);
  xmt_memo_free(&r->files);
  xmt_memo_free(&r->ids);
  xmt_unit_keys_free(&r->file_ids);
  xmt_memo_free(&r->unit);
  xmt_x2_mod_free(&r->mod);
  xmt_x2_refs_free(&r->refs);
  xmt_buf_free(&r->unit_id);
  xmt_buf_free(&r->key);
  xmt_buf_free(&r->names);
  free(r);
}

xmt_status xmt_x2_check_rules(const struct x2_doc *doc, xmt_x2_rule_fn fn,
                              void *user) {
  struct x2_rules *r = NULL;
  xmt_status st = xmt_x2_rules_new(&r, fn, user);
  if (st == XMT_OK)
    st = xmt_x2_rules_feed(r, doc, 1);
  xmt_x2_rules_free(r);
  return st;
}
