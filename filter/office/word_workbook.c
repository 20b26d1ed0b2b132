/* word_workbook.c -- the workbook a chart's data is in (an xlsx embedded
 * in the package, which the chart's relationships name and c:externalData
 * points at): the cells the chart's string references name (c:strRef's
 * c:f, a point's place in its range) are given the translation of the
 * chart's cache, in the workbook's shared strings or the cells' inline
 * strings, so that Word, which refreshes the caches from the workbook
 * when the chart's data is edited, shows the translation again, not the
 * source text. A cell whose text is not the cache's (a cache out of
 * date) is left as it is, and so is a workbook that cannot be read: the
 * caller warns then. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_private.h"

#define C_NS "http://schemas.openxmlformats.org/drawingml/2006/chart"
#define S_NS "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
#define R_NS                                                                   \
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
#define REL_NS "http://schemas.openxmlformats.org/package/2006/relationships"

/* A cell a translated cache names: its sheet, column and row (from 1),
 * the cache's text and its translation; done once written. */
struct cell {
  char *sheet, *source, *target;
  unsigned long col, row;
  int done;
};

/* A replacement of bytes [from, to) of a part by a string's text. */
struct splice {
  size_t from, to;
  const char *text;
};

/* One parse: of the chart, the workbook, its relationships, a sheet or
 * the shared strings, as its handlers read it. */
struct scan {
  struct xmt_office_xml x; /* first: the parse */
  const char *data;
  struct cell *cells;
  size_t ncells, cap;
  /* the chart: the c:strRef open (0: none), its c:f's text, the point's
   * index; the element whose text is kept (c:f, c:v, t), from where */
  unsigned long depth, ref_depth, keep_depth;
  struct xmt_buf f, text, *keep;
  long idx;
  size_t from;
  const struct word_part *part;
  /* the workbook: the sheet asked for (its name, then its r:id, then its
   * entry) and the shared strings' entry */
  const char *want;
  char *found, *strings;
  /* a sheet: the cell read (-1: not one asked for), its type; the shared
   * strings: the string's index, its content's start */
  long cell;
  int shared, inline_str;
  long si;
  struct splice *splices;
  size_t nsplices, splices_cap;
  long *shared_of; /* for each cell: its shared string's index, or -1 */
};

static size_t here(const struct scan *s) {
  return (size_t)XML_GetCurrentByteIndex(s->x.xp);
}
static size_t past(const struct scan *s) {
  return here(s) + (size_t)XML_GetCurrentByteCount(s->x.xp);
}

static const char *attr(const XML_Char **attrs, const char *name) {
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (strcmp(attrs[i], name) == 0)
      return attrs[i + 1];
  return NULL;
}

/* "B12" (or "$B$12") into its column and row; 0 when it is not one. */
static int cell_ref(const char *s, size_t n, unsigned long *col,
                    unsigned long *row) {
  size_t i = 0;
  *col = *row = 0;
  if (i < n && s[i] == '$')
    i++;
  for (; i < n && s[i] >= 'A' && s[i] <= 'Z' && *col < 100000; i++)
    *col = *col * 26 + (unsigned long)(s[i] - 'A' + 1);
  if (i < n && s[i] == '$')
    i++;
  for (; i < n && s[i] >= '0' && s[i] <= '9' && *row < 10000000; i++)
    *row = *row * 10 + (unsigned long)(s[i] - '0');
  return i == n && *col > 0 && *row > 0;
}

/* The cell of point idx of the range formula f ("Sheet1!$A$2:$A$5",
 * "'My data'!$B$1"): its sheet (made) and place. 0 when f is no range
 * of one row or one column, or idx is past it. */
static int point_cell(const char *f, long idx, struct cell *c) {
  struct xmt_buf sheet = {0};
  const char *s = f;
  xmt_status st = XMT_OK;
  if (*s == '\'') { /* a quoted name, '' a quote */
    for (s++; *s != '\0' && st == XMT_OK; s++) {
      if (*s == '\'' && s[1] != '\'')
        break;
      st = xmt_buf_append(&sheet, s, 1);
      if (*s == '\'')
        s++;
    }
    s = *s == '\'' ? s + 1 : s;
  } else {
    size_t n = strcspn(s, "!");
    st = xmt_buf_append(&sheet, s, n);
    s += n;
  }
  unsigned long c1, r1, c2, r2;
  const char *colon = *s == '!' ? strchr(s, ':') : NULL;
  int ok = st == XMT_OK && *s == '!' && idx >= 0;
  if (ok && colon == NULL) {
    ok = cell_ref(s + 1, strlen(s + 1), &c1, &r1) && idx == 0;
    c2 = c1, r2 = r1;
  } else if (ok) {
    ok = cell_ref(s + 1, (size_t)(colon - s - 1), &c1, &r1) &&
         cell_ref(colon + 1, strlen(colon + 1), &c2, &r2);
  }
  unsigned long i = (unsigned long)idx;
  if (ok && c1 == c2 && r1 + i <= r2)
    *c = (struct cell){.col = c1, .row = r1 + i};
  else if (ok && r1 == r2 && c1 + i <= c2)
    *c = (struct cell){.col = c1 + i, .row = r1};
  else
    ok = 0;
  if (ok && xmt_buf_append(&sheet, "", 1) == XMT_OK) {
    c->sheet = sheet.data;
    return 1;
  }
  xmt_buf_free(&sheet);
  return 0;
}

