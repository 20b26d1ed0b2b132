/* placing.c -- the placing stage of a window: each job's target made
 * from its answer (copied, decoded, or projected over word alignments and
 * probe anchors), failed segments noted, and the window written out. It
 * touches only the window, the aligner, the writer and
 * xmt_run_place_tools(run). What placing made of a window (counts, failures,
 * notes) is this file's; the main thread makes it the run's
 * (xmt_window_report). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline_private.h"

/* 1 when a job's tags must be projected onto its answer. */
static int needs_projection(struct run *run, const struct window *w,
                            const struct job *j) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  const struct result *res = &w->results[j->result];
  if (xmt_answer_unchanged(res))
    return 0; /* unchanged text keeps its tags where they are */
  const xmt_segment *src = xmt_job_source(w, j);
  if (xmt_segment_tag_count(src) == 0)
    return 0;
  if (xmt_run_tag_mode(run) == XMT_TAGS_PROJECT)
    return 1;
  /* Mask and raw answers are decoded again when placed; only those beyond
   * repair are projected. */
  size_t repairs = 0;
  size_t trlen;
  const char *tr = xmt_mt_response_text(&w->responses[j->result], &trlen);
  struct xmt_placer *p = xmt_tools_placer(pt);
  xmt_segment *scratch = xmt_tools_scratch(pt);
  xmt_status st = xmt_run_tag_mode(run) == XMT_TAGS_MASK
                      ? xmt_mask_decode(p, scratch, src, j->lead, j->core_len,
                                        tr, trlen, &repairs)
                      : xmt_raw_decode(p, scratch, src, j->lead, j->core_len,
                                       tr, trlen, &repairs);
  return st == XMT_ERR_INLINE;
}

/* Records a segment that got no translation, to be told to the caller
 * when the window comes back. */
static int job_failed(struct run *run, struct window *w, const struct job *j,
                      const char *message) {
  w->stats.failed_segments++;
  w->items[j->item].failed++;
  if (!xmt_run_tells_failures(run) ||
      (w->engine_stopped && j->result != NO_RESULT &&
       xmt_mt_response_engine_failed(&w->responses[j->result])))
    return 0; /* the run's message tells them at once */
  struct failure_note *n =
      xmt_grow_one(&w->notes_at, w->nnotes, &w->notes_cap, sizeof *n);
  if (n == NULL)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  n->line = xmt_xliff_unit_line(w->items[j->item].unit);
  n->id = w->notes.len;
  if (xmt_job_id(w, j, &w->notes) != XMT_OK)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  n->message = w->notes.len;
  if (xmt_buf_append(&w->notes, message, strlen(message) + 1) != XMT_OK)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  w->nnotes++;
  return 0;
}

/* The placeholders of a projected short message, where the engine put
 * their stand-ins, when it answered them. */
static xmt_status place_standins(struct run *run, struct window *w,
                                 const struct job *j) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  const struct result *r = &w->results[j->standin];
  if (!xmt_mt_response_answered(&w->responses[j->standin]))
    return XMT_OK;
  size_t placed = 0, len;
  const char *ans = xmt_answer_of(w, r, &len);
  xmt_status st = xmt_standin_place(xmt_tools_placer(pt), xmt_tools_scratch(pt),
                                    xmt_job_source(w, j), j->lead, j->core_len,
                                    ans, len, &placed);
  w->stats.probe_anchored_tags += placed;
  return st;
}

/* Projects a job's tags onto its answer, in the placing stage's scratch
 * segment: over the spaced source in projection (the spaces taken out
 * again), anchored by its probes. */
