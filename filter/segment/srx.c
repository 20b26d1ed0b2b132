/* srx.c -- SRX 2.0 sentence segmentation: the segmenter handle, choosing
 * the rules of a language, and finding sentence breaks the way Okapi's
 * SRXSegmenter does. Rule files are read by srx_load.c. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>

#include "filter_private.h"
#include "segmenter_private.h"

enum { UNDECIDED = 0, BREAK = 1 };

void xmt_srx_forget_language(xmt_segmenter *s) {
  free(s->rules_for);
  s->rules_for = NULL;
  s->nactive = 0;
  s->nflat = 0;
  if (s->early != NULL)
    uregex_close(s->early);
  s->early = NULL;
}

/* The no-break rules before the first break rule all come before any break
 * rule that hits: one alternation of their local forms answers for them
 * all in one match. Those whose hints say where they can end (strings,
 * or the classes of their last characters known in C) are left out of it:
 * tested one by one, they are skipped at most positions at no cost, as
 * are those of a C shape whose local form is not compiled yet.
 * Without it (ICU refused it, or it would hold one rule) each is tested
 * alone. */
static xmt_status build_early(xmt_segmenter *s) {
  size_t b0 = 0;
  while (b0 < s->nflat && !s->flat[b0]->is_break)
    b0++;
  s->first_break_rule = b0;
  memset(s->in_early, 0, s->nflat);
  struct xmt_buf pat = {0};
  xmt_status st = XMT_OK;
  size_t n = 0;
  for (size_t g = 0; g < b0 && st == XMT_OK; g++) {
    const struct srx_rule *r = s->flat[g];
    if (r->local == NULL || r->hints.selective || r->hints.nlast > 0)
      continue;
    UErrorCode ust = U_ZERO_ERROR;
    int32_t len = 0;
    const UChar *p = uregex_pattern(r->local, &len, &ust);
    if (U_FAILURE(ust))
      break;
    static const UChar bar = 0x7C; /* | */
    if (n++ > 0)
      st = xmt_buf_append(&pat, &bar, sizeof bar);
    if (st == XMT_OK)
      st = xmt_buf_append(&pat, p, (size_t)len * sizeof(UChar));
    s->in_early[g] = 1;
  }
  if (st == XMT_OK && n > 1) {
    UParseError pe;
    UErrorCode ust = U_ZERO_ERROR;
    s->early = uregex_open((const UChar *)pat.data,
                           (int32_t)(pat.len / sizeof(UChar)), 0, &pe, &ust);
    if (U_FAILURE(ust))
      s->early = NULL;
  }
  if (s->early == NULL)
    memset(s->in_early, 0, s->nflat);
  xmt_buf_free(&pat);
  return st;
}

/* Fills req_low and req_known for the rules searched through the text. */
static void index_required(xmt_segmenter *s) {
  memset(s->req_low, 0, sizeof s->req_low);
  s->req_known = 0;
  s->nsearched = 0;
  for (size_t g = 0; g < s->nflat && s->nsearched < 32; g++) {
    const struct srx_rule *r = s->flat[g];
    if (!r->is_break && r->has_local)
      continue;
    uint32_t bit = (uint32_t)1 << s->nsearched;
    s->searched[s->nsearched++] = r;
    if (r->hints.nreq <= 0)
      continue;
    s->req_known |= bit;
    for (int j = 0; j < r->hints.nreq; j++)
      if (r->hints.req[j] < 256)
        s->req_low[r->hints.req[j]] |= bit;
  }
}

/* Fills end_low: by the character below 256 before a position, the bits
 * of the rules among the first 32 of flat that their hints let end there
 * (xmt_srx_may_end's first test, once a language, not once a rule and a
 * position). */
static void index_ends(xmt_segmenter *s) {
  memset(s->end_low, 0, sizeof s->end_low);
  memset(s->end_pair, 0, sizeof s->end_pair);
  for (size_t g = 0; g < s->nflat && g < 32; g++) {
    const struct srx_hints *h = &s->flat[g]->hints;
    for (unsigned c = 0; c < 256; c++) {
      int may = h->nlast <= 0 || ((h->last[0][c >> 5] >> (c & 31)) & 1);
      if (may && h->nends > 0) {
        may = 0;
        for (int k = 0; k < h->nends && !may; k++)
          may = h->ends_len[k] == 0 || h->ends[k][h->ends_len[k] - 1] == c;
      }
      if (may)
        s->end_low[c] |= (uint32_t)1 << g;
    }
    for (unsigned k = 0; k < SRX_PAIR_SLOTS; k++)
      if (xmt_srx_may_end_slot(h, k))
        s->end_pair[k] |= (uint32_t)1 << g;
  }
}

