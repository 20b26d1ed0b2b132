/* test_projector_aligner.c -- the built-in word aligner: tiny corpora whose
 * correct alignment is known, save/load, bad models, CJK tokens, and the
 * same results for any number of threads. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aligner_private.h"
#include "alignment_text.h"
#include "harness.h"
#include "xmt_filter.h" /* xmt_aligner_save, xmt_aligner_load */
#include "xmt_projector.h"

/* Adds "src ||| tgt" with whitespace tokens (or the default tokenizer). */
static void add_pair(xmt_aligner *a, const char *src, const char *tgt,
                     enum xmt_tokenizer how) {
  xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_EQUAL_FATAL(xmt_tokenize(s, src, strlen(src), how), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_tokenize(t, tgt, strlen(tgt), how), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(
      xmt_aligner_add(a, src, strlen(src), s, tgt, strlen(tgt), t), XMT_OK);
  xmt_tokens_free(s);
  xmt_tokens_free(t);
}

static xmt_aligner *aligner_with(unsigned threads, int lowercase) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  o.threads = threads;
  o.lowercase = lowercase;
  o.model = XMT_MODEL_IBM2; /* these tests are of fast_align's model */
  o.string_priors = 0;
  xmt_aligner *a = xmt_aligner_new(&o);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  return a;
}

/* Pair index k aligned with sym. */
static const char *pair_links(xmt_aligner *a, size_t k,
                              enum xmt_symmetrization sym) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, k, sym, al), XMT_OK);
  const char *s = xmt_test_links(al);
  xmt_alignment_free(al);
  return s;
}

/* A sentence pair aligned with sym, without adding it. */
static const char *align_text(xmt_aligner *a, const char *src, const char *tgt,
                              enum xmt_symmetrization sym,
                              enum xmt_tokenizer how) {
  xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_tokenize(s, src, strlen(src), how), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokenize(t, tgt, strlen(tgt), how), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_aligner_align(a, src, strlen(src), s, tgt, strlen(tgt), t, sym, al),
      XMT_OK);
  const char *r = xmt_test_links(al);
  xmt_tokens_free(s);
  xmt_tokens_free(t);
  xmt_alignment_free(al);
  return r;
}

#define EXPECT_LINKS(got, want)                                                \
  do {                                                                         \
    const char *got_ = (got);                                                  \
    if (strcmp(got_, (want)) != 0)                                             \
      fprintf(stderr, "\n%s:%d: got \"%s\", want \"%s\"\n", __FILE__,          \
              __LINE__, got_, (want));                                         \
    CU_ASSERT_STRING_EQUAL(got_, (want));                                      \
  } while (0)

static const enum xmt_symmetrization all_syms[] = {XMT_SYM_FORWARD,
                                                   XMT_SYM_REVERSE,
                                                   XMT_SYM_INTERSECT,
                                                   XMT_SYM_UNION,
                                                   XMT_SYM_GROW_DIAG,
                                                   XMT_SYM_GROW_DIAG_FINAL,
                                                   XMT_SYM_GROW_DIAG_FINAL_AND};