/* The text of a target (its codes dropped: a value has none). */
static xmt_status stretch(void *user, const size_t *open, size_t nopen,
                          const char *text, size_t len) {
  (void)open, (void)nopen;
  return xmt_buf_append(user, text, len);
}

/* A c:v of a c:strRef's cache ended: the cell it is, when translated. */
static void cache_value(struct scan *s) {
  const struct word_part *part = s->part;
  const xmt_segment *target = NULL;
  for (size_t i = 0; i < part->npara && target == NULL; i++)
    if (part->paras[i].value && part->paras[i].start == s->from &&
        part->paras[i].end == here(s))
      target = xmt_word_target_of(part, &part->paras[i]);
  struct cell c;
  if (target == NULL || s->f.len == 0 || s->f.data[0] == '\0' ||
      !point_cell(s->f.data, s->idx, &c))
    return;
  struct xmt_buf t = {0};
  const struct xmt_office_target walk = {&t, 0, NULL, stretch, NULL};
  struct cell *cells =
      xmt_grow_array(s->cells, &s->cap, s->ncells + 1, sizeof *cells);
  if (cells != NULL)
    s->cells = cells; /* grown: the old array is no more */
  xmt_status st =
      cells != NULL ? xmt_office_put_target(&walk, target) : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = xmt_buf_append(&t, "", 1);
  c.source = st == XMT_OK ? strdup(s->text.data) : NULL;
  if (st != XMT_OK || c.source == NULL) {
    free(c.sheet);
    xmt_buf_free(&t);
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
    return;
  }
  c.target = t.data;
  cells[s->ncells++] = c;
}

static void XMLCALL chart_start(void *user, const XML_Char *name,
                                const XML_Char **attrs) {
  struct scan *s = user;
  s->depth++;
  if (xmt_office_is(name, C_NS, "strRef") && s->ref_depth == 0) {
    s->ref_depth = s->depth;
    s->f.len = 0;
  }
  if (s->ref_depth == 0 || s->keep != NULL)
    return;
  if (xmt_office_is(name, C_NS, "pt")) {
    const char *idx = attr(attrs, "idx");
    s->idx = idx != NULL ? strtol(idx, NULL, 10) : -1;
  } else if (xmt_office_is(name, C_NS, "f") || xmt_office_is(name, C_NS, "v")) {
    s->keep_depth = s->depth;
    s->keep = xmt_office_is(name, C_NS, "f") ? &s->f : &s->text;
    s->from = past(s);
    xmt_buf_reset(s->keep);
  }
}

static void XMLCALL chart_end(void *user, const XML_Char *name) {
  struct scan *s = user;
  (void)name;
  if (s->keep != NULL && s->keep_depth == s->depth) {
    struct xmt_buf *b = s->keep;
    s->keep = NULL;
    if (xmt_buf_append(b, "", 1) != XMT_OK)
      xmt_office_stop(&s->x, XMT_ERR_NOMEM);
    else if (b == &s->text && s->idx >= 0)
      cache_value(s);
  }
  if (s->ref_depth == s->depth)
    s->ref_depth = 0;
  s->depth--;
}

/* Text of the element kept (s->keep). */
static void XMLCALL keep_text(void *user, const XML_Char *t, int len) {
  struct scan *s = user;
  if (s->keep != NULL && xmt_buf_append(s->keep, t, (size_t)len) != XMT_OK)
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
}

/* xl/workbook.xml: the r:id of the sheet named s->want. */
static void XMLCALL book_start(void *user, const XML_Char *name,
                               const XML_Char **attrs) {
  struct scan *s = user;
  const char *n = attr(attrs, "name"), *id = attr(attrs, R_NS "|id");
  if (s->found == NULL && xmt_office_is(name, S_NS, "sheet") && n != NULL &&
      id != NULL && strcmp(n, s->want) == 0 && (s->found = strdup(id)) == NULL)
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
}

