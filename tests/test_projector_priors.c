/* test_projector_priors.c -- the aligner's priors: TSV word lists, hand-made
 * dictd dictionaries (dictzip, chunked, gzip, plain, reversed), the
 * installed FreeDict and Apertium English-Spanish dictionaries, stems,
 * identical words and cognates, with the links worked out by hand. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "priors_private.h"

#define FREEDICT_ENG_SPA "/usr/share/dictd/freedict-eng-spa"
#define FREEDICT_SPA_ENG "/usr/share/dictd/freedict-spa-eng"
#define APERTIUM_ENG_SPA "/usr/share/apertium/apertium-eng-spa"

/* Space-separated words into a vocabulary (id 0 is NULL, as the aligner's). */
static void vocab_of(struct xmt_vocab *v, const char *words) {
  CU_ASSERT_EQUAL_FATAL(xmt_vocab_init(v), XMT_OK);
  for (const char *p = words; *p != '\0';) {
    size_t n = strcspn(p, " ");
    uint32_t id;
    if (n > 0)
      CU_ASSERT_EQUAL_FATAL(xmt_vocab_intern(v, p, n, &id), XMT_OK);
    p += n + (p[n] == ' ');
  }
}

/* A fixture's path, copied (the harness's buffer is shared). */
static char *fixture(const char *relative) {
  char *p = strdup(xmt_test_fixture_path(relative));
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  return p;
}

/* Options without anything found by itself: only what a test names. */
static void base_options(struct xmt_prior_options *o) {
  xmt_prior_options_init(o);
  o->source_lang = "en";
  o->target_lang = "de";
  o->identical_weight = 0;
  o->cognate_weight = 0;
  o->stems = 0;
  o->phrase_factor = 0;
  o->dictd_dir = "/nonexistent/dictd";
  o->apertium_dir = "/nonexistent/apertium";
}

/* Sorted by (src, tgt) without duplicates, no NULL word, positive weights. */
static int table_ok(const struct xmt_prior_table *t) {
  for (size_t k = 0; k < t->count; k++) {
    if (t->src[k] == 0 || t->tgt[k] == 0 || !(t->w[k] > 0))
      return 0;
    if (k > 0 && (t->src[k - 1] > t->src[k] ||
                  (t->src[k - 1] == t->src[k] && t->tgt[k - 1] >= t->tgt[k])))
      return 0;
    if (xmt_prior_table_weight(t, t->src[k], t->tgt[k]) != t->w[k])
      return 0;
  }
  return 1;
}

/* The links as "source>target:weight", in table order. */
static const char *links_str(const struct xmt_prior_table *t,
                             const struct xmt_vocab *s,
                             const struct xmt_vocab *g) {
  static char buf[16384];
  size_t at = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < t->count && at < sizeof buf - 256; k++) {
    size_t ls, lg;
    const char *ws = xmt_vocab_word(s, t->src[k], &ls);
    const char *wg = xmt_vocab_word(g, t->tgt[k], &lg);
    at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%.*s>%.*s:%g",
                           k ? " " : "", (int)ls, ws, (int)lg, wg,
                           (double)t->w[k]);
  }
  return buf;
}

struct run {
  struct xmt_vocab src, tgt;
  struct xmt_prior_table table;
  struct xmt_prior_stats stats;
  struct xmt_error_store err;
  xmt_status status;
};

static void run_build(struct run *r, const char *src, const char *tgt,
                      const struct xmt_prior_options *o) {
  memset(r, 0, sizeof *r);
  vocab_of(&r->src, src);
  vocab_of(&r->tgt, tgt);
  r->status =
      xmt_priors_build(&r->table, &r->src, &r->tgt, o, &r->stats, &r->err);
  CU_ASSERT_TRUE(table_ok(&r->table));
}

static void run_free(struct run *r) {
  xmt_prior_table_free(&r->table);
  xmt_vocab_free(&r->src);
  xmt_vocab_free(&r->tgt);
  xmt_error_clear(&r->err);
}

/* Builds and compares the links with want. */
static void expect_links(const char *src, const char *tgt,
                         const struct xmt_prior_options *o, const char *want) {
  struct run r;
  run_build(&r, src, tgt, o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  if (r.status != XMT_OK)
    fprintf(stderr, "\nerror: %s: %s\n", r.err.pub.file ? r.err.pub.file : "",
            r.err.pub.message ? r.err.pub.message : "");
  const char *got = links_str(&r.table, &r.src, &r.tgt);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "\ngot  \"%s\"\nwant \"%s\"\n", got, want);
  CU_ASSERT_STRING_EQUAL(got, want);
  run_free(&r);
}

