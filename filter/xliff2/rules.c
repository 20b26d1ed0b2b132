/* rules.c -- the rules of XLIFF 2 core that its schema cannot state, for
 * check: ids unique in their scope (a <file>'s in the document, a
 * <group>'s or <unit>'s in its <file>, a <segment>'s, <ignorable>'s and
 * inline code's in its <unit>, the codes of targets apart from those of
 * sources), each <sc>/<sm> not isolated ended by an <ec>/<em> of its
 * unit that names it (and the reverse), each dataRef, dataRefStart and
 * dataRefEnd naming a <data> of the unit's <originalData>. The document
 * is parsed again on its own: the reader keeps none of this. */
#include "config.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_private.h"

#define X2_RULES_SLICE 65536

enum scope {
  S_OTHER,
  S_ROOT,
  S_FILE,
  S_GROUP,
  S_UNIT,
  S_ORIGINAL, /* a unit's <originalData> */
  S_PART,     /* <segment>, <ignorable> */
  S_SOURCE,
  S_TARGET,
  S_INLINE
};

/* What a unit leaves to be resolved at its end: a reference (to a <data>,
 * or from a start to its end and back) and where it was made. */
struct pending {
  char what;   /* 'd': dataRef; 'c', 'e', 'm', 'n': sc, ec, sm, em */
  char side;   /* 's' source, 't' target */
  size_t name; /* the id referred to, in rules.names */
  size_t at;   /* the element, in the document */
  size_t attr; /* d: the attribute's name, in rules.names */
};

struct rules {
  const struct x2_doc *doc;
  XML_Parser parser;
  xmt_x2_rule_fn fn;
  void *user;
  xmt_status st;
  unsigned char *stack;
  size_t depth, stack_cap;
  struct xmt_memo files, ids, unit; /* ids by scope, with their place */
  struct xmt_buf unit_id, key, names;
  struct pending *pend;
  size_t npend, pend_cap;
};

static void stop(struct rules *r, xmt_status st) {
  if (r->st == XMT_OK)
    r->st = st;
  XML_StopParser(r->parser, XML_FALSE);
}

static size_t here(const struct rules *r) {
  XML_Index at = XML_GetCurrentByteIndex(r->parser);
  return at < 0 ? r->doc->data.len : (size_t)at;
}

/* Tells the rule broken at byte at. */
static void report(struct rules *r, size_t at, const char *msg) {
  unsigned long line, column;
  xmt_x2_locate(r->doc, at, &line, &column);
  const char *unit = r->unit_id.len > 0 ? r->unit_id.data : NULL;
  if (r->st == XMT_OK && r->fn(r->user, line, column, unit, msg) != 0)
    stop(r, XMT_ERR_ABORTED);
}

