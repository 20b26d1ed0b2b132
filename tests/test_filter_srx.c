/* test_filter_srx.c -- SRX segmentation: exact sentence boundaries of the
 * shipped rules per language and of Okapi's default rules, Okapi's options,
 * errors for bad rule files, and XLIFF units segmented in place: codes at
 * boundaries, g pairs cut into bx/ex, exact output, and properties over the
 * shared corpora (whitespace kept byte for byte, every code kept, the
 * written seg-source read back as the same segments). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>

#include "harness.h"
#include "segmenter_private.h"

#define STR_LEN(s) (s), (sizeof(s) - 1)

/* --- Splitting plain text ------------------------------------------------- */

/* Checks the spans of text: in order, not empty, and only whitespace (as
 * Java and Okapi see it) around and between them, so that the sentences
 * and the whitespace between them give back the text byte for byte. With
 * trim, no sentence starts or ends with whitespace. */
static int spans_ok(const char *text, size_t len, const struct xmt_span *sp,
                    size_t n, int trim) {
  size_t at = 0;
  struct xmt_buf rebuilt = {0};
  int ok = 1;
  for (size_t i = 0; i <= n && ok; i++) {
    size_t gap_end = i < n ? sp[i].start : len;
    if (gap_end < at || (i < n && sp[i].end <= sp[i].start) ||
        (i < n && sp[i].end > len)) {
      ok = 0;
      break;
    }
    for (size_t k = at; k < gap_end && ok;) {
      uint32_t cp;
      size_t m = xmt_utf8_decode((const unsigned char *)text + k, len - k, &cp);
      ok = m > 0 && u_isWhitespace((UChar32)cp);
      k += m > 0 ? m : 1;
    }
    xmt_buf_append(&rebuilt, text + at, gap_end - at);
    if (i == n)
      break;
    uint32_t first, last;
    size_t c = sp[i].end - 1;
    while (c > sp[i].start && ((unsigned char)text[c] & 0xC0) == 0x80)
      c--;
    xmt_utf8_decode((const unsigned char *)text + sp[i].start,
                    len - sp[i].start, &first);
    xmt_utf8_decode((const unsigned char *)text + c, len - c, &last);
    if (trim &&
        (u_isWhitespace((UChar32)first) || u_isWhitespace((UChar32)last)))
      ok = 0;
    xmt_buf_append(&rebuilt, text + sp[i].start, sp[i].end - sp[i].start);
    at = sp[i].end;
  }
  if (ok)
    ok = rebuilt.len == len &&
         (len == 0 || memcmp(rebuilt.data, text, len) == 0);
  xmt_buf_free(&rebuilt);
  return ok;
}

/* Splits text in lang and compares the sentences with expected. */
static int split_is(xmt_segmenter *s, const char *lang, const char *text,
                    const char *const *expected, int trim, const char *file,
                    int line) {
  const struct xmt_span *sp = NULL;
  size_t n = 0, len = strlen(text), want = 0;
  while (expected[want] != NULL)
    want++;
  if (xmt_segmenter_set_language(s, lang) != XMT_OK ||
      xmt_segmenter_split(s, text, len, &sp, &n) != XMT_OK) {
    fprintf(stderr, "\n%s:%d: split failed: %s\n", file, line,
            xmt_segmenter_error(s)->message);
    return 0;
  }
  int ok = n == want && spans_ok(text, len, sp, n, trim);
  for (size_t i = 0; ok && i < n; i++)
    ok = strlen(expected[i]) == sp[i].end - sp[i].start &&
         memcmp(expected[i], text + sp[i].start, sp[i].end - sp[i].start) == 0;
  if (!ok) {
    fprintf(stderr, "\n%s:%d: [%s] got %zu sentences:\n", file, line, lang, n);
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "  [%zu,%zu) \"%.*s\"\n", sp[i].start, sp[i].end,
              (int)(sp[i].end - sp[i].start), text + sp[i].start);
    fprintf(stderr, "want %zu:\n", want);
    for (size_t i = 0; i < want; i++)
      fprintf(stderr, "  \"%s\"\n", expected[i]);
  }
  return ok;
}

#define SPLIT_IS(s, lang, text, ...)                                           \
  do {                                                                         \
    static const char *const want_[] = {__VA_ARGS__, NULL};                    \
    CU_ASSERT_TRUE(                                                            \
        split_is((s), (lang), (text), want_, 1, __FILE__, __LINE__));          \
  } while (0)

static xmt_segmenter *shipped(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  return s;
}

static void test_english(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "en",
           "Mr. Holmes is from the U.K. not the U.S. Is Dr. Watson from "
           "there too? Yes: both are.",
           "Mr. Holmes is from the U.K. not the U.S.",
           "Is Dr. Watson from there too?", "Yes: both are.");
  SPLIT_IS(s, "en",
           "Some cities, e.g. Paris, are big. Others, i.e. The Hague, are "
           "not.",
           "Some cities, e.g. Paris, are big.",
           "Others, i.e. The Hague, are not.");
  SPLIT_IS(s, "en-GB",
           "See Art. 5 of Regulation (EC) No. 1234/2007. It applies on "
           "Nov. 3 and pp. 4-5 explain it.",
           "See Art. 5 of Regulation (EC) No. 1234/2007.",
           "It applies on Nov. 3 and pp. 4-5 explain it.");
  /* Legal numbering. */
  SPLIT_IS(s, "en",
           "(1) This Regulation lays down rules. (2) It applies from "
           "today.",
           "(1) This Regulation lays down rules.",
           "(2) It applies from today.");
  SPLIT_IS(s, "en",
           "1. Member States shall act. 2. The Commission shall assist.",
           "1. Member States shall act.", "2. The Commission shall assist.");
  SPLIT_IS(s, "en", "Scope. 1.2. This Directive applies. IV. Final provisions",
           "Scope.", "1.2. This Directive applies.", "IV. Final provisions");
  SPLIT_IS(s, "en", "Article 3. Definitions", "Article 3. Definitions");
  SPLIT_IS(s, "en",
           "It is laid down in Article 3. The Commission shall act as "
           "referred to in point (a). Member States shall inform it.",
           "It is laid down in Article 3.",
           "The Commission shall act as referred to in point (a).",
           "Member States shall inform it.");
  SPLIT_IS(s, "en", "Point (a) of Article 3(1) applies. So does point (b).",
           "Point (a) of Article 3(1) applies.", "So does point (b).");
  /* Numbers, initials, ellipses, quotes and brackets. */
  SPLIT_IS(s, "en",
           "The rate is 3.5 percent. It rose by 0.25 points to 1,000.50 "
           "EUR. Then it fell.",
           "The rate is 3.5 percent.",
           "It rose by 0.25 points to 1,000.50 EUR.", "Then it fell.");
  SPLIT_IS(s, "en", "J. R. R. Tolkien wrote it. John F. Kennedy read it.",
           "J. R. R. Tolkien wrote it.", "John F. Kennedy read it.");
  SPLIT_IS(s, "en",
           "He paused... and left. Wait... What? The Regulation [...] "
           "Member States act (...) Then.",
           "He paused... and left.", "Wait...", "What?",
           "The Regulation [...] Member States act (...) Then.");
  SPLIT_IS(s, "en",
           "He said \"Stop.\" Then he left. (See Annex I.) The rest 'is "
           "here.' \xE2\x80\x9CYes!\xE2\x80\x9D She agreed.",
           "He said \"Stop.\"", "Then he left.", "(See Annex I.)",
           "The rest 'is here.'", "\xE2\x80\x9CYes!\xE2\x80\x9D",
           "She agreed.");
  xmt_segmenter_free(s);
}

