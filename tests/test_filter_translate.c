/* test_filter_translate.c -- the translate pipeline through the public API:
 * identity over every Okapi fixture, custom backends, failures. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "xliff_private.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("filter"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

/* Collects, per unit of an output document, whether the target written by
 * the run carries the source's text and codes. */
struct verify {
  int units_with_written_target;
  int mismatches;
};

static int skip_bytes(void *user, const char *b, size_t n) {
  (void)user, (void)b, (void)n;
  return 0;
}

static int verify_unit(void *user, xmt_xliff_unit *u) {
  struct verify *v = user;
  const xmt_segment *target = xmt_xliff_unit_existing_target(u);
  const char *state = xmt_xliff_unit_target_state(u);
  if (target != NULL && state != NULL &&
      strcmp(state, "needs-review-translation") == 0) {
    v->units_with_written_target++;
    /* For an unsegmented unit the written target is the source itself. */
    if (!xmt_xliff_unit_segmented(u) &&
        !xmt_segment_equal(target, u->whole_source))
      v->mismatches++;
    if (xmt_xliff_unit_segmented(u)) {
      size_t tl, sl;
      xmt_segment_text(target, &tl);
      xmt_segment_text(u->whole_source, &sl);
      if (xmt_segment_tag_count(target) <
              xmt_segment_tag_count(u->whole_source) &&
          tl != sl)
        v->mismatches++;
    }
  }
  xmt_xliff_unit_free(u);
  return 0;
}

static void verify_output(const char *path, struct verify *v) {
  static const struct xmt_xliff_reader_callbacks cb = {skip_bytes, NULL,
                                                       verify_unit};
  memset(v, 0, sizeof *v);
  size_t len;
  char *doc = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, v);
  CU_ASSERT_EQUAL(xmt_xliff_reader_parse(r, doc, len, 1), XMT_OK);
  xmt_xliff_reader_free(r);
  free(doc);
}

static void test_identity_okapi(void) {
  const char *dir = xmt_test_data_path("okapi/xliff");
  char dirpath[4096];
  snprintf(dirpath, sizeof dirpath, "%s", dir);
  DIR *d = opendir(dirpath);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  struct dirent *e;
  int written = 0, files = 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char in[8192];
    snprintf(in, sizeof in, "%s/%s", dirpath, e->d_name);
    for (unsigned flags = 0; flags <= XMT_FILTER_OVERWRITE; flags++) {
      xmt_filter *f = xmt_filter_new();
      xmt_filter_set_flags(f, flags);
      xmt_status st =
          xmt_filter_translate_file(f, in, xmt_test_tmp_path("out.xlf"));
      if (strcmp(e->d_name, "invalid_xml_entity.xlf") == 0) {
        CU_ASSERT_EQUAL(st, XMT_ERR_XML);
        CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 8);
        CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
      } else {
        /* (Units 5 and 6 of Manual-12-AltTrans.xlf hold text in a <sub>
         * of a code: a segment of its own, translated too.) */
        CU_ASSERT_EQUAL(st, XMT_OK);
        CU_ASSERT_EQUAL(xmt_filter_stats(f)->failed_segments, 0);
        struct verify v;
        verify_output(xmt_test_tmp_path("out.xlf"), &v);
        CU_ASSERT_EQUAL(v.mismatches, 0);
        CU_ASSERT_EQUAL((size_t)v.units_with_written_target,
                        xmt_filter_stats(f)->translated_units);
        written += v.units_with_written_target;
        unlink(xmt_test_tmp_path("out.xlf"));
        files++;
      }
      xmt_filter_free(f);
    }
  }
  closedir(d);
  CU_ASSERT(files >= 36);
  CU_ASSERT(written >= 100);
}

/* --- Custom backends
 * ------------------------------------------------------------- */

struct backend_script {
  int mode; /* 0 upper-case, 1 per-segment error, 2 abort, 3 bad UTF-8 */
  size_t calls, segments;
  int closed;
};

static int script_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  if (config->spec != NULL && strcmp(config->spec, "fail") == 0) {
    snprintf(errbuf, errlen, "no engine here");
    return 1;
  }
  *state = user;
  return 0;
}

