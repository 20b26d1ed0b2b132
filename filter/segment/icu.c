/* icu.c -- ICU MessageFormat messages in a unit's plain text, as Angular's
 * extractor writes its plurals and selects: the pieces an engine may
 * translate (the case bodies, and any text around the messages), so that
 * the rest (braces, variable, keyword, offset, selectors) never reaches
 * the engine and is written back byte for byte. As Angular reads them: no
 * apostrophe quoting; a variable is a name or an inline code. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "segmenter_private.h"

/* Deeper nesting than this is not taken for ICU (the text stays plain):
 * the parser recurses once per level. */
#define ICU_MAX_DEPTH 32

struct scan {
  struct icu_messages *icu;
  const char *t;
  size_t len;
  int depth, too_deep, nomem;
};

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A character of a name, a selector or a select key: anything but white
 * space and ICU's syntax characters (UTF-8 beyond ASCII included). */
static int name_char(char c) {
  return !is_space(c) && c != '{' && c != '}' && c != ',' && c != '#' &&
         c != '\'' && c != '\0';
}

static size_t skip_space(const struct scan *s, size_t p) {
  while (p < s->len && is_space(s->t[p]))
    p++;
  return p;
}

static size_t name_end(const struct scan *s, size_t p) {
  while (p < s->len && name_char(s->t[p]))
    p++;
  return p;
}

static int word_is(const struct scan *s, size_t a, size_t b, const char *w) {
  return b - a == strlen(w) && memcmp(s->t + a, w, b - a) == 0;
}

static int push(struct scan *s, struct xmt_span **v, size_t *n, size_t *cap,
                size_t a, size_t b) {
  struct xmt_span *g = xmt_grow_array(*v, cap, *n + 1, sizeof **v);
  if (g == NULL) {
    s->nomem = 1;
    return 0;
  }
  *v = g;
  g[*n].start = a;
  g[(*n)++].end = b;
  return 1;
}

static int piece(struct scan *s, size_t a, size_t b) {
  struct icu_messages *i = s->icu;
  return push(s, &i->pieces, &i->npieces, &i->pieces_cap, a, b);
}

/* A plural selector: =N, or one of CLDR's categories. */
static int plural_selector(const struct scan *s, size_t a, size_t b) {
  static const char *const cats[] = {"zero", "one",  "two",
                                     "few",  "many", "other"};
  if (b - a >= 2 && s->t[a] == '=') {
    size_t p = a + 1 + (s->t[a + 1] == '-');
    int digits = 0, dot = 0;
    for (; p < b; p++) {
      if (s->t[p] >= '0' && s->t[p] <= '9')
        digits++;
      else if (s->t[p] == '.' && !dot && digits > 0)
        dot = 1;
      else
        return 0;
    }
    return digits > 0 && s->t[b - 1] != '.';
  }
  for (size_t k = 0; k < sizeof cats / sizeof *cats; k++)
    if (word_is(s, a, b, cats[k]))
      return 1;
  return 0;
}

/* The end of a balanced {...} group at p (just past its '}'), or 0. */
static size_t group_end(const struct scan *s, size_t p) {
  size_t depth = 0;
  for (; p < s->len; p++) {
    if (s->t[p] == '{')
      depth++;
    else if (s->t[p] == '}' && --depth == 0)
      return p + 1;
  }
  return 0;
}

static size_t message(struct scan *s, size_t p);

/* A message's text from p up to its closing '}' (not taken), its nested
 * messages cut out of its pieces; the position of that '}', or 0. */
static size_t body(struct scan *s, size_t p) {
  size_t from = p;
  while (p < s->len && s->t[p] != '}') {
    if (s->t[p] != '{') {
      p++;
      continue;
    }
    /* The text before a nested message is a piece of its own. */
    size_t had = s->icu->npieces;
    if (!piece(s, from, p))
      return 0;
    size_t end = message(s, p);
    if (s->nomem || s->too_deep)
      return 0;
    if (end > 0) {
      from = p = end;
      continue;
    }
    s->icu->npieces = had;
    /* A simple argument ({name}, {n, number}): text of the body. */
    if ((p = group_end(s, p)) == 0)
      return 0;
  }
  if (p >= s->len || !piece(s, from, p))
    return 0;
  return p;
}

