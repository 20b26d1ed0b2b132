/* serve_engine.c -- xliffmt serve: its engines, one per --mt, and the
 * pairs each serves. `--mt PAIR=BACKEND[:SPEC]` names an engine's pair
 * (en-es, or as Apertium names them, eng-spa, en_GB-es); an Apertium
 * engine without one serves its spec's pair, or every installed pair.
 * Each pair has one engine: a request goes to that engine's workers. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* mt into e: its PAIR= and its backend; 0 after reporting what is
 * wrong. */
static int parse_one(const struct serve_settings *s, struct serve_engine *e,
                     size_t i) {
  const char *mt = s->mts[i];
  const char *eq = strchr(mt, '='), *colon = strchr(mt, ':');
  e->mt = e->name = mt;
  if (eq != NULL && (colon == NULL || eq < colon)) {
    if (serve_pair_parse(mt, (size_t)(eq - mt), &e->pair) < 0) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "--mt %.60s: PAIR=BACKEND takes a pair of language codes "
               "(e.g. --mt en-es=%.60s)",
               mt, eq + 1);
      xmt_cli_usage_error("serve ", msg);
      return 0;
    }
    e->name = eq + 1;
  }
  /* Its --mt-option: those before the first --mt, and those after it
   * and before the next. */
  e->cli = s->cli;
  e->cli.nmt_options = 0;
  for (size_t k = 0; k < s->cli.nmt_options; k++)
    if (s->mt_option_at[k] == 0 || s->mt_option_at[k] == i + 1)
      e->cli.mt_options[e->cli.nmt_options++] = s->cli.mt_options[k];
  e->cli.mt = e->name;
  return (e->backend = xmt_cli_backend(&e->cli, &e->spec)) != NULL;
}

/* Refuses a pair served by two engines: which one a request would get
 * is not for the server to guess. */
static int no_twice(const struct serve_server *sv) {
  const struct serve_pairs *p = &sv->pairs;
  for (size_t i = 0; i < p->n; i++)
    for (size_t j = i + 1; j < p->n; j++) {
      const struct serve_pair *a = &p->v[i], *b = &p->v[j];
      if (a->engine == b->engine || strcmp(a->src, b->src) != 0 ||
          strcmp(a->tgt, b->tgt) != 0)
        continue;
      char msg[300];
      snprintf(msg, sizeof msg,
               "%s to %s is served by both --mt %.80s and "
               "--mt %.80s",
               a->src, a->tgt, sv->engines[a->engine].mt,
               sv->engines[b->engine].mt);
      xmt_cli_usage_error("serve ", msg);
      return 0;
    }
  return 1;
}

int serve_engines_init(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  if (s->nmts == 0) {
    xmt_cli_usage_error("serve ",
                        "missing --mt BACKEND (e.g. --mt apertium:eng-spa)");
    return 0;
  }
  sv->engines = calloc(s->nmts, sizeof *sv->engines);
  if (sv->engines == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return 0;
  }
  sv->nengines = s->nmts;
  int named = 0;
  for (size_t i = 0; i < s->nmts; i++) {
    if (!parse_one(s, &sv->engines[i], i))
      return 0;
    sv->engines[i].docs =
        calloc(s->document_threads > 0 ? s->document_threads : 1,
               sizeof *sv->engines[i].docs);
    if (sv->engines[i].docs == NULL) {
      xmt_cli_say("xliffmt: out of memory\n");
      return 0;
    }
    named |= sv->engines[i].pair.tgt[0] != '\0';
  }
  if ((named || s->nmts > 1) && s->cli.tgt != NULL) {
    xmt_cli_usage_error("serve ", "-s and -t name the pair of a single --mt; "
                                  "with several, each --mt names its own "
                                  "(--mt en-es=BACKEND)");
    return 0;
  }
  for (size_t i = 0; i < s->nmts; i++) {
    if (!serve_pairs_add(&sv->pairs, &sv->engines[i], i))
      return 0;
    if (sv->pairs.any && s->nmts > 1) {
      char msg[300];
      snprintf(msg, sizeof msg,
               "--mt %.80s serves no pair of its own: with several --mt, "
               "each names its pair (--mt en-es=%.80s)",
               sv->engines[i].mt, sv->engines[i].name);
      xmt_cli_usage_error("serve ", msg);
      return 0;
    }
  }
  return no_twice(sv);
}

void serve_engines_free(struct serve_server *sv) {
  for (size_t i = 0; sv->engines != NULL && i < sv->nengines; i++)
    free(sv->engines[i].docs);
  free(sv->engines);
  sv->engines = NULL;
  sv->nengines = 0;
  serve_pairs_free(&sv->pairs);
}
