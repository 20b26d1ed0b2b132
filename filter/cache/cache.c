/* cache.c -- the translation memory cache: an engine's answers kept
 * between runs and between processes, keyed by the engine (with the
 * options that change its answers), the languages, whether the request
 * was markup, and the exact text sent. The URI's scheme picks the store:
 * an SQLite file for one machine, a PostgreSQL database for many. */
#include "config.h"

#include <string.h>

#include "cache_private.h"

static const struct xmt_cache_store *const stores[] = {&xmt_cache_sqlite,
                                                       &xmt_cache_postgresql};

/* The store of uri, and in *where what follows its scheme; NULL when
 * no store knows it. */
static const struct xmt_cache_store *store_of(const char *uri,
                                              const char **where) {
  for (size_t i = 0; i < sizeof stores / sizeof *stores; i++) {
    size_t n = strlen(stores[i]->scheme);
    if (strncmp(uri, stores[i]->scheme, n) == 0) {
      *where = uri + n;
      return stores[i];
    }
  }
  return NULL;
}

xmt_status xmt_cache_check_uri(const char *uri, struct xmt_error_store *err) {
  const char *where;
  const struct xmt_cache_store *s = store_of(uri, &where);
  /* postgresql: alone takes everything from the PG* environment. */
  if (s != NULL && (where[0] != '\0' || s == &xmt_cache_postgresql))
    return XMT_OK;
  /* Only the scheme is quoted: the rest may hold a password. */
  size_t scheme = strcspn(uri, ":");
  return xmt_error_set(err, XMT_ERR_USAGE,
                       "cache '%.*s%s': give sqlite:PATH or "
                       "postgresql:CONNINFO",
                       (int)(scheme < 40 ? scheme : 40), uri,
                       uri[scheme] == ':' ? ":..." : "");
}

xmt_status xmt_cache_open(struct xmt_cache **cache, const char *uri,
                          size_t max_entries, const int *interrupted,
                          struct xmt_error_store *err, char *warning,
                          size_t warning_len) {
  *cache = NULL;
  warning[0] = '\0';
  xmt_status st = xmt_cache_check_uri(uri, err);
  if (st != XMT_OK)
    return st;
  const char *where;
  const struct xmt_cache_store *s = store_of(uri, &where);
  return s->open(cache, where, max_entries, interrupted, err, warning,
                 warning_len);
}

/* Requests and answers longer than INT32_MAX bytes are never cached: no
 * store's API takes them. */
int xmt_cache_get(struct xmt_cache *cache, const struct xmt_cache_key *key,
                  const char *request, size_t len,
                  struct xmt_mt_response *resp) {
  if (len > (size_t)INT32_MAX)
    return 0;
  return cache->store->get(cache, key, request, len, resp);
}

xmt_status xmt_cache_put(struct xmt_cache *cache,
                         const struct xmt_cache_key *key, const char *request,
                         size_t len, const char *answer, size_t answer_len,
                         const struct xmt_mt_response *resp) {
  if (len > (size_t)INT32_MAX || answer_len > (size_t)INT32_MAX)
    return XMT_OK;
  return cache->store->put(cache, key, request, len, answer, answer_len, resp);
}

xmt_status xmt_cache_answer(struct xmt_mt_response *resp, const char *text,
                            size_t len, const char *links,
                            const char *source_tokens,
                            const char *target_tokens) {
  xmt_status st = xmt_mt_response_set_text(resp, text, len);
  if (st == XMT_OK && links != NULL)
    st = xmt_mt_response_set_alignment(resp, links, source_tokens,
                                       target_tokens);
  return st;
}

xmt_status xmt_cache_commit(struct xmt_cache *cache,
                            struct xmt_error_store *err) {
  return cache->store->commit(cache, err);
}

const char *xmt_cache_name(const struct xmt_cache *cache) {
  return cache->name != NULL ? cache->name : cache->store->scheme;
}

const char *xmt_cache_error(const struct xmt_cache *cache) {
  return cache->store->error(cache);
}

void xmt_cache_close(struct xmt_cache *cache) {
  if (cache != NULL)
    cache->store->close(cache);
}
