/* word_read_para.c -- inside a paragraph of a Word part: its runs into
 * pieces of text and codes (word_read.c routes the events here). */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "word_read.h"

static size_t here(const struct reader *r) {
  return (size_t)XML_GetCurrentByteIndex(r->x.xp);
}
static size_t past_event(const struct reader *r) {
  return here(r) + (size_t)XML_GetCurrentByteCount(r->x.xp);
}
static const char *data(const struct reader *r) { return r->part->data.data; }
/* 1 when the element whose start tag is the current event is empty. */
static int empty_element(const struct reader *r) {
  return XML_GetCurrentByteCount(r->x.xp) > 1 &&
         data(r)[past_event(r) - 2] == '/';
}

static struct piece *add_piece(struct reader *r, enum piece_type type,
                               const char *bytes, size_t len) {
  struct frame *s = &r->s;
  if (s->npieces == s->cap) {
    struct piece *p =
        xmt_grow_array(s->pieces, &s->cap, s->npieces + 1, sizeof *p);
    if (p == NULL) {
      xmt_office_stop(&r->x, XMT_ERR_NOMEM);
      return NULL;
    }
    s->pieces = p;
  }
  struct piece *p = &s->pieces[s->npieces++];
  *p = (struct piece){.type = type, .off = s->pool.len, .len = len};
  if (xmt_buf_append(&s->pool, bytes, len) != XMT_OK) {
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return NULL;
  }
  return p;
}

/* An isolated code of part bytes [from, to), in a run of its own with
 * the run's properties when in_run. */
static void add_isolated(struct reader *r, size_t from, size_t to, int in_run) {
  struct frame *s = &r->s;
  size_t at = s->pool.len;
  struct piece *p = add_piece(r, PIECE_ISOLATED, "", 0);
  if (p == NULL)
    return;
  char open[48], close[48];
  const char *colon = s->para.prefix[0] != '\0' ? ":" : "";
  snprintf(open, sizeof open, "<%s%sr>", s->para.prefix, colon);
  snprintf(close, sizeof close, "</%s%sr>", s->para.prefix, colon);
  xmt_status st = XMT_OK;
  if (in_run) {
    st = xmt_buf_append_str(&s->pool, open);
    if (st == XMT_OK)
      st = xmt_buf_append(&s->pool, data(r) + s->rpr_off, s->rpr_len);
  }
  p->from = from;
  p->to = to;
  p->pre_len = s->pool.len - at;
  if (st == XMT_OK)
    st = xmt_buf_append(&s->pool, data(r) + from, to - from);
  if (st == XMT_OK && in_run)
    st = xmt_buf_append_str(&s->pool, close);
  if (st != XMT_OK)
    xmt_office_stop(&r->x, st);
  p->len = s->pool.len - at;
}

void xmt_word_begin_para(struct reader *r) {
  struct frame *s = &r->s;
  const char *tag = data(r) + here(r) + 1;
  const char *colon = strchr(tag, ':');
  const char *end = tag + strcspn(tag, " \t\r\n/>");
  size_t n = colon != NULL && colon < end ? (size_t)(colon - tag) : 0;
  memset(&s->para, 0, sizeof s->para);
  s->para.twin = -1;
  s->para.drawing = r->drawing;
  s->long_prefix = n >= sizeof s->para.prefix;
  if (s->long_prefix)
    n = 0; /* the paragraph is left alone (end_para) */
  memcpy(s->para.prefix, tag, n);
  s->para.start = here(r);
  s->para.head_end = past_event(r);
  s->para_depth = r->depth;
  if (s->instr.depth != 0)
    s->instr.bad = 1; /* a field's instruction over paragraphs: kept */
  s->npieces = 0;
  s->nopen = 0;
  xmt_buf_reset(&s->pool);
}

/* 1 when the run's properties hide it (w:vanish, not set off): hidden
 * text is left as it is, a code. */
