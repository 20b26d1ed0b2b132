/* aligner.c -- the word aligner's handle: options, the pairs added (as word
 * ids), and aligning sentence pairs with the model. Training is in
 * aligner_train.c, the model file in aligner_model.c. */
#include "config.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <unicode/ustring.h>

#include "priors_private.h"

/* Longer words are kept whole by the stems option (Snowball works on
 * words; a long token is a name or a path). */
#define STEM_MAX 256

void xmt_aligner_options_init(struct xmt_aligner_options *o) {
  if (o == NULL)
    return;
  memset(o, 0, sizeof *o);
  o->iterations = 5;
  o->prob_align_null = 0.08;
  o->tension = 4.0;
  o->favor_diagonal = 1;
  o->optimize_tension = 1;
  o->variational_bayes = 1;
  o->alpha = 0.01;
  o->lowercase = 0;
  o->threads = 0;
  o->seed_weight = 1.0;
  o->model = XMT_MODEL_BAYES;
  o->string_priors = 1;
  o->null_prior = 0.1;
  o->null_alpha = 10.0;
  o->null_mass = 300;
  o->stems = 0;
}

static int options_valid(const struct xmt_aligner_options *o) {
  return o->iterations > 0 && o->iterations <= 1000 &&
         o->prob_align_null >= 0 && o->prob_align_null < 1 && o->tension > 0 &&
         (!o->variational_bayes || o->alpha > 0) && o->seed_weight >= 0 &&
         o->null_prior > 0 && o->null_prior < 1 && o->null_alpha > 0 &&
         o->null_mass >= 0 &&
         (o->stems & ~(XMT_STEMS_SOURCE | XMT_STEMS_TARGET)) == 0 &&
         (o->model == XMT_MODEL_IBM2 || o->model == XMT_MODEL_BAYES);
}

xmt_aligner *xmt_aligner_new(const struct xmt_aligner_options *o) {
  struct xmt_aligner_options def;
  if (o == NULL) {
    xmt_aligner_options_init(&def);
    o = &def;
  }
  if (!options_valid(o))
    return NULL;
  xmt_aligner *a = calloc(1, sizeof *a);
  if (a == NULL)
    return NULL;
  a->opt = *o;
  a->pairs_cap = 64;
  a->units_cap = 64;
  if ((a->unit_first = malloc(a->units_cap * sizeof *a->unit_first)) == NULL ||
      (a->piece = xmt_alignment_new()) == NULL) {
    xmt_aligner_free(a);
    return NULL;
  }
  a->unit_first[0] = 0;
  for (int s = 0; s < 2; s++) {
    if (xmt_vocab_init(&a->vocab[s]) != XMT_OK ||
        (a->start[s] = malloc(a->pairs_cap * sizeof *a->start[s])) == NULL ||
        (a->half[s] = xmt_alignment_new()) == NULL) {
      xmt_aligner_free(a);
      return NULL;
    }
    a->start[s][0] = 0;
    a->dir[s].tension = o->tension;
  }
  return a;
}

void xmt_aligner_free(xmt_aligner *a) {
  if (a == NULL)
    return;
  xmt_error_clear(&a->err);
  for (int s = 0; s < 2; s++) {
    xmt_vocab_free(&a->vocab[s]);
    free(a->ids[s]);
    free(a->start[s]);
    xmt_ttable_free(&a->dir[s].t);
    free(a->words[s]);
    xmt_alignment_free(a->half[s]);
    free(a->lang[s]);
    free(a->model_lang[s]);
    if (a->stemmer[s] != NULL)
      sb_stemmer_delete(a->stemmer[s]);
    free(a->pair_links[s]);
    free(a->cuts[s]);
  }
  free(a->unit_first);
  xmt_alignment_free(a->piece);
  for (size_t k = 0; k < a->ndicts; k++)
    free(a->dicts[k]);
  free(a->dicts);
  xmt_prior_table_free(&a->prior);
  free(a->prior_summary);
  free(a->model_path);
  xmt_scratch_free(&a->scratch);
  xmt_buf_free(&a->lower);
  free(a->u16);
  free(a);
}

const struct xmt_error *xmt_aligner_error(const xmt_aligner *a) {
  return a != NULL ? &a->err.pub : NULL;
}

