/* xmt_projector.h -- the tagged-segment model, tokens, alignments,
 * projection and tag metrics.
 *
 * xliff/ and filter/ depend on it; it depends only on base/ (xmt_base.h:
 * the status codes and error detail shared by the whole library), which it
 * includes so that code including this header alone keeps compiling.
 *
 * Ownership: every function copies the strings it is given. Pointers
 * returned by accessors are borrowed from the object and stay valid until
 * the next call that modifies it, or until it is freed. */
#ifndef XMT_PROJECTOR_H
#define XMT_PROJECTOR_H

#include <stddef.h>

#include "xmt_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Tagged segments ------------------------------------------------------
 * UTF-8 plain text plus an ordered list of tags. Each tag sits at a byte
 * offset of the text; tags at the same offset keep their list order. */

enum xmt_tag_kind {
  XMT_TAG_OPEN = 0,        /* g, bpt, bx with its ex in the segment, mrk */
  XMT_TAG_CLOSE = 1,       /* the partner of an OPEN with the same id */
  XMT_TAG_PLACEHOLDER = 2, /* x, ph, HTML void elements */
  XMT_TAG_ISOLATED_OPEN =
      3, /* bx or bpt whose partner is elsewhere, it pos=open */
  XMT_TAG_ISOLATED_CLOSE =
      4 /* ex or ept whose partner is elsewhere, it pos=close */
};

struct xmt_tag {
  enum xmt_tag_kind kind;
  size_t offset;      /* byte offset in the plain text */
  const char *id;     /* pairs OPEN with CLOSE; for XLIFF the id or rid */
  const char *name;   /* element name as written: "g", "bx", "b", "img" */
  const char *markup; /* the original markup, UTF-8, not NUL-terminated */
  size_t markup_len;
};

typedef struct xmt_segment xmt_segment;

XMT_API xmt_segment *xmt_segment_new(void);
XMT_API void xmt_segment_free(xmt_segment *seg);
/* Empties the segment but keeps its buffers for reuse. */
XMT_API void xmt_segment_clear(xmt_segment *seg);
XMT_API xmt_status xmt_segment_copy(xmt_segment *dst, const xmt_segment *src);

/* Appends plain UTF-8 text. Invalid UTF-8 is refused with XMT_ERR_ENCODING. */
XMT_API xmt_status xmt_segment_append_text(xmt_segment *seg, const char *text,
                                           size_t len);
/* Appends a tag at the current end of the text. */
XMT_API xmt_status xmt_segment_append_tag(xmt_segment *seg,
                                          enum xmt_tag_kind kind,
                                          const char *id, const char *name,
                                          const char *markup,
                                          size_t markup_len);

/* The plain text; NUL-terminated, *len (if not NULL) gets its length.
 * A NULL seg has the text "" (of length 0), not NULL. */
XMT_API const char *xmt_segment_text(const xmt_segment *seg, size_t *len);
XMT_API size_t xmt_segment_tag_count(const xmt_segment *seg);
/* Fills *tag with tag i (0-based). Returns XMT_ERR_USAGE if out of range. */
XMT_API xmt_status xmt_segment_tag(const xmt_segment *seg, size_t i,
                                   struct xmt_tag *tag);

/* Builds dst from src's tags placed at new offsets over a new text:
 * offsets[i] is the offset of src's tag i in text. Offsets must be
 * non-decreasing in tag order and on UTF-8 character boundaries. This is
 * how a projected translation becomes a tagged segment again. */
XMT_API xmt_status xmt_segment_retag(xmt_segment *dst, const xmt_segment *src,
                                     const char *text, size_t len,
                                     const size_t *offsets);

/* Checks the tag structure: OPEN/CLOSE pairs with equal ids, in order and
 * well nested, no id used by two pairs. On failure returns XMT_ERR_INLINE
 * and, if bad_tag is not NULL, the index of the first offending tag. */
XMT_API xmt_status xmt_segment_check(const xmt_segment *seg, size_t *bad_tag);

/* 1 when both segments have the same text and the same tags (kind, offset,
 * id, name and markup), else 0 (a NULL segment equals none). */
