/* test_filter_pipeline.c -- the translate pipeline's own work, through the
 * public API with scripted backends: whitespace kept out of MT, segments
 * with nothing to translate, identical segments translated once, tags
 * projected over self-trained and engine alignments, the mask and raw tag
 * modes against engines that lose, repeat and move codes, partial failures,
 * and the offline extract/merge workflow. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("pipeline"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

/* --- Scripted engines ------------------------------------------------------
 */

enum script {
  UPPER,       /* ASCII letters uppercased */
  REVERSE,     /* word order reversed, words uppercased, no alignment */
  REVERSE_ALN, /* the same, with the exact alignment */
  FAIL_TWO,    /* segments whose id contains "2" fail, others UPPER */
  MASK_MANGLE, /* drops XMT1X, repeats XMT0X, moves XMT2X to the front */
  RAW_MANGLE,  /* drops </g>, so the markup does not parse */
  RECORD,      /* identity, recording what it was asked */
  NO_WORDS,    /* "...", whatever it is asked */
  EMPTY        /* "", whatever it is asked */
};

struct engine {
  enum script script;
  size_t calls, segments;
  char asked[1024];
};

static int engine_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static void upper(char *s) {
  for (; *s; s++)
    if (*s >= 'a' && *s <= 'z')
      *s = (char)(*s - 32);
}

/* Reverses the space-separated words of s into out; the alignment of word
 * i is n-1-i. */
static void reverse_words(const char *s, char *out, size_t size, char *aln,
                          size_t alnsize) {
  const char *words[64];
  size_t lens[64], n = 0;
  for (const char *p = s; *p && n < 64;) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    words[n] = p;
    while (*p && *p != ' ')
      p++;
    lens[n] = (size_t)(p - words[n]);
    n++;
  }
  out[0] = aln[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    size_t w = n - 1 - i;
    snprintf(out + strlen(out), size - strlen(out), "%s%.*s", i ? " " : "",
             (int)lens[w], words[w]);
    snprintf(aln + strlen(aln), alnsize - strlen(aln), "%s%zu-%zu",
             i ? " " : "", w, i);
  }
}

static int engine_translate(void *state, const struct xmt_mt_request *req,
                            xmt_mt_response *const *resp, size_t n) {
  struct engine *e = state;
  e->calls++;
  for (size_t i = 0; i < n; i++) {
    char buf[512], aln[256];
    e->segments++;
    snprintf(buf, sizeof buf, "%s", req[i].text);
    switch (e->script) {
    case UPPER:
      upper(buf);
      break;
    case REVERSE:
    case REVERSE_ALN:
      reverse_words(req[i].text, buf, sizeof buf, aln, sizeof aln);
      upper(buf);
      if (e->script == REVERSE_ALN)
        xmt_mt_response_set_alignment(resp[i], aln, req[i].text, buf);
      break;
    case FAIL_TWO:
      if (strchr(req[i].segment_id, '2') != NULL) {
        xmt_mt_response_set_error(resp[i], "engine refused");
        continue;
      }
      upper(buf);
      break;
    case MASK_MANGLE: {
      /* "XMT0X one XMT1X two XMT2X" -> "XMT2X XMT0X ONE TWO XMT0X" */
      char out[512] = "";
      char *save = NULL;
      int have2 = 0;
      for (char *w = strtok_r(buf, " ", &save); w != NULL;
           w = strtok_r(NULL, " ", &save)) {
        if (strcmp(w, "XMT1X") == 0)
          continue;
        if (strcmp(w, "XMT2X") == 0) {
          have2 = 1;
          continue;
        }
        upper(w);
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s",
                 out[0] ? " " : "", w);
        if (strcmp(w, "XMT0X") == 0)
          continue;
      }
      snprintf(buf, sizeof buf, "%s%s XMT0X", have2 ? "XMT2X " : "", out);
      break;
    }
    case RAW_MANGLE: {
      char *close = strstr(buf, "</g>");
      if (close != NULL)
        memmove(close, close + 4, strlen(close + 4) + 1);
      upper(buf);
      break;
    }
    case RECORD:
      snprintf(e->asked + strlen(e->asked), sizeof e->asked - strlen(e->asked),
               "[%s]", req[i].text);
      break;
    case NO_WORDS:
      snprintf(buf, sizeof buf, "...");
      break;
    case EMPTY:
      buf[0] = '\0';
      break;
    }
    xmt_mt_response_set_text(resp[i], buf, strlen(buf));
  }
  return 0;
}