/* Builds, expecting an error of status naming file (its name's end; NULL:
 * any) at line. */
static void expect_error(const struct xmt_prior_options *o, xmt_status status,
                         const char *file, unsigned long line) {
  struct run r;
  run_build(&r, "house contract comply the", "Haus Vertrag der", o);
  CU_ASSERT_EQUAL(r.status, status);
  CU_ASSERT_EQUAL(r.table.count, 0);
  const char *f = r.err.pub.file;
  CU_ASSERT_TRUE(file == NULL || f != NULL);
  if (f != NULL && file != NULL) {
    size_t n = strlen(f), k = strlen(file);
    CU_ASSERT_TRUE(n >= k && strcmp(f + n - k, file) == 0);
  }
  CU_ASSERT_EQUAL(r.err.pub.line, line);
  CU_ASSERT_PTR_NOT_NULL(r.err.pub.message);
  run_free(&r);
}

/* --- Languages ------------------------------------------------------------ */

static void test_lang_codes(void) {
  struct xmt_lang_codes c;
  CU_ASSERT_TRUE(xmt_lang_codes_of("en", &c));
  CU_ASSERT_STRING_EQUAL(c.iso1, "en");
  CU_ASSERT_STRING_EQUAL(c.iso3, "eng");
  CU_ASSERT_TRUE(xmt_lang_codes_of("en-GB", &c));
  CU_ASSERT_STRING_EQUAL(c.iso3, "eng");
  CU_ASSERT_TRUE(xmt_lang_codes_of("DEU", &c));
  CU_ASSERT_STRING_EQUAL(c.iso1, "de");
  CU_ASSERT_STRING_EQUAL(c.iso3, "deu");
  CU_ASSERT_TRUE(xmt_lang_codes_of("ger", &c)); /* ISO 639-2/B */
  CU_ASSERT_STRING_EQUAL(c.iso1, "de");
  CU_ASSERT_STRING_EQUAL(c.iso3, "deu");
  CU_ASSERT_TRUE(xmt_lang_codes_of("hu_HU", &c));
  CU_ASSERT_STRING_EQUAL(c.iso3, "hun");
  CU_ASSERT_TRUE(xmt_lang_codes_of("zh-Hant-TW", &c));
  CU_ASSERT_STRING_EQUAL(c.iso3, "zho");
  CU_ASSERT_TRUE(xmt_lang_codes_of("fil", &c)); /* no ISO 639-1 code */
  CU_ASSERT_STRING_EQUAL(c.iso1, "");
  CU_ASSERT_STRING_EQUAL(c.iso3, "fil");
  CU_ASSERT_FALSE(xmt_lang_codes_of(NULL, &c));
  CU_ASSERT_FALSE(xmt_lang_codes_of("e", &c));
  CU_ASSERT_FALSE(xmt_lang_codes_of("engl", &c));
  CU_ASSERT_FALSE(xmt_lang_codes_of("e1", &c));
}

/* --- TSV ------------------------------------------------------------------ */

static const char tsv_src[] = "house houses contract Regulation dog cat";
static const char tsv_tgt[] = "Haus Häuser Vertrag Verordnung Hund";

static void test_tsv(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *tsv = fixture("priors/glossary.en-de.tsv");
  const char *dicts[] = {"none", tsv};
  o.dictionaries = dicts;
  o.ndictionaries = 2;
  /* the weight column multiplies dictionary_weight */
  expect_links(tsv_src, tsv_tgt, &o,
               "house>Haus:1 contract>Vertrag:2 Regulation>Verordnung:0.5 "
               "dog>Hund:1");
  o.dictionary_weight = 2;
  expect_links(tsv_src, tsv_tgt, &o,
               "house>Haus:2 contract>Vertrag:4 Regulation>Verordnung:1 "
               "dog>Hund:2");
  /* stems: houses ~ house (hous), Häuser ~ Haus (haus), at stem_factor */
  o.dictionary_weight = 1;
  o.stems = 1;
  expect_links(tsv_src, tsv_tgt, &o,
               "house>Haus:1 house>Häuser:0.5 houses>Haus:0.5 "
               "houses>Häuser:0.5 contract>Vertrag:2 "
               "Regulation>Verordnung:0.5 dog>Hund:1");
  free(tsv);
}

