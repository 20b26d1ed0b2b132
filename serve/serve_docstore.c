/* serve_docstore.c -- xliffmt serve: the documents of DeepL's document API.
 * Each lives in the server's own folder (mkdtemp, mode 0700) under names
 * the server makes from its random id, never the client's; threads of
 * their own (--document-threads) translate them in turn, each with a
 * filter of its own, set up as `xliffmt translate` sets up its own, so
 * that a long document holds no worker of the text APIs. A watcher stops
 * a document translating longer than --document-timeout, so that one huge
 * document holds a thread for a bounded time only. The number kept is
 * bounded, and a finished document is deleted when downloaded or when it
 * expires. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve_document.h"

enum doc_state { DOC_QUEUED, DOC_TRANSLATING, DOC_DONE, DOC_ERROR };

struct serve_doc {
  struct serve_doc *next;
  char id[SERVE_DOC_ID_LEN + 1], key[SERVE_DOC_KEY_LEN + 1];
  char *auth;      /* the key of the upload, "" when none */
  char *name;      /* the client's name, for messages and the download */
  char client[64]; /* the address it came from */
  size_t round;    /* its address's documents not yet translated at upload */
  struct serve_pair pair;
  enum doc_state state;
  int told; /* its failure answered to a status or a download */
  enum xmt_doc_format format;
  size_t billed; /* characters of its text sent for translation */
  struct timespec finished;
  char message[512];
};

/* A thread translating documents. */
struct doc_worker {
  struct serve_docs *d;
  pthread_t thread;
  int started;
  xmt_filter *filter;     /* its own, made for its first document */
  struct serve_pair pair; /* the filter's languages, and its engine */
  char failure[160];      /* the engine's word on the first segment it failed in
                             the document under way, "" when none */
  int busy;               /* translating (under the lock) */
  struct timespec deadline; /* of the document under way */
  int overtime; /* the deadline passed: the run is to stop (atomic) */
};

struct serve_docs {
  struct serve_server *sv;
  pthread_mutex_t lock;
  pthread_cond_t wake; /* a document queued, or the stop */
  pthread_cond_t tick; /* a document begun, or the stop: for the watcher */
  char *dir;
  struct serve_doc *list; /* in the order of their upload */
  size_t n, reserved;     /* kept, and being written by an upload */
  struct doc_worker *workers;
  size_t nworkers;
  pthread_t watcher;
  int watching, quit;
};

static void now(struct timespec *t) { clock_gettime(CLOCK_MONOTONIC, t); }

/* dir/ID.in or dir/ID.out into out (its size PATH_MAX-safe: the folder's
 * name was checked at start). */
static void doc_path(const struct serve_docs *d, const char *id,
                     const char *what, char *out, size_t len) {
  snprintf(out, len, "%s/%s.%s", d->dir, id, what);
}

static void doc_free(struct serve_docs *d, struct serve_doc *doc) {
  char path[4200];
  doc_path(d, doc->id, "in", path, sizeof path);
  unlink(path);
  doc_path(d, doc->id, "out", path, sizeof path);
  unlink(path);
  free(doc->auth);
  free(doc->name);
  free(doc);
}

/* Deletes the finished documents older than --document-expiry; the time
 * the next one expires in *next (tv_sec 0: none). Under the lock. */
static void expire(struct serve_docs *d, struct timespec *next) {
  struct timespec t;
  now(&t);
  time_t ttl = (time_t)d->sv->set->document_expiry;
  if (next != NULL)
    next->tv_sec = 0;
  for (struct serve_doc **link = &d->list; *link != NULL;) {
    struct serve_doc *doc = *link;
    if (doc->state != DOC_DONE && doc->state != DOC_ERROR) {
      link = &doc->next;
      continue;
    }
    time_t at = doc->finished.tv_sec + ttl;
    if (at < t.tv_sec ||
        (at == t.tv_sec && doc->finished.tv_nsec <= t.tv_nsec)) {
      *link = doc->next;
      d->n--;
      doc_free(d, doc);
      continue;
    }
    if (next != NULL && (next->tv_sec == 0 || at < next->tv_sec)) {
      next->tv_sec = at;
      next->tv_nsec = doc->finished.tv_nsec;
    }
    link = &doc->next;
  }
}

