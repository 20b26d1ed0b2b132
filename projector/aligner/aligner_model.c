/* aligner_model.c -- the aligner's model written to and read from a stream
 * (the files themselves are opened by filter/lexicon/model_file.c).
 *
 * Model file format, version 2 (version 1 is read too: it lacks the parts
 * marked v2). Integers are unsigned little-endian, f64 is an IEEE 754
 * binary64 stored as the little-endian u64 of its bits.
 *
 *   magic     8 bytes  "XMTALIGN"
 *   version   u32      2 (or 1); a reader refuses any other version
 *   flags     u32      1 favor_diagonal, 2 optimize_tension,
 *                      4 variational_bayes, 8 lowercase; others 0
 *   iterations u32     the -I the model was trained with
 *   reserved  u32      0
 *   p_null    f64      prob_align_null
 *   alpha     f64
 *   tension0  f64      the starting tension option
 *   v2: model u32      0 IBM Model 2, 1 the Bayesian model
 *   v2: reserved u32   0
 *   v2: documents u64  trainings whose link counts the tables add up
 *   v2: the source and the target language, each:
 *     length    u32      bytes (0: unknown), at most 64
 *     bytes     the language tag as given (e.g. "en", "de-AT")
 *   then, for the forward (source -> target) and reverse directions:
 *     tension        f64  the learned tension
 *     mean_len_ratio f64  mean of predicted / conditioning sentence length
 *   then the source and the target vocabularies, each:
 *     count     u32      words, id 0 (NULL, the empty word) included
 *     bytes     u64      total length of the words
 *     lengths   count x u32, the byte length of each word by id (0 first)
 *     words     the words' bytes back to back (UTF-8), by id
 *   then the forward and the reverse translation tables, each:
 *     rows      u32      = the conditioning side's vocabulary count
 *     nnz       u64      entries
 *     lengths   rows x u32, entries in each row
 *     cols      nnz x u32, predicted word ids, ascending within a row
 *     probs     nnz x f64, p(predicted | conditioning)
 *     v2: has_counts u32  1 when counts follow, else 0
 *     v2: counts nnz x f64, links of each entry over the trainings
 *   checksum  u64      FNV-1a (64-bit) of every byte before it
 *
 * The forward table's rows are source ids and its cols target ids; the
 * reverse table the other way round. A model for one language pair
 * refuses to align or train another (xmt_aligner_set_languages). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aligner_private.h"

#define MAGIC "XMTALIGN"
#define MODEL_VERSION 2u
#define MAX_LANG 64u

/* Values go through a buffer of the model's own: a call of fread or
 * fwrite for each number took most of a model's loading and saving. */
struct io {
  FILE *fp;
  uint64_t sum; /* FNV-1a so far */
  int failed;
  size_t at, len; /* reading: next byte, bytes in buf; writing: bytes */
  unsigned char buf[65536];
};

static void feed(struct io *io, const unsigned char *p, size_t n) {
  io->sum = xmt_fnv1a(io->sum, p, n);
}

static void flush_out(struct io *io) {
  if (!io->failed && io->len > 0 &&
      fwrite(io->buf, 1, io->len, io->fp) != io->len)
    io->failed = 1;
  io->len = 0;
}

static void put(struct io *io, const void *p, size_t n) {
  if (io->failed || n == 0)
    return;
  feed(io, p, n);
  const unsigned char *s = p;
  while (n > 0) {
    if (io->len == sizeof io->buf)
      flush_out(io);
    size_t k = sizeof io->buf - io->len;
    k = k < n ? k : n;
    memcpy(io->buf + io->len, s, k);
    io->len += k;
    s += k;
    n -= k;
  }
}

static void put_u64(struct io *io, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put(io, b, 8);
}

