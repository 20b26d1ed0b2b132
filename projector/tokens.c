/* tokens.c -- tokenizations as byte ranges: ICU and whitespace tokenizers,
 * and mapping of Moses, SentencePiece and BPE output back onto raw text. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

#include "projector_private.h"

struct xmt_tokens {
  struct xmt_token *items;
  size_t count;
  size_t cap;
};

xmt_tokens *xmt_tokens_new(void) { return calloc(1, sizeof(xmt_tokens)); }

void xmt_tokens_free(xmt_tokens *tokens) {
  if (tokens == NULL)
    return;
  free(tokens->items);
  free(tokens);
}

size_t xmt_tokens_count(const xmt_tokens *tokens) {
  return tokens != NULL ? tokens->count : 0;
}

const struct xmt_token *xmt_tokens_array(const xmt_tokens *tokens) {
  return tokens != NULL ? tokens->items : NULL;
}

/* Appends without checking order: the tokenizers below produce ordered
 * ranges by construction. The array doubles, so a tokens object reused
 * across segments stops allocating once it has seen the longest one. */
static xmt_status push(xmt_tokens *tokens, size_t start, size_t end) {
  if (tokens->count == tokens->cap) {
    struct xmt_token *items = xmt_grow_array(tokens->items, &tokens->cap,
                                             tokens->count + 1, sizeof *items);
    if (items == NULL)
      return XMT_ERR_NOMEM;
    tokens->items = items;
  }
  tokens->items[tokens->count].start = start;
  tokens->items[tokens->count].end = end;
  tokens->count++;
  return XMT_OK;
}

/* Two tokens, [start, cut) and [cut, end). */
static xmt_status push_split(xmt_tokens *tokens, size_t start, size_t cut,
                             size_t end) {
  xmt_status st = push(tokens, start, cut);
  return st == XMT_OK ? push(tokens, cut, end) : st;
}

xmt_status xmt_tokens_append(xmt_tokens *tokens, size_t start, size_t end) {
  if (tokens == NULL || start > end)
    return XMT_ERR_USAGE;
  if (tokens->count > 0 && start < tokens->items[tokens->count - 1].end)
    return XMT_ERR_USAGE;
  return push(tokens, start, end);
}

/* Splits the tokens at the byte offsets cuts[0..n) (in order) that fall
 * strictly inside one: [s, c) and [c, e) for [s, e). Other offsets are
 * ignored. */
xmt_status xmt_tokens_split(xmt_tokens *tokens, const size_t *cuts, size_t n) {
  size_t inside = 0, c = 0;
  for (size_t i = 0; i < tokens->count && c < n; i++) {
    while (c < n && cuts[c] <= tokens->items[i].start)
      c++;
    for (size_t prev = tokens->items[i].start;
         c < n && cuts[c] < tokens->items[i].end; c++)
      if (cuts[c] > prev)
        inside++, prev = cuts[c];
  }
  if (inside == 0)
    return XMT_OK;
  size_t count = tokens->count + inside, cap = 0;
  struct xmt_token *items = xmt_grow_array(NULL, &cap, count, sizeof *items);
  if (items == NULL)
    return XMT_ERR_NOMEM;
  size_t out = 0;
  c = 0;
  for (size_t i = 0; i < tokens->count; i++) {
    size_t start = tokens->items[i].start, end = tokens->items[i].end;
    while (c < n && cuts[c] <= start)
      c++;
    for (; c < n && cuts[c] < end; c++)
      if (cuts[c] > start) {
        items[out].start = start;
        items[out++].end = cuts[c];
        start = cuts[c];
      }
    items[out].start = start;
    items[out++].end = end;
  }
  free(tokens->items);
  tokens->items = items;
  tokens->count = out;
  tokens->cap = cap;
  return XMT_OK;
}

/* The separators of tokenized strings: space, tab, LF, VT, FF, CR. */
static int is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Unicode White_Space, with the ASCII cases answered without ICU. */
static int is_space_cp(uint32_t cp) {
  if (cp < 0x80)
    return is_ascii_space((char)cp);
  return u_isUWhiteSpace((UChar32)cp);
}

