/* test_filter_probes.c -- engine probes: spans and the words around
 * placeholders sent to the engine on their own (a span with the word
 * before it when it alone is not found), their translations found in the
 * segment's (exactly, folded, by stem) and anchoring the tags over an
 * engine's deliberately wrong word alignment. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("probes"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

/* --- A table engine -------------------------------------------------------
 * Translates by a table; sentences come with the alignment given (often a
 * wrong one, word for word in order), probes without. Anything else fails,
 * as an engine may fail on a probe. */

struct entry {
  const char *source, *target, *alignment;
};

static const struct entry table[] = {
    {"The red car is in the garage.", "El coche rojo está en el garaje.",
     "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7"},
    {"The blue car is in the garage.", "El coche azul está en el garaje.",
     "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7"},
    {"red", "rojo", NULL},
    {"The new letter arrived today.", "La carta nueva llegó hoy.",
     "0-0 1-1 2-2 3-3 4-4 5-5"},
    {"The new letter", "La carta nueva", NULL},
    {"new", "nuevo", NULL},
    {"Open the menu now.", "Abre ahora el menú.", "0-0 1-1 2-2 3-3 4-4"},
    {"menu", "MENU", NULL},
    {"The model is new. The model is old.",
     "El modelo es nuevo. El modelo es viejo.",
     "0-0 1-1 2-2 3-3 4-4 5-5 6-7 7-7 8-8 9-9"},
    {"model", "modelo", NULL},
    {"Green Valley Farm Long Road 12",
     "Granja de Valle Verde Carretera Larga 12", "0-3 1-2 2-0 3-5 4-4 5-6"},
    {"Green Valley Farm", "Granja de Valle Verde", NULL},
    {"Farm", "Granja", NULL},
    {"Regulation 1 applies.", "Reglamento 1 aplica.", "0-0 1-0 2-2 3-3"},
    {"Red car.", "Coche rojo.", "0-1 1-0 2-2"},
    {"How do I open an account?", "Cómo abro una cuenta?",
     "0-0 1-0 2-1 3-2 4-2 5-3 6-4"},
    {"open", "abierto", NULL},
    {"I open", "Abro", NULL}};

struct engine {
  size_t calls, requests;
  char asked[1024];
};

static int engine_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static int engine_translate(void *state, const struct xmt_mt_request *req,
                            xmt_mt_response *const *resp, size_t n) {
  struct engine *e = state;
  e->calls++;
  for (size_t i = 0; i < n; i++) {
    size_t k = 0, len = strlen(e->asked);
    e->requests++;
    snprintf(e->asked + len, sizeof e->asked - len, "[%s]", req[i].text);
    while (k < sizeof table / sizeof *table &&
           strcmp(table[k].source, req[i].text) != 0)
      k++;
    if (k == sizeof table / sizeof *table) {
      xmt_mt_response_set_error(resp[i], "not in the table");
      continue;
    }
    xmt_mt_response_set_text(resp[i], table[k].target, strlen(table[k].target));
    if (table[k].alignment != NULL)
      xmt_mt_response_set_alignment(resp[i], table[k].alignment, NULL, NULL);
  }
  return 0;
}

static void engine_close(void *state) { (void)state; }

static const struct xmt_backend table_backend = {
    XMT_BACKEND_ABI_VERSION, "table",      engine_open,
    engine_translate,        engine_close, NULL};

/* --- Running documents ----------------------------------------------------
 */

#define HEAD                                                                   \
  "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"    \
  "<file original=\"a\" source-language=\"en\" target-language=\"es\" "        \
  "datatype=\"plaintext\"><body>\n"
#define TAIL "</body></file></xliff>\n"
#define UNIT(src) "<trans-unit id=\"1\"><source>" src "</source>"
#define TARGET "<target xml:lang=\"es\" state=\"translated\">"
#define DONE(tgt) TARGET tgt "</target></trans-unit>\n"
#define TODO "</trans-unit>\n"

struct failures {
  char text[512];
};

static void on_failure(void *user, const char *id, unsigned long line,
                       const char *message) {
  struct failures *f = user;
  snprintf(f->text + strlen(f->text), sizeof f->text - strlen(f->text),
           "%s@%lu:%s;", id, line, message);
}

