/* inline.c -- XLIFF inline content <-> tagged segments. */
#include "config.h"

#include <expat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "xliff_private.h"

void xmt_ib_init(struct xmt_inline_builder *ib) { memset(ib, 0, sizeof *ib); }

void xmt_ib_free(struct xmt_inline_builder *ib) {
  xmt_buf_free(&ib->text);
  xmt_buf_free(&ib->pool);
  free(ib->tags);
  free(ib->open);
  free(ib->refs);
  free(ib->work);
  xmt_buf_free(&ib->candidate);
  memset(ib, 0, sizeof *ib);
}

void xmt_ib_reset(struct xmt_inline_builder *ib) {
  xmt_buf_reset(&ib->text);
  xmt_buf_reset(&ib->pool);
  ib->ntags = 0;
  ib->nopen = 0;
  ib->mrk_count = 0;
}

xmt_status xmt_ib_text(struct xmt_inline_builder *ib, const char *s,
                       size_t len) {
  return xmt_buf_append(&ib->text, s, len);
}

static const char *static_name(const char *name) {
  static const char *const names[] = {"g",   "x",  "bx", "ex",  "bpt",
                                      "ept", "ph", "it", "mrk", "sub"};
  /* The first letters first: called for every inline element. */
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (name[0] == names[i][0] && strcmp(name, names[i]) == 0)
      return names[i];
  return "?";
}

/* name is a static string, or NULL for a name stored at name_off in the
 * pool (generic markup keeps any element name; a pair's ends share it). */
static xmt_status push_tag(struct xmt_inline_builder *ib,
                           enum xmt_tag_kind kind, const char *name,
                           size_t name_off, const char *key, const char *markup,
                           size_t len) {
  if (ib->ntags == ib->cap) {
    struct xmt_pending_tag *tags =
        xmt_grow_array(ib->tags, &ib->cap, ib->ntags + 1, sizeof *tags);
    if (tags == NULL)
      return XMT_ERR_NOMEM;
    ib->tags = tags;
  }
  struct xmt_pending_tag *t = &ib->tags[ib->ntags];
  t->kind = kind;
  t->offset = ib->text.len;
  t->name = name;
  t->name_off = name_off;
  t->partner = SIZE_MAX;
  t->key = ib->pool.len;
  t->key_len = key != NULL ? strlen(key) : 0;
  xmt_status st =
      xmt_buf_append(&ib->pool, key != NULL ? key : "", t->key_len + 1);
  t->markup = ib->pool.len;
  t->markup_len = len;
  if (st == XMT_OK)
    st = xmt_buf_append(&ib->pool, markup, len);
  if (st == XMT_OK)
    ib->ntags++;
  return st;
}

static xmt_status open_tag(struct xmt_inline_builder *ib, const char *name,
                           size_t name_off, const char *key, const char *markup,
                           size_t len) {
  if (ib->nopen == ib->open_cap) {
    size_t *open =
        xmt_grow_array(ib->open, &ib->open_cap, ib->nopen + 1, sizeof *open);
    if (open == NULL)
      return XMT_ERR_NOMEM;
    ib->open = open;
  }
  ib->open[ib->nopen++] = ib->ntags;
  return push_tag(ib, XMT_TAG_OPEN, name, name_off, key, markup, len);
}

xmt_status xmt_ib_open(struct xmt_inline_builder *ib, const char *name,
                       const char *key, const char *markup, size_t len) {
  return open_tag(ib, static_name(name), 0, key, markup, len);
}

xmt_status xmt_ib_close(struct xmt_inline_builder *ib, const char *markup,
                        size_t len) {
  if (ib->nopen == 0)
    return XMT_ERR_INTERNAL;
  size_t open = ib->open[--ib->nopen];
  /* Copy the key: push_tag may move the pool. On the stack when short, as
   * ids are, rather than an allocation for every end tag. */
  char local[64], *key = local;
  size_t key_len = ib->tags[open].key_len;
  if (key_len >= sizeof local && (key = malloc(key_len + 1)) == NULL)
    return XMT_ERR_NOMEM;
  memcpy(key, ib->pool.data + ib->tags[open].key, key_len + 1);
  xmt_status st = push_tag(ib, XMT_TAG_CLOSE, ib->tags[open].name,
                           ib->tags[open].name_off, key, markup, len);
  if (key != local)
    free(key);
  if (st == XMT_OK) {
    ib->tags[open].partner = ib->ntags - 1;
    ib->tags[ib->ntags - 1].partner = open;
  }
  return st;
}

xmt_status xmt_ib_code(struct xmt_inline_builder *ib, enum xmt_tag_kind kind,
                       const char *name, const char *key, const char *markup,
                       size_t len) {
  return push_tag(ib, kind, static_name(name), 0, key, markup, len);
}