static int hidden(const struct reader *r) {
  const struct frame *s = &r->s;
  const char *rpr = data(r) + s->rpr_off, *end = rpr + s->rpr_len;
  const char *prefix = s->para.prefix;
  size_t np = strlen(prefix), n = np + (np > 0) + 7; /* <w:vanish */
  for (const char *c = memchr(rpr, '<', s->rpr_len); c != NULL && c + n < end;
       c = memchr(c + 1, '<', (size_t)(end - c - 1))) {
    if (memcmp(c + 1, prefix, np) != 0 || (np > 0 && c[np + 1] != ':') ||
        memcmp(c + n - 6, "vanish", 6) != 0 ||
        strchr(" \t\r\n/>", c[n]) == NULL)
      continue;
    const char *gt = memchr(c, '>', (size_t)(end - c));
    for (const char *v = c + n; gt != NULL && v + 5 < gt; v++)
      if (memcmp(v, "val=", 4) == 0) /* "0", "false", "off": shown */
        return !(strncmp(v + 5, "0", 1) == 0 ||
                 strncmp(v + 5, "false", 5) == 0 ||
                 strncmp(v + 5, "off", 3) == 0);
    return 1;
  }
  return 0;
}

/* The element starting here copied whole (how: see skip_in_run). */
static void skip_whole(struct reader *r, int how) {
  struct frame *s = &r->s;
  s->skip_depth = r->depth;
  s->skip_start = here(r);
  s->skip_in_run = how;
  s->skip_rpr = 0;
  s->skip_keep = 0;
}

/* A w:fldChar: the fields open and which are in their instruction. */
static void field_char(struct reader *r) {
  struct frame *s = &r->s;
  enum fld k = xmt_word_fld_kind(data(r) + here(r), past_event(r) - here(r));
  unsigned long long top =
      s->fld_depth > 0 && s->fld_depth <= 64 ? 1ULL << (s->fld_depth - 1) : 0;
  if (k == FLD_BEGIN) {
    if (s->fld_depth < 64) /* the new field's bit */
      s->fld_instr |= 1ULL << s->fld_depth;
    if (s->fld_depth < UINT_MAX)
      s->fld_depth++;
  } else if (k == FLD_SEPARATE)
    s->fld_instr &= ~top;
  else if (k == FLD_END && s->fld_depth > 0) {
    s->fld_instr &= ~top;
    s->fld_depth--;
  }
  xmt_word_instr_fld(r, k);
}

/* A child of a w:ruby: its w:rubyBase's start ends the open of a pair
 * (a run with the ruby's run properties, the ruby's start tag, w:rubyPr
 * and the reading, w:rt) around the base's runs, read as the
 * paragraph's; anything else is in the pair's open or close. */
static void ruby_child(struct reader *r) {
  struct frame *s = &r->s;
  if (!word_is(r, "rubyBase") || s->ruby_base != 0 || empty_element(r)) {
    skip_whole(r, -2);
    return;
  }
  struct piece *p = add_piece(r, PIECE_OPEN, "", 0);
  if (p == NULL)
    return;
  const char *colon = s->para.prefix[0] != '\0' ? ":" : "";
  char open[48];
  snprintf(open, sizeof open, "<%s%sr>", s->para.prefix, colon);
  xmt_status st = xmt_buf_append_str(&s->pool, open);
  if (st == XMT_OK)
    st = xmt_buf_append(&s->pool, data(r) + s->rpr_off, s->rpr_len);
  if (st == XMT_OK)
    st = xmt_buf_append(&s->pool, data(r) + s->ruby_start,
                        past_event(r) - s->ruby_start);
  if (st != XMT_OK) {
    xmt_office_stop(&r->x, st);
    return;
  }
  p->len = s->pool.len - p->off;
  p->from = s->ruby_start; /* its ctype: the ruby's */
  p->to = s->ruby_tag_end;
  s->ruby_base = 1;
  s->ruby_run = s->run_depth;
  s->ruby_rpr_off = s->rpr_off;
  s->ruby_rpr_len = s->rpr_len;
  s->run_depth = 0; /* the base's runs are read as the paragraph's */
}