/* Length of the whitespace character at s, or 0 if s does not start with
 * one (or is at the end). */
static size_t space_at(const char *s, size_t n) {
  uint32_t cp;
  size_t k = xmt_utf8_decode((const unsigned char *)s, n, &cp);
  return k > 0 && is_space_cp(cp) ? k : 0;
}

/* --- Tokenizers ----------------------------------------------------------- */

static xmt_status tokenize_whitespace(xmt_tokens *tokens, const char *text,
                                      size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t k;
    while (i < len && (k = space_at(text + i, len - i)) > 0)
      i += k;
    if (i == len)
      break;
    size_t start = i;
    while (i < len && space_at(text + i, len - i) == 0) {
      uint32_t cp;
      /* The text was validated, so decoding cannot fail. */
      i += xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
    }
    xmt_status st = push(tokens, start, i);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* State of one ICU tokenization: the word iterator drives it; the
 * character iterator, opened only when a punctuation span holds more than
 * one code point, splits such spans into user-perceived characters so a
 * flag or an emoji sequence stays whole. Both share the UText, which each
 * break iterator clones. */
struct icu_state {
  UText *ut;
  UBreakIterator *chars;
};

/* Adds one token per character of a span of punctuation, symbols or
 * spaces [start, end), skipping the characters that are whitespace. */
static xmt_status split_span(xmt_tokens *tokens, struct icu_state *icu,
                             const char *text, size_t start, size_t end) {
  uint32_t cp;
  size_t k =
      xmt_utf8_decode((const unsigned char *)text + start, end - start, &cp);
  if (start + k == end) /* one code point: ICU's usual answer */
    return is_space_cp(cp) ? XMT_OK : push(tokens, start, end);
  UErrorCode err = U_ZERO_ERROR;
  if (icu->chars == NULL) {
    icu->chars = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &err);
    if (U_SUCCESS(err))
      ubrk_setUText(icu->chars, icu->ut, &err);
    if (U_FAILURE(err))
      return err == U_MEMORY_ALLOCATION_ERROR ? XMT_ERR_NOMEM
                                              : XMT_ERR_INTERNAL;
  }
  size_t pos = start;
  while (pos < end) {
    int32_t next = ubrk_following(icu->chars, (int32_t)pos);
    size_t stop = next == UBRK_DONE || (size_t)next > end ? end : (size_t)next;
    /* A character that starts with a space is a space, even if a combining
     * mark clings to it. */
    if (space_at(text + pos, end - pos) == 0) {
      xmt_status st = push(tokens, pos, stop);
      if (st != XMT_OK)
        return st;
    }
    pos = stop;
  }
  return XMT_OK;
}

/* Whether [start, end) holds a letter or a digit. ICU gives word status to
 * runs of connector punctuation such as "___" (ExtendNumLet); without a
 * letter or digit they are punctuation all the same. */
static int has_alnum(const char *text, size_t start, size_t end) {
  while (start < end) {
    uint32_t cp;
    size_t k =
        xmt_utf8_decode((const unsigned char *)text + start, end - start, &cp);
    if (k == 0)
      return 0;
    if (u_hasBinaryProperty((UChar32)cp, UCHAR_ALPHABETIC) ||
        u_isdigit((UChar32)cp))
      return 1;
    start += k;
  }
  return 0;
}

/* The end of an elided article or pronoun that ICU keeps in one word with
 * what follows (French l'état, qu'il, Italian dell'anno), or 0: where a
 * translator puts a tag ("l'<g>état</g>") and where a dictionary finds
 * the word. */
static size_t elision_end(const char *text, size_t start, size_t end) {
  static const char *const clitics[] = {
      "c",   "d",    "j",     "l",      "m",      "n",      "s",
      "t",   "qu",   "jusqu", "lorsqu", "puisqu", "quoiqu", "dell",
      "all", "dall", "nell",  "sull",   "un",     NULL};
  for (const char *const *c = clitics; *c != NULL; c++) {
    size_t n = strlen(*c), at = start + n;
    if (at >= end)
      continue;
    size_t i = 0;
    while (i < n && (text[start + i] | 0x20) == (*c)[i])
      i++;
    if (i < n)
      continue;
    size_t q = text[at] == '\''                                             ? 1
               : end - at >= 3 && memcmp(text + at, "\xE2\x80\x99", 3) == 0 ? 3
                                                                            : 0;
    if (q != 0 && at + q < end && has_alnum(text, at + q, end))
      return at + q;
  }
  return 0;
}

