/* http.c -- the http backend: an MT web service speaking the
 * Apertium APy or the LibreTranslate /translate API, several requests in
 * flight (libcurl multi), retries with exponential backoff.
 *
 * One HTTP request per segment: APy answers one q at a time, and small
 * requests in flight on kept-alive connections cost little. Retried while
 * the batch's timeout lasts (it covers the retries): 5xx, 429, timeouts
 * and connection failures, which are the engine's failures when they
 * last; a 4xx fails its segment with the status and the start of the
 * body. A body is read no further than an answer to its request may go. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends_private.h"
#include "curl_api.h"

#define DEFAULT_TIMEOUT_MS 60000u
#define BACKOFF_MS 250u /* first retry delay; doubles each time */
/* JSON may spell a character of the translation in up to six bytes
 * (\u00e9 for two), and the service wraps it in an envelope. */
#define JSON_GROWTH 6u
#define ENVELOPE 4096u

enum api { API_APY, API_LIBRETRANSLATE };

struct job {
  size_t index;
  unsigned attempt;
  int running, done;
  unsigned long long not_before;
  CURL *easy;
  struct xmt_buf request, body;
  size_t body_cap; /* the most bytes of body taken */
  int too_big;
  char last_error[320];
};

struct http {
  const struct xmt_curl_api *curl;
  char *url;
  enum api api;
  char *key;
  unsigned concurrency, retries, timeout_ms;
  size_t max_answer;
  const int *interrupted;      /* the run's, or NULL */
  unsigned long long deadline; /* of the batch under way */
  CURLM *multi;
  CURL **idle; /* easy handles kept for their connections */
  size_t nidle;
  struct curl_slist *json_headers;
  struct job *jobs;
  size_t jobs_cap;
  struct xmt_buf text;
  struct xmt_buf err; /* an answer's "error" */
};

/* --- Requests ---------------------------------------------------------------
 */

static size_t on_body(char *data, size_t size, size_t nmemb, void *user) {
  struct job *job = user;
  size_t n = size * nmemb;
  if (n > job->body_cap - job->body.len) {
    job->too_big = 1;
    return 0; /* aborts the transfer */
  }
  return xmt_buf_append(&job->body, data, n) == XMT_OK ? n : 0;
}

/* Appends key=urlencoded(value)&. */
static xmt_status form_field(const struct http *h, CURL *easy,
                             struct xmt_buf *out, const char *key,
                             const char *value, size_t len) {
  char *enc = h->curl->easy_escape(easy, value, (int)len);
  if (enc == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = xmt_buf_append_str(out, out->len > 0 ? "&" : "");
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, key);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(out, '=');
  if (st == XMT_OK)
    st = xmt_buf_append_str(out, enc);
  h->curl->free(enc);
  return st;
}

static xmt_status build_request(struct http *h, struct job *job,
                                const struct xmt_mt_request *r) {
  xmt_buf_reset(&job->request);
  char src[16], tgt[16], region[8];
  const char *sl = r->source_language != NULL ? r->source_language : "auto";
  const char *tl = r->target_language != NULL ? r->target_language : "";
  if (h->api == API_APY) {
    xmt_apertium_language(sl, src, sizeof src, region, sizeof region);
    xmt_apertium_language(tl, tgt, sizeof tgt, region, sizeof region);
    char pair[40];
    snprintf(pair, sizeof pair, "%s|%s", src, tgt);
    xmt_status st =
        form_field(h, job->easy, &job->request, "q", r->text, r->len);
    if (st == XMT_OK)
      st = form_field(h, job->easy, &job->request, "langpair", pair,
                      strlen(pair));
    if (st == XMT_OK)
      st = xmt_buf_append_str(&job->request, "&markUnknown=no&format=txt");
    if (st == XMT_OK && h->key != NULL)
      st = form_field(h, job->easy, &job->request, "key", h->key,
                      strlen(h->key));
    return st;
  }
  snprintf(src, sizeof src, "%.*s", (int)strcspn(sl, "-_"), sl);
  snprintf(tgt, sizeof tgt, "%.*s", (int)strcspn(tl, "-_"), tl);
  xmt_status st = xmt_buf_append_str(&job->request, "{\"q\":");
  if (st == XMT_OK)
    st = xmt_json_quote(&job->request, r->text, r->len, 0);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&job->request, ",\"source\":");
  if (st == XMT_OK)
    st = xmt_json_quote(&job->request, src, strlen(src), 0);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&job->request, ",\"target\":");
  if (st == XMT_OK)
    st = xmt_json_quote(&job->request, tgt, strlen(tgt), 0);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&job->request, ",\"format\":\"text\"");
  if (st == XMT_OK && h->key != NULL) {
    st = xmt_buf_append_str(&job->request, ",\"api_key\":");
    if (st == XMT_OK)
      st = xmt_json_quote(&job->request, h->key, strlen(h->key), 0);
  }
  return st == XMT_OK ? xmt_buf_append_byte(&job->request, '}') : st;
}

