/* serve_http.c -- xliffmt serve: the HTTP glue on libmicrohttpd. Routes,
 * request bodies and their limit, keys, replies; a translation goes to a
 * worker with its connection suspended, and is answered when the worker
 * resumes it. Everything here runs on libmicrohttpd's one thread. */
#include "config.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"
#include "serve_document.h"

static const struct serve_route routes[] = {
    {"/translate", SERVE_API_NONE, 1, 1, serve_translate_dispatch},
    {"/listPairs", SERVE_API_APY, 0, 0, serve_apy_list_pairs},
    {"/list", SERVE_API_APY, 0, 0, serve_apy_list_pairs},
    {"/listLanguageNames", SERVE_API_APY, 0, 0, serve_apy_language_names},
    {"/v2/translate", SERVE_API_DEEPL, 1, 1, serve_deepl_translate},
    {"/v1/translate", SERVE_API_DEEPL, 1, 1, serve_deepl_translate},
    {"/v2/languages", SERVE_API_DEEPL, 1, 0, serve_deepl_languages},
    {"/v1/languages", SERVE_API_DEEPL, 1, 0, serve_deepl_languages},
    {"/v2/usage", SERVE_API_DEEPL, 1, 0, serve_deepl_usage},
    {"/v1/usage", SERVE_API_DEEPL, 1, 0, serve_deepl_usage},
    {"/v2/glossary-language-pairs", SERVE_API_DEEPL, 1, 0,
     serve_deepl_glossary_pairs},
    {"/v2/glossaries", SERVE_API_DEEPL, 1, 0, serve_deepl_glossaries},
    {"/languages", SERVE_API_LIBRE, 0, 0, serve_libre_languages},
    {"/health", SERVE_API_NONE, 0, 0, serve_health_handle},
    {"/metrics", SERVE_API_NONE, 0, 0, serve_metrics_handle}};

const struct serve_route *serve_route_find(const char *path) {
  for (size_t i = 0; i < sizeof routes / sizeof *routes; i++)
    if (strcmp(routes[i].path, path) == 0)
      return &routes[i];
  return serve_document_route(path); /* DeepL's, with ids in the path */
}

double serve_elapsed(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) +
         (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* The path with runs of '/' as one and no final '/' (clients join base
 * URLs and paths either way); of a target in absolute form
 * (http://HOST/PATH, which a proxy sends and RFC 9112 has servers take),
 * its path. */
static char *normal_path(const char *url) {
  size_t scheme = strncasecmp(url, "http://", 7) == 0    ? 7
                  : strncasecmp(url, "https://", 8) == 0 ? 8
                                                         : 0;
  if (scheme > 0)
    url += scheme + strcspn(url + scheme, "/");
  char *p = malloc(strlen(url) + 2);
  if (p == NULL)
    return NULL;
  size_t k = 0;
  for (const char *s = url; *s != '\0'; s++)
    if (*s != '/' || k == 0 || p[k - 1] != '/')
      p[k++] = *s;
  if (k > 1 && p[k - 1] == '/')
    k--;
  if (k == 0)
    p[k++] = '/';
  p[k] = '\0';
  return p;
}

static void client_address(struct MHD_Connection *conn, char *out, size_t len) {
  const union MHD_ConnectionInfo *ci =
      serve_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  snprintf(out, len, "-");
  if (ci == NULL || ci->client_addr == NULL)
    return;
  const struct sockaddr *sa = ci->client_addr;
  if (sa->sa_family == AF_INET)
    inet_ntop(AF_INET,
              &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
              (socklen_t)len);
  else if (sa->sa_family == AF_INET6)
    inet_ntop(AF_INET6,
              &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
              (socklen_t)len);
}

/* Whose errors a /translate gets before its body is read (too large,
 * not JSON, a type no API takes): LibreTranslate's when its body is JSON
 * or multipart (APy takes neither) or its query names source or target;
 * else APy's. */
static enum serve_api body_api(struct MHD_Connection *conn) {
  const char *type = serve_mhd.lookup_connection_value(
      conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  if (type != NULL && (strncasecmp(type, "application/json", 16) == 0 ||
                       strncasecmp(type, "multipart/form-data", 19) == 0))
    return SERVE_API_LIBRE;
  if (serve_mhd.lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND,
                                        "langpair"))
    return SERVE_API_APY;
  return serve_mhd.lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND,
                                           "source") ||
                 serve_mhd.lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND,
                                                   "target")
             ? SERVE_API_LIBRE
             : SERVE_API_NONE;
}