XMT_API int xmt_segment_equal(const xmt_segment *a, const xmt_segment *b);

/* Number of words in UTF-8 text, by ICU word boundaries (runs of letters,
 * numbers or ideographs; punctuation and spaces do not count). */
XMT_API size_t xmt_count_words(const char *text, size_t len);

/* --- Tokens ----------------------------------------------------------------
 * A tokenization is a list of byte ranges [start, end) of a text, in order,
 * not overlapping, never starting or ending with whitespace. A token may be
 * empty (a lone SentencePiece "\u2581" keeps its index that way).
 * Alignments index tokens. */

struct xmt_token {
  size_t start;
  size_t end;
};

typedef struct xmt_tokens xmt_tokens;

XMT_API xmt_tokens *xmt_tokens_new(void);
XMT_API void xmt_tokens_free(xmt_tokens *tokens);
XMT_API size_t xmt_tokens_count(const xmt_tokens *tokens);
/* The tokens as an array of xmt_tokens_count() entries; borrowed. */
XMT_API const struct xmt_token *xmt_tokens_array(const xmt_tokens *tokens);
/* Appends a token (for callers with their own tokenizer); ranges must be in
 * order and not overlap; a token may start where the previous one ends and
 * may be empty. */
XMT_API xmt_status xmt_tokens_append(xmt_tokens *tokens, size_t start,
                                     size_t end);

enum xmt_tokenizer {
  XMT_TOKENIZE_DEFAULT = 0,   /* ICU word boundaries; punctuation alone */
  XMT_TOKENIZE_WHITESPACE = 1 /* runs of non-space characters */
};
/* Tokenizes UTF-8 text into tokens (cleared first). XMT_ERR_ENCODING for
 * invalid UTF-8; XMT_ERR_USAGE for DEFAULT on text over INT32_MAX bytes. */
XMT_API xmt_status xmt_tokenize(xmt_tokens *tokens, const char *text,
                                size_t len, enum xmt_tokenizer tokenizer);

enum xmt_token_style {
  XMT_TOKENS_MOSES = 0,         /* Moses tokenizer output, escapes included */
  XMT_TOKENS_SENTENCEPIECE = 1, /* pieces separated by spaces, U+2581 marks */
  XMT_TOKENS_BPE = 2            /* subword-nmt: "@@ " joins pieces; Moses
                                   escapes decoded, as BPE runs on Moses */
};
/* Finds the byte range in raw of each space-separated token of tokenized
 * (tokens cleared first). On a mismatch returns XMT_ERR_USAGE with
 * *bad_token (if not NULL) set to the 0-based index of the first token that
 * cannot be found (the number of tokens when raw text is left over); tokens
 * then holds the ranges found before it. XMT_ERR_ENCODING for invalid
 * UTF-8. */
XMT_API xmt_status xmt_tokens_map(xmt_tokens *tokens, const char *raw,
                                  size_t raw_len, const char *tokenized,
                                  size_t tokenized_len,
                                  enum xmt_token_style style,
                                  size_t *bad_token);

/* --- Alignments -------------------------------------------------------------
 */

struct xmt_link {
  size_t source; /* token index in the source */
  size_t target; /* token index in the target */
};

typedef struct xmt_alignment xmt_alignment;

XMT_API xmt_alignment *xmt_alignment_new(void);
XMT_API void xmt_alignment_free(xmt_alignment *alignment);
XMT_API void xmt_alignment_clear(xmt_alignment *alignment);
/* Adds a link; duplicates are kept (xmt_alignment_parse removes them). */
XMT_API xmt_status xmt_alignment_add(xmt_alignment *alignment, size_t source,
                                     size_t target);
XMT_API size_t xmt_alignment_count(const xmt_alignment *alignment);
XMT_API const struct xmt_link *
xmt_alignment_links(const xmt_alignment *alignment);
/* Parses one Pharaoh line ("0-0 1-2 2p3"; "p" marks a possible link, taken
 * as a link) into alignment (cleared first), checking each index against
 * the token counts; duplicate links are dropped, the first kept. On error
 * returns XMT_ERR_USAGE, leaves the alignment empty and sets *bad_pair (if
 * not NULL) to the 0-based index of the offending pair. */
