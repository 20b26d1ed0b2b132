/* srx_shape.c -- no-break rules decided in C. A rule whose beforebreak
 * is a sequence of single-character atoms (\p{..}, \s, \d, a literal, a
 * set [...]) with bounded quantifiers, \b, ^, look-behinds and groups of
 * such alternatives, and whose afterbreak is the same with * and + allowed
 * too, is decided here at text below U+0100: abbreviations and the
 * numbering of headings are tested after almost every sentence. ICU still
 * decides where a character at or above U+0100 counts. ^ is the start of
 * the text: the segmenter hands ICU the whole text with the default
 * anchoring bounds. A rule searched through the text (a break rule) of
 * that shape, * and + allowed on both sides, is found here the way ICU's
 * find finds it, ICU again where a character above U+00FF counts. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "segmenter_private.h"

enum {
  SEQ_ITEMS = 64,  /* items of one sequence */
  GROUP_ALTS = 64, /* alternatives of one group */
  DEPTH_MAX = 4,   /* groups within groups */
  SHAPE_REPEAT = 8
};

enum { ATOM, BOUNDARY, CARET, GROUP, BEHIND, NOT_BEHIND };

/* An item: a character of bits, \b, ^, a group of alternatives (the
 * sequences seqs[alt0, alt0 + nalt)), lo to hi times; or a look-behind,
 * (?<=...) or (?<!...), of the one-item sequence seqs[alt0]. */
struct shape_item {
  int kind, lo, hi;
  int alt0, nalt;
  uint32_t bits[8];
  int nwide;     /* an atom's members above U+00FF, or -1: ICU knows them */
  UChar wide[8]; /* (a literal or a set of literals: "[.?!\u2026]") */
};

struct shape_seq {
  int first, n;                /* items[first, first + n) */
  int head, tail;              /* it starts (ends) with a character of these: */
  uint32_t hbits[8], tbits[8]; /* to turn an alternative away at once */
};

struct srx_shape {
  struct shape_item *items;
  int nitems;
  size_t items_cap;
  struct shape_seq *seqs;
  int nseqs;
  size_t seqs_cap;
  int before, after;         /* seqs of one group item each */
  int find;                  /* read by xmt_srx_shape_read_find */
  uint32_t word[8], skip[8]; /* \b below 256: word characters; those \b
                                looks through (marks, format characters) */
};

static void bit_set(uint32_t *bits, unsigned c) {
  bits[c >> 5] |= (uint32_t)1 << (c & 31);
}

static int bit_has(const uint32_t *bits, unsigned c) {
  return (bits[c >> 5] >> (c & 31)) & 1;
}

/* The characters below 256 ICU's atom[0, n) matches alone: read in C
 * where srx_scan.c reads the class or for \s, else asked of ICU itself.
 * 0 when it does not compile. */
static int atom_bits(const char *atom, size_t n, uint32_t *bits) {
  if (xmt_srx_class_bits(atom, n, bits))
    return 1;
  if (n == 2 && atom[0] == '\\' && (atom[1] == 's' || atom[1] == 'S')) {
    /* ICU's \s is \p{White_Space}; asking ICU took 3 million
     * instructions a language */
    memset(bits, 0, 8 * sizeof *bits);
    for (UChar32 c = 0; c < 256; c++)
      if (u_hasBinaryProperty(c, UCHAR_WHITE_SPACE) == (atom[1] == 's'))
        bit_set(bits, (unsigned)c);
    return 1;
  }
  UChar pat[64];
  int32_t n16 = 0;
  UErrorCode st = U_ZERO_ERROR;
  if (n >= 32)
    return 0;
  u_strFromUTF8(pat, 64, &n16, atom, (int32_t)n, &st);
  URegularExpression *re = uregex_open(pat, n16, 0, NULL, &st);
  if (U_FAILURE(st))
    return 0;
  memset(bits, 0, 8 * sizeof *bits);
  for (unsigned c = 0; c < 256 && U_SUCCESS(st); c++) {
    UChar u = (UChar)c;
    uregex_setText(re, &u, 1, &st);
    if (uregex_matches(re, 0, &st))
      bit_set(bits, c);
  }
  uregex_close(re);
  return U_SUCCESS(st);
}

