/* cache_sqlite.c -- the translation memory cache in an SQLite file
 * (sqlite:PATH), for the processes of one machine.
 *
 * SQLite in WAL mode: many processes (xliffmt batch --jobs, several
 * batches on one machine) read while one writes, writers wait for each
 * other (busy timeout), and an entry is written whole by an upsert or not
 * at all. A lock another process keeps is waited for a few seconds at
 * most (LOCK_WAIT_MS), and not at all once the run is interrupted: past
 * that the run goes on without the cache. The answers are stored as the
 * pipeline uses them (spaces tidied,
 * control characters removed), so a rerun writes the same bytes. A file
 * that is not a sound cache is set aside under another name, reported,
 * and replaced by an empty one: never trusted. A new cache is made whole
 * beside its place and linked there (cache_sqlite_new.c): never found
 * half-made. A failure keeps its own
 * message (SQLite's changes with the rollback that follows) in the
 * user's words: a full disk is called so. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cache_private.h"

struct lite {
  struct xmt_cache base;
  const int *interrupted; /* the filter's: waits end at once when set */
  unsigned waited_ms;     /* in the current wait for a lock */
  int no_touch;           /* a touch found the file locked: no more */
  sqlite3 *db;
  char *path;
  sqlite3_stmt *get, *touch, *put;
  int in_transaction;
  size_t max_entries; /* 0: unbounded */
  char msg[300];      /* the last failure, for xmt_cache_error */
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS xliffmt_cache ("
    " engine TEXT NOT NULL, source_language TEXT NOT NULL,"
    " target_language TEXT NOT NULL, markup INTEGER NOT NULL,"
    " request TEXT NOT NULL, answer TEXT NOT NULL, alignment TEXT,"
    " source_tokens TEXT, target_tokens TEXT, used INTEGER NOT NULL,"
    " UNIQUE (engine, source_language, target_language, markup, request));"
    "CREATE INDEX IF NOT EXISTS xliffmt_cache_used ON xliffmt_cache (used);"
    "PRAGMA user_version = 1;";

/* The cache format this version writes (PRAGMA user_version; 0: a cache
 * of a version before it was written, of the same table). */
#define CACHE_FORMAT 1

/* The cache's columns, in a form for "name IN (...)". */
#define CACHE_COLUMNS                                                          \
  "'engine', 'source_language', 'target_language', 'markup', 'request', "      \
  "'answer', 'alignment', 'source_tokens', 'target_tokens', 'used'"
#define KEY_COLUMNS                                                            \
  "'engine', 'source_language', 'target_language', 'markup', 'request'"

/* Microseconds since the epoch: the order of use, for --cache-max. */
static sqlite3_int64 now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (sqlite3_int64)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static xmt_status fail(struct xmt_error_store *err, const char *path,
                       const char *what, const char *why) {
  return xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cache: %s: %s", what,
                      why);
}

static const char *why(sqlite3 *db) {
  const char *disk = xmt_cache_sqlite_disk_trouble(db);
  return disk != NULL ? disk : sqlite3_errmsg(db);
}

/* Jobs of a batch hold the lock for milliseconds; a lock kept longer is
 * another program's business, which the translation need not wait for. */
#define LOCK_WAIT_MS 3000u

/* Whether rc says another connection holds a lock. */
static int busy(int rc) {
  return (rc & 0xFF) == SQLITE_BUSY || (rc & 0xFF) == SQLITE_LOCKED;
}

/* Keeps why the last call failed (what: "cannot read", ...). */
static void keep_failure(struct lite *c, const char *what, int rc) {
  if (busy(rc))
    snprintf(c->msg, sizeof c->msg, "%s: locked by another process for %u s",
             what, LOCK_WAIT_MS / 1000);
  else
    snprintf(c->msg, sizeof c->msg, "%s: %s", what, why(c->db));
}

/* Waits 5 ms for a lock; 0 once LOCK_WAIT_MS have passed in this wait or
 * the run is interrupted. */
static int wait_lock(struct lite *c) {
  if (c->waited_ms >= LOCK_WAIT_MS ||
      (c->interrupted != NULL &&
       __atomic_load_n(c->interrupted, __ATOMIC_RELAXED) != 0))
    return 0;
  struct timespec ms5 = {0, 5000000};
  nanosleep(&ms5, NULL);
  c->waited_ms += 5;
  return 1;
}

