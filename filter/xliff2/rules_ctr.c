/* rules_ctr.c -- check's rules of the Change Tracking module of XLIFF
 * 2.0 (5.6) that its schema cannot state: a <ctr:revisions>'
 * currentVersion is the version of one of its <ctr:revision>s; its ref
 * names an element of its appliesTo (for appliesTo "source" or "target",
 * the <segment> or <ignorable> that holds it) in the element that holds
 * the <ctr:changeTrack> (a <file>, <group> or <unit>), and is there when
 * that element has more than one of them (as siblings of the
 * <ctr:changeTrack> or their children); an <ctr:item>'s property is
 * "content" or an attribute of that element, given once in its
 * <ctr:revision>. The elements a reference may name come after the
 * module (the schema puts modules first), so a reference is resolved at
 * the end of the element that holds it: what is kept is the references
 * of the <ctr:changeTrack>s of the elements open, and the properties of
 * the <ctr:revision> being read. A <ctr:revision>'s datetime is not
 * checked: the module's schema gives it no type (the prose names W3C's
 * NOTE-datetime, whose zone is "+hh:mm"), and the specification's own
 * example, "2013-07-15T10:00:00+8:00", would be refused. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_private.h"

#define NS_CTR "urn:oasis:names:tc:xliff:changetracking:2.0|"

static const char *attr(const char **atts, const char *name) {
  for (size_t i = 0; atts[i] != NULL; i += 2)
    if (strcmp(atts[i], name) == 0)
      return atts[i + 1];
  return NULL;
}

static void say(struct x2_rules *r, struct pos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(struct x2_rules *r, struct pos at, const char *fmt, ...) {
  char text[320], msg[400];
  va_list ap;
  va_start(ap, fmt);
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  snprintf(msg, sizeof msg, "%s (XLIFF 2.0 §5.6)", text);
  xmt_x2_rules_report(r, at, msg);
}

/* An element name without a namespace prefix ("xlf:note": "note"). */
static const char *unprefixed(const char *name) {
  const char *colon = strrchr(name, ':');
  return colon != NULL ? colon + 1 : name;
}

static int source_or_target(const char *applies) {
  return strcmp(applies, "source") == 0 || strcmp(applies, "target") == 0;
}

static const char *scope_name(const struct x2_rules *r, size_t index) {
  return r->stack[index] == S_FILE    ? "file"
         : r->stack[index] == S_GROUP ? "group"
                                      : "unit";
}

/* The attributes of the core's elements an <ctr:item> may name (the
 * XLIFF 2.0 schema's); an attribute of another namespace is any. */
static int has_attribute(const char *elem, const char *property) {
  static const char *const lists[][9] = {
      {"file", "id", "canResegment", "original", "translate", "srcDir",
       "trgDir", "xml:space", NULL},
      {"group", "id", "name", "canResegment", "translate", "srcDir", "trgDir",
       "type", "xml:space"},
      {"unit", "id", "name", "canResegment", "translate", "srcDir", "trgDir",
       "type", "xml:space"},
      {"segment", "id", "canResegment", "state", "subState", NULL},
      {"ignorable", "id", NULL},
      {"note", "id", "appliesTo", "category", "priority", NULL},
      {"source", "xml:lang", "xml:space", NULL},
      {"target", "xml:lang", "xml:space", "order", NULL},
      {"data", "id", "dir", "xml:space", NULL}};
  if (strchr(property, ':') != NULL && strncmp(property, "xml:", 4) != 0)
    return 1;
  for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
    if (strcmp(lists[i][0], elem) != 0)
      continue;
    for (size_t j = 1; j < 9 && lists[i][j] != NULL; j++)
      if (strcmp(lists[i][j], property) == 0)
        return 1;
    return 0;
  }
  return 1; /* an element of a module: its attributes are not known here */
}

/* A <ctr:revisions>: its reference kept until the end of the element
 * that holds its <ctr:changeTrack>; its currentVersion until its end. */
static void revisions(struct x2_rules *r, const char **atts, struct pos at) {
  struct x2_ctr *c = &r->mod.ctr;
  const char *applies = attr(atts, "appliesTo"), *ref = attr(atts, "ref");
  const char *current = attr(atts, "currentVersion");
  snprintf(c->applies, sizeof c->applies, "%s",
           applies != NULL ? unprefixed(applies) : "");
  c->current_set = current != NULL;
  c->current_found = 0;
  snprintf(c->current, sizeof c->current, "%s", current ? current : "");
  c->revisions_at = at;
  if (!c->in_track || applies == NULL)
    return;
  struct ctr_ref *p = xmt_grow_one(&c->refs, c->nrefs, &c->cap, sizeof *p);
  size_t name = c->names.len;
  if (p == NULL ||
      xmt_buf_append(&c->names, c->applies, strlen(c->applies) + 1) != XMT_OK ||
      (ref != NULL &&
       xmt_buf_append(&c->names, ref, strlen(ref) + 1) != XMT_OK)) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return;
  }
  c->nrefs++;
  p->enc = c->track_depth - 1;
  p->applies = name;
  p->ref = ref != NULL ? name + strlen(c->applies) + 1 : SIZE_MAX;
  p->count = 0;
  p->found = 0;
  p->at = at;
}

/* An <ctr:item>: its property once in its revision, "content" or an
 * attribute of the element its <ctr:revisions> applies to. */
