/* cache_pg.c -- the translation memory cache in a PostgreSQL database
 * (postgresql:CONNINFO), shared by the processes of many machines.
 *
 * The table and its columns are the SQLite store's. Each window's answers
 * are written in one transaction of upserts, in the order of their keys:
 * two processes putting the same new sentences then wait for each other
 * instead of deadlocking, and an entry is written whole or not at all.
 * The key is unique through the md5 of the engine and of the request,
 * because an index entry must fit in about 2.7 kB and a paragraph may
 * not; lookups compare the texts themselves too. Nothing printed ever
 * holds the connection string's password.
 *
 * Every wait is bounded and ends when the run is interrupted: libpq's
 * asynchronous calls, and poll() in ticks that look at the run's flag.
 * A lock another session keeps is waited for LOCK_WAIT at most, as
 * SQLite's store does, then the run goes on without the cache. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache_private.h"
#include "pq_api.h"

/* Built-in type OIDs, fixed by PostgreSQL (pg_type.dat). */
enum { OID_INT8 = 20, OID_INT4 = 23, OID_TEXT = 25 };

/* The session's lock_timeout and statement_timeout, unless the role,
 * the database or the connection string's options set their own: a lock
 * is waited for as long as SQLite's store waits (LOCK_WAIT_MS there). */
#define LOCK_WAIT "3s"
#define STATEMENT_WAIT "10s"
/* A server that has not answered this long after its statement_timeout
 * should have ended the statement is gone (a host stopped, a network
 * cut): the connection is given up. */
#define ANSWER_GRACE_S 5.0
/* How often a wait looks whether the run was interrupted. */
#define TICK_MS 50
/* connect_timeout, unless the string or PGCONNECT_TIMEOUT gives one. */
#define CONNECT_WAIT "10"

/* Advisory lock keys (any constants): the schema's creation, pruning. */
#define DDL_LOCK "2020439139"
#define PRUNE_LOCK "2020439140"

/* Microseconds since the epoch by the server's clock, which every machine
 * sharing the cache agrees on: the order of use, for --cache-max. */
#define NOW_US "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"

/* The cache format this version writes, in the table's comment (none: a
 * cache of a version before it was written, of the same table). */
