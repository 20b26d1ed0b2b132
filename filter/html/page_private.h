/* page_private.h -- what the pieces of the HTML page reader share: the
 * builder's state, its small helpers (static inline, out of the library's
 * symbols) and the functions each piece offers the others. The reader is
 * cut by job: page.c the builder's helpers, the build loop and loading;
 * page_walk.c the tree walk (the element stack, the tokens, translatable
 * attributes); page_units.c the text units with their inline codes. */
#ifndef XMT_PAGE_PRIVATE_H
#define XMT_PAGE_PRIVATE_H

#ifndef XMT_BUILDING_LIBRARY
#error "page_private.h is internal to libxliffmt"
#endif

#include <string.h>

#include "html_private.h"

#define NONE ((size_t)-1)

/* How far searches for an open element look: absurdly deep nesting costs
 * linear time, as in browsers, which cap their searches too. */
#define SEARCH_LIMIT 1024

/* --- The builder ------------------------------------------------------------
 */

struct open_elem {
  char name[24]; /* lower case; "" when too long to matter */
  unsigned flags;
  unsigned char notrans;   /* content not translated */
  unsigned char preserve;  /* whitespace significant */
  unsigned char as_inline; /* a code of the running text */
  char *id;                /* its id attribute, for resname */
};

enum item_type { IT_TEXT, IT_OPEN, IT_CLOSE, IT_CODE };

/* A piece of the text unit being collected. */
struct item {
  enum item_type type;
  size_t start, end;
  char name[24];
  enum xmt_tag_kind kind;
  size_t partner;
  unsigned id;
};

struct builder {
  struct html_doc *doc;
  struct html_view page; /* the page's bytes, as its doc's */
  struct open_elem *stack;
  size_t depth, stack_cap;
  struct item *items; /* the running text unit */
  size_t nitems, items_cap;
  size_t *open; /* pairing: open items, then crossed ones */
  size_t *crossed;
  size_t ph_item;  /* the untranslated inline element being skipped */
  size_t ph_entry; /* its stack index */
  char restype[48];
  char *resname;
  int preserve;
  int run_text; /* the running unit has text */
  int root_seen;
  char *meta_lang;
  struct xmt_buf text; /* scratch */
  struct xmt_buf markup;
  xmt_status st;
  const char *why; /* st's reason when not a status's own (NULL) */
};

/* --- Small helpers ---------------------------------------------------------
 */

/* name equal to s, its first byte compared before calling strcmp: the
 * walk tries each tag's name against many. */
static inline int name_is(const char *name, const char *s) {
  return name[0] == s[0] && strcmp(name, s) == 0;
}

static inline int name_in(const char *name, const char *const *list) {
  for (; *list != NULL; list++)
    if (name_is(name, *list))
      return 1;
  return 0;
}

/* array grown by at least one element (*cap updated). */
static inline void *grow(void *array, size_t *cap, size_t size) {
  return xmt_grow_array(array, cap, *cap + 1, size);
}

static inline int fail(struct builder *b, xmt_status st) {
  if (b->st == XMT_OK)
    b->st = st;
  return 0;
}

/* src copied into dst of cap (> 0) bytes, cut as snprintf's "%s" would:
 * per name and per code, where snprintf cost a fifth of the reading. */
static inline void copy_cut(char *dst, size_t cap, const char *src) {
  size_t n = 0;
  while (src[n] != '\0' && n + 1 < cap)
    n++;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* n in decimal into buf (11 bytes at least), ended by '\0'; its length. */
static inline size_t put_uint(char *buf, unsigned n) {
  char tmp[10];
  size_t len = 0;
  do
    tmp[len++] = (char)('0' + n % 10);
  while ((n /= 10) != 0);
  for (size_t i = 0; i < len; i++)
    buf[i] = tmp[len - 1 - i];
  buf[len] = '\0';
  return len;
}

static inline int ascii_ieq(const char *a, const char *b) {
  for (; *a != '\0' && *b != '\0'; a++, b++)
    if ((*a | 0x20) != (*b | 0x20))
      return 0;
  return *a == *b;
}

/* --- page.c: attribute values, text, holes and units of the document ----- */

int xmt_page_attr_value(struct builder *b, const struct html_token *tok,
                        const char *name);
int xmt_page_has_word(const char *s, const char *word);
void xmt_page_normalize(struct xmt_buf *buf, int trim);
int xmt_page_has_content(const char *s, size_t len);
void xmt_page_add_hole(struct builder *b, enum html_hole_kind kind,
                       size_t start, size_t end, size_t unit, char quote);
struct html_unit *xmt_page_new_unit(struct builder *b, size_t start, size_t end,
                                    const char *restype, const char *resname,
                                    xmt_segment *source);

/* The build loop's ends: the builder of doc and its lexer set up (past a
 * byte order mark); the running text ended and the page's language
 * settled at the end of the page; the builder freed. */
void xmt_page_builder_init(struct builder *b, struct html_doc *doc,
                           struct html_lexer *lx);
void xmt_page_builder_end(struct builder *b);
void xmt_page_builder_free(struct builder *b);
/* Holes in the writer's order: by start, the outer first. */
void xmt_page_sort_holes(struct html_hole *holes, size_t n);

/* --- page_walk.c: the tree walk ------------------------------------------- */

void xmt_page_pop_to(struct builder *b, size_t k, size_t cause);
void xmt_page_on_token(struct builder *b, const struct html_token *tok);

/* --- page_units.c: the running text unit ---------------------------------- */

struct item *xmt_page_add_item(struct builder *b, enum item_type type,
                               size_t start, size_t end, const char *name);
void xmt_page_flush_run(struct builder *b);

#endif
