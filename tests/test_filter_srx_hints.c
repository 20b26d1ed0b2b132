/* test_filter_srx_hints.c -- what the segmenter reads from a beforebreak
 * to call ICU less (filter/segment/srx_scan.c): exact hints for known
 * patterns, none for syntax it does not read; each hint checked against
 * ICU itself at every position of a corpus (a hint may only turn away
 * positions where the beforebreak cannot match); and the number of regular
 * expression calls a segmentation makes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ustring.h>

#include "harness.h"
#include "segmenter_private.h"

/* --- Exact hints ---------------------------------------------------------- */

static int has_end(const struct srx_hints *h, const char *ascii) {
  size_t n = strlen(ascii);
  for (int k = 0; k < h->nends; k++) {
    if (h->ends_len[k] != n)
      continue;
    size_t i = 0;
    while (i < n && h->ends[k][i] == (UChar)ascii[i])
      i++;
    if (i == n)
      return 1;
  }
  return 0;
}

static void test_titles(void) {
  struct srx_hints h;
  CU_ASSERT_EQUAL_FATAL(xmt_srx_scan("\\b(?:Mr|Mrs)\\.", &h), XMT_OK);
  CU_ASSERT_EQUAL(h.nreq, 1);
  CU_ASSERT_EQUAL(h.req[0], '.');
  CU_ASSERT_EQUAL(h.nends, 2);
  CU_ASSERT_TRUE(has_end(&h, "Mr."));
  CU_ASSERT_TRUE(has_end(&h, "Mrs."));
  CU_ASSERT_EQUAL(h.max16, -1);
  CU_ASSERT_TRUE(h.selective);
  CU_ASSERT_STRING_EQUAL(h.prefix, "(?<=[\\u0072\\u0073][\\u002E])");
  CU_ASSERT_FALSE(h.end_short);
  /* The last two units first: "s." and "r." pass on to the strings. */
  const UChar t[] = {'M', 'r', '.', 'M', 's', '.', 'x', 'r',
                     '.', 'M', 'r', 's', '.', 'g', '.'};
  CU_ASSERT_TRUE(xmt_srx_may_end(&h, t, 3));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 6));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 9));
  CU_ASSERT_TRUE(xmt_srx_may_end(&h, t, 13));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 15));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 1));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 0));
  xmt_srx_hints_free(&h);
}

static void test_numbers(void) {
  struct srx_hints h;
  CU_ASSERT_EQUAL_FATAL(xmt_srx_scan("\\d[.,]", &h), XMT_OK);
  CU_ASSERT_EQUAL(h.nreq, 2);
  CU_ASSERT_EQUAL(h.nends, 2);
  CU_ASSERT_TRUE(has_end(&h, "."));
  CU_ASSERT_TRUE(has_end(&h, ","));
  CU_ASSERT_FALSE(h.selective); /* one character: most full stops pass */
  CU_ASSERT_TRUE(h.end_short);  /* so the last two units turn none away */
  const UChar t[] = {'x', '3', '.', 'a', '.'};
  CU_ASSERT_TRUE(xmt_srx_may_end(&h, t, 3));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, t, 5)); /* "a.": "a" is no \d */
  CU_ASSERT_STRING_EQUAL(h.prefix, "(?<=[\\d][[.,]])");
  xmt_srx_hints_free(&h);
}

/* The most UTF-16 units of an anchored match: \s and \d may be two. */
static void test_anchored(void) {
  struct srx_hints h;
  CU_ASSERT_EQUAL_FATAL(
      xmt_srx_scan("^\\s{0,8}(?:\\d{1,3}|[IVXLC]{1,6})\\.", &h), XMT_OK);
  CU_ASSERT_EQUAL(h.max16, 16 + 6 + 1);
  CU_ASSERT_TRUE(h.selective);
  CU_ASSERT_EQUAL(h.nreq, 1);
  CU_ASSERT_EQUAL(h.req[0], '.');
  xmt_srx_hints_free(&h);
  CU_ASSERT_EQUAL_FATAL(xmt_srx_scan("^Art\\.|\\bNo\\.", &h), XMT_OK);
  CU_ASSERT_EQUAL(h.max16, -1); /* two branches: not anchored */
  CU_ASSERT_EQUAL(h.nends, 2);
  CU_ASSERT_TRUE(has_end(&h, "Art."));
  CU_ASSERT_TRUE(has_end(&h, "No."));
  xmt_srx_hints_free(&h);
}

