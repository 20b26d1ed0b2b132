/* apertium.c -- the apertium backend: Apertium language pairs from
 * Debian, run as persistent null-flush pipelines.
 *
 * The pair's mode file is run directly, as apertium-apy does, with every
 * program in null-flush mode (apertium-wblank-mode -z): the `apertium`
 * wrapper cannot serve here, as its txt deformatter drops NUL bytes and its
 * gawk stage holds each record back until the next one arrives. So this
 * file does what the txt deformatter and reformatter would: it escapes the
 * characters the Apertium stream format reserves and unescapes the
 * answers. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "backends_private.h"

#define DEFAULT_DATADIR "/usr/share/apertium"
#define MAX_PAIRS 8

struct pair_engine {
  char *pair;
  struct xmt_engine *engine; /* NULL when the pair could not start */
  char *error;               /* why not */
  struct xmt_engine *markup; /* for markup requests, started on first use */
};

struct apertium {
  char *datadir;
  char *pair; /* from the spec; NULL: from the languages of each request */
  unsigned timeout_ms, max_failures;
  size_t max_answer;
  const int *interrupted;
  struct pair_engine engines[MAX_PAIRS];
  size_t nengines;
  /* Per-batch scratch: one language pair's requests. */
  struct xmt_mt_request *req;
  xmt_mt_response **resp;
  size_t cap;
};

/* --- The stream format ------------------------------------------------------
 */

/* Characters apertium-destxt escapes with a backslash. */
static int reserved(char c) { return c != '\0' && strchr("[]\\^$@/<>{}", c); }

xmt_status xmt_apertium_escape(struct xmt_buf *out, const char *text,
                               size_t len) {
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i < len;) {
    char c = text[i];
    size_t run = 1;
    while (i + run < len && (c == ' ' || c == '\t' || c == '\n' || c == '\r') &&
           (text[i + run] == ' ' || text[i + run] == '\t' ||
            text[i + run] == '\n' || text[i + run] == '\r'))
      run++;
    if (c == '~' || ((c == ' ' || c == '\t' || c == '\n' || c == '\r') &&
                     (run > 1 || c != ' '))) {
      st = xmt_buf_append_byte(out, '[');
      if (st == XMT_OK)
        st = xmt_buf_append(out, text + i, run);
      if (st == XMT_OK)
        st = xmt_buf_append_byte(out, ']');
    } else if (c == '\0') {
      st = xmt_buf_append_byte(out, ' ');
    } else {
      if (reserved(c))
        st = xmt_buf_append_byte(out, '\\');
      if (st == XMT_OK)
        st = xmt_buf_append_byte(out, c);
    }
    i += run;
  }
  return st;
}

xmt_status xmt_apertium_end(struct xmt_buf *out) {
  return xmt_buf_append(out, ".[]\n", 4);
}

size_t xmt_apertium_end_dot(const char *a, size_t len) {
  for (size_t i = len; i >= 3; i--) {
    if (a[i - 2] != '[' || a[i - 1] != ']')
      continue;
    if (a[i - 3] == '.' && (i < 4 || a[i - 4] != '\\'))
      return i - 3;
    break;
  }
  return SIZE_MAX;
}

