/* word.c -- the Word format (OOXML WordprocessingML: .docx .docm .dotx
 * .dotm): one entry of the format table. A package is told by its first
 * bytes as a zip and opened as Word only when its content types say so;
 * the units are the paragraphs of the main part and of the headers,
 * footers, notes and comments it names (word_parts.c, word_read.c), their
 * ids "part:n" ("document:3", "footnotes:1"); each part with a target is
 * written back (word_write.c), every other entry copied raw by the zip
 * layer. */
#include "config.h"

#include <stdio.h>
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

/* The parts' sizes as the directory declares them: open reads none. */
static size_t bytes_of(const void *d) {
  const struct word_doc *doc = d;
  size_t n = 0;
  for (size_t k = 0; k < doc->nparts; k++) {
    long i = xmt_package_find(doc->base.pkg, doc->parts[k].name);
    n += i >= 0 ? (size_t)xmt_package_size(doc->base.pkg, (size_t)i) : 0;
  }
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
    bytes_of,
    1};

XMT_OFFICE_OPERATIONS(word_format)

/* Hands on a part's paragraphs as the parse makes them final, but the
 * twins, which take the target of the paragraph they repeat. */
struct feed {
  struct word_doc *doc;
  const struct xmt_unit_feed *info;
  struct xmt_inline_builder ib;
  const struct xmt_unit_sink *sink;
};

static xmt_status fed(void *user, struct word_part *part) {
  struct feed *feed = user;
  /* the count take checks an id against, before the part is read whole
   * (merge takes each unit as it is handed on) */
  pthread_mutex_lock(&feed->doc->lock);
  feed->doc->numbering[part - feed->doc->parts].count = part->npara;
  pthread_mutex_unlock(&feed->doc->lock);
  xmt_status st = XMT_OK;
  for (size_t k = part->nfed; k < part->npara && st == XMT_OK; k++) {
    const struct xmt_feed_unit u = {.id = k + 1,
                                    .part = part->unit_name,
                                    .source = part->paras[k].source,
                                    .preserve_space = 1};
    if (part->paras[k].twin < 0)
      st = xmt_unit_feed_one(feed->info, &feed->ib, &u, feed->sink);
  }
  part->nfed = part->npara;
  return st;
}

/* The units of the parts parsed before (a second read): as they are. */
static xmt_status feed_parsed(struct feed *feed) {
  xmt_status st = XMT_OK;
  for (size_t k = 0; k < feed->doc->nparts && st == XMT_OK; k++) {
    struct word_part *part = &feed->doc->parts[k];
    for (size_t i = 0; i < part->npara && st == XMT_OK; i++)
      if (part->paras[i].source == NULL) /* taken: its source is gone */
        st = XMT_ERR_INTERNAL;
    part->nfed = 0;
    if (st == XMT_OK)
      st = fed(feed, part);
  }
  return st;
}

/* The parts read and parsed here, not at open, each paragraph's unit
 * handed on once it is final: the pipeline starts on the first ones
 * while the rest is parsed, and a run on another thread reads on. */
static xmt_status read_units(xmt_filter *f, void *d, const char *path,
                             const struct xmt_unit_sink *sink) {
  struct word_doc *doc = d;
  struct xmt_error_store *err = sink->err != NULL ? sink->err : &f->err;
  if (f->source_language == NULL)
    return xmt_error_at(err, XMT_ERR_USAGE, XMT_IN(path),
                        "give the source language of a Word document with -s");
  const struct xmt_unit_feed info = {path, f->source_language,
                                     f->target_language, "x-docx", 0};
  struct feed feed = {.doc = doc, .info = &info, .sink = sink};
  xmt_ib_init(&feed.ib);
  xmt_status st = xmt_unit_feed_file(&info, sink);
  const struct word_hook hook = {fed, &feed};
  int first = !doc->read;
  doc->read = 1;
  if (st == XMT_OK && doc->nparsed == doc->nparts)
    st = feed_parsed(&feed); /* open_whole's, or a second read */
  else if (st == XMT_OK)
    st = first ? xmt_word_parse_parts(doc, path, &hook, err) : XMT_ERR_INTERNAL;
  xmt_ib_free(&feed.ib);
  return st;
}

/* The parts parsed, for a command that takes or writes with no read. */
static xmt_status parsed(xmt_filter *f, struct word_doc *doc) {
  if (doc->read || doc->nparsed == doc->nparts)
    return XMT_OK; /* parsed, or being parsed by the units callback */
  return xmt_word_parse_parts(doc, doc->path, NULL, &f->err);
}

/* Open with every part parsed: check, report and extract write units
 * as text, and a part found malformed or damaged is refused before any
 * is written, as a run refuses it before its output. */
static xmt_status open_parsed(xmt_filter *f, const char *path, void **out,
                              size_t *bytes) {
  xmt_status st = open_doc(f, path, out, bytes);
  if (st == XMT_OK)
    st = xmt_word_parse_parts(*out, path, NULL, &f->err);
  if (st != XMT_OK && *out != NULL) {
    close_doc(*out);
    *out = NULL;
  }
  return st;
}

/* The source is freed once its target is taken: the writer needs the
 * paragraph's bytes and target alone. */
