/* pipeline.c -- the translate pipeline: read, batch, translate, re-tag,
 * write, in document order and bounded memory. */
#include "config.h"

#include <stdlib.h>
#include <strings.h>

#include "filter_private.h"

/* Segments per backend call; also bounds the units held in memory. */
#define BATCH_SEGMENTS 64

/* Where a request of a batch comes from. */
struct slot {
  xmt_xliff_unit *unit;
  size_t seg;
  char id[128];
};

/* Queued output: skeleton bytes or a unit, kept in order while the units
 * before them wait for their translations. */
struct item {
  xmt_xliff_unit *unit; /* NULL: bytes */
  struct xmt_buf bytes;
};

struct run {
  xmt_filter *filter;
  void *state; /* the backend's */
  xmt_xliff_writer *writer;
  xmt_xliff_reader *reader;
  const char *in_path;
  struct xmt_xliff_target_options options;
  char *source_language; /* of the current <file> */
  char *target_language;
  struct item *items;
  size_t nitems, items_cap;
  size_t queued_segments;
  xmt_segment *scratch;
  /* Batch arrays, reused from batch to batch. */
  struct xmt_mt_request *requests;
  struct xmt_mt_response *responses;
  xmt_mt_response **response_ptrs;
  struct slot *slots;
  size_t slots_cap;
  int failed; /* the filter's own error is set */
};

static xmt_status grow_slots(struct run *run, size_t n) {
  struct xmt_mt_request *req = realloc(run->requests, n * sizeof *req);
  if (req != NULL)
    run->requests = req;
  struct xmt_mt_response *resp = realloc(run->responses, n * sizeof *resp);
  if (resp != NULL) {
    memset(resp + run->slots_cap, 0, (n - run->slots_cap) * sizeof *resp);
    run->responses = resp;
  }
  xmt_mt_response **ptrs = realloc(run->response_ptrs, n * sizeof *ptrs);
  if (ptrs != NULL)
    run->response_ptrs = ptrs;
  struct slot *slots = realloc(run->slots, n * sizeof *slots);
  if (slots != NULL)
    run->slots = slots;
  if (req == NULL || resp == NULL || ptrs == NULL || slots == NULL)
    return XMT_ERR_NOMEM;
  run->slots_cap = n;
  return XMT_OK;
}

/* --- Filter settings
 * ------------------------------------------------------------ */

xmt_filter *xmt_filter_new(void) {
  xmt_filter *f = calloc(1, sizeof *f);
  if (f == NULL)
    return NULL;
  f->backend = &xmt_backend_identity;
  f->state = xmt_strdup("needs-review-translation");
  f->state_qualifier = xmt_strdup("mt-suggestion");
  if (f->state == NULL || f->state_qualifier == NULL) {
    xmt_filter_free(f);
    return NULL;
  }
  return f;
}

void xmt_filter_free(xmt_filter *f) {
  if (f == NULL)
    return;
  xmt_error_clear(&f->err);
  free(f->source_language);
  free(f->target_language);
  free(f->backend_spec);
  for (size_t i = 0; i < f->nbackend_options; i++)
    free(f->backend_options[i]);
  free(f->backend_options);
  free(f->state);
  free(f->state_qualifier);
  free(f);
}

const struct xmt_error *xmt_filter_error(const xmt_filter *f) {
  return &f->err.pub;
}

const struct xmt_filter_stats *xmt_filter_stats(const xmt_filter *f) {
  return &f->stats;
}

static xmt_status replace_string(char **dst, const char *value) {
  char *copy = xmt_strdup(value);
  if (value != NULL && copy == NULL)
    return XMT_ERR_NOMEM;
  free(*dst);
  *dst = copy;
  return XMT_OK;
}

/* A language tag: letters, digits and hyphens, starting with a letter. */
static int valid_language(const char *tag) {
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
  xmt_error_clear(&f->err);
  if (!valid_language(source) || !valid_language(target))
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "invalid language tag '%s'",
                         valid_language(source) ? target : source);
  if (replace_string(&f->source_language, source) != XMT_OK ||
      replace_string(&f->target_language, target) != XMT_OK)
    return XMT_ERR_NOMEM;
  return XMT_OK;
}

