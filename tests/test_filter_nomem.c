/* test_filter_nomem.c -- the allocation-failure sweep, after expat's: the
 * library's Nth allocation fails, for every N, over a document round trip
 * (XLIFF 1.2, XLIFF 2 and HTML, tags projected over the pseudo engine's
 * alignment, and masked), a run of the built-in aligner, and a projection. Each
 * run must end with XMT_OK (N beyond the run's allocations) or XMT_ERR_NOMEM:
 * never a crash or another error, no output file left, and no leak (the
 * sanitizer build checks leaks at exit).
 *
 * The program is linked with --wrap for malloc, calloc and realloc, so
 * only the calls of the library's (statically linked) objects and of this
 * file go through the counting wrappers below; expat, ICU and libc keep
 * their own allocator. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "xmt_filter.h"
#include "xmt_projector.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static unsigned long allocations; /* counted while armed */
static unsigned long fail_at;     /* 0: none fails */
static int armed;

/* Atomic: the aligner trains on threads. */
static int must_fail(void) {
  if (!__atomic_load_n(&armed, __ATOMIC_SEQ_CST) ||
      __atomic_add_fetch(&allocations, 1, __ATOMIC_SEQ_CST) != fail_at)
    return 0;
  /* XMT_NOMEM_TRACE=1: where each failing allocation is (addr2line). */
  if (getenv("XMT_NOMEM_TRACE") != NULL) {
    void *frames[16];
    int n = backtrace(frames, 16);
    fprintf(stderr, "-- allocation %lu fails:\n", fail_at);
    backtrace_symbols_fd(frames, n, 2);
  }
  return 1;
}

void *__wrap_malloc(size_t size) {
  return must_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size) {
  return must_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size) {
  return must_fail() ? NULL : __real_realloc(p, size);
}

