/* serve.c -- xliffmt serve: an HTTP server that speaks the APIs CAT tools
 * call (Apertium APy, DeepL, LibreTranslate) with any backend behind it,
 * inline codes put back by projection. This file is the command: its
 * options, the listening socket, and the server's life from start to a
 * clean stop on SIGTERM or SIGINT (the work begun is done first, within
 * --drain-timeout). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve.h"
#include "serve_document.h"

enum {
  XMT_OPT_LISTEN = 420,
  XMT_OPT_THREADS,
  XMT_OPT_QUEUE,
  XMT_OPT_MAX_BODY,
  XMT_OPT_AUTH_KEYS,
  XMT_OPT_CONN_TIMEOUT,
  XMT_OPT_MAX_CONNECTIONS,
  XMT_OPT_MAX_PER_ADDRESS,
  XMT_OPT_ACCESS_LOG,
  XMT_OPT_TLS_CERT,
  XMT_OPT_TLS_KEY,
  XMT_OPT_INSECURE,
  XMT_OPT_MAX_DOCUMENT,
  XMT_OPT_MAX_DOCUMENTS,
  XMT_OPT_DOCUMENT_EXPIRY,
  XMT_OPT_DOCUMENT_DIR,
  XMT_OPT_DRAIN_TIMEOUT,
  XMT_OPT_DOCUMENT_THREADS,
  XMT_OPT_DOCUMENT_TIMEOUT,
  XMT_OPT_MAX_PER_CLIENT
};

#define DEFAULT_LISTEN "127.0.0.1:2737"

static const struct xmt_cli_option serve_options[] = {
    {"listen", XMT_OPT_LISTEN, "ADDR:PORT",
     "where to listen (default " DEFAULT_LISTEN
     ",\nApertium APy's port; [::1]:PORT for\nIPv6; port 0 takes a free one, "
     "shown)"},
    {"threads", XMT_OPT_THREADS, "N",
     "workers translating at once for each\n--mt, each with its own "
     "engine\n(default 2)"},
    {"queue", XMT_OPT_QUEUE, "N",
     "requests waiting for a worker, at most;\nmore get 503 and Retry-After "
     "(default 64)"},
    {"max-body", XMT_OPT_MAX_BODY, "BYTES",
     "largest request body (K, M: KiB, MiB;\ndefault 1M); larger gets 413"},
    {"auth-key-file", XMT_OPT_AUTH_KEYS, "FILE",
     "keys, one a line ('#' lines skipped): a\ntranslation request must give "
     "one\n(DeepL-Auth-Key header, auth_key,\napi_key or key) or gets 403"},
    {"connection-timeout", XMT_OPT_CONN_TIMEOUT, "SECONDS",
     "close a connection silent that long,\nor that has not sent a whole "
     "request\n(headers and body) that long after it\nopened or had its "
     "last answer\n(default 30)"},
    {"drain-timeout", XMT_OPT_DRAIN_TIMEOUT, "SECONDS",
     "on SIGTERM or SIGINT, wait that long at\nmost for the requests under "
     "way and the\ndocuments kept to be downloaded, then\ninterrupt them and "
     "exit 3 (default 60)"},
    {"max-connections", XMT_OPT_MAX_CONNECTIONS, "N",
     "connections at once (default 512)"},
    {"max-connections-per-address", XMT_OPT_MAX_PER_ADDRESS, "N",
     "connections at once from one client\naddress (default 64)"},
    {"access-log", XMT_OPT_ACCESS_LOG, "FILE",
     "append a line per request: time, client,\nmethod, path, status, bytes, "
     "ms,\nsegments (- : standard output);\nSIGHUP reopens it"},
    {"tls-cert", XMT_OPT_TLS_CERT, "FILE",
     "serve HTTPS with this certificate (PEM,\nthe server's first, then "
     "its chain);\nwith --tls-key"},
    {"tls-key", XMT_OPT_TLS_KEY, "FILE",
     "the certificate's private key (PEM,\nno password)"},
    {"insecure", XMT_OPT_INSECURE, NULL,
     "with --auth-key-file, plain HTTP off\nloopback all the same (keys "
     "cross the\nnetwork in clear text)"},
    {"max-document-size", XMT_OPT_MAX_DOCUMENT, "BYTES",
     "largest document DeepL's /v2/document\ntakes (K, M, G; default 10M); "
     "larger\ngets 413"},
    {"max-documents", XMT_OPT_MAX_DOCUMENTS, "N",
     "documents kept at once, waiting or\ntranslated; more get 429 "
     "(default 64)"},
    {"max-documents-per-client", XMT_OPT_MAX_PER_CLIENT, "N",
     "documents an address keeps when\nanother's upload finds no room: its "
     "\noldest finished beyond N are deleted\nfor it (default a quarter of "
     "\n--max-documents)"},
    {"document-expiry", XMT_OPT_DOCUMENT_EXPIRY, "SECONDS",
     "a translated document not downloaded\nthat long is deleted "
     "(default 3600)"},
    {"document-threads", XMT_OPT_DOCUMENT_THREADS, "N",
     "documents translated at once, each by\nits own engine (default 2)"},
    {"document-timeout", XMT_OPT_DOCUMENT_TIMEOUT, "SECONDS",
     "a document still translating that long\nis stopped and ends in DeepL's "
     "\"error\"\nstatus (default 600)"},
    {"document-dir", XMT_OPT_DOCUMENT_DIR, "DIR",
     "where serve makes its own folder for\ndocuments (default $TMPDIR, "
     "else /tmp)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_option *const groups[] = {
    serve_options,       xmt_cli_lang_options, xmt_cli_mt_options,
    xmt_cli_run_options, xmt_cli_tail_options, NULL};

static const struct xmt_cli_command serve_command = {
    "serve ",
    "Usage: xliffmt serve --mt [PAIR=]BACKEND [--mt ...] [--listen ADDR:PORT]\n"
    "       [OPTIONS]\n\n"
    "Serves machine translation over HTTP in the APIs CAT tools call:\n"
    "Apertium APy (GET/POST /translate with langpair, /listPairs), DeepL\n"
    "(POST /v2/translate, /v2/languages, /v2/usage, and whole files with\n"
    "/v2/document) and LibreTranslate\n"
    "(POST /translate with source and target, /languages); GET /health and\n"
    "GET /metrics. Inline tags in a request's text are put back into the\n"
    "translation as `xliffmt translate` puts them, whatever the backend.\n"
    "-s and -t name the one language pair served (else the backend's).\n"
    "--mt may be given once per engine, each serving its pairs: PAIR=\n"
    "names them (--mt en-de=cmd:...), else apertium:PAIR its own, apertium\n"
    "every installed pair; a request goes to its pair's engine, each with\n"
    "its --threads workers, and a --mt-option after a --mt is its own.\n"
    "The options of `xliffmt translate` mean the same here. SIGTERM or\n"
    "SIGINT stops it once the requests under way are answered and the\n"
    "documents kept are downloaded (at most --drain-timeout).\n\n",
    groups, xmt_cli_backends_help,
    "Exit status: 0 stopped by a signal, 1 bad options, 2 cannot serve,\n"
    "3 stopped by a signal before all the work begun was done.\n"};

/* translate's options that write a document, which serve has not. */
static const int not_here[] = {XMT_OPT_OVERWRITE,  XMT_OPT_ALT_TRANS,
                               XMT_OPT_SEG_SOURCE, XMT_OPT_APPROVED,
                               XMT_OPT_STATE,      XMT_OPT_QUALIFIER,
                               XMT_OPT_RESEGMENT,  XMT_OPT_UPDATE_MODEL};

