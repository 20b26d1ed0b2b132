/* fuzz_serve_request.c -- xliffmt serve's request parsing and tag
 * handling under libFuzzer. The first byte chooses, the rest is the
 * input: read as a form body and as a JSON body, every parameter reads
 * back by name (values NUL-terminated at their length, lists split); and
 * as the text of a request, plain, with XML inline markup or an HTML
 * fragment (split at lines, without sentences, with DeepL's ignore_tags
 * and splitting_tags as the first byte says), detagged, translated by the
 * identity backend, codes projected and the text written back. Plain
 * text comes back byte for byte; text with XML markup comes back as text
 * that parses again into segments of the same text and codes (unless it
 * has characters, raw or as character references, that the filter takes
 * out of every engine's answer). */
#include "config.h"

#include "fuzz.h"
#include "serve.h"

/* The server's counters are not what is fuzzed. */
void serve_metrics_run(struct serve_metrics *m,
                       const struct xmt_filter_stats *stats,
                       size_t characters) {
  (void)m;
  (void)stats;
  (void)characters;
}

static const char *const names[] = {"text",        "q",      "source",
                                    "ignore_tags", "format", "auth_key"};

static void read_params(const struct serve_params *p) {
  for (size_t i = 0; i < p->n; i++)
    if (p->v[i].value[p->v[i].len] != '\0')
      FUZZ_FAIL();
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    size_t len = 0, n = serve_param_count(p, names[i]), k = 0;
    const char *v = serve_param(p, names[i], &len);
    const struct serve_param *last = NULL;
    for (const struct serve_param *e = serve_param_next(p, names[i], NULL);
         e != NULL; e = serve_param_next(p, names[i], e), k++)
      last = e;
    if ((v == NULL) != (n == 0) || k != n || (n > 0 && last->value != v))
      FUZZ_FAIL();
    char **list;
    size_t nlist;
    if (serve_param_list(p, names[i], &list, &nlist))
      serve_list_free(list, nlist);
  }
}

static void parse_params(const char *s, size_t len) {
  struct serve_params p = {0};
  if (serve_params_form(&p, s, len))
    read_params(&p);
  serve_params_free(&p);
  memset(&p, 0, sizeof p);
  char why[160];
  if (serve_params_json(&p, s, len, why, sizeof why) > 0)
    read_params(&p);
  serve_params_free(&p);
}

static void answered(struct serve_job *job) { (void)job; }

static char **one(const char *name) {
  char **list = malloc(sizeof *list);
  if (list == NULL || (list[0] = strdup(name)) == NULL)
    FUZZ_FAIL();
  return list;
}

/* A job of one text with the options of the first byte. */
static struct serve_job *new_job(unsigned mode, const char *s, size_t len) {
  struct serve_job *job = calloc(1, sizeof *job);
  if (job == NULL || (job->texts = calloc(1, sizeof *job->texts)) == NULL)
    FUZZ_FAIL();
  job->ntexts = 1;
  job->answer = answered;
  snprintf(job->pair.src, sizeof job->pair.src, "en");
  snprintf(job->pair.tgt, sizeof job->pair.tgt, "es");
  job->opt.split_lines = (mode & 4) != 0;
  job->opt.no_sentences = (mode & 8) != 0;
  if (mode & 16) {
    job->opt.ignore = one("code");
    job->opt.nignore = 1;
    job->opt.splitting = one("p");
    job->opt.nsplitting = 1;
  }
  job->texts[0].markup = (enum serve_markup)((mode & 3) % 3);
  job->texts[0].in = s;
  job->texts[0].in_len = len;
  return job;
}

/* The segments of a and b have the same text and as many codes. */
static void same_segments(const struct serve_text *a,
                          const struct serve_text *b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a->nparts && a->parts[i].seg == NULL)
      i++;
    while (j < b->nparts && b->parts[j].seg == NULL)
      j++;
    if (i == a->nparts || j == b->nparts)
      break;
    size_t la, lb;
    const char *ta = xmt_segment_text(a->parts[i].seg, &la);
    const char *tb = xmt_segment_text(b->parts[j].seg, &lb);
    if (la != lb || memcmp(ta, tb, la) != 0 ||
        xmt_segment_tag_count(a->parts[i].seg) !=
            xmt_segment_tag_count(b->parts[j].seg))
      FUZZ_FAIL();
    i++;
    j++;
  }
  if (i != a->nparts || j != b->nparts)
    FUZZ_FAIL();
}

static struct serve_worker *worker(void) {
  static struct serve_settings set;
  static struct serve_server sv;
  static struct serve_worker w;
  if (w.filter != NULL)
    return &w;
  set.cli.segmentation = XMT_SEGMENT_UNSEGMENTED;
  sv.set = &set;
  w.server = &sv;
  w.filter = xmt_filter_new();
  if (w.filter == NULL ||
      xmt_filter_set_backend(w.filter, xmt_backend_builtin("identity"), NULL,
                             NULL) != XMT_OK ||
      xmt_filter_set_languages(w.filter, "en", "es") != XMT_OK ||
      xmt_filter_set_flags(w.filter, XMT_FILTER_KEEP_ENGINES |
                                         XMT_FILTER_KEEP_DICTIONARIES) !=
          XMT_OK)
    FUZZ_FAIL();
  snprintf(w.pair.src, sizeof w.pair.src, "en");
  snprintf(w.pair.tgt, sizeof w.pair.tgt, "es");
  return &w;
}

/* 1 when s has no character the filter takes out of an engine's answer
 * (controls XML cannot carry, C1 controls, U+FFFE, U+FFFF, surrogates). */
static int clean(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
      return 0;
    if (i + 1 < len &&
        ((s[i] == 0xC2 && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) ||
         (s[i] == 0xED && s[i + 1] >= 0xA0)))
      return 0;
    if (i + 2 < len && s[i] == 0xEF && s[i + 1] == 0xBF && s[i + 2] >= 0xBE)
      return 0;
  }
  return 1;
}

/* 1 when no segment of t has such a character once its character
 * references are read (&#x9E; is as unclean as the byte pair). */
static int segments_clean(const struct serve_text *t) {
  for (size_t i = 0; i < t->nparts; i++) {
    size_t n;
    const char *text;
    if (t->parts[i].seg == NULL)
      continue;
    text = xmt_segment_text(t->parts[i].seg, &n);
    if (!clean(text, n))
      return 0;
  }
  return 1;
}

static void translate(unsigned mode, const char *s, size_t len) {
  struct serve_job *job = new_job(mode, s, len);
  struct serve_text *t = &job->texts[0];
  if (serve_text_prepare(job, t)) {
    serve_text_translate(worker(), job);
    int same = job->status == XMT_OK && clean(s, len) && segments_clean(t);
    if (same && t->markup == SERVE_PLAIN &&
        (t->out_len != len || memcmp(t->out, s, len) != 0))
      FUZZ_FAIL();
    if (same && t->markup == SERVE_XML) {
      struct serve_job *again = new_job(mode, t->out, t->out_len);
      if (!serve_text_prepare(again, &again->texts[0]))
        FUZZ_FAIL();
      same_segments(t, &again->texts[0]);
      serve_job_free(again);
    }
  }
  serve_job_free(job);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096)
    return 0;
  unsigned mode = data[0];
  size_t len = size - 1;
  /* NUL-terminated, as the HTTP layer hands bodies and values over */
  char *s = malloc(len + 1);
  if (s == NULL)
    FUZZ_FAIL();
  memcpy(s, data + 1, len);
  s[len] = '\0';
  if (mode & 32)
    parse_params(s, len);
  else
    translate(mode, s, len);
  free(s);
  return 0;
}