XMT_API xmt_status xmt_alignment_parse(xmt_alignment *alignment,
                                       const char *line, size_t len,
                                       size_t source_tokens,
                                       size_t target_tokens, size_t *bad_pair);

/* --- Projection
 * --------------------------------------------------------------- */

enum xmt_projection_rule {
  XMT_RULE_MINMAX = 0, /* span = min..max of the aligned target tokens */
  XMT_RULE_SCORE = 1   /* span maximising inside-inside + outside-outside */
};

/* Projects the tags of source onto target_text: out (cleared first, not
 * source itself) gets target_text with every tag of source exactly once,
 * same ids, pairs ordered and well nested. source_tokens tokenize source's
 * plain text, target_tokens target_text; alignment links their indexes
 * (NULL or empty: proportional positions). A pair spans the target tokens
 * aligned to its source tokens; unaligned tokens borrow their nearest
 * aligned neighbour inside the parent pair; children stay inside parents;
 * crossing siblings are shrunk, siblings side by side in the source never
 * nest; pair tags attach to words, not spaces, except that spacing copied
 * unchanged keeps its tags where they were; a placeholder keeps the
 * spacing it had in the source (xmt_project(3)). Returns
 * XMT_ERR_INLINE for a source whose tags are mis-nested, XMT_ERR_USAGE for
 * tokens or links out of range, XMT_ERR_ENCODING for invalid UTF-8. */
XMT_API xmt_status xmt_project(xmt_segment *out, const xmt_segment *source,
                               const xmt_tokens *source_tokens,
                               const char *target_text, size_t target_len,
                               const xmt_tokens *target_tokens,
                               const xmt_alignment *alignment,
                               enum xmt_projection_rule rule);

/* Cuts the tokens where the pair tags of source cut a word at a
 * punctuation mark ("<g>package</g>.symbols", "fsck.<g>type</g>"), for
 * the aligner and for xmt_project: source_tokens (the tokens of source's
 * plain text) at the tag, the mark a token of its own, and target_tokens
 * (of target, or NULL) the same way where the source token comes back
 * whole or a piece of it ends or starts a token ("Paket.symbols",
 * "fsck.Typ"; ASCII case aside), failing those at the same mark of the
 * target token that has it as many times ("nom@machine" for
 * "name@host"; see xmt_project(3)). Returns XMT_ERR_USAGE for NULL
 * source tokens or segment, XMT_ERR_NOMEM. */
XMT_API xmt_status xmt_tokens_cut_at_tags(xmt_tokens *source_tokens,
                                          const xmt_segment *source,
                                          xmt_tokens *target_tokens,
                                          const char *target,
                                          size_t target_len);

/* --- Tag metrics
 * ---------------------------------------------------------------- Compares a
 * hypothesis tagged segment with a reference (gold) one over the same plain
 * text. Positions count tokens of the form \w+|[^\w\s] (Unicode) before a tag;
 * a tag is exact when its position matches the reference's tag with the same id
 * (a pair: both ends); "interior" tags are those whose reference position is
 * neither the line start nor the line end. */

