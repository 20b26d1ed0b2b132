/* evaluate.c -- xliffmt evaluate: tag-placement metrics of a file of
 * tagged hypothesis segments against a line-parallel reference. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const struct xmt_cli_option evaluate_options[] = {
    {"hypothesis", 'y', "HYP", "the tagged segments to score"},
    {"reference", 'r', "REF", "the gold tagged segments"},
    {"generic", 'g', NULL, "any XML/HTML inline elements, not XLIFF's"},
    {"json", 'j', NULL, "one JSON object on standard output"},
    {"lines", 'l', NULL,
     "per line, \"LINE<TAB>tags<TAB>exact\", instead of the totals"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command evaluate = {
    "evaluate ",
    "Usage: xliffmt evaluate --hypothesis HYP --reference REF\n"
    "                        [--json | --lines] [--generic]\n\n"
    "Compares the tags of HYP with those of REF, line by line: one\n"
    "tagged segment per line (XLIFF 1.2 inline markup), the same plain\n"
    "text on both sides. Reports exact placement (all tags, interior\n"
    "tags), well-formed lines, flagrant failures (dropped, added,\n"
    "changed id, mutilated, badly nested) and the content F1 of pairs.\n"
    "A hypothesis line that does not parse counts as mutilated.\n\n",
    XMT_CLI_GROUPS(evaluate_options), NULL, NULL};

struct evaluate_args {
  const char *hyp, *ref;
  int json, generic, lines;
};

static int take(void *user, int c, const char *arg) {
  struct evaluate_args *a = user;
  if (c == 'y')
    a->hyp = arg;
  else if (c == 'r')
    a->ref = arg;
  else if (c == 'g')
    a->generic = 1;
  else if (c == 'j')
    a->json = 1;
  else if (c == 'l')
    a->lines = 1;
  return 1;
}

typedef xmt_status (*parse_fn)(xmt_segment *seg, const char *markup, size_t len,
                               unsigned long *error_column);

/* Tags that are in the hypothesis with their element name and id. */
static size_t kept(const struct xmt_tag_metrics *m) {
  return m->tags - m->dropped - m->changed_id - m->mutilated;
}

static size_t flagrant(const struct xmt_tag_metrics *m) {
  return m->dropped + m->added + m->changed_id + m->mutilated + m->badly_nested;
}

static void text_rate(const char *label, size_t n, size_t d) {
  if (d == 0)
    printf("%-24s %7s\n", label, "n/a");
  else
    printf("%-24s %5.1f %%  (%zu/%zu)\n", label, 100.0 * (double)n / (double)d,
           n, d);
}

static const char *const class_names[] = {"pair", "placeholder", "isolated"};

static void print_text(const struct xmt_tag_metrics *m) {
  printf("%-24s %7zu\n", "lines", m->lines);
  printf("%-24s %7zu\n", "lines with tags", m->lines_with_tags);
  printf("%-24s %7zu\n", "tags", m->tags);
  text_rate("exact", m->exact, m->tags);
  printf("%-24s %7zu\n", "interior tags", m->interior);
  text_rate("interior exact", m->interior_exact, m->interior);
  text_rate("all-exact lines", m->all_exact_lines, m->lines_with_tags);
  text_rate("well-formed lines", m->well_formed_lines, m->lines);
  text_rate("structure match lines", m->structure_match_lines, m->lines);
  text_rate("tags kept", kept(m), m->tags);
  printf("%-24s %7zu\n", "flagrant", flagrant(m));
  printf("%-24s %7zu\n", "  dropped", m->dropped);
  printf("%-24s %7zu\n", "  added", m->added);
  printf("%-24s %7zu\n", "  changed id", m->changed_id);
  printf("%-24s %7zu\n", "  mutilated", m->mutilated);
  printf("%-24s %7zu\n", "  badly nested", m->badly_nested);
  if (m->content_pairs == 0)
    printf("%-24s %7s\n", "content F1", "n/a");
  else
    printf("%-24s %5.1f %%  (%zu pairs)\n", "content F1",
           100.0 * m->content_f1_sum / (double)m->content_pairs,
           m->content_pairs);
  for (int k = 0; k < 3; k++) {
    const struct xmt_tag_class_metrics *c = &m->by_class[k];
    char label[48];
    snprintf(label, sizeof label, "%s tags", class_names[k]);
    printf("%-24s %7zu\n", label, c->tags);
    text_rate("  exact", c->exact, c->tags);
    text_rate("  interior exact", c->interior_exact, c->interior);
  }
}

