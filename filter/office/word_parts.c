/* word_parts.c -- the parts of a Word document that hold text: the main
 * part, and the headers, footers, footnotes, endnotes and comments that
 * its relationships (word/_rels/document.xml.rels) name; each read whole
 * and parsed into paragraphs (word_read.c). A part named twice is read
 * once; one named but absent, or outside the package (TargetMode
 * External), is not read; a target is found in any ASCII case and with
 * its percent escapes decoded, as Word finds it (OPC part names are IRIs:
 * Target="comment%73.xml" is word/comments.xml; xmt_package_find_part). */
#include "config.h"

#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "word_private.h"

#define REL_NS "http://schemas.openxmlformats.org/package/2006/relationships"

struct rels {
  struct xmt_office_xml x; /* first: the parse, how it stopped */
  const struct word_doc *doc;
  const char *dir; /* the main part's folder, with its '/' */
  size_t dir_len;
  size_t *found; /* entry indices */
  size_t nfound, cap;
  int package; /* _rels/.rels read: the core properties are looked for */
  /* a header's, a footer's, notes' relationships read: the charts and
   * SmartArt diagrams they show are looked for */
  int drawings;
  /* a chart's relationships read: the workbook it embeds (its data) is
   * looked for */
  int embeds;
};

/* 1 when a relationship of this type points at a part with text. */
static int text_type(const char *type, int drawings) {
  /* a chart's and a SmartArt's parts: their text is shown in the
   * document (word_values.c) */
  static const char *const kinds[] = {
      "header", "footer",      "footnotes",      "endnotes", "comments",
      "chart",  "diagramData", "diagramDrawing", NULL};
  const char *slash = strrchr(type, '/');
  const char *kind = slash != NULL ? slash + 1 : type;
  for (size_t i = drawings ? 5 : 0; kinds[i] != NULL; i++)
    if (strcmp(kind, kinds[i]) == 0)
      return 1;
  return 0;
}

/* The entry target names from the main part's folder: "/word/x.xml" from
 * the package's root, "x.xml" or "../x.xml" from the folder. -1: none. */
