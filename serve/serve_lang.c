/* serve_lang.c -- xliffmt serve: language codes as the three APIs write
 * them, and the language pairs the server takes. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"

/* ISO 639-1, ISO 639-3 as Apertium names its pairs, English name. */
static const struct language {
  const char *iso1, *iso3, *name;
} languages[] = {{"af", "afr", "Afrikaans"},
                 {"an", "arg", "Aragonese"},
                 {"ar", "ara", "Arabic"},
                 {"as", "asm", "Assamese"},
                 {"av", "ava", "Avaric"},
                 {"az", "aze", "Azerbaijani"},
                 {"be", "bel", "Belarusian"},
                 {"bg", "bul", "Bulgarian"},
                 {"bn", "ben", "Bengali"},
                 {"br", "bre", "Breton"},
                 {"bs", "bos", "Bosnian"},
                 {"ca", "cat", "Catalan"},
                 {"co", "cos", "Corsican"},
                 {"cs", "ces", "Czech"},
                 {"cy", "cym", "Welsh"},
                 {"da", "dan", "Danish"},
                 {"de", "deu", "German"},
                 {"el", "ell", "Greek"},
                 {"en", "eng", "English"},
                 {"eo", "epo", "Esperanto"},
                 {"es", "spa", "Spanish"},
                 {"et", "est", "Estonian"},
                 {"eu", "eus", "Basque"},
                 {"fa", "fas", "Persian"},
                 {"fi", "fin", "Finnish"},
                 {"fo", "fao", "Faroese"},
                 {"fr", "fra", "French"},
                 {"ga", "gle", "Irish"},
                 {"gd", "gla", "Scottish Gaelic"},
                 {"gl", "glg", "Galician"},
                 {"gn", "grn", "Guarani"},
                 {"he", "heb", "Hebrew"},
                 {"hi", "hin", "Hindi"},
                 {"hr", "hrv", "Croatian"},
                 {"hu", "hun", "Hungarian"},
                 {"hy", "hye", "Armenian"},
                 {"ia", "ina", "Interlingua"},
                 {"id", "ind", "Indonesian"},
                 {"is", "isl", "Icelandic"},
                 {"it", "ita", "Italian"},
                 {"ja", "jpn", "Japanese"},
                 {"ka", "kat", "Georgian"},
                 {"kk", "kaz", "Kazakh"},
                 {"ko", "kor", "Korean"},
                 {"ky", "kir", "Kyrgyz"},
                 {"la", "lat", "Latin"},
                 {"lt", "lit", "Lithuanian"},
                 {"lv", "lav", "Latvian"},
                 {"mk", "mkd", "Macedonian"},
                 {"ml", "mal", "Malayalam"},
                 {"mr", "mar", "Marathi"},
                 {"ms", "msa", "Malay"},
                 {"mt", "mlt", "Maltese"},
                 {"nb", "nob", "Norwegian Bokmål"},
                 {"nl", "nld", "Dutch"},
                 {"nn", "nno", "Norwegian Nynorsk"},
                 {"oc", "oci", "Occitan"},
                 {"pl", "pol", "Polish"},
                 {"pt", "por", "Portuguese"},
                 {"ro", "ron", "Romanian"},
                 {"ru", "rus", "Russian"},
                 {"sc", "srd", "Sardinian"},
                 {"se", "sme", "Northern Sami"},
                 {"sk", "slk", "Slovak"},
                 {"sl", "slv", "Slovenian"},
                 {"sq", "sqi", "Albanian"},
                 {"sr", "srp", "Serbian"},
                 {"sv", "swe", "Swedish"},
                 {"sw", "swa", "Swahili"},
                 {"te", "tel", "Telugu"},
                 {"th", "tha", "Thai"},
                 {"tr", "tur", "Turkish"},
                 {"tt", "tat", "Tatar"},
                 {"uk", "ukr", "Ukrainian"},
                 {"ur", "urd", "Urdu"},
                 {"uz", "uzb", "Uzbek"},
                 {"vi", "vie", "Vietnamese"},
                 {"zh", "zho", "Chinese"}};

static const struct language *by_code(const char *primary) {
  for (size_t i = 0; i < sizeof languages / sizeof *languages; i++)
    if (strcmp(languages[i].iso1, primary) == 0 ||
        strcmp(languages[i].iso3, primary) == 0)
      return &languages[i];
  return NULL;
}

