/* word_read.c -- the paragraphs of a WordprocessingML part: each w:p (in
 * the body, tables, headers, footers, notes, comments, text boxes) with
 * text becomes a source segment. Runs whose properties are equal, once
 * w:lang and w:noProof are left out (rsids are on the run, not in them),
 * are one stretch of text; the properties most of the text has are the
 * paragraph's base, any other stretch a paired code. Tabs, breaks,
 * drawings, hidden text, a field's characters and instruction are
 * isolated codes, as are bookmarks, deleted text and any element of the
 * paragraph not known here (its text kept, untranslated); hyperlinks,
 * simple fields, inserted text, content controls and smart tags are
 * paired codes around their text (word_read_para.c). A text box's
 * paragraphs (w:txbxContent) are read in a frame of their own while the
 * drawing that holds them is copied as a code; an mc:Fallback's
 * paragraphs that repeat its mc:Choice's are its twins. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "word_read.h"

static void frame_free(struct frame *s) {
  free(s->pieces);
  xmt_buf_free(&s->pool);
  free(s->instr.chunks);
  xmt_buf_free(&s->instr.text);
}

/* A text box: its paragraphs read in a new frame until it ends. */
static void push_frame(struct reader *r) {
  r->saved[r->nsaved++] = r->s;
  memset(&r->s, 0, sizeof r->s);
  r->s.box_depth = r->depth;
}

static void pop_frame(struct reader *r) {
  frame_free(&r->s);
  r->s = r->saved[--r->nsaved];
}

/* Footnotes and endnotes that only draw the line above the notes. The
 * continuation notice is not one: its text ("Continued on the next
 * page"), when it has some, is printed under notes that go on. */
static int separator(const struct reader *r, const XML_Char **attrs) {
  if (!word_is(r, "footnote") && !word_is(r, "endnote"))
    return 0;
  for (size_t i = 0; attrs[i] != NULL; i += 2)
    if (xmt_office_is(attrs[i], W_NS, "type"))
      return strcmp(attrs[i + 1], "separator") == 0 ||
             strcmp(attrs[i + 1], "continuationSeparator") == 0;
  return 0;
}

/* mc:AlternateContent: the paragraphs of its first mc:Choice are the
 * reference; those of a later Choice or the mc:Fallback, paragraph k
 * saying what reference paragraph k says, become its twins. */
static void alt_start(struct reader *r) {
  if (word_mc_is(r, "AlternateContent") &&
      r->nalt < sizeof r->alt / sizeof r->alt[0]) {
    r->alt[r->nalt++] = (struct alt){.depth = r->depth, .ref_from = SIZE_MAX};
    return;
  }
  struct alt *a = r->nalt > 0 ? &r->alt[r->nalt - 1] : NULL;
  if (a != NULL && a->depth + 1 == r->depth &&
      (word_mc_is(r, "Choice") || word_mc_is(r, "Fallback")))
    a->from = r->part->npara;
}

static void alt_end(struct reader *r) {
  struct alt *a = r->nalt > 0 ? &r->alt[r->nalt - 1] : NULL;
  if (a == NULL)
    return;
  if (a->depth == r->depth) {
    r->nalt--;
    xmt_word_final(r);
    return;
  }
  if (a->depth + 1 != r->depth ||
      !(word_mc_is(r, "Choice") || word_mc_is(r, "Fallback")))
    return;
  struct word_part *part = r->part;
  if (a->ref_from == SIZE_MAX) {
    a->ref_from = a->from;
    a->ref_to = part->npara;
    return;
  }
  /* paragraph to paragraph: a value (a picture's alternative text in a
   * Choice, which a Fallback's VML does not repeat) is none */
  for (size_t i = a->from, k = a->ref_from; i < part->npara && k < a->ref_to;
       i++, k++) {
    while (i < part->npara && part->paras[i].value)
      i++;
    while (k < a->ref_to && part->paras[k].value)
      k++;
    if (i >= part->npara || k >= a->ref_to)
      break;
    struct word_para *p = &part->paras[i];
    const struct word_para *ref = &part->paras[k];
    if (p->twin < 0 && xmt_word_same_source(ref, p))
      p->twin = ref->twin >= 0 ? ref->twin : (long)k;
  }
}

