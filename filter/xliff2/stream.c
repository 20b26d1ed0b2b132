/* stream.c -- an XLIFF 2 document read as a stream: expat is fed a chunk
 * at a time, and each <unit> is cut off as it ends into a part of its own
 * (the bytes since the unit before, its segments, codes and texts), handed
 * to the unit reader, and written once the targets of its segments are
 * taken and every part before it is written. Memory holds the units in
 * flight, not the document. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream_private.h"

/* One part: take() may store targets in it while the reader reads on
 * (on a thread of its own, or the same); the reader frees it once it is
 * written (see let_go). It is one allocation:
 * the piece, then its arrays and bytes (doc's arrays and buffers point
 * into it and are never grown), so that cutting a unit off costs one
 * malloc, not a dozen. */
struct x2_piece {
  struct x2_piece *next;
  struct x2_doc doc;
  unsigned char *done; /* per segment: its target was taken */
  size_t taken;
  size_t first;  /* segments before it are all taken */
  size_t nfiles; /* the <file>s opened up to its end */
  size_t size;   /* of its block */
};

/* The parts written while the reader reads, freed by it: glibc frees a
 * chunk of another thread's arena under that arena's lock, which the
 * reader's mallocs then wait for. Under the lock. */
static struct x2_piece *take_written(struct x2_stream *s) {
  struct x2_piece *p = s->written;
  s->written = NULL;
  return p;
}

/* What part p holds apart from its block. */
static void piece_clear(struct x2_piece *p) {
  struct x2_doc *d = &p->doc;
  for (size_t i = 0; i < d->nsegs; i++) {
    xmt_segment_free(d->targets[i]);
    xmt_x2_free_split(&d->splits[i]);
  }
  xmt_memo_free(&d->keys);
}

static void piece_free(struct x2_piece *p) {
  if (p == NULL)
    return;
  piece_clear(p);
  free(p);
}

/* Part p freed, its block kept for cut_at when small and there is
 * room. */
static void piece_let_go(struct x2_stream *s, struct x2_piece *p) {
  if (s->nblocks == X2_BLOCKS || p->size > X2_BLOCK_MAX) {
    piece_free(p);
    return;
  }
  piece_clear(p);
  p->next = s->blocks;
  s->blocks = p;
  s->nblocks++;
}

/* A block of at least *size bytes, its size in *size: the block let go
 * last when large enough. Sizes are rounded up, so that most parts fit
 * in the block of another. */
static char *piece_block(struct x2_stream *s, size_t *size) {
  struct x2_piece *p = s->blocks;
  if (p != NULL) {
    s->blocks = p->next;
    s->nblocks--;
    if (p->size >= *size) {
      *size = p->size;
      return (char *)p;
    }
    free(p);
  }
  if (*size <= SIZE_MAX - 1023)
    *size = (*size + 1023) / 1024 * 1024;
  return malloc(*size);
}

/* --- Cutting -----------------------------------------------------------------
 */

/* Lines and characters of the bytes of d before end, from d's own; the
 * line of each of d's segments kept in it on the way, so that the unit
 * reader does not count the part's lines again. */
static void count_to(struct x2_doc *d, size_t end, unsigned long *lines,
                     unsigned long *chars) {
  const unsigned char *b = (const unsigned char *)d->data.data;
  size_t i =
      d->offset == 0 && end >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF
          ? 3
          : 0;
  unsigned long l = d->lines_before, c = d->chars_before;
  for (size_t k = 0; k < d->nsegs; k++) {
    size_t at = d->segs[k].start;
    if (at > i && at <= end) {
      xmt_utf8_advance(d->data.data + i, at - i, &l, &c);
      i = at;
    }
    d->segs[k].line = l + 1;
  }
  if (i < end)
    xmt_utf8_advance(d->data.data + i, end - i, &l, &c);
  *lines = l;
  *chars = c;
}

/* The unit that just ended counted into s: the segments of the live
 * document since the last counted (a unit is never cut between parts). */
static void count_unit(struct x2_stream *s) {
  const struct x2_doc *d = &s->live;
  int translatable = 0, target = 0;
  if (s->counted < d->nsegs)
    s->units++;
  for (size_t i = s->counted; i < d->nsegs; i++) {
    const struct x2_segment *g = &d->segs[i];
    if (!translatable && g->translate && g->state < X2_REVIEWED)
      s->translatable_units += translatable = 1;
    if (!target && g->has_target)
      s->units_with_target += target = 1;
  }
  s->counted = d->nsegs;
}

