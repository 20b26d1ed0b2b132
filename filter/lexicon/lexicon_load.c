/* lexicon_load.c -- which dictionaries to read, and the reading threads. */

/* The files named, or every installed one of the language pair ("auto"),
 * handed by kind to the readers of xmt_lex_readers (lexicon_dictd.c,
 * lexicon_apertium.c, lexicon_tsv.c), which call nothing of this file. */
#include "config.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lexicon_private.h"

#define DEFAULT_DICTD_DIR "/usr/share/dictd"
#define DEFAULT_APERTIUM_DIR "/usr/share/apertium"

/* --- The dictionaries to read --------------------------------------------- */

struct lexlist {
  struct xmt_lexfile *f;
  size_t n, cap;
};

static void lexlist_free(struct lexlist *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->f[i].path);
    free(l->f[i].data);
    free(l->f[i].name);
  }
  free(l->f);
}

/* path with its last strip bytes replaced by suffix; NULL out of memory. */
static char *with_suffix(const char *path, size_t strip, const char *suffix) {
  size_t n = strlen(path) - strip, k = strlen(suffix);
  char *s = malloc(n + k + 1);
  if (s != NULL) {
    memcpy(s, path, n);
    memcpy(s + n, suffix, k + 1);
  }
  return s;
}

/* Adds a file unless already there; takes path, data and name. */
static xmt_status lexlist_add(struct lexlist *l, struct xmt_lexfile f) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->f[i].path, f.path) == 0 && l->f[i].reversed == f.reversed) {
      free(f.path);
      free(f.data);
      free(f.name);
      return XMT_OK;
    }
  if (l->n == l->cap) {
    struct xmt_lexfile *p = xmt_grow_array(l->f, &l->cap, l->n + 1, sizeof *p);
    if (p == NULL) {
      free(f.path);
      free(f.data);
      free(f.name);
      return XMT_ERR_NOMEM;
    }
    l->f = p;
  }
  l->f[l->n++] = f;
  return XMT_OK;
}

/* The data file of dictd base name base (.dict.dz, else .dict); NULL when
 * neither exists (*nomem set when out of memory). */
static char *dictd_data(const char *base, int *nomem) {
  static const char *const ext[] = {".dict.dz", ".dict"};
  *nomem = 0;
  for (size_t i = 0; i < 2; i++) {
    char *p = with_suffix(base, 0, ext[i]);
    if (p == NULL) {
      *nomem = 1;
      return NULL;
    }
    if (xmt_lex_is_file(p))
      return p;
    free(p);
  }
  return NULL;
}

/* A dictd dictionary of base name base; missing files are errors when
 * named (naming the file), skipped otherwise. */
static xmt_status add_dictd(struct lexlist *l, const char *base, int reversed,
                            int named, struct xmt_error_store *err) {
  struct xmt_lexfile f = {with_suffix(base, 0, ".index"),
                          NULL,
                          NULL,
                          XMT_LEX_DICTD,
                          reversed,
                          named};
  int nomem = 0;
  if (f.path != NULL && xmt_lex_is_file(f.path))
    f.data = dictd_data(base, &nomem);
  if (f.path != NULL && f.data != NULL)
    f.name = with_suffix(base, 0, reversed ? " (reversed)" : "");
  if (f.path == NULL || nomem || (f.data != NULL && f.name == NULL)) {
    free(f.path);
    free(f.data);
    free(f.name);
    return XMT_ERR_NOMEM;
  }
  if (f.data == NULL) {
    xmt_status st = XMT_OK;
    if (named && !xmt_lex_is_file(f.path))
      st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(f.path),
                        "dictionary index not found");
    else if (named)
      st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(base),
                        "dictionary data (.dict.dz or .dict) not found");
    free(f.path);
    return st;
  }
  return lexlist_add(l, f);
}

/* Whether the file name (last component) of path has "a-b" or "a_b" for a
 * code of language a and one of b, between non-letters. */
