/* serve_conn.c -- xliffmt serve: the deadline of a request. libmicrohttpd
 * closes a connection silent for --connection-timeout seconds, but a
 * client that sends a byte now and then is never silent: 512 of them
 * hold every connection. So each connection is tracked from its accept,
 * and one that has not sent a whole request (headers and body) within
 * --connection-timeout seconds of its accept, or of its last answer, is
 * cut by a sweep: shutdown() of its socket, which libmicrohttpd then sees
 * closed and closes. The list is under its own lock; a connection leaves
 * it in libmicrohttpd's "closed" notice, before its socket is closed, so
 * the sweep never touches a socket number used again.
 *
 * The same sweep looks at the socket of each request a worker runs: a
 * client that closed its end while its translation runs (its connection
 * suspended, which libmicrohttpd does not watch) is gone, and the run is
 * interrupted, so that one request left behind does not hold a worker
 * for its whole length while others wait. */
#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "serve.h"

struct serve_conn {
  int fd;
  struct timespec since; /* accepted, or last answered */
  int busy;              /* a whole request in: no deadline */
  int cut;
  struct serve_worker *worker; /* running its request; NULL none */
  int gone;                    /* its client closed its end meanwhile */
  struct serve_conn *prev, *next;
};

void serve_conn_notify(void *cls, struct MHD_Connection *conn,
                       void **socket_context,
                       enum MHD_ConnectionNotificationCode toe) {
  struct serve_server *sv = cls;
  struct serve_conn *c = *socket_context;
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *ci =
        serve_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (ci == NULL || (c = calloc(1, sizeof *c)) == NULL)
      return; /* untracked: only the idle timeout holds it */
    c->fd = ci->connect_fd;
    clock_gettime(CLOCK_MONOTONIC, &c->since);
    pthread_mutex_lock(&sv->conn_lock);
    c->next = sv->conns;
    if (sv->conns != NULL)
      sv->conns->prev = c;
    sv->conns = c;
    pthread_mutex_unlock(&sv->conn_lock);
    *socket_context = c;
  } else if (c != NULL) {
    pthread_mutex_lock(&sv->conn_lock);
    if (c->prev != NULL)
      c->prev->next = c->next;
    else
      sv->conns = c->next;
    if (c->next != NULL)
      c->next->prev = c->prev;
    pthread_mutex_unlock(&sv->conn_lock);
    free(c);
    *socket_context = NULL;
  }
}

void serve_conn_busy(struct serve_server *sv, struct MHD_Connection *conn,
                     int busy) {
  const union MHD_ConnectionInfo *ci =
      serve_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  struct serve_conn *c = ci != NULL ? ci->socket_context : NULL;
  if (c == NULL)
    return;
  pthread_mutex_lock(&sv->conn_lock);
  c->busy = busy;
  if (!busy)
    clock_gettime(CLOCK_MONOTONIC, &c->since);
  pthread_mutex_unlock(&sv->conn_lock);
}

int serve_conn_was_cut(struct serve_server *sv, struct MHD_Connection *conn) {
  const union MHD_ConnectionInfo *ci =
      serve_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  struct serve_conn *c = ci != NULL ? ci->socket_context : NULL;
  if (c == NULL)
    return 0;
  pthread_mutex_lock(&sv->conn_lock);
  int cut = c->cut;
  pthread_mutex_unlock(&sv->conn_lock);
  return cut;
}

int serve_conn_was_gone(struct serve_server *sv, struct MHD_Connection *conn) {
  struct serve_conn *c = serve_conn_of(conn);
  if (c == NULL)
    return 0;
  pthread_mutex_lock(&sv->conn_lock);
  int gone = c->gone;
  pthread_mutex_unlock(&sv->conn_lock);
  return gone;
}

struct serve_conn *serve_conn_of(struct MHD_Connection *conn) {
  const union MHD_ConnectionInfo *ci =
      serve_mhd.get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return ci != NULL ? ci->socket_context : NULL;
}

