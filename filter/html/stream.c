/* stream.c -- a page read and written as a stream: the builder walks the
 * page's tokens and, each time no text unit is open, the bytes since the
 * piece before are cut off into a piece of their own with the units,
 * codes and holes found in them; its units are handed out, and the piece
 * is written and freed once their targets are all taken and every piece
 * before it is written. A page opened to be read in chunks (doc->rest)
 * is read as the lexer needs bytes, those before the oldest piece not
 * written dropped: memory holds the pieces and units in flight, not the
 * page's bytes nor every unit, code and target of the page. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "page_private.h"

/* A piece is cut once it holds a unit and this many bytes: fewer, larger
 * pieces cost fewer allocations and locks. */
#define PIECE_BYTES 4096
/* A page read in chunks is read this many bytes at a time. */
#define CHUNK_BYTES 65536

struct unit_place {
  unsigned long line, column;
};

struct piece {
  struct piece *next;
  struct html_doc doc; /* the page's bytes (borrowed), the piece's units */
  size_t start, end;   /* the page's bytes it writes */
  struct html_target **targets; /* per unit; NULL: the source */
  unsigned char *done;          /* per unit: its target was taken */
  struct unit_place *places;    /* per unit: where it starts */
  size_t taken;
};

struct html_stream {
  struct html_doc *doc; /* the page; the units since the last cut */
  struct builder b;
  struct html_lexer lx;
  int ended; /* the page is read to its end */
  size_t cut;
  size_t valid; /* a UTF-8 page's bytes checked up to there */
  /* where the last unit placed starts */
  size_t counted;
  unsigned long line, column;
  struct piece **fresh; /* cut, not handed out yet */
  size_t nfresh, fresh_cap;
  pthread_mutex_t lock; /* the pieces handed out, the writing */
  struct piece *head, *tail, *cursor;
  struct html_taker taker;
  const char *lang;
  xmt_write_fn sink;
  void *user;
  xmt_status wst;
  struct xmt_error_store werr;
};

static void piece_free(struct piece *p) {
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->doc.nunits; i++) {
    xmt_segment_free(p->doc.units[i].source);
    free(p->doc.units[i].resname);
    if (p->targets != NULL)
      free(p->targets[i]);
  }
  free(p->doc.units);
  free(p->doc.codes);
  xmt_html_free_frames(p->doc.holes, p->doc.nholes);
  free(p->doc.holes);
  free(p->targets);
  free(p->done);
  free(p->places);
  free(p);
}

/* --- Cutting ------------------------------------------------------------- */

static int by_start(const void *a, const void *b) {
  const struct html_unit *const *x = a, *const *y = b;
  return ((*x)->start > (*y)->start) - ((*x)->start < (*y)->start);
}

/* Lines and columns counted on to byte to: newlines found with memchr,
 * columns counted only after the last one (a byte at a time, this was a
 * twentieth of the run). */
static void count_to(struct html_stream *s, size_t to, int utf8) {
  struct html_view page = html_doc_view(s->doc);
  while (s->counted < to) {
    const char *from = page_at(page, s->counted);
    const char *nl = memchr(from, '\n', to - s->counted);
    if (nl != NULL) {
      s->line++;
      s->column = 1;
      s->counted += (size_t)(nl - from) + 1;
      continue;
    }
    if (!utf8) {
      s->column += to - s->counted;
    } else {
      for (size_t i = 0; i < to - s->counted; i++)
        s->column += !xmt_utf8_is_cont(from[i]);
    }
    s->counted = to;
  }
}

/* Where each unit of p starts, counted on from the last unit placed (the
 * units of a piece start after those of the pieces before). */
