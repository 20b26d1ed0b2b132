/* engine_probe.c -- before its first request, an engine of one line per
 * segment is sent a check line until its answer is known, its banner set
 * aside (an engine of one NUL-ended record per segment, a check record);
 * cmd.c then ends each batch with the check line and takes the answers
 * only when the check line's answer comes just after them (see cmd.c's
 * banner). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine_private.h"

#define PROBE_MAX_LINES 64       /* a banner longer than that is refused */
#define PROBE_MAX_BYTES 1048576u /* what the probe may read in all */
#define PROBE_MAX_PROMPT 64      /* a longer text after an answer is not one */
#define PROBE_PROMPT_WAIT_MS 300 /* for a prompt after the check answer */

/* The next whole line of rbuf at *pos (without its '\n' or a '\r' before
 * it): 1 and *pos after it, 0 when there is none. */
static int next_line(const struct xmt_engine *e, size_t *pos, size_t *start,
                     size_t *len) {
  const char *p = *pos < e->rbuf.len
                      ? memchr(e->rbuf.data + *pos, '\n', e->rbuf.len - *pos)
                      : NULL;
  if (p == NULL)
    return 0;
  *start = *pos;
  *len = (size_t)(p - e->rbuf.data) - *pos;
  *pos += *len + 1;
  if (*len > 0 && e->rbuf.data[*start + *len - 1] == '\r')
    --*len;
  return 1;
}

int xmt_engine_is_check_answer(const struct xmt_engine *e, const char *line,
                               size_t len) {
  if (len > 0 && line[len - 1] == '\r')
    len--;
  return len == e->check.len && memcmp(line, e->check.data, len) == 0;
}

/* 1 when a line of rbuf that ends in [from, to) is the check line's
 * answer. */
int xmt_engine_check_came(const struct xmt_engine *e, size_t from, size_t to) {
  size_t start = from;
  while (start > 0 && e->rbuf.data[start - 1] != '\n')
    start--;
  for (size_t i = from; i < to; i++) {
    if (e->rbuf.data[i] != '\n')
      continue;
    if (xmt_engine_is_check_answer(e, e->rbuf.data + start, i - start))
      return 1;
    start = i + 1;
  }
  return 0;
}

xmt_status xmt_engine_append_check_record(struct xmt_engine *e) {
  xmt_status st = e->encode != NULL
                      ? e->encode(&e->wbuf, CHECK_LINE, strlen(CHECK_LINE))
                      : xmt_buf_append_str(&e->wbuf, CHECK_LINE);
  return st == XMT_OK ? xmt_buf_append_byte(&e->wbuf, '\0') : st;
}

/* What the engine wrote in front of the check line in its answer
 * ("> 2 4 6 ...", "ES: 2 4 6 ..."): a prompt, or the engine's own
 * marking of a translation. */
static size_t check_front(const struct xmt_engine *e) {
  const size_t n = strlen(CHECK_LINE);
  if (e->check.len <= n ||
      memcmp(e->check.data + e->check.len - n, CHECK_LINE, n) != 0)
    return 0;
  return e->check.len - n;
}

/* The front is set aside from every answer only when it is a prompt: an
 * interactive engine writes it alone after each answer, before it reads
 * again, so that the next answer's line starts with it. Written with the
 * text, it is the engine's and kept. */
size_t xmt_engine_decoration(const struct xmt_engine *e) {
  return e->prompt ? check_front(e) : 0;
}

/* After the check answer, the front written alone within
 * PROBE_PROMPT_WAIT_MS: 1 a prompt (read), 0 nothing came, -1 something
 * else came. */
static int prompt_follows(struct xmt_engine *e, size_t front) {
  char got[PROBE_MAX_PROMPT + 1];
  struct pollfd pfd = {e->out_fd, POLLIN, 0};
  if (front > PROBE_MAX_PROMPT || poll(&pfd, 1, PROBE_PROMPT_WAIT_MS) <= 0)
    return 0;
  ssize_t n = read(e->out_fd, got, front);
  if (n <= 0)
    return n == 0 ? -1 : 0;
  return (size_t)n == front && memcmp(got, e->check.data, front) == 0 &&
                 !xmt_engine_out_of_step(e)
             ? 1
             : -1;
}