/* Identical sentences: every word goes to itself, in every heuristic. */
static void test_identical(void) {
  static const char *const corpus[] = {
      "the cat sleeps",    "a dog barks loudly", "the dog sleeps",
      "a cat barks",       "the old cat sleeps", "a dog sleeps loudly",
      "the old dog barks", "a cat sleeps"};
  xmt_aligner *a = aligner_with(1, 0);
  for (size_t k = 0; k < 8; k++)
    add_pair(a, corpus[k], corpus[k], XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL(xmt_aligner_pair_count(a), 8);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  for (size_t s = 0; s < 7; s++) {
    EXPECT_LINKS(pair_links(a, 0, all_syms[s]), "0-0 1-1 2-2");
    EXPECT_LINKS(pair_links(a, 1, all_syms[s]), "0-0 1-1 2-2 3-3");
    EXPECT_LINKS(pair_links(a, 6, all_syms[s]), "0-0 1-1 2-2 3-3");
  }
  xmt_aligner_free(a);
}

/* Adjectives after the noun in the target, as in French: the single-word
 * pairs pin the words down, the two-word pairs then cross the diagonal. */
static const char *const adj_src[] = {
    "red house", "house", "red",    "big house",  "red car", "car",
    "big car",   "big",   "summer", "red summer", "old car", "old"};
static const char *const adj_tgt[] = {"maison rouge",
                                      "maison",
                                      "rouge",
                                      "grande maison",
                                      "voiture rouge",
                                      "voiture",
                                      "grande voiture",
                                      "grande",
                                      "\xC3\xA9t\xC3\xA9",
                                      "\xC3\xA9t\xC3\xA9 rouge",
                                      "voiture vieille",
                                      "vieille"};
#define ADJ_PAIRS (sizeof adj_src / sizeof *adj_src)

static void add_adjectives(xmt_aligner *a) {
  for (size_t k = 0; k < ADJ_PAIRS; k++)
    add_pair(a, adj_src[k], adj_tgt[k], XMT_TOKENIZE_WHITESPACE);
}

static void test_swapped(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  /* FORWARD lists links by target word, as fast_align prints them. */
  EXPECT_LINKS(pair_links(a, 0, XMT_SYM_FORWARD), "1-0 0-1");
  for (size_t s = 1; s < 7; s++) {
    EXPECT_LINKS(pair_links(a, 0, all_syms[s]), "0-1 1-0"); /* crossed */
    EXPECT_LINKS(pair_links(a, 3, all_syms[s]), "0-0 1-1"); /* straight */
    EXPECT_LINKS(pair_links(a, 4, all_syms[s]), "0-1 1-0");
    EXPECT_LINKS(pair_links(a, 10, all_syms[s]), "0-1 1-0");
  }
  /* A new pair of known words. */
  EXPECT_LINKS(align_text(a, "old house", "maison vieille",
                          XMT_SYM_GROW_DIAG_FINAL_AND, XMT_TOKENIZE_WHITESPACE),
               "0-1 1-0");
  xmt_aligner_free(a);
}

/* A repeated word: the diagonal prior decides which "a" goes where. */
static void test_repeated(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_pair(a, "a b a", "A B A", XMT_TOKENIZE_WHITESPACE);
  add_pair(a, "a b", "A B", XMT_TOKENIZE_WHITESPACE);
  add_pair(a, "b a b", "B A B", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  for (size_t s = 0; s < 7; s++) {
    EXPECT_LINKS(pair_links(a, 0, all_syms[s]), "0-0 1-1 2-2");
    EXPECT_LINKS(pair_links(a, 2, all_syms[s]), "0-0 1-1 2-2");
  }
  xmt_aligner_free(a);
}

/* "x" has no translation: the target words go to their own source words
 * and nothing to x (forward and intersection). */
static void test_unaligned(void) {
  xmt_aligner *a = aligner_with(1, 0);
  static const char *const src[] = {"a x c", "a b",   "b c",
                                    "c a",   "a x b", "b x c"};
  static const char *const tgt[] = {"A C", "A B", "B C", "C A", "A B", "B C"};
  for (size_t k = 0; k < 6; k++)
    add_pair(a, src[k], tgt[k], XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  EXPECT_LINKS(pair_links(a, 0, XMT_SYM_FORWARD), "0-0 2-1");
  EXPECT_LINKS(pair_links(a, 0, XMT_SYM_INTERSECT), "0-0 2-1");
  EXPECT_LINKS(pair_links(a, 4, XMT_SYM_INTERSECT), "0-0 2-1");
  EXPECT_LINKS(pair_links(a, 5, XMT_SYM_FORWARD), "0-0 2-1");
  EXPECT_LINKS(pair_links(a, 3, XMT_SYM_GROW_DIAG_FINAL_AND), "0-0 1-1");
  xmt_aligner_free(a);
}

/* A pair with one side empty keeps its index and aligns to nothing; a
 * corpus of such pairs only cannot be trained. */
static void test_empty_side(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_pair(a, "a b", "", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL(xmt_aligner_train(a, NULL, NULL), XMT_ERR_USAGE);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_aligner_error(a)->message, "nothing"));
  add_pair(a, "a b", "A B", XMT_TOKENIZE_WHITESPACE);
  add_pair(a, "", "A", XMT_TOKENIZE_WHITESPACE);
  add_pair(a, "b a", "B A", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  for (size_t s = 0; s < 7; s++) {
    EXPECT_LINKS(pair_links(a, 0, all_syms[s]), "");
    EXPECT_LINKS(pair_links(a, 2, all_syms[s]), "");
    EXPECT_LINKS(pair_links(a, 1, all_syms[s]), "0-0 1-1");
  }
  EXPECT_LINKS(align_text(a, "", "A B", XMT_SYM_UNION, XMT_TOKENIZE_WHITESPACE),
               "");
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, 4, XMT_SYM_UNION, al),
                  XMT_ERR_USAGE);
  xmt_alignment_free(al);
  xmt_aligner_free(a);
}

/* Words the model never saw: the diagonal prior alone places them. */
static void test_unknown_words(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  EXPECT_LINKS(align_text(a, "p q r", "P Q R", XMT_SYM_GROW_DIAG_FINAL_AND,
                          XMT_TOKENIZE_WHITESPACE),
               "0-0 1-1 2-2");
  /* Known words keep their lexical link beside unknown ones. */
  EXPECT_LINKS(align_text(a, "q red house", "Q maison rouge", XMT_SYM_INTERSECT,
                          XMT_TOKENIZE_WHITESPACE),
               "0-0 1-2 2-1");
  xmt_aligner_free(a);
}

/* With lowercasing, "RED SUMMER" / "ÉTÉ ROUGE" are the trained words;
 * without, they are unknown and the diagonal wins. */
static void test_lowercase(void) {
  for (int lower = 0; lower < 2; lower++) {
    xmt_aligner *a = aligner_with(1, lower);
    add_adjectives(a);
    CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
    EXPECT_LINKS(align_text(a, "RED Summer", "\xC3\x89T\xC3\x89 ROUGE",
                            XMT_SYM_INTERSECT, XMT_TOKENIZE_WHITESPACE),
                 lower ? "0-1 1-0" : "0-0 1-1");
    xmt_aligner_free(a);
  }
}

/* Chinese and Japanese through ICU word boundaries, no spaces. */
static void test_cjk(void) {
  static const char zh[] = "\xE6\x88\x91\xE5\x96\x9C\xE6\xAC\xA2\xE7\x8C"
                           "\xAB\xE3\x80\x82"; /* 我喜欢猫。 */
  static const char ja[] = "\xE7\xA7\x81\xE3\x81\xAF\xE7\x8C\xAB\xE3\x81"
                           "\x8C\xE5\xA5\xBD\xE3\x81\x8D\xE3\x81\xA7\xE3"
                           "\x81\x99\xE3\x80\x82"; /* 私は猫が好きです。 */
  xmt_tokens *t = xmt_tokens_new();
  CU_ASSERT_EQUAL(xmt_tokenize(t, zh, strlen(zh), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  size_t nzh = xmt_tokens_count(t);
  CU_ASSERT(nzh >= 3); /* 我 喜欢 猫 。 */
  xmt_tokens_free(t);
  xmt_aligner *a = aligner_with(1, 0);
  add_pair(a, zh, zh, XMT_TOKENIZE_DEFAULT);
  add_pair(a, ja, ja, XMT_TOKENIZE_DEFAULT);
  add_pair(a, "I like cats.", zh, XMT_TOKENIZE_DEFAULT);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  char want[256];
  size_t at = 0;
  for (size_t i = 0; i < nzh; i++)
    at += (size_t)snprintf(want + at, sizeof want - at, "%s%zu-%zu",
                           i ? " " : "", i, i);
  EXPECT_LINKS(pair_links(a, 0, XMT_SYM_GROW_DIAG_FINAL_AND), want);
  EXPECT_LINKS(align_text(a, zh, zh, XMT_SYM_INTERSECT, XMT_TOKENIZE_DEFAULT),
               want);
  xmt_aligner_free(a);
}

/* A deterministic synthetic corpus: target words are source words
 * renamed, with local swaps and insertions, so EM has real work. */
static void synthetic(xmt_aligner *a, size_t pairs) {
  unsigned long x = 12345;
  char src[512], tgt[512];
  for (size_t k = 0; k < pairs; k++) {
    size_t n = 3 + k % 9, sl = 0, tl = 0;
    unsigned w[16];
    for (size_t i = 0; i < n; i++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      w[i] = (unsigned)((x >> 33) % 300);
    }
    for (size_t i = 0; i < n; i++) {
      sl += (size_t)snprintf(src + sl, sizeof src - sl, "%ss%u", i ? " " : "",
                             w[i]);
      size_t i2 = (i % 4 == 1 && i + 1 < n) ? i + 1 : (i % 4 == 2) ? i - 1 : i;
      tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "%sT%u", i ? " " : "",
                             w[i2]);
      if (w[i] % 7 == 0)
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, " ins");
    }
    add_pair(a, src, tgt, XMT_TOKENIZE_WHITESPACE);
  }
}

static char *all_links(xmt_aligner *a, enum xmt_symmetrization sym) {
  size_t cap = 1 << 20, at = 0;
  char *out = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  out[0] = '\0';
  for (size_t k = 0; k < xmt_aligner_pair_count(a); k++) {
    const char *l = pair_links(a, k, sym);
    size_t len = strlen(l);
    if (at + len + 2 >= cap)
      break;
    memcpy(out + at, l, len);
    at += len;
    out[at++] = '\n';
    out[at] = '\0';
  }
  return out;
}

static char *temp_path(const char *name) {
  static char buf[3][256];
  static int k;
  char *p = buf[k++ % 3];
  snprintf(p, 256, "%s/xmt-aligner-%ld-%s",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(), name);
  return p;
}

static int same_file(const char *p1, const char *p2) {
  size_t l1, l2;
  char *a = xmt_test_read_file(p1, &l1), *b = xmt_test_read_file(p2, &l2);
  int same = a != NULL && b != NULL && l1 == l2 && memcmp(a, b, l1) == 0;
  free(a);
  free(b);
  return same;
}

/* One thread or two: the same model, byte for byte, and the same links. */
static void test_threads(void) {
  xmt_aligner *a1 = aligner_with(1, 0), *a2 = aligner_with(2, 0);
  synthetic(a1, 3000);
  synthetic(a2, 3000);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a1, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a2, NULL, NULL), XMT_OK);
  char *l1 = all_links(a1, XMT_SYM_GROW_DIAG_FINAL_AND);
  char *l2 = all_links(a2, XMT_SYM_GROW_DIAG_FINAL_AND);
  CU_ASSERT_STRING_EQUAL(l1, l2);
  /* and the synthetic corpus is learnt: pair 1 is "s.. s.. s.. s.." with
   * its words 1 and 2 swapped */
  CU_ASSERT_PTR_NOT_NULL(strstr(l1, "\n0-0 1-2 2-1 3-3"));
  free(l1);
  free(l2);
  const char *m1 = temp_path("t1.model"), *m2 = temp_path("t2.model");
  CU_ASSERT_EQUAL(xmt_aligner_save(a1, m1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_save(a2, m2), XMT_OK);
  CU_ASSERT_TRUE(same_file(m1, m2));
  unlink(m1);
  unlink(m2);
  xmt_aligner_free(a1);
  xmt_aligner_free(a2);
}

