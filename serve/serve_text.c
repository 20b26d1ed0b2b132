/* serve_text.c -- xliffmt serve: a request's texts to segments and back.
 *
 * Plain text goes to the engine as it is, one segment per line when the
 * API splits at newlines; text with XML inline markup is parsed into a
 * segment whose codes keep their markup, and written back with its text
 * escaped and each code as it was; an HTML fragment is translated as a
 * page. The segments of all a request's texts go to the filter in one
 * call, so they are batched and deduplicated together. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* 1 when c after '<' starts a tag. */
static int tag_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '/' || c == '!' || c == '?';
}

int serve_text_has_tags(const char *text, size_t len) {
  for (const char *p = memchr(text, '<', len); p != NULL;
       p = memchr(p + 1, '<', len - (size_t)(p + 1 - text))) {
    if (p + 1 == text + len)
      return 0;
    if (tag_start(p[1]))
      return 1;
  }
  return 0;
}

int serve_text_blank(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' &&
        s[i] != '\f' && s[i] != '\v')
      return 0;
  return 1;
}

struct serve_part *serve_text_add_part(struct serve_text *t) {
  struct serve_part *v =
      xmt_grow_array(t->parts, &t->cap, t->nparts + 1, sizeof *v);
  if (v == NULL)
    return NULL;
  t->parts = v;
  memset(&v[t->nparts], 0, sizeof v[t->nparts]);
  return &v[t->nparts++];
}

int serve_text_add_literal(struct serve_text *t, const char *bytes, size_t len,
                           char *own) {
  struct serve_part *p = serve_text_add_part(t);
  if (p == NULL) {
    free(own);
    return 0;
  }
  p->bytes = own != NULL ? own : bytes;
  p->own = own;
  p->len = len;
  return 1;
}

int serve_text_add_copy(struct serve_text *t, const char *bytes, size_t len) {
  char *own = xmt_memdup(bytes, len);
  if (own == NULL)
    return 0;
  return serve_text_add_literal(t, own, len, own);
}

/* A segment of plain text, or a literal when it has nothing to say. */
static int add_plain(struct serve_text *t, const char *s, size_t len) {
  if (serve_text_blank(s, len))
    return serve_text_add_literal(t, s, len, NULL);
  struct serve_part *p = serve_text_add_part(t);
  if (p == NULL || (p->seg = xmt_segment_new()) == NULL)
    return 0;
  return xmt_segment_append_text(p->seg, s, len) == XMT_OK;
}

/* Plain text: each line a segment of its own, or the whole text. */
static int prepare_plain(struct serve_job *job, struct serve_text *t) {
  const char *s = t->in, *end = t->in + t->in_len;
  int ok = 1;
  while (ok && s < end) {
    const char *nl =
        job->opt.split_lines ? memchr(s, '\n', (size_t)(end - s)) : NULL;
    const char *line_end = nl != NULL ? nl : end;
    ok = add_plain(t, s, (size_t)(line_end - s));
    if (ok && nl != NULL)
      ok = serve_text_add_literal(t, nl, 1, NULL);
    s = nl != NULL ? nl + 1 : end;
  }
  if (!ok) {
    job->bad_input = 1;
    snprintf(job->message, sizeof job->message, "text is not UTF-8");
  }
  return ok;
}

/* --- Writing segments ------------------------------------------------------
 */

static void write_escaped(FILE *fp, const char *s, size_t len) {
  size_t from = 0;
  for (size_t i = 0; i < len; i++) {
    const char *e = s[i] == '&'   ? "&amp;"
                    : s[i] == '<' ? "&lt;"
                    : s[i] == '>' ? "&gt;"
                                  : NULL;
    if (e == NULL)
      continue;
    fwrite(s + from, 1, i - from, fp);
    fputs(e, fp);
    from = i + 1;
  }
  fwrite(s + from, 1, len - from, fp);
}

