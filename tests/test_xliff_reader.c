/* test_xliff_reader.c -- the streaming XLIFF reader: events, byte
 * preservation, chunk independence, bad input. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "xliff_private.h"

/* Everything the reader reports, as text, plus the bytes it hands out. */
struct events {
  struct xmt_buf log;
  struct xmt_buf bytes; /* skeleton + file tags + unit raw, in order */
};

static int ev_skeleton(void *user, const char *bytes, size_t len) {
  struct events *ev = user;
  return xmt_buf_append(&ev->bytes, bytes, len) != XMT_OK;
}

static int ev_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct events *ev = user;
  char line[512];
  snprintf(line, sizeof line, "file original=%s src=%s tgt=%s line=%lu\n",
           info->original ? info->original : "-",
           info->source_language ? info->source_language : "-",
           info->target_language ? info->target_language : "-", info->line);
  xmt_buf_append_str(&ev->log, line);
  return xmt_buf_append(&ev->bytes, tag, len) != XMT_OK;
}

static const char *kind_name(enum xmt_tag_kind k) {
  static const char *const names[] = {"open", "close", "ph", "iopen", "iclose"};
  return names[k];
}

static void log_segment(struct xmt_buf *log, const xmt_segment *seg) {
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  xmt_buf_append_str(log, " [");
  xmt_buf_append(log, text, len);
  xmt_buf_append_str(log, "]");
  for (size_t i = 0; i < xmt_segment_tag_count(seg); i++) {
    struct xmt_tag t;
    xmt_segment_tag(seg, i, &t);
    char buf[64];
    snprintf(buf, sizeof buf, " %s:%s:%s@%zu=", kind_name(t.kind), t.name, t.id,
             t.offset);
    xmt_buf_append_str(log, buf);
    xmt_buf_append(log, t.markup, t.markup_len);
  }
}

static int ev_unit(void *user, xmt_xliff_unit *u) {
  struct events *ev = user;
  char line[256];
  snprintf(line, sizeof line,
           "unit id=%s tr=%d seg=%d target=%d state=%s line=%lu n=%zu",
           xmt_xliff_unit_id(u) ? xmt_xliff_unit_id(u) : "-",
           xmt_xliff_unit_translatable(u), xmt_xliff_unit_segmented(u),
           xmt_xliff_unit_has_target(u),
           xmt_xliff_unit_target_state(u) ? xmt_xliff_unit_target_state(u)
                                          : "-",
           xmt_xliff_unit_line(u), xmt_xliff_unit_segment_count(u));
  xmt_buf_append_str(&ev->log, line);
  for (size_t i = 0; i < xmt_xliff_unit_segment_count(u); i++) {
    const char *mid = xmt_xliff_unit_segment_mid(u, i);
    xmt_buf_append_str(&ev->log, mid ? " mid=" : " mid=-");
    if (mid)
      xmt_buf_append_str(&ev->log, mid);
    log_segment(&ev->log, xmt_xliff_unit_source(u, i));
    CU_ASSERT_EQUAL(xmt_segment_check(xmt_xliff_unit_source(u, i), NULL),
                    XMT_OK);
  }
  if (xmt_xliff_unit_existing_target(u) != NULL) {
    xmt_buf_append_str(&ev->log, " existing");
    log_segment(&ev->log, xmt_xliff_unit_existing_target(u));
  }
  xmt_buf_append_str(&ev->log, "\n");
  xmt_status st = xmt_buf_append(&ev->bytes, u->raw.data, u->raw.len);
  xmt_xliff_unit_free(u);
  return st != XMT_OK;
}

static const struct xmt_xliff_reader_callbacks callbacks = {ev_skeleton,
                                                            ev_file, ev_unit};

/* Parses doc in chunks of `chunk` bytes (0: all at once). */
static xmt_status parse(const char *doc, size_t len, size_t chunk,
                        struct events *ev, struct xmt_error *err_out, char *msg,
                        size_t msglen) {
  memset(ev, 0, sizeof *ev);
  xmt_xliff_reader *r = xmt_xliff_reader_new(&callbacks, ev);
  xmt_xliff_reader_set_filename(r, "doc.xlf");
  xmt_status st = XMT_OK;
  if (chunk == 0) {
    st = xmt_xliff_reader_parse(r, doc, len, 1);
  } else {
    size_t at = 0;
    while (st == XMT_OK && at < len) {
      size_t n = len - at < chunk ? len - at : chunk;
      st = xmt_xliff_reader_parse(r, doc + at, n, 0);
      at += n;
    }
    if (st == XMT_OK)
      st = xmt_xliff_reader_parse(r, NULL, 0, 1);
  }
  if (err_out != NULL) {
    *err_out = *xmt_xliff_reader_error(r);
    snprintf(msg, msglen, "%s", err_out->message ? err_out->message : "");
    err_out->message = NULL;
    err_out->file = NULL;
    err_out->unit_id = NULL;
  }
  xmt_xliff_reader_free(r);
  return st;
}

