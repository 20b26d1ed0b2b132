/* segmenter_private.h -- internals of SRX segmentation, shared by the rule
 * engine (srx.c) and the XLIFF unit segmentation (segment_unit.c). Not
 * installed. */
#ifndef XMT_SEGMENTER_PRIVATE_H
#define XMT_SEGMENTER_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "segmenter_private.h is internal to libxliffmt"
#endif

#include <unicode/ubrk.h>
#include <unicode/uregex.h>

#include "projector_private.h"
#include "xliff_private.h"
#include "xmt_filter.h"

/* The shipped rules (data/xliffmt.srx), embedded at build time by a rule in
 * filter/segmenter.am: the library needs no data file at run time. */
extern const unsigned char xmt_srx_default[];
extern const size_t xmt_srx_default_len;

#define SRX_END_MAX 16
#define SRX_END_BUCKETS 64  /* a power of two */
#define SRX_PAIR_SLOTS 1024 /* end_pair's bits: the hash of two units */

/* Necessary conditions for a beforebreak to match, read from its pattern
 * when it is loaded (srx_scan.c): ICU is called only where they hold. */
struct srx_hints {
  UChar *req;                 /* every match holds one of these... */
  int nreq;                   /* ...when nreq > 0 */
  UChar (*ends)[SRX_END_MAX]; /* every match ends with one of these... */
  unsigned char *ends_len;
  int nends;             /* ...when nends > 0 */
  uint32_t end_pair[32]; /* by bit: the last two units of ends, hashed */
  int end_short;         /* an end is one unit long */
  /* ends one unit long at [0, end_at[0]), then by their last two units
   * hashed: bucket b at [end_at[b], end_at[b + 1]) */
  unsigned char end_at[SRX_END_BUCKETS + 1];
  long max16;    /* anchored with ^: the most UTF-16 units a match takes;
                    or -1 */
  int selective; /* max16 or ends turn most positions away */
  char *prefix;  /* "(?<=...)": the classes of the last code points of
                    every match, or NULL */
  int nlast;     /* 1 or 2 when the prefix's classes are known below 256: */
  uint32_t last[2][8]; /* by bit, last[i]: the (i+1)th from the end */
};

struct srx_shape; /* a no-break rule decided in C (srx_shape.c) */

/* One <rule>: compiled as "(before)(after)"; a rule hits where group 1
 * ends, as Okapi's SRXSegmenter does. A no-break rule whose beforebreak has
 * a bounded length is also compiled as "(?<=before)(?=after)", to be tested
 * only where a break rule hits instead of searched through the text. */
struct srx_rule {
  int is_break;
  URegularExpression *re;    /* NULL when local is kept and the rules are
                                the shipped ones: it is not used then; a
                                shipped searched rule with a shape has it
                                compiled only when first needed */
  URegularExpression *local; /* or NULL; a shipped rule with a shape has it
                                compiled only when first needed */
  int has_local;             /* local, compiled or not yet: the rule is
                                tested where a break rule hits, not
                                searched through the text */
  struct srx_hints hints;
  struct srx_shape *shape; /* or NULL; with has_local the local form's,
                              else the find form */
  char *before, *after;    /* until compiled, for rules compiled lazily;
                              kept until local (re, for a searched rule)
                              is, for a rule with a shape */
  unsigned long line;
  int read; /* the shipped rules: hints and forms read at first use */
};

struct srx_langrule {
  char *name;
  struct srx_rule *rules;
  size_t nrules, cap;
  int compiled; /* the shipped rules are compiled when a language uses them */
};

struct srx_map {
  URegularExpression *re; /* languagepattern, matched against the whole tag;
                             NULL until needed for the shipped rules */
  char *pattern;          /* the shipped rules: languagepattern */
  size_t langrule;        /* index into langrules */
};

/* A loaded SRX document. */
struct srx_doc {
  struct srx_langrule *langrules;
  size_t nlangrules, langrules_cap;
  struct srx_map *maps;
  size_t nmaps, maps_cap;
  URegularExpression *mask; /* okpsrx:rangeRule, or NULL */
  int cascade;
  int segment_subflows;
  int include_start, include_end, include_isolated; /* formathandle */
  int trim_leading, trim_trailing;                  /* okpsrx:options */
  int one_segment_includes_all;
  int isolated_as_space; /* treatIsolatedCodesAsWhitespace */
  int icu_breaks;        /* useIcu4JBreakRules */
};

/* ICU messages found in a text (icu.c), reused from call to call. */
struct icu_messages {
  struct xmt_span *pieces; /* what an engine may translate, in order */
  size_t npieces, pieces_cap;
  /* [start, end] offsets where a message's variable is not a name: an
   * inline code must stand there */
  struct xmt_span *args;
  size_t nargs, args_cap;
};