int serve_lang_bcp47(const char *code, char *out, size_t outlen) {
  size_t n = 0;
  while (isalpha((unsigned char)code[n]))
    n++;
  if (n < 2 || n > 8 || (code[n] != '\0' && code[n] != '-' && code[n] != '_'))
    return 0;
  char primary[9];
  for (size_t i = 0; i < n; i++)
    primary[i] = (char)tolower((unsigned char)code[i]);
  primary[n] = '\0';
  const struct language *l = by_code(primary);
  const char *sub = code[n] != '\0' ? code + n + 1 : "";
  size_t m = strlen(sub);
  if ((code[n] != '\0' && m == 0) || m > 8)
    return 0;
  char tail[10] = "";
  for (size_t i = 0; i < m; i++) {
    unsigned char c = (unsigned char)sub[i];
    if (!isalnum(c))
      return 0;
    /* A region upper case, a script title case, a variant lower case. */
    tail[i + 1] =
        (char)(m == 2 || (m == 4 && i == 0) ? toupper(c) : tolower(c));
  }
  if (m > 0)
    tail[0] = '-';
  tail[m + (m > 0)] = '\0';
  int k = snprintf(out, outlen, "%s%s", l != NULL ? l->iso1 : primary, tail);
  return k > 0 && (size_t)k < outlen;
}

void serve_lang_apy(const char *bcp47, char *out, size_t outlen) {
  size_t n = strcspn(bcp47, "-");
  char primary[16];
  snprintf(primary, sizeof primary, "%.*s", (int)(n < 15 ? n : 15), bcp47);
  const struct language *l = by_code(primary);
  snprintf(out, outlen, "%s%s%s", l != NULL ? l->iso3 : primary,
           bcp47[n] != '\0' ? "_" : "", bcp47[n] != '\0' ? bcp47 + n + 1 : "");
}

void serve_lang_deepl(const char *bcp47, int primary_only, char *out,
                      size_t outlen) {
  size_t n = primary_only ? strcspn(bcp47, "-") : strlen(bcp47);
  size_t k = 0;
  for (; k < n && k + 1 < outlen; k++)
    out[k] = (char)toupper((unsigned char)bcp47[k]);
  if (outlen > 0)
    out[k] = '\0';
}

const char *serve_lang_name(const char *bcp47) {
  char primary[16];
  snprintf(primary, sizeof primary, "%.*s", (int)strcspn(bcp47, "-"), bcp47);
  const struct language *l = by_code(primary);
  return l != NULL ? l->name : bcp47;
}

const char *serve_lang_all(size_t i) {
  return i < sizeof languages / sizeof *languages ? languages[i].iso1 : NULL;
}

int serve_lang_match(const char *a, const char *b) {
  if (strcasecmp(a, b) == 0)
    return 1;
  size_t na = strcspn(a, "-"), nb = strcspn(b, "-");
  return na == nb && strncasecmp(a, b, na) == 0 &&
         (a[na] == '\0' || b[nb] == '\0');
}

/* --- The pairs served ------------------------------------------------------
 */

/* pair as src (may be "") and tgt, BCP 47: 1, -1 when not codes. */
static int make_pair(const char *src, const char *tgt,
                     struct serve_pair *pair) {
  memset(pair, 0, sizeof *pair);
  if ((src[0] != '\0' && !serve_lang_bcp47(src, pair->src, sizeof pair->src)) ||
      !serve_lang_bcp47(tgt, pair->tgt, sizeof pair->tgt))
    return -1;
  return 1;
}

static int add_pair(struct serve_pairs *p, const struct serve_pair *pair,
                    size_t engine) {
  struct serve_pair *v = xmt_grow_array(p->v, &p->cap, p->n + 1, sizeof *v);
  if (v == NULL)
    return 0;
  p->v = v;
  p->v[p->n] = *pair;
  p->v[p->n++].engine = engine;
  return 1;
}

int serve_pair_parse(const char *name, size_t len, struct serve_pair *pair) {
  char buf[64];
  if (len >= sizeof buf)
    return -1;
  memcpy(buf, name, len);
  buf[len] = '\0';
  char *dash = strchr(buf, '-');
  if (dash == NULL || dash == buf || strchr(dash + 1, '-') != NULL)
    return -1;
  *dash = '\0';
  return make_pair(buf, dash + 1, pair);
}

/* An Apertium pair name ("eng-spa", "spa-eng_US"), as its mode file. */
static int add_apertium(struct serve_pairs *p, const char *name, size_t len,
                        size_t engine) {
  struct serve_pair pair;
  int r = serve_pair_parse(name, len, &pair);
  return r < 0 ? r : add_pair(p, &pair, engine);
}

static int pair_order(const void *a, const void *b) {
  const struct serve_pair *p = a, *q = b;
  int c = strcmp(p->src, q->src);
  return c != 0 ? c : strcmp(p->tgt, q->tgt);
}

