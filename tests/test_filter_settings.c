/* test_filter_settings.c -- the filter's setters: each refuses what it
 * cannot take with XMT_ERR_USAGE, a message and nothing changed, and
 * takes a good value. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <string.h>

#include "filter_private.h"
#include "harness.h"

/* The filter's error is a usage error whose message holds word. */
static int refused(const xmt_filter *f, const char *word) {
  const struct xmt_error *e = xmt_filter_error(f);
  return e->status == XMT_ERR_USAGE && e->message != NULL &&
         strstr(e->message, word) != NULL;
}

/* A good call clears the error a refused one left. */
static int cleared(const xmt_filter *f) {
  return xmt_filter_error(f)->status == XMT_OK;
}

static void test_flags(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, XMT_FILTER_OVERWRITE), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, 0xFFFFFF00u), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "0xffffc000"));
  CU_ASSERT_EQUAL(f->flags, XMT_FILTER_OVERWRITE);
  /* One bit past the known ones is enough. */
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, XMT_FILTER_APPROVED |
                                              ((XMT_FILTER_KNOWN_FLAGS << 1) &
                                               ~XMT_FILTER_KNOWN_FLAGS)),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "0x4000"));
  CU_ASSERT_EQUAL(f->flags, XMT_FILTER_OVERWRITE);
  /* Every flag the headers define is known. */
  unsigned all = XMT_FILTER_OVERWRITE | XMT_FILTER_ALT_TRANS |
                 XMT_FILTER_UPDATE_MODEL | XMT_FILTER_SEG_SOURCE |
                 XMT_FILTER_APPROVED | XMT_FILTER_KEEP_ENTITIES |
                 XMT_FILTER_KEEP_ENGINES | XMT_FILTER_KEEP_DICTIONARIES |
                 XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE |
                 XMT_FILTER_KEEP_GOING | XMT_FILTER_HTML_REPLACE_INVALID |
                 XMT_FILTER_NO_ICU | XMT_FILTER_SCHEMA_STRICT;
  CU_ASSERT_EQUAL(all, XMT_FILTER_KNOWN_FLAGS);
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, all), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->flags, all);
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, 0), XMT_OK);
  CU_ASSERT_EQUAL(f->flags, 0);
  xmt_filter_free(f);
}

static void test_projection(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(f->rule, XMT_RULE_MINMAX);
  CU_ASSERT_EQUAL(f->symmetrization, XMT_SYM_GROW_DIAG_FINAL_AND);
  CU_ASSERT_EQUAL(xmt_filter_set_projection(f, (enum xmt_projection_rule)99,
                                            (enum xmt_symmetrization)99),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "rule 99"));
  /* A good rule with a bad symmetrization changes neither. */
  CU_ASSERT_EQUAL(xmt_filter_set_projection(f, XMT_RULE_SCORE,
                                            (enum xmt_symmetrization) - 1),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "symmetrization -1"));
  CU_ASSERT_EQUAL(
      xmt_filter_set_projection(f, XMT_RULE_SCORE, (enum xmt_symmetrization)8),
      XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "symmetrization 8"));
  CU_ASSERT_EQUAL(f->rule, XMT_RULE_MINMAX);
  CU_ASSERT_EQUAL(f->symmetrization, XMT_SYM_GROW_DIAG_FINAL_AND);
  CU_ASSERT_EQUAL(
      xmt_filter_set_projection(f, XMT_RULE_SCORE, XMT_SYM_INTERSECT), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->rule, XMT_RULE_SCORE);
  CU_ASSERT_EQUAL(f->symmetrization, XMT_SYM_INTERSECT);
  xmt_filter_free(f);
}

static void test_batch_and_window(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(f->batch_size, XMT_DEFAULT_BATCH_SIZE);
  CU_ASSERT_EQUAL(f->window, XMT_DEFAULT_WINDOW);
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, 0), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "batch size 0"));
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, XMT_MAX_BATCH_SIZE + 1),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "batch size 1000001"));
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, SIZE_MAX), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(f->batch_size, XMT_DEFAULT_BATCH_SIZE);
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, XMT_MAX_BATCH_SIZE), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, 1), XMT_OK);
  CU_ASSERT_EQUAL(f->batch_size, 1);

  CU_ASSERT_EQUAL(xmt_filter_set_window(f, 0), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "window of 0"));
  CU_ASSERT_EQUAL(f->window, XMT_DEFAULT_WINDOW);
  CU_ASSERT_EQUAL(xmt_filter_set_window(f, 1), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->window, 1);
  CU_ASSERT_EQUAL(xmt_filter_set_window(f, SIZE_MAX), XMT_OK);
  CU_ASSERT_EQUAL(f->window, SIZE_MAX);
  xmt_filter_free(f);
}

