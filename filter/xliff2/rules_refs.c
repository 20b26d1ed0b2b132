/* rules_refs.c -- XLIFF 2 fragment identifiers, for check (XLIFF 2.0 §3):
 * a ref="#..." of a <mrk>, <sm>, <mtc:match>, <gls:glossEntry> or
 * <gls:translation> is a path of selectors ("#/f=f1/u=u1/n=n1"), each
 * prefix at most once, file, group and unit in that order, one selector
 * of another kind (note, data, segment or code, module) at most and last;
 * the file, group and unit it names must be in the document. What is kept
 * is a hash per <file>, <group> and <unit> (bounded by their number, not
 * by the document's size) and the references that name one not yet read,
 * resolved at the document's end. The element a selector of another kind
 * names is resolved by rules_modules.c when it is in the referring unit
 * ("#n=", "#ID", "#t=ID" of a match or glossary entry); elsewhere --
 * a <note> of a unit, group or file, a unit's <data>, target code or
 * marker, segment, ignorable or source code or marker, an element of a
 * module that has ids (mtc=, gls=, res=, mda=) in the unit, group or file
 * that holds it -- it is looked for in a Bloom filter of every such
 * element read (selector prefix, scope, file, scope's id and id): a fixed
 * 4 MiB, its pages touched as elements are added, so that a reference to
 * an element read before is resolved as one to an element still to come.
 * A reference into the unit being read is resolved at the unit's end. A
 * false positive hides a reference that names nothing (about one in a
 * hundred with three million elements), never refuses one that names
 * something. A path's unit must be in the group it names (each unit is
 * added to the filter with every group open around it). A relative fragment
 * (no file, group or unit selector, §3.2) of a <mrk> or <sm> names an
 * element of its unit. A selector of a module whose elements have no id
 * (ctr, fs, slr, val) names nothing: an error. An extension's selector
 * is not looked for. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_private.h"

/* The ids a fragment names, as kept until the document's end; its last
 * selector when of an element looked for: leaf 'n' (note), 'd' (data),
 * 't' (a target's code), 's' (no prefix: a segment, ignorable or a
 * source's code), 'm' (a module's, prefix lp), else 0. */
struct frag {
  const char *f, *g, *u, *l, *lp; /* NULL when not named */
  size_t nf, ng, nu, nl, nlp;
  char leaf;
};

/* The modules whose elements have ids, by the prefix of their selector
 * (XLIFF 2.0 §3.1.2), with the elements named, and whether they are only
 * in a <unit>. */
static const struct {
  const char *prefix, *what;
  int unit_only;
} modules[] = {
    {"mtc", "<mtc:match>", 1},
    {"gls", "<gls:glossEntry> or <gls:translation>", 1},
    {"res", "<res:resourceItem> or <res:resourceItemRef>", 0},
    {"mda", "<mda:metadata> or <mda:metaGroup>", 0},
};

/* The modules whose elements have no id (Change Tracking, Format Style,
 * Size and Length Restriction, Validation: none of their schemas gives
 * one), by their prefix: a selector of theirs can name no element (XLIFF
 * 2.0 §3.1.2: a module's selector is its prefix and an element's id). */
static const struct {
  const char *prefix, *name;
} idless[] = {
    {"ctr", "Change Tracking"},
    {"fs", "Format Style"},
    {"slr", "Size and Length Restriction"},
    {"val", "Validation"},
};

/* The module whose selector's prefix is p (n bytes), or -1. */
static int module_of(const char *p, size_t n) {
  for (size_t i = 0; i < sizeof modules / sizeof modules[0]; i++)
    if (strlen(modules[i].prefix) == n && memcmp(modules[i].prefix, p, n) == 0)
      return (int)i;
  return -1;
}

#define BLOOM_BITS ((size_t)1 << 25)
#define BLOOM_HASHES 4