/* The lines of rbuf before end that are the check answer with something
 * in front of it: an engine that writes a prompt or a banner with no line
 * end ("> ", "Loading... ") before its first answer gives its answer on
 * the prompt's line. Each is the answer to a check line sent, its front
 * the banner, set aside; not counted, the probe would wait its timeout
 * for an answer already given. */
static size_t glued_answers(const struct xmt_engine *e, size_t end) {
  size_t pos = 0, start = 0, len = 0, glued = 0;
  const size_t n = e->check.len;
  while (pos < end && next_line(e, &pos, &start, &len))
    if (len > n &&
        memcmp(e->rbuf.data + start + len - n, e->check.data, n) == 0)
      glued++;
  return glued;
}

/* Sends the check line once more (or nothing: wbuf empty) and reads until
 * a line (a record) more than rbuf holds from pos came. */
static enum outcome probe_step(struct xmt_engine *e, size_t pos, int send,
                               struct exchange *x) {
  xmt_buf_reset(&e->wbuf);
  xmt_status st = XMT_OK;
  if (send && e->framing == XMT_FRAME_NULL_SEGMENT)
    st = xmt_engine_append_check_record(e);
  else if (send) {
    st = xmt_buf_append_str(&e->wbuf, CHECK_LINE "\n");
    if (st == XMT_OK && e->framing == XMT_FRAME_NULL_BATCH)
      st = xmt_buf_append_byte(&e->wbuf, '\0');
  }
  if (st != XMT_OK) {
    x->ioerr = ENOMEM;
    return EX_IOERR;
  }
  memset(x, 0, sizeof *x);
  x->delim = e->framing == XMT_FRAME_LINE ? '\n' : '\0';
  x->from = pos;
  x->want = 1;
  x->cap = PROBE_MAX_BYTES;
  return xmt_engine_exchange(e, x);
}

/* The probe is over: its answer is the check answer, unless it is blank
 * or a line came after the last one asked for. 0, -1 out of memory, or
 * -2 (why says why the engine cannot be checked). */
static int probe_done(struct xmt_engine *e, size_t pos, struct failure *why) {
  const char *reason = NULL;
  size_t i = 0;
  while (i < e->check.len &&
         (e->check.data[i] == ' ' || e->check.data[i] == '\t'))
    i++;
  if (i == e->check.len)
    reason = "with an empty line";
  else if (e->framing == XMT_FRAME_LINE && e->rbuf.len > pos &&
           memchr(e->rbuf.data + pos, '\n', e->rbuf.len - pos) == NULL) {
    /* A prompt with no line end after the answer, written before the
     * engine reads again: each later answer's line starts with it. */
    size_t prompt = e->rbuf.len - pos, front = check_front(e);
    if (front == 0 && prompt <= PROBE_MAX_PROMPT) {
      if (xmt_buf_grow(&e->check, prompt) != XMT_OK)
        return -1;
      memmove(e->check.data + prompt, e->check.data, e->check.len + 1);
      memcpy(e->check.data, e->rbuf.data + pos, prompt);
      e->check.len += prompt;
      e->prompt = 1;
    } else if (prompt == front &&
               memcmp(e->rbuf.data + pos, e->check.data, front) == 0) {
      e->prompt = 1;
    } else {
      reason = "and then writes something with no line end that is not "
               "the prompt its answers start with";
    }
  } else if (e->rbuf.len > pos) {
    reason = "with more than one line";
  } else if (e->framing == XMT_FRAME_LINE && check_front(e) > 0) {
    /* A prompt may come a moment after the answer. */
    int follows = prompt_follows(e, check_front(e));
    if (follows < 0)
      reason = "and then writes more";
    e->prompt = follows > 0;
  }
  if (reason == NULL) {
    e->probed = 1;
    return 0;
  }
  snprintf(why->message, sizeof why->message,
           "%.200s answers the check line \"" CHECK_LINE
           "\" %s: its answers cannot be matched to segments (each line of "
           "input must get one line, the check line the same each time)",
           e->name, reason);
  return -2;
}

/* Before its first request, the engine is sent the check line until its
 * answer is known: a line that is the check line itself, or the same
 * line twice in a row. The lines before it are its banner, set aside;
 * the check lines sent meanwhile must all be answered alike. A flush=null
 * engine answers one batch of the check line: its last line is the
 * answer, the lines before it the banner. 0 done; 1 failed as a batch
 * fails (why set, engine stopped); -2 the engine cannot be checked; -1
 * out of memory. */