static xmt_status project_job(struct run *run, struct window *w,
                              const struct job *j) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  struct xmt_placer *p = xmt_tools_placer(pt);
  const xmt_segment *src = xmt_job_source(w, j);
  const struct result *res = &w->results[j->result];
  const xmt_segment *from = src;
  size_t core_len = j->core_len;
  xmt_status st = XMT_OK;
  p->nbreaks = 0;
  if (xmt_run_tag_mode(run) == XMT_TAGS_PROJECT) {
    st = xmt_break_segment(p, src, j->lead, j->core_len, p->spaced, &core_len);
    from = p->spaced;
  }
  const xmt_tokens *ctok = NULL, *ttok = NULL;
  const xmt_alignment *links = xmt_result_links(res);
  int own = 0;
  if (xmt_engine_links(run, w, res, xmt_placer_links(p), &own)) {
    links = xmt_placer_links(p);
    if (own) {
      ctok = xmt_tools_stok(pt);
      ttok = xmt_tools_ttok(pt);
    }
  }
  if (xmt_result_needs_links(res) && xmt_segment_tag_count(src) > 0)
    w->stats.projected_segments++;
  if (st == XMT_OK && j->nprobes > 0)
    st = xmt_probes_anchor(run, w, j->first_probe, j->nprobes, res, &ctok,
                           &ttok, &links);
  size_t ans_len;
  const char *ans = xmt_answer_of(w, res, &ans_len);
  if (st == XMT_OK)
    st = xmt_place_project(p, xmt_tools_scratch(pt), from, j->lead, core_len,
                           ans, ans_len, ctok, ttok, links, xmt_run_rule(run));
  if (st == XMT_OK)
    st = xmt_break_unspace(p, from, xmt_tools_scratch(pt));
  if (st == XMT_OK && j->standin != NO_RESULT)
    st = place_standins(run, w, j);
  return st;
}

/* Makes the target of one job: *target is its source when the answer
 * leaves that as it is (shared, not copied), else the placing stage's
 * scratch segment. */
static xmt_status place_job(struct run *run, struct window *w,
                            const struct job *j, const xmt_segment **target) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  const xmt_segment *src = xmt_job_source(w, j);
  *target = src;
  if (j->result == NO_RESULT)
    return XMT_OK;
  *target = xmt_tools_scratch(pt);
  const struct result *res = &w->results[j->result];
  size_t trlen;
  const char *tr = xmt_mt_response_text(&w->responses[j->result], &trlen);
  size_t repairs = 0;
  xmt_status st = XMT_ERR_INLINE;
  if (xmt_run_tag_mode(run) == XMT_TAGS_MASK && xmt_segment_tag_count(src) > 0)
    st = xmt_mask_decode(xmt_tools_placer(pt), xmt_tools_scratch(pt), src,
                         j->lead, j->core_len, tr, trlen, &repairs);
  else if (xmt_run_tag_mode(run) == XMT_TAGS_RAW)
    st = xmt_raw_decode(xmt_tools_placer(pt), xmt_tools_scratch(pt), src,
                        j->lead, j->core_len, tr, trlen, &repairs);
  if (st == XMT_OK) {
    if (repairs > 0)
      w->stats.repaired_segments++;
    return st;
  }
  if (st != XMT_ERR_INLINE)
    return st;
  /* Project the plain answer; an unchanged one keeps the source. */
  if (xmt_answer_unchanged(res)) {
    *target = src;
    return XMT_OK;
  }
  return project_job(run, w, j);
}

/* A document unit is translated when any unit made of it gets a target;
 * one counted as left alone at its first unit is taken back. */
static void count_unit(struct run *run, struct window *w,
                       const xmt_xliff_unit *unit,
                       const struct xmt_xliff_target_options *options) {
  int wants = xmt_xliff_unit_wants_target(unit, options);
  int *translated = xmt_run_placed_unit(run);
  if (!unit->continues) {
    *translated = wants;
    if (wants)
      w->stats.translated_units++;
    else
      w->stats.skipped_units++;
  } else if (wants && !*translated) {
    *translated = 1;
    w->stats.translated_units++;
    w->unskipped_units++;
  }
}

/* Why the targets of an item cannot be kept, and the numbers that say
 * so. */
enum refusal {
  KEPT,
  SUB_TEXT,
  SUB_FAILED,
  MAXWIDTH,
  SLR_UNIT,
  SLR_SEGMENTS,
  SLR_GROUP
};
struct refused {
  unsigned char why; /* enum refusal */
  size_t n, max;
};