static void test_german(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "de",
           "Viele Städte, z. B. Berlin und Wien, sind groß. Am 3. Oktober "
           "ist Feiertag. Siehe Art. 5 Abs. 2 der Verordnung Nr. 1234/2007. "
           "Das gilt d.h. Immer.",
           "Viele Städte, z. B. Berlin und Wien, sind groß.",
           "Am 3. Oktober ist Feiertag.",
           "Siehe Art. 5 Abs. 2 der Verordnung Nr. 1234/2007.",
           "Das gilt d.h. Immer.");
  SPLIT_IS(s, "de-AT", "Im Jahr 2020. Die Kommission handelt.", "Im Jahr 2020.",
           "Die Kommission handelt.");
  SPLIT_IS(s, "de", "Dr. Müller kommt, vgl. Anhang II. Er geht.",
           "Dr. Müller kommt, vgl. Anhang II.", "Er geht.");
  xmt_segmenter_free(s);
}

static void test_french(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "fr",
           "Certains fruits, p. ex. Pommes et poires, sont rouges. M. Dupont "
           "lit l'art. 5, c.-à-d. Le texte.",
           "Certains fruits, p. ex. Pommes et poires, sont rouges.",
           "M. Dupont lit l'art. 5, c.-à-d. Le texte.");
  SPLIT_IS(s, "fr-CA",
           "\xC2\xAB\xC2\xA0"
           "Bonjour.\xC2\xA0\xC2\xBB Il part\xC2\xA0! Vraiment\xC2\xA0? "
           "Oui.",
           "\xC2\xAB\xC2\xA0"
           "Bonjour.\xC2\xA0\xC2\xBB",
           "Il part\xC2\xA0!", "Vraiment\xC2\xA0?", "Oui.");
  xmt_segmenter_free(s);
}

static void test_hungarian(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "hu",
           "Az 1. cikk (2) bekezdése szerint pl. Magyarország is részt vesz. "
           "A 2021. III. 5-i ülésen döntöttek. A 12. § Alkalmazandó.",
           "Az 1. cikk (2) bekezdése szerint pl. Magyarország is részt vesz.",
           "A 2021. III. 5-i ülésen döntöttek.", "A 12. § Alkalmazandó.");
  SPLIT_IS(s, "hu", "Dr. Kovács jön. Az ún. Bizottság dönt.", "Dr. Kovács jön.",
           "Az ún. Bizottság dönt.");
  xmt_segmenter_free(s);
}

static void test_spanish_italian(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "es",
           "El Sr. García llegó. ¿Vienes mañana? ¡Sí! Algunas, p. ej. "
           "Madrid, son grandes.",
           "El Sr. García llegó.", "¿Vienes mañana?", "¡Sí!",
           "Algunas, p. ej. Madrid, son grandes.");
  SPLIT_IS(s, "it",
           "Il Sig. Rossi è arrivato, ad es. Roma è bella. Vedi l'art. 5. "
           "Poi parte.",
           "Il Sig. Rossi è arrivato, ad es. Roma è bella.", "Vedi l'art. 5.",
           "Poi parte.");
  xmt_segmenter_free(s);
}

static void test_dutch_portuguese(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "nl",
           "Dhr. De Vries komt morgen. Zie art. 5 van de wet, d.w.z. De "
           "regel geldt.",
           "Dhr. De Vries komt morgen.",
           "Zie art. 5 van de wet, d.w.z. De regel geldt.");
  SPLIT_IS(s, "pt-BR",
           "O Sr. Silva chegou. Veja o art. 5 da lei, p. ex. O caso. Fim.",
           "O Sr. Silva chegou.", "Veja o art. 5 da lei, p. ex. O caso.",
           "Fim.");
  xmt_segmenter_free(s);
}

static void test_cjk(void) {
  xmt_segmenter *s = shipped();
  SPLIT_IS(s, "ja",
           "今日は晴れです。明日は雨でしょう！本当？「はい。」と彼は言った。",
           "今日は晴れです。", "明日は雨でしょう！", "本当？",
           "「はい。」と彼は言った。");
  SPLIT_IS(s, "zh-Hans",
           "我们走吧。\xE2\x80\x9C好的。\xE2\x80\x9D他说。 第二段。",
           "我们走吧。", "\xE2\x80\x9C好的。\xE2\x80\x9D他说。", "第二段。");
  /* A Latin full stop without space is no break, in CJK text too. */
  SPLIT_IS(s, "ja", "版本3.5。次", "版本3.5。", "次");
  xmt_segmenter_free(s);
}

static void test_whitespace_kept(void) {
  xmt_segmenter *s = shipped();
  /* Leading, trailing and inner whitespace (tabs, new lines, an ideographic
   * space) stay outside the sentences; a no-break space is text. */
  SPLIT_IS(s, "en",
           "  One.\t\tTwo.\n\nThree.\xE3\x80\x80"
           "Four.  ",
           "One.", "Two.", "Three.", "Four.");
  SPLIT_IS(s, "en", "Ends with\xC2\xA0", "Ends with\xC2\xA0");
  const struct xmt_span *sp;
  size_t n = 99;
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, STR_LEN(" \t\n "), &sp, &n), XMT_OK);
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, "", 0, &sp, &n), XMT_OK);
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, NULL, 0, &sp, &n), XMT_OK);
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, STR_LEN("Bad \xC3 byte."), &sp, &n),
                  XMT_ERR_ENCODING);
  CU_ASSERT_STRING_EQUAL(xmt_segmenter_error(s)->message,
                         "invalid UTF-8 at byte 4");
  CU_ASSERT_EQUAL(xmt_segmenter_split(NULL, "x", 1, &sp, &n), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, ""), XMT_ERR_USAGE);
  xmt_segmenter_free(s);
  xmt_segmenter_free(NULL);
}

/* --- Okapi's rules and options ---------------------------------------------
 */

static xmt_segmenter *okapi(const char *file) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  xmt_status st = xmt_segmenter_load_srx(s, xmt_test_data_path(file));
  if (st != XMT_OK)
    fprintf(stderr, "\n%s\n", xmt_segmenter_error(s)->message);
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  return s;
}

/* Okapi's defaultSegmentation.srx (Tikal's), on the start of the sample
 * text it carries and on what its rules are written for. */
static void test_okapi_default(void) {
  xmt_segmenter *s = okapi("srx/okapi-defaultSegmentation.srx");
  SPLIT_IS(s, "en",
           "Mr. Holmes is from the U.K. not the U.S. Is Dr. Watson from "
           "there too? Yes: both are. \"Right?\" Yes, indeed.",
           "Mr. Holmes is from the U.K. not the U.S.",
           "Is Dr. Watson from there too?", "Yes: both are.", "\"Right?\"",
           "Yes, indeed.");
  SPLIT_IS(s, "fr", "On Nov. 3rd and in Dec. 1934. And here.",
           "On Nov. 3rd and in Dec. 1934.", "And here.");
  SPLIT_IS(s, "en", "It's very easy: First you write a check.",
           "It's very easy:", "First you write a check.");
  SPLIT_IS(s, "ja", "今日は晴れです。明日は雨", "今日は晴れです。", "明日は雨");
  /* Thai has its own rules (the first map that matches: no cascade). */
  SPLIT_IS(s, "th", "Mr. Holmes. Is here.", "Mr. Holmes. Is here.");
  xmt_segmenter_free(s);
}

/* okapi-isolated_code.srx: no trimming, so the space after a break starts
 * the next sentence. */
static void test_okapi_no_trim(void) {
  xmt_segmenter *s = okapi("srx/okapi-isolated_code.srx");
  static const char *const want[] = {"This text.", " Has an isolated code.",
                                     NULL};
  CU_ASSERT_TRUE(split_is(s, "en", "This text. Has an isolated code.", want, 0,
                          __FILE__, __LINE__));
  xmt_segmenter_free(s);
}