static int names_pair(const char *path, const struct xmt_lang_codes *a,
                      const struct xmt_lang_codes *b) {
  const char *name = strrchr(path, '/');
  name = name != NULL ? name + 1 : path;
  const char *ca[2] = {a->iso3, a->iso1}, *cb[2] = {b->iso3, b->iso1};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      size_t la = strlen(ca[i]), lb = strlen(cb[j]);
      if (la == 0 || lb == 0)
        continue;
      for (const char *p = name; *p != '\0'; p++) {
        int before =
            p == name || !((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z');
        if (!before || strncasecmp(p, ca[i], la) != 0 ||
            (p[la] != '-' && p[la] != '_') ||
            strncasecmp(p + la + 1, cb[j], lb) != 0)
          continue;
        char after = p[la + 1 + lb];
        if (!((after | 0x20) >= 'a' && (after | 0x20) <= 'z'))
          return 1;
      }
    }
  return 0;
}

/* A file the caller named: its kind from its name, reversed when its name
 * has the reversed language pair. */
static xmt_status add_named(struct lexlist *l, struct xmt_lex_match *m,
                            const char *path, struct xmt_error_store *err) {
  const struct xmt_lang_codes *src = xmt_lex_lang(m, XMT_SRC);
  const struct xmt_lang_codes *tgt = xmt_lex_lang(m, XMT_TGT);
  int reversed = names_pair(path, tgt, src) && !names_pair(path, src, tgt);
  static const char *const dictd_ext[] = {".index", ".dict.dz", ".dict"};
  for (size_t i = 0; i < 3; i++)
    if (xmt_lex_ends_with(path, dictd_ext[i])) {
      char *base = with_suffix(path, strlen(dictd_ext[i]), "");
      if (base == NULL)
        return XMT_ERR_NOMEM;
      xmt_status st = add_dictd(l, base, reversed, 1, err);
      free(base);
      return st;
    }
  char *index = with_suffix(path, 0, ".index");
  if (index == NULL)
    return XMT_ERR_NOMEM;
  int dictd = xmt_lex_is_file(index);
  free(index);
  if (dictd)
    return add_dictd(l, path, reversed, 1, err);
  if (!xmt_lex_is_file(path))
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "dictionary not found");
  struct xmt_lexfile f = {xmt_strdup(path),
                          NULL,
                          NULL,
                          xmt_lex_ends_with(path, ".bin") ? XMT_LEX_APERTIUM
                                                          : XMT_LEX_TSV,
                          reversed,
                          1};
  f.name = with_suffix(path, 0, reversed ? " (reversed)" : "");
  if (f.path == NULL || f.name == NULL) {
    free(f.path);
    free(f.name);
    return XMT_ERR_NOMEM;
  }
  return lexlist_add(l, f);
}

/* --- "auto" --------------------------------------------------------------- */

/* The language's codes as files name them: 639-3 first, then 639-1. */
static size_t codes_list(const struct xmt_lang_codes *c, const char *out[2]) {
  size_t n = 0;
  if (c->iso3[0] != '\0')
    out[n++] = c->iso3;
  if (c->iso1[0] != '\0')
    out[n++] = c->iso1;
  return n;
}

