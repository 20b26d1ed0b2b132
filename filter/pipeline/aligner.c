/* aligner.c -- the built-in word aligner's life cycle in a run: checked
 * before any MT call, opened with its model, languages and dictionaries
 * when a window first needs it, trained on each window's answers on the
 * placing stage, saved when the run delivered (XMT_FILTER_UPDATE_MODEL);
 * and the engine's own alignments, checked before any are trusted. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline_private.h"

/* The model carried from one window to the next: at most so many words a
 * side besides the loaded model's, and so many entries a direction (5 MB
 * of tables). A window of 4096 segments of generated text links about
 * 100,000 word pairs a direction, of a million that meet: the linked
 * ones stay. (524,288 entries took 30 MB more on a 2,000-word vocabulary,
 * for the same tag placement.) */
#define CARRIED_WORDS 32768
#define CARRIED_ENTRIES 262144

/* The aligner's training asks now and then whether to go on. */
static int training_goes_on(void *user, unsigned iteration, unsigned iterations,
                            size_t pairs_done, size_t pairs) {
  (void)iteration, (void)iterations, (void)pairs_done, (void)pairs;
  return xmt_filter_interrupted(user);
}

/* The languages of the run and the dictionaries asked for ("auto" when
 * none was). */
static xmt_status aligner_priors(const struct align_settings *s,
                                 struct run *run, xmt_aligner *a) {
  xmt_status st = xmt_aligner_set_languages(a, xmt_run_source_language(run),
                                            xmt_run_target_language(run));
  if (st == XMT_OK && s->ndicts == 0)
    st = xmt_aligner_add_dictionary(a, "auto");
  for (size_t k = 0; k < s->ndicts && st == XMT_OK; k++)
    st = xmt_aligner_add_dictionary(a, s->dicts[k]);
  return st;
}

/* The aligner model file, unless it is still to be made by
 * XMT_FILTER_UPDATE_MODEL. */
int xmt_model_to_load(const struct align_settings *s) {
  return s->model != NULL && (!s->update_model || access(s->model, F_OK) == 0);
}

/* The run's aligner: the model loaded, the languages and dictionaries
 * set. */
static xmt_status aligner_open(struct run *run) {
  struct align_state *al = xmt_run_align(run);
  const struct align_settings *s = &al->settings;
  struct xmt_aligner_options ao;
  xmt_aligner_options_init(&ao);
  ao.model = s->kind;
  xmt_aligner *a = xmt_aligner_new(&ao);
  if ((al->aligner = a) == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  if (s->keep_dicts && *s->lexicon == NULL &&
      (*s->lexicon = xmt_lexicon_new()) == NULL)
    st = XMT_ERR_NOMEM;
  xmt_aligner_set_lexicon(a, *s->lexicon);
  if (st == XMT_OK && xmt_model_to_load(s))
    st = xmt_aligner_load(a, s->model);
  if (st == XMT_OK && s->mode == XMT_ALIGNER_SELF)
    st = aligner_priors(s, run, a);
  return st;
}

/* Checks an engine's alignment of a result; fills links (and tokens when
 * the engine named its own). 1 when usable; *status tells why not (out of
 * memory is not an alignment that does not check out). */
static int backend_links(struct run *run, const struct window *w,
                         const struct result *res, xmt_alignment *links,
                         int *own_tokens, xmt_status *status) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  const struct xmt_mt_response *resp =
      xmt_window_response(w, xmt_window_result_index(w, res));
  *own_tokens = 0;
  *status = XMT_OK;
  if (resp->alignment == NULL || xmt_run_tag_mode(run) != XMT_TAGS_PROJECT)
    return 0;
  size_t src_len, tgt_len;
  const char *src = xmt_result_plain(w, res, &src_len);
  const char *tgt = xmt_answer_of(w, res, &tgt_len);
  xmt_status st;
  if (resp->source_tokens != NULL) {
    st = xmt_tokens_map(xmt_tools_stok(pt), src, src_len, resp->source_tokens,
                        strlen(resp->source_tokens), XMT_TOKENS_MOSES, NULL);
    if (st == XMT_OK)
      st = xmt_tokens_map(xmt_tools_ttok(pt), tgt, tgt_len, resp->target_tokens,
                          strlen(resp->target_tokens), XMT_TOKENS_MOSES, NULL);
    *own_tokens = 1;
  } else {
    st = xmt_tools_tokenize(pt, src, src_len, tgt, tgt_len);
  }
  if (st == XMT_OK)
    st = xmt_alignment_parse(links, resp->alignment, strlen(resp->alignment),
                             xmt_tokens_count(xmt_tools_stok(pt)),
                             xmt_tokens_count(xmt_tools_ttok(pt)), NULL);
  *status = st;
  return st == XMT_OK;
}

int xmt_engine_links(struct run *run, const struct window *w,
                     const struct result *res, xmt_alignment *links,
                     int *own_tokens) {
  xmt_status st;
  return res->needs_links && !res->backend_links_bad &&
         backend_links(run, w, res, links, own_tokens, &st);
}

/* Whether res is projected over the aligner's links: the engine gave
 * none that check out. */
