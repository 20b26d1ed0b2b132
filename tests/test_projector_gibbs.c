/* test_projector_gibbs.c -- the Gibbs-sampling aligner on tiny corpora
 * whose alignment is known, priors, determinism, progress and abort. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aligner_private.h"
#include "harness.h"

/* Adds "src ||| tgt" (either side may be empty) with whitespace tokens. */
static void add_pair(xmt_aligner *a, const char *line) {
  const char *sep = strstr(line, "|||");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sep);
  size_t slen = (size_t)(sep - line);
  const char *tgt = sep + 3;
  xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_EQUAL_FATAL(xmt_tokenize(s, line, slen, XMT_TOKENIZE_WHITESPACE),
                        XMT_OK);
  CU_ASSERT_EQUAL_FATAL(
      xmt_tokenize(t, tgt, strlen(tgt), XMT_TOKENIZE_WHITESPACE), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_add(a, line, slen, s, tgt, strlen(tgt), t),
                        XMT_OK);
  xmt_tokens_free(s);
  xmt_tokens_free(t);
}

static xmt_aligner *corpus(const char *const *lines, size_t n) {
  xmt_aligner *a = xmt_aligner_new(NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  for (size_t k = 0; k < n; k++)
    add_pair(a, lines[k]);
  return a;
}

/* A synthetic corpus of `pairs` pairs: each target word the translation
 * of a source word, with some swaps, drops and inserted words. */
static xmt_aligner *synthetic(size_t pairs, uint64_t seed) {
  xmt_aligner *a = xmt_aligner_new(NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  uint64_t x = seed;
  char line[1024];
  for (size_t p = 0; p < pairs; p++) {
    unsigned w[16];
    size_t at = 0, n = 3 + (x >> 33) % 10;
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      w[i] = (unsigned)((x >> 33) % 200) * (unsigned)((x >> 20) % 3 + 1) / 3;
      at += (size_t)snprintf(line + at, sizeof line - at, "w%u ", w[i]);
    }
    at += (size_t)snprintf(line + at, sizeof line - at, "|||");
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      if (i + 1 < n && (x >> 50) % 5 == 0) { /* swapped with the next */
        unsigned tmp = w[i];
        w[i] = w[i + 1];
        w[i + 1] = tmp;
      }
      if ((x >> 40) % 10 == 0)
        continue; /* dropped */
      at += (size_t)snprintf(line + at, sizeof line - at, " t%u",
                             w[i] * 7u % 211u);
      if ((x >> 45) % 12 == 0) /* inserted */
        at += (size_t)snprintf(line + at, sizeof line - at, " f%u",
                               (unsigned)(x >> 55) % 5);
    }
    add_pair(a, line);
  }
  return a;
}

static size_t predicted(const xmt_aligner *a, int d) {
  return (size_t)a->nids[d == XMT_FWD ? XMT_TGT : XMT_SRC];
}

/* Runs direction d into a fresh links array (filled with a marker first,
 * so that untouched entries show) and table. */
static xmt_status run(const xmt_aligner *a, int d,
                      const struct xmt_prior_table *prior,
                      const struct xmt_gibbs_options *o, uint32_t **links,
                      struct xmt_ttable *t) {
  size_t n = predicted(a, d);
  *links = malloc((n ? n : 1) * sizeof **links);
  CU_ASSERT_PTR_NOT_NULL_FATAL(*links);
  for (size_t k = 0; k < n; k++)
    (*links)[k] = 77;
  CU_ASSERT_EQUAL_FATAL(xmt_ttable_build(a, d, t), XMT_OK);
  return xmt_gibbs_align(a, d, prior, o, *links, t, NULL, NULL);
}

/* The links of pair p's predicted tokens, e.g. "1 2 0". */
static const char *pair_links(const xmt_aligner *a, int d,
                              const uint32_t *links, size_t p) {
  static char buf[4][256];
  static int turn;
  char *out = buf[turn++ % 4];
  int fs = d == XMT_FWD ? XMT_TGT : XMT_SRC;
  size_t at = 0;
  out[0] = '\0';
  for (uint64_t k = a->start[fs][p]; k < a->start[fs][p + 1]; k++)
    at += (size_t)snprintf(out + at, 256 - at, "%s%u", at ? " " : "", links[k]);
  return out;
}

