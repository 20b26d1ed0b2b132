/* lexicon_apertium.c -- Apertium transducers into prior links. */

/* The lemma pairs on the paths of lt-print's AT&T text, kept in the user's
 * cache folder for the next run. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lexicon_private.h"

extern char **environ;

#define MAX_STATES (1u << 26) /* states of one transducer section */
#define LEMMA_MAX 96          /* bytes of an Apertium lemma */

/* --- Apertium: lt-print's AT&T text ---------------------------------------
 * lt-print -H prints each section of the transducer as lines "from TAB to
 * TAB input TAB output TAB weight" and "final TAB weight", sections
 * separated by "--"; epsilon is @0@, a space @_SPACE_@, tags look like
 * <n>. The lemma pairs are the paths' symbols before the first tag of each
 * side. Sections also hold regular expressions (numbers) with cycles: arcs
 * back into the path are dropped, and a step budget bounds the walk. */

enum { SYM_CHAR, SYM_TAG, SYM_EPS, SYM_SPACE, SYM_JOIN };

struct arc {
  uint32_t from, to, in, out;
};

struct att {
  struct xmt_lex_match *m;
  const struct xmt_lexfile *f;
  struct xmt_buf *pairs; /* NULL, or gets every pair, "in TAB out NL" */
  struct xmt_vocab syms;
  int syms_ok;
  unsigned char *sym_class;
  size_t sym_cap;
  struct arc *arcs;
  size_t narcs, arcs_cap;
  uint32_t *finals;
  size_t nfinals, finals_cap;
  uint32_t max_state;
  /* per section */
  uint32_t *first;      /* state -> its first arc in order */
  uint32_t *order;      /* arcs by state */
  unsigned char *flags; /* per state: FINAL, PLAIN, GRAY, BLACK */
  unsigned char *back;  /* per arc (in order): into the DFS path */
};

enum { F_FINAL = 1, F_PLAIN = 2, F_GRAY = 4, F_BLACK = 8 };

static void att_free(struct att *a) {
  if (a->syms_ok)
    xmt_vocab_free(&a->syms);
  free(a->sym_class);
  free(a->arcs);
  free(a->finals);
  free(a->first);
  free(a->order);
  free(a->flags);
  free(a->back);
}

static int sym_class_of(const char *s, size_t n) {
  if ((n == 3 && memcmp(s, "@0@", 3) == 0) ||
      (n == 19 && memcmp(s, "@_EPSILON_SYMBOL_@", 18) == 0))
    return SYM_EPS;
  if ((n == 9 && memcmp(s, "@_SPACE_@", 9) == 0) ||
      (n == 7 && memcmp(s, "@_TAB_@", 7) == 0) || (n == 1 && *s == ' '))
    return SYM_SPACE;
  if (n == 1 && *s == '#')
    return SYM_JOIN;
  if (n > 2 && s[0] == '<' && s[n - 1] == '>')
    return SYM_TAG;
  return SYM_CHAR;
}

static xmt_status att_sym(struct att *a, const char *s, size_t n,
                          uint32_t *id) {
  xmt_status st = xmt_vocab_intern(&a->syms, s, n, id);
  if (st != XMT_OK)
    return st;
  if (*id >= a->sym_cap) {
    unsigned char *c =
        xmt_grow_array(a->sym_class, &a->sym_cap, (size_t)*id + 1, 1);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    a->sym_class = c;
  }
  a->sym_class[*id] = (unsigned char)sym_class_of(s, n);
  return XMT_OK;
}

static int parse_state(struct xmt_lex_span f, uint32_t *v) {
  uint64_t x = 0;
  if (f.n == 0 || f.n > 10)
    return 0;
  for (size_t i = 0; i < f.n; i++) {
    if (f.s[i] < '0' || f.s[i] > '9')
      return 0;
    x = x * 10 + (uint64_t)(f.s[i] - '0');
  }
  if (x >= MAX_STATES)
    return 0;
  *v = (uint32_t)x;
  return 1;
}

/* Room for element n (0-based) of *p. */
static xmt_status att_grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return XMT_OK;
  void *q = xmt_grow_array(*p, cap, n + 1, size);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  *p = q;
  return XMT_OK;
}

