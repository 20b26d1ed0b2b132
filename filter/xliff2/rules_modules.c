/* rules_modules.c -- the constraints of XLIFF 2 that its schemas cannot
 * state, beyond the ids and pairs of rules.c: of the core, a comment
 * annotation's text or note, canReorder sequences and the hints they
 * fix, copyOf and subFlows naming what exists, an <ec>'s startRef or
 * id; of the modules, the references of Translation Candidates (mtc),
 * Glossary (gls) and Resource Data (res), a glossary entry's content,
 * Format Style's subFs, Size and Length Restriction's sizeInfo and the
 * values of its standard profiles, and the
 * form of a Validation rule. Each is told with the section of the XLIFF
 * 2.0 specification that states it. What a rule keeps outlives no unit,
 * but the subFlows and res:resourceItemRef references of the current
 * <file> and its res:resourceItem ids (resolved at its end), the ids of
 * the <res:resourceData> being read, and the <file>'s size profiles. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rules_private.h"

#define NS_MTC "urn:oasis:names:tc:xliff:matches:2.0|"
#define NS_GLS "urn:oasis:names:tc:xliff:glossary:2.0|"
#define NS_FS "urn:oasis:names:tc:xliff:fs:2.0|"
#define NS_RES "urn:oasis:names:tc:xliff:resourcedata:2.0|"
#define NS_SLR "urn:oasis:names:tc:xliff:sizerestriction:2.0|"
#define NS_VAL "urn:oasis:names:tc:xliff:validation:2.0|"
#define NS_MDA "urn:oasis:names:tc:xliff:metadata:2.0|"

/* The local name of name when it is in namespace ns ("uri|"), or NULL. */
static const char *in_ns(const char *name, const char *ns) {
  size_t n = strlen(ns);
  return strncmp(name, ns, n) == 0 ? name + n : NULL;
}

/* An element's name without its namespace. */
static const char *local_name(const char *name) {
  const char *bar = strrchr(name, '|');
  return bar != NULL ? bar + 1 : name;
}

static int is(const char *local, const char *name) {
  return local != NULL && strcmp(local, name) == 0;
}

static const char *attr(const char **atts, const char *name) {
  for (size_t i = 0; atts[i] != NULL; i += 2)
    if (strcmp(atts[i], name) == 0)
      return atts[i + 1];
  return NULL;
}

static int yes(const char *v) { return v == NULL || strcmp(v, "yes") == 0; }

/* Tells a rule broken at at, with its section. */
static void say(struct x2_rules *r, struct pos at, const char *section,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void say(struct x2_rules *r, struct pos at, const char *section,
                const char *fmt, ...) {
  char text[320], msg[400];
  va_list ap;
  va_start(ap, fmt);
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  snprintf(msg, sizeof msg, "%s (XLIFF 2.0 §%s)", text, section);
  xmt_x2_rules_report(r, at, msg);
}

/* A reference to a span of the unit ("#ID": a segment, an ignorable or a
 * code or marker of a source; "#t=ID": of a target), to resolve at the
 * unit's end. A reference of another form (to another unit, or
 * absolute) is not followed. */
static void span_ref(struct x2_rules *r, char what, const char *ref,
                     const char *elem, struct pos at) {
  if (ref == NULL || ref[0] != '#')
    return;
  char side = 's';
  const char *id = ref + 1;
  if (strncmp(id, "t=", 2) == 0) {
    side = 't';
    id += 2;
  }
  if (id[0] == '\0' || strpbrk(id, "/=") != NULL)
    return;
  xmt_x2_rules_pend(r, what, side, id, elem, at);
}

/* An element's kept reference to a list of names (elements apart from
 * the unit's pending: they outlive it). */
static struct pending *keep_ref(struct x2_rules *r, struct pending **list,
                                size_t *n, size_t *cap, struct xmt_buf *names,
                                const char *id, const char *attr_name,
                                struct pos at) {
  struct pending *p = xmt_grow_one(list, *n, cap, sizeof *p);
  size_t at_id = names->len;
  if (p == NULL || xmt_buf_append(names, id, strlen(id) + 1) != XMT_OK ||
      xmt_buf_append(names, attr_name, strlen(attr_name) + 1) != XMT_OK) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return NULL;
  }
  (*n)++;
  p->what = 'f';
  p->side = 0;
  p->name = at_id;
  p->attr = at_id + strlen(id) + 1;
  p->at = at;
  return p;
}