static struct serve_request *begin(struct serve_server *sv,
                                   struct MHD_Connection *conn, const char *url,
                                   const char *method) {
  struct serve_request *rq = calloc(1, sizeof *rq);
  if (rq == NULL || (rq->path = normal_path(url)) == NULL) {
    free(rq);
    return NULL;
  }
  rq->server = sv;
  rq->conn = conn;
  clock_gettime(CLOCK_MONOTONIC, &rq->start);
  snprintf(rq->method, sizeof rq->method, "%s", method);
  client_address(conn, rq->client, sizeof rq->client);
  /* OmegaT's LibreTranslate plug-in posts to the URL as typed: a POST
   * to the root is a /translate. */
  rq->route = serve_route_find(
      strcmp(rq->path, "/") == 0 && strcmp(method, "POST") == 0 ? "/translate"
                                                                : rq->path);
  rq->api =
      rq->route != NULL ? rq->route->api
      : strncmp(rq->path, "/v1/", 4) == 0 || strncmp(rq->path, "/v2/", 4) == 0
          ? SERVE_API_DEEPL
          : SERVE_API_NONE;
  if (rq->route != NULL && rq->route->handle == serve_translate_dispatch)
    rq->api = body_api(conn);
  pthread_mutex_lock(&sv->lock);
  sv->active++;
  sv->uploads += (size_t)serve_document_is_upload(rq);
  pthread_mutex_unlock(&sv->lock);
  return rq;
}

static void request_free(struct serve_request *rq) {
  serve_job_free(rq->job);
  serve_params_free(&rq->params);
  serve_reply_free(&rq->reply);
  free(rq->body);
  free(rq->path);
  free(rq->content_type);
  free(rq->auth);
  free(rq);
}

/* Tornado's reason phrases, which APy's errors carry. */
const char *serve_reason(unsigned status) {
  switch (status) {
  case 200:
    return "OK";
  case 204:
    return "No Content";
  case 400:
    return "Bad Request";
  case 403:
    return "Forbidden";
  case 404:
    return "Not Found";
  case 405:
    return "Method Not Allowed";
  case 408:
    return "Request Timeout";
  case 413:
    return "Request Entity Too Large";
  case 415:
    return "Unsupported Media Type";
  case 500:
    return "Internal Server Error";
  case 501:
    return "Not Implemented";
  case 503:
    return "Service Unavailable";
  default:
    return "Unknown";
  }
}

int serve_error(struct serve_request *rq, unsigned status,
                const char *message) {
  switch (rq->api) {
  case SERVE_API_DEEPL:
    return serve_deepl_error(&rq->reply, status, message);
  case SERVE_API_LIBRE:
    return serve_libre_error(&rq->reply, status, message);
  case SERVE_API_APY:
  case SERVE_API_NONE:
    break;
  }
  return serve_apy_error(&rq->reply, status, message);
}

const char *serve_request_key(struct serve_request *rq) {
  const char *auth = rq->auth;
  if (auth != NULL && strncasecmp(auth, "DeepL-Auth-Key ", 15) == 0) {
    auth += 15;
    while (*auth == ' ')
      auth++;
    return auth;
  }
  /* apiKey: npm libretranslate's name for it */
  static const char *const names[] = {"auth_key", "api_key", "key", "apiKey"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const char *k = serve_param(&rq->params, names[i], NULL);
    if (k != NULL)
      return k;
  }
  return NULL;
}

/* 1 when key is one of the server's. The time taken depends on the
 * server's keys only, never on how much of one the key matches. */
static int key_ok(const struct serve_server *sv, const char *key) {
  if (sv->nkeys == 0)
    return 1;
  size_t len = key != NULL ? strlen(key) : 0;
  int found = 0;
  for (size_t i = 0; i < sv->nkeys; i++) {
    unsigned char d = (unsigned char)(len != sv->key_lens[i]);
    for (size_t k = 0; k < sv->key_lens[i]; k++)
      d |= (unsigned char)(sv->keys[i][k] ^ (k < len ? key[k] : 0));
    found |= d == 0;
  }
  return found;
}

static enum MHD_Result add_query(void *cls, enum MHD_ValueKind kind,
                                 const char *key, size_t key_size,
                                 const char *value, size_t value_size) {
  (void)kind;
  return serve_param_add(cls, key, key_size, value != NULL ? value : "",
                         value != NULL ? value_size : 0, 0)
             ? MHD_YES
             : MHD_NO;
}

