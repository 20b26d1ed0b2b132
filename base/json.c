/* json.c -- the one JSON codec of the library and the program: strings
 * written (quoted and escaped), strings read (escapes and surrogate pairs
 * decoded), and a strict reader of just what is needed, a string member
 * found by a path of object keys, the whole document checked. Bigger
 * documents (serve's) are jansson's. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base_private.h"

/* --- Writing -------------------------------------------------------------- */

size_t xmt_json_escape_one(const char *s, size_t n, unsigned flags, char esc[8],
                           size_t *len) {
  unsigned char c = (unsigned char)s[0];
  if (c == '"' || c == '\\') {
    esc[0] = '\\', esc[1] = (char)c, *len = 2;
    return 1;
  }
  if (c < 0x20 || (c == 0x7F && (flags & XMT_JSON_MEND))) {
    snprintf(esc, 8, "\\u%04x", c);
    *len = 6;
    return 1;
  }
  size_t k = 1;
  if (c >= 0x80 && (flags & XMT_JSON_MEND)) {
    uint32_t cp;
    k = xmt_utf8_decode((const unsigned char *)s, n, &cp);
    if (k == 0) {
      memcpy(esc, "\\ufffd", 6);
      *len = 6;
      return 1;
    }
  }
  memcpy(esc, s, k);
  *len = k;
  return k;
}

/* 1 when byte c stands for itself in a JSON string written with flags. */
static int plain(unsigned char c, unsigned flags) {
  if (c < 0x20 || c == '"' || c == '\\')
    return 0;
  return !(flags & XMT_JSON_MEND) || c < 0x7F;
}

xmt_status xmt_json_quote(struct xmt_buf *out, const char *s, size_t n,
                          unsigned flags) {
  xmt_status st = xmt_buf_append_byte(out, '"');
  for (size_t i = 0; st == XMT_OK && i < n;) {
    /* A run that stands for itself, at once. */
    size_t j = i;
    while (j < n && plain((unsigned char)s[j], flags))
      j++;
    if (j > i) {
      st = xmt_buf_append(out, s + i, j - i);
      i = j;
      continue;
    }
    char esc[8];
    size_t len;
    i += xmt_json_escape_one(s + i, n - i, flags, esc, &len);
    st = xmt_buf_append(out, esc, len);
  }
  return st == XMT_OK ? xmt_buf_append_byte(out, '"') : st;
}

/* --- Reading -------------------------------------------------------------- */

struct json {
  const char *s;
  size_t len, pos;
  int depth;
};

static void ws(struct json *j) {
  while (j->pos < j->len && (j->s[j->pos] == ' ' || j->s[j->pos] == '\t' ||
                             j->s[j->pos] == '\n' || j->s[j->pos] == '\r'))
    j->pos++;
}

static int hex4(struct json *j, uint32_t *v) {
  if (j->len - j->pos < 4)
    return -1;
  *v = 0;
  for (int i = 0; i < 4; i++) {
    char c = j->s[j->pos++];
    uint32_t d = c >= '0' && c <= '9'   ? (uint32_t)(c - '0')
                 : c >= 'a' && c <= 'f' ? (uint32_t)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (uint32_t)(c - 'A' + 10)
                                        : 16u;
    if (d == 16)
      return -1;
    *v = *v * 16 + d;
  }
  return 0;
}