/* subFlows (a <ph>, <sc>, <ec>), subFlowsStart and subFlowsEnd (a <pc>):
 * each name in the list a <unit> of the <file>, known at its end. */
static void sub_flows(struct x2_rules *r, const char **atts, struct pos at) {
  static const char *const names[] = {"subFlows", "subFlowsStart",
                                      "subFlowsEnd"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *v = attr(atts, names[i]);
    while (v != NULL && *v != '\0') {
      size_t n = strcspn(v, " \t\r\n");
      if (n > 0) {
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)(n < 127 ? n : 127), v);
        keep_ref(r, &r->mod.flows, &r->mod.nflows, &r->mod.flows_cap,
                 &r->mod.flow_names, id, names[i], at);
      }
      v += n;
      v += strspn(v, " \t\r\n");
    }
  }
}

/* canReorder (4.3.1.5): a "no" or "firstNo" code can be neither copied
 * nor deleted, and a "no" code continues a sequence a "firstNo" code
 * started (in the sources, or the targets, of its unit). An <ec> that
 * ends an <sc>, and markers, are no step of a sequence. */
static void can_reorder(struct x2_rules *r, const char *local,
                        const char **atts, char side, struct pos at) {
  const char *v = attr(atts, "canReorder");
  char *in_seq = &r->mod.reorder[side == 't'];
  if (is(local, "ec") && !(attr(atts, "isolated") != NULL &&
                           strcmp(attr(atts, "isolated"), "yes") == 0))
    return;
  if (v == NULL || strcmp(v, "yes") == 0) {
    *in_seq = 0;
    return;
  }
  if (yes(attr(atts, "canCopy")) || yes(attr(atts, "canDelete")))
    say(r, at, "4.3.1.5",
        "<%s canReorder=\"%s\"> has canCopy or canDelete other than \"no\"",
        local, v);
  if (strcmp(v, "no") == 0 && !*in_seq)
    say(r, at, "4.3.1.5",
        "<%s canReorder=\"no\"> follows no code of canReorder=\"firstNo\"",
        local);
  *in_seq = 1;
}

/* A code or marker of a segment's (or ignorable's) source or target. */
static void core_inline(struct x2_rules *r, const char *local,
                        const char **atts, char side, struct pos at) {
  const char *type = attr(atts, "type"), *ref = attr(atts, "ref");
  int comment = type != NULL && strcmp(type, "comment") == 0;
  /* a comment's "#n=" is told below, with its own section (4.3.1.27) */
  if (is(local, "mrk") || is(local, "sm"))
    xmt_x2_refs_check(r, local, ref,
                      !comment || ref == NULL || strncmp(ref, "#n=", 3) != 0,
                      at);
  if ((is(local, "mrk") || is(local, "sm")) && comment) {
    if (attr(atts, "value") == NULL && ref == NULL)
      say(r, at, "4.7.3", "<%s type=\"comment\"> has neither a value nor a ref",
          local);
    if (ref != NULL && strncmp(ref, "#n=", 3) == 0 && ref[3] != '\0')
      xmt_x2_rules_pend(r, 'r', side, ref + 3, local, at);
  }
  if (is(local, "mrk") || is(local, "sm") || is(local, "em") || is(local, "cp"))
    return;
  can_reorder(r, local, atts, side, at);
  const char *copy = attr(atts, "copyOf");
  if (copy != NULL) {
    xmt_x2_rules_pend(r, 'o', side, copy, local, at);
    if (attr(atts, "dataRef") != NULL || attr(atts, "dataRefStart") != NULL ||
        attr(atts, "dataRefEnd") != NULL)
      say(r, at, "4.3.1.8",
          "<%s> has both copyOf and a reference to original data", local);
  }
  if (is(local, "ec")) {
    const char *iso = attr(atts, "isolated");
    int isolated = iso != NULL && strcmp(iso, "yes") == 0;
    if (isolated &&
        (attr(atts, "startRef") != NULL || attr(atts, "id") == NULL))
      say(r, at, "4.2.3.5",
          "<ec isolated=\"yes\"> must have an id and no startRef");
    else if (!isolated && attr(atts, "startRef") == NULL)
      say(r, at, "4.2.3.5",
          "<ec> that is not isolated=\"yes\" has no startRef");
  }
  sub_flows(r, atts, at);
}