static int parse_number(const char *arg, size_t max, size_t *n, int zero) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(arg, &end, 10);
  unsigned shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' ? 20 : 0;
  if (shift != 0)
    end++;
  if (end == arg || *end != '\0' || errno != 0 || arg[0] == '-' ||
      (v == 0 && !zero) || v > (max >> shift))
    return 0;
  *n = (size_t)v << shift;
  return 1;
}

/* A plain count: no K or M suffix. */
static int parse_count(const char *arg, size_t max, size_t *n, int zero) {
  return parse_number(arg, max, n, zero) && strpbrk(arg, "kKM") == NULL;
}

/* The options of the document store (serve_docstore.c). */
static int take_document(struct serve_settings *s, int c, const char *arg) {
  size_t n = 0;
  const char *bad = NULL;
  switch (c) {
  case XMT_OPT_MAX_DOCUMENT:
    if (!xmt_cli_parse_size(arg, &s->max_document) ||
        s->max_document > ((size_t)1 << 30))
      bad = "--max-document-size takes a number of bytes (K, M, G: KiB, MiB, "
            "GiB), at most 1G";
    break;
  case XMT_OPT_MAX_DOCUMENTS:
    if (!parse_count(arg, 100000, &s->max_documents, 0))
      bad = "--max-documents takes a number from 1 to 100000";
    break;
  case XMT_OPT_DOCUMENT_EXPIRY:
    if (!parse_count(arg, 604800, &n, 0))
      bad = "--document-expiry takes seconds, from 1 to 604800";
    s->document_expiry = (unsigned)n;
    break;
  case XMT_OPT_MAX_PER_CLIENT:
    if (!parse_count(arg, 100000, &s->max_per_client, 0))
      bad = "--max-documents-per-client takes a number from 1 to 100000";
    break;
  case XMT_OPT_DOCUMENT_THREADS:
    if (!parse_count(arg, 64, &s->document_threads, 0))
      bad = "--document-threads takes a number from 1 to 64";
    break;
  case XMT_OPT_DOCUMENT_TIMEOUT:
    if (!parse_count(arg, 604800, &n, 0))
      bad = "--document-timeout takes seconds, from 1 to 604800";
    s->document_timeout = (unsigned)n;
    break;
  case XMT_OPT_DOCUMENT_DIR:
    s->document_dir = arg;
    break;
  default:
    return xmt_cli_take_option(&s->cli, c, arg);
  }
  if (bad != NULL)
    xmt_cli_usage_error(serve_command.name, bad);
  return bad == NULL;
}