/* A string at pos (after the quote is checked here); into out if not NULL. */
static int string(struct json *j, struct xmt_buf *out) {
  if (j->pos >= j->len || j->s[j->pos] != '"')
    return -1;
  j->pos++;
  while (j->pos < j->len) {
    unsigned char c = (unsigned char)j->s[j->pos];
    if (c == '"') {
      j->pos++;
      return 0;
    }
    if (c < 0x20)
      return -1;
    if (c != '\\') {
      size_t start = j->pos;
      while (j->pos < j->len && j->s[j->pos] != '"' && j->s[j->pos] != '\\' &&
             (unsigned char)j->s[j->pos] >= 0x20)
        j->pos++;
      if (out != NULL && xmt_buf_append(out, j->s + start, j->pos - start))
        return -2;
      continue;
    }
    if (++j->pos >= j->len)
      return -1;
    char e = j->s[j->pos++];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = strchr(from, e);
    uint32_t cp;
    if (e != '\0' && k != NULL) {
      cp = (uint32_t)(unsigned char)to[k - from];
    } else if (e == 'u') {
      if (hex4(j, &cp) != 0)
        return -1;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        uint32_t lo;
        if (j->len - j->pos < 6 || j->s[j->pos] != '\\' ||
            j->s[j->pos + 1] != 'u')
          return -1;
        j->pos += 2;
        if (hex4(j, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
          return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return -1; /* a low surrogate alone */
      }
    } else {
      return -1;
    }
    if (out != NULL && xmt_buf_append_utf8(out, cp) != XMT_OK)
      return -2;
  }
  return -1;
}

static int value(struct json *j, const char *const *path, struct xmt_buf *out,
                 int *found);

static int literal(struct json *j, const char *word) {
  size_t n = strlen(word);
  if (j->len - j->pos < n || memcmp(j->s + j->pos, word, n) != 0)
    return -1;
  j->pos += n;
  return 0;
}

/* Skips one digit or more: 0, or -1 when no digit is next. */
static int digits(struct json *j) {
  size_t start = j->pos;
  while (j->pos < j->len && j->s[j->pos] >= '0' && j->s[j->pos] <= '9')
    j->pos++;
  return j->pos > start ? 0 : -1;
}

static int number(struct json *j) {
  if (j->pos < j->len && j->s[j->pos] == '-')
    j->pos++;
  if (digits(j) != 0)
    return -1;
  if (j->pos < j->len && j->s[j->pos] == '.') {
    j->pos++;
    if (digits(j) != 0)
      return -1;
  }
  if (j->pos < j->len && (j->s[j->pos] == 'e' || j->s[j->pos] == 'E')) {
    j->pos++;
    if (j->pos < j->len && (j->s[j->pos] == '+' || j->s[j->pos] == '-'))
      j->pos++;
    return digits(j);
  }
  return 0;
}

/* 1, j past it, when c is next (after white space); else 0. */
static int skip_char(struct json *j, char c) {
  ws(j);
  if (j->pos < j->len && j->s[j->pos] == c) {
    j->pos++;
    return 1;
  }
  return 0;
}

/* After an item of an object or array closed by close: 1 past a comma,
 * another item to come; 0 past close, the end; -1 for anything else. */
static int after_item(struct json *j, char close) {
  if (skip_char(j, ','))
    return 1;
  return skip_char(j, close) ? 0 : -1;
}

/* An object; the member named path[0] is followed into with path + 1. */
static int object(struct json *j, const char *const *path, struct xmt_buf *out,
                  int *found) {
  j->pos++;
  if (skip_char(j, '}'))
    return 0;
  struct xmt_buf key = {0};
  int rc = 0;
  for (;;) {
    xmt_buf_reset(&key);
    ws(j);
    if ((rc = string(j, &key)) != 0)
      break;
    ws(j);
    if (j->pos >= j->len || j->s[j->pos++] != ':') {
      rc = -1;
      break;
    }
    ws(j);
    int follow = path != NULL && path[0] != NULL && key.data != NULL &&
                 strlen(key.data) == key.len && strcmp(key.data, path[0]) == 0;
    if ((rc = value(j, follow ? path + 1 : NULL, out, found)) != 0 ||
        (rc = after_item(j, '}')) <= 0)
      break;
  }
  xmt_buf_free(&key);
  return rc;
}

static int array(struct json *j) {
  j->pos++;
  if (skip_char(j, ']'))
    return 0;
  int rc;
  do {
    ws(j);
    rc = value(j, NULL, NULL, NULL);
  } while (rc == 0 && (rc = after_item(j, ']')) == 1);
  return rc;
}

/* A value; path (NULL: not wanted) says what to look for in it: the empty
 * path means this value is the string wanted. */
static int value(struct json *j, const char *const *path, struct xmt_buf *out,
                 int *found) {
  if (j->pos >= j->len || ++j->depth > 64)
    return -1;
  int rc;
  char c = j->s[j->pos];
  if (path != NULL && path[0] == NULL && c == '"') {
    /* The wanted member; a second one (duplicate key) is refused. */
    if (*found)
      rc = -1;
    else if ((rc = string(j, out)) == 0)
      *found = 1;
  } else if (path != NULL && path[0] == NULL) {
    rc = value(j, NULL, NULL, NULL); /* there, but not a string */
  } else if (c == '{') {
    rc = object(j, path, out, found);
  } else if (c == '[') {
    rc = array(j);
  } else if (c == '"') {
    rc = string(j, NULL);
  } else if (c == 't') {
    rc = literal(j, "true");
  } else if (c == 'f') {
    rc = literal(j, "false");
  } else if (c == 'n') {
    rc = literal(j, "null");
  } else {
    rc = number(j);
  }
  j->depth--;
  return rc;
}

int xmt_json_string(const char *s, size_t n, size_t *used,
                    struct xmt_buf *out) {
  struct json j = {s, n, 0, 0};
  int rc = string(&j, out);
  *used = j.pos;
  return rc;
}

int xmt_json_string_at(const char *doc, size_t len, const char *const *path,
                       struct xmt_buf *out) {
  struct json j = {doc, len, 0, 0};
  int found = 0;
  ws(&j);
  int rc = value(&j, path, out, &found);
  ws(&j);
  if (rc == 0 && j.pos != j.len)
    rc = -1;
  if (rc != 0)
    return rc;
  return found ? 0 : 1;
}
