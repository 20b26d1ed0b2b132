/* test_filter_srx_lazy.c -- the local forms of the shipped no-break rules
 * the C shape decides (filter/segment/srx_shape.c) are compiled by ICU
 * only when the shape leaves a position to ICU (a character above U+00FF
 * counts): ASCII text compiles none of them, and gets the breaks the same
 * rules loaded and compiled whole give. And the text as the rules see
 * it, converted without ICU. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "segmenter_private.h"

static size_t rule_index(const xmt_segmenter *s, const char *name) {
  for (size_t i = 0; i < s->doc.nlangrules; i++)
    if (strcmp(s->doc.langrules[i].name, name) == 0)
      return i;
  CU_FAIL("no such languagerule");
  return 0;
}

/* The rules of a language of the shipped rules by what they are. */
struct census {
  size_t shapes, shapes_compiled, locals, wholes;
};

static struct census census_of(const xmt_segmenter *s, const char *name) {
  struct census c = {0, 0, 0, 0};
  const struct srx_langrule *lr = &s->doc.langrules[rule_index(s, name)];
  for (size_t j = 0; j < lr->nrules; j++) {
    const struct srx_rule *r = &lr->rules[j];
    if (r->shape != NULL && r->has_local) {
      c.shapes++;
      c.shapes_compiled += r->local != NULL;
    } else if (r->local != NULL)
      c.locals++;
    if (r->re != NULL)
      c.wholes++;
  }
  return c;
}

/* Splits text, checks its segments against want (NULL ended) and against
 * the same rules compiled whole; returns the ICU compiles it made. */
static unsigned long split_as(xmt_segmenter *s, xmt_segmenter *whole,
                              const char *text, const char *const *want) {
  unsigned long before = s->regex_compiles;
  const struct xmt_span *sp, *wsp;
  size_t n = 0, wn = 0, k = 0;
  CU_ASSERT_EQUAL_FATAL(xmt_segmenter_split(s, text, strlen(text), &sp, &n),
                        XMT_OK);
  unsigned long made = s->regex_compiles - before;
  for (; want[k] != NULL && k < n; k++) {
    size_t len = sp[k].end - sp[k].start;
    if (len != strlen(want[k]) || memcmp(text + sp[k].start, want[k], len))
      fprintf(stderr, "\n  segment %zu: \"%.*s\", not \"%s\"\n", k, (int)len,
              text + sp[k].start, want[k]);
    CU_ASSERT_EQUAL(len, strlen(want[k]));
    CU_ASSERT_NSTRING_EQUAL(text + sp[k].start, want[k], len);
  }
  CU_ASSERT_EQUAL(k, n);
  CU_ASSERT_PTR_NULL(want[k]);
  CU_ASSERT_EQUAL_FATAL(
      xmt_segmenter_split(whole, text, strlen(text), &wsp, &wn), XMT_OK);
  CU_ASSERT_EQUAL(wn, n);
  CU_ASSERT_TRUE(wn == n && memcmp(sp, wsp, n * sizeof *sp) == 0);
  return made;
}

static xmt_segmenter *whole_rules(const char *lang) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL_FATAL(
      xmt_segmenter_load_srx_memory(s, (const char *)xmt_srx_default,
                                    xmt_srx_default_len, "xliffmt.srx"),
      XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_segmenter_set_language(s, lang), XMT_OK);
  return s;
}

/* English ASCII text compiles nothing: every no-break rule it uses is a
 * C shape (the look-behinds of the Default rules too), and the break
 * rules' whole patterns are compiled only when their find forms leave a
 * find to ICU; a character above U+00FF before a full stop then compiles
 * the local form of the rule of a lower-case letter, once. */
