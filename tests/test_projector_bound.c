/* test_projector_bound.c -- the model an aligner carries from one
 * training to the next, cut down to its most linked words and entries
 * (xmt_aligner_bound_model): what stays, what goes, the loaded model's
 * words kept, and training and aligning after the cut. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aligner_private.h"
#include "alignment_text.h"
#include "harness.h"
#include "xmt_filter.h" /* xmt_aligner_save, xmt_aligner_load */
#include "xmt_projector.h"

static xmt_aligner *ibm2(void) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  o.threads = 1;
  o.model = XMT_MODEL_IBM2;
  o.string_priors = 0;
  xmt_aligner *a = xmt_aligner_new(&o);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  return a;
}

/* "red car" many times, and n numbers each once beside "car". */
static void add_corpus(xmt_aligner *a, unsigned from, unsigned n) {
  const char *src[] = {"red car", "car", "red", "big car", "big"};
  const char *tgt[] = {"voiture rouge", "voiture", "rouge", "grande voiture",
                       "grande"};
  for (int r = 0; r < 4; r++)
    for (size_t k = 0; k < 5; k++)
      xmt_test_add_pair(a, src[k], tgt[k]);
  for (unsigned k = from; k < from + n; k++) {
    char s[64], t[64];
    snprintf(s, sizeof s, "car %u", k);
    snprintf(t, sizeof t, "voiture %u", k);
    xmt_test_add_pair(a, s, t);
  }
}

static const char *aligned(xmt_aligner *a, const char *src, const char *tgt) {
  static char buf[256];
  xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL(xmt_tokenize(s, src, strlen(src), XMT_TOKENIZE_WHITESPACE),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokenize(t, tgt, strlen(tgt), XMT_TOKENIZE_WHITESPACE),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_align(a, src, strlen(src), s, tgt, strlen(tgt), t,
                                    XMT_SYM_INTERSECT, al),
                  XMT_OK);
  size_t at = 0;
  buf[0] = '\0';
  const struct xmt_link *l = xmt_alignment_links(al);
  for (size_t i = 0; i < xmt_alignment_count(al); i++)
    at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%zu-%zu", i ? " " : "",
                           l[i].source, l[i].target);
  xmt_tokens_free(s);
  xmt_tokens_free(t);
  xmt_alignment_free(al);
  return buf;
}

static int knows(const xmt_aligner *a, int side, const char *w) {
  return xmt_vocab_find(&a->vocab[side], w, strlen(w)) != XMT_UNKNOWN_WORD;
}

/* Within the limits nothing changes; over them the most linked words stay
 * (red, car, big: 3 a side, in their order), the numbers go, and the model
 * still aligns what it knows. */
static void test_words(void) {
  xmt_aligner *a = ibm2();
  add_corpus(a, 1000, 40);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_aligner_bound_model(a, 3, 1000), XMT_ERR_USAGE);
  CU_ASSERT_STRING_EQUAL(xmt_aligner_error(a)->message,
                         "the model is bounded without pairs added");
  xmt_aligner_forget_pairs(a);
  uint32_t words = a->vocab[XMT_SRC].count;
  uint64_t nnz = a->dir[XMT_FWD].t.nnz;
  CU_ASSERT_EQUAL(words, 44); /* NULL, red, car, big and 40 numbers */
  CU_ASSERT_EQUAL(xmt_aligner_bound_model(a, 43, nnz), XMT_OK);
  CU_ASSERT_EQUAL(a->vocab[XMT_SRC].count, words);
  CU_ASSERT_EQUAL(a->dir[XMT_FWD].t.nnz, nnz);
  CU_ASSERT_EQUAL(xmt_aligner_bound_model(a, 3, 1000), XMT_OK);
  CU_ASSERT_EQUAL(a->vocab[XMT_SRC].count, 4);
  CU_ASSERT_EQUAL(a->vocab[XMT_TGT].count, 4);
  CU_ASSERT(knows(a, XMT_SRC, "red") && knows(a, XMT_SRC, "car") &&
            knows(a, XMT_SRC, "big") && !knows(a, XMT_SRC, "1000"));
  CU_ASSERT(knows(a, XMT_TGT, "rouge") && knows(a, XMT_TGT, "voiture") &&
            !knows(a, XMT_TGT, "1039"));
  CU_ASSERT_EQUAL(a->dir[XMT_FWD].t.rows, 4);
  CU_ASSERT(a->dir[XMT_FWD].t.nnz <= 16);
  CU_ASSERT_STRING_EQUAL(aligned(a, "red car", "voiture rouge"), "0-1 1-0");
  CU_ASSERT_STRING_EQUAL(aligned(a, "big car", "grande voiture"), "0-0 1-1");
  /* the next training starts from the model cut down */
  add_corpus(a, 2000, 40);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  CU_ASSERT_STRING_EQUAL(aligned(a, "red car", "voiture rouge"), "0-1 1-0");
  xmt_aligner_free(a);
}