xmt_status xmt_filter_set_backend(xmt_filter *f,
                                  const struct xmt_backend *backend, void *user,
                                  const char *options) {
  xmt_error_clear(&f->err);
  if (backend == NULL || backend->translate == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "no backend, or a backend without translate()");
  if (backend->abi_version != XMT_BACKEND_ABI_VERSION)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "backend '%s' has ABI version %d; this library "
                         "speaks version %d",
                         backend->name != NULL ? backend->name : "?",
                         backend->abi_version, XMT_BACKEND_ABI_VERSION);
  if (replace_string(&f->backend_spec, options) != XMT_OK)
    return XMT_ERR_NOMEM;
  f->backend = backend;
  f->backend_user = user;
  return XMT_OK;
}

xmt_status xmt_filter_add_backend_option(xmt_filter *f, const char *option) {
  xmt_error_clear(&f->err);
  if (option == NULL || strchr(option, '=') == NULL || option[0] == '=')
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "backend option '%s' is not KEY=VALUE",
                         option != NULL ? option : "");
  char **grown = realloc(f->backend_options,
                         (f->nbackend_options + 2) * sizeof *grown);
  if (grown == NULL)
    return XMT_ERR_NOMEM;
  f->backend_options = grown;
  if ((grown[f->nbackend_options] = xmt_strdup(option)) == NULL)
    return XMT_ERR_NOMEM;
  grown[++f->nbackend_options] = NULL;
  return XMT_OK;
}

void xmt_filter_set_timeout(xmt_filter *f, unsigned timeout_ms) {
  f->timeout_ms = timeout_ms;
}

static int in_list(const char *value, const char *const *list) {
  for (; *list != NULL; list++)
    if (strcmp(value, *list) == 0)
      return 1;
  return 0;
}

xmt_status xmt_filter_set_target_state(xmt_filter *f, const char *state,
                                       const char *qualifier) {
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
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "'%s' is not an XLIFF 1.2 state (nor x-...)", state);
  if (qualifier != NULL && !in_list(qualifier, qualifiers) &&
      strncmp(qualifier, "x-", 2))
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL,
                         "'%s' is not an XLIFF 1.2 state-qualifier (nor x-...)",
                         qualifier);
  if (replace_string(&f->state, state) != XMT_OK ||
      replace_string(&f->state_qualifier, qualifier) != XMT_OK)
    return XMT_ERR_NOMEM;
  return XMT_OK;
}

void xmt_filter_set_flags(xmt_filter *f, unsigned flags) { f->flags = flags; }

/* --- The run ---------------------------------------------------------------
 */

static int run_fail(struct run *run, xmt_status st, unsigned long line,
                    const char *unit_id, const char *message) {
  xmt_error_set(&run->filter->err, st, run->in_path, line, 0, unit_id, "%s",
                message);
  run->failed = 1;
  return 1;
}

static struct item *push_item(struct run *run) {
  if (run->nitems == run->items_cap) {
    size_t cap = run->items_cap ? run->items_cap * 2 : 32;
    struct item *items = realloc(run->items, cap * sizeof *items);
    if (items == NULL)
      return NULL;
    run->items = items;
    run->items_cap = cap;
  }
  struct item *it = &run->items[run->nitems++];
  memset(it, 0, sizeof *it);
  return it;
}

/* Text with nothing to translate: empty or only whitespace. */
static int blank(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (!xmt_is_xml_space(text[i]))
      return 0;
  return 1;
}

/* Turns a translation into the target segment. Identical text keeps the
 * source's tags where they are; text without tags needs no placement. */
static xmt_status retag(struct run *run, const xmt_segment *source,
                        const char *text, size_t len, const char **why) {
  size_t src_len;
  const char *src = xmt_segment_text(source, &src_len);
  size_t ntags = xmt_segment_tag_count(source);
  if (len == src_len && memcmp(text, src, len) == 0)
    return xmt_segment_copy(run->scratch, source);
  if (ntags == 0) {
    xmt_segment_clear(run->scratch);
    return xmt_segment_append_text(run->scratch, text, len);
  }
  *why = "the translation differs from the source and the segment has "
         "inline codes, which this version cannot place yet";
  return XMT_ERR_INTERNAL;
}

