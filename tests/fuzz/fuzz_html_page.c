/* fuzz_html_page.c -- the HTML page path: page -> units -> XLIFF, and the
 * page written back with identity translations. The lexer never fails on
 * bad markup, so a page that parses must come back byte for byte, and its
 * XLIFF must be well-formed and readable. */
#include "config.h"

#include "fuzz.h"
#include "html_private.h"

struct units {
  const struct html_doc *doc;
  xmt_segment **targets;
  size_t n;
};

static int skip(void *user, const char *bytes, size_t len) {
  (void)user, (void)bytes, (void)len;
  return 0;
}

/* Each trans-unit's source becomes the target of its page unit, as a
 * translation that changed nothing comes back from the pipeline. */
static int on_unit(void *user, xmt_xliff_unit *u) {
  struct units *t = user;
  if (t->n < t->doc->nunits && xmt_xliff_unit_segment_count(u) == 1) {
    t->targets[t->n] = xmt_segment_new();
    if (t->targets[t->n] == NULL ||
        xmt_segment_copy(t->targets[t->n], xmt_xliff_unit_source(u, 0)) !=
            XMT_OK)
      FUZZ_FAIL();
  }
  t->n++;
  xmt_xliff_unit_free(u);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct html_doc doc;
  struct xmt_error_store err = {0};
  /* the first byte picks the options, as --html-skip-pre/-code do */
  unsigned flags = 0;
  if (size > 0) {
    flags = (data[0] & 1 ? XMT_FILTER_HTML_SKIP_PRE : 0) |
            (data[0] & 2 ? XMT_FILTER_HTML_SKIP_CODE : 0);
    data++, size--;
  }
  xmt_status st = xmt_html_doc_parse(&doc, (const char *)data, size, flags,
                                     "fuzz.html", &err);
  xmt_error_clear(&err);
  if (st != XMT_OK)
    return 0;

  struct fuzz_out page = {0};
  if (xmt_html_doc_write(&doc, NULL, NULL, fuzz_sink, &page, &err) != XMT_OK)
    FUZZ_FAIL();
  if (!doc.charset.utf16 &&
      (page.len != size || (size > 0 && memcmp(page.data, data, size) != 0)))
    FUZZ_FAIL();

  struct fuzz_out xlf = {0};
  if (xmt_html_doc_write_xliff(&doc, "fuzz.html", "en", "fr", fuzz_sink,
                               &xlf) != XMT_OK)
    FUZZ_FAIL();
  if (!fuzz_well_formed(xlf.data, xlf.len))
    FUZZ_FAIL();

  struct units t = {&doc, calloc(doc.nunits + 1, sizeof(xmt_segment *)), 0};
  static const struct xmt_xliff_reader_callbacks cb = {skip, NULL, on_unit};
  xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &t);
  if (r == NULL || t.targets == NULL)
    FUZZ_FAIL();
  if (xmt_xliff_reader_parse(r, xlf.data, xlf.len, 1) != XMT_OK ||
      t.n != doc.nunits)
    FUZZ_FAIL();
  xmt_xliff_reader_free(r);

  /* identity targets write the page's own bytes again */
  struct fuzz_out back = {0};
  if (xmt_html_doc_write(&doc, (const xmt_segment *const *)t.targets, NULL,
                         fuzz_sink, &back, &err) != XMT_OK)
    FUZZ_FAIL();
  if (back.len != page.len ||
      (page.len > 0 && memcmp(back.data, page.data, page.len) != 0))
    FUZZ_FAIL();
  /* and a page with a new lang attribute is written too */
  back.len = 0;
  if (xmt_html_doc_write(&doc, (const xmt_segment *const *)t.targets, "fr",
                         fuzz_sink, &back, &err) != XMT_OK)
    FUZZ_FAIL();

  for (size_t i = 0; i < doc.nunits; i++)
    xmt_segment_free(t.targets[i]);
  free(t.targets);
  free(page.data);
  free(xlf.data);
  free(back.data);
  xmt_error_clear(&err);
  xmt_html_doc_free(&doc);
  return 0;
}
