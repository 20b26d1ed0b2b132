/* test_filter_office.c -- the zip packages of Word and OpenDocument files
 * (filter/office/): a rewrite keeps every entry not replaced byte for byte
 * (compressed bytes, method, CRC, order, names), a replaced entry is the
 * only one that changes, an ODF mimetype stays first and stored with no
 * extra field, the kind is told by content, and damaged, hostile or
 * oversized packages are refused with their exact message and leave no
 * output. Packages are compared through libzip, not through an unzip
 * tool, so that nothing else need be installed. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "harness.h"
#include "office_private.h"
#include "word_private.h"
#include "xmt_filter.h"

static int suite_init(void) { return xmt_test_tmpdir_create("office"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

static const char *data(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s", xmt_test_data_path(name));
  return path;
}

static void write_file(const char *path, const char *bytes, size_t len) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  CU_ASSERT_EQUAL(fwrite(bytes, 1, len, fp), len);
  fclose(fp);
}

/* The compressed bytes of entry i, as stored. */
static char *raw_entry(zip_t *za, zip_uint64_t i, zip_uint64_t *len) {
  zip_stat_t zs;
  if (zip_stat_index(za, i, 0, &zs) != 0)
    return NULL;
  char *bytes = malloc(zs.comp_size + 1);
  zip_file_t *zf = zip_fopen_index(za, i, ZIP_FL_COMPRESSED);
  if (bytes == NULL || zf == NULL) {
    free(bytes);
    return NULL;
  }
  zip_int64_t got = zip_fread(zf, bytes, zs.comp_size);
  zip_fclose(zf);
  *len = got < 0 ? 0 : (zip_uint64_t)got;
  return bytes;
}

/* Compares two packages entry by entry: same names in the same order,
 * same method, CRC, time and compressed bytes, except for the entry named
 * changed (NULL: none), whose name and place only must be the same.
 * Returns the number of entries that differ. */
static int compare_packages(const char *a_path, const char *b_path,
                            const char *changed) {
  int za_err = 0;
  zip_t *a = zip_open(a_path, ZIP_RDONLY, &za_err);
  zip_t *b = zip_open(b_path, ZIP_RDONLY, &za_err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  zip_int64_t n = zip_get_num_entries(a, 0);
  CU_ASSERT_EQUAL(zip_get_num_entries(b, 0), n);
  int diff = 0;
  for (zip_int64_t i = 0; i < n && i < zip_get_num_entries(b, 0); i++) {
    zip_stat_t sa, sb;
    CU_ASSERT_EQUAL(zip_stat_index(a, (zip_uint64_t)i, 0, &sa), 0);
    CU_ASSERT_EQUAL(zip_stat_index(b, (zip_uint64_t)i, 0, &sb), 0);
    CU_ASSERT_STRING_EQUAL(sa.name, sb.name);
    if (changed != NULL && strcmp(sa.name, changed) == 0)
      continue;
    zip_uint64_t la = 0, lb = 0;
    char *ra = raw_entry(a, (zip_uint64_t)i, &la);
    char *rb = raw_entry(b, (zip_uint64_t)i, &lb);
    int same = sa.comp_method == sb.comp_method && sa.crc == sb.crc &&
               sa.size == sb.size && sa.mtime == sb.mtime && ra != NULL &&
               rb != NULL && la == sa.comp_size && la == lb &&
               memcmp(ra, rb, la) == 0;
    if (!same) {
      fprintf(stderr, "\n%s: entry %s differs\n", b_path, sa.name);
      diff++;
    }
    free(ra);
    free(rb);
  }
  zip_discard(a);
  zip_discard(b);
  return diff;
}

static unsigned le16(const unsigned char *p) {
  return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static const char *const samples[] = {"office/UTF8.docx",
                                      "office/reordered-zip.docx",
                                      "office/TestDocument06.odt"};

static void test_identity(void) {
  for (size_t k = 0; k < sizeof samples / sizeof *samples; k++) {
    struct xmt_error_store err = {0};
    xmt_package *pkg = NULL;
    const char *in = data(samples[k]);
    const char *out = xmt_test_tmp_path("identity.zip");
    CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, in, NULL, &err), XMT_OK);
    CU_ASSERT_EQUAL(xmt_package_write(pkg, out, NULL, 0, &err), XMT_OK);
    CU_ASSERT_EQUAL(compare_packages(in, out, NULL), 0);
    xmt_package_free(pkg);
    unlink(out);
    xmt_error_clear(&err);
  }
}

