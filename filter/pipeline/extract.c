/* extract.c -- extract output: the window's requests, one line each in
 * the segments format of the run's mode, instead of the document. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline_private.h"

/* The segments formats (read back by backends/offline.c): TSV,
 * "ID<TAB>TEXT" with \t, \n, \r and \\ escaped; JSON lines, one object
 * {"id":..,"text":..} per line. */

static xmt_status tsv_escape(struct xmt_buf *out, const char *s, size_t n) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    const char *esc = s[i] == '\t'   ? "\\t"
                      : s[i] == '\n' ? "\\n"
                      : s[i] == '\r' ? "\\r"
                      : s[i] == '\\' ? "\\\\"
                                     : NULL;
    st = esc != NULL ? xmt_buf_append(out, esc, 2)
                     : xmt_buf_append_byte(out, s[i]);
  }
  return st;
}

static xmt_status json_escape(struct xmt_buf *out, const char *s, size_t n) {
  return xmt_json_quote(out, s, n, 0);
}

/* A line of a segments format: open, the escaped id, between, the escaped
 * text, close. */
struct line_form {
  const char *open, *between, *close;
  xmt_status (*escape)(struct xmt_buf *out, const char *s, size_t n);
};
static const struct line_form tsv_line = {"", "\t", "\n", tsv_escape};
static const struct line_form jsonl_line = {"{\"id\":", ",\"text\":", "}\n",
                                            json_escape};

static xmt_status segment_line(struct xmt_buf *line,
                               enum xmt_segments_format fmt, const char *id,
                               const char *text, size_t len) {
  const struct line_form *form =
      fmt == XMT_SEGMENTS_JSONL ? &jsonl_line : &tsv_line;
  xmt_buf_reset(line);
  xmt_status st = xmt_buf_append_str(line, form->open);
  if (st == XMT_OK)
    st = form->escape(line, id, strlen(id));
  if (st == XMT_OK)
    st = xmt_buf_append_str(line, form->between);
  if (st == XMT_OK)
    st = form->escape(line, text, len);
  if (st == XMT_OK)
    st = xmt_buf_append_str(line, form->close);
  return st;
}

/* The line kept in a temporary file until the header is written; -1
 * with errno when it cannot be (no room in the temporary folder). */
static int spill(struct run *run, const char *line, size_t len) {
  struct segments_out *so = xmt_run_segments(run);
  errno = 0;
  if (so->lines == NULL && (so->lines = tmpfile()) == NULL)
    return -1;
  return fwrite(line, 1, len, so->lines) == len ? 0 : -1;
}

/* Keeps the requests of the window (written after the header) and
 * empties it: nothing of it goes
 * to the engine or the writer. */
int xmt_extract_window(struct run *run, struct window *w) {
  struct xmt_buf line = {0}, id = {0};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < xmt_window_njobs(w); k++) {
    const struct job *j = xmt_window_job(w, k);
    size_t r = xmt_job_result(j);
    if (r == NO_RESULT)
      continue;
    size_t req_len;
    const char *req = xmt_result_request(w, xmt_window_result(w, r), &req_len);
    xmt_buf_reset(&id);
    const xmt_xliff_unit *u = xmt_job_unit(w, j);
    if (xmt_job_id(w, j, &id) != XMT_OK)
      rc = xmt_run_nomem(run);
    else if (u != NULL && u->sub_text) {
      /* Its translation would be refused (translate, merge): the text of
       * the <sub> is not in the line, which is left out, said so. */
      xmt_run_stats(run)->failed_segments++;
      xmt_run_tell_failure(run, id.data, xmt_xliff_unit_line(u),
                           XMT_SUB_TEXT_WHY);
    } else if (segment_line(&line,
                            xmt_run_mode(run) == XMT_PIPELINE_EXTRACT_JSONL
                                ? XMT_SEGMENTS_JSONL
                                : XMT_SEGMENTS_TSV,
                            id.data, req, req_len) != XMT_OK)
      rc = xmt_run_nomem(run);
    else if (spill(run, line.data, line.len) != 0)
      rc = xmt_run_fail(run, XMT_ERR_IO, 0, NULL, strerror(errno));
    else
      xmt_run_stats(run)->segments++;
  }
  xmt_buf_free(&line);
  xmt_buf_free(&id);
  xmt_window_reset(w);
  return rc;
}

