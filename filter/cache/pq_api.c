/* pq_api.c -- libpq loaded the first time a PostgreSQL cache is opened
 * (pq_api.h says why). */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "cache_private.h"
#include "pq_api.h"

const char *xmt_pq_soname = XMT_LIBPQ_SONAME;

#define SYM(field)                                                             \
  { "PQ" #field, offsetof(struct xmt_pq_api, field) }
static const struct xmt_dynsym syms[] = {
    SYM(clear),
    SYM(connectPoll),
    SYM(connectStartParams),
    SYM(conninfo),
    SYM(conninfoFree),
    SYM(conninfoParse),
    SYM(consumeInput),
    SYM(errorMessage),
    SYM(finish),
    SYM(flush),
    SYM(freemem),
    SYM(getResult),
    SYM(getisnull),
    SYM(getlength),
    SYM(getvalue),
    SYM(host),
    SYM(isBusy),
    SYM(ntuples),
    SYM(parameterStatus),
    SYM(port),
    SYM(resultErrorField),
    SYM(resultErrorMessage),
    SYM(resultStatus),
    SYM(sendPrepare),
    SYM(sendQuery),
    SYM(sendQueryParams),
    SYM(sendQueryPrepared),
    SYM(setNoticeProcessor),
    SYM(setnonblocking),
    SYM(socket),
    SYM(status),
    SYM(transactionStatus),
};
#undef SYM

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct xmt_pq_api api;
static int failed;
static char why[512];

/* The table's types are libpq-fe.h's: checked here, at compile time. */
static void check_types(const struct xmt_pq_api *t) {
  XMT_DYNSYM_CHECK(t->clear, PQclear);
  XMT_DYNSYM_CHECK(t->connectPoll, PQconnectPoll);
  XMT_DYNSYM_CHECK(t->connectStartParams, PQconnectStartParams);
  XMT_DYNSYM_CHECK(t->conninfo, PQconninfo);
  XMT_DYNSYM_CHECK(t->conninfoFree, PQconninfoFree);
  XMT_DYNSYM_CHECK(t->conninfoParse, PQconninfoParse);
  XMT_DYNSYM_CHECK(t->consumeInput, PQconsumeInput);
  XMT_DYNSYM_CHECK(t->errorMessage, PQerrorMessage);
  XMT_DYNSYM_CHECK(t->finish, PQfinish);
  XMT_DYNSYM_CHECK(t->flush, PQflush);
  XMT_DYNSYM_CHECK(t->freemem, PQfreemem);
  XMT_DYNSYM_CHECK(t->getResult, PQgetResult);
  XMT_DYNSYM_CHECK(t->getisnull, PQgetisnull);
  XMT_DYNSYM_CHECK(t->getlength, PQgetlength);
  XMT_DYNSYM_CHECK(t->getvalue, PQgetvalue);
  XMT_DYNSYM_CHECK(t->host, PQhost);
  XMT_DYNSYM_CHECK(t->isBusy, PQisBusy);
  XMT_DYNSYM_CHECK(t->ntuples, PQntuples);
  XMT_DYNSYM_CHECK(t->parameterStatus, PQparameterStatus);
  XMT_DYNSYM_CHECK(t->port, PQport);
  XMT_DYNSYM_CHECK(t->resultErrorField, PQresultErrorField);
  XMT_DYNSYM_CHECK(t->resultErrorMessage, PQresultErrorMessage);
  XMT_DYNSYM_CHECK(t->resultStatus, PQresultStatus);
  XMT_DYNSYM_CHECK(t->sendPrepare, PQsendPrepare);
  XMT_DYNSYM_CHECK(t->sendQuery, PQsendQuery);
  XMT_DYNSYM_CHECK(t->sendQueryParams, PQsendQueryParams);
  XMT_DYNSYM_CHECK(t->sendQueryPrepared, PQsendQueryPrepared);
  XMT_DYNSYM_CHECK(t->setNoticeProcessor, PQsetNoticeProcessor);
  XMT_DYNSYM_CHECK(t->setnonblocking, PQsetnonblocking);
  XMT_DYNSYM_CHECK(t->socket, PQsocket);
  XMT_DYNSYM_CHECK(t->status, PQstatus);
  XMT_DYNSYM_CHECK(t->transactionStatus, PQtransactionStatus);
}

static void load(void) {
  check_types(&api);
  failed = xmt_dynlib_load(xmt_pq_soname, syms, sizeof syms / sizeof *syms,
                           &api, why, sizeof why);
}

const struct xmt_pq_api *xmt_pq_api(char *errbuf, size_t errlen) {
  int once_status = pthread_once(&once, load);
  return xmt_dynlib_result(once_status, failed, why, xmt_pq_soname, &api,
                           errbuf, errlen);
}
