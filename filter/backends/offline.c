/* offline.c -- the offline backend: MT that ran elsewhere, on segments
 * extract wrote (pipeline/extract.c), answered from the translations file
 * by segment id, so that the merge is the translate pipeline itself. The
 * merge gives it to the run explicitly; --mt never names it. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "filter_private.h"

/* --- Reading translations --------------------------------------------------
 * TSV: "ID<TAB>TEXT" with \t, \n, \r and \\ escaped. JSON lines: one flat
 * object per line with string members ("id", "text" or "translation",
 * optionally "alignment", "source_tokens", "target_tokens"). */

struct entry {
  size_t id, translation, alignment, stok, ttok; /* offsets; SIZE_MAX none */
  size_t source; /* the "text" beside a "translation": as extract wrote it */
  unsigned long line;
  unsigned char asked; /* by a segment of the document (set by the lanes) */
  unsigned char other; /* asked by a segment whose text is not source */
};

struct xmt_offline {
  struct xmt_buf pool; /* NUL-terminated strings */
  struct entry *entries;
  size_t n, cap;
  struct xmt_memo index; /* id -> entry */
  char *path;
  struct xmt_segments_mark mark; /* the header's (extract/extract.c) */
};

static size_t pool_add(struct xmt_offline *o, const char *s, size_t n) {
  size_t off = o->pool.len;
  if (xmt_buf_append(&o->pool, s, n) != XMT_OK ||
      xmt_buf_append_byte(&o->pool, '\0') != XMT_OK)
    return SIZE_MAX - 1;
  return off;
}

static const char *pool_str(const struct xmt_offline *o, size_t off) {
  return off == SIZE_MAX ? NULL : o->pool.data + off;
}

/* Unescapes a TSV field in place; 0 on a bad escape. */
static int tsv_unescape(char *s, size_t *n) {
  size_t w = 0;
  for (size_t r = 0; r < *n; r++) {
    if (s[r] != '\\') {
      s[w++] = s[r];
      continue;
    }
    if (++r == *n)
      return 0;
    switch (s[r]) {
    case 't':
      s[w++] = '\t';
      break;
    case 'n':
      s[w++] = '\n';
      break;
    case 'r':
      s[w++] = '\r';
      break;
    case '\\':
      s[w++] = '\\';
      break;
    default:
      return 0;
    }
  }
  *n = w;
  return 1;
}

/* Reads the JSON string at *p (at the opening quote) into out; past it,
 * or NULL when it is not one. */
static const char *json_string(const char *p, const char *end,
                               struct xmt_buf *out) {
  size_t used;
  xmt_buf_reset(out);
  if (xmt_json_string(p, (size_t)(end - p), &used, out) != 0)
    return NULL;
  return p + used;
}

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  return p;
}

/* The members read: the slot of e each fills, and the words when it is
 * given twice. */
static const char *const member_names[] = {
    "id", "text", "translation", "alignment", "source_tokens", "target_tokens"};
static const char *const member_twice[] = {"\"id\" given twice",
                                           "\"text\" given twice",
                                           "\"translation\" given twice",
                                           "\"alignment\" given twice",
                                           "\"source_tokens\" given twice",
                                           "\"target_tokens\" given twice"};

/* The index of member k in member_names; -1 for a member not read. */
static int member(const char *k, size_t n) {
  for (int i = 0; i < (int)(sizeof member_names / sizeof *member_names); i++)
    if (strlen(member_names[i]) == n && memcmp(k, member_names[i], n) == 0)
      return i;
  return -1;
}

/* One JSON line into e; a message on failure. A member given twice is
 * refused (JSON readers differ on which one counts); "translation" goes
 * before "text", which is then the source as extract wrote it. */
