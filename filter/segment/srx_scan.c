/* srx_scan.c -- what a rule's beforebreak says about where it can match,
 * read from the pattern once when the rules are loaded, so that the
 * segmenter calls ICU only where a rule may hit:
 *   - characters one of which every match holds (a text without any of
 *     them is not searched);
 *   - literal strings one of which every match ends with (a position
 *     the text before does not end with is not tested);
 *   - for a pattern anchored with ^, the most UTF-16 units a match takes.
 * Each is a necessary condition only: ICU still decides. A pattern using
 * syntax not understood here gets no condition, and is tried everywhere. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>

#include "filter_private.h"
#include "segmenter_private.h"

enum {
  SET_MAX = 48,
  STR_MAX = SRX_END_MAX,
  REQ_MAX = 64,
  DEPTH_MAX = 16,
  CLS_MAX = 240
};

/* The inside of an ICU set: the character a match has at some place from
 * its end is one of it. Unknown: any character; known and empty: no match
 * is that long. */
struct cls {
  int known;
  size_t n;
  char s[CLS_MAX];
};

/* A finite set of short UTF-16 strings; n < 0: too many to keep. */
struct strset {
  int n;
  unsigned char len[SET_MAX];
  UChar s[SET_MAX][STR_MAX];
};

/* What is known of the matches of a piece of pattern. */
struct rx {
  int exact; /* every match is one of set */
  int tail;  /* (not exact) every match ends with one of set */
  struct strset set;
  int nreq; /* < 0 unknown; else every match holds one of req */
  UChar req[REQ_MAX];
  long max;           /* the most UTF-16 units of a match, < 0 unbounded */
  long minc, maxc;    /* the fewest and most code points (< 0 unbounded) */
  struct cls last[2]; /* last[i]: the (i+1)th code point from the end */
};

struct scan {
  const char *p;
  size_t i, n;
  int bad, depth;
};

static void cls_none(struct cls *c) {
  c->known = 1;
  c->n = 0;
}

static void cls_text(struct cls *c, const char *t, size_t n) {
  c->known = n < CLS_MAX;
  c->n = c->known ? n : 0;
  if (c->known)
    memcpy(c->s, t, n);
}

/* a or b, into a. */
static void cls_union(struct cls *a, const struct cls *b) {
  if (!b->known || a->n + b->n >= CLS_MAX) {
    a->known = 0;
    return;
  }
  if (a->known) {
    memcpy(a->s + a->n, b->s, b->n);
    a->n += b->n;
  }
}

static void set_one(struct rx *r, const UChar *s, int len) {
  r->set.n = 1;
  r->set.len[0] = (unsigned char)len;
  if (len > 0)
    memcpy(r->set.s[0], s, (size_t)len * sizeof *s);
}

/* A piece matching exactly s (len 0: the empty string). */
static void rx_exact(struct rx *r, const UChar *s, int len, long max) {
  memset(r, 0, sizeof *r);
  r->exact = 1;
  set_one(r, s, len);
  r->nreq = len > 0 ? 1 : -1;
  if (len > 0)
    r->req[0] = s[0];
  r->max = max;
  r->minc = r->maxc = len;
  cls_none(&r->last[0]);
  cls_none(&r->last[1]);
  if (len == 1) {
    char u[8];
    snprintf(u, sizeof u, "\\u%04X", (unsigned)s[0]);
    cls_text(&r->last[0], u, 6);
  }
}

/* One code point, of the set t[0, n) when t is given. */
static void rx_unknown(struct rx *r, long max, const char *t, size_t n) {
  memset(r, 0, sizeof *r);
  r->set.n = -1;
  r->nreq = -1;
  r->max = max;
  r->minc = 1;
  r->maxc = 1;
  cls_none(&r->last[1]);
  if (t != NULL)
    cls_text(&r->last[0], t, n);
}

static int has_empty(const struct strset *s) {
  for (int k = 0; k < s->n; k++)
    if (s->len[k] == 0)
      return 1;
  return 0;
}