void serve_conn_watch(struct serve_server *sv, struct serve_conn *c,
                      struct serve_worker *w) {
  if (c == NULL)
    return;
  pthread_mutex_lock(&sv->conn_lock);
  c->worker = w;
  if (w != NULL) /* kept after the run: the request is logged as gone */
    c->gone = 0;
  pthread_mutex_unlock(&sv->conn_lock);
}

/* 1 when the peer of fd has closed its end (or the socket failed). */
static int hung_up(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLRDHUP};
  return poll(&p, 1, 0) == 1 &&
         (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

int serve_conn_gone(struct serve_server *sv, struct serve_conn *c) {
  if (c == NULL)
    return 0;
  pthread_mutex_lock(&sv->conn_lock);
  int gone = hung_up(c->fd);
  if (gone) /* logged as gone */
    c->gone = 1;
  pthread_mutex_unlock(&sv->conn_lock);
  return gone;
}

/* Interrupts the run of worker w when the request it runs has no other
 * client waiting for its answer; first: counted. Called without
 * conn_lock. */
static void cancel(struct serve_server *sv, struct serve_worker *w, int first) {
  pthread_mutex_lock(&sv->lock);
  if (w->current != NULL && w->current->followers == NULL) {
    xmt_filter_interrupt(w->filter);
    sv->runs_cancelled += (unsigned long long)first;
  }
  pthread_mutex_unlock(&sv->lock);
}

static void *sweep(void *arg) {
  struct serve_server *sv = arg;
  double limit = (double)sv->set->connection_timeout;
  pthread_mutex_lock(&sv->conn_lock);
  while (!sv->sweep_stop) {
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_nsec += 250000000;
    if (at.tv_nsec >= 1000000000) {
      at.tv_sec++;
      at.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&sv->sweep_wake, &sv->conn_lock, &at);
    size_t ngone = 0;
    for (struct serve_conn *c = sv->conns; c != NULL; c = c->next) {
      if (!c->busy && !c->cut && serve_elapsed(&c->since) > limit) {
        shutdown(c->fd, SHUT_RDWR);
        c->cut = 1;
        sv->conns_cut++;
      }
      if (c->worker != NULL && ngone < sv->nworkers &&
          (c->gone || hung_up(c->fd))) {
        sv->gone[ngone] = c->worker;
        sv->gone_first[ngone++] = !c->gone;
        c->gone = 1;
      }
    }
    if (ngone == 0)
      continue;
    /* Each sweep again while the run goes on: a request may make several
     * runs, and an interruption holds only until the next begins. */
    pthread_mutex_unlock(&sv->conn_lock);
    for (size_t i = 0; i < ngone; i++)
      cancel(sv, sv->gone[i], sv->gone_first[i]);
    pthread_mutex_lock(&sv->conn_lock);
  }
  pthread_mutex_unlock(&sv->conn_lock);
  return NULL;
}

int serve_conn_start(struct serve_server *sv) {
  if (sv->nworkers > 0 &&
      ((sv->gone = calloc(sv->nworkers, sizeof *sv->gone)) == NULL ||
       (sv->gone_first = calloc(sv->nworkers, sizeof *sv->gone_first)) ==
           NULL)) {
    free(sv->gone);
    sv->gone = NULL;
    xmt_cli_say("xliffmt: out of memory\n");
    return 0;
  }
  if (pthread_create(&sv->sweeper, NULL, sweep, sv) != 0) {
    xmt_cli_say("xliffmt: cannot start a thread\n");
    return 0;
  }
  sv->sweeping = 1;
  return 1;
}

void serve_conn_stop(struct serve_server *sv) {
  if (!sv->sweeping)
    return;
  pthread_mutex_lock(&sv->conn_lock);
  sv->sweep_stop = 1;
  pthread_cond_signal(&sv->sweep_wake);
  pthread_mutex_unlock(&sv->conn_lock);
  pthread_join(sv->sweeper, NULL);
  sv->sweeping = 0;
  free(sv->gone);
  free(sv->gone_first);
  sv->gone = NULL;
  sv->gone_first = NULL;
}
