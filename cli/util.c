/* util.c -- helpers shared by the commands: line-oriented inputs,
 * outputs written whole or not at all, and JSON strings. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The length of the valid UTF-8 character at p (n bytes left), or 0:
 * no overlong forms, no surrogates, nothing past U+10FFFF. */
static size_t utf8_char(const unsigned char *p, size_t n) {
  uint32_t cp;
  return xmt_utf8_decode(p, n, &cp);
}

/* --- Messages ------------------------------------------------------------
 * Messages carry what others wrote: file names, unit ids, an engine's
 * command and stderr, a server's body. A control character among them
 * would reach the terminal as a command (ESC ] sets its title, ESC [2J
 * clears it, a carriage return writes over the line). Every human message
 * goes through print(), which shows each C0 control but the newline that
 * ends the message, DEL, each C1 control (U+0080..U+009F) and each byte
 * that is not UTF-8 as \xHH: one way, whatever it came from. */

static void print(FILE *fp, const char *lead, const char *fmt, va_list ap) {
  /* a short message is made on the stack: told also when memory has run
   * out (a message lost then would leave an exit status unexplained) */
  char small[512], small_out[4 * sizeof small + 8];
  va_list first;
  va_copy(first, ap);
  /* clang-tidy 14 does not follow va_copy of a va_list parameter */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  int n = vsnprintf(small, sizeof small, fmt, first);
  va_end(first);
  char *text = small;
  if (n >= (int)sizeof small && vasprintf(&text, fmt, ap) < 0)
    text = NULL;
  if (n < 0 || text == NULL)
    return;
  size_t len = (size_t)n, k = strlen(lead);
  char *out = small_out;
  if (text != small && (out = malloc(k + len * 4 + 1)) == NULL) {
    free(text);
    return;
  }
  memcpy(out, lead, k);
  for (size_t i = 0; i < len;) {
    const unsigned char *c = (const unsigned char *)text + i;
    size_t width = c[0] == 0 ? 0 : utf8_char(c, len - i);
    int control = c[0] < 0x20 || c[0] == 0x7F ||
                  (width == 2 && c[0] == 0xC2 && c[1] <= 0x9F);
    if (c[0] == '\n' && i + 1 == len) {
      out[k++] = '\n';
      i++;
    } else if (width == 0 || control) {
      unsigned shown = width == 2 ? c[1] : c[0]; /* C1: its code point */
      k += (size_t)snprintf(out + k, 5, "\\x%02X", shown);
      i += width == 2 ? 2 : 1;
    } else {
      memcpy(out + k, c, width);
      k += width;
      i += width;
    }
  }
  /* One write, which glibc makes in one piece to unbuffered stderr: the
   * jobs of a batch share it, and lines in pieces would interleave. */
  fwrite(out, 1, k, fp);
  if (out != small_out)
    free(out);
  if (text != small)
    free(text);
}

void xmt_cli_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print(stderr, "", fmt, ap);
  va_end(ap);
}

void xmt_cli_print(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print(stdout, "", fmt, ap);
  va_end(ap);
}

void xmt_cli_progress(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print(stderr, "\r", fmt, ap); /* the one carriage return: ours */
  va_end(ap);
  fflush(stderr);
}

int xmt_cli_lines_open(struct xmt_cli_lines *in, const char *path) {
  memset(in, 0, sizeof *in);
  in->path = path;
  /* A named pipe no program writes into is waited for 10 s, not for
   * ever. */
  in->fp = strcmp(path, "-") == 0 ? stdin : xmt_input_file_open(path);
  char why[200];
  if (in->fp == NULL)
    xmt_cli_say("xliffmt: %s: %s\n", path,
                xmt_input_file_why(errno, why, sizeof why));
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
      xmt_cli_say("xliffmt: %s: cannot read: %s\n", in->path, strerror(errno));
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
  /* Every line-oriented input is UTF-8: a Latin-1 byte is named here,
   * not later as malformed XML or a tokenizer's failure. */
  unsigned long column = 1;
  for (const unsigned char *p = (const unsigned char *)in->line;
       p < (const unsigned char *)in->line + in->len; column++) {
    size_t width = *p == 0
                       ? 0
                       : utf8_char(p, (size_t)((const unsigned char *)in->line +
                                               in->len - p));
    if (width == 0) {
      xmt_cli_say("xliffmt: %s:%lu:%lu: byte 0x%02X is not UTF-8 (%s)\n",
                  in->path, in->number, column, *p,
                  *p == 0 ? "a NUL byte: the file is not text"
                          : "line-oriented inputs are UTF-8");
      return -1;
    }
    p += width;
  }
  return 1;
}

/* Whole, never cut: a byte that is not UTF-8 (a file name in Latin-1)
 * becomes U+FFFD, so the document stays valid JSON. */
void xmt_cli_json_string(FILE *fp, const char *s) {
  if (s == NULL)
    s = "";
  fputc('"', fp);
  for (size_t i = 0, n = strlen(s); i < n;) {
    char esc[8];
    size_t len;
    i += xmt_json_escape_one(s + i, n - i, XMT_JSON_MEND, esc, &len);
    fwrite(esc, 1, len, fp);
  }
  fputc('"', fp);
}