static xmt_segmenter *from_memory(const char *srx) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  xmt_status st = xmt_segmenter_load_srx_memory(s, srx, strlen(srx), "t.srx");
  if (st != XMT_OK)
    fprintf(stderr, "\n%s\n", xmt_segmenter_error(s)->message);
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  return s;
}

#define SRX_HEAD                                                               \
  "<srx xmlns='http://www.lisa.org/srx20' "                                    \
  "xmlns:okpsrx='http://okapi.sf.net/srx-extensions' version='2.0'>"
#define SIMPLE_BODY                                                            \
  "<body><languagerules><languagerule languagerulename='D'>"                   \
  "<rule break='no'><beforebreak>\\bNo\\.</beforebreak>"                       \
  "<afterbreak>\\s</afterbreak></rule>"                                        \
  "<rule><beforebreak>\\.</beforebreak><afterbreak>\\s</afterbreak></rule>"    \
  "</languagerule></languagerules><maprules>"                                  \
  "<languagemap languagepattern='.*' languagerulename='D'/>"                   \
  "</maprules></body></srx>"

static void test_okapi_options(void) {
  /* oneSegmentIncludesAll: a single sentence keeps its spaces. */
  xmt_segmenter *s = from_memory(
      SRX_HEAD
      "<header cascade='no'><okpsrx:options oneSegmentIncludesAll='yes' "
      "trimLeadingWhitespaces='yes' trimTrailingWhitespaces='yes' "
      "useJavaRegex='yes'/></header>" SIMPLE_BODY);
  static const char *const one[] = {"  No. 5 only.  ", NULL};
  CU_ASSERT_TRUE(
      split_is(s, "xx", "  No. 5 only.  ", one, 0, __FILE__, __LINE__));
  static const char *const two[] = {"One.", "Two.", NULL};
  CU_ASSERT_TRUE(split_is(s, "xx", " One. Two. ", two, 1, __FILE__, __LINE__));
  xmt_segmenter_free(s);
  /* Without okpsrx:options nothing is trimmed (Okapi's defaults), yet
   * whitespace alone is no sentence. */
  s = from_memory(SRX_HEAD "<header cascade='no'/>" SIMPLE_BODY);
  static const char *const kept[] = {" One.", " No. 5.", NULL};
  CU_ASSERT_TRUE(
      split_is(s, "xx", " One. No. 5. ", kept, 0, __FILE__, __LINE__));
  xmt_segmenter_free(s);
  /* rangeRule: a match is a segment of its own. */
  s = from_memory(SRX_HEAD
                  "<header cascade='no'><okpsrx:options "
                  "trimLeadingWhitespaces='yes' trimTrailingWhitespaces='yes'/>"
                  "<okpsrx:rangeRule>\\[\\[.*?\\]\\]</okpsrx:rangeRule>"
                  "</header>" SIMPLE_BODY);
  SPLIT_IS(s, "xx", "Keep [[a. b]] apart. Yes.", "Keep", "[[a. b]]", "apart.",
           "Yes.");
  xmt_segmenter_free(s);
  /* useIcu4JBreakRules: ICU's sentence breaks, the rules as exceptions. */
  s = from_memory(SRX_HEAD
                  "<header cascade='no'><okpsrx:options "
                  "trimLeadingWhitespaces='yes' trimTrailingWhitespaces='yes' "
                  "useIcu4JBreakRules='yes'/></header>"
                  "<body><languagerules><languagerule languagerulename='D'>"
                  "<rule break='no'><beforebreak>\\bNo\\.</beforebreak>"
                  "<afterbreak>\\s</afterbreak></rule>"
                  "</languagerule></languagerules><maprules>"
                  "<languagemap languagepattern='.*' languagerulename='D'/>"
                  "</maprules></body></srx>");
  SPLIT_IS(s, "en", "See No. 5 Here! Is it?  Yes.", "See No. 5 Here!", "Is it?",
           "Yes.");
  xmt_segmenter_free(s);
}

static void test_rule_order_and_maps(void) {
  /* The first rule to hit a position decides; cascade='yes' takes every
   * map that matches, in order; an empty beforebreak applies at every
   * position its afterbreak matches. */
  static const char srx[] = SRX_HEAD
      "<header cascade='%s'><okpsrx:options "
      "trimLeadingWhitespaces='yes' trimTrailingWhitespaces='yes'/>"
      "</header><body><languagerules>"
      "<languagerule languagerulename='X'>"
      "<rule break='no'><beforebreak>\\bNo\\.</beforebreak>"
      "<afterbreak>\\s</afterbreak></rule></languagerule>"
      "<languagerule languagerulename='D'>"
      "<rule><beforebreak>\\.</beforebreak><afterbreak>\\s</afterbreak>"
      "</rule>"
      "<rule break='no'><beforebreak>\\bNo\\.</beforebreak>"
      "<afterbreak>\\s</afterbreak></rule>"
      "<rule><beforebreak></beforebreak><afterbreak>\\|</afterbreak>"
      "</rule></languagerule></languagerules><maprules>"
      "<languagemap languagepattern='x[xy]' languagerulename='X'/>"
      "<languagemap languagepattern='.*' languagerulename='D'/>"
      "</maprules></body></srx>";
  char doc[sizeof srx + 8];
  snprintf(doc, sizeof doc, srx, "yes");
  xmt_segmenter *s = from_memory(doc);
  SPLIT_IS(s, "xx", "See No. 5.|Then|now. Ok", "See No. 5.", "|Then", "|now.",
           "Ok");
  SPLIT_IS(s, "xyz", "See No. 5. Ok", "See No.", "5.", "Ok");
  xmt_segmenter_free(s);
  snprintf(doc, sizeof doc, srx, "no");
  s = from_memory(doc);
  SPLIT_IS(s, "xx", "See No. 5. Ok", "See No. 5. Ok");
  SPLIT_IS(s, "yy", "See No. 5. Ok", "See No.", "5.", "Ok");
  xmt_segmenter_free(s);
}

/* --- Bad rule files ----------------------------------------------------------
 */

static void load_fails(const char *fixture, xmt_status want, const char *file,
                       unsigned long line, unsigned long column,
                       const char *message) {
  xmt_segmenter *s = shipped();
  const char *path = xmt_test_fixture_path(fixture);
  char *copy = xmt_strdup(path);
  CU_ASSERT_EQUAL(xmt_segmenter_load_srx(s, copy), want);
  const struct xmt_error *e = xmt_segmenter_error(s);
  CU_ASSERT_EQUAL(e->status, want);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e->file);
  CU_ASSERT_STRING_EQUAL(e->file + strlen(e->file) - strlen(file), file);
  CU_ASSERT_EQUAL(e->line, line);
  CU_ASSERT_EQUAL(e->column, column);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e->message);
  if (strcmp(e->message, message) != 0)
    fprintf(stderr, "\ngot  %s\nwant %s\n", e->message, message);
  CU_ASSERT_STRING_EQUAL(e->message, message);
  /* The rules in place before stay. */
  SPLIT_IS(s, "en", "Mr. Smith left. He did.", "Mr. Smith left.", "He did.");
  free(copy);
  xmt_segmenter_free(s);
}