static void put_u32(struct io *io, uint32_t v) {
  unsigned char b[4];
  for (int i = 0; i < 4; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put(io, b, 4);
}

static void put_f64(struct io *io, double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  put_u64(io, v);
}

static void get(struct io *io, void *p, size_t n) {
  unsigned char *d = p;
  for (size_t want = n; want > 0 && !io->failed;) {
    if (io->at == io->len) {
      io->len = fread(io->buf, 1, sizeof io->buf, io->fp);
      io->at = 0;
      if (io->len == 0) {
        io->failed = 1;
        break;
      }
    }
    size_t k = io->len - io->at;
    k = k < want ? k : want;
    memcpy(d, io->buf + io->at, k);
    io->at += k;
    d += k;
    want -= k;
  }
  if (io->failed) {
    memset(p, 0, n);
    return;
  }
  feed(io, p, n);
}

/* Whether the file has nothing after what was read. */
static int at_end(struct io *io) {
  return io->at == io->len && fgetc(io->fp) == EOF;
}

static uint64_t get_u64(struct io *io) {
  unsigned char b[8];
  get(io, b, 8);
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | b[i];
  return v;
}

static uint32_t get_u32(struct io *io) {
  unsigned char b[4];
  get(io, b, 4);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static double get_f64(struct io *io) {
  uint64_t v = get_u64(io);
  double d;
  memcpy(&d, &v, 8);
  return d;
}

/* --- Saving ----------------------------------------------------------------
 */

static void put_vocab(struct io *io, const struct xmt_vocab *v) {
  put_u32(io, v->count);
  put_u64(io, v->start[v->count]);
  for (uint32_t id = 0; id < v->count; id++)
    put_u32(io, (uint32_t)(v->start[id + 1] - v->start[id]));
  if (v->bytes.len > 0)
    put(io, v->bytes.data, v->bytes.len);
}

static void put_table(struct io *io, const struct xmt_ttable *t) {
  put_u32(io, t->rows);
  put_u64(io, t->nnz);
  for (uint32_t e = 0; e < t->rows; e++)
    put_u32(io, (uint32_t)(t->row_start[e + 1] - t->row_start[e]));
  for (uint64_t k = 0; k < t->nnz; k++)
    put_u32(io, t->col[k]);
  for (uint64_t k = 0; k < t->nnz; k++)
    put_f64(io, t->prob[k]);
  put_u32(io, t->count != NULL);
  for (uint64_t k = 0; t->count != NULL && k < t->nnz; k++)
    put_f64(io, t->count[k]);
}

/* The vocabularies and tables of an empty model: each vocabulary the NULL
 * word alone, each table one empty row without counts. */
static void put_empty(struct io *io) {
  for (int v = 0; v < 2; v++) {
    put_u32(io, 1);
    put_u64(io, 0);
    put_u32(io, 0);
  }
  for (int d = 0; d < 2; d++) {
    put_u32(io, 1);
    put_u64(io, 0);
    put_u32(io, 0);
    put_u32(io, 0);
  }
}

static void put_lang(struct io *io, const char *lang) {
  size_t n = lang != NULL ? strlen(lang) : 0;
  if (n > MAX_LANG)
    n = 0; /* not a language tag: unknown */
  put_u32(io, (uint32_t)n);
  put(io, lang, n);
}

xmt_status xmt_aligner_model_call(xmt_aligner *a, const char *path,
                                  int saving) {
  if (a == NULL)
    return XMT_ERR_USAGE;
  xmt_error_clear(&a->err);
  if (path == NULL)
    return xmt_error_set(&a->err, XMT_ERR_USAGE, "no file name");
  if (saving && !a->trained && a->pairs > 0)
    return xmt_error_at(&a->err, XMT_ERR_USAGE, XMT_IN(path),
                        "no model to save: train the aligner first");
  if (!saving && (a->pairs > 0 || a->trained || a->empty_model))
    return xmt_error_at(&a->err, XMT_ERR_USAGE, XMT_IN(path),
                        "a model loads only into a new aligner");
  return XMT_OK;
}

xmt_status xmt_aligner_put_model(const xmt_aligner *a, FILE *fp, int *e) {
  struct io io = {fp, XMT_FNV1A_BASIS, 0, 0, 0, {0}};
  const struct xmt_aligner_options *o = &a->opt;
  put(&io, MAGIC, 8);
  put_u32(&io, MODEL_VERSION);
  put_u32(&io, (o->favor_diagonal ? 1u : 0) | (o->optimize_tension ? 2u : 0) |
                   (o->variational_bayes ? 4u : 0) | (o->lowercase ? 8u : 0));
  put_u32(&io, o->iterations);
  put_u32(&io, 0);
  put_f64(&io, o->prob_align_null);
  put_f64(&io, o->alpha);
  put_f64(&io, o->tension);
  put_u32(&io, o->model == XMT_MODEL_BAYES);
  put_u32(&io, 0);
  /* An aligner that learnt nothing writes an empty model: no document,
   * no word but NULL, empty tables; the languages it was set to. */
  int empty = !a->trained;
  put_u64(&io, empty ? 0 : a->documents);
  for (int s = 0; s < 2; s++)
    put_lang(&io,
             empty && a->model_lang[s] == NULL ? a->lang[s] : a->model_lang[s]);
  for (int d = 0; d < 2; d++) {
    put_f64(&io, a->dir[d].tension);
    put_f64(&io, a->dir[d].mean_len_ratio);
  }
  if (empty) {
    put_empty(&io);
  } else {
    put_vocab(&io, &a->vocab[XMT_SRC]);
    put_vocab(&io, &a->vocab[XMT_TGT]);
    put_table(&io, &a->dir[XMT_FWD].t);
    put_table(&io, &a->dir[XMT_REV].t);
  }
  put_u64(&io, io.sum);
  flush_out(&io);
  *e = io.failed ? errno : 0;
  return io.failed ? XMT_ERR_WRITE : XMT_OK;
}

/* --- Loading ---------------------------------------------------------------
 */

static const char *get_vocab(struct io *io, struct xmt_vocab *v) {
  uint32_t count = get_u32(io);
  uint64_t bytes = get_u64(io);
  if (io->failed)
    return NULL;
  if (count == 0 || bytes > ((uint64_t)1 << 40))
    return "bad vocabulary size";
  uint32_t *lens = calloc(count, sizeof *lens);
  char *data = malloc((size_t)bytes + 1);
  const char *bad = lens == NULL || data == NULL ? "out of memory" : NULL;
  uint64_t total = 0;
  for (uint32_t id = 0; id < count && bad == NULL && !io->failed; id++) {
    lens[id] = get_u32(io);
    total += lens[id];
  }
  if (bad == NULL && !io->failed && (total != bytes || lens[0] != 0))
    bad = "bad vocabulary lengths";
  if (bad == NULL)
    get(io, data, (size_t)bytes);
  uint64_t at = 0;
  for (uint32_t id = 1; id < count && bad == NULL && !io->failed; id++) {
    uint32_t got;
    if (xmt_vocab_intern(v, data + at, lens[id], &got) != XMT_OK)
      bad = "out of memory";
    else if (got != id)
      bad = "a word appears twice in the vocabulary";
    at += lens[id];
  }
  free(lens);
  free(data);
  return bad;
}

static const char *get_lang(struct io *io, char **lang) {
  uint32_t n = get_u32(io);
  if (io->failed)
    return NULL;
  if (n > MAX_LANG)
    return "bad language tag";
  if (n == 0)
    return NULL;
  if ((*lang = malloc(n + 1)) == NULL)
    return "out of memory";
  get(io, *lang, n);
  (*lang)[n] = '\0';
  return NULL;
}

static const char *get_table(struct io *io, struct xmt_ttable *t, uint32_t rows,
                             uint32_t cols, uint32_t version) {
  memset(t, 0, sizeof *t);
  uint32_t r = get_u32(io);
  uint64_t nnz = get_u64(io);
  if (io->failed)
    return NULL;
  if (r != rows)
    return "table and vocabulary sizes differ";
  if (nnz > (uint64_t)rows * cols)
    return "bad table size";
  t->rows = rows;
  t->nnz = nnz;
  t->row_start = malloc(((size_t)rows + 1) * sizeof *t->row_start);
  t->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *t->col);
  t->prob = malloc((size_t)(nnz ? nnz : 1) * sizeof *t->prob);
  if (t->row_start == NULL || t->col == NULL || t->prob == NULL)
    return "out of memory";
  t->row_start[0] = 0;
  for (uint32_t e = 0; e < rows; e++)
    t->row_start[e + 1] = t->row_start[e] + get_u32(io);
  if (io->failed)
    return NULL;
  if (t->row_start[rows] != nnz)
    return "bad table row lengths";
  for (uint64_t k = 0; k < nnz; k++)
    t->col[k] = get_u32(io);
  for (uint64_t k = 0; k < nnz; k++)
    t->prob[k] = get_f64(io);
  uint32_t has_counts = version >= 2 ? get_u32(io) : 0;
  if (io->failed)
    return NULL;
  if (has_counts > 1)
    return "bad table counts flag";
  if (has_counts &&
      (t->count = malloc((size_t)(nnz ? nnz : 1) * sizeof *t->count)) == NULL)
    return "out of memory";
  for (uint64_t k = 0; has_counts && k < nnz; k++)
    if (!((t->count[k] = get_f64(io)) >= 0))
      return "bad count";
  if (io->failed)
    return NULL;
  for (uint32_t e = 0; e < rows; e++)
    for (uint64_t k = t->row_start[e]; k < t->row_start[e + 1] && k < nnz; k++)
      if (t->col[k] >= cols ||
          (k > t->row_start[e] && t->col[k] <= t->col[k - 1]))
        return "bad table entry";
  for (uint64_t k = 0; k < nnz; k++)
    if (!(t->prob[k] >= 0 && t->prob[k] <= 1))
      return "bad probability";
  return NULL;
}

/* The options, kind, languages and directions' parameters that follow the
 * version (flags through the two directions' tension and length ratio);
 * NULL, or what is wrong. Not every read is checked: the caller looks at
 * io->failed. */
static const char *get_header(struct io *io, uint32_t version,
                              struct xmt_aligner_options *o,
                              struct xmt_direction dir[2], char *lang[2],
                              uint64_t *documents) {
  const char *bad = NULL;
  uint32_t flags = get_u32(io);
  o->favor_diagonal = (flags & 1) != 0;
  o->optimize_tension = (flags & 2) != 0;
  o->variational_bayes = (flags & 4) != 0;
  o->lowercase = (flags & 8) != 0;
  o->iterations = get_u32(io);
  uint32_t reserved = get_u32(io);
  o->prob_align_null = get_f64(io);
  o->alpha = get_f64(io);
  o->tension = get_f64(io);
  uint32_t kind = 0, reserved2 = 0;
  if (version >= 2) {
    kind = get_u32(io);
    reserved2 = get_u32(io);
    *documents = get_u64(io);
    bad = get_lang(io, &lang[0]);
    if (bad == NULL)
      bad = get_lang(io, &lang[1]);
    if (bad == NULL && !io->failed && (kind > 1 || reserved2 != 0))
      bad = "bad model kind";
  }
  for (int d = 0; d < 2; d++) {
    dir[d].tension = get_f64(io);
    dir[d].mean_len_ratio = get_f64(io);
  }
  if (bad == NULL && !io->failed &&
      ((flags & ~15u) != 0 || reserved != 0 || o->iterations == 0 ||
       !(o->prob_align_null >= 0) || !(o->prob_align_null < 1) ||
       !(o->alpha > 0) || !(dir[0].tension > 0) || !(dir[1].tension > 0)))
    bad = "bad model options";
  return bad;
}

xmt_status xmt_aligner_get_model(xmt_aligner *a, FILE *fp, const char *path) {
  struct io io = {fp, XMT_FNV1A_BASIS, 0, 0, 0, {0}};
  char magic[8];
  get(&io, magic, 8);
  uint32_t version = get_u32(&io);
  const char *bad = NULL;
  if (io.failed || memcmp(magic, MAGIC, 8) != 0)
    bad = "not an xliffmt aligner model";
  if (bad == NULL && version != MODEL_VERSION && version != 1)
    return xmt_error_at(&a->err, XMT_ERR_FORMAT, XMT_IN(path),
                        "aligner model format version %lu; this xliffmt "
                        "reads versions 1 to %u",
                        (unsigned long)version, MODEL_VERSION);
  struct xmt_aligner_options o = a->opt;
  struct xmt_direction dir[2];
  memset(dir, 0, sizeof dir);
  char *lang[2] = {NULL, NULL};
  uint64_t documents = 1;
  if (bad == NULL)
    bad = get_header(&io, version, &o, dir, lang, &documents);
  if (bad == NULL)
    bad = get_vocab(&io, &a->vocab[XMT_SRC]);
  if (bad == NULL)
    bad = get_vocab(&io, &a->vocab[XMT_TGT]);
  uint32_t ns = a->vocab[XMT_SRC].count, nt = a->vocab[XMT_TGT].count;
  if (bad == NULL && !io.failed)
    bad = get_table(&io, &dir[XMT_FWD].t, ns, nt, version);
  if (bad == NULL && !io.failed)
    bad = get_table(&io, &dir[XMT_REV].t, nt, ns, version);
  /* A model of no document is empty (put_empty): it knows no word. */
  if (bad == NULL && !io.failed && documents == 0 &&
      (ns != 1 || nt != 1 || dir[XMT_FWD].t.nnz > 0 || dir[XMT_REV].t.nnz > 0))
    bad = "words in a model of no document";
  if (bad == NULL && !io.failed) {
    uint64_t want = io.sum, got = get_u64(&io);
    if (!io.failed && got != want)
      bad = "corrupt (checksum mismatch)";
    else if (!io.failed && !at_end(&io))
      bad = "trailing data after the model";
  }
  if (bad == NULL && io.failed)
    bad = ferror(io.fp) ? "read error" : "truncated";
  if (bad != NULL) {
    free(lang[0]);
    free(lang[1]);
    xmt_ttable_free(&dir[0].t);
    xmt_ttable_free(&dir[1].t);
    for (int s = 0; s < 2; s++) {
      xmt_vocab_free(&a->vocab[s]);
      if (xmt_vocab_init(&a->vocab[s]) != XMT_OK)
        return xmt_error_at(&a->err, XMT_ERR_NOMEM, XMT_IN(path),
                            "out of memory");
    }
    return xmt_error_at(&a->err, XMT_ERR_FORMAT, XMT_IN(path),
                        "cannot load the aligner model: %s", bad);
  }
  o.threads = a->opt.threads;
  o.seed_weight = a->opt.seed_weight;
  o.model = a->opt.model; /* the model to train next is the caller's */
  o.string_priors = a->opt.string_priors;
  a->opt = o;
  a->dir[0] = dir[0];
  a->dir[1] = dir[1];
  /* An empty model leaves the aligner as new (it trains unseeded), but
   * with the model's languages, and aligning with it links nothing. */
  a->trained = documents > 0;
  a->empty_model = documents == 0;
  a->documents = documents;
  for (int s = 0; s < 2; s++) {
    a->model_lang[s] = lang[s];
    a->model_words[s] = a->trained ? a->vocab[s].count : 0;
  }
  free(a->model_path);
  a->model_path = xmt_strdup(path); /* for messages only: NULL is no harm */
  return xmt_aligner_check_languages(a, path);
}