static void engine_close(void *state) { (void)state; }

static const struct xmt_backend engine_backend = {
    XMT_BACKEND_ABI_VERSION, "engine",     engine_open,
    engine_translate,        engine_close, NULL};

/* --- Running documents -----------------------------------------------------
 */

#define HEAD                                                                   \
  "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">"    \
  "<file original=\"a\" source-language=\"en\" target-language=\"de\" "        \
  "datatype=\"plaintext\"><body>\n"
#define TAIL "</body></file></xliff>\n"
#define TARGET "<target xml:lang=\"de\" state=\"translated\">"

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
}

struct failures {
  char text[512];
};

static void on_failure(void *user, const char *id, unsigned long line,
                       const char *message) {
  struct failures *f = user;
  snprintf(f->text + strlen(f->text), sizeof f->text - strlen(f->text),
           "%s@%lu:%s;", id, line, message);
}

static xmt_filter *new_filter(struct engine *e, enum xmt_tag_mode mode,
                              struct failures *failures) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &engine_backend, e, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "translated", NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_tag_mode(f, mode), XMT_OK);
  xmt_filter_set_callbacks(f, NULL, on_failure, failures);
  return f;
}

/* Translates doc and compares the output with expected. */
static void expect_run(xmt_filter *f, const char *doc, xmt_status want,
                       const char *expected) {
  write_file(xmt_test_tmp_path("in.xlf"), doc);
  xmt_status st = xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                            xmt_test_tmp_path("out.xlf"));
  CU_ASSERT_EQUAL(st, want);
  if (st != want && xmt_filter_error(f)->message != NULL)
    fprintf(stderr, "\n%s\n", xmt_filter_error(f)->message);
  size_t len = 0;
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  if (expected == NULL) {
    CU_ASSERT_PTR_NULL(out);
  } else {
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    XMT_ASSERT_BYTES_EQUAL(out, len, expected, strlen(expected));
  }
  free(out);
  unlink(xmt_test_tmp_path("out.xlf"));
  unlink(xmt_test_tmp_path("in.xlf"));
}

#define UNIT(id, src) "<trans-unit id=\"" id "\"><source>" src "</source>"
#define DONE(tgt) TARGET tgt "</target></trans-unit>\n"
#define UNTOUCHED "</trans-unit>\n"

/* --- Tests ------------------------------------------------------------------
 */

static void test_whitespace_and_copies(void) {
  struct engine e = {RECORD, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  expect_run(f,
             HEAD UNIT("1", "  hello there\n") UNTOUCHED UNIT("2", "12.5 % (3)")
                 UNTOUCHED UNIT("3", "<x id=\"1\"/> - ") UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "  hello there\n") DONE("  hello there\n")
                 UNIT("2", "12.5 % (3)") DONE("12.5 % (3)")
                     UNIT("3", "<x id=\"1\"/> - ") DONE("<x id=\"1\"/> - ")
                         TAIL);
  /* Only the core of the one segment with words went to the engine. */
  CU_ASSERT_STRING_EQUAL(e.asked, "[hello there]");
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->copied_segments, 2);
  /* "hello there": the white space around it and the copies not counted. */
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->source_characters, 11);
  xmt_filter_free(f);
}