/* r->w and r->mc for the element named name (expat's "URI|local"). */
/* In a chart or SmartArt part, DrawingML's a:p, a:r, a:rPr, a:t... are
 * read as WordprocessingML's are: a paragraph's runs, one unit. */
static void name_event(struct reader *r, const char *name) {
  static const char w[] = W_NS "|", mc[] = MC_NS "|", a[] = A_NS "|";
  r->w = r->mc = NULL;
  if (r->drawing ? strncmp(name, a, sizeof a - 1) == 0
                 : strncmp(name, w, sizeof w - 1) == 0)
    r->w = name + (r->drawing ? sizeof a : sizeof w) - 1;
  else if (strncmp(name, mc, sizeof mc - 1) == 0)
    r->mc = name + sizeof mc - 1;
}

/* A w:dataBinding's bytes: its start here, its end at its end tag. */
static void binding_start(struct reader *r) {
  struct word_part *part = r->part;
  struct word_range *b = part->bindings;
  if (part->nbindings == part->bindings_cap)
    b = xmt_grow_array(part->bindings, &part->bindings_cap, part->nbindings + 1,
                       sizeof *b);
  if (b == NULL) {
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
    return;
  }
  part->bindings = b;
  size_t at = (size_t)XML_GetCurrentByteIndex(r->x.xp);
  b[part->nbindings++] =
      (struct word_range){at, at + (size_t)XML_GetCurrentByteCount(r->x.xp)};
  r->binding_depth = r->depth;
}

xmt_status xmt_word_append_unbound(struct xmt_buf *out,
                                   const struct word_part *part, size_t from,
                                   size_t to) {
  const struct word_range *b = part->bindings;
  size_t lo = 0, hi = part->nbindings;
  while (lo < hi) { /* the first binding that ends past from */
    size_t mid = lo + (hi - lo) / 2;
    if (b[mid].to <= from)
      lo = mid + 1;
    else
      hi = mid;
  }
  xmt_status st = XMT_OK;
  for (size_t i = lo; i < part->nbindings && b[i].from < to && st == XMT_OK;
       i++) {
    if (b[i].from > from)
      st = xmt_buf_append(out, part->data.data + from, b[i].from - from);
    from = b[i].to > from ? b[i].to : from;
  }
  return st == XMT_OK && from < to
             ? xmt_buf_append(out, part->data.data + from, to - from)
             : st;
}

static void XMLCALL on_start(void *user, const XML_Char *name,
                             const XML_Char **attrs) {
  struct reader *r = user;
  r->depth++;
  if (r->x.st != XMT_OK)
    return;
  name_event(r, name);
  if (r->drawing && r->s.para_depth == 0 && !word_is(r, "p")) {
    xmt_word_chart_start(r, name); /* a chart's string values */
    return;
  }
  if (word_is(r, "dataBinding") && r->binding_depth == 0)
    binding_start(r);
  alt_start(r);
  xmt_word_values_start(r, name, attrs);
  struct frame *s = &r->s;
  if (s->skip_depth != 0) {
    if (s->para_depth != 0 && !s->skip_keep && word_is(r, "txbxContent") &&
        r->nsaved < sizeof r->saved / sizeof r->saved[0])
      push_frame(r);
    return;
  }
  if (s->para_depth == 0) {
    if (word_is(r, "p"))
      xmt_word_begin_para(r);
    else if (separator(r, attrs)) {
      s->skip_depth = r->depth;
      s->skip_in_run = -2;
    }
    return;
  }
  if (s->run_depth != 0)
    xmt_word_start_in_run(r);
  else
    xmt_word_start_in_para(r);
}

