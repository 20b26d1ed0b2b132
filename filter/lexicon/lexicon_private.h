/* lexicon_private.h -- the dictionary readers of the aligner's priors:
 * which files (named, or every installed one of a language pair), FreeDict
 * dictd files, Apertium transducers through lt-print, TSV word lists, read
 * by a pool of threads. They hand each pair of words to the projector's
 * matcher (xmt_lex_wanted, xmt_lex_pair in priors_private.h), which keeps
 * only those of the document's vocabulary: the projector reads no file and
 * starts no process. Not installed. */
#ifndef XMT_LEXICON_PRIVATE_H
#define XMT_LEXICON_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "lexicon_private.h is internal to libxliffmt"
#endif

#include "priors_private.h"

/* Reads every dictionary o names into m (lexicon_load.c), adding to stats'
 * dictionaries_loaded and loaded. Files are read by up to o->threads
 * threads, each with a copy of m. */
xmt_status xmt_lexicon_load(struct xmt_lex_match *m,
                            const struct xmt_prior_options *o,
                            struct xmt_prior_stats *stats,
                            struct xmt_error_store *err);

/* --- Inside this folder ---------------------------------------------------
 * lexicon_load.c picks the files and shares them out between threads and
 * the readers of each kind; what they all use is in lexicon.c. */

/* --- lexicon.c: dictionary words and files ------------------------------ */

/* Bytes of a dictionary's text. */
struct xmt_lex_span {
  const char *s;
  size_t n;
};

/* Content words of a phrase linked to a headword, at most. */
#define XMT_LEX_PHRASE_WORDS 3

/* The one word that dictionary text s (a headword, or one alternative of a
 * translation) stands for in language lang (ISO 639-1, "" unknown),
 * without articles, placeholders and punctuation; n = 0 when it has
 * several. */
struct xmt_lex_span xmt_lex_single_word(const char *s, size_t n,
                                        const char *lang);
/* The content words of phrase s into out; 0 when there are more than
 * XMT_LEX_PHRASE_WORDS. */
size_t xmt_lex_phrase_words(const char *s, size_t n, const char *lang,
                            struct xmt_lex_span out[XMT_LEX_PHRASE_WORDS]);
/* out = translation line s with its notes ((...), [...], /.../) blanked. */
xmt_status xmt_lex_clean_line(const char *s, size_t n, struct xmt_buf *out);

enum { XMT_LEX_DICTD, XMT_LEX_APERTIUM, XMT_LEX_TSV, XMT_LEX_KINDS };

/* A dictionary file to read. */
struct xmt_lexfile {
  char *path; /* dictd: the index; else the file */
  char *data; /* dictd: the .dict.dz or .dict */
  char *name; /* for reports: dictd's base name, else the path */
  int kind;
  int reversed; /* its first language is our target language */
  int named;    /* named by the caller, not found by "auto" */
};

int xmt_lex_ends_with(const char *s, const char *suffix);
/* Whether path is a regular file (following links). */
int xmt_lex_is_file(const char *path);
/* "dir/ab"; NULL when out of memory. */
char *xmt_lex_join_path(const char *dir, const char *a, const char *b);

/* An XMT_ERR_IO error "what: strerror(e)" naming path. */
xmt_status xmt_lex_io_error(struct xmt_error_store *err, const char *path,
                            const char *what, int e);
/* Appends the rest of fd to out; 0, or -1 with errno (ENOMEM: no memory). */
int xmt_lex_read_all(int fd, struct xmt_buf *out);
/* Appends the whole file at path to out. */
xmt_status xmt_lex_read_file(const char *path, struct xmt_buf *out,
                             struct xmt_error_store *err);

/* --- The readers --------------------------------------------------------
 * One a kind of file (XMT_LEX_DICTD, ...): lexicon_load.c holds them in a
 * table by kind and calls them; they call nothing above lexicon.c. */
struct xmt_lex_reader {
  /* Before any file is read (NULL: nothing to do), with the whole list f of
   * n files, which stays until end: sets *state for the calls below, also
   * on errors (NULL when out of memory). */
  xmt_status (*start)(void **state, const struct xmt_lexfile *f, size_t n,
                      const struct xmt_prior_options *o,
                      struct xmt_error_store *err);
  /* Links the word pairs of file f, the list's i-th, into m. Different
   * files may be read by different threads at once. */
  xmt_status (*read)(struct xmt_lex_match *m, void *state,
                     const struct xmt_lexfile *f, size_t i,
                     struct xmt_error_store *err);
  /* Whether file i is read, not left out (NULL: every file is). */
  int (*has)(const void *state, size_t i);
  /* Stops what still runs and frees state (NULL: nothing to free). */
  void (*end)(void *state);
  /* Its files are read after the others (its start has work running in
   * the background that wants the time). */
  int late;
};

/* FreeDict dictd files (lexicon_dictd.c). */
extern const struct xmt_lex_reader xmt_lex_dictd_reader;
/* Apertium transducers: their lemma pairs from the user's cache, else from
 * lt-print, started by start (lexicon_apertium.c). Without lt-print, files
 * "auto" found and that have no cached pairs are left out; a named one is
 * an XMT_ERR_IO error. */
extern const struct xmt_lex_reader xmt_lex_apertium_reader;
/* TSV word lists (lexicon_tsv.c). */
extern const struct xmt_lex_reader xmt_lex_tsv_reader;

#endif /* XMT_LEXICON_PRIVATE_H */
