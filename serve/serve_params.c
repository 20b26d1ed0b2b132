/* serve_params.c -- xliffmt serve: a request's parameters (query string,
 * form and JSON bodies) and the JSON replies. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "serve.h"

/* --- Parameters ------------------------------------------------------------
 */

int serve_param_add(struct serve_params *p, const char *name, size_t nlen,
                    const char *value, size_t vlen, int in_array) {
  struct serve_param *v = xmt_grow_array(p->v, &p->cap, p->n + 1, sizeof *v);
  if (v == NULL)
    return 0;
  p->v = v;
  struct serve_param *e = &p->v[p->n];
  e->name = xmt_memdup(name, nlen);
  e->value = xmt_memdup(value, vlen);
  if (e->name == NULL || e->value == NULL) {
    free(e->name);
    free(e->value);
    return 0;
  }
  e->len = vlen;
  e->in_array = in_array;
  p->n++;
  return 1;
}

const struct serve_param *serve_param_next(const struct serve_params *p,
                                           const char *name,
                                           const struct serve_param *after) {
  for (size_t i = after != NULL ? (size_t)(after - p->v) + 1 : 0; i < p->n; i++)
    if (strcmp(p->v[i].name, name) == 0)
      return &p->v[i];
  return NULL;
}

size_t serve_param_count(const struct serve_params *p, const char *name) {
  size_t n = 0;
  for (size_t i = 0; i < p->n; i++)
    n += strcmp(p->v[i].name, name) == 0;
  return n;
}

const char *serve_param(const struct serve_params *p, const char *name,
                        size_t *len) {
  for (size_t i = p->n; i-- > 0;)
    if (strcmp(p->v[i].name, name) == 0) {
      if (len != NULL)
        *len = p->v[i].len;
      return p->v[i].value;
    }
  return NULL;
}

void serve_list_free(char **list, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(list[i]);
  free(list);
}

/* Appends the items of value, split at commas, spaces around dropped. */
static int split_list(char ***list, size_t *n, size_t *cap, const char *value) {
  for (const char *s = value; *s != '\0';) {
    const char *comma = strchr(s, ',');
    const char *end = comma != NULL ? comma : s + strlen(s);
    const char *b = s, *e = end;
    while (b < e && (*b == ' ' || *b == '\t'))
      b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    if (e > b) {
      char **v = xmt_grow_array(*list, cap, *n + 1, sizeof *v);
      if (v == NULL)
        return 0;
      *list = v;
      if ((v[*n] = strndup(b, (size_t)(e - b))) == NULL)
        return 0;
      (*n)++;
    }
    s = comma != NULL ? comma + 1 : end;
  }
  return 1;
}

int serve_param_list(const struct serve_params *p, const char *name,
                     char ***list, size_t *n) {
  size_t cap = 0;
  *list = NULL;
  *n = 0;
  for (size_t i = 0; i < p->n; i++)
    if (strcmp(p->v[i].name, name) == 0 &&
        !split_list(list, n, &cap, p->v[i].value)) {
      serve_list_free(*list, *n);
      *list = NULL;
      *n = 0;
      return 0;
    }
  return 1;
}

static int hex(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* Decodes a form field in place ('+' is a space, %XX a byte); its new
 * length. A '%' not followed by two hex digits stays as it is. */
static size_t form_decode(char *s, size_t len) {
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '+') {
      s[k++] = ' ';
    } else if (s[i] == '%' && i + 2 < len && hex(s[i + 1]) >= 0 &&
               hex(s[i + 2]) >= 0) {
      s[k++] = (char)(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      s[k++] = s[i];
    }
  }
  return k;
}

int serve_params_form(struct serve_params *p, const char *body, size_t len) {
  char *copy = xmt_memdup(body, len);
  if (copy == NULL)
    return 0;
  int ok = 1;
  for (size_t i = 0; ok && i < len;) {
    size_t end = i;
    while (end < len && copy[end] != '&')
      end++;
    size_t eq = i;
    while (eq < end && copy[eq] != '=')
      eq++;
    if (end > i) {
      size_t nlen = form_decode(copy + i, eq - i);
      size_t vlen = eq < end ? form_decode(copy + eq + 1, end - eq - 1) : 0;
      ok = serve_param_add(p, copy + i, nlen, copy + eq + 1, vlen, 0);
    }
    i = end + 1;
  }
  free(copy);
  return ok;
}

