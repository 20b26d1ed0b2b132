/* srx_shape.c -- no-break rules decided in C. A rule whose beforebreak
 * and afterbreak are each a sequence of single-character atoms (\p{..},
 * \s, \d, a literal, a set [...]) with bounded quantifiers, and of \b, is
 * decided here at text below U+0100: the rules of a lower-case letter and
 * a full stop ("z. B.") are tested after almost every sentence. ICU still
 * decides where a character at or above U+0100 counts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include "segmenter_private.h"

enum { SHAPE_ITEMS = 8, SHAPE_REPEAT = 8 };

struct shape_item {
  int boundary; /* \b; else a character of bits, lo to hi times */
  int lo, hi;
  uint32_t bits[8];
};

struct srx_shape {
  int nbefore, nafter;
  struct shape_item before[SHAPE_ITEMS], after[SHAPE_ITEMS];
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
    return p[1] != '\0' && strchr("sSdDwW.,;:!?-'\"", p[1]) != NULL ? 2 : 0;
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

/* The items of pattern into items; their count, or -1 when not read. */
static int read_items(const char *p, struct shape_item *items) {
  int n = 0;
  while (*p != '\0') {
    if (n == SHAPE_ITEMS)
      return -1;
    struct shape_item *it = &items[n++];
    memset(it, 0, sizeof *it);
    if (p[0] == '\\' && p[1] == 'b') {
      it->boundary = 1;
      p += 2;
      continue;
    }
    size_t k = atom_len(p), q;
    if (k == 0 || !atom_bits(p, k, it->bits))
      return -1;
    p += k;
    q = quant(p, &it->lo, &it->hi);
    if (q == 0)
      return -1;
    if (q != (size_t)-1)
      p += q;
    if (*p == '?' || *p == '+') /* lazy or possessive: not read */
      return -1;
  }
  return n;
}

struct srx_shape *xmt_srx_shape_read(const char *before, const char *after,
                                     int *nomem) {
  struct srx_shape *sh = malloc(sizeof *sh);
  *nomem = sh == NULL;
  if (sh == NULL)
    return NULL;
  sh->nbefore = read_items(before, sh->before);
  sh->nafter = read_items(after, sh->after);
  if (sh->nbefore < 0 || sh->nafter < 0) {
    free(sh);
    return NULL;
  }
  /* As ICU's \b without UREGEX_UWORD: [\p{Alphabetic}\p{M}\p{Nd}\p{Pc}],
   * marks and format characters looked through. */
  memset(sh->word, 0, sizeof sh->word);
  memset(sh->skip, 0, sizeof sh->skip);
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

void xmt_srx_shape_free(struct srx_shape *sh) { free(sh); }

/* Three-valued: 1 yes, 0 no, -1 not known here. */
static int and3(int a, int b) {
  return a == 0 || b == 0 ? 0 : a < 0 || b < 0 ? -1 : 1;
}

static int in3(const uint32_t *bits, UChar c) {
  return c >= 256 ? -1 : bit_has(bits, c);
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

/* Whether items[0, i) match some t[s, p): by every count of each item. */
static int match_back(const struct srx_shape *sh, const struct shape_item *it,
                      int i, const UChar *t, int32_t p, int32_t len) {
  if (i == 0)
    return 1;
  const struct shape_item *x = &it[i - 1];
  if (x->boundary)
    return and3(boundary(sh, t, p, len), match_back(sh, it, i - 1, t, p, len));
  int res = 0, ok = 1;
  for (int k = 0; k <= x->hi && ok != 0 && res != 1; k++) {
    if (k > 0)
      ok = k <= p ? and3(ok, in3(x->bits, t[p - k])) : 0;
    if (k >= x->lo && ok != 0) {
      int r = and3(ok, match_back(sh, it, i - 1, t, p - k, len));
      res = r == 1 ? 1 : res == -1 || r == -1 ? -1 : 0;
    }
  }
  return res;
}

/* Whether items[i, n) match some t[p, e). */
static int match_fwd(const struct srx_shape *sh, const struct shape_item *it,
                     int i, int n, const UChar *t, int32_t p, int32_t len) {
  if (i == n)
    return 1;
  const struct shape_item *x = &it[i];
  if (x->boundary)
    return and3(boundary(sh, t, p, len),
                match_fwd(sh, it, i + 1, n, t, p, len));
  int res = 0, ok = 1;
  for (int k = 0; k <= x->hi && ok != 0 && res != 1; k++) {
    if (k > 0)
      ok = p + k <= len ? and3(ok, in3(x->bits, t[p + k - 1])) : 0;
    if (k >= x->lo && ok != 0) {
      int r = and3(ok, match_fwd(sh, it, i + 1, n, t, p + k, len));
      res = r == 1 ? 1 : res == -1 || r == -1 ? -1 : 0;
    }
  }
  return res;
}

int xmt_srx_shape_hits(const struct srx_shape *sh, const UChar *text, int32_t p,
                       int32_t len) {
  int b = match_back(sh, sh->before, sh->nbefore, text, p, len);
  if (b == 0)
    return 0;
  return and3(b, match_fwd(sh, sh->after, 0, sh->nafter, text, p, len));
}
