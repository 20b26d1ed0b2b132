/* word_fields.c -- the text of a Word field's instruction that a reader
 * sees all the same: an XE field's index entry (each level of a
 * "Main:Sub" entry, and its \t cross-reference's text), which an update
 * of the index (an INDEX field) writes into it, and a TC field's table
 * of contents entry. Each a unit of its own, whose place is its bytes in
 * the w:instrText holding it (in the first one when it goes on over
 * several runs, the others written empty; or in a w:fldSimple's
 * w:instr), written back quoted as Word wants: a quote doubled, a
 * backslash doubled, an XE level's colon escaped. The rest of the
 * instruction is kept byte for byte, and the instructions of other
 * fields (HYPERLINK, REF, PAGE...) whole. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "word_read.h"

static void reset(struct instr *in, unsigned depth) {
  in->depth = depth;
  in->bad = 0;
  in->text_depth = 0;
  in->nchunks = 0;
  xmt_buf_reset(&in->text);
}

void xmt_word_instr_text(struct reader *r, const char *s, size_t len) {
  struct instr *in = &r->s.instr;
  if (in->nchunks == in->cap) {
    struct instr_chunk *c =
        xmt_grow_array(in->chunks, &in->cap, in->nchunks + 1, sizeof *c);
    if (c == NULL) {
      xmt_office_stop(&r->x, XMT_ERR_NOMEM);
      return;
    }
    in->chunks = c;
  }
  size_t at = (size_t)XML_GetCurrentByteIndex(r->x.xp);
  in->chunks[in->nchunks++] = (struct instr_chunk){
      in->text.len, at, at + (size_t)XML_GetCurrentByteCount(r->x.xp)};
  if (xmt_buf_append(&in->text, s, len) != XMT_OK)
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
}

/* A place of the argument: part bytes [from, to) in one w:instrText. */
struct place {
  size_t from, to;
};

/* The places of the instruction's text [a, b), at most max, in *n; 0
 * when a place cannot be told (a reference or line end cut). */
static int places_of(const struct instr *in, size_t a, size_t b,
                     struct place *pl, size_t max, size_t *n) {
  *n = 0;
  for (size_t k = 0; k < in->nchunks; k++) {
    const struct instr_chunk *c = &in->chunks[k];
    size_t end = k + 1 < in->nchunks ? in->chunks[k + 1].at : in->text.len;
    if (end <= a || c->at >= b)
      continue;
    size_t lo = a > c->at ? a : c->at, hi = b < end ? b : end;
    int whole = c->to - c->from != end - c->at;
    if (whole && (lo != c->at || hi != end))
      return 0; /* "&quot;" or a line end: its bytes are not its text's */
    size_t from = whole ? c->from : c->from + (lo - c->at);
    size_t to = whole ? c->to : c->from + (hi - c->at);
    if (*n > 0 && pl[*n - 1].to == from)
      pl[*n - 1].to = to; /* the same w:instrText */
    else if (*n == max)
      return 0;
    else
      pl[(*n)++] = (struct place){from, to};
  }
  return *n > 0;
}

/* The text [a, b) of the instruction with Word's escapes read: a
 * backslash's character as it is, a doubled quote one. */
static xmt_status unescape(const char *t, size_t a, size_t b,
                           struct xmt_buf *out) {
  xmt_buf_reset(out);
  xmt_status st = XMT_OK;
  for (size_t i = a; i < b && st == XMT_OK; i++) {
    if (i + 1 < b && (t[i] == '\\' || (t[i] == '"' && t[i + 1] == '"')))
      i++;
    st = xmt_buf_append(out, t + i, 1);
  }
  return st;
}

/* The piece of the paragraph whose w:instrText (or w:fldSimple start
 * tag) holds pl. */
static struct piece *piece_of(struct frame *s, const struct place *pl) {
  for (size_t k = s->npieces; k > 0; k--)
    if ((s->pieces[k - 1].type == PIECE_ISOLATED ||
         s->pieces[k - 1].type == PIECE_OPEN) &&
        !s->pieces[k - 1].merged && s->pieces[k - 1].from <= pl->from &&
        pl->to <= s->pieces[k - 1].to)
      return &s->pieces[k - 1];
  return NULL;
}

/* The instruction's text [a, b) a unit (kind as word_para's instr), its
 * later places its twins written empty; none when blank, or when a place
 * is not one of the paragraph's codes (written as a copy then). */
