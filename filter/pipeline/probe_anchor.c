/* probe_anchor.c -- engine probes, answered: a probe's translation found
 * in its segment's (exactly, then folded for case and diacritics, then by
 * stem or prefix), and the alignment edited so that min-max projection
 * puts the probed tag on the match. */
#include "config.h"

#include <libstemmer.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include "pipeline_private.h"

/* --- Probes: finding their translations -------------------------------------
 * Words are compared exactly, then case-folded without diacritics, then by
 * Snowball stem or a long shared prefix of the folded forms. */

/* Longest word keyed, in UTF-16 units; longer ones match exactly only. */
#define WORD_MAX 64

enum level { LEVEL_EXACT, LEVEL_FOLD, LEVEL_STEM };

/* The target language's stemmer, made when the language changes. */
static void stemmer_for(struct xmt_placer *p, const char *lang) {
  char code[sizeof p->stem_lang];
  size_t n = 0;
  for (; lang != NULL && lang[n] != '\0' && lang[n] != '-' && lang[n] != '_' &&
         n + 1 < sizeof code;
       n++)
    code[n] = (char)(lang[n] >= 'A' && lang[n] <= 'Z' ? lang[n] + 32 : lang[n]);
  code[n] = '\0';
  if (strcmp(code, p->stem_lang) == 0)
    return;
  if (p->stemmer != NULL)
    sb_stemmer_delete(p->stemmer);
  p->stemmer = n > 0 ? sb_stemmer_new(code, "UTF_8") : NULL;
  memcpy(p->stem_lang, code, n + 1);
}

/* Appends u without its combining marks (after canonical decomposition)
 * to keys as UTF-8; *at and *len locate it. */
static xmt_status strip_marks(const UChar *u, int32_t n, struct xmt_buf *keys,
                              size_t *at, size_t *len) {
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfd = unorm2_getNFDInstance(&e);
  UChar d[4 * WORD_MAX], o[4 * WORD_MAX];
  int32_t dn =
      U_SUCCESS(e) ? unorm2_normalize(nfd, u, n, d, 4 * WORD_MAX, &e) : 0;
  const UChar *src = U_SUCCESS(e) ? d : u;
  int32_t sn = U_SUCCESS(e) ? dn : n, on = 0;
  for (int32_t i = 0; i < sn;) {
    UChar32 c;
    U16_NEXT(src, i, sn, c);
    if (u_getCombiningClass(c) == 0 && u_charType(c) != U_NON_SPACING_MARK)
      U16_APPEND_UNSAFE(o, on, c);
  }
  char b[12 * WORD_MAX];
  int32_t bn = 0;
  e = U_ZERO_ERROR;
  u_strToUTF8(b, (int32_t)sizeof b, &bn, o, on, &e);
  *at = keys->len;
  *len = U_SUCCESS(e) ? (size_t)bn : 0;
  return xmt_buf_append(keys, b, *len);
}

/* The fold and stem keys of word w of s[0, n). */
static xmt_status word_keys(struct xmt_placer *p, struct xmt_probe_words *ws,
                            const char *s, size_t n, struct xmt_probe_word *w) {
  UChar u[WORD_MAX], low[WORD_MAX];
  int32_t un = 0, ln = 0;
  UErrorCode e = U_ZERO_ERROR;
  if (n < WORD_MAX)
    u_strFromUTF8(u, WORD_MAX, &un, s, (int32_t)n, &e);
  if (n < WORD_MAX && U_SUCCESS(e))
    ln = u_strFoldCase(low, WORD_MAX, u, un, U_FOLD_CASE_DEFAULT, &e);
  if (n >= WORD_MAX || U_FAILURE(e)) {
    w->fold = w->stem = ws->keys.len;
    w->fold_len = w->stem_len = n;
    return xmt_buf_append(&ws->keys, s, n);
  }
  xmt_status st = strip_marks(low, ln, &ws->keys, &w->fold, &w->fold_len);
  w->stem = w->fold;
  w->stem_len = w->fold_len;
  if (st != XMT_OK || p->stemmer == NULL || !w->word)
    return st;
  char lower[4 * WORD_MAX];
  int32_t lbytes = 0;
  u_strToUTF8(lower, (int32_t)sizeof lower, &lbytes, low, ln, &e);
  const sb_symbol *r =
      U_SUCCESS(e)
          ? sb_stemmer_stem(p->stemmer, (const sb_symbol *)lower, lbytes)
          : NULL;
  if (r == NULL)
    return XMT_OK;
  int32_t rn = 0;
  u_strFromUTF8(u, WORD_MAX, &rn, (const char *)r,
                sb_stemmer_length(p->stemmer), &e);
  return U_SUCCESS(e) ? strip_marks(u, rn, &ws->keys, &w->stem, &w->stem_len)
                      : XMT_OK;
}