static void free_events(struct events *ev) {
  xmt_buf_free(&ev->log);
  xmt_buf_free(&ev->bytes);
}

/* --- Every Okapi fixture
 * ------------------------------------------------------ */

static void test_okapi_fixtures_chunked(void) {
  const char *dir = xmt_test_data_path("okapi/xliff");
  DIR *d = opendir(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  char dirpath[4096];
  snprintf(dirpath, sizeof dirpath, "%s", dir);
  struct dirent *e;
  int files = 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strcmp(e->d_name, "invalid_xml_entity.xlf") == 0)
      continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dirpath, e->d_name);
    size_t len;
    char *doc = xmt_test_read_file(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    struct events whole;
    CU_ASSERT_EQUAL(parse(doc, len, 0, &whole, NULL, NULL, 0), XMT_OK);
    /* The reader hands out every byte of the input, in order. */
    XMT_ASSERT_BYTES_EQUAL(whole.bytes.data, whole.bytes.len, doc, len);
    CU_ASSERT(whole.log.len > 0);
    for (size_t chunk = 1; chunk <= 5; chunk++) {
      struct events part;
      CU_ASSERT_EQUAL(parse(doc, len, chunk, &part, NULL, NULL, 0), XMT_OK);
      XMT_ASSERT_BYTES_EQUAL(part.log.data, part.log.len, whole.log.data,
                             whole.log.len);
      XMT_ASSERT_BYTES_EQUAL(part.bytes.data, part.bytes.len, doc, len);
      free_events(&part);
    }
    free_events(&whole);
    free(doc);
    files++;
  }
  closedir(d);
  CU_ASSERT(files >= 18);
}

/* --- Exact events
 * -------------------------------------------------------------- */