/* One line of a section: an arc or a final state. */
static xmt_status att_line(struct att *a, const char *s, size_t n,
                           unsigned long lineno, struct xmt_error_store *err) {
  struct xmt_lex_span f[5];
  size_t nf = 0;
  for (const char *p = s, *end = s + n; p <= end && nf < 5;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    const char *fe = tab != NULL ? tab : end;
    f[nf++] = (struct xmt_lex_span){p, (size_t)(fe - p)};
    p = fe + 1;
  }
  while (nf > 0 && f[nf - 1].n == 0) /* lt-print ends lines with a tab */
    nf--;
  struct arc arc;
  xmt_status st = XMT_OK;
  if (nf >= 4 && parse_state(f[0], &arc.from) && parse_state(f[1], &arc.to)) {
    st = att_sym(a, f[2].s, f[2].n, &arc.in);
    if (st == XMT_OK)
      st = att_sym(a, f[3].s, f[3].n, &arc.out);
    if (st == XMT_OK)
      st = att_grow((void **)&a->arcs, &a->arcs_cap, a->narcs, sizeof arc);
    if (st == XMT_OK)
      a->arcs[a->narcs++] = arc;
    uint32_t hi = arc.from > arc.to ? arc.from : arc.to;
    a->max_state = hi > a->max_state ? hi : a->max_state;
    return st;
  }
  uint32_t q;
  if (nf >= 1 && nf <= 2 && parse_state(f[0], &q)) {
    st = att_grow((void **)&a->finals, &a->finals_cap, a->nfinals, sizeof q);
    if (st == XMT_OK)
      a->finals[a->nfinals++] = q;
    a->max_state = q > a->max_state ? q : a->max_state;
    return st;
  }
  return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(a->f->path),
                      "unexpected lt-print output at line %lu", lineno);
}

/* Arcs grouped by state (first[s] .. first[s + 1] in order), finals
 * flagged. */
static xmt_status att_index(struct att *a, uint32_t nstates) {
  free(a->first);
  free(a->order);
  free(a->flags);
  free(a->back);
  a->first = calloc((size_t)nstates + 1, sizeof *a->first);
  a->order = malloc((a->narcs ? a->narcs : 1) * sizeof *a->order);
  a->flags = calloc(nstates, 1);
  a->back = calloc(a->narcs ? a->narcs : 1, 1);
  if (a->first == NULL || a->order == NULL || a->flags == NULL ||
      a->back == NULL)
    return XMT_ERR_NOMEM;
  for (size_t k = 0; k < a->narcs; k++)
    a->first[a->arcs[k].from + 1]++;
  for (uint32_t s = 0; s < nstates; s++)
    a->first[s + 1] += a->first[s];
  uint32_t *fill = malloc((size_t)nstates * sizeof *fill);
  if (fill == NULL)
    return XMT_ERR_NOMEM;
  memcpy(fill, a->first, (size_t)nstates * sizeof *fill);
  for (size_t k = 0; k < a->narcs; k++)
    a->order[fill[a->arcs[k].from]++] = (uint32_t)k;
  free(fill);
  for (size_t k = 0; k < a->nfinals; k++)
    a->flags[a->finals[k]] |= F_FINAL;
  return XMT_OK;
}

/* Whether an arc may be part of a single-word entry's path. */
static int arc_plain(const struct att *a, const struct arc *arc) {
  return a->sym_class[arc->in] != SYM_JOIN &&
         a->sym_class[arc->out] != SYM_JOIN;
}

/* Depth-first from the start: marks arcs back into the path, and states
 * with a path to a final state free of '#' (multiword joins) and of back
 * arcs (PLAIN), in post-order. */