int xmt_engine_probe(struct xmt_engine *e, struct failure *why) {
  struct exchange x;
  size_t pos = 0, start = 0, len = 0, prev = SIZE_MAX, prev_len = 0;
  size_t sent = 0, taken = 0, lines = 0;
  xmt_buf_reset(&e->rbuf);
  xmt_buf_reset(&e->check);
  int send = 1;
  while (taken == 0) {
    enum outcome out = probe_step(e, pos, send, &x);
    sent += (size_t)send;
    if (x.ioerr == ENOMEM)
      return -1;
    if (out != EX_DONE)
      return out == EX_INTERRUPTED
                 ? XMT_ENGINE_INTERRUPTED
                 : (xmt_engine_describe_end(e, out, &x, NULL, 0, why), 1);
    if (e->framing == XMT_FRAME_NULL_SEGMENT) {
      /* The record is the answer; a banner before it would be part of it,
       * so the next batch's check record would not match it. */
      if (xmt_buf_append(&e->check, e->rbuf.data, x.end - 1) != XMT_OK)
        return -1;
      return probe_done(e, x.end, why);
    }
    if (e->framing == XMT_FRAME_NULL_BATCH) {
      size_t nul = x.end - 1; /* the answer: the last line before it */
      while (nul > 0 && e->rbuf.data[nul - 1] == '\n')
        nul--;
      size_t from = nul;
      while (from > 0 && e->rbuf.data[from - 1] != '\n')
        from--;
      if (xmt_buf_append(&e->check, e->rbuf.data + from, nul - from) != XMT_OK)
        return -1;
      return probe_done(e, x.end, why);
    }
    while (taken == 0 && next_line(e, &pos, &start, &len)) {
      const char *line = e->rbuf.data + start;
      if (len == strlen(CHECK_LINE) && memcmp(line, CHECK_LINE, len) == 0)
        taken = 1;
      else if (sent >= 2 && prev != SIZE_MAX && len == prev_len &&
               memcmp(line, e->rbuf.data + prev, len) == 0)
        taken = 2; /* two answers need two check lines sent */
      else if (++lines >= PROBE_MAX_LINES)
        break;
      prev = start;
      prev_len = len;
    }
    if (lines >= PROBE_MAX_LINES) {
      snprintf(why->message, sizeof why->message,
               "%.200s answered %d lines to the check line \"" CHECK_LINE
               "\" without answering it the same way twice in a row: its "
               "answers cannot be matched to segments",
               e->name, PROBE_MAX_LINES);
      return -2;
    }
    /* A line came that is not yet known for the answer: one more check
     * line, unless more output is there already (a banner comes at
     * once). */
    send = taken == 0 && !xmt_engine_out_of_step(e);
  }
  if (xmt_buf_append(&e->check, e->rbuf.data + start, len) != XMT_OK)
    return -1;
  /* The check lines sent meanwhile are answered in turn, alike; those
   * answered after a prompt with no line end are answered already. */
  size_t glued = glued_answers(e, start);
  if (glued > sent - taken) {
    snprintf(why->message, sizeof why->message,
             "%.200s answered the check line \"" CHECK_LINE
             "\" more often than it was sent: its answers cannot be matched "
             "to segments",
             e->name);
    return -2;
  }
  for (size_t left = sent - taken - glued; left > 0; left--) {
    if (!next_line(e, &pos, &start, &len)) {
      enum outcome out = probe_step(e, pos, 0, &x);
      if (out != EX_DONE)
        return out == EX_INTERRUPTED
                   ? XMT_ENGINE_INTERRUPTED
                   : (xmt_engine_describe_end(e, out, &x, NULL, 0, why), 1);
      next_line(e, &pos, &start, &len);
    }
    if (!xmt_engine_is_check_answer(e, e->rbuf.data + start, len)) {
      snprintf(why->message, sizeof why->message,
               "%.200s answered the check line \"" CHECK_LINE
               "\" in two ways: its answers cannot be matched to segments",
               e->name);
      return -2;
    }
  }
  return probe_done(e, pos, why);
}