/* The end of the w:ruby: the close of its pair (from the end of its base
 * on, and the run's end), or, with no base read, an isolated code. */
static void ruby_end(struct reader *r) {
  struct frame *s = &r->s;
  s->ruby_depth = 0;
  if (s->ruby_base != 2) {
    add_isolated(r, s->ruby_start, past_event(r), 1);
    return;
  }
  s->run_depth = s->ruby_run;
  s->rpr_off = s->ruby_rpr_off;
  s->rpr_len = s->ruby_rpr_len;
  struct piece *p = add_piece(r, PIECE_CLOSE, data(r) + s->ruby_start,
                              past_event(r) - s->ruby_start);
  char close[48];
  const char *colon = s->para.prefix[0] != '\0' ? ":" : "";
  snprintf(close, sizeof close, "</%s%sr>", s->para.prefix, colon);
  if (p != NULL && xmt_buf_append_str(&s->pool, close) != XMT_OK)
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
  else if (p != NULL)
    p->len = s->pool.len - p->off;
}

void xmt_word_start_in_run(struct reader *r) {
  struct frame *s = &r->s;
  if (s->ruby_depth != 0 && r->depth == s->ruby_depth + 1) {
    ruby_child(r);
    return;
  }
  if (word_is(r, "ruby") && s->ruby_depth == 0 && !empty_element(r) &&
      !hidden(r) && s->fld_instr == 0) {
    s->ruby_depth = r->depth;
    s->ruby_start = here(r);
    s->ruby_tag_end = past_event(r);
    s->ruby_base = 0;
    return;
  }
  if (word_is(r, "fldChar"))
    field_char(r);
  if (word_is(r, "rPr")) {
    skip_whole(r, -2);
    s->skip_rpr = 1;
    s->rpr_start = here(r);
    if (empty_element(r)) { /* <w:rPr/> */
      s->rpr_off = here(r);
      s->rpr_len = past_event(r) - here(r);
    }
    return;
  }
  if (word_is(r, "t") && !hidden(r) && s->fld_instr == 0) {
    s->in_text = 1;
    struct piece *p = add_piece(r, PIECE_TEXT, "", 0);
    if (p != NULL) {
      p->rpr_off = s->rpr_off;
      p->rpr_len = s->rpr_len;
    }
    return;
  }
  if (word_is(r, "instrText") && s->instr.depth != 0 &&
      s->instr.depth == s->fld_depth)
    s->instr.text_depth = r->depth; /* its text read (word_fields.c) */
  skip_whole(r, !word_is(r, "lastRenderedPageBreak"));
  /* hidden, in a field's instruction, deleted */
  s->skip_keep = word_is(r, "t") || word_is(r, "delText");
}

/* Elements of a paragraph whose start and end tags are a pair of codes
 * around their text: at once, or (with properties first) once their
 * content starts. */