static void test_engine_jobs(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(f->engine_jobs, 1);
  CU_ASSERT_EQUAL(xmt_filter_set_engine_jobs(f, 0), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "engine jobs 0"));
  /* Refused, no longer cut down to the maximum. */
  CU_ASSERT_EQUAL(xmt_filter_set_engine_jobs(f, XMT_MAX_ENGINE_JOBS + 1),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "engine jobs 65"));
  CU_ASSERT_EQUAL(f->engine_jobs, 1);
  CU_ASSERT_EQUAL(xmt_filter_set_engine_jobs(f, XMT_MAX_ENGINE_JOBS), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->engine_jobs, XMT_MAX_ENGINE_JOBS);
  xmt_filter_free(f);
}

static void test_timeout_and_answer_size(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_timeout(f, XMT_MAX_TIMEOUT_MS + 1),
                  XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "86400001 ms"));
  CU_ASSERT_EQUAL(f->timeout_ms, 0);
  CU_ASSERT_EQUAL(xmt_filter_set_timeout(f, XMT_MAX_TIMEOUT_MS), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->timeout_ms, XMT_MAX_TIMEOUT_MS);
  CU_ASSERT_EQUAL(xmt_filter_set_timeout(f, 0), XMT_OK);
  CU_ASSERT_EQUAL(f->timeout_ms, 0);

  CU_ASSERT_EQUAL(xmt_filter_set_max_answer_size(f, SIZE_MAX), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "maximum answer size"));
  CU_ASSERT_EQUAL(f->max_answer, 0);
  CU_ASSERT_EQUAL(xmt_filter_set_max_answer_size(f, (size_t)PTRDIFF_MAX),
                  XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(xmt_filter_set_max_answer_size(f, 6), XMT_OK);
  CU_ASSERT_EQUAL(f->max_answer, 6);
  CU_ASSERT_EQUAL(xmt_filter_set_max_answer_size(f, 0), XMT_OK);
  CU_ASSERT_EQUAL(f->max_answer, 0);
  xmt_filter_free(f);
}

static int progress(void *user, const struct xmt_filter_stats *stats) {
  (void)user, (void)stats;
  return 0;
}

static void failure(void *user, const char *segment_id, unsigned long line,
                    const char *message) {
  (void)user, (void)segment_id, (void)line, (void)message;
}

