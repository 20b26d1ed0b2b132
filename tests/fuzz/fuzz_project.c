/* fuzz_project.c -- the projector with arbitrary alignments. Input: an
 * options byte, then TAB-separated a tagged source (XLIFF inline markup),
 * a target text and Pharaoh pairs, which may be malformed or out of range.
 * A projection that succeeds keeps the target text, every source tag
 * exactly once, and a well-nested structure; the filter's own entry
 * (xmt_place_project, around the leading and trailing spaces) too. */
#include "config.h"

#include <stdio.h>

#include "filter_private.h"
#include "fuzz.h"

/* Links from "i-j" pairs, as loosely as a careless engine writes them;
 * out-of-range indexes are kept for the projector to refuse. */
static void links_of(xmt_alignment *al, const char *s, size_t n) {
  size_t i = 0;
  while (i < n && xmt_alignment_count(al) < 256) {
    size_t a = 0, b = 0;
    int da = 0, db = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && da < 19)
      a = a * 10 + (size_t)(s[i++] - '0'), da++;
    if (i < n && (s[i] == '-' || s[i] == 'p'))
      i++;
    while (i < n && s[i] >= '0' && s[i] <= '9' && db < 19)
      b = b * 10 + (size_t)(s[i++] - '0'), db++;
    if (da > 0 && db > 0 && xmt_alignment_add(al, a, b) != XMT_OK)
      FUZZ_FAIL();
    if (da == 0 && db == 0)
      i++;
  }
}

static int same_tag(const struct xmt_tag *a, const struct xmt_tag *b) {
  return a->kind == b->kind && strcmp(a->id, b->id) == 0 &&
         strcmp(a->name, b->name) == 0 && a->markup_len == b->markup_len &&
         memcmp(a->markup, b->markup, a->markup_len) == 0;
}

/* out has src's tags, each as often as in src, well nested when src is,
 * over exactly the text want. */
static void check(const xmt_segment *out, const xmt_segment *src,
                  const char *want, size_t want_len) {
  size_t len;
  const char *text = xmt_segment_text(out, &len);
  if (len != want_len || (len > 0 && memcmp(text, want, len) != 0))
    FUZZ_FAIL();
  size_t n = xmt_segment_tag_count(src);
  if (xmt_segment_tag_count(out) != n)
    FUZZ_FAIL();
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag t, u;
    size_t in_src = 0, in_out = 0;
    xmt_segment_tag(src, i, &t);
    for (size_t j = 0; j < n; j++) {
      xmt_segment_tag(src, j, &u);
      in_src += same_tag(&t, &u);
      xmt_segment_tag(out, j, &u);
      in_out += same_tag(&t, &u);
      if (u.offset > len)
        FUZZ_FAIL();
    }
    if (in_src != in_out)
      FUZZ_FAIL();
  }
  if (xmt_segment_check(src, NULL) == XMT_OK &&
      xmt_segment_check(out, NULL) != XMT_OK)
    FUZZ_FAIL();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  unsigned opt = data[0];
  size_t at = 1, slen, tlen, alen;
  const char *smark = (const char *)fuzz_slice(data, size, &at, '\t', &slen);
  const char *target = (const char *)fuzz_slice(data, size, &at, '\t', &tlen);
  const char *pairs = (const char *)fuzz_slice(data, size, &at, '\t', &alen);
  enum xmt_projection_rule rule = opt & 1 ? XMT_RULE_SCORE : XMT_RULE_MINMAX;
  enum xmt_tokenizer tok =
      opt & 2 ? XMT_TOKENIZE_WHITESPACE : XMT_TOKENIZE_DEFAULT;

  xmt_segment *src = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *stok = xmt_tokens_new(), *ttok = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  if (src == NULL || out == NULL || stok == NULL || ttok == NULL || al == NULL)
    FUZZ_FAIL();
  if (xmt_xliff_inline_parse(src, smark, slen, NULL) != XMT_OK)
    goto done;
  links_of(al, pairs, alen);
  const xmt_alignment *links = opt & 4 ? NULL : al;

  size_t len;
  const char *text = xmt_segment_text(src, &len);
  if (xmt_tokenize(stok, text, len, tok) == XMT_OK &&
      xmt_tokenize(ttok, target, tlen, tok) == XMT_OK &&
      xmt_project(out, src, stok, target, tlen, ttok, links, rule) == XMT_OK)
    check(out, src, target, tlen);

  /* as the pipeline calls it: the core replaced, its spaces kept */
  struct xmt_placer p;
  if (xmt_placer_init(&p) != XMT_OK)
    FUZZ_FAIL();
  size_t lead, core_len;
  xmt_core_bounds(text, len, &lead, &core_len);
  if (xmt_place_project(&p, out, src, lead, core_len, target, tlen, NULL, NULL,
                        links, rule) == XMT_OK) {
    char *want = malloc(len + tlen + 1);
    if (want == NULL)
      FUZZ_FAIL();
    memcpy(want, text, lead);
    memcpy(want + lead, target, tlen);
    memcpy(want + lead + tlen, text + lead + core_len, len - lead - core_len);
    check(out, src, want, len - core_len + tlen);
    free(want);
  }
  xmt_placer_free(&p);
done:
  xmt_alignment_free(al);
  xmt_tokens_free(stok);
  xmt_tokens_free(ttok);
  xmt_segment_free(src);
  xmt_segment_free(out);
  return 0;
}