/* The whole of a file, NUL-terminated; NULL with errno. */
static char *read_all(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd < 0)
    return NULL;
  char *buf = NULL;
  if (fstat(fd, &st) == 0 && (buf = malloc((size_t)st.st_size + 1)) != NULL) {
    size_t got = 0;
    ssize_t r = 1;
    while (got < (size_t)st.st_size &&
           (r = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
      got += (size_t)r;
    if (r < 0) {
      free(buf);
      buf = NULL;
    } else {
      buf[got] = '\0';
      *len = got;
    }
  }
  int e = errno;
  close(fd);
  errno = e;
  return buf;
}

/* A new file (never one there already, never through a link) of bytes,
 * readable by the server only; 0 with errno, nothing left. */
static int write_new(const char *path, const char *bytes, size_t len) {
  int fd =
      open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    return 0;
  size_t put = 0;
  while (put < len) {
    ssize_t w = write(fd, bytes + put, len - put);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    put += (size_t)w;
  }
  int ok = put == len && close(fd) == 0, e = errno;
  if (put != len)
    close(fd);
  if (!ok)
    unlink(path);
  errno = e;
  return ok;
}

/* The filter's error as `xliffmt translate` reports it, without the
 * program's name: "NAME:LINE:COLUMN: message (unit ID)". */
static void describe(const xmt_filter *f, xmt_status st, char *out,
                     size_t len) {
  const struct xmt_error *err = xmt_filter_error(f);
  char at[48] = "";
  if (err->file != NULL && err->line > 0 && err->column > 0)
    snprintf(at, sizeof at, ":%lu:%lu", err->line, err->column);
  else if (err->file != NULL && err->line > 0)
    snprintf(at, sizeof at, ":%lu", err->line);
  snprintf(out, len, "%s%s%s%s%s%s%s", err->file != NULL ? err->file : "", at,
           err->file != NULL ? ": " : "",
           err->message != NULL ? err->message : xmt_strerror(st),
           err->unit_id != NULL ? " (unit " : "",
           err->unit_id != NULL ? err->unit_id : "",
           err->unit_id != NULL ? ")" : "");
}

/* After each call to the engine: a stop asked, or the deadline passed,
 * stops the run, also when asked before the run began (which
 * xmt_filter_interrupt's would not). */
static int progress(void *user, const struct xmt_filter_stats *stats) {
  (void)stats;
  const struct doc_worker *w = user;
  return __atomic_load_n(&w->d->quit, __ATOMIC_RELAXED) ||
         __atomic_load_n(&w->overtime, __ATOMIC_RELAXED);
}

/* The first reason a run gives for a segment it could not translate:
 * the engine's own (its exit, its timeout), which /health shows. */
static void on_failure(void *user, const char *segment_id, unsigned long line,
                       const char *message) {
  (void)segment_id;
  (void)line;
  struct doc_worker *w = user;
  if (w->failure[0] == '\0' && message != NULL)
    snprintf(w->failure, sizeof w->failure, "%s", message);
}

/* The worker's filter for the engine of pair, as that engine's workers
 * have it: its settings, its engines kept from one document to the next
 * of the same engine. */
static xmt_status make_filter(struct doc_worker *w,
                              const struct serve_pair *pair, char *msg,
                              size_t len) {
  struct serve_docs *d = w->d;
  const struct serve_engine *e = &d->sv->engines[pair->engine];
  xmt_filter *f = xmt_filter_new();
  if (f == NULL) {
    snprintf(msg, len, "out of memory");
    return XMT_ERR_NOMEM;
  }
  xmt_status st = xmt_cli_configure(f, &e->cli, e->backend, e->spec);
  if (st == XMT_OK)
    st = xmt_filter_set_flags(f, e->cli.flags | XMT_FILTER_KEEP_ENGINES |
                                     XMT_FILTER_KEEP_DICTIONARIES);
  if (st == XMT_OK)
    st = xmt_filter_set_callbacks(f, progress, on_failure, w);
  if (st != XMT_OK) {
    describe(f, st, msg, len);
    xmt_filter_free(f);
    return st;
  }
  pthread_mutex_lock(&d->lock);
  w->filter = f; /* from here on the stop and the watcher interrupt it */
  pthread_mutex_unlock(&d->lock);
  w->pair = (struct serve_pair){"", "", pair->engine};
  return XMT_OK;
}

/* Frees the worker's filter (and its engines). */
static void drop_filter(struct doc_worker *w) {
  pthread_mutex_lock(&w->d->lock);
  xmt_filter *old = w->filter;
  w->filter = NULL;
  pthread_mutex_unlock(&w->d->lock);
  xmt_filter_free(old);
}

/* A document that reached the engine of its pair: a failure there (the
 * engine reopened at once) or a success, in /health, /metrics and on
 * stderr as a worker's. */
static void engine_outcome(struct doc_worker *w, const struct serve_doc *doc,
                           xmt_status st) {
  struct serve_engine *e = &w->d->sv->engines[doc->pair.engine];
  int failed = st != XMT_OK, restarted = 0;
  char why[256] = "";
  if (failed) {
    restarted = xmt_filter_start_engines(w->filter) == XMT_OK;
    const char *open_err = xmt_filter_error(w->filter)->message;
    snprintf(why, sizeof why, "engine %.80s: %.150s", e->mt,
             !restarted && open_err != NULL ? open_err
             : w->failure[0] != '\0'        ? w->failure
                                            : doc->message);
  }
  serve_metrics_outcome(&w->d->sv->metrics, e->mt, &e->docs[w - w->d->workers],
                        failed, restarted, why);
}

/* The format of a document: its content decides, as for translate; the
 * extension of the client's name only when the content does not. */
static enum xmt_doc_format doc_format(const char *bytes, size_t len,
                                      const char *name) {
  const char *dot = strrchr(name, '.');
  char probe[32] = "document";
  if (dot != NULL && strlen(dot) < sizeof probe - 8)
    snprintf(probe, sizeof probe, "document%s", dot);
  return xmt_format_sniff(bytes, len, probe);
}

/* Translates doc (a copy of it, the worker's own): its file ID.in into
 * ID.out, the outcome in doc's state, message, format and billed. */
static void translate(struct doc_worker *w, struct serve_doc *doc) {
  struct serve_docs *d = w->d;
  char in[4200], out[4200];
  doc_path(d, doc->id, "in", in, sizeof in);
  doc_path(d, doc->id, "out", out, sizeof out);
  size_t len = 0, out_len = 0;
  char *bytes = read_all(in, &len), *result = NULL;
  xmt_status st = XMT_OK;
  doc->state = DOC_ERROR;
  if (bytes == NULL) {
    snprintf(doc->message, sizeof doc->message, "cannot read the document: %s",
             strerror(errno));
    return;
  }
  unlink(in); /* read: the translation is all that is kept */
  doc->format = doc_format(bytes, len, doc->name);
  doc->billed = 0;
  if (w->filter != NULL && w->pair.engine != doc->pair.engine)
    drop_filter(w);
  if (w->filter == NULL)
    st = make_filter(w, &doc->pair, doc->message, sizeof doc->message);
  if (st == XMT_OK && (strcmp(w->pair.src, doc->pair.src) != 0 ||
                       strcmp(w->pair.tgt, doc->pair.tgt) != 0)) {
    st = xmt_filter_set_languages(w->filter, doc->pair.src, doc->pair.tgt);
    w->pair = st == XMT_OK ? doc->pair
                           : (struct serve_pair){"?", "?", doc->pair.engine};
  }
  if (st == XMT_OK) {
    w->failure[0] = '\0';
    st = xmt_filter_translate_buffer(w->filter, doc->format, doc->name, bytes,
                                     len, &result, &out_len);
    /* Billed as DeepL bills: the text sent for translation, not the
     * markup around it. */
    const struct xmt_filter_stats *stats = xmt_filter_stats(w->filter);
    if (st == XMT_OK)
      doc->billed = stats->source_characters;
    serve_metrics_run(&d->sv->metrics, stats, doc->billed);
    if (st != XMT_OK)
      describe(w->filter, st, doc->message, sizeof doc->message);
    /* A document the filter refused, or the server stopping, says
     * nothing of the engine. */
    if (st == XMT_OK || st == XMT_ERR_BACKEND || st == XMT_ERR_PARTIAL)
      engine_outcome(w, doc, st);
  }
  if (st != XMT_OK && __atomic_load_n(&w->overtime, __ATOMIC_RELAXED)) {
    snprintf(doc->message, sizeof doc->message,
             "Document translation took longer than the server allows "
             "(%u seconds): stopped.",
             d->sv->set->document_timeout);
    /* The engine may still be answering a request of it: a new one for
     * the next document. */
    drop_filter(w);
  }
  if (st == XMT_OK && !write_new(out, result, out_len))
    snprintf(doc->message, sizeof doc->message,
             "cannot keep the translation: %s", strerror(errno));
  else if (st == XMT_OK)
    doc->state = DOC_DONE;
  free(bytes);
  free(result);
}

/* The document waiting to translate next, or NULL: of the lowest round,
 * the first uploaded, so that the addresses take turns. Under the
 * lock. */
static struct serve_doc *next_queued(struct serve_docs *d) {
  struct serve_doc *next = NULL;
  for (struct serve_doc *doc = d->list; doc != NULL; doc = doc->next)
    if (doc->state == DOC_QUEUED && (next == NULL || doc->round < next->round))
      next = doc;
  return next;
}

static void *work(void *arg) {
  struct doc_worker *w = arg;
  struct serve_docs *d = w->d;
  pthread_mutex_lock(&d->lock);
  while (!d->quit) {
    struct timespec next;
    expire(d, &next);
    struct serve_doc *doc = next_queued(d);
    if (doc == NULL) {
      if (next.tv_sec != 0)
        pthread_cond_timedwait(&d->wake, &d->lock, &next);
      else
        pthread_cond_wait(&d->wake, &d->lock);
      continue;
    }
    /* A document translating is never deleted but by serve_docs_stop,
     * after this thread ends: doc stays. The work is on a copy. */
    doc->state = DOC_TRANSLATING;
    struct serve_doc run = *doc;
    now(&w->deadline);
    w->deadline.tv_sec += (time_t)d->sv->set->document_timeout;
    __atomic_store_n(&w->overtime, 0, __ATOMIC_RELAXED);
    w->busy = 1;
    pthread_cond_signal(&d->tick);
    pthread_mutex_unlock(&d->lock);
    translate(w, &run);
    pthread_mutex_lock(&d->lock);
    w->busy = 0;
    doc->state = run.state;
    doc->format = run.format;
    doc->billed = run.billed;
    memcpy(doc->message, run.message, sizeof doc->message);
    now(&doc->finished);
  }
  pthread_mutex_unlock(&d->lock);
  return NULL;
}

/* The watcher: interrupts a document translating past its deadline, and
 * again every 200 ms until its run ends (an interruption asked before
 * the run begins is not kept by the filter). */
static void *watch(void *arg) {
  struct serve_docs *d = arg;
  pthread_mutex_lock(&d->lock);
  while (!d->quit) {
    struct timespec t, next = {0, 0};
    now(&t);
    for (size_t i = 0; i < d->nworkers; i++) {
      struct doc_worker *w = &d->workers[i];
      if (!w->busy)
        continue;
      struct timespec at = w->deadline;
      if (t.tv_sec > at.tv_sec ||
          (t.tv_sec == at.tv_sec && t.tv_nsec >= at.tv_nsec)) {
        __atomic_store_n(&w->overtime, 1, __ATOMIC_RELAXED);
        if (w->filter != NULL)
          xmt_filter_interrupt(w->filter);
        at = t;
        at.tv_nsec += 200000000L;
        if (at.tv_nsec >= 1000000000L) {
          at.tv_sec++;
          at.tv_nsec -= 1000000000L;
        }
      }
      if (next.tv_sec == 0 || at.tv_sec < next.tv_sec ||
          (at.tv_sec == next.tv_sec && at.tv_nsec < next.tv_nsec))
        next = at;
    }
    if (next.tv_sec != 0)
      pthread_cond_timedwait(&d->tick, &d->lock, &next);
    else
      pthread_cond_wait(&d->tick, &d->lock);
  }
  pthread_mutex_unlock(&d->lock);
  return NULL;
}

/* The folder: DIR/xliffmt-serve-XXXXXX; 0 after reporting. */
static int make_dir(struct serve_docs *d, const char *parent) {
  if (strlen(parent) > 3000) {
    xmt_cli_say("xliffmt serve: --document-dir %.60s...: name too long\n",
                parent);
    return 0;
  }
  d->dir = xmt_cli_join(parent, "xliffmt-serve-XXXXXX");
  if (d->dir == NULL || mkdtemp(d->dir) == NULL) {
    xmt_cli_say("xliffmt serve: cannot make a folder for documents in %s: "
                "%s\n",
                parent, d->dir != NULL ? strerror(errno) : "out of memory");
    free(d->dir);
    d->dir = NULL;
    return 0;
  }
  return 1;
}

int serve_docs_start(struct serve_server *sv) {
  struct serve_docs *d = calloc(1, sizeof *d);
  if (d == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return 0;
  }
  d->sv = sv;
  pthread_mutex_init(&d->lock, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&d->wake, &ca);
  pthread_cond_init(&d->tick, &ca);
  pthread_condattr_destroy(&ca);
  sv->docs = d;
  const char *parent = sv->set->document_dir;
  if (parent == NULL)
    parent = getenv("TMPDIR");
  if (parent == NULL || parent[0] == '\0')
    parent = "/tmp";
  if (!make_dir(d, parent))
    return 0;
  size_t n = sv->set->document_threads > 0 ? sv->set->document_threads : 1;
  if ((d->workers = calloc(n, sizeof *d->workers)) == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return 0;
  }
  d->nworkers = n;
  for (size_t i = 0; i < n; i++) {
    struct doc_worker *w = &d->workers[i];
    w->d = d;
    if (pthread_create(&w->thread, NULL, work, w) != 0) {
      xmt_cli_say("xliffmt: cannot start the documents' threads\n");
      return 0;
    }
    w->started = 1;
  }
  if (pthread_create(&d->watcher, NULL, watch, d) != 0) {
    xmt_cli_say("xliffmt: cannot start the documents' watcher\n");
    return 0;
  }
  d->watching = 1;
  return 1;
}

void serve_docs_stop(struct serve_server *sv) {
  struct serve_docs *d = sv->docs;
  if (d == NULL)
    return;
  pthread_mutex_lock(&d->lock);
  __atomic_store_n(&d->quit, 1, __ATOMIC_RELAXED);
  for (size_t i = 0; i < d->nworkers; i++)
    if (d->workers[i].filter != NULL)
      xmt_filter_interrupt(d->workers[i].filter);
  pthread_cond_broadcast(&d->wake);
  pthread_cond_signal(&d->tick);
  pthread_mutex_unlock(&d->lock);
  for (size_t i = 0; i < d->nworkers; i++)
    if (d->workers[i].started)
      pthread_join(d->workers[i].thread, NULL);
  if (d->watching)
    pthread_join(d->watcher, NULL);
  while (d->list != NULL) {
    struct serve_doc *doc = d->list;
    d->list = doc->next;
    doc_free(d, doc);
  }
  if (d->dir != NULL && rmdir(d->dir) != 0)
    xmt_cli_say("xliffmt serve: %s: cannot remove: %s\n", d->dir,
                strerror(errno));
  for (size_t i = 0; i < d->nworkers; i++)
    xmt_filter_free(d->workers[i].filter);
  free(d->workers);
  free(d->dir);
  pthread_cond_destroy(&d->wake);
  pthread_cond_destroy(&d->tick);
  pthread_mutex_destroy(&d->lock);
  free(d);
  sv->docs = NULL;
}

size_t serve_docs_pending(struct serve_docs *d) {
  size_t n = 0;
  pthread_mutex_lock(&d->lock);
  expire(d, NULL);
  for (const struct serve_doc *doc = d->list; doc != NULL; doc = doc->next)
    n += doc->state != DOC_ERROR || !doc->told;
  pthread_mutex_unlock(&d->lock);
  return n;
}

/* count random bytes as upper-case hexadecimal digits (as DeepL's ids and
 * keys); 0 when the system has no randomness to give. */
static int random_hex(char *out, size_t count) {
  unsigned char raw[64];
  size_t got = 0;
  while (got < count) {
    ssize_t r = getrandom(raw + got, count - got, 0);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return 0;
    got += (size_t)r;
  }
  for (size_t i = 0; i < count; i++)
    snprintf(out + 2 * i, 3, "%02X", raw[i]);
  return 1;
}

/* A new document for u, its id and key made; NULL when out of memory or
 * randomness. */
static struct serve_doc *doc_new(const struct serve_doc_upload *u) {
  struct serve_doc *doc = calloc(1, sizeof *doc);
  if (doc == NULL)
    return NULL;
  doc->pair = u->pair;
  snprintf(doc->client, sizeof doc->client, "%s", u->client);
  doc->auth = strdup(u->auth);
  doc->name = strdup(u->name);
  if (doc->auth == NULL || doc->name == NULL ||
      !random_hex(doc->id, SERVE_DOC_ID_LEN / 2) ||
      !random_hex(doc->key, SERVE_DOC_KEY_LEN / 2)) {
    free(doc->auth);
    free(doc->name);
    free(doc);
    return NULL;
  }
  return doc;
}

/* --max-documents-per-client, or its default. */
static size_t per_client(const struct serve_docs *d) {
  const struct serve_settings *s = d->sv->set;
  size_t q = s->max_documents / 4;
  return s->max_per_client > 0 ? s->max_per_client : q > 0 ? q : 1;
}

static int by_client(const void *a, const void *b) {
  const struct serve_doc *x = *(struct serve_doc *const *)a,
                         *y = *(struct serve_doc *const *)b;
  return strcmp(x->client, y->client);
}

/* The documents that may be deleted for an upload of client's: of each
 * other address keeping more than --max-documents-per-client, its
 * finished ones beyond that many. Their number, and in *drop the oldest
 * finished of the address with the most beyond (NULL: none). Under the
 * lock; sorted by address, n log n for any number kept. */
static size_t beyond(struct serve_docs *d, const char *client,
                     struct serve_doc **drop) {
  size_t limit = per_client(d), k = 0, total = 0, most = 0;
  struct serve_doc **v = d->n > 0 ? malloc(d->n * sizeof *v) : NULL;
  *drop = NULL;
  if (v == NULL)
    return 0;
  for (struct serve_doc *doc = d->list; doc != NULL && k < d->n;
       doc = doc->next)
    v[k++] = doc;
  qsort(v, k, sizeof *v, by_client);
  for (size_t i = 0, j; i < k; i = j) {
    size_t finished = 0;
    struct serve_doc *oldest = NULL;
    for (j = i; j < k && strcmp(v[j]->client, v[i]->client) == 0; j++) {
      struct serve_doc *x = v[j];
      if (x->state != DOC_DONE && x->state != DOC_ERROR)
        continue;
      finished++;
      if (oldest == NULL || x->finished.tv_sec < oldest->finished.tv_sec ||
          (x->finished.tv_sec == oldest->finished.tv_sec &&
           x->finished.tv_nsec < oldest->finished.tv_nsec))
        oldest = x;
    }
    size_t over = j - i > limit ? j - i - limit : 0;
    if (over == 0 || finished == 0 || strcmp(v[i]->client, client) == 0)
      continue;
    total += over < finished ? over : finished;
    if (over > most) {
      most = over;
      *drop = oldest;
    }
  }
  free(v);
  return total;
}

/* Deletes doc, finished, from the list. Under the lock. */
static void drop_doc(struct serve_docs *d, struct serve_doc *doc) {
  for (struct serve_doc **link = &d->list; *link != NULL; link = &(*link)->next)
    if (*link == doc) {
      *link = doc->next;
      d->n--;
      doc_free(d, doc);
      return;
    }
}

/* Room for one more document of client's (counted as reserved), made by
 * deleting another address's beyond its limit when there is none; 0
 * when none can be made. */
static int reserve(struct serve_docs *d, const char *client) {
  pthread_mutex_lock(&d->lock);
  expire(d, NULL);
  int room = d->n + d->reserved < d->sv->set->max_documents;
  struct serve_doc *drop;
  if (!room && beyond(d, client, &drop) > 0 && drop != NULL) {
    drop_doc(d, drop);
    room = d->n + d->reserved < d->sv->set->max_documents;
  }
  d->reserved += (size_t)room;
  pthread_mutex_unlock(&d->lock);
  return room;
}

/* DeepL's 429 for a document the server has no room for. */
static void no_room(struct serve_docs *d, struct serve_reply *r) {
  char msg[160];
  snprintf(msg, sizeof msg,
           "Too many documents on the server (at most %zu): download the "
           "translated ones or wait for them to expire.",
           d->sv->set->max_documents);
  serve_deepl_error(r, 429, msg);
}

int serve_docs_room(struct serve_docs *d, size_t uploading, const char *client,
                    struct serve_reply *r) {
  pthread_mutex_lock(&d->lock);
  expire(d, NULL);
  size_t max = d->sv->set->max_documents;
  int room = d->n + d->reserved + uploading < max;
  struct serve_doc *drop;
  if (!room)
    room = d->n + d->reserved + uploading < max + beyond(d, client, &drop);
  pthread_mutex_unlock(&d->lock);
  if (!room)
    no_room(d, r);
  return room;
}

void serve_docs_add(struct serve_docs *d, const struct serve_doc_upload *u,
                    struct serve_reply *r) {
  if (!reserve(d, u->client)) {
    no_room(d, r);
    return;
  }
  struct serve_doc *doc = doc_new(u);
  char path[4200];
  int ok = doc != NULL;
  if (ok) {
    doc_path(d, doc->id, "in", path, sizeof path);
    if (!(ok = write_new(path, u->bytes, u->len)))
      xmt_cli_say("xliffmt serve: %s: cannot write: %s\n", path,
                  strerror(errno));
  }
  json_t *o = json_object();
  if (ok) { /* doc is the thread's once in the list */
    json_object_set_new(o, "document_id", json_string(doc->id));
    json_object_set_new(o, "document_key", json_string(doc->key));
  }
  pthread_mutex_lock(&d->lock);
  d->reserved--;
  if (ok) {
    struct serve_doc **link = &d->list;
    for (; *link != NULL; link = &(*link)->next)
      doc->round +=
          ((*link)->state == DOC_QUEUED || (*link)->state == DOC_TRANSLATING) &&
          strcmp((*link)->client, doc->client) == 0;
    *link = doc;
    d->n++;
    pthread_cond_signal(&d->wake);
  }
  pthread_mutex_unlock(&d->lock);
  if (!ok) {
    if (doc != NULL)
      doc_free(d, doc);
    json_decref(o);
    serve_deepl_error(r, 500, "Internal error");
    return;
  }
  serve_reply_json(r, 200, o, 0);
}

/* 1 when a and b are equal, in a time that depends on their lengths
 * only. */
static int same(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  unsigned char diff = (unsigned char)(la != lb);
  for (size_t i = 0; i < la; i++)
    diff |= (unsigned char)(a[i] ^ (i < lb ? b[i] : 0));
  return diff == 0;
}

/* The document id given key by the holder of auth, or NULL; *link the
 * pointer to it. Under the lock. */
static struct serve_doc *find(struct serve_docs *d, const char *id,
                              const char *key, const char *auth,
                              struct serve_doc ***link) {
  expire(d, NULL);
  for (struct serve_doc **l = &d->list; *l != NULL; l = &(*l)->next)
    if (strcmp((*l)->id, id) == 0) {
      if (!same((*l)->key, key) || !same((*l)->auth, auth))
        return NULL;
      *link = l;
      return *l;
    }
  return NULL;
}

static const char *const state_names[] = {"queued", "translating", "done",
                                          "error"};

void serve_docs_status(struct serve_docs *d, const char *id, const char *key,
                       const char *auth, struct serve_reply *r) {
  struct serve_doc **link;
  json_t *o = NULL;
  pthread_mutex_lock(&d->lock);
  struct serve_doc *doc = find(d, id, key, auth, &link);
  if (doc != NULL) {
    o = json_object();
    json_object_set_new(o, "document_id", json_string(doc->id));
    json_object_set_new(o, "status", json_string(state_names[doc->state]));
    if (doc->state == DOC_DONE)
      json_object_set_new(o, "billed_characters",
                          json_integer((json_int_t)doc->billed));
    if (doc->state == DOC_ERROR) {
      doc->told = 1;
      /* error_message as DeepL documents it; message as it answered
       * before, and as its own mock still does */
      json_object_set_new(o, "error_message", json_string(doc->message));
      json_object_set_new(o, "message", json_string(doc->message));
    }
  }
  pthread_mutex_unlock(&d->lock);
  if (o == NULL)
    serve_deepl_error(r, 404, "Document not found.");
  else
    serve_reply_json(r, 200, o, 0);
}

/* Content-Disposition: attachment with the client's name, its bytes
 * outside printable ASCII (and quotes, backslashes) as '_' in filename,
 * and all of it in filename* (RFC 6266) when some were. */
static char *disposition(const char *name) {
  size_t n = strlen(name);
  char *plain = malloc(n + 1), *ext = malloc(3 * n + 1);
  char *out = NULL;
  if (plain != NULL && ext != NULL) {
    size_t k = 0;
    int changed = 0;
    for (size_t i = 0; i < n; i++) {
      unsigned char c = (unsigned char)name[i];
      int ok = c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
      plain[i] = ok ? (char)c : '_';
      changed |= !ok;
      if (c < 0x80 && (('a' <= (c | 0x20) && (c | 0x20) <= 'z') ||
                       ('0' <= c && c <= '9') || strchr("!#$&+-.^_`|~", c)))
        ext[k++] = (char)c;
      else
        k += (size_t)snprintf(ext + k, 4, "%%%02X", c);
    }
    plain[n] = '\0';
    ext[k] = '\0';
    size_t len = 2 * n + 3 * n + 64;
    if ((out = malloc(len)) != NULL)
      snprintf(out, len, "attachment; filename=\"%s\"%s%s", plain,
               changed ? "; filename*=UTF-8''" : "", changed ? ext : "");
  }
  free(plain);
  free(ext);
  return out;
}

void serve_docs_take(struct serve_docs *d, const char *id, const char *key,
                     const char *auth, struct serve_reply *r) {
  struct serve_doc **link;
  char msg[600] = "";
  pthread_mutex_lock(&d->lock);
  struct serve_doc *doc = find(d, id, key, auth, &link);
  if (doc != NULL && doc->state == DOC_ERROR) {
    doc->told = 1;
    snprintf(msg, sizeof msg, "Document translation failed: %s", doc->message);
  } else if (doc != NULL && doc->state != DOC_DONE)
    snprintf(msg, sizeof msg, "Document translation is not done");
  else if (doc != NULL) { /* whoever asks next finds none */
    *link = doc->next;
    d->n--;
  }
  pthread_mutex_unlock(&d->lock);
  if (doc == NULL) {
    serve_deepl_error(r, 404, "Document not found.");
    return;
  }
  if (msg[0] != '\0') {
    serve_deepl_error(r, 503, msg);
    return;
  }
  /* Sent from the file as the client reads it (deleted below, the open
   * file stays): a slow reader holds no copy of it in memory. */
  char path[4200];
  struct stat st;
  doc_path(d, doc->id, "out", path, sizeof path);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 || fstat(fd, &st) != 0) {
    xmt_cli_say("xliffmt serve: %s: cannot read: %s\n", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    serve_deepl_error(r, 500, "Internal error");
  } else {
    serve_reply_free(r);
    r->status = 200;
    r->has_file = 1;
    r->file = fd;
    r->len = (size_t)st.st_size;
    r->content_type = xmt_format_media_type(doc->format);
    r->disposition = disposition(doc->name);
  }
  doc_free(d, doc);
}
