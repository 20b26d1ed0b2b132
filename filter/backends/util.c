/* util.c -- option handling and small helpers of the built-in
 * backends. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends_private.h"

/* Length of the KEY part of "KEY=VALUE", or 0 when there is no '=' or no
 * key. */
void *xmt_backend_state_new(size_t size, char *errbuf, size_t errlen) {
  void *state = calloc(1, size);
  if (state == NULL)
    snprintf(errbuf, errlen, "out of memory");
  return state;
}

static size_t key_length(const char *option) {
  const char *eq = strchr(option, '=');
  return eq != NULL ? (size_t)(eq - option) : 0;
}

int xmt_backend_check_options(const struct xmt_backend_config *config,
                              const char *backend, const char *const *known,
                              char *errbuf, size_t errlen) {
  for (const char *const *o = config->options; *o != NULL; o++) {
    size_t klen = key_length(*o);
    int ok = 0;
    for (const char *const *k = known; klen > 0 && *k != NULL && !ok; k++)
      ok = strlen(*k) == klen && memcmp(*k, *o, klen) == 0;
    if (ok)
      continue;
    size_t used = (size_t)snprintf(
        errbuf, errlen, "unknown option '%.64s' for the %s backend (known:", *o,
        backend);
    for (const char *const *k = known; *k != NULL && used < errlen; k++)
      used += (size_t)snprintf(errbuf + used, errlen - used, " %s", *k);
    if (used < errlen)
      snprintf(errbuf + used, errlen - used, "%s",
               known[0] == NULL ? " none)" : ")");
    return 1;
  }
  return 0;
}

const char *xmt_backend_option(const struct xmt_backend_config *config,
                               const char *key) {
  const char *value = NULL;
  size_t len = strlen(key);
  for (const char *const *o = config->options; *o != NULL; o++)
    if (key_length(*o) == len && memcmp(*o, key, len) == 0)
      value = *o + len + 1;
  return value;
}

int xmt_backend_option_uint(const struct xmt_backend_config *config,
                            const char *backend, const char *key, unsigned min,
                            unsigned max, unsigned *value, char *errbuf,
                            size_t errlen) {
  const char *s = xmt_backend_option(config, key);
  if (s == NULL)
    return 0;
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*s < '0' || *s > '9' || *end != '\0' || v < min || v > max) {
    snprintf(errbuf, errlen,
             "%s backend: option %s takes a whole number from %u to %u, not "
             "'%.32s'",
             backend, key, min, max, s);
    return 1;
  }
  *value = (unsigned)v;
  return 0;
}

int xmt_backend_option_seconds(const struct xmt_backend_config *config,
                               const char *backend, const char *key,
                               unsigned *ms, char *errbuf, size_t errlen) {
  const char *s = xmt_backend_option(config, key);
  if (s == NULL)
    return 0;
  char *end;
  double seconds = strtod(s, &end);
  if (end == s || *end != '\0' || !(seconds > 0) || seconds > 86400) {
    snprintf(errbuf, errlen,
             "%s backend: option %s takes a number of seconds, not '%.32s'",
             backend, key, s);
    return 1;
  }
  *ms = (unsigned)(seconds * 1000 + 0.5);
  if (*ms == 0)
    *ms = 1;
  return 0;
}

unsigned long long xmt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000u +
         (unsigned long long)ts.tv_nsec / 1000000u;
}

/* ISO 639-1 codes and the ISO 639-3 names Apertium pairs use. */
static const char *const iso3[][2] = {
    {"af", "afr"}, {"an", "arg"}, {"ar", "ara"}, {"az", "aze"}, {"be", "bel"},
    {"bg", "bul"}, {"br", "bre"}, {"bs", "bos"}, {"ca", "cat"}, {"co", "cos"},
    {"cs", "ces"}, {"cy", "cym"}, {"da", "dan"}, {"de", "deu"}, {"el", "ell"},
    {"en", "eng"}, {"eo", "epo"}, {"es", "spa"}, {"et", "est"}, {"eu", "eus"},
    {"fa", "fas"}, {"fi", "fin"}, {"fo", "fao"}, {"fr", "fra"}, {"ga", "gle"},
    {"gd", "gla"}, {"gl", "glg"}, {"he", "heb"}, {"hi", "hin"}, {"hr", "hrv"},
    {"hu", "hun"}, {"id", "ind"}, {"is", "isl"}, {"it", "ita"}, {"kk", "kaz"},
    {"ky", "kir"}, {"lt", "lit"}, {"lv", "lav"}, {"mk", "mkd"}, {"ms", "msa"},
    {"mt", "mlt"}, {"nb", "nob"}, {"nl", "nld"}, {"nn", "nno"}, {"no", "nob"},
    {"oc", "oci"}, {"pl", "pol"}, {"pt", "por"}, {"ro", "ron"}, {"ru", "rus"},
    {"sc", "srd"}, {"se", "sme"}, {"sk", "slk"}, {"sl", "slv"}, {"sq", "sqi"},
    {"sr", "srp"}, {"sv", "swe"}, {"tr", "tur"}, {"tt", "tat"}, {"uk", "ukr"},
    {"ur", "urd"}, {"uz", "uzb"}};

/* The Apertium name of a BCP 47 language: its ISO 639-3 code, or the
 * primary subtag itself. *region gets the region subtag, if any. */
void xmt_apertium_language(const char *tag, char *out, size_t outlen,
                           char *region, size_t regionlen) {
  size_t n = strcspn(tag, "-_");
  char primary[16];
  snprintf(primary, sizeof primary, "%.*s", (int)(n < 15 ? n : 15), tag);
  for (char *p = primary; *p != '\0'; p++)
    *p = (char)tolower((unsigned char)*p);
  snprintf(out, outlen, "%s", primary);
  for (size_t i = 0; i < sizeof iso3 / sizeof *iso3; i++)
    if (strcmp(iso3[i][0], primary) == 0)
      snprintf(out, outlen, "%s", iso3[i][1]);
  region[0] = '\0';
  const char *r = tag + n;
  if (*r != '\0' && strlen(r + 1) == 2) {
    snprintf(region, regionlen, "%s", r + 1);
    for (char *p = region; *p != '\0'; p++)
      *p = (char)toupper((unsigned char)*p);
  }
}