/* Room for n bytes at *at in a piece's block, aligned for any array. */
static size_t room(size_t *at, size_t n) {
  size_t align = sizeof(long double) > sizeof(void *) ? sizeof(long double)
                                                      : sizeof(void *);
  size_t start = (*at + align - 1) / align * align;
  *at = start + n;
  return start;
}

/* An array of n elements of live's copied into the block at off. */
static void *place(char *block, size_t off, const void *from, size_t bytes) {
  if (bytes > 0)
    memcpy(block + off, from, bytes);
  return block + off;
}

/* A buffer of the block at off holding len bytes copied from from and a
 * NUL, as every buffer has (room for len + 1). */
static struct xmt_buf place_buf(char *block, size_t off, const char *from,
                                size_t len) {
  struct xmt_buf b = {place(block, off, from, len), len, len + 1};
  b.data[len] = '\0';
  return b;
}

/* The live document's bytes before end, with its segments (those of the
 * unit that just ended), its codes, texts and strings, copied into a
 * part; live keeps its memory for the next unit. */
static xmt_status cut_at(struct x2_stream *s, size_t end) {
  struct x2_doc *live = &s->live;
  size_t n = live->nsegs, at = sizeof(struct x2_piece);
  size_t o_targets = room(&at, (n + 1) * sizeof(xmt_segment *));
  size_t o_splits = room(&at, (n + 1) * sizeof(struct x2_split));
  size_t o_segs = room(&at, n * sizeof *live->segs);
  size_t o_codes = room(&at, live->ncodes * sizeof *live->codes);
  size_t o_igns = room(&at, live->nigns * sizeof *live->igns);
  size_t o_refs = room(&at, live->nrefs * sizeof *live->refs);
  size_t o_orders = room(&at, live->norders * sizeof *live->orders);
  size_t o_done = room(&at, n + 1);
  size_t o_texts = room(&at, live->texts.len + 1);
  size_t o_pool = room(&at, live->pool.len + 1);
  size_t o_data = room(&at, end + 1);
  char *block = piece_block(s, &at);
  if (block == NULL || ((s->fresh == NULL || s->nfresh >= s->fresh_cap) &&
                        xmt_grow_one(&s->fresh, s->nfresh, &s->fresh_cap,
                                     sizeof *s->fresh) == NULL)) {
    free(block);
    return XMT_ERR_NOMEM;
  }
  struct x2_piece *p = (struct x2_piece *)(void *)block;
  memset(p, 0, sizeof *p);
  p->size = at;
  struct x2_doc *d = &p->doc;
  d->targets = memset(block + o_targets, 0, (n + 1) * sizeof *d->targets);
  d->splits = memset(block + o_splits, 0, (n + 1) * sizeof *d->splits);
  p->done = memset(block + o_done, 0, n + 1);
  d->segs = place(block, o_segs, live->segs, n * sizeof *live->segs);
  d->nsegs = d->segs_cap = n;
  d->codes =
      place(block, o_codes, live->codes, live->ncodes * sizeof *live->codes);
  d->ncodes = d->codes_cap = live->ncodes;
  d->igns = place(block, o_igns, live->igns, live->nigns * sizeof *live->igns);
  d->nigns = d->igns_cap = live->nigns;
  d->refs = place(block, o_refs, live->refs, live->nrefs * sizeof *live->refs);
  d->nrefs = d->refs_cap = live->nrefs;
  d->orders = place(block, o_orders, live->orders,
                    live->norders * sizeof *live->orders);
  d->norders = d->orders_cap = live->norders;
  d->texts = place_buf(block, o_texts, live->texts.data, live->texts.len);
  d->pool = place_buf(block, o_pool, live->pool.data, live->pool.len);
  d->data = place_buf(block, o_data, live->data.data, end);
  d->encoding = live->encoding;
  d->path = live->path;
  d->offset = live->offset;
  d->lines_before = live->lines_before;
  d->chars_before = live->chars_before;
  d->root_start = live->root_start;
  d->root_end = live->root_end;
  live->root_start = live->root_end = 0; /* the first part has it */
  count_to(d, end, &live->lines_before, &live->chars_before);
  /* Copied, not taken: the live buffer is as large as a chunk. */
  memmove(live->data.data, live->data.data + end, live->data.len - end);
  live->data.len -= end;
  live->offset += end;
  d->keys = live->keys;
  memset(&live->keys, 0, sizeof live->keys);
  live->nsegs = live->ncodes = live->nigns = live->nrefs = live->norders = 0;
  live->texts.len = live->pool.len = 0;
  p->nfiles = live->nfiles;
  s->counted = 0;
  s->fresh[s->nfresh++] = p;
  return XMT_OK;
}

