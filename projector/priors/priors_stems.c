/* priors_stems.c -- the vocabularies' keys for the priors: words lowercased
 * and folded through ICU, Snowball stems, and which words are worth
 * stemming. Apart from priors.c because it is about one side's words
 * alone, never about the dictionaries or the links between the sides. */
#include "config.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "priors_build.h"

/* --- Text: lowercasing and folding ----------------------------------------
 * Per-call scratch buffers, so that two builds may run in two threads. */

void xmt_priors_text_free(struct text *t) {
  free(t->u[0]);
  free(t->u[1]);
  xmt_buf_free(&t->out);
}

static xmt_status text_reserve(struct text *t, size_t units) {
  if (t->ucap >= units)
    return XMT_OK;
  size_t cap[2] = {t->ucap, t->ucap}; /* both arrays grow alike */
  for (int i = 0; i < 2; i++) {
    UChar *u = xmt_grow_array(t->u[i], &cap[i], units, sizeof *u);
    if (u == NULL)
      return XMT_ERR_NOMEM;
    t->u[i] = u;
  }
  t->ucap = cap[0];
  return XMT_OK;
}

/* t->out = the bytes of w unchanged. */
static xmt_status text_copy(struct text *t, const char *w, size_t len) {
  xmt_buf_reset(&t->out);
  return xmt_buf_append(&t->out, w, len); /* allocates even when empty */
}

/* t->u[0] = w in UTF-16 (invalid bytes as U+FFFD); its length in *n. */
static xmt_status text_to_u16(struct text *t, const char *w, size_t len,
                              int32_t *n) {
  xmt_status st = text_reserve(t, len + 1);
  if (st != XMT_OK)
    return st;
  UErrorCode e = U_ZERO_ERROR;
  u_strFromUTF8WithSub(t->u[0], (int32_t)t->ucap, n, w, (int32_t)len, 0xFFFD,
                       NULL, &e);
  return U_SUCCESS(e) ? XMT_OK : XMT_ERR_INTERNAL;
}

/* t->out = UTF-16 u (n units) in UTF-8. */
static xmt_status text_from_u16(struct text *t, const UChar *u, int32_t n) {
  xmt_buf_reset(&t->out);
  xmt_status st = xmt_buf_grow(&t->out, (size_t)n * 3 + 1);
  if (st != XMT_OK)
    return st;
  UErrorCode e = U_ZERO_ERROR;
  int32_t bytes = 0;
  u_strToUTF8WithSub(t->out.data, (int32_t)(t->out.cap - 1), &bytes, u, n,
                     0xFFFD, NULL, &e);
  if (U_FAILURE(e))
    return XMT_ERR_INTERNAL;
  t->out.len = (size_t)bytes;
  t->out.data[bytes] = '\0';
  return XMT_OK;
}

/* t->out = w lowercased (full Unicode case mapping, root locale: what the
 * aligner's lowercase option does). ASCII words skip ICU. */
xmt_status xmt_priors_text_lower(struct text *t, const char *w, size_t len) {
  size_t i = 0;
  while (i < len && (unsigned char)w[i] < 0x80)
    i++;
  if (i == len || len > LONG_WORD) {
    xmt_status st = text_copy(t, w, len);
    for (size_t k = 0; k < len && i == len && st == XMT_OK; k++)
      if (w[k] >= 'A' && w[k] <= 'Z')
        t->out.data[k] = (char)(w[k] | 0x20);
    return st;
  }
  int32_t n;
  xmt_status st = text_to_u16(t, w, len, &n);
  if (st != XMT_OK)
    return st == XMT_ERR_NOMEM ? st : text_copy(t, w, len);
  UErrorCode e = U_ZERO_ERROR;
  int32_t ln = u_strToLower(t->u[1], (int32_t)t->ucap, t->u[0], n, "", &e);
  if (e == U_BUFFER_OVERFLOW_ERROR) {
    /* lowercasing lengthened the word past the buffer: grow and redo */
    st = text_reserve(t, (size_t)ln + 1);
    if (st != XMT_OK)
      return st;
    e = U_ZERO_ERROR;
    ln = u_strToLower(t->u[1], (int32_t)t->ucap, t->u[0], n, "", &e);
  }
  if (U_FAILURE(e))
    return text_copy(t, w, len);
  return text_from_u16(t, t->u[1], ln);
}

/* Whether UTF-8 w has a letter or digit (letters_only: a letter). */
int xmt_priors_has_class(const char *w, size_t len, int letters_only) {
  const unsigned char *s = (const unsigned char *)w;
  for (size_t i = 0; i < len;) {
    uint32_t cp = s[i];
    size_t n = cp < 0x80 ? 1 : xmt_utf8_decode(s + i, len - i, &cp);
    if (n == 0)
      n = 1;
    else if (letters_only ? u_isalpha((UChar32)cp) : u_isalnum((UChar32)cp))
      return 1;
    i += n;
  }
  return 0;
}