static void expect_log(const char *doc, const char *expected) {
  struct events ev;
  CU_ASSERT_EQUAL(parse(doc, strlen(doc), 0, &ev, NULL, NULL, 0), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(ev.log.data, ev.log.len, expected, strlen(expected));
  XMT_ASSERT_BYTES_EQUAL(ev.bytes.data, ev.bytes.len, doc, strlen(doc));
  free_events(&ev);
}

#define HEAD                                                                   \
  "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\" "                           \
  "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n<file original=\"a\" "    \
  "source-language=\"en\" datatype=\"plaintext\"><body>\n"
#define TAIL "</body></file></xliff>\n"
#define HEAD_SDL                                                               \
  "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\" "                           \
  "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" "                           \
  "xmlns:sdl=\"http://sdl.com/FileTypes/SdlXliff/1.0\">\n<file "               \
  "original=\"a\" source-language=\"en\" datatype=\"x-sdlfilterframework2\">"  \
  "<body>\n"

static void test_unit_with_codes(void) {
  expect_log(HEAD "<trans-unit id=\"1\"><source>A <g id=\"1\">b</g><x "
                  "id=\"2\"/> &amp; <bx id=\"3\"/>c<ex id=\"3\"/></source>"
                  "</trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=1 tr=1 seg=0 target=0 state=- line=4 n=1 mid=- "
             "[A b & c] open:g:1@2=<g id=\"1\"> close:g:1@3=</g> "
             "ph:x:2@3=<x id=\"2\"/> open:bx:3@6=<bx id=\"3\"/> "
             "close:ex:3@7=<ex id=\"3\"/>\n");
}

static void test_segmented_unit(void) {
  expect_log(HEAD "<trans-unit id=\"s\"><source>One. Two.</source>\n"
                  "<seg-source><g id=\"1\"><mrk mtype=\"seg\" mid=\"0\">One."
                  "</mrk> <mrk mtype=\"seg\" mid=\"1\">Two.</mrk></g>"
                  "</seg-source>\n<target state=\"translated\">Uno. Dos."
                  "</target></trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=s tr=1 seg=1 target=1 state=translated line=4 n=2 "
             "mid=0 [One.] mid=1 [Two.] existing [Uno. Dos.]\n");
}

static void test_translate_inheritance(void) {
  expect_log(HEAD "<group translate=\"no\"><trans-unit id=\"a\"><source>x"
                  "</source></trans-unit><group><trans-unit id=\"b\"><source>"
                  "y</source></trans-unit></group><trans-unit id=\"c\" "
                  "translate=\"yes\"><source>z</source></trans-unit></group>"
                  "<trans-unit id=\"d\"><source>w</source><target/>"
                  "</trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=a tr=0 seg=0 target=0 state=- line=4 n=1 mid=- [x]\n"
             "unit id=b tr=0 seg=0 target=0 state=- line=4 n=1 mid=- [y]\n"
             "unit id=c tr=1 seg=0 target=0 state=- line=4 n=1 mid=- [z]\n"
             "unit id=d tr=1 seg=0 target=0 state=- line=4 n=1 mid=- [w] "
             "existing []\n");
}

static void test_alt_trans_not_target(void) {
  /* source and target inside alt-trans are not the unit's. */
  expect_log(HEAD "<trans-unit id=\"1\"><source>a</source><alt-trans>"
                  "<source>b</source><target>c</target></alt-trans>"
                  "<note>n</note></trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=1 tr=1 seg=0 target=0 state=- line=4 n=1 mid=- [a]\n");
}

static void test_no_namespace(void) {
  expect_log("<xliff version=\"1.2\"><file original=\"f\" "
             "source-language=\"de\" target-language=\"en\"><body>"
             "<trans-unit id=\"1\"><source>S<![CDATA[<b>]]>&#x41;</source>"
             "</trans-unit></body></file></xliff>",
             "file original=f src=de tgt=en line=1\n"
             "unit id=1 tr=1 seg=0 target=0 state=- line=1 n=1 mid=- "
             "[S<b>A]\n");
}

/* --- Encodings
 * ---------------------------------------------------------------- */

static void test_utf16_and_latin1(void) {
  static const char utf16le[] =
      "\xFF\xFE<\0x\0l\0i\0f\0f\0 \0v\0e\0r\0s\0i\0o\0n\0=\0'\0\x31\0.\0"
      "2\0'\0>\0<\0f\0i\0l\0e\0>\0<\0t\0r\0a\0n\0s\0-\0u\0n\0i\0t\0 \0i\0"
      "d\0=\0'\0\x31\0'\0>\0<\0s\0o\0u\0r\0c\0e\0>\0\xE9\0\x3D\xD8\x00\xDE"
      "<\0/\0s\0o\0u\0r\0c\0e\0>\0<\0/\0t\0r\0a\0n\0s\0-\0u\0n\0i\0t\0>\0"
      "<\0/\0f\0i\0l\0e\0>\0<\0/\0x\0l\0i\0f\0f\0>\0";
  for (size_t chunk = 0; chunk <= 3; chunk++) {
    struct events ev;
    CU_ASSERT_EQUAL(
        parse(utf16le, sizeof utf16le - 1, chunk, &ev, NULL, NULL, 0), XMT_OK);
    const char *expected = "file original=- src=- tgt=- line=1\n"
                           "unit id=1 tr=1 seg=0 target=0 state=- line=1 n=1 "
                           "mid=- [\xC3\xA9\xF0\x9F\x98\x80]\n";
    XMT_ASSERT_BYTES_EQUAL(ev.log.data, ev.log.len, expected, strlen(expected));
    /* Bytes come out as UTF-8; encoding them back restores the input. */
    struct xmt_buf back = {0};
    CU_ASSERT_EQUAL(
        xmt_encode(XMT_ENC_UTF16LE, ev.bytes.data, ev.bytes.len, 0, &back),
        XMT_OK);
    XMT_ASSERT_BYTES_EQUAL(back.data, back.len, utf16le, sizeof utf16le - 1);
    xmt_buf_free(&back);
    free_events(&ev);
  }
  static const char latin1[] =
      "<?xml version='1.0' encoding='ISO-8859-1'?><xliff version='1.2'>"
      "<file><trans-unit id='1'><source>caf\xE9</source></trans-unit></file>"
      "</xliff>";
  struct events ev;
  CU_ASSERT_EQUAL(parse(latin1, sizeof latin1 - 1, 1, &ev, NULL, NULL, 0),
                  XMT_OK);
  CU_ASSERT_PTR_NOT_NULL(strstr(ev.log.data, "[caf\xC3\xA9]"));
  free_events(&ev);
}

/* --- Bad input
 * ------------------------------------------------------------------- */

static void expect_error(const char *doc, size_t len, xmt_status status,
                         unsigned long line, unsigned long column,
                         const char *words) {
  for (size_t chunk = 0; chunk <= 2; chunk++) {
    struct events ev;
    struct xmt_error err;
    char msg[512];
    xmt_status st = parse(doc, len, chunk, &ev, &err, msg, sizeof msg);
    CU_ASSERT_EQUAL(st, status);
    CU_ASSERT_EQUAL(err.status, status);
    CU_ASSERT_EQUAL(err.line, line);
    CU_ASSERT_EQUAL(err.column, column);
    if (strstr(msg, words) == NULL) {
      fprintf(stderr, "\nmessage «%s» lacks «%s»\n", msg, words);
      CU_FAIL("message");
    }
    free_events(&ev);
  }
}

static void test_bad_input(void) {
  const char *mismatch = HEAD "<trans-unit id=\"1\"><source>a <g id=\"1\">b"
                              "</source></trans-unit>\n" TAIL;
  expect_error(mismatch, strlen(mismatch), XMT_ERR_XML, 4, 41, "mismatched");
  const char *html = "<html><body/></html>";
  expect_error(html, strlen(html), XMT_ERR_NOT_XLIFF, 1, 1, "<html>");
  const char *v2 = "<xliff version=\"2.0\" "
                   "xmlns=\"urn:oasis:names:tc:xliff:document:2.0\"/>";
  expect_error(v2, strlen(v2), XMT_ERR_NOT_XLIFF, 1, 1, "2.0");
  const char *enc = "<?xml version=\"1.0\" encoding=\"EBCDIC-FOO\"?>\n<xliff/>";
  expect_error(enc, strlen(enc), XMT_ERR_ENCODING, 1, 31, "EBCDIC-FOO");
  const char *charref = HEAD "<trans-unit id=\"1\"><source>a&#x1;</source>"
                             "</trans-unit>\n" TAIL;
  expect_error(charref, strlen(charref), XMT_ERR_XML, 4, 29,
               "reference to invalid character");
  const char *bpt = HEAD "<trans-unit id=\"u\"><source>a\n<bpt id=\"5\">x"
                         "</bpt>b</source></trans-unit>\n" TAIL;
  expect_error(bpt, strlen(bpt), XMT_ERR_INLINE, 5, 1,
               "unpaired <bpt id=\"5\"> in <source>: no matching <ept>");
  const char *ept = HEAD "<trans-unit id=\"u\"><source>a<ept id=\"3\">x</ept>"
                         "</source></trans-unit>\n" TAIL;
  expect_error(ept, strlen(ept), XMT_ERR_INLINE, 4, 29,
               "unpaired <ept id=\"3\">");
  /* each bpt takes the first free ept after it, of its own id: an ept
   * before its bpt, or one more than there are bpts, stays unpaired */
  const char *before = HEAD "<trans-unit id=\"u\"><source><ept id=\"1\">x"
                            "</ept>a<bpt id=\"1\">x</bpt>"
                            "</source></trans-unit>\n" TAIL;
  expect_error(before, strlen(before), XMT_ERR_INLINE, 4, 48,
               "unpaired <bpt id=\"1\"> in <source>: no matching <ept>");
  const char *extra = HEAD "<trans-unit id=\"u\"><source><bpt id=\"1\">x"
                           "</bpt><bpt id=\"2\">x</bpt><ept id=\"2\">x</ept>"
                           "<ept id=\"1\">x</ept><ept id=\"1\">x</ept>"
                           "</source></trans-unit>\n" TAIL;
  expect_error(extra, strlen(extra), XMT_ERR_INLINE, 4, 104,
               "unpaired <ept id=\"1\"> in <source>: no matching <bpt>");
  const char *utf8 = HEAD "<trans-unit id=\"1\"><source>a\xFF</source>"
                          "</trans-unit>\n" TAIL;
  expect_error(utf8, strlen(utf8), XMT_ERR_ENCODING, 4, 29, "invalid UTF-8");
  const char *cut = HEAD "<trans-unit id=\"1\"><source>a</sou";
  expect_error(cut, strlen(cut), XMT_ERR_XML, 4, 29, "");
  static const char odd[] = "\xFF\xFE<\0x\0/\0>";
  expect_error(odd, sizeof odd - 1, XMT_ERR_ENCODING, 1, 4, "UTF-16LE");
  expect_error("", 0, XMT_ERR_XML, 1, 1, "no element");
}

/* A bx in one segment and its ex in the next are fine: each is isolated. */
static void test_bx_across_segments(void) {
  expect_log(HEAD
             "<trans-unit id=\"1\"><source>a<bx id=\"1\"/>b c<ex id=\"1\"/>"
             "</source><seg-source><mrk mtype=\"seg\" mid=\"0\">a<bx "
             "id=\"1\"/>b</mrk> <mrk mtype=\"seg\" mid=\"1\">c<ex "
             "id=\"1\"/></mrk></seg-source></trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=1 tr=1 seg=1 target=0 state=- line=4 n=2 mid=0 [ab] "
             "iopen:bx:1@1=<bx id=\"1\"/> mid=1 [c] iclose:ex:1@1=<ex "
             "id=\"1\"/>\n");
}

/* A bx whose ex is in a later unit (Okapi writes these for a run of
 * formatting over two paragraphs) is an isolated code in each; rid pairs
 * a bx with an ex whose id differs. */
static void test_bx_across_units(void) {
  expect_log(HEAD "<trans-unit id=\"1\"><source><bx id=\"1\"/> The report."
                  "</source></trans-unit>\n<trans-unit id=\"2\"><source>It "
                  "ends.<ex id=\"1\"/></source></trans-unit>\n"
                  "<trans-unit id=\"3\"><source><ex id=\"7\"/>a<bx id=\"8\" "
                  "rid=\"r\"/>b<ex id=\"9\" rid=\"r\"/><bx id=\"9\"/>"
                  "</source></trans-unit>\n" TAIL,
             "file original=a src=en tgt=- line=3\n"
             "unit id=1 tr=1 seg=0 target=0 state=- line=4 n=1 mid=- "
             "[ The report.] iopen:bx:1@0=<bx id=\"1\"/>\n"
             "unit id=2 tr=1 seg=0 target=0 state=- line=5 n=1 mid=- "
             "[It ends.] iclose:ex:1@8=<ex id=\"1\"/>\n"
             "unit id=3 tr=1 seg=0 target=0 state=- line=6 n=1 mid=- [ab] "
             "iclose:ex:7@0=<ex id=\"7\"/> open:bx:r@1=<bx id=\"8\" "
             "rid=\"r\"/> close:ex:r@2=<ex id=\"9\" rid=\"r\"/> "
             "iopen:bx:9@2=<bx id=\"9\"/>\n");
}

/* What a unit says of its segments: "id: target=T w=WANTED l=LOCKED". */
static int ev_wanted(void *user, xmt_xliff_unit *u) {
  struct events *ev = user;
  char line[256];
  snprintf(line, sizeof line, "%s: target=%d w=", xmt_xliff_unit_id(u),
           xmt_xliff_unit_has_target(u));
  xmt_buf_append_str(&ev->log, line);
  for (size_t i = 0; i < xmt_xliff_unit_segment_count(u); i++)
    xmt_buf_append_str(&ev->log,
                       xmt_xliff_unit_segment_wanted(u, i, 0) ? "1" : "0");
  xmt_buf_append_str(&ev->log, " overwrite=");
  for (size_t i = 0; i < xmt_xliff_unit_segment_count(u); i++)
    xmt_buf_append_str(&ev->log,
                       xmt_xliff_unit_segment_wanted(u, i, 1) ? "1" : "0");
  xmt_buf_append_str(&ev->log, " l=");
  for (size_t i = 0; i < xmt_xliff_unit_segment_count(u); i++)
    xmt_buf_append_str(&ev->log,
                       xmt_xliff_unit_segment_locked(u, i) ? "1" : "0");
  xmt_buf_append_str(&ev->log, "\n");
  xmt_xliff_unit_free(u);
  return 0;
}

/* Parses doc whole and in 1-byte chunks; returns the wanted log of the
 * whole parse (to free) and the document's version. */
static char *wanted_log(const char *doc, const char **version) {
  static const struct xmt_xliff_reader_callbacks cb = {ev_skeleton, NULL,
                                                       ev_wanted};
  char *logs[2] = {NULL, NULL};
  for (int pass = 0; pass < 2; pass++) {
    struct events ev;
    memset(&ev, 0, sizeof ev);
    xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &ev);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    xmt_status st = XMT_OK;
    size_t len = strlen(doc);
    if (pass == 0)
      st = xmt_xliff_reader_parse(r, doc, len, 1);
    for (size_t at = 0; pass == 1 && st == XMT_OK && at <= len; at++)
      st = xmt_xliff_reader_parse(r, doc + at, at < len, at == len);
    CU_ASSERT_EQUAL(st, XMT_OK);
    *version = xmt_xliff_reader_version(r);
    xmt_xliff_reader_free(r);
    xmt_buf_append_byte(&ev.log, '\0');
    logs[pass] = ev.log.data;
    xmt_buf_free(&ev.bytes);
  }
  CU_ASSERT_STRING_EQUAL(logs[0], logs[1]);
  free(logs[1]);
  return logs[0];
}

