/* lexicon.c -- bilingual dictionaries for the aligner's priors: FreeDict
 * dictd files (index plus dictzip data), Apertium bilingual transducers
 * (printed by lt-print), TSV word lists, and what "auto" finds installed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "priors_private.h"

extern char **environ;

#define DEFAULT_DICTD_DIR "/usr/share/dictd"
#define DEFAULT_APERTIUM_DIR "/usr/share/apertium"
/* Sanity limits on dictionary data. */
#define MAX_ENTRY (16u << 20)  /* bytes of one dictd entry */
#define MAX_WHOLE (1ull << 31) /* bytes of a gzip file inflated whole */
#define MAX_STATES (1u << 26)  /* states of one transducer section */
#define LEMMA_MAX 96           /* bytes of an Apertium lemma */
#define PHRASE_WORDS 3         /* content words of a phrase linked */

/* --- Dictionary words -----------------------------------------------------
 * Dictionary text names a word with articles, "to", placeholders and
 * punctuation around it ("der Vertrag", "to run sth.", "l'eau"); priors
 * need the word alone, and skip phrases of several words. */

struct span {
  const char *s;
  size_t n;
};

/* Words dropped before the word of a language: articles, infinitive
 * markers, reflexive pronouns. Only while another word follows. */
static const char *const leading_words[][15] = {
    {"en", "the", "a", "an", "to", NULL},
    {"de", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen",
     "einem", "einer", "eines", "sich", NULL},
    {"fr", "le", "la", "les", "un", "une", "se", NULL},
    {"es", "el", "la", "los", "las", "lo", "un", "una", "unos", "unas", NULL},
    {"it", "il", "lo", "la", "i", "gli", "le", "un", "uno", "una", NULL},
    {"pt", "o", "a", "os", "as", "um", "uma", NULL},
    {"ca", "el", "la", "els", "les", "un", "una", NULL},
    {"nl", "de", "het", "een", "zich", NULL},
    {"hu", "a", "az", "egy", NULL},
    {"sv", "en", "ett", "att", NULL},
    {"da", "en", "et", "at", NULL},
    {"no", "en", "ei", "et", "\xc3\xa5", NULL},
    {"nb", "en", "ei", "et", "\xc3\xa5", NULL},
    {"nn", "ein", "ei", "eit", "\xc3\xa5", NULL},
    {"ro", "un", "o", NULL}};

/* Placeholders for an object: never the translation itself. */
static const char *const placeholders[] = {
    "sb.",   "sth.",    "sb",    "sth",   "sb's", "sth's", "sb.'s", "sth.'s",
    "one's", "oneself", "etw.",  "jdn.",  "jdm.", "jds.",  "jd.",   "qn",
    "qch",   "qc",      "qqn",   "qqch",  "alg.", "algn.", "vmi",   "vki",
    "vmit",  "vkit",    "vmire", "vkire", NULL};

/* Whether n bytes at w are one of the words of list (NULL-terminated). */
static int in_list(const char *const *list, const char *w, size_t n) {
  for (; *list != NULL; list++)
    if ((*list)[0] == w[0] && strncmp(*list, w, n) == 0 && (*list)[n] == '\0')
      return 1;
  return 0;
}

static const char *const *leading_list(const char *lang) {
  static const char *const none[] = {NULL};
  for (size_t i = 0; i < sizeof leading_words / sizeof *leading_words; i++)
    if (strcmp(lang, leading_words[i][0]) == 0)
      return leading_words[i] + 1;
  return none;
}

/* Punctuation trimmed off a word's ends: ASCII ones, and the UTF-8 quotes,
 * guillemets, inverted marks and ellipsis. */
static size_t punct_at(const char *s, size_t n, int at_end) {
  static const char *const wide[] = {
      "\xe2\x80\x9e", "\xe2\x80\x9c", "\xe2\x80\x9d", "\xe2\x80\x9a",
      "\xe2\x80\x98", "\xe2\x80\x99", "\xc2\xab",     "\xc2\xbb",
      "\xc2\xbf",     "\xc2\xa1",     "\xe2\x80\xa6"};
  if (n == 0)
    return 0;
  char c = at_end ? s[n - 1] : s[0];
  if ((unsigned char)c < 0x80)
    return c != '\0' && strchr("\"'!?.:()*", c) != NULL;
  for (size_t i = 0; i < sizeof wide / sizeof *wide; i++) {
    size_t k = strlen(wide[i]);
    if (n >= k && memcmp(at_end ? s + n - k : s, wide[i], k) == 0)
      return k;
  }
  return 0;
}

static struct span trim_word(const char *s, size_t n) {
  size_t k;
  while ((k = punct_at(s, n, 0)) > 0) {
    s += k;
    n -= k;
  }
  while ((k = punct_at(s, n, 1)) > 0)
    n -= k;
  return (struct span){s, n};
}

/* A sense number ("1.", "2)"). */
static int is_number(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++;
  return i > 0 && i + 1 == n && (s[i] == '.' || s[i] == ')');
}

static int has_letter(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
      return 1;
  }
  return 0;
}

/* Drops the elided article or pronoun of French and Italian ("l'eau"). */
static struct span drop_elision(struct span w, const char *lang) {
  if (strcmp(lang, "fr") != 0 && strcmp(lang, "it") != 0)
    return w;
  static const char *const elided[] = {"l'", "l\xe2\x80\x99", "s'",
                                       "s\xe2\x80\x99"};
  for (size_t i = 0; i < sizeof elided / sizeof *elided; i++) {
    size_t k = strlen(elided[i]);
    if (w.n > k && strncasecmp(w.s, elided[i], k) == 0)
      return (struct span){w.s + k, w.n - k};
  }
  return w;
}

/* The one word that dictionary text s (a headword, or one alternative of a
 * translation) stands for in language lang; n = 0 when it has several.
 * Leading function words go while a word follows ("to be" -> "be", "the"
 * stays); a second word after them ends the search early. */
