/* units.c -- the reader's callbacks: skeleton bytes and units queued in
 * the window being filled (or written at once when nothing waits), each
 * <file>'s languages, unit keys, and the window drained when full; the
 * window's life cycle (reset, free). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pipeline_private.h"

static struct item *push_item(struct run *run) {
  struct window *w = run->reading;
  struct item *items =
      xmt_grow_array(w->items, &w->items_cap, w->nitems + 1, sizeof *items);
  if (items == NULL)
    return NULL;
  w->items = items;
  struct item *it = &w->items[w->nitems++];
  memset(it, 0, sizeof *it);
  return it;
}

const xmt_segment *xmt_job_source(const struct window *w, const struct job *j) {
  return xmt_unit_mt_source(w->items[j->item].unit, j->seg);
}

xmt_xliff_unit *xmt_window_unit(const struct window *w, size_t item) {
  return w->items[item].unit;
}

xmt_xliff_unit *xmt_job_unit(const struct window *w, const struct job *j) {
  return w->items[j->item].unit;
}

/* The key with '#' and '%' written %23 and %25: the first '#' of a
 * segment id ends its key, so that unit "x#1" and unit "x" with mid "1"
 * (or "x#1" with mid "0" and "x" with mid "1#0") have two ids. */
static xmt_status append_key(struct xmt_buf *out, const char *key) {
  xmt_status st = XMT_OK;
  for (const char *p = key; st == XMT_OK && *p != '\0'; p++)
    st = *p == '#'   ? xmt_buf_append(out, "%23", 3)
         : *p == '%' ? xmt_buf_append(out, "%25", 3)
                     : xmt_buf_append_byte(out, *p);
  return st;
}

xmt_status xmt_job_id(const struct window *w, const struct job *j,
                      struct xmt_buf *out) {
  const struct item *it = &w->items[j->item];
  const char *mid = xmt_xliff_unit_segment_mid(it->unit, j->seg);
  const char *key = it->key != NULL ? it->key : xmt_xliff_unit_id(it->unit);
  xmt_status st = strpbrk(key, "#%") != NULL ? append_key(out, key)
                                             : xmt_buf_append_str(out, key);
  if (st == XMT_OK && mid != NULL &&
      (st = xmt_buf_append_byte(out, '#')) == XMT_OK)
    st = xmt_buf_append_str(out, mid);
  size_t nsegs = xmt_xliff_unit_segment_count(it->unit);
  if (st == XMT_OK && j->seg >= nsegs) { /* a sub-flow: KEY#subN */
    char n[32];
    snprintf(n, sizeof n, "#sub%zu", j->seg - nsegs + 1);
    st = xmt_buf_append_str(out, n);
  }
  return st == XMT_OK ? xmt_buf_append(out, "", 1) : st;
}

int xmt_window_keys(struct run *run, struct window *w) {
  /* Keys are given to every unit, translated or not, so that a run
   * with other options names the same segment the same way; in document
   * order, as the windows drain, off the reader's thread. */
  for (; w->keyed < w->nitems; w->keyed++) {
    struct item *it = &w->items[w->keyed];
    if (it->unit == NULL)
      continue;
    const char *uid = xmt_xliff_unit_id(it->unit);
    const char *id = uid != NULL ? uid : "?", *key;
    if (xmt_unit_keys_take(&run->unit_keys, id, it->file, &key) != XMT_OK ||
        ((uid == NULL || strcmp(key, id) != 0) &&
         (it->key = xmt_strdup(key)) == NULL))
      return xmt_run_nomem(run);
  }
  return 0;
}

void xmt_window_reset(struct window *w) {
  for (size_t i = 0; i < w->nitems; i++) {
    xmt_xliff_unit_free(w->items[i].unit);
    free(w->items[i].key);
  }
  w->nitems = 0;
  w->keyed = 0;
  w->queued_segments = 0;
  xmt_buf_reset(&w->skeleton);
}

void xmt_window_free(struct window *w) {
  xmt_window_reset(w);
  xmt_buf_free(&w->align_cache.links);
  free(w->items);
  xmt_buf_free(&w->skeleton);
  for (size_t i = 0; i < w->responses_cap; i++)
    xmt_mt_response_free(&w->responses[i]);
  xmt_window_drop_links(w);
  free(w->results);
  free(w->responses);
  free(w->jobs);
  free(w->probes);
  free(w->probe_results);
  xmt_buf_free(&w->arena);
  xmt_buf_free(&w->plain);
  xmt_buf_free(&w->probe_plain);
  xmt_error_clear(&w->err);
  free(w->notes_at);
  xmt_buf_free(&w->notes);
}

size_t xmt_window_nitems(const struct window *w) { return w->nitems; }