xmt_status xmt_aligner_set_languages(xmt_aligner *a, const char *source,
                                     const char *target) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  char *s = xmt_strdup(source), *t = xmt_strdup(target);
  if ((source != NULL && s == NULL) || (target != NULL && t == NULL)) {
    free(s);
    free(t);
    return xmt_error_nomem(&a->err);
  }
  free(a->lang[XMT_SRC]);
  free(a->lang[XMT_TGT]);
  a->lang[XMT_SRC] = s;
  a->lang[XMT_TGT] = t;
  for (int sd = 0; sd < 2; sd++) {
    if (a->stemmer[sd] != NULL)
      sb_stemmer_delete(a->stemmer[sd]);
    a->stemmer[sd] = NULL; /* made again for the new language */
    a->stemmer_none[sd] = 0;
  }
  return xmt_aligner_check_languages(a, NULL);
}

void xmt_aligner_forget_pairs(xmt_aligner *a) {
  if (a == NULL)
    return;
  xmt_error_clear(&a->err);
  for (int s = 0; s < 2; s++) {
    a->nids[s] = 0;
    free(a->pair_links[s]);
    a->pair_links[s] = NULL;
  }
  a->pairs = 0;
  a->units = 0;
}

xmt_status xmt_aligner_add_dictionary_read(xmt_aligner *a, const char *spec,
                                           xmt_lexicon_reader read) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  if (spec == NULL || *spec == '\0')
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "empty dictionary name");
  if (strcmp(spec, "none") == 0) {
    for (size_t k = 0; k < a->ndicts; k++)
      free(a->dicts[k]);
    a->ndicts = 0;
    return XMT_OK;
  }
  char **d = xmt_grow_array(a->dicts, &a->dicts_cap, a->ndicts + 1, sizeof *d);
  if (d == NULL)
    return xmt_error_nomem(&a->err);
  a->dicts = d;
  if ((d[a->ndicts] = xmt_strdup(spec)) == NULL)
    return xmt_error_nomem(&a->err);
  a->ndicts++;
  a->read_dicts = read;
  return XMT_OK;
}

xmt_status xmt_aligner_set_lexicon(xmt_aligner *a, xmt_lexicon *lexicon) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  a->lexicon = lexicon;
  return XMT_OK;
}

const char *xmt_aligner_priors_summary(const xmt_aligner *a) {
  if (a == NULL)
    return NULL;
  return a->prior_summary != NULL ? a->prior_summary : "";
}

size_t xmt_aligner_pair_count(const xmt_aligner *a) {
  return a != NULL ? a->units : 0;
}

/* Lowercases UTF-8 word w into a->lower (full Unicode case mapping, root
 * locale) and points *w, *len at the result. */
static xmt_status lowercase(xmt_aligner *a, const char **w, size_t *len) {
  if (*len > INT32_MAX / 4)
    return XMT_ERR_USAGE;
  size_t need = *len * 2 + 8; /* lowercasing can lengthen a string */
  if (a->u16_cap < need) {
    size_t cap = a->u16_cap * 2; /* an input half and an output half */
    uint16_t *u = xmt_grow_array(a->u16, &cap, need * 2, sizeof *u);
    if (u == NULL)
      return XMT_ERR_NOMEM;
    a->u16 = u;
    a->u16_cap = cap / 2;
  }
  UChar *in = (UChar *)a->u16, *out = in + a->u16_cap;
  int32_t n = 0, cap = (int32_t)a->u16_cap;
  UErrorCode err = U_ZERO_ERROR;
  u_strFromUTF8(in, cap, &n, *w, (int32_t)*len, &err);
  if (U_FAILURE(err))
    return XMT_ERR_ENCODING;
  int32_t ln = u_strToLower(out, cap, in, n, "", &err);
  if (U_FAILURE(err))
    return XMT_ERR_INTERNAL;
  int32_t bytes = 0;
  u_strToUTF8(NULL, 0, &bytes, out, ln, &err);
  if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err))
    return XMT_ERR_INTERNAL;
  err = U_ZERO_ERROR;
  xmt_buf_reset(&a->lower);
  xmt_status st = xmt_buf_grow(&a->lower, (size_t)bytes);
  if (st != XMT_OK)
    return st;
  u_strToUTF8(a->lower.data, (int32_t)a->lower.cap, &bytes, out, ln, &err);
  if (U_FAILURE(err))
    return XMT_ERR_INTERNAL;
  a->lower.len = (size_t)bytes;
  *w = a->lower.data;
  *len = (size_t)bytes;
  return XMT_OK;
}