/* The query string's parameters and the headers the handlers read,
 * taken from the connection on the HTTP thread; 0 when out of memory. */
static int take_request(struct serve_request *rq) {
  if (serve_mhd.get_connection_values_n(rq->conn, MHD_GET_ARGUMENT_KIND,
                                        add_query, &rq->params) < 0)
    return 0;
  const char *type = serve_mhd.lookup_connection_value(
      rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  const char *auth = serve_mhd.lookup_connection_value(
      rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
  return (type == NULL || (rq->content_type = strdup(type)) != NULL) &&
         (auth == NULL || (rq->auth = strdup(auth)) != NULL);
}

/* The body's parameters; 0 with an error reply. */
static int parse_params(struct serve_request *rq) {
  if (rq->len == 0)
    return 1;
  const char *type = rq->content_type;
  int r;
  if (type != NULL && strncasecmp(type, "application/json", 16) == 0) {
    char why[160];
    r = serve_params_json(&rq->params, rq->body, rq->len, why, sizeof why);
    if (r == -2) {
      serve_error(rq, 400, why);
      return 0;
    }
    if (r < 0) {
      serve_error(rq, 400,
                  rq->api == SERVE_API_LIBRE ? "Invalid JSON format"
                                             : "the body is not a JSON object");
      return 0;
    }
  } else if (type != NULL &&
             strncasecmp(type, "multipart/form-data", 19) == 0) {
    /* curl -F, which LibreTranslate (Flask) takes as a form */
    r = serve_params_multipart(&rq->params, type, rq->body, rq->len);
    if (r < 0) {
      serve_error(rq, 400, "the body is not multipart/form-data");
      return 0;
    }
  } else if (type == NULL ||
             strncasecmp(type, "application/x-www-form-urlencoded", 33) == 0 ||
             strncasecmp(type, "text/plain", 10) == 0) {
    r = serve_params_form(&rq->params, rq->body, rq->len);
  } else {
    serve_error(rq, 415,
                "the body must be application/x-www-form-urlencoded, "
                "multipart/form-data or application/json");
    return 0;
  }
  if (r == 0)
    serve_error(rq, 500, "out of memory");
  return r > 0;
}

static enum MHD_Result send_reply(struct serve_request *rq) {
  struct serve_reply *r = &rq->reply;
  if (r->status == 0)
    serve_error(rq, 500, "no answer");
  struct MHD_Response *resp;
  if (r->has_file) { /* the response owns the file from here on */
    if ((resp = serve_mhd.create_response_from_fd(r->len, r->file)) != NULL)
      r->has_file = 0;
  } else
    resp = serve_mhd.create_response_from_buffer(
        r->len, r->body != NULL ? r->body : (void *)"", MHD_RESPMEM_MUST_COPY);
  if (resp == NULL)
    return MHD_NO;
  if (r->content_type != NULL)
    serve_mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                                  r->content_type);
  if (r->disposition != NULL)
    serve_mhd.add_response_header(resp, "Content-Disposition", r->disposition);
  /* As apertium-apy and LibreTranslate: browser pages may call. */
  serve_mhd.add_response_header(resp, "Access-Control-Allow-Origin", "*");
  serve_mhd.add_response_header(resp, "Access-Control-Allow-Methods",
                                "GET,POST,OPTIONS");
  serve_mhd.add_response_header(resp, "Access-Control-Allow-Headers",
                                "accept, authorization, cache-control, origin, "
                                "x-requested-with, x-file-name, content-type");
  if (r->retry_after > 0) {
    char s[16];
    snprintf(s, sizeof s, "%u", r->retry_after);
    serve_mhd.add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, s);
  }
  if (rq->server->stopping || rq->close)
    serve_mhd.add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
  serve_conn_busy(rq->server, rq->conn, 1);
  enum MHD_Result ok = serve_mhd.queue_response(rq->conn, r->status, resp);
  serve_mhd.destroy_response(resp);
  return ok;
}

struct framing {
  const char *length; /* the first Content-Length */
  int lengths_differ, chunked;
  const char *coding; /* a Transfer-Encoding other than chunked */
};

