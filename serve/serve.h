/* serve.h -- xliffmt serve: what its rooms share. serve.c is the command
 * and the server's life, serve_http.c the HTTP glue and its limits,
 * serve_pool.c the workers and their queue, serve_inflight.c identical
 * requests at once sent once, serve_apy.c, serve_deepl.c and
 * serve_libre.c the three APIs, serve_text.c a request's text to segments
 * and back, serve_metrics.c the counters, /metrics and the access log,
 * serve_lang.c language names and the pairs served, serve_engine.c the
 * engines (one per --mt) and the pairs each serves, serve_tls.c the
 * certificate and key of HTTPS. */
#ifndef XMT_SERVE_H
#define XMT_SERVE_H

#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cli.h"
#include "mhd_api.h"

/* --mt given at most that many times: one engine each. */
#define SERVE_MAX_ENGINES 32
/* --mt-option given at most that many times (translate's limit). */
#define SERVE_MT_OPTIONS                                                       \
  (sizeof((struct xmt_cli_settings *)0)->mt_options / sizeof(const char *))

/* The command's settings: translate's, then its own. */
struct serve_settings {
  struct xmt_cli_settings cli;
  const char *listen; /* ADDR:PORT */
  size_t threads;     /* workers, each with a filter */
  size_t queue;       /* requests waiting for a worker, at most */
  size_t max_body;    /* bytes */
  size_t max_connections;
  size_t max_per_address;      /* connections from one address */
  unsigned connection_timeout; /* seconds */
  unsigned drain_timeout;      /* seconds a stop waits for the work begun */
  const char *auth_key_file, *access_log;
  const char *tls_cert, *tls_key; /* PEM files: HTTPS */
  int insecure;                   /* keys may cross the network in clear text */
  const char *mts[SERVE_MAX_ENGINES]; /* each --mt, in order */
  size_t nmts;
  /* of each --mt-option, the number of --mt before it: 0, every
   * engine's; else the engine of the last of them */
  size_t mt_option_at[SERVE_MT_OPTIONS];
  /* DeepL's document API (serve_document.c) */
  size_t max_document;       /* bytes of an uploaded document */
  size_t max_documents;      /* documents kept at once */
  size_t max_per_client;     /* of them, an address's when others need room (0:
                                a quarter of max_documents) */
  unsigned document_expiry;  /* seconds a translated document is kept */
  size_t document_threads;   /* documents translated at once */
  unsigned document_timeout; /* seconds a document may translate */
  const char *document_dir;  /* where the server makes its folder */
};

/* --- Languages (serve_lang.c) ---------------------------------------------
 * Requests name languages as ISO 639-3 codes (APy: "eng", "eng_US"), ISO
 * 639-1 codes in any case (DeepL "EN-GB", LibreTranslate "en"); the filter
 * takes BCP 47 ("en-GB"). */
#define SERVE_LANG_MAX 24

/* code in BCP 47 (primary subtag ISO 639-1 when it has one, lower case;
 * a region upper case) into out; 0 when code is not a language code. */
int serve_lang_bcp47(const char *code, char *out, size_t outlen);
/* The APy name of a BCP 47 tag: ISO 639-3, "_REGION" after. */
void serve_lang_apy(const char *bcp47, char *out, size_t outlen);
/* DeepL's: upper case ("EN", "PT-BR"); primary only: the primary subtag. */
void serve_lang_deepl(const char *bcp47, int primary_only, char *out,
                      size_t outlen);
/* The English name of a language ("Spanish"), or the tag itself. */
const char *serve_lang_name(const char *bcp47);
/* The i-th language known (ISO 639-1), or NULL past the last. */
const char *serve_lang_all(size_t i);
/* 1 when two BCP 47 tags name the same language: equal, or one of them has
 * no region and the primary subtags are equal. */
int serve_lang_match(const char *a, const char *b);

/* The language pairs served, BCP 47. any: every pair is taken (a backend
 * that says nothing about its languages, and no -s and -t). */