int xmt_wants_aligner_links(struct run *run, const struct window *w,
                            const struct result *res) {
  int own;
  return res->needs_links &&
         !xmt_engine_links(
             run, w, res,
             xmt_placer_links(xmt_tools_placer(xmt_run_place_tools(run))),
             &own);
}

void xmt_result_want_links(struct result *res) { res->needs_links = 1; }

int xmt_result_needs_links(const struct result *res) {
  return res->needs_links;
}

const xmt_alignment *xmt_result_links(const struct result *res) {
  return res->links;
}

xmt_alignment *xmt_result_new_links(struct result *res) {
  return res->links = xmt_alignment_new();
}

void xmt_window_drop_links(struct window *w) {
  for (size_t r = 0; r < xmt_window_nresults(w); r++) {
    struct result *res = xmt_window_result(w, r);
    xmt_alignment_free(res->links);
    res->links = NULL;
  }
}

/* Marks the results whose engine links do not check out; the number of
 * results that need the aligner's. *st: XMT_ERR_NOMEM when a check ran
 * out of memory. */
static size_t count_wanted(struct run *run, struct window *w, xmt_status *st) {
  size_t wanted = 0;
  for (size_t r = 0; r < xmt_window_nresults(w); r++) {
    struct result *res = xmt_window_result(w, r);
    if (!res->needs_links)
      continue;
    int own;
    xmt_alignment *links =
        xmt_placer_links(xmt_tools_placer(xmt_run_place_tools(run)));
    xmt_alignment_clear(links);
    if (backend_links(run, w, res, links, &own, st))
      continue;
    if (*st == XMT_ERR_NOMEM)
      return 0;
    *st = XMT_OK;
    if (xmt_window_response(w, r)->alignment != NULL)
      res->backend_links_bad = 1;
    wanted++;
  }
  return wanted;
}

/* Adds every answered pair of the window to the aligner and trains it;
 * pair_of[r] becomes the pair result r was added as. */
static xmt_status train_window(struct run *run, struct window *w,
                               xmt_aligner *a, size_t *pair_of) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  xmt_status st = XMT_OK;
  size_t added = 0;
  for (size_t r = 0; st == XMT_OK && r < xmt_window_nresults(w); r++) {
    const struct result *res = xmt_window_result(w, r);
    const struct xmt_mt_response *resp = xmt_window_response(w, r);
    /* Probes are not trained on: a word out of context would teach the
     * aligner translations the document does not use. (Their answers may
     * still be coming: not looked at.) */
    if (xmt_result_probe(res) || !xmt_mt_response_answered(resp))
      continue;
    size_t src_len, tgt_len;
    const char *src = xmt_result_plain(w, res, &src_len);
    const char *tgt = xmt_answer_of(w, res, &tgt_len);
    st = xmt_tools_tokenize(pt, src, src_len, tgt, tgt_len);
    if (st == XMT_OK && xmt_tokens_count(xmt_tools_stok(pt)) > 0 &&
        xmt_tokens_count(xmt_tools_ttok(pt)) > 0) {
      pair_of[r] = xmt_aligner_pair_count(a);
      xmt_run_align(run)->pairs++;
      added++;
      st = xmt_aligner_add(a, src, src_len, xmt_tools_stok(pt), tgt, tgt_len,
                           xmt_tools_ttok(pt));
    }
  }
  /* Answers without a word (an engine's "", "...") leave nothing to
   * train on: without a model they get proportional positions, not a
   * failed run. */
  if (st == XMT_OK && added > 0)
    st = xmt_aligner_train(a, training_goes_on, xmt_run_filter(run));
  return st;
}

/* The aligner's links of each result that wants them: from training
 * (pair_of), else from the model. */
static xmt_status align_window(struct run *run, struct window *w,
                               xmt_aligner *a, const size_t *pair_of) {
  struct stage_tools *pt = xmt_run_place_tools(run);
  xmt_filter *f = xmt_run_filter(run);
  const struct align_state *al = xmt_run_align(run);
  enum xmt_symmetrization sym = al->settings.symmetrization;
  int has_model = xmt_model_to_load(&al->settings) || al->pairs > 0;
  xmt_status st = XMT_OK;
  for (size_t r = 0; st == XMT_OK && r < xmt_window_nresults(w); r++) {
    struct result *res = xmt_window_result(w, r);
    if (!xmt_wants_aligner_links(run, w, res))
      continue;
    if (xmt_filter_interrupted(f))
      return XMT_ERR_ABORTED;
    size_t src_len, tgt_len;
    const char *src = xmt_result_plain(w, res, &src_len);
    const char *tgt = xmt_answer_of(w, res, &tgt_len);
    if ((res->links = xmt_alignment_new()) == NULL)
      return XMT_ERR_NOMEM;
    st = xmt_tools_tokenize(pt, src, src_len, tgt, tgt_len);
    if (st == XMT_OK && pair_of[r] != SIZE_MAX)
      st = xmt_aligner_align_pair(a, pair_of[r], sym, res->links);
    else if (st == XMT_OK && has_model &&
             xmt_tokens_count(xmt_tools_stok(pt)) > 0 &&
             xmt_tokens_count(xmt_tools_ttok(pt)) > 0)
      st = xmt_aligner_align(a, src, src_len, xmt_tools_stok(pt), tgt, tgt_len,
                             xmt_tools_ttok(pt), sym, res->links);
  }
  return st;
}

