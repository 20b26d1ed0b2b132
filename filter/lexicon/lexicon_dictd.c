/* lexicon_dictd.c -- FreeDict dictd dictionaries into prior links. */

/* The index is scanned for wanted headwords, and their entries read from
 * the data (dictzip, gzip or plain). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include "lexicon_private.h"

/* Sanity limits on dictionary data. */
#define MAX_ENTRY (16u << 20)  /* bytes of one dictd entry */
#define MAX_WHOLE (1ull << 31) /* bytes of a gzip file inflated whole */

/* --- dictd data: plain, dictzip (chunks inflated as needed), gzip --------- */

/* Reads n bytes at offset off; 0, or -1 with errno (EIO: end of file). */
static int pread_full(int fd, void *buf, size_t n, uint64_t off) {
  unsigned char *p = buf;
  while (n > 0) {
    ssize_t r = pread(fd, p, n, (off_t)off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = EIO;
      return -1;
    }
    p += r;
    n -= (size_t)r;
    off += (uint64_t)r;
  }
  return 0;
}

enum { DZ_PLAIN, DZ_CHUNKED, DZ_WHOLE };

struct dictd {
  const struct xmt_lexfile *f;
  int fd;
  int format;
  uint64_t size; /* bytes of text (DZ_CHUNKED: at most) */
  uint32_t chlen, chcnt;
  uint64_t *chunk_at; /* DZ_CHUNKED: file offset of each chunk, and the end */
  z_stream z;
  int z_ready;
  unsigned char *in, *chunk;
  size_t in_cap;
  uint32_t cur; /* the chunk in chunk */
  int have_cur;
  size_t produced;    /* bytes of it inflated so far */
  struct xmt_buf all; /* DZ_WHOLE: the text */
};

static void dictd_close(struct dictd *d) {
  if (d->fd >= 0)
    close(d->fd);
  if (d->z_ready)
    inflateEnd(&d->z);
  free(d->chunk_at);
  free(d->in);
  free(d->chunk);
  xmt_buf_free(&d->all);
}

static xmt_status dz_format(struct dictd *d, struct xmt_error_store *err,
                            const char *what) {
  return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(d->f->data), "%s", what);
}

