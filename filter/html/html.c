/* html.c -- the HTML format: telling HTML from XLIFF, extracting a page's
 * units to XLIFF 1.2, merging translated XLIFF back into the page, and the
 * format operations through which the pipeline reads a page's units and
 * writes their targets into it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "html_private.h"

/* --- Sniffing ---------------------------------------------------------------
 */

static int lower_c(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* 1 when s[at..] starts with word (ASCII case ignored) and a name ends
 * there. */
static int opens(const char *s, size_t n, size_t at, const char *word) {
  size_t k = strlen(word);
  if (at + k > n)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (lower_c((unsigned char)s[at + i]) != word[i])
      return 0;
  return at + k == n || s[at + k] == ' ' || s[at + k] == '>' ||
         s[at + k] == '/' || s[at + k] == '\t' || s[at + k] == '\n' ||
         s[at + k] == '\r';
}

/* The names of a page, the one list of them (the table's, and
 * xmt_html_sniff's). */
static const char *const html_extensions[] = {".html", ".htm", ".xhtml", NULL};

/* 1 when the first bytes start as a page, 0 when they start otherwise,
 * -1 when they do not say (text, nothing). */
static int starts_as_html(const char *bytes, size_t len) {
  static const char *const html_starts[] = {"<!doctype html",
                                            "<html",
                                            "<head",
                                            "<body",
                                            "<meta",
                                            "<title",
                                            "<link",
                                            "<style",
                                            "<script",
                                            "<p",
                                            "<div",
                                            "<table",
                                            "<h1",
                                            "<h2",
                                            "<h3",
                                            "<h4",
                                            "<h5",
                                            "<h6",
                                            "<ul",
                                            "<ol",
                                            "<dl",
                                            "<span",
                                            "<a",
                                            "<b",
                                            "<i",
                                            "<img",
                                            "<br",
                                            "<form",
                                            "<pre",
                                            "<section",
                                            "<article",
                                            "<header",
                                            "<nav",
                                            "<main",
                                            "<footer",
                                            "<center",
                                            "<font",
                                            "<blockquote",
                                            "<base",
                                            "<noscript",
                                            NULL};
  /* An ASCII view of the first bytes: UTF-16 loses its zero bytes. */
  char v[1024];
  size_t n = 0, i = 0, step = 1;
  const unsigned char *b = (const unsigned char *)bytes;
  if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF)
    i = 3;
  else if (len >= 2 &&
           ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
    i = b[0] == 0xFF ? 2 : 3;
    step = 2;
  }
  for (; i < len && n < sizeof v; i += step)
    v[n++] = bytes[i];
  size_t at = 0;
  int decided = -1;
  while (decided < 0) {
    while (at < n && html_is_space(v[at]))
      at++;
    if (at + 4 <= n && memcmp(v + at, "<!--", 4) == 0) {
      const char *end = NULL;
      for (size_t k = at + 4; k + 3 <= n && end == NULL; k++)
        if (memcmp(v + k, "-->", 3) == 0)
          end = v + k + 3;
      if (end == NULL)
        break;
      at = (size_t)(end - v);
      continue;
    }
    if (at + 5 <= n && opens(v, n, at, "<?xml")) {
      const char *end = memchr(v + at, '>', n - at);
      if (end == NULL)
        break;
      at = (size_t)(end - v) + 1;
      continue;
    }
    if (at >= n || v[at] != '<')
      break; /* text, or nothing: ambiguous */
    for (const char *const *h = html_starts; *h != NULL && decided < 0; h++)
      if (opens(v, n, at, *h) ||
          (h == html_starts && at + 14 <= n &&
           strncasecmp(v + at, "<!doctype html", 14) == 0))
        decided = 1;
    if (decided < 0 && at + 1 < n &&
        ((v[at + 1] >= 'a' && v[at + 1] <= 'z') ||
         (v[at + 1] >= 'A' && v[at + 1] <= 'Z') || v[at + 1] == '!'))
      decided = 0; /* another root element: XLIFF or some XML */
    break;
  }
  return decided;
}

int xmt_html_sniff(const char *bytes, size_t len, const char *path) {
  int decided = starts_as_html(bytes, len);
  if (decided >= 0)
    return decided;
  const char *dot = path != NULL ? strrchr(path, '.') : NULL;
  for (const char *const *e = html_extensions; dot != NULL && *e != NULL; e++)
    if (strcasecmp(dot, *e) == 0)
      return 1;
  return 0;
}

/* --- Shared -----------------------------------------------------------------
 */

