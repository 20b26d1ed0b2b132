/* align.c -- xliffmt align: the built-in word aligner with fast_align's
 * command line: "source ||| target" lines in, Pharaoh alignments out. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: xliffmt align -i FILE [-d] [-o] [-v] [-r] [-I N] [-a ALPHA]\n"
      "                     [-p PROB] [-T TENSION] [--symmetrize HEURISTIC]\n"
      "                     [--tokenize] [--lowercase] [--threads N]\n"
      "                     [--save-model F | --model F] [--model bayes|ibm2]\n"
      "                     [--dictionary D]... [--source-lang L]\n"
      "                     [--target-lang L]\n\n"
      "Word-aligns a parallel corpus as fast_align does (IBM Model 2 with a\n"
      "diagonal prior). FILE has one sentence pair a line, \"source |||\n"
      "target\", words separated by spaces; standard output gets one line of\n"
      "Pharaoh links \"i-j\" (source word i, target word j, from 0) for\n"
      "each.\n\n"
      "  -i FILE                the corpus (\"-\": standard input)\n"
      "  -d                     favour the diagonal (recommended)\n"
      "  -o                     optimize the diagonal tension (recommended)\n"
      "  -v                     variational Bayes, Dirichlet prior on\n"
      "                         translations (recommended)\n"
      "  -r                     align in reverse (predict source words)\n"
      "  -I N                   EM iterations, the last aligning (default 5)\n"
      "  -a ALPHA               Dirichlet parameter for -v (default 0.01)\n"
      "  -p PROB                probability of a NULL link (default 0.08)\n"
      "  -T TENSION             starting diagonal tension (default 4)\n"
      "      --symmetrize H     train both directions and combine them: "
      "intersect,\n"
      "                         union, grow-diag, grow-diag-final,\n"
      "                         grow-diag-final-and\n"
      "      --tokenize         split each side into xliffmt's word tokens\n"
      "                         (ICU word boundaries) instead of at spaces\n"
      "      --lowercase        compare words lowercased\n"
      "      --threads N        training threads (default: the cores)\n"
      "      --save-model F     also write the trained model to F\n"
      "      --model F          align with the model in F, without training\n"
      "      --model bayes|ibm2 the model to train: ibm2 (fast_align's, the\n"
      "                         default) or bayes (Gibbs sampling of IBM1,\n"
      "                         HMM and fertility; better on small corpora)\n"
      "      --dictionary D     prior word translations: auto (the installed\n"
      "                         dictionaries of the languages), none, or a\n"
      "                         FreeDict, Apertium or TSV file; repeatable\n"
      "      --source-lang L    the languages (e.g. en, de): stems and\n"
      "      --target-lang L    dictionaries; with --dictionary or the\n"
      "                         languages, identical words and cognates are\n"
      "                         prior links too\n"
      "  -h, --help             this help\n");
}

struct options {
  const char *input, *save, *model;
  const char *dicts[16], *lang[2];
  size_t ndicts;
  int priors; /* --dictionary or a language given */
  struct xmt_aligner_options al;
  enum xmt_symmetrization sym;
  int tokenize;
};

/* Everything one run holds; freed by state_free. */
struct state {
  struct options opt;
  struct xmt_cli_lines in;
  xmt_aligner *aligner;
  xmt_tokens *all, *tok[2]; /* the line's, the source's, the target's */
  const char *text[2];      /* the source and target texts */
  size_t len[2];
  xmt_alignment *aln;
  int progress_shown;
};

static void state_free(struct state *s) {
  xmt_cli_lines_close(&s->in);
  xmt_aligner_free(s->aligner);
  xmt_tokens_free(s->all);
  xmt_tokens_free(s->tok[0]);
  xmt_tokens_free(s->tok[1]);
  xmt_alignment_free(s->aln);
}

static int bad_line(const struct state *s, const char *message) {
  fprintf(stderr, "xliffmt: %s:%lu: %s\n", s->in.path, s->in.number, message);
  return EXIT_BAD_INPUT;
}

/* Length of the longest valid UTF-8 prefix of s (for messages). */
static size_t utf8_valid(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    size_t len = c < 0x80                 ? 1
                 : c >= 0xC2 && c <= 0xDF ? 2
                 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4
                                          : 0;
    if (len == 0 || i + len > n)
      return i;
    for (size_t k = 1; k < len; k++)
      if ((s[i + k] & 0xC0) != 0x80)
        return i;
    if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F) ||
        (c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] > 0x8F))
      return i;
    i += len;
  }
  return i;
}