/* Save, load into a new aligner: the same links for every pair and for
 * unseen text; saving the loaded model gives the same file. */
static void test_save_load(void) {
  xmt_aligner *a = aligner_with(2, 0);
  synthetic(a, 500);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  const char *path = temp_path("rt.model"), *again = temp_path("rt2.model");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, path), XMT_OK);
  xmt_aligner *b = aligner_with(1, 1); /* lowercase comes from the model */
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(b, path), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_pair_count(b), 0);
  for (size_t s = 0; s < 7; s++) {
    char *la = malloc(1 << 16), *lb = malloc(1 << 16);
    size_t at = 0, bt = 0;
    unsigned long x = 99;
    char src[256], tgt[256];
    for (int k = 0; k < 40; k++) {
      size_t sl = 0, tl = 0;
      for (int i = 0; i < 6; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        unsigned w = (unsigned)((x >> 33) % 320); /* some unknown */
        sl += (size_t)snprintf(src + sl, sizeof src - sl, "%ss%u", i ? " " : "",
                               w);
        tl += (size_t)snprintf(tgt + tl, sizeof tgt - tl, "%sT%u", i ? " " : "",
                               (w + (unsigned)(i % 2)) % 320);
      }
      at += (size_t)snprintf(
          la + at, (1 << 16) - at, "%s\n",
          align_text(a, src, tgt, all_syms[s], XMT_TOKENIZE_WHITESPACE));
      bt += (size_t)snprintf(
          lb + bt, (1 << 16) - bt, "%s\n",
          align_text(b, src, tgt, all_syms[s], XMT_TOKENIZE_WHITESPACE));
    }
    CU_ASSERT_STRING_EQUAL(la, lb);
    free(la);
    free(lb);
  }
  EXPECT_LINKS(align_text(b, "red car", "voiture rouge", XMT_SYM_INTERSECT,
                          XMT_TOKENIZE_WHITESPACE),
               "0-1 1-0");
  CU_ASSERT_EQUAL(xmt_aligner_save(b, again), XMT_OK);
  CU_ASSERT_TRUE(same_file(path, again));
  /* A model loads only into a new aligner. */
  CU_ASSERT_EQUAL(xmt_aligner_load(b, path), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_aligner_load(a, path), XMT_ERR_USAGE);
  unlink(path);
  unlink(again);
  xmt_aligner_free(a);
  xmt_aligner_free(b);
}

