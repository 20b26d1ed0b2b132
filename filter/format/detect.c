/* detect.c -- the one table of document formats and the one function that
 * tells a document's format: its first element decides, read past any
 * prolog, its name's extension only when the content does not say. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "filter_private.h"

static const char *const xliff_extensions[] = {".xlf", ".xliff", ".sdlxliff",
                                               ".mqxliff", NULL};

/* The first element decides: <xliff> of no version 2. */
static int xliff_bid(const struct xmt_head *head) {
  return head->root == XMT_ROOT_XLIFF ? XMT_BID_ELEMENT : XMT_BID_NO;
}

/* Read and written by the XLIFF reader and writer (no read operation);
 * check validates it against its schema and report reads it as it is. */
static const struct xmt_format xmt_format_xliff = {
    .info = {XMT_FORMAT_XLIFF, "xliff", "XLIFF 1.0-1.2, SDLXLIFF, MQXLIFF",
             xliff_extensions},
    .bid = xliff_bid,
    .segments_io = 1,
    .schema = 1};

/* The table: a format is its entry (struct xmt_format, in its own
 * folder), and one line here. The first is where a document nothing
 * tells goes: its reader says what is wrong. */
extern const struct xmt_format xmt_format_html;   /* html/html.c */
extern const struct xmt_format xmt_format_xliff2; /* xliff2/xliff2.c */
extern const struct xmt_format xmt_format_word;   /* office/word.c */
extern const struct xmt_format xmt_format_odt;    /* office/odt.c */
static const struct xmt_format *const formats[] = {
    &xmt_format_xliff, &xmt_format_html, &xmt_format_xliff2,
    &xmt_format_word,  &xmt_format_odt,
};
#define NFORMATS (sizeof formats / sizeof *formats)

const struct xmt_format *const *xmt_formats(size_t *n) {
  *n = NFORMATS;
  return formats;
}

/* A format's value is its place in the table: the first five are the
 * named values of enum xmt_doc_format, which stay; a format added after
 * them has no name in the header but its info.name (xmt_format_by_name). */
const struct xmt_format *xmt_format_entry(enum xmt_doc_format id) {
  return (size_t)id < NFORMATS ? formats[(size_t)id] : NULL;
}

/* The public face of the table: the entries' info, copied once. */
static struct xmt_format_info infos[NFORMATS];
static pthread_once_t infos_once = PTHREAD_ONCE_INIT;

static void fill_infos(void) {
  for (size_t i = 0; i < NFORMATS; i++) {
    infos[i] = formats[i]->info;
    infos[i].format = (enum xmt_doc_format)i;
  }
}

const struct xmt_format_info *xmt_format_list(size_t *n) {
  pthread_once(&infos_once, fill_infos);
  *n = NFORMATS;
  return infos;
}

const char *xmt_format_name(enum xmt_doc_format format) {
  const struct xmt_format *entry = xmt_format_entry(format);
  return entry != NULL ? entry->info.name : NULL;
}

int xmt_format_by_name(const char *name, enum xmt_doc_format *format) {
  for (size_t i = 0; name != NULL && i < NFORMATS; i++)
    if (strcmp(formats[i]->info.name, name) == 0) {
      *format = (enum xmt_doc_format)i;
      return 1;
    }
  return 0;
}

const char *xmt_format_noun(enum xmt_doc_format format) {
  const struct xmt_format *entry = xmt_format_entry(format);
  return entry != NULL ? entry->noun : NULL;
}

unsigned xmt_format_flags(enum xmt_doc_format format) {
  const struct xmt_format *entry = xmt_format_entry(format);
  return entry != NULL ? entry->flags : 0;
}

int xmt_format_counts_attributes(enum xmt_doc_format format) {
  const struct xmt_format *entry = xmt_format_entry(format);
  return entry != NULL && entry->attribute_units;
}

const char *xmt_format_media_type(enum xmt_doc_format format) {
  const struct xmt_format *entry = xmt_format_entry(format);
  return entry != NULL && entry->media_type != NULL ? entry->media_type
                                                    : "application/xliff+xml";
}