static void test_break_rule(void) {
  struct srx_hints h;
  CU_ASSERT_EQUAL_FATAL(
      xmt_srx_scan(
          "[.?!\xE2\x80\xA6]+(?:[\\u00A0\\u202F]?[\\p{Pe}\\p{Pf}\"'])*", &h),
      XMT_OK);
  CU_ASSERT_EQUAL(h.nreq, 4);
  CU_ASSERT_EQUAL(h.req[3], 0x2026);
  CU_ASSERT_EQUAL(h.nends, 0); /* closing marks may follow */
  xmt_srx_hints_free(&h);
  CU_ASSERT_EQUAL_FATAL(xmt_srx_scan("[\\n\\u2029]", &h), XMT_OK);
  CU_ASSERT_EQUAL(h.nreq, 2);
  CU_ASSERT_EQUAL(h.req[0], '\n');
  CU_ASSERT_EQUAL(h.req[1], 0x2029);
  xmt_srx_hints_free(&h);
}

/* Whether some end of h ends text[0, p), by every end in turn. */
static int any_end(const struct srx_hints *h, const UChar *text, int32_t p) {
  for (int k = 0; k < h->nends; k++) {
    int32_t n = h->ends_len[k], j = 1;
    while (j <= n && n <= p && text[p - j] == h->ends[k][n - j])
      j++;
    if (n <= p && j > n)
      return 1;
  }
  return 0;
}

/* The ends looked up by their last two units: ends that are suffixes of
 * one another, that share their last two units or only their bucket ("rn"
 * and "r." hash alike), an end as long as the text, one unit long. */
static void test_end_lookup(void) {
  struct srx_hints h;
  CU_ASSERT_EQUAL_FATAL(xmt_srx_scan("(?:r|Mr|Mrs|rs|Dr|Jr|urn)\\.|urn|Q", &h),
                        XMT_OK);
  CU_ASSERT_EQUAL(h.nends, 9);
  CU_ASSERT_TRUE(has_end(&h, "urn."));
  CU_ASSERT_TRUE(has_end(&h, "Q"));
  CU_ASSERT_EQUAL(h.end_at[0], 1); /* "Q" first */
  CU_ASSERT_EQUAL(h.end_at[SRX_END_BUCKETS], 9);
  CU_ASSERT_TRUE(h.end_short);
  const UChar a[] = {'r', '.'}, b[] = {'r', 'n'}, q[] = {'Q'};
  CU_ASSERT_TRUE(xmt_srx_may_end(&h, a, 2)); /* as long as the text */
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, a, 1));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, a, 0));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, b, 2)); /* "r."'s bucket, no end */
  CU_ASSERT_TRUE(xmt_srx_may_end(&h, q, 1));
  CU_ASSERT_FALSE(xmt_srx_may_end(&h, q, 0));
  static const struct {
    const char *text;
    int yes;
  } cases[] = {
      {"Mrs.", 1}, {"xrs.", 1}, {"xs.", 0}, {"Jr.", 1},  {"Xr.", 1},
      {"Dr.", 1},  {"urn", 1},  {"Urn", 0}, {"urn.", 1}, {"Urn.", 0},
      {"xQ", 1},   {"Qx", 0},   {"rn.", 0}, {"n.", 0},   {"rr", 0},
      {"Mrs", 0},  {"s.", 0},   {"rs.", 1}, {".", 0},    {"Q.", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    UChar t[8];
    int32_t n = (int32_t)strlen(cases[i].text);
    for (int32_t k = 0; k < n; k++)
      t[k] = (UChar)cases[i].text[k];
    CU_ASSERT_EQUAL(xmt_srx_may_end(&h, t, n), cases[i].yes);
    CU_ASSERT_EQUAL(any_end(&h, t, n), cases[i].yes);
  }
  /* Every position of every text of four units from the ends' letters. */
  const char abc[] = "rsMDJunQ.x";
  for (int c = 0; c < 10 * 10 * 10 * 10; c++) {
    UChar t[4] = {(UChar)abc[c % 10], (UChar)abc[c / 10 % 10],
                  (UChar)abc[c / 100 % 10], (UChar)abc[c / 1000]};
    for (int32_t p = 0; p <= 4; p++)
      if (xmt_srx_may_end(&h, t, p) != any_end(&h, t, p))
        CU_FAIL("an end looked up differs from every end in turn");
  }
  xmt_srx_hints_free(&h);
}