/* A BCP 47-looking language tag, as XLIFF's source-language needs. */
static int language_tag(const char *s) {
  if (s == NULL)
    return 0;
  size_t part = 0, parts = 0;
  for (const char *p = s;; p++) {
    int alnum = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                (parts > 0 && *p >= '0' && *p <= '9');
    if (alnum && part < 8) {
      part++;
      continue;
    }
    if ((*p != '-' && *p != '\0') || part == 0)
      return 0;
    parts++;
    part = 0;
    if (*p == '\0')
      return 1;
  }
}

static const char *source_language(xmt_filter *f, const struct html_doc *doc,
                                   const char *path) {
  if (f->source_language != NULL)
    return f->source_language;
  if (language_tag(doc->lang))
    return doc->lang;
  xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
               "the page does not say its language (<html lang>): give the "
               "source language with -s");
  return NULL;
}

static void fill_stats(const struct html_doc *doc,
                       struct xmt_html_stats *stats) {
  memset(stats, 0, sizeof *stats);
  stats->units = doc->nunits;
  for (size_t i = 0; i < doc->nunits; i++)
    stats->attribute_units += doc->units[i].is_attr != 0;
  stats->codes = doc->ncodes;
  stats->bytes_in = doc->len;
  stats->invalid_bytes = doc->invalid_bytes;
}

/* Tells the run's warning callback how many bytes of a UTF-8 page were
 * not UTF-8 and read as U+FFFD. */
static void warn_invalid_bytes(xmt_filter *f, const struct html_doc *doc,
                               const char *path) {
  if (doc->invalid_bytes == 0 || f->on_warning == NULL)
    return;
  char msg[512];
  snprintf(msg, sizeof msg, "%s:%lu:%lu: %zu byte%s not UTF-8, read as U+FFFD",
           path, doc->invalid_line, doc->invalid_column, doc->invalid_bytes,
           doc->invalid_bytes == 1 ? " is" : "s are");
  f->on_warning(f->callback_user, NULL, 0, msg);
}

static xmt_status write_xliff(xmt_filter *f, const struct html_doc *doc,
                              const char *original, const char *src,
                              const char *xliff_path) {
  struct xmt_output out;
  xmt_status st = xmt_output_open(&out, xliff_path, &f->err);
  if (st != XMT_OK)
    return st;
  st = xmt_html_doc_write_xliff(doc, original, src, f->target_language,
                                xmt_output_write, &out);
  if (st == XMT_ERR_WRITE && out.write_errno != 0) {
    st = xmt_output_reason(&out, st, xliff_path, &f->err);
    xmt_output_abort(&out);
    return st;
  }
  if (st != XMT_OK) {
    xmt_output_abort(&out);
    return xmt_error_at(&f->err, st, XMT_IN(xliff_path), "%s",
                        st == XMT_ERR_WRITE ? "cannot write the output"
                                            : xmt_strerror(st));
  }
  return xmt_output_commit(&out, &f->err);
}

/* --- Extract ----------------------------------------------------------------
 */

xmt_status xmt_html_extract_file(xmt_filter *f, const char *html_path,
                                 const char *xliff_path,
                                 struct xmt_html_stats *stats) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  struct xmt_html_stats local;
  if (stats == NULL)
    stats = &local;
  memset(stats, 0, sizeof *stats);
  if (html_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  struct html_doc doc;
  xmt_status st = xmt_html_doc_load(&doc, f, html_path);
  if (st != XMT_OK)
    return st;
  warn_invalid_bytes(f, &doc, html_path);
  const char *src = source_language(f, &doc, html_path);
  if (src == NULL)
    st = f->err.pub.status;
  else
    st = write_xliff(f, &doc, html_path, src, xliff_path);
  fill_stats(&doc, stats);
  xmt_html_doc_free(&doc);
  return st;
}

/* --- Reading targets --------------------------------------------------------
 */

struct targets {
  const struct html_doc *doc;
  xmt_filter *f;
  const char *path;
  xmt_segment **seg;     /* per unit; NULL: no target */
  unsigned long *line;   /* of its trans-unit; 0: not in the XLIFF */
  char *target_language; /* of the first <file> */
  int files;
  int failed;
};

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct targets *t = user;
  (void)tag, (void)len;
  if (t->files++ == 0 && info->target_language != NULL &&
      (t->target_language = xmt_strdup(info->target_language)) == NULL) {
    t->failed = 1;
    xmt_error_nomem(&t->f->err);
    return 1;
  }
  return 0;
}