/* The known set holds a 64-bit hash (FNV-1a) of each key (kind, file
 * id, NUL, id), 8 bytes a slot at most half full: a file, group or unit
 * costs 16 bytes or so, not its id. Two keys of one hash would hide a
 * reference that names nothing, never refuse one that names something. */
static uint64_t hash_key(char kind, const char *file, size_t nfile,
                         const char *id, size_t nid) {
  static const char nul = 0;
  uint64_t h = xmt_fnv1a(XMT_FNV1A_BASIS, &kind, 1);
  h = xmt_fnv1a(h, file, nfile);
  h = xmt_fnv1a(h, &nul, 1);
  h = xmt_fnv1a(h, id, nid);
  return h != 0 ? h : 1; /* 0 is an empty slot */
}

/* The hash of an element a fragment may name: the scope it is in ('f'
 * file, 'g' group, 'u' unit), the file's id, the scope's id ("" for a
 * file), the prefix of its selector ("" for none) and its id. */
static uint64_t leaf_hash(char scope, const char *file, size_t nfile,
                          const char *in, size_t nin, const char *prefix,
                          size_t nprefix, const char *id, size_t nid) {
  static const char nul = 0;
  uint64_t h = hash_key(scope, file, nfile, in, nin);
  h = xmt_fnv1a(h, &nul, 1);
  h = xmt_fnv1a(h, prefix, nprefix);
  h = xmt_fnv1a(h, &nul, 1);
  return xmt_fnv1a(h, id, nid);
}

/* The filter's bits of h (double hashing: h's halves). */
static size_t bloom_bit(uint64_t h, unsigned i) {
  uint64_t a = h & 0xffffffffu, b = (h >> 32) | 1;
  return (size_t)((a + i * b) & (BLOOM_BITS - 1));
}

/* Adds h to the filter (allocated first); 0 when out of memory. */
static int bloom_add(struct x2_refs *x, uint64_t h) {
  if (x->bloom == NULL &&
      (x->bloom = calloc(BLOOM_BITS / 64, sizeof *x->bloom)) == NULL)
    return 0;
  for (unsigned i = 0; i < BLOOM_HASHES; i++) {
    size_t bit = bloom_bit(h, i);
    x->bloom[bit / 64] |= (uint64_t)1 << (bit % 64);
  }
  return 1;
}

/* h may be in the filter (a false positive now and then). */
static int bloom_has(const struct x2_refs *x, uint64_t h) {
  if (x->bloom == NULL)
    return 0;
  for (unsigned i = 0; i < BLOOM_HASHES; i++) {
    size_t bit = bloom_bit(h, i);
    if ((x->bloom[bit / 64] & ((uint64_t)1 << (bit % 64))) == 0)
      return 0;
  }
  return 1;
}

static uint64_t *slot(const struct x2_refs *x, uint64_t h) {
  size_t mask = x->nslots - 1, at = (size_t)(h ^ (h >> 32)) & mask;
  while (x->slots[at] != 0 && x->slots[at] != h)
    at = (at + 1) & mask;
  return &x->slots[at];
}

/* Adds h to the set; 0 when out of memory. */
static int add(struct x2_refs *x, uint64_t h) {
  if (2 * (x->count + 1) > x->nslots) {
    size_t n = x->nslots != 0 ? 2 * x->nslots : 1024;
    struct x2_refs grown = *x;
    grown.slots = calloc(n, sizeof *grown.slots);
    if (grown.slots == NULL)
      return 0;
    grown.nslots = n;
    for (size_t i = 0; i < x->nslots; i++)
      if (x->slots[i] != 0)
        *slot(&grown, x->slots[i]) = x->slots[i];
    free(x->slots);
    x->slots = grown.slots;
    x->nslots = n;
  }
  uint64_t *s = slot(x, h);
  x->count += *s == 0;
  *s = h;
  return 1;
}

static int known(struct x2_rules *r, char kind, const char *file, size_t nfile,
                 const char *id, size_t nid) {
  const struct x2_refs *x = &r->refs;
  return x->nslots != 0 && *slot(x, hash_key(kind, file, nfile, id, nid)) != 0;
}