/* seg's text, escaped when markup is XML, with each code's markup. */
void serve_text_write_segment(FILE *fp, const xmt_segment *seg,
                              enum serve_markup markup) {
  size_t len, pos = 0, n = xmt_segment_tag_count(seg);
  const char *text = xmt_segment_text(seg, &len);
  for (size_t i = 0; i <= n; i++) {
    struct xmt_tag tag;
    size_t off = len;
    if (i < n && xmt_segment_tag(seg, i, &tag) == XMT_OK)
      off = tag.offset;
    if (off > pos) {
      if (markup == SERVE_XML)
        write_escaped(fp, text + pos, off - pos);
      else
        fwrite(text + pos, 1, off - pos, fp);
      pos = off;
    }
    if (i < n)
      fwrite(tag.markup, 1, tag.markup_len, fp);
  }
}

/* The offset of the first byte of s that is not part of a valid UTF-8
 * character (overlongs, surrogates and code points past U+10FFFF are
 * not), or len. */
static size_t utf8_invalid(const char *str, size_t len) {
  return xmt_utf8_valid_prefix(str, len);
}

/* The number of tags (and comments, CDATA, declarations) in a text. */
static size_t count_tags(const char *s, size_t len) {
  size_t n = 0;
  for (const char *p = memchr(s, '<', len); p != NULL && p + 1 < s + len;
       p = memchr(p + 1, '<', len - (size_t)(p + 1 - s)))
    n += tag_start(p[1]);
  return n;
}

/* The offset of the first character XML cannot carry in s (valid UTF-8)
 * but NUL: a C0 control other than tab, newline and carriage return,
 * U+FFFE, U+FFFF; len when none. Its code point in *cp. */
static size_t xml_forbidden(const char *s, size_t len, unsigned *cp) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < len; i++) {
    if (u[i] > 0 && u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' &&
        u[i] != '\r') {
      *cp = u[i];
      return i;
    }
    if (u[i] == 0xEF && i + 2 < len && u[i + 1] == 0xBF &&
        (u[i + 2] == 0xBE || u[i + 2] == 0xBF)) {
      *cp = u[i + 2] == 0xBE ? 0xFFFE : 0xFFFF;
      return i;
    }
  }
  return len;
}

/* Refuses a text no markup reader should see: NUL bytes, bytes that are
 * not UTF-8 (every API takes UTF-8 only), characters XML cannot carry
 * (the engine's answer would come back without them, words joined), and
 * more tags than the limit, whose handling grows with their number. 1
 * when it is none of those. */
static int check_text(struct serve_job *job, const struct serve_text *t) {
  size_t bad = utf8_invalid(t->in, t->in_len);
  const char *z = memchr(t->in, '\0', t->in_len);
  size_t nul = z != NULL ? (size_t)(z - t->in) : t->in_len;
  size_t k = (size_t)(t - job->texts) + 1, tags = 0, ctl;
  unsigned cp = 0;
  job->refused = 400;
  job->bad_input = 1;
  if (nul < t->in_len && nul <= bad)
    snprintf(job->message, sizeof job->message,
             "text %zu has a NUL byte (byte %zu)", k, nul + 1);
  else if (bad < t->in_len)
    snprintf(job->message, sizeof job->message,
             "text %zu is not valid UTF-8 (byte %zu: 0x%02X)", k, bad + 1,
             (unsigned)(unsigned char)t->in[bad]);
  else if ((ctl = xml_forbidden(t->in, t->in_len, &cp)) < t->in_len)
    snprintf(job->message, sizeof job->message,
             "text %zu has a character XML cannot carry (byte %zu: U+%04X)", k,
             ctl + 1, cp);
  else if (t->markup != SERVE_PLAIN &&
           (tags = count_tags(t->in, t->in_len)) > SERVE_MAX_TAGS) {
    job->refused = 413;
    snprintf(job->message, sizeof job->message,
             "text %zu has more than %d tags", k, SERVE_MAX_TAGS);
  } else if ((job->tags += tags) > SERVE_MAX_REQUEST_TAGS) {
    /* Each text within its limit, but together a long hold on the
     * worker: the whole request is bounded too. */
    job->refused = 413;
    snprintf(job->message, sizeof job->message,
             "the texts have more than %d tags in all (text %zu passes it)",
             SERVE_MAX_REQUEST_TAGS, k);
  } else {
    job->refused = 0;
    job->bad_input = 0;
    return 1;
  }
  return 0;
}