static void test_identical_segments_once(void) {
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  expect_run(f,
             HEAD UNIT("1", "same text") UNTOUCHED UNIT("2", " same text")
                 UNTOUCHED UNIT("3", "other") UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "same text") DONE("SAME TEXT")
                 UNIT("2", " same text") DONE(" SAME TEXT") UNIT("3", "other")
                     DONE("OTHER") TAIL);
  CU_ASSERT_EQUAL(e.segments, 2);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->deduplicated_segments, 1);
  /* "same text" each time it occurs, as DeepL bills it: 9 + 9 + 5. */
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->source_characters, 23);
  /* Across windows too. */
  xmt_filter_set_window(f, 1);
  e.segments = 0;
  expect_run(f,
             HEAD UNIT("1", "same text") UNTOUCHED UNIT("2", "same text")
                 UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "same text") DONE("SAME TEXT")
                 UNIT("2", "same text") DONE("SAME TEXT") TAIL);
  CU_ASSERT_EQUAL(e.segments, 1);
  xmt_filter_free(f);
}

static void test_projection(void) {
  struct engine e = {REVERSE_ALN, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  /* The engine's own alignment carries the pair to the moved word. */
  expect_run(f, HEAD UNIT("1", "<g id=\"1\">one</g> two three") UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "<g id=\"1\">one</g> two three")
                 DONE("THREE TWO <g id=\"1\">ONE</g>") TAIL);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->projected_segments, 1);
  xmt_filter_free(f);
  /* Uppercasing keeps the order: the self-trained aligner finds it. */
  e.script = UPPER;
  f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  expect_run(
      f, HEAD UNIT("1", "a <g id=\"1\">b</g> c<x id=\"2\"/>") UNTOUCHED TAIL,
      XMT_OK,
      HEAD UNIT("1", "a <g id=\"1\">b</g> c<x id=\"2\"/>")
          DONE("A <g id=\"1\">B</g> C<x id=\"2\"/>") TAIL);
  xmt_filter_free(f);
}

/* A code standing for a word break reaches the engine as a space, which
 * the target loses again; formatting inside a word stays joined. */
static void test_word_breaks(void) {
  static const char *const src[] = {
      "one<x id=\"1\"/>two",
      "Regulation<g id=\"1\" ctype=\"x-html-sup\">1</g> applies",
      "un<g id=\"1\">believ</g>able <g id=\"2\">on</g>line",
      "H<g id=\"1\" ctype=\"x-html-sub\">2</g>O"};
  /* The identity gives the spaced text back: the source comes back. The
   * engine that changes the words keeps the spaces: they go. */
  static const char *const reversed[] = {
      "TWO ONE<x id=\"1\"/>",
      "APPLIES<g id=\"1\" ctype=\"x-html-sup\">1</g> REGULATION",
      "<g id=\"2\">ONLINE</g> <g id=\"1\">UNBELIEVABLE</g>",
      "O<g id=\"1\" ctype=\"x-html-sub\">2</g>H"};
  char in[1024] = HEAD, want[2][1024] = {HEAD, HEAD};
  for (size_t i = 0; i < 4; i++) {
    size_t n = strlen(in);
    snprintf(in + n, sizeof in - n, UNIT("%zu", "%s") UNTOUCHED, i + 1, src[i]);
    for (int k = 0; k < 2; k++) {
      n = strlen(want[k]);
      snprintf(want[k] + n, sizeof want[k] - n, UNIT("%zu", "%s") DONE("%s"),
               i + 1, src[i], k == 0 ? src[i] : reversed[i]);
    }
  }
  strcat(in, TAIL);
  strcat(want[0], TAIL);
  strcat(want[1], TAIL);
  struct engine e = {RECORD, 0, 0, ""};
  struct failures fl = {""};
  for (int k = 0; k < 2; k++) {
    e.script = k == 0 ? RECORD : REVERSE_ALN;
    xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
    xmt_filter_set_probes(f, XMT_PROBES_OFF);
    expect_run(f, in, XMT_OK, want[k]);
    xmt_filter_free(f);
  }
  CU_ASSERT_STRING_EQUAL(e.asked, "[one two][Regulation 1 applies]"
                                  "[unbelievable online][H 2 O]");
  CU_ASSERT_STRING_EQUAL(fl.text, "");
}

