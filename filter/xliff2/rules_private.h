/* rules_private.h -- the state of check's XLIFF 2 rules, shared by
 * rules.c (the core's ids, pairs and references) and rules_modules.c (the
 * other constraints of the core and those of the modules). Not installed. */
#ifndef XMT_X2_RULES_PRIVATE_H
#define XMT_X2_RULES_PRIVATE_H

#include <expat.h>
#include <stdint.h>

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
  S_INLINE,
  S_NOTES, /* a unit's <notes> */
  S_MODULE /* an element of another namespace */
};

/* A line and column, as the check tells them. */
struct pos {
  unsigned long line, column;
};

/* What a unit leaves to be resolved at its end: a reference (to a <data>,
 * or from a start to its end and back) and where it was made. */
struct pending {
  char what;     /* 'd': dataRef; 'c', 'e', 'm', 'n': sc, ec, sm, em */
  char side;     /* 's' source, 't' target */
  size_t name;   /* the id referred to, in rules.names */
  struct pos at; /* the element */
  size_t attr;   /* d: the attribute's name, in rules.names */
};

/* An inline code of a segment's source or target: a target's codes are
 * its source's, by element and id (compare_codes). */
struct code {
  size_t seg;      /* its segment in the unit, from 1 */
  char side;       /* 's', 't' */
  size_t name, id; /* in rules.names */
  size_t seq;
  const char *n, *i; /* name and id, once the unit's names are all kept */
};

/* A <segment> of the unit: where, its id (in rules.names, or SIZE_MAX),
 * 1 when its target has text or codes. */
struct seg {
  struct pos at;
  size_t id;
  int target;
};

/* A target's order attribute, where it is. */
struct order {
  unsigned long value;
  struct pos at;
};

/* An ITS stand-off element (kind 'q' <its:locQualityIssues>, 'p'
 * <its:provenanceRecords>) of an element open (at stack index enc): its
 * xml:id in x2_its.names, where it is. */
struct its_standoff {
  size_t enc, name;
  char kind;
  struct pos at;
};

/* An its:locQualityIssuesRef ('q') or its:provenanceRecordsRef ('p'),
 * resolved at the end of the element at stack index enc: its value and
 * the name of its element in x2_its.names; inline, on a <mrk> or <sm>
 * (naming a stand-off of that element only) or on a <file>, <group> or
 * <unit> (of it or an ancestor). */
struct its_ref {
  size_t enc, value, elem;
  char kind;
  int inline_ref;
  struct pos at;
};

/* What rules_its.c keeps: per open element (by depth), the ITS data
 * declared on it or an ancestor that other attributes need; the
 * stand-off elements of the elements open and the references to
 * resolve; every xml:id of the document with its kind and place; the
 * stack index + 1 of the <mtc:match> or <ctr:revision> open (0: none). */
struct x2_its {
  unsigned char *flags;
  size_t cap;
  struct its_standoff *ids;
  size_t nids, ids_cap;
  struct xmt_unit_keys xml_ids;
  struct its_ref *refs;
  size_t nrefs, refs_cap;
  struct xmt_buf names;
  size_t holder;
};

/* A <ctr:revisions>' reference, resolved at the end of the element
 * (file, group, unit; at stack index enc) that holds its
 * <ctr:changeTrack>: appliesTo and ref (SIZE_MAX: none) in names, the
 * elements of that name among the siblings of the <ctr:changeTrack> and
 * their children, whether ref names one. */
struct ctr_ref {
  size_t enc, applies, ref, count;
  int found;
  struct pos at;
};

/* What rules_ctr.c keeps: the references of the <ctr:changeTrack>s of
 * the elements open; the <ctr:changeTrack> being read (its stack
 * index), its <ctr:revisions>' appliesTo and currentVersion, the
 * properties of the <ctr:revision> being read. */
struct x2_ctr {
  struct ctr_ref *refs;
  size_t nrefs, cap;
  struct xmt_buf names, props;
  int in_track, current_set, current_found;
  size_t track_depth;
  char applies[64], current[128];
  struct pos revisions_at;
};