static void json_rate(const char *key, size_t n, size_t d) {
  if (d == 0)
    printf(",\"%s\":null", key);
  else
    printf(",\"%s\":%.1f", key, 100.0 * (double)n / (double)d);
}

static void print_json(const char *hyp, const char *ref,
                       const struct xmt_tag_metrics *m, size_t mismatches) {
  printf("{\"hypothesis\":");
  xmt_cli_json_string(stdout, hyp);
  printf(",\"reference\":");
  xmt_cli_json_string(stdout, ref);
  printf(",\"lines\":%zu,\"lines_with_tags\":%zu,\"tags\":%zu,"
         "\"dropped\":%zu,\"added\":%zu,\"changed_id\":%zu,"
         "\"mutilated\":%zu,\"badly_nested\":%zu,\"flagrant\":%zu,"
         "\"kept\":%zu,\"well_formed_lines\":%zu,"
         "\"structure_match_lines\":%zu,\"exact\":%zu,\"interior\":%zu,"
         "\"interior_exact\":%zu,\"all_exact_lines\":%zu,"
         "\"content_pairs\":%zu,\"content_f1_sum\":%.6f,"
         "\"text_mismatch_lines\":%zu",
         m->lines, m->lines_with_tags, m->tags, m->dropped, m->added,
         m->changed_id, m->mutilated, m->badly_nested, flagrant(m), kept(m),
         m->well_formed_lines, m->structure_match_lines, m->exact, m->interior,
         m->interior_exact, m->all_exact_lines, m->content_pairs,
         m->content_f1_sum, mismatches);
  json_rate("exact_pct", m->exact, m->tags);
  json_rate("interior_exact_pct", m->interior_exact, m->interior);
  json_rate("all_exact_lines_pct", m->all_exact_lines, m->lines_with_tags);
  json_rate("well_formed_pct", m->well_formed_lines, m->lines);
  json_rate("structure_match_pct", m->structure_match_lines, m->lines);
  json_rate("kept_pct", kept(m), m->tags);
  /* By the reference tag's kind, flat: "isolated_exact_pct" and so on. */
  for (int k = 0; k < 3; k++) {
    const struct xmt_tag_class_metrics *c = &m->by_class[k];
    const char *n = class_names[k];
    char key[48];
    printf(",\"%s_tags\":%zu,\"%s_exact\":%zu,\"%s_interior\":%zu,"
           "\"%s_interior_exact\":%zu",
           n, c->tags, n, c->exact, n, c->interior, n, c->interior_exact);
    snprintf(key, sizeof key, "%s_exact_pct", n);
    json_rate(key, c->exact, c->tags);
    snprintf(key, sizeof key, "%s_interior_exact_pct", n);
    json_rate(key, c->interior_exact, c->interior);
  }
  if (m->content_pairs == 0)
    printf(",\"content_f1\":null}\n");
  else
    printf(",\"content_f1\":%.6f}\n",
           m->content_f1_sum / (double)m->content_pairs);
}

/* What one run needs; freed by state_free. */
struct state {
  struct xmt_cli_lines hyp, ref;
  xmt_segment *h, *r;
  xmt_evaluator *ev;
  size_t mismatches; /* lines whose plain texts differ */
  unsigned long first_mismatch;
  int lines;                        /* --lines: a row per line */
  size_t tags_so_far, exact_so_far; /* the totals before this line */
};

static void state_free(struct state *s) {
  xmt_cli_lines_close(&s->hyp);
  xmt_cli_lines_close(&s->ref);
  xmt_segment_free(s->h);
  xmt_segment_free(s->r);
  xmt_evaluator_free(s->ev);
}