/* The words of text with their keys into ws. */
static xmt_status words_of(struct xmt_placer *p, struct xmt_probe_words *ws,
                           const char *text, size_t len) {
  ws->n = 0;
  xmt_buf_reset(&ws->keys);
  xmt_status st = xmt_tokenize(p->stok, text, len, XMT_TOKENIZE_DEFAULT);
  size_t m = xmt_tokens_count(p->stok);
  const struct xmt_token *t = xmt_tokens_array(p->stok);
  if (st != XMT_OK)
    return st;
  struct xmt_probe_word *w = xmt_grow_array(ws->w, &ws->cap, m, sizeof *w);
  if (w == NULL)
    return XMT_ERR_NOMEM;
  ws->w = w;
  for (size_t i = 0; st == XMT_OK && i < m; i++) {
    struct xmt_probe_word *x = &w[ws->n++];
    x->start = t[i].start;
    x->end = t[i].end;
    x->word = xmt_has_word(text + x->start, x->end - x->start);
    st = word_keys(p, ws, text + x->start, x->end - x->start, x);
  }
  return st;
}

static int key_eq(const struct xmt_probe_words *a, size_t ao, size_t an,
                  const struct xmt_probe_words *b, size_t bo, size_t bn) {
  return an == bn &&
         (an == 0 || memcmp(a->keys.data + ao, b->keys.data + bo, an) == 0);
}

/* Forms sharing a beginning of 4 bytes and 60 % of the longer one
 * ("pequeño"/"pequeñas" when the stemmer does not join them). */
static int prefix_eq(const struct xmt_probe_words *a,
                     const struct xmt_probe_word *x,
                     const struct xmt_probe_words *b,
                     const struct xmt_probe_word *y) {
  const char *s = a->keys.data + x->fold, *t = b->keys.data + y->fold;
  size_t k = 0, n = x->fold_len > y->fold_len ? x->fold_len : y->fold_len;
  while (k < x->fold_len && k < y->fold_len && s[k] == t[k])
    k++;
  return k >= 4 && 10 * k >= 6 * n;
}

/* 1 when target word x (of tr) and probe word y (of ans) match at level. */
static int word_eq(const struct xmt_placer *p, const char *tr,
                   const struct xmt_probe_word *x, const char *ans,
                   const struct xmt_probe_word *y, enum level level) {
  if (level == LEVEL_EXACT)
    return x->end - x->start == y->end - y->start &&
           memcmp(tr + x->start, ans + y->start, x->end - x->start) == 0;
  if (key_eq(&p->tw, x->fold, x->fold_len, &p->pw, y->fold, y->fold_len))
    return 1;
  if (level == LEVEL_FOLD || !x->word || !y->word)
    return 0;
  return (y->stem_len > 0 &&
          key_eq(&p->tw, x->stem, x->stem_len, &p->pw, y->stem, y->stem_len)) ||
         prefix_eq(&p->tw, x, &p->pw, y);
}

/* Candidates: byte ranges of tr where the probe's words pw[a, b) occur,
 * inside [lo, hi), at the first level with any (at most max). */
static size_t occurrences(const struct xmt_placer *p, const char *tr,
                          const char *ans, size_t a, size_t b, size_t lo,
                          size_t hi, size_t (*cand)[2], size_t max) {
  const struct xmt_probe_word *tw = p->tw.w, *pw = p->pw.w;
  size_t m = b - a, n = 0;
  for (int level = LEVEL_EXACT; level <= LEVEL_STEM && n == 0; level++) {
    for (size_t i = 0; i + m <= p->tw.n && n < max; i++) {
      if (tw[i].start < lo || tw[i + m - 1].end > hi)
        continue;
      size_t j = 0;
      while (j < m &&
             word_eq(p, tr, &tw[i + j], ans, &pw[a + j], (enum level)level))
        j++;
      if (j == m) {
        cand[n][0] = tw[i].start;
        cand[n][1] = tw[i + m - 1].end;
        n++;
      }
    }
  }
  return n;
}