static void test_bad_srx(void) {
  load_fails("srx-bad-regex.srx", XMT_ERR_FORMAT, "srx-bad-regex.srx", 9, 0,
             "languagerule \"Default\", rule 2: <beforebreak> \"\\b(Mr|Dr\\.\" "
             "is not a valid regular expression: unbalanced parentheses at "
             "character 11");
  load_fails(
      "srx-bad-afterbreak.srx", XMT_ERR_FORMAT, "srx-bad-afterbreak.srx", 9, 0,
      "languagerule \"English\", rule 1: <afterbreak> \"\\s+\\p{Lux}\" is "
      "not a valid regular expression: bad Unicode property at "
      "character 11");
  load_fails("srx-bad-xml.srx", XMT_ERR_XML, "srx-bad-xml.srx", 8, 16,
             "SRX document is not well-formed XML: Opening and ending tag "
             "mismatch: rule line 7 and languagerule");
  load_fails("srx-not-srx.srx", XMT_ERR_FORMAT, "srx-not-srx.srx", 2, 0,
             "not an SRX document: the root element is <segmentation>, not "
             "<srx>");
  load_fails("srx-unknown-rule.srx", XMT_ERR_FORMAT, "srx-unknown-rule.srx", 11,
             0, "<languagemap>: no languagerule named \"French\"");
  load_fails("srx-missing.srx", XMT_ERR_IO, "srx-missing.srx", 0, 0,
             "cannot open: No such file or directory");

  xmt_segmenter *s = shipped();
  static const char lookbehind[] =
      SRX_HEAD "<header cascade='no'/><body><languagerules>\n"
               "<languagerule languagerulename='D'>\n<rule>\n"
               "<beforebreak>(?&lt;=\\w+)\\.</beforebreak><afterbreak/>"
               "</rule></languagerule></languagerules></body></srx>";
  CU_ASSERT_EQUAL(xmt_segmenter_load_srx_memory(s, STR_LEN(lookbehind), NULL),
                  XMT_ERR_FORMAT);
  CU_ASSERT_EQUAL(xmt_segmenter_error(s)->line, 4);
  CU_ASSERT_STRING_EQUAL(
      xmt_segmenter_error(s)->message,
      "languagerule \"D\", rule 1: <beforebreak> \"(?<=\\w+)\\.\" is not a "
      "valid regular expression: look-behind of unbounded length at "
      "character 9");
  CU_ASSERT_EQUAL(xmt_segmenter_load_srx_memory(s, STR_LEN("<srx"), "m.srx"),
                  XMT_ERR_XML);
  CU_ASSERT_STRING_EQUAL(xmt_segmenter_error(s)->file, "m.srx");
  CU_ASSERT_EQUAL(xmt_segmenter_load_srx_memory(s, NULL, 0, NULL),
                  XMT_ERR_USAGE);
  xmt_segmenter_free(s);
}

/* --- XLIFF units -------------------------------------------------------------
 */

struct run {
  xmt_segmenter *seg;
  xmt_xliff_reader *reader;
  xmt_xliff_writer *writer;
  struct xmt_buf out;
  int resegment;
  int translate;        /* set each segment's target: its text upper-cased */
  int alt_trans;        /* write alt-trans proposals */
  int whole;            /* one whole target, not a new seg-source */
  struct xmt_buf *dump; /* each unit's segments, rendered, to compare */
  int encoding_set;
  xmt_status status;
  size_t units, multi, cut; /* units, units of 2+ sentences, with bx/ex/it */
};

static void note(struct run *run, xmt_status st) {
  if (st != XMT_OK && run->status == XMT_OK)
    run->status = st;
}

static int sink(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  return xmt_buf_append(&run->out, bytes, len) != XMT_OK;
}

static void set_encoding(struct run *run) {
  if (!run->encoding_set)
    xmt_xliff_writer_set_encoding(run->writer,
                                  xmt_xliff_reader_encoding(run->reader));
  run->encoding_set = 1;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  set_encoding(run);
  xmt_status st = xmt_xliff_writer_skeleton(run->writer, bytes, len);
  note(run, st);
  return st != XMT_OK;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct run *run = user;
  (void)info;
  set_encoding(run);
  xmt_status st = xmt_xliff_writer_file_tag(run->writer, tag, len, NULL);
  note(run, st);
  return st != XMT_OK;
}

/* Appends "mid|rendered segment\n" for each segment of the unit. */
static void dump_unit(struct xmt_buf *dump, const xmt_xliff_unit *u) {
  for (size_t i = 0; i < xmt_xliff_unit_segment_count(u); i++) {
    const char *mid = xmt_xliff_unit_segment_mid(u, i);
    size_t n;
    char *r = xmt_xliff_inline_render(xmt_xliff_unit_source(u, i), &n);
    xmt_buf_append_str(dump, mid != NULL ? mid : "-");
    xmt_buf_append_byte(dump, '|');
    if (r != NULL)
      xmt_buf_append(dump, r, n);
    xmt_buf_append_byte(dump, '\n');
    free(r);
  }
  xmt_buf_append_str(dump, "--\n");
}

/* The invariants of a segmented unit: the gaps and sentences give back the
 * text of the source; every code is there once, by id and kind; every
 * sentence is well nested. */
static int unit_ok(const xmt_xliff_unit *u) {
  const xmt_segment *src = u->whole_source;
  if (u->gaps == NULL || u->ngaps != u->nsegs + 1)
    return 0;
  struct xmt_buf text = {0};
  size_t tags = 0;
  int ok = 1;
  for (size_t i = 0; i < u->ngaps && ok; i++) {
    size_t n;
    const char *t = xmt_segment_text(u->gaps[i], &n);
    for (size_t k = 0; k < n && ok; k++)
      ok = t[k] == ' ' || t[k] == '\t' || t[k] == '\n' || t[k] == '\r' ||
           (unsigned char)t[k] >= 0x80;
    xmt_buf_append(&text, t, n);
    tags += xmt_segment_tag_count(u->gaps[i]);
    if (i == u->nsegs)
      break;
    t = xmt_segment_text(u->segs[i].source, &n);
    ok = ok && n > 0 && xmt_segment_check(u->segs[i].source, NULL) == XMT_OK;
    xmt_buf_append(&text, t, n);
    tags += xmt_segment_tag_count(u->segs[i].source);
  }
  size_t n;
  const char *t = xmt_segment_text(src, &n);
  ok = ok && text.len == n && (n == 0 || memcmp(text.data, t, n) == 0) &&
       tags == xmt_segment_tag_count(src);
  xmt_buf_free(&text);
  return ok;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  set_encoding(run);
  run->units++;
  int was = xmt_xliff_unit_segmented(unit);
  xmt_status st = XMT_OK;
  if (run->seg != NULL) {
    st = xmt_segmenter_segment_unit(run->seg, unit, run->resegment);
    if (st != XMT_OK)
      fprintf(stderr, "\nunit %s: %s\n", xmt_xliff_unit_id(unit),
              xmt_segmenter_error(run->seg)->message);
    if (st == XMT_OK && unit->gaps != NULL && (!was || run->resegment)) {
      if (!unit_ok(unit)) {
        fprintf(stderr, "\nunit %s: invariants broken\n",
                xmt_xliff_unit_id(unit));
        st = XMT_ERR_INTERNAL;
      }
      run->multi += unit->nsegs > 1;
      /* A pair cut: more isolated codes in the segments than in the source. */
      size_t before = 0, after = 0;
      for (size_t j = 0; j < xmt_segment_tag_count(unit->whole_source); j++) {
        struct xmt_tag tag;
        xmt_segment_tag(unit->whole_source, j, &tag);
        before += tag.kind >= XMT_TAG_ISOLATED_OPEN;
      }
      /* Lone codes at a sentence's edge may go to the gap between
       * sentences: they count there. */
      for (size_t i = 0; i < unit->nsegs + unit->ngaps; i++) {
        const xmt_segment *part = i < unit->nsegs ? unit->segs[i].source
                                                  : unit->gaps[i - unit->nsegs];
        for (size_t j = 0; part != NULL && j < xmt_segment_tag_count(part);
             j++) {
          struct xmt_tag tag;
          xmt_segment_tag(part, j, &tag);
          after += tag.kind >= XMT_TAG_ISOLATED_OPEN;
        }
      }
      run->cut += after > before;
    }
  }
  if (run->dump != NULL)
    dump_unit(run->dump, unit);
  for (size_t i = 0;
       st == XMT_OK && run->translate && i < xmt_xliff_unit_segment_count(unit);
       i++) {
    xmt_segment *t = xmt_segment_new();
    const xmt_segment *src = xmt_xliff_unit_source(unit, i);
    size_t n;
    const char *text = xmt_segment_text(src, &n);
    char *up = xmt_strndup(text, n);
    for (size_t k = 0; k < n; k++)
      if (up[k] >= 'a' && up[k] <= 'z')
        up[k] = (char)(up[k] - 'a' + 'A');
    size_t *offsets = calloc(xmt_segment_tag_count(src) + 1, sizeof *offsets);
    for (size_t k = 0; k < xmt_segment_tag_count(src); k++) {
      struct xmt_tag tag;
      xmt_segment_tag(src, k, &tag);
      offsets[k] = tag.offset;
    }
    st = xmt_segment_retag(t, src, up, n, offsets);
    if (st == XMT_OK)
      st = xmt_xliff_unit_set_target(unit, i, t);
    free(offsets);
    free(up);
    xmt_segment_free(t);
  }
  struct xmt_xliff_target_options o;
  memset(&o, 0, sizeof o);
  o.target_language = "fr";
  o.alt_trans = run->alt_trans;
  o.seg_source = !run->whole;
  if (st == XMT_OK)
    st = xmt_xliff_writer_unit(run->writer, unit, &o);
  note(run, st);
  xmt_xliff_unit_free(unit);
  return st != XMT_OK;
}

