/* options.c -- one description per command ({long name, short, value,
 * help}) from which both getopt_long's table and --help are made. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where the help of an option begins. */
#define HELP_COLUMN 28

/* Every command's last option, after its groups. */
static const struct xmt_cli_option help_option = {"help", 'h', NULL,
                                                  "this help"};

static size_t count(const struct xmt_cli_command *cmd) {
  size_t n = 1; /* --help */
  for (const struct xmt_cli_option *const *g = cmd->groups; *g != NULL; g++)
    for (const struct xmt_cli_option *o = *g; o->name != NULL; o++)
      n++;
  return n;
}

static int has_short(int code) { return code > 0 && code < 256; }

static void print_option(FILE *fp, const struct xmt_cli_option *o) {
  char left[96];
  int n = snprintf(
      left, sizeof left, "  %c%c%s--%s%s%s", has_short(o->code) ? '-' : ' ',
      has_short(o->code) ? o->code : ' ', has_short(o->code) ? ", " : "  ",
      o->name, o->value != NULL ? " " : "", o->value != NULL ? o->value : "");
  fputs(left, fp);
  const char *line = o->help;
  if (n >= HELP_COLUMN - 1) {
    fputc('\n', fp);
    n = 0;
  }
  while (line != NULL) {
    const char *nl = strchr(line, '\n');
    int len = nl != NULL ? (int)(nl - line) : (int)strlen(line);
    fprintf(fp, "%*s%.*s\n", HELP_COLUMN - n, "", len, line);
    n = 0;
    line = nl != NULL ? nl + 1 : NULL;
  }
}

void xmt_cli_help(FILE *fp, const struct xmt_cli_command *cmd) {
  fputs(cmd->usage, fp);
  for (const struct xmt_cli_option *const *g = cmd->groups; *g != NULL; g++)
    for (const struct xmt_cli_option *o = *g; o->name != NULL; o++)
      print_option(fp, o);
  print_option(fp, &help_option);
  if (cmd->more != NULL)
    cmd->more(fp);
  if (cmd->after != NULL)
    fprintf(fp, "\n%s", cmd->after);
}

void xmt_cli_backends_help(FILE *fp) {
  size_t n;
  const struct xmt_backend_info *b = xmt_backend_list(&n);
  fputs("\nMT backends (--mt NAME[:SPEC]):\n", fp);
  for (size_t i = 0; i < n; i++) {
    char left[64];
    int k = snprintf(left, sizeof left, "  %s%s%s", b[i].name,
                     b[i].spec != NULL ? ":" : "",
                     b[i].spec != NULL ? b[i].spec : "");
    fprintf(fp, "%s%*s%s\n", left, k < HELP_COLUMN ? HELP_COLUMN - k : 1, "",
            b[i].description);
  }
}

const struct xmt_cli_option *
xmt_cli_find_option(const struct xmt_cli_command *cmd, int code) {
  for (const struct xmt_cli_option *const *g = cmd->groups; *g != NULL; g++)
    for (const struct xmt_cli_option *o = *g; o->name != NULL; o++)
      if (o->code == code)
        return o;
  return code == help_option.code ? &help_option : NULL;
}

/* Enters option o in getopt_long's tables at longs[*k] and shorts + *s. */
static void add_option(const struct xmt_cli_option *o, struct option *longs,
                       size_t *k, char *shorts, size_t *s) {
  longs[*k].name = o->name;
  longs[*k].has_arg = o->value != NULL ? required_argument : no_argument;
  longs[*k].flag = NULL;
  longs[(*k)++].val = o->code;
  if (has_short(o->code)) {
    shorts[(*s)++] = (char)o->code;
    if (o->value != NULL)
      shorts[(*s)++] = ':';
  }
}

/* getopt_long's tables: longs (n + 1 entries) and the short letters. */
static void make_tables(const struct xmt_cli_command *cmd, struct option *longs,
                        char *shorts) {
  size_t k = 0, s = 0;
  for (const struct xmt_cli_option *const *g = cmd->groups; *g != NULL; g++)
    for (const struct xmt_cli_option *o = *g; o->name != NULL; o++)
      add_option(o, longs, &k, shorts, &s);
  add_option(&help_option, longs, &k, shorts, &s);
  memset(&longs[k], 0, sizeof longs[k]);
  shorts[s] = '\0';
}

int xmt_cli_parse(const struct xmt_cli_command *cmd, int argc, char **argv,
                  int (*take)(void *user, int code, const char *arg),
                  void *user) {
  size_t n = count(cmd);
  struct option *longs = calloc(n + 1, sizeof *longs);
  char *shorts = malloc(2 * n + 2);
  if (longs == NULL || shorts == NULL) {
    free(longs);
    free(shorts);
    fputs("xliffmt: out of memory\n", stderr);
    return EXIT_INTERNAL;
  }
  /* A leading '+' would stop at the first operand: options go anywhere. */
  make_tables(cmd, longs, shorts);
  int c, rc = -1;
  optind = 1;
  while (rc < 0 && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
    if (c == 'h') {
      xmt_cli_help(stdout, cmd);
      rc = EXIT_OK;
    } else if (c == '?' || c == ':') {
      xmt_cli_usage_error(cmd->name, "bad option");
      rc = EXIT_BAD_INPUT;
    } else if (!take(user, c, optarg)) {
      rc = EXIT_BAD_INPUT;
    }
  }
  free(longs);
  free(shorts);
  return rc;
}

int xmt_cli_store(const struct xmt_cli_store *stores, size_t n, void *user,
                  int c, const char *arg) {
  for (size_t i = 0; i < n; i++)
    if (stores[i].code == c) {
      char *member = (char *)user + stores[i].offset;
      if (stores[i].flag)
        *(int *)(void *)member = 1;
      else
        *(const char **)(void *)member = arg;
      return 1;
    }
  return 0;
}

int xmt_cli_operands(const struct xmt_cli_command *cmd, int argc, int want,
                     const char *what) {
  if (optind + want == argc)
    return 1;
  xmt_cli_usage_error(cmd->name, optind == argc ? what
                                 : want == 1    ? "exactly one input file "
                                                  "expected"
                                                : what);
  return 0;
}