static const char *json_line(struct xmt_offline *o, const char *p,
                             const char *end, struct entry *e) {
  struct xmt_buf key = {0}, value = {0};
  const char *why = NULL;
  size_t text = SIZE_MAX;
  p = skip_ws(p + 1, end);
  while (why == NULL && p < end && *p != '}') {
    p = json_string(p, end, &key);
    if (p == NULL) {
      why = "bad JSON string";
      break;
    }
    p = skip_ws(p, end);
    if (p >= end || *p != ':') {
      why = "expected ':'";
      break;
    }
    p = skip_ws(p + 1, end);
    p = json_string(p, end, &value);
    if (p == NULL) {
      why = "expected a string value";
      break;
    }
    /* Kept as C strings, "a\u0000b" would be "a": another id, a
     * translation cut short. */
    if (value.len > 0 && memchr(value.data, '\0', value.len) != NULL) {
      why = "a string holding \\u0000 (NUL)";
      break;
    }
    int m = member(key.len > 0 ? key.data : "", key.len);
    size_t *const slots[] = {&e->id,        &text,    &e->translation,
                             &e->alignment, &e->stok, &e->ttok};
    size_t *slot = m >= 0 ? slots[m] : NULL;
    if (slot != NULL && *slot != SIZE_MAX)
      why = member_twice[m];
    else if (slot != NULL &&
             (*slot = pool_add(o, value.len > 0 ? value.data : "",
                               value.len)) == SIZE_MAX - 1)
      why = "out of memory";
    p = skip_ws(p, end);
    if (p < end && *p == ',')
      p = skip_ws(p + 1, end);
    else if (p >= end || *p != '}')
      why = "expected ',' or '}'";
  }
  if (why == NULL && (p >= end || skip_ws(p + 1, end) != end))
    why = "trailing characters after the object";
  if (e->translation == SIZE_MAX)
    e->translation = text;
  else
    e->source = text;
  xmt_buf_free(&key);
  xmt_buf_free(&value);
  return why;
}

static xmt_status add_entry(struct xmt_offline *o, struct entry *e,
                            struct xmt_error_store *err) {
  if (e->id == SIZE_MAX || e->translation == SIZE_MAX)
    return xmt_error_at(err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, e->line),
                        "a line needs an id and a translation");
  const char *id = pool_str(o, e->id);
  if (xmt_memo_get(&o->index, id, strlen(id), NULL, NULL, NULL))
    return xmt_error_at(err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, e->line),
                        "segment id '%s' given twice", id);
  struct entry *grown =
      xmt_grow_array(o->entries, &o->cap, o->n + 1, sizeof *grown);
  if (grown == NULL)
    return XMT_ERR_NOMEM;
  o->entries = grown;
  o->entries[o->n] = *e;
  if (xmt_memo_put(&o->index, id, strlen(id), NULL, 0, o->n) != XMT_OK)
    return XMT_ERR_NOMEM;
  o->n++;
  return XMT_OK;
}

/* Reads the lines of path into line buffers, calling fn for each. A
 * UTF-8 byte order mark that opens the file goes: Excel and Notepad write
 * one, and it is no part of the first id. */
static xmt_status read_lines(const char *path, struct xmt_error_store *err,
                             xmt_status (*fn)(void *, char *, size_t,
                                              unsigned long),
                             void *user) {
  FILE *fp = xmt_input_open(path, err);
  if (fp == NULL)
    return err->pub.status;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  unsigned long number = 0;
  xmt_status st = XMT_OK;
  errno = 0;
  while (st == XMT_OK && (n = getline(&line, &cap, fp)) >= 0) {
    number++;
    size_t len = (size_t)n;
    if (len > 0 && line[len - 1] == '\n')
      len--;
    if (len > 0 && line[len - 1] == '\r')
      len--;
    line[len] = '\0';
    char *s = line;
    if (number == 1 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
      s += 3;
      len -= 3;
    }
    const char *nul = memchr(s, '\0', len);
    if (xmt_utf8_valid_prefix(s, len) != len)
      st = xmt_error_at(err, XMT_ERR_ENCODING, XMT_AT_LINE(path, number),
                        "invalid UTF-8");
    else if (nul != NULL) /* the entries are C strings: it would end one */
      st = xmt_error_at(err, XMT_ERR_USAGE, XMT_AT_LINE(path, number),
                        "a NUL byte at byte %zu", (size_t)(nul - s) + 1);
    else
      st = fn(user, s, len, number);
  }
  if (st == XMT_OK && ferror(fp))
    st = xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "cannot read: %s",
                      strerror(errno));
  free(line);
  if (fp != stdin)
    fclose(fp);
  return st;
}

struct load {
  struct xmt_offline *o;
  struct xmt_error_store *err;
};

/* --- The header extract writes (pipeline/extract.c) ---------------------- */