struct xmt_tag_metrics {
  size_t lines;           /* line pairs added */
  size_t lines_with_tags; /* reference lines with at least one tag */
  size_t tags;            /* reference tags; a pair counts once */
  /* Flagrant failures (Hanneman & Dinu 2020, section 6.1). */
  size_t dropped;           /* reference tags missing from the hypothesis */
  size_t added;             /* hypothesis tags not in the reference */
  size_t changed_id;        /* same element, other id */
  size_t mutilated;         /* tags of lines that are not well-formed */
  size_t badly_nested;      /* pairs crossing others or closed before open */
  size_t well_formed_lines; /* hypothesis lines that parse (Hashimoto 2019) */
  size_t structure_match_lines; /* same tag sequence as the reference */
  size_t exact;                 /* reference tags placed exactly */
  size_t interior;              /* interior reference tags */
  size_t interior_exact;
  size_t all_exact_lines; /* lines with tags whose tags are all exact */
  double content_f1_sum;  /* token-bag F1 of pair contents (Ryu 2022) */
  size_t content_pairs;   /* pairs that F1 was averaged over */
  /* The counts above by the kind of the reference tag, XMT_TAG_CLASS_*:
   * how each kind fares (lone bx/ex against x, say). */
  struct xmt_tag_class_metrics {
    size_t tags, exact, interior, interior_exact;
  } by_class[3];
};
/* Kinds of reference tags in xmt_tag_metrics.by_class. */
enum xmt_tag_class {
  XMT_TAG_CLASS_PAIR = 0,        /* an OPEN/CLOSE pair (g, bx...ex) */
  XMT_TAG_CLASS_PLACEHOLDER = 1, /* x, ph */
  XMT_TAG_CLASS_ISOLATED = 2     /* bx, ex, it whose partner is elsewhere */
};

typedef struct xmt_evaluator xmt_evaluator;

XMT_API xmt_evaluator *xmt_evaluator_new(void);
XMT_API void xmt_evaluator_free(xmt_evaluator *evaluator);
/* Adds one line pair. hypothesis is NULL when the hypothesis line is not
 * well-formed (its tags then count as mutilated). */
XMT_API xmt_status xmt_evaluator_add(xmt_evaluator *evaluator,
                                     const xmt_segment *hypothesis,
                                     const xmt_segment *reference);
XMT_API const struct xmt_tag_metrics *
xmt_evaluator_metrics(const xmt_evaluator *evaluator);

/* --- Word aligner ------------------------------------------------------------
 * IBM Model 2 with a diagonal prior, trained by EM in both directions as
 * fast_align does (Dyer, Chahuneau & Smith 2013), and symmetrization of the
 * two directions (Koehn et al. 2005). Links are always (source index,
 * target index), whatever the direction. See xmt_aligner(3).
 *
 * Threads: one call at a time per aligner (calls reuse buffers of the
 * handle); training spreads its work over its own threads. Distinct
 * aligners are independent. */

typedef struct xmt_aligner xmt_aligner;

enum xmt_align_model {
  XMT_MODEL_IBM2 = 0, /* fast_align's IBM Model 2, EM with variational Bayes:
                         the fast option */
  XMT_MODEL_BAYES = 1 /* IBM1, HMM jumps, fertility by collapsed Gibbs
                         sampling (the class of eflomal): better alignments
                         of small corpora, slower */
};

struct xmt_aligner_options {
  unsigned iterations;        /* fast_align -I: EM passes, the last one being
                                 the alignment pass (5) */
  double prob_align_null;     /* -p: probability of the NULL link (0.08) */
  double tension;             /* -T: starting diagonal tension (4.0) */
  int favor_diagonal;         /* -d: diagonal prior, else IBM Model 1 (1) */
  int optimize_tension;       /* -o: learn the tension (1) */
  int variational_bayes;      /* -v: Dirichlet prior on translations (1) */
  double alpha;               /* -a: its concentration, > 0 (0.01) */
  int lowercase;              /* words are compared lowercased (0) */
  unsigned threads;           /* training threads; 0: the online cores (0) */
  double seed_weight;         /* a loaded model seeds training and weighs as
                                 this many prior occurrences of each word (1.0) */
  enum xmt_align_model model; /* the model trained (XMT_MODEL_BAYES) */
  int string_priors;          /* identical words and cognates get prior
                                 links (1) */
  double null_prior;          /* the Bayesian model: prior probability of a
                                 NULL link, in (0, 1) (0.1) */
  double null_alpha;          /* the Bayesian model: Dirichlet concentration
                                 of each word of the NULL word's row, > 0;
                                 small, NULL learns which words it produces
                                 (10) */
  double null_mass;           /* the Bayesian model: > 0, null_alpha is
                                 lowered so that the NULL row's
                                 pseudo-counts add up to at most this over
                                 the predicted vocabulary; 0: unbounded
                                 (300) */
  int stems;                  /* words of a side in this mask
                                 (XMT_STEMS_SOURCE, XMT_STEMS_TARGET) are
                                 compared through the Snowball stem of their
                                 lowercased form, when the side's language
                                 (xmt_aligner_set_languages) has a stemmer:
                                 an inflecting language's forms share one
                                 word of the tables; a model trained so is
                                 aligned with the same mask (0) */
};
#define XMT_STEMS_SOURCE 1
#define XMT_STEMS_TARGET 2