/* --- Probes: anchoring -----------------------------------------------------
 * The alignment is edited, not the projector: once the probed source
 * tokens a..b link only into the matched target tokens c..d, and nothing
 * else links there, min-max projection (and span scoring) puts the tag on
 * the match. Anchored matches nest or are disjoint, so later edits keep
 * earlier anchors where they are. */

/* Candidates kept per probe. */
#define MAX_CANDIDATES 16

/* The probes being anchored and what they are anchored in. */
struct probe_ctx {
  const struct xmt_probe *probes;
  size_t nprobes;
  const char *tr;
  size_t trlen;
  const xmt_tokens *ctok, *ttok;
};

struct xmt_anchor {
  size_t probe;
  size_t a, b;     /* the probed source tokens */
  size_t c, d;     /* target tokens of the match */
  size_t from, to; /* its bytes in the translation */
};

static xmt_status work_add(struct xmt_placer *p, size_t s, size_t t) {
  struct xmt_link *w =
      xmt_grow_one(&p->work, p->nwork, &p->work_cap, sizeof *w);
  if (w == NULL)
    return XMT_ERR_NOMEM;
  w->source = s;
  w->target = t;
  p->nwork++;
  return XMT_OK;
}

/* The links to edit: a copy of links, or without them each of the m
 * source tokens on its proportional share of the k target tokens. */
static xmt_status work_load(struct xmt_placer *p, const xmt_alignment *links,
                            size_t m, size_t k) {
  p->nwork = 0;
  xmt_status st = XMT_OK;
  if (links != NULL) {
    const struct xmt_link *l = xmt_alignment_links(links);
    for (size_t i = 0; st == XMT_OK && i < xmt_alignment_count(links); i++)
      if (l[i].source < m && l[i].target < k)
        st = work_add(p, l[i].source, l[i].target);
    return st;
  }
  for (size_t s = 0; st == XMT_OK && k > 0 && s < m; s++) {
    size_t lo = s * k / m, hi = ((s + 1) * k + m - 1) / m;
    for (size_t t = lo; st == XMT_OK && t < hi && t < k; t++)
      st = work_add(p, s, t);
  }
  return st;
}

/* Where the links put source tokens a..b: *lo..*hi (0 when unlinked). */
static int work_span(const struct xmt_placer *p, size_t a, size_t b, size_t *lo,
                     size_t *hi) {
  int any = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    if (l->source < a || l->source > b)
      continue;
    if (!any || l->target < *lo)
      *lo = l->target;
    if (!any || l->target > *hi)
      *hi = l->target;
    any = 1;
  }
  return any;
}

static size_t links_into(const struct xmt_placer *p, size_t a, size_t b,
                         size_t c, size_t d) {
  size_t n = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    n += l->source >= a && l->source <= b && l->target >= c && l->target <= d;
  }
  return n;
}

/* Links source tokens a..b to target tokens c..d: links between them
 * kept, their links elsewhere and other tokens' links into c..d dropped,
 * then each token left out linked to its proportional counterpart. */
static xmt_status work_anchor(struct xmt_placer *p, size_t a, size_t b,
                              size_t c, size_t d) {
  size_t w = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link l = p->work[i];
    if ((l.source >= a && l.source <= b) == (l.target >= c && l.target <= d))
      p->work[w++] = l;
  }
  p->nwork = w;
  size_t ns = b - a + 1, nt = d - c + 1;
  xmt_status st = XMT_OK;
  for (size_t t = c; st == XMT_OK && t <= d; t++) {
    size_t s = a + (t - c) * ns / nt;
    if (links_into(p, a, b, t, t) == 0)
      st = work_add(p, s, t);
  }
  for (size_t s = a; st == XMT_OK && s <= b; s++) {
    size_t t = c + (s - a) * nt / ns;
    if (links_into(p, s, s, c, d) == 0)
      st = work_add(p, s, t);
  }
  return st;
}

