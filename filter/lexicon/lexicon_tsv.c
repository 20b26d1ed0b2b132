/* lexicon_tsv.c -- TSV word lists into prior links. */

/* Lines "source TAB target [TAB weight]"; "#" starts a comment line. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lexicon_private.h"

static struct xmt_lex_span trim_spaces(const char *s, size_t n) {
  while (n > 0 && (*s == ' ' || *s == '\t'))
    s++, n--;
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  return (struct xmt_lex_span){s, n};
}

/* A weight: a positive finite number, spaces around allowed. */
static int parse_weight(struct xmt_lex_span f, double *w) {
  char buf[64];
  f = trim_spaces(f.s, f.n);
  if (f.n == 0 || f.n >= sizeof buf)
    return 0;
  memcpy(buf, f.s, f.n);
  buf[f.n] = '\0';
  char *end;
  errno = 0;
  *w = strtod(buf, &end);
  return *end == '\0' && errno == 0 && *w > 0 && isfinite(*w);
}

static xmt_status tsv_line(struct xmt_lex_match *m, const struct xmt_lexfile *f,
                           const char *s, size_t n, unsigned long lineno,
                           struct xmt_error_store *err) {
  struct xmt_lex_span all = trim_spaces(s, n), field[3];
  if (all.n == 0 || all.s[0] == '#')
    return XMT_OK;
  size_t nf = 0;
  for (const char *p = s, *end = s + n; nf < 3 && p <= end;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    const char *fe = tab != NULL ? tab : end;
    field[nf++] = (struct xmt_lex_span){p, (size_t)(fe - p)};
    p = fe + 1;
    if (tab == NULL)
      break;
    if (nf == 3 && tab != NULL)
      nf = 4; /* a fourth field */
  }
  double weight = 1;
  if (nf < 2 || nf > 3 || (nf == 3 && !parse_weight(field[2], &weight)))
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(f->path, lineno),
                        "expected source word, tab, target word "
                        "[, tab, positive weight]");
  const char *w[2];
  size_t len[2];
  for (int i = 0; i < 2; i++) {
    struct xmt_lex_span t = trim_spaces(field[i].s, field[i].n);
    if (t.n == 0)
      return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(f->path, lineno),
                          "empty word");
    int sd = f->reversed ? 1 - i : i;
    w[sd] = t.s;
    len[sd] = t.n;
  }
  return xmt_lex_pair(m, w, len, weight);
}

static xmt_status read_tsv(struct xmt_lex_match *m, void *state,
                           const struct xmt_lexfile *f, size_t i,
                           struct xmt_error_store *err) {
  (void)state;
  (void)i;
  struct xmt_buf text = {0};
  xmt_status st = xmt_lex_read_file(f->path, &text, err);
  unsigned long lineno = 0;
  /* after a UTF-8 byte order mark, if any */
  size_t at =
      text.len >= 3 && memcmp(text.data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  while (st == XMT_OK && at < text.len) {
    const char *s = text.data + at;
    const char *nl = memchr(s, '\n', text.len - at);
    size_t n = nl != NULL ? (size_t)(nl - s) : text.len - at;
    at += n + 1;
    st =
        tsv_line(m, f, s, n > 0 && s[n - 1] == '\r' ? n - 1 : n, ++lineno, err);
  }
  xmt_buf_free(&text);
  return st;
}

const struct xmt_lex_reader xmt_lex_tsv_reader = {NULL, read_tsv, NULL, NULL,
                                                  0};