/* Splits the current line into the source and target texts and their
 * tokens. Returns an exit status. */
static int split_line(struct state *s) {
  const char *line = s->in.line;
  size_t len = s->in.len;
  size_t valid = utf8_valid((const unsigned char *)line, len);
  if (valid < len) {
    char msg[96];
    snprintf(msg, sizeof msg, "invalid UTF-8 at byte %zu", valid + 1);
    return bad_line(s, msg);
  }
  xmt_status st = xmt_tokenize(s->all, line, len, XMT_TOKENIZE_WHITESPACE);
  if (st != XMT_OK)
    return bad_line(s, xmt_strerror(st));
  size_t n = xmt_tokens_count(s->all);
  const struct xmt_token *t = xmt_tokens_array(s->all);
  size_t sep = n;
  for (size_t i = 0; i < n && sep == n; i++)
    if (t[i].end - t[i].start == 3 && memcmp(line + t[i].start, "|||", 3) == 0)
      sep = i;
  if (n == 0)
    return bad_line(s, "empty line: expected \"SOURCE ||| TARGET\"");
  if (sep == n)
    return bad_line(s, "no \" ||| \" between source and target");
  if (!s->opt.tokenize || sep == 0 || sep + 1 == n) {
    /* an empty side aligns to nothing (an empty output line, as in
     * fast_align) */
    /* fast_align's words: the spaced tokens, ranges of the whole line */
    s->text[0] = s->text[1] = line;
    s->len[0] = s->len[1] = len;
    xmt_tokenize(s->tok[0], "", 0, XMT_TOKENIZE_WHITESPACE); /* clears */
    xmt_tokenize(s->tok[1], "", 0, XMT_TOKENIZE_WHITESPACE);
    for (size_t i = 0; i < n; i++)
      if (i != sep &&
          xmt_tokens_append(s->tok[i > sep], t[i].start, t[i].end) != XMT_OK)
        return bad_line(s, "out of memory");
    return EXIT_OK;
  }
  /* --tokenize: each side's text split at ICU word boundaries */
  s->text[0] = line;
  s->len[0] = t[sep - 1].end;
  s->text[1] = line + t[sep + 1].start;
  s->len[1] = len - t[sep + 1].start;
  for (int k = 0; k < 2; k++) {
    st = xmt_tokenize(s->tok[k], s->text[k], s->len[k], XMT_TOKENIZE_DEFAULT);
    if (st != XMT_OK)
      return bad_line(s, xmt_strerror(st));
  }
  return EXIT_OK;
}

static void print_links(const xmt_alignment *al) {
  size_t n = xmt_alignment_count(al);
  const struct xmt_link *l = xmt_alignment_links(al);
  for (size_t i = 0; i < n; i++)
    printf("%s%zu-%zu", i ? " " : "", l[i].source, l[i].target);
  putchar('\n');
}

static int progress(void *user, unsigned iteration, unsigned iterations,
                    size_t done, size_t pairs) {
  struct state *s = user;
  fprintf(stderr, "\rxliffmt: align: iteration %u/%u, %3.0f%% of %zu pairs",
          iteration, iterations,
          pairs ? 100.0 * (double)done / (double)pairs : 100.0, pairs);
  s->progress_shown = 1;
  return 0;
}

static int fail_aligner(const struct state *s) {
  const struct xmt_error *e = xmt_aligner_error(s->aligner);
  xmt_cli_report(e);
  return xmt_cli_exit_status(e->status);
}

/* With --model: aligns each line as it is read. */
static int force_align(struct state *s) {
  for (;;) {
    int more = xmt_cli_lines_next(&s->in);
    if (more < 0)
      return EXIT_BAD_INPUT;
    if (more == 0)
      return EXIT_OK;
    int rc = split_line(s);
    if (rc != EXIT_OK)
      return rc;
    if (xmt_aligner_align(s->aligner, s->text[0], s->len[0], s->tok[0],
                          s->text[1], s->len[1], s->tok[1], s->opt.sym,
                          s->aln) != XMT_OK)
      return fail_aligner(s);
    print_links(s->aln);
  }
}