int xmt_format_by_extension(const char *path, enum xmt_doc_format *format) {
  const char *slash = path != NULL ? strrchr(path, '/') : NULL;
  const char *dot = path != NULL ? strrchr(path, '.') : NULL;
  if (dot == NULL || (slash != NULL && dot < slash))
    return 0;
  for (size_t i = 0; i < NFORMATS; i++)
    for (const char *const *e = formats[i]->info.extensions; *e != NULL; e++)
      if (strcasecmp(dot, *e) == 0) {
        *format = (enum xmt_doc_format)i;
        return 1;
      }
  return 0;
}

/* An ASCII view of a document's first bytes, whatever their encoding: a
 * UTF-8 BOM goes, UTF-16 (with a BOM, or "<" as its first character) is
 * read by code unit, and any character outside ASCII reads as 0x80, so
 * it never passes for markup. */
struct view {
  const unsigned char *b;
  size_t start, n; /* first byte after the BOM; characters in view */
  int step;        /* 1, or 2 for UTF-16 */
  int big_endian;
};

static void view_init(struct view *v, const char *bytes, size_t len) {
  const unsigned char *b = (const unsigned char *)bytes;
  v->b = b;
  v->start = 0;
  v->step = 1;
  v->big_endian = 0;
  if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
    v->start = 3;
  } else if (len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) ||
                          (b[0] == 0xFE && b[1] == 0xFF))) {
    v->start = 2;
    v->step = 2;
    v->big_endian = b[0] == 0xFE;
  } else if (len >= 2 &&
             ((b[0] == '<' && b[1] == 0) || (b[0] == 0 && b[1] == '<'))) {
    v->step = 2;
    v->big_endian = b[0] == 0;
  }
  v->n = (len - v->start) / (size_t)v->step;
}

/* The character k of the view, or -1 past its end. */
static int ch(const struct view *v, size_t k) {
  if (k >= v->n)
    return -1;
  const unsigned char *p = v->b + v->start + k * (size_t)v->step;
  unsigned unit = v->step == 1    ? p[0]
                  : v->big_endian ? (unsigned)p[0] << 8 | p[1]
                                  : (unsigned)p[1] << 8 | p[0];
  return unit < 0x80 ? (int)unit : 0x80;
}

/* 1 when the view holds s at k. */
static int has(const struct view *v, size_t k, const char *s) {
  for (; *s != '\0'; s++, k++)
    if (ch(v, k) != *s)
      return 0;
  return 1;
}

/* The same, ASCII case ignored (s in lower case). */
static int has_ci(const struct view *v, size_t k, const char *s) {
  for (; *s != '\0'; s++, k++) {
    int c = ch(v, k);
    if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != *s)
      return 0;
  }
  return 1;
}

