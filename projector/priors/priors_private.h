/* priors_private.h -- prior knowledge of word translation for the aligner:
 * bilingual dictionaries (FreeDict dictd, Apertium bilingual transducers,
 * TSV word lists), Snowball stems, identical strings and cognates, turned
 * into the prior links the models read (struct xmt_prior_table in
 * aligner_private.h). Not installed. */
#ifndef XMT_PRIORS_PRIVATE_H
#define XMT_PRIORS_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "priors_private.h is internal to libxliffmt"
#endif

#include "aligner_private.h"

/* What to build priors from. Strings are borrowed for the call. */
struct xmt_prior_options {
  const char *source_lang; /* BCP 47 or ISO 639-1/-3 ("en", "eng", "en-GB");
                              NULL: unknown (no stems, no auto dictionaries) */
  const char *target_lang;
  /* Dictionaries: each entry is "auto" (every installed dictionary of the
   * language pair, both directions: FreeDict dictd under dictd_dir,
   * Apertium bilingual transducers under apertium_dir) or a file path: a
   * FreeDict .index / .dict.dz / .dict (or the common base name), an
   * Apertium .bin bilingual transducer, or a TSV file (source word TAB
   * target word [TAB weight], '#' comments; the weight multiplies
   * dictionary_weight, 1 when absent). "none" entries are ignored. A file
   * whose name says it is reversed (freedict-deu-eng for en->de, an
   * Apertium spa-eng for en->es, a TSV named de-en for en->de) is read
   * reversed. */
  const char *const *dictionaries;
  size_t ndictionaries;
  xmt_lexicon_reader read;  /* reads them (aligner_private.h); required
                                with dictionaries */
  const char *dictd_dir;    /* NULL: "/usr/share/dictd" */
  const char *apertium_dir; /* NULL: "/usr/share/apertium" */
  /* The program that prints an Apertium transducer in AT&T text (run with
   * -H and the file, no shell): NULL: "lt-print", searched in PATH. When it
   * cannot be found, Apertium files found by "auto" are skipped; a named
   * .bin is an XMT_ERR_IO error. Neither when the transducer's lemma pairs
   * are cached: in $XLIFFMT_CACHE_DIR (empty: no cache), else
   * $XDG_CACHE_HOME/xliffmt or $HOME/.cache/xliffmt. */
  const char *lt_print;
  double dictionary_weight; /* pseudo-count of a dictionary link (> 0) */
  double identical_weight;  /* of identical words (0: none) */
  double cognate_weight;    /* of the best near-identical pairs (0: none);
                               multiplied by their similarity */
  double cognate_threshold; /* least similarity of a cognate: 1 - edit
                               distance / length, after folding case and
                               diacritics (0 < t <= 1) */
  unsigned threads;         /* reading dictionaries; 0: the online cores */
  int stems;                /* match inflected forms through Snowball stems */
  double stem_factor;       /* multiplies the weight of a dictionary link
                               that matched a vocabulary word only through
                               its stem (0 < f <= 1) */
  xmt_lexicon *kept;        /* dictionaries kept in memory between builds
                               (priors_kept.c), or NULL: read each time */
  double phrase_factor;     /* multiplies the weight of the links of a
                               FreeDict headword to the content words of a
                               phrase translating it (up to 3 words of 4
                               letters or more, not function words: comply
                               -> "einer Sache nachkommen" gives Sache and
                               nachkommen); 0: none. Headwords of several
                               words are skipped. */
};

void xmt_prior_options_init(struct xmt_prior_options *o);

/* What went into a prior table, for reports and the README's figures. The
 * link counts are distinct (source, target) pairs each way found; a pair
 * found several ways counts in each, and once in links. */
struct xmt_prior_stats {
  size_t dictionary_links, identical_links, cognate_links;
  size_t links; /* in the table */
  size_t dictionaries_loaded;
  char loaded[1024]; /* the dictionary files read, separated by ", " */
};

/* Fills out (emptied first) with the prior links between the words of the
 * source vocabulary src and the target vocabulary tgt (the aligner's,
 * lowercased or not: matching folds case itself): for every pair of words
 * that a dictionary lists as translations (after lowercasing, and through
 * stems when o->stems and a stemmer exists for the language), that are
 * identical (letters or digits; not punctuation-only), or that are
 * cognates (normalised edit distance after folding case and diacritics).
 * A pair found several ways gets the largest of its weights. When a side
 * is Chinese, Japanese or Korean, its words also link to the digits,
 * Latin words and symbols they embed or write in full-width forms, and
 * the function words such a pair leaves unaligned (English articles,
 * Japanese topic and case particles) link to the other side's NULL word
 * (id 0, on one side of a link at most); otherwise NULL gets no link.
 * Dictionary files that cannot be read or parsed
 * are errors in err (XMT_ERR_IO / XMT_ERR_FORMAT naming the file); "auto"
 * with nothing installed is not an error. stats may be NULL. */
xmt_status
xmt_priors_build(struct xmt_prior_table *out, const struct xmt_vocab *src,
                 const struct xmt_vocab *tgt, const struct xmt_prior_options *o,
                 struct xmt_prior_stats *stats, struct xmt_error_store *err);

void xmt_prior_table_free(struct xmt_prior_table *t);