static xmt_status place(struct html_stream *s, struct piece *p) {
  const struct html_doc *d = s->doc;
  size_t n = p->doc.nunits;
  const struct html_unit **order = malloc((n > 0 ? n : 1) * sizeof *order);
  if (order == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < n; i++)
    order[i] = &p->doc.units[i];
  qsort(order, n, sizeof *order, by_start);
  int utf8 = d->charset.decode == XMT_ENC_UTF8 || d->charset.utf16;
  for (size_t k = 0; k < n; k++) {
    count_to(s, order[k]->start < d->len ? order[k]->start : d->len, utf8);
    p->places[order[k] - p->doc.units] =
        (struct unit_place){s->line, s->column};
  }
  /* and on to its end: the bytes before may be dropped (refill) */
  count_to(s, p->end < d->len ? p->end : d->len, utf8);
  free(order);
  return XMT_OK;
}

/* The page's bytes as held now, in to (a piece's doc): a refill moves
 * them. */
static void borrow(struct html_doc *to, const struct html_doc *from) {
  to->bytes = from->bytes;
  to->base = from->base;
  to->len = from->len;
}

/* The bytes since the last cut up to end, and the units, codes and holes
 * found in them, moved into a new piece; the page keeps none of them. */
static xmt_status cut_at(struct html_stream *s, size_t end) {
  struct html_doc *d = s->doc;
  struct piece *p = calloc(1, sizeof *p);
  size_t n = d->nunits > 0 ? d->nunits : 1;
  if (p == NULL || (p->targets = calloc(n, sizeof *p->targets)) == NULL ||
      (p->done = calloc(n, 1)) == NULL ||
      (p->places = calloc(n, sizeof *p->places)) == NULL ||
      xmt_grow_one(&s->fresh, s->nfresh, &s->fresh_cap, sizeof *s->fresh) ==
          NULL) {
    piece_free(p);
    return XMT_ERR_NOMEM;
  }
  borrow(&p->doc, d);
  p->doc.charset = d->charset;
  p->doc.flags = d->flags;
  p->doc.unit_base = d->unit_base;
  p->doc.units = d->units;
  p->doc.nunits = p->doc.units_cap = d->nunits;
  p->doc.codes = d->codes;
  p->doc.ncodes = p->doc.codes_cap = d->ncodes;
  p->doc.holes = d->holes;
  p->doc.nholes = p->doc.holes_cap = d->nholes;
  xmt_page_sort_holes(p->doc.holes, p->doc.nholes);
  p->start = s->cut;
  p->end = end;
  d->unit_base += d->nunits;
  d->units = NULL;
  d->codes = NULL;
  d->holes = NULL;
  d->nunits = d->units_cap = d->ncodes = d->codes_cap = 0;
  d->nholes = d->holes_cap = 0;
  /* The next piece's arrays as large as this one's at once: grown from
   * empty, they took a chain of reallocs a piece (none: grown later). */
  if (!s->ended && (d->units = malloc(p->doc.nunits * sizeof *d->units + 1)))
    d->units_cap = p->doc.nunits;
  if (!s->ended && (d->codes = malloc(p->doc.ncodes * sizeof *d->codes + 1)))
    d->codes_cap = p->doc.ncodes;
  if (!s->ended && (d->holes = malloc(p->doc.nholes * sizeof *d->holes + 1)))
    d->holes_cap = p->doc.nholes;
  s->cut = end;
  s->fresh[s->nfresh++] = p;
  return place(s, p);
}

/* --- Reading in chunks ------------------------------------------------ */

/* The next chunk of a page read in chunks, read after the bytes before
 * the oldest one still needed are dropped: the oldest piece not written
 * starts there, else the one not handed out, else the running one (cut
 * where no text unit is open, nothing before the cut is pointed into).
 * Under the lock: the writer reads the bytes too. */