static void wanted_is(const char *doc, const char *want_version,
                      const char *want) {
  const char *version = NULL;
  char *log = wanted_log(doc, &version);
  CU_ASSERT_STRING_EQUAL(version, want_version);
  if (strcmp(log, want) != 0)
    fprintf(stderr, "\ngot\n%swant\n%s", log, want);
  CU_ASSERT_STRING_EQUAL(log, want);
  free(log);
}

/* XLIFF 1.0 (no namespace), 1.1 and 1.2 (with a prefix too); an element
 * of another version's namespace is not the document's. */
static void test_versions(void) {
  wanted_is("<!DOCTYPE xliff PUBLIC \"-//XLIFF//DTD XLIFF//EN\" "
            "\"http://www.oasis-open.org/committees/xliff/documents/"
            "xliff.dtd\">\n<xliff version=\"1.0\"><file original=\"a\" "
            "source-language=\"en\" datatype=\"plaintext\"><body><trans-unit "
            "id=\"a\"><source>A</source></trans-unit></body></file></xliff>",
            "1.0", "a: target=0 w=1 overwrite=1 l=0\n");
  wanted_is("<xliff version=\"1.1\" xmlns=\"urn:oasis:names:tc:xliff:document:"
            "1.1\"><file original=\"a\" source-language=\"en\" "
            "datatype=\"plaintext\"><body><trans-unit id=\"b\"><source>B"
            "</source><target>b</target></trans-unit><trans-unit xmlns="
            "\"urn:oasis:names:tc:xliff:document:1.2\" id=\"c\"><source>C"
            "</source></trans-unit></body></file></xliff>",
            "1.1", "b: target=1 w=1 overwrite=1 l=0\n");
  wanted_is("<x:xliff version=\"1.2\" xmlns:x=\"urn:oasis:names:tc:xliff:"
            "document:1.2\"><x:file original=\"a\" source-language=\"en\" "
            "datatype=\"plaintext\"><x:body><x:trans-unit id=\"d\"><x:source>"
            "D</x:source></x:trans-unit></x:body></x:file></x:xliff>",
            "1.2", "d: target=0 w=1 overwrite=1 l=0\n");
  /* The namespace says which version, whatever the attribute says. */
  wanted_is("<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:"
            "1.1\"/>",
            "1.1", "");
  const char *v3 = "<xliff version=\"1.3\"/>";
  expect_error(v3, strlen(v3), XMT_ERR_NOT_XLIFF, 1, 1,
               "XLIFF version 1.3 is not supported (only XLIFF 1.0, 1.1 and "
               "1.2)");
}