/* The Snowball algorithm for a language tag (BCP 47 or ISO 639), NULL when
 * libstemmer has none for it: the aligner's stems option uses it. */
const char *xmt_priors_snowball(const char *lang);
/* The weight of (src, tgt), 0 when absent (binary search). */
float xmt_prior_table_weight(const struct xmt_prior_table *t, uint32_t src,
                             uint32_t tgt);

/* Refines out, a symmetrized alignment of source words s[0..n) and target
 * words tw[0..m) (vocabulary ids), with the table's links:
 * - two links between neighbouring words on both sides, neither with a
 *   prior, swap targets when a word-for-word prior (heavier than
 *   phrase_max) supports the swap: the models' jumps favour keeping word
 *   order, and lose a noun and its adjective that a translation inverts
 *   ("government deficit" -> "déficit public");
 * - words left unaligned on both sides are linked when a prior links
 *   them, heaviest prior first, then nearest the diagonal, each word once:
 *   the models miss rare words beside frequent ones, and grow-diag-final-
 *   and cannot add a link neither direction proposed.
 * Links stay in (source, target) order. */
xmt_status xmt_priors_refine(xmt_alignment *out,
                             const struct xmt_prior_table *t, const uint32_t *s,
                             size_t n, const uint32_t *tw, size_t m);

/* --- Dictionaries kept between builds (priors_kept.c) ---------------------
 * Everything the readers give for a key (the languages, dictionaries and
 * options read with), each word's lowercased form and stem, and chains
 * from source forms and stems to words and from source words to pairs. */

struct xmt_kept_pair {
  uint32_t src, tgt; /* in words[] */
  double scale;
};

struct xmt_lexicon {
  char *key;                 /* NULL: nothing kept */
  int tables_ok;             /* the vocabularies below are initialized */
  int ready;                 /* read whole and indexed */
  struct xmt_vocab words[2]; /* the words the readers gave */
  struct xmt_vocab forms[2]; /* lowercased */
  struct xmt_vocab stems[2]; /* stems of the forms */
  uint32_t *form_of[2], *stem_of[2]; /* word -> form, stem (0: none) */
  struct xmt_kept_pair *pairs;
  size_t npairs, pairs_cap;
  uint32_t *first_pair, *next_pair;      /* source word -> pairs (k + 1) */
  uint32_t *form_words, *next_form_word; /* source form -> words */
  uint32_t *stem_words, *next_stem_word; /* source stem -> words */
  size_t dictionaries_loaded;
  char loaded[1024];
};

/* Chains ids 1..n-1 by key_of (0: none): head[key] is the first id,
 * next[id] the next, in increasing id order (both allocated). */
xmt_status xmt_priors_chain(const uint32_t *key_of, uint32_t n, uint32_t nkeys,
                            uint32_t **head, uint32_t **next);

void xmt_kept_clear(xmt_lexicon *lx);
/* Empties lx and starts keeping what is read for key. */
xmt_status xmt_kept_start(xmt_lexicon *lx, const char *key);
/* Keeps one pair the readers gave. */
xmt_status xmt_kept_add(xmt_lexicon *lx, const char *const w[2],
                        const size_t len[2], double scale);
/* Once the forms and stems are set: the chains; lx is then ready. */
xmt_status xmt_kept_index(xmt_lexicon *lx);

/* --- Between priors.c (matching words) and the readers of files ---------
 * (filter/lexicon/lexicon_private.h) */

/* A language's codes: ISO 639-1 ("de", "" when it has none) and ISO 639-3
 * ("deu", "" when unknown). */
struct xmt_lang_codes {
  char iso1[4];
  char iso3[4];
};

/* The codes of a BCP 47 or ISO 639 tag ("en", "eng", "en-GB", "ger");
 * 0 when tag is NULL or not a language code. */
int xmt_lang_codes_of(const char *tag, struct xmt_lang_codes *c);

/* The vocabularies as dictionaries are matched against them, and the
 * links found so far (priors.c). */
struct xmt_lex_match;

/* The options m was made with. */
const struct xmt_prior_options *xmt_lex_options(const struct xmt_lex_match *m);
/* The language of side (XMT_SRC or XMT_TGT); its codes are "" if unknown. */
const struct xmt_lang_codes *xmt_lex_lang(const struct xmt_lex_match *m,
                                          int side);
/* *wanted = 1 when dictionary word w (any case) of side may match a
 * vocabulary word of that side, lowercased or through its stem. */
xmt_status xmt_lex_wanted(struct xmt_lex_match *m, int side, const char *w,
                          size_t len, int *wanted);
/* Links every vocabulary word that matches dictionary word w[XMT_SRC] to
 * every one that matches w[XMT_TGT], with weight dictionary_weight times
 * scale (times stem_factor for a match through a stem). */
xmt_status xmt_lex_pair(struct xmt_lex_match *m, const char *const w[2],
                        const size_t len[2], double scale);

/* A copy of m for another thread: the same vocabularies, its own buffers
 * and links. */
xmt_status xmt_lex_match_fork(const struct xmt_lex_match *m,
                              struct xmt_lex_match **copy);
/* Moves copy's links into m, and frees copy (also when out of memory). */
xmt_status xmt_lex_match_join(struct xmt_lex_match *m,
                              struct xmt_lex_match *copy);

#endif /* XMT_PRIORS_PRIVATE_H */
