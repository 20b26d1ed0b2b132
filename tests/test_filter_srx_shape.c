/* test_filter_srx_shape.c -- no-break rules decided in C
 * (filter/segment/srx_shape.c): each decision the same as ICU's on the
 * rule's local form, at every position of texts with every code point
 * below 256 around a full stop, word boundaries, marks and format
 * characters, and white space variants; ICU left to decide above U+00FF. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ustring.h>

#include "harness.h"
#include "segmenter_private.h"

/* The local form as srx_load.c compiles it, less the prefix. */
static URegularExpression *local_of(const char *before, const char *after) {
  char pat[512];
  UChar u[512];
  int32_t n = 0;
  UErrorCode st = U_ZERO_ERROR;
  snprintf(pat, sizeof pat, "(?=(?:%s))(?<=(?:%s))", after, before);
  u_strFromUTF8(u, 512, &n, pat, -1, &st);
  URegularExpression *re = uregex_open(u, n, 0, NULL, &st);
  CU_ASSERT_FATAL(U_SUCCESS(st));
  return re;
}

/* Every position of t[0, n): C against ICU; counts the decided ones. */
static void compare(const struct srx_shape *sh, URegularExpression *re,
                    const UChar *t, int32_t n, size_t *decided, size_t *hits) {
  UErrorCode st = U_ZERO_ERROR;
  uregex_setText(re, t, n, &st);
  for (int32_t p = 0; p <= n; p++) {
    int c = xmt_srx_shape_hits(sh, t, p, n);
    if (c < 0)
      continue;
    int icu = uregex_lookingAt(re, p, &st) ? 1 : 0;
    CU_ASSERT_TRUE(U_SUCCESS(st));
    if (c != icu) {
      char b[256];
      u_strToUTF8(b, sizeof b, NULL, t, n, &st);
      fprintf(stderr, "\n\"%s\" at %d: C %d, ICU %d\n", b, (int)p, c, icu);
    }
    CU_ASSERT_EQUAL(c, icu);
    (*decided)++;
    *hits += (size_t)c;
  }
}

/* Templates; '#' is the code point tried, '_' a second one (U+00AD, a
 * combining mark, a space of another kind...). */
static const char *const templates[] = {
    "#a. b. c",  "x #a. Bc.",  "z.#B. x",   "z. #B. x", "z.#. x",
    "a#. b",     "word#. Ab",  "#. b",      "ab #. Cd", "z. B#. x",
    "z. Bc#. x", "z.#Bcd. x",  "d.w.z.# x", "p. ex.#Y", "_#a. b.",
    "#_a. b. c", "a_. b. c",   "z._B. x",   "z. _b. x", "q#_. r.",
    "e.g.# x",   "vitamin a.", "#",         "i.e. #",   "etc.#",
};

/* Line starts, abbreviations and heading labels, for groups and ^. */
static const char *const starts[] = {
    "#e.g. x",     "e.#g. x",      "e. g.# x",          "i.e#. x",
    "x #cf. y",    "op.#cit. x",   "#ibid. x",          "_cf. x",
    "#1. x",       " #1.2. x",     "1.#2.3. x",         "#IV. x",
    "_ IV. x",     "\t#12. x",     "1.2.3.4.5.6#. x",   "Article #3. x",
    "#Art. 5. x",  "Art.#5. x",    "Cap\xedtulo 3#. x", "_Section 12a. x",
    "Annex#IV. x", "Part  _7b. x", "# Title 1. x",      "A.#. d",
    "U.S.A.# x",   "A. B.  #4",    "Sec\xe7\xe3o 2.#",
};