/* Trados's targets: an empty mrk per segment yet to translate; locked
 * segments are never wanted; a target that is all there is kept. Another
 * tool's target whose mrks leave a segment out translates no unit. */
static void test_segment_targets(void) {
  wanted_is(HEAD_SDL
            "<trans-unit id=\"empty\"><source>A. B.</source><seg-source>"
            "<mrk mtype=\"seg\" mid=\"1\">A.</mrk> <mrk mtype=\"seg\" "
            "mid=\"2\">B.</mrk></seg-source><target><mrk mtype=\"seg\" "
            "mid=\"1\"/> <mrk mtype=\"seg\" mid=\"2\"> </mrk></target>"
            "<sdl:seg-defs><sdl:seg id=\"1\"/><sdl:seg id=\"2\"/>"
            "</sdl:seg-defs></trans-unit>\n"
            "<trans-unit id=\"half\"><source>A. B.</source><seg-source>"
            "<mrk mtype=\"seg\" mid=\"3\">A.</mrk> <mrk mtype=\"seg\" "
            "mid=\"4\">B.</mrk></seg-source><target><mrk mtype=\"seg\" "
            "mid=\"3\">a.</mrk> <mrk mtype=\"seg\" mid=\"4\"></mrk></target>"
            "<sdl:seg-defs><sdl:seg id=\"3\" conf=\"Translated\"/><sdl:seg "
            "id=\"4\"/></sdl:seg-defs></trans-unit>\n"
            "<trans-unit id=\"lock\"><source>A. B.</source><seg-source>"
            "<mrk mtype=\"seg\" mid=\"5\">A.</mrk> <mrk mtype=\"seg\" "
            "mid=\"6\">B.</mrk></seg-source><target><mrk mtype=\"seg\" "
            "mid=\"5\"/> <mrk mtype=\"seg\" mid=\"6\">b.</mrk></target>"
            "<sdl:seg-defs><sdl:seg id=\"5\" locked=\"true\"><sdl:value "
            "key=\"x\">y</sdl:value></sdl:seg><sdl:seg id=\"6\"/>"
            "</sdl:seg-defs></trans-unit>\n"
            "<trans-unit id=\"done\"><source>A.</source><seg-source><mrk "
            "mtype=\"seg\" mid=\"7\">A.</mrk></seg-source><target><mrk "
            "mtype=\"seg\" mid=\"7\">a.</mrk></target></trans-unit>\n"
            "<trans-unit id=\"other\"><source>A. B.</source><seg-source>"
            "<mrk mtype=\"seg\" mid=\"8\">A.</mrk> <mrk mtype=\"seg\" "
            "mid=\"9\">B.</mrk></seg-source><target><mrk mtype=\"seg\" "
            "mid=\"8\"/></target></trans-unit>\n" TAIL,
            "1.2",
            "empty: target=0 w=11 overwrite=11 l=00\n"
            "half: target=0 w=01 overwrite=11 l=00\n"
            "lock: target=1 w=00 overwrite=01 l=10\n"
            "done: target=1 w=0 overwrite=1 l=0\n"
            /* A target without a mrk for each segment is taken whole. */
            "other: target=0 w=11 overwrite=11 l=00\n");
}