static int take(void *user, int c, const char *arg) {
  struct serve_settings *s = user;
  size_t n = 0;
  const char *bad = NULL;
  switch (c) {
  case XMT_OPT_LISTEN:
    s->listen = arg;
    break;
  case XMT_OPT_THREADS:
    if (!parse_count(arg, 256, &s->threads, 0))
      bad = "--threads takes a number from 1 to 256";
    break;
  case XMT_OPT_QUEUE:
    if (!parse_count(arg, 100000, &s->queue, 1))
      bad = "--queue takes a number from 0 to 100000";
    break;
  case XMT_OPT_MAX_BODY:
    if (!parse_number(arg, (size_t)1 << 30, &s->max_body, 0))
      bad = "--max-body takes a number of bytes (K, M: KiB, MiB), at most 1G";
    break;
  case XMT_OPT_AUTH_KEYS:
    s->auth_key_file = arg;
    break;
  case XMT_OPT_CONN_TIMEOUT:
    if (!parse_count(arg, 86400, &n, 0))
      bad = "--connection-timeout takes seconds, from 1 to 86400";
    s->connection_timeout = (unsigned)n;
    break;
  case XMT_OPT_DRAIN_TIMEOUT:
    if (!parse_count(arg, 86400, &n, 1))
      bad = "--drain-timeout takes seconds, from 0 to 86400";
    s->drain_timeout = (unsigned)n;
    break;
  case XMT_OPT_MAX_CONNECTIONS:
    if (!parse_count(arg, 65536, &s->max_connections, 0))
      bad = "--max-connections takes a number from 1 to 65536";
    break;
  case XMT_OPT_MAX_PER_ADDRESS:
    if (!parse_count(arg, 65536, &s->max_per_address, 0))
      bad = "--max-connections-per-address takes a number from 1 to 65536";
    break;
  case XMT_OPT_ACCESS_LOG:
    s->access_log = arg;
    break;
  case XMT_OPT_TLS_CERT:
    s->tls_cert = arg;
    break;
  case XMT_OPT_TLS_KEY:
    s->tls_key = arg;
    break;
  case XMT_OPT_INSECURE:
    s->insecure = 1;
    break;
  case XMT_OPT_MT_OPTION: /* for the --mt before it, if any */
    if (s->cli.nmt_options < sizeof s->mt_option_at / sizeof *s->mt_option_at)
      s->mt_option_at[s->cli.nmt_options] = s->nmts;
    return xmt_cli_take_option(&s->cli, c, arg);
  case 'm': /* each --mt an engine of its own (serve_engine.c) */
    if (s->nmts == SERVE_MAX_ENGINES)
      bad = "--mt given more than 32 times";
    else
      s->mts[s->nmts++] = arg;
    if (bad == NULL)
      return xmt_cli_take_option(&s->cli, c, arg);
    break;
  default:
    return take_document(s, c, arg);
  }
  if (bad != NULL)
    xmt_cli_usage_error(serve_command.name, bad);
  return bad == NULL;
}