/* *sb = the stemmer of side's words: NULL when the stems option leaves
 * the side out or its language has no Snowball stemmer (looked up once
 * for the languages set). */
static xmt_status stemmer_of(xmt_aligner *a, int side, struct sb_stemmer **sb) {
  *sb = NULL;
  if (!(a->opt.stems & (side == XMT_SRC ? XMT_STEMS_SOURCE : XMT_STEMS_TARGET)))
    return XMT_OK;
  if (a->stemmer[side] == NULL && !a->stemmer_none[side]) {
    const char *algo = xmt_priors_snowball(a->lang[side]);
    if (algo == NULL)
      a->stemmer_none[side] = 1;
    else if ((a->stemmer[side] = sb_stemmer_new(algo, "UTF_8")) == NULL)
      return XMT_ERR_NOMEM;
  }
  *sb = a->stemmer[side];
  return XMT_OK;
}

/* Points *w, *len at the Snowball stem of lowercased word w. */
static xmt_status stem(struct sb_stemmer *sb, const char **w, size_t *len) {
  if (*len > STEM_MAX) /* not a word of the language: kept whole */
    return XMT_OK;
  const sb_symbol *r = sb_stemmer_stem(sb, (const sb_symbol *)*w, (int)*len);
  if (r == NULL)
    return XMT_ERR_NOMEM;
  *w = (const char *)r;
  *len = (size_t)sb_stemmer_length(sb);
  return XMT_OK;
}

/* The ids of the tokens of text into a->words[side] (interned when add,
 * else looked up). */
static xmt_status words_of(xmt_aligner *a, int side, const char *text,
                           size_t len, const xmt_tokens *tokens, int add,
                           size_t *count) {
  size_t n = xmt_tokens_count(tokens);
  const struct xmt_token *tok = xmt_tokens_array(tokens);
  if (n > UINT32_MAX / 2)
    return xmt_error_set(&a->err, XMT_ERR_USAGE,
                         "too many tokens in a sentence");
  if (a->words_cap[side] < n) {
    uint32_t *w =
        xmt_grow_array(a->words[side], &a->words_cap[side], n, sizeof *w);
    if (w == NULL)
      return xmt_error_nomem(&a->err);
    a->words[side] = w;
  }
  struct sb_stemmer *sb;
  if (stemmer_of(a, side, &sb) != XMT_OK)
    return xmt_error_nomem(&a->err);
  for (size_t i = 0; i < n; i++) {
    if (tok[i].start > tok[i].end || tok[i].end > len || text == NULL)
      return xmt_error_set(&a->err, XMT_ERR_USAGE,
                           "%s token %zu is outside the text",
                           side == XMT_SRC ? "source" : "target", i);
    const char *w = text + tok[i].start;
    size_t wlen = tok[i].end - tok[i].start;
    if (xmt_utf8_valid_prefix(w, wlen) != wlen)
      return xmt_error_set(&a->err, XMT_ERR_ENCODING,
                           "%s token %zu is not valid UTF-8",
                           side == XMT_SRC ? "source" : "target", i);
    xmt_status st =
        a->opt.lowercase || sb != NULL ? lowercase(a, &w, &wlen) : XMT_OK;
    if (st == XMT_OK && sb != NULL)
      st = stem(sb, &w, &wlen);
    if (st == XMT_OK && add)
      st = xmt_vocab_intern(&a->vocab[side], w, wlen, &a->words[side][i]);
    else if (st == XMT_OK)
      a->words[side][i] = xmt_vocab_find(&a->vocab[side], w, wlen);
    if (st != XMT_OK)
      return xmt_error_set(&a->err, st, "cannot read %s token %zu: %s",
                           side == XMT_SRC ? "source" : "target", i,
                           xmt_strerror(st));
  }
  *count = n;
  return XMT_OK;
}