/* A writer's failure: out of memory, or the output's (its reason is added
 * at the end of the run). */
static int write_failed(struct run *run, xmt_status st) {
  return st == XMT_ERR_NOMEM ? xmt_run_nomem(run)
                             : xmt_run_fail(run, XMT_ERR_WRITE, 0, NULL,
                                            "cannot write the output");
}

/* On the reader's thread, a failure of its own becomes the run's once
 * the main thread has drained the windows before it, as when the two took
 * turns: 1 when the main thread failed first (nothing more is said). */
static int main_failed(struct run *run) {
  return run->threaded && xmt_rthread_wait_idle(&run->rt);
}

/* The window filled handed to the main thread, and the next one to fill
 * emptied here, where its units were made; 1 when the main thread failed. */
static int hand_window(struct run *run, int finish) {
  run->reader_owns = 0;
  struct window *next = xmt_rthread_hand(&run->rt, run->reading, finish);
  if (next == NULL) {
    run->reading = NULL; /* handed over: not the reader's last as well */
    return 1;
  }
  xmt_window_reset(next);
  run->reading = next;
  return 0;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  struct window *w = run->reading;
  /* Only an XLIFF document is written from its own bytes. */
  if (run->extract != NULL || run->writer == NULL)
    return 0;
  if (run->threaded && xmt_rthread_stopped(&run->rt))
    return 1;
  /* Straight to the writer, unless units wait before them here or in
   * the worker's hands (or the main thread works). */
  if (w->nitems == 0 && (!run->threaded || run->reader_owns) &&
      run->placing == NULL) {
    xmt_xliff_writer_set_encoding(run->writer,
                                  xmt_xliff_reader_encoding(run->reader));
    xmt_status st = xmt_xliff_writer_skeleton(run->writer, bytes, len);
    return st != XMT_OK ? write_failed(run, st) : 0;
  }
  struct item *it = push_item(run);
  if (it == NULL)
    return main_failed(run) || xmt_run_nomem(run);
  it->bytes = w->skeleton.len;
  it->len = len;
  if (xmt_buf_append(&w->skeleton, bytes, len) != XMT_OK)
    return main_failed(run) || xmt_run_nomem(run);
  return 0;
}

/* 1 after failing the run when the <file>'s attribute names another
 * language than the run's (both given), else 0. */
static int other_language(struct run *run, unsigned long line,
                          const char *attribute, const char *file_language,
                          const char *direction, const char *run_language) {
  if (run_language == NULL || file_language == NULL ||
      strcasecmp(run_language, file_language) == 0)
    return 0;
  char msg[256];
  snprintf(msg, sizeof msg, "<file> has %s=\"%.64s\" but the run is %s '%.64s'",
           attribute, file_language, direction, run_language);
  return xmt_run_fail(run, XMT_ERR_USAGE, line, NULL, msg);
}

/* 1 when a and b are both NULL or the same string. */
static int same_text(const char *a, const char *b) {
  return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct run *run = user;
  run->files++;
  /* The worker writes with this file's languages and options: it is done
   * before they change (and the main thread waits). */
  if (run->threaded) {
    if (hand_window(run, 1) != 0 || xmt_rthread_wait_idle(&run->rt) != 0)
      return 1;
    run->reader_owns = 1;
  } else if (xmt_window_drain(run) != 0 || xmt_placing_finish(run) != 0)
    return 1;
  if (other_language(run, info->line, "source-language", info->source_language,
                     "from", run->given_source) ||
      other_language(run, info->line, "target-language", info->target_language,
                     "into", run->given_target))
    return 1;
  const char *target =
      run->given_target != NULL ? run->given_target : info->target_language;
  if (target == NULL && run->extract != NULL)
    target = "und"; /* extract writes no target */
  if (target == NULL)
    return xmt_run_fail(run, XMT_ERR_USAGE, info->line, NULL,
                        "<file> has no target-language: give one with -t");
  const char *source =
      run->given_source != NULL ? run->given_source : info->source_language;
  /* The run's translations so far are of the earlier <file>'s languages:
   * another pair's segments of the same text are asked again. */
  if (!same_text(source, run->source_language) ||
      !same_text(target, run->target_language))
    xmt_tm_forget(run);
  /* Copies: the reader's strings change before the last window drains. */
  free(run->source_language);
  free(run->target_language);
  run->source_language = xmt_strdup(source);
  run->target_language = xmt_strdup(target);
  run->options.target_language = run->target_language;
  if (run->target_language == NULL)
    return xmt_run_nomem(run);
  if (run->segmenter != NULL && run->source_language != NULL &&
      xmt_segmenter_set_language(run->segmenter, run->source_language) !=
          XMT_OK) {
    const struct xmt_error *e = xmt_segmenter_error(run->segmenter);
    return xmt_run_fail(run, e->status != XMT_OK ? e->status : XMT_ERR_USAGE,
                        info->line, NULL,
                        e->message != NULL ? e->message : "segmentation rules");
  }
  xmt_status st = run->writer != NULL && run->extract == NULL
                      ? xmt_xliff_writer_file_tag(run->writer, tag, len, target)
                      : XMT_OK;
  return st != XMT_OK ? write_failed(run, st) : 0;
}