static void XMLCALL on_end(void *user, const XML_Char *name) {
  struct reader *r = user;
  struct frame *s = &r->s;
  if (r->drawing && s->para_depth == 0) {
    xmt_word_chart_end(r);
    r->depth--;
    return;
  }
  if (r->input_depth == r->depth)
    r->input_depth = 0;
  if (r->binding_depth == r->depth && r->x.st == XMT_OK) {
    size_t n = (size_t)XML_GetCurrentByteCount(r->x.xp); /* 0: <.../> */
    r->binding_depth = 0;
    if (n > 0)
      r->part->bindings[r->part->nbindings - 1].to =
          (size_t)XML_GetCurrentByteIndex(r->x.xp) + n;
  }
  /* the name only where an end asks for it: a w:t in a run read, an
   * mc:Choice or mc:Fallback of an mc:AlternateContent */
  r->w = r->mc = NULL;
  if (r->x.st == XMT_OK &&
      (r->nalt > 0 ||
       (s->skip_depth == 0 && s->para_depth != 0 && s->run_depth != 0)))
    name_event(r, name);
  if (r->x.st == XMT_OK && r->nsaved > 0 && s->box_depth == r->depth) {
    pop_frame(r);
  } else if (r->x.st == XMT_OK) {
    if (s->skip_depth == r->depth && s->skip_depth != 0)
      xmt_word_end_skipped(r);
    else if (s->skip_depth == 0 && s->para_depth != 0)
      xmt_word_end_in_para(r);
    alt_end(r);
  }
  r->depth--;
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len) {
  struct reader *r = user;
  struct frame *f = &r->s;
  if (r->drawing && f->para_depth == 0) {
    xmt_word_props_text(r, s, len);
    return;
  }
  if (f->instr.text_depth != 0 && f->instr.text_depth == r->depth &&
      r->x.st == XMT_OK) {
    xmt_word_instr_text(r, s, (size_t)len); /* a field's instruction */
    return;
  }
  if (!f->in_text || f->skip_depth != 0 || r->x.st != XMT_OK || f->npieces == 0)
    return;
  struct piece *p = &f->pieces[f->npieces - 1];
  if (xmt_buf_append(&f->pool, s, (size_t)len) != XMT_OK)
    xmt_office_stop(&r->x, XMT_ERR_NOMEM);
  else
    p->len += (size_t)len;
}

static int by_start(const void *a, const void *b, void *user) {
  const struct word_para *p = user;
  size_t x = p[*(const size_t *)a].start, y = p[*(const size_t *)b].start;
  return x < y ? -1 : x > y;
}

/* part->order: the paragraphs by their start. They end in order but for
 * the text boxes, read before the paragraph they stand in: an insertion
 * sort moves each of those few a short way. */
static xmt_status make_order(struct word_part *part) {
  part->order = malloc((part->npara > 0 ? part->npara : 1) * sizeof(size_t));
  if (part->order == NULL)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < part->npara; i++) {
    size_t j = i;
    part->order[i] = i;
    while (j > 0 &&
           by_start(&part->order[j - 1], &part->order[j], part->paras) > 0) {
      size_t t = part->order[j];
      part->order[j] = part->order[j - 1];
      part->order[--j] = t;
    }
  }
  return XMT_OK;
}

void xmt_word_final(struct reader *r) {
  if (r->hook == NULL || r->nalt > 0 || r->x.st != XMT_OK ||
      r->part->nfed == r->part->npara)
    return;
  xmt_status st = r->hook->fed(r->hook->user, r->part);
  if (st != XMT_OK) {
    r->x.pass = 1;
    xmt_office_stop(&r->x, st);
  }
}

xmt_status xmt_word_parse(struct word_part *part, const char *path,
                          const struct word_hook *hook,
                          struct xmt_error_store *err) {
  struct reader r = {.x = {.start = on_start,
                           .end = on_end,
                           .text = on_text,
                           .doctype = "a doctype is not read in a Word part"},
                     .part = part,
                     .hook = hook};
  r.drawing =
      !part->props && xmt_word_is_drawing(part->data.data, part->data.len);
  if (part->props)
    r.x = (struct xmt_office_xml){.start = xmt_word_props_start,
                                  .end = xmt_word_props_end,
                                  .text = xmt_word_props_text,
                                  .doctype = r.x.doctype};
  const struct xmt_office_entry at = {path, part->name, 0};
  xmt_status st =
      xmt_office_xml_parse(&r.x, part->data.data, part->data.len, &at, err);
  xmt_buf_free(&r.prop_text);
  /* values after the last paragraph with text (a picture's alternative
   * text, an index entry in a paragraph of none): handed on too */
  if (st == XMT_OK && hook != NULL && part->nfed < part->npara)
    st = hook->fed(hook->user, part);
  if (st == XMT_OK && make_order(part) != XMT_OK)
    st = xmt_error_nomem(err);
  while (r.nsaved > 0)
    pop_frame(&r);
  frame_free(&r.s);
  return st;
}
