/* serve_apy.c -- xliffmt serve: the Apertium APy API (/translate,
 * /listPairs, /listLanguageNames) with the JSON layout and status codes
 * of apertium-apy. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

int serve_apy_error(struct serve_reply *r, unsigned status,
                    const char *explanation) {
  json_t *o = json_object();
  json_object_set_new(o, "status", json_string("error"));
  json_object_set_new(o, "code", json_integer(status));
  json_object_set_new(o, "message", json_string(serve_reason(status)));
  json_object_set_new(o, "explanation", json_string(explanation));
  return serve_reply_json(r, status, o, 1);
}

static void apy_answer(struct serve_job *job) {
  if (job->status != XMT_OK) {
    serve_apy_error(&job->reply, job->bad_input ? 400 : 503, job->message);
    return;
  }
  json_t *data = json_object(), *o = json_object();
  json_object_set_new(data, "translatedText",
                      json_stringn(job->texts[0].out, job->texts[0].out_len));
  json_object_set_new(o, "responseData", data);
  json_object_set_new(o, "responseDetails", json_null());
  json_object_set_new(o, "responseStatus", json_integer(200));
  serve_reply_json(&job->reply, 200, o, 1);
}

/* The pair of "eng|spa" (or "en|es", "eng|eng_US"...) as served; an
 * error reply and 0 otherwise. */
static int langpair(struct serve_request *rq, const char *arg,
                    struct serve_pair *pair) {
  const char *bar = strchr(arg, '|');
  if (bar == NULL || strchr(bar + 1, '|') != NULL) {
    serve_apy_error(&rq->reply, 400, "That pair is invalid, use e.g. eng|spa");
    return 0;
  }
  char src[SERVE_LANG_MAX * 2], s[SERVE_LANG_MAX], t[SERVE_LANG_MAX];
  snprintf(src, sizeof src, "%.*s", (int)(bar - arg), arg);
  if (!serve_lang_bcp47(src, s, sizeof s) ||
      !serve_lang_bcp47(bar + 1, t, sizeof t) ||
      !serve_pairs_find(&rq->server->pairs, s, t, pair)) {
    serve_apy_error(&rq->reply, 400, "That pair is not installed");
    return 0;
  }
  return 1;
}

/* 1 when some '&' of s starts a character reference ("&amp;", "&#38;",
 * "&#x26;"). */