static struct span single_word(const char *s, size_t n, const char *lang) {
  const char *const *lead = leading_list(lang);
  struct span word = {s, 0}, last_lead = {s, 0};
  for (size_t i = 0; i < n;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
      i++;
    size_t start = i;
    while (i < n && s[i] != ' ' && s[i] != '\t')
      i++;
    if (i == start || in_list(placeholders, s + start, i - start) ||
        is_number(s + start, i - start))
      continue;
    struct span w = trim_word(s + start, i - start);
    if (w.n == 0)
      continue;
    if (word.n > 0)
      return (struct span){s, 0};
    if (in_list(lead, w.s, w.n))
      last_lead = w;
    else
      word = w;
  }
  if (word.n == 0)
    word = last_lead;
  if (word.n == 0)
    return word;
  word = drop_elision(word, lang);
  /* affixes and cut compounds ("-ful", "Wirtschafts-") are not words */
  if (!has_letter(word.s, word.n) || word.s[0] == '-' ||
      word.s[word.n - 1] == '-')
    return (struct span){s, 0};
  return word;
}

/* Frequent function words of 4 letters or more, not content words of a
 * phrase (shorter words never are). */
static const char *const function_words[][48] = {
    {"en",    "with",   "from",  "into",  "onto",  "that",  "this",
     "these", "those",  "have",  "been",  "were",  "will",  "would",
     "shall", "should", "could", "must",  "about", "upon",  "over",
     "under", "than",   "then",  "them",  "they",  "their", "there",
     "what",  "when",   "where", "which", "while", "some",  "such",
     "very",  "also",   "make",  "take",  "give",  NULL},
    {"de",     "einer",  "eines", "einem",    "einen", "eine",  "sich",
     "nicht",  "werden", "wird",  "wurde",    "sein",  "seine", "seinen",
     "seinem", "seiner", "ihre",  "ihren",    "ihrem", "ihrer", "dass",
     "oder",   "aber",   "auch",  "noch",     "schon", "sehr",  "\303\274ber",
     "unter",  "durch",  "gegen", "ohne",     "nach",  "etwas", "jemand",
     "machen", "haben",  "sind",  "zwischen", "alle",  "allen", "allem",
     "aller",  "alles",  "wenn",  "dann",     NULL},
    {"fr",      "avec",  "dans",  "pour",  "sans",        "sous",  "leur",
     "leurs",   "cette", "celui", "celle", "\303\252tre", "avoir", "faire",
     "quelque", "chose", "entre", "vers",  "chez",        "comme", "aussi",
     "plus",    "tout",  "tous",  "toute", NULL},
    {"es",    "para",  "como",       "este",  "esta", "estos",   "estas",
     "sobre", "entre", "hacer",      "tener", "algo", "alguien", "desde",
     "hasta", "pero",  "m\303\241s", "todo",  "toda", NULL},
    {"hu", "vagy", "hogy", "valami", "valaki", "valamit", "valakit", "nagyon",
     "csak", "mint", "amely", "amelyek", NULL}};

static const char *const *function_list(const char *lang) {
  static const char *const none[] = {NULL};
  for (size_t i = 0; i < sizeof function_words / sizeof *function_words; i++)
    if (strcmp(lang, function_words[i][0]) == 0)
      return function_words[i] + 1;
  return none;
}

/* Characters of UTF-8 word w (bytes that start one). */
static size_t letters(struct span w) {
  size_t n = 0;
  for (size_t i = 0; i < w.n; i++)
    n += ((unsigned char)w.s[i] & 0xC0) != 0x80;
  return n;
}

/* The content words of phrase s (an alternative of several words) into
 * out: words of 4 letters or more, not function words; 0 when there are more
 * than PHRASE_WORDS. */
static size_t phrase_words(const char *s, size_t n, const char *lang,
                           struct span out[PHRASE_WORDS]) {
  const char *const *lead = leading_list(lang), *const *fn =
                                                    function_list(lang);
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
      i++;
    size_t start = i;
    while (i < n && s[i] != ' ' && s[i] != '\t')
      i++;
    if (i == start || in_list(placeholders, s + start, i - start))
      continue;
    struct span w = drop_elision(trim_word(s + start, i - start), lang);
    if (letters(w) < 4 || !has_letter(w.s, w.n) || in_list(lead, w.s, w.n) ||
        in_list(fn, w.s, w.n) || w.s[0] == '-' || w.s[w.n - 1] == '-')
      continue;
    if (k == PHRASE_WORDS)
      return 0;
    out[k++] = w;
  }
  return k;
}

/* Translation line s without notes: (...), [...], {...}, <...> groups and
 * /pronunciations/ become spaces. */
static xmt_status clean_line(const char *s, size_t n, struct xmt_buf *out) {
  xmt_buf_reset(out);
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{' || c == '<')
      depth++;
    else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0)
      depth--;
    else if (c == '/' && depth == 0 && (i == 0 || s[i - 1] == ' ')) {
      const char *e = memchr(s + i + 1, '/', n - i - 1);
      if (e != NULL)
        i = (size_t)(e - s);
    } else if (depth == 0) {
      xmt_status st = xmt_buf_append_byte(out, c);
      if (st != XMT_OK)
        return st;
      continue;
    }
    xmt_status st = xmt_buf_append_byte(out, ' ');
    if (st != XMT_OK)
      return st;
  }
  return xmt_buf_append(out, "", 0);
}

/* --- The dictionaries to read --------------------------------------------- */

enum { LEX_DICTD, LEX_APERTIUM, LEX_TSV };

struct lexfile {
  char *path; /* dictd: the index; else the file */
  char *data; /* dictd: the .dict.dz or .dict */
  char *name; /* for reports: dictd's base name, else the path */
  int kind;
  int reversed; /* its first language is our target language */
  int named;    /* named by the caller, not found by "auto" */
};

struct lexlist {
  struct lexfile *f;
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

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int is_file(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
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

static char *join_path(const char *dir, const char *a, const char *b) {
  size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s != NULL)
    snprintf(s, n, "%s/%s%s", dir, a, b);
  return s;
}

/* Adds a file unless already there; takes path, data and name. */
static xmt_status lexlist_add(struct lexlist *l, struct lexfile f) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->f[i].path, f.path) == 0 && l->f[i].reversed == f.reversed) {
      free(f.path);
      free(f.data);
      free(f.name);
      return XMT_OK;
    }
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 8;
    struct lexfile *p = realloc(l->f, cap * sizeof *p);
    if (p == NULL) {
      free(f.path);
      free(f.data);
      free(f.name);
      return XMT_ERR_NOMEM;
    }
    l->f = p;
    l->cap = cap;
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
    if (is_file(p))
      return p;
    free(p);
  }
  return NULL;
}

/* A dictd dictionary of base name base; missing files are errors when
 * named (naming the file), skipped otherwise. */