/* Flags, back references, quoting: no hint at all. */
static void test_not_read(void) {
  static const char *const pats[] = {
      "(?i)mr\\.",        "((?i)jan|feb)\\.",
      "(a)\\1\\.",        "\\Qe.g.\\E",
      "(?<name>x)\\.",    "\\x{2E}",
      "a{,3}\\.",         "[a-z",
      "(?x) a \\. # end", "",
  };
  for (size_t i = 0; i < sizeof pats / sizeof *pats; i++) {
    struct srx_hints h;
    CU_ASSERT_EQUAL_FATAL(xmt_srx_scan(pats[i], &h), XMT_OK);
    CU_ASSERT_EQUAL(h.nreq, 0);
    CU_ASSERT_EQUAL(h.nends, 0);
    CU_ASSERT_EQUAL(h.max16, -1);
    CU_ASSERT_PTR_NULL(h.prefix);
    CU_ASSERT_FALSE(h.selective);
    xmt_srx_hints_free(&h);
  }
}

/* --- Hints against ICU ---------------------------------------------------- */

/* Beforebreaks of the shipped rules, of Okapi's and some harder ones. */
static const char *const befores[] = {
    "\\b(?:Mr|Mrs|Ms|Messrs|Dr|Prof|St|Gen|Hon|Rev|Capt|Col|Lt|Sgt|Gov|Sen|"
    "Rep|Mt|Ft)\\.",
    "\\b(?:e\\.\\s?g|i\\.\\s?e|cf|viz|vs|approx|incl|esp|ca|al|ibid|op\\.\\s?"
    "cit)\\.",
    "\\b(?:No|Nos|no|nos|Art|Arts|art|arts|para|paras|p|pp|[Vv]ol|[Vv]ols|"
    "[Ff]ig|[Ff]igs|[Cc]h|[Ss]ec|[Ss]ecs|Reg|Dir|Nr|nr)\\.",
    "(?<![\\d.,])\\b\\d{1,3}\\.",
    "\\bc\\.-\xC3\xA0-d\\.",
    "\\b\\d{4}\\.",
    "\\b[IVX]{1,4}\\.",
    "\\b(?:\\p{Lu}\\.){2,8}",
    "(?<![\\p{L}\\p{N}.'\xE2\x80\x99-])\\p{Lu}\\.",
    "\\b\\p{Ll}\\.",
    "\\b\\p{Ll}\\.\\s?\\p{L}{1,3}\\.",
    "^\\s{0,8}(?:\\d{1,3}(?:\\.\\d{1,3}){0,4}|[IVXLC]{1,6})\\.",
    "[.?!\xE2\x80\xA6:;](?<!\\b(?:[Aa]rts?|[Nn]os?|[Nn]rn?|nn?|pp?|S|Abs|"
    "paras?|Ziff|lit|Bd|[Vv]ol|cap|pag|p\xC3\xA1g|n\xC3\xBAm|blz|[Ff]ig|[Cc]h|"
    "[Ss]ec|sz)\\.)\\s{1,8}(?:\\d{1,3}(?:\\.\\d{1,3}){0,4}|[IVXLC]{1,6})\\.",
    "^\\s{0,8}(?:Article|Art\\.|Chapter|Section|Annex|Part)\\s{1,8}(?:\\d{1,4}"
    "[a-z]?|[IVXLC]{1,8})\\.",
    "\\d\\.",
    "[\\[(](?:\\.{3}|\xE2\x80\xA6)[\\])]",
    "\\d[.,]",
    "[.?!\xE2\x80\xA6]+(?:[\\u00A0\\u202F]?[\\p{Pe}\\p{Pf}\"'])*",
    "[\\u3002\\uFF61\\uFF01\\uFF1F]+[\\p{Pe}\\p{Pf}\"']+",
    "[\\n\\u2029]",
    "\\b(St|Gen|Hon|Dr|Mr|Ms|Mrs|Col|Maj|Brig|Sgt|Capt|Cmnd|Sen|Rev|Rep|Revd)"
    "\\.",
    "\\b(pp|e\\.?\\s*g|i\\.?\\s*e|no|[Vv]ol|[Rr]col|maj|Lt|[Ff]ig|[Ff]igs|[Vv]"
    "iz|[Vv]ols|[Aa]pprox|[Ii]ncl|Pres|Prof|[Dd]ept|min|max|[Gg]ovt|c\\.?\\s*"
    "f|vs)\\.",
    "\\b[Vv]\\.?[Ss]\\.",
    "([A-Z]\\.){2,}",
    "\\w+[\\p{Pe}\\p{Po}\"]*[\\.?!:]+[\\p{Pe}\\p{Po}\"]*",
    "[\\u17D4\\u17D5]",
    "(?:ab|a)?c\\.",
    "x*(?:\\.|!)y?",
    "(?:a|bc){2}\\.",
    "\\.{2,3}",
    "(?=\\.)\\.",
    "\xF0\x9D\x90\x80\\.",
    "[\xF0\x9D\x90\x80-\xF0\x9D\x90\x99]\\.",
    ".\\.",
    "[^a-z]\\.",
    "[a-c-]\\.",
    "\\p{Lu}?\\.",
    "(?:Nr|\\d)\\.?",
};