/* The item after the last of those from item i on that share the limit of
 * i's unit: the later segments of its document unit (XLIFF 2), or, for a
 * group's, the other units of that group. The window holds them all
 * (units.c does not cut it between them). */
static size_t limit_end(const struct window *w, size_t i, int group) {
  unsigned scope = w->items[i].unit->group_scope;
  size_t end = i + 1;
  for (size_t k = i + 1; k < w->nitems; k++) {
    const xmt_xliff_unit *v = w->items[k].unit;
    if (v == NULL)
      continue;
    if (group ? v->group_scope != scope : !v->continues)
      break;
    end = k + 1;
  }
  return end;
}

/* Items [i, end) refused for why when their characters together pass
 * max; an item refused already keeps its first reason. */
static void limit(const struct window *w, struct refused *r, size_t i,
                  size_t end, size_t max, enum refusal why) {
  size_t n = 0;
  for (size_t k = i; k < end; k++)
    if (w->items[k].unit != NULL)
      n += xmt_unit_written_chars(w->items[k].unit);
  for (size_t k = i; n > max && k < end; k++)
    if (r[k].why == KEPT)
      r[k] = (struct refused){(unsigned char)why, n, max};
}

/* What is refused of each item: a unit whose XLIFF 1.2 source has a
 * <sub> with text inside a code that MT never saw (one inside another
 * sub's content), or
 * whose sub-flow got no translation; one whose targets hold more characters
 * than its maxwidth (size-unit="char") or its XLIFF 2 slr:sizeRestriction
 * allows, its segments' together; the units of an XLIFF 2 <group> whose targets
 * together pass the group's. */
static void find_refused(const struct window *w, struct refused *r) {
  unsigned group = 0;
  for (size_t i = 0; i < w->nitems; i++) {
    const xmt_xliff_unit *u = w->items[i].unit;
    if (u == NULL)
      continue;
    if (u->sub_text)
      r[i].why = SUB_TEXT;
    else if (!xmt_unit_subs_translated(u))
      r[i].why = SUB_FAILED;
    if (u->max_chars != 0 && !u->continues) {
      size_t end = limit_end(w, i, 0);
      int several = u->max_slr && end > i + 1;
      limit(w, r, i, end, u->max_chars,
            !u->max_slr ? MAXWIDTH
            : several   ? SLR_SEGMENTS
                        : SLR_UNIT);
    }
    if (u->group_max != 0 && u->group_scope != group)
      limit(w, r, i, limit_end(w, i, 1), u->group_max, SLR_GROUP);
    group = u->group_scope;
  }
}

static void refusal_message(const struct refused *r, char *msg, size_t size) {
  switch ((enum refusal)r->why) {
  case SUB_TEXT:
    snprintf(msg, size, "%s", XMT_SUB_TEXT_WHY);
    break;
  case SUB_FAILED:
    snprintf(msg, size,
             "the text of a <sub> inside one of its codes was not translated");
    break;
  case MAXWIDTH:
    snprintf(msg, size,
             "the translation is %zu characters, more than the "
             "maxwidth=\"%zu\" (size-unit=\"char\") of its <trans-unit>",
             r->n, r->max);
    break;
  case SLR_UNIT:
    snprintf(msg, size,
             "the translation is %zu characters, more than the "
             "slr:sizeRestriction=\"%zu\" of its <unit>",
             r->n, r->max);
    break;
  case SLR_SEGMENTS:
    snprintf(msg, size,
             "the translations of its <unit>'s segments are %zu characters "
             "together, more than the slr:sizeRestriction=\"%zu\" of the "
             "<unit>",
             r->n, r->max);
    break;
  case SLR_GROUP:
    snprintf(msg, size,
             "the translations of the units of its <group> are %zu "
             "characters together, more than the slr:sizeRestriction=\"%zu\" "
             "of the <group>",
             r->n, r->max);
    break;
  case KEPT:
    msg[0] = '\0';
    break;
  }
}

