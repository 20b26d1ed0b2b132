/* test_projector_tokens.c -- tokenizers and the mapping of tokenizer output
 * (Moses, SentencePiece, BPE) back onto raw text as byte ranges. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "xmt_projector.h"

#define STR_LEN(s) (s), (sizeof(s) - 1)

/* Asserts the exact ranges of tokens, printing both lists on a difference. */
#define ASSERT_TOKENS(tokens, ...)                                             \
  assert_tokens((tokens), (const struct xmt_token[]){__VA_ARGS__},             \
                sizeof((const struct xmt_token[]){__VA_ARGS__}) /              \
                    sizeof(struct xmt_token),                                  \
                __LINE__)

static void assert_tokens(const xmt_tokens *tokens,
                          const struct xmt_token *expected, size_t n,
                          int line) {
  size_t count = xmt_tokens_count(tokens);
  const struct xmt_token *got = xmt_tokens_array(tokens);
  int same = count == n;
  for (size_t i = 0; same && i < n; i++)
    same = got[i].start == expected[i].start && got[i].end == expected[i].end;
  if (!same) {
    fprintf(stderr, "\nline %d: got", line);
    for (size_t i = 0; i < count; i++)
      fprintf(stderr, " {%zu, %zu}", got[i].start, got[i].end);
    fprintf(stderr, "\n  expected");
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, " {%zu, %zu}", expected[i].start, expected[i].end);
    fprintf(stderr, "\n");
  }
  /* Reported at the caller's line. */
  CU_assertImplementation(same ? CU_TRUE : CU_FALSE, (unsigned int)line,
                          "ASSERT_TOKENS", __FILE__, "", CU_FALSE);
}

/* Tokenizes text (NUL-terminated) into a fresh tokens object. */
static xmt_tokens *tokenize(const char *text, enum xmt_tokenizer tokenizer) {
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  CU_ASSERT_EQUAL(xmt_tokenize(tokens, text, strlen(text), tokenizer), XMT_OK);
  return tokens;
}

static xmt_tokens *map_ok(const char *raw, const char *tokenized,
                          enum xmt_token_style style) {
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  size_t bad = 12345;
  CU_ASSERT_EQUAL(xmt_tokens_map(tokens, raw, strlen(raw), tokenized,
                                 strlen(tokenized), style, &bad),
                  XMT_OK);
  CU_ASSERT_EQUAL(bad, 12345); /* untouched on success */
  return tokens;
}

/* Asserts a mismatch at token expected_bad, and that the tokens before it
 * were mapped (the documented half-filled state). */
static void map_bad(const char *raw, const char *tokenized,
                    enum xmt_token_style style, size_t expected_bad) {
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  size_t bad = 12345;
  CU_ASSERT_EQUAL(xmt_tokens_map(tokens, raw, strlen(raw), tokenized,
                                 strlen(tokenized), style, &bad),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(bad, expected_bad);
  CU_ASSERT_EQUAL(xmt_tokens_count(tokens), expected_bad);
  /* bad_token may be NULL. */
  CU_ASSERT_EQUAL(xmt_tokens_map(tokens, raw, strlen(raw), tokenized,
                                 strlen(tokenized), style, NULL),
                  XMT_ERR_USAGE);
  xmt_tokens_free(tokens);
}

/* --- The tokens object -----------------------------------------------------
 */

static void test_new_is_empty(void) {
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  CU_ASSERT_EQUAL(xmt_tokens_count(tokens), 0);
  CU_ASSERT_EQUAL(xmt_tokens_count(NULL), 0);
  CU_ASSERT_PTR_NULL(xmt_tokens_array(NULL));
  xmt_tokens_free(tokens);
  xmt_tokens_free(NULL);
}

static void test_append_order(void) {
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 0, 3), XMT_OK);
  /* Adjacent, then zero-width at the previous end, then a gap. */
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 3, 4), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 4, 4), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 6, 9), XMT_OK);
  /* Reversed, overlapping, and before the previous end. */
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 12, 10), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 8, 10), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 0, 1), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_append(NULL, 0, 1), XMT_ERR_USAGE);
  ASSERT_TOKENS(tokens, {0, 3}, {3, 4}, {4, 4}, {6, 9});
  xmt_tokens_free(tokens);
}