static int suite_init(void) { return xmt_test_tmpdir_create("nomem"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

static int write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  if (fp == NULL)
    return -1;
  int ok = fputs(text, fp) >= 0;
  return fclose(fp) == 0 && ok ? 0 : -1;
}

/* A run of the sweep: sets up what it needs, runs the code under test
 * once, cleans up; returns its status. */
typedef xmt_status (*run_fn)(void *ctx);

/* Runs fn with the Nth allocation failing, N = 1, 2, ... until a run
 * makes no more than N - 1 allocations. A run either fails with
 * XMT_ERR_NOMEM or, where the library can do without the allocation,
 * gives the same result as a run where nothing fails (fn compares).
 * Returns the number of runs. */
static unsigned long sweep(const char *name, run_fn fn, void *ctx) {
  unsigned long n = 1;
  for (;; n++) {
    allocations = 0;
    fail_at = n;
    xmt_status st = fn(ctx);
    int hit = allocations >= n;
    fail_at = 0;
    if (st != XMT_OK && st != XMT_ERR_NOMEM) {
      fprintf(stderr, "\n%s: allocation %lu failed: status %d (%s)\n", name, n,
              (int)st, xmt_strerror(st));
      CU_FAIL("a failed allocation gave another status than XMT_ERR_NOMEM");
      return n;
    }
    if (!hit) {
      CU_ASSERT_EQUAL(st, XMT_OK);
      fprintf(stderr, " %s: %lu allocations ", name, n - 1);
      return n;
    }
  }
}

/* --- A document round trip --------------------------------------------- */

struct doc_run {
  const char *in, *out;
  const char *backend;
  enum xmt_tag_mode tags;
  int self_aligner;
  char *want; /* the output of a run where nothing fails */
  size_t want_len;
  unsigned flags; /* XMT_FILTER_* of the run */
};

static xmt_status translate_once(void *ctx) {
  struct doc_run *d = ctx;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL)
    return XMT_ERR_NOMEM;
  armed = 1;
  /* Without the pseudo engine's alignment the built-in aligner trains. */
  xmt_status st =
      xmt_filter_set_backend(f, xmt_backend_builtin(d->backend), NULL, NULL);
  if (st == XMT_OK && d->self_aligner)
    st = xmt_filter_add_backend_option(f, "alignment=no");
  if (st == XMT_OK)
    st = xmt_filter_set_languages(f, "en", "es");
  if (st == XMT_OK)
    st = xmt_filter_set_tag_mode(f, d->tags);
  if (st == XMT_OK && d->flags != 0)
    xmt_filter_set_flags(f, d->flags);
  if (st == XMT_OK && (d->flags & XMT_FILTER_SEG_SOURCE) != 0)
    st = xmt_filter_set_segmentation(f, XMT_SEGMENT_UNSEGMENTED, NULL);
  if (st == XMT_OK && d->self_aligner) {
    st = xmt_filter_set_aligner(f, XMT_ALIGNER_SELF, NULL);
    if (st == XMT_OK)
      st = xmt_filter_add_dictionary(
          f, d->self_aligner == 2 ? xmt_test_tmp_path("en-es.tsv") : "none");
  }
  /* 2: two runs of one filter, the engine, the dictionaries and the cache
   * kept; the second takes its word links from the cache */
  if (st == XMT_OK && d->self_aligner == 2) {
    char uri[600];
    snprintf(uri, sizeof uri, "sqlite:%s", xmt_test_tmp_path("nomem.db"));
    unlink(uri + 7);
    st = xmt_filter_set_cache(f, uri, 0);
  }
  if (st == XMT_OK && d->self_aligner == 2) {
    char first[700];
    snprintf(first, sizeof first, "%s.first", d->out);
    xmt_filter_set_flags(f, XMT_FILTER_KEEP_ENGINES |
                                XMT_FILTER_KEEP_DICTIONARIES);
    st = xmt_filter_translate_file(f, d->in, first);
    unlink(first);
  }
  if (st == XMT_OK)
    st = xmt_filter_translate_file(f, d->in, d->out);
  armed = 0;
  if (st == XMT_OK) {
    size_t len = 0;
    char *got = xmt_test_read_file(d->out, &len);
    if (got == NULL || (d->want != NULL && (len != d->want_len ||
                                            memcmp(got, d->want, len) != 0))) {
      fprintf(stderr, "\nallocation %lu: the output differs\n", fail_at);
      st = XMT_ERR_INTERNAL;
    }
    if (d->want == NULL && got != NULL) {
      d->want = got; /* the first run's, where nothing fails */
      d->want_len = len;
    } else {
      free(got);
    }
    unlink(d->out);
  } else if (access(d->out, F_OK) == 0) {
    fprintf(stderr, "\nfailed run left %s\n", d->out);
    st = XMT_ERR_INTERNAL;
  }
  xmt_filter_free(f);
  return st;
}