/* Where a run of ASCII digits ending a word of two letters or more
 * starts ("evaluation7": a footnote number glued to its word once the
 * tags are taken out), or 0. */
static size_t digit_tail(const char *text, size_t start, size_t end) {
  size_t d = end;
  while (d > start && text[d - 1] >= '0' && text[d - 1] <= '9')
    d--;
  if (d == end || d < start + 2)
    return 0;
  for (size_t i = start; i < d; i++)
    if (text[i] >= '0' && text[i] <= '9')
      return 0; /* mixed, as in a code: A4B12 */
  return has_alnum(text, start, d) ? d : 0;
}

static xmt_status walk_words(xmt_tokens *tokens, struct icu_state *icu,
                             UBreakIterator *words, const char *text) {
  size_t prev = (size_t)ubrk_first(words);
  int32_t next;
  while ((next = ubrk_next(words)) != UBRK_DONE) {
    /* The status of the span ending here: [UBRK_WORD_NONE,
     * UBRK_WORD_NONE_LIMIT) is spaces, punctuation and symbols; numbers,
     * letters, kana and ideographs lie above and stay whole. */
    int32_t status = ubrk_getRuleStatus(words);
    xmt_status st;
    size_t cut;
    if ((status >= UBRK_WORD_NONE && status < UBRK_WORD_NONE_LIMIT) ||
        !has_alnum(text, prev, (size_t)next))
      st = split_span(tokens, icu, text, prev, (size_t)next);
    else if ((cut = elision_end(text, prev, (size_t)next)) != 0 ||
             (cut = digit_tail(text, prev, (size_t)next)) != 0)
      st = push_split(tokens, prev, cut, (size_t)next);
    else
      st = push(tokens, prev, (size_t)next);
    if (st != XMT_OK)
      return st;
    prev = (size_t)next;
  }
  return XMT_OK;
}

static xmt_status tokenize_icu(xmt_tokens *tokens, const char *text,
                               size_t len) {
  /* Break iterator positions are int32_t even over a UText. */
  if (len > INT32_MAX)
    return XMT_ERR_USAGE;
  UErrorCode err = U_ZERO_ERROR;
  UText ut = UTEXT_INITIALIZER;
  /* Over UTF-8 the UText's native indexes are byte offsets, so ICU's
   * boundaries are the token offsets with no conversion. */
  utext_openUTF8(&ut, text, (int64_t)len, &err);
  if (U_FAILURE(err))
    return XMT_ERR_INTERNAL;
  struct icu_state icu = {&ut, NULL};
  UBreakIterator *words = ubrk_open(UBRK_WORD, "", NULL, 0, &err);
  if (U_SUCCESS(err))
    ubrk_setUText(words, &ut, &err);
  xmt_status st;
  if (U_SUCCESS(err))
    st = walk_words(tokens, &icu, words, text);
  else
    st = err == U_MEMORY_ALLOCATION_ERROR ? XMT_ERR_NOMEM : XMT_ERR_INTERNAL;
  ubrk_close(icu.chars);
  ubrk_close(words);
  utext_close(&ut);
  return st;
}

xmt_status xmt_tokenize(xmt_tokens *tokens, const char *text, size_t len,
                        enum xmt_tokenizer tokenizer) {
  if (tokens == NULL || (text == NULL && len > 0))
    return XMT_ERR_USAGE;
  tokens->count = 0;
  if (len == 0)
    return XMT_OK;
  if (xmt_utf8_valid_prefix(text, len) != len)
    return XMT_ERR_ENCODING;
  switch (tokenizer) {
  case XMT_TOKENIZE_DEFAULT:
    return tokenize_icu(tokens, text, len);
  case XMT_TOKENIZE_WHITESPACE:
    return tokenize_whitespace(tokens, text, len);
  }
  return XMT_ERR_USAGE;
}

