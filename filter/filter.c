/* filter.c -- the filter handle: languages, backend, tag mode, aligner,
 * segmentation, target state and callbacks, checked as they are set; and
 * the library version, which the top of the library owns. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter_private.h"
#include "xliffmt.h"

const char *xmt_version(void) { return XMT_VERSION_STRING; }

xmt_filter *xmt_filter_new(void) {
  xmt_filter *f = calloc(1, sizeof *f);
  if (f == NULL)
    return NULL;
  f->backend = &xmt_backend_identity;
  f->aligner_mode = XMT_ALIGNER_SELF;
  struct xmt_aligner_options ao;
  xmt_aligner_options_init(&ao);
  f->align_kind = ao.model;
  f->symmetrization = XMT_SYM_GROW_DIAG_FINAL_AND;
  f->rule = XMT_RULE_MINMAX;
  f->batch_size = XMT_DEFAULT_BATCH_SIZE;
  f->window = XMT_DEFAULT_WINDOW;
  f->engine_jobs = 1;
  f->state = xmt_strdup("needs-review-translation");
  f->state_qualifier = xmt_strdup("mt-suggestion");
  if (f->state == NULL || f->state_qualifier == NULL) {
    xmt_filter_free(f);
    return NULL;
  }
  return f;
}

void xmt_filter_close_engines(xmt_filter *f) {
  if (f == NULL)
    return;
  for (size_t k = 0; k < f->nengines; k++)
    if (f->backend->close != NULL)
      f->backend->close(f->engines[k]);
  free(f->engines);
  f->engines = NULL;
  f->nengines = 0;
}

void xmt_filter_free(xmt_filter *f) {
  if (f == NULL)
    return;
  xmt_filter_close_engines(f);
  xmt_lexicon_free(f->lexicon);
  xmt_cache_close(f->cache);
  xmt_error_clear(&f->err);
  free(f->source_language);
  free(f->target_language);
  free(f->backend_spec);
  for (size_t i = 0; i < f->nbackend_options; i++)
    free(f->backend_options[i]);
  free(f->backend_options);
  free(f->cache_uri);
  free(f->state);
  free(f->state_qualifier);
  free(f->align_model);
  for (size_t k = 0; k < f->ndicts; k++)
    free(f->dicts[k]);
  free(f->dicts);
  free(f->srx_path);
  xmt_segmenter_free(f->segmenter);
  xmt_buf_free(&f->stdin_head.bytes);
  free(f);
}

const struct xmt_error *xmt_filter_error(const xmt_filter *f) {
  return f != NULL ? &f->err.pub : NULL;
}

const struct xmt_filter_stats *xmt_filter_stats(const xmt_filter *f) {
  return f != NULL ? &f->stats : NULL;
}

static xmt_status replace_string(char **dst, const char *value) {
  char *copy = xmt_strdup(value);
  if (value != NULL && copy == NULL)
    return XMT_ERR_NOMEM;
  free(*dst);
  *dst = copy;
  return XMT_OK;
}

/* 1 when a and b are the same string, or both NULL. */
static int same_string(const char *a, const char *b) {
  return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

int xmt_valid_language(const char *tag) {
  if (tag == NULL)
    return 1;
  if (!((*tag >= 'a' && *tag <= 'z') || (*tag >= 'A' && *tag <= 'Z')))
    return 0;
  for (const char *p = tag; *p != '\0'; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
      return 0;
  return strlen(tag) <= 64;
}

xmt_status xmt_filter_set_languages(xmt_filter *f, const char *source,
                                    const char *target) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (!xmt_valid_language(source) || !xmt_valid_language(target))
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "invalid language tag '%s'",
                         xmt_valid_language(source) ? target : source);
  /* The same pair again keeps the engines opened for it. */
  if (same_string(f->source_language, source) &&
      same_string(f->target_language, target))
    return XMT_OK;
  xmt_filter_close_engines(f);
  if (replace_string(&f->source_language, source) != XMT_OK ||
      replace_string(&f->target_language, target) != XMT_OK)
    return XMT_ERR_NOMEM;
  return XMT_OK;
}