static enum MHD_Result look_framing(void *cls, enum MHD_ValueKind kind,
                                    const char *key, size_t key_size,
                                    const char *value, size_t value_size) {
  (void)kind;
  (void)key_size;
  (void)value_size;
  struct framing *f = cls;
  if (value == NULL)
    return MHD_YES;
  if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
    if (f->length != NULL && strcmp(f->length, value) != 0)
      f->lengths_differ = 1;
    f->length = f->length != NULL ? f->length : value;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
    f->chunked = 1;
    if (strcasecmp(value, "chunked") != 0 && f->coding == NULL)
      f->coding = value;
  }
  return MHD_YES;
}

/* What makes a body's length ambiguous, which a proxy in front may read
 * otherwise than this server (request smuggling): two different
 * Content-Length headers, or one with Transfer-Encoding (400); or a
 * transfer coding other than chunked, whose body would be waited for
 * until the connection times out (501, as RFC 9112 says). The status
 * and msg; 0: none. */
static unsigned bad_framing(struct serve_request *rq, char *msg, size_t len) {
  struct framing f = {NULL, 0, 0, NULL};
  serve_mhd.get_connection_values_n(rq->conn, MHD_HEADER_KIND, look_framing,
                                    &f);
  if (f.lengths_differ) {
    snprintf(msg, len, "two different Content-Length headers");
    return 400;
  }
  if (f.length != NULL && f.chunked) {
    snprintf(msg, len, "both Content-Length and Transfer-Encoding");
    return 400;
  }
  if (f.coding != NULL) {
    snprintf(msg, len, "Transfer-Encoding %.60s is not supported (chunked is)",
             f.coding);
    return 501;
  }
  return 0;
}

/* 413: the body is over --max-body (a document's, over its own). */
static void too_large(struct serve_request *rq) {
  if (serve_document_is_upload(rq)) {
    serve_document_too_large(rq);
    return;
  }
  char msg[96];
  snprintf(msg, sizeof msg, "request body larger than %zu bytes",
           rq->server->set->max_body);
  serve_error(rq, 413, msg);
}

/* 1 when the documents kept leave room for rq's upload and the others
 * under way; else DeepL's 429 is its reply. */
static int upload_room(struct serve_request *rq) {
  struct serve_server *sv = rq->server;
  pthread_mutex_lock(&sv->lock);
  size_t others = sv->uploads - 1; /* begin counted rq */
  pthread_mutex_unlock(&sv->lock);
  return serve_docs_room(sv->docs, others, rq->client, &rq->reply);
}