/* The most bytes of body taken for a request of request_len bytes: as
 * many as a translation of xmt_answer_limit bytes may take in JSON, and
 * never more than the maximum answer size. */
static size_t body_cap(const struct http *h, size_t request_len) {
  size_t rel = xmt_answer_limit(SIZE_MAX, request_len);
  size_t cap = rel <= (SIZE_MAX - ENVELOPE) / JSON_GROWTH
                   ? rel * JSON_GROWTH + ENVELOPE
                   : SIZE_MAX;
  return cap < h->max_answer ? cap : h->max_answer;
}

static int start_job(struct http *h, struct job *job,
                     const struct xmt_mt_request *r) {
  CURL *easy = h->nidle > 0 ? h->idle[--h->nidle] : h->curl->easy_init();
  if (easy == NULL)
    return -1;
  h->curl->easy_reset(easy);
  job->easy = easy;
  /* A body kept from a huge answer is not kept for the next. */
  if (job->body.cap > ((size_t)1 << 20))
    xmt_buf_free(&job->body);
  xmt_buf_reset(&job->body);
  job->body_cap = body_cap(h, r->len);
  job->too_big = 0;
  if (build_request(h, job, r) != XMT_OK)
    return -1;
  h->curl->easy_setopt(easy, CURLOPT_URL, h->url);
  h->curl->easy_setopt(easy, CURLOPT_POSTFIELDS, job->request.data);
  h->curl->easy_setopt(easy, CURLOPT_POSTFIELDSIZE, (long)job->request.len);
  if (h->api == API_LIBRETRANSLATE)
    h->curl->easy_setopt(easy, CURLOPT_HTTPHEADER, h->json_headers);
  h->curl->easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
  h->curl->easy_setopt(easy, CURLOPT_WRITEDATA, job);
  h->curl->easy_setopt(easy, CURLOPT_PRIVATE, job);
  /* What is left of the batch's time: --timeout is per batch, retries
   * included. */
  unsigned long long now = xmt_now_ms();
  long left = h->deadline > now ? (long)(h->deadline - now) : 1;
  h->curl->easy_setopt(easy, CURLOPT_TIMEOUT_MS, left);
  h->curl->easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  h->curl->easy_setopt(easy, CURLOPT_USERAGENT, "xliffmt/" PACKAGE_VERSION);
  if (h->curl->multi_add_handle(h->multi, easy) != CURLM_OK)
    return -1;
  job->running = 1;
  return 0;
}

/* The start of a body for a message: one line, at most 160 bytes, cut on
 * a UTF-8 boundary. */
