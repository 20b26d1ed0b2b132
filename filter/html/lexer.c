/* lexer.c -- a preserving HTML tokenizer: tokens cover the input byte
 * for byte, found as an HTML5 tokenizer finds them, and bad markup never
 * stops it. Works on any ASCII-compatible encoding. */
#include "config.h"

#include <stdlib.h>

#include "html_private.h"

static int is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char lower(char c) {
  return (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
}

int xmt_html_name_is(const char *s, size_t n, const char *name) {
  size_t i = 0;
  for (; i < n; i++)
    if (name[i] == '\0' || lower(s[i]) != name[i])
      return 0;
  return name[i] == '\0';
}

int xmt_html_name_lower(const char *s, size_t n, char *buf, size_t cap) {
  if (n >= cap)
    return 0;
  for (size_t i = 0; i < n; i++)
    buf[i] = lower(s[i]);
  buf[n] = '\0';
  return 1;
}

void xmt_html_lexer_init(struct html_lexer *lx) { memset(lx, 0, sizeof *lx); }

void xmt_html_lexer_free(struct html_lexer *lx) {
  free(lx->attrs);
  memset(lx, 0, sizeof *lx);
}

/* Elements whose content is text up to their end tag. */
static const char *const raw_elements[] = {"script",   "style",   "xmp",
                                           "iframe",   "noembed", "noframes",
                                           "textarea", "title",   NULL};

/* Offset of the first c at or after from, or len. */
static size_t find_byte(const char *data, size_t from, size_t len, char c) {
  const char *hit = from < len ? memchr(data + from, c, len - from) : NULL;
  return hit != NULL ? (size_t)(hit - data) : len;
}

/* Offset of the first occurrence of s at or after from, or len. */
static size_t find_str(const char *data, size_t from, size_t len,
                       const char *s) {
  size_t n = strlen(s);
  for (size_t i = from; i + n <= len; i++) {
    i = find_byte(data, i, len, s[0]);
    if (i + n > len)
      break;
    if (memcmp(data + i, s, n) == 0)
      return i;
  }
  return len;
}

/* 1 when data[at, len) starts with s, ASCII case ignored; -1 when it could
 * with more bytes. */
static int starts_with(const char *data, size_t at, size_t len, const char *s) {
  for (size_t i = 0; s[i] != '\0'; i++) {
    if (at + i >= len)
      return -1;
    if (lower(data[at + i]) != lower(s[i]))
      return 0;
  }
  return 1;
}

static int push_attr(struct html_lexer *lx, const char *data,
                     const struct html_attr *a) {
  if (lx->nattrs == lx->attrs_cap) {
    struct html_attr *grown = xmt_grow_array(lx->attrs, &lx->attrs_cap,
                                             lx->nattrs + 1, sizeof *grown);
    if (grown == NULL)
      return -1;
    lx->attrs = grown;
  }
  struct html_attr *t = &lx->attrs[lx->nattrs];
  *t = *a;
  /* Quadratic, so only the first attributes are compared. */
  for (size_t i = 0; i < lx->nattrs && i < 256 && !t->duplicate; i++) {
    const struct html_attr *o = &lx->attrs[i];
    size_t n = o->name_end - o->name;
    if (n != t->name_end - t->name)
      continue;
    size_t k = 0;
    while (k < n && lower(data[o->name + k]) == lower(data[t->name + k]))
      k++;
    t->duplicate = k == n;
  }
  lx->nattrs++;
  return 0;
}

/* Parses the tag at p ('<', then '/' for an end tag): 1 done, 0 cut short
 * by the end of the input, -1 out of memory. */
static int lex_tag(struct html_lexer *lx, const char *data, size_t len,
                   size_t p, struct html_token *tok) {
  size_t q = p + (tok->kind == HTML_END ? 2 : 1);
  tok->name = q;
  while (q < len && !html_is_space(data[q]) && data[q] != '/' && data[q] != '>')
    q++;
  tok->name_end = q;
  lx->nattrs = 0;
  for (;;) {
    while (q < len && (html_is_space(data[q]) || data[q] == '/')) {
      if (data[q] == '/' && q + 1 < len && data[q + 1] == '>')
        tok->self_closing = 1;
      q++;
    }
    if (q >= len)
      return 0;
    if (data[q] == '>') {
      tok->end = q + 1;
      break;
    }
    tok->self_closing = 0; /* only a '/' right before '>' counts */
    struct html_attr a;
    memset(&a, 0, sizeof a);
    a.name = q++; /* the first character may be '=' */
    while (q < len && !html_is_space(data[q]) && data[q] != '/' &&
           data[q] != '>' && data[q] != '=')
      q++;
    a.name_end = q;
    while (q < len && html_is_space(data[q]))
      q++;
    if (q >= len)
      return 0;
    if (data[q] == '=') {
      q++;
      while (q < len && html_is_space(data[q]))
        q++;
      if (q >= len)
        return 0;
      a.has_value = 1;
      if (data[q] == '"' || data[q] == '\'') {
        a.quote = data[q];
        a.value = q + 1;
        a.value_end = find_byte(data, q + 1, len, a.quote);
        if (a.value_end >= len)
          return 0;
        q = a.value_end + 1;
      } else {
        a.value = q;
        while (q < len && !html_is_space(data[q]) && data[q] != '>')
          q++;
        if (q >= len)
          return 0;
        a.value_end = q;
      }
    }
    if (push_attr(lx, data, &a) != 0)
      return -1;
  }
  tok->attrs = lx->attrs;
  tok->nattrs = lx->nattrs;
  return 1;
}

/* End of the text starting at p: the next '<' that starts markup. Returns
 * len with *more set when the input ends before that is known. */
static size_t text_end(const char *data, size_t p, size_t len, int *more) {
  for (size_t q = p;; q++) {
    q = find_byte(data, q, len, '<');
    if (q + 1 >= len) {
      *more = 1;
      return len;
    }
    char c = data[q + 1];
    if (is_alpha(c) || c == '/' || c == '!' || c == '?')
      return q;
  }
}

/* End of raw text starting at p: the '<' of its end tag, or len with *more
 * set when not found yet. */
static size_t raw_text_end(const struct html_lexer *lx, const char *data,
                           size_t p, size_t len, int *more) {
  size_t n = lx->raw_end_len;
  for (size_t q = p;; q++) {
    q = find_byte(data, q, len, '<');
    if (q + 2 + n >= len) { /* the delimiter after the name is needed too */
      *more = 1;
      return len;
    }
    if (data[q + 1] == '/' && xmt_html_name_is(data + q + 2, n, lx->raw_end))
      if (html_is_space(data[q + 2 + n]) || data[q + 2 + n] == '/' ||
          data[q + 2 + n] == '>')
        return q;
  }
}

/* After a start tag: raw text mode for script, style and the like. */
static void enter_content_mode(struct html_lexer *lx, const char *data,
                               const struct html_token *tok) {
  if (tok->self_closing) /* XHTML style <script/>: nothing inside */
    return;
  if (xmt_html_name_is(data + tok->name, tok->name_end - tok->name,
                       "plaintext")) {
    lx->plaintext = 1;
    return;
  }
  for (const char *const *r = raw_elements; *r != NULL; r++)
    if (xmt_html_name_is(data + tok->name, tok->name_end - tok->name, *r)) {
      lx->raw_end_len = strlen(*r);
      memcpy(lx->raw_end, *r, lx->raw_end_len + 1);
      return;
    }
}

/* Markup starting with "<!" at p. */
static int lex_bang(const char *data, size_t p, size_t len, int is_final,
                    struct html_token *tok) {
  int comment = starts_with(data, p, len, "<!--");
  int cdata = starts_with(data, p, len, "<![CDATA[");
  int doctype = starts_with(data, p, len, "<!DOCTYPE");
  if (!is_final && (comment < 0 || cdata < 0 || doctype < 0))
    return 0;
  size_t end;
  if (comment == 1) {
    tok->kind = HTML_COMMENT;
    if (p + 4 < len && data[p + 4] == '>') /* <!--> */
      end = p + 4;
    else if (p + 5 < len && data[p + 4] == '-' && data[p + 5] == '>')
      end = p + 5; /* <!---> */
    else
      end = find_str(data, p + 4, len, "-->") + 2;
  } else if (cdata == 1) {
    tok->kind = HTML_CDATA;
    end = find_str(data, p + 9, len, "]]>") + 2;
  } else {
    tok->kind = doctype == 1 ? HTML_DOCTYPE : HTML_BOGUS;
    end = find_byte(data, p + 2, len, '>');
  }
  if (end >= len) {
    if (!is_final)
      return 0;
    end = len - 1; /* a browser takes the rest as the comment */
  }
  tok->end = end + 1;
  return 1;
}

/* xmt_html_lex on data[0, len), lx->pos an offset into it. */
static int lex(struct html_lexer *lx, const char *data, size_t len,
               int is_final, struct html_token *tok) {
  size_t p = lx->pos;
  memset(tok, 0, sizeof *tok);
  tok->start = p;
  int more = 0;
  if (lx->plaintext) {
    if (!is_final)
      return 0;
    tok->kind = HTML_RAWTEXT;
    tok->end = len;
    lx->pos = len;
    return 1;
  }
  if (lx->raw_end_len > 0) {
    size_t end = raw_text_end(lx, data, p, len, &more);
    if (more && !is_final)
      return 0;
    if (end > p) {
      tok->kind = HTML_RAWTEXT;
      tok->end = end;
      lx->pos = end;
      return 1;
    }
    lx->raw_end_len = 0; /* at the end tag: lex it as markup */
    lx->raw_end[0] = '\0';
  }
  int r = 1;
  if (data[p] != '<' || p + 1 >= len) {
    if (p + 1 >= len && !is_final)
      return 0;
    tok->kind = HTML_TEXT;
    tok->end = data[p] == '<' ? len : text_end(data, p, len, &more);
    if (more && !is_final)
      return 0;
  } else if (data[p + 1] == '!') {
    r = lex_bang(data, p, len, is_final, tok);
  } else if (data[p + 1] == '?') {
    tok->kind = HTML_PI;
    tok->end = find_byte(data, p + 2, len, '>') + 1;
    if (tok->end > len) {
      if (!is_final)
        return 0;
      tok->end = len;
    }
  } else if (data[p + 1] == '/' || is_alpha(data[p + 1])) {
    int end_tag = data[p + 1] == '/';
    if (end_tag && p + 2 >= len && !is_final)
      return 0;
    if (end_tag && (p + 2 >= len || !is_alpha(data[p + 2]))) {
      /* "</>" is dropped, "</3..." is a bogus comment, "</" at the end is
       * text. */
      tok->kind = p + 2 >= len ? HTML_TEXT : HTML_BOGUS;
      tok->end = p + 2 >= len ? len : find_byte(data, p + 2, len, '>') + 1;
      if (tok->end > len) {
        if (!is_final)
          return 0;
        tok->end = len;
      }
    } else {
      tok->kind = end_tag ? HTML_END : HTML_START;
      r = lex_tag(lx, data, len, p, tok);
      if (r == 0 && is_final) { /* a tag cut by the end of the input */
        memset(tok, 0, sizeof *tok);
        tok->kind = HTML_BOGUS;
        tok->start = p;
        tok->end = len;
        r = 1;
      }
    }
  } else { /* "<" not starting markup is text */
    tok->kind = HTML_TEXT;
    tok->end = text_end(data, p + 1, len, &more);
    if (more && !is_final)
      return 0;
  }
  if (r != 1)
    return r;
  lx->pos = tok->end;
  if (tok->kind == HTML_START)
    enter_content_mode(lx, data, tok);
  return 1;
}

int xmt_html_lex(struct html_lexer *lx, struct html_view v, int is_final,
                 struct html_token *tok) {
  if (v.bytes == NULL || lx->pos >= v.len)
    return 0;
  /* lexed in the bytes held, the offsets found made absolute after */
  size_t base = v.base;
  lx->pos -= base;
  int r = lex(lx, v.bytes, v.len - base, is_final, tok);
  lx->pos += base;
  if (r != 1 || base == 0)
    return r;
  tok->start += base;
  tok->end += base;
  if (tok->kind == HTML_START || tok->kind == HTML_END) {
    tok->name += base;
    tok->name_end += base;
  }
  for (size_t i = 0; i < tok->nattrs; i++) {
    lx->attrs[i].name += base;
    lx->attrs[i].name_end += base;
    lx->attrs[i].value += base;
    lx->attrs[i].value_end += base;
  }
  return 1;
}

void xmt_html_push_init(struct html_push_lexer *p) {
  xmt_html_lexer_init(&p->lx);
  memset(&p->data, 0, sizeof p->data);
}

void xmt_html_push_free(struct html_push_lexer *p) {
  xmt_html_lexer_free(&p->lx);
  xmt_buf_free(&p->data);
}

xmt_status xmt_html_push(struct html_push_lexer *p, const char *bytes,
                         size_t len, int is_final, html_token_fn fn,
                         void *user) {
  if (len > 0 && xmt_buf_append(&p->data, bytes, len) != XMT_OK)
    return XMT_ERR_NOMEM;
  struct html_token tok;
  int r;
  while ((r = xmt_html_lex(&p->lx, html_view_of(p->data.data, p->data.len),
                           is_final, &tok)) > 0)
    if (fn(user, p->data.data, &tok) != 0)
      return XMT_ERR_ABORTED;
  return r < 0 ? XMT_ERR_NOMEM : XMT_OK;
}