/* The length of the atom at p: an escape, a set without nested sets, one
 * plain character; 0 for anything else. */
static size_t atom_len(const char *p) {
  const unsigned char *u = (const unsigned char *)p;
  if (p[0] == '\\') {
    if (strchr("pP", p[1]) != NULL && p[1] != '\0') {
      const char *e = p[2] == '{' ? strchr(p, '}') : NULL;
      return e != NULL ? (size_t)(e - p) + 1 : 0;
    }
    return p[1] != '\0' && strchr("sSdDwW.,;:!?-'\"()[]{}|*+^$/", p[1]) != NULL
               ? 2
               : 0;
  }
  if (p[0] == '[') {
    size_t i = 1;
    while (p[i] != '\0' && p[i] != ']' && p[i] != '[')
      i += p[i] == '\\' && p[i + 1] != '\0' ? 2 : 1;
    return p[i] == ']' && i > 1 ? i + 1 : 0;
  }
  if (u[0] < 0x80)
    return strchr("\\[]().*+?{}|^$", p[0]) == NULL && p[0] != '\0' ? 1 : 0;
  size_t k = 1;
  while ((u[k] & 0xC0) == 0x80)
    k++;
  return k;
}

/* A quantifier: none, ? or {m} or {m,n}, bounded; 0 for others. */
static size_t quant(const char *p, int *lo, int *hi) {
  *lo = *hi = 1;
  if (p[0] == '?') {
    *lo = 0;
    return 1;
  }
  if (p[0] != '{')
    return strchr("*+", p[0]) != NULL && p[0] != '\0' ? 0 : (size_t)-1;
  char *e;
  long a = strtol(p + 1, &e, 10), b = a;
  if (e == p + 1)
    return 0;
  if (*e == ',') {
    const char *f = e + 1;
    b = strtol(f, &e, 10);
    if (e == f)
      return 0;
  }
  if (*e != '}' || a < 0 || b < a || b > SHAPE_REPEAT)
    return 0;
  *lo = (int)a;
  *hi = (int)b;
  return (size_t)(e - p) + 1;
}

struct parse {
  struct srx_shape *sh;
  const char *p;
  int nomem;
  int ahead; /* the afterbreak: * and + read on characters */
  int find;  /* a searched rule: * and + read on groups too, both sides */
};

/* Appends n elements of size bytes from src to the array *arr of *len
 * elements (capacity *cap); the first one's index, or -1 when out of
 * memory (ps->nomem set). */
static int append(struct parse *ps, void *arr, int *len, size_t *cap,
                  const void *src, int n, size_t size) {
  void **v = arr;
  void *q = xmt_grow_array(*v, cap, (size_t)*len + (size_t)n, size);
  if (q == NULL)
    return ps->nomem = 1, -1;
  *v = q;
  if (n > 0)
    memcpy((char *)q + (size_t)*len * size, src, (size_t)n * size);
  *len += n;
  return *len - n;
}

/* Appends n items (or seqs) to the shape's pool; their first index, or -1
 * when out of memory. */
static int add_items(struct parse *ps, const struct shape_item *it, int n) {
  struct srx_shape *sh = ps->sh;
  return append(ps, &sh->items, &sh->nitems, &sh->items_cap, it, n, sizeof *it);
}

static int add_seqs(struct parse *ps, const struct shape_seq *s, int n) {
  struct srx_shape *sh = ps->sh;
  return append(ps, &sh->seqs, &sh->nseqs, &sh->seqs_cap, s, n, sizeof *s);
}