static void excerpt(const struct xmt_buf *body, char *out, size_t outlen) {
  const char *data = body->data != NULL ? body->data : "";
  size_t n = xmt_utf8_valid_prefix(data, body->len < 160 ? body->len : 160);
  size_t k = 0;
  for (size_t i = 0; i < n && k + 1 < outlen; i++) {
    char c = data[i];
    out[k++] = c == '\n' || c == '\r' || c == '\t' ? ' ' : c;
  }
  out[k] = '\0';
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 1 when a 200 answer also carries an "error" (a string, or an
 * object with a message: a service or a proxy in front of it that failed
 * and still wrote a translatedText, a stale or a placeholder one), its
 * text in h->err; 0 when it has none; -1 out of memory. Such an answer is
 * no translation. */
static int answer_error(struct http *h, const struct job *job) {
  static const char *const plain[] = {"error", NULL};
  static const char *const object[] = {"error", "message", NULL};
  const char *body = job->body.data != NULL ? job->body.data : "";
  xmt_buf_reset(&h->err);
  int rc = xmt_json_string_at(body, job->body.len, plain, &h->err);
  if (rc == 1)
    rc = xmt_json_string_at(body, job->body.len, object, &h->err);
  if (rc == -2)
    return -1;
  return rc == 0 && h->err.len > 0; /* "error": "" says none */
}

/* The translation of a 200 answer, with the blanks the service adds at the
 * ends (APy's txt format ends in a newline) replaced by the request's. */
static int accept_answer(struct http *h, struct job *job,
                         const struct xmt_mt_request *r,
                         xmt_mt_response *resp) {
  static const char *const apy[] = {"responseData", "translatedText", NULL};
  static const char *const libre[] = {"translatedText", NULL};
  xmt_buf_reset(&h->text);
  size_t lead = 0, trail = 0;
  while (lead < r->len && is_space(r->text[lead]))
    lead++;
  while (trail < r->len - lead && is_space(r->text[r->len - 1 - trail]))
    trail++;
  if (xmt_buf_append(&h->text, r->text, lead) != XMT_OK)
    return -1;
  size_t start = h->text.len;
  int rc = xmt_json_string_at(job->body.data != NULL ? job->body.data : "",
                              job->body.len, h->api == API_APY ? apy : libre,
                              &h->text);
  if (rc == -2)
    return -1;
  char msg[320], ex[200];
  if (rc == 0 && (rc = answer_error(h, job)) != 0) {
    if (rc < 0)
      return -1;
    excerpt(&h->err, ex, sizeof ex);
    snprintf(msg, sizeof msg, "%s: the answer says error: %s", h->url, ex);
    return xmt_mt_response_set_error(resp, msg) == XMT_OK ? 0 : -1;
  }
  if (rc != 0) {
    excerpt(&job->body, ex, sizeof ex);
    snprintf(msg, sizeof msg, "%s: %s: %s", h->url,
             rc < 0 ? "the answer is not JSON"
                    : "the answer has no translatedText",
             ex);
    return xmt_mt_response_set_error(resp, msg) == XMT_OK ? 0 : -1;
  }
  size_t from = start;
  while (from < h->text.len && is_space(h->text.data[from]))
    from++;
  memmove(h->text.data + start, h->text.data + from, h->text.len - from);
  h->text.len -= from - start;
  while (h->text.len > start && is_space(h->text.data[h->text.len - 1]))
    h->text.len--;
  if (xmt_buf_append(&h->text, r->text + r->len - trail, trail) != XMT_OK)
    return -1;
  xmt_status st = xmt_mt_response_set_text(resp, h->text.data, h->text.len);
  if (st == XMT_ERR_ENCODING) /* a \u escape of a lone surrogate is refused
                                 above; this is raw invalid UTF-8 */
    st = xmt_mt_response_set_error(resp, "the answer is not valid UTF-8");
  return st == XMT_OK ? 0 : -1;
}

/* Fails a job for good: the engine's failure (it could not be reached,
 * timed out or kept failing) or the segment's own. */
static int fail_job(struct job *job, xmt_mt_response *resp, int engine,
                    const char *message) {
  job->done = 1;
  xmt_status st = engine ? xmt_mt_response_set_engine_error(resp, message)
                         : xmt_mt_response_set_error(resp, message);
  return st == XMT_OK ? 0 : -1;
}

/* Handles a finished transfer: done, failed, or queued for a retry. */
static int finish_job(struct http *h, struct job *job, CURLcode code,
                      const struct xmt_mt_request *r, xmt_mt_response *resp) {
  long status = 0;
  h->curl->easy_getinfo(job->easy, CURLINFO_RESPONSE_CODE, &status);
  h->curl->multi_remove_handle(h->multi, job->easy);
  h->idle[h->nidle++] = job->easy;
  job->easy = NULL;
  job->running = 0;
  char ex[200], msg[500];
  int retry = 0;
  if (code == CURLE_OK && status == 200) {
    job->done = 1;
    return accept_answer(h, job, r, resp);
  }
  if (code == CURLE_OK) {
    excerpt(&job->body, ex, sizeof ex);
    snprintf(job->last_error, sizeof job->last_error, "HTTP %ld from %.80s%s%s",
             status, h->url, ex[0] ? ": " : "", ex);
    retry = status >= 500 || status == 429;
  } else if (job->too_big) {
    if (job->body_cap == h->max_answer)
      snprintf(msg, sizeof msg,
               "%.80s: the answer is larger than %zu bytes, the maximum "
               "answer size",
               h->url, job->body_cap);
    else
      snprintf(msg, sizeof msg,
               "%.80s: the answer is larger than %zu bytes for a request of "
               "%zu bytes (no translation is that much longer)",
               h->url, job->body_cap, r->len);
    return fail_job(job, resp, 0, msg);
  } else {
    snprintf(job->last_error, sizeof job->last_error, "%.80s: %s", h->url,
             h->curl->easy_strerror(code));
    retry = code == CURLE_OPERATION_TIMEDOUT || code == CURLE_COULDNT_CONNECT ||
            code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_SEND_ERROR ||
            code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING ||
            code == CURLE_PARTIAL_FILE;
  }
  unsigned shift = job->attempt < 10 ? job->attempt : 10;
  unsigned long long when =
      xmt_now_ms() + ((unsigned long long)BACKOFF_MS << shift);
  if (retry && job->attempt < h->retries && when < h->deadline) {
    job->attempt++;
    job->not_before = when;
    return 0;
  }
  /* A retry was due, but the batch's time is up. */
  int no_time = retry && job->attempt < h->retries;
  char after[40] = "", up[64] = "";
  if (job->attempt > 0)
    snprintf(after, sizeof after, "after %u retr%s", job->attempt,
             job->attempt == 1 ? "y" : "ies");
  if (no_time)
    snprintf(up, sizeof up, "%sthe batch's %.1f s were up",
             job->attempt > 0 ? "; " : "", h->timeout_ms / 1000.0);
  if (after[0] != '\0' || up[0] != '\0')
    snprintf(msg, sizeof msg, "%.320s (%s%s)", job->last_error, after, up);
  else
    snprintf(msg, sizeof msg, "%s", job->last_error);
  return fail_job(job, resp, retry, msg);
}

/* The jobs still waiting (for a slot or their retry) when the batch's
 * time is up fail. */
static int out_of_time(struct http *h, const struct xmt_mt_request *requests,
                       xmt_mt_response *const *responses, size_t n,
                       size_t *done) {
  (void)requests;
  for (size_t i = 0; i < n; i++) {
    struct job *job = &h->jobs[i];
    if (job->running || job->done)
      continue;
    char msg[500];
    if (job->last_error[0] != '\0')
      snprintf(msg, sizeof msg,
               "%.320s (after %u retr%s; the batch's %.1f s were up)",
               job->last_error, job->attempt, job->attempt == 1 ? "y" : "ies",
               h->timeout_ms / 1000.0);
    else
      snprintf(msg, sizeof msg, "%.80s: not sent: the batch's %.1f s were up",
               h->url, h->timeout_ms / 1000.0);
    if (fail_job(job, responses[i], 1, msg) != 0)
      return -1;
    ++*done;
  }
  return 0;
}

static int http_translate(void *state, const struct xmt_mt_request *requests,
                          xmt_mt_response *const *responses, size_t n) {
  struct http *h = state;
  if (n > h->jobs_cap) {
    size_t old = h->jobs_cap;
    struct job *jobs = xmt_grow_array(h->jobs, &h->jobs_cap, n, sizeof *jobs);
    if (jobs == NULL)
      return 1;
    memset(jobs + old, 0, (h->jobs_cap - old) * sizeof *jobs);
    h->jobs = jobs;
  }
  for (size_t i = 0; i < n; i++) {
    struct job *job = &h->jobs[i];
    job->index = i;
    job->attempt = 0;
    job->running = job->done = 0;
    job->not_before = 0;
    job->last_error[0] = '\0';
  }
  h->deadline = xmt_now_ms() + h->timeout_ms;
  size_t done = 0, running = 0;
  int rc = 0;
  while (rc == 0 && done < n) {
    unsigned long long now = xmt_now_ms();
    if (now >= h->deadline && out_of_time(h, requests, responses, n, &done))
      rc = 1;
    for (size_t i = 0; rc == 0 && i < n && running < h->concurrency; i++) {
      struct job *job = &h->jobs[i];
      if (job->running || job->done || job->not_before > now)
        continue;
      if (start_job(h, job, &requests[i]) != 0)
        rc = 1;
      else
        running++;
    }
    int still;
    if (rc != 0 || h->curl->multi_perform(h->multi, &still) != CURLM_OK) {
      rc = 1;
      break;
    }
    CURLMsg *m;
    int left;
    while (rc == 0 && (m = h->curl->multi_info_read(h->multi, &left)) != NULL) {
      if (m->msg != CURLMSG_DONE)
        continue;
      char *priv = NULL;
      h->curl->easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
      struct job *job = (struct job *)(void *)priv;
      CURLcode code = m->data.result;
      running--;
      if (finish_job(h, job, code, &requests[job->index],
                     responses[job->index]) != 0)
        rc = 1;
      done += job->done;
    }
    if (rc != 0 || done == n)
      break;
    if (h->interrupted != NULL &&
        __atomic_load_n(h->interrupted, __ATOMIC_RELAXED) != 0) {
      rc = 1; /* the run ends at once */
      break;
    }
    /* Sleep until a transfer needs curl, a retry is due or the time is
     * up; 100 ms at most, for an interrupted run not to wait. */
    now = xmt_now_ms();
    unsigned long long wake = now + 100;
    if (h->deadline < wake)
      wake = h->deadline;
    for (size_t i = 0; i < n; i++)
      if (!h->jobs[i].running && !h->jobs[i].done &&
          h->jobs[i].not_before < wake)
        wake = h->jobs[i].not_before;
    int wait = wake > now ? (int)(wake - now) : 0;
    if (running == 0) {
      struct timespec ts = {wait / 1000, (long)(wait % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    } else if (h->curl->multi_wait(h->multi, NULL, 0, wait > 0 ? wait : 1,
                                   NULL) != CURLM_OK) {
      rc = 1;
    }
  }
  /* Only after an abort: transfers still attached. */
  for (size_t i = 0; i < n; i++) {
    struct job *job = &h->jobs[i];
    if (job->running) {
      h->curl->multi_remove_handle(h->multi, job->easy);
      h->idle[h->nidle++] = job->easy;
      job->easy = NULL;
      job->running = 0;
    }
  }
  return rc;
}

/* --- Life cycle
 * ---------------------------------------------------------------
 */

static void http_close(void *state) {
  struct http *h = state;
  if (h == NULL)
    return;
  const struct xmt_curl_api *curl = h->curl;
  for (size_t i = 0; i < h->nidle; i++)
    h->curl->easy_cleanup(h->idle[i]);
  if (h->multi != NULL)
    h->curl->multi_cleanup(h->multi);
  h->curl->slist_free_all(h->json_headers);
  for (size_t i = 0; i < h->jobs_cap; i++) {
    xmt_buf_free(&h->jobs[i].request);
    xmt_buf_free(&h->jobs[i].body);
  }
  free(h->jobs);
  free(h->idle);
  xmt_buf_free(&h->text);
  xmt_buf_free(&h->err);
  free(h->url);
  free(h->key);
  free(h);
  curl->global_cleanup();
}

/* The service's translate endpoint: URL as given when its path ends in
 * /translate, else URL + "/translate". */
static char *endpoint(const char *url) {
  size_t len = strlen(url);
  while (len > 0 && url[len - 1] == '/')
    len--;
  int has = len >= 10 && memcmp(url + len - 10, "/translate", 10) == 0;
  char *out = malloc(len + 11);
  if (out != NULL)
    snprintf(out, len + 11, "%.*s%s", (int)len, url, has ? "" : "/translate");
  return out;
}

static int http_open(void *user, const struct xmt_backend_config *config,
                     void **state, char *errbuf, size_t errlen) {
  (void)user;
  static const char *const known[] = {"api",     "key",     "concurrency",
                                      "retries", "timeout", NULL};
  const char *url = config->spec;
  if (url == NULL ||
      (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)) {
    snprintf(errbuf, errlen,
             "the http backend needs a URL: --mt http:http://HOST:PORT");
    return 1;
  }
  if (xmt_backend_check_options(config, "http", known, errbuf, errlen))
    return 1;
  /* libcurl is loaded here, the first time an http engine is made. */
  char why[512];
  const struct xmt_curl_api *curl = xmt_curl_api(why, sizeof why);
  if (curl == NULL) {
    snprintf(errbuf, errlen, "http backend: %s", why);
    return 1;
  }
  if (curl->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(errbuf, errlen, "cannot initialise libcurl");
    return 1;
  }
  struct http *h = xmt_backend_state_new(sizeof *h, errbuf, errlen);
  if (h == NULL) {
    curl->global_cleanup();
    return 1;
  }
  h->curl = curl;
  h->concurrency = 4;
  h->retries = 3;
  h->timeout_ms =
      config->timeout_ms != 0 ? config->timeout_ms : DEFAULT_TIMEOUT_MS;
  h->max_answer = config->max_answer_bytes != 0 ? config->max_answer_bytes
                                                : XMT_DEFAULT_MAX_ANSWER;
  h->interrupted = config->interrupted;
  const char *api = xmt_backend_option(config, "api");
  const char *key = xmt_backend_option(config, "key");
  if (api != NULL && strcmp(api, "libretranslate") == 0) {
    h->api = API_LIBRETRANSLATE;
  } else if (api != NULL && strcmp(api, "apy") != 0) {
    snprintf(errbuf, errlen,
             "http backend: api is apy or libretranslate, not '%.32s'", api);
    goto fail;
  }
  if (xmt_backend_option_uint(config, "http", "concurrency", 1, 256,
                              &h->concurrency, errbuf, errlen) != 0 ||
      xmt_backend_option_uint(config, "http", "retries", 0, 20, &h->retries,
                              errbuf, errlen) != 0 ||
      xmt_backend_option_seconds(config, "http", "timeout", &h->timeout_ms,
                                 errbuf, errlen) != 0)
    goto fail;
  h->url = endpoint(url);
  h->key = key != NULL ? xmt_strdup(key) : NULL;
  h->idle = calloc(h->concurrency, sizeof *h->idle);
  h->multi = h->curl->multi_init();
  h->json_headers =
      h->curl->slist_append(NULL, "Content-Type: application/json");
  if (h->url == NULL || (key != NULL && h->key == NULL) || h->idle == NULL ||
      h->multi == NULL || h->json_headers == NULL) {
    snprintf(errbuf, errlen, "out of memory");
    goto fail;
  }
  h->curl->multi_setopt(h->multi, CURLMOPT_MAXCONNECTS, (long)h->concurrency);
  *state = h;
  return 0;
fail:
  http_close(h);
  return 1;
}

const struct xmt_backend xmt_backend_http = {
    XMT_BACKEND_ABI_VERSION, "http",     http_open,
    http_translate,          http_close, NULL};
