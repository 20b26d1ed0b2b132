/* test_xliff_writer.c -- the writer driven by the real reader: exact output
 * bytes for target placement, attributes, alt-trans, escaping, encodings
 * and untouched input. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "xliff_private.h"

#define STR_LEN(s) (s), (sizeof(s) - 1)

/* --- The pipeline under test ---------------------------------------------- */

enum mode {
  COPY_SOURCE, /* each segment's target is a copy of its source */
  REPLACE,     /* each segment's target is the replacement text */
  NO_TARGET    /* no target is set: every unit is written unchanged */
};

struct job {
  const struct xmt_xliff_target_options *options;
  enum mode mode;
  const char *replacement; /* UTF-8 plain text, for REPLACE */
};

struct run {
  const struct job *job;
  xmt_xliff_reader *reader;
  xmt_xliff_writer *writer;
  struct xmt_buf out;
  int encoding_set;
  xmt_status writer_status; /* first failure of a writer call */
};

static void set_encoding(struct run *run) {
  if (run->encoding_set)
    return;
  xmt_xliff_writer_set_encoding(run->writer,
                                xmt_xliff_reader_encoding(run->reader));
  run->encoding_set = 1;
}

static int failed(struct run *run, xmt_status st) {
  if (st != XMT_OK && run->writer_status == XMT_OK)
    run->writer_status = st;
  return st != XMT_OK;
}

static int sink(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  return xmt_buf_append(&run->out, bytes, len) != XMT_OK;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  set_encoding(run);
  return failed(run, xmt_xliff_writer_skeleton(run->writer, bytes, len));
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct run *run = user;
  (void)info;
  set_encoding(run);
  return failed(run,
                xmt_xliff_writer_file_tag(run->writer, tag, len,
                                          run->job->options->target_language));
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  set_encoding(run);
  xmt_status st = XMT_OK;
  xmt_segment *target = xmt_segment_new();
  if (target == NULL)
    st = XMT_ERR_NOMEM;
  for (size_t i = 0; st == XMT_OK && run->job->mode != NO_TARGET &&
                     i < xmt_xliff_unit_segment_count(unit);
       i++) {
    if (run->job->mode == COPY_SOURCE) {
      st = xmt_segment_copy(target, xmt_xliff_unit_source(unit, i));
    } else {
      xmt_segment_clear(target);
      st = xmt_segment_append_text(target, run->job->replacement,
                                   strlen(run->job->replacement));
    }
    if (st == XMT_OK)
      st = xmt_xliff_unit_set_target(unit, i, target);
  }
  xmt_segment_free(target);
  if (st == XMT_OK)
    st = xmt_xliff_writer_unit(run->writer, unit, run->job->options);
  xmt_xliff_unit_free(unit);
  return failed(run, st);
}

static const struct xmt_xliff_reader_callbacks callbacks = {on_skeleton,
                                                            on_file, on_unit};

/* A reader with cb's handlers and a writer into run->out, for job. */
static void run_open(struct run *run, const struct job *job,
                     const struct xmt_xliff_reader_callbacks *cb) {
  memset(run, 0, sizeof *run);
  run->job = job;
  run->reader = xmt_xliff_reader_new(cb, run);
  run->writer = xmt_xliff_writer_new(sink, run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run->reader);
  CU_ASSERT_PTR_NOT_NULL_FATAL(run->writer);
}

static void run_close(struct run *run) {
  xmt_xliff_reader_free(run->reader);
  xmt_xliff_writer_free(run->writer);
  xmt_buf_free(&run->out);
}

/* Reads in, in chunks of `chunk` bytes (0: all at once), writing the
 * result to *out (to free by the caller). */
static xmt_status run_job(const char *in, size_t len, size_t chunk,
                          const struct job *job, struct xmt_buf *out) {
  struct run run;
  run_open(&run, job, &callbacks);
  xmt_status st = XMT_OK;
  if (chunk == 0) {
    st = xmt_xliff_reader_parse(run.reader, in, len, 1);
  } else {
    for (size_t at = 0; st == XMT_OK && at < len; at += chunk) {
      size_t n = len - at < chunk ? len - at : chunk;
      st = xmt_xliff_reader_parse(run.reader, in + at, n, 0);
    }
    if (st == XMT_OK)
      st = xmt_xliff_reader_parse(run.reader, NULL, 0, 1);
  }
  if (st == XMT_ERR_ABORTED && run.writer_status != XMT_OK)
    st = run.writer_status;
  if (st == XMT_OK)
    st = xmt_xliff_writer_flush(run.writer);
  if (st != XMT_OK) {
    const struct xmt_error *err = xmt_xliff_reader_error(run.reader);
    fprintf(stderr, "\nstatus %d (writer %d) at %lu:%lu: %s\n", (int)st,
            (int)run.writer_status, err->line, err->column,
            err->message != NULL ? err->message : "");
  }
  xmt_xliff_reader_free(run.reader);
  xmt_xliff_writer_free(run.writer);
  *out = run.out;
  return st;
}

/* Asserts that the job turns in into expected, whatever the chunk sizes. */
static void assert_job(const char *in, size_t len, const struct job *job,
                       const char *expected, size_t expected_len) {
  static const size_t chunks[] = {0, 1, 2, 3, 5, 64};
  for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
    struct xmt_buf out = {0};
    CU_ASSERT_EQUAL(run_job(in, len, chunks[i], job, &out), XMT_OK);
    if (!xmt_test_bytes_equal(out.data != NULL ? out.data : "", out.len,
                              expected, expected_len, __FILE__, __LINE__)) {
      fprintf(stderr, "  (in chunks of %zu bytes)\n", chunks[i]);
      CU_FAIL("output differs");
      xmt_buf_free(&out);
      return; /* one report per input is enough */
    }
    xmt_buf_free(&out);
  }
}

static void assert_copy(const char *in,
                        const struct xmt_xliff_target_options *o,
                        const char *expected) {
  struct job job = {o, COPY_SOURCE, NULL};
  assert_job(in, strlen(in), &job, expected, strlen(expected));
}

static void assert_replace(const char *in,
                           const struct xmt_xliff_target_options *o,
                           const char *replacement, const char *expected) {
  struct job job = {o, REPLACE, replacement};
  assert_job(in, strlen(in), &job, expected, strlen(expected));
}

/* --- Documents ------------------------------------------------------------ */

#define DECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define XLIFF                                                                  \
  "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
#define FILE_ES                                                                \
  "<file original=\"a.txt\" source-language=\"en\" target-language=\"es\" "    \
  "datatype=\"plaintext\">\n<body>\n"
#define TAIL "</body>\n</file>\n</xliff>\n"
#define HEAD DECL XLIFF FILE_ES

#define TARGET_OPEN                                                            \
  "<target xml:lang=\"es\" state=\"needs-review-translation\" "                \
  "state-qualifier=\"leveraged-mt\">"

static const struct xmt_xliff_target_options opts = {
    "es", "needs-review-translation", "leveraged-mt", 0, 0, 0, 0};
static const struct xmt_xliff_target_options opts_overwrite = {
    "es", "needs-review-translation", "leveraged-mt", 1, 0, 0, 0};
static const struct xmt_xliff_target_options opts_plain = {"es", NULL, NULL, 0,
                                                           0,    0,    0};
static const struct xmt_xliff_target_options opts_state = {
    "es", "translated", NULL, 0, 0, 0, 0};
static const struct xmt_xliff_target_options opts_alt = {
    "es", "needs-review-translation", "leveraged-mt", 0, 1, 0, 0};

/* --- Target placement ----------------------------------------------------- */

static void test_unsegmented(void) {
  assert_copy(HEAD "<trans-unit id=\"1\">\n"
                   "  <source>Hello <g id=\"1\">world</g>!</source>\n"
                   "</trans-unit>\n" TAIL,
              &opts,
              HEAD "<trans-unit id=\"1\">\n"
                   "  <source>Hello <g id=\"1\">world</g>!</source>\n"
                   "  " TARGET_OPEN "Hello <g id=\"1\">world</g>!</target>\n"
                   "</trans-unit>\n" TAIL);
  /* The target goes right after the source, before notes and the rest;
   * tabs and no indentation are copied as they are. */
  assert_copy(HEAD "<trans-unit id=\"2\" resname=\"k\">\n\t\t<source "
                   "xml:lang=\"en\">A <x id=\"1\"/>B</source><note>n</note>\n"
                   "</trans-unit><trans-unit id=\"3\"><source>C</source>"
                   "</trans-unit>\n" TAIL,
              &opts,
              HEAD
              "<trans-unit id=\"2\" resname=\"k\">\n\t\t<source "
              "xml:lang=\"en\">A <x id=\"1\"/>B</source>\n"
              "\t\t" TARGET_OPEN "A <x id=\"1\"/>B</target><note>n</note>\n"
              "</trans-unit><trans-unit id=\"3\"><source>C</source>" TARGET_OPEN
              "C</target></trans-unit>\n" TAIL);
  /* CRLF line ends stay CRLF. */
  assert_copy(DECL XLIFF FILE_ES "<trans-unit id=\"4\">\r\n  <source>D</source>"
                                 "\r\n</trans-unit>\r\n" TAIL,
              &opts_plain,
              DECL XLIFF FILE_ES "<trans-unit id=\"4\">\r\n  <source>D</source>"
                                 "\r\n  <target xml:lang=\"es\">D</target>\r\n"
                                 "</trans-unit>\r\n" TAIL);
}