/* Trados copies a segment's codes into its target mrk: with no text of
 * its own and nothing confirmed, such a segment still wants a translation.
 * Confirmed (each conf value) and locked ones do not, nor one with text,
 * nor codes that came from somewhere (origin other than not-translated),
 * nor codes-only mrks outside SDLXLIFF. */
static void test_sdl_prefilled_targets(void) {
  wanted_is(
      HEAD_SDL
      "<trans-unit id=\"inside\"><source>Press <x id=\"148\"/> now."
      "</source><seg-source><mrk mtype=\"seg\" mid=\"1\">Press <x "
      "id=\"148\"/> now.</mrk></seg-source><target><mrk mtype=\"seg\" "
      "mid=\"1\"><x id=\"148\"/></mrk></target><sdl:seg-defs><sdl:seg "
      "id=\"1\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"outside\"><source>Click <x id=\"149\"/> twice. "
      "<x id=\"150\"/>Wait.</source><seg-source><mrk mtype=\"seg\" "
      "mid=\"2\">Click <x id=\"149\"/> twice.</mrk> <mrk mtype=\"seg\" "
      "mid=\"3\"><x id=\"150\"/>Wait.</mrk></seg-source><target><mrk "
      "mtype=\"seg\" mid=\"2\"/><x id=\"149\"/> <x id=\"150\"/><mrk "
      "mtype=\"seg\" mid=\"3\"></mrk></target><sdl:seg-defs><sdl:seg "
      "id=\"2\" origin=\"not-translated\"/><sdl:seg id=\"3\" "
      "origin=\"not-translated\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"g\"><source>The <g id=\"pt5\">Save <x "
      "id=\"152\"/></g> menu. Use <g id=\"pt6\">bold</g>.</source>"
      "<seg-source><mrk mtype=\"seg\" mid=\"4\">The <g id=\"pt5\">Save <x "
      "id=\"152\"/></g> menu.</mrk> <mrk mtype=\"seg\" mid=\"5\">Use <g "
      "id=\"pt6\">bold</g>.</mrk></seg-source><target><mrk mtype=\"seg\" "
      "mid=\"4\"><g id=\"pt5\"><x id=\"152\"/></g></mrk> <mrk "
      "mtype=\"seg\" mid=\"5\"><g id=\"pt6\"> </g></mrk></target>"
      "<sdl:seg-defs><sdl:seg id=\"4\" origin=\"not-translated\"/>"
      "<sdl:seg id=\"5\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"lock\"><source>ACME <x id=\"153\"/></source>"
      "<seg-source><mrk mtype=\"seg\" mid=\"7\">ACME <x id=\"153\"/></mrk>"
      "</seg-source><target><mrk mtype=\"seg\" mid=\"7\"><x id=\"153\"/>"
      "</mrk></target><sdl:seg-defs><sdl:seg id=\"7\" locked=\"true\" "
      "origin=\"not-translated\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"conf\"><source>A <x id=\"1\"/> B. C. D <g "
      "id=\"2\">E</g>.</source><seg-source><mrk mtype=\"seg\" mid=\"8\">A "
      "<x id=\"1\"/> B.</mrk> <mrk mtype=\"seg\" mid=\"9\">C.</mrk> <mrk "
      "mtype=\"seg\" mid=\"10\">D <g id=\"2\">E</g>.</mrk></seg-source>"
      "<target><mrk mtype=\"seg\" mid=\"8\"><x id=\"1\"/></mrk> <mrk "
      "mtype=\"seg\" mid=\"9\"/> <mrk mtype=\"seg\" mid=\"10\"><g "
      "id=\"2\"></g></mrk></target><sdl:seg-defs><sdl:seg id=\"8\" "
      "conf=\"Translated\"/><sdl:seg id=\"9\" conf=\"ApprovedTranslation\" "
      "origin=\"not-translated\"/><sdl:seg id=\"10\" "
      "conf=\"ApprovedSignOff\" origin=\"interactive\"><sdl:prev-origin "
      "origin=\"not-translated\"/></sdl:seg></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"text\"><source>Click <x id=\"155\"/>.</source>"
      "<seg-source><mrk mtype=\"seg\" mid=\"11\">Click <x id=\"155\"/>."
      "</mrk></seg-source><target><mrk mtype=\"seg\" mid=\"11\">Pulse <x "
      "id=\"155\"/>.</mrk></target><sdl:seg-defs><sdl:seg id=\"11\" "
      "conf=\"Draft\" origin=\"interactive\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"answer\"><source>A<x id=\"3\"/>. B<x id=\"4\"/>."
      "</source><seg-source><mrk mtype=\"seg\" mid=\"12\">A<x id=\"3\"/>."
      "</mrk> <mrk mtype=\"seg\" mid=\"13\">B<x id=\"4\"/>.</mrk>"
      "</seg-source><target><mrk mtype=\"seg\" mid=\"12\"><x id=\"3\"/>"
      "</mrk> <mrk mtype=\"seg\" mid=\"13\"><x id=\"4\"/></mrk></target>"
      "<sdl:seg-defs><sdl:seg id=\"12\" conf=\"Draft\" origin=\"tm\" "
      "percent=\"75\"/><sdl:seg id=\"13\" conf=\"Draft\" "
      "origin=\"not-translated\"/></sdl:seg-defs></trans-unit>\n"
      "<trans-unit id=\"okapi\"><source>A <x id=\"1\"/>.</source>"
      "<seg-source><mrk mtype=\"seg\" mid=\"1\">A <x id=\"1\"/>.</mrk>"
      "</seg-source><target><mrk mtype=\"seg\" mid=\"1\"><x id=\"1\"/>"
      "</mrk></target></trans-unit>\n" TAIL,
      "1.2",
      "inside: target=0 w=1 overwrite=1 l=0\n"
      "outside: target=0 w=11 overwrite=11 l=00\n"
      "g: target=0 w=11 overwrite=11 l=00\n"
      "lock: target=1 w=0 overwrite=0 l=1\n"
      "conf: target=1 w=000 overwrite=111 l=000\n"
      "text: target=1 w=0 overwrite=1 l=0\n"
      "answer: target=0 w=01 overwrite=11 l=00\n"
      "okapi: target=1 w=0 overwrite=1 l=0\n");
}