/* Replaces name in the sample with new bytes: that entry reads back as
 * them, every other is unchanged. */
static void replace_one(const char *sample, const char *name) {
  static const char doc[] = "<?xml version=\"1.0\"?><x>replaced</x>";
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  const char *in = data(sample);
  const char *out = xmt_test_tmp_path("replaced.zip");
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, in, NULL, &err), XMT_OK);
  struct xmt_package_part part = {name, doc, sizeof doc - 1};
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, &part, 1, &err), XMT_OK);
  xmt_package_free(pkg);
  CU_ASSERT_EQUAL(compare_packages(in, out, name), 0);
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, out, NULL, &err), XMT_OK);
  struct xmt_buf buf = {0};
  long i = xmt_package_find(pkg, name);
  CU_ASSERT_FATAL(i >= 0);
  CU_ASSERT_EQUAL(xmt_package_read(pkg, (size_t)i, 0, &buf, &err), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(buf.data, buf.len, doc, sizeof doc - 1);
  xmt_buf_free(&buf);
  xmt_package_free(pkg);
  /* The original differs there: the test can see a change. */
  CU_ASSERT_EQUAL(compare_packages(in, out, NULL), 1);
  unlink(out);
  xmt_error_clear(&err);
}

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* Local headers that leave out the compressed size (0, with no data
 * descriptor), as the writer of Okapi's 992.docx does: Word, unzip and
 * Python read such files by their central directory, and so must we. */
static void test_sloppy_local_headers(void) {
  size_t len = 0;
  unsigned char *z =
      (unsigned char *)xmt_test_read_file(data("office/UTF8.docx"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(z);
  size_t at = 0;
  int cleared = 0;
  while (at + 30 <= len && memcmp(z + at, "PK\x03\x04", 4) == 0) {
    uint32_t csize = le32(z + at + 18);
    size_t next = at + 30 + le16(z + at + 26) + le16(z + at + 28) + csize;
    memset(z + at + 18, 0, 4);
    cleared++;
    at = next;
  }
  CU_ASSERT_EQUAL(cleared, 11);
  const char *sloppy = xmt_test_tmp_path("sloppy.docx");
  const char *out = xmt_test_tmp_path("sloppy-out.docx");
  write_file(sloppy, (const char *)z, len);
  free(z);
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  struct xmt_buf buf = {0};
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, sloppy, NULL, &err), XMT_OK);
  long i = xmt_package_find(pkg, "word/document.xml");
  CU_ASSERT_EQUAL(xmt_package_read(pkg, (size_t)i, 0, &buf, &err), XMT_OK);
  CU_ASSERT_EQUAL(buf.len, 1023);
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, NULL, 0, &err), XMT_OK);
  xmt_package_free(pkg);
  CU_ASSERT_EQUAL(compare_packages(data("office/UTF8.docx"), out, NULL), 0);
  xmt_buf_free(&buf);
  xmt_error_clear(&err);
  unlink(sloppy);
  unlink(out);
}

static void test_replace(void) {
  replace_one("office/UTF8.docx", "word/document.xml");
  replace_one("office/reordered-zip.docx", "word/document.xml");
  replace_one("office/TestDocument06.odt", "content.xml");
}

/* The first local header of path: a stored `mimetype`, no extra field,
 * then the media type itself (ODF 1.2 part 3, 3.3). */
static void assert_mimetype_first(const char *path, const char *type) {
  size_t len = 0;
  unsigned char *z = (unsigned char *)xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(z);
  CU_ASSERT_FATAL(len > 30 + 8 + strlen(type));
  CU_ASSERT_EQUAL(memcmp(z, "PK\x03\x04", 4), 0);
  CU_ASSERT_EQUAL(le16(z + 8), 0);  /* stored */
  CU_ASSERT_EQUAL(le16(z + 26), 8); /* name length */
  CU_ASSERT_EQUAL(le16(z + 28), 0); /* extra field length */
  CU_ASSERT_EQUAL(memcmp(z + 30, "mimetype", 8), 0);
  CU_ASSERT_EQUAL(memcmp(z + 38, type, strlen(type)), 0);
  free(z);
}