/* The piece's matches all end with one of r->set, none of them empty. */
static int constrains(const struct rx *r) {
  return (r->exact || r->tail) && r->set.n > 0 && !has_empty(&r->set);
}

/* a x b into out; 0 when it does not fit. */
static int cross(const struct strset *a, const struct strset *b,
                 struct strset *out) {
  if (a->n < 0 || b->n < 0 || (long)a->n * b->n > SET_MAX)
    return 0;
  struct strset t;
  t.n = 0;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      int la = a->len[i], lb = b->len[j];
      if (la + lb > STR_MAX)
        return 0;
      memcpy(t.s[t.n], a->s[i], (size_t)la * sizeof(UChar));
      memcpy(t.s[t.n] + la, b->s[j], (size_t)lb * sizeof(UChar));
      t.len[t.n++] = (unsigned char)(la + lb);
    }
  *out = t;
  return 1;
}

static int join(struct strset *a, const struct strset *b) {
  if (a->n < 0 || b->n < 0 || a->n + b->n > SET_MAX)
    return 0;
  for (int j = 0; j < b->n; j++) {
    a->len[a->n] = b->len[j];
    memcpy(a->s[a->n++], b->s[j], b->len[j] * sizeof(UChar));
  }
  return 1;
}

static long add_max(long a, long b) {
  return a < 0 || b < 0 || a + b > 1000000 ? -1 : a + b;
}

/* The last code points of a followed by b, into a. */
static void concat_last(struct rx *a, const struct rx *b) {
  struct cls l0 = a->last[0], l1;
  cls_none(&l1);
  if (b->maxc < 0 || b->maxc >= 2)
    cls_union(&l1, &b->last[1]);
  if (b->minc <= 1 && b->maxc != 0)
    cls_union(&l1, &a->last[0]);
  if (b->minc == 0)
    cls_union(&l1, &a->last[1]);
  if (b->minc >= 1)
    l0 = b->last[0];
  else if (b->maxc != 0)
    cls_union(&l0, &b->last[0]);
  a->last[0] = l0;
  a->last[1] = l1;
  a->minc += b->minc;
  a->maxc = add_max(a->maxc, b->maxc);
}

/* a followed by b, into a. */
static void concat(struct rx *a, const struct rx *b) {
  concat_last(a, b);
  struct strset t;
  if (a->exact && b->exact && cross(&a->set, &b->set, &t)) {
    a->set = t;
  } else if (b->exact && b->set.n == 1 && b->set.len[0] == 0) {
    /* zero width: a's matches as they were */
  } else if (constrains(b)) {
    int both = (a->exact || constrains(a)) && b->exact;
    if (!both || !cross(&a->set, &b->set, &a->set))
      a->set = b->set;
    a->exact = 0;
    a->tail = 1;
  } else {
    a->exact = a->tail = 0;
    a->set.n = -1;
  }
  if (b->nreq >= 0 && (a->nreq < 0 || b->nreq < a->nreq)) {
    a->nreq = b->nreq;
    memcpy(a->req, b->req, (size_t)b->nreq * sizeof *b->req);
  }
  a->max = add_max(a->max, b->max);
}

/* a or b, into a. */
static void alternate(struct rx *a, const struct rx *b) {
  if (a->exact && b->exact && join(&a->set, &b->set)) {
    /* still exact */
  } else if (constrains(a) && constrains(b) && join(&a->set, &b->set)) {
    a->exact = 0;
    a->tail = 1;
  } else {
    a->exact = a->tail = 0;
    a->set.n = -1;
  }
  if (a->nreq < 0 || b->nreq < 0 || a->nreq + b->nreq > REQ_MAX) {
    a->nreq = -1;
  } else {
    memcpy(a->req + a->nreq, b->req, (size_t)b->nreq * sizeof *b->req);
    a->nreq += b->nreq;
  }
  a->max = a->max < 0 || b->max < 0 ? -1 : a->max > b->max ? a->max : b->max;
  a->minc = a->minc < b->minc ? a->minc : b->minc;
  a->maxc = a->maxc < 0 || b->maxc < 0 ? -1
            : a->maxc > b->maxc        ? a->maxc
                                       : b->maxc;
  cls_union(&a->last[0], &b->last[0]);
  cls_union(&a->last[1], &b->last[1]);
}