/* SQLite's busy handler. The budget is the whole operation's, its
 * retries included: each operation starts it anew. */
static int on_busy(void *user, int count) {
  (void)count;
  return wait_lock(user);
}

/* Waits a little before trying again after rc; 0 when rc is not about a
 * lock or the wait is over. Some lock conflicts come back at once,
 * without the busy handler: a connection that opens the file while
 * another creates it, sets WAL mode, or checkpoints on closing. */
static int wait_busy(struct lite *c, int rc) {
  return busy(rc) && wait_lock(c);
}

/* sqlite3_exec, tried again while the database is busy. */
static int exec_waiting(struct lite *c, const char *sql, char **msg) {
  c->waited_ms = 0;
  int rc;
  do {
    sqlite3_free(*msg);
    *msg = NULL;
    rc = sqlite3_exec(c->db, sql, NULL, NULL, msg);
  } while (wait_busy(c, rc));
  return rc;
}

/* The first column of the one row sql gives, tried again while the
 * database is busy; 1 when it equals want, 0 when not, -1 still busy, -2
 * another error (the file cannot be read: no permission, a read-only
 * directory for its WAL files...), -3 the database is damaged. */
static int single_text(struct lite *c, const char *sql, const char *want) {
  sqlite3 *db = c->db;
  c->waited_ms = 0;
  int rc;
  do {
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
      const char *v = (const char *)sqlite3_column_text(st, 0);
      int eq = v != NULL && strcmp(v, want) == 0;
      sqlite3_finalize(st);
      return eq;
    }
    sqlite3_finalize(st);
  } while (wait_busy(c, rc));
  if (busy(rc))
    return -1;
  int primary = rc & 0xFF;
  return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ||
                 primary == SQLITE_DONE || primary == SQLITE_ERROR
             ? -3
             : -2;
}

/* 1 when path holds bytes that are not an SQLite database (a missing or
 * empty file is a new cache). */
static int foreign_bytes(const char *path) {
  static const char magic[16] = "SQLite format 3";
  char head[16];
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return 0;
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  return n > 0 && (n < sizeof head || memcmp(head, magic, sizeof head) != 0);
}

static void cut_short(const char *path, char *out, size_t size);

/* The tables of other programs, which a cache has none of. */
#define OTHER_TABLES                                                           \
  "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT "      \
  "LIKE 'xliffmt_%' AND name NOT LIKE 'sqlite_%'"

/* Whether a damaged database is an xliffmt cache: its schema, as far as
 * it can be read, holds the cache's table and no other. A file cut short
 * (a copy stopped, a full disk) is refused by SQLite as a whole unless
 * the schema may be written, and then read as far as it goes; nothing is
 * written here. */
static int holds_cache(struct lite *c) {
  static const char sql[] =
      "SELECT (SELECT count(*) FROM sqlite_master WHERE name = "
      "'xliffmt_cache') = 1 AND (" OTHER_TABLES ") = 0";
  int r = single_text(c, sql, "1");
  if (r == -3 && sqlite3_exec(c->db, "PRAGMA writable_schema = ON", NULL, NULL,
                              NULL) == SQLITE_OK)
    r = single_text(c, sql, "1");
  return r == 1;
}

/* Whether a sound database holds a cache this version can use: a format
 * not newer than CACHE_FORMAT, and no table xliffmt_cache or one of the
 * cache's columns with its key unique. Read only: a file of another
 * schema is refused before anything (WAL mode included) is written to
 * it. 1 when it fits, -1 still busy, -2 refused or unreadable (message
 * in err). */