/* Writes a zip of the given entries (method per entry) with libzip. */
static void make_zip(const char *path, const char *const *names,
                     const char *const *bytes, const size_t *lens,
                     const zip_int32_t *methods, size_t n) {
  int e = 0;
  unlink(path);
  zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &e);
  CU_ASSERT_PTR_NOT_NULL_FATAL(za);
  for (size_t i = 0; i < n; i++) {
    zip_source_t *s = zip_source_buffer(za, bytes[i], lens[i], 0);
    zip_int64_t j = zip_file_add(za, names[i], s, 0);
    CU_ASSERT_FATAL(j >= 0);
    CU_ASSERT_EQUAL(
        zip_set_file_compression(za, (zip_uint64_t)j, methods[i], 0), 0);
  }
  CU_ASSERT_EQUAL_FATAL(zip_close(za), 0);
}

static void test_mimetype_first(void) {
  static const char odt[] = "application/vnd.oasis.opendocument.text";
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  const char *out = xmt_test_tmp_path("mimetype.odt");
  CU_ASSERT_EQUAL_FATAL(
      xmt_package_open(&pkg, data("office/TestDocument06.odt"), NULL, &err),
      XMT_OK);
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, NULL, 0, &err), XMT_OK);
  xmt_package_free(pkg);
  assert_mimetype_first(out, odt);
  /* A package whose mimetype came last, deflated: first and stored. */
  const char *const names[] = {"content.xml", "mimetype"};
  const char *const bytes[] = {"<x/>", odt};
  const size_t lens[] = {4, sizeof odt - 1};
  const zip_int32_t methods[] = {ZIP_CM_DEFLATE, ZIP_CM_DEFLATE};
  const char *late = xmt_test_tmp_path("late.odt");
  make_zip(late, names, bytes, lens, methods, 2);
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, late, NULL, &err), XMT_OK);
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, NULL, 0, &err), XMT_OK);
  xmt_package_free(pkg);
  assert_mimetype_first(out, odt);
  unlink(out);
  unlink(late);
  xmt_error_clear(&err);
}

static void expect_kind(const char *path, enum xmt_package_kind want,
                        const char *want_main) {
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  enum xmt_package_kind kind = XMT_PACKAGE_OTHER;
  const char *main_part = "unset";
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, path, NULL, &err), XMT_OK);
  CU_ASSERT_EQUAL(xmt_package_kind(pkg, &kind, &main_part, &err), XMT_OK);
  CU_ASSERT_EQUAL(kind, want);
  CU_ASSERT_STRING_EQUAL(main_part ? main_part : "(null)",
                         want_main ? want_main : "(null)");
  xmt_package_free(pkg);
  xmt_error_clear(&err);
}

static void test_kind(void) {
  expect_kind(data("office/UTF8.docx"), XMT_PACKAGE_WORD, "word/document.xml");
  expect_kind(data("office/reordered-zip.docx"), XMT_PACKAGE_WORD,
              "word/document.xml");
  expect_kind(data("office/TestDocument06.odt"), XMT_PACKAGE_ODT,
              "content.xml");
  /* The name says nothing: an .odt called .docx is still an .odt. */
  const char *renamed = xmt_test_tmp_path("odt-named.docx");
  size_t len = 0;
  char *odt = xmt_test_read_file(data("office/TestDocument06.odt"), &len);
  write_file(renamed, odt, len);
  free(odt);
  expect_kind(renamed, XMT_PACKAGE_ODT, "content.xml");
  unlink(renamed);
  /* Other zips: a spreadsheet, a workbook's content types, plain files. */
  const char *other = xmt_test_tmp_path("other.zip");
  const char *const names[] = {"mimetype", "[Content_Types].xml", "a.txt"};
  const char *const ods[] = {"application/vnd.oasis.opendocument.spreadsheet"};
  const size_t ods_len[] = {46};
  const zip_int32_t stored[] = {ZIP_CM_STORE, ZIP_CM_STORE, ZIP_CM_STORE};
  make_zip(other, names, ods, ods_len, stored, 1);
  expect_kind(other, XMT_PACKAGE_OTHER, NULL);
  static const char xlsx[] =
      "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
      "content-types\"><Override PartName=\"/xl/workbook.xml\" "
      "ContentType=\"application/vnd.openxmlformats-officedocument."
      "spreadsheetml.sheet.main+xml\"/></Types>";
  const char *const ct[] = {xlsx};
  const size_t ct_len[] = {sizeof xlsx - 1};
  make_zip(other, names + 1, ct, ct_len, stored, 1);
  expect_kind(other, XMT_PACKAGE_OTHER, NULL);
  const char *const plain[] = {"hello"};
  const size_t plain_len[] = {5};
  make_zip(other, names + 2, plain, plain_len, stored, 1);
  expect_kind(other, XMT_PACKAGE_OTHER, NULL);
  unlink(other);
}

