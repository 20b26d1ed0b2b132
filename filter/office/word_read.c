/* word_read.c -- the paragraphs of a WordprocessingML main part: each
 * w:p of the body (in tables too) with text becomes a source segment.
 * Runs whose properties are equal, once w:lang and w:noProof are left
 * out (rsids are on the run, not in them), are one stretch of text; the
 * properties most of the text has are the paragraph's base, any other
 * stretch a paired code. Tabs, breaks, drawings, a field's characters
 * and instruction are isolated codes, as are bookmarks and any element
 * of the paragraph not known here (its text kept, untranslated);
 * hyperlinks and simple fields are paired codes around their text. */
#include "config.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "word_private.h"

#define W_NS "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

struct reader {
  struct word_doc *doc;
  XML_Parser xp;
  const char *path;
  struct xmt_error_store *err;
  xmt_status st;
  unsigned long depth;
  /* the paragraph being read (depth of its w:p; 0: none) */
  unsigned long para_depth;
  struct word_para para;
  struct piece *pieces;
  size_t npieces, cap;
  struct xmt_buf pool;
  size_t open_stack[64];
  size_t nopen;
  /* the run being read (depth of its w:r; 0: none), its w:rPr */
  unsigned long run_depth;
  size_t rpr_off, rpr_len;
  /* an element copied whole as one code: its depth and start (0: none);
   * in_run: inside a run, written in a run of its own */
  unsigned long skip_depth;
  size_t skip_start;
  int skip_in_run, skip_rpr, in_text;
  int long_prefix; /* a prefix the paragraph cannot be written with */
  size_t rpr_start;
};

static int is_w(const char *name, const char *local) {
  size_t n = sizeof W_NS - 1;
  return strncmp(name, W_NS, n) == 0 && name[n] == '|' &&
         strcmp(name + n + 1, local) == 0;
}

static size_t here(const struct reader *r) {
  return (size_t)XML_GetCurrentByteIndex(r->xp);
}
static size_t past_event(const struct reader *r) {
  return here(r) + (size_t)XML_GetCurrentByteCount(r->xp);
}

static void stop(struct reader *r, xmt_status st) {
  if (r->st == XMT_OK)
    r->st = st;
  XML_StopParser(r->xp, XML_FALSE);
}

static struct piece *add_piece(struct reader *r, enum piece_type type,
                               const char *bytes, size_t len) {
  if (r->npieces == r->cap) {
    struct piece *p =
        xmt_grow_array(r->pieces, &r->cap, r->npieces + 1, sizeof *p);
    if (p == NULL) {
      stop(r, XMT_ERR_NOMEM);
      return NULL;
    }
    r->pieces = p;
  }
  struct piece *p = &r->pieces[r->npieces++];
  *p = (struct piece){.type = type, .off = r->pool.len, .len = len};
  if (xmt_buf_append(&r->pool, bytes, len) != XMT_OK) {
    stop(r, XMT_ERR_NOMEM);
    return NULL;
  }
  return p;
}

/* An isolated code of part bytes [from, to), in a run of its own with
 * the run's properties when in_run. */
static void add_isolated(struct reader *r, size_t from, size_t to, int in_run) {
  const char *part = r->doc->part.data;
  size_t at = r->pool.len;
  struct piece *p = add_piece(r, PIECE_ISOLATED, "", 0);
  if (p == NULL)
    return;
  char open[48], close[48];
  const char *colon = r->para.prefix[0] != '\0' ? ":" : "";
  snprintf(open, sizeof open, "<%s%sr>", r->para.prefix, colon);
  snprintf(close, sizeof close, "</%s%sr>", r->para.prefix, colon);
  xmt_status st = XMT_OK;
  if (in_run) {
    st = xmt_buf_append_str(&r->pool, open);
    if (st == XMT_OK)
      st = xmt_buf_append(&r->pool, part + r->rpr_off, r->rpr_len);
  }
  if (st == XMT_OK)
    st = xmt_buf_append(&r->pool, part + from, to - from);
  if (st == XMT_OK && in_run)
    st = xmt_buf_append_str(&r->pool, close);
  if (st != XMT_OK)
    stop(r, st);
  p->len = r->pool.len - at;
}