static void test_mask_mode(void) {
  struct engine e = {MASK_MANGLE, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_MASK, &fl);
  /* Tag 0 repeated (second copy dropped), tag 1 lost (appended), tag 2
   * moved to the front. */
  expect_run(f,
             HEAD UNIT("1", "<x id=\"a\"/>one <x id=\"b\"/>two<x id=\"c\"/>")
                 UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "<x id=\"a\"/>one <x id=\"b\"/>two<x id=\"c\"/>")
                 DONE("<x id=\"c\"/><x id=\"a\"/>ONE TWO<x id=\"b\"/>") TAIL);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->repaired_segments, 1);
  xmt_filter_free(f);
  /* An engine that gives the masked text back gives the source back: the
   * spaces around the tokens were the encoder's. */
  e.script = RECORD;
  f = new_filter(&e, XMT_TAGS_MASK, &fl);
  expect_run(f,
             HEAD UNIT("1", "Press <g id=\"1\">Save</g>. Then<x id=\"2\"/> "
                            "go <x id=\"3\"/>now.") UNTOUCHED TAIL,
             XMT_OK,
             HEAD UNIT("1", "Press <g id=\"1\">Save</g>. Then<x id=\"2\"/> "
                            "go <x id=\"3\"/>now.")
                 DONE("Press <g id=\"1\">Save</g>. Then<x id=\"2\"/> go "
                      "<x id=\"3\"/>now.") TAIL);
  CU_ASSERT_STRING_EQUAL(e.asked,
                         "[Press XMT0X Save XMT1X . Then XMT2X go XMT3X now.]");
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->repaired_segments, 0);
  xmt_filter_free(f);
}

static void test_raw_mode(void) {
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_RAW, &fl);
  /* The engine uppercases the markup too: <G ID="1"> does not parse as a
   * code of the source, so the answer is projected instead. */
  e.script = RAW_MANGLE;
  expect_run(f, HEAD UNIT("1", "a <g id=\"1\">b</g> c") UNTOUCHED TAIL, XMT_OK,
             HEAD UNIT("1", "a <g id=\"1\">b</g> c")
                 DONE("A <g id=\"1\">B</g> C") TAIL);
  xmt_filter_free(f);
  e.script = RECORD;
  e.asked[0] = '\0';
  f = new_filter(&e, XMT_TAGS_RAW, &fl);
  expect_run(f, HEAD UNIT("1", "a <g id=\"1\">b</g> c") UNTOUCHED TAIL, XMT_OK,
             HEAD UNIT("1", "a <g id=\"1\">b</g> c")
                 DONE("a <g id=\"1\">b</g> c") TAIL);
  CU_ASSERT_STRING_EQUAL(e.asked, "[a <g id=\"1\">b</g> c]");
  xmt_filter_free(f);
}

static void test_partial_failure(void) {
  static const char in[] =
      HEAD UNIT("1", "one") UNTOUCHED UNIT("2", "two") UNTOUCHED
      "<trans-unit id=\"3\"><source>Sa. Sb.</source><seg-source>"
      "<mrk mtype=\"seg\" mid=\"1\">Sa.</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">Sb.</mrk></seg-source>" UNTOUCHED TAIL;
  static const char out[] =
      HEAD UNIT("1", "one") DONE("ONE") UNIT("2", "two") UNTOUCHED
      "<trans-unit id=\"3\"><source>Sa. Sb.</source><seg-source>"
      "<mrk mtype=\"seg\" mid=\"1\">Sa.</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">Sb.</mrk></seg-source>"
      "<target xml:lang=\"de\" state=\"needs-translation\">"
      "<mrk mtype=\"seg\" mid=\"1\">SA.</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">Sb.</mrk></target></trans-unit>\n" TAIL;
  struct engine e = {FAIL_TWO, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  expect_run(f, in, XMT_ERR_PARTIAL, out);
  CU_ASSERT_STRING_EQUAL(fl.text, "2@3:engine refused;3#2@4:engine refused;");
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->failed_segments, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->message, "2 segments"));
  /* A window a unit: one is placed and written while the next is
   * translated. The same bytes, the failures told in order, the counts
   * of both stages summed. */
  fl.text[0] = '\0';
  xmt_filter_set_window(f, 1);
  expect_run(f, in, XMT_ERR_PARTIAL, out);
  CU_ASSERT_STRING_EQUAL(fl.text, "2@3:engine refused;3#2@4:engine refused;");
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->failed_segments, 2);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->translated_units, 2);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->skipped_units, 1);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->units, 3);
  xmt_filter_free(f);
}

