/* gen_xliff.c -- deterministic Okapi-like XLIFF 1.2 input for `make bench`;
   with -2 the same content as XLIFF 2.0 (pc, sc/ec, ph), for
   `make bench-xliff2`. For `make bench-aligner-memory`: -n puts numbers
   never seen before among the words (a vocabulary that grows with the
   document), -w N draws the words from a fixed vocabulary of N.
   -u N stops after N units instead of SIZE_MB: the random draws do not
   depend on the format, so `gen_xliff -2 -u N` (N the units= that
   `gen_xliff SIZE_MB` reports) is the XLIFF 2 twin of the XLIFF 1.2 file,
   the same units with the same text and codes, for `make bench`. -1 puts
   every unit in one <file> (the units are the same: the per-file draw is
   still made). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words are already XML-escaped text; the non-ASCII and entity entries make
   the tool take its slower UTF-8 and escaping paths now and then. */
/* clang-format off */
static const char *const words[] = {
    "the", "of", "and", "to", "in", "a", "or", "any", "such", "by", "for",
    "with", "this", "that", "which", "shall", "may", "not", "be", "is",
    "Agreement", "Party", "Parties", "Licensor", "Licensee", "Customer",
    "Supplier", "Contractor", "Company", "Affiliate", "Services", "Software",
    "Product", "Deliverables", "Documentation", "Confidential", "Information",
    "Intellectual", "Property", "Rights", "term", "termination", "notice",
    "written", "prior", "consent", "breach", "material", "remedy", "cure",
    "period", "days", "thirty", "ninety", "effective", "date", "hereof",
    "hereto", "herein", "thereof", "whereas", "pursuant", "notwithstanding",
    "foregoing", "provided", "however", "including", "without", "limitation",
    "liability", "liable", "damages", "indirect", "incidental",
    "consequential", "special", "punitive", "exemplary", "loss", "profits",
    "revenue", "data", "goodwill", "warranty", "warranties", "express",
    "implied", "merchantability", "fitness", "particular", "purpose", "title",
    "non-infringement", "indemnify", "defend", "hold", "harmless", "claims",
    "costs", "expenses", "fees", "reasonable", "attorneys", "arising", "out",
    "connection", "performance", "obligations", "under", "applicable", "law",
    "governing", "jurisdiction", "courts", "exclusive", "venue", "dispute",
    "arbitration", "binding", "final", "settlement", "payment", "invoice",
    "due", "within", "receipt", "taxes", "duties", "levies", "withholding",
    "assignment", "transfer", "subcontract", "successors", "assigns", "entire",
    "understanding", "supersedes", "all", "previous", "agreements",
    "representations", "amendment", "waiver", "severability", "invalid",
    "unenforceable", "provision", "remaining", "force", "majeure", "event",
    "beyond", "control", "delay", "failure", "perform", "audit", "records",
    "compliance", "regulations", "export", "sanctions", "privacy", "personal",
    "processing", "controller", "processor", "security", "measures",
    "appropriate", "technical", "organisational", "recital", "survive",
    "expiry", "renewal", "automatically", "successive", "annual", "fee",
    "schedule", "exhibit", "annex", "section", "clause", "paragraph", "2024",
    "EUR", "1,000", "&amp;", "&lt;", "Größe", "€", "naïve", "日本", "Straße",
    "café", "déjà", "Zürich", "société", "Ελλάδα",
};
/* clang-format on */

#define NWORDS (sizeof words / sizeof words[0])

/* Growable byte buffer; one per role, reused for every unit. */
struct buf {
  char *p;
  size_t len, cap;
};

struct rng {
  uint64_t s;
};

static uint64_t rng_next(struct rng *r) {
  /* xorshift64*: tiny, fast and plenty for picking words. */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * UINT64_C(2685821657736338717);
}

/* splitmix64 scrambles the seed so 0 and small seeds give a full state. */
static void rng_seed(struct rng *r, uint64_t seed) {
  uint64_t z = seed + UINT64_C(0x9E3779B97F4A7C15);

  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  z ^= z >> 31;
  r->s = z ? z : 1; /* xorshift never leaves an all-zero state */
}