/* The key of "unit u is in group g" (of the file named). */
static uint64_t in_group_hash(const char *file, size_t nfile, const char *g,
                              size_t ng, const char *u, size_t nu) {
  return leaf_hash('C', file, nfile, g, ng, "", 0, u, nu);
}

/* Unit id is in each <group> open: kept in the filter (a fixed size, as
 * a unit may have many groups around it; a false positive hides a unit
 * named in a group it is not in, never refuses one), for a path naming
 * both ("#/f=f1/g=g1/u=u1", the unit in that group or one inside it); 0
 * when out of memory. */
static int in_groups(struct x2_refs *x, const char *id) {
  const char *file = x->file_id.data != NULL ? x->file_id.data : "";
  for (size_t at = 0; at < x->groups.len;) {
    const char *g = x->groups.data + at;
    size_t ng = strlen(g);
    if (ng > 0 && !bloom_add(x, in_group_hash(file, x->file_id.len, g, ng, id,
                                              strlen(id))))
      return 0;
    at += ng + 1;
  }
  return 1;
}

void xmt_x2_refs_group(struct x2_rules *r, const char *id) {
  struct x2_refs *x = &r->refs;
  if (id == NULL)
    id = ""; /* the schema tells it; kept for the group's end */
  if (xmt_buf_append(&x->groups, id, strlen(id) + 1) != XMT_OK)
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
}

void xmt_x2_refs_group_end(struct x2_rules *r) {
  struct x2_refs *x = &r->refs;
  if (x->groups.len == 0)
    return;
  size_t at = x->groups.len - 1; /* the last id's NUL */
  while (at > 0 && x->groups.data[at - 1] != '\0')
    at--;
  x->groups.len = at;
}

void xmt_x2_refs_element(struct x2_rules *r, char kind, const char *id) {
  struct x2_refs *x = &r->refs;
  if (kind == 'F')
    xmt_buf_reset(&x->groups);
  if (kind == 'F' || kind == 'G') {
    struct xmt_buf *b = kind == 'F' ? &x->file_id : &x->group_id;
    xmt_buf_reset(&x->group_id);
    xmt_buf_reset(b);
    if (xmt_buf_append(b, id, strlen(id)) != XMT_OK) {
      xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
      return;
    }
  }
  if (kind == 'U') {
    x->unit_first = x->n;
    if (!in_groups(x, id))
      xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
  }
  const char *file =
      kind == 'F' || x->file_id.data == NULL ? "" : x->file_id.data;
  size_t nfile = kind == 'F' ? 0 : x->file_id.len;
  if (!add(x, hash_key(kind, file, nfile, id, strlen(id))))
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
}

void xmt_x2_refs_leaf(struct x2_rules *r, char kind, const char *id) {
  xmt_x2_refs_leaf_in(r,
                      kind == 's'   ? ""
                      : kind == 'n' ? "n"
                      : kind == 'd' ? "d"
                                    : "t",
                      'u', id);
}

void xmt_x2_refs_leaf_in(struct x2_rules *r, const char *prefix, char scope,
                         const char *id) {
  struct x2_refs *x = &r->refs;
  if (scope == 'u' && r->unit_id.len == 0)
    return; /* a unit without id: the schema tells it */
  const char *file = x->file_id.data != NULL ? x->file_id.data : "";
  const char *in = scope == 'u'                               ? r->unit_id.data
                   : scope == 'g' && x->group_id.data != NULL ? x->group_id.data
                                                              : "";
  size_t nin = scope == 'u'   ? r->unit_id.len - 1
               : scope == 'g' ? x->group_id.len
                              : 0;
  uint64_t h = leaf_hash(scope, file, x->file_id.len, in, nin, prefix,
                         strlen(prefix), id, strlen(id));
  if (!bloom_add(x, h))
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
}

