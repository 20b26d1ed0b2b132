/* unit_sub.c -- the sub-flows of a trans-unit: the text of an XLIFF 1.2
 * <sub> inside a code (an image's alt text in a <ph>), translated as a
 * segment of its own and written back inside the same <sub> of the
 * target's copy of the code.
 *
 * Why this shape: a code reaches the pipeline as one tag whose markup is
 * copied to the target as it is, and the segmenter may replace the
 * unit's segments; so a sub-flow is kept beside them, asked for as
 * segment nsegs + k, and its translation put into the codes' markup of
 * the targets once they are placed. Nothing else (projection, writer,
 * shapes) needs to know. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "xliff_private.h"

/* The next <sub> element of markup from *at with content: its content
 * [*start, *end) and the end of its end tag in *after; 0 when none. */
static int next_sub(const char *m, size_t len, const char *prefix, size_t *at,
                    size_t *start, size_t *end, size_t *after) {
  size_t plen = strlen(prefix);
  for (size_t i = *at; i + plen + 4 < len; i++) {
    if (m[i] != '<' || memcmp(m + i + 1, prefix, plen) != 0 ||
        memcmp(m + i + 1 + plen, "sub", 3) != 0)
      continue;
    char c = m[i + 4 + plen];
    if (c != '>' && c != ' ' && c != '\t' && c != '\r' && c != '\n')
      continue;
    size_t k = i + 4 + plen;
    char quote = 0;
    for (; k < len && (quote != 0 || m[k] != '>'); k++)
      if (quote == 0 && (m[k] == '"' || m[k] == '\''))
        quote = m[k];
      else if (quote != 0 && m[k] == quote)
        quote = 0;
    if (k >= len || m[k - 1] == '/') {
      *at = k;
      return next_sub(m, len, prefix, at, start, end, after);
    }
    /* its end tag, past the subs inside it */
    int depth = 1;
    for (size_t e = k + 1; e + plen + 5 < len + 1; e++) {
      if (m[e] != '<')
        continue;
      int closing = m[e + 1] == '/';
      size_t n = e + 1 + (size_t)closing;
      if (n + plen + 3 > len || memcmp(m + n, prefix, plen) != 0 ||
          memcmp(m + n + plen, "sub", 3) != 0)
        continue;
      char d = n + plen + 3 < len ? m[n + plen + 3] : 0;
      if (closing && d == '>' && --depth == 0) {
        *start = k + 1;
        *end = e;
        *after = *at = n + plen + 4;
        return 1;
      }
      if (!closing && (d == ' ' || d == '>'))
        depth++;
    }
    return 0;
  }
  return 0;
}

/* 1 when some text of seg, or of a sub inside one of its codes, is more
 * than white space. */