/* The boundary of a multipart/form-data Content-Type (quoted or not)
 * into out; 0 when there is none or it is longer than RFC 2046's 70. */
static int boundary_of(const char *type, char *out, size_t outlen) {
  const char *b = strcasestr(type, "boundary=");
  if (b == NULL)
    return 0;
  b += 9;
  size_t n = *b == '"' ? strcspn(++b, "\"") : strcspn(b, "; \t");
  if (n == 0 || n > 70 || n + 3 > outlen)
    return 0;
  snprintf(out, outlen, "--%.*s", (int)n, b);
  return 1;
}

/* The value of key="..." (name or filename) in a part's headers (from h
 * to e), or NULL. */
static const char *part_value(const char *h, const char *e, const char *key,
                              size_t *len) {
  size_t k = strlen(key);
  for (const char *n = h; (n = memmem(n, (size_t)(e - n), key, k)); n++) {
    if ((n > h && n[-1] != ' ' && n[-1] != ';') || e - n < (ptrdiff_t)k + 2 ||
        n[k] != '=' || n[k + 1] != '"')
      continue; /* filename="..." when name is looked for */
    const char *q = memchr(n + k + 2, '"', (size_t)(e - n - (ptrdiff_t)k - 2));
    if (q == NULL)
      return NULL;
    *len = (size_t)(q - n - (ptrdiff_t)k - 2);
    return n + k + 2;
  }
  return NULL;
}

/* A part's value as parameter name, and its file's name (DeepL's
 * document upload) as parameter name.filename; 0 when out of memory. */
static int add_part(struct serve_params *p, const char *h, const char *e,
                    const char *v, size_t vlen) {
  size_t nlen = 0, flen = 0;
  const char *name = part_value(h, e, "name", &nlen);
  if (name == NULL)
    return 1;
  const char *file = part_value(h, e, "filename", &flen);
  if (file != NULL) {
    char key[80];
    snprintf(key, sizeof key, "%.*s.filename", (int)(nlen < 64 ? nlen : 64),
             name);
    if (!serve_param_add(p, key, strlen(key), file, flen, 0))
      return 0;
  }
  return serve_param_add(p, name, nlen, v, vlen, 0);
}

int serve_params_multipart(struct serve_params *p, const char *type,
                           const char *body, size_t len) {
  char delim[80];
  if (!boundary_of(type, delim, sizeof delim))
    return -1;
  size_t dl = strlen(delim);
  const char *end = body + len;
  const char *at = memmem(body, len, delim, dl);
  /* Each part: the delimiter, CRLF, headers, an empty line, the value up
   * to CRLF and the next delimiter; "--" after the last. */
  while (at != NULL) {
    const char *h = at + dl;
    if (end - h >= 2 && h[0] == '-' && h[1] == '-')
      return 1;
    if (end - h < 2 || h[0] != '\r' || h[1] != '\n')
      return -1;
    h += 2;
    const char *v = memmem(h, (size_t)(end - h), "\r\n\r\n", 4);
    if (v == NULL)
      return -1;
    const char *e = v;
    v += 4;
    const char *next = v;
    for (;;) {
      next = memmem(next, (size_t)(end - next), delim, dl);
      if (next == NULL ||
          (next - v >= 2 && next[-2] == '\r' && next[-1] == '\n'))
        break;
      next++;
    }
    if (next == NULL)
      return -1;
    if (!add_part(p, h, e, v, (size_t)(next - 2 - v)))
      return 0;
    at = next;
  }
  return -1;
}

/* One JSON value as parameter name: strings as they are, numbers as
 * written, true and false as 1 and 0; null and objects are left out,
 * but in a list (-2: the items after it would be answered under its
 * index). */
static int add_json(struct serve_params *p, const char *name, json_t *v,
                    int in_array) {
  char num[64];
  const char *s = NULL;
  size_t len = 0;
  if (json_is_string(v)) {
    s = json_string_value(v);
    len = json_string_length(v);
  } else if (json_is_integer(v)) {
    snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    s = num;
  } else if (json_is_real(v)) {
    snprintf(num, sizeof num, "%g", json_real_value(v));
    s = num;
  } else if (json_is_boolean(v)) {
    s = json_is_true(v) ? "1" : "0";
  }
  if (s == NULL)
    return in_array ? -2 : 1;
  if (len == 0)
    len = strlen(s);
  return serve_param_add(p, name, strlen(name), s, len, in_array);
}