/* The folded code points of lowercase word w into pool: case folded,
 * decomposed, combining marks dropped ("Réglementation" -> "reglementation",
 * "Straße" -> "strasse"). *n = 0 when too long or not foldable. */
xmt_status xmt_priors_text_fold(struct text *t, const char *w, size_t len,
                                uint32_t *pool, size_t *n) {
  *n = 0;
  if (len > LONG_WORD)
    return XMT_OK;
  int32_t un;
  xmt_status st = text_to_u16(t, w, len, &un);
  if (st != XMT_OK)
    return st == XMT_ERR_NOMEM ? st : XMT_OK;
  /* folding and decomposing lengthen text at most 3 and 4 times */
  st = text_reserve(t, (size_t)un * 12 + 1);
  if (st != XMT_OK)
    return st;
  UErrorCode e = U_ZERO_ERROR;
  int32_t fn = u_strFoldCase(t->u[1], (int32_t)t->ucap, t->u[0], un,
                             U_FOLD_CASE_DEFAULT, &e);
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&e);
  if (U_FAILURE(e))
    return XMT_OK;
  int32_t dn =
      unorm2_normalize(nfd, t->u[1], fn, t->u[0], (int32_t)t->ucap, &e);
  if (U_FAILURE(e))
    return XMT_OK;
  for (int32_t i = 0; i < dn;) {
    UChar32 c;
    U16_NEXT(t->u[0], i, dn, c);
    if (u_charType(c) == U_NON_SPACING_MARK)
      continue;
    if (*n == COG_MAX_LEN) {
      *n = 0;
      return XMT_OK;
    }
    pool[(*n)++] = (uint32_t)c;
  }
  return XMT_OK;
}

void xmt_priors_side_free(struct side *s) {
  if (s->forms_ok)
    xmt_vocab_free(&s->forms);
  if (s->stems_ok)
    xmt_vocab_free(&s->stems);
  if (s->prefixes_ok)
    xmt_vocab_free(&s->prefixes);
  free(s->form_of);
  free(s->form_head);
  free(s->form_next);
  free(s->stem_head);
  free(s->stem_next);
  memset(s, 0, sizeof *s);
}

/* The stem of t->out (a lowercased word) as *stem, *n bytes; the stemmer
 * owns it until its next call. */
xmt_status xmt_priors_stem_of(struct sb_stemmer *stemmer, const struct text *t,
                              const char **stem, size_t *n) {
  if (t->out.len > LONG_WORD) {
    *stem = t->out.data;
    *n = t->out.len;
    return XMT_OK;
  }
  const sb_symbol *r =
      sb_stemmer_stem(stemmer, (const sb_symbol *)t->out.data, (int)t->out.len);
  if (r == NULL)
    return XMT_ERR_NOMEM;
  *stem = (const char *)r;
  *n = (size_t)sb_stemmer_length(stemmer);
  return XMT_OK;
}