/* The reader's hook at the end of a unit: the units read since the
 * last part are cut off together once their bytes fill a part, so that
 * a part's costs (its block, its hand-out, its lock) are paid for
 * several small units at once. */
static void cut(struct reader *r, size_t end) {
  struct x2_stream *s = r->hook;
  count_unit(s);
  s->ended_files = s->live.nfiles;
  s->ended_at = end;
  if ((s->cut_each || end >= X2_PART_MIN) && cut_at(s, end) != XMT_OK)
    xmt_x2_nomem(r);
}

/* --- Input -------------------------------------------------------------------
 */

/* The length of a UTF-8 sequence cut short at the end of b (len bytes
 * from its first invalid byte), or 0 when those bytes are invalid. */
static size_t cut_short(const unsigned char *b, size_t len) {
  size_t need = b[0] >= 0xF0 ? 4 : b[0] >= 0xE0 ? 3 : b[0] >= 0xC0 ? 2 : 0;
  if (need <= len)
    return 0;
  for (size_t i = 1; i < len; i++)
    if (!xmt_utf8_is_cont((char)b[i]))
      return 0;
  return len;
}

/* Appends the UTF-8 in s->utf8 to the live document and feeds it to the
 * parser; bytes of a character the chunk cut short wait for the next. */
static xmt_status feed_utf8(struct x2_stream *s, int last) {
  struct xmt_buf *u = &s->utf8;
  char *data = u->data != NULL ? u->data : (char *)"";
  size_t good = xmt_utf8_valid_prefix(data, u->len);
  size_t keep = 0;
  if (good < u->len && !last)
    keep = cut_short((const unsigned char *)data + good, u->len - good);
  struct x2_doc *live = &s->live;
  if (good + keep < u->len) {
    if (xmt_buf_append(&live->data, data, good) != XMT_OK)
      return xmt_error_nomem(s->err);
    unsigned long line, col;
    xmt_x2_locate(live, live->data.len, &line, &col);
    return xmt_error_at(s->err, XMT_ERR_ENCODING, XMT_AT(live->path, line, col),
                        "invalid UTF-8 byte 0x%02X (is the encoding "
                        "declaration right?)",
                        (unsigned char)data[good]);
  }
  /* Parsed in slices, so that the bytes after a unit's end, which the
   * live buffer keeps, are few. */
  xmt_status st = XMT_OK;
  size_t done = 0;
  do {
    /* the first slice the odd one: the last, where every unit is cut,
     * is a whole one */
    size_t n = (good - done) % X2_SLICE;
    if (n == 0)
      n = good - done < X2_SLICE ? good - done : X2_SLICE;
    if (xmt_buf_append(&live->data, data + done, n) != XMT_OK)
      return xmt_error_nomem(s->err);
    s->cut_each = done + n == good;
    st = xmt_x2_reader_feed(&s->r, data + done, n, last && done + n == good);
    done += n;
  } while (st == XMT_OK && done < good);
  if (keep > 0)
    memmove(data, data + good, keep);
  u->len = keep;
  if (st == XMT_OK && last)
    st = cut_at(s, live->data.len) == XMT_OK ? XMT_OK : xmt_error_nomem(s->err);
  return st;
}