/* The links of pairs first .. first + n - 1 are want[]. */
static void expect_block(const xmt_aligner *a, int d, const uint32_t *links,
                         size_t first, const char *const *want, size_t n) {
  for (size_t p = 0; p < n; p++) {
    const char *got = pair_links(a, d, links, first + p);
    if (strcmp(got, want[p]) != 0)
      fprintf(stderr, "\n%s pair %zu: got \"%s\", want \"%s\"\n",
              d == XMT_FWD ? "forward" : "reverse", first + p, got, want[p]);
    CU_ASSERT_STRING_EQUAL(got, want[p]);
  }
}

static void options(struct xmt_gibbs_options *o, unsigned threads) {
  xmt_gibbs_options_init(o);
  o->threads = threads;
  o->iterations[0] = 20;
  o->iterations[1] = 20;
  o->iterations[2] = 40;
}

/* --- Exact links ------------------------------------------------------------
 * Each word appears in several contexts, so there is one right answer;
 * pairs with an empty side give their tokens 0. */
static const char *const words[] = {
    "the house ||| das haus",
    "the book ||| das buch",
    "a book ||| ein buch",
    "a house ||| ein haus",
    "the car ||| das auto",
    "a car ||| ein auto",
    "the old house ||| das alte haus",
    "the old car ||| das alte auto",
    "a old book ||| ein alte buch",
    "||| das",
    "the |||",
};
static void test_exact_links(void) {
  static const char *const fwd[] = {"1 2",   "1 2", "1 2",   "1 2",
                                    "1 2",   "1 2", "1 2 3", "1 2 3",
                                    "1 2 3", "0",   ""};
  static const char *const rev[] = {"1 2",   "1 2", "1 2",   "1 2",
                                    "1 2",   "1 2", "1 2 3", "1 2 3",
                                    "1 2 3", "",    "0"};
  xmt_aligner *a = corpus(words, 11);
  struct xmt_gibbs_options o;
  options(&o, 1);
  for (int d = 0; d < 2; d++) {
    uint32_t *links;
    struct xmt_ttable t;
    CU_ASSERT_EQUAL(run(a, d, NULL, &o, &links, &t), XMT_OK);
    expect_block(a, d, links, 0, d == XMT_FWD ? fwd : rev, 11);
    free(links);
    xmt_ttable_free(&t);
  }
  xmt_aligner_free(a);
}

/* Every row of the table is a distribution over its entries, and the
 * table aligns unseen sentences through the IBM2 Viterbi. */
static void test_table(void) {
  xmt_aligner *a = corpus(words, 11);
  struct xmt_gibbs_options o;
  options(&o, 1);
  uint32_t *links;
  struct xmt_ttable t;
  CU_ASSERT_EQUAL_FATAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_OK);
  for (uint32_t e = 0; e < t.rows; e++) {
    double sum = 0;
    for (uint64_t k = t.row_start[e]; k < t.row_start[e + 1]; k++) {
      CU_ASSERT(t.prob[k] > 0 && t.prob[k] <= 1);
      sum += t.prob[k];
    }
    if (t.row_start[e + 1] > t.row_start[e])
      CU_ASSERT_DOUBLE_EQUAL(sum, 1.0, 1e-9);
  }
  /* p(haus | house) dominates its row. */
  uint32_t house = xmt_vocab_find(&a->vocab[XMT_SRC], "house", 5);
  uint32_t haus = xmt_vocab_find(&a->vocab[XMT_TGT], "haus", 4);
  uint64_t k = xmt_ttable_find(&t, house, haus);
  CU_ASSERT_FATAL(k != XMT_NO_ENTRY);
  CU_ASSERT(t.prob[k] > 0.9);
  /* "the car" / "auto das": a new pair, crossed. */
  uint32_t e[2] = {xmt_vocab_find(&a->vocab[XMT_SRC], "the", 3),
                   xmt_vocab_find(&a->vocab[XMT_SRC], "car", 3)};
  uint32_t f[2] = {xmt_vocab_find(&a->vocab[XMT_TGT], "auto", 4),
                   xmt_vocab_find(&a->vocab[XMT_TGT], "das", 3)};
  struct xmt_ttable saved = a->dir[XMT_FWD].t;
  a->dir[XMT_FWD].t = t;
  struct xmt_align_scratch s;
  memset(&s, 0, sizeof s);
  xmt_alignment *out = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(xmt_aligner_viterbi(a, XMT_FWD, &s, e, 2, f, 2, out), XMT_OK);
  const struct xmt_link *l = xmt_alignment_links(out);
  CU_ASSERT_EQUAL_FATAL(xmt_alignment_count(out), 2);
  CU_ASSERT(l[0].source == 1 && l[0].target == 0);
  CU_ASSERT(l[1].source == 0 && l[1].target == 1);
  a->dir[XMT_FWD].t = saved;
  xmt_alignment_free(out);
  xmt_scratch_free(&s);
  free(links);
  xmt_ttable_free(&t);
  xmt_aligner_free(a);
}

