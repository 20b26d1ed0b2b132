/* fuzz_srx.c -- the SRX rule loader and the segmenter. Input: SRX rules,
 * NUL, a language, NUL, the text (no rules: the shipped ones). Spans must
 * lie in the text, in order, not overlapping and not empty; a second split
 * gives the same spans. */
#include "config.h"

#include <stdio.h>

#include "fuzz.h"
#include "xmt_filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t at = 0, srx_len, lang_len, text_len;
  const uint8_t *srx = fuzz_slice(data, size, &at, 0, &srx_len);
  const uint8_t *lang = fuzz_slice(data, size, &at, 0, &lang_len);
  const uint8_t *text = data + at; /* the rest, NULs included */
  text_len = size - at;

  /* The shipped rules compile once: most of a run's time otherwise. */
  static xmt_segmenter *shipped;
  if (shipped == NULL && (shipped = xmt_segmenter_new()) == NULL)
    FUZZ_FAIL();
  xmt_segmenter *s = shipped;
  if (srx_len > 0) {
    s = xmt_segmenter_new();
    if (s == NULL)
      FUZZ_FAIL();
    if (xmt_segmenter_load_srx_memory(s, (const char *)srx, srx_len,
                                      "fuzz.srx") != XMT_OK) {
      xmt_segmenter_free(s);
      return 0;
    }
  }
  char lang_buf[36] = "und";
  if (lang_len > 0 && lang_len < sizeof lang_buf) {
    memcpy(lang_buf, lang, lang_len);
    lang_buf[lang_len] = '\0';
  }
  if (xmt_segmenter_set_language(s, lang_buf) != XMT_OK)
    goto done;
  const struct xmt_span *spans;
  size_t n;
  if (xmt_segmenter_split(s, (const char *)text, text_len, &spans, &n) ==
      XMT_OK) {
    size_t end = 0;
    for (size_t i = 0; i < n; i++) {
      if (spans[i].start < end || spans[i].end <= spans[i].start ||
          spans[i].end > text_len)
        FUZZ_FAIL();
      end = spans[i].end;
    }
    struct xmt_span *copy = malloc((n + 1) * sizeof *copy);
    if (copy == NULL)
      FUZZ_FAIL();
    if (n > 0)
      memcpy(copy, spans, n * sizeof *copy);
    size_t n2;
    if (xmt_segmenter_split(s, (const char *)text, text_len, &spans, &n2) !=
            XMT_OK ||
        n2 != n || (n > 0 && memcmp(copy, spans, n * sizeof *copy) != 0))
      FUZZ_FAIL();
    free(copy);
  }
done:
  if (s != shipped)
    xmt_segmenter_free(s);
  return 0;
}