static int has_reference(const char *s, size_t len) {
  for (const char *p = memchr(s, '&', len); p != NULL;
       p = memchr(p + 1, '&', len - (size_t)(p + 1 - s))) {
    size_t i = (size_t)(p - s) + 1, from;
    int num = i < len && s[i] == '#', hexa = 0;
    if (num && i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X'))
      hexa = 1;
    i += (size_t)num + (size_t)hexa;
    from = i;
    while (i < len &&
           (hexa  ? strchr("0123456789abcdefABCDEF", s[i]) != NULL
            : num ? s[i] >= '0' && s[i] <= '9'
                  : (s[i] >= 'a' && s[i] <= 'z') ||
                        (s[i] >= 'A' && s[i] <= 'Z') ||
                        (i > from && s[i] >= '0' && s[i] <= '9')) &&
           s[i] != '\0')
      i++;
    if (i > from && i < len && s[i] == ';')
      return 1;
  }
  return 0;
}

/* How APy's format reads the text: "txt" is text (in which tags are
 * codes, and bad markup an error); "html", and anything else as in APy,
 * is HTML, translated as a page unless it is text or well-formed inline
 * markup only. With no format (OmegaT's and Weblate's requests) APy's
 * HTML reader and its "noent" writer give back a '&' that starts no
 * character reference as it came: such a text, without tags, is text. */
static enum serve_markup apy_markup(const char *format, const char *q,
                                    size_t len, int *strict) {
  int txt = format != NULL && strcmp(format, "txt") == 0;
  int none = format == NULL || format[0] == '\0';
  *strict = txt;
  if (!serve_text_has_tags(q, len))
    return txt || memchr(q, '&', len) == NULL ||
                   (none && !has_reference(q, len))
               ? SERVE_PLAIN
               : SERVE_HTML;
  if (txt || format == NULL || strcmp(format, "html") != 0)
    return SERVE_XML;
  return SERVE_HTML;
}

enum serve_outcome serve_apy_translate(struct serve_request *rq) {
  const char *pair_arg = serve_param(&rq->params, "langpair", NULL);
  size_t len;
  const char *q = serve_param(&rq->params, "q", &len);
  struct serve_pair pair;
  if (pair_arg == NULL || q == NULL) {
    serve_apy_error(&rq->reply, 400,
                    pair_arg == NULL ? "Missing argument langpair"
                                     : "Missing argument q");
    return SERVE_ANSWER;
  }
  if (!langpair(rq, pair_arg, &pair))
    return SERVE_ANSWER;
  struct serve_job *job = serve_job_new(rq, 1, apy_answer);
  if (job == NULL)
    return SERVE_ANSWER;
  job->pair = pair;
  job->apy = 1;
  job->opt.trim = 1;
  job->opt.no_sentences = 1; /* APy's engines get the text whole */
  int strict;
  struct serve_text *t = &job->texts[0];
  t->in = q;
  t->in_len = len;
  t->markup =
      apy_markup(serve_param(&rq->params, "format", NULL), q, len, &strict);
  int ok = serve_text_prepare(job, t);
  if (!ok && t->markup == SERVE_XML && !strict && job->bad_input &&
      !job->refused) {
    /* Not well-formed: a page, which forgives, as APy's HTML format. */
    serve_job_free(job);
    rq->job = NULL;
    if ((job = serve_job_new(rq, 1, apy_answer)) == NULL)
      return SERVE_ANSWER;
    job->pair = pair;
    job->apy = 1;
    job->opt.trim = 1;
    job->texts[0] =
        (struct serve_text){.markup = SERVE_HTML, .in = q, .in_len = len};
  } else if (!ok) {
    serve_apy_error(&rq->reply, serve_job_refusal(job),
                    job->message[0] != '\0' ? job->message : "out of memory");
    return SERVE_ANSWER;
  }
  return SERVE_QUEUE;
}

/* {"sourceLanguage": "eng", "targetLanguage": "spa"} */
static json_t *apy_pair(const char *src, const char *tgt) {
  char s[SERVE_LANG_MAX], t[SERVE_LANG_MAX];
  serve_lang_apy(src, s, sizeof s);
  serve_lang_apy(tgt, t, sizeof t);
  json_t *o = json_object();
  json_object_set_new(o, "sourceLanguage", json_string(s));
  json_object_set_new(o, "targetLanguage", json_string(t));
  return o;
}

/* The ISO 639-1 name of an APy name, as include_deprecated_codes adds. */
static void alpha2(const char *bcp47, char *out, size_t len) {
  size_t n = strcspn(bcp47, "-");
  snprintf(out, len, "%.*s%s%s", (int)n, bcp47, bcp47[n] != '\0' ? "_" : "",
           bcp47[n] != '\0' ? bcp47 + n + 1 : "");
}

enum serve_outcome serve_apy_list_pairs(struct serve_request *rq) {
  const char *q = serve_param(&rq->params, "q", NULL);
  if (q != NULL && strcmp(q, "pairs") != 0) {
    static const char *const modes[] = {"analysers",      "analyzers",
                                        "generators",     "taggers",
                                        "disambiguators", "spellers"};
    size_t i = 0;
    while (i < sizeof modes / sizeof *modes && strcmp(q, modes[i]) != 0)
      i++;
    if (i < sizeof modes / sizeof *modes) /* none: no modes of the kind */
      serve_reply_json(&rq->reply, 200, json_object(), 1);
    else
      serve_apy_error(&rq->reply, 400,
                      "Expecting q argument to be one of analysers, "
                      "generators, spellers, disambiguators, or pairs");
    return SERVE_ANSWER;
  }
  const char *src = serve_param(&rq->params, "src", NULL);
  int deprecated =
      serve_param(&rq->params, "include_deprecated_codes", NULL) != NULL;
  const struct serve_pairs *p = &rq->server->pairs;
  json_t *list = json_array();
  for (size_t i = 0; i < p->n; i++) {
    char s[SERVE_LANG_MAX], a[SERVE_LANG_MAX], b[SERVE_LANG_MAX];
    serve_lang_apy(p->v[i].src, s, sizeof s);
    if (p->v[i].src[0] == '\0' || (src != NULL && strcmp(src, s) != 0))
      continue;
    json_array_append_new(list, apy_pair(p->v[i].src, p->v[i].tgt));
    if (deprecated) {
      alpha2(p->v[i].src, a, sizeof a);
      alpha2(p->v[i].tgt, b, sizeof b);
      json_t *o = json_object();
      json_object_set_new(o, "sourceLanguage", json_string(a));
      json_object_set_new(o, "targetLanguage", json_string(b));
      json_array_append_new(list, o);
    }
  }
  json_t *o = json_object();
  json_object_set_new(o, "responseData", list);
  json_object_set_new(o, "responseDetails", json_null());
  json_object_set_new(o, "responseStatus", json_integer(200));
  serve_reply_json(&rq->reply, 200, o, 1);
  return SERVE_ANSWER;
}

/* English names only: of the languages asked for (languages=eng spa...),
 * keyed as asked, else of the languages served. */
enum serve_outcome serve_apy_language_names(struct serve_request *rq) {
  const char *asked = serve_param(&rq->params, "languages", NULL);
  const struct serve_pairs *p = &rq->server->pairs;
  json_t *o = json_object();
  char code[64], bcp[SERVE_LANG_MAX], key[SERVE_LANG_MAX];
  for (const char *s = asked; s != NULL && *s != '\0';) {
    size_t n = strcspn(s, " +");
    snprintf(code, sizeof code, "%.*s", (int)(n < 63 ? n : 63), s);
    if (serve_lang_bcp47(code, bcp, sizeof bcp) &&
        strcmp(serve_lang_name(bcp), bcp) != 0)
      json_object_set_new(o, code, json_string(serve_lang_name(bcp)));
    s += n + (s[n] != '\0');
  }
  for (size_t i = 0; asked == NULL && i < 2 * p->n; i++) {
    const char *lang = i % 2 == 0 ? p->v[i / 2].src : p->v[i / 2].tgt;
    serve_lang_apy(lang, key, sizeof key);
    if (lang[0] != '\0' && strcmp(serve_lang_name(lang), lang) != 0)
      json_object_set_new(o, key, json_string(serve_lang_name(lang)));
  }
  serve_reply_json(&rq->reply, 200, o, 1);
  return SERVE_ANSWER;
}
