/* tokens_cut.c -- word tokens cut where a tag cuts them.
 *
 * The word tokenizer keeps a name joined with dots or at signs whole
 * ("package.symbols", "fsck.type", "journald@NAMESPACE.conf"), but a tag
 * may wrap one piece of it: "<g>package</g>.symbols". Tags are placed on
 * whole tokens, so that pair would take ".symbols" along, and the aligner
 * would link "package.symbols" as one word. xmt_tokens_cut_at_tags cuts
 * such a source token where the tag does, a punctuation mark beside the
 * cut a token of its own ("package" "." "symbols"), and cuts the same way
 * each target token in which a piece of it comes back: the same token
 * ("package.symbols" kept as it is), or one that ends with the piece after
 * the cut or starts with the one before it ("Paket.symbols", "fsck.Typ",
 * ASCII case aside: "Paket_Version_Arch.deb" for "package_version_arch.deb");
 * failing those, at the same mark of the target token that has it as many
 * times ("nom@nom_hôte" for "name@hostname"). Only cuts beside a
 * punctuation mark count: a tag inside a run of letters ("<g>file</g>s")
 * leaves its token whole. On Debian's translated manual pages
 * (doc/benchmarks.md) it gains beyond the paired interval on the German
 * and French sets. */
#include "config.h"

#include <stdlib.h>
#include <unicode/uchar.h>

#include "projector_private.h"

/* Cuts per segment kept on the stack; more are allocated. */
#define LOCAL_CUTS 32

/* A growable list of byte offsets. */
struct cuts {
  size_t *v;
  size_t n, cap;
  size_t local[LOCAL_CUTS];
};

static xmt_status cuts_add(struct cuts *c, size_t off) {
  if (c->n == c->cap) {
    size_t cap = c->cap * 2;
    size_t *v = c->v == c->local ? malloc(cap * sizeof *v)
                                 : realloc(c->v, cap * sizeof *v);
    if (v == NULL)
      return XMT_ERR_NOMEM;
    if (c->v == c->local)
      memcpy(v, c->local, c->n * sizeof *v);
    c->v = v;
    c->cap = cap;
  }
  c->v[c->n++] = off;
  return XMT_OK;
}

static int size_cmp(const void *pa, const void *pb) {
  size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
  return (a > b) - (a < b);
}

/* Whether the character at s[at] (text ends at end) is punctuation or a
 * symbol: neither a letter, a digit nor a space. *len its length. */
static int mark_at(const char *s, size_t at, size_t end, size_t *len) {
  uint32_t cp = 0;
  *len = xmt_utf8_decode((const unsigned char *)s + at, end - at, &cp);
  return *len > 0 && !u_isalnum((UChar32)cp) && !u_isUWhiteSpace((UChar32)cp);
}

/* The same for the character that ends at byte end (start: where to stop
 * looking back). */
static int mark_before(const char *s, size_t start, size_t end, size_t *len) {
  size_t at = end;
  while (at > start && ((unsigned char)s[at - 1] & 0xC0) == 0x80)
    at--;
  if (at == start)
    return 0;
  return mark_at(s, at - 1, end, len) && at - 1 + *len == end;
}

/* Whether s[start, end) holds a letter or a digit. */
static int has_alnum(const char *s, size_t start, size_t end) {
  while (start < end) {
    uint32_t cp = 0;
    size_t k =
        xmt_utf8_decode((const unsigned char *)s + start, end - start, &cp);
    if (k == 0)
      return 0;
    if (u_isalnum((UChar32)cp))
      return 1;
    start += k;
  }
  return 0;
}

/* Whether a[0, n) and b[0, n) are the same, ASCII case aside. */
static int same_ci(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
    if (x >= 'A' && x <= 'Z')
      x = (unsigned char)(x | 0x20);
    if (y >= 'A' && y <= 'Z')
      y = (unsigned char)(y | 0x20);
    if (x != y)
      return 0;
  }
  return 1;
}

/* Adds cut c of token [start, end) of s, and beside it the edges of the
 * punctuation mark it touches, which becomes a token of its own. */
static xmt_status add_cut(struct cuts *out, const char *s, size_t start,
                          size_t end, size_t c) {
  size_t len;
  xmt_status st = cuts_add(out, c);
  if (st == XMT_OK && mark_at(s, c, end, &len) && c + len < end)
    st = cuts_add(out, c + len);
  if (st == XMT_OK && mark_before(s, start, c, &len) && c - len > start)
    st = cuts_add(out, c - len);
  return st;
}