static int fits(struct lite *c, const char *path, struct xmt_error_store *err) {
  sqlite3_stmt *st = NULL;
  long long format = -1;
  if (sqlite3_prepare_v2(c->db, "PRAGMA user_version", -1, &st, NULL) ==
          SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    format = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  if (format > CACHE_FORMAT) {
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path),
                 "cache: not a cache this version can use: it is of cache "
                 "format %lld, written by a newer xliffmt (this one knows "
                 "format %d; it is left as it is; give --cache another path)",
                 format, CACHE_FORMAT);
    return -2;
  }
  static const char sql[] =
      "SELECT (SELECT count(*) FROM sqlite_master WHERE name = "
      "'xliffmt_cache') = 0 OR ((SELECT count(*) FROM sqlite_master WHERE "
      "name = 'xliffmt_cache' AND type = 'table') = 1 AND (SELECT count(*) "
      "FROM pragma_table_info('xliffmt_cache')) = 10 AND (SELECT count(*) "
      "FROM pragma_table_info('xliffmt_cache') WHERE name IN (" CACHE_COLUMNS
      ")) = 10 AND (SELECT count(*) FROM pragma_index_list('xliffmt_cache') "
      "AS l WHERE l.\"unique\" = 1 AND (SELECT count(*) FROM "
      "pragma_index_info(l.name)) = 5 AND (SELECT count(*) FROM "
      "pragma_index_info(l.name) WHERE name IN (" KEY_COLUMNS ")) = 5) > 0)";
  int r = single_text(c, sql, "1");
  if (r == 0)
    fail(err, path, "not an xliffmt cache",
         "its table xliffmt_cache has other columns than a cache's (it is "
         "another program's, or of another xliffmt version; it is left as "
         "it is; give --cache another path)");
  else if (r < -1)
    fail(err, path, "cannot read", why(c->db));
  return r == 1 || r == -1 ? r : -2;
}

/* A sound cache that reads but cannot be written (its -wal or -shm file
 * another user's) is refused as read-only now, not found at the first
 * answer stored: 0, else as open_checked (c->db closed). */
static int writable(struct lite *c, const char *path,
                    struct xmt_error_store *err, const char *read_only) {
  char *msg = NULL;
  int rc = exec_waiting(c, "BEGIN IMMEDIATE", &msg);
  sqlite3_free(msg);
  if (rc == SQLITE_OK) {
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    return 0;
  }
  int locked = busy(rc);
  if (!locked)
    fail(err, path,
         (rc & 0xFF) == SQLITE_READONLY ? "read-only" : "cannot write",
         (rc & 0xFF) == SQLITE_READONLY ? read_only : why(c->db));
  sqlite3_close(c->db);
  c->db = NULL;
  return locked ? -3 : -2;
}

/* Opens path and checks it is a sound cache: 0; -1 an xliffmt cache found
 * damaged (c->db closed); -2 cannot be used, message in err (it cannot be
 * opened, or it is not an xliffmt cache: another program's database or
 * not a database at all, which is never touched); -3 locked past the
 * wait; -4 out of memory. */
static int open_checked(struct lite *c, const char *path,
                        struct xmt_error_store *err) {
  sqlite3 **db = &c->db;
  *db = NULL;
  /* A named pipe would be waited on without end, a device read as
   * garbage. */
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    fail(err, path, "not an xliffmt cache",
         "it is no regular file (it is left as it is; give --cache another "
         "path)");
    return -2;
  }
  int made = xmt_cache_sqlite_create(path, schema, err);
  if (made != 0)
    return made;
  if (foreign_bytes(path)) {
    fail(err, path, "not an xliffmt cache",
         "the file is not an SQLite database (it is left as it is; give "
         "--cache another path)");
    return -2;
  }
  int rc = sqlite3_open_v2(path, db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc != SQLITE_OK) {
    int sys =
        (rc & 0xFF) == SQLITE_CANTOPEN ? xmt_cache_sqlite_open_errno(path) : 0;
    fail(err, path, "cannot open",
         sys != 0      ? strerror(sys)
         : *db != NULL ? sqlite3_errmsg(*db)
                       : sqlite3_errstr(rc));
    sqlite3_close(*db);
    *db = NULL;
    return -2;
  }
  sqlite3_busy_handler(*db, on_busy, c);
  /* The cache is written as well as read: a file xliffmt may only read is
   * refused as such, not taken for a damaged or foreign one. */
  static const char read_only[] =
      "the cache is written as well as read, and SQLite keeps its -wal and "
      "-shm files beside it (give --cache a file in a directory xliffmt can "
      "write, or leave --cache out)";
  if (sqlite3_db_readonly(*db, "main") == 1) {
    fail(err, path, "read-only", read_only);
    sqlite3_close(*db);
    *db = NULL;
    return -2;
  }
  /* Another program's tables: its database, whatever state it is in. A
   * file another process holds is busy, not damaged: never set aside. */
  int sound = single_text(c, OTHER_TABLES, "0");
  if (sound == 1 && (sound = single_text(c, "PRAGMA quick_check", "ok")) == 0)
    sound = -3; /* a failed check */
  if (sound == -2) {
    int code = sqlite3_errcode(*db) & 0xFF;
    if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN)
      fail(err, path, "read-only", read_only);
    else /* the -shm file may be what a full disk keeps from being made */
      fail(err, path,
           xmt_cache_sqlite_disk_trouble(*db) != NULL ? "cannot write"
                                                      : "cannot read",
           why(*db));
  }
  if (sound == 1 && (sound = fits(c, path, err)) == 1)
    return writable(c, path, err, read_only);
  int ours = sound == -3 && holds_cache(c);
  sqlite3_close(*db);
  *db = NULL;
  if (sound == -1)
    return -3;
  if (ours)
    return -1;
  char cut[80];
  cut_short(path, cut, sizeof cut);
  if (sound == 0)
    fail(err, path, "not an xliffmt cache",
         "it is another program's database (it is left as it is; give "
         "--cache another path)");
  else if (sound == -3)
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path),
                 "cache: not an xliffmt cache: a damaged SQLite database%s "
                 "that holds no xliffmt cache as far as it can be read (it is "
                 "left as it is; give --cache another path)",
                 cut);
  return -2;
}