static void test_segmented(void) {
  static const char in[] =
      HEAD "<trans-unit id=\"1\">\n"
           "  <source>Hello. <g id=\"1\">Bye.</g></source>\n"
           "  <seg-source><mrk mtype=\"seg\" mid=\"1\">Hello.</mrk> <g "
           "id=\"1\"><mrk mtype=\"seg\" mid=\"2\">Bye.</mrk></g></seg-source>\n"
           "</trans-unit>\n" TAIL;
  assert_copy(in, &opts,
              HEAD "<trans-unit id=\"1\">\n"
                   "  <source>Hello. <g id=\"1\">Bye.</g></source>\n"
                   "  <seg-source><mrk mtype=\"seg\" mid=\"1\">Hello.</mrk> <g "
                   "id=\"1\"><mrk mtype=\"seg\" mid=\"2\">Bye.</mrk></g>"
                   "</seg-source>\n"
                   "  " TARGET_OPEN "<mrk mtype=\"seg\" mid=\"1\">Hello.</mrk> "
                   "<g id=\"1\"><mrk mtype=\"seg\" mid=\"2\">Bye.</mrk></g>"
                   "</target>\n"
                   "</trans-unit>\n" TAIL);
  assert_replace(in, &opts_plain, "X",
                 HEAD "<trans-unit id=\"1\">\n"
                      "  <source>Hello. <g id=\"1\">Bye.</g></source>\n"
                      "  <seg-source><mrk mtype=\"seg\" mid=\"1\">Hello.</mrk> "
                      "<g id=\"1\"><mrk mtype=\"seg\" mid=\"2\">Bye.</mrk></g>"
                      "</seg-source>\n"
                      "  <target xml:lang=\"es\"><mrk mtype=\"seg\" "
                      "mid=\"1\">X</mrk> <g id=\"1\"><mrk mtype=\"seg\" "
                      "mid=\"2\">X</mrk></g></target>\n"
                      "</trans-unit>\n" TAIL);
  /* Newlines between segments (as Okapi writes them) are kept too. */
  assert_replace(HEAD "<trans-unit id=\"2\"><source>A. B.</source><seg-source>"
                      "<mrk mtype=\"seg\" mid=\"0\">A.</mrk>\n<mrk "
                      "mtype=\"seg\" mid=\"1\">B.</mrk></seg-source>"
                      "</trans-unit>\n" TAIL,
                 &opts_plain, "Y",
                 HEAD "<trans-unit id=\"2\"><source>A. B.</source><seg-source>"
                      "<mrk mtype=\"seg\" mid=\"0\">A.</mrk>\n<mrk "
                      "mtype=\"seg\" mid=\"1\">B.</mrk></seg-source><target "
                      "xml:lang=\"es\"><mrk mtype=\"seg\" mid=\"0\">Y</mrk>\n"
                      "<mrk mtype=\"seg\" mid=\"1\">Y</mrk></target>"
                      "</trans-unit>\n" TAIL);
}

static void test_empty_target_replaced(void) {
  assert_copy(HEAD "<trans-unit id=\"1\">\n  <source>One</source>\n"
                   "  <target/>\n  <note>x</note>\n</trans-unit>\n"
                   "<trans-unit id=\"2\">\n  <source>Two</source>\n"
                   "  <target xml:lang=\"es\" state=\"new\"></target>\n"
                   "</trans-unit>\n"
                   "<trans-unit id=\"3\">\n  <source>Three</source>\n"
                   "  <target> \n </target>\n</trans-unit>\n" TAIL,
              &opts,
              HEAD "<trans-unit id=\"1\">\n  <source>One</source>\n"
                   "  " TARGET_OPEN "One</target>\n  <note>x</note>\n"
                   "</trans-unit>\n"
                   "<trans-unit id=\"2\">\n  <source>Two</source>\n"
                   "  " TARGET_OPEN "Two</target>\n"
                   "</trans-unit>\n"
                   "<trans-unit id=\"3\">\n  <source>Three</source>\n"
                   "  " TARGET_OPEN "Three</target>\n</trans-unit>\n" TAIL);
  /* A segmented unit's empty target becomes the mirrored seg-source. */
  assert_replace(HEAD "<trans-unit id=\"4\"><source>A</source><seg-source><mrk "
                      "mtype=\"seg\" mid=\"1\">A</mrk></seg-source><target/>"
                      "</trans-unit>\n" TAIL,
                 &opts_plain, "Z",
                 HEAD "<trans-unit id=\"4\"><source>A</source><seg-source><mrk "
                      "mtype=\"seg\" mid=\"1\">A</mrk></seg-source><target "
                      "xml:lang=\"es\"><mrk mtype=\"seg\" mid=\"1\">Z</mrk>"
                      "</target></trans-unit>\n" TAIL);
}

static void test_existing_target(void) {
  static const char in[] =
      HEAD "<trans-unit id=\"1\">\n  <source>Two</source>\n"
           "  <target state=\"translated\">Dos</target>\n</trans-unit>\n"
           "<trans-unit id=\"2\">\n  <source>a<x id=\"1\"/></source>\n"
           "  <target><x id=\"1\"/></target>\n</trans-unit>\n" TAIL;
  /* Kept... */
  assert_copy(in, &opts, in);
  /* ...unless overwriting. */
  assert_copy(in, &opts_overwrite,
              HEAD "<trans-unit id=\"1\">\n  <source>Two</source>\n"
                   "  " TARGET_OPEN "Two</target>\n</trans-unit>\n"
                   "<trans-unit id=\"2\">\n  <source>a<x id=\"1\"/></source>\n"
                   "  " TARGET_OPEN "a<x id=\"1\"/></target>\n"
                   "</trans-unit>\n" TAIL);
}

static void test_not_translatable(void) {
  static const char in[] =
      HEAD "<trans-unit id=\"1\" translate=\"no\">\n  <source>Keep</source>\n"
           "</trans-unit>\n"
           "<group id=\"g\" translate=\"no\">\n"
           "<trans-unit id=\"2\">\n  <source>Keep too</source>\n"
           "</trans-unit>\n"
           "<group id=\"h\"><trans-unit id=\"3\"><source>Inherited</source>"
           "</trans-unit></group>\n"
           "<group id=\"i\" translate=\"yes\"><trans-unit id=\"4\"><source>Go"
           "</source></trans-unit></group>\n"
           "</group>\n"
           "<trans-unit id=\"5\"><source>Go too</source></trans-unit>\n" TAIL;
  assert_copy(in, &opts_plain,
              HEAD "<trans-unit id=\"1\" translate=\"no\">\n  "
                   "<source>Keep</source>\n"
                   "</trans-unit>\n"
                   "<group id=\"g\" translate=\"no\">\n"
                   "<trans-unit id=\"2\">\n  <source>Keep too</source>\n"
                   "</trans-unit>\n"
                   "<group id=\"h\"><trans-unit id=\"3\"><source>Inherited"
                   "</source></trans-unit></group>\n"
                   "<group id=\"i\" translate=\"yes\"><trans-unit "
                   "id=\"4\"><source>Go</source><target "
                   "xml:lang=\"es\">Go</target></trans-unit></group>\n"
                   "</group>\n"
                   "<trans-unit id=\"5\"><source>Go too</source><target "
                   "xml:lang=\"es\">Go too</target></trans-unit>\n" TAIL);
}

static void test_file_target_language(void) {
  static const char in[] = DECL XLIFF
      "<file original=\"a.txt\" source-language=\"en\" datatype=\"plaintext\">"
      "\n<body>\n<trans-unit id=\"1\"><source>A</source></trans-unit>\n"
      "</body>\n</file>\n"
      "<file original=\"b.txt\"\n      source-language=\"en\"\n"
      "      target-language=\"fr\" datatype=\"plaintext\">\n<body>\n"
      "</body>\n</file>\n"
      "<file original=\"c.txt\" source-language=\"en\" "
      "datatype=\"plaintext\"/>\n"
      "</xliff>\n";
  assert_copy(in, &opts_plain,
              DECL XLIFF
              "<file original=\"a.txt\" source-language=\"en\" "
              "datatype=\"plaintext\" target-language=\"es\">"
              "\n<body>\n<trans-unit id=\"1\"><source>A</source><target "
              "xml:lang=\"es\">A</target></trans-unit>\n"
              "</body>\n</file>\n"
              "<file original=\"b.txt\"\n      source-language=\"en\"\n"
              "      target-language=\"fr\" datatype=\"plaintext\">\n<body>\n"
              "</body>\n</file>\n"
              "<file original=\"c.txt\" source-language=\"en\" "
              "datatype=\"plaintext\" target-language=\"es\"/>\n"
              "</xliff>\n");
}