/* The fewest characters an item matches. */
static int item_min(const struct srx_shape *sh, const struct shape_item *it) {
  if (it->kind != ATOM && it->kind != GROUP)
    return 0;
  if (it->kind == ATOM)
    return it->lo;
  int least = -1;
  for (int a = it->alt0; a < it->alt0 + it->nalt; a++) {
    int m = 0;
    for (int k = 0; k < sh->seqs[a].n; k++)
      m += item_min(sh, &sh->items[sh->seqs[a].first + k]);
    least = least < 0 || m < least ? m : least;
  }
  return it->lo * least;
}

static int read_alts(struct parse *ps, int depth, struct shape_item *out);

/* A look-behind at ps->p into it, its group the one item of a sequence of
 * its own; -1 when not read. Bounded inside, as ICU wants it. */
static int read_behind(struct parse *ps, int depth, struct shape_item *it) {
  int ahead = ps->ahead, find = ps->find;
  struct shape_item g;
  struct shape_seq s;
  memset(&g, 0, sizeof g);
  memset(&s, 0, sizeof s);
  it->kind = ps->p[3] == '!' ? NOT_BEHIND : BEHIND;
  ps->p += 4;
  ps->ahead = ps->find = 0;
  int bad =
      depth == DEPTH_MAX || read_alts(ps, depth + 1, &g) < 0 || *ps->p != ')';
  ps->ahead = ahead;
  ps->find = find;
  if (bad)
    return -1;
  ps->p++;
  s.n = 1;
  s.first = add_items(ps, &g, 1);
  it->alt0 = s.first < 0 ? -1 : add_seqs(ps, &s, 1);
  /* a quantified look-around: not read */
  return it->alt0 < 0 || (*ps->p != '\0' && strchr("?*+{", *ps->p) != NULL) ? -1
                                                                            : 0;
}

/* A group "(...)" or "(?:...)" at ps->p into it; -1 when not read. */
static int read_group(struct parse *ps, int depth, struct shape_item *it) {
  const char *p = ps->p + 1;
  if (p[0] == '?' && p[1] != ':')
    return -1; /* look-arounds, atomic groups, flags: not read */
  ps->p = p[0] == '?' ? p + 2 : p;
  if (depth == DEPTH_MAX || read_alts(ps, depth + 1, it) < 0 || *ps->p != ')')
    return -1;
  ps->p++;
  return 0;
}

/* One item at ps->p, its quantifier read; -1 when not read. */
static int read_item(struct parse *ps, int depth, struct shape_item *it) {
  const char *p = ps->p;
  memset(it, 0, sizeof *it);
  it->lo = it->hi = 1;
  if (p[0] == '\\' && p[1] == 'b') {
    it->kind = BOUNDARY;
    ps->p += 2;
    return 0;
  }
  if (p[0] == '^') {
    it->kind = CARET;
    ps->p++;
    return 0;
  }
  if (p[0] == '(' && p[1] == '?' && p[2] == '<' && (p[3] == '=' || p[3] == '!'))
    return read_behind(ps, depth, it);
  if (p[0] == '(') {
    it->kind = GROUP;
    if (read_group(ps, depth, it) < 0)
      return -1;
  } else {
    size_t k = atom_len(p);
    if (k == 0 || !atom_bits(p, k, it->bits))
      return -1;
    it->nwide = xmt_srx_atom_wide(p, k, it->wide, 8);
    it->kind = ATOM;
    ps->p += k;
  }
  int lo, hi;
  size_t q = quant(ps->p, &lo, &hi);
  if (q == 0 && (ps->find || (ps->ahead && it->kind == ATOM)) &&
      (*ps->p == '*' || *ps->p == '+')) {
    /* a look-ahead has no bound: forward, a run ends at the text's end */
    lo = *ps->p == '+';
    hi = INT_MAX;
    q = 1;
  }
  if (q == 0)
    return -1;
  if (q != (size_t)-1) {
    ps->p += q;
    /* a repeated group that may match nothing: ICU ends such loops */
    if (it->kind == GROUP && item_min(ps->sh, it) == 0)
      return -1;
    it->lo = lo;
    it->hi = hi;
  }
  if (*ps->p == '?' || *ps->p == '+') /* lazy or possessive: not read */
    return -1;
  return 0;
}

