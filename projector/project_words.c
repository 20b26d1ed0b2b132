/* project_words.c -- the projector's rules for the words at a span's
 * edges (see project.c), which the links alone get wrong where a
 * translation keeps or joins words:
 *
 * A name, an option or a file name ("-a", ".deb") that comes once in the
 * source and once, the same, in the translation is where its pair goes:
 * an aligner links such rare strings worst. A word joined with hyphens
 * or underscores ("nom-du-paquet" for "package-name") is taken whole,
 * unless a part of it translates a word outside the pair
 * ("terminfo-Datenbank"); a colon or comma after the words stays out
 * unless the source pair ends with one. On Debian's translated manual
 * pages (doc/benchmarks.md) each rule gains beyond its paired interval;
 * the default's rows of the dev sets and the real-MT pages lose none.
 * A source pair joined to its word by a mark, as where the tokens are
 * cut at tags ("unique@<g>full-domain-name</g>", xmt_tokens_cut_at_tags),
 * takes the target word whole short of that mark ("unique@nom-domaine-
 * complet": the hyphens' words, not "unique"). Chinese and Japanese,
 * written without spaces, have runs of ideographs that ICU cuts into
 * words and translators tag whole ("[<g>选项列表</g>]" for
 * "[<g>OPTION</g>]"): a span's edge inside such a run goes to the run's
 * edge, unless a word it would take translates one outside the pair. */
#include "config.h"

#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include "project_private.h"

/* The rules look at every source token for each pair: past this many
 * tokens a side (no sentence has them) they are left out, so that a
 * segment of thousands of codes stays linear in its codes. */
#define WORDS_MAX_TOKENS 512
/* The longest name the verbatim rule looks for, in bytes. */
#define VERBATIM_MAX_BYTES 64

/* Whether the character at s[at] (its token ends at end) is a letter or
 * a digit: CJK punctuation ("、") is not. */
static int word_char(const char *s, size_t at, size_t end) {
  uint32_t cp = 0;
  if (xmt_utf8_decode((const unsigned char *)s + at, end - at, &cp) == 0)
    return 0;
  return u_isalnum((UChar32)cp) != 0;
}

/* The same for the character that ends at byte end. */
static int word_char_before(const char *s, size_t start, size_t end) {
  size_t at = end;
  while (at > start && ((unsigned char)s[at - 1] & 0xC0) == 0x80)
    at--;
  return at > start && word_char(s, at - 1, end);
}

/* Whether token t of toks (n of them, over text s) is a joiner inside a
 * word: a hyphen, underscore, slash, dot or at sign, glued to a token with
 * a letter or digit on either side ("nom-du-paquet", "netdb.h"). */
static int joiner_inside(const char *s, const struct xmt_token *toks, size_t n,
                         size_t t) {
  if (t == 0 || t + 1 >= n || toks[t].end - toks[t].start != 1)
    return 0;
  char c = s[toks[t].start];
  if (c != '-' && c != '_' && c != '/' && c != '.' && c != '@')
    return 0;
  return toks[t - 1].end == toks[t].start && toks[t].end == toks[t + 1].start &&
         word_char_before(s, toks[t - 1].start, toks[t - 1].end) &&
         word_char(s, toks[t + 1].start, toks[t + 1].end);
}

/* Whether tokens t and t + 1 are parts of one word joined as above. */
static int one_word(const char *s, const struct xmt_token *toks, size_t n,
                    size_t t) {
  return joiner_inside(s, toks, n, t) || joiner_inside(s, toks, n, t + 1);
}

/* Whether target token t is a joiner inside a word that a span may
 * cross: not one of the joiners lj, rj beside the source pair. */
static int crossable(const char *s, const struct xmt_token *toks, size_t n,
                     size_t t, char lj, char rj) {
  if (!joiner_inside(s, toks, n, t))
    return 0;
  char c = s[toks[t].start];
  return c != lj && c != rj;
}

/* Whether a token has a letter or a digit. */
static int has_word_char(const char *s, const struct xmt_token *tok) {
  for (size_t i = tok->start; i < tok->end; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80 && word_char(s, i, tok->end))
      return 1;
  return 0;
}