static void test_english(void) {
  xmt_segmenter *s = xmt_segmenter_new(), *whole = whole_rules("en");
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL(s->regex_compiles, 0);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "en-GB"), XMT_OK);
  static const char *const ascii[] = {"He met Mr. Smith at 5 p.m. today.",
                                      "Dr. Watson, e.g. his friend, came.",
                                      "See p. 4 and b. z. here.",
                                      "Call the U.N.",
                                      "It is fine.",
                                      NULL};
  unsigned long made =
      split_as(s, whole,
               "He met Mr. Smith at 5 p.m. today. Dr. Watson, e.g. his friend, "
               "came. See p. 4 and b. z. here. Call the U.N. It is fine.",
               ascii);
  struct census en = census_of(s, "English"), df = census_of(s, "Default");
  CU_ASSERT_EQUAL(en.shapes, 4);
  CU_ASSERT_EQUAL(en.shapes_compiled, 0);
  CU_ASSERT_EQUAL(en.locals + en.wholes, 0);
  CU_ASSERT_EQUAL(df.shapes, 11);
  CU_ASSERT_EQUAL(df.shapes_compiled, 0);
  CU_ASSERT_EQUAL(df.locals, 0);
  CU_ASSERT_EQUAL(df.wholes, 0);
  /* nothing at all: no local form is tried for the CJK no-break rule,
   * whose beforebreak is unbounded, and its whole pattern waits for a CJK
   * full stop */
  CU_ASSERT_EQUAL(made, 0);
  /* compiled once */
  static const char *const again[] = {"Mr. Smith left.", "He came.", NULL};
  CU_ASSERT_EQUAL(split_as(s, whole, "Mr. Smith left. He came.", again), 0);
  /* a-macron: \p{Ll} is ICU's to answer; "\xc4\x81. z." goes on */
  static const char *const macron[] = {"See \xc4\x81. z. Rent is due.",
                                       "It is.", NULL};
  CU_ASSERT_EQUAL(
      split_as(s, whole, "See \xc4\x81. z. Rent is due. It is.", macron), 1);
  df = census_of(s, "Default");
  CU_ASSERT_EQUAL(df.shapes_compiled, 1);
  CU_ASSERT_EQUAL(
      split_as(s, whole, "See \xc4\x81. z. Rent is due. It is.", macron), 0);
  xmt_segmenter_free(s);
  xmt_segmenter_free(whole);
}

/* Every shipped rule read as a shape has a local form ICU compiles: the
 * segmenter counts on it when it leaves the compile for later. */
static void test_every_shape_compiles(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  size_t shapes = 0;
  for (size_t i = 0; i < s->doc.nlangrules; i++) {
    struct srx_langrule *lr = &s->doc.langrules[i];
    CU_ASSERT_EQUAL_FATAL(xmt_srx_compile_langrule(s, lr), XMT_OK);
    for (size_t j = 0; j < lr->nrules; j++) {
      struct srx_rule *r = &lr->rules[j];
      if (r->shape == NULL || !r->has_local)
        continue; /* searched rules have a find form */
      shapes++;
      CU_ASSERT_PTR_NULL(r->local);
      CU_ASSERT_PTR_NULL(r->re);
      UErrorCode ust = U_ZERO_ERROR;
      CU_ASSERT_PTR_NOT_NULL(xmt_srx_rule_local(s, r, &ust));
      CU_ASSERT_TRUE(U_SUCCESS(ust));
      CU_ASSERT_PTR_NULL(r->before);
      /* a second call compiles nothing */
      unsigned long n = s->regex_compiles;
      CU_ASSERT_PTR_EQUAL(xmt_srx_rule_local(s, r, &ust), r->local);
      CU_ASSERT_EQUAL(s->regex_compiles, n);
    }
  }
  CU_ASSERT_TRUE(shapes >= 11);
  xmt_segmenter_free(s);
}

/* Rules of a file the user gives are compiled whole as they are read, so
 * that a bad one is reported with its line then. */
static void test_user_rules_at_load(void) {
  xmt_segmenter *s = whole_rules("en");
  unsigned long n = s->regex_compiles;
  CU_ASSERT_TRUE(n > 30);
  const struct srx_langrule *en = &s->doc.langrules[rule_index(s, "English")];
  CU_ASSERT_TRUE(en->compiled);
  CU_ASSERT_PTR_NOT_NULL(en->rules[0].shape);
  CU_ASSERT_PTR_NOT_NULL(en->rules[0].local);
  const struct xmt_span *sp;
  size_t ns = 0;
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, "A b. C", 6, &sp, &ns), XMT_OK);
  CU_ASSERT_EQUAL(s->regex_compiles, n);
  xmt_segmenter_free(s);
}

