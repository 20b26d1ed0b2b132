/* serve_libre.c -- xliffmt serve: the LibreTranslate API (POST
 * /translate with source and target, GET /languages), its JSON and its
 * {"error": ...} answers. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

int serve_libre_error(struct serve_reply *r, unsigned status,
                      const char *message) {
  json_t *o = json_object();
  json_object_set_new(o, "error", json_string(message));
  return serve_reply_json(r, status, o, 0);
}

/* {"confidence": 100.0, "language": "en"}: the source taken for "auto"
 * (no detection: the one the pair serves). */
static json_t *detected(const struct serve_job *job) {
  char lang[SERVE_LANG_MAX];
  snprintf(lang, sizeof lang, "%.*s", (int)strcspn(job->pair.src, "-"),
           job->pair.src);
  json_t *o = json_object();
  json_object_set_new(o, "confidence", json_real(100.0));
  json_object_set_new(o, "language", json_string(lang));
  return o;
}

static void libre_answer(struct serve_job *job) {
  if (job->status != XMT_OK) {
    serve_libre_error(&job->reply, job->bad_input ? 400 : 500, job->message);
    return;
  }
  json_t *o = json_object();
  if (job->q_array) {
    json_t *texts = json_array(), *langs = json_array();
    for (size_t i = 0; i < job->ntexts; i++) {
      json_array_append_new(
          texts, json_stringn(job->texts[i].out, job->texts[i].out_len));
      json_array_append_new(langs, detected(job));
    }
    if (job->src_auto)
      json_object_set_new(o, "detectedLanguage", langs);
    else
      json_decref(langs);
    json_object_set_new(o, "translatedText", texts);
  } else {
    if (job->src_auto)
      json_object_set_new(o, "detectedLanguage", detected(job));
    json_object_set_new(o, "translatedText",
                        json_stringn(job->texts[0].out, job->texts[0].out_len));
  }
  serve_reply_json(&job->reply, 200, o, 0);
}

/* The pair of source (or "auto") and target; an error reply and 0 when
 * not served ("xx is not supported", as LibreTranslate says). */
static int libre_pair(struct serve_request *rq, const char *src,
                      const char *tgt, struct serve_pair *pair) {
  char s[SERVE_LANG_MAX] = "", t[SERVE_LANG_MAX], msg[256], served[160];
  const char *bad = NULL;
  memset(pair, 0, sizeof *pair);
  if (strcmp(src, "auto") != 0 &&
      (!serve_lang_bcp47(src, s, sizeof s) ||
       !serve_pairs_has_source(&rq->server->pairs, s)))
    bad = src;
  else if (!serve_lang_bcp47(tgt, t, sizeof t) ||
           !serve_pairs_find(&rq->server->pairs, s, t, pair))
    bad = tgt;
  if (bad == NULL && pair->src[0] == '\0')
    bad = "auto"; /* no language detection */
  if (bad == NULL)
    return 1;
  /* LibreTranslate's words, then what is served instead */
  serve_pairs_describe(&rq->server->pairs, 0, served, sizeof served);
  snprintf(msg, sizeof msg, "%.40s is not supported (%s)", bad, served);
  serve_libre_error(&rq->reply, 400, msg);
  return 0;
}

/* LibreTranslate's checks, in its order: q, source, target, format. */
static const char *missing(struct serve_request *rq, size_t *n) {
  size_t len = 0;
  *n = serve_param_count(&rq->params, "q");
  if (*n == 0 ||
      (*n == 1 && serve_param(&rq->params, "q", &len) != NULL && len == 0 &&
       !serve_param_next(&rq->params, "q", NULL)->in_array))
    return "Invalid request: missing q parameter";
  const char *src = serve_param(&rq->params, "source", NULL);
  if (src == NULL || src[0] == '\0')
    return "Invalid request: missing source parameter";
  const char *tgt = serve_param(&rq->params, "target", NULL);
  if (tgt == NULL || tgt[0] == '\0')
    return "Invalid request: missing target parameter";
  return NULL;
}

