/* extract.c -- extract output: the window's requests, one line each in
 * the segments format of the run's mode, instead of the document. */
#include "config.h"

#include "pipeline_private.h"

/* Writes the requests of the window and empties it: nothing of it goes
 * to the engine or the writer. */
int xmt_extract_window(struct run *run, struct window *w) {
  struct xmt_buf line = {0}, id = {0};
  int rc = 0;
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (j->result == NO_RESULT)
      continue;
    const struct result *res = &w->results[j->result];
    xmt_buf_reset(&id);
    if (xmt_job_id(w, j, &id) != XMT_OK ||
        xmt_offline_write(
            &line,
            run->mode == XMT_PIPELINE_EXTRACT_JSONL ? XMT_SEGMENTS_JSONL
                                                    : XMT_SEGMENTS_TSV,
            id.data, w->arena.data + res->request, res->request_len) != XMT_OK)
      rc = xmt_run_nomem(run);
    else if (xmt_output_write(run->extract, line.data, line.len) != 0)
      rc = xmt_run_fail(run, XMT_ERR_WRITE, 0, NULL,
                        "cannot write the segments");
    else
      run->filter->stats.segments++;
  }
  xmt_buf_free(&line);
  xmt_buf_free(&id);
  xmt_window_reset(w);
  return rc;
}