/* A sequence up to '|', ')' or the end into *out; -1 when not read. */
static int read_seq(struct parse *ps, int depth, struct shape_seq *out) {
  struct shape_item buf[SEQ_ITEMS];
  int n = 0;
  while (*ps->p != '\0' && *ps->p != '|' && *ps->p != ')') {
    if (n == SEQ_ITEMS || read_item(ps, depth, &buf[n++]) < 0)
      return -1;
  }
  memset(out, 0, sizeof *out);
  out->n = n;
  out->head = n > 0 && buf[0].kind == ATOM && buf[0].lo > 0;
  out->tail = n > 0 && buf[n - 1].kind == ATOM && buf[n - 1].lo > 0;
  if (out->head)
    memcpy(out->hbits, buf[0].bits, sizeof out->hbits);
  if (out->tail)
    memcpy(out->tbits, buf[n - 1].bits, sizeof out->tbits);
  out->first = add_items(ps, buf, n);
  return out->first < 0 ? -1 : 0;
}

/* Alternatives up to ')' or the end, as a group item into *out. */
static int read_alts(struct parse *ps, int depth, struct shape_item *out) {
  struct shape_seq alts[GROUP_ALTS];
  int n = 0;
  for (;;) {
    if (n == GROUP_ALTS || read_seq(ps, depth, &alts[n++]) < 0)
      return -1;
    if (*ps->p != '|')
      break;
    ps->p++;
  }
  out->kind = GROUP;
  out->lo = out->hi = 1;
  out->nalt = n;
  out->alt0 = add_seqs(ps, alts, n);
  return out->alt0 < 0 ? -1 : 0;
}

/* A whole pattern as a sequence (of one group when it has alternatives);
 * its seq, or -1. */
static int read_pattern(struct parse *ps, const char *pattern) {
  struct shape_item top;
  struct shape_seq s;
  memset(&s, 0, sizeof s);
  s.n = 1;
  ps->p = pattern;
  memset(&top, 0, sizeof top);
  if (read_alts(ps, 0, &top) < 0 || *ps->p != '\0')
    return -1;
  if (top.nalt == 1) /* one alternative: no group to go through */
    return top.alt0;
  s.first = add_items(ps, &top, 1);
  return s.first < 0 ? -1 : add_seqs(ps, &s, 1);
}

void xmt_srx_shape_free(struct srx_shape *sh) {
  if (sh == NULL)
    return;
  free(sh->items);
  free(sh->seqs);
  free(sh);
}

