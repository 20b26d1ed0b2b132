/* package_kind.c -- which document a zip package holds, by its content
 * alone: ODF names its type in a `mimetype` entry, OOXML the content type
 * of each part in `[Content_Types].xml` (ECMA-376 part 2, OPC); a file's
 * name is never asked. */
#include "office_private.h"
#include "package_private.h"

#include <expat.h>
#include <string.h>

#define CT_NS "http://schemas.openxmlformats.org/package/2006/content-types"

/* The content types of a WordprocessingML main part: document, template,
 * and both with macros. */
static const char *const word_main_types[] = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document."
    "main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template."
    "main+xml",
    "application/vnd.ms-word.document.macroEnabled.main+xml",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml", NULL};

static const char *const odt_types[] = {
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.text-template", NULL};

/* The entry names the [Content_Types].xml entry and the mimetype may
 * take: a few KB in any real package. */
#define KIND_ENTRY_MAX ((size_t)1 << 20)

static int listed(const char *const *list, const char *s, size_t n) {
  for (; *list != NULL; list++)
    if (strlen(*list) == n && memcmp(*list, s, n) == 0)
      return 1;
  return 0;
}

struct types {
  xmt_package *pkg;
  const char *main; /* the main part's entry, borrowed from the package */
  int word;
};

static void XMLCALL ct_start(void *user, const XML_Char *name,
                             const XML_Char **attrs) {
  struct types *t = user;
  if (t->word || strcmp(name, CT_NS "|Override") != 0)
    return;
  const char *part = NULL;
  const char *type = NULL;
  for (; attrs[0] != NULL; attrs += 2) {
    if (strcmp(attrs[0], "PartName") == 0)
      part = attrs[1];
    else if (strcmp(attrs[0], "ContentType") == 0)
      type = attrs[1];
  }
  if (part == NULL || type == NULL ||
      !listed(word_main_types, type, strlen(type)))
    return;
  t->word = 1;
  /* Part names are absolute and case-insensitive (OPC); entries are
   * not absolute. */
  zip_int64_t i = zip_name_locate(t->pkg->za, part[0] == '/' ? part + 1 : part,
                                  ZIP_FL_NOCASE);
  t->main = i >= 0 ? zip_get_name(t->pkg->za, (zip_uint64_t)i, 0) : NULL;
}

static xmt_status content_types(xmt_package *pkg, size_t i, struct types *t,
                                struct xmt_error_store *err) {
  struct xmt_buf xml = {0};
  xmt_status st = xmt_package_read(pkg, i, KIND_ENTRY_MAX, &xml, err);
  if (st != XMT_OK)
    return st;
  XML_Parser p = XML_ParserCreateNS("UTF-8", '|');
  if (p == NULL) {
    xmt_buf_free(&xml);
    return xmt_error_nomem(err);
  }
  XML_SetUserData(p, t);
  XML_SetStartElementHandler(p, ct_start);
  if (XML_Parse(p, xml.data, (int)xml.len, 1) != XML_STATUS_OK)
    st = xmt_error_at(err, XMT_ERR_XML,
                      XMT_AT(pkg->path, XML_GetCurrentLineNumber(p),
                             XML_GetCurrentColumnNumber(p) + 1),
                      "entry '[Content_Types].xml': %s",
                      XML_ErrorString(XML_GetErrorCode(p)));
  XML_ParserFree(p);
  xmt_buf_free(&xml);
  return st;
}

/* 1 when the package's content types name a Word main part; an
 * unreadable [Content_Types].xml names none (for an OpenDocument text,
 * whose reader never looks at it). */
static int names_word(xmt_package *pkg) {
  long ct = xmt_package_find(pkg, "[Content_Types].xml");
  struct types t = {.pkg = pkg};
  struct xmt_error_store scratch = {0};
  xmt_status st =
      ct < 0 ? XMT_ERR_FORMAT : content_types(pkg, (size_t)ct, &t, &scratch);
  xmt_error_clear(&scratch);
  return st == XMT_OK && t.word;
}

xmt_status xmt_package_kind(xmt_package *pkg, enum xmt_package_kind *kind,
                            const char **main, struct xmt_error_store *err) {
  *kind = XMT_PACKAGE_OTHER;
  if (main != NULL)
    *main = NULL;
  struct xmt_buf buf = {0};
  long m = xmt_package_find(pkg, "mimetype");
  if (m >= 0) {
    xmt_status st = xmt_package_read(pkg, (size_t)m, KIND_ENTRY_MAX, &buf, err);
    int odt = st == XMT_OK && listed(odt_types, buf.data, buf.len);
    xmt_buf_free(&buf);
    if (st != XMT_OK)
      return st;
    /* Both at once: LibreOffice shows the one, Word the other, and only
     * one would be translated. */
    if (odt && names_word(pkg))
      return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                          "both an OpenDocument text (its mimetype) and a "
                          "Word document (its [Content_Types].xml): readers "
                          "differ on which one they show");
    if (odt) {
      long c = xmt_package_find(pkg, "content.xml");
      *kind = XMT_PACKAGE_ODT;
      if (main != NULL && c >= 0)
        *main = xmt_package_name(pkg, (size_t)c);
    }
    return XMT_OK;
  }
  long ct = xmt_package_find(pkg, "[Content_Types].xml");
  if (ct < 0)
    return XMT_OK;
  struct types t = {.pkg = pkg};
  xmt_status st = content_types(pkg, (size_t)ct, &t, err);
  if (st == XMT_OK && t.word) {
    *kind = XMT_PACKAGE_WORD;
    if (main != NULL)
      *main = t.main;
  }
  return st;
}
