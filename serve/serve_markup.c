/* serve_markup.c -- xliffmt serve: the markup of a request's text. XML
 * inline markup becomes a segment whose codes keep their markup as
 * written, cut where DeepL's splitting_tags say, an element of
 * ignore_tags kept whole as one code; in an HTML fragment such an element
 * is marked translate="no" for the page's translation, and unmarked in
 * its answer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"

/* The marker element an ignored element stands as while parsing. */
#define IGNORED "xliffmt-ignored"

/* The end of the markup construct that starts at s[i] == '<' (a tag with
 * quoted attributes, a comment, CDATA, a processing instruction), or 0. */
static size_t construct_end(const char *s, size_t len, size_t i) {
  static const struct {
    const char *open, *close;
  } kinds[] = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    size_t ol = strlen(kinds[k].open);
    if (len - i >= ol && memcmp(s + i, kinds[k].open, ol) == 0) {
      for (size_t j = i + ol; j + strlen(kinds[k].close) <= len; j++)
        if (memcmp(s + j, kinds[k].close, strlen(kinds[k].close)) == 0)
          return j + strlen(kinds[k].close);
      return 0;
    }
  }
  char quote = 0;
  for (size_t j = i + 1; j < len; j++) {
    if (quote != 0) {
      if (s[j] == quote)
        quote = 0;
    } else if (s[j] == '"' || s[j] == '\'') {
      quote = s[j];
    } else if (s[j] == '>') {
      return j + 1;
    }
  }
  return 0;
}

/* The element name of the tag at s[i..end), after "<" or "</". */
static int tag_is(const char *s, size_t i, size_t end, const char *name,
                  int closing) {
  size_t at = i + 1 + (closing != 0);
  size_t n = strlen(name);
  if (closing != (s[i + 1] == '/') || at + n > end ||
      memcmp(s + at, name, n) != 0)
    return 0;
  char c = s[at + n];
  return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' ||
         c == '\r';
}

/* The end of the element whose start tag is s[i..tag_end), elements of
 * the same name nested inside counted, or 0 when it does not end. */
static size_t element_end(const char *s, size_t len, size_t i, size_t tag_end,
                          const char *name) {
  if (s[tag_end - 2] == '/')
    return tag_end; /* <name/> */
  int depth = 1;
  for (size_t j = tag_end; j < len; j++) {
    if (s[j] != '<')
      continue;
    size_t e = construct_end(s, len, j);
    if (e == 0)
      return 0;
    if (tag_is(s, j, e, name, 0) && s[e - 2] != '/')
      depth++;
    else if (tag_is(s, j, e, name, 1) && --depth == 0)
      return e;
    j = e - 1;
  }
  (void)i;
  return 0;
}

/* Replaces each element of the ignore list by <IGNORED id="xi-K"/> in a
 * copy of the markup; spans[K] gets where it was. NULL when out of
 * memory. */
static char *hide_ignored(const struct serve_job *job, const char *s,
                          size_t len, struct xmt_span **spans, size_t *n,
                          size_t *out_len) {
  char *buf = NULL;
  size_t size = 0, cap = 0;
  FILE *fp = open_memstream(&buf, &size);
  if (fp == NULL)
    return NULL;
  size_t from = 0;
  *n = 0;
  *spans = NULL;
  /* A name whose element once ran to the end of the text unclosed is not
   * looked for again: each search would run to the end too. */
  char unclosed[SERVE_MAX_NAMES] = {0};
  for (size_t i = 0; i < len; i++) {
    size_t e;
    if (s[i] != '<' || (e = construct_end(s, len, i)) == 0)
      continue;
    size_t end = 0;
    for (size_t k = 0; end == 0 && k < job->opt.nignore; k++) {
      if ((k < SERVE_MAX_NAMES && unclosed[k]) ||
          !tag_is(s, i, e, job->opt.ignore[k], 0))
        continue;
      end = element_end(s, len, i, e, job->opt.ignore[k]);
      if (end == 0 && k < SERVE_MAX_NAMES)
        unclosed[k] = 1;
    }
    if (end == 0) {
      i = e - 1;
      continue;
    }
    struct xmt_span *v = xmt_grow_array(*spans, &cap, *n + 1, sizeof *v);
    if (v == NULL)
      break;
    *spans = v;
    v[*n].start = i;
    v[*n].end = end;
    fwrite(s + from, 1, i - from, fp);
    fprintf(fp, "<" IGNORED " id=\"xi-%zu\"/>", (*n)++);
    from = end;
    i = end - 1;
  }
  fwrite(s + from, 1, len - from, fp);
  if (fclose(fp) != 0) {
    free(buf);
    return NULL;
  }
  *out_len = size;
  return buf;
}

