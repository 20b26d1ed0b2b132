/* test_projector_stems.c -- the aligner's stems option: the forms of an
 * inflecting language's word share one word of the tables, on the sides
 * the mask names, and only where the language has a Snowball stemmer. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "aligner_private.h"
#include "alignment_text.h"
#include "harness.h"
#include "xmt_projector.h"

/* "раздел" (section), its prepositional "разделе" and "Раздел" */
#define RU_NOM "\xD1\x80\xD0\xB0\xD0\xB7\xD0\xB4\xD0\xB5\xD0\xBB"
#define RU_GEN RU_NOM "\xD0\xB5"
#define RU_CAP "\xD0\xA0\xD0\xB0\xD0\xB7\xD0\xB4\xD0\xB5\xD0\xBB"
/* "красный" (red), its genitive "красного"; "дом" (house), "дома" */
#define RED_NOM "\xD0\xBA\xD1\x80\xD0\xB0\xD1\x81\xD0\xBD\xD1\x8B\xD0\xB9"
#define RED_GEN                                                                \
  "\xD0\xBA\xD1\x80\xD0\xB0\xD1\x81\xD0\xBD\xD0\xBE\xD0\xB3\xD0\xBE"
#define HOUSE_NOM "\xD0\xB4\xD0\xBE\xD0\xBC"
#define HOUSE_GEN "\xD0\xB4\xD0\xBE\xD0\xBC\xD0\xB0"

static xmt_aligner *aligner_stems(int stems, const char *src_lang,
                                  const char *tgt_lang) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  CU_ASSERT_EQUAL(o.stems, 0); /* off by default */
  o.threads = 1;
  o.model = XMT_MODEL_IBM2;
  o.string_priors = 0;
  o.stems = stems;
  xmt_aligner *a = xmt_aligner_new(&o);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_EQUAL_FATAL(xmt_aligner_set_languages(a, src_lang, tgt_lang),
                        XMT_OK);
  return a;
}

/* The bytes of word id of a side's vocabulary, as a string. */
static const char *word(const xmt_aligner *a, int side, uint32_t id) {
  static char buf[64];
  size_t n;
  const char *w = xmt_vocab_word(&a->vocab[side], id, &n);
  snprintf(buf, sizeof buf, "%.*s", (int)n, w);
  return buf;
}

/* The ids the three forms of "раздел" and the two of "options" get. */
static void test_ids(void) {
  static const struct {
    int stems;
    const char *tgt_lang;
    int same_tgt, same_src;
  } cases[] = {
      {0, "ru", 0, 0},
      {XMT_STEMS_TARGET, "ru", 1, 0},
      {XMT_STEMS_SOURCE, "ru", 0, 1},
      {XMT_STEMS_SOURCE | XMT_STEMS_TARGET, "ru-RU", 1, 1},
      {XMT_STEMS_TARGET, "ja", 0, 0},    /* no Snowball stemmer */
      {XMT_STEMS_TARGET, "xx-YY", 0, 0}, /* not a language */
      {XMT_STEMS_TARGET, NULL, 0, 0},    /* unknown */
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    xmt_aligner *a = aligner_stems(cases[k].stems, "en", cases[k].tgt_lang);
    xmt_test_add_pair(a, "options Option", RU_NOM " " RU_GEN " " RU_CAP);
    const uint32_t *s = a->ids[XMT_SRC], *t = a->ids[XMT_TGT];
    CU_ASSERT_EQUAL(a->nids[XMT_TGT], 3);
    CU_ASSERT_EQUAL(t[0] == t[1] && t[1] == t[2], cases[k].same_tgt);
    CU_ASSERT_EQUAL(s[0] == s[1], cases[k].same_src);
    /* a side not stemmed is not lowercased either */
    CU_ASSERT_EQUAL(t[0] == t[2], cases[k].same_tgt);
    if (cases[k].same_tgt) /* Snowball's Russian stem, lowercased */
      CU_ASSERT_STRING_EQUAL(word(a, XMT_TGT, t[0]), RU_NOM);
    if (cases[k].same_src)
      CU_ASSERT_STRING_EQUAL(word(a, XMT_SRC, s[0]), "option");
    xmt_aligner_free(a);
  }
}