/* An aligner that learnt nothing saves an empty model: loaded, it links
 * nothing, trains as a new aligner, and saves the same empty file. */
static void test_empty_model(void) {
  xmt_aligner *a = aligner_with(1, 0), *b = aligner_with(1, 0);
  xmt_aligner *c = aligner_with(1, 0);
  const char *p = temp_path("empty.model"), *q = temp_path("empty2.model");
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(a, "en", "fr"), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, p), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(b, p), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_load(b, p), XMT_ERR_USAGE); /* once only */
  EXPECT_LINKS(align_text(b, "red house", "maison rouge", XMT_SYM_UNION,
                          XMT_TOKENIZE_WHITESPACE),
               "");
  CU_ASSERT_EQUAL(xmt_aligner_save(b, q), XMT_OK);
  CU_ASSERT_EQUAL(same_file(p, q), 1);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(b, "en", "de"), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(b, "en", "fr"), XMT_OK);
  add_adjectives(b);
  add_adjectives(c);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(c, NULL, NULL), XMT_OK);
  for (size_t k = 0; k < ADJ_PAIRS; k++) {
    char fresh[256]; /* pair_links answers in one buffer */
    snprintf(fresh, sizeof fresh, "%s", pair_links(c, k, XMT_SYM_UNION));
    EXPECT_LINKS(pair_links(b, k, XMT_SYM_UNION), fresh);
  }
  xmt_aligner_free(a);
  xmt_aligner_free(b);
  xmt_aligner_free(c);
  unlink(p);
  unlink(q);
}

static void write_bytes(const char *path, const char *data, size_t len) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  CU_ASSERT_EQUAL(fwrite(data, 1, len, fp), len);
  fclose(fp);
}