struct serve_pair {
  char src[SERVE_LANG_MAX], tgt[SERVE_LANG_MAX];
  size_t engine; /* the index of the engine that serves it */
};
struct serve_pairs {
  struct serve_pair *v;
  size_t n, cap;
  int any;
};
struct serve_engine;
/* Adds the pairs of engine e (index i): its PAIR=, else -s and -t, else
 * the Apertium pair of its spec, else the installed Apertium modes
 * (backend apertium without a pair), else any. 0 after reporting a
 * failure. */
int serve_pairs_add(struct serve_pairs *p, const struct serve_engine *e,
                    size_t i);
/* An Apertium-style pair name ("eng-spa", "en_GB-es") as a pair: 1, -1
 * when it is not one. */
int serve_pair_parse(const char *name, size_t len, struct serve_pair *pair);
void serve_pairs_free(struct serve_pairs *p);
/* "this server translates en to es, es to en" (upper: "EN to ES"),
 * the first few pairs, for the error of a pair not served. */
void serve_pairs_describe(const struct serve_pairs *p, int upper, char *out,
                          size_t outlen);
/* 1 when some pair served translates from src. */
int serve_pairs_has_source(const struct serve_pairs *p, const char *src);
/* The pair for src (NULL or "": any source) and tgt, as served (its tags
 * in *pair, src taken from the pair when not given); 0 when not served. */
int serve_pairs_find(const struct serve_pairs *p, const char *src,
                     const char *tgt, struct serve_pair *pair);

/* --- Parameters ------------------------------------------------------------
 * A request's parameters from its query string and its body (form or
 * JSON), in that order: names may repeat (DeepL's text). */
struct serve_param {
  char *name;
  char *value; /* NUL-terminated, UTF-8 checked when used */
  size_t len;
  int in_array; /* a JSON array's element */
};
struct serve_params {
  struct serve_param *v;
  size_t n, cap;
  int json; /* the body was JSON */
};
/* The last value of name, or NULL; *len (may be NULL) its length. */
const char *serve_param(const struct serve_params *p, const char *name,
                        size_t *len);
/* The number of values of name. */
size_t serve_param_count(const struct serve_params *p, const char *name);
/* The value of name after after (NULL: the first), or NULL: a walk over
 * the values in order, linear in all. */
const struct serve_param *serve_param_next(const struct serve_params *p,
                                           const char *name,
                                           const struct serve_param *after);
/* Adds one (copied); 0 when out of memory. */
int serve_param_add(struct serve_params *p, const char *name, size_t nlen,
                    const char *value, size_t vlen, int in_array);
/* A comma-separated parameter or a JSON array, split into *list (free
 * with serve_list_free); 0 when out of memory. */
int serve_param_list(const struct serve_params *p, const char *name,
                     char ***list, size_t *n);
void serve_list_free(char **list, size_t n);
/* Parses application/x-www-form-urlencoded bytes; 0 when out of memory. */
int serve_params_form(struct serve_params *p, const char *body, size_t len);
/* Parses a multipart/form-data body (its Content-Type type names the
 * boundary); -1 when it is not one, 0 when out of memory. */
int serve_params_multipart(struct serve_params *p, const char *type,
                           const char *body, size_t len);
/* Parses a JSON object; -1 when it is not one, 0 when out of memory, -2
 * when it says two things (a key twice, a list with an item that is not
 * a string, number or boolean), said in why. */
int serve_params_json(struct serve_params *p, const char *body, size_t len,
                      char *why, size_t why_len);
void serve_params_free(struct serve_params *p);

/* --- Replies ---------------------------------------------------------------
 */
struct serve_reply {
  unsigned status;
  char *body;
  size_t len;
  const char *content_type;
  char *disposition;    /* Content-Disposition, or NULL */
  unsigned retry_after; /* seconds, 0: none */
  /* The body is the open file `file` (len bytes from its start), sent as
   * the client reads it, instead of body: a large download is never
   * held in memory. Owned by the reply. */
  int has_file, file;
};
/* Dumps obj (taken: decref'd) as the reply. apy: APy's layout (", ",
 * ": " and "<\/" as Python's json.dumps writes them), else compact with
 * a final newline. 0 when out of memory. */
int serve_reply_json(struct serve_reply *r, unsigned status, json_t *obj,
                     int apy);
/* A reply with a copy of text. 0 when out of memory. */
int serve_reply_text(struct serve_reply *r, unsigned status,
                     const char *content_type, const char *text);