/* An attribute value that reads like target-language="..." is no such
 * attribute: the file still needs one. */
static void test_file_target_language_in_value(void) {
  assert_copy(DECL XLIFF "<file original=\"a target-language=b.txt\" "
                         "source-language=\"en\" datatype=\"plaintext\">"
                         "\n<body>\n</body>\n</file>\n</xliff>\n",
              &opts_plain,
              DECL XLIFF "<file original=\"a target-language=b.txt\" "
                         "source-language=\"en\" datatype=\"plaintext\" "
                         "target-language=\"es\">"
                         "\n<body>\n</body>\n</file>\n</xliff>\n");
}

static void test_state_attributes(void) {
  static const char in[] =
      HEAD "<trans-unit id=\"1\"><source>A</source></trans-unit>\n" TAIL;
  assert_copy(in, &opts_plain,
              HEAD "<trans-unit id=\"1\"><source>A</source><target "
                   "xml:lang=\"es\">A</target></trans-unit>\n" TAIL);
  assert_copy(in, &opts_state,
              HEAD "<trans-unit id=\"1\"><source>A</source><target "
                   "xml:lang=\"es\" state=\"translated\">A</target>"
                   "</trans-unit>\n" TAIL);
  static const struct xmt_xliff_target_options quoted = {
      "x-a&b", "x-\"q\"<", NULL, 0, 0, 0, 0};
  assert_copy(in, &quoted,
              HEAD "<trans-unit id=\"1\"><source>A</source><target "
                   "xml:lang=\"x-a&amp;b\" state=\"x-&quot;q&quot;&lt;\">A"
                   "</target></trans-unit>\n" TAIL);
}

static void test_alt_trans(void) {
  /* After the source when there is no target. */
  assert_copy(HEAD "<trans-unit id=\"1\">\n  <source>Hello</source>\n"
                   "</trans-unit>\n" TAIL,
              &opts_alt,
              HEAD "<trans-unit id=\"1\">\n  <source>Hello</source>\n"
                   "  <alt-trans origin=\"xliffmt\"><target "
                   "xml:lang=\"es\">Hello</target></alt-trans>\n"
                   "</trans-unit>\n" TAIL);
  /* After an (empty) target, which stays. */
  assert_copy(HEAD "<trans-unit id=\"2\">\n  <source>A</source>\n"
                   "  <target/>\n</trans-unit>\n" TAIL,
              &opts_alt,
              HEAD "<trans-unit id=\"2\">\n  <source>A</source>\n"
                   "  <target/>\n  <alt-trans origin=\"xliffmt\"><target "
                   "xml:lang=\"es\">A</target></alt-trans>\n"
                   "</trans-unit>\n" TAIL);
  /* One per segment, with its mid, after the seg-source. */
  assert_copy(HEAD "<trans-unit id=\"3\">\n  <source>A. B.</source>\n"
                   "  <seg-source><mrk mtype=\"seg\" mid=\"1\">A.</mrk> <mrk "
                   "mtype=\"seg\" mid=\"2\">B.</mrk></seg-source>\n"
                   "</trans-unit>\n" TAIL,
              &opts_alt,
              HEAD "<trans-unit id=\"3\">\n  <source>A. B.</source>\n"
                   "  <seg-source><mrk mtype=\"seg\" mid=\"1\">A.</mrk> <mrk "
                   "mtype=\"seg\" mid=\"2\">B.</mrk></seg-source>\n"
                   "  <alt-trans origin=\"xliffmt\" mid=\"1\"><target "
                   "xml:lang=\"es\">A.</target></alt-trans>\n"
                   "  <alt-trans origin=\"xliffmt\" mid=\"2\"><target "
                   "xml:lang=\"es\">B.</target></alt-trans>\n"
                   "</trans-unit>\n" TAIL);
}

static void test_escaping(void) {
  assert_replace(HEAD "<trans-unit id=\"1\"><source>x</source></trans-unit>\n"
                      "<trans-unit id=\"2\"><source>y</source><seg-source><mrk "
                      "mtype=\"seg\" mid=\"1\">y</mrk></seg-source>"
                      "</trans-unit>\n" TAIL,
                 &opts_plain, "a & b < c > d ]]> e \"f\" 'g'\r",
                 HEAD "<trans-unit id=\"1\"><source>x</source><target "
                      "xml:lang=\"es\">a &amp; b &lt; c > d ]]&gt; e \"f\" "
                      "'g'&#13;</target></trans-unit>\n"
                      "<trans-unit id=\"2\"><source>y</source><seg-source><mrk "
                      "mtype=\"seg\" mid=\"1\">y</mrk></seg-source><target "
                      "xml:lang=\"es\"><mrk mtype=\"seg\" mid=\"1\">a &amp; b "
                      "&lt; c > d ]]&gt; e \"f\" 'g'&#13;</mrk></target>"
                      "</trans-unit>\n" TAIL);
  /* Source text copied through a segment comes back escaped alike. */
  assert_copy(HEAD "<trans-unit id=\"3\"><source>&lt;b&gt; &amp; "
                   "<![CDATA[x<y]]> &#x41;</source></trans-unit>\n" TAIL,
              &opts_plain,
              HEAD "<trans-unit id=\"3\"><source>&lt;b&gt; &amp; "
                   "<![CDATA[x<y]]> &#x41;</source><target xml:lang=\"es\">"
                   "&lt;b> &amp; x&lt;y A</target></trans-unit>\n" TAIL);
}

/* --- Versions, prefixes, approved ----------------------------------------- */

static const struct xmt_xliff_target_options opts_approved = {
    "es", NULL, NULL, 0, 0, 1, 0};

static void test_versions(void) {
  /* XLIFF 1.0 and 1.1 stay what they are; a DOCTYPE stays too. */
  assert_copy("<!DOCTYPE xliff PUBLIC \"-//XLIFF//DTD XLIFF//EN\" "
              "\"xliff.dtd\">\n<xliff version=\"1.0\">\n" FILE_ES
              "<trans-unit id=\"1\"><source>A</source></trans-unit>\n" TAIL,
              &opts_plain,
              "<!DOCTYPE xliff PUBLIC \"-//XLIFF//DTD XLIFF//EN\" "
              "\"xliff.dtd\">\n<xliff version=\"1.0\">\n" FILE_ES
              "<trans-unit id=\"1\"><source>A</source><target "
              "xml:lang=\"es\">A</target></trans-unit>\n" TAIL);
#define XLIFF11                                                                \
  "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.1\" version=\"1.1\">\n"
  /* state-qualifier is XLIFF 1.2's: a 1.1 target gets the state alone. */
  assert_copy(DECL XLIFF11 FILE_ES "<trans-unit id=\"1\"><source>A</source>"
                                   "</trans-unit>\n" TAIL,
              &opts,
              DECL XLIFF11 FILE_ES "<trans-unit id=\"1\"><source>A</source>"
                                   "<target xml:lang=\"es\" "
                                   "state=\"needs-review-translation\">A"
                                   "</target></trans-unit>\n" TAIL);
#undef XLIFF11
}

static void test_prefixed_namespace(void) {
#define XLF_HEAD                                                               \
  DECL "<xlf:xliff version=\"1.2\" "                                           \
       "xmlns:xlf=\"urn:oasis:names:tc:xliff:document:1.2\">\n<xlf:file "      \
       "original=\"a\" source-language=\"en\" target-language=\"es\" "         \
       "datatype=\"plaintext\"><xlf:body>\n"
#define XLF_TAIL "</xlf:body></xlf:file></xlf:xliff>\n"
  static const char in[] =
      XLF_HEAD "<xlf:trans-unit id=\"1\">\n  <xlf:source>A <xlf:g "
               "id=\"1\">b</xlf:g></xlf:source>\n</xlf:trans-unit>\n"
               "<xlf:trans-unit id=\"2\"><xlf:source>C. D.</xlf:source>"
               "<xlf:seg-source><xlf:mrk mtype=\"seg\" mid=\"1\">C."
               "</xlf:mrk> <xlf:mrk mtype=\"seg\" mid=\"2\">D.</xlf:mrk>"
               "</xlf:seg-source></xlf:trans-unit>\n" XLF_TAIL;
  assert_copy(in, &opts_plain,
              XLF_HEAD "<xlf:trans-unit id=\"1\">\n  <xlf:source>A <xlf:g "
                       "id=\"1\">b</xlf:g></xlf:source>\n  <xlf:target "
                       "xml:lang=\"es\">A <xlf:g id=\"1\">b</xlf:g>"
                       "</xlf:target>\n</xlf:trans-unit>\n"
                       "<xlf:trans-unit id=\"2\"><xlf:source>C. D."
                       "</xlf:source><xlf:seg-source><xlf:mrk mtype=\"seg\" "
                       "mid=\"1\">C.</xlf:mrk> <xlf:mrk mtype=\"seg\" "
                       "mid=\"2\">D.</xlf:mrk></xlf:seg-source><xlf:target "
                       "xml:lang=\"es\"><xlf:mrk mtype=\"seg\" mid=\"1\">C."
                       "</xlf:mrk> <xlf:mrk mtype=\"seg\" mid=\"2\">D."
                       "</xlf:mrk></xlf:target></xlf:trans-unit>\n" XLF_TAIL);
  static const struct xmt_xliff_target_options alt = {"es", NULL, NULL, 0,
                                                      1,    0,    0};
  assert_replace(XLF_HEAD "<xlf:trans-unit id=\"3\"><xlf:source>E"
                          "</xlf:source></xlf:trans-unit>\n" XLF_TAIL,
                 &alt, "e",
                 XLF_HEAD "<xlf:trans-unit id=\"3\"><xlf:source>E"
                          "</xlf:source><xlf:alt-trans origin=\"xliffmt\">"
                          "<xlf:target xml:lang=\"es\">e</xlf:target>"
                          "</xlf:alt-trans></xlf:trans-unit>\n" XLF_TAIL);
#undef XLF_HEAD
#undef XLF_TAIL
}

