/* odt.c -- the OpenDocument Text format (.odt, .ott): one entry of the
 * format table. A package is told by its first bytes: ODF puts the
 * `mimetype` entry first and stored, so the head shows the media type;
 * the units are the paragraphs of content.xml (odt_read.c), written back
 * into it (odt_write.c); every other entry is copied raw by the zip
 * layer. styles.xml's master pages give their headers' and footers'
 * paragraphs, after content.xml's, and meta.xml the document's title,
 * subject, description and keywords, last. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odt_private.h"

static const char *const odt_extensions[] = {".odt", ".ott", NULL};

static unsigned le16(const char *p) {
  return (unsigned)(unsigned char)p[0] | (unsigned)(unsigned char)p[1] << 8;
}

/* The first local header: an entry named "mimetype", stored, whose bytes
 * are an OpenDocument media type (ODF 1.2 part 3, 3.3). Outbids Word,
 * whose bid is any zip; open() refuses an OpenDocument other than a text
 * or its template, by the package's content. */
static int bid(const struct xmt_head *head) {
  static const char odf[] = "application/vnd.oasis.opendocument.";
  const char *h = head->bytes;
  if (head->len < 30 || memcmp(h, "PK\3\4", 4) != 0 || le16(h + 8) != 0 ||
      le16(h + 26) != 8 || memcmp(h + 30, "mimetype", 8) != 0)
    return XMT_BID_NO;
  size_t data = 38 + le16(h + 28);
  size_t size = le16(h + 18) | (size_t)le16(h + 20) << 16;
  return size > sizeof odf - 1 && data + sizeof odf - 1 <= head->len &&
                 memcmp(h + data, odf, sizeof odf - 1) == 0
             ? XMT_BID_ELEMENT
             : XMT_BID_NO;
}

/* The package and its parts read: content.xml and, when it has them,
 * styles.xml and meta.xml, whose units follow content.xml's in that
 * order, then the embedded objects' content.xml (charts), in the
 * package's order. */
struct odt_file {
  struct xmt_office_doc base; /* the package, content.xml's entry */
  struct odt_doc content, styles, meta;
  struct odt_doc *objects;
  size_t nobjects;
};

#define ODT_NPARTS 3

static size_t nparts(const struct odt_file *file) {
  return ODT_NPARTS + file->nobjects;
}

/* The parts in the order of their units. */
static struct odt_doc *part_at(struct odt_file *file, size_t k) {
  struct odt_doc *parts[ODT_NPARTS] = {&file->content, &file->styles,
                                       &file->meta};
  return k < ODT_NPARTS ? parts[k] : &file->objects[k - ODT_NPARTS];
}

static size_t npara(struct odt_file *file) {
  size_t n = 0;
  for (size_t k = 0; k < nparts(file); k++)
    n += part_at(file, k)->npara;
  return n;
}

static void unload(void *d) {
  struct odt_file *file = d;
  for (size_t k = 0; k < nparts(file); k++) {
    xmt_odt_paras_free(part_at(file, k));
    xmt_odt_styles_free(part_at(file, k));
    xmt_buf_free(&part_at(file, k)->part);
  }
  free(file->objects);
  file->objects = NULL;
  file->nobjects = 0;
}

/* The entry name of the package, when it has one, read into doc. */
static xmt_status load_part(xmt_filter *f, const char *path, xmt_package *pkg,
                            const char *name, struct odt_doc *doc) {
  long i = xmt_package_find(pkg, name);
  if (i < 0)
    return XMT_OK; /* none: none of its units */
  doc->main = xmt_package_name(pkg, (size_t)i);
  xmt_status st = xmt_package_read(pkg, (size_t)i, 0, &doc->part, &f->err);
  return st == XMT_OK ? xmt_odt_parse(doc, path, &f->err) : st;
}

#define MANIFEST_NS "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"

/* The manifest read for its first encrypted entry: a password-protected
 * OpenDocument keeps its zip entries unencrypted and says in the
 * manifest which ones hold ciphertext. */
struct manifest {
  struct xmt_office_xml x; /* first: the parse, how it stopped */
  char entry[256];         /* the file-entry the parse is in */
  char encrypted[256];     /* the first encrypted one, or "" */
};