/* key = prefix and id; 0 when out of memory (recorded). */
static int make_key(struct rules *r, char prefix, char side, const char *id) {
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

/* An id of element elem in a scope: an error if the scope has it. */
static void unique(struct rules *r, struct xmt_memo *m, const char *scope,
                   const char *elem, char side, const char *id, size_t at) {
  size_t first = 0;
  if (!make_key(r, 'i', side, id))
    return;
  if (!xmt_memo_get(m, r->key.data, r->key.len, NULL, NULL, &first)) {
    if (xmt_memo_put(m, r->key.data, r->key.len, NULL, 0, at) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
    return;
  }
  unsigned long line, column;
  xmt_x2_locate(r->doc, first, &line, &column);
  char msg[320];
  snprintf(msg, sizeof msg,
           "<%s> id \"%.64s\" is used more than once in %s (first at line "
           "%lu, column %lu)",
           elem, id, scope, line, column);
  report(r, at, msg);
}

static size_t keep(struct rules *r, const char *s) {
  size_t at = r->names.len;
  if (xmt_buf_append(&r->names, s, strlen(s) + 1) != XMT_OK) {
    stop(r, XMT_ERR_NOMEM);
    return 0;
  }
  return at;
}

static void add_pending(struct rules *r, char what, char side, const char *id,
                        const char *attr, size_t at) {
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
  if (what != 'd' && make_key(r, what, side, id) &&
      xmt_memo_put(&r->unit, r->key.data, r->key.len, NULL, 0, at) != XMT_OK)
    stop(r, XMT_ERR_NOMEM);
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

/* The end of a unit: what its elements referred to must be in it. */
static void close_unit(struct rules *r) {
  char msg[320];
  for (size_t i = 0; r->st == XMT_OK && i < r->npend; i++) {
    const struct pending *p = &r->pend[i];
    const char *id = r->names.data + p->name;
    char w = wanted(p->what);
    if (!make_key(r, w, w == 'd' ? 0 : p->side, id))
      return;
    if (xmt_memo_get(&r->unit, r->key.data, r->key.len, NULL, NULL, NULL))
      continue;
    const char *where = p->side == 't' ? "targets" : "sources";
    if (p->what == 'd')
      snprintf(msg, sizeof msg,
               "%s=\"%.64s\" names no <data> in the <originalData> of its "
               "<unit>",
               r->names.data + p->attr, id);
    else if (p->what == 'c' || p->what == 'm')
      snprintf(msg, sizeof msg,
               "<%s id=\"%.64s\"> has no <%s startRef=\"%.64s\"> in the %s "
               "of its <unit> (and is not isolated=\"yes\")",
               pair_name(p->what), id, pair_name(w), id, where);
    else
      snprintf(msg, sizeof msg,
               "<%s startRef=\"%.64s\"> has no <%s id=\"%.64s\"> in the %s of "
               "its <unit>",
               pair_name(p->what), id, pair_name(w), id, where);
    report(r, p->at, msg);
  }
  r->npend = 0;
  xmt_buf_reset(&r->names);
  xmt_buf_reset(&r->unit_id);
  xmt_memo_clear(&r->unit);
}

/* The local name of an XLIFF 2 core element, or NULL. */
static const char *core_name(const char *name) {
  size_t n = sizeof X2_NS - 1;
  return strncmp(name, X2_NS, n) == 0 && name[n] == '|' ? name + n + 1 : NULL;
}

static int is(const char *local, const char *name) {
  return local != NULL && strcmp(local, name) == 0;
}

static void data_refs(struct rules *r, char side, const char **atts,
                      size_t at) {
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
static const char *const inline_attrs[][2] = {
    {"ph", " canCopy canDelete canReorder copyOf disp equiv id dataRef "
           "subFlows subType type "},
    {"pc", " canCopy canDelete canOverlap canReorder copyOf dispEnd "
           "dispStart equivEnd equivStart id dataRefEnd dataRefStart "
           "subFlowsEnd subFlowsStart subType type dir "},
    {"sc", " canCopy canDelete canOverlap canReorder copyOf dataRef dir disp "
           "equiv id isolated subFlows subType type "},
    {"ec", " canCopy canDelete canOverlap canReorder copyOf dataRef dir disp "
           "equiv id isolated startRef subFlows subType type "},
    {"mrk", " id translate type ref value "},
    {"sm", " id translate type ref value "},
    {"em", " startRef "},
    {"cp", " hex "}};

static void allowed_attrs(struct rules *r, const char *local, const char **atts,
                          size_t at) {
  const char *list = NULL;
  for (size_t i = 0; i < sizeof inline_attrs / sizeof *inline_attrs; i++)
    if (strcmp(local, inline_attrs[i][0]) == 0)
      list = inline_attrs[i][1];
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
             "not allow on it",
             local, name);
    report(r, at, msg);
  }
}

/* An inline element of a source or target. */
static void inline_code(struct rules *r, const char *local, char side,
                        const char **atts, size_t at) {
  static const char *const with_ids[] = {"ph", "pc", "sc", "ec", "mrk", "sm"};
  const char *id = xmt_x2_attr(atts, "id");
  const char *ref = xmt_x2_attr(atts, "startRef");
  const char *iso = xmt_x2_attr(atts, "isolated");
  int isolated = iso != NULL && strcmp(iso, "yes") == 0;
  allowed_attrs(r, local, atts, at);
  for (size_t i = 0; id != NULL && i < sizeof with_ids / sizeof *with_ids; i++)
    if (is(local, with_ids[i]))
      unique(r, &r->unit, "<unit>", local, side, id, at);
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

/* The scope an element opens inside one of kind parent. */
static enum scope structure(struct rules *r, enum scope parent,
                            const char *local, const char **atts, size_t at) {
  const char *id = xmt_x2_attr(atts, "id");
  if (parent == S_ROOT && is(local, "file")) {
    if (id != NULL)
      unique(r, &r->files, "<xliff>", "file", 0, id, at);
    xmt_memo_clear(&r->ids);
    return S_FILE;
  }
  if ((parent == S_FILE || parent == S_GROUP) &&
      (is(local, "group") || is(local, "unit"))) {
    if (id != NULL)
      unique(r, &r->ids, "its <file>", local, 0, id, at);
    if (is(local, "group"))
      return S_GROUP;
    xmt_buf_reset(&r->unit_id);
    if (id != NULL && xmt_buf_append(&r->unit_id, id, strlen(id) + 1) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
    return S_UNIT;
  }
  if (parent == S_UNIT && (is(local, "segment") || is(local, "ignorable"))) {
    if (id != NULL)
      unique(r, &r->unit, "<unit>", local, 's', id, at);
    return S_PART;
  }
  if (parent == S_PART && (is(local, "source") || is(local, "target")))
    return local[0] == 's' ? S_SOURCE : S_TARGET;
  if (parent == S_UNIT && is(local, "originalData"))
    return S_ORIGINAL;
  if (parent == S_ORIGINAL && is(local, "data") && id != NULL) {
    if (make_key(r, 'd', 0, id) &&
        xmt_memo_put(&r->unit, r->key.data, r->key.len, NULL, 0, at) != XMT_OK)
      stop(r, XMT_ERR_NOMEM);
  }
  return S_OTHER;
}

/* The side (source or target) the innermost content is on, or 0. */
static char side_of(const struct rules *r) {
  for (size_t i = r->depth; i > 0; i--)
    if (r->stack[i - 1] == S_SOURCE || r->stack[i - 1] == S_TARGET)
      return r->stack[i - 1] == S_SOURCE ? 's' : 't';
  return 0;
}

static void start_element(void *user, const XML_Char *name,
                          const XML_Char **atts) {
  struct rules *r = user;
  if (r->st != XMT_OK)
    return;
  const char *local = core_name(name);
  size_t at = here(r);
  enum scope s = S_ROOT;
  if (r->depth > 0) {
    enum scope parent = (enum scope)r->stack[r->depth - 1];
    char side = side_of(r);
    if (side != 0 && local != NULL) {
      inline_code(r, local, side, atts, at);
      s = S_INLINE;
    } else {
      s = local != NULL ? structure(r, parent, local, atts, at) : S_OTHER;
    }
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
  struct rules *r = user;
  (void)name;
  if (r->st != XMT_OK || r->depth == 0)
    return;
  if (r->stack[--r->depth] == S_UNIT)
    close_unit(r);
}

xmt_status xmt_x2_check_rules(const struct x2_doc *doc, xmt_x2_rule_fn fn,
                              void *user) {
  struct rules r;
  memset(&r, 0, sizeof r);
  r.doc = doc;
  r.fn = fn;
  r.user = user;
  r.parser = XML_ParserCreateNS("UTF-8", '|');
  if (r.parser == NULL)
    return XMT_ERR_NOMEM;
  XML_SetUserData(r.parser, &r);
  XML_SetElementHandler(r.parser, start_element, end_element);
  const char *data = doc->data.data != NULL ? doc->data.data : "";
  /* A slice at a time: expat copies what it is given, and a document
   * given whole would be held twice. An XML error is none of the rules'
   * business: the reader tells it. */
  size_t at = 0, len = doc->data.len;
  enum XML_Status parsed = XML_STATUS_OK;
  do {
    size_t n = len - at < X2_RULES_SLICE ? len - at : X2_RULES_SLICE;
    parsed = XML_Parse(r.parser, data + at, (int)n, at + n == len);
    at += n;
  } while (parsed == XML_STATUS_OK && r.st == XMT_OK && at < len);
  if (parsed == XML_STATUS_ERROR && r.st == XMT_OK)
    r.st = XML_GetErrorCode(r.parser) == XML_ERROR_NO_MEMORY ? XMT_ERR_NOMEM
                                                             : XMT_ERR_XML;
  XML_ParserFree(r.parser);
  free(r.stack);
  free(r.pend);
  xmt_memo_free(&r.files);
  xmt_memo_free(&r.ids);
  xmt_memo_free(&r.unit);
  xmt_buf_free(&r.unit_id);
  xmt_buf_free(&r.key);
  xmt_buf_free(&r.names);
  return r.st;
}