static unsigned long big_endian(const unsigned char *p, int n) {
  unsigned long v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | p[i];
  return v;
}

/* " (truncated: N of M bytes)" into out when the file at path is shorter
 * than its header says, else "". */
static void cut_short(const char *path, char *out, size_t size) {
  unsigned char h[100];
  out[0] = '\0';
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return;
  size_t n = fread(h, 1, sizeof h, fp);
  long have = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
  fclose(fp);
  if (n < sizeof h && have >= 0) {
    snprintf(out, size, " (truncated: %ld bytes, less than SQLite's header)",
             have);
    return;
  }
  unsigned long page = big_endian(h + 16, 2);
  if (page == 1)
    page = 65536;
  /* the page count is valid when the change counter matches */
  if (page == 0 || have < 0 || memcmp(h + 24, h + 92, 4) != 0)
    return;
  unsigned long long want =
      (unsigned long long)big_endian(h + 28, 4) * (unsigned long long)page;
  if (want > (unsigned long long)have)
    snprintf(out, size, " (truncated: %ld of %llu bytes)", have, want);
}

/* Renames the damaged cache path to a name no file has:
 * PATH.corrupt-TIME, then PATH.corrupt-TIME.N. link() never replaces a
 * file, so two set-asides in one second keep both. */
static int set_aside(const char *path, char *aside, size_t size) {
  long long t = (long long)time(NULL);
  for (unsigned n = 1; n < 1000; n++) {
    if (n == 1)
      snprintf(aside, size, "%s.corrupt-%lld", path, t);
    else
      snprintf(aside, size, "%s.corrupt-%lld.%u", path, t, n);
    if (link(path, aside) == 0)
      return unlink(path);
    if (errno != EEXIST)
      return -1;
  }
  errno = EEXIST;
  return -1;
}

static void lite_close(struct xmt_cache *cache);

/* A cache another process keeps locked: the run goes on without it. */
static xmt_status locked_out(struct lite *c, const char *path, char *warning,
                             size_t warning_len) {
  snprintf(warning, warning_len,
           "cache %s stayed locked by another process for %u s: going on "
           "without it",
           path, LOCK_WAIT_MS / 1000);
  lite_close(&c->base);
  return XMT_OK; /* no cache */
}