static const char doc_xlf[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"1.2\" "
    "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    "<file original=\"a.txt\" source-language=\"en\" target-language=\"es\" "
    "datatype=\"plaintext\"><body>\n"
    "<trans-unit id=\"1\"><source>Press <g id=\"1\">Save</g> now. Then "
    "close<x id=\"2\"/> the window.</source></trans-unit>\n"
    "<trans-unit id=\"2\"><source>The <bx id=\"3\"/>red car<ex id=\"4\" "
    "rid=\"3\"/> "
    "is fast.</source></trans-unit>\n"
    "<trans-unit id=\"3\"><source>The <g id=\"5\">red</g> car is "
    "fast.</source></trans-unit>\n"
    "<trans-unit id=\"4\" translate=\"no\"><source>Keep.</source>"
    "</trans-unit>\n"
    /* A lone bx and its ex in the next unit; the same id in a second
     * <file>. */
    "<trans-unit id=\"5\"><source><bx id=\"6\"/>A bold run. "
    "Goes on.</source></trans-unit>\n"
    "<trans-unit id=\"6\"><source>And ends<ex id=\"6\"/> "
    "here.</source></trans-unit>\n"
    "</body></file>\n"
    "<file original=\"b.txt\" source-language=\"en\" "
    "target-language=\"es\" datatype=\"plaintext\"><body>\n"
    "<trans-unit id=\"1\"><source>Press <g id=\"1\">Save</g> "
    "again.</source></trans-unit>\n"
    "</body></file></xliff>\n";

static const char doc_html[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><title>A page</title></head>\n"
    "<body><p>Press <b>Save</b> now.</p>\n"
    "<p>The <a href=\"x.html\">red car</a> is fast.<br>Really.</p>\n"
    "</body></html>\n";

static const char doc_xlf2[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" "
    "srcLang=\"en\" trgLang=\"es\">\n<file id=\"f\">\n"
    "<unit id=\"1\"><segment><source>Press <pc id=\"1\">Save</pc> now. Then "
    "close<ph id=\"2\"/> the window.</source></segment></unit>\n"
    /* sc/ec in one segment, and across two */
    "<unit id=\"2\"><segment><source>The <sc id=\"3\"/>red car<ec "
    "startRef=\"3\"/> is <sc id=\"4\"/>fast.</source></segment>\n"
    "<ignorable><source> </source></ignorable><segment id=\"s2\"><source>A "
    "<mrk id=\"m\" type=\"term\">car</mrk><ec startRef=\"4\"/>.</source>"
    "<target/></segment></unit>\n"
    "<unit id=\"3\" translate=\"no\"><segment><source>Keep.</source>"
    "</segment></unit>\n"
    "</file></xliff>\n";

static void run_doc_flags(const char *name, const char *text, const char *ext,
                          const char *backend, enum xmt_tag_mode tags,
                          int self_aligner, unsigned flags) {
  char in[512], out[600];
  snprintf(in, sizeof in, "%s", xmt_test_tmp_path(ext));
  snprintf(out, sizeof out, "%s.out", in);
  CU_ASSERT_EQUAL_FATAL(write_file(in, text), 0);
  struct doc_run d = {in, out, backend, tags, self_aligner, NULL, 0, flags};
  CU_ASSERT_EQUAL_FATAL(translate_once(&d), XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d.want);
  unsigned long runs = sweep(name, translate_once, &d);
  CU_ASSERT(runs > 50); /* the sweep reached into the run */
  free(d.want);
  unlink(in);
}

static void run_doc(const char *name, const char *text, const char *ext,
                    const char *backend, enum xmt_tag_mode tags,
                    int self_aligner) {
  run_doc_flags(name, text, ext, backend, tags, self_aligner, 0);
}

static void test_xliff_projected(void) {
  run_doc("xliff, projected", doc_xlf, "in.xlf", "pseudo", XMT_TAGS_PROJECT, 0);
}

static void test_xliff_masked(void) {
  run_doc("xliff, masked", doc_xlf, "in.xlf", "identity", XMT_TAGS_MASK, 0);
}

static void test_xliff_self_aligned(void) {
  run_doc("xliff, built-in aligner", doc_xlf, "in.xlf", "pseudo",
          XMT_TAGS_PROJECT, 1);
}

static void test_xliff_kept(void) {
  CU_ASSERT_EQUAL_FATAL(write_file(xmt_test_tmp_path("en-es.tsv"),
                                   "press\tpulsar\nsave\tguardar\n"
                                   "red\trojo\ncar\tcoche\n"),
                        0);
  run_doc("xliff, engine, dictionaries and cache kept", doc_xlf, "in.xlf",
          "pseudo", XMT_TAGS_PROJECT, 2);
  unlink(xmt_test_tmp_path("en-es.tsv"));
  unlink(xmt_test_tmp_path("nomem.db"));
  unlink(xmt_test_tmp_path("nomem.db-wal"));
  unlink(xmt_test_tmp_path("nomem.db-shm"));
}

static void test_xliff2(void) {
  run_doc("xliff 2", doc_xlf2, "in2.xlf", "pseudo", XMT_TAGS_PROJECT, 0);
}

static void test_xliff2_matches(void) {
  run_doc_flags("xliff 2, matches", doc_xlf2, "in2.xlf", "pseudo",
                XMT_TAGS_PROJECT, 0, XMT_FILTER_ALT_TRANS);
}

/* --seg-source: a unit of three sentences, a <pc> around a boundary,
 * becomes three segments with <ignorable>s between them. */
static const char doc_xlf2_split[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" "
    "srcLang=\"en\" trgLang=\"es\">\n<file id=\"f\">\n"
    "<unit id=\"1\"><segment id=\"s\"><source>Press <pc id=\"1\">Save. "
    "Then</pc> close<ph id=\"2\"/> it. The red car.</source></segment>"
    "</unit>\n</file></xliff>\n";

/* The same unsegmented: the engine's word links of its one long segment
 * are checked with an allocation that fails (the tokens grow), which is
 * not links that do not check out. */
static void test_xliff2_long(void) {
  run_doc("xliff 2, one long segment", doc_xlf2_split, "in2.xlf", "pseudo",
          XMT_TAGS_PROJECT, 0);
}

static void test_xliff2_resegment(void) {
  run_doc_flags("xliff 2, resegmented", doc_xlf2_split, "in2.xlf", "pseudo",
                XMT_TAGS_PROJECT, 0, XMT_FILTER_SEG_SOURCE);
}

/* check on an XLIFF 2 document that breaks its rules: every problem told
 * in a run where nothing fails is told in one that does not fail. */
struct check_run {
  const char *path;
  size_t want; /* problems told where nothing fails; 0: not known yet */
};

static int count_problem(void *user, const struct xmt_problem *p) {
  (void)p;
  ++*(size_t *)user;
  return 0;
}

static xmt_status check_once(void *ctx) {
  struct check_run *c = ctx;
  xmt_filter *f = xmt_filter_new();
  if (f == NULL)
    return XMT_ERR_NOMEM;
  armed = 1;
  struct xmt_check_report report;
  size_t told = 0;
  xmt_status st =
      xmt_filter_check_file(f, c->path, &report, count_problem, &told);
  armed = 0;
  if (st == XMT_OK && c->want == 0)
    c->want = told;
  else if (st == XMT_OK && told != c->want)
    st = XMT_ERR_INTERNAL;
  xmt_filter_free(f);
  return st;
}

static void test_xliff2_check(void) {
  static const char doc[] =
      "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" "
      "srcLang=\"en\"><file id=\"f\"><unit id=\"u\"><originalData><data "
      "id=\"d1\">x</data></originalData><segment id=\"s\"><source>A<ph "
      "id=\"1\" dataRef=\"d2\"/> <ph id=\"1\"/></source>"
      "</segment></unit><unit id=\"u\"><segment><source>"
      "C</source></segment></unit></file><file id=\"f\"><unit id=\"v\">"
      "<segment><source>D</source></segment></unit></file></xliff>";
  const char *in = xmt_test_tmp_path("rules2.xlf");
  CU_ASSERT_EQUAL_FATAL(write_file(in, doc), 0);
  struct check_run c = {in, 0};
  CU_ASSERT_EQUAL_FATAL(check_once(&c), XMT_OK);
  CU_ASSERT_EQUAL(c.want, 4); /* the four rules broken */
  CU_ASSERT(sweep("xliff 2 check", check_once, &c) > 10);
  unlink(in);
}

/* check on an XLIFF 1.2 target that lacks one code of its source and
 * has one it does not: a comparison that runs out of memory fails the
 * check instead of leaving a warning out. */
static void test_check_codes(void) {
  static const char doc[] =
      "<xliff version=\"1.2\"><file original=\"a\" source-language=\"en\" "
      "target-language=\"es\" datatype=\"plaintext\"><body><trans-unit "
      "id=\"1\"><source>A <g id=\"1\">b</g> <x id=\"2\"/></source><target>A "
      "b <x id=\"3\"/></target></trans-unit></body></file></xliff>";
  const char *in = xmt_test_tmp_path("codes.xlf");
  CU_ASSERT_EQUAL_FATAL(write_file(in, doc), 0);
  struct check_run c = {in, 0};
  CU_ASSERT_EQUAL_FATAL(check_once(&c), XMT_OK);
  CU_ASSERT_EQUAL(c.want, 2); /* a code lacking, a code added */
  CU_ASSERT(sweep("xliff check codes", check_once, &c) > 3);
  unlink(in);
}

static void test_html(void) {
  run_doc("html", doc_html, "in.html", "pseudo", XMT_TAGS_PROJECT, 0);
}

/* --- A projection ---------------------------------------------------------
 */

static xmt_status project_once(void *ctx) {
  (void)ctx;
  static const char markup[] =
      "Press <g id=\"1\">Save <x id=\"2\"/>now</g> and <g id=\"3\">go</g>.";
  static const char target[] = "Pulse ahora Guardar y vaya.";
  xmt_segment *src = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *links = xmt_alignment_new();
  xmt_status s =
      src != NULL && out != NULL && st != NULL && tt != NULL && links != NULL
          ? XMT_OK
          : XMT_ERR_NOMEM;
  armed = 1;
  if (s == XMT_OK)
    s = xmt_xliff_inline_parse(src, markup, sizeof markup - 1, NULL);
  size_t slen = 0;
  const char *stext = s == XMT_OK ? xmt_segment_text(src, &slen) : "";
  if (s == XMT_OK)
    s = xmt_tokenize(st, stext, slen, XMT_TOKENIZE_DEFAULT);
  if (s == XMT_OK)
    s = xmt_tokenize(tt, target, sizeof target - 1, XMT_TOKENIZE_DEFAULT);
  if (s == XMT_OK)
    s = xmt_alignment_parse(links, "0-0 1-2 2-1 3-3 4-4 5-5", 23,
                            xmt_tokens_count(st), xmt_tokens_count(tt), NULL);
  if (s == XMT_OK)
    s = xmt_project(out, src, st, target, sizeof target - 1, tt, links,
                    XMT_RULE_MINMAX);
  armed = 0;
  if (s == XMT_OK) {
    char *got = xmt_xliff_inline_render(out, NULL);
    if (got == NULL ||
        strcmp(got, "Pulse <g id=\"1\"><x id=\"2\"/>ahora "
                    "Guardar</g> y <g id=\"3\">vaya</g>.") != 0) {
      fprintf(stderr, "\nallocation %lu: projected %s\n", fail_at,
              got != NULL ? got : "(null)");
      s = XMT_ERR_INTERNAL;
    }
    free(got);
  }
  xmt_alignment_free(links);
  xmt_tokens_free(tt);
  xmt_tokens_free(st);
  xmt_segment_free(out);
  xmt_segment_free(src);
  return s;
}

static void test_projection(void) {
  CU_ASSERT(sweep("projection", project_once, NULL) > 10);
}

static CU_TestInfo nomem_tests[] = {
    {"XLIFF round trip, tags projected", test_xliff_projected},
    {"XLIFF round trip, tags masked", test_xliff_masked},
    {"XLIFF round trip, built-in aligner", test_xliff_self_aligned},
    {"XLIFF, two runs, engine, dictionaries and cache kept", test_xliff_kept},
    {"XLIFF 2 round trip", test_xliff2},
    {"XLIFF 2 round trip, matches", test_xliff2_matches},
    {"XLIFF 2 round trip, resegmented", test_xliff2_resegment},
    {"XLIFF 2 round trip, one long segment", test_xliff2_long},
    {"XLIFF 2 check", test_xliff2_check},
    {"check of inline codes", test_check_codes},
    {"HTML page", test_html},
    {"projection", test_projection},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"allocation failures", suite_init, suite_clean, NULL, NULL, nomem_tests},
    CU_SUITE_INFO_NULL,
};