static xmt_filter *new_filter(struct engine *e, struct failures *fl,
                              enum xmt_probes probes) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &table_backend, e, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "translated", NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_probes(f, probes), XMT_OK);
  xmt_filter_set_callbacks(f, NULL, on_failure, fl);
  return f;
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

/* Translates the one-unit document with source src and checks its target
 * against tgt, with probes (auto) and without (off: tgt_off). */
static void expect(const char *src, const char *tgt, const char *tgt_off,
                   struct engine *e, const struct xmt_filter_stats *want) {
  static const enum xmt_probes modes[] = {XMT_PROBES_AUTO, XMT_PROBES_OFF};
  char in[1024], out[1024];
  snprintf(in, sizeof in, HEAD UNIT("%s") TODO TAIL, src);
  write_file(xmt_test_tmp_path("in.xlf"), in);
  for (int m = 0; m < 2; m++) {
    struct failures fl = {""};
    memset(e, 0, sizeof *e);
    xmt_filter *f = new_filter(e, &fl, modes[m]);
    CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                              xmt_test_tmp_path("out.xlf")),
                    XMT_OK);
    snprintf(out, sizeof out, HEAD UNIT("%s") DONE("%s") TAIL, src,
             m == 0 ? tgt : tgt_off);
    size_t len = 0;
    char *got = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    XMT_ASSERT_BYTES_EQUAL(got, len, out, strlen(out));
    free(got);
    /* A probe that fails is no failure of the segment. */
    CU_ASSERT_STRING_EQUAL(fl.text, "");
    const struct xmt_filter_stats *s = xmt_filter_stats(f);
    CU_ASSERT_EQUAL(s->segments, 1);
    /* The probes go in a call of their own, after the segments'. */
    CU_ASSERT_EQUAL(s->mt_calls, 1 + (s->probe_requests > 0));
    CU_ASSERT_EQUAL(s->probe_requests, m == 0 ? want->probe_requests : 0);
    CU_ASSERT_EQUAL(s->probe_anchored_tags,
                    m == 0 ? want->probe_anchored_tags : 0);
    CU_ASSERT_EQUAL(e->requests, 1 + s->probe_requests);
    xmt_filter_free(f);
    unlink(xmt_test_tmp_path("out.xlf"));
  }
  unlink(xmt_test_tmp_path("in.xlf"));
}

/* --- Tests ----------------------------------------------------------------
 */

static void test_span_exact(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2; /* "red", and "The red" in case it is not found */
  want.probe_anchored_tags = 1;
  /* The alignment puts red on coche; the probe finds rojo. */
  expect("The <g id=\"1\">red</g> car is in the garage.",
         "El coche <g id=\"1\">rojo</g> está en el garaje.",
         "El <g id=\"1\">coche</g> rojo está en el garaje.", &e, &want);
  CU_ASSERT_STRING_EQUAL(e.asked, "[The red car is in the garage.]");
  /* With probes the engine is asked both: the segment, then its probes
   * while the aligner works. */
  char in[512];
  snprintf(in, sizeof in, HEAD UNIT("%s") TODO TAIL,
           "The <g id=\"1\">red</g> car is in the garage.");
  write_file(xmt_test_tmp_path("in.xlf"), in);
  struct failures fl = {""};
  memset(&e, 0, sizeof e);
  xmt_filter *f = new_filter(&e, &fl, XMT_PROBES_AUTO);
  CU_ASSERT_EQUAL(xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf")),
                  XMT_OK);
  CU_ASSERT_STRING_EQUAL(e.asked,
                         "[The red car is in the garage.][red][The red]");
  CU_ASSERT_EQUAL(e.calls, 2);
  xmt_filter_free(f);
  unlink(xmt_test_tmp_path("in.xlf"));
  unlink(xmt_test_tmp_path("out.xlf"));
}

static void test_nested_and_stem(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 3;
  want.probe_anchored_tags = 2;
  /* The outer pair found exactly, the inner one inside it through a stem
   * (nuevo / nueva). */
  expect("<g id=\"1\">The <g id=\"2\">new</g> letter</g> arrived today.",
         "<g id=\"1\">La carta <g id=\"2\">nueva</g></g> llegó hoy.",
         "<g id=\"1\">La <g id=\"2\">carta</g> nueva</g> llegó hoy.", &e,
         &want);
}