/* Over the entry limit, the entries with the most links stay, and every
 * row still sums to 1. */
static void test_entries(void) {
  xmt_aligner *a = ibm2();
  add_corpus(a, 1000, 40);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  xmt_aligner_forget_pairs(a);
  CU_ASSERT_EQUAL(xmt_aligner_bound_model(a, 1000, 30), XMT_OK);
  CU_ASSERT_EQUAL(a->vocab[XMT_SRC].count, 44);
  for (int d = 0; d < 2; d++) {
    const struct xmt_ttable *t = &a->dir[d].t;
    CU_ASSERT_EQUAL(t->nnz, 30);
    for (uint32_t e = 0; e < t->rows; e++) {
      double sum = 0;
      for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1]; k++) {
        sum += t->prob[k];
        CU_ASSERT(t->count[k] >= 1); /* entries without a link went first */
        CU_ASSERT(k == t->row_start[e] || t->col[k] > t->col[k - 1]);
      }
      CU_ASSERT(t->row_start[e] == t->row_start[e + 1] ||
                (sum > 0.999 && sum < 1.001));
    }
  }
  CU_ASSERT_STRING_EQUAL(aligned(a, "red car", "voiture rouge"), "0-1 1-0");
  xmt_aligner_free(a);
}

/* The words and entries of a model loaded stay, whatever the limits. */
static void test_loaded(void) {
  char path[256];
  snprintf(path, sizeof path, "%s/xmt-bound-%ld.model",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
  xmt_aligner *a = ibm2();
  add_corpus(a, 1000, 10);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_save(a, path), XMT_OK);
  xmt_aligner *b = ibm2();
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_load(b, path), XMT_OK);
  uint32_t words = b->vocab[XMT_SRC].count;
  CU_ASSERT_EQUAL(words, 14);
  xmt_test_add_pair(b, "green car 77", "voiture verte 77");
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(b, NULL, NULL), XMT_OK);
  xmt_aligner_forget_pairs(b);
  CU_ASSERT_EQUAL(xmt_aligner_bound_model(b, 0, 0), XMT_OK);
  CU_ASSERT_EQUAL(b->vocab[XMT_SRC].count, words);
  CU_ASSERT(knows(b, XMT_SRC, "1009") && !knows(b, XMT_SRC, "green"));
  CU_ASSERT_EQUAL(b->dir[XMT_FWD].t.nnz, a->dir[XMT_FWD].t.nnz);
  CU_ASSERT_STRING_EQUAL(aligned(b, "red car", "voiture rouge"), "0-1 1-0");
  unlink(path);
  xmt_aligner_free(a);
  xmt_aligner_free(b);
}

static CU_TestInfo bound_tests[] = {
    {"the most linked words stay", test_words},
    {"the most linked entries stay", test_entries},
    {"a loaded model's words stay", test_loaded},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"aligner bound", NULL, NULL, NULL, NULL, bound_tests},
    CU_SUITE_INFO_NULL,
};