/* The keys of --auth-key-file: 0 after reporting a failure. */
static int load_keys(struct serve_server *sv, const char *path) {
  struct xmt_cli_lines in;
  size_t cap = 0, lcap = 0;
  if (!xmt_cli_lines_open(&in, path))
    return 0;
  int r;
  while ((r = xmt_cli_lines_next(&in)) == 1) {
    size_t len = in.len;
    while (len > 0 && (in.line[len - 1] == ' ' || in.line[len - 1] == '\t' ||
                       in.line[len - 1] == '\r'))
      len--;
    if (len == 0 || in.line[0] == '#')
      continue;
    char **k = xmt_grow_array(sv->keys, &cap, sv->nkeys + 1, sizeof *k);
    if (k != NULL)
      sv->keys = k;
    size_t *l = xmt_grow_array(sv->key_lens, &lcap, sv->nkeys + 1, sizeof *l);
    if (l != NULL)
      sv->key_lens = l;
    if (k == NULL || l == NULL ||
        (sv->keys[sv->nkeys] = strndup(in.line, len)) == NULL) {
      r = -1;
      break;
    }
    sv->key_lens[sv->nkeys++] = len;
  }
  xmt_cli_lines_close(&in);
  if (r == 0 && sv->nkeys == 0)
    xmt_cli_say("xliffmt: %s: no key in it\n", path);
  return r == 0 && sv->nkeys > 0;
}

/* 1 when a is a loopback address (127/8, ::1, ::ffff:127/104). */
static int loopback(const struct sockaddr_storage *a) {
  if (a->ss_family == AF_INET)
    return (ntohl(((const struct sockaddr_in *)(const void *)a)
                      ->sin_addr.s_addr) >>
            24) == 127;
  if (a->ss_family != AF_INET6)
    return 0;
  const struct in6_addr *v6 =
      &((const struct sockaddr_in6 *)(const void *)a)->sin6_addr;
  return IN6_IS_ADDR_LOOPBACK(v6) ||
         (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127);
}

/* 1 when the server may speak plain HTTP on a, warned of off loopback;
 * 0 after refusing: keys would cross the network in clear text. */
static int plain_ok(const struct serve_server *sv, const struct sockaddr *a) {
  const struct serve_settings *s = sv->set;
  struct sockaddr_storage ss;
  memset(&ss, 0, sizeof ss);
  memcpy(&ss, a,
         a->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                  : sizeof(struct sockaddr_in));
  if (sv->tls_cert_pem != NULL || loopback(&ss))
    return 1;
  if (sv->nkeys > 0 && !s->insecure) {
    xmt_cli_say("xliffmt serve: --listen %s is not a loopback address, and "
                "serve speaks plain HTTP: the keys of --auth-key-file would "
                "cross the network in clear text (serve HTTPS with "
                "--tls-cert and --tls-key, or give --insecure)\n",
                s->listen);
    return 0;
  }
  xmt_cli_say("xliffmt serve: warning: --listen %s is not a loopback "
              "address, and serve speaks plain HTTP: keys and texts cross "
              "the network in clear text (serve HTTPS with --tls-cert and "
              "--tls-key, or put a TLS proxy in front)\n",
              s->listen);
  return 1;
}

/* The listening socket of ADDR:PORT ("[v6]:PORT" too); -1 after
 * reporting why not, -2 after refusing plain HTTP there. */
