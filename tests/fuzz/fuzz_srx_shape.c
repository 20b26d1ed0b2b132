/* fuzz_srx_shape.c -- the C form of a no-break rule (filter/segment/
 * srx_shape.c) against ICU. Input: the beforebreak, NUL, the afterbreak,
 * NUL, the text (UTF-8). Where the rule reads as a C form and its local
 * form compiles in ICU, every position of the text the C form decides
 * must get ICU's answer: the segmenter trusts the C form instead of ICU
 * there, so a difference would be a different sentence break. The rule's
 * find form (a rule searched through the text) too: from every start,
 * where it is sure, the C find must end the beforebreak where ICU's find
 * of "(before)(after)" ends group 1, or find nothing as ICU does. */
#include "config.h"

#include <unicode/uregex.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "fuzz.h"
#include "segmenter_private.h"

/* Rules and texts of a size that keeps ICU's backtracking short. */
#define MAX_RULE 256
#define MAX_TEXT 96

/* The local form, as srx_load.c compiles it less its prefix; NULL when
 * ICU refuses it. */
static URegularExpression *local_of(const uint8_t *before, size_t nb,
                                    const uint8_t *after, size_t na) {
  char pat[2 * MAX_RULE + 32];
  UChar u[2 * MAX_RULE + 32];
  int32_t n = 0;
  UErrorCode st = U_ZERO_ERROR;
  snprintf(pat, sizeof pat, "(?=(?:%.*s))(?<=(?:%.*s))", (int)na,
           (const char *)after, (int)nb, (const char *)before);
  u_strFromUTF8(u, (int32_t)(sizeof u / sizeof *u), &n, pat, -1, &st);
  if (U_FAILURE(st))
    return NULL;
  URegularExpression *re = uregex_open(u, n, 0, NULL, &st);
  if (U_FAILURE(st)) {
    uregex_close(re);
    return NULL;
  }
  return re;
}

/* The find form against ICU's find, from every start of t[0, n). */
static void compare_find(const char *b, const char *a, const UChar *t,
                         int32_t n) {
  int nomem = 0;
  struct srx_shape *sh = xmt_srx_shape_read_find(b, a, &nomem);
  if (nomem)
    FUZZ_FAIL();
  if (sh == NULL)
    return;
  char pat[2 * MAX_RULE + 8];
  UChar u[2 * MAX_RULE + 8];
  int32_t nu = 0;
  UErrorCode st = U_ZERO_ERROR;
  snprintf(pat, sizeof pat, "(%s)(%s)", b, a);
  u_strFromUTF8(u, (int32_t)(sizeof u / sizeof *u), &nu, pat, -1, &st);
  URegularExpression *re =
      U_SUCCESS(st) ? uregex_open(u, nu, 0, NULL, &st) : NULL;
  if (U_SUCCESS(st))
    uregex_setText(re, t, n, &st);
  for (int32_t p = 0; p <= n && U_SUCCESS(st); p++) {
    if (p > 0 && p < n && U16_IS_LEAD(t[p - 1]) && U16_IS_TRAIL(t[p]))
      continue;
    int32_t end = -1;
    int c = xmt_srx_shape_find(sh, t, p, n, &end);
    if (c < 0)
      continue;
    int icu = uregex_find(re, p, &st) ? 1 : 0;
    int32_t icu_end = icu ? uregex_end(re, 1, &st) : -1;
    if (U_SUCCESS(st) && (c != icu || (c && end != icu_end))) {
      fprintf(stderr, "find (%s)(%s) from %d: C %d at %d, ICU %d at %d\n", b, a,
              (int)p, c, (int)end, icu, (int)icu_end);
      FUZZ_FAIL();
    }
  }
  if (re != NULL)
    uregex_close(re);
  xmt_srx_shape_free(sh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t at = 0, nb, na;
  const uint8_t *before = fuzz_slice(data, size, &at, 0, &nb);
  const uint8_t *after = fuzz_slice(data, size, &at, 0, &na);
  if (nb > MAX_RULE || na > MAX_RULE || memchr(before, 0, nb) != NULL ||
      memchr(after, 0, na) != NULL || size - at > 4 * MAX_TEXT)
    return 0;
  char b[MAX_RULE + 1], a[MAX_RULE + 1];
  memcpy(b, before, nb);
  b[nb] = '\0';
  memcpy(a, after, na);
  a[na] = '\0';

  UChar t[4 * MAX_TEXT];
  int32_t n = 0;
  UErrorCode st = U_ZERO_ERROR;
  u_strFromUTF8WithSub(t, (int32_t)(sizeof t / sizeof *t), &n,
                       (const char *)data + at, (int32_t)(size - at), 0xFFFD,
                       NULL, &st);
  if (U_SUCCESS(st))
    compare_find(b, a, t, n);
  int nomem = 0;
  struct srx_shape *sh = xmt_srx_shape_read(b, a, &nomem);
  if (nomem)
    FUZZ_FAIL();
  if (sh == NULL)
    return 0;
  URegularExpression *re =
      U_SUCCESS(st) ? local_of(before, nb, after, na) : NULL;
  if (re != NULL) {
    uregex_setText(re, t, n, &st);
    for (int32_t p = 0; p <= n && U_SUCCESS(st); p++) {
      /* the segmenter breaks between characters, never inside a pair */
      if (p > 0 && p < n && U16_IS_LEAD(t[p - 1]) && U16_IS_TRAIL(t[p]))
        continue;
      int c = xmt_srx_shape_hits(sh, t, p, n);
      if (c < 0)
        continue;
      int icu = uregex_lookingAt(re, p, &st) ? 1 : 0;
      if (U_SUCCESS(st) && c != icu) {
        fprintf(stderr, "rule (%s | %s), position %d: C %d, ICU %d\n", b, a,
                (int)p, c, icu);
        FUZZ_FAIL();
      }
    }
    uregex_close(re);
  }
  xmt_srx_shape_free(sh);
  return 0;
}