/* xl/_rels/workbook.xml.rels: the target of relationship s->want, and the
 * shared strings' one. */
static void XMLCALL rels_start(void *user, const XML_Char *name,
                               const XML_Char **attrs) {
  struct scan *s = user;
  const char *id = attr(attrs, "Id"), *type = attr(attrs, "Type");
  const char *target = attr(attrs, "Target"), *slash;
  if (!xmt_office_is(name, REL_NS, "Relationship") || target == NULL)
    return;
  char **slot = NULL;
  if (id != NULL && s->found == NULL && strcmp(id, s->want) == 0)
    slot = &s->found;
  else if (type != NULL && s->strings == NULL &&
           (slash = strrchr(type, '/')) != NULL &&
           strcmp(slash, "/sharedStrings") == 0)
    slot = &s->strings;
  /* from xl/, or from the package's root */
  size_t n = strlen(target);
  char *entry = slot != NULL ? malloc(n + 4) : NULL;
  if (slot != NULL && entry == NULL)
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
  if (entry == NULL)
    return;
  if (target[0] == '/')
    memcpy(entry, target + 1, n);
  else
    memcpy(entry, "xl/", 3), memcpy(entry + 3, target, n + 1);
  *slot = entry;
}

/* The cells asked for of the sheet s->want. */
static long cell_at(const struct scan *s, const char *r) {
  unsigned long col, row;
  if (r == NULL || !cell_ref(r, strlen(r), &col, &row))
    return -1;
  for (size_t i = 0; i < s->ncells; i++)
    if (s->cells[i].col == col && s->cells[i].row == row &&
        strcmp(s->cells[i].sheet, s->want) == 0)
      return (long)i;
  return -1;
}

static void add_splice(struct scan *s, size_t from, size_t to,
                       const char *text) {
  struct splice *v =
      xmt_grow_array(s->splices, &s->splices_cap, s->nsplices + 1, sizeof *v);
  if (v == NULL) {
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
    return;
  }
  s->splices = v;
  v[s->nsplices++] = (struct splice){from, to, text};
}

/* A sheet: each cell asked for, its shared string's index (t="s") or its
 * inline string (t="inlineStr": its is's content replaced when its text
 * is the cache's); a string's text (t, not a phonetic reading's). */
static void XMLCALL sheet_start(void *user, const XML_Char *name,
                                const XML_Char **attrs) {
  struct scan *s = user;
  s->depth++;
  if (xmt_office_is(name, S_NS, "c")) {
    const char *t = attr(attrs, "t");
    s->cell = cell_at(s, attr(attrs, "r"));
    s->shared = t != NULL && strcmp(t, "s") == 0;
    s->inline_str = t != NULL && strcmp(t, "inlineStr") == 0;
  } else if (s->cell >= 0 && s->shared && xmt_office_is(name, S_NS, "v")) {
    s->keep = &s->text, s->keep_depth = s->depth;
    xmt_buf_reset(&s->text);
  } else if ((s->si >= -1 || (s->cell >= 0 && s->inline_str)) &&
             (xmt_office_is(name, S_NS, "si") ||
              xmt_office_is(name, S_NS, "is"))) {
    s->si += xmt_office_is(name, S_NS, "si");
    s->from = past(s);
    s->ref_depth = s->depth;
    xmt_buf_reset(&s->text);
  } else if (xmt_office_is(name, S_NS, "rPh")) {
    s->keep_depth = s->depth; /* a reading: not the string's text */
  } else if (s->ref_depth != 0 && s->keep == NULL &&
             xmt_office_is(name, S_NS, "t")) {
    s->keep = &s->text;
  }
}

/* A string ended at here(s): replaced with the translation of each cell
 * asked for whose string it is (index si, or an inline one) and whose
 * text is the cache's. */
static void string_end(struct scan *s, long si) {
  for (size_t i = 0; i < s->ncells; i++) {
    struct cell *c = &s->cells[i];
    int mine = si >= 0 ? s->shared_of[i] == si : (long)i == s->cell;
    if (!mine || strcmp(c->source, s->text.data) != 0)
      continue;
    if (!c->done && (si < 0 || s->nsplices == 0 ||
                     s->splices[s->nsplices - 1].from != s->from))
      add_splice(s, s->from, here(s), c->target);
    c->done = 1;
  }
}