struct xmt_segmenter {
  struct xmt_error_store err;
  struct srx_doc doc;
  unsigned flags; /* XMT_SEGMENTER_* */
  struct icu_messages messages;
  char *lang;      /* set by xmt_segmenter_set_language, or NULL */
  char *rules_for; /* the language `active` was computed for */
  size_t *active;  /* langrule indexes that apply, in order */
  size_t nactive, active_cap;
  struct srx_rule **flat; /* their rules, in order */
  size_t nflat, flat_cap;
  size_t first_break_rule;   /* index in flat of the first break rule */
  URegularExpression *early; /* the local forms of the no-break rules
                                before it that have no hints to end
                                with nor classes known in C, as one
                                alternation, or NULL */
  unsigned char *in_early;   /* per rule of flat: 1 when early tests it */
  unsigned char *text_on;    /* per rule of flat: its local has the text */
  /* The rules searched through the text (break rules, no-break rules
   * without a local form), the first 32 of them by bit: req_low[c] has
   * the bits of those needing character c < 256 (one of their hints'
   * req), req_known the bits of those with req at all; searched[k] is
   * the rule of bit k. */
  uint32_t req_low[256];
  uint32_t req_known;
  /* end_low[c]: the bits (by index in flat, the first 32) of the rules
   * whose hints let a match end after character c < 256 */
  uint32_t end_low[256];
  /* end_pair[k]: the same bits, of the rules that may end with two units
   * of slot k (xmt_srx_pair_slot); tested_low: those of the no-break rules
   * tested alone at a position (not break rules, nor searched, nor early) */
  uint32_t end_pair[SRX_PAIR_SLOTS];
  uint32_t tested_low;
  const struct srx_rule *searched[32];
  unsigned nsearched;
  uint32_t seen; /* of req_known, those the text's characters let match */
  int any_break; /* a break rule (or ICU) hit somewhere in the text */
  unsigned long regex_calls;    /* finds and tests of rules, for the tests */
  unsigned long regex_compiles; /* patterns compiled by srx_load.c, for the
                                   tests */
  UBreakIterator *icu;          /* ICU sentence breaks, for icu_breaks */
  char *icu_lang;
  /* Work buffers, reused from call to call. */
  UChar *u16;
  size_t u16_cap;
  size_t *u8_at; /* UTF-16 index -> byte offset in the plain text */
  size_t u8_at_cap;
  size_t u8_same; /* indexes below it are their own offsets, not in u8_at */
  unsigned char *decided; /* per UTF-16 index: 0 or BREAK, for the mask */
  size_t decided_cap;
  /* Per UTF-16 index, NONE between runs: the first break rule to hit, the
   * first no-break rule searched through to hit; where a run set them. */
  uint32_t *first_break;
  size_t first_break_cap;
  uint32_t *first_keep;
  size_t first_keep_cap;
  int32_t *hit; /* the indexes where a break rule hit, then the breaks */
  size_t nhit, hit_cap;
  int32_t *kept; /* those where a no-break rule searched through hit */
  size_t nkept, kept_cap;
  size_t *breaks; /* byte offsets where the rules break */
  size_t nbreaks, breaks_cap;
  struct xmt_span *spans;
  size_t nspans, spans_cap;
  /* unit.c's work arrays, kept from unit to unit: its codes (a struct
   * private to it), the pairing stack, the isolated codes' offsets and
   * those of a piece, the unit's segments. */
  void *unit_codes;
  size_t unit_codes_cap;
  size_t *unit_stack, *unit_isolated, *unit_sub;
  size_t unit_stack_cap, unit_isolated_cap, unit_sub_cap;
  struct xmt_span *unit_spans;
  size_t unit_spans_cap;
  void *unit_sources; /* a unit's source segments until the unit takes them */
  size_t unit_sources_cap;
};

/* Computes the sentences of UTF-8 text into s->spans. When codes is not
 * NULL, ncodes byte offsets (non-decreasing) of isolated codes are given:
 * with treatIsolatedCodesAsWhitespace the rules see a space there. lang
 * NULL uses the segmenter's language. flowed: white space is not
 * significant (no xml:space="preserve"), so the rules see a space for each
 * line break, as Okapi's segmenter does with text not preformatted. */
xmt_status xmt_srx_run(xmt_segmenter *s, const char *lang, const char *text,
                       size_t len, const size_t *codes, size_t ncodes,
                       int flowed);