/* A Validation module <rule>: exactly one test; occurs only with
 * isPresent; existsInSource only with isPresent, startsWith, endsWith. */
static void val_rule(struct x2_rules *r, const char **atts, struct pos at) {
  static const char *const tests[] = {"isPresent", "isNotPresent", "startsWith",
                                      "endsWith"};
  size_t n = 0;
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
    n += attr(atts, tests[i]) != NULL;
  for (size_t i = 0; atts[i] != NULL; i += 2) /* a custom rule */
    n += strchr(atts[i], '|') != NULL;
  if (n != 1)
    say(r, at, "5.8",
        "<val:rule> has %s of isPresent, isNotPresent, startsWith, "
        "endsWith and a custom rule, not exactly one",
        n == 0 ? "none" : "more than one");
  if (attr(atts, "occurs") != NULL && attr(atts, "isPresent") == NULL)
    say(r, at, "5.8", "<val:rule> has occurs without isPresent");
  if (attr(atts, "existsInSource") != NULL && attr(atts, "isPresent") == NULL &&
      attr(atts, "startsWith") == NULL && attr(atts, "endsWith") == NULL)
    say(r, at, "5.8",
        "<val:rule> has existsInSource without isPresent, startsWith or "
        "endsWith");
}

/* Resource Data (5.5): an id of a <res:resourceItem> or
 * <res:resourceItemRef> is unique among those of its <res:resourceData>;
 * a <res:resourceItemRef> names a <res:resourceItem> of its <file> (at
 * the file's level, where the specification's example puts it; one of a
 * unit is taken too, as the Schematron of XLIFF 2.1 does), resolved at
 * the file's end. */
static void res_start(struct x2_rules *r, const char *local, const char **atts,
                      struct pos at) {
  struct x2_mod *m = &r->mod;
  const char *id = attr(atts, "id");
  if (is(local, "resourceData")) {
    xmt_memo_clear(&m->res_ids);
    return;
  }
  if (!is(local, "resourceItem") && !is(local, "resourceItemRef"))
    return;
  if (id != NULL && xmt_x2_rules_key(r, 'i', 0, id)) {
    if (xmt_memo_get(&m->res_ids, r->key.data, r->key.len, NULL, NULL, NULL))
      say(r, at, "5.5",
          "<res:%s> id \"%.64s\" is used more than once in its "
          "<res:resourceData>",
          local, id);
    else
      xmt_x2_rules_mark(r, &m->res_ids, 'i', 0, id);
  }
  if (is(local, "resourceItem") && id != NULL)
    xmt_x2_rules_mark(r, &m->res_items, 'R', 0, id);
  else if (is(local, "resourceItemRef") && attr(atts, "ref") != NULL)
    keep_ref(r, &m->res, &m->nres, &m->res_cap, &m->res_names,
             attr(atts, "ref"), "ref", at);
}

/* Metadata (5.4): the id of an <mda:metadata> or <mda:metaGroup> is
 * unique among those of its <mda:metadata> (the element and all the
 * groups in it). */
static void mda_start(struct x2_rules *r, const char *local, const char **atts,
                      struct pos at) {
  struct x2_mod *m = &r->mod;
  const char *id = attr(atts, "id");
  if (is(local, "metadata"))
    xmt_memo_clear(&m->mda_ids);
  if (id == NULL || !(is(local, "metadata") || is(local, "metaGroup")) ||
      !xmt_x2_rules_key(r, 'i', 0, id))
    return;
  if (xmt_memo_get(&m->mda_ids, r->key.data, r->key.len, NULL, NULL, NULL))
    say(r, at, "5.4",
        "<mda:%s> id \"%.64s\" is used more than once in its <mda:metadata>",
        local, id);
  else
    xmt_x2_rules_mark(r, &m->mda_ids, 'i', 0, id);
}

/* An integer as the standard profiles of Size and Length take it
 * (n bytes of s), an optional sign and digits. */