static xmt_status refill(struct html_stream *s, const char *path,
                         struct xmt_error_store *err) {
  struct html_doc *d = s->doc;
  pthread_mutex_lock(&s->lock);
  size_t keep = s->head != NULL ? s->head->start
                : s->nfresh > 0 ? s->fresh[0]->start
                                : s->cut;
  char *buf = d->bytes;
  size_t used = d->len - d->base;
  /* Moved down once as many bytes are dropped as kept: each byte is
   * moved a bounded number of times. */
  if (keep > d->base && keep - d->base >= d->len - keep) {
    memmove(buf, buf + (keep - d->base), d->len - keep);
    used = d->len - keep;
    d->base = keep;
  }
  xmt_status st = XMT_OK;
  if (d->cap - used < CHUNK_BYTES + 1) {
    size_t cap = used + CHUNK_BYTES + 1;
    cap = cap < 2 * d->cap ? 2 * d->cap : cap;
    char *more = realloc(buf, cap);
    if (more == NULL) {
      st = xmt_error_nomem(err);
    } else {
      buf = more;
      d->cap = cap;
    }
  }
  if (st == XMT_OK) {
    size_t n = fread(buf + used, 1, CHUNK_BYTES, d->rest);
    used += n;
    if (n < CHUNK_BYTES && ferror(d->rest))
      st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                        strerror(errno));
    else if (n < CHUNK_BYTES) {
      fclose(d->rest);
      d->rest = NULL;
    }
  }
  d->bytes = buf;
  d->len = d->base + used;
  s->b.page = html_doc_view(d);
  pthread_mutex_unlock(&s->lock);
  return st;
}

/* 1 when data[0, n), n > 0, may be the start of a UTF-8 character cut
 * by the end of the bytes read so far. */
static int cut_char(const char *data, size_t n) {
  unsigned char c = (unsigned char)data[0];
  size_t need = c >= 0xC2 && c <= 0xDF   ? 2
                : c >= 0xE0 && c <= 0xEF ? 3
                : c >= 0xF0 && c <= 0xF4 ? 4
                                         : 0;
  if (n >= need)
    return 0;
  for (size_t i = 1; i < n; i++)
    if (!xmt_utf8_is_cont(data[i]))
      return 0;
  return 1;
}

/* A UTF-8 page's bytes read checked before they are lexed: the error of
 * the first not UTF-8, all such bytes counted to the page's end. */
static xmt_status check_bytes(struct html_stream *s, const char *path,
                              struct xmt_error_store *err) {
  struct html_doc *d = s->doc;
  if (d->checked || d->charset.decode != XMT_ENC_UTF8 || d->charset.utf16)
    return XMT_OK;
  struct html_view page = html_doc_view(d);
  s->valid += xmt_utf8_valid_prefix(page_at(page, s->valid), d->len - s->valid);
  if (s->valid == d->len ||
      (d->rest != NULL && cut_char(page_at(page, s->valid), d->len - s->valid)))
    return XMT_OK;
  size_t first = s->valid;
  unsigned char byte = (unsigned char)page_byte(page, first);
  size_t counted = s->counted;
  unsigned long line = s->line, column = s->column;
  count_to(s, first, 1);
  unsigned long at_line = s->line, at_column = s->column;
  s->counted = counted;
  s->line = line;
  s->column = column;
  d->checked = 1;
  pthread_mutex_lock(&s->lock);
  xmt_status st = xmt_html_doc_read_rest(d, path, err);
  s->b.page = page = html_doc_view(d);
  pthread_mutex_unlock(&s->lock);
  if (st != XMT_OK)
    return st;
  size_t n = 0;
  for (size_t i = first; i < d->len; n++) {
    i++;
    i += xmt_utf8_valid_prefix(page_at(page, i), d->len - i);
  }
  return xmt_html_not_utf8(err, path, byte, n, at_line, at_column);
}

/* Reads tokens up to the next cut, or to the end of the page; an error
 * in err. */