/* --- Jumps ------------------------------------------------------------------
 * A synthetic corpus and a block whose words always come together: word
 * for word the block says nothing (IBM1's likelihood is the same for every
 * permutation of its links); the jumps the corpus teaches make its links
 * monotone. */
static void test_hmm_monotone(void) {
  static const char *const want[] = {"1 2 3", "1 2 3", "1 2 3"};
  xmt_aligner *a = synthetic(300, 11);
  for (size_t k = 0; k < 3; k++)
    add_pair(a, "u v w ||| k l m");
  struct xmt_gibbs_options o;
  options(&o, 1);
  for (int d = 0; d < 2; d++) {
    uint32_t *links;
    struct xmt_ttable t;
    CU_ASSERT_EQUAL(run(a, d, NULL, &o, &links, &t), XMT_OK);
    expect_block(a, d, links, 300, want, 3);
    free(links);
    xmt_ttable_free(&t);
  }
  xmt_aligner_free(a);
}

/* --- Priors ------------------------------------------------------------- */

static void prior_add(struct xmt_prior_table *p, const xmt_aligner *a,
                      const char *s, const char *t, float w) {
  if (p->count == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 4;
    p->src = realloc(p->src, p->cap * sizeof *p->src);
    p->tgt = realloc(p->tgt, p->cap * sizeof *p->tgt);
    p->w = realloc(p->w, p->cap * sizeof *p->w);
    CU_ASSERT_FATAL(p->src && p->tgt && p->w);
  }
  p->src[p->count] = xmt_vocab_find(&a->vocab[XMT_SRC], s, strlen(s));
  p->tgt[p->count] = xmt_vocab_find(&a->vocab[XMT_TGT], t, strlen(t));
  p->w[p->count++] = w;
}

/* Two words that always come together: monotone by the jumps, crossed
 * when the prior says the words translate crosswise. The synthetic corpus
 * teaches jumps with some crossings, as a real one would: when crossings
 * are very rare, leaving a word to NULL is more likely than two unusual
 * jumps. */
static void test_prior(void) {
  static const char *const plain[] = {"1 2", "1 2", "1 2"};
  static const char *const crossed[] = {"2 1", "2 1", "2 1"};
  xmt_aligner *a = synthetic(300, 11);
  for (size_t k = 0; k < 3; k++)
    add_pair(a, "x y ||| p q");
  struct xmt_prior_table prior = {NULL, NULL, NULL, 0, 0, 0};
  prior_add(&prior, a, "x", "q", 100); /* sorted by (src, tgt) */
  prior_add(&prior, a, "y", "p", 100);
  struct xmt_gibbs_options o;
  options(&o, 1);
  for (int d = 0; d < 2; d++)
    for (int with = 0; with < 2; with++) {
      uint32_t *links;
      struct xmt_ttable t;
      CU_ASSERT_EQUAL(run(a, d, with ? &prior : NULL, &o, &links, &t), XMT_OK);
      expect_block(a, d, links, 300, with ? crossed : plain, 3);
      free(links);
      xmt_ttable_free(&t);
    }
  /* prior_scale 0 turns it off. */
  o.prior_scale = 0;
  uint32_t *links;
  struct xmt_ttable t;
  CU_ASSERT_EQUAL(run(a, XMT_FWD, &prior, &o, &links, &t), XMT_OK);
  expect_block(a, XMT_FWD, links, 300, plain, 3);
  free(links);
  xmt_ttable_free(&t);
  free(prior.src);
  free(prior.tgt);
  free(prior.w);
  xmt_aligner_free(a);
}

/* --- Determinism ---------------------------------------------------------- */