/* The codes between the segments of seg-source and target: "s" or "t",
 * then the element, or the two tags of a pair that holds a segment. The
 * codes inside an outside pair are outside too. */
static int ev_outside(void *user, xmt_xliff_unit *u) {
  struct events *ev = user;
  xmt_buf_append_str(&ev->log, u->id);
  xmt_buf_append_str(&ev->log, ":");
  for (size_t k = 0; k < u->noutside; k++) {
    const struct xmt_outside_code *c = &u->outside[k];
    const char *raw = u->raw.data;
    xmt_buf_append_str(&ev->log, c->in_target ? " t" : " s");
    if (!c->holds_segment) {
      xmt_buf_append(&ev->log, raw + c->whole.start,
                     c->whole.end - c->whole.start);
      continue;
    }
    xmt_buf_append(&ev->log, raw + c->whole.start, c->tag_end - c->whole.start);
    xmt_buf_append_str(&ev->log, "|");
    xmt_buf_append(&ev->log, raw + c->close_start,
                   c->whole.end - c->close_start);
  }
  xmt_buf_append_str(&ev->log, "\n");
  xmt_xliff_unit_free(u);
  return 0;
}

static void test_outside_codes(void) {
  static const char doc[] = HEAD_SDL
      "<trans-unit id=\"a\"><source>A. B.<x id=\"pt3\"/>C.</source>"
      "<seg-source><g id=\"1\"><mrk mtype=\"seg\" mid=\"1\">A.</mrk></g> "
      "<mrk mtype=\"seg\" mid=\"2\">B.</mrk><x id=\"pt3\"/><mrk "
      "mtype=\"seg\" mid=\"3\">C.</mrk></seg-source><target><x id=\"9\"/>"
      "<g id=\"1\"><mrk mtype=\"seg\" mid=\"1\"><x id=\"8\"/></mrk><g "
      "id=\"2\"><x id=\"7\"/></g></g> <mrk mtype=\"seg\" mid=\"2\"/><bpt "
      "id=\"5\">&lt;b&gt;</bpt><ept id=\"5\">&lt;/b&gt;</ept><x "
      "id=\"pt3\"/><mrk mtype=\"seg\" mid=\"3\"/></target></trans-unit>\n"
      "<trans-unit id=\"b\"><source>D.</source><target><x id=\"1\"/>d."
      "</target></trans-unit>\n" TAIL;
  static const struct xmt_xliff_reader_callbacks cb = {ev_skeleton, NULL,
                                                       ev_outside};
  for (size_t chunk = 0; chunk <= 3; chunk++) {
    struct events ev;
    memset(&ev, 0, sizeof ev);
    xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &ev);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    size_t len = strlen(doc), step = chunk == 0 ? len : chunk;
    xmt_status st = XMT_OK;
    for (size_t at = 0; st == XMT_OK && at < len; at += step)
      st = xmt_xliff_reader_parse(r, doc + at,
                                  len - at < step ? len - at : step, 0);
    if (st == XMT_OK)
      st = xmt_xliff_reader_parse(r, NULL, 0, 1);
    CU_ASSERT_EQUAL(st, XMT_OK);
    static const char want[] =
        "a: s<g id=\"1\">|</g> s<x id=\"pt3\"/> t<x id=\"9\"/> t<g "
        "id=\"1\">|</g> t<g id=\"2\"><x id=\"7\"/></g> t<x id=\"7\"/> "
        "t<bpt id=\"5\">&lt;b&gt;</bpt> t<ept id=\"5\">&lt;/b&gt;</ept> t<x "
        "id=\"pt3\"/>\n"
        "b:\n";
    XMT_ASSERT_BYTES_EQUAL(ev.log.data, ev.log.len, want, sizeof want - 1);
    xmt_xliff_reader_free(r);
    xmt_buf_free(&ev.log);
    xmt_buf_free(&ev.bytes);
  }
}

CU_TestInfo reader_tests[] = {
    {"every Okapi fixture, whole and in 1..5-byte chunks",
     test_okapi_fixtures_chunked},
    {"unit with inline codes", test_unit_with_codes},
    {"segmented unit with existing target", test_segmented_unit},
    {"translate inheritance and empty target", test_translate_inheritance},
    {"alt-trans source/target are not the unit's", test_alt_trans_not_target},
    {"no namespace, CDATA, character reference", test_no_namespace},
    {"UTF-16LE and ISO-8859-1 input", test_utf16_and_latin1},
    {"bad input: position and message", test_bad_input},
    {"bx and ex in different segments", test_bx_across_segments},
    {"bx and ex in different units, rid", test_bx_across_units},
    {"XLIFF 1.0, 1.1 and 1.2", test_versions},
    {"segment targets, SDLXLIFF locks", test_segment_targets},
    {"SDLXLIFF targets of codes only", test_sdl_prefilled_targets},
    {"codes between segments", test_outside_codes},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff reader", NULL, NULL, NULL, NULL, reader_tests}, CU_SUITE_INFO_NULL};