/* The scope of the element fr names: its last file, group or unit
 * selector, with the id of the group or unit (in, nin). */
static char scope_of(const struct frag *fr, const char **in, size_t *nin) {
  *in = fr->u != NULL ? fr->u : fr->g != NULL ? fr->g : "";
  *nin = fr->u != NULL ? fr->nu : fr->g != NULL ? fr->ng : 0;
  return fr->u != NULL ? 'u' : fr->g != NULL ? 'g' : 'f';
}

static int leaf_known(const struct x2_refs *x, const struct frag *fr,
                      const char *file, size_t nfile) {
  const char *in;
  size_t nin;
  char scope = scope_of(fr, &in, &nin);
  const char *prefix = fr->leaf == 's' ? "" : fr->lp;
  size_t nprefix = fr->leaf == 's' ? 0 : fr->nlp;
  return bloom_has(x, leaf_hash(scope, file, nfile, in, nin, prefix, nprefix,
                                fr->l, fr->nl));
}

static void say(struct x2_rules *r, struct pos at, const char *elem,
                const char *ref, const char *section, const char *what) {
  char msg[640];
  snprintf(msg, sizeof msg, "<%.40s> ref=\"%.100s\" %.300s (XLIFF 2.0 §%s)",
           elem, ref, what, section);
  xmt_x2_rules_report(r, at, msg);
}

/* The rank of a selector's prefix in the path: file 1, group 2, unit 3,
 * any other 4 (a note, data, target code, a module's or an extension's:
 * those prefixes are longer than a character); 0: unknown. */
static int rank(const char *p, size_t n) {
  if (n == 0)
    return 4; /* no prefix: a segment, ignorable or source code */
  if (n > 1)
    return 4;
  switch (p[0]) {
  case 'f':
    return 1;
  case 'g':
    return 2;
  case 'u':
    return 3;
  case 'n':
  case 'd':
  case 't':
    return 4;
  default:
    return 0;
  }
}

/* Parses a fragment's path (s past "#" and "/"): 0 with the ids of its
 * file, group and unit selectors, or -1 when told malformed. */
static int parse(struct x2_rules *r, const char *s, struct frag *fr,
                 const char *elem, const char *ref, struct pos at) {
  char what[200], seen[8] = "";
  int last = 0;
  memset(fr, 0, sizeof *fr);
  while (1) {
    size_t n = strcspn(s, "/");
    const char *eq = memchr(s, '=', n);
    size_t np = eq != NULL ? (size_t)(eq - s) : 0;
    const char *id = eq != NULL ? eq + 1 : s;
    size_t nid = n - (size_t)(id - s);
    int k = rank(s, eq != NULL ? np : 0);
    if (nid == 0 || (eq != NULL && np == 0) || memchr(id, '=', nid) != NULL) {
      snprintf(what, sizeof what, "has an empty or malformed selector \"%.*s\"",
               (int)(n < 60 ? n : 60), s);
      say(r, at, elem, ref, "3", what);
      return -1;
    }
    if (k == 0) {
      snprintf(what, sizeof what, "has an unknown prefix \"%.*s\"", (int)np, s);
      say(r, at, elem, ref, "3", what);
      return -1;
    }
    if (k < 4 && strchr(seen, s[0]) != NULL) {
      snprintf(what, sizeof what, "has the prefix \"%c\" more than once", s[0]);
      say(r, at, elem, ref, "3", what);
      return -1;
    }
    if (k == 4 && last == 4) {
      say(r, at, elem, ref, "3",
          "has more than one selector of a note, data, segment, code or "
          "module");
      return -1;
    }
    if (k <= last) {
      snprintf(what, sizeof what,
               "has the selector \"%.*s\" out of order (file, group, unit, "
               "then at most one selector of another kind, last)",
               (int)(n < 60 ? n : 60), s);
      say(r, at, elem, ref, "3", what);
      return -1;
    }
    for (size_t i = 0; k == 4 && i < sizeof idless / sizeof idless[0]; i++)
      if (strlen(idless[i].prefix) == np &&
          memcmp(idless[i].prefix, s, np) == 0) {
        snprintf(what, sizeof what,
                 "has the selector \"%.*s\" of the %s module, whose elements "
                 "have no id",
                 (int)(n < 60 ? n : 60), s, idless[i].name);
        say(r, at, elem, ref, "3.1.2", what);
        return -1;
      }
    if (k == 4) {
      fr->leaf = eq == NULL              ? 's'
                 : np == 1               ? s[0]
                 : module_of(s, np) >= 0 ? 'm'
                                         : 0;
      fr->lp = s;
      fr->nlp = np;
      fr->l = id;
      fr->nl = nid;
    }
    if (k < 4) {
      size_t m = strlen(seen);
      seen[m] = s[0];
      seen[m + 1] = '\0';
      const char **slot = k == 1 ? &fr->f : k == 2 ? &fr->g : &fr->u;
      size_t *len = k == 1 ? &fr->nf : k == 2 ? &fr->ng : &fr->nu;
      *slot = id;
      *len = nid;
    }
    last = k;
    if (s[n] == '\0')
      return 0;
    s += n + 1;
  }
}