static int on_unit(void *user, xmt_xliff_unit *u) {
  struct targets *t = user;
  const char *id = xmt_xliff_unit_id(u) != NULL ? xmt_xliff_unit_id(u) : "";
  char *end;
  unsigned long n = id[0] >= '1' && id[0] <= '9' ? strtoul(id, &end, 10) : 0;
  const char *why = NULL;
  if (n == 0 || *end != '\0' || n > t->doc->nunits)
    why = "is not a unit of the page: was the XLIFF extracted from another "
          "page?";
  else if (t->line[n - 1] != 0)
    why = "appears twice";
  const struct html_unit *hu = why == NULL ? &t->doc->units[n - 1] : NULL;
  /* Its codes too: the target places the page's codes as they were. */
  if (hu != NULL && !xmt_target_is_source(u->whole_source, hu->source))
    why = "has a source that differs from the page: was the page changed "
          "after the extract?";
  xmt_status st = XMT_OK;
  if (why != NULL) {
    st = xmt_error_at(&t->f->err, XMT_ERR_FORMAT,
                      XMT_AT_UNIT(t->path, xmt_xliff_unit_line(u), id),
                      "<trans-unit> %s", why);
  } else {
    t->line[n - 1] = xmt_xliff_unit_line(u);
    const xmt_segment *target = xmt_xliff_unit_existing_target(u);
    if (target != NULL && xmt_xliff_unit_has_target(u)) {
      if ((t->seg[n - 1] = xmt_segment_new()) == NULL ||
          xmt_segment_copy(t->seg[n - 1], target) != XMT_OK)
        st = xmt_error_nomem(&t->f->err);
    }
  }
  xmt_xliff_unit_free(u);
  t->failed = st != XMT_OK;
  return t->failed;
}

static void targets_free(struct targets *t) {
  for (size_t i = 0; t->seg != NULL && i < t->doc->nunits; i++)
    xmt_segment_free(t->seg[i]);
  free(t->seg);
  free(t->line);
  free(t->target_language);
}

/* Reads the targets of xliff_path, checking that its units are the page's. */
static xmt_status read_targets(xmt_filter *f, const struct html_doc *doc,
                               const char *xliff_path, struct targets *t) {
  memset(t, 0, sizeof *t);
  t->doc = doc;
  t->f = f;
  t->path = xliff_path;
  size_t n = doc->nunits > 0 ? doc->nunits : 1;
  t->seg = calloc(n, sizeof *t->seg);
  t->line = calloc(n, sizeof *t->line);
  if (t->seg == NULL || t->line == NULL)
    return xmt_error_nomem(&f->err);
  static const struct xmt_xliff_reader_callbacks cb = {xmt_skip_skeleton,
                                                       on_file, on_unit};
  return xmt_read_xliff_path(f, xliff_path, &cb, t, &t->failed);
}

static xmt_status write_page(xmt_filter *f, const struct html_doc *doc,
                             const struct targets *t, const char *lang,
                             const char *out_path) {
  struct xmt_output out;
  xmt_status st = xmt_output_open(&out, out_path, &f->err);
  if (st != XMT_OK)
    return st;
  st = xmt_html_doc_write(doc, (const xmt_segment *const *)t->seg, lang,
                          xmt_output_write, &out, &f->err);
  if (st == XMT_ERR_WRITE && out.write_errno != 0) {
    st = xmt_output_reason(&out, st, out_path, &f->err);
    xmt_output_abort(&out);
    return st;
  }
  if (st != XMT_OK) {
    xmt_output_abort(&out);
    if (f->err.pub.file == NULL)
      xmt_error_at(
          &f->err, st, XMT_IN(st == XMT_ERR_WRITE ? out_path : t->path), "%s",
          f->err.pub.message != NULL ? f->err.pub.message : xmt_strerror(st));
    return st;
  }
  return xmt_output_commit(&out, &f->err);
}

/* --- Merge ------------------------------------------------------------------
 */

