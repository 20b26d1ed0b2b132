/* fuzz_xliff2.c -- the XLIFF 2 path: a document read in chunks of a size
 * the first byte picks; written back with no target, byte for byte the
 * input; its unit stream read by the XLIFF reader, each unit's source
 * taken as its target, as an identity translation comes back, and each
 * unit cut into sentences by the shipped rules, each sentence its own
 * translation, kept to be written as segments of their own
 * (--seg-source); and the document so written read again: targets are
 * written well-formed, with every code of their source, the segments
 * well-formed and read again (a segment whose codes share an id is not
 * split), and, when the input breaks no rule of check, split as
 * many as the sentences kept and breaking none (a broken rule, such as
 * an id used twice, is copied into each target and each sentence). check's
 * rules run on any document read; the same targets written as matches
 * (--alt-trans) read again with the same segments, and check's rules run on
 * them too. */
#include "config.h"

#include "fuzz.h"
#include "xliff2_private.h"

struct units {
  struct x2_doc *doc;
  int bad;
};

static int skip(void *user, const char *bytes, size_t len) {
  (void)user, (void)bytes, (void)len;
  return 0;
}

static xmt_segmenter *segmenter; /* the shipped rules, loaded once */

/* The unit cut into sentences, each translated as itself, and the
 * sentences kept for segment i. */
static void split(struct x2_doc *doc, size_t i, xmt_xliff_unit *u) {
  if (segmenter == NULL && (segmenter = xmt_segmenter_new()) == NULL)
    FUZZ_FAIL();
  if (xmt_segmenter_segment_unit(segmenter, u, 0) != XMT_OK)
    return;
  for (size_t k = 0; k < xmt_xliff_unit_segment_count(u); k++)
    if (xmt_xliff_unit_set_target(u, k, xmt_xliff_unit_source(u, k)) != XMT_OK)
      FUZZ_FAIL();
  if (xmt_x2_take_split(doc, i, u) != XMT_OK)
    FUZZ_FAIL();
}

static int on_unit(void *user, xmt_xliff_unit *u) {
  struct units *t = user;
  const char *id = xmt_xliff_unit_id(u);
  size_t i = 0;
  if (id == NULL ||
      !xmt_memo_get(&t->doc->keys, id, strlen(id), NULL, NULL, &i) ||
      i >= t->doc->nsegs || t->doc->targets[i] != NULL)
    t->bad = 1;
  else if ((t->doc->targets[i] = xmt_segment_new()) == NULL ||
           xmt_segment_copy(t->doc->targets[i], xmt_xliff_unit_source(u, 0)) !=
               XMT_OK)
    FUZZ_FAIL();
  else
    split(t->doc, i, u);
  xmt_xliff_unit_free(u);
  return 0;
}

/* Errors only: a target that lacks a code is a warning. */
static int count_rule(void *user, unsigned long line, unsigned long column,
                      const char *unit_id, const char *message, int warning) {
  (void)line, (void)column, (void)unit_id, (void)message;
  if (!warning)
    ++*(size_t *)user;
  return 0;
}

static int feed(void *user, const char *bytes, size_t len) {
  return xmt_xliff_reader_parse(user, bytes, len, 0) != XMT_OK;
}

static xmt_status read_doc(struct x2_doc *doc, const char *data, size_t size,
                           size_t chunk) {
  struct xmt_buf in = {0};
  struct xmt_error_store err = {0};
  if (size > 0 && xmt_buf_append(&in, data, size) != XMT_OK)
    FUZZ_FAIL();
  xmt_status st = xmt_x2_read(doc, &in, "fuzz.xlf", chunk, &err);
  xmt_buf_free(&in);
  xmt_error_clear(&err);
  return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t chunk = 0;
  if (size > 0) {
    chunk = data[0] % 6;
    data++, size--;
  }
  struct x2_doc doc;
  struct xmt_error_store err = {0};
  if (read_doc(&doc, (const char *)data, size, chunk) != XMT_OK) {
    xmt_x2_free(&doc);
    return 0;
  }
  if (doc.trg_lang != NULL && doc.trg_lang[0] == '\0') {
    xmt_x2_free(&doc); /* a run refuses an empty trgLang */
    return 0;
  }
  size_t broken = 0, after = 0;
  if (xmt_x2_check_rules(&doc, count_rule, &broken) != XMT_OK)
    FUZZ_FAIL();
  doc.targets = calloc(doc.nsegs + 1, sizeof *doc.targets);
  doc.splits = calloc(doc.nsegs + 1, sizeof *doc.splits);
  struct fuzz_out same = {0};
  if (doc.targets == NULL || doc.splits == NULL ||
      xmt_x2_write(&doc, NULL, fuzz_sink, &same, &err, NULL, NULL) != XMT_OK ||
      same.len != size || (size > 0 && memcmp(same.data, data, size) != 0))
    FUZZ_FAIL();

  static const struct xmt_xliff_reader_callbacks cb = {skip, NULL, on_unit};
  struct units t = {&doc, 0};
  xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &t);
  /* The units as text (what the report reads) parse as XLIFF 1.2. */
  struct xmt_units_out text;
  xmt_units_out_init(&text, feed, r);
  const struct xmt_unit_sink to_text = xmt_units_out_sink_of(&text);
  if (r == NULL || xmt_x2_units(&doc, "en", "fr", 0, &to_text) != XMT_OK ||
      xmt_units_out_end(&text) != XMT_OK ||
      xmt_xliff_reader_parse(r, "", 0, 1) != XMT_OK || t.bad)
    FUZZ_FAIL();
  xmt_xliff_reader_free(r);

  struct fuzz_out out = {0};
  struct x2_doc again;
  size_t nsegs = 0, split_rules = 0;
  for (size_t i = 0; i < doc.nsegs; i++)
    nsegs += doc.splits[i].nparts > 1 ? doc.splits[i].nparts : 1;
  xmt_status written =
      xmt_x2_write(&doc, "fr", fuzz_sink, &out, &err, NULL, NULL);
  xmt_status reread = written == XMT_OK ? read_doc(&again, out.data, out.len, 0)
                                        : XMT_ERR_INTERNAL;
  if (written != XMT_OK || reread != XMT_OK ||
      xmt_x2_check_rules(&again, count_rule, &split_rules) != XMT_OK ||
      (broken == 0 && (again.nsegs != nsegs || split_rules != 0)))
    FUZZ_FAIL();
  /* A target composed across segments (an order other than its place)
   * is left as it was, whatever codes it has. */
  for (size_t i = 0; i < again.nsegs; i++)
    if (!again.segs[i].reordered &&
        again.segs[i].target.ncodes != again.segs[i].source.ncodes)
      FUZZ_FAIL();
  xmt_x2_free(&again);

  struct fuzz_out alt = {0};
  doc.matches = 1;
  if (xmt_x2_write(&doc, "fr", fuzz_sink, &alt, &err, NULL, NULL) != XMT_OK ||
      read_doc(&again, alt.data, alt.len, 0) != XMT_OK ||
      again.nsegs != doc.nsegs ||
      xmt_x2_check_rules(&again, count_rule, &after) != XMT_OK)
    FUZZ_FAIL();
  xmt_x2_free(&again);
  free(alt.data);
  xmt_x2_free(&doc);
  xmt_error_clear(&err);
  free(same.data);
  free(out.data);
  return 0;
}
