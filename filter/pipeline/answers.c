/* answers.c -- what the engine answered, checked and cleaned before
 * anything else sees it: answers far too long or empty refused, control
 * characters removed, stray spaces tidied; then each result's plain
 * answer kept (mask and raw answers decoded) and remembered (tm.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "pipeline_private.h"

/* 1 when s has two spaces in a row. Eight bytes at a time: every answer
 * is looked at, and memmem took long for this two-byte needle. */
static int has_double_space(const char *s, size_t len) {
  const uint64_t ones = UINT64_C(0x0101010101010101);
  const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, sizeof w);
    uint64_t v = w ^ (ones * ' ');
    uint64_t spaces = ~(((v & low7) + low7) | v | low7); /* exactly */
    if ((spaces & (spaces >> 8)) != 0 ||
        (s[i + 7] == ' ' && i + 8 < len && s[i + 8] == ' '))
      return 1;
  }
  for (; i + 1 < len; i++)
    if (s[i] == ' ' && s[i + 1] == ' ')
      return 1;
  return 0;
}

/* Engines leave double spaces where they drop a word ("La Comisión
 * adoptará" for "shall adopt"): runs of spaces the request did not have
 * become one, and the answer loses leading and trailing spaces. */
static void tidy_spaces(struct xmt_buf *text, const char *request,
                        size_t request_len) {
  /* An answer that is its request (identity, names, numbers) has no run
   * of spaces the request lacks: with no space at either edge there is
   * nothing to tidy, told by one comparison instead of two scans. */
  if (text->len == request_len && request_len > 0 && request[0] != ' ' &&
      request[request_len - 1] != ' ' &&
      memcmp(text->data, request, request_len) == 0)
    return;
  if (text->len == 0 ||
      (text->data[0] != ' ' && text->data[text->len - 1] != ' ' &&
       !has_double_space(text->data, text->len)))
    return; /* nothing to tidy: most answers */
  if (has_double_space(request, request_len))
    return;
  size_t w = 0;
  for (size_t r = 0; r < text->len; r++) {
    char c = text->data[r];
    if (c == ' ' && (w == 0 || text->data[w - 1] == ' '))
      continue;
    text->data[w++] = c;
  }
  while (w > 0 && text->data[w - 1] == ' ')
    w--;
  text->len = w;
}

/* Characters an engine must not give (controls XML cannot carry or that
 * mean nothing in text) are removed before anything else sees the
 * answer; the segment is counted and reported. A C1 control the request
 * holds is the source's own (U+0085 in a file from a mainframe) and kept.
 * A carriage return is one of them unless the request holds one: an engine's
 * own CR is an artifact (a Windows line ending cut in two, a progress display)
 * that would reach the target as &#13;. */
static void sanitize_answer(struct run *run, const struct result *res,
                            struct xmt_buf *text, const char *request,
                            size_t request_len) {
  const struct window *w = xmt_run_asking(run, NULL);
  size_t len = text->len;
  size_t removed =
      len > 0 ? xmt_text_strip_controls(text->data, &len, request, request_len)
              : 0;
  if (removed == 0)
    return;
  text->len = len;
  text->data[len] = '\0';
  if (res->probe)
    return;
  xmt_run_stats(run)->sanitized_segments++;
  const struct job *j = xmt_result_job(w, res);
  struct xmt_buf id = {0};
  if (xmt_run_warns(run) && xmt_job_id(w, j, &id) == XMT_OK) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "the engine's answer had %zu control character%s; "
             "removed",
             removed, removed == 1 ? "" : "s");
    xmt_run_warn(run, id.data, xmt_xliff_unit_line(xmt_job_unit(w, j)), msg);
  }
  xmt_buf_free(&id);
}

/* Fails the segment of an answer that is no translation; its text goes
 * (and its memory, when large). */
static xmt_status refuse_answer(struct xmt_mt_response *resp,
                                const char *message) {
  if (resp->text.cap > ((size_t)1 << 20))
    xmt_buf_free(&resp->text);
  xmt_buf_reset(&resp->text);
  resp->has_text = 0;
  return xmt_mt_response_set_error(resp, message);
}

/* Answers are checked, never trusted, whatever the backend: one longer
 * than xmt_answer_limit allows is refused before anything else looks at
 * it (the aligner would spend its memory on it). 1 refused, 0 kept, -1
 * out of memory. */
static int refuse_long_answer(const struct run *run, const struct result *res,
                              struct xmt_mt_response *resp) {
  size_t most = xmt_run_max_answer(run);
  size_t limit = xmt_answer_limit(most, res->request_len);
  if (resp->text.len <= limit)
    return 0;
  char msg[200];
  if (limit == most)
    snprintf(msg, sizeof msg,
             "the answer has %zu bytes, more than %zu, the maximum answer "
             "size",
             resp->text.len, most);
  else
    snprintf(msg, sizeof msg,
             "the answer has %zu bytes for a request of %zu bytes: more "
             "than %d times as long, not a translation",
             resp->text.len, res->request_len, XMT_ANSWER_GROWTH);
  return refuse_answer(resp, msg) == XMT_OK ? 1 : -1;
}