static const char *const texts[] = {
    "Mr. Smith met Mrs. Jones. They talked. Then Dr. Who arrived!",
    "See e.g. Annex II, i.e. the list; cf. op. cit. and vs. approx. 5 km.",
    "No. 1234/2007, Art. 5, pp. 3-4. Vol. II. Fig. 3. Sec. 2. Reg. 7.",
    "am 3. Oktober 2021. III. 5. und im 19. Jahrhundert. c.-\xC3\xA0-d. oui",
    "the U.K. not the U.S.A. Then J. R. R. Tolkien and z. B. die d. h. Sache.",
    "1. Member States 1.2. Scope IV. Final provisions. Art. 5. Poi",
    "  Article 3. Scope Chapter IV. Rules Part 2a. Annex XII. End.",
    "the Regulation [...] Member (\xE2\x80\xA6) States. 3.5 and 1,000.25 "
    "euros.",
    "\xE3\x80\x8C\xE3\x81\xAF\xE3\x81\x84\xE3\x80\x82\xE3\x80\x8D\xE3\x81\xA8"
    "\xE8\xA8\x80\xE3\x81\xA3\xE3\x81\x9F\xE3\x80\x82\xE5\xA5\xBD\xEF\xBC\x81",
    "line one\nline two\xE2\x80\xA9para. \xE2\x80\x9CQuote.\xE2\x80\x9D Next?"
    "\xC2\xA0\xC2\xBB Yes.",
    "\xF0\x9D\x90\x80. \xF0\x9D\x90\x81. B. abc. bcbc. abab. ac. x!y ..., "
    "....",
    "Nr. 5, Nr 5. 7 abc. a. A. -. 1.. ?. \xE1\x9F\x94 end",
    ".",
    "",
    "a",
    ". .",
    "Mr.",
    "e.g.",
    "\n",
    "U.S.",
    "x.y.z.",
};

/* text as UTF-16, *n units; malloc'd. */
static UChar *u16_of(const char *text, int32_t *n) {
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8(NULL, 0, n, text, -1, &st);
  UChar *u = malloc(((size_t)*n + 1) * sizeof *u);
  st = U_ZERO_ERROR;
  if (u != NULL)
    u_strFromUTF8(u, *n + 1, n, text, -1, &st);
  return u;
}

/* Compiles the pattern made of parts, up to a NULL one. */
static URegularExpression *open_re(const char *const *parts) {
  struct xmt_buf p = {0};
  for (; *parts != NULL; parts++)
    xmt_buf_append(&p, *parts, strlen(*parts));
  xmt_buf_append(&p, "", 1);
  int32_t n16;
  UChar *u = u16_of(p.data, &n16);
  xmt_buf_free(&p);
  UParseError pe;
  UErrorCode st = U_ZERO_ERROR;
  URegularExpression *re = uregex_open(u, n16, 0, &pe, &st);
  free(u);
  return U_SUCCESS(st) ? re : NULL;
}

static int holds_req(const struct srx_hints *h, const UChar *u, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    for (int k = 0; k < h->nreq; k++)
      if (u[i] == h->req[k])
        return 1;
  return 0;
}

/* Checks the hints of before at every position of text: where ICU finds
 * the beforebreak ending, the hints must let it; the prefixed look-behind
 * must say what the plain one says; a text where ICU finds a match must
 * hold a required character. Returns the positions checked. */
static size_t check_text(const char *before, const struct srx_hints *h,
                         URegularExpression *plain, URegularExpression *pre,
                         URegularExpression *fwd, const char *text) {
  int32_t n;
  UChar *u = u16_of(text, &n);
  UErrorCode st = U_ZERO_ERROR;
  size_t checked = 0;
  uregex_setText(fwd, u, n, &st);
  if (h->nreq > 0 && uregex_find(fwd, 0, &st) && !holds_req(h, u, n)) {
    CU_FAIL("a match without a required character");
    fprintf(stderr, "\n%s in \"%s\"\n", before, text);
  }
  if (plain != NULL) {
    uregex_setText(plain, u, n, &st);
    if (pre != NULL)
      uregex_setText(pre, u, n, &st);
    for (int32_t p = 0; p <= n && U_SUCCESS(st); p++) {
      int hit = uregex_lookingAt(plain, p, &st);
      int ok = !hit || xmt_srx_may_end(h, u, p);
      if (pre != NULL)
        ok &= uregex_lookingAt(pre, p, &st) == hit;
      if (!ok)
        fprintf(stderr, "\n%s at %d of \"%s\"\n", before, p, text);
      CU_ASSERT_TRUE(ok);
      checked++;
    }
  }
  CU_ASSERT_TRUE(U_SUCCESS(st));
  uregex_setText(fwd, u, 0, &st);
  if (plain != NULL)
    uregex_setText(plain, u, 0, &st);
  if (pre != NULL)
    uregex_setText(pre, u, 0, &st);
  free(u);
  return checked;
}