/* The format table tells an OpenDocument text by its first bytes: the
 * stored mimetype entry ODF puts first; the name only when the bytes say
 * nothing. */
static void expect_sniff(const char *path, const char *name,
                         enum xmt_doc_format want) {
  size_t len = 0;
  char *bytes = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
  CU_ASSERT_EQUAL(xmt_format_sniff(bytes, len < 1024 ? len : 1024, name), want);
  free(bytes);
}

static void test_odt_format(void) {
  static const char ott[] = "application/vnd.oasis.opendocument.text-template";
  static const char ods[] = "application/vnd.oasis.opendocument.spreadsheet";
  expect_sniff(data("office/TestDocument06.odt"), NULL, XMT_FORMAT_ODT);
  expect_sniff(data("office/TestDocument06.odt"), "a.docx", XMT_FORMAT_ODT);
  expect_sniff(data("office/TestDocument01.odt"), "a.html", XMT_FORMAT_ODT);
  expect_sniff(data("office/UTF8.docx"), "a.odt", XMT_FORMAT_WORD);
  const char *zip = xmt_test_tmp_path("sniff.zip");
  const char *const names[] = {"mimetype", "content.xml"};
  const char *const tpl[] = {ott, "<x/>"};
  const size_t tpl_len[] = {sizeof ott - 1, 4};
  const zip_int32_t stored[] = {ZIP_CM_STORE, ZIP_CM_DEFLATE};
  make_zip(zip, names, tpl, tpl_len, stored, 2);
  expect_sniff(zip, NULL, XMT_FORMAT_ODT);
  expect_kind(zip, XMT_PACKAGE_ODT, "content.xml");
  /* another OpenDocument bids too: opening it says it is not a text */
  const char *const sheet[] = {ods, "<x/>"};
  const size_t sheet_len[] = {sizeof ods - 1, 4};
  make_zip(zip, names, sheet, sheet_len, stored, 2);
  expect_sniff(zip, NULL, XMT_FORMAT_ODT);
  /* a mimetype deflated is not readable in the head: any zip is Word's,
   * whose opening refuses it */
  const zip_int32_t deflated[] = {ZIP_CM_DEFLATE, ZIP_CM_DEFLATE};
  make_zip(zip, names, tpl, tpl_len, deflated, 2);
  expect_sniff(zip, "a.odt", XMT_FORMAT_WORD);
  unlink(zip);
  /* bytes that say nothing: the extension, in any case */
  CU_ASSERT_EQUAL(xmt_format_sniff("plain", 5, "a.odt"), XMT_FORMAT_ODT);
  CU_ASSERT_EQUAL(xmt_format_sniff("plain", 5, "A.OTT"), XMT_FORMAT_ODT);
  CU_ASSERT_STRING_EQUAL(xmt_format_name(XMT_FORMAT_ODT), "odt");
  enum xmt_doc_format f = XMT_FORMAT_XLIFF;
  CU_ASSERT_EQUAL(xmt_format_by_extension("dir/a.ott", &f), 1);
  CU_ASSERT_EQUAL(f, XMT_FORMAT_ODT);
}

