/* units_io.c -- a document of any format with units (an entry with read,
 * take and write: Word, OpenDocument, HTML) out to XLIFF 1.2 for a CAT
 * tool, and back: the document written with the targets of that XLIFF,
 * taken by the entry as a run hands them (format->take), so that extract,
 * a translation of the XLIFF and merge give what translate gives. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

/* The format of path, when it has units of its own to extract or merge
 * (an XLIFF document has segments: xmt_filter_extract_segments_file). */
static xmt_status units_format(xmt_filter *f, const char *path,
                               const char *what,
                               const struct xmt_format **format) {
  xmt_status st = xmt_format_of(f, path, format);
  if (st == XMT_OK && ((*format)->read == NULL || (*format)->take == NULL ||
                       (*format)->write == NULL))
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                      "a document in %s has no units to %s: it is XLIFF "
                      "already",
                      (*format)->info.description, what);
  return st;
}

/* The codes of seg: a pair counts once. */
static size_t codes_of(const xmt_segment *seg) {
  size_t n = 0, tags = xmt_segment_tag_count(seg);
  for (size_t i = 0; i < tags; i++) {
    struct xmt_tag t;
    if (xmt_segment_tag(seg, i, &t) == XMT_OK && t.kind != XMT_TAG_CLOSE)
      n++;
  }
  return n;
}

/* --- Extract ----------------------------------------------------------------
 */

/* The units counted on their way to the XLIFF text. */
struct counting {
  struct xmt_unit_sink next;
  struct xmt_html_stats *stats;
};

static xmt_status count_file(void *user,
                             const struct xmt_xliff_file_info *info) {
  struct counting *c = user;
  return c->next.file(c->next.user, info);
}

static xmt_status count_unit(void *user, xmt_xliff_unit *unit) {
  struct counting *c = user;
  c->stats->units++;
  c->stats->codes += codes_of(unit->whole_source);
  return c->next.unit(c->next.user, unit);
}

static xmt_status extract_open(xmt_filter *f, const struct xmt_format *format,
                               const char *in_path, const char *xliff_path,
                               void *doc, struct xmt_html_stats *stats) {
  struct xmt_output out;
  xmt_status st = xmt_output_open(&out, xliff_path, &f->err);
  if (st != XMT_OK)
    return st;
  struct xmt_units_out text;
  xmt_units_out_init(&text, xmt_output_write, &out);
  struct counting c = {xmt_units_out_sink_of(&text), stats};
  const struct xmt_unit_sink sink = {count_file, count_unit, &c, NULL};
  st = format->read(f, doc, in_path, &sink);
  xmt_status end = xmt_units_out_end(&text);
  if (st == XMT_OK)
    st = end;
  if (st == XMT_ERR_WRITE && out.write_errno != 0)
    st = xmt_output_reason(&out, st, xliff_path, &f->err);
  else if (st != XMT_OK && f->err.pub.status != st)
    st = xmt_error_at(&f->err, st, XMT_IN(xliff_path), "%s",
                      st == XMT_ERR_WRITE ? "cannot write the output"
                                          : xmt_strerror(st));
  if (st != XMT_OK) {
    xmt_output_abort(&out);
    return st;
  }
  return xmt_output_commit(&out, &f->err);
}

/* A call begun: no error yet, the counts (the caller's, or local) at 0. */
static struct xmt_html_stats *begin(xmt_filter *f, struct xmt_html_stats *stats,
                                    struct xmt_html_stats *local) {
  xmt_error_clear(&f->err);
  if (stats == NULL)
    stats = local;
  memset(stats, 0, sizeof *stats);
  return stats;
}

xmt_status xmt_filter_extract_units_file(xmt_filter *f, const char *in_path,
                                         const char *xliff_path,
                                         struct xmt_html_stats *stats) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  struct xmt_html_stats local;
  stats = begin(f, stats, &local);
  if (in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  const struct xmt_format *format;
  xmt_status st = units_format(f, in_path, "extract", &format);
  /* A format with an extract of its own (HTML: attribute units, bytes
   * not UTF-8) does it all. */
  if (st == XMT_OK && format->extract_file != NULL)
    return format->extract_file(f, in_path, xliff_path, stats);
  void *doc = NULL;
  size_t bytes = 0;
  /* as a run reads it: the ids its reader makes unique made so already */
  if (st == XMT_OK)
    st = format->open_for_text != NULL && strcmp(in_path, "-") != 0
             ? format->open_for_text(f, in_path, &doc, &bytes)
             : xmt_format_open(f, format, in_path, &doc, &bytes);
  if (st != XMT_OK)
    return st;
  stats->bytes_in = bytes;
  st = extract_open(f, format, in_path, xliff_path, doc, stats);
  format->close(doc);
  return st;
}