/* 1 when the unit asks for a translation: translatable, not translated
 * yet (or overwriting), and with some source content. */
static int wants_translation(const xmt_filter *f, const xmt_xliff_unit *u) {
  if (u == NULL || !xmt_xliff_unit_translatable(u) ||
      (xmt_xliff_unit_has_target(u) && !(f->flags & XMT_FILTER_OVERWRITE)))
    return 0;
  for (size_t s = 0; s < xmt_xliff_unit_segment_count(u); s++) {
    const xmt_segment *seg = xmt_xliff_unit_source(u, s);
    size_t len;
    xmt_segment_text(seg, &len);
    if (len > 0 || xmt_segment_tag_count(seg) > 0)
      return 1;
  }
  return 0;
}

/* Sends the queued segments to the backend and sets the targets. */
static int translate_queue(struct run *run) {
  xmt_filter *f = run->filter;
  size_t n = 0;
  for (size_t i = 0; i < run->nitems; i++)
    if (wants_translation(f, run->items[i].unit))
      n += xmt_xliff_unit_segment_count(run->items[i].unit);
  if (n == 0)
    return 0;
  int rc = 0;
  if (n > run->slots_cap && grow_slots(run, n) != XMT_OK)
    return run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
  struct xmt_mt_request *req = run->requests;
  struct xmt_mt_response *resp = run->responses;
  xmt_mt_response **resp_ptr = run->response_ptrs;
  struct slot *where = run->slots;
  for (size_t k = 0; k < n; k++)
    xmt_mt_response_reset(&resp[k]);
  size_t k = 0;
  for (size_t i = 0; i < run->nitems; i++) {
    xmt_xliff_unit *u = run->items[i].unit;
    if (!wants_translation(f, u))
      continue;
    for (size_t s = 0; s < xmt_xliff_unit_segment_count(u); s++, k++) {
      const xmt_segment *seg = xmt_xliff_unit_source(u, s);
      const char *mid = xmt_xliff_unit_segment_mid(u, s);
      const char *uid = xmt_xliff_unit_id(u) ? xmt_xliff_unit_id(u) : "?";
      where[k].unit = u;
      where[k].seg = s;
      snprintf(where[k].id, sizeof where[k].id, "%s%s%s", uid,
               mid != NULL ? "#" : "", mid != NULL ? mid : "");
      req[k].segment_id = where[k].id;
      req[k].text = xmt_segment_text(seg, &req[k].len);
      req[k].source_language = run->source_language;
      req[k].target_language = run->options.target_language;
      resp_ptr[k] = &resp[k];
    }
  }
  /* Blank segments skip MT; the rest go in one call. */
  size_t m = 0;
  for (k = 0; k < n; k++) {
    if (blank(req[k].text, req[k].len)) {
      xmt_mt_response_set_text(&resp[k], req[k].text, req[k].len);
      continue;
    }
    req[m] = req[k];
    resp_ptr[m] = &resp[k];
    m++;
  }
  if (m > 0 && f->backend->translate(run->state, req, resp_ptr, m) != 0) {
    rc = run_fail(run, XMT_ERR_BACKEND, 0, NULL,
                  "the MT backend aborted the run");
    goto done;
  }
  f->stats.segments += m;
  for (k = 0; k < n; k++) {
    const xmt_segment *seg = xmt_xliff_unit_source(where[k].unit, where[k].seg);
    const char *why = NULL;
    xmt_status st = XMT_OK;
    if (resp[k].error != NULL)
      why = resp[k].error;
    else if (!resp[k].has_text)
      why = "the MT backend returned no translation";
    else
      st = retag(run, seg, resp[k].text.data != NULL ? resp[k].text.data : "",
                 resp[k].text.len, &why);
    if (why == NULL && st == XMT_OK)
      st = xmt_xliff_unit_set_target(where[k].unit, where[k].seg, run->scratch);
    if (why != NULL || st != XMT_OK) {
      /* A failed segment leaves its unit's target untouched. */
      f->stats.failed_segments++;
      if (why == NULL)
        why = xmt_strerror(st);
      rc = run_fail(run, st != XMT_OK ? st : XMT_ERR_BACKEND,
                    xmt_xliff_unit_line(where[k].unit), where[k].id, why);
      goto done;
    }
  }
done:
  return rc;
}