static struct srx_shape *shape_read(const char *before, const char *after,
                                    int find, int *nomem) {
  struct srx_shape *sh = calloc(1, sizeof *sh);
  *nomem = sh == NULL;
  if (sh == NULL)
    return NULL;
  struct parse ps = {sh, before, 0, 0, find};
  sh->find = find;
  sh->before = read_pattern(&ps, before);
  ps.ahead = 1;
  sh->after = sh->before < 0 ? -1 : read_pattern(&ps, after);
  if (sh->after < 0) {
    *nomem = ps.nomem;
    xmt_srx_shape_free(sh);
    return NULL;
  }
  /* As ICU's \b without UREGEX_UWORD: [\p{Alphabetic}\p{M}\p{Nd}\p{Pc}],
   * marks and format characters looked through. */
  for (UChar32 c = 0; c < 256; c++) {
    int8_t t = u_charType(c);
    if (u_hasBinaryProperty(c, UCHAR_ALPHABETIC) ||
        (U_MASK(t) & (U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) != 0)
      bit_set(sh->word, (unsigned)c);
    if (u_hasBinaryProperty(c, UCHAR_GRAPHEME_EXTEND) || t == U_FORMAT_CHAR)
      bit_set(sh->skip, (unsigned)c);
  }
  return sh;
}

struct srx_shape *xmt_srx_shape_read(const char *before, const char *after,
                                     int *nomem) {
  return shape_read(before, after, 0, nomem);
}

struct srx_shape *xmt_srx_shape_read_find(const char *before, const char *after,
                                          int *nomem) {
  return shape_read(before, after, 1, nomem);
}

/* Three-valued: 1 yes, 0 no, -1 not known here. */
static int or3(int a, int b) {
  return a == 1 || b == 1 ? 1 : a < 0 || b < 0 ? -1 : 0;
}

/* Whether atom it matches c: 1, 0, or -1 when only ICU knows. A unit of
 * a surrogate pair is in no list, nor is the pair's code point. */
static int in3(const struct shape_item *it, UChar c) {
  if (c < 256)
    return bit_has(it->bits, c);
  for (int k = 0; k < it->nwide; k++)
    if (it->wide[k] == c)
      return 1;
  return it->nwide < 0 ? -1 : 0;
}

/* ICU's \b at p, as RegexMatcher::isChunkWordBoundary. */
static int boundary(const struct srx_shape *sh, const UChar *t, int32_t p,
                    int32_t len) {
  int here = 0, prev = 0;
  if (p < len) {
    if (t[p] >= 256)
      return -1;
    if (bit_has(sh->skip, t[p]))
      return 0;
    here = bit_has(sh->word, t[p]);
  }
  for (int32_t j = p - 1; j >= 0; j--) {
    if (t[j] >= 256)
      return -1;
    if (!bit_has(sh->skip, t[j])) {
      prev = bit_has(sh->word, t[j]);
      break;
    }
  }
  return here != prev;
}

/* What is left to match once a sequence is done: it is an alternative of
 * the group item gi of seq, done times matched before it. */
struct frame {
  int seq, gi, done;
  const struct frame *up;
};

/* The steps one side of a decision may take: nested bounded groups can
 * make backtracking exponential in a rule of the user's, and past the
 * budget ICU decides, as it did before the C form. */
#define STEP_BUDGET 20000u

struct text {
  const struct srx_shape *sh;
  const UChar *t;
  int32_t len;
  unsigned *steps; /* taken so far by this side */
};

/* 1 once the side is past its budget: the answer is then unsure (-1). */
static int spent(const struct text *x) { return ++*x->steps > STEP_BUDGET; }

static int back(const struct text *x, int seq, int i, int32_t p,
                const struct frame *up);
static int fwd(const struct text *x, int seq, int i, int32_t p,
               const struct frame *up);

/* A yes of a zero-width item at p: ^, \b, or a look-behind, whose
 * group matches some t[s, p) (ICU's \b in it sees the whole text). */
static int zero_width(const struct text *x, const struct shape_item *it,
                      int32_t p) {
  if (it->kind == CARET)
    return p == 0;
  if (it->kind == BOUNDARY)
    return boundary(x->sh, x->t, p, x->len);
  int r = back(x, it->alt0, 1, p, NULL);
  return it->kind == BEHIND || r < 0 ? r : !r;
}

/* Whether alternative sq cannot end (tail) or start with t[i], there when
 * inside. */
static int cannot(const struct shape_seq *sq, int tail, const UChar *t,
                  int32_t i, int inside) {
  if (!(tail ? sq->tail : sq->head))
    return 0;
  return !inside ||
         (t[i] < 256 && !bit_has(tail ? sq->tbits : sq->hbits, t[i]));
}

/* The group item gi of seq, matched done times so far, the rest then
 * matched backward (dir < 0) or forward. */
static int group(const struct text *x, int seq, int gi, int done, int32_t p,
                 const struct frame *up, int dir) {
  if (spent(x))
    return -1;
  const struct shape_item *g = &x->sh->items[x->sh->seqs[seq].first + gi];
  int res = 0;
  if (done >= g->lo)
    res = dir < 0 ? back(x, seq, gi, p, up) : fwd(x, seq, gi + 1, p, up);
  for (int a = 0; res != 1 && done < g->hi && a < g->nalt; a++) {
    struct frame f = {seq, gi, done, up};
    int s = g->alt0 + a;
    if (dir < 0 ? cannot(&x->sh->seqs[s], 1, x->t, p - 1, p > 0)
                : cannot(&x->sh->seqs[s], 0, x->t, p, p < x->len))
      continue;
    res = or3(res, dir < 0 ? back(x, s, x->sh->seqs[s].n, p, &f)
                           : fwd(x, s, 0, p, &f));
  }
  return res;
}

/* Whether items[0, i) of seq, then up, match some t[s, p). */
static int back(const struct text *x, int seq, int i, int32_t p,
                const struct frame *up) {
  if (spent(x))
    return -1;
  if (i == 0)
    return up == NULL ? 1
                      : group(x, up->seq, up->gi, up->done + 1, p, up->up, -1);
  const struct shape_item *it = &x->sh->items[x->sh->seqs[seq].first + i - 1];
  if (it->kind == GROUP)
    return group(x, seq, i - 1, 0, p, up, -1);
  if (it->kind != ATOM) {
    int z = zero_width(x, it, p);
    return z == 0  ? 0
           : z < 0 ? (back(x, seq, i - 1, p, up) != 0 ? -1 : 0)
                   : back(x, seq, i - 1, p, up);
  }
  int res = 0, ok = 1;
  for (int k = 0; k <= it->hi && ok != 0 && res != 1; k++) {
    if (k > 0)
      ok = k > p    ? 0
           : ok < 0 ? (in3(it, x->t[p - k]) != 0 ? -1 : 0)
                    : in3(it, x->t[p - k]);
    if (k >= it->lo && ok != 0) {
      int r = back(x, seq, i - 1, p - k, up);
      res = or3(res, ok < 0 && r != 0 ? -1 : r);
    }
  }
  return res;
}

/* Whether items[i, n) of seq, then up, match some t[p, e). */
static int fwd(const struct text *x, int seq, int i, int32_t p,
               const struct frame *up) {
  if (spent(x))
    return -1;
  if (i == x->sh->seqs[seq].n)
    return up == NULL ? 1
                      : group(x, up->seq, up->gi, up->done + 1, p, up->up, 1);
  const struct shape_item *it = &x->sh->items[x->sh->seqs[seq].first + i];
  if (it->kind == GROUP)
    return group(x, seq, i, 0, p, up, 1);
  if (it->kind != ATOM) {
    int z = zero_width(x, it, p);
    return z == 0  ? 0
           : z < 0 ? (fwd(x, seq, i + 1, p, up) != 0 ? -1 : 0)
                   : fwd(x, seq, i + 1, p, up);
  }
  int res = 0, ok = 1;
  for (int k = 0; k <= it->hi && ok != 0 && res != 1; k++) {
    if (k > 0)
      ok = p + k > x->len ? 0
           : ok < 0       ? (in3(it, x->t[p + k - 1]) != 0 ? -1 : 0)
                          : in3(it, x->t[p + k - 1]);
    if (k >= it->lo && ok != 0) {
      int r = fwd(x, seq, i + 1, p + k, up);
      res = or3(res, ok < 0 && r != 0 ? -1 : r);
    }
  }
  return res;
}

/* --- Searching: ICU's find in C -------------------------------------------
 * The match ICU's find gives: the first start from which one exists, and
 * there the first in ICU's order (quantifiers greedy, alternatives left to
 * right, a group tried once more before the rest); the rule hits where its
 * beforebreak ends, once the afterbreak matches from there. Any character
 * above U+00FF that counts before that makes the answer unsure. */

/* Steps an attempt may take, each side: the recursion goes one level a
 * step, and a loop over a long run must not take the stack. */
#define FIND_STEPS 2000u

struct finder {
  struct text x;
  int32_t end; /* where the beforebreak ended, on a hit */
};

static int first(struct finder *f, int seq, int i, int32_t p,
                 const struct frame *up);

/* The group item gi of seq, matched done times: once more first. */
static int first_group(struct finder *f, int seq, int gi, int done, int32_t p,
                       const struct frame *up) {
  const struct srx_shape *sh = f->x.sh;
  const struct shape_item *g = &sh->items[sh->seqs[seq].first + gi];
  for (int a = 0; done < g->hi && a < g->nalt; a++) {
    int s = g->alt0 + a;
    if (cannot(&sh->seqs[s], 0, f->x.t, p, p < f->x.len))
      continue;
    struct frame fr = {seq, gi, done, up};
    int r = first(f, s, 0, p, &fr);
    if (r != 0)
      return r;
  }
  return done >= g->lo ? first(f, seq, gi + 1, p, up) : 0;
}

/* The beforebreak matched up to p: a hit when the afterbreak matches. */
static int before_done(struct finder *f, int32_t p) {
  unsigned steps = STEP_BUDGET - FIND_STEPS;
  struct text y = {f->x.sh, f->x.t, f->x.len, &steps};
  int a = fwd(&y, f->x.sh->after, 0, p, NULL);
  if (a == 1)
    f->end = p;
  return a;
}

/* Items [i, n) of seq, then up, then the afterbreak, from p: 1 on the
 * first match in ICU's order, 0 when none, -1 when unsure. */
static int first(struct finder *f, int seq, int i, int32_t p,
                 const struct frame *up) {
  const struct srx_shape *sh = f->x.sh;
  if (spent(&f->x))
    return -1;
  if (i == sh->seqs[seq].n)
    return up == NULL
               ? before_done(f, p)
               : first_group(f, up->seq, up->gi, up->done + 1, p, up->up);
  const struct shape_item *it = &sh->items[sh->seqs[seq].first + i];
  if (it->kind == GROUP)
    return first_group(f, seq, i, 0, p, up);
  if (it->kind != ATOM) {
    int z = zero_width(&f->x, it, p);
    int r = z == 0 ? 0 : first(f, seq, i + 1, p, up);
    return z < 0 && r != 0 ? -1 : r;
  }
  int32_t m = 0; /* the longest run: greedy, tried first */
  while (m < it->hi && p + m < f->x.len) {
    int v = in3(it, f->x.t[p + m]);
    if (v < 0)
      return -1;
    if (v == 0)
      break;
    m++;
  }
  for (int32_t k = m; k >= it->lo; k--) {
    int r = first(f, seq, i + 1, p + k, up);
    if (r != 0)
      return r;
  }
  return 0;
}

int xmt_srx_shape_find(const struct srx_shape *sh, const UChar *text,
                       int32_t start, int32_t len, int32_t *end) {
  const struct shape_seq *top = &sh->seqs[sh->before];
  const struct shape_item *head = top->head ? &sh->items[top->first] : NULL;
  int32_t s = start;
  for (; s <= len;
       s += s + 1 < len && U16_IS_LEAD(text[s]) && U16_IS_TRAIL(text[s + 1])
                ? 2
                : 1) {
    if (head != NULL) { /* most starts: not the first character */
      while (s < len && text[s] < 256 && !bit_has(head->bits, text[s]))
        s++;
      if (s == len || in3(head, text[s]) == 0)
        continue;
    }
    unsigned steps = STEP_BUDGET - FIND_STEPS;
    struct finder f = {{sh, text, len, &steps}, -1};
    int r = first(&f, sh->before, 0, s, NULL);
    if (r != 0) {
      *end = f.end;
      return r;
    }
  }
  return 0;
}

int xmt_srx_shape_hits(const struct srx_shape *sh, const UChar *text, int32_t p,
                       int32_t len) {
  unsigned steps = 0;
  struct text x = {sh, text, len, &steps};
  int b = back(&x, sh->before, sh->seqs[sh->before].n, p, NULL);
  if (b == 0)
    return 0;
  steps = 0;
  int a = fwd(&x, sh->after, 0, p, NULL);
  return a == 0 ? 0 : b < 0 || a < 0 ? -1 : 1;
}