xmt_status xmt_filter_set_backend(xmt_filter *f,
                                  const struct xmt_backend *backend, void *user,
                                  const char *options) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (backend == NULL || backend->translate == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "no backend, or a backend without translate()");
  if (backend->abi_version != XMT_BACKEND_ABI_VERSION)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "backend '%s' has ABI version %d; this library "
                         "speaks version %d",
                         backend->name != NULL ? backend->name : "?",
                         backend->abi_version, XMT_BACKEND_ABI_VERSION);
  xmt_filter_close_engines(f);
  if (replace_string(&f->backend_spec, options) != XMT_OK)
    return XMT_ERR_NOMEM;
  f->backend = backend;
  f->backend_user = user;
  return XMT_OK;
}

xmt_status xmt_filter_add_backend_option(xmt_filter *f, const char *option) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (option == NULL || strchr(option, '=') == NULL || option[0] == '=')
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "backend option '%s' is not KEY=VALUE",
                         option != NULL ? option : "");
  xmt_filter_close_engines(f);
  char **grown = xmt_grow_array(f->backend_options, &f->backend_options_cap,
                                f->nbackend_options + 2, sizeof *grown);
  if (grown == NULL)
    return XMT_ERR_NOMEM;
  f->backend_options = grown;
  if ((grown[f->nbackend_options] = xmt_strdup(option)) == NULL)
    return XMT_ERR_NOMEM;
  grown[++f->nbackend_options] = NULL;
  return XMT_OK;
}

xmt_status xmt_filter_set_timeout(xmt_filter *f, unsigned timeout_ms) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (timeout_ms > XMT_MAX_TIMEOUT_MS)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "timeout of %u ms is more than a day (%u ms)",
                         timeout_ms, XMT_MAX_TIMEOUT_MS);
  if (timeout_ms != f->timeout_ms)
    xmt_filter_close_engines(f);
  f->timeout_ms = timeout_ms;
  return XMT_OK;
}

xmt_status xmt_filter_set_max_answer_size(xmt_filter *f, size_t bytes) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (bytes > (size_t)PTRDIFF_MAX)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "maximum answer size of %zu bytes is more than any "
                         "buffer can hold",
                         bytes);
  if (bytes != f->max_answer)
    xmt_filter_close_engines(f); /* they were opened with the old one */
  f->max_answer = bytes;
  return XMT_OK;
}

static int in_list(const char *value, const char *const *list) {
  for (; *list != NULL; list++)
    if (strcmp(value, *list) == 0)
      return 1;
  return 0;
}

xmt_status xmt_filter_set_target_state(xmt_filter *f, const char *state,
                                       const char *qualifier) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  static const char *const states[] = {"final",
                                       "needs-adaptation",
                                       "needs-l10n",
                                       "needs-review-adaptation",
                                       "needs-review-l10n",
                                       "needs-review-translation",
                                       "needs-translation",
                                       "new",
                                       "signed-off",
                                       "translated",
                                       NULL};
  static const char *const qualifiers[] = {
      "exact-match",          "fuzzy-match",         "id-match",
      "leveraged-glossary",   "leveraged-inherited", "leveraged-mt",
      "leveraged-repository", "leveraged-tm",        "mt-suggestion",
      "rejected-grammar",     "rejected-inaccurate", "rejected-length",
      "rejected-spelling",    "tm-suggestion",       NULL};
  xmt_error_clear(&f->err);
  if (state != NULL && !in_list(state, states) && strncmp(state, "x-", 2))
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "'%s' is not an XLIFF 1.2 state (nor x-...)", state);
  if (qualifier != NULL && !in_list(qualifier, qualifiers) &&
      strncmp(qualifier, "x-", 2))
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "'%s' is not an XLIFF 1.2 state-qualifier (nor x-...)",
                         qualifier);
  if (replace_string(&f->state, state) != XMT_OK ||
      replace_string(&f->state_qualifier, qualifier) != XMT_OK)
    return XMT_ERR_NOMEM;
  return XMT_OK;
}