/* The lines of a markup-tags corpus, with their tags, as more text. */
static char *corpus_lines(size_t *len) {
  char *data =
      xmt_test_read_file(xmt_test_data_path("markup-tags/dev-eurlex.en"), len);
  CU_ASSERT_PTR_NOT_NULL(data);
  return data;
}

static void test_hints_against_icu(void) {
  size_t clen = 0, checked = 0, with_hints = 0;
  char *corpus = corpus_lines(&clen);
  for (size_t i = 0; i < sizeof befores / sizeof *befores; i++) {
    struct srx_hints h;
    CU_ASSERT_EQUAL_FATAL(xmt_srx_scan(befores[i], &h), XMT_OK);
    with_hints += h.nreq > 0 || h.nends > 0 || h.max16 >= 0;
    const char *lb[] = {"(?<=(?:", befores[i], "))", NULL};
    const char *f[] = {befores[i][0] != '\0' ? befores[i] : "(?:)", NULL};
    const char *lp[] = {h.prefix, "(?<=(?:", befores[i], "))", NULL};
    URegularExpression *plain = open_re(lb), *fwd = open_re(f);
    URegularExpression *pre = h.prefix != NULL ? open_re(lp) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(fwd);
    CU_ASSERT_TRUE(h.prefix == NULL || plain == NULL || pre != NULL);
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
      checked += check_text(befores[i], &h, plain, pre, fwd, texts[t]);
    for (char *line = corpus; corpus != NULL && line < corpus + clen;) {
      char *nl = strchr(line, '\n');
      if (nl != NULL)
        *nl = '\0';
      checked += check_text(befores[i], &h, plain, pre, fwd, line);
      if (nl == NULL)
        break;
      *nl = '\n';
      line = nl + 1;
    }
    if (plain != NULL)
      uregex_close(plain);
    if (pre != NULL)
      uregex_close(pre);
    uregex_close(fwd);
    xmt_srx_hints_free(&h);
  }
  free(corpus);
  CU_ASSERT_TRUE(with_hints >= 30);
  fprintf(stderr, " [%zu positions, %zu of %zu patterns with hints] ", checked,
          with_hints, sizeof befores / sizeof *befores);
}

/* --- Calls to ICU -----------------------------------------------------------
 */

static unsigned long calls_for(xmt_segmenter *s, const char *text,
                               size_t *nspans) {
  const struct xmt_span *sp;
  unsigned long before = s->regex_calls;
  CU_ASSERT_EQUAL(xmt_segmenter_split(s, text, strlen(text), &sp, nspans),
                  XMT_OK);
  return s->regex_calls - before;
}

/* The rules that may end after a character, indexed once a language:
 * English's four rules of abbreviations end after a full stop only; every
 * rule that may end after "xc" (xmt_srx_may_end) has c's bit. */
static void test_end_index(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "en"), XMT_OK);
  size_t n = 0;
  calls_for(s, "He met Mr. Smith. They spoke.", &n);
  CU_ASSERT_EQUAL_FATAL(s->nflat, 19); /* English 4, Default 15 */
  CU_ASSERT_EQUAL(s->end_low['.'] & 0xF, 0xF);
  CU_ASSERT_EQUAL(s->end_low['x'] & 0xF, 0);
  CU_ASSERT_EQUAL(s->end_low[' '] & 0xF, 0);
  size_t set = 0;
  for (size_t g = 0; g < s->nflat; g++)
    for (unsigned c = 0; c < 256; c++) {
      static const UChar before[] = {'x', '.', ' ', 'A', '1'};
      int any = 0;
      for (size_t k = 0; k < sizeof before / sizeof *before; k++) {
        UChar t[2] = {before[k], (UChar)c};
        any |= xmt_srx_may_end(&s->flat[g]->hints, t, 2);
      }
      int bit = (s->end_low[c] >> g) & 1;
      CU_ASSERT_TRUE(bit || !any);
      set += (size_t)bit;
    }
  CU_ASSERT_TRUE(set < s->nflat * 256 / 2); /* most turned away */
  xmt_segmenter_free(s);
}

