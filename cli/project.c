/* project.c -- xliffmt project: line-oriented tag projection, tagged
 * source + plain translation + word alignment -> tagged translation. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *fp) {
  fprintf(
      fp,
      "Usage: xliffmt project --source SRC --target TGT --alignment ALN\n"
      "                       [--source-tokens F --target-tokens F\n"
      "                        [--token-style moses|sentencepiece|bpe]]\n"
      "                       [--rule minmax|score] [--generic] [-o OUT]\n\n"
      "Puts the tags of each tagged source segment into its translation.\n"
      "SRC has one tagged segment per line (XLIFF 1.2 inline markup), TGT\n"
      "the plain translation of each, ALN one Pharaoh alignment per line\n"
      "(\"0-0 1-2 2-1\") over the tokens of the detagged source and of the\n"
      "translation. OUT gets the translations with the tags, one per line,\n"
      "the tags written as in SRC.\n\n"
      "  -s, --source SRC         tagged source segments\n"
      "  -t, --target TGT         plain translations\n"
      "  -a, --alignment ALN      word alignments, one line per segment (an\n"
      "                           empty line: tags go to proportional spots)\n"
      "      --source-tokens F    the tokens ALN indexes in the source, one\n"
      "      --target-tokens F    line per segment, separated by spaces\n"
      "                           (default: xliffmt's own word tokens)\n"
      "      --token-style STYLE  how F is tokenized: moses (default),\n"
      "                           sentencepiece or bpe\n"
      "      --rule RULE          minmax (default): a pair spans the aligned\n"
      "                           tokens' min..max; score: the span with the\n"
      "                           most links inside-inside + outside-outside\n"
      "  -g, --generic            SRC holds any XML/HTML inline elements\n"
      "  -o, --output OUT         output file (written whole or not at all;\n"
      "                           default: standard output)\n"
      "      --aligner self       instead of ALN, align with the built-in\n"
      "                           aligner trained on the detagged SRC and TGT\n"
      "      --train-source F     with --aligner self: more plain parallel\n"
      "      --train-target F     text to train on, one sentence a line\n"
      "      --aligner-model F    with --aligner self: a model saved by\n"
      "                           'xliffmt align --save-model' seeds training\n"
      "      --symmetrize H       with --aligner self: how the two directions\n"
      "                           combine (default grow-diag-final-and; see\n"
      "                           xliffmt-align(1))\n"
      "      --lowercase          with --aligner self: compare words "
      "lowercased\n"
      "      --model M            with --aligner self: bayes (default; Gibbs\n"
      "                           sampling of IBM1, HMM and fertility) or\n"
      "                           ibm2 (fast_align's model, faster)\n"
      "      --dictionary D       with --aligner self: prior word "
      "translations\n"
      "                           from auto (the installed dictionaries of\n"
      "                           the languages; the default), none, or a\n"
      "                           FreeDict, Apertium or TSV file; repeatable\n"
      "      --update-model       with --aligner-model F: write the model,\n"
      "                           grown by this corpus's links, back to F\n"
      "                           (created if missing)\n"
      "      --no-priors          with --aligner self: no dictionaries, no\n"
      "                           identical-word or cognate links\n"
      "      --source-lang L      with --aligner self: the languages, for\n"
      "      --target-lang L      stems and dictionaries (e.g. en, de)\n"
      "  -h, --help               this help\n");
}

enum { IN_SRC, IN_TGT, IN_ALN, IN_STOK, IN_TTOK, IN_COUNT };

struct options {
  const char *path[IN_COUNT];
  const char *output;
  enum xmt_token_style style;
  enum xmt_projection_rule rule;
  int generic;
  int self; /* --aligner self */
  const char *train_src, *train_tgt, *model;
  enum xmt_symmetrization sym;
  int lowercase;
  enum xmt_align_model kind; /* --model */
  const char *dicts[16];
  size_t ndicts;
  const char *lang[2];
  int no_priors;
  int update_model;
};

/* The lines of one input kept in memory (--aligner self reads the inputs
 * twice: to train, then to project). */
struct store {
  char *data;
  size_t len, cap;
  size_t *end; /* line k is data[end[k-1] .. end[k]) (end[-1] = 0) */
  size_t n, ncap;
};

