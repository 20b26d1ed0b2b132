/* test_filter_xliff2_rules.c -- check's XLIFF 2 rules (rules.c) read as
 * a stream, a part (a unit) at a time, find what they find in the
 * document held whole: the same findings, in the same order, at the same
 * lines and columns, on every fixture of XLIFF 2 and in any chunk size;
 * and a document broken after some units is told as far as it goes. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "stream_private.h"

static const char *const folders[] = {"xliff2", "xliff2-invalid",
                                      "xliff2-valid", NULL};

/* Each finding a line of out: "LINE:COLUMN UNIT w|e MESSAGE". */
static int keep_finding(void *user, unsigned long line, unsigned long column,
                        const char *unit_id, const char *message, int warning) {
  char head[160];
  snprintf(head, sizeof head, "%lu:%lu %s %c ", line, column,
           unit_id != NULL ? unit_id : "-", warning ? 'w' : 'e');
  xmt_buf_append_str(user, head);
  xmt_buf_append_str(user, message);
  xmt_buf_append_str(user, "\n");
  return 0;
}

/* The rules over the document held whole; 0 when it is not UTF-8 as
 * its encoding says (the stream tells that, not the rules). */
static int whole(const char *path, struct xmt_buf *out) {
  size_t len = 0;
  char *bytes = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  struct xmt_buf data = {0};
  if (len > 0)
    CU_ASSERT_EQUAL_FATAL(xmt_buf_append(&data, bytes, len), XMT_OK);
  free(bytes);
  struct x2_doc d;
  memset(&d, 0, sizeof d);
  d.path = path;
  struct xmt_error_store err = {0};
  int read = xmt_x2_utf8(&d, &data, &err) == XMT_OK;
  if (read) {
    xmt_status st = xmt_x2_check_rules(&d, keep_finding, out);
    CU_ASSERT(st == XMT_OK || st == XMT_ERR_XML);
  }
  xmt_buf_free(&data);
  xmt_x2_free(&d);
  xmt_error_clear(&err);
  return read;
}