/* Word alignments for the results that need them: the built-in aligner,
 * self-trained on every answered pair of the window (seeded with a model
 * when one is given), or the model alone; or the alignment cache's. */
int xmt_align_results(struct run *run, struct window *w) {
  const struct align_state *al = xmt_run_align(run);
  const struct align_settings *s = &al->settings;
  xmt_status checked = XMT_OK;
  size_t wanted = count_wanted(run, w, &checked);
  if (checked == XMT_ERR_NOMEM)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  if (wanted == 0 || s->mode == XMT_ALIGNER_NONE)
    return 0;
  if (xmt_window_align_cache(w)->hit && xmt_align_cache_apply(run, w))
    return 0;
  xmt_status st = XMT_OK;
  if (al->aligner == NULL) {
    st = aligner_open(run);
  } else {
    /* What the earlier windows taught seeds this one, cut down to a size
     * of its own: the document's vocabulary has no bound. */
    xmt_aligner_forget_pairs(al->aligner);
    st = xmt_aligner_bound_model(al->aligner, CARRIED_WORDS, CARRIED_ENTRIES);
  }
  xmt_aligner *a = al->aligner;
  /* the pair each result was added as, to align it from training */
  size_t nresults = xmt_window_nresults(w);
  size_t *pair_of = calloc(nresults ? nresults : 1, sizeof *pair_of);
  if (pair_of == NULL)
    return xmt_window_fail(run, w, XMT_ERR_NOMEM, 0, NULL, NULL);
  for (size_t r = 0; st == XMT_OK && r < nresults; r++)
    pair_of[r] = SIZE_MAX;
  if (st == XMT_OK && s->mode == XMT_ALIGNER_SELF)
    st = train_window(run, w, a, pair_of);
  if (st == XMT_OK)
    st = align_window(run, w, a, pair_of);
  free(pair_of);
  if (st == XMT_OK && xmt_window_align_cache(w)->wanted)
    xmt_align_cache_keep(w);
  if (st == XMT_ERR_ABORTED)
    return xmt_window_fail(run, w, st, 0, NULL, "interrupted");
  if (st != XMT_OK) {
    const struct xmt_error *e = a != NULL ? xmt_aligner_error(a) : NULL;
    xmt_window_fail_model(w, st, s->model, e != NULL ? e->line : 0,
                          e != NULL && e->message != NULL ? e->message
                                                          : xmt_strerror(st));
  }
  return xmt_window_failed(w);
}

int xmt_aligner_on(struct run *run) {
  return xmt_run_align(run)->settings.mode != XMT_ALIGNER_NONE;
}

/* XMT_FILTER_UPDATE_MODEL: the grown model back to its file. A document
 * that trained nothing leaves a model as it was, and makes a missing one
 * empty (of the run's languages), as the option promises a file. */
xmt_status xmt_save_model(struct run *run) {
  const struct align_state *al = xmt_run_align(run);
  const struct align_settings *s = &al->settings;
  if (!s->update_model || s->mode != XMT_ALIGNER_SELF ||
      (al->pairs == 0 && access(s->model, F_OK) == 0))
    return XMT_OK;
  xmt_aligner *a = al->aligner;
  xmt_status st = XMT_OK;
  if (a == NULL) {
    struct xmt_aligner_options ao;
    xmt_aligner_options_init(&ao);
    ao.model = s->kind;
    if ((a = xmt_aligner_new(&ao)) == NULL)
      return xmt_error_nomem(s->err);
    st = xmt_aligner_set_languages(a, xmt_run_source_language(run),
                                   xmt_run_target_language(run));
  }
  if (st == XMT_OK)
    st = xmt_aligner_save(a, s->model);
  if (st != XMT_OK)
    xmt_error_copy(s->err, xmt_aligner_error(a));
  if (a != al->aligner)
    xmt_aligner_free(a);
  return st;
}

void xmt_align_free(struct run *run) {
  xmt_aligner_free(xmt_run_align(run)->aligner);
}

/* A bad aligner model is reported before any MT call. */
xmt_status xmt_check_align_model(const struct align_settings *s) {
  if (s->update_model && s->model == NULL)
    return xmt_error_set(s->err, XMT_ERR_USAGE,
                         "updating the aligner model needs a model file");
  if (!xmt_model_to_load(s) || s->mode == XMT_ALIGNER_NONE)
    return XMT_OK;
  xmt_aligner *a = xmt_aligner_new(NULL);
  if (a == NULL)
    return xmt_error_nomem(s->err);
  xmt_status st = xmt_aligner_load(a, s->model);
  if (st != XMT_OK) {
    const struct xmt_error *e = xmt_aligner_error(a);
    xmt_error_at(s->err, st, XMT_AT_LINE(s->model, e->line),
                 "word aligner model: %s",
                 e->message != NULL ? e->message : xmt_strerror(st));
  }
  xmt_aligner_free(a);
  return st;
}