/* Tokens of tok overlapping bytes [from, to): *a..*b; 0 when none. */
static int tokens_over(const xmt_tokens *tok, size_t from, size_t to, size_t *a,
                       size_t *b) {
  const struct xmt_token *t = xmt_tokens_array(tok);
  size_t n = xmt_tokens_count(tok), i = 0;
  while (i < n && t[i].end <= from)
    i++;
  if (i == n || t[i].start >= to)
    return 0;
  *a = *b = i;
  while (*b + 1 < n && t[*b + 1].start < to)
    (*b)++;
  return 1;
}

/* The anchor of probe q, or NULL. */
static const struct xmt_anchor *anchor_of(const struct xmt_placer *p,
                                          size_t q) {
  for (size_t i = 0; i < p->nanchors; i++)
    if (p->anchors[i].probe == q)
      return &p->anchors[i];
  return NULL;
}

static int is_ancestor(const struct probe_ctx *x, size_t anc, size_t q) {
  for (size_t i = x->probes[q].parent; i != SIZE_MAX; i = x->probes[i].parent)
    if (i == anc)
      return 1;
  return 0;
}

/* 1 when target tokens c..d overlap a match that is not probe q's
 * ancestor's: anchors must nest. */
static int conflicts(const struct xmt_placer *p, const struct probe_ctx *x,
                     size_t q, size_t c, size_t d) {
  for (size_t i = 0; i < p->nanchors; i++) {
    const struct xmt_anchor *an = &p->anchors[i];
    if (c <= an->d && an->c <= d && !is_ancestor(x, an->probe, q))
      return 1;
  }
  return 0;
}

/* The innermost anchored ancestor's bytes of the translation. */
static void search_range(const struct xmt_placer *p, const struct probe_ctx *x,
                         size_t q, size_t *lo, size_t *hi) {
  *lo = 0;
  *hi = x->trlen;
  for (size_t i = x->probes[q].parent; i != SIZE_MAX; i = x->probes[i].parent) {
    const struct xmt_anchor *a = anchor_of(p, i);
    if (a != NULL) {
      *lo = a->from;
      *hi = a->to;
      return;
    }
  }
}

/* The candidate nearest where the links put source tokens a..b (more
 * links into it, then the leftmost, break ties); 0 when none is usable. */
static int choose(const struct xmt_placer *p, const struct probe_ctx *x,
                  size_t q, size_t a, size_t b, size_t (*cand)[2], size_t n,
                  struct xmt_anchor *best) {
  size_t m = xmt_tokens_count(x->ctok), k = xmt_tokens_count(x->ttok);
  size_t lo = a * k / (m ? m : 1), hi = (b + 1) * k / (m ? m : 1);
  hi = hi > lo ? hi - 1 : lo;
  work_span(p, a, b, &lo, &hi);
  size_t best_dist = SIZE_MAX, best_in = 0;
  for (size_t i = 0; i < n; i++) {
    size_t c, d;
    if (!tokens_over(x->ttok, cand[i][0], cand[i][1], &c, &d) ||
        conflicts(p, x, q, c, d))
      continue;
    size_t dist = (c > lo ? c - lo : lo - c) + (d > hi ? d - hi : hi - d);
    size_t in = links_into(p, a, b, c, d);
    if (dist < best_dist || (dist == best_dist && in > best_in)) {
      best_dist = dist;
      best_in = in;
      best->c = c;
      best->d = d;
      best->from = cand[i][0];
      best->to = cand[i][1];
    }
  }
  return best_dist != SIZE_MAX;
}

/* 1 when target token t is linked from a source token outside a..b and
 * from none inside. */
static int claimed_outside(const struct xmt_placer *p, size_t a, size_t b,
                           size_t t) {
  int out = 0;
  for (size_t i = 0; i < p->nwork; i++) {
    const struct xmt_link *l = &p->work[i];
    if (l->target != t)
      continue;
    if (l->source >= a && l->source <= b)
      return 0;
    out = 1;
  }
  return out;
}

/* A placeholder's words translated alone may gain words the sentence
 * gives to its neighbours ("symbol means" -> "El símbolo significa"):
 * the match loses edge words that the links give to words outside. */
static void trim_match(const struct xmt_placer *p, const struct probe_ctx *x,
                       size_t a, size_t b, struct xmt_anchor *m) {
  const struct xmt_token *t = xmt_tokens_array(x->ttok);
  while (m->c < m->d && claimed_outside(p, a, b, m->c))
    m->c++;
  while (m->d > m->c && claimed_outside(p, a, b, m->d))
    m->d--;
  m->from = m->from > t[m->c].start ? m->from : t[m->c].start;
  m->to = m->to < t[m->d].end ? m->to : t[m->d].end;
}

