/* test_filter_srx_index.c -- what the segmenter indexes once a language
 * to do less once a position (filter/segment/srx.c): the no-break rules
 * that may end with two units, by their slot; the rules tested alone; and
 * the required characters a text holds, noted as it is converted. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ustring.h>

#include "harness.h"
#include "segmenter_private.h"

static xmt_segmenter *english(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  const struct xmt_span *sp;
  size_t n = 0;
  if (s == NULL || xmt_segmenter_set_language(s, "en") != XMT_OK ||
      xmt_segmenter_split(s, "He met Mr. Smith.", 17, &sp, &n) != XMT_OK) {
    xmt_segmenter_free(s);
    return NULL;
  }
  return s;
}

/* Every rule that xmt_srx_may_end lets end after two units has its bit in
 * their slot; after "k." none of English's four rules of abbreviations
 * may end (no end of theirs is "k."), after "r." the titles may ("Mr.",
 * "Dr."), and most slots turn most rules away. */
static void test_pair_index(void) {
  xmt_segmenter *s = english();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL_FATAL(s->nflat, 19);
  static const UChar units[] = {'a', 'k', 'r', 'g',  '.',    ' ',   'A',
                                '1', 'e', ')', 0xE9, 0x2026, 0x3002};
  size_t nu = sizeof units / sizeof *units, missing = 0;
  for (size_t g = 0; g < s->nflat; g++)
    for (size_t i = 0; i < nu; i++)
      for (size_t j = 0; j < nu; j++) {
        UChar t[3] = {'x', units[i], units[j]};
        unsigned k = xmt_srx_pair_slot(units[i], units[j]);
        if (xmt_srx_may_end(&s->flat[g]->hints, t, 3) &&
            !((s->end_pair[k] >> g) & 1))
          missing++;
      }
  CU_ASSERT_EQUAL(missing, 0);
  CU_ASSERT_EQUAL(s->end_pair[xmt_srx_pair_slot('k', '.')] & 0xF, 0);
  CU_ASSERT_EQUAL(s->end_pair[xmt_srx_pair_slot('r', '.')] & 0x1, 0x1);
  size_t set = 0;
  for (unsigned k = 0; k < SRX_PAIR_SLOTS; k++)
    for (size_t g = 0; g < 4; g++)
      set += (s->end_pair[k] >> g) & 1;
  CU_ASSERT_TRUE(set < 4 * SRX_PAIR_SLOTS / 8);
  xmt_segmenter_free(s);
}

/* The rules tested alone at a position, by bit: the no-break rules with a
 * local form that the early alternation does not hold. */
static void test_tested_bits(void) {
  xmt_segmenter *s = english();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  uint32_t want = 0;
  for (size_t g = 0; g < s->nflat && g < 32; g++) {
    const struct srx_rule *r = s->flat[g];
    if (!r->is_break && r->has_local && !s->in_early[g])
      want |= (uint32_t)1 << g;
  }
  CU_ASSERT_EQUAL(s->tested_low, want);
  CU_ASSERT_EQUAL(s->tested_low & 0xF, 0xF); /* English's four */
  for (size_t g = 0; g < s->nflat; g++)
    if (s->flat[g]->is_break)
      CU_ASSERT_EQUAL((s->tested_low >> g) & 1, 0);
  xmt_segmenter_free(s);
}

/* The required characters of the searched rules a text holds, as a pass
 * over its UTF-16 finds them. */
static uint32_t seen_by_pass(const xmt_segmenter *s, int32_t len16) {
  uint32_t seen = 0;
  for (int32_t i = 0; i < len16; i++)
    for (unsigned k = 0; k < s->nsearched; k++) {
      const struct srx_rule *r = s->searched[k];
      for (int j = 0; j < r->hints.nreq; j++)
        if (r->hints.req[j] == s->u16[i])
          seen |= (uint32_t)1 << k;
    }
  return seen;
}

/* Noted while the text is converted: the same bits as a pass over it, in
 * ASCII, Latin-1, the BMP beyond and a surrogate pair; none in text with
 * no full stop, question or exclamation mark, ideographic stop or line
 * break, each in turn the one that counts. */
static void test_seen_in_conversion(void) {
  xmt_segmenter *s = english();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  static const char *const texts[] = {
      "Terms and conditions",
      "It ends. Here",
      "Why? Because",
      "Wait\xE2\x80\xA6 What",
      "\xE6\x97\xA5\xE6\x9C\xAC\xE3\x80\x82\xE6\x97\xA5",
      "Caf\xC3\xA9 au lait",
      "Line one\nline two",
      "A \xF0\x9F\x98\x80 smile! Yes",
      "",
  };
  uint32_t all = 0;
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    const struct xmt_span *sp;
    size_t n;
    CU_ASSERT_EQUAL_FATAL(
        xmt_segmenter_split(s, texts[i], strlen(texts[i]), &sp, &n), XMT_OK);
    int32_t len16 = 0;
    UErrorCode st = U_ZERO_ERROR;
    u_strFromUTF8(NULL, 0, &len16, texts[i], (int32_t)strlen(texts[i]), &st);
    uint32_t want = seen_by_pass(s, len16);
    CU_ASSERT_EQUAL(s->seen, want);
    if (s->seen != want)
      fprintf(stderr, "\n%s: %x, not %x\n", texts[i], s->seen, want);
    CU_ASSERT_EQUAL(s->seen & ~s->req_known, 0);
    int none = i == 0 || i == 5 || i + 1 == sizeof texts / sizeof *texts;
    CU_ASSERT_EQUAL(s->seen == 0, none);
    all |= s->seen;
  }
  CU_ASSERT_EQUAL(all, s->req_known);
  xmt_segmenter_free(s);
}

static CU_TestInfo index_tests[] = {
    {"rules that may end with two units, by their slot", test_pair_index},
    {"rules tested alone at a position", test_tested_bits},
    {"required characters noted in the conversion", test_seen_in_conversion},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/srx index", NULL, NULL, NULL, NULL, index_tests},
    CU_SUITE_INFO_NULL,
};
