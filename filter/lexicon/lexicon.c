/* lexicon.c -- dictionaries for the priors: words, files, TSV, threads. */

/* Dictionary text's words, which files to read ("auto": those installed),
 * TSV word lists, and the threads that read the files; FreeDict dictd files
 * are read in lexicon_dictd.c, Apertium transducers in lexicon_apertium.c.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexicon_private.h"

#define DEFAULT_DICTD_DIR "/usr/share/dictd"
#define DEFAULT_APERTIUM_DIR "/usr/share/apertium"

/* --- Dictionary words -----------------------------------------------------
 * Dictionary text names a word with articles, "to", placeholders and
 * punctuation around it ("der Vertrag", "to run sth.", "l'eau"); priors
 * need the word alone, and skip phrases of several words. */

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

/* The words of lang in a table of nrows rows of row_size bytes, each a
 * language and its words, NULL-terminated; none for another language. */
static const char *const *words_for(const void *table, size_t nrows,
                                    size_t row_size, const char *lang) {
  static const char *const none[] = {NULL};
  for (size_t i = 0; i < nrows; i++) {
    const char *const *row =
        (const char *const *)((const char *)table + i * row_size);
    if (strcmp(lang, row[0]) == 0)
      return row + 1;
  }
  return none;
}

static const char *const *leading_list(const char *lang) {
  return words_for(leading_words, sizeof leading_words / sizeof *leading_words,
                   sizeof *leading_words, lang);
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

static struct xmt_lex_span trim_word(const char *s, size_t n) {
  size_t k;
  while ((k = punct_at(s, n, 0)) > 0) {
    s += k;
    n -= k;
  }
  while ((k = punct_at(s, n, 1)) > 0)
    n -= k;
  return (struct xmt_lex_span){s, n};
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
static struct xmt_lex_span drop_elision(struct xmt_lex_span w,
                                        const char *lang) {
  if (strcmp(lang, "fr") != 0 && strcmp(lang, "it") != 0)
    return w;
  static const char *const elided[] = {"l'", "l\xe2\x80\x99", "s'",
                                       "s\xe2\x80\x99"};
  for (size_t i = 0; i < sizeof elided / sizeof *elided; i++) {
    size_t k = strlen(elided[i]);
    if (w.n > k && strncasecmp(w.s, elided[i], k) == 0)
      return (struct xmt_lex_span){w.s + k, w.n - k};
  }
  return w;
}

/* The start of the next word of s (n bytes) from *i on, *i moved past it:
 * words are what stands between spaces and tabs; *i == start when none is
 * left. */
static size_t next_word(const char *s, size_t n, size_t *i) {
  while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
    ++*i;
  size_t start = *i;
  while (*i < n && s[*i] != ' ' && s[*i] != '\t')
    ++*i;
  return start;
}

/* The one word that dictionary text s (a headword, or one alternative of a
 * translation) stands for in language lang; n = 0 when it has several.
 * Leading function words go while a word follows ("to be" -> "be", "the"
 * stays); a second word after them ends the search early. */
struct xmt_lex_span xmt_lex_single_word(const char *s, size_t n,
                                        const char *lang) {
  const char *const *lead = leading_list(lang);
  struct xmt_lex_span word = {s, 0}, last_lead = {s, 0};
  for (size_t i = 0; i < n;) {
    size_t start = next_word(s, n, &i);
    if (i == start || in_list(placeholders, s + start, i - start) ||
        is_number(s + start, i - start))
      continue;
    struct xmt_lex_span w = trim_word(s + start, i - start);
    if (w.n == 0)
      continue;
    if (word.n > 0)
      return (struct xmt_lex_span){s, 0};
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
    return (struct xmt_lex_span){s, 0};
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
  return words_for(function_words,
                   sizeof function_words / sizeof *function_words,
                   sizeof *function_words, lang);
}

/* Characters of UTF-8 word w. */
static size_t letters(struct xmt_lex_span w) {
  return xmt_utf8_count(w.s, w.n);
}

/* The content words of phrase s (an alternative of several words) into
 * out: words of 4 letters or more, not function words; 0 when there are more
 * than XMT_LEX_PHRASE_WORDS. */
size_t xmt_lex_phrase_words(const char *s, size_t n, const char *lang,
                            struct xmt_lex_span out[XMT_LEX_PHRASE_WORDS]) {
  const char *const *lead = leading_list(lang), *const *fn =
                                                    function_list(lang);
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    size_t start = next_word(s, n, &i);
    if (i == start || in_list(placeholders, s + start, i - start))
      continue;
    struct xmt_lex_span w = drop_elision(trim_word(s + start, i - start), lang);
    if (letters(w) < 4 || !has_letter(w.s, w.n) || in_list(lead, w.s, w.n) ||
        in_list(fn, w.s, w.n) || w.s[0] == '-' || w.s[w.n - 1] == '-')
      continue;
    if (k == XMT_LEX_PHRASE_WORDS)
      return 0;
    out[k++] = w;
  }
  return k;
}

/* Translation line s without notes: (...), [...], {...}, <...> groups and
 * /pronunciations/ become spaces. */
xmt_status xmt_lex_clean_line(const char *s, size_t n, struct xmt_buf *out) {
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

int xmt_lex_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

int xmt_lex_is_file(const char *path) {
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

char *xmt_lex_join_path(const char *dir, const char *a, const char *b) {
  size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s != NULL)
    snprintf(s, n, "%s/%s%s", dir, a, b);
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

/* --- TSV word lists ------------------------------------------------------- */

static struct xmt_lex_span trim_spaces(const char *s, size_t n) {
  while (n > 0 && (*s == ' ' || *s == '\t'))
    s++, n--;
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  return (struct xmt_lex_span){s, n};
}

/* A weight: a positive finite number, spaces around allowed. */
static int parse_weight(struct xmt_lex_span f, double *w) {
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

static xmt_status tsv_line(struct xmt_lex_match *m, const struct xmt_lexfile *f,
                           const char *s, size_t n, unsigned long lineno,
                           struct xmt_error_store *err) {
  struct xmt_lex_span all = trim_spaces(s, n), field[3];
  if (all.n == 0 || all.s[0] == '#')
    return XMT_OK;
  size_t nf = 0;
  for (const char *p = s, *end = s + n; nf < 3 && p <= end;) {
    const char *tab = memchr(p, '\t', (size_t)(end - p));
    const char *fe = tab != NULL ? tab : end;
    field[nf++] = (struct xmt_lex_span){p, (size_t)(fe - p)};
    p = fe + 1;
    if (tab == NULL)
      break;
    if (nf == 3 && tab != NULL)
      nf = 4; /* a fourth field */
  }
  double weight = 1;
  if (nf < 2 || nf > 3 || (nf == 3 && !parse_weight(field[2], &weight)))
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(f->path, lineno),
                        "expected source word, tab, target word "
                        "[, tab, positive weight]");
  const char *w[2];
  size_t len[2];
  for (int i = 0; i < 2; i++) {
    struct xmt_lex_span t = trim_spaces(field[i].s, field[i].n);
    if (t.n == 0)
      return xmt_error_at(err, XMT_ERR_FORMAT, XMT_AT_LINE(f->path, lineno),
                          "empty word");
    int sd = f->reversed ? 1 - i : i;
    w[sd] = t.s;
    len[sd] = t.n;
  }
  return xmt_lex_pair(m, w, len, weight);
}

static xmt_status read_tsv(struct xmt_lex_match *m, const struct xmt_lexfile *f,
                           struct xmt_error_store *err) {
  struct xmt_buf text = {0};
  xmt_status st = xmt_lex_read_file(f->path, &text, err);
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
  struct xmt_lex_apertium *ap;  /* reads the Apertium files */
  xmt_status *status;           /* per position in order */
  unsigned char *done;          /* per position: read */
  struct xmt_error_store *errs; /* per position */
  pthread_mutex_t lock;
  size_t next;
  int failed;
};

static xmt_status read_one(struct xmt_lex_match *m, struct pool *p,
                           size_t pos) {
  const struct xmt_lexfile *f = &p->l->f[p->order[pos]];
  struct xmt_error_store *err = &p->errs[pos];
  if (f->kind == XMT_LEX_DICTD)
    return xmt_lex_read_dictd(m, f, err);
  if (f->kind == XMT_LEX_TSV)
    return read_tsv(m, f, err);
  return xmt_lex_apertium_read(m, p->ap, p->order[pos], err);
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

/* The reading order: dictd and TSV files, then Apertium's. */
static void pool_order(const struct lexlist *l, size_t *order) {
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < l->n; i++)
      if ((l->f[i].kind == XMT_LEX_APERTIUM) == pass)
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
    if (p->l->f[i].kind != XMT_LEX_APERTIUM || xmt_lex_apertium_has(p->ap, i))
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
  if (st == XMT_OK)
    st = xmt_lex_apertium_start(&p.ap, l.f, l.n, o, err);
  if (st == XMT_OK)
    st = pool_read(&p, m, o);
  if (st == XMT_OK)
    st = pool_outcome(&p, stats, err);
  if (pool_ok) {
    xmt_lex_apertium_end(p.ap);
    pthread_mutex_destroy(&p.lock);
    pool_free(&p);
  }
  lexlist_free(&l);
  if (st == XMT_ERR_NOMEM)
    return xmt_error_set(err, st, "out of memory reading dictionaries");
  return st;
}