static xmt_status att_classify(struct att *a, uint32_t start,
                               uint32_t nstates) {
  struct frame {
    uint32_t s, next;
  } *stack = malloc((size_t)nstates * sizeof *stack);
  if (stack == NULL)
    return XMT_ERR_NOMEM;
  size_t depth = 0;
  stack[depth++] = (struct frame){start, a->first[start]};
  a->flags[start] |= F_GRAY;
  while (depth > 0) {
    struct frame *fr = &stack[depth - 1];
    if (fr->next == a->first[fr->s + 1]) {
      a->flags[fr->s] = (unsigned char)((a->flags[fr->s] & ~F_GRAY) | F_BLACK);
      if (a->flags[fr->s] & F_FINAL)
        a->flags[fr->s] |= F_PLAIN;
      for (uint32_t k = a->first[fr->s]; k < a->first[fr->s + 1]; k++) {
        const struct arc *arc = &a->arcs[a->order[k]];
        if (!a->back[k] && arc_plain(a, arc) && (a->flags[arc->to] & F_PLAIN))
          a->flags[fr->s] |= F_PLAIN;
      }
      depth--;
      continue;
    }
    uint32_t k = fr->next++, t = a->arcs[a->order[k]].to;
    if (a->flags[t] & F_GRAY)
      a->back[k] = 1;
    else if (!(a->flags[t] & F_BLACK)) {
      a->flags[t] |= F_GRAY;
      stack[depth++] = (struct frame){t, a->first[t]};
    }
  }
  free(stack);
  return XMT_OK;
}

struct walk {
  uint32_t s, next;
  uint8_t in_len, out_len, in_done, out_done;
};

/* Links lemma pair (in, out) of file f, which says which side is ours. */
static xmt_status link_pair(struct xmt_lex_match *m,
                            const struct xmt_lexfile *f, const char *in,
                            size_t in_len, const char *out, size_t out_len) {
  int r = f->reversed;
  const char *w[2] = {r ? out : in, r ? in : out};
  size_t len[2] = {r ? out_len : in_len, r ? in_len : out_len};
  return xmt_lex_pair(m, w, len, 1.0);
}

/* Emits the lemma pair of a path: links it, and keeps it for the cache. */
static xmt_status att_emit(struct att *a, const char *in, size_t in_len,
                           const char *out, size_t out_len) {
  if (in_len == 0 || out_len == 0)
    return XMT_OK;
  xmt_status st = XMT_OK;
  if (a->pairs != NULL) {
    st = xmt_buf_append(a->pairs, in, in_len);
    if (st == XMT_OK)
      st = xmt_buf_append_byte(a->pairs, '\t');
    if (st == XMT_OK)
      st = xmt_buf_append(a->pairs, out, out_len);
    if (st == XMT_OK)
      st = xmt_buf_append_byte(a->pairs, '\n');
  }
  return st == XMT_OK ? link_pair(a->m, a->f, in, in_len, out, out_len) : st;
}

/* Appends symbol sym to one side's lemma; 0 if the path is to be left
 * (a multiword lemma, or too long). */
static int att_extend(const struct att *a, uint32_t sym, char *lemma,
                      uint8_t *len, uint8_t *done) {
  int c = a->sym_class[sym];
  if (*done || c == SYM_EPS)
    return 1;
  if (c == SYM_TAG) {
    *done = 1;
    return 1;
  }
  if (c != SYM_CHAR)
    return 0;
  size_t n;
  const char *s = xmt_vocab_word(&a->syms, sym, &n);
  if (*len + n > LEMMA_MAX)
    return 0;
  memcpy(lemma + *len, s, n);
  *len = (uint8_t)(*len + n);
  return 1;
}

