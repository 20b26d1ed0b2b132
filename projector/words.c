/* words.c -- word counts by ICU word boundaries. */
#include "config.h"

#include <stdint.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

#include "projector_private.h"

size_t xmt_count_words(const char *text, size_t len) {
  /* Break iterator positions are int32_t even over a UText. */
  if (text == NULL || len == 0 || len > INT32_MAX)
    return 0;
  UErrorCode err = U_ZERO_ERROR;
  UText ut = UTEXT_INITIALIZER;
  /* Iterates over the UTF-8 bytes in place: no UTF-16 copy. */
  utext_openUTF8(&ut, text, (int64_t)len, &err);
  if (U_FAILURE(err))
    return 0;
  /* ubrk_setUText does not check for a NULL iterator. */
  UBreakIterator *bi = ubrk_open(UBRK_WORD, "", NULL, 0, &err);
  if (U_FAILURE(err)) {
    utext_close(&ut);
    return 0;
  }
  size_t words = 0;
  ubrk_setUText(bi, &ut, &err);
  if (U_SUCCESS(err)) {
    ubrk_first(bi);
    while (ubrk_next(bi) != UBRK_DONE) {
      /* The status of the span ending here: [UBRK_WORD_NONE,
       * UBRK_WORD_NONE_LIMIT) is spaces and punctuation; numbers, letters,
       * kana and ideographs lie above. */
      int32_t status = ubrk_getRuleStatus(bi);
      if (status < UBRK_WORD_NONE || status >= UBRK_WORD_NONE_LIMIT)
        words++;
    }
  }
  ubrk_close(bi);
  utext_close(&ut);
  return U_SUCCESS(err) ? words : 0;
}
