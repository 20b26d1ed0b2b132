/* fuzz_office.c -- Word and OpenDocument packages: the input (after a
 * first byte of options) is the main part, word/document.xml or
 * content.xml, packed with the few parts a reader needs and translated
 * from memory as the server's document API does. A package that
 * translates with identity gives its part back byte for byte; with
 * pseudo, its part is well-formed XML and the package opens again. */
#include "config.h"

#include <zip.h>

#include "fuzz.h"
#include "office_private.h"
#include "xmt_filter.h"

static const char word_types[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/"
    "content-types\"><Default Extension=\"rels\" ContentType=\"application/"
    "vnd.openxmlformats-package.relationships+xml\"/><Default Extension="
    "\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/word/"
    "document.xml\" ContentType=\"application/vnd.openxmlformats-"
    "officedocument.wordprocessingml.document.main+xml\"/></Types>";
static const char word_rels[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/"
    "relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas."
    "openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
    "Target=\"word/document.xml\"/></Relationships>";
static const char odt_mimetype[] = "application/vnd.oasis.opendocument.text";
static const char odt_manifest[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:"
    "xmlns:manifest:1.0\" manifest:version=\"1.2\"><manifest:file-entry "
    "manifest:full-path=\"/\" manifest:media-type=\"application/"
    "vnd.oasis.opendocument.text\"/></manifest:manifest>";

struct entry {
  const char *name;
  const void *data;
  size_t len;
};

static void add(zip_t *za, const struct entry *e) {
  zip_source_t *s = zip_source_buffer(za, e->data, e->len, 0);
  zip_int64_t i = s != NULL ? zip_file_add(za, e->name, s, 0) : -1;
  if (i < 0)
    FUZZ_FAIL();
  zip_int32_t method =
      strcmp(e->name, "mimetype") == 0 ? ZIP_CM_STORE : ZIP_CM_DEFLATE;
  if (zip_set_file_compression(za, (zip_uint64_t)i, method, 0) != 0)
    FUZZ_FAIL();
}

/* The n entries zipped into *out (to free). */
static size_t pack(const struct entry *e, size_t n, char **out) {
  zip_error_t ze;
  zip_error_init(&ze);
  zip_source_t *src = zip_source_buffer_create(NULL, 0, 0, &ze);
  zip_t *za = src != NULL ? zip_open_from_source(src, ZIP_TRUNCATE, &ze) : NULL;
  if (za == NULL)
    FUZZ_FAIL();
  zip_source_keep(src);
  for (size_t k = 0; k < n; k++)
    add(za, &e[k]);
  zip_stat_t st;
  if (zip_close(za) != 0 || zip_source_stat(src, &st) != 0 ||
      zip_source_open(src) != 0)
    FUZZ_FAIL();
  *out = malloc(st.size + 1);
  if (*out == NULL ||
      zip_source_read(src, *out, st.size) != (zip_int64_t)st.size)
    FUZZ_FAIL();
  zip_source_close(src);
  zip_source_free(src);
  zip_error_fini(&ze);
  return (size_t)st.size;
}

/* Entry name of the len bytes at bytes, read as the library reads it
 * (UTF-16 made UTF-8), into out; 0 when the package or entry is refused. */
static int read_part(const char *bytes, size_t len, const char *name,
                     struct xmt_buf *out) {
  struct xmt_error_store err = {0};
  xmt_package *pkg = NULL;
  int ok = 0;
  if (xmt_package_open_mem(&pkg, "fuzz", bytes, len, NULL, &err) == XMT_OK) {
    long i = xmt_package_find(pkg, name);
    ok = i >= 0 && xmt_package_read(pkg, (size_t)i, 0, out, &err) == XMT_OK;
  }
  xmt_package_free(pkg);
  xmt_error_clear(&err);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  int odt = data[0] & 1, pseudo = data[0] & 2;
  const char *main_part = odt ? "content.xml" : "word/document.xml";
  struct entry word[] = {
      {"[Content_Types].xml", word_types, sizeof word_types - 1},
      {"_rels/.rels", word_rels, sizeof word_rels - 1},
      {main_part, data + 1, size - 1}};
  struct entry odf[] = {
      {"mimetype", odt_mimetype, sizeof odt_mimetype - 1},
      {"META-INF/manifest.xml", odt_manifest, sizeof odt_manifest - 1},
      {main_part, data + 1, size - 1}};
  char *pkg;
  size_t pkg_len = pack(odt ? odf : word, 3, &pkg);

  xmt_filter *f = xmt_filter_new();
  if (f == NULL ||
      xmt_filter_set_backend(
          f, xmt_backend_builtin(pseudo ? "pseudo" : "identity"), NULL, NULL) !=
          XMT_OK ||
      xmt_filter_set_languages(f, "en", "fr") != XMT_OK)
    FUZZ_FAIL();
  char *out = NULL;
  size_t out_len = 0;
  xmt_status st = xmt_filter_translate_buffer(
      f, odt ? XMT_FORMAT_ODT : XMT_FORMAT_WORD, odt ? "fuzz.odt" : "fuzz.docx",
      pkg, pkg_len, &out, &out_len);
  if (st == XMT_OK) {
    struct xmt_buf before = {.data = NULL}, after = {.data = NULL};
    if (!read_part(pkg, pkg_len, main_part, &before) ||
        !read_part(out, out_len, main_part, &after))
      FUZZ_FAIL();
    if (!pseudo && (before.len != after.len ||
                    memcmp(before.data, after.data, before.len) != 0))
      FUZZ_FAIL();
    if (!fuzz_well_formed_as(after.data, after.len, "UTF-8"))
      FUZZ_FAIL();
    xmt_buf_free(&before);
    xmt_buf_free(&after);
  }
  free(out);
  xmt_filter_free(f);
  free(pkg);
  return 0;
}
