/* gen_align.c -- writes a synthetic parallel corpus for the aligner
 * benchmark: "source ||| target" lines, words drawn from a Zipf-like
 * vocabulary, each target word a fixed translation of its source word,
 * with local swaps, dropped and inserted words, so that EM has the work
 * of a real corpus. Deterministic for a given seed.
 *
 * Usage: gen_align PAIRS [SEED] > corpus */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state;

static double uniform(void) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(state >> 11) / 9007199254740992.0;
}

#define VOCAB 50000

/* Word rank by inverse transform of a Zipf(1) law over VOCAB ranks. */
static unsigned zipf(void) {
  double h = log((double)VOCAB) + 0.5772156649;
  double r = exp(uniform() * h - 0.5772156649);
  unsigned k = (unsigned)r;
  return k >= VOCAB ? VOCAB - 1 : k;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gen_align PAIRS [SEED]\n");
    return 1;
  }
  long pairs = atol(argv[1]);
  state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  unsigned words[64];
  for (long p = 0; p < pairs; p++) {
    int n = 5 + (int)(uniform() * uniform() * 40); /* 5 .. 44, mostly short */
    for (int i = 0; i < n; i++)
      words[i] = zipf();
    for (int i = 0; i < n; i++)
      printf("%sw%u", i ? " " : "", words[i]);
    fputs(" |||", stdout);
    for (int i = 0; i < n; i++) {
      int k = i;
      if (i + 1 < n && uniform() < 0.15) { /* swap with the next word */
        unsigned t = words[i];
        words[i] = words[i + 1];
        words[i + 1] = t;
      }
      if (uniform() < 0.05) /* dropped */
        continue;
      printf(" t%u", words[k] * 7919u % VOCAB);
      if (uniform() < 0.05) /* inserted function word */
        printf(" f%u", (unsigned)(uniform() * 20));
    }
    putchar('\n');
  }
  return ferror(stdout) ? 1 : 0;
}