xmt_status xmt_html_merge_file(xmt_filter *f, const char *html_path,
                               const char *xliff_path, const char *out_path,
                               struct xmt_html_stats *stats,
                               xmt_problem_fn on_problem, void *user) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  struct xmt_html_stats local;
  if (stats == NULL)
    stats = &local;
  memset(stats, 0, sizeof *stats);
  if (html_path == NULL || xliff_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "merge needs the page and its XLIFF");
  struct html_doc doc;
  xmt_status st = xmt_html_doc_load(&doc, f, html_path);
  if (st != XMT_OK)
    return st;
  warn_invalid_bytes(f, &doc, html_path);
  fill_stats(&doc, stats);
  struct targets t;
  st = read_targets(f, &doc, xliff_path, &t);
  const char *lang =
      f->target_language != NULL ? f->target_language : t.target_language;
  /* Else the page would keep its <html lang>, the source's, over text in
   * another language. */
  if (st == XMT_OK && lang == NULL)
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(xliff_path),
                      "no target language: the XLIFF names none; give one "
                      "with -t");
  else if (st == XMT_OK && !language_tag(lang) && lang == f->target_language)
    st = xmt_error_set(&f->err, XMT_ERR_USAGE,
                       "invalid language tag '%s' for <html lang>", lang);
  else if (st == XMT_OK && !language_tag(lang))
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(xliff_path),
                      "target language '%s' is not a language tag; give "
                      "one with -t",
                      lang);
  for (size_t i = 0; st == XMT_OK && i < doc.nunits; i++) {
    if (t.seg[i] != NULL) {
      stats->units_with_target++;
      continue;
    }
    stats->missing_targets++;
    if (on_problem == NULL)
      continue;
    char id[24], msg[96];
    snprintf(id, sizeof id, "%u", doc.units[i].id);
    snprintf(msg, sizeof msg, "%s: the source text is kept",
             t.line[i] != 0 ? "no target" : "no trans-unit in the XLIFF");
    const struct xmt_problem p = {XMT_WARNING, xliff_path, t.line[i],
                                  0,           id,         msg};
    if (on_problem(user, &p) != 0)
      st = xmt_error_set(&f->err, XMT_ERR_ABORTED, "%s",
                         xmt_strerror(XMT_ERR_ABORTED));
  }
  if (st == XMT_OK)
    st = write_page(f, &doc, &t, lang, out_path);
  if (st == XMT_OK && stats->missing_targets > 0)
    st = xmt_error_at(&f->err, XMT_ERR_PARTIAL, XMT_IN(xliff_path),
                      "%zu of %zu units have no target; their source text "
                      "is kept",
                      stats->missing_targets, doc.nunits);
  targets_free(&t);
  xmt_html_doc_free(&doc);
  return st;
}

/* --- The HTML format of the pipeline -------------------------------------
 * A page and the targets the run hands back, one per unit, kept typed
 * (target.c) until the page is written: text and the indexes of the
 * unit's codes, smaller than a segment object or the target's XLIFF
 * markup, as the run is still alive when the page is written. */

struct page {
  struct html_doc doc; /* its units found by read(), or a piece at a time */
  struct html_target **targets; /* NULL: the unit keeps its source */
  struct html_taker taker;
  struct html_stream *stream; /* written as it is read (stream.c) */
};

/* An element other than <xliff> first (after the prolog), a doctype
 * named html, or a start a page has: a page, unless the first element
 * says another format. */
static int bid(const struct xmt_head *head) {
  if (head->doctype_html || starts_as_html(head->bytes, head->len) == 1 ||
      (head->element != NULL &&
       starts_as_html(head->element, head->element_len) == 1))
    return XMT_BID_LOOKS;
  return XMT_BID_NO;
}

static void close_page(void *doc) {
  struct page *p = doc;
  for (size_t i = 0; p->targets != NULL && i < p->doc.nunits; i++)
    free(p->targets[i]);
  free(p->targets);
  xmt_html_taker_free(&p->taker);
  xmt_html_stream_free(p->stream);
  xmt_html_doc_free(&p->doc);
  free(p);
}

/* A page read from path, or from bytes when not NULL: its bytes, their
 * encoding checked; its units are found by read(). */
static xmt_status new_page(xmt_filter *f, const char *path, const char *bytes,
                           size_t len, struct page **page, size_t *size) {
  struct page *p = calloc(1, sizeof *p);
  if (p == NULL)
    return xmt_error_nomem(&f->err);
  xmt_status st = bytes != NULL  ? xmt_html_doc_prepare(&p->doc, bytes, len,
                                                        f->flags, path, &f->err)
                  : size != NULL ? xmt_html_doc_open(&p->doc, f, path, size)
                                 : xmt_html_doc_read(&p->doc, f, path, 0);
  if (st != XMT_OK) {
    free(p);
    return st;
  }
  warn_invalid_bytes(f, &p->doc, path);
  *page = p;
  return XMT_OK;
}

/* The units of a page not streamed, found all at once. */
static xmt_status build_page(xmt_filter *f, struct page *p, const char *path) {
  xmt_status st = xmt_html_doc_read_rest(&p->doc, path, &f->err);
  if (st == XMT_OK)
    st = xmt_html_doc_build(&p->doc, path, &f->err);
  if (st == XMT_OK &&
      (p->targets = calloc(p->doc.nunits > 0 ? p->doc.nunits : 1,
                           sizeof *p->targets)) == NULL)
    st = xmt_error_nomem(&f->err);
  return st;
}