/* The placing stage fails to write while the next window is being
 * translated: the run fails with the output's error, nothing kept. */
static void test_write_failure_while_translating(void) {
  if (access("/dev/full", W_OK) != 0)
    return;
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  xmt_filter_set_window(f, 1);
  /* Four units of 100 KB: more than the writer holds before it writes. */
  static const char head[] = HEAD, tail[] = TAIL;
  size_t cap = sizeof head + sizeof tail + 4 * (100000 + 200), at = 0;
  char *doc = malloc(cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
  at += (size_t)snprintf(doc + at, cap - at, "%s", head);
  for (int u = 0; u < 4; u++) {
    at += (size_t)snprintf(doc + at, cap - at, "<trans-unit id=\"%d\"><source>",
                           u + 1);
    for (int k = 0; k < 20000; k++)
      at += (size_t)snprintf(doc + at, cap - at, "word ");
    at += (size_t)snprintf(doc + at, cap - at, "</source>" UNTOUCHED);
  }
  snprintf(doc + at, cap - at, "%s", tail);
  write_file(xmt_test_tmp_path("in.xlf"), doc);
  free(doc);
  xmt_status st =
      xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"), "/dev/full");
  CU_ASSERT_EQUAL(st, XMT_ERR_WRITE);
  const struct xmt_error *err = xmt_filter_error(f);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err->message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err->file);
  CU_ASSERT_STRING_EQUAL(err->file, "/dev/full");
  CU_ASSERT_PTR_NOT_NULL(strstr(err->message, "No space left on device"));
  unlink(xmt_test_tmp_path("in.xlf"));
  xmt_filter_free(f);
}

/* The lines extract wrote after its header, which opens with opening;
 * *len their length. */
static const char *after_header(const char *out, size_t *len,
                                const char *opening) {
  CU_ASSERT_EQUAL(strncmp(out, opening, strlen(opening)), 0);
  const char *nl = memchr(out, '\n', *len);
  CU_ASSERT_PTR_NOT_NULL(nl);
  if (nl == NULL)
    return out;
  *len -= (size_t)(nl + 1 - out);
  return nl + 1;
}

