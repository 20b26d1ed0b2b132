/* test_projector_priors.c -- the aligner's priors: TSV word lists, hand-made
 * dictd dictionaries (dictzip, chunked, gzip, plain, reversed), the
 * installed FreeDict and Apertium English-Spanish dictionaries and the
 * cache of Apertium's lemma pairs, stems, identical words and cognates,
 * with the links worked out by hand. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "lexicon_private.h"

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

/* Options without anything found by itself: only what a test names. The
 * tests leave the user's cache alone; those of the cache name their own. */
static void base_options(struct xmt_prior_options *o) {
  CU_ASSERT_EQUAL_FATAL(setenv("XLIFFMT_CACHE_DIR", "", 1), 0);
  xmt_prior_options_init(o);
  o->source_lang = "en";
  o->target_lang = "de";
  o->identical_weight = 0;
  o->cognate_weight = 0;
  o->stems = 0;
  o->phrase_factor = 0;
  o->dictd_dir = "/nonexistent/dictd";
  o->apertium_dir = "/nonexistent/apertium";
  o->read = xmt_lexicon_load; /* the readers of filter/lexicon/ */
}

/* Sorted by (src, tgt) without duplicates, the NULL word on one side at
 * most, positive weights. */
static int table_ok(const struct xmt_prior_table *t) {
  for (size_t k = 0; k < t->count; k++) {
    if ((t->src[k] == 0 && t->tgt[k] == 0) || !(t->w[k] > 0))
      return 0;
    if (k > 0 && (t->src[k - 1] > t->src[k] ||
                  (t->src[k - 1] == t->src[k] && t->tgt[k - 1] >= t->tgt[k])))
      return 0;
    if (xmt_prior_table_weight(t, t->src[k], t->tgt[k]) != t->w[k])
      return 0;
  }
  return 1;
}

/* The links as "source>target:weight", in table order; "NULL" for the
 * NULL word. */
