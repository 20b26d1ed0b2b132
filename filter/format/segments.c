/* segments.c -- tagged segments held in memory as a document format: each
 * segment is a unit, its codes numbered as XLIFF codes (g for a pair, x
 * for a placeholder, it for an isolated end), and each target's codes
 * mapped back to the caller's own by that number. This is how
 * xmt_filter_translate_segments runs them through the pipeline. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"

struct segments {
  const xmt_segment *const *sources;
  size_t n;
  xmt_segment **targets;
  /* The code numbers of one segment: the reader's (main thread) and the
   * writer's (the run's worker), apart. */
  struct numbers {
    unsigned *of_tag;
    size_t cap;
  } reading, writing;
};

/* Numbers the codes of seg from 1, a pair's two ends alike, into
 * to->of_tag; XMT_ERR_USAGE when they are not well nested. */
static xmt_status number_codes(struct numbers *to, const xmt_segment *seg,
                               size_t *count) {
  size_t n = xmt_segment_tag_count(seg);
  unsigned *numbers =
      xmt_grow_array(to->of_tag, &to->cap, n + 1, sizeof *numbers);
  if (numbers == NULL)
    return XMT_ERR_NOMEM;
  to->of_tag = numbers;
  /* Open pairs: the tag index of each, innermost last, in the top of
   * the same array (a pair's number is known when it closes). */
  size_t *open = calloc(n + 1, sizeof *open);
  if (open == NULL)
    return XMT_ERR_NOMEM;
  size_t depth = 0;
  unsigned next = 1;
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    struct xmt_tag t;
    st = xmt_segment_tag(seg, i, &t);
    if (st != XMT_OK)
      break;
    if (t.kind == XMT_TAG_CLOSE) {
      struct xmt_tag o;
      if (depth == 0 || xmt_segment_tag(seg, open[depth - 1], &o) != XMT_OK ||
          (o.id != NULL) != (t.id != NULL) ||
          (o.id != NULL && strcmp(o.id, t.id) != 0))
        st = XMT_ERR_USAGE;
      else
        numbers[i] = numbers[open[--depth]];
      continue;
    }
    numbers[i] = next++;
    if (t.kind == XMT_TAG_OPEN)
      open[depth++] = i;
  }
  free(open);
  if (st == XMT_OK && depth > 0)
    st = XMT_ERR_USAGE;
  *count = n;
  return st;
}

/* The code of a unit numbered n, of kind, marked up as XLIFF 1.2. */
static const char *code_markup(enum xmt_tag_kind kind, unsigned n, char *buf,
                               size_t cap) {
  switch (kind) {
  case XMT_TAG_OPEN:
    snprintf(buf, cap, "<g id=\"%u\">", n);
    return "g";
  case XMT_TAG_CLOSE:
    snprintf(buf, cap, "</g>");
    return "g";
  case XMT_TAG_PLACEHOLDER:
    snprintf(buf, cap, "<x id=\"%u\"/>", n);
    return "x";
  case XMT_TAG_ISOLATED_OPEN:
  case XMT_TAG_ISOLATED_CLOSE:
    break;
  }
  snprintf(buf, cap, "<it id=\"%u\" pos=\"%s\"/>", n,
           kind == XMT_TAG_ISOLATED_OPEN ? "open" : "close");
  return "it";
}

/* Segment i with its codes numbered, in out. */
static xmt_status numbered(struct segments *s, size_t i, xmt_segment *out) {
  const xmt_segment *seg = s->sources[i];
  size_t ntags, len, at = 0;
  xmt_status st = number_codes(&s->reading, seg, &ntags);
  const char *text = xmt_segment_text(seg, &len);
  xmt_segment_clear(out);
  for (size_t k = 0; st == XMT_OK && k <= ntags; k++) {
    struct xmt_tag t = {0};
    size_t upto = len;
    if (k < ntags && (st = xmt_segment_tag(seg, k, &t)) == XMT_OK)
      upto = t.offset;
    if (st == XMT_OK && upto > at)
      st = xmt_segment_append_text(out, text + at, upto - at);
    at = upto > at ? upto : at;
    if (st != XMT_OK || k == ntags)
      break;
    char markup[64], id[16];
    unsigned n = s->reading.of_tag[k];
    const char *name = code_markup(t.kind, n, markup, sizeof markup);
    snprintf(id, sizeof id, "%u", n);
    st = xmt_segment_append_tag(out, t.kind, id, name, markup, strlen(markup));
  }
  return st;
}

/* Each segment a unit of its own, whose white space is kept, on the line
 * the XLIFF of the units has it on. */
static xmt_status segments_units(xmt_filter *f, void *doc, const char *path,
                                 const struct xmt_unit_sink *sink) {
  struct segments *s = doc;
  const struct xmt_xliff_file_info info = {path, f->source_language, NULL,
                                           XMT_DATATYPE_SEGMENTS,
                                           XMT_UNITS_OUT_FILE_LINE};
  xmt_status st = sink->file(sink->user, &info);
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  xmt_segment *seg = xmt_segment_new();
  if (seg == NULL && st == XMT_OK)
    st = XMT_ERR_NOMEM;
  unsigned long line = XMT_UNITS_OUT_UNIT_LINE;
  for (size_t i = 0; st == XMT_OK && i < s->n; i++) {
    char id[24];
    snprintf(id, sizeof id, "%zu", i + 1);
    xmt_xliff_unit *unit = NULL;
    st = numbered(s, i, seg);
    if (st == XMT_ERR_USAGE)
      st = xmt_error_at(&f->err, st, XMT_IN(path),
                        "segment %zu: its codes are not well nested", i + 1);
    const struct xmt_unit_fields in = {.id = id,
                                       .source_language = f->source_language,
                                       .line = line,
                                       .column = 1,
                                       .translatable = 1,
                                       .preserve_space = 1};
    if (st == XMT_OK)
      st = xmt_xliff_unit_build(&ib, &in, seg, NULL, &unit);
    line += xmt_units_out_lines(XMT_DATATYPE_SEGMENTS, seg, NULL);
    if (st == XMT_OK)
      st = sink->unit(sink->user, unit);
  }
  xmt_segment_free(seg);
  xmt_ib_free(&ib);
  return st;
}