/* Appends a->words[side][from .. from + n) to the pairs' ids. */
static xmt_status append_ids(xmt_aligner *a, int side, size_t from, size_t n) {
  if (n == 0)
    return XMT_OK;
  if (a->ids_cap[side] - a->nids[side] < n) {
    size_t cap = (size_t)a->ids_cap[side];
    uint32_t *ids = xmt_grow_array(a->ids[side], &cap,
                                   (size_t)a->nids[side] + n, sizeof *ids);
    if (ids == NULL)
      return XMT_ERR_NOMEM;
    a->ids[side] = ids;
    a->ids_cap[side] = cap;
  }
  memcpy(a->ids[side] + a->nids[side], a->words[side] + from,
         n * sizeof(uint32_t));
  a->nids[side] += n;
  return XMT_OK;
}

/* Where the pair of n source and m target words of a->words is cut into
 * pieces: a->cuts[side][0..k]; returns k (0 when out of memory). */
static size_t cut_pair(xmt_aligner *a, const char *src,
                       const xmt_tokens *src_tokens, const char *tgt,
                       const xmt_tokens *tgt_tokens) {
  size_t k = xmt_pieces_count(xmt_tokens_count(src_tokens),
                              xmt_tokens_count(tgt_tokens));
  if (a->cuts_cap < k + 1) {
    size_t cap[2] = {a->cuts_cap, a->cuts_cap}; /* both sides grow alike */
    for (int s = 0; s < 2; s++) {
      size_t *c = xmt_grow_array(a->cuts[s], &cap[s], k + 1, sizeof *c);
      if (c == NULL)
        return 0;
      a->cuts[s] = c;
    }
    a->cuts_cap = cap[0];
  }
  xmt_pieces_cut(src, src_tokens, k, a->cuts[XMT_SRC]);
  xmt_pieces_cut(tgt, tgt_tokens, k, a->cuts[XMT_TGT]);
  return k;
}

/* Room for k more pairs and one more pair added. */
static xmt_status grow_pairs(xmt_aligner *a, size_t k) {
  if (a->pairs + k >= a->pairs_cap) {
    size_t cap[2] = {a->pairs_cap, a->pairs_cap}; /* both sides grow alike */
    for (int s = 0; s < 2; s++) {
      uint64_t *p =
          xmt_grow_array(a->start[s], &cap[s], a->pairs + k + 1, sizeof *p);
      if (p == NULL)
        return XMT_ERR_NOMEM;
      a->start[s] = p;
    }
    a->pairs_cap = cap[0];
  }
  if (a->units + 1 >= a->units_cap) {
    size_t *u =
        xmt_grow_array(a->unit_first, &a->units_cap, a->units + 2, sizeof *u);
    if (u == NULL)
      return XMT_ERR_NOMEM;
    a->unit_first = u;
  }
  return XMT_OK;
}

xmt_status xmt_aligner_add(xmt_aligner *a, const char *src, size_t src_len,
                           const xmt_tokens *src_tokens, const char *tgt,
                           size_t tgt_len, const xmt_tokens *tgt_tokens) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  if (src_tokens == NULL || tgt_tokens == NULL)
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "no tokens given");
  size_t n[2];
  xmt_status st = words_of(a, XMT_SRC, src, src_len, src_tokens, 1, &n[0]);
  if (st == XMT_OK)
    st = words_of(a, XMT_TGT, tgt, tgt_len, tgt_tokens, 1, &n[1]);
  if (st != XMT_OK)
    return st;
  size_t k = cut_pair(a, src, src_tokens, tgt, tgt_tokens);
  if (k == 0 || grow_pairs(a, k) != XMT_OK)
    return xmt_error_nomem(&a->err);
  size_t pairs = a->pairs;
  uint64_t nids[2] = {a->nids[0], a->nids[1]};
  for (size_t p = 0; p < k; p++) {
    for (int s = 0; s < 2; s++) {
      size_t from = a->cuts[s][p], len = a->cuts[s][p + 1] - from;
      if (append_ids(a, s, from, len) != XMT_OK) {
        a->pairs = pairs; /* as it was */
        a->nids[0] = nids[0];
        a->nids[1] = nids[1];
        return xmt_error_nomem(&a->err);
      }
    }
    a->pairs++;
    a->start[0][a->pairs] = a->nids[0];
    a->start[1][a->pairs] = a->nids[1];
  }
  /* the sampled links cover the pairs trained on; later ones are aligned
   * with the model's tables, and so are those for consistency */
  for (int d = 0; d < 2; d++) {
    free(a->pair_links[d]);
    a->pair_links[d] = NULL;
  }
  a->unit_first[++a->units] = a->pairs;
  return XMT_OK;
}

