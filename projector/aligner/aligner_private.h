/* aligner_private.h -- internals of the word aligner (aligner*.c,
 * symmetrize.c). Not installed. */
#ifndef XMT_ALIGNER_PRIVATE_H
#define XMT_ALIGNER_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "aligner_private.h is internal to libxliffmt"
#endif

#include <stdint.h>

#include "projector_private.h"

/* Word id 0 of each vocabulary is NULL, the empty word every word of the
 * other side may align to. */
#define XMT_NULL_WORD 0u
/* A word the vocabulary does not know (aligning unseen text). */
#define XMT_UNKNOWN_WORD UINT32_MAX
/* An entry absent from a translation table. */
#define XMT_NO_ENTRY UINT64_MAX
/* The probability of an absent entry, as fast_align's. */
#define XMT_UNSEEN_PROB 1e-9

/* Words <-> ids: the bytes back to back, and an open-addressing hash. */
struct xmt_vocab {
  struct xmt_buf bytes;
  uint64_t *start;  /* word id's bytes are start[id] .. start[id + 1] */
  uint32_t *hashes; /* of each id */
  uint32_t count;   /* ids in use, NULL included */
  uint32_t cap;     /* of hashes; start has cap + 1 */
  /* ids (NULL, id 0, is never looked up), kept at most half full */
  struct xmt_slots table;
};

xmt_status xmt_vocab_init(struct xmt_vocab *v);
void xmt_vocab_free(struct xmt_vocab *v);
/* The id of a word, added if new. */
xmt_status xmt_vocab_intern(struct xmt_vocab *v, const char *w, size_t len,
                            uint32_t *id);
/* The id of a word, or XMT_UNKNOWN_WORD. */
uint32_t xmt_vocab_find(const struct xmt_vocab *v, const char *w, size_t len);
static inline const char *xmt_vocab_word(const struct xmt_vocab *v, uint32_t id,
                                         size_t *len) {
  *len = (size_t)(v->start[id + 1] - v->start[id]);
  return v->bytes.data != NULL ? v->bytes.data + v->start[id] : "";
}

/* p(f | e) in compressed sparse rows: one row per conditioning word e, the
 * predicted words f of the row in ascending order. Only pairs that occur
 * together in a training pair (and NULL with every f) have an entry. */
struct xmt_ttable {
  uint32_t rows;
  uint64_t *row_start; /* rows + 1 entries */
  uint32_t *col;
  double *prob;
  double *count; /* links counted over every corpus trained on, or NULL */
  uint64_t nnz;
};

void xmt_ttable_free(struct xmt_ttable *t);
/* The first index in [lo, hi) of a row of t whose column is f or more; hi
 * when there is none. */
