/* pseudo.c -- the pseudo backend: a deterministic pseudo-translation
 * (accented vowels, about 30 % longer, bracketed, adjacent words swapped)
 * with its exact word alignment, to exercise tag projection without an MT
 * engine.
 *
 *   "Read the manual now."  ->  "[thé Réád ñów. máñúál ~~~~~~]"
 *
 * Words are runs of non-space characters. Each word keeps its characters
 * (ASCII letters get accents), word pairs 1-2, 3-4, ... swap places
 * (reorder=swap, the default), the padding is one token of '~' as long as
 * expand percent of the text's characters (rounded up), and the brackets
 * are tokens of their own. The alignment links each source word to its
 * image; brackets and padding are unaligned. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends_private.h"

enum reorder { REORDER_SWAP, REORDER_ROTATE, REORDER_NONE };

struct pseudo {
  int accents, brackets;
  int alignment;   /* return the word alignment */
  unsigned expand; /* percent */
  enum reorder reorder;
  struct xmt_buf out, stok, ttok, links;
  size_t *start, *end, *order, cap;
};

/* The accented form of an ASCII letter, or NULL. */
static const char *accent(char c) {
  static const char *const lower[26] = {
      "á",  NULL, "ç",  NULL, "é",  NULL, NULL, NULL, "í",
      NULL, NULL, NULL, NULL, "ñ",  "ó",  NULL, NULL, NULL,
      NULL, NULL, "ú",  NULL, NULL, NULL, "ý",  NULL};
  static const char *const upper[26] = {
      "Á",  NULL, "Ç",  NULL, "É",  NULL, NULL, NULL, "Í",
      NULL, NULL, NULL, NULL, "Ñ",  "Ó",  NULL, NULL, NULL,
      NULL, NULL, "Ú",  NULL, NULL, NULL, "Ý",  NULL};
  if (c >= 'a' && c <= 'z')
    return lower[c - 'a'];
  if (c >= 'A' && c <= 'Z')
    return upper[c - 'A'];
  return NULL;
}

static int space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Finds the words of text into p->start/p->end; returns their number, or
 * (size_t)-1 when out of memory. */
static size_t find_words(struct pseudo *p, const char *text, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    while (i < len && space(text[i]))
      i++;
    if (i == len)
      break;
    if (n == p->cap) {
      size_t cap[3] = {p->cap, p->cap, p->cap}; /* the three grow alike */
      size_t *s = xmt_grow_array(p->start, &cap[0], n + 1, sizeof *s);
      if (s != NULL)
        p->start = s;
      size_t *e = xmt_grow_array(p->end, &cap[1], n + 1, sizeof *e);
      if (e != NULL)
        p->end = e;
      size_t *o = xmt_grow_array(p->order, &cap[2], n + 1, sizeof *o);
      if (o != NULL)
        p->order = o;
      if (s == NULL || e == NULL || o == NULL)
        return (size_t)-1;
      p->cap = cap[0];
    }
    p->start[n] = i;
    while (i < len && !space(text[i]))
      i++;
    p->end[n++] = i;
  }
  return n;
}

/* order[k] = the source word at target position k. */
static void reorder_words(const struct pseudo *p, size_t n) {
  for (size_t k = 0; k < n; k++)
    p->order[k] = k;
  if (p->reorder == REORDER_SWAP) {
    for (size_t k = 0; k + 1 < n; k += 2) {
      p->order[k] = k + 1;
      p->order[k + 1] = k;
    }
  } else if (p->reorder == REORDER_ROTATE && n > 1) {
    p->order[0] = n - 1;
    for (size_t k = 1; k < n; k++)
      p->order[k] = k - 1;
  }
}

/* Appends a word, accented. */
static xmt_status put_word(const struct pseudo *p, struct xmt_buf *b,
                           const char *w, size_t len) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < len; i++) {
    const char *a = p->accents ? accent(w[i]) : NULL;
    st = a != NULL ? xmt_buf_append_str(b, a) : xmt_buf_append_byte(b, w[i]);
  }
  return st;
}

/* Characters (not bytes) of UTF-8 text. */
static size_t chars(const char *s, size_t len) {
  return xmt_utf8_count(s, len);
}

