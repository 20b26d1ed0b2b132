/* cli.h -- the xliffmt command line; uses only the public API. */
#ifndef XMT_CLI_H
#define XMT_CLI_H

#include "xliffmt.h"

/* Exit statuses, documented in xliffmt(1). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_INTERNAL = 2 };

int xmt_cli_translate(int argc, char **argv);
int xmt_cli_check(int argc, char **argv);
int xmt_cli_project(int argc, char **argv);
int xmt_cli_evaluate(int argc, char **argv);

/* Prints "xliffmt: FILE:LINE:COLUMN: MESSAGE (unit ID)" on stderr. */
void xmt_cli_report(const struct xmt_error *err);
/* Prints "xliffmt: MESSAGE" on stderr. */
void xmt_cli_usage_error(const char *command, const char *message);
/* The exit status for a failed library call. */
int xmt_cli_exit_status(xmt_status status);

#endif