static void test_extract_merge(void) {
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  const char *doc = HEAD UNIT("1", " a <g id=\"1\">b</g>")
      UNTOUCHED UNIT("2", "a\tb") UNTOUCHED UNIT("3", "42") UNTOUCHED TAIL;
  write_file(xmt_test_tmp_path("in.xlf"), doc);
  CU_ASSERT_EQUAL(xmt_filter_extract_segments_file(
                      f, xmt_test_tmp_path("in.xlf"),
                      xmt_test_tmp_path("seg.tsv"), XMT_SEGMENTS_TSV),
                  XMT_OK);
  size_t len;
  char *out = xmt_test_read_file(xmt_test_tmp_path("seg.tsv"), &len);
  static const char tsv[] = "1\ta b\n2\ta\\tb\n";
  const char *lines = after_header(out, &len, "#xliffmt-segments document=");
  XMT_ASSERT_BYTES_EQUAL(lines, len, tsv, sizeof tsv - 1);
  free(out);
  CU_ASSERT_EQUAL(xmt_filter_extract_segments_file(
                      f, xmt_test_tmp_path("in.xlf"),
                      xmt_test_tmp_path("seg.jsonl"), XMT_SEGMENTS_JSONL),
                  XMT_OK);
  out = xmt_test_read_file(xmt_test_tmp_path("seg.jsonl"), &len);
  static const char jsonl[] = "{\"id\":\"1\",\"text\":\"a b\"}\n"
                              "{\"id\":\"2\",\"text\":\"a\\u0009b\"}\n";
  lines = after_header(out, &len, "{\"xliffmt\":\"segments\",");
  XMT_ASSERT_BYTES_EQUAL(lines, len, jsonl, sizeof jsonl - 1);
  free(out);
  /* Translations with an alignment for the first; the second missing. */
  write_file(xmt_test_tmp_path("tr.jsonl"),
             "{\"id\":\"1\",\"translation\":\"B A\",\"alignment\":\"0-1 "
             "1-0\"}\n");
  CU_ASSERT_EQUAL(xmt_filter_merge_segments_file(f, xmt_test_tmp_path("in.xlf"),
                                                 xmt_test_tmp_path("tr.jsonl"),
                                                 NULL, NULL, NULL,
                                                 xmt_test_tmp_path("out.xlf")),
                  XMT_ERR_PARTIAL);
  out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  const char *merged =
      HEAD UNIT("1", " a <g id=\"1\">b</g>") DONE(" <g id=\"1\">B</g> A")
          UNIT("2", "a\tb") UNTOUCHED UNIT("3", "42") DONE("42") TAIL;
  XMT_ASSERT_BYTES_EQUAL(out, len, merged, strlen(merged));
  free(out);
  CU_ASSERT_STRING_EQUAL(fl.text, "2@3:no translation in the file;");
  /* A bad translations file names its line. */
  write_file(xmt_test_tmp_path("tr.tsv"), "1\tfine\n2 no tab\n");
  CU_ASSERT_EQUAL(xmt_filter_merge_segments_file(f, xmt_test_tmp_path("in.xlf"),
                                                 xmt_test_tmp_path("tr.tsv"),
                                                 NULL, NULL, NULL,
                                                 xmt_test_tmp_path("out2.xlf")),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_filter_error(f)->line, 2);
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("out2.xlf"), F_OK), -1);
  unlink(xmt_test_tmp_path("in.xlf"));
  unlink(xmt_test_tmp_path("out.xlf"));
  unlink(xmt_test_tmp_path("seg.tsv"));
  unlink(xmt_test_tmp_path("seg.jsonl"));
  unlink(xmt_test_tmp_path("tr.jsonl"));
  unlink(xmt_test_tmp_path("tr.tsv"));
  xmt_filter_free(f);
}