static xmt_status pseudo_one(struct pseudo *p, const struct xmt_mt_request *r,
                             xmt_mt_response *resp) {
  size_t n = find_words(p, r->text, r->len);
  if (n == (size_t)-1)
    return XMT_ERR_NOMEM;
  reorder_words(p, n);
  struct xmt_buf *out = &p->out, *stok = &p->stok, *ttok = &p->ttok;
  xmt_buf_reset(out);
  xmt_buf_reset(stok);
  xmt_buf_reset(ttok);
  xmt_buf_reset(&p->links);
  size_t lead = n > 0 ? p->start[0] : r->len;
  size_t tail = n > 0 ? p->end[n - 1] : r->len;
  size_t t = 0; /* target token index */
  xmt_status st = xmt_buf_append(out, r->text, lead);
  if (st == XMT_OK && p->brackets) {
    st = xmt_buf_append_byte(out, '[');
    if (st == XMT_OK)
      st = xmt_buf_append_byte(ttok, '[');
    t++;
  }
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    size_t w = p->order[k];
    if (k > 0)
      st = xmt_buf_append_byte(out, ' ');
    if (st == XMT_OK && ttok->len > 0)
      st = xmt_buf_append_byte(ttok, ' ');
    if (st == XMT_OK)
      st = put_word(p, out, r->text + p->start[w], p->end[w] - p->start[w]);
    if (st == XMT_OK)
      st = put_word(p, ttok, r->text + p->start[w], p->end[w] - p->start[w]);
    char link[48];
    snprintf(link, sizeof link, "%s%zu-%zu", p->links.len > 0 ? " " : "", w,
             t++);
    if (st == XMT_OK)
      st = xmt_buf_append_str(&p->links, link);
  }
  for (size_t k = 0; st == XMT_OK && k < n; k++) {
    if (k > 0)
      st = xmt_buf_append_byte(stok, ' ');
    if (st == XMT_OK)
      st = xmt_buf_append(stok, r->text + p->start[k], p->end[k] - p->start[k]);
  }
  size_t pad = (chars(r->text + lead, tail - lead) * p->expand + 99) / 100;
  if (st == XMT_OK && pad > 0) {
    st = xmt_buf_append_str(out, n > 0 ? " " : "");
    if (st == XMT_OK && ttok->len > 0)
      st = xmt_buf_append_byte(ttok, ' ');
    for (size_t i = 0; st == XMT_OK && i < pad; i++) {
      st = xmt_buf_append_byte(out, '~');
      if (st == XMT_OK)
        st = xmt_buf_append_byte(ttok, '~');
    }
  }
  if (st == XMT_OK && p->brackets) {
    st = xmt_buf_append_byte(out, ']');
    if (st == XMT_OK)
      st = xmt_buf_append_str(ttok, ttok->len > 0 ? " ]" : "]");
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, r->text + tail, r->len - tail);
  if (st == XMT_OK)
    st = xmt_mt_response_set_text(resp, out->data != NULL ? out->data : "",
                                  out->len);
  if (st == XMT_OK && n > 0 && p->alignment)
    st = xmt_mt_response_set_alignment(resp, p->links.data, stok->data,
                                       ttok->data);
  return st;
}

static void pseudo_close(void *state) {
  struct pseudo *p = state;
  if (p == NULL)
    return;
  xmt_buf_free(&p->out);
  xmt_buf_free(&p->stok);
  xmt_buf_free(&p->ttok);
  xmt_buf_free(&p->links);
  free(p->start);
  free(p->end);
  free(p->order);
  free(p);
}

static int flag(const struct xmt_backend_config *c, const char *key, int *value,
                char *errbuf, size_t errlen) {
  const char *v = xmt_backend_option(c, key);
  if (v == NULL)
    return 0;
  if (strcmp(v, "0") == 0 || strcmp(v, "no") == 0) {
    *value = 0;
  } else if (strcmp(v, "1") == 0 || strcmp(v, "yes") == 0) {
    *value = 1;
  } else {
    snprintf(errbuf, errlen, "pseudo backend: %s is yes or no, not '%.32s'",
             key, v);
    return 1;
  }
  return 0;
}

static int pseudo_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)user;
  static const char *const known[] = {"accents", "brackets",  "expand",
                                      "reorder", "alignment", NULL};
  if (config->spec != NULL && *config->spec != '\0') {
    snprintf(errbuf, errlen,
             "the pseudo backend takes --mt-option settings, not '%.64s'",
             config->spec);
    return 1;
  }
  if (xmt_backend_check_options(config, "pseudo", known, errbuf, errlen))
    return 1;
  struct pseudo *p = xmt_backend_state_new(sizeof *p, errbuf, errlen);
  if (p == NULL)
    return 1;
  p->accents = p->brackets = p->alignment = 1;
  p->expand = 30;
  const char *r = xmt_backend_option(config, "reorder");
  if (r == NULL || strcmp(r, "swap") == 0) {
    p->reorder = REORDER_SWAP;
  } else if (strcmp(r, "rotate") == 0) {
    p->reorder = REORDER_ROTATE;
  } else if (strcmp(r, "none") == 0) {
    p->reorder = REORDER_NONE;
  } else {
    snprintf(errbuf, errlen,
             "pseudo backend: reorder is swap, rotate or none, not '%.32s'", r);
    pseudo_close(p);
    return 1;
  }
  if (flag(config, "accents", &p->accents, errbuf, errlen) != 0 ||
      flag(config, "brackets", &p->brackets, errbuf, errlen) != 0 ||
      flag(config, "alignment", &p->alignment, errbuf, errlen) != 0 ||
      xmt_backend_option_uint(config, "pseudo", "expand", 0, 1000, &p->expand,
                              errbuf, errlen) != 0) {
    pseudo_close(p);
    return 1;
  }
  *state = p;
  return 0;
}

static int pseudo_translate(void *state, const struct xmt_mt_request *requests,
                            xmt_mt_response *const *responses, size_t n) {
  for (size_t i = 0; i < n; i++) {
    xmt_status st = pseudo_one(state, &requests[i], responses[i]);
    if (st == XMT_ERR_NOMEM)
      xmt_mt_response_out_of_memory(responses[i]);
    if (st != XMT_OK)
      return 1;
  }
  return 0;
}

const struct xmt_backend xmt_backend_pseudo = {
    XMT_BACKEND_ABI_VERSION, "pseudo",     pseudo_open,
    pseudo_translate,        pseudo_close, NULL};