/* Whether the character at s[at] (its token ends at end) is an ideograph
 * of Chinese or Japanese. */
static int han_at(const char *s, size_t at, size_t end) {
  uint32_t cp = 0;
  if (xmt_utf8_decode((const unsigned char *)s + at, end - at, &cp) == 0)
    return 0;
  UErrorCode e = U_ZERO_ERROR;
  return uscript_getScript((UChar32)cp, &e) == USCRIPT_HAN && U_SUCCESS(e);
}

/* Whether tokens t and t + 1 of toks touch at two ideographs: parts of
 * one run that ICU cut into words ("选项列表": 选项 列表). */
static int han_glued(const char *s, const struct xmt_token *toks, size_t t) {
  if (toks[t].end != toks[t + 1].start || toks[t].end == toks[t].start)
    return 0;
  size_t at = toks[t].end;
  while (at > toks[t].start && ((unsigned char)s[at - 1] & 0xC0) == 0x80)
    at--;
  return at > toks[t].start && han_at(s, at - 1, toks[t].end) &&
         han_at(s, toks[t + 1].start, toks[t + 1].end);
}

/* Whether target token t may join the span of a pair over source tokens
 * a..b: not when linked to a source token outside them; when linked to
 * none, only if free (the source word beside the pair on that side is
 * aligned, or none is there: "BIP-Wachstum" for "GDP growth", GDP left
 * unaligned, is the translation of both). */
static int may_join(const struct proj *p, size_t a, size_t b, size_t t,
                    int free) {
  int inside = 0;
  for (size_t s = 0; s < p->m; s++)
    if (p->stok[s].n && p->stok[s].amin <= t && p->stok[s].amax >= t &&
        xmt_proj_linked(p, s, t)) {
      if (s < a || s > b)
        return 0;
      inside = 1;
    }
  return inside || free;
}

/* Whether the source token beside a pair, s (NONE: none), leaves an
 * unaligned target word free to join it: no word, or an aligned one. */
static int beside_free(const struct proj *p, size_t s) {
  return s == NONE || p->stok[s].n > 0 || !has_word_char(p->src, &p->st[s]);
}

static int may_join(const struct proj *p, size_t a, size_t b, size_t t,
                    int free);

/* The span l..h grown to the whole runs of ideographs its edges cut,
 * within plo..phi, when no token it takes translates a word outside the
 * source pair a..b ("<g>OPTION</g>" -> "<g>选项列表</g>", not "<g>文件
 * </g>的名称" when 名称 translates "name"). */
static void han_runs(const struct proj *p, size_t a, size_t b, size_t plo,
                     size_t phi, size_t *lo, size_t *hi) {
  size_t l = *lo, h = *hi;
  while (l > plo && han_glued(p->tgt, p->tt, l - 1))
    l--;
  while (h < phi && han_glued(p->tgt, p->tt, h))
    h++;
  for (size_t t = l; t < *lo; t++)
    if (!may_join(p, a, b, t, 1))
      l = *lo;
  for (size_t t = *hi + 1; t <= h; t++)
    if (!may_join(p, a, b, t, 1))
      h = *hi;
  *lo = l;
  *hi = h;
}

/* A span's edges, once the links have set them: a word joined with
 * hyphens or underscores ("nom-du-paquet" for "package-name", whose parts
 * the translation reorders) is taken whole, unless the source pair ends
 * inside such a word too, or a part is the translation of a word outside
 * the pair ("terminfo-Datenbank" for "terminfo database"); punctuation at
 * its end that the source pair does not end with (a colon or comma after
 * the word) is left out. */