enum serve_outcome serve_libre_translate(struct serve_request *rq) {
  size_t n;
  const char *why = missing(rq, &n);
  const char *format = serve_param(&rq->params, "format", NULL);
  char msg[96];
  struct serve_pair pair;
  if (why != NULL) {
    serve_libre_error(&rq->reply, 400, why);
    return SERVE_ANSWER;
  }
  if (format != NULL && format[0] != '\0' && strcmp(format, "text") != 0 &&
      strcmp(format, "html") != 0) {
    snprintf(msg, sizeof msg, "%.40s format is not supported", format);
    serve_libre_error(&rq->reply, 400, msg);
    return SERVE_ANSWER;
  }
  if (n > SERVE_MAX_TEXTS) {
    snprintf(msg, sizeof msg,
             "Invalid request: request (%zu) exceeds text limit (%d)", n,
             SERVE_MAX_TEXTS);
    serve_libre_error(&rq->reply, 400, msg);
    return SERVE_ANSWER;
  }
  const char *src = serve_param(&rq->params, "source", NULL);
  if (!libre_pair(rq, src, serve_param(&rq->params, "target", NULL), &pair))
    return SERVE_ANSWER;
  struct serve_job *job = serve_job_new(rq, n, libre_answer);
  if (job == NULL)
    return SERVE_ANSWER;
  job->pair = pair;
  job->src_auto = strcmp(src, "auto") == 0;
  job->opt.split_lines = 1;
  int html = format != NULL && strcmp(format, "html") == 0, ok = 1;
  const struct serve_param *p = NULL;
  for (size_t i = 0; ok && i < n; i++) {
    p = serve_param_next(&rq->params, "q", p);
    struct serve_text *t = &job->texts[i];
    job->q_array |= p->in_array;
    t->in = p->value;
    t->in_len = p->len;
    t->markup = html                                    ? SERVE_HTML
                : serve_text_has_tags(t->in, t->in_len) ? SERVE_XML
                                                        : SERVE_PLAIN;
    ok = serve_text_prepare(job, t);
  }
  if (!ok) {
    serve_libre_error(&rq->reply, serve_job_refusal(job),
                      job->message[0] != '\0' ? job->message : "out of memory");
    return SERVE_ANSWER;
  }
  return SERVE_QUEUE;
}

/* The entry of code in list (index: code to entry), made when new. */
static json_t *language(json_t *list, json_t *index, const char *code) {
  json_t *entry = json_object_get(index, code);
  if (entry == NULL) {
    entry = json_object();
    json_object_set_new(entry, "code", json_string(code));
    json_object_set_new(entry, "name", json_string(serve_lang_name(code)));
    json_object_set_new(entry, "targets", json_array());
    json_object_set(index, code, entry);
    json_array_append_new(list, entry);
  }
  return json_object_get(entry, "targets");
}

static int by_string(const void *a, const void *b) {
  return strcmp(json_string_value(*(json_t *const *)a),
                json_string_value(*(json_t *const *)b));
}

/* [{"code": "en", "name": "English", "targets": ["es"]}, {"code": "es",
 * "name": "Spanish", "targets": []}]: as LibreTranslate, every language
 * once, a source or a target, with its targets in order (clients look a
 * target up in this list); serving any pair, every language known to
 * every other. */
enum serve_outcome serve_libre_languages(struct serve_request *rq) {
  const struct serve_pairs *p = &rq->server->pairs;
  json_t *list = json_array(), *index = json_object();
  for (size_t i = 0; p->any ? serve_lang_all(i) != NULL : i < p->n; i++) {
    const char *src = p->any ? serve_lang_all(i) : p->v[i].src;
    if (src[0] == '\0')
      continue;
    json_t *targets = language(list, index, src);
    for (size_t k = 0; p->any && serve_lang_all(k) != NULL; k++)
      if (k != i)
        json_array_append_new(targets, json_string(serve_lang_all(k)));
    if (!p->any) {
      json_array_append_new(targets, json_string(p->v[i].tgt));
      language(list, index, p->v[i].tgt);
    }
  }
  size_t i;
  json_t *entry;
  json_array_foreach(list, i, entry) {
    json_t *targets = json_object_get(entry, "targets");
    size_t n = json_array_size(targets);
    json_t **v = malloc((n > 0 ? n : 1) * sizeof *v);
    for (size_t k = 0; v != NULL && k < n; k++)
      v[k] = json_incref(json_array_get(targets, k));
    if (v != NULL) {
      qsort(v, n, sizeof *v, by_string);
      json_array_clear(targets);
      for (size_t k = 0; k < n; k++)
        json_array_append_new(targets, v[k]);
    }
    free(v);
  }
  json_decref(index);
  serve_reply_json(&rq->reply, 200, list, 0);
  return SERVE_ANSWER;
}

enum serve_outcome serve_translate_dispatch(struct serve_request *rq) {
  return rq->api == SERVE_API_LIBRE ? serve_libre_translate(rq)
                                    : serve_apy_translate(rq);
}