static xmt_status lite_open(struct xmt_cache **out, const char *path,
                            size_t max_entries, const int *interrupted,
                            struct xmt_error_store *err, char *warning,
                            size_t warning_len) {
  struct lite *c = calloc(1, sizeof *c);
  if (c == NULL || (c->path = xmt_strdup(path)) == NULL) {
    free(c);
    return xmt_error_nomem(err);
  }
  c->base.store = &xmt_cache_sqlite;
  c->base.name = c->path;
  c->max_entries = max_entries;
  c->interrupted = interrupted;
  int rc = open_checked(c, path, err);
  if (rc == -1) {
    /* Set aside, never silently trusted nor lost. */
    char aside[1100], cut[80];
    cut_short(path, cut, sizeof cut);
    if (set_aside(path, aside, sizeof aside) != 0) {
      xmt_status st = xmt_error_at(
          err, XMT_ERR_IO, XMT_IN(path),
          "cache: damaged%s, and cannot be set aside: %s (give --cache "
          "another path)",
          cut, strerror(errno));
      lite_close(&c->base);
      return st;
    }
    snprintf(warning, warning_len,
             "cache %s is damaged%s: set aside as %s, starting an empty one",
             path, cut, aside);
    rc = open_checked(c, path, err);
  }
  if (rc == -3)
    return locked_out(c, path, warning, warning_len);
  if (rc != 0) {
    lite_close(&c->base);
    return rc == -1   ? fail(err, path, "cannot create",
                             "the new cache is found damaged too")
           : rc == -4 ? XMT_ERR_NOMEM
                      : XMT_ERR_IO;
  }
  char *msg = NULL;
  if (exec_waiting(c, "PRAGMA journal_mode=WAL", &msg) != SQLITE_OK ||
      exec_waiting(c, schema, &msg) != SQLITE_OK ||
      sqlite3_prepare_v2(c->db,
                         "SELECT answer, alignment, source_tokens, "
                         "target_tokens FROM xliffmt_cache WHERE engine = ? "
                         "AND source_language = ? AND target_language = ? "
                         "AND markup = ? AND request = ?",
                         -1, &c->get, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(c->db,
                         "UPDATE xliffmt_cache SET used = ? WHERE engine = ? "
                         "AND source_language = ? AND target_language = ? "
                         "AND markup = ? AND request = ?",
                         -1, &c->touch, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(
          c->db,
          "INSERT INTO xliffmt_cache (engine, source_language, "
          "target_language, markup, request, answer, alignment, "
          "source_tokens, target_tokens, used) VALUES (?, ?, ?, ?, ?, ?, ?, "
          "?, ?, ?) ON CONFLICT (engine, source_language, target_language, "
          "markup, request) DO UPDATE SET answer = excluded.answer, "
          "alignment = excluded.alignment, source_tokens = "
          "excluded.source_tokens, target_tokens = excluded.target_tokens, "
          "used = excluded.used",
          -1, &c->put, NULL) != SQLITE_OK) {
    if (busy(sqlite3_errcode(c->db))) {
      sqlite3_free(msg);
      return locked_out(c, path, warning, warning_len);
    }
    const char *disk = xmt_cache_sqlite_disk_trouble(c->db);
    xmt_status st =
        fail(err, path, disk != NULL ? "cannot write" : "cannot use",
             disk != NULL  ? disk
             : msg != NULL ? msg
                           : sqlite3_errmsg(c->db));
    sqlite3_free(msg);
    lite_close(&c->base);
    return st;
  }
  *out = &c->base;
  return XMT_OK;
}

static void bind_key(sqlite3_stmt *st, int at, const struct xmt_cache_key *k,
                     const char *request, size_t len) {
  sqlite3_bind_text(st, at, k->engine, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, at + 1, k->source_language, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, at + 2, k->target_language, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, at + 3, k->markup);
  sqlite3_bind_text(st, at + 4, request, (int)len, SQLITE_STATIC);
}

static const char *column(sqlite3_stmt *st, int i) {
  return (const char *)sqlite3_column_text(st, i);
}

static int lite_get(struct xmt_cache *cache, const struct xmt_cache_key *k,
                    const char *request, size_t len,
                    struct xmt_mt_response *resp) {
  struct lite *c = (struct lite *)cache;
  sqlite3_reset(c->get);
  bind_key(c->get, 1, k, request, len);
  c->waited_ms = 0;
  int rc;
  while (wait_busy(c, rc = sqlite3_step(c->get)))
    sqlite3_reset(c->get);
  if (rc != SQLITE_ROW) {
    if (rc != SQLITE_DONE)
      keep_failure(c, "cannot read", rc);
    sqlite3_reset(c->get);
    return rc == SQLITE_DONE ? 0 : -1;
  }
  const char *answer = column(c->get, 0);
  xmt_status st =
      xmt_cache_answer(resp, answer != NULL ? answer : "",
                       (size_t)sqlite3_column_bytes(c->get, 0),
                       column(c->get, 1), column(c->get, 2), column(c->get, 3));
  sqlite3_reset(c->get);
  if (st != XMT_OK)
    return st == XMT_ERR_NOMEM ? -2 : 0;
  if (c->no_touch)
    return 1;
  sqlite3_reset(c->touch);
  sqlite3_bind_int64(c->touch, 1, now_us());
  bind_key(c->touch, 2, k, request, len);
  c->waited_ms = 0;
  /* The order of use is a hint: a miss is fine, but a lock that held
   * once would be waited for at every lookup. */
  if (busy(sqlite3_step(c->touch)))
    c->no_touch = 1;
  sqlite3_reset(c->touch);
  return 1;
}

static xmt_status lite_put(struct xmt_cache *cache,
                           const struct xmt_cache_key *k, const char *request,
                           size_t len, const char *answer, size_t answer_len,
                           const struct xmt_mt_response *resp) {
  struct lite *c = (struct lite *)cache;
  if (!c->in_transaction) {
    char *msg = NULL;
    int rc = exec_waiting(c, "BEGIN IMMEDIATE", &msg);
    sqlite3_free(msg);
    if (rc != SQLITE_OK) {
      keep_failure(c, "cannot write", rc);
      return XMT_ERR_IO;
    }
    c->in_transaction = 1;
  }
  sqlite3_reset(c->put);
  bind_key(c->put, 1, k, request, len);
  sqlite3_bind_text(c->put, 6, answer, (int)answer_len, SQLITE_STATIC);
  sqlite3_bind_text(c->put, 7, resp->alignment, -1, SQLITE_STATIC);
  sqlite3_bind_text(c->put, 8, resp->source_tokens, -1, SQLITE_STATIC);
  sqlite3_bind_text(c->put, 9, resp->target_tokens, -1, SQLITE_STATIC);
  sqlite3_bind_int64(c->put, 10, now_us());
  c->waited_ms = 0;
  int rc = sqlite3_step(c->put);
  if (rc != SQLITE_DONE)
    keep_failure(c, "cannot write", rc);
  sqlite3_reset(c->put);
  return rc == SQLITE_DONE ? XMT_OK : XMT_ERR_IO;
}

static xmt_status lite_commit(struct xmt_cache *cache,
                              struct xmt_error_store *err) {
  struct lite *c = (struct lite *)cache;
  if (!c->in_transaction)
    return XMT_OK;
  c->in_transaction = 0;
  char *msg = NULL;
  int rc = exec_waiting(c, "COMMIT", &msg);
  sqlite3_free(msg);
  if (rc == SQLITE_OK)
    return XMT_OK;
  /* Kept before the rollback, whose own failure (a full disk ends the
   * transaction already) would replace SQLite's message. */
  keep_failure(c, "cannot write", rc);
  xmt_status st =
      xmt_error_at(err, XMT_ERR_IO, XMT_IN(c->path), "cache: %s", c->msg);
  sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
  return st;
}

static const char *lite_error(const struct xmt_cache *cache) {
  const struct lite *c = (const struct lite *)cache;
  return c->msg[0] != '\0' ? c->msg : sqlite3_errmsg(c->db);
}

static void lite_close(struct xmt_cache *cache) {
  struct lite *c = (struct lite *)cache;
  if (c->in_transaction)
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
  if (c->db != NULL && c->max_entries > 0) {
    /* The least recently used entries beyond the bound go. */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db,
                           "DELETE FROM xliffmt_cache WHERE rowid IN (SELECT "
                           "rowid FROM xliffmt_cache ORDER BY used DESC "
                           "LIMIT -1 OFFSET ?)",
                           -1, &st, NULL) == SQLITE_OK) {
      sqlite3_bind_int64(st, 1, (sqlite3_int64)c->max_entries);
      sqlite3_step(st);
    }
    sqlite3_finalize(st);
  }
  sqlite3_finalize(c->get);
  sqlite3_finalize(c->touch);
  sqlite3_finalize(c->put);
  sqlite3_close(c->db);
  free(c->path);
  free(c);
}

const struct xmt_cache_store xmt_cache_sqlite = {
    "sqlite:",   lite_open,  lite_get,  lite_put,
    lite_commit, lite_error, lite_close};