/* What rules_modules.c keeps: per unit, the canReorder sequence of each
 * side; the <glossEntry> open and whether it has a translation or
 * definition; per <file>, the subFlows references to resolve at its end;
 * per <file>, its res:resourceItem ids and the references to them; per
 * <res:resourceData>, the ids of its items and item references. */
struct x2_mod {
  char reorder[2]; /* 's', 't': 1 in a canReorder="firstNo" sequence */
  int gloss_open, gloss_has;
  struct pos gloss_at;
  struct pending *flows, *res;
  size_t nflows, flows_cap, nres, res_cap;
  struct xmt_buf flow_names, res_names;
  struct xmt_memo res_items, res_ids;
  char src_lang[64], trg_lang[64]; /* <xliff>'s, "" when absent */
  int trg_told;                    /* a target without trgLang told */
  struct order *orders;            /* the unit's targets' order */
  size_t norders, orders_cap, nparts;
  /* Size and Length: the current <file>'s standard profiles in use
   * (general xliff:codepoints; storage xliff:utf8, utf16 or utf32), and
   * its own restrictions, told when its <slr:profiles> is read */
  int codepoints, utf;
  struct xmt_buf file_slr;
  struct pos file_at;
  struct xmt_memo mda_ids; /* the ids of the <mda:metadata> being read */
  struct x2_its its;
  struct x2_ctr ctr;
};

/* What rules_refs.c keeps: a set of hashes, one per <file>, <group> and
 * <unit> read (of kind F, G or U, the file's id and the id), the current
 * <file>'s id, and the references to resolve at the document's end. */
struct x2_refs {
  uint64_t *bloom; /* the elements a fragment may name, by scope */
  uint64_t *slots;
  size_t nslots, count;
  struct xmt_buf file_id, group_id, names; /* group_id: the last started */
  struct xmt_buf groups; /* the ids of the <group>s open, each NUL-ended */
  struct pending *list;
  size_t n, cap;
  size_t unit_first; /* list's first reference made in the current unit */
};

struct x2_rules {
  const struct x2_doc *doc; /* the part being parsed */
  XML_Parser parser;
  xmt_x2_rule_fn fn;
  void *user;
  xmt_status st;
  unsigned char *stack;
  size_t depth, stack_cap;
  struct xmt_memo files, unit; /* ids by scope, with their place */
  /* The current <file>'s group and unit ids, each with its kind ('g',
   * 'u') and place (file_id_value), front-coded (filter/unit_keys.c): a
   * <file> may hold all of a document's units. ids: "u" and the id of a
   * unit whose id a group had first, for subFlows. */
  struct xmt_unit_keys file_ids;
  struct xmt_memo ids;
  struct xmt_buf unit_id, key, names;
  struct pending *pend;
  size_t npend, pend_cap;
  struct code *codes; /* the unit's segments' */
  size_t ncodes, codes_cap;
  struct seg *segs;
  size_t nsegs, segs_cap;
  struct x2_mod mod;   /* rules_modules.c's */
  struct x2_refs refs; /* rules_refs.c's */
  int in_segment;      /* in a <segment> (not an <ignorable>) */
  int ordered;         /* a target of the unit has an order attribute */
  struct pos unit_at;
  struct x2_doc none; /* past the last part */
};

/* rules.c's, for rules_modules.c. */
void xmt_x2_rules_stop(struct x2_rules *r, xmt_status st);
void xmt_x2_rules_report(struct x2_rules *r, struct pos at, const char *msg);
int xmt_x2_rules_key(struct x2_rules *r, char prefix, char side,
                     const char *id);
void xmt_x2_rules_pend(struct x2_rules *r, char what, char side, const char *id,
                       const char *attr, struct pos at);
/* 1 when a <unit> of the current <file> has id (for subFlows). */
int xmt_x2_rules_has_unit(struct x2_rules *r, const char *id);
/* Whether keys (valued) has id: 1 with the kind and place given when it
 * was added, else 0 with id added with kind and at (kept front-coded
 * with its place as varints: some 8 bytes an id beside its own). */