/* The units refused keep none of the targets placed here: each of their
 * jobs failed, told so. */
static int check_units(struct run *run, struct window *w) {
  struct refused *r = calloc(w->nitems + 1, sizeof *r);
  if (r == NULL)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  find_refused(w, r);
  int rc = 0;
  char msg[240];
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    xmt_xliff_unit *u = w->items[j->item].unit;
    if (r[j->item].why == KEPT || xmt_unit_segment_target(u, j->seg) == NULL)
      continue;
    refusal_message(&r[j->item], msg, sizeof msg);
    xmt_unit_drop_target(u, j->seg);
    rc = job_failed(run, w, j, msg);
  }
  free(r);
  return rc;
}

/* Writes the window's units and skeleton bytes, in order. */
static void write_window(struct run *run, struct window *w) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < w->nitems; i++) {
    struct item *it = &w->items[i];
    xmt_status st;
    if (it->unit != NULL) {
      struct xmt_xliff_target_options options = *xmt_run_options(run);
      if (it->failed) {
        options.state = "needs-translation";
        options.state_qualifier = NULL;
        options.approved = 0;
      }
      count_unit(run, w, it->unit, &options);
      st = xmt_run_put_unit(run, it->unit, &options,
                            xmt_tools_scratch(xmt_run_place_tools(run)));
      xmt_unit_release_placed(it->unit);
    } else {
      st = xmt_run_put_skeleton(run, w->skeleton.data + it->bytes, it->len);
    }
    if (st == XMT_ERR_NOMEM)
      rc = xmt_window_fail(run, w, st, 0, NULL, NULL);
    else if (st != XMT_OK)
      rc = xmt_window_fail(run, w, XMT_ERR_WRITE, 0, NULL,
                           "cannot write the output");
  }
}

/* The placing stage of a window, on the worker thread: word alignments,
 * tags placed in the answers, and the window written out. It touches
 * only the window, the aligner, the writer and xmt_run_place_tools(run). */
void xmt_window_place(struct run *run, struct window *w) {
  int rc = 0;
  for (size_t k = 0; k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (j->result != NO_RESULT &&
        xmt_mt_response_answered(&w->responses[j->result]) &&
        needs_projection(run, w, j))
      xmt_result_want_links(&w->results[j->result]);
  }
  rc = xmt_align_results(run, w);
  pthread_mutex_lock(xmt_run_probes_lock(run));
  while (!w->probes_answered)
    pthread_cond_wait(xmt_run_probes_cond(run), xmt_run_probes_lock(run));
  if (w->probes_failed) /* the run failed: its error is the main thread's */
    rc = 1;
  pthread_mutex_unlock(xmt_run_probes_lock(run));
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    if (xmt_filter_interrupted(xmt_run_filter(run))) {
      rc = xmt_window_fail(run, w, XMT_ERR_ABORTED, 0, NULL, "interrupted");
      break;
    }
    if (j->result != NO_RESULT) {
      const struct xmt_mt_response *resp = &w->responses[j->result];
      if (!xmt_mt_response_answered(resp)) {
        const char *e = xmt_mt_response_error(resp);
        rc = job_failed(run, w, j,
                        e != NULL ? e
                                  : "the MT backend returned no translation");
        continue;
      }
    }
    const xmt_segment *target;
    xmt_status st = place_job(run, w, j, &target);
    if (st == XMT_OK)
      st = xmt_xliff_unit_set_target(w->items[j->item].unit, j->seg, target);
    if (st != XMT_OK) {
      struct xmt_buf id = {0};
      rc = xmt_window_fail(run, w, st,
                           xmt_xliff_unit_line(w->items[j->item].unit),
                           xmt_job_id(w, j, &id) == XMT_OK ? id.data : NULL,
                           "cannot place the inline codes in the translation");
      xmt_buf_free(&id);
    }
  }
  if (rc == 0)
    rc = check_units(run, w);
  /* Failed segments of a unit whose other segments were translated keep
   * their source text, and the target says it needs translation. In
   * SDLXLIFF each segment says whether it is translated: a failed one
   * stays empty and unmarked. */
  for (size_t k = 0; rc == 0 && k < w->njobs; k++) {
    const struct job *j = &w->jobs[k];
    xmt_xliff_unit *u = w->items[j->item].unit;
    size_t failed = w->items[j->item].failed;
    if (failed == 0 || failed == xmt_xliff_unit_segment_count(u) ||
        j->seg >= xmt_xliff_unit_segment_count(u) || u->nsdlsegs > 0 ||
        j->result == NO_RESULT ||
        xmt_mt_response_answered(&w->responses[j->result]))
      continue;
    if (xmt_xliff_unit_set_target(u, j->seg, xmt_job_source(w, j)) != XMT_OK)
      rc = xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  }
  /* The sub-flows' translations into the codes of the targets. */
  for (size_t i = 0; rc == 0 && i < w->nitems; i++)
    if (w->items[i].unit != NULL && xmt_unit_sub_count(w->items[i].unit) > 0 &&
        xmt_unit_put_subs(w->items[i].unit) != XMT_OK)
      rc = xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  xmt_window_drop_links(w);
  if (rc == 0)
    write_window(run, w);
}

