/* segment_bench.c -- `make bench-segment`: megabytes per second of the SRX
 * engine (shipped rules, English) against ICU's sentence BreakIterator on
 * the same generated text, paragraph by paragraph, in one run (best of
 * three each). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicode/ubrk.h>
#include <unicode/ustring.h>

#include "xmt_filter.h"

/* clang-format off */
static const char *const words[] = {
    "the", "of", "and", "to", "in", "a", "or", "any", "such", "by", "for",
    "with", "this", "that", "which", "shall", "may", "not", "be", "is",
    "Member", "States", "Commission", "Regulation", "Directive", "Union",
    "agreement", "party", "parties", "services", "product", "information",
    "rights", "term", "termination", "notice", "written", "prior", "consent",
    "breach", "material", "remedy", "period", "days", "effective", "date",
    "pursuant", "notwithstanding", "provided", "however", "including",
    "liability", "damages", "loss", "profits", "data", "warranty", "fitness",
    "purpose", "costs", "expenses", "fees", "reasonable", "arising", "out",
    "connection", "performance", "obligations", "under", "applicable", "law",
    "courts", "dispute", "payment", "invoice", "within", "receipt", "taxes",
    "transfer", "entire", "provision", "event", "control", "delay", "audit",
    "records", "compliance", "export", "privacy", "personal", "processing",
    "security", "measures", "appropriate", "technical", "annex", "section",
};
/* Pieces that exercise the rules: abbreviations, numbers, quotes. */
static const char *const pieces[] = {
    "Art. 5", "e.g. Paris", "No. 1234/2007", "Mr. Smith", "3.5 percent",
    "(1)", "point (a)", "J. R. Smith", "i.e. the", "pp. 4-5", "[...]",
    "Dr. Watson", "U.S. law", "1,000.50 EUR", "\"quoted\"",
};
/* clang-format on */

static uint64_t rng = 88172645463325252ull;
static unsigned next(unsigned n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* Paragraphs of 1 to 8 sentences of 6 to 30 words, one per line. */
static char *generate(size_t want, size_t *len) {
  char *t = malloc(want + 4096);
  if (t == NULL)
    return NULL;
  size_t n = 0;
  while (n < want) {
    unsigned sentences = 1 + next(8);
    for (unsigned s = 0; s < sentences; s++) {
      unsigned nw = 6 + next(25);
      for (unsigned w = 0; w < nw; w++) {
        const char *word = next(12) == 0
                               ? pieces[next(sizeof pieces / sizeof *pieces)]
                               : words[next(sizeof words / sizeof *words)];
        size_t k = strlen(word);
        if (w == 0) {
          t[n++] =
              (char)(word[0] >= 'a' && word[0] <= 'z' ? word[0] - 32 : word[0]);
          memcpy(t + n, word + 1, k - 1);
          n += k - 1;
        } else {
          t[n++] = ' ';
          memcpy(t + n, word, k);
          n += k;
        }
      }
      static const char ends[] = "...?!";
      t[n++] = ends[next(5) < 3 ? 0 : 3 + next(2)];
      if (s + 1 < sentences)
        t[n++] = ' ';
    }
    t[n++] = '\n';
  }
  *len = n;
  return t;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  size_t mb = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 20;
  size_t len;
  char *text = generate(mb << 20, &len);
  xmt_segmenter *s = xmt_segmenter_new();
  if (text == NULL || s == NULL || xmt_segmenter_set_language(s, "en"))
    return 2;

  UErrorCode st = U_ZERO_ERROR;
  UBreakIterator *bi = ubrk_open(UBRK_SENTENCE, "en", NULL, 0, &st);
  UChar *u16 = malloc(65536 * sizeof *u16);
  if (U_FAILURE(st) || u16 == NULL)
    return 2;
  /* Best of three runs each, alternating, against the noise of a shared
   * machine. */
  double srx = 1e30, icu = 1e30;
  size_t srx_sentences = 0, icu_sentences = 0, paragraphs = 0;
  for (int round = 0; round < 3; round++) {
    /* The SRX engine, paragraph by paragraph. */
    srx_sentences = paragraphs = 0;
    double t0 = now();
    for (size_t at = 0; at < len;) {
      const char *nl = memchr(text + at, '\n', len - at);
      size_t n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
      const struct xmt_span *spans;
      size_t ns;
      if (xmt_segmenter_split(s, text + at, n, &spans, &ns) != XMT_OK)
        return 2;
      srx_sentences += ns;
      paragraphs++;
      at += n + 1;
    }
    double t = now() - t0;
    srx = t < srx ? t : srx;
    /* ICU's BreakIterator on the same paragraphs, UTF-8 to UTF-16
     * included (the SRX engine converts too). */
    icu_sentences = 0;
    t0 = now();
    for (size_t at = 0; at < len;) {
      const char *nl = memchr(text + at, '\n', len - at);
      size_t n = nl != NULL ? (size_t)(nl - (text + at)) : len - at;
      int32_t n16 = 0;
      st = U_ZERO_ERROR;
      u_strFromUTF8(u16, 65536, &n16, text + at, (int32_t)n, &st);
      ubrk_setText(bi, u16, n16, &st);
      if (U_FAILURE(st))
        return 2;
      for (int32_t b = ubrk_first(bi); (b = ubrk_next(bi)) != UBRK_DONE;)
        icu_sentences++;
      at += n + 1;
    }
    t = now() - t0;
    icu = t < icu ? t : icu;
  }

  double mbytes = (double)len / (1024.0 * 1024.0);
  printf("text: %.1f MB, %zu paragraphs (generated English)\n", mbytes,
         paragraphs);
  printf("srx (shipped rules, en): %8.2f MB/s  %.3f s  %zu sentences\n",
         mbytes / srx, srx, srx_sentences);
  printf("icu (ubrk UBRK_SENTENCE): %8.2f MB/s  %.3f s  %zu sentences\n",
         mbytes / icu, icu, icu_sentences);
  printf("ratio icu/srx time: %.2f (srx takes %.2fx the time of ICU)\n",
         icu / srx, srx / icu);
  ubrk_close(bi);
  free(u16);
  xmt_segmenter_free(s);
  free(text);
  return 0;
}
