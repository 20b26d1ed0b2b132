/* word_codes.c -- fewer codes in a Word paragraph: its pieces rewritten
 * before they become a source segment (word_units.c). A field's begin,
 * instruction and separate are the open of one pair whose close is its
 * end, its result the text between; codes side by side with no text
 * between (an empty bookmark, a field with no result, a pair around
 * codes alone) are one isolated code of all their bytes; and the codes
 * at either edge of the paragraph that hold no text (isolated ones, a
 * pair around the whole of it) are left out of the unit, written back
 * around its target as they were. Nothing is dropped: each piece's bytes
 * stay, in order, in the code it went into. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "word_private.h"

/* 1 when the element whose start tag is at xml (len bytes) has the
 * local name local. */
static int element_is(const char *xml, size_t len, const char *local) {
  size_t i = 1, from = 1;
  while (i < len && strchr(" \t\r\n/>", xml[i]) == NULL) {
    if (xml[i] == ':')
      from = i + 1;
    i++;
  }
  return len > 0 && xml[0] == '<' && i - from == strlen(local) &&
         memcmp(xml + from, local, i - from) == 0;
}

/* An isolated piece that holds a text box or a value that is a unit (a
 * picture's alternative text, a field's index entry), or a pair's open that
 * does (a link's tooltip): written through the part, whose units in it have
 * targets of their own, so never merged. */
static int boxed(const struct piece *p, const char *part) {
  if (p->merged || p->to <= p->from ||
      (p->type != PIECE_ISOLATED && p->type != PIECE_OPEN))
    return 0;
  return p->values ||
         (p->type == PIECE_ISOLATED &&
          memmem(part + p->from, p->to - p->from, "txbxContent", 11) != NULL) ||
         xmt_word_holds_values(part, p->from, p->to);
}

enum fld xmt_word_fld_kind(const char *xml, size_t len) {
  if (!element_is(xml, len, "fldChar"))
    return FLD_NONE;
  const char *gt = memchr(xml, '>', len);
  const char *t = memmem(xml, (size_t)(gt - xml), "fldCharType=", 12);
  if (t == NULL || t + 13 >= gt)
    return FLD_NONE;
  t += 13; /* past the quote */
  if (strncmp(t, "begin", 5) == 0)
    return FLD_BEGIN;
  if (strncmp(t, "separate", 8) == 0)
    return FLD_SEPARATE;
  return strncmp(t, "end", 3) == 0 ? FLD_END : FLD_NONE;
}

/* What a w:fldChar piece is. */
static enum fld fld_kind(const struct piece *p, const char *part) {
  if (p->type != PIECE_ISOLATED || p->merged)
    return FLD_NONE;
  return xmt_word_fld_kind(part + p->from, p->to - p->from);
}

/* Pieces [i, j] made one piece of type (their bytes are side by side in
 * the pool); its from and to still name the first element (the code's
 * ctype), merged says it is not written through the part. */
static void join(struct piece *ps, size_t *n, size_t i, size_t j,
                 enum piece_type type) {
  ps[i].len = ps[j].off + ps[j].len - ps[i].off;
  ps[i].type = type;
  ps[i].merged = 1;
  ps[i].pre_len = 0;
  memmove(&ps[i + 1], &ps[j + 1], (*n - j - 1) * sizeof *ps);
  *n -= j - i;
}

/* 1 when pieces [from, to) open and close their pairs alike. */
static int balanced(const struct piece *ps, size_t from, size_t to) {
  long depth = 0;
  for (size_t k = from; k < to && depth >= 0; k++)
    depth += ps[k].type == PIECE_OPEN ? 1 : ps[k].type == PIECE_CLOSE ? -1 : 0;
  return depth == 0;
}

/* Each field whose begin..separate are codes alone (pairs among them
 * too: a w:fldSimple in the instruction) and whose result pairs its codes
 * made one pair: the open begin..separate, the close its end. A field in
 * another's instruction is left as codes, which that one's open takes in
 * (the reader made the text there codes too). */
static void pair_fields(struct piece *ps, size_t *n, const char *part) {
  size_t begin[32], sep[32], depth = 0;
  for (size_t i = 0; i < *n; i++) {
    enum fld k = fld_kind(&ps[i], part);
    if (k == FLD_BEGIN) {
      if (depth == sizeof begin / sizeof begin[0])
        return; /* nested beyond reason: left as they are */
      begin[depth] = i;
      sep[depth++] = SIZE_MAX;
    } else if (k == FLD_SEPARATE && depth > 0 && sep[depth - 1] == SIZE_MAX) {
      sep[depth - 1] = i;
    } else if (k == FLD_END && depth > 0) {
      size_t b = begin[--depth], s = sep[depth], c = b;
      if (s == SIZE_MAX || (depth > 0 && sep[depth - 1] == SIZE_MAX))
        continue;
      while (c <= s && ps[c].type != PIECE_TEXT && !boxed(&ps[c], part))
        c++;
      if (c <= s || !balanced(ps, b, s + 1) || !balanced(ps, s + 1, i))
        continue;
      ps[i].type = PIECE_CLOSE;
      join(ps, n, b, s, PIECE_OPEN);
      i -= s - b;
    }
  }
}

/* Codes side by side merged, until none is left to merge: isolated ones
 * in a row, and a pair around nothing or one isolated code. */
static void merge_codes(struct piece *ps, size_t *n, const char *part) {
  for (int again = 1; again;) {
    again = 0;
    for (size_t i = 0; i < *n; i++) {
      size_t j = i;
      if (ps[i].type == PIECE_ISOLATED && !boxed(&ps[i], part)) {
        while (j + 1 < *n && ps[j + 1].type == PIECE_ISOLATED &&
               !boxed(&ps[j + 1], part))
          j++;
      } else if (ps[i].type == PIECE_OPEN && !boxed(&ps[i], part)) {
        j = i + 1;
        if (j < *n && ps[j].type == PIECE_ISOLATED && !boxed(&ps[j], part))
          j++;
        if (j >= *n || ps[j].type != PIECE_CLOSE)
          j = i;
      }
      if (j > i) {
        join(ps, n, i, j, PIECE_ISOLATED);
        again = 1;
      }
    }
  }
}

size_t xmt_word_fewer_codes(struct piece *ps, size_t n, const char *part) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) /* empty text (<w:t/>) parts nothing */
    if (ps[i].type != PIECE_TEXT || ps[i].len > 0)
      ps[m++] = ps[i];
  pair_fields(ps, &m, part);
  merge_codes(ps, &m, part);
  return m;
}

/* 1 when the pair opening at ps[a] closes at ps[z]. */
static int pair_ends_at(const struct piece *ps, size_t a, size_t z) {
  long depth = 0;
  for (size_t k = a; k <= z; k++) {
    depth += ps[k].type == PIECE_OPEN ? 1 : ps[k].type == PIECE_CLOSE ? -1 : 0;
    if (depth == 0)
      return k == z;
  }
  return 0;
}

void xmt_word_edges(const struct piece *ps, size_t n, size_t *lo, size_t *hi) {
  size_t a = 0, z = n;
  while (a < z) {
    if (ps[a].type == PIECE_ISOLATED)
      a++;
    else if (ps[z - 1].type == PIECE_ISOLATED)
      z--;
    else if (ps[a].type == PIECE_OPEN && ps[z - 1].type == PIECE_CLOSE &&
             pair_ends_at(ps, a, z - 1)) {
      a++;
      z--;
    } else
      break;
  }
  *lo = a;
  *hi = z;
}