/* Another language set afterwards gets its own stemmer; a long token is
 * kept whole. */
static void test_languages_change(void) {
  xmt_aligner *a = aligner_stems(XMT_STEMS_TARGET, "en", "ja");
  xmt_test_add_pair(a, "section", RU_GEN);
  CU_ASSERT_STRING_EQUAL(word(a, XMT_TGT, a->ids[XMT_TGT][0]), RU_GEN);
  CU_ASSERT_EQUAL(xmt_aligner_set_languages(a, "en", "ru"), XMT_OK);
  xmt_test_add_pair(a, "section", RU_GEN);
  CU_ASSERT_STRING_EQUAL(word(a, XMT_TGT, a->ids[XMT_TGT][1]), RU_NOM);
  char longw[300];
  memset(longw, 'a', sizeof longw - 4);
  memcpy(longw + sizeof longw - 4, "ing", 4); /* 299 bytes, "...ing" */
  xmt_test_add_pair(a, "x", longw);
  size_t n;
  xmt_vocab_word(&a->vocab[XMT_TGT], a->ids[XMT_TGT][2], &n);
  CU_ASSERT_EQUAL(n, sizeof longw - 1);
  xmt_aligner_free(a);
}

/* Trained on nominatives, "red house" / "дом красный" crossed: the
 * genitives of a new pair are known words through their stems, so the
 * crossing holds; without stems they are unknown and the diagonal wins. */
static void test_unseen_forms(void) {
  for (int stems = 0; stems < 2; stems++) {
    xmt_aligner *a = aligner_stems(stems ? XMT_STEMS_TARGET : 0, "en", "ru");
    for (int k = 0; k < 4; k++) {
      xmt_test_add_pair(a, "red house", HOUSE_NOM " " RED_NOM);
      xmt_test_add_pair(a, "red", RED_NOM);
      xmt_test_add_pair(a, "house", HOUSE_NOM);
    }
    CU_ASSERT_EQUAL_FATAL(xmt_aligner_train(a, NULL, NULL), XMT_OK);
    static const char src[] = "red house", tgt[] = HOUSE_GEN " " RED_GEN;
    xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
    xmt_alignment *al = xmt_alignment_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(al);
    CU_ASSERT_EQUAL(xmt_tokenize(s, src, strlen(src), XMT_TOKENIZE_WHITESPACE),
                    XMT_OK);
    CU_ASSERT_EQUAL(xmt_tokenize(t, tgt, strlen(tgt), XMT_TOKENIZE_WHITESPACE),
                    XMT_OK);
    CU_ASSERT_EQUAL(xmt_aligner_align(a, src, strlen(src), s, tgt, strlen(tgt),
                                      t, XMT_SYM_UNION, al),
                    XMT_OK);
    const struct xmt_link *l = xmt_alignment_links(al);
    CU_ASSERT_EQUAL_FATAL(xmt_alignment_count(al), 2);
    CU_ASSERT_EQUAL(l[0].source, 0);
    CU_ASSERT_EQUAL(l[0].target, stems ? 1u : 0u);
    CU_ASSERT_EQUAL(l[1].source, 1);
    CU_ASSERT_EQUAL(l[1].target, stems ? 0u : 1u);
    xmt_tokens_free(s);
    xmt_tokens_free(t);
    xmt_alignment_free(al);
    xmt_aligner_free(a);
  }
}

static void test_bad_mask(void) {
  struct xmt_aligner_options o;
  xmt_aligner_options_init(&o);
  o.stems = 4;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
  o.stems = -1;
  CU_ASSERT_PTR_NULL(xmt_aligner_new(&o));
}

static CU_TestInfo stems_tests[] = {
    {"ids of the forms", test_ids},
    {"languages set again, long tokens", test_languages_change},
    {"unseen forms through their stems", test_unseen_forms},
    {"a bad mask", test_bad_mask},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"stems", NULL, NULL, NULL, NULL, stems_tests},
    CU_SUITE_INFO_NULL,
};
