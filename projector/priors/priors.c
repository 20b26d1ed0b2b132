/* priors.c -- the aligner's prior links: vocabulary words matched against
 * dictionary words (lowercased, or through Snowball stems), identical words
 * and cognates, merged into a sorted struct xmt_prior_table. */
#include "config.h"

#include <libstemmer.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "priors_private.h"

/* Words longer than this (bytes) are matched as they are: no real word is,
 * and it keeps ICU's int32_t lengths safe. */
#define LONG_WORD 4096
/* Cognates: shortest and longest words compared (code points, folded). */
#define COG_MIN_LEN 5
#define COG_MAX_LEN 48
/* Cognates: a group of words sharing a folded prefix is compared pair by
 * pair when it has at most this many pairs; larger groups are split by a
 * longer prefix, so the work stays linear in the vocabulary size. */
#define COG_GROUP_PAIRS 2048
#define COG_MAX_PREFIX 8

enum { KIND_DICTIONARY, KIND_IDENTICAL, KIND_COGNATE, NKINDS };

/* Pseudo-counts of order 1: a dictionary pair weighs as much as one more
 * sentence where the two words meet. On the hand-aligned en-de set
 * (tests/fixtures/align-gold, 30 pairs), stems and phrase links each
 * lowered the AER of both models by 0.01 to 0.02; weights of 0.5 or 2, a
 * stem factor of 1 or a phrase factor of 0.5 made no consistent
 * difference. The threshold and cognates' length of 5 letters keep about
 * three cognates in four right (en-de, en-fr, en-hu glossaries). */
void xmt_prior_options_init(struct xmt_prior_options *o) {
  memset(o, 0, sizeof *o);
  o->dictionary_weight = 1.0;
  o->identical_weight = 1.0;
  o->cognate_weight = 0.5;
  o->cognate_threshold = 0.75;
  o->stems = 1;
  o->stem_factor = 0.5;
  o->phrase_factor = 0.25;
}

/* --- Languages ------------------------------------------------------------ */

/* ISO 639-2/B codes, which ICU does not know, and their 639-3 (T) twins. */
static const char *const bibliographic[][2] = {
    {"alb", "sqi"}, {"arm", "hye"}, {"baq", "eus"}, {"bur", "mya"},
    {"chi", "zho"}, {"cze", "ces"}, {"dut", "nld"}, {"fre", "fra"},
    {"geo", "kat"}, {"ger", "deu"}, {"gre", "ell"}, {"ice", "isl"},
    {"mac", "mkd"}, {"mao", "mri"}, {"may", "msa"}, {"per", "fas"},
    {"rum", "ron"}, {"slo", "slk"}, {"tib", "bod"}, {"wel", "cym"}};

/* The ISO 639-1 code whose 639-3 code is iso3, "" if none. */
static void iso1_of(const char *iso3, char iso1[4]) {
  iso1[0] = '\0';
  for (const char *const *l = uloc_getISOLanguages(); *l != NULL; l++)
    if (strlen(*l) == 2 && strcmp(uloc_getISO3Language(*l), iso3) == 0) {
      memcpy(iso1, *l, 3);
      return;
    }
}

