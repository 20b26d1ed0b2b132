/* cli_util.c -- helpers shared by the commands: line-oriented inputs and
 * JSON strings. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int xmt_cli_lines_open(struct xmt_cli_lines *in, const char *path) {
  memset(in, 0, sizeof *in);
  in->path = path;
  in->fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (in->fp == NULL)
    fprintf(stderr, "xliffmt: %s: cannot open: %s\n", path, strerror(errno));
  return in->fp != NULL;
}

void xmt_cli_lines_close(struct xmt_cli_lines *in) {
  if (in->fp != NULL && in->fp != stdin)
    fclose(in->fp);
  free(in->line);
}

int xmt_cli_lines_next(struct xmt_cli_lines *in) {
  ssize_t n = getline(&in->line, &in->cap, in->fp);
  if (n < 0) {
    if (ferror(in->fp)) {
      fprintf(stderr, "xliffmt: %s: cannot read: %s\n", in->path,
              strerror(errno));
      return -1;
    }
    return 0;
  }
  in->len = (size_t)n;
  if (in->len > 0 && in->line[in->len - 1] == '\n')
    in->len--;
  if (in->len > 0 && in->line[in->len - 1] == '\r')
    in->len--;
  in->line[in->len] = '\0';
  in->number++;
  return 1;
}

void xmt_cli_json_string(FILE *fp, const char *s) {
  fputc('"', fp);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(fp, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(fp, "\\u%04x", *p);
    else
      fputc(*p, fp);
  }
  fputc('"', fp);
}