/* Stores a generic element name in the pool; *off gets its offset. */
static xmt_status pool_name(struct xmt_inline_builder *ib, const char *name,
                            size_t *off) {
  *off = ib->pool.len;
  return xmt_buf_append(&ib->pool, name, strlen(name) + 1);
}

/* Pairs made and keys told apart: what the segment is built from. */
static xmt_status ib_prepare(struct xmt_inline_builder *ib) {
  if (ib->nopen != 0)
    return XMT_ERR_INTERNAL;
  xmt_status st = xmt_ib_pair_isolated(ib);
  return st == XMT_OK ? xmt_ib_unique_keys(ib) : st;
}

/* The text whole, then each tag at its offset in it. */
static xmt_status ib_fill(const struct xmt_inline_builder *ib,
                          xmt_segment *out) {
  xmt_status st = XMT_OK;
  if (ib->text.len > 0)
    st = xmt_segment_append_valid_text(out, ib->text.data, ib->text.len);
  for (size_t i = 0; st == XMT_OK && i < ib->ntags; i++) {
    const struct xmt_pending_tag *t = &ib->tags[i];
    const char *name = xmt_pending_name(ib, t);
    st = xmt_segment_put_tag(out, t->offset, t->kind, ib->pool.data + t->key,
                             t->key_len, name, strlen(name),
                             ib->pool.data + t->markup, t->markup_len);
  }
  return st;
}

xmt_status xmt_ib_finish(struct xmt_inline_builder *ib, xmt_segment *out) {
  xmt_segment_clear(out);
  xmt_status st = ib_prepare(ib);
  /* Names are short; the pool holds keys and markup. */
  if (st == XMT_OK)
    st = xmt_segment_reserve(out, ib->text.len, ib->pool.len + 4 * ib->ntags,
                             ib->ntags);
  return st == XMT_OK ? ib_fill(ib, out) : st;
}

xmt_status xmt_ib_finish_new(struct xmt_inline_builder *ib, xmt_segment **out) {
  *out = NULL;
  xmt_status st = ib_prepare(ib);
  if (st != XMT_OK)
    return st;
  /* The tags' strings as the segment keeps them, each with its NUL. */
  size_t pool = 0;
  for (size_t i = 0; i < ib->ntags; i++) {
    const struct xmt_pending_tag *t = &ib->tags[i];
    pool += t->key_len + strlen(xmt_pending_name(ib, t)) + t->markup_len + 3;
  }
  xmt_segment *seg = xmt_segment_new_sized(ib->text.len, pool, ib->ntags);
  if (seg == NULL)
    return XMT_ERR_NOMEM;
  if ((st = ib_fill(ib, seg)) != XMT_OK) {
    xmt_segment_free(seg);
    return st;
  }
  *out = seg;
  return XMT_OK;
}

int xmt_is_code_element(const char *name) {
  static const char *const codes[] = {"x",   "bx",  "ex", "ph",
                                      "bpt", "ept", "it"};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
    if (name[0] == codes[i][0] && strcmp(name, codes[i]) == 0)
      return 1;
  return 0;
}

int xmt_is_protected_mrk(const char *name, const char **atts) {
  if (strcmp(name, "mrk") != 0)
    return 0;
  for (; atts[0] != NULL; atts += 2)
    if (strcmp(atts[0], "mtype") == 0)
      return strcmp(atts[1], "protected") == 0;
  return 0;
}

enum xmt_tag_kind xmt_code_kind(const char *name, const char *pos) {
  if (name[0] == 'b' && (strcmp(name, "bx") == 0 || strcmp(name, "bpt") == 0))
    return XMT_TAG_ISOLATED_OPEN;
  if (name[0] == 'e' && (strcmp(name, "ex") == 0 || strcmp(name, "ept") == 0))
    return XMT_TAG_ISOLATED_CLOSE;
  if (strcmp(name, "it") == 0)
    return pos != NULL && strcmp(pos, "close") == 0 ? XMT_TAG_ISOLATED_CLOSE
                                                    : XMT_TAG_ISOLATED_OPEN;
  return XMT_TAG_PLACEHOLDER;
}

/* Eight bytes at a time: most text is printable ASCII, and a word of it
 * needs no look at each byte. ONES * c has c in every byte; a byte of
 * has_zero(w) has its high bit set where w has a zero byte (exactly:
 * whether there is one at all). */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

static uint64_t has_zero(uint64_t w) { return (w - ONES) & ~w; }

/* 1 when the 8 bytes at p are printable ASCII (0x20 to 0x7F), and with
 * markup set none of them is &, < or >. */
static int plain_ascii8(const char *p, int markup) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  uint64_t bad = w | ((w - ONES * 0x20) & ~w); /* non-ASCII or a control */
  if (markup)
    bad |= has_zero(w ^ (ONES * '&')) | has_zero(w ^ (ONES * '<')) |
           has_zero(w ^ (ONES * '>'));
  return (bad & HIGHS) == 0;
}