#define CACHE_FORMAT 1
#define FORMAT_MARK "xliffmt cache format "

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS xliffmt_cache ("
    " engine TEXT NOT NULL, source_language TEXT NOT NULL,"
    " target_language TEXT NOT NULL, markup INTEGER NOT NULL,"
    " request TEXT NOT NULL, answer TEXT NOT NULL, alignment TEXT,"
    " source_tokens TEXT, target_tokens TEXT, used BIGINT NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS xliffmt_cache_key ON xliffmt_cache"
    " (md5(engine), source_language, target_language, markup,"
    " md5(request));"
    "CREATE INDEX IF NOT EXISTS xliffmt_cache_used ON xliffmt_cache (used);"
    "COMMENT ON TABLE xliffmt_cache IS '" FORMAT_MARK "1'";

#define KEY_MATCHES                                                            \
  "md5(engine) = md5($1) AND source_language = $2 AND target_language = $3 "   \
  "AND markup = $4 AND md5(request) = md5($5) AND engine = $1 AND "            \
  "request = $5"

/* A hit is marked used in the same round trip. */
static const char get_sql[] =
    "UPDATE xliffmt_cache SET used = " NOW_US " WHERE " KEY_MATCHES
    " RETURNING answer, alignment, source_tokens, target_tokens";

static const char put_sql[] =
    "INSERT INTO xliffmt_cache (engine, source_language, target_language, "
    "markup, request, answer, alignment, source_tokens, target_tokens, used) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, " NOW_US ") ON CONFLICT "
    "(md5(engine), source_language, target_language, markup, md5(request)) "
    "DO UPDATE SET engine = excluded.engine, request = excluded.request, "
    "answer = excluded.answer, alignment = excluded.alignment, "
    "source_tokens = excluded.source_tokens, target_tokens = "
    "excluded.target_tokens, used = excluded.used";

static const char prune_sql[] =
    "DELETE FROM xliffmt_cache WHERE ctid = ANY (ARRAY(SELECT ctid FROM "
    "xliffmt_cache ORDER BY used DESC OFFSET $1))";

/* The text fields of a put, in the order of put_sql's parameters but for
 * markup ($4). */
enum {
  F_ENGINE,
  F_SOURCE,
  F_TARGET,
  F_REQUEST,
  F_ANSWER,
  F_ALIGNMENT,
  F_SOURCE_TOKENS,
  F_TARGET_TOKENS,
  NFIELDS
};
#define NONE SIZE_MAX

/* A put waiting for the commit: offsets into the arena (NONE: NULL). */
struct entry {
  size_t at[NFIELDS], len[NFIELDS];
  const char *p[NFIELDS]; /* set at the commit, when the arena is still */
  int markup;
};

struct pg {
  struct xmt_cache base;
  const struct xmt_pq_api *pq; /* NULL: libpq could not be loaded */
  PGconn *conn;
  const int *interrupted;     /* the run's: waits end when it is set */
  double lock_s, statement_s; /* the session's timeouts, in seconds */
  int broken;      /* a wait was given up: the connection is not used again */
  int locked;      /* the last failure: lock_timeout */
  int aborted;     /* the last failure: the run was interrupted */
  char state[6];   /* the last failure's SQLSTATE, or "" */
  char label[320]; /* postgresql:... without the password */
  char msg[512];   /* the last failure */
  size_t max_entries;
  struct entry *entries;
  size_t nentries, entries_cap;
  struct xmt_buf arena;
};

/* libpq's message on one line: a line that starts a message or a
 * sentence after "; ", an indented one that goes on with a sentence
 * after a space. */
static void set_msg(struct pg *c, const char *what, const char *why) {
  size_t n = (size_t)snprintf(
      c->msg, sizeof c->msg, "%s%s", what,
      what[0] != '\0' && why != NULL && why[0] != '\0' ? ": " : "");
  for (const char *s = why; s != NULL && *s != '\0' && n + 2 < sizeof c->msg;
       s++) {
    if (!isspace((unsigned char)*s)) {
      c->msg[n++] = *s;
      continue;
    }
    int line = 0, indented = 0;
    for (; isspace((unsigned char)*s); s++) {
      if (*s == '\n') {
        line = 1;
        indented = s[1] == '\t';
      }
    }
    if (*s-- == '\0')
      break;
    if (line && (!indented || isupper((unsigned char)s[1])))
      c->msg[n++] = ';';
    c->msg[n++] = ' ';
  }
  c->msg[n] = '\0';
}

static int has_password(const char *keyword) {
  return strstr(keyword, "password") != NULL;
}

/* The label of conninfo for messages: the options it gives, save any
 * password. 0 when libpq cannot parse it (c->msg says why). */
static int describe(struct pg *c, const char *conninfo) {
  size_t n = (size_t)snprintf(c->label, sizeof c->label, "postgresql:");
  /* postgres:// too: libpq takes both. */
  int uri = strstr(conninfo, "://") != NULL;
  if (conninfo[0] == '\0') {
    snprintf(c->label + n, sizeof c->label - n, " (PG* environment)");
    return 1;
  }
  if (!uri && strchr(conninfo, '=') == NULL) { /* a database name */
    snprintf(c->label + n, sizeof c->label - n, "dbname=%s", conninfo);
    return 1;
  }
  char *why = NULL;
  PQconninfoOption *opts = c->pq->conninfoParse(conninfo, &why);
  if (opts == NULL) {
    /* libpq's message may quote any part of the string. */
    int secret = uri || strstr(conninfo, "password") != NULL;
    snprintf(c->label + n, sizeof c->label - n, "...");
    set_msg(c, "not a connection string",
            secret ? "(libpq's message not shown: it may quote the password)"
                   : why);
    c->pq->freemem(why);
    return 0;
  }
  const char *sep = "";
  for (PQconninfoOption *o = opts; o->keyword != NULL; o++) {
    if (o->val == NULL || has_password(o->keyword) || n >= sizeof c->label)
      continue;
    const char *quote =
        strpbrk(o->val, " \t'\\") != NULL || o->val[0] == '\0' ? "'" : "";
    n += (size_t)snprintf(c->label + n, sizeof c->label - n, "%s%s=%s%s%s", sep,
                          o->keyword, quote, o->val, quote);
    sep = " ";
  }
  c->pq->conninfoFree(opts);
  return 1;
}

static void quiet(void *user, const char *message) {
  (void)user; /* notices ("already exists, skipping") are not for users */
  (void)message;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

enum wait { READY, TIMED_OUT, STOPPED, FAILED };

/* Waits until the connection's socket can be read (or written), until
 * the time until (of now_s(); 0: no limit) or until the run is
 * interrupted. */
static enum wait wait_socket(struct pg *c, int writing, double until) {
  for (;;) {
    if (c->interrupted != NULL &&
        __atomic_load_n(c->interrupted, __ATOMIC_RELAXED) != 0)
      return STOPPED;
    int tick = TICK_MS;
    if (until > 0) {
      double left = until - now_s();
      if (left <= 0)
        return TIMED_OUT;
      if (left * 1000 < TICK_MS)
        tick = (int)(left * 1000) + 1;
    }
    struct pollfd p = {c->pq->socket(c->conn),
                       (short)(writing ? POLLOUT : POLLIN), 0};
    if (p.fd < 0)
      return FAILED;
    int n = poll(&p, 1, tick);
    if (n > 0)
      return READY;
    if (n < 0 && errno != EINTR)
      return FAILED;
  }
}

/* A wait that did not end with an answer: the connection is left as it
 * is (a statement may still be under way) and not used again. */
static void give_up(struct pg *c, enum wait how, double limit) {
  c->broken = 1;
  if (how == STOPPED) {
    c->aborted = 1;
    set_msg(c, "interrupted", NULL);
  } else if (how == TIMED_OUT) {
    snprintf(c->msg, sizeof c->msg,
             "no answer from the server in %g s (its statement_timeout, %g s, "
             "and %g s more)",
             limit, limit - ANSWER_GRACE_S, ANSWER_GRACE_S);
  } else {
    set_msg(c, "", c->pq->errorMessage(c->conn));
  }
}

/* Why r (NULL: the connection) failed, into c->msg. */
static void result_msg(struct pg *c, const PGresult *r) {
  const char *state =
      r != NULL ? c->pq->resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
  snprintf(c->state, sizeof c->state, "%s", state != NULL ? state : "");
  if (strcmp(c->state, "55P03") == 0) { /* lock_not_available */
    c->locked = 1;
    snprintf(c->msg, sizeof c->msg,
             "locked by another session for %g s (lock_timeout)", c->lock_s);
    return;
  }
  const char *why = r != NULL ? c->pq->resultErrorMessage(r) : "";
  set_msg(c, "", why[0] != '\0' ? why : c->pq->errorMessage(c->conn));
}

/* Waits for the answer to what was just sent (sent: what PQsend* gave)
 * and checks its status is want: 1 when it is, else 0 and c->msg says
 * why. The result is freed unless *out takes it. The wait is bounded by
 * the session's statement_timeout and a grace, and ends when the run is
 * interrupted. */
static int answer(struct pg *c, int sent, ExecStatusType want, PGresult **out) {
  c->locked = 0;
  c->state[0] = '\0';
  if (!sent) {
    result_msg(c, NULL);
    return 0;
  }
  double limit = c->statement_s > 0 ? c->statement_s + ANSWER_GRACE_S : 0;
  double until = limit > 0 ? now_s() + limit : 0;
  enum wait w = READY;
  int flushed;
  while ((flushed = c->pq->flush(c->conn)) == 1 &&
         (w = wait_socket(c, 1, until)) == READY)
    ;
  if (flushed < 0)
    w = FAILED;
  PGresult *last = NULL;
  for (;;) {
    while (w == READY && c->pq->isBusy(c->conn)) {
      w = wait_socket(c, 0, until);
      if (w == READY && !c->pq->consumeInput(c->conn))
        w = FAILED;
    }
    if (w != READY) {
      c->pq->clear(last);
      give_up(c, w, limit);
      return 0;
    }
    PGresult *r = c->pq->getResult(c->conn);
    if (r == NULL)
      break;
    /* The server stops at a statement that fails: it is the last. */
    c->pq->clear(last);
    last = r;
  }
  int ok = last != NULL && c->pq->resultStatus(last) == want;
  if (!ok)
    result_msg(c, last);
  if (ok && out != NULL)
    *out = last;
  else
    c->pq->clear(last);
  return ok;
}

/* Runs sql (statements separated by ';'): as answer(). */
static int run(struct pg *c, const char *sql, ExecStatusType want,
               PGresult **out) {
  if (c->broken)
    return 0; /* c->msg still says why */
  return answer(c, c->pq->sendQuery(c->conn, sql), want, out);
}

static int exists(struct pg *c, int *yes) {
  PGresult *r = NULL;
  if (!run(c, "SELECT to_regclass('xliffmt_cache') IS NOT NULL",
           PGRES_TUPLES_OK, &r))
    return 0;
  *yes = c->pq->ntuples(r) == 1 && strcmp(c->pq->getvalue(r, 0, 0), "t") == 0;
  c->pq->clear(r);
  return 1;
}

/* Whether the table there is a cache this version can use: a format not
 * newer than CACHE_FORMAT and the cache's ten columns. Read only: a table
 * of another schema is refused before anything is written to it. 1 when
 * it fits, else 0 and c->msg says why. */
static int fits(struct pg *c) {
  PGresult *r = NULL;
  if (!run(c,
           "SELECT coalesce(obj_description('xliffmt_cache'::regclass, "
           "'pg_class'), ''), (SELECT count(*) FROM pg_attribute WHERE "
           "attrelid = 'xliffmt_cache'::regclass AND attnum > 0 AND NOT "
           "attisdropped), (SELECT count(*) FROM pg_attribute WHERE attrelid "
           "= 'xliffmt_cache'::regclass AND attnum > 0 AND NOT attisdropped "
           "AND attname IN ('engine', 'source_language', 'target_language', "
           "'markup', 'request', 'answer', 'alignment', 'source_tokens', "
           "'target_tokens', 'used')), to_regclass('xliffmt_cache_key') IS "
           "NOT NULL",
           PGRES_TUPLES_OK, &r))
    return 0;
  const char *mark = c->pq->getvalue(r, 0, 0);
  long format = 0;
  if (strncmp(mark, FORMAT_MARK, sizeof FORMAT_MARK - 1) == 0)
    format = strtol(mark + sizeof FORMAT_MARK - 1, NULL, 10);
  int columns = strcmp(c->pq->getvalue(r, 0, 1), "10") == 0 &&
                strcmp(c->pq->getvalue(r, 0, 2), "10") == 0 &&
                strcmp(c->pq->getvalue(r, 0, 3), "t") == 0;
  c->pq->clear(r);
  if (format > CACHE_FORMAT)
    snprintf(c->msg, sizeof c->msg,
             "table xliffmt_cache is of cache format %ld, written by a newer "
             "xliffmt (this one knows format %d; it is left as it is; give "
             "--cache another database)",
             format, CACHE_FORMAT);
  else if (!columns)
    snprintf(c->msg, sizeof c->msg,
             "table xliffmt_cache is not an xliffmt cache: its columns or "
             "its key are not the cache's (it is left as it is; give --cache "
             "another database)");
  return format <= CACHE_FORMAT && columns;
}

/* Creates the table unless it is there, one process at a time: two
 * CREATE ... IF NOT EXISTS at once may both try, and one fail. Checked
 * first because a user who may not create tables may use one. */
static int create_schema(struct pg *c) {
  int there = 0;
  if (!exists(c, &there))
    return 0;
  if (there)
    return fits(c);
  if (!run(c, "SELECT pg_advisory_lock(" DDL_LOCK ")", PGRES_TUPLES_OK, NULL))
    return 0;
  /* Looked for again after the lock: another process may have just
   * created it (its comment is not to be written over). */
  int ok = exists(c, &there) &&
           (there ? fits(c) : run(c, schema, PGRES_COMMAND_OK, NULL));
  char keep[sizeof c->msg];
  memcpy(keep, c->msg, sizeof keep);
  run(c, "SELECT pg_advisory_unlock(" DDL_LOCK ")", PGRES_TUPLES_OK, NULL);
  memcpy(c->msg, keep, sizeof keep);
  return ok;
}

static void pg_close(struct xmt_cache *cache);

static xmt_status pg_fail(struct pg *c, struct xmt_error_store *err,
                          const char *what) {
  xmt_status st = xmt_error_at(err, c->aborted ? XMT_ERR_ABORTED : XMT_ERR_IO,
                               XMT_IN(c->label), "cache: %s: %s", what, c->msg);
  pg_close(&c->base);
  return st;
}

/* The connection's connect_timeout in seconds (0: none), as libpq reads
 * it; -1 when it is not a number. */
static int connect_timeout(struct pg *c) {
  PQconninfoOption *opts = c->pq->conninfo(c->conn);
  int timeout = 0;
  for (PQconninfoOption *o = opts; o != NULL && o->keyword != NULL; o++)
    if (strcmp(o->keyword, "connect_timeout") == 0 && o->val != NULL &&
        o->val[0] != '\0') {
      char *end;
      long v = strtol(o->val, &end, 10);
      timeout = *end != '\0' || end == o->val ? -1
                : v > 0 && v < 86400          ? (int)v
                : v > 0                       ? 86400
                                              : 0;
    }
  c->pq->conninfoFree(opts);
  return timeout;
}

/* Connects without blocking, so that the wait ends when the run is
 * interrupted. libpq's asynchronous calls leave connect_timeout to the
 * caller: each host gets it whole, as PQconnectdb gives it, but a host
 * that never answers ends the attempt (only PQconnectdb's own timeout
 * can make libpq try the next; it moves on by itself from one that
 * refuses). 1 when connected, else 0 and c->msg says why. */
static int connect_waiting(struct pg *c, const char *const *keys,
                           const char *const *values) {
  if (c->pq->status(c->conn = c->pq->connectStartParams(keys, values, 1)) ==
      CONNECTION_BAD) {
    set_msg(c, "", c->pq->errorMessage(c->conn));
    return 0;
  }
  int timeout = connect_timeout(c);
  if (timeout < 0) {
    set_msg(c, "connect_timeout is not a number of seconds", NULL);
    return 0;
  }
  char host[300] = "", now_host[300];
  double until = 0;
  PostgresPollingStatusType s = PGRES_POLLING_WRITING;
  while (s != PGRES_POLLING_OK) {
    if (s == PGRES_POLLING_FAILED) {
      set_msg(c, "", c->pq->errorMessage(c->conn));
      return 0;
    }
    const char *h = c->pq->host(c->conn), *port = c->pq->port(c->conn);
    snprintf(now_host, sizeof now_host, "%s:%s", h != NULL ? h : "",
             port != NULL ? port : "");
    if (strcmp(now_host, host) != 0) {
      memcpy(host, now_host, sizeof host);
      until = timeout > 0 ? now_s() + timeout : 0;
    }
    enum wait w = wait_socket(c, s == PGRES_POLLING_WRITING, until);
    if (w == STOPPED) {
      c->aborted = 1;
      set_msg(c, "interrupted", NULL);
      return 0;
    }
    if (w == TIMED_OUT) {
      snprintf(c->msg, sizeof c->msg,
               "no answer from the server in %d s (connect_timeout)", timeout);
      return 0;
    }
    s = w == READY ? c->pq->connectPoll(c->conn) : PGRES_POLLING_FAILED;
  }
  return 1;
}

/* The session's settings: a lock or a statement is waited for a bounded
 * time, unless the role, the database or the connection's options bound
 * it already (a setting of 0 is none). Then the bounds in force. */
static int settings(struct pg *c) {
  static const char sql[] =
      /* A cache: an answer lost to a server crash is asked again, and
       * waiting for the disk at every commit is not worth that. */
      "SET synchronous_commit TO off;"
      "SELECT set_config('lock_timeout', '" LOCK_WAIT "', false)"
      " WHERE current_setting('lock_timeout') = '0';"
      "SELECT set_config('statement_timeout', '" STATEMENT_WAIT "', false)"
      " WHERE current_setting('statement_timeout') = '0';"
      "SELECT extract(epoch FROM current_setting('lock_timeout')::interval),"
      " extract(epoch FROM current_setting('statement_timeout')::interval)";
  PGresult *r = NULL;
  c->statement_s = 10; /* till the server says */
  if (!run(c, sql, PGRES_TUPLES_OK, &r))
    return 0;
  if (c->pq->ntuples(r) == 1) {
    c->lock_s = strtod(c->pq->getvalue(r, 0, 0), NULL);
    c->statement_s = strtod(c->pq->getvalue(r, 0, 1), NULL);
  }
  c->pq->clear(r);
  return 1;
}

static int prepare(struct pg *c, const char *name, const char *sql, int nparams,
                   const Oid *types) {
  return !c->broken &&
         answer(c, c->pq->sendPrepare(c->conn, name, sql, nparams, types),
                PGRES_COMMAND_OK, NULL);
}

/* A cache another session keeps locked: the run goes on without it, as
 * with SQLite's store. */
static xmt_status locked_out(struct pg *c, char *warning, size_t warning_len) {
  snprintf(warning, warning_len,
           "cache %s stayed locked by another session for %g s "
           "(lock_timeout): going on without it",
           c->label, c->lock_s);
  pg_close(&c->base);
  return XMT_OK; /* no cache */
}

static xmt_status pg_open(struct xmt_cache **out, const char *where,
                          size_t max_entries, const int *interrupted,
                          struct xmt_error_store *err, char *warning,
                          size_t warning_len) {
  struct pg *c = calloc(1, sizeof *c);
  /* libpq takes URIs whole: postgresql://host/db. */
  char *conninfo = NULL;
  if (c != NULL && (conninfo = malloc(strlen(where) + 12)) != NULL)
    sprintf(conninfo, "%s%s", strncmp(where, "//", 2) == 0 ? "postgresql:" : "",
            where);
  if (conninfo == NULL) {
    free(c);
    return xmt_error_nomem(err);
  }
  c->base.store = &xmt_cache_postgresql;
  c->base.name = c->label;
  c->max_entries = max_entries;
  c->interrupted = interrupted;
  /* libpq is loaded here, the first time a PostgreSQL cache is opened. */
  c->pq = xmt_pq_api(c->msg, sizeof c->msg);
  if (c->pq == NULL) {
    free(conninfo);
    /* Without libpq, no label without the password: the scheme alone. */
    snprintf(c->label, sizeof c->label, "postgresql");
    return pg_fail(c, err, "cannot connect");
  }
  if (!describe(c, conninfo)) {
    free(conninfo);
    return pg_fail(c, err, "cannot connect");
  }
  /* A host that does not answer must not hang every job. Later values
   * win: the string's connect_timeout, if any, overrides ours; the
   * encoding is ours whatever the string says. */
  const char *keys[5], *values[5];
  int n = 0;
  keys[n] = "fallback_application_name";
  values[n++] = "xliffmt";
  if (getenv("PGCONNECT_TIMEOUT") == NULL) {
    keys[n] = "connect_timeout";
    values[n++] = CONNECT_WAIT;
  }
  keys[n] = "dbname"; /* expanded: a connection string or URI */
  values[n++] = conninfo;
  keys[n] = "client_encoding";
  values[n++] = "UTF8";
  keys[n] = values[n] = NULL;
  int connected = connect_waiting(c, keys, values);
  free(conninfo);
  if (c->conn == NULL) {
    pg_close(&c->base);
    return xmt_error_nomem(err);
  }
  if (!connected || c->pq->setnonblocking(c->conn, 1) != 0)
    return pg_fail(c, err, "cannot connect");
  c->pq->setNoticeProcessor(c->conn, quiet, NULL);
  const char *enc = c->pq->parameterStatus(c->conn, "server_encoding");
  if (enc == NULL ||
      (strcmp(enc, "UTF8") != 0 && strcmp(enc, "SQL_ASCII") != 0)) {
    snprintf(c->msg, sizeof c->msg,
             "the database's encoding is %s; the cache needs UTF8",
             enc != NULL ? enc : "unknown");
    return pg_fail(c, err, "cannot use");
  }
  static const Oid get_types[] = {OID_TEXT, OID_TEXT, OID_TEXT, OID_INT4,
                                  OID_TEXT};
  static const Oid put_types[] = {OID_TEXT, OID_TEXT, OID_TEXT,
                                  OID_INT4, OID_TEXT, OID_TEXT,
                                  OID_TEXT, OID_TEXT, OID_TEXT};
  if (!settings(c) || !create_schema(c) ||
      !prepare(c, "xmt_get", get_sql, 5, get_types) ||
      !prepare(c, "xmt_put", put_sql, 9, put_types))
    return c->locked ? locked_out(c, warning, warning_len)
                     : pg_fail(c, err, "cannot use");
  *out = &c->base;
  return XMT_OK;
}

/* Parameters $1..$5 of a key; text is sent as is (binary format), so its
 * length, not a NUL, ends it. */
struct params {
  const char *v[9];
  int len[9], fmt[9];
  char markup[2];
};

static void key_params(struct params *p, const struct xmt_cache_key *k,
                       const char *request, size_t len) {
  const char *text[] = {k->engine, k->source_language, k->target_language};
  for (int i = 0; i < 3; i++) {
    p->v[i] = text[i];
    p->len[i] = (int)strlen(text[i]);
    p->fmt[i] = 1;
  }
  p->markup[0] = k->markup ? '1' : '0';
  p->markup[1] = '\0';
  p->v[3] = p->markup;
  p->len[3] = 1;
  p->fmt[3] = 0;
  p->v[4] = request;
  p->len[4] = (int)len;
  p->fmt[4] = 1;
}

static int pg_get(struct xmt_cache *cache, const struct xmt_cache_key *k,
                  const char *request, size_t len,
                  struct xmt_mt_response *resp) {
  struct pg *c = (struct pg *)cache;
  struct params p;
  key_params(&p, k, request, len);
  PGresult *r = NULL;
  if (c->broken || !answer(c,
                           c->pq->sendQueryPrepared(c->conn, "xmt_get", 5, p.v,
                                                    p.len, p.fmt, 0),
                           PGRES_TUPLES_OK, &r))
    return -1;
  if (c->pq->ntuples(r) != 1) {
    c->pq->clear(r);
    return 0;
  }
  const char *col[4];
  for (int i = 0; i < 4; i++)
    col[i] = c->pq->getisnull(r, 0, i) ? NULL : c->pq->getvalue(r, 0, i);
  xmt_status st = xmt_cache_answer(
      resp, col[0], (size_t)c->pq->getlength(r, 0, 0), col[1], col[2], col[3]);
  c->pq->clear(r);
  if (st != XMT_OK)
    return st == XMT_ERR_NOMEM ? -2 : 0;
  return 1;
}

static xmt_status keep(struct pg *c, struct entry *e, int f, const char *s,
                       size_t len) {
  if (s == NULL) {
    e->at[f] = NONE;
    e->len[f] = 0;
    return XMT_OK;
  }
  e->at[f] = c->arena.len;
  e->len[f] = len;
  xmt_status st = xmt_buf_append(&c->arena, s, len);
  return st == XMT_OK ? xmt_buf_append_byte(&c->arena, '\0') : st;
}

static xmt_status pg_put(struct xmt_cache *cache, const struct xmt_cache_key *k,
                         const char *request, size_t len, const char *answer,
                         size_t answer_len,
                         const struct xmt_mt_response *resp) {
  struct pg *c = (struct pg *)cache;
  struct entry *e =
      xmt_grow_one(&c->entries, c->nentries, &c->entries_cap, sizeof *e);
  if (e == NULL) {
    set_msg(c, "out of memory", NULL);
    return XMT_ERR_NOMEM;
  }
  e->markup = k->markup;
  const char *opt[] = {resp->alignment, resp->source_tokens,
                       resp->target_tokens};
  xmt_status st = keep(c, e, F_ENGINE, k->engine, strlen(k->engine));
  if (st == XMT_OK)
    st = keep(c, e, F_SOURCE, k->source_language, strlen(k->source_language));
  if (st == XMT_OK)
    st = keep(c, e, F_TARGET, k->target_language, strlen(k->target_language));
  if (st == XMT_OK)
    st = keep(c, e, F_REQUEST, request, len);
  if (st == XMT_OK)
    st = keep(c, e, F_ANSWER, answer != NULL ? answer : "", answer_len);
  for (int i = 0; st == XMT_OK && i < 3; i++)
    st = keep(c, e, F_ALIGNMENT + i, opt[i],
              opt[i] != NULL ? strlen(opt[i]) : 0);
  if (st != XMT_OK) {
    set_msg(c, "out of memory", NULL);
    return st;
  }
  c->nentries++;
  return XMT_OK;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb) {
  int d = memcmp(a, b, la < lb ? la : lb);
  return d != 0 ? d : (la > lb) - (la < lb);
}

/* The order of keys every process writes in. */
static int entry_cmp(const void *pa, const void *pb) {
  const struct entry *a = pa, *b = pb;
  static const int key[] = {F_ENGINE, F_SOURCE, F_TARGET};
  for (int i = 0; i < 3; i++) {
    int d =
        bytes_cmp(a->p[key[i]], a->len[key[i]], b->p[key[i]], b->len[key[i]]);
    if (d != 0)
      return d;
  }
  if (a->markup != b->markup)
    return a->markup - b->markup;
  return bytes_cmp(a->p[F_REQUEST], a->len[F_REQUEST], b->p[F_REQUEST],
                   b->len[F_REQUEST]);
}

/* One transaction of the window's puts; 1 when committed, else 0 with
 * *retry set when trying again may succeed. */
static int write_entries(struct pg *c, int *retry) {
  *retry = 0;
  if (!run(c, "BEGIN", PGRES_COMMAND_OK, NULL))
    return 0;
  for (size_t i = 0; i < c->nentries; i++) {
    const struct entry *e = &c->entries[i];
    struct params p;
    static const int field[] = {F_ENGINE,    F_SOURCE,        F_TARGET,
                                -1,          F_REQUEST,       F_ANSWER,
                                F_ALIGNMENT, F_SOURCE_TOKENS, F_TARGET_TOKENS};
    for (int j = 0; j < 9; j++) {
      if (field[j] < 0) {
        p.markup[0] = e->markup ? '1' : '0';
        p.markup[1] = '\0';
        p.v[j] = p.markup;
        p.len[j] = 1;
        p.fmt[j] = 0;
        continue;
      }
      p.v[j] = e->p[field[j]];
      p.len[j] = (int)e->len[field[j]];
      p.fmt[j] = 1;
    }
    int ok =
        !c->broken && answer(c,
                             c->pq->sendQueryPrepared(c->conn, "xmt_put", 9,
                                                      p.v, p.len, p.fmt, 0),
                             PGRES_COMMAND_OK, NULL);
    if (!ok) {
      /* deadlock_detected, serialization_failure */
      *retry = strcmp(c->state, "40P01") == 0 || strcmp(c->state, "40001") == 0;
      char keep_msg[sizeof c->msg];
      int locked = c->locked;
      memcpy(keep_msg, c->msg, sizeof keep_msg);
      run(c, "ROLLBACK", PGRES_COMMAND_OK, NULL);
      memcpy(c->msg, keep_msg, sizeof keep_msg);
      c->locked = locked;
      return 0;
    }
  }
  return run(c, "COMMIT", PGRES_COMMAND_OK, NULL);
}

static void drop_entries(struct pg *c) {
  c->nentries = 0;
  xmt_buf_reset(&c->arena);
}

static xmt_status pg_commit(struct xmt_cache *cache,
                            struct xmt_error_store *err) {
  struct pg *c = (struct pg *)cache;
  if (c->nentries == 0)
    return XMT_OK;
  for (size_t i = 0; i < c->nentries; i++)
    for (int f = 0; f < NFIELDS; f++)
      c->entries[i].p[f] = c->entries[i].at[f] == NONE
                               ? NULL
                               : c->arena.data + c->entries[i].at[f];
  qsort(c->entries, c->nentries, sizeof *c->entries, entry_cmp);
  int retry = 1;
  for (int attempt = 0; retry && attempt < 3; attempt++)
    if (write_entries(c, &retry)) {
      drop_entries(c);
      return XMT_OK;
    }
  drop_entries(c);
  return xmt_error_at(err, XMT_ERR_IO, XMT_IN(c->label),
                      "cache: cannot write: %s", c->msg);
}

static const char *pg_error(const struct xmt_cache *cache) {
  const struct pg *c = (const struct pg *)cache;
  return c->msg[0] != '\0' ? c->msg : "unknown failure";
}

/* The least recently used entries beyond the bound go, by one process at
 * a time (the others' runs have their entries in already). A failure only
 * leaves the cache larger until the next run. */
static void prune(struct pg *c) {
  PGresult *r = NULL;
  if (!run(c, "BEGIN", PGRES_COMMAND_OK, NULL))
    return;
  if (run(c, "SELECT pg_try_advisory_xact_lock(" PRUNE_LOCK ")",
          PGRES_TUPLES_OK, &r) &&
      c->pq->ntuples(r) == 1 && strcmp(c->pq->getvalue(r, 0, 0), "t") == 0) {
    char bound[32];
    snprintf(bound, sizeof bound, "%zu", c->max_entries);
    const char *v[] = {bound};
    static const Oid types[] = {OID_INT8};
    if (!c->broken)
      answer(c,
             c->pq->sendQueryParams(c->conn, prune_sql, 1, types, v, NULL, NULL,
                                    0),
             PGRES_COMMAND_OK, NULL);
  }
  c->pq->clear(r);
  /* COMMIT ends a failed transaction too (as a rollback). */
  run(c, "COMMIT", PGRES_COMMAND_OK, NULL);
}

static void pg_close(struct xmt_cache *cache) {
  struct pg *c = (struct pg *)cache;
  /* Puts never committed are dropped, as a rollback would. */
  if (c->pq == NULL) { /* nothing was opened */
    free(c);
    return;
  }
  if (c->conn != NULL && c->max_entries > 0 && !c->broken &&
      (c->interrupted == NULL ||
       __atomic_load_n(c->interrupted, __ATOMIC_RELAXED) == 0) &&
      c->pq->status(c->conn) == CONNECTION_OK &&
      c->pq->transactionStatus(c->conn) == PQTRANS_IDLE)
    prune(c);
  c->pq->finish(c->conn);
  free(c->entries);
  xmt_buf_free(&c->arena);
  free(c);
}

const struct xmt_cache_store xmt_cache_postgresql = {
    "postgresql:", pg_open, pg_get, pg_put, pg_commit, pg_error, pg_close};