/* Loading fails with XMT_ERR_FORMAT and a message naming the problem. */
static void expect_bad_model(const char *path, const char *message) {
  xmt_aligner *b = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_load(b, path), XMT_ERR_FORMAT);
  const struct xmt_error *e = xmt_aligner_error(b);
  CU_ASSERT_EQUAL(e->status, XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(e->file, path);
  if (strcmp(e->message, message) != 0)
    fprintf(stderr, "\nmessage \"%s\", want \"%s\"\n", e->message, message);
  CU_ASSERT_STRING_EQUAL(e->message, message);
  /* and the aligner is still usable: it can be trained */
  add_pair(b, "a b", "A B", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
  xmt_aligner_free(b);
}

static void test_bad_models(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_adjectives(a);
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_EQUAL(xmt_aligner_save(a, temp_path("none")), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, 0, XMT_SYM_UNION, al),
                  XMT_ERR_USAGE);
  xmt_alignment_free(al);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  const char *good = temp_path("good.model"), *bad = temp_path("bad.model");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, good), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_save(a, "/nonexistent-dir/x.model"),
                  XMT_ERR_WRITE);
  size_t len;
  char *data = xmt_test_read_file(good, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(data);
  CU_ASSERT_FATAL(len > 100);
  CU_ASSERT(memcmp(data, "XMTALIGN\2\0\0\0", 12) == 0);

  write_bytes(bad, data, len - 9); /* truncated */
  expect_bad_model(bad, "cannot load the aligner model: truncated");
  write_bytes(bad, data, 30);
  expect_bad_model(bad, "cannot load the aligner model: truncated");
  data[len - 20] ^= 0x40; /* a probability's bit */
  write_bytes(bad, data, len);
  expect_bad_model(
      bad, "cannot load the aligner model: corrupt (checksum mismatch)");
  data[len - 20] ^= 0x40;
  data[8] = 3; /* another format version */
  write_bytes(bad, data, len);
  expect_bad_model(bad, "aligner model format version 3; this xliffmt reads "
                        "versions 1 to 2");
  data[8] = 2;
  data[0] = 'Y';
  write_bytes(bad, data, len);
  expect_bad_model(bad, "cannot load the aligner model: not an xliffmt "
                        "aligner model");
  write_bytes(bad, "", 0);
  expect_bad_model(bad, "cannot load the aligner model: not an xliffmt "
                        "aligner model");
  data[0] = 'X';
  char *longer = malloc(len + 1);
  memcpy(longer, data, len);
  longer[len] = '\n';
  write_bytes(bad, longer, len + 1);
  expect_bad_model(bad, "cannot load the aligner model: trailing data after "
                        "the model");
  free(longer);
  write_bytes(bad, data, len); /* intact again: loads */
  xmt_aligner *b = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_load(b, bad), XMT_OK);
  xmt_aligner_free(b);
  b = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_load(b, temp_path("missing")), XMT_ERR_IO);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_aligner_error(b)->message, "cannot open"));
  xmt_aligner_free(b);
  free(data);
  unlink(good);
  unlink(bad);
  xmt_aligner_free(a);
}

/* Seeding: a model trained on the adjective corpus, loaded, then trained
 * on one pair, too little to learn from alone, still aligns it lexically. */
static void test_seed(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  const char *path = temp_path("seed.model");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, path), XMT_OK);
  for (int seeded = 0; seeded < 2; seeded++) {
    xmt_aligner *b = aligner_with(1, 0);
    if (seeded)
      CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(b, path), XMT_OK);
    add_pair(b, "red house", "maison rouge", XMT_TOKENIZE_WHITESPACE);
    CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
    EXPECT_LINKS(pair_links(b, 0, XMT_SYM_INTERSECT),
                 seeded ? "0-1 1-0" : "0-0 1-1");
    xmt_aligner_free(b);
  }
  unlink(path);
  xmt_aligner_free(a);
}

struct calls {
  unsigned n, last_iteration, iterations, stop_at;
};

static int progress(void *user, unsigned iteration, unsigned iterations,
                    size_t done, size_t pairs) {
  struct calls *c = user;
  CU_ASSERT(done <= pairs);
  CU_ASSERT(iteration >= 1 && iteration <= iterations);
  c->n++;
  c->last_iteration = iteration;
  c->iterations = iterations;
  return c->stop_at != 0 && iteration >= c->stop_at;
}

static void test_progress_and_abort(void) {
  xmt_aligner *a = aligner_with(1, 0);
  add_adjectives(a);
  struct calls c = {0, 0, 0, 2};
  CU_ASSERT_EQUAL(xmt_aligner_train(a, progress, &c), XMT_ERR_ABORTED);
  CU_ASSERT_EQUAL(c.last_iteration, 2);
  CU_ASSERT_EQUAL(c.iterations, 8); /* 4 EM passes, 2 directions */
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, 0, XMT_SYM_UNION, al),
                  XMT_ERR_USAGE); /* no model after an abort */
  xmt_alignment_free(al);
  c.stop_at = 0;
  CU_ASSERT_EQUAL(xmt_aligner_train(a, progress, &c), XMT_OK);
  CU_ASSERT_EQUAL(c.last_iteration, 8);
  xmt_aligner_free(a);
}