static void test_append_many(void) {
  /* Past several doublings of the array. */
  xmt_tokens *tokens = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
  for (size_t i = 0; i < 1000; i++)
    CU_ASSERT_EQUAL(xmt_tokens_append(tokens, 2 * i, 2 * i + 1), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_tokens_count(tokens), 1000);
  const struct xmt_token *a = xmt_tokens_array(tokens);
  CU_ASSERT_EQUAL(a[0].start, 0);
  CU_ASSERT_EQUAL(a[999].start, 1998);
  CU_ASSERT_EQUAL(a[999].end, 1999);
  /* Tokenizing clears first. */
  CU_ASSERT_EQUAL(xmt_tokenize(tokens, STR_LEN("a b"), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  ASSERT_TOKENS(tokens, {0, 1}, {2, 3});
  xmt_tokens_free(tokens);
}

/* --- Default tokenizer (ICU word boundaries) --------------------------------
 * What ICU 72's root word rules answer; a newer ICU may differ on URLs and
 * e-mail addresses. */

static void test_default_english(void) {
  xmt_tokens *t = tokenize("Don't stop... (1) it's 3.5 EUR-Lex e.g. here),",
                           XMT_TOKENIZE_DEFAULT);
  /* Don't stop . . . ( 1 ) it's 3.5 EUR - Lex e.g . here ) , */
  ASSERT_TOKENS(t, {0, 5}, {6, 10}, {10, 11}, {11, 12}, {12, 13}, {14, 15},
                {15, 16}, {16, 17}, {18, 22}, {23, 26}, {27, 30}, {30, 31},
                {31, 34}, {35, 38}, {38, 39}, {40, 44}, {44, 45}, {45, 46});
  xmt_tokens_free(t);
}

static void test_default_article(void) {
  xmt_tokens *t = tokenize("Article 3(1)(a)", XMT_TOKENIZE_DEFAULT);
  /* Article 3 ( 1 ) ( a ) */
  ASSERT_TOKENS(t, {0, 7}, {8, 9}, {9, 10}, {10, 11}, {11, 12}, {12, 13},
                {13, 14}, {14, 15});
  xmt_tokens_free(t);
}

static void test_default_symbols(void) {
  /* § 12 - - - _ _ _ a_b 1,234.56 5 % -- a run of connector punctuation
   * gets word status from ICU but is split all the same. */
  xmt_tokens *t =
      tokenize("\xC2\xA7 12 --- ___ a_b 1,234.56 5%", XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 2}, {3, 5}, {6, 7}, {7, 8}, {8, 9}, {10, 11}, {11, 12},
                {12, 13}, {14, 17}, {18, 26}, {27, 28}, {28, 29});
  xmt_tokens_free(t);
}

static void test_default_url_email(void) {
  xmt_tokens *t =
      tokenize("See https://eur-lex.europa.eu/x?a=1&b=2 or info@example.eu.",
               XMT_TOKENIZE_DEFAULT);
  /* See https : / / eur - lex.europa.eu / x ? a = 1 & b = 2 or
   * info@example.eu . */
  ASSERT_TOKENS(t, {0, 3}, {4, 9}, {9, 10}, {10, 11}, {11, 12}, {12, 15},
                {15, 16}, {16, 29}, {29, 30}, {30, 31}, {31, 32}, {32, 33},
                {33, 34}, {34, 35}, {35, 36}, {36, 37}, {37, 38}, {38, 39},
                {40, 42}, {43, 58}, {58, 59});
  xmt_tokens_free(t);
}

static void test_default_emoji(void) {
  /* A flag and a ZWJ family sequence are one character each. */
  xmt_tokens *t = tokenize("a \xF0\x9F\x87\xA9\xF0\x9F\x87\xAA "
                           "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2"
                           "\x80\x8D\xF0\x9F\x91\xA7 x",
                           XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 1}, {2, 10}, {11, 29}, {30, 31});
  xmt_tokens_free(t);
}

static void test_default_german(void) {
  /* „ Größe “ – 3,5 m ² / Die Straße ist schön . */
  xmt_tokens *t =
      tokenize("\xE2\x80\x9EGr\xC3\xB6\xC3\x9F"
               "e\xE2\x80\x9C \xE2\x80\x93 3,5 m\xC2\xB2 Die Stra\xC3\x9F"
               "e ist sch\xC3\xB6n.",
               XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 3}, {3, 10}, {10, 13}, {14, 17}, {18, 21}, {22, 23},
                {23, 25}, {26, 29}, {30, 37}, {38, 41}, {42, 48}, {48, 49});
  xmt_tokens_free(t);
}