static xmt_status read_more(struct html_stream *s, const char *path,
                            struct xmt_error_store *err) {
  struct builder *b = &s->b;
  struct html_doc *d = s->doc;
  struct html_token tok;
  xmt_status st = check_bytes(s, path, err);
  int r = 0;
  while (st == XMT_OK && b->st == XMT_OK) {
    r = xmt_html_lex(&s->lx, html_doc_view(d), d->rest == NULL, &tok);
    if (r == 0 && d->rest != NULL) {
      if ((st = refill(s, path, err)) == XMT_OK)
        st = check_bytes(s, path, err);
      continue;
    }
    if (r <= 0)
      break;
    xmt_page_on_token(b, &tok);
    if (b->st == XMT_OK && b->nitems == 0 && b->ph_item == NONE &&
        d->nunits > 0 && s->lx.pos - s->cut >= PIECE_BYTES)
      break;
  }
  if (st != XMT_OK)
    return st; /* its error in err */
  if (r < 0)
    fail(b, XMT_ERR_NOMEM);
  if (b->st == XMT_OK && r > 0) {
    st = cut_at(s, s->lx.pos);
  } else if (b->st == XMT_OK) {
    xmt_page_builder_end(b);
    s->ended = 1;
    st = b->st == XMT_OK ? cut_at(s, d->len) : b->st;
  } else {
    st = b->st;
  }
  if (st != XMT_OK)
    xmt_error_at(err, st, XMT_IN(path), "%s",
                 b->why != NULL ? b->why : xmt_strerror(st));
  return st;
}

/* --- Handing out ---------------------------------------------------------- */

static xmt_status hand_piece(struct html_stream *s, struct piece *p,
                             struct xmt_inline_builder *ib,
                             const struct xmt_xliff_file_info *info,
                             const struct xmt_unit_sink *sink) {
  pthread_mutex_lock(&s->lock);
  if (s->tail != NULL)
    s->tail->next = p;
  else
    s->head = p;
  s->tail = p;
  /* p may be written and freed once its last unit is handed out: at
   * once when it has none (the page's end). */
  size_t n = p->doc.nunits;
  pthread_mutex_unlock(&s->lock);
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    const struct html_unit *u = &p->doc.units[i];
    char id[32];
    put_uint(id, u->id);
    const struct xmt_unit_fields in = {.id = id,
                                       .resname = u->resname,
                                       .restype = u->restype,
                                       .source_language = info->source_language,
                                       .target_language = info->target_language,
                                       .line = p->places[i].line,
                                       .column = p->places[i].column,
                                       .translatable = 1,
                                       .preserve_space = u->preserve != 0};
    xmt_xliff_unit *unit;
    st = xmt_xliff_unit_build(ib, &in, u->source, NULL, &unit);
    if (st == XMT_OK)
      st = sink->unit(sink->user, unit);
  }
  return st;
}

/* A bad byte's error is placed in the page itself: kept as it is. */
static xmt_status placed(xmt_filter *f, xmt_status st) {
  f->err_placed = st == XMT_ERR_ENCODING;
  return st;
}

xmt_status xmt_html_stream_units(struct html_stream *s, xmt_filter *f,
                                 const char *path, html_lang_fn source_of,
                                 const struct xmt_unit_sink *sink) {
  xmt_status st = XMT_OK;
  /* The page's language is known once its root is read, or at its end. */
  while (st == XMT_OK && f->source_language == NULL && s->doc->lang == NULL &&
         !s->ended)
    st = read_more(s, path, &f->err);
  if (st != XMT_OK)
    return placed(f, st);
  const char *src = source_of(f, s->doc, path);
  if (src == NULL)
    return f->err.pub.status;
  const struct xmt_xliff_file_info info = {path, src, f->target_language,
                                           "html", XMT_UNITS_OUT_FILE_LINE};
  st = sink->file(sink->user, &info);
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  for (;;) {
    size_t k = 0;
    for (; st == XMT_OK && k < s->nfresh; k++) {
      struct piece *p = s->fresh[k];
      s->fresh[k] = NULL;
      st = hand_piece(s, p, &ib, &info, sink);
    }
    for (; k < s->nfresh; k++) {
      piece_free(s->fresh[k]);
      s->fresh[k] = NULL;
    }
    s->nfresh = 0;
    if (st != XMT_OK || s->ended)
      break;
    st = placed(f, read_more(s, path, &f->err));
  }
  xmt_ib_free(&ib);
  return st;
}

/* --- Taking and writing --------------------------------------------------- */