/* The stem key of every form key (0: none). */
static xmt_status stem_forms(struct side *s, struct sb_stemmer *stemmer,
                             struct text *t, uint32_t *stem_of_form) {
  for (uint32_t k = 1; k < s->forms.count; k++) {
    size_t len, n;
    const char *w = xmt_vocab_word(&s->forms, k, &len), *stem;
    xmt_status st = text_copy(t, w, len);
    if (st == XMT_OK)
      st = xmt_priors_stem_of(stemmer, t, &stem, &n);
    if (st == XMT_OK && n > 0)
      st = xmt_vocab_intern(&s->stems, stem, n, &stem_of_form[k]);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* --- Which words are worth stemming ---------------------------------------
 * Stemming every headword of a 500,000-line index costs more than reading
 * it. A stem begins like its word, but for its last letter or so ("happy"
 * -> "happi", "hoping" -> "hope") and for diacritics and sharp s, which
 * some stemmers drop ("Häuser" -> "haus"): a word whose folded beginning
 * (y as i) begins no stem of the vocabulary is not stemmed. Stems of 3
 * letters or fewer are kept whole, as 2-letter beginnings would let most
 * words through; the few stems that change more than their last letter
 * ("dying" -> "die") are missed. */

#define PREFIX_MAX 4

/* Base letters of U+00C0..U+017F ('.': kept as it is). */
static const char latin_base[] = "aaaaaa.ceeeeiiii.nooooo.ouuuuy.."
                                 "aaaaaa.ceeeeiiii.nooooo.ouuuuy.y"
                                 "aaaaaaccccccccdddd"
                                 "eeeeeeeeeegggggggghhhhiiiiiiiiii..jjkk."
                                 "llllllllllnnnnnn...oooooo..rrrrrrssssssss"
                                 "ttttttuuuuuuuuuuuuwwyyyzzzzzzs";

/* The first code points of lowercase word w, folded: base letters of
 * Latin-1 and Latin Extended-A, sharp s as "ss", y as i. Returns how many (at
 * most max; *total: of the whole word). */
static size_t fold_prefix(const char *w, size_t len, uint32_t *out, size_t max,
                          size_t *total) {
  size_t n = 0;
  *total = 0;
  for (size_t i = 0; i < len;) {
    uint32_t c = (unsigned char)w[i];
    size_t k = c < 0x80
                   ? 1
                   : xmt_utf8_decode((const unsigned char *)w + i, len - i, &c);
    if (k == 0) {
      k = 1;
      c = 0xFFFD;
    }
    i += k;
    if (c >= 0xC0 && c < 0x180 && latin_base[c - 0xC0] != '.')
      c = (unsigned char)latin_base[c - 0xC0];
    if (c == 'y')
      c = 'i';
    for (int twice = c == 0xDF; twice >= 0; twice--) {
      if (n < max)
        out[n++] = c == 0xDF ? 's' : c;
      ++*total;
    }
  }
  return n;
}

/* UTF-8 of n code points into buf (4 bytes each); returns its length. */
static size_t utf8_encode(const uint32_t *cp, size_t n, char *buf) {
  size_t at = 0;
  for (size_t i = 0; i < n; i++)
    at += xmt_utf8_encode(cp[i], buf + at);
  return at;
}

static xmt_status stem_prefixes(struct side *s) {
  xmt_status st = xmt_vocab_init(&s->prefixes);
  s->prefixes_ok = st == XMT_OK;
  for (uint32_t k = 1; k < s->stems.count && st == XMT_OK; k++) {
    size_t len, total;
    const char *w = xmt_vocab_word(&s->stems, k, &len);
    uint32_t cp[PREFIX_MAX];
    size_t n = fold_prefix(w, len, cp, PREFIX_MAX, &total);
    size_t keep = total <= 3 ? total : total - 1;
    keep = keep < n ? keep : n;
    if (keep == 0)
      continue;
    char buf[4 * PREFIX_MAX];
    uint32_t id;
    st = xmt_vocab_intern(&s->prefixes, buf, utf8_encode(cp, keep, buf), &id);
    s->prefix_lens |= 1u << keep;
  }
  return st;
}

/* Whether lowercase word w may have a stem of the vocabulary. */
int xmt_priors_stem_may_match(const struct side *s, const char *w, size_t len) {
  uint32_t cp[PREFIX_MAX];
  size_t total, n = fold_prefix(w, len, cp, PREFIX_MAX, &total);
  for (size_t k = 1; k <= n; k++) {
    char buf[4 * PREFIX_MAX];
    if ((s->prefix_lens & (1u << k)) &&
        xmt_vocab_find(&s->prefixes, buf, utf8_encode(cp, k, buf)) !=
            XMT_UNKNOWN_WORD)
      return 1;
  }
  return 0;
}

static xmt_status side_stems(struct side *s, struct sb_stemmer *stemmer,
                             struct text *t) {
  uint32_t n = s->vocab->count;
  xmt_status st = xmt_vocab_init(&s->stems);
  if (st != XMT_OK)
    return st;
  s->stems_ok = 1;
  uint32_t *of_form = calloc(s->forms.count, sizeof *of_form);
  uint32_t *of_id = calloc(n, sizeof *of_id);
  if (of_form == NULL || of_id == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = stem_forms(s, stemmer, t, of_form);
  for (uint32_t id = 1; id < n && st == XMT_OK; id++)
    of_id[id] = of_form[s->form_of[id]];
  if (st == XMT_OK)
    st = xmt_priors_chain(of_id, n, s->stems.count, &s->stem_head,
                          &s->stem_next);
  if (st == XMT_OK)
    st = stem_prefixes(s);
  free(of_form);
  free(of_id);
  return st;
}

xmt_status xmt_priors_side_build(struct side *s, struct sb_stemmer *stemmer,
                                 struct text *t) {
  uint32_t n = s->vocab->count;
  xmt_status st = xmt_vocab_init(&s->forms);
  if (st != XMT_OK)
    return st;
  s->forms_ok = 1;
  s->form_of = calloc(n, sizeof *s->form_of);
  if (s->form_of == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t id = 1; id < n; id++) {
    size_t len;
    const char *w = xmt_vocab_word(s->vocab, id, &len);
    st = xmt_priors_text_lower(t, w, len);
    if (st == XMT_OK && t->out.len > 0)
      st =
          xmt_vocab_intern(&s->forms, t->out.data, t->out.len, &s->form_of[id]);
    if (st != XMT_OK)
      return st;
  }
  /* form_of belongs to s, which xmt_priors_side_free releases. */
  // NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
  st = xmt_priors_chain(s->form_of, n, s->forms.count, &s->form_head,
                        &s->form_next);
  if (st == XMT_OK && stemmer != NULL)
    st = side_stems(s, stemmer, t);
  return st;
}