/* The page's first bytes read, the rest read as its units are found
 * (stream.c) or all at once (build_page). */
static xmt_status open_page(xmt_filter *f, const char *path, void **doc,
                            size_t *bytes) {
  struct page *p = NULL;
  *bytes = 0;
  f->err_placed = 0;
  xmt_status st = new_page(f, path, NULL, 0, &p, bytes);
  *doc = p;
  return st;
}

/* check and report: the page read whole, its encoding checked first. */
static xmt_status open_whole_page(xmt_filter *f, const char *path, void **doc,
                                  size_t *bytes) {
  struct page *p = NULL;
  xmt_status st = new_page(f, path, NULL, 0, &p, NULL);
  *doc = p;
  *bytes = p != NULL ? p->doc.len : 0;
  return st;
}

static xmt_status parse_page(xmt_filter *f, const char *name, const char *bytes,
                             size_t len, void **doc) {
  struct page *p = NULL;
  xmt_status st = new_page(f, name, bytes != NULL ? bytes : "", len, &p, NULL);
  *doc = p;
  return st;
}

static xmt_status page_units(xmt_filter *f, void *doc, const char *path,
                             const struct xmt_unit_sink *sink) {
  struct page *p = doc;
  if (p->stream != NULL)
    return xmt_html_stream_units(p->stream, f, path, source_language, sink);
  xmt_status st = p->targets == NULL ? build_page(f, p, path) : XMT_OK;
  if (st != XMT_OK)
    return st;
  const char *src = source_language(f, &p->doc, path);
  if (src == NULL)
    return f->err.pub.status;
  return xmt_html_doc_units(&p->doc, path, src, f->target_language, sink);
}

static xmt_status take_target(xmt_filter *f, void *doc,
                              const xmt_xliff_unit *unit,
                              const xmt_segment *target) {
  struct page *p = doc;
  /* The units are the ones page_units numbered from 1. */
  size_t i;
  xmt_status st = xmt_unit_index(
      unit, p->stream != NULL ? SIZE_MAX : p->doc.nunits, "page", &i, &f->err);
  if (st == XMT_OK && p->stream != NULL &&
      (st = xmt_html_stream_take(p->stream, i + 1, unit, target)) ==
          XMT_ERR_INTERNAL)
    return xmt_error_at(
        &f->err, st,
        &(const struct xmt_where){.unit_id = xmt_xliff_unit_id(unit)},
        "a unit the page does not have");
  if (st != XMT_OK || p->stream != NULL)
    return st;
  free(p->targets[i]);
  p->targets[i] = NULL;
  /* A target that is its source writes the page's own bytes anyway. */
  if (target == NULL || xmt_segment_equal(target, p->doc.units[i].source))
    return XMT_OK;
  return xmt_html_target_take(&p->taker, &p->doc, i, target, &p->targets[i]);
}

static xmt_status write_targets(xmt_filter *f, void *doc,
                                const char *target_language, xmt_write_fn sink,
                                void *user) {
  const struct page *p = doc;
  if (p->stream != NULL)
    return xmt_html_stream_finish(p->stream, &f->err);
  return xmt_html_doc_write_targets(
      &p->doc, (const struct html_target *const *)p->targets, target_language,
      sink, user, &f->err);
}

/* Before read(): the page is written a piece at a time as it is read. */
static xmt_status stream_page(xmt_filter *f, void *doc,
                              const char *target_language, xmt_write_fn sink,
                              void *user) {
  struct page *p = doc;
  if (xmt_html_stream_new(&p->stream, &p->doc, target_language, sink, user) !=
      XMT_OK)
    return xmt_error_nomem(&f->err);
  return XMT_OK;
}

const struct xmt_format xmt_format_html = {
    .info = {XMT_FORMAT_HTML, "html", "HTML", html_extensions},
    .noun = "HTML page",
    .media_type = "text/html",
    .bid = bid,
    .flags = XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE |
             XMT_FILTER_HTML_REPLACE_INVALID,
    .attribute_units = 1,
    .extract_file = xmt_html_extract_file,
    .merge_file = xmt_html_merge_file,
    .open = open_page,
    .open_whole = open_whole_page,
    .parse = parse_page,
    .read = page_units,
    .take = take_target,
    .write = write_targets,
    .close = close_page,
    .stream = stream_page};