static void test_approved(void) {
  assert_replace(HEAD "<trans-unit id=\"1\"\n  resname=\"r\"><source>A</source>"
                      "</trans-unit>\n"
                      "<trans-unit id=\"2\" approved=\"no\" translate=\"yes\">"
                      "<source>B</source></trans-unit>\n"
                      "<trans-unit id=\"3\"><source>C</source><target>c"
                      "</target></trans-unit>\n" TAIL,
                 &opts_approved, "x",
                 HEAD "<trans-unit id=\"1\"\n  resname=\"r\" approved=\"yes\">"
                      "<source>A</source><target xml:lang=\"es\">x</target>"
                      "</trans-unit>\n"
                      "<trans-unit id=\"2\" approved=\"yes\" translate=\"yes\">"
                      "<source>B</source><target xml:lang=\"es\">x</target>"
                      "</trans-unit>\n"
                      "<trans-unit id=\"3\"><source>C</source><target>c"
                      "</target></trans-unit>\n" TAIL);
}

/* --- Trados SDLXLIFF and memoQ MQXLIFF ------------------------------------ */

#define SDL_HEAD                                                               \
  DECL "<xliff xmlns:sdl=\"http://sdl.com/FileTypes/SdlXliff/1.0\" "           \
       "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\" "      \
       "sdl:version=\"1.0\"><file original=\"a.docx\" "                        \
       "datatype=\"x-sdlfilterframework2\" source-language=\"en-US\" "         \
       "target-language=\"es-ES\"><body><group><sdl:cxts><sdl:cxt id=\"1\"/>"  \
       "</sdl:cxts>"
#define SDL_TAIL "</group></body></file></xliff>"

static void test_sdlxliff(void) {
  /* Empty mrks are filled (as <mrk/> or <mrk></mrk>), translated and
   * locked ones kept, and each filled segment is marked in seg-defs. */
  static const char in[] =
      SDL_HEAD "<trans-unit id=\"u1\"><source>A <g id=\"pt1\">b</g>. C."
               "</source><seg-source><mrk mtype=\"seg\" mid=\"1\">A <g "
               "id=\"pt1\">b</g>.</mrk> <mrk mtype=\"seg\" mid=\"2\">C.</mrk>"
               "</seg-source><target><mrk mtype=\"seg\" mid=\"1\" /> <mrk "
               "mtype=\"seg\" mid=\"2\"></mrk></target><sdl:seg-defs><sdl:seg "
               "id=\"1\"/><sdl:seg id=\"2\" percent=\"0\" />"
               "</sdl:seg-defs></trans-unit><trans-unit id=\"u2\"><source>D. "
               "E. F.</source><seg-source><mrk mtype=\"seg\" mid=\"3\">D."
               "</mrk> <mrk mtype=\"seg\" mid=\"4\">E.</mrk> <mrk "
               "mtype=\"seg\" mid=\"5\">F.</mrk></seg-source><target><mrk "
               "mtype=\"seg\" mid=\"3\">d.</mrk> <mrk mtype=\"seg\" mid=\"4\"/>"
               " <mrk mtype=\"seg\" mid=\"5\"/></target><sdl:seg-defs><sdl:seg "
               "id=\"3\" conf=\"Translated\" origin=\"tm\"><sdl:prev-origin "
               "origin=\"source\"/></sdl:seg><sdl:seg id=\"4\" "
               "locked=\"true\"/><sdl:seg id=\"5\" conf=\"Draft\" "
               "origin=\"source\"/></sdl:seg-defs></trans-unit>" SDL_TAIL;
  assert_copy(in, &opts,
              SDL_HEAD
              "<trans-unit id=\"u1\"><source>A <g id=\"pt1\">b</g>. C."
              "</source><seg-source><mrk mtype=\"seg\" mid=\"1\">A <g "
              "id=\"pt1\">b</g>.</mrk> <mrk mtype=\"seg\" mid=\"2\">C.</mrk>"
              "</seg-source><target><mrk mtype=\"seg\" mid=\"1\">A <g "
              "id=\"pt1\">b</g>.</mrk> <mrk mtype=\"seg\" mid=\"2\">C.</mrk>"
              "</target><sdl:seg-defs><sdl:seg id=\"1\" conf=\"Draft\" "
              "origin=\"mt\" origin-system=\"xliffmt\"/><sdl:seg id=\"2\" "
              "percent=\"0\" conf=\"Draft\" origin=\"mt\" "
              "origin-system=\"xliffmt\" /></sdl:seg-defs></trans-unit>"
              "<trans-unit id=\"u2\"><source>D. E. F.</source><seg-source>"
              "<mrk mtype=\"seg\" mid=\"3\">D.</mrk> <mrk mtype=\"seg\" "
              "mid=\"4\">E.</mrk> <mrk mtype=\"seg\" mid=\"5\">F.</mrk>"
              "</seg-source><target><mrk mtype=\"seg\" mid=\"3\">d.</mrk> "
              "<mrk mtype=\"seg\" mid=\"4\"/> <mrk mtype=\"seg\" mid=\"5\">F."
              "</mrk></target><sdl:seg-defs><sdl:seg id=\"3\" "
              "conf=\"Translated\" origin=\"tm\"><sdl:prev-origin "
              "origin=\"source\"/></sdl:seg><sdl:seg id=\"4\" "
              "locked=\"true\"/><sdl:seg id=\"5\" conf=\"Draft\" "
              "origin=\"mt\" origin-system=\"xliffmt\"/></sdl:seg-defs>"
              "</trans-unit>" SDL_TAIL);
  /* Overwriting replaces what is not locked. */
  assert_replace(
      in, &opts_overwrite, "x",
      SDL_HEAD
      "<trans-unit id=\"u1\"><source>A <g id=\"pt1\">b</g>. C."
      "</source><seg-source><mrk mtype=\"seg\" mid=\"1\">A <g "
      "id=\"pt1\">b</g>.</mrk> <mrk mtype=\"seg\" mid=\"2\">C.</mrk>"
      "</seg-source><target><mrk mtype=\"seg\" mid=\"1\">x</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">x</mrk></target><sdl:seg-defs>"
      "<sdl:seg id=\"1\" conf=\"Draft\" origin=\"mt\" "
      "origin-system=\"xliffmt\"/><sdl:seg id=\"2\" percent=\"0\" "
      "conf=\"Draft\" origin=\"mt\" origin-system=\"xliffmt\" />"
      "</sdl:seg-defs></trans-unit><trans-unit id=\"u2\"><source>D. "
      "E. F.</source><seg-source><mrk mtype=\"seg\" mid=\"3\">D."
      "</mrk> <mrk mtype=\"seg\" mid=\"4\">E.</mrk> <mrk "
      "mtype=\"seg\" mid=\"5\">F.</mrk></seg-source><target><mrk "
      "mtype=\"seg\" mid=\"3\">x</mrk> <mrk mtype=\"seg\" mid=\"4\"/>"
      " <mrk mtype=\"seg\" mid=\"5\">x</mrk></target><sdl:seg-defs>"
      "<sdl:seg id=\"3\" conf=\"Draft\" origin=\"mt\" "
      "origin-system=\"xliffmt\"><sdl:prev-origin origin=\"source\"/>"
      "</sdl:seg><sdl:seg id=\"4\" locked=\"true\"/><sdl:seg "
      "id=\"5\" conf=\"Draft\" origin=\"mt\" "
      "origin-system=\"xliffmt\"/></sdl:seg-defs></trans-unit>" SDL_TAIL);
  /* alt-trans proposals leave the unit's target and seg-defs alone. */
  assert_replace(
      SDL_HEAD "<trans-unit id=\"u3\"><source>G.</source><seg-source><mrk "
               "mtype=\"seg\" mid=\"6\">G.</mrk></seg-source><target><mrk "
               "mtype=\"seg\" mid=\"6\"/></target><sdl:seg-defs><sdl:seg "
               "id=\"6\"/></sdl:seg-defs></trans-unit>" SDL_TAIL,
      &opts_alt, "g",
      SDL_HEAD "<trans-unit id=\"u3\"><source>G.</source><seg-source><mrk "
               "mtype=\"seg\" mid=\"6\">G.</mrk></seg-source><target><mrk "
               "mtype=\"seg\" mid=\"6\"/></target><alt-trans "
               "origin=\"xliffmt\" mid=\"6\"><target xml:lang=\"es\">g"
               "</target></alt-trans><sdl:seg-defs><sdl:seg id=\"6\"/>"
               "</sdl:seg-defs></trans-unit>" SDL_TAIL);
}