/* Fills tested_low once early is built. */
static void index_tested(xmt_segmenter *s) {
  s->tested_low = 0;
  for (size_t g = 0; g < s->nflat && g < 32; g++) {
    const struct srx_rule *r = s->flat[g];
    if (!r->is_break && r->has_local && !s->in_early[g])
      s->tested_low |= (uint32_t)1 << g;
  }
}

/* The bits of req_known whose rules need unit c >= 256 (see req_low). */
static uint32_t required_wide(const xmt_segmenter *s, UChar c) {
  uint32_t seen = 0;
  for (unsigned k = 0; k < s->nsearched; k++) {
    const struct srx_rule *r = s->searched[k];
    uint32_t bit = (uint32_t)1 << k;
    for (int j = 0; j < r->hints.nreq && !(seen & bit); j++)
      if (r->hints.req[j] == c)
        seen |= bit;
  }
  return seen;
}

/* --- Handle ------------------------------------------------------------- */

xmt_segmenter *xmt_segmenter_new(void) {
  xmt_segmenter *s = calloc(1, sizeof *s);
  if (s == NULL)
    return NULL;
  if (xmt_srx_load_default(s) != XMT_OK) {
    xmt_segmenter_free(s);
    return NULL;
  }
  return s;
}

void xmt_segmenter_free(xmt_segmenter *s) {
  if (s == NULL)
    return;
  xmt_srx_doc_free(&s->doc);
  xmt_error_clear(&s->err);
  free(s->lang);
  xmt_srx_forget_language(s);
  free(s->active);
  if (s->icu != NULL)
    ubrk_close(s->icu);
  free(s->icu_lang);
  free(s->u16);
  free(s->u8_at);
  free(s->decided);
  free(s->first_break);
  free(s->first_keep);
  free(s->hit);
  free(s->kept);
  free(s->flat);
  free(s->in_early);
  free(s->text_on);
  free(s->breaks);
  free(s->spans);
  free(s->unit_codes);
  free(s->unit_stack);
  free(s->unit_isolated);
  free(s->unit_sub);
  free(s->unit_spans);
  free(s->unit_sources);
  free(s->messages.pieces);
  free(s->messages.args);
  free(s);
}