static inline uint64_t xmt_ttable_lower_bound(const struct xmt_ttable *t,
                                              uint64_t lo, uint64_t hi,
                                              uint32_t f) {
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (t->col[mid] < f)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
static inline uint64_t xmt_ttable_find(const struct xmt_ttable *t, uint32_t e,
                                       uint32_t f) {
  if (e >= t->rows)
    return XMT_NO_ENTRY;
  uint64_t end = t->row_start[e + 1];
  uint64_t at = xmt_ttable_lower_bound(t, t->row_start[e], end, f);
  return at < end && t->col[at] == f ? at : XMT_NO_ENTRY;
}

/* Prior knowledge of word translation (dictionaries, identical strings,
 * cognates) as pseudo-counts: link k says that source word src[k] and
 * target word tgt[k] (ids of the aligner's vocabularies) translate each
 * other with weight w[k] > 0, added to the expected counts of both
 * directions before each re-estimation (a Dirichlet prior). Sorted by
 * (src, tgt), no duplicates. Models read it; they never change it. */
struct xmt_prior_table {
  uint32_t *src, *tgt;
  float *w;
  size_t count, cap;
  float phrase_max; /* the heaviest link a multiword translation gives */
};

/* One direction: FWD predicts target words from source words (fast_align's
 * default), REV the reverse (fast_align -r). */
enum { XMT_FWD = 0, XMT_REV = 1 };
enum { XMT_SRC = 0, XMT_TGT = 1 };

struct xmt_direction {
  struct xmt_ttable t;
  double tension;
  double mean_len_ratio; /* mean of predicted / conditioning length */
};

/* The Bayesian model of the eflomal class (Ostling & Tiedemann 2016):
 * collapsed Gibbs sampling of one direction's alignment variables under
 * Dirichlet priors, through IBM1, then HMM-style jumps, then fertility,
 * with several independent samplers whose marginals are averaged.
 * aligner_gibbs.c. */
struct xmt_gibbs_options {
  unsigned samplers;      /* independent chains, averaged (>= 1) */
  unsigned iterations[3]; /* sweeps of the IBM1, HMM and fertility stages;
                             a stage with 0 is skipped */
  unsigned threads;       /* 0: the online cores; samplers run in parallel */
  uint64_t seed;          /* same seed, options and corpus: same result,
                             whatever the thread count */
  double lex_alpha;       /* Dirichlet concentration of p(f | e) */
  double null_alpha;      /* of each entry of the NULL word's row */
  double null_mass;       /* > 0: the NULL row's pseudo-counts add up to at
                             most this (null_alpha lowered to null_mass /
                             the predicted vocabulary); 0: no bound */
  double null_prob;       /* prior probability of a NULL link, in (0, 1) */
  double jump_alpha;      /* of the jump distribution */
  double fert_alpha;      /* of the fertility distributions */
  double prior_scale;     /* multiplies every xmt_prior_table weight */
};

void xmt_gibbs_options_init(struct xmt_gibbs_options *o);

/* Samples direction d (XMT_FWD: source words condition, target words are
 * predicted; XMT_REV the reverse) of the pairs of a, which must have at
 * least one pair with words on both sides. prior may be NULL; its links
 * are (source id, target id) whatever d.
 *
 * links receives, for every predicted token of the corpus (index: the
 * token's index in a->ids[predicted side], a->nids[predicted side]
 * entries), the 1-based position of its conditioning word within its pair
 * (0: NULL), the maximum of the averaged marginals.
 *
 * t (built by xmt_ttable_build for d) receives p(f | e) estimated from the
 * averaged final counts plus priors, so unseen sentences can be aligned
 * with it (xmt_aligner_viterbi). XMT_ERR_ABORTED when progress asks to
 * stop, XMT_ERR_NOMEM. */
xmt_status xmt_gibbs_align(const struct xmt_aligner *a, int d,
                           const struct xmt_prior_table *prior,
                           const struct xmt_gibbs_options *o, uint32_t *links,
                           struct xmt_ttable *t, xmt_progress_fn progress,
                           void *user);

/* The table of direction d over the pairs of a: every co-occurring pair
 * (and NULL with every predicted word), probabilities set to
 * XMT_UNSEEN_PROB. aligner_train.c. */
xmt_status xmt_ttable_build(const struct xmt_aligner *a, int d,
                            struct xmt_ttable *t);

/* After a training: counts the links of every pair in each direction into
 * the new tables, and merges them with old (the tables the training was
 * seeded from, freed here; NULL when not seeded). aligner_grow.c. */
xmt_status xmt_aligner_grow(struct xmt_aligner *a, struct xmt_ttable *old);
/* The Bayesian model's prior: a's prior links plus the counts of the model
 * it holds, times seed_weight. */
xmt_status xmt_aligner_seed_prior(const struct xmt_aligner *a,
                                  struct xmt_prior_table *out);
/* XMT_ERR_USAGE (in a->err, naming path or the file the model came from)
 * when the languages set are not the model's. */
xmt_status xmt_aligner_check_languages(struct xmt_aligner *a, const char *path);

struct sb_stemmer;
struct xmt_prior_options;
struct xmt_prior_stats;
struct xmt_lex_match;

/* Reads every dictionary o names into m, through xmt_lex_wanted and
 * xmt_lex_pair (priors_private.h), adding to stats' dictionaries_loaded
 * and loaded. The readers (files, $PATH, lt-print) live above the
 * projector, in filter/lexicon/ (xmt_lexicon_load): the projector reads
 * no file and starts no process, and is handed them with the
 * dictionaries. */
typedef xmt_status (*xmt_lexicon_reader)(struct xmt_lex_match *m,
                                         const struct xmt_prior_options *o,
                                         struct xmt_prior_stats *stats,
                                         struct xmt_error_store *err);

/* Adds dictionary spec (as xmt_aligner_add_dictionary: "auto", a file, or
 * "none"), to be read by read when training. */
xmt_status xmt_aligner_add_dictionary_read(struct xmt_aligner *a,
                                           const char *spec,
                                           xmt_lexicon_reader read);

/* The model file (aligner_model.c), opened by xmt_aligner_save and
 * xmt_aligner_load in filter/lexicon/model_file.c: the projector opens no
 * file. First, before any file is touched: XMT_OK, or XMT_ERR_USAGE
 * recorded for a NULL path, no model to save (saving), or an aligner with
 * pairs or a model (loading). */
xmt_status xmt_aligner_model_call(struct xmt_aligner *a, const char *path,
                                  int saving);
/* Writes the model to fp: XMT_OK, or XMT_ERR_WRITE with *e the errno of
 * the failed write (nothing recorded). */
xmt_status xmt_aligner_put_model(const struct xmt_aligner *a, FILE *fp, int *e);
/* Reads a model from fp, named path in messages (as xmt_aligner_load). */
xmt_status xmt_aligner_get_model(struct xmt_aligner *a, FILE *fp,
                                 const char *path);

/* Per-call buffers of xmt_aligner_align (and of one training thread). */
struct xmt_align_scratch {
  uint64_t *cells; /* table entry of each cell, (n + 1) per target word */
  uint32_t *order; /* target positions by word id */
  double *probs;   /* n + 1 */
  size_t cap_cells, cap_probs, cap_order;
};

struct xmt_aligner {
  struct xmt_aligner_options opt;
  struct xmt_error_store err;
  struct xmt_vocab vocab[2]; /* XMT_SRC, XMT_TGT */
  /* The pairs trained on: word ids of each side back to back; pair k's
   * words are ids[side][start[side][k] .. start[side][k + 1]). A long pair
   * added is several of them, its pieces (aligner_pieces.c): pair u added
   * is pairs unit_first[u] .. unit_first[u + 1] - 1. */
  uint32_t *ids[2];
  uint64_t nids[2], ids_cap[2];
  uint64_t *start[2];
  size_t pairs, pairs_cap;
  size_t *unit_first;
  size_t units, units_cap;
  size_t *cuts[2]; /* a pair's cuts, as it is added or aligned */
  size_t cuts_cap;
  xmt_alignment *piece; /* one piece's links */
  int trained;          /* dir holds a model (trained or loaded) */
  int empty_model;      /* an empty model was loaded: aligning links nothing */
  /* Priors: the languages, the dictionaries asked for, and the links the
   * last training built from them (and from identical words, cognates). */
  char *lang[2];
  struct sb_stemmer *stemmer[2]; /* the stems option's, made at first use */
  int stemmer_none[2];           /* the side's language has no stemmer */
  char **dicts;
  size_t ndicts, dicts_cap;
  xmt_lexicon_reader read_dicts; /* reads dicts */
  struct xmt_prior_table prior;
  char *prior_summary;
  xmt_lexicon *lexicon; /* dictionaries kept between trainings, or NULL */
  /* The Bayesian model's links of the pairs it was trained on, per
   * direction: for each predicted token, 1 + the position of its
   * conditioning word, 0 for NULL (xmt_gibbs_align); NULL otherwise. */
  uint32_t *pair_links[2];
  /* The languages of the model loaded or trained (NULL: unknown), and the
   * number of trainings its counts add up. */
  char *model_lang[2];
  uint64_t documents;
  /* the words of the model loaded (ids below), which a bound keeps */
  uint32_t model_words[2];
  char *model_path;            /* the file the model was loaded from, or NULL */
  struct xmt_direction dir[2]; /* XMT_FWD, XMT_REV */
  /* xmt_aligner_align's buffers */
  struct xmt_align_scratch scratch;
  uint32_t *words[2];
  size_t words_cap[2];
  struct xmt_buf lower; /* a lowercased word */
  uint16_t *u16;        /* UTF-16 buffers for lowercasing */
  size_t u16_cap;
  xmt_alignment *half[2];
};

/* Long pairs in pieces (aligner_pieces.c): the number of pieces of a
 * pair of n source and m target tokens (1: not cut), and where a side of
 * n tokens is cut into k: cuts[0..k] (k + 1 entries, cuts[0] = 0 and
 * cuts[k] = n), non-decreasing; a piece may be empty on one side. text
 * NULL: no punctuation to cut after. */
size_t xmt_pieces_count(size_t n, size_t m);
void xmt_pieces_cut(const char *text, const xmt_tokens *tokens, size_t k,
                    size_t *cuts);

/* The diagonal prior of fast_align: target position j (1-based) of m,
 * source position i (1-based) of n. */
static inline double xmt_diag_feature(double j, double i, double m, double n) {
  double d = i / n - j / m;
  return d < 0 ? d : -d;
}
double xmt_diag_z(unsigned j, unsigned m, unsigned n, double tension);
double xmt_diag_dlogz(unsigned j, unsigned m, unsigned n, double tension);

/* The Viterbi alignment of one direction: e (n words) conditions, f (m
 * words) is predicted; appends (source, target) links to out. */
xmt_status xmt_aligner_viterbi(const struct xmt_aligner *a, int d,
                               struct xmt_align_scratch *s, const uint32_t *e,
                               size_t n, const uint32_t *f, size_t m,
                               xmt_alignment *out);
/* calloc and free for a window's largest arrays, which are mapped each
 * on its own (aligner_ttable.c). */
void *xmt_mapped_calloc(size_t n, size_t size);
void xmt_mapped_free(void *p);

/* Room for a sentence pair of n conditioning and m predicted words. */
xmt_status xmt_scratch_reserve(struct xmt_align_scratch *s, size_t n, size_t m);
void xmt_scratch_free(struct xmt_align_scratch *s);

#endif /* XMT_ALIGNER_PRIVATE_H */