static void test_default_french(void) {
  /* « Bonjour » , dit - il à l' Union européenne . -- with the no-break
   * spaces French puts inside guillemets, which are not tokens; the elided
   * article is a token of its own, as translators tag "l'<g>Union</g>". */
  xmt_tokens *t =
      tokenize("\xC2\xAB\xC2\xA0"
               "Bonjour\xC2\xA0\xC2\xBB, dit-il \xC3\xA0 l'Union europ\xC3\xA9"
               "enne.",
               XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 2}, {4, 11}, {13, 15}, {15, 16}, {17, 20}, {20, 21},
                {21, 23}, {24, 26}, {27, 29}, {29, 34}, {35, 46}, {46, 47});
  xmt_tokens_free(t);
  /* The typographic apostrophe too; qu' and Italian dell' as well. */
  t = tokenize("\xC3\xA0 l\xE2\x80\x99Union qu'il dell'anno",
               XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 2}, {3, 7}, {7, 12}, {13, 16}, {16, 18}, {19, 24},
                {24, 28});
  xmt_tokens_free(t);
  /* A number ending a word is a token of its own (a footnote reference
   * glued to its word once tags are removed), but not inside a code. */
  t = tokenize("evaluation7 COVID19 A4 B12C3 2nd", XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 10}, {10, 11}, {12, 17}, {17, 19}, {20, 22}, {23, 28},
                {29, 32});
  xmt_tokens_free(t);
  /* English contractions stay whole: I'm, don't, o'clock. */
  t = tokenize("I'm don't o'clock", XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 3}, {4, 9}, {10, 17});
  xmt_tokens_free(t);
}

static void test_default_hungarian(void) {
  /* Árvíztűrő tükörfúrógép , 2024 . január 1 - jén . */
  xmt_tokens *t = tokenize("\xC3\x81rv\xC3\xADzt\xC5\xB1r\xC5\x91 "
                           "t\xC3\xBCk\xC3\xB6rf\xC3\xBAr\xC3\xB3g\xC3\xA9p, "
                           "2024. janu\xC3\xA1r 1-j\xC3\xA9n.",
                           XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 13}, {14, 31}, {31, 32}, {33, 37}, {37, 38}, {39, 46},
                {47, 48}, {48, 49}, {49, 53}, {53, 54});
  xmt_tokens_free(t);
}

static void test_default_japanese(void) {
  /* これ は テスト です 。 -- ICU's dictionary, no spaces needed. */
  xmt_tokens *t =
      tokenize("\xE3\x81\x93\xE3\x82\x8C\xE3\x81\xAF\xE3\x83\x86\xE3\x82\xB9"
               "\xE3\x83\x88\xE3\x81\xA7\xE3\x81\x99\xE3\x80\x82",
               XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 6}, {6, 9}, {9, 18}, {18, 24}, {24, 27});
  xmt_tokens_free(t);
}

static void test_default_chinese(void) {
  /* 我们 是 中国人 。 */
  xmt_tokens *t = tokenize("\xE6\x88\x91\xE4\xBB\xAC\xE6\x98\xAF\xE4\xB8\xAD"
                           "\xE5\x9B\xBD\xE4\xBA\xBA\xE3\x80\x82",
                           XMT_TOKENIZE_DEFAULT);
  ASSERT_TOKENS(t, {0, 6}, {6, 9}, {9, 18}, {18, 21});
  xmt_tokens_free(t);
}