/* Finds probe q's translation in the translation for the words of probe
 * own (q itself, or the span of a context probe): 1 with *best set. */
static xmt_status find_probe(struct xmt_placer *p, const struct probe_ctx *x,
                             size_t q, size_t own, size_t *a, size_t *b,
                             struct xmt_anchor *best, int *found) {
  const struct xmt_probe *pr = &x->probes[q];
  *found = 0;
  if (pr->answer == NULL ||
      !tokens_over(x->ctok, x->probes[own].start, x->probes[own].end, a, b))
    return XMT_OK;
  xmt_status st = words_of(p, &p->pw, pr->answer, pr->answer_len);
  size_t wa = 0, wb = p->pw.n;
  while (wa < wb && !p->pw.w[wa].word)
    wa++;
  while (wb > wa && !p->pw.w[wb - 1].word)
    wb--;
  if (st != XMT_OK || wa == wb)
    return st;
  size_t cand[MAX_CANDIDATES][2], lo, hi;
  search_range(p, x, own, &lo, &hi);
  size_t n =
      occurrences(p, x->tr, pr->answer, wa, wb, lo, hi, cand, MAX_CANDIDATES);
  *found = choose(p, x, own, *a, *b, cand, n, best);
  best->probe = own;
  best->a = *a;
  best->b = *b;
  if (*found && pr->kind != XMT_PROBE_SPAN)
    trim_match(p, x, *a, *b, best);
  return XMT_OK;
}

/* Anchors the words of probe own where probe q is found; *done is 1
 * when it was. */
static xmt_status anchor_probe(struct xmt_placer *p, const struct probe_ctx *x,
                               size_t q, size_t own, int *done) {
  size_t a = 0, b = 0;
  struct xmt_anchor best;
  xmt_status st = find_probe(p, x, q, own, &a, &b, &best, done);
  if (st != XMT_OK || !*done)
    return st;
  struct xmt_anchor *v =
      xmt_grow_one(&p->anchors, p->nanchors, &p->anchors_cap, sizeof *v);
  if (v == NULL)
    return XMT_ERR_NOMEM;
  *v = best;
  p->nanchors++;
  st = work_anchor(p, a, b, best.c, best.d);
  /* A placeholder goes after the last token before it, or before the
   * first after it: that token must reach the end of the match. */
  if (st == XMT_OK && x->probes[q].kind == XMT_PROBE_BEFORE)
    st = work_add(p, b, best.d);
  else if (st == XMT_OK && x->probes[q].kind == XMT_PROBE_AFTER)
    st = work_add(p, a, best.c);
  return st;
}

/* 1 when the probed tokens s..s of anchor y lie in anchor x's (nested
 * inside it) and y is not x. */
static int inside_anchor(const struct probe_ctx *x, const struct xmt_anchor *in,
                         const struct xmt_anchor *y) {
  return y != in && is_ancestor(x, in->probe, y->probe);
}

/* The source token of anchor m that no anchor inside it holds, nearest
 * to its share of target token t; SIZE_MAX when there is none. */
static size_t own_token(const struct xmt_placer *p, const struct probe_ctx *x,
                        const struct xmt_anchor *m, size_t t) {
  size_t want = m->a + (t - m->c) * (m->b - m->a + 1) / (m->d - m->c + 1);
  size_t best = SIZE_MAX, best_dist = SIZE_MAX;
  for (size_t s = m->a; s <= m->b; s++) {
    size_t i = 0;
    for (; i < p->nanchors; i++) {
      const struct xmt_anchor *y = &p->anchors[i];
      if (inside_anchor(x, m, y) && s >= y->a && s <= y->b)
        break;
    }
    size_t dist = s > want ? s - want : want - s;
    if (i == p->nanchors && dist < best_dist) {
      best = s;
      best_dist = dist;
    }
  }
  return best;
}

/* Anchoring a pair inside another can take from the outer one the only
 * links to some of its target tokens: they get one from its own words. */