/* Every single-word lemma pair of the section, within a step budget. */
static xmt_status att_walk(struct att *a, uint32_t start, uint32_t nstates) {
  struct walk *stack = malloc(((size_t)nstates + 1) * sizeof *stack);
  char in[LEMMA_MAX], out[LEMMA_MAX];
  if (stack == NULL)
    return XMT_ERR_NOMEM;
  size_t depth = 0, steps = 0, budget = 16 * a->narcs + (1u << 20);
  xmt_status st = XMT_OK;
  stack[depth++] = (struct walk){start, a->first[start], 0, 0, 0, 0};
  while (depth > 0 && st == XMT_OK && steps++ < budget) {
    struct walk *w = &stack[depth - 1];
    if (w->in_done && w->out_done) {
      st = att_emit(a, in, w->in_len, out, w->out_len);
      depth--;
      continue;
    }
    if (w->next == a->first[w->s] && (a->flags[w->s] & F_FINAL))
      st = att_emit(a, in, w->in_len, out, w->out_len);
    if (w->next == a->first[w->s + 1]) {
      depth--;
      continue;
    }
    uint32_t k = w->next++;
    const struct arc *arc = &a->arcs[a->order[k]];
    if (a->back[k] || !arc_plain(a, arc) || !(a->flags[arc->to] & F_PLAIN) ||
        depth > nstates)
      continue;
    struct walk c = {arc->to,    a->first[arc->to], w->in_len,
                     w->out_len, w->in_done,        w->out_done};
    if (att_extend(a, arc->in, in, &c.in_len, &c.in_done) &&
        att_extend(a, arc->out, out, &c.out_len, &c.out_done))
      stack[depth++] = c;
  }
  free(stack);
  return st;
}

/* The section read so far: its lemma pairs; then it is emptied. */
static xmt_status att_section(struct att *a) {
  xmt_status st = XMT_OK;
  if (a->narcs > 0) {
    uint32_t nstates = a->max_state + 1, start = a->arcs[0].from;
    st = att_index(a, nstates);
    if (st == XMT_OK)
      st = att_classify(a, start, nstates);
    if (st == XMT_OK && (a->flags[start] & F_PLAIN))
      st = att_walk(a, start, nstates);
  }
  a->narcs = a->nfinals = 0;
  a->max_state = 0;
  return st;
}

/* Links the lemma pairs of lt-print's output text; pairs (unless NULL)
 * gets them all, as the cache keeps them. */
static xmt_status read_att(struct xmt_lex_match *m, const struct xmt_lexfile *f,
                           const struct xmt_buf *text, struct xmt_buf *pairs,
                           struct xmt_error_store *err) {
  struct att a = {.m = m, .f = f, .pairs = pairs};
  xmt_status st = xmt_vocab_init(&a.syms);
  a.syms_ok = st == XMT_OK;
  unsigned long lineno = 0;
  for (size_t at = 0; st == XMT_OK && at < text->len;) {
    const char *s = text->data + at;
    const char *nl = memchr(s, '\n', text->len - at);
    size_t n = nl != NULL ? (size_t)(nl - s) : text->len - at;
    at += n + 1;
    lineno++;
    if (n == 2 && memcmp(s, "--", 2) == 0)
      st = att_section(&a);
    else if (n > 0)
      st = att_line(&a, s, n, lineno, err);
  }
  if (st == XMT_OK)
    st = att_section(&a);
  att_free(&a);
  return st;
}

/* --- The cache of lemma pairs ---------------------------------------------
 * lt-print takes about a second on a large pair, every run; the lemma pairs
 * of a transducer depend on it alone, so they are kept in a file of the
 * user's cache folder, named by the transducer's file name and a hash of
 * its absolute path. The file's first line is its key, "xliffmt-apertium-
 * pairs VERSION SIZE MTIME_SEC.NSEC PATH"; the pairs follow ("in TAB out"
 * lines, as the walk found them), and the last line, "end COUNT HASH",
 * holds their number and a hash of all the lines before it. A file with
 * another key, or that does not hold together, is read from lt-print
 * again and replaced. Files are written whole under another name and
 * renamed, so that readers, in other processes too, see the old one or
 * the new one whole. */

#define CACHE_VERSION 1
#define CACHE_MAX (256u << 20) /* bytes of a cache file read */

/* The cache file of a transducer. */
struct pair_cache {
  char *path;         /* NULL: the transducer's pairs are not cached */
  struct xmt_buf key; /* the file's first line */
};

static void cache_free(struct pair_cache *c) {
  free(c->path);
  xmt_buf_free(&c->key);
}

/* dir, made 0700 when missing (parent first, unless NULL); NULL when it is
 * not a folder of the user's own (*nomem: dir is NULL, out of memory). In
 * another's folder, a cache file could put words into our alignments. */