/* Opening path fails with status and exactly message, naming path. */
static void expect_refusal(const char *path,
                           const struct xmt_package_limits *limits,
                           xmt_status status, const char *message) {
  struct xmt_error_store err = {0};
  xmt_package *pkg = (xmt_package *)&err; /* must become NULL */
  CU_ASSERT_EQUAL(xmt_package_open(&pkg, path, limits, &err), status);
  CU_ASSERT_PTR_NULL(pkg);
  CU_ASSERT_STRING_EQUAL(err.pub.message ? err.pub.message : "", message);
  CU_ASSERT_STRING_EQUAL(err.pub.file ? err.pub.file : "", path);
  if (err.pub.message && strcmp(err.pub.message, message) != 0)
    fprintf(stderr, "\n%s: %s\n", path, err.pub.message);
  xmt_error_clear(&err);
}

static void test_refusals(void) {
  const char *bad = xmt_test_tmp_path("bad.docx");
  write_file(bad, "<html>not a zip</html>", 22);
  expect_refusal(bad, NULL, XMT_ERR_FORMAT, "not a zip package");
  size_t len = 0;
  char *docx = xmt_test_read_file(data("office/UTF8.docx"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(docx);
  write_file(bad, docx, len / 2);
  expect_refusal(bad, NULL, XMT_ERR_FORMAT,
                 "a truncated or damaged zip package");
  /* The last byte of the end-of-directory record: the directory is whole
   * but cut from its comment length. */
  write_file(bad, docx, len - 1);
  expect_refusal(bad, NULL, XMT_ERR_FORMAT,
                 "a truncated or damaged zip package");
  free(docx);
  expect_refusal(data("office/encrypted.docx"), NULL, XMT_ERR_FORMAT,
                 "an encrypted (password-protected) or old binary Office "
                 "file, not a zip package");
  expect_refusal(xmt_test_tmp_path("missing.docx"), NULL, XMT_ERR_IO,
                 "cannot open: No such file or directory");
  static const char *const evil[] = {"../evil", "/etc/evil", "word/../../evil",
                                     "C:\\evil", "word\\..\\..\\evil"};
  for (size_t i = 0; i < sizeof evil / sizeof *evil; i++) {
    const char *const names[] = {"ok.xml", evil[i]};
    const char *const bytes[] = {"<a/>", "x"};
    const size_t lens[] = {4, 1};
    const zip_int32_t methods[] = {ZIP_CM_STORE, ZIP_CM_STORE};
    char message[200];
    make_zip(bad, names, bytes, lens, methods, 2);
    snprintf(message, sizeof message,
             "entry name '%s' leaves the package (an absolute path or '..')",
             evil[i]);
    expect_refusal(bad, NULL, XMT_ERR_FORMAT, message);
  }
  unlink(bad);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
}

static void test_limits(void) {
  struct xmt_package_limits lim;
  const char *docx = data("office/UTF8.docx");
  xmt_package_limits_default(&lim);
  lim.entry_max = 5000;
  expect_refusal(docx, &lim, XMT_ERR_FORMAT,
                 "entry 'word/theme/theme1.xml' expands to 6992 bytes, over "
                 "the limit of 5000 bytes an entry");
  xmt_package_limits_default(&lim);
  lim.entries_max = 10;
  expect_refusal(docx, &lim, XMT_ERR_FORMAT,
                 "11 entries, over the limit of 10 entries");
  xmt_package_limits_default(&lim);
  lim.total_max = 20000;
  expect_refusal(docx, &lim, XMT_ERR_FORMAT,
                 "the entries expand to more than 20000 bytes in all, the "
                 "limit: a zip bomb?");
  /* 4 MiB of zeros deflate to about 4 KB: over 200 times. */
  size_t big = (size_t)4 << 20;
  char *zeros = calloc(1, big);
  CU_ASSERT_PTR_NOT_NULL_FATAL(zeros);
  const char *bomb = xmt_test_tmp_path("bomb.docx");
  const char *const names[] = {"zeros"};
  const char *const bytes[] = {zeros};
  const size_t lens[] = {big};
  const zip_int32_t methods[] = {ZIP_CM_DEFLATE};
  make_zip(bomb, names, bytes, lens, methods, 1);
  free(zeros);
  int e = 0;
  zip_t *za = zip_open(bomb, ZIP_RDONLY, &e);
  zip_stat_t zs;
  CU_ASSERT_EQUAL_FATAL(zip_stat_index(za, 0, 0, &zs), 0);
  zip_discard(za);
  char message[200];
  snprintf(message, sizeof message,
           "entry 'zeros' expands %llu times (%llu to 4194304 bytes), over "
           "the limit of 200 times: a zip bomb?",
           (unsigned long long)(big / zs.comp_size),
           (unsigned long long)zs.comp_size);
  expect_refusal(bomb, NULL, XMT_ERR_FORMAT, message);
  unlink(bomb);
  /* An entry over the limit of one read. */
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  struct xmt_buf buf = {0};
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, docx, NULL, &err), XMT_OK);
  long i = xmt_package_find(pkg, "word/document.xml");
  CU_ASSERT_EQUAL(xmt_package_read(pkg, (size_t)i, 100, &buf, &err),
                  XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(err.pub.message, "entry 'word/document.xml' is 1023 "
                                          "bytes, over the limit of 100 bytes");
  CU_ASSERT_EQUAL(buf.len, 0);
  CU_ASSERT_EQUAL(xmt_package_read(pkg, (size_t)i, 1023, &buf, &err), XMT_OK);
  CU_ASSERT_EQUAL(buf.len, 1023);
  xmt_buf_free(&buf);
  xmt_package_free(pkg);
  xmt_error_clear(&err);
}

/* A stored entry whose byte is changed after the CRC was taken. */
static void test_damaged_entry(void) {
  const char *path = xmt_test_tmp_path("crc.docx");
  const char *const names[] = {"a.txt"};
  const char *const bytes[] = {"hello, world"};
  const size_t lens[] = {12};
  const zip_int32_t methods[] = {ZIP_CM_STORE};
  make_zip(path, names, bytes, lens, methods, 1);
  size_t len = 0;
  char *z = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(z);
  CU_ASSERT_EQUAL_FATAL(memcmp(z + 30 + 5, "hello", 5), 0);
  z[30 + 5] = 'j';
  write_file(path, z, len);
  free(z);
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  struct xmt_buf buf = {0};
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, path, NULL, &err), XMT_OK);
  CU_ASSERT_EQUAL(xmt_package_read(pkg, 0, 0, &buf, &err), XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(err.pub.message,
                         "entry 'a.txt' is damaged: CRC error");
  xmt_buf_free(&buf);
  xmt_package_free(pkg);
  xmt_error_clear(&err);
  unlink(path);
}