/* why: the key a JSON object gives twice, from jansson's "duplicate
 * object key near '"NAME"'". */
static void duplicate(const json_error_t *err, char *why, size_t why_len) {
  const char *near = strstr(err->text, "near '");
  size_t n = near != NULL ? strlen(near + 6) : 0;
  if (n > 0 && near[6 + n - 1] == '\'')
    snprintf(why, why_len, "the JSON body gives the key %.*s twice",
             (int)(n - 1), near + 6);
  else
    snprintf(why, why_len, "the JSON body gives a key twice");
}

int serve_params_json(struct serve_params *p, const char *body, size_t len,
                      char *why, size_t why_len) {
  json_error_t err;
  /* A key twice would be taken once, its other value dropped unsaid. */
  json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
  if (root == NULL && json_error_code(&err) == json_error_duplicate_key) {
    duplicate(&err, why, why_len);
    return -2;
  }
  if (root == NULL || !json_is_object(root)) {
    json_decref(root);
    return -1;
  }
  p->json = 1;
  const char *name;
  json_t *value;
  int ok = 1;
  json_object_foreach(root, name, value) {
    if (json_is_array(value)) {
      size_t i;
      json_t *item;
      json_array_foreach(value, i, item) {
        if (ok == 1 && (ok = add_json(p, name, item, 1)) == -2)
          snprintf(why, why_len, "item %zu of \"%s\" is not a string", i + 1,
                   name);
      }
    } else if (ok == 1) {
      ok = add_json(p, name, value, 0);
    }
  }
  json_decref(root);
  return ok;
}

void serve_params_free(struct serve_params *p) {
  for (size_t i = 0; i < p->n; i++) {
    free(p->v[i].name);
    free(p->v[i].value);
  }
  free(p->v);
  memset(p, 0, sizeof *p);
}

/* --- Replies ---------------------------------------------------------------
 */

/* Python's json.dumps writes "</" as "<\/" in APy's answers. */
static char *apy_slashes(char *s, size_t *len) {
  size_t n = 0, k = 0;
  for (const char *q = s; (q = strstr(q, "</")) != NULL; q += 2)
    n++;
  char *out = malloc(strlen(s) + n + 1);
  if (out == NULL) {
    free(s);
    return NULL;
  }
  for (const char *q = s; *q != '\0'; q++) {
    out[k++] = *q;
    if (q[0] == '<' && q[1] == '/')
      out[k++] = '\\';
  }
  out[k] = '\0';
  *len = k;
  free(s);
  return out;
}

int serve_reply_json(struct serve_reply *r, unsigned status, json_t *obj,
                     int apy) {
  serve_reply_free(r);
  if (obj == NULL)
    return 0;
  char *s =
      json_dumps(obj, apy ? JSON_ENCODE_ANY : JSON_ENCODE_ANY | JSON_COMPACT);
  json_decref(obj);
  if (s == NULL)
    return 0;
  size_t len = strlen(s);
  if (apy) {
    s = apy_slashes(s, &len);
  } else {
    char *t = realloc(s, len + 2);
    if (t == NULL) {
      free(s);
      return 0;
    }
    s = t;
    s[len++] = '\n';
    s[len] = '\0';
  }
  if (s == NULL)
    return 0;
  r->status = status;
  r->body = s;
  r->len = len;
  r->content_type = "application/json; charset=UTF-8";
  return 1;
}

int serve_reply_text(struct serve_reply *r, unsigned status,
                     const char *content_type, const char *text) {
  serve_reply_free(r);
  if ((r->body = strdup(text)) == NULL)
    return 0;
  r->status = status;
  r->len = strlen(text);
  r->content_type = content_type;
  return 1;
}

void serve_reply_free(struct serve_reply *r) {
  if (r->has_file)
    close(r->file);
  r->has_file = 0;
  free(r->body);
  free(r->disposition);
  r->body = NULL;
  r->disposition = NULL;
  r->len = 0;
}