static void test_callbacks(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  int user = 0;
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, ~0u), XMT_ERR_USAGE);
  /* Any callbacks are good, and clear the error like any call. */
  CU_ASSERT_EQUAL(xmt_filter_set_callbacks(f, progress, failure, &user),
                  XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_PTR_EQUAL(f->progress, progress);
  CU_ASSERT_PTR_EQUAL(f->on_failure, failure);
  CU_ASSERT_PTR_EQUAL(f->callback_user, &user);
  CU_ASSERT_EQUAL(xmt_filter_set_warning_callback(f, failure), XMT_OK);
  CU_ASSERT_PTR_EQUAL(f->on_warning, failure);
  CU_ASSERT_EQUAL(xmt_filter_set_callbacks(f, NULL, NULL, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_warning_callback(f, NULL), XMT_OK);
  CU_ASSERT_PTR_NULL(f->progress);
  CU_ASSERT_PTR_NULL(f->on_warning);
  xmt_filter_free(f);
}

/* The settings a run is given are the ones it runs with: one segment per
 * call with a batch of 1. */
static void test_settings_used(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  const char *out = xmt_test_tmp_path("settings.xlf");
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_batch_size(f, 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_window(f, 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_engine_jobs(f, 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_flags(f, XMT_FILTER_OVERWRITE), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, xmt_test_fixture_path("enc-utf8.xlf"), out),
      XMT_OK);
  const struct xmt_filter_stats *st = xmt_filter_stats(f);
  CU_ASSERT(st->segments > 1);
  CU_ASSERT_EQUAL(st->mt_calls, st->segments - st->deduplicated_segments);
  remove(out);
  xmt_filter_free(f);
}

/* Setting what a filter already has keeps its engines and its rules; a
 * change drops them, to be made anew by the next run. */
static void test_same_settings_kept(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  const char *out = xmt_test_tmp_path("kept.xlf");
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_segmentation(f, XMT_SEGMENT_UNSEGMENTED, NULL),
                  XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_filter_set_flags(f, XMT_FILTER_OVERWRITE | XMT_FILTER_KEEP_ENGINES),
      XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, xmt_test_fixture_path("enc-utf8.xlf"), out),
      XMT_OK);
  CU_ASSERT(f->nengines > 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f->segmenter);
  void *const *engines = f->engines;
  const void *segmenter = f->segmenter;
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_segmentation(f, XMT_SEGMENT_UNSEGMENTED, NULL),
                  XMT_OK);
  CU_ASSERT_PTR_EQUAL(f->engines, engines);
  CU_ASSERT_PTR_EQUAL(f->segmenter, segmenter);
  /* Another target language, another mode: both dropped. */
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "ca"), XMT_OK);
  CU_ASSERT_EQUAL(f->nengines, 0);
  CU_ASSERT_STRING_EQUAL(f->target_language, "ca");
  CU_ASSERT_EQUAL(xmt_filter_set_segmentation(f, XMT_SEGMENT_ALL, NULL),
                  XMT_OK);
  CU_ASSERT_PTR_NULL(f->segmenter);
  CU_ASSERT_EQUAL(f->segmentation, XMT_SEGMENT_ALL);
  /* NULL (the document's language) is a value like any other. */
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, NULL, "ca"), XMT_OK);
  CU_ASSERT_PTR_NULL(f->source_language);
  remove(out);
  xmt_filter_free(f);
}

/* The first engine started before any run, and taken by the first run. */
static void test_start_engines(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_start_engines(f), XMT_ERR_USAGE);
  CU_ASSERT(refused(f, "XMT_FILTER_KEEP_ENGINES"));
  CU_ASSERT_EQUAL(f->nengines, 0);
  CU_ASSERT_EQUAL(
      xmt_filter_set_flags(f, XMT_FILTER_OVERWRITE | XMT_FILTER_KEEP_ENGINES),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "es"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_segmentation(f, XMT_SEGMENT_UNSEGMENTED, NULL),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_start_engines(f), XMT_OK);
  CU_ASSERT(cleared(f));
  CU_ASSERT_EQUAL(f->nengines, 1);
  CU_ASSERT_PTR_NOT_NULL(f->segmenter);
  void *first = f->engines[0];
  CU_ASSERT_EQUAL(xmt_filter_start_engines(f), XMT_OK);
  CU_ASSERT_EQUAL(f->nengines, 1);
  CU_ASSERT_PTR_EQUAL(f->engines[0], first);
  const char *out = xmt_test_tmp_path("started.xlf");
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, xmt_test_fixture_path("enc-utf8.xlf"), out),
      XMT_OK);
  CU_ASSERT_PTR_EQUAL(f->engines[0], first);
  remove(out);
  /* An engine that cannot start says so, as a run would. */
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, xmt_backend_builtin("apertium"),
                                         NULL, "no-such-pair"),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_start_engines(f), XMT_ERR_BACKEND);
  CU_ASSERT_EQUAL(strncmp(xmt_filter_error(f)->message,
                          "cannot start MT backend 'apertium': ", 36),
                  0);
  CU_ASSERT_EQUAL(f->nengines, 0);
  xmt_filter_free(f);
}

static int suite_init(void) { return xmt_test_tmpdir_create("settings"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

static CU_TestInfo settings_tests[] = {
    {"flags: unknown bits refused", test_flags},
    {"projection: unknown rule or symmetrization refused", test_projection},
    {"batch size and window: 0 and too large refused", test_batch_and_window},
    {"engine jobs: 0 and more than the maximum refused", test_engine_jobs},
    {"timeout and answer size: too large refused",
     test_timeout_and_answer_size},
    {"callbacks: any value taken", test_callbacks},
    {"settings used by a run", test_settings_used},
    {"the same languages and segmentation keep engines and rules",
     test_same_settings_kept},
    {"engines started before the first run", test_start_engines},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter/settings", suite_init, suite_clean, NULL, NULL, settings_tests},
    CU_SUITE_INFO_NULL,
};