/* A template with c for '#' and second for '_', its bytes as Latin-1. */
static int32_t expand(const char *tpl, UChar c, UChar second, UChar *t) {
  int32_t n = 0;
  for (const unsigned char *q = (const unsigned char *)tpl; *q != '\0'; q++)
    t[n++] = *q == '#' ? c : *q == '_' ? second : (UChar)*q;
  return n;
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

static void run_on(const char *before, const char *after,
                   const char *const *tpls, size_t ntpls, size_t *decided,
                   size_t *hits) {
  static const UChar seconds[] = {0x00AD, 0x0301, 0x200B, 0x2009, 0x00A0,
                                  ' ',    '\t',   0x0085, 0x000B, 0x4E00};
  int nomem = 0;
  struct srx_shape *sh = xmt_srx_shape_read(before, after, &nomem);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sh);
  URegularExpression *re = local_of(before, after);
  for (size_t k = 0; k < ntpls; k++)
    for (unsigned c = 0; c < 0x180; c++)
      for (size_t j = 0; j < COUNT(seconds); j++) {
        UChar t[32];
        int32_t n = expand(tpls[k], (UChar)c, seconds[j], t);
        compare(sh, re, t, n, decided, hits);
      }
  uregex_close(re);
  xmt_srx_shape_free(sh);
}

static void run_templates(const char *before, const char *after,
                          size_t *decided, size_t *hits) {
  run_on(before, after, templates, COUNT(templates), decided, hits);
}

/* The two Default rules of a lower-case letter and a full stop. */
static void test_default_rules(void) {
  size_t decided = 0, hits = 0;
  run_templates("\\b\\p{Ll}\\.", "\\s?\\p{L}{1,3}\\.", &decided, &hits);
  run_templates("\\b\\p{Ll}\\.\\s?\\p{L}{1,3}\\.", "\\s", &decided, &hits);
  fprintf(stderr, " [%zu decided, %zu hits] ", decided, hits);
  CU_ASSERT_TRUE(decided > 200000);
  CU_ASSERT_TRUE(hits > 10000);
}

/* Other shapes: sets, literals, \b at either end, \d, fixed counts. */
static void test_other_shapes(void) {
  static const char *const rules[][2] = {
      {"\\b[a-z]{2}\\.", "\\s\\d"},  {"\\p{Lu}\\.", "\\s?\\b"},
      {"[.,;]\\s{0,2}", "\\p{Lu}"},  {"\\bz\\.", "\\sB"},
      {"\\d{1,3}\\.", "\\s\\P{Lu}"}, {"é\\.", "[\\s\\u00A0]"},
      {"\\b\\p{L}\\b\\.", "\\S"},    {"[^a-z]\\.", ""},
  };
  for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
    size_t decided = 0, hits = 0;
    run_templates(rules[i][0], rules[i][1], &decided, &hits);
    CU_ASSERT_TRUE(decided > 10000);
  }
}

/* Groups of alternatives (nested, repeated, capturing) and ^. */
static void test_groups(void) {
  static const char *const rules[][2] = {
      {"\\b(?:e\\.\\s?g|i\\.\\s?e|cf|viz|vs|approx|incl|esp|ca|al|ibid|"
       "op\\.\\s?cit)\\.",
       "\\s"},
      {"^\\s{0,8}(?:\\d{1,3}(?:\\.\\d{1,3}){0,4}|[IVXLC]{1,6})\\.", "\\s"},
      {"^\\s{0,8}(?:Article|Art\\.|Chapter|Section|Annex|Part|Title|"
       "Cap\xc3\xadtulo|Sec\xc3\xa7\xc3\xa3o)\\s{1,8}(?:\\d{1,4}[a-z]?|"
       "[IVXLC]{1,8})\\.",
       "\\s"},
      {"(?:^|\\s)(\\p{Lu}|\\d\\b)\\.", "(?:\\s|x)?(?:[a-z]{1,2}|\\b)"},
      {"\\b(?:[Aa]rts?|[Nn]os?|pp?)\\.", "\\s{0,2}(?:\\d|\\(|[IVX]{1,3}\\b)"},
      {"^(?:a|\\b)", "(?:\\.\\s)?"},
      {"\\b(?:\\p{Lu}\\.){2,8}", "\\s+[^\\s\\p{Lu}]"},
      {"\\b(?:Art|p|Nos?)\\.", "\\s*(?:\\d|\\(|[IVXLC]+\\b)"},
      {"\\d\\.", "\\s*\xc2\xa7"},
  };
  for (size_t i = 0; i < COUNT(rules); i++) {
    size_t decided = 0, hits = 0;
    run_on(rules[i][0], rules[i][1], starts, COUNT(starts), &decided, &hits);
    run_on(rules[i][0], rules[i][1], templates, COUNT(templates), &decided,
           &hits);
    fprintf(stderr, " [%zu decided, %zu hits] ", decided, hits);
    CU_ASSERT_TRUE(decided > 100000);
    CU_ASSERT_TRUE(hits > 10);
  }
}