static unsigned le16(const unsigned char *p) {
  return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Finds dictzip's RA subfield (chunk length, count and compressed sizes)
 * in the gzip extra field x (xlen bytes); chunk_at gets the sizes, made
 * offsets once the header's end is known. */
static xmt_status dz_chunks(struct dictd *d, const unsigned char *x,
                            size_t xlen, struct xmt_error_store *err) {
  for (size_t k = 0; k + 4 <= xlen;) {
    size_t len = le16(x + k + 2);
    if (k + 4 + len > xlen)
      return dz_format(d, err, "bad gzip extra field");
    const unsigned char *ra = x + k + 4;
    if (x[k] == 'R' && x[k + 1] == 'A') {
      if (len < 6 || le16(ra) != 1 || le16(ra + 2) == 0 ||
          len < 6 + 2 * (size_t)le16(ra + 4))
        return dz_format(d, err, "bad dictzip chunk table");
      d->chlen = le16(ra + 2);
      d->chcnt = le16(ra + 4);
      d->chunk_at = malloc(((size_t)d->chcnt + 1) * sizeof *d->chunk_at);
      if (d->chunk_at == NULL)
        return XMT_ERR_NOMEM;
      for (uint32_t i = 0; i < d->chcnt; i++)
        d->chunk_at[i + 1] = le16(ra + 6 + 2 * i);
      d->format = DZ_CHUNKED;
      return XMT_OK;
    }
    k += 4 + len;
  }
  return XMT_OK;
}

/* Skips a zero-terminated gzip header string at *pos. */
static xmt_status dz_skip_string(struct dictd *d, uint64_t *pos, uint64_t size,
                                 struct xmt_error_store *err) {
  unsigned char buf[256];
  while (*pos < size) {
    size_t n = size - *pos < sizeof buf ? (size_t)(size - *pos) : sizeof buf;
    if (pread_full(d->fd, buf, n, *pos) != 0)
      return xmt_lex_io_error(err, d->f->data, "cannot read", errno);
    unsigned char *z = memchr(buf, 0, n);
    *pos += z != NULL ? (uint64_t)(z - buf) + 1 : n;
    if (z != NULL)
      return XMT_OK;
  }
  return dz_format(d, err, "truncated gzip header");
}

/* Inflates the whole gzip file (no dictzip chunk table). */
static xmt_status dz_whole(struct dictd *d, struct xmt_error_store *err) {
  struct xmt_buf in = {0};
  xmt_status st = xmt_lex_read_file(d->f->data, &in, err);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (st == XMT_OK && inflateInit2(&z, 15 + 32) != Z_OK)
    st = XMT_ERR_NOMEM;
  else if (st == XMT_OK) {
    z.next_in = (unsigned char *)in.data;
    z.avail_in = (uInt)in.len; /* the file is below MAX_WHOLE: checked */
    int r = Z_OK;
    while (st == XMT_OK && r != Z_STREAM_END) {
      if (d->all.cap - d->all.len < 65536 + 1)
        st = xmt_buf_grow(&d->all, 65536);
      if (st != XMT_OK || d->all.len > MAX_WHOLE)
        break;
      z.next_out = (unsigned char *)d->all.data + d->all.len;
      z.avail_out = (uInt)(d->all.cap - d->all.len - 1);
      r = inflate(&z, Z_NO_FLUSH);
      d->all.len = (size_t)((char *)z.next_out - d->all.data);
      if (r == Z_STREAM_END && z.avail_in > 0 && inflateReset(&z) == Z_OK)
        r = Z_OK; /* another gzip member follows */
      else if (r != Z_OK && r != Z_STREAM_END)
        st = dz_format(d, err, "corrupt gzip data");
    }
    inflateEnd(&z);
  }
  xmt_buf_free(&in);
  if (st == XMT_OK && d->all.len > MAX_WHOLE)
    st = dz_format(d, err, "dictionary too large");
  d->size = d->all.len;
  d->format = DZ_WHOLE;
  return st;
}

/* Reads the gzip header; a dictzip chunk table makes the data readable
 * chunk by chunk, else the whole file is inflated. */
static xmt_status dz_header(struct dictd *d, uint64_t fsize,
                            struct xmt_error_store *err) {
  unsigned char h[12], *x = NULL;
  if (fsize < 18 || pread_full(d->fd, h, 10, 0) != 0)
    return dz_format(d, err, "not a gzip file");
  if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
    return dz_format(d, err, "not a gzip file");
  uint64_t pos = 10;
  xmt_status st = XMT_OK;
  if (h[3] & 4) {
    if (pread_full(d->fd, h + 10, 2, pos) != 0)
      return dz_format(d, err, "truncated gzip header");
    size_t xlen = le16(h + 10);
    pos += 2 + xlen;
    if ((x = malloc(xlen + 1)) == NULL)
      return XMT_ERR_NOMEM;
    if (pos > fsize || pread_full(d->fd, x, xlen, 12) != 0)
      st = dz_format(d, err, "truncated gzip header");
    else
      st = dz_chunks(d, x, xlen, err);
    free(x);
  }
  for (int flag = 8; flag <= 16 && st == XMT_OK; flag *= 2)
    if (h[3] & flag) /* file name, comment */
      st = dz_skip_string(d, &pos, fsize, err);
  pos += h[3] & 2 ? 2 : 0; /* header CRC */
  if (st != XMT_OK || d->format != DZ_CHUNKED)
    return st == XMT_OK ? dz_whole(d, err) : st;
  d->chunk_at[0] = pos;
  for (uint32_t i = 0; i < d->chcnt; i++)
    d->chunk_at[i + 1] += d->chunk_at[i];
  if (d->chunk_at[d->chcnt] > fsize)
    return dz_format(d, err, "truncated dictzip data");
  d->size = (uint64_t)d->chlen * d->chcnt;
  d->chunk = malloc(d->chlen);
  if (d->chunk == NULL || inflateInit2(&d->z, -15) != Z_OK)
    return XMT_ERR_NOMEM;
  d->z_ready = 1;
  return XMT_OK;
}

static xmt_status dictd_open(struct dictd *d, const struct xmt_lexfile *f,
                             struct xmt_error_store *err) {
  memset(d, 0, sizeof *d);
  d->f = f;
  d->fd = open(f->data, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (d->fd < 0 || fstat(d->fd, &sb) != 0)
    return xmt_lex_io_error(err, f->data, "cannot open", errno);
  if (!xmt_lex_ends_with(f->data, ".dz") &&
      !xmt_lex_ends_with(f->data, ".gz")) {
    d->format = DZ_PLAIN;
    d->size = (uint64_t)sb.st_size;
    return XMT_OK;
  }
  if ((uint64_t)sb.st_size > MAX_WHOLE)
    return dz_format(d, err, "dictionary too large");
  return dz_header(d, (uint64_t)sb.st_size, err);
}

/* Makes chunk c inflated at least up to need bytes. */
static xmt_status dz_chunk(struct dictd *d, uint32_t c, size_t need,
                           struct xmt_error_store *err) {
  if (!d->have_cur || d->cur != c) {
    size_t clen = (size_t)(d->chunk_at[c + 1] - d->chunk_at[c]);
    if (clen > d->in_cap) {
      unsigned char *in = xmt_grow_array(d->in, &d->in_cap, clen, 1);
      if (in == NULL)
        return XMT_ERR_NOMEM;
      d->in = in;
    }
    d->have_cur = 0;
    if (pread_full(d->fd, d->in, clen, d->chunk_at[c]) != 0)
      return xmt_lex_io_error(err, d->f->data, "cannot read", errno);
    inflateReset(&d->z);
    d->z.next_in = d->in;
    d->z.avail_in = (uInt)clen;
    d->cur = c;
    d->have_cur = 1;
    d->produced = 0;
  }
  /* inflate a little past need: the next entry is often just after */
  size_t goal = need + 4096 < d->chlen ? need + 4096 : d->chlen;
  while (d->produced < need) {
    d->z.next_out = d->chunk + d->produced;
    d->z.avail_out = (uInt)(goal - d->produced);
    int r = inflate(&d->z, Z_SYNC_FLUSH);
    size_t got = goal - d->produced - d->z.avail_out;
    d->produced += got;
    if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
      return dz_format(d, err, "corrupt dictzip chunk");
    if (got == 0 || r == Z_STREAM_END)
      break;
  }
  return d->produced >= need ? XMT_OK
                             : dz_format(d, err, "entry past the data's end");
}

/* out = the len bytes of text at offset off. */
static xmt_status dictd_text(struct dictd *d, uint64_t off, uint32_t len,
                             struct xmt_buf *out, struct xmt_error_store *err) {
  xmt_buf_reset(out);
  if (off > d->size || len > d->size - off)
    return dz_format(d, err, "entry past the data's end");
  if (d->format == DZ_WHOLE)
    return xmt_buf_append(out, d->all.data + off, len);
  xmt_status st = xmt_buf_grow(out, (size_t)len + 1);
  if (st != XMT_OK || len == 0)
    return st;
  if (d->format == DZ_PLAIN) {
    if (pread_full(d->fd, out->data, len, off) != 0)
      return xmt_lex_io_error(err, d->f->data, "cannot read", errno);
    out->len = len;
    out->data[len] = '\0';
    return XMT_OK;
  }
  uint64_t end = off + len;
  for (uint32_t c = (uint32_t)(off / d->chlen);
       st == XMT_OK && end > (uint64_t)c * d->chlen; c++) {
    uint64_t base = (uint64_t)c * d->chlen;
    size_t lo = off > base ? (size_t)(off - base) : 0;
    size_t hi = end - base < d->chlen ? (size_t)(end - base) : d->chlen;
    st = dz_chunk(d, c, hi, err);
    if (st == XMT_OK)
      st = xmt_buf_append(out, d->chunk + lo, hi - lo);
  }
  return st;
}

/* --- dictd index ---------------------------------------------------------- */

/* An entry to read: its place in the data, and the headword it is for. */
struct want {
  uint64_t off;
  uint32_t len;
  uint32_t head, head_len; /* in struct scan's heads */
};

struct scan {
  struct xmt_lex_match *m;
  const struct xmt_lexfile *f;
  int head_side;
  const char *head_lang;
  struct want *w;
  size_t n, cap;
  struct xmt_buf heads;
  /* the previous line's headword and what became of it */
  struct xmt_buf prev;
  int prev_ok, prev_wanted;
  uint32_t prev_head, prev_head_len;
};

/* dictd's base64 number (A-Za-z0-9+/, most significant digit first). */
static int b64_number(const char *s, size_t n, uint64_t *v) {
  *v = 0;
  if (n == 0 || n > 10)
    return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int d = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (d < 0)
      return 0;
    *v = *v * 64 + (uint64_t)d;
  }
  return 1;
}

/* Decides whether a headword is wanted, keeping its word in heads. */
static xmt_status scan_headword(struct scan *sc, const char *h, size_t n) {
  sc->prev_ok = 0;
  xmt_buf_reset(&sc->prev);
  xmt_status st = xmt_buf_append(&sc->prev, h, n);
  if (st != XMT_OK)
    return st;
  sc->prev_wanted = 0;
  /* dictfmt's meta entries: 00-database-info and the like */
  if (!(n >= 10 && memcmp(h, "00database", 10) == 0) &&
      !(n >= 11 && memcmp(h, "00-database", 11) == 0)) {
    struct xmt_lex_span w = xmt_lex_single_word(h, n, sc->head_lang);
    if (w.n > 0)
      st = xmt_lex_wanted(sc->m, sc->head_side, w.s, w.n, &sc->prev_wanted);
    if (st == XMT_OK && sc->prev_wanted) {
      sc->prev_head = (uint32_t)sc->heads.len;
      sc->prev_head_len = (uint32_t)w.n;
      st = xmt_buf_append(&sc->heads, w.s, w.n);
    }
  }
  sc->prev_ok = st == XMT_OK;
  return st;
}

static xmt_status scan_line(struct scan *sc, const char *s, size_t n,
                            unsigned long lineno, struct xmt_error_store *err) {
  if (n > 0 && s[n - 1] == '\r')
    n--;
  if (n == 0)
    return XMT_OK;
  const char *t1 = memchr(s, '\t', n);
  const char *t2 = t1 ? memchr(t1 + 1, '\t', n - (size_t)(t1 + 1 - s)) : NULL;
  if (t2 == NULL)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(sc->f->path, lineno),
                        "expected headword, offset and length separated "
                        "by tabs");
  size_t hn = (size_t)(t1 - s);
  if (!sc->prev_ok || sc->prev.len != hn || memcmp(sc->prev.data, s, hn) != 0) {
    xmt_status st = scan_headword(sc, s, hn);
    if (st != XMT_OK)
      return st;
  }
  if (!sc->prev_wanted)
    return XMT_OK;
  const char *t3 = memchr(t2 + 1, '\t', n - (size_t)(t2 + 1 - s));
  size_t ln = (size_t)((t3 ? t3 : s + n) - (t2 + 1));
  uint64_t off, len;
  if (!b64_number(t1 + 1, (size_t)(t2 - t1 - 1), &off) ||
      !b64_number(t2 + 1, ln, &len) || len > MAX_ENTRY)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(sc->f->path, lineno),
                        "bad entry offset or length");
  if (sc->n == sc->cap) {
    struct want *w = xmt_grow_array(sc->w, &sc->cap, sc->n + 1, sizeof *w);
    if (w == NULL)
      return XMT_ERR_NOMEM;
    sc->w = w;
  }
  sc->w[sc->n++] =
      (struct want){off, (uint32_t)len, sc->prev_head, sc->prev_head_len};
  return XMT_OK;
}