/* --- The header ------------------------------------------------------------
 * The first line of what extract writes says what the lines were made
 * of, for merge to refuse them for anything else: TSV, a comment line
 * "#xliffmt-segments document=NAME source=SRC target=TGT segments=N
 * digest=HEX", one field (a tool that translates the second leaves it
 * be), the values %XX-escaped;
 * JSON lines, an object {"xliffmt":"segments","document":...} of the
 * same members, all strings. The digest is of each segment's id, text
 * and source language, summed: merge makes the same segments again. */

/* A TSV header value: a space ends it, a tab ends the field. */
static xmt_status pct_escape(struct xmt_buf *out, const char *v) {
  xmt_status st = XMT_OK;
  for (; st == XMT_OK && *v != '\0'; v++) {
    unsigned char c = (unsigned char)*v;
    char esc[4];
    if (c > ' ' && c != '%' && c != 0x7F) {
      st = xmt_buf_append_byte(out, (char)c);
      continue;
    }
    snprintf(esc, sizeof esc, "%%%02X", c);
    st = xmt_buf_append(out, esc, 3);
  }
  return st;
}

static const char *const mark_keys[] = {"document", "source", "target",
                                        "segments", "digest"};

/* Whether j is a segment extract writes a line for. */
static int marked(struct window *w, const struct job *j) {
  const xmt_xliff_unit *u = xmt_job_unit(w, j);
  return xmt_job_result(j) != NO_RESULT && (u == NULL || !u->sub_text);
}

static char *dup_or_null(const char *s) {
  return s != NULL ? xmt_strdup(s) : NULL;
}

xmt_status xmt_segments_mark_window(struct run *run, struct window *w) {
  struct xmt_segments_mark *m = &xmt_run_segments(run)->mark;
  struct xmt_buf id = {0};
  xmt_status st = XMT_OK;
  const char *src = xmt_run_source_language(run);
  for (size_t k = 0; st == XMT_OK && k < xmt_window_njobs(w); k++) {
    const struct job *j = xmt_window_job(w, k);
    if (!marked(w, j))
      continue;
    size_t len;
    const char *req =
        xmt_result_request(w, xmt_window_result(w, xmt_job_result(j)), &len);
    xmt_buf_reset(&id);
    if ((st = xmt_job_id(w, j, &id)) != XMT_OK)
      break;
    uint64_t h = xmt_fnv1a(UINT64_C(14695981039346656037), id.data, id.len + 1);
    h = xmt_fnv1a(h, req, len);
    h = xmt_fnv1a(h, "", 1);
    h = xmt_fnv1a(h, src != NULL ? src : "", src != NULL ? strlen(src) : 0);
    m->digest += h;
    if (m->count++ == 0) {
      m->source = dup_or_null(src);
      /* "und": the document has none and none was given */
      const char *tgt = xmt_run_target_language(run);
      m->target =
          tgt != NULL && strcmp(tgt, "und") != 0 ? xmt_strdup(tgt) : NULL;
      if (m->target == NULL && tgt != NULL && strcmp(tgt, "und") != 0)
        st = XMT_ERR_NOMEM;
    }
  }
  xmt_buf_free(&id);
  return st;
}

void xmt_segments_mark_free(struct run *run) {
  struct segments_out *so = xmt_run_segments(run);
  free(so->mark.source);
  free(so->mark.target);
  free(so->mark.document);
  if (so->lines != NULL)
    fclose(so->lines);
}

/* The name of the document the lines are of: its file name. */
static const char *doc_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