/* The names of xliffmt 0.1 still work, deprecated, and do the same. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static void test_extract_merge_old_names(void) {
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  const char *doc = HEAD UNIT("1", "a <g id=\"1\">b</g>") UNTOUCHED TAIL;
  write_file(xmt_test_tmp_path("in.xlf"), doc);
  CU_ASSERT_EQUAL(xmt_filter_extract_file(f, xmt_test_tmp_path("in.xlf"),
                                          xmt_test_tmp_path("seg.tsv"),
                                          XMT_SEGMENTS_TSV),
                  XMT_OK);
  size_t len;
  char *out = xmt_test_read_file(xmt_test_tmp_path("seg.tsv"), &len);
  static const char tsv[] = "1\ta b\n";
  const char *lines = after_header(out, &len, "#xliffmt-segments ");
  XMT_ASSERT_BYTES_EQUAL(lines, len, tsv, sizeof tsv - 1);
  free(out);
  write_file(xmt_test_tmp_path("tr.tsv"), "1\tB A\n");
  CU_ASSERT_EQUAL(xmt_filter_merge_file(f, xmt_test_tmp_path("in.xlf"),
                                        xmt_test_tmp_path("tr.tsv"), NULL, NULL,
                                        NULL, xmt_test_tmp_path("old.xlf")),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_merge_segments_file(f, xmt_test_tmp_path("in.xlf"),
                                                 xmt_test_tmp_path("tr.tsv"),
                                                 NULL, NULL, NULL,
                                                 xmt_test_tmp_path("new.xlf")),
                  XMT_OK);
  size_t old_len;
  char *old = xmt_test_read_file(xmt_test_tmp_path("old.xlf"), &old_len);
  out = xmt_test_read_file(xmt_test_tmp_path("new.xlf"), &len);
  CU_ASSERT_PTR_NOT_NULL(old);
  CU_ASSERT_PTR_NOT_NULL(out);
  if (old != NULL && out != NULL)
    XMT_ASSERT_BYTES_EQUAL(old, old_len, out, len);
  free(old);
  free(out);
  CU_ASSERT_STRING_EQUAL(fl.text, "");
  unlink(xmt_test_tmp_path("in.xlf"));
  unlink(xmt_test_tmp_path("seg.tsv"));
  unlink(xmt_test_tmp_path("tr.tsv"));
  unlink(xmt_test_tmp_path("old.xlf"));
  unlink(xmt_test_tmp_path("new.xlf"));
  xmt_filter_free(f);
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* Answers without a word leave the self-trained aligner nothing to
 * train on: the tags go to proportional positions and the run goes on.
 * An empty answer is no translation: the segment fails, reported, and
 * gets no target. */
static void test_answers_without_words(void) {
  struct engine e = {NO_WORDS, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  CU_ASSERT_EQUAL(xmt_filter_set_aligner(f, XMT_ALIGNER_SELF, NULL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_add_dictionary(f, "none"), XMT_OK);
  expect_run(f, HEAD UNIT("1", "a <g id=\"1\">b</g> c") UNTOUCHED TAIL, XMT_OK,
             HEAD UNIT("1", "a <g id=\"1\">b</g> c") DONE(".<g id=\"1\">.</g>.")
                 TAIL);
  CU_ASSERT_STRING_EQUAL(fl.text, "");
  e.script = EMPTY;
  expect_run(f, HEAD UNIT("1", "a <g id=\"1\">b</g> c") UNTOUCHED TAIL,
             XMT_ERR_PARTIAL,
             HEAD UNIT("1", "a <g id=\"1\">b</g> c") UNTOUCHED TAIL);
  CU_ASSERT_STRING_EQUAL(fl.text, "1@2:the answer is empty;");
  xmt_filter_free(f);
}

/* A backend that counts its states opened and closed. */
struct counted {
  int opens, closes;
};

static int counted_open(void *user, const struct xmt_backend_config *config,
                        void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  struct counted *c = user;
  c->opens++;
  *state = c;
  return 0;
}

static int counted_translate(void *state, const struct xmt_mt_request *req,
                             xmt_mt_response *const *resp, size_t n) {
  (void)state;
  for (size_t i = 0; i < n; i++)
    xmt_mt_response_set_text(resp[i], req[i].text, req[i].len);
  return 0;
}

static void counted_close(void *state) { ((struct counted *)state)->closes++; }

static const struct xmt_backend counted_backend = {
    XMT_BACKEND_ABI_VERSION, "counted",     counted_open,
    counted_translate,       counted_close, NULL};

/* With XMT_FILTER_KEEP_ENGINES the engine opened by one run serves the
 * next; a change of languages, a failed run and the filter's end close
 * it. Without the flag each run opens and closes its own. */
static void test_engines_kept_between_runs(void) {
  const char *doc = HEAD UNIT("1", "a b") UNTOUCHED TAIL;
  const char *done = HEAD UNIT("1", "a b") DONE("a b") TAIL;
  struct counted c = {0, 0};
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &counted_backend, &c, NULL),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_target_state(f, "translated", NULL), XMT_OK);
  expect_run(f, doc, XMT_OK, done);
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(c.opens, 2);
  CU_ASSERT_EQUAL(c.closes, 2);

  xmt_filter_set_flags(f, XMT_FILTER_KEEP_ENGINES);
  expect_run(f, doc, XMT_OK, done);
  expect_run(f, doc, XMT_OK, done);
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(c.opens, 3);
  CU_ASSERT_EQUAL(c.closes, 2);
  CU_ASSERT_EQUAL(xmt_filter_set_languages(f, "en", "de"), XMT_OK);
  CU_ASSERT_EQUAL(c.closes, 3);
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(c.opens, 4);
  expect_run(f, HEAD UNIT("1", "a <g id=\"1\">b") UNTOUCHED TAIL, XMT_ERR_XML,
             NULL);
  CU_ASSERT_EQUAL(c.opens, 4);
  CU_ASSERT_EQUAL(c.closes, 4);
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(c.opens, 5);
  xmt_filter_close_engines(f);
  CU_ASSERT_EQUAL(c.closes, 5);
  expect_run(f, doc, XMT_OK, done);
  xmt_filter_free(f);
  CU_ASSERT_EQUAL(c.opens, 6);
  CU_ASSERT_EQUAL(c.closes, 6);
}