/* The pairs of the installed Apertium modes, as apertium-apy lists them,
 * in order, after those of the engines before. */
static int apertium_modes(struct serve_pairs *p, const char *datadir,
                          size_t engine) {
  char path[1024];
  snprintf(path, sizeof path, "%s/modes", datadir);
  DIR *d = opendir(path);
  if (d == NULL)
    return 1; /* none installed: listed empty, refused by the engine */
  struct dirent *e;
  int ok = 1;
  size_t first = p->n;
  while (ok && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".mode") == 0 &&
        add_apertium(p, e->d_name, len - 5, engine) == 0)
      ok = 0;
  }
  closedir(d);
  if (p->n > first + 1)
    qsort(p->v + first, p->n - first, sizeof *p->v, pair_order);
  return ok;
}

int serve_pairs_add(struct serve_pairs *p, const struct serve_engine *e,
                    size_t i) {
  const struct xmt_cli_settings *s = &e->cli;
  if (e->pair.tgt[0] != '\0')
    return add_pair(p, &e->pair, i);
  if (s->tgt != NULL) {
    struct serve_pair pair;
    int r = make_pair(s->src != NULL ? s->src : "", s->tgt, &pair);
    if (r < 0)
      xmt_cli_usage_error("serve ", "-s and -t take language codes");
    return r > 0 && add_pair(p, &pair, i);
  }
  if (strcmp(e->backend->name, "apertium") != 0) {
    p->any = 1;
    return 1;
  }
  if (e->spec != NULL && e->spec[0] != '\0') {
    size_t n = p->n;
    if (add_apertium(p, e->spec, strlen(e->spec), i) == 0)
      return 0;
    p->any = p->n == n; /* a spec the engine will judge */
    return 1;
  }
  const char *datadir = "/usr/share/apertium";
  for (size_t k = 0; k < s->nmt_options; k++)
    if (strncmp(s->mt_options[k], "datadir=", 8) == 0)
      datadir = s->mt_options[k] + 8;
  return apertium_modes(p, datadir, i);
}

void serve_pairs_free(struct serve_pairs *p) {
  free(p->v);
  memset(p, 0, sizeof *p);
}

int serve_pairs_find(const struct serve_pairs *p, const char *src,
                     const char *tgt, struct serve_pair *pair) {
  int has_src = src != NULL && src[0] != '\0';
  for (size_t i = 0; !p->any && i < p->n; i++) {
    const struct serve_pair *c = &p->v[i];
    if (!serve_lang_match(c->tgt, tgt) ||
        (has_src && c->src[0] != '\0' && !serve_lang_match(c->src, src)))
      continue;
    snprintf(pair->src, sizeof pair->src, "%s", has_src ? src : c->src);
    snprintf(pair->tgt, sizeof pair->tgt, "%s", tgt);
    pair->engine = c->engine;
    return 1;
  }
  if (!p->any)
    return 0;
  snprintf(pair->src, sizeof pair->src, "%s", has_src ? src : "");
  snprintf(pair->tgt, sizeof pair->tgt, "%s", tgt);
  pair->engine = 0; /* any: the one engine */
  return 1;
}

int serve_pairs_has_source(const struct serve_pairs *p, const char *src) {
  for (size_t i = 0; !p->any && i < p->n; i++)
    if (p->v[i].src[0] == '\0' || serve_lang_match(p->v[i].src, src))
      return 1;
  return p->any;
}

void serve_pairs_describe(const struct serve_pairs *p, int upper, char *out,
                          size_t outlen) {
  if (p->any) {
    snprintf(out, outlen, "this server takes any language code");
    return;
  }
  size_t k = (size_t)snprintf(out, outlen, "this server translates ");
  for (size_t i = 0; i < p->n && k < outlen; i++) {
    if (i == 4) { /* enough to tell what is wrong */
      snprintf(out + k, outlen - k, ", ...");
      break;
    }
    char s[SERVE_LANG_MAX], t[SERVE_LANG_MAX];
    snprintf(s, sizeof s, "%s", p->v[i].src[0] != '\0' ? p->v[i].src : "any");
    snprintf(t, sizeof t, "%s", p->v[i].tgt);
    for (char *c = s; upper && *c != '\0'; c++)
      *c = (char)toupper((unsigned char)*c);
    for (char *c = t; upper && *c != '\0'; c++)
      *c = (char)toupper((unsigned char)*c);
    k += (size_t)snprintf(out + k, outlen - k, "%s%s to %s", i > 0 ? ", " : "",
                          s, t);
  }
}