int xmt_window_fail(const struct run *run, struct window *w, xmt_status st,
                    unsigned long line, const char *unit_id,
                    const char *message) {
  xmt_error_at(&w->err, st, XMT_AT_UNIT(xmt_run_in_path(run), line, unit_id),
               "%s", message != NULL ? message : xmt_strerror(st));
  w->failed = 1;
  return 1;
}

int xmt_window_fail_model(struct window *w, xmt_status st, const char *model,
                          unsigned long line, const char *message) {
  xmt_error_at(&w->err, st, XMT_AT_LINE(model, line), "word aligner: %s",
               message);
  w->failed = 1;
  return 1;
}

int xmt_window_failed(const struct window *w) { return w->failed; }

struct xmt_filter_stats *xmt_window_stats(struct window *w) {
  return &w->stats;
}

struct align_cache_use *xmt_window_align_cache(struct window *w) {
  return &w->align_cache;
}

void xmt_window_engine_stopped(struct window *w) { w->engine_stopped = 1; }

void xmt_window_expect_probes(struct window *w, int ask) {
  w->probes_answered = !ask;
  w->probes_failed = 0;
}

void xmt_window_probes_answered(struct run *run, struct window *w, int failed) {
  pthread_mutex_lock(xmt_run_probes_lock(run));
  w->probes_answered = 1;
  w->probes_failed = failed;
  pthread_cond_broadcast(xmt_run_probes_cond(run));
  pthread_mutex_unlock(xmt_run_probes_lock(run));
}

int xmt_window_report(struct run *run, struct window *w) {
  struct xmt_filter_stats *s = xmt_run_stats(run);
  s->translated_units += w->stats.translated_units;
  /* a unit counted as left alone, in this window or one before */
  s->skipped_units += w->stats.skipped_units;
  s->skipped_units -= w->unskipped_units;
  w->unskipped_units = 0;
  s->failed_segments += w->stats.failed_segments;
  s->projected_segments += w->stats.projected_segments;
  s->repaired_segments += w->stats.repaired_segments;
  s->probe_anchored_tags += w->stats.probe_anchored_tags;
  s->cached_alignments += w->stats.cached_alignments;
  memset(&w->stats, 0, sizeof w->stats);
  if (!w->failed)
    xmt_align_cache_store(run, w);
  for (size_t k = 0; k < w->nnotes; k++)
    xmt_run_tell_failure(run, w->notes.data + w->notes_at[k].id,
                         w->notes_at[k].line,
                         w->notes.data + w->notes_at[k].message);
  w->nnotes = 0;
  xmt_buf_reset(&w->notes);
  if (w->failed) {
    /* Earlier in the document than whatever the main thread met since. */
    xmt_run_fail_with(run, &w->err.pub);
    xmt_error_clear(&w->err);
    w->failed = 0;
  }
  return xmt_run_failed(run);
}