xmt_status xmt_segmenter_set_flags(xmt_segmenter *s, unsigned flags) {
  if (s == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  if (flags & ~(XMT_SEGMENTER_NO_SENTENCES | XMT_SEGMENTER_NO_ICU))
    return xmt_error_set(&s->err, XMT_ERR_USAGE, "unknown segmenter flags 0x%x",
                         flags);
  s->flags = flags;
  return XMT_OK;
}

const struct xmt_error *xmt_segmenter_error(const xmt_segmenter *s) {
  return s != NULL ? &s->err.pub : NULL;
}

xmt_status xmt_segmenter_set_language(xmt_segmenter *s, const char *lang) {
  if (s == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  if (lang == NULL || lang[0] == '\0')
    return xmt_error_set(&s->err, XMT_ERR_USAGE, "no language given");
  char *copy = xmt_strdup(lang);
  if (copy == NULL)
    return xmt_error_nomem(&s->err);
  free(s->lang);
  s->lang = copy;
  return XMT_OK;
}

/* Picks the languagerules of lang through the maprules; kept until the
 * language or the rules change, so a document in one language selects once. */
static xmt_status select_rules(xmt_segmenter *s, const char *lang) {
  if (s->rules_for != NULL && strcmp(s->rules_for, lang) == 0)
    return XMT_OK;
  xmt_srx_forget_language(s);
  UChar tag[128];
  int32_t n16 = 0;
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8(tag, (int32_t)(sizeof tag / sizeof *tag), &n16, lang, -1, &st);
  if (U_FAILURE(st))
    return xmt_error_set(&s->err, XMT_ERR_USAGE, "bad language tag \"%.40s\"",
                         lang);
  const struct srx_doc *d = &s->doc;
  if (s->active_cap < d->nmaps) {
    size_t *a = xmt_grow_array(s->active, &s->active_cap, d->nmaps, sizeof *a);
    if (a == NULL)
      return XMT_ERR_NOMEM;
    s->active = a;
  }
  for (size_t i = 0; i < d->nmaps; i++) {
    int hit = xmt_srx_map_matches(s, &d->maps[i], lang, tag, n16);
    if (hit < 0) {
      s->nactive = 0;
      return s->err.pub.message != NULL ? s->err.pub.status
                                        : xmt_error_nomem(&s->err);
    }
    if (!hit)
      continue;
    int seen = 0;
    for (size_t k = 0; k < s->nactive; k++)
      seen |= s->active[k] == d->maps[i].langrule;
    if (!seen)
      s->active[s->nactive++] = d->maps[i].langrule;
    if (!d->cascade)
      break;
  }
  size_t nflat = 0;
  for (size_t k = 0; k < s->nactive; k++) {
    xmt_status cst = xmt_srx_compile_langrule(s, &d->langrules[s->active[k]]);
    if (cst != XMT_OK) {
      s->nactive = 0;
      return cst;
    }
    nflat += d->langrules[s->active[k]].nrules;
  }
  if (nflat > s->flat_cap) {
    struct srx_rule **f =
        xmt_grow_array(s->flat, &s->flat_cap, nflat, sizeof *f);
    if (f == NULL) {
      s->nactive = 0;
      return XMT_ERR_NOMEM;
    }
    s->flat = f;
  }
  unsigned char *e = realloc(s->in_early, nflat + 1);
  if (e != NULL)
    s->in_early = e;
  unsigned char *t = e != NULL ? realloc(s->text_on, nflat + 1) : NULL;
  if (t == NULL) {
    s->nactive = 0;
    return XMT_ERR_NOMEM;
  }
  s->text_on = t;
  s->nflat = 0;
  for (size_t k = 0; k < s->nactive; k++) {
    struct srx_langrule *lr = &d->langrules[s->active[k]];
    for (size_t j = 0; j < lr->nrules; j++)
      s->flat[s->nflat++] = &lr->rules[j];
  }
  index_required(s);
  index_ends(s);
  if (build_early(s) != XMT_OK || (s->rules_for = xmt_strdup(lang)) == NULL) {
    xmt_srx_forget_language(s);
    return XMT_ERR_NOMEM;
  }
  index_tested(s);
  return XMT_OK;
}

/* --- Finding breaks ------------------------------------------------------- */

static xmt_status grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return XMT_OK;
  void *q = xmt_grow_array(*p, cap, need, size);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  *p = q;
  return XMT_OK;
}

#define NONE UINT32_MAX
#define ICU_RULE (UINT32_MAX - 1) /* after every SRX rule */

/* Grows a per-index array of rules, its new part NONE: between runs every
 * index is NONE, and a run puts back those it set. */
static xmt_status grow_marks(uint32_t **p, size_t *cap, size_t need) {
  size_t old = *cap;
  if (grow((void **)p, cap, need, sizeof **p) != XMT_OK)
    return XMT_ERR_NOMEM;
  if (*cap > old)
    memset(*p + old, 0xFF, (*cap - old) * sizeof **p);
  return XMT_OK;
}

/* 1 when the eight bytes at p are ASCII. */
static int ascii8(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return (w & UINT64_C(0x8080808080808080)) == 0;
}

/* Converts the ASCII bytes of text from i until stop or a byte that is
 * not ASCII, the common case, in a loop of its own; returns where it
 * stopped. While the text maps to itself (same), u8_at is not written:
 * its stores took a fifth of a run. Eight bytes known ASCII at once are
 * converted without a test each, unrolled (gcc -O2 keeps the loop). */
static size_t ascii_run(xmt_segmenter *s, const unsigned char *p, size_t i,
                        size_t stop, size_t *k, int flowed, int same) {
  size_t j = *k;
  uint32_t seen = 0;
  UChar *u = s->u16;
  size_t *at = s->u8_at;
  const uint32_t *req = s->req_low;
  /* apart, so that the common loops look at each byte once */
  if (same && !flowed) {
    for (; i + 8 <= stop && ascii8(p + i); i += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; b++) {
        u[i + b] = p[i + b];
        seen |= req[p[i + b]];
      }
    for (; i < stop && p[i] < 0x80; i++) {
      u[i] = p[i];
      seen |= req[p[i]];
    }
  } else if (same) {
    for (; i + 8 <= stop && ascii8(p + i); i += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; b++) {
        UChar c = p[i + b] == '\n' || p[i + b] == '\r' ? 0x20 : p[i + b];
        u[i + b] = c;
        seen |= req[c];
      }
    for (; i < stop && p[i] < 0x80; i++) {
      UChar c = p[i] == '\n' || p[i] == '\r' ? 0x20 : p[i];
      u[i] = c;
      seen |= req[c];
    }
  } else if (!flowed) {
    for (; i + 8 <= stop && ascii8(p + i); i += 8, j += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; b++) {
        at[j + b] = i + b;
        u[j + b] = p[i + b];
        seen |= req[p[i + b]];
      }
    for (; i < stop && p[i] < 0x80; i++, j++) {
      at[j] = i;
      u[j] = p[i];
      seen |= req[p[i]];
    }
  } else {
    for (; i + 8 <= stop && ascii8(p + i); i += 8, j += 8)
#pragma GCC unroll 8
      for (int b = 0; b < 8; b++) {
        UChar c = p[i + b] == '\n' || p[i + b] == '\r' ? 0x20 : p[i + b];
        at[j + b] = i + b;
        u[j + b] = c;
        seen |= req[c];
      }
    for (; i < stop && p[i] < 0x80; i++, j++) {
      UChar c = p[i] == '\n' || p[i] == '\r' ? 0x20 : p[i];
      at[j] = i;
      u[j] = c;
      seen |= req[c];
    }
  }
  s->seen |= seen;
  *k = same ? i : j;
  return i;
}

/* The text as the rules see it, in UTF-16 with a map back to byte offsets;
 * isolated codes become spaces when the rules say so, line breaks when the
 * text is flowed (the rules' line break is then no break). In the same
 * pass, seen gets the bits of req_known whose rules may match in the text:
 * it holds one of their required characters. */
static xmt_status to_rule_text(xmt_segmenter *s, const char *text, size_t len,
                               const size_t *codes, size_t ncodes, int flowed,
                               int32_t *len16) {
  size_t extra = s->doc.isolated_as_space ? ncodes : 0;
  size_t need = len + extra + 1;
  if (need > (size_t)INT32_MAX / 2)
    return xmt_error_set(&s->err, XMT_ERR_USAGE,
                         "text too long to segment (%zu bytes)", len);
  if (grow((void **)&s->u16, &s->u16_cap, need, sizeof *s->u16) != XMT_OK ||
      grow((void **)&s->u8_at, &s->u8_at_cap, need, sizeof *s->u8_at) !=
          XMT_OK ||
      grow((void **)&s->decided, &s->decided_cap, need, 1) != XMT_OK)
    return XMT_ERR_NOMEM;
  if (grow_marks(&s->first_break, &s->first_break_cap, need) != XMT_OK ||
      grow_marks(&s->first_keep, &s->first_keep_cap, need) != XMT_OK)
    return XMT_ERR_NOMEM;
  const unsigned char *p = (const unsigned char *)text;
  size_t i = 0, k = 0, c = 0;
  int same = 1; /* k == i so far: u8_at[k] would be k */
  s->seen = 0;
  while (i < len || (extra && c < ncodes)) {
    if (same && extra && c < ncodes && (codes[c] <= i || i >= len))
      same = 0, s->u8_same = k;
    if (extra && c < ncodes && (codes[c] <= i || i >= len)) {
      s->u8_at[k] = i;
      s->u16[k++] = 0x20;
      s->seen |= s->req_low[0x20];
      c++;
      continue;
    }
    size_t stop = extra && c < ncodes && codes[c] < len ? codes[c] : len;
    if ((i = ascii_run(s, p, i, stop, &k, flowed, same)) == stop)
      continue;
    if (same)
      same = 0, s->u8_same = k;
    uint32_t cp = p[i];
    size_t n = xmt_utf8_decode(p + i, len - i, &cp);
    if (n == 0)
      return xmt_error_set(&s->err, XMT_ERR_ENCODING,
                           "invalid UTF-8 at byte %zu", i);
    s->u8_at[k] = i;
    if (cp > 0xFFFF) {
      s->u16[k++] = (UChar)(0xD7C0 + (cp >> 10));
      s->u8_at[k] = i;
      s->u16[k++] = (UChar)(0xDC00 | (cp & 0x3FF));
      s->seen |=
          required_wide(s, s->u16[k - 2]) | required_wide(s, s->u16[k - 1]);
    } else {
      s->u16[k++] = (UChar)cp;
      s->seen |= cp < 256 ? s->req_low[cp] : required_wide(s, (UChar)cp);
    }
    i += n;
  }
  if (same)
    s->u8_same = k;
  s->u8_at[k] = len;
  *len16 = (int32_t)k;
  return XMT_OK;
}

/* Leaves re with no text: the next call converts into s->u16 anew. */
static void unset_text(xmt_segmenter *s, URegularExpression *re) {
  UErrorCode ignored = U_ZERO_ERROR;
  uregex_setText(re, s->u16, 0, &ignored);
}

/* XMT_OK, or the error of a regular expression whose call left st. */
static xmt_status regex_status(xmt_segmenter *s, UErrorCode st) {
  if (st == U_MEMORY_ALLOCATION_ERROR)
    return xmt_error_nomem(&s->err);
  if (U_FAILURE(st))
    return xmt_error_set(&s->err, XMT_ERR_INTERNAL,
                         "regular expression failed: %s", u_errorName(st));
  return XMT_OK;
}

/* first[n] = g, n noted to be put back to NONE (and, for a break rule,
 * to be decided). */
static xmt_status mark(xmt_segmenter *s, uint32_t *first, int32_t n,
                       uint32_t g) {
  int brk = first == s->first_break;
  int32_t **at = brk ? &s->hit : &s->kept;
  size_t *len = brk ? &s->nhit : &s->nkept;
  if (grow((void **)at, brk ? &s->hit_cap : &s->kept_cap, *len + 1,
           sizeof **at) != XMT_OK)
    return XMT_ERR_NOMEM;
  (*at)[(*len)++] = n;
  first[n] = g;
  s->any_break |= brk;
  return XMT_OK;
}

/* Searches rule g through the text: Okapi searches from 0, and from each
 * hit on, so matches may overlap; first[n] keeps the first rule to hit n.
 * Where Okapi would stop (a hit that does not advance), the search goes on
 * one character further, so rules with an empty beforebreak apply at every
 * position their afterbreak matches. Each find is the C form's where it is
 * sure, else ICU's. */
static xmt_status search_rule(xmt_segmenter *s, struct srx_rule *r, uint32_t g,
                              uint32_t *first, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  int on = 0; /* ICU has the text */
  int32_t start = 0, n = 0;
  xmt_status ms = XMT_OK;
  while (U_SUCCESS(st) && start <= len16) {
    int c = r->shape != NULL
                ? xmt_srx_shape_find(r->shape, s->u16, start, len16, &n)
                : -1;
    if (c < 0) {
      if (!on && xmt_srx_rule_whole(s, r, &st) != NULL)
        uregex_setText(r->re, s->u16, len16, &st);
      if (U_FAILURE(st))
        break;
      on = 1;
      s->regex_calls++;
      c = uregex_find(r->re, start, &st);
      n = c ? uregex_end(r->re, 1, &st) : 0;
    }
    if (!c || U_FAILURE(st))
      break;
    if (n < len16 && first[n] == NONE && (ms = mark(s, first, n, g)) != XMT_OK)
      break;
    if (n > start)
      start = n;
    else
      start = n + (n < len16 && U16_IS_LEAD(s->u16[n]) ? 2 : 1);
  }
  if (on)
    unset_text(s, r->re);
  return ms != XMT_OK ? ms : regex_status(s, st);
}

/* useIcu4JBreakRules: ICU's sentence breaks come after every SRX rule, so
 * the rules act as exceptions to them; each break moves back before the
 * whitespace ICU leaves in front of it. */
static xmt_status apply_icu(xmt_segmenter *s, const char *lang, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  if (s->icu == NULL || s->icu_lang == NULL || strcmp(s->icu_lang, lang)) {
    char locale[96];
    int32_t n = uloc_forLanguageTag(lang, locale, sizeof locale, NULL, &st);
    if (U_FAILURE(st) || n >= (int32_t)sizeof locale) {
      st = U_ZERO_ERROR;
      snprintf(locale, sizeof locale, "und");
    }
    if (s->icu != NULL)
      ubrk_close(s->icu);
    free(s->icu_lang);
    s->icu_lang = xmt_strdup(lang);
    s->icu = ubrk_open(UBRK_SENTENCE, locale, NULL, 0, &st);
    if (U_FAILURE(st) || s->icu_lang == NULL) {
      s->icu = NULL;
      return XMT_ERR_NOMEM;
    }
  }
  ubrk_setText(s->icu, s->u16, len16, &st);
  if (U_FAILURE(st))
    return XMT_ERR_INTERNAL;
  xmt_status ms = XMT_OK;
  for (int32_t b = ubrk_next(s->icu); b != UBRK_DONE && b < len16;
       b = ubrk_next(s->icu)) {
    while (b > 0 && u_isWhitespace(s->u16[b - 1]))
      b--;
    if (s->first_break[b] == NONE &&
        (ms = mark(s, s->first_break, b, ICU_RULE)) != XMT_OK)
      break;
  }
  ubrk_setText(s->icu, s->u16, 0, &st);
  return ms;
}

/* Whether the local form of rule g hits at p; gives it the text first. */
static int local_hits(xmt_segmenter *s, size_t g, URegularExpression *re,
                      int32_t p, int32_t len16, UErrorCode *ust) {
  if (!s->text_on[g]) {
    uregex_setText(re, s->u16, len16, ust);
    s->text_on[g] = 1;
  }
  s->regex_calls++;
  return uregex_lookingAt(re, p, ust) && U_SUCCESS(*ust);
}

/* Whether no-break rule g, one the hints let end at p, hits there. */
static int rule_kept(xmt_segmenter *s, uint32_t g, int32_t p, int32_t len16,
                     UErrorCode *ust) {
  struct srx_rule *r = s->flat[g];
  int c =
      r->shape != NULL ? xmt_srx_shape_hits(r->shape, s->u16, p, len16) : -1;
  if (c == 1)
    return 1;
  return c < 0 && xmt_srx_rule_local(s, r, ust) != NULL &&
         local_hits(s, g, r->local, p, len16, ust);
}

/* Whether a no-break rule before fb (the first break rule to hit p) hits
 * at p. The early alternation answers for the rules it holds (its flag
 * is kept at index nflat of text_on); the others are tested alone where
 * their hints let them end: among the first 32, only those whose bits the
 * last one and two units before p leave, in order. */
static int kept_at(xmt_segmenter *s, int32_t p, uint32_t fb, int32_t len16,
                   UErrorCode *ust) {
  if (s->early != NULL && local_hits(s, s->nflat, s->early, p, len16, ust))
    return 1;
  uint32_t may =
      p > 0 && s->u16[p - 1] < 256 ? s->end_low[s->u16[p - 1]] : UINT32_MAX;
  if (p > 1)
    may &= s->end_pair[xmt_srx_pair_slot(s->u16[p - 2], s->u16[p - 1])];
  uint32_t lim = fb < s->nflat ? fb : (uint32_t)s->nflat;
  may &= s->tested_low & (lim >= 32 ? UINT32_MAX : ((uint32_t)1 << lim) - 1);
  for (uint32_t g = 0; may != 0 && U_SUCCESS(*ust); g++, may >>= 1)
    if ((may & 1) && xmt_srx_may_end(&s->flat[g]->hints, s->u16, p) &&
        rule_kept(s, g, p, len16, ust))
      return 1;
  for (uint32_t g = 32; g < lim && U_SUCCESS(*ust); g++) {
    struct srx_rule *r = s->flat[g];
    if (r->is_break || !r->has_local || s->in_early[g] ||
        !xmt_srx_may_end(&r->hints, s->u16, p))
      continue;
    if (rule_kept(s, g, p, len16, ust))
      return 1;
  }
  return 0;
}

static int by_index(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Decides the positions where a break rule hit, in order, leaving in hit
 * those where the break stands. */
static xmt_status decide(xmt_segmenter *s, int32_t len16) {
  uint32_t *fb = s->first_break;
  const uint32_t *fk = s->first_keep;
  if (s->nhit > 1) /* hit is NULL until a text has a hit */
    qsort(s->hit, s->nhit, sizeof *s->hit, by_index);
  memset(s->text_on, 0, s->nflat + 1);
  UErrorCode ust = U_ZERO_ERROR;
  size_t nb = 0;
  for (size_t k = 0; k < s->nhit; k++) {
    int32_t p = s->hit[k];
    uint32_t b = fb[p];
    fb[p] = NONE;
    if (p >= 1 && U_SUCCESS(ust) && fk[p] >= b &&
        !kept_at(s, p, b, len16, &ust))
      s->hit[nb++] = p;
  }
  s->nhit = nb;
  for (size_t g = 0; g < s->nflat; g++)
    if (s->text_on[g])
      unset_text(s, s->flat[g]->local);
  if (s->text_on[s->nflat])
    unset_text(s, s->early);
  return regex_status(s, ust);
}

/* Decides the positions: the first rule to hit one decides. Only where a
 * break rule hits is there anything to decide, so break rules (and the
 * no-break rules of unbounded beforebreak) are searched through the text,
 * and the other no-break rules are only tested at those positions. The
 * test asks whether the beforebreak matches up to the position and the
 * afterbreak from it, which finds what Okapi's search finds except for
 * matches that overlap in contrived ways. Leaves in hit the breaks, in
 * order, and every index of first_break and first_keep NONE. */
static xmt_status apply_rules(xmt_segmenter *s, const char *lang,
                              int32_t len16) {
  uint32_t *fb = s->first_break, *fk = s->first_keep;
  xmt_status st = XMT_OK;
  s->nhit = s->nkept = 0;
  s->any_break = 0;
  /* A rule whose required characters are not in the text is not
   * searched: most texts hold no CJK full stop, many no full stop. */
  uint32_t seen = s->seen;
  unsigned k = 0;
  for (size_t g = 0; g < s->nflat && st == XMT_OK; g++) {
    struct srx_rule *r = s->flat[g];
    if (!r->is_break && r->has_local)
      continue;
    uint32_t bit = k < 32 ? (uint32_t)1 << k : 0;
    k++;
    if (!(s->req_known & bit) || (seen & bit))
      st = search_rule(s, r, (uint32_t)g, r->is_break ? fb : fk, len16);
  }
  if (st == XMT_OK && s->doc.icu_breaks)
    st = apply_icu(s, lang, len16);
  if (st == XMT_OK)
    st = decide(s, len16);
  for (size_t i = 0; i < s->nhit && st != XMT_OK; i++)
    fb[s->hit[i]] = NONE;
  for (size_t i = 0; i < s->nkept; i++)
    fk[s->kept[i]] = NONE;
  s->nkept = 0;
  return st;
}

/* okpsrx:rangeRule: a match is one segment of its own, whatever the rules
 * said inside it. The breaks in hit are redone with it. */
static xmt_status apply_mask(xmt_segmenter *s, int32_t len16) {
  UErrorCode st = U_ZERO_ERROR;
  URegularExpression *re = s->doc.mask;
  memset(s->decided, UNDECIDED, (size_t)len16 + 1);
  for (size_t k = 0; k < s->nhit; k++)
    s->decided[s->hit[k]] = BREAK;
  uregex_setText(re, s->u16, len16, &st);
  while (U_SUCCESS(st) && uregex_findNext(re, &st)) {
    int32_t a = uregex_start(re, 0, &st), b = uregex_end(re, 0, &st);
    if (U_FAILURE(st))
      break;
    for (int32_t i = a; i < b; i++)
      s->decided[i] = UNDECIDED;
    if (a > 0)
      s->decided[a] = BREAK;
    if (b < len16)
      s->decided[b] = BREAK;
  }
  unset_text(s, re);
  s->nhit = 0;
  for (int32_t i = 1; U_SUCCESS(st) && i < len16; i++)
    if (s->decided[i] == BREAK) {
      if (grow((void **)&s->hit, &s->hit_cap, s->nhit + 1, sizeof *s->hit) !=
          XMT_OK)
        return XMT_ERR_NOMEM;
      s->hit[s->nhit++] = i;
    }
  return U_FAILURE(st) ? XMT_ERR_INTERNAL : XMT_OK;
}

/* Whitespace as Java's Character.isWhitespace, which Okapi trims by: no
 * break spaces are text. */
static int space_at(const char *text, size_t len, size_t i, size_t *n) {
  uint32_t cp;
  *n = xmt_utf8_decode((const unsigned char *)text + i, len - i, &cp);
  if (*n == 0) {
    *n = 1;
    return 0;
  }
  return u_isWhitespace((UChar32)cp);
}

/* First byte in [a, b) that is not whitespace, or b. */
static size_t skip_space(const char *text, size_t len, size_t a, size_t b) {
  size_t n;
  while (a < b && space_at(text, len, a, &n))
    a += n;
  return a;
}

/* End of the last character in [a, b) that is not whitespace, or a. */
static size_t trim_space(const char *text, size_t len, size_t a, size_t b) {
  while (b > a) {
    size_t c = xmt_utf8_floor(text, a, b - 1), n;
    if (!space_at(text, len, c, &n))
      break;
    b = c;
  }
  return b;
}

static xmt_status add_span(xmt_segmenter *s, size_t a, size_t b) {
  if (grow((void **)&s->spans, &s->spans_cap, s->nspans + 1,
           sizeof *s->spans) != XMT_OK)
    return XMT_ERR_NOMEM;
  s->spans[s->nspans].start = a;
  s->spans[s->nspans].end = b;
  s->nspans++;
  return XMT_OK;
}

/* Segments between the breaks, trimmed as the options say (Okapi's
 * computeSegments). A piece of whitespace only is no segment: it joins the
 * next piece. */
static xmt_status make_spans(xmt_segmenter *s, const char *text, size_t len) {
  const struct srx_doc *d = &s->doc;
  size_t start = 0;
  s->nspans = 0;
  for (size_t i = 0; i <= s->nbreaks; i++) {
    size_t pos = i < s->nbreaks ? s->breaks[i] : len;
    size_t first = skip_space(text, len, start, pos);
    if (first == pos)
      continue;
    size_t a = d->trim_leading ? first : start;
    size_t b = d->trim_trailing ? trim_space(text, len, a, pos) : pos;
    if (b > a && add_span(s, a, b) != XMT_OK)
      return XMT_ERR_NOMEM;
    start = pos;
  }
  if (s->nspans == 1 && d->one_segment_includes_all) {
    s->spans[0].start = 0;
    s->spans[0].end = len;
  }
  return XMT_OK;
}

xmt_status xmt_srx_run(xmt_segmenter *s, const char *lang, const char *text,
                       size_t len, const size_t *codes, size_t ncodes,
                       int flowed) {
  if (lang == NULL)
    lang = s->lang != NULL ? s->lang : "und";
  xmt_status st = select_rules(s, lang);
  int32_t len16 = 0;
  if (st == XMT_OK)
    st = to_rule_text(s, text, len, codes, ncodes, flowed, &len16);
  if (st != XMT_OK)
    return st;
  st = apply_rules(s, lang, len16);
  if (st == XMT_OK && s->doc.mask != NULL)
    st = apply_mask(s, len16);
  s->nbreaks = 0;
  if (st == XMT_OK && grow((void **)&s->breaks, &s->breaks_cap, s->nhit + 1,
                           sizeof *s->breaks) != XMT_OK)
    st = XMT_ERR_NOMEM;
  for (size_t k = 0; st == XMT_OK && k < s->nhit; k++) {
    size_t h = s->hit[k], at = h < s->u8_same ? h : s->u8_at[h];
    /* a code seen as a space: both sides are one offset */
    if (s->nbreaks == 0 || s->breaks[s->nbreaks - 1] != at)
      s->breaks[s->nbreaks++] = at;
  }
  if (st == XMT_OK)
    st = make_spans(s, text, len);
  if (st == XMT_ERR_NOMEM && s->err.pub.message == NULL)
    xmt_error_nomem(&s->err);
  return st;
}

xmt_status xmt_segmenter_split(xmt_segmenter *s, const char *text, size_t len,
                               const struct xmt_span **spans, size_t *nspans) {
  if (s == NULL || (text == NULL && len > 0) || spans == NULL || nspans == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&s->err);
  *spans = NULL;
  *nspans = 0;
  xmt_status st =
      xmt_srx_run(s, NULL, text != NULL ? text : "", len, NULL, 0, 0);
  if (st != XMT_OK)
    return st;
  *spans = s->spans;
  *nspans = s->nspans;
  return XMT_OK;
}
