/* lexicon.c -- what the dictionary readers share: words, files. */

/* The words that dictionary text stands for, and the file reading of the
 * readers (lexicon_dictd.c, lexicon_apertium.c, lexicon_tsv.c) and of the
 * loader above them (lexicon_load.c). It calls none of them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lexicon_private.h"

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

/* --- Files --------------------------------------------------------------- */

int xmt_lex_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

int xmt_lex_is_file(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

char *xmt_lex_join_path(const char *dir, const char *a, const char *b) {
  size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s != NULL)
    snprintf(s, n, "%s/%s%s", dir, a, b);
  return s;
}

xmt_status xmt_lex_io_error(struct xmt_error_store *err, const char *path,
                            const char *what, int e) {
  return xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "%s: %s", what,
                      strerror(e));
}

/* Appends the rest of fd to out; 0, or -1 with errno (ENOMEM: no memory). */
int xmt_lex_read_all(int fd, struct xmt_buf *out) {
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

xmt_status xmt_lex_read_file(const char *path, struct xmt_buf *out,
                             struct xmt_error_store *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return xmt_lex_io_error(err, path, "cannot open", errno);
  int r = xmt_lex_read_all(fd, out), e = errno;
  close(fd);
  if (r != 0 && e == ENOMEM)
    return XMT_ERR_NOMEM;
  return r == 0 ? XMT_OK : xmt_lex_io_error(err, path, "cannot read", e);
}