/* Adds one line pair. Returns an exit status. */
static int add_line(struct state *s, parse_fn parse) {
  unsigned long column = 0;
  xmt_status st = parse(s->r, s->ref.line, s->ref.len, &column);
  if (st != XMT_OK) {
    xmt_cli_say("xliffmt: %s:%lu:%lu: cannot parse the reference: %s\n",
                s->ref.path, s->ref.number, column, xmt_strerror(st));
    return xmt_cli_exit_status(st);
  }
  st = parse(s->h, s->hyp.line, s->hyp.len, NULL);
  const xmt_segment *h = st == XMT_OK ? s->h : NULL;
  if (st == XMT_ERR_NOMEM)
    return EXIT_INTERNAL;
  if (h != NULL) {
    size_t hl, rl;
    const char *ht = xmt_segment_text(h, &hl),
               *rt = xmt_segment_text(s->r, &rl);
    if (hl != rl || memcmp(ht, rt, hl) != 0) {
      if (s->mismatches++ == 0)
        s->first_mismatch = s->hyp.number;
    }
  }
  st = xmt_evaluator_add(s->ev, h, s->r);
  if (st != XMT_OK) {
    xmt_cli_say("xliffmt: %s:%lu: cannot evaluate the line: %s\n", s->ref.path,
                s->ref.number, xmt_strerror(st));
    return xmt_cli_exit_status(st);
  }
  if (s->lines) {
    /* The line's share of the totals, so that sums over any subset of
     * lines (bootstrap resamples) count as the totals do. */
    const struct xmt_tag_metrics *m = xmt_evaluator_metrics(s->ev);
    printf("%lu\t%zu\t%zu\n", s->ref.number, m->tags - s->tags_so_far,
           m->exact - s->exact_so_far);
    s->tags_so_far = m->tags;
    s->exact_so_far = m->exact;
  }
  return EXIT_OK;
}

/* Reads both files to their end. Returns an exit status. */
static int run(struct state *s, parse_fn parse) {
  for (;;) {
    int a = xmt_cli_lines_next(&s->hyp), b = xmt_cli_lines_next(&s->ref);
    if (a < 0 || b < 0)
      return EXIT_BAD_INPUT;
    if (a == 0 && b == 0)
      return EXIT_OK;
    if (a != b) {
      const struct xmt_cli_lines *shorter = a == 0 ? &s->hyp : &s->ref;
      const struct xmt_cli_lines *longer = a == 0 ? &s->ref : &s->hyp;
      xmt_cli_say("xliffmt: %s:%lu: the file ends after %lu lines, but %s has "
                  "more\n",
                  shorter->path, shorter->number, shorter->number,
                  longer->path);
      return EXIT_BAD_INPUT;
    }
    int rc = add_line(s, parse);
    if (rc != EXIT_OK)
      return rc;
  }
}

int xmt_cli_evaluate(int argc, char **argv) {
  struct evaluate_args a = {NULL, NULL, 0, 0, 0};
  int rc = xmt_cli_parse(&evaluate, argc, argv, take, &a);
  if (rc >= 0)
    return rc;
  const char *hyp = a.hyp, *ref = a.ref;
  int json = a.json, generic = a.generic;
  if (json && a.lines) {
    xmt_cli_usage_error("evaluate ", "--json and --lines exclude each other");
    return EXIT_BAD_INPUT;
  }
  if (optind != argc) {
    xmt_cli_usage_error("evaluate ", "unexpected argument");
    return EXIT_BAD_INPUT;
  }
  if (hyp == NULL || ref == NULL) {
    xmt_cli_usage_error("evaluate ", hyp == NULL ? "missing --hypothesis HYP"
                                                 : "missing --reference REF");
    return EXIT_BAD_INPUT;
  }
  struct state s;
  memset(&s, 0, sizeof s);
  s.lines = a.lines;
  rc = EXIT_BAD_INPUT;
  if (xmt_cli_lines_open(&s.hyp, hyp) && xmt_cli_lines_open(&s.ref, ref)) {
    s.h = xmt_segment_new();
    s.r = xmt_segment_new();
    s.ev = xmt_evaluator_new();
    if (s.h == NULL || s.r == NULL || s.ev == NULL) {
      fputs("xliffmt: out of memory\n", stderr);
      rc = EXIT_INTERNAL;
    } else {
      rc = run(&s, generic ? xmt_xliff_inline_parse_generic
                           : xmt_xliff_inline_parse);
    }
  }
  if (rc == EXIT_OK) {
    if (s.mismatches > 0)
      xmt_cli_say("xliffmt: %s: warning: the plain text of %zu lines differs "
                  "from %s (first at line %lu); their tags are compared by "
                  "token positions\n",
                  hyp, s.mismatches, ref, s.first_mismatch);
    const struct xmt_tag_metrics *m = xmt_evaluator_metrics(s.ev);
    if (json)
      print_json(hyp, ref, m, s.mismatches);
    else if (!s.lines)
      print_text(m);
    if (fflush(stdout) != 0 || ferror(stdout)) {
      xmt_cli_say("xliffmt: standard output: cannot write: %s\n",
                  strerror(errno));
      rc = EXIT_INTERNAL;
    }
  }
  state_free(&s);
  return rc;
}