static void begin_para(struct reader *r) {
  const char *tag = r->doc->part.data + here(r) + 1;
  const char *colon = strchr(tag, ':');
  const char *end = tag + strcspn(tag, " \t\r\n/>");
  size_t n = colon != NULL && colon < end ? (size_t)(colon - tag) : 0;
  memset(&r->para, 0, sizeof r->para);
  r->long_prefix = n >= sizeof r->para.prefix;
  if (r->long_prefix)
    n = 0; /* the paragraph is left alone (end_para) */
  memcpy(r->para.prefix, tag, n);
  r->para.start = here(r);
  r->para.head_end = past_event(r);
  r->para_depth = r->depth;
  r->npieces = 0;
  r->nopen = 0;
  xmt_buf_reset(&r->pool);
}

static void start_in_run(struct reader *r, const char *name,
                         const char **attrs) {
  if (is_w(name, "rPr")) {
    r->skip_rpr = 1;
    r->rpr_start = here(r);
    r->skip_depth = r->depth;
    if (XML_GetCurrentByteCount(r->xp) > 0 &&
        r->doc->part.data[past_event(r) - 2] == '/') { /* <w:rPr/> */
      r->rpr_off = here(r);
      r->rpr_len = past_event(r) - here(r);
    }
    return;
  }
  if (is_w(name, "t")) {
    r->in_text = 1;
    struct piece *p = add_piece(r, PIECE_TEXT, "", 0);
    if (p != NULL) {
      p->rpr_off = r->rpr_off;
      p->rpr_len = r->rpr_len;
    }
    (void)attrs;
    return;
  }
  r->skip_depth = r->depth;
  r->skip_start = here(r);
  r->skip_in_run = !is_w(name, "lastRenderedPageBreak");
  r->skip_rpr = 0;
}

static void start_in_para(struct reader *r, const char *name) {
  if (r->depth == r->para_depth + 1 && is_w(name, "pPr")) {
    r->skip_depth = r->depth;
    r->skip_start = here(r);
    r->skip_in_run = -1; /* the head */
    return;
  }
  if (is_w(name, "r")) {
    r->run_depth = r->depth;
    r->rpr_off = r->rpr_len = 0;
    return;
  }
  if ((is_w(name, "hyperlink") || is_w(name, "fldSimple")) && r->nopen < 64) {
    const char *part = r->doc->part.data;
    if (part[past_event(r) - 2] == '/') { /* empty: nothing inside */
      add_isolated(r, here(r), past_event(r), 0);
      r->skip_depth = r->depth;
      r->skip_in_run = -2; /* already added */
      return;
    }
    r->open_stack[r->nopen++] = r->depth;
    add_piece(r, PIECE_OPEN, part + here(r), past_event(r) - here(r));
    return;
  }
  r->skip_depth = r->depth;
  r->skip_start = here(r);
  r->skip_in_run = is_w(name, "proofErr") ? -2 : 0;
}

static void XMLCALL on_start(void *user, const XML_Char *name,
                             const XML_Char **attrs) {
  struct reader *r = user;
  r->depth++;
  if (r->skip_depth != 0 || r->st != XMT_OK)
    return;
  if (r->para_depth == 0) {
    if (is_w(name, "p"))
      begin_para(r);
    return;
  }
  if (r->run_depth != 0)
    start_in_run(r, name, attrs);
  else
    start_in_para(r, name);
}

/* The end of the element copied whole that opened at this depth. */
static void end_skipped(struct reader *r) {
  size_t end = past_event(r);
  r->skip_depth = 0;
  if (r->skip_rpr) {
    r->rpr_off = r->rpr_start;
    r->rpr_len = end - r->rpr_start;
    r->skip_rpr = 0;
  } else if (r->skip_in_run == -1) {
    r->para.head_end = end;
  } else if (r->skip_in_run != -2 &&
             !(r->run_depth != 0 && r->skip_in_run == 0)) {
    add_isolated(r, r->skip_start, end, r->skip_in_run);
  }
}