/* Trados's targets hold copies of their segments' codes, in the mrk or
 * outside it; a segment with no text of its own and nothing confirmed is
 * filled, and each code is written once. Codes between segments in the
 * seg-source too (pt3, pt2) stay where they are; locked and confirmed
 * segments are not touched. */
#define SDL_PREFILLED_1                                                        \
  "<trans-unit id=\"u1\"><source>Read <g id=\"pt8\">this</g>. Turn it "        \
  "off.<x id=\"156\"/><x id=\"pt3\"/>Unplug it. Wait. Done. <x "               \
  "id=\"150\"/>Go.</source><seg-source><mrk mtype=\"seg\" mid=\"1\">Read <g "  \
  "id=\"pt8\">this</g>.</mrk> <mrk mtype=\"seg\" mid=\"2\">Turn it off.<x "    \
  "id=\"156\"/></mrk><x id=\"pt3\"/><mrk mtype=\"seg\" mid=\"3\">Unplug "      \
  "it.</mrk> <mrk mtype=\"seg\" mid=\"4\">Wait.</mrk> <mrk mtype=\"seg\" "     \
  "mid=\"5\">Done.</mrk> <mrk mtype=\"seg\" mid=\"6\"><x id=\"150\"/>Go."      \
  "</mrk></seg-source><target>"
#define SDL_PREFILLED_1_DEFS                                                   \
  "<sdl:seg id=\"3\" locked=\"true\"/><sdl:seg id=\"4\" conf=\"Translated\" "  \
  "origin=\"tm\" percent=\"100\"><sdl:prev-origin "                            \
  "origin=\"not-translated\"/></sdl:seg><sdl:seg id=\"5\" "                    \
  "conf=\"ApprovedSignOff\"/>"
#define SDL_PREFILLED_2                                                        \
  "<trans-unit id=\"u2\"><source><g id=\"pt1\">Title.</g> <g "                 \
  "id=\"pt2\">Note.</g></source><seg-source><mrk mtype=\"seg\" "               \
  "mid=\"7\"><g id=\"pt1\">Title.</g></mrk> <g id=\"pt2\"><mrk "               \
  "mtype=\"seg\" mid=\"8\">Note.</mrk></g></seg-source><target>"
#define SDL_PREFILLED_3                                                        \
  "<trans-unit id=\"u3\"><source><x id=\"9\"/></source><seg-source><mrk "      \
  "mtype=\"seg\" mid=\"9\"><x id=\"9\"/></mrk></seg-source><target><mrk "      \
  "mtype=\"seg\" mid=\"9\"><x id=\"9\"/></mrk></target>"
#define SDL_MT "conf=\"Draft\" origin=\"mt\" origin-system=\"xliffmt\""

#define SDL_PREFILLED_IN                                                       \
  SDL_PREFILLED_1                                                              \
  "<mrk mtype=\"seg\" mid=\"1\"><g id=\"pt8\"></g></mrk> <mrk "                \
  "mtype=\"seg\" mid=\"2\"/><x id=\"156\"/><x id=\"pt3\"/><mrk "               \
  "mtype=\"seg\" mid=\"3\"></mrk> <mrk mtype=\"seg\" mid=\"4\">Espere."        \
  "</mrk> <mrk mtype=\"seg\" mid=\"5\"/> <x id=\"150\"/><mrk "                 \
  "mtype=\"seg\" mid=\"6\"></mrk></target><sdl:seg-defs><sdl:seg "             \
  "id=\"1\"/><sdl:seg id=\"2\" "                                               \
  "origin=\"not-translated\"/>" SDL_PREFILLED_1_DEFS                           \
  "<sdl:seg id=\"6\" origin=\"not-translated\"/>"                              \
  "</sdl:seg-defs></trans-unit>" SDL_PREFILLED_2                               \
  "<g id=\"pt1\"><mrk mtype=\"seg\" mid=\"7\"/></g> <g "                       \
  "id=\"pt2\"><mrk mtype=\"seg\" mid=\"8\"></mrk></g></target>"                \
  "<sdl:seg-defs><sdl:seg id=\"7\"/><sdl:seg id=\"8\"/></sdl:seg-defs>"        \
  "</trans-unit>"

static void test_sdlxliff_prefilled(void) {
  static const char in[] = SDL_HEAD SDL_PREFILLED_IN SDL_PREFILLED_3
      "<sdl:seg-defs><sdl:seg id=\"9\"/></sdl:seg-defs></trans-unit>" SDL_TAIL;
  assert_copy(
      in, &opts,
      SDL_HEAD SDL_PREFILLED_1
      "<mrk mtype=\"seg\" mid=\"1\">Read <g id=\"pt8\">this</g>.</mrk> <mrk "
      "mtype=\"seg\" mid=\"2\">Turn it off.<x id=\"156\"/></mrk><x "
      "id=\"pt3\"/><mrk mtype=\"seg\" mid=\"3\"></mrk> <mrk mtype=\"seg\" "
      "mid=\"4\">Espere.</mrk> <mrk mtype=\"seg\" mid=\"5\"/> <mrk "
      "mtype=\"seg\" mid=\"6\"><x id=\"150\"/>Go.</mrk></target>"
      "<sdl:seg-defs><sdl:seg id=\"1\" " SDL_MT "/><sdl:seg id=\"2\" "
      "origin=\"mt\" conf=\"Draft\" "
      "origin-system=\"xliffmt\"/>" SDL_PREFILLED_1_DEFS
      "<sdl:seg id=\"6\" origin=\"mt\" conf=\"Draft\" "
      "origin-system=\"xliffmt\"/></sdl:seg-defs></trans-unit>" SDL_PREFILLED_2
      "<mrk mtype=\"seg\" mid=\"7\"><g id=\"pt1\">Title.</g>"
      "</mrk> <g id=\"pt2\"><mrk mtype=\"seg\" mid=\"8\">Note.</mrk></g>"
      "</target><sdl:seg-defs><sdl:seg id=\"7\" " SDL_MT "/><sdl:seg "
      "id=\"8\" " SDL_MT "/></sdl:seg-defs></trans-unit>" SDL_PREFILLED_3
      "<sdl:seg-defs><sdl:seg id=\"9\" " SDL_MT "/>"
      "</sdl:seg-defs></trans-unit>" SDL_TAIL);
  /* A translation without the codes leaves the copies outside alone: each
   * code is still there once. */
  assert_replace(
      SDL_HEAD SDL_PREFILLED_IN SDL_TAIL, &opts, "x",
      SDL_HEAD SDL_PREFILLED_1
      "<mrk mtype=\"seg\" mid=\"1\">x</mrk> <mrk mtype=\"seg\" mid=\"2\">x"
      "</mrk><x id=\"156\"/><x id=\"pt3\"/><mrk mtype=\"seg\" mid=\"3\">"
      "</mrk> <mrk mtype=\"seg\" mid=\"4\">Espere.</mrk> <mrk mtype=\"seg\" "
      "mid=\"5\"/> <x id=\"150\"/><mrk mtype=\"seg\" mid=\"6\">x</mrk>"
      "</target><sdl:seg-defs><sdl:seg id=\"1\" " SDL_MT "/><sdl:seg "
      "id=\"2\" origin=\"mt\" conf=\"Draft\" "
      "origin-system=\"xliffmt\"/>" SDL_PREFILLED_1_DEFS
      "<sdl:seg id=\"6\" origin=\"mt\" conf=\"Draft\" "
      "origin-system=\"xliffmt\"/></sdl:seg-defs></trans-unit>" SDL_PREFILLED_2
      "<g id=\"pt1\"><mrk mtype=\"seg\" mid=\"7\">x</mrk>"
      "</g> <g id=\"pt2\"><mrk mtype=\"seg\" mid=\"8\">x</mrk></g>"
      "</target><sdl:seg-defs><sdl:seg id=\"7\" " SDL_MT "/><sdl:seg "
      "id=\"8\" " SDL_MT "/></sdl:seg-defs></trans-unit>" SDL_TAIL);
}

/* Outside SDLXLIFF, a target of empty mrks is replaced whole, as an empty
 * target is; one with a translated segment is filled mrk by mrk. */
