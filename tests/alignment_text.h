/* alignment_text.h -- the projector tests' alignments as "i-j" text and
 * their sentence pairs.
 * Header-only: the programs that include it link the projector. */
#ifndef XMT_TEST_ALIGNMENT_TEXT_H
#define XMT_TEST_ALIGNMENT_TEXT_H

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "xmt_projector.h"

/* al's links as "0-0 1-2", in a static buffer (long lists cut short). */
static inline const char *xmt_test_links(const xmt_alignment *al) {
  static char buf[8192];
  size_t n = xmt_alignment_count(al), at = 0;
  const struct xmt_link *l = xmt_alignment_links(al);
  buf[0] = '\0';
  for (size_t i = 0; i < n && at < sizeof buf - 64; i++)
    at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%zu-%zu", i ? " " : "",
                           l[i].source, l[i].target);
  return buf;
}

/* An alignment of n source and m target tokens parsed from s; the test
 * stops when it does not parse. */
static inline xmt_alignment *xmt_test_alignment(const char *s, size_t n,
                                                size_t m) {
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(al);
  CU_ASSERT_EQUAL_FATAL(xmt_alignment_parse(al, s, strlen(s), n, m, NULL),
                        XMT_OK);
  return al;
}

/* Adds "src ||| tgt" to a's corpus, each side cut at white space. */
static inline void xmt_test_add_pair(xmt_aligner *a, const char *src,
                                     const char *tgt) {
  xmt_tokens *s = xmt_tokens_new(), *t = xmt_tokens_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(t);
  CU_ASSERT_EQUAL_FATAL(
      xmt_tokenize(s, src, strlen(src), XMT_TOKENIZE_WHITESPACE), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(
      xmt_tokenize(t, tgt, strlen(tgt), XMT_TOKENIZE_WHITESPACE), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(
      xmt_aligner_add(a, src, strlen(src), s, tgt, strlen(tgt), t), XMT_OK);
  xmt_tokens_free(s);
  xmt_tokens_free(t);
}

#endif