static void XMLCALL sheet_end(void *user, const XML_Char *name) {
  struct scan *s = user;
  if (s->keep != NULL && xmt_office_is(name, S_NS, "t"))
    s->keep = NULL;
  else if (s->keep != NULL && s->keep_depth == s->depth) { /* a v */
    s->keep = NULL;
    if (xmt_buf_append(&s->text, "", 1) != XMT_OK)
      xmt_office_stop(&s->x, XMT_ERR_NOMEM);
    else
      s->shared_of[s->cell] = strtol(s->text.data, NULL, 10);
  } else if (s->ref_depth == s->depth) { /* an si or is */
    s->ref_depth = 0;
    if (xmt_buf_append(&s->text, "", 1) != XMT_OK)
      xmt_office_stop(&s->x, XMT_ERR_NOMEM);
    else
      string_end(s, xmt_office_is(name, S_NS, "si") ? s->si : -1);
  }
  if (s->keep_depth == s->depth)
    s->keep_depth = 0;
  s->depth--;
}

static void XMLCALL string_text(void *user, const XML_Char *t, int len) {
  struct scan *s = user;
  if (s->keep != NULL && (s->keep_depth == 0 || s->keep_depth == s->depth) &&
      xmt_buf_append(s->keep, t, (size_t)len) != XMT_OK)
    xmt_office_stop(&s->x, XMT_ERR_NOMEM);
}

/* Parses entry name of pkg with s's handlers; an entry missing is no
 * error (s finds nothing). */
static xmt_status parse_entry(struct scan *s, xmt_package *pkg,
                              const char *name, struct xmt_buf *bytes,
                              XML_StartElementHandler start,
                              XML_EndElementHandler end,
                              struct xmt_error_store *err) {
  long i = name != NULL ? xmt_package_find_part(pkg, name) : -1;
  xmt_buf_reset(bytes);
  if (i < 0)
    return XMT_OK;
  xmt_status st = xmt_package_read(pkg, (size_t)i, 0, bytes, err);
  s->x = (struct xmt_office_xml){
      .start = start,
      .end = end,
      .text = string_text,
      .doctype = "a doctype is not read in a workbook's part"};
  s->depth = s->keep_depth = s->ref_depth = 0;
  s->keep = NULL;
  s->nsplices = 0;
  const struct xmt_office_entry at = {name, name, 0};
  return st == XMT_OK
             ? xmt_office_xml_parse(&s->x, bytes->data, bytes->len, &at, err)
             : st;
}

/* bytes with s's splices made, each string's content a t of its text. */
static xmt_status spliced(const struct scan *s, const struct xmt_buf *bytes,
                          struct xmt_buf *out) {
  if (bytes->data == NULL) /* an empty part: nothing to splice */
    return XMT_OK;
  size_t at = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < s->nsplices && st == XMT_OK; i++) {
    const struct splice *v = &s->splices[i];
    /* the t written with the prefix of the si or is it is in */
    const char *tag = bytes->data + v->from, *lt = tag;
    while (lt > bytes->data && *lt != '<')
      lt--;
    size_t n = strcspn(lt + 1, " \t\r\n/>");
    const char *colon = memchr(lt + 1, ':', n);
    size_t plen = colon != NULL ? (size_t)(colon - lt) : 0;
    st = xmt_buf_append(out, bytes->data + at, v->from - at);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "<", 1);
    if (st == XMT_OK)
      st = xmt_buf_append(out, lt + 1, plen);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, "t xml:space=\"preserve\">");
    if (st == XMT_OK)
      st = xmt_word_put_escaped(out, v->text, strlen(v->text), 0);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "</", 2);
    if (st == XMT_OK)
      st = xmt_buf_append(out, lt + 1, plen);
    if (st == XMT_OK)
      st = xmt_buf_append(out, "t>", 2);
    at = v->to;
  }
  return st == XMT_OK ? xmt_buf_append(out, bytes->data + at, bytes->len - at)
                      : st;
}

static int to_buf(void *user, const char *bytes, size_t len) {
  return xmt_buf_append(user, bytes, len) != XMT_OK;
}

/* The workbook's sheets and shared strings with the cells of s given
 * their translations, written whole into out; out left empty when no
 * cell was found. */