static long resolve(const struct rels *rl, const char *target,
                    struct xmt_buf *name) {
  xmt_buf_reset(name);
  xmt_status st =
      target[0] == '/' ? XMT_OK : xmt_buf_append(name, rl->dir, rl->dir_len);
  for (const char *s = target; st == XMT_OK && *s != '\0';) {
    while (*s == '/')
      s++;
    size_t n = strcspn(s, "/");
    if (n == 2 && memcmp(s, "..", 2) == 0) {
      if (name->len == 0)
        return -1; /* above the root */
      name->len--; /* its '/' */
      while (name->len > 0 && name->data[name->len - 1] != '/')
        name->len--;
    } else if (n > 0 && !(n == 1 && s[0] == '.')) {
      st = xmt_buf_append(name, s, n);
      if (st == XMT_OK && s[n] == '/')
        st = xmt_buf_append(name, "/", 1);
    }
    s += n;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(name, "", 1); /* its NUL */
  if (st != XMT_OK)
    return -1;
  return xmt_package_find_part(rl->doc->base.pkg, name->data);
}

static void XMLCALL on_rel(void *user, const XML_Char *name,
                           const XML_Char **attrs) {
  struct rels *rl = user;
  size_t n = strlen(REL_NS);
  if (rl->x.st != XMT_OK || strncmp(name, REL_NS, n) != 0 ||
      strcmp(name + n, "|Relationship") != 0)
    return;
  const char *type = "", *target = NULL, *mode = "";
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (strcmp(attrs[i], "Type") == 0)
      type = attrs[i + 1];
    else if (strcmp(attrs[i], "Target") == 0)
      target = attrs[i + 1];
    else if (strcmp(attrs[i], "TargetMode") == 0)
      mode = attrs[i + 1];
  const char *slash = strrchr(type, '/');
  int want = rl->package
                 ? slash != NULL && strcmp(slash + 1, "core-properties") == 0
             : rl->embeds ? slash != NULL && strcmp(slash + 1, "package") == 0
                          : text_type(type, rl->drawings);
  if (target == NULL || !want || strcmp(mode, "External") == 0)
    return;
  struct xmt_buf entry = {0};
  long i = resolve(rl, target, &entry);
  xmt_buf_free(&entry);
  for (size_t k = 0; i >= 0 && k < rl->nfound; k++)
    if (rl->found[k] == (size_t)i)
      return;
  const char *main = rl->doc->base.main;
  if (i < 0 ||
      strcmp(xmt_package_name(rl->doc->base.pkg, (size_t)i), main) == 0)
    return;
  size_t *f = xmt_grow_array(rl->found, &rl->cap, rl->nfound + 1, sizeof *f);
  if (f == NULL) {
    xmt_office_stop(&rl->x, XMT_ERR_NOMEM);
    return;
  }
  rl->found = f;
  f[rl->nfound++] = (size_t)i;
}

static int by_index(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* The entries of the parts with text the relationships of part main
 * name (rl->package: the core properties the package's name), added to
 * rl->found, in the package's order. */
static xmt_status find_related(struct rels *rl, const char *main,
                               const char *path, struct xmt_error_store *err) {
  const char *slash = strrchr(main, '/');
  rl->dir = main;
  rl->dir_len = slash != NULL ? (size_t)(slash - main) + 1 : 0;
  if (rl->package)
    rl->dir_len = 0; /* from the package's root */
  struct xmt_buf name = {0}, bytes = {0};
  xmt_status st = xmt_buf_append(&name, main, rl->dir_len);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&name, "_rels/");
  if (st == XMT_OK)
    st = rl->package ? XMT_OK : xmt_buf_append_str(&name, main + rl->dir_len);
  if (st == XMT_OK)
    st = xmt_buf_append(&name, ".rels", 6); /* its NUL too */
  long i =
      st == XMT_OK ? xmt_package_find_part(rl->doc->base.pkg, name.data) : -1;
  if (st == XMT_OK && i >= 0)
    st = xmt_package_read(rl->doc->base.pkg, (size_t)i, 0, &bytes, err);
  if (st == XMT_OK && i >= 0) {
    rl->x = (struct xmt_office_xml){
        .start = on_rel, .doctype = "a doctype is not read in a Word part"};
    const struct xmt_office_entry at = {path, name.data, 0};
    st = xmt_office_xml_parse(&rl->x, bytes.data, bytes.len, &at, err);
  }
  xmt_buf_free(&name);
  xmt_buf_free(&bytes);
  if (st == XMT_OK && rl->nfound > 1)
    qsort(rl->found, rl->nfound, sizeof *rl->found, by_index);
  return st;
}

/* Unit ids say the part by its file name less ".xml" ("header1"), or by
 * its entry name when two parts would share one. */
static xmt_status name_parts(struct word_doc *doc) {
  int full = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < doc->nparts; i++) {
      const char *e = doc->parts[i].name, *slash = strrchr(e, '/');
      const char *base = full || slash == NULL ? e : slash + 1;
      size_t n = strlen(base);
      if (!full && n > 4 && strcmp(base + n - 4, ".xml") == 0)
        n -= 4;
      free(doc->parts[i].unit_name);
      doc->parts[i].unit_name = malloc(n + 1);
      if (doc->parts[i].unit_name == NULL)
        return XMT_ERR_NOMEM;
      memcpy(doc->parts[i].unit_name, base, n);
      doc->parts[i].unit_name[n] = '\0';
    }
    for (size_t i = 0; i < doc->nparts && !full; i++)
      for (size_t k = i + 1; k < doc->nparts; k++)
        if (strcmp(doc->parts[i].unit_name, doc->parts[k].unit_name) == 0)
          full = 1;
    if (!full)
      break;
  }
  return XMT_OK;
}

/* Every entry but the parts verified: a part's CRC is checked when it
 * is read to be parsed, which inflates it once, not twice. */
static xmt_status verify_others(struct word_doc *doc,
                                struct xmt_error_store *err) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < xmt_package_count(doc->base.pkg);
       i++) {
    const char *name = xmt_package_name(doc->base.pkg, i);
    int part = 0;
    for (size_t k = 0; k < doc->nparts && !part; k++)
      part = strcmp(doc->parts[k].name, name) == 0;
    if (!part)
      st = xmt_package_verify(doc->base.pkg, i, err);
  }
  return st;
}