int xmt_lang_codes_of(const char *tag, struct xmt_lang_codes *c) {
  memset(c, 0, sizeof *c);
  if (tag == NULL)
    return 0;
  char code[4];
  size_t n = 0;
  for (; tag[n] != '\0' && tag[n] != '-' && tag[n] != '_'; n++) {
    char ch = tag[n];
    if (n == 3 || !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')))
      return 0;
    code[n] = (char)(ch | 0x20);
  }
  if (n < 2)
    return 0;
  code[n] = '\0';
  if (n == 2) {
    memcpy(c->iso1, code, 3);
    const char *iso3 = uloc_getISO3Language(code);
    if (strlen(iso3) == 3)
      memcpy(c->iso3, iso3, 4);
    return 1;
  }
  memcpy(c->iso3, code, 4);
  for (size_t i = 0; i < sizeof bibliographic / sizeof *bibliographic; i++)
    if (strcmp(code, bibliographic[i][0]) == 0)
      memcpy(c->iso3, bibliographic[i][1], 4);
  iso1_of(c->iso3, c->iso1);
  return 1;
}

/* Snowball's algorithm for an ISO 639-1 code, NULL if it has none. */
static const char *snowball_name(const char *iso1) {
  static const char *const names[][2] = {
      {"ar", "arabic"},    {"ca", "catalan"},    {"da", "danish"},
      {"de", "german"},    {"el", "greek"},      {"en", "english"},
      {"es", "spanish"},   {"eu", "basque"},     {"fi", "finnish"},
      {"fr", "french"},    {"ga", "irish"},      {"hi", "hindi"},
      {"hu", "hungarian"}, {"hy", "armenian"},   {"id", "indonesian"},
      {"it", "italian"},   {"lt", "lithuanian"}, {"nb", "norwegian"},
      {"ne", "nepali"},    {"nl", "dutch"},      {"nn", "norwegian"},
      {"no", "norwegian"}, {"pt", "portuguese"}, {"ro", "romanian"},
      {"ru", "russian"},   {"sr", "serbian"},    {"sv", "swedish"},
      {"ta", "tamil"},     {"tr", "turkish"},    {"yi", "yiddish"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(iso1, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}

/* --- Text: lowercasing and folding ----------------------------------------
 * Per-call scratch buffers, so that two builds may run in two threads. */

struct text {
  UChar *u[2]; /* UTF-16 buffers */
  size_t ucap; /* units in each */
  struct xmt_buf out;
};

static void text_free(struct text *t) {
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
static xmt_status text_lower(struct text *t, const char *w, size_t len) {
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
static int has_class(const char *w, size_t len, int letters_only) {
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
static xmt_status text_fold(struct text *t, const char *w, size_t len,
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

/* --- The vocabularies' keys -----------------------------------------------
 * Each side's words lowercased ("forms") and stemmed, as tables of distinct
 * keys (an xmt_vocab each), with the vocabulary ids of each key chained. */

struct hit {
  uint32_t id;
  float factor; /* 1, or stem_factor for a match through a stem */
};

struct side {
  const struct xmt_vocab *vocab;
  struct xmt_lang_codes lang;
  const char *algorithm; /* Snowball's; NULL: no stems */
  struct xmt_vocab forms, stems;
  int forms_ok, stems_ok;
  uint32_t *form_of;               /* vocabulary id -> form key, 0: none */
  uint32_t *form_head, *form_next; /* key -> first id; id -> next id */
  uint32_t *stem_head, *stem_next;
  /* the folded beginnings of the stems (see stem_may_match) */
  struct xmt_vocab prefixes;
  int prefixes_ok;
  unsigned prefix_lens; /* bit L: some prefix has L code points */
};

/* One side's last lookup, kept: a headword is looked up once for all its
 * translations. */
struct found {
  struct xmt_buf word;
  int ok;
  struct hit *hits;
  size_t n, cap;
};

struct link {
  uint32_t src, tgt;
  float w;
  uint32_t kind;
};

/* The sides are shared, read only, by the copies that threads use; the
 * rest is each copy's own. */
struct xmt_lex_match {
  const struct xmt_prior_options *o;
  xmt_lexicon *record;     /* keeping what the readers give, all of it */
  const struct side *side; /* [2] */
  struct sb_stemmer *stemmer[2];
  struct text text;
  struct found found[2];
  struct link *links;
  size_t nlinks, links_cap;
};

static void side_free(struct side *s) {
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
static xmt_status stem_of(struct sb_stemmer *stemmer, const struct text *t,
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
      st = stem_of(stemmer, t, &stem, &n);
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
  for (size_t i = 0; i < n; i++) {
    uint32_t c = cp[i];
    if (c < 0x80)
      buf[at++] = (char)c;
    else if (c < 0x800) {
      buf[at++] = (char)(0xC0 | c >> 6);
      buf[at++] = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      buf[at++] = (char)(0xE0 | c >> 12);
      buf[at++] = (char)(0x80 | ((c >> 6) & 0x3F));
      buf[at++] = (char)(0x80 | (c & 0x3F));
    } else {
      buf[at++] = (char)(0xF0 | c >> 18);
      buf[at++] = (char)(0x80 | ((c >> 12) & 0x3F));
      buf[at++] = (char)(0x80 | ((c >> 6) & 0x3F));
      buf[at++] = (char)(0x80 | (c & 0x3F));
    }
  }
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
static int stem_may_match(const struct side *s, const char *w, size_t len) {
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

static xmt_status side_build(struct side *s, struct sb_stemmer *stemmer,
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
    st = text_lower(t, w, len);
    if (st == XMT_OK && t->out.len > 0)
      st =
          xmt_vocab_intern(&s->forms, t->out.data, t->out.len, &s->form_of[id]);
    if (st != XMT_OK)
      return st;
  }
  /* form_of belongs to s, which side_free releases. */
  // NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
  st = xmt_priors_chain(s->form_of, n, s->forms.count, &s->form_head,
                        &s->form_next);
  if (st == XMT_OK && stemmer != NULL)
    st = side_stems(s, stemmer, t);
  return st;
}

/* --- Links ---------------------------------------------------------------- */

static xmt_status push_link(struct xmt_lex_match *m, uint32_t src, uint32_t tgt,
                            double w, uint32_t kind) {
  if (!(w > 0))
    return XMT_OK;
  if (m->nlinks == m->links_cap) {
    struct link *l =
        xmt_grow_array(m->links, &m->links_cap, m->nlinks + 1, sizeof *l);
    if (l == NULL)
      return XMT_ERR_NOMEM;
    m->links = l;
  }
  m->links[m->nlinks++] = (struct link){src, tgt, (float)w, kind};
  return XMT_OK;
}

/* Links every id of src key chain a to every id of target key chain b. */
static xmt_status link_chains(struct xmt_lex_match *m, uint32_t a, uint32_t b,
                              double w, uint32_t kind) {
  const struct side *s = &m->side[XMT_SRC], *t = &m->side[XMT_TGT];
  for (uint32_t i = s->form_head[a]; i != 0; i = s->form_next[i])
    for (uint32_t j = t->form_head[b]; j != 0; j = t->form_next[j]) {
      xmt_status st = push_link(m, i, j, w, kind);
      if (st != XMT_OK)
        return st;
    }
  return XMT_OK;
}

/* --- Dictionary words against the vocabularies ---------------------------- */

const struct xmt_prior_options *xmt_lex_options(const struct xmt_lex_match *m) {
  return m->o;
}

const struct xmt_lang_codes *xmt_lex_lang(const struct xmt_lex_match *m,
                                          int side) {
  return &m->side[side].lang;
}

static xmt_status push_hit(struct found *f, uint32_t id, float factor) {
  if (f->n == f->cap) {
    struct hit *h = xmt_grow_array(f->hits, &f->cap, f->n + 1, sizeof *h);
    if (h == NULL)
      return XMT_ERR_NOMEM;
    f->hits = h;
  }
  f->hits[f->n++] = (struct hit){id, factor};
  return XMT_OK;
}

/* The stem matches of m->text.out on side sd, the ids already matched by
 * form fk apart. */
static xmt_status stem_hits(struct xmt_lex_match *m, int sd, uint32_t fk) {
  const struct side *s = &m->side[sd];
  const char *stem;
  size_t n;
  if (!stem_may_match(s, m->text.out.data, m->text.out.len))
    return XMT_OK;
  xmt_status st = stem_of(m->stemmer[sd], &m->text, &stem, &n);
  uint32_t sk = st == XMT_OK && n > 0 ? xmt_vocab_find(&s->stems, stem, n)
                                      : XMT_UNKNOWN_WORD;
  if (sk == XMT_UNKNOWN_WORD)
    return st;
  for (uint32_t id = s->stem_head[sk]; id != 0 && st == XMT_OK;
       id = s->stem_next[id])
    if (s->form_of[id] != fk)
      st = push_hit(&m->found[sd], id, (float)m->o->stem_factor);
  return st;
}

/* m->found[sd] = the vocabulary words of side sd that dictionary word w
 * matches. */
static xmt_status lookup(struct xmt_lex_match *m, int sd, const char *w,
                         size_t len) {
  const struct side *s = &m->side[sd];
  struct found *f = &m->found[sd];
  if (f->ok && f->word.len == len &&
      (len == 0 || memcmp(f->word.data, w, len) == 0))
    return XMT_OK;
  f->ok = 0;
  f->n = 0;
  xmt_status st = text_lower(&m->text, w, len);
  if (st != XMT_OK || m->text.out.len == 0)
    return st;
  uint32_t fk = xmt_vocab_find(&s->forms, m->text.out.data, m->text.out.len);
  if (fk != XMT_UNKNOWN_WORD)
    for (uint32_t id = s->form_head[fk]; id != 0 && st == XMT_OK;
         id = s->form_next[id])
      st = push_hit(f, id, 1.0f);
  if (st == XMT_OK && m->stemmer[sd] != NULL)
    st = stem_hits(m, sd, fk == XMT_UNKNOWN_WORD ? 0 : fk);
  xmt_buf_reset(&f->word);
  if (st == XMT_OK)
    st = xmt_buf_append(&f->word, w, len);
  f->ok = st == XMT_OK;
  return st;
}

xmt_status xmt_lex_wanted(struct xmt_lex_match *m, int side, const char *w,
                          size_t len, int *wanted) {
  if (m->record != NULL) { /* every word, for documents to come */
    *wanted = 1;
    return XMT_OK;
  }
  xmt_status st = lookup(m, side, w, len);
  *wanted = st == XMT_OK && m->found[side].n > 0;
  return st;
}

/* Links every word found for the source to every one found for the
 * target. */
static xmt_status link_found(struct xmt_lex_match *m, double scale) {
  const struct found *s = &m->found[XMT_SRC], *t = &m->found[XMT_TGT];
  double w0 = m->o->dictionary_weight * scale;
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = 0; j < t->n; j++) {
      float f = s->hits[i].factor < t->hits[j].factor ? s->hits[i].factor
                                                      : t->hits[j].factor;
      xmt_status st =
          push_link(m, s->hits[i].id, t->hits[j].id, w0 * f, KIND_DICTIONARY);
      if (st != XMT_OK)
        return st;
    }
  return XMT_OK;
}

xmt_status xmt_lex_pair(struct xmt_lex_match *m, const char *const w[2],
                        const size_t len[2], double scale) {
  if (m->record != NULL) /* an empty word matches nothing */
    return len[0] > 0 && len[1] > 0 ? xmt_kept_add(m->record, w, len, scale)
                                    : XMT_OK;
  for (int sd = 0; sd < 2; sd++) {
    xmt_status st = lookup(m, sd, w[sd], len[sd]);
    if (st != XMT_OK || m->found[sd].n == 0)
      return st; /* no need to look at the other side's word */
  }
  return link_found(m, scale);
}

/* --- Copies for threads --------------------------------------------------- */

static void match_free(struct xmt_lex_match *m) {
  for (int sd = 0; sd < 2; sd++) {
    if (m->stemmer[sd] != NULL)
      sb_stemmer_delete(m->stemmer[sd]);
    xmt_buf_free(&m->found[sd].word);
    free(m->found[sd].hits);
  }
  text_free(&m->text);
  free(m->links);
  memset(m, 0, sizeof *m);
}

/* m for the two sides side: stemmers of their languages, no links yet. */
static xmt_status match_init(struct xmt_lex_match *m,
                             const struct xmt_prior_options *o,
                             const struct side *side) {
  memset(m, 0, sizeof *m);
  m->o = o;
  m->side = side;
  for (int sd = 0; sd < 2; sd++) {
    const char *algo = side[sd].algorithm;
    if (algo != NULL &&
        (m->stemmer[sd] = sb_stemmer_new(algo, "UTF_8")) == NULL) {
      match_free(m);
      return XMT_ERR_NOMEM;
    }
  }
  return XMT_OK;
}

xmt_status xmt_lex_match_fork(const struct xmt_lex_match *m,
                              struct xmt_lex_match **copy) {
  *copy = malloc(sizeof **copy);
  if (*copy == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = match_init(*copy, m->o, m->side);
  if (st != XMT_OK) {
    free(*copy);
    *copy = NULL;
  }
  return st;
}

xmt_status xmt_lex_match_join(struct xmt_lex_match *m,
                              struct xmt_lex_match *copy) {
  xmt_status st = XMT_OK;
  if (copy == NULL)
    return st;
  if (m->links_cap - m->nlinks < copy->nlinks) {
    struct link *l = xmt_grow_array(m->links, &m->links_cap,
                                    m->nlinks + copy->nlinks, sizeof *l);
    if (l != NULL)
      m->links = l;
    else
      st = XMT_ERR_NOMEM;
  }
  if (st == XMT_OK && copy->nlinks > 0) {
    memcpy(m->links + m->nlinks, copy->links,
           copy->nlinks * sizeof *copy->links);
    m->nlinks += copy->nlinks;
  }
  match_free(copy);
  free(copy);
  return st;
}

/* --- Identical words ------------------------------------------------------ */

static xmt_status add_identical(struct xmt_lex_match *m) {
  const struct side *s = &m->side[XMT_SRC], *t = &m->side[XMT_TGT];
  for (uint32_t k = 1; k < s->forms.count; k++) {
    size_t len;
    const char *w = xmt_vocab_word(&s->forms, k, &len);
    uint32_t tk = xmt_vocab_find(&t->forms, w, len);
    if (tk == XMT_UNKNOWN_WORD || !has_class(w, len, 0))
      continue;
    xmt_status st =
        link_chains(m, k, tk, m->o->identical_weight, KIND_IDENTICAL);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* --- Cognates --------------------------------------------------------------
 * Words of at least COG_MIN_LEN letters, folded; sorted, so that words with
 * a common prefix are neighbours; compared within groups of a common prefix
 * (longer prefixes for larger groups); for each source word, the target
 * words of the best similarity at or above the threshold. */

struct cand {
  const uint32_t *cp; /* folded code points */
  size_t at;          /* cp's offset in the pool while it grows */
  uint32_t len;
  uint32_t key; /* form key */
};

struct cands {
  struct cand *c;
  size_t n;
  uint32_t *pool;
  size_t pool_len, pool_cap;
};

static void cands_free(struct cands *c) {
  free(c->c);
  free(c->pool);
}

static int cand_cmp(const void *pa, const void *pb) {
  const struct cand *a = pa, *b = pb;
  uint32_t n = a->len < b->len ? a->len : b->len;
  for (uint32_t i = 0; i < n; i++)
    if (a->cp[i] != b->cp[i])
      return a->cp[i] < b->cp[i] ? -1 : 1;
  return a->len < b->len ? -1 : a->len > b->len;
}

/* Order of a and b by their first p code points (a prefix of the sort). */
static int prefix_cmp(const struct cand *a, const struct cand *b, uint32_t p) {
  uint32_t la = a->len < p ? a->len : p, lb = b->len < p ? b->len : p;
  uint32_t n = la < lb ? la : lb;
  for (uint32_t i = 0; i < n; i++)
    if (a->cp[i] != b->cp[i])
      return a->cp[i] < b->cp[i] ? -1 : 1;
  return la < lb ? -1 : la > lb;
}

static xmt_status cands_build(struct cands *c, const struct side *s,
                              struct text *t) {
  uint32_t nk = s->forms.count;
  c->c = malloc((size_t)nk * sizeof *c->c);
  if (c->c == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t k = 1; k < nk; k++) {
    size_t len, n;
    const char *w = xmt_vocab_word(&s->forms, k, &len);
    if (len < COG_MIN_LEN || !has_class(w, len, 1))
      continue;
    if (c->pool_cap - c->pool_len < COG_MAX_LEN) {
      uint32_t *p = xmt_grow_array(c->pool, &c->pool_cap,
                                   c->pool_len + COG_MAX_LEN, sizeof *p);
      if (p == NULL)
        return XMT_ERR_NOMEM;
      c->pool = p;
    }
    xmt_status st = text_fold(t, w, len, c->pool + c->pool_len, &n);
    if (st != XMT_OK)
      return st;
    if (n < COG_MIN_LEN)
      continue;
    c->c[c->n++] = (struct cand){NULL, c->pool_len, (uint32_t)n, k};
    c->pool_len += n;
  }
  /* the pool has stopped moving: offsets become pointers */
  for (size_t i = 0; i < c->n; i++)
    c->c[i].cp = c->pool + c->c[i].at;
  return XMT_OK;
}

/* Edit distance of a and b when at most k, else k + 1 (Ukkonen's band). */
static uint32_t edit_distance(const struct cand *a, const struct cand *b,
                              uint32_t k) {
  uint32_t rows[2][COG_MAX_LEN + 2], *prev = rows[0], *cur = rows[1];
  uint32_t inf = k + 1, la = a->len, lb = b->len;
  if (la > COG_MAX_LEN || lb > COG_MAX_LEN || (la > lb ? la - lb : lb - la) > k)
    return inf;
  /* the band writes every cell the next row reads; the rest is set all the
   * same, for the static analyzer */
  for (uint32_t j = 0; j < COG_MAX_LEN + 2; j++) {
    prev[j] = j <= k ? j : inf;
    cur[j] = inf;
  }
  for (uint32_t i = 1; i <= la; i++) {
    uint32_t lo = i > k ? i - k : 1, hi = i + k < lb ? i + k : lb;
    cur[lo - 1] = lo == 1 && i <= k ? i : inf;
    uint32_t best = cur[lo - 1];
    for (uint32_t j = lo; j <= hi; j++) {
      uint32_t c = prev[j - 1] + (a->cp[i - 1] != b->cp[j - 1]);
      if (prev[j] + 1 < c)
        c = prev[j] + 1;
      if (cur[j - 1] + 1 < c)
        c = cur[j - 1] + 1;
      cur[j] = c < inf ? c : inf;
      if (cur[j] < best)
        best = cur[j];
    }
    if (hi < lb)
      cur[hi + 1] = inf;
    if (best >= inf)
      return inf;
    uint32_t *tmp = prev;
    prev = cur;
    cur = tmp;
  }
  return prev[lb];
}

/* Similarity of a and b (1 - distance / longer length) when at least thr,
 * else 0. */
static double similarity(const struct cand *a, const struct cand *b,
                         double thr) {
  uint32_t longer = a->len > b->len ? a->len : b->len;
  uint32_t diff = a->len > b->len ? a->len - b->len : b->len - a->len;
  uint32_t k = (uint32_t)((1 - thr) * longer + 1e-9);
  if (diff > k)
    return 0;
  uint32_t d = edit_distance(a, b, k);
  return d > k ? 0 : 1 - (double)d / longer;
}

struct cognates {
  struct xmt_lex_match *m;
  uint32_t *best; /* target candidates of the best similarity */
  size_t nbest;
};

/* Links source candidate a to its best targets among b[0..nb). */
static xmt_status best_cognates(struct cognates *g, const struct cand *a,
                                const struct cand *b, size_t nb) {
  struct xmt_lex_match *m = g->m;
  double best = 0;
  g->nbest = 0;
  for (size_t j = 0; j < nb; j++) {
    double sim = similarity(a, &b[j], m->o->cognate_threshold);
    if (sim <= 0 || sim < best)
      continue;
    if (sim > best)
      g->nbest = 0;
    best = sim;
    g->best[g->nbest++] = (uint32_t)j;
  }
  const struct xmt_vocab *sf = &m->side[XMT_SRC].forms;
  const struct xmt_vocab *tf = &m->side[XMT_TGT].forms;
  size_t la, lb;
  const char *wa = xmt_vocab_word(sf, a->key, &la);
  for (size_t i = 0; i < g->nbest; i++) {
    const struct cand *c = &b[g->best[i]];
    const char *wb = xmt_vocab_word(tf, c->key, &lb);
    if (la == lb && memcmp(wa, wb, la) == 0)
      continue; /* identical: not a cognate, but the best there is */
    xmt_status st = link_chains(m, a->key, c->key, m->o->cognate_weight * best,
                                KIND_COGNATE);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* Compares the words of a and b that share their first p code points:
 * groups small enough pair by pair, larger ones by a longer prefix. */
static xmt_status cognate_groups(struct cognates *g, const struct cand *a,
                                 size_t na, const struct cand *b, size_t nb,
                                 uint32_t p) {
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    int c = prefix_cmp(&a[i], &b[j], p);
    if (c != 0) {
      c < 0 ? i++ : j++;
      continue;
    }
    size_t ie = i + 1, je = j + 1;
    while (ie < na && prefix_cmp(&a[i], &a[ie], p) == 0)
      ie++;
    while (je < nb && prefix_cmp(&b[j], &b[je], p) == 0)
      je++;
    xmt_status st = XMT_OK;
    if ((ie - i) * (je - j) > COG_GROUP_PAIRS && p < COG_MAX_PREFIX)
      st = cognate_groups(g, a + i, ie - i, b + j, je - j, p + 1);
    else
      for (size_t k = i; k < ie && st == XMT_OK; k++)
        st = best_cognates(g, &a[k], b + j, je - j);
    if (st != XMT_OK)
      return st;
    i = ie;
    j = je;
  }
  return XMT_OK;
}

static xmt_status add_cognates(struct xmt_lex_match *m) {
  struct cands c[2];
  memset(c, 0, sizeof c);
  struct cognates g = {m, NULL, 0};
  xmt_status st = XMT_OK;
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++) {
    st = cands_build(&c[sd], &m->side[sd], &m->text);
    if (st == XMT_OK)
      qsort(c[sd].c, c[sd].n, sizeof *c[sd].c, cand_cmp);
  }
  if (st == XMT_OK &&
      (g.best = malloc((c[1].n ? c[1].n : 1) * sizeof *g.best)) == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = cognate_groups(&g, c[0].c, c[0].n, c[1].c, c[1].n, 1);
  free(g.best);
  cands_free(&c[0]);
  cands_free(&c[1]);
  return st;
}

/* --- The table ------------------------------------------------------------ */

void xmt_prior_table_free(struct xmt_prior_table *t) {
  free(t->src);
  free(t->tgt);
  free(t->w);
  memset(t, 0, sizeof *t);
}

float xmt_prior_table_weight(const struct xmt_prior_table *t, uint32_t src,
                             uint32_t tgt) {
  size_t lo = 0, hi = t->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->src[mid] < src || (t->src[mid] == src && t->tgt[mid] < tgt))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < t->count && t->src[lo] == src && t->tgt[lo] == tgt ? t->w[lo]
                                                                 : 0.0f;
}

/* --- Refining alignments ------------------------------------------------ */

struct unaligned_pair {
  size_t i, j;
  float w;
  uint64_t off_diagonal; /* |(2i + 1) m - (2j + 1) n|: same scale for all */
};

static int unaligned_pair_cmp(const void *pa, const void *pb) {
  const struct unaligned_pair *a = pa, *b = pb;
  if (a->w != b->w)
    return a->w > b->w ? -1 : 1;
  if (a->off_diagonal != b->off_diagonal)
    return a->off_diagonal < b->off_diagonal ? -1 : 1;
  if (a->i != b->i)
    return a->i < b->i ? -1 : 1;
  return a->j < b->j ? -1 : a->j > b->j;
}

static int xmt_link_cmp(const void *pa, const void *pb) {
  const struct xmt_link *a = pa, *b = pb;
  if (a->source != b->source)
    return a->source < b->source ? -1 : 1;
  return a->target < b->target ? -1 : a->target > b->target;
}

static int next_to(size_t a, size_t b) { return a + 1 == b || b + 1 == a; }

/* Swaps the targets of two links between neighbouring words on both sides
 * when neither has a prior and a word-for-word prior (not a word of a
 * multiword translation) supports the swap. Returns whether any moved. */
static int swap_neighbours(struct xmt_link *l, size_t count,
                           const struct xmt_prior_table *t, const uint32_t *s,
                           const uint32_t *tw) {
  int moved = 0;
  for (size_t a = 0; a < count; a++)
    for (size_t b = 0; b < count; b++) {
      size_t i = l[a].source, j = l[a].target;
      size_t i2 = l[b].source, j2 = l[b].target;
      if (!next_to(i, i2) || !next_to(j, j2) ||
          xmt_prior_table_weight(t, s[i], tw[j]) > 0 ||
          xmt_prior_table_weight(t, s[i2], tw[j2]) > 0 ||
          !(xmt_prior_table_weight(t, s[i], tw[j2]) > t->phrase_max))
        continue;
      l[a].target = j2;
      l[b].target = j;
      moved = 1;
    }
  return moved;
}

/* Appends to l (room for n + m more) a link between words that l leaves
 * both unaligned and a prior links: heaviest prior first, then nearest the
 * diagonal, each word once. linked has n + m flags. Returns how many. */
static xmt_status link_unaligned(struct xmt_link *l, size_t *count,
                                 unsigned char *linked,
                                 const struct xmt_prior_table *t,
                                 const uint32_t *s, size_t n,
                                 const uint32_t *tw, size_t m) {
  unsigned char *src_linked = linked, *tgt_linked = linked + n;
  for (size_t k = 0; k < *count; k++) {
    src_linked[l[k].source] = 1;
    tgt_linked[l[k].target] = 1;
  }
  struct unaligned_pair *c = NULL;
  size_t nc = 0, cap = 0;
  for (size_t i = 0; i < n; i++) {
    if (src_linked[i])
      continue;
    for (size_t j = 0; j < m; j++) {
      float w;
      if (tgt_linked[j] || !((w = xmt_prior_table_weight(t, s[i], tw[j])) > 0))
        continue;
      struct unaligned_pair *g = xmt_grow_array(c, &cap, nc + 1, sizeof *g);
      if (g == NULL) {
        free(c);
        return XMT_ERR_NOMEM;
      }
      c = g;
      uint64_t a = (2 * (uint64_t)i + 1) * m, b = (2 * (uint64_t)j + 1) * n;
      c[nc++] = (struct unaligned_pair){i, j, w, a > b ? a - b : b - a};
    }
  }
  if (nc > 1)
    qsort(c, nc, sizeof *c, unaligned_pair_cmp);
  for (size_t k = 0; k < nc; k++) {
    if (src_linked[c[k].i] || tgt_linked[c[k].j])
      continue;
    src_linked[c[k].i] = tgt_linked[c[k].j] = 1;
    l[(*count)++] = (struct xmt_link){c[k].i, c[k].j};
  }
  free(c);
  return XMT_OK;
}

xmt_status xmt_priors_refine(xmt_alignment *out,
                             const struct xmt_prior_table *t, const uint32_t *s,
                             size_t n, const uint32_t *tw, size_t m) {
  if (t->count == 0 || n == 0 || m == 0)
    return XMT_OK;
  size_t count = xmt_alignment_count(out), before = count;
  /* each word gets at most one new link: n + m more at most */
  struct xmt_link *l = malloc((count + n + m) * sizeof *l);
  unsigned char *linked = calloc(n + m, 1);
  if (l == NULL || linked == NULL) {
    free(l);
    free(linked);
    return XMT_ERR_NOMEM;
  }
  if (count > 0)
    memcpy(l, xmt_alignment_links(out), count * sizeof *l);
  int moved = swap_neighbours(l, count, t, s, tw);
  xmt_status st = link_unaligned(l, &count, linked, t, s, n, tw, m);
  if (st == XMT_OK && (moved || count > before)) {
    /* back in (source, target) order, as symmetrizing left them */
    qsort(l, count, sizeof *l, xmt_link_cmp);
    xmt_alignment_clear(out);
    for (size_t k = 0; k < count && st == XMT_OK; k++)
      if (k == 0 || xmt_link_cmp(&l[k - 1], &l[k]) != 0)
        st = xmt_alignment_add(out, l[k].source, l[k].target);
  }
  free(l);
  free(linked);
  return st;
}

static int link_cmp(const void *pa, const void *pb) {
  const struct link *a = pa, *b = pb;
  if (a->src != b->src)
    return a->src < b->src ? -1 : 1;
  if (a->tgt != b->tgt)
    return a->tgt < b->tgt ? -1 : 1;
  return a->kind < b->kind ? -1 : a->kind > b->kind;
}

/* Sorts and merges m's links into out (a pair's largest weight), counting
 * each kind's distinct pairs. */
static xmt_status make_table(struct xmt_lex_match *m,
                             struct xmt_prior_table *out,
                             struct xmt_prior_stats *stats) {
  if (m->nlinks > 1)
    qsort(m->links, m->nlinks, sizeof *m->links, link_cmp);
  size_t n = 0, kinds[NKINDS] = {0};
  for (size_t i = 0; i < m->nlinks; i++) {
    const struct link *l = &m->links[i], *p = i ? l - 1 : NULL;
    int same_pair = p != NULL && p->src == l->src && p->tgt == l->tgt;
    if (!same_pair || p->kind != l->kind)
      kinds[l->kind]++;
    if (!same_pair)
      m->links[n++] = *l;
    else if (l->w > m->links[n - 1].w)
      m->links[n - 1].w = l->w;
  }
  size_t cap = n ? n : 1;
  out->src = malloc(cap * sizeof *out->src);
  out->tgt = malloc(cap * sizeof *out->tgt);
  out->w = malloc(cap * sizeof *out->w);
  if (out->src == NULL || out->tgt == NULL || out->w == NULL) {
    xmt_prior_table_free(out);
    return XMT_ERR_NOMEM;
  }
  for (size_t i = 0; i < n; i++) {
    out->src[i] = m->links[i].src;
    out->tgt[i] = m->links[i].tgt;
    out->w[i] = m->links[i].w;
  }
  out->count = n;
  out->cap = cap;
  if (stats != NULL) {
    stats->dictionary_links = kinds[KIND_DICTIONARY];
    stats->identical_links = kinds[KIND_IDENTICAL];
    stats->cognate_links = kinds[KIND_COGNATE];
    stats->links = n;
  }
  return XMT_OK;
}

/* --- Building ------------------------------------------------------------- */

static xmt_status check_options(const struct xmt_vocab *src,
                                const struct xmt_vocab *tgt,
                                const struct xmt_prior_options *o,
                                struct xmt_error_store *err) {
  const char *bad = NULL;
  if (src == NULL || tgt == NULL || o == NULL)
    bad = "no vocabulary or no options";
  else if (!(o->dictionary_weight > 0) || isinf(o->dictionary_weight))
    bad = "the dictionary weight must be positive";
  else if (!(o->identical_weight >= 0) || isinf(o->identical_weight))
    bad = "the identical-word weight must be positive or 0";
  else if (!(o->cognate_weight >= 0) || isinf(o->cognate_weight))
    bad = "the cognate weight must be positive or 0";
  else if (!(o->cognate_threshold > 0 && o->cognate_threshold <= 1))
    bad = "the cognate threshold must be in (0, 1]";
  else if (o->stems && !(o->stem_factor > 0 && o->stem_factor <= 1))
    bad = "the stem factor must be in (0, 1]";
  else if (!(o->phrase_factor >= 0 && o->phrase_factor <= 1))
    bad = "the phrase factor must be in [0, 1]";
  else if (o->ndictionaries > 0 && o->dictionaries == NULL)
    bad = "no dictionary list";
  if (bad == NULL)
    return XMT_OK;
  return xmt_error_set(err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "priors: %s", bad);
}

/* The sides' languages, stemming algorithms and key tables; m gets their
 * stemmers. */
static xmt_status sides_build(struct side side[2], struct xmt_lex_match *m,
                              const struct xmt_vocab *src,
                              const struct xmt_vocab *tgt,
                              const struct xmt_prior_options *o) {
  memset(side, 0, 2 * sizeof *side);
  const char *lang[2] = {o->source_lang, o->target_lang};
  const struct xmt_vocab *v[2] = {src, tgt};
  for (int sd = 0; sd < 2; sd++) {
    side[sd].vocab = v[sd];
    xmt_lang_codes_of(lang[sd], &side[sd].lang);
    const char *algo = o->stems ? snowball_name(side[sd].lang.iso1) : NULL;
    /* a libstemmer without the algorithm: no stems for the language */
    struct sb_stemmer *probe =
        algo != NULL ? sb_stemmer_new(algo, "UTF_8") : NULL;
    side[sd].algorithm = probe != NULL ? algo : NULL;
    if (probe != NULL)
      sb_stemmer_delete(probe);
  }
  xmt_status st = match_init(m, o, side);
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++)
    st = side_build(&side[sd], m->stemmer[sd], &m->text);
  return st;
}

/* --- Dictionaries kept between builds ------------------------------------
 * The first build reads every pair of the dictionaries into o->kept; later
 * ones go from the document's forms and stems to the kept words that have
 * them, and match those words as lookup() would match them read from the
 * files: the same links, without the reading. */

/* What the kept pairs depend on, besides the files themselves. */
static xmt_status kept_key(const struct xmt_prior_options *o,
                           struct xmt_buf *key) {
  const char *parts[] = {o->source_lang, o->target_lang, o->dictd_dir,
                         o->apertium_dir, o->lt_print};
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < sizeof parts / sizeof *parts && st == XMT_OK; i++) {
    st = xmt_buf_append_str(key, parts[i] != NULL ? parts[i] : "-");
    if (st == XMT_OK)
      st = xmt_buf_append_byte(key, '\x1f');
  }
  char opts[64];
  snprintf(opts, sizeof opts, "%d %.17g", o->stems, o->phrase_factor);
  if (st == XMT_OK)
    st = xmt_buf_append_str(key, opts);
  for (size_t i = 0; i < o->ndictionaries && st == XMT_OK; i++) {
    st = xmt_buf_append_byte(key, '\x1f');
    if (st == XMT_OK)
      st = xmt_buf_append_str(key, o->dictionaries[i]);
  }
  return st;
}

/* The lowercased form and stem of every kept word, as lookup() makes them
 * (m: a match of the languages, for its stemmers and scratch). */
static xmt_status kept_keys(struct xmt_lex_match *m, xmt_lexicon *lx) {
  xmt_status st = XMT_OK;
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++) {
    uint32_t n = lx->words[sd].count;
    lx->form_of[sd] = calloc(n, sizeof *lx->form_of[sd]);
    lx->stem_of[sd] = calloc(n, sizeof *lx->stem_of[sd]);
    if (lx->form_of[sd] == NULL || lx->stem_of[sd] == NULL)
      return XMT_ERR_NOMEM;
    for (uint32_t id = 1; id < n && st == XMT_OK; id++) {
      size_t len, sn;
      const char *w = xmt_vocab_word(&lx->words[sd], id, &len), *stem;
      st = text_lower(&m->text, w, len);
      if (st != XMT_OK || m->text.out.len == 0)
        continue;
      st = xmt_vocab_intern(&lx->forms[sd], m->text.out.data, m->text.out.len,
                            &lx->form_of[sd][id]);
      if (st == XMT_OK && m->stemmer[sd] != NULL)
        st = stem_of(m->stemmer[sd], &m->text, &stem, &sn);
      if (st == XMT_OK && m->stemmer[sd] != NULL && sn > 0)
        st = xmt_vocab_intern(&lx->stems[sd], stem, sn, &lx->stem_of[sd][id]);
    }
  }
  return st;
}

/* Reads every dictionary of o whole into o->kept, unless it holds them. */
static xmt_status kept_fill(const struct xmt_prior_options *o,
                            struct xmt_error_store *err) {
  xmt_lexicon *lx = o->kept;
  struct xmt_buf key = {NULL, 0, 0};
  xmt_status st = kept_key(o, &key);
  if (st == XMT_OK && lx->ready && strcmp(lx->key, key.data) == 0) {
    xmt_buf_free(&key);
    return XMT_OK;
  }
  if (st == XMT_OK)
    st = xmt_kept_start(lx, key.data);
  xmt_buf_free(&key);
  struct xmt_vocab none[2];
  int none_ok = 0;
  if (st == XMT_OK && (st = xmt_vocab_init(&none[0])) == XMT_OK) {
    if ((st = xmt_vocab_init(&none[1])) != XMT_OK)
      xmt_vocab_free(&none[0]);
    none_ok = st == XMT_OK;
  }
  struct xmt_prior_options one = *o;
  one.threads = 1; /* one match keeps the pairs, in reading order */
  struct side side[2];
  struct xmt_lex_match m;
  int built = 0;
  if (st == XMT_OK) {
    st = sides_build(side, &m, &none[0], &none[1], &one);
    built = 1;
  }
  struct xmt_prior_stats ps;
  memset(&ps, 0, sizeof ps);
  if (st == XMT_OK) {
    m.record = lx;
    st = xmt_lexicon_load(&m, &one, &ps, err);
    m.record = NULL;
  }
  if (st == XMT_OK)
    st = kept_keys(&m, lx);
  if (st == XMT_OK)
    st = xmt_kept_index(lx);
  if (st == XMT_OK) {
    lx->dictionaries_loaded = ps.dictionaries_loaded;
    memcpy(lx->loaded, ps.loaded, sizeof lx->loaded);
  } else
    xmt_kept_clear(lx); /* read again next time, and the error told again */
  if (built) {
    match_free(&m);
    side_free(&side[0]);
    side_free(&side[1]);
  }
  if (none_ok) {
    xmt_vocab_free(&none[0]);
    xmt_vocab_free(&none[1]);
  }
  return st;
}

/* m->found[sd] = the document's words that kept word r of side sd
 * matches: lookup() without lowercasing and stemming again. */
static xmt_status kept_hits(struct xmt_lex_match *m, const xmt_lexicon *lx,
                            int sd, uint32_t r) {
  const struct side *s = &m->side[sd];
  struct found *f = &m->found[sd];
  f->ok = 0;
  f->n = 0;
  uint32_t fo = lx->form_of[sd][r], so = lx->stem_of[sd][r];
  if (fo == 0)
    return XMT_OK;
  size_t flen, slen;
  const char *form = xmt_vocab_word(&lx->forms[sd], fo, &flen);
  uint32_t fk = xmt_vocab_find(&s->forms, form, flen);
  xmt_status st = XMT_OK;
  if (fk != XMT_UNKNOWN_WORD)
    for (uint32_t id = s->form_head[fk]; id != 0 && st == XMT_OK;
         id = s->form_next[id])
      st = push_hit(f, id, 1.0f);
  if (st != XMT_OK || m->stemmer[sd] == NULL || so == 0)
    return st;
  const char *stem = xmt_vocab_word(&lx->stems[sd], so, &slen);
  uint32_t sk = xmt_vocab_find(&s->stems, stem, slen);
  if (sk == XMT_UNKNOWN_WORD || !stem_may_match(s, form, flen))
    return XMT_OK;
  uint32_t own = fk == XMT_UNKNOWN_WORD ? 0 : fk;
  for (uint32_t id = s->stem_head[sk]; id != 0 && st == XMT_OK;
       id = s->stem_next[id])
    if (s->form_of[id] != own)
      st = push_hit(f, id, (float)m->o->stem_factor);
  return st;
}

/* Adds source word r to the candidates, once. */
static xmt_status kept_candidate(uint32_t r, unsigned char *seen,
                                 uint32_t **cand, size_t *n, size_t *cap) {
  if (seen[r])
    return XMT_OK;
  seen[r] = 1;
  uint32_t *c = xmt_grow_array(*cand, cap, *n + 1, sizeof *c);
  if (c == NULL)
    return XMT_ERR_NOMEM;
  *cand = c;
  c[(*n)++] = r;
  return XMT_OK;
}

static int u32_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The document's dictionary links from the kept pairs: those of the kept
 * source words that share a form or a stem with the document's. */
static xmt_status kept_links(struct xmt_lex_match *m, const xmt_lexicon *lx) {
  const struct side *s = &m->side[XMT_SRC];
  unsigned char *seen = calloc(lx->words[XMT_SRC].count, 1);
  uint32_t *cand = NULL;
  size_t n = 0, cap = 0;
  xmt_status st = seen != NULL ? XMT_OK : XMT_ERR_NOMEM;
  /* by form, then by stem: the kept words with a key of the document's */
  const struct xmt_vocab *doc_keys[2] = {&s->forms, &s->stems};
  const struct xmt_vocab *kept_keys[2] = {&lx->forms[XMT_SRC],
                                          &lx->stems[XMT_SRC]};
  const uint32_t *head[2] = {lx->form_words, lx->stem_words};
  const uint32_t *next[2] = {lx->next_form_word, lx->next_stem_word};
  int ways = m->stemmer[XMT_SRC] != NULL ? 2 : 1;
  for (int by = 0; by < ways; by++)
    for (uint32_t k = 1; k < doc_keys[by]->count && st == XMT_OK; k++) {
      size_t len;
      const char *w = xmt_vocab_word(doc_keys[by], k, &len);
      uint32_t lk = xmt_vocab_find(kept_keys[by], w, len);
      for (uint32_t r = lk != XMT_UNKNOWN_WORD ? head[by][lk] : 0;
           r != 0 && st == XMT_OK; r = next[by][r])
        st = kept_candidate(r, seen, &cand, &n, &cap);
    }
  if (n > 1)
    qsort(cand, n, sizeof *cand, u32_cmp);
  for (size_t i = 0; i < n && st == XMT_OK; i++) {
    st = kept_hits(m, lx, XMT_SRC, cand[i]);
    for (uint32_t k = lx->first_pair[cand[i]];
         k != 0 && st == XMT_OK && m->found[XMT_SRC].n > 0;
         k = lx->next_pair[k]) {
      const struct xmt_kept_pair *p = &lx->pairs[k - 1];
      st = kept_hits(m, lx, XMT_TGT, p->tgt);
      if (st == XMT_OK && m->found[XMT_TGT].n > 0)
        st = link_found(m, p->scale);
    }
  }
  free(seen);
  free(cand);
  return st;
}

/* Dictionary links through o->kept, read first when it is not ready. */
static xmt_status kept_load(struct xmt_lex_match *m,
                            const struct xmt_prior_options *o,
                            struct xmt_prior_stats *stats,
                            struct xmt_error_store *err) {
  xmt_status st = kept_fill(o, err);
  if (st != XMT_OK)
    return st;
  if (stats != NULL) {
    stats->dictionaries_loaded = o->kept->dictionaries_loaded;
    memcpy(stats->loaded, o->kept->loaded, sizeof stats->loaded);
  }
  st = kept_links(m, o->kept);
  return st == XMT_OK ? st
                      : xmt_error_set(err, st, NULL, 0, 0, NULL,
                                      "out of memory matching dictionaries");
}

xmt_status
xmt_priors_build(struct xmt_prior_table *out, const struct xmt_vocab *src,
                 const struct xmt_vocab *tgt, const struct xmt_prior_options *o,
                 struct xmt_prior_stats *stats, struct xmt_error_store *err) {
  xmt_prior_table_free(out);
  if (stats != NULL)
    memset(stats, 0, sizeof *stats);
  xmt_status st = check_options(src, tgt, o, err);
  if (st != XMT_OK)
    return st;
  struct side side[2];
  struct xmt_lex_match m;
  st = sides_build(side, &m, src, tgt, o);
  int reported = 0;
  if (st == XMT_OK) {
    st = o->kept != NULL && o->ndictionaries > 0
             ? kept_load(&m, o, stats, err)
             : xmt_lexicon_load(&m, o, stats, err);
    reported = st != XMT_OK;
  }
  if (st == XMT_OK && o->identical_weight > 0)
    st = add_identical(&m);
  if (st == XMT_OK && o->cognate_weight > 0)
    st = add_cognates(&m);
  if (st == XMT_OK)
    st = make_table(&m, out, stats);
  if (st == XMT_OK)
    out->phrase_max = (float)(o->dictionary_weight * o->phrase_factor);
  match_free(&m);
  side_free(&side[0]);
  side_free(&side[1]);
  if (st != XMT_OK && !reported)
    return xmt_error_set(err, st, NULL, 0, 0, NULL,
                         "out of memory building the aligner's priors");
  return st;
}
