/* pq_api.h -- the libpq functions the PostgreSQL cache calls, through a
 * table filled the first time such a cache is opened (pq_api.c): the
 * library and its dependencies are not loaded by runs without one. The
 * types are libpq-fe.h's. Not installed. */
#ifndef XMT_PQ_API_H
#define XMT_PQ_API_H

#ifndef XMT_BUILDING_LIBRARY
#error "pq_api.h is internal to libxliffmt"
#endif

#include <libpq-fe.h>
#include <stddef.h>

/* Each PQname function as the field name. */
struct xmt_pq_api {
  void (*clear)(PGresult *res);
  PostgresPollingStatusType (*connectPoll)(PGconn *conn);
  PGconn *(*connectStartParams)(const char *const *keywords,
                                const char *const *values, int expand_dbname);
  PQconninfoOption *(*conninfo)(PGconn *conn);
  void (*conninfoFree)(PQconninfoOption *options);
  PQconninfoOption *(*conninfoParse)(const char *conninfo, char **errmsg);
  int (*consumeInput)(PGconn *conn);
  char *(*errorMessage)(const PGconn *conn);
  void (*finish)(PGconn *conn);
  int (*flush)(PGconn *conn);
  void (*freemem)(void *ptr);
  PGresult *(*getResult)(PGconn *conn);
  int (*getisnull)(const PGresult *res, int row, int field);
  int (*getlength)(const PGresult *res, int row, int field);
  char *(*getvalue)(const PGresult *res, int row, int field);
  char *(*host)(const PGconn *conn);
  int (*isBusy)(PGconn *conn);
  int (*ntuples)(const PGresult *res);
  const char *(*parameterStatus)(const PGconn *conn, const char *name);
  char *(*port)(const PGconn *conn);
  char *(*resultErrorField)(const PGresult *res, int code);
  char *(*resultErrorMessage)(const PGresult *res);
  ExecStatusType (*resultStatus)(const PGresult *res);
  int (*sendPrepare)(PGconn *conn, const char *name, const char *query,
                     int nparams, const Oid *types);
  int (*sendQuery)(PGconn *conn, const char *query);
  int (*sendQueryParams)(PGconn *conn, const char *command, int nparams,
                         const Oid *types, const char *const *values,
                         const int *lengths, const int *formats,
                         int result_format);
  int (*sendQueryPrepared)(PGconn *conn, const char *name, int nparams,
                           const char *const *values, const int *lengths,
                           const int *formats, int result_format);
  PQnoticeProcessor (*setNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc,
                                          void *arg);
  int (*setnonblocking)(PGconn *conn, int arg);
  int (*socket)(const PGconn *conn);
  ConnStatusType (*status)(const PGconn *conn);
  PGTransactionStatusType (*transactionStatus)(const PGconn *conn);
};

/* The library loaded: configure's soname (XMT_LIBPQ_SONAME). Tests set it
 * before the first call of xmt_pq_api to see a load fail. */
extern const char *xmt_pq_soname;

/* libpq's functions, loaded once for the process (thread-safe); NULL when
 * the library or one of its functions cannot be loaded, with "cannot load
 * SONAME: " and the loader's reason in errbuf. */
const struct xmt_pq_api *xmt_pq_api(char *errbuf, size_t errlen);

#endif /* XMT_PQ_API_H */