/* Reads every line, trains, prints the alignment of each. */
static int train_align(struct state *s) {
  for (;;) {
    int more = xmt_cli_lines_next(&s->in);
    if (more < 0)
      return EXIT_BAD_INPUT;
    if (more == 0)
      break;
    int rc = split_line(s);
    if (rc != EXIT_OK)
      return rc;
    if (xmt_aligner_add(s->aligner, s->text[0], s->len[0], s->tok[0],
                        s->text[1], s->len[1], s->tok[1]) != XMT_OK) {
      const struct xmt_error *e = xmt_aligner_error(s->aligner);
      bad_line(s, e->message);
      return xmt_cli_exit_status(e->status);
    }
  }
  if (s->in.number == 0) {
    fprintf(stderr, "xliffmt: %s: no sentence pairs\n", s->in.path);
    return EXIT_BAD_INPUT;
  }
  xmt_status st = xmt_aligner_train(s->aligner, isatty(2) ? progress : NULL, s);
  if (s->progress_shown)
    fputc('\n', stderr);
  if (st != XMT_OK)
    return fail_aligner(s);
  if (s->opt.save != NULL &&
      xmt_aligner_save(s->aligner, s->opt.save) != XMT_OK)
    return fail_aligner(s);
  size_t pairs = xmt_aligner_pair_count(s->aligner);
  for (size_t k = 0; k < pairs; k++) {
    if (xmt_aligner_align_pair(s->aligner, k, s->opt.sym, s->aln) != XMT_OK)
      return fail_aligner(s);
    print_links(s->aln);
  }
  return EXIT_OK;
}

/* Parses a number option; returns 0 and reports when it is not one. */
static int number(const char *opt, const char *arg, double lo, double hi,
                  double *out) {
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || *end != '\0' || !(v >= lo && v <= hi)) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s: '%.40s' is not a number in [%g, %g]", opt,
             arg, lo, hi);
    xmt_cli_usage_error("align ", msg);
    return 0;
  }
  *out = v;
  return 1;
}

enum {
  OPT_SYM = 256,
  OPT_TOKENIZE,
  OPT_LOWER,
  OPT_THREADS,
  OPT_SAVE,
  OPT_MODEL,
  OPT_DICTIONARY,
  OPT_SOURCE_LANG,
  OPT_TARGET_LANG
};