static void XMLCALL on_manifest(void *user, const XML_Char *name,
                                const XML_Char **attrs) {
  struct manifest *m = user;
  if (xmt_office_is(name, MANIFEST_NS, "file-entry")) {
    m->entry[0] = '\0';
    for (size_t i = 0; attrs[i] != NULL; i += 2)
      if (xmt_office_is(attrs[i], MANIFEST_NS, "full-path"))
        snprintf(m->entry, sizeof m->entry, "%s", attrs[i + 1]);
  } else if (xmt_office_is(name, MANIFEST_NS, "encryption-data") &&
             m->encrypted[0] == '\0') {
    memcpy(m->encrypted, m->entry, sizeof m->entry);
  }
}

/* XMT_ERR_FORMAT, naming it, when the manifest says an entry is
 * encrypted: its bytes are not XML (they failed as "not well-formed"). */
static xmt_status not_encrypted(xmt_filter *f, const char *path,
                                xmt_package *pkg) {
  static const char name[] = "META-INF/manifest.xml";
  long i = xmt_package_find(pkg, name);
  if (i < 0)
    return XMT_OK;
  struct xmt_buf bytes = {0};
  xmt_status st = xmt_package_read(pkg, (size_t)i, 0, &bytes, &f->err);
  struct manifest m = {.x = {.start = on_manifest,
                             .doctype = "a doctype is not read in a "
                                        "package's manifest"}};
  const struct xmt_office_entry at = {path, name, 1};
  if (st == XMT_OK)
    st = xmt_office_xml_parse(&m.x, bytes.data, bytes.len, &at, &f->err);
  xmt_buf_free(&bytes);
  if (st == XMT_OK && m.encrypted[0] != '\0')
    st = xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path),
                      "an encrypted (password-protected) OpenDocument: "
                      "entry '%s' is encrypted",
                      m.encrypted);
  return st;
}

/* The content.xml of each object in a folder of the package's root
 * ("Object 1/content.xml": a chart LibreOffice embeds) read and parsed:
 * a chart's title and labels are shown in the document. */
static xmt_status load_objects(xmt_filter *f, const char *path,
                               struct odt_file *file) {
  xmt_package *pkg = file->base.pkg;
  size_t n = xmt_package_count(pkg), cap = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    const char *name = xmt_package_name(pkg, i), *slash = strchr(name, '/');
    if (slash == NULL || slash == name || strcmp(slash, "/content.xml") != 0)
      continue;
    struct odt_doc *o =
        xmt_grow_array(file->objects, &cap, file->nobjects + 1, sizeof *o);
    if (o == NULL)
      return XMT_ERR_NOMEM;
    file->objects = o;
    o = &o[file->nobjects++];
    memset(o, 0, sizeof *o);
    o->chart = 1;
    st = load_part(f, path, pkg, name, o);
  }
  return st;
}

/* content.xml, styles.xml and meta.xml read and parsed, then the
 * objects'. */
static xmt_status load(xmt_filter *f, const char *path, void *d) {
  struct odt_file *file = d;
  xmt_package *pkg = file->base.pkg;
  file->styles.headers = 1;
  file->meta.meta = 1;
  xmt_status st = not_encrypted(f, path, pkg);
  if (st == XMT_OK)
    st = load_part(f, path, pkg, file->base.main, &file->content);
  if (st == XMT_OK)
    st = load_part(f, path, pkg, "styles.xml", &file->styles);
  if (st == XMT_OK)
    st = load_part(f, path, pkg, "meta.xml", &file->meta);
  if (st == XMT_OK)
    st = load_objects(f, path, file);
  if (st == XMT_ERR_NOMEM)
    xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  return st;
}

static size_t bytes_of(const void *d) {
  return ((const struct odt_file *)d)->content.part.len;
}

static const struct xmt_office_format odt_format = {
    XMT_PACKAGE_ODT,
    "an OpenDocument file but not a text: its mimetype entry names another "
    "kind",
    "the OpenDocument text has no entry 'content.xml'",
    "an OpenDocument text is read from a file or from memory, not from "
    "standard input",
    sizeof(struct odt_file),
    load,
    unload,
    bytes_of,
    0};

XMT_OFFICE_OPERATIONS(odt_format)

/* The i-th paragraph of the file: content.xml's, then styles.xml's,
 * then meta.xml's, then the objects'. */
static struct odt_para *para_at(struct odt_file *file, size_t i) {
  size_t k = 0;
  for (; k + 1 < nparts(file) && i >= part_at(file, k)->npara; k++)
    i -= part_at(file, k)->npara;
  return &part_at(file, k)->paras[i];
}

static void unit_at(void *d, size_t i, struct xmt_feed_unit *out) {
  *out = (struct xmt_feed_unit){
      .id = i + 1, .source = para_at(d, i)->source, .preserve_space = 1};
}