/* Raw bytes of the input to UTF-8 in s->utf8, the encoding found first. */
static xmt_status decode(struct x2_stream *s, const char *bytes, size_t len,
                         int last) {
  if (!s->started) {
    if (xmt_buf_append(&s->raw, bytes, len) != XMT_OK)
      return xmt_error_nomem(s->err);
    char msg[256];
    unsigned long column = 0;
    xmt_status st =
        xmt_encoding_detect(s->raw.data != NULL ? s->raw.data : "", s->raw.len,
                            last, &s->live.encoding, msg, sizeof msg, &column);
    if (st == XMT_ERR_USAGE && !last)
      return XMT_OK; /* more bytes needed */
    if (st != XMT_OK)
      return xmt_error_at(s->err, st, XMT_AT(s->live.path, 1, column), "%s",
                          msg);
    s->started = 1;
    xmt_decoder_init(&s->dec, s->live.encoding);
    bytes = s->raw.data != NULL ? s->raw.data : "";
    len = s->raw.len;
  }
  xmt_status st = XMT_OK;
  if (s->live.encoding == XMT_ENC_UTF8)
    st = xmt_buf_append(&s->utf8, bytes, len);
  else
    st = xmt_decoder_run(&s->dec, bytes, len, last, &s->utf8);
  if (st == XMT_ERR_ENCODING)
    return xmt_error_at(
        s->err, st, XMT_AT(s->live.path, s->dec.line, s->dec.column),
        "byte sequence invalid in %s", xmt_encoding_name(s->live.encoding));
  if (st != XMT_OK)
    return xmt_error_nomem(s->err);
  xmt_buf_free(&s->raw);
  return XMT_OK;
}

/* Reads and parses the next chunk; s->done at the end. */
static xmt_status read_more(struct x2_stream *s) {
  xmt_status st = XMT_OK;
  int last;
  if (s->fp == NULL) {
    size_t n = s->whole.data.len - s->whole_at;
    if (n > s->chunk)
      n = s->chunk;
    last = s->whole_at + n == s->whole.data.len;
    st = xmt_buf_append(&s->utf8, s->whole.data.data + s->whole_at, n);
    s->whole_at += n;
    if (st != XMT_OK)
      return xmt_error_nomem(s->err);
  } else if (s->started && s->live.encoding == XMT_ENC_UTF8) {
    /* read where it is parsed from: no copy through chunk_buf */
    struct xmt_buf *u = &s->utf8;
    if (xmt_buf_grow(u, s->chunk) != XMT_OK)
      return xmt_error_nomem(s->err);
    size_t got = fread(u->data + u->len, 1, s->chunk, s->fp);
    if (got < s->chunk && ferror(s->fp))
      return xmt_error_at(s->err, XMT_ERR_IO, XMT_IN(s->live.path),
                          "cannot read: %s", strerror(errno));
    last = got < s->chunk && feof(s->fp);
    s->bytes_in += got;
    u->len += got;
    u->data[u->len] = '\0';
  } else {
    char *buf = s->chunk_buf;
    size_t got = fread(buf, 1, s->chunk, s->fp);
    if (got < s->chunk && ferror(s->fp))
      return xmt_error_at(s->err, XMT_ERR_IO, XMT_IN(s->live.path),
                          "cannot read: %s", strerror(errno));
    last = got < s->chunk && feof(s->fp);
    s->bytes_in += got;
    st = decode(s, buf, got, last);
    if (st != XMT_OK || !s->started)
      return st;
  }
  s->done = last;
  return feed_utf8(s, last);
}

/* --- The stream --------------------------------------------------------------
 */

static xmt_status stream_new(struct x2_stream **out, const char *path,
                             struct xmt_error_store *err) {
  struct x2_stream *s = calloc(1, sizeof *s);
  *out = s;
  if (s == NULL)
    return xmt_error_nomem(err);
  pthread_mutex_init(&s->lock, NULL);
  s->err = err;
  s->live.path = path;
  s->chunk = X2_CHUNK;
  xmt_status st = xmt_x2_reader_init(&s->r, &s->live, err);
  s->r.on_unit = cut;
  s->r.hook = s;
  return st;
}

/* Reads until <xliff> is read: its languages are known from there. */
static xmt_status stream_start(struct x2_stream *s) {
  xmt_status st = XMT_OK;
  while (st == XMT_OK && !s->done && !s->r.rooted)
    st = read_more(s);
  if (st != XMT_OK)
    return st;
  const struct x2_doc *d = s->nfresh > 0 ? &s->fresh[0]->doc : &s->live;
  xmt_x2_locate(d, d->root_start, &s->root_line, &s->root_column);
  return XMT_OK;
}