static void test_threads_agree(void) {
  xmt_aligner *a = synthetic(300, 7);
  uint32_t *links[3];
  struct xmt_ttable t[3];
  for (unsigned k = 0; k < 3; k++) {
    struct xmt_gibbs_options o;
    xmt_gibbs_options_init(&o);
    o.threads = k + 1;
    o.samplers = 4;
    o.iterations[0] = o.iterations[1] = 3;
    o.iterations[2] = 6;
    CU_ASSERT_EQUAL_FATAL(run(a, XMT_REV, NULL, &o, &links[k], &t[k]), XMT_OK);
  }
  size_t n = predicted(a, XMT_REV);
  for (unsigned k = 1; k < 3; k++) {
    CU_ASSERT(memcmp(links[0], links[k], n * sizeof *links[0]) == 0);
    CU_ASSERT(memcmp(t[0].prob, t[k].prob, t[0].nnz * sizeof *t[0].prob) == 0);
  }
  /* Most links are right: the translation of w<i> is t<7i mod 211>. */
  size_t right = 0, total = 0;
  for (size_t p = 0; p < a->pairs; p++)
    for (uint64_t j = a->start[XMT_SRC][p]; j < a->start[XMT_SRC][p + 1]; j++) {
      uint32_t i = links[0][j];
      size_t len;
      const char *e =
          xmt_vocab_word(&a->vocab[XMT_SRC], a->ids[XMT_SRC][j], &len);
      total++;
      if (i == 0)
        continue;
      uint32_t fid = a->ids[XMT_TGT][a->start[XMT_TGT][p] + i - 1];
      const char *f = xmt_vocab_word(&a->vocab[XMT_TGT], fid, &len);
      right += f[0] == 't' &&
               (unsigned)atoi(e + 1) * 7u % 211u == (unsigned)atoi(f + 1);
    }
  CU_ASSERT(right > total * 8 / 10);
  for (unsigned k = 0; k < 3; k++) {
    free(links[k]);
    xmt_ttable_free(&t[k]);
  }
  xmt_aligner_free(a);
}

/* --- Progress and abort ------------------------------------------------- */

struct watch {
  pthread_t caller;
  unsigned calls, stop_at, last_iteration, iterations;
  size_t last_done;
  int wrong_thread, out_of_range;
};

static int watch_progress(void *user, unsigned iteration, unsigned iterations,
                          size_t pairs_done, size_t pairs) {
  struct watch *w = user;
  w->calls++;
  if (!pthread_equal(pthread_self(), w->caller))
    w->wrong_thread = 1;
  if (iteration < 1 || iteration > iterations || pairs_done > pairs)
    w->out_of_range = 1;
  w->last_iteration = iteration;
  w->iterations = iterations;
  w->last_done = pairs_done;
  return w->stop_at != 0 && w->calls >= w->stop_at;
}

static void test_progress(void) {
  xmt_aligner *a = corpus(words, 11);
  struct xmt_gibbs_options o;
  options(&o, 2);
  struct watch w;
  memset(&w, 0, sizeof w);
  w.caller = pthread_self();
  uint32_t *links = malloc(predicted(a, XMT_FWD) * sizeof *links);
  struct xmt_ttable t;
  CU_ASSERT_PTR_NOT_NULL_FATAL(links);
  CU_ASSERT_EQUAL_FATAL(xmt_ttable_build(a, XMT_FWD, &t), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_gibbs_align(a, XMT_FWD, NULL, &o, links, &t, watch_progress, &w),
      XMT_OK);
  /* At least the final call: every sweep of every sampler done. */
  CU_ASSERT(w.calls >= 1);
  CU_ASSERT_EQUAL(w.iterations, o.samplers * 80);
  CU_ASSERT_EQUAL(w.last_iteration, w.iterations);
  CU_ASSERT_EQUAL(w.last_done, a->pairs);
  CU_ASSERT(!w.wrong_thread && !w.out_of_range);
  /* Asked to stop at the end, it stops. */
  w.stop_at = w.calls;
  w.calls = 0;
  CU_ASSERT_EQUAL(
      xmt_gibbs_align(a, XMT_FWD, NULL, &o, links, &t, watch_progress, &w),
      XMT_ERR_ABORTED);
  free(links);
  xmt_ttable_free(&t);
  xmt_aligner_free(a);
}

/* A long run stopped at the first report, on 1 and 2 threads; nothing
 * leaks (the sanitizer build checks). */
static void test_abort(void) {
  xmt_aligner *a = synthetic(500, 3);
  for (unsigned threads = 1; threads <= 2; threads++) {
    struct xmt_gibbs_options o;
    xmt_gibbs_options_init(&o);
    o.threads = threads;
    o.iterations[0] = o.iterations[1] = o.iterations[2] = 5000;
    struct watch w;
    memset(&w, 0, sizeof w);
    w.caller = pthread_self();
    w.stop_at = 1;
    uint32_t *links = malloc(predicted(a, XMT_FWD) * sizeof *links);
    struct xmt_ttable t;
    CU_ASSERT_PTR_NOT_NULL_FATAL(links);
    CU_ASSERT_EQUAL_FATAL(xmt_ttable_build(a, XMT_FWD, &t), XMT_OK);
    CU_ASSERT_EQUAL(
        xmt_gibbs_align(a, XMT_FWD, NULL, &o, links, &t, watch_progress, &w),
        XMT_ERR_ABORTED);
    CU_ASSERT_EQUAL(w.calls, 1);
    CU_ASSERT(!w.wrong_thread && !w.out_of_range);
    CU_ASSERT(w.last_iteration < w.iterations);
    free(links);
    xmt_ttable_free(&t);
  }
  xmt_aligner_free(a);
}