void xmt_proj_word_edges(const struct proj *p, size_t a, size_t b, size_t plo,
                         size_t phi, size_t *lo, size_t *hi) {
  if (p->m > WORDS_MAX_TOKENS || p->k > WORDS_MAX_TOKENS)
    return;
  size_t l = *lo, h = *hi;
  const char *t = p->tgt;
  size_t k = p->k;
  const char *src = p->src;
  const struct xmt_token *st = p->st;
  /* the source pair's edges are a word's: neither is glued to a letter
   * or digit ("CO<g>2</g>") nor ends inside a joined word; a joiner
   * beside it ("directory/<g>package</g>_version") is one the target's
   * span does not cross */
  int left =
      a == 0 || (!joiner_inside(src, st, p->m, a) &&
                 (st[a - 1].end < st[a].start ||
                  !word_char_before(src, st[a - 1].start, st[a - 1].end)));
  int right =
      b + 1 >= p->m || (!joiner_inside(src, st, p->m, b) &&
                        (st[b].end < st[b + 1].start ||
                         !word_char(src, st[b + 1].start, st[b + 1].end)));
  char lj =
      a > 0 && joiner_inside(src, st, p->m, a - 1) ? src[st[a - 1].start] : 0;
  char rj = b + 1 < p->m && joiner_inside(src, st, p->m, b + 1)
                ? src[st[b + 1].start]
                : 0;
  if (left && right) {
    int lfree = beside_free(p, a > 0 ? a - 1 : NONE);
    int rfree = beside_free(p, b + 1 < p->m ? b + 1 : NONE);
    if (l > plo && crossable(t, p->tt, k, l, lj, rj) &&
        may_join(p, a, b, l - 1, lfree))
      l--;
    while (l >= plo + 2 && crossable(t, p->tt, k, l - 1, lj, rj) &&
           may_join(p, a, b, l - 2, lfree))
      l -= 2;
    if (h < phi && crossable(t, p->tt, k, h, lj, rj) &&
        may_join(p, a, b, h + 1, rfree))
      h++;
    while (h + 2 <= phi && crossable(t, p->tt, k, h + 1, lj, rj) &&
           may_join(p, a, b, h + 2, rfree))
      h += 2;
    han_runs(p, a, b, plo, phi, &l, &h);
  }
  while (l < h && !has_word_char(t, &p->tt[h]) &&
         has_word_char(p->src, &p->st[b]) && !one_word(t, p->tt, k, h - 1))
    h--;
  *lo = l;
  *hi = h;
}

/* How many times needle (len bytes) comes in text as a run of whole
 * tokens of toks (n of them), counted up to 2; at gets the first and last
 * token of the last one found. */
static size_t occurrences(const char *text, const struct xmt_token *toks,
                          size_t n, const char *needle, size_t len,
                          size_t at[2]) {
  size_t found = 0;
  for (size_t x = 0; x < n && found < 2; x++) {
    size_t start = toks[x].start;
    if (toks[x].end == start || memcmp(text + start, needle, 1) != 0)
      continue;
    size_t y = x;
    while (y < n && toks[y].end < start + len)
      y++;
    if (y < n && toks[y].end == start + len &&
        memcmp(text + start, needle, len) == 0) {
      at[0] = x;
      at[1] = y;
      found++;
    }
  }
  return found;
}

/* A pair whose words come once in the source and once, the same, in the
 * translation ("-a", ".deb", "/proc/cpuinfo": names and options a
 * translation keeps) goes on them there, whatever the links: an aligner
 * links such rare strings worst. */
int xmt_proj_verbatim_span(const struct proj *p, size_t a, size_t b, size_t plo,
                           size_t phi, size_t *lo, size_t *hi) {
  const char *needle = p->src + p->st[a].start;
  size_t len = p->st[b].end - p->st[a].start, at[2];
  if (p->m > WORDS_MAX_TOKENS || p->k > WORDS_MAX_TOKENS ||
      len > VERBATIM_MAX_BYTES)
    return 0;
  int word = 0;
  for (size_t i = p->st[a].start; i < p->st[b].end && !word; i++)
    word = ((unsigned char)p->src[i] & 0xC0) != 0x80 &&
           word_char(p->src, i, p->st[b].end);
  if (len < 2 || !word ||
      occurrences(p->src, p->st, p->m, needle, len, at) != 1 ||
      occurrences(p->tgt, p->tt, p->k, needle, len, at) != 1 || at[0] < plo ||
      at[1] > phi)
    return 0;
  *lo = at[0];
  *hi = at[1];
  return 1;
}