/* Failures while writing leave nothing new: not a file beside the output,
 * and an existing output as it was. */
static void test_no_output_after_failure(void) {
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  const char *src = xmt_test_tmp_path("source.docx");
  const char *out = xmt_test_tmp_path("out.docx");
  size_t len = 0;
  char *docx = xmt_test_read_file(data("office/UTF8.docx"), &len);
  write_file(src, docx, len);
  free(docx);
  write_file(out, "old", 3);
  CU_ASSERT_EQUAL_FATAL(xmt_package_open(&pkg, src, NULL, &err), XMT_OK);
  struct xmt_package_part part = {"word/missing.xml", "x", 1};
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, &part, 1, &err), XMT_ERR_USAGE);
  CU_ASSERT_STRING_EQUAL(err.pub.message,
                         "no entry 'word/missing.xml' in the package to "
                         "replace");
  CU_ASSERT_EQUAL(xmt_package_write(pkg, xmt_test_tmp_path("no/such/x.docx"),
                                    NULL, 0, &err),
                  XMT_ERR_WRITE);
  CU_ASSERT_STRING_EQUAL(err.pub.message,
                         "cannot create output: No such file or directory");
  /* The source cut short under the open package: the copy fails midway. */
  CU_ASSERT_EQUAL(truncate(src, 2000), 0);
  CU_ASSERT_EQUAL(xmt_package_write(pkg, out, NULL, 0, &err), XMT_ERR_WRITE);
  CU_ASSERT_STRING_EQUAL(err.pub.message,
                         "cannot write the package: Premature end of file");
  xmt_package_free(pkg);
  char *kept = xmt_test_read_file(out, &len);
  XMT_ASSERT_BYTES_EQUAL(kept, len, "old", 3);
  free(kept);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 2);
  unlink(src);
  unlink(out);
  xmt_error_clear(&err);
}