/* Translates what is queued and writes it all out. */
static int drain(struct run *run) {
  int rc = run->failed ? 1 : translate_queue(run);
  for (size_t i = 0; i < run->nitems; i++) {
    struct item *it = &run->items[i];
    xmt_status st = XMT_OK;
    if (rc == 0 && it->unit != NULL) {
      if (xmt_xliff_unit_wants_target(it->unit, &run->options))
        run->filter->stats.translated_units++;
      else
        run->filter->stats.skipped_units++;
      st = xmt_xliff_writer_unit(run->writer, it->unit, &run->options);
    } else if (rc == 0) {
      st =
          xmt_xliff_writer_skeleton(run->writer, it->bytes.data, it->bytes.len);
    }
    if (rc == 0 && st != XMT_OK)
      rc = run_fail(run, st, 0, NULL, xmt_strerror(st));
    xmt_xliff_unit_free(it->unit);
    xmt_buf_free(&it->bytes);
  }
  run->nitems = 0;
  run->queued_segments = 0;
  return rc;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct run *run = user;
  if (run->nitems == 0) {
    xmt_xliff_writer_set_encoding(run->writer,
                                  xmt_xliff_reader_encoding(run->reader));
    if (xmt_xliff_writer_skeleton(run->writer, bytes, len) != XMT_OK)
      return run_fail(run, XMT_ERR_WRITE, 0, NULL, "cannot write the output");
    return 0;
  }
  struct item *it = push_item(run);
  if (it == NULL || xmt_buf_append(&it->bytes, bytes, len) != XMT_OK)
    return run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
  return 0;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct run *run = user;
  xmt_filter *f = run->filter;
  if (drain(run) != 0)
    return 1;
  char msg[256];
  if (f->source_language != NULL && info->source_language != NULL &&
      strcasecmp(f->source_language, info->source_language) != 0) {
    snprintf(msg, sizeof msg,
             "<file> has source-language=\"%.64s\" but the run is from '%.64s'",
             info->source_language, f->source_language);
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL, msg);
  }
  if (f->target_language != NULL && info->target_language != NULL &&
      strcasecmp(f->target_language, info->target_language) != 0) {
    snprintf(msg, sizeof msg,
             "<file> has target-language=\"%.64s\" but the run is into '%.64s'",
             info->target_language, f->target_language);
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL, msg);
  }
  const char *target =
      f->target_language != NULL ? f->target_language : info->target_language;
  if (target == NULL)
    return run_fail(run, XMT_ERR_USAGE, info->line, NULL,
                    "<file> has no target-language: give one with -t");
  /* Copies: the reader's strings change before the last batch drains. */
  free(run->source_language);
  free(run->target_language);
  run->source_language = xmt_strdup(
      f->source_language != NULL ? f->source_language : info->source_language);
  run->target_language = xmt_strdup(target);
  run->options.target_language = run->target_language;
  if (run->target_language == NULL)
    return run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
  if (xmt_xliff_writer_file_tag(run->writer, tag, len, target) != XMT_OK)
    return run_fail(run, XMT_ERR_WRITE, 0, NULL, "cannot write the output");
  return 0;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct run *run = user;
  struct item *it = push_item(run);
  if (it == NULL) {
    xmt_xliff_unit_free(unit);
    return run_fail(run, XMT_ERR_NOMEM, 0, NULL, xmt_strerror(XMT_ERR_NOMEM));
  }
  it->unit = unit;
  run->filter->stats.units++;
  run->queued_segments += xmt_xliff_unit_segment_count(unit);
  if (run->options.target_language == NULL)
    return run_fail(run, XMT_ERR_NOT_XLIFF, xmt_xliff_unit_line(unit),
                    xmt_xliff_unit_id(unit), "<trans-unit> outside <file>");
  return run->queued_segments >= BATCH_SEGMENTS ? drain(run) : 0;
}