/* --- Mapping tokenizer output onto raw text --------------------------------
 * Each token of the tokenized string is matched byte by byte against raw at
 * a cursor that only moves forward, so mapping is linear and the ranges
 * come out ordered. Whitespace in raw between tokens is skipped (SentencePiece
 * collapses and strips it; Moses and BPE split words without it), except
 * where the tokenized string says two pieces are joined. */

struct cursor {
  const char *raw;
  size_t len;
  size_t pos;
};

static void skip_spaces(struct cursor *c) {
  size_t k;
  while (c->pos < c->len && (k = space_at(c->raw + c->pos, c->len - c->pos)))
    c->pos += k;
}

/* The escapes of the Moses tokenizer (tokenizer.perl, sacremoses), each
 * standing for one raw character. */
static const struct {
  const char *text;
  size_t len;
  char raw;
} moses_escapes[] = {
    {"&amp;", 5, '&'},  {"&lt;", 4, '<'},    {"&gt;", 4, '>'},
    {"&quot;", 6, '"'}, {"&apos;", 6, '\''}, {"&#124;", 6, '|'},
    {"&#91;", 5, '['},  {"&#93;", 5, ']'},
};

/* Length of the Moses escape at s standing for the raw byte r, else 0. */
static size_t escape_at(const char *s, size_t n, char r) {
  for (size_t i = 0; i < sizeof moses_escapes / sizeof moses_escapes[0]; i++)
    if (moses_escapes[i].raw == r && moses_escapes[i].len <= n &&
        memcmp(s, moses_escapes[i].text, moses_escapes[i].len) == 0)
      return moses_escapes[i].len;
  return 0;
}

/* Matches token t (n bytes) at the cursor, decoding Moses escapes. An
 * escape is decoded only where raw holds the character it stands for, and
 * is otherwise compared literally, so text tokenized with -no-escape maps
 * too; the one text this misreads is a raw "&amp;" tokenized unescaped. */
static int match_escaped(struct cursor *c, const char *t, size_t n) {
  /* Aggressive hyphen splitting writes "EUR-Lex" as "EUR @-@ Lex". */
  if (n == 3 && memcmp(t, "@-@", 3) == 0 && c->pos < c->len &&
      c->raw[c->pos] == '-') {
    c->pos++;
    return 1;
  }
  size_t i = 0;
  while (i < n) {
    if (c->pos == c->len)
      return 0;
    size_t k = t[i] == '&' ? escape_at(t + i, n - i, c->raw[c->pos]) : 0;
    if (k > 0) {
      i += k;
    } else if (t[i] == c->raw[c->pos]) {
      i++;
    } else {
      return 0;
    }
    c->pos++;
  }
  return 1;
}

#define SPM_SPACE "\xE2\x96\x81" /* U+2581, SentencePiece's space */
#define SPM_SPACE_LEN 3

static int is_spm_space(const char *s, size_t n) {
  return n >= SPM_SPACE_LEN && memcmp(s, SPM_SPACE, SPM_SPACE_LEN) == 0;
}

/* Matches a piece stripped of its leading and trailing U+2581: a run of
 * U+2581 inside it (pieces across words, split_by_whitespace=false) stands
 * for a run of raw whitespace, which the token then covers. */
static int match_spm_body(struct cursor *c, const char *t, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (is_spm_space(t + i, n - i)) {
      while (is_spm_space(t + i, n - i))
        i += SPM_SPACE_LEN;
      size_t before = c->pos;
      skip_spaces(c);
      if (c->pos == before)
        return 0;
    } else if (c->pos < c->len && t[i] == c->raw[c->pos]) {
      i++;
      c->pos++;
    } else {
      return 0;
    }
  }
  return 1;
}

/* How pieces relate to their neighbours, carried from one to the next. */
struct map_state {
  enum xmt_token_style style;
  int joined; /* no raw whitespace may come before the next piece */
};