static const char *links_str(const struct xmt_prior_table *t,
                             const struct xmt_vocab *s,
                             const struct xmt_vocab *g) {
  static char buf[16384];
  size_t at = 0;
  buf[0] = '\0';
  for (size_t k = 0; k < t->count && at < sizeof buf - 256; k++) {
    size_t ls, lg;
    const char *ws = t->src[k] ? xmt_vocab_word(s, t->src[k], &ls) : "NULL";
    const char *wg = t->tgt[k] ? xmt_vocab_word(g, t->tgt[k], &lg) : "NULL";
    ls = t->src[k] ? ls : 4;
    lg = t->tgt[k] ? lg : 4;
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

static int same_links(const struct xmt_prior_table *x,
                      const struct xmt_prior_table *y) {
  return x->count == y->count &&
         (x->count == 0 ||
          (memcmp(x->src, y->src, x->count * sizeof *x->src) == 0 &&
           memcmp(x->tgt, y->tgt, x->count * sizeof *x->tgt) == 0 &&
           memcmp(x->w, y->w, x->count * sizeof *x->w) == 0));
}

/* Every build is done again through dictionaries kept in memory, as a
 * batch keeps them from document to document, twice (read whole, then
 * reused): the same status, links and counts as reading the files. */
static void check_kept(const struct run *r, const struct xmt_prior_options *o) {
  xmt_lexicon *kept = xmt_lexicon_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(kept);
  struct xmt_prior_options k = *o;
  k.kept = kept;
  for (int pass = 0; pass < 2; pass++) {
    struct xmt_prior_table t;
    struct xmt_prior_stats ks;
    struct xmt_error_store e;
    memset(&t, 0, sizeof t);
    memset(&e, 0, sizeof e);
    xmt_status st = xmt_priors_build(&t, &r->src, &r->tgt, &k, &ks, &e);
    CU_ASSERT_EQUAL(st, r->status);
    if (st == XMT_OK && r->status == XMT_OK) {
      CU_ASSERT_TRUE(same_links(&t, &r->table));
      CU_ASSERT_EQUAL(ks.dictionary_links, r->stats.dictionary_links);
      CU_ASSERT_EQUAL(ks.dictionaries_loaded, r->stats.dictionaries_loaded);
      CU_ASSERT_STRING_EQUAL(ks.loaded, r->stats.loaded);
    } else if (st != XMT_OK && r->status != XMT_OK) {
      CU_ASSERT_STRING_EQUAL(e.pub.message != NULL ? e.pub.message : "",
                             r->err.pub.message != NULL ? r->err.pub.message
                                                        : "");
    }
    xmt_prior_table_free(&t);
    xmt_error_clear(&e);
  }
  xmt_lexicon_free(kept);
}

static void run_build(struct run *r, const char *src, const char *tgt,
                      const struct xmt_prior_options *o) {
  memset(r, 0, sizeof *r);
  vocab_of(&r->src, src);
  vocab_of(&r->tgt, tgt);
  r->status =
      xmt_priors_build(&r->table, &r->src, &r->tgt, o, &r->stats, &r->err);
  CU_ASSERT_TRUE(table_ok(&r->table));
  if (o->ndictionaries > 0)
    check_kept(r, o);
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

/* --- The Apertium pair cache ----------------------------------------------
 * Each test has its own cache folder in the suite's scratch folder; a
 * nonexistent lt-print proves that pairs come from the cache. */

#define ENG_SPA_BIN APERTIUM_ENG_SPA "/eng-spa.autobil.bin"
#define SPA_ENG_BIN APERTIUM_ENG_SPA "/spa-eng.autobil.bin"
#define NO_LT_PRINT "/nonexistent/lt-print"

static const char cache_src[] =
    "the house houses dog water book books cat city country law court day "
    "year time child woman man red green eat eats bread wine write letter";
static const char cache_tgt[] =
    "la casa casas perro agua libro libros gato ciudad país ley tribunal "
    "día año tiempo niño mujer hombre rojo verde comer come pan vino "
    "escribir carta";

static int remove_entry(const char *path, const struct stat *sb, int flag,
                        struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* HOME and XDG_CACHE_HOME, as the tests found them (NULL: unset). */
static char *saved_env[2];
static const char *const saved_names[2] = {"HOME", "XDG_CACHE_HOME"};

static int cache_suite_init(void) {
  for (int i = 0; i < 2; i++) {
    const char *v = getenv(saved_names[i]);
    saved_env[i] = v != NULL ? strdup(v) : NULL;
    if (v != NULL && saved_env[i] == NULL)
      return 1;
  }
  return xmt_test_tmpdir_create("priors-cache");
}

/* The scratch folder holds folders: removed depth first. */
static int cache_suite_clean(void) {
  for (int i = 0; i < 2; i++) {
    if (saved_env[i] != NULL)
      setenv(saved_names[i], saved_env[i], 1);
    else
      unsetenv(saved_names[i]);
    free(saved_env[i]);
    saved_env[i] = NULL;
  }
  char root[512];
  snprintf(root, sizeof root, "%s", xmt_test_tmp_path(""));
  root[strlen(root) - 1] = '\0'; /* the trailing '/' */
  return nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A scratch path, copied (the harness's buffers rotate). */
static char *scratch(const char *name) {
  char *p = strdup(xmt_test_tmp_path(name));
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  return p;
}

static void use_cache(const char *dir) {
  CU_ASSERT_EQUAL_FATAL(setenv("XLIFFMT_CACHE_DIR", dir, 1), 0);
}

/* Options reading the n transducers bins (n <= 2) with lt-print prog. */
static void cache_options(struct xmt_prior_options *o, const char **dicts,
                          const char *const *bins, size_t n, const char *prog) {
  const char *dir = getenv("XLIFFMT_CACHE_DIR");
  char *keep = strdup(dir != NULL ? dir : "");
  CU_ASSERT_PTR_NOT_NULL_FATAL(keep);
  base_options(o); /* empties XLIFFMT_CACHE_DIR: set again */
  use_cache(keep);
  free(keep);
  o->target_lang = "es";
  o->stems = 1;
  o->lt_print = prog;
  for (size_t i = 0; i < n; i++)
    dicts[i] = bins[i];
  o->dictionaries = dicts;
  o->ndictionaries = n;
}

static void cache_build(struct run *r, const struct xmt_prior_options *o) {
  run_build(r, cache_src, cache_tgt, o);
  if (r->status != XMT_OK)
    fprintf(stderr, "\nerror: %s\n",
            r->err.pub.message ? r->err.pub.message : "");
}

static int same_table(const struct run *a, const struct run *b) {
  const struct xmt_prior_table *x = &a->table, *y = &b->table;
  return x->count == y->count &&
         memcmp(x->src, y->src, x->count * sizeof *x->src) == 0 &&
         memcmp(x->tgt, y->tgt, x->count * sizeof *x->tgt) == 0 &&
         memcmp(x->w, y->w, x->count * sizeof *x->w) == 0;
}

/* The files in dir; *last = the path of the last one read (NULL: none). */
static int files_in(const char *dir, char **last) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  *last = NULL;
  while (d != NULL && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    n++;
    free(*last);
    size_t k = strlen(dir) + strlen(e->d_name) + 2;
    *last = malloc(k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*last);
    snprintf(*last, k, "%s/%s", dir, e->d_name);
  }
  if (d != NULL)
    closedir(d);
  return n;
}

/* The path of dir's one cache file: finished, no temporary file left. */
static char *only_cache_file(const char *dir) {
  char *path;
  int n = files_in(dir, &path);
  CU_ASSERT_EQUAL(n, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(path);
  CU_ASSERT_TRUE(path != NULL && strstr(path, ".pairs") != NULL &&
                 strcmp(strstr(path, ".pairs"), ".pairs") == 0);
  return path;
}

static int mode_of(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (int)(sb.st_mode & 07777) : -1;
}

static void write_bytes(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
  CU_ASSERT_EQUAL(fclose(f), 0);
}

/* The first build writes the cache, the next ones read it: the same table,
 * without lt-print, also for a transducer read reversed and for "auto". */
static void test_cache_reuse(void) {
  char *dir = scratch("reuse"); /* made by the build */
  use_cache(dir);
  struct xmt_prior_options o;
  const char *dicts[2], *bins[] = {ENG_SPA_BIN, SPA_ENG_BIN};
  cache_options(&o, dicts, bins, 2, NULL);
  struct run cold, warm;
  cache_build(&cold, &o);
  CU_ASSERT_EQUAL(cold.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&cold, "house", "casa", 1));
  CU_ASSERT_TRUE(has_link(&cold, "books", "libro", 0.5f)); /* a stem */
  CU_ASSERT_TRUE(cold.table.count > 20);
  CU_ASSERT_EQUAL(mode_of(dir), 0700);
  char *path;
  CU_ASSERT_EQUAL(files_in(dir, &path), 2);
  CU_ASSERT_EQUAL(mode_of(path), 0600);
  free(path);
  cache_options(&o, dicts, bins, 2, NO_LT_PRINT);
  cache_build(&warm, &o);
  CU_ASSERT_EQUAL(warm.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&cold, &warm));
  CU_ASSERT_EQUAL(warm.stats.dictionaries_loaded, 2);
  CU_ASSERT_STRING_EQUAL(warm.stats.loaded, cold.stats.loaded);
  run_free(&warm);
  /* "auto" finds the same two, and reads them without lt-print */
  bins[0] = "auto";
  cache_options(&o, dicts, bins, 1, NO_LT_PRINT);
  o.apertium_dir = "/usr/share/apertium";
  cache_build(&warm, &o);
  CU_ASSERT_EQUAL(warm.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&cold, &warm));
  CU_ASSERT_STRING_EQUAL(warm.stats.loaded, cold.stats.loaded);
  run_free(&warm);
  run_free(&cold);
  free(dir);
}

/* Damaged cache files are not read, and are written again. */
static void test_cache_damaged(void) {
  char *dir = scratch("damaged");
  use_cache(dir);
  struct xmt_prior_options o;
  const char *dicts[1], *bins[] = {ENG_SPA_BIN};
  cache_options(&o, dicts, bins, 1, NULL);
  struct run good, again;
  cache_build(&good, &o);
  CU_ASSERT_EQUAL(good.status, XMT_OK);
  char *path = only_cache_file(dir);
  size_t n;
  char *whole = xmt_test_read_file(path, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(whole);
  CU_ASSERT_TRUE(n > 1000 &&
                 strncmp(whole, "xliffmt-apertium-pairs 1 ", 25) == 0);
  /* each damaged file is ignored: without lt-print, the .bin is unread */
  cache_options(&o, dicts, bins, 1, NO_LT_PRINT);
  const char *const garbage = "garbage\n";
  write_bytes(path, garbage, strlen(garbage));
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  write_bytes(path, "", 0);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  write_bytes(path, whole, n / 2); /* cut */
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  write_bytes(path, whole, n - 1); /* the last newline missing */
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  whole[n / 2] ^= 1; /* a changed byte: the hash differs */
  write_bytes(path, whole, n);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  whole[n / 2] ^= 1;
  whole[23] = '2'; /* another format version */
  write_bytes(path, whole, n);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  whole[23] = '1';
  write_bytes(path, whole, n); /* whole again: read */
  cache_build(&again, &o);
  CU_ASSERT_EQUAL(again.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&good, &again));
  run_free(&again);
  /* with lt-print, garbage is replaced by the same file as the first */
  write_bytes(path, garbage, strlen(garbage));
  cache_options(&o, dicts, bins, 1, NULL);
  cache_build(&again, &o);
  CU_ASSERT_EQUAL(again.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&good, &again));
  run_free(&again);
  free(path);
  path = only_cache_file(dir);
  size_t m;
  char *rewritten = xmt_test_read_file(path, &m);
  CU_ASSERT_TRUE(rewritten != NULL && m == n &&
                 memcmp(rewritten, whole, n) == 0);
  free(rewritten);
  free(whole);
  free(path);
  run_free(&good);
  free(dir);
}

/* The key: a transducer changed since (another mtime) is read again. */
static void test_cache_key(void) {
  char *dir = scratch("key"), *bin = scratch("eng-spa.autobil.bin");
  size_t n;
  char *data = xmt_test_read_file(ENG_SPA_BIN, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL(data);
  write_bytes(bin, data, n);
  free(data);
  use_cache(dir);
  struct xmt_prior_options o;
  const char *dicts[1], *bins[] = {bin};
  cache_options(&o, dicts, bins, 1, NULL);
  struct run first, again;
  cache_build(&first, &o);
  CU_ASSERT_EQUAL(first.status, XMT_OK);
  char *path = only_cache_file(dir);
  /* the cache file is whole, but its key has the old mtime */
  const struct timespec t[2] = {{1000000000, 123456789},
                                {1000000000, 123456789}};
  CU_ASSERT_EQUAL(utimensat(AT_FDCWD, bin, t, 0), 0);
  cache_options(&o, dicts, bins, 1, NO_LT_PRINT);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  cache_options(&o, dicts, bins, 1, NULL);
  cache_build(&again, &o);
  CU_ASSERT_EQUAL(again.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&first, &again));
  run_free(&again);
  char *line = xmt_test_read_file(path, &n);
  CU_ASSERT_TRUE(line != NULL &&
                 strstr(line, " 1000000000.123456789 /") != NULL &&
                 strstr(line, " 1000000000.123456789 /") < strchr(line, '\n'));
  free(line);
  cache_options(&o, dicts, bins, 1, NO_LT_PRINT);
  cache_build(&again, &o);
  CU_ASSERT_EQUAL(again.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&first, &again));
  run_free(&again);
  run_free(&first);
  free(path);
  free(bin);
  free(dir);
}

/* XLIFFMT_CACHE_DIR empty: no cache, wherever XDG_CACHE_HOME and HOME
 * point. */
static void test_cache_disabled(void) {
  char *xdg = scratch("off-xdg"), *home = scratch("off-home");
  CU_ASSERT_EQUAL(mkdir(home, 0700), 0);
  CU_ASSERT_EQUAL(setenv("XDG_CACHE_HOME", xdg, 1), 0);
  CU_ASSERT_EQUAL(setenv("HOME", home, 1), 0);
  use_cache("");
  struct xmt_prior_options o;
  const char *dicts[1], *bins[] = {ENG_SPA_BIN};
  cache_options(&o, dicts, bins, 1, NULL);
  struct run r;
  cache_build(&r, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  run_free(&r);
  CU_ASSERT_EQUAL(mode_of(xdg), -1);
  char *any;
  CU_ASSERT_EQUAL(files_in(home, &any), 0);
  free(any);
  cache_options(&o, dicts, bins, 1, NO_LT_PRINT);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  free(xdg);
  free(home);
}

/* Without XLIFFMT_CACHE_DIR: $XDG_CACHE_HOME/xliffmt, else (XDG unset or
 * relative) $HOME/.cache/xliffmt, made 0700; a folder that cannot be made
 * or used: no cache. */
static void test_cache_folders(void) {
  char *xdg = scratch("xdg"), *xdg_dir = scratch("xdg/xliffmt");
  char *home = scratch("home"), *home_dir = scratch("home/.cache/xliffmt");
  char *file = scratch("a-file"), *file_dir = scratch("a-file/xliffmt");
  CU_ASSERT_EQUAL_FATAL(unsetenv("XLIFFMT_CACHE_DIR"), 0);
  CU_ASSERT_EQUAL(setenv("XDG_CACHE_HOME", xdg, 1), 0);
  CU_ASSERT_EQUAL(mkdir(home, 0755), 0);
  CU_ASSERT_EQUAL(setenv("HOME", home, 1), 0);
  struct xmt_prior_options o;
  const char *dicts[1], *bins[] = {ENG_SPA_BIN};
  cache_options(&o, dicts, bins, 1, NULL);
  CU_ASSERT_EQUAL_FATAL(unsetenv("XLIFFMT_CACHE_DIR"), 0);
  struct run r;
  cache_build(&r, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  run_free(&r);
  CU_ASSERT_EQUAL(mode_of(xdg), 0700);
  CU_ASSERT_EQUAL(mode_of(xdg_dir), 0700);
  char *path = only_cache_file(xdg_dir), *name = strrchr(path, '/');
  o.lt_print = NO_LT_PRINT;
  cache_build(&r, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  run_free(&r);
  /* a relative XDG_CACHE_HOME is not used: $HOME/.cache/xliffmt is made,
   * and read once it has the file */
  CU_ASSERT_EQUAL(setenv("XDG_CACHE_HOME", "relative", 1), 0);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  CU_ASSERT_EQUAL(mode_of(home_dir), 0700);
  char *dot_cache = scratch("home/.cache");
  CU_ASSERT_EQUAL(mode_of(dot_cache), 0700);
  free(dot_cache);
  size_t n, k = strlen(home_dir) + strlen(name) + 1;
  char *data = xmt_test_read_file(path, &n), *copy = malloc(k);
  CU_ASSERT_TRUE_FATAL(data != NULL && copy != NULL);
  snprintf(copy, k, "%s%s", home_dir, name);
  write_bytes(copy, data, n);
  cache_build(&r, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  run_free(&r);
  /* neither: no cache; nor where a file is in the way */
  CU_ASSERT_EQUAL(unsetenv("XDG_CACHE_HOME"), 0);
  CU_ASSERT_EQUAL(unsetenv("HOME"), 0);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  write_bytes(file, "", 0);
  CU_ASSERT_EQUAL(setenv("XDG_CACHE_HOME", file, 1), 0);
  expect_error(&o, XMT_ERR_IO, "eng-spa.autobil.bin", 0);
  o.lt_print = NULL; /* runs without the cache */
  cache_build(&r, &o);
  CU_ASSERT_EQUAL(r.status, XMT_OK);
  CU_ASSERT_TRUE(has_link(&r, "house", "casa", 1));
  run_free(&r);
  CU_ASSERT_EQUAL(mode_of(file_dir), -1);
  free(data);
  free(copy);
  free(path);
  free(xdg);
  free(xdg_dir);
  free(home);
  free(home_dir);
  free(file);
  free(file_dir);
}

/* Two threads write the same cache file at once (one transducer named
 * two ways): one whole file, no temporary file left. */
static void test_cache_concurrent(void) {
  char *dir = scratch("concurrent");
  use_cache(dir);
  struct xmt_prior_options o;
  const char *dicts[2],
      *bins[] = {ENG_SPA_BIN, APERTIUM_ENG_SPA "/../apertium-eng-spa/"
                                               "eng-spa.autobil.bin"};
  cache_options(&o, dicts, bins, 2, NULL);
  o.threads = 2;
  struct run cold, warm;
  cache_build(&cold, &o);
  CU_ASSERT_EQUAL(cold.status, XMT_OK);
  CU_ASSERT_EQUAL(cold.stats.dictionaries_loaded, 2);
  char *path = only_cache_file(dir);
  free(path);
  cache_options(&o, dicts, bins, 2, NO_LT_PRINT);
  cache_build(&warm, &o);
  CU_ASSERT_EQUAL(warm.status, XMT_OK);
  CU_ASSERT_TRUE(same_table(&cold, &warm));
  run_free(&warm);
  run_free(&cold);
  free(dir);
}

/* --- Refining alignments ------------------------------------------------ */

/* Refines alignment links (Pharaoh) of source words src and target words
 * tgt (space-separated vocabulary words of r) and compares with want. */
static void expect_completed(struct run *r, const char *src, const char *tgt,
                             const char *links, const char *want) {
  uint32_t ids[2][16];
  size_t len[2] = {0, 0};
  const char *words[2] = {src, tgt};
  const struct xmt_vocab *v[2] = {&r->src, &r->tgt};
  for (int side = 0; side < 2; side++)
    for (const char *p = words[side]; *p != '\0';) {
      size_t n = strcspn(p, " ");
      ids[side][len[side]] = xmt_vocab_find(v[side], p, n);
      CU_ASSERT_NOT_EQUAL_FATAL(ids[side][len[side]], XMT_UNKNOWN_WORD);
      len[side]++;
      p += n + (p[n] == ' ');
    }
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL_FATAL(
      xmt_alignment_parse(al, links, strlen(links), len[0], len[1], NULL),
      XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_priors_refine(al, &r->table, ids[0], len[0], ids[1], len[1]), XMT_OK);
  char got[256];
  size_t at = 0;
  got[0] = '\0';
  const struct xmt_link *l = xmt_alignment_links(al);
  for (size_t k = 0; k < xmt_alignment_count(al); k++)
    at += (size_t)snprintf(got + at, sizeof got - at, "%s%zu-%zu", k ? " " : "",
                           l[k].source, l[k].target);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "\ngot  \"%s\"\nwant \"%s\"\n", got, want);
  CU_ASSERT_STRING_EQUAL(got, want);
  xmt_alignment_free(al);
}

static void test_complete(void) {
  struct xmt_prior_options o;
  base_options(&o);
  char *tsv = fixture("priors/glossary.en-de.tsv");
  const char *dicts[] = {tsv};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  o.stems = 1;
  struct run r;
  /* house>Haus:1 house>Häuser:0.5 houses>Haus:0.5 houses>Häuser:0.5
   * contract>Vertrag:2 Regulation>Verordnung:0.5 dog>Hund:1 */
  run_build(&r, tsv_src, tsv_tgt, &o);
  CU_ASSERT_EQUAL_FATAL(r.status, XMT_OK);
  /* words left unaligned on both sides get their prior links, in order;
   * linked words keep theirs, even wrong ones (house 3 - Haus 0) */
  expect_completed(&r, "house dog contract house", "Haus Hund Vertrag Haus",
                   "2-2 3-0", "0-3 1-1 2-2 3-0");
  /* two candidates for one word: the one nearer the diagonal */
  expect_completed(&r, "house dog house", "Hund Haus", "", "1-0 2-1");
  /* the heavier prior first, however far from the diagonal */
  expect_completed(&r, "house cat cat houses", "Hund Hund Haus", "", "0-2");
  /* no prior between the unaligned words: nothing added */
  expect_completed(&r, "cat dog", "Haus Hund", "1-1", "1-1");
  /* neighbouring links without priors swap targets when a prior says so */
  expect_completed(&r, "house cat", "Hund Haus", "0-0 1-1", "0-1 1-0");
  expect_completed(&r, "cat house dog", "Haus Hund Hund", "0-0 1-1 2-2",
                   "0-1 1-0 2-2");
  /* not when one of them has a prior, or the words are not neighbours */
  expect_completed(&r, "contract house", "Vertrag Hund", "0-0 1-1", "0-0 1-1");
  expect_completed(&r, "house cat cat", "Hund Haus Haus", "0-0 2-1", "0-0 2-1");
  run_free(&r);
  /* nor for a link no heavier than a word of a multiword translation */
  o.phrase_factor = 1;
  run_build(&r, tsv_src, tsv_tgt, &o);
  expect_completed(&r, "house cat", "Hund Haus", "0-0 1-1", "0-0 1-1");
  expect_completed(&r, "contract cat", "Hund Vertrag", "0-0 1-1", "0-1 1-0");
  run_free(&r);
  /* an empty table changes nothing */
  o.ndictionaries = 0;
  run_build(&r, tsv_src, tsv_tgt, &o);
  expect_completed(&r, "house dog", "Haus Hund", "", "");
  run_free(&r);
  free(tsv);
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

/* Chinese and Japanese: the digits and Latin words their words embed or
 * write in full-width forms, and the function words the pair leaves
 * unaligned; neither for a pair of European languages. */
static void test_cjk(void) {
  struct xmt_prior_options o;
  base_options(&o);
  o.target_lang = "ja";
  o.identical_weight = 1;
  /* ２０２４ = 2024, 第5条 embeds 5, ％ = %, ＥＵ = EU (case folded),
   * "。" is sentence punctuation; the and the particles は and を to NULL */
  expect_links("the 2024 5 % EU apple .",
               "\xE3\x81\xAF \xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94 "
               "\xE7\xAC\xAC"
               "5\xE6\x9D\xA1 \xEF\xBC\x85 \xEF\xBC\xA5\xEF\xBC\xB5 "
               "\xE3\x80\x82 \xE3\x82\x92",
               &o,
               "NULL>\xE3\x81\xAF:300 NULL>\xE3\x82\x92:300 the>NULL:300 "
               "2024>\xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94:1 "
               "5>\xE7\xAC\xAC"
               "5\xE6\x9D\xA1:1 %>\xEF\xBC\x85:1 "
               "EU>\xEF\xBC\xA5\xEF\xBC\xB5:1");
  /* Chinese: 2024年 embeds 2024, iPhone版 embeds iphone; articles to NULL,
   * no particle */
  o.target_lang = "zh";
  expect_links("a 2024 iPhone", "2024\xE5\xB9\xB4 iPhone\xE7\x89\x88", &o,
               "a>NULL:300 2024>2024\xE5\xB9\xB4:1 "
               "iPhone>iPhone\xE7\x89\x88:1");
  /* German: none of it */
  o.target_lang = "de";
  expect_links("the 2024 %",
               "der \xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94 "
               "\xEF\xBC\x85",
               &o, "");
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
  /* dictionaries without a reader: the projector reads no file itself */
  base_options(&o);
  const char *auto_only[] = {"auto"};
  o.dictionaries = auto_only;
  o.ndictionaries = 1;
  o.read = NULL;
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

static CU_TestInfo cache_tests[] = {{"written, then read", test_cache_reuse},
                                    {"damaged files", test_cache_damaged},
                                    {"key", test_cache_key},
                                    {"disabled", test_cache_disabled},
                                    {"folders", test_cache_folders},
                                    {"two writers", test_cache_concurrent},
                                    CU_TEST_INFO_NULL};

static CU_TestInfo string_tests[] = {
    {"identical words and cognates", test_identical_cognates},
    {"Chinese and Japanese", test_cjk},
    {"cognates in large vocabularies", test_cognates_large},
    CU_TEST_INFO_NULL};

/* One lexicon for documents one after the other: each gets the links
 * the files give it; other dictionaries or options read again; a missing
 * file is an error each time, and keeps nothing. */
static void kept_expect(xmt_lexicon *lx, const char *src, const char *tgt,
                        const struct xmt_prior_options *o, const char *want) {
  struct xmt_prior_options k = *o;
  k.kept = lx;
  expect_links(src, tgt, &k, want);
}

static void test_kept(void) {
  xmt_lexicon *lx = xmt_lexicon_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(lx);
  struct xmt_prior_options o;
  base_options(&o);
  char *tsv = fixture("priors/glossary.en-de.tsv");
  char *dd = fixture("priors/dictd/freedict-eng-deu");
  const char *dicts[] = {tsv};
  o.dictionaries = dicts;
  o.ndictionaries = 1;
  o.stems = 1;
  kept_expect(lx, "house dog", "Hund Haus Häuser", &o,
              "house>Haus:1 house>Häuser:0.5 dog>Hund:1");
  kept_expect(lx, "contract houses cat", "Vertrag Katze Haus", &o,
              "contract>Vertrag:2 houses>Haus:0.5");
  kept_expect(lx, "nothing here", "nichts hier", &o, "");
  CU_ASSERT_EQUAL(lx->npairs, 4);
  dicts[0] = dd;
  kept_expect(lx, "run house", "laufen Haus Häuser", &o,
              "run>laufen:1 house>Haus:1 house>Häuser:0.5");
  CU_ASSERT_PTR_NOT_NULL(strstr(lx->key, "freedict-eng-deu"));
  o.stems = 0;
  kept_expect(lx, "run house", "laufen Haus Häuser", &o,
              "run>laufen:1 house>Haus:1");
  dicts[0] = "/nonexistent/glossary.tsv";
  o.kept = lx;
  expect_error(&o, XMT_ERR_IO, "glossary.tsv", 0);
  CU_ASSERT_PTR_NULL(lx->key);
  expect_error(&o, XMT_ERR_IO, "glossary.tsv", 0);
  o.kept = NULL;
  dicts[0] = tsv;
  kept_expect(lx, "house", "Haus", &o, "house>Haus:1");
  free(tsv);
  free(dd);
  xmt_lexicon_free(lx);
  xmt_lexicon_free(NULL);
}

static CU_TestInfo kept_tests[] = {{"documents one after the other", test_kept},
                                   CU_TEST_INFO_NULL};

static CU_TestInfo complete_tests[] = {
    {"swapped and unaligned words linked by priors", test_complete},
    CU_TEST_INFO_NULL};

static CU_TestInfo option_tests[] = {{"options", test_options},
                                     CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"languages", NULL, NULL, NULL, NULL, lang_tests},
    {"TSV word lists", NULL, NULL, NULL, NULL, tsv_tests},
    {"dictd dictionaries", NULL, NULL, NULL, NULL, dictd_tests},
    {"installed dictionaries", NULL, NULL, NULL, NULL, installed_tests},
    {"Apertium pair cache", cache_suite_init, cache_suite_clean, NULL, NULL,
     cache_tests},
    {"identical words and cognates", NULL, NULL, NULL, NULL, string_tests},
    {"refining alignments", NULL, NULL, NULL, NULL, complete_tests},
    {"dictionaries kept between builds", NULL, NULL, NULL, NULL, kept_tests},
    {"options", NULL, NULL, NULL, NULL, option_tests},
    CU_SUITE_INFO_NULL};