static int hits_at(const char *before, const char *after, const char *text,
                   int32_t p) {
  UChar u[64];
  int32_t n = 0;
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8(u, 64, &n, text, -1, &st);
  int nomem = 0;
  struct srx_shape *sh = xmt_srx_shape_read(before, after, &nomem);
  int r = sh != NULL ? xmt_srx_shape_hits(sh, u, p, n) : -2;
  xmt_srx_shape_free(sh);
  return r;
}

/* Exact answers, and ICU left to decide where it must. */
static void test_exact(void) {
  const char *b1 = "\\b\\p{Ll}\\.", *a1 = "\\s?\\p{L}{1,3}\\.";
  const char *b2 = "\\b\\p{Ll}\\.\\s?\\p{L}{1,3}\\.";
  CU_ASSERT_EQUAL(hits_at(b1, a1, "z. B. x", 2), 1);
  CU_ASSERT_EQUAL(hits_at(b1, a1, "d.w.z. x", 2), 1);
  CU_ASSERT_EQUAL(hits_at(b1, a1, "The end. Rent", 8), 0);
  CU_ASSERT_EQUAL(hits_at(b1, a1, "xz. B. x", 3), 0);
  CU_ASSERT_EQUAL(hits_at(b1, a1,
                          "\xc2\xad"
                          "z. B.",
                          3),
                  1);
  CU_ASSERT_EQUAL(hits_at(b1, a1,
                          "x\xc2\xad"
                          "z. B.",
                          4),
                  0);
  CU_ASSERT_EQUAL(hits_at(b1, a1, "z. \xc4\x80.", 2), -1);
  CU_ASSERT_EQUAL(hits_at(b1, a1, "\xc4\x80z. B.", 3), -1);
  CU_ASSERT_EQUAL(hits_at(b2, "\\s", "z. B. x", 5), 1);
  CU_ASSERT_EQUAL(hits_at(b2, "\\s", "p. ex. Y", 6), 1);
  CU_ASSERT_EQUAL(hits_at(b2, "\\s", "d.w.z. x", 6), 1);
  CU_ASSERT_EQUAL(hits_at(b2, "\\s", "the end. Rent", 8), 0);
  CU_ASSERT_EQUAL(hits_at(b2, "\\s", "z. B.x", 5), 0);
  /* groups of alternatives, ^ (the start of the text) */
  const char *ab = "\\b(?:e\\.\\s?g|i\\.\\s?e|cf|op\\.\\s?cit)\\.";
  CU_ASSERT_EQUAL(hits_at("(?:Mr|Dr)\\.", "\\s", "Mr. X", 3), 1);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s", "e.g. x", 4), 1);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s", "see e. g. x", 9), 1);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s", "op. cit. x", 8), 1);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s", "ecf. x", 4), 0);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s", "e.gg. x", 5), 0);
  CU_ASSERT_EQUAL(hits_at(ab, "\\s",
                          "\xc4\x80"
                          "cf. x",
                          4),
                  -1);
  const char *num = "^\\s{0,8}(?:\\d{1,3}(?:\\.\\d{1,3}){0,4}|[IVXLC]{1,6})\\.";
  CU_ASSERT_EQUAL(hits_at(num, "\\s", "1.2.3. x", 6), 1);
  CU_ASSERT_EQUAL(hits_at(num, "\\s", "  IV. x", 5), 1);
  CU_ASSERT_EQUAL(hits_at(num, "\\s", "a 1. x", 4), 0);
  CU_ASSERT_EQUAL(hits_at(num, "\\s", "1.2.3.4.5.6. x", 12), 0);
  CU_ASSERT_EQUAL(hits_at("(?:a|bc)?\\.", "\\s?(?:^|x)", "a.x", 2), 1);
  /* not of the shape: unbounded, groups, look-arounds, any character */
  CU_ASSERT_EQUAL(hits_at("\\p{Ll}+\\.", "\\s", "ab. c", 3), -2);
  CU_ASSERT_EQUAL(hits_at("(?:a|)+\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("(?:a|){2}\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("(?i)a\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("(?>a)\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a\\.$", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a.", "\\s", "ab b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s??", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a{1,20}\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a+\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a\\.", "(?:\\sb)+", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s+?b", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s{2", "a. b", 2), -2);
  /* look-behinds: negative and positive, of sets and of groups */
  const char *ord = "(?<![\\d.,])\\b\\d{1,3}\\.";
  CU_ASSERT_EQUAL(hits_at(ord, "\\s+\\p{Lu}", "am 3. Oktober", 5), 1);
  CU_ASSERT_EQUAL(hits_at(ord, "\\s+\\p{Lu}", "1.3. Mai", 4), 0);
  CU_ASSERT_EQUAL(hits_at(ord, "\\s+\\p{Lu}", "4,12. Mai", 5), 0);
  CU_ASSERT_EQUAL(hits_at(ord, "\\s+\\p{Lu}", "12. Mai", 3), 1);
  CU_ASSERT_EQUAL(hits_at("(?<!x)a\\.", "\\s", "a. b", 2), 1);
  CU_ASSERT_EQUAL(hits_at("(?<!x)a\\.", "\\s", "xa. b", 3), 0);
  CU_ASSERT_EQUAL(hits_at("(?<=x)a\\.", "\\s", "xa. b", 3), 1);
  CU_ASSERT_EQUAL(hits_at("(?<=x)a\\.", "\\s", "ya. b", 3), 0);
  CU_ASSERT_EQUAL(hits_at("(?<!x)a\\.", "\\s",
                          "\xc4\x80"
                          "a. b",
                          3),
                  1);
  CU_ASSERT_EQUAL(hits_at("(?<!\\p{L})a\\.", "\\s",
                          "\xc4\x80"
                          "a. b",
                          3),
                  -1);
  const char *abbr = "[.?!](?<!\\b(?:[Aa]rts?|S)\\.)\\s{1,8}\\d\\.";
  CU_ASSERT_EQUAL(hits_at(abbr, "\\s", "See art. 5. x", 11), 0);
  CU_ASSERT_EQUAL(hits_at(abbr, "\\s", "See cart. 5. x", 12), 1);
  CU_ASSERT_EQUAL(hits_at(abbr, "\\s", "Go! 5. x", 6), 1);
  CU_ASSERT_EQUAL(hits_at(abbr, "\\s", "p. S. 5. x", 8), 0);
  CU_ASSERT_EQUAL(hits_at("(?<!x)?a\\.", "\\s", "a. b", 2), -2);
  CU_ASSERT_EQUAL(hits_at("(?<!x+)a\\.", "\\s", "a. b", 2), -2);
  /* * and + in the afterbreak: runs to the end of the text */
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s*\\d", "a.     4", 2), 1);
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s+\\d", "a.4", 2), 0);
  CU_ASSERT_EQUAL(hits_at("a\\.", "\\s*\\d", "a.    ", 2), 0);
}

/* Every shipped rule the C form reads decides as its local form does, on
 * the templates' texts with the letters of the rules' languages. */
static void test_shipped_rules(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL_FATAL(xmt_segmenter_set_language(s, "en"), XMT_OK);
  size_t shapes = 0, decided = 0, hits = 0;
  for (size_t i = 0; i < s->doc.nlangrules; i++) {
    struct srx_langrule *lr = &s->doc.langrules[i];
    CU_ASSERT_EQUAL_FATAL(xmt_srx_compile_langrule(s, lr), XMT_OK);
    for (size_t j = 0; j < lr->nrules; j++) {
      struct srx_rule *r = &lr->rules[j];
      if (r->shape == NULL || !r->has_local)
        continue;                    /* the find forms are below */
      UErrorCode ust = U_ZERO_ERROR; /* compiled when first needed */
      CU_ASSERT_PTR_NOT_NULL_FATAL(xmt_srx_rule_local(s, r, &ust));
      shapes++;
      for (size_t k = 0; k < COUNT(templates) + COUNT(starts); k++)
        for (unsigned c = 0; c < 0x180; c++) {
          UChar t[32];
          const char *tpl = k < COUNT(templates) ? templates[k]
                                                 : starts[k - COUNT(templates)];
          int32_t n = expand(tpl, (UChar)c, (UChar)c, t);
          compare(r->shape, r->local, t, n, &decided, &hits);
        }
    }
  }
  fprintf(stderr, " [%zu rules, %zu decided, %zu hits] ", shapes, decided,
          hits);
  CU_ASSERT_TRUE(shapes >= 2);
  CU_ASSERT_TRUE(hits > 100);
  xmt_segmenter_free(s);
}

/* --- Find forms: rules searched through the text -------------------------
 */

/* The C find of (before)(after) in text from start: where the beforebreak
 * ends (1 with *end), 0, -1 unsure; -2 when not of the shape. Checked
 * against ICU's find when sure. */
static int find_at(const char *before, const char *after, const char *text,
                   int32_t start, int32_t *end) {
  UChar t[128], u[512];
  char pat[512];
  int32_t n = 0, nu = 0;
  UErrorCode st = U_ZERO_ERROR;
  int nomem = 0;
  u_strFromUTF8(t, 128, &n, text, -1, &st);
  struct srx_shape *sh = xmt_srx_shape_read_find(before, after, &nomem);
  CU_ASSERT_FALSE(nomem);
  if (sh == NULL)
    return -2;
  *end = -1;
  int r = xmt_srx_shape_find(sh, t, start, n, end);
  snprintf(pat, sizeof pat, "(%s)(%s)", before, after);
  u_strFromUTF8(u, 512, &nu, pat, -1, &st);
  URegularExpression *re = uregex_open(u, nu, 0, NULL, &st);
  uregex_setText(re, t, n, &st);
  int icu = uregex_find(re, start, &st);
  CU_ASSERT_TRUE(U_SUCCESS(st));
  if (r >= 0) {
    CU_ASSERT_EQUAL(r, icu);
    if (r == 1 && icu)
      CU_ASSERT_EQUAL(*end, uregex_end(re, 1, &st));
  }
  uregex_close(re);
  xmt_srx_shape_free(sh);
  return r;
}

/* Exact finds: greedy quantifiers and alternatives in order decide where
 * the beforebreak ends; a search from inside a match's afterbreak. */
static void test_find_exact(void) {
  int32_t e;
  const char *stop =
      "[.?!\xe2\x80\xa6]+(?:[\\u00A0\\u202F]?[\\p{Pe}\\p{Pf}\"'])*";
  const char *next = "\\s+[^\\s\\p{Ll}]";
  CU_ASSERT_EQUAL(find_at(stop, next, "Go... Now", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 5);
  CU_ASSERT_EQUAL(find_at(stop, next, "He said \"no.\") Then", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 14);
  CU_ASSERT_EQUAL(find_at(stop, next, "a. b. C", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 5);
  CU_ASSERT_EQUAL(find_at(stop, next, "a.\xc2\xa0\" B", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 4);
  CU_ASSERT_EQUAL(find_at(stop, next, "Wait\xe2\x80\xa6 Yes", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 5);
  CU_ASSERT_EQUAL(find_at(stop, next, "no stop here", 0, &e), 0);
  /* a closing quote above U+00FF: ICU decides */
  CU_ASSERT_EQUAL(find_at(stop, next, "Yes.\xe2\x80\x9d No", 0, &e), -1);
  CU_ASSERT_EQUAL(find_at(stop, next, "Yes. \xe2\x80\x9cNo", 0, &e), -1);
  /* greedy: the longest run first, then shorter */
  CU_ASSERT_EQUAL(find_at("a+", "a*b", "aaab", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 3);
  CU_ASSERT_EQUAL(find_at("a{1,2}", "ab", "aaab", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  /* alternatives in order, a group tried once more first */
  CU_ASSERT_EQUAL(find_at("(?:a|ab)", "b?c", "abc", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 1);
  CU_ASSERT_EQUAL(find_at("(?:ab|a)+", "b?c", "ababc", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 4);
  /* overlaps: from where the last beforebreak ended, in its afterbreak */
  CU_ASSERT_EQUAL(find_at("\\.", "\\.?\\s", "a.. b", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  CU_ASSERT_EQUAL(find_at("\\.", "\\.?\\s", "a.. b", 2, &e), 1);
  CU_ASSERT_EQUAL(e, 3);
  /* an empty beforebreak, and a match at the text's end */
  CU_ASSERT_EQUAL(find_at("", "\\s", "a b", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 1);
  CU_ASSERT_EQUAL(find_at("", "\\s", "a b", 2, &e), 0);
  CU_ASSERT_EQUAL(find_at("", "", "ab", 2, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  CU_ASSERT_EQUAL(find_at("\\.", "", "a.", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  CU_ASSERT_EQUAL(find_at("[\\n\\u2029]", "", "a\xe2\x80\xa9", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  CU_ASSERT_EQUAL(find_at("\\bx\\.", "\\s", "ax. x. y", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 6);
  CU_ASSERT_EQUAL(find_at("^\\d\\.", "", "1. 2.", 1, &e), 0);
  /* look-behinds, before any start */
  CU_ASSERT_EQUAL(find_at("(?<=x)a", "", "xa", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 2);
  CU_ASSERT_EQUAL(find_at("(?<=x)a", "", "xa", 1, &e), 1);
  CU_ASSERT_EQUAL(find_at("(?<!x)a", "", "xa ya", 0, &e), 1);
  CU_ASSERT_EQUAL(e, 5);
  /* not of the shape */
  CU_ASSERT_EQUAL(find_at("(?:a?)+", "b", "ab", 0, &e), -2);
  CU_ASSERT_EQUAL(find_at("a+?", "b", "ab", 0, &e), -2);
}

/* Each shipped rule with a find form, from every start of the templates'
 * texts with the code points below U+0180: where sure, ICU's find. */
static void test_shipped_finds(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  size_t finds = 0, sure = 0, found = 0;
  for (size_t i = 0; i < s->doc.nlangrules; i++) {
    struct srx_langrule *lr = &s->doc.langrules[i];
    CU_ASSERT_EQUAL_FATAL(xmt_srx_compile_langrule(s, lr), XMT_OK);
    for (size_t j = 0; j < lr->nrules; j++) {
      struct srx_rule *r = &lr->rules[j];
      if (r->shape == NULL || r->has_local)
        continue;
      finds++;
      UErrorCode st = U_ZERO_ERROR; /* compiled when first needed */
      CU_ASSERT_PTR_NULL(r->re);
      CU_ASSERT_PTR_NOT_NULL_FATAL(xmt_srx_rule_whole(s, r, &st));
      for (size_t k = 0; k < COUNT(templates) + COUNT(starts); k++)
        for (unsigned c = 0; c < 0x180; c++) {
          UChar t[32];
          const char *tpl = k < COUNT(templates) ? templates[k]
                                                 : starts[k - COUNT(templates)];
          int32_t n = expand(tpl, (UChar)c, c == 0x20 ? 0x2026 : 0xA0, t);
          uregex_setText(r->re, t, n, &st);
          for (int32_t p = 0; p <= n; p++) {
            int32_t e = -1;
            int cf = xmt_srx_shape_find(r->shape, t, p, n, &e);
            if (cf < 0)
              continue;
            int icu = uregex_find(r->re, p, &st) ? 1 : 0;
            CU_ASSERT_EQUAL(cf, icu);
            if (cf && icu)
              CU_ASSERT_EQUAL(e, uregex_end(r->re, 1, &st));
            sure++;
            found += (size_t)cf;
          }
          uregex_setText(r->re, t, 0, &st);
        }
    }
  }
  fprintf(stderr, " [%zu rules, %zu sure, %zu found] ", finds, sure, found);
  CU_ASSERT_EQUAL(finds, 3); /* Default's break rules */
  CU_ASSERT_TRUE(found > 1000);
  xmt_segmenter_free(s);
}

/* The segments of text under one rule file (not trimmed), as a string;
 * calls: the finds and tests made with ICU. */
static void breaks_are(const char *rules, const char *text, const char *want,
                       unsigned long calls) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL_FATAL(
      xmt_segmenter_load_srx_memory(s, rules, strlen(rules), "t.srx"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "en"), XMT_OK);
  const struct xmt_span *sp;
  size_t n = 0;
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, text, strlen(text), &sp, &n), XMT_OK);
  char got[128] = "";
  for (size_t i = 0; i < n; i++)
    snprintf(got + strlen(got), sizeof got - strlen(got), "%s%zu-%zu",
             i ? " " : "", sp[i].start, sp[i].end);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "\n\"%s\": %s, want %s\n", text, got, want);
  CU_ASSERT_STRING_EQUAL(got, want);
  CU_ASSERT_EQUAL(s->regex_calls, calls);
  xmt_segmenter_free(s);
}

#define RULES(b1, a1, b2, a2)                                                  \
  "<srx xmlns='http://www.lisa.org/srx20' version='2.0'><header "              \
  "cascade='no'/><body><languagerules><languagerule "                          \
  "languagerulename='D'><rule break='no'><beforebreak>" b1                     \
  "</beforebreak><afterbreak>" a1 "</afterbreak></rule><rule><beforebreak>" b2 \
  "</beforebreak><afterbreak>" a2 "</afterbreak></rule></languagerule>"        \
  "</languagerules><maprules><languagemap languagepattern='.*' "               \
  "languagerulename='D'/></maprules></body></srx>"

/* Whole runs, the break rules searched in C (no ICU call where the text
 * is below U+0100): overlapping matches, an empty beforebreak, a break at
 * the text's end (none), the first rule to hit a position. */
static void test_find_runs(void) {
  /* "a.. b": the second full stop is found inside the first's afterbreak */
  breaks_are(RULES("x", "y", "\\.", "\\.?\\s"), "a.. b", "0-2 2-3 3-5", 0);
  /* an empty beforebreak: before each space */
  breaks_are(RULES("x", "y", "", "\\s"), "ab cd e", "0-2 2-5 5-7", 0);
  /* at the text's end: no break, no empty segment */
  breaks_are(RULES("x", "y", "\\.", ""), "a.b.", "0-2 2-4", 0);
  /* a no-break rule searched too (unbounded), first to hit */
  breaks_are(RULES("\\bNo\\.+", "\\s", "\\.", "\\s"), "No.. 5. Ok", "0-7 7-10",
             0);
  /* ICU where a character above U+00FF counts: one find from the start
   * whose match holds it, the rest in C */
  breaks_are(RULES("x", "y", "\\.\\p{Pf}*", "\\s"), "a.\xe2\x80\x9d b. c. d",
             "0-5 5-8 8-11 11-13", 1);
}

static CU_TestInfo shape_tests[] = {
    {"Default rules of a lower-case letter, against ICU", test_default_rules},
    {"other shapes against ICU", test_other_shapes},
    {"groups of alternatives and ^, against ICU", test_groups},
    {"exact answers; shapes not read", test_exact},
    {"every shipped rule read, against ICU", test_shipped_rules},
    {"find forms: exact answers", test_find_exact},
    {"find forms of the shipped rules, against ICU", test_shipped_finds},
    {"runs searched in C", test_find_runs},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/srx shapes", NULL, NULL, NULL, NULL, shape_tests},
    CU_SUITE_INFO_NULL,
};