static xmt_status add_dictd(struct lexlist *l, const char *base, int reversed,
                            int named, struct xmt_error_store *err) {
  struct lexfile f = {
      with_suffix(base, 0, ".index"), NULL, NULL, LEX_DICTD, reversed, named};
  int nomem = 0;
  if (f.path != NULL && is_file(f.path))
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
    if (named && !is_file(f.path))
      st = xmt_error_set(err, XMT_ERR_IO, f.path, 0, 0, NULL,
                         "dictionary index not found");
    else if (named)
      st = xmt_error_set(err, XMT_ERR_IO, base, 0, 0, NULL,
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
    if (ends_with(path, dictd_ext[i])) {
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
  int dictd = is_file(index);
  free(index);
  if (dictd)
    return add_dictd(l, path, reversed, 1, err);
  if (!is_file(path))
    return xmt_error_set(err, XMT_ERR_IO, path, 0, 0, NULL,
                         "dictionary not found");
  struct lexfile f = {xmt_strdup(path),
                      NULL,
                      NULL,
                      ends_with(path, ".bin") ? LEX_APERTIUM : LEX_TSV,
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
  char *base = join_path(dir, name, "");
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
  struct lexfile f = {
      join_path(pkgdir, name, ""), NULL, NULL, LEX_APERTIUM, reversed, 0};
  if (f.path == NULL)
    return XMT_ERR_NOMEM;
  if (!is_file(f.path)) {
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
      cap = cap ? cap * 2 : 16;
      char **p = realloc(*names, cap * sizeof *p);
      if (p == NULL) {
        st = XMT_ERR_NOMEM;
        break;
      }
      *names = p;
    }
    if (((*names)[*n] = join_path(dir, e->d_name, "")) == NULL)
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

/* --- Files ---------------------------------------------------------------- */

static xmt_status io_error(struct xmt_error_store *err, const char *path,
                           const char *what, int e) {
  return xmt_error_set(err, XMT_ERR_IO, path, 0, 0, NULL, "%s: %s", what,
                       strerror(e));
}

/* Reads n bytes at offset off; 0, or -1 with errno (EIO: end of file). */
static int pread_full(int fd, void *buf, size_t n, uint64_t off) {
  unsigned char *p = buf;
  while (n > 0) {
    ssize_t r = pread(fd, p, n, (off_t)off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      if (r == 0)
        errno = EIO;
      return -1;
    }
    p += r;
    n -= (size_t)r;
    off += (uint64_t)r;
  }
  return 0;
}

/* Appends the rest of fd to out; 0, or -1 with errno (ENOMEM: no memory). */
static int read_all(int fd, struct xmt_buf *out) {
  for (;;) {
    if (out->cap - out->len < 65536 + 1 &&
        xmt_buf_grow(out, 65536 + 1) != XMT_OK) {
      errno = ENOMEM;
      return -1;
    }
    ssize_t r = read(fd, out->data + out->len, out->cap - out->len - 1);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return -1;
    if (r == 0)
      return 0;
    out->len += (size_t)r;
    out->data[out->len] = '\0';
  }
}

static xmt_status read_file(const char *path, struct xmt_buf *out,
                            struct xmt_error_store *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return io_error(err, path, "cannot open", errno);
  int r = read_all(fd, out), e = errno;
  close(fd);
  if (r != 0 && e == ENOMEM)
    return XMT_ERR_NOMEM;
  return r == 0 ? XMT_OK : io_error(err, path, "cannot read", e);
}

/* --- dictd data: plain, dictzip (chunks inflated as needed), gzip --------- */

enum { DZ_PLAIN, DZ_CHUNKED, DZ_WHOLE };

struct dictd {
  const struct lexfile *f;
  int fd;
  int format;
  uint64_t size; /* bytes of text (DZ_CHUNKED: at most) */
  uint32_t chlen, chcnt;
  uint64_t *chunk_at; /* DZ_CHUNKED: file offset of each chunk, and the end */
  z_stream z;
  int z_ready;
  unsigned char *in, *chunk;
  size_t in_cap;
  uint32_t cur; /* the chunk in chunk */
  int have_cur;
  size_t produced;    /* bytes of it inflated so far */
  struct xmt_buf all; /* DZ_WHOLE: the text */
};

static void dictd_close(struct dictd *d) {
  if (d->fd >= 0)
    close(d->fd);
  if (d->z_ready)
    inflateEnd(&d->z);
  free(d->chunk_at);
  free(d->in);
  free(d->chunk);
  xmt_buf_free(&d->all);
}

static xmt_status dz_format(struct dictd *d, struct xmt_error_store *err,
                            const char *what) {
  return xmt_error_set(err, XMT_ERR_FORMAT, d->f->data, 0, 0, NULL, "%s", what);
}

static unsigned le16(const unsigned char *p) {
  return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Finds dictzip's RA subfield (chunk length, count and compressed sizes)
 * in the gzip extra field x (xlen bytes); chunk_at gets the sizes, made
 * offsets once the header's end is known. */
static xmt_status dz_chunks(struct dictd *d, const unsigned char *x,
                            size_t xlen, struct xmt_error_store *err) {
  for (size_t k = 0; k + 4 <= xlen;) {
    size_t len = le16(x + k + 2);
    if (k + 4 + len > xlen)
      return dz_format(d, err, "bad gzip extra field");
    const unsigned char *ra = x + k + 4;
    if (x[k] == 'R' && x[k + 1] == 'A') {
      if (len < 6 || le16(ra) != 1 || le16(ra + 2) == 0 ||
          len < 6 + 2 * (size_t)le16(ra + 4))
        return dz_format(d, err, "bad dictzip chunk table");
      d->chlen = le16(ra + 2);
      d->chcnt = le16(ra + 4);
      d->chunk_at = malloc(((size_t)d->chcnt + 1) * sizeof *d->chunk_at);
      if (d->chunk_at == NULL)
        return XMT_ERR_NOMEM;
      for (uint32_t i = 0; i < d->chcnt; i++)
        d->chunk_at[i + 1] = le16(ra + 6 + 2 * i);
      d->format = DZ_CHUNKED;
      return XMT_OK;
    }
    k += 4 + len;
  }
  return XMT_OK;
}

/* Skips a zero-terminated gzip header string at *pos. */
static xmt_status dz_skip_string(struct dictd *d, uint64_t *pos, uint64_t size,
                                 struct xmt_error_store *err) {
  unsigned char buf[256];
  while (*pos < size) {
    size_t n = size - *pos < sizeof buf ? (size_t)(size - *pos) : sizeof buf;
    if (pread_full(d->fd, buf, n, *pos) != 0)
      return io_error(err, d->f->data, "cannot read", errno);
    unsigned char *z = memchr(buf, 0, n);
    *pos += z != NULL ? (uint64_t)(z - buf) + 1 : n;
    if (z != NULL)
      return XMT_OK;
  }
  return dz_format(d, err, "truncated gzip header");
}

/* Inflates the whole gzip file (no dictzip chunk table). */
static xmt_status dz_whole(struct dictd *d, struct xmt_error_store *err) {
  struct xmt_buf in = {0};
  xmt_status st = read_file(d->f->data, &in, err);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (st == XMT_OK && inflateInit2(&z, 15 + 32) != Z_OK)
    st = XMT_ERR_NOMEM;
  else if (st == XMT_OK) {
    z.next_in = (unsigned char *)in.data;
    z.avail_in = (uInt)in.len; /* the file is below MAX_WHOLE: checked */
    int r = Z_OK;
    while (st == XMT_OK && r != Z_STREAM_END) {
      if (d->all.cap - d->all.len < 65536 + 1)
        st = xmt_buf_grow(&d->all, 65536);
      if (st != XMT_OK || d->all.len > MAX_WHOLE)
        break;
      z.next_out = (unsigned char *)d->all.data + d->all.len;
      z.avail_out = (uInt)(d->all.cap - d->all.len - 1);
      r = inflate(&z, Z_NO_FLUSH);
      d->all.len = (size_t)((char *)z.next_out - d->all.data);
      if (r == Z_STREAM_END && z.avail_in > 0 && inflateReset(&z) == Z_OK)
        r = Z_OK; /* another gzip member follows */
      else if (r != Z_OK && r != Z_STREAM_END)
        st = dz_format(d, err, "corrupt gzip data");
    }
    inflateEnd(&z);
  }
  xmt_buf_free(&in);
  if (st == XMT_OK && d->all.len > MAX_WHOLE)
    st = dz_format(d, err, "dictionary too large");
  d->size = d->all.len;
  d->format = DZ_WHOLE;
  return st;
}

/* Reads the gzip header; a dictzip chunk table makes the data readable
 * chunk by chunk, else the whole file is inflated. */
static xmt_status dz_header(struct dictd *d, uint64_t fsize,
                            struct xmt_error_store *err) {
  unsigned char h[12], *x = NULL;
  if (fsize < 18 || pread_full(d->fd, h, 10, 0) != 0)
    return dz_format(d, err, "not a gzip file");
  if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
    return dz_format(d, err, "not a gzip file");
  uint64_t pos = 10;
  xmt_status st = XMT_OK;
  if (h[3] & 4) {
    if (pread_full(d->fd, h + 10, 2, pos) != 0)
      return dz_format(d, err, "truncated gzip header");
    size_t xlen = le16(h + 10);
    pos += 2 + xlen;
    if ((x = malloc(xlen + 1)) == NULL)
      return XMT_ERR_NOMEM;
    if (pos > fsize || pread_full(d->fd, x, xlen, 12) != 0)
      st = dz_format(d, err, "truncated gzip header");
    else
      st = dz_chunks(d, x, xlen, err);
    free(x);
  }
  for (int flag = 8; flag <= 16 && st == XMT_OK; flag *= 2)
    if (h[3] & flag) /* file name, comment */
      st = dz_skip_string(d, &pos, fsize, err);
  pos += h[3] & 2 ? 2 : 0; /* header CRC */
  if (st != XMT_OK || d->format != DZ_CHUNKED)
    return st == XMT_OK ? dz_whole(d, err) : st;
  d->chunk_at[0] = pos;
  for (uint32_t i = 0; i < d->chcnt; i++)
    d->chunk_at[i + 1] += d->chunk_at[i];
  if (d->chunk_at[d->chcnt] > fsize)
    return dz_format(d, err, "truncated dictzip data");
  d->size = (uint64_t)d->chlen * d->chcnt;
  d->chunk = malloc(d->chlen);
  if (d->chunk == NULL || inflateInit2(&d->z, -15) != Z_OK)
    return XMT_ERR_NOMEM;
  d->z_ready = 1;
  return XMT_OK;
}

static xmt_status dictd_open(struct dictd *d, const struct lexfile *f,
                             struct xmt_error_store *err) {
  memset(d, 0, sizeof *d);
  d->f = f;
  d->fd = open(f->data, O_RDONLY | O_CLOEXEC);
  struct stat sb;
  if (d->fd < 0 || fstat(d->fd, &sb) != 0)
    return io_error(err, f->data, "cannot open", errno);
  if (!ends_with(f->data, ".dz") && !ends_with(f->data, ".gz")) {
    d->format = DZ_PLAIN;
    d->size = (uint64_t)sb.st_size;
    return XMT_OK;
  }
  if ((uint64_t)sb.st_size > MAX_WHOLE)
    return dz_format(d, err, "dictionary too large");
  return dz_header(d, (uint64_t)sb.st_size, err);
}

/* Makes chunk c inflated at least up to need bytes. */
static xmt_status dz_chunk(struct dictd *d, uint32_t c, size_t need,
                           struct xmt_error_store *err) {
  if (!d->have_cur || d->cur != c) {
    size_t clen = (size_t)(d->chunk_at[c + 1] - d->chunk_at[c]);
    if (clen > d->in_cap) {
      unsigned char *in = realloc(d->in, clen);
      if (in == NULL)
        return XMT_ERR_NOMEM;
      d->in = in;
      d->in_cap = clen;
    }
    d->have_cur = 0;
    if (pread_full(d->fd, d->in, clen, d->chunk_at[c]) != 0)
      return io_error(err, d->f->data, "cannot read", errno);
    inflateReset(&d->z);
    d->z.next_in = d->in;
    d->z.avail_in = (uInt)clen;
    d->cur = c;
    d->have_cur = 1;
    d->produced = 0;
  }
  /* inflate a little past need: the next entry is often just after */
  size_t goal = need + 4096 < d->chlen ? need + 4096 : d->chlen;
  while (d->produced < need) {
    d->z.next_out = d->chunk + d->produced;
    d->z.avail_out = (uInt)(goal - d->produced);
    int r = inflate(&d->z, Z_SYNC_FLUSH);
    size_t got = goal - d->produced - d->z.avail_out;
    d->produced += got;
    if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
      return dz_format(d, err, "corrupt dictzip chunk");
    if (got == 0 || r == Z_STREAM_END)
      break;
  }
  return d->produced >= need ? XMT_OK
                             : dz_format(d, err, "entry past the data's end");
}

/* out = the len bytes of text at offset off. */
static xmt_status dictd_text(struct dictd *d, uint64_t off, uint32_t len,
                             struct xmt_buf *out, struct xmt_error_store *err) {
  xmt_buf_reset(out);
  if (off > d->size || len > d->size - off)
    return dz_format(d, err, "entry past the data's end");
  if (d->format == DZ_WHOLE)
    return xmt_buf_append(out, d->all.data + off, len);
  xmt_status st = xmt_buf_grow(out, (size_t)len + 1);
  if (st != XMT_OK || len == 0)
    return st;
  if (d->format == DZ_PLAIN) {
    if (pread_full(d->fd, out->data, len, off) != 0)
      return io_error(err, d->f->data, "cannot read", errno);
    out->len = len;
    out->data[len] = '\0';
    return XMT_OK;
  }
  uint64_t end = off + len;
  for (uint32_t c = (uint32_t)(off / d->chlen);
       st == XMT_OK && end > (uint64_t)c * d->chlen; c++) {
    uint64_t base = (uint64_t)c * d->chlen;
    size_t lo = off > base ? (size_t)(off - base) : 0;
    size_t hi = end - base < d->chlen ? (size_t)(end - base) : d->chlen;
    st = dz_chunk(d, c, hi, err);
    if (st == XMT_OK)
      st = xmt_buf_append(out, d->chunk + lo, hi - lo);
  }
  return st;
}

/* --- dictd index ---------------------------------------------------------- */

/* An entry to read: its place in the data, and the headword it is for. */
struct want {
  uint64_t off;
  uint32_t len;
  uint32_t head, head_len; /* in struct scan's heads */
};

struct scan {
  struct xmt_lex_match *m;
  const struct lexfile *f;
  int head_side;
  const char *head_lang;
  struct want *w;
  size_t n, cap;
  struct xmt_buf heads;
  /* the previous line's headword and what became of it */
  struct xmt_buf prev;
  int prev_ok, prev_wanted;
  uint32_t prev_head, prev_head_len;
};

/* dictd's base64 number (A-Za-z0-9+/, most significant digit first). */
static int b64_number(const char *s, size_t n, uint64_t *v) {
  *v = 0;
  if (n == 0 || n > 10)
    return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int d = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (d < 0)
      return 0;
    *v = *v * 64 + (uint64_t)d;
  }
  return 1;
}

/* Decides whether a headword is wanted, keeping its word in heads. */
static xmt_status scan_headword(struct scan *sc, const char *h, size_t n) {
  sc->prev_ok = 0;
  xmt_buf_reset(&sc->prev);
  xmt_status st = xmt_buf_append(&sc->prev, h, n);
  if (st != XMT_OK)
    return st;
  sc->prev_wanted = 0;
  /* dictfmt's meta entries: 00-database-info and the like */
  if (!(n >= 10 && memcmp(h, "00database", 10) == 0) &&
      !(n >= 11 && memcmp(h, "00-database", 11) == 0)) {
    struct span w = single_word(h, n, sc->head_lang);
    if (w.n > 0)
      st = xmt_lex_wanted(sc->m, sc->head_side, w.s, w.n, &sc->prev_wanted);
    if (st == XMT_OK && sc->prev_wanted) {
      sc->prev_head = (uint32_t)sc->heads.len;
      sc->prev_head_len = (uint32_t)w.n;
      st = xmt_buf_append(&sc->heads, w.s, w.n);
    }
  }
  sc->prev_ok = st == XMT_OK;
  return st;
}

static xmt_status scan_line(struct scan *sc, const char *s, size_t n,
                            unsigned long lineno, struct xmt_error_store *err) {
  if (n > 0 && s[n - 1] == '\r')
    n--;
  if (n == 0)
    return XMT_OK;
  const char *t1 = memchr(s, '\t', n);
  const char *t2 = t1 ? memchr(t1 + 1, '\t', n - (size_t)(t1 + 1 - s)) : NULL;
  if (t2 == NULL)
    return xmt_error_set(err, XMT_ERR_FORMAT, sc->f->path, lineno, 0, NULL,
                         "expected headword, offset and length separated "
                         "by tabs");
  size_t hn = (size_t)(t1 - s);
  if (!sc->prev_ok || sc->prev.len != hn || memcmp(sc->prev.data, s, hn) != 0) {
    xmt_status st = scan_headword(sc, s, hn);
    if (st != XMT_OK)
      return st;
  }
  if (!sc->prev_wanted)
    return XMT_OK;
  const char *t3 = memchr(t2 + 1, '\t', n - (size_t)(t2 + 1 - s));
  size_t ln = (size_t)((t3 ? t3 : s + n) - (t2 + 1));
  uint64_t off, len;
  if (!b64_number(t1 + 1, (size_t)(t2 - t1 - 1), &off) ||
      !b64_number(t2 + 1, ln, &len) || len > MAX_ENTRY)
    return xmt_error_set(err, XMT_ERR_FORMAT, sc->f->path, lineno, 0, NULL,
                         "bad entry offset or length");
  if (sc->n == sc->cap) {
    size_t cap = sc->cap ? sc->cap * 2 : 256;
    struct want *w = realloc(sc->w, cap * sizeof *w);
    if (w == NULL)
      return XMT_ERR_NOMEM;
    sc->w = w;
    sc->cap = cap;
  }
  sc->w[sc->n++] =
      (struct want){off, (uint32_t)len, sc->prev_head, sc->prev_head_len};
  return XMT_OK;
}

/* Scans the index a block at a time, keeping the entries of wanted
 * headwords. */
static xmt_status scan_index(struct scan *sc, struct xmt_error_store *err) {
  int fd = open(sc->f->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return io_error(err, sc->f->path, "cannot open", errno);
  size_t cap = 1 << 20, have = 0;
  char *buf = malloc(cap);
  xmt_status st = buf != NULL ? XMT_OK : XMT_ERR_NOMEM;
  unsigned long lineno = 0;
  for (int eof = 0; st == XMT_OK && !eof;) {
    if (have == cap) { /* a line longer than the buffer */
      char *p = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
      if (p == NULL) {
        st = cap < (64u << 20)
                 ? XMT_ERR_NOMEM
                 : xmt_error_set(err, XMT_ERR_FORMAT, sc->f->path, lineno + 1,
                                 0, NULL, "line too long");
        break;
      }
      buf = p;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + have, cap - have);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      st = io_error(err, sc->f->path, "cannot read", errno);
      break;
    }
    eof = r == 0;
    have += (size_t)r;
    size_t start = 0;
    for (;;) {
      char *nl = memchr(buf + start, '\n', have - start);
      if (nl == NULL && !(eof && start < have))
        break;
      size_t end = nl ? (size_t)(nl - buf) : have;
      st = scan_line(sc, buf + start, end - start, ++lineno, err);
      start = nl ? end + 1 : have;
      if (st != XMT_OK)
        break;
    }
    memmove(buf, buf + start, have - start);
    have -= start;
  }
  free(buf);
  close(fd);
  return st;
}

static int want_cmp(const void *pa, const void *pb) {
  const struct want *a = pa, *b = pb;
  if (a->off != b->off)
    return a->off < b->off ? -1 : 1;
  if (a->len != b->len)
    return a->len < b->len ? -1 : 1;
  return a->head < b->head ? -1 : a->head > b->head;
}

/* --- dictd entries -------------------------------------------------------- */

struct entry_ctx {
  struct scan *sc;
  const struct want *w; /* the wants of this entry: same place */
  size_t nw;
  const char *lang; /* of the translations */
  double phrase_factor;
  struct xmt_buf line;
};

/* Links each headword of the entry to translation word t. */
static xmt_status entry_link(struct entry_ctx *e, struct span t, double scale) {
  int hs = e->sc->head_side;
  for (size_t i = 0; i < e->nw; i++) {
    if (i > 0 && e->w[i].head == e->w[i - 1].head)
      continue;
    const char *w[2];
    size_t len[2];
    w[hs] = e->sc->heads.data + e->w[i].head;
    len[hs] = e->w[i].head_len;
    w[1 - hs] = t.s;
    len[1 - hs] = t.n;
    xmt_status st = xmt_lex_pair(e->sc->m, w, len, scale);
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

/* One translation line: alternatives split on ',' and ';'. */
static xmt_status entry_line(struct entry_ctx *e, const char *s, size_t n) {
  xmt_status st = clean_line(s, n, &e->line);
  const char *p = e->line.data, *end = p + e->line.len;
  while (st == XMT_OK && p < end) {
    const char *q = p;
    while (q < end && *q != ',' && *q != ';')
      q++;
    struct span w = single_word(p, (size_t)(q - p), e->lang), pw[PHRASE_WORDS];
    if (w.n > 0)
      st = entry_link(e, w, 1.0);
    else if (e->phrase_factor > 0) /* a phrase: its content words */
      for (size_t k = phrase_words(p, (size_t)(q - p), e->lang, pw), i = 0;
           i < k && st == XMT_OK; i++)
        st = entry_link(e, pw[i], e->phrase_factor);
    p = q + 1;
  }
  return st;
}

/* An entry: its headword line, then translation lines (at the margin, or
 * after one space when they open with a [domain]); lines indented further
 * are examples, notes, synonyms and cross-references. */
static xmt_status entry_parse(struct entry_ctx *e, const char *s, size_t n) {
  const char *p = memchr(s, '\n', n), *end = s + n;
  p = p != NULL ? p + 1 : end;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl != NULL ? nl : end;
    size_t ln = (size_t)(le - p);
    if (ln > 1 && p[0] == ' ' && p[1] == '[') {
      p++;
      ln--;
    }
    if (ln > 0 && p[0] != ' ' && p[0] != '\t') {
      xmt_status st = entry_line(e, p, ln);
      if (st != XMT_OK)
        return st;
    }
    p = nl != NULL ? nl + 1 : end;
  }
  return XMT_OK;
}

static xmt_status read_entries(struct scan *sc, struct dictd *d,
                               struct xmt_error_store *err) {
  struct entry_ctx e = {sc,
                        NULL,
                        0,
                        xmt_lex_lang(sc->m, 1 - sc->head_side)->iso1,
                        xmt_lex_options(sc->m)->phrase_factor,
                        {0}};
  struct xmt_buf text = {0};
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < sc->n && st == XMT_OK;) {
    size_t j = i + 1;
    while (j < sc->n && sc->w[j].off == sc->w[i].off &&
           sc->w[j].len == sc->w[i].len)
      j++;
    st = dictd_text(d, sc->w[i].off, sc->w[i].len, &text, err);
    e.w = sc->w + i;
    e.nw = j - i;
    if (st == XMT_OK)
      st = entry_parse(&e, text.data, text.len);
    i = j;
  }
  xmt_buf_free(&text);
  xmt_buf_free(&e.line);
  return st;
}

static xmt_status read_dictd(struct xmt_lex_match *m, const struct lexfile *f,
                             struct xmt_error_store *err) {
  struct scan sc;
  memset(&sc, 0, sizeof sc);
  sc.m = m;
  sc.f = f;
  sc.head_side = f->reversed ? XMT_TGT : XMT_SRC;
  sc.head_lang = xmt_lex_lang(m, sc.head_side)->iso1;
  xmt_status st = scan_index(&sc, err);
  struct dictd d;
  memset(&d, 0, sizeof d);
  d.fd = -1;
  if (st == XMT_OK && sc.n > 0) {
    qsort(sc.w, sc.n, sizeof *sc.w, want_cmp);
    st = dictd_open(&d, f, err);
    if (st == XMT_OK)
      st = read_entries(&sc, &d, err);
  }
  dictd_close(&d);
  free(sc.w);
  xmt_buf_free(&sc.heads);
  xmt_buf_free(&sc.prev);
  return st;
}

/* --- TSV word lists ------------------------------------------------------- */

static struct span trim_spaces(const char *s, size_t n) {
  while (n > 0 && (*s == ' ' || *s == '\t'))
    s++, n--;
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  return (struct span){s, n};
}

/* A weight: a positive finite number, spaces around allowed. */
static int parse_weight(struct span f, double *w) {
  char buf[64];
  f = trim_spaces(f.s, f.n);
  if (f.n == 0 || f.n >= sizeof buf)
    return 0;
  memcpy(buf, f.s, f.n);
  buf[f.n] = '\0';
  char *end;
  errno = 0;
  *w = strtod(buf, &end);
  return *end == '\0' && errno == 0 && *w > 0 && isfinite(*w);
}

static xmt_status tsv_line(struct xmt_lex_match *m, const struct lexfile *f,
                           const char *s, size_t n, unsigned long lineno,
                           struct xmt_error_store *err) {
  struct span all = trim_spaces(s, n), field[3];
  if (all.n == 0 || all.s[0] == '#')
    return XMT_OK;
  size_t nf = 0;
  for (const char *p = s, *end = s + n; nf < 3 && p <= end;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    const char *fe = tab != NULL ? tab : end;
    field[nf++] = (struct span){p, (size_t)(fe - p)};
    p = fe + 1;
    if (tab == NULL)
      break;
    if (nf == 3 && tab != NULL)
      nf = 4; /* a fourth field */
  }
  double weight = 1;
  if (nf < 2 || nf > 3 || (nf == 3 && !parse_weight(field[2], &weight)))
    return xmt_error_set(err, XMT_ERR_FORMAT, f->path, lineno, 0, NULL,
                         "expected source word, tab, target word "
                         "[, tab, positive weight]");
  const char *w[2];
  size_t len[2];
  for (int i = 0; i < 2; i++) {
    struct span t = trim_spaces(field[i].s, field[i].n);
    if (t.n == 0)
      return xmt_error_set(err, XMT_ERR_FORMAT, f->path, lineno, 0, NULL,
                           "empty word");
    int sd = f->reversed ? 1 - i : i;
    w[sd] = t.s;
    len[sd] = t.n;
  }
  return xmt_lex_pair(m, w, len, weight);
}

static xmt_status read_tsv(struct xmt_lex_match *m, const struct lexfile *f,
                           struct xmt_error_store *err) {
  struct xmt_buf text = {0};
  xmt_status st = read_file(f->path, &text, err);
  unsigned long lineno = 0;
  /* after a UTF-8 byte order mark, if any */
  size_t at =
      text.len >= 3 && memcmp(text.data, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
  while (st == XMT_OK && at < text.len) {
    const char *s = text.data + at;
    const char *nl = memchr(s, '\n', text.len - at);
    size_t n = nl != NULL ? (size_t)(nl - s) : text.len - at;
    at += n + 1;
    st =
        tsv_line(m, f, s, n > 0 && s[n - 1] == '\r' ? n - 1 : n, ++lineno, err);
  }
  xmt_buf_free(&text);
  return st;
}

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
  const struct lexfile *f;
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
    size_t cap = a->sym_cap ? a->sym_cap * 2 : 1024;
    unsigned char *c = realloc(a->sym_class, cap);
    if (c == NULL)
      return XMT_ERR_NOMEM;
    a->sym_class = c;
    a->sym_cap = cap;
  }
  a->sym_class[*id] = (unsigned char)sym_class_of(s, n);
  return XMT_OK;
}

static int parse_state(struct span f, uint32_t *v) {
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

static xmt_status att_grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return XMT_OK;
  size_t c = *cap ? *cap * 2 : 4096;
  void *q = realloc(*p, c * size);
  if (q == NULL)
    return XMT_ERR_NOMEM;
  *p = q;
  *cap = c;
  return XMT_OK;
}

/* One line of a section: an arc or a final state. */
static xmt_status att_line(struct att *a, const char *s, size_t n,
                           unsigned long lineno, struct xmt_error_store *err) {
  struct span f[5];
  size_t nf = 0;
  for (const char *p = s, *end = s + n; p <= end && nf < 5;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    const char *fe = tab != NULL ? tab : end;
    f[nf++] = (struct span){p, (size_t)(fe - p)};
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
  return xmt_error_set(err, XMT_ERR_FORMAT, a->f->path, 0, 0, NULL,
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

/* Emits the lemma pair of a path. */
static xmt_status att_emit(struct att *a, const char *in, size_t in_len,
                           const char *out, size_t out_len) {
  if (in_len == 0 || out_len == 0)
    return XMT_OK;
  int r = a->f->reversed;
  const char *w[2] = {r ? out : in, r ? in : out};
  size_t len[2] = {r ? out_len : in_len, r ? in_len : out_len};
  return xmt_lex_pair(a->m, w, len, 1.0);
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

static xmt_status read_att(struct xmt_lex_match *m, const struct lexfile *f,
                           const struct xmt_buf *text,
                           struct xmt_error_store *err) {
  struct att a;
  memset(&a, 0, sizeof a);
  a.m = m;
  a.f = f;
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

/* --- Apertium: running lt-print ------------------------------------------
 * lt-print takes about a second on a large pair; all of them start before
 * the dictd files are read, and a thread each collects their output, so
 * the waits overlap. */

struct apjob {
  const struct lexfile *f;
  pid_t pid;
  int fd;
  int spawned, threaded;
  pthread_t thread;
  struct xmt_buf out;
  int read_errno; /* of a failed read; ENOMEM when out of memory */
};

static void *ap_collect(void *arg) {
  struct apjob *j = arg;
  if (read_all(j->fd, &j->out) != 0)
    j->read_errno = errno;
  return NULL;
}

/* The program: prog itself when it has a '/', else found in PATH; NULL
 * when there is none (or out of memory: *nomem). */
static char *find_program(const char *prog, int *nomem) {
  *nomem = 0;
  if (strchr(prog, '/') != NULL) {
    char *p = access(prog, X_OK) == 0 ? xmt_strdup(prog) : NULL;
    *nomem = access(prog, X_OK) == 0 && p == NULL;
    return p;
  }
  const char *path = getenv("PATH");
  if (path == NULL)
    path = "/usr/bin:/bin";
  for (const char *p = path;;) {
    const char *colon = strchr(p, ':');
    size_t n = colon != NULL ? (size_t)(colon - p) : strlen(p);
    char *dir = xmt_strndup(n > 0 ? p : ".", n > 0 ? n : 1);
    char *full = dir != NULL ? join_path(dir, prog, "") : NULL;
    free(dir);
    if (full == NULL) {
      *nomem = 1;
      return NULL;
    }
    if (access(full, X_OK) == 0 && is_file(full))
      return full;
    free(full);
    if (colon == NULL)
      return NULL;
    p = colon + 1;
  }
}

/* Starts lt-print -H on the job's file, its output to a pipe. */
static xmt_status ap_spawn(struct apjob *j, const char *prog,
                           struct xmt_error_store *err) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0)
    return io_error(err, j->f->path, "cannot run lt-print", errno);
  posix_spawn_file_actions_t fa;
  int rc = posix_spawn_file_actions_init(&fa);
  if (rc == 0 && (rc = posix_spawn_file_actions_adddup2(&fa, p[1], 1)) == 0 &&
      (rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY,
                                             0)) == 0 &&
      (rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
                                             0)) == 0) {
    char arg0[] = "lt-print", arg1[] = "-H";
    char *argv[] = {arg0, arg1, j->f->path, NULL};
    rc = posix_spawn(&j->pid, prog, &fa, NULL, argv, environ);
  }
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  if (rc != 0) {
    close(p[0]);
    return io_error(err, j->f->path, "cannot run lt-print", rc);
  }
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

static xmt_status ap_finish(struct xmt_lex_match *m, struct apjob *j,
                            struct xmt_error_store *err) {
  int status = ap_wait(j);
  if (j->read_errno == ENOMEM)
    return XMT_ERR_NOMEM;
  if (j->read_errno != 0)
    return io_error(err, j->f->path, "cannot read lt-print's output",
                    j->read_errno);
  if (WIFSIGNALED(status))
    return xmt_error_set(err, XMT_ERR_IO, j->f->path, 0, 0, NULL,
                         "lt-print killed by signal %d", WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return xmt_error_set(err, XMT_ERR_IO, j->f->path, 0, 0, NULL,
                         "lt-print failed (exit status %d)",
                         WEXITSTATUS(status));
  return read_att(m, j->f, &j->out, err);
}

/* --- Loading --------------------------------------------------------------
 * The files are shared out between threads, each with its own copy of the
 * match (the vocabularies are shared read-only): each thread takes the next
 * file, dictd and TSV files first, then the Apertium ones whose lt-print
 * has had the most time. When a file fails no more are started; the error
 * of the first failed file in that order is reported, which does not
 * depend on timing, as every file before it was started and finished. */

struct pool {
  const struct lexlist *l;
  size_t *order;                /* files in the order they are taken */
  struct apjob **job_of;        /* per file: its lt-print, NULL if skipped */
  xmt_status *status;           /* per position in order */
  unsigned char *done;          /* per position: read */
  struct xmt_error_store *errs; /* per position */
  pthread_mutex_t lock;
  size_t next;
  int failed;
};

static xmt_status read_one(struct xmt_lex_match *m, struct pool *p,
                           size_t pos) {
  const struct lexfile *f = &p->l->f[p->order[pos]];
  struct xmt_error_store *err = &p->errs[pos];
  if (f->kind == LEX_DICTD)
    return read_dictd(m, f, err);
  if (f->kind == LEX_TSV)
    return read_tsv(m, f, err);
  struct apjob *j = p->job_of[p->order[pos]];
  return j != NULL ? ap_finish(m, j, err) : XMT_OK;
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

/* Starts lt-print for every Apertium file; without lt-print, files "auto"
 * found are left out and a named one is an error. */
static xmt_status start_jobs(const struct lexlist *l, struct apjob *jobs,
                             struct apjob **job_of,
                             const struct xmt_prior_options *o,
                             struct xmt_error_store *err) {
  const char *prog = o->lt_print != NULL ? o->lt_print : "lt-print";
  int nomem = 0, looked = 0;
  char *path = NULL;
  xmt_status st = XMT_OK;
  for (size_t i = 0, n = 0; i < l->n && st == XMT_OK; i++) {
    if (l->f[i].kind != LEX_APERTIUM)
      continue;
    if (!looked)
      path = find_program(prog, &nomem);
    looked = 1;
    if (nomem)
      st = XMT_ERR_NOMEM;
    else if (path == NULL && l->f[i].named)
      st = xmt_error_set(err, XMT_ERR_IO, l->f[i].path, 0, 0, NULL,
                         "cannot read an Apertium dictionary: %s not found "
                         "(Debian package lttoolbox)",
                         prog);
    else if (path != NULL) {
      jobs[n].f = &l->f[i];
      st = ap_spawn(&jobs[n], path, err);
      if (st == XMT_OK)
        job_of[i] = &jobs[n++];
    }
  }
  free(path);
  return st;
}

/* The reading order: dictd and TSV files, then Apertium's. */
static void pool_order(const struct lexlist *l, size_t *order) {
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < l->n; i++)
      if ((l->f[i].kind == LEX_APERTIUM) == pass)
        order[n++] = i;
}

static void pool_free(struct pool *p) {
  for (size_t i = 0; p->errs != NULL && i < p->l->n; i++)
    xmt_error_clear(&p->errs[i]);
  free(p->order);
  free(p->job_of);
  free(p->status);
  free(p->done);
  free(p->errs);
}

static xmt_status pool_init(struct pool *p, const struct lexlist *l) {
  memset(p, 0, sizeof *p);
  size_t n = l->n ? l->n : 1;
  p->l = l;
  p->order = calloc(n, sizeof *p->order);
  p->job_of = calloc(n, sizeof *p->job_of);
  p->status = calloc(n, sizeof *p->status);
  p->done = calloc(n, 1);
  p->errs = calloc(n, sizeof *p->errs);
  if (p->order == NULL || p->job_of == NULL || p->status == NULL ||
      p->done == NULL || p->errs == NULL ||
      pthread_mutex_init(&p->lock, NULL) != 0) {
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
    if (p->l->f[i].kind != LEX_APERTIUM || p->job_of[i] != NULL)
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
  struct apjob *jobs = pool_ok ? calloc(l.n ? l.n : 1, sizeof *jobs) : NULL;
  if (pool_ok && jobs == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = start_jobs(&l, jobs, p.job_of, o, err);
  if (st == XMT_OK)
    st = pool_read(&p, m, o);
  if (st == XMT_OK)
    st = pool_outcome(&p, stats, err);
  for (size_t i = 0; jobs != NULL && i < l.n; i++) {
    ap_abort(&jobs[i]);
    xmt_buf_free(&jobs[i].out);
  }
  free(jobs);
  if (pool_ok) {
    pthread_mutex_destroy(&p.lock);
    pool_free(&p);
  }
  lexlist_free(&l);
  if (st == XMT_ERR_NOMEM)
    return xmt_error_set(err, st, NULL, 0, 0, NULL,
                         "out of memory reading dictionaries");
  return st;
}