static xmt_status recover(struct xmt_placer *p, const struct probe_ctx *x) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < p->nanchors; i++) {
    const struct xmt_anchor m = p->anchors[i];
    for (size_t t = m.c; st == XMT_OK && t <= m.d; t++) {
      if (links_into(p, m.a, m.b, t, t) > 0)
        continue;
      size_t s = own_token(p, x, &m, t);
      if (s != SIZE_MAX)
        st = work_add(p, s, t);
    }
  }
  return st;
}

xmt_status xmt_probe_anchor(struct xmt_placer *p, const char *lang,
                            const struct xmt_probe *probes, size_t nprobes,
                            const xmt_tokens *ctok, const char *tr,
                            size_t trlen, const xmt_tokens *ttok,
                            const xmt_alignment *links, xmt_alignment *out,
                            size_t *anchored) {
  const struct probe_ctx x = {probes, nprobes, tr, trlen, ctok, ttok};
  p->nanchors = 0;
  stemmer_for(p, lang);
  xmt_status st =
      work_load(p, links, xmt_tokens_count(ctok), xmt_tokens_count(ttok));
  if (st == XMT_OK)
    st = words_of(p, &p->tw, tr, trlen);
  /* Pairs first, outer ones before those inside them; then the
   * placeholders, each by the first of its probes found. */
  for (size_t q = 0; st == XMT_OK && q < nprobes; q++) {
    int done = 0;
    /* a span's context probe follows it, tried when it was not found */
    if (probes[q].kind == XMT_PROBE_SPAN)
      st = anchor_probe(p, &x, q, q, &done);
    else if (probes[q].kind == XMT_PROBE_CONTEXT && anchor_of(p, q - 1) == NULL)
      st = anchor_probe(p, &x, q, q - 1, &done);
    *anchored += (size_t)done;
  }
  size_t placed = SIZE_MAX;
  for (size_t q = 0; st == XMT_OK && q < nprobes; q++) {
    int done = 0;
    if (probes[q].kind == XMT_PROBE_SPAN ||
        probes[q].kind == XMT_PROBE_CONTEXT || probes[q].tag == placed)
      continue;
    st = anchor_probe(p, &x, q, q, &done);
    if (done)
      placed = probes[q].tag;
    *anchored += (size_t)done;
  }
  if (st == XMT_OK)
    st = recover(p, &x);
  xmt_alignment_clear(out);
  for (size_t i = 0; st == XMT_OK && i < p->nwork; i++)
    st = xmt_alignment_add(out, p->work[i].source, p->work[i].target);
  return st;
}

/* Edits the links of a segment's answer (*links, tokens *ctok and *ttok,
 * NULL for the default tokenization) so that its nprobes probes (from
 * first in the window's) found in the answer anchor its tags; *links
 * becomes the placer's copy. */
xmt_status xmt_probes_anchor(struct run *run, struct window *w, size_t first,
                             size_t nprobes, const struct result *res,
                             const xmt_tokens **ctok, const xmt_tokens **ttok,
                             const xmt_alignment **links) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  size_t plain_len, ans_len;
  const char *plain = xmt_result_plain(w, res, &plain_len);
  const char *ans = xmt_answer_of(w, res, &ans_len);
  xmt_status st = XMT_OK;
  if (*ctok == NULL) {
    st = xmt_tools_tokenize(pt, plain, plain_len, ans, ans_len);
    *ctok = xmt_tools_stok(pt);
    *ttok = xmt_tools_ttok(pt);
  }
  struct xmt_probe *probes = xmt_window_probes(w, first);
  for (size_t k = 0; k < nprobes; k++) {
    size_t r = xmt_window_probe_result(w, first + k);
    probes[k].answer = NULL;
    if (r == NO_RESULT) {
      probes[k].answer = plain + probes[k].start;
      probes[k].answer_len = probes[k].end - probes[k].start;
    } else if (xmt_mt_response_answered(xmt_window_response(w, r))) {
      probes[k].answer =
          xmt_answer_of(w, xmt_window_result(w, r), &probes[k].answer_len);
    }
  }
  size_t anchored = 0;
  struct xmt_placer *p = xmt_tools_placer(pt);
  if (st == XMT_OK)
    st = xmt_probe_anchor(p, xmt_run_target_language(run), probes, nprobes,
                          *ctok, ans, ans_len, *ttok, *links, p->anchored,
                          &anchored);
  xmt_window_stats(w)->probe_anchored_tags += anchored;
  if (anchored > 0) /* else the alignment decides, as without probes */
    *links = p->anchored;
  return st;
}