static xmt_status rewrite(struct scan *s, xmt_package *wb, struct xmt_buf *out,
                          struct xmt_error_store *err) {
  struct xmt_buf bytes = {0}, *parts = calloc(s->ncells + 1, sizeof *parts);
  struct xmt_package_part *repl = calloc(s->ncells + 1, sizeof *repl);
  char **names = calloc(s->ncells + 1, sizeof *names);
  size_t n = 0;
  xmt_status st =
      parts != NULL && repl != NULL && names != NULL ? XMT_OK : XMT_ERR_NOMEM;
  s->si = -2;
  for (size_t i = 0; i < s->ncells && st == XMT_OK; i++) {
    int seen = 0; /* a sheet read once, for all its cells */
    for (size_t k = 0; k < i; k++)
      seen |= strcmp(s->cells[k].sheet, s->cells[i].sheet) == 0;
    if (seen)
      continue;
    s->want = s->cells[i].sheet;
    free(s->found);
    s->found = NULL;
    st = parse_entry(s, wb, "xl/workbook.xml", &bytes, book_start, NULL, err);
    char *id = s->found;
    s->found = NULL;
    s->want = id;
    if (st == XMT_OK && id != NULL)
      st = parse_entry(s, wb, "xl/_rels/workbook.xml.rels", &bytes, rels_start,
                       NULL, err);
    free(id);
    s->want = s->cells[i].sheet;
    if (st == XMT_OK && s->found != NULL)
      st = parse_entry(s, wb, s->found, &bytes, sheet_start, sheet_end, err);
    if (st == XMT_OK && s->nsplices > 0) {
      st = spliced(s, &bytes, &parts[n]);
      names[n] = s->found;
      s->found = NULL;
      repl[n] =
          (struct xmt_package_part){names[n], parts[n].data, parts[n].len};
      n++;
    }
  }
  s->si = -1;
  if (st == XMT_OK && s->strings != NULL)
    st = parse_entry(s, wb, s->strings, &bytes, sheet_start, sheet_end, err);
  if (st == XMT_OK && s->nsplices > 0) {
    st = spliced(s, &bytes, &parts[n]);
    repl[n] =
        (struct xmt_package_part){s->strings, parts[n].data, parts[n].len};
    n++;
  }
  if (st == XMT_OK && n > 0)
    st = xmt_package_write_out(wb, repl, n, to_buf, out, err);
  for (size_t k = 0; parts != NULL && k <= s->ncells; k++)
    xmt_buf_free(&parts[k]);
  for (size_t k = 0; names != NULL && k <= s->ncells; k++)
    free(names[k]);
  free(parts);
  free(repl);
  free(names);
  xmt_buf_free(&bytes);
  return st;
}

xmt_status xmt_word_workbook(const struct word_doc *doc,
                             const struct word_part *part, size_t entry,
                             struct xmt_buf *out, size_t *missed,
                             struct xmt_error_store *err) {
  struct scan s = {.part = part, .si = -2};
  *missed = 0;
  xmt_buf_reset(out);
  s.x = (struct xmt_office_xml){.start = chart_start,
                                .end = chart_end,
                                .text = keep_text,
                                .doctype =
                                    "a doctype is not read in a Word part"};
  const struct xmt_office_entry at = {doc->path, part->name, 0};
  xmt_status st =
      xmt_office_xml_parse(&s.x, part->data.data, part->data.len, &at, err);
  struct xmt_buf bytes = {0};
  /* the workbook's own faults (not a zip, a part not well-formed) leave
   * it as it is, with the warning: they are not the document's */
  struct xmt_error_store scratch = {0};
  xmt_package *wb = NULL;
  if (st == XMT_OK && s.ncells > 0) {
    s.shared_of = malloc(s.ncells * sizeof *s.shared_of);
    st = s.shared_of != NULL ? XMT_OK : XMT_ERR_NOMEM;
    for (size_t i = 0; st == XMT_OK && i < s.ncells; i++)
      s.shared_of[i] = -1;
    if (st == XMT_OK)
      st = xmt_package_read(doc->base.pkg, entry, 0, &bytes, err);
  }
  if (st == XMT_OK && s.ncells > 0 &&
      xmt_package_open_mem(&wb, xmt_package_name(doc->base.pkg, entry),
                           bytes.data, bytes.len, NULL, &scratch) == XMT_OK) {
    xmt_status ws = rewrite(&s, wb, out, &scratch);
    if (ws == XMT_ERR_NOMEM)
      st = xmt_error_nomem(err);
    else if (ws != XMT_OK)
      xmt_buf_reset(out);
  }
  for (size_t i = 0; i < s.ncells; i++) {
    *missed += !s.cells[i].done || out->len == 0;
    free(s.cells[i].sheet);
    free(s.cells[i].source);
    free(s.cells[i].target);
  }
  xmt_package_free(wb);
  xmt_error_clear(&scratch);
  xmt_buf_free(&bytes);
  xmt_buf_free(&s.f);
  xmt_buf_free(&s.text);
  free(s.cells);
  free(s.splices);
  free(s.shared_of);
  free(s.found);
  free(s.strings);
  return st;
}