static int pair_now(const struct reader *r) {
  static const char *const names[] = {"hyperlink", "fldSimple", "ins",
                                      "moveTo",    "dir",       "bdo"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (word_is(r, names[i]))
      return 1;
  return 0;
}
static int pair_later(const struct reader *r) {
  return word_is(r, "sdt") || word_is(r, "smartTag") || word_is(r, "customXml");
}
static int properties(const struct reader *r) {
  return word_is(r, "sdtPr") || word_is(r, "sdtEndPr") ||
         word_is(r, "smartTagPr") || word_is(r, "customXmlPr");
}

/* A child of a pending pair: its properties are kept for its open code,
 * which its content (w:sdtContent, or the first run) starts. 1 when the
 * child is taken care of. */
static int pending_child(struct reader *r) {
  struct frame *s = &r->s;
  struct open_el *o = &s->opens[s->nopen - 1];
  int content = word_is(r, "sdtContent");
  if (properties(r) || (content && empty_element(r))) {
    skip_whole(r, -2);
    return 1;
  }
  size_t to = content ? past_event(r) : here(r);
  o->pending = 0;
  struct piece *p = add_piece(r, PIECE_OPEN, "", 0);
  if (p != NULL) { /* its data binding left out, as the writer leaves it */
    if (xmt_word_append_unbound(&s->pool, r->part, o->start, to) != XMT_OK)
      xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    p->len = s->pool.len - p->off;
    /* its bytes, for a drop-down's choices that are units (written
     * through the part with their targets) */
    p->from = o->start;
    p->to = to;
  }
  if (content)
    o->content_depth = r->depth;
  return content;
}

/* A w:fldSimple's instruction (its start tag the event's, its piece
 * added) read as a field's is (word_fields.c), but in another's. */
static void simple_instr(struct reader *r) {
  size_t from, to, at = here(r);
  if (word_is(r, "fldSimple") && r->s.fld_instr == 0 &&
      xmt_word_value_at(data(r) + at, past_event(r) - at, "instr", 1, &from,
                        &to))
    xmt_word_instr_simple(r, at + from, at + to);
}

void xmt_word_start_in_para(struct reader *r) {
  struct frame *s = &r->s;
  if (s->ruby_depth != 0 && r->depth == s->ruby_depth + 1) {
    ruby_child(r); /* after its base */
    return;
  }
  if (s->nopen > 0 && s->opens[s->nopen - 1].pending &&
      s->opens[s->nopen - 1].depth + 1 == r->depth && pending_child(r))
    return;
  if (r->depth == s->para_depth + 1 && word_is(r, "pPr")) {
    skip_whole(r, -1); /* the head */
    return;
  }
  if (word_is(r, "r")) {
    s->run_depth = r->depth;
    s->rpr_off = s->rpr_len = 0;
    return;
  }
  int now = pair_now(r);
  if ((now || pair_later(r)) && s->nopen < OPEN_MAX) {
    if (empty_element(r)) { /* nothing inside */
      add_isolated(r, here(r), past_event(r), 0);
      simple_instr(r);
      skip_whole(r, -2);
      return;
    }
    s->opens[s->nopen++] =
        (struct open_el){.depth = r->depth, .start = here(r), .pending = !now};
    struct piece *p = now ? add_piece(r, PIECE_OPEN, data(r) + here(r),
                                      past_event(r) - here(r))
                          : NULL;
    if (p != NULL) { /* its start tag in the part: a tooltip is a unit */
      p->from = here(r);
      p->to = past_event(r);
      simple_instr(r);
    }
    return;
  }
  /* deleted text, bookmarks, anything else: kept as it is */
  skip_whole(r, word_is(r, "proofErr") ? -2 : 0);
  s->skip_keep = word_is(r, "del") || word_is(r, "moveFrom");
}

/* The end of the element copied whole that opened at this depth. */
void xmt_word_end_skipped(struct reader *r) {
  struct frame *s = &r->s;
  size_t end = past_event(r);
  s->skip_depth = 0;
  s->instr.text_depth = 0;
  if (s->skip_rpr) {
    s->rpr_off = s->rpr_start;
    s->rpr_len = end - s->rpr_start;
    s->skip_rpr = 0;
  } else if (s->skip_in_run == -1) {
    s->para.head_end = end;
  } else if (s->skip_in_run != -2 &&
             !(s->run_depth != 0 && s->skip_in_run == 0)) {
    add_isolated(r, s->skip_start, end, s->skip_in_run);
  }
}

/* A text field's default read in para (a value pushed since it began)
 * that says what the field's result says becomes the paragraph's twin,
 * written with the translation of the field's pair: the field shows the
 * same text reset as filled. */
static void link_defaults(struct reader *r, const struct word_para *para) {
  struct word_part *part = r->part;
  struct xmt_buf a = {0}, b = {0};
  xmt_status st = XMT_OK;
  for (size_t i = part->npara; i > 0 && st == XMT_OK; i--) {
    struct word_para *v = &part->paras[i - 1];
    if (v->start < para->start)
      break;
    long code = -2; /* the pair whose begin holds it */
    for (size_t k = 0; k < para->ncodes && code == -2 && v->field_default; k++)
      if (!para->codes[k].isolated && para->codes[k].from <= v->start &&
          v->end <= para->codes[k].to)
        code = k < para->nsource ? (long)k : -1;
    if (code == -2 || v->twin >= 0)
      continue;
    st = xmt_word_pair_text(para, para->source, code, &a);
    if (st == XMT_OK)
      st = xmt_word_pair_text(v, v->source, -1, &b);
    if (st == XMT_OK && a.len == b.len && memcmp(a.data, b.data, a.len) == 0)
      v->twin = (long)part->npara, v->twin_code = code;
  }
  if (st != XMT_OK)
    xmt_office_stop(&r->x, st);
  xmt_buf_free(&a);
  xmt_buf_free(&b);
}

static void end_para(struct reader *r) {
  struct frame *s = &r->s;
  s->para_depth = 0;
  s->para.end = past_event(r);
  int text = 0;
  for (size_t i = 0; i < s->npieces && !text; i++)
    text = s->pieces[i].type == PIECE_TEXT &&
           !xmt_office_blank(s->pool.data + s->pieces[i].off, s->pieces[i].len);
  if (!text || s->long_prefix)
    return; /* left alone */
  struct word_para para = s->para;
  xmt_status st =
      xmt_word_para_finish(&para, s->pool.data, s->pieces, s->npieces, data(r));
  if (st != XMT_OK) {
    xmt_office_stop(&r->x, st);
    return;
  }
  link_defaults(r, &para);
  if (xmt_word_push_para(r, &para) && r->nalt == 0)
    xmt_word_final(r);
}

int xmt_word_push_para(struct reader *r, struct word_para *para) {
  /* the array may move: not while a take on another thread is in it */
  struct word_part *part = r->part;
  if (part->lock != NULL)
    pthread_mutex_lock(part->lock);
  struct word_para *p = part->paras;
  if (part->npara == part->cap)
    p = xmt_grow_array(part->paras, &part->cap, part->npara + 1, sizeof *p);
  if (p != NULL) {
    part->paras = p;
    part->paras[part->npara++] = *para;
  }
  if (part->lock != NULL)
    pthread_mutex_unlock(part->lock);
  if (p == NULL) {
    xmt_word_para_free(para);
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
  }
  return p != NULL;
}

void xmt_word_end_in_para(struct reader *r) {
  struct frame *s = &r->s;
  struct open_el *o = s->nopen > 0 ? &s->opens[s->nopen - 1] : NULL;
  if (s->ruby_depth != 0 && r->depth == s->ruby_depth) {
    ruby_end(r);
  } else if (s->ruby_base == 1 && r->depth == s->ruby_depth + 1) {
    s->ruby_base = 2;
    s->ruby_start = here(r); /* the close's bytes from here */
  } else if (r->depth == s->para_depth) {
    end_para(r);
  } else if (r->depth == s->run_depth) {
    s->run_depth = 0;
  } else if (s->run_depth != 0 && word_is(r, "t")) {
    s->in_text = 0;
  } else if (o != NULL && o->content_depth == r->depth) {
    o->close_from = here(r);
  } else if (o != NULL && o->depth == r->depth) {
    s->nopen--;
    if (o->pending) /* no content: the whole of it one code */
      add_isolated(r, o->start, past_event(r), 0);
    else {
      size_t from = o->close_from != 0 ? o->close_from : here(r);
      add_piece(r, PIECE_CLOSE, data(r) + from, past_event(r) - from);
    }
  }
}