/* The cache's connection serves the filter's runs one after the other:
 * a cache file removed after the first run is still read by the second
 * (the connection holds it); setting the cache again opens it anew. */
static void test_cache_kept_between_runs(void) {
  struct engine e = {UPPER, 0, 0, ""};
  struct failures fl = {""};
  xmt_filter *f = new_filter(&e, XMT_TAGS_PROJECT, &fl);
  char uri[600];
  snprintf(uri, sizeof uri, "sqlite:%s", xmt_test_tmp_path("tm.db"));
  CU_ASSERT_EQUAL(xmt_filter_set_cache(f, uri, 0), XMT_OK);
  const char *doc =
      HEAD UNIT("1", "one") UNTOUCHED UNIT("2", "two") UNTOUCHED TAIL;
  const char *done =
      HEAD UNIT("1", "one") DONE("ONE") UNIT("2", "two") DONE("TWO") TAIL;
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(e.segments, 2);
  CU_ASSERT_EQUAL(unlink(xmt_test_tmp_path("tm.db")), 0);
  unlink(xmt_test_tmp_path("tm.db-wal"));
  unlink(xmt_test_tmp_path("tm.db-shm"));
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(e.segments, 2);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->cache_hits, 2);
  CU_ASSERT_EQUAL(xmt_filter_set_cache(f, uri, 0), XMT_OK);
  expect_run(f, doc, XMT_OK, done);
  CU_ASSERT_EQUAL(e.segments, 4);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->cache_hits, 0);
  xmt_filter_free(f);
  CU_ASSERT_STRING_EQUAL(fl.text, "");
  unlink(xmt_test_tmp_path("tm.db"));
  unlink(xmt_test_tmp_path("tm.db-wal"));
  unlink(xmt_test_tmp_path("tm.db-shm"));
}

CU_TestInfo pipeline_tests[] = {
    {"whitespace out of MT, nothing to translate copied",
     test_whitespace_and_copies},
    {"identical segments translated once", test_identical_segments_once},
    {"tags projected over alignments", test_projection},
    {"codes between words are word breaks", test_word_breaks},
    {"mask mode repairs lost, repeated and moved codes", test_mask_mode},
    {"raw mode parses or projects", test_raw_mode},
    {"failed segments: partial output, reported", test_partial_failure},
    {"a write failing while the next window is translated",
     test_write_failure_while_translating},
    {"offline extract and merge", test_extract_merge},
    {"offline extract and merge, old names", test_extract_merge_old_names},
    {"answers without words: no alignment, no failed run",
     test_answers_without_words},
    {"engines kept from one run to the next", test_engines_kept_between_runs},
    {"the cache's connection kept from one run to the next",
     test_cache_kept_between_runs},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"filter pipeline", suite_init, suite_clean, NULL, NULL, pipeline_tests},
    CU_SUITE_INFO_NULL};