static int script_translate(void *state, const struct xmt_mt_request *req,
                            xmt_mt_response *const *resp, size_t n) {
  struct backend_script *s = state;
  s->calls++;
  s->segments += n;
  if (s->mode == 2)
    return 1;
  for (size_t i = 0; i < n; i++) {
    char buf[256];
    size_t len = req[i].len < sizeof buf ? req[i].len : sizeof buf;
    for (size_t k = 0; k < len; k++)
      buf[k] = (char)(req[i].text[k] >= 'a' && req[i].text[k] <= 'z'
                          ? req[i].text[k] - 32
                          : req[i].text[k]);
    if (s->mode == 1 && strstr(req[i].segment_id, "2") != NULL)
      xmt_mt_response_set_error(resp[i], "engine refused");
    else if (s->mode == 3) {
      CU_ASSERT_EQUAL(xmt_mt_response_set_text(resp[i], "\xC3(", 2),
                      XMT_ERR_ENCODING);
    } else
      xmt_mt_response_set_text(resp[i], buf, len);
  }
  return 0;
}

static void script_close(void *state) {
  ((struct backend_script *)state)->closed++;
}

static const struct xmt_backend script_backend = {
    XMT_BACKEND_ABI_VERSION, "script",     script_open,
    script_translate,        script_close, NULL};

static const char plain_doc[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    "<file original=\"a\" source-language=\"en\" datatype=\"plaintext\">"
    "<body>\n"
    "<trans-unit id=\"1\">\n  <source>hello world</source>\n</trans-unit>\n"
    "<trans-unit id=\"2\">\n  <source>second one</source>\n</trans-unit>\n"
    "<trans-unit id=\"3\">\n  <source> </source>\n</trans-unit>\n"
    "</body></file></xliff>\n";

static void write_doc(const char *path, const char *doc) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(doc, fp);
  fclose(fp);
}

static void test_custom_backend(void) {
  char inpath[512];
  snprintf(inpath, sizeof inpath, "%s", xmt_test_tmp_path("in.xlf"));
  write_doc(inpath, plain_doc);
  struct backend_script s = {0, 0, 0, 0};
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &script_backend, &s, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "de"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "translated", NULL), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, inpath, xmt_test_tmp_path("out.xlf")),
      XMT_OK);
  /* The blank unit never reaches the backend. */
  CU_ASSERT_EQUAL(s.calls, 1);
  CU_ASSERT_EQUAL(s.segments, 2);
  CU_ASSERT_EQUAL(s.closed, 1);
  size_t len;
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  static const char expected[] =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<xliff version=\"1.2\" "
      "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
      "<file original=\"a\" source-language=\"en\" datatype=\"plaintext\" "
      "target-language=\"de\"><body>\n"
      "<trans-unit id=\"1\">\n  <source>hello world</source>\n"
      "  <target xml:lang=\"de\" state=\"translated\">HELLO WORLD</target>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"2\">\n  <source>second one</source>\n"
      "  <target xml:lang=\"de\" state=\"translated\">SECOND ONE</target>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"3\">\n  <source> </source>\n"
      "  <target xml:lang=\"de\" state=\"translated\"> </target>\n"
      "</trans-unit>\n"
      "</body></file></xliff>\n";
  XMT_ASSERT_BYTES_EQUAL(out, len, expected, sizeof expected - 1);
  free(out);
  unlink(xmt_test_tmp_path("out.xlf"));
  xmt_filter_free(f);
}

static void expect_failed_run(int mode, const char *options, xmt_status want,
                              const char *words) {
  struct backend_script s = {mode, 0, 0, 0};
  xmt_filter *f = xmt_filter_new();
  xmt_filter_set_backend(f, &script_backend, &s, options);
  xmt_filter_set_languages(f, NULL, "de");
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  want);
  const struct xmt_error *err = xmt_filter_error(f);
  CU_ASSERT_EQUAL(err->status, want);
  CU_ASSERT_PTR_NOT_NULL(err->message);
  if (err->message != NULL && strstr(err->message, words) == NULL) {
    fprintf(stderr, "\n«%s» lacks «%s»\n", err->message, words);
    CU_FAIL("message");
  }
  /* Nothing but the input is left: no output, no temporary file. */
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  xmt_filter_free(f);
}

/* A segment the engine fails on keeps no target; the rest is written. */
static void expect_partial_run(int mode, const char *expected) {
  struct backend_script s = {mode, 0, 0, 0};
  xmt_filter *f = xmt_filter_new();
  xmt_filter_set_backend(f, &script_backend, &s, NULL);
  xmt_filter_set_languages(f, NULL, "de");
  xmt_filter_set_target_state(f, "translated", NULL);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->status, XMT_ERR_PARTIAL);
  size_t len;
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  XMT_ASSERT_BYTES_EQUAL(out, len, expected, strlen(expected));
  free(out);
  unlink(xmt_test_tmp_path("out.xlf"));
  xmt_filter_free(f);
}