/* A German-English list (with a byte order mark) is read reversed for
 * English to German. */
static void test_tsv_reversed(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *tsv = fixture("priors/glossary.de-en.tsv");
  const char *dicts[] = {tsv};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  expect_links(tsv_src, tsv_tgt, &o, "house>Haus:1 contract>Vertrag:2");
  /* the other way round, the same file is read as it is */
  o.source_lang = "de";
  o.target_lang = "en";
  expect_links(tsv_tgt, tsv_src, &o, "Haus>house:1 Vertrag>contract:2");
  free(tsv);
}

static void test_tsv_errors(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *fields = fixture("priors/bad-fields.tsv");
  char *weight = fixture("priors/bad-weight.tsv");
  char *missing = fixture("priors/missing.tsv");
  const char *dicts[] = {fields};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  expect_error(&o, XMT_ERR_FORMAT, "priors/bad-fields.tsv", 3);
  dicts[0] = weight; /* a weight of 0 */
  expect_error(&o, XMT_ERR_FORMAT, "priors/bad-weight.tsv", 2);
  dicts[0] = missing;
  expect_error(&o, XMT_ERR_IO, "priors/missing.tsv", 0);
  free(fields);
  free(weight);
  free(missing);
}

/* --- dictd ---------------------------------------------------------------- */

static const char dd_src[] =
    "house houses contract contracts run runs comply regulation the ask red "
    "tape info";
static const char dd_tgt[] =
    "Haus Häuser Familie Geschlecht Vertrag Verträge laufen rennen läuft "
    "nachkommen Sache Verordnung Regelung der die das fragen Bürokratie bauen "
    "agreement Synonym";

/* eng-deu without stems: examples, notes, synonyms, cross-references,
 * multi-word phrases and headwords, and the 00-database entries give no
 * links; "to ask" is ask, "die Regelung" Regelung, "jdn. fragen" fragen. */
static const char dd_links[] =
    "house>Haus:1 house>Familie:1 house>Geschlecht:1 contract>Vertrag:1 "
    "run>laufen:1 run>rennen:1 regulation>Verordnung:1 regulation>Regelung:1 "
    "the>der:1 the>die:1 the>das:1 ask>fragen:1";

static void expect_dictd(const char *relative, const char *want) {
  struct xmt_prior_options o;
  base_options(&o);
  char *path = fixture(relative);
  const char *dicts[] = {path};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  expect_links(dd_src, dd_tgt, &o, want);
  free(path);
}

static void test_dictd_dictzip(void) {
  /* the index, the data, or their base name */
  expect_dictd("priors/dictd/freedict-eng-deu.index", dd_links);
  expect_dictd("priors/dictd/freedict-eng-deu.dict.dz", dd_links);
  expect_dictd("priors/dictd/freedict-eng-deu", dd_links);
  /* chunks of 64 bytes, entries across them; gzip without a chunk table */
  expect_dictd("priors/chunked/freedict-eng-deu", dd_links);
  expect_dictd("priors/gzip/freedict-eng-deu", dd_links);
}

static void test_dictd_stems_phrases(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *path = fixture("priors/dictd/freedict-eng-deu");
  const char *dicts[] = {path};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  o.stems = 1;
  o.phrase_factor = 0.25;
  /* stems add the plurals at 0.5; "einer Sache nachkommen" gives its
   * content words at 0.25; läuft is no form of laufen to the stemmer */
  expect_links(dd_src, dd_tgt, &o,
               "house>Haus:1 house>Häuser:0.5 house>Familie:1 "
               "house>Geschlecht:1 houses>Haus:0.5 houses>Häuser:0.5 "
               "houses>Familie:0.5 houses>Geschlecht:0.5 contract>Vertrag:1 "
               "contract>Verträge:0.5 contracts>Vertrag:0.5 "
               "contracts>Verträge:0.5 run>laufen:1 run>rennen:1 "
               "runs>laufen:0.5 runs>rennen:0.5 comply>nachkommen:0.25 "
               "comply>Sache:0.25 regulation>Verordnung:1 "
               "regulation>Regelung:1 the>der:1 the>die:1 the>das:1 "
               "ask>fragen:1");
  free(path);
}

/* "auto": freedict-eng-deu (dictzip) and freedict-deu-eng (plain .dict,
 * read reversed) under dictd_dir. */