/* A segment as apertium-destxt would give it. */
static xmt_status encode(struct xmt_buf *out, const char *text, size_t len) {
  xmt_status st = xmt_apertium_escape(out, text, len);
  return st == XMT_OK ? xmt_apertium_end(out) : st;
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

xmt_status xmt_apertium_decode(struct xmt_buf *out, const char *a, size_t len,
                               const struct xmt_mt_request *req) {
  size_t lead = 0, trail = 0;
  while (lead < req->len && is_space(req->text[lead]))
    lead++;
  while (trail < req->len - lead && is_space(req->text[req->len - 1 - trail]))
    trail++;
  xmt_status st = xmt_buf_append(out, req->text, lead);
  size_t start = out->len, dot = xmt_apertium_end_dot(a, len);
  for (size_t i = 0; st == XMT_OK && i < len; i++) {
    if (i == dot)
      continue;
    if (a[i] == '\\' && i + 1 < len) {
      st = xmt_buf_append_byte(out, a[++i]);
    } else if (a[i] == '[' && i + 1 < len && a[i + 1] == '[') {
      const char *end = strstr(a + i, "]]");
      i = end != NULL && (size_t)(end - a) < len ? (size_t)(end - a) + 1 : len;
    } else if (a[i] != '[' && a[i] != ']' && a[i] != '\0') {
      st = xmt_buf_append_byte(out, a[i]);
    }
  }
  if (st != XMT_OK)
    return st;
  /* Trim the answer's own blanks (transfer moves them about). */
  size_t from = start;
  while (from < out->len && is_space(out->data[from]))
    from++;
  memmove(out->data + start, out->data + from, out->len - from);
  out->len -= from - start;
  while (out->len > start && is_space(out->data[out->len - 1]))
    out->len--;
  out->data[out->len] = '\0';
  return xmt_buf_append(out, req->text + req->len - trail, trail);
}

/* --- Pairs ------------------------------------------------------------------
 */

static int valid_pair_name(const char *pair) {
  if (*pair == '\0' || strchr(pair, '-') == NULL)
    return 0;
  for (const char *p = pair; *p != '\0'; p++)
    if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
      return 0;
  return 1;
}

static int mode_exists(const struct apertium *a, const char *pair) {
  char path[1024];
  snprintf(path, sizeof path, "%s/modes/%s.mode", a->datadir, pair);
  return access(path, R_OK) == 0;
}

/* The "apt-get install" hint for a pair: Debian packages a pair under one
 * of its two directions, and variants (eng-spa_US) under the base pair. */
static void install_hint(const char *pair, char *out, size_t outlen) {
  char base[64], rev[64];
  snprintf(base, sizeof base, "%.*s", (int)strcspn(pair, "_"), pair);
  const char *dash = strchr(base, '-');
  if (dash == NULL) {
    snprintf(out, outlen, "apt-get install apertium-%s", base);
    return;
  }
  snprintf(rev, sizeof rev, "%s-%.*s", dash + 1, (int)(dash - base), base);
  snprintf(out, outlen, "apt-get install apertium-%.40s (or apertium-%.40s)",
           base, rev);
}

/* Finds the mode for a pair of languages: "src-tgt_REGION", "src-tgt",
 * then the two-letter names older pairs use. */
static int pair_for(const struct apertium *a, const char *src, const char *tgt,
                    char *pair, size_t pairlen, char *msg, size_t msglen) {
  char s3[16], t3[16], sreg[8], treg[8], s2[16], t2[16];
  if (src == NULL || tgt == NULL) {
    snprintf(msg, msglen,
             "apertium: no language pair given and the languages are not "
             "known: use --mt apertium:PAIR (e.g. eng-spa) or -s and -t");
    return 1;
  }
  xmt_apertium_language(src, s3, sizeof s3, sreg, sizeof sreg);
  xmt_apertium_language(tgt, t3, sizeof t3, treg, sizeof treg);
  snprintf(s2, sizeof s2, "%.*s", (int)strcspn(src, "-_"), src);
  snprintf(t2, sizeof t2, "%.*s", (int)strcspn(tgt, "-_"), tgt);
  char cand[4][64];
  snprintf(cand[0], sizeof cand[0], "%s-%s_%s", s3, t3, treg);
  snprintf(cand[1], sizeof cand[1], "%s-%s", s3, t3);
  snprintf(cand[2], sizeof cand[2], "%s-%s_%s", s2, t2, treg);
  snprintf(cand[3], sizeof cand[3], "%s-%s", s2, t2);
  for (int i = 0; i < 4; i++) {
    if ((i % 2 == 0 && treg[0] == '\0') || !valid_pair_name(cand[i]))
      continue;
    if (mode_exists(a, cand[i])) {
      snprintf(pair, pairlen, "%s", cand[i]);
      return 0;
    }
  }
  char hint[160];
  install_hint(cand[1], hint, sizeof hint);
  snprintf(msg, msglen, "apertium pair %s (%s to %s) not installed: %s",
           cand[1], src, tgt, hint);
  return 1;
}

/* Checks the pair is installed and starts its pipeline. */
static struct xmt_engine *start_pair(const struct apertium *a, const char *pair,
                                     int markup, char *msg, size_t msglen) {
  char path[1024], hint[160];
  snprintf(path, sizeof path, "%s/modes", a->datadir);
  if (access(path, X_OK) != 0) {
    snprintf(msg, msglen,
             "apertium is not installed (no %.300s): apt-get install "
             "apertium apertium-%.60s",
             path, pair);
    return NULL;
  }
  if (!mode_exists(a, pair)) {
    install_hint(pair, hint, sizeof hint);
    snprintf(msg, msglen, "apertium pair %s not installed: %s", pair, hint);
    return NULL;
  }
  /* $1 = -n (no unknown-word marks, as apertium -u), $2 = "" (tagger). */
  struct xmt_buf cmd = {0};
  snprintf(path, sizeof path, "%s/modes/%s.mode", a->datadir, pair);
  xmt_status st =
      xmt_buf_append_str(&cmd, "set -- -n ''; mode=$(apertium-wblank-mode -z ");
  if (st == XMT_OK)
    st = xmt_shell_quote(&cmd, path);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&cmd, ") || exit 127; eval \"$mode\"");
  if (st != XMT_OK) {
    xmt_buf_free(&cmd);
    snprintf(msg, msglen, "out of memory");
    return NULL;
  }
  char name[96];
  snprintf(name, sizeof name, "apertium %s", pair);
  struct xmt_engine_config ec = {cmd.data,
                                 name,
                                 XMT_FRAME_NULL_SEGMENT,
                                 a->timeout_ms,
                                 a->max_failures,
                                 markup ? xmt_apertium_encode_markup : encode,
                                 markup ? xmt_apertium_decode_markup
                                        : xmt_apertium_decode,
                                 a->max_answer,
                                 a->interrupted};
  struct xmt_engine *e = xmt_engine_new(&ec, msg, msglen);
  xmt_buf_free(&cmd);
  return e;
}