/* --- Merge ------------------------------------------------------------------
 */

/* A trans-unit of the XLIFF: its id, source, target (NULL: none) and
 * line; used once the document's unit of that id took it. */
struct entry {
  char *id;
  xmt_segment *source;
  xmt_segment *target;
  unsigned long line;
  int used;
};

/* A unit of the document the XLIFF gives no target: reported once the
 * XLIFF is known to be the document's. */
struct missing {
  char *id;
  unsigned long line; /* of its trans-unit; 0: none */
};

struct merging {
  xmt_filter *f;
  const struct xmt_format *format;
  void *doc;
  const char *xliff_path;
  struct entry *e;
  size_t n, cap;
  struct missing *miss;
  size_t nmiss, capmiss;
  char *source_language; /* of the XLIFF's first <file> */
  char *target_language;
  int files;
  int failed;
  struct xmt_html_stats *stats;
};

static void merging_free(struct merging *m) {
  for (size_t i = 0; i < m->n; i++) {
    free(m->e[i].id);
    xmt_segment_free(m->e[i].source);
    xmt_segment_free(m->e[i].target);
  }
  for (size_t i = 0; i < m->nmiss; i++)
    free(m->miss[i].id);
  free(m->e);
  free(m->miss);
  free(m->source_language);
  free(m->target_language);
}

static int xliff_file(void *user, const struct xmt_xliff_file_info *info,
                      const char *tag, size_t len) {
  struct merging *m = user;
  (void)tag, (void)len;
  if (m->files++ > 0)
    return 0;
  if ((info->source_language != NULL &&
       (m->source_language = xmt_strdup(info->source_language)) == NULL) ||
      (info->target_language != NULL &&
       (m->target_language = xmt_strdup(info->target_language)) == NULL)) {
    m->failed = 1;
    xmt_error_nomem(&m->f->err);
  }
  return m->failed;
}