/* The text as the rules see it (s->u16, s->u8_at back to bytes, an index
 * below s->u8_same its own offset and not stored there): ASCII
 * runs cut by the isolated codes (spaces here), line breaks as spaces when
 * flowed, a character above U+FFFF as two units; a code at or past the
 * text's end is a space after it, nothing past the text read. */
static void rule_text_is(xmt_segmenter *s, const char *text,
                         const size_t *codes, size_t ncodes, int flowed,
                         const char *want16, const size_t *want8) {
  size_t len = strlen(text), n = strlen(want16);
  CU_ASSERT_EQUAL_FATAL(xmt_srx_run(s, "en", text, len, codes, ncodes, flowed),
                        XMT_OK);
  for (size_t k = 0; k < n; k++) {
    UChar want = (unsigned char)want16[k] == '#' ? 0xD83D
                 : want16[k] == '$'              ? 0xDE00
                 : want16[k] == '&'              ? 0xE9
                                                 : (UChar)want16[k];
    CU_ASSERT_EQUAL(s->u16[k], want);
    CU_ASSERT_EQUAL(k < s->u8_same ? k : s->u8_at[k], want8[k]);
  }
  CU_ASSERT_TRUE(s->u8_same <= n);
  CU_ASSERT_EQUAL(s->u8_at[n], len);
}

static void test_rule_text(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  s->doc.isolated_as_space = 1;
  static const size_t codes[] = {0, 2, 2, 6, 12};
  static const size_t at[] = {0, 0, 1, 2, 2, 2, 3, 4, 5, 6, 6, 8, 8, 12};
  /* "Ab\ncd é😀" */
  const char *text = "Ab\ncd \xc3\xa9\xf0\x9f\x98\x80";
  rule_text_is(s, text, codes, 5, 1, " Ab   cd  &#$ ", at);
  rule_text_is(s, text, codes, 5, 0, " Ab  \ncd  &#$ ", at);
  /* past the end: after it, in order */
  static const size_t late[] = {3, 40};
  static const size_t at2[] = {0, 1, 2, 3, 3};
  rule_text_is(s, "A.\n", late, 2, 1, "A.   ", at2);
  /* no codes: the run to the end */
  static const size_t at3[] = {0, 1, 2, 3};
  rule_text_is(s, "Hi.\r", NULL, 0, 1, "Hi. ", at3);
  xmt_segmenter_free(s);
}

/* Runs of ASCII long enough to be converted eight bytes at a time, before
 * and after the text stops mapping to itself (at the é), a line break in
 * a block: as the same text byte by byte. */
static void test_rule_text_blocks(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  const char *text = "First line of it\nand more. Caf\xc3\xa9 open all "
                     "day\nand night. Tail";
  char want16[64];
  size_t want8[64], n = 0;
  for (int flowed = 0; flowed <= 1; flowed++) {
    n = 0;
    for (size_t i = 0; text[i] != '\0'; i++, n++) {
      want8[n] = i;
      want16[n] = text[i] == '\n' && flowed ? ' ' : text[i];
      if ((unsigned char)text[i] == 0xc3)
        want16[n] = '&', i++;
    }
    want16[n] = '\0';
    CU_ASSERT_TRUE_FATAL(n < sizeof want16);
    rule_text_is(s, text, NULL, 0, flowed, want16, want8);
    CU_ASSERT_EQUAL(s->u8_same, 30); /* the é */
  }
  xmt_segmenter_free(s);
}

static CU_TestInfo lazy_tests[] = {
    {"English: no local form of a shape compiled for ASCII", test_english},
    {"every shipped shape's local form compiles", test_every_shape_compiles},
    {"user rules compiled as they are read", test_user_rules_at_load},
    {"the text as the rules see it", test_rule_text},
    {"the text as the rules see it, eight bytes at a time",
     test_rule_text_blocks},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/srx lazy locals", NULL, NULL, NULL, NULL, lazy_tests},
    CU_SUITE_INFO_NULL,
};