static void test_empty_segment_target(void) {
  assert_replace(
      HEAD "<trans-unit id=\"1\"><source>A. B.</source><seg-source>"
           "<mrk mtype=\"seg\" mid=\"1\">A.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">B.</mrk></seg-source><target "
           "state=\"new\"><mrk mtype=\"seg\" mid=\"1\"/> <mrk "
           "mtype=\"seg\" mid=\"2\"/></target></trans-unit>\n"
           "<trans-unit id=\"2\"><source>C. D.</source><seg-source>"
           "<mrk mtype=\"seg\" mid=\"1\">C.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">D.</mrk></seg-source><target "
           "state=\"new\"><mrk mtype=\"seg\" mid=\"1\">c.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\"/></target></trans-unit>\n" TAIL,
      &opts, "x",
      HEAD "<trans-unit id=\"1\"><source>A. B.</source><seg-source>"
           "<mrk mtype=\"seg\" mid=\"1\">A.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">B.</mrk></seg-source>" TARGET_OPEN
           "<mrk mtype=\"seg\" mid=\"1\">x</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">x</mrk></target></trans-unit>\n"
           "<trans-unit id=\"2\"><source>C. D.</source><seg-source>"
           "<mrk mtype=\"seg\" mid=\"1\">C.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">D.</mrk></seg-source><target "
           "state=\"needs-review-translation\" "
           "state-qualifier=\"leveraged-mt\"><mrk mtype=\"seg\" "
           "mid=\"1\">c.</mrk> <mrk "
           "mtype=\"seg\" mid=\"2\">x</mrk></target></trans-unit>\n" TAIL);
}

static void test_mqxliff(void) {
  CU_ASSERT_EQUAL(setenv("SOURCE_DATE_EPOCH", "1795000000", 1), 0);
#define MQ_HEAD                                                                \
  DECL "<xliff version=\"1.2\" "                                               \
       "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" "                      \
       "xmlns:mq=\"MQXliff\">\n<file original=\"a.docx\" "                     \
       "source-language=\"en-US\" target-language=\"es-ES\" "                  \
       "datatype=\"x-memoq\"><body>\n"
  /* memoQ's status and time of change; the target's start tag is kept;
   * locked rows and translated ones are left alone. */
  assert_replace(
      MQ_HEAD "<trans-unit id=\"1\" mq:status=\"NotStarted\" "
              "mq:percent=\"0\">\n<source xml:space=\"preserve\">A</source>\n"
              "<target xml:space=\"preserve\"></target>\n</trans-unit>\n"
              "<trans-unit id=\"2\" mq:status=\"NotStarted\">\n<source "
              "xml:space=\"preserve\">B</source>\n<target xml:space="
              "\"preserve\" />\n</trans-unit>\n"
              "<trans-unit id=\"3\" mq:status=\"NotStarted\" "
              "mq:locked=\"locked\">\n<source>C</source>\n<target></target>\n"
              "</trans-unit>\n"
              "<trans-unit id=\"4\" mq:status=\"ManuallyConfirmed\">\n<source>"
              "D</source>\n<target>d</target>\n</trans-unit>\n" TAIL,
      &opts_plain, "x",
      MQ_HEAD "<trans-unit id=\"1\" mq:status=\"MachineTranslated\" "
              "mq:percent=\"0\" mq:lastchangedtimestamp="
              "\"2026-11-18T11:06:40Z\">\n<source xml:space=\"preserve\">A"
              "</source>\n<target xml:space=\"preserve\">x</target>\n"
              "</trans-unit>\n"
              "<trans-unit id=\"2\" mq:status=\"MachineTranslated\" "
              "mq:lastchangedtimestamp=\"2026-11-18T11:06:40Z\">\n<source "
              "xml:space=\"preserve\">B</source>\n<target xml:space="
              "\"preserve\">x</target>\n</trans-unit>\n"
              "<trans-unit id=\"3\" mq:status=\"NotStarted\" "
              "mq:locked=\"locked\">\n<source>C</source>\n<target></target>\n"
              "</trans-unit>\n"
              "<trans-unit id=\"4\" mq:status=\"ManuallyConfirmed\">\n<source>"
              "D</source>\n<target>d</target>\n</trans-unit>\n" TAIL);
#undef MQ_HEAD
  CU_ASSERT_EQUAL(unsetenv("SOURCE_DATE_EPOCH"), 0);
}

/* --- One whole target ----------------------------------------------------- */

/* Segments "X <g id="1">a. b</g> c" as the segmenter does ("X <bx/>a.",
 * " ", "b<ex/> c"); unit "2" gets a translation that moves the ex into
 * another pair. */