static void test_default_empty(void) {
  xmt_tokens *t = tokenize("", XMT_TOKENIZE_DEFAULT);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  CU_ASSERT_EQUAL(xmt_tokenize(t, NULL, 0, XMT_TOKENIZE_DEFAULT), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  /* Only spaces, tabs, newlines and a no-break space. */
  CU_ASSERT_EQUAL(xmt_tokenize(t, STR_LEN("  \t\r\n  "), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  /* Only len bytes are read. */
  CU_ASSERT_EQUAL(xmt_tokenize(t, "one two", 3, XMT_TOKENIZE_DEFAULT), XMT_OK);
  ASSERT_TOKENS(t, {0, 3});
  xmt_tokens_free(t);
}

static void test_tokenize_refused(void) {
  xmt_tokens *t = tokenize("keep", XMT_TOKENIZE_DEFAULT);
  CU_ASSERT_EQUAL(xmt_tokenize(NULL, STR_LEN("a"), XMT_TOKENIZE_DEFAULT),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokenize(t, NULL, 3, XMT_TOKENIZE_DEFAULT),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokenize(t, STR_LEN("a"), (enum xmt_tokenizer)7),
                  XMT_ERR_USAGE);
  /* A truncated "é", in both tokenizers. */
  CU_ASSERT_EQUAL(xmt_tokenize(t, STR_LEN("caf\xC3"), XMT_TOKENIZE_DEFAULT),
                  XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(xmt_tokenize(t, STR_LEN("caf\xC3"), XMT_TOKENIZE_WHITESPACE),
                  XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  xmt_tokens_free(t);
}

/* --- Whitespace tokenizer --------------------------------------------------
 */

static void test_whitespace(void) {
  /* "Don't" "stop..." "(1)" "3,5 m²" is three tokens: the no-break space
   * is Unicode White_Space. */
  xmt_tokens *t = tokenize("  Don't\tstop...\n(1)  3,5\xC2\xA0m\xC2\xB2 ",
                           XMT_TOKENIZE_WHITESPACE);
  ASSERT_TOKENS(t, {2, 7}, {8, 15}, {16, 19}, {21, 24}, {26, 29});
  xmt_tokens_free(t);
  /* Ideographic space U+3000 and a trailing one. */
  t = tokenize("\xE6\x88\x91\xE4\xBB\xAC\xE3\x80\x80\xE6\x98\xAF ",
               XMT_TOKENIZE_WHITESPACE);
  ASSERT_TOKENS(t, {0, 6}, {9, 12});
  xmt_tokens_free(t);
  t = tokenize(" \t ", XMT_TOKENIZE_WHITESPACE);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  xmt_tokens_free(t);
}

/* --- Moses -----------------------------------------------------------------
 */

static void test_moses_plain(void) {
  /* Don 't stop . . . */
  xmt_tokens *t =
      map_ok("Don't stop...", "Don &apos;t stop . . .", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 3}, {3, 5}, {6, 10}, {10, 11}, {11, 12}, {12, 13});
  xmt_tokens_free(t);
  /* Article 3 ( 1 ) ( a ) */
  t = map_ok("Article 3(1)(a)", "Article 3 ( 1 ) ( a )", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 7}, {8, 9}, {9, 10}, {10, 11}, {11, 12}, {12, 13},
                {13, 14}, {14, 15});
  xmt_tokens_free(t);
}

static void test_moses_escapes(void) {
  /* "A&B" < x > 'y' | [z] */
  xmt_tokens *t = map_ok("\"A&B\" <x> 'y' | [z]",
                         "&quot; A &amp; B &quot; &lt; x &gt; &apos; y &apos; "
                         "&#124; &#91; z &#93;",
                         XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {6, 7}, {7, 8},
                {8, 9}, {10, 11}, {11, 12}, {12, 13}, {14, 15}, {16, 17},
                {17, 18}, {18, 19});
  xmt_tokens_free(t);
  /* Escapes inside a token: AT&T stays one Moses token. */
  t = map_ok("AT&T's", "AT&amp;T &apos;s", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 4}, {4, 6});
  xmt_tokens_free(t);
  /* A raw "&amp;" is escaped by Moses as "&amp;amp;". */
  t = map_ok("x &amp; y", "x &amp;amp; y", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 1}, {2, 7}, {8, 9});
  xmt_tokens_free(t);
  /* Output of tokenizer.perl -no-escape maps too. */
  t = map_ok("\"A&B\"", "\" A & B \"", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5});
  xmt_tokens_free(t);
}

static void test_moses_hyphen(void) {
  /* EUR @-@ Lex (tokenizer.perl -a) */
  xmt_tokens *t =
      map_ok("EUR-Lex, dit-il", "EUR @-@ Lex , dit @-@ il", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 3}, {3, 4}, {4, 7}, {7, 8}, {9, 12}, {12, 13}, {13, 15});
  xmt_tokens_free(t);
  /* Without -a the hyphen stays inside the token. */
  t = map_ok("EUR-Lex", "EUR-Lex", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 7});
  xmt_tokens_free(t);
  /* A literal "@-@" in raw is matched literally. */
  t = map_ok("a @-@ b", "a @-@ b", XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 1}, {2, 5}, {6, 7});
  xmt_tokens_free(t);
}

static void test_moses_spacing_utf8(void) {
  /* Runs of spaces, tabs, leading and trailing spaces and a final newline
   * in the tokenized string; a no-break space and a tab in raw. */
  xmt_tokens *t =
      map_ok("  Gr\xC3\xB6\xC3\x9F"
             "e:\t5\xC2\xA0\xE2\x82\xAC \xC2\xAB\xC2\xA0ok\xC2\xA0\xC2\xBB",
             "   Gr\xC3\xB6\xC3\x9F"
             "e   :  5\t\xE2\x82\xAC \xC2\xAB ok \xC2\xBB \n",
             XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {2, 9}, {9, 10}, {11, 12}, {14, 17}, {18, 20}, {22, 24},
                {26, 28});
  xmt_tokens_free(t);
  /* Japanese tokenized by spaces, none in raw. */
  t = map_ok("\xE3\x81\x93\xE3\x82\x8C\xE3\x81\xAF\xE3\x83\x86\xE3\x82\xB9\xE3"
             "\x83\x88\xE3\x81\xA7\xE3\x81\x99\xE3\x80\x82",
             "\xE3\x81\x93\xE3\x82\x8C \xE3\x81\xAF "
             "\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88 \xE3\x81\xA7\xE3\x81\x99 "
             "\xE3\x80\x82",
             XMT_TOKENS_MOSES);
  ASSERT_TOKENS(t, {0, 6}, {6, 9}, {9, 18}, {18, 24}, {24, 27});
  xmt_tokens_free(t);
}