/* Whether a cut at c inside [start, end) of s is beside a punctuation
 * mark, so that a piece on either side is a part of a joined name. */
static int cut_at_mark(const char *s, size_t start, size_t end, size_t c) {
  size_t len;
  return mark_at(s, c, end, &len) || mark_before(s, start, c, &len);
}

/* How many times the mark c (one byte) comes in s[start, end) between
 * two letters or digits. */
static size_t marks_inside(const char *s, size_t start, size_t end, char c) {
  size_t n = 0;
  for (size_t i = start + 1; i + 1 < end; i++)
    n += s[i] == c && has_alnum(s, i - 1, i) && has_alnum(s, i + 1, i + 2);
  return n;
}

/* Where the mark c comes for the i-th time (from 0) in s[start, end). */
static size_t nth_mark(const char *s, size_t start, size_t end, char c,
                       size_t i) {
  for (size_t at = start; at < end; at++)
    if (s[at] == c && i-- == 0)
      return at;
  return end;
}

/* Whether target token [ts, te) of t is the same as a source token. */
static int in_source(const char *t, size_t ts, size_t te, const char *s,
                     const struct xmt_token *st, size_t m) {
  for (size_t i = 0; i < m; i++)
    if (st[i].end - st[i].start == te - ts &&
        same_ci(s + st[i].start, t + ts, te - ts))
      return 1;
  return 0;
}

/* The cuts of the target tokens tt[0..k) of t that the cut c of source
 * token [a, b) of s calls for: where the token comes back whole, or a
 * piece of it ends or starts a target token. 0 when there is none. */
static int target_cuts(struct cuts *out, const char *s, size_t a, size_t b,
                       size_t c, const char *t, const struct xmt_token *tt,
                       size_t k, xmt_status *status) {
  size_t left = c - a, right = b - c;
  int lword = has_alnum(s, a, c), rword = has_alnum(s, c, b);
  int found = 0;
  for (size_t j = 0; j < k && *status == XMT_OK; j++) {
    size_t ts = tt[j].start, te = tt[j].end, n = te - ts, at = 0;
    if (n == b - a && same_ci(t + ts, s + a, n))
      at = ts + left;
    else if (rword && n > right && same_ci(t + te - right, s + c, right) &&
             has_alnum(t, ts, te - right))
      at = te - right;
    else if (lword && n > left && same_ci(t + ts, s + a, left) &&
             has_alnum(t, ts + left, te))
      at = ts + left;
    if (at != 0 && xmt_utf8_at_boundary(t, te, at)) {
      found = 1;
      *status = add_cut(out, t, ts, te, at);
    }
  }
  return found;
}

/* The ASCII mark at cut c of token [a, b) of s (the "@" of
 * "<g>name</g>@host"), 0 when none; *after: the cut is before it;
 * *count: the times it comes in the token between letters or digits;
 * *index: which of them it is. */
static char cut_mark(const char *s, size_t a, size_t b, size_t c, int *after,
                     size_t *count, size_t *index) {
  *after = (unsigned char)s[c] < 0x80 && !has_alnum(s, c, c + 1) &&
           !xmt_is_xml_space(s[c]);
  size_t at = *after ? c : c - 1;
  if (at < a || (unsigned char)s[at] >= 0x80 || has_alnum(s, at, at + 1) ||
      xmt_is_xml_space(s[at]))
    return 0;
  *count = marks_inside(s, a, b, s[at]);
  *index = 0;
  for (size_t i = a; i < at; i++)
    *index += s[i] == s[at];
  return *count > 0 ? s[at] : 0;
}

/* The source tokens whose cuts no target token matched, as triples a, b,
 * c in u->v: each such cut of mark J, in a token with J n times, cuts the
 * target tokens with J n times between letters or digits that are no
 * source token as they stand ("nom@nom_h\xC3\xB4te"), the i-th such
 * source token the i-th such target token, when there are as many of
 * each ("Quellname_Bin\xC3\xA4rversion" three times for
 * "source-name_binary-version"). */