/* The engine of a pair, started on first use; NULL with *error set when
 * the pair cannot run (remembered, so the message is given once). */
static struct pair_engine *engine_for(struct apertium *a, const char *pair) {
  for (size_t i = 0; i < a->nengines; i++)
    if (strcmp(a->engines[i].pair, pair) == 0)
      return &a->engines[i];
  if (a->nengines == MAX_PAIRS)
    return NULL;
  struct pair_engine *pe = &a->engines[a->nengines];
  char msg[512];
  if ((pe->pair = xmt_strdup(pair)) == NULL)
    return NULL;
  pe->engine = start_pair(a, pair, 0, msg, sizeof msg);
  if (pe->engine == NULL && (pe->error = xmt_strdup(msg)) == NULL) {
    free(pe->pair);
    return NULL;
  }
  a->nengines++;
  return pe;
}

/* --- The backend ----------------------------------------------------------
 */

static void apertium_close(void *state) {
  struct apertium *a = state;
  if (a == NULL)
    return;
  for (size_t i = 0; i < a->nengines; i++) {
    xmt_engine_free(a->engines[i].engine);
    xmt_engine_free(a->engines[i].markup);
    free(a->engines[i].pair);
    free(a->engines[i].error);
  }
  free(a->datadir);
  free(a->pair);
  free(a->req);
  free(a->resp);
  free(a);
}

static int apertium_open(void *user, const struct xmt_backend_config *config,
                         void **state, char *errbuf, size_t errlen) {
  (void)user;
  static const char *const known[] = {"datadir", "timeout", "max-failures",
                                      NULL};
  if (xmt_backend_check_options(config, "apertium", known, errbuf, errlen))
    return 1;
  struct apertium *a = xmt_backend_state_new(sizeof *a, errbuf, errlen);
  if (a == NULL)
    return 1;
  const char *datadir = xmt_backend_option(config, "datadir");
  a->datadir = xmt_strdup(datadir != NULL ? datadir : DEFAULT_DATADIR);
  a->timeout_ms = config->timeout_ms;
  a->max_answer = config->max_answer_bytes;
  a->interrupted = config->interrupted;
  a->max_failures = 3;
  if (a->datadir == NULL) {
    snprintf(errbuf, errlen, "out of memory");
    goto fail;
  }
  if (xmt_backend_option_seconds(config, "apertium", "timeout", &a->timeout_ms,
                                 errbuf, errlen) != 0 ||
      xmt_backend_option_uint(config, "apertium", "max-failures", 1, 1000,
                              &a->max_failures, errbuf, errlen) != 0)
    goto fail;
  char pair[64];
  const char *spec = config->spec;
  if (spec != NULL && *spec != '\0') {
    if (!valid_pair_name(spec) || strlen(spec) >= sizeof pair) {
      snprintf(errbuf, errlen,
               "apertium: '%.64s' is not a pair name such as eng-spa", spec);
      goto fail;
    }
    snprintf(pair, sizeof pair, "%s", spec);
  } else if (config->source_language != NULL &&
             config->target_language != NULL) {
    if (pair_for(a, config->source_language, config->target_language, pair,
                 sizeof pair, errbuf, errlen) != 0)
      goto fail;
  } else {
    pair[0] = '\0'; /* from the document's languages, batch by batch */
  }
  if (pair[0] != '\0') {
    if ((a->pair = xmt_strdup(pair)) == NULL) {
      snprintf(errbuf, errlen, "out of memory");
      goto fail;
    }
    /* Start now: a missing pair is a usage error, not a failed segment. */
    struct pair_engine *pe = engine_for(a, pair);
    if (pe == NULL || pe->engine == NULL) {
      snprintf(errbuf, errlen, "%s", pe != NULL ? pe->error : "out of memory");
      goto fail;
    }
  }
  *state = a;
  return 0;
fail:
  apertium_close(a);
  return 1;
}