/* The index of an ignored element's marker tag, or -1. */
static long ignored_index(const struct xmt_tag *tag, size_t n) {
  if (tag->kind != XMT_TAG_PLACEHOLDER || strcmp(tag->name, IGNORED) != 0 ||
      tag->id == NULL || strncmp(tag->id, "xi-", 3) != 0)
    return -1;
  char *end;
  unsigned long k = strtoul(tag->id + 3, &end, 10);
  return *end == '\0' && k < n ? (long)k : -1;
}

/* The piece of text each tag goes with when the text is cut at the
 * splitting elements: pieces[i] for tag i, cut[i] 1 for a splitting tag
 * itself (written as it is between pieces). */
static void cut_pieces(const struct serve_job *job, const xmt_segment *seg,
                       size_t *pieces, int *cut) {
  size_t n = xmt_segment_tag_count(seg), piece = 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(seg, i, &tag);
    cut[i] = 0;
    for (size_t k = 0; k < job->opt.nsplitting; k++)
      if (strcmp(tag.name, job->opt.splitting[k]) == 0)
        cut[i] = 1;
    if (cut[i])
      piece++;
    pieces[i] = piece;
  }
}

/* partner[i]: the other tag of the pair tag i belongs to, or n. The
 * parsed markup is well-formed, so a stack pairs them in one pass. */
static void pair_tags(const xmt_segment *seg, size_t n, size_t *partner,
                      size_t *stack) {
  size_t depth = 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag tag, top;
    xmt_segment_tag(seg, i, &tag);
    partner[i] = n;
    if (tag.kind == XMT_TAG_OPEN) {
      stack[depth++] = i;
    } else if (tag.kind == XMT_TAG_CLOSE && depth > 0) {
      xmt_segment_tag(seg, stack[depth - 1], &top);
      if (top.id != NULL && tag.id != NULL && strcmp(top.id, tag.id) == 0) {
        partner[i] = stack[--depth];
        partner[partner[i]] = i;
      }
    }
  }
}

/* The kind tag i keeps in its piece: a pair cut apart becomes two
 * isolated codes, as segmentation does. */
static enum xmt_tag_kind piece_kind(const xmt_segment *seg, size_t i,
                                    const size_t *pieces, const size_t *partner,
                                    size_t n) {
  struct xmt_tag tag;
  xmt_segment_tag(seg, i, &tag);
  if ((tag.kind != XMT_TAG_OPEN && tag.kind != XMT_TAG_CLOSE) ||
      partner[i] == n || pieces[partner[i]] == pieces[i])
    return tag.kind;
  return tag.kind == XMT_TAG_OPEN ? XMT_TAG_ISOLATED_OPEN
                                  : XMT_TAG_ISOLATED_CLOSE;
}

/* Ends the piece being built: a segment to translate, or, with nothing
 * to translate, its markup as a literal. */
static int end_piece(struct serve_text *t, xmt_segment **piece) {
  if (*piece == NULL)
    return 1;
  size_t len;
  const char *text = xmt_segment_text(*piece, &len);
  if (!serve_text_blank(text, len)) {
    struct serve_part *p = serve_text_add_part(t);
    if (p == NULL)
      return 0;
    p->seg = *piece;
    *piece = NULL;
    return 1;
  }
  char *buf = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&buf, &size);
  if (fp == NULL)
    return 0;
  serve_text_write_segment(fp, *piece, SERVE_XML);
  xmt_segment_free(*piece);
  *piece = NULL;
  if (fclose(fp) != 0) {
    free(buf);
    return 0;
  }
  return serve_text_add_literal(t, buf, size, buf);
}

/* The parsed segment cut into parts: at each splitting element, and each
 * ignored element back as one code whose markup is the element as it was
 * written (spans[K] of text). */