static void add_unit(struct reader *r, const struct instr *in, size_t a,
                     size_t b, int kind, int bare) {
  struct frame *s = &r->s;
  struct place pl[16];
  size_t n;
  if (a >= b || xmt_office_blank(in->text.data + a, b - a) ||
      !places_of(in, a, b, pl, sizeof pl / sizeof pl[0], &n))
    return;
  struct piece *held[16];
  for (size_t k = 0; k < n; k++)
    if ((held[k] = piece_of(s, &pl[k])) == NULL)
      return;
  struct xmt_buf text = {0};
  xmt_status st = unescape(in->text.data, a, b, &text);
  struct word_para para = {.start = pl[0].from,
                           .head_end = pl[0].from,
                           .end = pl[0].to,
                           .twin = -1,
                           .value = 1,
                           .instr = kind,
                           .instr_bare = bare,
                           .instr_attr = in->attr};
  para.source = st == XMT_OK ? xmt_segment_new() : NULL;
  para.instr_text = para.source != NULL ? malloc(text.len + 1) : NULL;
  st = para.instr_text != NULL
           ? xmt_segment_append_text(para.source, text.data, text.len)
           : XMT_ERR_NOMEM;
  if (st == XMT_OK) {
    memcpy(para.instr_text, text.data, text.len);
    para.instr_len = text.len;
  }
  xmt_buf_free(&text);
  if (st != XMT_OK) {
    xmt_word_para_free(&para);
    xmt_office_stop(&r->x, st);
    return;
  }
  long main = (long)r->part->npara;
  if (!xmt_word_push_para(r, &para))
    return;
  for (size_t k = 0; k < n; k++)
    held[k]->values = 1;
  for (size_t k = 1; k < n; k++) {
    struct word_para rest = {.start = pl[k].from,
                             .head_end = pl[k].from,
                             .end = pl[k].to,
                             .twin = main,
                             .value = 1,
                             .instr_rest = 1};
    /* a source all the same: a unit's is gone once taken, a twin's not */
    if ((rest.source = xmt_segment_new()) == NULL) {
      xmt_office_stop(&r->x, XMT_ERR_NOMEM);
      return;
    }
    if (!xmt_word_push_para(r, &rest))
      return;
  }
}

/* The end of the argument starting at t[i] (a quote: past its closing
 * one; SIZE_MAX when it has none). */
static size_t arg_end(const char *t, size_t n, size_t i) {
  if (t[i] != '"') {
    while (i < n && strchr(" \t\r\n", t[i]) == NULL)
      i++;
    return i;
  }
  for (i++; i < n; i++) {
    if (t[i] == '\\')
      i++;
    else if (t[i] == '"' && i + 1 < n && t[i + 1] == '"')
      i++; /* a quote doubled: one in the text */
    else if (t[i] == '"')
      return i + 1;
  }
  return SIZE_MAX;
}

/* An XE field's entry [a, b): each level, between colons not escaped. */
static void add_levels(struct reader *r, const struct instr *in, size_t a,
                       size_t b, int bare) {
  const char *t = in->text.data;
  size_t from = a;
  for (size_t i = a; i <= b; i++) {
    if (i < b && t[i] == '\\') {
      i++;
    } else if (i == b || t[i] == ':') {
      add_unit(r, in, from, i, 2, bare);
      from = i + 1;
    }
  }
}

/* The instruction read: an XE or TC field's texts units. */
static void instr_end(struct reader *r, const struct instr *in) {
  const char *t = in->text.data;
  size_t n = in->text.len, i = 0;
  if (in->bad || n == 0)
    return;
  while (i < n && strchr(" \t\r\n", t[i]) != NULL)
    i++;
  size_t kw = i;
  while (i < n && strchr(" \t\r\n\"\\", t[i]) == NULL)
    i++;
  int xe = i - kw == 2 && strncasecmp(t + kw, "XE", 2) == 0;
  if (!xe && !(i - kw == 2 && strncasecmp(t + kw, "TC", 2) == 0))
    return;
  char sw = 0; /* the switch whose argument comes next */
  int entry = 1;
  while (i < n && r->x.st == XMT_OK) {
    while (i < n && strchr(" \t\r\n", t[i]) != NULL)
      i++;
    if (i >= n)
      break;
    if (t[i] == '\\') {
      sw = i + 1 < n ? t[i + 1] : 0;
      i += 2;
      while (i < n && strchr(" \t\r\n\"", t[i]) == NULL)
        i++;
      continue;
    }
    size_t end = arg_end(t, n, i);
    if (end == SIZE_MAX)
      return; /* an open quote: left as it is */
    int bare = t[i] != '"';
    size_t a = bare ? i : i + 1, b = bare ? end : end - 1;
    if (entry && sw == 0 && xe)
      add_levels(r, in, a, b, bare);
    else if ((entry && sw == 0) || (xe && (sw == 't' || sw == 'T')))
      add_unit(r, in, a, b, 1, bare);
    entry = entry && sw != 0;
    sw = 0;
    i = end;
  }
}