/* Everything one run holds; freed by state_free. */
struct state {
  struct options opt;
  struct xmt_cli_lines in[IN_COUNT];
  size_t nin;           /* inputs in use: 3, or 5 with token files */
  xmt_aligner *aligner; /* --aligner self */
  struct store kept[IN_COUNT];
  size_t pair;    /* index of the current line's pair in the aligner */
  int collecting; /* first pass of --aligner self */
  int untrained;  /* --aligner self found nothing to train on */
  int progress_shown;
  xmt_segment *src, *out;
  xmt_tokens *stok, *ttok;
  xmt_alignment *aln;
  struct xmt_cli_output output;
};

static void state_free(struct state *s) {
  for (size_t i = 0; i < IN_COUNT; i++) {
    xmt_cli_lines_close(&s->in[i]);
    free(s->kept[i].data);
    free(s->kept[i].end);
  }
  xmt_aligner_free(s->aligner);
  xmt_segment_free(s->src);
  xmt_segment_free(s->out);
  xmt_tokens_free(s->stok);
  xmt_tokens_free(s->ttok);
  xmt_alignment_free(s->aln);
  xmt_cli_output_abort(&s->output);
}

/* Reports an error of input i at its current line. */
static int fail(const struct state *s, int i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const struct state *s, int i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "xliffmt: %s:%lu: ", s->in[i].path, s->in[i].number);
  /* clang-tidy 14 misreads va_start in a function with a format attribute */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return EXIT_BAD_INPUT;
}

/* The k-th (0-based) space-separated field of a line, for messages. */
static void field(const char *line, size_t k, char *buf, size_t size) {
  const char *p = line;
  for (;;) {
    p += strspn(p, " \t");
    size_t n = strcspn(p, " \t");
    if (n == 0 || k-- == 0) {
      snprintf(buf, size, "%.*s", (int)(n < 40 ? n : 40), p);
      return;
    }
    p += n;
  }
}

/* Tokens of input i (a token file) mapped onto text. */
static int map_tokens(struct state *s, int i, xmt_tokens *tokens,
                      const char *text, size_t len) {
  size_t bad = 0;
  xmt_status st = xmt_tokens_map(tokens, text, len, s->in[i].line, s->in[i].len,
                                 s->opt.style, &bad);
  if (st == XMT_ERR_USAGE) {
    char tok[64];
    field(s->in[i].line, bad, tok, sizeof tok);
    return fail(s, i, "token %zu \"%s\" does not match the %s text", bad + 1,
                tok, i == IN_STOK ? "source" : "target");
  }
  if (st != XMT_OK)
    return fail(s, i, "cannot map the tokens: %s", xmt_strerror(st));
  return EXIT_OK;
}

static int tokenize(struct state *s, int i, xmt_tokens *tokens,
                    const char *text, size_t len) {
  xmt_status st = xmt_tokenize(tokens, text, len, XMT_TOKENIZE_DEFAULT);
  if (st != XMT_OK)
    return fail(s, i, "cannot tokenize: %s", xmt_strerror(st));
  return EXIT_OK;
}

static int alignment(struct state *s) {
  if (s->untrained) {
    xmt_alignment_clear(s->aln);
    s->pair++;
    return EXIT_OK;
  }
  if (s->aligner != NULL) {
    if (xmt_aligner_align_pair(s->aligner, s->pair++, s->opt.sym, s->aln) ==
        XMT_OK)
      return EXIT_OK;
    const struct xmt_error *e = xmt_aligner_error(s->aligner);
    fail(s, IN_SRC, "cannot align: %s", e->message);
    return xmt_cli_exit_status(e->status);
  }
  size_t ns = xmt_tokens_count(s->stok), nt = xmt_tokens_count(s->ttok);
  size_t bad = 0;
  const struct xmt_cli_lines *a = &s->in[IN_ALN];
  xmt_status st = xmt_alignment_parse(s->aln, a->line, a->len, ns, nt, &bad);
  if (st == XMT_OK)
    return EXIT_OK;
  if (st != XMT_ERR_USAGE)
    return fail(s, IN_ALN, "%s", xmt_strerror(st));
  char pair[64];
  size_t i, j;
  char sep, rest;
  field(a->line, bad, pair, sizeof pair);
  if (sscanf(pair, "%zu%c%zu%c", &i, &sep, &j, &rest) == 3 &&
      (sep == '-' || sep == 'p'))
    return fail(s, IN_ALN,
                "alignment pair %zu \"%s\" is out of range: the source has "
                "%zu tokens, the target %zu",
                bad + 1, pair, ns, nt);
  return fail(s, IN_ALN, "alignment pair %zu \"%s\" is not of the form i-j",
              bad + 1, pair);
}