static int integer(const char *s, size_t n) {
  size_t i = n > 0 && (s[0] == '-' || s[0] == '+');
  if (i == n)
    return 0;
  for (; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return 0;
  return 1;
}

/* A restriction of a standard profile: "[minsize,]maxsize", each an
 * integer, the maximum "*" for none. */
static int restriction(const char *v) {
  const char *comma = strchr(v, ',');
  const char *max = comma != NULL ? comma + 1 : v;
  if (comma != NULL && !integer(v, (size_t)(comma - v)))
    return 0;
  return strcmp(max, "*") == 0 || integer(max, strlen(max));
}

/* The Size and Length attributes of an element under the standard
 * profiles of its <file> (5.7, "Standard profiles"). */
static void slr_values(struct x2_rules *r, const char *elem, const char **atts,
                       struct pos at) {
  static const struct {
    const char *name, *profile;
    int info; /* 1: an integer, empty allowed; 0: a restriction */
  } rules[] = {{NS_SLR "sizeRestriction", "xliff:codepoints", 0},
               {NS_SLR "sizeInfo", "xliff:codepoints", 1},
               {NS_SLR "storageRestriction", NULL, 0},
               {NS_SLR "equivStorage", NULL, 1}};
  for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
    const char *v = attr(atts, rules[i].name);
    if (v == NULL || !(i < 2 ? r->mod.codepoints : r->mod.utf))
      continue;
    if (rules[i].info ? v[0] == '\0' || integer(v, strlen(v)) : restriction(v))
      continue;
    char profile[20];
    snprintf(profile, sizeof profile, "xliff:utf%d", r->mod.utf);
    say(r, at, "5.7",
        "<%s> slr:%s=\"%.64s\" is not %s, as the profile %s of its <file> "
        "wants",
        elem, local_name(rules[i].name), v,
        rules[i].info ? "an integer" : "\"[min,]max\" of integers (max \"*\")",
        rules[i].profile != NULL ? rules[i].profile : profile);
  }
}

/* A <file>: its profiles are none until its <slr:profiles>, before
 * which its own restrictions are kept (name NUL value NUL, each). */
static void slr_file(struct x2_rules *r, const char **atts, struct pos at) {
  struct x2_mod *m = &r->mod;
  m->codepoints = m->utf = 0;
  m->file_at = at;
  xmt_buf_reset(&m->file_slr);
  for (size_t i = 0; atts[i] != NULL; i += 2)
    if (strncmp(atts[i], NS_SLR, sizeof NS_SLR - 1) == 0 &&
        (xmt_buf_append(&m->file_slr, atts[i], strlen(atts[i]) + 1) != XMT_OK ||
         xmt_buf_append(&m->file_slr, atts[i + 1], strlen(atts[i + 1]) + 1) !=
             XMT_OK))
      xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
}

/* A <file>'s <slr:profiles>: the standard profiles it selects; then the
 * <file>'s own restrictions. */
static void slr_profiles(struct x2_rules *r, const char **atts) {
  struct x2_mod *m = &r->mod;
  const char *g = attr(atts, "generalProfile");
  const char *st = attr(atts, "storageProfile");
  m->codepoints = g != NULL && strcmp(g, "xliff:codepoints") == 0;
  m->utf = st == NULL                       ? 0
           : strcmp(st, "xliff:utf8") == 0  ? 8
           : strcmp(st, "xliff:utf16") == 0 ? 16
           : strcmp(st, "xliff:utf32") == 0 ? 32
                                            : 0;
  const char *own[10];
  size_t n = 0;
  for (size_t at = 0; at < m->file_slr.len && n + 2 < 10;) {
    own[n++] = m->file_slr.data + at;
    at += strlen(m->file_slr.data + at) + 1;
  }
  own[n - n % 2] = NULL;
  slr_values(r, "file", own, m->file_at);
}

/* A <segment>'s or <ignorable>'s <source> or <target>: its language is
 * the document's (4.2.2.12, 4.2.2.13), a target wants a trgLang
 * (4.2.2.1), a target's order is kept for the unit's end. */