void serve_reply_free(struct serve_reply *r);

/* --- Translation jobs (serve_text.c) --------------------------------------
 */
enum serve_markup {
  SERVE_PLAIN, /* text, no markup: translated as it is */
  SERVE_XML,   /* text with XML inline markup: codes kept, text escaped */
  SERVE_HTML   /* an HTML fragment, translated as a page */
};

/* A piece of a text: bytes copied as they are, or a segment translated. */
struct serve_part {
  const char *bytes; /* literal: into the text or own; NULL: a segment */
  size_t len;
  char *own; /* the literal's bytes when they are the part's */
  xmt_segment *seg, *target;
};

struct serve_text {
  enum serve_markup markup;
  const char *in; /* borrowed from the request's parameters */
  size_t in_len;
  struct serve_part *parts;
  size_t nparts, cap;
  char *marked; /* HTML: the text with its ignored elements marked */
  size_t marked_len;
  char *out; /* the translation, NUL-terminated */
  size_t out_len;
};

/* How the text of a job is cut and written. */
struct serve_text_options {
  int split_lines;  /* each line a segment of its own (DeepL's default) */
  int no_sentences; /* no sentence segmentation (split_sentences=0) */
  int trim;         /* surrounding white space dropped (APy) */
  char **ignore;    /* elements kept whole, not translated */
  size_t nignore;
  char **splitting; /* elements at which the text is cut */
  size_t nsplitting;
};

struct serve_job;
struct serve_worker;
typedef void (*serve_answer_fn)(struct serve_job *job);

struct serve_job {
  struct serve_pair pair; /* languages; pair.src "" when unknown */
  struct serve_text *texts;
  size_t ntexts;
  struct serve_text_options opt;
  int apy;                /* answer in APy's JSON layout */
  int q_array;            /* LibreTranslate: q was an array */
  int src_auto;           /* LibreTranslate: source=auto */
  int billed;             /* DeepL: show_billed_characters */
  serve_answer_fn answer; /* builds reply from the texts, in the worker */
  /* what the worker found */
  xmt_status status; /* XMT_OK: every text translated */
  int bad_input;     /* status is the request's fault (400) */
  unsigned refused;  /* 400 or 413: a text refused before its markup is
                        read (not UTF-8, too many tags), never forgiven */
  size_t tags;       /* in the texts prepared so far */
  char message[512];
  size_t segments;
  int long_job; /* its texts are longer than SERVE_LONG_BYTES */
  struct serve_reply reply;
  /* what its translation depends on (serve_inflight.c); NULL: unknown */
  char *key;
  size_t key_len;
  uint64_t hash;
};

/* The limits of a request's work, each refused in its API's shape. */
#define SERVE_MAX_TAGS 4096          /* tags in one text */
#define SERVE_MAX_REQUEST_TAGS 16384 /* tags in all the texts of a request */
#define SERVE_MAX_NAMES 256          /* entries of DeepL's tag lists */
#define SERVE_MAX_TEXTS 1000         /* LibreTranslate's texts in one request */
/* A job with more text than this is long: long jobs never take the last
 * free worker of an engine, so that a short request is answered while
 * long ones run (serve_pool.c). */
#define SERVE_LONG_BYTES 8192

/* Makes text's parts by its markup (HTML: none); on bad markup fills
 * job's message, sets bad_input and returns 0 (also out of memory, with
 * bad_input 0); a text that is not UTF-8 or has more than SERVE_MAX_TAGS
 * tags, or that takes the job's past SERVE_MAX_REQUEST_TAGS, sets
 * refused too. */
int serve_text_prepare(struct serve_job *job, struct serve_text *text);
/* The status of a job that could not be prepared: 400, 413 or 500. */
unsigned serve_job_refusal(const struct serve_job *job);
/* Translates job's texts with the worker's filter, then answers. */
void serve_text_translate(struct serve_worker *w, struct serve_job *job);
/* What serve_text.c lends serve_markup.c: 1 when s is white space only;
 * a new part of t (NULL when out of memory); a literal part (own, which
 * may be NULL, is the part's from then on); seg written to fp, its text
 * escaped when markup is XML. */
