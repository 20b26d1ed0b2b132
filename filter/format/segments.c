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

/* A unit of seg as XLIFF 1.2: its text escaped, its codes numbered. */
static xmt_status put_unit(struct segments *s, struct xmt_buf *out, size_t i) {
  const xmt_segment *seg = s->sources[i];
  size_t ntags, len, at = 0;
  xmt_status st = number_codes(&s->reading, seg, &ntags);
  if (st != XMT_OK)
    return st;
  const char *text = xmt_segment_text(seg, &len);
  char head[96];
  snprintf(head, sizeof head,
           "<trans-unit id=\"%zu\" xml:space=\"preserve\"><source>", i + 1);
  st = xmt_buf_append_str(out, head);
  for (size_t k = 0; st == XMT_OK && k <= ntags; k++) {
    struct xmt_tag t = {0};
    size_t upto = len;
    if (k < ntags && (st = xmt_segment_tag(seg, k, &t)) == XMT_OK)
      upto = t.offset;
    if (st == XMT_OK && upto > at)
      st = xmt_xml_escape_text(out, text + at, upto - at);
    at = upto > at ? upto : at;
    if (st != XMT_OK || k == ntags)
      break;
    unsigned n = s->reading.of_tag[k];
    switch (t.kind) {
    case XMT_TAG_OPEN:
      snprintf(head, sizeof head, "<g id=\"%u\">", n);
      break;
    case XMT_TAG_CLOSE:
      snprintf(head, sizeof head, "</g>");
      break;
    case XMT_TAG_PLACEHOLDER:
      snprintf(head, sizeof head, "<x id=\"%u\"/>", n);
      break;
    default:
      snprintf(head, sizeof head, "<it id=\"%u\" pos=\"%s\"/>", n,
               t.kind == XMT_TAG_ISOLATED_OPEN ? "open" : "close");
    }
    st = xmt_buf_append_str(out, head);
  }
  return st == XMT_OK ? xmt_buf_append_str(out, "</source></trans-unit>\n")
                      : st;
}

static xmt_status segments_units(xmt_filter *f, void *doc, const char *path,
                                 xmt_write_fn sink, void *user) {
  struct segments *s = doc;
  struct xmt_units_out out;
  xmt_units_out_init(&out, sink, user);
  xmt_status st =
      xmt_units_out_file(&out, path, f->source_language, NULL, "plaintext");
  for (size_t i = 0; st == XMT_OK && i < s->n; i++) {
    st = put_unit(s, &out.buf, i);
    if (st == XMT_ERR_USAGE)
      st = xmt_error_at(&f->err, st, XMT_IN(path),
                        "segment %zu: its codes are not well nested", i + 1);
    st = xmt_units_out_unit_done(&out, st);
  }
  xmt_units_out_file_end(&out);
  return xmt_units_out_end(&out);
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

const struct xmt_format xmt_format_segments = {
    "segments",    NULL,           NULL, NULL, segments_units,
    segments_take, segments_write, NULL, NULL};

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
