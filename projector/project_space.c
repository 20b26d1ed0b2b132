/* project_space.c -- the projector's rules for where a code stands among
 * spaces and punctuation, and for sibling pairs that share target words
 * (see project.c).
 *
 * An isolated code keeps the spacing it had in the source: between two
 * spaces it stands as a word between words, glued to a word it stays
 * glued to the word it lands next to. Short messages ("You have {count}
 * items") give the aligner almost nothing to learn from, so two things the
 * engine says weigh more than links there: the final punctuation a code
 * stood before, and the run of spaces a removed code left behind, which
 * engines such as Apertium copy into the translation where the code was.
 *
 * Two pairs side by side in the source ("<b>red</b><i>blue</i>") stay side
 * by side in the target, in source order, each on its own words: where
 * the second would land inside the first, the first's target words are
 * shared out between them, and a single word is cut between them. */
#include "config.h"

#include "project_private.h"

/* Trailing punctuation tokens looked at, and the most tokens a segment
 * may have for its spacing to be searched for an echo: the rules are for
 * short messages, and keep long segments of many codes linear. */
#define PUNCT_MAX 8
#define ECHO_TOKENS_MAX 64

static int space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 1 when a token has a letter or a digit (any non-ASCII byte counts). */
static int wordy(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z'))
      return 1;
  }
  return 0;
}

static int same_text(const char *a, size_t alen, const char *b, size_t blen) {
  return alen == blen && memcmp(a, b, alen) == 0;
}

/* The point right before the target's final punctuation when a code at
 * gap g stood before the source's ("shop, {userName}!"): source tokens
 * g..m-1 are punctuation, and the target ends with the same ones. */
static size_t final_punct(const struct proj *p, size_t g) {
  size_t n = p->m - g;
  if (n == 0 || n > PUNCT_MAX || n > p->k)
    return NONE;
  for (size_t i = 0; i < n; i++) {
    const struct xmt_token *a = &p->st[g + i], *b = &p->tt[p->k - n + i];
    if (wordy(p->src + a->start, a->end - a->start) ||
        !same_text(p->src + a->start, a->end - a->start, p->tgt + b->start,
                   b->end - b->start))
      return NONE;
  }
  return 2 * (p->k - n) + 1;
}

/* The number of gaps between tokens of text (n tokens) whose text is
 * s[0..len); *at is the token after the last one found. */
static size_t count_gaps(const char *text, const struct xmt_token *t, size_t n,
                         const char *s, size_t len, size_t *at) {
  size_t found = 0;
  for (size_t b = 1; b < n; b++)
    if (same_text(text + t[b - 1].end, t[b].start - t[b - 1].end, s, len)) {
      found++;
      *at = b;
    }
  return found;
}

/* The target gap that echoes a code's gap: a run of two or more spaces
 * around the code (its own place left empty), found once in the source
 * and once in the translation. Returns the token after it, or NONE. */
static size_t echoed_gap(const struct proj *p, size_t g) {
  if (g == 0 || g >= p->m || p->m > ECHO_TOKENS_MAX || p->k > ECHO_TOKENS_MAX)
    return NONE;
  size_t sgs = p->st[g - 1].end, sge = p->st[g].start, at = NONE;
  if (sge - sgs < 2)
    return NONE;
  for (size_t i = sgs; i < sge; i++)
    if (!space(p->src[i]))
      return NONE;
  const char *s = p->src + sgs;
  if (count_gaps(p->src, p->st, p->m, s, sge - sgs, &at) != 1 ||
      count_gaps(p->tgt, p->tt, p->k, s, sge - sgs, &at) != 1)
    return NONE;
  return at;
}

/* 1 when t stands alone at one place: a code that is not a pair, or an
 * end of a pair around nothing ("<x id="9"></x>", as DeepL's XML has
 * them). */
static int isolated(const struct proj *p, const struct item *t) {
  if (t->kind != XMT_TAG_OPEN && t->kind != XMT_TAG_CLOSE)
    return 1;
  const struct item *o = t->kind == XMT_TAG_OPEN ? t : &p->it[t->partner];
  return o->a > o->b && o->off == p->it[o->partner].off;
}