int xmt_x2_rules_seen(struct x2_rules *r, struct xmt_unit_keys *keys,
                      const char *id, char kind, struct pos at,
                      char *first_kind, struct pos *first);
/* Keeps key prefix (side) id in the unit's memo; 0 when out of memory. */
int xmt_x2_rules_mark(struct x2_rules *r, struct xmt_memo *m, char prefix,
                      char side, const char *id);

/* rules_modules.c: an element start (name as expat gives it, local its
 * core name or NULL) in scope parent, with side the source ('s') or
 * target ('t') it is in or 0; its end; a pending reference of a kind of
 * its own at the unit's end (1: told); a <file>'s end; all freed. */
void xmt_x2_mod_start(struct x2_rules *r, const char *name, const char *local,
                      const char **atts, char side, struct pos at);
void xmt_x2_mod_end(struct x2_rules *r, const char *name);
int xmt_x2_mod_unresolved(struct x2_rules *r, const struct pending *p);
void xmt_x2_mod_file_end(struct x2_rules *r);
void xmt_x2_mod_unit_start(struct x2_rules *r);
void xmt_x2_mod_unit_end(struct x2_rules *r);
void xmt_x2_mod_root(struct x2_rules *r, const char **atts, struct pos at);
void xmt_x2_mod_free(struct x2_mod *m);

/* rules_its.c: an element's ITS attributes (elem its name as told, at
 * stack index r->depth); freed. */
void xmt_x2_its_start(struct x2_rules *r, const char *elem, const char **atts,
                      struct pos at);
/* An element's stand-off ITS data and references to them (name as expat
 * gives it, local its core name or NULL), at stack index r->depth; its
 * end (at r->depth - 1). */
void xmt_x2_its_element(struct x2_rules *r, const char *name, const char *local,
                        const char **atts, struct pos at);
void xmt_x2_its_end(struct x2_rules *r, const char *name);
void xmt_x2_its_free(struct x2_its *its);

/* rules_ctr.c: an element start (name as expat gives it), at stack index
 * r->depth; its end (at r->depth - 1); freed. */
void xmt_x2_ctr_start(struct x2_rules *r, const char *name, const char **atts,
                      struct pos at);
void xmt_x2_ctr_end(struct x2_rules *r, const char *name);
void xmt_x2_ctr_free(struct x2_ctr *c);

/* rules_refs.c: a <file>, <group> or <unit> read (kind 'F', 'G', 'U');
 * a ref attribute of element elem (as written) at at; the document's
 * end; all freed. */
void xmt_x2_refs_element(struct x2_rules *r, char kind, const char *id);
/* An element of the unit being read that a fragment identifier may name
 * (kind 'n' note, 'd' data, 's' segment, ignorable or source code, 't'
 * target code), with its id. */
void xmt_x2_refs_leaf(struct x2_rules *r, char kind, const char *id);
/* An element a fragment identifier may name in the <file> ('f'), the
 * last <group> started ('g') or the <unit> ('u') being read: a <note>
 * (prefix "n") or an element of a module (prefix "mtc", "gls", "res",
 * "mda"), with its id. */
void xmt_x2_refs_leaf_in(struct x2_rules *r, const char *prefix, char scope,
                         const char *id);
/* A <group> started (id NULL when it has none) and ended: the groups
 * open, whose ids a unit is kept with ("#/f=f1/g=g1/u=u1"). */
void xmt_x2_refs_group(struct x2_rules *r, const char *id);
void xmt_x2_refs_group_end(struct x2_rules *r);
/* The end of a <unit>: the references to it made in it told. */
void xmt_x2_refs_unit_end(struct x2_rules *r);
/* relative: a core selector alone ("#n=", "#d=", "#t=", "#ID") names an
 * element of the unit the reference is in, to be found there (0 where
 * rules_modules.c tells it). */
void xmt_x2_refs_check(struct x2_rules *r, const char *elem, const char *ref,
                       int relative, struct pos at);
void xmt_x2_refs_end(struct x2_rules *r);
void xmt_x2_refs_free(struct x2_refs *x);

#endif /* XMT_X2_RULES_PRIVATE_H */