/* --- The NULL word -----------------------------------------------------------
 * The target's article "le" has no source word: the NULL word should
 * produce it. With a flat NULL row (null_alpha spreads NULL's mass over
 * the whole vocabulary) the rare "path" takes "le" instead, and NULL
 * takes "chemin"; with the row's mass bounded, NULL learns that it
 * produces "le" and "path" gets "chemin". A bound above null_alpha times
 * the vocabulary changes nothing. */
static const char *const articles[] = {
    "read file ||| lire le fichier",    "read name ||| lire le nom",
    "write file ||| écrire le fichier", "write name ||| écrire le nom",
    "copy file ||| copier le fichier",  "copy name ||| copier le nom",
    "read path ||| lire le chemin",     "write path ||| écrire le chemin",
    "gophertype ||| le gopher_type",
};
static void test_null_word(void) {
  static const char *const learned[] = {"1 0 2", "1 0 2", "1 0 2",
                                        "1 0 2", "1 0 2", "1 0 2",
                                        "1 0 2", "1 0 2", "0 1"};
  static const char *const flat[] = {"1 0 2", "1 0 2", "1 0 2",
                                     "1 0 2", "1 0 2", "1 0 2",
                                     "1 2 0", "1 2 0", "0 1"};
  /* 8 target words: 0.08 makes 0.01 a word; 80 is null_alpha's own */
  static const double mass[] = {0.08, 0, 80};
  xmt_aligner *a = corpus(articles, 9);
  for (int k = 0; k < 3; k++) {
    struct xmt_gibbs_options o;
    xmt_gibbs_options_init(&o); /* the default sweeps */
    o.threads = 1;
    o.null_alpha = 10;
    o.null_mass = mass[k];
    uint32_t *links;
    struct xmt_ttable t;
    CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_OK);
    expect_block(a, XMT_FWD, links, 0, k == 0 ? learned : flat, 9);
    free(links);
    xmt_ttable_free(&t);
  }
  struct xmt_gibbs_options o;
  xmt_gibbs_options_init(&o);
  CU_ASSERT_DOUBLE_EQUAL(o.null_mass, 300, 1e-12);
  xmt_aligner_free(a);
}

/* --- Misuse -----------------------------------------------------------------
 */

static void test_misuse(void) {
  static const char *const empty[] = {"a |||", "||| b"};
  xmt_aligner *a = corpus(words, 11);
  struct xmt_gibbs_options o;
  uint32_t *links;
  struct xmt_ttable t;
  options(&o, 1);
  o.samplers = 0;
  CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
  free(links);
  xmt_ttable_free(&t);
  options(&o, 1);
  o.iterations[0] = o.iterations[1] = o.iterations[2] = 0;
  CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
  free(links);
  xmt_ttable_free(&t);
  options(&o, 1);
  o.lex_alpha = 0;
  CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
  free(links);
  xmt_ttable_free(&t);
  options(&o, 1);
  o.null_mass = -1;
  CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
  free(links);
  xmt_ttable_free(&t);
  for (int k = 0; k < 3; k++) {
    options(&o, 1);
    if (k < 2)
      o.null_prob = k; /* outside (0, 1) */
    else
      o.null_alpha = 0;
    CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
    free(links);
    xmt_ttable_free(&t);
  }
  xmt_aligner_free(a);
  /* No pair with words on both sides. */
  a = corpus(empty, 2);
  options(&o, 1);
  CU_ASSERT_EQUAL(run(a, XMT_FWD, NULL, &o, &links, &t), XMT_ERR_USAGE);
  free(links);
  xmt_ttable_free(&t);
  xmt_aligner_free(a);
}

static CU_TestInfo gibbs_tests[] = {
    {"exact links", test_exact_links},
    {"the table", test_table},
    {"jumps make links monotone", test_hmm_monotone},
    {"prior links", test_prior},
    {"the NULL word learns what it produces", test_null_word},
    {"1, 2 and 3 threads agree", test_threads_agree},
    {"progress", test_progress},
    {"abort", test_abort},
    {"misuse", test_misuse},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"gibbs", NULL, NULL, NULL, NULL, gibbs_tests},
    CU_SUITE_INFO_NULL,
};
