/* project.c -- xliffmt project: line-oriented tag projection, tagged
 * source + plain translation + word alignment -> tagged translation. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
  /* --null-prior, --null-alpha, --null-mass; < 0: the default */
  double null_prior, null_alpha, null_mass;
  int tag_cuts; /* --tag-cuts: with --aligner self, tokens cut where a tag
                   cuts a word */
  int stems;    /* --stems: XMT_STEMS_* */
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
  char *msg = NULL;
  /* clang-tidy 14 misreads va_start in a function with a format attribute */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  xmt_cli_say("xliffmt: %s:%lu: %s\n", s->in[i].path, s->in[i].number,
              n >= 0 ? msg : "out of memory");
  if (n >= 0)
    free(msg);
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
    char *d = in->len > SIZE_MAX - k->len
                  ? NULL
                  : xmt_grow_array(k->data, &k->cap, k->len + in->len, 1);
    if (d == NULL)
      return 0;
    k->data = d;
  }
  if (k->n == k->ncap) {
    size_t *e = xmt_grow_array(k->end, &k->ncap, k->n + 1, sizeof *e);
    if (e == NULL)
      return 0;
    k->end = e;
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
    xmt_cli_say("xliffmt: %s:%lu:%lu: cannot parse the tagged segment: %s\n",
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
  /* only where the tokens are the aligner's own: an alignment read from a
   * file indexes the tokens as they were given */
  if (rc == EXIT_OK && s->opt.self && s->opt.tag_cuts && s->nin <= IN_STOK) {
    st = xmt_tokens_cut_at_tags(s->stok, s->src, s->ttok, tgt->line, tgt->len);
    if (st != XMT_OK)
      return fail(s, IN_SRC, "cannot cut the tokens: %s", xmt_strerror(st));
  }
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
  xmt_cli_progress("xliffmt: training the aligner: iteration %u/%u, %3.0f%%",
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
      xmt_cli_say("xliffmt: %s:%lu: the file ends after %lu lines, but %s "
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
        xmt_cli_say("xliffmt: %s:%lu: cannot tokenize: %s\n", in[k].path,
                    in[k].number, xmt_strerror(st));
        rc = xmt_cli_exit_status(st);
      }
    }
    if (rc == EXIT_OK &&
        xmt_aligner_add(s->aligner, in[0].line, in[0].len, s->stok, in[1].line,
                        in[1].len, s->ttok) != XMT_OK) {
      const struct xmt_error *e = xmt_aligner_error(s->aligner);
      xmt_cli_say("xliffmt: %s:%lu: %s\n", in[0].path, in[0].number,
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
    char *line = xmt_grow_array(in->line, &in->cap, len + 1, 1);
    if (line == NULL)
      return 0;
    in->line = line;
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
  OPT_NULL_PRIOR,
  OPT_NULL_ALPHA,
  OPT_NULL_MASS,
  OPT_TAG_CUTS,
  OPT_STEMS,
};

static const struct xmt_cli_option project_options[] = {
    {"source", 's', "SRC", "tagged source segments"},
    {"target", 't', "TGT", "plain translations"},
    {"alignment", 'a', "ALN",
     "word alignments, one line per segment (an\nempty line: tags go to "
     "proportional spots)"},
    {"source-tokens", OPT_STOK, "F",
     "the tokens ALN indexes in the source, one\nline per segment, separated "
     "by spaces\n(default: xliffmt's own word tokens)"},
    {"target-tokens", OPT_TTOK, "F", "the same for the translations"},
    {"token-style", OPT_STYLE, "STYLE",
     "how F is tokenized: moses (default),\nsentencepiece or bpe"},
    {"rule", OPT_RULE, "RULE",
     "minmax (default): a pair spans the aligned\ntokens' min..max; score: "
     "the span with the\nmost links inside-inside + outside-outside"},
    {"generic", 'g', NULL, "SRC holds any XML/HTML inline elements"},
    {"output", 'o', "OUT",
     "output file (written whole or not at all;\ndefault: standard output)"},
    {"aligner", OPT_ALIGNER, "self",
     "instead of ALN, align with the built-in\naligner trained on the "
     "detagged SRC and TGT"},
    {"train-source", OPT_TRAIN_SRC, "F",
     "with --aligner self: more plain parallel\ntext to train on, one "
     "sentence a line"},
    {"train-target", OPT_TRAIN_TGT, "F", "its translation, line by line"},
    {"aligner-model", OPT_MODEL, "F",
     "with --aligner self: a model saved by\n'xliffmt align --save-model' "
     "seeds training"},
    {"symmetrize", OPT_SYM, "H",
     "with --aligner self: how the two directions\ncombine (default "
     "grow-diag-final-and; see\nxliffmt-align(1))"},
    {"lowercase", OPT_LOWER, NULL,
     "with --aligner self: compare words\nlowercased"},
    {"model", OPT_ALIGN_MODEL, "M",
     "with --aligner self: bayes (default; Gibbs\nsampling of IBM1, HMM and "
     "fertility) or\nibm2 (fast_align's model, faster)"},
    {"dictionary", OPT_DICTIONARY, "D",
     "with --aligner self: prior word\ntranslations from auto (the installed "
     "\ndictionaries of the languages; the\ndefault), none, or a FreeDict, "
     "Apertium or\nTSV file; repeatable"},
    {"update-model", OPT_UPDATE_MODEL, NULL,
     "with --aligner-model F: write the model,\ngrown by this corpus's links, "
     "back to F\n(created if missing)"},
    {"no-priors", OPT_NO_PRIORS, NULL,
     "with --aligner self: no dictionaries, no\nidentical-word or cognate "
     "links"},
    {"source-lang", OPT_SOURCE_LANG, "L",
     "with --aligner self: the languages, for\nstems and dictionaries (e.g. "
     "en, de)"},
    {"target-lang", OPT_TARGET_LANG, "L", "the same for the translations"},
    {"null-prior", OPT_NULL_PRIOR, "P",
     "with --aligner self and the bayes model:\nthe prior probability of a "
     "NULL link\n(default 0.1)"},
    {"null-alpha", OPT_NULL_ALPHA, "A",
     "with --aligner self and the bayes model:\nthe Dirichlet concentration "
     "of the NULL\nword's translations (default 10; small:\nNULL learns the "
     "words it produces)"},
    {"tag-cuts", OPT_TAG_CUTS, "on|off",
     "with --aligner self: on (default) cuts a\nword where a tag cuts it at a "
     "mark\n(\"<g>package</g>.symbols\"), in the source\nand where its "
     "pieces come back in the\ntranslation; off keeps it whole"},
    {"null-mass", OPT_NULL_MASS, "M",
     "with --aligner self and the bayes model:\nthe NULL word's pseudo-counts "
     "add up to\nat most M (default 300; 0: no bound)"},
    {"stems", OPT_STEMS, "S",
     "with --aligner self and the languages: the\nsides whose words the "
     "aligner compares\nthrough their Snowball stems: none\n(default), "
     "source, target or both"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command project = {
    "project ",
    "Usage: xliffmt project --source SRC --target TGT --alignment ALN\n"
    "                       [--source-tokens F --target-tokens F\n"
    "                        [--token-style moses|sentencepiece|bpe]]\n"
    "                       [--rule minmax|score] [--generic] [-o OUT]\n\n"
    "Puts the tags of each tagged source segment into its translation.\n"
    "SRC has one tagged segment per line (XLIFF 1.2 inline markup), TGT\n"
    "the plain translation of each, ALN one Pharaoh alignment per line\n"
    "(\"0-0 1-2 2-1\") over the tokens of the detagged source and of the\n"
    "translation. OUT gets the translations with the tags, one per line,\n"
    "the tags written as in SRC.\n\n",
    XMT_CLI_GROUPS(project_options), NULL, NULL};

/* What the options say before they are checked together. */
struct project_args {
  struct options *o;
  const char *style, *aligner, *sym;
  int priors; /* an option of the aligner's model or priors */
};

/* Options that name a file or set a flag. */
#define PATH(code, member) XMT_CLI_STRING(code, struct options, member)
#define FLAG(code, member) XMT_CLI_FLAG(code, struct options, member)
static const struct xmt_cli_store path_options[] = {
    PATH('s', path[IN_SRC]),
    PATH('t', path[IN_TGT]),
    PATH('a', path[IN_ALN]),
    PATH(OPT_STOK, path[IN_STOK]),
    PATH(OPT_TTOK, path[IN_TTOK]),
    PATH(OPT_TRAIN_SRC, train_src),
    PATH(OPT_TRAIN_TGT, train_tgt),
    PATH(OPT_MODEL, model),
    PATH('o', output),
    FLAG(OPT_LOWER, lowercase),
    FLAG(OPT_UPDATE_MODEL, update_model),
    FLAG('g', generic)};
#undef PATH
#undef FLAG

/* --null-prior, --null-alpha or --null-mass into o; NULL, or what is
 * wrong. */
static const char *null_option(struct options *o, int c, const char *arg) {
  char *end;
  double v = strtod(arg, &end);
  int number = end != arg && *end == '\0';
  if (c == OPT_NULL_PRIOR) {
    if (!number || !(v > 0) || !(v < 1))
      return "--null-prior is a number in (0, 1)";
    o->null_prior = v;
  } else if (c == OPT_NULL_ALPHA) {
    if (!number || !(v > 0) || !(v <= 1e6))
      return "--null-alpha is a number in (0, 1e6]";
    o->null_alpha = v;
  } else {
    if (!number || !(v >= 0) || !(v <= 1e12))
      return "--null-mass is a number in [0, 1e12]";
    o->null_mass = v;
  }
  return NULL;
}

static int take(void *user, int c, const char *arg) {
  struct project_args *a = user;
  struct options *o = a->o;
  const char *bad = NULL;
  if (xmt_cli_store(path_options, sizeof path_options / sizeof *path_options, o,
                    c, arg))
    return 1;
  if (c == OPT_STYLE) {
    a->style = arg;
  } else if (c == OPT_ALIGNER) {
    a->aligner = arg;
  } else if (c == OPT_SYM) {
    a->sym = arg;
  } else if (c == OPT_RULE) {
    if (xmt_projection_rule_parse(arg, &o->rule) != XMT_OK)
      bad = "--rule is minmax or score";
  } else if (c == OPT_ALIGN_MODEL) {
    if (xmt_align_model_parse(arg, &o->kind) != XMT_OK)
      bad = "--model is bayes or ibm2";
    a->priors = 1;
  } else if (c == OPT_DICTIONARY) {
    if (o->ndicts == sizeof o->dicts / sizeof *o->dicts)
      bad = "too many --dictionary";
    else
      o->dicts[o->ndicts++] = arg;
    a->priors = 1;
  } else if (c == OPT_SOURCE_LANG || c == OPT_TARGET_LANG) {
    o->lang[c == OPT_TARGET_LANG] = arg;
    a->priors = 1;
  } else if (c == OPT_NO_PRIORS) {
    o->no_priors = a->priors = 1;
  } else if (c == OPT_TAG_CUTS) {
    if (strcmp(arg, "on") == 0 || strcmp(arg, "off") == 0)
      o->tag_cuts = strcmp(arg, "on") == 0;
    else
      bad = "--tag-cuts is on or off";
    a->priors = 1;
  } else if (c == OPT_STEMS) {
    static const char *const names[] = {"none", "source", "target", "both"};
    int k = 0;
    while (k < 4 && strcmp(arg, names[k]) != 0)
      k++;
    if (k == 4)
      bad = "--stems is none, source, target or both";
    else
      o->stems = k; /* the index is the mask */
    a->priors = 1;
  } else if (c == OPT_NULL_PRIOR || c == OPT_NULL_ALPHA || c == OPT_NULL_MASS) {
    bad = null_option(o, c, arg);
    a->priors = 1;
  }
  if (bad != NULL)
    xmt_cli_usage_error("project ", bad);
  return bad == NULL;
}

/* What is wrong with the options taken together, or NULL. */
static const char *problem(const struct project_args *a, int operands) {
  const struct options *o = a->o;
  if (operands)
    return "unexpected argument";
  if (a->aligner != NULL && strcmp(a->aligner, "self") != 0)
    return "unknown aligner (known: self)";
  if (o->path[IN_SRC] == NULL)
    return "missing --source SRC";
  if (o->path[IN_TGT] == NULL)
    return "missing --target TGT";
  if ((o->path[IN_STOK] == NULL) != (o->path[IN_TTOK] == NULL))
    return "--source-tokens and --target-tokens go together";
  if (a->style != NULL && o->path[IN_STOK] == NULL)
    return "--token-style needs --source-tokens and --target-tokens";
  if (a->aligner == NULL && o->path[IN_ALN] == NULL)
    return "missing --alignment ALN or --aligner self";
  if (a->aligner != NULL && o->path[IN_ALN] != NULL)
    return "--alignment and --aligner exclude each other";
  if ((o->train_src == NULL) != (o->train_tgt == NULL))
    return "--train-source and --train-target go together";
  if (a->aligner == NULL && (o->train_src != NULL || o->model != NULL ||
                             a->sym != NULL || o->lowercase || a->priors))
    return "--train-source, --train-target, --aligner-model, --symmetrize, "
           "--lowercase, --model, --dictionary, --null-prior, --null-alpha, "
           "--null-mass, --tag-cuts, --stems and the languages need "
           "--aligner self";
  return NULL;
}

/* The checks of values the library reads, and the last ones. */
static const char *problem_values(const struct project_args *a) {
  struct options *o = a->o;
  if (a->sym != NULL && xmt_symmetrization_parse(a->sym, &o->sym) != XMT_OK)
    return "--symmetrize is one of forward, reverse, intersect, union, "
           "grow-diag, grow-diag-final, grow-diag-final-and, "
           "intersect-first";
  if (o->update_model && (a->aligner == NULL || o->model == NULL))
    return "--update-model needs --aligner self and --aligner-model F";
  if (o->no_priors && o->ndicts > 0)
    return "--no-priors and --dictionary exclude each other";
  o->style = XMT_TOKENS_MOSES;
  if (a->style != NULL && xmt_token_style_parse(a->style, &o->style) != XMT_OK)
    return "--token-style is moses, sentencepiece or bpe";
  return NULL;
}

/* Reads the options into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, struct options *o) {
  struct project_args a = {o, NULL, NULL, NULL, 0};
  int rc = xmt_cli_parse(&project, argc, argv, take, &a);
  if (rc >= 0)
    return rc;
  const char *bad = problem(&a, optind != argc);
  if (bad == NULL)
    bad = problem_values(&a);
  if (bad != NULL) {
    xmt_cli_usage_error("project ", bad);
    return EXIT_BAD_INPUT;
  }
  o->self = a.aligner != NULL;
  return -1;
}

/* The files read and written: no output may be one of them. */
static int files_check(const struct options *o) {
  static const char *const option[IN_COUNT] = {"--source", "--target",
                                               "--alignment", "--source-tokens",
                                               "--target-tokens"};
  static const char *const what[IN_COUNT] = {
      "the source", "the translations", "the alignments", "the source tokens",
      "the target tokens"};
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  for (size_t i = 0; i < IN_COUNT; i++)
    xmt_cli_files_add(&fs, XMT_CLI_READS, o->path[i], option[i], what[i], NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, o->train_src, "--train-source",
                    "the training source", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, o->train_tgt, "--train-target",
                    "the training target", NULL);
  for (size_t k = 0; k < o->ndicts; k++)
    if (strcmp(o->dicts[k], "auto") != 0 && strcmp(o->dicts[k], "none") != 0)
      xmt_cli_files_add(&fs, XMT_CLI_READS, o->dicts[k], "--dictionary",
                        "a dictionary", NULL);
  xmt_cli_files_add(&fs, o->update_model ? XMT_CLI_UPDATES : XMT_CLI_READS,
                    o->model, "--aligner-model", "the aligner model", NULL);
  xmt_cli_files_add_output(&fs, o->output);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}

int xmt_cli_project(int argc, char **argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  s.opt.rule = XMT_RULE_MINMAX;
  s.opt.sym = XMT_SYM_GROW_DIAG_FINAL_AND; /* best overall: bench */
  s.opt.kind = XMT_CLI_DEFAULT_ALIGN_MODEL;
  s.opt.null_prior = s.opt.null_alpha = s.opt.null_mass = -1;
  s.opt.tag_cuts = 1; /* wins on the man pages: doc/benchmarks.md */
  int rc = parse_options(argc, argv, &s.opt);
  if (rc >= 0)
    return rc;
  if ((rc = files_check(&s.opt)) != EXIT_OK)
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
    if (s.opt.null_prior >= 0)
      ao.null_prior = s.opt.null_prior;
    if (s.opt.null_alpha >= 0)
      ao.null_alpha = s.opt.null_alpha;
    if (s.opt.null_mass >= 0)
      ao.null_mass = s.opt.null_mass;
    ao.stems = s.opt.stems;
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