/* Fills o with the defaults above (fast_align -d -o -v). */
XMT_API void xmt_aligner_options_init(struct xmt_aligner_options *o);
/* A new aligner (NULL o: the defaults; o is copied). NULL when out of
 * memory or when o is invalid (alpha <= 0 with variational_bayes,
 * prob_align_null outside [0, 1), tension <= 0, iterations 0). */
XMT_API xmt_aligner *xmt_aligner_new(const struct xmt_aligner_options *o);
XMT_API void xmt_aligner_free(xmt_aligner *aligner);
/* The detail of the aligner's last failure; borrowed, cleared at each call. */
XMT_API const struct xmt_error *xmt_aligner_error(const xmt_aligner *aligner);

/* Adds a training pair: the UTF-8 texts and their tokens (see
 * xmt_tokenize). The words are copied (lowercased with the lowercase
 * option); the arguments are not kept. A side may have no tokens: the pair
 * keeps its index and aligns to nothing. XMT_ERR_ENCODING for invalid
 * UTF-8 in a token, XMT_ERR_USAGE for tokens out of the text. */
XMT_API xmt_status xmt_aligner_add(xmt_aligner *aligner, const char *src,
                                   size_t src_len, const xmt_tokens *src_tokens,
                                   const char *tgt, size_t tgt_len,
                                   const xmt_tokens *tgt_tokens);
/* The languages of the two sides (BCP 47 or ISO 639 codes; copied), used
 * to choose stemmers and installed dictionaries. NULL: unknown. */
XMT_API xmt_status xmt_aligner_set_languages(xmt_aligner *aligner,
                                             const char *source,
                                             const char *target);
/* Dictionaries read once for many trainings. The first training that
 * uses a lexicon reads its dictionaries whole into it; later ones with
 * the same languages and dictionaries match their vocabulary against it
 * instead of reading the files again, and get the same prior links. Worth
 * it when many documents are aligned one after the other (a batch): a
 * short document's training otherwise spends most of its time reading
 * dictionaries. A lexicon holds some megabytes; one aligner at a time may
 * train with it. */
typedef struct xmt_lexicon xmt_lexicon;
XMT_API xmt_lexicon *xmt_lexicon_new(void);
XMT_API void xmt_lexicon_free(xmt_lexicon *lexicon);
/* The aligner's trainings use lexicon (borrowed: it must outlive them);
 * NULL reads the dictionaries at each training (the default). XMT_OK, or
 * XMT_ERR_USAGE for a NULL aligner. */
XMT_API xmt_status xmt_aligner_set_lexicon(xmt_aligner *aligner,
                                           xmt_lexicon *lexicon);
/* What the last training drew on, one line ("dictionaries: F1, F2;
 * links: 1234 dictionary, 56 identical, 7 cognate"); borrowed until the
 * next call on the aligner, "" before training. */
XMT_API const char *xmt_aligner_priors_summary(const xmt_aligner *aligner);

/* Removes the pairs added, keeping the model: the next training starts from
 * it and adds its counts to it (a model that grows document by document). */
XMT_API void xmt_aligner_forget_pairs(xmt_aligner *aligner);

/* Cuts the model down, when it has more than max_words words on a side
 * (besides those of a model loaded) or more than max_entries entries in
 * a direction: it keeps the loaded model's words and the max_words most
 * linked others, and of their entries the max_entries with the most
 * links (the loaded model's own all stay). A model carried from one
 * training to the next stays bounded so; entries without a link, the
 * first to go, do not seed the next training. Call it with no pairs
 * added (after xmt_aligner_forget_pairs). XMT_ERR_NOMEM leaves the
 * aligner without a model. */