static char *usable_dir(char *dir, const char *parent, int *nomem) {
  struct stat sb;
  *nomem = dir == NULL;
  if (dir == NULL)
    return NULL;
  /* mkdir fails when the folder is there, or cannot be made: stat tells */
  if (parent != NULL)
    (void)mkdir(parent, 0700);
  (void)mkdir(dir, 0700);
  if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == geteuid())
    return dir;
  free(dir);
  return NULL;
}

/* The cache folder: $XLIFFMT_CACHE_DIR (empty: no cache), else
 * $XDG_CACHE_HOME/xliffmt (absolute, as the XDG spec wants), else
 * $HOME/.cache/xliffmt; NULL when there is none to use. */
static char *cache_dir(int *nomem) {
  const char *own = getenv("XLIFFMT_CACHE_DIR");
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  *nomem = 0;
  if (own != NULL)
    return own[0] != '\0' ? usable_dir(xmt_strdup(own), NULL, nomem) : NULL;
  if (xdg != NULL && xdg[0] == '/')
    return usable_dir(xmt_lex_join_path(xdg, "xliffmt", ""), xdg, nomem);
  if (home == NULL || home[0] == '\0')
    return NULL;
  char *parent = xmt_lex_join_path(home, ".cache", "");
  char *dir =
      parent != NULL
          ? usable_dir(xmt_lex_join_path(parent, "xliffmt", ""), parent, nomem)
          : NULL;
  *nomem = *nomem || parent == NULL;
  free(parent);
  return dir;
}

/* The cache file name of the transducer at absolute path real. */
static char *cache_name(const char *dir, const char *real) {
  const char *base = strrchr(real, '/') + 1;
  size_t n = strlen(base);
  n -= xmt_lex_ends_with(base, ".bin") ? 4 : 0;
  char name[128];
  snprintf(name, sizeof name, "apertium-%.*s-%016" PRIx64 ".pairs",
           (int)(n < 64 ? n : 64), base,
           xmt_fnv1a(XMT_FNV1A_BASIS, real, strlen(real)));
  return xmt_lex_join_path(dir, name, "");
}

/* c = the cache file of transducer bin and its key; c->path stays NULL when
 * bin cannot be cached (it cannot be found, or its path has a newline). */
static xmt_status cache_init(struct pair_cache *c, const char *dir,
                             const char *bin) {
  memset(c, 0, sizeof *c);
  errno = 0;
  char *real = realpath(bin, NULL);
  struct stat sb;
  if (real == NULL || stat(real, &sb) != 0 || strchr(real, '\n') != NULL) {
    int nomem = real == NULL && errno == ENOMEM;
    free(real);
    return nomem ? XMT_ERR_NOMEM : XMT_OK;
  }
  char num[128];
  snprintf(num, sizeof num, "xliffmt-apertium-pairs %d %llu %lld.%09ld ",
           CACHE_VERSION, (unsigned long long)sb.st_size,
           (long long)sb.st_mtim.tv_sec, (long)sb.st_mtim.tv_nsec);
  xmt_status st = xmt_buf_append_str(&c->key, num);
  if (st == XMT_OK)
    st = xmt_buf_append_str(&c->key, real);
  if (st == XMT_OK)
    st = xmt_buf_append_byte(&c->key, '\n');
  if (st == XMT_OK && (c->path = cache_name(dir, real)) == NULL)
    st = XMT_ERR_NOMEM;
  free(real);
  if (st != XMT_OK)
    cache_free(c);
  return st;
}

/* The last line of a cache file, for its pairs (n lines, hashed h). */
static int cache_trailer(char *buf, size_t size, size_t n, uint64_t h) {
  return snprintf(buf, size, "end %zu %016" PRIx64 "\n", n, h);
}

/* Whether a pair line is one the walk could have written. */
static int pair_line_ok(const char *s, size_t n) {
  const char *tab = memchr(s, '\t', n);
  if (tab == NULL)
    return 0;
  size_t a = (size_t)(tab - s), b = n - a - 1;
  return a > 0 && a <= LEMMA_MAX && b > 0 && b <= LEMMA_MAX &&
         memchr(tab + 1, '\t', b) == NULL;
}

/* Whether text is a whole cache file of key; *end = where its pairs end
 * (they start after the key). */