/* Translates through a pair's pipeline, the markup one when asked (and
 * when it starts). */
static int pair_translate(struct pair_engine *pe, int markup,
                          const struct xmt_mt_request *requests,
                          xmt_mt_response *const *responses, size_t n,
                          const struct apertium *a) {
  struct xmt_engine *e = pe->engine;
  if (markup) {
    if (pe->markup == NULL) {
      char msg[512];
      pe->markup = start_pair(a, pe->pair, 1, msg, sizeof msg);
      if (pe->markup == NULL) {
        for (size_t k = 0; k < n; k++)
          if (xmt_mt_response_set_engine_error(responses[k], msg) != XMT_OK)
            return 1;
        return 0;
      }
    }
    e = pe->markup;
  }
  int rc = xmt_engine_translate(e, requests, responses, n);
  if (rc == 0 || rc == XMT_ENGINE_INTERRUPTED)
    return rc != 0;
  xmt_mt_response_out_of_memory(responses[0]);
  return 1;
}

static int translate_requests(struct apertium *a, int markup,
                              const struct xmt_mt_request *requests,
                              xmt_mt_response *const *responses, size_t n) {
  if (a->pair != NULL)
    return pair_translate(&a->engines[0], markup, requests, responses, n, a);
  if (n > a->cap) {
    size_t cap[2] = {a->cap, a->cap}; /* both arrays grow alike */
    struct xmt_mt_request *req =
        xmt_grow_array(a->req, &cap[0], n, sizeof *req);
    if (req != NULL)
      a->req = req;
    xmt_mt_response **resp = xmt_grow_array(a->resp, &cap[1], n, sizeof *resp);
    if (resp != NULL)
      a->resp = resp;
    if (req == NULL || resp == NULL)
      return 1;
    a->cap = cap[0];
  }
  /* Requests grouped by language pair, each group to its pair's engine. */
  char *done = calloc(n, 1);
  if (done == NULL)
    return 1;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (done[i])
      continue;
    const char *src = requests[i].source_language;
    const char *tgt = requests[i].target_language;
    size_t m = 0;
    for (size_t j = i; j < n; j++) {
      const char *s = requests[j].source_language;
      const char *t = requests[j].target_language;
      if (!done[j] && (s == src || (s && src && strcasecmp(s, src) == 0)) &&
          (t == tgt || (t && tgt && strcasecmp(t, tgt) == 0))) {
        done[j] = 1;
        a->req[m] = requests[j];
        a->resp[m++] = responses[j];
      }
    }
    char pair[64], msg[512];
    const char *error = msg;
    struct pair_engine *pe = NULL;
    if (pair_for(a, src, tgt, pair, sizeof pair, msg, sizeof msg) == 0) {
      pe = engine_for(a, pair);
      error = pe == NULL ? "apertium: too many language pairs in one run"
                         : pe->error;
    }
    if (pe != NULL && pe->engine != NULL) {
      rc = pair_translate(pe, markup, a->req, a->resp, m, a);
      continue;
    }
    /* The pair cannot run: an engine that cannot start. */
    for (size_t k = 0; rc == 0 && k < m; k++)
      rc = xmt_mt_response_set_engine_error(a->resp[k], error) != XMT_OK;
  }
  free(done);
  return rc;
}

static int apertium_translate(void *state,
                              const struct xmt_mt_request *requests,
                              xmt_mt_response *const *responses, size_t n) {
  return translate_requests(state, 0, requests, responses, n);
}

static int apertium_translate_markup(void *state,
                                     const struct xmt_mt_request *requests,
                                     xmt_mt_response *const *responses,
                                     size_t n) {
  return translate_requests(state, 1, requests, responses, n);
}

const struct xmt_backend xmt_backend_apertium = {
    XMT_BACKEND_ABI_VERSION, "apertium",     apertium_open,
    apertium_translate,      apertium_close, apertium_translate_markup};