static int listen_on(const struct serve_server *sv, unsigned short *port) {
  const char *spec = sv->set->listen;
  char host[256];
  const char *colon = strrchr(spec, ':');
  if (colon == NULL || colon[1] == '\0' ||
      (size_t)(colon - spec) >= sizeof host) {
    xmt_cli_usage_error(serve_command.name, "--listen takes ADDR:PORT");
    return -1;
  }
  snprintf(host, sizeof host, "%.*s", (int)(colon - spec), spec);
  if (host[0] == '[' && host[strlen(host) - 1] == ']') {
    memmove(host, host + 1, strlen(host));
    host[strlen(host) - 1] = '\0';
  }
  struct addrinfo hints = {0}, *ai = NULL;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
  int e = getaddrinfo(host[0] != '\0' ? host : NULL, colon + 1, &hints, &ai);
  if (e != 0) {
    xmt_cli_say("xliffmt: --listen %s: %s\n", spec, gai_strerror(e));
    return -1;
  }
  if (!plain_ok(sv, ai->ai_addr)) {
    freeaddrinfo(ai);
    return -2;
  }
  int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0), one = 1;
  if (fd >= 0) {
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0 ||
        fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
      close(fd);
      fd = -1;
    }
  }
  if (fd < 0)
    xmt_cli_say("xliffmt: cannot listen on %s: %s\n", spec, strerror(errno));
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  memset(&ss, 0, sizeof ss);
  if (fd >= 0 && getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
    *port =
        ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                       : ((struct sockaddr_in *)&ss)->sin_port);
  freeaddrinfo(ai);
  return fd;
}

/* The work a stop waits for: requests begun (uploads among them, those
 * suspended for a worker), documents kept. */
struct left {
  size_t active, uploads, suspended, docs;
};

static struct left work_left(struct serve_server *sv) {
  struct left l;
  pthread_mutex_lock(&sv->lock);
  l.active = sv->active;
  l.uploads = sv->uploads;
  l.suspended = sv->suspended;
  pthread_mutex_unlock(&sv->lock);
  l.docs = serve_docs_pending(sv->docs);
  return l;
}

/* No new connection: the ones open are answered (503 but for the
 * documents kept). */
static void stop_listening(struct serve_server *sv) {
  MHD_socket fd = serve_mhd.quiesce_daemon(sv->daemon);
  if (fd != MHD_INVALID_SOCKET)
    close(fd);
  sv->listen_fd = -1;
}

/* What is left when the drain is cut short, on stderr. */
static void say_cut(const struct serve_server *sv, int sig, size_t docs) {
  char why[64];
  if (sig == SIGINT || sig == SIGTERM)
    snprintf(why, sizeof why, "%s again", sig == SIGINT ? "SIGINT" : "SIGTERM");
  else
    snprintf(why, sizeof why, "--drain-timeout %u passed",
             sv->set->drain_timeout);
  if (docs == 0)
    xmt_cli_say("xliffmt serve: %s: interrupting the requests under way\n",
                why);
  else
    xmt_cli_say("xliffmt serve: %s: interrupting the requests under way; %zu "
                "document%s not downloaded deleted\n",
                why, docs, docs == 1 ? "" : "s");
}

/* Waits for the requests begun to be answered and the documents kept to
 * be downloaded: the listening socket stays open while documents may be
 * asked for, new work gets 503. --drain-timeout seconds at most; then, or
 * at another signal, the translations under way are interrupted (503)
 * and every request refused. 1 when all was done, 0 when cut short. */