int serve_text_blank(const char *s, size_t len);
struct serve_part *serve_text_add_part(struct serve_text *t);
int serve_text_add_literal(struct serve_text *t, const char *bytes, size_t len,
                           char *own);
/* A literal part of a copy of bytes; 0 when out of memory. */
int serve_text_add_copy(struct serve_text *t, const char *bytes, size_t len);
void serve_text_write_segment(FILE *fp, const xmt_segment *seg,
                              enum serve_markup markup);
/* serve_markup.c: text with XML markup to parts (as serve_text_prepare);
 * an HTML text's ignored elements marked translate="no" (0 when out of
 * memory), and the marks taken out of its translation. */
int serve_markup_xml(struct serve_job *job, struct serve_text *t);
int serve_markup_html(struct serve_job *job, struct serve_text *t);
void serve_markup_unmark(struct serve_text *t);
/* 1 when text has something that looks like a tag ("<" then a letter,
 * "/", "!" or "?"). */
int serve_text_has_tags(const char *text, size_t len);
void serve_job_free(struct serve_job *job);

/* --- The server ------------------------------------------------------------
 */
enum serve_api {
  SERVE_API_NONE,
  SERVE_API_APY,
  SERVE_API_DEEPL,
  SERVE_API_LIBRE
};

struct serve_request;
struct serve_server;
struct serve_conn;

/* What an endpoint's handler decides. */
enum serve_outcome {
  SERVE_ANSWER, /* rq->reply is the answer */
  SERVE_QUEUE   /* rq->job goes to a worker */
};

struct serve_route {
  const char *path;
  enum serve_api api;
  int auth; /* needs a key when keys are set */
  int work; /* its body read and handled in a worker, not the HTTP thread */
  enum serve_outcome (*handle)(struct serve_request *rq);
};

/* A client address with requests admitted (serve_pool.c): a full queue
 * makes room for another address at the cost of one holding more than
 * half of it, and a worker takes first the request of the address with
 * the fewest at workers. */
struct serve_client {
  char addr[64];
  size_t admitted; /* not finished yet */
  size_t running;  /* at a worker */
  size_t reading;  /* bodies being read (serve_pool_reserve); the entry is
                      free when this and admitted are 0 */
};

struct serve_request {
  struct serve_server *server;
  struct MHD_Connection *conn;
  const struct serve_route *route; /* NULL: not found */
  enum serve_api api;              /* whose errors it gets */
  char method[16];
  char *path;
  char client[64];
  char *content_type, *auth; /* the headers, copied for the workers */
  struct timespec start;
  char *body;
  size_t len, cap;
  size_t discarded; /* body bytes past --max-body */
  int seen;         /* the handler had the request once */
  int queued;       /* waiting for or at a worker */
  int close;        /* the connection closes after the answer */
  int long_body;    /* admitted with a body over SERVE_LONG_BYTES */
  int reading;      /* counted by serve_pool_reserve */
  struct serve_params params;
  struct serve_job *job;
  struct serve_reply reply;
  size_t segments;
  /* in flight (serve_inflight.c): the next in the server's list, the
   * requests waiting for this one's answer, the next of those */
  struct serve_request *next_inflight, *followers, *next_follower;
  struct serve_conn *watch;    /* its connection's entry, for a worker */
  struct serve_client *owner;  /* its address's entry once admitted */
  struct serve_client *reader; /* its entry while its body is read */
};

/* The key a request gives (DeepL-Auth-Key header, auth_key, api_key or
 * key), or NULL. */
const char *serve_request_key(struct serve_request *rq);

/* The counters /metrics shows (serve_metrics.c). */
#define SERVE_BUCKETS 12
struct serve_metrics {
  pthread_mutex_t lock;
  struct serve_count {
    const char *path;
    unsigned status;
    unsigned long long n;
  } * counts;
  size_t ncounts, cap;
  unsigned long long latency[SERVE_BUCKETS + 1], latency_count;
  double latency_sum;
  unsigned long long segments, cache_hits, characters;
  double engine_seconds;
  /* engines: translations that failed at the engine, engines reopened
   * after one, workers whose last translation failed (and why) */
  unsigned long long engine_failures, engine_restarts;
  size_t engines_down;
  FILE *log;
  const char *log_path;
};
int serve_metrics_init(struct serve_metrics *m, const char *log_path);
void serve_metrics_free(struct serve_metrics *m);
/* Counts a finished request and writes its access-log line. */
void serve_metrics_request(struct serve_metrics *m,
                           const struct serve_request *rq);