static int split_xml(struct serve_job *job, struct serve_text *t,
                     const xmt_segment *parsed, const struct xmt_span *spans,
                     size_t nspans) {
  size_t n = xmt_segment_tag_count(parsed), len, pos = 0;
  const char *text = xmt_segment_text(parsed, &len);
  size_t *pieces = calloc(3 * (n + 1), sizeof *pieces);
  size_t *partner = pieces + n + 1, *stack = partner + n + 1;
  int *cut = calloc(n + 1, sizeof *cut), ok = pieces != NULL && cut != NULL;
  if (ok) {
    cut_pieces(job, parsed, pieces, cut);
    pair_tags(parsed, n, partner, stack);
  }
  xmt_segment *piece = NULL;
  for (size_t i = 0; ok && i <= n; i++) {
    struct xmt_tag tag;
    memset(&tag, 0, sizeof tag);
    if (i < n && xmt_segment_tag(parsed, i, &tag) != XMT_OK) {
      ok = 0;
      break;
    }
    size_t off = i < n ? tag.offset : len;
    if (off > pos || (i < n && !cut[i])) {
      ok = piece != NULL || (piece = xmt_segment_new()) != NULL;
      if (ok && off > pos)
        ok = xmt_segment_append_text(piece, text + pos, off - pos) == XMT_OK;
      pos = off;
    }
    if (!ok || i == n)
      break;
    long k = ignored_index(&tag, nspans);
    if (cut[i]) {
      /* A splitting element: written as it is, between two pieces. */
      ok = end_piece(t, &piece) &&
           serve_text_add_copy(t, tag.markup, tag.markup_len);
    } else if (k >= 0) {
      ok = xmt_segment_append_tag(piece, XMT_TAG_PLACEHOLDER, tag.id, IGNORED,
                                  t->in + spans[k].start,
                                  spans[k].end - spans[k].start) == XMT_OK;
    } else {
      ok = xmt_segment_append_tag(
               piece, piece_kind(parsed, i, pieces, partner, n), tag.id,
               tag.name, tag.markup, tag.markup_len) == XMT_OK;
    }
  }
  ok = ok && end_piece(t, &piece);
  xmt_segment_free(piece);
  free(pieces);
  free(cut);
  return ok;
}

int serve_markup_xml(struct serve_job *job, struct serve_text *t) {
  struct xmt_span *spans = NULL;
  size_t nspans = 0, len = t->in_len;
  char *hidden = NULL;
  if (job->opt.nignore > 0 &&
      (hidden = hide_ignored(job, t->in, t->in_len, &spans, &nspans, &len)) ==
          NULL)
    return 0;
  xmt_segment *parsed = xmt_segment_new();
  unsigned long column = 0;
  xmt_status st = parsed == NULL ? XMT_ERR_NOMEM
                                 : xmt_xliff_inline_parse_generic(
                                       parsed, hidden != NULL ? hidden : t->in,
                                       len, &column);
  int ok = st == XMT_OK && split_xml(job, t, parsed, spans, nspans);
  if (st != XMT_OK && st != XMT_ERR_NOMEM) {
    job->bad_input = 1;
    snprintf(job->message, sizeof job->message,
             st == XMT_ERR_ENCODING ? "text is not UTF-8"
                                    : "malformed XML markup in the text "
                                      "(column %lu)",
             column);
  }
  xmt_segment_free(parsed);
  free(hidden);
  free(spans);
  return ok;
}

/* --- HTML --------------------------------------------------------------------
 */

/* What an ignored element's start tag gets: translate="no" keeps the
 * element and its content as they are (one code when inline). */
#define HTML_MARK " translate=\"no\" data-xliffmt-ignored"

/* 1 when the tag at s[i..end) is a start tag of name, in any case. */
static int html_start_is(const char *s, size_t i, size_t end,
                         const char *name) {
  size_t n = strlen(name);
  if (i + 1 + n >= end || strncasecmp(s + i + 1, name, n) != 0)
    return 0;
  char c = s[i + 1 + n];
  return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' ||
         c == '\r' || c == '\f';
}

int serve_markup_html(struct serve_job *job, struct serve_text *t) {
  if (job->opt.nignore == 0)
    return 1;
  const char *s = t->in;
  size_t len = t->in_len, from = 0;
  char *buf = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&buf, &size);
  if (fp == NULL)
    return 0;
  for (size_t i = 0; i < len; i++) {
    size_t e;
    if (s[i] != '<' || (e = construct_end(s, len, i)) == 0)
      continue;
    for (size_t k = 0; k < job->opt.nignore; k++)
      if (html_start_is(s, i, e, job->opt.ignore[k])) {
        size_t at = i + 1 + strlen(job->opt.ignore[k]);
        fwrite(s + from, 1, at - from, fp);
        fputs(HTML_MARK, fp);
        from = at;
        break;
      }
    i = e - 1;
  }
  fwrite(s + from, 1, len - from, fp);
  if (fclose(fp) != 0) {
    free(buf);
    return 0;
  }
  t->marked = buf;
  t->marked_len = size;
  return 1;
}

void serve_markup_unmark(struct serve_text *t) {
  size_t n = strlen(HTML_MARK), k = 0;
  for (size_t i = 0; i < t->out_len;) {
    if (t->out_len - i >= n && memcmp(t->out + i, HTML_MARK, n) == 0) {
      i += n;
      continue;
    }
    t->out[k++] = t->out[i++];
  }
  t->out_len = k;
  t->out[k] = '\0';
}