static void test_moses_empty(void) {
  xmt_tokens *t = map_ok("", "", XMT_TOKENS_MOSES);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  xmt_tokens_free(t);
  t = map_ok("  ", " \n", XMT_TOKENS_MOSES);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  xmt_tokens_free(t);
}

static void test_moses_mismatch(void) {
  /* A changed word. */
  map_bad("Don't stop now", "Don &apos;t halt now", XMT_TOKENS_MOSES, 2);
  /* Quotes converted to other characters are not tolerated. */
  map_bad("say \"hi\"", "say `` hi ''", XMT_TOKENS_MOSES, 1);
  /* An escape that does not stand for the raw character. */
  map_bad("a & b", "a &lt; b", XMT_TOKENS_MOSES, 1);
  /* A token running past the end of raw. */
  map_bad("ab", "abc", XMT_TOKENS_MOSES, 0);
  /* More tokens than raw text. */
  map_bad("one two", "one two three", XMT_TOKENS_MOSES, 2);
  /* Raw text left after the last token: the missing token is one past the
   * end. */
  map_bad("one two three", "one two", XMT_TOKENS_MOSES, 2);
  map_bad("abc", "ab", XMT_TOKENS_MOSES, 1);
  map_bad("x", "", XMT_TOKENS_MOSES, 0);
  /* Tokens out of order. */
  map_bad("a b", "b a", XMT_TOKENS_MOSES, 0);
}

static void test_map_refused(void) {
  xmt_tokens *t = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  size_t bad = 7;
  CU_ASSERT_EQUAL(
      xmt_tokens_map(NULL, STR_LEN("a"), STR_LEN("a"), XMT_TOKENS_MOSES, &bad),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_tokens_map(t, NULL, 1, STR_LEN("a"), XMT_TOKENS_MOSES, &bad),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_tokens_map(t, STR_LEN("a"), NULL, 1, XMT_TOKENS_MOSES, &bad),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_map(t, STR_LEN("a"), STR_LEN("a"),
                                 (enum xmt_token_style)9, &bad),
                  XMT_ERR_USAGE);
  /* Invalid UTF-8 on either side: an encoding error, not a mismatch. */
  CU_ASSERT_EQUAL(xmt_tokens_map(t, STR_LEN("caf\xC3\xA9"), STR_LEN("caf\xC3"),
                                 XMT_TOKENS_MOSES, &bad),
                  XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(
      xmt_tokens_map(t, STR_LEN("\xFF"), STR_LEN("a"), XMT_TOKENS_MOSES, &bad),
      XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(bad, 7);
  /* Mapping clears first; NULL with length 0 is empty. */
  CU_ASSERT_EQUAL(xmt_tokens_append(t, 0, 9), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_map(t, NULL, 0, NULL, 0, XMT_TOKENS_BPE, &bad),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_count(t), 0);
  xmt_tokens_free(t);
}

/* --- SentencePiece -----------------------------------------------------------
 */

static void test_spm_plain(void) {
  /* ▁The ▁Europe an ▁Union . */
  xmt_tokens *t = map_ok("The European Union.",
                         "\xE2\x96\x81The \xE2\x96\x81"
                         "Europe an \xE2\x96\x81Union .",
                         XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 3}, {4, 10}, {10, 12}, {13, 18}, {18, 19});
  xmt_tokens_free(t);
  /* Extra spaces in raw are collapsed by SentencePiece: ▁ stands for any
   * run, and leading and trailing ones. */
  t = map_ok("  a   b\t",
             "\xE2\x96\x81"
             "a \xE2\x96\x81"
             "b",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {2, 3}, {6, 7});
  xmt_tokens_free(t);
  /* ▁ is not required where raw has no space (normalisation may remove
   * one). */
  t = map_ok("ab",
             "\xE2\x96\x81"
             "a \xE2\x96\x81"
             "b",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 1}, {1, 2});
  xmt_tokens_free(t);
  /* Whitespace as suffix (treat_whitespace_as_suffix=true). */
  t = map_ok("Hello world", "Hel lo\xE2\x96\x81 world\xE2\x96\x81",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 3}, {3, 5}, {6, 11});
  xmt_tokens_free(t);
}