static int has_text(const xmt_segment *seg, const char *prefix, int depth) {
  size_t len;
  const char *text = xmt_segment_text(seg, &len);
  for (size_t i = 0; i < len; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
      return 1;
  for (size_t t = 0; depth < 8 && t < xmt_segment_tag_count(seg); t++) {
    struct xmt_tag tag;
    size_t at = 0, s, e, after;
    if (xmt_segment_tag(seg, t, &tag) != XMT_OK)
      return 1;
    while (next_sub(tag.markup, tag.markup_len, prefix, &at, &s, &e, &after)) {
      xmt_segment *in = xmt_segment_new();
      int yes =
          in == NULL ||
          xmt_xliff_inline_parse(in, tag.markup + s, e - s, NULL) != XMT_OK ||
          has_text(in, prefix, depth + 1);
      xmt_segment_free(in);
      if (yes)
        return 1;
    }
  }
  return depth >= 8;
}

static struct xmt_unit_sub *find_sub(const xmt_xliff_unit *u, const char *c,
                                     size_t len) {
  for (size_t k = 0; k < u->nsubs; k++)
    if (u->subs[k].content_len == len &&
        memcmp(u->subs[k].content, c, len) == 0)
      return &u->subs[k];
  return NULL;
}

/* 1 when a code of seg holds a <sub> that does not parse alone or has
 * text: it would stay untranslated inside the sub-flow's translation. */
static int holds_sub_text(const xmt_segment *seg, const char *prefix) {
  for (size_t t = 0; t < xmt_segment_tag_count(seg); t++) {
    struct xmt_tag tag;
    size_t at = 0, s, e, after;
    if (xmt_segment_tag(seg, t, &tag) != XMT_OK)
      return 1;
    while (next_sub(tag.markup, tag.markup_len, prefix, &at, &s, &e, &after)) {
      xmt_segment *in = xmt_segment_new();
      int yes =
          in == NULL ||
          xmt_xliff_inline_parse(in, tag.markup + s, e - s, NULL) != XMT_OK ||
          has_text(in, prefix, 1);
      xmt_segment_free(in);
      if (yes)
        return 1;
    }
  }
  return 0;
}

xmt_status xmt_unit_add_sub(xmt_xliff_unit *u, const char *content,
                            size_t len) {
  if (find_sub(u, content, len) != NULL)
    return XMT_OK;
  xmt_segment *seg = xmt_segment_new();
  if (seg == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = xmt_xliff_inline_parse(seg, content, len, NULL);
  if (st == XMT_ERR_NOMEM) {
    xmt_segment_free(seg);
    return st;
  }
  /* One that does not parse alone, or that holds a sub with text of its
   * own: the unit is refused, as before sub-flows were translated. */
  if (st != XMT_OK || holds_sub_text(seg, u->prefix != NULL ? u->prefix : "")) {
    u->sub_text = 1;
    xmt_segment_free(seg);
    return XMT_OK;
  }
  struct xmt_unit_sub *subs =
      xmt_grow_array(u->subs, &u->subs_cap, u->nsubs + 1, sizeof *subs);
  char *copy = malloc(len + 1);
  if (subs == NULL || copy == NULL) {
    free(copy);
    xmt_segment_free(seg);
    if (subs != NULL)
      u->subs = subs;
    return XMT_ERR_NOMEM;
  }
  u->subs = subs;
  memcpy(copy, content, len);
  copy[len] = '\0';
  struct xmt_unit_sub *sub = &subs[u->nsubs++];
  sub->content = copy;
  sub->content_len = len;
  sub->source = seg;
  sub->target = NULL;
  return XMT_OK;
}

void xmt_unit_free_subs(xmt_xliff_unit *u) {
  for (size_t k = 0; k < u->nsubs; k++) {
    xmt_unit_drop_sub_target(u, k);
    xmt_segment_free(u->subs[k].source);
    free(u->subs[k].content);
  }
  free(u->subs);
  u->subs = NULL;
  u->nsubs = u->subs_cap = 0;
}

void xmt_unit_drop_sub_target(xmt_xliff_unit *u, size_t k) {
  struct xmt_unit_sub *s = &u->subs[k];
  if (s->target != s->source)
    xmt_segment_free(s->target);
  s->target = NULL;
}

xmt_status xmt_unit_set_sub_target(xmt_xliff_unit *u, size_t k,
                                   const xmt_segment *target) {
  struct xmt_unit_sub *s = &u->subs[k];
  return xmt_unit_keep_target(&s->target, s->source, target);
}

size_t xmt_unit_sub_count(const xmt_xliff_unit *u) { return u->nsubs; }

int xmt_unit_subs_translated(const xmt_xliff_unit *u) {
  for (size_t k = 0; k < u->nsubs; k++)
    if (u->subs[k].target == NULL)
      return 0;
  return 1;
}

/* The markup of a code with each sub-flow's translation in its <sub>,
 * into out; 0 when it holds none that changed. */
static xmt_status put_in_markup(const xmt_xliff_unit *u, const char *m,
                                size_t len, struct xmt_buf *out, int *changed) {
  const char *prefix = u->prefix != NULL ? u->prefix : "";
  size_t at = 0, from = 0, s, e, after;
  xmt_status st = XMT_OK;
  *changed = 0;
  xmt_buf_reset(out);
  while (st == XMT_OK && next_sub(m, len, prefix, &at, &s, &e, &after)) {
    const struct xmt_unit_sub *sub = find_sub(u, m + s, e - s);
    if (sub == NULL || sub->target == NULL || sub->target == sub->source)
      continue;
    st = xmt_buf_append(out, m + from, s - from);
    if (st == XMT_OK)
      st = xmt_inline_render_into(out, sub->target);
    from = e;
    *changed = 1;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, m + from, len - from);
  return st;
}

/* seg again, its codes' subs translated, into *out (made when one
 * changed, else left NULL). */
static xmt_status put_in_segment(const xmt_xliff_unit *u,
                                 const xmt_segment *seg, xmt_segment **out) {
  struct xmt_buf markup = {0};
  size_t len, at = 0, n = xmt_segment_tag_count(seg);
  const char *text = xmt_segment_text(seg, &len);
  xmt_status st = XMT_OK;
  int any = 0;
  for (size_t t = 0; st == XMT_OK && !any && t < n; t++) {
    struct xmt_tag tag;
    st = xmt_segment_tag(seg, t, &tag);
    if (st == XMT_OK)
      st = put_in_markup(u, tag.markup, tag.markup_len, &markup, &any);
  }
  xmt_segment *made = NULL;
  if (st == XMT_OK && any && (made = xmt_segment_new()) == NULL)
    st = XMT_ERR_NOMEM;
  for (size_t t = 0; st == XMT_OK && made != NULL && t < n; t++) {
    struct xmt_tag tag;
    int changed = 0;
    st = xmt_segment_tag(seg, t, &tag);
    if (st == XMT_OK)
      st = put_in_markup(u, tag.markup, tag.markup_len, &markup, &changed);
    if (st == XMT_OK && tag.offset > at)
      st = xmt_segment_append_text(made, text + at, tag.offset - at);
    at = tag.offset > at ? tag.offset : at;
    if (st == XMT_OK)
      st = xmt_segment_append_tag(made, tag.kind, tag.id, tag.name,
                                  changed ? markup.data : tag.markup,
                                  changed ? markup.len : tag.markup_len);
  }
  if (st == XMT_OK && made != NULL && len > at)
    st = xmt_segment_append_text(made, text + at, len - at);
  xmt_buf_free(&markup);
  if (st != XMT_OK) {
    xmt_segment_free(made);
    return st;
  }
  *out = made;
  return XMT_OK;
}

const xmt_segment *xmt_unit_target_gap(const xmt_xliff_unit *u, size_t i) {
  return u->target_gaps != NULL && u->target_gaps[i] != NULL ? u->target_gaps[i]
                                                             : u->gaps[i];
}

void xmt_unit_free_target_gaps(xmt_xliff_unit *u) {
  for (size_t i = 0; u->target_gaps != NULL && i < u->ngaps; i++)
    xmt_segment_free(u->target_gaps[i]);
  free(u->target_gaps);
  u->target_gaps = NULL;
}

/* The gaps a segmenter left between sentences may hold a code with a
 * sub-flow too: the target writes them with its translation. */
static xmt_status put_in_gaps(xmt_xliff_unit *u) {
  xmt_unit_free_target_gaps(u);
  for (size_t i = 0; u->gaps != NULL && i < u->ngaps; i++) {
    xmt_segment *made = NULL;
    xmt_status st = put_in_segment(u, u->gaps[i], &made);
    if (st == XMT_OK && made != NULL && u->target_gaps == NULL &&
        (u->target_gaps = calloc(u->ngaps, sizeof *u->target_gaps)) == NULL)
      st = XMT_ERR_NOMEM;
    if (st != XMT_OK) {
      xmt_segment_free(made);
      return st;
    }
    if (made != NULL)
      u->target_gaps[i] = made;
  }
  return XMT_OK;
}

xmt_status xmt_unit_put_subs(xmt_xliff_unit *u) {
  xmt_status gaps = put_in_gaps(u);
  if (gaps != XMT_OK)
    return gaps;
  for (size_t i = 0; i < u->nsegs; i++) {
    struct xmt_unit_segment *s = &u->segs[i];
    xmt_segment *made = NULL;
    if (s->target == NULL)
      continue;
    xmt_status st = put_in_segment(u, s->target, &made);
    if (st != XMT_OK)
      return st;
    if (made == NULL)
      continue;
    if (s->target != s->source)
      xmt_segment_free(s->target);
    s->target = made;
  }
  return XMT_OK;
}