static int drain(struct serve_server *sv, const sigset_t *signals) {
  struct timespec start, cut_at;
  clock_gettime(CLOCK_MONOTONIC, &start);
  cut_at = start; /* cut short before the drain began */
  for (;;) {
    struct left l = work_left(sv);
    if (sv->listen_fd >= 0 && l.docs == 0 && l.uploads == 0)
      stop_listening(sv);
    if (l.active == 0 && l.docs == 0)
      return sv->stopping == 1;
    /* Cut short, what is left is a client slow to read its answer, whose
     * connection stopping the HTTP server closes; never one held for a
     * worker. */
    if (sv->stopping > 1 && l.suspended == 0 && serve_elapsed(&cut_at) > 1.0)
      return 0;
    struct timespec tick = {0, 100000000};
    int sig = sigtimedwait(signals, NULL, &tick);
    if (sig == SIGHUP)
      serve_metrics_reopen(&sv->metrics);
    if (sv->stopping > 1 ||
        (sig != SIGINT && sig != SIGTERM &&
         serve_elapsed(&start) < (double)sv->set->drain_timeout))
      continue;
    pthread_mutex_lock(&sv->lock);
    sv->stopping = 2;
    pthread_mutex_unlock(&sv->lock);
    clock_gettime(CLOCK_MONOTONIC, &cut_at);
    if (!sv->set->cli.quiet)
      say_cut(sv, sig, l.docs);
    serve_pool_interrupt(sv);
  }
}

/* Serves until SIGTERM or SIGINT, then drains: EXIT_OK when all the work
 * begun was done, EXIT_PARTIAL when the drain was cut short. */
static int run(struct serve_server *sv, const sigset_t *signals) {
  const struct serve_settings *s = sv->set;
  if (!s->cli.quiet) {
    char host[256];
    const char *colon = strrchr(s->listen, ':');
    snprintf(host, sizeof host, "%.*s", (int)(colon - s->listen), s->listen);
    char mts[512] = "";
    for (size_t i = 0, k = 0; i < sv->nengines && k < sizeof mts; i++)
      k += (size_t)snprintf(mts + k, sizeof mts - k, "%s--mt %s",
                            i > 0 ? ", " : "", sv->engines[i].mt);
    xmt_cli_say("xliffmt serve: listening on http%s://%s:%u (%s, %zu "
                "worker%s%s)\n",
                sv->tls_cert_pem != NULL ? "s" : "",
                host[0] != '\0' ? host : "0.0.0.0", sv->port, mts, s->threads,
                s->threads == 1 ? "" : "s", sv->nengines > 1 ? " each" : "");
  }
  int sig = 0;
  while (sig != SIGINT && sig != SIGTERM) {
    if (sigwait(signals, &sig) != 0)
      sig = 0;
    else if (sig == SIGHUP)
      serve_metrics_reopen(&sv->metrics);
  }
  pthread_mutex_lock(&sv->lock);
  sv->stopping = 1;
  pthread_mutex_unlock(&sv->lock);
  if (!s->cli.quiet)
    xmt_cli_say("xliffmt serve: %s: finishing the requests under way\n",
                sig == SIGINT ? "SIGINT" : "SIGTERM");
  int drained = drain(sv, signals);
  serve_mhd.stop_daemon(sv->daemon); /* closes the listening socket */
  sv->daemon = NULL;
  sv->listen_fd = -1;
  return drained ? EXIT_OK : EXIT_PARTIAL;
}

static void settings_init(struct serve_settings *s) {
  memset(s, 0, sizeof *s);
  xmt_cli_settings_init(&s->cli);
  s->cli.command = serve_command.name;
  s->listen = DEFAULT_LISTEN;
  s->threads = 2;
  s->queue = 64;
  s->max_body = (size_t)1 << 20;
  s->connection_timeout = 30;
  s->drain_timeout = 60;
  s->max_connections = 512;
  s->max_per_address = 64;
  s->max_document = SERVE_DOC_MAX_SIZE;
  s->max_documents = SERVE_DOC_MAX_COUNT;
  s->document_expiry = SERVE_DOC_EXPIRY;
  s->document_threads = SERVE_DOC_THREADS;
  s->document_timeout = SERVE_DOC_TIMEOUT;
}

/* The files serve reads and writes: none written is one read. */
static int files_check(const struct serve_settings *s) {
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add_run(&fs, &s->cli, NULL, NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, s->auth_key_file, "--auth-key-file",
                    "the keys", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, s->tls_cert, "--tls-cert",
                    "the TLS certificate", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, s->tls_key, "--tls-key", "the TLS key",
                    NULL);
  xmt_cli_files_add(&fs, XMT_CLI_UPDATES, s->access_log, "--access-log",
                    "the access log", NULL);
  int rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  return rc;
}