static void test_spm_lone_space(void) {
  /* A lone ▁ is a piece the aligner counted, so it gets a zero-width token
   * at the next non-space character: here 0, then 6 ("中国"), then the end
   * of raw for a trailing one. Indexes of later pieces stay those of the
   * aligner. */
  xmt_tokens *t =
      map_ok("\xE6\x88\x91\xE4\xBB\xAC \xE4\xB8\xAD\xE5\x9B\xBD\xE4\xBA\xBA",
             "\xE2\x96\x81 \xE6\x88\x91\xE4\xBB\xAC \xE2\x96\x81 "
             "\xE4\xB8\xAD\xE5\x9B\xBD \xE4\xBA\xBA \xE2\x96\x81",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 0}, {0, 6}, {7, 7}, {7, 13}, {13, 16}, {16, 16});
  xmt_tokens_free(t);
  /* "(1)" after a space: ▁ ( 1 ) */
  t = map_ok("see (1)", "\xE2\x96\x81see \xE2\x96\x81 ( 1 )",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 3}, {4, 4}, {4, 5}, {5, 6}, {6, 7});
  xmt_tokens_free(t);
}

static void test_spm_cjk(void) {
  /* ▁我们 是 中国 人 。 */
  xmt_tokens *t = map_ok("\xE6\x88\x91\xE4\xBB\xAC\xE6\x98\xAF\xE4\xB8\xAD\xE5"
                         "\x9B\xBD\xE4\xBA\xBA\xE3\x80\x82",
                         "\xE2\x96\x81\xE6\x88\x91\xE4\xBB\xAC \xE6\x98\xAF "
                         "\xE4\xB8\xAD\xE5\x9B\xBD \xE4\xBA\xBA \xE3\x80\x82",
                         XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 6}, {6, 9}, {9, 15}, {15, 18}, {18, 21});
  xmt_tokens_free(t);
  /* ▁これは テスト です 。 */
  t = map_ok("\xE3\x81\x93\xE3\x82\x8C\xE3\x81\xAF\xE3\x83\x86\xE3\x82\xB9\xE3"
             "\x83\x88\xE3\x81\xA7\xE3\x81\x99\xE3\x80\x82",
             "\xE2\x96\x81\xE3\x81\x93\xE3\x82\x8C\xE3\x81\xAF "
             "\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88 \xE3\x81\xA7\xE3\x81\x99 "
             "\xE3\x80\x82",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 9}, {9, 18}, {18, 24}, {24, 27});
  xmt_tokens_free(t);
}

static void test_spm_inner_space(void) {
  /* split_by_whitespace=false: a piece may span words; its range then
   * covers the space inside it. */
  xmt_tokens *t =
      map_ok("in New  York", "\xE2\x96\x81in \xE2\x96\x81New\xE2\x96\x81York",
             XMT_TOKENS_SENTENCEPIECE);
  ASSERT_TOKENS(t, {0, 2}, {3, 12});
  xmt_tokens_free(t);
  map_bad("in NewYork", "\xE2\x96\x81in \xE2\x96\x81New\xE2\x96\x81York",
          XMT_TOKENS_SENTENCEPIECE, 1);
}

static void test_spm_mismatch(void) {
  /* A piece without ▁ continues the previous one: no space between. */
  map_bad("a b",
          "\xE2\x96\x81"
          "a b",
          XMT_TOKENS_SENTENCEPIECE, 1);
  /* Moses escapes mean nothing to SentencePiece. */
  map_bad("A&B",
          "\xE2\x96\x81"
          "A &amp; B",
          XMT_TOKENS_SENTENCEPIECE, 1);
  /* Normalised characters (NFKC) are not undone. */
  map_bad("\xEF\xBC\x88"
          "1\xEF\xBC\x89",
          "\xE2\x96\x81( 1 )", XMT_TOKENS_SENTENCEPIECE, 0);
  /* Text left over. */
  map_bad("ab c",
          "\xE2\x96\x81"
          "ab",
          XMT_TOKENS_SENTENCEPIECE, 1);
}

/* --- BPE (subword-nmt)
 * -------------------------------------------------------- */

static void test_bpe_plain(void) {
  /* Euro@@ pe@@ an Union . -- ranges leave out "@@". */
  xmt_tokens *t =
      map_ok("European Union.", "Euro@@ pe@@ an Union .", XMT_TOKENS_BPE);
  ASSERT_TOKENS(t, {0, 4}, {4, 6}, {6, 8}, {9, 14}, {14, 15});
  xmt_tokens_free(t);
  /* Multi-byte pieces and several spaces. */
  t = map_ok("Gr\xC3\xB6\xC3\x9F"
             "e sch\xC3\xB6n",
             "Gr\xC3\xB6@@  \xC3\x9F"
             "e   sch\xC3\xB6n",
             XMT_TOKENS_BPE);
  ASSERT_TOKENS(t, {0, 4}, {4, 7}, {8, 14});
  xmt_tokens_free(t);
  /* A bare "@@" is a literal piece. */
  t = map_ok("a @@ b", "a @@ b", XMT_TOKENS_BPE);
  ASSERT_TOKENS(t, {0, 1}, {2, 4}, {5, 6});
  xmt_tokens_free(t);
}