static xmt_status auto_dictd(struct lexlist *l, const char *dir, const char *a,
                             const char *b, int reversed,
                             struct xmt_error_store *err) {
  char name[32];
  snprintf(name, sizeof name, "freedict-%s-%s", a, b);
  char *base = xmt_lex_join_path(dir, name, "");
  if (base == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = add_dictd(l, base, reversed, 0, err);
  free(base);
  return st;
}

static xmt_status auto_apertium_file(struct lexlist *l, const char *pkgdir,
                                     const char *a, const char *b,
                                     int reversed) {
  char name[32];
  snprintf(name, sizeof name, "%s-%s.autobil.bin", a, b);
  struct xmt_lexfile f = {xmt_lex_join_path(pkgdir, name, ""),
                          NULL,
                          NULL,
                          XMT_LEX_APERTIUM,
                          reversed,
                          0};
  if (f.path == NULL)
    return XMT_ERR_NOMEM;
  if (!xmt_lex_is_file(f.path)) {
    free(f.path);
    return XMT_OK;
  }
  f.name = with_suffix(f.path, 0, reversed ? " (reversed)" : "");
  if (f.name == NULL) {
    free(f.path);
    return XMT_ERR_NOMEM;
  }
  return lexlist_add(l, f);
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The apertium-* package folders under dir, sorted (so that the order of
 * reading, and the report, do not depend on the file system). */
static xmt_status apertium_packages(const char *dir, char ***names, size_t *n) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (d == NULL)
    return XMT_OK;
  size_t cap = 0;
  xmt_status st = XMT_OK;
  struct dirent *e;
  while (st == XMT_OK && (e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "apertium-", 9) != 0)
      continue;
    if (*n == cap) {
      char **p = xmt_grow_array(*names, &cap, *n + 1, sizeof *p);
      if (p == NULL) {
        st = XMT_ERR_NOMEM;
        break;
      }
      *names = p;
    }
    if (((*names)[*n] = xmt_lex_join_path(dir, e->d_name, "")) == NULL)
      st = XMT_ERR_NOMEM;
    else
      (*n)++;
  }
  closedir(d);
  if (*n > 0)
    qsort(*names, *n, sizeof **names, name_cmp);
  return st;
}

static xmt_status auto_apertium(struct lexlist *l, const char *dir,
                                const char *const s[2], size_t ns,
                                const char *const t[2], size_t nt) {
  char **pkgs;
  size_t npkgs;
  xmt_status st = apertium_packages(dir, &pkgs, &npkgs);
  for (size_t p = 0; p < npkgs && st == XMT_OK; p++)
    for (size_t i = 0; i < ns && st == XMT_OK; i++)
      for (size_t j = 0; j < nt && st == XMT_OK; j++) {
        st = auto_apertium_file(l, pkgs[p], s[i], t[j], 0);
        if (st == XMT_OK)
          st = auto_apertium_file(l, pkgs[p], t[j], s[i], 1);
      }
  for (size_t p = 0; p < npkgs; p++)
    free(pkgs[p]);
  free(pkgs);
  return st;
}

/* Every installed dictionary of the language pair, both directions. */
static xmt_status add_auto(struct lexlist *l, struct xmt_lex_match *m,
                           const struct xmt_prior_options *o,
                           struct xmt_error_store *err) {
  const char *s[2], *t[2];
  size_t ns = codes_list(xmt_lex_lang(m, XMT_SRC), s);
  size_t nt = codes_list(xmt_lex_lang(m, XMT_TGT), t);
  const char *dictd = o->dictd_dir ? o->dictd_dir : DEFAULT_DICTD_DIR;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < ns && st == XMT_OK; i++)
    for (size_t j = 0; j < nt && st == XMT_OK; j++) {
      st = auto_dictd(l, dictd, s[i], t[j], 0, err);
      if (st == XMT_OK)
        st = auto_dictd(l, dictd, t[j], s[i], 1, err);
    }
  if (st != XMT_OK)
    return st;
  return auto_apertium(l,
                       o->apertium_dir ? o->apertium_dir : DEFAULT_APERTIUM_DIR,
                       s, ns, t, nt);
}

/* --- Loading --------------------------------------------------------------
 * The files are shared out between threads, each with its own copy of the
 * match (the vocabularies are shared read-only): each thread takes the next
 * file, dictd and TSV files first, then the Apertium ones whose lt-print
 * has had the most time. When a file fails no more are started; the error
 * of the first failed file in that order is reported, which does not
 * depend on timing, as every file before it was started and finished. */