/* Runs a document through reader, segmenter (NULL: none) and writer. */
static xmt_status run_doc(struct run *run, const char *doc, size_t len) {
  static const struct xmt_xliff_reader_callbacks cb = {on_skeleton, on_file,
                                                       on_unit};
  run->reader = xmt_xliff_reader_new(&cb, run);
  run->writer = xmt_xliff_writer_new(sink, run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run->reader);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run->writer);
  xmt_status st = xmt_xliff_reader_parse(run->reader, doc, len, 1);
  if (st == XMT_OK)
    st = xmt_xliff_writer_flush(run->writer);
  if (st == XMT_ERR_ABORTED && run->status != XMT_OK)
    st = run->status;
  xmt_xliff_reader_free(run->reader);
  xmt_xliff_writer_free(run->writer);
  run->reader = NULL;
  run->writer = NULL;
  return st;
}

#define DOC_HEAD                                                               \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                               \
  "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"  \
  "<file original=\"x\" source-language=\"en\" target-language=\"fr\" "        \
  "datatype=\"html\"><body>\n"
#define DOC_TAIL "</body></file></xliff>\n"

/* Segments the units of DOC_HEAD body DOC_TAIL; compares the body. */
static void segmented_is(const char *body, int resegment, int translate,
                         int alt_trans, const char *want, const char *file,
                         int line) {
  struct run run;
  memset(&run, 0, sizeof run);
  run.seg = shipped();
  run.resegment = resegment;
  run.translate = translate;
  run.alt_trans = alt_trans;
  struct xmt_buf doc = {0};
  xmt_buf_append_str(&doc, DOC_HEAD);
  xmt_buf_append_str(&doc, body);
  xmt_buf_append_str(&doc, DOC_TAIL);
  xmt_status st = run_doc(&run, doc.data, doc.len);
  CU_ASSERT_EQUAL(st, XMT_OK);
  size_t head = strlen(DOC_HEAD), tail = strlen(DOC_TAIL);
  int ok = st == XMT_OK && run.out.len == head + strlen(want) + tail &&
           memcmp(run.out.data + head, want, strlen(want)) == 0;
  if (!ok)
    fprintf(stderr, "\n%s:%d: got\n%.*s\nwant\n%s\n", file, line,
            run.out.len > head + tail ? (int)(run.out.len - head - tail) : 0,
            run.out.data + head, want);
  CU_ASSERT_TRUE(ok);
  xmt_buf_free(&doc);
  xmt_buf_free(&run.out);
  xmt_segmenter_free(run.seg);
}

#define SEGMENTED_IS(body, resegment, translate, want)                         \
  segmented_is((body), (resegment), (translate), 0, (want), __FILE__, __LINE__)

static void test_unit_pair_cut(void) {
  /* A g pair cut by a boundary: bx in the first sentence, ex in the next,
   * ids and attributes kept; the x in the whitespace stays outside. */
  SEGMENTED_IS(
      "<trans-unit id=\"1\">\n"
      "  <source>First <g id=\"1\" ctype=\"bold\">sentence. Second</g> one.  "
      "<x id=\"2\"/> Third.</source>\n</trans-unit>\n",
      0, 0,
      "<trans-unit id=\"1\">\n"
      "  <source>First <g id=\"1\" ctype=\"bold\">sentence. Second</g> one.  "
      "<x id=\"2\"/> Third.</source>\n"
      "  <seg-source><mrk mid=\"0\" mtype=\"seg\">First <bx id=\"1\" "
      "ctype=\"bold\"/>sentence.</mrk> <mrk mid=\"1\" mtype=\"seg\">Second<ex "
      "id=\"1\"/> one.</mrk>  <x id=\"2\"/> <mrk mid=\"2\" "
      "mtype=\"seg\">Third.</mrk></seg-source>\n</trans-unit>\n");
  /* bpt/ept cut: it pos="open"/"close" with the native code kept. */
  SEGMENTED_IS(
      "<trans-unit id=\"4\"><source>A <bpt id=\"1\" ctype=\"x\">&lt;b&gt;</bpt>"
      "bold. Text<ept id=\"1\">&lt;/b&gt;</ept> here.</source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"4\"><source>A <bpt id=\"1\" ctype=\"x\">&lt;b&gt;</bpt>"
      "bold. Text<ept id=\"1\">&lt;/b&gt;</ept> here.</source><seg-source>"
      "<mrk mid=\"0\" mtype=\"seg\">A <it id=\"1\" ctype=\"x\" "
      "pos=\"open\">&lt;b&gt;</it>bold.</mrk> <mrk mid=\"1\" "
      "mtype=\"seg\">Text<it id=\"1\" pos=\"close\">&lt;/b&gt;</it> "
      "here.</mrk></seg-source></trans-unit>\n");
  /* Nested pairs cut at once. */
  SEGMENTED_IS(
      "<trans-unit id=\"n\"><source>A <g id=\"1\">b <g id=\"2\">c. D</g> "
      "e</g>.</source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"n\"><source>A <g id=\"1\">b <g id=\"2\">c. D</g> "
      "e</g>.</source><seg-source><mrk mid=\"0\" mtype=\"seg\">A <bx "
      "id=\"1\"/>b <bx id=\"2\"/>c.</mrk> <mrk mid=\"1\" mtype=\"seg\">D<ex "
      "id=\"2\"/> e<ex id=\"1\"/>.</mrk></seg-source></trans-unit>\n");
}