size_t xmt_space_anchor(const struct proj *p, const struct item *t, size_t pb) {
  size_t g = t->tok;
  if (t->inside || !isolated(p, t) || g == 0 || g >= p->m)
    return NONE;
  /* Glued to the word before only: that word decides. */
  if (t->off == p->st[g - 1].end && t->off < p->st[g].start)
    return NONE;
  size_t q = echoed_gap(p, g);
  if (q != NONE)
    return 2 * q + 1;
  return pb + 1 >= p->m ? final_punct(p, g) : NONE;
}

size_t xmt_space_offset(const struct proj *p, const struct item *t, size_t pt) {
  size_t base = xmt_proj_byte_of(p, pt), B = pt >> 1, g = t->tok;
  if (t->inside || !isolated(p, t))
    return base;
  size_t sgs = g > 0 ? p->st[g - 1].end : 0;
  size_t sge = g < p->m ? p->st[g].start : p->slen;
  size_t tgs = B > 0 ? p->tt[B - 1].end : 0;
  size_t tge = B < p->k ? p->tt[B].start : p->tlen;
  int before = t->off > sgs && space(p->src[t->off - 1]);
  int after = t->off < sge && space(p->src[t->off]);
  for (size_t i = tgs; i < tge; i++)
    if (!space(p->tgt[i]))
      return base;
  if (before && after) {
    /* A word between words: as many spaces before it as in the source,
     * one at least left after it. */
    size_t lead = t->off - sgs;
    return tge - tgs < 2 ? base
                         : tgs + (lead < tge - tgs ? lead : tge - tgs - 1);
  }
  if (before)
    return tge; /* glued to the word after it */
  if (after)
    return tgs; /* glued to the word before it */
  return base;
}

/* --- Sibling pairs ----------------------------------------------------- */

/* The pair right before OPEN i among its source siblings, with nothing
 * but spaces between its CLOSE and i, or NONE. */
static size_t left_sibling(const struct proj *p, size_t i) {
  if (i == 0 || p->it[i - 1].kind != XMT_TAG_CLOSE)
    return NONE;
  const struct item *close = &p->it[i - 1];
  size_t s = close->partner;
  if (p->it[s].sparent != p->it[i].sparent || !p->it[s].span)
    return NONE;
  for (size_t o = close->off; o < p->it[i].off; o++)
    if (!space(p->src[o]))
      return NONE;
  return s;
}

/* Adds d to w[t - lo] for the links of source tokens a..b into lo..hi. */
static void weigh(struct proj *p, size_t a, size_t b, size_t lo, size_t hi,
                  long long d) {
  for (size_t s = a; s <= b && s < p->m; s++) {
    const size_t *v = p->targets + p->stok[s].first;
    for (size_t l = 0; l < p->stok[s].n; l++)
      if (v[l] >= lo && v[l] <= hi)
        p->w[v[l] - lo] += d;
  }
}

/* The links of source tokens a..b into target tokens lo..hi. */
static size_t links_into(const struct proj *p, size_t a, size_t b, size_t lo,
                         size_t hi) {
  size_t n = 0;
  for (size_t s = a; s <= b && s < p->m && lo <= hi; s++) {
    const size_t *v = p->targets + p->stok[s].first;
    for (size_t l = 0; l < p->stok[s].n; l++)
      n += v[l] >= lo && v[l] <= hi;
  }
  return n;
}

/* c's words hold all of s's and more: c keeps the side of s with more of
 * its links (after s on a tie, as in the source). */
static void outside(struct proj *p, const struct item *s, struct item *c) {
  size_t left = c->lo < s->lo ? links_into(p, c->a, c->b, c->lo, s->lo - 1) : 0;
  size_t right =
      s->hi < c->hi ? links_into(p, c->a, c->b, s->hi + 1, c->hi) : 0;
  if (s->hi < c->hi && (c->lo == s->lo || right >= left))
    c->lo = s->hi + 1;
  else
    c->hi = s->lo - 1;
  c->whole = 0;
}

