/* detect.c -- the one table of document formats and the one function that
 * tells a document's format: its first bytes decide, its name's extension
 * only when they do not. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "filter_private.h"

static const char *const xliff_extensions[] = {".xlf", ".xliff", ".sdlxliff",
                                               ".mqxliff", NULL};
static const char *const html_extensions[] = {".html", ".htm", ".xhtml", NULL};
/* .xlf is XLIFF 1.2's too: the content tells XLIFF 2 (xmt_format_sniff). */
static const char *const no_extensions[] = {NULL};

static const struct xmt_format_info table[] = {
    {XMT_FORMAT_XLIFF, "xliff", "XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF",
     xliff_extensions},
    {XMT_FORMAT_HTML, "html", "HTML", html_extensions},
    {XMT_FORMAT_XLIFF2, "xliff2", "XLIFF 2.0-2.2", no_extensions},
};

const struct xmt_format_info *xmt_format_list(size_t *n) {
  *n = sizeof table / sizeof *table;
  return table;
}

const char *xmt_format_name(enum xmt_doc_format format) {
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (table[i].format == format)
      return table[i].name;
  return NULL;
}

int xmt_format_by_extension(const char *path, enum xmt_doc_format *format) {
  const char *slash = path != NULL ? strrchr(path, '/') : NULL;
  const char *dot = path != NULL ? strrchr(path, '.') : NULL;
  if (dot == NULL || (slash != NULL && dot < slash))
    return 0;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    for (const char *const *e = table[i].extensions; *e != NULL; e++)
      if (strcasecmp(dot, *e) == 0) {
        *format = table[i].format;
        return 1;
      }
  return 0;
}

/* 1 when the attributes of a start tag (tag[0, len), from after its name)
 * say XLIFF 2: version="2.N", or the XLIFF 2 core namespace declared. */
static int xliff2_attributes(const char *tag, size_t len) {
  static const char ns[] = "urn:oasis:names:tc:xliff:document:2.0";
  size_t i = 0;
  while (i < len && tag[i] != '>') {
    while (i < len && strchr(" \t\r\n/", tag[i]) != NULL)
      i++;
    size_t name = i;
    while (i < len && strchr(" \t\r\n=/>", tag[i]) == NULL)
      i++;
    size_t name_len = i - name;
    while (i < len && tag[i] != '"' && tag[i] != '\'' && tag[i] != '>')
      i++;
    if (i >= len || tag[i] == '>')
      break;
    char quote = tag[i++];
    size_t value = i;
    while (i < len && tag[i] != quote)
      i++;
    size_t value_len = i++ - value;
    const char *n = tag + name, *v = tag + value;
    if (name_len == 7 && memcmp(n, "version", 7) == 0 && value_len >= 3 &&
        v[0] == '2' && v[1] == '.' && v[2] >= '0' && v[2] <= '9')
      return 1;
    if (((name_len == 5 && memcmp(n, "xmlns", 5) == 0) ||
         (name_len > 6 && memcmp(n, "xmlns:", 6) == 0)) &&
        value_len == sizeof ns - 1 && memcmp(v, ns, value_len) == 0)
      return 1;
  }
  return 0;
}

/* 1 when the first element of head is <xliff> (any prefix), 2 when it is
 * an XLIFF 2 one, 0 when it is another, -1 when head does not say (text,
 * or too short). */
static int xliff_root(const char *head, size_t len) {
  /* An ASCII view: UTF-16 loses its zero bytes, a BOM goes. */
  char v[1024] = "";
  size_t n = 0, i = 0, step = 1;
  const unsigned char *b = (const unsigned char *)head;
  if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
    i = 3;
  } else if (len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) ||
                          (b[0] == 0xFE && b[1] == 0xFF))) {
    i = b[0] == 0xFF ? 2 : 3;
    step = 2;
  }
  for (; i < len && n < sizeof v; i += step)
    v[n++] = head[i];
  size_t at = 0;
  for (;;) {
    while (at < n &&
           (v[at] == ' ' || v[at] == '\t' || v[at] == '\r' || v[at] == '\n'))
      at++;
    if (at + 1 >= n || v[at] != '<')
      return -1;
    /* a declaration, processing instruction, comment or doctype */
    const char *end = NULL;
    if (v[at + 1] == '?')
      end = memchr(v + at, '>', n - at);
    else if (at + 4 <= n && memcmp(v + at, "<!--", 4) == 0)
      for (size_t k = at + 4; k + 3 <= n && end == NULL; k++)
        if (memcmp(v + k, "-->", 3) == 0)
          end = v + k + 2;
    if (v[at + 1] == '!' && end == NULL &&
        !(at + 4 <= n && memcmp(v + at, "<!--", 4) == 0))
      end = memchr(v + at, '>', n - at);
    if (v[at + 1] == '?' || v[at + 1] == '!') {
      if (end == NULL)
        return -1;
      at = (size_t)(end - v) + 1;
      continue;
    }
    break;
  }
  size_t name = ++at;
  while (at < n && strchr(" \t\r\n/>", v[at]) == NULL)
    at++;
  if (at == n)
    return -1;
  const char *colon = memchr(v + name, ':', at - name);
  size_t local = colon != NULL ? (size_t)(colon - v) + 1 : name;
  if (at - local != 5 || memcmp(v + local, "xliff", 5) != 0)
    return 0;
  return xliff2_attributes(v + at, n - at) ? 2 : 1;
}

enum xmt_doc_format xmt_format_sniff(const char *bytes, size_t len,
                                     const char *path) {
  int xliff = xliff_root(bytes, len);
  if (xliff == 1)
    return XMT_FORMAT_XLIFF;
  if (xliff == 2)
    return XMT_FORMAT_XLIFF2;
  if (xmt_html_sniff(bytes, len, NULL))
    return XMT_FORMAT_HTML;
  /* Text before any element: HTML is forgiving, XLIFF is not. The name
   * decides; an unknown name goes to the XLIFF reader, which says what
   * is wrong. */
  enum xmt_doc_format by_name = XMT_FORMAT_XLIFF;
  if (xliff < 0 && xmt_format_by_extension(path, &by_name))
    return by_name;
  return XMT_FORMAT_XLIFF;
}

/* Reads the first bytes of standard input into the filter, once: the
 * reader of the document takes them from there (xmt_stdin_take), then
 * reads the rest of the stream. */
static xmt_status peek_stdin(xmt_filter *f) {
  struct xmt_stdin_head *h = &f->stdin_head;
  if (h->held)
    return XMT_OK;
  h->len = fread(h->bytes, 1, sizeof h->bytes, stdin);
  if (ferror(stdin))
    return xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN("-"),
                        "cannot read standard input");
  h->held = 1;
  return XMT_OK;
}

const char *xmt_stdin_take(xmt_filter *f, const char *path, size_t *len) {
  struct xmt_stdin_head *h = &f->stdin_head;
  *len = 0;
  if (strcmp(path, "-") != 0 || !h->held)
    return NULL;
  h->held = 0;
  *len = h->len;
  return h->bytes;
}

xmt_status xmt_filter_detect_format(xmt_filter *f, const char *path,
                                    enum xmt_doc_format *format) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  *format = XMT_FORMAT_XLIFF;
  if (path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "no input file");
  if (strcmp(path, "-") == 0) {
    xmt_status st = peek_stdin(f);
    if (st != XMT_OK)
      return st;
    *format = xmt_format_sniff(f->stdin_head.bytes, f->stdin_head.len, path);
    return XMT_OK;
  }
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  char head[sizeof f->stdin_head.bytes];
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  *format = xmt_format_sniff(head, n, path);
  return XMT_OK;
}