XMT_API xmt_status xmt_aligner_bound_model(xmt_aligner *aligner,
                                           size_t max_words,
                                           size_t max_entries);

/* Pairs added so far. */
XMT_API size_t xmt_aligner_pair_count(const xmt_aligner *aligner);

/* Called by xmt_aligner_train on the calling thread, now and then and at
 * the end of each iteration (1-based) of each direction; pairs_done of
 * pairs is the progress within the iteration. Non-zero aborts training
 * (XMT_ERR_ABORTED; the aligner keeps its earlier model, if any). */
typedef int (*xmt_progress_fn)(void *user, unsigned iteration,
                               unsigned iterations, size_t pairs_done,
                               size_t pairs);

/* Trains both directions on every pair added; with a model (loaded or
 * trained before), the model's link counts seed the training as a prior
 * (seed_weight times them) and the links of the new pairs are added to
 * them. Afterwards the pairs stay added, and the model covers their words.
 * XMT_ERR_USAGE when the languages set are not those of the model.
 * progress may be NULL. XMT_ERR_USAGE when no pair has tokens on both
 * sides. */
XMT_API xmt_status xmt_aligner_train(xmt_aligner *aligner,
                                     xmt_progress_fn progress, void *user);

enum xmt_symmetrization {
  XMT_SYM_FORWARD = 0,             /* source -> target direction only */
  XMT_SYM_REVERSE = 1,             /* target -> source direction only */
  XMT_SYM_INTERSECT = 2,           /* links of both directions */
  XMT_SYM_UNION = 3,               /* links of either direction */
  XMT_SYM_GROW_DIAG = 4,           /* intersection grown into neighbours
                                      (Koehn et al. 2005, as atools) */
  XMT_SYM_GROW_DIAG_FINAL = 5,     /* then links of either direction that
                                      reach an unaligned word */
  XMT_SYM_GROW_DIAG_FINAL_AND = 6, /* then those that join two unaligned
                                      words */
  XMT_SYM_INTERSECT_FIRST = 7      /* grow-diag-final-and, but a word the
                                      intersection links keeps only links
                                      that run on from those without a gap */
};

/* Aligns a sentence pair with the trained or loaded model (words it does
 * not know fall back on the diagonal prior). out is cleared first and gets
 * the links sorted by source then target index (FORWARD and REVERSE: in
 * the order fast_align prints them). XMT_ERR_USAGE before training. */
XMT_API xmt_status xmt_aligner_align(xmt_aligner *aligner, const char *src,
                                     size_t src_len,
                                     const xmt_tokens *src_tokens,
                                     const char *tgt, size_t tgt_len,
                                     const xmt_tokens *tgt_tokens,
                                     enum xmt_symmetrization sym,
                                     xmt_alignment *out);
/* The same for pair index (0-based, in the order added), without giving
 * its text again: how a batch is aligned after self-training. */
XMT_API xmt_status xmt_aligner_align_pair(xmt_aligner *aligner, size_t index,
                                          enum xmt_symmetrization sym,
                                          xmt_alignment *out);

/* Combines two alignments of one sentence pair (both as (source, target)
 * links) into out (cleared first; may not be forward or reverse), sorted
 * by source then target index. Links outside source_tokens x
 * target_tokens are XMT_ERR_USAGE. */
XMT_API xmt_status xmt_symmetrize(xmt_alignment *out,
                                  const xmt_alignment *forward,
                                  const xmt_alignment *reverse,
                                  size_t source_tokens, size_t target_tokens,
                                  enum xmt_symmetrization sym);
/* "forward", "reverse", "intersect", "union", "grow-diag",
 * "grow-diag-final", "grow-diag-final-and" (as atools -c names them),
 * "intersect-first";
 * XMT_ERR_USAGE for anything else. */
XMT_API xmt_status xmt_symmetrization_parse(const char *name,
                                            enum xmt_symmetrization *sym);
/* The name of sym as parsed above; "?" when out of range. */
XMT_API const char *xmt_symmetrization_name(enum xmt_symmetrization sym);

#ifdef __cplusplus
}
#endif

#endif /* XMT_PROJECTOR_H */
