/* serve_deepl.c -- xliffmt serve: the DeepL API v2 (and the /v1 paths
 * some clients keep): /v2/translate, /v2/languages, /v2/usage, and empty
 * glossary lists. Parameters DeepL does not know are ignored, as DeepL
 * does; values it would refuse get its status code and {"message": ..}. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* DeepL takes at most 50 texts in one request. */
#define MAX_TEXTS 50

int serve_deepl_error(struct serve_reply *r, unsigned status,
                      const char *message) {
  json_t *o = json_object();
  json_object_set_new(o, "message", json_string(message));
  return serve_reply_json(r, status, o, 0);
}

/* The characters of a UTF-8 text, as DeepL bills them. */
static size_t characters(const char *s, size_t len) {
  return xmt_utf8_count(s, len);
}

static void deepl_answer(struct serve_job *job) {
  if (job->status != XMT_OK) {
    serve_deepl_error(&job->reply, job->bad_input ? 400 : 503, job->message);
    return;
  }
  char src[SERVE_LANG_MAX];
  serve_lang_deepl(job->pair.src, 1, src, sizeof src);
  json_t *list = json_array();
  for (size_t i = 0; i < job->ntexts; i++) {
    json_t *t = json_object();
    json_object_set_new(t, "detected_source_language", json_string(src));
    json_object_set_new(t, "text",
                        json_stringn(job->texts[i].out, job->texts[i].out_len));
    if (job->billed)
      json_object_set_new(t, "billed_characters",
                          json_integer((json_int_t)characters(
                              job->texts[i].in, job->texts[i].in_len)));
    json_array_append_new(list, t);
  }
  json_t *o = json_object();
  json_object_set_new(o, "translations", list);
  serve_reply_json(&job->reply, 200, o, 0);
}

/* "Value for 'NAME' not supported." */
static enum serve_outcome unsupported(struct serve_request *rq,
                                      const char *name) {
  char msg[96];
  snprintf(msg, sizeof msg, "Value for '%s' not supported.", name);
  serve_deepl_error(&rq->reply, 400, msg);
  return SERVE_ANSWER;
}

/* 1 when value is NULL or one of the '|'-separated choices. */
static int one_of(const char *value, const char *choices) {
  if (value == NULL)
    return 1;
  size_t n = strlen(value);
  for (const char *c = choices; *c != '\0';) {
    size_t k = strcspn(c, "|");
    if (k == n && strncmp(c, value, n) == 0)
      return 1;
    c += k + (c[k] != '\0');
  }
  return 0;
}

/* The job's options from tag_handling, split_sentences and the tag
 * lists; 0 when out of memory. */
static int take_options(struct serve_request *rq, struct serve_job *job,
                        const char *tags, const char *split) {
  if (split == NULL)
    split = tags != NULL ? "nonewlines" : "1";
  job->opt.split_lines = strcmp(split, "1") == 0;
  job->opt.no_sentences = strcmp(split, "0") == 0;
  return serve_param_list(&rq->params, "ignore_tags", &job->opt.ignore,
                          &job->opt.nignore) &&
         serve_param_list(&rq->params, "splitting_tags", &job->opt.splitting,
                          &job->opt.nsplitting);
}

/* The tag lists longer than SERVE_MAX_NAMES: each tag of a text is
 * looked up in them. The name of the list, or NULL. */
static const char *long_list(const struct serve_job *job) {
  return job->opt.nignore > SERVE_MAX_NAMES      ? "ignore_tags"
         : job->opt.nsplitting > SERVE_MAX_NAMES ? "splitting_tags"
                                                 : NULL;
}

/* The pair of source_lang (may be NULL) and target_lang; an error reply
 * and 0 when not served. */
int serve_deepl_pair(struct serve_request *rq, struct serve_pair *pair) {
  const char *src = serve_param(&rq->params, "source_lang", NULL);
  const char *tgt = serve_param(&rq->params, "target_lang", NULL);
  char s[SERVE_LANG_MAX] = "", t[SERVE_LANG_MAX];
  if (tgt == NULL) {
    serve_deepl_error(&rq->reply, 400,
                      "Parameter 'target_lang' not "
                      "specified.");
    return 0;
  }
  const char *bad = NULL;
  struct serve_pair any;
  if (src != NULL && src[0] != '\0' && !serve_lang_bcp47(src, s, sizeof s))
    bad = "source_lang";
  else if (!serve_lang_bcp47(tgt, t, sizeof t) ||
           !serve_pairs_find(&rq->server->pairs, NULL, t, &any))
    bad = "target_lang";
  else if (!serve_pairs_find(&rq->server->pairs, s, t, pair))
    bad = "source_lang";
  if (bad != NULL) { /* DeepL's words, then what is served instead */
    char msg[256], served[160];
    serve_pairs_describe(&rq->server->pairs, 1, served, sizeof served);
    snprintf(msg, sizeof msg, "Value for '%s' not supported; %s.", bad, served);
    serve_deepl_error(&rq->reply, 400, msg);
    return 0;
  }
  if (pair->src[0] == '\0') {
    serve_deepl_error(&rq->reply, 400,
                      "Parameter 'source_lang' needed: this server does not "
                      "detect languages");
    return 0;
  }
  return 1;
}