/* One member of the header into o's mark; 0 when its value is not one. */
static int mark_member(struct xmt_offline *o, const char *k, size_t kn,
                       const char *v, size_t vn) {
  struct xmt_segments_mark *m = &o->mark;
  int text = kn == 8 && memcmp(k, "document", 8) == 0 ? 1
             : kn == 6 && memcmp(k, "source", 6) == 0 ? 2
             : kn == 6 && memcmp(k, "target", 6) == 0 ? 3
                                                      : 0;
  if (text != 0) {
    char **slot = text == 1   ? &m->document
                  : text == 2 ? &m->source
                              : &m->target;
    free(*slot);
    *slot = xmt_strndup(v, vn);
    return *slot != NULL;
  }
  char num[32], *end;
  if (vn == 0 || vn >= sizeof num)
    return !((kn == 8 && memcmp(k, "segments", 8) == 0) ||
             (kn == 6 && memcmp(k, "digest", 6) == 0));
  memcpy(num, v, vn);
  num[vn] = '\0';
  errno = 0;
  if (kn == 8 && memcmp(k, "segments", 8) == 0) {
    m->count = strtoull(num, &end, 10);
    m->has |= XMT_MARK_COUNT;
  } else if (kn == 6 && memcmp(k, "digest", 6) == 0) {
    m->digest = strtoull(num, &end, 16);
    m->has |= XMT_MARK_DIGEST;
  } else
    return 1; /* a member of a later version */
  return errno == 0 && *end == '\0';
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

/* Decodes the %XX escapes of a header value in place; 0 on a bad one. */
static int pct_decode(char *v, size_t *n) {
  size_t w = 0;
  for (size_t r = 0; r < *n; r++) {
    if (v[r] != '%') {
      v[w++] = v[r];
      continue;
    }
    int hi = r + 2 < *n ? hex_digit(v[r + 1]) : -1;
    int lo = hi >= 0 ? hex_digit(v[r + 2]) : -1;
    if (lo < 0)
      return 0;
    v[w++] = (char)(hi << 4 | lo);
    r += 2;
  }
  *n = w;
  return 1;
}

/* The TSV header, its first field: "#xliffmt-segments KEY=VALUE ...",
 * the values %XX-escaped; what a tool put after a tab (an empty
 * translation of it) is no part of it. */
static const char *tsv_mark(struct xmt_offline *o, char *s, size_t n) {
  char *tab = memchr(s, '\t', n);
  char *end = tab != NULL ? tab : s + n, *p = memchr(s, ' ', (size_t)(end - s));
  while (p != NULL && p < end) {
    char *field = p + 1, *next = memchr(field, ' ', (size_t)(end - field));
    size_t fn = (size_t)((next != NULL ? next : end) - field);
    char *eq = memchr(field, '=', fn);
    size_t vn = eq != NULL ? fn - (size_t)(eq - field) - 1 : 0;
    if (fn > 0 && (eq == NULL || !pct_decode(eq + 1, &vn) ||
                   !mark_member(o, field, (size_t)(eq - field), eq + 1, vn)))
      return "a bad member of the #xliffmt-segments header";
    p = next;
  }
  return NULL;
}

/* The JSON lines header: {"xliffmt":"segments",...}, string members. */
static const char *json_mark(struct xmt_offline *o, const char *p,
                             const char *end) {
  struct xmt_buf key = {0}, value = {0};
  const char *why = NULL;
  p = skip_ws(p + 1, end);
  while (why == NULL && p < end && *p != '}') {
    p = json_string(p, end, &key);
    if (p != NULL)
      p = skip_ws(p, end);
    if (p == NULL || p >= end || *p != ':' ||
        (p = json_string(skip_ws(p + 1, end), end, &value)) == NULL) {
      why = "a bad member of the \"xliffmt\" header";
      break;
    }
    if (!mark_member(o, key.len > 0 ? key.data : "", key.len,
                     value.len > 0 ? value.data : "", value.len))
      why = "a bad member of the \"xliffmt\" header";
    p = skip_ws(p, end);
    if (p < end && *p == ',')
      p = skip_ws(p + 1, end);
    else if (p >= end || *p != '}')
      why = "expected ',' or '}'";
  }
  if (why == NULL && (p >= end || skip_ws(p + 1, end) != end))
    why = "trailing characters after the object";
  xmt_buf_free(&key);
  xmt_buf_free(&value);
  return why;
}

/* The header, when line 1 is one; 1 when it is, with *why on failure. */
static int mark_line(struct xmt_offline *o, char *s, size_t n,
                     unsigned long number, const char **why) {
  static const char tsv[] = "#xliffmt-segments", json[] = "{\"xliffmt\":";
  *why = NULL;
  if (number != 1)
    return 0;
  if (n >= sizeof tsv - 1 && memcmp(s, tsv, sizeof tsv - 1) == 0 &&
      (n == sizeof tsv - 1 || s[sizeof tsv - 1] == ' ' ||
       s[sizeof tsv - 1] == '\t'))
    *why = tsv_mark(o, s, n);
  else if (n >= sizeof json - 1 && memcmp(s, json, sizeof json - 1) == 0)
    *why = json_mark(o, s, s + n);
  else
    return 0;
  o->mark.line = number;
  return 1;
}

const struct xmt_segments_mark *xmt_offline_mark(const xmt_offline *o) {
  return &o->mark;
}

const char *xmt_offline_path(const xmt_offline *o) { return o->path; }

static xmt_status load_line(void *user, char *s, size_t n,
                            unsigned long number) {
  struct load *l = user;
  struct xmt_offline *o = l->o;
  if (n == 0)
    return XMT_OK;
  const char *mark_why;
  if (mark_line(o, s, n, number, &mark_why))
    return mark_why == NULL
               ? XMT_OK
               : xmt_error_at(l->err, XMT_ERR_USAGE,
                              XMT_AT_LINE(o->path, number), "%s", mark_why);
  struct entry e = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX,
                    SIZE_MAX, number,   0,        0};
  if (s[0] == '{') {
    const char *why = json_line(o, s, s + n, &e);
    if (why != NULL)
      return xmt_error_at(l->err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, number),
                          "%s", why);
  } else {
    char *tab = memchr(s, '\t', n);
    if (tab == NULL)
      return xmt_error_at(l->err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, number),
                          "expected ID<TAB>TRANSLATION");
    size_t idn = (size_t)(tab - s), tn = n - idn - 1;
    if (!tsv_unescape(s, &idn) || !tsv_unescape(tab + 1, &tn))
      return xmt_error_at(l->err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, number),
                          "bad escape (use \\t \\n \\r \\\\)");
    e.id = pool_add(o, s, idn);
    e.translation = pool_add(o, tab + 1, tn);
    if (e.id == SIZE_MAX - 1 || e.translation == SIZE_MAX - 1)
      return XMT_ERR_NOMEM;
  }
  return add_entry(o, &e, l->err);
}