/* Text with no character a break rule needs is not searched at all (the
 * rules searched through the text are the three break rules and the CJK
 * no-break rule). The searches are made in C (srx_shape.c) where no
 * character above U+00FF counts: none of the texts here costs a find.
 * Where a break rule hits, each no-break rule that can end there, in
 * order, up to the first that hits, is tested with ICU unless it is
 * decided in C: rules of single characters, groups of alternatives and ^
 * (the titles, the heading's label, the acronyms, the two Default rules of
 * a lower-case letter and a full stop) are decided in C where the text is
 * below U+0100. */
static void test_regex_calls(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "en"), XMT_OK);
  size_t n = 0;
  CU_ASSERT_EQUAL(calls_for(s, "Terms and conditions", &n), 0);
  CU_ASSERT_EQUAL(n, 1);
  /* 3 hits; the titles are decided in C */
  CU_ASSERT_EQUAL(calls_for(s, "Mr. Smith, Dr. Watson and Mrs. Hudson", &n), 0);
  CU_ASSERT_EQUAL(n, 1);
  /* the anchored rule in C */
  CU_ASSERT_EQUAL(calls_for(s, "The lease ends. Rent is due.", &n), 0);
  CU_ASSERT_EQUAL(n, 2);
  /* "Mr." and "Smith." decided in C */
  CU_ASSERT_EQUAL(calls_for(s, "He met Mr. Smith. They spoke.", &n), 0);
  CU_ASSERT_EQUAL(n, 2);
  /* after "N.": the initials (a look-behind), the acronyms and the
   * two-part abbreviations, all in C; not the rules of a lower-case
   * letter or of numbers */
  CU_ASSERT_EQUAL(calls_for(s, "Call the U.N. It is fine.", &n), 0);
  /* "b. z." is decided in C, a rule of a lower-case letter hits; one test
   * where a character above U+00FF (a-macron) counts, which the search
   * passes by (it cannot start a match) */
  CU_ASSERT_EQUAL(calls_for(s, "See b. z. Rent is due.", &n), 0);
  CU_ASSERT_EQUAL(n, 1);
  CU_ASSERT_EQUAL(calls_for(s, "See \xc4\x81. z. Rent is due.", &n), 1);
  CU_ASSERT_EQUAL(n, 1);
  /* a closing quotation mark above U+00FF after a full stop: one find */
  CU_ASSERT_EQUAL(calls_for(s, "He left.\xe2\x80\x9d Then.", &n), 1);
  CU_ASSERT_EQUAL(n, 2);
  xmt_segmenter_free(s);
}

/* --- Classes tested without ICU ------------------------------------------ */

/* Every class the prefixes of the shipped rules use, and more syntax: where
 * xmt_srx_class_has answers for a character below 256, ICU answers the
 * same; where it cannot read a class it says so for every character. */