static int cache_whole(const struct xmt_buf *text, const struct xmt_buf *key,
                       size_t *end) {
  if (text->len <= key->len || memcmp(text->data, key->data, key->len) != 0 ||
      text->data[text->len - 1] != '\n')
    return 0;
  size_t at = key->len, lines = 0;
  for (;;) { /* a newline is found: text ends with one */
    const char *nl = memchr(text->data + at, '\n', text->len - at);
    size_t n = (size_t)(nl - (text->data + at));
    if (nl == text->data + text->len - 1 || !pair_line_ok(text->data + at, n))
      break;
    at += n + 1;
    lines++;
  }
  char want[64];
  int k = cache_trailer(want, sizeof want, lines,
                        xmt_fnv1a(XMT_FNV1A_BASIS, text->data, at));
  *end = at;
  return k > 0 && text->len - at == (size_t)k &&
         memcmp(text->data + at, want, (size_t)k) == 0;
}

/* Reads c's file into pairs, keeping only its pairs; *hit = 0 (pairs
 * empty) when it is missing, another user's, for another key, or not
 * whole. */
static xmt_status cache_read(const struct pair_cache *c, struct xmt_buf *pairs,
                             int *hit) {
  *hit = 0;
  xmt_buf_reset(pairs);
  int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return XMT_OK;
  struct stat sb;
  int r = -1, e = 0;
  if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
      (uint64_t)sb.st_size <= CACHE_MAX) {
    r = xmt_lex_read_all(fd, pairs);
    e = errno;
  }
  close(fd);
  size_t end;
  *hit = r == 0 && cache_whole(pairs, &c->key, &end);
  if (*hit) {
    pairs->len = end - c->key.len;
    memmove(pairs->data, pairs->data + c->key.len, pairs->len);
    pairs->data[pairs->len] = '\0';
  } else
    xmt_buf_reset(pairs);
  return r != 0 && e == ENOMEM ? XMT_ERR_NOMEM : XMT_OK;
}

/* Links the pairs a cache file held. */
static xmt_status cache_link(struct xmt_lex_match *m,
                             const struct xmt_lexfile *f,
                             const struct xmt_buf *pairs) {
  xmt_status st = XMT_OK;
  for (size_t at = 0; st == XMT_OK && at < pairs->len;) {
    const char *s = pairs->data + at;
    const char *nl = memchr(s, '\n', pairs->len - at);
    const char *tab = memchr(s, '\t', (size_t)(nl - s));
    st = link_pair(m, f, s, (size_t)(tab - s), tab + 1, (size_t)(nl - tab - 1));
    at += (size_t)(nl - s) + 1;
  }
  return st;
}

static size_t count_lines(const struct xmt_buf *b) {
  size_t n = 0;
  for (size_t at = 0; at < b->len; n++) {
    const char *nl = memchr(b->data + at, '\n', b->len - at);
    at = nl != NULL ? (size_t)(nl - b->data) + 1 : b->len;
  }
  return n;
}

/* Writes c's file: key, pairs (as att_emit keeps them), trailer. Failures
 * leave the cache as it was: it only saves time. */
static void cache_write(const struct pair_cache *c,
                        const struct xmt_buf *pairs) {
  char trailer[64];
  /* Private like its folder; synced before it is named, so a crash leaves
   * no cache cut short; close-on-exec, so it does not leak into lt-print
   * children. */
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  if (xmt_atomic_file_open(&af, c->path,
                           XMT_ATOMIC_FILE_SYNC | XMT_ATOMIC_FILE_PRIVATE) !=
      XMT_OK) {
    xmt_atomic_file_abort(&af);
    return;
  }
  FILE *fp = xmt_atomic_file_stream(&af);
  uint64_t h = xmt_fnv1a(xmt_fnv1a(XMT_FNV1A_BASIS, c->key.data, c->key.len),
                         pairs->len ? pairs->data : "", pairs->len);
  int k = cache_trailer(trailer, sizeof trailer, count_lines(pairs), h);
  int ok =
      k > 0 && fwrite(c->key.data, 1, c->key.len, fp) == c->key.len &&
      fwrite(pairs->len ? pairs->data : "", 1, pairs->len, fp) == pairs->len &&
      fwrite(trailer, 1, (size_t)k, fp) == (size_t)k;
  if (ok)
    (void)xmt_atomic_file_commit(&af);
  xmt_atomic_file_abort(&af); /* nothing more to do when the commit fails */
}