static void test_unit_codes_at_boundaries(void) {
  /* A pair around several sentences is cut where they meet: bx at the
   * start of the first, ex at the end of the last; a pair around one
   * sentence stays whole in it. The mrks stay children of seg-source and
   * target (the schema's keys for mids need it). The copy of the source in
   * the target gets the same mrks. */
  SEGMENTED_IS(
      "<trans-unit id=\"2\"><source><g id=\"1\">Whole one. And <g id=\"2\">"
      "two.</g></g></source>\n<target xml:lang=\"fr\" state=\"new\"><g "
      "id=\"1\">Whole one. And <g id=\"2\">two.</g></g></target></trans-unit>\n"
      "<trans-unit id=\"5\"><source><g id=\"1\"><g id=\"2\">Only one.</g></g>"
      "</source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"2\"><source><g id=\"1\">Whole one. And <g id=\"2\">"
      "two.</g></g></source><seg-source><mrk mid=\"0\" mtype=\"seg\"><bx "
      "id=\"1\"/>Whole one.</mrk> <mrk mid=\"1\" mtype=\"seg\">And <g "
      "id=\"2\">two.</g><ex id=\"1\"/></mrk></seg-source>\n"
      "<target xml:lang=\"fr\" state=\"new\"><mrk mid=\"0\" mtype=\"seg\"><bx "
      "id=\"1\"/>Whole one.</mrk> <mrk mid=\"1\" mtype=\"seg\">And <g "
      "id=\"2\">two.</g><ex id=\"1\"/></mrk></target></trans-unit>\n"
      "<trans-unit id=\"5\"><source><g id=\"1\"><g id=\"2\">Only one.</g></g>"
      "</source><seg-source><mrk mid=\"0\" mtype=\"seg\"><g id=\"1\"><g "
      "id=\"2\">Only one.</g></g></mrk></seg-source></trans-unit>\n");
  /* A closing code ends its sentence; opening and isolated codes start
   * theirs; one touching the previous sentence only stays with it. */
  SEGMENTED_IS(
      "<trans-unit id=\"3\"><source>A <g id=\"1\">bold.</g> <g "
      "id=\"2\">Next</g> one.<x id=\"3\"/> <x id=\"4\"/>Last <ph id=\"5\">"
      "&lt;br/&gt;</ph>one.</source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"3\"><source>A <g id=\"1\">bold.</g> <g "
      "id=\"2\">Next</g> one.<x id=\"3\"/> <x id=\"4\"/>Last <ph id=\"5\">"
      "&lt;br/&gt;</ph>one.</source><seg-source><mrk mid=\"0\" mtype=\"seg\">"
      "A <g id=\"1\">bold.</g></mrk> <mrk mid=\"1\" mtype=\"seg\"><g "
      "id=\"2\">Next</g> one.<x id=\"3\"/></mrk> <mrk mid=\"2\" mtype=\"seg\">"
      "<x id=\"4\"/>Last <ph id=\"5\">&lt;br/&gt;</ph>one.</mrk></seg-source>"
      "</trans-unit>\n");
  /* With no space between sentences (CJK), formathandle decides: the
   * closing code before the break, the isolated one after it. */
  SEGMENTED_IS(
      "<trans-unit id=\"j\"><source>一<g id=\"1\">。</g><x id=\"2\"/>二。"
      "</source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"j\"><source>一<g id=\"1\">。</g><x id=\"2\"/>二。"
      "</source><seg-source><mrk mid=\"0\" mtype=\"seg\">一<g id=\"1\">。</g>"
      "</mrk><mrk mid=\"1\" mtype=\"seg\"><x id=\"2\"/>二。</mrk></seg-source>"
      "</trans-unit>\n");
  /* Whitespace around the text stays outside; one sentence gets one mrk.
   * A placeholder before it, with only white space between, joins it: the
   * engine may move it with the words ("{n} minutes ago"). */
  SEGMENTED_IS(
      "<trans-unit id=\"w\" xml:space=\"preserve\"><source> <x id=\"1\"/> Only "
      "one &amp; all. </source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"w\" xml:space=\"preserve\"><source> <x id=\"1\"/> Only "
      "one &amp; all. </source><seg-source> <mrk mid=\"0\" mtype=\"seg\">"
      "<x id=\"1\"/> Only one &amp; all.</mrk> </seg-source></trans-unit>\n");
  /* An isolated code there stays outside. */
  SEGMENTED_IS(
      "<trans-unit id=\"v\" xml:space=\"preserve\"><source> <bx id=\"1\"/> "
      "Only "
      "one. <x id=\"2\"/> </source></trans-unit>\n",
      0, 0,
      "<trans-unit id=\"v\" xml:space=\"preserve\"><source> <bx id=\"1\"/> "
      "Only "
      "one. <x id=\"2\"/> </source><seg-source> <bx id=\"1\"/> <mrk "
      "mid=\"0\" mtype=\"seg\">Only one. <x id=\"2\"/></mrk> </seg-source>"
      "</trans-unit>\n");
}

static void test_unit_left_alone(void) {
  /* translate="no", no text, and (without resegment) existing seg-source:
   * byte for byte as read. */
  static const char body[] =
      "<trans-unit id=\"a\" translate=\"no\"><source>One. Two.</source>"
      "</trans-unit>\n"
      "<trans-unit id=\"b\"><source> <x id=\"1\"/> </source></trans-unit>\n"
      "<trans-unit id=\"c\"><source>One. Two.</source>\n"
      "<seg-source><mrk mid=\"a\" mtype=\"seg\">One. Two.</mrk></seg-source>"
      "</trans-unit>\n";
  SEGMENTED_IS(body, 0, 0, body);
  /* A non-segment mrk across a boundary: the boundary goes. */
  SEGMENTED_IS("<trans-unit id=\"m\"><source>A <mrk mtype=\"term\">big. "
               "Cat</mrk> dog. End.</source></trans-unit>\n",
               0, 0,
               "<trans-unit id=\"m\"><source>A <mrk mtype=\"term\">big. "
               "Cat</mrk> dog. End.</source><seg-source><mrk mid=\"0\" "
               "mtype=\"seg\">A <mrk mtype=\"term\">big. Cat</mrk> dog.</mrk> "
               "<mrk mid=\"1\" mtype=\"seg\">End.</mrk></seg-source>"
               "</trans-unit>\n");
  /* A translation already there is kept as it is. */
  static const char translated[] =
      "<trans-unit id=\"t\"><source>One. Two.</source>"
      "<target>Un. Deux.</target></trans-unit>\n";
  SEGMENTED_IS(translated, 0, 0,
               "<trans-unit id=\"t\"><source>One. Two.</source><seg-source>"
               "<mrk mid=\"0\" mtype=\"seg\">One.</mrk> <mrk mid=\"1\" "
               "mtype=\"seg\">Two.</mrk></seg-source><target>Un. Deux.</target>"
               "</trans-unit>\n");
}

static void test_unit_resegment(void) {
  SEGMENTED_IS("<trans-unit id=\"c\"><source>One. Two.</source>\n  "
               "<seg-source><mrk mid=\"a\" mtype=\"seg\">One. Two.</mrk>"
               "</seg-source>\n  <target><mrk mid=\"a\" mtype=\"seg\">One. "
               "Two.</mrk></target>\n</trans-unit>\n",
               1, 0,
               "<trans-unit id=\"c\"><source>One. Two.</source>\n  "
               "<seg-source><mrk mid=\"0\" mtype=\"seg\">One.</mrk> <mrk "
               "mid=\"1\" mtype=\"seg\">Two.</mrk></seg-source>\n  <target>"
               "<mrk mid=\"0\" mtype=\"seg\">One.</mrk> <mrk mid=\"1\" "
               "mtype=\"seg\">Two.</mrk></target>\n</trans-unit>\n");
}