static void test_classes(void) {
  static const struct {
    const char *cls;
    int read;
  } cases[] = {
      {"\\p{Lu}", 1},
      {"\\p{Ll}", 1},
      {"\\p{L}", 1},
      {"\\p{N}", 1},
      {"\\P{L}", 1},
      {"\\p{Pe}\\p{Pf}", 1},
      {"\\p{Zs}", 1},
      {"\\d", 1},
      {"\\d\\d[IVXLC]", 1},
      {"\\d[a-z][IVXLC]", 1},
      {"[.,]", 1},
      {"\\u002E", 1},
      {"\\u002E\\u2026", 1},
      {"[\\])]", 1},
      {"[\\p{Pe}\\p{Pf}\"']", 1},
      {"[^a-z]", 1},
      {"[^\\d[A-F]]", 1},
      {"[A-Za-z0-9_]", 1},
      {"[\\u00C0-\\u00FF]", 1},
      {"\\p{Han}", 0},
      {"\\s", 1},
      {"\\S", 1},
      {"[\\s\\u00A0]", 1},
      {"\\w", 0},
      {"[^\\s\\p{Lu}]", 1},
      {"[^\\s\\p{Ll}]", 1},
      {"[[:alpha:]]", 0},
      {"[a-z&&[^x]]", 0},
      {"[a-z--[x]]", 0},
      {"[.'-]", 1},
      {"[\\p{L}\\p{N}.'\xe2\x80\x99-]", 1},
      {"[\\p{L}-]", 0},
      {"[-a]", 0},
      {"[z-a]", 0},
      {"[ab", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *cls = cases[i].cls;
    const char *parts[] = {"[", cls, "]", NULL};
    URegularExpression *re = open_re(parts);
    CU_ASSERT_TRUE_FATAL(re != NULL || !cases[i].read);
    size_t known = 0;
    for (unsigned c = 0; c < 256; c++) {
      int in = xmt_srx_class_has(cls, strlen(cls), c);
      if (in < 0)
        continue;
      known++;
      UChar u = (UChar)c;
      UErrorCode st = U_ZERO_ERROR;
      uregex_setText(re, &u, 1, &st);
      int icu = uregex_matches(re, 0, &st) != 0;
      if (in != icu)
        fprintf(stderr, "\n  %s at U+%04X: %d, ICU %d\n", cls, c, in, icu);
      CU_ASSERT_EQUAL(in, icu);
    }
    CU_ASSERT_EQUAL(known, cases[i].read ? 256 : 0);
    if (re != NULL)
      uregex_close(re);
  }
}

/* --- The shipped rules, compiled when used --------------------------------
 */

static size_t rule_index(const xmt_segmenter *s, const char *name) {
  for (size_t i = 0; i < s->doc.nlangrules; i++)
    if (strcmp(s->doc.langrules[i].name, name) == 0)
      return i;
  CU_FAIL("no such languagerule");
  return 0;
}

static int compiled(const xmt_segmenter *s, const char *name) {
  return s->doc.langrules[rule_index(s, name)].compiled;
}

/* A new segmenter compiles nothing; English text compiles English and
 * Default, German then German; a no-break rule with a local form gets no
 * whole pattern (it is never searched through the text), and one of a C
 * shape not even its local form on ASCII text. */
static void test_lazy_compile(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL(s->doc.nlangrules, 9);
  for (size_t i = 0; i < s->doc.nlangrules; i++)
    CU_ASSERT_FALSE(s->doc.langrules[i].compiled);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "en-GB"), XMT_OK);
  size_t n = 0;
  calls_for(s, "He met Mr. Smith. They spoke.", &n);
  CU_ASSERT_EQUAL(n, 2);
  CU_ASSERT_TRUE(compiled(s, "English"));
  CU_ASSERT_TRUE(compiled(s, "Default"));
  CU_ASSERT_FALSE(compiled(s, "German"));
  CU_ASSERT_FALSE(compiled(s, "French"));
  const struct srx_langrule *en = &s->doc.langrules[rule_index(s, "English")];
  CU_ASSERT_PTR_NULL(en->rules[0].re);
  CU_ASSERT_TRUE(en->rules[0].has_local);
  CU_ASSERT_PTR_NOT_NULL(en->rules[0].shape);
  CU_ASSERT_PTR_NULL(en->rules[0].local);
  const struct srx_langrule *df = &s->doc.langrules[rule_index(s, "Default")];
  /* a break rule: its find form, the whole pattern not needed yet */
  CU_ASSERT_PTR_NULL(df->rules[df->nrules - 1].re);
  CU_ASSERT_PTR_NOT_NULL(df->rules[df->nrules - 1].shape);
  CU_ASSERT_EQUAL(xmt_segmenter_set_language(s, "de"), XMT_OK);
  /* German's ordinals: "5. Dann" goes on */
  calls_for(s, "Siehe Abs. 2 und Nr. 5. Dann weiter.", &n);
  CU_ASSERT_EQUAL(n, 1);
  CU_ASSERT_TRUE(compiled(s, "German"));
  CU_ASSERT_FALSE(compiled(s, "French"));
  xmt_segmenter_free(s);
}

/* The shipped maps matched by hand, and by ICU where the hand check cannot
 * tell: it then compiles the pattern. */