/* The readers, by kind of file. */
static const struct xmt_lex_reader *const readers[XMT_LEX_KINDS] = {
    [XMT_LEX_DICTD] = &xmt_lex_dictd_reader,
    [XMT_LEX_APERTIUM] = &xmt_lex_apertium_reader,
    [XMT_LEX_TSV] = &xmt_lex_tsv_reader};

struct pool {
  const struct lexlist *l;
  size_t *order;                /* files in the order they are taken */
  void *state[XMT_LEX_KINDS];   /* of each kind's reader */
  xmt_status *status;           /* per position in order */
  unsigned char *done;          /* per position: read */
  struct xmt_error_store *errs; /* per position */
  pthread_mutex_t lock;
  size_t next;
  int failed;
};

static xmt_status read_one(struct xmt_lex_match *m, struct pool *p,
                           size_t pos) {
  size_t i = p->order[pos];
  const struct xmt_lexfile *f = &p->l->f[i];
  return readers[f->kind]->read(m, p->state[f->kind], f, i, &p->errs[pos]);
}

static void pool_run(struct pool *p, struct xmt_lex_match *m) {
  for (;;) {
    pthread_mutex_lock(&p->lock);
    size_t pos = p->next;
    int stop = p->failed || pos >= p->l->n;
    p->next += !stop;
    pthread_mutex_unlock(&p->lock);
    if (stop)
      return;
    xmt_status st = read_one(m, p, pos);
    p->status[pos] = st;
    p->done[pos] = 1;
    if (st != XMT_OK) {
      pthread_mutex_lock(&p->lock);
      p->failed = 1;
      pthread_mutex_unlock(&p->lock);
    }
  }
}

struct worker {
  struct pool *p;
  struct xmt_lex_match *m;
  pthread_t thread;
};

static void *worker_main(void *arg) {
  struct worker *w = arg;
  pool_run(w->p, w->m);
  return NULL;
}

/* Threads to read n files with: o->threads, or the online cores. */
static size_t pool_threads(const struct xmt_prior_options *o, size_t n) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  size_t t = o->threads > 0 ? o->threads : cores > 0 ? (size_t)cores : 1;
  return t < n ? t : n > 0 ? n : 1;
}

/* Reads the files with the calling thread and up to o->threads - 1 more;
 * threads that cannot start leave their share to the others. */
static xmt_status pool_read(struct pool *p, struct xmt_lex_match *m,
                            const struct xmt_prior_options *o) {
  size_t nt = pool_threads(o, p->l->n), started = 0;
  struct worker *w = calloc(nt, sizeof *w);
  xmt_status st = w != NULL ? XMT_OK : XMT_ERR_NOMEM;
  for (size_t t = 1; t < nt && st == XMT_OK; t++) {
    w[started].p = p;
    if (xmt_lex_match_fork(m, &w[started].m) != XMT_OK)
      break;
    if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) !=
        0) {
      xmt_lex_match_join(m, w[started].m);
      break;
    }
    started++;
  }
  if (st == XMT_OK)
    pool_run(p, m);
  for (size_t t = 0; t < started; t++) {
    pthread_join(w[t].thread, NULL);
    xmt_status js = xmt_lex_match_join(m, w[t].m);
    st = st == XMT_OK ? js : st;
  }
  free(w);
  return st;
}

/* Adds name to stats->loaded; when it does not fit, "..." ends the list. */
static void note_loaded(struct xmt_prior_stats *stats, const char *name) {
  if (stats == NULL)
    return;
  stats->dictionaries_loaded++;
  char *s = stats->loaded;
  size_t at = strlen(s), room = sizeof stats->loaded - at;
  if (at >= 3 && strcmp(s + at - 3, "...") == 0)
    return;
  const char *sep = at > 0 ? ", " : "";
  /* room is left for ", ..." after every name */
  if (strlen(sep) + strlen(name) + 6 <= room)
    snprintf(s + at, room, "%s%s", sep, name);
  else
    snprintf(s + at, room, "%s...", sep);
}

