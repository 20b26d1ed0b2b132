/* upper_backend.c -- a sample xliffmt MT backend plug-in: "translates" by
 * changing the case of ASCII letters, and returns the word alignment, as a
 * real engine wrapper would.
 *
 *   cc -shared -fPIC $(pkg-config --cflags xliffmt) -o upper_backend.so \
 *      upper_backend.c
 *   xliffmt translate in.xlf -o out.xlf --mt plugin:./upper_backend.so \
 *      [--mt-option case=lower]
 *
 * The library functions it calls (xmt_mt_response_set_*) come from the
 * program that loads it, so it is not linked with -lxliffmt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmt_filter.h>

#if defined(__GNUC__)
#define PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PLUGIN_EXPORT
#endif

struct upper {
  int lower;                       /* case=lower */
  char *out, *stok, *ttok, *links; /* scratch, reused from call to call */
  size_t cap;
};

static int upper_open(void *user, const struct xmt_backend_config *config,
                      void **state, char *errbuf, size_t errlen) {
  (void)user;
  int lower = 0;
  for (const char *const *o = config->options; *o != NULL; o++) {
    if (strcmp(*o, "case=lower") == 0) {
      lower = 1;
    } else if (strcmp(*o, "case=upper") != 0) {
      snprintf(errbuf, errlen, "upper: unknown option '%s' (case=upper|lower)",
               *o);
      return 1;
    }
  }
  struct upper *u = calloc(1, sizeof *u);
  if (u == NULL) {
    snprintf(errbuf, errlen, "out of memory");
    return 1;
  }
  u->lower = lower;
  *state = u;
  return 0;
}

static int grow(char **p, size_t size) {
  char *bigger = realloc(*p, size);
  if (bigger != NULL)
    *p = bigger;
  return bigger != NULL;
}

/* Room for a text of len bytes; the alignment takes at most 44 bytes per
 * word ("i-i " with 64-bit indexes). Returns 0 when out of memory. */
static int reserve(struct upper *u, size_t len) {
  size_t need = len + 1;
  if (need <= u->cap)
    return 1;
  if (!grow(&u->out, need) || !grow(&u->stok, need) || !grow(&u->ttok, need) ||
      !grow(&u->links, need * 44))
    return 0;
  u->cap = need;
  return 1;
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char change_case(const struct upper *u, char c) {
  if (!u->lower && c >= 'a' && c <= 'z')
    return (char)(c - 'a' + 'A');
  if (u->lower && c >= 'A' && c <= 'Z')
    return (char)(c - 'A' + 'a');
  return c;
}

/* Translates one request. Case changes keep every word where it is, so
 * word i of the answer is word i of the request: the alignment is
 * "0-0 1-1 ...", over the words of both texts (runs of non-space
 * characters) given as the space-separated token strings. */
static int upper_one(struct upper *u, const struct xmt_mt_request *r,
                     xmt_mt_response *response) {
  if (!reserve(u, r->len))
    return 1;
  size_t words = 0, ntok = 0, nlinks = 0;
  for (size_t k = 0; k < r->len; k++) {
    char c = r->text[k];
    u->out[k] = change_case(u, c);
    if (is_space(c))
      continue;
    if (k == 0 || is_space(r->text[k - 1])) {
      if (words > 0) {
        u->stok[ntok] = u->ttok[ntok] = ' ';
        ntok++;
      }
      nlinks += (size_t)sprintf(u->links + nlinks, "%s%zu-%zu",
                                words > 0 ? " " : "", words, words);
      words++;
    }
    u->stok[ntok] = c;
    u->ttok[ntok++] = u->out[k];
  }
  u->out[r->len] = u->stok[ntok] = u->ttok[ntok] = u->links[nlinks] = '\0';
  if (xmt_mt_response_set_text(response, u->out, r->len) != XMT_OK)
    return 1;
  if (words > 0 && xmt_mt_response_set_alignment(response, u->links, u->stok,
                                                 u->ttok) != XMT_OK)
    return 1;
  return 0;
}

/* Non-zero aborts the run: only for running out of memory here. A real
 * engine would mark a segment it cannot translate with
 * xmt_mt_response_set_error() and go on. */
static int upper_translate(void *state, const struct xmt_mt_request *requests,
                           xmt_mt_response *const *responses, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (upper_one(state, &requests[i], responses[i]) != 0)
      return 1;
  return 0;
}

static void upper_close(void *state) {
  struct upper *u = state;
  if (u == NULL)
    return;
  free(u->out);
  free(u->stok);
  free(u->ttok);
  free(u->links);
  free(u);
}

static const struct xmt_backend upper_backend = {
    XMT_BACKEND_ABI_VERSION, "upper",     upper_open,
    upper_translate,         upper_close, NULL};

/* The entry point: xmt_backend_plugin, which the library looks up as
 * XMT_BACKEND_PLUGIN_SYMBOL. */
PLUGIN_EXPORT const struct xmt_backend *XMT_BACKEND_PLUGIN_ENTRY(void);

const struct xmt_backend *XMT_BACKEND_PLUGIN_ENTRY(void) {
  return &upper_backend;
}
