/* cache_private.h -- the stores behind the translation memory cache:
 * cache.c picks one by the URI's scheme and forwards every call through
 * its table, so the pipeline sees one interface. Not installed. */
#ifndef XMT_CACHE_PRIVATE_H
#define XMT_CACHE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "cache_private.h is internal to libxliffmt"
#endif

#include "filter_private.h"

/* The contracts are those of the xmt_cache_* functions; get and put see
 * no request or answer over INT32_MAX bytes. */
struct xmt_cache_store {
  const char *scheme; /* "sqlite:" */
  /* where: what follows the scheme. */
  xmt_status (*open)(struct xmt_cache **cache, const char *where,
                     size_t max_entries, const int *interrupted,
                     struct xmt_error_store *err, char *warning,
                     size_t warning_len);
  int (*get)(struct xmt_cache *cache, const struct xmt_cache_key *key,
             const char *request, size_t len, struct xmt_mt_response *resp);
  xmt_status (*put)(struct xmt_cache *cache, const struct xmt_cache_key *key,
                    const char *request, size_t len, const char *answer,
                    size_t answer_len, const struct xmt_mt_response *resp);
  xmt_status (*commit)(struct xmt_cache *cache, struct xmt_error_store *err);
  const char *(*error)(const struct xmt_cache *cache);
  void (*close)(struct xmt_cache *cache);
};

/* A stored answer into resp: its text (len bytes) and, unless links is
 * NULL, its alignment. What each store's get ends with. */
xmt_status xmt_cache_answer(struct xmt_mt_response *resp, const char *text,
                            size_t len, const char *links,
                            const char *source_tokens,
                            const char *target_tokens);

/* The head of every store's handle. */
struct xmt_cache {
  const struct xmt_cache_store *store;
  const char *name; /* for messages: the file, the server (no password) */
};

extern const struct xmt_cache_store xmt_cache_sqlite;

/* The SQLite store's new caches (cache_sqlite_new.c). */
struct sqlite3;
/* When nothing is at path, makes the cache there whole (schema, WAL
 * mode) under a temporary name and links it into place: 0, also when a
 * file is there already (then opened as it is); -2, message in err,
 * nothing left behind; -4 out of memory (err says so). */
int xmt_cache_sqlite_create(const char *path, const char *schema,
                            struct xmt_error_store *err);
/* Why the last call on db failed when a disk is the cause, in the
 * user's words ("the disk is full"), else NULL. */
const char *xmt_cache_sqlite_disk_trouble(struct sqlite3 *db);
/* Why a file SQLite cannot open cannot be: asks the file, else its
 * directory (SQLite's "unable to open database file" does not say); 0
 * when neither tells. */
int xmt_cache_sqlite_open_errno(const char *path);
extern const struct xmt_cache_store xmt_cache_postgresql;

#endif