/* Adds a run's counters. */
void serve_metrics_run(struct serve_metrics *m,
                       const struct xmt_filter_stats *stats, size_t characters);
/* Whether a translator (a worker, or the document threads at an engine)
 * is down: its last translation failed at the engine, and why. Under the
 * metrics' lock. */
struct serve_down {
  int down;
  char reason[256];
};
/* After worker w ran job: an engine's failure (the worker's engine is
 * down until a translation succeeds, and reopened at once) or its
 * recovery, told on stderr once each. */
void serve_metrics_engine(struct serve_worker *w, const struct serve_job *job);
/* The same for any translator whose state is *state, at the engine mt:
 * failed (why; restarted: the engine reopened) or not. Counts the failure
 * and the restart, and says on stderr when it goes down or recovers. */
void serve_metrics_outcome(struct serve_metrics *m, const char *mt,
                           struct serve_down *state, int failed, int restarted,
                           const char *why);
/* Reopens the access log (SIGHUP); 0 on failure (reported). */
int serve_metrics_reopen(struct serve_metrics *m);
enum serve_outcome serve_metrics_handle(struct serve_request *rq);
enum serve_outcome serve_health_handle(struct serve_request *rq);

/* Requests waiting for a worker, oldest first: a ring of the server's
 * queue size. */
struct serve_ring {
  struct serve_request **v;
  size_t head, len;
};

/* One --mt: its backend, the pairs it serves (sv->pairs, by their
 * engine), and its --threads workers, each with a filter of its backend.
 * A request is handled (parsed) by any worker, then translated by a
 * worker of its pair's engine. */
struct serve_engine {
  const char *mt;              /* as given, its PAIR= included */
  const char *name;            /* BACKEND[:SPEC], after its PAIR= */
  struct xmt_cli_settings cli; /* the settings, its --mt-option only */
  const struct xmt_backend *backend;
  const char *spec;
  struct serve_pair pair; /* PAIR=: its pair (src "" when none) */
  struct serve_worker *workers;
  size_t nworkers;
  struct serve_ring waiting; /* jobs for its workers */
  size_t long_running;       /* long jobs at its workers */
  /* each document thread's at this engine (--document-threads of them):
   * one thread's success says nothing of another's failure */
  struct serve_down *docs;
};
/* The engines of the settings' --mt into sv (engines, pairs); 0 after
 * reporting what is wrong. */
int serve_engines_init(struct serve_server *sv);
void serve_engines_free(struct serve_server *sv);

struct serve_worker {
  struct serve_server *server;
  struct serve_engine *engine;
  pthread_t thread;
  int started;
  xmt_filter *filter;
  struct serve_pair pair;        /* the filter's languages now */
  int no_sentences;              /* the filter's segmentation is off */
  struct serve_down state;       /* its last translation failed at the engine */
  char failure[160];             /* the engine's word on the run's first segment
                                    failed, "" when none */
  struct serve_request *current; /* the request it runs, under the lock */
};