static void test_unit_translated(void) {
  /* Targets set per segment: a new target mirrors the seg-source. */
  SEGMENTED_IS(
      "<trans-unit id=\"1\">\n  <source>First <g id=\"1\">one. "
      "Second</g> one.</source>\n</trans-unit>\n",
      0, 1,
      "<trans-unit id=\"1\">\n  <source>First <g id=\"1\">one. "
      "Second</g> one.</source>\n  <seg-source><mrk mid=\"0\" "
      "mtype=\"seg\">First <bx id=\"1\"/>one.</mrk> <mrk mid=\"1\" "
      "mtype=\"seg\">Second<ex id=\"1\"/> one.</mrk></seg-source>\n"
      "  <target xml:lang=\"fr\"><mrk mid=\"0\" mtype=\"seg\">FIRST "
      "<bx id=\"1\"/>ONE.</mrk> <mrk mid=\"1\" mtype=\"seg\">SECOND<ex "
      "id=\"1\"/> ONE.</mrk></target>\n</trans-unit>\n");
  /* An empty target element is replaced. */
  SEGMENTED_IS("<trans-unit id=\"e\"><source>Yes. No.</source><target/>"
               "</trans-unit>\n",
               0, 1,
               "<trans-unit id=\"e\"><source>Yes. No.</source><seg-source><mrk "
               "mid=\"0\" mtype=\"seg\">Yes.</mrk> <mrk mid=\"1\" "
               "mtype=\"seg\">No.</mrk></seg-source><target xml:lang=\"fr\">"
               "<mrk mid=\"0\" mtype=\"seg\">YES.</mrk> <mrk mid=\"1\" "
               "mtype=\"seg\">NO.</mrk></target></trans-unit>\n");
  /* alt-trans: one proposal per segment, after the seg-source. */
  segmented_is("<trans-unit id=\"a\">\n<source>One. Two.</source>\n"
               "</trans-unit>\n",
               0, 1, 1,
               "<trans-unit id=\"a\">\n<source>One. Two.</source>\n"
               "<seg-source><mrk mid=\"0\" mtype=\"seg\">One.</mrk> <mrk "
               "mid=\"1\" mtype=\"seg\">Two.</mrk></seg-source>\n<alt-trans "
               "origin=\"xliffmt\" mid=\"0\"><target xml:lang=\"fr\">ONE."
               "</target></alt-trans>\n<alt-trans origin=\"xliffmt\" "
               "mid=\"1\"><target xml:lang=\"fr\">TWO.</target></alt-trans>\n"
               "</trans-unit>\n",
               __FILE__, __LINE__);
}

/* Segmented for MT only: one whole target, each segment's translation (its
 * text upper-cased) joined by the source's text between them, and pairs
 * cut into bx/ex or it made whole again. head is the document up to the
 * units. */
static void whole_is(const char *head, const char *body, int alt_trans,
                     const char *want, int line) {
  struct run run;
  memset(&run, 0, sizeof run);
  run.seg = shipped();
  run.translate = 1;
  run.alt_trans = alt_trans;
  run.whole = 1;
  struct xmt_buf doc = {0};
  xmt_buf_append_str(&doc, head);
  xmt_buf_append_str(&doc, body);
  xmt_buf_append_str(&doc, DOC_TAIL);
  CU_ASSERT_EQUAL(run_doc(&run, doc.data, doc.len), XMT_OK);
  size_t h = strlen(head), t = strlen(DOC_TAIL);
  int ok = run.out.len == h + strlen(want) + t &&
           memcmp(run.out.data + h, want, strlen(want)) == 0;
  if (!ok)
    fprintf(stderr, "\n%s:%d: got\n%.*s\nwant\n%s\n", __FILE__, line,
            run.out.len > h + t ? (int)(run.out.len - h - t) : 0,
            run.out.data + h, want);
  CU_ASSERT_TRUE(ok);
  xmt_buf_free(&doc);
  xmt_buf_free(&run.out);
  xmt_segmenter_free(run.seg);
}

static void test_unit_whole_target(void) {
  whole_is(DOC_HEAD,
           "<trans-unit id=\"1\">\n  <source>First <g id=\"1\" "
           "ctype=\"bold\">one. Second</g> one. <bpt id=\"2\">[b]</bpt>Third."
           " Fourth<ept id=\"2\">[/b]</ept>.</source>\n</trans-unit>\n",
           0,
           "<trans-unit id=\"1\">\n  <source>First <g id=\"1\" "
           "ctype=\"bold\">one. Second</g> one. <bpt id=\"2\">[b]</bpt>Third."
           " Fourth<ept id=\"2\">[/b]</ept>.</source>\n  <target "
           "xml:lang=\"fr\">FIRST <g id=\"1\" ctype=\"bold\">ONE. SECOND</g> "
           "ONE. <bpt id=\"2\">[b]</bpt>THIRD. FOURTH<ept id=\"2\">[/b]</ept>."
           "</target>\n</trans-unit>\n",
           __LINE__);
  /* Codes between sentences stay where they were; an empty target is
   * replaced; alt-trans gets one proposal for the whole unit. */
  whole_is(DOC_HEAD,
           "<trans-unit id=\"2\"><source>Yes.<x id=\"1\"/> No.</source>"
           "<target/></trans-unit>\n",
           0,
           "<trans-unit id=\"2\"><source>Yes.<x id=\"1\"/> No.</source>"
           "<target xml:lang=\"fr\">YES.<x id=\"1\"/> NO.</target>"
           "</trans-unit>\n",
           __LINE__);
  whole_is(DOC_HEAD,
           "<trans-unit id=\"3\">\n<source>One. Two.</source>\n</trans-unit>\n",
           1,
           "<trans-unit id=\"3\">\n<source>One. Two.</source>\n<alt-trans "
           "origin=\"xliffmt\"><target xml:lang=\"fr\">ONE. TWO.</target>"
           "</alt-trans>\n</trans-unit>\n",
           __LINE__);
  /* XLIFF 1.1 has no seg-source: even when asked for, one whole target. */
  struct run run;
  memset(&run, 0, sizeof run);
  run.seg = shipped();
  run.translate = 1;
  static const char doc11[] =
      "<xliff version=\"1.1\" xmlns=\"urn:oasis:names:tc:xliff:document:1.1\">"
      "<file original=\"x\" source-language=\"en\" target-language=\"fr\" "
      "datatype=\"plaintext\"><body><trans-unit id=\"4\"><source>A b. C d."
      "</source></trans-unit>" DOC_TAIL;
  static const char want11[] =
      "<xliff version=\"1.1\" xmlns=\"urn:oasis:names:tc:xliff:document:1.1\">"
      "<file original=\"x\" source-language=\"en\" target-language=\"fr\" "
      "datatype=\"plaintext\"><body><trans-unit id=\"4\"><source>A b. C d."
      "</source><target xml:lang=\"fr\">A B. C "
      "D.</target></trans-unit>" DOC_TAIL;
  CU_ASSERT_EQUAL(run_doc(&run, STR_LEN(doc11)), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, want11, sizeof want11 - 1);
  xmt_buf_free(&run.out);
  xmt_segmenter_free(run.seg);
}

/* The isolated-code rules of Okapi: the code is a space to the rules and
 * goes with the sentence after the break. */
static void test_unit_okapi_isolated(void) {
  struct run run;
  memset(&run, 0, sizeof run);
  run.seg = okapi("srx/okapi-isolated_code.srx");
  static const char doc[] =
      DOC_HEAD "<trans-unit id=\"i\"><source>This text.<x id=\"1\"/>Has an "
               "isolated code.</source></trans-unit>\n" DOC_TAIL;
  CU_ASSERT_EQUAL(run_doc(&run, STR_LEN(doc)), XMT_OK);
  static const char want[] =
      DOC_HEAD "<trans-unit id=\"i\"><source>This text.<x id=\"1\"/>Has an "
               "isolated code.</source><seg-source><mrk mid=\"0\" "
               "mtype=\"seg\">This text.</mrk><mrk mid=\"1\" mtype=\"seg\"><x "
               "id=\"1\"/>Has an isolated code.</mrk></seg-source>"
               "</trans-unit>\n" DOC_TAIL;
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, want, sizeof want - 1);
  xmt_buf_free(&run.out);
  xmt_segmenter_free(run.seg);
}