#define PLAIN_HEAD                                                             \
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                               \
  "<xliff version=\"1.2\" "                                                    \
  "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"                         \
  "<file original=\"a\" source-language=\"en\" datatype=\"plaintext\" "        \
  "target-language=\"de\"><body>\n"

static void test_backend_failures(void) {
  write_doc(xmt_test_tmp_path("in.xlf"), plain_doc);
  expect_partial_run(
      1, PLAIN_HEAD
      "<trans-unit id=\"1\">\n  <source>hello world</source>\n"
      "  <target xml:lang=\"de\" state=\"translated\">HELLO WORLD</target>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"2\">\n  <source>second one</source>\n</trans-unit>\n"
      "<trans-unit id=\"3\">\n  <source> </source>\n"
      "  <target xml:lang=\"de\" state=\"translated\"> </target>\n"
      "</trans-unit>\n"
      "</body></file></xliff>\n");
  expect_partial_run(
      3, PLAIN_HEAD
      "<trans-unit id=\"1\">\n  <source>hello world</source>\n</trans-unit>\n"
      "<trans-unit id=\"2\">\n  <source>second one</source>\n</trans-unit>\n"
      "<trans-unit id=\"3\">\n  <source> </source>\n"
      "  <target xml:lang=\"de\" state=\"translated\"> </target>\n"
      "</trans-unit>\n"
      "</body></file></xliff>\n");
  expect_failed_run(2, NULL, XMT_ERR_BACKEND, "aborted");
  expect_failed_run(0, "fail", XMT_ERR_BACKEND, "no engine here");
  unlink(xmt_test_tmp_path("in.xlf"));
}

static void test_settings_and_inputs(void) {
  xmt_filter *f = xmt_filter_new();
  struct xmt_backend old = script_backend;
  old.abi_version = 99;
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &old, NULL, NULL), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "bogus", NULL), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "x-mine", "x-too"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, NULL, "leveraged-mt"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en US", NULL), XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("missing.xlf"),
                                            xmt_test_tmp_path("o")),
                  XMT_ERR_IO);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->file, "missing.xlf"));
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
  write_doc(xmt_test_tmp_path("in.xlf"), plain_doc);
  /* No target language anywhere. */
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  /* A source language other than the document's. */
  xmt_filter_set_languages(f, "fr", "de");
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 3);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  /* An output folder that does not exist. */
  xmt_filter_set_languages(f, "en", "de");
  CU_ASSERT_EQUAL(
      xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                xmt_test_tmp_path("no/such/dir/o.xlf")),
      XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(xmt_backend_builtin("nope"), NULL);
  CU_ASSERT_PTR_NOT_NULL(xmt_backend_builtin("identity"));
  unlink(xmt_test_tmp_path("in.xlf"));
  xmt_filter_free(f);
}

/* Codes in the source and a translation that differs: the codes are
 * projected, never dropped. */
static void test_codes_never_dropped(void) {
  write_doc(xmt_test_tmp_path("in.xlf"),
            "<xliff version='1.2'><file source-language='en' "
            "target-language='de'><body><trans-unit id='1'><source>a "
            "<g id='1'>b</g></source></trans-unit></body></file></xliff>");
  struct backend_script s = {0, 0, 0, 0};
  xmt_filter *f = xmt_filter_new();
  xmt_filter_set_backend(f, &script_backend, &s, NULL);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  XMT_OK);
  size_t len;
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(out, "<target xml:lang=\"de\" state=\"needs-review-translation\" "
                  "state-qualifier=\"mt-suggestion\">A <g id='1'>B</g>"));
  free(out);
  unlink(xmt_test_tmp_path("out.xlf"));
  unlink(xmt_test_tmp_path("in.xlf"));
  xmt_filter_free(f);
}

CU_TestInfo translate_tests[] = {
    {"identity over every Okapi fixture", test_identity_okapi},
    {"a custom backend through the API", test_custom_backend},
    {"backend failures leave no output", test_backend_failures},
    {"settings and bad inputs", test_settings_and_inputs},
    {"inline codes are never dropped", test_codes_never_dropped},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter translate", suite_init, suite_clean, NULL, NULL, translate_tests},
    CU_SUITE_INFO_NULL};