struct serve_server {
  const struct serve_settings *set;
  struct serve_engine *engines;
  size_t nengines;
  struct serve_pairs pairs; /* every engine's */
  char **keys;              /* --auth-key-file; n 0: no key asked */
  size_t *key_lens, nkeys;
  char *tls_cert_pem, *tls_key_pem; /* NULL: plain HTTP */
  struct MHD_Daemon *daemon;
  int listen_fd;
  unsigned short port;
  pthread_mutex_t lock;
  pthread_cond_t work;
  struct serve_ring intake;       /* requests not handled yet, for any worker */
  size_t qlen, qcap;              /* waiting in every ring; the rings' size */
  size_t running;                 /* requests at a worker */
  struct serve_request *inflight; /* queued or at a worker */
  size_t following;     /* requests waiting for an identical one's answer */
  size_t active;        /* requests begun and not finished */
  size_t long_admitted; /* of those, admitted with a long body */
  size_t uploads;       /* of those, document uploads */
  size_t reading;       /* of those, bodies read for the queue
                           (serve_pool_reserve) */
  size_t suspended;     /* of those, suspended for a worker and not resumed
                           yet (the HTTP thread's count) */
  int stopping;         /* 1 draining: no new work, documents still asked for;
                          2 the drain cut short: no request at all */
  int quit;             /* workers end */
  struct serve_worker *workers;
  size_t nworkers;
  struct serve_client *clients; /* --max-connections of them */
  size_t nclients;
  struct serve_metrics metrics;
  struct timespec started;
  /* connections and their deadline (serve_conn.c), under conn_lock */
  pthread_mutex_t conn_lock;
  pthread_cond_t sweep_wake;
  struct serve_conn *conns;
  unsigned long long conns_cut;
  unsigned long long runs_cancelled; /* their client gone */
  struct serve_worker **gone;        /* the sweep's, nworkers of them */
  int *gone_first;                   /* and whether each is new */
  pthread_t sweeper;
  int sweeping, sweep_stop;
  struct serve_docs *docs; /* DeepL's documents (serve_docstore.c) */
};

/* serve_conn.c: a deadline for the whole of a request. libmicrohttpd's
 * notice of a connection started or closed. */
void serve_conn_notify(void *cls, struct MHD_Connection *conn,
                       void **socket_context,
                       enum MHD_ConnectionNotificationCode toe);
/* busy: conn's request is in (no deadline while it is answered); 0: its
 * answer is sent, the next request's deadline starts now. */
void serve_conn_busy(struct serve_server *sv, struct MHD_Connection *conn,
                     int busy);
/* 1 when the deadline cut conn (its request was not whole in time). */
int serve_conn_was_cut(struct serve_server *sv, struct MHD_Connection *conn);
/* 1 when conn's client hung up while its request was at a worker (the
 * run stopped for it). */
int serve_conn_was_gone(struct serve_server *sv, struct MHD_Connection *conn);
/* conn's entry in the list, for serve_conn_watch; NULL when untracked.
 * Called on the HTTP thread. */
struct serve_conn *serve_conn_of(struct MHD_Connection *conn);
/* Worker w runs the request of c from now (w NULL: no more). While it
 * does, the sweep looks at c's socket: a client that has closed it is
 * gone, and its run is interrupted unless other requests wait for the
 * same answer. */
void serve_conn_watch(struct serve_server *sv, struct serve_conn *c,
                      struct serve_worker *w);
/* 1 when the client of c (NULL: untracked) has closed its end: its
 * request, which waited for a worker, is not run. Takes conn_lock (the
 * server's lock may be held). */
int serve_conn_gone(struct serve_server *sv, struct serve_conn *c);
/* The sweep that cuts connections past their deadline; 0 on failure
 * (reported). */
int serve_conn_start(struct serve_server *sv);
void serve_conn_stop(struct serve_server *sv);

/* serve_tls.c: 1 when libmicrohttpd can serve TLS. --tls-cert and
 * --tls-key read and checked (nothing to do without them); 0 after
 * reporting a failure. Their bytes freed (the key's wiped). */
int serve_tls_supported(void);
int serve_tls_load(struct serve_server *sv);
void serve_tls_free(struct serve_server *sv);

/* serve_http.c */
int serve_http_start(struct serve_server *sv);
/* A whole request read: its body's parameters, its key, its handler;
 * safe on any thread (it touches no connection). */
enum serve_outcome serve_http_handle(struct serve_request *rq);
/* The route of a path and method, or NULL. */
const struct serve_route *serve_route_find(const char *path);
/* Tornado's reason phrase of an HTTP status, as APy writes it. */
const char *serve_reason(unsigned status);
/* The time since t, in seconds. */
double serve_elapsed(const struct timespec *t);

/* serve_inflight.c: identical requests at once sent once; the caller
 * holds the server's lock except for serve_inflight_key and
 * serve_inflight_answer. */
/* Sets job's key and hash; 0 when out of memory (then it is never
 * found). */