/* Both directions' Viterbi alignments, combined as sym asks. */
static xmt_status align_ids(xmt_aligner *a, const uint32_t *s, size_t n,
                            const uint32_t *t, size_t m,
                            enum xmt_symmetrization sym, xmt_alignment *out) {
  xmt_alignment_clear(out);
  if (n == 0 || m == 0)
    return XMT_OK;
  xmt_status st =
      xmt_scratch_reserve(&a->scratch, n > m ? n : m, n > m ? n : m);
  if (st != XMT_OK)
    return xmt_error_set(&a->err, st, "out of memory");
  if (sym == XMT_SYM_FORWARD)
    return xmt_aligner_viterbi(a, XMT_FWD, &a->scratch, s, n, t, m, out);
  if (sym == XMT_SYM_REVERSE)
    return xmt_aligner_viterbi(a, XMT_REV, &a->scratch, t, m, s, n, out);
  xmt_alignment_clear(a->half[0]);
  xmt_alignment_clear(a->half[1]);
  st = xmt_aligner_viterbi(a, XMT_FWD, &a->scratch, s, n, t, m, a->half[0]);
  if (st == XMT_OK)
    st = xmt_aligner_viterbi(a, XMT_REV, &a->scratch, t, m, s, n, a->half[1]);
  if (st == XMT_OK)
    st = xmt_symmetrize(out, a->half[0], a->half[1], n, m, sym);
  if (st == XMT_OK)
    st = xmt_priors_refine(out, &a->prior, s, n, t, m);
  if (st != XMT_OK)
    return xmt_error_set(&a->err, st, "cannot align: %s", xmt_strerror(st));
  return XMT_OK;
}

/* Pair index's links from the Bayesian model's samples (n source and m
 * target words), combined as sym asks. */
static xmt_status sampled_links(xmt_aligner *a, size_t index, size_t n,
                                size_t m, enum xmt_symmetrization sym,
                                xmt_alignment *out) {
  const uint32_t *fwd = a->pair_links[XMT_FWD] + a->start[XMT_TGT][index];
  const uint32_t *rev = a->pair_links[XMT_REV] + a->start[XMT_SRC][index];
  xmt_alignment *h[2] = {a->half[0], a->half[1]};
  if (sym == XMT_SYM_FORWARD || sym == XMT_SYM_REVERSE)
    h[sym == XMT_SYM_FORWARD ? 0 : 1] = out;
  xmt_alignment_clear(out);
  xmt_alignment_clear(h[0]);
  xmt_alignment_clear(h[1]);
  xmt_status st = XMT_OK;
  for (size_t j = 0; j < m && st == XMT_OK; j++)
    if (fwd[j] != 0 && fwd[j] <= n)
      st = xmt_alignment_add(h[0], fwd[j] - 1, j);
  for (size_t i = 0; i < n && st == XMT_OK; i++)
    if (rev[i] != 0 && rev[i] <= m)
      st = xmt_alignment_add(h[1], i, rev[i] - 1);
  if (st == XMT_OK && sym != XMT_SYM_FORWARD && sym != XMT_SYM_REVERSE) {
    st = xmt_symmetrize(out, h[0], h[1], n, m, sym);
    if (st == XMT_OK)
      st = xmt_priors_refine(out, &a->prior,
                             a->ids[XMT_SRC] + a->start[XMT_SRC][index], n,
                             a->ids[XMT_TGT] + a->start[XMT_TGT][index], m);
  }
  if (st != XMT_OK)
    return xmt_error_set(&a->err, st, "cannot align: %s", xmt_strerror(st));
  return XMT_OK;
}

/* Appends a->piece's links to out, moved by s0 source and t0 target
 * positions. */
static xmt_status shift_links(xmt_aligner *a, xmt_alignment *out, size_t s0,
                              size_t t0) {
  const struct xmt_link *l = xmt_alignment_links(a->piece);
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < xmt_alignment_count(a->piece) && st == XMT_OK; i++)
    st = xmt_alignment_add(out, l[i].source + s0, l[i].target + t0);
  return st != XMT_OK ? xmt_error_set(&a->err, st, "out of memory") : XMT_OK;
}

static xmt_status align_piece(xmt_aligner *a, size_t index,
                              enum xmt_symmetrization sym, xmt_alignment *out);