static void item(struct x2_rules *r, const char **atts, struct pos at) {
  struct x2_ctr *c = &r->mod.ctr;
  const char *property = attr(atts, "property");
  if (property == NULL)
    return; /* the schema tells it */
  for (size_t i = 0; i < c->props.len; i += strlen(c->props.data + i) + 1)
    if (strcmp(c->props.data + i, property) == 0) {
      say(r, at,
          "<ctr:item property=\"%.64s\"> repeats a property of its "
          "<ctr:revision>",
          property);
      break;
    }
  if (xmt_buf_append(&c->props, property, strlen(property) + 1) != XMT_OK)
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
  if (strcmp(property, "content") != 0 && c->applies[0] != '\0' &&
      !has_attribute(c->applies, property))
    say(r, at,
        "<ctr:item property=\"%.64s\"> is neither \"content\" nor an "
        "attribute of <%s>, which its <ctr:revisions> applies to",
        property, c->applies);
}

/* An element outside the module: one a pending reference may name. */
static void candidate(struct x2_rules *r, const char *name, const char **atts) {
  struct x2_ctr *c = &r->mod.ctr;
  const char *bar = strrchr(name, '|');
  const char *local = bar != NULL ? bar + 1 : name;
  const char *id = attr(atts, "id");
  for (size_t i = 0; i < c->nrefs; i++) {
    struct ctr_ref *p = &c->refs[i];
    const char *applies = c->names.data + p->applies;
    if (strcmp(local, applies) == 0 && r->depth - p->enc <= 2)
      p->count++;
    if (p->ref == SIZE_MAX || id == NULL ||
        strcmp(id, c->names.data + p->ref) != 0)
      continue;
    if (source_or_target(applies)
            ? strcmp(local, "segment") == 0 || strcmp(local, "ignorable") == 0
            : strcmp(local, applies) == 0)
      p->found = 1;
  }
}

void xmt_x2_ctr_start(struct x2_rules *r, const char *name, const char **atts,
                      struct pos at) {
  struct x2_ctr *c = &r->mod.ctr;
  if (strncmp(name, NS_CTR, sizeof NS_CTR - 1) != 0) {
    if (!c->in_track)
      candidate(r, name, atts);
    return;
  }
  const char *l = name + sizeof NS_CTR - 1;
  enum scope parent = (enum scope)r->stack[r->depth - 1];
  if (strcmp(l, "changeTrack") == 0 &&
      (parent == S_FILE || parent == S_GROUP || parent == S_UNIT)) {
    c->in_track = 1;
    c->track_depth = r->depth;
  } else if (strcmp(l, "revisions") == 0) {
    revisions(r, atts, at);
  } else if (strcmp(l, "revision") == 0) {
    const char *version = attr(atts, "version");
    if (version != NULL && c->current_set && strcmp(version, c->current) == 0)
      c->current_found = 1;
    xmt_buf_reset(&c->props);
  } else if (strcmp(l, "item") == 0) {
    item(r, atts, at);
  }
}

/* The references of the <ctr:changeTrack> of the element ending (stack
 * index index), told when they name nothing or are wanted. */
static void resolve(struct x2_rules *r, size_t index) {
  struct x2_ctr *c = &r->mod.ctr;
  while (c->nrefs > 0 && c->refs[c->nrefs - 1].enc == index) {
    const struct ctr_ref *p = &c->refs[--c->nrefs];
    const char *applies = c->names.data + p->applies;
    const char *scope = scope_name(r, index);
    if (p->ref != SIZE_MAX && !p->found && source_or_target(applies))
      say(r, p->at,
          "<ctr:revisions appliesTo=\"%s\" ref=\"%.64s\"> names no "
          "<segment> or <ignorable> of its <%s>",
          applies, c->names.data + p->ref, scope);
    else if (p->ref != SIZE_MAX && !p->found)
      say(r, p->at,
          "<ctr:revisions appliesTo=\"%s\" ref=\"%.64s\"> names no <%s "
          "id=\"%.64s\"> in its <%s>",
          applies, c->names.data + p->ref, applies, c->names.data + p->ref,
          scope);
    else if (p->ref == SIZE_MAX && p->count > 1)
      say(r, p->at,
          "<ctr:revisions appliesTo=\"%s\"> has no ref, where its <%s> "
          "has %zu <%s> elements",
          applies, scope, p->count, applies);
    c->names.len = p->applies;
  }
}

void xmt_x2_ctr_end(struct x2_rules *r, const char *name) {
  struct x2_ctr *c = &r->mod.ctr;
  size_t index = r->depth - 1;
  if (strncmp(name, NS_CTR, sizeof NS_CTR - 1) == 0) {
    const char *l = name + sizeof NS_CTR - 1;
    if (strcmp(l, "revisions") == 0 && c->current_set && !c->current_found)
      say(r, c->revisions_at,
          "<ctr:revisions> currentVersion=\"%.64s\" is the version of none "
          "of its <ctr:revision>s",
          c->current);
    if (strcmp(l, "revisions") == 0)
      c->current_set = 0;
    if (strcmp(l, "changeTrack") == 0 && c->in_track && index == c->track_depth)
      c->in_track = 0;
    return;
  }
  resolve(r, index);
}

void xmt_x2_ctr_free(struct x2_ctr *c) {
  free(c->refs);
  xmt_buf_free(&c->names);
  xmt_buf_free(&c->props);
}