static void test_dictd_auto(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *dir = fixture("priors/dictd");
  const char *dicts[] = {"auto", "auto"};
  o.dictionaries = dicts;
  o.ndictionaries = 2;
  o.dictd_dir = dir;
  o.source_lang = "en-GB";
  o.target_lang = "deu";
  struct run r;
  run_build(&r, dd_src, dd_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  /* with this vocabulary, deu-eng gives nothing that eng-deu lacks */
  CU_ASSERT_STRING_EQUAL(links_str(&r.table, &r.src, &r.tgt), dd_links);
  CU_ASSERT_EQUAL(r.stats.dictionaries_loaded, 2);
  CU_ASSERT_EQUAL(r.stats.dictionary_links, 12);
  CU_ASSERT_EQUAL(r.stats.links, 12);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.stats.loaded, "freedict-eng-deu, "));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.stats.loaded, "freedict-deu-eng (reversed)"));
  run_free(&r);
  /* the reversed dictionary alone: its links, source and target swapped */
  char *de = fixture("priors/dictd/freedict-deu-eng.index");
  dicts[0] = de;
  o.ndictionaries = 1;
  expect_links(dd_src, dd_tgt, &o,
               "house>Haus:1 contract>Vertrag:1 run>laufen:1 "
               "regulation>Verordnung:1");
  free(de);
  /* no dictionary for the pair: not an error */
  dicts[0] = "auto";
  o.target_lang = "fr";
  expect_links(dd_src, dd_tgt, &o, "");
  free(dir);
}

static void test_dictd_errors(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *bad = fixture("priors/bad/freedict-eng-deu.index");
  char *past = fixture("priors/bad/past-end-eng-deu.index");
  char *missing = fixture("priors/dictd/freedict-eng-fra.index");
  const char *dicts[] = {bad};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  /* line 3: comply, with offset "A$B" */
  expect_error(&o, XMT_ERR_FORMAT, "priors/bad/freedict-eng-deu.index", 3);
  dicts[0] = past;
  expect_error(&o, XMT_ERR_FORMAT, "priors/bad/past-end-eng-deu.dict", 0);
  dicts[0] = missing;
  expect_error(&o, XMT_ERR_IO, "priors/dictd/freedict-eng-fra.index", 0);
  free(bad);
  free(past);
  free(missing);
}

/* --- Installed dictionaries ----------------------------------------------- */

static const char es_src[] = "house houses dog water book cat";
static const char es_tgt[] = "casa casas perro agua libro gato reservar";

/* Whether the table links src word a to target word b, with weight w. */
static int has_link(const struct run *r, const char *a, const char *b,
                    float w) {
  uint32_t i = xmt_vocab_find(&r->src, a, strlen(a));
  uint32_t j = xmt_vocab_find(&r->tgt, b, strlen(b));
  if (i == XMT_UNKNOWN_WORD || j == XMT_UNKNOWN_WORD)
    return 0;
  return xmt_prior_table_weight(&r->table, i, j) == w;
}

static void test_freedict_installed(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "es";
  const char *dicts[] = {FREEDICT_ENG_SPA ".index"};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  struct run r;
  run_build(&r, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  CU_ASSERT_TRUE(has_link(&r, "dog", "perro", 1));
  CU_ASSERT_TRUE(has_link(&r, "book", "libro", 1));
  CU_ASSERT_TRUE(has_link(&r, "book", "reservar", 1));   /* "3. reservar" */
  CU_ASSERT_FALSE(has_link(&r, "houses", "casa", 0.5f)); /* no stems */
  run_free(&r);
  /* spa-eng, read reversed; with stems, houses ~ house and casas ~ casa */
  dicts[0] = FREEDICT_SPA_ENG;
  o.stems = 1;
  run_build(&r, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  CU_ASSERT_TRUE(has_link(&r, "houses", "casa", 0.5f));
  CU_ASSERT_TRUE(has_link(&r, "house", "casas", 0.5f));
  CU_ASSERT_TRUE(has_link(&r, "cat", "gato", 1));
  CU_ASSERT_TRUE(has_link(&r, "water", "agua", 1));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.stats.loaded, "spa-eng (reversed)"));
  run_free(&r);
}