/* --- Apertium: running lt-print ------------------------------------------
 * lt-print takes about a second on a large pair; all of them start before
 * the dictd files are read, and a thread each collects their output, so
 * the waits overlap. */

struct apjob {
  const struct xmt_lexfile *f;
  pid_t pid;
  int fd;
  int spawned, threaded;
  pthread_t thread;
  struct xmt_buf out; /* lt-print's output; or the cached pairs */
  int read_errno;     /* of a failed read; ENOMEM when out of memory */
  int cached;         /* out holds the pairs of the cache */
  struct pair_cache cache;
};

static void *ap_collect(void *arg) {
  struct apjob *j = arg;
  if (xmt_lex_read_all(j->fd, &j->out) != 0)
    j->read_errno = errno;
  return NULL;
}

/* Starts lt-print -H on the job's file, its output to a pipe. */
static xmt_status ap_spawn(struct apjob *j, const struct xmt_lexfile *f,
                           const char *prog, struct xmt_error_store *err) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return xmt_lex_io_error(err, f->path, "cannot run lt-print", errno);
  char arg0[] = "lt-print", arg1[] = "-H";
  char *argv[] = {arg0, arg1, f->path, NULL};
  struct xmt_spawn sp = {
      prog, argv, {XMT_SPAWN_DEVNULL, p[1], XMT_SPAWN_DEVNULL}, 0};
  int rc = xmt_spawn(&sp, &j->pid);
  close(p[1]);
  if (rc != 0) {
    close(p[0]);
    return xmt_lex_io_error(err, f->path, "cannot run lt-print", rc);
  }
  j->f = f;
  j->fd = p[0];
  j->spawned = 1;
  j->threaded = pthread_create(&j->thread, NULL, ap_collect, j) == 0;
  return XMT_OK;
}

/* Waits for the job's output and its end. */
static int ap_wait(struct apjob *j) {
  if (j->threaded)
    pthread_join(j->thread, NULL);
  else
    ap_collect(j);
  j->threaded = 0;
  close(j->fd);
  j->spawned = 0;
  int status = 0;
  while (waitpid(j->pid, &status, 0) < 0)
    if (errno != EINTR)
      return 0; /* reaped by someone else: the output decides */
  return status;
}

/* Ends a job early (another dictionary failed). */
static void ap_abort(struct apjob *j) {
  if (!j->spawned)
    return;
  kill(j->pid, SIGTERM);
  ap_wait(j);
}

/* Reads the job's lt-print output, and caches its pairs. */
static xmt_status ap_finish(struct xmt_lex_match *m, struct apjob *j,
                            struct xmt_error_store *err) {
  if (j->cached)
    return cache_link(m, j->f, &j->out);
  int status = ap_wait(j);
  if (j->read_errno == ENOMEM)
    return XMT_ERR_NOMEM;
  if (j->read_errno != 0)
    return xmt_lex_io_error(err, j->f->path, "cannot read lt-print's output",
                            j->read_errno);
  if (WIFSIGNALED(status))
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(j->f->path),
                        "lt-print killed by signal %d", WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(j->f->path),
                        "lt-print failed (exit status %d)",
                        WEXITSTATUS(status));
  struct xmt_buf pairs = {0};
  xmt_status st =
      read_att(m, j->f, &j->out, j->cache.path != NULL ? &pairs : NULL, err);
  if (st == XMT_OK && j->cache.path != NULL)
    cache_write(&j->cache, &pairs);
  xmt_buf_free(&pairs);
  return st;
}

/* --- The files of a list ------------------------------------------------- */

struct aplist {
  struct apjob *jobs; /* per file of the list; f NULL: not read here */
  size_t n;
  char *cache_dir; /* NULL: no cache */
  char *prog;      /* lt-print's path, once looked for; NULL: not found */
  int looked;
};

