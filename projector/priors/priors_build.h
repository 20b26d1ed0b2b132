/* priors_build.h -- what the pieces of the prior builder share: the
 * per-call text buffers, each side's keys (forms and stems) and the match
 * state that collects links. Private to projector/priors/; the rest of the
 * library sees priors_private.h only. */
#ifndef XMT_PRIORS_BUILD_H
#define XMT_PRIORS_BUILD_H

#ifndef XMT_BUILDING_LIBRARY
#error "priors_build.h is internal to libxliffmt"
#endif

#include <libstemmer.h>
#include <unicode/utypes.h>

#include "priors_private.h"

/* Words longer than this (bytes) are matched as they are: no real word is,
 * and it keeps ICU's int32_t lengths safe. */
#define LONG_WORD 4096
/* Cognates: shortest and longest words compared (code points, folded). */
#define COG_MIN_LEN 5
#define COG_MAX_LEN 48

enum { KIND_DICTIONARY, KIND_IDENTICAL, KIND_COGNATE, KIND_NULL, NKINDS };

/* --- Text: lowercasing and folding ----------------------------------------
 * Per-call scratch buffers, so that two builds may run in two threads. */
struct text {
  UChar *u[2]; /* UTF-16 buffers */
  size_t ucap; /* units in each */
  struct xmt_buf out;
};

/* --- The vocabularies' keys -----------------------------------------------
 * Each side's words lowercased ("forms") and stemmed, as tables of distinct
 * keys (an xmt_vocab each), with the vocabulary ids of each key chained. */

struct hit {
  uint32_t id;
  float factor; /* 1, or stem_factor for a match through a stem */
};

struct side {
  const struct xmt_vocab *vocab;
  struct xmt_lang_codes lang;
  const char *algorithm; /* Snowball's; NULL: no stems */
  struct xmt_vocab forms, stems;
  int forms_ok, stems_ok;
  uint32_t *form_of;               /* vocabulary id -> form key, 0: none */
  uint32_t *form_head, *form_next; /* key -> first id; id -> next id */
  uint32_t *stem_head, *stem_next;
  /* the folded beginnings of the stems (see stem_may_match) */
  struct xmt_vocab prefixes;
  int prefixes_ok;
  unsigned prefix_lens; /* bit L: some prefix has L code points */
};

/* One side's last lookup, kept: a headword is looked up once for all its
 * translations. */
struct found {
  struct xmt_buf word;
  int ok;
  struct hit *hits;
  size_t n, cap;
};

struct link {
  uint32_t src, tgt;
  float w;
  uint32_t kind;
};

/* The sides are shared, read only, by the copies that threads use; the
 * rest is each copy's own. */
struct xmt_lex_match {
  const struct xmt_prior_options *o;
  xmt_lexicon *record;     /* keeping what the readers give, all of it */
  const struct side *side; /* [2] */
  struct sb_stemmer *stemmer[2];
  struct text text;
  struct found found[2];
  struct link *links;
  size_t nlinks, links_cap;
};

/* priors.c: links every id of source key chain a to every id of target
 * key chain b, with weight w, of kind (KIND_*). */
xmt_status xmt_priors_link_chains(struct xmt_lex_match *m, uint32_t a,
                                  uint32_t b, double w, uint32_t kind);

/* priors.c: links every id of side sd's key chain a to the other side's
 * NULL word (XMT_NULL_WORD), with weight w: a word that is mostly left
 * unaligned. */
xmt_status xmt_priors_link_null(struct xmt_lex_match *m, int sd, uint32_t a,
                                double w);

/* priors_stems.c: scratch text, lowercasing and folding, and each side's
 * keys; each function's contract is at its definition. */
void xmt_priors_text_free(struct text *t);
xmt_status xmt_priors_text_lower(struct text *t, const char *w, size_t len);
int xmt_priors_has_class(const char *w, size_t len, int letters_only);
xmt_status xmt_priors_text_fold(struct text *t, const char *w, size_t len,
                                uint32_t *pool, size_t *n);
void xmt_priors_side_free(struct side *s);
xmt_status xmt_priors_stem_of(struct sb_stemmer *stemmer, const struct text *t,
                              const char **stem, size_t *n);
int xmt_priors_stem_may_match(const struct side *s, const char *w, size_t len);
xmt_status xmt_priors_side_build(struct side *s, struct sb_stemmer *stemmer,
                                 struct text *t);

/* priors_strings.c: links between identical words, and between cognates. */
xmt_status xmt_priors_add_identical(struct xmt_lex_match *m);
xmt_status xmt_priors_add_cognates(struct xmt_lex_match *m);

/* priors_scripts.c: for a side in Chinese, Japanese or Korean, links
 * between its words and the other side's digits, Latin words and
 * punctuation that they embed or write in full-width forms; and links to
 * NULL of the function words such a pair leaves unaligned (English
 * articles, Japanese topic and case particles). */
xmt_status xmt_priors_add_embedded(struct xmt_lex_match *m);
xmt_status xmt_priors_add_unmatched(struct xmt_lex_match *m);

#endif