unsigned serve_job_refusal(const struct serve_job *job) {
  return job->refused != 0 ? job->refused : job->bad_input ? 400 : 500;
}

int serve_text_prepare(struct serve_job *job, struct serve_text *t) {
  if (!check_text(job, t))
    return 0;
  switch (t->markup) {
  case SERVE_PLAIN:
    return prepare_plain(job, t);
  case SERVE_XML:
    return serve_markup_xml(job, t);
  case SERVE_HTML:
    return serve_markup_html(job, t);
  }
  return 1;
}

/* --- Translating -----------------------------------------------------------
 */

/* The worker's filter set to the job's languages and segmentation; a
 * change of languages restarts the engine, so only when they change. */
static xmt_status set_up(struct serve_worker *w, const struct serve_job *job) {
  const struct serve_settings *s = w->server->set;
  xmt_status st = XMT_OK;
  if (strcmp(w->pair.src, job->pair.src) != 0 ||
      strcmp(w->pair.tgt, job->pair.tgt) != 0) {
    st = xmt_filter_set_languages(
        w->filter, job->pair.src[0] != '\0' ? job->pair.src : NULL,
        job->pair.tgt);
    w->pair = st == XMT_OK ? job->pair : (struct serve_pair){"?", "?", 0};
  }
  int none = job->opt.no_sentences || s->cli.segmentation == XMT_SEGMENT_NONE;
  if (st == XMT_OK && none != w->no_sentences) {
    st = xmt_filter_set_segmentation(
        w->filter, none ? XMT_SEGMENT_NONE : s->cli.segmentation, s->cli.srx);
    w->no_sentences = st == XMT_OK ? none : -1;
  }
  return st;
}

/* Every segment of the job's texts, in one call. */
static xmt_status translate_segments(struct serve_worker *w,
                                     struct serve_job *job) {
  size_t n = 0, k = 0, chars = 0;
  for (size_t i = 0; i < job->ntexts; i++)
    for (size_t j = 0; j < job->texts[i].nparts; j++)
      n += job->texts[i].parts[j].seg != NULL;
  if (n == 0)
    return XMT_OK;
  const xmt_segment **src = calloc(n, sizeof *src);
  xmt_segment **tgt = calloc(n, sizeof *tgt);
  if (src == NULL || tgt == NULL) {
    free(src);
    free(tgt);
    return XMT_ERR_NOMEM;
  }
  for (size_t i = 0; i < job->ntexts; i++)
    for (size_t j = 0; j < job->texts[i].nparts; j++)
      if (job->texts[i].parts[j].seg != NULL) {
        size_t len;
        xmt_segment_text(job->texts[i].parts[j].seg, &len);
        chars += len;
        src[k++] = job->texts[i].parts[j].seg;
      }
  xmt_status st = xmt_filter_translate_segments(w->filter, src, n, tgt);
  const struct xmt_filter_stats *stats = xmt_filter_stats(w->filter);
  serve_metrics_run(&w->server->metrics, stats, chars);
  job->segments += stats->segments;
  k = 0;
  for (size_t i = 0; i < job->ntexts; i++)
    for (size_t j = 0; j < job->texts[i].nparts; j++)
      if (job->texts[i].parts[j].seg != NULL)
        job->texts[i].parts[j].target = tgt[k++];
  for (k = 0; st == XMT_OK && k < n; k++)
    if (tgt[k] == NULL)
      st = XMT_ERR_PARTIAL;
  free(src);
  free(tgt);
  return st;
}