static int on_unit_cut(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  set_encoding(run);
  xmt_segment *src[2] = {xmt_segment_new(), xmt_segment_new()};
  /* The unit takes the gaps array itself. */
  xmt_segment **gaps = malloc(3 * sizeof *gaps);
  CU_ASSERT_PTR_NOT_NULL_FATAL(gaps);
  for (int i = 0; i < 3; i++)
    gaps[i] = xmt_segment_new();
  xmt_segment *t = xmt_segment_new();
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[0], "X ", 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(src[0], XMT_TAG_ISOLATED_OPEN, "1",
                                         "bx", STR_LEN("<bx id=\"1\"/>")),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[0], "a.", 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[1], "b", 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(src[1], XMT_TAG_ISOLATED_CLOSE, "1",
                                         "ex", STR_LEN("<ex id=\"1\"/>")),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[1], " c", 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(gaps[1], " ", 1), XMT_OK);
  int crossed = strcmp(xmt_xliff_unit_id(unit), "2") == 0;
  CU_ASSERT_EQUAL(xmt_segment_append_text(t, "A.", 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_unit_set_generated(unit, src, gaps, 2), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_xliff_unit_set_target(unit, 0, xmt_xliff_unit_source(unit, 0)),
      XMT_OK);
  xmt_segment_clear(t);
  if (crossed)
    CU_ASSERT_EQUAL(xmt_segment_append_tag(t, XMT_TAG_OPEN, "2", "g",
                                           STR_LEN("<g id=\"2\">")),
                    XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(t, "B", 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(t, XMT_TAG_ISOLATED_CLOSE, "1", "ex",
                                         STR_LEN("<ex id=\"1\"/>")),
                  XMT_OK);
  if (crossed)
    CU_ASSERT_EQUAL(
        xmt_segment_append_tag(t, XMT_TAG_CLOSE, "2", "g", STR_LEN("</g>")),
        XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(t, " C", 2), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_unit_set_target(unit, 1, t), XMT_OK);
  xmt_segment_free(t);
  xmt_status st = xmt_xliff_writer_unit(run->writer, unit, run->job->options);
  xmt_xliff_unit_free(unit);
  return failed(run, st);
}

static void test_whole_target_pairs(void) {
  static const char in[] =
      HEAD "<trans-unit id=\"1\"><source>X <g id=\"1\">a. b</g> c</source>"
           "</trans-unit>\n<trans-unit id=\"2\"><source>X <g id=\"1\">a. "
           "b</g> c</source></trans-unit>\n" TAIL;
  static const char want[] =
      HEAD "<trans-unit id=\"1\"><source>X <g id=\"1\">a. b</g> c</source>"
           "<target xml:lang=\"es\">X <g id=\"1\">a. B</g> C</target>"
           "</trans-unit>\n<trans-unit id=\"2\"><source>X <g id=\"1\">a. "
           "b</g> c</source><target xml:lang=\"es\">X <bx id=\"1\"/>a. <g "
           "id=\"2\">B<ex id=\"1\"/></g> C</target></trans-unit>\n" TAIL;
  static const struct xmt_xliff_reader_callbacks cb = {on_skeleton, on_file,
                                                       on_unit_cut};
  struct job job = {&opts_plain, NO_TARGET, NULL};
  struct run run;
  run_open(&run, &job, &cb);
  CU_ASSERT_EQUAL(xmt_xliff_reader_parse(run.reader, STR_LEN(in), 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(run.writer), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, want, sizeof want - 1);
  run_close(&run);
}

/* Cuts each unit into two segments with the gap between them, no
 * isolated code among them, each piece's text given by the unit's id:
 * the whole target is written piece by piece, and must come out as the
 * join of the pieces would. */
static int on_unit_pieces(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  set_encoding(run);
  const char *id = xmt_xliff_unit_id(unit);
  /* first segment's text, the gap, the second segment's text */
  const char *text[3] = {"A.", " ", "b > c"};
  if (strcmp(id, "2") == 0)
    text[1] = "]]", text[2] = ">b & c"; /* "]]>" across the gap */
  else if (strcmp(id, "3") == 0)
    text[1] = "x]", text[2] = "]>y"; /* the same, one ']' on each side */
  xmt_segment *src[2] = {xmt_segment_new(), xmt_segment_new()};
  xmt_segment **gaps = malloc(3 * sizeof *gaps);
  CU_ASSERT_PTR_NOT_NULL_FATAL(gaps);
  for (int i = 0; i < 3; i++)
    gaps[i] = xmt_segment_new();
  CU_ASSERT_EQUAL(xmt_segment_append_tag(src[0], XMT_TAG_OPEN, "1", "g",
                                         STR_LEN("<g id=\"1\">")),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[0], text[0], strlen(text[0])),
                  XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(src[0], XMT_TAG_CLOSE, "1", "g", STR_LEN("</g>")),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(gaps[1], text[1], strlen(text[1])),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(src[1], text[2], strlen(text[2])),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_unit_set_generated(unit, src, gaps, 2), XMT_OK);
  xmt_segment *t = xmt_segment_new();
  /* Unit "4": a translation that is not UTF-8; else the source's pair. */
  if (strcmp(id, "4") == 0)
    CU_ASSERT_EQUAL(xmt_segment_append_valid_text(t, "B\xC3", 2), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_xliff_unit_set_target(
          unit, 0, strcmp(id, "4") == 0 ? t : xmt_xliff_unit_source(unit, 0)),
      XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_xliff_unit_set_target(unit, 1, xmt_xliff_unit_source(unit, 1)),
      XMT_OK);
  xmt_segment_free(t);
  xmt_status st = xmt_xliff_writer_unit(run->writer, unit, run->job->options);
  xmt_xliff_unit_free(unit);
  return failed(run, st);
}

#define PIECES_UNIT(id) "<trans-unit id=\"" id "\"><source>s</source>"

static void test_whole_target_pieces(void) {
  static const char in[] = HEAD PIECES_UNIT("1") "</trans-unit>\n" PIECES_UNIT(
      "2") "</trans-unit>\n" PIECES_UNIT("3") "</trans-unit>\n" TAIL;
  static const char want[] =
      HEAD PIECES_UNIT("1") "<target xml:lang=\"es\"><g id=\"1\">A.</g> b > "
                            "c</target></trans-unit>\n" PIECES_UNIT(
                                "2") "<target xml:lang=\"es\"><g "
                                     "id=\"1\">A.</g>]]&gt;b &amp; "
                                     "c</target></trans-unit>\n" PIECES_UNIT(
                                         "3") "<target xml:lang=\"es\"><g "
                                              "id=\"1\">A.</g>x]]&gt;y</"
                                              "target></trans-unit>\n" TAIL;
  static const struct xmt_xliff_reader_callbacks cb = {on_skeleton, on_file,
                                                       on_unit_pieces};
  struct job job = {&opts_plain, NO_TARGET, NULL};
  struct run run;
  run_open(&run, &job, &cb);
  CU_ASSERT_EQUAL(xmt_xliff_reader_parse(run.reader, STR_LEN(in), 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(run.writer), XMT_OK);
  CU_ASSERT_EQUAL(run.writer_status, XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, want, sizeof want - 1);
  run_close(&run);
  /* A translation that is not UTF-8 is refused, as its join is. */
  static const char bad[] = HEAD PIECES_UNIT("4") "</trans-unit>\n" TAIL;
  run_open(&run, &job, &cb);
  CU_ASSERT_NOT_EQUAL(xmt_xliff_reader_parse(run.reader, STR_LEN(bad), 1),
                      XMT_OK);
  CU_ASSERT_EQUAL(run.writer_status, XMT_ERR_ENCODING);
  run_close(&run);
}

/* --- Encodings ------------------------------------------------------------ */

#define BODY_8BIT(decl, source)                                                \
  decl "\n" XLIFF FILE_ES "<trans-unit id=\"1\">\n<source>" source             \
       "</source>\n</trans-unit>\n<!-- " source " -->\n" TAIL

#define BODY_8BIT_OUT(decl, source, target)                                    \
  decl "\n" XLIFF FILE_ES "<trans-unit id=\"1\">\n<source>" source             \
       "</source>\n<target xml:lang=\"es\">" target "</target>\n"              \
       "</trans-unit>\n<!-- " source " -->\n" TAIL

static void test_windows_1252(void) {
#define CP1252_DECL "<?xml version=\"1.0\" encoding=\"windows-1252\"?>"
  static const char in[] =
      BODY_8BIT(CP1252_DECL, "caf\xE9 \x80 \x93q\x94 \x81\x8D\x8F\x90\x9D");
  assert_copy(in, &opts_plain,
              BODY_8BIT_OUT(CP1252_DECL,
                            "caf\xE9 \x80 \x93q\x94 \x81\x8D\x8F\x90\x9D",
                            "caf\xE9 \x80 \x93q\x94 \x81\x8D\x8F\x90\x9D"));
  /* Ω is not in windows-1252; é, € and ™ are. */
  assert_replace(
      in, &opts_plain, "\xCE\xA9 caf\xC3\xA9 \xE2\x82\xAC\xE2\x84\xA2",
      BODY_8BIT_OUT(CP1252_DECL, "caf\xE9 \x80 \x93q\x94 \x81\x8D\x8F\x90\x9D",
                    "&#x3A9; caf\xE9 \x80\x99"));
  struct job none = {&opts_plain, NO_TARGET, NULL};
  assert_job(STR_LEN(in), &none, STR_LEN(in));
#undef CP1252_DECL
}

static void test_latin1(void) {
#define LATIN1_DECL "<?xml version='1.0' encoding='ISO-8859-1'?>"
  static const char in[] = BODY_8BIT(LATIN1_DECL, "caf\xE9 \xFF \xA4");
  assert_copy(
      in, &opts_plain,
      BODY_8BIT_OUT(LATIN1_DECL, "caf\xE9 \xFF \xA4", "caf\xE9 \xFF \xA4"));
  /* € is not in ISO-8859-1. */
  assert_replace(in, &opts_plain, "5 \xE2\x82\xAC \xC3\xA9 \xF0\x9F\x98\x80",
                 BODY_8BIT_OUT(LATIN1_DECL, "caf\xE9 \xFF \xA4",
                               "5 &#x20AC; \xE9 &#x1F600;"));
#undef LATIN1_DECL
}

static void test_us_ascii(void) {
#define ASCII_DECL "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>"
  static const char in[] = BODY_8BIT(ASCII_DECL, "cafe &#xE9;");
  assert_copy(in, &opts_plain,
              BODY_8BIT_OUT(ASCII_DECL, "cafe &#xE9;", "cafe &#xE9;"));
  assert_replace(
      in, &opts_plain, "caf\xC3\xA9 \xE2\x82\xAC",
      BODY_8BIT_OUT(ASCII_DECL, "cafe &#xE9;", "caf&#xE9; &#x20AC;"));
#undef ASCII_DECL
}

/* Encodes UTF-8 into enc (test data: must succeed). */
static struct xmt_buf encoded(enum xmt_encoding enc, const char *utf8) {
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(xmt_encode(enc, utf8, strlen(utf8), 0, &out), XMT_OK);
  return out;
}

static void test_utf16(void) {
  /* U+FEFF first: the byte order mark. */
  static const char in[] =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" XLIFF
      "<file original=\"a.txt\" source-language=\"en\" "
      "datatype=\"plaintext\">\n<body>\n"
      "<trans-unit id=\"1\">\n  <source>caf\xC3\xA9 \xF0\x9F\x98\x80</source>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"2\">\n  <source>x</source>\n  <target>y</target>\n"
      "</trans-unit>\n" TAIL;
  static const char out[] =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" XLIFF
      "<file original=\"a.txt\" source-language=\"en\" "
      "datatype=\"plaintext\" target-language=\"es\">\n<body>\n"
      "<trans-unit id=\"1\">\n  <source>caf\xC3\xA9 \xF0\x9F\x98\x80</source>\n"
      "  <target xml:lang=\"es\">\xCE\xA9 \xF0\x9F\x98\x81</target>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"2\">\n  <source>x</source>\n  <target>y</target>\n"
      "</trans-unit>\n" TAIL;
  static const enum xmt_encoding encs[] = {XMT_ENC_UTF16LE, XMT_ENC_UTF16BE};
  for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
    struct xmt_buf in16 = encoded(encs[i], in);
    struct xmt_buf out16 = encoded(encs[i], out);
    CU_ASSERT_EQUAL(in16.data[0], encs[i] == XMT_ENC_UTF16LE ? '\xFF' : '\xFE');
    struct job job = {&opts_plain, REPLACE, "\xCE\xA9 \xF0\x9F\x98\x81"};
    assert_job(in16.data, in16.len, &job, out16.data, out16.len);
    /* Nothing to write: the input, byte for byte. */
    struct job none = {&opts_plain, NO_TARGET, NULL};
    assert_job(out16.data, out16.len, &none, out16.data, out16.len);
    xmt_buf_free(&in16);
    xmt_buf_free(&out16);
  }
}

/* --- Untouched input ------------------------------------------------------ */

static void test_identity(void) {
  /* Every unit already has a target or is not to be translated: the
   * output is the input, byte for byte, comments, PIs, CDATA, entity
   * references, CRs, odd spacing and foreign markup included. */
  static const char in[] =
      "\xEF\xBB\xBF<?xml version='1.0' encoding='utf-8' standalone=\"yes\" ?>"
      "\r\n<!-- a comment: <trans-unit> & co -->\r\n"
      "<?xml-stylesheet type=\"text/xsl\" href=\"x.xsl\"?>\r\n"
      "<xliff version = '1.2' xmlns='urn:oasis:names:tc:xliff:document:1.2'"
      "\r\n       xmlns:okp=\"okapi-framework:xliff-extensions\">\r\n"
      "<file original='a&amp;b.html' source-language='en-US' "
      "target-language='es-ES' datatype='html'   >\r\n"
      "<header><tool tool-id='t' tool-name='T'/></header>\r\n<body>\r\n"
      "<trans-unit id='1' okp:x='y'><source xml:space='preserve'>A &amp; "
      "<g id='1' ctype='bold'>b</g>&#x20;</source>\r\n"
      "<target state='translated' xml:lang='es-ES'>A &amp; <g id='1' "
      "ctype='bold'>B</g>&#x20;</target>\r\n"
      "<alt-trans><source>s</source><target>t</target></alt-trans>\r\n"
      "</trans-unit>\r\n"
      "<trans-unit id='2' translate='no'><source><![CDATA[<p>]]></source>"
      "</trans-unit>\r\n"
      "<group translate='no'><trans-unit id='3'><source>z</source>"
      "</trans-unit></group>\r\n"
      "<trans-unit id='4'><source>x</source><seg-source><mrk mtype='seg' "
      "mid='1'>x</mrk></seg-source><target><mrk mtype='seg' "
      "mid='1'>X</mrk></target></trans-unit>\r\n"
      "<trans-unit id='5'>\r\n<source>\xE2\x82\xAC</source>\r\n"
      "<target>\xE2\x82\xAC</target>\r\n<note from='me'>\xC3\xA9</note>\r\n"
      "</trans-unit>\r\n"
      "</body>\r\n</file>\r\n</xliff>\r\n<!-- end -->\r\n";
  struct job job = {&opts, COPY_SOURCE, NULL};
  assert_job(STR_LEN(in), &job, STR_LEN(in));
  struct job none = {&opts, NO_TARGET, NULL};
  assert_job(STR_LEN(in), &none, STR_LEN(in));
  /* No unit gets a target when none is set, whatever it holds. */
  static const char open[] =
      HEAD "<trans-unit id=\"1\"><source>A</source></trans-unit>\n"
           "<trans-unit id=\"2\"><source>B</source><seg-source><mrk "
           "mtype=\"seg\" mid=\"1\">B</mrk></seg-source></trans-unit>\n" TAIL;
  assert_job(STR_LEN(open), &none, STR_LEN(open));
}

/* Enough units to flush the writer's blocks and move the reader's window
 * many times; every other unit gets a target. */
static void test_large_document(void) {
  struct xmt_buf in = {0}, want = {0};
  CU_ASSERT_EQUAL(xmt_buf_append_str(&in, HEAD), XMT_OK);
  CU_ASSERT_EQUAL(xmt_buf_append_str(&want, HEAD), XMT_OK);
  for (unsigned i = 0; i < 3000; i++) {
    char unit[256], out[384];
    const char *target = i % 2 ? "<target>done</target>" : "";
    snprintf(unit, sizeof unit,
             "<trans-unit id=\"u%u\">\n  <source>Text %u <x id=\"1\"/> "
             "\xC3\xA9</source>%s\n</trans-unit>\n",
             i, i, target);
    if (i % 2)
      snprintf(out, sizeof out, "%s", unit);
    else
      snprintf(out, sizeof out,
               "<trans-unit id=\"u%u\">\n  <source>Text %u <x id=\"1\"/> "
               "\xC3\xA9</source>\n  <target xml:lang=\"es\">Text %u <x "
               "id=\"1\"/> \xC3\xA9</target>\n</trans-unit>\n",
               i, i, i);
    CU_ASSERT_EQUAL(xmt_buf_append_str(&in, unit), XMT_OK);
    CU_ASSERT_EQUAL(xmt_buf_append_str(&want, out), XMT_OK);
  }
  CU_ASSERT_EQUAL(xmt_buf_append_str(&in, TAIL), XMT_OK);
  CU_ASSERT_EQUAL(xmt_buf_append_str(&want, TAIL), XMT_OK);
  CU_ASSERT_TRUE(want.len > 3 * 64 * 1024);
  static const size_t chunks[] = {0, 7, 4093, 100000};
  struct job job = {&opts_plain, COPY_SOURCE, NULL};
  for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
    struct xmt_buf out = {0};
    CU_ASSERT_EQUAL(run_job(in.data, in.len, chunks[i], &job, &out), XMT_OK);
    XMT_ASSERT_BYTES_EQUAL(out.data, out.len, want.data, want.len);
    xmt_buf_free(&out);
  }
  xmt_buf_free(&in);
  xmt_buf_free(&want);
}