/* Scans the index a block at a time, keeping the entries of wanted
 * headwords. */
static xmt_status scan_index(struct scan *sc, struct xmt_error_store *err) {
  int fd = open(sc->f->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return xmt_lex_io_error(err, sc->f->path, "cannot open", errno);
  size_t cap = 1 << 20, have = 0;
  char *buf = malloc(cap);
  xmt_status st = buf != NULL ? XMT_OK : XMT_ERR_NOMEM;
  unsigned long lineno = 0;
  for (int eof = 0; st == XMT_OK && !eof;) {
    if (have == cap) { /* a line longer than the buffer */
      char *p =
          cap < (64u << 20) ? xmt_grow_array(buf, &cap, cap + 1, 1) : NULL;
      if (p == NULL) {
        st = cap < (64u << 20)
                 ? XMT_ERR_NOMEM
                 : xmt_error_at(err, XMT_ERR_FORMAT,
                                XMT_AT_LINE(sc->f->path, lineno + 1),
                                "line too long");
        break;
      }
      buf = p;
    }
    ssize_t r = read(fd, buf + have, cap - have);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      st = xmt_lex_io_error(err, sc->f->path, "cannot read", errno);
      break;
    }
    eof = r == 0;
    have += (size_t)r;
    size_t start = 0;
    for (;;) {
      char *nl = memchr(buf + start, '\n', have - start);
      if (nl == NULL && !(eof && start < have))
        break;
      size_t end = nl ? (size_t)(nl - buf) : have;
      st = scan_line(sc, buf + start, end - start, ++lineno, err);
      start = nl ? end + 1 : have;
      if (st != XMT_OK)
        break;
    }
    memmove(buf, buf + start, have - start);
    have -= start;
  }
  free(buf);
  close(fd);
  return st;
}