/* A paragraph's pieces made its source: runs whose properties differ in
 * w:lang alone are one stretch, the key of the most stretches the base,
 * each other stretch a pair of codes whose end tag is none (its runs are
 * written with its properties). */
static void test_word_stretches(void) {
  const char *part = "<w:rPr><w:b/></w:rPr>"
                     "<w:rPr><w:lang w:val=\"en\"/></w:rPr>"
                     "<w:rPr><w:lang w:val=\"fr\"/></w:rPr>";
  const char *pool = "Click Save now or!";
  size_t b = 0, en = (size_t)(strstr(part, "<w:rPr><w:lang") - part),
         fr = (size_t)(strstr(part + en + 1, "<w:rPr>") - part);
  size_t blen = en, elen = fr - en;
  const size_t off[] = {0, 6, 10, 14, 17}, len[] = {6, 4, 4, 3, 1};
  const size_t rpr[] = {en, b, fr, en, b},
               rlen[] = {elen, blen, elen, elen, blen};
  struct piece pieces[5];
  for (size_t i = 0; i < 5; i++)
    pieces[i] = (struct piece){.type = PIECE_TEXT,
                               .off = off[i],
                               .len = len[i],
                               .rpr_off = rpr[i],
                               .rpr_len = rlen[i]};
  struct word_para p = {.twin = -1};
  CU_ASSERT_EQUAL_FATAL(xmt_word_para_finish(&p, pool, pieces, 5, part),
                        XMT_OK);
  size_t n;
  CU_ASSERT_STRING_EQUAL(xmt_segment_text(p.source, &n), "Click Save now or!");
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(p.source), 4);
  const size_t at[] = {6, 10, 17, 18};
  const char *ids[] = {"1", "1", "2", "2"};
  for (size_t i = 0; i < 4; i++) {
    struct xmt_tag t;
    CU_ASSERT_EQUAL(xmt_segment_tag(p.source, i, &t), XMT_OK);
    CU_ASSERT_EQUAL(t.offset, at[i]);
    CU_ASSERT_STRING_EQUAL(t.id, ids[i]);
    CU_ASSERT_EQUAL(t.kind, i % 2 ? XMT_TAG_CLOSE : XMT_TAG_OPEN);
    if (i % 2 == 0)
      CU_ASSERT_EQUAL(t.markup_len, strlen("<g id=\"1\" ctype=\"x-w-r\">"));
  }
  CU_ASSERT_EQUAL_FATAL(p.ncodes, 2);
  CU_ASSERT(p.codes_cap >= p.ncodes);
  for (size_t i = 0; i < 2; i++) {
    CU_ASSERT_EQUAL(p.codes[i].rpr, 1);
    CU_ASSERT_STRING_EQUAL(p.codes[i].open, "<w:rPr><w:b/></w:rPr>");
    CU_ASSERT_PTR_NULL(p.codes[i].close);
    CU_ASSERT_EQUAL(p.codes[i].close_len, 0);
  }
  CU_ASSERT_STRING_EQUAL(p.base_rpr, "<w:rPr><w:lang w:val=\"en\"/></w:rPr>");
  CU_ASSERT_EQUAL(p.nsource, 2);
  CU_ASSERT_EQUAL(p.nedges, 0);
  xmt_word_para_free(&p);
}

CU_TestInfo office_tests[] = {
    {"a Word paragraph's stretches of properties", test_word_stretches},
    {"identity rewrite", test_identity},
    {"one entry replaced", test_replace},
    {"local headers without sizes", test_sloppy_local_headers},
    {"mimetype first and stored", test_mimetype_first},
    {"kind by content", test_kind},
    {"OpenDocument text by its first bytes", test_odt_format},
    {"refusals", test_refusals},
    {"limits", test_limits},
    {"damaged entry", test_damaged_entry},
    {"no output after a failure", test_no_output_after_failure},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"office", suite_init, suite_clean, NULL, NULL, office_tests},
    CU_SUITE_INFO_NULL};