/* x{lo,hi} (hi < 0: unbounded), into x. */
static void repeat(struct rx *x, long lo, long hi) {
  if (lo == 1 && hi == 1)
    return;
  if (lo < 1 || !constrains(x)) {
    x->set.n = -1;
    x->tail = 0;
  } else {
    x->tail = 1;
  }
  x->exact = 0;
  if (lo < 1)
    x->nreq = -1;
  x->max = hi < 0 || x->max < 0 || x->max * hi > 1000000 ? -1 : x->max * hi;
  /* The last code point is that of the last iteration that is not empty;
   * the one before it is in that iteration or ends an earlier one. */
  struct cls l1;
  cls_none(&l1);
  if (x->maxc < 0 || x->maxc >= 2)
    cls_union(&l1, &x->last[1]);
  if (x->minc <= 1 && (hi < 0 || hi >= 2))
    cls_union(&l1, &x->last[0]);
  x->last[1] = l1;
  x->minc *= lo;
  x->maxc = hi < 0 || x->maxc < 0 || x->maxc * hi > 1000000 ? -1 : x->maxc * hi;
}

static int is_punct(int c) {
  return c > ' ' && c < 0x7F && !(c >= '0' && c <= '9') &&
         !(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z');
}

static int hex(int c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* One character of the pattern as a literal: a plain character, or an
 * escape standing for one. -1 when it is something else (the scan is left
 * where it was). */
static long literal(struct scan *sc, int in_class) {
  const unsigned char *p = (const unsigned char *)sc->p;
  size_t i = sc->i;
  if (p[i] == '\\') {
    int c = i + 1 < sc->n ? p[i + 1] : 0;
    long v = -1;
    size_t used = 2;
    if (is_punct(c))
      v = c;
    else if (c == 'n' || c == 't' || c == 'r' || c == 'f')
      v = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : '\f';
    else if (c == 'u' && i + 5 < sc->n) {
      v = 0;
      for (size_t k = 2; k < 6 && v >= 0; k++)
        v = hex(p[i + k]) < 0 ? -1 : v * 16 + hex(p[i + k]);
      used = 6;
    }
    if (v < 0 || (v >= 0xD800 && v <= 0xDFFF))
      return -1;
    sc->i += used;
    return v;
  }
  if (p[i] < 0x80) {
    if (strchr(in_class ? "[]\\-&^" : "\\[]().*+?{}|^$", p[i]) != NULL)
      return -1;
    sc->i++;
    return p[i];
  }
  uint32_t cp;
  size_t k = xmt_utf8_decode(p + i, sc->n - i, &cp);
  if (k == 0 || cp > 0xFFFF)
    return -1;
  sc->i += k;
  return (long)cp;
}

/* Skips a character class from its '[' to its ']', nested ones within. */
static void skip_class(struct scan *sc) {
  int depth = 0;
  while (sc->i < sc->n) {
    char c = sc->p[sc->i++];
    if (c == '\\')
      sc->i++;
    else if (c == '[')
      depth++;
    else if (c == ']' && --depth == 0)
      return;
  }
  sc->bad = 1;
}

/* [...]: exactly one of its characters when it lists a few (ranges of a
 * few included); otherwise one character, unknown. */
static void parse_class(struct scan *sc, struct rx *out) {
  size_t start = sc->i;
  UChar set[REQ_MAX];
  int n = 0, ok = 1;
  sc->i++;
  while (ok && sc->i < sc->n && sc->p[sc->i] != ']') {
    long a = literal(sc, 1), b = a;
    if (a >= 0 && sc->i + 1 < sc->n && sc->p[sc->i] == '-' &&
        sc->p[sc->i + 1] != ']') {
      sc->i++;
      b = literal(sc, 1);
    }
    if (a < 0 || b < a || n + (b - a + 1) > REQ_MAX) {
      ok = 0;
      break;
    }
    for (long c = a; c <= b; c++)
      set[n++] = (UChar)c;
  }
  if (ok && n > 0 && sc->i < sc->n) {
    sc->i++; /* ']' */
    rx_exact(out, &set[0], 1, 1);
    for (int k = 1; k < n; k++) {
      struct rx one;
      rx_exact(&one, &set[k], 1, 1);
      alternate(out, &one);
    }
    cls_text(&out->last[0], sc->p + start, sc->i - start);
    return;
  }
  sc->i = start;
  skip_class(sc);
  rx_unknown(out, 2, sc->p + start, sc->i - start);
}

static void parse_alt(struct scan *sc, struct rx *out);

/* (...): a group, or a look-around (zero width). Flags, named groups and
 * the like are not understood. */
static void parse_group(struct scan *sc, struct rx *out) {
  int around = 0;
  sc->i++;
  if (sc->i < sc->n && sc->p[sc->i] == '?') {
    const char *q = sc->p + sc->i + 1;
    if (*q == ':' || *q == '>') {
      sc->i += 2;
    } else if (*q == '=' || *q == '!') {
      around = 1;
      sc->i += 2;
    } else if (*q == '<' && (q[1] == '=' || q[1] == '!')) {
      around = 1;
      sc->i += 3;
    } else {
      sc->bad = 1;
      return;
    }
  }
  if (++sc->depth > DEPTH_MAX) {
    sc->bad = 1;
    return;
  }
  parse_alt(sc, out);
  sc->depth--;
  if (sc->i >= sc->n || sc->p[sc->i] != ')') {
    sc->bad = 1;
    return;
  }
  sc->i++;
  if (around)
    rx_exact(out, NULL, 0, 0);
}

static void parse_escape(struct scan *sc, struct rx *out) {
  long v = literal(sc, 0);
  if (v >= 0) {
    UChar u = (UChar)v;
    rx_exact(out, &u, 1, 1);
    return;
  }
  char c = sc->i + 1 < sc->n ? sc->p[sc->i + 1] : '\0';
  size_t start = sc->i;
  sc->i += 2;
  if (c != '\0' && strchr("bBAzZG", c) != NULL) {
    rx_exact(out, NULL, 0, 0);
  } else if (c != '\0' && strchr("dDsSwW", c) != NULL) {
    rx_unknown(out, 2, sc->p + start, 2);
  } else if (c != '\0' && strchr("hHvV", c) != NULL) {
    rx_unknown(out, 2, NULL, 0);
  } else if (c == 'p' || c == 'P') {
    if (sc->i < sc->n && sc->p[sc->i] == '{') {
      while (sc->i < sc->n && sc->p[sc->i] != '}')
        sc->i++;
      sc->bad |= sc->i >= sc->n;
    }
    sc->i++;
    rx_unknown(out, 2, sc->p + start, sc->i - start);
  } else {
    sc->bad = 1; /* back references, \Q...\E, \x, \N{...}: not read */
  }
}

static long number(struct scan *sc) {
  long v = -1;
  while (sc->i < sc->n && sc->p[sc->i] >= '0' && sc->p[sc->i] <= '9' &&
         v < 100000)
    v = (v < 0 ? 0 : v * 10) + (sc->p[sc->i++] - '0');
  return v;
}

/* A quantifier after an atom, if any; -2 in *lo when there is none. */
static void quantifier(struct scan *sc, long *lo, long *hi) {
  char c = sc->i < sc->n ? sc->p[sc->i] : '\0';
  *lo = -2;
  if (c == '*' || c == '+' || c == '?') {
    *lo = c == '+';
    *hi = c == '?' ? 1 : -1;
    sc->i++;
  } else if (c == '{') {
    sc->i++;
    *lo = number(sc);
    *hi = *lo;
    if (sc->i < sc->n && sc->p[sc->i] == ',') {
      sc->i++;
      *hi = number(sc);
    }
    if (*lo < 0 || sc->i >= sc->n || sc->p[sc->i] != '}') {
      sc->bad = 1;
      return;
    }
    sc->i++;
  } else {
    return;
  }
  if (sc->i < sc->n && (sc->p[sc->i] == '?' || sc->p[sc->i] == '+'))
    sc->i++;
}

static void parse_item(struct scan *sc, struct rx *out) {
  char c = sc->p[sc->i];
  if (c == '(') {
    parse_group(sc, out);
  } else if (c == '[') {
    parse_class(sc, out);
  } else if (c == '\\') {
    parse_escape(sc, out);
  } else if (c == '^' || c == '$') {
    sc->i++;
    rx_exact(out, NULL, 0, 0);
  } else if (c == '.') {
    sc->i++;
    rx_unknown(out, 2, NULL, 0);
  } else {
    long v = literal(sc, 0);
    if (v < 0) {
      sc->bad = 1;
      return;
    }
    UChar u = (UChar)v;
    rx_exact(out, &u, 1, 1);
  }
  if (sc->bad)
    return;
  long lo, hi;
  quantifier(sc, &lo, &hi);
  if (lo >= 0)
    repeat(out, lo, hi);
}

static void parse_seq(struct scan *sc, struct rx *out) {
  rx_exact(out, NULL, 0, 0);
  struct rx *item = malloc(sizeof *item);
  if (item == NULL) {
    sc->bad = 1;
    return;
  }
  while (!sc->bad && sc->i < sc->n && sc->p[sc->i] != '|' &&
         sc->p[sc->i] != ')') {
    parse_item(sc, item);
    if (!sc->bad)
      concat(out, item);
  }
  free(item);
}

static void parse_alt(struct scan *sc, struct rx *out) {
  parse_seq(sc, out);
  struct rx *b = malloc(sizeof *b);
  if (b == NULL) {
    sc->bad = 1;
    return;
  }
  while (!sc->bad && sc->i < sc->n && sc->p[sc->i] == '|') {
    sc->i++;
    parse_seq(sc, b);
    if (!sc->bad)
      alternate(out, b);
  }
  free(b);
}

/* Whether pattern's top level is one branch, starting with ^. */
static int anchored(const char *pattern) {
  if (pattern[0] != '^')
    return 0;
  int depth = 0;
  for (const char *q = pattern; *q != '\0'; q++) {
    if (*q == '\\' && q[1] != '\0')
      q++;
    else if (*q == '[') {
      struct scan sc = {pattern, (size_t)(q - pattern), strlen(pattern), 0, 0};
      skip_class(&sc);
      if (sc.bad)
        return 0;
      q = pattern + sc.i - 1;
    } else if (*q == '(')
      depth++;
    else if (*q == ')')
      depth--;
    else if (*q == '|' && depth == 0)
      return 0;
  }
  return 1;
}

/* --- Classes below 256, without ICU ----------------------------------------
 * The classes of a prefix are known in C at the characters below 256, as
 * bits, so that a rule whose last characters cannot be there costs no ICU
 * call. */

struct cscan {
  const char *p;
  size_t i, n;
};

static void bit_set(uint32_t *bits, unsigned c) {
  bits[c >> 5] |= (uint32_t)1 << (c & 31);
}

static int class_union(struct cscan *cs, uint32_t *bits, int nested);

/* \p{Name}, \P{Name} of a general category (mask), \d, \s, \S into bits;
 * -1 for other escapes. */
static int class_property(struct cscan *cs, uint32_t *bits) {
  const char *p = cs->p;
  char e = cs->i + 1 < cs->n ? p[cs->i + 1] : '\0';
  uint32_t mask = U_GC_ND_MASK;
  int neg = e == 'P';
  if (e == 's' || e == 'S') { /* ICU's \s: \p{White_Space} */
    cs->i += 2;
    for (UChar32 c = 0; c < 256; c++)
      if (u_hasBinaryProperty(c, UCHAR_WHITE_SPACE) == (e == 's'))
        bit_set(bits, (unsigned)c);
    return 0;
  }
  if (e == 'd') {
    cs->i += 2;
  } else if ((e == 'p' || e == 'P') && cs->i + 2 < cs->n &&
             p[cs->i + 2] == '{') {
    size_t a = cs->i + 3, b = a;
    while (b < cs->n && p[b] != '}')
      b++;
    char name[32];
    if (b >= cs->n || b - a >= sizeof name || b == a)
      return -1;
    memcpy(name, p + a, b - a);
    name[b - a] = '\0';
    int32_t m = u_getPropertyValueEnum(UCHAR_GENERAL_CATEGORY_MASK, name);
    if (m == UCHAR_INVALID_CODE)
      return -1;
    mask = (uint32_t)m;
    cs->i = b + 1;
  } else {
    return -1;
  }
  for (unsigned c = 0; c < 256; c++)
    if (((U_MASK(u_charType((UChar32)c)) & mask) != 0) != neg)
      bit_set(bits, c);
  return 0;
}

/* One item of a set: a literal or a range of them, a property, a set. */
static int class_item(struct cscan *cs, uint32_t *bits) {
  if (cs->p[cs->i] == '[')
    return class_union(cs, bits, 1);
  struct scan sc = {cs->p, cs->i, cs->n, 0, 0};
  long lo = literal(&sc, 1), hi;
  if (lo < 0)
    return cs->p[cs->i] == '\\' ? class_property(cs, bits) : -1;
  cs->i = sc.i;
  hi = lo;
  if (cs->i + 1 < cs->n && cs->p[cs->i] == '-' && cs->p[cs->i + 1] == ']') {
    cs->i++; /* "[a-]": ICU reads the '-' before the end as a literal */
    bit_set(bits, '-');
  } else if (cs->i + 1 < cs->n && cs->p[cs->i] == '-') {
    sc.i = cs->i + 1;
    hi = literal(&sc, 1);
    if (hi < lo)
      return -1;
    cs->i = sc.i;
  }
  for (long c = lo; c <= hi && c < 256; c++)
    bit_set(bits, (unsigned)c);
  return 0;
}

/* Items up to the end, or "[^...]" when nested, their union into bits; -1
 * for what is not read (operators such as && and --, POSIX names, other
 * escapes). */
static int class_union(struct cscan *cs, uint32_t *bits, int nested) {
  uint32_t in[8] = {0};
  int neg = 0;
  if (nested) {
    cs->i++;
    if (cs->i < cs->n && cs->p[cs->i] == '^') {
      neg = 1;
      cs->i++;
    }
  }
  while (cs->i < cs->n && cs->p[cs->i] != ']') {
    char c0 = cs->p[cs->i];
    if (c0 == '&' || c0 == '-' ||
        (c0 == '[' && cs->i + 1 < cs->n && cs->p[cs->i + 1] == ':'))
      return -1;
    if (class_item(cs, in) < 0)
      return -1;
  }
  if (nested) {
    if (cs->i >= cs->n)
      return -1;
    cs->i++;
  } else if (cs->i < cs->n) {
    return -1;
  }
  for (int k = 0; k < 8; k++)
    bits[k] |= neg ? ~in[k] : in[k];
  return 0;
}

/* The bits of the characters below 256 in the union of the items
 * cls[0, n); 0 when it is not read. */
int xmt_srx_class_bits(const char *cls, size_t n, uint32_t *bits) {
  struct cscan cs = {cls, 0, n};
  memset(bits, 0, 8 * sizeof *bits);
  return n > 0 && class_union(&cs, bits, 0) == 0;
}

int xmt_srx_class_has(const char *cls, size_t n, unsigned c) {
  uint32_t bits[8];
  if (c >= 256 || !xmt_srx_class_bits(cls, n, bits))
    return -1;
  return (bits[c >> 5] >> (c & 31)) & 1;
}

/* The members at or above U+0100 of atom[0, n), a literal or a set of
 * literals and ranges ("[.?!\u2026]"): their count (at most max), or -1
 * for any other atom, whose members there only ICU knows. */
int xmt_srx_atom_wide(const char *atom, size_t n, UChar *wide, int max) {
  struct scan sc = {atom, 0, n, 0, 0};
  int set = n > 2 && atom[0] == '[' && atom[n - 1] == ']', k = 0;
  size_t end = set ? n - 1 : n;
  sc.i = set ? 1 : 0;
  while (sc.i < end) {
    long a = literal(&sc, set), b = a;
    if (set && a >= 0 && sc.i + 1 < end && atom[sc.i] == '-') {
      sc.i++;
      b = literal(&sc, 1);
    }
    if (a < 0 || b < a || (!set && sc.i != end))
      return -1;
    for (long c = a < 256 ? 256 : a; c <= b; c++) {
      if (k == max)
        return -1;
      wide[k++] = (UChar)c;
    }
  }
  return sc.i == end && end > (size_t)set ? k : -1;
}

/* "(?<=[c1][c0])" (or "(?<=[c0])"): the code points every match ends with,
 * as ICU reads them, to turn most positions away in one step. */
static xmt_status make_prefix(const struct rx *r, struct srx_hints *h) {
  const struct cls *c0 = &r->last[0], *c1 = &r->last[1];
  if (r->minc < 1 || !c0->known || c0->n == 0)
    return XMT_OK;
  int two = r->minc >= 2 && c1->known && c1->n > 0;
  size_t n = c0->n + (two ? c1->n + 2 : 0) + 8;
  h->prefix = malloc(n);
  if (h->prefix == NULL)
    return XMT_ERR_NOMEM;
  if (two)
    snprintf(h->prefix, n, "(?<=[%.*s][%.*s])", (int)c1->n, c1->s, (int)c0->n,
             c0->s);
  else
    snprintf(h->prefix, n, "(?<=[%.*s])", (int)c0->n, c0->s);
  if (xmt_srx_class_bits(c0->s, c0->n, h->last[0]))
    h->nlast = two && xmt_srx_class_bits(c1->s, c1->n, h->last[1]) ? 2 : 1;
  return XMT_OK;
}

static unsigned pair_bit(UChar a, UChar b) {
  return ((unsigned)a * 31u + b) & (SRX_PAIR_SLOTS - 1);
}

typedef char srx_pair_slots_fit[SRX_PAIR_SLOTS == 1024 ? 1 : -1];

unsigned xmt_srx_pair_slot(UChar a, UChar b) { return pair_bit(a, b); }

int xmt_srx_may_end_slot(const struct srx_hints *h, unsigned slot) {
  return h->nends <= 0 || h->end_at[0] > 0 ||
         ((h->end_pair[slot >> 5] >> (slot & 31)) & 1);
}

static void set_pair(uint32_t *bits, UChar a, UChar b) {
  unsigned k = pair_bit(a, b);
  bits[k >> 5] |= (uint32_t)1 << (k & 31);
}

static int has_pair(const uint32_t *bits, UChar a, UChar b) {
  unsigned k = pair_bit(a, b);
  return (bits[k >> 5] >> (k & 31)) & 1;
}

/* end_at holds indexes into the set. */
typedef char srx_ends_fit[SET_MAX <= 255 ? 1 : -1];

static unsigned end_bucket(UChar a, UChar b) {
  return pair_bit(a, b) & (SRX_END_BUCKETS - 1);
}

/* r's strings into h->ends grouped by their last two units (see end_at):
 * a position is compared only with the ends that share them. */
static xmt_status copy_ends(const struct rx *r, struct srx_hints *h) {
  h->ends = calloc((size_t)r->set.n, sizeof *h->ends);
  h->ends_len = calloc((size_t)r->set.n, sizeof *h->ends_len);
  if (h->ends == NULL || h->ends_len == NULL)
    return XMT_ERR_NOMEM;
  unsigned char next[SRX_END_BUCKETS] = {0}, nshort = 0;
  for (int k = 0; k < r->set.n; k++) {
    const UChar *s = r->set.s[k];
    int n = r->set.len[k];
    if (n < 2)
      nshort++;
    else
      next[end_bucket(s[n - 2], s[n - 1])]++;
  }
  h->end_at[0] = nshort;
  for (int b = 0; b < SRX_END_BUCKETS; b++) {
    h->end_at[b + 1] = (unsigned char)(h->end_at[b] + next[b]);
    next[b] = h->end_at[b];
  }
  h->end_short = nshort > 0;
  nshort = 0;
  for (int k = 0; k < r->set.n; k++) {
    const UChar *s = r->set.s[k];
    int n = r->set.len[k], at = nshort;
    if (n < 2)
      nshort++;
    else {
      at = next[end_bucket(s[n - 2], s[n - 1])]++;
      set_pair(h->end_pair, s[n - 2], s[n - 1]);
    }
    memcpy(h->ends[at], s, (size_t)n * sizeof(UChar));
    h->ends_len[at] = (unsigned char)n;
  }
  return XMT_OK;
}

xmt_status xmt_srx_scan(const char *before, struct srx_hints *h) {
  memset(h, 0, sizeof *h);
  h->max16 = -1;
  struct rx *r = malloc(sizeof *r);
  if (r == NULL)
    return XMT_ERR_NOMEM;
  struct scan sc = {before, 0, strlen(before), 0, 0};
  parse_alt(&sc, r);
  xmt_status st = XMT_OK;
  if (!sc.bad && sc.i == sc.n) {
    if (r->nreq > 0) {
      h->req = malloc((size_t)r->nreq * sizeof *h->req);
      if (h->req == NULL)
        st = XMT_ERR_NOMEM;
      else
        memcpy(h->req, r->req, (size_t)r->nreq * sizeof *h->req);
      h->nreq = r->nreq;
    }
    if (st == XMT_OK && constrains(r)) {
      st = copy_ends(r, h);
      if (st == XMT_OK) /* never a count without its arrays */
        h->nends = r->set.n;
    }
    if (anchored(before))
      h->max16 = r->max;
    if (st == XMT_OK)
      st = make_prefix(r, h);
    h->selective = h->max16 >= 0 || h->nends > 0;
    for (int k = 0; st == XMT_OK && k < h->nends; k++)
      h->selective &= h->max16 >= 0 || h->ends_len[k] >= 2;
  }
  free(r);
  if (st != XMT_OK)
    xmt_srx_hints_free(h);
  return st;
}

void xmt_srx_hints_free(struct srx_hints *h) {
  free(h->prefix);
  free(h->req);
  free(h->ends);
  free(h->ends_len);
  memset(h, 0, sizeof *h);
  h->max16 = -1;
}

static int in_last(const uint32_t *bits, UChar c) {
  return c >= 256 || (bits[c >> 5] >> (c & 31)) & 1;
}

/* Whether the last code points before p may be in the prefix's classes
 * (nlast of them, 1 or 2): known below 256 only. */
static int may_end_in(const struct srx_hints *h, const UChar *text, int32_t p) {
  if (p < 1)
    return 1;
  if (!in_last(h->last[0], text[p - 1]))
    return 0;
  return h->nlast < 2 || p < 2 || in_last(h->last[1], text[p - 2]);
}

static int ends_with(const struct srx_hints *h, int k, const UChar *text,
                     int32_t p) {
  int32_t n = h->ends_len[k], j = 1;
  if (n > p)
    return 0;
  /* from the end: most differ one or two characters back */
  while (j <= n && text[p - j] == h->ends[k][n - j])
    j++;
  return j > n;
}

int xmt_srx_may_end(const struct srx_hints *h, const UChar *text, int32_t p) {
  if (h->max16 >= 0 && p > h->max16)
    return 0;
  if (h->nlast > 0 && !may_end_in(h, text, p))
    return 0;
  if (h->nends <= 0)
    return 1;
  for (int k = 0; k < h->end_at[0]; k++)
    if (ends_with(h, k, text, p))
      return 1;
  /* Most positions differ from every end in their last two units. */
  if (p < 2 || !has_pair(h->end_pair, text[p - 2], text[p - 1]))
    return 0;
  unsigned b = end_bucket(text[p - 2], text[p - 1]);
  for (int k = h->end_at[b]; k < h->end_at[b + 1]; k++)
    if (ends_with(h, k, text, p))
      return 1;
  return 0;
}