/* Segments doc, then reads the output back: the units must come back with
 * the same segments. Returns 0 when the input itself is refused. */
static int round_trip(xmt_segmenter *seg, const char *doc, size_t len,
                      struct run *totals) {
  struct xmt_buf first = {0}, second = {0};
  struct run run;
  memset(&run, 0, sizeof run);
  run.seg = seg;
  run.dump = &first;
  if (run_doc(&run, doc, len) != XMT_OK) {
    xmt_buf_free(&first);
    xmt_buf_free(&run.out);
    return run.units > 0 && run.status != XMT_OK ? -1 : 0;
  }
  struct run again;
  memset(&again, 0, sizeof again);
  again.dump = &second;
  xmt_status st = run_doc(&again, run.out.data, run.out.len);
  int ok = st == XMT_OK && first.len == second.len &&
           memcmp(first.data, second.data, first.len) == 0 &&
           again.out.len == run.out.len &&
           memcmp(again.out.data, run.out.data, run.out.len) == 0;
  if (!ok)
    fprintf(stderr, "\nround trip differs (status %d):\n%s\nread back:\n%s\n",
            (int)st, first.data, second.data);
  totals->units += run.units;
  totals->multi += run.multi;
  totals->cut += run.cut;
  xmt_buf_free(&first);
  xmt_buf_free(&second);
  xmt_buf_free(&run.out);
  xmt_buf_free(&again.out);
  return ok ? 1 : -1;
}

static void test_okapi_fixtures_property(void) {
  static const char *const files[] = {
      "okapi/xliff/2LevelGTags.xlf",
      "okapi/xliff/688-cdata.xlf",
      "okapi/xliff/BetweenSegments.xlf",
      "okapi/xliff/DifferentTags.xlf",
      "okapi/xliff/Manual-12-AltTrans.xlf",
      "okapi/xliff/MultipleSegments.xlf",
      "okapi/xliff/RB-12-Test02.xlf",
      "okapi/xliff/alttrans.xlf",
      "okapi/xliff/docxtest.docx.xlf",
      "okapi/xliff/font_multiple_in_sentence.docx.xliff",
      "okapi/xliff/htmltest.html.xlf",
      "okapi/xliff/keep_matching_bx_ex_ids.given.xlf",
      "okapi/xliff/merged_codes.html.xliff",
      "okapi/xliff/odttest.odt.xlf",
      "okapi/xliff/segmented.xlf",
      "okapi/xliff/segsource.xlf",
      "okapi/xliff/simple_link.html.xliff",
      "okapi/xliff/translate_no.xlf",
  };
  xmt_segmenter *seg = shipped();
  struct run totals;
  memset(&totals, 0, sizeof totals);
  size_t read = 0;
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    size_t len;
    char *doc = xmt_test_read_file(xmt_test_data_path(files[i]), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    int r = round_trip(seg, doc, len, &totals);
    if (r < 0)
      fprintf(stderr, "\n%s: failed\n", files[i]);
    CU_ASSERT_TRUE(r >= 0);
    read += r > 0;
    free(doc);
  }
  CU_ASSERT_TRUE(read >= 15);
  CU_ASSERT_TRUE(totals.units >= 60);
  CU_ASSERT_TRUE(totals.multi >= 3);
  xmt_segmenter_free(seg);
}

/* The EUR-Lex and glossary sets of Hanneman & Dinu, three lines to a
 * paragraph so that sentences meet at tags, after a sentence whose g pair a
 * boundary cuts: each paragraph is segmented, checked and read back. */
static void test_markup_tags_property(void) {
  static const char *const langs[] = {"en", "de", "fr", "hu"};
  static const char *const sets[] = {"dev-eurlex", "dev-glossary"};
  xmt_segmenter *seg = shipped();
  struct run totals;
  memset(&totals, 0, sizeof totals);
  size_t refused = 0, paragraphs = 0;
  for (size_t l = 0; l < 4; l++) {
    for (size_t k = 0; k < 2; k++) {
      char rel[64];
      snprintf(rel, sizeof rel, "markup-tags/%s.%s", sets[k], langs[l]);
      size_t len;
      char *data = xmt_test_read_file(xmt_test_data_path(rel), &len);
      CU_ASSERT_PTR_NOT_NULL_FATAL(data);
      CU_ASSERT_EQUAL(xmt_segmenter_set_language(seg, langs[l]), XMT_OK);
      char *p = data, *end = data + len;
      while (p < end) {
        struct xmt_buf doc = {0};
        /* A g pair across the first boundary, to be cut. */
        xmt_buf_append_str(&doc, DOC_HEAD "<trans-unit id=\"p\"><source>"
                                          "Lead <g id=\"c99\">in. Out</g> "
                                          "tail. ");
        for (int n = 0; n < 3 && p < end; n++) {
          char *nl = memchr(p, '\n', (size_t)(end - p));
          size_t ll = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
          if (n > 0)
            xmt_buf_append_byte(&doc, ' ');
          xmt_buf_append(&doc, p, ll);
          p += ll + (nl != NULL);
        }
        xmt_buf_append_str(&doc, "</source></trans-unit>\n" DOC_TAIL);
        int r = round_trip(seg, doc.data, doc.len, &totals);
        CU_ASSERT_TRUE(r >= 0);
        if (r < 0)
          fprintf(stderr, "%s\n", doc.data);
        refused += r == 0;
        paragraphs++;
        xmt_buf_free(&doc);
      }
      free(data);
    }
  }
  /* Tikal's lines may hold a bx without its ex (the rest of the pair is
   * on another line): the reader takes them as isolated codes. */
  CU_ASSERT_EQUAL(refused, 0);
  CU_ASSERT_TRUE(totals.multi + refused == paragraphs);
  CU_ASSERT_TRUE(totals.cut + refused == paragraphs);
  fprintf(stderr,
          " [%zu paragraphs, %zu refused, %zu of 2+ sentences, %zu "
          "with cut pairs] ",
          paragraphs, refused, totals.multi, totals.cut);
  xmt_segmenter_free(seg);
}

static CU_TestInfo split_tests[] = {
    {"English: abbreviations, numbering, numbers, quotes", test_english},
    {"German", test_german},
    {"French", test_french},
    {"Hungarian", test_hungarian},
    {"Spanish and Italian", test_spanish_italian},
    {"Dutch and Portuguese", test_dutch_portuguese},
    {"Japanese and Chinese", test_cjk},
    {"whitespace kept exactly", test_whitespace_kept},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo srx_tests[] = {
    {"Okapi's default rules", test_okapi_default},
    {"Okapi's rules without trimming", test_okapi_no_trim},
    {"okpsrx options", test_okapi_options},
    {"rule order, maprules, cascade", test_rule_order_and_maps},
    {"bad SRX files", test_bad_srx},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo unit_tests[] = {
    {"pairs cut into bx/ex and it", test_unit_pair_cut},
    {"codes at boundaries", test_unit_codes_at_boundaries},
    {"units left alone", test_unit_left_alone},
    {"resegment", test_unit_resegment},
    {"translated segments", test_unit_translated},
    {"one whole target", test_unit_whole_target},
    {"Okapi's isolated-code rules", test_unit_okapi_isolated},
    {"property: Okapi fixtures", test_okapi_fixtures_property},
    {"property: markup-tags corpora", test_markup_tags_property},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/srx split", NULL, NULL, NULL, NULL, split_tests},
    {"filter/srx rules", NULL, NULL, NULL, NULL, srx_tests},
    {"filter/srx units", NULL, NULL, NULL, NULL, unit_tests},
    CU_SUITE_INFO_NULL,
};