/* Answers that need no body: 0 when the request goes on. */
static int early_reply(struct serve_request *rq) {
  struct serve_server *sv = rq->server;
  const char *m = rq->method;
  const char *cl = serve_mhd.lookup_connection_value(
      rq->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  char framing[128];
  unsigned bad = bad_framing(rq, framing, sizeof framing);
  if (bad != 0) {
    rq->close = 1;
    serve_error(rq, bad, framing);
  } else if (sv->stopping > 1 ||
             (sv->stopping && !serve_document_is_poll(rq))) {
    /* While it drains, the documents kept are still asked for and
     * downloaded: that is what the drain waits for. */
    rq->reply.retry_after = 1;
    serve_error(rq, 503, "the server is stopping");
  } else if (strcmp(m, "OPTIONS") == 0) {
    serve_reply_text(&rq->reply, 204, NULL, "");
  } else if ((strcmp(m, "GET") != 0 && strcmp(m, "POST") != 0 &&
              strcmp(m, "HEAD") != 0) ||
             (strcmp(m, "HEAD") == 0 && rq->route != NULL && rq->route->work)) {
    /* HEAD of a translation would run the engine for an answer never
     * sent. */
    serve_error(rq, 405, "method not allowed");
  } else if (cl != NULL &&
             strtoull(cl, NULL, 10) > serve_document_body_limit(rq)) {
    too_large(rq);
  } else if (serve_document_is_upload(rq) && !upload_room(rq)) {
    /* refused before its body is read: uploads at once, each up to
     * --max-document-size in memory, are bounded */
  } else if (rq->route != NULL && rq->route->work &&
             !serve_document_is_upload(rq) && !serve_pool_reserve(sv, rq)) {
    /* the same for the queue's: a body read only to be refused would
     * hold up to --max-body a connection */
    rq->close = 1;
    rq->reply.retry_after = 1;
    serve_error(rq, 503, "too many requests waiting; try again");
  } else {
    return 0;
  }
  return 1;
}

static void take_body(struct serve_request *rq, const char *data, size_t size) {
  if (rq->discarded > 0 || rq->len + size > serve_document_body_limit(rq)) {
    rq->discarded += size;
    return;
  }
  char *b = xmt_grow_array(rq->body, &rq->cap, rq->len + size + 1, 1);
  if (b == NULL) {
    rq->discarded += size;
    return;
  }
  rq->body = b;
  memcpy(rq->body + rq->len, data, size);
  rq->len += size;
  rq->body[rq->len] = '\0';
}

/* Whose /translate a request is: APy's when langpair is given, else
 * LibreTranslate's when it names source or target or is JSON. */
static enum serve_api translate_api(const struct serve_request *rq) {
  const struct serve_params *p = &rq->params;
  if (serve_param(p, "langpair", NULL) != NULL)
    return SERVE_API_APY;
  if (p->json || rq->api == SERVE_API_LIBRE ||
      serve_param(p, "source", NULL) != NULL ||
      serve_param(p, "target", NULL) != NULL)
    return SERVE_API_LIBRE;
  return SERVE_API_APY;
}

struct serve_job *serve_job_new(struct serve_request *rq, size_t n,
                                serve_answer_fn answer) {
  struct serve_job *job = calloc(1, sizeof *job);
  if (job != NULL &&
      (job->texts = calloc(n > 0 ? n : 1, sizeof *job->texts)) == NULL) {
    free(job);
    job = NULL;
  }
  if (job == NULL) {
    serve_error(rq, 500, "out of memory");
    return NULL;
  }
  job->ntexts = n;
  job->answer = answer;
  rq->job = job;
  return job;
}

enum serve_outcome serve_http_handle(struct serve_request *rq) {
  if (!parse_params(rq))
    return SERVE_ANSWER;
  if (rq->route->handle == serve_translate_dispatch)
    rq->api = translate_api(rq);
  if (rq->route->auth && !key_ok(rq->server, serve_request_key(rq))) {
    serve_error(rq, 403,
                rq->api == SERVE_API_LIBRE ? "Invalid API key"
                                           : "Authorization failed. Please "
                                             "supply a valid auth_key.");
    return SERVE_ANSWER;
  }
  return rq->route->handle(rq);
}

/* The whole request is in: routes it, answers or hands it to a worker. */
static enum MHD_Result dispatch(struct serve_request *rq) {
  struct serve_server *sv = rq->server;
  serve_pool_release(sv, rq); /* the body is in: admitted or refused now */
  if (rq->discarded > 0) {
    too_large(rq);
    return send_reply(rq);
  }
  if (rq->route == NULL) {
    if (rq->api == SERVE_API_DEEPL)
      serve_deepl_error(&rq->reply, 404, "Not found");
    else
      serve_reply_text(&rq->reply, 404, "text/html; charset=UTF-8",
                       "<html><title>404: Not Found</title><body>404: Not "
                       "Found</body></html>");
    return send_reply(rq);
  }
  serve_conn_busy(sv, rq->conn, 1); /* all in: the deadline is met */
  if (!take_request(rq)) {
    serve_error(rq, 500, "out of memory");
    return send_reply(rq);
  }
  /* A translation's body (parsed, cut into segments: work that grows
   * with what the client sends) is handled in a worker, so that the
   * HTTP thread answers everyone else meanwhile. */
  if (!rq->route->work && serve_http_handle(rq) == SERVE_ANSWER)
    return send_reply(rq);
  rq->queued = 1;
  rq->watch = serve_conn_of(rq->conn);
  if (!serve_pool_admit(sv, rq)) {
    rq->queued = 0;
    rq->reply.retry_after = 1;
    serve_error(rq, 503, "too many requests waiting; try again");
    return send_reply(rq);
  }
  return MHD_YES; /* suspended until a worker has answered */
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls) {
  (void)version;
  struct serve_request *rq = *con_cls;
  if (rq == NULL) {
    if ((rq = begin(cls, conn, url, method)) == NULL)
      return MHD_NO;
    *con_cls = rq;
    return early_reply(rq) ? send_reply(rq) : MHD_YES;
  }
  if (*upload_size > 0) {
    take_body(rq, upload, *upload_size);
    *upload_size = 0;
    /* A body far past the limit is not read to its end, nor one still
     * dripping in when a silent connection would have been closed: a
     * byte now and then must not hold a connection for ever. No answer
     * can be queued while the body is read, so the connection closes. */
    if (serve_elapsed(&rq->start) >
        (double)rq->server->set->connection_timeout) {
      rq->reply.status = 408;
      return MHD_NO;
    }
    return rq->discarded / 16 > serve_document_body_limit(rq) ? MHD_NO
                                                              : MHD_YES;
  }
  if (rq->queued) { /* resumed: the worker has answered */
    pthread_mutex_lock(&rq->server->lock);
    rq->server->suspended--;
    pthread_mutex_unlock(&rq->server->lock);
    if (rq->job != NULL && rq->job->reply.status != 0) {
      serve_reply_free(&rq->reply);
      rq->reply = rq->job->reply;
      memset(&rq->job->reply, 0, sizeof rq->job->reply);
      rq->segments = rq->job->segments;
    } /* else the handler's own answer (an error) is rq->reply */
    rq->queued = 0;
    return send_reply(rq);
  }
  return dispatch(rq);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
  struct serve_server *sv = cls;
  struct serve_request *rq = *con_cls;
  if (rq != NULL && serve_conn_was_gone(sv, conn))
    /* Its client went while it ran: the error of the run stopped for
     * that reached no one, and is no failure of the server's. */
    rq->reply.status = 499;
  else if (rq != NULL && toe != MHD_REQUEST_TERMINATED_COMPLETED_OK &&
           rq->reply.status == 0)
    /* Cut by the deadline (serve_conn.c) as the body check would have
     * cut it, or the client went before its answer. */
    rq->reply.status = serve_conn_was_cut(sv, conn) ? 408 : 499;
  serve_conn_busy(sv, conn, 0); /* the next request's deadline from now */
  if (rq == NULL)
    return;
  *con_cls = NULL;
  serve_pool_release(sv, rq); /* cut while its body was read */
  serve_metrics_request(&sv->metrics, rq);
  size_t long_body = (size_t)rq->long_body;
  size_t upload = (size_t)serve_document_is_upload(rq);
  struct serve_client *owner = rq->owner;
  request_free(rq);
  pthread_mutex_lock(&sv->lock);
  if (owner != NULL)
    owner->admitted--;
  sv->active--;
  sv->uploads -= upload;
  sv->long_admitted -= long_body;
  pthread_mutex_unlock(&sv->lock);
}

void serve_http_resume(struct serve_request *rq) {
  serve_mhd.resume_connection(rq->conn);
}

static void on_log(void *cls, const char *fmt, va_list ap) {
  const struct serve_server *sv = cls;
  if (sv->set->cli.quiet)
    return;
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  size_t n = strlen(msg);
  while (n > 0 && msg[n - 1] == '\n')
    msg[--n] = '\0';
  xmt_cli_say("xliffmt serve: %s\n", msg);
}

int serve_http_start(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  /* The request line and headers (an APy query string carries the text)
   * live in the connection's pool: room for a body's worth of them. */
  size_t pool = s->max_body + 16384;
  if (pool < 65536)
    pool = 65536;
  if (pool > ((size_t)1 << 20) + 16384)
    pool = ((size_t)1 << 20) + 16384;
  /* HTTPS: the certificate and key serve_tls.c checked. */
  struct MHD_OptionItem tls[] = {
      {MHD_OPTION_HTTPS_MEM_CERT, 0, sv->tls_cert_pem},
      {MHD_OPTION_HTTPS_MEM_KEY, 0, sv->tls_key_pem},
      {MHD_OPTION_END, 0, NULL}};
  int https = sv->tls_cert_pem != NULL;
  sv->daemon = serve_mhd.start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
          MHD_USE_ERROR_LOG | (https ? MHD_USE_TLS : 0),
      0, NULL, NULL, on_request, sv, MHD_OPTION_EXTERNAL_LOGGER, on_log, sv,
      MHD_OPTION_LISTEN_SOCKET, (MHD_socket)sv->listen_fd,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->connection_timeout,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->max_connections,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)s->max_per_address,
      MHD_OPTION_NOTIFY_CONNECTION, serve_conn_notify, sv,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool, MHD_OPTION_NOTIFY_COMPLETED,
      on_completed, sv, MHD_OPTION_ARRAY, https ? tls : tls + 2,
      MHD_OPTION_END);
  if (sv->daemon == NULL) {
    xmt_cli_say("xliffmt serve: cannot start the HTTP server\n");
    return 0;
  }
  return 1;
}