/* The first bytes of what xmt_xml_forbidden_at finds, as entries of the
 * byte tables below: the C0 controls but tab, line feed and carriage
 * return; 0xED, of a surrogate; 0xEF, of U+FFFE and U+FFFF. */
#define XML_FORBIDDEN_FIRST_BYTES                                              \
  [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1,      \
  [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x0B] = 1, [0x0C] = 1, [0x0E] = 1,      \
  [0x0F] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1,      \
  [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1A] = 1,      \
  [0x1B] = 1, [0x1C] = 1, [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, [0xED] = 1,      \
  [0xEF] = 1

/* Bytes that may need escaping or dropping; everything else is copied in
 * runs. */
static const unsigned char escape_candidate[256] = {
    XML_FORBIDDEN_FIRST_BYTES, ['&'] = 1, ['<'] = 1, ['>'] = 1, ['\r'] = 1};

size_t xmt_xml_forbidden_at(const char *text, size_t len, size_t i) {
  const unsigned char *s = (const unsigned char *)text;
  if (s[i] < 0x20)
    return s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ? 0 : 1;
  if (i + 2 < len && s[i] == 0xEF && s[i + 1] == 0xBF &&
      (s[i + 2] == 0xBE || s[i + 2] == 0xBF))
    return 3; /* U+FFFE, U+FFFF */
  if (i + 2 < len && s[i] == 0xED && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF)
    return 3; /* a UTF-16 surrogate written as UTF-8 */
  return 0;
}

/* Bytes where xmt_xml_forbidden_at may find something. */
static const unsigned char forbidden_candidate[256] = {
    XML_FORBIDDEN_FIRST_BYTES};

size_t xmt_xml_allowed_run(const char *text, size_t len, size_t i) {
  const unsigned char *s = (const unsigned char *)text;
  while (i < len) {
    if (i + 8 <= len && plain_ascii8(text + i, 0)) {
      i += 8;
      continue;
    }
    size_t stop = i + 8 < len ? i + 8 : len;
    while (i < stop && !forbidden_candidate[s[i]])
      i++;
    if (i < stop)
      return i;
  }
  return len;
}

/* First bytes of what xmt_text_strip_controls removes: most answers have
 * none, and are left after one look at each byte. */
static const unsigned char strip_candidate[256] = {
    XML_FORBIDDEN_FIRST_BYTES, [0xC2] = 1, ['\r'] = 1};

/* The length of a terminal's escape sequence at r, which holds ESC or
 * U+009B (CSI): ESC [ or CSI, then parameters and intermediates, then a
 * final byte (colours, cursor moves); ESC ] up to BEL or ESC \ (a
 * window title). Such a sequence is no text of a translation: removed
 * whole, not only its control, so that "[32m" does not reach the
 * target. 0: only the control goes. */
static size_t escape_sequence_at(const unsigned char *s, size_t len, size_t r) {
  size_t i;
  if (s[r] == 0x1B && r + 1 < len && s[r + 1] == '[')
    i = r + 2;
  else if (s[r] == 0xC2 && r + 1 < len && s[r + 1] == 0x9B)
    i = r + 2;
  else if (s[r] == 0x1B && r + 1 < len && s[r + 1] == ']') {
    for (i = r + 2; i < len; i++) {
      if (s[i] == 0x07)
        return i + 1 - r;
      if (s[i] == 0x1B && i + 1 < len && s[i + 1] == '\\')
        return i + 2 - r;
    }
    return 0; /* unterminated: the text after it is kept */
  } else
    return 0;
  while (i < len && s[i] >= 0x20 && s[i] <= 0x3F)
    i++;
  if (i < len && s[i] >= 0x40 && s[i] <= 0x7E)
    return i + 1 - r;
  return 0;
}

/* 1 when the two bytes of a C1 control at p are in src too. */
static int c1_in(const char *src, size_t src_len, const unsigned char *p) {
  for (const char *q = src;
       src_len >= 2 &&
       (q = memchr(q, 0xC2, src_len - 1 - (size_t)(q - src))) != NULL;
       q++)
    if ((unsigned char)q[1] == p[1])
      return 1;
  return 0;
}

size_t xmt_text_strip_controls(char *text, size_t *len, const char *src,
                               size_t src_len) {
  const unsigned char *s = (const unsigned char *)text;
  int keep_cr = src_len > 0 && memchr(src, '\r', src_len) != NULL;
  size_t first = 0;
  while (first < *len) {
    if (first + 8 <= *len && plain_ascii8(text + first, 0)) {
      first += 8;
      continue;
    }
    size_t stop = first + 8 < *len ? first + 8 : *len;
    while (first < stop && !strip_candidate[s[first]])
      first++;
    if (first < stop)
      break;
  }
  if (first == *len)
    return 0;
  size_t w = first, removed = 0;
  if (keep_cr && s[first] == '\r') { /* only CRs, kept: most such answers */
    while (first < *len && (s[first] == '\r' || !strip_candidate[s[first]]))
      first++;
    if (first == *len)
      return 0;
    w = first;
  }
  for (size_t r = first; r < *len;) {
    size_t n = escape_sequence_at(s, *len, r);
    if (n == 0)
      n = xmt_xml_forbidden_at(text, *len, r);
    if (n == 0 && r + 1 < *len && s[r] == 0xC2 && s[r + 1] >= 0x80 &&
        s[r + 1] <= 0x9F && !c1_in(src, src_len, s + r))
      n = 2; /* C1 controls: allowed by XML 1.0, meaningless in text */
    if (n == 0 && s[r] == '\r' && !keep_cr)
      n = 1; /* a line ending cut in two, a progress display's return */
    if (n > 0) {
      r += n;
      removed++;
      continue;
    }
    text[w++] = text[r++];
  }
  *len = w;
  return removed;
}

/* Bytes an attribute value may not carry as they are; everything else is
 * copied in runs. */
static const unsigned char attr_candidate[256] = {XML_FORBIDDEN_FIRST_BYTES,
                                                  ['\t'] = 1,
                                                  ['\n'] = 1,
                                                  ['\r'] = 1,
                                                  ['&'] = 1,
                                                  ['<'] = 1,
                                                  ['"'] = 1};

xmt_status xmt_xml_escape_attr(struct xmt_buf *out, const char *s) {
  xmt_status st = XMT_OK;
  size_t len = strlen(s), from = 0;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    if (!attr_candidate[(unsigned char)s[i]])
      continue;
    st = xmt_buf_append(out, s + from, i - from);
    from = i + 1;
    size_t bad = xmt_xml_forbidden_at(s, len, i);
    if (bad > 0) { /* dropped */
      i += bad - 1;
      from = i + 1;
      continue;
    }
    char c = s[i];
    const char *ref = c == '&'    ? "&amp;"
                      : c == '<'  ? "&lt;"
                      : c == '"'  ? "&quot;"
                      : c == '\t' ? "&#9;"
                      : c == '\n' ? "&#10;"
                      : c == '\r' ? "&#13;"
                                  : NULL;
    if (st == XMT_OK)
      st = ref != NULL ? xmt_buf_append_str(out, ref)
                       : xmt_buf_append_byte(out, c);
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, s + from, len - from);
  return st;
}

xmt_status xmt_xml_escape_text(struct xmt_buf *out, const char *s, size_t len) {
  /* Room for the text as it is, without a call when there is. */
  xmt_status st = out->cap - out->len > len ? XMT_OK : xmt_buf_grow(out, len);
  size_t from = 0, i = 0, stop = 0;
  while (i < len && st == XMT_OK) {
    if (i >= stop && i + 8 <= len && plain_ascii8(s + i, 1)) {
      i += 8;
      continue;
    }
    /* A word with something to look at: byte by byte to its end. */
    if (i >= stop)
      stop = i + 8;
    if (!escape_candidate[(unsigned char)s[i]]) {
      i++;
      continue;
    }
    size_t bad = xmt_xml_forbidden_at(s, len, i);
    if (bad > 0) { /* never written, whatever the caller hands us */
      st = xmt_buf_append(out, s + from, i - from);
      i += bad;
      from = i;
      continue;
    }
    const char *rep = NULL;
    switch (s[i]) {
    case '&':
      rep = "&amp;";
      break;
    case '<':
      rep = "&lt;";
      break;
    case '>': /* only "]]>" must be broken up */
      if (i >= 2 && s[i - 1] == ']' && s[i - 2] == ']')
        rep = "&gt;";
      break;
    case '\r': /* a literal CR would be normalised away by parsers */
      rep = "&#13;";
      break;
    default: /* the first byte of a character XML can carry */
      break;
    }
    if (rep != NULL) {
      st = xmt_buf_append(out, s + from, i - from);
      if (st == XMT_OK)
        st = xmt_buf_append_str(out, rep);
      from = i + 1;
    }
    i++;
  }
  if (st == XMT_OK)
    st = xmt_buf_append(out, s + from, len - from);
  return st;
}

xmt_status xmt_inline_render_into(struct xmt_buf *out, const xmt_segment *seg) {
  size_t text_len;
  const char *text = xmt_segment_text(seg, &text_len);
  size_t at = 0, n = xmt_segment_tag_count(seg);
  xmt_status st = xmt_buf_grow(out, text_len + 16);
  for (size_t i = 0; st == XMT_OK && i < n; i++) {
    struct xmt_tag tag;
    st = xmt_segment_tag(seg, i, &tag);
    if (st == XMT_OK && tag.offset > at)
      st = xmt_xml_escape_text(out, text + at, tag.offset - at);
    if (st == XMT_OK) {
      at = tag.offset > at ? tag.offset : at;
      st = xmt_buf_append(out, tag.markup, tag.markup_len);
    }
  }
  if (st == XMT_OK && text_len > at)
    st = xmt_xml_escape_text(out, text + at, text_len - at);
  return st;
}

char *xmt_xliff_inline_render(const xmt_segment *seg, size_t *len) {
  if (seg == NULL)
    return NULL;
  struct xmt_buf out = {0};
  if (xmt_inline_render_into(&out, seg) != XMT_OK ||
      (out.data == NULL && xmt_buf_grow(&out, 1) != XMT_OK)) {
    xmt_buf_free(&out);
    return NULL;
  }
  if (len != NULL)
    *len = out.len;
  return out.data;
}

/* --- Parsing a snippet ------------------------------------------------------
 * The snippet is wrapped in an element and parsed with expat; the byte
 * positions of events give each code its exact markup. The same machinery
 * parses generic XML/HTML inline markup (s->generic): every element is a
 * tag, whatever its name. */

/* How many elements of one name without an id a generic snippet has had,
 * for their "NAME#n" keys. */
struct name_count {
  char *name;
  unsigned n;
};

struct snippet {
  XML_Parser parser;
  struct xmt_inline_builder ib;
  const char *doc; /* the wrapped snippet */
  int generic;     /* any element names; no XLIFF code elements */
  int depth;       /* element depth; the wrapper is 1 */
  int code_depth;  /* > 0 inside a code element */
  int skip_end;    /* generic: the next end event closes an empty element */
  XML_Index code_start;
  char code_name[8];
  char *code_key;
  char *code_pos;
  struct name_count *counts;
  size_t ncounts, counts_cap;
  XML_Size entity_line; /* where an unknown entity was; line 0: none */
  XML_Size entity_column;
  xmt_status st;
};

#define XLIFF_NS "urn:oasis:names:tc:xliff:document:1.2"

static const char *attr(const char **atts, const char *name) {
  for (; atts[0] != NULL; atts += 2)
    if (strcmp(atts[0], name) == 0)
      return atts[1];
  return NULL;
}

static const char *local_name(const char *name) {
  const char *bar = strrchr(name, '|');
  return bar != NULL ? bar + 1 : name;
}

static void snippet_fail(struct snippet *s, xmt_status st) {
  if (s->st == XMT_OK)
    s->st = st;
  XML_StopParser(s->parser, XML_FALSE);
}

static int self_closing(const char *tag, int len) {
  return len >= 2 && tag[len - 2] == '/' && tag[len - 1] == '>';
}

/* Writes "NAME#n" into key for the n-th element NAME without an id. */
static xmt_status generic_key(struct snippet *s, const char *name, char *key,
                              size_t size) {
  size_t i = 0;
  while (i < s->ncounts && strcmp(s->counts[i].name, name) != 0)
    i++;
  if (i == s->ncounts) {
    if (s->ncounts == s->counts_cap) {
      struct name_count *counts = xmt_grow_array(
          s->counts, &s->counts_cap, s->ncounts + 1, sizeof *counts);
      if (counts == NULL)
        return XMT_ERR_NOMEM;
      s->counts = counts;
    }
    if ((s->counts[i].name = xmt_strdup(name)) == NULL)
      return XMT_ERR_NOMEM;
    s->counts[i].n = 0;
    s->ncounts++;
  }
  snprintf(key, size, "%s#%u", name, ++s->counts[i].n);
  return XMT_OK;
}

/* A generic start tag: a placeholder when self-closing, else a pair. */
static void generic_start(struct snippet *s, const char *name,
                          const char **atts, const char *tag, int count) {
  const char *key = attr(atts, "id");
  char *made = NULL;
  size_t name_off = 0;
  xmt_status st = XMT_OK;
  if (key == NULL) {
    size_t size = strlen(name) + 16;
    if ((made = malloc(size)) == NULL)
      st = XMT_ERR_NOMEM;
    else
      st = generic_key(s, name, made, size);
    key = made;
  }
  if (st == XMT_OK)
    st = pool_name(&s->ib, name, &name_off);
  if (st == XMT_OK && self_closing(tag, count)) {
    s->skip_end = 1;
    st = push_tag(&s->ib, XMT_TAG_PLACEHOLDER, NULL, name_off, key, tag,
                  (size_t)count);
  } else if (st == XMT_OK) {
    st = open_tag(&s->ib, NULL, name_off, key, tag, (size_t)count);
  }
  free(made);
  if (st != XMT_OK)
    snippet_fail(s, st);
}

static void snippet_start(void *user, const char *name, const char **atts) {
  struct snippet *s = user;
  s->depth++;
  if (s->depth == 1)
    return;
  if (s->code_depth > 0) {
    s->code_depth++;
    return;
  }
  XML_Index at = XML_GetCurrentByteIndex(s->parser);
  int count = XML_GetCurrentByteCount(s->parser);
  const char *tag = s->doc + at;
  if (s->generic) {
    generic_start(s, name, atts, tag, count);
    return;
  }
  const char *local = local_name(name);
  int is_xliff = strchr(name, '|') == NULL ||
                 strncmp(name, XLIFF_NS "|", sizeof XLIFF_NS) == 0;
  int is_pair = is_xliff &&
                (strcmp(local, "g") == 0 || strcmp(local, "mrk") == 0) &&
                !self_closing(tag, count) && !xmt_is_protected_mrk(local, atts);
  if (is_pair) {
    const char *key = attr(atts, "id");
    if (key == NULL)
      key = attr(atts, "mid");
    xmt_status st = xmt_ib_open(&s->ib, local, key, tag, (size_t)count);
    if (st != XMT_OK)
      snippet_fail(s, st);
    return;
  }
  /* Any other element is one code, kept whole. */
  s->code_depth = 1;
  s->code_start = at;
  snprintf(s->code_name, sizeof s->code_name, "%s",
           is_xliff && (xmt_is_code_element(local) || strcmp(local, "g") == 0 ||
                        strcmp(local, "mrk") == 0)
               ? local
               : "?");
  const char *rid = attr(atts, "rid");
  const char *key = rid != NULL ? rid : attr(atts, "id");
  if (key == NULL && strcmp(s->code_name, "mrk") == 0)
    key = attr(atts, "mid");
  const char *pos = attr(atts, "pos");
  free(s->code_key);
  free(s->code_pos);
  s->code_key = xmt_strdup(key);
  s->code_pos = xmt_strdup(pos);
  if ((key != NULL && s->code_key == NULL) ||
      (pos != NULL && s->code_pos == NULL))
    snippet_fail(s, XMT_ERR_NOMEM);
}

static void snippet_end(void *user, const char *name) {
  struct snippet *s = user;
  (void)name;
  s->depth--;
  if (s->depth == 0)
    return;
  if (s->skip_end) { /* the placeholder is in already */
    s->skip_end = 0;
    return;
  }
  XML_Index at = XML_GetCurrentByteIndex(s->parser);
  int count = XML_GetCurrentByteCount(s->parser);
  xmt_status st = XMT_OK;
  if (s->code_depth > 0) {
    if (--s->code_depth > 0)
      return;
    size_t len = (size_t)(at + count - s->code_start);
    const char *nm = strcmp(s->code_name, "?") == 0 ? "?" : s->code_name;
    st = xmt_ib_code(&s->ib, xmt_code_kind(nm, s->code_pos), nm, s->code_key,
                     s->doc + s->code_start, len);
  } else {
    st = xmt_ib_close(&s->ib, s->doc + at, (size_t)count);
  }
  if (st != XMT_OK)
    snippet_fail(s, st);
}

static void snippet_text(void *user, const char *text, int len) {
  struct snippet *s = user;
  if (s->code_depth > 0)
    return;
  xmt_status st = xmt_ib_text(&s->ib, text, (size_t)len);
  if (st != XMT_OK)
    snippet_fail(s, st);
}

/* The HTML 4 named entities, sorted by name (strcmp order). */
static const struct html_entity {
  const char *name;
  unsigned cp;
} html_entities[] = {
    {"AElig", 198},    {"Aacute", 193},   {"Acirc", 194},   {"Agrave", 192},
    {"Alpha", 913},    {"Aring", 197},    {"Atilde", 195},  {"Auml", 196},
    {"Beta", 914},     {"Ccedil", 199},   {"Chi", 935},     {"Dagger", 8225},
    {"Delta", 916},    {"ETH", 208},      {"Eacute", 201},  {"Ecirc", 202},
    {"Egrave", 200},   {"Epsilon", 917},  {"Eta", 919},     {"Euml", 203},
    {"Gamma", 915},    {"Iacute", 205},   {"Icirc", 206},   {"Igrave", 204},
    {"Iota", 921},     {"Iuml", 207},     {"Kappa", 922},   {"Lambda", 923},
    {"Mu", 924},       {"Ntilde", 209},   {"Nu", 925},      {"OElig", 338},
    {"Oacute", 211},   {"Ocirc", 212},    {"Ograve", 210},  {"Omega", 937},
    {"Omicron", 927},  {"Oslash", 216},   {"Otilde", 213},  {"Ouml", 214},
    {"Phi", 934},      {"Pi", 928},       {"Prime", 8243},  {"Psi", 936},
    {"Rho", 929},      {"Scaron", 352},   {"Sigma", 931},   {"THORN", 222},
    {"Tau", 932},      {"Theta", 920},    {"Uacute", 218},  {"Ucirc", 219},
    {"Ugrave", 217},   {"Upsilon", 933},  {"Uuml", 220},    {"Xi", 926},
    {"Yacute", 221},   {"Yuml", 376},     {"Zeta", 918},    {"aacute", 225},
    {"acirc", 226},    {"acute", 180},    {"aelig", 230},   {"agrave", 224},
    {"alefsym", 8501}, {"alpha", 945},    {"amp", 38},      {"and", 8743},
    {"ang", 8736},     {"aring", 229},    {"asymp", 8776},  {"atilde", 227},
    {"auml", 228},     {"bdquo", 8222},   {"beta", 946},    {"brvbar", 166},
    {"bull", 8226},    {"cap", 8745},     {"ccedil", 231},  {"cedil", 184},
    {"cent", 162},     {"chi", 967},      {"circ", 710},    {"clubs", 9827},
    {"cong", 8773},    {"copy", 169},     {"crarr", 8629},  {"cup", 8746},
    {"curren", 164},   {"dArr", 8659},    {"dagger", 8224}, {"darr", 8595},
    {"deg", 176},      {"delta", 948},    {"diams", 9830},  {"divide", 247},
    {"eacute", 233},   {"ecirc", 234},    {"egrave", 232},  {"empty", 8709},
    {"emsp", 8195},    {"ensp", 8194},    {"epsilon", 949}, {"equiv", 8801},
    {"eta", 951},      {"eth", 240},      {"euml", 235},    {"euro", 8364},
    {"exist", 8707},   {"fnof", 402},     {"forall", 8704}, {"frac12", 189},
    {"frac14", 188},   {"frac34", 190},   {"frasl", 8260},  {"gamma", 947},
    {"ge", 8805},      {"gt", 62},        {"hArr", 8660},   {"harr", 8596},
    {"hearts", 9829},  {"hellip", 8230},  {"iacute", 237},  {"icirc", 238},
    {"iexcl", 161},    {"igrave", 236},   {"image", 8465},  {"infin", 8734},
    {"int", 8747},     {"iota", 953},     {"iquest", 191},  {"isin", 8712},
    {"iuml", 239},     {"kappa", 954},    {"lArr", 8656},   {"lambda", 955},
    {"lang", 9001},    {"laquo", 171},    {"larr", 8592},   {"lceil", 8968},
    {"ldquo", 8220},   {"le", 8804},      {"lfloor", 8970}, {"lowast", 8727},
    {"loz", 9674},     {"lrm", 8206},     {"lsaquo", 8249}, {"lsquo", 8216},
    {"lt", 60},        {"macr", 175},     {"mdash", 8212},  {"micro", 181},
    {"middot", 183},   {"minus", 8722},   {"mu", 956},      {"nabla", 8711},
    {"nbsp", 160},     {"ndash", 8211},   {"ne", 8800},     {"ni", 8715},
    {"not", 172},      {"notin", 8713},   {"nsub", 8836},   {"ntilde", 241},
    {"nu", 957},       {"oacute", 243},   {"ocirc", 244},   {"oelig", 339},
    {"ograve", 242},   {"oline", 8254},   {"omega", 969},   {"omicron", 959},
    {"oplus", 8853},   {"or", 8744},      {"ordf", 170},    {"ordm", 186},
    {"oslash", 248},   {"otilde", 245},   {"otimes", 8855}, {"ouml", 246},
    {"para", 182},     {"part", 8706},    {"permil", 8240}, {"perp", 8869},
    {"phi", 966},      {"pi", 960},       {"piv", 982},     {"plusmn", 177},
    {"pound", 163},    {"prime", 8242},   {"prod", 8719},   {"prop", 8733},
    {"psi", 968},      {"quot", 34},      {"rArr", 8658},   {"radic", 8730},
    {"rang", 9002},    {"raquo", 187},    {"rarr", 8594},   {"rceil", 8969},
    {"rdquo", 8221},   {"real", 8476},    {"reg", 174},     {"rfloor", 8971},
    {"rho", 961},      {"rlm", 8207},     {"rsaquo", 8250}, {"rsquo", 8217},
    {"sbquo", 8218},   {"scaron", 353},   {"sdot", 8901},   {"sect", 167},
    {"shy", 173},      {"sigma", 963},    {"sigmaf", 962},  {"sim", 8764},
    {"spades", 9824},  {"sub", 8834},     {"sube", 8838},   {"sum", 8721},
    {"sup", 8835},     {"sup1", 185},     {"sup2", 178},    {"sup3", 179},
    {"supe", 8839},    {"szlig", 223},    {"tau", 964},     {"there4", 8756},
    {"theta", 952},    {"thetasym", 977}, {"thinsp", 8201}, {"thorn", 254},
    {"tilde", 732},    {"times", 215},    {"trade", 8482},  {"uArr", 8657},
    {"uacute", 250},   {"uarr", 8593},    {"ucirc", 251},   {"ugrave", 249},
    {"uml", 168},      {"upsih", 978},    {"upsilon", 965}, {"uuml", 252},
    {"weierp", 8472},  {"xi", 958},       {"yacute", 253},  {"yen", 165},
    {"yuml", 255},     {"zeta", 950},     {"zwj", 8205},    {"zwnj", 8204}};

static int entity_cmp(const void *key, const void *elem) {
  return strcmp(key, ((const struct html_entity *)elem)->name);
}

/* Generic snippets declare an external DTD subset that is never read, so
 * expat hands undeclared entity references here instead of failing: HTML
 * named entities become their characters, anything else is an error. */
static void snippet_skipped(void *user, const char *name, int is_parameter) {
  struct snippet *s = user;
  const struct html_entity *e =
      is_parameter ? NULL
                   : bsearch(name, html_entities,
                             sizeof html_entities / sizeof *html_entities,
                             sizeof *html_entities, entity_cmp);
  if (e == NULL) { /* the parse stops past it: remember where it starts */
    s->entity_line = XML_GetCurrentLineNumber(s->parser);
    s->entity_column = XML_GetCurrentColumnNumber(s->parser);
    snippet_fail(s, XMT_ERR_XML);
    return;
  }
  if (s->code_depth > 0)
    return;
  struct xmt_buf utf8 = {0};
  xmt_status st = xmt_buf_append_utf8(&utf8, e->cp);
  if (st == XMT_OK)
    st = xmt_ib_text(&s->ib, utf8.data, utf8.len);
  xmt_buf_free(&utf8);
  if (st != XMT_OK)
    snippet_fail(s, st);
}

static xmt_status parse_snippet(xmt_segment *seg, const char *markup,
                                size_t len, unsigned long *error_column,
                                int generic) {
  static const char xliff_open[] = "<s xmlns='" XLIFF_NS "'>";
  static const char generic_open[] = "<!DOCTYPE s SYSTEM 's'><s>";
  static const char close[] = "</s>";
  const char *open = generic ? generic_open : xliff_open;
  size_t open_len = generic ? sizeof generic_open - 1 : sizeof xliff_open - 1;
  struct xmt_buf doc = {0};
  struct snippet s;
  memset(&s, 0, sizeof s);
  s.generic = generic;
  xmt_ib_init(&s.ib);
  xmt_segment_clear(seg);
  xmt_status st = xmt_buf_append(&doc, open, open_len);
  if (st == XMT_OK)
    st = xmt_buf_append(&doc, markup, len);
  if (st == XMT_OK)
    st = xmt_buf_append(&doc, close, sizeof close - 1);
  if (st == XMT_OK && doc.len > INT_MAX)
    st = XMT_ERR_USAGE;
  if (st == XMT_OK &&
      (s.parser = generic ? XML_ParserCreate("UTF-8")
                          : XML_ParserCreateNS("UTF-8", '|')) == NULL)
    st = XMT_ERR_NOMEM;
  if (st == XMT_OK) {
    s.doc = doc.data;
    XML_SetUserData(s.parser, &s);
    XML_SetElementHandler(s.parser, snippet_start, snippet_end);
    XML_SetCharacterDataHandler(s.parser, snippet_text);
    if (generic)
      XML_SetSkippedEntityHandler(s.parser, snippet_skipped);
    if (XML_Parse(s.parser, doc.data, (int)doc.len, 1) == XML_STATUS_ERROR) {
      if (s.st == XMT_OK)
        s.st = XML_GetErrorCode(s.parser) == XML_ERROR_NO_MEMORY ? XMT_ERR_NOMEM
                                                                 : XMT_ERR_XML;
      if (error_column != NULL) {
        XML_Size line = s.entity_line > 0 ? s.entity_line
                                          : XML_GetCurrentLineNumber(s.parser);
        unsigned long col =
            (unsigned long)(s.entity_line > 0
                                ? s.entity_column
                                : XML_GetCurrentColumnNumber(s.parser)) +
            1;
        enum XML_Error code = XML_GetErrorCode(s.parser);
        /* The wrapper shifts the first line only; expat points into an
         * end tag's name; an unclosed element is reported past the end. */
        if (line == 1)
          col = col > open_len ? col - open_len : 1;
        if (code == XML_ERROR_TAG_MISMATCH && col > 2)
          col -= 2;
        if (col > len + 1)
          col = (unsigned long)len + 1;
        *error_column = col;
      }
    }
    st = s.st;
    if (st == XMT_OK)
      st = xmt_ib_finish(&s.ib, seg);
  }
  if (s.parser != NULL)
    XML_ParserFree(s.parser);
  free(s.code_key);
  free(s.code_pos);
  for (size_t i = 0; i < s.ncounts; i++)
    free(s.counts[i].name);
  free(s.counts);
  xmt_ib_free(&s.ib);
  xmt_buf_free(&doc);
  return st;
}

xmt_status xmt_xliff_inline_parse(xmt_segment *seg, const char *markup,
                                  size_t len, unsigned long *error_column) {
  if (seg == NULL)
    return XMT_ERR_USAGE;
  return parse_snippet(seg, markup, len, error_column, 0);
}

xmt_status xmt_xliff_inline_parse_generic(xmt_segment *seg, const char *markup,
                                          size_t len,
                                          unsigned long *error_column) {
  if (seg == NULL)
    return XMT_ERR_USAGE;
  return parse_snippet(seg, markup, len, error_column, 1);
}