static xmt_status open_with(struct x2_stream **out, FILE *fp, const char *path,
                            size_t chunk, int raw_keys,
                            struct xmt_error_store *err) {
  xmt_status st = stream_new(out, path, err);
  struct x2_stream *s = *out;
  if (s == NULL) {
    if (fp != stdin)
      fclose(fp);
    return st;
  }
  if (st == XMT_OK && chunk > 0)
    s->chunk = chunk;
  if (st == XMT_OK && (s->chunk_buf = malloc(s->chunk)) == NULL)
    st = xmt_error_nomem(err);
  if (st == XMT_OK) {
    s->fp = fp;
    fp = NULL;
    s->r.raw_keys = raw_keys;
    st = stream_start(s);
  }
  if (fp != NULL && fp != stdin)
    fclose(fp);
  return st;
}

xmt_status xmt_x2_stream_open(struct x2_stream **out, FILE *fp,
                              const char *path, size_t chunk,
                              struct xmt_error_store *err) {
  return open_with(out, fp, path, chunk, 1, err);
}

xmt_status xmt_x2_stream_open_unique(struct x2_stream **out, FILE *fp,
                                     const char *path, size_t chunk,
                                     struct xmt_error_store *err) {
  return open_with(out, fp, path, chunk, 0, err);
}

xmt_status xmt_x2_stream_memory(struct x2_stream **out, struct xmt_buf *data,
                                const char *path, size_t chunk,
                                struct xmt_error_store *err) {
  xmt_status st = stream_new(out, path, err);
  struct x2_stream *s = *out;
  if (s == NULL) {
    xmt_buf_free(data);
    return st;
  }
  if (st == XMT_OK && chunk > 0)
    s->chunk = chunk;
  if (st == XMT_OK) {
    s->bytes_in = data->len;
    s->whole.path = path;
    st = xmt_x2_utf8(&s->whole, data, err);
    s->live.encoding = s->whole.encoding;
    s->started = 1;
  }
  xmt_buf_free(data);
  if (st == XMT_OK)
    st = stream_start(s);
  /* In memory already: read to the end, so that a malformed document
   * fails here, before any unit is handed out. */
  while (st == XMT_OK && !s->done)
    st = read_more(s);
  return st;
}

/* The parts written meanwhile, freed here. */
static void free_written(struct x2_stream *s) {
  pthread_mutex_lock(&s->lock);
  struct x2_piece *p = take_written(s);
  pthread_mutex_unlock(&s->lock);
  while (p != NULL) {
    struct x2_piece *next = p->next;
    piece_let_go(s, p);
    p = next;
  }
}

/* Hands the parts cut so far to u; a part waits for its targets only
 * when the stream is written. The parts are put in the list in one go,
 * before their segments are handed out (take() looks them up there). */
static xmt_status hand_out(struct x2_stream *s, struct x2_units *u,
                           size_t limit) {
  xmt_status st = XMT_OK;
  size_t k = 0, n = s->nfresh;
  if (n == 0)
    return st;
  if (s->sink != NULL) {
    free_written(s);
    for (size_t j = 0; j + 1 < n; j++)
      s->fresh[j]->next = s->fresh[j + 1];
    pthread_mutex_lock(&s->lock);
    if (s->tail != NULL)
      s->tail->next = s->fresh[0];
    else
      s->head = s->fresh[0];
    s->tail = s->fresh[n - 1];
    pthread_mutex_unlock(&s->lock);
  }
  for (; st == XMT_OK && k < n; k++) {
    struct x2_piece *p = s->fresh[k];
    size_t nsegs = p->doc.nsegs < limit ? p->doc.nsegs : limit;
    int whole = nsegs == p->doc.nsegs;
    limit -= nsegs;
    s->fresh[k] = NULL;
    size_t nfiles = p->nfiles;
    /* p may be written (by another thread) once its last segment is
     * handed out: neither it nor its address is looked at after. Its
     * units may be of several <file>s, each told before its units. */
    for (size_t i = 0; st == XMT_OK && i < nsegs; i++) {
      const struct x2_segment *g = &p->doc.segs[i];
      st = xmt_x2_units_files(u, &s->live, g->file + 1);
      if (st == XMT_OK)
        st = xmt_x2_units_segment(u, &p->doc, g);
    }
    if (st == XMT_OK && whole)
      st = xmt_x2_units_files(u, &s->live, nfiles);
    u->doc = u->plan_doc = NULL;
    if (s->sink == NULL)
      piece_free(p);
  }
  /* on a failure, the parts listed are the stream's to free */
  for (; k < n; k++) {
    if (s->sink == NULL)
      piece_free(s->fresh[k]);
    s->fresh[k] = NULL;
  }
  s->nfresh = 0;
  return st;
}