/* Keeps line i of the inputs for the second pass. */
static int keep(struct state *s, int i) {
  struct store *k = &s->kept[i];
  const struct xmt_cli_lines *in = &s->in[i];
  if (k->cap - k->len < in->len) {
    size_t cap = k->cap ? k->cap : 4096;
    while (cap - k->len < in->len)
      cap *= 2;
    char *d = realloc(k->data, cap);
    if (d == NULL)
      return 0;
    k->data = d;
    k->cap = cap;
  }
  if (k->n == k->ncap) {
    size_t ncap = k->ncap ? k->ncap * 2 : 256;
    size_t *e = realloc(k->end, ncap * sizeof *e);
    if (e == NULL)
      return 0;
    k->end = e;
    k->ncap = ncap;
  }
  if (in->len > 0)
    memcpy(k->data + k->len, in->line, in->len);
  k->len += in->len;
  k->end[k->n++] = k->len;
  return 1;
}

/* First pass of --aligner self: the detagged source and the target of the
 * current line become a training pair; the lines are kept. */
static int add_pair(struct state *s, const char *text, size_t len) {
  const struct xmt_cli_lines *tgt = &s->in[IN_TGT];
  for (size_t i = 0; i < IN_COUNT; i++)
    if (s->opt.path[i] != NULL && !keep(s, (int)i)) {
      fputs("xliffmt: out of memory\n", stderr);
      return EXIT_INTERNAL;
    }
  if (xmt_aligner_add(s->aligner, text, len, s->stok, tgt->line, tgt->len,
                      s->ttok) != XMT_OK) {
    const struct xmt_error *e = xmt_aligner_error(s->aligner);
    fail(s, IN_TGT, "%s", e->message);
    return xmt_cli_exit_status(e->status);
  }
  return EXIT_OK;
}

/* Projects the current line and writes it (or, in the first pass of
 * --aligner self, adds it to the aligner). Returns an exit status. */