static void test_options_and_misuse(void) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  CU_ASSERT_EQUAL(o.iterations, 5);
  CU_ASSERT_DOUBLE_EQUAL(o.prob_align_null, 0.08, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(o.tension, 4.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(o.alpha, 0.01, 1e-12);
  CU_ASSERT(o.favor_diagonal && o.optimize_tension && o.variational_bayes);
  CU_ASSERT(!o.lowercase && o.threads == 0);
  CU_ASSERT_DOUBLE_EQUAL(o.null_prior, 0.1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(o.null_alpha, 10.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(o.null_mass, 300, 1e-12);
  o.alpha = 0;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  o.variational_bayes = 0;
  xmt_aligner *a = xmt_aligner_new(&o);
  CU_ASSERT_PTR_NOT_NULL(a);
  xmt_aligner_free(a);
  xmt_aligner_options_init(&o);
  o.prob_align_null = 1;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  xmt_aligner_options_init(&o);
  o.iterations = 0;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  xmt_aligner_options_init(&o);
  o.null_prior = 1;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  xmt_aligner_options_init(&o);
  o.null_prior = 0;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  xmt_aligner_options_init(&o);
  o.null_alpha = 0;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  xmt_aligner_options_init(&o);
  o.null_mass = -1;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  a = xmt_aligner_new(NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_EQUAL(xmt_aligner_train(a, NULL, NULL), XMT_ERR_USAGE);
  xmt_tokens *t = xmt_tokens_new();
  CU_ASSERT_EQUAL(xmt_tokens_append(t, 0, 5), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_add(a, "abc", 3, t, "abc", 3, t), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_aligner_add(a, "ab\xFF", 3, t, "abc", 3, NULL),
                  XMT_ERR_USAGE);
  xmt_tokens_free(t);
  t = xmt_tokens_new();
  CU_ASSERT_EQUAL(xmt_tokens_append(t, 0, 3), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_add(a, "ab\xFF", 3, t, "abc", 3, t),
                  XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(xmt_aligner_pair_count(a), 0);
  xmt_tokens_free(t);
  xmt_aligner_free(a);
  xmt_aligner_free(NULL);
  CU_ASSERT_PTR_NULL(xmt_aligner_error(NULL));
  CU_ASSERT_EQUAL(xmt_aligner_pair_count(NULL), 0);
}

/* IBM Model 1 (no diagonal prior) learns the adjective corpus too. */
static void test_model1(void) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  o.favor_diagonal = 0;
  o.threads = 1;
  xmt_aligner *a = xmt_aligner_new(&o);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  EXPECT_LINKS(pair_links(a, 0, XMT_SYM_INTERSECT), "0-1 1-0");
  xmt_aligner_free(a);
}

/* The u64 at byte off of a file (little-endian). */
static uint64_t file_u64(const char *path, size_t off) {
  size_t len;
  char *data = xmt_test_read_file(path, &len);
  uint64_t v = 0;
  CU_ASSERT_PTR_NOT_NULL_FATAL(data);
  CU_ASSERT_FATAL(len >= off + 8);
  for (int i = 7; i >= 0; i--)
    v = v << 8 | (unsigned char)data[off + (size_t)i];
  free(data);
  return v;
}

/* Models that grow: a model trained on the adjective corpus is saved with
 * its languages, loaded and trained on a pair it never saw; the result
 * counts two trainings, knows the words of both, and still aligns what
 * the first one taught. A model refuses another language pair. */
static void test_grow(void) {
  const char *first = temp_path("grow1.model"),
             *second = temp_path("grow2.model");
  xmt_aligner *a = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(a, "en", "fr"), XMT_OK);
  add_adjectives(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, first), XMT_OK);
  CU_ASSERT_EQUAL(file_u64(first, 56), 1); /* documents */
  size_t len;
  char *data = xmt_test_read_file(first, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(data);
  CU_ASSERT(memcmp(data + 64, "\2\0\0\0en\2\0\0\0fr", 12) == 0);
  free(data);

  xmt_aligner *b = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(b, "en-GB", "fr"), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(b, first), XMT_OK);
  add_pair(b, "green car", "voiture verte", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
  /* the seed knows voiture: green goes to verte */
  EXPECT_LINKS(pair_links(b, 0, XMT_SYM_INTERSECT), "0-1 1-0");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(b, second), XMT_OK);
  CU_ASSERT_EQUAL(file_u64(second, 56), 2);

  xmt_aligner *c = aligner_with(1, 0);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(c, second), XMT_OK);
  EXPECT_LINKS(align_text(c, "red car", "voiture rouge", XMT_SYM_INTERSECT,
                          XMT_TOKENIZE_WHITESPACE),
               "0-1 1-0");
  EXPECT_LINKS(align_text(c, "green car", "voiture verte", XMT_SYM_INTERSECT,
                          XMT_TOKENIZE_WHITESPACE),
               "0-1 1-0");
  /* forgetting the pairs keeps the model, and the next training adds to
   * it */
  xmt_aligner_forget_pairs(b);
  CU_ASSERT_EQUAL(xmt_aligner_pair_count(b), 0);
  add_pair(b, "old house", "maison vieille", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
  EXPECT_LINKS(pair_links(b, 0, XMT_SYM_INTERSECT), "0-1 1-0");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(b, second), XMT_OK);
  CU_ASSERT_EQUAL(file_u64(second, 56), 3);

  /* another language pair: refused, naming the model file */
  xmt_aligner *d = aligner_with(1, 0);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(d, "en", "de"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_load(d, first), XMT_ERR_USAGE);
  CU_ASSERT_STRING_EQUAL(xmt_aligner_error(d)->message,
                         "the aligner model is for en-fr, not en-de");
  CU_ASSERT_STRING_EQUAL(xmt_aligner_error(d)->file, first);
  xmt_aligner *e = aligner_with(1, 0);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(e, first), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(e, "de", "fr"), XMT_ERR_USAGE);
  unlink(first);
  unlink(second);
  xmt_aligner_free(a);
  xmt_aligner_free(b);
  xmt_aligner_free(c);
  xmt_aligner_free(d);
  xmt_aligner_free(e);
}

