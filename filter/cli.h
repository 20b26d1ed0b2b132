/* cli.h -- the xliffmt command line; uses only the public API. */
#ifndef XMT_CLI_H
#define XMT_CLI_H

#include <stdio.h>

#include "xliffmt.h"

/* Exit statuses, documented in xliffmt(1). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_INTERNAL = 2, EXIT_PARTIAL = 3 };

int xmt_cli_translate(int argc, char **argv);
int xmt_cli_check(int argc, char **argv);
int xmt_cli_project(int argc, char **argv);
int xmt_cli_evaluate(int argc, char **argv);

/* A line-oriented input file ("-" is standard input). */
struct xmt_cli_lines {
  const char *path;
  FILE *fp;
  char *line; /* the line last read, without its end of line */
  size_t cap;
  size_t len;
  unsigned long number; /* of the line last read */
};
/* Opens path; on failure reports it on stderr and returns 0. */
int xmt_cli_lines_open(struct xmt_cli_lines *in, const char *path);
void xmt_cli_lines_close(struct xmt_cli_lines *in);
/* Reads the next line: 1, 0 at the end, -1 on a read error (reported). */
int xmt_cli_lines_next(struct xmt_cli_lines *in);

/* Writes s as a JSON string (NULL as ""). */
void xmt_cli_json_string(FILE *fp, const char *s);

/* Prints "xliffmt: FILE:LINE:COLUMN: MESSAGE (unit ID)" on stderr. */
void xmt_cli_report(const struct xmt_error *err);
/* Prints "xliffmt: MESSAGE" on stderr. */
void xmt_cli_usage_error(const char *command, const char *message);
/* The exit status for a failed library call. */
int xmt_cli_exit_status(xmt_status status);

#endif