/* A reference kept for the document's end: where, the element's name,
 * the fragment, the file it is resolved in (names: elem NUL ref NUL file
 * NUL). */
static void keep(struct x2_rules *r, const char *elem, const char *ref,
                 const char *file, size_t nfile, struct pos at) {
  struct x2_refs *x = &r->refs;
  struct pending *p = xmt_grow_one(&x->list, x->n, &x->cap, sizeof *p);
  size_t off = x->names.len;
  if (p == NULL ||
      xmt_buf_append(&x->names, elem, strlen(elem) + 1) != XMT_OK ||
      xmt_buf_append(&x->names, ref, strlen(ref) + 1) != XMT_OK ||
      xmt_buf_append(&x->names, file, nfile) != XMT_OK ||
      xmt_buf_append_byte(&x->names, '\0') != XMT_OK) {
    xmt_x2_rules_stop(r, XMT_ERR_NOMEM);
    return;
  }
  x->n++;
  p->what = 'f';
  p->side = 0;
  p->name = off;
  p->attr = 0;
  p->at = at;
}

/* What fr's leaf names, for a message: "<note id=\"n1\">". */
static void leaf_name(const struct frag *fr, char *out, size_t size) {
  int nl = (int)(fr->nl < 64 ? fr->nl : 64);
  int mod = fr->leaf == 'm' ? module_of(fr->lp, fr->nlp) : -1;
  if (fr->leaf == 'n' || fr->leaf == 'd')
    snprintf(out, size, "<%s id=\"%.*s\">", fr->leaf == 'n' ? "note" : "data",
             nl, fr->l);
  else if (mod >= 0)
    snprintf(out, size, "%s id=\"%.*s\"", modules[mod].what, nl, fr->l);
  else
    snprintf(out, size, "%s id=\"%.*s\"",
             fr->leaf == 't' ? "code or marker"
                             : "segment, ignorable, code or marker",
             nl, fr->l);
}

/* The element ref's last selector names (in a unit, group or file read
 * or being read) is there: 1, or 0 with told when its unit is read whole
 * (final, or a unit before the one being read). */