/* The tag of seg numbered n on the side of kind: the opening end (or the
 * placeholder) or the closing one. */
static int find_code(const struct numbers *numbers, const xmt_segment *seg,
                     size_t ntags, unsigned n, enum xmt_tag_kind kind,
                     struct xmt_tag *found) {
  int closing = kind == XMT_TAG_CLOSE || kind == XMT_TAG_ISOLATED_CLOSE;
  for (size_t i = 0; i < ntags; i++) {
    if (numbers->of_tag[i] != n || xmt_segment_tag(seg, i, found) != XMT_OK)
      continue;
    int is_closing =
        found->kind == XMT_TAG_CLOSE || found->kind == XMT_TAG_ISOLATED_CLOSE;
    if (is_closing == closing)
      return 1;
  }
  return 0;
}

/* The target with the caller's codes for the numbered ones. */
static xmt_status map_back(struct segments *s, const xmt_segment *source,
                           const xmt_segment *target, xmt_segment *out) {
  size_t ntags, len, at = 0;
  xmt_status st = number_codes(&s->writing, source, &ntags);
  const char *text = xmt_segment_text(target, &len);
  size_t count = xmt_segment_tag_count(target);
  for (size_t k = 0; st == XMT_OK && k <= count; k++) {
    struct xmt_tag t = {0}, own;
    size_t upto = len;
    if (k < count && (st = xmt_segment_tag(target, k, &t)) == XMT_OK)
      upto = t.offset;
    if (st == XMT_OK && upto > at)
      st = xmt_segment_append_text(out, text + at, upto - at);
    at = upto > at ? upto : at;
    if (st != XMT_OK || k == count)
      break;
    char *end;
    unsigned long n = t.id != NULL ? strtoul(t.id, &end, 10) : 0;
    if (n == 0 || *end != '\0' ||
        !find_code(&s->writing, source, ntags, (unsigned)n, t.kind, &own))
      return XMT_ERR_INTERNAL; /* the run places only the source's codes */
    st = xmt_segment_append_tag(out, t.kind, own.id, own.name, own.markup,
                                own.markup_len);
  }
  return st;
}

static xmt_status segments_take(xmt_filter *f, void *doc,
                                const xmt_xliff_unit *unit,
                                const xmt_segment *target) {
  struct segments *s = doc;
  const char *id = xmt_xliff_unit_id(unit);
  char *end;
  unsigned long i = id != NULL ? strtoul(id, &end, 10) : 0;
  if (i == 0 || *end != '\0' || i > s->n)
    return xmt_error_at(&f->err, XMT_ERR_INTERNAL, XMT_IN_UNIT(NULL, id), "%s",
                        "a unit the segments do not have");
  if (target == NULL)
    return XMT_OK;
  xmt_segment *out = xmt_segment_new();
  if (out == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = map_back(s, s->sources[i - 1], target, out);
  if (st != XMT_OK) {
    xmt_segment_free(out);
    return st == XMT_ERR_INTERNAL
               ? xmt_error_at(&f->err, st, XMT_IN_UNIT(NULL, id), "%s",
                              "a code the source does not have")
               : st;
  }
  xmt_segment_free(s->targets[i - 1]);
  s->targets[i - 1] = out;
  return XMT_OK;
}

static xmt_status segments_write(xmt_filter *f, void *doc,
                                 const char *target_language, xmt_write_fn sink,
                                 void *user) {
  (void)f, (void)doc, (void)target_language, (void)sink, (void)user;
  return XMT_OK; /* the targets are the output */
}

const struct xmt_format xmt_format_segments = {.info = {.name = "segments"},
                                               .read = segments_units,
                                               .take = segments_take,
                                               .write = segments_write};

xmt_status xmt_filter_translate_segments(xmt_filter *f,
                                         const xmt_segment *const *sources,
                                         size_t n, xmt_segment **targets) {
  if (f == NULL || (n > 0 && (sources == NULL || targets == NULL)))
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  memset(&f->stats, 0, sizeof f->stats);
  for (size_t i = 0; i < n; i++) {
    targets[i] = NULL;
    if (sources[i] == NULL)
      return xmt_error_set(&f->err, XMT_ERR_USAGE, "segment %zu is NULL",
                           i + 1);
  }
  if (f->source_language == NULL || f->target_language == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "segments need the source and target languages");
  struct segments s = {sources, n, targets, {NULL, 0}, {NULL, 0}};
  struct xmt_buf nothing = {0};
  const struct xmt_pipeline_doc d = {.in_path = "segments",
                                     .format = &xmt_format_segments,
                                     .doc = &s,
                                     .output = &nothing};
  xmt_status st = xmt_pipeline_run(f, &d, XMT_PIPELINE_TRANSLATE);
  xmt_format_blame(f, &xmt_format_segments, d.in_path);
  xmt_buf_free(&nothing);
  free(s.reading.of_tag);
  free(s.writing.of_tag);
  if (st != XMT_OK && st != XMT_ERR_PARTIAL)
    for (size_t i = 0; i < n; i++) {
      xmt_segment_free(targets[i]);
      targets[i] = NULL;
    }
  return st;
}