/* The cases of a message from p on, up to its closing '}': the position
 * just past it, or 0. */
static size_t cases(struct scan *s, size_t p, int plural) {
  size_t ncases = 0;
  for (;;) {
    p = skip_space(s, p);
    if (p >= s->len)
      return 0;
    if (s->t[p] == '}')
      return ncases > 0 ? p + 1 : 0;
    size_t a = p, b = name_end(s, p);
    if (b == a || (plural && !plural_selector(s, a, b)))
      return 0;
    p = skip_space(s, b);
    if (p >= s->len || s->t[p] != '{')
      return 0;
    size_t close = body(s, p + 1);
    if (close == 0)
      return 0;
    p = close + 1;
    ncases++;
  }
}

/* An ICU plural, select or selectordinal message starting at the '{' at
 * p: the position just past its '}', its pieces appended; 0 when it is
 * not one (the pieces appended are then dropped). */
static size_t message(struct scan *s, size_t p) {
  struct icu_messages *i = s->icu;
  size_t had = i->npieces, had_args = i->nargs;
  if (s->depth >= ICU_MAX_DEPTH) {
    s->too_deep = 1;
    return 0;
  }
  s->depth++;
  size_t q = skip_space(s, p + 1), end = 0;
  size_t arg_start = q, arg_end = name_end(s, q);
  q = skip_space(s, arg_end);
  /* No name: the variable is an inline code (unit.c wants one there). */
  if (q < s->len && s->t[q] == ',' &&
      (arg_end > arg_start ||
       push(s, &i->args, &i->nargs, &i->args_cap, p + 1, q))) {
    size_t ka = skip_space(s, q + 1), kb = name_end(s, ka);
    int plural =
        word_is(s, ka, kb, "plural") || word_is(s, ka, kb, "selectordinal");
    q = skip_space(s, kb);
    if ((plural || word_is(s, ka, kb, "select")) && q < s->len &&
        s->t[q] == ',') {
      q = skip_space(s, q + 1);
      if (plural && s->len - q > 7 && memcmp(s->t + q, "offset:", 7) == 0) {
        size_t d = skip_space(s, q + 7), de = d;
        while (de < s->len && s->t[de] >= '0' && s->t[de] <= '9')
          de++;
        q = de > d ? de : s->len;
      }
      end = cases(s, q, plural);
    }
  }
  s->depth--;
  if (end == 0) {
    i->npieces = had;
    i->nargs = had_args;
  }
  return end;
}

int xmt_icu_messages_scan(struct icu_messages *icu, const char *text,
                          size_t len) {
  struct scan s = {icu, text, len, 0, 0, 0};
  icu->npieces = icu->nargs = 0;
  /* Most texts hold no message: no brace, nothing to find. */
  if (len == 0 || memchr(text, '{', len) == NULL)
    return 0;
  size_t from = 0, found = 0, p = 0;
  while (p < len) {
    if (text[p] == '}')
      break; /* unbalanced: plain text */
    if (text[p] != '{') {
      p++;
      continue;
    }
    size_t had = icu->npieces;
    if (!piece(&s, from, p))
      return -1;
    size_t end = message(&s, p);
    if (s.nomem)
      return -1;
    if (s.too_deep)
      break;
    if (end > 0) {
      found++;
      from = p = end;
      continue;
    }
    icu->npieces = had;
    if ((p = group_end(&s, p)) == 0)
      break;
  }
  if (p < len || found == 0) {
    icu->npieces = icu->nargs = 0;
    return 0;
  }
  return piece(&s, from, len) ? 1 : -1;
}