static xmt_status build_list(struct lexlist *l, struct xmt_lex_match *m,
                             const struct xmt_prior_options *o,
                             struct xmt_error_store *err) {
  xmt_status st = XMT_OK;
  int did_auto = 0;
  for (size_t i = 0; i < o->ndictionaries && st == XMT_OK; i++) {
    const char *d = o->dictionaries[i];
    if (d == NULL || strcmp(d, "none") == 0)
      continue;
    if (strcmp(d, "auto") == 0) {
      if (!did_auto)
        st = add_auto(l, m, o, err);
      did_auto = 1;
    } else
      st = add_named(l, m, d, err);
  }
  return st;
}

/* The reading order: the files of readers that are not late (dictd, TSV),
 * then the others' (Apertium's). */
static void pool_order(const struct lexlist *l, size_t *order) {
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < l->n; i++)
      if ((readers[l->f[i].kind]->late != 0) == pass)
        order[n++] = i;
}

static void pool_free(struct pool *p) {
  for (size_t i = 0; p->errs != NULL && i < p->l->n; i++)
    xmt_error_clear(&p->errs[i]);
  free(p->order);
  free(p->status);
  free(p->done);
  free(p->errs);
}

static xmt_status pool_init(struct pool *p, const struct lexlist *l) {
  memset(p, 0, sizeof *p);
  size_t n = l->n ? l->n : 1;
  p->l = l;
  p->order = calloc(n, sizeof *p->order);
  p->status = calloc(n, sizeof *p->status);
  p->done = calloc(n, 1);
  p->errs = calloc(n, sizeof *p->errs);
  if (p->order == NULL || p->status == NULL || p->done == NULL ||
      p->errs == NULL || pthread_mutex_init(&p->lock, NULL) != 0) {
    pool_free(p);
    return XMT_ERR_NOMEM;
  }
  pool_order(l, p->order);
  return XMT_OK;
}

/* The outcome: the first failed file's error, or the files read. */
static xmt_status pool_outcome(struct pool *p, struct xmt_prior_stats *stats,
                               struct xmt_error_store *err) {
  for (size_t pos = 0; pos < p->l->n; pos++)
    if (p->done[pos] && p->status[pos] != XMT_OK) {
      if (p->status[pos] == XMT_ERR_NOMEM)
        return XMT_ERR_NOMEM;
      xmt_error_copy(err, &p->errs[pos].pub);
      return p->status[pos];
    }
  for (size_t pos = 0; pos < p->l->n; pos++) {
    size_t i = p->order[pos];
    const struct xmt_lex_reader *r = readers[p->l->f[i].kind];
    if (r->has == NULL || r->has(p->state[p->l->f[i].kind], i))
      note_loaded(stats, p->l->f[i].name);
  }
  return XMT_OK;
}

xmt_status xmt_lexicon_load(struct xmt_lex_match *m,
                            const struct xmt_prior_options *o,
                            struct xmt_prior_stats *stats,
                            struct xmt_error_store *err) {
  struct lexlist l = {0};
  struct pool p;
  xmt_status st = build_list(&l, m, o, err);
  int pool_ok = st == XMT_OK && (st = pool_init(&p, &l)) == XMT_OK;
  for (int k = 0; k < XMT_LEX_KINDS && st == XMT_OK; k++)
    if (readers[k]->start != NULL)
      st = readers[k]->start(&p.state[k], l.f, l.n, o, err);
  if (st == XMT_OK)
    st = pool_read(&p, m, o);
  if (st == XMT_OK)
    st = pool_outcome(&p, stats, err);
  if (pool_ok) {
    for (int k = 0; k < XMT_LEX_KINDS; k++)
      if (readers[k]->end != NULL)
        readers[k]->end(p.state[k]);
    pthread_mutex_destroy(&p.lock);
    pool_free(&p);
  }
  lexlist_free(&l);
  if (st == XMT_ERR_NOMEM)
    return xmt_error_set(err, st, "out of memory reading dictionaries");
  return st;
}