int xmt_cli_output_open(struct xmt_cli_output *out, const char *path) {
  memset(out, 0, sizeof *out);
  if (path == NULL || strcmp(path, "-") == 0) {
    out->fp = open_memstream(&out->mem, &out->mem_len);
    if (out->fp == NULL) {
      xmt_cli_say("xliffmt: standard output: %s\n", strerror(errno));
      return EXIT_INTERNAL;
    }
    return EXIT_OK;
  }
  /* A device or a pipe (/dev/null, a FIFO) gets the whole output at the
   * end, so that a failed run writes nothing there either. */
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      xmt_cli_say("xliffmt: %s: cannot create output: %s\n", path,
                  strerror(EISDIR));
      return EXIT_INTERNAL;
    }
    out->device = strdup(path);
    out->fp = open_memstream(&out->mem, &out->mem_len);
    if (out->device == NULL || out->fp == NULL) {
      xmt_cli_say("xliffmt: %s: %s\n", path, strerror(errno));
      xmt_cli_output_abort(out);
      return EXIT_INTERNAL;
    }
    return EXIT_OK;
  }
  xmt_status s = (out->file = xmt_atomic_file_new()) != NULL
                     ? xmt_atomic_file_open(out->file, path, 0)
                     : XMT_ERR_NOMEM;
  if (s != XMT_OK) {
    if (s == XMT_ERR_NOMEM)
      fputs("xliffmt: out of memory\n", stderr);
    else
      xmt_cli_say("xliffmt: %s: %s\n", path,
                  xmt_atomic_file_error(out->file)->message);
    xmt_cli_output_abort(out);
    return EXIT_INTERNAL;
  }
  out->fp = xmt_atomic_file_stream(out->file);
  return EXIT_OK;
}

/* Copies the output kept in memory to the device or pipe named path. 0,
 * -1 with errno set, or -2 when it cannot be opened, said. */
static int copy_to_device(const struct xmt_cli_output *out, const char *path) {
  xmt_atomic_file *af = xmt_atomic_file_new();
  if (af == NULL) {
    errno = ENOMEM;
    return -1;
  }
  if (xmt_atomic_file_open(af, path, 0) != XMT_OK) {
    const struct xmt_error *err = xmt_atomic_file_error(af);
    xmt_cli_say("xliffmt: %s: %s\n", err->file, err->message);
    xmt_atomic_file_free(af);
    return -2;
  }
  int failed = 0;
  int e = 0;
  if (!failed && fwrite(out->mem, 1, out->mem_len,
                        xmt_atomic_file_stream(af)) != out->mem_len) {
    failed = 1;
    e = errno;
  }
  if (!failed && xmt_atomic_file_commit(af) != XMT_OK) {
    failed = 1;
    e = xmt_atomic_file_errno(af);
  }
  xmt_atomic_file_free(af);
  errno = e;
  return failed ? -1 : 0;
}

int xmt_cli_output_commit(struct xmt_cli_output *out) {
  if (out->file != NULL) {
    /* The stream is the atomic file's: it closes it. */
    out->fp = NULL;
    if (xmt_atomic_file_commit(out->file) != XMT_OK) {
      const struct xmt_error *e = xmt_atomic_file_error(out->file);
      xmt_cli_say("xliffmt: %s: %s\n", e->file, e->message);
      xmt_cli_output_abort(out);
      return EXIT_INTERNAL;
    }
    xmt_cli_output_abort(out); /* frees what is left */
    return EXIT_OK;
  }
  const char *name = out->device ? out->device : "standard output";
  int failed = ferror(out->fp) != 0;
  if (fclose(out->fp) != 0)
    failed = 1;
  out->fp = NULL;
  if (!failed && out->device != NULL)
    failed = copy_to_device(out, out->device);
  else if (!failed)
    failed = fwrite(out->mem, 1, out->mem_len, stdout) != out->mem_len ||
             fflush(stdout) != 0;
  if (failed != 0) {
    if (failed != -2)
      xmt_cli_say("xliffmt: %s: cannot write: %s\n", name, strerror(errno));
    xmt_cli_output_abort(out);
    return EXIT_INTERNAL;
  }
  xmt_cli_output_abort(out); /* frees what is left */
  return EXIT_OK;
}

void xmt_cli_output_abort(struct xmt_cli_output *out) {
  /* The atomic file's stream is closed by the atomic file. */
  if (out->fp != NULL && out->file == NULL)
    fclose(out->fp);
  xmt_atomic_file_free(out->file);
  free(out->device);
  free(out->mem);
  memset(out, 0, sizeof *out);
}

xmt_status xmt_cli_aligner_priors(xmt_aligner *aligner, const char *source,
                                  const char *target, const char *const *dicts,
                                  size_t ndicts) {
  xmt_status st = xmt_aligner_set_languages(aligner, source, target);
  if (st == XMT_OK && ndicts == 0 && source != NULL && target != NULL)
    st = xmt_aligner_add_dictionary(aligner, "auto");
  for (size_t k = 0; k < ndicts && st == XMT_OK; k++)
    st = xmt_aligner_add_dictionary(aligner, dicts[k]);
  return st;
}

char *xmt_cli_join(const char *dir, const char *name) {
  size_t ld = strlen(dir), ln = strlen(name);
  char *s = malloc(ld + ln + 2);
  if (s == NULL)
    return NULL;
  memcpy(s, dir, ld);
  size_t at = ld;
  if (ld > 0 && dir[ld - 1] != '/')
    s[at++] = '/';
  memcpy(s + at, name, ln + 1);
  return s;
}