enum serve_outcome serve_deepl_translate(struct serve_request *rq) {
  size_t n = serve_param_count(&rq->params, "text");
  const char *tags = serve_param(&rq->params, "tag_handling", NULL);
  const char *split = serve_param(&rq->params, "split_sentences", NULL);
  struct serve_pair pair;
  if (n == 0) {
    serve_deepl_error(&rq->reply, 400, "Parameter 'text' not specified.");
    return SERVE_ANSWER;
  }
  if (n > MAX_TEXTS) {
    serve_deepl_error(&rq->reply, 413,
                      "Too many texts in one request (at "
                      "most 50).");
    return SERVE_ANSWER;
  }
  if (!serve_deepl_pair(rq, &pair))
    return SERVE_ANSWER;
  if (!one_of(tags, "xml|html"))
    return unsupported(rq, "tag_handling");
  if (!one_of(split, "0|1|nonewlines"))
    return unsupported(rq, "split_sentences");
  if (!one_of(serve_param(&rq->params, "preserve_formatting", NULL),
              "0|1|true|false"))
    return unsupported(rq, "preserve_formatting");
  struct serve_job *job = serve_job_new(rq, n, deepl_answer);
  if (job == NULL)
    return SERVE_ANSWER;
  job->pair = pair;
  const char *billed = serve_param(&rq->params, "show_billed_characters", NULL);
  job->billed = billed != NULL && one_of(billed, "1|true");
  if (!take_options(rq, job, tags, split)) {
    serve_deepl_error(&rq->reply, 500, "Internal error");
    return SERVE_ANSWER;
  }
  const char *list = long_list(job);
  if (list != NULL) {
    char msg[96];
    snprintf(msg, sizeof msg, "Too many entries in '%s' (at most %d).", list,
             SERVE_MAX_NAMES);
    serve_deepl_error(&rq->reply, 413, msg);
    return SERVE_ANSWER;
  }
  int ok = 1;
  const struct serve_param *p = NULL;
  for (size_t i = 0; ok && i < n; i++) {
    p = serve_param_next(&rq->params, "text", p);
    struct serve_text *t = &job->texts[i];
    t->in = p->value;
    t->in_len = p->len;
    /* Text without tags or entities is plain whatever tag_handling says:
     * it goes to the engine untouched. */
    int markup = serve_text_has_tags(t->in, t->in_len) ||
                 memchr(t->in, '&', t->in_len) != NULL;
    t->markup = tags == NULL || !markup     ? SERVE_PLAIN
                : strcmp(tags, "html") == 0 ? SERVE_HTML
                                            : SERVE_XML;
    ok = serve_text_prepare(job, t);
  }
  if (!ok) {
    serve_deepl_error(&rq->reply, serve_job_refusal(job),
                      job->bad_input && !job->refused && tags != NULL
                          ? "Tag handling parsing failed, please check input."
                      : job->message[0] != '\0' ? job->message
                                                : "Internal error");
    return SERVE_ANSWER;
  }
  return SERVE_QUEUE;
}

/* The languages served, DeepL style, each once; serving any pair, every
 * language known. */
static json_t *languages(const struct serve_pairs *p, int target) {
  json_t *list = json_array(), *seen = json_object();
  for (size_t i = 0; p->any ? serve_lang_all(i) != NULL : i < p->n; i++) {
    const char *lang = p->any   ? serve_lang_all(i)
                       : target ? p->v[i].tgt
                                : p->v[i].src;
    char code[SERVE_LANG_MAX];
    serve_lang_deepl(lang, !target, code, sizeof code);
    if (lang[0] == '\0' || json_object_get(seen, code) != NULL)
      continue;
    json_object_set_new(seen, code, json_true());
    json_t *o = json_object();
    json_object_set_new(o, "language", json_string(code));
    json_object_set_new(o, "name", json_string(serve_lang_name(lang)));
    if (target)
      json_object_set_new(o, "supports_formality", json_false());
    json_array_append_new(list, o);
  }
  json_decref(seen);
  return list;
}

enum serve_outcome serve_deepl_languages(struct serve_request *rq) {
  const char *type = serve_param(&rq->params, "type", NULL);
  if (!one_of(type, "source|target"))
    return unsupported(rq, "type");
  /* No type: the sources, as DeepL answers (deepl-node's
   * getSourceLanguages sends none). */
  serve_reply_json(&rq->reply, 200,
                   languages(&rq->server->pairs,
                             type != NULL && strcmp(type, "target") == 0),
                   0);
  return SERVE_ANSWER;
}

enum serve_outcome serve_deepl_usage(struct serve_request *rq) {
  struct serve_metrics *m = &rq->server->metrics;
  pthread_mutex_lock(&m->lock);
  unsigned long long chars = m->characters;
  pthread_mutex_unlock(&m->lock);
  json_t *o = json_object();
  json_object_set_new(o, "character_count", json_integer((json_int_t)chars));
  /* No quota: a limit no one reaches. */
  json_object_set_new(o, "character_limit",
                      json_integer((json_int_t)1000000000000LL));
  serve_reply_json(&rq->reply, 200, o, 0);
  return SERVE_ANSWER;
}

enum serve_outcome serve_deepl_glossary_pairs(struct serve_request *rq) {
  json_t *o = json_object();
  json_object_set_new(o, "supported_languages", json_array());
  serve_reply_json(&rq->reply, 200, o, 0);
  return SERVE_ANSWER;
}

enum serve_outcome serve_deepl_glossaries(struct serve_request *rq) {
  json_t *o = json_object();
  json_object_set_new(o, "glossaries", json_array());
  serve_reply_json(&rq->reply, 200, o, 0);
  return SERVE_ANSWER;
}