static void part_content(struct x2_rules *r, const char *local,
                         const char **atts, struct pos at) {
  struct x2_mod *m = &r->mod;
  int target = is(local, "target");
  const char *lang = attr(atts, "http://www.w3.org/XML/1998/namespace|lang");
  const char *want = target ? m->trg_lang : m->src_lang;
  if (target && m->trg_lang[0] == '\0' && !m->trg_told) {
    m->trg_told = 1;
    say(r, at, "4.2.2.1", "<target> in a document without trgLang");
  }
  if (lang != NULL && want[0] != '\0' && strcasecmp(lang, want) != 0)
    say(r, at, target ? "4.2.2.13" : "4.2.2.12",
        "<%s> xml:lang=\"%.40s\" is not the document's %s \"%s\"", local, lang,
        target ? "trgLang" : "srcLang", want);
  const char *order = attr(atts, "order");
  if (target && order != NULL) {
    char *end = NULL;
    unsigned long v = strtoul(order, &end, 10);
    struct order *o =
        xmt_grow_one(&m->orders, m->norders, &m->orders_cap, sizeof *o);
    if (o == NULL) {
      xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
      return;
    }
    if (end == order || *end != '\0')
      return; /* the schema tells it */
    m->norders++;
    o->value = v;
    o->at = at;
  }
}

/* An element of a unit a fragment identifier may name from elsewhere
 * (rules_refs.c). */
static void unit_leaf(struct x2_rules *r, const char *local, char side,
                      const char *id) {
  enum scope parent = (enum scope)r->stack[r->depth - 1];
  char kind =
      side != 0                                   ? side
      : parent == S_NOTES && is(local, "note")    ? 'n'
      : parent == S_ORIGINAL && is(local, "data") ? 'd'
      : parent == S_UNIT && (is(local, "segment") || is(local, "ignorable"))
          ? 's'
          : 0;
  if (kind != 0)
    xmt_x2_refs_leaf(r, kind, id);
}

/* The innermost <file> ('f'), <group> ('g') or <unit> ('u') open. */
static char scope_open(const struct x2_rules *r) {
  for (size_t i = r->depth; i > 0; i--)
    if (r->stack[i - 1] == S_FILE || r->stack[i - 1] == S_GROUP ||
        r->stack[i - 1] == S_UNIT)
      return r->stack[i - 1] == S_FILE    ? 'f'
             : r->stack[i - 1] == S_GROUP ? 'g'
                                          : 'u';
  return 0;
}

/* A <note> of a <file> or <group>, or an element of a module with an id
 * (XLIFF 2.0 §3.1.2), that a fragment identifier may name (rules_refs.c);
 * a unit's notes are unit_leaf's. */
static void scope_leaf(struct x2_rules *r, const char *name, const char *local,
                       const char *id) {
  const char *l, *prefix = NULL;
  char scope = scope_open(r);
  if (id == NULL || scope == 0)
    return;
  if (local != NULL)
    prefix = is(local, "note") && r->depth >= 2 &&
                     (r->stack[r->depth - 2] == S_FILE ||
                      r->stack[r->depth - 2] == S_GROUP)
                 ? "n"
                 : NULL;
  else if ((l = in_ns(name, NS_MTC)) != NULL)
    prefix = is(l, "match") ? "mtc" : NULL;
  else if ((l = in_ns(name, NS_GLS)) != NULL)
    prefix = is(l, "glossEntry") || is(l, "translation") ? "gls" : NULL;
  else if ((l = in_ns(name, NS_RES)) != NULL)
    prefix = is(l, "resourceItem") || is(l, "resourceItemRef") ? "res" : NULL;
  else if ((l = in_ns(name, NS_MDA)) != NULL)
    prefix = is(l, "metadata") || is(l, "metaGroup") ? "mda" : NULL;
  if (prefix != NULL)
    xmt_x2_refs_leaf_in(r, prefix, scope, id);
}