static xmt_status mark_cuts(struct cuts *out, const struct cuts *u,
                            const char *s, const struct xmt_token *st, size_t m,
                            const char *t, const struct xmt_token *tt,
                            size_t k) {
  xmt_status status = XMT_OK;
  for (size_t r = 0; r < u->n && status == XMT_OK; r += 3) {
    size_t a = u->v[r], b = u->v[r + 1], c = u->v[r + 2], count, index;
    int after;
    char mark = cut_mark(s, a, b, c, &after, &count, &index);
    if (mark == 0)
      continue;
    /* this token's rank among the source tokens of its kind, and theirs */
    size_t rank = 0, tokens = 0, prev = SIZE_MAX;
    for (size_t q = 0; q < u->n; q += 3) {
      size_t qc, qi;
      int qa;
      if (u->v[q] == prev ||
          cut_mark(s, u->v[q], u->v[q + 1], u->v[q + 2], &qa, &qc, &qi) !=
              mark ||
          qc != count)
        continue;
      prev = u->v[q];
      rank += u->v[q] < a;
      tokens++;
    }
    size_t seen = 0, pick = k;
    for (size_t j = 0; j < k; j++)
      if (marks_inside(t, tt[j].start, tt[j].end, mark) == count &&
          !in_source(t, tt[j].start, tt[j].end, s, st, m)) {
        if (seen == rank)
          pick = j;
        seen++;
      }
    if (seen != tokens || pick == k)
      continue;
    size_t ts = tt[pick].start, te = tt[pick].end;
    size_t mk = nth_mark(t, ts, te, mark, index);
    if (mk < te)
      status = add_cut(out, t, ts, te, after ? mk : mk + 1);
  }
  return status;
}

/* Sorts the cuts and splits tokens at them; c is emptied. */
static xmt_status apply(xmt_tokens *tokens, struct cuts *c) {
  if (c->n == 0)
    return XMT_OK;
  qsort(c->v, c->n, sizeof *c->v, size_cmp);
  xmt_status status = xmt_tokens_split(tokens, c->v, c->n);
  c->n = 0;
  return status;
}

static void cuts_init(struct cuts *c) {
  c->v = c->local;
  c->n = 0;
  c->cap = LOCAL_CUTS;
}

static void cuts_free(struct cuts *c) {
  if (c->v != c->local)
    free(c->v);
}

xmt_status xmt_tokens_cut_at_tags(xmt_tokens *source_tokens,
                                  const xmt_segment *source,
                                  xmt_tokens *target_tokens, const char *target,
                                  size_t target_len) {
  if (source_tokens == NULL || source == NULL ||
      (target_tokens != NULL && target == NULL && target_len > 0))
    return XMT_ERR_USAGE;
  size_t slen;
  const char *s = xmt_segment_text(source, &slen);
  const struct xmt_token *st = xmt_tokens_array(source_tokens);
  size_t m = xmt_tokens_count(source_tokens), n = xmt_segment_tag_count(source);
  struct cuts sc, tc, un;
  cuts_init(&sc);
  cuts_init(&tc);
  cuts_init(&un);
  xmt_status status = XMT_OK;
  size_t tok = 0;
  struct xmt_tag tag;
  for (size_t i = 0; i < n && status == XMT_OK; i++) {
    (void)xmt_segment_tag(source, i, &tag);
    if (tag.kind != XMT_TAG_OPEN && tag.kind != XMT_TAG_CLOSE)
      continue;
    size_t off = tag.offset;
    while (tok < m && st[tok].end <= off)
      tok++;
    if (tok == m || st[tok].start >= off || off > slen ||
        !cut_at_mark(s, st[tok].start, st[tok].end, off))
      continue;
    size_t a = st[tok].start, b = st[tok].end;
    status = add_cut(&sc, s, a, b, off);
    if (status != XMT_OK || target_tokens == NULL ||
        target_cuts(&tc, s, a, b, off, target, xmt_tokens_array(target_tokens),
                    xmt_tokens_count(target_tokens), &status))
      continue;
    if (status == XMT_OK)
      status = cuts_add(&un, a);
    if (status == XMT_OK)
      status = cuts_add(&un, b);
    if (status == XMT_OK)
      status = cuts_add(&un, off);
  }
  if (status == XMT_OK && target_tokens != NULL)
    status = apply(target_tokens, &tc);
  if (status == XMT_OK && target_tokens != NULL && un.n > 0)
    status =
        mark_cuts(&tc, &un, s, st, m, target, xmt_tokens_array(target_tokens),
                  xmt_tokens_count(target_tokens));
  if (status == XMT_OK && target_tokens != NULL)
    status = apply(target_tokens, &tc);
  if (status == XMT_OK)
    status = apply(source_tokens, &sc);
  cuts_free(&sc);
  cuts_free(&tc);
  cuts_free(&un);
  return status;
}