xmt_status xmt_filter_set_flags(xmt_filter *f, unsigned flags) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if ((flags & ~XMT_FILTER_KNOWN_FLAGS) != 0)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown filter flags 0x%x",
                         flags & ~XMT_FILTER_KNOWN_FLAGS);
  f->flags = flags;
  return XMT_OK;
}

xmt_status xmt_filter_set_tag_mode(xmt_filter *f, enum xmt_tag_mode mode) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (mode != XMT_TAGS_PROJECT && mode != XMT_TAGS_MASK && mode != XMT_TAGS_RAW)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown tag mode %d",
                         (int)mode);
  f->tag_mode = mode;
  return XMT_OK;
}

xmt_status xmt_filter_set_cache(xmt_filter *f, const char *uri,
                                size_t max_entries) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  char *copy = NULL;
  if (uri != NULL && (copy = xmt_strdup(uri)) == NULL)
    return xmt_error_nomem(&f->err);
  if (copy != NULL && xmt_cache_check_uri(copy, &f->err) != XMT_OK) {
    free(copy);
    return XMT_ERR_USAGE;
  }
  xmt_cache_close(f->cache);
  f->cache = NULL;
  free(f->cache_uri);
  f->cache_uri = copy;
  f->cache_max = max_entries;
  return XMT_OK;
}

xmt_status xmt_filter_set_probes(xmt_filter *f, enum xmt_probes mode) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (mode != XMT_PROBES_AUTO && mode != XMT_PROBES_OFF)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown probe mode %d",
                         (int)mode);
  f->probes = mode;
  return XMT_OK;
}

/* *count = n when n is from 1 to max, else a usage error naming what. */
static xmt_status set_count(xmt_filter *f, size_t *count, size_t n, size_t max,
                            const char *what) {
  xmt_error_clear(&f->err);
  if (n == 0 || n > max)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "%s %zu is not from 1 to %zu",
                         what, n, max);
  *count = n;
  return XMT_OK;
}

xmt_status xmt_filter_set_batch_size(xmt_filter *f, size_t segments) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  return set_count(f, &f->batch_size, segments, XMT_MAX_BATCH_SIZE,
                   "batch size");
}

xmt_status xmt_filter_set_engine_jobs(xmt_filter *f, size_t jobs) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  return set_count(f, &f->engine_jobs, jobs, XMT_MAX_ENGINE_JOBS,
                   "engine jobs");
}

xmt_status xmt_filter_set_window(xmt_filter *f, size_t segments) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (segments == 0)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "a window of 0 segments");
  f->window = segments;
  return XMT_OK;
}

xmt_status xmt_filter_set_aligner(xmt_filter *f, enum xmt_aligner_mode mode,
                                  const char *model_path) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (mode == XMT_ALIGNER_MODEL && model_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE,
                         "the model aligner needs a model file");
  if (mode != XMT_ALIGNER_SELF && mode != XMT_ALIGNER_MODEL &&
      mode != XMT_ALIGNER_NONE)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown aligner mode %d",
                         (int)mode);
  if (replace_string(&f->align_model, model_path) != XMT_OK)
    return XMT_ERR_NOMEM;
  f->aligner_mode = mode;
  return XMT_OK;
}

xmt_status xmt_filter_set_aligner_model(xmt_filter *f,
                                        enum xmt_align_model model) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (model != XMT_MODEL_IBM2 && model != XMT_MODEL_BAYES)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown aligner model %d",
                         (int)model);
  f->align_kind = model;
  return XMT_OK;
}