static xmt_status read_units(xmt_filter *f, void *d, const char *path,
                             const struct xmt_unit_sink *sink) {
  struct odt_file *file = d;
  if (f->source_language == NULL)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                        "give the source language of an OpenDocument text "
                        "with -s");
  const struct xmt_unit_feed feed = {path, f->source_language,
                                     f->target_language, "x-odt", npara(file)};
  return xmt_unit_feed(&feed, file, unit_at, sink);
}

static xmt_status take(xmt_filter *f, void *d, const xmt_xliff_unit *unit,
                       const xmt_segment *target) {
  struct odt_file *file = d;
  size_t i, n = npara(file);
  xmt_status st = xmt_unit_index(unit, n, "document", &i, &f->err);
  if (st != XMT_OK)
    return st;
  struct odt_para *p = para_at(file, i);
  return xmt_office_take(f, &p->target, p->source, target);
}

static int translated(const struct odt_doc *doc) {
  for (size_t i = 0; i < doc->npara; i++)
    if (doc->paras[i].target != NULL)
      return 1;
  return 0;
}

/* styles.xml written again, into out, when a paragraph was translated:
 * its headers and footers with their targets, the default paragraph
 * style in the target language. 1 when it is to be written, 0 when it
 * stays as it is. */
static int styles_part(const struct odt_file *file, const char *language,
                       struct xmt_buf *out, xmt_status *st) {
  const struct odt_doc *styles = &file->styles;
  int lang = language != NULL && language[0] != '\0' &&
             (translated(&file->content) || translated(styles));
  if (styles->main == NULL || (!lang && !translated(styles)))
    return 0;
  struct xmt_buf xml = {0};
  *st = xmt_odt_render(styles, language, lang ? &xml : out);
  if (*st == XMT_OK && lang)
    *st = xmt_odt_set_language(xml.data, xml.len, language, out);
  xmt_buf_free(&xml);
  return *st == XMT_OK;
}

static xmt_status write_doc(xmt_filter *f, void *d, const char *target_language,
                            xmt_write_fn sink, void *user) {
  struct odt_file *file = d;
  struct xmt_buf part = {0}, styles = {0}, meta = {0};
  struct xmt_buf *objs = calloc(file->nobjects + 1, sizeof *objs);
  struct xmt_package_part *repl = calloc(nparts(file), sizeof *repl);
  xmt_status st = objs != NULL && repl != NULL
                      ? xmt_odt_render(&file->content, target_language, &part)
                      : XMT_ERR_NOMEM;
  size_t n = 0;
  if (st == XMT_OK)
    repl[n++] =
        (struct xmt_package_part){file->content.main, part.data, part.len};
  if (st == XMT_OK && styles_part(file, target_language, &styles, &st))
    repl[n++] =
        (struct xmt_package_part){file->styles.main, styles.data, styles.len};
  /* meta.xml only when one of its units was translated */
  if (st == XMT_OK && file->meta.main != NULL && translated(&file->meta) &&
      (st = xmt_odt_render(&file->meta, NULL, &meta)) == XMT_OK)
    repl[n++] = (struct xmt_package_part){file->meta.main, meta.data, meta.len};
  /* an object's content.xml only when one of its units was translated */
  for (size_t k = 0; k < file->nobjects && st == XMT_OK; k++) {
    const struct odt_doc *o = &file->objects[k];
    if (translated(o) &&
        (st = xmt_odt_render(o, target_language, &objs[k])) == XMT_OK)
      repl[n++] = (struct xmt_package_part){o->main, objs[k].data, objs[k].len};
  }
  if (st != XMT_OK) /* out of memory, or a writer's internal error */
    xmt_error_set(&f->err, st, "%s", xmt_strerror(st));
  if (st == XMT_OK)
    st = xmt_office_write(f, &file->base, repl, n, sink, user);
  xmt_buf_free(&part);
  xmt_buf_free(&styles);
  xmt_buf_free(&meta);
  for (size_t k = 0; objs != NULL && k < file->nobjects; k++)
    xmt_buf_free(&objs[k]);
  free(objs);
  free(repl);
  return st;
}

const struct xmt_format xmt_format_odt = {
    .info = {XMT_FORMAT_ODT, "odt", "OpenDocument Text (.odt, .ott)",
             odt_extensions},
    .noun = "OpenDocument text",
    .media_type = "application/vnd.oasis.opendocument.text",
    .bid = bid,
    .read = read_units,
    .take = take,
    .write = write_doc,
    XMT_OFFICE_TABLE};