static void test_bpe_over_moses(void) {
  /* subword-nmt normally runs on Moses output: escapes and "@-@" decode. */
  xmt_tokens *t = map_ok("EUR-Lex & co's", "EU@@ R @-@ Lex &amp; co &apos;s",
                         XMT_TOKENS_BPE);
  ASSERT_TOKENS(t, {0, 2}, {2, 3}, {3, 4}, {4, 7}, {8, 9}, {10, 12}, {12, 14});
  xmt_tokens_free(t);
}

static void test_bpe_mismatch(void) {
  /* Joined pieces must be adjacent in raw. */
  map_bad("Euro pean", "Euro@@ pean", XMT_TOKENS_BPE, 1);
  map_bad("European", "Euro@@ pan", XMT_TOKENS_BPE, 1);
  /* Without the join there is no such constraint (Moses splits words). */
  xmt_tokens *t = map_ok("don't", "don 't", XMT_TOKENS_BPE);
  ASSERT_TOKENS(t, {0, 3}, {3, 5});
  xmt_tokens_free(t);
}

/* --- Tokens cut where a tag cuts a word ------------------------------------
 * The source is written with "{" for a pair's OPEN, "}" for its CLOSE and
 * "^" for a placeholder; the tokens come back as their text joined with
 * "|". */

static void join_tokens(const xmt_tokens *tokens, const char *text, char *buf,
                        size_t size) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < xmt_tokens_count(tokens) && at < size; i++) {
    const struct xmt_token *t = &xmt_tokens_array(tokens)[i];
    at += (size_t)snprintf(buf + at, size - at, "%s%.*s", i ? "|" : "",
                           (int)(t->end - t->start), text + t->start);
  }
}

/* Cuts the default tokens of marked (see above) and of target; the
 * joined tokens of each side in src and tgt. */
static void cut_tokens(const char *marked, const char *target, char *src,
                       char *tgt, size_t size) {
  xmt_segment *seg = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  CU_ASSERT_FATAL(seg && st && tt);
  for (const char *p = marked; *p != '\0'; p++) {
    static const char *const id[] = {"1", "2", "3", "4", "5", "6"};
    static size_t depth, opened;
    if (p == marked)
      depth = opened = 0;
    if (*p == '{') {
      CU_ASSERT_FATAL(opened < 6);
      CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, id[opened++],
                                             "g", "<g>", 3),
                      XMT_OK);
      depth++;
    } else if (*p == '}') {
      CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_CLOSE,
                                             id[opened - depth], "g", "</g>",
                                             4),
                      XMT_OK);
      depth--;
    } else if (*p == '^') {
      CU_ASSERT_EQUAL(
          xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, "9", "x", "<x/>", 4),
          XMT_OK);
    } else {
      CU_ASSERT_EQUAL(xmt_segment_append_text(seg, p, 1), XMT_OK);
    }
  }
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  CU_ASSERT_EQUAL(xmt_tokenize(st, text, len, XMT_TOKENIZE_DEFAULT), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_tokenize(tt, target, strlen(target), XMT_TOKENIZE_DEFAULT), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_cut_at_tags(st, seg, tt, target, strlen(target)),
                  XMT_OK);
  join_tokens(st, text, src, size);
  join_tokens(tt, target, tgt, size);
  xmt_segment_free(seg);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
}

#define ASSERT_CUT(marked, target, want_src, want_tgt)                         \
  do {                                                                         \
    char src_[512], tgt_[512];                                                 \
    cut_tokens((marked), (target), src_, tgt_, sizeof src_);                   \
    CU_ASSERT_STRING_EQUAL(src_, (want_src));                                  \
    CU_ASSERT_STRING_EQUAL(tgt_, (want_tgt));                                  \
  } while (0)

static void test_cut_same_pieces(void) {
  /* the piece after the cut ends a target token, the one before starts
   * one; the mark is a token of its own */
  ASSERT_CUT("debian/{package}.symbols", "debian/Paket.symbols",
             "debian|/|package|.|symbols", "debian|/|Paket|.|symbols");
  ASSERT_CUT("checkers (fsck.{type})", "Programme (/sbin/fsck.Typ)",
             "checkers|(|fsck|.|type|)", "Programme|(|/|sbin|/|fsck|.|Typ|)");
  ASSERT_CUT("read journald@{NAMESPACE}.conf now",
             "lesen journald@NAMENSRAUM.conf jetzt",
             "read|journald|@|NAMESPACE|.|conf|now",
             "lesen|journald|@|NAMENSRAUM|.|conf|jetzt");
  /* ASCII case aside */
  ASSERT_CUT("file {package}_version_arch.deb", "Datei Paket_Version_Arch.deb",
             "file|package|_|version_arch.deb",
             "Datei|Paket|_|Version_Arch.deb");
  /* the word kept as it is: cut the same way */
  ASSERT_CUT("see {foo}.conf here", "siehe foo.conf hier",
             "see|foo|.|conf|here", "siehe|foo|.|conf|hier");
}