/* "w0 w1 ... w(n-1)" with " ," after every 37th word (the cuts of a long
 * pair move to such punctuation). */
static char *long_sentence(size_t n, const char *prefix) {
  char *s = malloc(n * 16 + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  size_t at = 0;
  for (size_t i = 0; i < n; i++)
    at += i % 37 == 36
              ? (size_t)sprintf(s + at, " ,")
              : (size_t)sprintf(s + at, "%s%s%zu", i ? " " : "", prefix, i);
  return s;
}

/* 1 when al is exactly the diagonal of n tokens, the commas of
 * long_sentence left out with no_commas. */
static int diagonal(const xmt_alignment *al, size_t n, int no_commas) {
  const struct xmt_link *l = xmt_alignment_links(al);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (no_commas && i % 37 == 36)
      continue;
    if (k >= xmt_alignment_count(al) || l[k].source != i || l[k].target != i)
      return 0;
    k++;
  }
  return k == xmt_alignment_count(al);
}

/* A pair of 1,000 tokens is trained and aligned in pieces: the model sees
 * pairs of about fifty tokens, and the links come back at the pair's
 * own positions, the same by index and by text; a short pair beside it is
 * untouched, and a pair of 3 against 2,000 tokens aligns as well. (IBM2
 * leaves the 27 commas of the long pair unaligned; the Bayesian model
 * links each to itself.) */
static void test_long_pairs(void) {
  for (int bayes = 0; bayes < 2; bayes++) {
    struct xmt_aligner_options o;
    xmt_aligner_options_init(&o);
    o.model = bayes ? XMT_MODEL_BAYES : XMT_MODEL_IBM2;
    o.threads = 1;
    xmt_aligner *a = xmt_aligner_new(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    char *src = long_sentence(1000, "w"), *tgt = long_sentence(1000, "w");
    char *few = long_sentence(3, "v"), *many = long_sentence(2000, "u");
    add_pair(a, "the cat sleeps", "the cat sleeps", XMT_TOKENIZE_WHITESPACE);
    add_pair(a, src, tgt, XMT_TOKENIZE_WHITESPACE);
    add_pair(a, few, many, XMT_TOKENIZE_WHITESPACE);
    CU_ASSERT_EQUAL(xmt_aligner_pair_count(a), 3);
    CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
    EXPECT_LINKS(pair_links(a, 0, XMT_SYM_GROW_DIAG_FINAL_AND), "0-0 1-1 2-2");
    xmt_alignment *al = xmt_alignment_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(al);
    CU_ASSERT_EQUAL(
        xmt_aligner_align_pair(a, 1, XMT_SYM_GROW_DIAG_FINAL_AND, al), XMT_OK);
    CU_ASSERT_TRUE(diagonal(al, 1000, !bayes));
    xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
    CU_ASSERT_EQUAL(xmt_tokenize(s, src, strlen(src), XMT_TOKENIZE_WHITESPACE),
                    XMT_OK);
    CU_ASSERT_EQUAL(xmt_tokenize(t, tgt, strlen(tgt), XMT_TOKENIZE_WHITESPACE),
                    XMT_OK);
    CU_ASSERT_EQUAL(xmt_aligner_align(a, src, strlen(src), s, tgt, strlen(tgt),
                                      t, XMT_SYM_GROW_DIAG_FINAL_AND, al),
                    XMT_OK);
    CU_ASSERT_TRUE(diagonal(al, 1000, !bayes));
    /* 3 words against 2,000: whatever links there are stay in range */
    CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, 2, XMT_SYM_UNION, al), XMT_OK);
    const struct xmt_link *l = xmt_alignment_links(al);
    for (size_t i = 0; i < xmt_alignment_count(al); i++)
      CU_ASSERT_TRUE(l[i].source < 3 && l[i].target < 2000);
    CU_ASSERT_EQUAL(xmt_aligner_align_pair(a, 3, XMT_SYM_UNION, al),
                    XMT_ERR_USAGE);
    xmt_tokens_free(s);
    xmt_tokens_free(t);
    xmt_alignment_free(al);
    free(src);
    free(tgt);
    free(few);
    free(many);
    xmt_aligner_free(a);
  }
}