static void test_folded(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2;
  want.probe_anchored_tags = 1;
  /* MENU is menú without case and accent. */
  expect("Open the <g id=\"1\">menu</g> now.",
         "Abre ahora el <g id=\"1\">menú</g>.",
         "Abre ahora <g id=\"1\">el</g> menú.", &e, &want);
}

static void test_nearest_occurrence(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2;
  want.probe_anchored_tags = 1;
  /* modelo twice: the one nearest where the alignment puts the pair. */
  expect("The model is new. The <g id=\"1\">model</g> is old.",
         "El modelo es nuevo. El <g id=\"1\">modelo</g> es viejo.",
         "El modelo es nuevo. El modelo <g id=\"1\">es</g> viejo.", &e, &want);
}

static void test_context(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2;
  want.probe_anchored_tags = 1;
  /* "open" alone is "abierto", not in the sentence; with the word before
   * it, "abro" is. */
  expect("How do I <g id=\"1\">open</g> an account?",
         "Cómo <g id=\"1\">abro</g> una cuenta?",
         "Cómo abro <g id=\"1\">una</g> cuenta?", &e, &want);
}

static void test_placeholder_phrase(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2;
  want.probe_anchored_tags = 1;
  /* The line break after Farm goes after the whole address line, which
   * Spanish turns round. */
  expect("Green Valley Farm<x id=\"1\"/> Long Road 12",
         "Granja de Valle Verde<x id=\"1\"/> Carretera Larga 12",
         "Granja<x id=\"1\"/> de Valle Verde Carretera Larga 12", &e, &want);
  CU_ASSERT_STRING_EQUAL(e.asked, "[Green Valley Farm Long Road 12]");
}

static void test_failed_probe(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_requests = 2;
  /* "blue" is not in the table: the alignment decides, nothing fails. */
  expect("The <g id=\"1\">blue</g> car is in the garage.",
         "El <g id=\"1\">coche</g> azul está en el garaje.",
         "El <g id=\"1\">coche</g> azul está en el garaje.", &e, &want);
}

static void test_literal_and_whole(void) {
  struct engine e;
  struct xmt_filter_stats want = {0};
  want.probe_anchored_tags = 1;
  /* A number is its own translation: no request. The superscript is a
   * word break: the engine sees a space, the target loses it. */
  expect("Regulation<g id=\"1\" ctype=\"x-html-sup\">1</g> applies.",
         "Reglamento<g id=\"1\" ctype=\"x-html-sup\">1</g> aplica.",
         "<g id=\"1\" ctype=\"x-html-sup\">Reglamento</g> 1 aplica.", &e,
         &want);
  CU_ASSERT_STRING_EQUAL(e.asked, "[Regulation 1 applies.]");
  /* A pair around the whole segment is not probed. */
  want.probe_anchored_tags = 0;
  expect("<g id=\"1\">Red car.</g>", "<g id=\"1\">Coche rojo.</g>",
         "<g id=\"1\">Coche rojo.</g>", &e, &want);
}

static void test_api(void) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_probes(f, (enum xmt_probes)7), XMT_ERR_USAGE);
  CU_ASSERT_PTR_NOT_NULL(xmt_filter_error(f)->message);
  CU_ASSERT_EQUAL(xmt_filter_set_probes(f, XMT_PROBES_OFF), XMT_OK);
  xmt_filter_free(f);
}

static CU_TestInfo probe_tests[] = {
    {"a span found exactly", test_span_exact},
    {"nested spans, a stem", test_nested_and_stem},
    {"case and diacritics folded", test_folded},
    {"the nearest occurrence", test_nearest_occurrence},
    {"a span with the word before it", test_context},
    {"a placeholder's phrase", test_placeholder_phrase},
    {"a failed probe", test_failed_probe},
    {"literal and whole spans", test_literal_and_whole},
    {"the setter", test_api},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter probes", suite_init, suite_clean, NULL, NULL, probe_tests},
    CU_SUITE_INFO_NULL};