static unsigned pick(struct rng *r, unsigned n) {
  return (unsigned)((rng_next(r) >> 32) % n);
}

static void put_n(struct buf *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->len + n)
      cap *= 2;
    b->p = realloc(b->p, cap);
    if (!b->p) {
      fputs("gen_xliff: out of memory\n", stderr);
      exit(1);
    }
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static void put(struct buf *b, const char *s) { put_n(b, s, strlen(s)); }

static void put_u(struct buf *b, uint64_t v) {
  char tmp[24];
  size_t i = sizeof tmp;

  do {
    tmp[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  put_n(b, tmp + i, sizeof tmp - i);
}

static void put_code(struct buf *b, const char *open, unsigned id,
                     const char *close) {
  put(b, open);
  put_u(b, id);
  put(b, close);
}

/* Appends nw words with inline codes mixed in; every code opened here is
   closed here, so the text is a well-formed fragment on its own. */
/* 1: XLIFF 2 markup (-2). */
static int xliff2;
/* -n: every tenth word or so a number not used before (the next one). */
static int new_numbers;
static uint64_t next_number = 100000;
/* -w N: the vocabulary's size; 0: the list above as it is. */
static unsigned vocab_size;
/* -u N: the number of units to write; 0: as many as SIZE_MB holds. */
static uint64_t unit_limit;
/* -1: every unit in one <file> (check's per-file state at its largest). */
static int one_file;

/* Word k of a vocabulary of vocab_size: the list's words, then the same
   with a suffix of letters (k / NWORDS written in base 26). */
static void put_word(struct buf *b, struct rng *r) {
  if (vocab_size == 0) {
    put(b, words[pick(r, NWORDS)]);
    return;
  }
  unsigned k = pick(r, vocab_size), round = (unsigned)(k / NWORDS);
  put(b, words[k % NWORDS]);
  for (; round > 0; round /= 26) {
    char c = (char)('a' + (round - 1) % 26);
    put_n(b, &c, 1);
  }
}

static void gen_text(struct buf *b, struct rng *r, unsigned nw, int depth,
                     unsigned *id) {
  unsigned i = 0;

  while (i < nw) {
    unsigned left = nw - i, roll = pick(r, 100), k, cid;

    if (i > 0)
      put(b, " ");
    if (roll < 5 && depth < 2 && left >= 2) {
      k = 1 + pick(r, left < 4 ? left : 4);
      put_code(b, xliff2 ? "<pc id=\"" : "<g id=\"", ++*id, "\">");
      gen_text(b, r, k, depth + 1, id);
      put(b, xliff2 ? "</pc>" : "</g>");
      i += k;
      continue;
    }
    if (roll < 6 && depth == 0 && left >= 2) {
      k = 1 + pick(r, left < 3 ? left : 3);
      cid = ++*id;
      put_code(b, xliff2 ? "<sc id=\"" : "<bx id=\"", cid, "\"/>");
      gen_text(b, r, k, depth + 1, id);
      put_code(b, xliff2 ? "<ec startRef=\"" : "<ex id=\"", cid, "\"/>");
      i += k;
      continue;
    }
    if (roll < 9)
      put_code(b, xliff2 ? "<ph id=\"" : "<x id=\"", ++*id, "\"/> ");
    if (new_numbers && roll >= 90)
      put_u(b, next_number++);
    else
      put_word(b, r);
    i++;
  }
}

static void gen_sentence(struct buf *b, struct rng *r, unsigned nw,
                         unsigned *id) {
  size_t i = 0;

  b->len = 0;
  gen_text(b, r, nw, 0, id);
  put(b, ".");
  /* Capitalise the first word so sentence segmenters see a real boundary. */
  while (i < b->len && (b->p[i] == '<' || b->p[i] == ' ')) {
    if (b->p[i] == '<')
      while (b->p[i] != '>')
        i++;
    i++;
  }
  if (b->p[i] >= 'a' && b->p[i] <= 'z')
    b->p[i] = (char)(b->p[i] - 'a' + 'A');
}

struct gen {
  struct rng rng;
  struct buf out, seg[2];
  uint64_t units, translatable, groups, written;
};

/* The same unit in XLIFF 2: a segmented one is two <segment>s with an
   <ignorable> space between them. */
static void gen_unit2(struct gen *g, int segmented, int no) {
  struct buf *o = &g->out;
  unsigned i;

  put(o, "<unit id=\"tu");
  put_u(o, g->units);
  put(o, no ? "\" translate=\"no\">\n" : "\">\n");
  if (pick(&g->rng, 10) == 0) {
    put(o, "<notes><note>Check term: ");
    put(o, words[pick(&g->rng, NWORDS)]);
    put(o, "</note></notes>\n");
  }
  for (i = 0; i < 2; i++) {
    if (i == 0 || segmented)
      put(o, "<segment>\n<source xml:space=\"preserve\">");
    else
      put(o, " ");
    put_n(o, g->seg[i].p, g->seg[i].len);
    if (i == 1 || segmented)
      put(o, "</source>\n</segment>\n");
    if (i == 0 && segmented)
      put(o, "<ignorable><source xml:space=\"preserve\"> </source>"
             "</ignorable>\n");
  }
  put(o, "</unit>\n");
}

static void gen_unit(struct gen *g) {
  struct buf *o = &g->out;
  unsigned nw = 8 + pick(&g->rng, 33), n0 = nw / 2, id = 0, i;
  int segmented = pick(&g->rng, 4) == 0;
  int no = pick(&g->rng, 20) == 0;

  /* Two sentences, so a segmented unit's seg-source is the source split
     at the single space between them. */
  gen_sentence(&g->seg[0], &g->rng, n0, &id);
  gen_sentence(&g->seg[1], &g->rng, nw - n0, &id);

  g->units++;
  if (!no)
    g->translatable += xliff2 && segmented ? 2 : 1;
  if (xliff2) {
    gen_unit2(g, segmented, no);
    return;
  }
  put(o, "<trans-unit id=\"tu");
  put_u(o, g->units);
  put(o, no ? "\" translate=\"no\" xml:space=\"preserve\">\n"
            : "\" xml:space=\"preserve\">\n");
  put(o, "<source xml:lang=\"en\">");
  put_n(o, g->seg[0].p, g->seg[0].len);
  put(o, " ");
  put_n(o, g->seg[1].p, g->seg[1].len);
  put(o, "</source>\n");
  if (segmented) {
    put(o, "<seg-source>");
    for (i = 0; i < 2; i++) {
      put_code(o, i ? " <mrk mid=\"" : "<mrk mid=\"", i, "\" mtype=\"seg\">");
      put_n(o, g->seg[i].p, g->seg[i].len);
      put(o, "</mrk>");
    }
    put(o, "</seg-source>\n");
  }
  if (pick(&g->rng, 10) == 0) {
    put(o, "<note>Check term: ");
    put(o, words[pick(&g->rng, NWORDS)]);
    put(o, "</note>\n");
  }
  put(o, "</trans-unit>\n");
}

static int flush(struct gen *g) {
  if (g->out.len && fwrite(g->out.p, 1, g->out.len, stdout) != g->out.len)
    return -1;
  g->written += g->out.len;
  g->out.len = 0;
  return 0;
}

/* 1 while the document wants more units: limit bytes, or unit_limit. */
static int more(const struct gen *g, uint64_t limit) {
  return unit_limit ? g->units < unit_limit : g->written < limit;
}

/* Emits files of a few thousand units each (or one file, with -1) until
   limit bytes are out (or unit_limit units; a group may end up to 2 units
   past it). */
static int gen_document(struct gen *g, uint64_t limit) {
  unsigned files = 0, per_file, k, n;

  if (xliff2)
    put(&g->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<xliff version=\"2.0\" "
                 "xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" "
                 "srcLang=\"en\" trgLang=\"fr\">\n");
  else
    put(&g->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<xliff version=\"1.2\" "
                 "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" "
                 "xmlns:okp=\"okapi-framework:xliff-extensions\">\n");
  while (more(g, limit)) {
    put(&g->out, xliff2 ? "<file id=\"f" : "<file original=\"doc");
    put_u(&g->out, ++files);
    put(&g->out, xliff2 ? "\">\n"
                        : ".docx\" source-language=\"en\" "
                          "target-language=\"fr\" datatype=\"x-undefined\">\n"
                          "<body>\n");
    per_file = 2000 + pick(&g->rng, 6000);
    for (k = 0; (one_file || k < per_file) && more(g, limit); k += n) {
      /* Groups of 3 at odds 1/28 put 1 unit in 10 in a group. */
      if (pick(&g->rng, 28) == 0) {
        put(&g->out, "<group id=\"g");
        put_u(&g->out, ++g->groups);
        put(&g->out, "\">\n");
        for (n = 0; n < 3; n++)
          gen_unit(g);
        put(&g->out, "</group>\n");
      } else {
        n = 1;
        gen_unit(g);
      }
      if (flush(g))
        return -1;
    }
    put(&g->out, xliff2 ? "</file>\n" : "</body>\n</file>\n");
  }
  put(&g->out, "</xliff>\n");
  return flush(g) || fflush(stdout) ? -1 : 0;
}

static int parse_u64(const char *s, uint64_t *v) {
  char *end;

  if (*s < '0' || *s > '9')
    return -1;
  *v = strtoull(s, &end, 10);
  return *end ? -1 : 0;
}

int main(int argc, char **argv) {
  static char iobuf[1 << 20];
  struct gen g;
  uint64_t mb, seed = 1;
  int rc;

  uint64_t nv = 0;
  int bad = 0;
  while (argc > 1 && argv[1][0] == '-' && !bad) {
    if (strcmp(argv[1], "-2") == 0) {
      xliff2 = 1;
    } else if (strcmp(argv[1], "-n") == 0) {
      new_numbers = 1;
    } else if (strcmp(argv[1], "-1") == 0) {
      one_file = 1;
    } else if (strcmp(argv[1], "-w") == 0 && argc > 2 &&
               parse_u64(argv[2], &nv) == 0 && nv > 0 && nv <= 10000000) {
      vocab_size = (unsigned)nv;
      argv++;
      argc--;
    } else if (strcmp(argv[1], "-u") == 0 && argc > 2 &&
               parse_u64(argv[2], &unit_limit) == 0 && unit_limit > 0) {
      argv++;
      argc--;
    } else {
      bad = 1;
    }
    argv++;
    argc--;
  }
  if (bad || argc < 2 || argc > 3 || parse_u64(argv[1], &mb) || mb == 0 ||
      mb > (UINT64_C(1) << 20) || (argc == 3 && parse_u64(argv[2], &seed))) {
    fputs(
        "usage: gen_xliff [-2] [-1] [-n] [-w WORDS] [-u UNITS] SIZE_MB [SEED]  "
        "(SIZE_MB 1..1048576)\n",
        stderr);
    return 2;
  }
  setvbuf(stdout, iobuf, _IOFBF, sizeof iobuf);
  memset(&g, 0, sizeof g);
  rng_seed(&g.rng, seed);

  rc = gen_document(&g, mb << 20);
  if (rc)
    perror("gen_xliff: write");
  else
    /* run.sh reads this line to know how many targets to expect. */
    fprintf(stderr, "gen_xliff: units=%llu translatable=%llu bytes=%llu\n",
            (unsigned long long)g.units, (unsigned long long)g.translatable,
            (unsigned long long)g.written);
  free(g.out.p);
  free(g.seg[0].p);
  free(g.seg[1].p);
  return rc ? 1 : 0;
}