void xmt_x2_mod_start(struct x2_rules *r, const char *name, const char *local,
                      const char **atts, char side, struct pos at) {
  const char *l = NULL;
  const char *fs = NS_FS "fs", *sub = NS_FS "subFs";
  if (attr(atts, sub) != NULL && attr(atts, fs) == NULL)
    say(r, at, "5.3", "<%s> has fs:subFs without fs:fs",
        local != NULL ? local : local_name(name));
  if (attr(atts, NS_SLR "sizeInfo") != NULL &&
      attr(atts, NS_SLR "sizeInfoRef") != NULL)
    say(r, at, "5.7", "<%s> has both slr:sizeInfo and slr:sizeInfoRef",
        local != NULL ? local : local_name(name));
  if (local != NULL && side == 0 && r->depth > 0 &&
      r->stack[r->depth - 1] == S_UNIT &&
      (is(local, "segment") || is(local, "ignorable")))
    r->mod.nparts++;
  xmt_x2_its_start(r, local != NULL ? local : local_name(name), atts, at);
  xmt_x2_its_element(r, name, local, atts, at);
  if (is(local, "file") && r->depth == 1)
    slr_file(r, atts, at);
  else if (local != NULL)
    slr_values(r, local, atts, at);
  else if ((l = in_ns(name, NS_SLR)) != NULL && is(l, "profiles") &&
           r->depth > 0 && r->stack[r->depth - 1] == S_FILE)
    slr_profiles(r, atts);
  if (local != NULL && side == 0 && r->depth > 0 &&
      r->stack[r->depth - 1] == S_PART &&
      (is(local, "source") || is(local, "target")))
    part_content(r, local, atts, at);
  xmt_x2_ctr_start(r, name, atts, at);
  if (local != NULL && r->unit_id.len > 0 && attr(atts, "id") != NULL)
    unit_leaf(r, local, side, attr(atts, "id"));
  scope_leaf(r, name, local, attr(atts, "id"));
  if (local != NULL) {
    /* an inline code's size information in its unit's original data */
    const char *size = attr(atts, NS_SLR "sizeInfoRef");
    if (side != 0 && size != NULL)
      xmt_x2_rules_pend(r, 'z', side, size, local, at);
    if (side != 0)
      core_inline(r, local, atts, side, at);
    return;
  }
  if ((l = in_ns(name, NS_MTC)) != NULL && is(l, "match")) {
    xmt_x2_refs_check(r, "mtc:match", attr(atts, "ref"), 0, at);
    if (r->unit_id.len > 0)
      span_ref(r, 'M', attr(atts, "ref"), "mtc:match", at);
  } else if ((l = in_ns(name, NS_GLS)) != NULL) {
    if (is(l, "glossEntry")) {
      r->mod.gloss_open = 1;
      r->mod.gloss_has = 0;
      r->mod.gloss_at = at;
    } else if (is(l, "translation") || is(l, "definition")) {
      r->mod.gloss_has = 1;
    }
    if (is(l, "glossEntry") || is(l, "translation"))
      xmt_x2_refs_check(
          r, is(l, "glossEntry") ? "gls:glossEntry" : "gls:translation",
          attr(atts, "ref"), 0, at);
    if (r->unit_id.len > 0 && (is(l, "glossEntry") || is(l, "translation")))
      span_ref(r, 'G', attr(atts, "ref"),
               is(l, "glossEntry") ? "gls:glossEntry" : "gls:translation", at);
  } else if ((l = in_ns(name, NS_RES)) != NULL) {
    res_start(r, l, atts, at);
  } else if ((l = in_ns(name, NS_VAL)) != NULL && is(l, "rule")) {
    val_rule(r, atts, at);
  } else if ((l = in_ns(name, NS_MDA)) != NULL) {
    mda_start(r, l, atts, at);
  }
}

void xmt_x2_mod_end(struct x2_rules *r, const char *name) {
  struct x2_mod *m = &r->mod;
  const char *l = NULL;
  if (r->depth > 1)
    xmt_x2_ctr_end(r, name);
  if (r->depth > 1)
    xmt_x2_its_end(r, name);
  if ((l = in_ns(name, NS_GLS)) != NULL && is(l, "glossEntry") &&
      m->gloss_open) {
    m->gloss_open = 0;
    if (!m->gloss_has)
      say(r, m->gloss_at, "5.2",
          "<gls:glossEntry> has neither a <gls:translation> nor a "
          "<gls:definition>");
  }
}

void xmt_x2_mod_unit_start(struct x2_rules *r) {
  r->mod.reorder[0] = r->mod.reorder[1] = 0;
  r->mod.norders = r->mod.nparts = 0;
}

void xmt_x2_mod_root(struct x2_rules *r, const char **atts, struct pos at) {
  const char *src = attr(atts, "srcLang"), *trg = attr(atts, "trgLang");
  snprintf(r->mod.src_lang, sizeof r->mod.src_lang, "%s",
           src != NULL ? src : "");
  snprintf(r->mod.trg_lang, sizeof r->mod.trg_lang, "%s",
           trg != NULL ? trg : "");
  xmt_x2_its_start(r, "xliff", atts, at);
}

/* order (4.3.1.24): at most the number of segments and ignorables of
 * the unit, and given to one target only. */
