/* word.c -- the Word format (OOXML WordprocessingML: .docx .docm .dotx
 * .dotm): one entry of the format table. A package is told by its first
 * bytes as a zip and opened as Word only when its content types say so;
 * the units are the paragraphs of the main part and of the headers,
 * footers, notes and comments it names (word_parts.c, word_read.c), their
 * ids "part:n" ("document:3", "footnotes:1"); each part with a target is
 * written back (word_write.c), every other entry copied raw by the zip
 * layer. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_private.h"

static const char *const word_extensions[] = {".docx", ".docm", ".dotx",
                                              ".dotm", NULL};

/* A zip's first local header. The head cannot tell Word from another
 * zip (the central directory is at the end): open() refuses a zip that
 * is not Word, by its content. */
static int bid(const struct xmt_head *head) {
  return head->len >= 4 && memcmp(head->bytes, "PK\3\4", 4) == 0 ? XMT_BID_LOOKS
                                                                 : XMT_BID_NO;
}

static xmt_status load(xmt_filter *f, const char *path, void *doc) {
  return xmt_word_load_parts(doc, path, &f->err);
}

static void unload(void *doc) { xmt_word_parts_free(doc); }

static size_t bytes_of(const void *d) {
  const struct word_doc *doc = d;
  size_t n = 0;
  for (size_t k = 0; k < doc->nparts; k++)
    n += doc->parts[k].data.len;
  return n;
}

static const struct xmt_office_format word_format = {
    XMT_PACKAGE_WORD,
    "a zip but not a Word document: no WordprocessingML main part in "
    "[Content_Types].xml",
    "the Word document has no main part",
    "a Word document is read from a file or from memory, not from standard "
    "input",
    sizeof(struct word_doc),
    load,
    unload,
    bytes_of};

XMT_OFFICE_OPERATIONS(word_format)

/* The paragraphs that are units, in order: those of each part but the
 * twins, which take the target of the paragraph they repeat. */
struct feed {
  const struct word_doc *doc;
  struct {
    size_t part, para;
  } * at;
};

static void unit_at(void *d, size_t i, struct xmt_feed_unit *out) {
  const struct feed *feed = d;
  const struct word_part *part = &feed->doc->parts[feed->at[i].part];
  size_t k = feed->at[i].para;
  *out = (struct xmt_feed_unit){.id = k + 1,
                                .part = part->unit_name,
                                .source = part->paras[k].source,
                                .preserve_space = 1};
}

static xmt_status read_units(xmt_filter *f, void *d, const char *path,
                             const struct xmt_unit_sink *sink) {
  const struct word_doc *doc = d;
  if (f->source_language == NULL)
    return xmt_error_at(&f->err, XMT_ERR_USAGE, XMT_IN(path),
                        "give the source language of a Word document with -s");
  size_t n = 0;
  for (size_t k = 0; k < doc->nparts; k++)
    n += doc->parts[k].npara;
  struct feed feed = {doc, malloc((n > 0 ? n : 1) * sizeof *feed.at)};
  if (feed.at == NULL)
    return xmt_error_nomem(&f->err);
  n = 0;
  for (size_t k = 0; k < doc->nparts; k++)
    for (size_t i = 0; i < doc->parts[k].npara; i++)
      if (doc->parts[k].paras[i].twin < 0)
        feed.at[n].part = k, feed.at[n++].para = i;
  const struct xmt_unit_feed info = {path, f->source_language,
                                     f->target_language, "x-docx", n};
  xmt_status st = xmt_unit_feed(&info, &feed, unit_at, sink);
  free(feed.at);
  return st;
}

static xmt_status take(xmt_filter *f, void *d, const xmt_xliff_unit *unit,
                       const xmt_segment *target) {
  struct word_doc *doc = d;
  size_t k, i;
  xmt_status st = xmt_unit_index_in(unit, doc->numbering, doc->nparts,
                                    "document", &k, &i, &f->err);
  if (st != XMT_OK)
    return st;
  struct word_para *p = &doc->parts[k].paras[i];
  if (p->twin >= 0) /* no unit: it takes its first Choice's target */
    return xmt_error_at(
        &f->err, XMT_ERR_INTERNAL,
        &(const struct xmt_where){.unit_id = xmt_xliff_unit_id(unit)},
        "a unit the document does not have");
  return xmt_office_take(f, &p->target, p->source, target);
}

/* 1 when a paragraph of part is written with a target. */
static int rewritten(const struct word_part *part) {
  for (size_t i = 0; i < part->npara; i++)
    if (xmt_word_target_of(part, &part->paras[i]) != NULL)
      return 1;
  return 0;
}

/* The parts with a target rewritten, every other entry copied raw. */
static xmt_status write_doc(xmt_filter *f, void *d, const char *target_language,
                            xmt_write_fn sink, void *user) {
  struct word_doc *doc = d;
  struct xmt_buf *parts = calloc(doc->nparts, sizeof *parts);
  struct xmt_package_part *repl = calloc(doc->nparts, sizeof *repl);
  size_t n = 0;
  long long next_id = 0; /* one id space, all parts: found when needed */
  for (size_t k = 0; k < doc->nparts; k++)
    if (rewritten(&doc->parts[k])) {
      next_id = xmt_word_next_id(doc);
      break;
    }
  xmt_status st = parts != NULL && repl != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t k = 0; k < doc->nparts && st == XMT_OK; k++) {
    if (!rewritten(&doc->parts[k]))
      continue;
    st = xmt_word_render(&doc->parts[k], target_language, &next_id, &parts[n]);
    repl[n] = (struct xmt_package_part){doc->parts[k].name, parts[n].data,
                                        parts[n].len};
    n++;
  }
  if (st != XMT_OK)
    xmt_error_nomem(&f->err);
  if (st == XMT_OK)
    st = xmt_office_write(f, &doc->base, repl, n, sink, user);
  for (size_t k = 0; parts != NULL && k < doc->nparts; k++)
    xmt_buf_free(&parts[k]);
  free(parts);
  free(repl);
  return st;
}

const struct xmt_format xmt_format_word = {
    .info = {XMT_FORMAT_WORD, "docx", "Word (.docx, .docm, .dotx, .dotm)",
             word_extensions},
    .noun = "Word document",
    .media_type = "application/"
                  "vnd.openxmlformats-officedocument.wordprocessingml.document",
    .bid = bid,
    .read = read_units,
    .take = take,
    .write = write_doc,
    XMT_OFFICE_TABLE};
