/* priors.c -- the aligner's prior links: vocabulary words matched against
 * dictionary words (lowercased, or through Snowball stems), identical words
 * and cognates, merged into a sorted struct xmt_prior_table.
 *
 * This file holds the options, the languages, the dictionary lookups and
 * the table's building (with the dictionaries kept between builds); the
 * words' forms and stems are in priors_stems.c, identical words and
 * cognates in priors_strings.c, the refining of alignments in
 * priors_refine.c. The cuts follow the jobs: keys of the vocabulary,
 * string likeness and post-alignment repair change apart. */
#include "config.h"

#include <libstemmer.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uloc.h>

#include "priors_build.h"

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

const char *xmt_priors_snowball(const char *lang) {
  struct xmt_lang_codes c;
  if (!xmt_lang_codes_of(lang, &c))
    return NULL;
  const char *algo = snowball_name(c.iso1);
  /* a libstemmer without the algorithm: no stems for the language */
  struct sb_stemmer *probe =
      algo != NULL ? sb_stemmer_new(algo, "UTF_8") : NULL;
  if (probe == NULL)
    return NULL;
  sb_stemmer_delete(probe);
  return algo;
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
xmt_status xmt_priors_link_chains(struct xmt_lex_match *m, uint32_t a,
                                  uint32_t b, double w, uint32_t kind) {
  const struct side *s = &m->side[XMT_SRC], *t = &m->side[XMT_TGT];
  for (uint32_t i = s->form_head[a]; i != 0; i = s->form_next[i])
    for (uint32_t j = t->form_head[b]; j != 0; j = t->form_next[j]) {
      xmt_status st = push_link(m, i, j, w, kind);
      if (st != XMT_OK)
        return st;
    }
  return XMT_OK;
}

xmt_status xmt_priors_link_null(struct xmt_lex_match *m, int sd, uint32_t a,
                                double w) {
  const struct side *s = &m->side[sd];
  for (uint32_t i = s->form_head[a]; i != 0; i = s->form_next[i]) {
    xmt_status st = sd == XMT_SRC
                        ? push_link(m, i, XMT_NULL_WORD, w, KIND_NULL)
                        : push_link(m, XMT_NULL_WORD, i, w, KIND_NULL);
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
  if (!xmt_priors_stem_may_match(s, m->text.out.data, m->text.out.len))
    return XMT_OK;
  xmt_status st = xmt_priors_stem_of(m->stemmer[sd], &m->text, &stem, &n);
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
  xmt_status st = xmt_priors_text_lower(&m->text, w, len);
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
  xmt_priors_text_free(&m->text);
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
  else if (o->ndictionaries > 0 && o->read == NULL)
    bad = "dictionaries without their reader";
  if (bad == NULL)
    return XMT_OK;
  return xmt_error_set(err, XMT_ERR_USAGE, "priors: %s", bad);
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
    st = xmt_priors_side_build(&side[sd], m->stemmer[sd], &m->text);
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
      st = xmt_priors_text_lower(&m->text, w, len);
      if (st != XMT_OK || m->text.out.len == 0)
        continue;
      st = xmt_vocab_intern(&lx->forms[sd], m->text.out.data, m->text.out.len,
                            &lx->form_of[sd][id]);
      if (st == XMT_OK && m->stemmer[sd] != NULL)
        st = xmt_priors_stem_of(m->stemmer[sd], &m->text, &stem, &sn);
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
    st = one.read(&m, &one, &ps, err);
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
    xmt_priors_side_free(&side[0]);
    xmt_priors_side_free(&side[1]);
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
  if (sk == XMT_UNKNOWN_WORD || !xmt_priors_stem_may_match(s, form, flen))
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
  return st == XMT_OK
             ? st
             : xmt_error_set(err, st, "out of memory matching dictionaries");
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
    if (o->kept != NULL && o->ndictionaries > 0)
      st = kept_load(&m, o, stats, err);
    else if (o->ndictionaries > 0)
      st = o->read(&m, o, stats, err);
    reported = st != XMT_OK;
  }
  if (st == XMT_OK && o->identical_weight > 0)
    st = xmt_priors_add_identical(&m);
  if (st == XMT_OK && o->identical_weight > 0)
    st = xmt_priors_add_embedded(&m);
  if (st == XMT_OK)
    st = xmt_priors_add_unmatched(&m);
  if (st == XMT_OK && o->cognate_weight > 0)
    st = xmt_priors_add_cognates(&m);
  if (st == XMT_OK)
    st = make_table(&m, out, stats);
  if (st == XMT_OK)
    out->phrase_max = (float)(o->dictionary_weight * o->phrase_factor);
  match_free(&m);
  xmt_priors_side_free(&side[0]);
  xmt_priors_side_free(&side[1]);
  if (st != XMT_OK && !reported)
    return xmt_error_set(err, st,
                         "out of memory building the aligner's priors");
  return st;
}