/* Maps one piece of the tokenized string; 0 on a mismatch. */
static int map_piece(xmt_tokens *tokens, struct map_state *ms, struct cursor *c,
                     const char *t, size_t n, xmt_status *st) {
  size_t lead = 0, trail = 0;
  if (ms->style == XMT_TOKENS_SENTENCEPIECE) {
    while (is_spm_space(t + lead, n - lead))
      lead += SPM_SPACE_LEN;
    while (n - lead - trail >= SPM_SPACE_LEN &&
           is_spm_space(t + n - trail - SPM_SPACE_LEN, SPM_SPACE_LEN))
      trail += SPM_SPACE_LEN;
  } else if (ms->style == XMT_TOKENS_BPE && n > 2 && t[n - 2] == '@' &&
             t[n - 1] == '@') {
    trail = 2;
  }
  if (!ms->joined || lead > 0)
    skip_spaces(c);
  size_t start = c->pos;
  int ok;
  if (ms->style == XMT_TOKENS_SENTENCEPIECE)
    ok = match_spm_body(c, t + lead, n - lead - trail);
  else
    ok = match_escaped(c, t, n - trail);
  if (!ok)
    return 0;
  if (ms->style == XMT_TOKENS_SENTENCEPIECE)
    ms->joined = lead + trail == n ? 0 : trail == 0;
  else
    ms->joined = ms->style == XMT_TOKENS_BPE && trail > 0;
  *st = push(tokens, start, c->pos);
  return 1;
}

/* Moses tokens and BPE pieces are both matched with Moses escapes decoded,
 * since subword-nmt is normally run on Moses output ("&amp;", "@-@").
 *
 * SentencePiece: a piece made only of U+2581 (the lone "▁" before a piece
 * the vocabulary cannot join to a space, e.g. "▁ 中国") still gets a token,
 * because the aligner counted it: a zero-width one at the next non-space
 * character of raw. Leading and trailing U+2581 allow raw whitespace before
 * and after the piece but do not require it; a piece without them must
 * follow the previous one directly.
 *
 * BPE: a piece ending in "@@" is joined to the next, which must follow it
 * in raw with no whitespace between; its range excludes the "@@".
 *
 * On a mismatch, tokens holds the ranges of the pieces before *bad_token;
 * raw text left over after the last piece is a mismatch of the piece one
 * past the end, so *bad_token is then the number of pieces. */
xmt_status xmt_tokens_map(xmt_tokens *tokens, const char *raw, size_t raw_len,
                          const char *tokenized, size_t tokenized_len,
                          enum xmt_token_style style, size_t *bad_token) {
  if (tokens == NULL || (raw == NULL && raw_len > 0) ||
      (tokenized == NULL && tokenized_len > 0))
    return XMT_ERR_USAGE;
  if (style != XMT_TOKENS_MOSES && style != XMT_TOKENS_SENTENCEPIECE &&
      style != XMT_TOKENS_BPE)
    return XMT_ERR_USAGE;
  tokens->count = 0;
  if (xmt_utf8_valid_prefix(raw, raw_len) != raw_len ||
      xmt_utf8_valid_prefix(tokenized, tokenized_len) != tokenized_len)
    return XMT_ERR_ENCODING;
  struct cursor c = {raw, raw_len, 0};
  struct map_state ms = {style, 0};
  size_t index = 0, i = 0;
  for (;;) {
    while (i < tokenized_len && is_ascii_space(tokenized[i]))
      i++;
    if (i == tokenized_len)
      break;
    size_t start = i;
    while (i < tokenized_len && !is_ascii_space(tokenized[i]))
      i++;
    xmt_status st = XMT_OK;
    if (!map_piece(tokens, &ms, &c, tokenized + start, i - start, &st))
      goto mismatch;
    if (st != XMT_OK)
      return st;
    index++;
  }
  skip_spaces(&c);
  if (c.pos == c.len)
    return XMT_OK;
mismatch:
  if (bad_token != NULL)
    *bad_token = index;
  return XMT_ERR_USAGE;
}