static xmt_status translate_html(struct serve_worker *w, struct serve_job *job,
                                 struct serve_text *t) {
  xmt_status st = xmt_filter_translate_buffer(
      w->filter, XMT_FORMAT_HTML, NULL, t->marked != NULL ? t->marked : t->in,
      t->marked != NULL ? t->marked_len : t->in_len, &t->out, &t->out_len);
  if (st == XMT_OK && t->marked != NULL)
    serve_markup_unmark(t);
  const struct xmt_filter_stats *stats = xmt_filter_stats(w->filter);
  serve_metrics_run(&w->server->metrics, stats, t->in_len);
  job->segments += stats->segments;
  return st;
}

/* The text's translation from its parts. */
static xmt_status write_text(struct serve_text *t) {
  char *buf = NULL;
  size_t size = 0;
  FILE *fp = open_memstream(&buf, &size);
  if (fp == NULL)
    return XMT_ERR_NOMEM;
  for (size_t j = 0; j < t->nparts; j++) {
    const struct serve_part *p = &t->parts[j];
    if (p->seg == NULL)
      fwrite(p->bytes, 1, p->len, fp);
    else
      serve_text_write_segment(fp, p->target, t->markup);
  }
  if (fclose(fp) != 0) {
    free(buf);
    return XMT_ERR_NOMEM;
  }
  t->out = buf;
  t->out_len = size;
  return XMT_OK;
}

/* Drops white space around the translation, as apertium-apy's answers
 * have none. */
static void trim(struct serve_text *t) {
  size_t b = 0, e = t->out_len;
  while (b < e && serve_text_blank(t->out + b, 1))
    b++;
  while (e > b && serve_text_blank(t->out + e - 1, 1))
    e--;
  memmove(t->out, t->out + b, e - b);
  t->out_len = e - b;
  t->out[t->out_len] = '\0';
}

/* Whose fault a failure is: the request's (400) or not. */
static int request_fault(xmt_status st) {
  return st == XMT_ERR_ENCODING || st == XMT_ERR_INLINE || st == XMT_ERR_XML ||
         st == XMT_ERR_FORMAT || st == XMT_ERR_USAGE;
}

void serve_text_translate(struct serve_worker *w, struct serve_job *job) {
  xmt_status st = set_up(w, job);
  if (st == XMT_OK)
    st = translate_segments(w, job);
  for (size_t i = 0; st == XMT_OK && i < job->ntexts; i++)
    st = job->texts[i].markup == SERVE_HTML
             ? translate_html(w, job, &job->texts[i])
             : write_text(&job->texts[i]);
  for (size_t i = 0; st == XMT_OK && job->opt.trim && i < job->ntexts; i++)
    trim(&job->texts[i]);
  /* An answer is UTF-8 JSON: a translation that is not UTF-8 (an
   * engine's bytes) is an error, never an answer without its text. */
  for (size_t i = 0; st == XMT_OK && i < job->ntexts; i++)
    if (utf8_invalid(job->texts[i].out, job->texts[i].out_len) <
        job->texts[i].out_len) {
      snprintf(job->message, sizeof job->message,
               "the translation of text %zu is not valid UTF-8", i + 1);
      job->status = XMT_ERR_BACKEND;
      job->answer(job);
      return;
    }
  if (st != XMT_OK) {
    const struct xmt_error *err = xmt_filter_error(w->filter);
    snprintf(job->message, sizeof job->message, "%s",
             err->message != NULL ? err->message : xmt_strerror(st));
    job->bad_input = request_fault(st);
  }
  job->status = st;
  job->answer(job);
}

void serve_job_free(struct serve_job *job) {
  if (job == NULL)
    return;
  for (size_t i = 0; i < job->ntexts; i++) {
    struct serve_text *t = &job->texts[i];
    for (size_t j = 0; j < t->nparts; j++) {
      xmt_segment_free(t->parts[j].seg);
      xmt_segment_free(t->parts[j].target);
      free(t->parts[j].own);
    }
    free(t->parts);
    free(t->marked);
    free(t->out);
  }
  free(job->texts);
  serve_list_free(job->opt.ignore, job->opt.nignore);
  serve_list_free(job->opt.splitting, job->opt.nsplitting);
  serve_reply_free(&job->reply);
  free(job->key);
  free(job);
}