/* The bytes [from, to) of an attribute's value as chunks of in: each
 * reference one, the text between one. */
static xmt_status attr_chunks(struct instr *in, const char *d, size_t from,
                              size_t to) {
  static const struct {
    const char *ref;
    char c;
  } refs[] = {{"&quot;", '"'},
              {"&amp;", '&'},
              {"&apos;", '\''},
              {"&lt;", '<'},
              {"&gt;", '>'}};
  xmt_status st = XMT_OK;
  for (size_t i = from; i < to && st == XMT_OK;) {
    size_t j = i, k = 0;
    char c = d[i];
    if (d[i] == '&') {
      while (k < sizeof refs / sizeof refs[0] &&
             (strlen(refs[k].ref) > to - i ||
              memcmp(d + i, refs[k].ref, strlen(refs[k].ref)) != 0))
        k++;
      if (k == sizeof refs / sizeof refs[0])
        return XMT_ERR_INTERNAL; /* &#...;: its place not told, kept */
      j = i + strlen(refs[k].ref);
      c = refs[k].c;
    } else {
      while (j < to && d[j] != '&')
        j++;
    }
    struct instr_chunk *ch =
        in->nchunks == in->cap
            ? xmt_grow_array(in->chunks, &in->cap, in->nchunks + 1, sizeof *ch)
            : in->chunks;
    if (ch == NULL)
      return XMT_ERR_NOMEM;
    in->chunks = ch;
    in->chunks[in->nchunks++] = (struct instr_chunk){in->text.len, i, j};
    st = d[i] == '&' ? xmt_buf_append(&in->text, &c, 1)
                     : xmt_buf_append(&in->text, d + i, j - i);
    i = j;
  }
  return st;
}

void xmt_word_instr_simple(struct reader *r, size_t from, size_t to) {
  struct instr in = {.attr = 1};
  xmt_status st = attr_chunks(&in, r->part->data.data, from, to);
  if (st == XMT_OK)
    instr_end(r, &in);
  else if (st == XMT_ERR_NOMEM)
    xmt_office_stop(&r->x, st);
  free(in.chunks);
  xmt_buf_free(&in.text);
}

void xmt_word_instr_fld(struct reader *r, enum fld k) {
  struct frame *s = &r->s;
  struct instr *in = &s->instr;
  if (k == FLD_BEGIN && in->depth == 0)
    reset(in, s->fld_depth);
  else if (k == FLD_BEGIN)
    in->bad = 1; /* a field in it: its text is not all instruction */
  else if ((k == FLD_SEPARATE && in->depth == s->fld_depth) ||
           (k == FLD_END && in->depth == s->fld_depth + 1)) {
    instr_end(r, in);
    reset(in, 0);
  }
}

static xmt_status plain_text(void *user, const size_t *open, size_t nopen,
                             const char *text, size_t len) {
  (void)open;
  (void)nopen;
  return xmt_buf_append(user, text, len);
}

xmt_status xmt_word_instr_put(struct xmt_buf *out, const struct word_para *p,
                              const xmt_segment *target, int *same) {
  struct xmt_buf text = {0}, quoted = {0};
  const struct xmt_office_target walk = {&text, 0, NULL, plain_text, NULL};
  xmt_status st = xmt_office_put_target(&walk, target);
  *same = st == XMT_OK && text.len == p->instr_len &&
          (text.len == 0 || memcmp(text.data, p->instr_text, text.len) == 0);
  if (p->instr_bare && !*same && st == XMT_OK)
    st = xmt_buf_append(&quoted, "\"", 1);
  for (size_t i = 0; i < text.len && !*same && st == XMT_OK; i++) {
    char c = text.data[i];
    /* A quote in a field argument is preceded by a backslash (ECMA-376
     * Part 4, 2.16.1), as a backslash is; an XE field's colon would
     * start a new level */
    const char *esc = c == '"'                    ? "\\\""
                      : c == '\\'                 ? "\\\\"
                      : c == ':' && p->instr == 2 ? "\\:"
                                                  : NULL;
    st = esc != NULL ? xmt_buf_append(&quoted, esc, 2)
                     : xmt_buf_append(&quoted, &c, 1);
  }
  if (p->instr_bare && !*same && st == XMT_OK)
    st = xmt_buf_append(&quoted, "\"", 1);
  if (st == XMT_OK && !*same)
    st = xmt_word_put_escaped(out, quoted.data, quoted.len, p->instr_attr);
  xmt_buf_free(&text);
  xmt_buf_free(&quoted);
  return st;
}