/* After a chunk failed: the units read whole in the chunks before it,
 * as many segments as ready, handed out (a part of their own each, they
 * were before the failure); the rest of the document is not. Those not
 * cut yet are cut off up to their end, the failed chunk's unit's
 * segments, ignorables and orders left out. */
static void hand_ready(struct x2_stream *s, struct x2_units *u) {
  size_t cut = 0, n = s->nfresh;
  for (size_t k = 0; k < n; k++)
    cut += s->fresh[k]->doc.nsegs;
  if (s->ready == 0)
    return;
  if (cut < s->ready) {
    if (cut_at(s, s->ready_end) != XMT_OK)
      return;
    struct x2_doc *d = &s->fresh[n]->doc;
    d->nsegs = s->ready - cut;
    while (d->nigns > 0 && d->igns[d->nigns - 1].unit_end == 0)
      d->nigns--;
    while (d->nrefs > 0 && d->refs[d->nrefs - 1].unit_end == 0)
      d->nrefs--;
    while (d->norders > 0 && d->orders[d->norders - 1].unit_end == 0)
      d->norders--;
    s->fresh[n]->nfiles = s->ready_files;
  }
  if (hand_out(s, u, s->ready) == XMT_OK)
    xmt_x2_units_files(u, &s->live, s->ready_files);
}

xmt_status xmt_x2_stream_units(struct x2_stream *s, const char *source_language,
                               const char *target_language, unsigned mode,
                               const struct xmt_unit_sink *sink) {
  struct x2_units u;
  /* The read may run beside take(), whose thread may write the error
   * store the stream was opened with: the read's go where the sink says. */
  struct xmt_error_store *opened = s->err;
  if (sink->err != NULL)
    s->err = s->r.err = sink->err;
  pthread_mutex_lock(&s->lock);
  s->overwrite = (mode & X2_UNITS_OVERWRITE) != 0;
  s->reading = 1;
  pthread_mutex_unlock(&s->lock);
  xmt_x2_units_begin(&u, source_language, target_language, mode, sink);
  xmt_status st = hand_out(s, &u, SIZE_MAX);
  while (st == XMT_OK && !s->done) {
    s->ready = s->counted;
    s->ready_files = s->ended_files;
    s->ready_end = s->ended_at;
    st = read_more(s);
    s->read_failed = st != XMT_OK;
    if (st == XMT_OK)
      st = hand_out(s, &u, SIZE_MAX);
    else
      hand_ready(s, &u);
  }
  xmt_status end = xmt_x2_units_end(&u, &s->live);
  pthread_mutex_lock(&s->lock);
  s->reading = 0; /* parts written from now on are freed by the writer */
  pthread_mutex_unlock(&s->lock);
  free_written(s);
  s->err = s->r.err = opened;
  return st != XMT_OK ? st : end;
}

/* The parts cut so far given to rules, and let go. */
static xmt_status rule_parts(struct x2_stream *s, struct x2_rules *rules) {
  xmt_status st = XMT_OK;
  for (size_t k = 0; k < s->nfresh; k++) {
    if (st == XMT_OK)
      st = xmt_x2_rules_feed(rules, &s->fresh[k]->doc, 0);
    piece_free(s->fresh[k]);
    s->fresh[k] = NULL;
  }
  s->nfresh = 0;
  return st;
}

xmt_status xmt_x2_stream_rules(struct x2_stream *s, struct x2_rules *rules,
                               xmt_status opened) {
  xmt_status st = rule_parts(s, rules), read = opened;
  while (st == XMT_OK && read == XMT_OK && !s->done) {
    read = read_more(s);
    st = rule_parts(s, rules);
  }
  if (read != XMT_OK) {
    /* What the reader parsed before it failed, not cut into a part. */
    if (st == XMT_OK)
      st = xmt_x2_rules_feed(rules, &s->live, 0);
    return st == XMT_ERR_NOMEM || st == XMT_ERR_ABORTED ? st : read;
  }
  if (st == XMT_OK)
    st = xmt_x2_rules_feed(rules, &s->live, 1);
  return st;
}