/* Starts reading Apertium file f (jobs[i]): from the cache, else through
 * lt-print. Without lt-print, a file "auto" found is left out, and a named
 * one is an error. */
static xmt_status start_one(struct aplist *ap, size_t i,
                            const struct xmt_lexfile *f,
                            const struct xmt_prior_options *o,
                            struct xmt_error_store *err) {
  struct apjob *j = &ap->jobs[i];
  int hit = 0, nomem = 0;
  xmt_status st = XMT_OK;
  if (ap->cache_dir != NULL)
    st = cache_init(&j->cache, ap->cache_dir, f->path);
  if (st == XMT_OK && j->cache.path != NULL)
    st = cache_read(&j->cache, &j->out, &hit);
  if (st != XMT_OK || hit) {
    j->f = hit ? f : NULL;
    j->cached = hit;
    return st;
  }
  const char *prog = o->lt_print != NULL ? o->lt_print : "lt-print";
  if (!ap->looked)
    ap->prog = xmt_spawn_find(prog, &nomem);
  ap->looked = 1;
  if (nomem)
    return XMT_ERR_NOMEM;
  if (ap->prog == NULL && f->named)
    return xmt_error_at(err, XMT_ERR_IO, XMT_IN(f->path),
                        "cannot read an Apertium dictionary: %s not found "
                        "(Debian package lttoolbox)",
                        prog);
  return ap->prog != NULL ? ap_spawn(j, f, ap->prog, err) : XMT_OK;
}

/* Starts reading the Apertium files among the n files f (which stay until
 * ap_end). Without lt-print, files "auto" found and that have no cached
 * pairs are left out; a named one is an XMT_ERR_IO error. *state is set,
 * also on errors (NULL when out of memory). */
static xmt_status ap_start(void **state, const struct xmt_lexfile *f, size_t n,
                           const struct xmt_prior_options *o,
                           struct xmt_error_store *err) {
  struct aplist *ap = calloc(1, sizeof *ap);
  *state = ap;
  if (ap == NULL)
    return XMT_ERR_NOMEM;
  ap->n = n;
  ap->jobs = calloc(n ? n : 1, sizeof *ap->jobs);
  if (ap->jobs == NULL)
    return XMT_ERR_NOMEM;
  int any = 0, nomem = 0;
  for (size_t i = 0; i < n; i++)
    any = any || f[i].kind == XMT_LEX_APERTIUM;
  if (any)
    ap->cache_dir = cache_dir(&nomem);
  xmt_status st = nomem ? XMT_ERR_NOMEM : XMT_OK;
  for (size_t i = 0; i < n && st == XMT_OK; i++)
    if (f[i].kind == XMT_LEX_APERTIUM)
      st = start_one(ap, i, &f[i], o, err);
  return st;
}

/* Whether file i is read (not left out). */
static int ap_has(const void *state, size_t i) {
  const struct aplist *ap = state;
  return ap != NULL && i < ap->n && ap->jobs[i].f != NULL;
}

/* Links the lemma pairs of file i into m (nothing if it is left out). */
static xmt_status ap_read(struct xmt_lex_match *m, void *state,
                          const struct xmt_lexfile *f, size_t i,
                          struct xmt_error_store *err) {
  (void)f;
  if (!ap_has(state, i))
    return XMT_OK;
  return ap_finish(m, &((struct aplist *)state)->jobs[i], err);
}

/* Stops what still runs and frees the state (NULL: nothing). */
static void ap_end(void *state) {
  struct aplist *ap = state;
  if (ap == NULL)
    return;
  for (size_t i = 0; ap->jobs != NULL && i < ap->n; i++) {
    ap_abort(&ap->jobs[i]);
    xmt_buf_free(&ap->jobs[i].out);
    cache_free(&ap->jobs[i].cache);
  }
  free(ap->jobs);
  free(ap->cache_dir);
  free(ap->prog);
  free(ap);
}

/* Read last: lt-print runs in the background from ap_start on. */
const struct xmt_lex_reader xmt_lex_apertium_reader = {ap_start, ap_read,
                                                       ap_has, ap_end, 1};