xmt_status xmt_filter_add_dictionary(xmt_filter *f, const char *spec) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (spec == NULL || *spec == '\0')
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "empty dictionary name");
  char **d = xmt_grow_one(&f->dicts, f->ndicts, &f->dicts_cap, sizeof *d);
  if (d == NULL || (*d = xmt_strdup(spec)) == NULL)
    return XMT_ERR_NOMEM;
  f->ndicts++;
  return XMT_OK;
}

xmt_status xmt_filter_set_projection(xmt_filter *f,
                                     enum xmt_projection_rule rule,
                                     enum xmt_symmetrization symmetrization) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (rule != XMT_RULE_MINMAX && rule != XMT_RULE_SCORE)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown projection rule %d",
                         (int)rule);
  /* Compared as int: the enum may be unsigned, and a caller's cast of a
   * negative number must not pass. */
  if ((int)symmetrization < (int)XMT_SYM_FORWARD ||
      (int)symmetrization > (int)XMT_SYM_INTERSECT_FIRST)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown symmetrization %d",
                         (int)symmetrization);
  f->rule = rule;
  f->symmetrization = symmetrization;
  return XMT_OK;
}

xmt_status xmt_filter_set_segmentation(xmt_filter *f,
                                       enum xmt_segmentation mode,
                                       const char *srx_path) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  if (mode != XMT_SEGMENT_NONE && mode != XMT_SEGMENT_UNSEGMENTED &&
      mode != XMT_SEGMENT_ALL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, "unknown segmentation mode %d",
                         (int)mode);
  /* The same rules again keep the segmenter that loaded them. */
  if (mode == f->segmentation && same_string(srx_path, f->srx_path))
    return XMT_OK;
  if (replace_string(&f->srx_path, srx_path) != XMT_OK)
    return XMT_ERR_NOMEM;
  f->segmentation = mode;
  xmt_segmenter_free(f->segmenter);
  f->segmenter = NULL;
  return XMT_OK;
}

xmt_status xmt_filter_prepare_segmenter(xmt_filter *f) {
  f->resegment = f->segmentation == XMT_SEGMENT_ALL;
  /* Without segmentation the segmenter still cuts ICU messages. */
  int none = f->segmentation == XMT_SEGMENT_NONE;
  unsigned cuts = (none ? XMT_SEGMENTER_NO_SENTENCES : 0u) |
                  (f->flags & XMT_FILTER_NO_ICU ? XMT_SEGMENTER_NO_ICU : 0u);
  if (none && (f->flags & XMT_FILTER_NO_ICU)) {
    xmt_segmenter_free(f->segmenter);
    f->segmenter = NULL;
    return XMT_OK;
  }
  if (f->segmenter == NULL) {
    f->segmenter = xmt_segmenter_new();
    if (f->segmenter == NULL)
      return xmt_error_nomem(&f->err);
    if (!none && f->srx_path != NULL &&
        xmt_segmenter_load_srx(f->segmenter, f->srx_path) != XMT_OK) {
      xmt_status st =
          xmt_error_copy(&f->err, xmt_segmenter_error(f->segmenter));
      xmt_segmenter_free(f->segmenter);
      f->segmenter = NULL;
      return st;
    }
  }
  return xmt_segmenter_set_flags(f->segmenter, cuts);
}

xmt_status xmt_filter_set_callbacks(xmt_filter *f,
                                    xmt_filter_progress_fn progress,
                                    xmt_filter_failure_fn on_failure,
                                    void *user) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  f->progress = progress;
  f->on_failure = on_failure;
  f->callback_user = user;
  return XMT_OK;
}

void xmt_filter_interrupt(xmt_filter *f) {
  if (f != NULL)
    __atomic_store_n(&f->interrupted, 1, __ATOMIC_RELAXED);
}

xmt_status xmt_filter_set_warning_callback(xmt_filter *f,
                                           xmt_filter_failure_fn on_warning) {
  if (f == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&f->err);
  f->on_warning = on_warning;
  return XMT_OK;
}