void xmt_space_siblings(struct proj *p, size_t i) {
  struct item *c = &p->it[i];
  c->shares = NONE;
  size_t si = left_sibling(p, i);
  if (si == NONE)
    return;
  struct item *s = &p->it[si];
  /* Cut inside one source word, the two cannot trade places: c starts
   * where s does at the earliest (a run of such siblings, each over the
   * whole parent, goes on sharing out what is left). */
  if (c->a <= s->b && c->lo < s->lo && s->lo <= c->hi)
    c->lo = s->lo;
  if (c->lo <= s->lo && s->hi <= c->hi && (c->lo < s->lo || s->hi < c->hi)) {
    outside(p, s, c);
    return;
  }
  if (c->lo < s->lo || c->hi > s->hi)
    return; /* they cross: the tree keeps them apart */
  if (s->lo == s->hi) {
    c->shares = si; /* one word: cut between them (xmt_space_bytes) */
    return;
  }
  /* Cut s's words at j: s keeps lo..j-1, c takes j..; the cut keeps the
   * most links of each on its side, ties nearest to the cut of the source
   * text between them. */
  size_t lo = s->lo, hi = s->hi;
  for (size_t t = lo; t <= hi; t++)
    p->w[t - lo] = 0;
  weigh(p, s->a, s->b, lo, hi, 1);
  if (c->a <= c->b)
    weigh(p, c->a, c->b, lo, hi, -1);
  size_t ls = p->it[i - 1].off - s->off, lc = p->it[c->partner].off - c->off;
  size_t want =
      lo + (ls + lc > 0 ? ((hi - lo + 1) * ls + (ls + lc) / 2) / (ls + lc) : 1);
  long long sum = 0, best = 0;
  size_t cut = NONE;
  for (size_t j = lo + 1; j <= hi; j++) {
    sum += p->w[j - 1 - lo];
    size_t dj = j > want ? j - want : want - j;
    size_t dc = cut == NONE ? 0 : cut > want ? cut - want : want - cut;
    if (cut == NONE || sum > best || (sum == best && dj < dc)) {
      best = sum;
      cut = j;
    }
  }
  s->hi = cut - 1;
  c->lo = cut;
  c->hi = c->hi > cut ? c->hi : cut;
  s->whole = c->whole = 0; /* neither ends at its parent's ends now */
}

/* Where one target word is cut between sibling s and c: at the share of
 * the word that s's part of the source text had, on a character. */
static size_t cut_word(const struct proj *p, const struct item *s,
                       const struct item *c) {
  const struct xmt_token *w = &p->tt[c->lo];
  size_t from = p->st[s->a].start, to = p->st[c->b < p->m ? c->b : s->b].end;
  size_t o = c->off < from ? from : c->off > to ? to : c->off;
  size_t n = w->end - w->start;
  size_t at =
      w->start +
      (to > from ? (n * (o - from) + (to - from) / 2) / (to - from) : n / 2);
  /* the word's end is a character's boundary, and may be the text's */
  if (at < w->end)
    at = xmt_utf8_floor(p->tgt, w->start, at);
  if (at == w->start && n > 0) /* leave neither empty when it can */
    at = xmt_utf8_next(p->tgt, w->end, at);
  if (at == w->end && n > 0) {
    size_t back = xmt_utf8_floor(p->tgt, w->start, at - 1);
    if (back > w->start)
      at = back;
  }
  return at;
}

void xmt_space_bytes(struct proj *p) {
  for (size_t i = 0; i < p->n; i++) {
    struct item *c = &p->it[i];
    if (c->kind != XMT_TAG_OPEN || c->shares == NONE)
      continue;
    struct item *s = &p->it[c->shares];
    if (s->tparent != c->tparent || c->sb >= s->eb || c->lo >= p->k)
      continue;
    size_t at = cut_word(p, s, c);
    at = at < s->sb ? s->sb : at > c->eb ? c->eb : at;
    s->eb = at;
    c->sb = at;
  }
}