static void test_maps_by_hand(void) {
  xmt_segmenter *s = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  static const struct {
    const char *pattern, *tag;
    int hit, by_icu;
  } cases[] = {
      {"(?i)en(?:[-_].*)?", "en", 1, 0},
      {"(?i)en(?:[-_].*)?", "EN-us", 1, 0},
      {"(?i)en(?:[-_].*)?", "eN_x y", 1, 0},
      {"(?i)en(?:[-_].*)?", "eng", 0, 0},
      {"(?i)en(?:[-_].*)?", "e", 0, 0},
      {"(?i)en(?:[-_].*)?", "fr-en", 0, 0},
      {"(?i)en(?:[-_].*)?", "en-\xc3\xa9", 1, 1}, /* beyond ASCII: ICU */
      {"(?i)en(?:[-_].*)?", "en-\n", 0, 1},       /* "." is no line end */
      {"(?i)en(?:[-_].*)?", "\xef\xbd\x85n", 0, 1},
      {"(?i)s(?:[-_].*)?", "\xc5\xbf", 1, 1}, /* long s folds to s */
      {".*", "x-private", 1, 0},
      {".*", "a\rb", 0, 1},
      {"(?i)e[n]", "en", 1, 1}, /* another form */
      {"(?i)e[n]", "eN", 1, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    struct srx_map m = {NULL, xmt_strdup(cases[i].pattern), 0};
    UChar tag[32];
    int32_t n16 = 0;
    UErrorCode st = U_ZERO_ERROR;
    u_strFromUTF8(tag, 32, &n16, cases[i].tag, -1, &st);
    CU_ASSERT_FATAL(U_SUCCESS(st) && m.pattern != NULL);
    int hit = xmt_srx_map_matches(s, &m, cases[i].tag, tag, n16);
    if (hit != cases[i].hit || (m.re != NULL) != cases[i].by_icu)
      fprintf(stderr, "\n  map %s against %s: %d, ICU %d\n", cases[i].pattern,
              cases[i].tag, hit, m.re != NULL);
    CU_ASSERT_EQUAL(hit, cases[i].hit);
    CU_ASSERT_EQUAL(m.re != NULL, cases[i].by_icu);
    /* ICU agrees, whether or not it was asked */
    const char *pat[] = {cases[i].pattern, NULL};
    URegularExpression *re = open_re(pat);
    CU_ASSERT_PTR_NOT_NULL_FATAL(re);
    uregex_setText(re, tag, n16, &st);
    CU_ASSERT_EQUAL(uregex_matches(re, 0, &st) != 0, cases[i].hit);
    uregex_close(re);
    if (m.re != NULL)
      uregex_close(m.re);
    free(m.pattern);
  }
  xmt_segmenter_free(s);
}

/* The shipped rules compiled lazily break where the same rules loaded and
 * compiled whole do, for every language they name and tags the maps match
 * by ICU, on every line of a corpus. */
static void test_lazy_same_breaks(void) {
  static const char *const tags[] = {
      "en", "EN-us", "de", "fr",    "hu",          "es",   "it",
      "nl", "pt",    "ja", "x-foo", "en-\xc3\xa9", "en\n", "\xc5\xbf"};
  size_t clen = 0, lines = 0;
  char *corpus = corpus_lines(&clen);
  CU_ASSERT_PTR_NOT_NULL_FATAL(corpus);
  xmt_segmenter *lazy = xmt_segmenter_new(), *whole = xmt_segmenter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(lazy);
  CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
  CU_ASSERT_EQUAL_FATAL(
      xmt_segmenter_load_srx_memory(whole, (const char *)xmt_srx_default,
                                    xmt_srx_default_len, "xliffmt.srx"),
      XMT_OK);
  CU_ASSERT_TRUE(whole->doc.langrules[0].compiled);
  for (size_t t = 0; t < sizeof tags / sizeof *tags; t++) {
    CU_ASSERT_EQUAL(xmt_segmenter_set_language(lazy, tags[t]), XMT_OK);
    CU_ASSERT_EQUAL(xmt_segmenter_set_language(whole, tags[t]), XMT_OK);
    for (char *line = corpus; line < corpus + clen;) {
      char *nl = memchr(line, '\n', (size_t)(corpus + clen - line));
      size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
      const struct xmt_span *a, *b;
      size_t na = 0, nb = 0;
      CU_ASSERT_EQUAL(xmt_segmenter_split(lazy, line, len, &a, &na), XMT_OK);
      CU_ASSERT_EQUAL(xmt_segmenter_split(whole, line, len, &b, &nb), XMT_OK);
      CU_ASSERT_EQUAL(na, nb);
      CU_ASSERT_TRUE(na == nb && memcmp(a, b, na * sizeof *a) == 0);
      lines++;
      line += len + 1;
    }
  }
  for (size_t i = 0; i < lazy->doc.nlangrules; i++)
    CU_ASSERT_TRUE(lazy->doc.langrules[i].compiled);
  xmt_segmenter_free(lazy);
  xmt_segmenter_free(whole);
  free(corpus);
  CU_ASSERT_TRUE(lines > 1000);
}

static CU_TestInfo scan_tests[] = {
    {"titles: the strings a match ends with", test_titles},
    {"numbers: one character, not selective", test_numbers},
    {"anchored: the longest match", test_anchored},
    {"break rules: required characters", test_break_rule},
    {"ends looked up by their last two units", test_end_lookup},
    {"syntax not read: no hint", test_not_read},
    {"every hint against ICU on a corpus", test_hints_against_icu},
    {"regular expression calls", test_regex_calls},
    {"classes below 256 without ICU, as ICU reads them", test_classes},
    {"rules that may end after a character, by it", test_end_index},
    {"shipped rules compiled when a language uses them", test_lazy_compile},
    {"shipped maps matched by hand, else by ICU", test_maps_by_hand},
    {"lazy rules break as rules compiled whole", test_lazy_same_breaks},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/srx hints", NULL, NULL, NULL, NULL, scan_tests},
    CU_SUITE_INFO_NULL,
};