static int is_space(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The index after the first s at or after k, or SIZE_MAX when the view
 * ends first. */
static size_t past(const struct view *v, size_t k, const char *s) {
  for (; k < v->n; k++)
    if (has(v, k, s))
      return k + strlen(s);
  return SIZE_MAX;
}

/* The index after the '>' that closes a doctype (or another "<!"
 * declaration) opened at k: quoted literals and the internal subset,
 * with its comments, processing instructions and quoted entity values,
 * may hold '>'. SIZE_MAX when the view ends first. */
static size_t past_doctype(const struct view *v, size_t k) {
  int subset = 0;
  for (k += 2; k < v->n; k++) {
    int c = ch(v, k);
    if (c == '"' || c == '\'') {
      char q[2] = {(char)c, '\0'};
      k = past(v, k + 1, q);
    } else if (subset && has(v, k, "<!--")) {
      k = past(v, k + 4, "-->");
    } else if (subset && has(v, k, "<?")) {
      k = past(v, k + 2, "?>");
    } else if (c == '[' || c == ']') {
      subset = c == '[';
      continue;
    } else if (c == '>' && !subset) {
      return k + 1;
    } else {
      continue;
    }
    if (k == SIZE_MAX)
      return k;
    k--; /* past() gave the index after the literal */
  }
  return SIZE_MAX;
}

/* 1 when the attributes of a start tag (view[k, end), from after its name)
 * say XLIFF 2: version="2.N", or the XLIFF 2 core namespace declared. */
static int xliff2_attributes(const struct view *v, size_t k, size_t end) {
  static const char ns[] = "urn:oasis:names:tc:xliff:document:2.0";
  while (k < end) {
    while (k < end && (is_space(ch(v, k)) || ch(v, k) == '/'))
      k++;
    size_t name = k;
    while (k < end && !is_space(ch(v, k)) && strchr("=/>", ch(v, k)) == NULL)
      k++;
    size_t name_len = k - name;
    while (k < end && ch(v, k) != '"' && ch(v, k) != '\'')
      k++;
    if (k >= end)
      break;
    int quote = ch(v, k++);
    size_t value = k;
    while (k < end && ch(v, k) != quote)
      k++;
    size_t value_len = k++ - value;
    if (name_len == 7 && has(v, name, "version") && value_len >= 3 &&
        has(v, value, "2.") && ch(v, value + 2) >= '0' &&
        ch(v, value + 2) <= '9')
      return 1;
    if (((name_len == 5 && has(v, name, "xmlns")) ||
         (name_len > 6 && has(v, name, "xmlns:"))) &&
        value_len == sizeof ns - 1 && has(v, value, ns))
      return 1;
  }
  return 0;
}

/* What a document's first element says (enum xmt_root), or that the
 * bytes end before it (or before its start tag does). */
#define ROOT_MORE ((enum xmt_root)(XMT_ROOT_XLIFF2 + 1))

/* The first element of the view, after any prolog: XML declaration,
 * comments, processing instructions, a doctype with its internal subset,
 * white space. *at gets the index of its '<'; *html_doctype 1 when a
 * doctype named html came before. at_end: the view is all there is. */
static enum xmt_root first_element(const struct view *v, int at_end, size_t *at,
                                   int *html_doctype) {
  size_t k = 0;
  *html_doctype = 0;
  for (;;) {
    while (k < v->n && is_space(ch(v, k)))
      k++;
    if (k >= v->n)
      return ROOT_MORE;
    if (ch(v, k) != '<')
      return XMT_ROOT_NONE;
    if (has(v, k, "<!--"))
      k = past(v, k + 4, "-->");
    else if (has(v, k, "<?"))
      k = past(v, k + 2, "?>");
    else if (has(v, k, "<!")) {
      size_t name = k + 9;
      while (name < v->n && is_space(ch(v, name)))
        name++;
      if (has_ci(v, k + 2, "doctype") && has_ci(v, name, "html") &&
          (is_space(ch(v, name + 4)) || ch(v, name + 4) == '>'))
        *html_doctype = 1;
      k = past_doctype(v, k);
    } else
      break;
    if (k == SIZE_MAX)
      return ROOT_MORE;
  }
  *at = k;
  size_t name = k + 1, end = name, colon = SIZE_MAX;
  while (end < v->n && !is_space(ch(v, end)) && ch(v, end) != '/' &&
         ch(v, end) != '>') {
    if (ch(v, end) == ':' && colon == SIZE_MAX)
      colon = end;
    end++;
  }
  if (end >= v->n)
    return ROOT_MORE;
  size_t local = colon != SIZE_MAX ? colon + 1 : name;
  if (end - local != 5 || !has(v, local, "xliff"))
    return XMT_ROOT_OTHER;
  /* the whole start tag, for its version and namespaces */
  size_t close = end;
  int quote = 0;
  for (; close < v->n && (quote || ch(v, close) != '>'); close++)
    if (ch(v, close) == '"' || ch(v, close) == '\'')
      quote = quote == 0 ? ch(v, close) : quote == ch(v, close) ? 0 : quote;
  if (close >= v->n) /* cut short at the end: XLIFF's reader says so */
    return at_end ? XMT_ROOT_XLIFF : ROOT_MORE;
  return xliff2_attributes(v, end, close) ? XMT_ROOT_XLIFF2 : XMT_ROOT_XLIFF;
}

/* The format of a document whose first len bytes are bytes; 0 when they
 * do not say yet and more is to come (!at_end). Each format of the table
 * bids on what its first element says; the highest bid wins, the
 * table's order breaks a tie. */
static int sniff(const char *bytes, size_t len, const char *path, int at_end,
                 enum xmt_doc_format *format) {
  struct view v;
  view_init(&v, bytes, len);
  size_t at = 0;
  int html_doctype = 0;
  enum xmt_root root = first_element(&v, at_end, &at, &html_doctype);
  if (root == ROOT_MORE && !at_end)
    return 0;
  /* the element other than <xliff>, in ASCII, for a format that starts
   * after however long a prolog (1 KB of it is plenty) */
  char element[1024];
  size_t n = 0;
  for (size_t k = at; root == XMT_ROOT_OTHER && n < sizeof element && k < v.n;
       k++)
    element[n++] = (char)ch(&v, k);
  const struct xmt_head head = {
      .bytes = bytes,
      .len = len < 1024 ? len : 1024,
      .root = root == ROOT_MORE ? XMT_ROOT_NONE : root,
      .element = root == XMT_ROOT_OTHER ? element : NULL,
      .element_len = n,
      .doctype_html = html_doctype};
  size_t best = 0;
  int best_bid = XMT_BID_NO;
  for (size_t i = 0; i < NFORMATS; i++) {
    int bid = formats[i]->bid != NULL ? formats[i]->bid(&head) : XMT_BID_NO;
    if (bid > best_bid) {
      best = i;
      best_bid = bid;
    }
  }
  *format = (enum xmt_doc_format)best;
  /* Text before any element, or nothing, and no bid: the name decides;
   * an unknown name goes to the first format, whose reader says what is
   * wrong. */
  if (best_bid == XMT_BID_NO && head.root != XMT_ROOT_OTHER)
    xmt_format_by_extension(path, format);
  return 1;
}

enum xmt_doc_format xmt_format_sniff(const char *bytes, size_t len,
                                     const char *path) {
  enum xmt_doc_format format = XMT_FORMAT_XLIFF;
  sniff(bytes, len, path, 1, &format);
  return format;
}

/* The most of a document read to find its first element: a prolog
 * (comments, processing instructions, a doctype) longer than this is
 * refused rather than read without end. */
#define SNIFF_MAX ((size_t)1 << 20)

static xmt_status prolog_too_long(xmt_filter *f, const char *path) {
  return xmt_error_at(&f->err, XMT_ERR_FORMAT, XMT_IN(path),
                      "no element in the first %zu KB: a prolog (comments, "
                      "processing instructions, doctype) longer than that is "
                      "not read",
                      SNIFF_MAX >> 10);
}

/* Reads fp into head until its first bytes tell the document's format
 * (sniff), fp ends, or SNIFF_MAX bytes do not say: an error naming
 * path then. */
static xmt_status read_head(xmt_filter *f, FILE *fp, const char *path,
                            struct xmt_buf *head, enum xmt_doc_format *format) {
  xmt_buf_reset(head);
  for (;;) {
    size_t want = head->len < 4096 ? 4096 : head->len;
    if (want > SNIFF_MAX - head->len)
      want = SNIFF_MAX - head->len;
    if (xmt_buf_grow(head, want) != XMT_OK)
      return xmt_error_nomem(&f->err);
    size_t got = fread(head->data + head->len, 1, want, fp);
    head->len += got;
    head->data[head->len] = '\0';
    if (ferror(fp))
      return xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path), "cannot read %s",
                          strcmp(path, "-") == 0 ? "standard input"
                                                 : "the document");
    if (sniff(head->data, head->len, path, got < want, format))
      return XMT_OK;
    if (head->len >= SNIFF_MAX)
      return prolog_too_long(f, path);
  }
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
    /* Standard input is read once: the filter keeps what it read, and the
     * reader of the document takes it (xmt_stdin_take) before the rest
     * of the stream. */
    struct xmt_stdin_head *h = &f->stdin_head;
    if (!h->held) {
      xmt_status st = read_head(f, stdin, path, &h->bytes, format);
      h->held = st == XMT_OK || st == XMT_ERR_FORMAT;
      return st;
    }
    /* asked again: the same answer, a refusal included */
    if (sniff(h->bytes.data, h->bytes.len, path, h->bytes.len < SNIFF_MAX,
              format))
      return XMT_OK;
    return prolog_too_long(f, path);
  }
  /* What is read here is read again from the start by the document's
   * reader: a pipe (`<(...)`), a socket or a terminal would lose it.
   * Told before opening: a named pipe would be waited for first. */
  struct stat sb;
  if (stat(path, &sb) == 0 &&
      (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode) || S_ISSOCK(sb.st_mode)))
    return xmt_error_at(&f->err, XMT_ERR_IO, XMT_IN(path),
                        "a pipe or a device cannot be read twice: give the "
                        "document on standard input (-)");
  FILE *fp = xmt_input_open(path, &f->err);
  if (fp == NULL)
    return f->err.pub.status;
  struct xmt_buf head = {0};
  xmt_status st = read_head(f, fp, path, &head, format);
  xmt_buf_free(&head);
  fclose(fp);
  return st;
}