/* Finds the ICU plural, select and selectordinal messages of text (icu.c):
 * 1 when it holds some and its braces pair up; icu->pieces are then the
 * text around the messages and their case bodies, each nested message
 * cut out of the body that holds it (a piece may be empty or white
 * space). 0 when it holds none or is not well-formed (plain text), -1
 * when out of memory. */
int xmt_icu_messages_scan(struct icu_messages *icu, const char *text,
                          size_t len);

/* Reads the hints of a beforebreak pattern (srx_scan.c); none (all zero,
 * max16 -1) for syntax it does not read. XMT_ERR_NOMEM or XMT_OK. */
xmt_status xmt_srx_scan(const char *before, struct srx_hints *h);
void xmt_srx_hints_free(struct srx_hints *h);
/* Whether code point c < 256 is in the ICU set items cls[0, n) (their
 * union): 1 or 0, -1 for syntax not read here. */
int xmt_srx_class_has(const char *cls, size_t n, unsigned c);
/* The bits of the characters below 256 in the union of the ICU set items
 * cls[0, n); 0 when not read. */
int xmt_srx_class_bits(const char *cls, size_t n, uint32_t *bits);
/* The members at or above U+0100 of a literal or a set of literals and
 * ranges, atom[0, n): their count (at most max); -1 for other atoms. */
int xmt_srx_atom_wide(const char *atom, size_t n, UChar *wide, int max);
/* The C form of a no-break rule of single-character atoms, bounded
 * quantifiers, \b, ^, look-behinds and groups of alternatives (* and +
 * too in the afterbreak) (srx_shape.c); NULL when not of that shape, or *nomem
 * set. */
struct srx_shape *xmt_srx_shape_read(const char *before, const char *after,
                                     int *nomem);
void xmt_srx_shape_free(struct srx_shape *sh);
/* Whether the rule hits at text[p] (its local form's answer): 1 or 0, -1
 * where a character above U+00FF counts. */
int xmt_srx_shape_hits(const struct srx_shape *sh, const UChar *text, int32_t p,
                       int32_t len);
/* The C form of a rule searched through the text, "(before)(after)" with
 * * and + allowed on either side (srx_shape.c); NULL when not of that
 * shape, or *nomem set. */
struct srx_shape *xmt_srx_shape_read_find(const char *before, const char *after,
                                          int *nomem);
/* ICU's find of the rule from start, in C: 1 with *end where the
 * beforebreak of the first match ends, 0 for no match, -1 where a
 * character above U+00FF counts (ICU then finds). */
int xmt_srx_shape_find(const struct srx_shape *sh, const UChar *text,
                       int32_t start, int32_t len, int32_t *end);
/* 0 when no match can end at text[p]. */
int xmt_srx_may_end(const struct srx_hints *h, const UChar *text, int32_t p);
/* The slot, of SRX_PAIR_SLOTS, of the two units a position ends with, and
 * 0 when no match ends with units of that slot (xmt_srx_may_end's test of
 * them, once a slot instead of once a position). */
unsigned xmt_srx_pair_slot(UChar a, UChar b);
int xmt_srx_may_end_slot(const struct srx_hints *h, unsigned slot);

/* Loads the shipped rules, each languagerule compiled only when a language
 * first selects it (srx_load.c): they are known to compile. */
xmt_status xmt_srx_load_default(xmt_segmenter *s);
/* Whether the languagepattern of m matches the whole of lang (tag: lang in
 * UTF-16, n16 units); -1 on error. */
int xmt_srx_map_matches(xmt_segmenter *s, struct srx_map *m, const char *lang,
                        const UChar *tag, int32_t n16);
/* Compiles the rules of lr if not yet done; the local form of a rule with
 * a shape is left for xmt_srx_rule_local. */
xmt_status xmt_srx_compile_langrule(xmt_segmenter *s, struct srx_langrule *lr);
/* The local form of a rule with has_local, compiled now if not yet: NULL
 * with *ust set (U_MEMORY_ALLOCATION_ERROR when out of memory) when it
 * cannot be, or when *ust is a failure already. */
URegularExpression *xmt_srx_rule_local(xmt_segmenter *s, struct srx_rule *r,
                                       UErrorCode *ust);
/* The whole pattern of a searched rule, compiled now if not yet: as
 * xmt_srx_rule_local. */
URegularExpression *xmt_srx_rule_whole(xmt_segmenter *s, struct srx_rule *r,
                                       UErrorCode *ust);
/* Frees what a loaded document holds (srx_load.c). */
void xmt_srx_doc_free(struct srx_doc *d);
/* Drops the rules chosen for the last language, after the rules change
 * (srx.c). */
void xmt_srx_forget_language(xmt_segmenter *s);

#endif /* XMT_SEGMENTER_PRIVATE_H */