/* 1 when unit shares a size limit with the last unit of w: placing.c
 * measures their targets together, so the window is not cut between
 * them. */
static int shares_limit(const struct window *w, const xmt_xliff_unit *unit) {
  const xmt_xliff_unit *last = NULL;
  for (size_t i = w->nitems; last == NULL && i-- > 0;)
    last = w->items[i].unit;
  return last != NULL &&
         ((unit->continues && unit->max_chars != 0) ||
          (unit->group_scope != 0 && unit->group_scope == last->group_scope));
}

/* The window is full: it goes, unless the unit it ends with has a size
 * limit the next unit may share (it goes before a unit that does not). */
static int window_full(struct run *run, const xmt_xliff_unit *unit) {
  if (run->reading->queued_segments < run->window ||
      (unit != NULL && (unit->max_chars != 0 || unit->group_scope != 0)))
    return 0;
  return run->threaded ? hand_window(run, 0) : xmt_window_drain(run);
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  struct window *w = run->reading;
  if (w->queued_segments >= run->window && !shares_limit(w, unit)) {
    int rc = window_full(run, NULL); /* a window held for a limit */
    if (rc != 0 || (w = run->reading) == NULL) {
      xmt_xliff_unit_free(unit);
      return rc != 0 ? rc : 1;
    }
  }
  if (run->threaded && xmt_rthread_stopped(&run->rt)) {
    xmt_xliff_unit_free(unit);
    return 1;
  }
  if (xmt_filter_interrupted(run->filter)) {
    xmt_xliff_unit_free(unit);
    return main_failed(run) ||
           xmt_run_fail(run, XMT_ERR_ABORTED, 0, NULL, "interrupted");
  }
  struct item *it = push_item(run);
  if (it == NULL) {
    xmt_xliff_unit_free(unit);
    return main_failed(run) || xmt_run_nomem(run);
  }
  it->unit = unit;
  it->file = run->files; /* its key is given where the window drains */
  /* the reader's thread counts while an engine's callback may look */
  if (!unit->continues)
    __atomic_fetch_add(&run->stats->units, 1, __ATOMIC_RELAXED);
  w->queued_segments += xmt_xliff_unit_segment_count(unit);
  if (run->options.target_language == NULL)
    return main_failed(run) ||
           xmt_run_fail(run, XMT_ERR_NOT_XLIFF, xmt_xliff_unit_line(unit),
                        xmt_xliff_unit_id(unit), "<trans-unit> outside <file>");
  return window_full(run, unit);
}

const struct xmt_xliff_reader_callbacks xmt_units_callbacks = {
    on_skeleton, on_file, on_unit};

/* A format's units handed to the reader's callbacks, as the reader
 * hands out those it parses: no XLIFF text between them. */
struct feed {
  xmt_xliff_reader *reader;
  xmt_status st;
};

static xmt_status feed_file(void *user,
                            const struct xmt_xliff_file_info *info) {
  struct feed *feed = user;
  return feed->st = xmt_xliff_reader_hand_file(feed->reader, info);
}

static xmt_status feed_unit(void *user, xmt_xliff_unit *unit) {
  struct feed *feed = user;
  return feed->st = xmt_xliff_reader_hand_unit(feed->reader, unit);
}

xmt_status xmt_pipeline_feed(xmt_filter *f, const struct xmt_format *format,
                             void *doc, const char *path,
                             xmt_xliff_reader *reader,
                             struct xmt_error_store *err) {
  struct feed feed = {reader, XMT_OK};
  const struct xmt_unit_sink sink = {feed_file, feed_unit, &feed, err};
  xmt_status st = format->read(f, doc, path, &sink);
  if (feed.st != XMT_OK)
    return feed.st; /* the reader's error */
  if (st == XMT_OK || err->pub.status == st)
    return st; /* said where the sink asked */
  /* A format that reads apart may run beside the main thread, which may
   * write the filter's error: its own is not looked for there. */
  if (format->read_apart || f->err.pub.status != st)
    return xmt_error_set(err, st, "%s", xmt_strerror(st));
  return err == &f->err ? st : xmt_error_copy(err, &f->err.pub);
}