/* The pieces at the head whose targets are all taken (all of them when
 * all is set) written and freed; under the lock. */
static void write_ready(struct html_stream *s, int all) {
  struct piece *p;
  while (s->wst == XMT_OK && (p = s->head) != NULL &&
         (all || p->taken == p->doc.nunits)) {
    borrow(&p->doc, s->doc); /* moved by a refill, maybe */
    s->wst = xmt_html_doc_write_range(
        &p->doc, (const struct html_target *const *)p->targets, s->lang,
        p->start, p->end, s->sink, s->user, &s->werr);
    s->head = p->next;
    if (s->head == NULL)
      s->tail = NULL;
    if (s->cursor == p)
      s->cursor = NULL;
    piece_free(p);
  }
}

static int holds(const struct piece *p, size_t id) {
  return id > p->doc.unit_base && id <= p->doc.unit_base + p->doc.nunits;
}

/* The piece of unit id, from the one of the last target taken on. */
static struct piece *find(struct html_stream *s, size_t id) {
  struct piece *from = s->cursor != NULL ? s->cursor : s->head;
  for (struct piece *p = from; p != NULL; p = p->next)
    if (holds(p, id))
      return p;
  for (struct piece *p = s->head; p != NULL && p != from; p = p->next)
    if (holds(p, id))
      return p;
  return NULL;
}

xmt_status xmt_html_stream_take(struct html_stream *s, size_t id,
                                const xmt_xliff_unit *unit,
                                const xmt_segment *target) {
  (void)unit;
  pthread_mutex_lock(&s->lock);
  struct piece *p = find(s, id);
  xmt_status st = p == NULL ? XMT_ERR_INTERNAL : XMT_OK;
  if (st == XMT_OK) {
    size_t i = id - 1 - p->doc.unit_base;
    free(p->targets[i]);
    p->targets[i] = NULL;
    /* A target that is its source writes the page's own bytes anyway. */
    if (target != NULL && !xmt_segment_equal(target, p->doc.units[i].source))
      st = xmt_html_target_take(&s->taker, &p->doc, i, target, &p->targets[i]);
    s->cursor = p;
    borrow(&p->doc, s->doc);
    if (!p->done[i]) {
      p->done[i] = 1;
      p->taken++;
    }
    if (st == XMT_OK)
      write_ready(s, 0);
  }
  pthread_mutex_unlock(&s->lock);
  return st;
}

xmt_status xmt_html_stream_finish(struct html_stream *s,
                                  struct xmt_error_store *err) {
  pthread_mutex_lock(&s->lock);
  write_ready(s, 1);
  xmt_status st = s->wst;
  pthread_mutex_unlock(&s->lock);
  if (st != XMT_OK)
    xmt_error_copy(err, &s->werr.pub);
  return st;
}

/* --- The stream ----------------------------------------------------------- */

xmt_status xmt_html_stream_new(struct html_stream **out, struct html_doc *doc,
                               const char *target_language, xmt_write_fn sink,
                               void *user) {
  struct html_stream *s = calloc(1, sizeof *s);
  *out = s;
  if (s == NULL)
    return XMT_ERR_NOMEM;
  s->doc = doc;
  s->lang = target_language;
  s->sink = sink;
  s->user = user;
  s->line = s->column = 1;
  pthread_mutex_init(&s->lock, NULL);
  xmt_page_builder_init(&s->b, doc, &s->lx);
  return XMT_OK;
}

void xmt_html_stream_free(struct html_stream *s) {
  if (s == NULL)
    return;
  while (s->head != NULL) {
    struct piece *p = s->head;
    s->head = p->next;
    piece_free(p);
  }
  for (size_t k = 0; k < s->nfresh; k++)
    piece_free(s->fresh[k]);
  free(s->fresh);
  xmt_page_builder_free(&s->b);
  xmt_html_lexer_free(&s->lx);
  xmt_html_taker_free(&s->taker);
  xmt_error_clear(&s->werr);
  pthread_mutex_destroy(&s->lock);
  free(s);
}
