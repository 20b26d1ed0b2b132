/* package_kind.c -- which document a zip package holds, by its content
 * alone: ODF names its type in a `mimetype` entry, OOXML the content type
 * of each part in `[Content_Types].xml` (ECMA-376 part 2, OPC); a file's
 * name is never asked. */
#include "office_private.h"
#include "package_private.h"

#include <expat.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CT_NS "http://schemas.openxmlformats.org/package/2006/content-types"
#define REL_NS "http://schemas.openxmlformats.org/package/2006/relationships"

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
  const char *main;   /* the main part's entry, borrowed from the package */
  int word;           /* main parts named */
  char other[256];    /* the second one's name, for the message */
  const char *office; /* the package relationships' main part, or NULL */
  char target[256];   /* its name from the root, when found */
};

static void XMLCALL ct_start(void *user, const XML_Char *name,
                             const XML_Char **attrs) {
  struct types *t = user;
  if (strcmp(name, CT_NS "|Override") != 0)
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
  /* Part names are absolute, case-insensitive IRIs (OPC): entries are
   * not absolute, and their escapes decoded, as Word finds them. */
  if (part[0] == '/')
    part++;
  if (t->word++ > 0) {
    if (t->word == 2)
      snprintf(t->other, sizeof t->other, "%s", part);
    return;
  }
  long i = xmt_package_find_part(t->pkg, part);
  t->main = i >= 0 ? xmt_package_name(t->pkg, (size_t)i) : NULL;
}

/* The package's relationship to its main part (_rels/.rels), which is
 * how Word finds the part it shows: its target, from the root. */
static void XMLCALL rels_start(void *user, const XML_Char *name,
                               const XML_Char **attrs) {
  struct types *t = user;
  if (t->office != NULL || strcmp(name, REL_NS "|Relationship") != 0)
    return;
  const char *target = NULL;
  const char *type = NULL;
  int external = 0;
  for (; attrs[0] != NULL; attrs += 2) {
    if (strcmp(attrs[0], "Target") == 0)
      target = attrs[1];
    else if (strcmp(attrs[0], "Type") == 0)
      type = attrs[1];
    else if (strcmp(attrs[0], "TargetMode") == 0)
      external = strcmp(attrs[1], "External") == 0;
  }
  const char *kind = type != NULL ? strrchr(type, '/') : NULL;
  if (target == NULL || external || kind == NULL ||
      strcmp(kind, "/officeDocument") != 0)
    return;
  while (*target == '/' || (target[0] == '.' && target[1] == '/'))
    target += *target == '/' ? 1 : 2;
  snprintf(t->target, sizeof t->target, "%s", target);
  t->office = t->target;
}

/* Entry i parsed with start as its start-element handler. */
static xmt_status parse_entry(xmt_package *pkg, size_t i,
                              XML_StartElementHandler start, struct types *t,
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
  XML_SetStartElementHandler(p, start);
  if (XML_Parse(p, xml.data, (int)xml.len, 1) != XML_STATUS_OK)
    st = xmt_error_at(err, XMT_ERR_XML,
                      XMT_AT(pkg->path, XML_GetCurrentLineNumber(p),
                             XML_GetCurrentColumnNumber(p) + 1),
                      "entry '%s': %s", xmt_package_name(pkg, i),
                      XML_ErrorString(XML_GetErrorCode(p)));
  XML_ParserFree(p);
  xmt_buf_free(&xml);
  return st;
}

static xmt_status content_types(xmt_package *pkg, size_t i, struct types *t,
                                struct xmt_error_store *err) {
  return parse_entry(pkg, i, ct_start, t, err);
}

/* The main part Word shows is the one _rels/.rels names: one main part
 * in [Content_Types].xml, and the same part there, or what is
 * translated is not what is shown. */
static xmt_status one_main(xmt_package *pkg, struct types *t,
                           struct xmt_error_store *err) {
  if (t->word > 1)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "[Content_Types].xml names two main parts, '%s' "
                        "and '%s': Word shows one of them",
                        t->main != NULL ? t->main : "?", t->other);
  long r = xmt_package_find_part(pkg, "_rels/.rels");
  xmt_status st = r < 0 || t->main == NULL
                      ? XMT_OK
                      : parse_entry(pkg, (size_t)r, rels_start, t, err);
  /* the target found as a part name is (escapes decoded, any case) */
  long o = st == XMT_OK && t->office != NULL
               ? xmt_package_find_part(pkg, t->office)
               : -1;
  if (o >= 0)
    t->office = xmt_package_name(pkg, (size_t)o);
  if (st == XMT_OK && t->office != NULL && t->main != NULL &&
      strcasecmp(t->office, t->main) != 0)
    st = xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                      "_rels/.rels names '%s' as the main part, "
                      "[Content_Types].xml '%s': Word shows the first",
                      t->office, t->main);
  return st;
}

/* 1 when the package's content types name a Word main part; an
 * unreadable [Content_Types].xml names none (for an OpenDocument text,
 * whose reader never looks at it). */
static int names_word(xmt_package *pkg) {
  long ct = xmt_package_find_part(pkg, "[Content_Types].xml");
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
  long ct = xmt_package_find_part(pkg, "[Content_Types].xml");
  if (ct < 0)
    return XMT_OK;
  struct types t = {.pkg = pkg};
  xmt_status st = content_types(pkg, (size_t)ct, &t, err);
  if (st == XMT_OK && t.word)
    st = one_main(pkg, &t, err);
  if (st == XMT_OK && t.word) {
    *kind = XMT_PACKAGE_WORD;
    if (main != NULL)
      *main = t.main;
  }
  return st;
}