static void test_apertium(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "spa";
  const char *dicts[] = {APERTIUM_ENG_SPA "/eng-spa.autobil.bin"};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  struct run r;
  run_build(&r, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  /* house<n> -> casa<n><f>, dog<n> -> perro<n><m>, cat<n> -> gato<n><m> */
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  CU_ASSERT_TRUE(has_link(&r, "dog", "perro", 1));
  CU_ASSERT_TRUE(has_link(&r, "cat", "gato", 1));
  CU_ASSERT_TRUE(has_link(&r, "book", "libro", 1));
  CU_ASSERT_EQUAL(r.stats.dictionaries_loaded, 1);
  run_free(&r);
  /* spa-eng, read reversed */
  dicts[0] = APERTIUM_ENG_SPA "/spa-eng.autobil.bin";
  run_build(&r, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  CU_ASSERT_TRUE(has_link(&r, "water", "agua", 1));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.stats.loaded, "(reversed)"));
  run_free(&r);
}

/* Without lt-print, a named .bin is an error; "auto" skips Apertium. */
static void test_apertium_missing(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "es";
  o.lt_print = "/nonexistent/lt-print";
  const char *dicts[] = {APERTIUM_ENG_SPA "/eng-spa.autobil.bin"};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  dicts[0] = "auto";
  o.apertium_dir = "/usr/share/apertium";
  o.dictd_dir = "/nonexistent/dictd";
  struct run r;
  run_build(&r, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_EQUAL(r.stats.dictionaries_loaded, 0);
  CU_ASSERT_EQUAL(r.table.count, 0);
  run_free(&r);
}

/* The same links whatever the number of threads. */
static void test_threads(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "es";
  o.stems = 1;
  o.dictd_dir = "/usr/share/dictd";
  o.lt_print = "/nonexistent/lt-print"; /* FreeDict only: quick */
  o.apertium_dir = "/usr/share/apertium";
  const char *dicts[] = {"auto"};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  struct run one, four;
  o.threads = 1;
  run_build(&one, es_src, es_tgt, &o);
  o.threads = 4;
  run_build(&four, es_src, es_tgt, &o);
  CU_ASSERT_EQUAL(one.status, XMT_OK);
  CU_ASSERT_EQUAL(four.status, XMT_OK);
  CU_ASSERT_EQUAL(one.stats.dictionaries_loaded, 2);
  CU_ASSERT_STRING_EQUAL(one.stats.loaded, four.stats.loaded);
  CU_ASSERT_TRUE(one.table.count > 0);
  CU_ASSERT_EQUAL(one.table.count, four.table.count);
  CU_ASSERT_TRUE(one.table.count == four.table.count &&
                 memcmp(one.table.src, four.table.src,
                        one.table.count * sizeof *one.table.src) == 0 &&
                 memcmp(one.table.tgt, four.table.tgt,
                        one.table.count * sizeof *one.table.tgt) == 0 &&
                 memcmp(one.table.w, four.table.w,
                        one.table.count * sizeof *one.table.w) == 0);
  run_free(&one);
  run_free(&four);
}

/* --- Identical words and cognates ----------------------------------------- */

static void test_identical_cognates(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "fr";
  o.identical_weight = 1;
  o.cognate_weight = 0.5;
  /* Euro = euro (case folded); 2019 = 2019; "." and "," are punctuation;
   * recommendations ~ recommandations (1 edit in 15: 0.5 * 14/15);
   * government ~ gouvernement (2 in 12: 0.5 * 10/12); nation has its
   * identical twin, so no cognate nations; Regulation and règlement are
   * too far apart (0.5 similarity); sea ~ ses too short */
  expect_links("Euro 2019 . , recommendations government nation Regulation "
               "sea",
               "euro 2019 . , recommandations gouvernement nation nations "
               "règlement ses",
               &o,
               "Euro>euro:1 2019>2019:1 recommendations>recommandations:"
               "0.466667 government>gouvernement:0.416667 nation>nation:1");
  /* folding: Réglementation ~ reglementation (similarity 1) */
  expect_links("reglementation", "Réglementation", &o,
               "reglementation>Réglementation:0.5");
  /* only the best: relative ~ relatives (8/9), not relation (6/8) */
  expect_links("relative", "relation relatives", &o,
               "relative>relatives:0.444444");
  o.identical_weight = 0;
  o.cognate_weight = 0;
  expect_links("Euro 2019", "euro 2019", &o, "");
}

/* Cognates in large vocabularies are found through buckets: 20,000
 * random words a side, of which every tenth has a twin one letter away. */
static void test_cognates_large(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.cognate_weight = 0.5;
  struct xmt_vocab s, t;
  CU_ASSERT_EQUAL_FATAL(xmt_vocab_init(&s), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_vocab_init(&t), XMT_OK);
  uint64_t x = 12345;
  size_t planted = 0;
  for (int i = 0; i < 20000; i++) {
    char a[16], b[16];
    for (int k = 0; k < 10; k++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      a[k] = (char)('a' + (x >> 33) % 26);
      x = x * 6364136223846793005u + 1442695040888963407u;
      b[k] = (char)('a' + (x >> 33) % 26);
    }
    if (i % 10 == 0) {
      memcpy(b, a, 10);
      b[9] = a[9] == 'z' ? 'y' : 'z'; /* one substitution: 0.9 */
      planted++;
    }
    uint32_t id;
    CU_ASSERT_EQUAL_FATAL(xmt_vocab_intern(&s, a, 10, &id), XMT_OK);
    CU_ASSERT_EQUAL_FATAL(xmt_vocab_intern(&t, b, 10, &id), XMT_OK);
  }
  struct xmt_prior_table tab = {0};
  struct xmt_prior_stats stats;
  struct xmt_error_store err = {0};
  clock_t c0 = clock();
  CU_ASSERT_EQUAL(xmt_priors_build(&tab, &s, &t, &o, &stats, &err), XMT_OK);
  double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
  CU_ASSERT_TRUE(table_ok(&tab));
  CU_ASSERT_EQUAL(stats.cognate_links, planted);
  CU_ASSERT_EQUAL(tab.count, planted);
  for (size_t k = 0; k < tab.count; k++)
    CU_ASSERT_DOUBLE_EQUAL(tab.w[k], 0.45, 1e-6);
  CU_ASSERT_TRUE(secs < 5); /* all pairs would be 4e8 comparisons */
  xmt_prior_table_free(&tab);
  xmt_vocab_free(&s);
  xmt_vocab_free(&t);
  xmt_error_clear(&err);
}

/* --- Options -------------------------------------------------------------- */

static void test_options(void) {
  struct xmt_prior_options o;
  xmt_prior_options_init(&o);
  CU_ASSERT_TRUE(o.dictionary_weight > 0);
  CU_ASSERT_TRUE(o.stems);
  CU_ASSERT_PTR_NULL(o.dictionaries);
  base_options(&o);
  o.dictionary_weight = 0;
  expect_error(&o, XMT_ERR_USAGE, NULL, 0);
  base_options(&o);
  o.cognate_threshold = 1.5;
  expect_error(&o, XMT_ERR_USAGE, NULL, 0);
  /* nothing asked: an empty table, emptied first */
  base_options(&o);
  struct run r;
  run_build(&r, "a", "b", &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_EQUAL(r.table.count, 0);
  CU_ASSERT_EQUAL(xmt_prior_table_weight(&r.table, 1, 1), 0);
  run_free(&r);
}

static CU_TestInfo lang_tests[] = {{"language codes", test_lang_codes},
                                   CU_TEST_INFO_NULL};

static CU_TestInfo tsv_tests[] = {{"links, weights, stems", test_tsv},
                                  {"reversed by its name", test_tsv_reversed},
                                  {"errors", test_tsv_errors},
                                  CU_TEST_INFO_NULL};

static CU_TestInfo dictd_tests[] = {
    {"dictzip, chunked, gzip", test_dictd_dictzip},
    {"stems and phrases", test_dictd_stems_phrases},
    {"auto and reversed", test_dictd_auto},
    {"errors", test_dictd_errors},
    CU_TEST_INFO_NULL};

static CU_TestInfo installed_tests[] = {
    {"FreeDict eng-spa, spa-eng", test_freedict_installed},
    {"Apertium eng-spa, spa-eng", test_apertium},
    {"no lt-print", test_apertium_missing},
    {"threads", test_threads},
    CU_TEST_INFO_NULL};

static CU_TestInfo string_tests[] = {
    {"identical words and cognates", test_identical_cognates},
    {"cognates in large vocabularies", test_cognates_large},
    CU_TEST_INFO_NULL};

static CU_TestInfo option_tests[] = {{"options", test_options},
                                     CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"languages", NULL, NULL, NULL, NULL, lang_tests},
    {"TSV word lists", NULL, NULL, NULL, NULL, tsv_tests},
    {"dictd dictionaries", NULL, NULL, NULL, NULL, dictd_tests},
    {"installed dictionaries", NULL, NULL, NULL, NULL, installed_tests},
    {"identical words and cognates", NULL, NULL, NULL, NULL, string_tests},
    {"options", NULL, NULL, NULL, NULL, option_tests},
    CU_SUITE_INFO_NULL};