static int resolve_leaf(struct x2_rules *r, const char *elem, const char *ref,
                        const struct frag *fr, const char *file, size_t nfile,
                        struct pos at, int final) {
  const struct x2_refs *x = &r->refs;
  if (fr->leaf == 0 || leaf_known(x, fr, file, nfile))
    return 1;
  int current = fr->u != NULL && r->unit_id.len == fr->nu + 1 &&
                memcmp(r->unit_id.data, fr->u, fr->nu) == 0 &&
                x->file_id.len == nfile &&
                (nfile == 0 || memcmp(x->file_id.data, file, nfile) == 0);
  if (current && !final)
    return 0; /* the unit is being read: at its end */
  char what[400], name[200];
  const char *in;
  size_t nin;
  char scope = scope_of(fr, &in, &nin);
  int mod = fr->leaf == 'm' ? module_of(fr->lp, fr->nlp) : -1;
  leaf_name(fr, name, sizeof name);
  if (scope == 'f') {
    in = file;
    nin = nfile;
  }
  const char *where = scope == 'u' ? "unit" : scope == 'g' ? "group" : "file";
  int nw = (int)(nin < 64 ? nin : 64);
  if (scope != 'u' && fr->leaf != 'n' && (mod < 0 || modules[mod].unit_only))
    snprintf(what, sizeof what,
             "names %s with no unit selector (in <%s id=\"%.*s\">): there "
             "is none outside a <unit>",
             name, where, nw, in);
  else if (fr->leaf == 't' || fr->leaf == 's')
    snprintf(what, sizeof what, "names no %s in the %s of <unit id=\"%.*s\">",
             name, fr->leaf == 't' ? "targets" : "sources", nw, in);
  else
    snprintf(what, sizeof what, "names no %s in <%s id=\"%.*s\">", name, where,
             nw, in);
  say(r, at, elem, ref, "3.1", what);
  return 1; /* told */
}

/* The file, group and unit ref names are in the document: 1, or 0 with
 * told (final: at the document's end, when all are read). */
static int resolve(struct x2_rules *r, const char *elem, const char *ref,
                   const struct frag *fr, const char *file, size_t nfile,
                   struct pos at, int final) {
  char what[300];
  if (fr->f != NULL && !known(r, 'F', "", 0, fr->f, fr->nf)) {
    if (final) {
      snprintf(what, sizeof what, "names no <file id=\"%.*s\"> of the document",
               (int)(fr->nf < 64 ? fr->nf : 64), fr->f);
      say(r, at, elem, ref, "3.1", what);
    }
    return 0;
  }
  const char *kinds = "GU";
  for (size_t i = 0; i < 2; i++) {
    const char *id = i == 0 ? fr->g : fr->u;
    size_t nid = i == 0 ? fr->ng : fr->nu;
    if (id == NULL || known(r, kinds[i], file, nfile, id, nid))
      continue;
    if (final) {
      snprintf(what, sizeof what,
               "names no <%s id=\"%.*s\"> in <file id=\"%.*s\">",
               i == 0 ? "group" : "unit", (int)(nid < 64 ? nid : 64), id,
               (int)(nfile < 64 ? nfile : 64), file);
      say(r, at, elem, ref, "3.1", what);
    }
    return 0;
  }
  if (fr->g != NULL && fr->u != NULL &&
      !bloom_has(&r->refs,
                 in_group_hash(file, nfile, fr->g, fr->ng, fr->u, fr->nu))) {
    snprintf(what, sizeof what,
             "names <unit id=\"%.*s\">, which is not in <group id=\"%.*s\">",
             (int)(fr->nu < 64 ? fr->nu : 64), fr->u,
             (int)(fr->ng < 64 ? fr->ng : 64), fr->g);
    say(r, at, elem, ref, "3.1", what);
    return 1; /* told: both are read */
  }
  return resolve_leaf(r, elem, ref, fr, file, nfile, at, final);
}

/* A fragment without file, group and unit selectors is a relative
 * reference (XLIFF 2.0 §3.2: one not starting with "/"; the selectors it
 * lacks are those of where it is), so it names an element of the unit
 * the reference is in: fr given that unit when its selector is a
 * module's, or the core's with relative; 0 for an extension's, and for
 * the core's of a match or glossary entry ("#ID", "#t=ID") and a
 * comment's "#n=", told by rules_modules.c. A ref="#t1" of a term is a
 * same-document reference (RFC 3986 §4.4), so an XLIFF fragment
 * identifier too (§3: how a fragment identifier of an XLIFF document is
 * read), naming the segment, ignorable or source code "t1" of its unit;
 * a link elsewhere names its document ("terms.tbx#t1"). */
