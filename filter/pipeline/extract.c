/* extract.c -- extract output: the window's requests, one line each in
 * the segments format of the run's mode, instead of the document. */
#include "config.h"

#include <stdio.h>

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

/* Writes the requests of the window and empties it: nothing of it goes
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
    else if (xmt_output_write(xmt_run_extract(run), line.data, line.len) != 0)
      rc = xmt_run_fail(run, XMT_ERR_WRITE, 0, NULL,
                        "cannot write the segments");
    else
      xmt_run_stats(run)->segments++;
  }
  xmt_buf_free(&line);
  xmt_buf_free(&id);
  xmt_window_reset(w);
  return rc;
}