static int want_cmp(const void *pa, const void *pb) {
  const struct want *a = pa, *b = pb;
  if (a->off != b->off)
    return a->off < b->off ? -1 : 1;
  if (a->len != b->len)
    return a->len < b->len ? -1 : 1;
  return a->head < b->head ? -1 : a->head > b->head;
}

/* --- dictd entries -------------------------------------------------------- */

struct entry_ctx {
  struct scan *sc;
  const struct want *w; /* the wants of this entry: same place */
  size_t nw;
  const char *lang; /* of the translations */
  double phrase_factor;
  struct xmt_buf line;
};

/* Links each headword of the entry to translation word t. */
static xmt_status entry_link(struct entry_ctx *e, struct xmt_lex_span t,
                             double scale) {
  int hs = e->sc->head_side;
  for (size_t i = 0; i < e->nw; i++) {
    if (i > 0 && e->w[i].head == e->w[i - 1].head)
      continue;
    const char *w[2];
    size_t len[2];
    w[hs] = e->sc->heads.data + e->w[i].head;
    len[hs] = e->w[i].head_len;
    w[1 - hs] = t.s;
    len[1 - hs] = t.n;
    xmt_status st = xmt_lex_pair(e->sc->m, w, len, scale);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* One translation line: alternatives split on ',' and ';'. */
static xmt_status entry_line(struct entry_ctx *e, const char *s, size_t n) {
  xmt_status st = xmt_lex_clean_line(s, n, &e->line);
  const char *p = e->line.data, *end = p + e->line.len;
  while (st == XMT_OK && p < end) {
    const char *q = p;
    while (q < end && *q != ',' && *q != ';')
      q++;
    struct xmt_lex_span w = xmt_lex_single_word(p, (size_t)(q - p), e->lang),
                        pw[XMT_LEX_PHRASE_WORDS];
    if (w.n > 0)
      st = entry_link(e, w, 1.0);
    else if (e->phrase_factor > 0) /* a phrase: its content words */
      for (size_t k = xmt_lex_phrase_words(p, (size_t)(q - p), e->lang, pw),
                  i = 0;
           i < k && st == XMT_OK; i++)
        st = entry_link(e, pw[i], e->phrase_factor);
    p = q + 1;
  }
  return st;
}

/* An entry: its headword line, then translation lines (at the margin, or
 * after one space when they open with a [domain]); lines indented further
 * are examples, notes, synonyms and cross-references. */
static xmt_status entry_parse(struct entry_ctx *e, const char *s, size_t n) {
  const char *p = memchr(s, '\n', n), *end = s + n;
  p = p != NULL ? p + 1 : end;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl != NULL ? nl : end;
    size_t ln = (size_t)(le - p);
    if (ln > 1 && p[0] == ' ' && p[1] == '[') {
      p++;
      ln--;
    }
    if (ln > 0 && p[0] != ' ' && p[0] != '\t') {
      xmt_status st = entry_line(e, p, ln);
      if (st != XMT_OK)
        return st;
    }
    p = nl != NULL ? nl + 1 : end;
  }
  return XMT_OK;
}

static xmt_status read_entries(struct scan *sc, struct dictd *d,
                               struct xmt_error_store *err) {
  struct entry_ctx e = {sc,
                        NULL,
                        0,
                        xmt_lex_lang(sc->m, 1 - sc->head_side)->iso1,
                        xmt_lex_options(sc->m)->phrase_factor,
                        {0}};
  struct xmt_buf text = {0};
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < sc->n && st == XMT_OK;) {
    size_t j = i + 1;
    while (j < sc->n && sc->w[j].off == sc->w[i].off &&
           sc->w[j].len == sc->w[i].len)
      j++;
    st = dictd_text(d, sc->w[i].off, sc->w[i].len, &text, err);
    e.w = sc->w + i;
    e.nw = j - i;
    if (st == XMT_OK && text.data != NULL)
      st = entry_parse(&e, text.data, text.len);
    i = j;
  }
  xmt_buf_free(&text);
  xmt_buf_free(&e.line);
  return st;
}

static xmt_status dictd_read(struct xmt_lex_match *m, void *state,
                             const struct xmt_lexfile *f, size_t i,
                             struct xmt_error_store *err) {
  (void)state;
  (void)i;
  struct scan sc;
  memset(&sc, 0, sizeof sc);
  sc.m = m;
  sc.f = f;
  sc.head_side = f->reversed ? XMT_TGT : XMT_SRC;
  sc.head_lang = xmt_lex_lang(m, sc.head_side)->iso1;
  xmt_status st = scan_index(&sc, err);
  struct dictd d;
  memset(&d, 0, sizeof d);
  d.fd = -1;
  if (st == XMT_OK && sc.n > 0) {
    qsort(sc.w, sc.n, sizeof *sc.w, want_cmp);
    st = dictd_open(&d, f, err);
    if (st == XMT_OK)
      st = read_entries(&sc, &d, err);
  }
  dictd_close(&d);
  free(sc.w);
  xmt_buf_free(&sc.heads);
  xmt_buf_free(&sc.prev);
  return st;
}

const struct xmt_lex_reader xmt_lex_dictd_reader = {NULL, dictd_read, NULL,
                                                    NULL, 0};