static void test_cut_marks(void) {
  /* no piece comes back: the one token with as many "@" */
  ASSERT_CUT("the form {name}@hostname.", "la forme nom@nom_h\xC3\xB4te.",
             "the|form|name|@|hostname|.", "la|forme|nom|@|nom_h\xC3\xB4te|.");
  /* two tokens with one "@": none is cut */
  ASSERT_CUT("the form {name}@hostname.", "a@b nom@nom_h\xC3\xB4te.",
             "the|form|name|@|hostname|.", "a@b|nom@nom_h\xC3\xB4te|.");
  /* as many source tokens as target ones: in order */
  ASSERT_CUT("{source-name}_{binary-version}_arch or "
             "{source-name}_{source-version}_all",
             "Quellname_Bin\xC3\xA4rversion_Arch oder "
             "Quellname_Quellversion_all",
             "source|-|name|_|binary|-|version|_|arch|or|source|-|name|_|"
             "source|-|version|_|all",
             "Quellname|_|Bin\xC3\xA4rversion|_|Arch|oder|Quellname|_|"
             "Quellversion|_|all");
}

static void test_cut_left_whole(void) {
  /* a tag inside a run of letters, a placeholder, a tag between tokens */
  ASSERT_CUT("the {file}s and fo^o.bar", "die Dateien und foo.bar",
             "the|files|and|foo.bar", "die|Dateien|und|foo.bar");
  ASSERT_CUT("the {package}.", "das Paket.", "the|package|.", "das|Paket|.");
  /* no target tokens: the source alone ("x a.<g>bc</g>") */
  xmt_segment *seg = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new();
  CU_ASSERT_FATAL(seg && st);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, STR_LEN("x a.")), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", "g", NULL, 0),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, STR_LEN("bc")), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "1", "g", NULL, 0),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokenize(st, STR_LEN("x a.bc"), XMT_TOKENIZE_DEFAULT),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_cut_at_tags(st, seg, NULL, NULL, 0), XMT_OK);
  ASSERT_TOKENS(st, {0, 1}, {2, 3}, {3, 4}, {4, 6});
  CU_ASSERT_EQUAL(xmt_tokens_cut_at_tags(NULL, seg, NULL, NULL, 0),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_cut_at_tags(st, NULL, NULL, NULL, 0),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_tokens_cut_at_tags(st, seg, st, NULL, 1), XMT_ERR_USAGE);
  xmt_segment_free(seg);
  xmt_tokens_free(st);
}

static CU_TestInfo tokens_tests[] = {
    {"new tokens are empty", test_new_is_empty},
    {"append validates order", test_append_order},
    {"append many, tokenize clears", test_append_many},
    {"default: English", test_default_english},
    {"default: Article 3(1)(a)", test_default_article},
    {"default: symbols and numbers", test_default_symbols},
    {"default: URL and e-mail", test_default_url_email},
    {"default: emoji", test_default_emoji},
    {"default: German", test_default_german},
    {"default: French", test_default_french},
    {"default: Hungarian", test_default_hungarian},
    {"default: Japanese", test_default_japanese},
    {"default: Chinese", test_default_chinese},
    {"default: empty and spaces", test_default_empty},
    {"tokenize refuses bad arguments", test_tokenize_refused},
    {"whitespace tokenizer", test_whitespace},
    {"moses: plain", test_moses_plain},
    {"moses: escapes", test_moses_escapes},
    {"moses: aggressive hyphen", test_moses_hyphen},
    {"moses: spacing and UTF-8", test_moses_spacing_utf8},
    {"moses: empty", test_moses_empty},
    {"moses: mismatches", test_moses_mismatch},
    {"map refuses bad arguments", test_map_refused},
    {"sentencepiece: plain", test_spm_plain},
    {"sentencepiece: lone U+2581", test_spm_lone_space},
    {"sentencepiece: CJK", test_spm_cjk},
    {"sentencepiece: space inside a piece", test_spm_inner_space},
    {"sentencepiece: mismatches", test_spm_mismatch},
    {"bpe: plain", test_bpe_plain},
    {"bpe: over Moses output", test_bpe_over_moses},
    {"bpe: mismatches", test_bpe_mismatch},
    {"cut at tags: the same pieces", test_cut_same_pieces},
    {"cut at tags: the same marks", test_cut_marks},
    {"cut at tags: words left whole", test_cut_left_whole},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"projector/tokens", NULL, NULL, NULL, NULL, tokens_tests},
    CU_SUITE_INFO_NULL,
};