/* Where long pairs are cut: pairs of up to 160 tokens are one piece;
 * longer ones are cut into pieces of about 50 tokens on their longer
 * side, at the same proportions of both sides, after the nearest
 * punctuation within 16 tokens. */
static void test_piece_cuts(void) {
  CU_ASSERT_EQUAL(xmt_pieces_count(160, 3), 1);
  CU_ASSERT_EQUAL(xmt_pieces_count(3, 160), 1);
  CU_ASSERT_EQUAL(xmt_pieces_count(161, 10), 4);
  CU_ASSERT_EQUAL(xmt_pieces_count(10, 1000), 20);
  CU_ASSERT_EQUAL(xmt_pieces_count(1001, 1000), 21);
  char *text = long_sentence(300, "w"); /* commas at 36, 73, 110, ... */
  xmt_tokens *t = xmt_tokens_new();
  CU_ASSERT_EQUAL_FATAL(
      xmt_tokenize(t, text, strlen(text), XMT_TOKENIZE_WHITESPACE), XMT_OK);
  size_t cuts[4];
  xmt_pieces_cut(text, t, 3, cuts);
  /* proportional 100 and 200; the nearest commas, at 110 and 184, are
   * within reach: cut after them */
  CU_ASSERT_EQUAL(cuts[0], 0);
  CU_ASSERT_EQUAL(cuts[1], 111);
  CU_ASSERT_EQUAL(cuts[2], 185);
  CU_ASSERT_EQUAL(cuts[3], 300);
  xmt_pieces_cut(NULL, t, 3, cuts); /* no text: proportional */
  CU_ASSERT_EQUAL(cuts[1], 100);
  CU_ASSERT_EQUAL(cuts[2], 200);
  /* 3 tokens in 4 pieces: some pieces empty, never backwards */
  char *few = long_sentence(3, "v");
  CU_ASSERT_EQUAL_FATAL(
      xmt_tokenize(t, few, strlen(few), XMT_TOKENIZE_WHITESPACE), XMT_OK);
  size_t four[5];
  xmt_pieces_cut(few, t, 4, four);
  CU_ASSERT_TRUE(four[0] == 0 && four[1] == 1 && four[2] == 2 && four[3] == 2 &&
                 four[4] == 3);
  xmt_tokens_free(t);
  free(text);
  free(few);
}

/* A lexicon is set and unset; only a missing aligner is refused. */
static void test_set_lexicon(void) {
  xmt_aligner *a = xmt_aligner_new(NULL);
  xmt_lexicon *lx = xmt_lexicon_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(lx);
  CU_ASSERT_EQUAL(xmt_aligner_set_lexicon(NULL, lx), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_aligner_set_lexicon(a, lx), XMT_OK);
  CU_ASSERT_PTR_EQUAL(a->lexicon, lx);
  CU_ASSERT_EQUAL(xmt_aligner_error(a)->status, XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_set_lexicon(a, NULL), XMT_OK);
  CU_ASSERT_PTR_NULL(a->lexicon);
  xmt_aligner_free(a);
  xmt_lexicon_free(lx);
}

static CU_TestInfo aligner_tests[] = {
    {"set_lexicon", test_set_lexicon},
    {"identical sentences", test_identical},
    {"swapped word order", test_swapped},
    {"a repeated word", test_repeated},
    {"an unaligned word", test_unaligned},
    {"one side empty", test_empty_side},
    {"unknown words", test_unknown_words},
    {"lowercasing", test_lowercase},
    {"CJK through ICU tokens", test_cjk},
    {"1 and 2 threads agree", test_threads},
    {"save and load", test_save_load},
    {"bad model files", test_bad_models},
    {"an empty model", test_empty_model},
    {"a loaded model seeds training", test_seed},
    {"progress and abort", test_progress_and_abort},
    {"options and misuse", test_options_and_misuse},
    {"IBM Model 1", test_model1},
    {"models that grow", test_grow},
    {"where long pairs are cut", test_piece_cuts},
    {"long pairs in pieces", test_long_pairs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"aligner", NULL, NULL, NULL, NULL, aligner_tests},
    CU_SUITE_INFO_NULL,
};