/* Reads the options into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, struct options *o) {
  static const struct option options[] = {
      {"input", required_argument, NULL, 'i'},
      {"reverse", no_argument, NULL, 'r'},
      {"iterations", required_argument, NULL, 'I'},
      {"favor_diagonal", no_argument, NULL, 'd'},
      {"optimize_tension", no_argument, NULL, 'o'},
      {"variational_bayes", no_argument, NULL, 'v'},
      {"alpha", required_argument, NULL, 'a'},
      {"p0", required_argument, NULL, 'p'},
      {"diagonal_tension", required_argument, NULL, 'T'},
      {"symmetrize", required_argument, NULL, OPT_SYM},
      {"tokenize", no_argument, NULL, OPT_TOKENIZE},
      {"lowercase", no_argument, NULL, OPT_LOWER},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"save-model", required_argument, NULL, OPT_SAVE},
      {"model", required_argument, NULL, OPT_MODEL},
      {"dictionary", required_argument, NULL, OPT_DICTIONARY},
      {"source-lang", required_argument, NULL, OPT_SOURCE_LANG},
      {"target-lang", required_argument, NULL, OPT_TARGET_LANG},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  xmt_aligner_options_init(&o->al);
  /* fast_align's defaults: no -d, -o, -v unless asked for */
  o->al.favor_diagonal = o->al.optimize_tension = o->al.variational_bayes = 0;
  o->sym = XMT_SYM_FORWARD;
  o->al.model = XMT_MODEL_IBM2;
  int reverse = 0, sym_given = 0, c;
  double v;
  optind = 1;
  while ((c = getopt_long(argc, argv, "i:rI:dova:p:T:h", options, NULL)) !=
         -1) {
    switch (c) {
    case 'i':
      o->input = optarg;
      break;
    case 'r':
      reverse = 1;
      break;
    case 'd':
      o->al.favor_diagonal = 1;
      break;
    case 'o':
      o->al.optimize_tension = 1;
      break;
    case 'v':
      o->al.variational_bayes = 1;
      break;
    case 'I':
      if (!number("-I", optarg, 1, 1000, &v) || v != (unsigned)v)
        return EXIT_BAD_INPUT;
      o->al.iterations = (unsigned)v;
      break;
    case 'a':
      if (!number("-a", optarg, 1e-300, 1e300, &o->al.alpha))
        return EXIT_BAD_INPUT;
      break;
    case 'p':
      if (!number("-p", optarg, 0, 0.999999, &o->al.prob_align_null))
        return EXIT_BAD_INPUT;
      break;
    case 'T':
      if (!number("-T", optarg, 1e-6, 1e6, &o->al.tension))
        return EXIT_BAD_INPUT;
      break;
    case OPT_SYM:
      if (xmt_symmetrization_parse(optarg, &o->sym) != XMT_OK) {
        xmt_cli_usage_error("align ",
                            "--symmetrize is one of intersect, union, "
                            "grow-diag, grow-diag-final, grow-diag-final-and");
        return EXIT_BAD_INPUT;
      }
      sym_given = 1;
      break;
    case OPT_TOKENIZE:
      o->tokenize = 1;
      break;
    case OPT_LOWER:
      o->al.lowercase = 1;
      break;
    case OPT_THREADS:
      if (!number("--threads", optarg, 0, 256, &v) || v != (unsigned)v)
        return EXIT_BAD_INPUT;
      o->al.threads = (unsigned)v;
      break;
    case OPT_SAVE:
      o->save = optarg;
      break;
    case OPT_MODEL: /* a model kind, else a model file */
      if (xmt_cli_parse_align_model(optarg, &o->al.model) != 0)
        o->model = optarg;
      break;
    case OPT_DICTIONARY:
      if (o->ndicts == sizeof o->dicts / sizeof *o->dicts) {
        xmt_cli_usage_error("align ", "too many --dictionary");
        return EXIT_BAD_INPUT;
      }
      o->dicts[o->ndicts++] = optarg;
      o->priors = 1;
      break;
    case OPT_SOURCE_LANG:
    case OPT_TARGET_LANG:
      o->lang[c == OPT_TARGET_LANG] = optarg;
      o->priors = 1;
      break;
    case 'h':
      usage(stdout);
      return EXIT_OK;
    default:
      xmt_cli_usage_error("align ", "bad option");
      return EXIT_BAD_INPUT;
    }
  }
  const char *problem = NULL;
  if (optind != argc)
    problem = "unexpected argument";
  else if (o->input == NULL)
    problem = "missing -i FILE";
  else if (o->model != NULL && o->save != NULL)
    problem = "--model aligns without training: it excludes --save-model";
  else if (reverse && sym_given)
    problem = "-r and --symmetrize exclude each other";
  if (problem != NULL) {
    xmt_cli_usage_error("align ", problem);
    return EXIT_BAD_INPUT;
  }
  if (reverse)
    o->sym = XMT_SYM_REVERSE;
  /* without prior options, exactly fast_align's model */
  o->al.string_priors = o->priors;
  return -1;
}

int xmt_cli_align(int argc, char **argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  int rc = parse_options(argc, argv, &s.opt);
  if (rc >= 0)
    return rc;
  s.aligner = xmt_aligner_new(&s.opt.al);
  s.all = xmt_tokens_new();
  s.tok[0] = xmt_tokens_new();
  s.tok[1] = xmt_tokens_new();
  s.aln = xmt_alignment_new();
  if (s.aligner == NULL || s.all == NULL || s.tok[0] == NULL ||
      s.tok[1] == NULL || s.aln == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    state_free(&s);
    return EXIT_INTERNAL;
  }
  if (s.opt.model != NULL && xmt_aligner_load(s.aligner, s.opt.model) != XMT_OK)
    rc = fail_aligner(&s);
  else if (s.opt.priors &&
           xmt_cli_aligner_priors(s.aligner, s.opt.lang[0], s.opt.lang[1],
                                  s.opt.dicts, s.opt.ndicts) != XMT_OK)
    rc = fail_aligner(&s);
  else if (!xmt_cli_lines_open(&s.in, s.opt.input))
    rc = EXIT_BAD_INPUT;
  else
    rc = s.opt.model != NULL ? force_align(&s) : train_align(&s);
  if (rc == EXIT_OK && fflush(stdout) != 0) {
    fputs("xliffmt: standard output: cannot write\n", stderr);
    rc = EXIT_INTERNAL;
  }
  state_free(&s);
  return rc;
}