void xmt_x2_mod_unit_end(struct x2_rules *r) {
  struct x2_mod *m = &r->mod;
  for (size_t i = 0; r->st == XMT_OK && i < m->norders; i++) {
    const struct order *o = &m->orders[i];
    if (o->value > m->nparts)
      say(r, o->at, "4.3.1.24",
          "<target order=\"%lu\"> is past the %zu segments and ignorables "
          "of its <unit>",
          o->value, m->nparts);
    for (size_t j = 0; j < i; j++)
      if (m->orders[j].value == o->value) {
        say(r, o->at, "4.3.1.24",
            "<target order=\"%lu\"> has the order of the target at line "
            "%lu, column %lu",
            o->value, m->orders[j].at.line, m->orders[j].at.column);
        break;
      }
  }
  m->norders = 0;
}

/* A reference of rules_modules.c's at its unit's end: 1 when it is one
 * (told if it names nothing). */
int xmt_x2_mod_unresolved(struct x2_rules *r, const struct pending *p) {
  const char *id = r->names.data + p->name;
  const char *elem = r->names.data + p->attr;
  char prefix = p->what == 'r'   ? 'N'
                : p->what == 'o' ? 'k'
                : p->what == 'z' ? 'd'
                                 : 'i';
  char side = p->what == 'M' || p->what == 'G' ? p->side : 0;
  if (strchr("roMGz", p->what) == NULL)
    return 0;
  if (!xmt_x2_rules_key(r, prefix, side, id) ||
      xmt_memo_get(&r->unit, r->key.data, r->key.len, NULL, NULL, NULL))
    return 1;
  char ref[100];
  snprintf(ref, sizeof ref, "%s%.64s", p->side == 't' ? "#t=" : "#", id);
  if (p->what == 'r')
    say(r, p->at, "4.3.1.27",
        "<%s> ref=\"#n=%.64s\" names no <note> of its <unit>", elem, id);
  else if (p->what == 'z')
    say(r, p->at, "5.7",
        "<%s> slr:sizeInfoRef=\"%.64s\" names no <data> in the "
        "<originalData> of its <unit>",
        elem, id);
  else if (p->what == 'o')
    say(r, p->at, "4.3.1.8",
        "<%s> copyOf=\"%.64s\" names no inline code of its <unit>", elem, id);
  else
    say(r, p->at, p->what == 'M' ? "5.1" : "5.2",
        "<%s> ref=\"%s\" names no segment, ignorable or marker of its <unit>",
        elem, ref);
  return 1;
}

void xmt_x2_mod_file_end(struct x2_rules *r) {
  struct x2_mod *m = &r->mod;
  for (size_t i = 0; r->st == XMT_OK && i < m->nflows; i++) {
    const struct pending *p = &m->flows[i];
    const char *id = m->flow_names.data + p->name;
    const char *which = m->flow_names.data + p->attr;
    if (xmt_x2_rules_has_unit(r, id))
      continue;
    say(r, p->at,
        strcmp(which, "subFlows") == 0      ? "4.3.1.32"
        : strcmp(which, "subFlowsEnd") == 0 ? "4.3.1.33"
                                            : "4.3.1.34",
        "%s names \"%.64s\", no <unit> of its <file>", which, id);
  }
  m->nflows = 0;
  xmt_buf_reset(&m->flow_names);
  for (size_t i = 0; r->st == XMT_OK && i < m->nres; i++) {
    const char *id = m->res_names.data + m->res[i].name;
    if (!xmt_x2_rules_key(r, 'R', 0, id))
      return;
    if (!xmt_memo_get(&m->res_items, r->key.data, r->key.len, NULL, NULL, NULL))
      say(r, m->res[i].at, "5.5",
          "<res:resourceItemRef ref=\"%.64s\"> names no <res:resourceItem> "
          "of its <file>",
          id);
  }
  m->nres = 0;
  xmt_buf_reset(&m->res_names);
  xmt_memo_clear(&m->res_items);
}

void xmt_x2_mod_free(struct x2_mod *m) {
  free(m->flows);
  free(m->res);
  free(m->orders);
  xmt_buf_free(&m->flow_names);
  xmt_buf_free(&m->res_names);
  xmt_memo_free(&m->res_items);
  xmt_memo_free(&m->res_ids);
  xmt_buf_free(&m->file_slr);
  xmt_memo_free(&m->mda_ids);
  xmt_x2_its_free(&m->its);
  xmt_x2_ctr_free(&m->ctr);
}