static int project_line(struct state *s) {
  const struct xmt_cli_lines *src = &s->in[IN_SRC], *tgt = &s->in[IN_TGT];
  unsigned long column = 0;
  xmt_status st =
      s->opt.generic
          ? xmt_xliff_inline_parse_generic(s->src, src->line, src->len, &column)
          : xmt_xliff_inline_parse(s->src, src->line, src->len, &column);
  if (st != XMT_OK) {
    fprintf(stderr,
            "xliffmt: %s:%lu:%lu: cannot parse the tagged segment: %s\n",
            src->path, src->number, column, xmt_strerror(st));
    return xmt_cli_exit_status(st);
  }
  size_t len;
  const char *text = xmt_segment_text(s->src, &len);
  int rc = s->nin > IN_STOK ? map_tokens(s, IN_STOK, s->stok, text, len)
                            : tokenize(s, IN_SRC, s->stok, text, len);
  if (rc == EXIT_OK)
    rc = s->nin > IN_TTOK ? map_tokens(s, IN_TTOK, s->ttok, tgt->line, tgt->len)
                          : tokenize(s, IN_TGT, s->ttok, tgt->line, tgt->len);
  if (rc == EXIT_OK && s->collecting)
    return add_pair(s, text, len);
  if (rc == EXIT_OK)
    rc = alignment(s);
  if (rc != EXIT_OK)
    return rc;
  st = xmt_project(s->out, s->src, s->stok, tgt->line, tgt->len, s->ttok,
                   s->aln, s->opt.rule);
  if (st != XMT_OK) {
    fail(s, IN_TGT, "cannot project the tags of %s line %lu: %s", src->path,
         src->number, xmt_strerror(st));
    return xmt_cli_exit_status(st);
  }
  size_t out_len;
  char *out = xmt_xliff_inline_render(s->out, &out_len);
  if (out == NULL) {
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  fwrite(out, 1, out_len, s->output.fp);
  fputc('\n', s->output.fp);
  free(out);
  return EXIT_OK;
}

/* Reads the inputs in step to their common end. */
static int run(struct state *s) {
  for (;;) {
    int more[IN_COUNT] = {0}, any = 0, all = 1;
    for (size_t i = 0; i < s->nin; i++) {
      if (s->opt.path[i] == NULL) {
        more[i] = -1; /* not in use */
        continue;
      }
      if ((more[i] = xmt_cli_lines_next(&s->in[i])) < 0)
        return EXIT_BAD_INPUT;
      any |= more[i];
      all &= more[i];
    }
    if (!any)
      return EXIT_OK;
    if (!all) {
      size_t shorter = 0, longer = 0;
      while (shorter + 1 < s->nin && more[shorter] != 0)
        shorter++;
      while (longer + 1 < s->nin && more[longer] != 1)
        longer++;
      return fail(s, (int)shorter,
                  "the file ends after %lu lines, but %s has more",
                  s->in[shorter].number, s->in[longer].path);
    }
    int rc = project_line(s);
    if (rc != EXIT_OK)
      return rc;
  }
}

static int progress(void *user, unsigned iteration, unsigned iterations,
                    size_t done, size_t pairs) {
  struct state *s = user;
  fprintf(stderr, "\rxliffmt: training the aligner: iteration %u/%u, %3.0f%%",
          iteration, iterations,
          pairs ? 100.0 * (double)done / (double)pairs : 100.0);
  s->progress_shown = 1;
  return 0;
}

/* Adds the lines of --train-source and --train-target, tokenized. */
static int add_training_text(struct state *s) {
  struct xmt_cli_lines in[2];
  memset(in, 0, sizeof in);
  int rc = EXIT_OK;
  if (!xmt_cli_lines_open(&in[0], s->opt.train_src) ||
      !xmt_cli_lines_open(&in[1], s->opt.train_tgt))
    rc = EXIT_BAD_INPUT;
  while (rc == EXIT_OK) {
    int m0 = xmt_cli_lines_next(&in[0]),
        m1 = m0 < 0 ? 0 : xmt_cli_lines_next(&in[1]);
    if (m0 < 0 || m1 < 0) {
      rc = EXIT_BAD_INPUT;
      break;
    }
    if (!m0 && !m1)
      break;
    if (m0 != m1) {
      int k = m0 ? 1 : 0;
      fprintf(stderr,
              "xliffmt: %s:%lu: the file ends after %lu lines, but %s "
              "has more\n",
              in[k].path, in[k].number, in[k].number, in[1 - k].path);
      rc = EXIT_BAD_INPUT;
      break;
    }
    xmt_tokens *tok[2] = {s->stok, s->ttok};
    for (int k = 0; k < 2 && rc == EXIT_OK; k++) {
      xmt_status st =
          xmt_tokenize(tok[k], in[k].line, in[k].len, XMT_TOKENIZE_DEFAULT);
      if (st != XMT_OK) {
        fprintf(stderr, "xliffmt: %s:%lu: cannot tokenize: %s\n", in[k].path,
                in[k].number, xmt_strerror(st));
        rc = xmt_cli_exit_status(st);
      }
    }
    if (rc == EXIT_OK &&
        xmt_aligner_add(s->aligner, in[0].line, in[0].len, s->stok, in[1].line,
                        in[1].len, s->ttok) != XMT_OK) {
      const struct xmt_error *e = xmt_aligner_error(s->aligner);
      fprintf(stderr, "xliffmt: %s:%lu: %s\n", in[0].path, in[0].number,
              e->message);
      rc = xmt_cli_exit_status(e->status);
    }
  }
  xmt_cli_lines_close(&in[0]);
  xmt_cli_lines_close(&in[1]);
  return rc;
}

/* Copies kept line k of input i back into its line buffer. */
static int restore(struct state *s, int i, size_t k) {
  struct store *st = &s->kept[i];
  struct xmt_cli_lines *in = &s->in[i];
  size_t from = k ? st->end[k - 1] : 0, len = st->end[k] - from;
  if (in->cap < len + 1) {
    char *line = realloc(in->line, len + 1);
    if (line == NULL)
      return 0;
    in->line = line;
    in->cap = len + 1;
  }
  if (len > 0)
    memcpy(in->line, st->data + from, len);
  in->line[len] = '\0';
  in->len = len;
  in->number = (unsigned long)k + 1;
  return 1;
}

/* --aligner self: reads the inputs, trains, then projects line by line. */
static int run_self(struct state *s) {
  s->collecting = 1;
  int rc = run(s);
  s->collecting = 0;
  if (rc == EXIT_OK && s->opt.train_src != NULL)
    rc = add_training_text(s);
  if (rc != EXIT_OK)
    return rc;
  xmt_status st = xmt_aligner_train(s->aligner, isatty(2) ? progress : NULL, s);
  if (s->progress_shown)
    fputc('\n', stderr);
  if (st == XMT_ERR_USAGE && xmt_aligner_pair_count(s->aligner) > 0) {
    /* nothing to learn from (no pair with words on both sides): no links,
     * unless a loaded model gives some */
    s->untrained = s->opt.model == NULL;
  } else if (st != XMT_OK) {
    xmt_cli_report(xmt_aligner_error(s->aligner));
    return xmt_cli_exit_status(st);
  }
  size_t lines = s->kept[IN_SRC].n;
  for (size_t k = 0; k < lines && rc == EXIT_OK; k++) {
    for (size_t i = 0; i < IN_COUNT; i++)
      if (s->opt.path[i] != NULL && !restore(s, (int)i, k)) {
        fputs("xliffmt: out of memory\n", stderr);
        return EXIT_INTERNAL;
      }
    rc = project_line(s);
  }
  return rc;
}

enum {
  OPT_STOK = 256,
  OPT_TTOK,
  OPT_STYLE,
  OPT_RULE,
  OPT_ALIGNER,
  OPT_TRAIN_SRC,
  OPT_TRAIN_TGT,
  OPT_MODEL,
  OPT_SYM,
  OPT_LOWER,
  OPT_ALIGN_MODEL,
  OPT_DICTIONARY,
  OPT_SOURCE_LANG,
  OPT_TARGET_LANG,
  OPT_NO_PRIORS,
  OPT_UPDATE_MODEL,
};

/* Reads the options into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, struct options *o) {
  static const struct option options[] = {
      {"source", required_argument, NULL, 's'},
      {"target", required_argument, NULL, 't'},
      {"alignment", required_argument, NULL, 'a'},
      {"source-tokens", required_argument, NULL, OPT_STOK},
      {"target-tokens", required_argument, NULL, OPT_TTOK},
      {"token-style", required_argument, NULL, OPT_STYLE},
      {"rule", required_argument, NULL, OPT_RULE},
      {"aligner", required_argument, NULL, OPT_ALIGNER},
      {"train-source", required_argument, NULL, OPT_TRAIN_SRC},
      {"train-target", required_argument, NULL, OPT_TRAIN_TGT},
      {"aligner-model", required_argument, NULL, OPT_MODEL},
      {"symmetrize", required_argument, NULL, OPT_SYM},
      {"lowercase", no_argument, NULL, OPT_LOWER},
      {"model", required_argument, NULL, OPT_ALIGN_MODEL},
      {"dictionary", required_argument, NULL, OPT_DICTIONARY},
      {"source-lang", required_argument, NULL, OPT_SOURCE_LANG},
      {"target-lang", required_argument, NULL, OPT_TARGET_LANG},
      {"no-priors", no_argument, NULL, OPT_NO_PRIORS},
      {"update-model", no_argument, NULL, OPT_UPDATE_MODEL},
      {"generic", no_argument, NULL, 'g'},
      {"output", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *style = NULL, *aligner = NULL, *sym = NULL;
  int c, priors = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "s:t:a:go:h", options, NULL)) != -1) {
    switch (c) {
    case 's':
      o->path[IN_SRC] = optarg;
      break;
    case 't':
      o->path[IN_TGT] = optarg;
      break;
    case 'a':
      o->path[IN_ALN] = optarg;
      break;
    case OPT_STOK:
      o->path[IN_STOK] = optarg;
      break;
    case OPT_TTOK:
      o->path[IN_TTOK] = optarg;
      break;
    case OPT_STYLE:
      style = optarg;
      break;
    case OPT_RULE:
      if (strcmp(optarg, "minmax") == 0) {
        o->rule = XMT_RULE_MINMAX;
      } else if (strcmp(optarg, "score") == 0) {
        o->rule = XMT_RULE_SCORE;
      } else {
        xmt_cli_usage_error("project ", "--rule is minmax or score");
        return EXIT_BAD_INPUT;
      }
      break;
    case OPT_ALIGNER:
      aligner = optarg;
      break;
    case OPT_TRAIN_SRC:
      o->train_src = optarg;
      break;
    case OPT_TRAIN_TGT:
      o->train_tgt = optarg;
      break;
    case OPT_MODEL:
      o->model = optarg;
      break;
    case OPT_SYM:
      sym = optarg;
      break;
    case OPT_LOWER:
      o->lowercase = 1;
      break;
    case OPT_ALIGN_MODEL:
      if (xmt_cli_parse_align_model(optarg, &o->kind) != 0) {
        xmt_cli_usage_error("project ", "--model is bayes or ibm2");
        return EXIT_BAD_INPUT;
      }
      priors = 1;
      break;
    case OPT_DICTIONARY:
      if (o->ndicts == sizeof o->dicts / sizeof *o->dicts) {
        xmt_cli_usage_error("project ", "too many --dictionary");
        return EXIT_BAD_INPUT;
      }
      o->dicts[o->ndicts++] = optarg;
      priors = 1;
      break;
    case OPT_SOURCE_LANG:
    case OPT_TARGET_LANG:
      o->lang[c == OPT_TARGET_LANG] = optarg;
      priors = 1;
      break;
    case OPT_UPDATE_MODEL:
      o->update_model = 1;
      break;
    case OPT_NO_PRIORS:
      o->no_priors = priors = 1;
      break;
    case 'g':
      o->generic = 1;
      break;
    case 'o':
      o->output = optarg;
      break;
    case 'h':
      usage(stdout);
      return EXIT_OK;
    default:
      xmt_cli_usage_error("project ", "bad option");
      return EXIT_BAD_INPUT;
    }
  }
  const char *problem = NULL;
  if (optind != argc)
    problem = "unexpected argument";
  else if (aligner != NULL && strcmp(aligner, "self") != 0)
    problem = "unknown aligner (known: self)";
  else if (o->path[IN_SRC] == NULL)
    problem = "missing --source SRC";
  else if (o->path[IN_TGT] == NULL)
    problem = "missing --target TGT";
  else if ((o->path[IN_STOK] == NULL) != (o->path[IN_TTOK] == NULL))
    problem = "--source-tokens and --target-tokens go together";
  else if (style != NULL && o->path[IN_STOK] == NULL)
    problem = "--token-style needs --source-tokens and --target-tokens";
  else if (aligner == NULL && o->path[IN_ALN] == NULL)
    problem = "missing --alignment ALN or --aligner self";
  else if (aligner != NULL && o->path[IN_ALN] != NULL)
    problem = "--alignment and --aligner exclude each other";
  else if ((o->train_src == NULL) != (o->train_tgt == NULL))
    problem = "--train-source and --train-target go together";
  else if (aligner == NULL && (o->train_src != NULL || o->model != NULL ||
                               sym != NULL || o->lowercase || priors))
    problem = "--train-source, --train-target, --aligner-model, --symmetrize, "
              "--lowercase, --model, --dictionary and the languages need "
              "--aligner self";
  else if (sym != NULL && xmt_symmetrization_parse(sym, &o->sym) != XMT_OK)
    problem = "--symmetrize is one of forward, reverse, intersect, union, "
              "grow-diag, grow-diag-final, grow-diag-final-and";
  else if (o->update_model && (aligner == NULL || o->model == NULL))
    problem = "--update-model needs --aligner self and --aligner-model F";
  else if (o->no_priors && o->ndicts > 0)
    problem = "--no-priors and --dictionary exclude each other";
  if (problem != NULL) {
    xmt_cli_usage_error("project ", problem);
    return EXIT_BAD_INPUT;
  }
  o->self = aligner != NULL;
  if (style == NULL || strcmp(style, "moses") == 0) {
    o->style = XMT_TOKENS_MOSES;
  } else if (strcmp(style, "sentencepiece") == 0) {
    o->style = XMT_TOKENS_SENTENCEPIECE;
  } else if (strcmp(style, "bpe") == 0) {
    o->style = XMT_TOKENS_BPE;
  } else {
    xmt_cli_usage_error("project ",
                        "--token-style is moses, sentencepiece or bpe");
    return EXIT_BAD_INPUT;
  }
  return -1;
}

int xmt_cli_project(int argc, char **argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  s.opt.rule = XMT_RULE_MINMAX;
  s.opt.sym = XMT_SYM_GROW_DIAG_FINAL_AND; /* best overall: bench */
  s.opt.kind = XMT_CLI_DEFAULT_ALIGN_MODEL;
  int rc = parse_options(argc, argv, &s.opt);
  if (rc >= 0)
    return rc;
  s.nin = s.opt.path[IN_STOK] != NULL ? IN_COUNT : IN_STOK;
  rc = EXIT_OK;
  for (size_t i = 0; i < s.nin && rc == EXIT_OK; i++)
    if (s.opt.path[i] != NULL && !xmt_cli_lines_open(&s.in[i], s.opt.path[i]))
      rc = EXIT_BAD_INPUT;
  if (rc == EXIT_OK && s.opt.self) {
    struct xmt_aligner_options ao;
    xmt_aligner_options_init(&ao);
    ao.lowercase = s.opt.lowercase;
    ao.model = s.opt.kind;
    ao.string_priors = !s.opt.no_priors;
    if ((s.aligner = xmt_aligner_new(&ao)) == NULL) {
      fputs("xliffmt: out of memory\n", stderr);
      rc = EXIT_INTERNAL;
    } else if (!s.opt.no_priors &&
               xmt_cli_aligner_priors(s.aligner, s.opt.lang[0], s.opt.lang[1],
                                      s.opt.dicts, s.opt.ndicts) != XMT_OK) {
      xmt_cli_report(xmt_aligner_error(s.aligner));
      rc = xmt_cli_exit_status(xmt_aligner_error(s.aligner)->status);
    } else if (s.opt.model != NULL &&
               (!s.opt.update_model || access(s.opt.model, F_OK) == 0) &&
               xmt_aligner_load(s.aligner, s.opt.model) != XMT_OK) {
      xmt_cli_report(xmt_aligner_error(s.aligner));
      rc = xmt_cli_exit_status(xmt_aligner_error(s.aligner)->status);
    }
  }
  if (rc == EXIT_OK) {
    s.src = xmt_segment_new();
    s.out = xmt_segment_new();
    s.stok = xmt_tokens_new();
    s.ttok = xmt_tokens_new();
    s.aln = xmt_alignment_new();
    if (s.src == NULL || s.out == NULL || s.stok == NULL || s.ttok == NULL ||
        s.aln == NULL) {
      fputs("xliffmt: out of memory\n", stderr);
      rc = EXIT_INTERNAL;
    }
  }
  if (rc == EXIT_OK)
    rc = xmt_cli_output_open(&s.output, s.opt.output);
  if (rc == EXIT_OK)
    rc = s.opt.self ? run_self(&s) : run(&s);
  if (rc == EXIT_OK)
    rc = xmt_cli_output_commit(&s.output);
  if (rc == EXIT_OK && s.opt.update_model &&
      xmt_aligner_save(s.aligner, s.opt.model) != XMT_OK) {
    xmt_cli_report(xmt_aligner_error(s.aligner));
    rc = xmt_cli_exit_status(xmt_aligner_error(s.aligner)->status);
  }
  state_free(&s);
  return rc;
}