static xmt_status keep_entry(struct merging *m, xmt_xliff_unit *u) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    struct entry *e = realloc(m->e, cap * sizeof *e);
    if (e == NULL)
      return XMT_ERR_NOMEM;
    m->e = e;
    m->cap = cap;
  }
  struct entry *e = &m->e[m->n];
  memset(e, 0, sizeof *e);
  const char *id = xmt_xliff_unit_id(u) != NULL ? xmt_xliff_unit_id(u) : "";
  e->line = xmt_xliff_unit_line(u);
  e->id = xmt_strdup(id);
  e->source = xmt_segment_new();
  const xmt_segment *target = xmt_xliff_unit_existing_target(u);
  m->n++; /* freed with the others whatever fails */
  if (e->id == NULL || e->source == NULL ||
      xmt_segment_copy(e->source, u->whole_source) != XMT_OK)
    return XMT_ERR_NOMEM;
  if (target == NULL || !xmt_xliff_unit_has_target(u))
    return XMT_OK;
  if ((e->target = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  return xmt_segment_copy(e->target, target);
}

static int xliff_unit(void *user, xmt_xliff_unit *u) {
  struct merging *m = user;
  xmt_status st = keep_entry(m, u);
  xmt_xliff_unit_free(u);
  if (st != XMT_OK) {
    xmt_error_nomem(&m->f->err);
    m->failed = 1;
  }
  return m->failed;
}

static int by_id(const void *a, const void *b) {
  const struct entry *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/* Reads the trans-units of xliff_path, sorted by id; an id twice is an
 * error. */
static xmt_status read_xliff(struct merging *m, const char *xliff_path) {
  xmt_filter *f = m->f;
  static const struct xmt_xliff_reader_callbacks cb = {xmt_skip_skeleton,
                                                       xliff_file, xliff_unit};
  xmt_status st = xmt_read_xliff_path(f, xliff_path, &cb, m, &m->failed);
  if (st != XMT_OK)
    return st;
  if (m->n > 1)
    qsort(m->e, m->n, sizeof *m->e, by_id);
  for (size_t i = 1; i < m->n; i++)
    if (strcmp(m->e[i - 1].id, m->e[i].id) == 0)
      return xmt_error_at(&f->err, XMT_ERR_FORMAT,
                          XMT_AT_UNIT(xliff_path, m->e[i].line, m->e[i].id),
                          "<trans-unit> appears twice");
  return XMT_OK;
}

static xmt_status note_missing(struct merging *m, const char *id,
                               unsigned long line) {
  if (m->nmiss == m->capmiss) {
    size_t cap = m->capmiss ? 2 * m->capmiss : 16;
    struct missing *miss = realloc(m->miss, cap * sizeof *miss);
    if (miss == NULL)
      return xmt_error_nomem(&m->f->err);
    m->miss = miss;
    m->capmiss = cap;
  }
  m->miss[m->nmiss].line = line;
  if ((m->miss[m->nmiss].id = xmt_strdup(id)) == NULL)
    return xmt_error_nomem(&m->f->err);
  m->nmiss++;
  return XMT_OK;
}

static xmt_status merge_file(void *user,
                             const struct xmt_xliff_file_info *info) {
  (void)user, (void)info;
  return XMT_OK;
}

static const char *foreign_code(const xmt_segment *target,
                                const xmt_segment *source);

/* A unit of the document: the target of its trans-unit to the format. */
static xmt_status merge_unit(void *user, xmt_xliff_unit *unit) {
  struct merging *m = user;
  const char *id =
      xmt_xliff_unit_id(unit) != NULL ? xmt_xliff_unit_id(unit) : "";
  struct entry *e = NULL;
  for (size_t lo = 0, hi = m->n; lo < hi && e == NULL;) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(id, m->e[mid].id);
    if (c == 0)
      e = &m->e[mid];
    else if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  xmt_status st = XMT_OK;
  m->stats->units++;
  /* Its codes too: the target places the document's codes as they were. */
  if (e != NULL && !xmt_target_is_source(e->source, unit->whole_source))
    st = xmt_error_at(&m->f->err, XMT_ERR_FORMAT,
                      XMT_AT_UNIT(m->xliff_path, e->line, id),
                      "<trans-unit> has a source that differs from the "
                      "document's: was the XLIFF extracted from another "
                      "document, or the document changed since?");
  const char *bad = st == XMT_OK && e != NULL && e->target != NULL
                        ? foreign_code(e->target, unit->whole_source)
                        : NULL;
  if (bad != NULL)
    st = xmt_error_at(&m->f->err, XMT_ERR_INLINE,
                      XMT_AT_UNIT(m->xliff_path, e->line, id),
                      "<target> has a code (id \"%s\") its source does not "
                      "have, or has it twice or of another kind",
                      bad);
  if (e != NULL)
    e->used = 1;
  if (st == XMT_OK && (e == NULL || e->target == NULL))
    st = note_missing(m, id, e != NULL ? e->line : 0);
  else if (st == XMT_OK)
    m->stats->units_with_target++;
  if (st == XMT_OK)
    st = m->format->take(m->f, m->doc, unit, e != NULL ? e->target : NULL);
  xmt_xliff_unit_free(unit);
  return st;
}

/* What a code stands for, whatever the markup: an opening, a closing
 * (a <g>'s ends, or a <bx/> and <ex/> a translation split it into), or a
 * placeholder. */
static int side_of(enum xmt_tag_kind kind) {
  return kind == XMT_TAG_OPEN || kind == XMT_TAG_ISOLATED_OPEN     ? 0
         : kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE ? 1
                                                                   : 2;
}

/* NULL when every code of target is one of source's, of the same side,
 * and there once (a CAT tool may drop codes, never invent or repeat one:
 * the format would write markup the document does not have); else the
 * id of the first that is not. */
static const char *foreign_code(const xmt_segment *target,
                                const xmt_segment *source) {
  size_t nt = xmt_segment_tag_count(target);
  size_t ns = xmt_segment_tag_count(source);
  for (size_t i = 0; i < nt; i++) {
    struct xmt_tag t, o;
    if (xmt_segment_tag(target, i, &t) != XMT_OK || t.id == NULL)
      return "?";
    size_t found = 0;
    for (size_t k = 0; k < ns; k++)
      found += xmt_segment_tag(source, k, &o) == XMT_OK && o.id != NULL &&
               side_of(o.kind) == side_of(t.kind) && strcmp(o.id, t.id) == 0;
    for (size_t k = 0; k < i; k++)
      found += xmt_segment_tag(target, k, &o) == XMT_OK && o.id != NULL &&
               side_of(o.kind) == side_of(t.kind) && strcmp(o.id, t.id) == 0;
    if (found != 1)
      return t.id;
  }
  return NULL;
}

/* Every trans-unit taken by a unit of the document: else the XLIFF is not
 * the document's. */
static xmt_status all_used(struct merging *m) {
  const struct entry *first = NULL;
  for (size_t i = 0; i < m->n; i++)
    if (!m->e[i].used && (first == NULL || m->e[i].line < first->line))
      first = &m->e[i];
  if (first == NULL)
    return XMT_OK;
  return xmt_error_at(&m->f->err, XMT_ERR_FORMAT,
                      XMT_AT_UNIT(m->xliff_path, first->line, first->id),
                      "<trans-unit> is not a unit of the document: was the "
                      "XLIFF extracted from another document?");
}

/* Each unit kept in the source language, to on_problem. */
static xmt_status report_missing(struct merging *m, xmt_problem_fn on_problem,
                                 void *user) {
  for (size_t i = 0; on_problem != NULL && i < m->nmiss; i++) {
    const struct missing *u = &m->miss[i];
    const char *msg = u->line != 0 ? "no target: the source text is kept"
                                   : "no trans-unit in the XLIFF: the source "
                                     "text is kept";
    const struct xmt_problem p = {XMT_WARNING, m->xliff_path, u->line,
                                  0,           u->id,         msg};
    if (on_problem(user, &p) != 0)
      return xmt_error_set(&m->f->err, XMT_ERR_ABORTED, "%s",
                           xmt_strerror(XMT_ERR_ABORTED));
  }
  return XMT_OK;
}

/* The document's units read and given their targets, then the document
 * written to out (a format that streams writes as it reads). */
static xmt_status merge_doc(struct merging *m, const char *in_path,
                            const char *lang, struct xmt_output *out,
                            const char *out_path, xmt_problem_fn on_problem,
                            void *user) {
  xmt_filter *f = m->f;
  const struct xmt_format *format = m->format;
  xmt_status st = XMT_OK;
  if (format->stream != NULL)
    st = format->stream(f, m->doc, lang, xmt_output_write, out);
  const struct xmt_unit_sink sink = {merge_file, merge_unit, m, NULL};
  /* The units read in the XLIFF's source language unless told another:
   * a format that never says its own needs one to read them. */
  char *told = f->source_language;
  if (told == NULL)
    f->source_language = m->source_language;
  if (st == XMT_OK)
    st = format->read(f, m->doc, in_path, &sink);
  f->source_language = told;
  if (st == XMT_OK)
    st = all_used(m);
  if (st == XMT_OK)
    st = report_missing(m, on_problem, user);
  if (st == XMT_OK)
    st = format->write(f, m->doc, lang, xmt_output_write, out);
  if (st == XMT_ERR_WRITE && out->write_errno != 0)
    return xmt_output_reason(out, st, out_path, &f->err);
  if (st != XMT_OK && f->err.pub.status != st)
    st = xmt_error_at(&f->err, st, XMT_IN(in_path), "%s", xmt_strerror(st));
  return st;
}

xmt_status xmt_filter_merge_units_file(xmt_filter *f, const char *in_path,
                                       const char *xliff_path,
                                       const char *out_path,
                                       struct xmt_html_stats *stats,
                                       xmt_problem_fn on_problem, void *user) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  struct xmt_html_stats local;
  stats = begin(f, stats, &local);
  if (in_path == NULL || xliff_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "merge needs the document and its XLIFF");
  struct merging m = {.f = f, .xliff_path = xliff_path, .stats = stats};
  xmt_status st = units_format(f, in_path, "merge", &m.format);
  if (st == XMT_OK && m.format->merge_file != NULL)
    return m.format->merge_file(f, in_path, xliff_path, out_path, stats,
                                on_problem, user);
  if (st == XMT_OK)
    st = read_xliff(&m, xliff_path);
  const char *lang =
      f->target_language != NULL ? f->target_language : m.target_language;
  if (st == XMT_OK && lang == NULL)
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(xliff_path),
                      "no target language: the XLIFF names none; give one "
                      "with -t");
  else if (st == XMT_OK && !xmt_valid_language(lang))
    st = xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(xliff_path),
                      "target language '%s' is not a language tag; give "
                      "one with -t",
                      lang);
  size_t bytes = 0;
  if (st == XMT_OK)
    st = xmt_format_open(f, m.format, in_path, &m.doc, &bytes);
  stats->bytes_in = bytes;
  struct xmt_output out;
  if (st == XMT_OK &&
      (st = xmt_output_open(&out, out_path, &f->err)) == XMT_OK) {
    st = merge_doc(&m, in_path, lang, &out, out_path, on_problem, user);
    if (st == XMT_OK)
      st = xmt_output_commit(&out, &f->err);
    else
      xmt_output_abort(&out);
  }
  if (m.doc != NULL)
    m.format->close(m.doc);
  stats->missing_targets = m.nmiss;
  if (st == XMT_OK && m.nmiss > 0)
    st = xmt_error_at(&f->err, XMT_ERR_PARTIAL, XMT_IN(xliff_path),
                      "%zu of %zu units have no target; their source text "
                      "is kept",
                      m.nmiss, stats->units);
  merging_free(&m);
  return st;
}
