/* fuzz_inline.c -- the inline markup parsers (XLIFF and generic) and the
 * renderer: what parses renders to markup that parses again to the same
 * text and tags. The first byte picks the parser. */
#include "config.h"

#include "fuzz.h"
#include "xmt_xliff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int generic = size > 0 && (data[0] & 1);
  if (size > 0)
    data++, size--;
  xmt_segment *seg = xmt_segment_new(), *again = xmt_segment_new();
  if (seg == NULL || again == NULL)
    FUZZ_FAIL();
  unsigned long col = 0;
  xmt_status st =
      generic
          ? xmt_xliff_inline_parse_generic(seg, (const char *)data, size, &col)
          : xmt_xliff_inline_parse(seg, (const char *)data, size, &col);
  if (st == XMT_OK) {
    size_t len;
    char *markup = xmt_xliff_inline_render(seg, &len);
    if (markup == NULL || strlen(markup) != len)
      FUZZ_FAIL();
    st = generic ? xmt_xliff_inline_parse_generic(again, markup, len, &col)
                 : xmt_xliff_inline_parse(again, markup, len, &col);
    if (st != XMT_OK)
      FUZZ_FAIL();
    size_t a, b;
    const char *ta = xmt_segment_text(seg, &a);
    const char *tb = xmt_segment_text(again, &b);
    if (a != b || memcmp(ta, tb, a) != 0 ||
        xmt_segment_tag_count(seg) != xmt_segment_tag_count(again))
      FUZZ_FAIL();
    if (!xmt_segment_equal(seg, again))
      FUZZ_FAIL();
    free(markup);
  }
  xmt_segment_free(seg);
  xmt_segment_free(again);
  return 0;
}