/* The rules over the document read as a stream, chunk bytes at a time. */
static void streamed(const char *path, size_t chunk, struct xmt_buf *out) {
  FILE *fp = fopen(path, "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  struct xmt_error_store err = {0};
  struct x2_stream *s = NULL;
  struct x2_rules *rules = NULL;
  xmt_status opened = xmt_x2_stream_open(&s, fp, path, chunk, &err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_EQUAL_FATAL(xmt_x2_rules_new(&rules, keep_finding, out), XMT_OK);
  xmt_status st = xmt_x2_stream_rules(s, rules, opened);
  /* a document that cannot be read fails with the reader's error */
  CU_ASSERT(st != XMT_ERR_NOMEM && st != XMT_ERR_ABORTED);
  xmt_x2_rules_free(rules);
  xmt_x2_stream_free(s);
  xmt_error_clear(&err);
}

static void compare(const char *path, size_t *files, size_t *told) {
  static const size_t chunks[] = {1, 3, 64, 500, 0};
  struct xmt_buf want = {0};
  if (!whole(path, &want)) {
    xmt_buf_free(&want);
    return;
  }
  (*files)++;
  *told += want.len > 0;
  for (size_t i = 0; i < sizeof chunks / sizeof *chunks; i++) {
    struct xmt_buf got = {0};
    streamed(path, chunks[i], &got);
    if (!xmt_test_bytes_equal(want.data, want.len, got.data, got.len, path,
                              (int)chunks[i]))
      CU_FAIL("the rules read as a stream differ from the document whole");
    xmt_buf_free(&got);
  }
  xmt_buf_free(&want);
}

static void test_fixtures(void) {
  size_t files = 0, told = 0;
  for (const char *const *folder = folders; *folder != NULL; folder++) {
    char dir[600];
    snprintf(dir, sizeof dir, "%s", xmt_test_fixture_path(*folder));
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
      size_t n = strlen(e->d_name);
      if (n < 5 || strcmp(e->d_name + n - 4, ".xlf") != 0)
        continue;
      char path[1200];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      compare(path, &files, &told);
    }
    closedir(d);
  }
  /* every fixture is read; some break rules */
  CU_ASSERT(files >= 40);
  CU_ASSERT(told >= 3);
}

/* text in a file of the scratch folder */
static const char *write_doc(const char *text) {
  const char *path = xmt_test_tmp_path("x2rules.xlf");
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  fclose(fp);
  return path;
}

static const char cross[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" "
    "srcLang=\"en\" trgLang=\"fr\">\n"
    "<file id=\"f1\">\n"
    "<unit id=\"u1\"><segment><source>\xce\x95\xce\xbb one.</source>"
    "</segment></unit>\n"
    "<unit id=\"u2\"><originalData><data id=\"d1\">b</data></originalData>\n"
    "<segment><source>Two <ph id=\"1\" dataRef=\"d2\"/> <sc id=\"2\"/>x."
    "<ec startRef=\"2\"/></source></segment>\n"
    "</unit>\n"
    "<group id=\"g1\">\n"
    "<unit id=\"u1\"><segment><source>\xce\x95\xce\xbb <ph id=\"1\"/> "
    "<ph id=\"1\"/>.</source></segment></unit>\n"
    "</group>\n"
    "<unit id=\"g1\"><segment><source>3.</source><target>T <ph id=\"9\"/>"
    "</target></segment></unit>\n"
    "</file>\n"
    "<file id=\"f2\"><unit id=\"u1\"><segment><source>4.</source></segment>"
    "</unit></file>\n"
    "<file id=\"f1\"><unit id=\"u9\"><segment><source>5.</source></segment>"
    "</unit></file>\n"
    "</xliff>\n";

/* What outlives a part: a <file>'s ids and the <file>s', told with the
 * place of the first; columns count characters. */
static void test_across_units(void) {
  static const char want[] =
      "6:22 u2 e dataRef=\"d2\" names no <data> in the <originalData> of its "
      "<unit> (XLIFF 2.0 §4.3.1.9)\n"
      "9:1 - e <unit> id \"u1\" is used more than once in its <file> (first "
      "at line 4, column 1) (XLIFF 2.0 §4.3.1.21)\n"
      "9:48 u1 e <ph> id \"1\" is used more than once in <unit> (first at "
      "line 9, column 35) (XLIFF 2.0 §4.3.1.21)\n"
      "11:1 - e <unit> id \"g1\" is used more than once in its <file> (first "
      "at line 8, column 1) (XLIFF 2.0 §4.3.1.21)\n"
      "11:15 g1 w <target> of segment 1 has an inline code <ph id=\"9\"> not "
      "in its <source>\n"
      "14:1 - e <file> id \"f1\" is used more than once in <xliff> (first at "
      "line 3, column 1) (XLIFF 2.0 §4.3.1.21)\n";
  const char *path = write_doc(cross);
  struct xmt_buf all = {0};
  CU_ASSERT(whole(path, &all));
  XMT_ASSERT_BYTES_EQUAL(all.data, all.len, want, sizeof want - 1);
  xmt_buf_free(&all);
  for (size_t chunk = 1; chunk < sizeof cross + 2; chunk += 37) {
    struct xmt_buf got = {0};
    streamed(path, chunk, &got);
    XMT_ASSERT_BYTES_EQUAL(got.data, got.len, want, sizeof want - 1);
    xmt_buf_free(&got);
  }
  remove(path);
}

/* The references that outlive a unit (subFlows to the units of its
 * <file>, told at the file's end) and those resolved at a unit's end,
 * the same streamed as whole. */
static void test_module_refs(void) {
  static const char doc[] =
      "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" "
      "xmlns:mtc=\"urn:oasis:names:tc:xliff:matches:2.0\" "
      "srcLang=\"en\"><file id=\"f\">\n"
      "<unit id=\"a\"><segment><source>1<ph id=\"1\" subFlows=\"c z\"/>"
      "</source></segment></unit>\n"
      "<unit id=\"b\"><mtc:matches><mtc:match ref=\"#t=m1\"><source>x"
      "</source><target>y</target></mtc:match></mtc:matches>\n"
      "<segment><source>2 <mrk id=\"m1\" type=\"comment\" ref=\"#n=9\">"
      "x</mrk></source></segment></unit>\n"
      "<unit id=\"c\"><segment><source>3.</source></segment></unit>\n"
      "</file><file id=\"g\">\n"
      "<unit id=\"d\"><segment><source>4<ph id=\"1\" subFlows=\"a\"/>"
      "</source></segment></unit>\n"
      "</file></xliff>\n";
  static const char want[] =
      "3:27 b e <mtc:match> ref=\"#t=m1\" names no segment, ignorable or "
      "marker of its <unit> (XLIFF 2.0 §5.1)\n"
      "4:20 b e <mrk> ref=\"#n=9\" names no <note> of its <unit> (XLIFF 2.0 "
      "§4.3.1.27)\n"
      "2:32 - e subFlows names \"z\", no <unit> of its <file> (XLIFF 2.0 "
      "§4.3.1.32)\n"
      "7:32 - e subFlows names \"a\", no <unit> of its <file> (XLIFF 2.0 "
      "§4.3.1.32)\n";
  const char *path = write_doc(doc);
  struct xmt_buf all = {0};
  CU_ASSERT(whole(path, &all));
  XMT_ASSERT_BYTES_EQUAL(all.data, all.len, want, sizeof want - 1);
  xmt_buf_free(&all);
  for (size_t chunk = 1; chunk < sizeof doc + 2; chunk += 31) {
    struct xmt_buf got = {0};
    streamed(path, chunk, &got);
    XMT_ASSERT_BYTES_EQUAL(got.data, got.len, want, sizeof want - 1);
    xmt_buf_free(&got);
  }
  remove(path);
}

/* A document malformed after some units: the rules tell what comes
 * before the error, as over the document whole. */
static void test_broken(void) {
  static const char doc[] =
      "<xliff version=\"2.0\" xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" "
      "srcLang=\"en\"><file id=\"f\">\n"
      "<unit id=\"a\"><segment><source>1.</source></segment></unit>\n"
      "<unit id=\"a\"><segment><source>2.</source></segment></unit>\n"
      "<unit id=\"b\"><segment><source>3 <ph id=\"1\"/><ph id=\"1\"/>"
      "</sourc></segment></unit>\n";
  static const char want[] =
      "3:1 - e <unit> id \"a\" is used more than once in its <file> (first "
      "at line 2, column 1) (XLIFF 2.0 §4.3.1.21)\n"
      "4:45 b e <ph> id \"1\" is used more than once in <unit> (first at "
      "line 4, column 33) (XLIFF 2.0 §4.3.1.21)\n";
  const char *path = write_doc(doc);
  struct xmt_buf all = {0};
  CU_ASSERT(whole(path, &all));
  XMT_ASSERT_BYTES_EQUAL(all.data, all.len, want, sizeof want - 1);
  xmt_buf_free(&all);
  for (size_t chunk = 1; chunk < sizeof doc + 2; chunk += 29) {
    struct xmt_buf got = {0};
    streamed(path, chunk, &got);
    XMT_ASSERT_BYTES_EQUAL(got.data, got.len, want, sizeof want - 1);
    xmt_buf_free(&got);
  }
  remove(path);
}

static CU_TestInfo tests[] = {
    {"streamed as whole, every fixture", test_fixtures},
    {"ids across units and files", test_across_units},
    {"broken after units", test_broken},
    {"module references across units", test_module_refs},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff2 rules", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
