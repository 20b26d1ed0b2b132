/* priors_scripts.c -- priors for pairs with a language written in Han,
 * Kana or Hangul (Chinese, Japanese, Korean). Apart from priors_strings.c
 * because these words share no letters with a Latin-script language:
 * what they share is what they embed, digits and Latin words ("2024年",
 * "iPhone版") and full-width forms ("２０２４", "ＥＵ", "％"), compared
 * character by character; and such a pair leaves function words
 * unaligned that a pair of European languages aligns (articles). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "priors_build.h"

/* The languages whose words are compared this way, ISO 639-1: data, not
 * code, so another script's language is one entry more. */
static const char *const embed_langs[] = {"zh", "ja", "ko", NULL};

static int embeds(const struct xmt_lang_codes *c) {
  for (const char *const *l = embed_langs; *l != NULL; l++)
    if (strcmp(c->iso1, *l) == 0)
      return 1;
  return 0;
}

/* The ASCII character a code point of such text stands for, or 0: the
 * full-width forms of ASCII (U+FF01..U+FF5E, lowercase when a letter, as
 * the forms compared are), the ideographic full stop and comma and their
 * half-width forms. */
static char ascii_of(uint32_t cp) {
  if (cp < 0x80)
    return cp >= 'A' && cp <= 'Z' ? (char)(cp | 0x20) : (char)cp;
  if (cp >= 0xFF01 && cp <= 0xFF5E) {
    char c = (char)(cp - 0xFEE0);
    return c >= 'A' && c <= 'Z' ? (char)(c | 0x20) : c;
  }
  if (cp == 0x3002 || cp == 0xFF61)
    return '.';
  if (cp == 0x3001 || cp == 0xFF64)
    return ',';
  return 0;
}

static int is_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

/* Links every id of key k of side sd to those of the other side's form
 * (w, len), when it has one. */
static xmt_status link_form(struct xmt_lex_match *m, int sd, uint32_t k,
                            const char *w, size_t len, double weight) {
  const struct side *o = &m->side[sd == XMT_SRC ? XMT_TGT : XMT_SRC];
  uint32_t ok = xmt_vocab_find(&o->forms, w, len);
  if (ok == XMT_UNKNOWN_WORD)
    return XMT_OK;
  return sd == XMT_SRC
             ? xmt_priors_link_chains(m, k, ok, weight, KIND_IDENTICAL)
             : xmt_priors_link_chains(m, ok, k, weight, KIND_IDENTICAL);
}

/* One form of a side written in such a script: its ASCII reading when
 * every character has one and it differs from the form ("２０２４") or is
 * a symbol the identical-word priors leave out ("%"), not sentence
 * punctuation; otherwise each run of ASCII letters and digits it embeds,
 * a run of digits going on across a '.' or ',' between two digits
 * ("3.5"). */
static xmt_status embed_form(struct xmt_lex_match *m, int sd, uint32_t k,
                             char *buf) {
  size_t len, n = 0, whole = 1, plain = 1;
  const char *w = xmt_vocab_word(&m->side[sd].forms, k, &len);
  if (len > LONG_WORD)
    return XMT_OK;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t d = xmt_utf8_decode((const unsigned char *)w + i, len - i, &cp);
    if (d == 0)
      return XMT_OK;
    char c = ascii_of(cp);
    whole = whole && c != 0;
    plain = plain && cp < 0x80;
    buf[n++] = c != 0 ? c : ' ';
    i += d;
  }
  buf[n] = '\0';
  double weight = m->o->identical_weight;
  if (whole) {
    if (plain && xmt_priors_has_class(w, len, 0))
      return XMT_OK; /* the identical-word priors' */
    if (!xmt_priors_has_class(buf, n, 0) && strcspn(buf, "%#$&+=@*/") == n)
      return XMT_OK; /* sentence punctuation: learnt well enough, and a
                      * prior on it measured worse */
    return link_form(m, sd, k, buf, n, weight);
  }
  for (size_t i = 0; i < n;) {
    if (!is_alnum(buf[i])) {
      i++;
      continue;
    }
    size_t j = i + 1;
    while (j < n && (is_alnum(buf[j]) ||
                     ((buf[j] == '.' || buf[j] == ',') && j + 1 < n &&
                      buf[j - 1] >= '0' && buf[j - 1] <= '9' &&
                      buf[j + 1] >= '0' && buf[j + 1] <= '9')))
      j++;
    xmt_status st = link_form(m, sd, k, buf + i, j - i, weight);
    if (st != XMT_OK)
      return st;
    i = j;
  }
  return XMT_OK;
}

xmt_status xmt_priors_add_embedded(struct xmt_lex_match *m) {
  char *buf = NULL;
  xmt_status st = XMT_OK;
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++) {
    const struct side *s = &m->side[sd];
    if (!embeds(&s->lang))
      continue;
    /* a code point's ASCII reading is one byte, at most its length */
    if (buf == NULL && (buf = malloc(LONG_WORD + 1)) == NULL)
      return XMT_ERR_NOMEM;
    for (uint32_t k = 1; k < s->forms.count && st == XMT_OK; k++)
      st = embed_form(m, sd, k, buf);
  }
  free(buf);
  return st;
}

/* --- Words left unaligned -------------------------------------------------
 * Function words that such a pair leaves unaligned: a prior link to NULL,
 * so that each direction's sampler lets them come from NULL rather than
 * from the other side's frequent words (the=は). Data: a language, the
 * languages of the other side it applies to ("" any), the words. */

/* The pseudo-count of such a link, against the NULL row's Dirichlet
 * parameter of 10 for every word: chosen on the tuning halves of the
 * en-zh and en-ja gold sets (100, 300, 1000 tried; 300 the best). */
#define UNMATCHED_WEIGHT 300.0

static const struct {
  const char *lang, *other, *words;
} unmatched[] = {
    {"en", "zh ja ko", "the a an"},
    {"ja", "", "\xE3\x81\xAF \xE3\x82\x92 \xE3\x81\x8C"}, /* は を が */
};

/* Whether the space-separated list has code c ("" has every code). */
static int listed(const char *list, const char *c) {
  size_t n = strlen(c);
  if (*list == '\0')
    return 1;
  for (const char *p = list; *p != '\0'; p += strcspn(p, " "), p += *p == ' ')
    if (strncmp(p, c, n) == 0 && (p[n] == ' ' || p[n] == '\0'))
      return 1;
  return 0;
}

xmt_status xmt_priors_add_unmatched(struct xmt_lex_match *m) {
  for (int sd = 0; sd < 2; sd++) {
    const struct side *s = &m->side[sd], *o = &m->side[!sd];
    for (size_t r = 0; r < sizeof unmatched / sizeof *unmatched; r++) {
      if (strcmp(s->lang.iso1, unmatched[r].lang) != 0 ||
          o->lang.iso1[0] == '\0' || !listed(unmatched[r].other, o->lang.iso1))
        continue;
      for (const char *p = unmatched[r].words; *p != '\0';) {
        size_t n = strcspn(p, " ");
        uint32_t k = xmt_vocab_find(&s->forms, p, n);
        xmt_status st = k == XMT_UNKNOWN_WORD
                            ? XMT_OK
                            : xmt_priors_link_null(m, sd, k, UNMATCHED_WEIGHT);
        if (st != XMT_OK)
          return st;
        p += n;
        p += *p == ' ';
      }
    }
  }
  return XMT_OK;
}