static xmt_status take(xmt_filter *f, void *d, const xmt_xliff_unit *unit,
                       const xmt_segment *target) {
  struct word_doc *doc = d;
  xmt_status st = parsed(f, doc);
  if (st != XMT_OK)
    return st;
  pthread_mutex_lock(&doc->lock);
  size_t k, i;
  st = xmt_unit_index_in(unit, doc->numbering, doc->nparts, "document", &k, &i,
                         &f->err);
  struct word_para *p = st == XMT_OK ? &doc->parts[k].paras[i] : NULL;
  if (p != NULL && (p->twin >= 0 || p->source == NULL)) /* no unit, taken */
    st = xmt_error_at(
        &f->err, XMT_ERR_INTERNAL,
        &(const struct xmt_where){.unit_id = xmt_xliff_unit_id(unit)},
        "a unit the document does not have");
  else if (p != NULL)
    st = xmt_office_take(f, &p->target, p->source, target);
  if (p != NULL && st == XMT_OK) {
    xmt_segment_free(p->source);
    p->source = NULL;
  }
  pthread_mutex_unlock(&doc->lock);
  return st;
}

/* 1 when a paragraph of part is written with a target. */
static int rewritten(const struct word_part *part) {
  for (size_t i = 0; i < part->npara; i++)
    if (xmt_word_target_of(part, &part->paras[i]) != NULL)
      return 1;
  return 0;
}

/* A chart translated whose data is a workbook embedded in the package
 * (c:externalData): the workbook's cells that the chart's string caches
 * come from given their translations (word_workbook.c), in parts[*n],
 * since Word refreshes the caches from it when the chart's data is
 * edited. The run's warning names the chart and the workbook when a
 * cache's cell could not be (its text another, the workbook unread). */
static xmt_status workbooks(xmt_filter *f, struct word_doc *doc,
                            const struct word_part *part,
                            struct xmt_package_part *repl,
                            struct xmt_buf *parts, size_t *n) {
  size_t head = part->data.len < 512 ? part->data.len : 512;
  if (memmem(part->data.data, head, "chartSpace", 10) == NULL)
    return XMT_OK;
  size_t *found = NULL, nfound = 0;
  xmt_status st = xmt_word_embedded(doc, part->name, &found, &nfound, &f->err);
  for (size_t i = 0; i < nfound && st == XMT_OK; i++) {
    const char *name = xmt_package_name(doc->base.pkg, found[i]);
    size_t missed = 0;
    int twice = 0; /* a workbook two charts share: the first's cells */
    for (size_t k = 0; k < *n; k++)
      twice |= strcmp(repl[k].name, name) == 0;
    if (!twice && i == 0)
      st = xmt_word_workbook(doc, part, found[i], &parts[*n], &missed, &f->err);
    if (st == XMT_OK && (twice || i > 0 || missed > 0) &&
        f->on_warning != NULL) {
      char msg[1024];
      snprintf(msg, sizeof msg,
               "%s: %s: the chart's data, the workbook %s, is not translated: "
               "Word shows its text again when the chart's data is edited",
               doc->path, part->name, name);
      f->on_warning(f->callback_user, NULL, 0, msg);
    }
    if (st == XMT_OK && parts[*n].len > 0) {
      repl[*n] = (struct xmt_package_part){name, parts[*n].data, parts[*n].len};
      ++*n;
    }
  }
  free(found);
  return st;
}

/* The parts with a target rewritten, every other entry copied raw. */
static xmt_status write_doc(xmt_filter *f, void *d, const char *target_language,
                            xmt_write_fn sink, void *user) {
  struct word_doc *doc = d;
  xmt_status st = parsed(f, doc);
  if (st != XMT_OK)
    return st;
  /* each part, and a chart's workbook */
  struct xmt_buf *parts = calloc(2 * doc->nparts, sizeof *parts);
  struct xmt_package_part *repl = calloc(2 * doc->nparts, sizeof *repl);
  size_t n = 0;
  long long next_id = 0; /* one id space, all parts: found when needed */
  for (size_t k = 0; k < doc->nparts; k++)
    if (rewritten(&doc->parts[k])) {
      next_id = xmt_word_next_id(doc);
      break;
    }
  st = parts != NULL && repl != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t k = 0; k < doc->nparts && st == XMT_OK; k++) {
    if (!rewritten(&doc->parts[k]))
      continue;
    st = xmt_word_render(&doc->parts[k], target_language, &next_id, &parts[n]);
    repl[n] = (struct xmt_package_part){doc->parts[k].name, parts[n].data,
                                        parts[n].len};
    n++;
    if (st == XMT_OK)
      st = workbooks(f, doc, &doc->parts[k], repl, parts, &n);
    if (st != XMT_OK && st != XMT_ERR_NOMEM)
      break; /* the relationships' error is in f->err */
  }
  if (st == XMT_ERR_NOMEM)
    xmt_error_nomem(&f->err);
  if (st == XMT_OK)
    st = xmt_office_write(f, &doc->base, repl, n, sink, user);
  for (size_t k = 0; parts != NULL && k < 2 * doc->nparts; k++)
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
    .read_apart = 1,
    .write = write_doc,
    .open_whole = open_parsed,
    .open_for_text = open_parsed,
    XMT_OFFICE_TABLE};