/* An answer of nothing a reader would see (U+00A0, U+200B, U+3000,
 * U+2028 are as blank as spaces), where the request had text (requests
 * without a letter are never sent), is a failed segment, not an empty
 * target, whatever the backend. 1 refused, 0 kept, -1 out of memory. */
static int refuse_empty_answer(struct xmt_mt_response *resp) {
  if (xmt_has_visible(resp->text.data, resp->text.len))
    return 0;
  return refuse_answer(resp, "the answer is empty") == XMT_OK ? 1 : -1;
}

/* Keeps the plain answer of a result, and whether it is the plain text
 * it translates (asked more than once per job). */
static xmt_status store_answer(struct run *run, struct result *res,
                               const char *text, size_t len) {
  struct window *w = xmt_run_asking(run, NULL);
  struct xmt_buf *to = xmt_window_answers(w, res->probe);
  res->answer = to->len;
  res->answer_len = len;
  size_t plain_len;
  const char *plain = xmt_result_plain(w, res, &plain_len);
  res->unchanged =
      len == plain_len && (len == 0 || memcmp(text, plain, len) == 0);
  return xmt_buf_append(to, text, len);
}

/* Keeps the plain answer of a result: a mask or raw answer decoded
 * against its source, tags removed. */
static int keep_plain(struct run *run, struct result *res, const char *tr,
                      size_t trlen) {
  struct stage_tools *tt = xmt_run_tools(run);
  const struct window *w = xmt_run_asking(run, NULL);
  const struct job *j = xmt_result_job(w, res);
  /* Only mask and raw answers are decoded against their source: a
   * projection's is not looked up (its unit is far back in memory). */
  const xmt_segment *src =
      xmt_run_tag_mode(run) != XMT_TAGS_PROJECT ? xmt_job_source(w, j) : NULL;
  size_t repairs = 0, lead, core_len;
  xmt_job_core(j, &lead, &core_len);
  xmt_status st = XMT_OK;
  if (xmt_run_tag_mode(run) == XMT_TAGS_MASK && xmt_segment_tag_count(src) > 0)
    st = xmt_mask_decode(xmt_tools_placer(tt), xmt_tools_scratch(tt), src, lead,
                         core_len, tr, trlen, &repairs);
  else if (xmt_run_tag_mode(run) == XMT_TAGS_RAW)
    st = xmt_raw_decode(xmt_tools_placer(tt), xmt_tools_scratch(tt), src, lead,
                        core_len, tr, trlen, &repairs);
  else /* the answer is plain already */
    return store_answer(run, res, tr, trlen) != XMT_OK ? xmt_run_nomem(run) : 0;
  if (st != XMT_OK && st != XMT_ERR_INLINE)
    return xmt_run_fail(run, st, 0, NULL, xmt_strerror(st));
  size_t len;
  const char *text = xmt_placer_text(xmt_tools_placer(tt), &len);
  if (store_answer(run, res, text, len) != XMT_OK)
    return xmt_run_nomem(run);
  return 0;
}

int xmt_answers_collect(struct run *run) {
  int probes;
  struct window *w = xmt_run_asking(run, &probes);
  xmt_buf_reset(xmt_window_answers(w, probes));
  xmt_tm_trim(run);
  size_t nresults = xmt_window_nresults(w);
  for (size_t r = 0; r < nresults; r++) {
    struct result *res = xmt_window_result(w, r);
    struct xmt_mt_response *resp = xmt_window_response(w, r);
    if (res->probe != probes)
      continue;
    /* The table's slot for a result a few ahead, by the time it is put. */
    if (r + 8 < nresults && xmt_run_dedupes(run))
      xmt_tm_prefetch(run, xmt_window_result(w, r + 8)->request_hash);
    if (resp->error != NULL || !resp->has_text)
      continue;
    int refused = refuse_long_answer(run, res, resp);
    if (refused == 0 && !res->cached) {
      size_t req_len;
      const char *req = xmt_result_request(w, res, &req_len);
      tidy_spaces(&resp->text, req, req_len);
      sanitize_answer(run, res, &resp->text, req, req_len);
    }
    if (refused == 0)
      refused = refuse_empty_answer(resp);
    if (refused < 0)
      return xmt_run_nomem(run);
    if (refused)
      continue;
    const char *tr = resp->text.len > 0 ? resp->text.data : "";
    size_t trlen = resp->text.len;
    if (xmt_tm_keep(run, res, tr, trlen, resp) != XMT_OK)
      return xmt_run_nomem(run);
    if (keep_plain(run, res, tr, trlen) != 0)
      return 1;
  }
  return 0;
}
const char *xmt_answer_of(const struct window *w, const struct result *r,
                          size_t *len) {
  *len = r->answer_len;
  return r->answer_len > 0 ? xmt_window_answer_at(w, r->probe, r->answer) : "";
}

int xmt_answer_unchanged(const struct result *r) { return r->unchanged; }