/* Everything the server needs before it takes a connection; the exit
 * status of a failure, or -1. */
static int set_up(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  int rc = files_check(s);
  if (rc != EXIT_OK)
    return rc;
  char why[512];
  if (!serve_libs_load(why, sizeof why)) {
    xmt_cli_say("xliffmt serve: %s\n", why);
    return EXIT_BAD_INPUT;
  }
  if (s->tls_cert != NULL && !serve_tls_supported()) {
    xmt_cli_say("xliffmt serve: this libmicrohttpd cannot serve TLS (built "
                "without GnuTLS): --tls-cert and --tls-key cannot be used\n");
    return EXIT_INTERNAL;
  }
  if (!serve_tls_load(sv) || !serve_engines_init(sv) ||
      (s->auth_key_file != NULL && !load_keys(sv, s->auth_key_file)) ||
      !serve_metrics_init(&sv->metrics, s->access_log))
    return EXIT_BAD_INPUT;
  if ((sv->listen_fd = listen_on(sv, &sv->port)) < 0)
    return sv->listen_fd == -2 ? EXIT_BAD_INPUT : EXIT_INTERNAL;
  if (!serve_pool_start(sv))
    return EXIT_BAD_INPUT;
  if (!serve_docs_start(sv))
    return EXIT_INTERNAL;
  if (!serve_conn_start(sv) || !serve_http_start(sv))
    return EXIT_INTERNAL;
  return -1;
}

static void tear_down(struct serve_server *sv) {
  if (sv->daemon != NULL) {
    serve_mhd.stop_daemon(sv->daemon); /* closes the listening socket */
    sv->listen_fd = -1;
  }
  if (sv->listen_fd >= 0)
    close(sv->listen_fd);
  serve_conn_stop(sv);
  serve_pool_stop(sv);
  serve_docs_stop(sv);
  serve_metrics_free(&sv->metrics);
  serve_engines_free(sv);
  serve_list_free(sv->keys, sv->nkeys);
  free(sv->key_lens);
  serve_tls_free(sv);
  pthread_cond_destroy(&sv->work);
  pthread_mutex_destroy(&sv->lock);
  pthread_cond_destroy(&sv->sweep_wake);
  pthread_mutex_destroy(&sv->conn_lock);
}

int xmt_cli_serve(int argc, char **argv) {
  struct serve_settings s;
  settings_init(&s);
  int rc = xmt_cli_parse(&serve_command, argc, argv, take, &s);
  if (rc >= 0)
    return rc;
  if (optind != argc) {
    xmt_cli_usage_error(serve_command.name, "serve takes no file operand");
    return EXIT_BAD_INPUT;
  }
  if ((s.tls_cert == NULL) != (s.tls_key == NULL)) {
    xmt_cli_usage_error(
        serve_command.name,
        s.tls_cert == NULL ? "--tls-key needs --tls-cert: give both for HTTPS"
                           : "--tls-cert needs --tls-key: give both for HTTPS");
    return EXIT_BAD_INPUT;
  }
  if (xmt_cli_refuse_options(&s.cli, &serve_command, not_here,
                             sizeof not_here / sizeof *not_here, 0,
                             "serve, which writes no document"))
    return EXIT_BAD_INPUT;
  struct serve_server sv;
  memset(&sv, 0, sizeof sv);
  sv.set = &s;
  sv.listen_fd = -1;
  pthread_mutex_init(&sv.lock, NULL);
  pthread_cond_init(&sv.work, NULL);
  pthread_mutex_init(&sv.conn_lock, NULL);
  pthread_cond_init(&sv.sweep_wake, NULL);
  clock_gettime(CLOCK_MONOTONIC, &sv.started);
  /* Signals are taken by sigwait in this thread; every thread made from
   * here on blocks them (engines unblock them in their own processes). */
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, NULL);
  signal(SIGPIPE, SIG_IGN);
  /* jansson seeds its hash tables on first use: once, before threads. */
  json_object_seed(0);
  rc = set_up(&sv);
  if (rc < 0)
    rc = run(&sv, &signals);
  tear_down(&sv);
  return rc;
}