/* Lines of a side file (alignments or tokens), parallel to the entries. */
struct side {
  struct xmt_offline *o;
  struct xmt_error_store *err;
  const char *path;
  int which; /* 0 alignment, 1 source tokens, 2 target tokens */
  size_t count;
};

static xmt_status side_line(void *user, char *s, size_t n,
                            unsigned long number) {
  struct side *sd = user;
  if (sd->count >= sd->o->n)
    return xmt_error_at(sd->err, XMT_ERR_USAGE, XMT_AT_LINE(sd->path, number),
                        "more lines than translations (%zu)", sd->o->n);
  size_t off = pool_add(sd->o, s, n);
  if (off == SIZE_MAX - 1)
    return XMT_ERR_NOMEM;
  struct entry *e = &sd->o->entries[sd->count++];
  size_t *slot = sd->which == 0   ? &e->alignment
                 : sd->which == 1 ? &e->stok
                                  : &e->ttok;
  *slot = off;
  return XMT_OK;
}

xmt_offline *xmt_offline_load(const char *translations, const char *alignments,
                              const char *source_tokens,
                              const char *target_tokens,
                              struct xmt_error_store *err) {
  xmt_offline *o = calloc(1, sizeof *o);
  if (o == NULL || (o->path = xmt_strdup(translations)) == NULL) {
    free(o);
    xmt_error_nomem(err);
    return NULL;
  }
  struct load l = {o, err};
  xmt_status st = read_lines(translations, err, load_line, &l);
  const char *sides[3] = {alignments, source_tokens, target_tokens};
  for (int i = 0; st == XMT_OK && i < 3; i++) {
    if (sides[i] == NULL)
      continue;
    struct side sd = {o, err, sides[i], i, 0};
    st = read_lines(sides[i], err, side_line, &sd);
    if (st == XMT_OK && sd.count != o->n)
      st = xmt_error_at(err, XMT_ERR_USAGE, XMT_AT_LINE(sides[i], sd.count),
                        "%zu lines for %zu translations", sd.count, o->n);
  }
  if (st == XMT_ERR_NOMEM && err->pub.status == XMT_OK)
    xmt_error_nomem(err);
  if (st != XMT_OK) {
    xmt_offline_free(o);
    return NULL;
  }
  return o;
}

void xmt_offline_free(xmt_offline *o) {
  if (o == NULL)
    return;
  xmt_buf_free(&o->pool);
  free(o->entries);
  xmt_memo_free(&o->index);
  free(o->path);
  free(o->mark.document);
  free(o->mark.source);
  free(o->mark.target);
  free(o);
}

/* --- The backend ------------------------------------------------------------
 */