xmt_status xmt_filter_translate_file(xmt_filter *f, const char *in_path,
                                     const char *out_path) {
  xmt_error_clear(&f->err);
  memset(&f->stats, 0, sizeof f->stats);
  if (in_path == NULL)
    return xmt_error_set(&f->err, XMT_ERR_USAGE, NULL, 0, 0, NULL, "%s",
                         "no input file");
  struct run run;
  memset(&run, 0, sizeof run);
  run.filter = f;
  run.in_path = in_path;
  run.options.state = f->state;
  run.options.state_qualifier = f->state_qualifier;
  run.options.overwrite = (f->flags & XMT_FILTER_OVERWRITE) != 0;
  run.options.alt_trans = (f->flags & XMT_FILTER_ALT_TRANS) != 0;
  struct xmt_output out;
  memset(&out, 0, sizeof out);
  FILE *in = xmt_input_open(in_path, &f->err);
  if (in == NULL)
    return f->err.pub.status;
  xmt_status st = xmt_output_open(&out, out_path, &f->err);
  if (st != XMT_OK) {
    if (in != stdin)
      fclose(in);
    return st;
  }
  char errbuf[256] = "";
  static const char *const no_options[] = {NULL};
  const struct xmt_backend_config config = {
      f->backend_spec,
      f->backend_options != NULL ? (const char *const *)f->backend_options
                                 : no_options,
      f->source_language, f->target_language, f->timeout_ms};
  static const struct xmt_xliff_reader_callbacks callbacks = {on_skeleton,
                                                              on_file, on_unit};
  run.writer = xmt_xliff_writer_new(xmt_output_write, &out);
  run.reader = xmt_xliff_reader_new(&callbacks, &run);
  run.scratch = xmt_segment_new();
  if (run.writer == NULL || run.reader == NULL || run.scratch == NULL ||
      xmt_xliff_reader_set_filename(run.reader, in_path) != XMT_OK) {
    st = xmt_error_set(&f->err, XMT_ERR_NOMEM, NULL, 0, 0, NULL, "%s",
                       xmt_strerror(XMT_ERR_NOMEM));
  } else if (f->backend->open != NULL &&
             f->backend->open(f->backend_user, &config, &run.state, errbuf,
                              sizeof errbuf) != 0) {
    st = xmt_error_set(&f->err, XMT_ERR_BACKEND, NULL, 0, 0, NULL,
                       "cannot start MT backend '%s': %s", f->backend->name,
                       errbuf[0] ? errbuf : "failed");
  } else {
    struct xmt_error_store read_err = {0};
    st = xmt_read_all(run.reader, in, in_path, &read_err, &f->stats.bytes_in);
    if (st == XMT_OK && drain(&run) != 0)
      st = XMT_ERR_ABORTED;
    if (run.failed)
      st = f->err.pub.status;
    else if (read_err.pub.status != XMT_OK)
      st = xmt_error_copy(&f->err, &read_err.pub);
    else if (st != XMT_OK)
      st = xmt_error_copy(&f->err, xmt_xliff_reader_error(run.reader));
    xmt_error_clear(&read_err);
    if (st == XMT_OK && xmt_xliff_writer_flush(run.writer) != XMT_OK)
      st = xmt_error_set(&f->err, XMT_ERR_WRITE, out_path, 0, 0, NULL, "%s",
                         "cannot write the output");
    if (f->backend->close != NULL)
      f->backend->close(run.state);
  }
  for (size_t i = 0; i < run.nitems; i++) {
    xmt_xliff_unit_free(run.items[i].unit);
    xmt_buf_free(&run.items[i].bytes);
  }
  free(run.items);
  for (size_t i = 0; i < run.slots_cap; i++)
    xmt_mt_response_free(&run.responses[i]);
  free(run.requests);
  free(run.responses);
  free(run.response_ptrs);
  free(run.slots);
  free(run.source_language);
  free(run.target_language);
  xmt_segment_free(run.scratch);
  xmt_xliff_reader_free(run.reader);
  xmt_xliff_writer_free(run.writer);
  if (in != stdin)
    fclose(in);
  if (st == XMT_OK)
    st = xmt_output_commit(&out, &f->err);
  else
    xmt_output_abort(&out);
  return st;
}