/* --- The writer alone ----------------------------------------------------- */

static int failing_sink(void *user, const char *bytes, size_t len) {
  (void)bytes;
  (void)len;
  (*(int *)user)++;
  return 1;
}

static void test_sink_failure(void) {
  int calls = 0;
  xmt_xliff_writer *w = xmt_xliff_writer_new(failing_sink, &calls);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  CU_ASSERT_EQUAL(xmt_xliff_writer_skeleton(w, "<xliff>", 7), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(w), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(calls, 1);
  /* The failure sticks; the sink is not called again. */
  CU_ASSERT_EQUAL(xmt_xliff_writer_skeleton(w, "x", 1), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(w), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(calls, 1);
  xmt_xliff_writer_free(w);
  xmt_xliff_writer_free(NULL);
  CU_ASSERT_PTR_NULL(xmt_xliff_writer_new(NULL, NULL));
}

static void test_writer_encodes_skeleton(void) {
  struct run run;
  memset(&run, 0, sizeof run);
  xmt_xliff_writer *w = xmt_xliff_writer_new(sink, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  xmt_xliff_writer_set_encoding(w, XMT_ENC_LATIN1);
  CU_ASSERT_EQUAL(xmt_xliff_writer_skeleton(w, STR_LEN("caf\xC3\xA9")), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_file_tag(w, STR_LEN("<file a='\xC3\xA9'>"),
                                            "\xE2\x82\xAC"),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(w), XMT_OK);
  static const char want[] =
      "caf\xE9<file a='\xE9' target-language=\"&#x20AC;\">";
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, want, sizeof want - 1);
  /* Copied bytes that the encoding lacks are an error, not a reference. */
  CU_ASSERT_EQUAL(xmt_xliff_writer_skeleton(w, STR_LEN("\xE2\x82\xAC")),
                  XMT_ERR_ENCODING);
  xmt_xliff_writer_free(w);
  xmt_buf_free(&run.out);
}

/* An encoding outside the enum is refused and the writer keeps its own. */
static void test_set_encoding(void) {
  struct run run;
  memset(&run, 0, sizeof run);
  xmt_xliff_writer *w = xmt_xliff_writer_new(sink, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  CU_ASSERT_EQUAL(xmt_xliff_writer_set_encoding(w, XMT_ENC_LATIN1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_set_encoding(w, (enum xmt_encoding)6),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_xliff_writer_set_encoding(w, (enum xmt_encoding) - 1),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_xliff_writer_set_encoding(NULL, XMT_ENC_UTF8),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_xliff_writer_skeleton(w, STR_LEN("caf\xC3\xA9")), XMT_OK);
  CU_ASSERT_EQUAL(xmt_xliff_writer_flush(w), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(run.out.data, run.out.len, "caf\xE9", 4);
  xmt_xliff_writer_free(w);
  xmt_buf_free(&run.out);
}

static CU_TestInfo writer_tests[] = {
    {"encoding: unknown refused", test_set_encoding},
    {"unsegmented unit", test_unsegmented},
    {"segmented unit mirrors seg-source", test_segmented},
    {"empty target replaced in place", test_empty_target_replaced},
    {"existing target kept or overwritten", test_existing_target},
    {"translate=no units and groups", test_not_translatable},
    {"file target-language added", test_file_target_language},
    {"file target-language inside a value", test_file_target_language_in_value},
    {"state attributes", test_state_attributes},
    {"alt-trans", test_alt_trans},
    {"translation escaped", test_escaping},
    {"XLIFF 1.0 and 1.1 kept", test_versions},
    {"prefixed XLIFF namespace", test_prefixed_namespace},
    {"approved=yes", test_approved},
    {"SDLXLIFF segments and seg-defs", test_sdlxliff},
    {"SDLXLIFF targets of codes only", test_sdlxliff_prefilled},
    {"target of empty mrk segments", test_empty_segment_target},
    {"MQXLIFF status and timestamp", test_mqxliff},
    {"whole target: cut pairs whole again", test_whole_target_pairs},
    {"whole target: written piece by piece", test_whole_target_pieces},
    {"windows-1252", test_windows_1252},
    {"ISO-8859-1", test_latin1},
    {"US-ASCII", test_us_ascii},
    {"UTF-16 with byte order mark", test_utf16},
    {"identity: output is input", test_identity},
    {"large document", test_large_document},
    {"sink failure", test_sink_failure},
    {"writer encodes what it writes", test_writer_encodes_skeleton},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff/writer", NULL, NULL, NULL, NULL, writer_tests},
    CU_SUITE_INFO_NULL,
};