static int offline_open(void *user, const struct xmt_backend_config *config,
                        void **state, char *errbuf, size_t errlen) {
  (void)config;
  (void)errbuf;
  (void)errlen;
  *state = user;
  return 0;
}

static int offline_translate(void *state, const struct xmt_mt_request *req,
                             xmt_mt_response *const *resp, size_t n) {
  const struct xmt_offline *o = state;
  for (size_t i = 0; i < n; i++) {
    size_t k;
    if (!xmt_memo_get(&o->index, req[i].segment_id, strlen(req[i].segment_id),
                      NULL, NULL, &k)) {
      xmt_mt_response_set_error(resp[i], "no translation in the file");
      continue;
    }
    const struct entry *e = &o->entries[k];
    /* Lanes answer other segments at once: each sets its own flag. */
    __atomic_store_n(&o->entries[k].asked, 1, __ATOMIC_RELAXED);
    /* The translation of another text (the document changed since the
     * extract, or the file is another document's): for no segment. */
    if (e->source != SIZE_MAX &&
        (strlen(pool_str(o, e->source)) != req[i].len ||
         memcmp(pool_str(o, e->source), req[i].text, req[i].len) != 0)) {
      __atomic_store_n(&o->entries[k].other, 1, __ATOMIC_RELAXED);
      char why[80];
      snprintf(why, sizeof why, "line %lu of the file translates another text",
               e->line);
      xmt_mt_response_set_error(resp[i], why);
      continue;
    }
    const char *t = pool_str(o, e->translation);
    if (xmt_mt_response_set_text(resp[i], t, strlen(t)) != XMT_OK) {
      xmt_mt_response_set_error(resp[i], "translation is not valid UTF-8");
      continue;
    }
    if (e->alignment != SIZE_MAX &&
        xmt_mt_response_set_alignment(
            resp[i], pool_str(o, e->alignment),
            e->stok != SIZE_MAX && e->ttok != SIZE_MAX ? pool_str(o, e->stok)
                                                       : NULL,
            e->stok != SIZE_MAX && e->ttok != SIZE_MAX ? pool_str(o, e->ttok)
                                                       : NULL) != XMT_OK)
      return 1;
  }
  return 0;
}

static void offline_close(void *state) { (void)state; }

/* How many ids that no segment asked for are named in the message. */
#define UNASKED_NAMED 10

xmt_status xmt_offline_check_asked(const xmt_offline *o, const char *doc,
                                   struct xmt_error_store *err) {
  for (size_t k = 0; k < o->n; k++)
    if (__atomic_load_n(&o->entries[k].other, __ATOMIC_RELAXED))
      return xmt_error_at(err, XMT_ERR_USAGE,
                          XMT_AT_LINE(o->path, o->entries[k].line),
                          "segment '%s' of %s has another text than the "
                          "line's: was the file written from another "
                          "document, or the document changed since?",
                          pool_str(o, o->entries[k].id), doc);
  const struct entry *first = NULL;
  struct xmt_buf more = {0};
  size_t count = 0;
  xmt_status st = XMT_OK;
  for (size_t k = 0; st == XMT_OK && k < o->n; k++) {
    const struct entry *e = &o->entries[k];
    if (__atomic_load_n(&e->asked, __ATOMIC_RELAXED))
      continue;
    if (first == NULL)
      first = e;
    else if (count < UNASKED_NAMED) {
      char at[48];
      snprintf(at, sizeof at, "' (line %lu)", e->line);
      st = xmt_buf_append_str(&more, count > 1 ? ", '" : ", nor '");
      if (st == XMT_OK)
        st = xmt_buf_append_str(&more, pool_str(o, e->id));
      if (st == XMT_OK)
        st = xmt_buf_append_str(&more, at);
    }
    count++;
  }
  if (st == XMT_OK && count > UNASKED_NAMED) {
    char tail[48];
    snprintf(tail, sizeof tail, " and %zu more", count - UNASKED_NAMED);
    st = xmt_buf_append_str(&more, tail);
  }
  if (st == XMT_OK && first != NULL)
    st = xmt_error_at(err, XMT_ERR_USAGE, XMT_AT_LINE(o->path, first->line),
                      "no segment of %s to translate has id '%s'%s", doc,
                      pool_str(o, first->id), more.len > 0 ? more.data : "");
  else if (st != XMT_OK)
    st = xmt_error_nomem(err);
  xmt_buf_free(&more);
  return st;
}

const struct xmt_backend xmt_backend_offline = {
    XMT_BACKEND_ABI_VERSION, "file",        offline_open,
    offline_translate,       offline_close, NULL};