static void end_para(struct reader *r) {
  r->para_depth = 0;
  r->para.end = past_event(r);
  int text = 0;
  for (size_t i = 0; i < r->npieces && !text; i++)
    for (size_t k = 0; r->pieces[i].type == PIECE_TEXT && k < r->pieces[i].len;
         k++)
      if (strchr(" \t\r\n", r->pool.data[r->pieces[i].off + k]) == NULL)
        text = 1;
  if (!text || r->long_prefix)
    return; /* left alone */
  struct word_doc *doc = r->doc;
  if (doc->npara == doc->cap) {
    struct word_para *p =
        xmt_grow_array(doc->paras, &doc->cap, doc->npara + 1, sizeof *p);
    if (p == NULL) {
      stop(r, XMT_ERR_NOMEM);
      return;
    }
    doc->paras = p;
  }
  struct word_para *p = &doc->paras[doc->npara];
  *p = r->para;
  xmt_status st = xmt_word_para_finish(p, r->pool.data, r->pieces, r->npieces,
                                       doc->part.data);
  if (st != XMT_OK)
    stop(r, st);
  else
    doc->npara++;
}

static void XMLCALL on_end(void *user, const XML_Char *name) {
  struct reader *r = user;
  if (r->st == XMT_OK && r->skip_depth == r->depth && r->skip_depth != 0)
    end_skipped(r);
  else if (r->st == XMT_OK && r->skip_depth == 0 && r->para_depth != 0) {
    if (r->depth == r->para_depth)
      end_para(r);
    else if (r->depth == r->run_depth)
      r->run_depth = 0;
    else if (r->run_depth != 0 && is_w(name, "t"))
      r->in_text = 0;
    else if (r->nopen > 0 && r->open_stack[r->nopen - 1] == r->depth) {
      r->nopen--;
      const char *part = r->doc->part.data;
      add_piece(r, PIECE_CLOSE, part + here(r), past_event(r) - here(r));
    }
  }
  r->depth--;
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len) {
  struct reader *r = user;
  if (!r->in_text || r->skip_depth != 0 || r->st != XMT_OK || r->npieces == 0)
    return;
  struct piece *p = &r->pieces[r->npieces - 1];
  if (xmt_buf_append(&r->pool, s, (size_t)len) != XMT_OK)
    stop(r, XMT_ERR_NOMEM);
  else
    p->len += (size_t)len;
}

/* A doctype could declare entities that expand without end. */
static void XMLCALL on_doctype(void *user, const XML_Char *name,
                               const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal_subset) {
  struct reader *r = user;
  (void)name, (void)sysid, (void)pubid, (void)has_internal_subset;
  stop(r, XMT_ERR_FORMAT);
}

xmt_status xmt_word_parse(struct word_doc *doc, const char *path,
                          struct xmt_error_store *err) {
  struct reader r = {.doc = doc, .path = path, .err = err};
  r.xp = XML_ParserCreateNS(NULL, '|');
  if (r.xp == NULL)
    return xmt_error_nomem(err);
  XML_SetUserData(r.xp, &r);
  XML_SetElementHandler(r.xp, on_start, on_end);
  XML_SetCharacterDataHandler(r.xp, on_text);
  XML_SetStartDoctypeDeclHandler(r.xp, on_doctype);
  enum XML_Status xs =
      XML_Parse(r.xp, doc->part.data, (int)doc->part.len, XML_TRUE);
  xmt_status st = r.st;
  unsigned long line = XML_GetCurrentLineNumber(r.xp);
  unsigned long col = XML_GetCurrentColumnNumber(r.xp) + 1;
  /* the line and column are the part's, not the package file's */
  if (st == XMT_ERR_FORMAT)
    xmt_error_at(err, st, XMT_IN(path),
                 "%s, line %lu, column %lu: a doctype is not read in a Word "
                 "part",
                 doc->main, line, col);
  else if (st == XMT_OK && xs != XML_STATUS_OK)
    st = xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(path),
                      "%s, line %lu, column %lu: not well-formed XML: %s",
                      doc->main, line, col,
                      XML_ErrorString(XML_GetErrorCode(r.xp)));
  else if (st != XMT_OK)
    xmt_error_nomem(err);
  XML_ParserFree(r.xp);
  free(r.pieces);
  xmt_buf_free(&r.pool);
  return st;
}