void xmt_x2_stream_write_to(struct x2_stream *s, const char *target_language,
                            int matches, xmt_x2_warn_fn warn, void *warn_user,
                            xmt_write_fn sink, void *user) {
  s->target_language = target_language;
  s->matches = matches;
  s->warn = warn;
  s->warn_user = warn_user;
  s->sink = sink;
  s->user = user;
  /* the parts' output handed over in blocks, not a part at a time */
  s->wbufs.hold = 1;
}

/* A part written: its targets and their sentences, this thread's
 * allocations, kept for the next parts or freed here; the rest freed by
 * the reader while it reads (take_written). Returns with the lock held
 * (write_ready looks at the next part under it). */
static void let_go(struct x2_stream *s, struct x2_piece *p) {
  struct x2_doc *d = &p->doc;
  if (s->lent == p) { /* the run's, not the part's */
    d->targets[s->lent_at] = NULL;
    s->lent = NULL;
  }
  for (size_t i = 0; i < d->nsegs; i++) {
    if (d->targets[i] != NULL && s->nspare < X2_SPARE)
      s->spare[s->nspare++] = d->targets[i];
    else
      xmt_segment_free(d->targets[i]);
    d->targets[i] = NULL;
    xmt_x2_free_split(&d->splits[i]);
  }
  pthread_mutex_lock(&s->lock);
  int reading = s->reading;
  if (reading) {
    p->next = s->written;
    s->written = p;
  } else {
    pthread_mutex_unlock(&s->lock);
    piece_free(p);
    pthread_mutex_lock(&s->lock);
  }
}

/* The parts at the head whose targets are all taken (all of them when
 * all is set) written and freed. Only the list is shared with the
 * reader: a part is taken off it under the lock and written outside it,
 * so that the reader never waits for the writing. */
static xmt_status write_ready(struct x2_stream *s, int all) {
  pthread_mutex_lock(&s->lock);
  while (s->wst == XMT_OK) {
    struct x2_piece *p = s->head;
    if (p == NULL || !(all || p->taken == p->doc.nsegs))
      break;
    s->head = p->next;
    if (s->head == NULL)
      s->tail = NULL;
    pthread_mutex_unlock(&s->lock);
    p->doc.matches = s->matches;
    p->doc.overwrite = s->overwrite;
    const char *lang =
        s->live.trg_lang != NULL ? s->live.trg_lang : s->target_language;
    s->wst = xmt_x2_write_with(&p->doc, lang, s->sink, s->user, &s->werr,
                               s->warn, s->warn_user, &s->wbufs);
    if (s->cursor == p)
      s->cursor = NULL;
    let_go(s, p);
  }
  pthread_mutex_unlock(&s->lock);
  return s->wst;
}

/* The first segment not taken yet whose unit-stream id is key, from the
 * part of the last one taken on (targets come back in document order). */
static int find_in(struct x2_piece *p, const char *key, size_t *i) {
  for (size_t k = p->first; k < p->doc.nsegs; k++)
    if (!p->done[k] && strcmp(x2_str(&p->doc, p->doc.segs[k].key), key) == 0) {
      *i = k;
      return 1;
    }
  return 0;
}

static struct x2_piece *find(struct x2_stream *s, const char *key, size_t *i) {
  struct x2_piece *from = s->cursor != NULL ? s->cursor : s->head;
  for (struct x2_piece *p = from; p != NULL; p = p->next)
    if (find_in(p, key, i))
      return p;
  for (struct x2_piece *p = s->head; p != NULL && p != from; p = p->next)
    if (find_in(p, key, i))
      return p;
  return NULL;
}