int serve_inflight_key(struct serve_job *job);
/* The request in flight with a job identical to job, or NULL. */
struct serve_request *serve_inflight_find(struct serve_server *sv,
                                          const struct serve_job *job);
/* rq is in flight. */
void serve_inflight_add(struct serve_server *sv, struct serve_request *rq);
/* rq (its connection suspended) waits for leader's answer. */
void serve_inflight_follow(struct serve_server *sv,
                           struct serve_request *leader,
                           struct serve_request *rq);
/* rq is no longer in flight: the requests that waited for it. */
struct serve_request *serve_inflight_remove(struct serve_server *sv,
                                            struct serve_request *rq);
/* Gives each of followers from's result, answers and resumes it. */
void serve_inflight_answer(const struct serve_job *from,
                           struct serve_request *followers);

/* serve_pool.c: the workers. */
int serve_pool_start(struct serve_server *sv);
/* Queues rq for a worker, which handles it first when it has no job yet
 * (serve_http_handle), then translates it or has it wait for an
 * identical one's answer; 0 when the queue is full. A full queue takes
 * rq all the same when its address holds less than half of the room
 * and another holds more: that one's newest request waiting is answered
 * 503 instead. */
int serve_pool_admit(struct serve_server *sv, struct serve_request *rq);
/* Before rq's body is read (its headers in): 1 when the queue has room
 * for it, counted as if queued until serve_pool_release; 0 when it
 * would be refused once read (the queue full with the requests waiting,
 * running and being read), so that bodies are never held, each up to
 * --max-body, for requests that get 503. A full queue has room all the
 * same, up to twice its size, for an address holding less than half of
 * it while another holds more (serve_pool_admit makes room for it), and
 * for an address holding none while bodies being read fill it. */
int serve_pool_reserve(struct serve_server *sv, struct serve_request *rq);
/* rq's body is read, or its request is over: no longer counted. */
void serve_pool_release(struct serve_server *sv, struct serve_request *rq);
/* Interrupts the translations under way and fails the waiting ones. */
void serve_pool_interrupt(struct serve_server *sv);
/* Ends the workers (after the requests are done) and frees them. */
void serve_pool_stop(struct serve_server *sv);
/* Called by the HTTP layer when a queued request's answer is ready. */
void serve_http_resume(struct serve_request *rq);

/* The three APIs: their handlers, and their error replies. */
enum serve_outcome serve_apy_translate(struct serve_request *rq);
enum serve_outcome serve_apy_list_pairs(struct serve_request *rq);
enum serve_outcome serve_apy_language_names(struct serve_request *rq);
/* APy's error object {"status": "error", "code": ..}. */
int serve_apy_error(struct serve_reply *r, unsigned status,
                    const char *explanation);
enum serve_outcome serve_deepl_translate(struct serve_request *rq);
enum serve_outcome serve_deepl_languages(struct serve_request *rq);
enum serve_outcome serve_deepl_usage(struct serve_request *rq);
enum serve_outcome serve_deepl_glossary_pairs(struct serve_request *rq);
enum serve_outcome serve_deepl_glossaries(struct serve_request *rq);
/* The pair of DeepL's source_lang (may be absent) and target_lang; 0 with
 * DeepL's error reply when not served. */
int serve_deepl_pair(struct serve_request *rq, struct serve_pair *pair);
/* DeepL's error object {"message": ...}. */
int serve_deepl_error(struct serve_reply *r, unsigned status,
                      const char *message);
enum serve_outcome serve_libre_translate(struct serve_request *rq);
enum serve_outcome serve_libre_languages(struct serve_request *rq);
/* LibreTranslate's {"error": ...}. */
int serve_libre_error(struct serve_reply *r, unsigned status,
                      const char *message);
/* The error reply of rq's API (unknown: APy's). */
int serve_error(struct serve_request *rq, unsigned status, const char *message);
/* /translate: APy's or LibreTranslate's, as the HTTP layer found. */
enum serve_outcome serve_translate_dispatch(struct serve_request *rq);

/* A new job of n texts for rq (rq->job), with the API's answer; NULL
 * when out of memory (an error reply made). */
struct serve_job *serve_job_new(struct serve_request *rq, size_t n,
                                serve_answer_fn answer);

#endif