static int complete(struct x2_rules *r, struct frag *fr, int relative) {
  if (fr->f != NULL || fr->g != NULL || fr->u != NULL)
    return 1;
  if (r->unit_id.len == 0 || fr->leaf == 0 || (fr->leaf != 'm' && !relative))
    return 0;
  fr->u = r->unit_id.data;
  fr->nu = r->unit_id.len - 1;
  return 1;
}

void xmt_x2_refs_check(struct x2_rules *r, const char *elem, const char *ref,
                       int relative, struct pos at) {
  if (ref == NULL || ref[0] != '#' || r->st != XMT_OK)
    return;
  const char *s = ref + 1;
  if (*s == '/')
    s++;
  struct frag fr;
  if (parse(r, s, &fr, elem, ref, at) != 0)
    return;
  if (!complete(r, &fr, relative))
    return;
  /* a selector missing is that of the element the reference is in */
  const char *file = fr.f != NULL ? fr.f : r->refs.file_id.data;
  size_t nfile = fr.f != NULL ? fr.nf : r->refs.file_id.len;
  if (file == NULL)
    file = "";
  if (!resolve(r, elem, ref, &fr, file, nfile, at, 0))
    keep(r, elem, ref, file, nfile, at);
}

void xmt_x2_refs_end(struct x2_rules *r) {
  struct x2_refs *x = &r->refs;
  for (size_t i = 0; r->st == XMT_OK && i < x->n; i++) {
    const struct pending *p = &x->list[i];
    const char *elem = x->names.data + p->name;
    const char *ref = elem + strlen(elem) + 1;
    const char *file = ref + strlen(ref) + 1;
    const char *s = ref + 1 + (ref[1] == '/');
    struct frag fr;
    if (parse(r, s, &fr, elem, ref, p->at) == 0)
      resolve(r, elem, ref, &fr, file, strlen(file), p->at, 1);
  }
  x->n = 0;
  xmt_buf_reset(&x->names);
}

/* The references made in the unit that name an element of it are told
 * now that it is read whole; the others stay (their names moved down). */
void xmt_x2_refs_unit_end(struct x2_rules *r) {
  struct x2_refs *x = &r->refs;
  size_t w = x->unit_first, to = w < x->n ? x->list[w].name : x->names.len;
  for (size_t i = x->unit_first; i < x->n; i++) {
    struct pending p = x->list[i];
    const char *elem = x->names.data + p.name;
    const char *ref = elem + strlen(elem) + 1;
    const char *file = ref + strlen(ref) + 1;
    size_t nfile = strlen(file), len = (size_t)(file + nfile + 1 - elem);
    struct frag fr;
    if (r->st == XMT_OK &&
        parse(r, ref + 1 + (ref[1] == '/'), &fr, elem, ref, p.at) == 0 &&
        complete(r, &fr, 1) && fr.u != NULL && r->unit_id.len == fr.nu + 1 &&
        memcmp(r->unit_id.data, fr.u, fr.nu) == 0 && x->file_id.len == nfile &&
        (nfile == 0 || memcmp(x->file_id.data, file, nfile) == 0)) {
      resolve(r, elem, ref, &fr, file, nfile, p.at, 1);
      continue;
    }
    memmove(x->names.data + to, elem, len);
    p.name = to;
    x->list[w++] = p;
    to += len;
  }
  x->n = w;
  x->names.len = to;
  x->unit_first = x->n;
}

void xmt_x2_refs_free(struct x2_refs *x) {
  free(x->list);
  xmt_buf_free(&x->names);
  xmt_buf_free(&x->file_id);
  xmt_buf_free(&x->group_id);
  xmt_buf_free(&x->groups);
  free(x->slots);
  free(x->bloom);
}