/* Target i of part d, a copy of target's. */
static xmt_status keep_target(struct x2_stream *s, struct x2_doc *d, size_t i,
                              const xmt_segment *target) {
  if (d->targets[i] == NULL && s->nspare > 0)
    d->targets[i] = s->spare[--s->nspare];
  if (d->targets[i] == NULL && (d->targets[i] = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  return xmt_segment_copy(d->targets[i], target);
}

xmt_status xmt_x2_stream_take(struct x2_stream *s, const char *key,
                              const xmt_xliff_unit *unit,
                              const xmt_segment *target, int split,
                              const struct x2_kept_cut *kept) {
  size_t i = 0;
  /* the list's links are the reader's too; the part's targets, its
   * counts and the writer are the taker's alone (one at a time) */
  struct x2_piece *p = s->cursor;
  int at_head;
  if (p != NULL && find_in(p, key, &i)) {
    /* most targets are in the part of the one before, whose segments are
     * looked at without the lock: the reader links parts in after it
     * (and the head only into a list without it) */
    at_head = p == s->head;
  } else {
    pthread_mutex_lock(&s->lock);
    p = find(s, key, &i);
    at_head = p != NULL && p == s->head;
    pthread_mutex_unlock(&s->lock);
  }
  xmt_status st = p == NULL ? XMT_ERR_INTERNAL : XMT_OK;
  if (st == XMT_OK && target != NULL) {
    struct x2_doc *d = &p->doc;
    /* The last target of the part at the head is written at once, below:
     * lent for that, not copied (the writer only reads it). */
    if (!split && at_head && s->wst == XMT_OK && !p->done[i] &&
        p->taken + 1 == d->nsegs && d->targets[i] == NULL) {
      d->targets[i] = (xmt_segment *)target;
      s->lent = p;
      s->lent_at = i;
    } else {
      st = keep_target(s, d, i, target);
    }
    if (st == XMT_OK && split)
      st = xmt_x2_take_split(d, i, unit);
    if (st == XMT_OK && d->segs[i].copied && !s->matches)
      s->filled_copies++;
  } else if (st == XMT_OK && split && kept != NULL) {
    st = xmt_x2_take_kept(&p->doc, i, kept);
  }
  if (st == XMT_OK) {
    s->cursor = p;
    if (!p->done[i]) {
      p->done[i] = 1;
      p->taken++;
      while (p->first < p->doc.nsegs && p->done[p->first])
        p->first++;
    }
    st = write_ready(s, 0);
  }
  if (p != NULL && s->lent == p) { /* not written: a copy after all */
    p->doc.targets[i] = NULL;
    s->lent = NULL;
    xmt_status kst = keep_target(s, &p->doc, i, target);
    if (st == XMT_OK)
      st = kst;
  }
  return st;
}

void xmt_x2_stream_count(const struct x2_stream *s,
                         struct xmt_doc_facts *facts) {
  facts->counted = 1;
  facts->units = s->units;
  facts->translatable_units = s->translatable_units;
  facts->units_with_target = s->units_with_target;
}

xmt_status xmt_x2_stream_finish(struct x2_stream *s) {
  xmt_status st = write_ready(s, 1);
  if (st == XMT_OK && s->sink != NULL)
    st = s->wst = xmt_x2_write_flush(&s->wbufs, s->live.encoding, s->sink,
                                     s->user, &s->werr);
  s->sink = NULL;
  return st;
}

void xmt_x2_stream_free(struct x2_stream *s) {
  if (s == NULL)
    return;
  while (s->head != NULL) {
    struct x2_piece *p = s->head;
    s->head = p->next;
    piece_free(p);
  }
  for (struct x2_piece *p = take_written(s), *next; p != NULL; p = next) {
    next = p->next;
    piece_free(p);
  }
  for (size_t k = 0; k < s->nfresh; k++)
    piece_free(s->fresh[k]);
  free(s->fresh);
  while (s->nspare > 0)
    xmt_segment_free(s->spare[--s->nspare]);
  for (struct x2_piece *p = s->blocks, *next; p != NULL; p = next) {
    next = p->next;
    free(p);
  }
  xmt_x2_reader_free(&s->r);
  xmt_x2_free(&s->live);
  xmt_x2_free(&s->whole);
  if (s->fp != NULL && s->fp != stdin)
    fclose(s->fp);
  free(s->chunk_buf);
  xmt_buf_free(&s->raw);
  xmt_buf_free(&s->utf8);
  xmt_x2_write_bufs_free(&s->wbufs);
  xmt_error_clear(&s->werr);
  pthread_mutex_destroy(&s->lock);
  free(s);
}