/* What both align calls ask first (the aligner's error record cleared). */
static xmt_status check_align(xmt_aligner *a, enum xmt_symmetrization sym,
                              xmt_alignment *out, int empty_ok) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  if (out == NULL || (unsigned)sym > XMT_SYM_INTERSECT_FIRST)
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "bad arguments");
  if (!a->trained && !(empty_ok && a->empty_model))
    return xmt_error_set(&a->err, XMT_ERR_USAGE,
                         "the aligner has no model: train or load one first");
  return XMT_OK;
}

xmt_status xmt_aligner_align(xmt_aligner *a, const char *src, size_t src_len,
                             const xmt_tokens *src_tokens, const char *tgt,
                             size_t tgt_len, const xmt_tokens *tgt_tokens,
                             enum xmt_symmetrization sym, xmt_alignment *out) {
  xmt_status st = check_align(a, sym, out, 1);
  if (st != XMT_OK)
    return st;
  if (src_tokens == NULL || tgt_tokens == NULL)
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "no tokens given");
  if (!a->trained) { /* an empty model knows no word */
    xmt_alignment_clear(out);
    return XMT_OK;
  }
  size_t n = 0, m = 0;
  st = words_of(a, XMT_SRC, src, src_len, src_tokens, 0, &n);
  if (st == XMT_OK)
    st = words_of(a, XMT_TGT, tgt, tgt_len, tgt_tokens, 0, &m);
  if (st != XMT_OK)
    return st;
  size_t k = cut_pair(a, src, src_tokens, tgt, tgt_tokens);
  if (k == 0)
    return xmt_error_nomem(&a->err);
  if (k == 1)
    return align_ids(a, a->words[XMT_SRC], n, a->words[XMT_TGT], m, sym, out);
  xmt_alignment_clear(out);
  for (size_t p = 0; p < k && st == XMT_OK; p++) {
    size_t s0 = a->cuts[XMT_SRC][p], t0 = a->cuts[XMT_TGT][p];
    st = align_ids(a, a->words[XMT_SRC] + s0, a->cuts[XMT_SRC][p + 1] - s0,
                   a->words[XMT_TGT] + t0, a->cuts[XMT_TGT][p + 1] - t0, sym,
                   a->piece);
    if (st == XMT_OK)
      st = shift_links(a, out, s0, t0);
  }
  return st;
}

xmt_status xmt_aligner_align_pair(xmt_aligner *a, size_t index,
                                  enum xmt_symmetrization sym,
                                  xmt_alignment *out) {
  xmt_status st = check_align(a, sym, out, 0);
  if (st != XMT_OK)
    return st;
  if (index >= a->units)
    return xmt_error_set(&a->err, XMT_ERR_USAGE,
                         "pair %zu out of range (%zu pairs)", index, a->units);
  size_t first = a->unit_first[index], last = a->unit_first[index + 1];
  if (last - first == 1)
    return align_piece(a, first, sym, out);
  xmt_alignment_clear(out);
  for (size_t p = first; p < last && st == XMT_OK; p++) {
    st = align_piece(a, p, sym, a->piece);
    if (st == XMT_OK)
      st = shift_links(
          a, out, (size_t)(a->start[XMT_SRC][p] - a->start[XMT_SRC][first]),
          (size_t)(a->start[XMT_TGT][p] - a->start[XMT_TGT][first]));
  }
  return st;
}

/* The links of pair (or piece) index. */
static xmt_status align_piece(xmt_aligner *a, size_t index,
                              enum xmt_symmetrization sym, xmt_alignment *out) {
  size_t n = (size_t)(a->start[XMT_SRC][index + 1] - a->start[XMT_SRC][index]);
  size_t m = (size_t)(a->start[XMT_TGT][index + 1] - a->start[XMT_TGT][index]);
  if (n == 0 || m == 0) {
    xmt_alignment_clear(out);
    return XMT_OK;
  }
  if (a->pair_links[XMT_FWD] != NULL)
    return sampled_links(a, index, n, m, sym, out);
  const uint32_t *s = a->ids[XMT_SRC] + a->start[XMT_SRC][index];
  const uint32_t *t = a->ids[XMT_TGT] + a->start[XMT_TGT][index];
  return align_ids(a, s, n, t, m, sym, out);
}
