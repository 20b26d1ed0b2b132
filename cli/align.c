/* align.c -- xliffmt align: the built-in word aligner with fast_align's
 * command line: "source ||| target" lines in, Pharaoh alignments out. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
  xmt_cli_say("xliffmt: %s:%lu: %s\n", s->in.path, s->in.number, message);
  return EXIT_BAD_INPUT;
}

/* Splits the current line into the source and target texts and their
 * tokens. Returns an exit status. */
static int split_line(struct state *s) {
  const char *line = s->in.line;
  size_t len = s->in.len;
  size_t valid = xmt_utf8_valid_prefix(line, len);
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
  xmt_cli_progress("xliffmt: align: iteration %u/%u, %3.0f%% of %zu pairs",
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

/* Reads the next line as the pair of s: EXIT_OK, *more 1 for a pair and
 * 0 at the end; else the exit status of a line that is not a pair. */
static int next_pair(struct state *s, int *more) {
  int got = xmt_cli_lines_next(&s->in);
  *more = got > 0;
  if (got < 0)
    return EXIT_BAD_INPUT;
  return got > 0 ? split_line(s) : EXIT_OK;
}

/* With --model: aligns each line as it is read. */
static int force_align(struct state *s) {
  int more, rc;
  while ((rc = next_pair(s, &more)) == EXIT_OK && more) {
    if (xmt_aligner_align(s->aligner, s->text[0], s->len[0], s->tok[0],
                          s->text[1], s->len[1], s->tok[1], s->opt.sym,
                          s->aln) != XMT_OK)
      return fail_aligner(s);
    print_links(s->aln);
  }
  return rc;
}

/* Reads every line, trains, prints the alignment of each. */
static int train_align(struct state *s) {
  int more, rc;
  while ((rc = next_pair(s, &more)) == EXIT_OK && more) {
    if (xmt_aligner_add(s->aligner, s->text[0], s->len[0], s->tok[0],
                        s->text[1], s->len[1], s->tok[1]) != XMT_OK) {
      const struct xmt_error *e = xmt_aligner_error(s->aligner);
      bad_line(s, e->message);
      return xmt_cli_exit_status(e->status);
    }
  }
  if (rc != EXIT_OK)
    return rc;
  if (s->in.number == 0) {
    xmt_cli_say("xliffmt: %s: no sentence pairs\n", s->in.path);
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
  OPT_TARGET_LANG,
  OPT_NULL_PRIOR,
  OPT_NULL_ALPHA,
  OPT_NULL_MASS
};

static const struct xmt_cli_option align_options[] = {
    {"input", 'i', "FILE", "the corpus (\"-\": standard input)"},
    {"favor_diagonal", 'd', NULL, "favour the diagonal (recommended)"},
    {"optimize_tension", 'o', NULL,
     "optimize the diagonal tension\n(recommended)"},
    {"variational_bayes", 'v', NULL,
     "variational Bayes, Dirichlet prior on\ntranslations (recommended)"},
    {"reverse", 'r', NULL, "align in reverse (predict source words)"},
    {"iterations", 'I', "N", "EM iterations, the last aligning (default\n5)"},
    {"alpha", 'a', "ALPHA", "Dirichlet parameter for -v (default 0.01)"},
    {"p0", 'p', "PROB", "probability of a NULL link (default 0.08)"},
    {"diagonal_tension", 'T', "TENSION",
     "starting diagonal tension (default 4)"},
    {"symmetrize", OPT_SYM, "H",
     "train both directions and combine them:\nintersect, union, grow-diag, "
     "grow-diag-final,\ngrow-diag-final-and, intersect-first"},
    {"tokenize", OPT_TOKENIZE, NULL,
     "split each side into xliffmt's word tokens\n(ICU word boundaries) "
     "instead of at spaces"},
    {"lowercase", OPT_LOWER, NULL, "compare words lowercased"},
    {"threads", OPT_THREADS, "N", "training threads (default: the cores)"},
    {"save-model", OPT_SAVE, "F", "also write the trained model to F"},
    {"model", OPT_MODEL, "F|bayes|ibm2",
     "F: align with the model in F, without\ntraining; bayes or ibm2: the "
     "model to train:\nibm2 (fast_align's, the default) or bayes\n(Gibbs "
     "sampling of IBM1, HMM and\nfertility; better on small corpora)"},
    {"dictionary", OPT_DICTIONARY, "D",
     "prior word translations: auto (the\ninstalled dictionaries of the "
     "languages),\nnone, or a FreeDict, Apertium or TSV file;\nrepeatable"},
    {"source-lang", OPT_SOURCE_LANG, "L",
     "the languages (e.g. en, de): stems and\ndictionaries; with --dictionary "
     "or the\nlanguages, identical words and cognates\nare prior links too"},
    {"target-lang", OPT_TARGET_LANG, "L", "the same for the target side"},
    {"null-prior", OPT_NULL_PRIOR, "P",
     "with --model bayes: the prior probability\nof a NULL link (default "
     "0.1)"},
    {"null-alpha", OPT_NULL_ALPHA, "A",
     "with --model bayes: the Dirichlet\nconcentration of the NULL word's\n"
     "translations (default 10; small: NULL\nlearns the words it produces)"},
    {"null-mass", OPT_NULL_MASS, "M",
     "with --model bayes: the NULL word's\npseudo-counts add up to at most M\n"
     "(default 300; 0: no bound)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command align = {
    "align ",
    "Usage: xliffmt align -i FILE [-d] [-o] [-v] [-r] [-I N] [-a ALPHA]\n"
    "                     [-p PROB] [-T TENSION] [--symmetrize HEURISTIC]\n"
    "                     [--tokenize] [--lowercase] [--threads N]\n"
    "                     [--save-model F | --model F] [--model bayes|ibm2]\n"
    "                     [--dictionary D]... [--source-lang L]\n"
    "                     [--target-lang L] [--null-prior P]\n"
    "                     [--null-alpha A] [--null-mass M]\n\n"
    "Word-aligns a parallel corpus as fast_align does (IBM Model 2 with a\n"
    "diagonal prior). FILE has one sentence pair a line, \"source |||\n"
    "target\", words separated by spaces; standard output gets one line of\n"
    "Pharaoh links \"i-j\" (source word i, target word j, from 0) for\n"
    "each.\n\n",
    XMT_CLI_GROUPS(align_options), NULL, NULL};

struct align_args {
  struct options *o;
  int reverse, sym_given;
};

/* The numbers of fast_align's options. */
static int take_number(struct options *o, int c, const char *arg) {
  double v;
  switch (c) {
  case 'I':
    if (!number("-I", arg, 1, 1000, &v) || v != (unsigned)v)
      return 0;
    o->al.iterations = (unsigned)v;
    return 1;
  case 'a':
    return number("-a", arg, 1e-300, 1e300, &o->al.alpha);
  case 'p':
    return number("-p", arg, 0, 0.999999, &o->al.prob_align_null);
  case 'T':
    return number("-T", arg, 1e-6, 1e6, &o->al.tension);
  case OPT_NULL_PRIOR:
    return number("--null-prior", arg, 1e-6, 0.999999, &o->al.null_prior);
  case OPT_NULL_ALPHA:
    return number("--null-alpha", arg, 1e-9, 1e6, &o->al.null_alpha);
  case OPT_NULL_MASS:
    return number("--null-mass", arg, 0, 1e12, &o->al.null_mass);
  case OPT_THREADS:
    if (!number("--threads", arg, 0, 256, &v) || v != (unsigned)v)
      return 0;
    o->al.threads = (unsigned)v;
    return 1;
  }
  return -1;
}

/* The files and the flags of fast_align's options. */
#define FLAG(code, member) XMT_CLI_FLAG(code, struct options, member)
static const struct xmt_cli_store kept[] = {
    XMT_CLI_STRING('i', struct options, input),
    XMT_CLI_STRING(OPT_SAVE, struct options, save),
    FLAG('d', al.favor_diagonal),
    FLAG('o', al.optimize_tension),
    FLAG('v', al.variational_bayes),
    FLAG(OPT_TOKENIZE, tokenize),
    FLAG(OPT_LOWER, al.lowercase)};
#undef FLAG

static int take(void *user, int c, const char *arg) {
  struct align_args *a = user;
  struct options *o = a->o;
  int taken = take_number(o, c, arg);
  if (taken >= 0)
    return taken;
  if (xmt_cli_store(kept, sizeof kept / sizeof *kept, o, c, arg))
    return 1;
  switch (c) {
  case 'r':
    a->reverse = 1;
    break;
  case OPT_SYM:
    if (xmt_symmetrization_parse(arg, &o->sym) != XMT_OK) {
      xmt_cli_usage_error("align ",
                          "--symmetrize is one of intersect, union, "
                          "grow-diag, grow-diag-final, grow-diag-final-and, "
                          "intersect-first");
      return 0;
    }
    a->sym_given = 1;
    break;
  case OPT_MODEL: /* a model kind, else a model file */
    if (xmt_align_model_parse(arg, &o->al.model) != XMT_OK)
      o->model = arg;
    break;
  case OPT_DICTIONARY:
    if (o->ndicts == sizeof o->dicts / sizeof *o->dicts) {
      xmt_cli_usage_error("align ", "too many --dictionary");
      return 0;
    }
    o->dicts[o->ndicts++] = arg;
    o->priors = 1;
    break;
  case OPT_SOURCE_LANG:
  case OPT_TARGET_LANG:
    o->lang[c == OPT_TARGET_LANG] = arg;
    o->priors = 1;
    break;
  }
  return 1;
}

/* Reads the options into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, struct options *o) {
  xmt_aligner_options_init(&o->al);
  /* fast_align's defaults: no -d, -o, -v unless asked for */
  o->al.favor_diagonal = o->al.optimize_tension = o->al.variational_bayes = 0;
  o->sym = XMT_SYM_FORWARD;
  o->al.model = XMT_MODEL_IBM2;
  struct align_args a = {o, 0, 0};
  int rc = xmt_cli_parse(&align, argc, argv, take, &a);
  if (rc >= 0)
    return rc;
  const char *problem = NULL;
  if (optind != argc)
    problem = "unexpected argument";
  else if (o->input == NULL)
    problem = "missing -i FILE";
  else if (o->model != NULL && o->save != NULL)
    problem = "--model aligns without training: it excludes --save-model";
  else if (a.reverse && a.sym_given)
    problem = "-r and --symmetrize exclude each other";
  if (problem != NULL) {
    xmt_cli_usage_error("align ", problem);
    return EXIT_BAD_INPUT;
  }
  if (a.reverse)
    o->sym = XMT_SYM_REVERSE;
  /* without prior options, exactly fast_align's model */
  o->al.string_priors = o->priors;
  return -1;
}

/* The files read and the model saved: never one. */
static int files_check(const struct options *o) {
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add(&fs, XMT_CLI_READS, o->input, "-i", "the corpus", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, o->model, "--model",
                    "the aligner model", NULL);
  for (size_t k = 0; k < o->ndicts; k++)
    if (strcmp(o->dicts[k], "auto") != 0 && strcmp(o->dicts[k], "none") != 0)
      xmt_cli_files_add(&fs, XMT_CLI_READS, o->dicts[k], "--dictionary",
                        "a dictionary", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_WRITES, o->save, "--save-model",
                    "the model saved", NULL);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}

int xmt_cli_align(int argc, char **argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  int rc = parse_options(argc, argv, &s.opt);
  if (rc >= 0)
    return rc;
  if ((rc = files_check(&s.opt)) != EXIT_OK)
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