static xmt_status header(struct run *run, struct xmt_buf *out) {
  const struct xmt_segments_mark *m = &xmt_run_segments(run)->mark;
  int json = xmt_run_mode(run) == XMT_PIPELINE_EXTRACT_JSONL;
  char count[32], digest[32];
  snprintf(count, sizeof count, "%zu", m->count);
  snprintf(digest, sizeof digest, "%016" PRIx64, m->digest);
  const char *values[] = {doc_name(xmt_run_in_path(run)),
                          m->source != NULL ? m->source : "",
                          m->target != NULL ? m->target : "", count, digest};
  xmt_status st = xmt_buf_append_str(out, json ? "{\"xliffmt\":\"segments\""
                                               : "#xliffmt-segments");
  for (size_t i = 0; st == XMT_OK && i < 5; i++) {
    if (json) {
      st = xmt_buf_append_byte(out, ',');
      if (st == XMT_OK)
        st = json_escape(out, mark_keys[i], strlen(mark_keys[i]));
      if (st == XMT_OK)
        st = xmt_buf_append_byte(out, ':');
      if (st == XMT_OK)
        st = json_escape(out, values[i], strlen(values[i]));
    } else {
      st = xmt_buf_append_byte(out, ' ');
      if (st == XMT_OK)
        st = xmt_buf_append_str(out, mark_keys[i]);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(out, '=');
      if (st == XMT_OK)
        st = pct_escape(out, values[i]);
    }
  }
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, json ? "}\n" : "\n");
  return st;
}

xmt_status xmt_extract_finish(struct run *run) {
  struct xmt_buf head = {0};
  xmt_status st = header(run, &head);
  if (st != XMT_OK) {
    xmt_buf_free(&head);
    return xmt_run_nomem(run), XMT_ERR_NOMEM;
  }
  struct xmt_output *out = xmt_run_extract(run);
  FILE *lines = xmt_run_segments(run)->lines;
  int failed = xmt_output_write(out, head.data, head.len) != 0;
  xmt_buf_free(&head);
  if (!failed && lines != NULL) {
    char chunk[65536];
    size_t n;
    errno = 0;
    if (fflush(lines) != 0 || fseek(lines, 0, SEEK_SET) != 0) {
      xmt_run_fail(run, XMT_ERR_IO, 0, NULL, strerror(errno));
      return XMT_ERR_IO;
    }
    while (!failed && (n = fread(chunk, 1, sizeof chunk, lines)) > 0)
      failed = xmt_output_write(out, chunk, n) != 0;
    if (!failed && ferror(lines)) {
      xmt_run_fail(run, XMT_ERR_IO, 0, NULL, "cannot read the segments back");
      return XMT_ERR_IO;
    }
  }
  if (failed) {
    xmt_run_fail(run, XMT_ERR_WRITE, 0, NULL, "cannot write the segments");
    st = XMT_ERR_WRITE;
  }
  return st;
}

/* A value of the header, "" for none, as said in a message. */
static const char *said(const char *s) {
  return s != NULL && *s != '\0' ? s : "none";
}

xmt_status xmt_merge_check_mark(struct run *run, const xmt_offline *o) {
  const struct xmt_segments_mark *h = xmt_offline_mark(o),
                                 *m = &xmt_run_segments(run)->mark;
  struct xmt_error_store *err = &xmt_run_filter(run)->err;
  if (h->line == 0)
    return XMT_OK; /* hand-made, or of an earlier version */
  const char *doc = said(h->document);
  if (h->source != NULL && *h->source != '\0' && m->source != NULL &&
      strcasecmp(h->source, m->source) != 0)
    return xmt_error_at(err, XMT_ERR_USAGE,
                        XMT_AT_LINE(xmt_offline_path(o), h->line),
                        "the translations are of %s from %s, %s is in %s", doc,
                        h->source, xmt_run_in_path(run), m->source);
  if (h->target != NULL && *h->target != '\0' && m->target != NULL &&
      strcasecmp(h->target, m->target) != 0)
    return xmt_error_at(err, XMT_ERR_USAGE,
                        XMT_AT_LINE(xmt_offline_path(o), h->line),
                        "the translations are into %s, %s is merged into %s",
                        h->target, xmt_run_in_path(run), m->target);
  if (((h->has & XMT_MARK_COUNT) && h->count != m->count) ||
      ((h->has & XMT_MARK_DIGEST) && h->digest != m->digest))
    return xmt_error_at(err, XMT_ERR_USAGE,
                        XMT_AT_LINE(xmt_offline_path(o), h->line),
                        "the translations were extracted from %s (%zu "
                        "segments), not from the segments of %s (%zu): "
                        "another document, or the document changed since",
                        doc, h->count, xmt_run_in_path(run), m->count);
  return XMT_OK;
}