xmt_status xmt_word_load_parts(struct word_doc *doc, const char *path,
                               struct xmt_error_store *err) {
  struct rels rl = {.doc = doc};
  if (pthread_mutex_init(&doc->lock, NULL) != 0)
    return xmt_error_nomem(err);
  doc->locked = 1;
  doc->path = strdup(path);
  if (doc->path == NULL)
    return xmt_error_nomem(err);
  xmt_status st = find_related(&rl, doc->base.main, path, err);
  /* the charts and diagrams of the headers, footers, notes and comments
   * (a logo's SmartArt in a header), as the main part's are */
  size_t nfirst = rl.nfound;
  size_t *first =
      st == XMT_OK && nfirst > 0 ? malloc(nfirst * sizeof *first) : NULL;
  if (nfirst > 0 && st == XMT_OK && first == NULL)
    st = XMT_ERR_NOMEM;
  if (first != NULL)
    memcpy(first, rl.found, nfirst * sizeof *first);
  rl.drawings = 1;
  for (size_t k = 0; k < nfirst && st == XMT_OK; k++)
    st =
        find_related(&rl, xmt_package_name(doc->base.pkg, first[k]), path, err);
  free(first);
  /* the core properties last: the package's relationships name them */
  struct rels core = {.doc = doc, .package = 1};
  if (st == XMT_OK)
    st = find_related(&core, doc->base.main, path, err);
  size_t ncore = core.nfound > 0 ? 1 : 0;
  for (size_t k = 0; k < rl.nfound && ncore > 0; k++)
    if (rl.found[k] == core.found[0])
      ncore = 0; /* a part with text already */
  if (st == XMT_OK) {
    doc->parts = calloc(rl.nfound + 1 + ncore, sizeof *doc->parts);
    st = doc->parts != NULL ? XMT_OK : XMT_ERR_NOMEM;
  }
  if (st == XMT_OK) {
    doc->nparts = rl.nfound + 1 + ncore;
    doc->parts[0].name = doc->base.main;
    for (size_t k = 0; k < rl.nfound; k++)
      doc->parts[k + 1].name = xmt_package_name(doc->base.pkg, rl.found[k]);
    if (ncore > 0) {
      doc->parts[doc->nparts - 1].name =
          xmt_package_name(doc->base.pkg, core.found[0]);
      doc->parts[doc->nparts - 1].props = 1;
    }
    for (size_t k = 0; k < doc->nparts; k++)
      doc->parts[k].lock = &doc->lock;
    st = name_parts(doc);
  }
  free(rl.found);
  free(core.found);
  /* unit ids "part:n": n the paragraph's place among its part's, each
   * count grown as the part's paragraphs are read */
  if (st == XMT_OK)
    doc->numbering = calloc(doc->nparts, sizeof *doc->numbering);
  if (st == XMT_OK && doc->numbering == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_ERR_NOMEM)
    return xmt_error_nomem(err);
  for (size_t k = 0; k < doc->nparts && st == XMT_OK; k++)
    doc->numbering[k] = (struct xmt_unit_part){doc->parts[k].unit_name, 0};
  return st == XMT_OK ? verify_others(doc, err) : st;
}

xmt_status xmt_word_embedded(struct word_doc *doc, const char *part,
                             size_t **found, size_t *n,
                             struct xmt_error_store *err) {
  struct rels rl = {.doc = doc, .embeds = 1};
  xmt_status st = find_related(&rl, part, doc->path, err);
  *found = rl.found;
  *n = st == XMT_OK ? rl.nfound : 0;
  return st;
}

xmt_status xmt_word_parse_parts(struct word_doc *doc, const char *path,
                                const struct word_hook *hook,
                                struct xmt_error_store *err) {
  xmt_status st = XMT_OK;
  while (doc->nparsed < doc->nparts && st == XMT_OK) {
    struct word_part *part = &doc->parts[doc->nparsed];
    long i = xmt_package_find(doc->base.pkg, part->name);
    st = xmt_package_read(doc->base.pkg, (size_t)i, 0, &part->data, err);
    if (st == XMT_OK)
      st = xmt_word_parse(part, path, hook, err);
    pthread_mutex_lock(&doc->lock);
    doc->numbering[doc->nparsed].count = part->npara;
    pthread_mutex_unlock(&doc->lock);
    if (st == XMT_OK)
      doc->nparsed++;
  }
  return st;
}

void xmt_word_parts_free(struct word_doc *doc) {
  for (size_t k = 0; k < doc->nparts; k++) {
    struct word_part *part = &doc->parts[k];
    for (size_t i = 0; i < part->npara; i++)
      xmt_word_para_free(&part->paras[i]);
    free(part->paras);
    free(part->order);
    free(part->bindings);
    free(part->unit_name);
    xmt_buf_free(&part->data);
  }
  free(doc->parts);
  free(doc->numbering);
  free(doc->path);
  doc->path = NULL;
  if (doc->locked)
    pthread_mutex_destroy(&doc->lock);
  doc->locked = 0;
  doc->parts = NULL;
  doc->numbering = NULL;
  doc->nparts = 0;
}
