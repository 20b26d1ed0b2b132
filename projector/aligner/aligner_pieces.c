/* aligner_pieces.c -- long sentence pairs aligned piece by piece.
 *
 * The models weigh every word of one side against every word of the
 * other, so a pair's time and memory grow with the product of its lengths:
 * a unit of 20,000 words without a full stop took minutes and gigabytes.
 * Past PIECE_MAX tokens on either side a pair is cut into pieces of about
 * PIECE_LEN tokens on its longer side, at the same proportions of both
 * sides, each cut moved to the nearest punctuation within SNAP tokens
 * (after a comma, a semicolon, a full stop) when there is one. Each piece
 * is trained on and aligned as a pair of its own and its links are moved
 * back to the pair's positions. At that scale a translation keeps the
 * order of its source, so a word's translation is nearly always in the
 * same piece; pairs of ordinary length are never cut. */
#include "config.h"

#include <stdlib.h>

#include "aligner_private.h"

#define PIECE_MAX 160
#define PIECE_LEN 50
#define SNAP 16

/* Punctuation after which a cut falls: ASCII , ; : . ! ? ) and the CJK
 * comma, full stop and their full-width forms. */
static int ends_clause(const char *text, const struct xmt_token *t) {
  static const char *const marks[] = {
      ",",
      ";",
      ":",
      ".",
      "!",
      "?",
      ")",
      "\xe3\x80\x81", /* 、 */
      "\xe3\x80\x82", /* 。 */
      "\xef\xbc\x8c", /* ， */
      "\xef\xbc\x9b", /* ； */
      "\xef\xbc\x9a", /* ： */
  };
  size_t len = t->end - t->start;
  for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
    if (strlen(marks[i]) == len && memcmp(text + t->start, marks[i], len) == 0)
      return 1;
  return 0;
}

/* The cut nearest want (the index of the first token of the next piece)
 * that follows punctuation, within SNAP of want and not before prev; want
 * itself when there is none. */
static size_t snap(const char *text, const struct xmt_token *tok, size_t n,
                   size_t want, size_t prev) {
  for (size_t d = 0; d <= SNAP; d++) {
    size_t q[2] = {want + d, want >= d ? want - d : 0};
    for (int k = 0; k < 2; k++)
      if (q[k] > prev && q[k] < n && (k == 0 || want >= d) &&
          ends_clause(text, &tok[q[k] - 1]))
        return q[k];
  }
  return want;
}

size_t xmt_pieces_count(size_t n, size_t m) {
  size_t longer = n > m ? n : m;
  return longer <= PIECE_MAX ? 1 : (longer + PIECE_LEN - 1) / PIECE_LEN;
}

void xmt_pieces_cut(const char *text, const xmt_tokens *tokens, size_t k,
                    size_t *cuts) {
  size_t n = xmt_tokens_count(tokens);
  const struct xmt_token *tok = xmt_tokens_array(tokens);
  cuts[0] = 0;
  for (size_t p = 1; p < k; p++) {
    /* round(p * n / k) without overflow for any n */
    size_t want = (size_t)(((double)p * (double)n) / (double)k + 0.5);
    size_t q = text != NULL ? snap(text, tok, n, want, cuts[p - 1]) : want;
    cuts[p] = q < cuts[p - 1] ? cuts[p - 1] : q > n ? n : q;
  }
  cuts[k] = n;
}
