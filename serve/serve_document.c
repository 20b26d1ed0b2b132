/* serve_document.c -- xliffmt serve: the endpoints of DeepL's document
 * API. POST /v2/document uploads a file (multipart/form-data: file,
 * target_lang, source_lang, filename) and answers its document_id and
 * document_key; POST /v2/document/ID with document_key answers its
 * status; POST /v2/document/ID/result answers the translated file, which
 * is then deleted. Statuses, errors and their codes are DeepL's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve_document.h"

#define PREFIX "/v2/document/"
#define PREFIX_LEN (sizeof PREFIX - 1)

static enum serve_outcome upload(struct serve_request *rq);
static enum serve_outcome status(struct serve_request *rq);
static enum serve_outcome result(struct serve_request *rq);

/* The upload's body and the download are handled in a worker: work that
 * grows with the document. The status is a look-up. */
static const struct serve_route routes[] = {
    {"/v2/document", SERVE_API_DEEPL, 1, 1, upload},
    {"/v2/document/{document_id}", SERVE_API_DEEPL, 1, 0, status},
    {"/v2/document/{document_id}/result", SERVE_API_DEEPL, 1, 1, result}};

const struct serve_route *serve_document_route(const char *path) {
  if (strcmp(path, routes[0].path) == 0)
    return &routes[0];
  if (strncmp(path, PREFIX, PREFIX_LEN) != 0)
    return NULL;
  const char *id = path + PREFIX_LEN, *slash = strchr(id, '/');
  if (slash == NULL)
    return id[0] != '\0' ? &routes[1] : NULL;
  return slash > id && strcmp(slash, "/result") == 0 ? &routes[2] : NULL;
}

int serve_document_is_upload(const struct serve_request *rq) {
  return rq->route == &routes[0];
}

int serve_document_is_poll(const struct serve_request *rq) {
  return rq->route == &routes[1] || rq->route == &routes[2];
}

size_t serve_document_body_limit(const struct serve_request *rq) {
  const struct serve_settings *s = rq->server->set;
  return serve_document_is_upload(rq) ? s->max_document + SERVE_DOC_FORM_ROOM
                                      : s->max_body;
}

void serve_document_too_large(struct serve_request *rq) {
  char msg[96];
  snprintf(msg, sizeof msg, "Document too large: at most %zu bytes.",
           rq->server->set->max_document);
  serve_deepl_error(&rq->reply, 413, msg);
}

/* The last part of a client's file name (after '/' or '\'), at most 255
 * bytes, into out; "document" when it has none. */
static void base_name(const char *name, char *out, size_t len) {
  const char *b = name != NULL ? name : "";
  for (const char *p = b; *p != '\0'; p++)
    if (*p == '/' || *p == '\\')
      b = p + 1;
  snprintf(out, len, "%.255s", b[0] != '\0' ? b : "document");
}

/* DeepL's output_format: the format of the upload only, which is what
 * the filter writes. 1 when value is absent or names it. */
static int same_format(const char *value, const char *name) {
  if (value == NULL || value[0] == '\0')
    return 1;
  const char *dot = strrchr(name, '.');
  return dot != NULL && strcasecmp(dot + 1, value) == 0;
}

/* The languages of the pair served that pair matches, as the server was
 * told them (-s en-US matches DeepL's EN): a document declaring en-US is
 * then translated as `xliffmt translate -s en-US` translates it. */
static void served_tags(const struct serve_pairs *p, struct serve_pair *pair) {
  for (size_t i = 0; !p->any && i < p->n; i++) {
    const struct serve_pair *c = &p->v[i];
    if (c->src[0] != '\0' && serve_lang_match(c->src, pair->src) &&
        serve_lang_match(c->tgt, pair->tgt)) {
      *pair = *c;
      return;
    }
  }
}

static enum serve_outcome upload(struct serve_request *rq) {
  size_t len = 0;
  const char *file = serve_param(&rq->params, "file", &len);
  const char *type = rq->content_type;
  struct serve_pair pair;
  if (file == NULL || type == NULL ||
      strncasecmp(type, "multipart/form-data", 19) != 0) {
    serve_deepl_error(&rq->reply, 400, "Invalid file data.");
    return SERVE_ANSWER;
  }
  size_t files = serve_param_count(&rq->params, "file");
  if (files > 1) { /* one would be translated, the others dropped unsaid */
    char msg[96];
    snprintf(msg, sizeof msg,
             "Parameter 'file' given %zu times: one document per upload.",
             files);
    serve_deepl_error(&rq->reply, 400, msg);
    return SERVE_ANSWER;
  }
  if (!serve_deepl_pair(rq, &pair))
    return SERVE_ANSWER;
  served_tags(&rq->server->pairs, &pair);
  if (len > rq->server->set->max_document) {
    serve_document_too_large(rq);
    return SERVE_ANSWER;
  }
  const char *given = serve_param(&rq->params, "filename", NULL);
  char name[256];
  base_name(given != NULL ? given
                          : serve_param(&rq->params, "file.filename", NULL),
            name, sizeof name);
  if (!same_format(serve_param(&rq->params, "output_format", NULL), name)) {
    serve_deepl_error(&rq->reply, 400,
                      "Value for 'output_format' not supported: a "
                      "document is translated into its own format.");
    return SERVE_ANSWER;
  }
  const char *auth = serve_request_key(rq);
  struct serve_doc_upload u = {.bytes = file,
                               .len = len,
                               .name = name,
                               .auth = auth != NULL ? auth : "",
                               .client = rq->client,
                               .pair = pair};
  serve_docs_add(rq->server->docs, &u, &rq->reply);
  return SERVE_ANSWER;
}

/* The id in rq's path and its document_key into id; 0 with DeepL's
 * error when there are none. */
static int take_id(struct serve_request *rq, char *id, const char **key) {
  const char *p = rq->path + PREFIX_LEN;
  size_t n = strcspn(p, "/");
  *key = serve_param(&rq->params, "document_key", NULL);
  if (*key == NULL) {
    serve_deepl_error(&rq->reply, 400,
                      "Parameter 'document_key' not specified.");
    return 0;
  }
  if (n != SERVE_DOC_ID_LEN) {
    serve_deepl_error(&rq->reply, 404, "Document not found.");
    return 0;
  }
  memcpy(id, p, n);
  id[n] = '\0';
  return 1;
}

static enum serve_outcome status(struct serve_request *rq) {
  char id[SERVE_DOC_ID_LEN + 1];
  const char *key, *auth = serve_request_key(rq);
  if (take_id(rq, id, &key))
    serve_docs_status(rq->server->docs, id, key, auth != NULL ? auth : "",
                      &rq->reply);
  return SERVE_ANSWER;
}

static enum serve_outcome result(struct serve_request *rq) {
  char id[SERVE_DOC_ID_LEN + 1];
  const char *key, *auth = serve_request_key(rq);
  if (take_id(rq, id, &key))
    serve_docs_take(rq->server->docs, id, key, auth != NULL ? auth : "",
                    &rq->reply);
  return SERVE_ANSWER;
}
